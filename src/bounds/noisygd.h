/* src/bounds/noisygd.h — Noisy-GD learning and deletion: Chourasia & Shah,
 * "Forget Unlearning: Towards True Data-Deletion in Machine Learning"
 * (ICML 2023, arXiv:2210.08911; docs/noisy-gd.md, with its errata N1-N23).
 *
 * Conventions (the paper's; other modules differ, so read these):
 *
 *   Noisy-GD step (Alg. 2):  θ ← θ − η·∇L_D(θ) + √(2η)·N(0, σ² I_d).
 *     sigma is the paper's σ: the per-coordinate noise VARIANCE of one step is
 *     2ησ², not σ² (Remark G.8).  In Abadi et al.'s full-batch convention the
 *     same step has variance η²σ̂²L²/n², so σ² = η·σ̂²·L²/(2n²).
 *   Objective (eq. 12):  L_D(θ) = (1/n)·Σ_{x∈D} l(θ;x) + λ‖θ‖²/2.
 *     n = database size (fixed: a deletion is a replacement, Def 2.5);
 *     L = Lipschitz constant of the per-record loss l (‖∇l‖ ≤ L, or the clip
 *     norm, Remark 5.3); β = smoothness of l (so L_D is (λ+β)-smooth);
 *     λ = the L2 constant (L_D is λ-strongly convex when l is convex);
 *     κ = (λ+β)/λ; d = model dimension; r = records replaced per request;
 *     K_A = learner iterations, K_Abar = unlearner iterations per request.
 *     Adjacency: replacement of one record (full-batch gradient sensitivity
 *     2L/n, proof of G.7).
 *   Every ε here — eps-dp, eps-dd, and each returned RDP or deletion value —
 *     is a Rényi divergence of order q > 1 (Def 2.2, 2.3, 4.1): "(q, ε)-RDP",
 *     "(q, ε)-data-deletion".  None is an (ε, δ) parameter: convert with
 *     bounds/renyi.h (Mironov: ε + log(1/δ)/(q−1), Remark 2.1).  The only
 *     (ε, δ) pair is the one of Remark G.8; the δ of Thm 4.5 is a
 *     membership-inference advantage level, not a DP δ.
 *   Log-Sobolev: the paper's LS(c) carries σ² in Γ (Def G.1), so N(0, s² I)
 *     has constant σ²/s²; it matters only for the initialisations below.
 *   Thm 5.2's B: the loss is (σ²·log B/4)-bounded, i.e. B = exp(4b/σ²) for a
 *     loss bounded by b (docs/noisy-gd.md erratum N5).  B is never formed: inputs give
 *     log B (or b), and every quantity with B travels in log form.
 *
 * Hypotheses on the SHAPE of the loss (convex, L-Lipschitz or clipped,
 * β-smooth, twice differentiable, bounded) are not numbers and are not
 * checked here; the caller must establish them.  Every numerical hypothesis of
 * each theorem is checked and listed in a ul_preconditions (bounds/theorem.h)
 * by a stable name.  A function whose preconditions fail still returns the
 * formula's value when it is defined (status UL_OK; the list says why it is
 * no guarantee) and +inf where it is not.
 *
 * Inputs are decimal text, read exactly (as rationals); "certified" results
 * are enclosures computed with outward rounding, raised in precision until
 * want->digits digits are right (num/adaptive.h).  Error messages name the
 * parameter by the field names below.  Preconditions that compare rationals
 * are decided exactly; those involving B or a logarithm are decided with
 * enclosures at rising precision (UL_PRE_UNDECIDED only at the cap).
 */
#ifndef UL_BOUNDS_NOISYGD_H
#define UL_BOUNDS_NOISYGD_H

#include "bounds/theorem.h"
#include "num/adaptive.h"

/* Domain limits (decimal, checked exactly). */
/* (L, lambda, beta, sigma, eta, b and init-var: num/domain.h, ul_domain_positive and _nonneg) */
#define UL_NGD_MAX_Q "1e12"      /* q */
#define UL_NGD_MAX_EPS "1e12"    /* eps-dp, eps-dd */
#define UL_NGD_MAX_LOGB "1e15"   /* logB, given or as 4b/sigma^2 */
#define UL_NGD_MAX_COUNT "1e18"  /* n, d, r, p, s */
#define UL_NGD_MAX_STEPS "1e300" /* K, KA, KAbar (inputs) */

