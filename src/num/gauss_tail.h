/* src/num/gauss_tail.h — the standard normal tail Q(x) = P[N(0,1) > x] = ½·erfc(x/√2)
 * and its logarithm, enclosed for every real x.
 *
 * log Q is the primary function: it is defined (and enclosed) even where
 * Q(x) itself is below MPFR's exponent range (x beyond about 2.4e9).
 */
#ifndef UL_NUM_GAUSS_TAIL_H
#define UL_NUM_GAUSS_TAIL_H

#include <mpfi.h>

/* How log Q is evaluated at the point where it is computed. */
typedef enum {
    UL_LOGQ_AUTO,       /* erfc where it is cheap and in range, else the asymptotic series */
    UL_LOGQ_ERFC,       /* always mpfr_erfc (for tests: may lose everything in the far tail) */
    UL_LOGQ_ASYMPTOTIC, /* always the asymptotic series (for tests: needs x > 0) */
} ul_logq_method;

/* out ⊇ { log Q(x) : x ∈ X }, at out's precision.  Never fails: in the worst
 * case (a forced method outside its range) the enclosure is wide, not wrong. */
void ul_num_log_q(mpfi_ptr out, mpfi_srcptr x);
void ul_num_log_q_by(mpfi_ptr out, mpfi_srcptr x, ul_logq_method method);

/* out ⊇ { Q(x) : x ∈ X }.  Where Q(x) underflows the exponent range the lower
 * bound is 0 and the upper bound the least positive number: still sound. */
void ul_num_q(mpfi_ptr out, mpfi_srcptr x);

#endif
