/* tests/test_d2d.c — Descent-to-Delete baselines (Chien et al. 2024, Thm
 * M.1 and M.2), against the formulas exactly as printed, evaluated here in
 * plain MPFR at 256 bits (with the square-root differences and γ^I/(1 − γ^I)
 * formed literally, unlike the library's cancellation-free rewrites), and
 * against Table 2 of arXiv:2401.10371v4 (App. L.4) where it is reproducible:
 * the ratios within a row. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bounds/d2d.h"

static void setup(void)
{
    ul_num_init();
}

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(d2d, .init = setup, .fini = teardown);

#define RB 256

static void ref(mpfr_ptr x, const char *text)
{
    cr_assert_eq(mpfr_set_str(x, text, 10, MPFR_RNDN), 0, "bad decimal '%s'", text);
}

static void assert_contains(mpfi_srcptr e, mpfr_srcptr r, int rel, const char *what)
{
    mpfr_t t, lo, hi;
    mpfr_inits2(RB + 64, t, lo, hi, (mpfr_ptr)0);
    mpfr_abs(t, r, MPFR_RNDN);
    mpfr_mul_2si(t, t, -rel, MPFR_RNDN);
    mpfr_sub(lo, &e->left, t, MPFR_RNDD);
    mpfr_add(hi, &e->right, t, MPFR_RNDU);
    cr_assert(mpfr_lessequal_p(lo, r) && mpfr_lessequal_p(r, hi),
              "%s: [%.20Rg, %.20Rg] misses %.20Rg", what, &e->left, &e->right, r);
    mpfr_clears(t, lo, hi, (mpfr_ptr)0);
}

/* ---- the oracle: (86), (87), (88) as printed ------------------------------------------- */

typedef struct {
    mpfr_t L, m, M, n, eps, delta, d, gam;
} oracle;

static void oracle_init(oracle *o, const ul_d2d_problem *pb)
{
    mpfr_inits2(RB, o->L, o->m, o->M, o->n, o->eps, o->delta, o->d, o->gam, (mpfr_ptr)0);
    ref(o->L, pb->L), ref(o->m, pb->m), ref(o->M, pb->M), ref(o->n, pb->n);
    ref(o->delta, pb->delta);
    ref(o->eps, pb->eps != NULL ? pb->eps : "1");
    ref(o->d, pb->d != NULL ? pb->d : "1");
    mpfr_t t;
    mpfr_init2(t, RB);
    mpfr_sub(o->gam, o->L, o->m, MPFR_RNDN);
    mpfr_add(t, o->L, o->m, MPFR_RNDN);
    mpfr_div(o->gam, o->gam, t, MPFR_RNDN); /* γ = (L − m)/(L + m) */
    mpfr_clear(t);
}

static void oracle_clear(oracle *o)
{
    mpfr_clears(o->L, o->m, o->M, o->n, o->eps, o->delta, o->d, o->gam, (mpfr_ptr)0);
}

/* c·M·γ^I / (m n (1 − γ^I)·gap) */
static void oracle_sigma_shape(mpfr_ptr out, const oracle *o, mpfr_srcptr c, mpfr_srcptr gap,
                               unsigned long I)
{
    mpfr_t g, t;
    mpfr_inits2(RB, g, t, (mpfr_ptr)0);
    mpfr_pow_ui(g, o->gam, I, MPFR_RNDN);
    mpfr_ui_sub(t, 1, g, MPFR_RNDN);
    mpfr_mul(t, t, o->m, MPFR_RNDN);
    mpfr_mul(t, t, o->n, MPFR_RNDN);
    mpfr_mul(t, t, gap, MPFR_RNDN);
    mpfr_mul(g, g, o->M, MPFR_RNDN);
    mpfr_mul(g, g, c, MPFR_RNDN);
    mpfr_div(out, g, t, MPFR_RNDN);
    mpfr_clears(g, t, (mpfr_ptr)0);
}

