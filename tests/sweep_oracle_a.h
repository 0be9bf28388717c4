/* tests/sweep_oracle_a.h — independent references for the boundary sweep of
 * tests/test_sweep_a.c (issue 11): the bounds of gaussian-mechanism,
 * output-perturbation, rdp-curve, noisy-gd and dp-sgd-group, computed from
 * the formulas of the papers (cited at each function) in plain MPFR, with
 * nothing from src/.  The normal tail comes from tests/oracle.c (Taylor
 * series and Laplace's continued fraction), the subsampled Gaussian's RDP
 * from tests/renyi_oracle.c (quadrature of its defining integral).
 *
 * Minimisations over an order (noisy-gd's (ε, δ) reading, DP-SGD's order α)
 * are searched, then the bound is evaluated at the minimiser found: the
 * value there is at most a second-order amount above the minimum.  These
 * are approximations, not enclosures; their error is far below the 1e-9
 * relative margin the sweep puts around each bound.
 */
#ifndef UL_TESTS_SWEEP_ORACLE_A_H
#define UL_TESTS_SWEEP_ORACLE_A_H

#include <gmp.h>
#include <mpfr.h>
#include <stddef.h>
#include <stdint.h>

/* Working precision of the results (bits). */
#define SWA_BITS 256

/* ---- a reproducible generator (xorshift64*, Vigna 2016) ------------------ */

typedef struct {
    uint64_t s;
} swa_rng;

void swa_rng_seed(swa_rng *r, uint64_t seed);
/* uniform in [lo, hi) */
double swa_uniform(swa_rng *r, double lo, double hi);
/* log-uniform in [lo, hi), 0 < lo < hi */
double swa_log_uniform(swa_rng *r, double lo, double hi);
/* a whole number, log-uniform in [lo, hi] */
unsigned long swa_log_int(swa_rng *r, unsigned long lo, unsigned long hi);

/* ---- decimal text -------------------------------------------------------- */

/* x with `digits` significant digits ("%.*g" of a double). */
void swa_dec(char *buf, size_t len, double x, int digits);
/* x·(1 + rel) as 30 significant digits (x in MPFR). */
void swa_dec_scaled(char *buf, size_t len, mpfr_srcptr x, double rel);
/* The exact decimal of a rational with a terminating expansion; false if it
 * has none (or does not fit). */
int swa_dec_exact(char *buf, size_t len, mpq_srcptr x);

/* ---- Gaussian mechanism --------------------------------------------------- */

/* The releases: one Δ and one σ composed T times, or k releases given as
 * lists (n_sens and n_sigma each 1 or k; a single value stands for every
 * release; T is then ignored). */
typedef struct {
    const char *const *sens;
    size_t n_sens;
    const char *const *sigma;
    size_t n_sigma;
    unsigned long T;
} swa_gauss;

/* log δ = log θ_{e^ε}(r), the exact privacy profile of the Gaussian
 * mechanism (Balle & Wang 2018 Thm 8), with r² = T·Δ²/σ², or Σ_i (Δ_i/σ_i)²
 * for lists: composition of Gaussian DP (Dong, Roth, Su 2019 Cor. 3.3,
 * μ_i-GDP compose to √(Σ μ_i²)-GDP). */
void swa_gauss_log_delta(mpfr_ptr out, const char *eps, const swa_gauss *g);
/* D_α = α·r²/2 (Mironov 2017 Prop. 7, additive under composition, Prop. 1). */
void swa_gauss_renyi(mpfr_ptr out, const char *alpha, const swa_gauss *g);

/* ---- RDP → (ε, δ) ---------------------------------------------------------- */

typedef enum { SWA_MIRONOV, SWA_BBGHS } swa_conv;

/* ε(δ) = min_i over the points of the conversion (Mironov 2017 Prop. 3;
 * Balle et al. 2020 Thm 21 with ε ≥ 0 and the Bretagnolle–Huber shortcut
 * of dp_accounting: ε = 0 once δ ≥ √(1 − e^{−ρ})). */
void swa_rdp_points_eps(mpfr_ptr out, const char *const *alphas, const char *const *rdps, size_t n,
                        const char *delta, swa_conv conv);

/* ---- Noisy-GD (Chourasia & Shah; docs/noisy-gd.md "Derived formulas") ------------------------ */

typedef enum { SWA_G7, SWA_G9, SWA_G15, SWA_T51 } swa_ngd_thm;

typedef struct {
    swa_ngd_thm thm;
    const char *L, *lambda, *beta, *sigma, *eta, *n, *K; /* K: KAbar for G.15, Thm 5.1 */
    const char *eps_dp, *q;                              /* Thm 5.1 only */
} swa_ngd;

/* The slope a of the bound ε(q) = a·q:
 *   G.7   a = L²ηK/(σ²n²)
 *   G.9   a = 4L²/(λσ²n²)·(1 − e^{−ληK/2})
 *   G.15  a = 2L²/(λσ²n²(1 − ηλ/2))·e^{−ηλ(1 − ηλ/2)K}   (the proof's tight line)
 *   Thm 5.1  G.15 at its prescriptions η = 1/(2(λ+β)), σ² = 4qL²/(λ·ε_dp·n²) for
 *         the certificate's q: a = ε_dp/(2q(1 − ηλ/2))·e^{−ηλ(1 − ηλ/2)K} */
void swa_ngd_slope(mpfr_ptr a, const swa_ngd *p);

/* min over q > 1 of a·q + log(1/δ)/(q − 1) (Remark 2.1 / Mironov Prop. 3 at
 * every order), by golden-section search in MPFR; returns the relative gap
 * to the closed form a + 2√(a·log(1/δ)) as a self-check of the search. */
double swa_ngd_eps(mpfr_ptr eps, mpfr_srcptr a, const char *delta);

/* ---- DP-SGD with group privacy (docs/neural-unlearning.md, "DP-SGD with group privacy")
 * -------------- */

/* log of the group δ at the group ε: ε' = ε/k, per-example δ' from the
 * Poisson-subsampled Gaussian (rate q, noise multiplier σ) composed `steps`
 * times, converted at the order α minimising it, times Σ_{i<k} e^{iε'}.
 * The order is searched in long double over (1, alpha_max]; the value at it
 * comes from renyi_oracle.  Returns 0 and fills *alpha_star, or −1 when the
 * minimiser lies at alpha_max or where the Bretagnolle–Huber cap binds (the
 * sweep draws another case). */
int swa_dpsgd_log_delta(mpfr_ptr out, double *alpha_star, const char *q, const char *sigma,
                        unsigned long steps, unsigned long k, const char *eps, swa_conv conv,
                        double alpha_max);

#endif
