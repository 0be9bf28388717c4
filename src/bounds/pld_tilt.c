/* src/bounds/pld_tilt.c — exponential tilting of the per-step arrays
 * (pld.c §5): the composed mass near ε, however small, becomes the bulk of
 * what the FFT computes.
 *
 * WHY.  δ(ε) = E f_ε(S) depends on the composed loss S only above ε.  At
 * small δ (or large T) that part is a far tail: the window must reach it
 * from the bulk, and the FFT's rounding, relative to the total mass 1, can
 * exceed δ itself.  Tilting by e^{λℓ} commutes with convolution:
 *     (p₁e^{λℓ}) ∗ (p₂e^{λℓ}) = (p₁ ∗ p₂)·e^{λℓ},
 * so composing the tilted arrays p̃_i = p_i·e^{λℓ − L_i} (L_i a double near
 * log M_i(λ), M_i(λ) = Σ_k p_ik e^{λℓ_k}, so Σ p̃_i ≈ 1) gives the tilted
 * composition, z̃_m = z_m·e^{λℓ_m − A} with A = Σ_i T_i·L_i, exactly.  Then
 *     Σ_m f_ε(ℓ_m) z_m = K(ε)·Σ_m g_ε(ℓ_m) z̃_m,
 *     g_ε(ℓ) = (1 − e^{ε−ℓ})·e^{−λ(ℓ−ε)} ∈ [0, 1) for ℓ > ε,  K(ε) = e^{A − λε},
 * an identity: the read-off (pld_compose.c) is the old one with the weights
 * g_ε ≤ 1 and every term in tilted units multiplied by K(ε), which MPFR
 * holds at any magnitude.  This is the exponential change of measure of
 * Cramér's theorem (Dembo & Zeitouni, "Large deviations techniques and
 * applications", 2nd ed. 1998, §2.2); λ is the saddle point of the Chernoff
 * bound P[S ≥ ε] ≤ e^{−λε}·Π M_i(λ)^{T_i}, where the tilted mean is ε, so
 * K(ε) is that Chernoff bound, the window is centred at ε and a few tilted
 * standard deviations wide, and the rounding bound (§3, on tilted arrays
 * of sum ≈ 1) is relative to K: double FFTs at any δ.
 *
 * THE STORED ARRAYS.  τ_k = e^{λℓ_k − L} is computed in long double from
 * an MPFI anchor per block of TILT_BLOCK bins and the recurrence
 * τ_{k+1} = τ_k·ẽ, ẽ ≈ e^{λh} (relative errors r_b of the anchor, r_e of
 * ẽ, u_L per product), so |τ̃_k − τ_k| ≤ θ·τ_k with
 * θ = max_b (1 + r_b)·((1 + r_e)(1 + u_L))^{B−1} − 1.  Each atom is stored
 * as p̃_k = RU(p_k ⊗ τ̃_k ⊗ (1 + κ)), κ = 2(θ + 2u_L): at least p_k·τ_k (so
 * the upper end of §1 holds for the tilted arrays: the long double products
 * are within κ, and the double nearest the result, moved up one ulp, is
 * above it); the optimistic array the same way down, õ_k = RD(o_k ⊗ τ̃_k ⊗
 * (1 − κ)) ≤ o_k·τ_k, so its composition stays below (pld_opt.c; its slack
 * opt_debt is in real units and is subtracted after K).  The mass at +∞
 * stays untilted: it enters hi as it is (§4).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "bounds/pld_fft.h"
#include "bounds/pld_internal.h"

#define TILT_BLOCK 256 /* bins per MPFI anchor */
#define LAMBDA_GRID 64 /* λ tried by the choice in doubles */

/* log Σ_k p_k e^{λℓ_k} over the stored array, in doubles (choices only). */
static double log_mgf(const disc *d, double lambda, double h)
{
    double top = -INFINITY;
    for (size_t k = 0; k < d->n; k++)
        if (d->pess[k] > 0) {
            double e = log(d->pess[k]) + lambda * (d->k_lo + (double)k) * h;
            top = e > top ? e : top;
        }
    if (!isfinite(top))
        return top;
    double s = 0;
    for (size_t k = 0; k < d->n; k++)
        if (d->pess[k] > 0)
            s += exp(log(d->pess[k]) + lambda * (d->k_lo + (double)k) * h - top);
    return top + log(s);
}

/* Σ_i T_i log M_i(λ) (the composed log-MGF of the discretised steps). */
static double composed_log_mgf(const disc *ds, size_t nd, double lambda, double h)
{
    double c = 0;
    for (size_t i = 0; i < nd; i++)
        c += (double)ds[i].steps * log_mgf(&ds[i], lambda, h);
    return c;
}

/* λ on a log grid from 1e-4 to 1e4 minimising the objective (choices only). */
typedef double (*lambda_objective)(const disc *ds, size_t nd, double lambda, double h,
                                   double x);

static double obj_delta(const disc *ds, size_t nd, double lambda, double h, double eps)
{
    return composed_log_mgf(ds, nd, lambda, h) - lambda * eps; /* log Chernoff of P[S ≥ ε] */
}

static double obj_eps(const disc *ds, size_t nd, double lambda, double h, double log_inv_delta)
{
    /* ε at which the Chernoff bound reaches δ: (Σ T log M + log 1/δ)/λ */
    return (composed_log_mgf(ds, nd, lambda, h) + log_inv_delta) / lambda;
}

