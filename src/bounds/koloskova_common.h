/* src/bounds/koloskova_common.h — Koloskova, Allouah, Jha, Guerraoui, Koyejo, "Certified
 * Unlearning for Neural Networks" (ICML 2025) and its baselines, as certified
 * functions: model clipping, gradient clipping (PABI), output perturbation,
 * and DP-SGD + group privacy.  Source of every formula: docs/neural-unlearning.md
 * (section numbers below), which also describes what the public code
 * (stair-lab/certified-unlearning-neural-networks-icml-2025) computes.
 *
 * Notation.  The paper's learning rate γ is called `lr` here (γ = e^ε in
 * gaussian.h); λ is the ℓ2 regularisation, C0 the initial clip radius, C1
 * the gradient clip, C2 the model-clipping radius, σ the per-step noise
 * standard deviation (noise N(0, σ²I), not 2ησ²), ε natural-log.
 *
 * Every entry point reads its numbers from decimal text, exactly: the
 * preconditions of the theorem (C's > 0, lr·λ < 1, …) are decided in exact
 * rational arithmetic, never by rounding, and each is reported by name in a
 * ul_preconditions list (theorem.h; `pre` may be NULL).  A violated
 * precondition makes the entry point return UL_EINPUT with a message naming
 * the parameter and the precondition; the list then shows every violated one.
 * Parameter names in messages are CLI flag names without dashes: eps, delta,
 * c0, c1, c2, lr, lambda, sigma, sigma0, dim, steps, eps-renyi, q, batch, n,
 * k, eps-total, delta-total.  Results are enclosures (ul_num_value, log form
 * where δ can be astronomically small) to want->digits correct digits, with
 * a ul_num_report; UL_ECAP means sound but wider than asked.
 *
 * Files, one per family, each with its header: koloskova_mc.c (model
 * clipping: the theorem) and koloskova_mc_search.c (the brackets that decide
 * a claim without running the adaptive recursion, and the recursion in
 * doubles for searches); koloskova_pabi.c (gradient clipping, PABI: the
 * theorem and its shift allocation) and koloskova_pabi_search.c (the linear
 * RDP curve's claims and searches, the code's recipes in doubles);
 * koloskova_op.c (output perturbation); koloskova_group.c (DP-SGD + group
 * privacy: the pair, the code's split, the accountant) and
 * koloskova_group_search.c (at a chosen order, and the order search).
 * koloskova_common.c: what they share (exact rationals, named
 * preconditions, small interval helpers).  The searches run in doubles and
 * only choose where a certified function is evaluated (docs/design.md, "Search in
 * doubles, certify in MPFR").
 */
#ifndef UL_BOUNDS_KOLOSKOVA_COMMON_H
#define UL_BOUNDS_KOLOSKOVA_COMMON_H

#include "bounds/contraction.h"
#include "bounds/renyi.h"
#include "bounds/theorem.h"

/* Largest radius, learning rate, λ, σ, σ0 accepted (cost, not soundness). */
#define UL_KOL_MAX_PARAM "1e100"
/* Most noisy steps a PABI problem evaluates one by one (per-step σ lists and
 * the code's decreasing schedule); constant σ has a closed form up to
 * UL_CONTRACTION_MAX_STEPS. */
#define UL_KOL_PABI_MAX_LOOP_STEPS 1000000UL

/* Shape of the initial clip of the trained model (docs/neural-unlearning.md, "Notation"): the ℓ2
 * ball of radius C0 (code `clip`, diameter 2·C0) or the box [−C0, C0]^d (code
 * `clamp`, diameter 2·C0·√d; docs/neural-unlearning.md, Errata K6: the code's own clamp C0 is
 * data-dependent, here C0 is the box half-width). */
typedef enum { UL_KOL_INIT_BALL = 0, UL_KOL_INIT_BOX } ul_kol_init;

/* ---- shared by the families (koloskova_common.c) ------------------------------ */

/* Reads a decimal parameter: syntax and range as ul_num_read_checked, then
 * exactly into q. */
ul_status ul_kol_read_rat(mpq_ptr q, const char *name, const char *text, const char *lo,
                          bool lo_strict, const char *hi, bool hi_strict, char *err, size_t errlen);
/* A parameter whose sign is a precondition: only its magnitude is an input limit. */
ul_status ul_kol_read_param(mpq_ptr q, const char *name, const char *text, char *err,
                            size_t errlen);
/* The σ list (one value, or one per step), read exactly into *list. */
ul_status ul_kol_read_sigma_list(mpq_t **list, size_t *n, const char *const *text, size_t n_text,
                                 unsigned long steps, char *err, size_t errlen);
/* q's exact decimal text (≤ max_digits mantissa digits) or NULL; q rounded to
 * `digits` digits up or toward 0; both malloc'd (NULL when out of memory). */
char *ul_kol_rat_exact_text(mpq_srcptr q, size_t max_digits);
char *ul_kol_rat_round_text(mpq_srcptr q, long digits, bool up);

/* A named precondition: its name, the parameter it constrains, its rule. */
typedef struct {
    const char *name, *param, *rule;
} ul_kol_pre_def;

extern const ul_kol_pre_def ul_kol_pre_eps_nonneg, ul_kol_pre_eps_positive, ul_kol_pre_eps_lt_1,
    ul_kol_pre_c0, ul_kol_pre_c1, ul_kol_pre_c2, ul_kol_pre_lr, ul_kol_pre_lambda,
    ul_kol_pre_lr_lambda, ul_kol_pre_sigma, ul_kol_pre_sigma0, ul_kol_pre_dim, ul_kol_pre_steps,
    ul_kol_pre_lr_constant, ul_kol_pre_eps_renyi, ul_kol_pre_feasible, ul_kol_pre_group;

/* The list being filled, and the message of the first violated item. */
typedef struct {
    ul_preconditions list;
    const ul_kol_pre_def *first_failed;
    const char *first_got;
    bool undecided;
} ul_kol_pre_builder;

void ul_kol_pre_begin(ul_kol_pre_builder *b);
/* Appends an item; got is the text of the offending input (for the message). */
void ul_kol_pre_put(ul_kol_pre_builder *b, const ul_kol_pre_def *d, ul_pre_state st,
                    const char *got);
ul_pre_state ul_kol_holds_if(bool ok);
/* Copies the list out; UL_EINPUT naming the first violated precondition. */
ul_status ul_kol_pre_finish(const ul_kol_pre_builder *b, ul_preconditions *out, char *err,
                            size_t errlen);

/* out ⊇ log(e^x − 1) for x > 0. */
void ul_kol_log_expm1(mpfi_ptr out, mpfi_srcptr x);
/* The initial diameter D0 = 2·C0 (ball) or 2·C0·√d (box). */
void ul_kol_initial_diameter(mpfi_ptr out, mpq_srcptr c0, ul_kol_init init, unsigned long dim);
/* into: the larger precision used and either cap hit. */
void ul_kol_report_merge(ul_num_report *into, const ul_num_report *r);

/* log of a decimal in doubles, for searches (finite for δ = 1e-400;
 * koloskova_mc_search.c). */
double ul_kol_log_decimal_d(const char *text);

#endif
