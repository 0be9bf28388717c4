/* src/num/threshold.c — exponential search and bisection with certified
 * decisions and rising precision. */
#include "num/threshold.h"

#include <stdlib.h>

#include "num/deadline.h"

/* Search state: the working precision only ever rises.  late: the time
 * budget (num/deadline.h) ran out, and every decision since is undecided. */
typedef struct {
    ul_num_classifier classify;
    void *ctx;
    mpfr_prec_t prec;
    mpfr_prec_t cap;
    bool late;
} search;

/* Classifies x, doubling the precision until a decision or the cap (or the
 * end of the time budget, asked before every classification). */
static ul_side decide(search *s, mpfr_srcptr x)
{
    for (;;) {
        if (s->late || ul_deadline_passed()) {
            s->late = true;
            return UL_SIDE_UNDECIDED;
        }
        ul_side side = s->classify(x, s->prec, s->ctx);
        if (side != UL_SIDE_UNDECIDED || s->prec >= s->cap)
            return side;
        s->prec = 2 * s->prec > s->cap ? s->cap : 2 * s->prec;
    }
}

static void power_of_two(mpfr_ptr x, long k)
{
    mpfr_set_ui_2exp(x, 1, k, MPFR_RNDN); /* exact */
}

/* Exponential search over x = 2^k: on success sets *k_safe, *k_unsafe adjacent. */
static ul_status search_exponent(search *s, bool safe_above, long *k_safe, long *k_unsafe,
                                 char *err, size_t errlen)
{
    const long limit = 1L << 52; /* well inside MPFR's widened exponent range */
    mpfr_t x;
    mpfr_init2(x, 8);
    power_of_two(x, 0);
    ul_side first = decide(s, x);
    if (first == UL_SIDE_UNDECIDED) {
        mpfr_clear(x);
        return ul_fail(err, errlen, UL_ECAP, "could not decide the condition at 1 within the precision cap");
    }
    /* Walk away from `first`'s side toward the other side with doubling steps. */
    long dir = ((first == UL_SIDE_SAFE) == safe_above) ? -1 : 1;
    long from = 0, to = 0, step = 1;
    ul_side side = first;
    while (side == first) {
        from = to;
        if (step > limit) {
            mpfr_clear(x);
            return ul_fail(err, errlen, UL_ENOROOT, "the condition does not switch within 2^±%ld", limit);
        }
        to = dir * step;
        power_of_two(x, to);
        side = decide(s, x);
        if (side == UL_SIDE_UNDECIDED) {
            mpfr_clear(x);
            return ul_fail(err, errlen, UL_ECAP, "could not decide the condition at 2^%ld within the precision cap", to);
        }
        step *= 2;
    }
    /* Integer bisection between `from` (first's side) and `to` (the other). */
    while (labs(to - from) > 1) {
        long mid = from + (to - from) / 2;
        power_of_two(x, mid);
        ul_side ms = decide(s, x);
        if (ms == UL_SIDE_UNDECIDED)
            break; /* keep the wider, still certified, bracket */
        if (ms == first)
            from = mid;
        else
            to = mid;
    }
    mpfr_clear(x);
    *k_safe = first == UL_SIDE_SAFE ? from : to;
    *k_unsafe = first == UL_SIDE_SAFE ? to : from;
    return UL_OK;
}

/* UL_ETIME, worded as the other budget checks (num/adaptive.c). */
static ul_status out_of_time(const search *s, char *err, size_t errlen)
{
    return ul_fail(err, errlen, UL_ETIME, "searching a threshold at %ld bits", (long)s->prec);
}

/* True when |a - b| ≤ 10^(1-digits)/4 · min(|a|, |b|). */
static bool bracket_narrow(mpfr_srcptr a, mpfr_srcptr b, int digits)
{
    mpfr_prec_t p = 64;
    mpfr_t w, m, t;
    mpfr_inits2(p, w, m, t, (mpfr_ptr)0);
    mpfr_sub(w, a, b, MPFR_RNDU);
    mpfr_abs(w, w, MPFR_RNDU);
    mpfr_abs(m, a, MPFR_RNDD);
    mpfr_abs(t, b, MPFR_RNDD);
    mpfr_min(m, m, t, MPFR_RNDD);
    mpfr_set_si(t, 1 - digits, MPFR_RNDN);
    mpfr_exp10(t, t, MPFR_RNDD);
    mpfr_div_2ui(t, t, 2, MPFR_RNDD);
    mpfr_mul(m, m, t, MPFR_RNDD);
    bool ok = mpfr_lessequal_p(w, m);
    mpfr_clears(w, m, t, (mpfr_ptr)0);
    return ok;
}

ul_status ul_num_bracket_threshold(ul_num_classifier classify, void *ctx, bool safe_above,
                                   const ul_num_precision *want, mpfr_ptr safe, mpfr_ptr unsafe,
                                   ul_num_report *report, char *err, size_t errlen)
{
    search s = {classify, ctx, ul_num_start_bits(want, 0), ul_num_max_bits(want), false};
    report->cap_hit = false;
    long k_safe = 0, k_unsafe = 0;
    ul_status st = search_exponent(&s, safe_above, &k_safe, &k_unsafe, err, errlen);
    report->bits_used = s.prec;
    if (st != UL_OK && s.late)
        st = out_of_time(&s, err, errlen);
    if (st != UL_OK) {
        report->cap_hit = st == UL_ECAP;
        mpfr_set_nan(safe);
        mpfr_set_nan(unsafe);
        return st;
    }

    /* Bisection between exact numbers; `bits` is the precision of the
     * endpoints, raised (exactly) whenever the midpoint is not representable. */
    mpfr_prec_t bits = s.prec;
    mpfr_set_prec(safe, bits);
    mpfr_set_prec(unsafe, bits);
    power_of_two(safe, k_safe);
    power_of_two(unsafe, k_unsafe);
    mpfr_t mid;
    mpfr_init2(mid, bits);
    st = UL_OK;
    while (!bracket_narrow(safe, unsafe, want->digits)) {
        if (bits < s.prec) {
            bits = s.prec;
            mpfr_prec_round(safe, bits, MPFR_RNDN); /* exact: more bits */
            mpfr_prec_round(unsafe, bits, MPFR_RNDN);
            mpfr_set_prec(mid, bits);
        }
        if (mpfr_add(mid, safe, unsafe, MPFR_RNDN) != 0) {
            bits += 32;
            mpfr_prec_round(safe, bits, MPFR_RNDN);
            mpfr_prec_round(unsafe, bits, MPFR_RNDN);
            mpfr_set_prec(mid, bits);
            continue;
        }
        mpfr_div_2ui(mid, mid, 1, MPFR_RNDN); /* exact */
        ul_side side = decide(&s, mid);
        if (side == UL_SIDE_UNDECIDED && s.late) {
            st = out_of_time(&s, err, errlen);
            break;
        }
        if (side == UL_SIDE_UNDECIDED) {
            report->cap_hit = true;
            st = ul_fail(err, errlen, UL_ECAP,
                         "precision cap of %ld bits reached before %d digits were certain",
                         (long)s.cap, want->digits);
            break;
        }
        mpfr_set(side == UL_SIDE_SAFE ? safe : unsafe, mid, MPFR_RNDN); /* same precision */
    }
    report->bits_used = s.prec;
    mpfr_clear(mid);
    return st;
}
