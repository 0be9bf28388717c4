/* src/stats/eps_lb.h — valid empirical ε lower bounds from attack scores.
 *
 * Every bound here is valid without any assumption on the score laws:
 * with probability ≥ 1 − α over the runs, ε_lb ≤ the ε of every (ε, δ)
 * pair that the two score laws P_in, P_out satisfy.  Each is certified with
 * MPFR binomial tails (stats/stats.h) and rounded down.  Thresholds and
 * candidates are searched in doubles; only the chosen ones are certified.
 *
 * The lemma behind the threshold family (order-statistic thresholds).  Let
 * Y_1 … Y_n be i.i.d. with G(t) = P[Y > t], k < n fixed, and t_k the
 * (k+1)-th largest Y.  Then for every p ∈ [0, 1]
 *     P[G(t_k) > p] ≤ P[Bin(n, p) ≤ k],
 * so the Clopper–Pearson upper bound CP(k, n, β) bounds G(t_k) with
 * probability ≥ 1 − β.  Proof: let u = inf{t : G(t) ≤ p}.  G(t_k) > p forces
 * t_k < u, i.e. at most k of the Y_i are ≥ u; their number is Bin(n, q) with
 * q = P[Y ≥ u] = lim_{t↑u} G(t) ≥ p, and P[Bin(n, q) ≤ k] ≤ P[Bin(n, p) ≤ k]
 * (binomial tails decrease in q).  Ties and atoms are allowed.  The count
 * used is the design count k, never the observed one.
 *
 * Methods (ul_emp_lb_method):
 *   FAMILY  tests fixed before the data are seen (they depend on n_in, n_out
 *           and the options only).  Forward test k ∈ K(n_out): t = (k+1)-th
 *           largest OUT score, rule "IN iff score > t"; FPR(t) ≤ CP(k, n_out)
 *           by the lemma, and given the OUT scores the true positives are
 *           Bin(n_in, TPR(t)), so FNR(t) ≤ CP(fn, n_in).  Reversed test
 *           j ∈ K(n_in): u = (j+1)-th smallest IN score, rule "IN iff
 *           score ≥ u": FNR(u) ≤ CP(j, n_in) by the mirrored lemma and
 *           FPR(u) ≤ CP(fp, n_out) given the IN scores.  Each CP at level
 *           α/(2m), m = number of tests (Bonferroni); every test gives
 *           ul_emp_eps_lb_counts's ε from its two bounds, the maximum is
 *           reported.  K(n) = {0, 1, …} with k_{i+1} = max(k_i + 1,
 *           ⌊ratio·k_i⌋), k < n: the corners of the ROC staircase (its
 *           Pareto frontier: one threshold per false-positive count, the one
 *           with the most true positives) on a geometric grid of counts, so
 *           m grows like log n, not like the 2N distinct scores.
 *   FIXED   one threshold t chosen before the data (rule "IN iff score ≥
 *           t"), m = 1, each CP at α/2 (TF Privacy / jax_privacy `Explicit`).
 *   SPLIT   the first ⌊frac·n⌋ scores of each world (in the given order,
 *           which must not depend on the scores) choose the family test
 *           with the best predicted bound; its threshold is then FIXED on
 *           the remaining scores (jax_privacy `Split`).
 *   ONERUN  the canaries of one training run (see ul_emp_onerun_eps).
 *   JOINT   the FAMILY's thresholds, each tested with ONE p-value instead of
 *           two Clopper–Pearson bounds: under an (ε, δ) claim the false
 *           rate F at the order-statistic threshold is stochastically below
 *           Beta(k+1, n0−k) (the lemma), and given the threshold the other
 *           world's count is Bin(n1, TPR) with TPR ≤ min(1, e^ε F + δ)
 *           ((ε, δ)-indistinguishability of the event "score above t", or
 *           "below u" for reversed tests).  So the count is stochastically
 *           below the Beta-binomial-type mixture of ul_emp_joint_pvalue_upper
 *           (stats/stats.h), whose upper tail at the observed count is a valid
 *           p-value; it increases in ε, so the largest ε it rejects at level
 *           α/m (m tests, Bonferroni; the whole α/m, not split in two) is a
 *           valid lower bound, certified at that ε (MPFR tails, an upper
 *           Riemann–Stieltjes sum).
 *           With `geometric`, the level is split unequally (weighted
 *           Bonferroni: any fixed weights w_i ≥ 0 with Σ w_i ≤ 1 keep the
 *           family-wise error ≤ α, by the union bound): in each direction's
 *           grid of L counts k_0 < k_1 < …, test i gets w_i = 2^−(i+1)
 *           (i < L − 1) and w_(L−1) = 2^−(L−1) (the weights sum to 1), halved
 *           again when two-sided.  The weights are fixed before the data are
 *           seen and favour small k: at large ε the best test sits at the
 *           extreme order statistics, where the Beta quantile of F is the
 *           most sensitive to its level (−log(level)/n at k = 0).
 *   SUM     several thresholds in ONE statistic (the weighted sum over
 *           order statistics; a test of its own, no Bonferroni inside a
 *           direction).  Forward: t_(0) > … ≥ t_(K−1) the K largest OUT
 *           scores, fixed weights c_k = lcm(1…K)/(k+1) (∝ 1/(k+1); K = 5,
 *           or k_max + 1 ≤ 16), C = Σ c_k, and
 *               S = Σ_k c_k · #{IN scores > t_(k)}.
 *           A valid test by the theorem proved in stats/eps_lb_sum.c
 *           (Hoeffding 1963; Bentkus 2004; Rényi 1953), at level α, or
 *           α/2 per direction when two-sided.  Reversed
 *           (two-sided): the same on the negated scores with the worlds
 *           swapped (OUT scores below the K smallest IN scores).  The
 *           result's threshold, fp, fn are those of the deepest threshold
 *           t_(K−1) of the direction with the larger estimate (forward:
 *           fp = K − 1, fn observed; reversed: fn = K − 1, fp observed);
 *           sum_K, sum_c the weights of each direction; m = divisor = the
 *           number of directions.
 *   ALL     the legacy statistic of ul_emp_roc_compute: every distinct
 *           score is a threshold (observed counts), m = their number, and
 *           the exact maximum over them (over the staircase's Pareto
 *           corners, which dominate every other threshold).  With
 *           continuous scores (no ties) m = n_in + n_out and the lemma's
 *           union over all k and all j covers it; with ties the count m is
 *           data-dependent and the lemma does not cover it: prefer FAMILY.
 *   LEVELS  a discrete score whose number of possible values L is declared
 *           before the data (o->levels: 2 for a 0/1 score such as
 *           randomised response).  Every distinct observed value v but the
 *           smallest is a threshold, rule "IN iff score ≥ v", with its
 *           OBSERVED counts and both Clopper–Pearson bounds at α/(2m),
 *           m = L − 1.  Valid: the pooled law has at most L atoms
 *           x_1 > … > x_L; a tested v is one of x_1 … x_(L−1), a value fixed
 *           before the data, so its two counts are Bin(n_out, P_out[≥ v])
 *           and Bin(n_in, P_in[≥ v]) and its two bounds fail with
 *           probability ≤ α/m; the union over the ≤ L − 1 atoms keeps the
 *           family-wise error ≤ α.  The test reaches the best threshold of
 *           the score exactly (no design count rounded up to a grid, no
 *           Bonferroni over log n tests).  More than L distinct values in
 *           the data: UL_EINPUT "levels" (the declaration was false, and a
 *           bound under it would not be valid).
 *
 * Ties.  Every method is valid with tied scores (the lemma allows atoms), but
 * a threshold inside a block of equal scores leaves the whole block out, so
 * discrete scores lose power; ties_fraction reports their share so that
 * callers can warn.  Two valid remedies: LEVELS (the number of values
 * declared), or ties broken at random (o->tie_seed ≠ 0, any method that
 * only compares scores: FAMILY, JOINT, SUM, ALL, ONERUN): each score
 * becomes (score, U), U i.i.d. uniform from the seed, a post-processing
 * with randomness of its own, so the bound holds with probability ≥ 1 − α
 * over the scores and U together (proof in stats/eps_lb_tiebreak.c).  The
 * seed must be drawn afresh before the scores are read and reported; one
 * seed reused over many data sets is one realisation of U for all of them
 * and is NOT valid (a method then refuted a true claim on 40 of 40 data
 * sets: stats/eps_lb_common.c), nor is keeping the best of several seeds.
 */
