/* tests/test_emp_mlp.c — the one-hidden-layer network (emp/mlp.h): layout,
 * gradients against finite differences, batched GEMM path against the
 * one-sample path, clipping, thread-count independence, that the hidden
 * layer fits XOR-like data that logistic regression cannot, and the
 * network's tanh against MPFR. */
#include <cblas.h>
#include <criterion/criterion.h>
#include <math.h>
#include <mpfr.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "emp/learner.h"
#include "emp/mlp.h"
#include "emp/model.h"
#include "emp/rng.h"

TestSuite(emp_mlp);

static double *alloc_doubles(size_t n)
{
    double *v = calloc(n, sizeof *v);
    cr_assert_not_null(v);
    return v;
}

/* n rows of N(0, 1) features, labels ±1 from uniform draws (the labels are
 * unrelated to x: gradients are exercised, not learning). */
static ul_dataset random_data(size_t n, size_t d, uint32_t seed)
{
    ul_dataset ds = {.n = n, .d = d, .x = alloc_doubles(n * d), .y = alloc_doubles(n)};
    ul_rng_normals(seed, 0, 0, 0, n * d, ds.x);
    ul_rng_uniforms(seed, 0, 1, 0, n, ds.y);
    for (size_t i = 0; i < n; i++)
        ds.y[i] = ds.y[i] < 0.5 ? -1.0 : 1.0;
    return ds;
}

/* p×M parameters, column j = scale·ul_rng_normals(seed, j, 0). */
static double *random_params(size_t p, size_t M, double scale, uint32_t seed)
{
    double *W = alloc_doubles(p * M);
    for (size_t j = 0; j < M; j++) {
        ul_rng_normals(seed, (uint32_t)j, 0, 0, p, W + j * p);
        for (size_t k = 0; k < p; k++)
            W[j * p + k] *= scale;
    }
    return W;
}

static double norm2(const double *v, size_t n)
{
    double s = 0;
    for (size_t k = 0; k < n; k++)
        s += v[k] * v[k];
    return sqrt(s);
}

/* max_k |a_k − b_k| ≤ tol·max_k |b_k| (relative to the vector's size). */
static void assert_close(const double *a, const double *b, size_t n, double tol, const char *what)
{
    double scale = 0, diff = 0;
    for (size_t k = 0; k < n; k++) {
        scale = fmax(scale, fabs(b[k]));
        diff = fmax(diff, fabs(a[k] - b[k]));
    }
    cr_assert_gt(scale, 0, "%s: reference is all zero", what);
    cr_assert(diff <= tol * scale, "%s: max difference %g (scale %g)", what, diff, scale);
}

Test(emp_mlp, nparams_and_layout)
{
    /* p = h·d + h + h + 1: 5·7 + 5 + 5 + 1 = 46. */
    ul_model m = ul_mlp_model(5, 0.0, INFINITY);
    cr_assert_eq(m.ops->nparams(&m, 7), 46);
    cr_assert_eq(m.hidden, 5);
    cr_assert_str_eq(m.ops->name, "mlp");

    /* Only b2 = 3 (the last entry): f = 3 whatever x, ℓ = log(1 + e^{−3y}). */
    size_t d = 7, p = 46;
    double w[46] = {0}, x[7] = {0.5, -1, 2, 0, 3, -0.25, 1};
    w[p - 1] = 3;
    cr_assert_float_eq(m.ops->sample_loss(&m, x, d, 1.0, w), log(1 + exp(-3.0)), 1e-15);
    cr_assert_float_eq(m.ops->sample_loss(&m, x, d, -1.0, w), log(1 + exp(3.0)), 1e-14);

    /* Unit 1 only (h = 5, d = 7): W1 row 1 = entries 7…13, b1[1] = entry
     * 35 + 1, w2[1] = entry 40 + 1.  With row 1 = (1, 0, …, 0, 2) and
     * b1[1] = 0.5, w2[1] = −2: f = −2·tanh(x0 + 2·x6 + 0.5). */
    memset(w, 0, sizeof w);
    w[7] = 1;
    w[13] = 2;
    w[36] = 0.5;
    w[41] = -2;
    double f = -2 * tanh(0.5 + 2 * 1 + 0.5); /* x0 = 0.5, x6 = 1 */
    cr_assert_float_eq(m.ops->sample_loss(&m, x, d, 1.0, w), log(1 + exp(-f)), 1e-14);
    cr_assert_float_eq(m.ops->sample_loss(&m, x, d, -1.0, w), log(1 + exp(f)), 1e-14);
}

