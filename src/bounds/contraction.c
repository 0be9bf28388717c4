/* src/bounds/contraction.c — δ after T clipping + noise steps, in log space.
 *
 * Formulas: docs/neural-unlearning.md, "Model clipping" (see contraction.h).  Every quantity is an
 * interval; the recursion is evaluated at one working precision for all T
 * steps, and the whole evaluation is repeated at twice the precision when
 * the result is too wide (each round is sound on its own).
 */
#include "bounds/contraction.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/bounds_util.h"
#include "bounds/gaussian.h"
#include "num/deadline.h"
#include "num/domain.h"
#include "num/input.h"
#include "num/threshold.h"

/* The time budget (num/deadline.h) is asked every this many steps of a
 * recursion: about 5 ms of θ evaluations at 128 bits, so `--max-seconds`
 * holds at any T (a calibrated adaptive T of 19718 steps took 2.9 s). */
#define STEPS_PER_DEADLINE_CHECK 64UL

static bool late_at(unsigned long t)
{
    return t % STEPS_PER_DEADLINE_CHECK == 0 && t > 0 && ul_deadline_passed();
}

bool ul_contraction_mode_parse(const char *text, ul_contraction_mode *mode)
{
    if (text != NULL && strcmp(text, "product") == 0)
        *mode = UL_CONTRACTION_PRODUCT;
    else if (text != NULL && strcmp(text, "adaptive") == 0)
        *mode = UL_CONTRACTION_ADAPTIVE;
    else
        return false;
    return true;
}

/* ---- validation ---------------------------------------------------------- */

static ul_status check_problem(const ul_contraction_problem *pb, bool need_r, char *err,
                              size_t errlen)
{
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = ul_num_read_domain(x, &ul_domain_eps, "eps", pb->eps, err, errlen);
    if (st == UL_OK && pb->delta0 != NULL)
        st = ul_num_read_domain(x, &ul_domain_delta0, "delta0", pb->delta0, err, errlen);
    if (st == UL_OK && pb->steps > UL_CONTRACTION_MAX_STEPS)
        st = ul_fail(err, errlen, UL_EINPUT, "steps: must be at most %lu (got %lu)",
                     UL_CONTRACTION_MAX_STEPS, pb->steps);
    if (st == UL_OK && need_r) {
        if (pb->n_r != 1 && pb->n_r != pb->steps)
            st = ul_fail(err, errlen, UL_EINPUT,
                         "r: give one value or one per step (%lu values), got %zu", pb->steps,
                         pb->n_r);
        for (size_t i = 0; st == UL_OK && i < pb->n_r; i++)
            st = ul_num_read_domain(x, &ul_domain_r, "r", pb->r[i], err, errlen);
    }
    mpfi_clear(x);
    return st;
}

/* ---- one evaluation at a fixed precision ---------------------------------- */

/* Inputs read at the working precision, plus derived constants. */
typedef struct {
    mpfr_prec_t prec;
    mpfi_t eps, expm1_eps, log_delta0, log_floor;
    mpfi_t *r;
    size_t n_r;
} reading;

/* false, with nothing to clear, when the r list (pb->n_r values: a size the
 * input chooses) does not fit in memory. */
