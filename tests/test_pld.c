/* tests/test_pld.c — the PLD accountant (src/bounds/pld.h) against
 * independent oracles:
 *   - T-fold Gaussian composition is the Gaussian mechanism with r√T, so every
 *     bracket must contain θ_{e^ε}(r√T), computed by tests/oracle.c (Taylor
 *     series and continued fraction in plain MPFR, no library code);
 *   - one Poisson-subsampled Gaussian step has a closed form in Q (evaluated
 *     with the oracle's log Q); two steps are a 1-D integral of that closed
 *     form, done here by Simpson's rule in doubles (its accuracy is checked
 *     against the half-step rule in the test itself);
 *   - published values: dp_accounting's privacy_loss_mechanism_test
 *     (v0.6.0) and TF-Privacy's RDP table (as quoted by autodp's tests);
 *   - properties: δ decreasing in ε, brackets narrowing with the grid (also
 *     at T = 20000, where T·h exceeds the composed spread), q = 1 equal to
 *     the plain Gaussian, and δ ≤ the RDP bound (a theorem, so the lower end
 *     must respect it);
 *   - the rounding story: pld_fft.c (double and long double) measured
 *     against a 160-bit DFT by the definition and Higham's Thm 24.2 bound,
 *     the double/long-double results within their budgets, and a δ below the
 *     rounding floor refused (UL_ECAP) with a bracket that still contains it. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bounds/pld.h"
#include "bounds/pld_fft.h"
#include "num/deadline.h"
#include "oracle.h"

static void setup(void)
{
    ul_num_init();
}

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(pld, .init = setup, .fini = teardown);

/* ---- helpers -------------------------------------------------------------------- */

typedef struct {
    ul_status st;
    mpfr_t lo, hi;
    ul_pld_report rep;
    char err[512];
} outcome;

static void outcome_init(outcome *o)
{
    mpfr_inits2(64, o->lo, o->hi, (mpfr_ptr)0);
    memset(&o->rep, 0, sizeof o->rep);
    o->err[0] = '\0';
}

static void outcome_clear(outcome *o)
{
    mpfr_clears(o->lo, o->hi, (mpfr_ptr)0);
}

static ul_pld_options options(double h, double rel, ul_pld_fft fft, ul_pld_adjacency adj)
{
    ul_pld_options o;
    ul_pld_options_default(&o);
    o.grid_step = h;
    o.rel_width = rel;
    o.fft = fft;
    o.adjacency = adj;
    return o;
}

static void run_gauss(outcome *out, const char *r, unsigned long T, const char *eps,
                      const ul_pld_options *opt)
{
    out->st = ul_pld_compose_gaussian(r, T, eps, opt, out->lo, out->hi, &out->rep, out->err,
                                      sizeof out->err);
}

static void run_sub(outcome *out, const char *r, const char *q, unsigned long T, const char *eps,
                    const ul_pld_options *opt)
{
    out->st = ul_pld_compose_subsampled(r, q, T, eps, opt, out->lo, out->hi, &out->rep, out->err,
                                        sizeof out->err);
}

/* θ_{e^eps}(r·√T) from the oracle, as a value (ORACLE_BITS). */
static void theta_oracle(mpfr_ptr out, const char *eps, mpfr_srcptr r_total)
{
    mpfr_t e;
    mpfr_init2(e, ORACLE_BITS);
    mpfr_set_str(e, eps, 10, MPFR_RNDN);
    oracle_log_theta(out, e, r_total);
    mpfr_exp(out, out, MPFR_RNDN);
    mpfr_clear(e);
}

/* r_total = √(Σ T_i r_i²) for decimal r_i. */
static void combined_r(mpfr_ptr out, const char *const *r, const unsigned long *T, size_t n)
{
    mpfr_t t;
    mpfr_init2(t, ORACLE_BITS);
    mpfr_set_zero(out, 1);
    for (size_t i = 0; i < n; i++) {
        mpfr_set_str(t, r[i], 10, MPFR_RNDN);
        mpfr_sqr(t, t, MPFR_RNDN);
        mpfr_mul_ui(t, t, T[i], MPFR_RNDN);
        mpfr_add(out, out, t, MPFR_RNDN);
    }
    mpfr_sqrt(out, out, MPFR_RNDN);
    mpfr_clear(t);
}

/* lo ≤ ref·(1 ± slack) ≤ hi, reported with context. */
static void assert_contains(const outcome *o, mpfr_srcptr ref, double slack, const char *what)
{
    mpfr_t a, b;
    mpfr_inits2(ORACLE_BITS, a, b, (mpfr_ptr)0);
    mpfr_mul_d(a, ref, 1 + slack, MPFR_RNDU);
    mpfr_mul_d(b, ref, 1 - slack, MPFR_RNDD);
    bool ok = mpfr_lessequal_p(o->lo, a) && mpfr_lessequal_p(b, o->hi);
    if (!ok)
        mpfr_fprintf(stderr, "%s: status %d (%s)\n  lo  = %.20Re\n  ref = %.20Re\n  hi  = %.20Re\n",
                     what, o->st, o->err, o->lo, ref, o->hi);
    cr_assert(ok, "%s: the bracket does not contain the reference", what);
    mpfr_clears(a, b, (mpfr_ptr)0);
}

static double rel_width(const outcome *o)
{
    double hi = mpfr_get_d(o->hi, MPFR_RNDU), lo = mpfr_get_d(o->lo, MPFR_RNDD);
    return hi > 0 ? (hi - lo) / hi : 0;
}

/* T-fold Gaussian at (r, T, eps) with the automatic grid: UL_OK, the width
 * asked, and θ(r√T) inside. */
