/* src/bounds/gaussian.h — the Gaussian hockey-stick divergence θ and its inverses.
 *
 * For ε ∈ ℝ and r = ‖μ1 − μ2‖/σ ≥ 0 (spec/koloskova.md §2.1; Asoodeh et al.,
 * papers/000–002, Lemma 3 / Remark 1):
 *
 *     θ_{e^ε}(r) = E_{e^ε}( N(μ1,σ²I) ‖ N(μ2,σ²I) )
 *                = Q(ε/r − r/2) − e^ε · Q(ε/r + r/2),     Q(x) = ½ erfc(x/√2).
 *
 * Conventions: r is the distance between the means in units of the noise
 * standard deviation σ (noise variance σ², not 2ησ²); ε is the natural-log
 * privacy parameter, γ = e^ε.  θ is increasing in r and decreasing in ε.
 *
 * Every function returns enclosures; "certified" functions read their inputs
 * from decimal text and raise the precision until the digits asked for are
 * correct (num/adaptive.h).  Parameter names in error messages are the CLI's
 * flag names without dashes: eps, r, delta, sensitivity.
 */
#ifndef UL_BOUNDS_GAUSSIAN_H
#define UL_BOUNDS_GAUSSIAN_H

#include "num/adaptive.h"

/* Largest |ε| and r accepted by the certified functions: far beyond any
 * meaningful privacy parameter, small enough that every intermediate stays
 * inside the exponent range. */
#define UL_GAUSS_MAX_ABS_EPS "1e9"
#define UL_GAUSS_MAX_R "1e9"

/* out ⊇ { log θ_{e^ε}(r) : ε ∈ eps, r ∈ r_box }, r_box ⊂ [0, ∞).
 * The lower end is -inf where θ may be 0 (r = 0 with ε ≥ 0). */
void ul_gauss_log_theta_enclose(mpfi_ptr out, mpfi_srcptr eps, mpfi_srcptr r_box);

/* The same as a value: exactly [0, 0] when r = 0 and ε ≥ 0 (θ_γ(0) = 0),
 * else in log form.  out->enclosure's precision is the working precision. */
void ul_gauss_theta_enclose(ul_num_value *out, mpfi_srcptr eps, mpfi_srcptr r_box);

/* θ_{e^eps}(r) from decimal text, to want->digits correct digits. */
ul_status ul_gauss_theta_certified(const char *eps, const char *r, const ul_num_precision *want,
                                   ul_num_value *out, ul_num_report *report, char *err,
                                   size_t errlen);

/* The smallest σ with θ_{e^eps}(sensitivity/σ) ≤ delta, for eps ≥ 0,
 * 0 < delta < 1, sensitivity > 0.  On UL_OK/UL_ECAP, sigma ⊇ σ*; its upper
 * end is a certified safe choice (θ at it is ≤ delta) and its lower end is
 * certified unsafe (θ > delta), unless a bound is exactly σ*. */
ul_status ul_gauss_sigma_min(const char *eps, const char *delta, const char *sensitivity,
                             const ul_num_precision *want, mpfi_ptr sigma, ul_num_report *report,
                             char *err, size_t errlen);

/* The smallest ε ≥ 0 with θ_{e^ε}(r) ≤ delta, for r ≥ 0, 0 < delta < 1.
 * eps_out ⊇ ε*; its upper end is certified safe, its lower end certified
 * unsafe (or exactly 0 when ε* = 0). */
ul_status ul_gauss_eps_min(const char *r, const char *delta, const ul_num_precision *want,
                           mpfi_ptr eps_out, ul_num_report *report, char *err, size_t errlen);

/* The loose bound 1.25·exp(−ε²/(2r²)) (Dwork–Roth Thm A.1 inverted; "Lemma
 * A.4" of the seed summaries, spec/koloskova.md §2.2), as a log enclosure. */
void ul_gauss_loose_bound_log_enclose(mpfi_ptr out, mpfi_srcptr eps, mpfi_srcptr r);

typedef enum { UL_LOOSE_UNDECIDED = 0, UL_LOOSE_VALID, UL_LOOSE_INVALID } ul_loose_validity;

/* Whether 1.25·exp(−ε²/(2r²)) ≥ θ_{e^ε}(r) at the decimal point (eps, r),
 * decided with enclosures (raising precision up to 4096 bits).  It is not an
 * upper bound for ε above about 3.787 (spec/koloskova.md §2.2). */
ul_loose_validity ul_gauss_loose_bound_check(const char *eps, const char *r);

#endif
