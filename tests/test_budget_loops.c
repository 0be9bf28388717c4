/* tests/test_budget_loops.c — long loops of the library that must ask the
 * time budget (num/deadline.h) inside, not only between, their rounds.
 * No timed assertion: each test counts the asks through the loop's test hook
 * (ul_pld_set_late_hook), or makes the budget run out at a chosen ask, and
 * checks the behaviour — UL_ETIME with the trivial bracket — and, with no
 * budget, that the watched code computes what the unwatched one does. */
#include <criterion/criterion.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/pld.h"
#include "bounds/pld_fft.h"
#include "bounds/renyi.h"
#include "num/deadline.h"
#include "num/encl.h"
#include "num/threshold.h"

/* ---- a hook that counts the asks and says "late" from the k-th on ---- */

static unsigned long asks, late_from; /* late_from 0: never late */

static bool counting_hook(void)
{
    asks++;
    return late_from > 0 && asks >= late_from;
}

static void hook_start(unsigned long k)
{
    asks = 0;
    late_from = k;
    ul_pld_set_late_hook(counting_hook);
}

static void hook_stop(void)
{
    ul_pld_set_late_hook(NULL);
}

static void setup(void)
{
    ul_num_init();
    ul_deadline_clear();
}

static void teardown(void)
{
    hook_stop();
    ul_deadline_clear();
    ul_pld_fft_release();
    mpfr_free_cache();
}

TestSuite(budget_loops, .init = setup, .fini = teardown);

/* ---- PLD: the FFT ---- */

static void fill(double *re, double *im, size_t N)
{
    unsigned long s = 12345;
    for (size_t i = 0; i < N; i++) {
        s = s * 6364136223846793005UL + 1442695040888963407UL;
        re[i] = (double)(s >> 11) * 0x1p-53;
        im[i] = 0;
    }
}

/* With no budget the watched transform is the same transform, bit for bit
 * (the checks only split loops), and it asked at least once per 2^16
 * points: no more than about a million butterflies between two asks. */
Test(budget_loops, pld_fft_asks_inside_its_passes)
{
    size_t N = (size_t)1 << 21;
    double *ar = malloc(N * sizeof *ar), *ai = malloc(N * sizeof *ai);
    double *br = malloc(N * sizeof *br), *bi = malloc(N * sizeof *bi);
    cr_assert(ar && ai && br && bi);
    fill(ar, ai, N);
    fill(br, bi, N);
    ul_pld_fft_release(); /* the twiddle table is built inside the watched call */
    hook_start(0);
    cr_assert_eq(ul_pld_fft_d_watch(ar, ai, N, false, true), UL_PLD_FFT_DONE);
    unsigned long n_asks = asks;
    hook_stop();
    cr_assert(ul_pld_fft_d(br, bi, N, false));
    cr_assert(memcmp(ar, br, N * sizeof *ar) == 0 && memcmp(ai, bi, N * sizeof *ai) == 0,
              "the watched FFT differs from the plain one");
    cr_assert_geq(n_asks, N >> 16, "%lu asks for %zu points", n_asks, N);
    free(ar);
    free(ai);
    free(br);
    free(bi);
}

/* Late at the k-th ask: the transform stops there (no further ask) and says
 * so, in the twiddle table, the bit reversal and the butterflies alike. */
Test(budget_loops, pld_fft_stops_at_the_ask_that_is_late)
{
    size_t N = (size_t)1 << 21;
    long double *re = malloc(N * sizeof *re), *im = malloc(N * sizeof *im);
    cr_assert(re && im);
    unsigned long ks[] = {1, 2, 3, 4, 40, 60};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        for (size_t j = 0; j < N; j++)
            re[j] = (long double)(j % 7), im[j] = 0;
        ul_pld_fft_release();
        hook_start(ks[i]);
        cr_assert_eq(ul_pld_fft_l_watch(re, im, N, true, true), UL_PLD_FFT_LATE, "k = %lu",
                     ks[i]);
        cr_assert_eq(asks, ks[i], "late at ask %lu, but asked %lu times", ks[i], asks);
        hook_stop();
    }
    free(re);
    free(im);
}

/* ---- PLD: the rounds (discretisation, window, composition) ---- */

/* One run's outcome. */
typedef struct {
    ul_status st;
    mpfr_t lo, hi;
    char err[512];
} pld_out;

/* δ(ε = 1) (eps_query false) or ε(δ = 1e-5) of the phase q, σ = 1, 1000
 * steps, default options, into o (initialised on the first call). */
