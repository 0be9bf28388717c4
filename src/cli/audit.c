/* src/cli/audit.c — `ulaudit audit CERT.json` and `ulaudit calibrate CERT.json`.
 *
 * audit: loads the certificate (cert.h), runs the handler of its method
 * (audit.h) and prints the report (report.h) as text or, with --json, as one
 * JSON object; the exit code is the verdict's (0 supported, 1 unsupported /
 * refuted / invalid, 3 inconclusive).  Any input problem (unreadable file,
 * malformed JSON, a field that does not fit the method's schema, a method
 * not auditable yet) is exit 2 with one line on stderr that names the file
 * and the JSON path, and nothing on stdout.
 *
 * calibrate: prints the certificate completed with the missing or
 * insufficient parameter (the methods with a calibrate function in the
 * registry, audit/audit.c: σ for gaussian-mechanism and output-perturbation,
 * K or σ for langevin, T for model-clipping, K_Abar for noisy-gd, the noise
 * multiplier for dp-sgd), or writes it atomically with --out FILE (nothing
 * on stdout then).
 */
#include "cli/audit.h"

#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "audit/report.h"
#include "calc/read.h"
#include "io/file.h"
#include "cli/args.h"
#include "cli/audit_html.h"
#include "cli/exitcodes.h"
#include "cli/progress.h"
#include "cli/watchdog.h"
#include "io/escape.h"
#include "num/deadline.h"

#include <time.h>

#define ERR_LEN 1024

/* The time budget's backstop is the command line's watchdog (watchdog.h):
 * the computation checks the budget cooperatively (num/deadline.h:
 * UL_ETIME, reported as inconclusive); a step that never checks it is
 * ended UL_WATCHDOG_GRACE s after the budget with the prepared answer (the
 * inconclusive report, or calibrate's message) and exit 3.  Nothing is
 * printed before ul_watchdog_stop, so the two answers never mix. */

void ul_cli_audit_help(FILE *out)
{
    fprintf(out,
            "usage: ulaudit audit CERT.json [--json] [--digits N] [--max-bits B]\n"
            "                               [--max-seconds S] [--html FILE]\n\n"
            "Recomputes the guarantee of the theorem a certificate cites, with certified\n"
            "(interval) arithmetic, and gives the verdict: supported, unsupported, refuted,\n"
            "invalid or inconclusive, with the recomputed enclosure, the preconditions,\n"
            "what would reach the claim and which faulty recipe reproduces a wrong number.\n\n"
            "  --json          one JSON object on stdout (fields: verdict, exit_code, method,\n"
            "                  source, certificate_sha256, tool, generated_at, claim,\n"
            "                  claim_values, theorem, variant, recomputed, margin,\n"
            "                  preconditions, omitted, other_variant, would_reach,\n"
            "                  first_wrong_stated, forensics, explanation, digits; every key:\n"
            "                  man ulaudit-audit, JSON REPORT)\n"
            "  --digits N      significant digits of the printed enclosures (default 17)\n"
            "  --max-bits B    precision cap in bits (default 65536)\n"
            "  --max-seconds S time budget in seconds, e.g. 0.5 (default 60; 0: no limit).\n"
            "                  An audit not finished within S seconds is inconclusive\n"
            "                  (exit 3) with the reason in the explanation (\"time limit of\n"
            "                  S s reached (--max-seconds) while ...\"), never a partial\n"
            "                  number; a step that does not check the budget itself is\n"
            "                  stopped by a watchdog %g s after it, with the same report\n"
            "  --html FILE     also write the report as one self-contained HTML page (the\n"
            "                  verdict, claim vs certified, preconditions, the certified\n"
            "                  privacy curve; no network access): atomically, before\n"
            "                  stdout, which is unchanged; FILE not writable: exit 2,\n"
            "                  nothing written (man ulaudit-audit, HTML REPORT)\n\n"
            "Exit codes: 0 supported, 1 unsupported/refuted/invalid, 3 inconclusive (the\n"
            "enclosure straddles the claim at the precision cap, or the time budget ran out),\n"
            "2 unreadable or malformed certificate (one line on stderr naming the JSON path).\n"
            "Example: ulaudit audit audits/output-perturbation-classic-eps10.json\n",
            UL_WATCHDOG_GRACE);
}

