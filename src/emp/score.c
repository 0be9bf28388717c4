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
    for (size_t q = 0; q < p; q++) {
        double v = (si[q] + so[q]) / (double)(k_in + k_out - 2); /* pooled variance */
        lr->mid[q] = 0.5 * (mi[q] + mo[q]);
        lr->weight[q] = (v > 0 && isfinite(v)) ? (mi[q] - mo[q]) / v : 0.0;
        if (!isfinite(lr->weight[q]))
            lr->weight[q] = 0.0;
    }
    free(buf);
    return UL_OK;
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
    *sd = sqrt(v / (double)(k - 1));
    double floor_sd = 1e-12 * fmax(1, fabs(*mu));
    if (!(*sd > floor_sd))
        *sd = floor_sd;
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
