/* tests/test_gaussian.c — θ_{e^ε}(r), its inverses and the loose bound,
 * against the independent oracle (tests/oracle.c), published values from
 * docs/neural-unlearning.md, and mathematical properties. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/gaussian.h"
#include "num/gauss_tail.h"
#include "oracle.h"

static void setup(void)
{
    ul_num_init();
}

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(gaussian, .init = setup, .fini = teardown);

/* Deterministic pseudo-random numbers (splitmix64). */
static uint64_t rng_state = 0x2545F4914F6CDD1DULL;
static double uniform01(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

/* The natural-log bounds of a certified value (lo may be -inf). */
static void log_bounds(const ul_num_value *v, mpfr_ptr lo, mpfr_ptr hi)
{
    mpfi_get_left(lo, v->enclosure);
    mpfi_get_right(hi, v->enclosure);
    if (!v->is_log) {
        mpfr_log(lo, lo, MPFR_RNDD);
        mpfr_log(hi, hi, MPFR_RNDU);
    }
}

/* Asserts that the certified θ contains the oracle's and has the digits. */
static void check_theta(const char *eps, const char *r, int digits)
{
    ul_num_precision want = {digits, 0, 0};
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_num_report rep;
    char err[256] = "";
    ul_status st = ul_gauss_theta_certified(eps, r, &want, &v, &rep, err, sizeof err);
    cr_assert_eq(st, UL_OK, "theta(eps=%s, r=%s): status %d (%s)", eps, r, st, err);
    cr_assert(!rep.cap_hit);
    cr_assert(ul_num_value_narrow_enough(&v, digits), "theta(eps=%s, r=%s) too wide", eps, r);

    mpfr_t ref, lo, hi, tol;
    mpfr_inits2(ORACLE_BITS, ref, lo, hi, tol, (mpfr_ptr)0);
    oracle_log_theta_str(ref, eps, r);
    log_bounds(&v, lo, hi);
    /* the oracle's own error: far below 2^-600 relative */
    mpfr_abs(tol, ref, MPFR_RNDN);
    mpfr_mul_2si(tol, tol, -600, MPFR_RNDN);
    mpfr_add(hi, hi, tol, MPFR_RNDU);
    mpfr_sub(lo, lo, tol, MPFR_RNDD);
    if (!(mpfr_lessequal_p(lo, ref) && mpfr_lessequal_p(ref, hi))) {
        mpfr_fprintf(stderr, "eps=%s r=%s\n  ref log θ = %.40Re\n  lo = %.40Re\n  hi = %.40Re\n",
                     eps, r, ref, lo, hi);
        cr_assert_fail("theta(eps=%s, r=%s) does not contain the oracle", eps, r);
    }
    mpfr_clears(ref, lo, hi, tol, (mpfr_ptr)0);
    ul_num_value_clear(&v);
}

/* `count` random points, ε uniform on [−20, 50] and r log-uniform on
 * [1e-3, 50] (the ranges of the issue), each checked at `digits` digits. */
static void check_random_points(int count, int digits)
{
    char eps[64], r[64];
    for (int i = 0; i < count; i++) {
        double e = -20 + 70 * uniform01();
        double lr = log(1e-3) + (log(50) - log(1e-3)) * uniform01();
        snprintf(eps, sizeof eps, "%.9f", e);
        snprintf(r, sizeof r, "%.9e", exp(lr));
        check_theta(eps, r, digits);
    }
}

Test(gaussian, theta_random_points_contain_oracle)
{
    check_random_points(220, 17);
}

Test(gaussian, theta_random_points_fifty_digits)
{
    check_random_points(30, 50);
}

Test(gaussian, theta_hard_corners)
{
    /* r → 0 (cancellation between the two terms) */
    check_theta("1", "1e-8", 17);
    check_theta("0", "1e-12", 17);
    check_theta("-1", "1e-9", 17);
    check_theta("0.5", "1e-20", 17);
    /* ε in the hundreds */
    check_theta("300", "1", 17);
    check_theta("300", "20", 17);
    check_theta("-300", "20", 17);
    check_theta("700", "40", 17);
    check_theta("1000", "0.5", 17);
    /* δ below 10^-300: double precision returns 0 here */
    check_theta("50", "1", 17);   /* ≈ 1e-537 */
    check_theta("200", "2", 17);
    check_theta("37", "0.4", 17);
    /* large r: θ close to 1 */
    check_theta("1", "50", 17);
    check_theta("0", "60", 17);
    /* far beyond the exponent range: log-form output */
    check_theta("1e6", "1e-4", 17);
    check_theta("1e6", "1", 17);
}

/* Published values, docs/neural-unlearning.md, "Simplified Gaussian bound" (computed there at high
 * precision, 12 significant digits shown). */
Test(gaussian, theta_matches_spec_counterexamples)
{
    struct {
        const char *eps, *r, *value;
    } pts[] = {{"5", "3", "0.319391879906"}, {"10", "5", "0.616623730410"}};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        ul_num_precision want = {17, 0, 0};
        ul_num_value v;
        ul_num_value_init(&v, 64);
        ul_num_report rep;
        cr_assert_eq(ul_gauss_theta_certified(pts[i].eps, pts[i].r, &want, &v, &rep, NULL, 0),
                     UL_OK);
        double published = strtod(pts[i].value, NULL);
        double mid = exp(mpfr_get_d(&v.enclosure->left, MPFR_RNDN));
        cr_assert(fabs(mid - published) <= 1e-12, "eps=%s r=%s: %.15g vs %s", pts[i].eps,
                  pts[i].r, mid, pts[i].value);
        ul_num_value_clear(&v);
    }
}

