/* tests/test_num.c — the certified arithmetic core: exact decimal input,
 * directed decimal output, Q and log Q against the oracle on every path,
 * the adaptive driver and the threshold search. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "num/adaptive.h"
#include "num/encl.h"
#include "num/input.h"
#include "num/gauss_tail.h"
#include "num/threshold.h"
#include "oracle.h"

static void setup(void)
{
    ul_num_init();
}

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(num, .init = setup, .fini = teardown);

/* ---- exact decimal input -------------------------------------------------- */

Test(num, decimal_syntax)
{
    const char *good[] = {"0", "1", "-1", "+2.5", "0.1", ".5", "5.", "1e-400", "1E+3", "-0.0e0"};
    const char *bad[] = {"",    " 1",  "1 ",   "1.5x", "nan", "inf", "-inf", "0x10", "1e",
                         "e5",  ".",   "--1",  "1e+",  "1.2.3", "1,5", "NaN", "@nan@"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        cr_assert(ul_num_is_decimal(good[i]), "'%s' should be accepted", good[i]);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert(!ul_num_is_decimal(bad[i]), "'%s' should be rejected", bad[i]);
}

/* 10^k · x compared with an integer, exactly (mpz arithmetic on the binary
 * value of x), independent of mpfr_strtofr. */
static int cmp_scaled(mpfr_srcptr x, long k, long integer)
{
    mpz_t m, ten;
    mpz_inits(m, ten, NULL);
    mpfr_exp_t e = mpfr_get_z_2exp(m, x); /* x = m · 2^e exactly */
    mpz_ui_pow_ui(ten, 10, (unsigned long)labs(k));
    mpz_t lhs, rhs;
    mpz_inits(lhs, rhs, NULL);
    /* compare m·2^e·10^k with integer: move everything to integers */
    mpz_set(lhs, m);
    mpz_set_si(rhs, integer);
    if (k >= 0)
        mpz_mul(lhs, lhs, ten);
    else
        mpz_mul(rhs, rhs, ten);
    if (e >= 0)
        mpz_mul_2exp(lhs, lhs, (mp_bitcnt_t)e);
    else
        mpz_mul_2exp(rhs, rhs, (mp_bitcnt_t)-e);
    int c = mpz_cmp(lhs, rhs);
    mpz_clears(m, ten, lhs, rhs, NULL);
    return c;
}

Test(num, decimal_input_is_an_exact_enclosure)
{
    mpfi_t x;
    mpfi_init2(x, 64);
    /* 0.1 is not binary: lo < 1/10 < hi, one ulp apart */
    cr_assert_eq(ul_num_set_decimal(x, "0.1"), UL_OK);
    cr_assert_lt(cmp_scaled(&x->left, 1, 1), 0);
    cr_assert_gt(cmp_scaled(&x->right, 1, 1), 0);
    mpfr_t next;
    mpfr_init2(next, 64);
    mpfr_set(next, &x->left, MPFR_RNDN);
    mpfr_nextabove(next);
    cr_assert(mpfr_equal_p(next, &x->right), "0.1 enclosure should be one ulp wide");

    /* 1e-400 is far below double range: still enclosed exactly */
    cr_assert_eq(ul_num_set_decimal(x, "1e-400"), UL_OK);
    cr_assert_lt(cmp_scaled(&x->left, 400, 1), 0);
    cr_assert_gt(cmp_scaled(&x->right, 400, 1), 0);

    /* 0.1000000000000000000001 differs from 0.1 only past double precision */
    mpfi_set_prec(x, 200);
    cr_assert_eq(ul_num_set_decimal(x, "0.1000000000000000000001"), UL_OK);
    cr_assert_gt(cmp_scaled(&x->left, 1, 1), 0, "must be above 1/10, unlike the nearest double");

    /* representable numbers are exact points */
    cr_assert_eq(ul_num_set_decimal(x, "0.5"), UL_OK);
    cr_assert(mpfr_equal_p(&x->left, &x->right));
    cr_assert_eq(mpfr_cmp_d(&x->left, 0.5), 0);

    /* out of range and malformed */
    cr_assert_eq(ul_num_set_decimal(x, "1e99999999999999999999"), UL_EINPUT);
    cr_assert_eq(ul_num_set_decimal(x, "1e-99999999999999999999"), UL_EINPUT);
    cr_assert_eq(ul_num_set_decimal(x, "nan"), UL_EINPUT);
    mpfr_clear(next);
    mpfi_clear(x);
}

Test(num, decimal_compare_is_exact)
{
    int c = 9;
    cr_assert(ul_num_decimal_compare("0.99999999999999999999999999999999999", "1", &c));
    cr_assert_eq(c, -1);
    cr_assert(ul_num_decimal_compare("1.000", "1e0", &c));
    cr_assert_eq(c, 0);
    cr_assert(ul_num_decimal_compare("1e-100000", "0", &c));
    cr_assert_eq(c, 1);
    cr_assert(ul_num_decimal_compare("-1e9", "-1000000000.0000000000000000001", &c));
    cr_assert_eq(c, 1);
    cr_assert(!ul_num_decimal_compare("x", "1", &c));
}

/* ---- directed decimal output ---------------------------------------------- */

Test(num, format_rounds_outward)
{
    mpfi_t x;
    mpfi_init2(x, 64);
    cr_assert_eq(ul_num_set_decimal(x, "0.1"), UL_OK);
    char *lo = ul_num_format(&x->left, 17, MPFR_RNDD);
    char *hi = ul_num_format(&x->right, 17, MPFR_RNDU);
    /* lo is just below 1/10 and hi just above: rounding each outward to 17
     * digits must give these two neighbours of 0.1 */
    cr_assert_str_eq(lo, "9.9999999999999999e-2");
    cr_assert_str_eq(hi, "1.0000000000000001e-1");
    free(lo);
    free(hi);

    mpfi_set_si(x, -3);
    lo = ul_num_format(&x->left, 5, MPFR_RNDD);
    cr_assert_str_eq(lo, "-3.0000e+0");
    free(lo);
    mpfi_set_ui(x, 0);
    lo = ul_num_format(&x->left, 5, MPFR_RNDD);
    cr_assert_str_eq(lo, "0");
    free(lo);
    mpfi_clear(x);
}

Test(num, format_exp_matches_direct_format_and_reaches_huge_exponents)
{
    /* exp(L) printed through log10 must bracket the directly printed value */
    mpfr_t l, v;
    mpfr_inits2(128, l, v, (mpfr_ptr)0);
    mpfr_set_si(l, -1000, MPFR_RNDN); /* e^-1000 ≈ 5.0759588975494567652918e-435 */
    char *lo = ul_num_format_exp(l, 20, MPFR_RNDD);
    char *hi = ul_num_format_exp(l, 20, MPFR_RNDU);
    cr_assert_str_eq(lo, "5.0759588975494567652e-435");
    cr_assert_str_eq(hi, "5.0759588975494567653e-435");
    free(lo);
    free(hi);

    /* e^(−10^20): decimal exponent −43429448190325182766 (= floor(−10^20/ln 10)),
     * beyond a 64-bit long */
    mpfr_set_str(l, "-1e20", 10, MPFR_RNDN);
    lo = ul_num_format_exp(l, 5, MPFR_RNDD);
    cr_assert(strstr(lo, "e-43429448190325182766") != NULL, "%s", lo);
    free(lo);
    mpfr_set_inf(l, -1);
    lo = ul_num_format_exp(l, 5, MPFR_RNDD);
    cr_assert_str_eq(lo, "0");
    free(lo);
    mpfr_clears(l, v, (mpfr_ptr)0);
}

/* The decimal exponent of exp(L) has floor(log10(|L|/ln 10)) + 1 digits. */
static size_t exponent_digits(const char *s)
{
    const char *e = strchr(s, 'e');
    cr_assert_not_null(e, "%.60s", s);
    return strlen(e + 2);
}

Test(num, format_exp_prints_whole_exponents_up_to_1e1023_then_fixed_ends)
{
    mpfr_t l;
    mpfr_init2(l, 128);
    /* e^(−10^1000): 10^1000/ln 10 = 4.3429448190325182765…·10^999, so the
     * exponent is −4342944819032518276…, 1000 digits, printed whole. */
    mpfr_set_str(l, "-1e1000", 10, MPFR_RNDN);
    char *lo = ul_num_format_exp(l, 5, MPFR_RNDD);
    char *hi = ul_num_format_exp(l, 5, MPFR_RNDU);
    cr_assert(strstr(lo, "e-43429448190325182765") != NULL, "%.60s", lo);
    cr_assert_eq(exponent_digits(lo), 1000u);
    cr_assert_eq(exponent_digits(hi), 1000u);
    free(lo);
    free(hi);

    /* |L| = 2^3401: |log10 exp(L)| = 2^3401/ln 10 ≈ 1.03·10^1023 > 10^1023,
     * so 0 <= e^L <= 10^-(10^1023) and 10^(10^1023) <= e^-L <= inf. */
    mpfr_set_ui_2exp(l, 1, 3401, MPFR_RNDN);
    mpfr_neg(l, l, MPFR_RNDN);
    lo = ul_num_format_exp(l, 5, MPFR_RNDD);
    hi = ul_num_format_exp(l, 5, MPFR_RNDU);
    cr_assert_str_eq(lo, "0");
    cr_assert_eq(strncmp(hi, "1e-1", 4), 0, "%.40s", hi);
    cr_assert_eq(strlen(hi), 4 + 1023u);
    cr_assert_eq(strspn(hi + 4, "0"), 1023u);
    free(lo);
    free(hi);
    mpfr_neg(l, l, MPFR_RNDN);
    lo = ul_num_format_exp(l, 5, MPFR_RNDD);
    hi = ul_num_format_exp(l, 5, MPFR_RNDU);
    cr_assert_eq(strncmp(lo, "1e+1", 4), 0, "%.40s", lo);
    cr_assert_eq(strspn(lo + 4, "0"), 1023u);
    cr_assert_str_eq(hi, "inf");
    free(lo);
    free(hi);
    mpfr_clear(l);
}

/* ---- Q and log Q ------------------------------------------------------------ */

static void check_log_q(const char *x_text, ul_logq_method method, mpfr_prec_t prec)
{
    mpfi_t x, out;
    mpfi_init2(x, prec);
    mpfi_init2(out, prec);
    cr_assert_eq(ul_num_set_decimal(x, x_text), UL_OK);
    ul_num_log_q_by(out, x, method);

    mpfr_t xr, ref, tol, lo, hi;
    mpfr_inits2(ORACLE_BITS + 512, xr, ref, tol, lo, hi, (mpfr_ptr)0);
    mpfr_set_str(xr, x_text, 10, MPFR_RNDN);
    oracle_log_q(ref, xr);
    mpfi_get_left(lo, out);
    mpfi_get_right(hi, out);
    mpfr_abs(tol, ref, MPFR_RNDN);
    mpfr_mul_2si(tol, tol, -600, MPFR_RNDN);
    mpfr_sub(lo, lo, tol, MPFR_RNDD);
    mpfr_add(hi, hi, tol, MPFR_RNDU);
    cr_assert(mpfr_lessequal_p(lo, ref) && mpfr_lessequal_p(ref, hi),
              "log Q(%s) (method %d, %ld bits) misses the oracle", x_text, method, (long)prec);

    /* and is narrow: relative width below 2^-(prec-24) */
    mpfr_sub(tol, hi, lo, MPFR_RNDU);
    mpfr_abs(ref, ref, MPFR_RNDN);
    mpfr_div(tol, tol, ref, MPFR_RNDU);
    cr_assert(mpfr_cmp_ui_2exp(tol, 1, -(long)prec + 24) <= 0, "log Q(%s) too wide", x_text);
    mpfr_clears(xr, ref, tol, lo, hi, (mpfr_ptr)0);
    mpfi_clear(x);
    mpfi_clear(out);
}

Test(num, log_q_contains_oracle_everywhere)
{
    const char *xs[] = {"-40",   "-8.5", "-3",   "-1e-5", "0",    "1e-9",  "0.3",
                        "1",     "2.75", "5",    "9.99",  "12.3", "37.5",  "38.7",
                        "100",   "1e3",  "1e5",  "1e9",   "3e9",  "1e12",  "1e100"};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        check_log_q(xs[i], UL_LOGQ_AUTO, 64);
        check_log_q(xs[i], UL_LOGQ_AUTO, 300);
    }
}

