/* src/bounds/koloskova_op.c — output perturbation (bounds/koloskova_op.h). */
#include "bounds/koloskova_op.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/bounds_util.h"
#include "bounds/gaussian.h"
#include "num/deadline.h"
#include "num/input.h"

/* ==== output perturbation ===================================================== */

/* out ⊇ √(2·log(1.25/δ)) (the classical calibration's factor). */
static void classic_factor(mpfi_ptr out, mpq_srcptr delta)
{
    mpfi_t d;
    mpfi_init2(d, mpfi_get_prec(out));
    mpq_t q;
    mpq_init(q);
    mpq_set_ui(q, 5, 4);
    mpq_div(q, q, delta); /* 1.25/δ exactly */
    mpfi_set_q(d, q);
    mpq_clear(q);
    mpfi_log(d, d);
    mpfi_mul_2ui(d, d, 1);
    mpfi_sqrt(out, d);
    mpfi_clear(d);
}

typedef struct {
    mpq_srcptr c0, eps, delta;
} op_ctx;

/* σ = 2·C0·√(2·log(1.25/δ))/ε (docs/neural-unlearning.md, "Output perturbation"; Dwork–Roth Thm A.1
 * with ℓ2 sensitivity 2·C0). */
static ul_status eval_classic_sigma(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const op_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 8;
    mpfi_t f, v;
    mpfi_init2(f, p);
    mpfi_init2(v, p);
    classic_factor(f, c->delta);
    mpfi_set_q(v, c->c0);
    mpfi_mul_2ui(v, v, 1);
    mpfi_mul(f, f, v);
    mpfi_set_q(v, c->eps);
    mpfi_div(out->enclosure, f, v);
    out->is_log = false;
    mpfi_clear(f);
    mpfi_clear(v);
    return UL_OK;
}

/* Does the classic σ deliver (ε, δ)?  At σ_classic the ratio is
 * r = 2·C0/σ = ε/√(2·log(1.25/δ)), where the loose bound 1.25·e^{−ε²/(2r²)}
 * ("Lemma A.4", docs/neural-unlearning.md, "Simplified Gaussian bound") equals δ; so the question
 * is exactly whether the loose bound is an upper bound on θ there (ul_gauss_loose_bound_check's
 * question, asked at this irrational r through the enclosure functions). */
static ul_pre_state classic_delivers_eval(mpq_srcptr eps, mpq_srcptr delta, mpfr_prec_t cap)
{
    ul_pre_state state = UL_PRE_UNDECIDED;
    for (mpfr_prec_t p = 64; state == UL_PRE_UNDECIDED; p *= 2) {
        if (p > cap)
            break;
        mpfi_t e, r, lt, lb;
        mpfi_init2(e, p);
        mpfi_init2(r, p);
        mpfi_init2(lt, p);
        mpfi_init2(lb, p);
        mpfi_set_q(e, eps);
        classic_factor(r, delta);
        mpfi_div(r, e, r);
        ul_gauss_log_theta_enclose(lt, e, r);
        ul_gauss_loose_bound_log_enclose(lb, e, r);
        if (mpfr_greaterequal_p(&lb->left, &lt->right))
            state = UL_PRE_HOLDS;
        else if (mpfr_less_p(&lb->right, &lt->left))
            state = UL_PRE_FAILS;
        mpfi_clear(e);
        mpfi_clear(r);
        mpfi_clear(lt);
        mpfi_clear(lb);
    }
    return state;
}

