/* src/stats/eps_lb_joint.c — JOINT (stats/eps_lb.h): the family's
 * thresholds, each tested with one p-value (the Beta law of the false rate
 * at an order statistic, by the lemma of stats/eps_lb.h, mixed with the
 * other world's binomial count: ul_emp_joint_pvalue_upper, stats/stats.h),
 * at level α/m or with the geometric weights of stats/eps_lb.h. */
#include "stats/eps_lb_internal.h"

#include <math.h>
#include <stdlib.h>

#include "stats/special_d.h"
#include "stats/stats.h"

#define JOINT_GRID 120

/* The grid of false rates f_j = G⁻¹(u_j) (G the Beta(k+1, n0−k) law, by
 * G(f) = 1 − P[Bin(n0, f) ≤ k]): half uniform in u, half with 1 − u
 * log-spaced from 1e-2 down to level·1e-3 (the upper tail decides). */
static size_t joint_grid(unsigned long k, unsigned long n0, double level, double *f)
{
    size_t J = 0, h = JOINT_GRID / 2;
    for (size_t i = 1; i <= h; i++)
        f[J++] = ul_emp_cp_upper_d(k, n0, 1 - 0.99 * (double)i / (double)h);
    double lo = log(1e-2), hi = log(level * 1e-3);
    for (size_t i = 1; i <= h; i++)
        f[J++] = ul_emp_cp_upper_d(k, n0, exp(lo + (hi - lo) * (double)i / (double)h));
    size_t m = 0; /* ascending, distinct, below 1 */
    qsort(f, J, sizeof *f, ul_lb_cmp_double);
    for (size_t i = 0; i < J; i++)
        if (f[i] < 1 && (m == 0 || f[i] > f[m - 1]))
            f[m++] = f[i];
    return m;
}

/* The bound of ul_emp_joint_pvalue_upper (stats/stats.h) in doubles. */
static double joint_p_d(unsigned long k, unsigned long n0, unsigned long x, unsigned long n1,
                        double eps, double delta, const double *f, size_t J)
{
    double acc = 0, s = ul_emp_binom_sf_d(x, n1, fmin(1, exp(eps) * f[0] + delta));
    for (size_t j = 0; j < J; j++) {
        double next =
            j + 1 < J ? ul_emp_binom_sf_d(x, n1, fmin(1, exp(eps) * f[j + 1] + delta)) : 1;
        acc += (1 - ul_emp_binom_cdf_d(k, n0, f[j])) * (next - s);
        s = next;
    }
    return 1 - acc;
}

/* The joint test's (k, n0, x, n1) for a family candidate. */
static void joint_counts(const ul_lb_candidate *c, size_t n_in, size_t n_out, unsigned long *k,
                         unsigned long *n0, unsigned long *x, unsigned long *n1)
{
    if (c->dir > 0)
        *k = c->fp, *n0 = n_out, *x = n_in - c->fn, *n1 = n_in;
    else
        *k = c->fn, *n0 = n_in, *x = n_out - c->fp, *n1 = n_out;
}

/* The joint test of one candidate at a level: its counts and its grid of
 * false rates. */
typedef struct {
    unsigned long k, n0, x, n1;
    double f[JOINT_GRID];
    size_t J;
} joint_test;

static void joint_test_of(joint_test *t, const ul_lb_candidate *c, size_t n_in, size_t n_out,
                          double level)
{
    joint_counts(c, n_in, n_out, &t->k, &t->n0, &t->x, &t->n1);
    t->J = joint_grid(t->k, t->n0, level, t->f);
}

/* The double p-value of the test (ul_lb_search_eps_d). */
static double joint_p_search(const void *test, double eps, double delta, double level)
{
    (void)level;
    const joint_test *t = test;
    return joint_p_d(t->k, t->n0, t->x, t->n1, eps, delta, t->f, t->J);
}

static ul_status joint_pvalue(mpfr_ptr p, const void *test, mpfr_srcptr eps, mpfi_srcptr delta,
                              char *err, size_t errlen)
{
    const joint_test *t = test;
    return ul_emp_joint_pvalue_upper(p, t->k, t->n0, t->x, t->n1, eps, delta, t->f, t->J, err,
                                     errlen);
}