/* One problem, every field decimal text; NULL = not given.  Each function
 * says which fields it reads; a missing required field is UL_EINPUT naming
 * it.  Name in messages in brackets. */
typedef struct {
    const char *q;        /* [q] Rényi order; q > 1 is a precondition (domain q > 0) */
    const char *L;        /* [L] Lipschitz constant of l (≥ 0) */
    const char *lambda;   /* [lambda] L2 regularisation constant (> 0) */
    const char *beta;     /* [beta] smoothness constant of l (≥ 0) */
    const char *sigma;    /* [sigma] the paper's σ (> 0); step noise variance 2ησ² */
    const char *eta;      /* [eta] step size (≥ 0) */
    const char *n;        /* [n] database size, whole number ≥ 1 */
    const char *d;        /* [d] dimension, whole number ≥ 1 */
    const char *r;        /* [r] records replaced per request, whole number ≥ 1 */
    const char *K;        /* [K] iterations of one Noisy-GD run (G.7, G.9), whole ≥ 0 */
    const char *KA;       /* [KA] learner iterations K_A, whole ≥ 0 */
    const char *KAbar;    /* [KAbar] unlearner iterations K_Abar per request, whole ≥ 0 */
    const char *eps_dp;   /* [eps-dp] RDP budget of order q (≥ 0) */
    const char *eps_dd;   /* [eps-dd] data-deletion budget of order q (≥ 0) */
    const char *log_B;    /* [logB] Thm 5.2's log B (> 0) */
    const char *b;        /* [b] loss bound sup|l| (> 0): log B = 4b/σ² when logB is NULL */
    const char *init_var; /* [init-var] per-coordinate variance of the initialisation ρ
                           * (> 0); NULL: not checked (the result then presumes the
                           * prescribed ρ) */
    const char *p;        /* [p] releases a p-adaptive requester observes (Thm 4.3), ≥ 0 */
    const char *s;        /* [s] index of the last observed release (Thm 4.3), ≥ 0 */
} ul_ngd_params;

/* ---- RDP of learning: Thm G.7 and G.9 ------------------------------------- */

/* Thm G.7 (any L-Lipschitz loss; Abadi-style composition of K Gaussian
 * steps): ε = q·L²·η·K/(σ²n²).  Reads q, L, sigma, eta, n, K.
 * Preconditions: q_gt_1.  Plain value (exact rational, tightly enclosed). */
ul_status ul_ngd_rdp_g7(const ul_ngd_params *pb, const ul_num_precision *want, ul_num_value *out,
                        ul_preconditions *pre, ul_num_report *rep, char *err, size_t errlen);

/* Thm G.9 (convex, L-Lipschitz, β-smooth, L2(λ); Chourasia, Ye, Shokri):
 * ε = 4qL²/(λσ²n²)·(1 − exp(−ληK/2)); K NULL gives the supremum over K,
 * 4qL²/(λσ²n²).  Reads q, L, lambda, beta, sigma, eta, n, K (optional).
 * Preconditions: q_gt_1, eta_lt_inv_lambda_plus_beta.  Plain value. */
ul_status ul_ngd_rdp_g9(const ul_ngd_params *pb, const ul_num_precision *want, ul_num_value *out,
                        ul_preconditions *pre, ul_num_report *rep, char *err, size_t errlen);

/* ---- deletion, convex: Thm G.15 -------------------------------------------- */

/* The two forms of G.15's bound (both proved; not an erratum). */
typedef enum {
    /* The proof's line before relaxation (default):
     *   ε_dd = 2qL²/(λσ²n²(1 − ηλ/2)) · exp(−ηλ(1 − ηλ/2)·K_Abar). */
    UL_NGD_G15_TIGHT = 0,
    /* The relaxed form behind (111), which Thm 5.1 uses:
     *   ε_dd = 4qL²/(λσ²n²) · exp(−ηλ·K_Abar/2)   (≥ the tight form). */
    UL_NGD_G15_STATED,
} ul_ngd_g15_form;

