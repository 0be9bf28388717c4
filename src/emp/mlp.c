/* src/emp/mlp.c — one-hidden-layer tanh network with per-sample clipping
 * (formulas in emp/mlp.h). */
#include "emp/mlp.h"

#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Rows are taken ROW_CHUNK at a time (the GEMM height), which bounds the
 * pre-activation scratch to ROW_CHUNK × h per run. */
enum { ROW_CHUNK = 2048 };

static double row_norm2(const double *x, size_t d)
{
    return cblas_ddot((int)d, x, 1, x, 1);
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
static void mlp_sample_grad(const ul_model *m, const double *x, size_t d, double y, const double *w,
                            double *g)
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

/* Rows r0 … r0 + rows − 1 for the mb runs of a block (W at the block's first
 * run).  On entry A's row r holds the pre-activations W1·x_{r0+r} of every
 * run (run j in columns j·h … j·h + h − 1); on exit it holds Δ = s·δ/n, the
 * clipped b1 gradient scaled for the backward GEMM.  The sums of s·δ (b1),
 * s·c·u (w2) and s·c (b2) are added, row by row in order, to tot (2·mb·h +
 * mb); u is h doubles of scratch. */
static void backprop_rows(const ul_model *m, const ul_dataset *ds, const double *W, size_t mb,
                          const double *xx, size_t r0, size_t rows, double *A, double *tot,
                          double *u)
{
    size_t h = m->hidden, d = ds->d, p = mlp_nparams(m, d), H = mb * h;
    double inv_n = 1.0 / (double)ds->n;
    double *t_b1 = tot, *t_w2 = tot + H, *t_b2 = tot + 2 * H;
    for (size_t r = 0; r < rows; r++) {
        double y = ds->y[r0 + r], x2 = xx[r0 + r];
        for (size_t j = 0; j < mb; j++) {
            const double *b1 = W + j * p + h * d, *w2 = b1 + h;
            double *a = A + r * H + j * h;
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
            double s = clip_factor(dd * (x2 + 1) + c * c * (uu + 1), m->clip);
            double sc = s * c;
            for (size_t k = 0; k < h; k++) {
                t_b1[j * h + k] += s * a[k];
                t_w2[j * h + k] += sc * u[k];
                a[k] *= s * inv_n;
            }
            t_b2[j] += sc;
        }
    }
}

/* Doubles of scratch for one block of mb runs: A (chunk × mb·h), W1stack
 * and G1 (mb·h·d each), sums (2·mb·h + mb), u (h). */
static size_t block_scratch(size_t chunk, size_t mb, size_t h, size_t d)
{
    return chunk * mb * h + 2 * mb * h * d + 2 * mb * h + mb + h;
}

/* The direction for one block of mb runs (W and G at its first run), on one
 * thread, rows taken ROW_CHUNK at a time:
 *
 *   forward   A (rows × mb·h) = X_chunk · W1stackᵀ   then tanh, c, δ, s per entry
 *   backward  G1 (mb·h × d)  += Δᵀ · X_chunk         (s and 1/n folded into Δ)
 *
 * W1stack is the runs' W1 blocks (h×d each, row-major) stacked into one
 * (mb·h)×d matrix.  In W they are p apart rather than one matrix, so they are
 * copied into scratch and G1 is copied back to G.  The alternative, one GEMM
 * pair per run reading W and writing G in place, was slower: n = 12000,
 * d = 784, h = 32, M = 64 (4 blocks), BLAS and OpenMP on one thread, CPU time
 * per call, best of 3, two rounds: stacked 2.04 and 2.06 s, per run 2.60 and
 * 2.56 s (the same G to 12 digits).  Stacking all M = 64 runs in one GEMM
 * pair instead of blocks of 16 measured 1.98–2.00 s, no real gain. */
static void mlp_grad_block(const ul_model *m, const ul_dataset *ds, const double *xx,
                           const double *W, size_t mb, double *G, double *scratch)
{
    size_t n = ds->n, d = ds->d, h = m->hidden, p = mlp_nparams(m, d), H = mb * h;
    size_t chunk = n < ROW_CHUNK ? n : ROW_CHUNK;
    double *A = scratch, *W1s = A + chunk * H, *G1s = W1s + H * d, *tot = G1s + H * d;
    double *u = tot + 2 * H + mb;
    memset(tot, 0, (2 * H + mb) * sizeof *tot);
    for (size_t j = 0; j < mb; j++)
        memcpy(W1s + j * h * d, W + j * p, h * d * sizeof *W);
    for (size_t r0 = 0; r0 < n; r0 += chunk) {
        size_t rows = n - r0 < chunk ? n - r0 : chunk;
        const double *Xc = ds->x + r0 * d;
        double beta = r0 == 0 ? 0.0 : 1.0;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)H, (int)d, 1.0, Xc,
                    (int)d, W1s, (int)d, 0.0, A, (int)H);
        backprop_rows(m, ds, W, mb, xx, r0, rows, A, tot, u);
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)H, (int)d, (int)rows, 1.0, A,
                    (int)H, Xc, (int)d, beta, G1s, (int)d);
    }
    double inv_n = 1.0 / (double)n;
    for (size_t j = 0; j < mb; j++) {
        double *g = G + j * p;
        const double *w = W + j * p;
        memcpy(g, G1s + j * h * d, h * d * sizeof *g);
        for (size_t k = 0; k < h; k++) {
            g[h * d + k] = tot[j * h + k] * inv_n;
            g[h * d + h + k] = tot[H + j * h + k] * inv_n;
        }
        g[h * d + 2 * h] = tot[2 * H + j] * inv_n;
        if (m->lambda != 0) /* λ·w on every parameter, after clipping (eq. 84) */
            for (size_t q = 0; q < p; q++)
                g[q] += m->lambda * w[q];
    }
}