void ul_cli_calibrate_help(FILE *out)
{
    fprintf(out,
            "usage: ulaudit calibrate CERT.json [--out FILE] [--digits N] [--max-bits B]\n"
            "                                   [--max-seconds S] [--json] [--html FILE]\n\n"
            "Prints the certificate completed with the parameter that makes its claim\n"
            "supported (the certified safe end of the smallest value, rounded up to N\n"
            "digits), when it is missing or does not support the claim; a sufficient value\n"
            "is kept: sigma for gaussian-mechanism and output-perturbation, K (or sigma at\n"
            "the given K) for langevin (strongly convex), steps for model-clipping, KAbar\n"
            "for noisy-gd (theorem g15); for dp-sgd noise_multiplier (one phase), steps (one\n"
            "phase, steps left out: the most steps) or noise_scale (a list of phases: one\n"
            "factor on every noise multiplier).  The other methods\n"
            "have no calibration (exit 2).  The \"expected\" object of a corpus certificate\n"
            "is dropped.\n\n"
            "  --out FILE      write the certificate to FILE atomically (temporary file, then\n"
            "                  rename) instead of printing it\n"
            "  --digits N      significant digits of the calibrated value (default 17)\n"
            "  --max-bits B    precision cap in bits (default 65536)\n"
            "  --max-seconds S time budget in seconds (default 300; 0: no limit); when it runs\n"
            "                  out: exit 3, one line on stderr, nothing written (a step\n"
            "                  that does not check the budget is stopped %g s after it)\n"
            "  --json          accepted for uniformity: the output is JSON either way\n"
            "  --html FILE     also write the audit of the completed certificate as one\n"
            "                  self-contained HTML page (the certificate shown first);\n"
            "                  FILE not writable: exit 2, nothing written\n\n"
            "Exit codes: 0 success, 2 usage or input error (nothing written), 3 time budget\n"
            "ran out (nothing written).\n",
            UL_WATCHDOG_GRACE);
}

/* The monotonic clock in seconds. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* What --max-seconds leaves since start (0: no limit; a spent budget gives
 * a token 1e-3 s, so that the curve stops at once with its reason). */
static double left(double seconds, double start)
{
    if (seconds <= 0)
        return 0;
    double l = seconds - (now() - start);
    return l > 1e-3 ? l : 1e-3;
}

/* Common front half: arguments, help, the certificate.  Returns -1 to go
 * on, or an exit code. */
static int load(const char *cmd, int argc, char **argv, const ul_cli_flag *flags, int nflags,
                const char **values, ul_cli_common *common, ul_cert **cert, const char **path,
                void (*help)(FILE *), double *seconds)
{
    /* the one parser of every command (args.h): one certificate file */
    ul_cli_grammar g = {flags, nflags, NULL, 0, 1, " (one certificate file per run)"};
    char err[ERR_LEN];
    int nargs = 0;
    *path = NULL;
    int rc = ul_cli_parse_with_args(&g, argc, argv, values, common, path, &nargs, err, sizeof err);
    if (rc == 0 && !common->help)
        rc = ul_calc_read_budget(values[nflags - 1], seconds, err, sizeof err);
    if (rc != 0) {
        ul_io_escape_message(err, sizeof err); /* it quotes what was typed */
        fprintf(stderr, "ulaudit %s: %s\n", cmd, err);
        return UL_EXIT_USAGE;
    }
    if (common->help) {
        help(stdout);
        return UL_EXIT_OK;
    }
    if (*path == NULL) {
        fprintf(stderr, "ulaudit %s: missing the certificate file (usage: ulaudit %s CERT.json; "
                        "see ulaudit %s --help)\n", cmd, cmd, cmd);
        return UL_EXIT_USAGE;
    }
    if (ul_cert_load(*path, cert, err, sizeof err) != UL_OK) {
        ul_io_escape_message(err, sizeof err); /* it quotes the path and the file */
        fprintf(stderr, "ulaudit %s: %s\n", cmd, err);
        return UL_EXIT_USAGE;
    }
    return -1;
}