static void pld_run(pld_out *o, const char *q, bool eps_query, bool first)
{
    ul_pld_phase ph = {"1", NULL, q, 1000};
    ul_pld_options opt;
    ul_pld_options_default(&opt);
    if (first)
        mpfr_inits2(64, o->lo, o->hi, (mpfr_ptr)0);
    o->err[0] = '\0';
    o->st = eps_query ? ul_pld_epsilon(&ph, 1, "1e-5", &opt, o->lo, o->hi, NULL, o->err,
                                       sizeof o->err)
                      : ul_pld_delta(&ph, 1, "1", &opt, o->lo, o->hi, NULL, o->err,
                                     sizeof o->err);
}

/* Late at the first ask inside the first round: UL_ETIME with the trivial
 * bracket ([0, 1] for δ, [0, +∞] for ε; the rounds' own check at their
 * start is not the hook's), the message naming what was being done; late
 * at the very last ask of a whole run (in its last round, after others gave
 * a bracket): UL_ETIME too, never a partial bracket passed off as the
 * answer.  In both cases no ask follows the late one. */
static void times_out_inside_a_round(bool eps_query)
{
    pld_out o;
    hook_start(0);
    pld_run(&o, "0.01", eps_query, true);
    unsigned long total = asks;
    cr_assert(o.st == UL_OK || (eps_query && o.st == UL_ECAP), "%d %s", o.st, o.err);
    cr_assert_gt(total, 2, "the run asked %lu times", total);
    unsigned long ks[] = {1, total};
    for (size_t i = 0; i < 2; i++) {
        hook_start(ks[i]);
        pld_run(&o, "0.01", eps_query, false);
        cr_assert_eq(o.st, UL_ETIME, "late at ask %lu: status %d (%s)", ks[i], o.st, o.err);
        cr_assert_eq(asks, ks[i], "asked %lu times after the late one", asks - ks[i]);
        bool trivial = eps_query ? mpfr_inf_p(o.hi) : mpfr_cmp_ui(o.hi, 1) == 0;
        cr_assert(mpfr_zero_p(o.lo) && trivial, "not the trivial bracket");
        cr_assert(strstr(o.err, "privacy loss") != NULL, "message: %s", o.err);
    }
    hook_stop();
    mpfr_clears(o.lo, o.hi, (mpfr_ptr)0);
}

Test(budget_loops, pld_delta_times_out_inside_a_round)
{
    times_out_inside_a_round(false);
}

Test(budget_loops, pld_epsilon_times_out_inside_a_round)
{
    times_out_inside_a_round(true);
}

/* The case of the report: q = 1e-300 discretises 900,000 bins at 1100 bits
 * per round (minutes with no budget).  A budget of 0.01 s makes the call
 * return UL_ETIME; the bins ask the real deadline every PLD_CHECK_BINS. */
Test(budget_loops, pld_tiny_rate_stops_at_a_small_budget)
{
    pld_out o;
    ul_deadline_set(0.01);
    pld_run(&o, "1e-300", false, true);
    ul_deadline_clear();
    cr_assert_eq(o.st, UL_ETIME, "status %d (%s)", o.st, o.err);
    cr_assert(mpfr_zero_p(o.lo) && mpfr_cmp_ui(o.hi, 1) == 0);
    mpfr_clears(o.lo, o.hi, (mpfr_ptr)0);
}

/* ---- Rényi: the subsampled Gaussian's series (renyi.c) ---- */

/* ρ_α of the subsampled Gaussian at 3346 bits (1000 digits), α = 9999.5
 * (10^4 terms, then the alternating tail) and α = 10^4 (the integer sum):
 * about a minute of terms each.  A 0.01 s budget makes the series stop
 * with UL_ETIME (it asks every few terms), and ρ is left NaN. */
Test(budget_loops, sgm_rdp_series_stops_at_a_small_budget)
{
    const char *alphas[] = {"9999.5", "10000"};
    for (size_t i = 0; i < 2; i++) {
        mpfi_t rho, a, q, s;
        mpfi_init2(rho, 3346);
        mpfi_init2(a, 3346);
        mpfi_init2(q, 3346);
        mpfi_init2(s, 3346);
        mpfi_set_str(a, alphas[i], 10);
        mpfi_set_d(q, 0.5);
        mpfi_set_ui(s, 5);
        char err[256] = "";
        ul_deadline_set(0.01);
        ul_status st = ul_renyi_sgm_rdp(rho, a, q, s, err, sizeof err);
        ul_deadline_clear();
        cr_assert_eq(st, UL_ETIME, "alpha %s: status %d (%s)", alphas[i], st, err);
        cr_assert(mpfi_nan_p(rho), "alpha %s: a partial sum was returned", alphas[i]);
        cr_assert(strstr(err, "RDP series") != NULL, "message: %s", err);
        mpfi_clear(rho);
        mpfi_clear(a);
        mpfi_clear(q);
        mpfi_clear(s);
    }
}

