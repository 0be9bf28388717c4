/* src/cli/vectors.h — the `vectors` command. */
#ifndef UL_CLI_VECTORS_H
#define UL_CLI_VECTORS_H

#include <stdio.h>

/* `ulaudit vectors --out DIR [--digits N] [--only FAMILY] [--json]`, or
 * `ulaudit vectors check ...` when argv[0] is "check": argv
 * are the arguments after "vectors"; returns the exit code (0 written; 2
 * usage or input error, one line on stderr naming the flag; 3 a value could
 * not be certified to N digits below the precision cap). */
int ul_cli_vectors(int argc, char **argv);

void ul_cli_vectors_help(FILE *out);

/* `ulaudit vectors check --family F RESULTS.csv [--json]` (vectors_check.c;
 * ul_cli_vectors passes "check" and what follows): exit 0 every value exact
 * or safe-inaccurate, 1 a value unsafe or invalid, 2 usage or input error,
 * 3 none unsafe or invalid but rows unmatched (vectors/check.h). */
int ul_cli_vectors_check(int argc, char **argv);

void ul_cli_vectors_check_help(FILE *out);

#endif
