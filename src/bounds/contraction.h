/* src/bounds/contraction.h — contraction of E_γ under projection + Gaussian noise.
 *
 * A step x ↦ Π(x) + N(0, σ_t² I) whose pre-noise point Π(x) lies in a set of
 * diameter D_t contracts the hockey-stick divergence by the coefficient
 * η_γ = θ_γ(D_t/σ_t) (Asoodeh, Diaz, Calmon 2020, Thm 2 and Prop 1;
 * docs/neural-unlearning.md, "Model clipping").  Two accountings of T such steps, starting from
 * E_{e^ε} ≤ δ_0:
 *
 *   product:  δ_T = δ_0 · Π_{t=1..T} θ_{e^ε}(r_t),                r_t = D_t/σ_t
 *   adaptive: δ_{t+1} = δ_t · θ_{e^{ε̃_t}}(r_{t+1}),  ε̃_t = log(1 + (e^ε − 1)/δ_t)
 *             (the tighter form, E_γ(μK‖νK) ≤ η_{γ'}(K)·E_γ(μ‖ν) with
 *             γ' = 1 + (γ − 1)/E_γ(μ‖ν); what Koloskova et al.'s code computes).
 *
 * Everything is carried as log δ, so δ far below MPFR's exponent range is an
 * ordinary value.  δ_t never increases (θ ≤ 1); in adaptive mode log δ roughly
 * squares at every step once it is small, so below a floor δ_floor =
 * 10^(−10^100) the remaining steps report δ ≤ δ_floor, a sound upper bound,
 * instead of working at ever larger precision.
 */
#ifndef UL_BOUNDS_CONTRACTION_H
#define UL_BOUNDS_CONTRACTION_H

#include <stdbool.h>

#include "num/adaptive.h"

/* The floor, as log10 δ_floor (a decimal). */
#define UL_CONTRACTION_FLOOR_LOG10 "-1e100"

/* Most steps any function here accepts. */
#define UL_CONTRACTION_MAX_STEPS 100000000UL

typedef enum { UL_CONTRACTION_PRODUCT, UL_CONTRACTION_ADAPTIVE } ul_contraction_mode;

/* Reads "product" or "adaptive"; false for anything else. */
bool ul_contraction_mode_parse(const char *text, ul_contraction_mode *mode);

/* One accounting problem, all numbers as decimal text.  r holds either one
 * ratio D/σ used at every step (n_r = 1) or one per step (n_r = steps). */
typedef struct {
    const char *eps;         /* ε ≥ 0 */
    const char *const *r;    /* r_t = D_t/σ_t ≥ 0 */
    size_t n_r;
    unsigned long steps;     /* T ≥ 0 */
    const char *delta0;      /* δ_0 ∈ (0, 1]; NULL means 1 (any starting pair) */
    ul_contraction_mode mode;
} ul_contraction_problem;

/* The time budget (num/deadline.h) is asked every 64 steps of a recursion
 * and before every decision of the σ search: when it has run out, these
 * return UL_ETIME with a message naming what was being computed (never a
 * partial number). */

/* δ_T as a certified value (log form).  *floor_reached tells whether the
 * result is the floor bound [0, δ_floor] rather than a tight enclosure. */
ul_status ul_contraction_delta_certified(const ul_contraction_problem *pb,
                                         const ul_num_precision *want, ul_num_value *delta,
                                         bool *floor_reached, ul_num_report *report, char *err,
                                         size_t errlen);

/* The least T ≥ 0 with δ_T ≤ delta for constant r (pb->steps is ignored; at
 * most max_steps are tried).  Certified: δ_T ≤ delta and, when T > 0,
 * δ_{T−1} > delta.  UL_ENOROOT when max_steps do not suffice. */
ul_status ul_contraction_least_steps(const ul_contraction_problem *pb, const char *delta,
                                     unsigned long max_steps, unsigned long *steps,
                                     ul_num_report *report, char *err, size_t errlen);

/* The smallest constant σ with δ_T ≤ delta after pb->steps steps of
 * diameter `diameter` (pb->r is ignored).  sigma ⊇ σ*; its upper end is
 * certified safe and its lower end certified unsafe. */
ul_status ul_contraction_sigma_min(const ul_contraction_problem *pb, const char *diameter,
                                   const char *delta, const ul_num_precision *want,
                                   mpfi_ptr sigma, ul_num_report *report, char *err,
                                   size_t errlen);

#endif
