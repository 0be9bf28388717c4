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
 * the Neyman–Pearson statistic between the two fitted laws.  A coordinate
 * whose pooled spread is zero at the data's resolution (ul_score_floor_sd)
 * but whose means differ separates the fitted runs perfectly, the strongest
 * evidence: its variance is floored at (gap/8)², gap = |μ_in,k − μ_out,k|,
 * so it counts ±32 at the fitted means instead of being skipped (the old
 * weight 0 gave AUC 0.5 on perfectly separable runs).  Coordinates whose
 * spread and gap are both zero (or whose variance is not finite) carry no
 * evidence and are skipped.  Fitting on runs
 * the statistics never see keeps the threshold counts binomial, which the
 * certified bounds of stats/stats.h assume.
 */
#ifndef UL_EMP_SCORE_H
#define UL_EMP_SCORE_H

#include <stddef.h>

#include "emp/model.h"
#include "num/status.h"

/* A fitted standard deviation sd of mean mu, floored when it is zero at the
 * data's resolution (sd ≤ 1e-12·|mu|, far above the rounding of the fit):
 * the spread of such a fit is no evidence of a spread, and the score's limit
 * as σ → 0 (±∞ log ratios) ranks the runs like a Gaussian ratio whose σ is
 * small against the gap between the worlds' means.  Returns sd when it is
 * not degenerate; else max(|mu − mu_other|, s)/8, s = sd_other when
 * other_known and sd_other is not degenerate, else 0; when that is 0 too (no
 * gap, no spread: no evidence), 1 if other_known, else 0.  With gap/8 the two
 * fitted laws keep their means 8 floored deviations apart, so runs the fit
 * saw separated stay separated and the log ratio at a world's mean is
 * ±0.5·8² = ±32 (finite thresholds, not the ±1e19 of a 1e-12 floor). */
double ul_score_floor_sd(double sd, double mu, double mu_other, double sd_other, int other_known);

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
/* The fit from per-coordinate moments (lr->p, weight and mid allocated):
 * means mi, mo and sums of squared deviations si, so; dof = k_in + k_out −
 * 2 divides the pooled sum.  What ul_score_lr_fit does after its moments,
 * and the shards' fit from their merged moments (emp/shard.c). */
void ul_score_lr_set(ul_score_lr *lr, const double *mi, const double *si, const double *mo,
                     const double *so, size_t dof);
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
 * apply per target.  A world whose φ never varies (σ zero at the data's
 * resolution: a separable, e.g. noiseless, learner) is the strongest
 * evidence, not none: online its σ is floored by ul_score_floor_sd (gap/8),
 * so separable fitted worlds score about ±32 and stay ranked apart (AUC 1,
 * finite thresholds); offline a zero σ_out becomes 1 ((φ − μ_out)/σ ranks
 * the runs alike for every σ > 0: the scores are then in φ's units).
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

/* ---- RMIA --------------------------------------------------------------------
 *
 * The relative membership inference attack of Zarifzadeh, Liu, Shokri,
 * Shokri, "Low-cost high-power membership inference attacks", ICML 2024,
 * §3: the pairwise likelihood ratio of the target x against a population
 * record z,
 *     LR_θ(x, z) = (Pr(x|θ)/Pr(x)) / (Pr(z|θ)/Pr(z))      (their Bayes step,
 *                                                         §3, eq. for LR_θ)
 * and the score
 *     Score_MIA(x; θ) = Pr_{z∼π}[LR_θ(x, z) ≥ γ],
 * estimated over m population records z_1 … z_m.  Pr(·|θ) is the model's
 * probability of the record's label, e^(−ℓ) (ℓ its cross-entropy loss);
 * Pr(·) is estimated from reference models θ_r that did not train on the
 * record, with the paper's offline approximation (§3, "offline"):
 *     Pr(x) = (1 + a)/2 · mean_r Pr(x|θ_r) + (1 − a)/2,
 * a ∈ [0, 1] standing in for the IN models an offline attacker lacks
 * (a = 1: the plain OUT mean); the same for each z, as the authors' code
 * does (privacy_meter, rmia: mean_z from the population's OUT signals).
 * Everything is computed from log probabilities (−ℓ), never
 * exponentiated alone, so tiny probabilities do not underflow.
 *
 * One deviation, for the statistics: the fraction takes m + 1 values, and
 * ties between runs are broken by the mean log ratio over z mapped into
 * [0, 1) (0.5 + atan(mean)/π) and added to the count before dividing by m:
 * the count still decides first.  The score of a run is a fixed function
 * of its model given the references, so scoring runs that never served as
 * references keeps the counts binomial (as for LiRA). */
typedef struct {
    size_t m;        /* population records */
    double log_px;   /* log Pr(x) */
    double *log_pz;  /* log Pr(z_i), m of them */
    double log_gamma;
} ul_score_rmia;

/* Fits from k_ref ≥ 1 reference models: lx_ref[r] = log Pr(x|θ_r),
 * lz_ref[r·m + i] = log Pr(z_i|θ_r) (each ≤ 0); a ∈ [0, 1], γ > 0.
 * UL_EINPUT naming the rule; UL_ENOMEM naming m.  f->log_pz is NULL
 * after a failure (ul_score_rmia_free is safe). */
ul_status ul_score_rmia_fit(ul_score_rmia *f, const double *lx_ref, const double *lz_ref,
                            size_t k_ref, size_t m, double a, double gamma, char *err,
                            size_t errlen);
/* The score of one model: lx = log Pr(x|θ), lz[i] = log Pr(z_i|θ). */
double ul_score_rmia_one(const ul_score_rmia *f, double lx, const double *lz);
void ul_score_rmia_free(ul_score_rmia *f);

#endif
