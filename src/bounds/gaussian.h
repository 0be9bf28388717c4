/* src/bounds/gaussian.h — the Gaussian hockey-stick divergence θ and its inverses.
 *
 * For ε ∈ ℝ and r = ‖μ1 − μ2‖/σ ≥ 0 (docs/neural-unlearning.md, "Hockey-stick divergence of
 * Gaussians"; Asoodeh, Diaz, Calmon 2020,
 * Lemma 3 / Remark 1):
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
 * A.4" of the paper; docs/neural-unlearning.md, "Simplified Gaussian
 * bound"), as a log enclosure. */
void ul_gauss_loose_bound_log_enclose(mpfi_ptr out, mpfi_srcptr eps, mpfi_srcptr r);

typedef enum { UL_LOOSE_UNDECIDED = 0, UL_LOOSE_VALID, UL_LOOSE_INVALID } ul_loose_validity;

/* Whether 1.25·exp(−ε²/(2r²)) ≥ θ_{e^ε}(r) at the decimal point (eps, r),
 * decided with enclosures (raising precision up to 4096 bits).  It is not an
 * upper bound for ε above about 3.787 (docs/neural-unlearning.md, "Simplified Gaussian bound"). */
ul_loose_validity ul_gauss_loose_bound_check(const char *eps, const char *r);

/* ---- composed Gaussian mechanisms (gaussian_compose.c) ------------------------
 * k releases with sensitivities Δ_i and noises σ_i (one value or one per
 * release), each repeated T times, are exactly the Gaussian mechanism with
 *     r² = T·Σ_i (Δ_i/σ_i)²
 * (Dong, Roth & Su 2022, Cor. 3.3; Balle & Wang 2018 Thm 8 for θ; Mironov
 * 2017 Prop. 7 for the Rényi divergence α·r²/2).  One sensitivity `sens`
 * (or 1 for a list) and one σ are factored out: S = T·sens²·Σ u_i²,
 * u_i = (Δ_i or 1)/(σ_i or 1), r² = S/σ² with one σ, S with a σ list or no
 * σ (calibration: r at σ = 1). */
typedef struct ul_gauss_comp_cache ul_gauss_comp_cache;
typedef struct {
    size_t k;              /* releases with their own terms */
    unsigned long long T;  /* repetitions of the whole */
    size_t n_sigma;        /* 0 (no σ), 1 (one σ) or k (one per release) */
    mpq_t sens;            /* the sensitivity factored out (twice it when doubled) */
    mpq_t sig;             /* the one σ (n_sigma = 1) */
    mpq_t *u;              /* the k exact terms */
    bool have_s;           /* s holds S exactly (terms of at most 2^22 bits in all) */
    mpq_t s;
    ul_gauss_comp_cache *cache; /* S at the highest precision asked (mutable) */
} ul_gauss_comp;

/* Reads the terms exactly.  sens: n_sens ≥ 1 decimals (one, or one per
 * release); doubled: sensitivity 2·sens (output perturbation, 2·C0); sig:
 * n_sigma decimals (0, 1 or k); k ≥ 1 releases; T ≥ 1.  Every decimal must
 * already be validated (num/input.h's limits: the certificate reader's
 * job); the lists' lengths must be 1 or k. */
void ul_gauss_comp_init(ul_gauss_comp *c, const char *const *sens, size_t n_sens, bool doubled,
                        const char *const *sig, size_t n_sigma, size_t k, unsigned long long T);
void ul_gauss_comp_clear(ul_gauss_comp *c);

/* out ⊇ S, r² and r at out's precision (outward). */
void ul_gauss_comp_s(mpfi_ptr out, const ul_gauss_comp *c);
void ul_gauss_comp_r2(mpfi_ptr out, const ul_gauss_comp *c);
void ul_gauss_comp_r(mpfi_ptr r, const ul_gauss_comp *c);

/* Whether r > limit (a decimal) certainly: on a 128-bit enclosure, exactly
 * when that straddles and S is formed. */