/* √(k1·x + a·ε) − √(k1·x + b·ε), x = log(c/δ) */
static void oracle_gap(mpfr_ptr out, const oracle *o, unsigned long c, unsigned long k1,
                       unsigned long a, unsigned long b)
{
    mpfr_t x, u, v;
    mpfr_inits2(RB, x, u, v, (mpfr_ptr)0);
    mpfr_ui_div(x, c, o->delta, MPFR_RNDN);
    mpfr_log(x, x, MPFR_RNDN);
    mpfr_mul_ui(x, x, k1, MPFR_RNDN);
    mpfr_mul_ui(u, o->eps, a, MPFR_RNDN);
    mpfr_add(u, u, x, MPFR_RNDN);
    mpfr_sqrt(u, u, MPFR_RNDN);
    mpfr_mul_ui(v, o->eps, b, MPFR_RNDN);
    mpfr_add(v, v, x, MPFR_RNDN);
    mpfr_sqrt(v, v, MPFR_RNDN);
    mpfr_sub(out, u, v, MPFR_RNDN);
    mpfr_clears(x, u, v, (mpfr_ptr)0);
}

static void oracle_m1(mpfr_ptr out, const oracle *o, unsigned long I)
{
    mpfr_t gap, c;
    mpfr_inits2(RB, gap, c, (mpfr_ptr)0);
    oracle_gap(gap, o, 1, 1, 1, 0);
    mpfr_set_ui(c, 2, MPFR_RNDN);
    mpfr_sqrt(c, c, MPFR_RNDN);
    mpfr_mul_ui(c, c, 4, MPFR_RNDN); /* 4√2 */
    oracle_sigma_shape(out, o, c, gap, I);
    mpfr_clears(gap, c, (mpfr_ptr)0);
}

static void oracle_m2(mpfr_ptr out, const oracle *o, unsigned long I)
{
    mpfr_t gap, c;
    mpfr_inits2(RB, gap, c, (mpfr_ptr)0);
    oracle_gap(gap, o, 2, 2, 3, 2);
    mpfr_set_ui(c, 8, MPFR_RNDN);
    oracle_sigma_shape(out, o, c, gap, I);
    mpfr_clears(gap, c, (mpfr_ptr)0);
}

/* (87): log(√(2d)/((1 − γ)·gap))/log(1/γ) */
static double oracle_m2_I(const oracle *o)
{
    mpfr_t gap, t, u;
    mpfr_inits2(RB, gap, t, u, (mpfr_ptr)0);
    oracle_gap(gap, o, 2, 2, 1, 0);
    mpfr_mul_2ui(t, o->d, 1, MPFR_RNDN);
    mpfr_sqrt(t, t, MPFR_RNDN);
    mpfr_ui_sub(u, 1, o->gam, MPFR_RNDN);
    mpfr_mul(u, u, gap, MPFR_RNDN);
    mpfr_div(t, t, u, MPFR_RNDN);
    mpfr_log(t, t, MPFR_RNDN);
    mpfr_ui_div(u, 1, o->gam, MPFR_RNDN);
    mpfr_log(u, u, MPFR_RNDN);
    mpfr_div(t, t, u, MPFR_RNDN);
    double r = mpfr_get_d(t, MPFR_RNDN);
    mpfr_clears(gap, t, u, (mpfr_ptr)0);
    return r;
}

/* log(log(4di/δ))/log(1/γ) */
static double oracle_request_extra(const oracle *o, unsigned long i)
{
    mpfr_t t, u;
    mpfr_inits2(RB, t, u, (mpfr_ptr)0);
    mpfr_mul_ui(t, o->d, 4 * i, MPFR_RNDN);
    mpfr_div(t, t, o->delta, MPFR_RNDN);
    mpfr_log(t, t, MPFR_RNDN);
    mpfr_log(t, t, MPFR_RNDN);
    mpfr_ui_div(u, 1, o->gam, MPFR_RNDN);
    mpfr_log(u, u, MPFR_RNDN);
    mpfr_div(t, t, u, MPFR_RNDN);
    double r = mpfr_get_d(t, MPFR_RNDN);
    mpfr_clears(t, u, (mpfr_ptr)0);
    return r;
}

/* ---- tests ----------------------------------------------------------------------------- */

