/* src/emp/experiment.c — the two worlds of the unlearning game. */
#include "emp/experiment.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emp/learner.h"
#include "emp/rng.h"

/* Philox steps of the UL_RNG_RUN_DATA stream used by the plan (step 0 is
 * the synthetic data's). */
#define STEP_PICK_ROWS ((UINT64_C(1) << 32) + 1)
#define STEP_REPL_X ((UINT64_C(1) << 32) + 2)
#define STEP_REPL_Y ((UINT64_C(1) << 32) + 3)

/* Steps of the noiseless pilot run that chooses an adversarial target. */
#define PILOT_STEPS 1000

ul_status ul_exp_design_check(const ul_exp_design *de, char *err, size_t errlen)
{
    if (!de || !de->model.ops)
        return ul_fail(err, errlen, UL_EINPUT, "experiment: no model");
    if (!(de->eta > 0) || !isfinite(de->eta))
        return ul_fail(err, errlen, UL_EINPUT, "learner.eta: must be a finite number > 0");
    if (!(de->sigma >= 0) || !isfinite(de->sigma))
        return ul_fail(err, errlen, UL_EINPUT, "learner.sigma: must be a finite number >= 0");
    if (!(de->radius > 0))
        return ul_fail(err, errlen, UL_EINPUT, "learner.radius: must be > 0 (or absent: none)");
    if (!(de->train_sigma >= 0) || !isfinite(de->train_sigma))
        return ul_fail(err, errlen, UL_EINPUT, "learner.train_sigma: must be finite and >= 0");
    if (!(de->unlearn_clip > 0))
        return ul_fail(err, errlen, UL_EINPUT, "learner.c0: must be > 0 (or absent: none)");
    if (!isfinite(de->init_mean) || !(de->init_std >= 0) || !isfinite(de->init_std))
        return ul_fail(err, errlen, UL_EINPUT,
                       "learner.init: mean must be finite and std finite and >= 0");
    if (de->train_steps > UL_EXP_MAX_STEPS || de->unlearn_steps > UL_EXP_MAX_STEPS)
        return ul_fail(err, errlen, UL_EINPUT, "learner.train_steps / unlearn_steps: at most %lu",
                       UL_EXP_MAX_STEPS);
    if (de->requests < 1 || de->requests > UL_EXP_MAX_REQUESTS)
        return ul_fail(err, errlen, UL_EINPUT, "unlearning.requests: must be 1 to %d",
                       UL_EXP_MAX_REQUESTS);
    if (de->batch < 1)
        return ul_fail(err, errlen, UL_EINPUT, "unlearning.batch: must be >= 1");
    return UL_OK;
}

/* Learner parameters of the learning phase and of an unlearning request. */
static ul_pngd_params learn_params(const ul_exp_design *de)
{
    ul_pngd_params p = {.eta = de->eta,
                        .sigma = de->sigma,
                        .radius = de->radius,
                        .seed = de->seed,
                        .rule = UL_STEP_PNGD};
    if (de->algorithm == UL_EXP_NOISY_GD)
        p.radius = INFINITY;
    if (de->algorithm == UL_EXP_MODEL_CLIP) {
        p.sigma = de->train_sigma;
        p.radius = INFINITY;
    }
    return p;
}

static ul_pngd_params unlearn_params(const ul_exp_design *de)
{
    ul_pngd_params p = learn_params(de);
    if (de->algorithm == UL_EXP_MODEL_CLIP) {
        p.sigma = de->sigma;
        p.radius = de->radius;
        p.rule = UL_STEP_MODEL_CLIP;
    }
    return p;
}

ul_status ul_exp_pick_target(const ul_exp_design *de, const ul_dataset *ds, size_t *target,
                             char *err, size_t errlen)
{
    ul_status st = ul_exp_design_check(de, err, errlen);
    if (st != UL_OK)
        return st;
    size_t p = de->model.ops->nparams(&de->model, ds->d);
    double *w = malloc(p * sizeof *w), *g = malloc(p * sizeof *g);
    if (!w || !g) { /* the model's parameter count (policy: num/status.h) */
        free(w), free(g);
        return ul_fail(err, errlen, UL_ENOMEM,
                       "experiment: out of memory for a model of %zu parameters", p);
    }
    for (size_t k = 0; k < p; k++)
        w[k] = de->init_mean;
    ul_pngd_params par = learn_params(de);
    par.sigma = 0;
    size_t steps = de->train_steps < PILOT_STEPS ? de->train_steps : PILOT_STEPS;
    st = ul_pngd_train(&de->model, ds, &par, 1, 0, 0, steps, w, NULL, NULL, err, errlen);
    if (st == UL_OK) {
        double best_norm = -1, best_loss = -INFINITY;
        size_t best = 0;
        for (size_t i = 0; i < ds->n; i++) {
            const double *x = ds->x + i * ds->d;
            de->model.ops->sample_grad(&de->model, x, ds->d, ds->y[i], w, g);
            double nrm = cblas_dnrm2((int)p, g, 1);
            double loss = de->model.ops->sample_loss(&de->model, x, ds->d, ds->y[i], w);
            if (nrm > best_norm || (nrm == best_norm && loss > best_loss)) {
                best_norm = nrm, best_loss = loss, best = i;
            }
        }
        *target = best;
    }
    free(w), free(g);
    return st;
}

