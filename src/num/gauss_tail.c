/* src/num/gauss_tail.c — enclosures of Q(x) = ½·erfc(x/√2) and log Q(x).
 *
 * Strategy.  MPFR's erfc is correctly rounded but wants an exact argument,
 * while x/√2 is never exact.  So we pick one exact number t close to the
 * middle of X/√2, evaluate log Q at the exact point x' = t·√2 with one
 * correctly rounded call, and widen by a Lipschitz bound that covers every
 * x ∈ X:
 *
 *     |log Q(x) - log Q(x')| ≤ |x - x'| · sup h,   h(y) = φ(y)/Q(y),
 *
 * because (log Q)' = -h.  The hazard h is increasing, so its supremum over
 * the hull of X and x' is at most hazard_bound(upper end of the hull), which
 * uses h(y) < y + 1 for y ≥ 0 (Birnbaum's bound on the Mills ratio,
 * Q(y)/φ(y) > (√(y²+4) - y)/2, Ann. Math. Stat. 13 (1942) 245) and
 * h(y) ≤ 2φ(y) for y < 0 (Q ≥ ½ there).
 *
 * At the point, log Q(x') = log(erfc(t)) - log 2 (for t < -2.9 rather
 * log1p(-Q(-x')), to keep relative accuracy where Q is near 1) comes from
 *   - mpfr_erfc with rounding down; when inexact, the true value lies below
 *     the next representable number, so one call gives a 1-ulp enclosure
 *     (for 2 ≤ t ≤ 16, 1 − erf(t) at raised precision instead: faster);
 *   - in the far tail, the asymptotic series (DLMF 7.12.1)
 *         erfc t = e^{-t²}/(t√π) · [ Σ_{n<N} (-1)^n (2n-1)!!/(2t²)^n + R_N ],
 *     where for real t > 0 the remainder R_N has the sign of, and is bounded
 *     in magnitude by, the first omitted term (DLMF 7.12(ii)).  It never
 *     forms e^{-t²}, so it works far beyond the exponent range, and where
 *     t² is large against the precision it is much faster than mpfr_erfc,
 *     whose cost grows sharply at moderate t and high precision.
 */
#include "num/gauss_tail.h"

#include "num/encl.h"

#include <stdbool.h>

/* Which of erfc and the series to use at t > 0.  The series' smallest term
 * is about e^{-t²}, so t² ≥ 0.7·w + 8 lets it reach 2^-(w+8) (and wherever it
 * cannot, its remainder bound keeps the enclosure sound, only wider).
 * mpfr_erfc is fast where it switches to its own asymptotic expansion (MPFR
 * 4.2, erfc.c: when 2·EXP(t) − 2 ≥ ⌈log2 w⌉) but slow just below that, where
 * it cancels 1 − erf(t); and it underflows beyond t ≈ 1.7e9, where only the
 * series gives log Q.  Both choices are sound; this only picks the faster. */
static int series_applies(mpfr_srcptr t, mpfr_prec_t w)
{
    if (mpfr_sgn(t) <= 0)
        return 0;
    mpfr_exp_t e = mpfr_get_exp(t); /* 2^(e-1) ≤ t < 2^e */
    if (e >= 30)
        return 1;
    double td = mpfr_get_d(t, MPFR_RNDZ); /* a choice of method, not a bound */
    if (td * td < 0.7 * (double)w + 8)
        return 0;
    int log2w = 0;
    while ((1L << log2w) < w)
        log2w++;
    return 2 * (long)e - 2 < log2w;
}

/* erfc(t) enclosed as 1 − erf(t) for 2 ≤ t ≤ 16: erf has no cancellation,
 * and is 3–4 times faster there than mpfr_erfc (MPFR 4.2), which is slow in
 * that band.  erf is evaluated with ⌈1.45·t²⌉ + 16 extra bits, enough for the
 * subtraction to keep w bits (erfc t > e^{-t²}/(2t) for t ≥ 1).  False when
 * the difference still fails to be positive (then the caller uses erfc). */
