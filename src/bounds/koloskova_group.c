/* src/bounds/koloskova_group.c — DP-SGD + group privacy
 * (bounds/koloskova_group.h): the group pair, the public code's split and the
 * accountant's per-example ε. */
#include "bounds/koloskova_group.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/bounds_util.h"
#include "bounds/gaussian.h"
#include "num/deadline.h"
#include "num/domain.h"
#include "num/input.h"

/* ==== DP-SGD + group privacy ================================================== */

/* log Σ_{i<k} e^{iε} at the exact point e ≥ 0:
 * log((e^{kε} − 1)/(e^ε − 1)) for ε > 0, log k at ε = 0. */
static void log_group_sum_point(mpfi_ptr out, mpfr_srcptr e, unsigned long k)
{
    mpfr_prec_t p = mpfi_get_prec(out) + 8;
    mpfi_t a, b;
    mpfi_init2(a, p);
    mpfi_init2(b, p);
    if (mpfr_sgn(e) <= 0 || k == 1) {
        mpfi_set_ui(a, k);
        mpfi_log(out, a);
    } else {
        mpfi_set_fr(b, e);
        mpfi_mul_ui(a, b, k);
        ul_kol_log_expm1(a, a);
        ul_kol_log_expm1(b, b);
        mpfi_sub(out, a, b);
    }
    mpfi_clear(a);
    mpfi_clear(b);
}

void ul_kol_group_log_delta_enclose(mpfi_ptr log_delta_k, mpfi_srcptr eps, mpfi_srcptr log_delta,
                                    unsigned long k, ul_kol_group_rule rule)
{
    ul_num_init();
    mpfr_prec_t p = mpfi_get_prec(log_delta_k) + 8;
    mpfi_t s;
    mpfi_init2(s, p);
    if (rule == UL_KOL_GROUP_CODE_LARGEST_TERM) {
        /* the code (docs/neural-unlearning.md, "DP-SGD with group privacy"): δ·e^{(k−1)ε} */
        mpfi_mul_ui(s, eps, k - 1);
        mpfi_add(log_delta_k, log_delta, s);
    } else {
        /* Dwork–Roth group privacy (docs/neural-unlearning.md, "DP-SGD with group privacy"):
         * δ·Σ_{i<k} e^{iε}, increasing in ε, so its ends come from the ends of eps (clamped at 0,
         * its domain). */
        mpfr_t e;
        mpfr_init2(e, mpfi_get_prec(eps));
        mpfi_t lo, hi;
        mpfi_init2(lo, p);
        mpfi_init2(hi, p);
        mpfi_get_left(e, eps);
        if (mpfr_sgn(e) < 0)
            mpfr_set_zero(e, 1);
        log_group_sum_point(lo, e, k);
        mpfi_get_right(e, eps);
        if (mpfr_sgn(e) < 0)
            mpfr_set_zero(e, 1);
        log_group_sum_point(hi, e, k);
        mpfr_clear(e);
        mpfi_put(lo, hi);
        mpfi_add(log_delta_k, log_delta, lo);
        mpfi_clear(lo);
        mpfi_clear(hi);
    }
    mpfi_clear(s);
}

typedef struct {
    mpq_srcptr eps, delta;
    unsigned long k;
    ul_kol_group_rule rule;
    ul_num_value *eps_k;
} group_ctx;

static ul_status eval_group(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const group_ctx *g = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure);
    mpfi_t e, ld;
    mpfi_init2(e, p + 8);
    mpfi_init2(ld, p + 8);
    mpfi_set_q(e, g->eps);
    mpfi_set_q(ld, g->delta);
    mpfi_log(ld, ld); /* -inf when δ = 0 */
    ul_kol_group_log_delta_enclose(out->enclosure, e, ld, g->k, g->rule);
    out->is_log = true;
    mpfi_set_prec(g->eps_k->enclosure, p);
    mpfi_mul_ui(g->eps_k->enclosure, e, g->k);
    g->eps_k->is_log = false;
    mpfi_clear(e);
    mpfi_clear(ld);
    return UL_OK;
}

