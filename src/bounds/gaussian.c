/* src/bounds/gaussian.c — θ_{e^ε}(r), its inverses and the loose bound.
 *
 * How θ is enclosed.  Inputs arrive as narrow boxes (a decimal such as 0.1
 * is a one-ulp interval), and the formula is evaluated in interval
 * arithmetic over the box.  A box that straddles two regimes (only wide,
 * hand-made boxes do) falls back to its corners: θ is decreasing in ε and
 * increasing in r.  For ε > 0, r > 0 (docs/neural-unlearning.md, "Hockey-stick divergence of
 * Gaussians"), with
 * a = ε/r − r/2 and b = ε/r + r/2:
 *
 *     log θ = log Q(a) + log(1 − e^d),   d = ε + log Q(b) − log Q(a) < 0,
 *
 * which is Q(a) − e^ε Q(b) rewritten so that neither Q nor e^ε is ever formed:
 * no overflow for huge ε, no underflow for tiny θ.  The cancellation between
 * the two terms shows up as a small |d|; it is paid for with precision (the
 * adaptive driver doubles it), never by clamping.  When the precision cannot
 * yet show d < 0, the enclosure keeps only the certain θ ≤ Q(a).
 *
 * Special points: ε = 0 gives θ_1(r) = 1 − 2Q(r/2) = erf(r/(2√2)) (docs/neural-unlearning.md,
 * "Hockey-stick divergence of Gaussians",
 * the TV distance); ε < 0 uses reciprocity, θ_γ(r) = 1 − γ + γ·θ_{1/γ}(r)
 * (E_γ(P‖Q) = 1 − γ + γE_{1/γ}(Q‖P), Asoodeh, Diaz, Calmon 2020; docs/accounting.md
 * "Hockey-stick divergence and the Gaussian mechanism"; θ symmetric in P, Q);
 * r = 0 gives θ = max(0, 1 − e^ε) exactly.
 */
#include "bounds/gaussian.h"

#include <math.h>
#include <stdlib.h>

#include "bounds/bounds_util.h"
#include "num/gauss_tail.h"
#include "num/domain.h"
#include "num/input.h"
#include "num/threshold.h"

/* ---- θ on narrow boxes -------------------------------------------------- */

/* Each function below evaluates θ's formula in interval arithmetic over the
 * box eps × r it is given: sound for any box, and tight for the narrow
 * (one-ulp) boxes that decimal inputs produce, at the cost of one log Q per
 * term instead of one per corner. */

/* log θ for eps > 0, r > 0 (both strictly). */
static void log_theta_positive(mpfi_ptr out, mpfi_srcptr e, mpfi_srcptr r, mpfr_prec_t w)
{
    mpfi_t a, b, half, la, lb, d;
    mpfi_init2(a, w);
    mpfi_init2(b, w);
    mpfi_init2(half, w);
    mpfi_init2(la, w);
    mpfi_init2(lb, w);
    mpfi_init2(d, w);

    mpfi_div_2ui(half, r, 1);
    mpfi_div(a, e, r); /* ε/r */
    mpfi_add(b, a, half);
    mpfi_sub(a, a, half);
    ul_num_log_q(la, a);
    ul_num_log_q(lb, b);

    /* d = log(e^ε Q(b) / Q(a)) */
    mpfi_add(d, e, lb);
    mpfi_sub(d, d, la);
    int resolved = 0;
    if (mpfi_is_strictly_neg(d)) {
        mpfi_expm1(d, d);
        mpfi_neg(d, d); /* 1 − e^d ∈ (0, 1) */
        if (mpfi_is_strictly_pos(d)) {
            mpfi_log(d, d);
            mpfi_add(out, la, d);
            resolved = 1;
        }
    }
    if (!resolved) {
        /* Only θ ≤ Q(a) is certain at this precision. */
        mpfr_t lo, hi;
        mpfr_inits2(w, lo, hi, (mpfr_ptr)0);
        mpfr_set_inf(lo, -1);
        mpfi_get_right(hi, la);
        mpfi_interv_fr(out, lo, hi);
        mpfr_clears(lo, hi, (mpfr_ptr)0);
    }
    mpfi_clear(a);
    mpfi_clear(b);
    mpfi_clear(half);
    mpfi_clear(la);
    mpfi_clear(lb);
    mpfi_clear(d);
}

/* log θ_1(r) = log erf(r/(2√2)) for r > 0; erf is increasing, so its two
 * ends come from the two ends of the argument. */
