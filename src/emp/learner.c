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

/* One run's update from its direction g and its noise xi (rule of the
 * header). */
static void update_run(const ul_pngd_params *par, double nscale, size_t p, double *w,
                       const double *g, const double *xi)
{
    for (size_t q = 0; q < p; q++)
        w[q] -= par->eta * g[q];
    if (par->rule == UL_STEP_MODEL_CLIP) {
        ul_project_ball(w, p, par->radius);
        if (xi)
            for (size_t q = 0; q < p; q++)
                w[q] += nscale * xi[q];
        return;
    }
    if (xi)
        for (size_t q = 0; q < p; q++)
            w[q] += nscale * xi[q];
    ul_project_ball(w, p, par->radius);
}

ul_status ul_pngd_train(const ul_model *model, const ul_dataset *ds, const ul_pngd_params *par,
                        size_t M, uint32_t run0, uint64_t step0, size_t K, double *W,
                        ul_pngd_hook hook, void *ctx, char *err, size_t errlen)
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
    size_t p = model->ops->nparams(model, ds->d);
    int blas_threads = openblas_get_num_threads();
    double *G = malloc(p * M * sizeof *G);
    double *xi = malloc(p * M * sizeof *xi);
    ul_model_work work = {0};
    ul_status st = UL_OK;
    if (!G || !xi) {
        st = ul_fail(err, errlen, UL_EINPUT, "pngd: out of memory");
        goto done;
    }
    /* BLAS on one thread while we train (model.h, UL_EMP_RUN_BLOCK): the
     * parallelism is ours, over blocks of runs, so bits do not depend on the
     * thread count.  Restored on return. */
    openblas_set_num_threads(1);
    /* Noise standard deviation per coordinate (header: the two conventions). */
    double nscale = par->rule == UL_STEP_MODEL_CLIP ? par->sigma
                                                    : sqrt(2.0 * par->eta) * par->sigma;
    for (size_t k = 0; k < K; k++) {
        uint64_t t = step0 + k;
        st = model->ops->grad(model, ds, W, M, G, &work);
        if (st != UL_OK) {
            st = ul_fail(err, errlen, st, "pngd: gradient failed (out of memory?)");
            goto done;
        }
#pragma omp parallel for schedule(static) if (M * p >= UL_EMP_PARALLEL_MIN)
        for (size_t j = 0; j < M; j++) {
            double *xj = NULL;
            if (nscale > 0) {
                xj = xi + j * p;
                ul_rng_normals(par->seed, run0 + (uint32_t)j, t, 0, p, xj);
            }
            update_run(par, nscale, p, W + j * p, G + j * p, xj);
        }
        if (hook)
            hook(ctx, t, W, p, M);
    }
done:
    openblas_set_num_threads(blas_threads);
    free(G);
    free(xi);
    ul_model_work_free(&work);
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
