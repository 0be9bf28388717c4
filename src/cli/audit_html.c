/* src/cli/audit_html.c — `audit --html FILE` and `calibrate --html FILE`
 * (audit_html.h). */
#include "cli/audit_html.h"

#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit/curve.h"
#include "audit/report.h"
#include "cli/exitcodes.h"
#include "cli/plugin.h"
#include "emp/plot_privacy.h"
#include "io/escape.h"
#include "io/file.h"
#include "report/html.h"

int ul_cli_html_check(const char *cmd, const char *file)
{
    char shown[256], copy[4096];
    ul_io_escape(file, strlen(file), shown, sizeof shown);
    struct stat sb;
    const char *why = NULL;
    if (file[0] == '\0' || strlen(file) >= sizeof copy)
        why = "not a usable file name";
    else if (stat(file, &sb) == 0 && S_ISDIR(sb.st_mode))
        why = "is a directory";
    if (why == NULL) {
        /* the atomic write creates a temporary file beside FILE: its
         * directory must exist and be writable */
        snprintf(copy, sizeof copy, "%s", file);
        const char *dir = dirname(copy);
        if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
            why = "its directory does not exist";
        else if (access(dir, W_OK | X_OK) != 0)
            why = "its directory is not writable";
    }
    if (why == NULL)
        return 0;
    fprintf(stderr, "ulaudit %s: --html %s: %s (nothing written)\n", cmd, shown, why);
    return UL_EXIT_USAGE;
}

/* The curve's figure: the plugin's SVG (*svg), or why there is none. */
static void draw(const ul_cli_html_job *job, const ul_audit_curve *c, char **svg, size_t *len,
                 char *why, size_t whylen)
{
    *svg = NULL;
    if (c->n == 0) {
        snprintf(why, whylen, "No privacy curve: %s.", c->why[0] ? c->why : "none was computed");
        return;
    }
    ul_emp_plot_privacy_svg_fn f = (ul_emp_plot_privacy_svg_fn)(uintptr_t)ul_cli_plugin_symbol(
        job->cmd, "ul_emp_plot_privacy_svg");
    if (f == NULL) {
        snprintf(why, whylen, "No figure: the drawing plugin (%s) did not load or cannot draw it.",
                 UL_CLI_PLUGIN_NAME);
        return;
    }
    char err[512], title[160];
    /* the method names the picture; the legend names the theorem's forms */
    snprintf(title, sizeof title, "Certified privacy curve: %.100s", ul_cert_method(job->cert));
    if (f(c, title, svg, len, err, sizeof err) != UL_OK) {
        *svg = NULL;
        snprintf(why, whylen, "No figure: %.400s.", err);
    }
}

/* The page's text (malloc'd), or NULL with err. */
static char *render(const ul_cli_html_job *job, char *err, size_t errlen)
{
    ul_audit_curve *c = malloc(sizeof *c);
    if (c == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    double budget = UL_CLI_HTML_CURVE_SECONDS;
    if (job->seconds_left > 0 && job->seconds_left < budget)
        budget = job->seconds_left;
    const char *text = job->text;
    if (ul_audit_curve_compute(text ? NULL : job->path, text, text ? strlen(text) : 0, job->rep,
                               job->want, budget, c, err, errlen) != UL_OK) {
        c->n = 0;
        snprintf(c->why, sizeof c->why, "%.200s", err);
    }
    char *svg = NULL, why[512];
    size_t len = 0;
    draw(job, c, &svg, &len, why, sizeof why);
    /* a drawn curve with points missing says so in its caption */
    char caption[512];
    snprintf(caption, sizeof caption,
             "The certified privacy curve: the theorem's guarantee at other claims, each point "
             "an audit's enclosure; the marker is the claim.%s%.256s",
             svg != NULL && c->why[0] ? " " : "", svg != NULL ? c->why : "");
    ul_report_figure fig = {svg, len, caption, "certified privacy curve",
                            svg != NULL ? NULL : why};
    char *json = ul_audit_report_json(job->rep, ul_cert_method(job->cert),
                                      ul_cert_source(job->cert), job->digits);
    char *html = NULL;
    ul_status st = job->completed != NULL
                       ? ul_report_html_calibrate(job->completed, json, &fig, 1, &html, err, errlen)
                       : ul_report_html_audit(json, &fig, 1, &html, err, errlen);
    free(json);
    free(svg);
    free(c);
    return st == UL_OK ? html : NULL;
}

int ul_cli_html_write(const ul_cli_html_job *job)
{
    char err[1024];
    char *html = render(job, err, sizeof err);
    if (html == NULL || ul_io_write_atomic_bytes(job->file, html, strlen(html), err,
                                                 sizeof err) != UL_OK) {
        ul_io_escape_message(err, sizeof err);
        fprintf(stderr, "ulaudit %s: --html: %s (nothing written)\n", job->cmd, err);
        free(html);
        return UL_EXIT_USAGE;
    }
    free(html);
    return 0;
}
