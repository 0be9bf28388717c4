/* tests/bench/bench_pld.c — the FFT accountant against the exact formula.
 *
 * What is measured.  The 1000-fold composition of the Gaussian mechanism
 * with r = 0.1, δ at ε = 1, by ul_pld_compose_gaussian with the automatic
 * grid asked for a bracket within 2e-6 relative ((hi − lo)/hi ≤ 2e-6): the
 * whole call (grid search rounds, certified single-step masses, window
 * choice and Chernoff certification, FFTs, δ sums and the error budget), wall
 * time (CLOCK_MONOTONIC), median of RUNS calls.  Then the same grid,
 * truncation and FFT precision as a single fixed-grid call, which isolates
 * the cost of the final round.
 *
 * The baseline.  A T-fold Gaussian composition is the Gaussian mechanism
 * with r·√T, here √10, so the exact δ is θ_{e^1}(√10): one
 * ul_gauss_theta_certified call at 17 digits (r passed as 100 significant
 * digits of √10, which moves θ by less than 1e-99), timed like
 * bench_theta (batches of at least BATCH_SECONDS, median of BATCHES).  It
 * runs in the same process, so the ratio PLD / exact is meaningful across
 * machines even when absolute times are not.  The bracket is also checked
 * against θ enclosed at the exact box √10 (ul_gauss_theta_enclose on an MPFI
 * square root).
 *
 * Timings never fail the run: the program exits 0 whatever the times, and 1
 * only when a computation fails or the bracket misses θ.
 */
#include <math.h>
#include <mpfr.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bounds/gaussian.h"
#include "bounds/pld.h"

#define RUNS 1              /* PLD calls timed (seconds each); the median is reported */
#define BATCH_SECONDS 0.020 /* each timed θ batch lasts at least this long */
#define BATCHES 15          /* θ time = median over this many batches */
#define TARGET_REL 2e-6 /* issue 14: relative width <= 2e-6 in <= 0.6 s */

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

static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- the PLD call -------------------------------------------------------------- */

typedef struct {
    ul_pld_options opt;
    mpfr_t lo, hi;
    ul_pld_report rep;
    ul_status st;
    char err[512];
} pld_run;

static double time_pld(pld_run *p)
{
    double start = now_seconds();
    p->st = ul_pld_compose_gaussian("0.1", 1000, "1", &p->opt, p->lo, p->hi, &p->rep, p->err,
                                    sizeof p->err);
    return now_seconds() - start;
}

/* ---- the exact formula -------------------------------------------------------------- */

typedef struct {
    char r[128];
    ul_num_precision want;
    ul_num_value value;
    ul_num_report report;
    char err[256];
} theta_ctx;

static bool theta_call(theta_ctx *c)
{
    return ul_gauss_theta_certified("1", c->r, &c->want, &c->value, &c->report, c->err,
                                    sizeof c->err) == UL_OK;
}

static bool time_theta(theta_ctx *c, double *per_call)
{
    if (!theta_call(c)) /* warm-up: MPFR caches π, log 2 */
        return false;
    long calls = 1;
    double elapsed;
    for (;;) {
        double start = now_seconds();
        for (long i = 0; i < calls; i++)
            if (!theta_call(c))
                return false;
        elapsed = now_seconds() - start;
        if (elapsed >= BATCH_SECONDS)
            break;
        calls *= 2;
    }
    double samples[BATCHES];
    for (int b = 0; b < BATCHES; b++) {
        double start = now_seconds();
        for (long i = 0; i < calls; i++)
            if (!theta_call(c))
                return false;
        samples[b] = (now_seconds() - start) / (double)calls;
    }
    *per_call = median_of(samples, BATCHES);
    return true;
}

