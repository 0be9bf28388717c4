/* src/num/input.c — decimal inputs read exactly and checked against their domain. */
#include "num/input.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* text quoted in a message: its first 40 characters, "..." when longer
 * (only ever a decimal's text: digits, sign, point, e) */
#define QUOTE_FMT "%.40s%s"
#define QUOTE(t) (t), strlen(t) > 40 ? "..." : ""

/* Up to 40 bytes of untrusted text for a message, each byte outside
 * printable ASCII replaced by '?', "..." when cut. */
static const char *printable(char out[48], const char *text)
{
    size_t i = 0;
    for (; text[i] != '\0' && i < 40; i++)
        out[i] = text[i] >= 0x20 && text[i] < 0x7f ? text[i] : '?';
    memcpy(out + i, text[i] != '\0' ? "..." : "", text[i] != '\0' ? 4 : 1);
    return out;
}

/* The magnitude rule: 0, or 10^-limit <= |text| <= 10^limit; `what` ends
 * the rule's words ("" or " for a number read as …"). */
static ul_status magnitude(const char *name, const char *text, long limit, const char *what,
                           char *err, size_t errlen)
{
    int m = ul_num_decimal_magnitude(text, limit);
    if (m < 0)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: " QUOTE_FMT " is below the smallest magnitude accepted%s (1e-%ld; 0 "
                       "itself is accepted)",
                       name, QUOTE(text), what, limit);
    if (m > 0)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: " QUOTE_FMT " is above the largest magnitude accepted%s (1e%ld)", name,
                       QUOTE(text), what, limit);
    return UL_OK;
}

ul_status ul_num_check_decimal(const char *name, const char *text, char *err, size_t errlen)
{
    if (text == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "%s: missing", name);
    size_t n = strlen(text);
    if (n > UL_NUM_DECIMAL_MAX_CHARS)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: decimal text of %zu characters; the limit is %d (so at most %d "
                       "significant digits)",
                       name, n, UL_NUM_DECIMAL_MAX_CHARS, UL_NUM_DECIMAL_MAX_CHARS);
    if (!ul_num_is_decimal(text)) {
        const char *t = text + (text[0] == '-' || text[0] == '+');
        bool non_finite = strcasecmp(t, "nan") == 0 || strcasecmp(t, "inf") == 0 ||
                          strcasecmp(t, "infinity") == 0;
        char shown[48];
        return ul_fail(err, errlen, UL_EINPUT,
                       non_finite ? "%s: must be finite (NaN and infinities are not numbers), "
                                    "got '%s'"
                                  : "%s: must be a decimal number like 0.5 or 1e-6, got '%s'",
                       name, printable(shown, text));
    }
    return magnitude(name, text, UL_NUM_DECIMAL_MAX_EXP10, "", err, errlen);
}

ul_status ul_num_check_exact(const char *name, const char *text, char *err, size_t errlen)
{
    ul_status st = ul_num_check_decimal(name, text, err, errlen);
    if (st == UL_OK)
        st = magnitude(name, text, UL_NUM_EXACT_MAX_EXP10, " for a number read as an exact rational",
                       err, errlen);
    return st;
}

ul_status ul_num_read_exact(mpq_ptr out, const char *name, const char *text, char *err,
                            size_t errlen)
{
    ul_status st = ul_num_check_exact(name, text, err, errlen);
    if (st == UL_OK && !ul_num_decimal_to_mpq(out, text))
        st = ul_fail(err, errlen, UL_EINPUT, "%s: '" QUOTE_FMT "' cannot be read exactly", name,
                     QUOTE(text)); /* not reached: the limits make it convert */
    return st;
}

void ul_num_set_valid(mpfi_ptr x, const char *text)
{
    if (ul_num_set_decimal(x, text) != UL_OK)
        abort(); /* a caller passed text that was never validated */
}

void ul_num_mpq_valid(mpq_ptr out, const char *text)
{
    if (!ul_num_decimal_to_mpq(out, text))
        abort(); /* a caller passed text that was never validated */
}

ul_status ul_num_read_checked(mpfi_ptr x, const char *name, const char *text, const char *lo_bound,
                              bool lo_strict, const char *hi_bound, bool hi_strict, char *err,
                              size_t errlen)
{
    if (text == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "%s: missing", name);
    if (!ul_num_is_decimal(text))
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: must be a finite decimal number like 0.5 or 1e-6 (got '%s')", name,
                       text);
    if (ul_num_set_decimal(x, text) != UL_OK)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: magnitude outside the representable range (got '%s')", name, text);
    int c;
    if (lo_bound != NULL) {
        if (!ul_num_decimal_compare(text, lo_bound, &c))
            return ul_fail(err, errlen, UL_EINPUT,
                           "%s: too many digits to compare exactly (got '%s')", name, text);
        if (c < 0 || (lo_strict && c == 0))
            return ul_fail(err, errlen, UL_EINPUT, "%s: must be %s %s (got '%s')", name,
                           lo_strict ? ">" : ">=", lo_bound, text);
    }
    if (hi_bound != NULL) {
        if (!ul_num_decimal_compare(text, hi_bound, &c))
            return ul_fail(err, errlen, UL_EINPUT,
                           "%s: too many digits to compare exactly (got '%s')", name, text);
        if (c > 0 || (hi_strict && c == 0))
            return ul_fail(err, errlen, UL_EINPUT, "%s: must be %s %s (got '%s')", name,
                           hi_strict ? "<" : "<=", hi_bound, text);
    }
    return UL_OK;
}