Test(emp_mlp, sample_grad_matches_finite_differences)
{
    size_t h = 4, d = 5;
    ul_model m = ul_mlp_model(h, 0.0, INFINITY);
    size_t p = m.ops->nparams(&m, d);
    ul_dataset ds = random_data(6, d, 11);
    double *W = random_params(p, 6, 0.7, 12), *g = alloc_doubles(p);
    /* Central differences, step 1e-6: truncation O(step²·ℓ''') ≈ 1e-12,
     * rounding ≈ 1e-16/1e-6 = 1e-10, so 1e-6 is a loose bound. */
    double step = 1e-6;
    for (size_t i = 0; i < ds.n; i++) {
        const double *x = ds.x + i * d;
        double y = ds.y[i], *w = W + i * p;
        m.ops->sample_grad(&m, x, d, y, w, g);
        for (size_t k = 0; k < p; k++) {
            double save = w[k];
            w[k] = save + step;
            double up = m.ops->sample_loss(&m, x, d, y, w);
            w[k] = save - step;
            double down = m.ops->sample_loss(&m, x, d, y, w);
            w[k] = save;
            double fd = (up - down) / (2 * step);
            cr_assert(fabs(g[k] - fd) <= 1e-6, "sample %zu entry %zu: %.12g vs fd %.12g", i, k,
                      g[k], fd);
        }
        cr_assert_gt(norm2(g, p), 1e-3); /* not trivially zero */
    }
    free(W);
    free(g);
    ul_dataset_free(&ds);
}

Test(emp_mlp, objective_gradient_matches_finite_differences)
{
    size_t h = 3, d = 4;
    ul_model m = ul_mlp_model(h, 0.2, INFINITY);
    size_t p = m.ops->nparams(&m, d);
    ul_dataset ds = random_data(40, d, 21);
    double *w = random_params(p, 1, 0.8, 22), *g = alloc_doubles(p);
    ul_model_work work = {0};
    cr_assert_eq(m.ops->grad(&m, &ds, w, 1, g, &work), UL_OK);
    double step = 1e-6;
    for (size_t k = 0; k < p; k++) {
        double save = w[k];
        w[k] = save + step;
        double up = m.ops->objective(&m, &ds, w);
        w[k] = save - step;
        double down = m.ops->objective(&m, &ds, w);
        w[k] = save;
        double fd = (up - down) / (2 * step);
        cr_assert(fabs(g[k] - fd) <= 1e-6, "entry %zu: %.12g vs fd %.12g", k, g[k], fd);
    }
    ul_model_work_free(&work);
    free(w);
    free(g);
    ul_dataset_free(&ds);
}

/* mean_i sample_grad(x_i) + λ·w for column j, one sample at a time. */
static void grad_by_samples(const ul_model *m, const ul_dataset *ds, const double *w, double *out,
                            size_t *clipped)
{
    size_t p = m->ops->nparams(m, ds->d);
    ul_model unclipped = *m;
    unclipped.clip = INFINITY;
    double *g = alloc_doubles(p), *g0 = alloc_doubles(p);
    memset(out, 0, p * sizeof *out);
    for (size_t i = 0; i < ds->n; i++) {
        m->ops->sample_grad(m, ds->x + i * ds->d, ds->d, ds->y[i], w, g);
        unclipped.ops->sample_grad(&unclipped, ds->x + i * ds->d, ds->d, ds->y[i], w, g0);
        if (norm2(g0, p) > m->clip)
            (*clipped)++;
        for (size_t k = 0; k < p; k++)
            out[k] += g[k] / (double)ds->n;
    }
    for (size_t k = 0; k < p; k++)
        out[k] += m->lambda * w[k];
    free(g);
    free(g0);
}