ul_status ul_kol_group_certified(const char *eps, const char *delta, unsigned long k,
                                 ul_kol_group_rule rule, const ul_num_precision *want,
                                 ul_preconditions *pre, ul_num_value *eps_k, ul_num_value *delta_k,
                                 ul_num_report *rep, char *err, size_t errlen)
{
    ul_num_init();
    if (rule != UL_KOL_GROUP_EXACT && rule != UL_KOL_GROUP_CODE_LARGEST_TERM)
        return ul_fail(err, errlen, UL_EINPUT, "rule: must be exact or code");
    mpq_t e, d;
    mpq_inits(e, d, NULL);
    ul_status st = ul_kol_read_rat(e, "eps", eps, "-" UL_RENYI_MAX_EPS, false, UL_RENYI_MAX_EPS,
                                   false, err, errlen);
    if (st == UL_OK)
        st = ul_kol_read_rat(d, "delta", delta, "0", false, "1", false, err, errlen);
    if (st == UL_OK) {
        ul_kol_pre_builder b;
        ul_kol_pre_begin(&b);
        ul_kol_pre_put(&b, &ul_kol_pre_eps_nonneg, ul_kol_holds_if(mpq_sgn(e) >= 0), eps);
        ul_kol_pre_put(&b, &ul_kol_pre_group, ul_kol_holds_if(k >= 1), "0");
        st = ul_kol_pre_finish(&b, pre, err, errlen);
    }
    if (st == UL_OK) {
        group_ctx g = {e, d, k, rule, eps_k};
        st = ul_num_adaptive_eval(eval_group, &g, want, delta_k, rep, err, errlen);
    }
    mpq_clears(e, d, NULL);
    return st;
}

/* ==== DP-SGD: the code's split and the accountant ============================= */

typedef struct {
    mpq_srcptr eps_total, delta_total;
    unsigned long k;
    ul_num_value *eps_train, *delta_train;
} split_ctx;

/* Evaluates all three at out's precision; out is the group δ. */
static ul_status eval_split(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const split_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure);
    mpfi_t e, ld, v;
    mpfi_init2(e, p + 16);
    mpfi_init2(ld, p + 16);
    mpfi_init2(v, p + 16);
    /* ε_train = ε_tot/k;  log δ_train = log δ_tot − (k−1)·ε_train (docs/neural-unlearning.md,
     * "DP-SGD with group privacy": exp(ln δ_tot + (ε_train − 1) − (k·ε_train − 1))) */
    mpfi_set_q(e, c->eps_total);
    mpfi_div_ui(e, e, c->k);
    mpfi_set_q(ld, c->delta_total);
    mpfi_log(ld, ld);
    mpfi_mul_ui(v, e, c->k - 1);
    mpfi_sub(ld, ld, v);
    mpfi_set_prec(c->eps_train->enclosure, p);
    mpfi_set(c->eps_train->enclosure, e);
    c->eps_train->is_log = false;
    mpfi_set_prec(c->delta_train->enclosure, p);
    mpfi_set(c->delta_train->enclosure, ld);
    c->delta_train->is_log = true;
    ul_kol_group_log_delta_enclose(out->enclosure, e, ld, c->k, UL_KOL_GROUP_EXACT);
    out->is_log = true;
    mpfi_clear(e);
    mpfi_clear(ld);
    mpfi_clear(v);
    return UL_OK;
}

