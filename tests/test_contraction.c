/* tests/test_contraction.c — δ after T clipping + noise steps, against the
 * same recursions run in plain MPFR with the independent θ oracle. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/contraction.h"
#include "oracle.h"

static void setup(void)
{
    ul_num_init();
}

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(contraction, .init = setup, .fini = teardown);

/* log δ_T by the oracle: the recursion of docs/neural-unlearning.md, "Model clipping" in plain
 * MPFR at high precision (log θ from tests/oracle.c, no library code). */
static void oracle_log_delta(mpfr_ptr out, const char *eps, const char *const *r, size_t n_r,
                             unsigned long steps, const char *delta0, bool adaptive)
{
    mpfr_prec_t w = 4 * ORACLE_BITS;
    mpfr_t e, rr, l, et, lt, tmp;
    mpfr_inits2(w, e, rr, l, et, lt, tmp, (mpfr_ptr)0);
    mpfr_set_str(e, eps, 10, MPFR_RNDN);
    if (delta0 != NULL) {
        mpfr_set_str(l, delta0, 10, MPFR_RNDN);
        mpfr_log(l, l, MPFR_RNDN);
    } else {
        mpfr_set_zero(l, 1);
    }
    for (unsigned long t = 0; t < steps; t++) {
        mpfr_set_str(rr, r[n_r == 1 ? 0 : t], 10, MPFR_RNDN);
        if (adaptive) {
            /* ε̃ = log(1 + (e^ε − 1)/δ) */
            mpfr_expm1(tmp, e, MPFR_RNDN);
            mpfr_neg(et, l, MPFR_RNDN);
            mpfr_exp(et, et, MPFR_RNDN);
            mpfr_mul(et, et, tmp, MPFR_RNDN);
            mpfr_log1p(et, et, MPFR_RNDN);
        } else {
            mpfr_set(et, e, MPFR_RNDN);
        }
        oracle_log_theta(lt, et, rr);
        mpfr_add(l, l, lt, MPFR_RNDN);
    }
    mpfr_set(out, l, MPFR_RNDN);
    mpfr_clears(e, rr, l, et, lt, tmp, (mpfr_ptr)0);
}

static void certified(ul_num_value *v, const char *eps, const char *const *r, size_t n_r,
                      unsigned long steps, const char *delta0, ul_contraction_mode mode,
                      bool *floor)
{
    ul_contraction_problem pb = {eps, r, n_r, steps, delta0, mode};
    ul_num_precision want = {17, 0, 0};
    ul_num_report rep;
    char err[256] = "";
    ul_num_value_init(v, 64);
    ul_status st = ul_contraction_delta_certified(&pb, &want, v, floor, &rep, err, sizeof err);
    cr_assert_eq(st, UL_OK, "%s", err);
}

static void assert_contains(const ul_num_value *v, mpfr_srcptr log_ref, const char *what)
{
    cr_assert(v->is_log);
    mpfr_t tol, lo, hi;
    mpfr_inits2(mpfr_get_prec(log_ref), tol, lo, hi, (mpfr_ptr)0);
    mpfr_abs(tol, log_ref, MPFR_RNDN);
    mpfr_mul_2si(tol, tol, -500, MPFR_RNDN);
    mpfr_sub(lo, &v->enclosure->left, tol, MPFR_RNDD);
    mpfr_add(hi, &v->enclosure->right, tol, MPFR_RNDU);
    cr_assert(mpfr_lessequal_p(lo, log_ref) && mpfr_lessequal_p(log_ref, hi),
              "%s: enclosure misses the oracle", what);
    mpfr_clears(tol, lo, hi, (mpfr_ptr)0);
}

Test(contraction, product_constant_and_per_step_lists_match_the_oracle)
{
    const char *r1[] = {"0.8"};
    const char *rl[] = {"0.5", "2", "1.25", "3.9", "0.2"};
    ul_num_value v;
    bool floor;
    mpfr_t ref;
    mpfr_init2(ref, 4 * ORACLE_BITS);

    certified(&v, "1", r1, 1, 1000, "0.3", UL_CONTRACTION_PRODUCT, &floor);
    oracle_log_delta(ref, "1", r1, 1, 1000, "0.3", false);
    assert_contains(&v, ref, "product, constant r, T = 1000");
    cr_assert(!floor);
    ul_num_value_clear(&v);

    certified(&v, "2.5", rl, 5, 5, NULL, UL_CONTRACTION_PRODUCT, &floor);
    oracle_log_delta(ref, "2.5", rl, 5, 5, NULL, false);
    assert_contains(&v, ref, "product, list of r");
    ul_num_value_clear(&v);
    mpfr_clear(ref);
}

