/* src/calc/read.h — the readers of the number texts every command takes
 * (a count with a maximum, a time budget in seconds, --digits, --max-bits)
 * and the messages of a flag given by name (unknown, given twice, holding
 * a control character, missing), written once for the command line's
 * parser (cli/args.c), the calculator's binding of named inputs (the
 * library and --batch, calc/run.c), the quantities and the other commands
 * (audit, calibrate, vectors, attack).  They live in src/calc, the lowest
 * layer that reads these texts: src/io and src/num read certificates and
 * decimals, where a count is a JSON number (1e3 is a count there) and
 * nothing is a time budget.
 *
 * Each message is one line without the "ulaudit CMD: " prefix, naming the
 * flag and the rule; what it quotes of the text is escaped (io/escape.h). */
#ifndef UL_CALC_READ_H
#define UL_CALC_READ_H

#include <stdbool.h>
#include <stddef.h>

/* The largest count a calculator flag takes (--steps, --K, --dim, ...). */
#define UL_CALC_COUNT_MAX 999999999L

/* A count: digits only (at least one; no sign, space, point or exponent),
 * leading zeros allowed, value from 0 to max.  False otherwise (nothing is
 * written to *out). */
bool ul_calc_read_count(const char *text, long max, long *out);

/* --NAME N, a whole number from lo to hi (ul_calc_read_count's text): 0,
 * or 2 with "--NAME: must be a whole number from LO to HI (got 'TEXT')". */
int ul_calc_read_whole(const char *name, const char *text, long lo, long hi, long *out,
                       char *err, size_t errlen);

/* --digits N of every command with the calculator's range (1..5000), and
 * --max-bits B (64..4194304): ul_calc_read_whole's rule and message. */
#define UL_CALC_DIGITS_MAX 5000
#define UL_CALC_MAX_BITS_MIN 64L
#define UL_CALC_MAX_BITS_MAX (1L << 22)
int ul_calc_read_digits(const char *text, int *out, char *err, size_t errlen);
int ul_calc_read_max_bits(const char *text, long *out, char *err, size_t errlen);

/* --max-seconds S of every command: "none" or 0 (no budget), or a plain
 * decimal (digits, an optional fraction, an optional e[+-]digits; no sign,
 * space, nan or inf) from 1e-9 (1 ns) to 1e9 seconds.  A nonzero text below
 * 1 ns is refused, not read as 0: strtod took 1e-20000 for 0, which turned
 * a budget into none.  False otherwise (*secs is 0). */
#define UL_CALC_BUDGET_RULE "0 (none) or a number of seconds from 1e-9 to 1e9"
#define UL_CALC_MIN_SECONDS 1e-9
#define UL_CALC_MAX_SECONDS 1e9
bool ul_calc_read_seconds(const char *text, double *secs);

/* ul_calc_read_seconds with its message: 0, or 2 with
 * "--max-seconds: must be " UL_CALC_BUDGET_RULE " (got 'TEXT')". */
int ul_calc_read_budget(const char *text, double *secs, char *err, size_t errlen);

/* ---- the messages of a flag given by name ----------------------------------
 * Each writes its message into err and returns 2. */

/* "unknown flag --NAME" and the name meant when one of names[0..n) is close
 * (io/fields.h, ul_io_did_you_mean: the first of equally close names). */
int ul_calc_flag_unknown(const char *name, const char *const *names, size_t n, char *err,
                         size_t errlen);

/* "--NAME: given more than once". */
int ul_calc_flag_twice(const char *name, char *err, size_t errlen);

/* "--NAME: missing (required)". */
int ul_calc_flag_missing(const char *name, char *err, size_t errlen);

/* 0 when value holds no terminal control (io/escape.h, ul_io_has_control:
 * C0, DEL, C1, bidirectional controls: every later message may quote it);
 * else 2 with "--NAME: holds a control character (...), got 'VALUE'". */
int ul_calc_flag_value_ok(const char *name, const char *value, char *err, size_t errlen);

#endif
