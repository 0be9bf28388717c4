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
 * A decimal within these limits converts exactly everywhere: ul_num_set_decimal,
 * ul_num_decimal_to_mpq and ul_num_decimal_compare (between two of them)
 * succeed on it, at a bounded cost (a power of ten of at most 21000 digits).
 * The certificate and configuration reader (cert.c, every decimal of
 * ul_cert_read_object / ul_json_read_fields) checks each decimal against
 * them with ul_num_check_decimal, so no method handler or bound meets a
 * decimal it cannot convert, and every method words a refusal alike. */

/* At most this many characters of decimal text (sign, digits, point and
 * exponent), hence at most this many significant digits.  Equal to the JSON
 * reader's UL_JSON_MAX_NUMBER_CHARS. */
#define UL_NUM_DECIMAL_MAX_CHARS 1000
/* A non-zero value has 10^-20000 <= |x| <= 10^20000 (0 is accepted). */
#define UL_NUM_DECIMAL_MAX_EXP10 20000
#define UL_NUM_DECIMAL_SMALLEST "1e-20000"
#define UL_NUM_DECIMAL_LARGEST "1e20000"

/* UL_OK when text is a decimal (ul_num_is_decimal) within the limits above;
 * otherwise UL_EINPUT with one line naming `name` and the rule, e.g.
 *   "$.claim.delta: 1e-20001 is below the smallest magnitude accepted (1e-20000)"
 *   "$.claim.delta: decimal text of 100000 characters; the limit is 1000"
 *   "$.claim.delta: must be finite (NaN and infinities are not numbers), got 'nan'"
 * Long texts are quoted cut, with "...". */
UL_MUST_CHECK ul_status ul_num_check_decimal(const char *name, const char *text, char *err,
                                             size_t errlen);

/* ul_num_check_decimal, then the exact rational value of text into out. */
UL_MUST_CHECK ul_status ul_num_read_exact(mpq_ptr out, const char *name, const char *text,
                                          char *err, size_t errlen);

/* Reads text into x (at x's precision) and checks lo_bound ≤ value ≤ hi_bound
 * (either bound may be NULL; strict when the matching flag is set), comparing
 * the decimals exactly.  UL_EINPUT with a message naming `name` otherwise. */
UL_MUST_CHECK ul_status ul_num_read_checked(mpfi_ptr x, const char *name, const char *text,
                                            const char *lo_bound, bool lo_strict,
                                            const char *hi_bound, bool hi_strict, char *err,
                                            size_t errlen);

/* The conversions of text already validated: a field handed out by the
 * certificate reader (which applied ul_num_check_decimal) or a constant of
 * the program within the limits.  They cannot fail on such text; if one
 * does, the caller broke that contract and the process aborts, rather than
 * go on with an unset value (never a silent wrong number). */
void ul_num_set_valid(mpfi_ptr x, const char *text);
void ul_num_mpq_valid(mpq_ptr out, const char *text);

#endif
