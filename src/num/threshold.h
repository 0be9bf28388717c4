/* src/num/threshold.h — certified bracketing of a monotone threshold.
 *
 * Inverses (the smallest σ, the smallest ε, later the least K) all ask for the
 * point x* > 0 where a monotone condition ("the guarantee holds") switches.
 * The caller supplies a classifier that decides, with enclosures at a given
 * precision, whether a point is certainly on the safe side, certainly on the
 * unsafe side, or undecided.  This module searches (exponentially, then by
 * bisection) and raises the precision whenever a decision is out of reach.
 * Every point it returns was classified with a certified decision, so the
 * bracket is sound whatever the precision story was.
 */
#ifndef UL_NUM_THRESHOLD_H
#define UL_NUM_THRESHOLD_H

#include <stdbool.h>

#include "num/adaptive.h"

typedef enum { UL_SIDE_UNDECIDED = 0, UL_SIDE_SAFE, UL_SIDE_UNSAFE } ul_side;

/* Decides the side of the exact point x using enclosures at `prec` bits. */
typedef ul_side (*ul_num_classifier)(mpfr_srcptr x, mpfr_prec_t prec, void *ctx);

/* Finds exact numbers `safe` and `unsafe` (initialised by the caller; their
 * precision is managed here) with classify(safe) = SAFE, classify(unsafe) =
 * UNSAFE, and |safe - unsafe| ≤ 10^(1-digits)/4 · min(|safe|, |unsafe|).
 * safe_above says which way the safe side lies (x > x* safe, or x < x* safe).
 * The threshold must lie in (0, ∞) and within the exponent range.
 * UL_OK; UL_ECAP (bracket sound but wider than asked, or none found when
 * `unsafe` is NaN on return); UL_ENOROOT when no switch exists in range. */
ul_status ul_num_bracket_threshold(ul_num_classifier classify, void *ctx, bool safe_above,
                                   const ul_num_precision *want, mpfr_ptr safe, mpfr_ptr unsafe,
                                   ul_num_report *report, char *err, size_t errlen);

/* An estimate for searching, never for deciding: g(x) at about `prec` bits,
 * negative on the safe side and positive on the unsafe side of the
 * threshold, smooth there (a secant step must make progress: e.g. the log
 * of the ratio of the two sides the classifier compares, at midpoints).
 * false when it cannot be computed at x. */
typedef bool (*ul_num_estimator)(mpfr_ptr g, mpfr_srcptr x, mpfr_prec_t prec, void *ctx);

/* ul_num_bracket_threshold with an estimate: "search in numbers, certify
 * once".  After the exponential search, the threshold is found by the
 * secant method on the estimate at growing precision; the bisection is run
 * against that number (no classification) and only its two final ends are
 * classified.  When both are certified the bracket is the one the certified
 * bisection gives, from two classifications instead of one per bit; when
 * not (the estimate failed, or was off), the certified bisection runs as
 * in ul_num_bracket_threshold.  estimate NULL: that function. */
ul_status ul_num_bracket_threshold_est(ul_num_classifier classify, ul_num_estimator estimate,
                                       void *ctx, bool safe_above, const ul_num_precision *want,
                                       mpfr_ptr safe, mpfr_ptr unsafe, ul_num_report *report,
                                       char *err, size_t errlen);

/* The classifications the calling thread's last ul_num_bracket_threshold made, and the sum
 * of their precisions in bits (a cost measure for tests and benchmarks). */
void ul_num_threshold_counts(unsigned long *calls, unsigned long *bits);

#endif