#ifndef UL_EMP_EPS_LB_H
#define UL_EMP_EPS_LB_H

#include <mpfi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "num/status.h"

typedef enum {
    UL_EMP_LB_FAMILY = 0,
    UL_EMP_LB_FIXED,
    UL_EMP_LB_SPLIT,
    UL_EMP_LB_ONERUN,
    UL_EMP_LB_ALL,
    UL_EMP_LB_JOINT,
    UL_EMP_LB_SUM,
    UL_EMP_LB_LEVELS,
} ul_emp_lb_method;

typedef struct {
    ul_emp_lb_method method;
    bool one_sided;    /* FAMILY/SPLIT/ONERUN: forward tests only */
    double threshold;  /* FIXED: rule "IN iff score ≥ threshold" */
    double split_frac; /* SPLIT: fraction choosing the threshold, in (0, 1) */
    double ratio;      /* grid ratio (> 1; 0: the method's default, 4 for JOINT, 2 for ONERUN, else 1.25) */
    bool geometric;    /* JOINT: weighted Bonferroni, weights halving along the grid (below) */
    long k_max;        /* FAMILY/JOINT: only grid counts k ≤ k_max (−1: all; 0: the extreme
                        * order statistic alone, one test per side); SUM: K = k_max + 1
                        * order statistics (≤ 16; −1: 5) — fixed before the data */
    unsigned long levels; /* LEVELS: how many distinct values the score can take (≥ 2),
                           * declared before the data; 0 for the other methods */
    uint64_t tie_seed;    /* ≠ 0: ties broken at random from this seed (see "Ties"; not
                           * with FIXED, SPLIT or LEVELS); 0: ties kept */
} ul_emp_lb_opts;

