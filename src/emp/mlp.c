/* src/emp/mlp.c — one-hidden-layer tanh network with per-sample clipping
 * (formulas in emp/mlp.h). */
#include "emp/mlp.h"

#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Rows are processed in chunks of ROW_CHUNK (the GEMM height, bounding the
 * scratch to ROW_CHUNK × M·h pre-activations), and inside a chunk in blocks
 * of ROW_BLOCK rows, one block per OpenMP iteration.  Each block sums its
 * rows in order into its own partial sums and the partials are added in
 * block order, so the result does not depend on the thread count. */
enum { ROW_BLOCK = 64, ROW_CHUNK = 2048 };

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

static size_t mlp_nparams(const ul_model *m, size_t d)
{
    return m->hidden * d + 2 * m->hidden + 1;
}

/* min(1, M/‖g‖) from ‖g‖², the clip factor of clip(g, M) = g·min(1, M/‖g‖). */
static double clip_factor(double norm2, double clip)
{
    double norm = sqrt(norm2);
    return norm > clip ? clip / norm : 1.0;
}

/* f(w; x) = b2 + Σ_k w2_k·tanh(b1_k + W1_k·x)  (emp/mlp.h). */
static double mlp_output(size_t h, const double *x, size_t d, const double *w)
{
    const double *b1 = w + h * d, *w2 = b1 + h;
    double f = w2[h];
    for (size_t k = 0; k < h; k++)
        f += w2[k] * tanh(b1[k] + cblas_ddot((int)d, w + k * d, 1, x, 1));
    return f;
}

static double mlp_sample_loss(const ul_model *m, const double *x, size_t d, double y,
                              const double *w)
{
    return ul_log1pexp(-y * mlp_output(m->hidden, x, d, w));
}

static double mlp_objective(const ul_model *m, const ul_dataset *ds, const double *w)
{
    size_t n = ds->n, d = ds->d, p = mlp_nparams(m, d);
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += mlp_sample_loss(m, ds->x + i * d, d, ds->y[i], w);
    return s / (double)n + 0.5 * m->lambda * cblas_ddot((int)p, w, 1, w, 1);
}

/* One sample, one vector: backpropagation as written in emp/mlp.h.  The b1
 * and w2 slots of g hold δ and u until the clip factor is known. */
static void mlp_sample_grad(const ul_model *m, const double *x, size_t d, double y,
                            const double *w, double *g)
{
    size_t h = m->hidden;
    const double *b1 = w + h * d, *w2 = b1 + h;
    double *g_b1 = g + h * d, *g_w2 = g_b1 + h;
    double f = w2[h], uu = 0;
    for (size_t k = 0; k < h; k++) {
        double u = tanh(b1[k] + cblas_ddot((int)d, w + k * d, 1, x, 1));
        g_w2[k] = u;
        f += w2[k] * u;
        uu += u * u;
    }
    double c = -y * ul_sigmoid(-y * f); /* ∂ℓ/∂f for ℓ = log(1 + e^{−yf}) */
    double dd = 0;
    for (size_t k = 0; k < h; k++) {
        double delta = c * w2[k] * (1 - g_w2[k] * g_w2[k]);
        g_b1[k] = delta;
        dd += delta * delta;
    }
    double xx = cblas_ddot((int)d, x, 1, x, 1);
    double s = clip_factor(dd * (xx + 1) + c * c * (uu + 1), m->clip);
    for (size_t k = 0; k < h; k++) {
        g_b1[k] *= s;
        g_w2[k] *= s * c;
        for (size_t j = 0; j < d; j++)
            g[k * d + j] = g_b1[k] * x[j];
    }
    g_w2[h] = s * c;
}

/* The rows [i0, i1) of a chunk for all M runs.  On entry A's row r (row
 * r0 + r of the data) holds the pre-activations W1·x of every run (run j in
 * columns j·h … j·h + h − 1); on exit it holds Δ = s·δ/n, the scaled
 * clipped b1 gradient that the backward GEMM multiplies by X.  part gets the
 * block's sums of s·δ (b1), s·c·u (w2) and s·c (b2); u is h doubles of
 * scratch. */
static void backprop_rows(const ul_model *m, const ul_dataset *ds, const double *W, size_t M,
                          const double *xx, size_t r0, size_t i0, size_t i1, double *A,
                          double *part, double *u)
{
    size_t h = m->hidden, d = ds->d, p = mlp_nparams(m, d), Mh = M * h;
    double inv_n = 1.0 / (double)ds->n;
    double *p_b1 = part, *p_w2 = part + Mh, *p_b2 = part + 2 * Mh;
    memset(part, 0, (2 * Mh + M) * sizeof *part);
    for (size_t i = i0; i < i1; i++) {
        double y = ds->y[i];
        double *arow = A + (i - r0) * Mh;
        for (size_t j = 0; j < M; j++) {
            const double *b1 = W + j * p + h * d, *w2 = b1 + h;
            double *a = arow + j * h;
            double f = w2[h], uu = 0;
            for (size_t k = 0; k < h; k++) {
                u[k] = tanh(a[k] + b1[k]);
                f += w2[k] * u[k];
                uu += u[k] * u[k];
            }
            double c = -y * ul_sigmoid(-y * f);
            double dd = 0;
            for (size_t k = 0; k < h; k++) {
                a[k] = c * w2[k] * (1 - u[k] * u[k]); /* δ_k */
                dd += a[k] * a[k];
            }
            double s = clip_factor(dd * (xx[i] + 1) + c * c * (uu + 1), m->clip);
            double sc = s * c;
            for (size_t k = 0; k < h; k++) {
                p_b1[j * h + k] += s * a[k];
                p_w2[j * h + k] += sc * u[k];
                a[k] *= s * inv_n;
            }
            p_b2[j] += sc;
        }
    }
}

