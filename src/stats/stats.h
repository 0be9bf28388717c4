/* src/stats/stats.h — certified statistics for empirical privacy audits.
 *
 * Binomial tails enclosed in interval arithmetic, one-sided Clopper–Pearson
 * bounds returned on their safe side, the empirical ε lower bound from
 * counts (Jagielski, Ullman, Oprea 2020, "Auditing differentially private
 * machine learning", NeurIPS 2020, arXiv:2006.07709; Nasr et al. 2021,
 * arXiv:2101.04535; jax_privacy `epsilon_clopper_pearson`: docs/accounting.md,
 * "TensorFlow Privacy" and "jax_privacy auditing"), and scores → ROC with the best
 * Bonferroni-corrected ε over a family of thresholds (stats/eps_lb.h).
 *
 * Layer rule: this module uses src/num only.  Scores are empirical data
 * (plain doubles); everything that feeds a claimed bound is certified.
 */
#ifndef UL_EMP_STATS_H
#define UL_EMP_STATS_H

#include <mpfi.h>
#include <stdbool.h>
#include <stddef.h>

#include "stats/eps_lb.h"
#include "num/status.h"

/* P[Bin(n, p) ≤ k] enclosed in `out` (at out's precision plus guard bits),
 * for an exact p ∈ [0, 1].  The enclosure is intersected with [0, 1].
 * UL_EINPUT (naming "n", "k" or "p") when n = 0, k > n or p ∉ [0, 1]. */
ul_status ul_emp_binom_cdf(mpfi_ptr out, unsigned long k, unsigned long n, mpfr_srcptr p, char *err,
                           size_t errlen);

/* P[Bin(n, p) ≥ k] enclosed in `out`, same contract (k ≤ n). */
ul_status ul_emp_binom_sf(mpfi_ptr out, unsigned long k, unsigned long n, mpfr_srcptr p, char *err,
                          size_t errlen);

/* One-sided Clopper–Pearson upper bound: the p_hi with P[Bin(n, p_hi) ≤ k] =
 * α (p_hi = 1 when k = n).  `bound` receives a number ≥ p_hi (certified:
 * the tail there was shown ≤ inf α), rounded up to bound's precision, and
 * within about `digits` significant digits of p_hi.  α is an enclosure that
 * must lie inside (0, 1).  UL_EINPUT names "n", "k" or "alpha"; UL_ECAP when
 * the precision cap stopped the bisection (bound still sound, maybe 1). */
ul_status ul_emp_cp_upper(mpfr_ptr bound, unsigned long k, unsigned long n, mpfi_srcptr alpha,
                          int digits, char *err, size_t errlen);

/* One-sided Clopper–Pearson lower bound: the p_lo with P[Bin(n, p_lo) ≥ k] =
 * α (p_lo = 0 when k = 0).  `bound` receives a number ≤ p_lo, rounded down.
 * Same contract as ul_emp_cp_upper. */
ul_status ul_emp_cp_lower(mpfr_ptr bound, unsigned long k, unsigned long n, mpfi_srcptr alpha,
                          int digits, char *err, size_t errlen);

/* The empirical ε lower bound at δ from one threshold's counts: fp false
 * positives among n_out OUT trials, fn false negatives among n_in IN trials.
 * With f̄ = CP upper bound of FPR and n̄ = CP upper bound of FNR, each at
 * level α/(2m) (m = number of thresholds searched, Bonferroni; m = 1 for a
 * single pre-chosen threshold),
 *
 *     ε_lb = max(log((1 − δ − n̄)/f̄), log((1 − δ − f̄)/n̄), 0),
 *
 * (Jagielski, Ullman, Oprea 2020 with δ kept, as in their paper (their
 * code, tensorflow/privacy research/audit_2020/audit.py, drops it:
 * docs/accounting.md, "TensorFlow Privacy") and in jax_privacy
 * `epsilon_clopper_pearson`, plus the reversed test).  Every
 * step rounds toward the smaller ε, so `eps_lb` is a sound lower bound.
 * fpr_hi / fnr_hi (may be NULL) receive f̄ and n̄ (rounded up).
 * UL_EINPUT names "n_out", "n_in", "fp", "fn", "alpha", "delta" or "m". */
ul_status ul_emp_eps_lb_counts(mpfr_ptr eps_lb, unsigned long fp, unsigned long n_out,
                               unsigned long fn, unsigned long n_in, mpfi_srcptr alpha,
                               mpfi_srcptr delta, unsigned long m, mpfr_ptr fpr_hi, mpfr_ptr fnr_hi,
                               char *err, size_t errlen);

