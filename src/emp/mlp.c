/* src/emp/mlp.c — one-hidden-layer tanh network with per-sample clipping
 * (formulas in emp/mlp.h). */
#include "emp/mlp.h"

#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* tanh_abs rounds with 1.5·2^52 and reads bits: it needs IEEE arithmetic
 * as written, which -ffast-math does not promise. */
#ifdef __FAST_MATH__
#error "src/emp/mlp.c needs IEEE arithmetic: build without -ffast-math"
#endif

/* The `omp simd` loops below are elementwise (no reduction): vectorised or
 * not, they give the same bits; vectorising is only for speed.  clang warns
 * when it does not (at -O1 under the sanitizers), an error with -Werror. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

/* The elementwise loops (backprop_rows, with row_tanh and backprop_run
 * inlined) are compiled twice on x86-64 with GCC, for AVX2 and for the
 * baseline, and the loader picks the one the CPU runs (target_clones, an
 * ifunc).  Both do the same IEEE operations in the same order: AVX2 does not
 * enable FMA and -std=c17 does not contract a·b + c; the loops have no
 * reduction (dot_lanes fixes its own order).  So the bits are the same on any
 * x86-64, and the vectors are 4 lanes wide instead of SSE2's 2.  Measured
 * (bench_learner's network: n = 12000, d = 784, h = 32, M = 64, 2 threads):
 * the gradient's time beyond its GEMMs fell from about 90 ms to 35 ms of
 * about 820.  (AVX-512 measured no faster, and valgrind cannot run it.) */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define MLP_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define MLP_CLONES
#endif
/* …and the helpers inlined into both (else the clones call one baseline copy) */
#if defined(__GNUC__)
#define MLP_INLINE static inline __attribute__((always_inline))
#else
#define MLP_INLINE static inline
#endif

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

/* The network's tanh (emp/mlp.h: which one, and why not libm's), in two
 * parts so that a loop over each has no branch and vectorises under
 * `#pragma omp simd`: tanh_arg(x) = min(|x|, 20) (NaN stays NaN), then
 * tanh_abs(z, x) = tanh(z) with x's sign.  Kept as two loops (backprop_rows):
 * with the clamp in the same loop the compiler specialises the z = 20 path
 * into a branch, and a loop with branches around floating-point operations
 * is not vectorised.  tanh(20) = 1 − 8.5e-18 rounds to 1, so the clamp
 * changes no result. */
static inline double tanh_arg(double x)
{
    double z = fabs(x);
    return z > 20 ? 20 : z;
}

/* tanh z = E/(E + 2) with E = e^{2z} − 1 (no cancellation for small z).
 * E from Cephes exp.c (S. L. Moshier, Cephes Math Library 2.8,
 * netlib.org/cephes; also in Eigen and VDT): t = 2z = k·ln 2 + r,
 * k = round(t/ln 2), |r| ≤ ln(2)/2, ln 2 = C1 + C2 (C1 exact in few bits),
 * and the Padé form e^r = 1 + 2rP(r²)/(Q(r²) − rP(r²)); so with
 * p = rP(r²), D = Q(r²) − p:
 *     E = 2^k·(e^r − 1) + (2^k − 1) = N/D,  N = 2^k·2p + (2^k − 1)·D,
 *     tanh z = N/(N + 2D)                                (one division).
 * For k = 0 (z < ln(2)/4 ≈ 0.173) N = 2p exactly.  k ≤ 58 (z ≤ 20): 2^k is built from
 * the bits of t/ln 2 + 1.5·2^52, whose low bits hold k (IEEE binary64).
 * Measured against MPFR, 3·10^6 random points over [1e-300, 800]: at most
 * 3.2 ulp, near z = 0.176 just past k = 0 (glibc's tanh: 2.1 by the same
 * measure); tests/test_emp_mlp.c holds it to 4 ulp. */