/* The direction for M runs:
 *
 *   forward   A (rows × M·h) = X_chunk · W1stackᵀ     then tanh etc. per entry
 *   backward  G1 (M·h × d)  += Δᵀ · X_chunk           (1/n and s folded in Δ)
 *
 * where W1stack stacks the runs' W1 blocks (h×d each).  In W they are p
 * apart, not one matrix, so each run gets its own pair of GEMMs reading W
 * and writing G in place (lda/ldc = d): measured against copying the blocks
 * into one (M·h)×d matrix for a single GEMM each way (n = 12000, d = 784,
 * h = 32, M = 64, 2 cores, OpenBLAS pthreads) — see the report in the
 * commit — the per-run GEMMs were ... */
static ul_status mlp_grad(const ul_model *m, const ul_dataset *ds, const double *W, size_t M,
                          double *G, ul_model_work *work)
{
    size_t n = ds->n, d = ds->d, h = m->hidden;
    if (n == 0 || d == 0 || M == 0 || h == 0)
        return UL_EINPUT;
    if (h > (size_t)INT_MAX / M || n > (size_t)INT_MAX || d > (size_t)INT_MAX ||
        h > (SIZE_MAX / 4 - 1) / (d + 2))
        return UL_EINPUT;
    size_t p = mlp_nparams(m, d), Mh = M * h;
    size_t chunk = n < ROW_CHUNK ? n : ROW_CHUNK;
    size_t nblk = (chunk + ROW_BLOCK - 1) / ROW_BLOCK;
    size_t part_len = 2 * Mh + M + h; /* partial sums, then u scratch */
#ifdef MLP_STACKED
    size_t stack_len = 2 * Mh * d;
#else
    size_t stack_len = 0;
#endif
    double *xx = work_get(work, n + chunk * Mh + nblk * part_len + 2 * Mh + M + stack_len);
    if (!xx)
        return UL_EINPUT; /* out of memory */
    double *A = xx + n, *part = A + chunk * Mh, *tot = part + nblk * part_len;
    double *t_b1 = tot, *t_w2 = tot + Mh, *t_b2 = tot + 2 * Mh;
    memset(tot, 0, (2 * Mh + M) * sizeof *tot);
#ifdef MLP_STACKED
    double *W1s = tot + 2 * Mh + M, *G1s = W1s + Mh * d;
    for (size_t j = 0; j < M; j++)
        memcpy(W1s + j * h * d, W + j * p, h * d * sizeof *W);
#endif
    for (size_t i = 0; i < n; i++)
        xx[i] = cblas_ddot((int)d, ds->x + i * d, 1, ds->x + i * d, 1);

    for (size_t r0 = 0; r0 < n; r0 += chunk) {
        size_t rows = n - r0 < chunk ? n - r0 : chunk;
        const double *Xc = ds->x + r0 * d;
#ifdef MLP_STACKED
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)Mh, (int)d, 1.0, Xc,
                    (int)d, W1s, (int)d, 0.0, A, (int)Mh);
#else
        for (size_t j = 0; j < M; j++)
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)h, (int)d, 1.0,
                        Xc, (int)d, W + j * p, (int)d, 0.0, A + j * h, (int)Mh);
#endif
        size_t blocks = (rows + ROW_BLOCK - 1) / ROW_BLOCK;
#pragma omp parallel for schedule(dynamic)
        for (size_t b = 0; b < blocks; b++) {
            size_t i0 = r0 + b * ROW_BLOCK;
            size_t i1 = i0 + ROW_BLOCK < r0 + rows ? i0 + ROW_BLOCK : r0 + rows;
            double *pb = part + b * part_len;
            backprop_rows(m, ds, W, M, xx, r0, i0, i1, A, pb, pb + 2 * Mh + M);
        }
        for (size_t b = 0; b < blocks; b++)
            for (size_t q = 0; q < 2 * Mh + M; q++)
                tot[q] += part[b * part_len + q];
        double beta = r0 == 0 ? 0.0 : 1.0;
#ifdef MLP_STACKED
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)Mh, (int)d, (int)rows, 1.0, A,
                    (int)Mh, Xc, (int)d, beta, G1s, (int)d);
#else
        for (size_t j = 0; j < M; j++)
            cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)h, (int)d, (int)rows, 1.0,
                        A + j * h, (int)Mh, Xc, (int)d, beta, G + j * p, (int)d);
#endif
    }

    double inv_n = 1.0 / (double)n;
    for (size_t j = 0; j < M; j++) {
        double *g = G + j * p;
        const double *w = W + j * p;
#ifdef MLP_STACKED
        memcpy(g, G1s + j * h * d, h * d * sizeof *g);
#endif
        for (size_t k = 0; k < h; k++) {
            g[h * d + k] = t_b1[j * h + k] * inv_n;
            g[h * d + h + k] = t_w2[j * h + k] * inv_n;
        }
        g[h * d + 2 * h] = t_b2[j] * inv_n;
        if (m->lambda != 0)
            for (size_t q = 0; q < p; q++)
                g[q] += m->lambda * w[q];
    }
    return UL_OK;
}

const ul_model_ops ul_mlp_ops = {
    .name = "mlp",
    .nparams = mlp_nparams,
    .grad = mlp_grad,
    .objective = mlp_objective,
    .sample_grad = mlp_sample_grad,
    .sample_loss = mlp_sample_loss,
};

ul_model ul_mlp_model(size_t hidden, double lambda, double clip)
{
    ul_model m = {.ops = &ul_mlp_ops, .lambda = lambda, .clip = clip, .hidden = hidden};
    return m;
}