Test(num, log_q_erfc_and_series_paths_agree_where_both_work)
{
    /* overlap: both paths must contain the oracle, at several precisions */
    const char *xs[] = {"30", "60", "200", "1e4"};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        check_log_q(xs[i], UL_LOGQ_ERFC, 64);
        check_log_q(xs[i], UL_LOGQ_ASYMPTOTIC, 64);
        check_log_q(xs[i], UL_LOGQ_ERFC, 200);
    }
    check_log_q("1e4", UL_LOGQ_ASYMPTOTIC, 400);
}

Test(num, q_is_decreasing_and_uses_the_lower_end_for_its_upper_bound)
{
    mpfi_t x, q, qlo, qhi;
    mpfi_init2(x, 64);
    mpfi_init2(q, 64);
    mpfi_init2(qlo, 64);
    mpfi_init2(qhi, 64);
    mpfi_interv_d(x, 1.0, 1.5);
    ul_num_q(q, x);
    mpfi_set_d(qlo, 1.0);
    ul_num_q(qlo, qlo);
    mpfi_set_d(qhi, 1.5);
    ul_num_q(qhi, qhi);
    /* Q([1, 1.5]) ⊇ [Q(1.5), Q(1)] */
    cr_assert(mpfr_greaterequal_p(&q->right, &qlo->left), "upper bound must cover Q(1)");
    cr_assert(mpfr_lessequal_p(&q->left, &qhi->right), "lower bound must cover Q(1.5)");
    /* Q(1) = 0.158655253931457051414767454367962077522087033273395609012605…
     * (A&S Table 26.1: Φ(1) = 0.8413447460685429) */
    cr_assert(mpfr_cmp_d(&qlo->left, 0.158655253931457) > 0);
    cr_assert(mpfr_cmp_d(&qlo->right, 0.158655253931458) < 0);
    mpfi_clear(x);
    mpfi_clear(q);
    mpfi_clear(qlo);
    mpfi_clear(qhi);
}

