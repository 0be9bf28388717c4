/* src/cli/calc.h — the `calc` command. */
#ifndef UL_CLI_CALC_H
#define UL_CLI_CALC_H

#include <stdio.h>

/* argv[0] is the quantity name; returns the exit code. */
int ul_cli_calc(int argc, char **argv);

/* Writes the calc help (quantities, flags, examples) to out. */
void ul_cli_calc_help(FILE *out);

/* The command line's backstop of --max-seconds (src/cli/watchdog.h).  The
 * quantities are library code (the Makefile's CALC_SRC): they never start a
 * thread or install a signal handler themselves, and call these hooks only
 * when main.c has installed them, only for a quantity run from the command
 * line (never under a sink: src/lib, --batch).  start(command, seconds)
 * after the budget is set; claim() at the quantity's first output
 * (calc_out, calc_err), after which the run is never cut; stop() when the
 * quantity has returned. */
typedef struct {
    void (*start)(const char *command, double seconds);
    void (*claim)(void);
    void (*stop)(void);
} ul_cli_calc_backstop;

/* Installs the hooks (NULL: none), before ul_cli_calc and before any
 * thread that runs a quantity starts. */
void ul_cli_calc_set_backstop(const ul_cli_calc_backstop *b);

#endif
