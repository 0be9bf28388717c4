/* src/emp/learner.h — projected noisy gradient descent for M runs side by side
 * (spec/langevin.md §3, §6.2).
 *
 * One step t of run r (global run number run0 + j) with parameters w:
 *
 *     w ← Π_R( w − η·g(w) + √(2ησ²)·ξ ),   ξ_k = ul_rng_normal(seed, r, t, k)
 *
 * where g is the model's update direction (ul_model_ops.grad) and Π_R the
 * projection onto the ℓ2 ball of radius R (R = INFINITY: Noisy-GD, no
 * projection).  The M runs share one GEMM per matrix product; run r's noise
 * depends only on (seed, r, t), so the result for a run does not depend on M,
 * on how the runs are cut into chunks (pass run0), or on the thread count.
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

typedef struct {
    double eta;    /* step size η > 0 */
    double sigma;  /* noise scale σ ≥ 0 */
    double radius; /* projection radius R > 0 (INFINITY: none) */
    uint32_t seed;
} ul_pngd_params;

/* Called after every step with the new W (may be NULL in ul_pngd_run). */
typedef void (*ul_pngd_hook)(void *ctx, uint64_t step, const double *W, size_t p, size_t M);

/* Runs K steps, numbered step0 … step0 + K − 1, of runs run0 … run0 + M − 1,
 * updating W (p×M) in place from the given start.  hook may be NULL. */
ul_status ul_pngd_train(const ul_model *model, const ul_dataset *ds, const ul_pngd_params *par,
                        size_t M, uint32_t run0, uint64_t step0, size_t K, double *W,
                        ul_pngd_hook hook, void *ctx, char *err, size_t errlen);

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
