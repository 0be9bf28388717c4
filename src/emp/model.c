/* src/emp/model.c — logistic regression with per-sample clipping. */
#include "emp/model.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>

void ul_model_work_free(ul_model_work *w)
{
    if (!w)
        return;
    free(w->buf);
    free(w->rows);
    *w = (ul_model_work){0};
}

double *ul_model_work_get(ul_model_work *w, size_t n)
{
    if (w->cap < n) {
        double *b = realloc(w->buf, n * sizeof *b);
        if (!b)
            return NULL;
        w->buf = b;
        w->cap = n;
    }
    return w->buf;
}

const double *ul_model_work_rows(ul_model_work *w, const ul_dataset *ds, ul_row_stat stat)
{
    size_t n = ds->n, d = ds->d;
    if (w->rows && w->rows_x == ds->x && w->rows_n == n && w->rows_d == d && w->rows_stat == stat)
        return w->rows;
    double *r = realloc(w->rows, (n ? n : 1) * sizeof *r);
    if (!r)
        return NULL;
#pragma omp parallel for schedule(static) if (n * d >= UL_EMP_PARALLEL_MIN)
    for (size_t i = 0; i < n; i++)
        r[i] = stat(ds->x + i * d, d);
    w->rows = r, w->rows_x = ds->x, w->rows_n = n, w->rows_d = d, w->rows_stat = stat;
    return r;
}

double ul_sigmoid(double t)
{
    if (t >= 0)
        return 1.0 / (1.0 + exp(-t));
    double e = exp(t);
    return e / (1.0 + e);
}

double ul_log1pexp(double t)
{
    return t > 0 ? t + log1p(exp(-t)) : log1p(exp(t));
}

static size_t logreg_nparams(const ul_model *m, size_t d)
{
    (void)m;
    return d;
}

static double row_norm(const double *x, size_t d)
{
    return cblas_dnrm2((int)d, x, 1);
}

/* Clipped coefficient: ∇ℓ = coef·x with ‖x‖ = xn. */
static double clip_coef(double coef, double xn, double clip)
{
    double g = fabs(coef) * xn;
    return g > clip ? coef * (clip / g) : coef;
}

/* One block of runs j0 … j0 + mb − 1: margins, clipped coefficients, then
 * the data term, with Zb (n×mb, row-major) as scratch. */
static void logreg_grad_block(const ul_model *m, const ul_dataset *ds, const double *xn,
                              const double *W, size_t mb, double *G, double *Zb)
{
    size_t n = ds->n, d = ds->d;
    /* Margins: Zb (n×mb) = X (n×d) · Wbᵀ, Wb column-major d×mb = row-major mb×d. */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, (int)mb, (int)d, 1.0, ds->x,
                (int)d, W, (int)d, 0.0, Zb, (int)mb);
    for (size_t i = 0; i < n; i++) {
        double y = ds->y[i];
        for (size_t j = 0; j < mb; j++) {
            double coef = -y * ul_sigmoid(-y * Zb[i * mb + j]);
            Zb[i * mb + j] = clip_coef(coef, xn[i], m->clip);
        }
    }
    /* Gb (stored mb×d row-major) = (1/n) Cbᵀ (mb×n) · X (n×d). */
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)mb, (int)d, (int)n, 1.0 / (double)n,
                Zb, (int)mb, ds->x, (int)d, 0.0, G, (int)d);
    if (m->lambda != 0)
        for (size_t k = 0; k < mb * d; k++)
            G[k] += m->lambda * W[k];
}

static ul_status logreg_grad(const ul_model *m, const ul_dataset *ds, const double *W, size_t M,
                             double *G, ul_model_work *work)
{
    size_t n = ds->n, d = ds->d;
    if (n == 0 || d == 0 || M == 0)
        return UL_EINPUT;
    /* work: one n×mb scratch per block of runs; ‖x_i‖ cached. */
    double *Z = ul_model_work_get(work, n * M);
    const double *xn = ul_model_work_rows(work, ds, row_norm);
    if (!Z || !xn)
        return UL_EINPUT; /* out of memory */
    /* Fixed blocks of UL_EMP_RUN_BLOCK runs (model.h: why), spread over threads. */
    size_t blocks = (M + UL_EMP_RUN_BLOCK - 1) / UL_EMP_RUN_BLOCK;
#pragma omp parallel for schedule(static) if (blocks > 1 && n * d * M >= UL_EMP_PARALLEL_MIN)
    for (size_t b = 0; b < blocks; b++) {
        size_t j0 = b * UL_EMP_RUN_BLOCK;
        size_t mb = M - j0 < UL_EMP_RUN_BLOCK ? M - j0 : UL_EMP_RUN_BLOCK;
        logreg_grad_block(m, ds, xn, W + j0 * d, mb, G + j0 * d, Z + j0 * n);
    }
    return UL_OK;
}

static double logreg_objective(const ul_model *m, const ul_dataset *ds, const double *w)
{
    size_t n = ds->n, d = ds->d;
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        double z = ds->y[i] * cblas_ddot((int)d, ds->x + i * d, 1, w, 1);
        s += ul_log1pexp(-z);
    }
    double w2 = cblas_ddot((int)d, w, 1, w, 1);
    return s / (double)n + 0.5 * m->lambda * w2;
}

static void logreg_sample_grad(const ul_model *m, const double *x, size_t d, double y,
                               const double *w, double *g)
{
    double z = cblas_ddot((int)d, x, 1, w, 1);
    double coef = clip_coef(-y * ul_sigmoid(-y * z), cblas_dnrm2((int)d, x, 1), m->clip);
    for (size_t k = 0; k < d; k++)
        g[k] = coef * x[k];
}

static double logreg_sample_loss(const ul_model *m, const double *x, size_t d, double y,
                                 const double *w)
{
    (void)m;
    return ul_log1pexp(-y * cblas_ddot((int)d, x, 1, w, 1));
}

const ul_model_ops ul_logreg_ops = {
    .name = "logreg",
    .nparams = logreg_nparams,
    .grad = logreg_grad,
    .objective = logreg_objective,
    .sample_grad = logreg_sample_grad,
    .sample_loss = logreg_sample_loss,
};

ul_model ul_logreg_model(double lambda, double clip)
{
    ul_model m = {.ops = &ul_logreg_ops, .lambda = lambda, .clip = clip, .hidden = 0};
    return m;
}
