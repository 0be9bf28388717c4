/* src/num/encl.h — enclosures, exact decimal input, directed decimal output.
 *
 * An enclosure is an MPFI interval [lo, hi] that contains the true real value.
 * MPFI rounds every operation outward, so arithmetic on enclosures stays
 * sound; functions MPFI lacks are built in this module's neighbours from
 * correctly rounded MPFR calls with explicit rounding directions.
 *
 * A quantity too small for MPFR's exponent range (after ul_num_init, values
 * down to about 10^(-1.38e18)) travels as the enclosure of its natural
 * logarithm: see ul_num_value.
 */
#ifndef UL_NUM_ENCL_H
#define UL_NUM_ENCL_H

#include <mpfi.h>
#include <stdbool.h>

#include "num/status.h"

/* UL_MUST_CHECK marks a conversion whose result must be looked at (issue 12:
 * an ignored failed conversion left L = 0 and crashed in mpq_inv).  It is
 * GCC's warn_unused_result, so -Werror makes ignoring the result a compile
 * error (a (void) cast does not silence it: test the result, or use the
 * *_valid variants of num/input.h for text already validated; clang,
 * which accepts a (void) cast, is held to the same rule by gcc's build).
 * It is on in every translation unit that includes this header. */
#if defined(__GNUC__)
#define UL_MUST_CHECK __attribute__((warn_unused_result))
#else
#define UL_MUST_CHECK
#endif

/* Widens MPFR's exponent range to the largest the build allows (the range is
 * per thread).  Idempotent and cheap; every public entry that creates numbers
 * calls it, so callers need not. */
void ul_num_init(void);

/* Releases MPFR's cached constants (π, log 2, …): call once before exit so
 * leak checkers see a clean heap. */
void ul_num_shutdown(void);

/* True when text is a plain decimal number: [+-]digits[.digits][e[+-]digits]
 * (at least one mantissa digit, no spaces, no "nan"/"inf"/hex). */
bool ul_num_is_decimal(const char *text);

/* Sets x to the tightest enclosure of the decimal number text at x's
 * precision: lo = text rounded toward -inf, hi = text rounded toward +inf
 * (lo = hi when the number is representable).  UL_EINPUT, with x untouched,
 * when text is not a decimal number or its magnitude leaves the exponent
 * range. */
UL_MUST_CHECK ul_status ul_num_set_decimal(mpfi_ptr x, const char *text);

/* Exact comparison of two decimal numbers: *cmp = sign(a - b).  Returns
 * false when either is not a decimal in range, or (only for numbers that
 * agree to 70 digits yet differ in exponent by more than 10^5) when the
 * exact comparison would be absurdly large.  Never false for two decimals
 * that pass ul_num_check_decimal (num/input.h). */
UL_MUST_CHECK bool ul_num_decimal_compare(const char *a, const char *b, int *cmp);

/* The exact rational value of a decimal number (for preconditions decided
 * exactly, e.g. η(λ + β) < 1 with decimal η, λ, β).  True for every decimal
 * that passes ul_num_check_exact (num/input.h); false when text is not a
 * decimal, or is longer than 20000 characters, or, written m·10^e with m a
 * whole number without trailing zeros, |e| exceeds 21000. */
UL_MUST_CHECK bool ul_num_decimal_to_mpq(mpq_ptr out, const char *text);

/* Where the decimal number text lies against 10^±limit: -1 when it is not 0
 * and |x| < 10^-limit, 1 when |x| > 10^limit, else 0 (0 itself included).
 * Exact (decided on the digits, whatever the exponent's size); text must be
 * a decimal (ul_num_is_decimal). */
int ul_num_decimal_magnitude(const char *text, long limit);

/* The decimal text of x rounded in direction rnd (MPFR_RNDD for a lower
 * bound, MPFR_RNDU for an upper bound) to `digits` significant digits, as
 * "d.ddd…e±X", "-d.ddd…e±X" or "0" ("inf", "-inf" for infinities).
 * Returns a malloc'd string. */
char *ul_num_format(mpfr_srcptr x, int digits, mpfr_rnd_t rnd);

/* The same for exp(log_x), computed without forming exp(log_x), so it works
 * where exp(log_x) leaves the exponent range.  log_x = -inf gives "0".
 * Beyond 10^±(10^1023) (|log_x| >= 2^3400) the bound is moved outward to a
 * fixed end, so the text stays short and the time bounded: a tiny x prints
 * "0" (RNDD) or "1e-1000…0" = 10^-(10^1023) (RNDU); a huge x prints
 * "1e+1000…0" (RNDD) or "inf" (RNDU). */
char *ul_num_format_exp(mpfr_srcptr log_x, int digits, mpfr_rnd_t rnd);

/* A certified positive-or-zero quantity: the enclosure of the value itself
 * (is_log false) or of its natural logarithm (is_log true; lo may be -inf,
 * meaning the lower bound of the value is 0). */
typedef struct {
    mpfi_t enclosure;
    bool is_log;
} ul_num_value;

void ul_num_value_init(ul_num_value *v, mpfr_prec_t prec);
void ul_num_value_clear(ul_num_value *v);

/* True when the value's relative width (hi - lo)/|lo| is at most 10^(1-digits),
 * i.e. lo and hi agree to about `digits` significant digits.  An exact value
 * (lo = hi) always passes; an interval straddling 0 never does. */
bool ul_num_value_narrow_enough(const ul_num_value *v, int digits);

/* Decimal lo (rounded down) and hi (rounded up) of the value itself, whichever
 * form it travels in.  Both strings are malloc'd. */
void ul_num_value_format(const ul_num_value *v, int digits, char **lo, char **hi);

#endif