Test(contraction, adaptive_matches_the_oracle_recursion)
{
    const char *r1[] = {"1"};
    const char *rl[] = {"0.5", "2", "1.25"};
    ul_num_value v;
    bool floor;
    mpfr_t ref;
    mpfr_init2(ref, 4 * ORACLE_BITS);
    certified(&v, "1", r1, 1, 4, "0.5", UL_CONTRACTION_ADAPTIVE, &floor);
    oracle_log_delta(ref, "1", r1, 1, 4, "0.5", true);
    assert_contains(&v, ref, "adaptive, r = 1, 4 steps");
    ul_num_value_clear(&v);

    certified(&v, "0.5", rl, 3, 3, NULL, UL_CONTRACTION_ADAPTIVE, &floor);
    oracle_log_delta(ref, "0.5", rl, 3, 3, NULL, true);
    assert_contains(&v, ref, "adaptive, list of r");
    ul_num_value_clear(&v);
    mpfr_clear(ref);
}

Test(contraction, ten_adaptive_steps_reach_far_below_the_exponent_range)
{
    /* The example: ten steps at r = 2 from δ_0 = 0.1 reach about
     * 10^(−2.9·10^44); the enclosure must stay correct, its upper end
     * positive.  Checked against the oracle recursion. */
    const char *r[] = {"2"};
    ul_num_value v;
    bool floor;
    certified(&v, "1", r, 1, 10, "0.1", UL_CONTRACTION_ADAPTIVE, &floor);
    cr_assert(!floor);
    cr_assert(mpfr_number_p(&v.enclosure->right), "upper end must be a positive number");
    mpfr_t ref, l10;
    mpfr_init2(ref, 4 * ORACLE_BITS);
    mpfr_init2(l10, 64);
    oracle_log_delta(ref, "1", r, 1, 10, "0.1", true);
    assert_contains(&v, ref, "adaptive, r = 2, 10 steps");
    /* log10 δ_10 ≈ −2.9e44 */
    mpfr_set_ui(l10, 10, MPFR_RNDN);
    mpfr_log(l10, l10, MPFR_RNDN);
    mpfr_div(l10, &v.enclosure->right, l10, MPFR_RNDN);
    double d = mpfr_get_d(l10, MPFR_RNDN);
    cr_assert(d < -2.8e44 && d > -3.0e44, "log10 δ_10 = %g", d);
    mpfr_clears(ref, l10, (mpfr_ptr)0);
    ul_num_value_clear(&v);
}

Test(contraction, floor_bounds_later_steps_and_long_runs_finish)
{
    const char *r[] = {"2"};
    ul_num_value v;
    bool floor;
    certified(&v, "1", r, 1, 100000, "0.1", UL_CONTRACTION_ADAPTIVE, &floor);
    cr_assert(floor, "10^5 adaptive steps at r = 2 must reach the floor");
    cr_assert(mpfr_inf_p(&v.enclosure->left));
    /* upper end = log(10^(−10^100)) = −10^100·ln 10 (within rounding) */
    mpfr_t want;
    mpfr_init2(want, 512);
    mpfr_set_str(want, "1e100", 10, MPFR_RNDN);
    mpfr_t ln10;
    mpfr_init2(ln10, 512);
    mpfr_set_ui(ln10, 10, MPFR_RNDN);
    mpfr_log(ln10, ln10, MPFR_RNDN);
    mpfr_mul(want, want, ln10, MPFR_RNDN);
    mpfr_neg(want, want, MPFR_RNDN);
    mpfr_sub(want, &v.enclosure->right, want, MPFR_RNDN);
    mpfr_abs(want, want, MPFR_RNDN);
    cr_assert(mpfr_cmp_d(want, 1e-10) < 0);
    mpfr_clears(want, ln10, (mpfr_ptr)0);
    ul_num_value_clear(&v);
}

/* certainly a ≤ b fails only if a.lo > b.hi */
static bool certainly_above(const ul_num_value *a, const ul_num_value *b)
{
    return mpfr_greater_p(&a->enclosure->left, &b->enclosure->right);
}

Test(contraction, adaptive_never_above_product_and_equal_at_eps_zero)
{
    const char *rs[] = {"0.3", "1", "2.5"};
    const char *eps[] = {"0", "0.5", "2"};
    for (size_t i = 0; i < 3; i++) {
        for (size_t j = 0; j < 3; j++) {
            ul_num_value a, p;
            bool fa, fp;
            certified(&a, eps[j], &rs[i], 1, 6, "0.7", UL_CONTRACTION_ADAPTIVE, &fa);
            certified(&p, eps[j], &rs[i], 1, 6, "0.7", UL_CONTRACTION_PRODUCT, &fp);
            cr_assert(!certainly_above(&a, &p), "adaptive above product (eps=%s r=%s)", eps[j],
                      rs[i]);
            if (strcmp(eps[j], "0") == 0) {
                /* ε̃ = log(1 + 0) = 0 at every step: the two coincide */
                cr_assert(!certainly_above(&p, &a));
            }
            ul_num_value_clear(&a);
            ul_num_value_clear(&p);
        }
    }
}

