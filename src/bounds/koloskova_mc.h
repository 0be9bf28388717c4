/* src/bounds/koloskova_mc.h — model clipping (Koloskova et al., ICML 2025,
 * Thm 4.2 as quoted; docs/neural-unlearning.md, "Model clipping"): the certified δ after T noisy
 * clipped steps, δ0 of the initial noise, and the least T or σ for a
 * claim.  The theorem in koloskova_mc.c, brackets and searches in
 * koloskova_mc_search.c; conventions in bounds/koloskova_common.h. */
#ifndef UL_BOUNDS_KOLOSKOVA_MC_H
#define UL_BOUNDS_KOLOSKOVA_MC_H

#include "bounds/koloskova_common.h"

/* cc1: x ← Π_{C2}(x − lr·(g + λx)) + N(0, σ²I): the pre-noise point lies in
 * B(0, C2), diameter 2·C2 (every released config).  cc2: gradient clipped to
 * C1, step, noise, then projection: diameter 2·(C2 + lr·C1). */
typedef enum { UL_KOL_CC1 = 0, UL_KOL_CC2 } ul_kol_clip;

typedef struct {
    const char *eps; /* target ε ≥ 0 */
    ul_kol_clip variant;
    const char *c2;           /* C2 > 0 */
    const char *c1, *lr;      /* cc2 only: C1 > 0 and the largest learning rate > 0 */
    const char *const *sigma; /* σ_t > 0: one value for every step, or one per step */
    size_t n_sigma;
    unsigned long steps;     /* T */
    const char *c0, *sigma0; /* initial clip C0 > 0 and noise σ0 ≥ 0; sigma0 NULL or
                                0: no initial noise, δ0 = 1 (c0 then unused) */
    ul_kol_init init;
    unsigned long dim;        /* d ≥ 1 for UL_KOL_INIT_BOX */
    ul_contraction_mode mode; /* product (the theorem as quoted) or adaptive (the code) */
} ul_kol_mc_problem;

/* The exact diameter D (2·C2 or 2·(C2 + lr·C1)) as malloc'd decimal text. */
ul_status ul_kol_mc_diameter(const ul_kol_mc_problem *pb, ul_preconditions *pre, char **diameter,
                             char *err, size_t errlen);

/* δ0 = θ_{e^ε}(2·C0/σ0) (box: 2·C0·√d/σ0), or exactly 1 without initial
 * noise; log form. */
ul_status ul_kol_mc_delta0_certified(const ul_kol_mc_problem *pb, const ul_num_precision *want,
                                     ul_preconditions *pre, ul_num_value *delta0,
                                     ul_num_report *rep, char *err, size_t errlen);

/* δ_T after pb->steps noisy steps (contraction.h accounting with r_t = D/σ_t
 * and δ0 above); log form.  *floor_reached as in contraction.h. */
ul_status ul_kol_mc_delta_certified(const ul_kol_mc_problem *pb, const ul_num_precision *want,
                                    ul_preconditions *pre, ul_num_value *delta, bool *floor_reached,
                                    ul_num_report *rep, char *err, size_t errlen);

/* `model-clipping-t`: the least T ≥ 0 with δ_T ≤ delta for one constant σ
 * (pb->steps ignored; at most max_steps tried).  Certified: δ_T ≤ delta and,
 * when T > 0, δ_{T−1} > delta.  UL_ENOROOT when max_steps do not suffice;
 * UL_ECAP (with *steps a certified sufficient T) when undecided at the cap. */
ul_status ul_kol_mc_least_steps(const ul_kol_mc_problem *pb, const char *delta,
                                unsigned long max_steps, ul_preconditions *pre,
                                unsigned long *steps, ul_num_report *rep, char *err, size_t errlen);

/* `model-clipping-sigma`: the smallest constant σ with δ_T ≤ delta after
 * pb->steps ≥ 1 steps (pb->sigma ignored).  sigma ⊇ σ*; its upper end is
 * certified safe, its lower end certified unsafe (0 when δ0 ≤ delta). */