static bool reading_init(reading *in, const ul_contraction_problem *pb, mpfr_prec_t p)
{
    in->r = malloc((pb->n_r ? pb->n_r : 1) * sizeof *in->r);
    if (in->r == NULL)
        return false;
    in->prec = p;
    mpfi_init2(in->eps, p);
    mpfi_init2(in->expm1_eps, p);
    mpfi_init2(in->log_delta0, p);
    /* |log δ_floor| ≈ 2.3e100 needs 333 bits for its integer part alone */
    mpfi_init2(in->log_floor, p > 640 ? p : 640);
    ul_num_set_valid(in->eps, pb->eps); /* checked by check_problem */
    mpfi_expm1(in->expm1_eps, in->eps);
    if (pb->delta0 != NULL) {
        ul_num_set_valid(in->log_delta0, pb->delta0);
        mpfi_log(in->log_delta0, in->log_delta0);
    } else {
        mpfi_set_ui(in->log_delta0, 0);
    }
    /* log δ_floor = log10 δ_floor · ln 10 */
    mpfi_t ln10;
    mpfi_init2(ln10, mpfi_get_prec(in->log_floor));
    mpfi_set_ui(ln10, 10);
    mpfi_log(ln10, ln10);
    ul_num_set_valid(in->log_floor, UL_CONTRACTION_FLOOR_LOG10);
    mpfi_mul(in->log_floor, in->log_floor, ln10);
    mpfi_clear(ln10);
    in->n_r = pb->n_r;
    for (size_t i = 0; i < pb->n_r; i++) {
        mpfi_init2(in->r[i], p);
        ul_num_set_valid(in->r[i], pb->r[i]);
    }
    return true;
}

static void reading_clear(reading *in)
{
    mpfi_clear(in->eps);
    mpfi_clear(in->expm1_eps);
    mpfi_clear(in->log_delta0);
    mpfi_clear(in->log_floor);
    for (size_t i = 0; i < in->n_r; i++)
        mpfi_clear(in->r[i]);
    free(in->r);
}

/* The adaptive ε̃ = log(1 + (e^ε − 1)/δ) = −L + log(e^ε − 1 + e^L), L = log δ,
 * written so that e^L may underflow (it then encloses [0, tiny]). */
static void eps_tilde(mpfi_ptr out, const reading *in, mpfi_srcptr log_delta)
{
    if (mpfi_is_zero(in->eps)) {
        mpfi_set_ui(out, 0); /* ε = 0: ε̃ = log 1 = 0 exactly */
        return;
    }
    mpfi_exp(out, log_delta);
    mpfi_add(out, out, in->expm1_eps);
    mpfi_log(out, out);
    mpfi_sub(out, out, log_delta);
}

/* RUN_LATE: the time budget ran out first (log_delta is then no enclosure). */
typedef enum { RUN_DONE, RUN_FLOOR, RUN_TOO_WIDE, RUN_LATE } run_outcome;

/* One end of the adaptive recursion.  The map F(L) = L + log θ_{e^{ε̃(L)}}(r)
 * is increasing in L = log δ (δ·θ_{e^{ε̃(δ)}}(r) grows with δ: ε̃ falls as δ
 * rises and θ falls in ε̃), so the ends of log δ_t can be carried as two
 * exact points, each mapped with outward rounding: the lower end by the
 * left end of F(lower), the upper end by the right end of F(upper).  This
 * avoids the interval dependency between δ_t and ε̃_t.  The last θ is kept
 * and reused when (ε̃, r) repeats (ε = 0, or δ_t at a plateau). */
typedef struct {
    mpfr_t at;     /* the end point, log δ_t */
    mpfi_t point;  /* scratch: [at, at] then F(at) */
    mpfi_t et, lt; /* ε̃ and log θ of the last evaluation */
    bool have_lt;
    size_t last_r;
} chain_end;

static void chain_end_init(chain_end *c, mpfr_prec_t p)
{
    mpfr_init2(c->at, p);
    mpfi_init2(c->point, p);
    mpfi_init2(c->et, p);
    mpfi_init2(c->lt, p);
    c->have_lt = false;
    c->last_r = (size_t)-1;
}

static void chain_end_clear(chain_end *c)
{
    mpfr_clear(c->at);
    mpfi_clear(c->point);
    mpfi_clear(c->et);
    mpfi_clear(c->lt);
}