Test(contraction, least_steps_is_least)
{
    const char *r[] = {"1.5"};
    for (int adaptive = 0; adaptive <= 1; adaptive++) {
        ul_contraction_problem pb = {"1", r, 1, 0, "0.5",
                                     adaptive ? UL_CONTRACTION_ADAPTIVE : UL_CONTRACTION_PRODUCT};
        unsigned long T = 0;
        ul_num_report rep;
        char err[256] = "";
        cr_assert_eq(ul_contraction_least_steps(&pb, "1e-6", 1000000, &T, &rep, err, sizeof err),
                     UL_OK, "%s", err);
        cr_assert_gt(T, 0);
        mpfr_t ref, ld;
        mpfr_inits2(4 * ORACLE_BITS, ref, ld, (mpfr_ptr)0);
        mpfr_set_str(ld, "1e-6", 10, MPFR_RNDN);
        mpfr_log(ld, ld, MPFR_RNDN);
        oracle_log_delta(ref, "1", r, 1, T, "0.5", adaptive);
        cr_assert(mpfr_lessequal_p(ref, ld), "δ_T above target (adaptive=%d, T=%lu)", adaptive, T);
        oracle_log_delta(ref, "1", r, 1, T - 1, "0.5", adaptive);
        cr_assert(mpfr_greater_p(ref, ld), "T−1 already enough (adaptive=%d)", adaptive);
        mpfr_clears(ref, ld, (mpfr_ptr)0);
    }
    /* δ_0 ≤ δ already: T = 0 */
    ul_contraction_problem pb0 = {"1", r, 1, 0, "1e-7", UL_CONTRACTION_PRODUCT};
    unsigned long T = 9;
    ul_num_report rep;
    cr_assert_eq(ul_contraction_least_steps(&pb0, "1e-6", 10, &T, &rep, NULL, 0), UL_OK);
    cr_assert_eq(T, 0);
}

Test(contraction, sigma_min_is_tight_and_safe)
{
    for (int adaptive = 0; adaptive <= 1; adaptive++) {
        ul_contraction_problem pb = {"1", NULL, 1, 8, NULL,
                                     adaptive ? UL_CONTRACTION_ADAPTIVE : UL_CONTRACTION_PRODUCT};
        ul_num_precision want = {17, 0, 0};
        mpfi_t sigma;
        mpfi_init2(sigma, 64);
        ul_num_report rep;
        char err[256] = "";
        cr_assert_eq(ul_contraction_sigma_min(&pb, "2", "1e-5", &want, sigma, &rep, err,
                                              sizeof err),
                     UL_OK, "%s", err);
        /* r = D/σ at the safe end, and at σ a relative 1e-12 smaller */
        char rtext[2][128];
        mpfr_t x;
        mpfr_init2(x, 200);
        mpfr_ui_div(x, 2, &sigma->right, MPFR_RNDU);
        mpfr_snprintf(rtext[0], sizeof rtext[0], "%.60Re", x);
        mpfr_set_d(x, 1 - 1e-12, MPFR_RNDN);
        mpfr_mul(x, x, &sigma->right, MPFR_RNDN);
        mpfr_ui_div(x, 2, x, MPFR_RNDN);
        mpfr_snprintf(rtext[1], sizeof rtext[1], "%.60Re", x);
        const char *safe_r[] = {rtext[0]}, *unsafe_r[] = {rtext[1]};
        mpfr_t ref, ld;
        mpfr_inits2(4 * ORACLE_BITS, ref, ld, (mpfr_ptr)0);
        mpfr_set_str(ld, "1e-5", 10, MPFR_RNDN);
        mpfr_log(ld, ld, MPFR_RNDN);
        oracle_log_delta(ref, "1", safe_r, 1, 8, NULL, adaptive);
        cr_assert(mpfr_lessequal_p(ref, ld), "σ_hi not safe (adaptive=%d)", adaptive);
        oracle_log_delta(ref, "1", unsafe_r, 1, 8, NULL, adaptive);
        cr_assert(mpfr_greater_p(ref, ld), "σ not tight (adaptive=%d)", adaptive);
        mpfr_clears(ref, ld, x, (mpfr_ptr)0);
        mpfi_clear(sigma);
    }
}

