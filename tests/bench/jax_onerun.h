/* tests/bench/jax_onerun.h — a peer's one-run rules reproduced for
 * comparison: jax_privacy's selection (auditing.py,
 * `CanaryScoreAuditor.epsilon_one_run` and `epsilon_one_run_fdp` under
 * `Bonferroni()`, via `_epsilon_one_run_all_thresholds`) around this
 * library's per-count double searches, on the same scores.  Shared by
 * tests/test_onerun.c (which checks it against jax's published vectors) and
 * tests/bench/bench_power_table.c (the one-run rows); not a certified bound
 * and not part of the library.  Header-only: each C file of tests/bench is a
 * benchmark program of its own.
 */
#ifndef UL_BENCH_JAX_ONERUN_H
#define UL_BENCH_JAX_ONERUN_H

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "stats/eps_lb.h"
#include "stats/roc_hull.h"

/* The best vertex: its value (ε for SNJ, μ for f-DP; NAN when out of
 * memory), its r guesses of which v correct. */
typedef struct {
    double best;
    unsigned long r, v;
} jax_vertex_best;

/* The largest ε in [lo, 64] with the SNJ p-value ≤ level, by bisection
 * (the p-value at lo is ≤ level). */
static double jax_snj_search(unsigned long m, unsigned long r, unsigned long v, double lo,
                             double delta, double level)
{
    double hi = 64;
    for (int it = 0; it < 60; it++) {
        double mid = 0.5 * (lo + hi);
        if (ul_emp_onerun_pvalue_d(m, r, v, mid, delta) <= level)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* jax_privacy's selection (auditing.py `_epsilon_one_run_all_thresholds`
 * under `Bonferroni()`): one-sided guesses ("IN" for the scores above a
 * vertex) at every vertex of the ROC hull (`_get_tn_fn_counts`,
 * `_pareto_frontier`), level alpha/h (h vertices), the largest value by the
 * double search of one family (ε by SNJ23's p-value, μ by MMC24's
 * recursion), pruning as jax does (a vertex is searched only if it beats the
 * best so far); *tau the level.  m = ni + no canaries. */
static jax_vertex_best jax_onerun_rule(const double *in, size_t ni, const double *out, size_t no,
                                       bool fdp, double alpha, double delta, double *tau)
{
    unsigned long m = (unsigned long)(ni + no);
    unsigned long *fp = malloc((m + 1) * sizeof *fp), *tp = malloc((m + 1) * sizeof *tp);
    size_t h = fp && tp ? ul_emp_roc_hull(in, ni, out, no, fp, tp) : 0;
    jax_vertex_best b = {h ? 0 : NAN, 0, 0};
    *tau = h ? alpha / (double)h : 0;
    for (size_t i = 1; i < h; i++) {
        unsigned long r = fp[i] + tp[i], v = tp[i];
        double e = 0;
        if (fdp && v > 0 && ul_emp_onerun_fdp_margin_d(m, r, v, b.best + 1e-9, *tau) > 0)
            e = ul_emp_onerun_fdp_mu_d(m, r, v, *tau); /* jax: audit_objective(eps_lo) > 0 */
        else if (!fdp && (double)v / (double)r > 1 / (1 + exp(-b.best)) &&
                 ul_emp_onerun_pvalue_d(m, r, v, b.best, delta) <= *tau)
            e = jax_snj_search(m, r, v, b.best, delta, *tau);
        if (e > b.best)
            b = (jax_vertex_best){e, r, v};
    }
    free(fp), free(tp);
    return b;
}

#endif
