/* tests/bench/gauss_eps.h — the true ε at δ of the Gaussian pair N(μ, 1) vs
 * N(0, 1), for the power benchmarks (bench_power, bench_power_table): the
 * least ε with θ_{e^ε}(μ) ≤ δ (Balle & Wang 2018, Thm 8), certified by
 * ul_gauss_eps_min (what `ulaudit calc gauss-eps --r μ --delta δ` prints),
 * its lower end as a double.  Header-only: each C file of tests/bench is a
 * benchmark program of its own. */
#ifndef UL_BENCH_GAUSS_EPS_H
#define UL_BENCH_GAUSS_EPS_H

#include <math.h>
#include <stdio.h>

#include "bounds/gaussian.h"

static double bench_gauss_true_eps(double mu, const char *delta)
{
    char r[32], err[256];
    snprintf(r, sizeof r, "%.17g", mu);
    mpfi_t e;
    mpfi_init2(e, 64);
    ul_num_precision want = {6, 0, 0};
    ul_num_report rep;
    double v = NAN;
    if (ul_gauss_eps_min(r, delta, &want, e, &rep, err, sizeof err) == UL_OK)
        v = mpfr_get_d(&e->left, MPFR_RNDD);
    mpfi_clear(e);
    return v;
}

#endif
