/* src/stats/stats.c — binomial tails, Clopper–Pearson, empirical ε, ROC.
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
 * `_clopper_pearson_upper` = beta.ppf(1 − s, k + 1, n − k), jax_privacy/auditing.py;
 * docs/accounting.md, "jax_privacy auditing"): the
 * upper bound is the p where P[Bin(n, p) ≤ k] = α, found by
 * ul_num_bracket_threshold with certified comparisons of the enclosed tail
 * against the enclosure of α; the lower bound likewise with P[Bin ≥ k].
 */
#include "stats/stats.h"

#include "stats/eps_lb.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

ul_status ul_emp_binom_cdf(mpfi_ptr out, unsigned long k, unsigned long n, mpfr_srcptr p, char *err,
                           size_t errlen)
{
    return binom_tail(out, k, n, p, true, err, errlen);
}

ul_status ul_emp_binom_sf(mpfi_ptr out, unsigned long k, unsigned long n, mpfr_srcptr p, char *err,
                          size_t errlen)
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
                               mpfi_srcptr delta, unsigned long m, mpfr_ptr fpr_hi, mpfr_ptr fnr_hi,
                               char *err, size_t errlen)
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

/* ---- the joint threshold test (stats/eps_lb.h, JOINT) ------------------------ */

/* [lo, hi] enclosing P[Bin(n, p) ≥ x] for p ∈ [p_lo, p_hi] (the tail
 * increases in p); p above 1 counts as 1. */
static void sf_range(mpfr_ptr lo, mpfr_ptr hi, unsigned long x, unsigned long n, mpfr_srcptr p_lo,
                     mpfr_srcptr p_hi, mpfi_ptr t)
{
    char err[64];
    if (mpfr_cmp_ui(p_lo, 1) >= 0)
        mpfr_set_ui(lo, 1, MPFR_RNDD);
    else if (ul_emp_binom_sf(t, x, n, p_lo, err, sizeof err) == UL_OK)
        mpfr_set(lo, &t->left, MPFR_RNDD);
    else
        mpfr_set_zero(lo, 1);
    if (mpfr_cmp_ui(p_hi, 1) >= 0 || ul_emp_binom_sf(t, x, n, p_hi, err, sizeof err) != UL_OK)
        mpfr_set_ui(hi, 1, MPFR_RNDU);
    else
        mpfr_set(hi, &t->right, MPFR_RNDU);
}

/* [p_lo, p_hi] ⊇ e^ε f + δ (ε, f exact; δ an enclosure). */
static void shifted_rate(mpfr_ptr p_lo, mpfr_ptr p_hi, mpfr_srcptr eps, double f, mpfi_srcptr delta)
{
    mpfr_exp(p_lo, eps, MPFR_RNDD);
    mpfr_exp(p_hi, eps, MPFR_RNDU);
    mpfr_mul_d(p_lo, p_lo, f, MPFR_RNDD);
    mpfr_mul_d(p_hi, p_hi, f, MPFR_RNDU);
    mpfr_add(p_lo, p_lo, &delta->left, MPFR_RNDD);
    mpfr_add(p_hi, p_hi, &delta->right, MPFR_RNDU);
}