static inline double tanh_abs(double z, double x)
{
    const double P0 = 1.26177193074810590878E-4, P1 = 3.02994407707441961300E-2,
                 P2 = 9.99999999999999999910E-1;
    const double Q0 = 3.00198505138664455042E-6, Q1 = 2.52448340349684104192E-3,
                 Q2 = 2.27265548208155028766E-1, Q3 = 2.00000000000000000009E0;
    const double C1 = 6.93145751953125E-1, C2 = 1.42860682030941723212E-6;
    const double LOG2E = 1.4426950408889634073599, SHIFT = 0x1.8p52;
    double t = z + z;
    double kb = t * LOG2E + SHIFT, k = kb - SHIFT; /* k = round(t/ln 2) */
    double r = (t - k * C1) - k * C2, rr = r * r;
    double pr = r * ((P0 * rr + P1) * rr + P2);
    double D = ((Q0 * rr + Q1) * rr + Q2) * rr + Q3 - pr;
    uint64_t bits;
    memcpy(&bits, &kb, sizeof bits);
    bits = (bits + 1023) << 52; /* low 12 bits k + 1023: the exponent field of 2^k */
    double two_k;
    memcpy(&two_k, &bits, sizeof two_k);
    double N = two_k * (pr + pr) + (two_k - 1) * D;
    return copysign(N / (N + (D + D)), x);
}

double ul_mlp_tanh(double x)
{
    return tanh_abs(tanh_arg(x), x);
}

/* Σ_k a_k·b_k over k < n in a fixed order that does not depend on how the
 * compiler vectorises: lane l sums the terms k ≡ l (mod 4) in order, then
 * (lane 0 + lane 1) + (lane 2 + lane 3).  Four chains, not one: the adds of
 * one chain wait on each other. */
static inline double dot_lanes(const double *a, const double *b, size_t n)
{
    double s[4] = {0, 0, 0, 0};
    size_t k = 0;
    for (; k + 4 <= n; k += 4)
        for (size_t l = 0; l < 4; l++)
            s[l] += a[k + l] * b[k + l];
    for (size_t l = 0; k + l < n; l++)
        s[l] += a[k + l] * b[k + l];
    return (s[0] + s[1]) + (s[2] + s[3]);
}

