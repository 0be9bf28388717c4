/* src/stats/eps_lb.c — valid ε lower bounds from scores: the options, the
 * checks and the dispatch to the test families (stats/eps_lb_internal.h
 * lists their files; stats/eps_lb.h has the lemma and the theorem they
 * rely on).
 *
 * Doubles rank the candidates (Clopper–Pearson by bisection on a
 * log-space binomial sum; the one-run p-value likewise); the chosen ones are
 * certified by ul_emp_eps_lb_counts (stats/stats.h) or by the cell covering
 * of ul_emp_onerun_eps, both in MPFR/MPFI with outward rounding. */
#include "stats/eps_lb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "num/encl.h"
#include "stats/eps_lb_internal.h"
#include "stats/stats.h"

#define DEFAULT_SPLIT 0.25
#define SUM_K_MAX UL_EMP_SUM_K_MAX /* stats/eps_lb.h */

ul_emp_lb_opts ul_emp_lb_defaults(void)
{
    ul_emp_lb_opts o = {UL_EMP_LB_FAMILY, false, 0.0, DEFAULT_SPLIT, 0.0, false, -1, 0, 0};
    return o;
}

bool ul_emp_lb_compares_only(ul_emp_lb_method m)
{
    return m != UL_EMP_LB_FIXED && m != UL_EMP_LB_SPLIT && m != UL_EMP_LB_LEVELS;
}

void ul_emp_lb_init(ul_emp_lb_result *res)
{
    memset(res, 0, sizeof *res);
    mpfr_init2(res->eps_lb, 64);
    mpfr_set_zero(res->eps_lb, 1);
    res->threshold = INFINITY;
    res->estimate = 0;
    res->tie_u = NAN;
}

void ul_emp_lb_clear(ul_emp_lb_result *res)
{
    mpfr_clear(res->eps_lb);
}

/* ---- the grid ---------------------------------------------------------------- */

size_t ul_emp_lb_grid(unsigned long n, double ratio, unsigned long *ks, size_t cap)
{
    size_t c = 0;
    for (unsigned long k = 0; k < n;) {
        if (c < cap)
            ks[c] = k;
        c++;
        unsigned long next = (unsigned long)floor(ratio * (double)k);
        k = next > k + 1 ? next : k + 1;
    }
    return c;
}

/* ---- checks ---------------------------------------------------------------- */

static ul_status check_common(const double *in, size_t n_in, const double *out, size_t n_out,
                              mpfi_srcptr alpha, mpfi_srcptr delta, const ul_emp_lb_opts *o,
                              char *err, size_t errlen)
{
    ul_status st = ul_emp_check_scores(in, n_in, "in_scores", err, errlen);
    if (st == UL_OK)
        st = ul_emp_check_scores(out, n_out, "out_scores", err, errlen);
    if (st != UL_OK)
        return st;
    if (mpfi_nan_p(alpha) || mpfr_sgn(&alpha->left) <= 0 || mpfr_cmp_ui(&alpha->right, 1) >= 0)
        return ul_fail(err, errlen, UL_EINPUT, "alpha must lie strictly inside (0, 1)");
    if (mpfi_nan_p(delta) || mpfr_sgn(&delta->left) < 0 || mpfr_cmp_ui(&delta->right, 1) >= 0)
        return ul_fail(err, errlen, UL_EINPUT, "delta must lie in [0, 1)");
    if ((st = ul_lb_check_ratio(o, err, errlen)) != UL_OK)
        return st;
    if (o->method == UL_EMP_LB_FIXED && !isfinite(o->threshold))
        return ul_fail(err, errlen, UL_EINPUT, "threshold must be a finite number");
    if (o->method == UL_EMP_LB_SUM && o->k_max >= SUM_K_MAX)
        return ul_fail(err, errlen, UL_EINPUT,
                       "k_max: the sum test uses at most %d order statistics (k_max <= %d)",
                       SUM_K_MAX, SUM_K_MAX - 1);
    if (o->tie_seed != 0 && !ul_emp_lb_compares_only(o->method))
        return ul_fail(err, errlen, UL_EINPUT,
                       "tie_seed: ties are broken at random only for the methods that compare "
                       "scores (family, joint, sum, all, onerun), not for fixed, split or levels");
    if (o->method == UL_EMP_LB_LEVELS && o->levels < 2)
        return ul_fail(err, errlen, UL_EINPUT,
                       "levels: the number of values the score can take, at least 2 (got %lu)",
                       o->levels);
    if (o->method == UL_EMP_LB_SPLIT && !(o->split_frac > 0 && o->split_frac < 1))
        return ul_fail(err, errlen, UL_EINPUT, "split_frac must lie strictly inside (0, 1)");
    return UL_OK;
}

/* ---- dispatch ------------------------------------------------------------------ */

