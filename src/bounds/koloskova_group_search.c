/* src/bounds/koloskova_group_search.c — the DP-SGD + group-privacy baseline
 * of Koloskova et al. 2025 (docs/neural-unlearning.md, "DP-SGD with group privacy") as an audit
 * asks it: the group δ at a claimed ε at one order α (per-example ε' = ε/k exactly, δ' from
 * the composed subsampled-Gaussian RDP, Mironov-Talwar-Zhang 2019 §3.3,
 * converted by renyi.h, then δ'·Σ_{i<k} e^{iε'}, Dwork–Roth), the
 * per-example ε' at a stated δ' and its group pair, the δ' a claim needs,
 * and the order α searched in doubles on renyi.h's double curve
 * (docs/design.md, "Search in doubles, certify in MPFR").  Entry points:
 * koloskova_group.h, "DP-SGD + group privacy: claims and searches". */
#include "bounds/bounds_util.h"
#include "bounds/koloskova_group.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "num/input.h"

/* The group δ at the claimed ε, at one order α (the evaluator of the
 * adaptive driver): ε' = ε/k exactly, log δ' ⊇ the conversion of
 * (α, steps·ρ_SGM(α)) at ε', log δ_group = log δ' + log Σ_{i<k} e^{iε'}. */
typedef struct {
    const ul_kol_dpsgd_curve_ctx *curve;
    const char *alpha, *eps;
    unsigned long k;
    ul_rdp_conversion conv;
    ul_num_value *delta_example; /* log δ' at the same precision */
} group_ctx;

