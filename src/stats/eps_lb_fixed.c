/* src/stats/eps_lb_fixed.c — FIXED and SPLIT (stats/eps_lb.h): one
 * threshold chosen before the data (TF Privacy / jax_privacy `Explicit`),
 * or chosen on a pilot part of the scores and then FIXED on the rest
 * (jax_privacy `Split`); m = 1, each Clopper–Pearson bound at α/2. */
#include "stats/eps_lb_internal.h"

#include <math.h>
#include <stdlib.h>

ul_status ul_lb_run_fixed(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                          size_t n_out, double t, mpfi_srcptr alpha, mpfi_srcptr delta, char *err,
                          size_t errlen)
{
    ul_lb_candidate c = {+1, (unsigned long)ul_lb_count_ge(b, n_out, t),
                         (unsigned long)(n_in - ul_lb_count_ge(a, n_in, t)), t, 0};
    c.est = ul_lb_eps_counts_d(c.fp, n_out, c.fn, n_in, ul_lb_beta_d(alpha, 2),
                               mpfr_get_d(&delta->right, MPFR_RNDU));
    return ul_lb_certify_best(res, &c, 1, n_in, n_out, alpha, delta, 1, err, errlen);
}

/* ---- split --------------------------------------------------------------------- */

/* Chooses on the pilot (sorted copies pa, pb) the family test whose counts,
 * scaled to the certification sizes, predict the best bound at m = 1: its
 * threshold in *thr. */
static ul_status split_choose(double *thr, const double *pa, size_t np_in, const double *pb,
                              size_t np_out, size_t nc_in, size_t nc_out, const ul_emp_lb_opts *o,
                              double beta, double delta, char *err, size_t errlen)
{
    size_t nc;
    ul_lb_candidate *c = ul_lb_family_tests(pa, np_in, pb, np_out, o, beta, delta, &nc);
    if (!c)
        return ul_lb_no_room(err, errlen, "the pilot's tests", np_in, np_out);
    double best = -1;
    *thr = INFINITY;
    for (size_t i = 0; i < nc; i++) {
        unsigned long fp =
            (unsigned long)llround((double)c[i].fp * (double)nc_out / (double)np_out);
        unsigned long fn = (unsigned long)llround((double)c[i].fn * (double)nc_in / (double)np_in);
        double e = ul_lb_eps_counts_d(fp < nc_out ? fp : nc_out, nc_out, fn < nc_in ? fn : nc_in,
                                      nc_in, beta, delta);
        if (e > best) {
            best = e;
            *thr = c[i].threshold;
        }
    }
    free(c);
    return UL_OK;
}

ul_status ul_lb_run_split(ul_emp_lb_result *res, const double *in, size_t n_in, const double *out,
                          size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                          const ul_emp_lb_opts *o, char *err, size_t errlen)
{
    size_t p_in = (size_t)floor(o->split_frac * (double)n_in);
    size_t p_out = (size_t)floor(o->split_frac * (double)n_out);
    if (p_in < 1 || p_out < 1 || p_in >= n_in || p_out >= n_out)
        return ul_fail(err, errlen, UL_EINPUT,
                       "split_frac %g leaves an empty part (n_in %zu, n_out %zu)", o->split_frac,
                       n_in, n_out);
    double *pa = ul_lb_sorted_copy(in, p_in), *pb = ul_lb_sorted_copy(out, p_out);
    double *ca = ul_lb_sorted_copy(in + p_in, n_in - p_in),
           *cb = ul_lb_sorted_copy(out + p_out, n_out - p_out);
    double t = INFINITY;
    ul_status st = pa && pb && ca && cb
                       ? split_choose(&t, pa, p_in, pb, p_out, n_in - p_in, n_out - p_out, o,
                                      ul_lb_beta_d(alpha, 2), mpfr_get_d(&delta->right, MPFR_RNDU),
                                      err, errlen)
                       : ul_lb_no_room(err, errlen, "the sorted copies", n_in, n_out);
    if (st == UL_OK) {
        st = ul_lb_run_fixed(res, ca, n_in - p_in, cb, n_out - p_out, t, alpha, delta, err, errlen);
        res->ties_fraction = ul_lb_ties_fraction(ca, n_in - p_in, cb, n_out - p_out);
    }
    free(pa);
    free(pb);
    free(ca);
    free(cb);
    return st;
}
