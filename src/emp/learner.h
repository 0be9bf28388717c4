/* src/emp/learner.h — noisy gradient descent for M runs side by side: the
 * learners and unlearners of the papers (Chien et al. 2024, eqs. (1)-(2),
 * docs/noisy-gd.md "Algorithm and prescriptions", docs/neural-unlearning.md, "Model clipping").
 *
 * One step t of run r (global run number run0 + j) with parameters w and
 * update direction g(w) (ul_model_ops.grad: clipped data gradient + λw):
 *
 *   UL_STEP_PNGD (Langevin PNGD eq. (1)/(2); Noisy-GD Alg. 2 when R = ∞):
 *     w ← Π_R( w − η·g(w) + √(2ησ²)·ξ )            noise VARIANCE 2ησ²
 *   UL_STEP_MODEL_CLIP (Koloskova et al. "cc1", docs/neural-unlearning.md, "Model clipping"):
 *     w ← Π_R( w − η·g(w) ) + σ·ξ                  noise VARIANCE σ²
 *
 * ξ_k = ul_rng_normal(seed, r, t, k) and Π_R is the projection onto the ℓ2
 * ball of radius R (R = INFINITY: none).  Note the two σ conventions: the
 * Langevin/Noisy-GD σ is scaled by √(2η), Koloskova's σ is the per-step
 * standard deviation itself (as in their theorems and code).
 *
 * The M runs share one GEMM per matrix product; run r's noise depends only
 * on (seed, r, t), and the per-run updates are spread over OpenMP threads
 * with no cross-run arithmetic, so a run's result does not depend on the
 * thread count.  It can depend, in the last bits, on M (BLAS kernels may
 * order a dot product differently for other matrix widths): compare runs
 * bit for bit only at equal M.
 *
 * W is p×M column-major (run j at W + j·p), as in emp/model.h.
 */
#ifndef UL_EMP_LEARNER_H
#define UL_EMP_LEARNER_H

#include <stddef.h>
#include <stdint.h>

#include "emp/data.h"
#include "emp/model.h"
#include "num/status.h"

typedef enum {
    UL_STEP_PNGD = 0,   /* project after the noise; noise √(2ησ²)·ξ */
    UL_STEP_MODEL_CLIP, /* project before the noise; noise σ·ξ */
} ul_step_rule;

typedef struct {
    double eta;    /* step size η > 0 */
    double sigma;  /* noise scale σ ≥ 0 (its meaning depends on rule) */
    double radius; /* projection radius R > 0 (INFINITY: none) */
    uint32_t seed;
    ul_step_rule rule; /* zero-initialised: UL_STEP_PNGD */
} ul_pngd_params;

/* The step number reserved for initial draws (ul_learner_init_gaussian), so
 * that no learning step shares a stream with the initialisation. */
#define UL_STEP_INIT UINT64_MAX

/* Column j of W (p×M) = mean + std·ξ, ξ_k = ul_rng_normal(seed, run0 + j,
 * UL_STEP_INIT, k): the Gaussian initialisation ρ = N(mean, std²I) of the
 * papers (docs/langevin.md, "Experimental setting", Chourasia & Shah 2023, Def 5.1). */
void ul_learner_init_gaussian(double *W, size_t p, size_t M, uint32_t seed, uint32_t run0,
                              double mean, double std);

/* Called after every step with the new W (may be NULL in ul_pngd_run). */
typedef void (*ul_pngd_hook)(void *ctx, uint64_t step, const double *W, size_t p, size_t M);

/* Runs K steps, numbered step0 … step0 + K − 1, of runs run0 … run0 + M − 1,
 * updating W (p×M) in place from the given start.  hook may be NULL. */
ul_status ul_pngd_train(const ul_model *model, const ul_dataset *ds, const ul_pngd_params *par,
                        size_t M, uint32_t run0, uint64_t step0, size_t K, double *W,
                        ul_pngd_hook hook, void *ctx, char *err, size_t errlen);

/* The scratch of ul_pngd_train_work (the directions G, p×M, and the
 * model's ul_model_work), kept between calls so that a caller training in
 * many short calls allocates (and page-faults in) once: zero-initialise,
 * free with ul_pngd_work_free.  Any model, data set and M may follow each
 * other (per-row statistics are recomputed at every call). */
typedef struct {
    double *G;
    size_t G_cap; /* doubles */
    ul_model_work model;
} ul_pngd_work;

void ul_pngd_work_free(ul_pngd_work *w);

/* ul_pngd_train with the caller's scratch (the same steps, the same bits). */
ul_status ul_pngd_train_work(const ul_model *model, const ul_dataset *ds,
                             const ul_pngd_params *par, size_t M, uint32_t run0, uint64_t step0,
                             size_t K, double *W, ul_pngd_hook hook, void *ctx,
                             ul_pngd_work *work, char *err, size_t errlen);

/* Unlearning by replacement: row `row` of ds becomes (x_new, y_new) — ds is
 * modified in place — then K steps step0 … step0 + K − 1 continue from W on
 * the new data (step0 is normally the number of training steps done). */
ul_status ul_pngd_unlearn_replace(const ul_model *model, ul_dataset *ds, size_t row,
                                  const double *x_new, double y_new, const ul_pngd_params *par,
                                  size_t M, uint32_t run0, uint64_t step0, size_t K, double *W,
                                  ul_pngd_hook hook, void *ctx, char *err, size_t errlen);

/* w ← w·min(1, R/‖w‖) (projection onto the ball of radius R). */
void ul_project_ball(double *w, size_t p, double radius);

#endif
