/* src/num/input.h — decimal inputs read exactly and checked against their domain.
 *
 * Every certified entry point validates its decimal inputs the same way, so
 * that messages read alike: "<name>: must be > 0 (got '-1')".  Names are the
 * CLI flag names without dashes.
 */
#ifndef UL_NUM_INPUT_H
#define UL_NUM_INPUT_H

#include <stdbool.h>

#include "num/encl.h"

/* Reads text into x (at x's precision) and checks lo_bound ≤ value ≤ hi_bound
 * (either bound may be NULL; strict when the matching flag is set), comparing
 * the decimals exactly.  UL_EINPUT with a message naming `name` otherwise. */
ul_status ul_num_read_checked(mpfi_ptr x, const char *name, const char *text, const char *lo_bound,
                              bool lo_strict, const char *hi_bound, bool hi_strict, char *err,
                              size_t errlen);

#endif
