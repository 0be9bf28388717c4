/* src/emp/score.c — loss, Gaussian likelihood-ratio and LiRA scores. */
#include "emp/score.h"

#include <math.h>
#include <stdlib.h>

void ul_score_loss(const ul_model *model, const double *x, size_t d, double y, const double *W,
                   size_t p, size_t k, double *scores)
{
    for (size_t j = 0; j < k; j++)
        scores[j] = -model->ops->sample_loss(model, x, d, y, W + j * p);
}

/* Per-coordinate mean and sum of squared deviations (two-pass: no
 * cancellation). */
static void moments(const double *W, size_t k, size_t p, double *mean, double *ssd)
{
    for (size_t q = 0; q < p; q++) {
        double s = 0;
        for (size_t j = 0; j < k; j++)
            s += W[j * p + q];
        double m = s / (double)k, v = 0;
        for (size_t j = 0; j < k; j++) {
            double e = W[j * p + q] - m;
            v += e * e;
        }
        mean[q] = m;
        ssd[q] = v;
    }
}

/* ---- zero spreads (score.h: ul_score_floor_sd) ------------------------------------- */

/* The resolution of a fitted mean m: 1e-12·|m|, far above the rounding of
 * its computation (a sum of k doubles, or φ through log and expm1, a few
 * ulps of 2.2e-16 each), so a spread at or below it is no variation. */
static double resolution(double m)
{
    return 1e-12 * fabs(m);
}

double ul_score_floor_sd(double sd, double mu, double mu_other, double sd_other, int other_known)
{
    if (sd > resolution(mu) && isfinite(sd))
        return sd;
    /* Gap/8: the fitted laws' means stay 8 floored deviations apart, so data
     * the fit saw separated stay separated, and the log ratio at a world's
     * mean is 0.5·8² = 32, not 1e19. */
    double gap = fabs(mu - mu_other);
    double other = other_known && sd_other > resolution(mu_other) ? sd_other : 0.0;
    double f = fmax(gap, other) / 8;
    return f > resolution(mu) && isfinite(f) ? f : other_known ? 1.0 : 0.0;
}

ul_status ul_score_lr_fit(ul_score_lr *lr, const double *W_in, size_t k_in, const double *W_out,
                          size_t k_out, size_t p, char *err, size_t errlen)
{
    lr->p = p;
    lr->weight = NULL, lr->mid = NULL;
    if (k_in < 2 || k_out < 2)
        return ul_fail(err, errlen, UL_EINPUT,
                       "likelihood-ratio score: needs >= 2 fitting runs per world (have %zu, %zu)",
                       k_in, k_out);
    double *buf = malloc(4 * p * sizeof *buf);
    lr->weight = malloc(p * sizeof *lr->weight);
    lr->mid = malloc(p * sizeof *lr->mid);
    if (!buf || !lr->weight || !lr->mid) {
        free(buf);
        ul_score_lr_free(lr);
        return ul_fail(err, errlen, UL_ENOMEM, /* p: the models' (policy: num/status.h) */
                       "likelihood-ratio score: out of memory for the fit of %zu parameters", p);
    }
    double *mi = buf, *si = buf + p, *mo = buf + 2 * p, *so = buf + 3 * p;
    moments(W_in, k_in, p, mi, si);
    moments(W_out, k_out, p, mo, so);
    ul_score_lr_set(lr, mi, si, mo, so, k_in + k_out - 2);
    free(buf);
    return UL_OK;
}

void ul_score_lr_set(ul_score_lr *lr, const double *mi, const double *si, const double *mo,
                     const double *so, size_t dof)
{
    for (size_t q = 0; q < lr->p; q++) {
        double v = (si[q] + so[q]) / (double)dof; /* pooled variance */
        double sd = sqrt(v), f = ul_score_floor_sd(sd, mi[q], mo[q], 0.0, 0);
        if (f != sd) /* a zero spread, floored (score.h) */
            v = f * f;
        lr->mid[q] = 0.5 * (mi[q] + mo[q]);
        lr->weight[q] = (v > 0 && isfinite(v)) ? (mi[q] - mo[q]) / v : 0.0;
        if (!isfinite(lr->weight[q]))
            lr->weight[q] = 0.0;
    }
}

void ul_score_lr_apply(const ul_score_lr *lr, const double *W, size_t k, double *scores)
{
    for (size_t j = 0; j < k; j++) {
        const double *w = W + j * lr->p;
        double s = 0;
        for (size_t q = 0; q < lr->p; q++)
            s += lr->weight[q] * (w[q] - lr->mid[q]);
        scores[j] = s;
    }
}

void ul_score_lr_free(ul_score_lr *lr)
{
    if (!lr)
        return;
    free(lr->weight);
    free(lr->mid);
    lr->weight = lr->mid = NULL;
}

/* ---- LiRA (emp/score.h: Carlini et al. 2022) -------------------------------------- */

double ul_score_logit_conf(double loss)
{
    if (!(loss >= 0))
        return NAN;
    if (loss == 0)
        return INFINITY;
    /* log p − log(1 − p) with log p = −ℓ and 1 − p = −expm1(−ℓ) */
    return -loss - log(-expm1(-loss));
}

/* Mean and unbiased standard deviation (two passes), floored as documented. */
static ul_status gauss_fit(const double *x, size_t k, const char *name, double *mu, double *sd,
                           char *err, size_t errlen)
{
    if (x == NULL || k < 2)
        return ul_fail(err, errlen, UL_EINPUT, "LiRA: needs >= 2 %s runs to fit (have %zu)", name,
                       x ? k : 0);
    double s = 0, v = 0;
    for (size_t i = 0; i < k; i++) {
        if (!isfinite(x[i]))
            return ul_fail(err, errlen, UL_EINPUT, "LiRA: %s statistic %zu is not finite", name, i);
        s += x[i];
    }
    *mu = s / (double)k;
    for (size_t i = 0; i < k; i++)
        v += (x[i] - *mu) * (x[i] - *mu);
    *sd = sqrt(v / (double)(k - 1)); /* floored by the caller (ul_score_floor_sd) */
    return UL_OK;
}

