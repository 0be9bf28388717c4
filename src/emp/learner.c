/* src/emp/learner.c — noisy GD for M runs per GEMM, runs spread over
 * OpenMP threads. */
#include "emp/learner.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emp/rng.h"

void ul_project_ball(double *w, size_t p, double radius)
{
    if (!(radius < INFINITY))
        return;
    double nrm = cblas_dnrm2((int)p, w, 1);
    if (nrm > radius) {
        double s = radius / nrm;
        for (size_t k = 0; k < p; k++)
            w[k] *= s;
    }
}

void ul_learner_init_gaussian(double *W, size_t p, size_t M, uint32_t seed, uint32_t run0,
                              double mean, double std)
{
#pragma omp parallel for schedule(static) if (M * p >= UL_EMP_PARALLEL_MIN)
    for (size_t j = 0; j < M; j++) {
        double *w = W + j * p;
        ul_rng_normals(seed, run0 + (uint32_t)j, UL_STEP_INIT, 0, p, w);
        for (size_t k = 0; k < p; k++)
            w[k] = mean + std * w[k];
    }
}

/* Noise is drawn NOISE_CHUNK numbers at a time into a buffer on the stack
 * and added at once (ul_rng_normals: any chunks give the same bits), not
 * into a p×M array: 16·p·M fewer bytes written and read per step (12.9 MB
 * for the network of bench_learner), and no allocation.  Even, so chunks
 * start at Box–Muller pair boundaries. */
enum { NOISE_CHUNK = 512 };

/* w[q] += nscale·ξ_q for q < p, ξ = the noise of (seed, run, t). */
static void add_noise(const ul_pngd_params *par, uint32_t run, uint64_t t, double nscale, size_t p,
                      double *w)
{
    double xi[NOISE_CHUNK];
    for (size_t q0 = 0; q0 < p; q0 += NOISE_CHUNK) {
        size_t len = p - q0 < NOISE_CHUNK ? p - q0 : NOISE_CHUNK;
        ul_rng_normals(par->seed, run, t, q0, len, xi);
        for (size_t q = 0; q < len; q++)
            w[q0 + q] += nscale * xi[q];
    }
}

/* One run's update from its direction g at step t (rule of the header); no
 * noise when nscale = 0.  The same operations, element by element, as the
 * descent and the noise in two passes. */
static void update_run(const ul_pngd_params *par, uint32_t run, uint64_t t, double nscale,
                       size_t p, double *w, const double *g)
{
    for (size_t q = 0; q < p; q++)
        w[q] -= par->eta * g[q];
    if (par->rule == UL_STEP_MODEL_CLIP) {
        ul_project_ball(w, p, par->radius);
        if (nscale > 0)
            add_noise(par, run, t, nscale, p, w);
        return;
    }
    if (nscale > 0)
        add_noise(par, run, t, nscale, p, w);
    ul_project_ball(w, p, par->radius);
}

static ul_status pngd_check(const ul_model *model, const ul_dataset *ds, const ul_pngd_params *par,
                            size_t M, uint32_t run0, const double *W, char *err, size_t errlen)
{
    if (!model || !model->ops || !ds || !par || !W)
        return ul_fail(err, errlen, UL_EINPUT, "pngd: NULL argument");
    if (ds->n == 0 || ds->d == 0 || M == 0)
        return ul_fail(err, errlen, UL_EINPUT, "pngd: empty data set or M = 0");
    if (!(par->eta > 0) || !(par->sigma >= 0) || !(par->radius > 0) || isnan(par->radius) ||
        !isfinite(par->eta) || !isfinite(par->sigma))
        return ul_fail(err, errlen, UL_EINPUT, "pngd: need finite eta > 0, sigma >= 0, radius > 0");
    if (par->rule != UL_STEP_PNGD && par->rule != UL_STEP_MODEL_CLIP)
        return ul_fail(err, errlen, UL_EINPUT, "pngd: unknown step rule %d", (int)par->rule);
    if ((uint64_t)run0 + M - 1 > UINT32_MAX - 1)
        return ul_fail(err, errlen, UL_EINPUT, "pngd: run numbers overflow");
    return UL_OK;
}

