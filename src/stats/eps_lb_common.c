/* src/stats/eps_lb_common.c — what the test families of eps_lb share
 * (stats/eps_lb_internal.h): the grid, the order-statistic tests of the
 * lemma (stats/eps_lb.h), the ranking in doubles, and the certification of
 * the chosen candidates (ul_emp_eps_lb_counts, stats/stats.h). */
#include "stats/eps_lb_internal.h"

#include <math.h>
#include <stdint.h>
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

/* ---- tied scores: randomised tie-breaking -------------------------------------
 *
 * With tied scores (atoms: 0/1 randomised-response scores, quantised
 * losses) an order-statistic threshold t_k sits inside a block of equal
 * scores, and the deterministic rule "IN iff score > t_k" must leave out the
 * whole block: the tests lose most of their power (the SUM test certified 0
 * on randomised response).  JOINT, SUM and FAMILY therefore run on
 * augmented scores (s, U): U uniform on [0, 1), drawn for each score
 * independently of the scores, compared lexicographically (U decides
 * between equal s only).  The rules become randomised at a tie ("IN iff s >
 * v, or s = v and U > u"), and the certified ε is the ε of those randomised
 * rules, which is all an ε lower bound needs: every rule, randomised ones
 * included, is an event of the mechanism's output and of randomness
 * independent of it.
 *
 * Why it stays valid.  (i) Under the claim P_in(E) ≤ e^ε P_out(E) + δ for
 * every event E of the score, the same holds for every event F of (s, U)
 * with U independent of s: P_in[(s, U) ∈ F] = ∫ P_in[s ∈ F_u] du ≤ ∫ (e^ε
 * P_out[s ∈ F_u] + δ) du, F_u the section at u (post-processing by an
 * independent randomised map: Dwork & Roth, "The Algorithmic Foundations of
 * Differential Privacy", 2014, Prop. 2.1; randomised tests: Lehmann &
 * Romano, "Testing Statistical Hypotheses", 3rd ed., 2005, §3.2).  (ii) The
 * pairs stay i.i.d. within each world and independent across worlds: the U
 * are i.i.d. and independent of the scores, so giving them to the scores in
 * ascending order of the scores (a permutation that depends on the scores
 * only) leaves them i.i.d. given the scores.  So the lemma of
 * stats/eps_lb.h and the SUM theorem (stats/eps_lb_sum.c) apply to the pairs
 * as they stand (they allow any laws), and every bound holds with
 * probability ≥ 1 − α over the scores and U together.  The U come from a
 * counter-based hash (SplitMix64's finaliser, Steele, Lea & Flood, "Fast
 * splittable pseudorandom number generators", OOPSLA 2014) of a fixed seed,
 * the world and the rank of the score within its world: chosen before the
 * data, never tuned on them, modelled as independent uniforms.  Because the
 * U go to ranks, the result does not depend on the order of the input.
 * Without ties nothing changes: the tests run on the scores themselves. */

#define TIE_SEED 0x7469657330ULL /* "ties0": fixed before any data (never tuned) */

/* U for rank i of world w (0 IN, 1 OUT): SplitMix64's finaliser of the seed,
 * the world and the rank, its top 53 bits as a double in [0, 1). */
static double tie_uniform(unsigned w, size_t i)
{
    uint64_t z = TIE_SEED + 0x9e3779b97f4a7c15ULL * ((uint64_t)i * 2 + w + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-53;
}

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

typedef struct {
    double s, u;
    unsigned w;
} tie_pair;

static int cmp_pair(const void *x, const void *y)
{
    const tie_pair *p = x, *q = y;
    if (p->s != q->s)
        return (p->s > q->s) - (p->s < q->s);
    if (p->u != q->u)
        return (p->u > q->u) - (p->u < q->u);
    return (p->w > q->w) - (p->w < q->w);
}

ul_status ul_lb_untie(ul_lb_untied *u, const double *a, size_t n_in, const double *b, size_t n_out,
                      char *err, size_t errlen)
{
    size_t n = n_in + n_out;
    *u = (ul_lb_untied){a, b, NULL, NULL, 0, ul_lb_ties_fraction(a, n_in, b, n_out)};
    if (u->ties_fraction == 0)
        return UL_OK;
    tie_pair *p = malloc((n ? n : 1) * sizeof *p);
    u->keys = malloc((n ? n : 1) * sizeof *u->keys);
    u->vals = malloc((n ? n : 1) * sizeof *u->vals);
    if (!p || !u->keys || !u->vals) {
        free(p), free(u->keys), free(u->vals);
        return ul_lb_no_room(err, errlen, "the tie-breaking keys", n_in, n_out);
    }
    for (size_t i = 0; i < n; i++)
        p[i] = i < n_in ? (tie_pair){a[i], tie_uniform(0, i), 0}
                        : (tie_pair){b[i - n_in], tie_uniform(1, i - n_in), 1};
    qsort(p, n, sizeof *p, cmp_pair);
    size_t ia = 0, ib = n_in, key = 0; /* key: the rank of (s, U), equal pairs one key */
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && (p[i].s != p[i - 1].s || p[i].u != p[i - 1].u))
            key++;
        u->vals[key] = p[i].s;
        u->keys[p[i].w ? ib++ : ia++] = (double)key; /* ascending within each world */
    }
    u->n_keys = key + 1;
    u->a = u->keys, u->b = u->keys + n_in;
    free(p);
    return UL_OK;
}

void ul_lb_untie_finish(ul_lb_untied *u, ul_emp_lb_result *res)
{
    res->ties_fraction = u->ties_fraction;
    if (u->keys && isfinite(res->threshold)) { /* rule "key ≥ t": the score of key ⌈t⌉ */
        double r = ceil(res->threshold);
        res->threshold = r < 0                    ? u->vals[0]
                         : r >= (double)u->n_keys ? INFINITY
                                                  : u->vals[(size_t)r];
    }
    free(u->keys), free(u->vals);
    u->keys = u->vals = NULL;
}

/* f on the untied arrays of a, b (JOINT, SUM, FAMILY), its threshold mapped
 * back to a score and the ties' share recorded. */
ul_status ul_lb_run_untied(ul_lb_sorted_fn f, ul_emp_lb_result *res, const double *a, size_t n_in,
                           const double *b, size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                           const ul_emp_lb_opts *o, char *err, size_t errlen)
{
    ul_lb_untied u;
    ul_status st = ul_lb_untie(&u, a, n_in, b, n_out, err, errlen);
    if (st != UL_OK)
        return st;
    st = f(res, u.a, n_in, u.b, n_out, alpha, delta, o, err, errlen);
    ul_lb_untie_finish(&u, res);
    return st;
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