/* What `audit` prints on stdout for a report (malloc'd). */
static char *audit_output(const ul_audit_report *rep, const ul_cert *cert, const char *path,
                          const ul_cli_common *common)
{
    char *body, *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (f == NULL)
        abort();
    if (common->json) {
        body = ul_audit_report_json(rep, ul_cert_method(cert), ul_cert_source(cert),
                                    common->digits);
        fprintf(f, "%s\n", body);
    } else {
        body = ul_audit_report_text(rep, ul_cert_method(cert), ul_cert_source(cert));
        char shown[256];
        fprintf(f, "%-20s%s\n%s", "certificate", ul_io_escape(path, strlen(path), shown, sizeof shown),
                body);
    }
    free(body);
    if (fclose(f) != 0 || out == NULL)
        abort();
    return out;
}

/* The watchdog's report: what the audit prints when time ran out in a step
 * that does not check the budget (malloc'd). */
static char *late_output(const ul_cert *cert, const char *path, const ul_cli_common *common)
{
    ul_audit_report *late = malloc(sizeof *late);
    if (late == NULL)
        abort();
    ul_audit_report_init(late);
    snprintf(late->claim, sizeof late->claim, "as in the certificate (not read: the audit was "
                                              "stopped by the time limit)");
    snprintf(late->theorem, sizeof late->theorem, "not recomputed (the audit was stopped by the "
                                                  "time limit)");
    char what[256];
    snprintf(what, sizeof what,
             "auditing the certificate, in a step that does not check the budget (stopped %g s "
             "later)",
             UL_WATCHDOG_GRACE);
    ul_audit_time_out(late, what);
    char *out = audit_output(late, cert, path, common);
    free(late);
    return out;
}

int ul_cli_audit(int argc, char **argv)
{
    static const ul_cli_flag flags[] = {
        {"html", "FILE", "also write the report as one self-contained HTML page", ""},
        {"max-seconds", "S", "time budget in seconds (0: no limit)", "60"},
    };
    const char *values[2];
    ul_cli_common common;
    ul_cert *cert = NULL;
    const char *path;
    double seconds = 0;
    int rc = load("audit", argc, argv, flags, 2, values, &common, &cert, &path,
                  ul_cli_audit_help, &seconds);
    if (rc < 0 && values[0][0] != '\0')
        rc = ul_cli_html_check("audit", values[0]) ? UL_EXIT_USAGE : -1;
    if (rc >= 0) {
        ul_cert_free(cert);
        return rc;
    }
    double start = now();

    ul_num_precision want = {common.digits, 0, common.max_bits};
    ul_audit_report *rep = malloc(sizeof *rep);
    if (rep == NULL)
        abort();
    char err[ERR_LEN];
    ul_deadline_set(seconds);
    char *late = seconds > 0 ? late_output(cert, path, &common) : NULL;
    ul_watchdog_start("audit", seconds, late, NULL); /* the report says why: no stderr line */
    ul_cli_progress_install(common.json); /* a bar on a terminal (cli/progress.h) */
    ul_status st = ul_audit(cert, &want, rep, err, sizeof err);
    ul_cli_progress_remove();
    ul_watchdog_stop();
    ul_deadline_clear();
    ul_audit_report_hash(rep, path, NULL, 0); /* the certificate's SHA-256 (audit/report.h) */
    free(late);
    if (st != UL_OK) {
        char shown[256];
        fprintf(stderr, "ulaudit audit: %s: %s\n", ul_io_escape(path, strlen(path), shown, sizeof shown),
                err);
        rc = UL_EXIT_USAGE;
    } else {
        /* the page first: when it cannot be written, nothing is printed */
        ul_cli_html_job job = {"audit", values[0], path, NULL, cert, rep, &want,
                               common.digits, left(seconds, start), NULL};
        rc = values[0][0] != '\0' ? ul_cli_html_write(&job) : 0;
        if (rc == 0) {
            char *out = audit_output(rep, cert, path, &common);
            fputs(out, stdout);
            free(out);
            rc = ul_verdict_exit_code(rep->verdict);
        }
    }
    free(rep);
    ul_cert_free(cert);
    return rc;
}

