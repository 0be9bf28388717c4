/* src/stats/eps_lb_common.c — what the test families of eps_lb share
 * (stats/eps_lb_internal.h): the grid, the order-statistic tests of the
 * lemma (stats/eps_lb.h), the ranking in doubles, and the certification of
 * the chosen candidates (ul_emp_eps_lb_counts, stats/stats.h). */
#include "stats/eps_lb_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/special_d.h"
#include "stats/stats.h"

#define DEFAULT_RATIO 1.25
#define JOINT_RATIO 4.0 /* bench_power: the joint test's optimum is flat in k, few tests win */
#define N_CERTIFY 4     /* candidates certified at most (ties of the double ranking) */
#define TIE_TOL 1e-6    /* double estimates this close to the best are certified too */

/* The grid ratio: the option, or the method's default. */
double ul_lb_ratio_of(const ul_emp_lb_opts *o)
{
    return o->ratio > 0 ? o->ratio : o->method == UL_EMP_LB_JOINT ? JOINT_RATIO : DEFAULT_RATIO;
}

ul_status ul_lb_check_ratio(const ul_emp_lb_opts *o, char *err, size_t errlen)
{
    if (o->ratio == 0 || (o->ratio > 1 && o->ratio <= 16))
        return UL_OK;
    return ul_fail(err, errlen, UL_EINPUT,
                   "ratio must lie in (1, 16] (0: the method's default: 4 for joint, 2 for "
                   "onerun, 1.25 otherwise)");
}

/* ε from upper bounds f (FPR) and g (FNR), as ul_emp_eps_lb_counts. */
static double eps_from_bounds(double f, double g, double delta)
{
    double e1 = (1 - delta - g) > 0 ? log((1 - delta - g) / f) : -INFINITY;
    double e2 = (1 - delta - f) > 0 ? log((1 - delta - f) / g) : -INFINITY;
    double e = e1 > e2 ? e1 : e2;
    return e > 0 ? e : 0;
}

/* The double estimate of a test's ε from its counts, both CP bounds at beta. */
double ul_lb_eps_counts_d(unsigned long fp, unsigned long n_out, unsigned long fn,
                          unsigned long n_in, double beta, double delta)
{
    return eps_from_bounds(ul_emp_cp_upper_d(fp, n_out, beta), ul_emp_cp_upper_d(fn, n_in, beta),
                           delta);
}

/* qsort's ascending order of doubles. */
int ul_lb_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Out of memory for an array sized by the scores (policy of num/status.h:
 * UL_ENOMEM naming the size, never abort). */
ul_status ul_lb_no_room(char *err, size_t errlen, const char *what, size_t n_in, size_t n_out)
{
    return ul_fail(err, errlen, UL_ENOMEM,
                   "eps_lb: out of memory for %s of %zu in_scores and %zu out_scores", what, n_in,
                   n_out);
}

/* An ascending copy of s[0..n); NULL when out of memory (the caller reports
 * it with ul_lb_no_room). */
double *ul_lb_sorted_copy(const double *s, size_t n)
{
    double *c = malloc((n ? n : 1) * sizeof *c);
    if (!c)
        return NULL;
    memcpy(c, s, n * sizeof *c);
    qsort(c, n, sizeof *c, ul_lb_cmp_double);
    return c;
}

/* Number of entries of the ascending array a[0..n) that are ≥ t. */
size_t ul_lb_count_ge(const double *a, size_t n, double t)
{
    size_t lo = 0, hi = n; /* first index with a[i] ≥ t */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return n - lo;
}

/* ---- tied scores ------------------------------------------------------------------
 *
 * With tied scores (atoms: 0/1 randomised-response scores, quantised
 * losses) an order-statistic threshold t_k can sit inside a block of equal
 * scores, and the deterministic rule "IN iff score > t_k" leaves out the
 * whole block: valid (the lemma of stats/eps_lb.h allows atoms), but weak
 * (SUM certifies 0 on randomised response).  The share of tied scores is
 * reported (ties_fraction) so that callers can warn.
 *
 * The remedies are LEVELS (eps_lb_all.c) and ties broken at random
 * (eps_lb_tiebreak.c): a uniform U independent of the scores keeps every
 * method valid over the scores AND U together, but only if U is fresh for
 * each evaluation (a seed drawn afresh and reported).  A U fixed by one
 * seed and the world and rank of a score (tried first for issue 30) is one
 * realisation for every data set: on randomised response at ε = 1, n =
 * 4096 per world, SUM then certified 1.049 > 1 on 40 of 40 data sets
 * (bench_power_table).  A deterministic tie-break would need a lemma for
 * data-chosen block boundaries, which there is not. */

