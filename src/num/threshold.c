/* src/num/threshold.c — exponential search and bisection with certified
 * decisions and rising precision.
 *
 * Graded precision.  A decision at a point whose distance to the threshold
 * is about 2^-k of it needs about k bits plus what the classifier loses to
 * its own rounding; the bisection's points approach the threshold one bit
 * per step.  So each decision is first tried at the bits the bracket's
 * width calls for plus a learned margin (raised whenever a try was
 * undecided), never above the top precision (the digits' start bits, raised
 * as before when even that is undecided).  A decided side is certified at
 * any precision, so the points, the decisions and the bracket are those of
 * a search at the top precision throughout: at --digits 1000 the 3300
 * bisection steps cost about a third of what they did.
 *
 * Search in numbers, certify once (ul_num_bracket_threshold_est).  With an
 * estimate of the condition's margin, the threshold is found by the secant
 * method at growing precision (about 20 estimates, most at few bits), the
 * bisection is replayed against that number without classifying, and its
 * two final ends are classified: the bracket of the certified bisection
 * from two decisions instead of one per bit (when the estimate was right;
 * otherwise the certified bisection runs). */
#include "num/threshold.h"

#include <stdlib.h>

#include "num/deadline.h"

#define GRADED_MIN_BITS 128 /* below this, every decision runs at the top precision */
#define GRADED_MARGIN 32    /* bits tried above the bracket's, to start with */
#define SECANT_AT_TOP 3     /* secant steps at the full estimate precision, at most */

/* Search state: the top precision only ever rises.  late: the time budget
 * (num/deadline.h) ran out, and every decision since is undecided.  want:
 * the bits the next decision is tried at (0: the top precision). */
typedef struct {
    ul_num_classifier classify;
    void *ctx;
    mpfr_prec_t prec;
    mpfr_prec_t cap;
    bool late;
    mpfr_prec_t want, margin;
} search;

/* per thread: the counts of this thread's last search (threads search at once) */
static _Thread_local unsigned long n_classified, bits_classified;

void ul_num_threshold_counts(unsigned long *calls, unsigned long *bits)
{
    *calls = n_classified;
    *bits = bits_classified;
}

/* Classifies x at p bits, asking the time budget first. */
static ul_side classify_at(search *s, mpfr_srcptr x, mpfr_prec_t p)
{
    if (s->late || ul_deadline_passed()) {
        s->late = true;
        return UL_SIDE_UNDECIDED;
    }
    n_classified++;
    bits_classified += (unsigned long)p;
    return s->classify(x, p, s->ctx);
}

/* Classifies x: first at the graded bits (s->want), doubling them while
 * undecided up to the top precision (the margin learns the doublings), then
 * doubling the top precision until a decision or the cap (or the end of the
 * time budget, asked before every classification). */
static ul_side decide(search *s, mpfr_srcptr x)
{
    for (mpfr_prec_t p = s->want; p > 0 && p < s->prec; p *= 2) {
        ul_side side = classify_at(s, x, p);
        if (side != UL_SIDE_UNDECIDED || s->late)
            return side;
        s->margin += p;
    }
    for (;;) {
        ul_side side = classify_at(s, x, s->prec);
        if (side != UL_SIDE_UNDECIDED || s->prec >= s->cap || s->late)
            return side;
        s->prec = 2 * s->prec > s->cap ? s->cap : 2 * s->prec;
    }
}

/* The bits the decision between a and b is tried at: log2 of the bracket's
 * relative width, plus the margin; 0 (the top precision) when that is not
 * below it or the top precision is small anyway. */
static void grade(search *s, mpfr_srcptr a, mpfr_srcptr b)
{
    s->want = 0;
    if (s->prec <= GRADED_MIN_BITS)
        return;
    long ea = mpfr_get_exp(a), eb = mpfr_get_exp(b);
    mpfr_t w;
    mpfr_init2(w, 32);
    mpfr_sub(w, a, b, MPFR_RNDN);
    long ew = mpfr_zero_p(w) ? ea - (long)s->prec : mpfr_get_exp(w);
    mpfr_clear(w);
    long bits = (ea < eb ? ea : eb) - ew + 1 + (long)s->margin;
    if (bits < GRADED_MIN_BITS)
        bits = GRADED_MIN_BITS;
    if (bits < (long)s->prec)
        s->want = (mpfr_prec_t)bits;
}