static bool erfc_by_erf(mpfr_ptr lo, mpfr_ptr hi, mpfr_srcptr t, mpfr_prec_t w)
{
    double td = mpfr_get_d(t, MPFR_RNDZ); /* a choice of method, not a bound */
    if (!(td >= 2 && td <= 16))
        return false;
    mpfr_t e;
    mpfr_init2(e, w + (mpfr_prec_t)(1.45 * td * td) + 16);
    int inexact = mpfr_erf(e, t, MPFR_RNDD); /* erf(t) ∈ [e, e⁺] */
    mpfr_ui_sub(hi, 1, e, MPFR_RNDU);        /* erfc ≤ 1 − e */
    if (inexact != 0)
        mpfr_nextabove(e);
    mpfr_ui_sub(lo, 1, e, MPFR_RNDD); /* erfc ≥ 1 − e⁺ */
    mpfr_clear(e);
    return mpfr_sgn(lo) > 0;
}

/* log(erfc(t)) - log 2 at the exact point t: erfc(t) enclosed as 1 − erf(t)
 * (erfc_by_erf, 2 ≤ t ≤ 16) or by one correctly rounded mpfr_erfc call and
 * its neighbour above. */
static void log_q_point_erfc(mpfi_ptr out, mpfr_srcptr t, mpfr_prec_t w)
{
    mpfr_t lo, hi;
    mpfr_inits2(w, lo, hi, (mpfr_ptr)0);
    if (!erfc_by_erf(lo, hi, t, w)) {
        int inexact = mpfr_erfc(lo, t, MPFR_RNDD);
        mpfr_set(hi, lo, MPFR_RNDN); /* same precision: exact */
        if (inexact != 0)
            mpfr_nextabove(hi);
    }
    mpfi_t q;
    mpfi_init2(q, w);
    mpfi_interv_fr(q, lo, hi);
    mpfi_div_2ui(q, q, 1);
    mpfi_log(out, q); /* log 0 = -inf: a sound lower bound after underflow */
    mpfi_clear(q);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

/* log(erfc(t)) - log 2 at the exact point t > 0 by DLMF 7.12.1 with the
 * remainder bound of DLMF 7.12(ii). */
static void log_q_point_series(mpfi_ptr out, mpfr_srcptr t, mpfr_prec_t w)
{
    mpfi_t t2, u, term, sum, c;
    mpfi_init2(t2, w);
    mpfi_init2(u, w);
    mpfi_init2(term, w);
    mpfi_init2(sum, w);
    mpfi_init2(c, w);

    mpfi_set_fr(t2, t);
    mpfi_sqr(t2, t2);      /* t² */
    mpfi_mul_2ui(u, t2, 1);
    mpfi_ui_div(u, 1, u);  /* u = 1/(2t²) */

    /* Sum while terms shrink and matter; stop at the first omitted term. */
    mpfr_t tiny, mag, prev;
    mpfr_inits2(w, tiny, mag, prev, (mpfr_ptr)0);
    mpfr_set_ui_2exp(tiny, 1, -(long)w - 8, MPFR_RNDN);
    mpfr_set_inf(prev, 1);
    mpfi_set_ui(sum, 1);
    mpfi_set_ui(term, 1);
    unsigned long n = 1;
    for (;; n++) {
        mpfi_mul_ui(term, term, 2 * n - 1);
        mpfi_mul(term, term, u); /* (2n-1)!!/(2t²)^n */
        mpfi_get_right(mag, term);
        if (mpfr_lessequal_p(mag, tiny) || !mpfr_less_p(mag, prev) || n >= 1000000)
            break; /* term n is the first omitted one */
        mpfr_set(prev, mag, MPFR_RNDN);
        if (n & 1)
            mpfi_sub(sum, sum, term);
        else
            mpfi_add(sum, sum, term);
    }
    /* R_N lies between 0 and (-1)^N · term_N. */
    mpfr_t lo, hi;
    mpfr_inits2(w, lo, hi, (mpfr_ptr)0);
    mpfi_get_left(lo, sum);
    mpfi_get_right(hi, sum);
    if (n & 1)
        mpfr_sub(lo, lo, mag, MPFR_RNDD);
    else
        mpfr_add(hi, hi, mag, MPFR_RNDU);
    mpfi_interv_fr(sum, lo, hi);

    /* log Q = −t² + log( S / (2t√π) ): one logarithm */
    mpfi_const_pi(c);
    mpfi_sqrt(c, c);
    mpfi_mul_fr(c, c, t);
    mpfi_mul_2ui(c, c, 1);
    mpfi_div(sum, sum, c);
    mpfi_log(sum, sum);
    mpfi_sub(out, sum, t2);

    mpfr_clears(tiny, mag, prev, lo, hi, (mpfr_ptr)0);
    mpfi_clear(t2);
    mpfi_clear(u);
    mpfi_clear(term);
    mpfi_clear(sum);
    mpfi_clear(c);
}


/* log Q(x') at x' = t·√2 for exact t.  For t < 0 it is log1p(−Q(−x')),
 * so that log Q keeps its relative accuracy where Q is close to 1. */
static void log_q_point(mpfi_ptr out, mpfr_srcptr t, mpfr_prec_t w, ul_logq_method method)
{
    if (mpfr_sgn(t) >= 0) {
        int use_series = method == UL_LOGQ_ASYMPTOTIC ||
                         (method == UL_LOGQ_AUTO && series_applies(t, w));
        if (use_series && mpfr_sgn(t) > 0)
            log_q_point_series(out, t, w);
        else
            log_q_point_erfc(out, t, w);
        return;
    }
    if (mpfr_cmp_d(t, -2.9) > 0) {
        /* Q(-x') = erfc(-t)/2 > 2^-16: log Q ≈ -Q(-x') keeps all but 16 bits of
         * relative accuracy from erfc(t) directly, the cheaper call. */
        log_q_point_erfc(out, t, w);
        return;
    }
    mpfr_t minus;
    mpfr_init2(minus, mpfr_get_prec(t));
    mpfr_neg(minus, t, MPFR_RNDN); /* exact */
    mpfi_t q;
    mpfi_init2(q, w);
    log_q_point(q, minus, w, method);
    mpfi_exp(q, q);
    mpfi_neg(q, q);
    mpfi_log1p(out, q);
    mpfi_clear(q);
    mpfr_clear(minus);
}

/* bound ≥ sup { h(y) : y ≤ y_max }, rounded up, where h = φ/Q is the hazard:
 * y_max ≥ 0: max(y_max, 0) + 1 (Birnbaum, see the file comment);
 * y_max < 0: h(y) = φ(y)/Q(y) ≤ 2φ(y) ≤ 2·e^{−y_max²/2}, since Q ≥ ½ there,
 * 1/√(2π) < 1, and y² ≥ y_max².  The second keeps log Q's relative accuracy
 * for very negative x, where log Q ≈ −Q(−x) is tiny. */
static void hazard_bound(mpfr_ptr bound, mpfr_srcptr y_max)
{
    if (mpfr_sgn(y_max) >= 0) {
        mpfr_add_ui(bound, y_max, 1, MPFR_RNDU);
        return;
    }
    mpfr_sqr(bound, y_max, MPFR_RNDD);
    mpfr_div_2ui(bound, bound, 1, MPFR_RNDD);
    mpfr_neg(bound, bound, MPFR_RNDU);
    mpfr_exp(bound, bound, MPFR_RNDU);
    mpfr_mul_2ui(bound, bound, 1, MPFR_RNDU);
}

static void log_q_finite(mpfi_ptr out, mpfi_srcptr x, ul_logq_method method);

/* One end of log Q over X, in direction rnd, from the end e of X on the
 * other side (log Q is decreasing): log Q(+∞) = −∞, log Q(−∞) = 0, NaN gives
 * the trivial end (−∞ below, 0 above: log Q ≤ 0 everywhere), a finite e the
 * matching end of the enclosure at the point e. */
static void log_q_end(mpfr_ptr bound, mpfr_srcptr e, mpfr_rnd_t rnd, ul_logq_method method)
{
    if (mpfr_nan_p(e) || mpfr_inf_p(e)) {
        bool minus_inf = mpfr_nan_p(e) ? rnd == MPFR_RNDD : mpfr_sgn(e) > 0;
        if (minus_inf)
            mpfr_set_inf(bound, -1);
        else
            mpfr_set_zero(bound, 1);
        return;
    }
    mpfi_t point, l;
    mpfi_init2(point, mpfr_get_prec(e));
    mpfi_init2(l, mpfr_get_prec(bound));
    mpfi_set_fr(point, e);
    log_q_finite(l, point, method);
    if (rnd == MPFR_RNDD)
        mpfi_get_left(bound, l);
    else
        mpfi_get_right(bound, l);
    mpfi_clear(point);
    mpfi_clear(l);
}

void ul_num_log_q_by(mpfi_ptr out, mpfi_srcptr x, ul_logq_method method)
{
    ul_num_init();
    if (mpfr_number_p(&x->left) && mpfr_number_p(&x->right)) {
        log_q_finite(out, x, method);
        return;
    }
    /* an infinite (or NaN) end: the midpoint and the Lipschitz widening
     * below have no meaning, so each end of log Q comes from one end of X */
    mpfr_t lo, hi;
    mpfr_inits2(mpfi_get_prec(out), lo, hi, (mpfr_ptr)0);
    log_q_end(lo, &x->right, MPFR_RNDD, method);
    log_q_end(hi, &x->left, MPFR_RNDU, method);
    mpfi_interv_fr(out, lo, hi);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

/* ul_num_log_q_by for X with finite ends. */
static void log_q_finite(mpfi_ptr out, mpfi_srcptr x, ul_logq_method method)
{
    mpfr_prec_t w = mpfi_get_prec(out) + 8;

    mpfi_t sqrt2, xp, hull, lip;
    mpfi_init2(sqrt2, w);
    mpfi_init2(xp, w);
    mpfi_init2(hull, w);
    mpfi_init2(lip, w);
    mpfr_t t, m;
    mpfr_inits2(w, t, m, (mpfr_ptr)0);

    /* t: any exact number near mid(X)/√2 */
    mpfi_set_ui(sqrt2, 2);
    mpfi_sqrt(sqrt2, sqrt2);
    mpfi_mid(m, x);
    mpfi_get_fr(t, sqrt2);
    mpfr_div(t, m, t, MPFR_RNDN);

    /* X' = t·√2 enclosed; hull = X ∪ X'; Lipschitz widening |hull|·(max(hull⁺,0)+1). */
    mpfi_set_fr(xp, t);
    mpfi_mul(xp, xp, sqrt2);
    mpfi_union(hull, x, xp);
    mpfr_t width, slope;
    mpfr_inits2(w, width, slope, (mpfr_ptr)0);
    mpfi_diam_abs(width, hull);
    mpfi_get_right(slope, hull);
    hazard_bound(slope, slope);
    mpfr_mul(width, width, slope, MPFR_RNDU);

    log_q_point(lip, t, w, method);
    mpfr_neg(slope, width, MPFR_RNDD);
    mpfi_interv_fr(xp, slope, width);
    mpfi_add(out, lip, xp);

    mpfr_clears(t, m, width, slope, (mpfr_ptr)0);
    mpfi_clear(sqrt2);
    mpfi_clear(xp);
    mpfi_clear(hull);
    mpfi_clear(lip);
}

void ul_num_log_q(mpfi_ptr out, mpfi_srcptr x)
{
    ul_num_log_q_by(out, x, UL_LOGQ_AUTO);
}

void ul_num_q(mpfi_ptr out, mpfi_srcptr x)
{
    mpfi_t l;
    mpfi_init2(l, mpfi_get_prec(out) + 8);
    ul_num_log_q(l, x);
    mpfi_exp(out, l);
    mpfi_clear(l);
}
