/* src/stats/onerun.c — the one-run audit bound of Steinke, Nasr & Jagielski
 * (2023); the theorem, its hypotheses and the covering argument are stated
 * in stats/eps_lb.h.
 *
 * Certified evaluation.  For an exact ε, q = e^ε/(1 + e^ε), so the
 * Binomial(r, q) masses are b_0 = (1 + e^ε)^(−r) and
 *     b_(j+1) = b_j · e^ε · (r − j)/(j + 1)
 * (the odds q/(1 − q) are e^ε exactly), every product an MPFI operation.
 * MPFR's widened exponent range (ul_num_init) holds b_0 even for r ~ 10^5.
 * On a cell [a, b] of ε values the p-value is bounded above by
 *     T_v(q_b) + 2mδ · max_i (T_(v−i)(q_b) − T_v(q_a))/i,
 * T_j(q) = P[Bin(r, q) ≥ j], because every T_j increases with q. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/eps_lb.h"
#include "stats/special_d.h"
#include "stats/stats.h"
#include "num/encl.h"

#define CELL_PREC 160
#define COVER_STEPS 400

/* ---- doubles: search ------------------------------------------------------------ */

/* Binomial(r, q) pmf for q = e^ε/(1 + e^ε), in log space (underflow → 0). */
static void pmf_d(unsigned long r, double eps, double *b)
{
    double l1 = eps > 0 ? eps + log1p(exp(-eps)) : log1p(exp(eps)); /* log(1 + e^ε) */
    for (unsigned long j = 0; j <= r; j++)
        b[j] = exp(ul_emp_log_choose(r, j) + (double)j * eps - (double)r * l1);
}

/* The p-value above with b (r + 1 doubles) as the pmf's room. */
static double pvalue_in(unsigned long m, unsigned long r, unsigned long v, double eps, double delta,
                        double *b)
{
    if (v == 0)
        return 1;
    if (v > r)
        return 0;
    pmf_d(r, eps, b);
    double beta = 0;
    for (unsigned long j = v; j <= r; j++)
        beta += b[j];
    double win = 0, amax = 0; /* win = P[v − i ≤ X ≤ v − 1] */
    for (unsigned long i = 1; i <= v; i++) {
        win += b[v - i];
        if (win / (double)i > amax)
            amax = win / (double)i;
    }
    double p = beta + amax * delta * 2.0 * (double)m;
    return p < 1 ? p : 1;
}

/* r + 1 doubles for the pmf, NULL (and UL_ENOMEM in *st) when r, a count
 * of the input, is too large for memory (policy: num/status.h). */
static double *pmf_room(unsigned long r, ul_status *st, char *err, size_t errlen)
{
    double *b = r < SIZE_MAX / sizeof *b ? malloc(((size_t)r + 1) * sizeof *b) : NULL;
    if (b == NULL)
        *st = ul_fail(err, errlen, UL_ENOMEM,
                      "onerun: out of memory for the binomial table of r = %lu guesses", r);
    return b;
}

double ul_emp_onerun_pvalue_d(unsigned long m, unsigned long r, unsigned long v, double eps,
                              double delta)
{
    if (v == 0 || v > r)
        return pvalue_in(m, r, v, eps, delta, NULL);
    ul_status st;
    double *b = pmf_room(r, &st, NULL, 0);
    /* 1 bounds every p-value: without room for the table (r beyond memory)
     * the bound stays sound; the library's own callers use pvalue_in */
    double p = b != NULL ? pvalue_in(m, r, v, eps, delta, b) : 1;
    free(b);
    return p;
}

/* An ε where the double p-value reaches `level` (doubling, then bisection);
 * 0 when p(0) > level.  The certification covers [0, ε] afterwards. */
