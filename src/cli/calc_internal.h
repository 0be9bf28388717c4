/* src/cli/calc_internal.h — what the two files of the calc command share
 * (calc.c: one point; calc_batch.c: --batch). */
#ifndef UL_CLI_CALC_INTERNAL_H
#define UL_CLI_CALC_INTERNAL_H

#include "calc/calc.h"

/* Writes each line of a result's message to stderr as "ulaudit LINE". */
void ul_cli_calc_print_message(const char *message);

/* `ulaudit calc QUANTITY --help`: the quantity's usage on stdout; 0. */
int ul_cli_calc_quantity_help(const ul_calc_quantity *q);

/* `ulaudit calc QUANTITY ... --batch FILE|-`: argv are the flags after the
 * quantity, among them --batch.  Returns 0, 2 when a flag or a record was
 * bad (a record's error line printed, the rest still run), 3 when none was
 * bad but a precision cap or a time budget was reached. */
int ul_cli_calc_batch(const ul_calc_quantity *q, int argc, char **argv);

#endif
