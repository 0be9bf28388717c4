/* tests/bench/bench_power.c — power of the valid ε lower bounds on the
 * Gaussian released models of issue 15: IN scores ~ N(μ, 1), OUT scores ~
 * N(0, 1), n runs per world, δ = 1e-5, α = 0.05, mean (sd) over D draws.
 *
 * Beside each method: the true ε of the pair (the smallest ε with
 * θ_{e^ε}(μ) ≤ δ, certified by ul_gauss_eps_min — what `ulaudit calc
 * gauss-eps --r μ --delta 1e-5` prints) and the baseline measured in the
 * same run on the same scores: jax_privacy's `epsilon_clopper_pearson`
 * (one-sided, Bonferroni over the ROC hull's vertices, CP at α/(2M) each;
 * re-implemented here in doubles).  The GDP estimate is an estimate.
 *
 *   build-h8/bench/bench_power [n [draws]]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bounds/gaussian.h"
#include "gauss_eps.h"
#include "jax_cp.h"
#include "stats/eps_lb.h"
#include "stats/gdp.h"
#include "emp/rng.h"
#include "stats/stats.h"
#include "num/encl.h"

#define N_METHODS 8
static const char *names[N_METHODS] = {
    "family 2-sided", "family 1-sided",          "split 0.25",          "joint 2-sided",
    "joint 1-sided",  "all (legacy, exact max)", "sum 1-sided (K = 5)", "jax CP (baseline)"};

/* jax_privacy epsilon_clopper_pearson(significance, delta, one_sided=True,
 * Bonferroni()) on the same scores, in doubles (jax_cp_d). */
static double jax_cp(const double *in, size_t n, const double *out, double alpha, double delta)
{
    char err[256];
    double e = jax_cp_d(in, n, out, n, alpha, delta, err, sizeof err);
    if (isnan(e)) {
        fprintf(stderr, "bench_power: %s\n", err);
        exit(1);
    }
    return e;
}

static double method_eps(int k, const double *in, size_t n, const double *out, mpfi_srcptr a,
                         mpfi_srcptr d)
{
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    o.one_sided = k == 1 || k == 4 || k == 6;
    if (k == 6)
        o.method = UL_EMP_LB_SUM;
    if (k == 2)
        o.method = UL_EMP_LB_SPLIT;
    if (k == 3 || k == 4)
        o.method = UL_EMP_LB_JOINT;
    if (k == 5)
        o.method = UL_EMP_LB_ALL;
    ul_emp_lb_result r;
    ul_emp_lb_init(&r);
    char err[256];
    double e = NAN;
    if (ul_emp_eps_lb(&r, in, n, out, n, a, d, &o, err, sizeof err) == UL_OK)
        e = mpfr_get_d(r.eps_lb, MPFR_RNDD);
    else
        fprintf(stderr, "bench_power: %s\n", err);
    ul_emp_lb_clear(&r);
    return e;
}

static double auc_of(const double *in, size_t n, const double *out, mpfi_srcptr a, mpfi_srcptr d)
{
    ul_emp_roc roc;
    char err[256];
    double auc = NAN;
    if (ul_emp_roc_compute(&roc, in, n, out, n, a, d, err, sizeof err) == UL_OK)
        auc = roc.auc;
    ul_emp_roc_clear(&roc);
    return auc;
}

static void one_mu(double mu, size_t n, int draws, mpfi_srcptr a, mpfi_srcptr d)
{
    double sum[N_METHODS + 1] = {0}, sq[N_METHODS + 1] = {0};
    double *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    for (int s = 0; s < draws; s++) {
        ul_rng_normals(1000 + (uint32_t)s, 1, 0, 0, n, in);
        ul_rng_normals(1000 + (uint32_t)s, 2, 0, 0, n, out);
        for (size_t i = 0; i < n; i++)
            in[i] += mu;
        double v[N_METHODS + 1];
        for (int k = 0; k < N_METHODS - 1; k++)
            v[k] = method_eps(k, in, n, out, a, d);
        v[N_METHODS - 1] = jax_cp(in, n, out, 0.05, 1e-5);
        v[N_METHODS] = ul_emp_gdp_eps(ul_emp_gdp_mu_from_auc(auc_of(in, n, out, a, d)), 1e-5);
        for (int k = 0; k <= N_METHODS; k++)
            sum[k] += v[k], sq[k] += v[k] * v[k];
    }
    double te = bench_gauss_true_eps(mu, "1e-5"), base = sum[N_METHODS - 1] / draws;
    printf("mu = %g (true eps %.4f), %zu runs/world, %d draws\n", mu, te, n, draws);
    for (int k = 0; k <= N_METHODS; k++) {
        double m = sum[k] / draws, sd = sqrt(fmax(0, sq[k] / draws - m * m));
        printf("  %-26s %7.3f (sd %.3f)   x%.3f of jax CP   %.3f of true eps\n",
               k < N_METHODS ? names[k] : "GDP estimate (not a bound)", m, sd, m / base, m / te);
    }
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    ul_num_init();
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 4096;
    int draws = argc > 2 ? atoi(argv[2]) : 10;
    mpfi_t a, d;
    mpfi_init2(a, 128);
    mpfi_init2(d, 128);
    if (ul_num_set_decimal(a, "0.05") != UL_OK || ul_num_set_decimal(d, "1e-5") != UL_OK)
        return 2;
    printf("bench_power: valid eps lower bounds (alpha 0.05, delta 1e-5) vs jax_privacy CP\n");
    const double mus[] = {1, 2, 4};
    for (int i = 0; i < 3; i++)
        one_mu(mus[i], n, draws, a, d);
    mpfi_clear(a);
    mpfi_clear(d);
    ul_num_shutdown();
    return 0;
}