static double search_d(unsigned long m, unsigned long r, unsigned long v, double delta,
                       double level, double *b)
{
    if (pvalue_in(m, r, v, 0, delta, b) > level)
        return 0;
    double lo = 0, hi = 1;
    while (hi < 256 && pvalue_in(m, r, v, hi, delta, b) <= level) {
        lo = hi;
        hi *= 2;
    }
    for (int it = 0; it < 60; it++) {
        double mid = 0.5 * (lo + hi);
        if (pvalue_in(m, r, v, mid, delta, b) <= level)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* ---- certified tails ----------------------------------------------------------- */

/* T[j] ⊇ P[Bin(r, q) ≥ j] for j = 0 … r (T has r + 1 initialised entries),
 * at q = e^ε/(1 + e^ε) for the exact ε. */
static void tails_enclose(mpfi_t *T, unsigned long r, double eps)
{
    mpfi_t odds, b, t;
    mpfi_init2(odds, CELL_PREC);
    mpfi_init2(b, CELL_PREC);
    mpfi_init2(t, CELL_PREC);
    mpfi_set_d(odds, eps);
    mpfi_exp(odds, odds);    /* e^ε */
    mpfi_add_ui(t, odds, 1); /* 1 + e^ε ≥ 1 */
    mpfr_t lo, hi;
    mpfr_inits2(CELL_PREC, lo, hi, (mpfr_ptr)0);
    mpfr_pow_ui(lo, &t->right, r, MPFR_RNDU);
    mpfr_pow_ui(hi, &t->left, r, MPFR_RNDD);
    mpfr_ui_div(lo, 1, lo, MPFR_RNDD);
    mpfr_ui_div(hi, 1, hi, MPFR_RNDU);
    mpfi_interv_fr(b, lo, hi); /* b_0 = (1 + e^ε)^(−r) */
    /* masses b_j into T[j] first, then suffix sums in place */
    for (unsigned long j = 0; j <= r; j++) {
        mpfi_set(T[j], b);
        if (j < r) {
            mpfi_mul(b, b, odds);
            mpfi_mul_ui(b, b, r - j);
            mpfi_div_ui(b, b, j + 1);
        }
    }
    for (unsigned long j = r; j-- > 0;)
        mpfi_add(T[j], T[j], T[j + 1]);
    for (unsigned long j = 0; j <= r; j++) { /* a probability: intersect with [0, 1] */
        if (mpfr_sgn(&T[j]->left) < 0)
            mpfr_set_zero(&T[j]->left, 1);
        if (mpfr_cmp_ui(&T[j]->right, 1) > 0)
            mpfr_set_ui(&T[j]->right, 1, MPFR_RNDU);
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    mpfi_clear(odds);
    mpfi_clear(b);
    mpfi_clear(t);
}

/* True when the p-value is proven ≤ inf(level) for every ε in [ea, eb]. */
static bool cell_ok(mpfi_t *Ta, mpfi_t *Tb, unsigned long m, unsigned long r, unsigned long v,
                    double ea, double eb, mpfi_srcptr delta, mpfi_srcptr level)
{
    tails_enclose(Ta, r, ea);
    tails_enclose(Tb, r, eb);
    mpfr_t amax, w, p;
    mpfr_inits2(CELL_PREC, amax, w, p, (mpfr_ptr)0);
    mpfr_set_zero(amax, 1);
    for (unsigned long i = 1; i <= v; i++) {
        mpfr_sub(w, &Tb[v - i]->right, &Ta[v]->left, MPFR_RNDU);
        mpfr_div_ui(w, w, i, MPFR_RNDU);
        mpfr_max(amax, amax, w, MPFR_RNDU);
    }
    mpfr_mul(amax, amax, &delta->right, MPFR_RNDU);
    mpfr_mul_ui(amax, amax, 2 * m, MPFR_RNDU);
    mpfr_add(p, &Tb[v]->right, amax, MPFR_RNDU);
    bool ok = mpfr_lessequal_p(p, &level->left);
    mpfr_clears(amax, w, p, (mpfr_ptr)0);
    return ok;
}

/* Covers [0, target] upward with cells, doubling after a proven cell and
 * halving after a failed one; *end gets the end of the proven part.
 * UL_ENOMEM when the two tables of r + 1 intervals cannot be had. */
static ul_status cover(unsigned long m, unsigned long r, unsigned long v, double target,
                       mpfi_srcptr delta, mpfi_srcptr level, double *end, char *err, size_t errlen)
{
    bool fits = r < SIZE_MAX / sizeof(mpfi_t);
    mpfi_t *Ta = fits ? malloc(((size_t)r + 1) * sizeof *Ta) : NULL;
    mpfi_t *Tb = fits ? malloc(((size_t)r + 1) * sizeof *Tb) : NULL;
    if (!Ta || !Tb) {
        free(Ta), free(Tb);
        return ul_fail(err, errlen, UL_ENOMEM,
                       "onerun: out of memory for the certified tails of r = %lu guesses", r);
    }
    for (unsigned long j = 0; j <= r; j++) {
        mpfi_init2(Ta[j], CELL_PREC);
        mpfi_init2(Tb[j], CELL_PREC);
    }
    double a = 0, w = target / 4, tol = 1e-9 * (target > 1 ? target : 1);
    for (int step = 0; step < COVER_STEPS && a < target && w >= tol; step++) {
        double b = a + w < target ? a + w : target;
        if (cell_ok(Ta, Tb, m, r, v, a, b, delta, level)) {
            a = b;
            w *= 2;
        } else {
            w /= 2;
        }
    }
    for (unsigned long j = 0; j <= r; j++) {
        mpfi_clear(Ta[j]);
        mpfi_clear(Tb[j]);
    }
    free(Ta);
    free(Tb);
    *end = a;
    return UL_OK;
}

ul_status ul_emp_onerun_eps(mpfr_ptr eps_lb, unsigned long m, unsigned long r, unsigned long v,
                            mpfi_srcptr delta, mpfi_srcptr level, char *err, size_t errlen)
{
    ul_num_init();
    if (r == 0 || r > m)
        return ul_fail(err, errlen, UL_EINPUT, "r (guesses, %lu) must lie in [1, m = %lu]", r, m);
    if (v > r)
        return ul_fail(err, errlen, UL_EINPUT, "v (correct, %lu) must not exceed r (%lu)", v, r);
    if (mpfi_nan_p(level) || mpfr_sgn(&level->left) <= 0 || mpfr_cmp_ui(&level->right, 1) >= 0)
        return ul_fail(err, errlen, UL_EINPUT, "alpha (level) must lie strictly inside (0, 1)");
    if (mpfi_nan_p(delta) || mpfr_sgn(&delta->left) < 0 || mpfr_cmp_ui(&delta->right, 1) >= 0)
        return ul_fail(err, errlen, UL_EINPUT, "delta must lie in [0, 1)");
    ul_status st = UL_OK;
    double target = 0, e = 0;
    if (v > 0) {
        double *b = pmf_room(r, &st, err, errlen);
        if (b == NULL)
            return st;
        target = search_d(m, r, v, mpfr_get_d(&delta->right, MPFR_RNDU),
                          mpfr_get_d(&level->left, MPFR_RNDD), b);
        free(b);
    }
    if (target > 0)
        st = cover(m, r, v, target, delta, level, &e, err, errlen);
    if (st != UL_OK)
        return st;
    mpfr_set_d(eps_lb, e, MPFR_RNDD); /* e is exact: the end of the proven cells */
    return UL_OK;
}

/* ---- the family of guess counts ---------------------------------------------------- */

typedef struct {
    double s;
    int in; /* 1: IN canary */
} labelled;

static int cmp_desc(const void *x, const void *y)
{
    double a = ((const labelled *)x)->s, b = ((const labelled *)y)->s;
    return (a < b) - (a > b);
}

/* v (correct) among the guesses "score > (r+1)-th largest" (all when r = m). */
static unsigned long correct_top(const labelled *p, size_t m, size_t r, size_t *guessed)
{
    size_t g = r;
    if (r < m)
        while (g > 0 && p[g - 1].s <= p[r].s)
            g--; /* a tie at the boundary is not guessed */
    unsigned long v = 0;
    for (size_t i = 0; i < g; i++)
        v += (unsigned long)p[i].in;
    *guessed = g;
    return v;
}

ul_status ul_emp_onerun_family(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                               size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                               const ul_emp_lb_opts *o, char *err, size_t errlen)
{
    size_t m = n_in + n_out;
    labelled *p = malloc(m * sizeof *p);
    double ratio = o->ratio > 0 ? o->ratio : 1.25;
    size_t nr = ul_emp_lb_grid((unsigned long)m, ratio, NULL, 0);
    unsigned long *ks = malloc(nr * sizeof *ks);
    double *pmf = malloc((m + 1) * sizeof *pmf); /* every r ≤ m */
    if (!p || !ks || !pmf) {
        free(p), free(ks), free(pmf);
        return ul_fail(err, errlen, UL_ENOMEM,
                       "onerun: out of memory for %zu canary scores (%zu IN, %zu OUT)", m, n_in,
                       n_out);
    }
    for (size_t i = 0; i < n_in; i++)
        p[i] = (labelled){a[i], 1};
    for (size_t i = 0; i < n_out; i++)
        p[n_in + i] = (labelled){b[i], 0};
    qsort(p, m, sizeof *p, cmp_desc);
    ul_emp_lb_grid((unsigned long)m, ratio, ks, nr);
    double level = mpfr_get_d(&alpha->left, MPFR_RNDD) / (double)nr;
    double dd = mpfr_get_d(&delta->right, MPFR_RNDU), best = 0;
    size_t best_r = 0, g;
    unsigned long best_v = 0;
    for (size_t i = 0; i < nr; i++) {
        size_t r = ks[i] + 1;
        unsigned long v = correct_top(p, m, r, &g);
        double e = v ? search_d((unsigned long)m, (unsigned long)r, v, dd, level, pmf) : 0;
        if (e > best) {
            best = e, best_r = r, best_v = v;
            res->threshold = g ? p[g - 1].s : INFINITY;
            res->fp = (unsigned long)g - v;
        }
    }
    free(p);
    free(ks);
    free(pmf);
    res->m = (unsigned long)nr;
    res->direction = best_r ? +1 : 0;
    res->estimate = best;
    res->n_in = (unsigned long)n_in, res->n_out = (unsigned long)n_out;
    res->fn = (unsigned long)n_in - best_v;
    if (best_r == 0)
        return UL_OK;
    mpfi_t lev;
    mpfi_init2(lev, mpfi_get_prec(alpha) + 32);
    mpfi_div_ui(lev, alpha, (unsigned long)nr);
    ul_status st = ul_emp_onerun_eps(res->eps_lb, (unsigned long)m, (unsigned long)best_r, best_v,
                                     delta, lev, err, errlen);
    mpfi_clear(lev);
    return st;
}
