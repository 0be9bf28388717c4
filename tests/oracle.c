/* tests/oracle.c — independent references: Taylor series and Laplace's
 * continued fraction for the normal tail, in plain MPFR.  See oracle.h. */
#include "oracle.h"

#include <stdlib.h>

/* Mills ratio M(x) = Q(x)/φ(x) for x ≥ 5 by Laplace's continued fraction
 * (Abramowitz & Stegun 26.2.14):
 *     M(x) = 1/(x + 1/(x + 2/(x + 3/(x + …)))),
 * evaluated backward from depth n, doubling n until two depths agree to
 * 2^-(p-16). */
static void mills_cf(mpfr_ptr out, mpfr_srcptr x, mpfr_prec_t p)
{
    mpfr_prec_t w = p + 64;
    mpfr_t t, prev, cur, diff;
    mpfr_inits2(w, t, prev, cur, diff, (mpfr_ptr)0);
    mpfr_set_nan(prev);
    for (unsigned long n = 64;; n *= 2) {
        mpfr_set(t, x, MPFR_RNDN);
        for (unsigned long k = n; k >= 1; k--) {
            mpfr_ui_div(cur, k, t, MPFR_RNDN);
            mpfr_add(t, x, cur, MPFR_RNDN);
        }
        mpfr_ui_div(cur, 1, t, MPFR_RNDN);
        if (!mpfr_nan_p(prev)) {
            mpfr_sub(diff, cur, prev, MPFR_RNDN);
            mpfr_abs(diff, diff, MPFR_RNDN);
            mpfr_div(diff, diff, cur, MPFR_RNDN);
            if (mpfr_zero_p(diff) || mpfr_get_exp(diff) < -(p - 16))
                break;
        }
        if (n > (1UL << 24))
            abort(); /* would mean the oracle is misused */
        mpfr_set(prev, cur, MPFR_RNDN);
    }
    mpfr_set(out, cur, MPFR_RNDN);
    mpfr_clears(t, prev, cur, diff, (mpfr_ptr)0);
}

/* Q(x) for |x| < 5 from the Taylor series of the normal integral:
 *     Q(x) = 1/2 − (1/√(2π)) Σ_{n≥0} (−1)^n x^{2n+1} / (2^n n! (2n+1)). */
static void q_taylor(mpfr_ptr out, mpfr_srcptr x, mpfr_prec_t p)
{
    mpfr_prec_t w = p + 64;
    mpfr_t c, term, sum, x2, tiny;
    mpfr_inits2(w, c, term, sum, x2, tiny, (mpfr_ptr)0);
    mpfr_set(c, x, MPFR_RNDN); /* c_n = (−1)^n x^{2n+1}/(2^n n!) */
    mpfr_sqr(x2, x, MPFR_RNDN);
    mpfr_set_zero(sum, 1);
    mpfr_set_ui_2exp(tiny, 1, -(long)w, MPFR_RNDN);
    for (unsigned long n = 0;; n++) {
        mpfr_div_ui(term, c, 2 * n + 1, MPFR_RNDN);
        mpfr_add(sum, sum, term, MPFR_RNDN);
        mpfr_abs(term, term, MPFR_RNDN);
        if (n > 4 && mpfr_less_p(term, tiny))
            break;
        mpfr_mul(c, c, x2, MPFR_RNDN);
        mpfr_div_ui(c, c, 2 * (n + 1), MPFR_RNDN);
        mpfr_neg(c, c, MPFR_RNDN);
    }
    mpfr_const_pi(term, MPFR_RNDN);
    mpfr_mul_2ui(term, term, 1, MPFR_RNDN);
    mpfr_sqrt(term, term, MPFR_RNDN);
    mpfr_div(sum, sum, term, MPFR_RNDN);
    mpfr_set_d(term, 0.5, MPFR_RNDN);
    mpfr_sub(out, term, sum, MPFR_RNDN);
    mpfr_clears(c, term, sum, x2, tiny, (mpfr_ptr)0);
}