/* at ← left (upper = false) or right (upper = true) end of F(at). */
static void chain_step(chain_end *c, const reading *in, size_t ri, bool upper)
{
    mpfi_set_fr(c->point, c->at);
    mpfi_t et;
    mpfi_init2(et, mpfi_get_prec(c->et));
    eps_tilde(et, in, c->point);
    bool same = c->have_lt && c->last_r == ri && mpfr_equal_p(&et->left, &c->et->left) &&
                mpfr_equal_p(&et->right, &c->et->right);
    if (!same) {
        ul_gauss_log_theta_enclose(c->lt, et, in->r[ri]);
        mpfi_set(c->et, et);
        c->last_r = ri;
        c->have_lt = true;
    }
    mpfi_clear(et);
    mpfi_add(c->point, c->point, c->lt);
    if (upper)
        mpfi_get_right(c->at, c->point);
    else
        mpfi_get_left(c->at, c->point);
}

/* Runs T steps, leaving log δ_T in log_delta.  RUN_FLOOR: the floor was
 * reached and log_delta is [-inf, log δ_floor].  RUN_TOO_WIDE: the ends
 * drifted further apart than max_width (when not NULL) and the floor was
 * not reached by the upper end alone, so the caller retries at a higher
 * precision.  stop_below (when not NULL): stop as soon as the upper end is
 * at or below it (δ never increases, so later steps cannot undo that). */
static run_outcome run_steps(mpfi_ptr log_delta, const reading *in, unsigned long steps,
                             ul_contraction_mode mode, mpfr_srcptr max_width,
                             mpfr_srcptr stop_below)
{
    mpfr_prec_t p = in->prec;
    mpfi_set(log_delta, in->log_delta0);
    run_outcome outcome = RUN_DONE;

    if (mode == UL_CONTRACTION_PRODUCT) {
        /* log δ_T = log δ_0 + Σ_t log θ_{e^ε}(r_t); θ does not depend on δ,
         * so plain interval sums are tight; constant r costs one θ. */
        mpfi_t lt;
        mpfi_init2(lt, p);
        if (in->n_r == 1 && steps > 0) {
            ul_gauss_log_theta_enclose(lt, in->eps, in->r[0]);
            mpfi_mul_ui(lt, lt, steps);
            mpfi_add(log_delta, log_delta, lt);
        } else {
            for (unsigned long t = 0; t < steps; t++) {
                if (late_at(t)) {
                    outcome = RUN_LATE;
                    break;
                }
                ul_gauss_log_theta_enclose(lt, in->eps, in->r[t]);
                mpfi_add(log_delta, log_delta, lt);
            }
        }
        mpfi_clear(lt);
    } else {
        chain_end lo, hi;
        chain_end_init(&lo, p);
        chain_end_init(&hi, p);
        mpfi_get_left(lo.at, log_delta);
        mpfi_get_right(hi.at, log_delta);
        mpfr_t width;
        mpfr_init2(width, 64);
        bool both = true; /* false once only the upper end is still tracked */
        for (unsigned long t = 0; t < steps; t++) {
            if (late_at(t)) {
                outcome = RUN_LATE;
                break;
            }
            size_t ri = in->n_r == 1 ? 0 : t;
            chain_step(&hi, in, ri, true);
            if (both)
                chain_step(&lo, in, ri, false);
            if (mpfr_less_p(hi.at, &in->log_floor->left)) {
                outcome = RUN_FLOOR; /* δ_T ≤ δ_t < δ_floor */
                break;
            }
            if (stop_below != NULL && mpfr_lessequal_p(hi.at, stop_below))
                break;
            if (both && max_width != NULL) {
                mpfr_sub(width, hi.at, lo.at, MPFR_RNDU);
                if (!mpfr_lessequal_p(width, max_width))
                    both = false; /* too wide for the digits: only the floor can still help */
            }
        }
        if (outcome == RUN_DONE) {
            if (!both)
                outcome = RUN_TOO_WIDE;
            else
                mpfi_interv_fr(log_delta, lo.at, hi.at);
        }
        mpfr_clear(width);
        chain_end_clear(&lo);
        chain_end_clear(&hi);
    }
    if (outcome == RUN_FLOOR) {
        /* at the floor's own precision, so that hi is the floor to the digit */
        mpfr_prec_t fp = mpfi_get_prec(in->log_floor);
        mpfi_set_prec(log_delta, fp);
        mpfr_t lo, hi;
        mpfr_inits2(fp, lo, hi, (mpfr_ptr)0);
        mpfr_set_inf(lo, -1);
        mpfi_get_right(hi, in->log_floor);
        mpfi_interv_fr(log_delta, lo, hi);
        mpfr_clears(lo, hi, (mpfr_ptr)0);
    }
    return outcome;
}

