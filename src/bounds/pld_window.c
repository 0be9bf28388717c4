/* src/bounds/pld_window.c — the FFT window of the composed grid and the
 * Chernoff bound on the composed mass outside it (pld.c §2). */

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/pld_fft.h"
#include "bounds/pld_internal.h"
#include "num/gauss_tail.h"

#define LAMBDA_COUNT 49       /* Chernoff exponents tried: 2^((j−24)/2)/σ */

/* ---- the window and its Chernoff tails (§2) ------------------------------------- */



/* Group sizes and group sums (rounded up) of the pess arrays (gmass) and of
 * the opt arrays (gmass_opt): each composition's tails have their own
 * Chernoff bound.
 * UL_PLD_FFT_LATE when the deadline passed (asked every PLD_CHECK_POINTS
 * points), UL_PLD_FFT_NOMEM when out of memory. */
static ul_pld_fft_end make_groups(disc *d, size_t group)
{
    if (group < 1)
        group = 1;
    if (group > d->n)
        group = d->n;
    d->group = group;
    d->ngroups = (d->n + group - 1) / group;
    free(d->gmass);
    free(d->gmass_opt);
    free(d->lgmass);
    d->gmass = malloc(d->ngroups * sizeof *d->gmass);
    d->gmass_opt = malloc(d->ngroups * sizeof *d->gmass_opt);
    d->lgmass = malloc(d->ngroups * sizeof *d->lgmass);
    if (d->gmass == NULL || d->gmass_opt == NULL || d->lgmass == NULL)
        return UL_PLD_FFT_NOMEM;
    mpfr_t s;
    mpfr_init2(s, 64);
    size_t asked = 0;
    for (size_t g = 0; g < d->ngroups; g++) {
        if (g * group >= asked + PLD_CHECK_POINTS) {
            asked = g * group;
            if (ul_pld_late()) {
                mpfr_clear(s);
                return UL_PLD_FFT_LATE;
            }
        }
        size_t end = (g + 1) * group < d->n ? (g + 1) * group : d->n;
        mpfr_set_zero(s, 1);
        for (size_t k = g * group; k < end; k++)
            mpfr_add_d(s, s, d->opt[k], MPFR_RNDU);
        d->gmass_opt[g] = mpfr_get_d(s, MPFR_RNDU);
        mpfr_set_zero(s, 1);
        for (size_t k = g * group; k < end; k++)
            mpfr_add_d(s, s, d->pess[k], MPFR_RNDU);
        d->gmass[g] = mpfr_get_d(s, MPFR_RNDU);
        d->lgmass[g] = d->gmass[g] > 0 ? log(d->gmass[g]) : -INFINITY;
    }
    mpfr_clear(s);
    return UL_PLD_FFT_DONE;
}

/* The extreme index of group g: its top (upper) or bottom. */
static double group_index(const disc *d, size_t g, bool upper)
{
    size_t k = upper ? (g + 1) * d->group - 1 : g * d->group;
    if (k > d->n - 1)
        k = d->n - 1;
    return d->k_lo + (double)k;
}

/* log M(±λ) in doubles, M(λ) = Σ_g gmass·e^{λ·ℓ_top}, M(−λ) = Σ_g gmass·e^{−λ·ℓ_bot}
 * (for choosing λ and the window); NaN when the deadline passed (asked
 * every PLD_CHECK_POINTS groups). */
static double log_mgf_d(const disc *d, double lambda, bool upper, double h)
{
    double mx = -INFINITY, sl = (upper ? lambda : -lambda) * h;
    for (size_t g = 0; g < d->ngroups; g++) {
        if (g % PLD_CHECK_POINTS == 0 && g > 0 && ul_pld_late())
            return NAN;
        double e = sl * group_index(d, g, upper) + d->lgmass[g];
        if (e > mx)
            mx = e;
    }
    if (isinf(mx))
        return -INFINITY;
    double s = 0;
    for (size_t g = 0; g < d->ngroups; g++)
        if (d->gmass[g] > 0)
            s += exp(sl * group_index(d, g, upper) + d->lgmass[g] - mx);
    return mx + log(s);
}

/* out ≥ log M(±λ) (MPFR, rounded up at every step) of the pess array, or
 * of the opt array (opt). */