/* The batched direction (GEMMs) against the plain per-sample mean.  Both
 * compute the same sums, but in a different order and grouping (GEMM
 * blocking, the W1 part of the gradient summed inside a GEMM, pre-activations
 * from a GEMM instead of a dot product, 1/n applied before instead of after
 * the sum), so they agree to rounding: a few ulps per term over a few
 * thousand terms of similar size, far below 1e-12 relative (measured about
 * 1–2e-15).  n = 2100 spans two row chunks of 2048 (the backward GEMM
 * accumulates across chunks); the clip is set so that some samples are
 * clipped and some are not. */
Test(emp_mlp, batched_grad_equals_mean_of_sample_grads)
{
    size_t h = 6, d = 5, M = 3, n = 2100;
    ul_model m = ul_mlp_model(h, 0.03, 0.8);
    size_t p = m.ops->nparams(&m, d);
    ul_dataset ds = random_data(n, d, 31);
    double *W = random_params(p, M, 0.6, 32), *G = alloc_doubles(p * M), *ref = alloc_doubles(p);
    ul_model_work work = {0};
    cr_assert_eq(m.ops->grad(&m, &ds, W, M, G, &work), UL_OK);
    for (size_t j = 0; j < M; j++) {
        size_t clipped = 0;
        grad_by_samples(&m, &ds, W + j * p, ref, &clipped);
        cr_assert(clipped > n / 10 && clipped < n - n / 10, "run %zu: %zu of %zu clipped", j,
                  clipped, n);
        assert_close(G + j * p, ref, p, 1e-12, "batched vs per-sample");
    }
    /* Reusing the scratch with another M (smaller, then larger) changes nothing. */
    double *G1 = alloc_doubles(p);
    cr_assert_eq(m.ops->grad(&m, &ds, W + p, 1, G1, &work), UL_OK);
    assert_close(G1, G + p, p, 1e-12, "M = 1 vs column 1 of M = 3");
    ul_model_work_free(&work);
    free(W);
    free(G);
    free(G1);
    free(ref);
    ul_dataset_free(&ds);
}

Test(emp_mlp, clipping_tiny_and_huge)
{
    size_t h = 4, d = 6;
    ul_model tiny = ul_mlp_model(h, 0.0, 1e-3);
    ul_model huge = ul_mlp_model(h, 0.0, 1e12);
    ul_model none = ul_mlp_model(h, 0.0, INFINITY);
    size_t p = tiny.ops->nparams(&tiny, d);
    ul_dataset ds = random_data(8, d, 41);
    double *w = random_params(p, 1, 0.5, 42);
    double *gt = alloc_doubles(p), *gh = alloc_doubles(p), *g0 = alloc_doubles(p);
    for (size_t i = 0; i < ds.n; i++) {
        const double *x = ds.x + i * d;
        tiny.ops->sample_grad(&tiny, x, d, ds.y[i], w, gt);
        huge.ops->sample_grad(&huge, x, d, ds.y[i], w, gh);
        none.ops->sample_grad(&none, x, d, ds.y[i], w, g0);
        double n0 = norm2(g0, p);
        cr_assert_gt(n0, 1e-3); /* so 1e-3 does clip */
        /* ‖clip(g, M)‖ = M when ‖g‖ > M, and the direction is g's. */
        cr_assert_float_eq(norm2(gt, p), 1e-3, 1e-3 * 1e-12, "sample %zu", i);
        for (size_t k = 0; k < p; k++)
            cr_assert_float_eq(gt[k], g0[k] * (1e-3 / n0), 1e-15 + 1e-12 * fabs(gt[k]));
        /* M far above ‖g‖: no change at all. */
        cr_assert(memcmp(gh, g0, p * sizeof *gh) == 0, "sample %zu", i);
    }
    /* The batched direction with the tiny clip: each sample contributes a
     * vector of norm 1e-3, so the mean has norm ≤ 1e-3. */
    ul_model_work work = {0};
    cr_assert_eq(tiny.ops->grad(&tiny, &ds, w, 1, gt, &work), UL_OK);
    cr_assert_leq(norm2(gt, p), 1e-3 * (1 + 1e-12));
    ul_model_work_free(&work);
    free(w);
    free(gt);
    free(gh);
    free(g0);
    ul_dataset_free(&ds);
}

