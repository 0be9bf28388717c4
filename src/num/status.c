/* src/num/status.c — error message helper. */
#include "num/status.h"

#include <stdarg.h>
#include <stdio.h>

ul_status ul_fail(char *err, size_t errlen, ul_status status, const char *fmt, ...)
{
    if (err != NULL && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return status;
}
