/* src/stats/eps_lb_all.c — ALL (stats/eps_lb.h): every distinct score a
 * threshold, the legacy statistic of ul_emp_roc_compute (its count is
 * data-dependent with ties: stats/eps_lb.h says when the lemma covers it). */
#include "stats/eps_lb_internal.h"

#include <stdlib.h>

#include "stats/stats.h"

/* Candidates: the staircase's Pareto corners (most true positives for their
 * false positives, fewest false positives for their true positives); every
 * other threshold has larger fp and fn and so a smaller bound, which makes
 * the maximum over the corners the maximum over all thresholds. */
ul_status ul_lb_run_all(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                        size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta, char *err,
                        size_t errlen)
{
    size_t cap = n_in + n_out + 1, nc = 0;
    unsigned long *fp = malloc(cap * sizeof *fp), *tp = malloc(cap * sizeof *tp);
    double *thr = malloc(cap * sizeof *thr);
    ul_lb_candidate *c = malloc(cap * sizeof *c);
    if (!fp || !tp || !thr || !c) {
        free(fp), free(tp), free(thr), free(c);
        return ul_lb_no_room(err, errlen, "the thresholds", n_in, n_out);
    }
    size_t m = ul_emp_roc_counts(a, n_in, b, n_out, fp, tp, thr);
    double beta = ul_lb_beta_d(alpha, 2.0 * (double)m), dd = mpfr_get_d(&delta->right, MPFR_RNDU);
    for (size_t i = 1; i <= m; i++) {
        if (tp[i] == tp[i - 1] || (i < m && fp[i + 1] == fp[i]))
            continue;
        c[nc] = (ul_lb_candidate){+1, fp[i], (unsigned long)n_in - tp[i], thr[i], 0};
        c[nc].est = ul_lb_eps_counts_d(c[nc].fp, n_out, c[nc].fn, n_in, beta, dd);
        nc++;
    }
    ul_status st =
        ul_lb_certify_best(res, c, nc, n_in, n_out, alpha, delta, (unsigned long)m, err, errlen);
    free(fp), free(tp), free(thr), free(c);
    return st;
}
