/* src/stats/eps_lb.c — valid ε lower bounds from scores (stats/eps_lb.h has
 * the lemma and the theorem; this file cites them by name).
 *
 * Doubles rank the candidates (Clopper–Pearson by bisection on a
 * log-space binomial sum; the one-run p-value likewise); the chosen ones are
 * certified by ul_emp_eps_lb_counts (stats/stats.h) or by the cell covering
 * of ul_emp_onerun_eps, both in MPFR/MPFI with outward rounding. */
#include "stats/eps_lb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/gdp.h"
#include "stats/stats.h"
#include "num/encl.h"

#define DEFAULT_RATIO 1.25
#define JOINT_RATIO 4.0 /* bench_power: the joint test's optimum is flat in k, few tests win */
#define DEFAULT_SPLIT 0.25
#define SUM_K_MAX UL_EMP_SUM_K_MAX /* stats/eps_lb.h */
#define N_CERTIFY 4  /* candidates certified at most (ties of the double ranking) */
#define TIE_TOL 1e-6 /* double estimates this close to the best are certified too */

/* The grid ratio: the option, or the method's default. */
static double ratio_of(const ul_emp_lb_opts *o)
{
    return o->ratio > 0 ? o->ratio : o->method == UL_EMP_LB_JOINT ? JOINT_RATIO : DEFAULT_RATIO;
}

ul_emp_lb_opts ul_emp_lb_defaults(void)
{
    ul_emp_lb_opts o = {UL_EMP_LB_FAMILY, false, 0.0, DEFAULT_SPLIT, 0.0, false, -1};
    return o;
}

void ul_emp_lb_init(ul_emp_lb_result *res)
{
    memset(res, 0, sizeof *res);
    mpfr_init2(res->eps_lb, 64);
    mpfr_set_zero(res->eps_lb, 1);
    res->threshold = INFINITY;
    res->estimate = 0;
}

void ul_emp_lb_clear(ul_emp_lb_result *res)
{
    mpfr_clear(res->eps_lb);
}

/* ---- doubles: binomial tails and Clopper–Pearson (ranking only) ----------- */

double ul_emp_log_choose(unsigned long n, unsigned long k)
{
    return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

/* Continued fraction of the incomplete beta function, modified Lentz
 * (Press et al., Numerical Recipes, 3rd ed., §6.4, eq. 6.4.5). */
static double betacf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = 1 / (fabs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 10000; m++) {
        double m2 = 2.0 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        for (int half = 0; half < 2; half++) {
            d = 1 + aa * d;
            d = 1 / (fabs(d) < tiny ? tiny : d);
            c = 1 + aa / c;
            c = fabs(c) < tiny ? tiny : c;
            h *= d * c;
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        }
        if (fabs(d * c - 1) < 1e-15)
            break;
    }
    return h;
}

/* Regularised incomplete beta I_x(a, b) (NR eq. 6.4.9 with the symmetry
 * I_x(a, b) = 1 − I_{1−x}(b, a) for convergence). */