/* True for the methods that only compare scores (FAMILY, JOINT, SUM, ALL,
 * ONERUN): those a tie-break applies to (see "Ties"); FIXED, SPLIT and
 * LEVELS read score values. */
bool ul_emp_lb_compares_only(ul_emp_lb_method m);

/* Defaults: FAMILY, two-sided, ratio 0 (the method's), split_frac 0.25,
 * equal weights, k_max −1, levels 0, tie_seed 0. */
ul_emp_lb_opts ul_emp_lb_defaults(void);

/* SUM: at most this many order statistics (lcm(1…16) = 720720: the weights
 * c_k = lcm(1…K)/(k+1) stay exact integers). */
#define UL_EMP_SUM_K_MAX 16

/* The guesses behind a one-run bound: k_plus highest scores guessed IN,
 * k_minus lowest guessed OUT (design counts, r = k_plus + k_minus), of
 * which g_plus, g_minus were made (a tie at a boundary is not guessed) and
 * v were correct (v_plus of them IN guesses); thr_in / thr_out the lowest score guessed IN and the
 * highest guessed OUT (+∞ / −∞ when none); tests = |C|. */
typedef struct {
    unsigned long k_plus, k_minus, g_plus, g_minus, v, v_plus, tests;
    double thr_in, thr_out;
} ul_emp_onerun_choice;

typedef struct {
    mpfr_t eps_lb;             /* certified, rounded down; 0 when nothing certified */
    unsigned long m;           /* tests paid for (Bonferroni count) */
    unsigned long divisor;     /* the chosen test ran at level α/divisor (m, or its weight's) */
    int direction;             /* +1 forward, −1 reversed, 0 none */
    double threshold;          /* rule "IN iff score ≥ threshold" of the best test */
    unsigned long fp, fn;      /* the counts certified (design counts) */
    unsigned long n_out, n_in; /* the trials behind them */
    double estimate;           /* the double-precision value that chose it */
    /* SUM: the statistic's weights as used, direction d = 0 forward, 1
     * reversed: K = sum_K[d] order statistics, weights sum_c[d][0 … K−1]
     * (c_k = lcm(1…K)/(k+1)); sum_K[1] = 0 when one-sided, both 0 for the
     * other methods. */
    size_t sum_K[2];
    unsigned long sum_c[2][UL_EMP_SUM_K_MAX];
    /* The share of the scores (of n_in + n_out; for SPLIT, of the part that
     * certifies) equal to at least one other score of either world, in
     * [0, 1]; 0 for ONERUN without a tie-break (it does not compute it).  A large share (a
     * handful of distinct scores) means the bound is limited by the score's
     * resolution (see "Ties" above) and callers should say so. */
    double ties_fraction;
    /* ONERUN: the guesses of both sides behind eps_lb (all zero for the
     * other methods). */
    ul_emp_onerun_choice onerun;
    /* Ties broken at random (o->tie_seed): threshold is back on the scores'
     * scale and the rule is "score > threshold, or score = threshold and
     * its draw U ≥ tie_u" (onerun's thr_in, thr_out likewise, their draws
     * not kept); tie_u NAN otherwise. */
    double tie_u;
} ul_emp_lb_result;

