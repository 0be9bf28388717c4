/* src/emp/score.h — membership-inference scores: the higher the score, the
 * more the model looks like it came from the IN world (emp/experiment.h).
 *
 * Loss score: s(w) = −ℓ(w; x*, y*), the negated loss of the target record
 * (Yeom et al. 2018; the IN world trained on the target, so its loss tends to
 * be lower).  Needs no fitting: every run is scored.
 *
 * Gaussian likelihood-ratio score on the parameters (a LiRA-style test
 * applied to the released vector itself, Carlini et al. 2022): fit
 * N(μ_in, V) and N(μ_out, V) with one shared diagonal covariance V (the
 * pooled per-coordinate variance) on a FITTING half of the runs, then score
 * each held-out run by the log likelihood ratio
 *
 *     s(w) = Σ_k (μ_in,k − μ_out,k)/V_k · (w_k − (μ_in,k + μ_out,k)/2),
 *
 * the Neyman–Pearson statistic between the two fitted laws.  Coordinates
 * whose pooled variance is 0 (or not finite) are skipped.  Fitting on runs
 * the statistics never see keeps the threshold counts binomial, which the
 * certified bounds of stats/stats.h assume.
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
 * naming the reason (too few runs); UL_ENOMEM naming p when out of memory. */
ul_status ul_score_lr_fit(ul_score_lr *lr, const double *W_in, size_t k_in, const double *W_out,
                          size_t k_out, size_t p, char *err, size_t errlen);
void ul_score_lr_apply(const ul_score_lr *lr, const double *W, size_t k, double *scores);
void ul_score_lr_free(ul_score_lr *lr);

/* ---- LiRA --------------------------------------------------------------------
 *
 * The likelihood-ratio attack of Carlini, Chien, Nasr, Song, Terzis,
 * Tramèr, "Membership inference attacks from first principles", IEEE S&P
 * 2022 (§IV-B–C, Alg. 1), on one statistic per run: the logit-scaled
 * confidence of the target record,
 *     φ = log(p/(1 − p)),  p = e^(−ℓ)   (ℓ = its cross-entropy loss; §IV-A),
 * which for logistic regression is the margin y·wᵀx.  Per world, φ is
 * modelled as Gaussian, fitted on a FITTING part of the runs (as the
 * gaussian-lr score is), and the held-out runs are scored:
 *   online  s = log N(φ; μ_in, σ_in²) − log N(φ; μ_out, σ_out²)   (eq. 4)
 *   offline s = (φ − μ_out)/σ_out   (the one-sided test on OUT fits only;
 *           its p-value 1 − Φ(s) is monotone in s, so s ranks the same).
 * The score works at any model dimension (one number per run), unlike the
 * parameter-space gaussian-lr.  With many targets (one-run audits) fit and
 * apply per target.  Standard deviations are floored at 1e-12·max(1, |μ|)
 * so that a world whose φ never varies still gives finite scores.
 */

/* φ from a cross-entropy loss ℓ ≥ 0: −ℓ − log(−expm1(−ℓ)) (no cancellation
 * for small or large ℓ); +∞ for ℓ = 0, NAN for ℓ < 0 or NaN. */
double ul_score_logit_conf(double loss);

typedef struct {
    int online;          /* 1: online (both worlds fitted), 0: offline */
    double mu_in, sd_in; /* online only */
    double mu_out, sd_out;
} ul_score_lira;

/* Fits (two-pass mean, unbiased variance).  Online needs k_in, k_out ≥ 2;
 * offline k_out ≥ 2 (phi_in may be NULL).  UL_EINPUT names the count or a
 * non-finite φ. */
ul_status ul_score_lira_fit(ul_score_lira *f, int online, const double *phi_in, size_t k_in,
                            const double *phi_out, size_t k_out, char *err, size_t errlen);
void ul_score_lira_apply(const ul_score_lira *f, const double *phi, size_t k, double *scores);

#endif
