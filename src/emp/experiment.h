/* src/emp/experiment.h — the unlearning experiment behind a membership-
 * inference audit: the two worlds of the game, run M at a time.
 *
 * The game (U-LiRA style; docs/noisy-gd.md "Empirical tests", docs/neural-unlearning.md, "Definition"):
 *
 *   IN  world: learn on D (which holds the target), then serve the requests
 *              u_1 … u_R, the first of which deletes the target: request s
 *              runs K unlearning steps on D_s, warm-started from the model
 *              request s − 1 released (Chien et al. 2024, Corollary 3.4,
 *              sequential unlearning; Chourasia & Shah 2023, Def 5.1).
 *   OUT world: the certificate's reference process on the final data D_R:
 *              RETRAIN     learn on D_R from a fresh start (Chien et al.,
 *                          Chourasia–Shah: the retrained model's law);
 *              CERTIFYING  learn on D_R, then the same R·K unlearning steps
 *                          on D_R (Koloskova et al.'s Ā = U(A(D_r), D_r, ∅)).
 *
 * The attacker sees one released model and must say which world it came
 * from.  Both worlds use the same learner (emp/learner.h):
 *
 *   PNGD        Langevin PNGD, projection radius R (Chien et al. 2024, eq. 1)
 *   NOISY_GD    the same with no projection (Chourasia & Shah 2023, Alg. 2)
 *   MODEL_CLIP  learning A = noisy GD with train_sigma (0: plain GD); an
 *               unlearning request clips the model to C0 (unlearn_clip) and
 *               runs K "cc1" steps Π_{C2}(w − η∇) + σξ
 *               (docs/neural-unlearning.md, "Model clipping"; C2 = radius)
 *
 * Requests.  Each request edits `batch` rows of the original data set: the
 * first holds the target, the other rows are drawn without replacement by
 * the plan's seed.  REPLACE writes a replacement row in place (features
 * N(0, I_d), scaled to norm 1 when the data were, label ±1 with probability
 * ½: the Langevin experiments' null-point replacement, docs/langevin.md,
 * "Experimental setting", normalised so that the certificate's smoothness constant still
 * holds); REMOVE deletes the rows (n shrinks).
 *
 * Randomness.  Run i of the IN world is learner run i, of the OUT world run
 * UL_EXP_OUT_RUN0 + i (emp/rng.h keys), so the worlds never share noise; the
 * initial law is N(init_mean, init_std²) per coordinate (ul_learner_init_
 * gaussian).  A run's model is a pure function of (design, plan, i): chunks
 * of any size, any order, any thread count give the same bits (at equal
 * chunk width M, see learner.h).
 */
#ifndef UL_EMP_EXPERIMENT_H
#define UL_EMP_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emp/data.h"
#include "emp/model.h"
#include "num/status.h"

#define UL_EXP_OUT_RUN0 UINT32_C(0x40000000)
#define UL_EXP_MAX_RUNS ((size_t)UL_EXP_OUT_RUN0)
#define UL_EXP_MAX_REQUESTS 16
#define UL_EXP_MAX_STEPS 100000000UL

typedef enum { UL_EXP_PNGD, UL_EXP_NOISY_GD, UL_EXP_MODEL_CLIP } ul_exp_algorithm;
typedef enum { UL_EXP_REPLACE, UL_EXP_REMOVE } ul_exp_edit;
typedef enum { UL_EXP_REF_RETRAIN, UL_EXP_REF_CERTIFYING } ul_exp_reference;

typedef struct {
    ul_exp_algorithm algorithm;
    ul_model model;
    double eta;          /* step size η */
    double sigma;        /* noise: Langevin σ (PNGD, NOISY_GD) or per-step std (MODEL_CLIP) */
    double radius;       /* PNGD: R; MODEL_CLIP: C2; INFINITY: none */
    double train_sigma;  /* MODEL_CLIP: σ of learning A (Langevin convention); else unused */
    double unlearn_clip; /* MODEL_CLIP: C0; INFINITY: none */
    double init_mean, init_std;
    size_t train_steps;   /* T */
    size_t unlearn_steps; /* K per request */
    size_t requests;      /* R ≥ 1 */
    size_t batch;         /* rows per request ≥ 1 */
    ul_exp_edit edit;
    ul_exp_reference reference;
    bool normalized; /* the data rows have norm 1 (replacements are scaled alike) */
    uint32_t seed;
} ul_exp_design;

/* The data sets of one experiment: D, the target, and D_1 … D_R. */
typedef struct {
    ul_dataset data;                       /* D (owned) */
    size_t target;                         /* the target's row in D */
    size_t *rows;                          /* requests·batch edited rows of D; rows[0] = target */
    ul_dataset after[UL_EXP_MAX_REQUESTS]; /* after[s] = D_{s+1} (owned) */
    size_t requests;
} ul_exp_plan;

/* Checks a design (each field named in the message, UL_EINPUT). */
ul_status ul_exp_design_check(const ul_exp_design *de, char *err, size_t errlen);

/* The adversarial target: the row of largest clipped per-sample gradient
 * norm (ties: larger loss, then the lower row) at the model a noiseless run
 * of the learner reaches after min(T, 1000) steps from w = init_mean·1 —
 * the point whose presence moves the model most. */
ul_status ul_exp_pick_target(const ul_exp_design *de, const ul_dataset *ds, size_t *target,
                             char *err, size_t errlen);

/* Builds the plan; takes ownership of *data (zeroed on return, also on
 * failure).  target < data->n. */
ul_status ul_exp_plan_build(ul_exp_plan *plan, const ul_exp_design *de, ul_dataset *data,
                            size_t target, char *err, size_t errlen);
void ul_exp_plan_free(ul_exp_plan *plan);

/* Runs i = run0 … run0 + M − 1 of both worlds: W_in, W_out (p×M each,
 * p = model nparams, run run0 + j in column j). */
ul_status ul_exp_run(const ul_exp_design *de, const ul_exp_plan *plan, size_t run0, size_t M,
                     double *W_in, double *W_out, char *err, size_t errlen);

#endif
