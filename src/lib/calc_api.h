/* src/lib/calc_api.h — the calculator as the library (src/lib/ulaudit.c)
 * and `calc --batch` (src/lib/batch.c) call it: by quantity name, output
 * captured.  Implemented in src/cli/calc.c beside the quantity table. */
#ifndef UL_LIB_CALC_API_H
#define UL_LIB_CALC_API_H

#include <stddef.h>

#include "cli/args.h"
#include "num/status.h"

/* Runs `quantity` with the flags argv[0..argc) ("--eps", "1", ...) on the
 * calling thread, nothing printed: on exit code 0 (UL_OK) or 3 (UL_ECAP: the
 * enclosure is sound but has fewer digits than asked) *json receives the
 * result object as one line of JSON text (malloc'd; the caller frees it), the
 * same object as `ulaudit calc QUANTITY --json`.  On exit code 2 *json is
 * NULL and err holds the message (naming the flag and the rule); *st is
 * UL_EINPUT, UL_ENOROOT or UL_ETIME.  A cap warning is also copied to err. */
int ul_cli_calc_capture(const char *quantity, int argc, char **argv, char **json, ul_status *st,
                        char *err, size_t errlen);

/* Number of quantities, and quantity i's name, summary and flags. */
size_t ul_cli_calc_count(void);
const ul_cli_flag *ul_cli_calc_quantity(size_t i, const char **name, const char **summary,
                                        int *nflags);

/* `ulaudit calc QUANTITY ... --batch FILE|-`: argv are the flags after the
 * quantity, argv[batch] the --batch flag (src/lib/batch.c).  Returns 0, 2
 * when a record was bad (its error line printed, the rest still run), 3
 * when none was bad but a precision cap was reached. */
int ul_cli_calc_batch(const char *quantity, int argc, char **argv, int batch);

#endif
