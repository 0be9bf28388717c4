/* tests/bench/bench_contraction.c — the adaptive contraction recursion over
 * 10^5 steps (issue 3 benchmark).
 *
 * Settings: δ_0 = 1 and r = D/σ large, so that δ_t decreases slowly.  At
 * r = 30 and 50 δ_t stays within 1e-6 of 1 for all 10^5 steps: ε̃_t does not
 * move at the working precision and θ is reused (the recursion caches θ
 * when (ε̃, r) repeats).  At r = 6 and 8 every step needs a fresh θ until δ
 * collapses to the floor after a few thousand steps.  Baseline, measured in
 * the same run: 10^5 plain enclosures of log θ_{e^ε}(r) at the same final
 * precision, i.e. what 10^5 steps would cost with a fresh θ each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bounds/contraction.h"
#include "bounds/gaussian.h"
#include "num/input.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void)
{
    ul_num_init();
    const unsigned long steps = 100000;
    const char *cases[][2] = {{"1", "30"}, {"0.5", "50"}, {"1", "6"}, {"0.1", "8"}};
    printf("bench_contraction: adaptive recursion, %lu steps, 17 digits\n", steps);
    printf("%-14s %8s %8s %12s %14s %8s  %s\n", "(eps, r)", "bits", "floor", "recursion s",
           "10^5 theta s", "ratio", "delta_T");
    int status = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *r[] = {cases[i][1]};
        ul_contraction_problem pb = {cases[i][0], r, 1, steps, NULL, UL_CONTRACTION_ADAPTIVE};
        ul_num_precision want = {17, 0, 0};
        ul_num_value v;
        ul_num_value_init(&v, 64);
        ul_num_report rep;
        bool floor;
        char err[256] = "";
        double t0 = now();
        ul_status st = ul_contraction_delta_certified(&pb, &want, &v, &floor, &rep, err, sizeof err);
        double t_rec = now() - t0;
        if (st != UL_OK) {
            fprintf(stderr, "bench_contraction: %s\n", err);
            status = 1;
        }
        /* baseline: the same number of θ enclosures at the final precision */
        mpfi_t e, rr, out;
        mpfi_init2(e, rep.bits_used);
        mpfi_init2(rr, rep.bits_used);
        mpfi_init2(out, rep.bits_used);
        ul_num_set_valid(e, cases[i][0]);
        ul_num_set_valid(rr, cases[i][1]);
        t0 = now();
        for (unsigned long k = 0; k < steps; k++)
            ul_gauss_log_theta_enclose(out, e, rr);
        double t_base = now() - t0;
        char *lo, *hi;
        ul_num_value_format(&v, 6, &lo, &hi);
        char label[32];
        snprintf(label, sizeof label, "(%s, %s)", cases[i][0], cases[i][1]);
        printf("%-14s %8ld %8s %12.2f %14.2f %8.2f  [%s, %s]\n", label, (long)rep.bits_used,
               floor ? "yes" : "no", t_rec, t_base, t_rec / t_base, lo, hi);
        free(lo);
        free(hi);
        mpfi_clear(e);
        mpfi_clear(rr);
        mpfi_clear(out);
        ul_num_value_clear(&v);
    }
    ul_num_shutdown();
    return status;
}