/* Thm G.15: the (q, ε_dd)-data-deletion of (A_NGD, Abar_NGD) under all
 * non-adaptive r-requesters after K_Abar unlearning steps, for any σ, any K_A,
 * any r (convex, β-smooth, L-Lipschitz loss; L2(λ)).  Reads q, L, lambda,
 * beta, sigma, eta, n, KAbar, init-var (optional).  Preconditions: q_gt_1,
 * eta_lt_inv_lambda_plus_beta, init_variance_prescribed (ρ = N(0, σ²/(λ(1 −
 * ηλ/2)) I), only when init-var is given).  Log-form value; +inf when the
 * tight form is undefined (ηλ ≥ 2). */
ul_status ul_ngd_deletion_g15(const ul_ngd_params *pb, ul_ngd_g15_form form,
                              const ul_num_precision *want, ul_num_value *out,
                              ul_preconditions *pre, ul_num_report *rep, char *err, size_t errlen);

/* The phase-I plateau of R_q between the two worlds before the deletion
 * (G.15 proof, Figure 1).  CORRECTED: the proof's q·c2/c1 =
 * 2qL²/(λσ²n²(1 − ηλ/2)); PRINTED: Figure 1's qL²/(λn²σ²), which is 2 to 4
 * times smaller (docs/noisy-gd.md erratum N13).  Reads as G.15; same preconditions. */
ul_status ul_ngd_g15_plateau(const ul_ngd_params *pb, ul_variant variant,
                             const ul_num_precision *want, ul_num_value *out, ul_preconditions *pre,
                             ul_num_report *rep, char *err, size_t errlen);

/* The least K_Abar ≥ 0 whose G.15 bound is ≤ eps-dd (pb->KAbar is ignored;
 * eps-dd must be > 0).  Certified: the bound at *k is ≤ eps-dd and, when *k >
 * 0, the bound at *k − 1 is > eps-dd, both decided with enclosures.
 * eps_at_k (may be NULL; initialised by the caller) receives the bound at *k
 * to want->digits digits (want NULL: 17).
 * UL_ENOROOT when no K ≤ max_k (0: no limit below ULONG_MAX) reaches it
 * (e.g. eta = 0).  Preconditions as ul_ngd_deletion_g15. */
ul_status ul_ngd_least_kabar_g15(const ul_ngd_params *pb, ul_ngd_g15_form form, unsigned long max_k,
                                 const ul_num_precision *want, unsigned long *k,
                                 ul_num_value *eps_at_k, ul_preconditions *pre, ul_num_report *rep,
                                 char *err, size_t errlen);

/* ---- the smallest σ --------------------------------------------------------- */

typedef enum {
    UL_NGD_SIGMA_G7,  /* RDP ≤ eps-dp after K steps by G.7 (also Thm 5.2(1), eq. 18,
                       * with K = max{K_A, K_Abar}) */
    UL_NGD_SIGMA_G9,  /* RDP ≤ eps-dp after K steps (K NULL: any K) by G.9 */
    UL_NGD_SIGMA_G15, /* deletion ≤ eps-dd after KAbar steps by G.15 (form) */
} ul_ngd_sigma_kind;

/* The smallest σ reaching the target of `kind`.  sigma ⊇ σ*; its upper end is
 * certified safe (the bound evaluated there, with enclosures, is ≤ the
 * target) and its lower end certified unsafe, or sigma = [0, 0] when every
 * σ > 0 reaches the target (L = 0, or K = 0 for G.7/G.9).  pb->sigma is
 * ignored; init-var is not read.  Preconditions as the matching bound. */
ul_status ul_ngd_sigma_min(const ul_ngd_params *pb, ul_ngd_sigma_kind kind, ul_ngd_g15_form form,
                           const ul_num_precision *want, mpfi_ptr sigma, ul_preconditions *pre,
                           ul_num_report *rep, char *err, size_t errlen);

/* ---- Thm 5.1 (convex): prescriptions and iteration bounds ------------------ */

