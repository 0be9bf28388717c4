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
#include "stats/eps_lb_internal.h"
#include "stats/gdp.h"
#include "stats/special_d.h"
#include "stats/stats.h"
#include "num/encl.h"
#include "num/gauss_tail.h"

#define CELL_PREC 160
#define COVER_STEPS 400
/* The default grid ratio of the candidates (stats/eps_lb.h: why 2). */
#define ONERUN_RATIO 2.0

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

/* alpha strictly inside (0, 1); delta in [0, 1), or (0, 1) when positive
 * (the f-DP entry: its ε(δ) needs δ > 0); name is alpha's in the message. */
static ul_status check_levels(mpfi_srcptr alpha, const char *name, mpfi_srcptr delta,
                              bool positive, char *err, size_t errlen)
{
    if (mpfi_nan_p(alpha) || mpfr_sgn(&alpha->left) <= 0 || mpfr_cmp_ui(&alpha->right, 1) >= 0)
        return ul_fail(err, errlen, UL_EINPUT, "%s must lie strictly inside (0, 1)", name);
    bool low = mpfi_nan_p(delta) || mpfr_sgn(&delta->left) < (positive ? 1 : 0);
    if (low || mpfr_cmp_ui(&delta->right, 1) >= 0)
        return ul_fail(err, errlen, UL_EINPUT, "delta must lie in %s0, 1)", positive ? "(" : "[");
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
    ul_status st = check_levels(level, "alpha (level)", delta, false, err, errlen);
    if (st != UL_OK)
        return st;
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

/* ---- the candidates (k₊, k₋) and their counts ------------------------------------- */

typedef struct {
    double s;
    int in; /* 1: IN canary */
} labelled;

static int cmp_desc(const void *x, const void *y)
{
    double a = ((const labelled *)x)->s, b = ((const labelled *)y)->s;
    return (a < b) - (a > b);
}

typedef struct {
    unsigned long kp, km;
} cand;

/* The set C of stats/eps_lb.h (depends on m and the options only): writes
 * up to cap candidates, returns |C|.  One-sided: (k + 1, 0) for k ∈ K(m);
 * two-sided: (k + 1, k + 1) for k ∈ K(⌊m/2⌋); K the grid of ul_emp_lb_grid. */
static size_t candidates(size_t m, const ul_emp_lb_opts *o, cand *c, size_t cap)
{
    double ratio = o->ratio > 0 ? o->ratio : ONERUN_RATIO;
    size_t n = 0;
    for (unsigned long k = 0; k < (o->one_sided ? m : m / 2); n++) {
        if (n < cap)
            c[n] = (cand){k + 1, o->one_sided ? 0 : k + 1};
        unsigned long next = (unsigned long)floor(ratio * (double)k);
        k = next > k + 1 ? next : k + 1;
    }
    return n;
}

/* Guesses made for design count k at one end of p (sorted descending):
 * k, less a tie at the boundary (the (k+1)-th score from that end). */
static size_t made(const labelled *p, size_t m, size_t k, bool top)
{
    size_t g = k;
    if (top)
        while (g > 0 && g < m && p[g - 1].s <= p[g].s)
            g--;
    else
        while (g > 0 && g < m && p[m - g].s >= p[m - g - 1].s)
            g--;
    return g;
}

/* The choice of candidate x on p, with cin[j] = #IN among p[0 … j). */
static ul_emp_onerun_choice count(const labelled *p, const size_t *cin, size_t m, cand x)
{
    ul_emp_onerun_choice ch = {.k_plus = x.kp, .k_minus = x.km};
    size_t gp = made(p, m, x.kp, true), gm = made(p, m, x.km, false);
    ch.g_plus = gp, ch.g_minus = gm;
    ch.v_plus = (unsigned long)cin[gp];
    ch.v = ch.v_plus + (unsigned long)(gm - (cin[m] - cin[m - gm]));
    ch.thr_in = gp ? p[gp - 1].s : INFINITY;
    ch.thr_out = gm ? p[m - gm].s : -INFINITY;
    return ch;
}

/* p (m labelled scores, descending) and cin (m + 1 prefix counts); false
 * when out of memory (nothing left allocated). */
static bool sorted_canaries(const double *a, size_t n_in, const double *b, size_t n_out,
                            labelled **p, size_t **cin)
{
    size_t m = n_in + n_out;
    *p = malloc(m * sizeof **p);
    *cin = malloc((m + 1) * sizeof **cin);
    if (!*p || !*cin) {
        free(*p), free(*cin);
        return false;
    }
    for (size_t i = 0; i < n_in; i++)
        (*p)[i] = (labelled){a[i], 1};
    for (size_t i = 0; i < n_out; i++)
        (*p)[n_in + i] = (labelled){b[i], 0};
    qsort(*p, m, sizeof **p, cmp_desc);
    (*cin)[0] = 0;
    for (size_t j = 0; j < m; j++)
        (*cin)[j + 1] = (*cin)[j] + (size_t)(*p)[j].in;
    return true;
}

/* The statistic of one candidate at `level` in doubles (ε or μ), with
 * `room` for its tables; the two tests below supply it. */
typedef double (*search_fn)(unsigned long m, unsigned long r, unsigned long v, double level,
                            double delta, double best, double *room);

/* The best candidate by `fn` at level alpha/|C|; *best its estimate. */
static ul_status best_candidate(const double *a, size_t n_in, const double *b, size_t n_out,
                                double alpha, double delta, const ul_emp_lb_opts *o, search_fn fn,
                                ul_emp_onerun_choice *out, double *best, char *err, size_t errlen)
{
    size_t m = n_in + n_out, nc = candidates(m, o, NULL, 0);
    labelled *p = NULL;
    size_t *cin = NULL;
    cand *c = malloc((nc + 1) * sizeof *c); /* nc = 0 when m = 1 and two-sided */
    double *room = malloc((m + 1) * sizeof *room); /* every r ≤ m */
    if (!c || !room || !sorted_canaries(a, n_in, b, n_out, &p, &cin)) {
        free(c), free(room);
        return ul_fail(err, errlen, UL_ENOMEM,
                       "onerun: out of memory for %zu canary scores (%zu IN, %zu OUT)", m, n_in,
                       n_out);
    }
    candidates(m, o, c, nc);
    *best = 0;
    *out = (ul_emp_onerun_choice){.thr_in = INFINITY, .thr_out = -INFINITY};
    for (size_t i = 0; i < nc; i++) {
        if (c[i].kp + c[i].km > m)
            continue; /* cannot be made: not a test (it still counts in |C|) */
        ul_emp_onerun_choice ch = count(p, cin, m, c[i]);
        double e = fn((unsigned long)m, ch.k_plus + ch.k_minus, ch.v, alpha / (double)nc, delta,
                      *best, room);
        if (e > *best)
            *best = e, *out = ch;
    }
    out->tests = (unsigned long)nc;
    free(p), free(cin), free(c), free(room);
    return UL_OK;
}

/* ---- the (ε, δ) family ---------------------------------------------------------- */

static double search_eps(unsigned long m, unsigned long r, unsigned long v, double level,
                         double delta, double best, double *room)
{
    if (v == 0 || (double)v / (double)r <= 1 / (1 + exp(-best)))
        return 0; /* precision v/r ≤ q(best): skipped as jax_privacy does (a search
                   * heuristic: the bound is certified afterwards, a skip only loses power) */
    return search_d(m, r, v, delta, level, room);
}

ul_status ul_emp_onerun_family_choice(ul_emp_lb_result *res, ul_emp_onerun_choice *choice,
                                      const double *a, size_t n_in, const double *b, size_t n_out,
                                      mpfi_srcptr alpha, mpfi_srcptr delta, const ul_emp_lb_opts *o,
                                      char *err, size_t errlen)
{
    ul_emp_onerun_choice ch;
    double best;
    ul_status st = best_candidate(a, n_in, b, n_out, mpfr_get_d(&alpha->left, MPFR_RNDD),
                                  mpfr_get_d(&delta->right, MPFR_RNDU), o, search_eps, &ch, &best,
                                  err, errlen);
    if (st != UL_OK)
        return st;
    if (choice != NULL)
        *choice = ch;
    unsigned long r = ch.k_plus + ch.k_minus;
    res->m = res->divisor = ch.tests;
    res->estimate = best;
    res->n_in = (unsigned long)n_in, res->n_out = (unsigned long)n_out;
    res->threshold = ch.thr_in;
    res->fp = ch.g_plus - ch.v_plus, res->fn = (unsigned long)n_in - ch.v_plus;
    res->direction = r == 0 ? 0 : ch.k_minus == 0 ? +1 : ch.k_plus == 0 ? -1 : 2;
    if (r == 0 || best <= 0)
        return UL_OK;
    mpfi_t lev;
    mpfi_init2(lev, mpfi_get_prec(alpha) + 32);
    mpfi_div_ui(lev, alpha, ch.tests);
    st = ul_emp_onerun_eps(res->eps_lb, (unsigned long)(n_in + n_out), r, ch.v, delta, lev, err,
                           errlen);
    mpfi_clear(lev);
    return st;
}

ul_status ul_emp_onerun_family(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                               size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                               const ul_emp_lb_opts *o, char *err, size_t errlen)
{
    return ul_emp_onerun_family_choice(res, &res->onerun, a, n_in, b, n_out, alpha, delta, o,
                                       err, errlen);
}

/* ---- one run, f-DP (Mahloujifar, Melis, Chaudhuri 2024, audit_rh_with_cap) ------- */

static double phi_d(double z)
{
    return 0.5 * erfc(-z / sqrt(2.0));
}

/* f̄⁻¹(x) = Φ(Φ⁻¹(x) − μ) for μ-GDP (G_μ: Dong, Roth, Su 2022, Def. 2.5). */
static double blow_inv_d(double x, double mu)
{
    return x >= 1 ? 1 : x <= 0 ? 0 : phi_d(ul_emp_norm_quantile(x) - mu);
}

double ul_emp_onerun_fdp_margin_d(unsigned long m, unsigned long r, unsigned long v, double mu,
                                  double tau)
{
    double R = tau * (double)v / (double)m, H = tau * (double)(r - v) / (double)m;
    for (unsigned long i = v; i-- > 0;) { /* audit_rh_with_cap, i = v−1 … 0 */
        double G = blow_inv_d(R, mu);
        if (G <= H)
            break; /* h_i = h_(i+1) and r_i = r_(i+1): frozen from here on */
        double Rn = R + (double)i / (double)(r - i) * (G - H);
        R = Rn < 1 ? Rn : 1, H = G;
    }
    return R + H - (double)r / (double)m;
}

double ul_emp_onerun_fdp_mu_d(unsigned long m, unsigned long r, unsigned long v, double tau)
{
    if (v == 0 || ul_emp_onerun_fdp_margin_d(m, r, v, 1e-9, tau) <= 0)
        return 0;
    double lo = 1e-9, hi = 1;
    while (hi < 64 && ul_emp_onerun_fdp_margin_d(m, r, v, hi, tau) > 0)
        lo = hi, hi *= 2;
    for (int it = 0; it < 50; it++) {
        double mid = 0.5 * (lo + hi);
        if (ul_emp_onerun_fdp_margin_d(m, r, v, mid, tau) > 0)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* out ⊇ Φ(X) = Q(−X) (num/gauss_tail.h). */
static void phi_enclose(mpfi_ptr out, mpfi_srcptr x)
{
    mpfi_t t;
    mpfi_init2(t, mpfi_get_prec(out));
    mpfi_neg(t, x);
    ul_num_q(out, t);
    mpfi_clear(t);
}

/* z (t's precision) with Φ(z) ≤ x proven (low) or Φ(z) ≥ x proven
 * (!low): the double quantile polished by Newton steps on Φ(z) − x in MPFR
 * (φ(z) = e^(−z²/2)/√(2π)), then moved outwards until the enclosure
 * decides.  Only the final check matters for soundness. */
static void quantile_side(mpfr_ptr z, mpfr_srcptr x, bool low, mpfi_ptr t, mpfi_ptr f)
{
    mpfr_prec_t p = mpfi_get_prec(t);
    mpfr_t d, step;
    mpfr_inits2(p, d, step, (mpfr_ptr)0);
    mpfr_set_d(z, ul_emp_norm_quantile(mpfr_get_d(x, MPFR_RNDN)), MPFR_RNDN);
    for (int it = 0; it < 4 && mpfr_number_p(z); it++) {
        mpfi_set_fr(t, z);
        phi_enclose(f, t);
        mpfi_mid(d, f);
        mpfr_sub(d, d, x, MPFR_RNDN); /* Φ(z) − x */
        mpfr_sqr(step, z, MPFR_RNDN);
        mpfr_div_si(step, step, -2, MPFR_RNDN);
        mpfr_exp(step, step, MPFR_RNDN);
        mpfr_div(d, d, step, MPFR_RNDN);
        mpfr_mul_d(d, d, sqrt(2 * 3.141592653589793), MPFR_RNDN);
        mpfr_sub(z, z, d, MPFR_RNDN);
    }
    mpfr_set_ui_2exp(step, 1, -(mpfr_exp_t)p + 24, MPFR_RNDN);
    for (int it = 0; it < 200 && mpfr_number_p(z); it++, mpfr_mul_2ui(step, step, 2, MPFR_RNDN)) {
        mpfi_set_fr(t, z);
        phi_enclose(f, t);
        if (low ? mpfr_lessequal_p(&f->right, x) : mpfr_greaterequal_p(&f->left, x))
            break;
        (low ? mpfr_sub : mpfr_add)(z, z, step, MPFR_RNDN);
    }
    mpfr_clears(d, step, (mpfr_ptr)0);
}

/* G ⊇ Φ(Φ⁻¹(R) − μ) for every point of R ⊂ [0, 1]. */
static void blow_inv_enclose(mpfi_ptr G, mpfi_srcptr R, double mu, mpfi_ptr t, mpfi_ptr f)
{
    mpfr_t lo, hi;
    mpfr_inits2(mpfi_get_prec(G), lo, hi, (mpfr_ptr)0);
    if (mpfr_sgn(&R->left) <= 0) {
        mpfr_set_zero(lo, 1);
    } else {
        quantile_side(lo, &R->left, true, t, f); /* z_lo ≤ Φ⁻¹(inf R) */
        mpfi_set_fr(t, lo);
        mpfi_sub_d(t, t, mu);
        phi_enclose(f, t);
        mpfr_set(lo, &f->left, MPFR_RNDD);
    }
    if (mpfr_cmp_ui(&R->right, 1) >= 0) {
        mpfr_set_ui(hi, 1, MPFR_RNDU);
    } else {
        quantile_side(hi, &R->right, false, t, f); /* z_hi ≥ Φ⁻¹(sup R) */
        mpfi_set_fr(t, hi);
        mpfi_sub_d(t, t, mu);
        phi_enclose(f, t);
        mpfr_set(hi, &f->right, MPFR_RNDU);
    }
    mpfi_interv_fr(G, lo, hi);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

/* One step i of audit_rh_with_cap on the enclosures R, H; false when h is proven
 * unchanged (G ≤ H), after which nothing changes. */
static bool fdp_step(mpfi_ptr R, mpfi_ptr H, unsigned long r, unsigned long i, double mu,
                     mpfi_ptr *w)
{
    blow_inv_enclose(w[0], R, mu, w[1], w[2]);
    if (mpfr_lessequal_p(&w[0]->right, &H->left))
        return false;
    mpfr_max(&w[0]->left, &w[0]->left, &H->left, MPFR_RNDD); /* h_i = max(h_(i+1), G) */
    mpfr_max(&w[0]->right, &w[0]->right, &H->right, MPFR_RNDU);
    mpfi_sub(w[1], w[0], H); /* h_i − h_(i+1) ≥ 0 */
    if (mpfr_sgn(&w[1]->left) < 0)
        mpfr_set_zero(&w[1]->left, 1);
    mpfi_mul_ui(w[1], w[1], i);
    mpfi_div_ui(w[1], w[1], r - i);
    mpfi_add(R, R, w[1]);
    if (mpfr_cmp_ui(&R->left, 1) > 0) /* the clamp min(1, ·) */
        mpfr_set_ui(&R->left, 1, MPFR_RNDD);
    if (mpfr_cmp_ui(&R->right, 1) > 0)
        mpfr_set_ui(&R->right, 1, MPFR_RNDU);
    mpfi_set(H, w[0]);
    return true;
}

bool ul_emp_onerun_fdp_rejects(unsigned long m, unsigned long r, unsigned long v, double mu,
                               double tau)
{
    ul_num_init();
    if (v == 0 || v > r || r > m || !(tau > 0) || !(mu >= 0))
        return false;
    mpfi_t R, H, w0, w1, w2;
    mpfi_ptr w[3] = {w0, w1, w2}, all[5] = {R, H, w0, w1, w2};
    for (int j = 0; j < 5; j++)
        mpfi_init2(all[j], CELL_PREC);
    mpfi_set_d(R, tau); /* r_v = τ·v/m, h_v = τ·(r − v)/m */
    mpfi_mul_ui(H, R, r - v);
    mpfi_div_ui(H, H, m);
    mpfi_mul_ui(R, R, v);
    mpfi_div_ui(R, R, m);
    for (unsigned long i = v; i-- > 0 && fdp_step(R, H, r, i, mu, w);)
        ;
    mpfi_add(w0, R, H);
    mpfr_mul_ui(&w0->left, &w0->left, m, MPFR_RNDD);
    bool ok = mpfr_cmp_ui(&w0->left, r) > 0; /* r_0 + h_0 > r/m proven */
    for (int j = 0; j < 5; j++)
        mpfi_clear(all[j]);
    return ok;
}

/* The family's search for one candidate: μ, or 0 when it cannot beat best
 * (pruning as jax_privacy does; a search heuristic, the result is certified). */
static double search_mu(unsigned long m, unsigned long r, unsigned long v, double level,
                        double delta, double best, double *room)
{
    (void)delta, (void)room;
    if (v == 0 || ul_emp_onerun_fdp_margin_d(m, r, v, best > 0 ? best : 1e-9, level) <= 0)
        return 0;
    return ul_emp_onerun_fdp_mu_d(m, r, v, level);
}

/* True when δ(ε) of μ-GDP, Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (gdp.h;
 * Balle & Wang 2018 Thm 8), is proven ≥ sup delta: then ε ≤ ε(δ). */
static bool gdp_eps_below(double eps, double mu, mpfi_srcptr delta)
{
    mpfi_t a, b, e;
    mpfi_init2(a, CELL_PREC);
    mpfi_init2(b, CELL_PREC);
    mpfi_init2(e, CELL_PREC);
    mpfi_set_d(a, eps);
    mpfi_div_d(a, a, mu);
    mpfi_set_d(e, mu);
    mpfi_div_ui(e, e, 2);
    mpfi_add(b, a, e); /* ε/μ + μ/2 */
    mpfi_sub(a, a, e); /* ε/μ − μ/2 */
    ul_num_q(a, a);    /* Φ(−x) = Q(x) */
    ul_num_q(b, b);
    mpfi_set_d(e, eps);
    mpfi_exp(e, e);
    mpfi_mul(b, b, e);
    mpfi_sub(a, a, b);
    bool ok = mpfr_greaterequal_p(&a->left, &delta->right);
    mpfi_clear(a);
    mpfi_clear(b);
    mpfi_clear(e);
    return ok;
}

/* eps_gdp: gdp.c's double ε(δ) lowered until gdp_eps_below proves it. */
static double certified_gdp_eps(double mu, mpfi_srcptr delta)
{
    double e = ul_emp_gdp_eps(mu, mpfr_get_d(&delta->right, MPFR_RNDU));
    for (int k = 0; k < 60 && e > 0; k++, e *= 1 - 1e-12 * (double)(1UL << (k < 40 ? k : 40)))
        if (gdp_eps_below(e, mu, delta))
            return e;
    return 0;
}

void ul_emp_onerun_fdp_init(ul_emp_onerun_fdp_result *res)
{
    memset(res, 0, sizeof *res);
    mpfr_init2(res->mu_lb, 64);
    mpfr_set_zero(res->mu_lb, 1);
}

void ul_emp_onerun_fdp_clear(ul_emp_onerun_fdp_result *res)
{
    mpfr_clear(res->mu_lb);
}

/* The f-DP entry's arguments (ul_emp_eps_lb checks its own methods'). */
static ul_status fdp_check(const double *a, size_t n_in, const double *b, size_t n_out,
                           mpfi_srcptr alpha, mpfi_srcptr delta, const ul_emp_lb_opts *o,
                           char *err, size_t errlen)
{
    const double *s[2] = {a, b};
    const size_t n[2] = {n_in, n_out};
    for (int w = 0; w < 2; w++) {
        ul_status st = ul_emp_check_scores(s[w], n[w], w ? "out_scores" : "in_scores", err, errlen);
        if (st != UL_OK)
            return st;
    }
    ul_status st = ul_lb_check_ratio(o, err, errlen);
    return st == UL_OK ? check_levels(alpha, "alpha", delta, true, err, errlen) : st;
}

ul_status ul_emp_onerun_fdp(ul_emp_onerun_fdp_result *res, const double *a, size_t n_in,
                            const double *b, size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                            const ul_emp_lb_opts *o, char *err, size_t errlen)
{
    ul_num_init();
    ul_status st = fdp_check(a, n_in, b, n_out, alpha, delta, o, err, errlen);
    double best = 0;
    if (st == UL_OK)
        st = best_candidate(a, n_in, b, n_out, mpfr_get_d(&alpha->left, MPFR_RNDD), 0, o,
                            search_mu, &res->choice, &best, err, errlen);
    if (st != UL_OK)
        return st;
    res->estimate = best;
    mpfr_t t;
    mpfr_init2(t, 64);
    mpfr_div_ui(t, &alpha->left, res->choice.tests, MPFR_RNDD);
    double tau = mpfr_get_d(t, MPFR_RNDD), mu = best; /* τ ≤ α/|C| exactly */
    mpfr_clear(t);
    unsigned long m = (unsigned long)(n_in + n_out), r = res->choice.k_plus + res->choice.k_minus;
    for (int k = 0; mu > 0 && !ul_emp_onerun_fdp_rejects(m, r, res->choice.v, mu, tau); k++)
        mu = k < 40 ? best * (1 - 1e-9 * (double)(1UL << k)) : 0; /* back off, then give up */
    mpfr_set_d(res->mu_lb, mu > 0 ? mu : 0, MPFR_RNDD); /* mu is exact: the certified point */
    res->eps_gdp = mu > 0 ? certified_gdp_eps(mu, delta) : 0;
    return UL_OK;
}
