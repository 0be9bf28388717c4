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
    w->buf = NULL;
    w->cap = 0;
}

static double *work_get(ul_model_work *w, size_t n)
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

/* Clipped coefficient: ∇ℓ = coef·x with ‖x‖ = xn. */
static double clip_coef(double coef, double xn, double clip)
{
    double g = fabs(coef) * xn;
    return g > clip ? coef * (clip / g) : coef;
}

static ul_status logreg_grad(const ul_model *m, const ul_dataset *ds, const double *W, size_t M,
                             double *G, ul_model_work *work)
{
    size_t n = ds->n, d = ds->d;
    if (n == 0 || d == 0 || M == 0)
        return UL_EINPUT;
    /* work: Z/C (n×M, row-major: Z[i*M + j]) then ‖x_i‖ (n). */
    double *Z = work_get(work, n * M + n);
    if (!Z)
        return UL_EINPUT; /* out of memory */
    double *xn = Z + n * M;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        xn[i] = cblas_dnrm2((int)d, ds->x + i * d, 1);
    /* Margins: Z (n×M) = X (n×d) · W, W column-major d×M = row-major M×d. */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, (int)M, (int)d, 1.0, ds->x,
                (int)d, W, (int)d, 0.0, Z, (int)M);
    /* Element-wise per sample and run: threads never share a sum. */
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        double y = ds->y[i];
        for (size_t j = 0; j < M; j++) {
            double coef = -y * ul_sigmoid(-y * Z[i * M + j]);
            Z[i * M + j] = clip_coef(coef, xn[i], m->clip);
        }
    }
    /* G (stored M×d row-major) = (1/n) Cᵀ (M×n) · X (n×d). */
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)M, (int)d, (int)n, 1.0 / (double)n,
                Z, (int)M, ds->x, (int)d, 0.0, G, (int)d);
    if (m->lambda != 0)
        for (size_t k = 0; k < M * d; k++)
            G[k] += m->lambda * W[k];
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