/* With no budget the checks change nothing: at α = 2 the integer sum is
 * A_2 = 1 + q²(e^{1/σ²} − 1) in closed form ([MTZ] §3.3 with α = 2: the
 * only k ≥ 2 term is k = 2), so ρ_2 = log1p(q²·expm1(1/σ²)), computed here in
 * plain MPFR; and the same series with the budget set but far away gives
 * the same enclosure. */
Test(budget_loops, sgm_rdp_unchanged_without_a_budget)
{
    mpfi_t rho, rho2, a, q, s;
    mpfi_ptr all[] = {rho, rho2, a, q, s};
    for (size_t i = 0; i < 5; i++)
        mpfi_init2(all[i], 200);
    mpfi_set_ui(a, 2);
    mpfi_set_d(q, 0.25);
    mpfi_set_ui(s, 2);
    char err[256] = "";
    cr_assert_eq(ul_renyi_sgm_rdp(rho, a, q, s, err, sizeof err), UL_OK, "%s", err);
    ul_deadline_set(3600);
    cr_assert_eq(ul_renyi_sgm_rdp(rho2, a, q, s, err, sizeof err), UL_OK, "%s", err);
    ul_deadline_clear();
    cr_assert(mpfr_equal_p(&rho->left, &rho2->left) && mpfr_equal_p(&rho->right, &rho2->right));
    mpfr_t ref;
    mpfr_init2(ref, 400);
    mpfr_set_d(ref, 0.25, MPFR_RNDN); /* 1/σ² = 1/4, exact */
    mpfr_expm1(ref, ref, MPFR_RNDN);
    mpfr_mul_d(ref, ref, 0.0625, MPFR_RNDN); /* q² = 1/16 */
    mpfr_log1p(ref, ref, MPFR_RNDN);
    cr_assert(mpfi_is_inside_fr(ref, rho) > 0, "rho_2 misses log1p(q^2 expm1(1/sigma^2))");
    mpfr_clear(ref);
    for (size_t i = 0; i < 5; i++)
        mpfi_clear(all[i]);
}

/* ---- the threshold search (num/threshold.c): graded precision, and
 * "search in numbers, certify once" with an estimate ---- */

/* √2 as a threshold: x is safe when x² < 2 is certain (safe below). */
static ul_side below_sqrt2(mpfr_srcptr x, mpfr_prec_t p, void *ctx)
{
    (void)ctx;
    mpfi_t t;
    mpfi_init2(t, p);
    mpfi_set_fr(t, x);
    mpfi_sqr(t, t);
    ul_side side = mpfr_cmp_ui(&t->right, 2) < 0  ? UL_SIDE_SAFE
                   : mpfr_cmp_ui(&t->left, 2) > 0 ? UL_SIDE_UNSAFE
                                                  : UL_SIDE_UNDECIDED;
    mpfi_clear(t);
    return side;
}

static double shift; /* the estimate's error, relative: 0 for an honest one */
static bool fail_estimate;

/* x² − 2(1 + shift): negative on the safe side. */
static bool sqrt2_estimate(mpfr_ptr g, mpfr_srcptr x, mpfr_prec_t p, void *ctx)
{
    (void)ctx;
    (void)p;
    mpfr_sqr(g, x, MPFR_RNDN);
    mpfr_sub_ui(g, g, 2, MPFR_RNDN);
    mpfr_sub_d(g, g, 2 * shift, MPFR_RNDN);
    return !fail_estimate;
}

/* The bracket of √2 to `digits` digits by a plain bisection of [1, 2] (the
 * powers of two around √2, where the exponential search ends), each
 * midpoint decided exactly (mid² against 2 at twice its bits) and stopped
 * by the rule of threshold.h: |safe − unsafe| ≤ 10^(1−digits)/4·min. */