double ul_lb_ties_fraction(const double *a, size_t n_in, const double *b, size_t n_out)
{
    size_t i = 0, j = 0, tied = 0, n = n_in + n_out;
    while (i + j < n) { /* the merged ascending order, one block of equal scores at a time */
        double v = j >= n_out || (i < n_in && a[i] <= b[j]) ? a[i] : b[j];
        size_t c = 0;
        for (; i < n_in && a[i] == v; i++)
            c++;
        for (; j < n_out && b[j] == v; j++)
            c++;
        tied += c > 1 ? c : 0;
    }
    return n ? (double)tied / (double)n : 0;
}

/* ---- the family's tests ---------------------------------------------------- */

/* Forward test k on ascending a (IN) and b (OUT): t = b[n_out−1−k]. */
ul_lb_candidate ul_lb_forward_test(const double *a, size_t n_in, const double *b, size_t n_out,
                                   unsigned long k)
{
    double t = b[n_out - 1 - k];
    double thr = nextafter(t, INFINITY); /* "score > t" = "score ≥ next double" */
    size_t tp = ul_lb_count_ge(a, n_in, thr);
    ul_lb_candidate c = {+1, k, (unsigned long)(n_in - tp), thr, 0};
    return c;
}

/* Reversed test j: u = a[j], rule "IN iff score ≥ u". */
ul_lb_candidate ul_lb_reversed_test(const double *a, size_t n_in, const double *b, size_t n_out,
                                    unsigned long j)
{
    (void)n_in;
    double u = a[j];
    ul_lb_candidate c = {-1, (unsigned long)ul_lb_count_ge(b, n_out, u), j, u, 0};
    return c;
}

/* The grid K(n) of the options: ul_emp_lb_grid's counts, those ≤ k_max
 * only when k_max ≥ 0 (the grid ascends, so a prefix). */
size_t ul_lb_grid_of(unsigned long n, const ul_emp_lb_opts *o, unsigned long *ks, size_t cap)
{
    size_t c = ul_emp_lb_grid(n, ul_lb_ratio_of(o), ks, cap);
    if (o->k_max < 0)
        return c;
    size_t keep = 0;
    for (unsigned long k = 0; k < n && k <= (unsigned long)o->k_max;) { /* the same recursion */
        keep++;
        unsigned long next = (unsigned long)floor(ul_lb_ratio_of(o) * (double)k);
        k = next > k + 1 ? next : k + 1;
    }
    return keep < c ? keep : c;
}

/* All tests of the family, with their double estimates at level beta;
 * NULL when out of memory. */
ul_lb_candidate *ul_lb_family_tests(const double *a, size_t n_in, const double *b, size_t n_out,
                                    const ul_emp_lb_opts *o, double beta, double delta,
                                    size_t *count)
{
    size_t kf = ul_lb_grid_of(n_out, o, NULL, 0);
    size_t kr = o->one_sided ? 0 : ul_lb_grid_of(n_in, o, NULL, 0);
    unsigned long *ks = malloc((kf + kr + 1) * sizeof *ks);
    ul_lb_candidate *c = malloc((kf + kr + 1) * sizeof *c);
    if (!ks || !c) {
        free(ks), free(c);
        return NULL;
    }
    ul_lb_grid_of(n_out, o, ks, kf);
    for (size_t i = 0; i < kf; i++)
        c[i] = ul_lb_forward_test(a, n_in, b, n_out, ks[i]);
    ul_lb_grid_of(n_in, o, ks, kr);
    for (size_t i = 0; i < kr; i++)
        c[kf + i] = ul_lb_reversed_test(a, n_in, b, n_out, ks[i]);
    for (size_t i = 0; i < kf + kr; i++)
        c[i].est = ul_lb_eps_counts_d(c[i].fp, n_out, c[i].fn, n_in, beta, delta);
    free(ks);
    *count = kf + kr;
    return c;
}

/* Writes the certified e and the candidate's counts into res. */
void ul_lb_record(ul_emp_lb_result *res, const ul_lb_candidate *c, mpfr_srcptr e, size_t n_in,
                  size_t n_out)
{
    mpfr_set(res->eps_lb, e, MPFR_RNDD);
    res->direction = c->dir;
    res->threshold = c->threshold;
    res->fp = c->fp;
    res->fn = c->fn;
    res->n_in = (unsigned long)n_in;
    res->n_out = (unsigned long)n_out;
    res->estimate = c->est;
}

