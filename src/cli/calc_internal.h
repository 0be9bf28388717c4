/* src/cli/calc_internal.h — what the two files of the calc command share
 * (calc.c: one point; calc_batch.c: --batch). */
#ifndef UL_CLI_CALC_INTERNAL_H
#define UL_CLI_CALC_INTERNAL_H

#include <stdbool.h>

#include "calc/calc.h"

/* --max-seconds of vectors (cli/vectors.c) reads the calculator's rule:
 * the names it knows them by. */
#define CALC_BUDGET_RULE UL_CALC_BUDGET_RULE
static inline bool calc_read_budget(const char *text, double *secs)
{
    return ul_calc_read_budget(text, secs);
}

/* Writes each line of a result's message to stderr as "ulaudit LINE". */
void ul_cli_calc_print_message(const char *message);

/* `ulaudit calc QUANTITY ... --batch FILE|-`: argv are the flags after the
 * quantity, argv[batch] the --batch flag.  Returns 0, 2 when a record was
 * bad (its error line printed, the rest still run), 3 when none was bad but
 * a precision cap or a time budget was reached. */
int ul_cli_calc_batch(const char *quantity, int argc, char **argv, int batch);

#endif
