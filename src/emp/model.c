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

/* The data term is split over the DATA, not over the runs: all M runs of a
 * call go through each GEMM together, so X is packed by BLAS once per GEMM
 * (twice per step) whatever M is, instead of twice per block of runs.  The
 * splits are fixed (LOGREG_ROWS rows of X for the margins, LOGREG_COLS of
 * its columns for the data term), so an element's arithmetic — one
 * single-threaded GEMM over the whole inner dimension — does not depend on
 * the thread count (emp/model.h). */
#define LOGREG_ROWS 256
#define LOGREG_COLS 256

/* Rows i0 … i0 + nr − 1: margins Z (n×M, row-major) = X·W (W column-major
 * d×M = row-major M×d), then each replaced by its clipped coefficient. */
static void logreg_margins(const ul_model *m, const ul_dataset *ds, const double *xn,
                           const double *W, size_t M, size_t i0, size_t nr, double *Z)
{
    size_t d = ds->d;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nr, (int)M, (int)d, 1.0,
                ds->x + i0 * d, (int)d, W, (int)d, 0.0, Z + i0 * M, (int)M);
    for (size_t i = i0; i < i0 + nr; i++) {
        double y = ds->y[i];
        for (size_t j = 0; j < M; j++) {
            double coef = -y * ul_sigmoid(-y * Z[i * M + j]);
            Z[i * M + j] = clip_coef(coef, xn[i], m->clip);
        }
    }
}

/* Columns k0 … k0 + nc − 1 of G (stored M×d row-major): (1/n) Cᵀ·X + λW. */
static void logreg_data_term(const ul_model *m, const ul_dataset *ds, const double *W, size_t M,
                             size_t k0, size_t nc, const double *Z, double *G)
{
    size_t n = ds->n, d = ds->d;
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)M, (int)nc, (int)n, 1.0 / (double)n,
                Z, (int)M, ds->x + k0, (int)d, 0.0, G + k0, (int)d);
    if (m->lambda != 0)
        for (size_t j = 0; j < M; j++)
            for (size_t k = k0; k < k0 + nc; k++)
                G[j * d + k] += m->lambda * W[j * d + k];
}

static ul_status logreg_grad(const ul_model *m, const ul_dataset *ds, const double *W, size_t M,
                             double *G, ul_model_work *work)
{
    size_t n = ds->n, d = ds->d;
    if (n == 0 || d == 0 || M == 0)
        return UL_EINPUT;
    /* work: the n×M margins, then coefficients; ‖x_i‖ cached. */
    double *Z = ul_model_work_get(work, n * M);
    const double *xn = ul_model_work_rows(work, ds, row_norm);
    if (!Z || !xn)
        return UL_EINPUT; /* out of memory */
    size_t rb = (n + LOGREG_ROWS - 1) / LOGREG_ROWS, cb = (d + LOGREG_COLS - 1) / LOGREG_COLS;
#pragma omp parallel if (n * d * M >= UL_EMP_PARALLEL_MIN)
    {
#pragma omp for schedule(static)
        for (size_t b = 0; b < rb; b++) {
            size_t i0 = b * LOGREG_ROWS;
            logreg_margins(m, ds, xn, W, M, i0, n - i0 < LOGREG_ROWS ? n - i0 : LOGREG_ROWS, Z);
        }
#pragma omp for schedule(static)
        for (size_t c = 0; c < cb; c++) {
            size_t k0 = c * LOGREG_COLS;
            logreg_data_term(m, ds, W, M, k0, d - k0 < LOGREG_COLS ? d - k0 : LOGREG_COLS, Z, G);
        }
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