typedef enum {
    UL_NGD_51_ETA,            /* η = 1/(2(λ+β)) */
    UL_NGD_51_SIGMA2,         /* σ² = 4qL²/(λ·eps_dp·n²) */
    UL_NGD_51_SIGMA,          /* its square root */
    UL_NGD_51_INIT_VAR,       /* variance of ρ: σ²/(λ(1 − ηλ/2)) at the prescribed σ, η */
    UL_NGD_51_KAPPA,          /* κ = (λ+β)/λ */
    UL_NGD_51_KABAR_DELETION, /* max(0, 4κ·log(eps_dp/eps_dd))                  (16) */
    UL_NGD_51_KA_UTILITY,     /* max(0, 4κ·log(eps_dp·n²/(4qd)))               (17) */
    UL_NGD_51_KABAR_UTILITY,  /* 4κ·log max{5κ, 8·eps_dp·r²/(qd)}              (17) */
    UL_NGD_51_KABAR_BOTH,     /* the larger of the two K_Abar bounds */
    UL_NGD_51_RISK,           /* excess risk bound 10κqdL²/(λ·eps_dp·n²) under (17) */
} ul_ngd_51_quantity;

/* One quantity of Thm 5.1.  Reads lambda, beta, L, q, eps-dp, eps-dd, and n,
 * d, r where the quantity needs them.  The (17) utility bounds take a variant
 * (docs/noisy-gd.md erratum N10): CORRECTED = the statement (4κ; 8·eps_dp·r²/(qd)), which
 * is what the proof's arithmetic needs; PRINTED = the proof's text (2κ;
 * 8r²/(qd)), which asks for fewer iterations than the proof uses.  Other
 * quantities ignore it.  Preconditions: lambda_pos, beta_pos, L_pos, q_gt_1,
 * eps_dd_pos, eps_dd_le_eps_dp, and r_le_n when r is read.  Plain values. */
ul_status ul_ngd_thm51(const ul_ngd_params *pb, ul_ngd_51_quantity which, ul_variant variant,
                       const ul_num_precision *want, ul_num_value *out, ul_preconditions *pre,
                       ul_num_report *rep, char *err, size_t errlen);

/* The least whole number ≥ an iteration bound (KABAR_DELETION, KA_UTILITY,
 * KABAR_UTILITY or KABAR_BOTH), certified: the bound is ≤ *k and, when
 * *k > 0, > *k − 1.  UL_ENOROOT beyond ULONG_MAX. */
ul_status ul_ngd_thm51_least_k(const ul_ngd_params *pb, ul_ngd_51_quantity which,
                               ul_variant variant, unsigned long *k, ul_preconditions *pre,
                               ul_num_report *rep, char *err, size_t errlen);

/* ---- Thm 5.2 (non-convex, bounded loss) ------------------------------------- */

typedef enum { UL_NGD_52_PRIVACY = 1, UL_NGD_52_DELETION = 2 } ul_ngd_52_part;

/* Checks Thm 5.2 part 1 (privacy) or 2 (deletion) for the given parameters.
 * Reads lambda, beta, L, sigma, eta, q, logB or b, eps-dd, eps-dp, d, n, r,
 * KA, KAbar, init-var (optional).  Shared preconditions: lambda_pos,
 * beta_pos, L_pos, eta_pos, q_gt_1, eps_dd_pos, eps_dd_le_eps_dp,
 * eps_dp_lt_d, r_le_n, loss_bound_le_sigma2_logB_over_4 (when both b and
 * logB are given), init_variance_prescribed (ρ = N(0, σ²/λ I), when init-var
 * is given).  Part 1 adds sigma2_ge_privacy_bound (18).  Part 2 adds
 * eta_le_deletion_bound, KA_ge_bound, KAbar_ge_bound (19) and, in the
 * CORRECTED variant only, eta_le_g22_bound: η ≤ λ/(64Bq²(β+λ)²), which G.22
 * needs and the printed step-size condition implies only when q·eps_dd ≤ d
 * (docs/noisy-gd.md erratum N3).  When every item holds, the theorem gives (q, eps-dp)-RDP
 * (part 1) or (q, eps-dd)-data-deletion (part 2). */
ul_status ul_ngd_thm52_check(const ul_ngd_params *pb, ul_ngd_52_part part, ul_variant variant,
                             ul_preconditions *pre, char *err, size_t errlen);

