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
 * insufficient parameter (σ for gaussian-mechanism and output-perturbation),
 * or writes it atomically with --out FILE (nothing on stdout then).
 */
#include "cli/audit.h"

#include <stdlib.h>
#include <string.h>

#include "cert/audit.h"
#include "cert/report.h"
#include "cli/args.h"
#include "cli/exitcodes.h"

#define ERR_LEN 1024

void ul_cli_audit_help(FILE *out)
{
    fprintf(out,
            "usage: ulaudit audit CERT.json [--json] [--digits N] [--max-bits B]\n\n"
            "Recomputes the guarantee of the theorem a certificate cites, with certified\n"
            "(interval) arithmetic, and gives the verdict: supported, unsupported, refuted,\n"
            "invalid or inconclusive, with the recomputed enclosure, the preconditions,\n"
            "what would reach the claim and which faulty recipe reproduces a wrong number.\n\n"
            "  --json          one JSON object on stdout (fields: verdict, exit_code, method,\n"
            "                  source, claim, theorem, variant, recomputed, margin,\n"
            "                  preconditions, other_variant, would_reach, first_wrong_stated,\n"
            "                  forensics, explanation, digits)\n"
            "  --digits N      significant digits of the printed enclosures (default 17)\n"
            "  --max-bits B    precision cap in bits (default 65536)\n\n"
            "Exit codes: 0 supported, 1 unsupported/refuted/invalid, 3 inconclusive,\n"
            "2 unreadable or malformed certificate (one line on stderr naming the JSON path).\n"
            "Example: ulaudit audit audits/output-perturbation-classic-eps10.json\n");
}

void ul_cli_calibrate_help(FILE *out)
{
    fprintf(out,
            "usage: ulaudit calibrate CERT.json [--out FILE] [--digits N] [--max-bits B] [--json]\n\n"
            "Prints the certificate completed with the parameter that makes its claim\n"
            "supported (sigma for gaussian-mechanism and output-perturbation: the certified\n"
            "safe end of the smallest sigma, rounded up to N digits), when it is missing or\n"
            "does not support the claim; a sufficient sigma is kept.  The \"expected\" object\n"
            "of a corpus certificate is dropped.\n\n"
            "  --out FILE      write the certificate to FILE atomically (temporary file, then\n"
            "                  rename) instead of printing it\n"
            "  --digits N      significant digits of the calibrated value (default 17)\n"
            "  --max-bits B    precision cap in bits (default 65536)\n"
            "  --json          accepted for uniformity: the output is JSON either way\n\n"
            "Exit codes: 0 success, 2 usage or input error (nothing written).\n");
}

/* Splits off the one positional argument (the certificate path) from the
 * flags.  value_flags take a value (in the next argument unless written
 * --name=value); bool_flags do not; any other --flag is refused here, so
 * that its value is not mistaken for the certificate path. */
static int split_args(int argc, char **argv, const char *const *value_flags,
                      const char *const *bool_flags, char **rest, int *nrest, const char **path,
                      char *err, size_t errlen)
{
    *path = NULL;
    *nrest = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) == 0 && a[2] != '\0') {
            size_t len = strcspn(a + 2, "=");
            bool takes_value = false, known = false;
            for (size_t k = 0; value_flags[k] != NULL; k++)
                if (strlen(value_flags[k]) == len && strncmp(a + 2, value_flags[k], len) == 0)
                    known = takes_value = true;
            for (size_t k = 0; bool_flags[k] != NULL; k++)
                if (strlen(bool_flags[k]) == len && strncmp(a + 2, bool_flags[k], len) == 0)
                    known = true;
            if (!known) {
                snprintf(err, errlen, "unknown flag --%.*s", (int)(len > 64 ? 64 : len), a + 2);
                return UL_EXIT_USAGE;
            }
            rest[(*nrest)++] = argv[i];
            if (takes_value && a[2 + len] != '=' && i + 1 < argc)
                rest[(*nrest)++] = argv[++i];
        } else if (strcmp(a, "-h") == 0) {
            rest[(*nrest)++] = argv[i];
        } else if (*path == NULL) {
            *path = a;
        } else {
            snprintf(err, errlen, "unexpected argument '%s' (one certificate file per run)", a);
            return UL_EXIT_USAGE;
        }
    }
    return 0;
}

