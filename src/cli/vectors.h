/* src/cli/vectors.h — the `vectors` command. */
#ifndef UL_CLI_VECTORS_H
#define UL_CLI_VECTORS_H

#include <stdio.h>

/* `ulaudit vectors --out DIR [--digits N] [--only FAMILY] [--json]`: argv
 * are the arguments after "vectors"; returns the exit code (0 written; 2
 * usage or input error, one line on stderr naming the flag; 3 a value could
 * not be certified to N digits below the precision cap). */
int ul_cli_vectors(int argc, char **argv);

void ul_cli_vectors_help(FILE *out);

#endif