static void log_theta_zero_eps(mpfi_ptr out, mpfi_srcptr r, mpfr_prec_t w)
{
    mpfi_t arg;
    mpfi_init2(arg, w);
    mpfi_set_ui(arg, 8);
    mpfi_sqrt(arg, arg); /* 2√2 */
    mpfi_div(arg, r, arg);
    mpfr_t lo, hi;
    mpfr_inits2(w, lo, hi, (mpfr_ptr)0);
    mpfi_get_left(lo, arg);
    mpfi_get_right(hi, arg);
    mpfr_erf(lo, lo, MPFR_RNDD);
    mpfr_erf(hi, hi, MPFR_RNDU);
    mpfi_interv_fr(arg, lo, hi);
    mpfi_log(out, arg);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    mpfi_clear(arg);
}

/* log θ for eps < 0 (strictly) and r > 0 or r = [0, 0], by reciprocity:
 * θ = (1 − e^ε) + e^ε·θ_{e^{−ε}}(r). */
static void log_theta_negative(mpfi_ptr out, mpfi_srcptr e, mpfi_srcptr r, mpfr_prec_t w)
{
    mpfi_t first, second;
    mpfi_init2(first, w);
    mpfi_init2(second, w);
    mpfi_expm1(first, e);
    mpfi_neg(first, first); /* 1 − e^ε > 0 */
    if (mpfi_is_zero(r)) {
        mpfi_log(out, first);
    } else {
        mpfi_neg(second, e);
        log_theta_positive(second, second, r, w);
        mpfi_add(second, second, e);
        mpfi_exp(second, second); /* e^ε θ_{e^{−ε}}(r); a -inf lower end gives 0 */
        mpfi_add(first, first, second);
        mpfi_log(out, first);
    }
    mpfi_clear(first);
    mpfi_clear(second);
}

/* The box when it lies inside one of the three regimes; false otherwise. */
static bool log_theta_regime(mpfi_ptr out, mpfi_srcptr e, mpfi_srcptr r, mpfr_prec_t w)
{
    bool r_pos = mpfi_is_strictly_pos(r);
    if (mpfi_is_strictly_pos(e) && r_pos)
        log_theta_positive(out, e, r, w);
    else if (mpfi_is_strictly_neg(e) && (r_pos || mpfi_is_zero(r)))
        log_theta_negative(out, e, r, w);
    else if (mpfi_is_zero(e) && r_pos)
        log_theta_zero_eps(out, r, w);
    else
        return false;
    return true;
}

/* log θ at the exact point (eps, r); -inf where θ = 0 (r = 0, ε ≥ 0). */
static void log_theta_point(mpfr_ptr lo, mpfr_ptr hi, mpfr_srcptr eps, mpfr_srcptr r,
                            mpfr_prec_t w)
{
    if (mpfr_zero_p(r) && mpfr_sgn(eps) >= 0) {
        mpfr_set_inf(lo, -1);
        mpfr_set_inf(hi, -1);
        return;
    }
    mpfi_t e, rr, v;
    mpfi_init2(e, mpfr_get_prec(eps));
    mpfi_init2(rr, mpfr_get_prec(r));
    mpfi_init2(v, w);
    mpfi_set_fr(e, eps);
    mpfi_set_fr(rr, r);
    log_theta_regime(v, e, rr, w); /* a point is always inside one regime */
    mpfi_get_left(lo, v);
    mpfi_get_right(hi, v);
    mpfi_clear(e);
    mpfi_clear(rr);
    mpfi_clear(v);
}

/* ---- θ over boxes ---------------------------------------------------------- */