/* Certifies the candidate's double estimate (ul_lb_certify_eps, 4 tries, 64 bits). */
static ul_status joint_certify(mpfr_ptr e, const ul_lb_candidate *c, size_t n_in, size_t n_out,
                               mpfi_srcptr level, mpfi_srcptr delta, char *err, size_t errlen)
{
    joint_test t;
    joint_test_of(&t, c, n_in, n_out, mpfr_get_d(&level->left, MPFR_RNDD));
    return ul_lb_certify_eps(e, joint_pvalue, &t, c->est, 4, 64, level, delta, err, errlen);
}

/* The level divisor of test i of the joint family (stats/eps_lb.h): m for
 * plain Bonferroni; with geometric weights, within its direction's grid of
 * L tests (index j), 2^(j+1) (j < L − 1) or 2^(L−1), times 2 when
 * two-sided. */
static unsigned long joint_divisor(size_t i, size_t kf, size_t m, const ul_emp_lb_opts *o)
{
    if (!o->geometric)
        return (unsigned long)m;
    size_t L = i < kf ? kf : m - kf, j = i < kf ? i : i - kf;
    unsigned long d = 1UL << (j + 1 < L ? j + 1 : L - 1); /* L ≤ 63 or 64: ul_lb_check_weights */
    return o->one_sided ? d : 2 * d;
}

/* Geometric weights need every divisor 2^e (two-sided 2^(e+1)) to fit an
 * unsigned long: e ≤ L − 1 with L the larger direction's grid, so at most
 * 64 grid counts one-sided and 63 two-sided (a larger grid, from a small
 * ratio, would wrap the shift and give weights summing above 1). */
ul_status ul_lb_check_weights(size_t n_in, size_t n_out, const ul_emp_lb_opts *o, char *err,
                              size_t errlen)
{
    if (o->method != UL_EMP_LB_JOINT || !o->geometric)
        return UL_OK;
    size_t L = ul_lb_grid_of(n_out, o, NULL, 0),
           Lr = o->one_sided ? 0 : ul_lb_grid_of(n_in, o, NULL, 0);
    L = Lr > L ? Lr : L;
    size_t cap = o->one_sided ? 64 : 63;
    if (L <= cap)
        return UL_OK;
    return ul_fail(err, errlen, UL_EINPUT,
                   "ratio: geometric weights allow at most %zu grid counts per direction (%s), "
                   "ratio %g gives %zu here; use a larger ratio, k_max or equal weights",
                   cap, o->one_sided ? "one-sided" : "two-sided", ul_lb_ratio_of(o), L);
}

ul_status ul_lb_run_joint(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                          size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                          const ul_emp_lb_opts *o, char *err, size_t errlen)
{
    size_t m = ul_lb_family_size(n_in, n_out, o), nc, best = 0;
    size_t kf = ul_lb_grid_of(n_out, o, NULL, 0);
    double dd = mpfr_get_d(&delta->right, MPFR_RNDU), a_d = ul_lb_beta_d(alpha, 1.0);
    ul_lb_candidate *c = ul_lb_family_tests(a, n_in, b, n_out, o, a_d / (double)m / 2, dd, &nc);
    if (!c)
        return ul_lb_no_room(err, errlen, "the family's tests", n_in, n_out);
    for (size_t i = 0; i < nc; i++) { /* every test: its whole level, one p-value */
        double level = a_d / (double)joint_divisor(i, kf, m, o);
        joint_test t;
        joint_test_of(&t, &c[i], n_in, n_out, level);
        c[i].est = t.x == 0 ? 0 : ul_lb_search_eps_d(joint_p_search, &t, dd, level, 40);
        if (c[i].est > c[best].est)
            best = i;
    }
    unsigned long div = joint_divisor(best, kf, m, o);
    mpfi_t lev;
    mpfi_init2(lev, mpfi_get_prec(alpha) + 32);
    mpfi_div_ui(lev, alpha, div);
    mpfr_t e;
    mpfr_init2(e, 64);
    ul_status st = joint_certify(e, &c[best], n_in, n_out, lev, delta, err, errlen);
    if (st == UL_OK)
        ul_lb_record(res, &c[best], e, n_in, n_out);
    res->m = (unsigned long)m;
    res->divisor = div;
    mpfr_clear(e);
    mpfi_clear(lev);
    free(c);
    return st;
}