static const ul_d2d_problem CIFAR = {"0.26", "0.01", "1", "10000", "1", "0.0001", "512", NULL, NULL};
static const ul_d2d_problem MNIST = {"0.261982", "0.011982", "1", "11982", "1",
                                     "0.00008345852111500584209647805040894675346352", "784",
                                     NULL, NULL};

Test(d2d, m1_and_m2_sigma_match_the_printed_formulas)
{
    /* L = 3, m = 1 (γ = 1/2), plus the paper's two settings */
    ul_d2d_problem hand = {"3", "1", "1", "10", "5", "0.0001", "8", NULL, NULL};
    const ul_d2d_problem *pbs[] = {&hand, &CIFAR, &MNIST};
    for (int k = 0; k < 3; k++)
        for (unsigned long I = 1; I <= 64; I *= 4) {
            ul_num_precision want = {25, 0, 0};
            ul_num_value v;
            ul_num_value_init(&v, 64);
            char err[256] = "";
            oracle o;
            oracle_init(&o, pbs[k]);
            mpfr_t r;
            mpfr_init2(r, RB);
            cr_assert_eq(ul_d2d_m1_sigma_certified(pbs[k], I, &want, &v, NULL, NULL, err,
                                                   sizeof err),
                         UL_OK, "%s", err);
            cr_assert(ul_num_value_narrow_enough(&v, 25));
            oracle_m1(r, &o, I);
            assert_contains(v.enclosure, r, 150, "M.1");
            unsigned long Imin;
            bool least;
            cr_assert_eq(ul_d2d_m2_least_I(pbs[k], &Imin, &least, err, sizeof err), UL_OK, "%s",
                         err);
            double ib = oracle_m2_I(&o);
            cr_assert(least);
            cr_assert_eq(Imin, ib < 1 ? 1UL : (unsigned long)ceil(ib), "I_min %lu vs %g", Imin,
                         ib);
            unsigned long I2 = I > Imin ? I : Imin;
            cr_assert_eq(ul_d2d_m2_sigma_certified(pbs[k], I2, &want, &v, NULL, NULL, err,
                                                   sizeof err),
                         UL_OK, "%s", err);
            oracle_m2(r, &o, I2);
            assert_contains(v.enclosure, r, 150, "M.2");
            mpfr_clear(r);
            oracle_clear(&o);
            ul_num_value_clear(&v);
        }
}

Test(d2d, hand_value_m1)
{
    /* L = 3, m = 1: γ = 1/2, γ/(1 − γ) = 1 at I = 1; M = 1, n = 10;
     * δ = 0.0001, ε = 5: σ = 4√2/(10·(√(log 1e4 + 5) − √(log 1e4))). */
    ul_d2d_problem pb = {"3", "1", "1", "10", "5", "0.0001", NULL, NULL, NULL};
    ul_num_precision want = {20, 0, 0};
    ul_num_value v;
    ul_num_value_init(&v, 64);
    char err[128] = "";
    cr_assert_eq(ul_d2d_m1_sigma_certified(&pb, 1, &want, &v, NULL, NULL, err, sizeof err), UL_OK,
                 "%s", err);
    double l = log(1e4), expect = 4 * sqrt(2.0) / (10 * (sqrt(l + 5) - sqrt(l)));
    double got = mpfr_get_d(&v.enclosure->left, MPFR_RNDN);
    cr_assert(fabs(got / expect - 1) < 1e-13, "%.17g vs %.17g", got, expect);
    ul_num_value_clear(&v);
}

