/* tests/bench/bench_theta.c — cost of the certified θ against its floor.
 *
 * What is measured.  For a fixed set of (ε, r) points covering the usual
 * regimes (small and large ε, small and large r, ε < 0, deep tails) and for
 * 17 and 50 correct digits, the median wall time (CLOCK_MONOTONIC) of one
 * call of ul_gauss_theta_certified: input checks, the adaptive precision
 * loop (every round it needed), the log Q enclosures and the interval
 * arithmetic that combines them.  Calls are timed in batches long enough
 * (≥ BATCH_SECONDS) to dwarf the clock's resolution; the per-call time is the
 * median over BATCHES batches, which shrugs off scheduler noise.
 *
 * Why the baseline is the floor.  θ_{e^ε}(r) = Q(a) − e^ε·Q(b) with
 * a = ε/r − r/2, b = ε/r + r/2 and Q(x) = ½·erfc(x/√2) (for ε < 0 the library
 * uses reciprocity and the same two tails at |ε|).  Any evaluation of that
 * formula to the precision the certified call ended at must produce both
 * tails at that precision, and a correctly rounded mpfr_erfc is the
 * cheapest trustworthy way MPFR offers to get one.  So two plain mpfr_erfc
 * calls at report.bits_used, on the exact arguments a/√2 and b/√2 (computed
 * once, outside the timing), are what an uncertified evaluation at the same
 * precision would pay at least; the ratio certified / baseline is the price
 * of certification (outward rounding, Lipschitz widening, log form, extra
 * precision rounds).  Baseline and certified call are measured in the same
 * run, on the same machine state, so the ratio is meaningful across
 * machines even when the absolute times are not.
 *
 * Timings never fail the run: the program exits 0 whatever the ratios, and
 * 1 only when an evaluation itself fails.
 */
#include <math.h>
#include <mpfr.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bounds/gaussian.h"
#include "num/encl.h"

#define BATCH_SECONDS 0.020 /* each timed batch lasts at least this long */
#define BATCHES 15          /* per-call time = median over this many batches */
#define TARGET_RATIO 3.0    /* the goal at TARGET_DIGITS */
#define TARGET_DIGITS 17

typedef struct {
    const char *eps, *r;
} bench_point;

static const bench_point bench_points[] = {
    {"0.5", "0.1"}, {"1", "0.5"},  {"1", "2"},  {"2", "1"},  {"5", "3"},   {"10", "5"},
    {"20", "3.55"}, {"0.1", "10"}, {"50", "1"}, {"3", "0.01"}, {"-2", "1"}, {"8", "4"},
};
#define N_POINTS (sizeof bench_points / sizeof bench_points[0])

static const int bench_digits[] = {17, 50};
#define N_DIGITS (sizeof bench_digits / sizeof bench_digits[0])

/* ---- timing ---------------------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_doubles(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* Median of v[0..n) (n ≥ 1); sorts v in place. */
static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One call of the code under measurement; false when it failed. */
typedef bool (*bench_body)(void *ctx);

/* Runs body `calls` times; false as soon as one call fails. */
static bool run_batch(bench_body body, void *ctx, long calls, double *seconds)
{
    double start = now_seconds();
    for (long i = 0; i < calls; i++)
        if (!body(ctx))
            return false;
    *seconds = now_seconds() - start;
    return true;
}

/* Median seconds per call of body: one warm-up call (MPFR caches constants
 * such as π and log 2 on first use), a batch size doubled until a batch lasts
 * BATCH_SECONDS, then BATCHES timed batches. */
static bool seconds_per_call(bench_body body, void *ctx, double *per_call)
{
    double elapsed;
    if (!run_batch(body, ctx, 1, &elapsed))
        return false;
    long calls = 1;
    for (;;) {
        if (!run_batch(body, ctx, calls, &elapsed))
            return false;
        if (elapsed >= BATCH_SECONDS)
            break;
        calls *= 2;
    }
    double samples[BATCHES];
    for (int i = 0; i < BATCHES; i++) {
        if (!run_batch(body, ctx, calls, &elapsed))
            return false;
        samples[i] = elapsed / (double)calls;
    }
    *per_call = median_of(samples, BATCHES);
    return true;
}

/* ---- the certified call ------------------------------------------------------ */

typedef struct {
    const char *eps, *r;
    ul_num_precision want;
    ul_num_value value;
    ul_num_report report;
    char err[256];
} certified_ctx;

static bool certified_call(void *ctx)
{
    certified_ctx *c = ctx;
    ul_status st = ul_gauss_theta_certified(c->eps, c->r, &c->want, &c->value, &c->report, c->err,
                                            sizeof c->err);
    return st == UL_OK;
}

/* ---- the baseline: two plain erfc calls --------------------------------------- */

typedef struct {
    mpfr_t result, ta, tb; /* ta = a/√2, tb = b/√2 */
} baseline_ctx;

static bool baseline_call(void *ctx)
{
    baseline_ctx *c = ctx;
    mpfr_erfc(c->result, c->ta, MPFR_RNDD);
    mpfr_erfc(c->result, c->tb, MPFR_RNDD);
    return true;
}

/* Sets up the baseline at prec bits: a = |ε|/r − r/2, b = |ε|/r + r/2, and
 * their quotients by √2.  Rounding here is immaterial: the point is the cost
 * of erfc near these arguments. */