Test(num, q_in_the_far_tail_is_sound_not_zero_width)
{
    /* Q(1e10) = e^(−5e19)… is below the exponent range: the enclosure must be
     * [0, least positive], never a negative or NaN bound. */
    mpfi_t x, q;
    mpfi_init2(x, 64);
    mpfi_init2(q, 64);
    cr_assert_eq(ul_num_set_decimal(x, "1e10"), UL_OK);
    ul_num_q(q, x);
    cr_assert(mpfr_zero_p(&q->left));
    cr_assert(mpfr_sgn(&q->right) > 0);
    mpfi_clear(x);
    mpfi_clear(q);
}

/* ---- adaptive driver -------------------------------------------------------- */

/* Encloses 1/3 with 2^-(prec/2) slack: needs about 2·(digits·3.32) bits. */
static ul_status third_with_slack(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    int *calls = ctx;
    (*calls)++;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure);
    mpfi_set_ui(out->enclosure, 1);
    mpfi_div_ui(out->enclosure, out->enclosure, 3);
    mpfi_t slack;
    mpfi_init2(slack, p);
    mpfi_interv_si(slack, -1, 1);
    mpfi_mul_2si(slack, slack, -(long)(p / 2));
    mpfi_add(out->enclosure, out->enclosure, slack);
    mpfi_clear(slack);
    return UL_OK;
}

