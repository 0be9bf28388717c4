/* src/lib/calc_api.h — the calculator as the library (src/lib/ulaudit.c)
 * and `calc --batch` (src/lib/batch.c) call it: by quantity name, output
 * captured.  Implemented in src/cli/calc.c beside the quantity table.  The
 * library's files include this and no header of src/cli: what they need of
 * the calculator (its flag rows, exit codes, default budget) is here. */
#ifndef UL_LIB_CALC_API_H
#define UL_LIB_CALC_API_H

#include <stddef.h>

#include "num/status.h"

/* One flag of a quantity's row: the command line's parser reads the same
 * rows (cli/args.h: ul_cli_flag is this type), the library lists them
 * (ulaudit_calc_list) and --batch checks a CSV header against them. */
typedef struct ul_calc_flag {
    const char *name;          /* without dashes */
    const char *meta;          /* placeholder in help, e.g. "E" */
    const char *help;          /* one line */
    const char *default_value; /* NULL: required */
} ul_calc_flag;

/* The exit codes below (the command line's: cli/exitcodes.h, which
 * cli/calc_internal.h checks they equal). */
#define UL_CALC_EXIT_OK 0           /* a result */
#define UL_CALC_EXIT_USAGE 2        /* an input error: no result */
#define UL_CALC_EXIT_INCONCLUSIVE 3 /* the precision cap or the time budget */

/* The --max-seconds of every quantity on the command line and of every
 * --batch record that does not set it (audit's default budget); the library
 * (ulaudit.h) applies none unless asked. */
#define UL_CALC_DEFAULT_MAX_SECONDS "60"

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
const ul_calc_flag *ul_cli_calc_quantity(size_t i, const char **name, const char **summary,
                                         int *nflags);

/* `ulaudit calc QUANTITY ... --batch FILE|-`: argv are the flags after the
 * quantity, argv[batch] the --batch flag (src/lib/batch.c).  Returns 0, 2
 * when a record was bad (its error line printed, the rest still run), 3
 * when none was bad but a precision cap was reached (UL_CALC_EXIT_*). */
int ul_cli_calc_batch(const char *quantity, int argc, char **argv, int batch);

#endif