static double best_lambda(const disc *ds, size_t nd, double h, double x, lambda_objective f,
                          double *value)
{
    double best = 0, bv = INFINITY;
    for (int j = 0; j < LAMBDA_GRID; j++) {
        double lam = pow(10.0, -4 + 8.0 * j / (LAMBDA_GRID - 1));
        double v = f(ds, nd, lam, h, x);
        if (isfinite(v) && v < bv) {
            bv = v;
            best = lam;
        }
    }
    /* refine around the best grid point (golden-section on [best/r, best·r]) */
    if (best > 0) {
        double r = pow(10.0, 8.0 / (LAMBDA_GRID - 1)), a = log(best / r), b = log(best * r);
        for (int it = 0; it < 40; it++) {
            double m1 = a + 0.382 * (b - a), m2 = a + 0.618 * (b - a);
            if (f(ds, nd, exp(m1), h, x) < f(ds, nd, exp(m2), h, x))
                b = m2;
            else
                a = m1;
        }
        double lam = exp(0.5 * (a + b)), v = f(ds, nd, lam, h, x);
        if (isfinite(v) && v < bv) {
            bv = v;
            best = lam;
        }
    }
    *value = bv;
    return best;
}

double ul_pld_tilt_lambda_delta(const disc *ds, size_t nd, double h, double eps)
{
    double v, lam = best_lambda(ds, nd, h, eps, obj_delta, &v);
    /* no gain unless the Chernoff bound is small: ε well above the bulk */
    return isfinite(v) && v < log(1e-3) ? lam : 0;
}

double ul_pld_tilt_lambda_eps(const disc *ds, size_t nd, double h, double delta, double *eps0)
{
    double v, lam = best_lambda(ds, nd, h, -log(delta), obj_eps, &v);
    *eps0 = v;
    return isfinite(v) && delta < 1e-3 ? lam : 0;
}

/* θ ≥ (1 + r_b)((1 + r_e)(1 + u_L))^{B−1} − 1 for the largest anchor error r_b. */
static double tilt_theta(mpfr_srcptr rb, mpfr_srcptr re)
{
    mpfr_t t, c, uL;
    mpfr_inits2(BUDGET_PREC, t, c, uL, (mpfr_ptr)0);
    mpfr_set_ui_2exp(uL, 1, -LDBL_MANT_DIG, MPFR_RNDN); /* exact */
    ul_pld_block_growth(c, re, uL, TILT_BLOCK);
    mpfr_add_ui(t, rb, 1, MPFR_RNDU);
    mpfr_mul(c, c, t, MPFR_RNDU);
    mpfr_sub_ui(c, c, 1, MPFR_RNDU);
    double th = mpfr_get_d(c, MPFR_RNDU);
    mpfr_clears(t, c, uL, (mpfr_ptr)0);
    return th;
}

/* τ̃_k for every bin of d into tau (long double), *theta its relative error. */
static void tilt_factors(long double *tau, double *theta, const disc *d, double lambda,
                         double L, double h)
{
    mpfi_t arg;
    mpfi_init2(arg, BUDGET_PREC);
    mpfr_t loss, rb, re, rmax;
    mpfr_inits2(BUDGET_PREC, rb, re, rmax, (mpfr_ptr)0);
    mpfr_init2(loss, 128);
    mpfi_set_d(arg, lambda);
    mpfi_mul_d(arg, arg, h);
    long double step;
    ul_pld_exp_anchor(&step, re, arg); /* ≈ e^{λh} */
    mpfr_set_zero(rmax, 1);
    for (size_t b = 0; b < d->n; b += TILT_BLOCK) {
        ul_pld_exact_loss(loss, d->k_lo + (double)b, h);
        mpfi_set_fr(arg, loss);
        mpfi_mul_d(arg, arg, lambda);
        mpfi_sub_d(arg, arg, L); /* λℓ_b − L, enclosed */
        long double t;
        ul_pld_exp_anchor(&t, rb, arg);
        if (mpfr_greater_p(rb, rmax))
            mpfr_set(rmax, rb, MPFR_RNDU);
        size_t e = b + TILT_BLOCK < d->n ? b + TILT_BLOCK : d->n;
        for (size_t k = b; k < e; k++, t *= step)
            tau[k] = t;
    }
    *theta = tilt_theta(rmax, re);
    mpfr_clears(loss, rb, re, rmax, (mpfr_ptr)0);
    mpfi_clear(arg);
}

double ul_pld_tilt_log_mgf(const disc *d, double lambda, double h)
{
    return log_mgf(d, lambda, h);
}

void ul_pld_tilt(disc *d, double lambda, double L, double h, long double *tau)
{
    double theta;
    tilt_factors(tau, &theta, d, lambda, L, h);
    double u = ldexp(1.0, -LDBL_MANT_DIG), kappa = 2 * (theta + 2 * u);
    long double up = 1 + (long double)kappa, down = 1 - (long double)kappa;
    for (size_t k = 0; k < d->n; k++) {
        if (d->pess[k] > 0) {
            double v = (double)((long double)d->pess[k] * tau[k] * up);
            d->pess[k] = nextafter(v, INFINITY); /* ≥ p_k·τ_k (the product's roundings in κ) */
        }
        if (d->opt[k] > 0) {
            double v = (double)((long double)d->opt[k] * tau[k] * down);
            d->opt[k] = nextafter(v, 0); /* ≤ o_k·τ_k, the same way down */
        }
    }
    d->tilt_L = L;
    ul_pld_disc_moments(d, d->n, d->k_lo, h);
}
