/* src/emp/stats.c — binomial tails, Clopper–Pearson, empirical ε, ROC.
 *
 * Binomial tails.  For an exact p and q = 1 − p (enclosed), the terms
 * b_i = C(n, i) p^i q^(n−i) satisfy b_0 = q^n and
 *     b_(i+1) = b_i · (n − i)/(i + 1) · p/q,
 * and, from the other end, b_n = p^n and b_(i−1) = b_i · i/(n − i + 1) · q/p.
 * Every product is an MPFI operation (outward rounding), so the partial sums
 * enclose the exact tails; the tiny q^n or p^n of large n stays in MPFR's
 * widened exponent range (ul_num_init), so nothing underflows.  Each tail is
 * summed from the shorter end (complementing when that is the other tail);
 * the complement costs absolute, not relative, accuracy, and the bisection
 * callers pay for it with precision, which threshold.c raises on demand.
 *
 * Clopper–Pearson (Clopper & Pearson 1934; one-sided form as in jax_privacy
 * `_clopper_pearson_upper` = beta.ppf(1 − s, k + 1, n − k), spec §2.3): the
 * upper bound is the p where P[Bin(n, p) ≤ k] = α, found by
 * ul_num_bracket_threshold with certified comparisons of the enclosed tail
 * against the enclosure of α; the lower bound likewise with P[Bin ≥ k].
 */
#include "emp/stats.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "num/encl.h"
#include "num/threshold.h"

const double ul_emp_fpr_levels[UL_EMP_N_FPR_LEVELS] = {1e-3, 1e-2, 1e-1};

/* ---- binomial tails ---------------------------------------------------------- */

/* Guard bits for a sum of `terms` terms, each carrying a few roundings. */
static mpfr_prec_t guard_bits(unsigned long n)
{
    mpfr_prec_t g = 16;
    while (n) {
        g += 2;
        n >>= 1;
    }
    return g;
}