ul_status ul_emp_joint_pvalue_upper(mpfr_ptr out, unsigned long k, unsigned long n0,
                                    unsigned long x, unsigned long n1, mpfr_srcptr eps,
                                    mpfi_srcptr delta, const double *f, size_t nf, char *err,
                                    size_t errlen)
{
    ul_num_init();
    if (k >= n0 || x > n1 || nf == 0)
        return ul_fail(err, errlen, UL_EINPUT, "joint test: k < n0, x <= n1 and a grid needed");
    mpfi_t t;
    mpfi_init2(t, 96);
    mpfr_t g, s_lo, s_hi, next_lo, p_lo, p_hi, acc, d;
    mpfr_inits2(96, g, s_lo, s_hi, next_lo, p_lo, p_hi, acc, d, (mpfr_ptr)0);
    mpfr_set_zero(acc, 1); /* Σ_j G(f_j)·(S(f_(j+1)) − S(f_j)), rounded down */
    shifted_rate(p_lo, p_hi, eps, f[0], delta);
    sf_range(s_lo, s_hi, x, n1, p_lo, p_hi, t);
    for (size_t j = 0; j < nf; j++) {
        if (j + 1 < nf) {
            shifted_rate(p_lo, p_hi, eps, f[j + 1], delta);
            sf_range(next_lo, d, x, n1, p_lo, p_hi, t);
        } else {
            mpfr_set_ui(next_lo, 1, MPFR_RNDD); /* S(f_(J+1)) := 1 */
            mpfr_set_ui(d, 1, MPFR_RNDU);
        }
        mpfr_set_d(p_lo, f[j], MPFR_RNDN); /* exact */
        if (ul_emp_binom_sf(t, k + 1, n0, p_lo, err, errlen) != UL_OK)
            mpfr_set_zero(g, 1);
        else
            mpfr_set(g, &t->left, MPFR_RNDD);     /* G(f_j) = P[Bin(n0, f_j) ≥ k + 1] */
        mpfr_sub(s_hi, next_lo, s_hi, MPFR_RNDD); /* ≤ S(f_(j+1)) − S(f_j), which is ≥ 0 */
        if (mpfr_sgn(s_hi) > 0) {
            mpfr_mul(s_hi, s_hi, g, MPFR_RNDD);
            mpfr_add(acc, acc, s_hi, MPFR_RNDD);
        }
        mpfr_set(s_hi, d, MPFR_RNDU); /* S(f_(j+1)) upper, for the next cell */
    }
    mpfr_ui_sub(out, 1, acc, MPFR_RNDU);
    mpfr_clears(g, s_lo, s_hi, next_lo, p_lo, p_hi, acc, d, (mpfr_ptr)0);
    mpfi_clear(t);
    return UL_OK;
}

/* ---- scores → ROC ------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

ul_status ul_emp_check_scores(const double *s, size_t n, const char *name, char *err, size_t errlen)
{
    if (s == NULL || n == 0)
        return ul_fail(err, errlen, UL_EINPUT, "%s must not be empty", name);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(s[i]))
            return ul_fail(err, errlen, UL_EINPUT, "%s[%zu] is not a finite number", name, i);
    return UL_OK;
}

size_t ul_emp_roc_counts(const double *a, size_t n_in, const double *b, size_t n_out,
                         unsigned long *fp, unsigned long *tp, double *thr)
{
    /* Sweep distinct values in descending order; ia/ib count scores ≥ t. */
    size_t ia = 0, ib = 0, m = 0;
    fp[0] = 0, tp[0] = 0;
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
        m++;
        fp[m] = (unsigned long)ib, tp[m] = (unsigned long)ia;
        if (thr)
            thr[m] = t;
    }
    return m;
}

ul_status ul_emp_roc_compute(ul_emp_roc *out, const double *in_scores, size_t n_in,
                             const double *out_scores, size_t n_out, mpfi_srcptr alpha,
                             mpfi_srcptr delta, char *err, size_t errlen)
{
    return ul_emp_roc_compute_opts(out, in_scores, n_in, out_scores, n_out, alpha, delta, NULL, err,
                                   errlen);
}

/* Points, AUC and TPR at the FPR levels (the scores were checked).
 * UL_ENOMEM when the arrays for n_in + n_out scores cannot be had (sized by
 * the input: policy of num/status.h). */