/* −x²/2 − ½ log(2π): log φ(x). */
static void log_phi(mpfr_ptr out, mpfr_srcptr x, mpfr_prec_t w)
{
    mpfr_t s, c;
    mpfr_inits2(w, s, c, (mpfr_ptr)0);
    mpfr_sqr(s, x, MPFR_RNDN);
    mpfr_div_2ui(s, s, 1, MPFR_RNDN);
    mpfr_const_pi(c, MPFR_RNDN);
    mpfr_mul_2ui(c, c, 1, MPFR_RNDN);
    mpfr_log(c, c, MPFR_RNDN);
    mpfr_div_2ui(c, c, 1, MPFR_RNDN);
    mpfr_add(s, s, c, MPFR_RNDN);
    mpfr_neg(out, s, MPFR_RNDN);
    mpfr_clears(s, c, (mpfr_ptr)0);
}

static void log_q_at(mpfr_ptr out, mpfr_srcptr x, mpfr_prec_t p)
{
    mpfr_prec_t w = p + 64;
    mpfr_t m, lp;
    mpfr_inits2(w, m, lp, (mpfr_ptr)0);
    if (mpfr_cmp_ui(x, 5) >= 0) {
        mills_cf(m, x, w);
        log_phi(lp, x, w);
        mpfr_log(m, m, MPFR_RNDN);
        mpfr_add(out, lp, m, MPFR_RNDN);
    } else if (mpfr_cmp_si(x, -5) <= 0) {
        mpfr_neg(m, x, MPFR_RNDN);
        log_q_at(lp, m, p);
        mpfr_exp(lp, lp, MPFR_RNDN);
        mpfr_neg(lp, lp, MPFR_RNDN);
        mpfr_log1p(out, lp, MPFR_RNDN); /* log(1 − Q(−x)) */
    } else {
        q_taylor(m, x, w);
        mpfr_log(out, m, MPFR_RNDN);
    }
    mpfr_clears(m, lp, (mpfr_ptr)0);
}

void oracle_log_q(mpfr_ptr out, mpfr_srcptr x)
{
    mpfr_prec_t p = ORACLE_BITS;
    if (mpfr_get_exp(x) > 0)
        p += 2 * mpfr_get_exp(x);
    log_q_at(out, x, p);
}

void oracle_log_theta(mpfr_ptr out, mpfr_srcptr eps, mpfr_srcptr r)
{
    /* Precision: the base, plus what the magnitude of a and the smallness of
     * r cost in the difference. */
    mpfr_prec_t w = ORACLE_BITS + 64;
    mpfr_exp_t er = mpfr_get_exp(r), ee = mpfr_zero_p(eps) ? 0 : mpfr_get_exp(eps);
    if (er < 0)
        w += -er;
    if (ee - er > 0)
        w += 3 * (ee - er);
    if (er > 0)
        w += 2 * er;

    mpfr_t a, b, half, x, y;
    mpfr_inits2(w, a, b, half, x, y, (mpfr_ptr)0);
    mpfr_div(a, eps, r, MPFR_RNDN);
    mpfr_div_2ui(half, r, 1, MPFR_RNDN);
    mpfr_add(b, a, half, MPFR_RNDN);
    mpfr_sub(a, a, half, MPFR_RNDN);

    if (mpfr_cmp_ui(a, 5) >= 0) {
        /* θ = φ(a)·(M(a) − M(b)) since e^ε φ(b) = φ(a). */
        mills_cf(x, a, w);
        mills_cf(y, b, w);
        mpfr_sub(x, x, y, MPFR_RNDN);
        mpfr_log(x, x, MPFR_RNDN);
        log_phi(y, a, w);
        mpfr_add(out, x, y, MPFR_RNDN);
    } else {
        /* θ = Q(a) − e^ε Q(b) */
        log_q_at(x, a, w);
        log_q_at(y, b, w);
        mpfr_add(y, y, eps, MPFR_RNDN);
        mpfr_exp(x, x, MPFR_RNDN);
        mpfr_exp(y, y, MPFR_RNDN);
        mpfr_sub(x, x, y, MPFR_RNDN);
        mpfr_log(out, x, MPFR_RNDN);
    }
    mpfr_clears(a, b, half, x, y, (mpfr_ptr)0);
}

void oracle_log_theta_str(mpfr_ptr out, const char *eps, const char *r)
{
    mpfr_t e, rr;
    mpfr_inits2(ORACLE_BITS + 256, e, rr, (mpfr_ptr)0);
    mpfr_set_str(e, eps, 10, MPFR_RNDN);
    mpfr_set_str(rr, r, 10, MPFR_RNDN);
    oracle_log_theta(out, e, rr);
    mpfr_clears(e, rr, (mpfr_ptr)0);
}
