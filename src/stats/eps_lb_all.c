/* src/stats/eps_lb_all.c — ALL and LEVELS (stats/eps_lb.h): every distinct
 * score a threshold with its observed counts.  They differ only in the
 * Bonferroni count: ALL pays the observed number of distinct scores (the
 * legacy statistic of ul_emp_roc_compute; data-dependent with ties:
 * stats/eps_lb.h says when the lemma covers it), LEVELS the declared number
 * of possible values less one (valid by the union over the law's atoms). */
#include "stats/eps_lb_internal.h"

#include <stdlib.h>

#include "stats/stats.h"

/* The distinct-threshold statistic, paying d tests when the scores take d
 * distinct values (ALL, levels 0) or levels − 1 (LEVELS).  Candidates: the staircase's Pareto corners (most
 * true positives for their false positives, fewest false positives for
 * their true positives); every other threshold has larger fp and fn and so
 * a smaller bound, which makes the maximum over the corners the maximum
 * over all thresholds. */
static ul_status run_distinct(ul_emp_lb_result *res, const double *a, size_t n_in,
                              const double *b, size_t n_out, mpfi_srcptr alpha,
                              mpfi_srcptr delta, unsigned long levels, char *err, size_t errlen)
{
    size_t cap = n_in + n_out + 1, nc = 0;
    unsigned long *fp = malloc(cap * sizeof *fp), *tp = malloc(cap * sizeof *tp);
    double *thr = malloc(cap * sizeof *thr);
    ul_lb_candidate *c = malloc(cap * sizeof *c);
    if (!fp || !tp || !thr || !c) {
        free(fp), free(tp), free(thr), free(c);
        return ul_lb_no_room(err, errlen, "the thresholds", n_in, n_out);
    }
    size_t d = ul_emp_roc_counts(a, n_in, b, n_out, fp, tp, thr);
    ul_status st = UL_OK;
    if (levels && d > levels)
        st = ul_fail(err, errlen, UL_EINPUT,
                     "levels: the scores take %zu distinct values, more than the %lu declared "
                     "(the levels method is valid only for a score with at most that many "
                     "possible values, declared before the data)",
                     d, levels);
    /* ALL: the d observed thresholds; LEVELS: the L − 1 atoms a threshold
     * can sit on (the smallest value admits everything and bounds nothing). */
    unsigned long m = levels ? levels - 1 : (unsigned long)d;
    double beta = ul_lb_beta_d(alpha, 2.0 * (double)m), dd = mpfr_get_d(&delta->right, MPFR_RNDU);
    for (size_t i = 1; st == UL_OK && i <= d; i++) {
        if (tp[i] == tp[i - 1] || (i < d && fp[i + 1] == fp[i]))
            continue;
        c[nc] = (ul_lb_candidate){+1, fp[i], (unsigned long)n_in - tp[i], thr[i], 0};
        c[nc].est = ul_lb_eps_counts_d(c[nc].fp, n_out, c[nc].fn, n_in, beta, dd);
        nc++;
    }
    if (st == UL_OK)
        st = ul_lb_certify_best(res, c, nc, n_in, n_out, alpha, delta, m, err, errlen);
    free(fp), free(tp), free(thr), free(c);
    return st;
}

ul_status ul_lb_run_all(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                        size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta, char *err,
                        size_t errlen)
{
    return run_distinct(res, a, n_in, b, n_out, alpha, delta, 0, err, errlen);
}

ul_status ul_lb_run_levels(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                           size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                           unsigned long levels, char *err, size_t errlen)
{
    return run_distinct(res, a, n_in, b, n_out, alpha, delta, levels, err, errlen);
}
