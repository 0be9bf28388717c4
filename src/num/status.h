/* src/num/status.h — how library functions report failure.
 *
 * Library functions never exit and never print.  They return a ul_status
 * and, where a caller may want to show a reason, write one line into a
 * caller-supplied buffer (err, errlen).  The CLI maps statuses to exit codes.
 */
#ifndef UL_NUM_STATUS_H
#define UL_NUM_STATUS_H

#include <stddef.h>

typedef enum {
    UL_OK = 0,
    UL_EINPUT,   /* an argument is outside the function's domain; the message names it */
    UL_ECAP,     /* the precision cap was reached: the result is sound but wider than asked */
    UL_ENOROOT,  /* an inverse has no solution in its domain (e.g. no σ reaches δ) */
    UL_ETIME,    /* the time budget (num/deadline.h, --max-seconds) ran out; the message says
                  * what was being computed; nothing certified is returned */
} ul_status;

/* Writes a printf-style message into err (if err is not NULL) and returns status. */
ul_status ul_fail(char *err, size_t errlen, ul_status status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