/* Initialises res (clear with ul_emp_lb_clear, also after an error). */
void ul_emp_lb_init(ul_emp_lb_result *res);
void ul_emp_lb_clear(ul_emp_lb_result *res);

/* The bound of o->method from in[0..n_in) and out[0..n_out) (finite
 * scores; "higher = more IN"), at confidence 1 − α and the claimed δ.
 * UL_EINPUT names "in_scores", "out_scores", "alpha", "delta", "threshold",
 * "split_frac", "ratio", "levels" or "tie_seed"; UL_ECAP: sound but looser. */
ul_status ul_emp_eps_lb(ul_emp_lb_result *res, const double *in, size_t n_in, const double *out,
                        size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta, const ul_emp_lb_opts *o,
                        char *err, size_t errlen);

/* ul_emp_eps_lb's certified bound as a double rounded down (benchmarks,
 * reports); NAN on an error, described in err. */
double ul_emp_eps_lb_value(const double *in, size_t n_in, const double *out, size_t n_out,
                           mpfi_srcptr alpha, mpfi_srcptr delta, const ul_emp_lb_opts *o, char *err,
                           size_t errlen);

/* The grid K(n) above: writes up to cap counts into ks, returns how many
 * there are (call with cap 0 to count). */
size_t ul_emp_lb_grid(unsigned long n, double ratio, unsigned long *ks, size_t cap);

/* SUM: an upper bound of P[Σ_k c_k U_(k+1) > ell] (U_(1) ≤ … the order
 * statistics of n0 uniforms, weights c_0 … c_(K−1) > 0 with distinct
 * suffix sums, K ≤ min(n0, 16)) by the exact formula of the SUM theorem (stats/eps_lb_sum.c) in
 * MPFI, rounded up; 1 when ell ≤ 0 or ell ≥ c_(K−1) (formula not
 * applicable). */
double ul_emp_sum_tail_upper(const unsigned long *c, size_t K, unsigned long n0, double ell);