/* ---- properties ---------------------------------------------------------- */

static void theta_at(ul_num_value *v, const char *eps, const char *r)
{
    ul_num_precision want = {17, 0, 0};
    ul_num_report rep;
    cr_assert_eq(ul_gauss_theta_certified(eps, r, &want, v, &rep, NULL, 0), UL_OK);
}

/* "certainly a > b" for two certified values */
static bool certainly_greater(const ul_num_value *a, const ul_num_value *b)
{
    mpfr_t alo, ahi, blo, bhi;
    mpfr_inits2(256, alo, ahi, blo, bhi, (mpfr_ptr)0);
    log_bounds(a, alo, ahi);
    log_bounds(b, blo, bhi);
    bool g = mpfr_greater_p(alo, bhi);
    mpfr_clears(alo, ahi, blo, bhi, (mpfr_ptr)0);
    return g;
}

Test(gaussian, theta_monotone_and_in_unit_interval)
{
    char e1[64], e2[64], r1[64], r2[64];
    for (int i = 0; i < 60; i++) {
        double e = -10 + 40 * uniform01(), r = 0.01 + 20 * uniform01();
        snprintf(e1, sizeof e1, "%.6f", e);
        snprintf(e2, sizeof e2, "%.6f", e + 0.5 * uniform01() + 1e-6);
        snprintf(r1, sizeof r1, "%.6f", r);
        snprintf(r2, sizeof r2, "%.6f", r + 0.5 * uniform01() + 1e-6);
        ul_num_value base, more_r, more_eps;
        ul_num_value_init(&base, 64);
        ul_num_value_init(&more_r, 64);
        ul_num_value_init(&more_eps, 64);
        theta_at(&base, e1, r1);
        theta_at(&more_r, e1, r2);
        theta_at(&more_eps, e2, r1);
        cr_assert(!certainly_greater(&base, &more_r), "θ decreased in r at eps=%s", e1);
        cr_assert(!certainly_greater(&more_eps, &base), "θ increased in ε at r=%s", r1);
        /* within [0, 1]: log θ ≤ 0 is possible to certify only up to width */
        mpfr_t lo, hi;
        mpfr_inits2(256, lo, hi, (mpfr_ptr)0);
        log_bounds(&base, lo, hi);
        cr_assert(mpfr_sgn(lo) <= 0, "θ certainly above 1 at eps=%s r=%s", e1, r1);
        mpfr_clears(lo, hi, (mpfr_ptr)0);
        ul_num_value_clear(&base);
        ul_num_value_clear(&more_r);
        ul_num_value_clear(&more_eps);
    }
}