void ul_gauss_log_theta_enclose(mpfi_ptr out, mpfi_srcptr eps, mpfi_srcptr r_box)
{
    ul_num_init();
    mpfr_prec_t w = mpfi_get_prec(out) + 8;
    mpfr_t lo, hi;
    mpfr_inits2(w, lo, hi, (mpfr_ptr)0);
    mpfi_t v;
    mpfi_init2(v, w);
    if (log_theta_regime(v, eps, r_box, w)) {
        mpfi_get_left(lo, v);
        mpfi_get_right(hi, v);
    } else {
        /* A box across regimes: θ is decreasing in ε and increasing in r, so
         * its ends are the corners (ε_hi, r_lo) and (ε_lo, r_hi). */
        mpfr_t el, eh, rl, rh, unused;
        mpfr_inits2(mpfi_get_prec(eps), el, eh, (mpfr_ptr)0);
        mpfr_inits2(mpfi_get_prec(r_box), rl, rh, (mpfr_ptr)0);
        mpfr_init2(unused, w);
        mpfi_get_left(el, eps);
        mpfi_get_right(eh, eps);
        mpfi_get_left(rl, r_box);
        mpfi_get_right(rh, r_box);
        log_theta_point(lo, unused, eh, rl, w);
        log_theta_point(unused, hi, el, rh, w);
        mpfr_clears(el, eh, rl, rh, unused, (mpfr_ptr)0);
    }
    if (mpfr_sgn(hi) > 0)
        mpfr_set_zero(hi, 1); /* θ ≤ 1: an E_γ divergence with γ > 0 never exceeds 1 */
    mpfi_interv_fr(out, lo, hi);
    mpfi_clear(v);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

void ul_gauss_theta_enclose(ul_num_value *out, mpfi_srcptr eps, mpfi_srcptr r_box)
{
    if (mpfi_is_zero(r_box) && mpfi_is_nonneg(eps)) {
        mpfi_set_ui(out->enclosure, 0); /* θ_γ(0) = 0 for γ ≥ 1 */
        out->is_log = false;
        return;
    }
    ul_gauss_log_theta_enclose(out->enclosure, eps, r_box);
    out->is_log = true;
}

/* ---- certified θ ------------------------------------------------------------ */

typedef struct {
    const char *eps, *r;
} theta_inputs;

static ul_status check_theta_inputs(const theta_inputs *in, char *err, size_t errlen)
{
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = ul_num_read_domain(x, &ul_domain_eps_any, "eps", in->eps, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_r, "r", in->r, err, errlen);
    mpfi_clear(x);
    return st;
}

static ul_status eval_theta(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    const theta_inputs *in = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure);
    mpfi_t e, r;
    mpfi_init2(e, p);
    mpfi_init2(r, p);
    ul_status st = UL_OK;
    if (ul_num_set_decimal(e, in->eps) != UL_OK || ul_num_set_decimal(r, in->r) != UL_OK)
        st = ul_fail(err, errlen, UL_EINPUT, "eps/r: unreadable");
    else
        ul_gauss_theta_enclose(out, e, r);
    mpfi_clear(e);
    mpfi_clear(r);
    return st;
}

/* Bits lost to cancellation, estimated in doubles (a choice of starting
 * precision, not a bound: the driver checks the result and retries).
 * log θ carries |log Q(a)| ≈ a²/2 in magnitude while the information sits in
 * d ≈ −r·(h(a) − a) for small r, h the normal hazard. */
static double theta_guard_bits(const char *eps_text, const char *r_text)
{
    double eps = fabs(strtod(eps_text, NULL)), r = strtod(r_text, NULL);
    if (!(r > 0) || !isfinite(eps) || !isfinite(r))
        return 0;
    double a = eps / r - r / 2;
    double log_q_mag = a > 1 ? a * a / 2 + log(a) : 1;
    double hazard_gap = a > 0 ? 1 / (a + 1) : 0.8 - a;
    double d = r * hazard_gap;
    if (d > 1)
        d = 1;
    if (!(d > 0))
        d = 1e-300;
    return 2 * log2(1 + log_q_mag) + log2(1 / d);
}

ul_status ul_gauss_theta_certified(const char *eps, const char *r, const ul_num_precision *want,
                                   ul_num_value *out, ul_num_report *report, char *err,
                                   size_t errlen)
{
    theta_inputs in = {eps, r};
    ul_status st = check_theta_inputs(&in, err, errlen);
    if (st != UL_OK)
        return st;
    ul_num_precision plan = *want;
    plan.start_bits = ul_num_start_bits(want, theta_guard_bits(eps, r));
    return ul_num_adaptive_eval(eval_theta, &in, &plan, out, report, err, errlen);
}

/* ---- inverses --------------------------------------------------------------- */

/* [0, +inf]: what an inverse reports when the cap stopped it before any
 * certified bracket was found. */
static void set_unbounded(mpfi_ptr x)
{
    mpfr_t zero, inf;
    mpfr_inits2(mpfi_get_prec(x), zero, inf, (mpfr_ptr)0);
    mpfr_set_zero(zero, 1);
    mpfr_set_inf(inf, 1);
    mpfi_interv_fr(x, zero, inf);
    mpfr_clears(zero, inf, (mpfr_ptr)0);
}

/* Compares log θ (over the box eps × r) with log δ: SAFE when θ ≤ δ is
 * certain, UNSAFE when θ > δ is certain. */
