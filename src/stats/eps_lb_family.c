/* src/stats/eps_lb_family.c — FAMILY (stats/eps_lb.h): the grid's
 * order-statistic tests fixed before the data, two Clopper–Pearson bounds
 * each at α/(2m) (Bonferroni over the m tests), the best one certified.
 * Its validity is the order-statistic lemma of stats/eps_lb.h. */
#include "stats/eps_lb_internal.h"

#include <stdlib.h>

ul_status ul_lb_run_family(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                           size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                           const ul_emp_lb_opts *o, char *err, size_t errlen)
{
    size_t m = ul_lb_family_size(n_in, n_out, o), nc;
    double dd = mpfr_get_d(&delta->right, MPFR_RNDU);
    ul_lb_candidate *c =
        ul_lb_family_tests(a, n_in, b, n_out, o, ul_lb_beta_d(alpha, 2.0 * (double)m), dd, &nc);
    if (!c)
        return ul_lb_no_room(err, errlen, "the family's tests", n_in, n_out);
    ul_status st =
        ul_lb_certify_best(res, c, nc, n_in, n_out, alpha, delta, (unsigned long)m, err, errlen);
    free(c);
    return st;
}