static ul_status roc_curve(ul_emp_roc *out, const double *in_scores, size_t n_in,
                           const double *out_scores, size_t n_out, char *err, size_t errlen)
{
    size_t cap = n_in + n_out + 1; /* at most n_in + n_out distinct thresholds */
    double *a = malloc(n_in * sizeof *a), *b = malloc(n_out * sizeof *b);
    unsigned long *fp = malloc(cap * sizeof *fp), *tp = malloc(cap * sizeof *tp);
    out->points = malloc(cap * sizeof *out->points);
    if (!a || !b || !fp || !tp || !out->points) {
        free(a), free(b), free(fp), free(tp), free(out->points);
        out->points = NULL;
        return ul_fail(err, errlen, UL_ENOMEM,
                       "roc: out of memory for the curve of %zu in_scores and %zu out_scores", n_in,
                       n_out);
    }
    memcpy(a, in_scores, n_in * sizeof *a);
    memcpy(b, out_scores, n_out * sizeof *b);
    qsort(a, n_in, sizeof *a, cmp_double);
    qsort(b, n_out, sizeof *b, cmp_double);
    size_t m = ul_emp_roc_counts(a, n_in, b, n_out, fp, tp, NULL);
    for (size_t i = 0; i <= m; i++)
        out->points[i] =
            (ul_emp_roc_point){(double)fp[i] / (double)n_out, (double)tp[i] / (double)n_in};
    out->n_points = m + 1;
    for (size_t i = 1; i < out->n_points; i++) {
        const ul_emp_roc_point *p = &out->points[i - 1], *q = &out->points[i];
        out->auc += (q->fpr - p->fpr) * (q->tpr + p->tpr) / 2;
    }
    for (int l = 0; l < UL_EMP_N_FPR_LEVELS; l++)
        out->tpr_defined[l] = (double)n_out * ul_emp_fpr_levels[l] >= 1;
    for (int l = 0; l < UL_EMP_N_FPR_LEVELS; l++)
        for (size_t i = 0; i < out->n_points; i++)
            if (out->points[i].fpr <= ul_emp_fpr_levels[l] &&
                out->points[i].tpr > out->tpr_at_fpr[l])
                out->tpr_at_fpr[l] = out->points[i].tpr;
    free(a), free(b), free(fp), free(tp);
    return UL_OK;
}

static void roc_init(ul_emp_roc *out)
{
    ul_num_init();
    out->points = NULL;
    out->n_points = 0;
    out->auc = 0;
    for (int i = 0; i < UL_EMP_N_FPR_LEVELS; i++)
        out->tpr_at_fpr[i] = 0, out->tpr_defined[i] = false;
    out->n_thresholds = 0;
    out->threshold = INFINITY;
    out->fp = 0;
    out->fn = 0;
    mpfr_init2(out->eps_lb, 64);
    mpfr_set_zero(out->eps_lb, 1);
}

ul_status ul_emp_roc_curve(ul_emp_roc *out, const double *in_scores, size_t n_in,
                           const double *out_scores, size_t n_out, char *err, size_t errlen)
{
    roc_init(out);
    ul_status st = ul_emp_check_scores(in_scores, n_in, "in_scores", err, errlen);
    if (st == UL_OK)
        st = ul_emp_check_scores(out_scores, n_out, "out_scores", err, errlen);
    if (st == UL_OK)
        st = roc_curve(out, in_scores, n_in, out_scores, n_out, err, errlen);
    return st;
}

ul_status ul_emp_roc_compute_opts(ul_emp_roc *out, const double *in_scores, size_t n_in,
                                  const double *out_scores, size_t n_out, mpfi_srcptr alpha,
                                  mpfi_srcptr delta, const ul_emp_lb_opts *opts, char *err,
                                  size_t errlen)
{
    ul_status st = ul_emp_roc_curve(out, in_scores, n_in, out_scores, n_out, err, errlen);
    if (st != UL_OK)
        return st;
    /* The certified bound of stats/eps_lb.h (NULL: the legacy ALL method). */
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    if (opts)
        o = *opts;
    else
        o.method = UL_EMP_LB_ALL;
    ul_emp_lb_result lb;
    ul_emp_lb_init(&lb);
    st = ul_emp_eps_lb(&lb, in_scores, n_in, out_scores, n_out, alpha, delta, &o, err, errlen);
    if (st == UL_OK || st == UL_ECAP) {
        mpfr_set(out->eps_lb, lb.eps_lb, MPFR_RNDD);
        out->n_thresholds = lb.m;
        out->threshold = lb.threshold;
        out->fp = lb.fp;
        out->fn = lb.fn;
    }
    ul_emp_lb_clear(&lb);
    return st;
}

void ul_emp_roc_clear(ul_emp_roc *r)
{
    free(r->points);
    r->points = NULL;
    r->n_points = 0;
    mpfr_clear(r->eps_lb);
}
