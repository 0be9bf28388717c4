/* src/emp/model.c — logistic regression with per-sample clipping. */
#include "emp/model.h"

#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
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

/* The gradient is split over the DATA, never over the runs or the threads:
 *
 *     G = Σ_c P_c + λW,   P_c = (1/n) C_cᵀ·X_c   (C = the clipped coefficients)
 *
 * with the rows cut into `parts` fixed chunks c (a function of n only:
 * logreg_parts), each chunk walked LOGREG_SUB rows at a time: margins
 * X_s·Wᵀ for all M runs (one GEMM), their clipped coefficients, then
 * P_c += (1/n) C_sᵀ·X_s (one GEMM) while X_s is still in cache; the partials
 * are summed in the order c = 0, 1, … element by element.  Every GEMM is
 * single-threaded and its shapes depend on n, d and M alone, so every bit
 * of G is the same for any thread count (emp/model.h); the chunks are what
 * the threads share.
 *
 * Measured (n = 12000, d = 784, M = 64, 2 threads, ms per gradient, against
 * OpenBLAS's own two-thread GEMM pair of the same shapes: 34.3): this layout
 * 32.4; margins in 256-row blocks then the data term in 4 column blocks of
 * 256 (the layout before) 43 — the columns split 512/272 over the two
 * threads and each block re-packed all of C; without fusion (margins, then
 * 8 partial GEMMs) 35.1.  The row norms are taken on the sub-block just
 * before its GEMM reads it, not cached in a pass of their own. */
#define LOGREG_SUB 256
#define LOGREG_PARTS_MAX 8

/* Chunks of the sum: at most LOGREG_PARTS_MAX, none shorter than
 * LOGREG_SUB rows but the last.  The extra partials take (parts − 1)·M·d
 * doubles ≤ (M/LOGREG_SUB)·n·d: a quarter of X at M = 64. */
static size_t logreg_parts(size_t n)
{
    size_t k = n / LOGREG_SUB;
    return k < 1 ? 1 : k > LOGREG_PARTS_MAX ? LOGREG_PARTS_MAX : k;
}

/* Rows i0 … i0 + nr − 1: Z (nr×M, row-major) = the margins X·W (W column-major
 * d×M = row-major M×d), each then replaced by its clipped coefficient. */
static void logreg_coefs(const ul_model *m, const ul_dataset *ds, const double *W, size_t M,
                         size_t i0, size_t nr, double *Z)
{
    size_t d = ds->d;
    const double *X = ds->x + i0 * d;
    double xn[LOGREG_SUB];
    for (size_t i = 0; i < nr; i++) /* ‖x_i‖, the rows brought into cache for the GEMM */
        xn[i] = row_norm(X + i * d, d);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nr, (int)M, (int)d, 1.0, X, (int)d,
                W, (int)d, 0.0, Z, (int)M);
    for (size_t i = 0; i < nr; i++) {
        double y = ds->y[i0 + i];
        for (size_t j = 0; j < M; j++) {
            double coef = -y * ul_sigmoid(-y * Z[i * M + j]);
            Z[i * M + j] = clip_coef(coef, xn[i], m->clip);
        }
    }
}

/* Chunk [c0, c1): P (M×d, row-major) = (1/n) Σ_{i∈chunk} coef_i·x_iᵀ, sub-block
 * by sub-block; Z is the chunk's coefficient scratch (LOGREG_SUB×M). */
static void logreg_chunk(const ul_model *m, const ul_dataset *ds, const double *W, size_t M,
                         size_t c0, size_t c1, double *Z, double *P)
{
    size_t n = ds->n, d = ds->d;
    for (size_t i0 = c0; i0 < c1; i0 += LOGREG_SUB) {
        size_t nr = c1 - i0 < LOGREG_SUB ? c1 - i0 : LOGREG_SUB;
        logreg_coefs(m, ds, W, M, i0, nr, Z);
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)M, (int)d, (int)nr,
                    1.0 / (double)n, Z, (int)M, ds->x + i0 * d, (int)d, i0 == c0 ? 0.0 : 1.0, P,
                    (int)d);
    }
}

/* G (M×d) = Σ_c P_c in the order c = 0, 1, … (P_0 is G itself) + λW. */
static void logreg_sum_parts(const ul_model *m, const double *W, size_t M, size_t d, size_t parts,
                             const double *P, double *G)
{
    size_t len = M * d;
#pragma omp for schedule(static)
    for (size_t q = 0; q < len; q++) {
        double g = G[q];
        for (size_t c = 1; c < parts; c++)
            g += P[(c - 1) * len + q];
        G[q] = m->lambda != 0 ? g + m->lambda * W[q] : g;
    }
}

static ul_status logreg_grad(const ul_model *m, const ul_dataset *ds, const double *W, size_t M,
                             double *G, ul_model_work *work)
{
    size_t n = ds->n, d = ds->d;
    if (n == 0 || d == 0 || M == 0)
        return UL_EINPUT;
    size_t parts = logreg_parts(n), chunk = (n + parts - 1) / parts;
    /* BLAS takes int sizes; the scratch size must not wrap */
    if (M > INT_MAX || d > INT_MAX ||
        M > SIZE_MAX / sizeof(double) / (parts * LOGREG_SUB + (parts - 1) * d))
        return UL_EINPUT;
    /* work: per chunk LOGREG_SUB×M coefficients, then the partials P_1 … */
    double *Z = ul_model_work_get(work, parts * LOGREG_SUB * M + (parts - 1) * M * d);
    if (!Z)
        return UL_ENOMEM; /* scratch sized by n, d, M (policy: num/status.h) */
    double *P = Z + parts * LOGREG_SUB * M;
#pragma omp parallel if (parts > 1 && n * d * M >= UL_EMP_PARALLEL_MIN)
    {
#pragma omp for schedule(static)
        for (size_t c = 0; c < parts; c++) {
            size_t c0 = c * chunk, c1 = c0 + chunk < n ? c0 + chunk : n;
            logreg_chunk(m, ds, W, M, c0, c1, Z + c * LOGREG_SUB * M,
                         c == 0 ? G : P + (c - 1) * M * d);
        }
        logreg_sum_parts(m, W, M, d, parts, P, G);
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
