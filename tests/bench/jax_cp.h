/* tests/bench/jax_cp.h — a peer's method reproduced for comparison: jax_privacy's
 * `epsilon_clopper_pearson` (one-sided, Bonferroni over the ROC hull's
 * vertices, two CP bounds at α/(2h)) in doubles, on the same scores.  The
 * baseline of the power benchmarks (bench_power, bench_eps_lb_weights), not
 * a certified bound and not part of the library.  Header-only: each
 * C file of tests/bench is a benchmark program of its own.
 */
#ifndef UL_BENCH_JAX_CP_H
#define UL_BENCH_JAX_CP_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats/roc_hull.h"
#include "stats/special_d.h"

/* jax_privacy `epsilon_clopper_pearson(significance, delta, one_sided=True,
 * Bonferroni())` (jax_privacy/auditing, as bench_power re-implements it):
 * Bonferroni over the ROC hull's h vertices, two CP bounds at α/(2h) each,
 * ε = max log((1 − FNR̄ − δ)/FPR̄), in doubles.  For comparisons only: the
 * hull is data-dependent, so its count is not covered by the lemma. */
static double jax_cp_d(const double *in, size_t n_in, const double *out, size_t n_out, double alpha,
                       double delta, char *err, size_t errlen)
{
    size_t cap = n_in + n_out + 1;
    unsigned long *fp = malloc(cap * sizeof *fp), *tp = malloc(cap * sizeof *tp);
    size_t h = fp && tp ? ul_emp_roc_hull(in, n_in, out, n_out, fp, tp) : 0;
    if (h == 0) { /* out of memory here or in ul_emp_roc_hull */
        free(fp), free(tp);
        snprintf(err, errlen,
                 "jax_cp: out of memory for the ROC hull of %zu in_scores and %zu "
                 "out_scores",
                 n_in, n_out);
        return NAN;
    }
    double best = 0, s = alpha / (double)h / 2;
    for (size_t i = 0; i < h; i++) {
        double f = ul_emp_cp_upper_d(fp[i], (unsigned long)n_out, s);
        double g = ul_emp_cp_upper_d((unsigned long)n_in - tp[i], (unsigned long)n_in, s);
        if (1 - g > delta && log(1 - g - delta) - log(f) > best)
            best = log(1 - g - delta) - log(f);
    }
    free(fp);
    free(tp);
    return best;
}

#endif