ul_status ul_kol_mc_sigma_min(const ul_kol_mc_problem *pb, const char *delta,
                              const ul_num_precision *want, ul_preconditions *pre, mpfi_ptr sigma,
                              ul_num_report *rep, char *err, size_t errlen);

/* ---- model clipping: brackets and searches (koloskova_mc_search.c) ----------- */

/* Where a certified quantity lies against a claimed value: certified at most
 * the claim, certified above it, or undecided at this precision. */
typedef enum { UL_KOL_UNDECIDED = 0, UL_KOL_AT_MOST, UL_KOL_ABOVE } ul_kol_side;

/* σ0 > 0 (initial noise, so δ0 < 1), decided on the decimal text. */
bool ul_kol_mc_initial_noise(const ul_kol_mc_problem *pb);

/* A certified lower bound on the adaptive δ_T: log(δ0·θ*^T), θ* =
 * θ_{e^ε̃*}(D/σ), ε̃* = log(1 + (e^ε − 1)/claim) (ε for the product form):
 * while δ_t > claim, ε̃_t < ε̃* and θ is nonincreasing in ε (docs/neural-unlearning.md,
 * "Hockey-stick divergence of Gaussians", "Model clipping"), so every step multiplies δ_t by at
 * least θ*.  Valid as a lower bound whenever it lies above the claim.  One constant σ; `lower` (log
 * form) at p bits.  False when not computable. */
bool ul_kol_mc_delta_lower_bound(const ul_kol_mc_problem *pb, const char *claim, mpfr_prec_t p,
                                 ul_num_value *lower);

/* The adaptive claim δ_T ≤ claim decided without running the recursion:
 * with g(L) = log θ_{e^{ε̃(L)}}(D/σ) nondecreasing in L = log δ (docs/neural-unlearning.md,
 * "Hockey-stick divergence of Gaussians", "Model clipping"), the recursion with θ frozen at the
 * bottom (top) of each of 256 bands of log δ between δ0 and the claim stays below (above) the true
 * log δ_t.  UL_KOL_ABOVE when the lower sequence ends above the claim, UL_KOL_AT_MOST when the
 * upper one reaches it, else UL_KOL_UNDECIDED; *bound (log form, p bits) is the deciding end.
 * Adaptive mode, one constant σ. */
ul_kol_side ul_kol_mc_band_decide(const ul_kol_mc_problem *pb, const char *claim, mpfr_prec_t p,
                                  ul_num_value *bound);

/* A certified lower bound on the least T with δ_T ≤ delta (one constant σ):
 * T ≥ log(δ/δ0)/log θ* (θ* as above).  False when not computable. */
bool ul_kol_mc_least_steps_lower_bound(const ul_kol_mc_problem *pb, const char *delta, double *lb);

/* The smallest constant σ with the adaptive δ_T ≤ delta after pb->steps
 * steps: bisection on log σ in doubles (ul_kol_mc_log_delta_d), then one
 * certified recursion on each side of the estimate (δ_T(hi) ≤ δ and
 * δ_T(lo) > δ), widened up to three times: out ⊇ σ* (δ_T is nonincreasing
 * in σ).  False when not certified. */
bool ul_kol_mc_sigma_min_searched(const ul_kol_mc_problem *pb, const char *delta, mpfi_ptr out);

/* Doubles, for searches only (never a bound).  log δ_T for `steps` steps at
 * the constant σ `sigma` (> 0), or at the problem's σ_t when sigma = 0 (the
 * recursion of docs/neural-unlearning.md, "Model clipping" with Q by erfc and the Mills-ratio
 * series); −inf once below 10^-300·e^-300.  And log of a decimal (finite for δ = 1e-400). */
double ul_kol_mc_log_delta_d(const ul_kol_mc_problem *pb, double sigma, unsigned long steps);

#endif