/* ---- one training run (Steinke, Nasr, Jagielski 2023) -------------------------
 *
 * Theorem (SNJ23, "Privacy auditing with one (1) training run", NeurIPS
 * 2023, arXiv:2305.08846: Theorem 3.1 for δ = 0, and its approximate-DP
 * extension, in the form jax_privacy `_one_run_p_value` evaluates).  Let M : {−1, 1}^m → Y be
 * (ε, δ)-DP with respect to changing one coordinate of S, let
 * S ∈ {−1, 1}^m be uniform (i.i.d. fair signs: each canary included
 * independently with probability ½), and let T = A(M(S)) ∈ {−1, 0, 1}^m be
 * any guess with ‖T‖₁ ≤ r.  With W = #{i : T_i = S_i} (correct guesses)
 * and q = e^ε/(1 + e^ε), for every v
 *     P[W ≥ v] ≤ β + 2mδ · max_{1≤i≤v} (P[Bin(r, q) ≥ v − i] − β)/i,
 *     β = P[Bin(r, q) ≥ v].
 * Hypotheses the caller must guarantee: one run, canaries included by
 * independent fair coins (not a fixed half), and the (ε, δ) claim holds for
 * each single canary's inclusion with the others fixed.
 *
 * Guesses (two-sided, SNJ23 §3 and Algorithm 1: T_i = +1 for the k₊
 * highest scores, T_i = −1 for the k₋ lowest, T_i = 0 (abstain) between,
 * r = k₊ + k₋, W counts both kinds of correct guess).  The theorem holds
 * for every guess vector that is a function of the output alone, so both
 * tails may be guessed at once; a tie at either boundary is not guessed
 * (fewer guesses: ‖T‖₁ ≤ r still holds).
 *
 * Which (k₊, k₋).  A candidate set C fixed before the data are seen (it
 * depends on m and the options only), each candidate tested at level α/|C|
 * (Bonferroni: the union bound over C keeps the family-wise error ≤ α
 * whatever candidate the data then favour).  Two-sided (the default): the
 * symmetric (k, k) for k ∈ 1 + K(⌊m/2⌋): a fair coin makes IN and OUT
 * equally frequent, so an attack whose two tails are equally informative
 * (a shift of the score law, as for a Gaussian mechanism) doubles its
 * guesses at the same precision.  One-sided (o->one_sided, the family
 * before issue 30): (k, 0) for k ∈ 1 + K(m), for an attack informative in
 * its IN tail only.  The side is pre-registered, not chosen from the data
 * (taking the better of the two would be a third set C to pay for).  The
 * default grid ratio is 2 (ONERUN_RATIO): with δ > 0 the p-value's 2mδ
 * term makes the bound sensitive to the level, and on simulated Gaussian
 * one-run data (m = 1000, μ ∈ {0.5, 1, 2}, seeds 1–8, not the seeds of the
 * reported comparison) ratio 2 gave the largest mean bound of 1.25, 1.5,
 * 2, 3, 4, and the symmetric set beat "symmetric ∪ one-sided" (|C| twice as
 * large) at every μ.
 * jax_privacy (auditing.py, `CanaryScoreAuditor.epsilon_one_run` with
 * `Bonferroni()`) instead guesses one side only and divides α by the number
 * of vertices of the observed ROC hull (`_get_tn_fn_counts`,
 * `_pareto_frontier`): that count is data-dependent, and the union bound
 * over a set chosen from the same data is not proven; C here is not.
 *
 * Reported ε (validity of the search).  For each candidate the rejection
 * region of a claim ε is a set of values of W; if the true ε₀ lies below
 * the reported ε, some claim ε ≥ ε₀ was rejected, and every such claim
 * holds (ε₀-DP implies ε-DP), so the event lies in {W ≥ c*} for the least
 * rejected count c* over those claims, whose probability the theorem bounds
 * by the level.  The covering below is stronger than this needs.
 *
 * The p-value is not monotone in ε in general, so the reported bound is
 * sup{ε : p(ε') ≤ level for every ε' ∈ [0, ε]}, certified by covering
 * [0, ε_lb] with cells [a, b] on which p ≤ level is proven from the
 * monotone tails: P[v−i ≤ Bin(r, q) < v] ≤ T_{v−i}(q_b) − T_v(q_a). */

/* ε_lb for one count (r guesses, v correct, m canaries) at `level` (the
 * full significance for this one test).  eps_lb is rounded down. */
ul_status ul_emp_onerun_eps(mpfr_ptr eps_lb, unsigned long m, unsigned long r, unsigned long v,
                            mpfi_srcptr delta, mpfi_srcptr level, char *err, size_t errlen);

/* Double-precision p-value above (for searching and for tests). */
double ul_emp_onerun_pvalue_d(unsigned long m, unsigned long r, unsigned long v, double eps,
                              double delta);


/* The ONERUN method on ascending score arrays a (IN canaries) and b (OUT
 * canaries) of one run: m = n_in + n_out canaries, the candidates C above
 * (o->one_sided: IN guesses only; o->ratio: the grid's ratio, 0 → 2),
 * the best candidate (double search) certified with ul_emp_onerun_eps at
 * α/|C|.  res: m = divisor = |C|, threshold = thr_in, fp = wrong IN guesses,
 * fn = IN canaries not guessed IN, direction +1 (IN guesses only), −1 (OUT
 * only), 2 (both), 0 (none).  choice (may be NULL) gets both sides.  Called
 * by ul_emp_eps_lb after its checks. */
ul_status ul_emp_onerun_family(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                               size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                               const ul_emp_lb_opts *o, char *err, size_t errlen);
ul_status ul_emp_onerun_family_choice(ul_emp_lb_result *res, ul_emp_onerun_choice *choice,
                                      const double *a, size_t n_in, const double *b, size_t n_out,
                                      mpfi_srcptr alpha, mpfi_srcptr delta, const ul_emp_lb_opts *o,
                                      char *err, size_t errlen);