static ul_status eval_dp_group(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    const group_ctx *g = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 16;
    mpfi_t a, rho, e, ld;
    mpfi_init2(a, p);
    mpfi_init2(rho, p);
    mpfi_init2(e, p);
    mpfi_init2(ld, p);
    ul_status st = ul_num_read_checked(a, "alpha", g->alpha, NULL, false, NULL, false, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_checked(e, "eps", g->eps, NULL, false, NULL, false, err, errlen);
    if (st == UL_OK)
        st = ul_kol_dpsgd_curve(rho, a, (void *)g->curve, err, errlen);
    if (st == UL_OK) {
        mpfi_div_ui(e, e, g->k);
        ul_renyi_log_delta_enclose(ld, a, rho, e, g->conv);
        mpfi_set_prec(g->delta_example->enclosure, p);
        mpfi_set(g->delta_example->enclosure, ld);
        g->delta_example->is_log = true;
        ul_kol_group_log_delta_enclose(out->enclosure, e, ld, g->k, UL_KOL_GROUP_EXACT);
        out->is_log = true;
    }
    mpfi_clear(a);
    mpfi_clear(rho);
    mpfi_clear(e);
    mpfi_clear(ld);
    return st;
}

ul_status ul_kol_dpsgd_group_delta_certified(const ul_kol_dpsgd_curve_ctx *curve, const char *alpha,
                                             const char *eps, unsigned long k,
                                             ul_rdp_conversion conv, const ul_num_precision *want,
                                             ul_num_value *log_delta_group,
                                             ul_num_value *log_delta_example, ul_num_report *rep,
                                             char *err, size_t errlen)
{
    group_ctx g = {curve, alpha, eps, k, conv, log_delta_example};
    return ul_num_adaptive_eval(eval_dp_group, &g, want, log_delta_group, rep, err, errlen);
}

/* log of the per-example δ' that group privacy needs at ε' = ε/k for the
 * claimed group δ: log δ − log Σ_{i<k} e^{iε'} (the evaluator). */
typedef struct {
    const char *eps, *delta;
    unsigned long k;
} need_ctx;

static ul_status eval_dp_need(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    const need_ctx *n = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 16;
    mpfi_t e, zero, ls, ld;
    mpfi_init2(e, p);
    mpfi_init2(zero, p);
    mpfi_init2(ls, p);
    mpfi_init2(ld, p);
    ul_status st = ul_num_read_checked(e, "eps", n->eps, NULL, false, NULL, false, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_checked(ld, "delta", n->delta, NULL, false, NULL, false, err, errlen);
    if (st == UL_OK) {
        mpfi_div_ui(e, e, n->k);
        mpfi_set_ui(zero, 0);
        ul_kol_group_log_delta_enclose(ls, e, zero, n->k, UL_KOL_GROUP_EXACT); /* log Σ */
        mpfi_log(ld, ld);
        mpfi_sub(out->enclosure, ld, ls);
        out->is_log = true;
    }
    mpfi_clear(e);
    mpfi_clear(zero);
    mpfi_clear(ls);
    mpfi_clear(ld);
    return st;
}

ul_status ul_kol_group_delta_needed_certified(const char *eps, const char *delta, unsigned long k,
                                              const ul_num_precision *want, ul_num_value *out,
                                              ul_num_report *rep, char *err, size_t errlen)
{
    need_ctx n = {eps, delta, k};
    return ul_num_adaptive_eval(eval_dp_need, &n, want, out, rep, err, errlen);
}

/* ε/k at prec bits (plain). */
void ul_kol_group_eps_split(ul_num_value *v, const char *eps, unsigned long k, mpfr_prec_t prec)
{
    mpfi_set_prec(v->enclosure, prec);
    ul_num_set_valid(v->enclosure, eps); /* a field the reader accepted */
    mpfi_div_ui(v->enclosure, v->enclosure, k);
    v->is_log = false;
}

/* The code's group rule on the accountant's pair: log(δ'·e^{(k−1)ε'}) with
 * ε' = eps/k, at the precision of log δ' (docs/neural-unlearning.md, "DP-SGD with group privacy",
 * Errata K4: FAULTY). */
void ul_kol_group_code_rule_at(ul_num_value *out, const char *eps, unsigned long k,
                               const ul_num_value *log_delta_example)
{
    mpfr_prec_t p = mpfi_get_prec(log_delta_example->enclosure);
    mpfi_t e;
    mpfi_init2(e, p);
    ul_num_set_valid(e, eps); /* a field the reader accepted */
    mpfi_div_ui(e, e, k);
    mpfi_set_prec(out->enclosure, p);
    ul_kol_group_log_delta_enclose(out->enclosure, e, log_delta_example->enclosure, k,
                                   UL_KOL_GROUP_CODE_LARGEST_TERM);
    out->is_log = true;
    mpfi_clear(e);
}

/* The group pair (k·ε', log(δ'·Σ_{i<k} e^{iε'})) at ε' = eps_example and
 * the decimal δ' (Dwork–Roth; docs/neural-unlearning.md, "DP-SGD with group privacy"), at
 * eps_example's precision. */
void ul_kol_group_pair(const ul_num_value *eps_example, const char *delta_example, unsigned long k,
                       ul_num_value *eps_group, ul_num_value *log_delta_group)
{
    mpfr_prec_t p = mpfi_get_prec(eps_example->enclosure);
    mpfi_t ld;
    mpfi_init2(ld, p);
    ul_num_set_valid(ld, delta_example); /* a field the reader accepted */
    mpfi_log(ld, ld);
    mpfi_set_prec(eps_group->enclosure, p);
    mpfi_mul_ui(eps_group->enclosure, eps_example->enclosure, k);
    eps_group->is_log = false;
    mpfi_set_prec(log_delta_group->enclosure, p);
    ul_kol_group_log_delta_enclose(log_delta_group->enclosure, eps_example->enclosure, ld, k,
                                   UL_KOL_GROUP_EXACT);
    log_delta_group->is_log = true;
    mpfi_clear(ld);
}

/* ---- the order α, searched in doubles (never a bound) -------------------------
 * The certified subsampled-Gaussian RDP costs O(α) terms at every precision;
 * evaluating it inside the search made the audit take 15 s at 100 steps.
 * The search runs on renyi.h's double-precision curve (log A_α summed as
 * dp_accounting does, MTZ 2019 §3.3, but with A_α − 1 kept without
 * cancellation and the alternating tail summed to convergence, so the
 * objective has no bias near the optimum) and only the α found is
 * certified.  Any α gives a valid bound; the search only makes it tight. */

/* What the search minimises at α: log δ' at ε' (UL_RDP_TO_DELTA) or ε' at
 * log δ' (UL_RDP_TO_EPS) of steps·ρ_SGM(α), by the conversion's formula. */
typedef struct {
    double q, sigma, steps, given; /* given: ε' or log δ' */
    ul_rdp_target target;
    ul_rdp_conversion conv;
} dp_search;

/* α as decimal text with the fewest significant digits (10 to 17) that
 * keep it within 1e-13·(α − 1) of the double and above 1: near a sharp
 * minimum (steps·α large) a 10-digit α alone cost 2e-12 of δ. */
static void dp_alpha_text(double alpha, char *out, size_t n)
{
    for (int digits = 10; digits <= 17; digits++) {
        snprintf(out, n, "%.*g", digits, alpha);
        double back = strtod(out, NULL); /* only to choose the length */
        if (back > 1 && fabs(back - alpha) <= 1e-13 * (alpha - 1))
            return;
    }
}

/* The conversion's bound at α = 1 + e^t in doubles (Mironov 2017 Prop. 3;
 * Balle et al. 2020 Thm 21, as renyi.h's search), for the refinement. */
static double dp_objective(const dp_search *s, double t)
{
    double alpha = 1 + exp(t), am1 = exp(t), l1a = log1p(-1 / alpha);
    double rho = s->steps * ul_renyi_sgm_rdp_d(alpha, s->q, s->sigma);
    if (!isfinite(rho))
        return INFINITY;
    if (s->target == UL_RDP_TO_DELTA)
        return s->conv == UL_RDP_MIRONOV ? am1 * (rho - s->given)
                                         : am1 * (rho - s->given + l1a) - log(alpha);
    return s->conv == UL_RDP_MIRONOV ? rho - s->given / am1
                                     : rho + l1a - (s->given + log(alpha)) / am1;
}

/* dp_objective as a ul_bounds_fn_d. */
static double dp_objective_fn(const void *ctx, double t)
{
    return dp_objective(ctx, t);
}

/* Golden section on t = log(α − 1) over [t0 − 2e-8, t0 + 2e-8] (the search
 * stops at a bracket of 1e-8) down to 1e-11: the bound at a minimum of
 * curvature f_tt exceeds the optimum by f_tt·Δt²/2, about 1e-10 relative at
 * Δt = 5e-9 and f_tt = 6e6 (344 steps, α ≈ 936), 1e-16 after this.  Keeps
 * t0 unless the refined point is at least as good. */
static double dp_refine(const dp_search *s, double t0)
{
    double f_min;
    double tm = ul_bounds_golden_min_d(dp_objective_fn, s, t0 - 2e-8, t0 + 2e-8, 1e-11, 60, &f_min);
    return dp_objective(s, tm) <= dp_objective(s, t0) ? tm : t0;
}

/* The best α in (1, 10000] (renyi.h's domain of the subsampled Gaussian),
 * by ul_renyi_search_alpha_d on steps·ρ_SGM in doubles, refined
 * (dp_refine); written as decimal text.  False when the objective is
 * nowhere finite. */
static bool best_alpha(const dp_search *s, char *out, size_t n)
{
    ul_rdp_sgm_d_ctx sgm = {s->q, s->sigma};
    ul_rdp_curve_d part = {ul_renyi_sgm_curve_d, &sgm};
    ul_rdp_composition_d_ctx comp = {&part, &s->steps, 1};
    ul_rdp_curve_d curve = {ul_renyi_composition_curve_d, &comp};
    double alpha = ul_renyi_search_alpha_d(s->target, &curve, 1e4, s->given, s->conv, NULL);
    if (!(alpha > 1) || !isfinite(alpha))
        return false;
    double t = dp_refine(s, log(alpha - 1));
    alpha = 1 + exp(t);
    if (alpha > 1e4)
        alpha = 1e4;
    dp_alpha_text(alpha, out, n);
    return true;
}

bool ul_kol_dpsgd_best_alpha(const ul_kol_dpsgd_curve_ctx *curve, ul_rdp_target target,
                             double given, ul_rdp_conversion conv, char *out, size_t n)
{
    dp_search s = {mpq_get_d(curve->q),
                   strtod(curve->pb->sigma, NULL),
                   (double)curve->pb->steps,
                   given,
                   target,
                   conv};
    return best_alpha(&s, out, n);
}

/* ε' at the decimal δ' of steps·ρ_SGM(α) at the decimal α (the evaluator). */
typedef struct {
    const ul_kol_dpsgd_curve_ctx *curve;
    const char *alpha, *delta;
    ul_rdp_conversion conv;
} pair_ctx;

static ul_status eval_dp_pair_eps(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    const pair_ctx *pr = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 16;
    mpfi_t a, rho, dl;
    mpfi_init2(a, p);
    mpfi_init2(rho, p);
    mpfi_init2(dl, p);
    ul_status st =
        ul_num_read_checked(a, "alpha", pr->alpha, NULL, false, NULL, false, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_checked(dl, "delta", pr->delta, NULL, false, NULL, false, err, errlen);
    if (st == UL_OK)
        st = ul_kol_dpsgd_curve(rho, a, (void *)pr->curve, err, errlen);
    if (st == UL_OK) {
        ul_renyi_eps_enclose(out->enclosure, a, rho, dl, pr->conv);
        out->is_log = false;
    }
    mpfi_clear(a);
    mpfi_clear(rho);
    mpfi_clear(dl);
    return st;
}

ul_status ul_kol_dpsgd_eps_at_certified(const ul_kol_dpsgd_curve_ctx *curve, const char *alpha,
                                        const char *delta, ul_rdp_conversion conv,
                                        const ul_num_precision *want, ul_num_value *eps,
                                        ul_num_report *rep, char *err, size_t errlen)
{
    pair_ctx c = {curve, alpha, delta, conv};
    return ul_num_adaptive_eval(eval_dp_pair_eps, &c, want, eps, rep, err, errlen);
}

/* ε/k to 20 and to 8 digits, for the α search and the report. */
void ul_kol_group_eps_split_text(const char *eps, unsigned long k, char *eps1, char *eps1_short,
                                 size_t n)
{
    mpfr_t x;
    mpfr_init2(x, 128);
    mpfr_set_str(x, eps, 10, MPFR_RNDN);
    mpfr_div_ui(x, x, k, MPFR_RNDN);
    char *t = ul_num_format(x, 20, MPFR_RNDN);
    snprintf(eps1, n, "%s", t);
    free(t);
    t = ul_num_format(x, 8, MPFR_RNDN);
    snprintf(eps1_short, n, "%s", t);
    free(t);
    mpfr_clear(x);
}