/* The methods on the ascending copies a (IN), b (OUT). */
static ul_status run_method(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                            size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                            const ul_emp_lb_opts *o, char *err, size_t errlen)
{
    switch (o->method) {
    case UL_EMP_LB_FIXED:
        return ul_lb_run_fixed(res, a, n_in, b, n_out, o->threshold, alpha, delta, err, errlen);
    case UL_EMP_LB_ALL:
        return ul_lb_run_all(res, a, n_in, b, n_out, alpha, delta, err, errlen);
    case UL_EMP_LB_LEVELS:
        return ul_lb_run_levels(res, a, n_in, b, n_out, alpha, delta, o->levels, err, errlen);
    case UL_EMP_LB_JOINT:
        return ul_lb_run_joint(res, a, n_in, b, n_out, alpha, delta, o, err, errlen);
    case UL_EMP_LB_SUM:
        return ul_lb_run_sum(res, a, n_in, b, n_out, alpha, delta, o, err, errlen);
    case UL_EMP_LB_ONERUN:
        return ul_emp_onerun_family(res, a, n_in, b, n_out, alpha, delta, o, err, errlen);
    default:
        return ul_lb_run_family(res, a, n_in, b, n_out, alpha, delta, o, err, errlen);
    }
}

/* run_method, and the share of tied scores (stats/eps_lb.h: not for ONERUN). */
static ul_status run_sorted(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                            size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                            const ul_emp_lb_opts *o, char *err, size_t errlen)
{
    ul_status st = run_method(res, a, n_in, b, n_out, alpha, delta, o, err, errlen);
    if (o->method != UL_EMP_LB_ONERUN)
        res->ties_fraction = ul_lb_ties_fraction(a, n_in, b, n_out);
    return st;
}

/* The method on the tie-broken scores (stats/eps_lb_tiebreak.c), its rule
 * mapped back to the scores' scale, the ties' share of the scores as given
 * (counted where the tie-break sorted them). */
static ul_status run_tie_broken(ul_emp_lb_result *res, const double *in, size_t n_in,
                                const double *out, size_t n_out, mpfi_srcptr alpha,
                                mpfi_srcptr delta, const ul_emp_lb_opts *o, char *err,
                                size_t errlen)
{
    ul_lb_untied t;
    ul_status st = ul_lb_tie_break(&t, in, n_in, out, n_out, o->tie_seed, err, errlen);
    if (st != UL_OK)
        return st;
    ul_emp_lb_opts plain = *o;
    plain.tie_seed = 0;
    st = ul_emp_eps_lb(res, t.in, n_in, t.out, n_out, alpha, delta, &plain, err, errlen);
    double u;
    res->threshold = ul_lb_untie_value(&t, res->threshold, &res->tie_u);
    res->onerun.thr_in = ul_lb_untie_value(&t, res->onerun.thr_in, &u);
    res->onerun.thr_out = ul_lb_untie_value(&t, res->onerun.thr_out, &u);
    res->ties_fraction = t.ties_fraction;
    ul_lb_untied_free(&t);
    return st;
}

ul_status ul_emp_eps_lb(ul_emp_lb_result *res, const double *in, size_t n_in, const double *out,
                        size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta, const ul_emp_lb_opts *o,
                        char *err, size_t errlen)
{
    ul_num_init();
    ul_status st = check_common(in, n_in, out, n_out, alpha, delta, o, err, errlen);
    if (st == UL_OK)
        st = ul_lb_check_weights(n_in, n_out, o, err, errlen);
    if (st != UL_OK)
        return st;
    if (o->tie_seed != 0)
        return run_tie_broken(res, in, n_in, out, n_out, alpha, delta, o, err, errlen);
    if (o->method == UL_EMP_LB_SPLIT) {
        st = ul_lb_run_split(res, in, n_in, out, n_out, alpha, delta, o, err, errlen);
        res->divisor = res->divisor ? res->divisor : res->m;
        return st;
    }
    double *a = ul_lb_sorted_copy(in, n_in), *b = ul_lb_sorted_copy(out, n_out);
    st = a && b ? run_sorted(res, a, n_in, b, n_out, alpha, delta, o, err, errlen)
                : ul_lb_no_room(err, errlen, "the sorted copies", n_in, n_out);
    res->divisor = res->divisor ? res->divisor : res->m;
    free(a);
    free(b);
    return st;
}

double ul_emp_eps_lb_value(const double *in, size_t n_in, const double *out, size_t n_out,
                           mpfi_srcptr alpha, mpfi_srcptr delta, const ul_emp_lb_opts *o, char *err,
                           size_t errlen)
{
    ul_emp_lb_result r;
    ul_emp_lb_init(&r);
    ul_status st = ul_emp_eps_lb(&r, in, n_in, out, n_out, alpha, delta, o, err, errlen);
    double e = st == UL_OK || st == UL_ECAP ? mpfr_get_d(r.eps_lb, MPFR_RNDD) : NAN;
    ul_emp_lb_clear(&r);
    return e;
}
