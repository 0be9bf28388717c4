/* src/emp/model.h — models for the empirical module (docs/langevin.md, "Experimental setting").
 *
 * A model is a small vtable (ul_model_ops) plus its hyper-parameters.  Its
 * parameters for M runs side by side are a d×M matrix W stored column by
 * column: run j's vector is W + j·p (p = ops->nparams(model, d)), contiguous.
 *
 * L2-regularised logistic regression (ul_logreg_model), labels ±1:
 *
 *     ℓ(w; x, y) = log(1 + exp(−y·wᵀx))
 *     ∇ℓ         = coef·x,  coef = −y·σ(−y·wᵀx)  (σ(t) = 1/(1 + e^{−t}))
 *     clip(g, M) = g·min(1, M/‖g‖)              (M = +∞: no clipping)
 *     objective  = (1/n) Σ_i ℓ(w; x_i, y_i) + (λ/2)‖w‖²
 *     direction  = (1/n) Σ_i clip(∇ℓ_i, M) + λ·w      (the regulariser is
 *                                                       not clipped, eq. 84)
 *
 * Since ‖∇ℓ_i‖ = |coef_i|·‖x_i‖, clipping only rescales coef_i; the batched
 * direction is two GEMMs (margins X·W, then Xᵀ·C) — see ul_model_ops.grad.
 */
#ifndef UL_EMP_MODEL_H
#define UL_EMP_MODEL_H

#include <stddef.h>

#include "emp/data.h"
#include "num/status.h"

/* Loops with fewer element operations than this run on one thread: waking
 * threads costs more than small loops gain (measured: a 10-parameter
 * problem ran 10x slower with two threads on a loaded machine). */
#define UL_EMP_PARALLEL_MIN 32768

/* Runs are processed in fixed blocks of this many columns: one pair of
 * single-threaded GEMMs per block, blocks spread over OpenMP threads.  BLAS
 * kernels may split a GEMM differently for other thread counts (measured:
 * OpenBLAS 0.3.21 gives different last bits with 1 and 2 threads), so the
 * learner runs BLAS on one thread (ul_pngd_train) and a block's arithmetic
 * never depends on the thread count. */
#define UL_EMP_RUN_BLOCK 32

typedef struct ul_model ul_model;

/* A per-row statistic of a data set (e.g. ‖x‖): see ul_model_work_rows. */
typedef double (*ul_row_stat)(const double *x, size_t d);

/* Scratch that a model's grad may reuse across calls (owned by the caller,
 * zero-initialise, free with ul_model_work_free).  It also caches one
 * per-row statistic of the data set it last served; so a work belongs to
 * one unmodified data set (ul_pngd_train_work, which keeps one across
 * calls, drops the cache at every call: the data may have changed). */
typedef struct {
    double *buf;
    size_t cap;            /* doubles */
    double *rows;          /* the cached statistic, one per row */
    const double *rows_x;  /* … of this data matrix, */
    size_t rows_n, rows_d; /* … of this shape, */
    ul_row_stat rows_stat; /* … by this function */
} ul_model_work;

void ul_model_work_free(ul_model_work *w);

/* The scratch grown to at least n doubles (contents not kept); NULL when
 * out of memory. */
double *ul_model_work_get(ul_model_work *w, size_t n);

/* stat(x_i, d) for every row of ds, computed on the first call for this
 * (data set, stat) and cached in w afterwards (the data term of a step
 * needs them at every step; they do not change).  NULL when out of memory. */
const double *ul_model_work_rows(ul_model_work *w, const ul_dataset *ds, ul_row_stat stat);

typedef struct {
    const char *name;
    /* Number of parameters p for d input features. */
    size_t (*nparams)(const ul_model *m, size_t d);
    /* G (p×M, column-major like W) = the update direction (clipped data
     * gradient + regulariser) of each of the M columns of W on ds.
     * UL_EINPUT for sizes out of its range, UL_ENOMEM when its scratch
     * (sized by n, d, M: the input's) cannot be allocated. */
    ul_status (*grad)(const ul_model *m, const ul_dataset *ds, const double *W, size_t M, double *G,
                      ul_model_work *work);
    /* The objective (unclipped loss mean + regulariser) at one vector w. */
    double (*objective)(const ul_model *m, const ul_dataset *ds, const double *w);
    /* g (p) = clip(∇ℓ(w; x, y), M): one clipped per-sample data gradient
     * (no regulariser), x of length d. */
    void (*sample_grad)(const ul_model *m, const double *x, size_t d, double y, const double *w,
                        double *g);
    /* The unclipped, unregularised loss ℓ(w; x, y) of one sample: the
     * membership-inference loss score (emp/attack.h). */
    double (*sample_loss)(const ul_model *m, const double *x, size_t d, double y, const double *w);
} ul_model_ops;

struct ul_model {
    const ul_model_ops *ops;
    double lambda; /* L2 weight λ ≥ 0 */
    double clip;   /* per-sample gradient clip M > 0 (INFINITY: none) */
    size_t hidden; /* hidden units (models with a hidden layer; 0 otherwise) */
};

extern const ul_model_ops ul_logreg_ops;

/* A logistic-regression model (λ ≥ 0, clip > 0 or INFINITY). */
ul_model ul_logreg_model(double lambda, double clip);

/* Numerically stable helpers (exposed for tests). */
double ul_sigmoid(double t);  /* 1/(1 + e^{−t}) */
double ul_log1pexp(double t); /* log(1 + e^{t}) */

#endif