static void check_gauss_auto(const char *r, unsigned long T, const char *eps, double rel)
{
    outcome o;
    outcome_init(&o);
    ul_pld_options opt = options(0, rel, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
    run_gauss(&o, r, T, eps, &opt);
    char what[128];
    snprintf(what, sizeof what, "gaussian r=%s T=%lu eps=%s", r, T, eps);
    cr_assert_eq(o.st, UL_OK, "%s: status %d (%s)", what, o.st, o.err);
    cr_assert(mpfr_lessequal_p(o.lo, o.hi), "%s: lo > hi", what);
    cr_assert(rel_width(&o) <= rel, "%s: relative width %g > %g", what, rel_width(&o), rel);
    mpfr_t rt, ref;
    mpfr_inits2(ORACLE_BITS, rt, ref, (mpfr_ptr)0);
    combined_r(rt, &r, &T, 1);
    theta_oracle(ref, eps, rt);
    assert_contains(&o, ref, 1e-100, what);
    mpfr_clears(rt, ref, (mpfr_ptr)0);
    outcome_clear(&o);
}

/* ---- Gaussian: exact answer θ(r√T) ------------------------------------------------ */

Test(pld, gaussian_single_step_contains_theta)
{
    check_gauss_auto("0.5", 1, "0", 1e-2);
    check_gauss_auto("0.5", 1, "1", 1e-2);
    check_gauss_auto("1", 1, "0.5", 1e-3);
    check_gauss_auto("1", 1, "3", 1e-2);
    check_gauss_auto("2", 1, "5", 1e-2);
    check_gauss_auto("0.1", 1, "0.05", 1e-2);
    check_gauss_auto("1", 1, "-1", 1e-2); /* negative ε */
}

Test(pld, gaussian_composition_contains_theta)
{
    check_gauss_auto("1", 10, "2", 1e-2);
    check_gauss_auto("2", 4, "5", 1e-2);
    check_gauss_auto("0.2", 100, "3", 1e-2);
    check_gauss_auto("0.3", 50, "-0.5", 1e-2);
    check_gauss_auto("0.05", 2, "0.01", 1e-2);
}

Test(pld, gaussian_thousand_steps_r_0_1)
{
    check_gauss_auto("0.1", 1000, "1", 1e-2);
    check_gauss_auto("0.1", 1000, "4", 2e-2);
    /* and on a fixed coarse grid: wide, but it must still contain θ(√10) */
    outcome o;
    outcome_init(&o);
    ul_pld_options opt = options(1e-3, 1, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
    run_gauss(&o, "0.1", 1000, "1", &opt);
    cr_assert_eq(o.st, UL_OK, "%s", o.err);
    mpfr_t rt, ref;
    mpfr_inits2(ORACLE_BITS, rt, ref, (mpfr_ptr)0);
    const char *r = "0.1";
    unsigned long T = 1000;
    combined_r(rt, &r, &T, 1);
    theta_oracle(ref, "1", rt);
    assert_contains(&o, ref, 1e-100, "r=0.1 T=1000 h=1e-3");
    mpfr_clears(rt, ref, (mpfr_ptr)0);
    outcome_clear(&o);
}

Test(pld, gaussian_small_delta)
{
    check_gauss_auto("1", 1, "8", 1e-3);   /* δ ≈ 3.7e-15, one step: no FFT */
    check_gauss_auto("0.5", 10, "10", 1e-2); /* δ ≈ 3.3e-9 */
    check_gauss_auto("1", 4, "12", 5e-2);  /* δ ≈ 4e-10 */
}

/* Fixed grids h0, h0/2, … ≥ h1: every bracket contains θ_{e^ε}(r√T) and each
 * width is at most `ratio` times the previous one. */
static void check_narrowing(const char *r, unsigned long T, const char *eps, double h0,
                            double h1, double ratio)
{
    mpfr_t rt, ref;
    mpfr_inits2(ORACLE_BITS, rt, ref, (mpfr_ptr)0);
    combined_r(rt, &r, &T, 1);
    theta_oracle(ref, eps, rt);
    double prev = INFINITY;
    for (double h = h0; h >= h1; h /= 2) {
        outcome o;
        outcome_init(&o);
        ul_pld_options opt = options(h, 1, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
        run_gauss(&o, r, T, eps, &opt);
        cr_assert_eq(o.st, UL_OK, "T=%lu h=%g: %s", T, h, o.err);
        assert_contains(&o, ref, 1e-100, "narrowing");
        double w = mpfr_get_d(o.hi, MPFR_RNDU) - mpfr_get_d(o.lo, MPFR_RNDD);
        cr_log_info("r=%s T=%lu h=%g: width %.3g", r, T, h, w);
        cr_assert(w <= ratio * prev, "T=%lu h=%g: width %g did not shrink from %g", T, h, w,
                  prev);
        prev = w;
        outcome_clear(&o);
    }
    mpfr_clears(rt, ref, (mpfr_ptr)0);
}

Test(pld, brackets_narrow_as_the_grid_refines)
{
    check_narrowing("0.2", 100, "2", 4e-3, 1e-3, 0.6);
}

Test(pld, delta_decreases_in_eps)
{
    const char *r = "0.5";
    unsigned long T = 20;
    mpfr_t rt, ref, prev_hi;
    mpfr_inits2(ORACLE_BITS, rt, ref, prev_hi, (mpfr_ptr)0);
    combined_r(rt, &r, &T, 1);
    double prev_pess = INFINITY;
    mpfr_set_inf(prev_hi, 1);
    for (int i = 0; i <= 12; i++) {
        char eps[32];
        snprintf(eps, sizeof eps, "%.2f", 0.25 * i);
        outcome o;
        outcome_init(&o);
        ul_pld_options opt = options(2e-3, 1, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
        run_gauss(&o, r, T, eps, &opt);
        cr_assert_eq(o.st, UL_OK, "eps=%s: %s", eps, o.err);
        theta_oracle(ref, eps, rt);
        assert_contains(&o, ref, 1e-100, eps);
        /* δ(ε') ≤ δ(ε) for ε' > ε: the brackets must allow it */
        cr_assert(mpfr_lessequal_p(o.lo, prev_hi), "eps=%s: lo above the previous hi", eps);
        /* on one grid the pessimistic sum is a decreasing function of ε */
        cr_assert(o.rep.delta_pessimistic <= prev_pess, "eps=%s: pessimistic sum rose", eps);
        prev_pess = o.rep.delta_pessimistic;
        mpfr_set(prev_hi, o.hi, MPFR_RNDU);
        outcome_clear(&o);
    }
    mpfr_clears(rt, ref, prev_hi, (mpfr_ptr)0);
}

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static double uniform01(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

/* Random (r, T, ε), r log-uniform on [0.05, 3], T log-uniform on [1, 2000],
 * ε uniform on [−1, 4]: the bracket contains θ(r√T) whatever the status
 * (UL_ECAP is allowed where δ is below the rounding floor). */
Test(pld, random_points_contain_theta)
{
    for (int i = 0; i < 16; i++) {
        char r[32], eps[32];
        snprintf(r, sizeof r, "%.6f", exp(log(0.05) + (log(3) - log(0.05)) * uniform01()));
        unsigned long T = (unsigned long)exp(log(2000) * uniform01());
        snprintf(eps, sizeof eps, "%.5f", -1 + 5 * uniform01());
        outcome o;
        outcome_init(&o);
        ul_pld_options opt = options(0, 5e-2, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
        run_gauss(&o, r, T, eps, &opt);
        char what[96];
        snprintf(what, sizeof what, "random r=%s T=%lu eps=%s", r, T, eps);
        cr_assert(o.st == UL_OK || o.st == UL_ECAP, "%s: status %d (%s)", what, o.st, o.err);
        mpfr_t rt, ref;
        mpfr_inits2(ORACLE_BITS, rt, ref, (mpfr_ptr)0);
        const char *rp = r;
        combined_r(rt, &rp, &T, 1);
        theta_oracle(ref, eps, rt);
        assert_contains(&o, ref, 1e-100, what);
        mpfr_clears(rt, ref, (mpfr_ptr)0);
        outcome_clear(&o);
    }
}

/* ---- mixtures ------------------------------------------------------------------- */

Test(pld, mixed_sequence_is_gaussian_with_combined_r)
{
    /* 20 steps at r = 0.3 then 10 at r = 0.5: a Gaussian with r = √4.3 */
    const char *rs[] = {"0.3", "0.5"};
    unsigned long Ts[] = {20, 10};
    mpfr_t rt, ref;
    mpfr_inits2(ORACLE_BITS, rt, ref, (mpfr_ptr)0);
    combined_r(rt, rs, Ts, 2);
    const char *eps[] = {"0.5", "2", "4"};
    for (size_t k = 0; k < 3; k++) {
        theta_oracle(ref, eps[k], rt);
        ul_pld_mechanism plain[] = {{"0.3", NULL, 20}, {"0.5", NULL, 10}};
        ul_pld_mechanism typed[] = {{"0.3", "1", 20}, {"0.5", NULL, 10}}; /* q = 1 path */
        ul_pld_mechanism *lists[] = {plain, typed};
        for (size_t l = 0; l < 2; l++) {
            outcome o;
            outcome_init(&o);
            ul_pld_options opt = options(0, 1e-2, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
            o.st = ul_pld_compose(lists[l], 2, eps[k], &opt, o.lo, o.hi, &o.rep, o.err,
                                  sizeof o.err);
            cr_assert_eq(o.st, UL_OK, "eps=%s list %zu: %s", eps[k], l, o.err);
            cr_assert(rel_width(&o) <= 1e-2);
            assert_contains(&o, ref, 1e-100, "mixture");
            outcome_clear(&o);
        }
    }
    mpfr_clears(rt, ref, (mpfr_ptr)0);
}

/* ---- subsampled Gaussian ----------------------------------------------------------- */

Test(pld, subsampled_with_q_1_equals_gaussian)
{
    const char *r = "0.5";
    unsigned long T = 20;
    mpfr_t rt, ref;
    mpfr_inits2(ORACLE_BITS, rt, ref, (mpfr_ptr)0);
    combined_r(rt, &r, &T, 1);
    theta_oracle(ref, "1", rt);
    outcome g, s;
    outcome_init(&g);
    outcome_init(&s);
    ul_pld_options opt = options(2e-3, 1, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
    run_gauss(&g, r, T, "1", &opt);
    run_sub(&s, r, "1", T, "1", &opt);
    cr_assert_eq(g.st, UL_OK, "%s", g.err);
    cr_assert_eq(s.st, UL_OK, "%s", s.err);
    assert_contains(&g, ref, 1e-100, "gaussian");
    assert_contains(&s, ref, 1e-100, "subsampled q=1");
    /* the same PLD through two code paths: the same sums on the same grid */
    double dp = fabs(g.rep.delta_pessimistic - s.rep.delta_pessimistic);
    double dq = fabs(g.rep.delta_optimistic - s.rep.delta_optimistic);
    cr_assert(dp <= 1e-9 * g.rep.delta_pessimistic && dq <= 1e-9 * g.rep.delta_optimistic,
              "pessimistic %.17g vs %.17g, optimistic %.17g vs %.17g", g.rep.delta_pessimistic,
              s.rep.delta_pessimistic, g.rep.delta_optimistic, s.rep.delta_optimistic);
    mpfr_clears(rt, ref, (mpfr_ptr)0);
    outcome_clear(&g);
    outcome_clear(&s);
}

/* Q(x) from the oracle (value, ORACLE_BITS). */
static void q_oracle(mpfr_ptr out, mpfr_srcptr x)
{
    oracle_log_q(out, x);
    mpfr_exp(out, out, MPFR_RNDN);
}

/* One subsampled step, closed form (REMOVE: P = (1−q)N(0,1) + qN(r,1),
 * Q = N(0,1); ADD the reverse).  The loss is monotone in the noise value x:
 * REMOVE: L > ε ⟺ x > x(ε); ADD: L > ε ⟺ x < x(−ε), with
 * x(v) = r/2 + log((e^v − 1 + q)/q)/r when e^v > 1 − q, else −∞.  Then
 * δ = P[L > ε] − e^ε·Q[L > ε]. */
static void single_step_oracle(mpfr_ptr out, const char *r_s, const char *q_s, const char *eps_s,
                               bool add)
{
    mpfr_prec_t p = ORACLE_BITS;
    mpfr_t r, q, e, v, x, t, a, b, ee;
    mpfr_inits2(p, r, q, e, v, x, t, a, b, ee, (mpfr_ptr)0);
    mpfr_set_str(r, r_s, 10, MPFR_RNDN);
    mpfr_set_str(q, q_s, 10, MPFR_RNDN);
    mpfr_set_str(e, eps_s, 10, MPFR_RNDN);
    mpfr_exp(ee, e, MPFR_RNDN);
    if (add)
        mpfr_neg(v, e, MPFR_RNDN);
    else
        mpfr_set(v, e, MPFR_RNDN);
    mpfr_exp(t, v, MPFR_RNDN);
    mpfr_sub_ui(t, t, 1, MPFR_RNDN);
    mpfr_add(t, t, q, MPFR_RNDN); /* e^v − 1 + q */
    if (mpfr_sgn(t) <= 0) {
        /* x = −∞: REMOVE: L > ε always, δ = 1 − e^ε; ADD: never, δ = 0 */
        if (add)
            mpfr_set_zero(out, 1);
        else
            mpfr_ui_sub(out, 1, ee, MPFR_RNDN);
    } else {
        mpfr_div(t, t, q, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_div(t, t, r, MPFR_RNDN);
        mpfr_div_2ui(x, r, 1, MPFR_RNDN);
        mpfr_add(x, x, t, MPFR_RNDN);
        /* mixture tail M(s) = (1−q)Q(s) + qQ(s − r) with s = x (REMOVE) or,
         * for the lower tail P[X < x] = Q(−x) etc. (ADD) */
        mpfr_t omq;
        mpfr_init2(omq, p);
        mpfr_ui_sub(omq, 1, q, MPFR_RNDN);
        if (!add) {
            q_oracle(a, x); /* Q(x) */
            mpfr_sub(t, x, r, MPFR_RNDN);
            q_oracle(b, t); /* Q(x − r) */
            mpfr_mul(t, omq, a, MPFR_RNDN);
            mpfr_mul(b, b, q, MPFR_RNDN);
            mpfr_add(t, t, b, MPFR_RNDN); /* P[X > x] */
            mpfr_mul(a, a, ee, MPFR_RNDN);
            mpfr_sub(out, t, a, MPFR_RNDN);
        } else {
            mpfr_neg(t, x, MPFR_RNDN);
            q_oracle(a, t); /* Φ(x) */
            mpfr_sub(t, r, x, MPFR_RNDN);
            q_oracle(b, t); /* Φ(x − r) */
            mpfr_mul(t, omq, a, MPFR_RNDN);
            mpfr_mul(b, b, q, MPFR_RNDN);
            mpfr_add(t, t, b, MPFR_RNDN); /* mixture P[X < x] */
            mpfr_mul(t, t, ee, MPFR_RNDN);
            mpfr_sub(out, a, t, MPFR_RNDN);
        }
        mpfr_clear(omq);
    }
    mpfr_clears(r, q, e, v, x, t, a, b, ee, (mpfr_ptr)0);
}

Test(pld, subsampled_single_step_matches_closed_form)
{
    struct {
        const char *r, *q, *eps;
        ul_pld_adjacency adj;
    } pts[] = {
        {"1", "0.3", "1", UL_PLD_REMOVE},   {"1", "0.8", "1", UL_PLD_ADD},
        {"0.5", "0.05", "0.1", UL_PLD_REMOVE}, {"2", "0.5", "2", UL_PLD_REMOVE},
        {"2", "0.5", "0.3", UL_PLD_ADD},    {"1", "0.2", "-0.1", UL_PLD_REMOVE},
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        mpfr_t ref;
        mpfr_init2(ref, ORACLE_BITS);
        single_step_oracle(ref, pts[i].r, pts[i].q, pts[i].eps, pts[i].adj == UL_PLD_ADD);
        outcome o;
        outcome_init(&o);
        ul_pld_options opt = options(0, 1e-2, UL_PLD_FFT_AUTO, pts[i].adj);
        run_sub(&o, pts[i].r, pts[i].q, 1, pts[i].eps, &opt);
        char what[96];
        snprintf(what, sizeof what, "r=%s q=%s eps=%s %s", pts[i].r, pts[i].q, pts[i].eps,
                 pts[i].adj == UL_PLD_ADD ? "add" : "remove");
        cr_assert_eq(o.st, UL_OK, "%s: %s", what, o.err);
        cr_assert(rel_width(&o) <= 1e-2, "%s", what);
        assert_contains(&o, ref, 1e-100, what);
        outcome_clear(&o);
        mpfr_clear(ref);
    }
}

/* dp_accounting, pld/privacy_loss_mechanism_test.py,
 * test_gaussian_get_delta_for_epsilon (v0.6.0): (standard
 * deviation, sensitivity, sampling probability, adjacency, ε) → δ, one step.
 * r = sensitivity / standard deviation. */
Test(pld, subsampled_matches_dp_accounting_published_values)
{
    struct {
        const char *r, *q, *eps;
        ul_pld_adjacency adj;
        const char *delta;
    } pts[] = {
        {"1", "0.8", "1", UL_PLD_ADD, "0.0231362104090899"},
        {"1", "0.8", "1", UL_PLD_REMOVE, "0.0816951786585355"},
        {"1", "0.3", "2", UL_PLD_REMOVE, "0.0003341102928869332"},
        {"1", "0.2", "-0.25", UL_PLD_REMOVE, "0.2211992169285951"}, /* sd 5, sens 5 */
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        outcome o;
        outcome_init(&o);
        ul_pld_options opt = options(0, 1e-2, UL_PLD_FFT_AUTO, pts[i].adj);
        run_sub(&o, pts[i].r, pts[i].q, 1, pts[i].eps, &opt);
        cr_assert_eq(o.st, UL_OK, "%s", o.err);
        mpfr_t ref;
        mpfr_init2(ref, 64);
        mpfr_set_str(ref, pts[i].delta, 10, MPFR_RNDN);
        /* published in double precision: allow 1e-13 relative */
        assert_contains(&o, ref, 1e-13, pts[i].delta);
        mpfr_clear(ref);
        outcome_clear(&o);
    }
}

/* ---- two subsampled steps by quadrature ------------------------------------------- */

typedef struct {
    double r, q;
    bool add;
} sub_mech;

static double qd(double x)
{
    return 0.5 * erfc(x / sqrt(2.0));
}

static double phid(double x)
{
    return exp(-0.5 * x * x) * 0.39894228040143267794; /* 1/√(2π) */
}

/* REMOVE loss at noise value x: log(1 − q + q·e^{rx − r²/2}). */
static double lrem(const sub_mech *m, double x)
{
    return log1p(m->q * expm1(m->r * x - 0.5 * m->r * m->r));
}

/* one-step δ at η (closed form, doubles) */
static double delta_one(const sub_mech *m, double eta)
{
    double r = m->r, q = m->q, v = m->add ? -eta : eta, a = expm1(v) / q;
    if (!(a > -1))
        return m->add ? 0 : 1 - exp(eta);
    double x = 0.5 * r + log1p(a) / r;
    if (!m->add)
        return (1 - q) * qd(x) + q * qd(x - r) - exp(eta) * qd(x);
    double pa = qd(-x), pm = (1 - q) * qd(-x) + q * qd(r - x);
    return pa - exp(eta) * pm;
}

/* δ after two steps (m1 then m2): ∫ p₁(x)·δ₂(ε − L₁(x)) dx, δ₂ the one-step
 * closed form of m2 at the shifted ε; Simpson with n intervals on
 * [−14, 14 + r₁] (the density outside is below 1e-40). */
static double delta_mixed(const sub_mech *m1, const sub_mech *m2, double eps, int n)
{
    double a = -14, b = 14 + m1->r, h = (b - a) / n, s = 0;
    for (int i = 0; i <= n; i++) {
        double x = a + h * i, w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
        double dens = m1->add ? phid(x) : (1 - m1->q) * phid(x) + m1->q * phid(x - m1->r);
        double loss = m1->add ? -lrem(m1, x) : lrem(m1, x);
        s += w * dens * delta_one(m2, eps - loss);
    }
    return s * h / 3;
}

static double delta_two(const sub_mech *m, double eps, int n)
{
    return delta_mixed(m, m, eps, n);
}

/* δ of two steps of m at eps by the quadrature, its own accuracy measured
 * (2^18 against 2^17 intervals). */
static double converged_delta_two(const sub_mech *m, double eps)
{
    double fine = delta_two(m, eps, 1 << 18), coarse = delta_two(m, eps, 1 << 17);
    cr_assert(fabs(fine - coarse) <= 1e-9 * fine, "quadrature not converged: %.17g %.17g", fine,
              coarse);
    return fine;
}

/* The engine's two-step bracket (run_sub) contains the quadrature's δ; with
 * must_be_ok, as narrow as asked (UL_OK), else UL_ECAP is allowed too. */
static void two_steps_contain(const char *r, const char *q, const char *eps, double ref_d,
                              const ul_pld_options *opt, bool must_be_ok, const char *tag)
{
    outcome o;
    outcome_init(&o);
    run_sub(&o, r, q, 2, eps, opt);
    cr_assert(o.st == UL_OK || (!must_be_ok && o.st == UL_ECAP), "%s", o.err);
    mpfr_t ref;
    mpfr_init2(ref, 64);
    mpfr_set_d(ref, ref_d, MPFR_RNDN);
    char what[96];
    snprintf(what, sizeof what, "T=2 r=%s q=%s eps=%s %s", r, q, eps, tag);
    assert_contains(&o, ref, 1e-8, what);
    mpfr_clear(ref);
    outcome_clear(&o);
}

Test(pld, subsampled_two_steps_match_quadrature)
{
    struct {
        const char *r, *q, *eps;
        ul_pld_adjacency adj;
    } pts[] = {
        {"1", "0.3", "1", UL_PLD_REMOVE},
        {"1", "0.8", "1", UL_PLD_ADD},
        {"0.5", "0.5", "0.25", UL_PLD_REMOVE},
        {"0.5", "0.5", "0.25", UL_PLD_ADD},
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        sub_mech m = {strtod(pts[i].r, NULL), strtod(pts[i].q, NULL), pts[i].adj == UL_PLD_ADD};
        double fine = converged_delta_two(&m, strtod(pts[i].eps, NULL));
        ul_pld_options opt = options(0, 1e-2, UL_PLD_FFT_AUTO, pts[i].adj);
        two_steps_contain(pts[i].r, pts[i].q, pts[i].eps, fine, &opt, true,
                          m.add ? "add" : "remove");
    }
}

/* The tilted engine (§5) on two subsampled steps far in the tail, where the
 * untilted arrays carry δ as a sliver of their mass: against the same
 * quadrature, tilting on and off (both must contain it). */
Test(pld, tilted_two_steps_match_quadrature)
{
    struct {
        const char *r, *q, *eps;
        ul_pld_adjacency adj;
    } pts[] = {
        {"1", "0.3", "5", UL_PLD_REMOVE},
        {"2", "0.1", "7", UL_PLD_REMOVE},
        {"0.5", "0.5", "1.3", UL_PLD_ADD},
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        sub_mech m = {strtod(pts[i].r, NULL), strtod(pts[i].q, NULL), pts[i].adj == UL_PLD_ADD};
        double fine = converged_delta_two(&m, strtod(pts[i].eps, NULL));
        cr_assert(fine < 1e-4 && fine > 0, "case %zu: delta %g is not in the tail", i, fine);
        for (int off = 0; off < 2; off++) {
            ul_pld_options opt = options(0, 1e-3, UL_PLD_FFT_AUTO, pts[i].adj);
            opt.tilt = off ? UL_PLD_TILT_OFF : UL_PLD_TILT_AUTO;
            two_steps_contain(pts[i].r, pts[i].q, pts[i].eps, fine, &opt, false,
                              off ? "tilt off" : "tilt on");
        }
    }
}

/* ---- the RDP bound: δ_true ≤ δ_RDP, so lo ≤ δ_RDP ----------------------------------- */

/* log A_α for the REMOVE pair at integer α ≥ 2 (Mironov, Talwar, Zhang 2019,
 * "Rényi DP of the sampled Gaussian mechanism", §3.3):
 * A_α = E_{N(0,1)}[(1 − q + q·e^{rX − r²/2})^α]
 *     = Σ_i C(α,i)(1−q)^{α−i} q^i e^{(i²−i)r²/2}; RDP = log A_α/(α−1). */
static void log_a_alpha(mpfr_ptr out, const char *r_s, const char *q_s, unsigned long alpha)
{
    mpfr_prec_t p = 256;
    mpfr_t r2, q, omq, term, sum, t;
    mpfr_inits2(p, r2, q, omq, term, sum, t, (mpfr_ptr)0);
    mpfr_set_str(r2, r_s, 10, MPFR_RNDN);
    mpfr_sqr(r2, r2, MPFR_RNDN);
    mpfr_set_str(q, q_s, 10, MPFR_RNDN);
    mpfr_ui_sub(omq, 1, q, MPFR_RNDN);
    mpfr_set_zero(sum, 1);
    mpz_t binom;
    mpz_init(binom);
    for (unsigned long i = 0; i <= alpha; i++) {
        mpz_bin_uiui(binom, alpha, i);
        mpfr_set_z(term, binom, MPFR_RNDN);
        mpfr_pow_ui(t, omq, alpha - i, MPFR_RNDN);
        mpfr_mul(term, term, t, MPFR_RNDN);
        mpfr_pow_ui(t, q, i, MPFR_RNDN);
        mpfr_mul(term, term, t, MPFR_RNDN);
        mpfr_mul_ui(t, r2, i * i - i, MPFR_RNDN);
        mpfr_div_2ui(t, t, 1, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_mul(term, term, t, MPFR_RNDN);
        mpfr_add(sum, sum, term, MPFR_RNDN);
    }
    mpfr_log(out, sum, MPFR_RNDN);
    mpz_clear(binom);
    mpfr_clears(r2, q, omq, term, sum, t, (mpfr_ptr)0);
}

Test(pld, subsampled_respects_rdp_bound)
{
    /* the RDP code against TF-Privacy's table (as quoted by autodp's
     * test/unit_test_dp_sgd_poisson_sampling_add_remove.py):
     * q = 0.01, σ = 1, α = 2 → 1.7181342207453428e-04 */
    mpfr_t la;
    mpfr_init2(la, 256);
    log_a_alpha(la, "1", "0.01", 2);
    double v = mpfr_get_d(la, MPFR_RNDN);
    cr_assert(fabs(v - 1.7181342207453428e-04) <= 1e-12 * 1.7181342207453428e-04, "%.17g", v);

    /* δ(ε) ≤ min_α exp((α−1)(T·R_α − ε) + (α−1)·log(1 − 1/α) − log α)
     * (Balle et al. 2020 Thm 21 = Canonne–Kamath–Steinke Prop. 12, in the δ form
     * of dp_accounting v0.6.0's compute_delta) */
    const char *r = "1", *q = "0.1";
    unsigned long T = 100;
    double eps = 2, best = INFINITY;
    for (unsigned long a = 2; a <= 128; a++) {
        log_a_alpha(la, r, q, a);
        double R = (double)T * mpfr_get_d(la, MPFR_RNDN) / (double)(a - 1);
        double ld = (double)(a - 1) * (R - eps + log1p(-1.0 / (double)a)) - log((double)a);
        best = fmin(best, ld);
    }
    double rdp = exp(best);
    outcome o;
    outcome_init(&o);
    ul_pld_options opt = options(0, 1e-2, UL_PLD_FFT_AUTO, UL_PLD_REMOVE);
    run_sub(&o, r, q, T, "2", &opt);
    cr_assert_eq(o.st, UL_OK, "%s", o.err);
    cr_assert(mpfr_get_d(o.lo, MPFR_RNDD) <= rdp, "lo %.6g above the RDP bound %.6g",
              mpfr_get_d(o.lo, MPFR_RNDD), rdp);
    cr_log_info("q=0.1 r=1 T=100 eps=2: PLD [%.6g, %.6g], RDP bound %.6g",
                mpfr_get_d(o.lo, MPFR_RNDD), mpfr_get_d(o.hi, MPFR_RNDU), rdp);
    outcome_clear(&o);
    mpfr_clear(la);
}

/* ---- rounding ----------------------------------------------------------------------- */

/* ---- the FFT against Higham's bound (pld_fft.h) ------------------------------------ */

/* The DFT of x (real) at 160 bits by the definition, twiddles from
 * mpfr_sin_cos on 2πm/N (m = jk mod N): independent of pld_fft.c. */
static void dft_oracle(mpfr_t *yr, mpfr_t *yi, const long double *x, size_t N)
{
    mpfr_t *c = malloc(N * sizeof *c), *s = malloc(N * sizeof *s), a, t;
    mpfr_inits2(160, a, t, (mpfr_ptr)0);
    for (size_t m = 0; m < N; m++) {
        mpfr_inits2(160, c[m], s[m], (mpfr_ptr)0);
        mpfr_const_pi(a, MPFR_RNDN);
        mpfr_mul_ui(a, a, 2 * (unsigned long)m, MPFR_RNDN);
        mpfr_div_ui(a, a, (unsigned long)N, MPFR_RNDN);
        mpfr_sin_cos(s[m], c[m], a, MPFR_RNDN);
    }
    for (size_t k = 0; k < N; k++) {
        mpfr_set_zero(yr[k], 1);
        mpfr_set_zero(yi[k], 1);
        for (size_t j = 0; j < N; j++) {
            size_t m = (j * k) % N;
            mpfr_mul_d(t, c[m], (double)x[j], MPFR_RNDN); /* x holds doubles */
            mpfr_add(yr[k], yr[k], t, MPFR_RNDN);
            mpfr_mul_d(t, s[m], (double)x[j], MPFR_RNDN);
            mpfr_sub(yi[k], yi[k], t, MPFR_RNDN); /* e^{−iθ} */
        }
    }
    for (size_t m = 0; m < N; m++)
        mpfr_clears(c[m], s[m], (mpfr_ptr)0);
    free(c);
    free(s);
    mpfr_clears(a, t, (mpfr_ptr)0);
}

/* ‖ŷ − y‖₂/‖y‖₂ against the oracle. */
static double relative_error(const long double *re, const long double *im, mpfr_t *yr,
                             mpfr_t *yi, size_t N)
{
    long double e2 = 0, r2 = 0;
    for (size_t k = 0; k < N; k++) {
        long double a = mpfr_get_ld(yr[k], MPFR_RNDN), b = mpfr_get_ld(yi[k], MPFR_RNDN);
        e2 += (re[k] - a) * (re[k] - a) + (im[k] - b) * (im[k] - b);
        r2 += a * a + b * b;
    }
    return (double)sqrtl(e2 / r2);
}

Test(pld, fft_error_within_higham_bound)
{
    const size_t N = 512;
    double *dr = malloc(N * sizeof *dr), *di = malloc(N * sizeof *di);
    long double *lr = malloc(N * sizeof *lr), *li = malloc(N * sizeof *li);
    long double *x = malloc(N * sizeof *x), *cr = malloc(N * sizeof *cr),
                *ci = malloc(N * sizeof *ci);
    mpfr_t *yr = malloc(N * sizeof *yr), *yi = malloc(N * sizeof *yi), g;
    for (size_t k = 0; k < N; k++)
        mpfr_inits2(160, yr[k], yi[k], (mpfr_ptr)0);
    mpfr_init2(g, 64);
    for (size_t k = 0; k < N; k++) { /* a PLD-like bump with noise, in doubles */
        double c = ((double)k - (double)N / 3) / ((double)N / 20);
        x[k] = dr[k] = exp(-0.5 * c * c) * (0.5 + uniform01());
        lr[k] = x[k];
        di[k] = 0;
        li[k] = 0;
    }
    dft_oracle(yr, yi, x, N);
    cr_assert(ul_pld_fft_d(dr, di, N, false));
    cr_assert(ul_pld_fft_l(lr, li, N, false));
    for (size_t k = 0; k < N; k++) {
        cr[k] = dr[k];
        ci[k] = di[k];
    }
    ul_pld_fft_gamma(g, N, DBL_MANT_DIG);
    double e = relative_error(cr, ci, yr, yi, N), b = mpfr_get_d(g, MPFR_RNDU);
    cr_log_info("double FFT N=%zu: error %.3g, Higham bound %.3g", N, e, b);
    cr_assert(e <= b, "double: %.3g above the bound %.3g", e, b);
    ul_pld_fft_gamma(g, N, LDBL_MANT_DIG);
    e = relative_error(lr, li, yr, yi, N);
    b = mpfr_get_d(g, MPFR_RNDU);
    cr_log_info("long double FFT N=%zu: error %.3g, Higham bound %.3g", N, e, b);
    cr_assert(e <= b, "long double: %.3g above the bound %.3g", e, b);
    /* the inverse (unnormalised) brings the spectrum back to N·x */
    cr_assert(ul_pld_fft_d(dr, di, N, true));
    for (size_t k = 0; k < N; k++)
        cr_assert(fabs(dr[k] / (double)N - (double)x[k]) <= 1e-14, "inverse at %zu", k);
    for (size_t k = 0; k < N; k++)
        mpfr_clears(yr[k], yi[k], (mpfr_ptr)0);
    mpfr_clear(g);
    free(yr);
    free(yi);
    free(dr);
    free(di);
    free(lr);
    free(li);
    free(x);
    free(cr);
    free(ci);
    ul_pld_fft_release();
}

Test(pld, brackets_narrow_as_the_grid_refines_at_large_T)
{
    /* T·h far above the composed spread r√T: the old round-up/round-down
     * grid gave [0, 1] here.  The CTD excess is second order in h: halving
     * h must quarter the width (0.4 with slack). */
    check_narrowing("0.01", 20000, "0.5", 4e-4, 1e-4, 0.4);
}

Test(pld, double_and_long_double_agree_within_budgets)
{
    outcome d, l;
    outcome_init(&d);
    outcome_init(&l);
    ul_pld_options od = options(1e-3, 1, UL_PLD_FFT_DOUBLE, UL_PLD_ADD_REMOVE);
    ul_pld_options ol = options(1e-3, 1, UL_PLD_FFT_LONG_DOUBLE, UL_PLD_ADD_REMOVE);
    run_gauss(&d, "0.1", 1000, "1", &od);
    run_gauss(&l, "0.1", 1000, "1", &ol);
    cr_assert_eq(d.st, UL_OK, "%s", d.err);
    cr_assert_eq(l.st, UL_OK, "%s", l.err);
    cr_assert_eq(d.rep.fft_bits, 53);
    cr_assert_eq(l.rep.fft_bits, LDBL_MANT_DIG);
    double diff = fabs(d.rep.delta_pessimistic - l.rep.delta_pessimistic);
    cr_log_info("same grid, double vs long double: |difference| %.3g, budgets %.3g and %.3g",
                diff, d.rep.rounding, l.rep.rounding);
    cr_assert(diff <= d.rep.rounding + l.rep.rounding, "difference %.3g above the budgets", diff);
    cr_assert(l.rep.rounding < 1e-3 * d.rep.rounding);
    outcome_clear(&d);
    outcome_clear(&l);
}

Test(pld, delta_below_the_rounding_floor_is_refused_not_wrong)
{
    /* θ_{e^30}(√10) ≈ 3.7e-16: far below what a 1000-fold untilted FFT
     * resolves (tilting, §5, is off here; the next test has it on). */
    const char *r = "0.1";
    unsigned long T = 1000;
    mpfr_t rt, ref;
    mpfr_inits2(ORACLE_BITS, rt, ref, (mpfr_ptr)0);
    combined_r(rt, &r, &T, 1);
    theta_oracle(ref, "30", rt);
    ul_pld_fft modes[] = {UL_PLD_FFT_AUTO, UL_PLD_FFT_DOUBLE};
    for (size_t i = 0; i < 2; i++) {
        outcome o;
        outcome_init(&o);
        ul_pld_options opt = options(0, 1e-3, modes[i], UL_PLD_ADD_REMOVE);
        opt.tilt = UL_PLD_TILT_OFF;
        run_gauss(&o, r, T, "30", &opt);
        cr_assert_eq(o.st, UL_ECAP, "mode %zu: status %d (%s)", i, o.st, o.err);
        cr_assert(strstr(o.err, "rounding") != NULL, "%s", o.err);
        cr_assert_eq(o.rep.fft_bits, modes[i] == UL_PLD_FFT_AUTO ? LDBL_MANT_DIG : 53,
                     "precision %d", o.rep.fft_bits);
        assert_contains(&o, ref, 1e-100, "below the floor");
        /* the upper end carries the rounding bound: never a wrong small δ
         * (the computed sum itself may be rounding noise of either sign) */
        cr_assert(mpfr_get_d(o.hi, MPFR_RNDU) >= 0.5 * o.rep.rounding, "hi %g, rounding %g",
                  mpfr_get_d(o.hi, MPFR_RNDU), o.rep.rounding);
        outcome_clear(&o);
    }
    /* where double is not enough but long double is, auto switches and succeeds */
    outcome o;
    outcome_init(&o);
    ul_pld_options opt = options(0, 1e-2, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
    opt.tilt = UL_PLD_TILT_OFF;
    run_gauss(&o, "1", 4, "16", &opt); /* θ_{e^16}(2) ≈ 2.8e-13 */
    cr_assert_eq(o.st, UL_OK, "%s", o.err);
    cr_assert_eq(o.rep.fft_bits, LDBL_MANT_DIG);
    combined_r(rt, (const char *[]){"1"}, (const unsigned long[]){4}, 1);
    theta_oracle(ref, "16", rt);
    assert_contains(&o, ref, 1e-100, "long double");
    outcome_clear(&o);
    mpfr_clears(rt, ref, (mpfr_ptr)0);
}

/* Tilting (pld.c §5) resolves what the untilted engine cannot: the FFT
 * engine (by r) against the oracle's θ_{e^ε}(r√T) at δ from 4e-16 down to
 * about 1e-250, in double precision, each bracket containing θ and as narrow
 * as asked. */
Test(pld, tilted_engine_contains_theta_far_below_the_floor)
{
    struct {
        const char *r, *eps;
        unsigned long T;
    } cases[] = {{"0.1", "30", 1000}, {"0.05", "60", 10000}, {"1", "100", 50},
                 {"0.3", "40", 40}, {"0.3", "66", 40}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mpfr_t rt, ref;
        mpfr_inits2(ORACLE_BITS, rt, ref, (mpfr_ptr)0);
        combined_r(rt, &cases[i].r, &cases[i].T, 1);
        theta_oracle(ref, cases[i].eps, rt);
        outcome o;
        outcome_init(&o);
        ul_pld_options opt = options(0, 1e-3, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
        run_gauss(&o, cases[i].r, cases[i].T, cases[i].eps, &opt);
        cr_log_info("r %s T %lu eps %s: theta %.3g, bracket [%.6g, %.6g]", cases[i].r,
                    cases[i].T, cases[i].eps, mpfr_get_d(ref, MPFR_RNDN),
                    mpfr_get_d(o.lo, MPFR_RNDD), mpfr_get_d(o.hi, MPFR_RNDU));
        /* at 1e-252 the bracket stops near 7% wide (not yet the 1e-3 asked) */
        bool last = i + 1 == sizeof cases / sizeof cases[0];
        cr_assert(o.st == UL_OK || (last && o.st == UL_ECAP), "case %zu: %s", i, o.err);
        cr_assert_eq(o.rep.fft_bits, 53, "case %zu", i);
        assert_contains(&o, ref, 1e-100, "tilted");
        mpfr_t wdt;
        mpfr_init2(wdt, 64);
        mpfr_sub(wdt, o.hi, o.lo, MPFR_RNDU);
        mpfr_div(wdt, wdt, o.hi, MPFR_RNDU);
        cr_assert(mpfr_cmp_d(wdt, last ? 0.1 : 1e-3) <= 0, "case %zu: relative width %g", i,
                  mpfr_get_d(wdt, MPFR_RNDU));
        mpfr_clear(wdt);
        cr_assert(mpfr_cmp_d(ref, 1e-15) < 0, "case %zu is not below the floor", i);
        outcome_clear(&o);
        mpfr_clears(rt, ref, (mpfr_ptr)0);
    }
}

/* ---- inputs --------------------------------------------------------------------------- */

static void expect_input_error(ul_status st, const char *err, const char *name)
{
    cr_assert_eq(st, UL_EINPUT, "expected an input error naming %s (status %d: %s)", name, st,
                 err);
    cr_assert(strstr(err, name) != NULL, "message '%s' does not name %s", err, name);
}

Test(pld, input_errors_name_the_parameter)
{
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    mpfr_set_ui(lo, 7, MPFR_RNDN);
    char err[512];
    ul_pld_report rep;
    ul_pld_options opt;
    ul_pld_options_default(&opt);
    expect_input_error(ul_pld_compose_gaussian("-1", 10, "1", &opt, lo, hi, &rep, err, sizeof err),
                       err, "r:");
    expect_input_error(ul_pld_compose_gaussian("0", 10, "1", &opt, lo, hi, &rep, err, sizeof err),
                       err, "r:");
    expect_input_error(
        ul_pld_compose_gaussian("abc", 10, "1", &opt, lo, hi, &rep, err, sizeof err), err, "r:");
    expect_input_error(ul_pld_compose_gaussian("1", 0, "1", &opt, lo, hi, &rep, err, sizeof err),
                       err, "steps");
    expect_input_error(ul_pld_compose_gaussian("1", 10, "nan", &opt, lo, hi, &rep, err, sizeof err),
                       err, "eps");
    expect_input_error(
        ul_pld_compose_gaussian("1", 10, "2000", &opt, lo, hi, &rep, err, sizeof err), err, "eps");
    expect_input_error(ul_pld_compose_subsampled("1", "0", 10, "1", &opt, lo, hi, &rep, err,
                                                 sizeof err),
                       err, "q:");
    expect_input_error(ul_pld_compose_subsampled("1", "1.5", 10, "1", &opt, lo, hi, &rep, err,
                                                 sizeof err),
                       err, "q:");
    expect_input_error(ul_pld_compose_subsampled("1", NULL, 10, "1", &opt, lo, hi, &rep, err,
                                                 sizeof err),
                       err, "q:");
    ul_pld_options bad = opt;
    bad.grid_step = -1;
    expect_input_error(ul_pld_compose_gaussian("1", 10, "1", &bad, lo, hi, &rep, err, sizeof err),
                       err, "grid-step");
    bad = opt;
    bad.grid_step = NAN;
    expect_input_error(ul_pld_compose_gaussian("1", 10, "1", &bad, lo, hi, &rep, err, sizeof err),
                       err, "grid-step");
    bad = opt;
    bad.rel_width = 0;
    expect_input_error(ul_pld_compose_gaussian("1", 10, "1", &bad, lo, hi, &rep, err, sizeof err),
                       err, "rel-width");
    bad = opt;
    bad.tail_bound = 0.5;
    expect_input_error(ul_pld_compose_gaussian("1", 10, "1", &bad, lo, hi, &rep, err, sizeof err),
                       err, "tail-bound");
    bad = opt;
    bad.max_points = 5;
    expect_input_error(ul_pld_compose_gaussian("1", 10, "1", &bad, lo, hi, &rep, err, sizeof err),
                       err, "max-points");
    /* absurd sizes are refused, not attempted */
    bad = opt;
    bad.grid_step = 1e-9;
    expect_input_error(ul_pld_compose_gaussian("1", 10, "1", &bad, lo, hi, &rep, err, sizeof err),
                       err, "grid-step");
    bad.grid_step = 1e-6;
    expect_input_error(ul_pld_compose_gaussian("0.1", 1000000, "1", &bad, lo, hi, &rep, err,
                                               sizeof err),
                       err, "grid-step");
    /* lists name the element */
    ul_pld_mechanism list[] = {{"0.5", NULL, 3}, {"-2", NULL, 4}};
    expect_input_error(ul_pld_compose(list, 2, "1", &opt, lo, hi, &rep, err, sizeof err), err,
                       "mechanism[1].r");
    expect_input_error(ul_pld_compose(list, 0, "1", &opt, lo, hi, &rep, err, sizeof err), err,
                       "mechanisms");
    /* nothing half-written */
    cr_assert_eq(mpfr_cmp_ui(lo, 7), 0);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

Test(pld, null_options_mean_defaults)
{
    outcome o;
    outcome_init(&o);
    run_gauss(&o, "1", 1, "1", NULL);
    cr_assert_eq(o.st, UL_OK, "%s", o.err);
    cr_assert(rel_width(&o) <= 1e-3);
    mpfr_t ref, rt;
    mpfr_inits2(ORACLE_BITS, ref, rt, (mpfr_ptr)0);
    mpfr_set_ui(rt, 1, MPFR_RNDN);
    theta_oracle(ref, "1", rt);
    assert_contains(&o, ref, 1e-100, "defaults");
    mpfr_clears(ref, rt, (mpfr_ptr)0);
    outcome_clear(&o);
}

/* ---- the phase API (pld.h): σ and Δ, heterogeneous phases, ε(δ), replace -------- */

static void run_phases(outcome *out, const ul_pld_phase *ph, size_t n, const char *eps,
                       const ul_pld_options *opt)
{
    out->st = ul_pld_delta(ph, n, eps, opt, out->lo, out->hi, &out->rep, out->err,
                           sizeof out->err);
}

static void run_eps(outcome *out, const ul_pld_phase *ph, size_t n, const char *delta,
                    const ul_pld_options *opt)
{
    out->st = ul_pld_epsilon(ph, n, delta, opt, out->lo, out->hi, &out->rep, out->err,
                             sizeof out->err);
}

/* σ and Δ as given: the T-fold Gaussian is Gaussian with r = Δ√T/σ (and
 * heterogeneous Gaussian phases with r = √(Σ T_i Δ_i²/σ_i²)), θ from the
 * oracle. */
Test(pld, phases_of_gaussians_contain_theta)
{
    ul_pld_phase ph[] = {{"20", "2", NULL, 600}, {"5", NULL, "1", 400}};
    outcome o;
    outcome_init(&o);
    ul_pld_options opt = options(0, 1e-3, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
    run_phases(&o, ph, 2, "1", &opt);
    cr_assert_eq(o.st, UL_OK, "%s", o.err);
    const char *r[] = {"0.1", "0.2"}; /* Δ/σ of the two phases */
    unsigned long T[] = {600, 400};
    mpfr_t rt, ref;
    mpfr_inits2(ORACLE_BITS, rt, ref, (mpfr_ptr)0);
    combined_r(rt, r, T, 2);
    theta_oracle(ref, "1", rt);
    assert_contains(&o, ref, 1e-100, "two Gaussian phases");
    cr_assert(rel_width(&o) <= 1e-3);
    mpfr_clears(rt, ref, (mpfr_ptr)0);
    outcome_clear(&o);
}

/* Replace-one without subsampling compares N(−Δ, σ²) with N(Δ, σ²)
 * (dp_accounting REPLACE_ONE): θ at r = 2Δ√T/σ; with q < 1 it is refused. */
Test(pld, replace_is_the_gaussian_with_twice_the_shift)
{
    ul_pld_phase ph = {"4", "1", NULL, 100};
    outcome o;
    outcome_init(&o);
    ul_pld_options opt = options(0, 1e-3, UL_PLD_FFT_AUTO, UL_PLD_REPLACE);
    run_phases(&o, &ph, 1, "2", &opt);
    cr_assert_eq(o.st, UL_OK, "%s", o.err);
    mpfr_t rt, ref;
    mpfr_inits2(ORACLE_BITS, rt, ref, (mpfr_ptr)0);
    mpfr_set_ui(rt, 5, MPFR_RNDN); /* 2·(1/4)·√100 */
    theta_oracle(ref, "2", rt);
    assert_contains(&o, ref, 1e-100, "replace, q = 1");
    ph.q = "0.5";
    run_phases(&o, &ph, 1, "2", &opt);
    cr_assert_eq(o.st, UL_EINPUT);
    cr_assert(strncmp(o.err, "adjacency", 9) == 0, "%s", o.err);
    mpfr_clears(rt, ref, (mpfr_ptr)0);
    outcome_clear(&o);
}

/* ε(δ) of the T-fold Gaussian: ε* = the root of θ(ε, r√T) = δ, and θ
 * decreases in ε, so eps_lo ≤ ε* ≤ eps_hi is θ(eps_hi) ≤ δ ≤ θ(eps_lo)
 * (oracle at ORACLE_BITS; eps_lo = 0 needs nothing). */
Test(pld, eps_query_brackets_the_gaussian_inverse)
{
    struct {
        const char *sigma, *delta;
        unsigned long T;
        const char *r_total;
    } pts[] = {{"10", "0.5", 1000, "3.16227766016837933199889354443271853372"},
               {"2", "1e-5", 20, "2.23606797749978969640917366873127623544"},
               {"1", "1e-9", 1, "1"}};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        ul_pld_phase ph = {pts[i].sigma, NULL, NULL, pts[i].T};
        outcome o;
        outcome_init(&o);
        ul_pld_options opt = options(0, 1e-3, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
        run_eps(&o, &ph, 1, pts[i].delta, &opt);
        cr_assert_eq(o.st, UL_OK, "delta %s: %s", pts[i].delta, o.err);
        cr_assert(mpfr_number_p(o.hi) && mpfr_lessequal_p(o.lo, o.hi));
        cr_assert(rel_width(&o) <= 1e-3, "width %g", rel_width(&o));
        mpfr_t rt, th, d, e;
        mpfr_inits2(ORACLE_BITS, rt, th, d, e, (mpfr_ptr)0);
        mpfr_set_str(rt, pts[i].r_total, 10, MPFR_RNDN);
        mpfr_set_str(d, pts[i].delta, 10, MPFR_RNDN);
        mpfr_set(e, o.hi, MPFR_RNDN);
        oracle_log_theta(th, e, rt);
        mpfr_exp(th, th, MPFR_RNDN);
        cr_assert(mpfr_lessequal_p(th, d), "theta(eps_hi) > delta %s", pts[i].delta);
        if (mpfr_sgn(o.lo) > 0) {
            mpfr_set(e, o.lo, MPFR_RNDN);
            oracle_log_theta(th, e, rt);
            mpfr_exp(th, th, MPFR_RNDN);
            cr_assert(mpfr_greaterequal_p(th, d), "theta(eps_lo) < delta %s", pts[i].delta);
        }
        mpfr_clears(rt, th, d, e, (mpfr_ptr)0);
        outcome_clear(&o);
    }
}

Test(pld, heterogeneous_subsampled_phases_match_quadrature)
{
    /* phase 1: σ = 2, Δ = 2 (r = 1), q = 0.3; phase 2: σ = 4, Δ = 2 (r = 0.5), q = 0.6 */
    ul_pld_phase ph[] = {{"2", "2", "0.3", 1}, {"4", "2", "0.6", 1}};
    for (int add = 0; add <= 1; add++) {
        sub_mech m1 = {1, 0.3, add}, m2 = {0.5, 0.6, add};
        double fine = delta_mixed(&m1, &m2, 0.5, 1 << 18),
               coarse = delta_mixed(&m1, &m2, 0.5, 1 << 17);
        cr_assert(fabs(fine - coarse) <= 1e-9 * fine, "quadrature not converged");
        outcome o;
        outcome_init(&o);
        ul_pld_options opt = options(0, 1e-2, UL_PLD_FFT_AUTO, add ? UL_PLD_ADD : UL_PLD_REMOVE);
        run_phases(&o, ph, 2, "0.5", &opt);
        cr_assert_eq(o.st, UL_OK, "%s", o.err);
        mpfr_t ref;
        mpfr_init2(ref, 64);
        mpfr_set_d(ref, fine, MPFR_RNDN);
        assert_contains(&o, ref, 1e-8, add ? "two phases, add" : "two phases, remove");
        mpfr_clear(ref);
        outcome_clear(&o);
    }
}

static bool overlap(const outcome *a, const outcome *b)
{
    return mpfr_lessequal_p(a->lo, b->hi) && mpfr_lessequal_p(b->lo, a->hi);
}

/* Composition adds independent losses: the order of the phases and the
 * split of one phase of 2T steps into two of T do not change δ(ε), so the
 * brackets of the different compositions (different grids and arrays)
 * must overlap. */
Test(pld, phase_order_and_splitting_agree)
{
    ul_pld_phase ab[] = {{"1", NULL, "0.02", 50}, {"2", "1.5", "0.05", 30}};
    ul_pld_phase ba[] = {ab[1], ab[0]};
    ul_pld_phase one[] = {{"1", NULL, "0.02", 100}};
    ul_pld_phase two[] = {{"1", NULL, "0.02", 50}, {"1", NULL, "0.02", 50}};
    outcome o[4];
    ul_pld_options opt = options(0, 1e-3, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
    for (int i = 0; i < 4; i++)
        outcome_init(&o[i]);
    run_phases(&o[0], ab, 2, "0.5", &opt);
    run_phases(&o[1], ba, 2, "0.5", &opt);
    run_phases(&o[2], one, 1, "0.5", &opt);
    run_phases(&o[3], two, 2, "0.5", &opt);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(o[i].st, UL_OK, "%d: %s", i, o[i].err);
    cr_assert(overlap(&o[0], &o[1]), "phases permuted: disjoint brackets");
    cr_assert(overlap(&o[2], &o[3]), "2T steps vs T + T: disjoint brackets");
    for (int i = 0; i < 4; i++)
        outcome_clear(&o[i]);
}

/* Published values: the Opacus PRV test vector of issue 14 (σ = 1.5,
 * q = 0.04, T = 2249, δ = 1e-5: PRV's ε upper estimate 6.7774) and the
 * DPBayes PLD-Accountant README (github.com/DPBayes/PLD-Accountant:
 * q = 0.01, σ = 4, T = 10^4, ε = 1 → δ ≈ 4.2435e-6).  Neither is proven;
 * the certified ε must lie at or below PRV's upper estimate, and ε at the
 * DPBayes δ must be 1 up to the 5 digits printed. */
Test(pld, eps_query_matches_published_values)
{
    ul_pld_options opt = options(0, 1e-3, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
    ul_pld_phase opacus = {"1.5", NULL, "0.04", 2249};
    outcome o;
    outcome_init(&o);
    run_eps(&o, &opacus, 1, "1e-5", &opt);
    cr_assert_eq(o.st, UL_OK, "%s", o.err);
    cr_assert(mpfr_cmp_d(o.hi, 6.7774) <= 0, "eps_hi above PRV's upper estimate");
    cr_assert(mpfr_cmp_d(o.lo, 6.7) > 0, "eps_lo too low");
    ul_pld_phase dpbayes = {"4", NULL, "0.01", 10000};
    run_eps(&o, &dpbayes, 1, "4.2435e-6", &opt);
    cr_assert_eq(o.st, UL_OK, "%s", o.err);
    cr_assert(mpfr_cmp_d(o.lo, 1.0005) <= 0 && mpfr_cmp_d(o.hi, 0.9995) >= 0,
              "eps at the DPBayes delta is not 1");
    outcome_clear(&o);
}

Test(pld, phase_input_errors_name_the_field)
{
    struct {
        ul_pld_phase ph;
        const char *want;
    } bad[] = {
        {{"0", NULL, NULL, 10}, "phase[0].sigma"},
        {{"1", "-2", NULL, 10}, "phase[0].sensitivity"},
        {{"1", NULL, "1.5", 10}, "phase[0].q"},
        {{"1", NULL, NULL, 0}, "phase[0].steps"},
        {{"0.0001", "1", NULL, 10}, "phase[0].sigma"}, /* Δ/σ > 1000 */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        outcome o;
        outcome_init(&o);
        run_phases(&o, &bad[i].ph, 1, "1", NULL);
        cr_assert_eq(o.st, UL_EINPUT, "%zu", i);
        cr_assert(strncmp(o.err, bad[i].want, strlen(bad[i].want)) == 0, "%zu: %s", i, o.err);
        outcome_clear(&o);
    }
    ul_pld_phase ok = {"1", NULL, NULL, 10};
    outcome o;
    outcome_init(&o);
    run_eps(&o, &ok, 1, "1", NULL);
    cr_assert_eq(o.st, UL_EINPUT);
    cr_assert(strncmp(o.err, "delta", 5) == 0, "%s", o.err);
    ul_pld_options opt = options(0, 1e-3, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
    opt.max_seconds = -1;
    run_phases(&o, &ok, 1, "1", &opt);
    cr_assert_eq(o.st, UL_EINPUT);
    cr_assert(strncmp(o.err, "max-seconds", 11) == 0, "%s", o.err);
    outcome_clear(&o);
}

/* The two queries against each other on a heterogeneous subsampled list:
 * the true δ(eps_hi) ≤ δ and δ(eps_lo) > δ (pld.h (b)), so the δ query's
 * proven lower end at eps_hi is ≤ δ and its proven upper end at eps_lo is
 * > δ, whatever grids the two calls choose. */
Test(pld, eps_and_delta_queries_agree)
{
    ul_pld_phase ph[] = {{"1.2", NULL, "0.05", 200}, {"0.9", "0.5", "0.02", 100}};
    ul_pld_options opt = options(0, 1e-3, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
    outcome e, d;
    outcome_init(&e);
    outcome_init(&d);
    run_eps(&e, ph, 2, "1e-4", &opt);
    cr_assert_eq(e.st, UL_OK, "%s", e.err);
    cr_assert(mpfr_sgn(e.lo) > 0 && mpfr_number_p(e.hi));
    char at[64];
    mpfr_snprintf(at, sizeof at, "%.25Rg", e.hi); /* the exact double, in decimal */
    run_phases(&d, ph, 2, at, &opt);
    cr_assert_eq(d.st, UL_OK, "%s", d.err);
    cr_assert(mpfr_cmp_d(d.lo, 1e-4) <= 0, "delta_lo(eps_hi) > delta");
    mpfr_snprintf(at, sizeof at, "%.25Rg", e.lo);
    run_phases(&d, ph, 2, at, &opt);
    cr_assert_eq(d.st, UL_OK, "%s", d.err);
    cr_assert(mpfr_cmp_d(d.hi, 1e-4) > 0, "delta_hi(eps_lo) <= delta");
    outcome_clear(&e);
    outcome_clear(&d);
}

/* ε(δ) = 0 when δ ≥ δ(0): the Gaussian's δ(0) = θ_1(r) = 2Φ(r/2) − 1, here
 * r = 0.5 (σ = 2): 0.197…; at δ = 0.5 the bracket is [0, 0]. */
Test(pld, eps_query_is_zero_when_delta_exceeds_delta_at_zero)
{
    ul_pld_phase ph = {"2", NULL, NULL, 1};
    outcome o;
    outcome_init(&o);
    run_eps(&o, &ph, 1, "0.5", NULL);
    cr_assert_eq(o.st, UL_OK, "%s", o.err);
    cr_assert(mpfr_zero_p(o.lo) && mpfr_zero_p(o.hi));
    outcome_clear(&o);
}

/* max_seconds stops refining after the first round (a limit far below any
 * round's duration): UL_ECAP with a bracket that is still proven (θ inside). */
Test(pld, max_seconds_returns_a_sound_wider_bracket)
{
    /* by r (the FFT engine): the phase API encloses plain Gaussians exactly */
    ul_pld_options opt = options(0, 1e-6, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
    opt.max_seconds = 1e-9;
    outcome o;
    outcome_init(&o);
    run_gauss(&o, "0.1", 1000, "1", &opt);
    cr_assert_eq(o.st, UL_ECAP, "%d %s", o.st, o.err);
    cr_assert(strstr(o.err, "max-seconds") != NULL, "%s", o.err);
    cr_assert_eq(o.rep.rounds, 1);
    mpfr_t rt, ref;
    mpfr_inits2(ORACLE_BITS, rt, ref, (mpfr_ptr)0);
    mpfr_set_str(rt, "3.16227766016837933199889354443271853372", 10, MPFR_RNDN);
    theta_oracle(ref, "1", rt);
    assert_contains(&o, ref, 1e-100, "after one round");
    mpfr_clears(rt, ref, (mpfr_ptr)0);
    outcome_clear(&o);
}

/* ε(δ) of one subsampled step against the closed form of its hockey-stick
 * divergence (single_step_oracle, oracle Q at ORACLE_BITS), each direction
 * and their max: δ_oracle(eps_hi) ≤ δ ≤ δ_oracle(eps_lo) (δ(ε) decreases),
 * with eps_hi printed rounded up and eps_lo rounded down (the safe sides). */
Test(pld, eps_query_single_subsampled_step_matches_closed_form)
{
    struct {
        ul_pld_adjacency adj;
        const char *delta;
    } pts[] = {{UL_PLD_REMOVE, "0.01"}, {UL_PLD_ADD, "0.01"}, {UL_PLD_ADD_REMOVE, "1e-4"}};
    ul_pld_phase ph = {"0.5", "0.5", "0.3", 1}; /* r = 1, q = 0.3 */
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        outcome o;
        outcome_init(&o);
        ul_pld_options opt = options(0, 1e-3, UL_PLD_FFT_AUTO, pts[i].adj);
        run_eps(&o, &ph, 1, pts[i].delta, &opt);
        cr_assert_eq(o.st, UL_OK, "%zu: %s", i, o.err);
        cr_assert(mpfr_sgn(o.lo) > 0, "%zu: eps_lo = 0", i);
        char hi_s[64], lo_s[64];
        mpfr_snprintf(hi_s, sizeof hi_s, "%.30RUe", o.hi);
        mpfr_snprintf(lo_s, sizeof lo_s, "%.30RDe", o.lo);
        mpfr_t d, at_hi, at_lo, t;
        mpfr_inits2(ORACLE_BITS, d, at_hi, at_lo, t, (mpfr_ptr)0);
        mpfr_set_str(d, pts[i].delta, 10, MPFR_RNDN);
        bool add = pts[i].adj == UL_PLD_ADD, both = pts[i].adj == UL_PLD_ADD_REMOVE;
        single_step_oracle(at_hi, "1", "0.3", hi_s, add);
        single_step_oracle(at_lo, "1", "0.3", lo_s, add);
        if (both) { /* the max of the two directions */
            single_step_oracle(t, "1", "0.3", hi_s, true);
            mpfr_max(at_hi, at_hi, t, MPFR_RNDN);
            single_step_oracle(t, "1", "0.3", lo_s, true);
            mpfr_max(at_lo, at_lo, t, MPFR_RNDN);
        }
        cr_assert(mpfr_lessequal_p(at_hi, d), "%zu: delta(eps_hi) > delta", i);
        cr_assert(mpfr_greaterequal_p(at_lo, d), "%zu: delta(eps_lo) < delta", i);
        mpfr_clears(d, at_hi, at_lo, t, (mpfr_ptr)0);
        outcome_clear(&o);
    }
}

/* The thread's budget (num/deadline.h) already spent: UL_ETIME before
 * any round, and the trivial brackets, never a partial number. */
Test(pld, spent_deadline_gives_etime_and_trivial_brackets)
{
    ul_pld_phase ph = {"1", NULL, "0.01", 1000};
    outcome o;
    outcome_init(&o);
    ul_deadline_set(1e-9);
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL); /* 1 ms: far past the budget */
    run_phases(&o, &ph, 1, "1", NULL);
    cr_assert_eq(o.st, UL_ETIME, "%d %s", o.st, o.err);
    cr_assert(mpfr_zero_p(o.lo) && mpfr_cmp_ui(o.hi, 1) == 0);
    run_eps(&o, &ph, 1, "1e-5", NULL);
    cr_assert_eq(o.st, UL_ETIME, "%d %s", o.st, o.err);
    cr_assert(mpfr_zero_p(o.lo) && mpfr_inf_p(o.hi));
    ul_deadline_clear();
    outcome_clear(&o);
}

/* ---- the estimate in doubles (ul_pld_epsilon_estimate_d, search only) ---- */

/* δ(ε) of the oracle at ε·(1 + rel), T Gaussian steps of ratio r (r√T). */
static double oracle_gauss_delta_at(double eps, double rel, const char *r_total)
{
    char e[64];
    snprintf(e, sizeof e, "%.17g", eps * (1 + rel));
    mpfr_t t;
    mpfr_init2(t, ORACLE_BITS);
    oracle_log_theta_str(t, e, r_total);
    double v = exp(mpfr_get_d(t, MPFR_RNDN));
    mpfr_clear(t);
    return v;
}

Test(pld, estimate_brackets_the_gaussian_inverse)
{
    /* 1000 steps at σ = 10, q = 1: the Gaussian with r = √1000/10 = √10
     * (3.16227766016837933); within 2e-5 relative of the exact inverse:
     * θ(ε(1 − 2e-5)) > δ > θ(ε(1 + 2e-5)) by the oracle */
    ul_pld_phase_d ph = {10, 1, 1, 1000};
    double e = ul_pld_epsilon_estimate_d(&ph, 1, 1e-5, 0);
    cr_assert(oracle_gauss_delta_at(e, -2e-5, "3.16227766016837933") > 1e-5, "eps %.17g", e);
    cr_assert(oracle_gauss_delta_at(e, 2e-5, "3.16227766016837933") < 1e-5, "eps %.17g", e);
    /* split into two phases (σ = 5 for 250 steps is r² = 250/25 = 10 too) */
    ul_pld_phase_d two[2] = {{10, 1, 1, 500}, {10, 2, 1, 125}};
    double e2 = ul_pld_epsilon_estimate_d(two, 2, 1e-5, 0);
    cr_assert(fabs(e2 - e) <= 2e-5 * e, "two phases %.17g vs %.17g", e2, e);
}

Test(pld, estimate_brackets_a_single_subsampled_step)
{
    /* r = 1, q = 0.3, one step, add/remove: the max over both directions of
     * the closed form (single_step_oracle) crosses δ = 1e-4 within 1e-4 */
    ul_pld_phase_d ph = {0.5, 0.5, 0.3, 1};
    double e = ul_pld_epsilon_estimate_d(&ph, 1, 1e-4, 0);
    char lo_s[64], hi_s[64];
    snprintf(lo_s, sizeof lo_s, "%.17g", e * (1 - 1e-4));
    snprintf(hi_s, sizeof hi_s, "%.17g", e * (1 + 1e-4));
    mpfr_t a, b;
    mpfr_inits2(ORACLE_BITS, a, b, (mpfr_ptr)0);
    single_step_oracle(a, "1", "0.3", lo_s, false);
    single_step_oracle(b, "1", "0.3", lo_s, true);
    cr_assert(mpfr_cmp_d(a, 1e-4) > 0 || mpfr_cmp_d(b, 1e-4) > 0, "eps %.17g too large", e);
    single_step_oracle(a, "1", "0.3", hi_s, false);
    single_step_oracle(b, "1", "0.3", hi_s, true);
    cr_assert(mpfr_cmp_d(a, 1e-4) < 0 && mpfr_cmp_d(b, 1e-4) < 0, "eps %.17g too small", e);
    mpfr_clears(a, b, (mpfr_ptr)0);
}

Test(pld, estimate_matches_published_values)
{
    /* DPBayes README (q = 0.01, σ = 4, T = 10000): δ ≈ 4.2435e-6 at ε = 1;
     * Opacus test_prv_accountant (σ = 1.5, q = 0.04, T = 2249): ε(1e-5) ≤
     * 6.7774 (PRV's upper estimate) and, by its eps_error 0.01, ≥ 6.7574 */
    ul_pld_phase_d dpb = {4, 1, 0.01, 10000}, opc = {1.5, 1, 0.04, 2249};
    double e = ul_pld_epsilon_estimate_d(&dpb, 1, 4.2435e-6, 0);
    cr_assert(fabs(e - 1) <= 1e-4, "DPBayes eps %.17g", e);
    e = ul_pld_epsilon_estimate_d(&opc, 1, 1e-5, 0);
    cr_assert(e <= 6.7774 && e >= 6.7574, "Opacus eps %.17g", e);
}

Test(pld, estimate_refuses_what_is_out_of_domain)
{
    ul_pld_phase_d ph = {1, 1, 0.1, 10};
    cr_assert(isnan(ul_pld_epsilon_estimate_d(&ph, 1, 0, 0)));
    cr_assert(isnan(ul_pld_epsilon_estimate_d(&ph, 1, 1, 0)));
    cr_assert(isnan(ul_pld_epsilon_estimate_d(&ph, 0, 1e-5, 0)));
    ph.q = 1.5;
    cr_assert(isnan(ul_pld_epsilon_estimate_d(&ph, 1, 1e-5, 0)));
    ph.q = 0.1, ph.sigma = 1e-4; /* Δ/σ > 1000 */
    cr_assert(isnan(ul_pld_epsilon_estimate_d(&ph, 1, 1e-5, 0)));
    /* (0, δ)-DP: δ above δ(0) = TV distance of one tiny step */
    ph.sigma = 1000, ph.steps = 1;
    cr_assert_eq(ul_pld_epsilon_estimate_d(&ph, 1, 0.5, 0), 0);
}

Test(pld, estimate_lies_in_the_certified_bracket_of_mixed_phases)
{
    /* three heterogeneous phases (subsampled at two rates, one full batch):
     * the estimate in doubles within the certified engine's ε(δ) bracket (a
     * separate implementation with proven error terms, 1e-4 wide), widened
     * by 2e-5 relative */
    ul_pld_phase ph[3] = {{"1.1", NULL, "0.01", 3000}, {"2", "1", "0.05", 800},
                          {"30", NULL, "1", 50}};
    ul_pld_phase_d pd[3] = {{1.1, 1, 0.01, 3000}, {2, 1, 0.05, 800}, {30, 1, 1, 50}};
    ul_pld_options opt = options(0, 1e-4, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
    outcome o;
    outcome_init(&o);
    run_eps(&o, ph, 3, "1e-6", &opt);
    cr_assert(o.st == UL_OK || o.st == UL_ECAP, "%s", o.err);
    double e = ul_pld_epsilon_estimate_d(pd, 3, 1e-6, 0);
    double lo = mpfr_get_d(o.lo, MPFR_RNDD), hi = mpfr_get_d(o.hi, MPFR_RNDU);
    cr_assert(e >= lo * (1 - 2e-5) && e <= hi * (1 + 2e-5), "estimate %.12g, bracket [%.12g, %.12g]",
              e, lo, hi);
    outcome_clear(&o);
}

/* The phase API's exact path (pld_gauss.c): plain Gaussian phases, however
 * many and however small δ, against the oracle's θ at R = √(Σ T_i Δ_i²/σ_i²)
 * computed here in MPFR: δ(ε) contains θ, and ε(δ) brackets the root,
 * θ(eps_hi) ≤ δ < θ(eps_lo), down to δ = 1e-300 (below any FFT's reach). */
Test(pld, gaussian_phases_are_exact_at_any_delta)
{
    ul_pld_phase ph[] = {{"3", "2", NULL, 70}, {"1.5", NULL, "1", 9}};
    mpfr_t rt, t, ref;
    mpfr_inits2(ORACLE_BITS, rt, t, ref, (mpfr_ptr)0);
    mpfr_set_ui(rt, 70 * 4, MPFR_RNDN); /* 70·2²/3² + 9/1.5² = 280/9 + 4 */
    mpfr_div_ui(rt, rt, 9, MPFR_RNDN);
    mpfr_add_ui(rt, rt, 4, MPFR_RNDN);
    mpfr_sqrt(rt, rt, MPFR_RNDN);
    ul_pld_options opt = options(0, 1e-6, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
    outcome o;
    outcome_init(&o);
    run_phases(&o, ph, 2, "3", &opt);
    cr_assert_eq(o.st, UL_OK, "%s", o.err);
    cr_assert(o.rep.exact_gaussian);
    theta_oracle(ref, "3", rt);
    assert_contains(&o, ref, 1e-100, "delta(3)");
    const char *deltas[] = {"1e-5", "1e-18", "1e-300"};
    for (size_t i = 0; i < 3; i++) {
        run_eps(&o, ph, 2, deltas[i], &opt);
        cr_assert_eq(o.st, UL_OK, "%s: %s", deltas[i], o.err);
        cr_assert(mpfr_number_p(o.hi) && mpfr_cmp(o.lo, o.hi) <= 0, "%s", deltas[i]);
        mpfr_t d, e;
        mpfr_inits2(ORACLE_BITS, d, e, (mpfr_ptr)0);
        mpfr_set_str(d, deltas[i], 10, MPFR_RNDN);
        char buf[64];
        mpfr_snprintf(buf, sizeof buf, "%.40Rg", o.hi);
        theta_oracle(e, buf, rt);
        cr_assert(mpfr_lessequal_p(e, d), "%s: theta(eps_hi) above delta", deltas[i]);
        mpfr_snprintf(buf, sizeof buf, "%.40Rg", o.lo);
        theta_oracle(e, buf, rt);
        cr_assert(mpfr_greater_p(e, d), "%s: theta(eps_lo) not above delta", deltas[i]);
        mpfr_sub(e, o.hi, o.lo, MPFR_RNDU);
        mpfr_div(e, e, o.hi, MPFR_RNDU);
        cr_assert(mpfr_cmp_d(e, 1e-6) <= 0, "%s: width", deltas[i]);
        mpfr_clears(d, e, (mpfr_ptr)0);
    }
    outcome_clear(&o);
    mpfr_clears(rt, t, ref, (mpfr_ptr)0);
}

/* opt.decide (pld.h): refinement stops once the bracket is on one side of
 * the threshold.  Properties: the decided bracket excludes the threshold on
 * the side of the full computation's bracket and intersects it (both are
 * sound); both queries. */
Test(pld, decide_stops_once_the_side_is_known)
{
    ul_pld_phase ph = {"1.5", NULL, "0.04", 2249};
    ul_pld_options full = options(0, 1e-4, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE);
    ul_pld_options dec = full;
    struct {
        bool eps_query;
        const char *arg, *threshold;
        int side; /* the full bracket's side of the threshold: −1 below, +1 above */
    } cases[] = {{false, "6.6", "1e-5", +1}, {false, "6.6", "2e-5", -1},
                 {true, "1e-5", "6.7", +1}, {true, "1e-5", "6.85", -1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        outcome a, b;
        outcome_init(&a);
        outcome_init(&b);
        dec.decide = cases[i].threshold;
        if (cases[i].eps_query) {
            run_eps(&a, &ph, 1, cases[i].arg, &full);
            run_eps(&b, &ph, 1, cases[i].arg, &dec);
        } else {
            run_phases(&a, &ph, 1, cases[i].arg, &full);
            run_phases(&b, &ph, 1, cases[i].arg, &dec);
        }
        cr_assert_eq(a.st, UL_OK, "%zu: %s", i, a.err);
        cr_assert_eq(b.st, UL_OK, "%zu: %s", i, b.err);
        double t = strtod(cases[i].threshold, NULL);
        if (cases[i].side > 0) {
            cr_assert(mpfr_cmp_d(a.lo, t) > 0, "%zu: the full bracket is not above", i);
            cr_assert(mpfr_cmp_d(b.lo, t) > 0, "%zu: the decided bracket is not above", i);
        } else {
            cr_assert(mpfr_cmp_d(a.hi, t) < 0, "%zu: the full bracket is not below", i);
            cr_assert(mpfr_cmp_d(b.hi, t) < 0, "%zu: the decided bracket is not below", i);
        }
        cr_assert(mpfr_lessequal_p(b.lo, a.hi) && mpfr_lessequal_p(a.lo, b.hi), "%zu: disjoint",
                  i);
        outcome_clear(&a);
        outcome_clear(&b);
    }
}

/* Tilting on and off (§5) are two computations of one δ(ε), each proven:
 * their brackets must intersect, on compositions where the tilt is active
 * (ε well above the composed bulk), both directions and both queries. */
Test(pld, tilted_and_untilted_brackets_intersect)
{
    struct {
        const char *sigma, *q, *arg;
        unsigned long T;
        bool eps_query;
    } cases[] = {{"1.5", "0.04", "6.6", 2249, false},  {"1", "0.01", "3", 1000, false},
                 {"2", "0.1", "1e-8", 500, true},      {"0.8", "0.02", "1e-6", 300, true}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ul_pld_phase ph = {cases[i].sigma, NULL, cases[i].q, cases[i].T};
        outcome a, b;
        outcome_init(&a);
        outcome_init(&b);
        ul_pld_options on = options(0, 1e-3, UL_PLD_FFT_AUTO, UL_PLD_ADD_REMOVE), off = on;
        off.tilt = UL_PLD_TILT_OFF;
        if (cases[i].eps_query) {
            run_eps(&a, &ph, 1, cases[i].arg, &on);
            run_eps(&b, &ph, 1, cases[i].arg, &off);
        } else {
            run_phases(&a, &ph, 1, cases[i].arg, &on);
            run_phases(&b, &ph, 1, cases[i].arg, &off);
        }
        cr_assert(a.st == UL_OK || a.st == UL_ECAP, "%zu: %s", i, a.err);
        cr_assert(b.st == UL_OK || b.st == UL_ECAP, "%zu: %s", i, b.err);
        cr_assert(mpfr_lessequal_p(a.lo, b.hi) && mpfr_lessequal_p(b.lo, a.hi),
                  "case %zu: disjoint [%g, %g] and [%g, %g]", i, mpfr_get_d(a.lo, MPFR_RNDD),
                  mpfr_get_d(a.hi, MPFR_RNDU), mpfr_get_d(b.lo, MPFR_RNDD),
                  mpfr_get_d(b.hi, MPFR_RNDU));
        outcome_clear(&a);
        outcome_clear(&b);
    }
}

/* ε(δ) at small δ (the tilted ε query, §5) against the RDP bound of the
 * REMOVE pair: ε(δ) ≤ min_α T·R_α + log(1/δ)/(α − 1) (Mironov 2017 Prop. 3,
 * R_α from log_a_alpha above), so the proven lower end eps_lo must lie below
 * it; and the bracket must be finite and as narrow as asked. */
Test(pld, eps_query_at_small_delta_is_finite_and_below_rdp)
{
    struct {
        const char *sigma, *r, *q, *delta;
        unsigned long T;
    } cases[] = {{"1", "1", "0.01", "1e-30", 1000}, {"2", "0.5", "0.02", "1e-60", 1000}};
    mpfr_t la;
    mpfr_init2(la, 256);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double ld = log(strtod(cases[i].delta, NULL)), rdp = INFINITY;
        for (unsigned long a = 2; a <= 400; a++) {
            log_a_alpha(la, cases[i].r, cases[i].q, a);
            double R = (double)cases[i].T * mpfr_get_d(la, MPFR_RNDN) / (double)(a - 1);
            rdp = fmin(rdp, R - ld / (double)(a - 1));
        }
        ul_pld_phase ph = {cases[i].sigma, NULL, cases[i].q, cases[i].T};
        outcome o;
        outcome_init(&o);
        ul_pld_options opt = options(0, 1e-2, UL_PLD_FFT_AUTO, UL_PLD_REMOVE);
        run_eps(&o, &ph, 1, cases[i].delta, &opt);
        cr_log_info("delta %s: eps in [%.8g, %.8g], RDP %.8g, tilt %g", cases[i].delta,
                    mpfr_get_d(o.lo, MPFR_RNDD), mpfr_get_d(o.hi, MPFR_RNDU), rdp, o.rep.tilt);
        cr_assert_eq(o.st, UL_OK, "case %zu: %s", i, o.err);
        cr_assert(o.rep.tilt > 0, "case %zu: not tilted", i);
        cr_assert(mpfr_number_p(o.hi) && mpfr_sgn(o.lo) > 0, "case %zu", i);
        cr_assert(mpfr_get_d(o.lo, MPFR_RNDD) <= rdp, "case %zu: eps_lo above the RDP bound", i);
        outcome_clear(&o);
    }
    mpfr_clear(la);
}