/* Common front half: arguments, help, the certificate.  Returns -1 to go
 * on, or an exit code. */
static int load(const char *cmd, int argc, char **argv, const ul_cli_flag *flags, int nflags,
                const char **values, ul_cli_common *common, ul_cert **cert, const char **path,
                void (*help)(FILE *))
{
    static const char *const bool_flags[] = {"json", "help", NULL};
    const char *value_flags[UL_CLI_MAX_FLAGS + 3] = {"digits", "max-bits"};
    for (int i = 0; i < nflags && i < UL_CLI_MAX_FLAGS; i++)
        value_flags[2 + i] = flags[i].name;
    value_flags[2 + (nflags < UL_CLI_MAX_FLAGS ? nflags : UL_CLI_MAX_FLAGS)] = NULL;
    char err[ERR_LEN];
    char **rest = malloc((size_t)(argc + 1) * sizeof *rest);
    if (rest == NULL)
        abort();
    int nrest;
    int rc = split_args(argc, argv, value_flags, bool_flags, rest, &nrest, path, err, sizeof err);
    if (rc == 0)
        rc = ul_cli_parse(nrest, rest, flags, nflags, values, common, err, sizeof err);
    free(rest);
    if (rc != 0) {
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
        fprintf(stderr, "ulaudit %s: %s\n", cmd, err);
        return UL_EXIT_USAGE;
    }
    return -1;
}

int ul_cli_audit(int argc, char **argv)
{
    ul_cli_common common;
    ul_cert *cert = NULL;
    const char *path;
    int rc = load("audit", argc, argv, NULL, 0, NULL, &common, &cert, &path, ul_cli_audit_help);
    if (rc >= 0)
        return rc;

    ul_num_precision want = {common.digits, 0, common.max_bits};
    ul_audit_report rep;
    char err[ERR_LEN];
    if (ul_audit(cert, &want, &rep, err, sizeof err) != UL_OK) {
        fprintf(stderr, "ulaudit audit: %s: %s\n", path, err);
        ul_cert_free(cert);
        return UL_EXIT_USAGE;
    }
    char *out;
    if (common.json) {
        out = ul_audit_report_json(&rep, ul_cert_method(cert), ul_cert_source(cert),
                                   common.digits);
        puts(out);
    } else {
        out = ul_audit_report_text(&rep, ul_cert_method(cert), ul_cert_source(cert));
        printf("%-20s%s\n%s", "certificate", path, out);
    }
    free(out);
    ul_cert_free(cert);
    return ul_verdict_exit_code(rep.verdict);
}

int ul_cli_calibrate(int argc, char **argv)
{
    static const ul_cli_flag flags[] = {
        {"out", "FILE", "write the completed certificate to FILE atomically", ""},
    };
    const char *values[1];
    ul_cli_common common;
    ul_cert *cert = NULL;
    const char *path;
    int rc = load("calibrate", argc, argv, flags, 1, values, &common, &cert, &path,
                  ul_cli_calibrate_help);
    if (rc >= 0)
        return rc;

    ul_num_precision want = {common.digits, 0, common.max_bits};
    char err[ERR_LEN];
    char *completed = NULL;
    if (ul_audit_calibrate(cert, &want, &completed, err, sizeof err) != UL_OK) {
        fprintf(stderr, "ulaudit calibrate: %s: %s\n", path, err);
        ul_cert_free(cert);
        return UL_EXIT_USAGE;
    }
    ul_cert_free(cert);
    rc = UL_EXIT_OK;
    if (values[0][0] != '\0') {
        if (ul_cert_write_atomic(values[0], completed, strlen(completed), err, sizeof err) !=
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