/* Fixed blocks of UL_EMP_RUN_BLOCK runs, one single-threaded GEMM pair per
 * block and row chunk, blocks spread over OpenMP threads (emp/model.h: why):
 * a block's arithmetic, and so every bit of G, does not depend on the thread
 * count when BLAS runs on one thread (as ul_pngd_train arranges). */
static ul_status mlp_grad(const ul_model *m, const ul_dataset *ds, const double *W, size_t M,
                          double *G, ul_model_work *work)
{
    size_t n = ds->n, d = ds->d, h = m->hidden;
    if (n == 0 || d == 0 || M == 0 || h == 0)
        return UL_EINPUT;
    /* BLAS takes int sizes; the scratch (< n + M·h·(2d + ROW_CHUNK + 3) +
     * blocks·h doubles) must not wrap. */
    if (n > INT_MAX || d > INT_MAX || h > INT_MAX / M ||
        M * h > SIZE_MAX / sizeof(double) / (2 * d + 2 * ROW_CHUNK))
        return UL_EINPUT;
    size_t p = mlp_nparams(m, d);
    size_t chunk = n < ROW_CHUNK ? n : ROW_CHUNK;
    size_t mb_max = M < UL_EMP_RUN_BLOCK ? M : UL_EMP_RUN_BLOCK;
    size_t blocks = (M + UL_EMP_RUN_BLOCK - 1) / UL_EMP_RUN_BLOCK;
    size_t per_block = block_scratch(chunk, mb_max, h, d);
    double *scratch = ul_model_work_get(work, blocks * per_block);
    const double *xx = ul_model_work_rows(work, ds, row_norm2); /* ‖x_i‖², cached */
    if (!scratch || !xx)
        return UL_EINPUT; /* out of memory */
#pragma omp parallel for schedule(static) if (blocks > 1 && n * d * M >= UL_EMP_PARALLEL_MIN)
    for (size_t b = 0; b < blocks; b++) {
        size_t j0 = b * UL_EMP_RUN_BLOCK;
        size_t mb = M - j0 < UL_EMP_RUN_BLOCK ? M - j0 : UL_EMP_RUN_BLOCK;
        mlp_grad_block(m, ds, xx, W + j0 * p, mb, G + j0 * p, scratch + b * per_block);
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
