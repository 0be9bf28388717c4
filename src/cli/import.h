/* src/cli/import.h — the `import` command. */
#ifndef UL_CLI_IMPORT_H
#define UL_CLI_IMPORT_H

#include <stdio.h>

/* `ulaudit import FORMAT FILE|- [--eps E] [--delta D] [--adjacency A]
 * [--out FILE] [--json]`: argv are the arguments after "import"; returns
 * the exit code (0 written; 2 usage or input error: one line on stderr,
 * nothing on stdout, no --out file). */
int ul_cli_import(int argc, char **argv);

void ul_cli_import_help(FILE *out);

#endif