void ul_pngd_work_free(ul_pngd_work *w)
{
    if (!w)
        return;
    free(w->G);
    ul_model_work_free(&w->model);
    *w = (ul_pngd_work){0};
}

ul_status ul_pngd_train_work(const ul_model *model, const ul_dataset *ds,
                             const ul_pngd_params *par, size_t M, uint32_t run0, uint64_t step0,
                             size_t K, double *W, ul_pngd_hook hook, void *ctx,
                             ul_pngd_work *work, char *err, size_t errlen)
{
    ul_status st = pngd_check(model, ds, par, M, run0, W, err, errlen);
    if (st != UL_OK)
        return st;
    if (!work)
        return ul_fail(err, errlen, UL_EINPUT, "pngd: NULL argument");
    size_t p = model->ops->nparams(model, ds->d);
    if (work->G_cap < p * M) {
        double *G = realloc(work->G, p * M * sizeof *G);
        if (!G) /* M runs x p: the input's (policy: num/status.h) */
            return ul_fail(err, errlen, UL_ENOMEM,
                           "pngd: out of memory for the gradients of %zu runs x %zu parameters", M,
                           p);
        work->G = G, work->G_cap = p * M;
    }
    /* the data may have changed since the last call (an unlearning
     * replaces a row in place): its per-row statistics are recomputed */
    work->model.rows_x = NULL;
    int blas_threads = openblas_get_num_threads();
    /* BLAS on one thread while we train (model.h, UL_EMP_RUN_BLOCK): the
     * parallelism is ours, over blocks of runs, so bits do not depend on the
     * thread count.  Restored on return. */
    openblas_set_num_threads(1);
    /* Noise standard deviation per coordinate (header: the two conventions). */
    double nscale = par->rule == UL_STEP_MODEL_CLIP ? par->sigma
                                                    : sqrt(2.0 * par->eta) * par->sigma;
    double *G = work->G;
    for (size_t k = 0; k < K && st == UL_OK; k++) {
        uint64_t t = step0 + k;
        st = model->ops->grad(model, ds, W, M, G, &work->model);
        if (st != UL_OK) {
            st = st == UL_ENOMEM
                     ? ul_fail(err, errlen, st,
                               "pngd: out of memory for the gradient's scratch (%zu runs x %zu "
                               "parameters, %zu rows)",
                               M, p, ds->n)
                     : ul_fail(err, errlen, st,
                               "pngd: gradient failed (sizes beyond the model's range)");
            break;
        }
#pragma omp parallel for schedule(static) if (M * p >= UL_EMP_PARALLEL_MIN)
        for (size_t j = 0; j < M; j++)
            update_run(par, run0 + (uint32_t)j, t, nscale, p, W + j * p, G + j * p);
        if (hook)
            hook(ctx, t, W, p, M);
    }
    openblas_set_num_threads(blas_threads);
    return st;
}

ul_status ul_pngd_train(const ul_model *model, const ul_dataset *ds, const ul_pngd_params *par,
                        size_t M, uint32_t run0, uint64_t step0, size_t K, double *W,
                        ul_pngd_hook hook, void *ctx, char *err, size_t errlen)
{
    ul_pngd_work work = {0};
    ul_status st =
        ul_pngd_train_work(model, ds, par, M, run0, step0, K, W, hook, ctx, &work, err, errlen);
    ul_pngd_work_free(&work);
    return st;
}

ul_status ul_pngd_unlearn_replace(const ul_model *model, ul_dataset *ds, size_t row,
                                  const double *x_new, double y_new, const ul_pngd_params *par,
                                  size_t M, uint32_t run0, uint64_t step0, size_t K, double *W,
                                  ul_pngd_hook hook, void *ctx, char *err, size_t errlen)
{
    if (!ds || !x_new)
        return ul_fail(err, errlen, UL_EINPUT, "pngd unlearn: NULL argument");
    if (row >= ds->n)
        return ul_fail(err, errlen, UL_EINPUT, "pngd unlearn: row %zu out of range (n = %zu)",
                       row, ds->n);
    memmove(ds->x + row * ds->d, x_new, ds->d * sizeof *x_new);
    ds->y[row] = y_new;
    return ul_pngd_train(model, ds, par, M, run0, step0, K, W, hook, ctx, err, errlen);
}
