/* src/num/input.h — decimal inputs read exactly and checked against their domain.
 *
 * Every certified entry point validates its decimal inputs the same way, so
 * that messages read alike: "<name>: must be > 0 (got '-1')".  Names are the
 * CLI flag names without dashes, or JSON paths ("$.claim.delta").
 */
#ifndef UL_NUM_INPUT_H
#define UL_NUM_INPUT_H

#include <stdbool.h>

#include "num/encl.h"

/* ---- the limits of exact decimal input ------------------------------------
 * Two tiers, both decided exactly on the digits:
 *   every decimal: at most UL_NUM_DECIMAL_MAX_CHARS characters and 0 or
 *     10^-(10^18) <= |x| <= 10^(10^18): MPFR reads it as an enclosure
 *     (ul_num_set_decimal, after ul_num_init), and ul_num_decimal_compare
 *     decides it against any such decimal of different value;
 *   a decimal read as an exact rational (preconditions decided exactly):
 *     also 0 or 10^-20000 <= |x| <= 10^20000, so ul_num_decimal_to_mpq
 *     succeeds at a bounded cost (a power of ten of at most 21000 digits).
 * Claims such as δ = 10^-732425979003190 (the adaptive recursions of
 * model clipping reach such values) are ordinary in the first tier.  The
 * certificate and configuration reader (io/fields.c: every decimal of
 * ul_cert_read_object / ul_io_read_fields; the second tier for fields
 * whose spec sets .exact) applies them, so no method handler or bound meets
 * a decimal it cannot convert, and every method words a refusal alike. */

/* At most this many characters of decimal text (sign, digits, point and
 * exponent), hence at most this many significant digits.  Equal to the JSON
 * reader's UL_JSON_MAX_NUMBER_CHARS. */
#define UL_NUM_DECIMAL_MAX_CHARS 1000
/* Every decimal: 0 or 10^-(10^18) <= |x| <= 10^(10^18). */
#define UL_NUM_DECIMAL_MAX_EXP10 1000000000000000000L
#define UL_NUM_DECIMAL_SMALLEST "1e-1000000000000000000"
#define UL_NUM_DECIMAL_LARGEST "1e1000000000000000000"
/* A decimal read as an exact rational: 0 or 10^-20000 <= |x| <= 10^20000. */
#define UL_NUM_EXACT_MAX_EXP10 20000L
#define UL_NUM_EXACT_SMALLEST "1e-20000"
#define UL_NUM_EXACT_LARGEST "1e20000"

/* UL_OK when text is a decimal (ul_num_is_decimal) within the limits of
 * every decimal; otherwise UL_EINPUT with one line naming `name` and the
 * rule, e.g.
 *   "$.claim.delta: 1e-99999999999999999999 is below the smallest magnitude accepted (...)"
 *   "$.claim.delta: decimal text of 100000 characters; the limit is 1000"
 *   "$.claim.delta: must be finite (NaN and infinities are not numbers), got 'nan'"
 * Long texts are quoted cut, with "...". */
UL_MUST_CHECK ul_status ul_num_check_decimal(const char *name, const char *text, char *err,
                                             size_t errlen);

/* ul_num_check_decimal and the limits of a decimal read as an exact
 * rational:
 *   "$.parameters.L: 1e-20001 is below the smallest magnitude accepted for a
 *    number read as an exact rational (1e-20000; 0 itself is accepted)" */
UL_MUST_CHECK ul_status ul_num_check_exact(const char *name, const char *text, char *err,
                                           size_t errlen);

/* ul_num_check_exact, then the exact rational value of text into out. */
UL_MUST_CHECK ul_status ul_num_read_exact(mpq_ptr out, const char *name, const char *text,
                                          char *err, size_t errlen);

/* Reads text into x (at x's precision) and checks lo_bound ≤ value ≤ hi_bound
 * (either bound may be NULL; strict when the matching flag is set), comparing
 * the decimals exactly.  UL_EINPUT with a message naming `name` otherwise. */
UL_MUST_CHECK ul_status ul_num_read_checked(mpfi_ptr x, const char *name, const char *text,
                                            const char *lo_bound, bool lo_strict,
                                            const char *hi_bound, bool hi_strict, char *err,
                                            size_t errlen);

/* The conversions of text already validated: ul_num_set_valid for text
 * that ul_num_check_decimal or ul_num_read_checked accepted (any field the
 * certificate reader hands out), ul_num_mpq_valid for text that
 * ul_num_check_exact accepted (a field whose spec sets .exact), or a
 * constant of the program within those limits.  They cannot fail on such
 * text; if one does, the caller broke that contract and the process aborts,
 * rather than go on with an unset value (never a silent wrong number). */
void ul_num_set_valid(mpfi_ptr x, const char *text);
void ul_num_mpq_valid(mpq_ptr out, const char *text);

#endif