static ul_side compare_theta_delta(mpfi_srcptr eps, mpfi_srcptr r, mpfi_srcptr delta,
                                   mpfr_prec_t p)
{
    mpfi_t lt, ld;
    mpfi_init2(lt, p);
    mpfi_init2(ld, p);
    ul_gauss_log_theta_enclose(lt, eps, r);
    mpfi_log(ld, delta);
    ul_side side = UL_SIDE_UNDECIDED;
    if (mpfr_lessequal_p(&lt->right, &ld->left))
        side = UL_SIDE_SAFE;
    else if (mpfr_greater_p(&lt->left, &ld->right))
        side = UL_SIDE_UNSAFE;
    mpfi_clear(lt);
    mpfi_clear(ld);
    return side;
}

typedef struct {
    const char *eps, *r, *delta; /* the one being searched is NULL */
} inverse_inputs;

/* (ε, r, δ) at the search point x: x is whichever of ε and r is NULL. */
static void inverse_point(const inverse_inputs *in, mpfr_srcptr x, mpfi_ptr e, mpfi_ptr r,
                          mpfi_ptr d)
{
    ul_num_set_valid(d, in->delta); /* checked before the search */
    if (in->eps != NULL) {
        ul_num_set_valid(e, in->eps);
        mpfi_set_fr(r, x);
    } else {
        ul_num_set_valid(r, in->r);
        mpfi_set_fr(e, x);
    }
}

static ul_side classify(const inverse_inputs *in, mpfr_srcptr x, mpfr_prec_t p)
{
    mpfi_t e, r, d;
    mpfi_init2(e, p);
    mpfi_init2(r, p);
    mpfi_init2(d, p);
    inverse_point(in, x, e, r, d);
    ul_side side = compare_theta_delta(e, r, d, p);
    mpfi_clear(e);
    mpfi_clear(r);
    mpfi_clear(d);
    return side;
}

static ul_side classify_any(mpfr_srcptr x, mpfr_prec_t p, void *ctx)
{
    return classify(ctx, x, p);
}

/* The estimate of the inverses' search (num/threshold.h: it only steers the
 * search; the two ends are classified): the midpoint of log θ − log δ at x,
 * p bits, negative where θ ≤ δ (the safe side); false where it is not a
 * finite number. */
static bool estimate_any(mpfr_ptr g, mpfr_srcptr x, mpfr_prec_t p, void *ctx)
{
    mpfi_t e, r, d, lt;
    mpfi_init2(e, p);
    mpfi_init2(r, p);
    mpfi_init2(d, p);
    mpfi_init2(lt, p);
    inverse_point(ctx, x, e, r, d);
    ul_gauss_log_theta_enclose(lt, e, r);
    mpfi_log(d, d);
    mpfi_sub(lt, lt, d);
    mpfi_mid(g, lt);
    bool ok = mpfr_number_p(g);
    mpfi_clear(e);
    mpfi_clear(r);
    mpfi_clear(d);
    mpfi_clear(lt);
    return ok;
}