/* Certifies the candidates whose estimate is within TIE_TOL of the best
 * (at most N_CERTIFY) with m tests paid for; keeps the largest. */
ul_status ul_lb_certify_best(ul_emp_lb_result *res, const ul_lb_candidate *c, size_t nc,
                             size_t n_in, size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                             unsigned long m, char *err, size_t errlen)
{
    double best = -1;
    for (size_t i = 0; i < nc; i++)
        if (c[i].est > best)
            best = c[i].est;
    mpfr_t e;
    mpfr_init2(e, 64);
    ul_status st = UL_OK;
    size_t done = 0;
    bool have = false;
    for (size_t i = 0; i < nc && done < N_CERTIFY; i++) {
        if (c[i].est < best - TIE_TOL)
            continue;
        done++;
        ul_status s =
            ul_emp_eps_lb_counts(e, c[i].fp, (unsigned long)n_out, c[i].fn, (unsigned long)n_in,
                                 alpha, delta, m, NULL, NULL, err, errlen);
        if (s != UL_OK && s != UL_ECAP) {
            st = s;
            break;
        }
        if (s == UL_ECAP)
            st = UL_ECAP;
        if (!have || mpfr_greater_p(e, res->eps_lb)) {
            ul_lb_record(res, &c[i], e, n_in, n_out);
            have = true;
        }
    }
    mpfr_clear(e);
    res->m = m;
    return st;
}

/* inf(alpha)/div rounded down (a double level for the searches). */
double ul_lb_beta_d(mpfi_srcptr alpha, double div)
{
    return mpfr_get_d(&alpha->left, MPFR_RNDD) / div;
}

/* Search in doubles (JOINT and SUM, stats/eps_lb.h): the largest ε in
 * [0, 64) whose double p-value is ≤ level, by one bisection of `halvings`
 * steps (to 64·2^−halvings); 0 when ε = 0 is not rejected.  Only its result
 * is certified (ul_lb_certify_eps). */
double ul_lb_search_eps_d(ul_lb_pvalue_d_fn p, const void *test, double delta, double level,
                          int halvings)
{
    if (p(test, 0, delta, level) > level)
        return 0;
    double lo = 0, hi = 64;
    for (int it = 0; it < halvings; it++) {
        double mid = 0.5 * (lo + hi);
        if (p(test, mid, delta, level) <= level)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Certifies a double estimate est of the largest ε a test rejects (JOINT and
 * SUM, stats/eps_lb.h: their p-value bounds increase in ε, so every ε whose
 * bound is ≤ the level is a valid lower bound): e = the first of est, est
 * lowered by 1e-6·max(1, est)·10^i (i < tries; the double search may sit a
 * hair above the certified root), whose bound pv, computed in `prec` bits,
 * is ≤ inf(level); 0 when none is.  A failing pv stops and is returned. */
ul_status ul_lb_certify_eps(mpfr_ptr e, ul_lb_pvalue_upper_fn pv, const void *test, double est,
                            int tries, mpfr_prec_t prec, mpfi_srcptr level, mpfi_srcptr delta,
                            char *err, size_t errlen)
{
    mpfr_t p, ee;
    mpfr_inits2(prec, p, ee, (mpfr_ptr)0);
    mpfr_set_zero(e, 1);
    ul_status st = UL_OK;
    for (int attempt = 0; attempt < tries && est > 0 && st == UL_OK; attempt++) {
        mpfr_set_d(ee, est, MPFR_RNDN); /* exact */
        st = pv(p, test, ee, delta, err, errlen);
        if (st == UL_OK && mpfr_lessequal_p(p, &level->left)) {
            mpfr_set(e, ee, MPFR_RNDD);
            break;
        }
        est -= 1e-6 * fmax(1, est) * pow(10, attempt);
    }
    mpfr_clears(p, ee, (mpfr_ptr)0);
    return st;
}

/* The number of tests of the family (the Bonferroni m). */
size_t ul_lb_family_size(size_t n_in, size_t n_out, const ul_emp_lb_opts *o)
{
    return ul_lb_grid_of(n_out, o, NULL, 0) + (o->one_sided ? 0 : ul_lb_grid_of(n_in, o, NULL, 0));
}
