/* tests/renyi_oracle.c — quadrature reference for the subsampled Gaussian's
 * RDP.  See renyi_oracle.h.
 *
 * The integrand f(z) = φ_σ(z)·b(z)^α, b(z) = (1−q) + q e^{(2z−1)/(2σ²)}, is
 * smooth and decays like a Gaussian at both ends, so the trapezoidal rule on
 * a uniform grid converges geometrically: for f analytic in the strip
 * |Im z| < y its error is about e^{−2πy/h}·sup|f| on the strip, and |φ_σ|
 * grows there by e^{y²/(2σ²)} while |b^α| does not grow (|b(x+iy)| ≤ b(x)).
 * For fractional α, b^α has branch points where b = 0, at Im z = πσ²(2k+1),
 * so y < πσ².  The step h is chosen for an error near 2^−BITS and checked by
 * halving it.
 *
 * Where the integrand lives: log f = −z²/(2σ²) + α·log b(z) with log b
 * convex, so (log f)'' ≥ −1/σ²; hence between two points d apart log f
 * exceeds the larger end value by at most d²/(8σ²).  Sampling log f every σ
 * over [−Kσ, α + Kσ] (K with e^{−K²/2}·2^α below 2^−BITS: the tails beyond,
 * Gaussian around 0 and around α, are negligible) therefore bounds f on each
 * cell by e^{1/8}·max(ends).  Cells whose bound is below 2^−(BITS+40) of the
 * peak are skipped and their bound added to the error estimate; the
 * trapezoidal rule runs over the remaining runs of cells.
 */
#include "renyi_oracle.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#define W (RENYI_ORACLE_BITS + 64)
#define PI_D 3.14159265358979323846

typedef struct {
    mpfr_t q, sigma, alpha, s2, log_q, log_1q, log_norm;
} params;