ul_status ul_gauss_sigma_min(const char *eps, const char *delta, const char *sensitivity,
                             const ul_num_precision *want, mpfi_ptr sigma, ul_num_report *report,
                             char *err, size_t errlen)
{
    mpfi_t s;
    mpfi_init2(s, 64);
    ul_status st = ul_num_read_domain(s, &ul_domain_eps, "eps", eps, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(s, &ul_domain_delta, "delta", delta, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(s, &ul_domain_sensitivity, "sensitivity", sensitivity, err, errlen);
    if (st != UL_OK) {
        mpfi_clear(s);
        return st;
    }

    /* r* = sup{ r : θ(r) ≤ δ } exists for ε ≥ 0 and 0 < δ < 1 (θ runs from 0
     * to 1 in r); small r is the safe side.  σ* = sensitivity / r*. */
    inverse_inputs in = {eps, NULL, delta};
    mpfr_t safe_r, unsafe_r;
    mpfr_inits2(64, safe_r, unsafe_r, (mpfr_ptr)0);
    st = ul_num_bracket_threshold_est(classify_any, estimate_any, &in, false, want, safe_r,
                                      unsafe_r, report, err, errlen);
    if (st == UL_OK || (st == UL_ECAP && !mpfr_nan_p(unsafe_r))) {
        /* σ* ∈ [S_lo / r_unsafe, S_hi / r_safe]; the upper end is safe. */
        ul_bounds_sigma_from_radius_bracket(sigma, sensitivity, safe_r, unsafe_r,
                                            report->bits_used + 32);
    } else if (st == UL_ECAP) {
        set_unbounded(sigma); /* no certified bracket: all that is known is σ* ≥ 0 */
    }
    mpfr_clears(safe_r, unsafe_r, (mpfr_ptr)0);
    mpfi_clear(s);
    return st;
}

ul_status ul_gauss_eps_min(const char *r, const char *delta, const ul_num_precision *want,
                           mpfi_ptr eps_out, ul_num_report *report, char *err, size_t errlen)
{
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = ul_num_read_domain(x, &ul_domain_r, "r", r, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_delta, "delta", delta, err, errlen);
    mpfi_clear(x);
    if (st != UL_OK)
        return st;

    inverse_inputs in = {NULL, r, delta};
    report->cap_hit = false;
    report->bits_used = 0;

    /* ε* = 0 when already θ_1(r) ≤ δ (always when r = 0). */
    mpfr_t zero;
    mpfr_init2(zero, 8);
    mpfr_set_zero(zero, 1);
    ul_side at_zero = UL_SIDE_UNDECIDED;
    mpfr_prec_t cap = ul_num_max_bits(want);
    for (mpfr_prec_t p = ul_num_start_bits(want, 0);; p = 2 * p > cap ? cap : 2 * p) {
        at_zero = classify(&in, zero, p);
        report->bits_used = p;
        if (at_zero != UL_SIDE_UNDECIDED || p >= cap)
            break;
    }
    mpfr_clear(zero);
    if (at_zero == UL_SIDE_SAFE) {
        mpfi_set_ui(eps_out, 0);
        return UL_OK;
    }
    if (at_zero == UL_SIDE_UNDECIDED) {
        report->cap_hit = true;
        set_unbounded(eps_out);
        return ul_fail(err, errlen, UL_ECAP,
                       "could not decide whether eps = 0 already reaches delta within %ld bits",
                       (long)cap);
    }

    /* θ decreases to 0 as ε grows: large ε is the safe side. */
    mpfr_t safe_e, unsafe_e;
    mpfr_inits2(64, safe_e, unsafe_e, (mpfr_ptr)0);
    st = ul_num_bracket_threshold_est(classify_any, estimate_any, &in, true, want, safe_e,
                                      unsafe_e, report, err, errlen);
    if (st == UL_OK || (st == UL_ECAP && !mpfr_nan_p(unsafe_e))) {
        mpfi_set_prec(eps_out, mpfr_get_prec(safe_e));
        mpfi_interv_fr(eps_out, unsafe_e, safe_e);
    } else if (st == UL_ECAP) {
        set_unbounded(eps_out);
    }
    mpfr_clears(safe_e, unsafe_e, (mpfr_ptr)0);
    return st;
}

/* ---- the loose bound --------------------------------------------------------- */

void ul_gauss_loose_bound_log_enclose(mpfi_ptr out, mpfi_srcptr eps, mpfi_srcptr r)
{
    mpfr_prec_t w = mpfi_get_prec(out) + 8;
    mpfi_t num, den;
    mpfi_init2(num, w);
    mpfi_init2(den, w);
    mpfi_sqr(num, eps);
    mpfi_sqr(den, r);
    mpfi_mul_2ui(den, den, 1);
    mpfi_div(num, num, den); /* ε²/(2r²) */
    mpfi_set_ui(den, 5);
    mpfi_div_ui(den, den, 4);
    mpfi_log(den, den); /* log 1.25 */
    mpfi_sub(out, den, num);
    mpfi_clear(num);
    mpfi_clear(den);
}

ul_loose_validity ul_gauss_loose_bound_check(const char *eps, const char *r)
{
    ul_loose_validity v = UL_LOOSE_UNDECIDED;
    for (mpfr_prec_t p = 64; p <= 4096 && v == UL_LOOSE_UNDECIDED; p *= 2) {
        mpfi_t e, rr, lt, lb;
        mpfi_init2(e, p);
        mpfi_init2(rr, p);
        mpfi_init2(lt, p);
        mpfi_init2(lb, p);
        if (ul_num_set_decimal(e, eps) != UL_OK || ul_num_set_decimal(rr, r) != UL_OK) {
            p = 8192; /* unreadable: leave undecided */
        } else if (mpfi_is_zero(rr)) {
            /* θ(0) = max(0, 1 − e^ε) against a bound of 0 */
            v = mpfi_is_nonneg(e) ? UL_LOOSE_VALID : UL_LOOSE_INVALID;
        } else {
            ul_gauss_log_theta_enclose(lt, e, rr);
            ul_gauss_loose_bound_log_enclose(lb, e, rr);
            if (mpfr_greaterequal_p(&lb->left, &lt->right))
                v = UL_LOOSE_VALID;
            else if (mpfr_less_p(&lb->right, &lt->left))
                v = UL_LOOSE_INVALID;
        }
        mpfi_clear(e);
        mpfi_clear(rr);
        mpfi_clear(lt);
        mpfi_clear(lb);
    }
    return v;
}
