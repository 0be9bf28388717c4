/* src/cli/audit.h — the `audit` and `calibrate` commands. */
#ifndef UL_CLI_AUDIT_H
#define UL_CLI_AUDIT_H

#include <stdio.h>

/* `ulaudit audit CERT.json [--json] [--digits N] [--max-bits B]`: argv are
 * the arguments after "audit"; returns the exit code (0 supported; 1
 * unsupported, refuted or invalid; 3 inconclusive; 2 unreadable or malformed
 * input, with one line on stderr naming the JSON path and nothing on
 * stdout).  --html FILE also writes the report as an HTML page
 * (cli/audit_html.h); a FILE that cannot be written is exit 2, checked
 * before the audit. */
int ul_cli_audit(int argc, char **argv);

/* `ulaudit calibrate CERT.json [--out FILE] [--digits N] [--max-bits B]
 * [--json] [--html FILE]`: prints (or writes atomically to FILE) the certificate completed
 * with the parameter that makes its claim supported.  0 or 2. */
int ul_cli_calibrate(int argc, char **argv);

void ul_cli_audit_help(FILE *out);
void ul_cli_calibrate_help(FILE *out);

#endif
