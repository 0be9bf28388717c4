/* src/num/status.h — how library functions report failure.
 *
 * Library functions never exit and never print.  They return a ul_status
 * and, where a caller may want to show a reason, write one line into a
 * caller-supplied buffer (err, errlen).  The CLI maps statuses to exit codes.
 *
 * Out of memory (the one policy of the library).  GMP, MPFR and MPFI abort
 * when an allocation fails, so "never abort" cannot be had; the line drawn is
 * the size of the request:
 *   - an allocation whose SIZE the input chooses without a small bound of
 *     the program (a grid of N points, K steps, a table of n rows, a list of
 *     n scores or σ values...) fails with UL_ENOMEM and a message that names
 *     the field and the size ("pld: out of memory for a grid of 16777216 points
 *     (--grid)"), propagated by every caller to the CLI, --batch and the API;
 *     it never aborts;
 *   - a small allocation of a fixed size, or one that a constant of the
 *     program bounds whatever the input (a few MPFR variables, a struct, a
 *     report field, a number printed with at most the --digits cap of 5000, a copy of
 *     a decimal within the limits of num/input.h, a table of at most
 *     UL_LANGEVIN_MAX_REQUESTS entries) aborts like GMP does, and says so at
 *     the site, with the bound in a comment where it is not plain:
 *     fixed size: out of memory aborts, as GMP does (policy: num/status.h).
 * abort() is otherwise kept only for a broken invariant of the program itself
 * (a table of its own too small, text a caller should have validated), never
 * for anything input can reach.
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
    UL_ENOMEM,   /* an allocation sized by the input failed (policy above); the message
                  * names the field and the size; nothing certified is returned.  The CLI
                  * exits 2 (UL_EXIT_USAGE: a smaller input is the remedy) */
} ul_status;

/* Writes a printf-style message into err (if err is not NULL) and returns status. */
ul_status ul_fail(char *err, size_t errlen, ul_status status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