/* The joint threshold test of stats/eps_lb.h (JOINT).  With F ~ Beta(k + 1,
 * n0 − k) (the law that bounds the false rate at the (k+1)-th order
 * statistic threshold, lemma of stats/eps_lb.h) and X ~ Bin(n1, min(1, e^ε F
 * + δ)) given F (the largest count the other world may show under an
 * (ε, δ) claim), the p-value of an observed count x is
 *     π = P[X ≥ x] = ∫ S(f) dG(f),  G(f) = P[F ≤ f] = P[Bin(n0, f) ≥ k + 1],
 *                                  S(f) = P[Bin(n1, min(1, e^ε f + δ)) ≥ x].
 * S increases in f, so for any ascending grid f_1 < … < f_J (Abel summation
 * of the upper Riemann–Stieltjes sum, S(f_(J+1)) := 1)
 *     π ≤ 1 − Σ_j G(f_j)·(S(f_(j+1)) − S(f_j)).
 * `out` receives this bound rounded up, each G and S an MPFR binomial tail
 * enclosure (lower G, lower differences).  ε exact, δ an enclosure. */
ul_status ul_emp_joint_pvalue_upper(mpfr_ptr out, unsigned long k, unsigned long n0,
                                    unsigned long x, unsigned long n1, mpfr_srcptr eps,
                                    mpfi_srcptr delta, const double *f, size_t nf, char *err,
                                    size_t errlen);

typedef struct {
    double fpr, tpr;
} ul_emp_roc_point;

/* FPR levels at which ul_emp_roc reports the TPR. */
#define UL_EMP_N_FPR_LEVELS 3
extern const double ul_emp_fpr_levels[UL_EMP_N_FPR_LEVELS]; /* 1e-3, 1e-2, 1e-1 */

typedef struct {
    ul_emp_roc_point *points; /* n_points = n_thresholds + 1, from (0, 0) to (1, 1) */
    size_t n_points;
    double auc;                             /* trapezoid over the points */
    double tpr_at_fpr[UL_EMP_N_FPR_LEVELS]; /* max TPR over points with FPR ≤ level */
    /* false when n_out·level < 1: fewer OUT runs than one false positive at
     * that level needs, so tpr_at_fpr there says nothing (print "n/a") */
    bool tpr_defined[UL_EMP_N_FPR_LEVELS];
    unsigned long n_thresholds; /* tests paid for: the Bonferroni m */
    double threshold;           /* the threshold of the best ε: "IN" iff score ≥ it */
    unsigned long fp, fn;       /* its counts (the design counts, stats/eps_lb.h) */
    mpfr_t eps_lb;              /* certified ε lower bound (rounded down) */
} ul_emp_roc;

/* ROC of the rule "score ≥ t ⇒ IN" over every distinct score value t, its AUC,
 * TPR at the FPR levels above, and a certified ε lower bound from
 * stats/eps_lb.h: ul_emp_roc_compute uses its ALL method (every distinct
 * score a threshold, Bonferroni m = their number, the exact maximum over
 * them); ul_emp_roc_compute_opts the method in opts (NULL: ALL), e.g. the
 * FAMILY of order-statistic thresholds whose m grows like log n.
 * `out` is initialised here; release it with ul_emp_roc_clear (also after
 * an error).  UL_EINPUT names "in_scores" / "out_scores" (empty or
 * non-finite), "alpha" or "delta" (and the options' fields). */
ul_status ul_emp_roc_compute(ul_emp_roc *out, const double *in_scores, size_t n_in,
                             const double *out_scores, size_t n_out, mpfi_srcptr alpha,
                             mpfi_srcptr delta, char *err, size_t errlen);
/* The ROC, AUC and TPR at the FPR levels only (eps_lb 0, no threshold). */
ul_status ul_emp_roc_curve(ul_emp_roc *out, const double *in_scores, size_t n_in,
                           const double *out_scores, size_t n_out, char *err, size_t errlen);
ul_status ul_emp_roc_compute_opts(ul_emp_roc *out, const double *in_scores, size_t n_in,
                                  const double *out_scores, size_t n_out, mpfi_srcptr alpha,
                                  mpfi_srcptr delta, const ul_emp_lb_opts *opts, char *err,
                                  size_t errlen);

void ul_emp_roc_clear(ul_emp_roc *r);

/* UL_EINPUT naming `name` when s is NULL, n = 0 or some s[i] is not finite. */
ul_status ul_emp_check_scores(const double *s, size_t n, const char *name, char *err,
                              size_t errlen);

/* The ROC staircase in counts: for ascending a (IN, n_in) and b (OUT,
 * n_out), the rule "score ≥ t" at every distinct score t in descending
 * order gives fp[i] OUT and tp[i] IN scores ≥ t, i = 1 … m, after
 * (fp[0], tp[0]) = (0, 0); thr[i] (thr may be NULL) receives t.  fp, tp,
 * thr need n_in + n_out + 1 entries; returns m (the number of distinct
 * scores). */
size_t ul_emp_roc_counts(const double *a, size_t n_in, const double *b, size_t n_out,
                         unsigned long *fp, unsigned long *tp, double *thr);

#endif