/* ---- certified δ_T -------------------------------------------------------- */

ul_status ul_contraction_delta_certified(const ul_contraction_problem *pb,
                                         const ul_num_precision *want, ul_num_value *delta,
                                         bool *floor_reached, ul_num_report *report, char *err,
                                         size_t errlen)
{
    ul_status st = check_problem(pb, true, err, errlen);
    if (st != UL_OK)
        return st;
    /* guard: the width of log δ grows about one ulp per step */
    double guard = log2(1.0 + (double)pb->steps) + 8;
    mpfr_prec_t cap = ul_num_max_bits(want);
    mpfr_prec_t p = ul_num_start_bits(want, guard);
    mpfr_t max_width;
    mpfr_init2(max_width, 64);
    mpfr_set_si(max_width, 1 - want->digits, MPFR_RNDN);
    mpfr_exp10(max_width, max_width, MPFR_RNDU); /* the widest log δ that can pass */
    for (;;) {
        reading in;
        if (!reading_init(&in, pb, p)) {
            mpfr_clear(max_width);
            return ul_fail(err, errlen, UL_ENOMEM, "r: out of memory for a list of %zu values",
                           pb->n_r);
        }
        mpfi_set_prec(delta->enclosure, p);
        delta->is_log = true;
        /* at the cap, walk to the end whatever the width: the result is sound */
        run_outcome out =
            run_steps(delta->enclosure, &in, pb->steps, pb->mode, p >= cap ? NULL : max_width, NULL);
        reading_clear(&in);
        *floor_reached = out == RUN_FLOOR;
        report->bits_used = p;
        report->cap_hit = false;
        if (out == RUN_LATE) {
            mpfr_clear(max_width);
            return ul_fail(err, errlen, UL_ETIME, "computing delta after %lu steps at %ld bits",
                           pb->steps, (long)p);
        }
        if (out == RUN_FLOOR ||
            (out == RUN_DONE && ul_num_value_narrow_enough(delta, want->digits))) {
            mpfr_clear(max_width);
            return UL_OK;
        }
        if (p >= cap) {
            report->cap_hit = true;
            mpfr_clear(max_width);
            return ul_fail(err, errlen, UL_ECAP,
                           "precision cap of %ld bits reached before %d digits were certain",
                           (long)cap, want->digits);
        }
        p = 2 * p > cap ? cap : 2 * p;
    }
}

/* ---- least T ------------------------------------------------------------------ */

/* How a search for the least T ended. */
typedef enum { LEAST_UNDECIDED = 0, LEAST_FOUND, LEAST_EXHAUSTED, LEAST_LATE } least_end;

/* The walk: log δ_t step by step at in's precision, deciding "δ_t ≤ δ"
 * (ld = log δ) with enclosures at every t.  The adaptive recursion needs it
 * (each step depends on the last); it asks the deadline every
 * STEPS_PER_DEADLINE_CHECK steps. */
