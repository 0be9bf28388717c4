/* tests/bench/bench_pld_targets.c — the PLD engine on the cases of issue 14.
 *
 * Each row is one call of the phase API (ul_pld_delta, or ul_pld_epsilon for
 * the ε(δ) rows) with the automatic grid: wall time (CLOCK_MONOTONIC) and the
 * process's CPU time beside it (one call: these are second-long runs; the
 * targets are judged on wall time, and CPU time says what the call itself
 * cost on a loaded machine), its bracket, and what the issue asks of it:
 *   - Gaussian compositions (σ, Δ = 1, T steps, r = 1/σ): the exact δ is
 *     θ_{e^ε}(r√T), enclosed by the library's closed form
 *     (ul_gauss_theta_enclose, no PLD code) at the exact box r√T; the
 *     bracket must contain it and be at most the width asked;
 *   - Poisson-subsampled rows (add/remove adjacency, max of both
 *     directions): "decided" means the bracket lies on one side of the
 *     claimed δ (δ rows) or of the claimed ε (ε rows: [eps_lo, eps_hi]
 *     below the claim means the claim is proven, above it refuted).  σ is
 *     read exactly as decimal text (1.5 is exact).
 * The baseline, run in the same process: one certified θ evaluation
 * (ul_gauss_theta_certified, 17 digits), the unit of the "ratio" column.
 *
 * Last, the calibration of issue 14 (dpsgd.h, "search in doubles, certify
 * once"): Opacus's get_noise_multiplier case (ε = 8, δ = 1e-5, q = 0.04,
 * 2249 steps; accountants_test.py: RDP 1.416, PRV 1.34765625), the RDP σ
 * and then the PLD σ searched on the double estimate and certified once.
 *
 * Timings never fail the run: exit 1 only when a call fails or a bracket
 * misses the exact value.
 */
#include <math.h>
#include <mpfr.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bounds/dpsgd.h"
#include "bounds/gaussian.h"
#include "bounds/pld.h"
#include "bounds/pld_fft.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of this process: on a loaded machine, what the call itself cost. */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    const char *label;
    const char *sigma, *q; /* q NULL: plain Gaussian */
    unsigned long steps;
    const char *eps;       /* the query: δ(eps), or, when NULL, ε(delta) */
    const char *delta;
    double rel_width;      /* asked of the engine */
    double max_width;      /* absolute width target (0: none) */
    double max_seconds;    /* time target (0: none) */
    double claim;          /* the δ (δ rows) or ε (ε rows) to decide against (0: none) */
    double published;      /* a peer's published value, shown against the bracket (0: none) */
} row;

static const row ROWS[] = {
    {"r=0.1 T=1000 eps=1", "10", NULL, 1000, "1", NULL, 2e-6, 0, 0.6, 0, 0},
    {"r=0.01 T=1e4 eps=0.5", "100", NULL, 10000, "0.5", NULL, 4e-4, 1e-4, 0, 0, 0},
    {"r=0.01 T=1e6 eps=0.5", "100", NULL, 1000000, "0.5", NULL, 1e-4, 1e-4, 0, 0, 0},
    {"q=0.01 sigma=1 T=1000 eps=1", "1", "0.01", 1000, "1", NULL, 1e-3, 0, 2, 0, 0},
    /* DPBayes README (github.com/DPBayes/PLD-Accountant): delta ~ 4.2435e-6 */
    {"q=0.01 sigma=4 T=1e4 eps=1 (DPBayes)", "4", "0.01", 10000, "1", NULL, 0.1, 0, 5, 1e-5,
     4.2435e-6},
    /* Opacus PRV test vector: eps_up 6.7774 at delta = 1e-5 (issue 14) */
    {"q=0.04 sigma=1.5 T=2249 eps=6.7774 (Opacus)", "1.5", "0.04", 2249, "6.7774", NULL, 0.1, 0,
     5, 1e-5, 0},
    /* the same two rows as eps(delta) queries, the way a DP-SGD claim is stated */
    {"q=0.04 sigma=1.5 T=2249 delta=1e-5 -> eps (Opacus, PRV eps_up 6.7774)", "1.5", "0.04",
     2249, NULL, "1e-5", 1e-3, 0, 5, 6.7774, 6.7774},
    {"q=0.01 sigma=4 T=1e4 delta=4.2435e-6 -> eps (DPBayes, eps = 1)", "4", "0.01", 10000, NULL,
     "4.2435e-6", 1e-3, 0, 5, 0, 1},
};