ul_status ul_score_lira_fit(ul_score_lira *f, int online, const double *phi_in, size_t k_in,
                            const double *phi_out, size_t k_out, char *err, size_t errlen)
{
    f->online = online != 0;
    f->mu_in = f->sd_in = 0;
    ul_status st = gauss_fit(phi_out, k_out, "OUT", &f->mu_out, &f->sd_out, err, errlen);
    if (st == UL_OK && f->online)
        st = gauss_fit(phi_in, k_in, "IN", &f->mu_in, &f->sd_in, err, errlen);
    if (st != UL_OK || !f->online) {
        /* offline: (φ − μ_out)/σ ranks alike for every σ > 0, so a zero σ
         * becomes 1 (scores in φ's units) instead of a 1e-12 that scales
         * them to 1e12 */
        if (st == UL_OK && !(f->sd_out > resolution(f->mu_out)))
            f->sd_out = 1.0;
        return st;
    }
    double si = f->sd_in, so = f->sd_out;
    f->sd_in = ul_score_floor_sd(si, f->mu_in, f->mu_out, so, 1);
    f->sd_out = ul_score_floor_sd(so, f->mu_out, f->mu_in, si, 1);
    return st;
}

void ul_score_lira_apply(const ul_score_lira *f, const double *phi, size_t k, double *scores)
{
    for (size_t j = 0; j < k; j++) {
        double zo = (phi[j] - f->mu_out) / f->sd_out;
        if (!f->online) {
            scores[j] = zo;
            continue;
        }
        double zi = (phi[j] - f->mu_in) / f->sd_in;
        /* log N(φ; μ_in, σ_in²) − log N(φ; μ_out, σ_out²) */
        scores[j] = 0.5 * (zo * zo - zi * zi) + log(f->sd_out / f->sd_in);
    }
}

/* ---- RMIA (emp/score.h: Zarifzadeh, Liu, Shokri 2024) ------------------------------ */

/* log of the offline estimate of Pr(·) from the reference models' log
 * probabilities lp[0], lp[stride], … (k of them): Pr = (1 + a)/2 · mean_r
 * Pr(·|θ_r) + (1 − a)/2 (score.h), the mean taken as e^M · mean e^(lp − M),
 * M the largest, so that tiny probabilities do not underflow when a = 1. */
static double log_pr_offline(const double *lp, size_t k, size_t stride, double a)
{
    double M = -INFINITY, s = 0;
    for (size_t r = 0; r < k; r++)
        M = fmax(M, lp[r * stride]);
    for (size_t r = 0; r < k; r++)
        s += exp(lp[r * stride] - M);
    double log_mean = M + log(s / (double)k);
    if (a >= 1)
        return log_mean;
    return log(0.5 * (1 + a) * exp(log_mean) + 0.5 * (1 - a));
}

ul_status ul_score_rmia_fit(ul_score_rmia *f, const double *lx_ref, const double *lz_ref,
                            size_t k_ref, size_t m, double a, double gamma, char *err,
                            size_t errlen)
{
    f->m = m, f->log_gamma = log(gamma), f->log_pz = NULL;
    if (k_ref < 1 || m < 1)
        return ul_fail(err, errlen, UL_EINPUT,
                       "RMIA: needs >= 1 reference model and >= 1 population record (have %zu, "
                       "%zu)",
                       k_ref, m);
    if (!(a >= 0 && a <= 1) || !(gamma > 0 && isfinite(gamma)))
        return ul_fail(err, errlen, UL_EINPUT, "RMIA: a must lie in [0, 1] and gamma be > 0");
    for (size_t i = 0; i < k_ref * (m + 1); i++) {
        double v = i < k_ref ? lx_ref[i] : lz_ref[i - k_ref];
        if (!(v <= 0)) /* a log probability; NaN refused too */
            return ul_fail(err, errlen, UL_EINPUT,
                           "RMIA: reference log probability %zu is not <= 0", i);
    }
    f->log_pz = malloc(m * sizeof *f->log_pz);
    if (!f->log_pz) /* m: the population's size (policy: num/status.h) */
        return ul_fail(err, errlen, UL_ENOMEM, "RMIA: out of memory for %zu population records",
                       m);
    f->log_px = log_pr_offline(lx_ref, k_ref, 1, a);
    for (size_t i = 0; i < m; i++)
        f->log_pz[i] = log_pr_offline(lz_ref + i, k_ref, m, a);
    return UL_OK;
}

double ul_score_rmia_one(const ul_score_rmia *f, double lx, const double *lz)
{
    /* log LR_θ(x, z) = (log Pr(x|θ) − log Pr(x)) − (log Pr(z|θ) − log Pr(z)) */
    double rx = lx - f->log_px, sum = 0;
    size_t count = 0;
    for (size_t i = 0; i < f->m; i++) {
        double llr = rx - (lz[i] - f->log_pz[i]);
        count += llr >= f->log_gamma;
        sum += llr;
    }
    /* the fraction of z with LR ≥ γ, ties between runs broken by the mean
     * log ratio mapped into [0, 1): the count decides first */
    double u = 0.5 + atan(sum / (double)f->m) / acos(-1.0);
    return ((double)count + fmin(u, 1.0)) / (double)f->m;
}

void ul_score_rmia_free(ul_score_rmia *f)
{
    if (f) {
        free(f->log_pz);
        f->log_pz = NULL;
    }
}