ul_status ul_kol_dpsgd_code_split_certified(const char *eps_total, const char *delta_total,
                                            unsigned long k, const ul_num_precision *want,
                                            ul_preconditions *pre, ul_num_value *eps_train,
                                            ul_num_value *delta_train, ul_num_value *group_delta,
                                            ul_num_report *rep, char *err, size_t errlen)
{
    ul_num_init();
    mpq_t e, d;
    mpq_inits(e, d, NULL);
    ul_status st = ul_kol_read_rat(e, "eps-total", eps_total, "0", false, UL_RENYI_MAX_EPS, false,
                                   err, errlen);
    if (st == UL_OK)
        st = ul_kol_read_rat(d, "delta-total", delta_total, "0", true, "1", false, err, errlen);
    if (st == UL_OK) {
        ul_kol_pre_builder b;
        ul_kol_pre_begin(&b);
        ul_kol_pre_put(&b, &ul_kol_pre_group, ul_kol_holds_if(k >= 1), "0");
        st = ul_kol_pre_finish(&b, pre, err, errlen);
    }
    if (st == UL_OK) {
        split_ctx c = {e, d, k, eps_train, delta_train};
        /* The driver judges the group δ; the two others are checked after it
         * and the evaluation repeated at twice the precision if needed. */
        ul_num_precision w = *want;
        mpfr_prec_t cap = ul_num_max_bits(want);
        for (;;) {
            st = ul_num_adaptive_eval(eval_split, &c, &w, group_delta, rep, err, errlen);
            if (st != UL_OK || (ul_num_value_narrow_enough(eps_train, want->digits) &&
                                ul_num_value_narrow_enough(delta_train, want->digits)))
                break;
            if (rep->bits_used >= cap) {
                rep->cap_hit = true;
                st = ul_fail(err, errlen, UL_ECAP,
                             "precision cap of %ld bits reached before %d digits were certain",
                             (long)cap, want->digits);
                break;
            }
            w.start_bits = 2 * rep->bits_used > cap ? cap : 2 * rep->bits_used;
        }
    }
    mpq_clears(e, d, NULL);
    return st;
}

void ul_kol_dpsgd_result_init(ul_kol_dpsgd_result *r)
{
    ul_num_value_init(&r->eps_example, 64);
    ul_num_value_init(&r->eps_group, 64);
    ul_num_value_init(&r->delta_group, 64);
    ul_num_value_init(&r->delta_group_code, 64);
    r->alpha[0] = '\0';
}

void ul_kol_dpsgd_result_clear(ul_kol_dpsgd_result *r)
{
    ul_num_value_clear(&r->eps_example);
    ul_num_value_clear(&r->eps_group);
    ul_num_value_clear(&r->delta_group);
    ul_num_value_clear(&r->delta_group_code);
}

void ul_kol_dpsgd_curve_init(ul_kol_dpsgd_curve_ctx *c)
{
    c->pb = NULL;
    mpq_init(c->q);
}

void ul_kol_dpsgd_curve_set(ul_kol_dpsgd_curve_ctx *c, const ul_kol_dpsgd_problem *pb)
{
    c->pb = pb;
    if (pb->q != NULL) {
        ul_num_mpq_valid(c->q, pb->q); /* read as exact (the reader's second tier) */
    } else {
        mpq_set_ui(c->q, pb->batch, pb->n);
        mpq_canonicalize(c->q);
    }
}

void ul_kol_dpsgd_curve_clear(ul_kol_dpsgd_curve_ctx *c)
{
    mpq_clear(c->q);
}

/* steps·ρ_SGM(α; q, σ): the subsampled Gaussian (MTZ 2019 §3.3, renyi.h)
 * composed `steps` times (Mironov 2017 Prop. 1). */
ul_status ul_kol_dpsgd_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err, size_t errlen)
{
    const ul_kol_dpsgd_curve_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(rho) + 8;
    mpfi_t q, s;
    mpfi_init2(q, p);
    mpfi_init2(s, p);
    mpfi_set_q(q, c->q);
    ul_status st =
        ul_num_read_checked(s, "sigma", c->pb->sigma, NULL, false, NULL, false, err, errlen);
    if (st == UL_OK)
        st = ul_renyi_sgm_rdp(rho, alpha, q, s, err, errlen);
    if (st == UL_OK)
        mpfi_mul_ui(rho, rho, c->pb->steps); /* composition, Mironov 2017 Prop. 1 */
    mpfi_clear(q);
    mpfi_clear(s);
    return st;
}

/* The group of k records from the per-example pair (out->eps_example, d):
 * (k·ε, δ·Σ_{i<k} e^{iε}) and the code's δ·e^{(k−1)ε} (docs/neural-unlearning.md, "DP-SGD with
 * group privacy", Errata K4). */