/* θ_{e^ε}(r√T), r = 1/σ, enclosed at the exact box; false when σ or ε do
 * not parse. */
static bool exact_theta(const row *w, mpfr_ptr lo, mpfr_ptr hi)
{
    mpfi_t e, r;
    mpfi_init2(e, 256);
    mpfi_init2(r, 256);
    bool ok = mpfi_set_str(e, w->eps, 10) == 0 && mpfi_set_str(r, w->sigma, 10) == 0;
    mpfi_t t;
    mpfi_init2(t, 256);
    mpfi_set_ui(t, w->steps);
    mpfi_sqrt(t, t);
    mpfi_div(r, t, r); /* √T/σ */
    ul_num_value v;
    ul_num_value_init(&v, 256);
    if (ok) {
        ul_gauss_theta_enclose(&v, e, r);
        mpfi_get_left(lo, v.enclosure);
        mpfi_get_right(hi, v.enclosure);
        if (v.is_log) {
            mpfr_exp(lo, lo, MPFR_RNDD);
            mpfr_exp(hi, hi, MPFR_RNDU);
        }
    }
    ul_num_value_clear(&v);
    mpfi_clear(e);
    mpfi_clear(r);
    mpfi_clear(t);
    return ok;
}

static double theta_seconds(void)
{
    ul_num_precision want = {17, 0, 0};
    ul_num_value v;
    ul_num_report rep;
    char err[256];
    ul_num_value_init(&v, 64);
    ul_gauss_theta_certified("1", "3.16227766016837933199889354443271853372", &want, &v, &rep,
                             err, sizeof err); /* warm-up */
    long calls = 0;
    double start = now_seconds();
    while (now_seconds() - start < 0.1) {
        ul_gauss_theta_certified("1", "3.16227766016837933199889354443271853372", &want, &v,
                                 &rep, err, sizeof err);
        calls++;
    }
    double s = (now_seconds() - start) / (double)calls;
    ul_num_value_clear(&v);
    return s;
}

/* The decision and the published value against the bracket [l, h]. */
static void print_claim(const row *w, double l, double h)
{
    if (w->claim > 0) {
        const char *d;
        if (w->eps != NULL)
            d = h < w->claim ? "decided: delta < claim" : l > w->claim ? "decided: delta > claim"
                                                                       : "NOT decided";
        else
            d = h <= w->claim  ? "decided: proven (eps_hi <= claim)"
                : l > w->claim ? "decided: refuted (eps_lo > claim)"
                               : "NOT decided";
        printf("  claim     %s = %g: %s\n", w->eps != NULL ? "delta" : "eps", w->claim, d);
    }
    if (w->published > 0)
        printf("  published %s ~ %g: %s the bracket\n", w->eps != NULL ? "delta" : "eps",
               w->published,
               l <= w->published && w->published <= h ? "inside"
               : w->published > h                     ? "above"
                                                      : "below");
}