void ul_exp_plan_free(ul_exp_plan *plan)
{
    if (!plan)
        return;
    ul_dataset_free(&plan->data);
    for (size_t s = 0; s < UL_EXP_MAX_REQUESTS; s++)
        ul_dataset_free(&plan->after[s]);
    free(plan->rows);
    memset(plan, 0, sizeof *plan);
}

/* The rows of in not dropped, into out: the data set after request s
 * (its size the input's: UL_ENOMEM naming it, num/status.h). */
static ul_status copy_rows(ul_dataset *out, const ul_dataset *in, const unsigned char *drop,
                           size_t s, char *err, size_t errlen)
{
    size_t keep = 0;
    for (size_t i = 0; i < in->n; i++)
        keep += !drop || !drop[i];
    out->n = keep, out->d = in->d;
    out->x = malloc((keep ? keep : 1) * in->d * sizeof *out->x);
    out->y = malloc((keep ? keep : 1) * sizeof *out->y);
    if (!out->x || !out->y) {
        ul_dataset_free(out);
        return ul_fail(err, errlen, UL_ENOMEM,
                       "experiment: out of memory for the data after request %zu (%zu x %zu "
                       "values)",
                       s + 1, keep, in->d);
    }
    for (size_t i = 0, k = 0; i < in->n; i++) {
        if (drop && drop[i])
            continue;
        memcpy(out->x + k * in->d, in->x + i * in->d, in->d * sizeof *in->x);
        out->y[k++] = in->y[i];
    }
    return UL_OK;
}

/* Replacement row number k (features and label; see the header). */
static void replacement_row(const ul_exp_design *de, size_t d, size_t k, double *x, double *y)
{
    ul_rng_normals(de->seed, UL_RNG_RUN_DATA, STEP_REPL_X, (uint64_t)k * d, d, x);
    if (de->normalized) {
        double nrm = cblas_dnrm2((int)d, x, 1);
        if (nrm > 0)
            for (size_t j = 0; j < d; j++)
                x[j] /= nrm;
    }
    *y = ul_rng_uniform(de->seed, UL_RNG_RUN_DATA, STEP_REPL_Y, k) < 0.5 ? -1.0 : 1.0;
}

ul_status ul_exp_plan_build(ul_exp_plan *plan, const ul_exp_design *de, ul_dataset *data,
                            size_t target, char *err, size_t errlen)
{
    memset(plan, 0, sizeof *plan);
    plan->data = *data;
    memset(data, 0, sizeof *data);
    ul_status st = ul_exp_design_check(de, err, errlen);
    if (st != UL_OK)
        goto fail;
    size_t n = plan->data.n, d = plan->data.d, edits = de->requests * de->batch;
    if (target >= n) {
        st = ul_fail(err, errlen, UL_EINPUT, "target: row %zu out of range (n = %zu)", target, n);
        goto fail;
    }
    if (edits >= n) {
        st =
            ul_fail(err, errlen, UL_EINPUT,
                    "unlearning: requests x batch = %zu rows must be fewer than n = %zu", edits, n);
        goto fail;
    }
    plan->target = target;
    plan->requests = de->requests;
    plan->rows = malloc(edits * sizeof *plan->rows);
    unsigned char *taken = calloc(n, 1);
    double *xr = malloc(d * sizeof *xr);
    if (!plan->rows || !taken || !xr) { /* n rows, requests x batch edits: the input's */
        free(taken), free(xr);
        st = ul_fail(err, errlen, UL_ENOMEM,
                     "experiment: out of memory for a plan of %zu edits of %zu rows of %zu "
                     "values",
                     edits, n, d);
        goto fail;
    }
    /* Rows without replacement: the target, then uniform draws, rejecting
     * rows already taken (edits < n, so this ends). */
    plan->rows[0] = target;
    taken[target] = 1;
    for (size_t k = 1, u = 0; k < edits; u++) {
        size_t i =
            (size_t)(ul_rng_uniform(de->seed, UL_RNG_RUN_DATA, STEP_PICK_ROWS, u) * (double)n);
        if (i >= n)
            i = n - 1;
        if (!taken[i]) {
            taken[i] = 1;
            plan->rows[k++] = i;
        }
    }
    memset(taken, 0, n);
    for (size_t s = 0; s < de->requests && st == UL_OK; s++) {
        const size_t *rows = plan->rows + s * de->batch;
        if (de->edit == UL_EXP_REMOVE) {
            for (size_t k = 0; k < de->batch; k++)
                taken[rows[k]] = 1;
            st = copy_rows(&plan->after[s], &plan->data, taken, s, err, errlen);
        } else {
            const ul_dataset *prev = s ? &plan->after[s - 1] : &plan->data;
            st = copy_rows(&plan->after[s], prev, NULL, s, err, errlen);
            for (size_t k = 0; st == UL_OK && k < de->batch; k++) {
                size_t i = rows[k];
                replacement_row(de, d, s * de->batch + k, xr, &plan->after[s].y[i]);
                memcpy(plan->after[s].x + i * d, xr, d * sizeof *xr);
            }
        }
    }
    free(taken), free(xr);
    if (st == UL_OK)
        return UL_OK;
fail:
    ul_exp_plan_free(plan);
    return st;
}