static ul_status never_narrow(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    mpfi_interv_si(out->enclosure, 1, 2);
    return UL_OK;
}

Test(num, adaptive_driver_doubles_until_narrow)
{
    int calls = 0;
    ul_num_precision want = {30, 0, 0};
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_num_report rep;
    cr_assert_eq(ul_num_adaptive_eval(third_with_slack, &calls, &want, &v, &rep, NULL, 0), UL_OK);
    cr_assert_geq(calls, 2, "one round cannot reach 30 digits with half the bits as slack");
    cr_assert(!rep.cap_hit);
    cr_assert(ul_num_value_narrow_enough(&v, 30));
    mpfr_t third;
    mpfr_init2(third, 400);
    mpfr_set_ui(third, 1, MPFR_RNDN);
    mpfr_div_ui(third, third, 3, MPFR_RNDN);
    cr_assert(mpfr_lessequal_p(&v.enclosure->left, third) &&
              mpfr_lessequal_p(third, &v.enclosure->right));
    mpfr_clear(third);
    ul_num_value_clear(&v);
}

Test(num, adaptive_driver_reports_the_cap)
{
    ul_num_precision want = {17, 0, 512};
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_num_report rep;
    char err[200] = "";
    cr_assert_eq(ul_num_adaptive_eval(never_narrow, NULL, &want, &v, &rep, err, sizeof err),
                 UL_ECAP);
    cr_assert(rep.cap_hit);
    cr_assert_eq(rep.bits_used, 512);
    cr_assert(strstr(err, "512") != NULL, "%s", err);
    ul_num_value_clear(&v);
}

