/* src/bounds/d2d.h — Descent-to-Delete baselines (Neel, Roth,
 * Sharifi-Malvajerdi 2021, Thms 9 and 28), as restated by Chien et al. in
 * App. M (Chien et al. 2024, Thm M.1 and M.2; arXiv:2401.10371v4).
 *
 * Setting: every f(·; d) m-strongly convex, M-Lipschitz, L-smooth; gradient
 * descent with step 2/(L + m) contracts by γ = (L − m)/(L + m) per step.
 * Learning runs T non-private steps; each deletion runs I (M.1) or more
 * (M.2) fine-tuning steps, then publishes the parameter plus Gaussian noise.
 *
 * CONVENTIONS:
 *  - sigma here is the STANDARD DEVIATION of the published output noise
 *    Z ~ N(0, σ²I_d) (Alg. 2 line 8), not the Langevin σ of langevin.h
 *    (whose per-step noise variance is 2ησ²).
 *  - Adjacency is add/remove one record (Neel et al.'s own); Chien et al.
 *    use the bounds unchanged for replacement (docs/langevin.md, Errata L18), which
 *    favours the baseline slightly.
 *  - Neel et al. assume ε = O(log(1/δ)), an asymptotic condition with no
 *    numeric form: it is not checked and not listed.
 *
 * Formulas (log natural; ℓ = log(1/δ), ℓ2 = log(2/δ)):
 *   M.1 (86): σ = 4√2·M·γ^I / (m n (1 − γ^I)(√(ℓ + ε) − √ℓ))
 *   learning: T ≥ I + log(2Rmn/(2M))/log(1/γ)            (as printed, §9 item 18)
 *   M.2 (87): I ≥ log(√(2d)(1 − γ)^{-1} / (√(2ℓ2 + ε) − √(2ℓ2))) / log(1/γ)
 *       (88): σ = 8M·γ^I / (m n (1 − γ^I)(√(2ℓ2 + 3ε) − √(2ℓ2 + 2ε)))
 *       request i runs I + log(log(4 d i/δ))/log(1/γ) steps.
 * For m = L (γ = 0) every log(·)/log(1/γ) is 0 and σ = 0.
 */
#ifndef UL_BOUNDS_D2D_H
#define UL_BOUNDS_D2D_H

#include <stdbool.h>

#include "bounds/theorem.h"
#include "num/adaptive.h"

/* ---- enclosures ------------------------------------------------------------- */

typedef struct {
    mpfi_srcptr L, m, M, n; /* 0 < m ≤ L, M > 0, n ≥ 1 */
} ul_d2d_setting;

/* Thm M.1 (86), I ≥ 1, ε > 0, 0 < δ < 1.  Precondition "m_le_L". */
ul_status ul_d2d_m1_sigma(mpfi_ptr sigma, const ul_d2d_setting *s, mpfi_srcptr eps,
                          mpfi_srcptr delta, unsigned long I, ul_preconditions *pre, char *err,
                          size_t errlen);

/* The right-hand side of Thm M.1/M.2's learning condition,
 * out ⊇ I + log(2Rmn/(2M))/log(1/γ), R > 0 (radius of the parameter set). */
ul_status ul_d2d_learning_bound(mpfi_ptr out, const ul_d2d_setting *s, mpfi_srcptr R,
                                unsigned long I, char *err, size_t errlen);

/* The right-hand side of (87), d ≥ 1 the dimension. */
ul_status ul_d2d_m2_iterations_bound(mpfi_ptr out, const ul_d2d_setting *s, mpfi_srcptr d,
                                     mpfi_srcptr eps, mpfi_srcptr delta, char *err, size_t errlen);

/* Thm M.2 (88).  Preconditions "m_le_L" and "I_ge_m2_bound" (I ≥ (87)). */
ul_status ul_d2d_m2_sigma(mpfi_ptr sigma, const ul_d2d_setting *s, mpfi_srcptr d, mpfi_srcptr eps,
                          mpfi_srcptr delta, unsigned long I, ul_preconditions *pre, char *err,
                          size_t errlen);

/* out ⊇ I + log(log(4 d i/δ))/log(1/γ), the steps of request i ≥ 1 (M.2). */
ul_status ul_d2d_m2_request_bound(mpfi_ptr out, const ul_d2d_setting *s, mpfi_srcptr d,
                                  mpfi_srcptr delta, unsigned long I, unsigned long i, char *err,
                                  size_t errlen);

/* ---- certified entry points (decimal text) ----------------------------------- */

/* Names in messages are CLI flag names: L, m, M, n, eps, delta, d, R, T, I. */
typedef struct {
    const char *L, *m, *M; /* 0 < m ≤ L ≤ 1e100, 0 < M ≤ 1e100 */
    const char *n;         /* integer 1 ≤ n ≤ 1e15 */
    const char *eps;       /* 0 < ε ≤ 1e12 (the sigma and I functions) */
    const char *delta;     /* 0 < δ < 1 */
    const char *d;         /* dimension, integer ≥ 1 (M.2 only) */
    const char *R;         /* radius > 0 (learning T only, or with T) */
    const char *T;         /* optional: learning steps used, checked as "T_ge_learning_bound" */
} ul_d2d_problem;

/* σ of Thm M.1 for I ≥ 1 (plain value).  Preconditions "m_le_L" and, when
 * pb->T is given, "T_ge_learning_bound" (needs R); a failing one is
 * UL_EINPUT naming it.  pre may be NULL. */
ul_status ul_d2d_m1_sigma_certified(const ul_d2d_problem *pb, unsigned long I,
                                    const ul_num_precision *want, ul_num_value *sigma,
                                    ul_preconditions *pre, ul_num_report *rep, char *err,
                                    size_t errlen);

/* σ of Thm M.2 for I ≥ 1; also "I_ge_m2_bound" (needs d). */
ul_status ul_d2d_m2_sigma_certified(const ul_d2d_problem *pb, unsigned long I,
                                    const ul_num_precision *want, ul_num_value *sigma,
                                    ul_preconditions *pre, ul_num_report *rep, char *err,
                                    size_t errlen);

/* Iteration counts: the least integer meeting each condition.  *least is
 * true when it is proven least; false only when the bound lies within
 * rounding of an integer at 4096 bits, and then the value is the safe one
 * (one above). */

/* Least learning T ≥ 0 with T ≥ I + log(2Rmn/(2M))/log(1/γ) (needs R). */
ul_status ul_d2d_learning_iterations(const ul_d2d_problem *pb, unsigned long I, unsigned long *T,
                                     bool *least, char *err, size_t errlen);

/* Least I ≥ 1 meeting (87) (needs d, eps). */
ul_status ul_d2d_m2_least_I(const ul_d2d_problem *pb, unsigned long *I, bool *least, char *err,
                            size_t errlen);

/* Steps of request i ≥ 1 (M.2): I + ⌈log(log(4di/δ))/log(1/γ)⌉, and the total
 * over requests 1..requests (≤ 1e6). */
ul_status ul_d2d_m2_request_iterations(const ul_d2d_problem *pb, unsigned long I, unsigned long i,
                                       unsigned long *steps, bool *least, char *err, size_t errlen);
ul_status ul_d2d_m2_total_iterations(const ul_d2d_problem *pb, unsigned long I,
                                     unsigned long requests, unsigned long *total, bool *least,
                                     char *err, size_t errlen);

#endif