/* Runs one row, prints it; false when it fails or misses the exact value. */
static bool run_row(const row *w, double theta_s)
{
    ul_pld_options opt;
    ul_pld_options_default(&opt);
    opt.rel_width = w->rel_width;
    mpfr_t lo, hi, xlo, xhi;
    mpfr_inits2(128, lo, hi, xlo, xhi, (mpfr_ptr)0);
    ul_pld_report rep;
    char err[512] = "";
    ul_pld_phase ph = {w->sigma, NULL, w->q, w->steps};
    double t0 = now_seconds(), c0 = cpu_seconds();
    ul_status st = w->eps != NULL
                       ? ul_pld_delta(&ph, 1, w->eps, &opt, lo, hi, &rep, err, sizeof err)
                       : ul_pld_epsilon(&ph, 1, w->delta, &opt, lo, hi, &rep, err, sizeof err);
    double secs = now_seconds() - t0, cpu = cpu_seconds() - c0;
    bool ok = st == UL_OK || st == UL_ECAP;
    double l = mpfr_get_d(lo, MPFR_RNDD), h = mpfr_get_d(hi, MPFR_RNDU), width = h - l;
    printf("%s\n", w->label);
    if (!ok) {
        printf("  FAILED: status %d: %s\n\n", st, err);
        mpfr_clears(lo, hi, xlo, xhi, (mpfr_ptr)0);
        return false;
    }
    mpfr_printf("  %s   [%.12Re, %.12Re]%s\n", w->eps != NULL ? "delta" : "eps  ", lo, hi,
                st == UL_ECAP ? " (UL_ECAP)" : "");
    printf("  width     %.3e absolute, %.3e relative (asked %g)", width, width / h, w->rel_width);
    if (w->max_width > 0)
        printf("; target <= %g: %s", w->max_width, width <= w->max_width ? "met" : "MISSED");
    printf("\n  time      %.2f s wall (%.2f s CPU) = %.3g x theta", secs, cpu, secs / theta_s);
    if (w->max_seconds > 0)
        printf("; target <= %g s: %s", w->max_seconds, secs <= w->max_seconds ? "met" : "missed");
    printf("\n  grid      h = %.4g, N = 2^%d, %lu points per step, %d rounds, %d-bit FFT\n",
           rep.grid_step, (int)lround(log2((double)rep.fft_length)), rep.grid_points, rep.rounds,
           rep.fft_bits);
    if (w->q == NULL && w->eps != NULL && exact_theta(w, xlo, xhi)) {
        bool inside = mpfr_lessequal_p(lo, xlo) && mpfr_lessequal_p(xhi, hi);
        mpfr_printf("  exact     theta = %.12Re: %s\n", xlo, inside ? "inside" : "OUTSIDE");
        ok = ok && inside;
    }
    print_claim(w, l, h);
    printf("\n");
    mpfr_clears(lo, hi, xlo, xhi, (mpfr_ptr)0);
    return ok;
}

/* The calibration row: RDP σ, then the PLD σ from it; false on failure. */
static bool run_calibration(void)
{
    ul_dpsgd_phase ph = {"1", "0.04", 2249};
    ul_dpsgd_run run = {&ph, 1, NULL, UL_DPSGD_ADD_REMOVE};
    ul_num_precision want = {17, 0, 0};
    char *rdp = NULL, *pld = NULL, err[512] = "";
    double t0 = now_seconds(), c0 = cpu_seconds();
    ul_status st = ul_dpsgd_sigma_min(&run, "8", "1e-5", 12, &want, &rdp, err, sizeof err);
    double t1 = now_seconds(), c1 = cpu_seconds();
    if (st == UL_OK)
        st = ul_dpsgd_sigma_min_pld(&run, "8", "1e-5", strtod(rdp, NULL), 6, 0, &pld, err,
                                    sizeof err);
    double t2 = now_seconds(), c2 = cpu_seconds();
    ul_pld_phase_d pd = {1.34573, 1, 0.04, 2249};
    double e = ul_pld_epsilon_estimate_d(&pd, 1, 1e-5, 0), c3 = cpu_seconds();
    printf("calibration: Opacus get_noise_multiplier, eps 8, delta 1e-5, q 0.04, 2249 steps\n");
    if (st != UL_OK) {
        printf("  FAILED: %s\n\n", err);
        free(rdp);
        return false;
    }
    printf("  RDP       sigma %s in %.2f s wall (%.2f s CPU)   (Opacus rdp: 1.416)\n", rdp,
           t1 - t0, c1 - c0);
    printf("  PLD       sigma %s in %.2f s wall (%.2f s CPU)   (Opacus prv: 1.34765625)\n", pld,
           t2 - t1, c2 - c1);
    printf("  estimate  one eps(delta) in doubles: %.3f s CPU (eps %.8f at sigma 1.34573)\n\n",
           c3 - c2, e);
    free(rdp);
    free(pld);
    return true;
}

int main(void)
{
    ul_num_init();
    double start = now_seconds();
    double theta_s = theta_seconds();
    printf("bench_pld_targets: issue 14 cases (connect-the-dots PLD, radix-2 FFT with "
           "Higham's bound; MPFR %s)\n",
           mpfr_get_version());
    printf("baseline: one certified theta (17 digits) = %.1f us\n\n", 1e6 * theta_s);
    int code = 0;
    for (size_t i = 0; i < sizeof ROWS / sizeof ROWS[0]; i++)
        if (!run_row(&ROWS[i], theta_s))
            code = 1;
    if (!run_calibration())
        code = 1;
    printf("(bench time %.1f s)\n", now_seconds() - start);
    ul_pld_fft_release();
    ul_num_shutdown();
    return code;
}
