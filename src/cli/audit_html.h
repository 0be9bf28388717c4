/* src/cli/audit_html.h — `--html FILE` of `audit` and `calibrate`: the
 * report as one self-contained page (report/html.h) with the certified
 * privacy curve (audit/curve.h) drawn by the plugin (emp/plot_privacy.h). */
#ifndef UL_CLI_AUDIT_HTML_H
#define UL_CLI_AUDIT_HTML_H

#include "audit/audit.h"
#include "cert/cert.h"

/* The curve's own bound within what --max-seconds leaves (seconds). */
#define UL_CLI_HTML_CURVE_SECONDS 60.0

/* Before the work: can FILE be written (its directory exists and is
 * writable, FILE is not a directory)?  0, or 2 with one line on stderr
 * "ulaudit CMD: --html FILE: ...". */
int ul_cli_html_check(const char *cmd, const char *file);

/* What the page is of: the certificate (path, or text[0..len) when text is
 * not NULL), its audit rep, and for calibrate the completed certificate. */
typedef struct {
    const char *cmd;       /* "audit" or "calibrate" */
    const char *file;      /* --html FILE */
    const char *path;      /* the certificate's path */
    const char *text;      /* its text, or NULL (read from path) */
    const ul_cert *cert;
    const ul_audit_report *rep;
    const ul_num_precision *want;
    int digits;
    double seconds_left;   /* of --max-seconds; 0: no limit */
    const char *completed; /* calibrate: the completed certificate, else NULL */
} ul_cli_html_job;

/* Computes the curve, asks the plugin for its figure (none, with the reason
 * on the page, when the curve is empty or the plugin cannot draw it),
 * renders the page and writes FILE atomically.  0, or 2 with one line on
 * stderr naming --html (nothing written). */
int ul_cli_html_write(const ul_cli_html_job *job);

#endif
