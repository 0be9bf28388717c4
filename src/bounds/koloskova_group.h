/* src/bounds/koloskova_group.h — DP-SGD + group privacy, the baseline of
 * Koloskova et al. (ICML 2025; docs/neural-unlearning.md, "DP-SGD with group privacy"): group
 * privacy of a per-example (ε, δ) (Dwork–Roth), the public code's split of a group
 * target, and the Poisson-subsampled Gaussian accountant (Mironov, Talwar,
 * Zhang 2019).  The pair and the accountant in koloskova_group.c, claims at
 * an order and the order search in koloskova_group_search.c; conventions in
 * bounds/koloskova_common.h. */
#ifndef UL_BOUNDS_KOLOSKOVA_GROUP_H
#define UL_BOUNDS_KOLOSKOVA_GROUP_H

#include "bounds/koloskova_common.h"
#include "bounds/renyi.h"

typedef enum {
    /* Group privacy of (ε, δ)-DP for k records: (k·ε, δ·Σ_{i<k} e^{iε})
     * = (k·ε, δ·(e^{kε} − 1)/(e^ε − 1)) (Dwork–Roth; docs/neural-unlearning.md, "DP-SGD with group
     * privacy"). */
    UL_KOL_GROUP_EXACT = 0,
    /* FAULTY, the public code's (docs/neural-unlearning.md, "DP-SGD with group privacy", Errata
     * K4): δ·e^{(k−1)ε}, the largest term of the sum only.  Not a group-privacy guarantee for k ≥
     * 2. */
    UL_KOL_GROUP_CODE_LARGEST_TERM,
} ul_kol_group_rule;

/* log δ_k ⊇ the rule's group δ over the boxes eps ⊂ [0, ∞), log_delta. */
void ul_kol_group_log_delta_enclose(mpfi_ptr log_delta_k, mpfi_srcptr eps, mpfi_srcptr log_delta,
                                    unsigned long k, ul_kol_group_rule rule);

/* The group pair from a per-example (eps, delta): eps_k = k·ε (plain),
 * delta_k (log form).  eps ≥ 0, 0 < delta ≤ 1, k ≥ 1. */
ul_status ul_kol_group_certified(const char *eps, const char *delta, unsigned long k,
                                 ul_kol_group_rule rule, const ul_num_precision *want,
                                 ul_preconditions *pre, ul_num_value *eps_k, ul_num_value *delta_k,
                                 ul_num_report *rep, char *err, size_t errlen);

/* The code's per-example target (docs/neural-unlearning.md, "DP-SGD with group privacy"): ε_train =
 * ε_tot/k and δ_train = δ_tot·e^{−(k−1)·ε_train} (the code's reading of group privacy),
 * and the group δ that per-example pair really gives,
 * group_delta = δ_train·Σ_{i<k} e^{i·ε_train} (docs/neural-unlearning.md, Errata K4: 5.0185e-5, not
 * 1e-5, for (50, 1e-5) and k = 225).  eps_train plain; the δ's log form. */
ul_status ul_kol_dpsgd_code_split_certified(const char *eps_total, const char *delta_total,
                                            unsigned long k, const ul_num_precision *want,
                                            ul_preconditions *pre, ul_num_value *eps_train,
                                            ul_num_value *delta_train, ul_num_value *group_delta,
                                            ul_num_report *rep, char *err, size_t errlen);

/* DP-SGD training: Poisson rate q (decimal text, or batch/n exactly when q
 * is NULL), noise multiplier sigma (σ/clip), `steps` compositions. */
typedef struct {
    const char *q;
    unsigned long batch, n;
    const char *sigma;
    unsigned long steps;
} ul_kol_dpsgd_problem;

typedef struct {
    ul_num_value eps_example;            /* per-example ε at delta (plain) */
    ul_num_value eps_group;              /* k·ε (plain) */
    ul_num_value delta_group;            /* δ·Σ_{i<k} e^{iε} (log form) */
    ul_num_value delta_group_code;       /* δ·e^{(k−1)ε}, the code's, FAULTY (log form) */
    char alpha[UL_RENYI_ALPHA_TEXT_LEN]; /* the order the per-example ε was certified at */
} ul_kol_dpsgd_result;

void ul_kol_dpsgd_result_init(ul_kol_dpsgd_result *r);
void ul_kol_dpsgd_result_clear(ul_kol_dpsgd_result *r);

/* Per-example ε at delta from the Poisson-subsampled Gaussian RDP curve
 * (renyi.h) composed pb->steps times, α optimised over (1, 10000] and
 * certified (conv), then the group of k records by both rules.  The report
 * is the per-example ε's (asked for with log10(k) + 2 more digits). */
ul_status ul_kol_dpsgd_group_certified(const ul_kol_dpsgd_problem *pb, const char *delta,
                                       unsigned long k, ul_rdp_conversion conv,
                                       const ul_num_precision *want, ul_preconditions *pre,
                                       ul_kol_dpsgd_result *out, ul_num_report *rep, char *err,
                                       size_t errlen);