typedef enum {
    UL_NGD_52_KA_MIN,           /* max(0, (2B/(λη))·log(q·logB/eps_dd))              (19) */
    UL_NGD_52_KABAR_MIN,        /* max(0, K_A − (2B/(λη))·log(logB/(2(eps_dd + (r/n)logB)))) */
    UL_NGD_52_KABAR_SUFFICIENT, /* (2B/(λη))·log(2q(eps_dd + (r/n)logB)/eps_dd): implied by
                                 * (19) at K_A = KA_MIN, independent of K_A */
    UL_NGD_52_ETA_MAX,          /* λ·eps_dd/(64dqB(β+λ)²), the printed step-size bound */
    UL_NGD_52_ETA_MAX_G22,      /* λ/(64Bq²(β+λ)²), Thm G.22's */
    UL_NGD_52_SIGMA2_MIN,       /* qL²η·max{K_A, K_Abar}/(eps_dp·n²)                  (18) */
    UL_NGD_52_RISK,             /* eq. (162): Lσ√(2·eps_dd·B/λ) + eps_dd·Bσ²(2λ+β)/λ
                                 *            + (dσ²/2)(log((β+λ)/λ) + 2√B) */
    UL_NGD_52_GIBBS_RISK,       /* Thm G.24: (dσ²/2)(log((β+λ)/λ) + √B) */
} ul_ngd_52_quantity;

/* One quantity of Thm 5.2, in log form (plain for SIGMA2_MIN), from the
 * fields it needs (logB or b; KA only for KABAR_MIN; d for ETA_MAX and the
 * risks).  No preconditions (see ul_ngd_thm52_check); only domain errors. */
ul_status ul_ngd_thm52(const ul_ngd_params *pb, ul_ngd_52_quantity which,
                       const ul_num_precision *want, ul_num_value *out, ul_num_report *rep,
                       char *err, size_t errlen);

/* The least whole K ≥ KA_MIN, KABAR_MIN or KABAR_SUFFICIENT, certified as in
 * ul_ngd_thm51_least_k.  UL_ENOROOT when it exceeds ULONG_MAX (B is often
 * astronomically large; ul_ngd_thm52 still gives the bound in log form). */
ul_status ul_ngd_thm52_least_k(const ul_ngd_params *pb, ul_ngd_52_quantity which, unsigned long *k,
                               ul_num_report *rep, char *err, size_t errlen);

/* [DERIVED, docs/noisy-gd.md "Derived formulas"] The deletion ε Thm 5.2's
 * proof actually achieves for
 * arbitrary η, K_A, K_Abar: with D* = 32dηqB(β+λ)²/λ (G.22) and
 * c = q·exp(−ληK_Abar/(2B)),
 *   ε_0 = q·exp(−ληK_A/(2B))·logB/2 + D*   (G.22 from ρ, base (153)),
 *   ε_i = c·(ε_{i−1} + r·logB/n) + D*        (G.23 (154), B.4 (155), G.22),
 * and sup_i ε_i = max(ε_0, (c·r·logB/n + D*)/(1 − c)) when c < 1.  Reads as
 * ul_ngd_thm52_check (not eps-dd, eps-dp).  Preconditions: lambda_pos,
 * beta_pos, eta_pos, q_gt_1, r_le_n, eta_le_g22_bound, contraction_lt_1,
 * loss_bound_le_sigma2_logB_over_4 and init_variance_prescribed (as above).
 * Log-form value; +inf when c ≥ 1. */
ul_status ul_ngd_nonconvex_deletion_eps(const ul_ngd_params *pb, const ul_num_precision *want,
                                        ul_num_value *out, ul_preconditions *pre,
                                        ul_num_report *rep, char *err, size_t errlen);

/* ---- adaptive requesters: Thm 4.3 ----------------------------------------- */

/* Thm 4.3 as stated: eps_dd + p·eps_dp (same order q), for p-adaptive
 * requesters, given non-adaptive (q, eps_dd)-deletion and (q, eps_dp)-RDP of
 * every observed release conditional on the earlier ones.  Reads eps-dd,
 * eps-dp, p.  Plain value (exact). */
ul_status ul_ngd_adaptive_eps(const ul_ngd_params *pb, const ul_num_precision *want,
                              ul_num_value *out, ul_num_report *rep, char *err, size_t errlen);