Test(d2d, table2_ratios_within_a_row)
{
    /* Table 2 of arXiv:2401.10371v4 (App. L.4), D2D noise for Fig 3a by
     * Thm M.1.  The absolute values need an effective γ other than
     * (L − m)/(L + m) (docs/langevin.md, Errata L9: 0.8964 / 0.8841 instead of 0.9259 /
     * 0.9125), but within a row only the ε-factor of (86) changes, so the
     * ratios σ(ε)/σ(0.05) are reproducible.  They match to within 7e-4
     * relative (a little more than the 4 printed decimals explain: up to
     * 5e-4 is systematic, e.g. MNIST I = 1 is off by −4.8e-4 throughout, as
     * if its δ or ε differed slightly), except MNIST I = 2, ε = 0.1: 8.6229
     * where the row implies 8.667 (4.7e-3 off; a transposed digit, 8.6629,
     * would fit), checked separately. */
    static const char *EPS[6] = {"0.05", "0.1", "0.5", "1", "2", "5"};
    static const double T2[2][3][6] = {
        {{59.5184, 29.7994, 6.0233, 3.0504, 1.5626, 0.6663},
         {28.1340, 14.0859, 2.8472, 1.4419, 0.7386, 0.3149},
         {9.4523, 4.7325, 0.9565, 0.4844, 0.2481, 0.1058}},
        {{36.8573, 18.4620, 3.7310, 1.8890, 0.9673, 0.4120},
         {17.3030, 8.6229, 1.7507, 0.8864, 0.4538, 0.1933},
         {5.6774, 2.8424, 0.5744, 0.2908, 0.1489, 0.0634}},
    };
    static const unsigned long IS[3] = {1, 2, 5};
    for (int ds = 0; ds < 2; ds++) {
        ul_d2d_problem pb = ds == 0 ? CIFAR : MNIST;
        for (int row = 0; row < 3; row++) {
            double base = 0;
            for (int e = 0; e < 6; e++) {
                pb.eps = EPS[e];
                ul_num_precision want = {17, 0, 0};
                ul_num_value v;
                ul_num_value_init(&v, 64);
                char err[128] = "";
                cr_assert_eq(ul_d2d_m1_sigma_certified(&pb, IS[row], &want, &v, NULL, NULL, err,
                                                       sizeof err),
                             UL_OK, "%s", err);
                double s = mpfr_get_d(&v.enclosure->left, MPFR_RNDN);
                ul_num_value_clear(&v);
                if (e == 0) {
                    base = s;
                    continue;
                }
                double ratio = s / base, paper = T2[ds][row][e] / T2[ds][row][0];
                double dev = fabs(ratio / paper - 1);
                if (ds == 1 && row == 1 && e == 1)
                    cr_assert(dev > 4e-3 && dev < 5e-3, "the suspected misprint: %g", dev);
                else
                    cr_assert(dev <= 7e-4, "%s I=%lu eps=%s: %.6g vs %.6g",
                              ds == 0 ? "CIFAR" : "MNIST", IS[row], EPS[e], ratio, paper);
            }
        }
    }
    /* the absolute value with the stated γ is not the table's (erratum) */
    ul_d2d_problem pb = CIFAR;
    ul_num_precision want = {10, 0, 0};
    ul_num_value v;
    ul_num_value_init(&v, 64);
    char err[128] = "";
    cr_assert_eq(ul_d2d_m1_sigma_certified(&pb, 1, &want, &v, NULL, NULL, err, sizeof err), UL_OK);
    double s = mpfr_get_d(&v.enclosure->left, MPFR_RNDN);
    cr_assert(fabs(s / 3.0504 - 1) > 0.1, "unexpectedly reproduced: %g", s);
    ul_num_value_clear(&v);
}

Test(d2d, iteration_counts_match_the_oracle_and_fig3b_totals)
{
    /* Fig 3b: 100 sequential single-point deletions by Thm M.2 (ε = 1,
     * δ = 1/n); request i runs I + ⌈log(log(4di/δ))/log(1/γ)⌉ steps. */
    const ul_d2d_problem *pbs[] = {&CIFAR, &MNIST};
    for (int k = 0; k < 2; k++) {
        oracle o;
        oracle_init(&o, pbs[k]);
        unsigned long I, total, steps, sum = 0;
        bool least;
        char err[128] = "";
        cr_assert_eq(ul_d2d_m2_least_I(pbs[k], &I, &least, err, sizeof err), UL_OK, "%s", err);
        for (unsigned long i = 1; i <= 100; i++) {
            unsigned long expect = I + (unsigned long)ceil(oracle_request_extra(&o, i));
            cr_assert_eq(ul_d2d_m2_request_iterations(pbs[k], I, i, &steps, &least, err,
                                                      sizeof err),
                         UL_OK);
            cr_assert_eq(steps, expect, "request %lu", i);
            sum += expect;
        }
        cr_assert_eq(ul_d2d_m2_total_iterations(pbs[k], I, 100, &total, &least, err, sizeof err),
                     UL_OK);
        cr_assert_eq(total, sum);
        cr_assert(least);
        oracle_clear(&o);
    }
    /* learning T (Thm M.1): I + log(2Rmn/(2M))/log(1/γ); R = 10, CIFAR:
     * log(10·0.01·10000)/log(1/γ) = log(1000)/log(0.27/0.25) */
    ul_d2d_problem pb = CIFAR;
    pb.R = "10";
    unsigned long T;
    bool least;
    char err[128] = "";
    cr_assert_eq(ul_d2d_learning_iterations(&pb, 5, &T, &least, err, sizeof err), UL_OK, "%s",
                 err);
    cr_assert_eq(T, 5 + (unsigned long)ceil(log(1000.0) / log(0.27 / 0.25)));
    cr_assert(least);
}