static void plain_bisection(mpfr_ptr safe, mpfr_ptr unsafe, int digits)
{
    mpfr_prec_t bits = 16 + (mpfr_prec_t)(3.33 * digits);
    mpfr_set_prec(safe, bits);
    mpfr_set_prec(unsafe, bits);
    mpfr_set_ui(safe, 1, MPFR_RNDN);
    mpfr_set_ui(unsafe, 2, MPFR_RNDN);
    mpfr_t mid, sq, lim;
    mpfr_inits2(2 * bits, mid, sq, lim, (mpfr_ptr)0);
    for (;;) {
        mpfr_sub(sq, unsafe, safe, MPFR_RNDN); /* exact */
        mpfr_set_si(lim, 1 - digits, MPFR_RNDN);
        mpfr_exp10(lim, lim, MPFR_RNDD);
        mpfr_div_2ui(lim, lim, 2, MPFR_RNDD);
        mpfr_mul(lim, lim, safe, MPFR_RNDD);
        if (mpfr_lessequal_p(sq, lim))
            break;
        mpfr_add(mid, safe, unsafe, MPFR_RNDN);
        mpfr_div_2ui(mid, mid, 1, MPFR_RNDN); /* exact at 2·bits */
        mpfr_sqr(sq, mid, MPFR_RNDN);         /* exact: mid has ≤ bits + 1 bits */
        mpfr_set(mpfr_cmp_ui(sq, 2) < 0 ? safe : unsafe, mid, MPFR_RNDN);
    }
    mpfr_clears(mid, sq, lim, (mpfr_ptr)0);
}

static ul_status sqrt2_bracket(ul_num_estimator est, int digits, mpfr_ptr safe, mpfr_ptr unsafe,
                               unsigned long *calls, unsigned long *bits)
{
    ul_num_precision want = {digits, 0, 0};
    ul_num_report rep;
    char err[256] = "";
    ul_status st = ul_num_bracket_threshold_est(below_sqrt2, est, NULL, false, &want, safe,
                                                unsafe, &rep, err, sizeof err);
    ul_num_threshold_counts(calls, bits);
    return st;
}

/* Without an estimate: the bracket of the plain bisection, one decision per
 * bit (digits·log2(10) of them), each tried at the bits the bracket calls
 * for, so on average well below the top precision (start bits). */
Test(budget_loops, threshold_graded_bisection_is_the_plain_one)
{
    int digits = 300;
    mpfr_t safe, unsafe, ref_s, ref_u;
    mpfr_inits2(64, safe, unsafe, ref_s, ref_u, (mpfr_ptr)0);
    unsigned long calls, bits;
    cr_assert_eq(sqrt2_bracket(NULL, digits, safe, unsafe, &calls, &bits), UL_OK);
    plain_bisection(ref_s, ref_u, digits);
    cr_assert(mpfr_equal_p(safe, ref_s) && mpfr_equal_p(unsafe, ref_u), "not the same bracket");
    ul_num_precision want = {digits, 0, 0};
    mpfr_prec_t top = ul_num_start_bits(&want, 0);
    cr_assert_geq(calls, (unsigned long)(3.3 * digits), "%lu decisions", calls);
    cr_assert_lt(bits, calls * (unsigned long)top * 3 / 4, "%lu bits over %lu decisions", bits,
                 calls);
    mpfr_clears(safe, unsafe, ref_s, ref_u, (mpfr_ptr)0);
}

/* With an honest estimate: the same bracket from a handful of
 * classifications (the exponential search's and the two ends'); with one
 * that is off (by 1e-30 relative: wrong at the last thousand bits) or that
 * fails, the ends are not both certified and the certified bisection gives
 * the same bracket again: never a bracket the classifier did not decide. */
Test(budget_loops, threshold_estimate_certifies_once)
{
    int digits = 300;
    mpfr_t safe, unsafe, ref_s, ref_u;
    mpfr_inits2(64, safe, unsafe, ref_s, ref_u, (mpfr_ptr)0);
    plain_bisection(ref_s, ref_u, digits);
    double shifts[] = {0, 1e-30, 0};
    bool fails[] = {false, false, true};
    for (int i = 0; i < 3; i++) {
        shift = shifts[i];
        fail_estimate = fails[i];
        unsigned long calls, bits;
        cr_assert_eq(sqrt2_bracket(sqrt2_estimate, digits, safe, unsafe, &calls, &bits), UL_OK);
        cr_assert(mpfr_equal_p(safe, ref_s) && mpfr_equal_p(unsafe, ref_u), "case %d", i);
        if (i == 0)
            cr_assert_leq(calls, 8, "%lu classifications with an honest estimate", calls);
        else
            cr_assert_geq(calls, (unsigned long)(3.3 * digits), "case %d: %lu", i, calls);
    }
    shift = 0;
    fail_estimate = false;
    mpfr_clears(safe, unsafe, ref_s, ref_u, (mpfr_ptr)0);
}