/* Thm 4.3 for Noisy-GD privacy by G.7 (non-convex, Thm 5.2(1)), the
 * requester observing p releases, the last at index s (docs/noisy-gd.md erratum N2).
 * PRINTED: eps_dd + p·G.7(max{K_A, K_Abar}), the theorem applied with Thm
 * 5.2(1)'s eps_dp; it ignores the unobserved runs in between.  CORRECTED:
 * eps_dd + G.7(K_A + s·K_Abar), all the Noisy-GD steps up to the last
 * observed release composed.  p = 0 gives eps_dd in both.  Reads eps-dd, q,
 * L, sigma, eta, n, KA, KAbar, p, s.  Preconditions: q_gt_1, p_le_s_plus_1
 * (p distinct indices among 0..s).  Plain value (exact). */
ul_status ul_ngd_adaptive_eps_nonconvex(const ul_ngd_params *pb, ul_variant variant,
                                        const ul_num_precision *want, ul_num_value *out,
                                        ul_preconditions *pre, ul_num_report *rep, char *err,
                                        size_t errlen);

/* ---- membership inference: Thm 4.1 and 4.5 --------------------------------- */

/* Thm 4.1, eq. (10): the MI advantage ceiling under (q, eps)-data-deletion,
 *   min{ √(2ε), q·e^{ε(q−1)/q}·(2(q−1))^{1/q}/(q−1) − 1, 1 }
 * (the second term is min_δ e^{ε + log(1/δ)/(q−1)} − 1 + 2δ; Adv ≤ 1 always).
 * out ⊇ the ceiling over the boxes q ⊂ (1, ∞), eps ⊂ [0, ∞), at out's
 * precision. */
void ul_ngd_mi_ceiling_enclose(mpfi_ptr out, mpfi_srcptr q, mpfi_srcptr eps);

/* The same from decimal text: q ∈ (1, 1e12], eps ∈ [0, 1e12].  Plain value. */
ul_status ul_ngd_mi_ceiling(const char *q, const char *eps, const ul_num_precision *want,
                            ul_num_value *out, ul_num_report *rep, char *err, size_t errlen);

/* Thm 4.5, eq. (11): with tests of advantage > δ for A and for Abar, no
 * (q, ε)-deletion under 1-adaptive 1-requesters holds for ε below
 *   max{ δ⁴/2, log(q−1) + (q/(q−1))·log((1 + δ²)/(q·2^{1/q})) }
 * (eq. (10) inverted at Adv = δ²).  q ⊂ (1, ∞), delta ⊂ [0, 1]. */
void ul_ngd_mi_threshold_enclose(mpfi_ptr out, mpfi_srcptr q, mpfi_srcptr delta);

/* The same from decimal text: q ∈ (1, 1e12], delta ∈ [0, 1].  Plain value. */
ul_status ul_ngd_mi_threshold(const char *q, const char *delta, const ul_num_precision *want,
                              ul_num_value *out, ul_num_report *rep, char *err, size_t errlen);

/* ---- Remark G.8: G.7 in Abadi et al.'s noise multiplier --------------------- */

/* The smallest σ̂ (Abadi convention, 2ησ² = η²σ̂²L²/n²) for which G.7 gives
 * (1 + (2/ε)log(1/δ), ε/2)-RDP, hence (ε, δ)-DP after K steps.
 * CORRECTED: σ̂ = 2·√(K(ε + 2log(1/δ)))/ε (re-derived from G.7);
 * PRINTED: √(K(ε + 2log(1/δ)))/ε (Remark G.8), which gives RDP 2ε, four
 * times the budget ε/2 (docs/noisy-gd.md erratum N12).  K whole ≥ 0, eps ∈ (0, 1e12],
 * delta ∈ (0, 1).  Plain value. */
ul_status ul_ngd_abadi_sigmahat_min(const char *K, const char *eps, const char *delta,
                                    ul_variant variant, const ul_num_precision *want,
                                    ul_num_value *out, ul_num_report *rep, char *err,
                                    size_t errlen);

/* ---- exact rationals and the (ε, δ) reading (noisygd_rational.c) ---------- */

/* out = Thm G.7's q·L²·η·K/(σ²n²) exactly (reads q, L, eta, K, sigma, n),
 * or with thm43 Thm 4.3's eps_dd + the same at K43 = K_A + s·K_Abar
 * (corrected) or p·max(K_A, K_Abar) (printed), 0 steps when p = 0 (reads
 * also p, s, KA, KAbar, eps-dd).  Decimals validated by the caller's
 * reader (num/input.h). */
