/* src/lib/limits.c — the caller's limits (ulaudit_limits_set: a time budget
 * and a cancel flag for the calling thread's following calls, num/deadline.h)
 * and what the files of the public API share (lib.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "calc/read.h"
#include "lib/lib.h"
#include "num/deadline.h"

ulaudit_status ul_lib_status(ul_status st)
{
    switch (st) {
    case UL_OK:
        return ULAUDIT_OK;
    case UL_ECAP:
        return ULAUDIT_ECAP;
    case UL_ENOROOT:
        return ULAUDIT_ENOROOT;
    case UL_ETIME:
        return ul_deadline_cancelled() ? ULAUDIT_ECANCEL : ULAUDIT_ETIME;
    case UL_ENOMEM:
        return ULAUDIT_ENOMEM;
    default:
        return ULAUDIT_EINPUT;
    }
}

ulaudit_status ul_lib_fail(char *err, size_t errlen, ulaudit_status st, const char *fmt, ...)
{
    if (err != NULL && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* The limits of the command line's --digits and --max-bits (calc/read.h). */
ulaudit_status ul_lib_options(const ulaudit_options *opt, ul_num_precision *want, char *err,
                              size_t errlen)
{
    want->digits = opt != NULL && opt->digits != 0 ? opt->digits : 17;
    want->start_bits = 0;
    want->max_bits = opt != NULL && opt->max_bits != 0 ? opt->max_bits : UL_NUM_DEFAULT_MAX_BITS;
    if (want->digits < 1 || want->digits > UL_CALC_DIGITS_MAX)
        return ul_lib_fail(err, errlen, ULAUDIT_EINPUT, "digits: must be from 1 to %d (got %d)",
                           UL_CALC_DIGITS_MAX, want->digits);
    if (want->max_bits < UL_CALC_MAX_BITS_MIN || want->max_bits > UL_CALC_MAX_BITS_MAX)
        return ul_lib_fail(err, errlen, ULAUDIT_EINPUT,
                           "max_bits: must be from %ld to %ld (got %ld)", UL_CALC_MAX_BITS_MIN,
                           UL_CALC_MAX_BITS_MAX, (long)want->max_bits);
    return ULAUDIT_OK;
}

bool ul_lib_cancelled(char **out, const char *what, char *err, size_t errlen)
{
    if (!ul_deadline_cancelled())
        return false;
    if (out != NULL) {
        free(*out);
        *out = NULL;
    }
    ul_lib_fail(err, errlen, ULAUDIT_ECANCEL,
                "cancelled: the caller's cancel flag was raised while %s; nothing returned", what);
    return true;
}

/* The budget is the calling thread's (num/deadline.h is thread-local), so
 * threads with different limits do not see each other's. */
UL_API ulaudit_status ulaudit_limits_set(double max_seconds, const volatile int *cancel, char *err,
                                         size_t errlen)
{
    if (!isfinite(max_seconds) || max_seconds < 0)
        return ul_lib_fail(err, errlen, ULAUDIT_EINPUT,
                           "max_seconds: must be 0 (no budget) or a finite number of seconds "
                           "> 0 (got %g)",
                           max_seconds);
    ul_deadline_set(max_seconds); /* 0 clears it */
    ul_deadline_set_cancel(cancel);
    return ULAUDIT_OK;
}

UL_API void ulaudit_limits_clear(void)
{
    ul_deadline_clear();
    ul_deadline_set_cancel(NULL);
}