/* ---- threshold search ------------------------------------------------------- */

/* x safe when x² < 2, decided with enclosures: the threshold is √2. */
static ul_side below_sqrt2(mpfr_srcptr x, mpfr_prec_t prec, void *ctx)
{
    (void)ctx;
    mpfi_t s;
    mpfi_init2(s, prec);
    mpfi_set_fr(s, x);
    mpfi_sqr(s, s);
    ul_side side = UL_SIDE_UNDECIDED;
    if (mpfr_cmp_ui(&s->right, 2) < 0)
        side = UL_SIDE_SAFE;
    else if (mpfr_cmp_ui(&s->left, 2) > 0)
        side = UL_SIDE_UNSAFE;
    mpfi_clear(s);
    return side;
}

/* x safe when x > 1e-300 (threshold far from 1: exercises the exponent search). */
static ul_side above_tiny(mpfr_srcptr x, mpfr_prec_t prec, void *ctx)
{
    (void)ctx;
    mpfi_t t;
    mpfi_init2(t, prec);
    cr_assert_eq(ul_num_set_decimal(t, "1e-300"), UL_OK);
    ul_side side = mpfr_greater_p(x, &t->right) ? UL_SIDE_SAFE
                   : mpfr_less_p(x, &t->left)   ? UL_SIDE_UNSAFE
                                                : UL_SIDE_UNDECIDED;
    mpfi_clear(t);
    return side;
}

Test(num, threshold_brackets_sqrt2_to_the_digits_asked)
{
    ul_num_precision want = {40, 0, 0};
    mpfr_t safe, unsafe, root;
    mpfr_inits2(64, safe, unsafe, (mpfr_ptr)0);
    mpfr_init2(root, 600);
    ul_num_report rep;
    cr_assert_eq(ul_num_bracket_threshold(below_sqrt2, NULL, false, &want, safe, unsafe, &rep,
                                          NULL, 0),
                 UL_OK);
    mpfr_sqrt_ui(root, 2, MPFR_RNDN);
    cr_assert(mpfr_less_p(safe, root) && mpfr_greater_p(unsafe, root));
    mpfr_sub(root, unsafe, safe, MPFR_RNDU);
    cr_assert(mpfr_cmp_d(root, 1e-39) < 0, "bracket wider than 40 digits");
    mpfr_clears(safe, unsafe, root, (mpfr_ptr)0);
}

Test(num, threshold_finds_a_far_threshold)
{
    ul_num_precision want = {17, 0, 0};
    mpfr_t safe, unsafe;
    mpfr_inits2(64, safe, unsafe, (mpfr_ptr)0);
    ul_num_report rep;
    cr_assert_eq(
        ul_num_bracket_threshold(above_tiny, NULL, true, &want, safe, unsafe, &rep, NULL, 0),
        UL_OK);
    mpfr_t t;
    mpfr_init2(t, 2000);
    mpfr_set_str(t, "1e-300", 10, MPFR_RNDN);
    cr_assert(mpfr_greater_p(safe, t) && mpfr_less_p(unsafe, t));
    mpfr_sub(t, safe, unsafe, MPFR_RNDU);
    mpfr_div(t, t, unsafe, MPFR_RNDU);
    cr_assert(mpfr_cmp_d(t, 1e-16) < 0, "bracket wider than 17 digits");
    mpfr_clear(t);
    mpfr_clears(safe, unsafe, (mpfr_ptr)0);
}