static least_end least_walk(const reading *in, mpfi_srcptr ld, ul_contraction_mode mode,
                            unsigned long max_steps, unsigned long *steps)
{
    mpfr_prec_t p = in->prec;
    mpfi_t log_delta, lt, et;
    mpfi_init2(log_delta, p);
    mpfi_init2(lt, p);
    mpfi_init2(et, p);
    mpfi_set(log_delta, in->log_delta0);
    least_end end = LEAST_UNDECIDED;
    for (unsigned long t = 0;; t++) {
        if (mpfr_lessequal_p(&log_delta->right, &ld->left)) {
            *steps = t;
            end = LEAST_FOUND;
            break;
        }
        if (!mpfr_greater_p(&log_delta->left, &ld->right))
            break; /* undecided */
        if (t >= max_steps || late_at(t)) {
            end = t >= max_steps ? LEAST_EXHAUSTED : LEAST_LATE;
            break;
        }
        if (mode == UL_CONTRACTION_ADAPTIVE)
            eps_tilde(et, in, log_delta);
        else
            mpfi_set(et, in->eps);
        if (t == 0 || mode == UL_CONTRACTION_ADAPTIVE)
            ul_gauss_log_theta_enclose(lt, et, in->r[0]);
        mpfi_add(log_delta, log_delta, lt);
    }
    mpfi_clear(log_delta);
    mpfi_clear(lt);
    mpfi_clear(et);
    return end;
}

/* Whether log δ_t = log δ_0 + t·log θ (lt ⊇ log θ) is certainly ≤ log δ
 * (+1), certainly > log δ (−1), or undecided (0). */
static int linear_side(const reading *in, mpfi_srcptr lt, mpfi_srcptr ld, unsigned long t)
{
    mpfi_t x;
    mpfi_init2(x, in->prec);
    if (t == 0) {
        mpfi_set(x, in->log_delta0);
    } else {
        mpfi_mul_ui(x, lt, t); /* lt may be [−∞, −∞] (θ = 0): then so is x */
        mpfi_add(x, x, in->log_delta0);
    }
    int side = 0;
    if (mpfr_lessequal_p(&x->right, &ld->left))
        side = 1;
    else if (mpfr_greater_p(&x->left, &ld->right))
        side = -1;
    mpfi_clear(x);
    return side;
}

/* Product mode, constant r: log δ_t = log δ_0 + t·log θ_{e^ε}(r) is linear
 * and nonincreasing in t (θ ≤ 1; docs/neural-unlearning.md, "Model clipping").  The candidate
 * T = ⌈(log δ − log δ_0)/log θ⌉ comes from doubles (search only); it is
 * certified by two enclosures: reached at T and not reached at T − 1 (so at
 * no t < T, by monotonicity).  A candidate off by one or two (double
 * rounding) is moved; anything else is undecided, and the caller walks. */
static least_end least_linear(const reading *in, mpfi_srcptr ld, unsigned long max_steps,
                              unsigned long *steps)
{
    mpfi_t lt;
    mpfi_init2(lt, in->prec);
    ul_gauss_log_theta_enclose(lt, in->eps, in->r[0]);
    double a = mpfi_get_d(in->log_delta0), b = mpfi_get_d(lt), g = mpfi_get_d(ld);
    /* b < 0 unless θ rounds to 1 (then never, as far as doubles tell) */
    double x = a <= g ? 0 : b < 0 ? ceil((g - a) / b) : INFINITY;
    unsigned long T = !(x < (double)max_steps) ? max_steps + 1 : x > 0 ? (unsigned long)x : 0;
    least_end end = LEAST_UNDECIDED;
    for (int moves = 0; moves < 4 && end == LEAST_UNDECIDED; moves++) {
        if (T > max_steps) { /* not reached within max_steps, if certified there */
            if (linear_side(in, lt, ld, max_steps) < 0)
                end = LEAST_EXHAUSTED;
            else
                T = max_steps;
            continue;
        }
        int at = linear_side(in, lt, ld, T), before = T > 0 ? linear_side(in, lt, ld, T - 1) : -1;
        if (at > 0 && before < 0) {
            *steps = T;
            end = LEAST_FOUND;
        } else if (at < 0) {
            T++; /* not reached at T: the candidate was low */
        } else if (before > 0) {
            T--; /* reached already at T − 1: it was high */
        } else {
            break; /* undecided at this precision */
        }
    }
    mpfi_clear(lt);
    return end;
}