ul_status ul_kol_op_sigma_certified(const char *c0, const char *eps, const char *delta,
                                    const ul_num_precision *want, ul_preconditions *pre,
                                    ul_num_value *classic, ul_pre_state *classic_delivers,
                                    mpfi_ptr exact, ul_num_report *rep, char *err, size_t errlen)
{
    ul_num_init();
    mpq_t qc, qe, qd;
    mpq_inits(qc, qe, qd, NULL);
    ul_status st = ul_kol_read_param(qc, "c0", c0, err, errlen);
    if (st == UL_OK)
        st = ul_kol_read_rat(qe, "eps", eps, "-" UL_GAUSS_MAX_ABS_EPS, false, UL_GAUSS_MAX_ABS_EPS,
                             false, err, errlen);
    if (st == UL_OK)
        st = ul_kol_read_rat(qd, "delta", delta, "0", true, "1", true, err, errlen);
    if (st == UL_OK) {
        ul_kol_pre_builder b;
        ul_kol_pre_begin(&b);
        ul_kol_pre_put(&b, &ul_kol_pre_c0, ul_kol_holds_if(mpq_sgn(qc) > 0), c0);
        ul_kol_pre_put(&b, &ul_kol_pre_eps_positive, ul_kol_holds_if(mpq_sgn(qe) > 0), eps);
        /* reported, not enforced: recorded after the check */
        st = ul_kol_pre_finish(&b, NULL, err, errlen);
        ul_pre_add(&b.list, ul_kol_pre_eps_lt_1.name, ul_kol_pre_eps_lt_1.rule,
                   ul_kol_holds_if(mpq_cmp_ui(qe, 1, 1) < 0));
        if (pre != NULL)
            *pre = b.list;
    }
    if (st == UL_OK) {
        op_ctx c = {qc, qe, qd};
        st = ul_num_adaptive_eval(eval_classic_sigma, &c, want, classic, rep, err, errlen);
    }
    if (st == UL_OK || st == UL_ECAP) {
        *classic_delivers = classic_delivers_eval(qe, qd, ul_num_max_bits(want));
        /* the exact smallest σ for the sensitivity 2·C0: σ_min = 2·C0/r*
         * with θ_{e^ε}(r*) = δ (docs/neural-unlearning.md, "Output perturbation"; Balle–Wang 2018,
         * Thm 8).  So σ_min(2·C0) = 2·σ_min(C0), and doubling an interval is exact.
         * Asking for σ_min(C0) keeps every C0 of c0's domain (0 < C0 ≤
         * 1e100) inside gauss-sigma's (sensitivity ≤ 1e100): a C0 above
         * 5e99 was refused as the derived "sensitivity" 2·C0. */
        ul_num_report r2 = {0, false};
        ul_status st2 = ul_gauss_sigma_min(eps, delta, c0, want, exact, &r2, err, errlen);
        mpfi_mul_2ui(exact, exact, 1);
        ul_kol_report_merge(rep, &r2);
        if (st2 != UL_OK)
            st = st2;
    }
    mpq_clears(qc, qe, qd, NULL);
    return st;
}

typedef struct {
    mpq_srcptr c0, sigma, eps;
} op_delta_ctx;

static ul_status eval_op_delta(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const op_delta_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 16;
    mpfi_t e, r, s;
    mpfi_init2(e, p);
    mpfi_init2(r, p);
    mpfi_init2(s, p);
    mpfi_set_q(e, c->eps);
    mpfi_set_q(r, c->c0);
    mpfi_mul_2ui(r, r, 1);
    mpfi_set_q(s, c->sigma);
    mpfi_div(r, r, s);
    ul_gauss_theta_enclose(out, e, r); /* E_{e^ε}(N(x,σ²I)‖N(x',σ²I)), ‖x−x'‖ ≤ 2·C0 */
    mpfi_clear(e);
    mpfi_clear(r);
    mpfi_clear(s);
    return UL_OK;
}

ul_status ul_kol_op_delta_certified(const char *c0, const char *sigma, const char *eps,
                                    const ul_num_precision *want, ul_preconditions *pre,
                                    ul_num_value *delta, ul_num_report *rep, char *err,
                                    size_t errlen)
{
    ul_num_init();
    mpq_t qc, qs, qe;
    mpq_inits(qc, qs, qe, NULL);
    ul_status st = ul_kol_read_param(qc, "c0", c0, err, errlen);
    if (st == UL_OK)
        st = ul_kol_read_param(qs, "sigma", sigma, err, errlen);
    if (st == UL_OK)
        st = ul_kol_read_rat(qe, "eps", eps, "-" UL_GAUSS_MAX_ABS_EPS, false, UL_GAUSS_MAX_ABS_EPS,
                             false, err, errlen);
    if (st == UL_OK) {
        ul_kol_pre_builder b;
        ul_kol_pre_begin(&b);
        ul_kol_pre_put(&b, &ul_kol_pre_c0, ul_kol_holds_if(mpq_sgn(qc) > 0), c0);
        ul_kol_pre_put(&b, &ul_kol_pre_sigma, ul_kol_holds_if(mpq_sgn(qs) > 0), sigma);
        ul_kol_pre_put(&b, &ul_kol_pre_eps_nonneg, ul_kol_holds_if(mpq_sgn(qe) >= 0), eps);
        st = ul_kol_pre_finish(&b, pre, err, errlen);
    }
    if (st == UL_OK) {
        mpq_t r, lim;
        mpq_inits(r, lim, NULL);
        mpq_add(r, qc, qc);
        mpq_div(r, r, qs);
        ul_num_mpq_valid(lim, UL_GAUSS_MAX_R); /* a constant within the exact limits */
        if (mpq_cmp(r, lim) > 0)
            st = ul_fail(err, errlen, UL_EINPUT,
                         "sigma: the ratio 2*C0/sigma must be at most %s (got sigma '%s')",
                         UL_GAUSS_MAX_R, sigma);
        mpq_clears(r, lim, NULL);
    }
    if (st == UL_OK) {
        op_delta_ctx c = {qc, qs, qe};
        st = ul_num_adaptive_eval(eval_op_delta, &c, want, delta, rep, err, errlen);
    }
    mpq_clears(qc, qs, qe, NULL);
    return st;
}