/* ---- one run, f-DP (Mahloujifar, Melis, Chaudhuri 2024) ----------------------
 *
 * Source: "Auditing f-differential privacy in one run", ICML 2025 (PMLR
 * 267:42615), arXiv:2410.22235: the guessing game with abstention and its
 * numerical test `audit_rh_with_cap` (its name in the authors' code, Meta
 * PrivacyGuard `FDPAnalysisNode.audit_rh_with_cap`; re-implementations
 * call it the paper's Algorithm 3; jax_privacy auditing.py
 * `_epsilon_one_run_fdp` evaluates the same recursion; the theorem's
 * number was not checked against the paper's text).  Setting as
 * above (m canaries, fair independent coins, guesses from the output
 * alone, r guesses, W correct), the mechanism f-DP for each canary.  The
 * statement applied: if P[W ≥ v] ≥ τ then the recursion
 *     r_v = τ·v/m,  h_v = τ·(r − v)/m,  and for i = v−1, …, 0
 *     h_i = max(h_(i+1), f̄⁻¹(r_(i+1))),
 *     r_i = min(1, r_(i+1) + i/(r − i) · (h_i − h_(i+1)))
 * ends with r_0 + h_0 ≤ r/m (f̄⁻¹ the inverse blow-up of f; for μ-GDP,
 * f = G_μ of Dong–Roth–Su Def. 2.5, f̄⁻¹(x) = Φ(Φ⁻¹(x) − μ)).  (The clamp
 * at 1 is jax_privacy's; r_i bounds a probability, so it only tightens.)
 * So r_0 + h_0 > r/m at τ = level rejects "μ-GDP" at that level: the
 * rejection region R ⊂ {W ≥ min R}, and P[W ≥ min R] ≥ τ would contradict
 * the statement at v = min R.  No monotonicity in τ or μ is needed: the
 * reported μ_lb is itself rejected (certified in MPFI), and by the
 * argument for ε above (μ₀-GDP implies μ-GDP for μ ≥ μ₀) P[μ_lb > μ₀] is at
 * most the level.  Candidates C and Bonferroni exactly as for ONERUN.
 *
 * What is refuted is the Gaussian trade-off curve G_μ for μ ≤ μ_lb, not an
 * (ε, δ) pair: eps_gdp = ε(δ) of μ_lb-GDP (gdp.h's profile; jax_privacy
 * reports this number, parametrising G_μ by the (ε, δ) of the Gaussian
 * mechanism with σ = 1/μ) lower-bounds the mechanism's ε(δ) only when its
 * trade-off curve is known to be Gaussian-shaped (e.g. a Gaussian
 * mechanism, or DP-SGD analysed as one). */

typedef struct {
    mpfr_t mu_lb;    /* certified: "μ-GDP" rejected for μ = mu_lb; rounded down; 0 when none */
    double eps_gdp;  /* ε(δ) of mu_lb-GDP, proven ≤ the exact profile value (0 when none) */
    double estimate; /* the double search's μ */
    ul_emp_onerun_choice choice;
} ul_emp_onerun_fdp_result;

void ul_emp_onerun_fdp_init(ul_emp_onerun_fdp_result *res);
void ul_emp_onerun_fdp_clear(ul_emp_onerun_fdp_result *res);

/* Algorithm 3's statistic in doubles: r_0 + h_0 − r/m for m canaries, r
 * guesses, v correct, μ-GDP, τ (> 0: "μ-GDP" rejected at level τ). */
double ul_emp_onerun_fdp_margin_d(unsigned long m, unsigned long r, unsigned long v, double mu,
                                  double tau);

/* True when r_0 + h_0 > r/m is proven (MPFI) at exactly μ = mu, τ = tau. */
bool ul_emp_onerun_fdp_rejects(unsigned long m, unsigned long r, unsigned long v, double mu,
                               double tau);

/* The largest μ in doubles with a positive margin for one count (0 when
 * none), the search behind the family (for tests and comparisons). */
double ul_emp_onerun_fdp_mu_d(unsigned long m, unsigned long r, unsigned long v, double tau);

/* The f-DP one-run bound on a (IN), b (OUT), any order: candidates C of
 * ONERUN (o->one_sided, o->ratio), each at τ = α/|C|; the best μ
 * certified; eps_gdp at delta (∈ (0, 1)).  UL_EINPUT names "in_scores",
 * "out_scores", "alpha", "delta" or "ratio". */
ul_status ul_emp_onerun_fdp(ul_emp_onerun_fdp_result *res, const double *a, size_t n_in,
                            const double *b, size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                            const ul_emp_lb_opts *o, char *err, size_t errlen);

#endif