ul_status ul_contraction_least_steps(const ul_contraction_problem *pb, const char *delta,
                                     unsigned long max_steps, unsigned long *steps,
                                     ul_num_report *report, char *err, size_t errlen)
{
    ul_contraction_problem one = *pb;
    one.steps = 1;
    ul_status st = check_problem(&one, true, err, errlen);
    if (st != UL_OK)
        return st;
    if (pb->n_r != 1)
        return ul_fail(err, errlen, UL_EINPUT, "r: the least T needs one constant r");
    mpfi_t x;
    mpfi_init2(x, 64);
    st = ul_num_read_domain(x, &ul_domain_delta, "delta", delta, err, errlen);
    mpfi_clear(x);
    if (st != UL_OK)
        return st;
    if (max_steps > UL_CONTRACTION_MAX_STEPS)
        max_steps = UL_CONTRACTION_MAX_STEPS;

    /* Product mode: the candidate in doubles, certified at T − 1 and T;
     * else (adaptive, or undecided) walk the recursion step by step.  An
     * undecided walk restarts at twice the precision. */
    mpfr_prec_t cap = UL_NUM_DEFAULT_MAX_BITS;
    for (mpfr_prec_t p = 128;; p = 2 * p > cap ? cap : 2 * p) {
        if (ul_deadline_passed())
            return ul_fail(err, errlen, UL_ETIME, "computing the least T at %ld bits", (long)p);
        reading in;
        if (!reading_init(&in, pb, p)) /* n_r = 1 (checked above) */
            abort(); /* fixed size: out of memory aborts, as GMP does (num/status.h) */
        mpfi_t ld;
        mpfi_init2(ld, p);
        ul_num_set_valid(ld, delta);
        mpfi_log(ld, ld);
        least_end end = LEAST_UNDECIDED;
        if (pb->mode != UL_CONTRACTION_ADAPTIVE)
            end = least_linear(&in, ld, max_steps, steps);
        if (end == LEAST_UNDECIDED)
            end = least_walk(&in, ld, pb->mode, max_steps, steps);
        mpfi_clear(ld);
        reading_clear(&in);
        report->bits_used = p;
        report->cap_hit = false;
        if (end == LEAST_FOUND)
            return UL_OK;
        if (end == LEAST_LATE)
            return ul_fail(err, errlen, UL_ETIME, "computing the least T at %ld bits", (long)p);
        if (end == LEAST_EXHAUSTED)
            return ul_fail(err, errlen, UL_ENOROOT, "delta: not reached within %lu steps",
                           max_steps);
        if (p >= cap) {
            report->cap_hit = true;
            return ul_fail(err, errlen, UL_ECAP,
                           "could not decide whether delta is reached within %ld bits",
                           (long)cap);
        }
    }
}

/* ---- smallest σ ------------------------------------------------------------ */

typedef struct {
    const ul_contraction_problem *pb;
    const char *delta;
} sigma_search;

/* log δ_T at r = x and log δ, at p bits (log_delta, ld initialised by the
 * caller at p); with stop_early the run stops once δ_t ≤ δ is certain. */
static run_outcome log_delta_at(const sigma_search *s, mpfr_srcptr x, mpfr_prec_t p,
                                mpfi_ptr log_delta, mpfi_ptr ld, bool stop_early)
{
    ul_contraction_problem pb = *s->pb;
    const char *placeholder = "1";
    pb.r = &placeholder;
    pb.n_r = 1;
    reading in;
    if (!reading_init(&in, &pb, p)) /* n_r = 1 */
        abort(); /* fixed size: out of memory aborts, as GMP does (num/status.h) */
    mpfi_set_fr(in.r[0], x);
    ul_num_set_valid(ld, s->delta);
    mpfi_log(ld, ld);
    run_outcome out =
        run_steps(log_delta, &in, pb.steps, pb.mode, NULL, stop_early ? &ld->left : NULL);
    reading_clear(&in);
    return out;
}