static void log_mgf_up(mpfr_ptr out, const disc *d, double lambda, bool upper, double h,
                       bool opt)
{
    const double *gm = opt ? d->gmass_opt : d->gmass;
    /* The weights e^{±λℓ} of consecutive groups differ by the factor
     * e^{±λ·group·h} (the last group's extreme index is capped, so its true
     * weight is smaller): carried by one multiplication rounded up, each an
     * upper bound of a product of upper bounds. */
    mpfr_t acc, t, loss, wgt, fac;
    mpfr_inits2(64, acc, t, wgt, fac, (mpfr_ptr)0);
    mpfr_init2(loss, 128);
    mpfr_set_zero(acc, 1);
    ul_pld_exact_loss(loss, group_index(d, 0, upper), h);
    mpfr_set_d(t, (double)d->group, MPFR_RNDN); /* exact: group < 2^53 */
    mpfr_mul_d(t, t, h, MPFR_RNDU);
    if (upper) {
        mpfr_mul_d(wgt, loss, lambda, MPFR_RNDU); /* ≥ λℓ */
        mpfr_mul_d(fac, t, lambda, MPFR_RNDU);    /* ≥ λ·group·h */
    } else {
        mpfr_mul_d(wgt, loss, lambda, MPFR_RNDD);
        mpfr_neg(wgt, wgt, MPFR_RNDU); /* ≥ −λℓ */
        mpfr_mul_d(fac, t, lambda, MPFR_RNDD);
        mpfr_neg(fac, fac, MPFR_RNDU); /* ≥ −λ·group·h */
    }
    mpfr_exp(wgt, wgt, MPFR_RNDU);
    mpfr_exp(fac, fac, MPFR_RNDU);
    for (size_t g = 0; g < d->ngroups; g++) {
        if (g > 0)
            mpfr_mul(wgt, wgt, fac, MPFR_RNDU);
        if (!(gm[g] > 0))
            continue;
        mpfr_mul_d(t, wgt, gm[g], MPFR_RNDU);
        mpfr_add(acc, acc, t, MPFR_RNDU);
    }
    if (mpfr_zero_p(acc))
        mpfr_set_inf(out, -1);
    else
        mpfr_log(out, acc, MPFR_RNDU);
    mpfr_clears(acc, t, loss, wgt, fac, (mpfr_ptr)0);
}

/* out ≥ log P[S ≥ x] (upper) or log P[S ≤ x] (!upper) for the composed
 * pess (or opt) finite measure, at the exponent λ > 0. */
static void chernoff_up(mpfr_ptr out, const disc *ds, size_t nd, double lambda, bool upper,
                        double x_index, double h, bool opt)
{
    mpfr_t t, x;
    mpfr_init2(t, 64);
    mpfr_init2(x, 128);
    mpfr_set_zero(out, 1);
    for (size_t i = 0; i < nd && !mpfr_inf_p(out); i++) {
        log_mgf_up(t, &ds[i], lambda, upper, h, opt);
        if (mpfr_inf_p(t)) {
            mpfr_set_inf(out, -1); /* an empty measure: nothing outside */
            break;
        }
        mpfr_mul_ui(t, t, ds[i].steps, MPFR_RNDU);
        mpfr_add(out, out, t, MPFR_RNDU);
    }
    if (!mpfr_inf_p(out)) {
        ul_pld_exact_loss(x, x_index, h);
        if (upper) {
            mpfr_mul_d(t, x, lambda, MPFR_RNDD);
            mpfr_sub(out, out, t, MPFR_RNDU); /* − λx */
        } else {
            mpfr_mul_d(t, x, lambda, MPFR_RNDU);
            mpfr_add(out, out, t, MPFR_RNDU); /* + λy */
        }
    }
    mpfr_clear(t);
    mpfr_clear(x);
}

/* out = min(1, e^{log}) rounded up. */
static void exp_capped(mpfr_ptr out, mpfr_srcptr log_value)
{
    if (mpfr_inf_p(log_value) && mpfr_sgn(log_value) < 0) {
        mpfr_set_zero(out, 1);
        return;
    }
    if (mpfr_sgn(log_value) >= 0) {
        mpfr_set_ui(out, 1, MPFR_RNDU);
        return;
    }
    mpfr_exp(out, log_value, MPFR_RNDU);
}

/* out = e^{log} rounded up, not capped: the opt measure's total mass may
 * exceed 1 (pld_opt.c), so its outside mass may too. */
static void exp_uncapped(mpfr_ptr out, mpfr_srcptr log_value)
{
    if (mpfr_inf_p(log_value) && mpfr_sgn(log_value) < 0)
        mpfr_set_zero(out, 1);
    else
        mpfr_exp(out, log_value, MPFR_RNDU);
}

static size_t next_pow2(double x)
{
    size_t n = 1;
    while ((double)n < x)
        n <<= 1;
    return n;
}

