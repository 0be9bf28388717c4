/* src/emp/score.h — membership-inference scores: the higher the score, the
 * more the model looks like it came from the IN world (emp/experiment.h).
 *
 * Loss score: s(w) = −ℓ(w; x*, y*), the negated loss of the target record
 * (Yeom et al. 2018; the IN world trained on the target, so its loss tends to
 * be lower).  Needs no fitting: every run is scored.
 *
 * Gaussian likelihood-ratio score on the parameters (a LiRA-style test
 * applied to the released vector itself, spec/anchors.md §2): fit
 * N(μ_in, V) and N(μ_out, V) with one shared diagonal covariance V (the
 * pooled per-coordinate variance) on a FITTING half of the runs, then score
 * each held-out run by the log likelihood ratio
 *
 *     s(w) = Σ_k (μ_in,k − μ_out,k)/V_k · (w_k − (μ_in,k + μ_out,k)/2),
 *
 * the Neyman–Pearson statistic between the two fitted laws.  Coordinates
 * whose pooled variance is 0 (or not finite) are skipped.  Fitting on runs
 * the statistics never see keeps the threshold counts binomial, which the
 * certified bounds of emp/stats.h assume.
 */
#ifndef UL_EMP_SCORE_H
#define UL_EMP_SCORE_H

#include <stddef.h>

#include "emp/model.h"
#include "num/status.h"

/* scores[j] = −ℓ(W_j; x, y) for the k columns W_j (p each, column-major). */
void ul_score_loss(const ul_model *model, const double *x, size_t d, double y, const double *W,
                   size_t p, size_t k, double *scores);

/* The fitted LR test: mean difference over variance, and the midpoint. */
typedef struct {
    size_t p;
    double *weight; /* (μ_in − μ_out)/V, 0 where V is 0 */
    double *mid;    /* (μ_in + μ_out)/2 */
} ul_score_lr;

/* Fits on W_in (p×k_in) and W_out (p×k_out), k_in, k_out ≥ 2.  UL_EINPUT
 * naming the reason (too few runs, out of memory). */
ul_status ul_score_lr_fit(ul_score_lr *lr, const double *W_in, size_t k_in, const double *W_out,
                          size_t k_out, size_t p, char *err, size_t errlen);
void ul_score_lr_apply(const ul_score_lr *lr, const double *W, size_t k, double *scores);
void ul_score_lr_free(ul_score_lr *lr);

#endif