Test(gaussian, theta_at_eps_zero_is_tv_distance)
{
    /* θ_1(r) = 1 − 2Q(r/2): the library uses erf for ε = 0; compare with Q
     * from the tail module (erfc), a different path. */
    const char *rs[] = {"1e-6", "0.01", "0.7", "3", "12.5", "40"};
    for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) {
        mpfi_t e, r, q, t;
        mpfi_init2(e, 200);
        mpfi_init2(r, 200);
        mpfi_init2(q, 200);
        mpfi_init2(t, 200);
        mpfi_set_ui(e, 0);
        cr_assert_eq(ul_num_set_decimal(r, rs[i]), UL_OK);
        mpfi_div_2ui(q, r, 1);
        ul_num_q(q, q);
        mpfi_mul_2ui(q, q, 1);
        mpfi_ui_sub(q, 1, q);
        ul_gauss_log_theta_enclose(t, e, r);
        mpfi_exp(t, t);
        mpfi_intersect(t, t, q);
        cr_assert(!mpfi_is_empty(t), "θ_1(%s) disagrees with 1 − 2Q(r/2)", rs[i]);
        mpfi_clear(e);
        mpfi_clear(r);
        mpfi_clear(q);
        mpfi_clear(t);
    }
}

Test(gaussian, theta_reciprocity)
{
    /* E_γ(P‖Q) = 1 − γ + γ E_{1/γ}(Q‖P): evaluate both sides with the
     * library, the right side from the ε > 0 branch, the left from the
     * certified entry for −ε, through different code (direct formula is
     * covered by the oracle tests). */
    const char *pairs[][3] = {{"-2", "2", "1"}, {"-0.3", "0.3", "0.05"}, {"-7", "7", "4"}};
    for (size_t i = 0; i < 3; i++) {
        ul_num_value neg, pos;
        ul_num_value_init(&neg, 64);
        ul_num_value_init(&pos, 64);
        theta_at(&neg, pairs[i][0], pairs[i][2]);
        theta_at(&pos, pairs[i][1], pairs[i][2]);
        mpfi_t g, rhs, lhs;
        mpfi_init2(g, 300);
        mpfi_init2(rhs, 300);
        mpfi_init2(lhs, 300);
        cr_assert_eq(ul_num_set_decimal(g, pairs[i][0]), UL_OK);
        mpfi_exp(g, g); /* γ = e^ε < 1 */
        mpfi_exp(rhs, pos.enclosure);
        mpfi_mul(rhs, rhs, g);
        mpfi_add_ui(rhs, rhs, 1);
        mpfi_sub(rhs, rhs, g);
        mpfi_exp(lhs, neg.enclosure);
        mpfi_intersect(lhs, lhs, rhs);
        cr_assert(!mpfi_is_empty(lhs), "reciprocity fails at eps=%s r=%s", pairs[i][0],
                  pairs[i][2]);
        mpfi_clear(g);
        mpfi_clear(rhs);
        mpfi_clear(lhs);
        ul_num_value_clear(&neg);
        ul_num_value_clear(&pos);
    }
}

Test(gaussian, theta_exact_special_points)
{
    ul_num_value v;
    ul_num_value_init(&v, 64);
    theta_at(&v, "3", "0");
    cr_assert(!v.is_log && mpfi_is_zero(v.enclosure), "θ_γ(0) must be exactly 0");
    theta_at(&v, "0", "0");
    cr_assert(!v.is_log && mpfi_is_zero(v.enclosure));
    /* ε < 0, r = 0: θ = 1 − e^ε */
    theta_at(&v, "-1", "0");
    mpfr_t lo, hi, want;
    mpfr_inits2(300, lo, hi, want, (mpfr_ptr)0);
    log_bounds(&v, lo, hi);
    mpfr_set_si(want, -1, MPFR_RNDN);
    mpfr_expm1(want, want, MPFR_RNDN);
    mpfr_neg(want, want, MPFR_RNDN);
    mpfr_log(want, want, MPFR_RNDN);
    cr_assert(mpfr_lessequal_p(lo, want) && mpfr_lessequal_p(want, hi));
    mpfr_clears(lo, hi, want, (mpfr_ptr)0);
    ul_num_value_clear(&v);
}

/* ---- inverses ------------------------------------------------------------ */

/* θ by the oracle at (eps, r) compared with δ: returns sign(θ − δ). */
static int oracle_theta_vs_delta(mpfr_srcptr eps, mpfr_srcptr r, const char *delta)
{
    mpfr_t lt, ld;
    mpfr_inits2(ORACLE_BITS, lt, ld, (mpfr_ptr)0);
    oracle_log_theta(lt, eps, r);
    mpfr_set_str(ld, delta, 10, MPFR_RNDN);
    mpfr_log(ld, ld, MPFR_RNDN);
    int c = mpfr_cmp(lt, ld);
    mpfr_clears(lt, ld, (mpfr_ptr)0);
    return c;
}

