/* src/calc/batch.h — the records of `calc --batch` (calc/batch.c): read
 * from a stream, run one by one, each result handed to a callback; the
 * command line (src/cli/calc_batch.c) prints them. */
#ifndef UL_CALC_BATCH_H
#define UL_CALC_BATCH_H

#include <stdio.h>

#include "calc/calc.h"

#define UL_CALC_BATCH_MAX_FIXED 64

/* The flags given beside --batch, as (name, value) pairs: they apply to
 * every record that does not set them itself. */
typedef struct {
    const char *name[UL_CALC_BATCH_MAX_FIXED];
    const char *value[UL_CALC_BATCH_MAX_FIXED];
    int n;
} ul_calc_fixed;

/* Where the records' results go: emit(ctx, line, res) once per record, in
 * input order; res->json is the result (NULL: res->message is the error,
 * its lines joined by '\n').  res lives for the call only. */
typedef struct {
    void (*emit)(void *ctx, unsigned long line, const ul_calc_result *res);
    void *ctx;
} ul_calc_batch_out;

/* Runs every record of `in` as `quantity` plus the fixed flags.  Returns
 * 0, 2 when a record was bad (its error emitted, the rest still run) or the
 * input cannot go on (a CSV header that names no flags: the message in
 * fatal, nothing more read), 3 when none was bad but a precision cap or a
 * time budget was reached.  *read_errno receives the errno of a read error
 * (0: none). */
int ul_calc_batch_run(const char *quantity, FILE *in, const ul_calc_fixed *fx,
                      const ul_calc_batch_out *out, char *fatal, size_t fatallen, int *read_errno);

#endif
