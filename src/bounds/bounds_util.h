/* src/bounds/bounds_util.h — interval helpers shared by the files of src/bounds/.
 *
 * Internal to src/bounds/: nothing outside this folder includes it.  Each
 * helper is the one copy of a step that several bounds performed word for
 * word; keeping one copy keeps their rounding identical by construction.
 */
#ifndef UL_BOUNDS_UTIL_H
#define UL_BOUNDS_UTIL_H

#include <mpfi.h>

/* out ⊇ { min(a, b) : a ∈ A, b ∈ B } = [min(A.lo, B.lo), min(A.hi, B.hi)].
 * Rounding: the ends are computed at out's precision, the lower rounded down
 * and the upper rounded up, so the result contains the exact set even when
 * out is narrower than a or b.  out may alias a or b. */
void ul_bounds_interval_min(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b);

/* The same for max: [max(A.lo, B.lo), max(A.hi, B.hi)], same rounding. */
void ul_bounds_interval_max(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b);

/* σ* = N / r* from a certified bracket of the critical radius r* (the
 * target holds at safe_r and fails at unsafe_r, so safe_r ≤ r* ≤ unsafe_r,
 * both > 0), where N > 0 is the decimal num_text (a sensitivity or a
 * diameter).  Sets sigma's
 * precision to p, reads N at precision p and sets
 *
 *     sigma = [N.lo / unsafe_r, N.hi / safe_r],
 *
 * whose upper end is the safe σ.  Rounding: both quotients are computed at
 * precision p, the lower rounded down and the upper rounded up, so sigma
 * contains N / r for every r in [safe_r, unsafe_r]. */
void ul_bounds_sigma_from_radius_bracket(mpfi_ptr sigma, const char *num_text, mpfr_srcptr safe_r,
                                         mpfr_srcptr unsafe_r, mpfr_prec_t p);

/* ---- searches in doubles (never certified: the caller certifies the point) -- */

/* A real function of one variable for the searches below. */
typedef double (*ul_bounds_fn_d)(const void *ctx, double t);

/* Golden-section search for a minimum of f on [a, b]: at most max_iter
 * steps, stopping once the bracket is narrower than tol.  Returns the better
 * of the two interior points and stores f there in *f_min.  The searches of
 * renyi.c (the order α), langevin.c and koloskova_group.c share it. */
double ul_bounds_golden_min_d(ul_bounds_fn_d f, const void *ctx, double a, double b, double tol,
                              int max_iter, double *f_min);

#endif