void ul_ngd_rational_bound(mpq_ptr out, const ul_ngd_params *pb, bool thm43, ul_variant variant);

/* Remark 2.1 (Mironov 2017 Prop. 3) applied to a Rényi bound: eps ⊇ ε(δ),
 * qstar ⊇ the order used, both set to bound's precision + 32.  linear: the
 * bound is a·q in the order q (bound given at q = 1, or at per_order, which
 * it is divided by): the exact best order, ε = a + 2√(a·log(1/δ)) at
 * q* = 1 + √(log(1/δ)/a); else ρ + log(1/δ)/(q − 1) at the given q.  q,
 * per_order (may be NULL) and delta (0 < δ < 1): validated decimals. */
void ul_ngd_rdp_to_dp(mpfi_ptr eps, mpfi_ptr qstar, const ul_num_value *bound, bool linear,
                      const char *per_order, const char *q, const char *delta);

/* ---- exact ties (noisygd.c, noisygd_thm51.c) ------------------------------- */

/* Whether the bound of ul_ngd_rdp_g9 (same fields) is a rational at pb,
 * and then out = it: K absent (the supremum 4qL²/(λσ²n²)), K = 0 or η = 0
 * (0), or L = 0 (0).  Elsewhere it is transcendental, so no decimal claim
 * ties with it.  False also when a field does not read. */
bool ul_ngd_g9_exact(mpq_ptr out, const ul_ngd_params *pb);

/* The same for ul_ngd_deletion_g15 in the given form: K_Abar = 0 or η = 0
 * (the constant C: stated 4qL²/(λσ²n²), tight 2qL²/(λσ²n²(1 − ηλ/2))),
 * or L = 0 (0).  False where the tight form is +inf (ηλ ≥ 2). */
bool ul_ngd_g15_exact(mpq_ptr out, const ul_ngd_params *pb, ul_ngd_g15_form form);

/* The same for ul_ngd_thm51_deletion_eps (same arguments): K_Abar = 0
 * (stated eps_dp, tight eps_dp/(2(1 − c)), times q_at/q) or eps_dp = 0.
 * Fields validated by the caller's reader, as there. */
bool ul_ngd_thm51_exact(mpq_ptr out, const ul_ngd_params *pb, ul_ngd_g15_form form,
                        const char *q_at);

/* ---- Thm 5.1 as a certificate cites it (noisygd_thm51.c) ------------------- */

/* Thm G.15 evaluated at Thm 5.1's prescriptions η = 1/(2(λ+β)),
 * σ² = 4qL²/(λ·eps_dp·n²) (docs/noisy-gd.md "Algorithm and prescriptions"), in the given form: with
 * c = λ/(4(λ+β)),
 *     stated (111): log ε = log eps_dp − c·K_Abar,
 *     tight:        log ε = log(eps_dp/2) − log(1 − c) − 2c(1 − c)·K_Abar,
 * at order q_at (NULL or pb->q itself: the certificate's q; another order
 * q' keeps σ at the prescription for q, so ε scales by q'/q).  Reads lambda,
 * beta, eps-dp, KAbar, q (and q_at): decimals already validated by the
 * caller's reader (num/input.h).  Log value; the adaptive driver's statuses
 * (UL_ECAP, UL_ETIME). */
ul_status ul_ngd_thm51_deletion_eps(const ul_ngd_params *pb, ul_ngd_g15_form form,
                                    const char *q_at, const ul_num_precision *want,
                                    ul_num_value *out, ul_num_report *rep, char *err,
                                    size_t errlen);

/* Appends the exact checks of citing Thm 5.1 with pb's own η, σ and
 * initialisation variance (each only when given): eta_prescribed (η =
 * 1/(2(λ+β))), sigma2_ge_prescribed (σ² ≥ 4qL²/(λ·eps_dp·n²): more noise
 * only lowers G.9 and G.15), init_variance_prescribed (ρ's variance =
 * σ²/(λ(1 − ηλ/2)), G.15 via Lemma G.14).  Decided on exact rationals;
 * fields validated by the caller's reader as above. */
void ul_ngd_thm51_prescriptions(const ul_ngd_params *pb, ul_preconditions *pre);

#endif