/* M = 40 runs make three blocks of UL_EMP_RUN_BLOCK = 16, 16 and 8 runs,
 * spread over OpenMP threads; with BLAS on one thread (as ul_pngd_train runs
 * it) every bit must be the same for 1 and 3 threads.  A run in the last,
 * partial block also equals the same run computed alone (to rounding: a
 * different GEMM width). */
Test(emp_mlp, grad_does_not_depend_on_thread_count)
{
    size_t h = 5, d = 7, M = 40, n = 700;
    ul_model m = ul_mlp_model(h, 0.01, 0.5);
    size_t p = m.ops->nparams(&m, d);
    ul_dataset ds = random_data(n, d, 51);
    double *W = random_params(p, M, 0.5, 52);
    double *G1 = alloc_doubles(p * M), *G3 = alloc_doubles(p * M), *g = alloc_doubles(p);
    ul_model_work work = {0};
    int omp_before = omp_get_max_threads(), blas_before = openblas_get_num_threads();
    openblas_set_num_threads(1);
    omp_set_num_threads(1);
    cr_assert_eq(m.ops->grad(&m, &ds, W, M, G1, &work), UL_OK);
    omp_set_num_threads(3);
    cr_assert_eq(m.ops->grad(&m, &ds, W, M, G3, &work), UL_OK);
    omp_set_num_threads(omp_before);
    cr_assert_eq(m.ops->grad(&m, &ds, W + 37 * p, 1, g, &work), UL_OK);
    openblas_set_num_threads(blas_before);
    cr_assert(memcmp(G1, G3, p * M * sizeof *G1) == 0, "1 thread and 3 threads differ");
    assert_close(g, G1 + 37 * p, p, 1e-12, "run 37 alone vs in its block");
    ul_model_work_free(&work);
    free(W);
    free(G1);
    free(G3);
    free(g);
    ul_dataset_free(&ds);
}

Test(emp_mlp, refuses_zero_hidden_units)
{
    ul_model m = ul_mlp_model(0, 0.0, INFINITY);
    ul_dataset ds = random_data(4, 3, 61);
    double w[1] = {0}, g[1];
    ul_model_work work = {0};
    cr_assert_eq(m.ops->grad(&m, &ds, w, 1, g, &work), UL_EINPUT);
    ul_model_work_free(&work);
    ul_dataset_free(&ds);
}

/* |v − tanh x| in ulps of tanh x, tanh x from MPFR at 160 bits (correctly
 * rounded there: independent of the Cephes formulas of ul_mlp_tanh).  The
 * ulp of a value in [2^(e−1), 2^e) is 2^(e−53) (mpfr_get_exp gives e). */
static double tanh_ulp_error(double x, double v)
{
    mpfr_t t;
    mpfr_init2(t, 160);
    mpfr_set_d(t, x, MPFR_RNDN);
    mpfr_tanh(t, t, MPFR_RNDN);
    long e = (long)mpfr_get_exp(t);
    mpfr_sub_d(t, t, v, MPFR_RNDN);
    mpfr_abs(t, t, MPFR_RNDN);
    mpfr_mul_2si(t, t, 53 - e, MPFR_RNDN);
    double ulps = mpfr_get_d(t, MPFR_RNDU);
    mpfr_clear(t);
    return ulps;
}

/* The network's tanh (emp/mlp.h: within 4 ulp) over |x| from 1e-300 to 30,
 * log-spaced, both signs, and at the points where its range reduction
 * switches (k = round(2|x|/ln 2) changes at |x| = (k + ½)·ln(2)/2, k = 0 …
 * 57), a few ulps either side.  Beyond: odd (bit for bit), ±0 kept, exactly
 * ±1 for |x| ≥ 20 (tanh 20 = 1 − 8.5e-18 rounds to 1), ±1 at ±∞, NaN. */
