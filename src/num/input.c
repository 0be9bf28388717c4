/* src/num/input.c — decimal inputs read exactly and checked against their domain. */
#include "num/input.h"

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

