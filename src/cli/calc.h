/* src/cli/calc.h — the `calc` command. */
#ifndef UL_CLI_CALC_H
#define UL_CLI_CALC_H

#include <stdio.h>

/* argv[0] is the quantity name; returns the exit code. */
int ul_cli_calc(int argc, char **argv);

/* Writes the calc help (quantities, flags, examples) to out. */
void ul_cli_calc_help(FILE *out);

#endif
