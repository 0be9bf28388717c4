/* src/cli/args.h — command-line flags: `--name value` or `--name=value`.
 *
 * Each command declares the flags it takes; parsing fills one value per
 * declared flag (or its default) and rejects unknown, repeated or valueless
 * flags with a one-line message naming the flag.
 */
#ifndef UL_CLI_ARGS_H
#define UL_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/calc_api.h"

#define UL_CLI_MAX_FLAGS 16

/* name (without dashes), meta (the placeholder in help, e.g. "E"), help
 * (one line), default_value (NULL: required): the row type the calculator's
 * interface with the library declares (lib/calc_api.h), one type for both. */
typedef ul_calc_flag ul_cli_flag;

/* Flags every calculator quantity shares. */
typedef struct {
    bool json;
    bool help;
    int digits;        /* --digits, default 17 */
    long max_bits;     /* --max-bits, default 65536 */
} ul_cli_common;

/* Strict non-negative integer: digits only, no sign, no spaces, at most 9
 * digits.  False otherwise. */
bool ul_cli_read_count(const char *text, long *out);

/* --max-seconds S: a number of seconds written [digits][.digits] with
 * optional e[+-]digits (no sign, no spaces, nan or inf): 0 (no limit) or
 * from 1e-9 to 1e9 (a nonzero text below 1e-9, e.g. 1e-20000, is refused,
 * not read as 0).  False otherwise. */
#define UL_CLI_MAX_SECONDS 1e9
#define UL_CLI_MIN_SECONDS 1e-9
bool ul_cli_read_seconds(const char *text, double *out);

/* Parses argv[0..argc) against flags[0..nflags).  values[i] receives the text
 * for flags[i] (or its default).  Returns 0, or 2 with a message in err.
 * A value holding a terminal control character (io/escape.h,
 * ul_io_has_control: C0, DEL, C1, bidirectional controls) is refused, as
 * every later message may quote it; what err quotes of the arguments is
 * escaped (\xNN). */
int ul_cli_parse(int argc, char **argv, const ul_cli_flag *flags, int nflags,
                 const char **values, ul_cli_common *common, char *err, size_t errlen);

#endif
