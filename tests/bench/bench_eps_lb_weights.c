/* tests/bench/bench_eps_lb_weights.c — the joint test of stats/eps_lb.h with
 * plain and with geometric (weighted) Bonferroni, against jax_privacy's
 * Clopper–Pearson bound on the same scores (jax_cp_d), on the
 * Gaussian released models of issue 15: IN ~ N(μ, 1), OUT ~ N(0, 1), n
 * runs per world, δ = 1e-5, α = 0.05, means over D draws (the draws of
 * bench_power: seeds 1000 + s), one markdown table row per μ.  Target
 * (issue 15): ≥ 1.15× jax CP at μ = 2, n = 4096.
 *
 *   build/bench/bench_eps_lb_weights [n [draws]]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "jax_cp.h"
#include "stats/eps_lb.h"
#include "emp/rng.h"
#include "num/encl.h"

#define N_METHODS 9
static const char *names[N_METHODS] = {
    "jax CP (baseline)",       "joint 2-sided",       "joint 1-sided",
    "joint 2-sided geometric", "joint 1-sided geometric", "joint 2-sided k = 0",
    "joint 1-sided k = 0",     "sum 2-sided (K = 5)", "sum 1-sided (K = 5)"};

static double method_eps(int k, const double *in, size_t n, const double *out, mpfi_srcptr a,
                         mpfi_srcptr d)
{
    char err[256];
    double e;
    if (k == 0) {
        e = jax_cp_d(in, n, out, n, 0.05, 1e-5, err, sizeof err);
        if (isnan(e))
            fprintf(stderr, "bench_eps_lb_weights: %s\n", err);
        return e;
    }
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    o.method = k >= 7 ? UL_EMP_LB_SUM : UL_EMP_LB_JOINT;
    o.one_sided = k % 2 == 0;
    o.geometric = k == 3 || k == 4;
    o.k_max = k == 5 || k == 6 ? 0 : -1; /* the extreme order statistic alone */
    e = ul_emp_eps_lb_value(in, n, out, n, a, d, &o, err, sizeof err);
    if (isnan(e))
        fprintf(stderr, "bench_eps_lb_weights: %s\n", err);
    return e;
}

/* One table row: the mean over the draws of every method at μ, and each
 * joint variant's ratio to jax CP. */
static void table_row(double mu, size_t n, int draws, mpfi_srcptr a, mpfi_srcptr d)
{
    double mean[N_METHODS] = {0};
    double *x = malloc(2 * n * sizeof *x);
    if (!x) {
        fprintf(stderr, "bench_eps_lb_weights: out of memory for %zu runs per world\n", n);
        exit(2);
    }
    for (int s = 0; s < draws; s++) { /* bench_power's draws: seed 1000 + s, runs 1 (IN), 2 (OUT) */
        ul_rng_normals(1000 + (uint32_t)s, 1, 0, 0, n, x);
        ul_rng_normals(1000 + (uint32_t)s, 2, 0, 0, n, x + n);
        for (size_t i = 0; i < n; i++)
            x[i] += mu;
        for (int k = 0; k < N_METHODS; k++)
            mean[k] += method_eps(k, x, n, x + n, a, d) / draws;
    }
    printf("| %g | %.3f |", mu, mean[0]);
    for (int k = 1; k < N_METHODS; k++)
        printf(" %.3f (x%.3f) |", mean[k], mean[k] / mean[0]);
    printf("\n");
    free(x);
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 4096;
    int draws = argc > 2 ? atoi(argv[2]) : 10;
    ul_num_init();
    mpfi_t a, d;
    mpfi_init2(a, 128), mpfi_init2(d, 128);
    if (ul_num_set_decimal(a, "0.05") != UL_OK || ul_num_set_decimal(d, "1e-5") != UL_OK)
        return 2;
    printf("bench_eps_lb_weights: %zu runs/world, %d draws, alpha 0.05, delta 1e-5 (means)\n| mu |",
           n, draws);
    for (int k = 0; k < N_METHODS; k++)
        printf(" %s |", names[k]);
    printf("\n");
    for (double mu = 1; mu <= 4; mu *= 2)
        table_row(mu, n, draws, a, d);
    mpfi_clear(a), mpfi_clear(d);
    ul_num_shutdown();
    return 0;
}