/* log f(z). */
static void log_f(const params *p, mpfr_ptr out, mpfr_srcptr z)
{
    mpfr_t u, v, t;
    mpfr_inits2(W, u, v, t, (mpfr_ptr)0);
    /* u = log(q e^{(2z−1)/(2σ²)}), v = log(1−q); log b = max + log1p(e^{−|u−v|}) */
    mpfr_mul_2ui(u, z, 1, MPFR_RNDN);
    mpfr_sub_ui(u, u, 1, MPFR_RNDN);
    mpfr_div(u, u, p->s2, MPFR_RNDN);
    mpfr_add(u, u, p->log_q, MPFR_RNDN);
    mpfr_set(v, p->log_1q, MPFR_RNDN);
    mpfr_sub(t, u, v, MPFR_RNDN);
    mpfr_abs(t, t, MPFR_RNDN);
    mpfr_neg(t, t, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_log1p(t, t, MPFR_RNDN);
    mpfr_max(out, u, v, MPFR_RNDN);
    mpfr_add(out, out, t, MPFR_RNDN); /* log b(z) */
    mpfr_mul(out, out, p->alpha, MPFR_RNDN);
    mpfr_sqr(t, z, MPFR_RNDN);
    mpfr_div(t, t, p->s2, MPFR_RNDN);
    mpfr_sub(out, out, t, MPFR_RNDN);
    mpfr_sub(out, out, p->log_norm, MPFR_RNDN);
    mpfr_clears(u, v, t, (mpfr_ptr)0);
}

/* Σ f(a + (j + offset)·h) over the grid points inside [a, b]. */
static void grid_sum(const params *p, mpfr_ptr sum, double a, double b, mpfr_srcptr h,
                     double offset)
{
    mpfr_t z, v;
    mpfr_inits2(W, z, v, (mpfr_ptr)0);
    mpfr_set_zero(sum, 1);
    double hd = mpfr_get_d(h, MPFR_RNDN);
    long n = (long)ceil((b - a) / hd);
    for (long j = 0; j <= n; j++) {
        mpfr_set_d(z, (double)j + offset, MPFR_RNDN);
        mpfr_mul(z, z, h, MPFR_RNDN);
        mpfr_add_d(z, z, a, MPFR_RNDN);
        log_f(p, v, z);
        mpfr_exp(v, v, MPFR_RNDN);
        mpfr_add(sum, sum, v, MPFR_RNDN);
    }
    mpfr_clears(z, v, (mpfr_ptr)0);
}

void renyi_oracle_sgm_rdp(mpfr_ptr rho, mpfr_ptr err, const char *q, const char *sigma,
                          const char *alpha)
{
    params p;
    mpfr_inits2(W, p.q, p.sigma, p.alpha, p.s2, p.log_q, p.log_1q, p.log_norm, (mpfr_ptr)0);
    mpfr_set_str(p.q, q, 10, MPFR_RNDN);
    mpfr_set_str(p.sigma, sigma, 10, MPFR_RNDN);
    mpfr_set_str(p.alpha, alpha, 10, MPFR_RNDN);
    mpfr_sqr(p.s2, p.sigma, MPFR_RNDN);
    mpfr_mul_2ui(p.s2, p.s2, 1, MPFR_RNDN);
    mpfr_log(p.log_q, p.q, MPFR_RNDN);
    mpfr_ui_sub(p.log_1q, 1, p.q, MPFR_RNDN);
    mpfr_log(p.log_1q, p.log_1q, MPFR_RNDN);
    mpfr_const_pi(p.log_norm, MPFR_RNDN); /* log(σ√(2π)) */
    mpfr_mul_2ui(p.log_norm, p.log_norm, 1, MPFR_RNDN);
    mpfr_sqrt(p.log_norm, p.log_norm, MPFR_RNDN);
    mpfr_mul(p.log_norm, p.log_norm, p.sigma, MPFR_RNDN);
    mpfr_log(p.log_norm, p.log_norm, MPFR_RNDN);

    double s = mpfr_get_d(p.sigma, MPFR_RNDN), a = mpfr_get_d(p.alpha, MPFR_RNDN);
    double L = RENYI_ORACLE_BITS * log(2.0) + 20;
    double K = sqrt(2 * log(2.0) * (RENYI_ORACLE_BITS + 64 + a));
    double y = s * sqrt(2 * L);
    if (floor(a) != a && y > 0.9 * PI_D * s * s)
        y = 0.9 * PI_D * s * s;
    double hd = 2 * PI_D * y / (L + y * y / (2 * s * s));

    /* cells of width σ: sample log f, keep the cells that matter */
    double z_lo = -K * s;
    long cells = (long)ceil((a + 2 * K * s) / s);
    mpfr_t *lf = malloc((size_t)(cells + 1) * sizeof *lf);
    mpfr_t z, peak, skipped, ub, part, h, coarse, fine;
    mpfr_inits2(W, z, peak, skipped, ub, part, h, coarse, fine, (mpfr_ptr)0);
    mpfr_set_inf(peak, -1);
    for (long k = 0; k <= cells; k++) {
        mpfr_init2(lf[k], W);
        mpfr_set_d(z, z_lo + k * s, MPFR_RNDN);
        log_f(&p, lf[k], z);
        mpfr_max(peak, peak, lf[k], MPFR_RNDN);
    }
    mpfr_set_zero(skipped, 1);
    mpfr_set_d(h, hd, MPFR_RNDN);
    mpfr_set_zero(coarse, 1);
    mpfr_set_zero(fine, 1);
    double cut = -(RENYI_ORACLE_BITS + 40) * log(2.0);
    long run = -1; /* first cell of the current run of kept cells */
    for (long k = 0; k <= cells; k++) {
        bool keep = false;
        if (k < cells) {
            mpfr_max(ub, lf[k], lf[k + 1], MPFR_RNDN);
            mpfr_add_d(ub, ub, 0.125, MPFR_RNDN);
            mpfr_sub(part, ub, peak, MPFR_RNDN);
            keep = mpfr_cmp_d(part, cut) > 0;
            if (!keep) {
                mpfr_exp(ub, ub, MPFR_RNDN);
                mpfr_mul_d(ub, ub, s, MPFR_RNDN);
                mpfr_add(skipped, skipped, ub, MPFR_RNDN);
            }
        }
        if (keep && run < 0)
            run = k;
        if (!keep && run >= 0) {
            double wa = z_lo + run * s, wb = z_lo + k * s;
            grid_sum(&p, part, wa, wb, h, 0.0);
            mpfr_add(coarse, coarse, part, MPFR_RNDN);
            grid_sum(&p, part, wa, wb, h, 0.5);
            mpfr_add(fine, fine, part, MPFR_RNDN);
            run = -1;
        }
    }
    for (long k = 0; k <= cells; k++)
        mpfr_clear(lf[k]);
    free(lf);
    mpfr_add(fine, fine, coarse, MPFR_RNDN);
    mpfr_mul(coarse, coarse, h, MPFR_RNDN); /* T(h) */
    mpfr_div_2ui(h, h, 1, MPFR_RNDN);
    mpfr_mul(fine, fine, h, MPFR_RNDN); /* T(h/2) */

    /* error of log A: |T(h) − T(h/2)|/T(h/2) + skipped/T(h/2); then divide by α − 1 */
    mpfr_sub(part, coarse, fine, MPFR_RNDN);
    mpfr_abs(part, part, MPFR_RNDN);
    mpfr_add(part, part, skipped, MPFR_RNDN);
    mpfr_div(part, part, fine, MPFR_RNDN);
    mpfr_sub_ui(z, p.alpha, 1, MPFR_RNDN);
    mpfr_div(err, part, z, MPFR_RNDN);
    mpfr_log(fine, fine, MPFR_RNDN);
    mpfr_div(rho, fine, z, MPFR_RNDN);

    mpfr_clears(z, peak, skipped, ub, part, h, coarse, fine, (mpfr_ptr)0);
    mpfr_clears(p.q, p.sigma, p.alpha, p.s2, p.log_q, p.log_1q, p.log_norm, (mpfr_ptr)0);
}