/* f(w; x) = b2 + Σ_k w2_k·tanh(b1_k + W1_k·x)  (emp/mlp.h). */
static double mlp_output(size_t h, const double *x, size_t d, const double *w)
{
    const double *b1 = w + h * d, *w2 = b1 + h;
    double f = w2[h];
    for (size_t k = 0; k < h; k++)
        f += w2[k] * ul_mlp_tanh(b1[k] + cblas_ddot((int)d, w + k * d, 1, x, 1));
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
        double u = ul_mlp_tanh(b1[k] + cblas_ddot((int)d, w + k * d, 1, x, 1));
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

/* One block's state for backprop_rows: its biases and output weights
 * gathered from W (b1 and w2 of run j at j·h, mb·h each; b2 of run j at j),
 * the running sums of s·δ (t_b1), s·c·u (t_w2) and s·c (t_b2), and u, the
 * tanh of one row of A (mb·h). */
typedef struct {
    size_t h, mb;
    double clip, inv_n;
    const double *b1, *w2, *b2;
    double *t_b1, *t_w2, *t_b2, *u;
} block_state;

/* One row of A (H = mb·h entries): a += b1, then u = tanh(a), each loop
 * vectorised (tanh_arg: why two loops). */
MLP_INLINE void row_tanh(size_t H, const double *b1, double *a, double *u)
{
#pragma omp simd
    for (size_t q = 0; q < H; q++) {
        a[q] += b1[q];
        u[q] = tanh_arg(a[q]);
    }
#pragma omp simd
    for (size_t q = 0; q < H; q++)
        u[q] = tanh_abs(u[q], a[q]);
}

/* Run j on one sample (label y, ‖x‖² = x2), as in emp/mlp.h: a (h entries of
 * A's row) holds b1 + W1·x and u its tanh; on exit a holds s·δ/n, and s·δ,
 * s·c·u and s·c are added to the sums. */
MLP_INLINE void backprop_run(const block_state *bs, size_t j, double y, double x2, double *a)
{
    size_t h = bs->h;
    const double *w2 = bs->w2 + j * h, *u = bs->u + j * h;
    double *t_b1 = bs->t_b1 + j * h, *t_w2 = bs->t_w2 + j * h;
    double f = bs->b2[j] + dot_lanes(w2, u, h), uu = dot_lanes(u, u, h);
    double c = -y * ul_sigmoid(-y * f); /* ∂ℓ/∂f for ℓ = log(1 + e^{−yf}) */
#pragma omp simd
    for (size_t k = 0; k < h; k++)
        a[k] = c * w2[k] * (1 - u[k] * u[k]); /* δ_k */
    double dd = dot_lanes(a, a, h);
    double s = clip_factor(dd * (x2 + 1) + c * c * (uu + 1), bs->clip);
    double sc = s * c, sn = s * bs->inv_n;
#pragma omp simd
    for (size_t k = 0; k < h; k++) {
        t_b1[k] += s * a[k];
        t_w2[k] += sc * u[k];
        a[k] *= sn;
    }
    bs->t_b2[j] += sc;
}

/* Rows r0 … r0 + rows − 1 for the runs of a block.  On entry A's row r holds
 * the pre-activations W1·x_{r0+r} of every run (run j in columns j·h …
 * j·h + h − 1); on exit it holds Δ = s·δ/n, the clipped b1 gradient scaled
 * for the backward GEMM.  The sums are added to row by row, in order. */
MLP_CLONES static void backprop_rows(const block_state *bs, const ul_dataset *ds, const double *xx,
                          size_t r0, size_t rows, double *A)
{
    size_t H = bs->mb * bs->h;
    for (size_t r = 0; r < rows; r++) {
        double *a = A + r * H;
        row_tanh(H, bs->b1, a, bs->u);
        for (size_t j = 0; j < bs->mb; j++)
            backprop_run(bs, j, ds->y[r0 + r], xx[r0 + r], a + j * bs->h);
    }
}

/* Doubles of scratch for one block of mb runs: A (chunk × mb·h), W1stack
 * and G1 (mb·h·d each), b1 and w2 (mb·h each) and b2 (mb) gathered, sums
 * (2·mb·h + mb), u (mb·h). */
static size_t block_scratch(size_t chunk, size_t mb, size_t h, size_t d)
{
    return chunk * mb * h + 2 * mb * h * d + 5 * mb * h + 2 * mb;
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
    double *b1 = tot + 2 * H + mb, *w2 = b1 + H, *b2 = w2 + H, *u = b2 + mb;
    block_state bs = {.h = h, .mb = mb, .clip = m->clip, .inv_n = 1.0 / (double)n,
                      .b1 = b1, .w2 = w2, .b2 = b2,
                      .t_b1 = tot, .t_w2 = tot + H, .t_b2 = tot + 2 * H, .u = u};
    memset(tot, 0, (2 * H + mb) * sizeof *tot);
    for (size_t j = 0; j < mb; j++) {
        const double *w = W + j * p;
        memcpy(W1s + j * h * d, w, h * d * sizeof *W);
        memcpy(b1 + j * h, w + h * d, h * sizeof *W);
        memcpy(w2 + j * h, w + h * d + h, h * sizeof *W);
        b2[j] = w[h * d + 2 * h];
    }
    for (size_t r0 = 0; r0 < n; r0 += chunk) {
        size_t rows = n - r0 < chunk ? n - r0 : chunk;
        const double *Xc = ds->x + r0 * d;
        double beta = r0 == 0 ? 0.0 : 1.0;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)H, (int)d, 1.0, Xc,
                    (int)d, W1s, (int)d, 0.0, A, (int)H);
        backprop_rows(&bs, ds, xx, r0, rows, A);
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
    /* BLAS takes int sizes; the scratch (blocks·block_scratch ≤ 2M·h·(2d +
     * ROW_CHUNK + 7) doubles: blocks·mb ≤ 2M, mb ≤ mb·h) must not wrap. */
    if (n > INT_MAX || d > INT_MAX || h > INT_MAX / M ||
        M * h > SIZE_MAX / sizeof(double) / 2 / (2 * d + ROW_CHUNK + 7))
        return UL_EINPUT;
    size_t p = mlp_nparams(m, d);
    size_t chunk = n < ROW_CHUNK ? n : ROW_CHUNK;
    size_t mb_max = M < UL_EMP_RUN_BLOCK ? M : UL_EMP_RUN_BLOCK;
    size_t blocks = (M + UL_EMP_RUN_BLOCK - 1) / UL_EMP_RUN_BLOCK;
    size_t per_block = block_scratch(chunk, mb_max, h, d);
    double *scratch = ul_model_work_get(work, blocks * per_block);
    const double *xx = ul_model_work_rows(work, ds, row_norm2); /* ‖x_i‖², cached */
    if (!scratch || !xx)
        return UL_ENOMEM; /* scratch sized by n, d, M, h (policy: num/status.h) */
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