static double betai(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    if (x < (a + 1) / (a + b + 2))
        return exp(lbt) * betacf(a, b, x) / a;
    return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

/* P[Bin(n, p) ≤ k] = I_{1−p}(n − k, k + 1) (NR eq. 6.4.12). */
static double binom_cdf_d(unsigned long k, unsigned long n, double p)
{
    if (k >= n || p <= 0)
        return 1;
    if (p >= 1)
        return 0;
    return betai((double)(n - k), (double)k + 1, 1 - p);
}

double ul_emp_cp_upper_d(unsigned long k, unsigned long n, double beta)
{
    if (k >= n)
        return 1;
    double lo = 0, hi = 1; /* cdf(lo) > beta ≥ cdf(hi) */
    for (int it = 0; it < 60; it++) {
        double mid = 0.5 * (lo + hi);
        if (binom_cdf_d(k, n, mid) > beta)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* ε from upper bounds f (FPR) and g (FNR), as ul_emp_eps_lb_counts. */
static double eps_from_bounds(double f, double g, double delta)
{
    double e1 = (1 - delta - g) > 0 ? log((1 - delta - g) / f) : -INFINITY;
    double e2 = (1 - delta - f) > 0 ? log((1 - delta - f) / g) : -INFINITY;
    double e = e1 > e2 ? e1 : e2;
    return e > 0 ? e : 0;
}

static double eps_counts_d(unsigned long fp, unsigned long n_out, unsigned long fn,
                           unsigned long n_in, double beta, double delta)
{
    return eps_from_bounds(ul_emp_cp_upper_d(fp, n_out, beta), ul_emp_cp_upper_d(fn, n_in, beta),
                           delta);
}

/* ---- the grid and sorted counts ------------------------------------------- */

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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Out of memory for an array sized by the scores (policy of num/status.h:
 * UL_ENOMEM naming the size, never abort). */
static ul_status no_room(char *err, size_t errlen, const char *what, size_t n_in, size_t n_out)
{
    return ul_fail(err, errlen, UL_ENOMEM,
                   "eps_lb: out of memory for %s of %zu in_scores and %zu out_scores", what, n_in,
                   n_out);
}

/* An ascending copy of s[0..n); NULL when out of memory (the caller reports
 * it with no_room). */
static double *sorted_copy(const double *s, size_t n)
{
    double *c = malloc((n ? n : 1) * sizeof *c);
    if (!c)
        return NULL;
    memcpy(c, s, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp_double);
    return c;
}

/* Number of entries of the ascending array a[0..n) that are ≥ t. */
static size_t count_ge(const double *a, size_t n, double t)
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
    if (!(o->ratio == 0 || (o->ratio > 1 && o->ratio <= 16)))
        return ul_fail(err, errlen, UL_EINPUT, "ratio must lie in (1, 16] (0: the default 1.25)");
    if (o->method == UL_EMP_LB_FIXED && !isfinite(o->threshold))
        return ul_fail(err, errlen, UL_EINPUT, "threshold must be a finite number");
    if (o->method == UL_EMP_LB_SUM && o->k_max >= SUM_K_MAX)
        return ul_fail(err, errlen, UL_EINPUT,
                       "k_max: the sum test uses at most %d order statistics (k_max <= %d)",
                       SUM_K_MAX, SUM_K_MAX - 1);
    if (o->method == UL_EMP_LB_SPLIT && !(o->split_frac > 0 && o->split_frac < 1))
        return ul_fail(err, errlen, UL_EINPUT, "split_frac must lie strictly inside (0, 1)");
    return UL_OK;
}

/* ---- the family ----------------------------------------------------------------- */

typedef struct {
    int dir;              /* +1 forward, −1 reversed */
    unsigned long fp, fn; /* design/observed counts as the lemma prescribes */
    double threshold;     /* rule "IN iff score ≥ threshold" */
    double est;
} candidate;

/* Forward test k on ascending a (IN) and b (OUT): t = b[n_out−1−k]. */
static candidate forward_test(const double *a, size_t n_in, const double *b, size_t n_out,
                              unsigned long k)
{
    double t = b[n_out - 1 - k];
    double thr = nextafter(t, INFINITY); /* "score > t" = "score ≥ next double" */
    size_t tp = count_ge(a, n_in, thr);
    candidate c = {+1, k, (unsigned long)(n_in - tp), thr, 0};
    return c;
}

/* Reversed test j: u = a[j], rule "IN iff score ≥ u". */
static candidate reversed_test(const double *a, size_t n_in, const double *b, size_t n_out,
                               unsigned long j)
{
    (void)n_in;
    double u = a[j];
    candidate c = {-1, (unsigned long)count_ge(b, n_out, u), j, u, 0};
    return c;
}

/* All tests of the family, with their double estimates at level beta. */
/* The grid K(n) of the options: ul_emp_lb_grid's counts, those ≤ k_max
 * only when k_max ≥ 0 (the grid ascends, so a prefix). */
static size_t grid_of(unsigned long n, const ul_emp_lb_opts *o, unsigned long *ks, size_t cap)
{
    size_t c = ul_emp_lb_grid(n, ratio_of(o), ks, cap);
    if (o->k_max < 0)
        return c;
    size_t keep = 0;
    for (unsigned long k = 0; k < n && k <= (unsigned long)o->k_max;) { /* the same recursion */
        keep++;
        unsigned long next = (unsigned long)floor(ratio_of(o) * (double)k);
        k = next > k + 1 ? next : k + 1;
    }
    return keep < c ? keep : c;
}

static candidate *family_tests(const double *a, size_t n_in, const double *b, size_t n_out,
                               const ul_emp_lb_opts *o, double beta, double delta, size_t *count)
{
    size_t kf = grid_of(n_out, o, NULL, 0);
    size_t kr = o->one_sided ? 0 : grid_of(n_in, o, NULL, 0);
    unsigned long *ks = malloc((kf + kr + 1) * sizeof *ks);
    candidate *c = malloc((kf + kr + 1) * sizeof *c);
    if (!ks || !c) {
        free(ks), free(c);
        return NULL;
    }
    grid_of(n_out, o, ks, kf);
    for (size_t i = 0; i < kf; i++)
        c[i] = forward_test(a, n_in, b, n_out, ks[i]);
    grid_of(n_in, o, ks, kr);
    for (size_t i = 0; i < kr; i++)
        c[kf + i] = reversed_test(a, n_in, b, n_out, ks[i]);
    for (size_t i = 0; i < kf + kr; i++)
        c[i].est = eps_counts_d(c[i].fp, n_out, c[i].fn, n_in, beta, delta);
    free(ks);
    *count = kf + kr;
    return c;
}

static void record(ul_emp_lb_result *res, const candidate *c, mpfr_srcptr e, size_t n_in,
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
static ul_status certify_best(ul_emp_lb_result *res, const candidate *c, size_t nc, size_t n_in,
                              size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta, unsigned long m,
                              char *err, size_t errlen)
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
            record(res, &c[i], e, n_in, n_out);
            have = true;
        }
    }
    mpfr_clear(e);
    res->m = m;
    return st;
}

static double beta_d(mpfi_srcptr alpha, double div)
{
    return mpfr_get_d(&alpha->left, MPFR_RNDD) / div;
}

/* A test's p-value in doubles at ε (it increases in ε; `level` may end
 * the computation early once the value is above it). */
typedef double (*pvalue_d_fn)(const void *test, double eps, double delta, double level);

/* Search in doubles (JOINT and SUM, stats/eps_lb.h): the largest ε in
 * [0, 64) whose double p-value is ≤ level, by one bisection of `halvings`
 * steps (to 64·2^−halvings); 0 when ε = 0 is not rejected.  Only its result
 * is certified (certify_eps). */