/* Unlearning request s (0-based) for the columns of W, warm-started. */
static ul_status serve_request(const ul_exp_design *de, const ul_dataset *ds, uint32_t run0,
                               size_t M, size_t s, double *W, char *err, size_t errlen)
{
    size_t p = de->model.ops->nparams(&de->model, ds->d);
    if (de->algorithm == UL_EXP_MODEL_CLIP)
        for (size_t j = 0; j < M; j++)
            ul_project_ball(W + j * p, p, de->unlearn_clip);
    ul_pngd_params par = unlearn_params(de);
    uint64_t step0 = de->train_steps + (uint64_t)s * de->unlearn_steps;
    return ul_pngd_train(&de->model, ds, &par, M, run0, step0, de->unlearn_steps, W, NULL, NULL,
                         err, errlen);
}

/* Runs run0 … run0 + M − 1 of both worlds, start to end (ul_exp_run). */
static ul_status run_block(const ul_exp_design *de, const ul_exp_plan *plan, size_t run0, size_t M,
                           double *W_in, double *W_out, char *err, size_t errlen)
{
    ul_status st;
    size_t p = de->model.ops->nparams(&de->model, plan->data.d);
    uint32_t in0 = (uint32_t)run0, out0 = UL_EXP_OUT_RUN0 + (uint32_t)run0;
    ul_pngd_params lp = learn_params(de);
    const ul_dataset *final = &plan->after[de->requests - 1];

    /* IN: learn on D, then the requests in order. */
    ul_learner_init_gaussian(W_in, p, M, de->seed, in0, de->init_mean, de->init_std);
    st = ul_pngd_train(&de->model, &plan->data, &lp, M, in0, 0, de->train_steps, W_in, NULL, NULL,
                       err, errlen);
    for (size_t s = 0; st == UL_OK && s < de->requests; s++)
        st = serve_request(de, &plan->after[s], in0, M, s, W_in, err, errlen);
    if (st != UL_OK)
        return st;

    /* OUT: learn on D_R from a fresh start, then (certifying) the same
     * number of unlearning steps on D_R. */
    ul_learner_init_gaussian(W_out, p, M, de->seed, out0, de->init_mean, de->init_std);
    st = ul_pngd_train(&de->model, final, &lp, M, out0, 0, de->train_steps, W_out, NULL, NULL, err,
                       errlen);
    if (de->reference == UL_EXP_REF_CERTIFYING)
        for (size_t s = 0; st == UL_OK && s < de->requests; s++)
            st = serve_request(de, final, out0, M, s, W_out, err, errlen);
    return st;
}

/* Blocks of UL_EMP_RUN_BLOCK runs go to the OpenMP threads whole: each
 * thread trains its block through every step with no barrier in between
 * (a barrier per step made a second thread cost more than it gave on the
 * loaded 2-core machine, tests/bench/bench_attack.c).  The blocks are
 * fixed, so a run's bits do not depend on the thread count; with one block
 * the data term is parallel inside the gradient (emp/model.c) instead. */
ul_status ul_exp_run(const ul_exp_design *de, const ul_exp_plan *plan, size_t run0, size_t M,
                     double *W_in, double *W_out, char *err, size_t errlen)
{
    ul_status st = ul_exp_design_check(de, err, errlen);
    if (st != UL_OK)
        return st;
    if (M == 0 || run0 + M > UL_EXP_MAX_RUNS || plan->requests != de->requests)
        return ul_fail(err, errlen, UL_EINPUT, "experiment: runs %zu..%zu out of range", run0,
                       run0 + M);
    size_t p = de->model.ops->nparams(&de->model, plan->data.d);
    size_t blocks = (M + UL_EMP_RUN_BLOCK - 1) / UL_EMP_RUN_BLOCK;
    if (blocks == 1)
        return run_block(de, plan, run0, M, W_in, W_out, err, errlen);
    /* BLAS on one thread before the threads start: ul_pngd_train sets and
     * restores it per call, which would race if it restored another count */
    int blas_threads = openblas_get_num_threads();
    openblas_set_num_threads(1);
#pragma omp parallel for schedule(dynamic, 1)
    for (size_t b = 0; b < blocks; b++) {
        size_t j0 = b * UL_EMP_RUN_BLOCK, mb = M - j0 < UL_EMP_RUN_BLOCK ? M - j0 : UL_EMP_RUN_BLOCK;
        char e[512];
        ul_status s = run_block(de, plan, run0 + j0, mb, W_in + j0 * p, W_out + j0 * p, e, sizeof e);
        if (s != UL_OK) {
#pragma omp critical(ul_exp_run_error)
            if (st == UL_OK) {
                st = s;
                snprintf(err, errlen, "%s", e);
            }
        }
    }
    openblas_set_num_threads(blas_threads);
    return st;
}