int main(void)
{
    ul_num_init();
    double bench_start = now_seconds();
    int exit_code = 0;

    printf("bench_pld: 1000-fold Gaussian composition, r = 0.1, delta at eps = 1\n");
    printf("(FFT accountant, automatic grid for (hi - lo)/hi <= %g; radix-2 FFT of pld_fft.c; "
           "MPFR %s)\n\n",
           TARGET_REL, mpfr_get_version());

    /* the accountant, automatic grid */
    pld_run p;
    ul_pld_options_default(&p.opt);
    p.opt.rel_width = TARGET_REL;
    mpfr_inits2(64, p.lo, p.hi, (mpfr_ptr)0);
    double t_auto[RUNS];
    for (int i = 0; i < RUNS; i++) {
        t_auto[i] = time_pld(&p);
        if (p.st != UL_OK) {
            fprintf(stderr, "bench_pld: ul_pld_compose_gaussian: status %d: %s\n", p.st, p.err);
            exit_code = 1;
            break;
        }
    }
    double pld_s = exit_code == 0 ? median_of(t_auto, RUNS) : 0;

    /* the final round alone: the same grid, fixed */
    pld_run f;
    f.opt = p.opt;
    f.opt.grid_step = p.rep.grid_step;
    f.opt.tail_bound = p.rep.truncation;
    f.opt.fft = p.rep.fft_bits == 53 ? UL_PLD_FFT_DOUBLE : UL_PLD_FFT_LONG_DOUBLE;
    mpfr_inits2(64, f.lo, f.hi, (mpfr_ptr)0);
    double t_fixed[RUNS], fixed_s = 0;
    if (exit_code == 0) {
        for (int i = 0; i < RUNS; i++)
            t_fixed[i] = time_pld(&f);
        fixed_s = median_of(t_fixed, RUNS);
    }

    /* the exact formula */
    theta_ctx th = {.want = {17, 0, 0}};
    {
        mpfr_t s;
        mpfr_init2(s, 400);
        mpfr_sqrt_ui(s, 10, MPFR_RNDN);
        mpfr_snprintf(th.r, sizeof th.r, "%.99Re", s); /* 100 significant digits */
        mpfr_clear(s);
    }
    ul_num_value_init(&th.value, 64);
    double theta_s = 0;
    if (exit_code == 0 && !time_theta(&th, &theta_s)) {
        fprintf(stderr, "bench_pld: theta failed: %s\n", th.err);
        exit_code = 1;
    }

    if (exit_code == 0) {
        char *tlo, *thi;
        ul_num_value_format(&th.value, 17, &tlo, &thi);

        /* θ at the exact box √10, to check the bracket */
        mpfi_t e, r;
        mpfi_init2(e, 256);
        mpfi_init2(r, 256);
        mpfi_set_ui(e, 1);
        mpfi_set_ui(r, 10);
        mpfi_sqrt(r, r);
        ul_num_value exact;
        ul_num_value_init(&exact, 256);
        ul_gauss_theta_enclose(&exact, e, r);
        mpfr_t xlo, xhi;
        mpfr_inits2(256, xlo, xhi, (mpfr_ptr)0);
        mpfi_get_left(xlo, exact.enclosure);
        mpfi_get_right(xhi, exact.enclosure);
        if (exact.is_log) {
            mpfr_exp(xlo, xlo, MPFR_RNDD);
            mpfr_exp(xhi, xhi, MPFR_RNDU);
        }
        bool inside = mpfr_lessequal_p(p.lo, xlo) && mpfr_lessequal_p(xhi, p.hi);

        double lo = mpfr_get_d(p.lo, MPFR_RNDD), hi = mpfr_get_d(p.hi, MPFR_RNDU);
        printf("PLD accountant (automatic grid)\n");
        printf("  wall time          %.3f s (median of %d; %d grid rounds)\n", pld_s, RUNS,
               p.rep.rounds);
        printf("  final round alone  %.3f s (fixed grid)\n", fixed_s);
        printf("  grid step h        %.6g\n", p.rep.grid_step);
        printf("  FFT length N       %lu (2^%d), %d-bit arithmetic\n", p.rep.fft_length,
               (int)lround(log2((double)p.rep.fft_length)), p.rep.fft_bits);
        printf("  single-step grid   %lu points\n", p.rep.grid_points);
        mpfr_printf("  bracket            [%.17Re, %.17Re]\n", p.lo, p.hi);
        printf("  width              %.3e absolute, %.3e relative (target %g)\n", hi - lo,
               (hi - lo) / hi, TARGET_REL);
        printf("  budget             discretisation gap %.3e, tails %.3e, rounding %.3e\n",
               p.rep.discretisation_gap, p.rep.tail_mass, p.rep.rounding);
        printf("\nexact formula: theta_{e^1}(sqrt 10) by ul_gauss_theta_certified, 17 digits\n");
        printf("  [%s, %s]\n", tlo, thi);
        printf("  time               %.2f us per call (median of %d batches, %ld bits)\n",
               1e6 * theta_s, BATCHES, (long)th.report.bits_used);
        printf("\nbracket contains the exact value: %s\n", inside ? "yes" : "NO");
        printf("ratio PLD / exact formula: %.3g (final round alone: %.3g)\n", pld_s / theta_s,
               fixed_s / theta_s);
        if (!inside)
            exit_code = 1;
        free(tlo);
        free(thi);
        mpfr_clears(xlo, xhi, (mpfr_ptr)0);
        ul_num_value_clear(&exact);
        mpfi_clear(e);
        mpfi_clear(r);
    }
    printf("(bench time %.1f s)\n", now_seconds() - bench_start);

    ul_num_value_clear(&th.value);
    mpfr_clears(p.lo, p.hi, f.lo, f.hi, (mpfr_ptr)0);
    ul_num_shutdown();
    return exit_code;
}