/* x = r = D/σ: safe when δ_T(r) ≤ δ is certain (δ_T is increasing in r in
 * both modes: θ is increasing in r, and δ·θ_{e^{ε̃(δ)}} is increasing in δ). */
static ul_side classify_r(mpfr_srcptr x, mpfr_prec_t p, void *ctx)
{
    mpfi_t ld, log_delta;
    mpfi_init2(ld, p);
    mpfi_init2(log_delta, p);
    run_outcome out = log_delta_at(ctx, x, p, log_delta, ld, true);
    bool floor = out == RUN_FLOOR;
    ul_side side = UL_SIDE_UNDECIDED; /* RUN_LATE: the search stops (num/threshold.c) */
    if (out != RUN_LATE && mpfr_lessequal_p(&log_delta->right, &ld->left))
        side = UL_SIDE_SAFE;
    else if (out != RUN_LATE && !floor && mpfr_greater_p(&log_delta->left, &ld->right))
        side = UL_SIDE_UNSAFE;
    mpfi_clear(ld);
    mpfi_clear(log_delta);
    return side;
}

/* The estimate of the σ search (num/threshold.h; searching only): the
 * midpoint of log δ_T(r) − log δ at p bits, negative on the safe side
 * (small r).  false at the floor (no number) or out of time. */
static bool estimate_r(mpfr_ptr g, mpfr_srcptr x, mpfr_prec_t p, void *ctx)
{
    mpfi_t ld, log_delta;
    mpfi_init2(ld, p);
    mpfi_init2(log_delta, p);
    bool ok = log_delta_at(ctx, x, p, log_delta, ld, false) == RUN_DONE;
    if (ok) {
        mpfi_sub(log_delta, log_delta, ld);
        mpfi_mid(g, log_delta);
    }
    mpfi_clear(ld);
    mpfi_clear(log_delta);
    return ok;
}

ul_status ul_contraction_sigma_min(const ul_contraction_problem *pb, const char *diameter,
                                   const char *delta, const ul_num_precision *want,
                                   mpfi_ptr sigma, ul_num_report *report, char *err,
                                   size_t errlen)
{
    ul_status st = check_problem(pb, false, err, errlen);
    mpfi_t d;
    mpfi_init2(d, 64);
    if (st == UL_OK)
        st = ul_num_read_domain(d, &ul_domain_positive, "diameter", diameter, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(d, &ul_domain_delta, "delta", delta, err, errlen);
    if (st == UL_OK && pb->steps == 0)
        st = ul_fail(err, errlen, UL_EINPUT, "steps: must be at least 1 to calibrate sigma");
    if (st != UL_OK) {
        mpfi_clear(d);
        return st;
    }
    /* Already δ_0 ≤ δ: any σ > 0 works. */
    if (pb->delta0 != NULL) {
        int c;
        if (ul_num_decimal_compare(pb->delta0, delta, &c) && c <= 0) {
            mpfi_set_ui(sigma, 0);
            mpfi_clear(d);
            report->bits_used = 0;
            report->cap_hit = false;
            return UL_OK;
        }
    }
    sigma_search s = {pb, delta};
    mpfr_t safe_r, unsafe_r;
    mpfr_inits2(64, safe_r, unsafe_r, (mpfr_ptr)0);
    st = ul_num_bracket_threshold_est(classify_r, estimate_r, &s, false, want, safe_r, unsafe_r,
                                      report, err, errlen);
    if (st == UL_OK || (st == UL_ECAP && !mpfr_nan_p(unsafe_r))) {
        /* σ* ∈ [D_lo / r_unsafe, D_hi / r_safe]; the upper end is safe. */
        ul_bounds_sigma_from_radius_bracket(sigma, diameter, safe_r, unsafe_r,
                                            report->bits_used + 32);
    }
    mpfr_clears(safe_r, unsafe_r, (mpfr_ptr)0);
    mpfi_clear(d);
    return st;
}