Test(num, decimal_compare_decides_equal_non_binary_decimals)
{
    int c = 9;
    cr_assert(ul_num_decimal_compare("0.001", "1e-3", &c));
    cr_assert_eq(c, 0);
    cr_assert(ul_num_decimal_compare("-0.10", "-1e-1", &c));
    cr_assert_eq(c, 0);
    cr_assert(ul_num_decimal_compare("0.1000000000000000000000000000000000000000000000000000000000000000000000000000001",
                                     "0.1", &c));
    cr_assert_eq(c, 1);
}

/* ---- infinite arguments of Q and log Q (issue 12 leftovers) ------------------------ */

/* Q(+inf) = 0 and Q(-inf) = 1 (the limits of the tail probability), and over
 * an interval with an infinite end Q covers the limit and the finite end's
 * value; Q(0) = 1/2 exactly (symmetry of N(0,1)). */
Test(num, q_at_infinite_ends_uses_the_limits)
{
    mpfi_t x, q;
    mpfi_init2(x, 64);
    mpfi_init2(q, 64);
    mpfr_t inf, ninf, zero;
    mpfr_inits2(64, inf, ninf, zero, (mpfr_ptr)0);
    mpfr_set_inf(inf, 1);
    mpfr_set_inf(ninf, -1);
    mpfr_set_zero(zero, 1);

    mpfi_interv_fr(x, inf, inf);
    ul_num_q(q, x);
    cr_assert(mpfr_zero_p(&q->left) && mpfr_zero_p(&q->right), "Q(+inf) = 0");
    mpfi_interv_fr(x, ninf, ninf);
    ul_num_q(q, x);
    cr_assert(mpfr_cmp_ui(&q->left, 1) == 0 && mpfr_cmp_ui(&q->right, 1) == 0, "Q(-inf) = 1");
    mpfi_interv_fr(x, zero, inf);
    ul_num_q(q, x);
    cr_assert(mpfr_zero_p(&q->left) && mpfr_cmp_d(&q->right, 0.5) >= 0 &&
                  mpfr_cmp_d(&q->right, 0.5000001) < 0,
              "Q([0, inf]) = [0, 1/2]");
    mpfi_interv_fr(x, ninf, zero);
    ul_num_q(q, x);
    cr_assert(mpfr_cmp_d(&q->left, 0.5) <= 0 && mpfr_cmp_d(&q->left, 0.4999999) > 0 &&
                  mpfr_cmp_ui(&q->right, 1) == 0,
              "Q([-inf, 0]) = [1/2, 1]");
    mpfi_interv_fr(x, ninf, inf);
    ul_num_q(q, x);
    cr_assert(mpfr_zero_p(&q->left) && mpfr_cmp_ui(&q->right, 1) == 0, "Q(R) = [0, 1]");
    /* a NaN argument gives the trivially sound [0, 1], never a NaN */
    mpfr_set_nan(&x->left);
    mpfr_set_nan(&x->right);
    ul_num_q(q, x);
    cr_assert(mpfr_zero_p(&q->left) && mpfr_cmp_ui(&q->right, 1) == 0, "Q(NaN) ⊆ [0, 1]");
    mpfr_clears(inf, ninf, zero, (mpfr_ptr)0);
    mpfi_clear(x);
    mpfi_clear(q);
}

/* ---- the limits of exact decimal input (num/input.h) ------------------------------- */

static void limit_refused(const char *text, const char *must, bool exact)
{
    char err[256] = "";
    ul_status st = exact ? ul_num_check_exact("$.x", text, err, sizeof err)
                         : ul_num_check_decimal("$.x", text, err, sizeof err);
    cr_assert_eq(st, UL_EINPUT, "'%.50s' accepted", text);
    cr_assert(strncmp(err, "$.x: ", 5) == 0 && strstr(err, must) != NULL,
              "'%.50s': message lacks '%s': %s", text, must, err);
}