static void dpsgd_group_of(ul_kol_dpsgd_result *out, mpq_srcptr d, unsigned long k)
{
    mpfr_prec_t p = mpfi_get_prec(out->eps_example.enclosure);
    mpfi_t ld;
    mpfi_init2(ld, p + 16);
    mpfi_set_q(ld, d);
    mpfi_log(ld, ld);
    mpfi_set_prec(out->eps_group.enclosure, p);
    mpfi_mul_ui(out->eps_group.enclosure, out->eps_example.enclosure, k);
    out->eps_group.is_log = false;
    mpfi_set_prec(out->delta_group.enclosure, p);
    ul_kol_group_log_delta_enclose(out->delta_group.enclosure, out->eps_example.enclosure, ld, k,
                                   UL_KOL_GROUP_EXACT);
    out->delta_group.is_log = true;
    mpfi_set_prec(out->delta_group_code.enclosure, p);
    ul_kol_group_log_delta_enclose(out->delta_group_code.enclosure, out->eps_example.enclosure, ld,
                                   k, UL_KOL_GROUP_CODE_LARGEST_TERM);
    out->delta_group_code.is_log = true;
    mpfi_clear(ld);
}

ul_status ul_kol_dpsgd_group_certified(const ul_kol_dpsgd_problem *pb, const char *delta,
                                       unsigned long k, ul_rdp_conversion conv,
                                       const ul_num_precision *want, ul_preconditions *pre,
                                       ul_kol_dpsgd_result *out, ul_num_report *rep, char *err,
                                       size_t errlen)
{
    ul_num_init();
    ul_kol_dpsgd_curve_ctx c;
    ul_kol_dpsgd_curve_init(&c);
    c.pb = pb;
    mpq_t d;
    mpq_init(d);
    ul_status st = UL_OK;
    if (pb->q != NULL) {
        st = ul_kol_read_rat(c.q, "q", pb->q, "0", false, "1", false, err, errlen);
    } else if (pb->n == 0 || pb->batch == 0 || pb->batch > pb->n) {
        st = ul_fail(err, errlen, UL_EINPUT,
                     "batch: need 1 <= batch <= n for the sampling rate batch/n (got %lu/%lu)",
                     pb->batch, pb->n);
    } else {
        mpq_set_ui(c.q, pb->batch, pb->n);
        mpq_canonicalize(c.q);
    }
    if (st == UL_OK) {
        mpfi_t x;
        mpfi_init2(x, 64);
        st = ul_num_read_domain(x, &ul_domain_sigma, "sigma", pb->sigma, err, errlen);
        mpfi_clear(x);
    }
    if (st == UL_OK && pb->steps == 0)
        st = ul_fail(err, errlen, UL_EINPUT, "steps: must be at least 1");
    if (st == UL_OK)
        st = ul_kol_read_rat(d, "delta", delta, "0", true, "1", true, err, errlen);
    if (st == UL_OK) {
        ul_kol_pre_builder b;
        ul_kol_pre_begin(&b);
        ul_kol_pre_put(&b, &ul_kol_pre_group, ul_kol_holds_if(k >= 1), "0");
        st = ul_kol_pre_finish(&b, pre, err, errlen);
    }
    if (st == UL_OK) {
        /* per-example ε: RDP of the Poisson-subsampled Gaussian (add/remove
         * adjacency, as dp_accounting), composed, α optimised (renyi.h) */
        ul_num_precision w = *want;
        w.digits = want->digits + 2 + (int)ceil(log10((double)k));
        ul_rdp_curve curve = {ul_kol_dpsgd_curve, &c};
        /* Large fractional orders are costly (the subsampled Gaussian's series
         * grows like α), so the search first covers (1, 512] and widens to
         * renyi.h's limit only when its optimum sits near that edge.  Any α
         * gives a valid bound; this only affects how close to optimal it is. */
        st =
            ul_renyi_curve_certified(UL_RDP_TO_EPS, &curve, 512, delta, conv, &w, &out->eps_example,
                                     out->alpha, sizeof out->alpha, rep, err, errlen);
        if ((st == UL_OK || st == UL_ECAP) && strtod(out->alpha, NULL) > 256)
            st = ul_renyi_curve_certified(UL_RDP_TO_EPS, &curve, 1e4, delta, conv, &w,
                                          &out->eps_example, out->alpha, sizeof out->alpha, rep,
                                          err, errlen);
    }
    if (st == UL_OK || st == UL_ECAP)
        dpsgd_group_of(out, d, k);
    ul_kol_dpsgd_curve_clear(&c);
    mpq_clear(d);
    return st;
}