Test(gaussian, sigma_min_is_tight_and_safe)
{
    const char *cases[][3] = {{"1", "1e-5", "1"},     {"0.5", "1e-10", "2"}, {"8.5", "1e-5", "1"},
                              {"0", "0.01", "1"},     {"3", "1e-300", "0.1"}, {"20", "0.3", "5"},
                              {"0.01", "1e-6", "1"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ul_num_precision want = {17, 0, 0};
        mpfi_t sigma;
        mpfi_init2(sigma, 64);
        ul_num_report rep;
        char err[256] = "";
        ul_status st = ul_gauss_sigma_min(cases[i][0], cases[i][1], cases[i][2], &want, sigma,
                                          &rep, err, sizeof err);
        cr_assert_eq(st, UL_OK, "case %zu: %s", i, err);
        mpfr_t eps, s, r, hi;
        mpfr_inits2(ORACLE_BITS, eps, s, r, hi, (mpfr_ptr)0);
        mpfr_set_str(eps, cases[i][0], 10, MPFR_RNDN);
        mpfr_set_str(s, cases[i][2], 10, MPFR_RNDN);
        mpfi_get_right(hi, sigma);
        /* θ at the returned σ is ≤ δ ... */
        mpfr_div(r, s, hi, MPFR_RNDN);
        cr_assert(oracle_theta_vs_delta(eps, r, cases[i][1]) <= 0, "case %zu: unsafe σ", i);
        /* ... and a relative 1e-15 below it, θ > δ */
        mpfr_set_d(r, 1 - 1e-15, MPFR_RNDN);
        mpfr_mul(r, r, hi, MPFR_RNDN);
        mpfr_div(r, s, r, MPFR_RNDN);
        cr_assert(oracle_theta_vs_delta(eps, r, cases[i][1]) > 0, "case %zu: σ not tight", i);
        mpfr_clears(eps, s, r, hi, (mpfr_ptr)0);
        mpfi_clear(sigma);
    }
}

Test(gaussian, eps_min_is_tight_and_safe)
{
    const char *cases[][2] = {{"0.5", "1e-5"}, {"2", "1e-10"},   {"0.01", "1e-3"},
                              {"5", "1e-300"}, {"1e-4", "1e-5"}, {"30", "0.5"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ul_num_precision want = {17, 0, 0};
        mpfi_t eps;
        mpfi_init2(eps, 64);
        ul_num_report rep;
        char err[256] = "";
        cr_assert_eq(ul_gauss_eps_min(cases[i][0], cases[i][1], &want, eps, &rep, err, sizeof err),
                     UL_OK, "case %zu: %s", i, err);
        mpfr_t r, hi, e;
        mpfr_inits2(ORACLE_BITS, r, hi, e, (mpfr_ptr)0);
        mpfr_set_str(r, cases[i][0], 10, MPFR_RNDN);
        mpfi_get_right(hi, eps);
        cr_assert(mpfr_sgn(hi) > 0, "case %zu: expected a positive ε", i);
        cr_assert(oracle_theta_vs_delta(hi, r, cases[i][1]) <= 0, "case %zu: unsafe ε", i);
        mpfr_set_d(e, 1 - 1e-15, MPFR_RNDN);
        mpfr_mul(e, e, hi, MPFR_RNDN);
        cr_assert(oracle_theta_vs_delta(e, r, cases[i][1]) > 0, "case %zu: ε not tight", i);
        mpfr_clears(r, hi, e, (mpfr_ptr)0);
        mpfi_clear(eps);
    }
}

Test(gaussian, eps_min_is_zero_when_tv_already_small)
{
    /* θ_1(r) = erf(r/(2√2)) ≈ 0.3989·r for small r: r = 1e-6 gives ≈ 4e-7 ≤ 1e-5. */
    ul_num_precision want = {17, 0, 0};
    mpfi_t eps;
    mpfi_init2(eps, 64);
    ul_num_report rep;
    cr_assert_eq(ul_gauss_eps_min("1e-6", "1e-5", &want, eps, &rep, NULL, 0), UL_OK);
    cr_assert(mpfi_is_zero(eps));
    cr_assert_eq(ul_gauss_eps_min("0", "1e-5", &want, eps, &rep, NULL, 0), UL_OK);
    cr_assert(mpfi_is_zero(eps));
    mpfi_clear(eps);
}

Test(gaussian, inverse_input_errors_name_the_parameter)
{
    ul_num_precision want = {17, 0, 0};
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_num_report rep;
    char err[256];
    cr_assert_eq(ul_gauss_sigma_min("1", "1", "1", &want, x, &rep, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "delta") != NULL, "%s", err);
    cr_assert_eq(ul_gauss_sigma_min("-1", "0.1", "1", &want, x, &rep, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "eps") != NULL, "%s", err);
    cr_assert_eq(ul_gauss_sigma_min("1", "0.1", "0", &want, x, &rep, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "sensitivity") != NULL, "%s", err);
    cr_assert_eq(ul_gauss_eps_min("-0.5", "0.1", &want, x, &rep, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "r:") != NULL, "%s", err);
    mpfi_clear(x);
}

/* ---- the loose bound 1.25·exp(−ε²/(2r²)) ------------------------------------ */

/* The oracle's verdict: is 1.25·exp(−ε²/(2r²)) ≥ θ? */
static bool oracle_loose_valid(const char *eps, const char *r)
{
    mpfr_t lt, lb, e, rr;
    mpfr_inits2(ORACLE_BITS, lt, lb, e, rr, (mpfr_ptr)0);
    oracle_log_theta_str(lt, eps, r);
    mpfr_set_str(e, eps, 10, MPFR_RNDN);
    mpfr_set_str(rr, r, 10, MPFR_RNDN);
    mpfr_div(lb, e, rr, MPFR_RNDN);
    mpfr_sqr(lb, lb, MPFR_RNDN);
    mpfr_div_2ui(lb, lb, 1, MPFR_RNDN);
    mpfr_set_d(e, 1.25, MPFR_RNDN);
    mpfr_log(e, e, MPFR_RNDN);
    mpfr_sub(lb, e, lb, MPFR_RNDN);
    bool valid = mpfr_greaterequal_p(lb, lt);
    mpfr_clears(lt, lb, e, rr, (mpfr_ptr)0);
    return valid;
}

Test(gaussian, loose_bound_fails_at_spec_counterexamples)
{
    /* docs/neural-unlearning.md, "Simplified Gaussian bound": θ exceeds the bound at these points
     * */
    cr_assert_eq(ul_gauss_loose_bound_check("5", "3"), UL_LOOSE_INVALID);
    cr_assert_eq(ul_gauss_loose_bound_check("10", "5"), UL_LOOSE_INVALID);
    cr_assert_eq(ul_gauss_loose_bound_check("20", "3.55"), UL_LOOSE_INVALID);
}

Test(gaussian, loose_bound_verdicts_agree_with_oracle)
{
    /* Across ε ≤ 1 (inside Dwork–Roth's domain) it must hold; near the
     * switch ε* ≈ 3.78686, r ≈ 4.64 (docs/neural-unlearning.md, "Simplified Gaussian bound") it
     * flips. */
    const char *eps[] = {"0.1", "0.5", "1", "2", "3.5", "3.78", "3.8", "4", "6"};
    const char *rs[] = {"0.3", "1", "2", "3", "4.64", "6", "10"};
    int invalid_seen = 0;
    for (size_t i = 0; i < sizeof eps / sizeof eps[0]; i++) {
        for (size_t j = 0; j < sizeof rs / sizeof rs[0]; j++) {
            ul_loose_validity v = ul_gauss_loose_bound_check(eps[i], rs[j]);
            cr_assert_neq(v, UL_LOOSE_UNDECIDED);
            bool expect = oracle_loose_valid(eps[i], rs[j]);
            cr_assert_eq(v == UL_LOOSE_VALID, expect, "eps=%s r=%s", eps[i], rs[j]);
            if (strtod(eps[i], NULL) <= 1)
                cr_assert_eq(v, UL_LOOSE_VALID, "must hold for eps <= 1 (eps=%s r=%s)", eps[i],
                             rs[j]);
            invalid_seen += v == UL_LOOSE_INVALID;
        }
    }
    cr_assert(ul_gauss_loose_bound_check("3.78", "4.64") == UL_LOOSE_VALID);
    cr_assert(ul_gauss_loose_bound_check("3.79", "4.64") == UL_LOOSE_INVALID);
    cr_assert(invalid_seen > 0);
}

/* ---- composed mechanisms (gaussian_compose.c) --------------------------------------
 * By hand: releases (Δ, σ) = (1, 2) and (2, 4), each composed T = 3 times:
 * r² = 3·((1/2)² + (2/4)²) = 3/2 (Dong, Roth & Su 2022, Cor. 3.3), so the
 * Rényi divergence at α = 2 is α·r²/2 = 3/2 (Mironov 2017 Prop. 7). */
Test(gaussian, composition_of_listed_releases_by_hand)
{
    const char *sens[] = {"1", "2"}, *sig[] = {"2", "4"};
    ul_gauss_comp c;
    ul_gauss_comp_init(&c, sens, 2, false, sig, 2, 2, 3);
    cr_assert(c.have_s);
    mpfi_t r2;
    mpfi_init2(r2, 200);
    ul_gauss_comp_r2(r2, &c);
    cr_assert(mpfr_cmp_d(&r2->left, 1.5) == 0 && mpfr_cmp_d(&r2->right, 1.5) == 0);
    cr_assert(ul_gauss_comp_r_exceeds(&c, "1.2")); /* r = 1.2247... */
    cr_assert(!ul_gauss_comp_r_exceeds(&c, "1.3"));
    mpq_t a, claim;
    mpq_inits(a, claim, NULL);
    mpq_set_ui(a, 2, 1);
    mpq_set_ui(claim, 3, 2);
    cr_assert_eq(ul_gauss_comp_renyi_cmp(&c, a, claim, &(ul_num_precision){17, 0, 0}, r2), 0);
    mpq_set_ui(claim, 7, 5);
    cr_assert_eq(ul_gauss_comp_renyi_cmp(&c, a, claim, &(ul_num_precision){17, 0, 0}, r2), 1);
    mpq_clears(a, claim, NULL);
    mpfi_clear(r2);
    ul_gauss_comp_clear(&c);
}

/* Output perturbation: sensitivity 2·C0 with one σ: C0 = 0.5, σ = 4 gives
 * r = 2·0.5/4 = 1/4; with no σ (calibration) r is 2·C0 = 1. */
Test(gaussian, composition_doubled_sensitivity_one_sigma)
{
    const char *c0[] = {"0.5"}, *sig[] = {"4"};
    ul_gauss_comp c, d;
    ul_gauss_comp_init(&c, c0, 1, true, sig, 1, 1, 1);
    ul_gauss_comp_init(&d, c0, 1, true, NULL, 0, 1, 1);
    mpfi_t r;
    mpfi_init2(r, 100);
    ul_gauss_comp_r(r, &c);
    cr_assert(mpfr_cmp_d(&r->left, 0.25) == 0 && mpfr_cmp_d(&r->right, 0.25) == 0);
    ul_gauss_comp_r(r, &d);
    cr_assert(mpfr_cmp_d(&r->left, 1) == 0 && mpfr_cmp_d(&r->right, 1) == 0);
    mpfi_clear(r);
    ul_gauss_comp_clear(&c);
    ul_gauss_comp_clear(&d);
}

/* The smallest σ of a composition, by its defining property against the
 * independent θ of tests/oracle.c: releases Δ = (3, 4) under one σ, so
 * r = 5/σ (Dong, Roth & Su Cor. 3.3); at (ε, δ) = (1, 1e-5) the upper end
 * of σ* is safe (θ(5/σ_hi) ≤ δ) and the lower end unsafe (θ(5/σ_lo) > δ). */
Test(gaussian, composition_sigma_min_by_its_definition)
{
    const char *sens[] = {"3", "4"}, *sig[] = {"1"};
    ul_gauss_comp c;
    ul_gauss_comp_init(&c, sens, 2, false, sig, 1, 2, 1);
    mpfi_t s;
    mpfi_init2(s, 64);
    ul_num_report nr = {0, false};
    char err[256] = "";
    cr_assert_eq(ul_gauss_comp_sigma_min(&c, "1", "1e-5", NULL, false,
                                         &(ul_num_precision){30, 0, 0}, s, &nr, err, sizeof err),
                 UL_OK, "%s", err);
    mpfr_t eps, r, lt, ld;
    mpfr_inits2(ORACLE_BITS, eps, r, lt, ld, (mpfr_ptr)0);
    mpfr_set_ui(eps, 1, MPFR_RNDN);
    mpfr_set_str(ld, "1e-5", 10, MPFR_RNDN);
    mpfr_log(ld, ld, MPFR_RNDN);
    mpfr_ui_div(r, 5, &s->right, MPFR_RNDN);
    oracle_log_theta(lt, eps, r);
    cr_assert(mpfr_lessequal_p(lt, ld), "the safe end is not safe");
    mpfr_ui_div(r, 5, &s->left, MPFR_RNDN);
    oracle_log_theta(lt, eps, r);
    cr_assert(mpfr_greater_p(lt, ld), "the unsafe end is safe");
    mpfr_clears(eps, r, lt, ld, (mpfr_ptr)0);
    mpfi_clear(s);
    ul_gauss_comp_clear(&c);
}

/* θ of a composition against the independent θ of tests/oracle.c at the r of
 * Dong, Roth & Su Cor. 3.3: releases (Δ, σ) = (1, 2) and (2, 4), T = 3, give
 * r = √(3/2); at ε = 1/2. */
Test(gaussian, composition_theta_against_the_oracle)
{
    const char *sens[] = {"1", "2"}, *sig[] = {"2", "4"};
    ul_gauss_comp c;
    ul_gauss_comp_init(&c, sens, 2, false, sig, 2, 2, 3);
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_num_report nr = {0, false};
    char err[256] = "";
    cr_assert_eq(ul_gauss_comp_theta(&c, "0.5", &(ul_num_precision){30, 0, 0}, &v, &nr, err,
                                     sizeof err),
                 UL_OK, "%s", err);
    mpfr_t e, r, lt, lo, hi;
    mpfr_inits2(ORACLE_BITS, e, r, lt, lo, hi, (mpfr_ptr)0);
    mpfr_set_d(e, 0.5, MPFR_RNDN);
    mpfr_set_d(r, 1.5, MPFR_RNDN);
    mpfr_sqrt(r, r, MPFR_RNDN);
    oracle_log_theta(lt, e, r);
    mpfi_get_left(lo, v.enclosure);
    mpfi_get_right(hi, v.enclosure);
    if (!v.is_log) {
        mpfr_log(lo, lo, MPFR_RNDD);
        mpfr_log(hi, hi, MPFR_RNDU);
    }
    mpfr_t tol; /* the oracle's own error, far below 30 digits */
    mpfr_init2(tol, 64);
    mpfr_set_d(tol, 1e-40, MPFR_RNDN);
    mpfr_sub(lo, lo, tol, MPFR_RNDD);
    mpfr_add(hi, hi, tol, MPFR_RNDU);
    cr_assert(mpfr_lessequal_p(lo, lt) && mpfr_lessequal_p(lt, hi));
    cr_assert(fabs(ul_gauss_comp_sqrt_s_double(&c) - sqrt(1.5)) < 1e-15);
    mpfr_clears(e, r, lt, lo, hi, tol, (mpfr_ptr)0);
    ul_num_value_clear(&v);
    ul_gauss_comp_clear(&c);
}

/* The classic delta 1.25·exp(−ε²/(2r²)) (Dwork & Roth Thm A.1) at the
 * composition's r: Δ = 1 under σ = 2 twice (T = 2) gives r² = 2/4 = 1/2, so
 * at ε = 1/2 it is 1.25·e^(−1/4), by hand. */
Test(gaussian, composition_loose_delta_by_hand)
{
    const char *sens[] = {"1"}, *sig[] = {"2"};
    ul_gauss_comp c;
    ul_gauss_comp_init(&c, sens, 1, false, sig, 1, 1, 2);
    ul_num_value v;
    ul_num_value_init(&v, 80);
    ul_gauss_comp_loose_delta(&v, &c, "0.5");
    cr_assert(v.is_log);
    double want = log(1.25) - 0.25;
    cr_assert(mpfr_cmp_d(&v.enclosure->left, want + 1e-15) < 0 &&
              mpfr_cmp_d(&v.enclosure->right, want - 1e-15) > 0);
    ul_num_value_clear(&v);
    ul_gauss_comp_clear(&c);
}