Test(d2d, preconditions_named_and_gamma_zero)
{
    ul_num_precision want = {10, 0, 0};
    ul_num_value v;
    ul_num_value_init(&v, 64);
    char err[256] = "";
    ul_preconditions pre;
    /* m > L */
    ul_d2d_problem pb = {"0.01", "0.26", "1", "10000", "1", "0.0001", "512", NULL, NULL};
    cr_assert_eq(ul_d2d_m1_sigma_certified(&pb, 1, &want, &v, &pre, NULL, err, sizeof err),
                 UL_EINPUT);
    cr_assert(strncmp(err, "m:", 2) == 0 && strstr(err, "m_le_L"), "%s", err);
    /* I below (87) */
    pb = CIFAR;
    unsigned long Imin;
    bool least;
    cr_assert_eq(ul_d2d_m2_least_I(&pb, &Imin, &least, err, sizeof err), UL_OK);
    cr_assert_eq(ul_d2d_m2_sigma_certified(&pb, Imin - 1, &want, &v, &pre, NULL, err, sizeof err),
                 UL_EINPUT);
    cr_assert(strncmp(err, "I:", 2) == 0 && strstr(err, "I_ge_m2_bound"), "%s", err);
    cr_assert_eq(ul_d2d_m2_sigma_certified(&pb, Imin, &want, &v, &pre, NULL, err, sizeof err),
                 UL_OK, "%s", err);
    bool seen = false;
    for (int i = 0; i < pre.count; i++)
        if (strcmp(pre.items[i].name, "I_ge_m2_bound") == 0)
            seen = pre.items[i].state == UL_PRE_HOLDS;
    cr_assert(seen);
    /* learning T given: checked against its bound */
    pb.R = "10";
    pb.T = "1";
    cr_assert_eq(ul_d2d_m1_sigma_certified(&pb, 1, &want, &v, &pre, NULL, err, sizeof err),
                 UL_EINPUT);
    cr_assert(strncmp(err, "T:", 2) == 0 && strstr(err, "T_ge_learning_bound"), "%s", err);
    pb.T = "10000";
    cr_assert_eq(ul_d2d_m1_sigma_certified(&pb, 1, &want, &v, &pre, NULL, err, sizeof err), UL_OK,
                 "%s", err);
    /* m = L: γ = 0, σ = 0 and no extra steps (0.3 is not a binary fraction:
     * decided on the decimal text) */
    ul_d2d_problem q = {"0.3", "0.3", "1", "100", "1", "0.01", "10", NULL, NULL};
    cr_assert_eq(ul_d2d_m1_sigma_certified(&q, 1, &want, &v, NULL, NULL, err, sizeof err), UL_OK,
                 "%s", err);
    cr_assert(mpfr_zero_p(&v.enclosure->left) && mpfr_zero_p(&v.enclosure->right));
    unsigned long steps;
    cr_assert_eq(ul_d2d_m2_request_iterations(&q, 3, 7, &steps, &least, err, sizeof err), UL_OK);
    cr_assert_eq(steps, 3UL);
    cr_assert_eq(ul_d2d_m2_least_I(&q, &Imin, &least, err, sizeof err), UL_OK);
    cr_assert_eq(Imin, 1UL);
    ul_num_value_clear(&v);
}

