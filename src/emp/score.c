/* src/emp/score.c — loss and Gaussian likelihood-ratio scores. */
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
        return ul_fail(err, errlen, UL_EINPUT, "likelihood-ratio score: out of memory");
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
