/* tests/sweep_oracle_b.h — independent high-precision bounds for the boundary
 * sweep of tests/test_sweep_b.c (issue 11): Langevin unlearning (Chien et al.
 * Thms 3.2, 3.3, Prop L.2), Descent-to-Delete (App. M, Thms M.1 and M.2),
 * model clipping and gradient clipping (Koloskova et al.; PABI).
 *
 * Written from the formulas of docs/langevin.md and
 * docs/neural-unlearning.md in plain MPFR at SOB_BITS, without calling
 * anything in src/: different algorithms where the library has a choice (a
 * closed-form fixed point instead of the walked LSI recursion, a closed-form
 * ε instead of a σ comparison, golden-section search instead of a double
 * search plus branch and bound).  The only shared piece is tests/oracle.c's
 * θ (Taylor series and Laplace's continued fraction, no mpfr_erfc).  These
 * are approximations, not enclosures; their error is far below the 1e-9
 * relative margins the sweep uses.
 *
 * Every parameter is the decimal text written into the certificate, parsed
 * here at SOB_BITS (the certificate is read exactly, so the oracle sees the
 * same numbers up to 2^-SOB_BITS relative).
 */
#ifndef UL_TESTS_SWEEP_ORACLE_B_H
#define UL_TESTS_SWEEP_ORACLE_B_H

#include <mpfr.h>
#include <stdbool.h>
#include <stddef.h>

/* Working precision of these oracles, in bits. */
#define SOB_BITS 320

/* ---- Langevin unlearning ---------------------------------------------------- */

typedef enum { SOB_LG_STRONGLY_CONVEX, SOB_LG_CONVEX, SOB_LG_NONCONVEX } sob_lg_case;

/* One "langevin" certificate with T absent (learning to convergence) and
 * the default (corrected) rates and ε0 form.  eta NULL means 1/L. */
typedef struct {
    sob_lg_case kind;
    const char *n, *m, *L, *M, *eta, *sigma, *R, *C_lsi, *delta;
    unsigned long K, S;
} sob_langevin;

/* ε_DP = min_{α>1} [ α·E·exp(−Λ_K/α) + log(1/δ)/(α − 1) ] (Prop L.2 (80) with
 * Thms 3.2, 3.3; docs/langevin.md, Errata L1). */
void sob_langevin_eps(mpfr_ptr out, const sob_langevin *p);

/* The (α, ε)-Rényi unlearning bound at one order: α·E·exp(−Λ_K/α) (Thm 3.2
 * with Thm 3.3; no optimisation). */
void sob_langevin_renyi(mpfr_ptr out, const sob_langevin *p, const char *alpha);

/* The two constants of that bound: E = ε0(α)/α and Λ_K (exposed for the
 * oracle's own checks). */
void sob_langevin_consts(mpfr_ptr E, mpfr_ptr lambda, const sob_langevin *p);

/* E = ε0/α of Thm 3.3 after a finite T learning steps from an initial law
 * that is C0-LSI, the recursion walked step by step (convex / non-convex;
 * for checking the T → ∞ closed form used by sob_langevin_consts). */
void sob_langevin_eps0_walk(mpfr_ptr E, const sob_langevin *p, const char *C0, unsigned long T);

/* min_{t} f(t) over t = log(α − 1) ∈ [t_lo, t_hi] by a grid scan and golden
 * section (f unimodal); the minimiser goes to *t_best when not NULL. */
typedef void (*sob_objective)(mpfr_ptr out, mpfr_srcptr t, const void *ctx);
void sob_minimise(mpfr_ptr out, sob_objective f, const void *ctx, double t_lo, double t_hi,
                  mpfr_ptr t_best);

/* ---- Descent-to-Delete (App. M) ------------------------------------------- */

typedef struct {
    bool m2; /* Thm M.2 (else M.1) */
    const char *L, *m, *M, *n, *d, *delta;
    unsigned long I;
} sob_d2d;

/* The σ of (86) (M.1) or (88) (M.2) at (ε, δ, I). */
void sob_d2d_sigma(mpfr_ptr out, const sob_d2d *p, mpfr_srcptr eps);

/* The ε at which that σ formula equals sigma: the smallest ε the theorem
 * gives with output noise sigma (σ formula decreasing in ε), in closed form. */
void sob_d2d_eps(mpfr_ptr out, const sob_d2d *p, const char *sigma);

/* The least I ≥ 1 meeting (87) at (ε, δ, d) (M.2). */
unsigned long sob_d2d_m2_least_I(const sob_d2d *p, mpfr_srcptr eps);

/* ---- model clipping (Koloskova et al., docs/neural-unlearning.md, "Model clipping") ------------
 * */

typedef struct {
    bool cc2;                 /* D = 2(C2 + lr·C1), else D = 2·C2 */
    bool adaptive;            /* the code's adaptive recursion, else the product */
    const char *c2, *c1, *lr; /* c1, lr: cc2 only */
    const char *const *sigma; /* one value, or one per step */
    size_t n_sigma;
    unsigned long steps;
    const char *sigma0, *c0; /* NULL: δ0 = 1 */
    bool box;                /* D0 = 2·C0·√dim, else 2·C0 */
    unsigned long dim;
    const char *eps;
} sob_mc;

/* log δ_T (at ORACLE_BITS). */
void sob_mc_log_delta(mpfr_ptr out, const sob_mc *p);

/* ---- gradient clipping (PABI, docs/neural-unlearning.md, "Gradient clipping")
 * --------------------- */

typedef struct {
    const char *c0, *c1, *lr, *lambda, *sigma; /* one constant σ */
    bool box;
    unsigned long dim, steps;
} sob_pabi;

/* ρ_eff = ½·[ρ^T·D0 + Σ_{t<T} ρ^{T−1−t}·s]² / Σ_{t<T} ρ^{2(T−1−t)}·σ²,
 * ρ = 1 − lr·λ, s = 2·lr·C1. */
void sob_pabi_rho(mpfr_ptr out, const sob_pabi *p);

/* ε at δ of the RDP curve α·rho, minimised over α > 1:
 *   bbghs:   α·ρ + log(1 − 1/α) − (log δ + log α)/(α − 1)  (Balle et al. 2020 Thm 21)
 *   mironov: α·ρ + log(1/δ)/(α − 1)                       (Mironov 2017 Prop. 3) */
void sob_rdp_linear_eps(mpfr_ptr out, mpfr_srcptr rho, const char *delta, bool bbghs);

#endif