static void power_of_two(mpfr_ptr x, long k)
{
    mpfr_set_ui_2exp(x, 1, k, MPFR_RNDN); /* exact */
}

/* Exponential search over x = 2^k: on success sets *k_safe, *k_unsafe
 * adjacent.  Its points are far from the threshold (but the last few): each
 * is tried at GRADED_MIN_BITS first. */
static ul_status search_exponent(search *s, bool safe_above, long *k_safe, long *k_unsafe,
                                 char *err, size_t errlen)
{
    const long limit = 1L << 52; /* well inside MPFR's widened exponent range */
    s->want = s->prec > GRADED_MIN_BITS ? GRADED_MIN_BITS : 0;
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

/* Who decides a bisection's midpoints: the classifier (certified), or a
 * comparison with an estimate of the threshold (root != NULL: a simulation,
 * whose ends are certified afterwards). */
typedef struct {
    search *s;
    mpfr_srcptr root;
    bool safe_above;
} sides;

static ul_side side_of(const sides *by, mpfr_srcptr safe, mpfr_srcptr unsafe, mpfr_srcptr mid)
{
    if (by->root == NULL) {
        grade(by->s, safe, unsafe);
        return decide(by->s, mid);
    }
    bool above = mpfr_greater_p(mid, by->root);
    return above == by->safe_above ? UL_SIDE_SAFE : UL_SIDE_UNSAFE;
}

/* Bisection between the exact numbers safe and unsafe (set here to 2^k_safe
 * and 2^k_unsafe) until bracket_narrow; `bits` is the precision of the
 * endpoints, raised (exactly) whenever the midpoint is not representable. */
static ul_status bisect(const sides *by, long k_safe, long k_unsafe, int digits, mpfr_ptr safe,
                        mpfr_ptr unsafe, ul_num_report *report, char *err, size_t errlen)
{
    search *s = by->s;
    mpfr_prec_t bits = s->prec;
    mpfr_set_prec(safe, bits);
    mpfr_set_prec(unsafe, bits);
    power_of_two(safe, k_safe);
    power_of_two(unsafe, k_unsafe);
    mpfr_t mid;
    mpfr_init2(mid, bits);
    ul_status st = UL_OK;
    while (!bracket_narrow(safe, unsafe, digits)) {
        if (bits < s->prec) {
            bits = s->prec;
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
        ul_side side = side_of(by, safe, unsafe, mid);
        if (side == UL_SIDE_UNDECIDED && s->late) {
            st = out_of_time(s, err, errlen);
            break;
        }
        if (side == UL_SIDE_UNDECIDED) {
            report->cap_hit = true;
            st = ul_fail(err, errlen, UL_ECAP,
                         "precision cap of %ld bits reached before %d digits were certain",
                         (long)s->cap, digits);
            break;
        }
        mpfr_set(side == UL_SIDE_SAFE ? safe : unsafe, mid, MPFR_RNDN); /* same precision */
    }
    mpfr_clear(mid);
    return st;
}

/* One estimate g at x, q bits; false when it failed or is not finite (or
 * the time budget ran out: s->late). */
static bool estimate_at(search *s, ul_num_estimator est, mpfr_ptr g, mpfr_srcptr x,
                        mpfr_prec_t q)
{
    if (s->late || ul_deadline_passed()) {
        s->late = true;
        return false;
    }
    mpfr_set_prec(g, q);
    return est(g, x, q, s->ctx) && mpfr_number_p(g);
}

/* An estimate g at x (q bits), or, where the estimate fails (a classifier's
 * floor, say), at the midpoints of [lo, hi]: each failed point is classified
 * (certified, tried at few bits) and moves an end of the bracket to it.
 * false when undecided, out of time or after 64 points. */
static bool value_near(search *s, ul_num_estimator est, bool safe_above, mpfr_ptr x,
                       mpfr_ptr g, mpfr_prec_t q, mpfr_ptr lo, mpfr_ptr hi)
{
    for (int tries = 0; tries < 64; tries++) {
        if (estimate_at(s, est, g, x, q))
            return true;
        if (s->late)
            return false;
        s->want = s->prec > GRADED_MIN_BITS ? GRADED_MIN_BITS : 0;
        ul_side side = decide(s, x);
        if (side == UL_SIDE_UNDECIDED)
            return false;
        mpfr_set((side == UL_SIDE_SAFE) == safe_above ? hi : lo, x, MPFR_RNDN);
        mpfr_add(x, lo, hi, MPFR_RNDN);
        mpfr_div_2ui(x, x, 1, MPFR_RNDN);
    }
    return false;
}

/* Bits to which x0 and x1 agree: −log2(|x1 − x0|/|x1|), in [0, cap] (a
 * step far below x0, from a bracket wider than a binade, gives 0, never a
 * negative count that would become a precision below MPFR's minimum). */
static long agreement(mpfr_srcptr x0, mpfr_srcptr x1, mpfr_ptr tmp, long cap)
{
    mpfr_sub(tmp, x1, x0, MPFR_RNDN);
    if (mpfr_zero_p(tmp))
        return cap;
    long bits = mpfr_get_exp(x1) - mpfr_get_exp(tmp);
    return bits < 0 ? 0 : bits < cap ? bits : cap;
}

/* root ≈ the threshold in (lo, hi) by the secant method on the estimate
 * (search only, never a decision): each step's estimate at four times the
 * bits the last two iterates agree to, plus 64, up to Q; a step leaving the
 * bracket [lo, hi] (narrowed by the estimates' signs: negative = safe)
 * bisects it instead.  Stops when two iterates agree to Q − 32 bits at Q,
 * or after SECANT_AT_TOP steps at Q (the estimate's own rounding then
 * limits the agreement); false when an estimate failed or 200 steps did
 * not get there. */
static bool secant(search *s, ul_num_estimator est, bool safe_above, mpfr_srcptr safe_end,
                   mpfr_srcptr unsafe_end, mpfr_prec_t Q, mpfr_ptr root)
{
    mpfr_t lo, hi, x0, x1, x2, g0, g1, t;
    mpfr_inits2(Q, lo, hi, x0, x1, x2, g0, g1, t, (mpfr_ptr)0);
    mpfr_set(lo, safe_above ? unsafe_end : safe_end, MPFR_RNDN);
    mpfr_set(hi, safe_above ? safe_end : unsafe_end, MPFR_RNDN);
    mpfr_set(x0, lo, MPFR_RNDN);
    mpfr_set(x1, hi, MPFR_RNDN);
    bool ok = value_near(s, est, safe_above, x0, g0, 64, lo, hi) &&
              value_near(s, est, safe_above, x1, g1, 64, lo, hi);
    bool done = false;
    for (int it = 0, at_top = 0; ok && !done && it < 200; it++) {
        long acc = agreement(x0, x1, t, Q);
        /* x2 will agree with the root to about 2.6·acc bits and g(x2) be that
         * small: 4·acc + 64 bits keep it accurate to more than acc */
        mpfr_prec_t q = acc >= (long)Q / 4 - 16 ? Q : (mpfr_prec_t)(4 * acc + 64);
        mpfr_sub(t, g1, g0, MPFR_RNDN); /* x2 = x1 − g1·(x1 − x0)/(g1 − g0) */
        mpfr_sub(x2, x1, x0, MPFR_RNDN);
        mpfr_div(t, x2, t, MPFR_RNDN);
        mpfr_mul(t, t, g1, MPFR_RNDN);
        mpfr_sub(x2, x1, t, MPFR_RNDN);
        if (mpfr_zero_p(g1)) {
            mpfr_set(x2, x1, MPFR_RNDN); /* on the root, as far as the estimate tells */
        } else if (!mpfr_number_p(x2) || mpfr_less_p(x2, lo) || mpfr_greater_p(x2, hi)) {
            mpfr_add(x2, lo, hi, MPFR_RNDN);
            mpfr_div_2ui(x2, x2, 1, MPFR_RNDN);
        }
        at_top += q >= Q;
        done = mpfr_zero_p(g1) ||
               (at_top > 0 && (agreement(x1, x2, t, Q) >= (long)Q - 32 || at_top > SECANT_AT_TOP));
        mpfr_swap(x0, x1);
        mpfr_swap(g0, g1);
        mpfr_set(x1, x2, MPFR_RNDN);
        if (done)
            break;
        ok = value_near(s, est, safe_above, x1, g1, q, lo, hi);
        if (ok) /* the sign moves one end of the bracket (safe side: g < 0) */
            mpfr_set((mpfr_sgn(g1) < 0) == safe_above ? hi : lo, x1, MPFR_RNDN);
    }
    mpfr_set_prec(root, Q);
    mpfr_set(root, x1, MPFR_RNDN);
    mpfr_clears(lo, hi, x0, x1, x2, g0, g1, t, (mpfr_ptr)0);
    return ok && done;
}

/* Search in numbers, certify once: the bisection is simulated against the
 * secant's root (no classification), and only its two final ends are
 * classified.  When the root is accurate (it is to Q − 32 bits, far below
 * the final width) every simulated decision is the true one, so the
 * bracket is the one the certified bisection would give; true when both
 * ends are certified (safe and unsafe hold them). */
static bool certify_simulated(search *s, ul_num_estimator est, bool safe_above, long k_safe,
                              long k_unsafe, int digits, mpfr_ptr safe, mpfr_ptr unsafe,
                              ul_num_report *report)
{
    mpfr_t root;
    mpfr_init2(root, 64);
    mpfr_t a, b;
    mpfr_inits2(64, a, b, (mpfr_ptr)0);
    power_of_two(a, k_safe);
    power_of_two(b, k_unsafe);
    bool ok = secant(s, est, safe_above, a, b, s->prec + 64, root);
    sides by = {s, root, safe_above};
    ok = ok && bisect(&by, k_safe, k_unsafe, digits, safe, unsafe, report, NULL, 0) == UL_OK;
    s->want = 0;
    ok = ok && decide(s, safe) == UL_SIDE_SAFE && decide(s, unsafe) == UL_SIDE_UNSAFE;
    mpfr_clears(root, a, b, (mpfr_ptr)0);
    return ok;
}

ul_status ul_num_bracket_threshold_est(ul_num_classifier classify, ul_num_estimator estimate,
                                       void *ctx, bool safe_above, const ul_num_precision *want,
                                       mpfr_ptr safe, mpfr_ptr unsafe, ul_num_report *report,
                                       char *err, size_t errlen)
{
    search s = {classify, ctx, ul_num_start_bits(want, 0), ul_num_max_bits(want), false, 0,
                GRADED_MARGIN};
    n_classified = bits_classified = 0;
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
    if (estimate != NULL && certify_simulated(&s, estimate, safe_above, k_safe, k_unsafe,
                                              want->digits, safe, unsafe, report)) {
        report->bits_used = s.prec;
        return UL_OK;
    }
    if (s.late) { /* the simulated ends may be set but were never classified */
        report->bits_used = s.prec;
        mpfr_set_nan(safe);
        mpfr_set_nan(unsafe);
        return out_of_time(&s, err, errlen);
    }
    /* the certified bisection (graded precision), from the same start */
    sides by = {&s, NULL, safe_above};
    st = bisect(&by, k_safe, k_unsafe, want->digits, safe, unsafe, report, err, errlen);
    report->bits_used = s.prec;
    return st;
}

ul_status ul_num_bracket_threshold(ul_num_classifier classify, void *ctx, bool safe_above,
                                   const ul_num_precision *want, mpfr_ptr safe, mpfr_ptr unsafe,
                                   ul_num_report *report, char *err, size_t errlen)
{
    return ul_num_bracket_threshold_est(classify, NULL, ctx, safe_above, want, safe, unsafe,
                                        report, err, errlen);
}
