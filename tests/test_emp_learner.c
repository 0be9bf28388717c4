/* tests/test_emp_learner.c — logistic regression model and projected noisy GD
 * (convergence, batching consistency, determinism, projection, clipping). */
#include <cblas.h>
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "emp/data.h"
#include "emp/learner.h"
#include "emp/model.h"
#include "emp/rng.h"

TestSuite(emp_learner);

/* Synthetic two-class data, rows scaled to norm 1, labels ±1. */
static ul_dataset make_data(size_t n, size_t d, uint32_t seed)
{
    ul_dataset raw = {0}, ds = {0};
    char err[256];
    cr_assert_eq(ul_data_synthetic(n, d, 2.0, seed, &raw, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_data_select_binary(&raw, 1, 0, UL_LABELS_PM1, &ds, err, sizeof err), UL_OK,
                 "%s", err);
    ul_dataset_free(&raw);
    ul_data_normalize_rows(&ds);
    return ds;
}

/* Start W: column j = ul_rng_normals(777, j, 0) scaled by s. */
static double *start(size_t p, size_t M, double s)
{
    double *W = malloc(p * M * sizeof *W);
    cr_assert_not_null(W);
    for (size_t j = 0; j < M; j++) {
        ul_rng_normals(777, (uint32_t)j, 0, 0, p, W + j * p);
        for (size_t k = 0; k < p; k++)
            W[j * p + k] *= s;
    }
    return W;
}

/* The unclipped regularised gradient, by a plain loop (independent of the
 * model's GEMM path). */
static double grad_norm_plain(const ul_dataset *ds, double lambda, const double *w)
{
    size_t n = ds->n, d = ds->d;
    double g[64] = {0};
    cr_assert(d <= 64);
    for (size_t i = 0; i < n; i++) {
        const double *x = ds->x + i * d;
        double z = 0;
        for (size_t k = 0; k < d; k++)
            z += x[k] * w[k];
        double y = ds->y[i];
        double c = -y / (1 + exp(y * z)); /* −y·σ(−yz) */
        for (size_t k = 0; k < d; k++)
            g[k] += c * x[k] / (double)n;
    }
    double s = 0;
    for (size_t k = 0; k < d; k++) {
        g[k] += lambda * w[k];
        s += g[k] * g[k];
    }
    return sqrt(s);
}

Test(emp_learner, gd_converges_to_regularised_optimum)
{
    ul_dataset ds = make_data(60, 5, 3);
    double lambda = 0.1;
    ul_model m = ul_logreg_model(lambda, INFINITY);
    ul_pngd_params par = {.eta = 1.0 / (0.25 + lambda), .sigma = 0, .radius = INFINITY, .seed = 1};
    double *W = start(ds.d, 2, 1.0);
    double g0 = grad_norm_plain(&ds, lambda, W);
    char err[256];
    cr_assert_eq(ul_pngd_train(&m, &ds, &par, 2, 0, 0, 500, W, NULL, NULL, err, sizeof err), UL_OK,
                 "%s", err);
    for (size_t j = 0; j < 2; j++) {
        double *w = W + j * ds.d;
        double gn = grad_norm_plain(&ds, lambda, w);
        cr_assert(g0 > 1e-2 && gn < 1e-12, "run %zu: grad norm %g (start %g)", j, gn, g0);
        /* A minimum: perturbing any coordinate raises the objective. */
        double f = m.ops->objective(&m, &ds, w);
        for (size_t k = 0; k < ds.d; k++) {
            double save = w[k];
            w[k] = save + 1e-4;
            cr_assert_gt(m.ops->objective(&m, &ds, w), f);
            w[k] = save - 1e-4;
            cr_assert_gt(m.ops->objective(&m, &ds, w), f);
            w[k] = save;
        }
    }
    /* Both starts reach the same (unique) optimum. */
    for (size_t k = 0; k < ds.d; k++)
        cr_assert_float_eq(W[k], W[ds.d + k], 1e-10);
    free(W);
    ul_dataset_free(&ds);
}

static void run_batch(const ul_dataset *ds, const ul_model *m, const ul_pngd_params *par, double *W,
                      size_t M, uint32_t run0, size_t K)
{
    char err[256];
    cr_assert_eq(ul_pngd_train(m, ds, par, M, run0, 0, K, W, NULL, NULL, err, sizeof err), UL_OK,
                 "%s", err);
}

/* True when a and b agree to 1e-12 relative.  Batches of different widths
 * are different GEMM shapes, and an optimised BLAS may sum them in a
 * different order on another CPU, so agreement across widths is checked to
 * rounding level rather than bit for bit (each run's noise is identical by
 * construction: it depends only on (seed, run, step)). */
static bool close_to(const double *a, const double *b, size_t n)
{
    double scale = 1, diff = 0;
    for (size_t i = 0; i < n; i++) {
        scale = fmax(scale, fabs(a[i]));
        diff = fmax(diff, fabs(a[i] - b[i]));
    }
    return diff <= 1e-12 * scale;
}

Test(emp_learner, batch_equals_single_runs)
{
    ul_dataset ds = make_data(37, 11, 5);
    ul_model m = ul_logreg_model(0.05, 0.3);
    ul_pngd_params par = {.eta = 0.5, .sigma = 0.2, .radius = 2.0, .seed = 42};
    size_t p = ds.d, M = 4, K = 25;
    double *W = start(p, M, 1.0), *W1 = start(p, M, 1.0), *W2 = start(p, M, 1.0);
    run_batch(&ds, &m, &par, W, M, 0, K);
    for (size_t j = 0; j < M; j++) /* one at a time */
        run_batch(&ds, &m, &par, W1 + j * p, 1, (uint32_t)j, K);
    run_batch(&ds, &m, &par, W2, 3, 0, K); /* chunks 3 + 1 */
    run_batch(&ds, &m, &par, W2 + 3 * p, 1, 3, K);
    cr_assert(close_to(W, W1, p * M), "M = 4 differs from M = 1 runs");
    cr_assert(close_to(W, W2, p * M), "M = 4 differs from chunks 3 + 1");
    free(W);
    free(W1);
    free(W2);
    ul_dataset_free(&ds);
}

Test(emp_learner, seed_determinism)
{
    ul_dataset ds = make_data(40, 6, 9);
    ul_model m = ul_logreg_model(0.01, 1.0);
    ul_pngd_params par = {.eta = 0.3, .sigma = 0.1, .radius = 5.0, .seed = 7};
    size_t p = ds.d, M = 3, K = 20;
    double *A = start(p, M, 0.5), *B = start(p, M, 0.5), *C = start(p, M, 0.5);
    run_batch(&ds, &m, &par, A, M, 0, K);
    run_batch(&ds, &m, &par, B, M, 0, K);
    par.seed = 8;
    run_batch(&ds, &m, &par, C, M, 0, K);
    cr_assert(memcmp(A, B, p * M * sizeof *A) == 0);
    for (size_t j = 0; j < M; j++)
        cr_assert(memcmp(A + j * p, C + j * p, p * sizeof *A) != 0, "run %zu", j);
    /* Runs differ from each other (own streams). */
    cr_assert(memcmp(A, A + p, p * sizeof *A) != 0);
    free(A);
    free(B);
    free(C);
    ul_dataset_free(&ds);
}

typedef struct {
    double R;
    size_t steps, at_boundary;
    double worst;
} proj_ctx;

static void proj_hook(void *vctx, uint64_t step, const double *W, size_t p, size_t M)
{
    (void)step;
    proj_ctx *c = vctx;
    c->steps++;
    for (size_t j = 0; j < M; j++) {
        double s = 0;
        for (size_t k = 0; k < p; k++)
            s += W[j * p + k] * W[j * p + k];
        double nrm = sqrt(s);
        if (nrm > c->worst)
            c->worst = nrm;
        if (nrm > c->R * (1 - 1e-12))
            c->at_boundary++;
    }
}

Test(emp_learner, projection_keeps_runs_in_ball)
{
    ul_dataset ds = make_data(30, 8, 11);
    ul_model m = ul_logreg_model(0.01, 1.0);
    ul_pngd_params par = {.eta = 0.5, .sigma = 1.0, .radius = 0.7, .seed = 3};
    size_t p = ds.d, M = 5, K = 40;
    double *W = start(p, M, 3.0); /* starts outside the ball */
    proj_ctx c = {.R = par.radius};
    char err[256];
    cr_assert_eq(ul_pngd_train(&m, &ds, &par, M, 0, 0, K, W, proj_hook, &c, err, sizeof err), UL_OK,
                 "%s", err);
    cr_assert_eq(c.steps, K);
    cr_assert_leq(c.worst, par.radius * (1 + 4 * 2.2e-16), "max norm %.17g", c.worst);
    cr_assert_gt(c.at_boundary, 0); /* the projection did bind */
    free(W);
    ul_dataset_free(&ds);
}

Test(emp_learner, clipping_by_hand)
{
    /* x1 = (3, 4), y1 = +1; x2 = (1, 0), y2 = −1; w = 0, so σ(0) = ½:
     * ∇ℓ1 = −½(3, 4) (norm 2.5) → clipped to M = 1: (−0.6, −0.8);
     * ∇ℓ2 = +½(1, 0) (norm 0.5) → unchanged.
     * Direction (λ = 0): ((−0.6 + 0.5)/2, −0.8/2) = (−0.05, −0.4). */
    double x[4] = {3, 4, 1, 0}, y[2] = {1, -1};
    ul_dataset ds = {.n = 2, .d = 2, .x = x, .y = y};
    ul_model m = ul_logreg_model(0, 1.0);
    double w[2] = {0, 0}, g[2];
    m.ops->sample_grad(&m, x, 2, 1, w, g);
    cr_assert_float_eq(g[0], -0.6, 1e-15);
    cr_assert_float_eq(g[1], -0.8, 1e-15);
    m.ops->sample_grad(&m, x + 2, 2, -1, w, g);
    cr_assert_float_eq(g[0], 0.5, 1e-15);
    cr_assert_float_eq(g[1], 0.0, 1e-15);
    ul_model_work work = {0};
    cr_assert_eq(m.ops->grad(&m, &ds, w, 1, g, &work), UL_OK);
    cr_assert_float_eq(g[0], -0.05, 1e-15);
    cr_assert_float_eq(g[1], -0.4, 1e-15);
    /* One noiseless step, η = 1: w = (0.05, 0.4). */
    ul_pngd_params par = {.eta = 1, .sigma = 0, .radius = INFINITY, .seed = 0};
    char err[256];
    cr_assert_eq(ul_pngd_train(&m, &ds, &par, 1, 0, 0, 1, w, NULL, NULL, err, sizeof err), UL_OK);
    cr_assert_float_eq(w[0], 0.05, 1e-15);
    cr_assert_float_eq(w[1], 0.4, 1e-15);
    /* λ is not clipped: λ = 2 at w = (0.05, 0.4) with M = 0.1.  z1 = 1.75,
     * z2 = 0.05: both clipped data gradients have norm exactly 0.1. */
    ul_model m2 = ul_logreg_model(2.0, 0.1);
    cr_assert_eq(m2.ops->grad(&m2, &ds, w, 1, g, &work), UL_OK);
    double g1[2] = {-0.1 * 0.6, -0.1 * 0.8}, g2[2] = {0.1, 0};
    cr_assert_float_eq(g[0], (g1[0] + g2[0]) / 2 + 2 * 0.05, 1e-15);
    cr_assert_float_eq(g[1], (g1[1] + g2[1]) / 2 + 2 * 0.4, 1e-15);
    ul_model_work_free(&work);
    /* On random data every clipped per-sample gradient has norm ≤ M. */
    ul_dataset r = make_data(50, 7, 13);
    for (size_t i = 0; i < r.n * r.d; i++) /* undo the scaling: norms vary */
        r.x[i] *= 10;
    ul_model m3 = ul_logreg_model(0, 0.2);
    double *wr = start(r.d, 1, 2.0), gr[7];
    size_t bound = 0;
    for (size_t i = 0; i < r.n; i++) {
        m3.ops->sample_grad(&m3, r.x + i * r.d, r.d, r.y[i], wr, gr);
        double s = 0;
        for (size_t k = 0; k < r.d; k++)
            s += gr[k] * gr[k];
        cr_assert_leq(sqrt(s), 0.2 * (1 + 1e-14));
        bound += sqrt(s) > 0.2 * (1 - 1e-12);
    }
    cr_assert_gt(bound, 0);
    free(wr);
    ul_dataset_free(&r);
}

Test(emp_learner, unlearn_replace_equals_training_on_new_data_continued)
{
    ul_dataset ds = make_data(20, 4, 17);
    ul_dataset ds2 = make_data(20, 4, 17);
    ul_model m = ul_logreg_model(0.02, 0.5);
    ul_pngd_params par = {.eta = 0.4, .sigma = 0.3, .radius = 3.0, .seed = 5};
    size_t p = ds.d;
    double *A = start(p, 2, 1.0), *B = start(p, 2, 1.0);
    double xnew[4] = {0.5, -0.5, 0.5, -0.5};
    char err[256];
    run_batch(&ds, &m, &par, A, 2, 0, 10);
    cr_assert_eq(ul_pngd_unlearn_replace(&m, &ds, 3, xnew, -1, &par, 2, 0, 10, 7, A, NULL, NULL,
                                         err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert(memcmp(ds.x + 3 * p, xnew, sizeof xnew) == 0 && ds.y[3] == -1);
    /* By hand: train 10 steps, replace the row, train steps 10 … 16. */
    run_batch(&ds2, &m, &par, B, 2, 0, 10);
    memcpy(ds2.x + 3 * p, xnew, sizeof xnew);
    ds2.y[3] = -1;
    cr_assert_eq(ul_pngd_train(&m, &ds2, &par, 2, 0, 10, 7, B, NULL, NULL, err, sizeof err), UL_OK);
    cr_assert(memcmp(A, B, 2 * p * sizeof *A) == 0);
    cr_assert_eq(ul_pngd_unlearn_replace(&m, &ds, 20, xnew, 1, &par, 2, 0, 10, 1, A, NULL, NULL,
                                         err, sizeof err),
                 UL_EINPUT);
    free(A);
    free(B);
    ul_dataset_free(&ds);
    ul_dataset_free(&ds2);
}

/* One noisy step of each rule by hand, with p = 1101 parameters (the noise
 * is drawn in chunks inside the learner): w' = Π_R(w − η·g + √(2η)·σ·ξ)
 * (UL_STEP_PNGD) and Π_R(w − η·g) + σ·ξ (UL_STEP_MODEL_CLIP), learner.h,
 * with ξ_k = ul_rng_normal(seed, run, t, k) drawn one number at a time, g
 * from the model's grad, and the projection by a plain sum of squares. */
static void step_by_hand(const ul_model *m, const ul_dataset *ds, const ul_pngd_params *par,
                         uint32_t run, uint64_t t, const double *w, double *out)
{
    size_t p = ds->d;
    double *g = malloc(p * sizeof *g);
    ul_model_work work = {0};
    cr_assert_eq(m->ops->grad(m, ds, w, 1, g, &work), UL_OK);
    bool clip_rule = par->rule == UL_STEP_MODEL_CLIP;
    double ns = clip_rule ? par->sigma : sqrt(2 * par->eta) * par->sigma, s = 0;
    for (size_t k = 0; k < p; k++) {
        out[k] = w[k] - par->eta * g[k];
        if (!clip_rule)
            out[k] += ns * ul_rng_normal(par->seed, run, t, k);
        s += out[k] * out[k];
    }
    double shrink = sqrt(s) > par->radius ? par->radius / sqrt(s) : 1;
    for (size_t k = 0; k < p; k++)
        out[k] = out[k] * shrink + (clip_rule ? ns * ul_rng_normal(par->seed, run, t, k) : 0);
    free(g);
    ul_model_work_free(&work);
}

Test(emp_learner, one_noisy_step_by_hand_over_many_noise_chunks)
{
    ul_dataset ds = make_data(6, 1101, 21);
    ul_model m = ul_logreg_model(0.05, 0.5);
    size_t p = ds.d;
    char err[256];
    for (int rule = 0; rule < 2; rule++) {
        /* a radius that binds for the descent + noise (‖w‖ ≈ 33) */
        ul_pngd_params par = {.eta = 0.5, .sigma = 0.7, .radius = 20, .seed = 99,
                              .rule = rule ? UL_STEP_MODEL_CLIP : UL_STEP_PNGD};
        double *W = start(p, 2, 1.0), *want = malloc(2 * p * sizeof *want);
        for (uint32_t j = 0; j < 2; j++)
            step_by_hand(&m, &ds, &par, 40 + j, 7, W + j * p, want + j * p);
        cr_assert_eq(ul_pngd_train(&m, &ds, &par, 2, 40, 7, 1, W, NULL, NULL, err, sizeof err),
                     UL_OK, "%s", err);
        for (size_t k = 0; k < 2 * p; k++)
            cr_assert(fabs(W[k] - want[k]) <= 1e-13 * (1 + fabs(want[k])),
                      "rule %d, coordinate %zu: %.17g, by hand %.17g", rule, k % p, W[k],
                      want[k]);
        free(W);
        free(want);
    }
    ul_dataset_free(&ds);
}

/* ul_pngd_train_work with one scratch kept across calls: the same bits as
 * fresh ul_pngd_train calls, also when a row is replaced in place between
 * calls by one of another norm (the clip depends on ‖x_i‖, which the
 * scratch caches: a stale cache would change the direction). */
Test(emp_learner, kept_scratch_gives_the_bits_of_fresh_calls)
{
    ul_dataset a = make_data(40, 5, 23), b = make_data(40, 5, 23);
    ul_model m = ul_logreg_model(0.02, 0.3);
    ul_pngd_params par = {.eta = 0.4, .sigma = 0.3, .radius = 3.0, .seed = 5};
    size_t p = a.d, M = 3;
    double *A = start(p, M, 1.0), *B = start(p, M, 1.0);
    double xnew[5] = {1.5, -1.5, 1.5, -1.5, 0}; /* norm 3, rows have norm 1 */
    char err[256];
    cr_assert_eq(ul_pngd_train(&m, &a, &par, M, 0, 0, 10, A, NULL, NULL, err, sizeof err), UL_OK);
    memcpy(a.x + 3 * p, xnew, sizeof xnew);
    cr_assert_eq(ul_pngd_train(&m, &a, &par, M, 0, 10, 7, A, NULL, NULL, err, sizeof err), UL_OK);
    ul_pngd_work w = {0};
    for (uint64_t t0 = 0; t0 < 10; t0 += 5)
        cr_assert_eq(ul_pngd_train_work(&m, &b, &par, M, 0, t0, 5, B, NULL, NULL, &w, err,
                                        sizeof err),
                     UL_OK, "%s", err);
    memcpy(b.x + 3 * p, xnew, sizeof xnew);
    cr_assert_eq(ul_pngd_train_work(&m, &b, &par, M, 0, 10, 7, B, NULL, NULL, &w, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert(memcmp(A, B, p * M * sizeof *A) == 0);
    ul_pngd_work_free(&w);
    free(A);
    free(B);
    ul_dataset_free(&a);
    ul_dataset_free(&b);
}

/* The clipped direction of one run by a plain loop over the samples
 * (emp/model.h: coef = −y·σ(−y·wᵀx), clipped to |coef|·‖x‖ ≤ clip, mean, plus
 * λw), independent of the model's GEMM path. */
static size_t clipped_direction_plain(const ul_dataset *ds, double lambda, double clip,
                                      const double *w, double *g)
{
    size_t n = ds->n, d = ds->d, clipped = 0;
    for (size_t k = 0; k < d; k++)
        g[k] = 0;
    for (size_t i = 0; i < n; i++) {
        const double *x = ds->x + i * d;
        double z = 0, xx = 0;
        for (size_t k = 0; k < d; k++)
            z += x[k] * w[k], xx += x[k] * x[k];
        double y = ds->y[i], c = -y / (1 + exp(y * z)), norm = fabs(c) * sqrt(xx);
        if (norm > clip)
            c *= clip / norm, clipped++;
        for (size_t k = 0; k < d; k++)
            g[k] += c * x[k];
    }
    for (size_t k = 0; k < d; k++)
        g[k] = g[k] / (double)n + lambda * w[k];
    return clipped; /* samples whose clip binds */
}

/* m's direction on `threads` OpenMP threads, BLAS on one (as ul_pngd_train
 * runs it); the thread counts are restored after. */
static void grad_on_threads(const ul_model *m, const ul_dataset *ds, const double *W, size_t M,
                            double *G, ul_model_work *work, int threads)
{
    int omp_before = omp_get_max_threads(), blas_before = openblas_get_num_threads();
    openblas_set_num_threads(1);
    omp_set_num_threads(threads);
    ul_status st = m->ops->grad(m, ds, W, M, G, work);
    omp_set_num_threads(omp_before);
    openblas_set_num_threads(blas_before);
    cr_assert_eq(st, UL_OK);
}

/* n = 2000 rows: the gradient sums seven fixed chunks of rows, walked in
 * sub-blocks, and the chunks are spread over OpenMP threads.  With BLAS on
 * one thread (as ul_pngd_train runs it) every bit must be the same for 1
 * and 3 threads, and each run must equal the plain loop to rounding. */
Test(emp_learner, logreg_grad_does_not_depend_on_thread_count)
{
    ul_dataset ds = make_data(2000, 12, 9);
    ul_model m = ul_logreg_model(0.03, 0.2);
    size_t p = ds.d, M = 9;
    double *W = start(p, M, 2.0), *G1 = malloc(p * M * sizeof *G1), *G3 = malloc(p * M * sizeof *G3);
    double g[12];
    cr_assert(G1 && G3);
    ul_model_work work = {0};
    grad_on_threads(&m, &ds, W, M, G1, &work, 1);
    grad_on_threads(&m, &ds, W, M, G3, &work, 3);
    cr_assert(memcmp(G1, G3, p * M * sizeof *G1) == 0, "1 thread and 3 threads differ");
    size_t clipped = 0;
    for (size_t j = 0; j < M; j++) {
        clipped += clipped_direction_plain(&ds, m.lambda, m.clip, W + j * p, g);
        cr_assert(close_to(g, G1 + j * p, p), "run %zu: GEMM path vs plain loop", j);
    }
    /* the clip binds for some samples and not others, so both paths are tried */
    cr_assert(clipped > 0 && clipped < M * ds.n, "%zu of %zu clipped", clipped, M * ds.n);
    ul_model_work_free(&work);
    free(W);
    free(G1);
    free(G3);
    ul_dataset_free(&ds);
}