bool ul_gauss_comp_r_exceeds(const ul_gauss_comp *c, const char *limit);

/* ρ = α·r²/2 (with_sigma) or α·S/2 (σ left out: ρ at σ = 1), exactly (needs
 * have_s) or enclosed at x's precision. */
void ul_gauss_comp_renyi_exact(mpq_ptr rho, const ul_gauss_comp *c, bool with_sigma,
                               mpq_srcptr alpha);
void ul_gauss_comp_renyi(mpfi_ptr x, const ul_gauss_comp *c, bool with_sigma, mpq_srcptr alpha);

/* ρ at the order alpha against the claimed rational: −1, 0, +1 as ρ <, =, >
 * claimed (exactly when S is formed; else on enclosures from x's precision
 * doubled up to want's cap, −1 meaning ρ ≤ claimed, and 2 when still
 * undecided there).  x receives ρ's enclosure. */
int ul_gauss_comp_renyi_cmp(const ul_gauss_comp *c, mpq_srcptr alpha, mpq_srcptr claimed,
                            const ul_num_precision *want, mpfi_ptr x);

/* σ* ⊇ the smallest σ with θ_{e^eps}(r) ≤ delta, 0 < delta < 1: the
 * smallest σ for the one sensitivity `base` (twice it when doubled), scaled
 * by √T when T > 1; base NULL (lists): σ*(1)·√S, the smallest σ with one σ
 * (r = √S/σ), the smallest factor on every σ_i with a σ list.  Upper end
 * certified safe; statuses of ul_gauss_sigma_min (UL_ECAP returned as UL_OK,
 * *nr saying so). */
ul_status ul_gauss_comp_sigma_min(const ul_gauss_comp *c, const char *eps, const char *delta,
                                  const char *base, bool doubled, const ul_num_precision *want,
                                  mpfi_ptr sigma, ul_num_report *nr, char *err, size_t errlen);

/* eps_out ⊇ the smallest ε ≥ 0 with θ_{e^ε}(r) ≤ delta at the composition's
 * r (through decimals r_lo ≤ r ≤ r_hi at want's digits + 4: ε* increases
 * with r); upper end certified safe. */
ul_status ul_gauss_comp_eps_min(const ul_gauss_comp *c, const char *delta,
                                const ul_num_precision *want, mpfi_ptr eps_out, char *err,
                                size_t errlen);

/* x ⊇ √(α·S/(2ρ)) at x's precision: the smallest σ (one σ) or σ-factor (a
 * σ list) whose Rényi divergence at order alpha is at most rho > 0. */
void ul_gauss_comp_renyi_sigma(mpfi_ptr x, const ul_gauss_comp *c, mpq_srcptr alpha,
                               mpq_srcptr rho);

/* θ_{e^eps}(r) of the composition (Balle & Wang 2018 Thm 8 at the r above),
 * to want's digits (num/adaptive.h's statuses; UL_EINPUT when eps is not a
 * decimal). */
ul_status ul_gauss_comp_theta(const ul_gauss_comp *c, const char *eps,
                              const ul_num_precision *want, ul_num_value *out, ul_num_report *nr,
                              char *err, size_t errlen);

/* √S to nearest double (r at σ = 1): for recipes in doubles, never a bound. */
double ul_gauss_comp_sqrt_s_double(const ul_gauss_comp *c);

/* out ⊇ the classic (loose) δ = 1.25·exp(−ε²/(2r²)) at the composition's r
 * (Dwork & Roth Thm A.1 inverted; docs/neural-unlearning.md, "Simplified Gaussian bound": not a
 * bound above
 * ε ≈ 3.787), in log form at out's precision; eps a validated decimal. */
void ul_gauss_comp_loose_delta(ul_num_value *out, const ul_gauss_comp *c, const char *eps);

/* x = n exactly (n up to 2^64 − 1, whatever the width of unsigned long). */
void ul_gauss_comp_set_ull(mpfi_ptr x, unsigned long long n);

#endif