/* [x_lo^n, x_hi^n] for an enclosure x ⊂ [0, ∞): x ↦ x^n is increasing. */
static void pow_ui_pos(mpfi_ptr out, mpfi_srcptr x, unsigned long n, mpfr_prec_t w)
{
    mpfr_t lo, hi;
    mpfr_inits2(w, lo, hi, (mpfr_ptr)0);
    mpfr_pow_ui(lo, &x->left, n, MPFR_RNDD);
    mpfr_pow_ui(hi, &x->right, n, MPFR_RNDU);
    mpfi_interv_fr(out, lo, hi);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

/* Σ_{i=0}^{k} b_i (lower = true) or Σ_{i=k}^{n} b_i (lower = false), summed
 * from the end of the range that is a tail end (i = 0 or i = n).  Requires
 * 0 < p < 1 and k ≤ n. */
static void tail_sum(mpfi_ptr out, unsigned long k, unsigned long n, mpfr_srcptr p, bool lower,
                     mpfr_prec_t w)
{
    mpfi_t pp, q, r, t, s;
    mpfi_init2(pp, w);
    mpfi_init2(q, w);
    mpfi_init2(r, w);
    mpfi_init2(t, w);
    mpfi_init2(s, w);
    mpfi_set_fr(pp, p);
    mpfi_ui_sub(q, 1, pp);
    /* pp, q ⊂ [0, 1] mathematically; clamp the outward-rounded ends at 0. */
    if (mpfr_sgn(&q->left) < 0)
        mpfr_set_zero(&q->left, 1);
    if (lower) {
        pow_ui_pos(t, q, n, w); /* b_0 */
        mpfi_div(r, pp, q);     /* p/q (may be [·, +inf] at low precision: still sound) */
        mpfi_set(s, t);
        for (unsigned long i = 0; i < k; i++) {
            mpfi_mul_ui(t, t, n - i);
            mpfi_div_ui(t, t, i + 1);
            mpfi_mul(t, t, r);
            mpfi_add(s, s, t);
        }
    } else {
        pow_ui_pos(t, pp, n, w); /* b_n */
        mpfi_div(r, q, pp);
        mpfi_set(s, t);
        for (unsigned long i = n; i > k; i--) {
            mpfi_mul_ui(t, t, i);
            mpfi_div_ui(t, t, n - i + 1);
            mpfi_mul(t, t, r);
            mpfi_add(s, s, t);
        }
    }
    mpfi_set(out, s);
    mpfi_clear(pp);
    mpfi_clear(q);
    mpfi_clear(r);
    mpfi_clear(t);
    mpfi_clear(s);
}

/* Intersects out with [0, 1] (the true probability lies there); a NaN or
 * empty result (cannot happen for a sound enclosure) becomes [0, 1]. */
static void clamp_unit(mpfi_ptr out)
{
    if (mpfr_sgn(&out->left) < 0 || mpfr_nan_p(&out->left))
        mpfr_set_zero(&out->left, 1);
    if (mpfr_cmp_ui(&out->right, 1) > 0 || mpfr_nan_p(&out->right))
        mpfr_set_ui(&out->right, 1, MPFR_RNDU);
    if (mpfr_greater_p(&out->left, &out->right))
        mpfi_interv_ui(out, 0, 1);
}

/* The exact tails at p = 0 or p = 1, where Bin(n, p) is a point mass. */
static bool tail_degenerate(mpfi_ptr out, unsigned long k, unsigned long n, mpfr_srcptr p,
                            bool lower)
{
    unsigned long x;
    if (mpfr_zero_p(p))
        x = 0;
    else if (mpfr_cmp_ui(p, 1) == 0)
        x = n;
    else
        return false;
    mpfi_set_ui(out, lower ? (x <= k) : (x >= k));
    return true;
}

/* P[X ≤ k] (lower) or P[X ≥ k] (upper) at working precision w, 0 < p < 1. */
static void tail_enclose(mpfi_ptr out, unsigned long k, unsigned long n, mpfr_srcptr p, bool lower,
                         mpfr_prec_t w)
{
    if (lower && k >= n) {
        mpfi_set_ui(out, 1);
        return;
    }
    if (!lower && k == 0) {
        mpfi_set_ui(out, 1);
        return;
    }
    /* Terms in the direct sum: k + 1 (lower) or n − k + 1 (upper). */
    unsigned long direct = lower ? k + 1 : n - k + 1;
    unsigned long other = n + 1 - direct;
    if (direct <= other) {
        tail_sum(out, k, n, p, lower, w);
    } else {
        /* P[X ≤ k] = 1 − P[X ≥ k + 1];  P[X ≥ k] = 1 − P[X ≤ k − 1]. */
        tail_sum(out, lower ? k + 1 : k - 1, n, p, !lower, w);
        mpfi_ui_sub(out, 1, out);
    }
    clamp_unit(out);
}

static ul_status check_tail_args(unsigned long k, unsigned long n, mpfr_srcptr p, char *err,
                                 size_t errlen)
{
    if (n == 0)
        return ul_fail(err, errlen, UL_EINPUT, "n must be at least 1");
    if (k > n)
        return ul_fail(err, errlen, UL_EINPUT, "k (%lu) must not exceed n (%lu)", k, n);
    if (p != NULL && (mpfr_nan_p(p) || mpfr_sgn(p) < 0 || mpfr_cmp_ui(p, 1) > 0))
        return ul_fail(err, errlen, UL_EINPUT, "p must lie in [0, 1]");
    return UL_OK;
}

static ul_status binom_tail(mpfi_ptr out, unsigned long k, unsigned long n, mpfr_srcptr p,
                            bool lower, char *err, size_t errlen)
{
    ul_num_init();
    ul_status st = check_tail_args(k, n, p, err, errlen);
    if (st != UL_OK)
        return st;
    if (tail_degenerate(out, k, n, p, lower))
        return UL_OK;
    mpfr_prec_t w = mpfi_get_prec(out) + guard_bits(n);
    mpfi_t t;
    mpfi_init2(t, w);
    tail_enclose(t, k, n, p, lower, w);
    mpfi_set(out, t); /* outward rounding to out's precision */
    mpfi_clear(t);
    return UL_OK;
}

ul_status ul_emp_binom_cdf(mpfi_ptr out, unsigned long k, unsigned long n, mpfr_srcptr p,
                           char *err, size_t errlen)
{
    return binom_tail(out, k, n, p, true, err, errlen);
}

ul_status ul_emp_binom_sf(mpfi_ptr out, unsigned long k, unsigned long n, mpfr_srcptr p,
                          char *err, size_t errlen)
{
    return binom_tail(out, k, n, p, false, err, errlen);
}

/* ---- Clopper–Pearson ---------------------------------------------------------- */

typedef struct {
    unsigned long k, n;
    mpfi_srcptr alpha;
    bool upper; /* upper bound: tail P[X ≤ k]; lower bound: tail P[X ≥ k] */
} cp_ctx;

/* SAFE means "x is on the bound's safe side": for the upper bound x ≥ p_hi,
 * certified by P[X ≤ k](x) ≤ inf α (the tail decreases in p); for the lower
 * bound x ≤ p_lo, certified by P[X ≥ k](x) ≤ inf α (the tail increases). */
static ul_side cp_classify(mpfr_srcptr x, mpfr_prec_t prec, void *vctx)
{
    const cp_ctx *c = vctx;
    if (mpfr_cmp_ui(x, 1) >= 0)
        return c->upper ? UL_SIDE_SAFE : UL_SIDE_UNSAFE;
    mpfr_prec_t w = prec + guard_bits(c->n);
    mpfi_t t;
    mpfi_init2(t, w);
    tail_enclose(t, c->k, c->n, x, c->upper, w);
    ul_side side = UL_SIDE_UNDECIDED;
    if (mpfr_lessequal_p(&t->right, &c->alpha->left))
        side = UL_SIDE_SAFE;
    else if (mpfr_greater_p(&t->left, &c->alpha->right))
        side = UL_SIDE_UNSAFE;
    mpfi_clear(t);
    return side;
}

static ul_status check_alpha(mpfi_srcptr alpha, char *err, size_t errlen)
{
    if (mpfi_nan_p(alpha) || mpfr_sgn(&alpha->left) <= 0 || mpfr_cmp_ui(&alpha->right, 1) >= 0)
        return ul_fail(err, errlen, UL_EINPUT, "alpha must lie strictly inside (0, 1)");
    return UL_OK;
}

static ul_status cp_bound(mpfr_ptr bound, unsigned long k, unsigned long n, mpfi_srcptr alpha,
                          int digits, bool upper, char *err, size_t errlen)
{
    ul_num_init();
    ul_status st = check_tail_args(k, n, NULL, err, errlen);
    if (st == UL_OK)
        st = check_alpha(alpha, err, errlen);
    if (st == UL_OK && digits < 1)
        st = ul_fail(err, errlen, UL_EINPUT, "digits must be at least 1");
    if (st != UL_OK)
        return st;
    /* Trivial ends: the tail is identically 1 > α. */
    if (upper && k == n) {
        mpfr_set_ui(bound, 1, MPFR_RNDU);
        return UL_OK;
    }
    if (!upper && k == 0) {
        mpfr_set_zero(bound, 1);
        return UL_OK;
    }
    cp_ctx c = {k, n, alpha, upper};
    ul_num_precision want = {digits, 0, 0};
    ul_num_report rep;
    mpfr_t safe, unsafe;
    mpfr_inits2(64, safe, unsafe, (mpfr_ptr)0);
    /* Upper: large p is safe.  Lower: small p is safe. */
    st = ul_num_bracket_threshold(cp_classify, &c, upper, &want, safe, unsafe, &rep, err, errlen);
    if (st == UL_OK || (st == UL_ECAP && !mpfr_nan_p(safe)))
        mpfr_set(bound, safe, upper ? MPFR_RNDU : MPFR_RNDD);
    else if (upper)
        mpfr_set_ui(bound, 1, MPFR_RNDU); /* nothing certified: the trivial bound */
    else
        mpfr_set_zero(bound, 1);
    mpfr_clears(safe, unsafe, (mpfr_ptr)0);
    return st;
}

ul_status ul_emp_cp_upper(mpfr_ptr bound, unsigned long k, unsigned long n, mpfi_srcptr alpha,
                          int digits, char *err, size_t errlen)
{
    return cp_bound(bound, k, n, alpha, digits, true, err, errlen);
}

ul_status ul_emp_cp_lower(mpfr_ptr bound, unsigned long k, unsigned long n, mpfi_srcptr alpha,
                          int digits, char *err, size_t errlen)
{
    return cp_bound(bound, k, n, alpha, digits, false, err, errlen);
}

/* ---- empirical ε from counts ----------------------------------------------- */

/* log((1 − δ_hi − a)/b) rounded down, or -inf when the numerator is ≤ 0. */
static void log_ratio_down(mpfr_ptr out, mpfr_srcptr delta_hi, mpfr_srcptr a, mpfr_srcptr b)
{
    mpfr_prec_t w = mpfr_get_prec(out) + 8;
    mpfr_t num;
    mpfr_init2(num, w);
    mpfr_ui_sub(num, 1, delta_hi, MPFR_RNDD);
    mpfr_sub(num, num, a, MPFR_RNDD);
    if (mpfr_sgn(num) <= 0) {
        mpfr_set_inf(out, -1);
    } else {
        mpfr_div(num, num, b, MPFR_RNDD);
        mpfr_log(out, num, MPFR_RNDD);
    }
    mpfr_clear(num);
}

#define UL_EMP_CP_DIGITS 10

ul_status ul_emp_eps_lb_counts(mpfr_ptr eps_lb, unsigned long fp, unsigned long n_out,
                               unsigned long fn, unsigned long n_in, mpfi_srcptr alpha,
                               mpfi_srcptr delta, unsigned long m, mpfr_ptr fpr_hi,
                               mpfr_ptr fnr_hi, char *err, size_t errlen)
{
    ul_num_init();
    if (n_out == 0)
        return ul_fail(err, errlen, UL_EINPUT, "n_out must be at least 1");
    if (n_in == 0)
        return ul_fail(err, errlen, UL_EINPUT, "n_in must be at least 1");
    if (fp > n_out)
        return ul_fail(err, errlen, UL_EINPUT, "fp (%lu) must not exceed n_out (%lu)", fp, n_out);
    if (fn > n_in)
        return ul_fail(err, errlen, UL_EINPUT, "fn (%lu) must not exceed n_in (%lu)", fn, n_in);
    if (m == 0)
        return ul_fail(err, errlen, UL_EINPUT, "m (number of thresholds) must be at least 1");
    ul_status st = check_alpha(alpha, err, errlen);
    if (st != UL_OK)
        return st;
    if (mpfi_nan_p(delta) || mpfr_sgn(&delta->left) < 0 || mpfr_cmp_ui(&delta->right, 1) >= 0)
        return ul_fail(err, errlen, UL_EINPUT, "delta must lie in [0, 1)");

    mpfr_prec_t w = mpfr_get_prec(eps_lb) + 16;
    mpfi_t level;
    mpfi_init2(level, mpfi_get_prec(alpha) + 64);
    mpfi_div_ui(level, alpha, 2);
    mpfi_div_ui(level, level, m); /* α/(2m), outward */
    mpfr_t f, g, a, b;
    mpfr_inits2(w, f, g, a, b, (mpfr_ptr)0);
    ul_status s1 = ul_emp_cp_upper(f, fp, n_out, level, UL_EMP_CP_DIGITS, err, errlen);
    ul_status s2 = UL_OK;
    if (s1 == UL_OK || s1 == UL_ECAP)
        s2 = ul_emp_cp_upper(g, fn, n_in, level, UL_EMP_CP_DIGITS, err, errlen);
    if (s1 != UL_OK && s1 != UL_ECAP) {
        st = s1;
    } else if (s2 != UL_OK && s2 != UL_ECAP) {
        st = s2;
    } else {
        st = s1 != UL_OK ? s1 : s2; /* UL_ECAP: still sound, only looser */
        /* f, g are ≥ the true CP bounds and > 0 (CP upper bound ≥ 1 − α^(1/n) > 0). */
        log_ratio_down(a, &delta->right, g, f);
        log_ratio_down(b, &delta->right, f, g);
        mpfr_max(a, a, b, MPFR_RNDD);
        if (mpfr_sgn(a) < 0 || mpfr_nan_p(a))
            mpfr_set_zero(a, 1);
        mpfr_set(eps_lb, a, MPFR_RNDD);
        if (fpr_hi)
            mpfr_set(fpr_hi, f, MPFR_RNDU);
        if (fnr_hi)
            mpfr_set(fnr_hi, g, MPFR_RNDU);
    }
    mpfr_clears(f, g, a, b, (mpfr_ptr)0);
    mpfi_clear(level);
    return st;
}

/* ---- scores → ROC ------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static ul_status check_scores(const double *s, size_t n, const char *name, char *err, size_t errlen)
{
    if (s == NULL || n == 0)
        return ul_fail(err, errlen, UL_EINPUT, "%s must not be empty", name);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(s[i]))
            return ul_fail(err, errlen, UL_EINPUT, "%s[%zu] is not a finite number", name, i);
    return UL_OK;
}

/* Double-precision standard normal upper quantile z with Q(z) = a (for
 * ranking only), by bisection on erfc. */
static double z_upper(double a)
{
    double lo = 0, hi = 40;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (0.5 * erfc(mid / sqrt(2.0)) > a)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* Wilson score one-sided upper bound for k/n (ranking only). */
static double wilson_upper(double k, double n, double z)
{
    double ph = k / n, z2 = z * z;
    double c = ph + z2 / (2 * n) + z * sqrt(ph * (1 - ph) / n + z2 / (4 * n * n));
    double u = c / (1 + z2 / n);
    return u > 1 ? 1 : u;
}

static double eps_estimate(double fu, double nu, double delta)
{
    double e1 = (1 - delta - nu) > 0 ? log((1 - delta - nu) / fu) : -INFINITY;
    double e2 = (1 - delta - fu) > 0 ? log((1 - delta - fu) / nu) : -INFINITY;
    return e1 > e2 ? e1 : e2;
}

#define UL_EMP_N_CANDIDATES 3

ul_status ul_emp_roc_compute(ul_emp_roc *out, const double *in_scores, size_t n_in,
                             const double *out_scores, size_t n_out, mpfi_srcptr alpha,
                             mpfi_srcptr delta, char *err, size_t errlen)
{
    ul_num_init();
    out->points = NULL;
    out->n_points = 0;
    out->auc = 0;
    for (int i = 0; i < UL_EMP_N_FPR_LEVELS; i++)
        out->tpr_at_fpr[i] = 0;
    out->n_thresholds = 0;
    out->threshold = INFINITY;
    out->fp = 0;
    out->fn = 0;
    mpfr_init2(out->eps_lb, 64);
    mpfr_set_zero(out->eps_lb, 1);

    ul_status st = check_scores(in_scores, n_in, "in_scores", err, errlen);
    if (st == UL_OK)
        st = check_scores(out_scores, n_out, "out_scores", err, errlen);
    if (st == UL_OK)
        st = check_alpha(alpha, err, errlen);
    if (st == UL_OK && (mpfi_nan_p(delta) || mpfr_sgn(&delta->left) < 0 ||
                        mpfr_cmp_ui(&delta->right, 1) >= 0))
        st = ul_fail(err, errlen, UL_EINPUT, "delta must lie in [0, 1)");
    if (st != UL_OK)
        return st;

    double *a = malloc(n_in * sizeof *a);
    double *b = malloc(n_out * sizeof *b);
    /* At most n_in + n_out thresholds; per threshold: value, fp, fn. */
    size_t cap = n_in + n_out;
    double *tv = malloc(cap * sizeof *tv);
    unsigned long *tfp = malloc(cap * sizeof *tfp);
    unsigned long *tfn = malloc(cap * sizeof *tfn);
    out->points = malloc((cap + 1) * sizeof *out->points);
    if (!a || !b || !tv || !tfp || !tfn || !out->points)
        abort(); /* out of memory: as elsewhere in the library */
    for (size_t i = 0; i < n_in; i++)
        a[i] = in_scores[i];
    for (size_t i = 0; i < n_out; i++)
        b[i] = out_scores[i];
    qsort(a, n_in, sizeof *a, cmp_double);
    qsort(b, n_out, sizeof *b, cmp_double);

    /* Sweep distinct values in descending order; ia/ib count scores ≥ t. */
    size_t ia = 0, ib = 0, m = 0;
    out->points[0] = (ul_emp_roc_point){0, 0};
    while (ia < n_in || ib < n_out) {
        double t = -INFINITY;
        if (ia < n_in)
            t = a[n_in - 1 - ia];
        if (ib < n_out && b[n_out - 1 - ib] > t)
            t = b[n_out - 1 - ib];
        while (ia < n_in && a[n_in - 1 - ia] >= t)
            ia++;
        while (ib < n_out && b[n_out - 1 - ib] >= t)
            ib++;
        tv[m] = t;
        tfp[m] = (unsigned long)ib;
        tfn[m] = (unsigned long)(n_in - ia);
        out->points[m + 1] = (ul_emp_roc_point){(double)ib / (double)n_out, (double)ia / (double)n_in};
        m++;
    }
    out->n_points = m + 1;
    out->n_thresholds = (unsigned long)m;
    for (size_t i = 1; i < out->n_points; i++) {
        const ul_emp_roc_point *p = &out->points[i - 1], *q = &out->points[i];
        out->auc += (q->fpr - p->fpr) * (q->tpr + p->tpr) / 2;
    }
    for (int l = 0; l < UL_EMP_N_FPR_LEVELS; l++)
        for (size_t i = 0; i < out->n_points; i++)
            if (out->points[i].fpr <= ul_emp_fpr_levels[l] && out->points[i].tpr > out->tpr_at_fpr[l])
                out->tpr_at_fpr[l] = out->points[i].tpr;

    /* Rank thresholds by a Wilson estimate of the Bonferroni-corrected ε. */
    double lvl = mpfr_get_d(&alpha->left, MPFR_RNDD) / (2.0 * (double)m);
    double z = z_upper(lvl);
    double dd = mpfr_get_d(&delta->right, MPFR_RNDU);
    size_t best[UL_EMP_N_CANDIDATES];
    double best_e[UL_EMP_N_CANDIDATES];
    size_t nb = 0;
    for (size_t i = 0; i < m; i++) {
        double e = eps_estimate(wilson_upper((double)tfp[i], (double)n_out, z),
                                wilson_upper((double)tfn[i], (double)n_in, z), dd);
        if (isnan(e))
            e = -INFINITY;
        size_t j;
        if (nb < UL_EMP_N_CANDIDATES)
            j = nb++;
        else if (e > best_e[UL_EMP_N_CANDIDATES - 1])
            j = UL_EMP_N_CANDIDATES - 1;
        else
            continue;
        for (; j > 0 && best_e[j - 1] < e; j--) {
            best[j] = best[j - 1];
            best_e[j] = best_e[j - 1];
        }
        best[j] = i;
        best_e[j] = e;
    }

    /* Certify the candidates; keep the largest certified bound. */
    mpfr_t e;
    mpfr_init2(e, 64);
    bool have = false;
    for (size_t c = 0; c < nb && st == UL_OK; c++) {
        size_t i = best[c];
        ul_status s = ul_emp_eps_lb_counts(e, tfp[i], (unsigned long)n_out, tfn[i],
                                           (unsigned long)n_in, alpha, delta, (unsigned long)m,
                                           NULL, NULL, err, errlen);
        if (s != UL_OK && s != UL_ECAP) {
            st = s;
            break;
        }
        if (!have || mpfr_greater_p(e, out->eps_lb)) {
            mpfr_set(out->eps_lb, e, MPFR_RNDD);
            out->threshold = tv[i];
            out->fp = tfp[i];
            out->fn = tfn[i];
            have = true;
        }
    }
    mpfr_clear(e);
    free(a);
    free(b);
    free(tv);
    free(tfp);
    free(tfn);
    return st;
}

void ul_emp_roc_clear(ul_emp_roc *r)
{
    free(r->points);
    r->points = NULL;
    r->n_points = 0;
    mpfr_clear(r->eps_lb);
}