/* Chooses N and the window, and bounds the composed mass outside it. */
ul_status ul_pld_choose_window(window *w, disc *ds, size_t nd, double h, double tau_w,
                               unsigned long max_points, char *err, size_t errlen)
{
    double T = 0, base = 0, full = 1, var = 0;
    size_t nmax = 0;
    for (size_t i = 0; i < nd; i++) {
        T += (double)ds[i].steps;
        base += (double)ds[i].steps * ds[i].k_lo;
        full += (double)ds[i].steps * (double)(ds[i].n - 1);
        var += (double)ds[i].steps * ds[i].var;
        if (ds[i].n > nmax)
            nmax = ds[i].n;
    }
    if (!(fabs(base) + full < MAX_EXACT_INDEX))
        return ul_fail(err, errlen, UL_EINPUT,
                       "grid-step: %g with these steps gives composed grid indices beyond 2^52",
                       h);
    w->base = base;
    w->m_lo = 0;
    w->wrapped = false;
    mpfr_set_zero(w->up_pess, 1);
    mpfr_set_zero(w->lo_pess, 1);
    mpfr_set_zero(w->up_opt, 1);
    mpfr_set_zero(w->lo_opt, 1);

    double sigma = sqrt(var), zw = sqrt(2 * log(1 / tau_w));
    double group = floor(0.25 * sigma / (zw * T * h));
    for (size_t i = 0; i < nd; i++) {
        ul_pld_fft_end e = make_groups(&ds[i], group > 1 ? (size_t)fmin(group, 1e9) : 1);
        if (e == UL_PLD_FFT_LATE)
            return ul_pld_time_out(err, errlen, "the window's group sums", ds[i].n);
        if (e != UL_PLD_FFT_DONE)
            return ul_fail(err, errlen, UL_EINPUT, "grid-step: %g: out of memory", h);
    }

    /* Chernoff in doubles over a grid of λ: the loss x_up above which, and
     * y_lo below which, at most tau_w of the composed mass lies. */
    double lam[LAMBDA_COUNT], cgf_up[LAMBDA_COUNT], cgf_dn[LAMBDA_COUNT];
    double x_up = INFINITY, y_lo = -INFINITY, log_tau = log(tau_w);
    for (int j = 0; j < LAMBDA_COUNT; j++) {
        lam[j] = pow(2.0, (j - 24) / 2.0) / sigma;
        cgf_up[j] = cgf_dn[j] = 0;
        for (size_t i = 0; i < nd; i++) {
            double up = log_mgf_d(&ds[i], lam[j], true, h);
            double dn = isnan(up) ? NAN : log_mgf_d(&ds[i], lam[j], false, h);
            if (isnan(dn) || ul_pld_late())
                return ul_pld_time_out(err, errlen, "the window's Chernoff exponents", ds[i].ngroups);
            cgf_up[j] += (double)ds[i].steps * up;
            cgf_dn[j] += (double)ds[i].steps * dn;
        }
        double xu = (cgf_up[j] - log_tau) / lam[j], yl = (log_tau - cgf_dn[j]) / lam[j];
        if (xu < x_up)
            x_up = xu;
        if (yl > y_lo)
            y_lo = yl;
    }
    double m_up = fmin(ceil(x_up / h) - base, full - 1);
    double m_dn = fmax(floor(y_lo / h) - base, 0);
    if (!(m_up >= m_dn)) {
        m_up = full - 1;
        m_dn = 0;
    }
    double need = fmax(m_up - m_dn + 1, (double)nmax);
    if (need > (double)max_points)
        return ul_fail(err, errlen, UL_EINPUT,
                       "grid-step: %g needs an FFT of %.3g points, more than max-points (%lu)", h,
                       need, max_points);
    size_t N = next_pow2(need);
    if ((double)N > (double)max_points && (double)next_pow2(full) > (double)max_points)
        return ul_fail(err, errlen, UL_EINPUT,
                       "grid-step: %g needs an FFT of %zu points, more than max-points (%lu)", h,
                       N, max_points);
    if ((double)N >= full) {
        w->N = next_pow2(full);
        if (w->N < 2)
            w->N = 2;
        return UL_OK; /* the whole composed support fits: no wrap */
    }
    w->N = N;
    double m_lo = m_dn - floor(((double)N - (m_up - m_dn + 1)) / 2);
    if (m_lo < 0)
        m_lo = 0;
    if (m_lo + (double)N > full)
        m_lo = full - (double)N;
    w->m_lo = m_lo;
    w->wrapped = true;

    /* Certify at the best λ of the grid for the actual edges. */
    double x_index = base + m_lo + (double)N; /* first index above the window */
    double y_index = base + m_lo - 1;         /* last index below it */
    int ju = 0, jd = 0;
    for (int j = 1; j < LAMBDA_COUNT; j++) {
        if (cgf_up[j] - lam[j] * x_index * h < cgf_up[ju] - lam[ju] * x_index * h)
            ju = j;
        if (cgf_dn[j] + lam[j] * y_index * h < cgf_dn[jd] + lam[jd] * y_index * h)
            jd = j;
    }
    mpfr_t lg;
    mpfr_init2(lg, 64);
    if (m_lo + (double)N <= full - 1) {
        chernoff_up(lg, ds, nd, lam[ju], true, x_index, h, false);
        exp_capped(w->up_pess, lg);
        chernoff_up(lg, ds, nd, lam[ju], true, x_index, h, true);
        exp_uncapped(w->up_opt, lg);
    }
    if (m_lo > 0) {
        chernoff_up(lg, ds, nd, lam[jd], false, y_index, h, false);
        exp_capped(w->lo_pess, lg);
        chernoff_up(lg, ds, nd, lam[jd], false, y_index, h, true);
        exp_uncapped(w->lo_opt, lg);
    }
    mpfr_clear(lg);
    return UL_OK;
}