Test(num, decimal_limits_are_exact_and_every_accepted_decimal_converts)
{
    /* the exact tier (10^±20000): the ends of its range written in several
     * ways, and 0 with any exponent; every one converts exactly (mpq) and
     * compares */
    const char *ok[] = {"1e-20000", "-1e-20000", "1e20000", "0.001e-19997", "100e-20002",
                        "9.999e19999", "0", "0e-99999999999999999999999", "-0.000", "1"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char err[256] = "";
        cr_assert_eq(ul_num_check_exact("$.x", ok[i], err, sizeof err), UL_OK, "%s: %s", ok[i],
                     err);
        mpq_t q;
        mpq_init(q);
        cr_assert_eq(ul_num_read_exact(q, "$.x", ok[i], err, sizeof err), UL_OK, "%s", err);
        mpq_clear(q);
        int c;
        cr_assert(ul_num_decimal_compare(ok[i], "1e-20000", &c), "%s", ok[i]);
        cr_assert(ul_num_decimal_compare(ok[i], "-1e20000", &c), "%s", ok[i]);
    }
    /* the magnitude is that of the value, not of the written exponent:
     * 0.001e-19997 = 1e-20000 exactly (checked as a rational) */
    mpq_t a, b;
    mpq_inits(a, b, (mpq_ptr)0);
    cr_assert(ul_num_decimal_to_mpq(a, "0.001e-19997"));
    mpz_ui_pow_ui(mpq_denref(b), 10, 20000);
    mpz_set_ui(mpq_numref(b), 1);
    cr_assert(mpq_equal(a, b));
    /* 992 significant digits at the smallest magnitude: m·10^-20991 */
    char big[1001];
    big[0] = '1';
    big[1] = '.';
    memset(big + 2, '7', 991);
    memcpy(big + 993, "e-20000", 8);
    cr_assert_eq(strlen(big), 1000);
    cr_assert(ul_num_decimal_to_mpq(a, big));
    mpq_clears(a, b, (mpq_ptr)0);

    limit_refused("1e-20001", "1e-20001 is below the smallest magnitude accepted for a number read "
                              "as an exact rational (1e-20000", true);
    limit_refused("0.0999999e-19999", "below the smallest magnitude", true);
    limit_refused("1.0000000001e20000", "above the largest magnitude accepted for a number read "
                                        "as an exact rational (1e20000)", true);
    limit_refused("10.1e19999", "above the largest", true); /* 10e19999 = 1e20000 passes */

    /* every decimal (10^±(10^18)): far beyond the exact tier, read by MPFR
     * as an enclosure, compared exactly */
    const char *wide[] = {"1e-20001", "3.59735604458606395439e-732425979003190",
                          "1e-1000000000000000000", "-1e1000000000000000000"};
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++) {
        char err[256] = "";
        cr_assert_eq(ul_num_check_decimal("$.x", wide[i], err, sizeof err), UL_OK, "%s", err);
        mpfi_t x;
        mpfi_init2(x, 64);
        cr_assert_eq(ul_num_set_decimal(x, wide[i]), UL_OK, "%s", wide[i]);
        cr_assert(!mpfr_zero_p(&x->left) && mpfr_number_p(&x->right), "%s", wide[i]);
        mpfi_clear(x);
        int c;
        cr_assert(ul_num_decimal_compare(wide[i], "0", &c) && c != 0, "%s", wide[i]);
    }
    limit_refused("1e-1000000000000000001", "is below the smallest magnitude accepted (1e-", false);
    limit_refused("-1e-99999999999999999999999", "below the smallest magnitude", false);
    limit_refused("1.0000000001e1000000000000000000", "above the largest magnitude accepted", false);
    limit_refused("-1e99999999999999999999999", "above the largest", false);
    limit_refused("nan", "must be finite", false);
    limit_refused("-Infinity", "must be finite", false);
    limit_refused("1,5", "must be a decimal number", false);
    limit_refused("\x1b[31m1", "got '?[31m1'", false); /* control bytes never echoed */
    char *huge = malloc(100001);
    memset(huge, '1', 100000);
    huge[100000] = '\0';
    limit_refused(huge, "decimal text of 100000 characters; the limit is 1000", false);
    free(huge);
}