Test(emp_mlp, tanh_within_4_ulp_of_mpfr)
{
    double worst = 0, worst_x = 0;
    for (int i = 0; i <= 20000; i++) {
        double x = 1e-300 * pow(30 / 1e-300, i / 20000.0);
        double e = tanh_ulp_error(x, ul_mlp_tanh(x));
        if (e > worst)
            worst = e, worst_x = x;
        double neg = ul_mlp_tanh(-x), pos = ul_mlp_tanh(x);
        cr_assert(neg == -pos && signbit(neg), "tanh(-x) != -tanh(x) at x = %a", x);
    }
    for (int k = 0; k <= 57; k++) {
        double c = (k + 0.5) * log(2.0) / 2;
        for (int s = -4; s <= 4; s++) {
            double x = c;
            for (int t = 0; t < (s < 0 ? -s : s); t++)
                x = nextafter(x, s < 0 ? 0 : INFINITY);
            double e = tanh_ulp_error(x, ul_mlp_tanh(x));
            if (e > worst)
                worst = e, worst_x = x;
        }
    }
    cr_assert_leq(worst, 4.0, "%.3f ulp at x = %.17g", worst, worst_x);
    cr_assert_eq(ul_mlp_tanh(20.0), 1.0);
    cr_assert_eq(ul_mlp_tanh(-1e300), -1.0);
    cr_assert_eq(ul_mlp_tanh(INFINITY), 1.0);
    cr_assert_eq(ul_mlp_tanh(-INFINITY), -1.0);
    cr_assert(ul_mlp_tanh(0.0) == 0 && !signbit(ul_mlp_tanh(0.0)));
    cr_assert(ul_mlp_tanh(-0.0) == 0 && signbit(ul_mlp_tanh(-0.0)));
    cr_assert(isnan(ul_mlp_tanh(NAN)));
}

/* XOR-like data: x uniform in [−1, 1]² away from the axes (|x_k| ≥ 0.15),
 * y = sign(x0·x1).  No linear classifier through the origin (logistic
 * regression here has no bias) does better than about half: the four
 * quadrants alternate in sign. */
static ul_dataset xor_data(size_t n, uint32_t seed)
{
    ul_dataset ds = {.n = n, .d = 2, .x = alloc_doubles(2 * n), .y = alloc_doubles(n)};
    size_t i = 0;
    for (uint64_t draw = 0; i < n; draw++) {
        double u[2];
        ul_rng_uniforms(seed, 0, 0, 2 * draw, 2, u);
        double x0 = 2 * u[0] - 1, x1 = 2 * u[1] - 1;
        if (fabs(x0) < 0.15 || fabs(x1) < 0.15)
            continue;
        ds.x[2 * i] = x0;
        ds.x[2 * i + 1] = x1;
        ds.y[i] = x0 * x1 > 0 ? 1.0 : -1.0;
        i++;
    }
    return ds;
}

/* Training accuracy: y·f > 0 exactly when ℓ = log(1 + e^{−yf}) < log 2. */
static double accuracy(const ul_model *m, const ul_dataset *ds, const double *w)
{
    size_t right = 0;
    for (size_t i = 0; i < ds->n; i++)
        right += m->ops->sample_loss(m, ds->x + i * ds->d, ds->d, ds->y[i], w) < log(2.0);
    return (double)right / (double)ds->n;
}

Test(emp_mlp, hidden_layer_fits_xor_where_logreg_cannot)
{
    ul_dataset ds = xor_data(400, 71);
    ul_pngd_params par = {.eta = 0.5, .sigma = 0, .radius = INFINITY, .seed = 1};
    char err[256];

    ul_model mlp = ul_mlp_model(8, 1e-4, INFINITY);
    size_t p = mlp.ops->nparams(&mlp, ds.d), M = 2;
    double *W = random_params(p, M, 0.5, 72); /* small random start breaks symmetry */
    cr_assert_eq(ul_pngd_train(&mlp, &ds, &par, M, 0, 0, 600, W, NULL, NULL, err, sizeof err),
                 UL_OK, "%s", err);
    for (size_t j = 0; j < M; j++) {
        double acc = accuracy(&mlp, &ds, W + j * p);
        cr_assert_geq(acc, 0.9, "mlp run %zu: accuracy %g", j, acc);
    }

    ul_model lr = ul_logreg_model(1e-4, INFINITY);
    double *v = random_params(ds.d, 1, 0.5, 73);
    cr_assert_eq(ul_pngd_train(&lr, &ds, &par, 1, 0, 0, 600, v, NULL, NULL, err, sizeof err), UL_OK,
                 "%s", err);
    double acc = accuracy(&lr, &ds, v);
    cr_assert(acc > 0.35 && acc < 0.65, "logreg accuracy %g", acc);
    free(W);
    free(v);
    ul_dataset_free(&ds);
}