static double search_eps_d(pvalue_d_fn p, const void *test, double delta, double level,
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

/* A test's certified p-value bound at ε (rounded up; it increases in ε). */
typedef ul_status (*pvalue_upper_fn)(mpfr_ptr p, const void *test, mpfr_srcptr eps,
                                     mpfi_srcptr delta, char *err, size_t errlen);

/* Certifies a double estimate est of the largest ε a test rejects (JOINT and
 * SUM, stats/eps_lb.h: their p-value bounds increase in ε, so every ε whose
 * bound is ≤ the level is a valid lower bound): e = the first of est, est
 * lowered by 1e-6·max(1, est)·10^i (i < tries; the double search may sit a
 * hair above the certified root), whose bound pv, computed in `prec` bits,
 * is ≤ inf(level); 0 when none is.  A failing pv stops and is returned. */
static ul_status certify_eps(mpfr_ptr e, pvalue_upper_fn pv, const void *test, double est,
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
static size_t family_size(size_t n_in, size_t n_out, const ul_emp_lb_opts *o)
{
    return grid_of(n_out, o, NULL, 0) + (o->one_sided ? 0 : grid_of(n_in, o, NULL, 0));
}

static ul_status run_family(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                            size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                            const ul_emp_lb_opts *o, char *err, size_t errlen)
{
    size_t m = family_size(n_in, n_out, o), nc;
    double dd = mpfr_get_d(&delta->right, MPFR_RNDU);
    candidate *c = family_tests(a, n_in, b, n_out, o, beta_d(alpha, 2.0 * (double)m), dd, &nc);
    if (!c)
        return no_room(err, errlen, "the family's tests", n_in, n_out);
    ul_status st =
        certify_best(res, c, nc, n_in, n_out, alpha, delta, (unsigned long)m, err, errlen);
    free(c);
    return st;
}

/* ---- every distinct threshold (the legacy statistic) ----------------------------- */

/* Candidates: the staircase's Pareto corners (most true positives for their
 * false positives, fewest false positives for their true positives); every
 * other threshold has larger fp and fn and so a smaller bound, which makes
 * the maximum over the corners the maximum over all thresholds. */
static ul_status run_all(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                         size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta, char *err,
                         size_t errlen)
{
    size_t cap = n_in + n_out + 1, nc = 0;
    unsigned long *fp = malloc(cap * sizeof *fp), *tp = malloc(cap * sizeof *tp);
    double *thr = malloc(cap * sizeof *thr);
    candidate *c = malloc(cap * sizeof *c);
    if (!fp || !tp || !thr || !c) {
        free(fp), free(tp), free(thr), free(c);
        return no_room(err, errlen, "the thresholds", n_in, n_out);
    }
    size_t m = ul_emp_roc_counts(a, n_in, b, n_out, fp, tp, thr);
    double beta = beta_d(alpha, 2.0 * (double)m), dd = mpfr_get_d(&delta->right, MPFR_RNDU);
    for (size_t i = 1; i <= m; i++) {
        if (tp[i] == tp[i - 1] || (i < m && fp[i + 1] == fp[i]))
            continue;
        c[nc] = (candidate){+1, fp[i], (unsigned long)n_in - tp[i], thr[i], 0};
        c[nc].est = eps_counts_d(c[nc].fp, n_out, c[nc].fn, n_in, beta, dd);
        nc++;
    }
    ul_status st =
        certify_best(res, c, nc, n_in, n_out, alpha, delta, (unsigned long)m, err, errlen);
    free(fp), free(tp), free(thr), free(c);
    return st;
}

/* ---- the joint test on the family's thresholds ------------------------------- */

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
    qsort(f, J, sizeof *f, cmp_double);
    for (size_t i = 0; i < J; i++)
        if (f[i] < 1 && (m == 0 || f[i] > f[m - 1]))
            f[m++] = f[i];
    return m;
}

/* P[Bin(n, p) ≥ x] = I_p(x, n − x + 1) (NR eq. 6.4.12). */
static double binom_sf_d(unsigned long x, unsigned long n, double p)
{
    if (x == 0 || p >= 1)
        return 1;
    return p <= 0 ? 0 : betai((double)x, (double)(n - x) + 1, p);
}

/* The bound of ul_emp_joint_pvalue_upper (stats/stats.h) in doubles. */
static double joint_p_d(unsigned long k, unsigned long n0, unsigned long x, unsigned long n1,
                        double eps, double delta, const double *f, size_t J)
{
    double acc = 0, s = binom_sf_d(x, n1, fmin(1, exp(eps) * f[0] + delta));
    for (size_t j = 0; j < J; j++) {
        double next = j + 1 < J ? binom_sf_d(x, n1, fmin(1, exp(eps) * f[j + 1] + delta)) : 1;
        acc += (1 - binom_cdf_d(k, n0, f[j])) * (next - s);
        s = next;
    }
    return 1 - acc;
}

/* The joint test's (k, n0, x, n1) for a family candidate. */
static void joint_counts(const candidate *c, size_t n_in, size_t n_out, unsigned long *k,
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

static void joint_test_of(joint_test *t, const candidate *c, size_t n_in, size_t n_out,
                          double level)
{
    joint_counts(c, n_in, n_out, &t->k, &t->n0, &t->x, &t->n1);
    t->J = joint_grid(t->k, t->n0, level, t->f);
}

/* The double p-value of the test (search_eps_d). */
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

/* Certifies the candidate's double estimate (certify_eps, 4 tries, 64 bits). */
static ul_status joint_certify(mpfr_ptr e, const candidate *c, size_t n_in, size_t n_out,
                               mpfi_srcptr level, mpfi_srcptr delta, char *err, size_t errlen)
{
    joint_test t;
    joint_test_of(&t, c, n_in, n_out, mpfr_get_d(&level->left, MPFR_RNDD));
    return certify_eps(e, joint_pvalue, &t, c->est, 4, 64, level, delta, err, errlen);
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
    unsigned long d = 1UL << (j + 1 < L ? j + 1 : L - 1); /* L ≤ 63 or 64: check_weights */
    return o->one_sided ? d : 2 * d;
}

/* Geometric weights need every divisor 2^e (two-sided 2^(e+1)) to fit an
 * unsigned long: e ≤ L − 1 with L the larger direction's grid, so at most
 * 64 grid counts one-sided and 63 two-sided (a larger grid, from a small
 * ratio, would wrap the shift and give weights summing above 1). */
static ul_status check_weights(size_t n_in, size_t n_out, const ul_emp_lb_opts *o, char *err,
                               size_t errlen)
{
    if (o->method != UL_EMP_LB_JOINT || !o->geometric)
        return UL_OK;
    size_t L = grid_of(n_out, o, NULL, 0), Lr = o->one_sided ? 0 : grid_of(n_in, o, NULL, 0);
    L = Lr > L ? Lr : L;
    size_t cap = o->one_sided ? 64 : 63;
    if (L <= cap)
        return UL_OK;
    return ul_fail(err, errlen, UL_EINPUT,
                   "ratio: geometric weights allow at most %zu grid counts per direction (%s), "
                   "ratio %g gives %zu here; use a larger ratio, k_max or equal weights",
                   cap, o->one_sided ? "one-sided" : "two-sided", ratio_of(o), L);
}

static ul_status run_joint(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                           size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                           const ul_emp_lb_opts *o, char *err, size_t errlen)
{
    size_t m = family_size(n_in, n_out, o), nc, best = 0;
    size_t kf = grid_of(n_out, o, NULL, 0);
    double dd = mpfr_get_d(&delta->right, MPFR_RNDU), a_d = beta_d(alpha, 1.0);
    candidate *c = family_tests(a, n_in, b, n_out, o, a_d / (double)m / 2, dd, &nc);
    if (!c)
        return no_room(err, errlen, "the family's tests", n_in, n_out);
    for (size_t i = 0; i < nc; i++) { /* every test: its whole level, one p-value */
        double level = a_d / (double)joint_divisor(i, kf, m, o);
        joint_test t;
        joint_test_of(&t, &c[i], n_in, n_out, level);
        c[i].est = t.x == 0 ? 0 : search_eps_d(joint_p_search, &t, dd, level, 40);
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
        record(res, &c[best], e, n_in, n_out);
    res->m = (unsigned long)m;
    res->divisor = div;
    mpfr_clear(e);
    mpfi_clear(lev);
    free(c);
    return st;
}

/* ---- the weighted sum over order statistics (SUM; stats/eps_lb.h) ------------ */

#define SUM_K_DEFAULT 5  /* bench_eps_lb_weights: K = 4…8 within 0.01 of the best at μ = 2 */
#define SUM_GRID 1200 /* the grid of ℓ for the Riemann–Stieltjes sum: steps of 0.5 % */
#define SUM_LO 0.05   /* it runs from SUM_LO·E[L] … */
#define SUM_HI 30.0   /* … to SUM_HI·E[L] (the tail there: below e^-30 for every K) */
#define SUM_TAIL_END 1e-10 /* or to the first ℓ whose tail is below this */
/* The search's halvings: to 64·2^-33 ≈ 7.5e-9, the resolution of the former
 * two-pass search.  A finer one can land closer to the double root than the
 * doubles' own error, and certify_eps then has to lower ε by 1e-6 (40
 * halvings: 1 of 612 fixed runs; 33: none). */
#define SUM_HALVINGS 33

/* The design of one direction: it depends on (K, n0) only. */
typedef struct {
    size_t K;                  /* thresholds t_(0) … t_(K−1) */
    unsigned long c[SUM_K_MAX]; /* weights c_k = lcm(1…K)/(k + 1) */
    double C;                  /* Σ c_k (an exact integer) */
    unsigned long n0;          /* the thresholds' world */
    size_t J;
    double l[SUM_GRID], T[SUM_GRID]; /* T_j ≥ P[L > l_j], certified */
} sum_design;

/* One direction's test: its design, the counted world's size, the statistic. */
typedef struct {
    const sum_design *D;
    unsigned long n1;
    unsigned long long s;
} sum_test;

/* K of the options: k_max + 1 when k_max ≥ 0, else the default; at most n0. */
static size_t sum_k(const ul_emp_lb_opts *o, unsigned long n0)
{
    size_t K = o->k_max >= 0 ? (size_t)o->k_max + 1 : SUM_K_DEFAULT;
    return K < n0 ? K : (size_t)n0;
}

static unsigned long gcd_ul(unsigned long a, unsigned long b)
{
    while (b) {
        unsigned long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* c_k = lcm(1…K)/(k + 1): weights ∝ 1/(k + 1), exact integers. */
static void sum_weights(size_t K, unsigned long *c)
{
    unsigned long l = 1;
    for (unsigned long k = 2; k <= K; k++)
        l = l / gcd_ul(l, k) * k;
    for (size_t k = 0; k < K; k++)
        c[k] = l / (k + 1);
}

/* The exact tail of L = Σ_k c_k U_(k+1) (stats/eps_lb.h, SUM): with d_j =
 * Σ_{k≥j} c_k, a_j = d_j − ℓ > 0 and m = n0 + 1 − K,
 *     P[L > ℓ] = Σ_j Π_{i≠j} a_j/(a_j − a_i) · (1 + ℓ/a_j)^(−m)
 * (Rényi's representation and the hypoexponential survival function), in
 * MPFI at 256 bits; a_j − a_i = d_j − d_i is an exact integer. */
double ul_emp_sum_tail_upper(const unsigned long *c, size_t K, unsigned long n0, double ell)
{
    if (K == 0 || K > n0 || K > SUM_K_MAX || !(ell > 0))
        return 1;
    double d[SUM_K_MAX], acc_d = 0;
    for (size_t j = K; j-- > 0;)
        d[j] = acc_d += (double)c[j];
    if (ell >= d[K - 1]) /* some a_j ≤ 0: the formula above does not apply */
        return 1;
    mpfi_t v[4];
    for (int i = 0; i < 4; i++)
        mpfi_init2(v[i], 256);
    mpfi_ptr a = v[0], t = v[1], u = v[2], acc = v[3];
    mpfi_set_ui(acc, 0);
    for (size_t j = 0; j < K; j++) {
        mpfi_set_d(a, d[j]);
        mpfi_sub_d(a, a, ell);
        mpfi_set_ui(t, 1);
        for (size_t i = 0; i < K; i++)
            if (i != j) {
                mpfi_div_d(u, a, d[j] - d[i]); /* exact integer divisor */
                mpfi_mul(t, t, u);
            }
        mpfi_d_div(u, ell, a);
        mpfi_log1p(u, u);
        mpfi_mul_ui(u, u, n0 + 1 - K);
        mpfi_neg(u, u);
        mpfi_exp(u, u);
        mpfi_mul(t, t, u);
        mpfi_add(acc, acc, t);
    }
    double r = mpfr_get_d(&acc->right, MPFR_RNDU);
    for (int i = 0; i < 4; i++)
        mpfi_clear(v[i]);
    return isnan(r) || r > 1 ? 1 : r < 0 ? 0 : r;
}

/* The design: weights, and the certified tails of L on a grid of ℓ,
 * geometric from SUM_LO·E[L] to SUM_HI·E[L] (E[U_(k+1)] = (k+1)/(n0+1)),
 * kept below d_(K−1) = c_(K−1) (where the tail formula holds). */
static void sum_design_init(sum_design *D, size_t K, unsigned long n0)
{
    D->K = K, D->n0 = n0, D->C = 0;
    sum_weights(K, D->c);
    double mean = 0;
    for (size_t k = 0; k < K; k++) {
        D->C += (double)D->c[k];
        mean += (double)D->c[k] * (double)(k + 1) / ((double)n0 + 1);
    }
    double lo = SUM_LO * mean, hi = fmin(SUM_HI * mean, 0.999 * (double)D->c[K - 1]);
    D->J = 0;
    for (size_t j = 0; j < SUM_GRID && lo < hi; j++) {
        D->l[D->J] = lo * pow(hi / lo, (double)j / (SUM_GRID - 1));
        D->T[D->J] = ul_emp_sum_tail_upper(D->c, K, n0, D->l[D->J]);
        if (D->T[D->J++] < SUM_TAIL_END) /* the rest adds at most this to the p-value */
            break;
    }
}

/* The design of (K, n0), kept per thread for the next calls: its tails
 * (SUM_GRID MPFI evaluations) cost about 80 ms at K = 5 and 330 ms at
 * K = 16, more than a search and certification (1–130 ms), and repeated
 * calls at one size (benchmarks, tests over many seeds) reuse it.  The two
 * most recently used designs are kept, so the two of one call (forward and
 * reversed) never evict each other. */
static const sum_design *sum_design_of(size_t K, unsigned long n0)
{
    static _Thread_local sum_design cache[2];
    static _Thread_local int lru; /* the slot to replace next */
    int i = 0;
    while (i < 2 && !(cache[i].K == K && cache[i].n0 == n0))
        i++;
    if (i == 2) {
        i = lru;
        sum_design_init(&cache[i], K, n0);
    }
    lru = i ^ 1;
    return &cache[i];
}

/* S = Σ_k c_k #{i : a_i > t_(k)}, t_(k) the (k+1)-th largest of b
 * (ascending arrays a of n1, b of D->n0 scores). */
static unsigned long long sum_stat(const sum_design *D, const double *a, size_t n1, const double *b)
{
    unsigned long long s = 0;
    size_t idx = n1; /* a[idx…] > t */
    for (size_t k = 0; k < D->K; k++) {
        double t = b[D->n0 - 1 - k];
        while (idx > 0 && a[idx - 1] > t)
            idx--;
        s += (unsigned long long)D->c[k] * (n1 - idx);
    }
    return s;
}

/* Hoeffding's bound in doubles: exp(−n1·KL(x‖p)) for p < x, else 1. */
static double sum_h_d(double x, unsigned long n1, double p)
{
    if (p >= x)
        return 1;
    double kl = x * log(x / p) + (x < 1 ? (1 - x) * log((1 - x) / (1 - p)) : 0);
    return exp(-(double)n1 * kl);
}

/* E(B − h)_+ for B ~ Bin(n, p), integer h ≥ 0: Σ_{b>h} (b − h) P[B = b] =
 * n p P[Bin(n − 1, p) ≥ h] − h P[Bin(n, p) ≥ h + 1] (b·C(n, b) = n·C(n − 1,
 * b − 1)). */
static double excess_d(unsigned long h, unsigned long n, double p)
{
    return (double)n * p * binom_sf_d(h, n - 1, p) - (double)h * binom_sf_d(h + 1, n, p);
}

/* The convex-order bound (stats/eps_lb.h, SUM (ii')) in doubles at the count
 * xs = s/C: min over integers h < xs near the Chernoff tangent point
 * xs − 1/λ* of E(B − h)_+/(xs − h); 1 when p ≥ xs/n.  *h_out: the best h. */
static double conv_d(double xs, unsigned long n, double p, unsigned long *h_out)
{
    double f = xs / (double)n;
    *h_out = 0;
    if (n < 2 || p >= f || p <= 0)
        return 1;
    double lam = f < 1 ? log(f * (1 - p) / (p * (1 - f))) : INFINITY;
    double top = ceil(xs) - 1, h0 = floor(xs - 1 / lam), best = 1;
    for (double h = fmax(0, h0 - 2); h <= fmin(top, h0 + 2); h++) {
        double r = excess_d((unsigned long)h, n, p) / (xs - h);
        if (r < best)
            best = r, *h_out = (unsigned long)h;
    }
    return best;
}

/* g(ℓ) in doubles: the smaller of Hoeffding's bound and the convex one. */
static double sum_g_d(double x, unsigned long n1, double p)
{
    unsigned long h;
    double hb = sum_h_d(x, n1, p); /* below 1e-12 the convex bound cannot matter here */
    return hb < 1e-12 ? hb : fmin(hb, conv_d(x * (double)n1, n1, p, &h));
}

/* The p-value bound of stats/eps_lb.h (SUM) in doubles, the search's
 * p-value (search_eps_d; test is a sum_test): the upper Riemann–Stieltjes
 * sum of E[g(L)], g(ℓ) at p = e^ε ℓ/C + δ; the sum stops once it exceeds
 * `stop`, the level (its terms are ≥ 0: only "≤ level?" is asked). */
static double sum_p_d(const void *test, double eps, double delta, double stop)
{
    const sum_test *t = test;
    const sum_design *D = t->D;
    double x = (double)t->s / ((double)t->n1 * D->C), ee = exp(eps);
    double prev = sum_g_d(x, t->n1, ee * D->l[0] / D->C + delta), acc = prev;
    for (size_t j = 1; j < D->J && acc <= stop; j++) {
        double g = fmax(prev, sum_g_d(x, t->n1, ee * D->l[j] / D->C + delta));
        acc += (g - prev) * D->T[j - 1];
        prev = g;
    }
    return acc + (1 - prev) * D->T[D->J - 1];
}

/* g ≥ Hoeffding's bound exp(−n1·KL(x‖p̄)), x = s/(n1·C), certified: KL
 * enclosed in MPFI and taken at its lower end, exp rounded up; 1 when
 * p̄ ≥ x. */
static void hoeffding_upper(mpfr_ptr g, const sum_test *st, mpfr_srcptr pb)
{
    double n1C = (double)st->n1 * st->D->C;
    mpfr_t t;
    mpfi_t v[4];
    mpfr_init2(t, 128);
    for (int i = 0; i < 4; i++)
        mpfi_init2(v[i], 128);
    mpfi_ptr x = v[0], kl = v[1], u = v[2], q = v[3];
    mpfi_set_d(x, (double)st->s); /* s < 2^53: exact */
    mpfi_div_d(x, x, n1C);
    mpfr_set_ui(g, 1, MPFR_RNDU);
    if (mpfr_cmp(pb, &x->left) < 0) {
        mpfi_set_fr(q, pb);
        mpfi_div(kl, x, q); /* x·log(x/p̄) */
        mpfi_log(kl, kl);
        mpfi_mul(kl, kl, x);
        if ((double)st->s < n1C) { /* + (1 − x)·log((1 − x)/(1 − p̄)) */
            mpfi_ui_sub(u, 1, x);
            mpfi_ui_sub(q, 1, q);
            mpfi_div(q, u, q);
            mpfi_log(q, q);
            mpfi_mul(u, u, q);
            mpfi_add(kl, kl, u);
        }
        mpfr_mul_ui(t, &kl->left, st->n1, MPFR_RNDD);
        mpfr_neg(t, t, MPFR_RNDU);
        mpfr_exp(g, t, MPFR_RNDU);
        if (!(mpfr_cmp_ui(g, 1) <= 0))
            mpfr_set_ui(g, 1, MPFR_RNDU);
    }
    mpfr_clear(t);
    for (int i = 0; i < 4; i++)
        mpfi_clear(v[i]);
}

/* g ≥ the convex-order bound E(B − h)_+/(xs − h), B ~ Bin(n1, p̄), xs =
 * s/C, at the h the double search picks (any integer h < xs is valid):
 * n1 p̄ P[Bin(n1 − 1, p̄) ≥ h] rounded up minus h P[Bin(n1, p̄) ≥ h + 1]
 * rounded down, over xs − h rounded down (MPFR binomial tails, stats/stats.h).
 * g is left alone when the bound is not smaller or a tail fails. */
static void conv_upper(mpfr_ptr g, const sum_test *st, mpfr_srcptr pb)
{
    unsigned long h, n = st->n1;
    double xs = (double)st->s / st->D->C; /* for the choice of h only */
    double cd = conv_d(xs, n, mpfr_get_d(pb, MPFR_RNDU), &h);
    /* the MPFR tails only where they can lower g: the double value of the
     * same bound is far above g when they cannot (a skip only keeps g higher,
     * so it is sound; the margin covers the double's rounding) */
    if (cd >= 1 || cd >= mpfr_get_d(g, MPFR_RNDU) * (1 + 1e-9))
        return;
    mpfi_t t;
    mpfr_t num, den;
    mpfi_init2(t, 128);
    mpfr_inits2(128, num, den, (mpfr_ptr)0);
    char e[128];
    if (ul_emp_binom_sf(t, h, n - 1, pb, e, sizeof e) == UL_OK) {
        mpfr_mul(num, &t->right, pb, MPFR_RNDU);
        mpfr_mul_ui(num, num, n, MPFR_RNDU);
        if (ul_emp_binom_sf(t, h + 1, n, pb, e, sizeof e) == UL_OK) {
            mpfr_mul_ui(den, &t->left, h, MPFR_RNDD);
            mpfr_sub(num, num, den, MPFR_RNDU);
            mpfr_set_d(den, (double)st->s, MPFR_RNDD); /* exact */
            mpfr_div_d(den, den, st->D->C, MPFR_RNDD);
            mpfr_sub_ui(den, den, h, MPFR_RNDD);
            if (mpfr_sgn(den) > 0) {
                mpfr_div(num, num, den, MPFR_RNDU);
                if (mpfr_less_p(num, g))
                    mpfr_set(g, num, MPFR_RNDU);
            }
        }
    }
    mpfi_clear(t);
    mpfr_clears(num, den, (mpfr_ptr)0);
}

/* g(ℓ) certified: p̄ = e^ε ℓ/C + δ rounded up to a double (both bounds
 * grow with p), then the smaller of the two bounds. */
static void sum_h_upper(mpfr_ptr g, const sum_test *t, mpfr_srcptr eps, double ell,
                        mpfi_srcptr delta)
{
    mpfr_t pb;
    mpfr_init2(pb, 53);
    mpfr_exp(pb, eps, MPFR_RNDU);
    mpfr_mul_d(pb, pb, ell, MPFR_RNDU);
    mpfr_div_d(pb, pb, t->D->C, MPFR_RNDU);
    mpfr_add(pb, pb, &delta->right, MPFR_RNDU);
    hoeffding_upper(g, t, pb);
    if (mpfr_cmp_ui(pb, 1) < 0)
        conv_upper(g, t, pb);
    mpfr_clear(pb);
}

/* The p-value bound at ε, certified: g_0 + Σ_j (g_j − g_(j−1))·T_(j−1) +
 * (1 − g_(J−1))·T_(J−1) with the g_j made nondecreasing (still upper bounds
 * of a nondecreasing g), every step rounded up. */
static void sum_p_upper(mpfr_ptr out, const sum_test *t, mpfr_srcptr eps, mpfi_srcptr delta)
{
    const sum_design *D = t->D;
    mpfr_t prev, g, d;
    mpfr_inits2(128, prev, g, d, (mpfr_ptr)0);
    sum_h_upper(prev, t, eps, D->l[0], delta);
    mpfr_set(out, prev, MPFR_RNDU);
    for (size_t j = 1; j < D->J; j++) {
        sum_h_upper(g, t, eps, D->l[j], delta);
        mpfr_max(g, g, prev, MPFR_RNDU);
        mpfr_sub(d, g, prev, MPFR_RNDU);
        mpfr_mul_d(d, d, D->T[j - 1], MPFR_RNDU);
        mpfr_add(out, out, d, MPFR_RNDU);
        mpfr_set(prev, g, MPFR_RNDU);
    }
    mpfr_ui_sub(d, 1, prev, MPFR_RNDU);
    mpfr_mul_d(d, d, D->T[D->J - 1], MPFR_RNDU);
    mpfr_add(out, out, d, MPFR_RNDU);
    mpfr_clears(prev, g, d, (mpfr_ptr)0);
}

static ul_status sum_pvalue(mpfr_ptr p, const void *test, mpfr_srcptr eps, mpfi_srcptr delta,
                            char *err, size_t errlen)
{
    (void)err, (void)errlen;
    sum_p_upper(p, test, eps, delta);
    return UL_OK;
}

/* Certifies the double estimate est of the test (certify_eps, 6 tries,
 * 128 bits; sum_p_upper cannot fail). */
static void sum_certify(mpfr_ptr e, const sum_test *t, double est, mpfi_srcptr level,
                        mpfi_srcptr delta)
{
    certify_eps(e, sum_pvalue, t, est, 6, 128, level, delta, NULL, 0);
}

/* One direction of SUM: thresholds at the order statistics of b (n0,
 * ascending), counts of a (n1, ascending); the test and its estimate. */
static sum_test sum_direction(const double *a, size_t n1, const double *b, size_t n0,
                              const ul_emp_lb_opts *o, double delta, double level, double *est)
{
    sum_test t = {sum_design_of(sum_k(o, n0), n0), n1, 0};
    t.s = sum_stat(t.D, a, n1, b);
    bool none = t.s == 0 || t.D->J == 0; /* no IN score above a threshold, or no grid */
    *est = none ? 0 : search_eps_d(sum_p_d, &t, delta, level, SUM_HALVINGS);
    return t;
}

/* The reversed direction: OUT below the IN order statistics = the forward
 * test on the negated scores, the worlds swapped. */
static ul_status sum_reversed(sum_test *t, const double *a, size_t n_in, const double *b,
                              size_t n_out, const ul_emp_lb_opts *o, double delta, double level,
                              double *est, char *err, size_t errlen)
{
    double *na = malloc((n_out ? n_out : 1) * sizeof *na);
    double *nb = malloc((n_in ? n_in : 1) * sizeof *nb);
    if (!na || !nb) {
        free(na), free(nb);
        return no_room(err, errlen, "the negated scores", n_in, n_out);
    }
    for (size_t i = 0; i < n_out; i++)
        na[i] = -b[n_out - 1 - i];
    for (size_t i = 0; i < n_in; i++)
        nb[i] = -a[n_in - 1 - i];
    *t = sum_direction(na, n_out, nb, n_in, o, delta, level, est);
    free(na), free(nb);
    return UL_OK;
}

static ul_status run_sum(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                         size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                         const ul_emp_lb_opts *o, char *err, size_t errlen)
{
    unsigned long m = o->one_sided ? 1 : 2;
    double dd = mpfr_get_d(&delta->right, MPFR_RNDU), lev_d = beta_d(alpha, (double)m);
    double est[2] = {0, 0};
    sum_test t[2];
    t[0] = sum_direction(a, n_in, b, n_out, o, dd, lev_d, &est[0]);
    if (!o->one_sided) {
        ul_status st = sum_reversed(&t[1], a, n_in, b, n_out, o, dd, lev_d, &est[1], err, errlen);
        if (st != UL_OK)
            return st;
    }
    int w = est[1] > est[0];
    mpfi_t lev;
    mpfi_init2(lev, mpfi_get_prec(alpha) + 32);
    mpfi_div_ui(lev, alpha, m);
    mpfr_t e;
    mpfr_init2(e, 64);
    sum_certify(e, &t[w], est[w], lev, delta);
    size_t K = t[w].D->K;
    candidate c = w == 0 ? forward_test(a, n_in, b, n_out, K - 1)
                         : reversed_test(a, n_in, b, n_out, K - 1);
    c.est = est[w];
    record(res, &c, e, n_in, n_out);
    res->m = res->divisor = m;
    for (unsigned long d = 0; d < m; d++) { /* the weights of each direction, as used */
        res->sum_K[d] = t[d].D->K;
        memcpy(res->sum_c[d], t[d].D->c, t[d].D->K * sizeof t[d].D->c[0]);
    }
    mpfr_clear(e);
    mpfi_clear(lev);
    return UL_OK;
}

/* ---- fixed threshold ------------------------------------------------------------- */

static ul_status run_fixed(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                           size_t n_out, double t, mpfi_srcptr alpha, mpfi_srcptr delta, char *err,
                           size_t errlen)
{
    candidate c = {+1, (unsigned long)count_ge(b, n_out, t),
                   (unsigned long)(n_in - count_ge(a, n_in, t)), t, 0};
    c.est = eps_counts_d(c.fp, n_out, c.fn, n_in, beta_d(alpha, 2),
                         mpfr_get_d(&delta->right, MPFR_RNDU));
    return certify_best(res, &c, 1, n_in, n_out, alpha, delta, 1, err, errlen);
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
    candidate *c = family_tests(pa, np_in, pb, np_out, o, beta, delta, &nc);
    if (!c)
        return no_room(err, errlen, "the pilot's tests", np_in, np_out);
    double best = -1;
    *thr = INFINITY;
    for (size_t i = 0; i < nc; i++) {
        unsigned long fp =
            (unsigned long)llround((double)c[i].fp * (double)nc_out / (double)np_out);
        unsigned long fn = (unsigned long)llround((double)c[i].fn * (double)nc_in / (double)np_in);
        double e = eps_counts_d(fp < nc_out ? fp : nc_out, nc_out, fn < nc_in ? fn : nc_in, nc_in,
                                beta, delta);
        if (e > best) {
            best = e;
            *thr = c[i].threshold;
        }
    }
    free(c);
    return UL_OK;
}

static ul_status run_split(ul_emp_lb_result *res, const double *in, size_t n_in, const double *out,
                           size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                           const ul_emp_lb_opts *o, char *err, size_t errlen)
{
    size_t p_in = (size_t)floor(o->split_frac * (double)n_in);
    size_t p_out = (size_t)floor(o->split_frac * (double)n_out);
    if (p_in < 1 || p_out < 1 || p_in >= n_in || p_out >= n_out)
        return ul_fail(err, errlen, UL_EINPUT,
                       "split_frac %g leaves an empty part (n_in %zu, n_out %zu)", o->split_frac,
                       n_in, n_out);
    double *pa = sorted_copy(in, p_in), *pb = sorted_copy(out, p_out);
    double *ca = sorted_copy(in + p_in, n_in - p_in), *cb = sorted_copy(out + p_out, n_out - p_out);
    double t = INFINITY;
    ul_status st =
        pa && pb && ca && cb
            ? split_choose(&t, pa, p_in, pb, p_out, n_in - p_in, n_out - p_out, o, beta_d(alpha, 2),
                           mpfr_get_d(&delta->right, MPFR_RNDU), err, errlen)
            : no_room(err, errlen, "the sorted copies", n_in, n_out);
    if (st == UL_OK)
        st = run_fixed(res, ca, n_in - p_in, cb, n_out - p_out, t, alpha, delta, err, errlen);
    free(pa);
    free(pb);
    free(ca);
    free(cb);
    return st;
}

/* ---- one run ------------------------------------------------------------------- */

/* The methods on the ascending copies a (IN), b (OUT). */
static ul_status run_sorted(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                            size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                            const ul_emp_lb_opts *o, char *err, size_t errlen)
{
    switch (o->method) {
    case UL_EMP_LB_FIXED:
        return run_fixed(res, a, n_in, b, n_out, o->threshold, alpha, delta, err, errlen);
    case UL_EMP_LB_ALL:
        return run_all(res, a, n_in, b, n_out, alpha, delta, err, errlen);
    case UL_EMP_LB_JOINT:
        return run_joint(res, a, n_in, b, n_out, alpha, delta, o, err, errlen);
    case UL_EMP_LB_SUM:
        return run_sum(res, a, n_in, b, n_out, alpha, delta, o, err, errlen);
    case UL_EMP_LB_ONERUN:
        return ul_emp_onerun_family(res, a, n_in, b, n_out, alpha, delta, o, err, errlen);
    default:
        return run_family(res, a, n_in, b, n_out, alpha, delta, o, err, errlen);
    }
}

ul_status ul_emp_eps_lb(ul_emp_lb_result *res, const double *in, size_t n_in, const double *out,
                        size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta, const ul_emp_lb_opts *o,
                        char *err, size_t errlen)
{
    ul_num_init();
    ul_status st = check_common(in, n_in, out, n_out, alpha, delta, o, err, errlen);
    if (st == UL_OK)
        st = check_weights(n_in, n_out, o, err, errlen);
    if (st != UL_OK)
        return st;
    if (o->method == UL_EMP_LB_SPLIT) {
        st = run_split(res, in, n_in, out, n_out, alpha, delta, o, err, errlen);
        res->divisor = res->divisor ? res->divisor : res->m;
        return st;
    }
    double *a = sorted_copy(in, n_in), *b = sorted_copy(out, n_out);
    st = a && b ? run_sorted(res, a, n_in, b, n_out, alpha, delta, o, err, errlen)
                : no_room(err, errlen, "the sorted copies", n_in, n_out);
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

/* jax_privacy `epsilon_clopper_pearson(significance, delta, one_sided=True,
 * Bonferroni())` (jax_privacy/auditing, as bench_power re-implements it):
 * Bonferroni over the ROC hull's h vertices, two CP bounds at α/(2h) each,
 * ε = max log((1 − FNR̄ − δ)/FPR̄), in doubles.  For comparisons only: the
 * hull is data-dependent, so its count is not covered by the lemma. */
double ul_emp_jax_cp_d(const double *in, size_t n_in, const double *out, size_t n_out, double alpha,
                       double delta, char *err, size_t errlen)
{
    size_t cap = n_in + n_out + 1;
    unsigned long *fp = malloc(cap * sizeof *fp), *tp = malloc(cap * sizeof *tp);
    size_t h = fp && tp ? ul_emp_roc_hull(in, n_in, out, n_out, fp, tp) : 0;
    if (h == 0) { /* out of memory here or in ul_emp_roc_hull */
        free(fp), free(tp);
        no_room(err, errlen, "the ROC hull", n_in, n_out);
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

/* ---- the ROC's convex hull (for jax_privacy-compatible comparisons) ----------- */

static double cross3(const unsigned long *x, const unsigned long *y, size_t o, size_t a, size_t b)
{
    return ((double)x[a] - (double)x[o]) * ((double)y[b] - (double)y[o]) -
           ((double)y[a] - (double)y[o]) * ((double)x[b] - (double)x[o]);
}

size_t ul_emp_roc_hull(const double *in, size_t n_in, const double *out, size_t n_out,
                       unsigned long *fp, unsigned long *tp)
{
    double *a = sorted_copy(in, n_in), *b = sorted_copy(out, n_out);
    if (!a || !b) {
        free(a), free(b);
        return 0; /* out of memory (a hull has at least its vertex (0, 0)) */
    }
    size_t m = ul_emp_roc_counts(a, n_in, b, n_out, fp, tp, NULL), h = 1;
    for (size_t i = 1; i <= m; i++) { /* upper hull by the monotone chain, in place */
        fp[h] = fp[i], tp[h] = tp[i];
        while (h >= 2 && cross3(fp, tp, h - 2, h - 1, h) >= 0) {
            fp[h - 1] = fp[h], tp[h - 1] = tp[h];
            h--;
        }
        h++;
    }
    free(a);
    free(b);
    return h;
}

/* ---- the Gaussian-DP estimate (stats/gdp.h; here so that it is in the core
 * build with the bounds it is reported beside) ---------------------------------- */

/* Φ(x) = erfc(−x/√2)/2 */
static double norm_cdf(double x)
{
    return 0.5 * erfc(-x / sqrt(2.0));
}

double ul_emp_norm_quantile(double p)
{
    if (!(p > 0 && p < 1))
        return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
    double lo = -40, hi = 40;
    for (int it = 0; it < 200 && hi - lo > 1e-15 * (1 + fabs(lo)); it++) {
        double mid = 0.5 * (lo + hi);
        if (norm_cdf(mid) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

double ul_emp_gdp_mu_from_auc(double auc)
{
    if (!(auc > 0.5))
        return 0;
    if (auc >= 1)
        return INFINITY;
    return sqrt(2.0) * ul_emp_norm_quantile(auc);
}

/* log δ(ε) for μ-GDP: log(Φ(a) − e^ε Φ(b)), a = −ε/μ + μ/2, b = a − μ. */
static double log_delta(double eps, double mu)
{
    double a = -eps / mu + mu / 2, b = a - mu;
    double la = log(norm_cdf(a)), lb = eps + log(norm_cdf(b));
    if (!(la > lb))
        return -INFINITY;
    return la + log1p(-exp(lb - la));
}

double ul_emp_gdp_eps(double mu, double delta)
{
    if (!(delta > 0 && delta < 1))
        return NAN;
    if (!(mu > 0))
        return 0;
    if (isinf(mu))
        return INFINITY;
    double ld = log(delta);
    if (log_delta(0, mu) <= ld)
        return 0;
    double lo = 0, hi = 1;
    while (log_delta(hi, mu) > ld && hi < 1e6) {
        lo = hi;
        hi *= 2;
    }
    for (int it = 0; it < 200 && hi - lo > 1e-13 * hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (log_delta(mid, mu) > ld)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}