/* calibrate --html FILE: the page of the completed certificate's audit
 * (within what --max-seconds leaves).  0, or 2 with a message naming
 * --html (nothing written). */
static int calibrate_html(const char *file, const char *path, const char *completed,
                          const ul_num_precision *want, const ul_cli_common *common,
                          double seconds)
{
    char err[ERR_LEN];
    ul_cert *done = NULL;
    ul_audit_report *rep = malloc(sizeof *rep);
    if (rep == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    ul_status st = ul_cert_load_buffer(completed, strlen(completed), &done, err, sizeof err);
    if (st == UL_OK) {
        ul_deadline_set(seconds);
        st = ul_audit(done, want, rep, err, sizeof err);
        ul_deadline_clear();
    }
    int rc = UL_EXIT_USAGE;
    if (st == UL_OK) {
        ul_audit_report_hash(rep, NULL, completed, strlen(completed));
        ul_cli_html_job job = {"calibrate", file, path, completed, done, rep, want,
                               common->digits, seconds, completed};
        rc = ul_cli_html_write(&job);
    } else {
        ul_io_escape_message(err, sizeof err);
        fprintf(stderr, "ulaudit calibrate: --html: the completed certificate's audit: %s "
                        "(nothing written)\n", err);
    }
    ul_cert_free(done);
    free(rep);
    return rc;
}

int ul_cli_calibrate(int argc, char **argv)
{
    static const ul_cli_flag flags[] = {
        {"out", "FILE", "write the completed certificate to FILE atomically", ""},
        /* bounded by default (issue 12), more generous than audit's 60 s: a
         * calibration is a search (dp-sgd most-steps at q = 0.004: ~20 s) */
        {"html", "FILE", "also write the completed certificate's audit as an HTML page", ""},
        {"max-seconds", "S", "time budget in seconds (0: no limit)", "300"},
    };
    const char *values[3];
    ul_cli_common common;
    ul_cert *cert = NULL;
    const char *path;
    double seconds = 0;
    int rc = load("calibrate", argc, argv, flags, 3, values, &common, &cert, &path,
                  ul_cli_calibrate_help, &seconds);
    if (rc < 0 && values[1][0] != '\0')
        rc = ul_cli_html_check("calibrate", values[1]) ? UL_EXIT_USAGE : -1;
    if (rc >= 0) {
        ul_cert_free(cert);
        return rc;
    }
    double start = now();

    ul_num_precision want = {common.digits, 0, common.max_bits};
    char err[ERR_LEN];
    char *completed = NULL;
    ul_deadline_set(seconds);
    ul_watchdog_start("calibrate", seconds, NULL, "nothing written");
    ul_cli_progress_install(common.json);
    ul_status st = ul_audit_calibrate(cert, &want, &completed, err, sizeof err);
    ul_cli_progress_remove();
    ul_watchdog_stop();
    ul_deadline_clear();
    ul_cert_free(cert);
    if (st != UL_OK) {
        char shown[256];
        fprintf(stderr, "ulaudit calibrate: %s: %s%s\n",
                ul_io_escape(path, strlen(path), shown, sizeof shown), err,
                st == UL_ETIME ? " Nothing was written." : "");
        return st == UL_ETIME ? UL_EXIT_INCONCLUSIVE : UL_EXIT_USAGE;
    }
    rc = values[1][0] != '\0' ? calibrate_html(values[1], path, completed, &want, &common,
                                                left(seconds, start))
                              : UL_EXIT_OK;
    if (rc != UL_EXIT_OK) {
        /* nothing written, nothing printed */
    } else if (values[0][0] != '\0') {
        if (ul_io_write_atomic_bytes(values[0], completed, strlen(completed), err, sizeof err) !=
            UL_OK) {
            fprintf(stderr, "ulaudit calibrate: %s\n", err);
            rc = UL_EXIT_USAGE;
        }
    } else {
        fputs(completed, stdout);
    }
    free(completed);
    return rc;
}