/* ---- DP-SGD + group privacy: claims and searches (koloskova_group_search.c) --- */

/* The composed curve steps·ρ_SGM(α; q, σ) (ul_rdp_curve_fn; MTZ 2019 §3.3,
 * Mironov 2017 Prop. 1) at the exact rate q (pb->q, or batch/n): init, then
 * set (pb already checked: 1 ≤ batch ≤ n, q a decimal in [0, 1] that
 * ul_num_check_exact accepted; ul_num_mpq_valid aborts otherwise), clear. */
typedef struct {
    const ul_kol_dpsgd_problem *pb;
    mpq_t q;
} ul_kol_dpsgd_curve_ctx;
void ul_kol_dpsgd_curve_init(ul_kol_dpsgd_curve_ctx *c);
void ul_kol_dpsgd_curve_set(ul_kol_dpsgd_curve_ctx *c, const ul_kol_dpsgd_problem *pb);
void ul_kol_dpsgd_curve_clear(ul_kol_dpsgd_curve_ctx *c);
ul_status ul_kol_dpsgd_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err, size_t errlen);

/* The group δ at the claimed eps at the decimal order alpha: ε' = eps/k
 * exactly, log δ' ⊇ the conversion (renyi.h) of (α, steps·ρ_SGM(α)) at ε',
 * log δ_group = log δ' + log Σ_{i<k} e^{iε'} (docs/neural-unlearning.md, "DP-SGD with group
 * privacy"); both log form, log_delta_example at the same precision. */
ul_status ul_kol_dpsgd_group_delta_certified(const ul_kol_dpsgd_curve_ctx *curve, const char *alpha,
                                             const char *eps, unsigned long k,
                                             ul_rdp_conversion conv, const ul_num_precision *want,
                                             ul_num_value *log_delta_group,
                                             ul_num_value *log_delta_example, ul_num_report *rep,
                                             char *err, size_t errlen);

/* The per-example ε' at the decimal δ' of steps·ρ_SGM(α) at the decimal α
 * (renyi.h's conversion; plain). */
ul_status ul_kol_dpsgd_eps_at_certified(const ul_kol_dpsgd_curve_ctx *curve, const char *alpha,
                                        const char *delta, ul_rdp_conversion conv,
                                        const ul_num_precision *want, ul_num_value *eps,
                                        ul_num_report *rep, char *err, size_t errlen);

/* log of the per-example δ' group privacy needs at ε' = eps/k for the group
 * δ `delta`: log δ − log Σ_{i<k} e^{iε'} (docs/neural-unlearning.md, "DP-SGD with group privacy").
 * */
ul_status ul_kol_group_delta_needed_certified(const char *eps, const char *delta, unsigned long k,
                                              const ul_num_precision *want, ul_num_value *out,
                                              ul_num_report *rep, char *err, size_t errlen);

/* ε/k at prec bits (plain); and as text to 20 and 8 digits (round to
 * nearest; for searches and the report, not a bound).  The decimal texts
 * of ul_kol_group_eps_split, _pair and _code_rule_at are fields the
 * certificate reader accepted (read with ul_num_set_valid, num/input.h). */
void ul_kol_group_eps_split(ul_num_value *v, const char *eps, unsigned long k, mpfr_prec_t prec);
void ul_kol_group_eps_split_text(const char *eps, unsigned long k, char *eps1, char *eps1_short,
                                 size_t n);

/* The group pair (k·ε', log(δ'·Σ_{i<k} e^{iε'})) of ε' = eps_example and the
 * decimal δ' (Dwork–Roth; docs/neural-unlearning.md, "DP-SGD with group privacy"), at eps_example's
 * precision. */
void ul_kol_group_pair(const ul_num_value *eps_example, const char *delta_example, unsigned long k,
                       ul_num_value *eps_group, ul_num_value *log_delta_group);

/* FAULTY, the code's rule (docs/neural-unlearning.md, "DP-SGD with group privacy", Errata K4) on
 * the accountant's pair: log(δ'·e^{(k−1)ε'}), ε' = eps/k, at the precision of log δ'. */
void ul_kol_group_code_rule_at(ul_num_value *out, const char *eps, unsigned long k,
                               const ul_num_value *log_delta_example);

/* The order α in (1, 10000] minimising the conversion's bound (log δ' at
 * ε' = given for UL_RDP_TO_DELTA, ε' at log δ' = given for UL_RDP_TO_EPS) of
 * steps·ρ_SGM in doubles: renyi.h's ul_renyi_search_alpha_d on its double
 * curve, refined by golden section near the optimum; written as the
 * shortest decimal (10 to 17 digits) within 1e-13·(α − 1) of it.  Any α
 * gives a valid bound; this only makes it tight.  False when the objective
 * is nowhere finite. */
bool ul_kol_dpsgd_best_alpha(const ul_kol_dpsgd_curve_ctx *curve, ul_rdp_target target,
                             double given, ul_rdp_conversion conv, char *out, size_t n);

#endif