Test(contraction, bad_inputs_name_the_parameter)
{
    const char *r[] = {"1"}, *r2[] = {"1", "2"};
    ul_num_precision want = {17, 0, 0};
    ul_num_value v;
    ul_num_value_init(&v, 64);
    bool floor;
    ul_num_report rep;
    char err[256];
    struct {
        ul_contraction_problem pb;
        const char *name;
    } cases[] = {
        {{"-1", r, 1, 3, NULL, UL_CONTRACTION_PRODUCT}, "eps"},
        {{"1", r, 1, 3, "1.5", UL_CONTRACTION_PRODUCT}, "delta0"},
        {{"1", r, 1, 3, "0", UL_CONTRACTION_PRODUCT}, "delta0"},
        {{"1", r2, 2, 3, NULL, UL_CONTRACTION_PRODUCT}, "r"},
        {{"nan", r, 1, 3, NULL, UL_CONTRACTION_ADAPTIVE}, "eps"},
        {{"1", r, 1, UL_CONTRACTION_MAX_STEPS + 1, NULL, UL_CONTRACTION_PRODUCT}, "steps"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_assert_eq(
            ul_contraction_delta_certified(&cases[i].pb, &want, &v, &floor, &rep, err, sizeof err),
            UL_EINPUT, "case %zu", i);
        cr_assert(strncmp(err, cases[i].name, strlen(cases[i].name)) == 0, "case %zu: %s", i, err);
    }
    ul_num_value_clear(&v);
}

/* The least T of the product mode by an independent walk: log θ once from
 * the oracle (plain MPFR series, no library code) at 4·ORACLE_BITS, then
 * log δ_t = log δ_0 + t·log θ stepped by plain additions until it is at or
 * below log δ; max_steps + 1 when not reached by max_steps. */
static unsigned long oracle_least_steps(const char *eps, const char *r, const char *delta0,
                                        const char *delta, unsigned long max_steps)
{
    mpfr_prec_t w = 4 * ORACLE_BITS;
    mpfr_t e, rr, lt, l, ld;
    mpfr_inits2(w, e, rr, lt, l, ld, (mpfr_ptr)0);
    mpfr_set_str(e, eps, 10, MPFR_RNDN);
    mpfr_set_str(rr, r, 10, MPFR_RNDN);
    oracle_log_theta(lt, e, rr);
    mpfr_set_str(l, delta0 != NULL ? delta0 : "1", 10, MPFR_RNDN);
    mpfr_log(l, l, MPFR_RNDN);
    mpfr_set_str(ld, delta, 10, MPFR_RNDN);
    mpfr_log(ld, ld, MPFR_RNDN);
    unsigned long t = 0;
    while (mpfr_greater_p(l, ld) && t <= max_steps) {
        mpfr_add(l, l, lt, MPFR_RNDN);
        t++;
    }
    mpfr_clears(e, rr, lt, l, ld, (mpfr_ptr)0);
    return t;
}

/* The product mode finds T from a candidate in doubles certified at T − 1
 * and T (contraction.c, least_linear): over a sweep of ε, r, δ_0 and δ it
 * gives the least T of the independent walk, and UL_ENOROOT exactly when
 * the walk does not reach δ within max_steps. */
Test(contraction, least_steps_product_matches_a_plain_walk)
{
    const char *epss[] = {"0", "0.5", "1", "3"};
    const char *rs[] = {"0.3", "1", "1.5", "4"};
    const char *d0s[] = {NULL, "0.1"};
    const char *deltas[] = {"1e-3", "1e-8", "1e-20"};
    unsigned long max_steps = 400;
    for (size_t a = 0; a < 4; a++)
        for (size_t b = 0; b < 4; b++)
            for (size_t c = 0; c < 2; c++)
                for (size_t d = 0; d < 3; d++) {
                    const char *r[] = {rs[b]};
                    ul_contraction_problem pb = {epss[a], r, 1, 0, d0s[c],
                                                 UL_CONTRACTION_PRODUCT};
                    unsigned long T = 0, want =
                        oracle_least_steps(epss[a], rs[b], d0s[c], deltas[d], max_steps);
                    ul_num_report rep;
                    char err[256] = "";
                    ul_status st = ul_contraction_least_steps(&pb, deltas[d], max_steps, &T,
                                                              &rep, err, sizeof err);
                    if (want > max_steps) {
                        cr_assert_eq(st, UL_ENOROOT, "eps %s r %s d0 %s delta %s: %d %s",
                                     epss[a], rs[b], d0s[c] ? d0s[c] : "1", deltas[d], st, err);
                    } else {
                        cr_assert_eq(st, UL_OK, "%s", err);
                        cr_assert_eq(T, want, "eps %s r %s d0 %s delta %s: T %lu, walk %lu",
                                     epss[a], rs[b], d0s[c] ? d0s[c] : "1", deltas[d], T, want);
                    }
                }
}