Test(d2d, monotone_in_I_eps_and_n)
{
    ul_num_precision want = {12, 0, 0};
    ul_num_value v;
    ul_num_value_init(&v, 64);
    char err[128] = "";
    double prev = INFINITY;
    for (unsigned long I = 1; I <= 40; I += 3) {
        cr_assert_eq(ul_d2d_m1_sigma_certified(&CIFAR, I, &want, &v, NULL, NULL, err, sizeof err),
                     UL_OK);
        double s = mpfr_get_d(&v.enclosure->right, MPFR_RNDU);
        cr_assert_lt(s, prev);
        prev = s;
    }
    const char *eps[] = {"0.01", "0.1", "1", "10"};
    prev = INFINITY;
    unsigned long prevI = (unsigned long)-1;
    for (int e = 0; e < 4; e++) {
        ul_d2d_problem pb = MNIST;
        pb.eps = eps[e];
        cr_assert_eq(ul_d2d_m2_sigma_certified(&pb, 200, &want, &v, NULL, NULL, err, sizeof err),
                     UL_OK, "%s", err);
        double s = mpfr_get_d(&v.enclosure->right, MPFR_RNDU);
        cr_assert_lt(s, prev);
        prev = s;
        unsigned long I;
        bool least;
        cr_assert_eq(ul_d2d_m2_least_I(&pb, &I, &least, err, sizeof err), UL_OK);
        cr_assert_leq(I, prevI);
        prevI = I;
    }
    const char *ns[] = {"100", "1000", "100000"};
    prev = INFINITY;
    for (int k = 0; k < 3; k++) {
        ul_d2d_problem pb = CIFAR;
        pb.n = ns[k];
        cr_assert_eq(ul_d2d_m1_sigma_certified(&pb, 2, &want, &v, NULL, NULL, err, sizeof err),
                     UL_OK);
        double s = mpfr_get_d(&v.enclosure->right, MPFR_RNDU);
        cr_assert_lt(s, prev);
        prev = s;
    }
    ul_num_value_clear(&v);
}

Test(d2d, input_errors_name_the_flag)
{
    ul_num_precision want = {10, 0, 0};
    ul_num_value v;
    ul_num_value_init(&v, 64);
    char err[256];
    struct {
        ul_d2d_problem pb;
        const char *flag;
    } cases[] = {
        {{"0", "0.01", "1", "100", "1", "0.01", "10", NULL, NULL}, "L:"},
        {{"1", "0", "1", "100", "1", "0.01", "10", NULL, NULL}, "m:"},
        {{"1", "0.1", "-1", "100", "1", "0.01", "10", NULL, NULL}, "M:"},
        {{"1", "0.1", "1", "1.5", "1", "0.01", "10", NULL, NULL}, "n:"},
        {{"1", "0.1", "1", "100", "0", "0.01", "10", NULL, NULL}, "eps:"},
        {{"1", "0.1", "1", "100", "1", "1", "10", NULL, NULL}, "delta:"},
        {{"1", "0.1", "1", "100", "1", "0.01", "0", NULL, NULL}, "d:"},
        {{"1", "0.1", "1", "100", "1", "0.01", "2.5", NULL, NULL}, "d:"},
        {{"1", "0.1", "1", "100", "1", "0.01", "10", NULL, "5"}, "R:"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        err[0] = '\0';
        cr_assert_eq(ul_d2d_m2_sigma_certified(&cases[i].pb, 5, &want, &v, NULL, NULL, err,
                                               sizeof err),
                     UL_EINPUT, "case %zu", i);
        cr_assert(strncmp(err, cases[i].flag, strlen(cases[i].flag)) == 0, "case %zu: %s", i,
                  err);
    }
    cr_assert_eq(ul_d2d_m1_sigma_certified(&CIFAR, 0, &want, &v, NULL, NULL, err, sizeof err),
                 UL_EINPUT);
    cr_assert(strncmp(err, "I:", 2) == 0, "%s", err);
    ul_num_value_clear(&v);
}