static void baseline_init(baseline_ctx *c, const bench_point *pt, mpfr_prec_t prec)
{
    mpfr_inits2(prec, c->result, c->ta, c->tb, (mpfr_ptr)0);
    mpfr_t eps, r, half_r, sqrt2;
    mpfr_inits2(prec, eps, r, half_r, sqrt2, (mpfr_ptr)0);
    mpfr_set_str(eps, pt->eps, 10, MPFR_RNDN);
    mpfr_abs(eps, eps, MPFR_RNDN);
    mpfr_set_str(r, pt->r, 10, MPFR_RNDN);
    mpfr_div_2ui(half_r, r, 1, MPFR_RNDN);
    mpfr_sqrt_ui(sqrt2, 2, MPFR_RNDN);
    mpfr_div(eps, eps, r, MPFR_RNDN); /* ε/r */
    mpfr_sub(c->ta, eps, half_r, MPFR_RNDN);
    mpfr_add(c->tb, eps, half_r, MPFR_RNDN);
    mpfr_div(c->ta, c->ta, sqrt2, MPFR_RNDN);
    mpfr_div(c->tb, c->tb, sqrt2, MPFR_RNDN);
    mpfr_clears(eps, r, half_r, sqrt2, (mpfr_ptr)0);
}

static void baseline_clear(baseline_ctx *c)
{
    mpfr_clears(c->result, c->ta, c->tb, (mpfr_ptr)0);
}

/* ---- one point, one digits level --------------------------------------------- */

typedef struct {
    long bits_used;
    double certified_us, baseline_us, ratio;
} point_result;

static bool measure_point(const bench_point *pt, int digits, point_result *res)
{
    certified_ctx cert = {.eps = pt->eps, .r = pt->r, .want = {digits, 0, 0}};
    ul_num_value_init(&cert.value, 64);
    double certified_s = 0;
    bool ok = seconds_per_call(certified_call, &cert, &certified_s);
    ul_num_value_clear(&cert.value);
    if (!ok) {
        fprintf(stderr, "bench_theta: theta(eps=%s, r=%s) at %d digits failed: %s\n", pt->eps,
                pt->r, digits, cert.err);
        return false;
    }

    baseline_ctx base;
    baseline_init(&base, pt, cert.report.bits_used);
    double baseline_s = 0;
    seconds_per_call(baseline_call, &base, &baseline_s);
    baseline_clear(&base);

    res->bits_used = (long)cert.report.bits_used;
    res->certified_us = 1e6 * certified_s;
    res->baseline_us = 1e6 * baseline_s;
    res->ratio = certified_s / baseline_s;
    return true;
}

/* ---- report ------------------------------------------------------------------ */

static void print_summary(int digits, const point_result *results, size_t n, double *median_out)
{
    double ratios[N_POINTS];
    double log_sum = 0;
    for (size_t i = 0; i < n; i++) {
        ratios[i] = results[i].ratio;
        log_sum += log(results[i].ratio);
    }
    double med = median_of(ratios, n);
    double geo = exp(log_sum / (double)n);
    printf("%2d digits: median ratio %.2f, geometric mean ratio %.2f, range %.2f .. %.2f\n",
           digits, med, geo, ratios[0], ratios[n - 1]);
    *median_out = med;
}

int main(void)
{
    ul_num_init();
    double start = now_seconds();

    printf("bench_theta: ul_gauss_theta_certified vs two mpfr_erfc at the final precision\n");
    printf("(median of %d batches of >= %.0f ms each; MPFR %s)\n\n", BATCHES, 1e3 * BATCH_SECONDS,
           mpfr_get_version());
    printf("%-16s %6s %6s %14s %12s %8s\n", "point (eps, r)", "digits", "bits", "certified us",
           "2xerfc us", "ratio");

    point_result results[N_DIGITS][N_POINTS];
    int exit_code = 0;
    for (size_t d = 0; d < N_DIGITS && exit_code == 0; d++) {
        for (size_t i = 0; i < N_POINTS; i++) {
            const bench_point *pt = &bench_points[i];
            point_result *res = &results[d][i];
            if (!measure_point(pt, bench_digits[d], res)) {
                exit_code = 1;
                break;
            }
            char label[40];
            snprintf(label, sizeof label, "(%s, %s)", pt->eps, pt->r);
            printf("%-16s %6d %6ld %14.2f %12.2f %8.2f\n", label, bench_digits[d], res->bits_used,
                   res->certified_us, res->baseline_us, res->ratio);
            fflush(stdout);
        }
    }

    if (exit_code == 0) {
        printf("\n");
        double target_median = INFINITY;
        for (size_t d = 0; d < N_DIGITS; d++) {
            double med;
            print_summary(bench_digits[d], results[d], N_POINTS, &med);
            if (bench_digits[d] == TARGET_DIGITS)
                target_median = med;
        }
        printf("target: median ratio <= %g at %d digits: %s\n", TARGET_RATIO, TARGET_DIGITS,
               target_median <= TARGET_RATIO ? "MET" : "NOT MET");
        printf("(bench time %.1f s)\n", now_seconds() - start);
    }

    ul_num_shutdown();
    return exit_code;
}
