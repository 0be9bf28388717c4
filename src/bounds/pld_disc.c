/* src/bounds/pld_disc.c — the PLD accountant's per-step loss distributions
 * (in doubles for choices, enclosed for bounds) and the connect-the-dots
 * discretisation with certified bin masses (pld.c §1). */

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/pld_fft.h"
#include "bounds/pld_internal.h"
#include "num/gauss_tail.h"

/* ---- the loss distributions in doubles (choices only, never bounds) ---------- */

double ul_pld_q_d(double x)
{
    return 0.5 * erfc(x * 0.70710678118654752440);
}

/* The REMOVE loss at noise value x: log(1 − q + q·e^{rx − r²/2}). */
static double lrem_d(const mech *m, double x)
{
    double r = m->rd, q = m->qd, a = r * x - 0.5 * r * r;
    if (a > 700)
        return log(q) + a + log1p((1 - q) / q * exp(-a));
    return log1p(q * expm1(a));
}

/* The noise value where the REMOVE loss is v; −inf when v ≤ log(1 − q). */
static double xinv_d(const mech *m, double v)
{
    double r = m->rd, q = m->qd, lg;
    if (v > 30) {
        lg = v - log(q) + log1p((q - 1) * exp(-v));
    } else {
        double a = expm1(v) / q;
        if (!(a > -1))
            return -INFINITY;
        lg = log1p(a);
    }
    return 0.5 * r + lg / r;
}

/* P[L > ℓ] in doubles. */
static double sf_d(const mech *m, double l)
{
    double r = m->rd, q = m->qd;
    if (!m->subsampled)
        return ul_pld_q_d((l - 0.5 * r * r) / r);
    if (m->dir == DIR_REMOVE) {
        double x = xinv_d(m, l);
        return isinf(x) ? 1 : (1 - q) * ul_pld_q_d(x) + q * ul_pld_q_d(x - r);
    }
    double x = xinv_d(m, -l);
    return isinf(x) ? 0 : ul_pld_q_d(-x);
}

/* z with Q(z) = tau (bisection; tau in [1e-300, 0.5]). */
double ul_pld_z_of_tail(double tau)
{
    double lo = 0, hi = 40;
    for (int i = 0; i < 100; i++) {
        double mid = 0.5 * (lo + hi);
        if (ul_pld_q_d(mid) > tau)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* The loss range holding all but about tau of the mass in each tail. */
void ul_pld_range_d(const mech *m, double tau, double *lo, double *hi)
{
    double z = ul_pld_z_of_tail(tau), r = m->rd;
    if (!m->subsampled) {
        *lo = 0.5 * r * r - r * z;
        *hi = 0.5 * r * r + r * z;
    } else if (m->dir == DIR_REMOVE) {
        /* P[L > ℓ(x)] = (1−q)Q(x) + qQ(x − r) ≤ tau when Q(x) ≤ tau/2 and
         * Q(x − r) ≤ tau/(2q) (a choice: the mass above the grid is bounded
         * in MPFI by discretise, whatever the range) */
        double z2 = ul_pld_z_of_tail(tau / 2), zq = ul_pld_z_of_tail(fmin(0.5, tau / (2 * m->qd)));
        *lo = lrem_d(m, -z);
        *hi = lrem_d(m, fmax(z2, r + zq));
    } else {
        *lo = -lrem_d(m, z);
        *hi = -lrem_d(m, -z);
    }
}

/* Variance of the loss, from 4096 bins in doubles (a scale, not a bound). */
double ul_pld_variance_d(const mech *m, double lo, double hi)
{
    const int bins = 4096;
    double step = (hi - lo) / bins, s0 = 0, s1 = 0, s2 = 0, prev = sf_d(m, lo);
    for (int i = 1; i <= bins; i++) {
        double l = lo + step * i, cur = sf_d(m, l), p = prev - cur, c = l - 0.5 * step;
        if (p > 0) {
            s0 += p;
            s1 += p * c;
            s2 += p * c * c;
        }
        prev = cur;
    }
    if (!(s0 > 0))
        return step * step;
    double mean = s1 / s0, var = s2 / s0 - mean * mean;
    return var > step * step ? var : step * step;
}

/* The per-step ranges at tail tau/(8T) each (as discretise truncates) and
 * the composed variance, in doubles (choices only). */
pld_spread ul_pld_spread_d(const mech *ms, size_t nm, double tau)
{
    pld_spread sp = {0, 0, 0, 0};
    for (size_t i = 0; i < nm; i++)
        sp.T += (double)ms[i].steps;
    for (size_t i = 0; i < nm; i++) {
        double lo, hi;
        ul_pld_range_d(&ms[i], tau / (8 * sp.T), &lo, &hi);
        sp.range = fmax(sp.range, hi - lo);
        sp.total += (double)ms[i].steps * (hi - lo);
        sp.var += (double)ms[i].steps * ul_pld_variance_d(&ms[i], lo, hi);
    }
    return sp;
}

/* ---- the loss distributions, enclosed ----------------------------------------- */

/* X ⊇ x(v) = r/2 + log1p(expm1(v)/q)/r, the noise value where the REMOVE loss
 * equals v.  Returns 0 when X encloses it; 1 when x = −∞ throughout (every
 * v in the box is ≤ log(1 − q)); 2 when only the upper end is finite (X then
 * encloses x at the box's upper end, and the lower end is −∞). */
static int x_of_loss(mpfi_ptr X, const mech *m, mpfi_srcptr v, mpfr_prec_t p)
{
    mpfi_t a;
    mpfi_init2(a, p);
    mpfi_expm1(a, v);
    mpfi_div(a, a, m->q);
    int kind = 0;
    if (mpfr_cmp_si(&a->right, -1) <= 0) {
        kind = 1;
    } else {
        if (mpfr_cmp_si(&a->left, -1) <= 0) {
            kind = 2;
            mpfi_set_fr(a, &a->right);
        }
        mpfi_log1p(a, a);
        mpfi_div(a, a, m->r);
        mpfi_add(X, a, m->half_r);
    }
    mpfi_clear(a);
    return kind;
}

/* out ⊇ c1·Q(a) + c2·Q(b) (c1 may be [0, 0]). */
static void q_combination(mpfi_ptr out, mpfi_srcptr c1, mpfi_srcptr a, mpfi_srcptr c2,
                          mpfi_srcptr b, mpfr_prec_t p)
{
    mpfi_t t1, t2;
    mpfi_init2(t1, p);
    mpfi_init2(t2, p);
    ul_num_q(t1, a);
    mpfi_mul(t1, t1, c1);
    ul_num_q(t2, b);
    mpfi_mul(t2, t2, c2);
    mpfi_add(out, t1, t2);
    mpfi_clear(t1);
    mpfi_clear(t2);
}

/* out ⊇ P[L > ℓ] (upper) or P[L ≤ ℓ] (!upper) at the exact loss ℓ, inside
 * [0, 1].  Gaussian: L ~ N(r²/2, r²).  REMOVE: P[L > ℓ] = P[X > x(ℓ)] with
 * X ~ (1−q)N(0,1) + qN(r,1), i.e. (1−q)Q(x) + qQ(x − r).  ADD: L = −ℓ_rem(X),
 * X ~ N(0,1), so P[L > ℓ] = P[X < x(−ℓ)] = Q(−x(−ℓ)).  Each is monotone in
 * x, so a half-infinite x box is covered by its finite end and the limit. */
static void loss_tail(mpfi_ptr out, const mech *m, mpfr_srcptr loss, bool upper, mpfr_prec_t p)
{
    mpfi_t l, x, a, b;
    mpfi_init2(l, p);
    mpfi_init2(x, p);
    mpfi_init2(a, p);
    mpfi_init2(b, p);
    mpfi_set_fr(l, loss);
    if (!m->subsampled) {
        mpfi_sub(a, l, m->half_r2);
        mpfi_div(a, a, m->r);
        if (!upper)
            mpfi_neg(a, a);
        ul_num_q(out, a);
    } else if (m->dir == DIR_REMOVE) {
        int kind = x_of_loss(x, m, l, p);
        if (kind == 1) {
            mpfi_set_ui(out, upper ? 1 : 0);
        } else {
            mpfi_sub(b, x, m->r); /* x − r */
            if (upper) {
                mpfi_set(a, x);
            } else {
                mpfi_neg(a, x);
                mpfi_neg(b, b);
            }
            q_combination(out, m->omq, a, m->q, b, p);
            if (kind == 2)
                mpfi_put_ui(out, upper ? 1 : 0);
        }
    } else {
        mpfi_neg(l, l);
        int kind = x_of_loss(x, m, l, p);
        if (kind == 1) {
            mpfi_set_ui(out, upper ? 0 : 1);
        } else {
            if (upper)
                mpfi_neg(a, x);
            else
                mpfi_set(a, x);
            ul_num_q(out, a);
            if (kind == 2)
                mpfi_put_ui(out, upper ? 0 : 1);
        }
    }
    /* probabilities lie in [0, 1] */
    mpfi_set_ui(a, 0);
    mpfi_put_ui(a, 1);
    mpfi_intersect(out, out, a);
    mpfi_clear(l);
    mpfi_clear(x);
    mpfi_clear(a);
    mpfi_clear(b);
}


/* ---- discretisation (§1) -------------------------------------------------------- */



void ul_pld_disc_init(disc *d)
{
    memset(d, 0, sizeof *d);
    mpfr_inits2(64, d->p_inf, d->slack, d->sum_pess, d->sum_opt, d->l2_pess, d->l2_opt,
                (mpfr_ptr)0);
}

void ul_pld_disc_clear(disc *d)
{
    free(d->pess);
    free(d->opt);
    free(d->gmass);
    free(d->gmass_opt);
    free(d->lgmass);
    mpfr_clears(d->p_inf, d->slack, d->sum_pess, d->sum_opt, d->l2_pess, d->l2_opt,
                (mpfr_ptr)0);
}

/* loss = idx·h exactly (|idx| < 2^52, h a double: the product has ≤ 106 bits). */
void ul_pld_exact_loss(mpfr_ptr loss, double idx, double h)
{
    mpfr_set_prec(loss, 128);
    mpfr_set_d(loss, idx, MPFR_RNDN);
    mpfr_mul_d(loss, loss, h, MPFR_RNDN);
}

/* sum ≥ Σ x, max ≥ max x, l2 ≥ ‖x‖₂ ≤ √(max·Σ) (all rounded up; x ≥ 0). */
static void array_norms(const double *x, size_t n, mpfr_ptr sum, mpfr_ptr l2)
{
    double mx = 0;
    mpfr_set_zero(sum, 1);
    for (size_t k = 0; k < n; k++) {
        mpfr_add_d(sum, sum, x[k], MPFR_RNDU);
        if (x[k] > mx)
            mx = x[k];
    }
    mpfr_mul_d(l2, sum, mx, MPFR_RNDU);
    mpfr_sqrt(l2, l2, MPFR_RNDU);
}

/* ---- bin masses without erfc ----------------------------------------------------- */

/* ---- double-word arithmetic (series_dw) -----------------------------------------

 * A double-word x = hi + lo, hi = RN(hi + lo), in binary64 rounded to
 * nearest (C17 Annex F, FLT_EVAL_METHOD 0; no error-free transform below has
 * a product a compiler could contract, and a contraction elsewhere only
 * removes a rounding).
 * With u = 2^-53 and no underflow or overflow: TwoSum and Fast2Sum are exact
 * (Knuth; Dekker), and so is TwoProd by fma (the error of a product is a
 * double when the product is ≥ 2^-969 in magnitude); AccurateDWPlusDW
 * errs by ≤ 3u² + 13u³ relative and DWTimesDW3 by ≤ 5u² (Joldes, Muller
 * and Popescu 2017, ACM TOMS 44(2), Algorithms 6 and 12).  dw_mul flags a
 * product of nonzero factors below 2^-900 (*tiny): underflow could then
 * spoil these bounds and the caller falls back to MPFR. */
typedef struct {
    double hi, lo;
} dw;

static dw fast_two_sum(double a, double b) /* |a| ≥ |b| or a = 0 */
{
    double s = a + b;
    return (dw){s, b - (s - a)};
}

static dw dw_add(dw x, dw y)
{
    double sh = x.hi + y.hi, sb = sh - x.hi;
    double sl = (x.hi - (sh - sb)) + (y.hi - sb); /* TwoSum */
    double th = x.lo + y.lo, tb = th - x.lo;
    double tl = (x.lo - (th - tb)) + (y.lo - tb);
    dw v = fast_two_sum(sh, sl + th);
    return fast_two_sum(v.hi, tl + v.lo);
}

static dw dw_mul(dw x, dw y, bool *tiny)
{
    double ch = x.hi * y.hi;
    if (x.hi != 0 && y.hi != 0 && !(fabs(ch) >= 0x1p-900))
        *tiny = true;
    double cl1 = fma(x.hi, y.hi, -ch); /* TwoProd */
    double tl1 = fma(x.hi, y.lo, x.lo * y.lo);
    double cl2 = fma(x.lo, y.hi, tl1);
    return fast_two_sum(ch, cl1 + cl2);
}

/* Constants shared by the bin-mass evaluations at one precision. */
#define SERIES_TERMS 400 /* normal_mass_series gives up beyond this */

typedef struct {
    mpfr_prec_t p;
    long target_bits;           /* relative accuracy the series aims at (a choice) */
    mpfi_t inv_sqrt_2pi;        /* 1/√(2π) */
    mpfr_t log2e_up;            /* ≥ log2(e), 32 bits */
    mpfi_t inv[SERIES_TERMS + 1]; /* inv[n] ⊇ 1/(n + 1) */
    mpfr_t invm[SERIES_TERMS + 1]; /* 1/(n + 1) rounded to nearest */
    dw invd[SERIES_TERMS + 1];     /* 1/(n + 1) within 2^-106 relative (series_dw) */
    mpfr_t s[12];                  /* scratch at p bits */
    mpfr_t b[6];                   /* scratch at 64 bits (bounds) */
    mpfr_t d53;                    /* a double, exactly */
    mpfi_t v[12];                  /* scratch at p bits */
    double log2e_d;                /* ≥ log2(e) */
} mass_ctx;

static void mass_ctx_init(mass_ctx *c, mpfr_prec_t p)
{
    c->p = p;
    c->target_bits = (long)p - 16;
    mpfi_init2(c->inv_sqrt_2pi, p);
    mpfi_const_pi(c->inv_sqrt_2pi);
    mpfi_mul_2ui(c->inv_sqrt_2pi, c->inv_sqrt_2pi, 1);
    mpfi_sqrt(c->inv_sqrt_2pi, c->inv_sqrt_2pi);
    mpfi_ui_div(c->inv_sqrt_2pi, 1, c->inv_sqrt_2pi);
    mpfr_init2(c->log2e_up, 32);
    mpfr_const_log2(c->log2e_up, MPFR_RNDD);
    mpfr_ui_div(c->log2e_up, 1, c->log2e_up, MPFR_RNDU);
    for (int n = 0; n <= SERIES_TERMS; n++) {
        mpfi_init2(c->inv[n], p);
        mpfi_set_ui(c->inv[n], (unsigned long)n + 1);
        mpfi_ui_div(c->inv[n], 1, c->inv[n]);
        mpfr_init2(c->invm[n], p);
        mpfr_set_ui(c->invm[n], (unsigned long)n + 1, MPFR_RNDN);
        mpfr_ui_div(c->invm[n], 1, c->invm[n], MPFR_RNDN);
        /* hi + lo with |lo| ≤ ulp(hi)/2 and lo rounded to nearest: within
         * 2^-53·|lo| ≤ 2^-106/(n + 1) of 1/(n + 1) (256-bit remainder) */
        mpfr_t t;
        mpfr_init2(t, 256);
        mpfr_set_ui(t, (unsigned long)n + 1, MPFR_RNDN);
        mpfr_ui_div(t, 1, t, MPFR_RNDN);
        c->invd[n].hi = mpfr_get_d(t, MPFR_RNDN);
        mpfr_sub_d(t, t, c->invd[n].hi, MPFR_RNDN);
        c->invd[n] = fast_two_sum(c->invd[n].hi, mpfr_get_d(t, MPFR_RNDN));
        mpfr_clear(t);
    }
    for (int i = 0; i < 12; i++)
        mpfr_init2(c->s[i], p);
    for (int i = 0; i < 6; i++)
        mpfr_init2(c->b[i], 64);
    mpfr_init2(c->d53, 53);
    for (int i = 0; i < 12; i++)
        mpfi_init2(c->v[i], p);
    c->log2e_d = mpfr_get_d(c->log2e_up, MPFR_RNDU);
}

static void mass_ctx_clear(mass_ctx *c)
{
    mpfi_clear(c->inv_sqrt_2pi);
    mpfr_clear(c->log2e_up);
    for (int n = 0; n <= SERIES_TERMS; n++) {
        mpfi_clear(c->inv[n]);
        mpfr_clear(c->invm[n]);
    }
    for (int i = 0; i < 12; i++)
        mpfr_clear(c->s[i]);
    for (int i = 0; i < 6; i++)
        mpfr_clear(c->b[i]);
    mpfr_clear(c->d53);
    for (int i = 0; i < 12; i++)
        mpfi_clear(c->v[i]);
}

/* out ⊇ Σ_{n<N} c_n(a) d^{n+1}/(n+1) for every a ∈ A, d ∈ D (the truncated
 * series of normal_mass_series_phi; its remainder 2^rem_k is added), by one
 * evaluation at a point (a_m, d_m) near the midpoints, each operation
 * rounded to nearest with relative error ≤ u: in double-words, u = 2^-103
 * (series_mid_dw), else in MPFR at p bits, u = 2^-p (series_mid):
 *   rounding: the recurrence ĉ_{n+1} = −(a_m ĉ_n + ĉ_{n−1})·fl(1/(n+1)) has
 *     ≤ 4 roundings per step, so by induction |ĉ_n − c_n| ≤ ((1+u)^{4n} − 1)·C_n
 *     with C_n the coefficients of e^{|a|y + y²/2} (C_{n+1} = (|a|C_n +
 *     C_{n−1})/(n+1), the same recurrence with absolute values); each term
 *     adds n + 3 roundings (d^{n+1} by repeated products, the product, the
 *     division) and the sum N, so the computed sum is within
 *     γ_{6N+8}·Σ C_n d^{n+1}/(n+1) ≤ γ_{6N+8}·d·e^{|a|d + d²/2} of the exact
 *     truncated series at (a_m, d_m) (Higham §3.1, γ_k = ku/(1 − ku) ≤ 2ku);
 *   the box: for the truncated series J_N(a, d), ∂J_N/∂d = Σ c_n d^n and,
 *     since ∂_a g = −y·g gives c_n′ = −c_{n−1}, ∂J_N/∂a = −Σ_{n≥1} c_{n−1}
 *     d^{n+1}/(n+1); with |c_n| ≤ C_n and d^{n+1}/(n+1) ≤ (d²/2)·d^{n−1},
 *     both are at most e^{|a|d + d²/2} times 1 and d²/2, so the mean value
 *     theorem gives (r_d + r_a·d²/2)·e^{|a|d + d²/2}, r_a and r_d the radii.
 * Exponentials are bounded by powers of two 2^⌈x·log2 e⌉ (rounded up).
 * MPFI would evaluate both ends of every product: this is several times
 * faster, and double-words several times faster again. */
/* r ≥ max(mid − X.left, X.right − mid); tmp is scratch. */
static void box_radius(mpfr_ptr r, mpfi_srcptr X, mpfr_srcptr mid, mpfr_ptr tmp)
{
    mpfr_sub(r, mid, &X->left, MPFR_RNDU);
    mpfr_sub(tmp, &X->right, mid, MPFR_RNDU);
    mpfr_max(r, r, tmp, MPFR_RNDU);
}

/* The truncated series of series_mid at the double-word point (a, d): the
 * same operations, each a double-word operation of relative error ≤ 5u²
 * ≤ 2^-103 (a "rounding" with u replaced by 2^-103; invd errs by ≤ 2^-106).
 * False (use MPFR) when a product fell below 2^-900 or the sum overflowed. */
static bool series_sum_dw(dw *sum, dw a, dw d, int N, const mass_ctx *cx)
{
    bool tiny = false;
    dw cp = {1, 0}, c = {-a.hi, -a.lo}, dp = d, s = d;
    for (int n = 1; n < N; n++) {
        dp = dw_mul(dp, d, &tiny);
        s = dw_add(s, dw_mul(dw_mul(c, dp, &tiny), cx->invd[n], &tiny));
        dw cn = dw_mul(dw_add(dw_mul(a, c, &tiny), cp), cx->invd[n], &tiny);
        cp = c;
        c = (dw){-cn.hi, -cn.lo};
    }
    *sum = s;
    return !tiny && isfinite(s.hi) && isfinite(s.lo);
}

/* The truncated series in MPFR at p bits rounded to nearest, at (am, dm). */
static void series_sum_mp(mpfr_ptr sum, mpfr_srcptr am, mpfr_srcptr dm, int N, mass_ctx *cx)
{
    mpfr_ptr cp = cx->s[5], c = cx->s[6], cn = cx->s[7], dp = cx->s[8], term = cx->s[9];
    mpfr_set_ui(cp, 1, MPFR_RNDN);
    mpfr_neg(c, am, MPFR_RNDN);
    mpfr_set(dp, dm, MPFR_RNDN);
    mpfr_set(sum, dm, MPFR_RNDN);
    for (int n = 1; n < N; n++) {
        mpfr_mul(dp, dp, dm, MPFR_RNDN);
        mpfr_mul(term, c, dp, MPFR_RNDN);
        mpfr_mul(term, term, cx->invm[n], MPFR_RNDN);
        mpfr_add(sum, sum, term, MPFR_RNDN);
        mpfr_mul(cn, am, c, MPFR_RNDN);
        mpfr_add(cn, cn, cp, MPFR_RNDN);
        mpfr_mul(cn, cn, cx->invm[n], MPFR_RNDN);
        mpfr_neg(cn, cn, MPFR_RNDN);
        mpfr_swap(cp, c);
        mpfr_swap(c, cn);
    }
}

/* u ≥ the exact value of x ≥ 0 computed from nonnegative doubles by at most
 * 8 roundings to nearest: the exact value is ≤ x/(1 − 2^-53)^8 ≤ x(1 + 2^-49)
 * away from underflow; the product by 1 + 2^-48, the sum and one ulp more
 * cover that and their own roundings, and 2^-1000 covers underflow (≤ 2^-1075
 * absolute per operation).  (The split divides that floor by e^h − 1 ≈ h:
 * atoms below ~1e-299 get no useful lower end.  2^-1070 would do, but at
 * δ = 1e-300 the tilt's λ then follows the true far tail up to the grid's
 * truncation and the first round certifies nothing: see issue 29's notes.) */
static double up(double x)
{
    return nextafter(x * (1 + 0x1p-48) + 0x1p-1000, INFINITY);
}

/* ≥ max(x − X.left, X.right − x) at x = a.hi + a.lo, the double-word of the
 * MPFI midpoint m (|m − c| ≤ 2^-p·|m|, c the centre; |x − m| ≤ 2^-106·|m|):
 * diam/2 + |x − c| ≤ diam/2 + 4·2^-min(p,105)·|a.hi|. */
static double radius_dw(mpfi_srcptr X, dw a, mass_ctx *cx)
{
    mpfi_diam_abs(cx->b[0], X); /* rounded up */
    double w = mpfr_get_d(cx->b[0], MPFR_RNDU);
    return up(0.5 * w + ldexp(fabs(a.hi), 2 - (int)fmin((double)cx->p, 105)));
}

/* zu ≥ |z| and the exponent e with zu < 2^e (frexp, exact; −1074 for 0). */
static int dw_exponent(dw z, double *zu)
{
    *zu = up(fabs(z.hi) + fabs(z.lo));
    int e = -1074;
    if (*zu > 0)
        frexp(*zu, &e);
    return e;
}

/* x as a double-word: hi = x rounded, x − hi exact in s[4] (precision p ≥
 * x's: a multiple of x's ulp below it), normalised by Fast2Sum (exact). */
static dw dw_of(mpfr_srcptr x, mass_ctx *cx)
{
    double hi = mpfr_get_d(x, MPFR_RNDN);
    mpfr_set_d(cx->d53, hi, MPFR_RNDN);
    mpfr_sub(cx->s[4], x, cx->d53, MPFR_RNDN);
    return fast_two_sum(hi, mpfr_get_d(cx->s[4], MPFR_RNDN));
}

/* series_mid in double-words (false: not applicable, use series_mid): when
 * the target leaves room for their 2^-103 (target_bits ≤ 96; a choice),
 * |a| ≤ 400 (|c_n| ≤ C_n ≤ e^{|a| + 1/2} < 2^580: no overflow) and d ≥
 * 2^-800 (no exponent below falls out of the doubles).  The point (a, d) is
 * the double-word of the midpoints, within 2^-106 relative of them: after
 * one ulp upward (nextafter) |a| ≤ amax and d ≤ dmax still hold there, and
 * dmax < 2^e (frexp) still gives d ≤ 2^e.  The bounds of series_mid, with
 * u = 2^-103, and the remainder 2^rem_k, are summed in doubles by up(); the
 * interval ends in MPFR, rounded outward. */
static bool series_mid_dw(mpfi_ptr out, mpfi_srcptr A, mpfi_srcptr D, int N, double amax,
                          double dmax, int e, long rem_k, mass_ctx *cx)
{
    if (cx->target_bits > 96 || !(amax <= 400) || e < -800)
        return false;
    mpfi_mid(cx->s[0], A);
    mpfi_mid(cx->s[1], D);
    dw a = dw_of(cx->s[0], cx), d = dw_of(cx->s[1], cx), sum;
    if (!series_sum_dw(&sum, a, d, N, cx))
        return false;
    amax = nextafter(amax, INFINITY);
    dmax = nextafter(dmax, INFINITY);
    double E1 = ceil(up((amax * dmax + 0.5 * dmax * dmax) * cx->log2e_d));
    double box = up(radius_dw(D, d, cx) + radius_dw(A, a, cx) * (0.5 * dmax) * dmax);
    double t = up(ldexp(6.0 * N + 8, 1 - 103 + e + (int)E1) + ldexp(box, (int)E1) +
                  ldexp(1, (int)fmax((double)rem_k, -1000)));
    mpfr_ptr lo = cx->s[2], hi = cx->s[3];
    mpfr_set_d(cx->s[4], sum.hi, MPFR_RNDN); /* exact: p ≥ 53 */
    mpfr_set_d(cx->d53, sum.lo, MPFR_RNDN);
    mpfr_add(lo, cx->s[4], cx->d53, MPFR_RNDD);
    mpfr_add(hi, cx->s[4], cx->d53, MPFR_RNDU);
    mpfr_set_d(cx->d53, t, MPFR_RNDN);
    mpfr_sub(lo, lo, cx->d53, MPFR_RNDD);
    mpfr_add(hi, hi, cx->d53, MPFR_RNDU);
    mpfi_interv_fr(out, lo, hi);
    return true;
}

/* The series in MPFR from the midpoints (u = 2^-p), plus the remainder 2^rem_k. */
static void series_mid(mpfi_ptr out, mpfi_srcptr A, mpfi_srcptr D, int N, double amax,
                       double dmax, int e, long rem_k, mass_ctx *cx)
{
    mpfr_ptr am = cx->s[0], dm = cx->s[1], lo = cx->s[2], hi = cx->s[3], tmp = cx->s[4];
    mpfr_ptr ra = cx->b[1], rd = cx->b[2], t = cx->b[3];
    mpfi_mid(am, A);
    mpfi_mid(dm, D);
    series_sum_mp(lo, am, dm, N, cx);
    /* E1 = ⌈(amax·dmax + dmax²/2)·log2 e⌉: e^{|a|d + d²/2} ≤ 2^E1 on the box */
    mpfr_set_d(t, dmax, MPFR_RNDU);
    mpfr_sqr(t, t, MPFR_RNDU);
    mpfr_div_2ui(t, t, 1, MPFR_RNDU);
    mpfr_set_d(tmp, amax, MPFR_RNDU);
    mpfr_mul_d(tmp, tmp, dmax, MPFR_RNDU);
    mpfr_add(t, t, tmp, MPFR_RNDU);
    mpfr_mul(t, t, cx->log2e_up, MPFR_RNDU);
    mpfr_ceil(t, t);
    long E1 = mpfr_get_si(t, MPFR_RNDU);
    /* box: (r_d + r_a·dmax²/2)·2^E1 */
    box_radius(ra, A, am, t);
    box_radius(rd, D, dm, t);
    mpfr_mul_d(ra, ra, 0.5 * dmax, MPFR_RNDU); /* dmax/2 is exact */
    mpfr_mul_d(ra, ra, dmax, MPFR_RNDU);
    mpfr_add(ra, ra, rd, MPFR_RNDU);
    mpfr_mul_2si(ra, ra, E1, MPFR_RNDU);
    /* rounding: 2·(6N + 8)·2^-p·2^e·2^E1 (d ≤ 2^e) */
    mpfr_set_ui(t, 6UL * (unsigned long)N + 8, MPFR_RNDU);
    mpfr_mul_2si(t, t, 1 - (long)cx->p + e + E1, MPFR_RNDU);
    mpfr_add(t, t, ra, MPFR_RNDU);
    mpfr_set_ui_2exp(ra, 1, rem_k, MPFR_RNDU); /* the remainder */
    mpfr_add(t, t, ra, MPFR_RNDU);
    mpfr_add(hi, lo, t, MPFR_RNDU);
    mpfr_sub(lo, lo, t, MPFR_RNDD);
    mpfi_interv_fr(out, lo, hi);
}

/* out ⊇ ∫_a^{a+d} φ(y) dy for every a ∈ A, d ∈ D ⊂ [0, 1] (φ the standard
 * normal density), or false (out untouched) when more than 400 terms would
 * be needed.  ∫_a^{a+d} φ = φ(a)·J, J = ∫_0^d g, g(y) = e^{−ay − y²/2}.
 * Series: g = Σ c_n y^n with c_0 = 1, c_1 = −a, (n+1)c_{n+1} = −a·c_n − c_{n−1}
 * (compare coefficients in g′ = −(a + y)·g).  Remainder: |c_n| ≤ C_n, the
 * coefficients of e^{|a|y}·e^{y²/2} (the Cauchy product of the two
 * exponential series with absolute coefficients dominates that of
 * e^{−ay}·e^{−y²/2}), so for every ρ ≥ d
 *     Σ_{n≥N} |c_n| d^{n+1}/(n+1) ≤ d·(d/ρ)^N·Σ_{n≥N} C_n ρ^n ≤ d·(d/ρ)^N·e^{|a|ρ + ρ²/2},
 * increasing in |a| and d, hence valid over the box (|a| ≤ amax, d ≤ dmax).
 * With dmax ≤ 2^e (frexp, exact) and ρ = 2^{e+j}, (dmax/ρ)^N ≤ 2^{−jN} and
 * e^y ≤ 2^⌈y·log2 e⌉, so the bound is an exact power of two, its exponent
 * computed in doubles bounded by up().  N and j are chosen in doubles (any
 * choice is valid).  This is what makes fine grids affordable: mpfr_erfc
 * costs 50–500 µs in the tails, this a few µs. */
static bool normal_mass_series_phi(mpfi_ptr out, mpfi_srcptr A, mpfi_srcptr D,
                                   mpfi_srcptr phiA, mass_ctx *cx)
{
    /* |a| ≤ amax: the ends' magnitudes rounded up (away from zero) */
    double amax = fmax(fabs(mpfr_get_d(&A->left, MPFR_RNDA)), fabs(mpfr_get_d(&A->right, MPFR_RNDA)));
    double dmax = mpfr_get_d(&D->right, MPFR_RNDU);
    if (!(dmax <= 1) || !(amax < 1e6))
        return false;
    if (dmax == 0) {
        mpfi_set_ui(out, 0);
        return true;
    }
    int e;
    frexp(dmax, &e); /* dmax < 2^e */
    /* relative target 2^-target_bits (a choice: the remainder bound is
     * added whatever N; discretise asks for what its split needs):
     * J ≥ d·e^{−|a|d − d²/2} (the integrand's minimum) and d ≥ 2^(e−1) (D
     * is one narrow box) */
    double target = (double)(e - 1) - (double)cx->target_bits -
                    (amax * dmax + 0.5 * dmax * dmax) * 1.4426950408889634;
    int N = 0, j = 0;
    for (int n = 1; n <= SERIES_TERMS && N == 0; n++) {
        /* the best ρ ≈ (√(a² + 4n) − a)/2, rounded to a power of two ≥ 2^e
         * (⌊log2(ρ√2)⌋ by ilogb: exact, and cheaper than log2) */
        double rho = 0.5 * (sqrt(amax * amax + 4.0 * n) - amax);
        int jj = ilogb(rho * 1.4142135623730951) - e;
        if (jj < 0)
            jj = 0;
        double r2 = ldexp(1.0, e + jj);
        double lb = e - (double)jj * n + (amax * r2 + 0.5 * r2 * r2) * 1.4426950408889634;
        if (lb <= target - 2) {
            N = n;
            j = jj;
        }
    }
    if (N == 0)
        return false;

    /* remainder ≤ 2^(e − jN + ⌈(amax·ρ + ρ²/2)·log2 e⌉), ρ = 2^{e+j}
     * (ρ exact, the rest by up()) */
    double rho = ldexp(1, e + j);
    long rem_k = (long)ceil(up((amax * rho + 0.5 * rho * rho) * cx->log2e_d)) + e - (long)j * N;
    mpfi_ptr sum = cx->v[5], term = cx->v[6];
    if (!series_mid_dw(sum, A, D, N, amax, dmax, e, rem_k, cx))
        series_mid(sum, A, D, N, amax, dmax, e, rem_k, cx);
    /* φ(A) = e^{−A²/2}/√(2π), or the enclosure the caller has */
    if (phiA != NULL) {
        mpfi_mul(out, sum, phiA);
    } else {
        mpfi_sqr(term, A);
        mpfi_div_2ui(term, term, 1);
        mpfi_neg(term, term);
        mpfi_exp(term, term);
        mpfi_mul(term, term, cx->inv_sqrt_2pi);
        mpfi_mul(out, sum, term);
    }
    return true;
}

/* The same with φ(A) computed here. */
static bool normal_mass_series(mpfi_ptr out, mpfi_srcptr A, mpfi_srcptr D, mass_ctx *cx)
{
    return normal_mass_series_phi(out, A, D, NULL, cx);
}

/* A grid point in the noise space: x encloses the noise value where the loss
 * crosses the grid point; kind 0 finite, 1 −∞, 2 lower end −∞ (x holds the
 * upper end; see x_of_loss). */
typedef struct {
    mpfi_t x;
    int kind;
    bool has_phi;    /* subsampled recurrence path: phi, phir valid (kind 0) */
    mpfi_t phi, phir; /* φ(x), φ(x − r) */
    bool has_log;    /* log chain (log_chain): tm, y, yerr valid */
    mpfr_t tm;       /* the midpoint of the box t = e^{rx − r²/2} */
    dw y0, acc;      /* ≈ log tm as y0 + acc (acc: the chain's sum since y0), */
    double yerr;     /* ≥ |y0 + acc − log tm| */
} endpoint;

static void endpoint_init(endpoint *e, mpfr_prec_t p)
{
    mpfi_init2(e->x, p);
    mpfi_init2(e->phi, p);
    mpfi_init2(e->phir, p);
    mpfr_init2(e->tm, p);
    e->kind = 0;
    e->has_phi = false;
    e->has_log = false;
}

static void endpoint_clear(endpoint *e)
{
    mpfi_clear(e->x);
    mpfi_clear(e->phi);
    mpfi_clear(e->phir);
    mpfr_clear(e->tm);
}

/* The noise value of the loss ℓ: Gaussian (ℓ − r²/2)/r; REMOVE x(ℓ); ADD x(−ℓ). */
static void endpoint_at(endpoint *e, const mech *m, mpfr_srcptr loss, mass_ctx *cx)
{
    e->has_phi = false;
    e->has_log = false;
    mpfi_ptr l = cx->v[8];
    mpfi_set_fr(l, loss);
    if (!m->subsampled) {
        mpfi_sub(l, l, m->half_r2);
        mpfi_div(e->x, l, m->r);
        e->kind = 0;
    } else {
        if (m->dir == DIR_ADD)
            mpfi_neg(l, l);
        e->kind = x_of_loss(e->x, m, l, cx->p);
    }
}

/* out ⊇ ∫_{A−s}^{B−s} φ, A ≤ B (s = shift, NULL for 0), clamped to [0, 1]:
 * by the series when the bin is narrow, else by a difference of Q (taken on
 * the side where Q is small, for relative accuracy). */
static void normal_mass(mpfi_ptr out, const endpoint *A, const endpoint *B, mpfi_srcptr shift,
                        mass_ctx *cx)
{
    mpfr_prec_t p = cx->p;
    mpfi_t a, b, d;
    mpfi_init2(a, p);
    mpfi_init2(b, p);
    mpfi_init2(d, p);
    if (B->kind == 1) {
        mpfi_set_ui(out, 0);
    } else {
        mpfi_set(a, A->x);
        mpfi_set(b, B->x);
        if (shift != NULL) {
            mpfi_sub(a, a, shift);
            mpfi_sub(b, b, shift);
        }
        if (A->kind == 1 && B->kind == 0) {
            mpfi_neg(b, b);
            ul_num_q(out, b); /* Φ(b) */
        } else if (A->kind != 0 || B->kind != 0) {
            /* a half-infinite end (only within 2^-p of log(1 − q)): [0, Φ(b_hi)] */
            mpfi_neg(b, b);
            ul_num_q(out, b);
            mpfi_put_ui(out, 0);
        } else {
            mpfi_sub(d, b, a);
            if (mpfr_sgn(&d->left) < 0)
                mpfr_set_zero(&d->left, 1); /* B ≥ A for the true endpoints */
            if (mpfr_sgn(&d->right) < 0)
                mpfr_set_zero(&d->right, 1);
            if (!normal_mass_series(out, a, d, cx)) {
                if (mpfr_sgn(&a->right) < 0) {
                    mpfi_neg(a, a);
                    mpfi_neg(b, b);
                    ul_num_q(d, b);
                    ul_num_q(out, a);
                    mpfi_sub(out, d, out); /* Φ(b) − Φ(a) */
                } else {
                    ul_num_q(d, a);
                    ul_num_q(out, b);
                    mpfi_sub(out, d, out); /* Q(a) − Q(b) */
                }
            }
        }
    }
    mpfi_set_ui(a, 0);
    mpfi_put_ui(a, 1);
    mpfi_intersect(out, out, a);
    mpfi_clear(a);
    mpfi_clear(b);
    mpfi_clear(d);
}

/* P ⊇ P[ℓ_{k−1} < L ≤ ℓ_k] and Q ⊇ Q[ℓ_{k−1} < L ≤ ℓ_k] = E_P[e^{−L}; bin]
 * from the endpoints of ℓ_{k−1} (prev) and ℓ_k (cur).  Gaussian: L =
 * r²/2 + rZ under P and −r²/2 + rZ under Q (Z ~ N(0,1)), so the Q-mass is
 * the normal mass of the same x-interval shifted by +r.  REMOVE: Q = N(0,1)
 * on the noise value; ADD: Q = (1−q)N(0,1) + qN(r,1) (pld.h). */
static void bin_pq(mpfi_ptr P, mpfi_ptr Q, const mech *m, const endpoint *prev,
                   const endpoint *cur, mass_ctx *cx)
{
    mpfi_t t;
    mpfi_init2(t, cx->p);
    if (!m->subsampled) {
        normal_mass(P, prev, cur, NULL, cx);
        normal_mass(Q, prev, cur, m->neg_r, cx);
    } else if (m->dir == DIR_ADD) {
        normal_mass(P, cur, prev, NULL, cx); /* X ∈ [x(−ℓ_k), x(−ℓ_{k−1})), X ~ N(0,1) */
        normal_mass(t, cur, prev, m->r, cx);
        mpfi_mul(t, t, m->q);
        mpfi_mul(Q, P, m->omq);
        mpfi_add(Q, Q, t);
    } else {
        /* X ∈ (x(ℓ_{k−1}), x(ℓ_k)], P = (1−q)N(0,1) + qN(r,1), Q = N(0,1) */
        normal_mass(Q, prev, cur, NULL, cx);
        normal_mass(P, prev, cur, m->r, cx);
        mpfi_mul(P, P, m->q);
        mpfi_mul(t, Q, m->omq);
        mpfi_add(P, P, t);
    }
    mpfi_clear(t);
}

/* Narrow-box exp and log with one MPFR exp (MPFI calls the function at
 * both ends).  m = mid(X) (rounded to nearest), r₋ = m − X.left, r₊ =
 * X.right − m (rounded up), as doubles rounded up.  Wide boxes (r₊ or ρ₋
 * ≥ 2^-20) go to MPFI.  The slack is summed in doubles by up() and applied
 * to y in MPFR with outward roundings (s[0..3] and d53 are the scratch). */
static bool narrow_box(mpfr_ptr m, double *rl, double *rh, mpfi_srcptr x, mass_ctx *cx)
{
    mpfi_mid(m, x);
    mpfr_sub(cx->b[4], m, &x->left, MPFR_RNDU);
    *rl = mpfr_get_d(cx->b[4], MPFR_RNDU);
    mpfr_sub(cx->b[4], &x->right, m, MPFR_RNDU);
    *rh = mpfr_get_d(cx->b[4], MPFR_RNDU);
    return *rh < 0x1p-20 && *rl < 0x1p-20;
}

/* out = [y − lo_slack, y + hi_slack], rounded outward. */
static void interval_around(mpfi_ptr out, mpfr_srcptr y, double lo_slack, double hi_slack,
                            mass_ctx *cx)
{
    mpfr_set_d(cx->d53, lo_slack, MPFR_RNDN); /* exact */
    mpfr_sub(cx->s[2], y, cx->d53, MPFR_RNDD);
    mpfr_set_d(cx->d53, hi_slack, MPFR_RNDN);
    mpfr_add(cx->s[3], y, cx->d53, MPFR_RNDU);
    mpfi_interv_fr(out, cx->s[2], cx->s[3]);
}

/* exp: y = e^m rounded to nearest is within 2^-p·y of e^m (half an ulp);
 * for t ∈ [−r₋, r₊], 1 − r₋ ≤ e^t ≤ 1/(1 − r₊) ≤ 1 + 2r₊ (r₊ ≤ 1/2), so
 * exp(X) ⊆ [y(1 − 2^{1−p})(1 − r₋), y(1 + 2^{1−p})(1 + 2r₊)] ⊆
 * [y − y·(2^{1−p} + r₋), y + y·(2^{2−p} + 2r₊)]. */
static void exp_narrow(mpfi_ptr out, mpfi_srcptr x, mass_ctx *cx)
{
    mpfr_ptr m = cx->s[0], y = cx->s[1];
    double rl, rh;
    if (!narrow_box(m, &rl, &rh, x, cx)) {
        mpfi_exp(out, x);
        return;
    }
    mpfr_exp(y, m, MPFR_RNDN);
    double yu = mpfr_get_d(y, MPFR_RNDU); /* y > 0; +inf is harmless (wide) */
    long p = (long)cx->p;
    interval_around(out, y, up(yu * up(ldexp(1, 1 - (int)p) + rl)),
                    up(yu * up(ldexp(1, 2 - (int)p) + 2 * rh)), cx);
}

/* log (X > 0) by a double estimate and one exp: y0 = log(m) in doubles
 * (any value: what follows measures its error), s = m·e^{−y0} − 1 in MPFR
 * rounded to nearest.  With s* = m·e^{−y0} − 1 exactly, |s − s*| ≤
 * (1 + s*)((1 + 2^-p)² − 1) ≤ 2^{2−p} (|s| ≤ 2^-40, the subtraction exact
 * by Sterbenz), and log m = y0 + log(1 + s*), where |log(1 + z) − (z −
 * z²/2)| ≤ |z|³/(3(1 − |z|)³) ≤ |z|³/2 and z − z²/2 is 2-Lipschitz on
 * |z| ≤ 1/8.  y = y0 + (s − s²/2), three roundings to nearest, errs from
 * log m by ≤ 2^{3−p} + 2^-p·(|y| + 2|s|) + (|s| + 2^{2−p})³/2 =: ε.  The
 * box: log(1 + σ) ≤ σ and log(1 − σ) ≥ −σ/(1 − σ) ≥ −σ(1 + 2σ) (σ ≤ 1/2),
 * so log(X) ⊆ [y − ε − ρ₋(1 + 2ρ₋), y + ε + ρ₊], ρ± = r±/m (m ≥ 2^-900,
 * ρ₋ < 2^-20 checked; else MPFI). */
static void log_narrow(mpfi_ptr out, mpfi_srcptr x, endpoint *rec, mass_ctx *cx)
{
    mpfr_ptr m = cx->s[0], y = cx->s[1], sv = cx->s[4], s2 = cx->s[5];
    double rl, rh, md = 0, sa = 1;
    bool ok = narrow_box(m, &rl, &rh, x, cx) && mpfr_sgn(&x->left) > 0;
    if (ok) {
        md = mpfr_get_d(m, MPFR_RNDD);
        ok = md >= 0x1p-900 && md < 0x1p900 && up(rl / md) < 0x1p-20;
    }
    double y0 = 0;
    if (ok) {
        y0 = log(md);
        mpfr_set_d(y, -y0, MPFR_RNDN); /* exact */
        mpfr_exp(sv, y, MPFR_RNDN);
        mpfr_mul(sv, sv, m, MPFR_RNDN);
        mpfr_sub_ui(sv, sv, 1, MPFR_RNDN);
        sa = fabs(mpfr_get_d(sv, MPFR_RNDA));
        ok = sa <= 0x1p-40;
    }
    rec->has_log = ok;
    if (!ok) {
        mpfi_log(out, x);
        return;
    }
    mpfr_sqr(s2, sv, MPFR_RNDN);
    mpfr_div_2ui(s2, s2, 1, MPFR_RNDN);
    mpfr_sub(sv, sv, s2, MPFR_RNDN);
    mpfr_set_d(y, y0, MPFR_RNDN);
    mpfr_add(y, y, sv, MPFR_RNDN);
    int p = (int)cx->p;
    double ya = fabs(mpfr_get_d(y, MPFR_RNDA)), c = up(sa + ldexp(1, 2 - p));
    double eps = up(ldexp(up(8 + ya + 2 * sa), -p) + up(c * c * c * 0.5));
    double rhol = up(rl / md), rhoh = up(rh / md);
    interval_around(out, y, up(eps + rhol * (1 + 2 * rhol)), up(eps + rhoh), cx);
    /* the start of a log chain: y as a double-word moves by ≤ 2^-106·|y| */
    mpfr_set(rec->tm, m, MPFR_RNDN);
    rec->y0 = dw_of(y, cx);
    rec->acc = (dw){0, 0};
    rec->yerr = up(eps + ldexp(ya, -105));
}

/* log(T) for the endpoint e from the log chain of prev (false: not
 * applicable, log_narrow starts a new one): log m = log m_p + log1p(s), m
 * and m_p the midpoints of the boxes, s = m/m_p − 1.  In MPFR the quotient
 * rounded to nearest and the subtraction (exact, Sterbenz) give |ŝ − s| ≤
 * 2^-p(1 + |s|) ≤ 2^{1−p}, and the double-word of ŝ is within 2^-106·|ŝ|
 * more.  For |ŝ| < 2^es ≤ 2^-5: L = Σ_{n<N} (−1)^{n+1} ŝ^n/n (ŝ^n by
 * products, times invd: n + 1 roundings of ≤ 2^-103; N − 2 sums) is within
 * γ_{2N}·Σ|ŝ|^n/n ≤ 2^-103·8N·|ŝ| of the truncated sum (Higham §3.1), the
 * tail is ≤ |ŝ|^N/(N(1 − |ŝ|)) ≤ 2·2^{es·N}, and log1p is 2-Lipschitz on
 * |s| ≤ 1/2.  The chain keeps y0 (its start) and acc = Σ L, so acc + L
 * (one double-word sum, ≤ 2^-103·|acc + L| ≤ 2^-102·|acc'.hi|) gives yerr =
 * yerr_p + the above; y = y0 + acc summed in MPFR (three roundings to p
 * bits of partial sums ≤ 2(|y0.hi| + |acc.hi|)) errs by ≤ 2^{3−p}·(|y0.hi| +
 * |acc.hi|) more (this point only), and the box is log_narrow's: log(T) ⊆
 * [y − ε − ρ₋(1 + 2ρ₋), y + ε + ρ₊], ε = yerr + that.  Each link adds
 * about 2^-100 to yerr: the caller restarts the chain every PHI_CHAIN
 * points. */
static bool log_chain(mpfi_ptr out, mpfi_srcptr T, endpoint *e, const endpoint *prev,
                      mass_ctx *cx)
{
    double rl, rh;
    if (prev == NULL || !prev->has_log || mpfr_sgn(&T->left) <= 0 ||
        !narrow_box(cx->s[0], &rl, &rh, T, cx))
        return false;
    mpfr_ptr m = cx->s[0], sv = cx->s[5];
    double md = mpfr_get_d(m, MPFR_RNDD);
    if (!(md >= 0x1p-900 && md < 0x1p900 && up(rl / md) < 0x1p-20))
        return false;
    mpfr_div(sv, m, prev->tm, MPFR_RNDN);
    mpfr_sub_ui(sv, sv, 1, MPFR_RNDN);
    dw sd = dw_of(sv, cx);
    double su;
    int es = dw_exponent(sd, &su);
    if (!(su < 0x1p-5))
        return false;
    int N = 2 + 110 / -es;
    bool tiny = false;
    dw pw = sd, L = sd;
    for (int n = 2; n < N; n++) {
        pw = dw_mul(pw, sd, &tiny);
        dw term = dw_mul(pw, cx->invd[n - 1], &tiny);
        L = dw_add(L, n % 2 ? term : (dw){-term.hi, -term.lo});
    }
    if (tiny)
        return false;
    int p = (int)cx->p;
    e->y0 = prev->y0;
    e->acc = dw_add(prev->acc, L);
    e->yerr = up(prev->yerr + up(ldexp(4, 1 - p) + ldexp(su, -104)) + ldexp(8.0 * N * su, -103) +
                 ldexp(2, (int)fmax((double)es * N, -1000)) + ldexp(up(fabs(e->acc.hi)), -102));
    mpfr_set(e->tm, m, MPFR_RNDN);
    e->has_log = true;
    double parts[] = {e->y0.lo, e->acc.hi, e->acc.lo};
    mpfr_set_d(cx->s[1], e->y0.hi, MPFR_RNDN);
    for (int i = 0; i < 3; i++) {
        mpfr_set_d(cx->d53, parts[i], MPFR_RNDN);
        mpfr_add(cx->s[1], cx->s[1], cx->d53, MPFR_RNDN);
    }
    double rhol = up(rl / md), rhoh = up(rh / md);
    double ey = up(e->yerr + ldexp(up(fabs(e->y0.hi) + fabs(e->acc.hi)), 3 - p));
    interval_around(out, cx->s[1], up(ey + rhol * (1 + 2 * rhol)), up(ey + rhoh), cx);
    return true;
}

/* out ⊇ e^Z for a narrow Z, |Z| < 2^-6, in double-words (false: not
 * applicable; the caller uses exp_narrow).  At the double-word z of mid(Z),
 * E = Σ_{n<N} z^n/n! term by term (t_n = t_{n−1}·z·(1/n): 3 roundings of
 * ≤ 2^-103 per step counting invd's error, N − 1 sums) is within γ_{4N}·
 * Σ|z|^n/n! ≤ 2^-103·8N·e^{|z|} ≤ 2^-103·16N of the truncated sum (Higham
 * §3.1, as series_mid), and the tail is ≤ |z|^N/(N!(1 − |z|)) ≤ 2·2^{ez·N}
 * with |z| < 2^ez (frexp of a bound, exact): e^z ∈ E ± ε.  The box: for
 * |t| ≤ r ≤ 1/2, 1 − r ≤ e^t ≤ 1 + 2r, so with E ≤ 2, e^Z ⊆ [(E − ε)(1 − r),
 * (E + ε)(1 + 2r)] ⊆ [E − ε − 2r, E + 2ε + 4r]; E rounded to p bits moves
 * by ≤ 2^{1−p} more. */
static bool exp_small_dw(mpfi_ptr out, mpfi_srcptr Z, mass_ctx *cx)
{
    mpfi_mid(cx->s[0], Z);
    dw z = dw_of(cx->s[0], cx);
    double zu, r = radius_dw(Z, z, cx);
    int ez = dw_exponent(z, &zu);
    if (!(zu < 0x1p-6) || !(r < 0x1p-20))
        return false;
    int N = 1 + 110 / -ez;
    bool tiny = false;
    dw t = {1, 0}, E = {1, 0};
    for (int n = 1; n < N; n++) {
        t = dw_mul(dw_mul(t, z, &tiny), cx->invd[n - 1], &tiny);
        E = dw_add(E, t);
    }
    if (tiny)
        return false;
    double eps = up(ldexp(16.0 * N, -103) + ldexp(2, (int)fmax((double)ez * N, -1000)));
    double rp = ldexp(1, 1 - (int)cx->p);
    mpfr_set_d(cx->s[1], E.hi, MPFR_RNDN);
    mpfr_set_d(cx->d53, E.lo, MPFR_RNDN);
    mpfr_add(cx->s[1], cx->s[1], cx->d53, MPFR_RNDN);
    interval_around(out, cx->s[1], up(eps + 2 * r + rp), up(2 * eps + 4 * r + rp), cx);
    return true;
}

/* φ(x) of the endpoint e from φ of the endpoint before it: φ(x_c) =
 * φ(x_p)·e^{−(x_c − x_p)(x_c + x_p)/2} (exact identity; the boxes contain
 * the true difference and sum), the factor by exp_small_dw.  Each link
 * widens φ by about 2^-94 relative, so the caller restarts the chain with
 * an exponential every PHI_CHAIN points.  False: compute it directly. */
#define PHI_CHAIN 32

static bool phi_chain(endpoint *e, const endpoint *prev, mass_ctx *cx)
{
    if (prev == NULL || !prev->has_phi)
        return false;
    mpfi_ptr z = cx->v[9], sum = cx->v[10];
    mpfi_sub(z, e->x, prev->x);
    mpfi_add(sum, e->x, prev->x);
    mpfi_mul(z, z, sum);
    mpfi_div_2ui(z, z, 1);
    mpfi_neg(z, z);
    if (!exp_small_dw(sum, z, cx))
        return false;
    mpfi_mul(e->phi, prev->phi, sum);
    return true;
}

/* The subsampled endpoint of the loss ℓ from g ⊇ e^{ℓ} (REMOVE) or e^{−ℓ}
 * (ADD), carried by the caller's recurrence: with v = ±ℓ the REMOVE loss at
 * the noise value x, e^{v} = 1 − q + q·e^{rx − r²/2} (pld.h), so
 * t := (g − (1 − q))/q = e^{rx − r²/2}, x = (log t + r²/2)/r (one log where
 * x_of_loss takes expm1 and log1p), φ(x) = e^{−x²/2}/√(2π) (one exp) and
 * φ(x − r) = φ(x)·e^{rx − r²/2} = φ(x)·t (exact identity).  When t is not
 * positive throughout, the endpoint is made by endpoint_at (the −∞ cases). */
static void endpoint_sub(endpoint *e, const endpoint *prev, const mech *m, mpfi_srcptr g,
                         mpfr_srcptr loss, mass_ctx *cx)
{
    mpfi_ptr t = cx->v[7];
    mpfi_sub(t, g, m->omq);
    mpfi_div(t, t, m->q);
    if (mpfr_sgn(&t->left) <= 0) {
        endpoint_at(e, m, loss, cx);
    } else {
        if (!log_chain(e->x, t, e, prev, cx))
            log_narrow(e->x, t, e, cx);
        mpfi_add(e->x, e->x, m->half_r2);
        mpfi_div(e->x, e->x, m->r);
        if (!phi_chain(e, prev, cx)) {
            mpfi_sqr(e->phi, e->x);
            mpfi_div_2ui(e->phi, e->phi, 1);
            mpfi_neg(e->phi, e->phi);
            exp_narrow(e->phi, e->phi, cx);
            mpfi_mul(e->phi, e->phi, cx->inv_sqrt_2pi);
        }
        mpfi_mul(e->phir, e->phi, t);
        e->kind = 0;
        e->has_phi = true;
    }
}

/* bin_pq for a subsampled mechanism from endpoints with φ (endpoint_sub): the
 * x-interval starts at lo (REMOVE: prev, ADD: cur) and has width d; the
 * N(0,1) mass is φ(lo)·J and the N(r,1) mass φ(lo − r)·J′ (the series of
 * normal_mass_series_phi); otherwise bin_pq. */
static void bin_pq_sub(mpfi_ptr P, mpfi_ptr Q, const mech *m, const endpoint *prev,
                       const endpoint *cur, mass_ctx *cx)
{
    bool add = m->dir == DIR_ADD;
    const endpoint *lo = add ? cur : prev, *up = add ? prev : cur;
    bool ok = lo->has_phi && up->has_phi;
    mpfi_ptr d = cx->v[0], a = cx->v[1], base = cx->v[2], shifted = cx->v[3];
    if (ok) {
        mpfi_sub(d, up->x, lo->x);
        if (mpfr_sgn(&d->left) < 0)
            mpfr_set_zero(&d->left, 1); /* the true width is ≥ 0 */
        if (mpfr_sgn(&d->right) < 0)
            mpfr_set_zero(&d->right, 1);
        ok = normal_mass_series_phi(base, lo->x, d, lo->phi, cx);
    }
    if (ok) {
        mpfi_sub(a, lo->x, m->r);
        ok = normal_mass_series_phi(shifted, a, d, lo->phir, cx);
    }
    if (ok) {
        mpfi_ptr unit = cx->v[4];
        mpfi_set_ui(unit, 0);
        mpfi_put_ui(unit, 1);
        mpfi_intersect(base, base, unit); /* probabilities */
        mpfi_intersect(shifted, shifted, unit);
        /* REMOVE: Q = N(0,1), P = (1−q)N(0,1) + qN(r,1); ADD: P and Q swapped */
        mpfi_ptr mix = add ? Q : P, pure = add ? P : Q;
        mpfi_mul(mix, base, m->omq);
        mpfi_mul(a, shifted, m->q);
        mpfi_add(mix, mix, a);
        mpfi_set(pure, base);
    } else {
        bin_pq(P, Q, m, prev, cur, cx);
    }
}

/* The connect-the-dots split of one bin (§1): the atom at ℓ ∈ (ℓ_{k−1}, ℓ_k]
 * goes to ℓ_{k−1} and ℓ_k with P-masses a + b = P and Q-masses
 * a·e^{−ℓ_{k−1}} + b·e^{−ℓ_k} = Q, i.e. b = (P·e^h − Q·e^{ℓ_k})/(e^h − 1),
 * a = P − b.  elk ⊇ e^{ℓ_k} (NULL: computed), eh ⊇ e^h, ehm1 ⊇ e^h − 1;
 * both clamped to [0, P]. */
static void ctd_split(mpfi_ptr a, mpfi_ptr b, mpfi_srcptr P, mpfi_srcptr Q, mpfr_srcptr loss,
                      mpfi_srcptr elk, mpfi_srcptr eh, mpfi_srcptr ehm1, mass_ctx *cx)
{
    mpfi_ptr t = cx->v[0], zero_p = cx->v[1];
    if (elk != NULL) {
        mpfi_set(t, elk); /* e^{ℓ_k}, carried by the caller */
    } else {
        mpfi_set_fr(t, loss);
        mpfi_exp(t, t);
    }
    mpfi_mul(t, t, Q);
    mpfi_mul(b, P, eh);
    mpfi_sub(b, b, t);
    mpfi_div(b, b, ehm1);
    mpfi_set_ui(zero_p, 0);
    mpfi_put(zero_p, P);
    mpfi_intersect(b, b, zero_p);
    if (mpfi_is_empty(b))
        mpfi_set(b, zero_p); /* cannot happen with sound enclosures; stay sound */
    mpfi_sub(a, P, b);
    mpfi_intersect(a, a, zero_p);
    if (mpfi_is_empty(a))
        mpfi_set(a, zero_p);
}

/* The precision of the mass enclosures.  Gaussian: the bin width h/r is
 * one enclosure shared by all bins and the endpoints are (ℓ − r²/2)/r, so
 * p bits give masses to about 2^-(p−6) relative; the split (ctd_split)
 * loses log2(1/h) of them to cancellation and the recurrences of gauss_rec
 * up to 2·log2 n, so p = 72 + log2(1/h) + log2 n keeps the atoms within
 * 2^-48 of their enclosures for n ≤ 2^24.  Subsampled: the width is a
 * difference of endpoints x(ℓ), losing up to log2(|x|/width) bits, so 80
 * bits plus log2 n. */
static mpfr_prec_t disc_precision(const mech *m, size_t n, double h)
{
    mpfr_prec_t p = 72 + (mpfr_prec_t)fmax(0, ceil(-log2(h)));
    if (m->subsampled)
        p += 16;
    /* subsampled: endpoint cancellation; Gaussian: the recurrences of
     * gauss_rec, whose relative widths grow like k²·2^-p */
    for (size_t s = n; s > 1; s >>= 1)
        p++;
    return p;
}

/* Enclosures carried from bin to bin for the Gaussian, x_k = (ℓ_k − r²/2)/r,
 * w = h/r: φ(x_{k−1}); ρ = e^{−x_{k−1}w − w²/2}, so φ(x_k) = φ(x_{k−1})·ρ and
 * the next ρ is ρ·e^{−w²}; e^{−ℓ_{k−1}}, so φ(x_{k−1} + r) = φ(x_{k−1})·e^{−ℓ_{k−1}}
 * (x r + r²/2 = ℓ), and e^{ℓ_k} = 1/(e^{−ℓ_{k−1}}·e^{−h}).  Products of
 * enclosures enclose the products: three multiplications replace three
 * exponentials per bin. */
typedef struct {
    mpfi_t phi, rho, c, eml, emh, elk, t;
} gauss_rec;

static void gauss_rec_init(gauss_rec *g, const mech *m, mpfi_srcptr x0, mpfr_srcptr loss0,
                           mpfi_srcptr width, double h, mass_ctx *cx)
{
    mpfi_ptr v[] = {g->phi, g->rho, g->c, g->eml, g->emh, g->elk, g->t};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        mpfi_init2(v[i], cx->p);
    (void)m;
    mpfi_sqr(g->t, x0); /* φ(x_0) = e^{−x_0²/2}/√(2π) */
    mpfi_div_2ui(g->t, g->t, 1);
    mpfi_neg(g->t, g->t);
    mpfi_exp(g->phi, g->t);
    mpfi_mul(g->phi, g->phi, cx->inv_sqrt_2pi);
    mpfi_sqr(g->c, width); /* w² */
    mpfi_div_2ui(g->t, g->c, 1);
    mpfi_mul(g->rho, x0, width);
    mpfi_add(g->rho, g->rho, g->t);
    mpfi_neg(g->rho, g->rho);
    mpfi_exp(g->rho, g->rho);
    mpfi_neg(g->c, g->c);
    mpfi_exp(g->c, g->c);
    mpfi_set_fr(g->eml, loss0);
    mpfi_neg(g->eml, g->eml);
    mpfi_exp(g->eml, g->eml);
    mpfi_set_d(g->emh, -h); /* exact */
    mpfi_exp(g->emh, g->emh);
}

static void gauss_rec_clear(gauss_rec *g)
{
    mpfi_ptr v[] = {g->phi, g->rho, g->c, g->eml, g->emh, g->elk, g->t};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        mpfi_clear(v[i]);
}

/* Moves the recurrence from bin k to bin k + 1. */
static void gauss_rec_step(gauss_rec *g)
{
    mpfi_mul(g->phi, g->phi, g->rho);
    mpfi_mul(g->rho, g->rho, g->c);
    mpfi_mul(g->eml, g->eml, g->emh);
}

/* P and Q of the bin after prev (bin_pq); the Gaussian (g != NULL) by one
 * series each over the shared width h/r with φ from the recurrence, when the
 * series converges.  Sets g->elk ⊇ e^{ℓ_k} and returns it (NULL without g). */
static mpfi_srcptr bin_pq_fast(mpfi_ptr P, mpfi_ptr Q, const mech *m, const endpoint *prev,
                               const endpoint *cur, mpfi_srcptr width, gauss_rec *g,
                               mass_ctx *cx)
{
    if (g == NULL) {
        bin_pq(P, Q, m, prev, cur, cx);
        return NULL;
    }
    mpfi_mul(g->elk, g->eml, g->emh);
    mpfi_ui_div(g->elk, 1, g->elk);
    bool ok = normal_mass_series_phi(P, prev->x, width, g->phi, cx);
    if (ok) {
        mpfi_ptr xr = cx->v[0];
        mpfi_add(xr, prev->x, m->r);
        mpfi_mul(g->t, g->phi, g->eml); /* φ(x_{k−1} + r) */
        ok = normal_mass_series_phi(Q, xr, width, g->t, cx);
    }
    if (!ok)
        bin_pq(P, Q, m, prev, cur, cx);
    return g->elk;
}

/* The subsampled recurrences: el ⊇ e^{ℓ_k}, eml ⊇ e^{−ℓ_k}, carried by
 * one multiplication each (e^{±h} enclosed once; products of enclosures
 * enclose the products), feeding endpoint_sub and the CTD split; links
 * counts the points, φ being chained (phi_chain) except at every
 * PHI_CHAIN-th. */
typedef struct {
    mpfi_t el, eml, eh, emh;
    unsigned long links;
} sub_rec;

static void sub_rec_init(sub_rec *sr, endpoint *e0, const mech *m, mpfr_srcptr loss0, double h,
                         mass_ctx *cx)
{
    mpfi_ptr v[] = {sr->el, sr->eml, sr->eh, sr->emh};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        mpfi_init2(v[i], cx->p);
    mpfi_set_fr(sr->el, loss0);
    mpfi_exp(sr->el, sr->el);
    mpfi_set_fr(sr->eml, loss0);
    mpfi_neg(sr->eml, sr->eml);
    mpfi_exp(sr->eml, sr->eml);
    mpfi_set_d(sr->eh, h); /* exact */
    mpfi_exp(sr->eh, sr->eh);
    mpfi_set_d(sr->emh, -h);
    mpfi_exp(sr->emh, sr->emh);
    sr->links = 0;
    endpoint_sub(e0, NULL, m, m->dir == DIR_ADD ? sr->eml : sr->el, loss0, cx);
}

/* Moves to the next grid point (loss = ℓ_k) and makes its endpoint after
 * prev; returns e^{ℓ_k}. */
static mpfi_srcptr sub_rec_step(sub_rec *sr, endpoint *cur, const endpoint *prev,
                                const mech *m, mpfr_srcptr loss, mass_ctx *cx)
{
    mpfi_mul(sr->el, sr->el, sr->eh);
    mpfi_mul(sr->eml, sr->eml, sr->emh);
    bool chain = ++sr->links % PHI_CHAIN != 0;
    endpoint_sub(cur, chain ? prev : NULL, m, m->dir == DIR_ADD ? sr->eml : sr->el, loss, cx);
    return sr->el;
}

static void sub_rec_clear(sub_rec *sr)
{
    mpfi_ptr v[] = {sr->el, sr->eml, sr->eh, sr->emh};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        mpfi_clear(v[i]);
}

/* The norms of the stored arrays and pess's variance (a scale for the window). */
void ul_pld_disc_moments(disc *d, size_t n, double klo, double h)
{
    array_norms(d->pess, n, d->sum_pess, d->l2_pess);
    array_norms(d->opt, n, d->sum_opt, d->l2_opt);
    double s0 = 0, s1 = 0, s2 = 0;
    for (size_t k = 0; k < n; k++) {
        double c = (klo + (double)k) * h;
        s0 += d->pess[k];
        s1 += d->pess[k] * c;
        s2 += d->pess[k] * c * c;
    }
    d->var = s0 > 0 ? s2 / s0 - (s1 / s0) * (s1 / s0) : 0;
    if (!(d->var > h * h))
        d->var = h * h;
}

/* Discretises m on the grid of spacing h by connect-the-dots (§1),
 * truncating about tau in each tail.  UL_EINPUT (naming grid-step) when it
 * needs more than max_points points.  Guarantee: pess[k] ≥ the CTD atom at
 * ℓ_k (pess[0] also ≥ P[L ≤ ℓ_0], folded up), p_inf ≥ P[L > ℓ_{n−1}];
 * opt, opt_debt as pld_opt.c builds them from the in-grid bins.
 * UL_ETIME when the time budget ran out (asked every PLD_CHECK_BINS bins). */
ul_status ul_pld_discretise(disc *d, const mech *m, double h, double tau,
                            unsigned long max_points, char *err, size_t errlen)
{
    double lo_d, hi_d;
    ul_pld_range_d(m, tau, &lo_d, &hi_d);
    double klo = floor(lo_d / h), khi = ceil(hi_d / h);
    if (!(khi > klo))
        khi = klo + 1;
    if (!(khi - klo + 1 <= (double)max_points) || !(fabs(klo) + fabs(khi) < MAX_EXACT_INDEX))
        return ul_fail(err, errlen, UL_EINPUT,
                       "grid-step: %g needs %.3g grid points per step, more than max-points (%lu)",
                       h, khi - klo + 1, max_points);
    size_t n = (size_t)(khi - klo) + 1;
    d->k_lo = klo;
    d->n = n;
    d->steps = m->steps;
    d->pess = malloc(n * sizeof *d->pess);
    d->opt = malloc(n * sizeof *d->opt);
    double *a_up = malloc((n + 1) * sizeof *a_up), *b_up = malloc((n + 1) * sizeof *b_up);
    if (d->pess == NULL || d->opt == NULL || a_up == NULL || b_up == NULL) {
        free(a_up);
        free(b_up);
        return ul_fail(err, errlen, UL_EINPUT, "grid-step: %g: out of memory for %zu points", h,
                       n);
    }
    a_up[0] = b_up[0] = a_up[n] = b_up[n] = 0;
    mpfr_prec_t p = disc_precision(m, n, h);
    mass_ctx cx;
    mass_ctx_init(&cx, p);
    /* the atoms are kept to 2^-48 relative after the split, which loses
     * log2(1/h) bits (ctd_split): masses to 2^-(72 + log2(1/h)) leave 24 bits
     * of margin (a wider enclosure costs tightness only: pess takes upper
     * ends, opt lower ends) */
    cx.target_bits = (long)fmin((double)cx.target_bits, 72 + ceil(-log2(h)));
    endpoint e[2];
    endpoint_init(&e[0], p);
    endpoint_init(&e[1], p);
    mpfi_t P, Q, a, b, eh, ehm1;
    mpfi_ptr vars[] = {P, Q, a, b, eh, ehm1};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        mpfi_init2(vars[i], p);
    mpfi_set_d(eh, h);
    mpfi_expm1(ehm1, eh);
    mpfi_exp(eh, eh);
    mpfi_t width;
    mpfi_init2(width, p);
    mpfi_set_d(width, h);
    mpfi_div(width, width, m->r); /* h/r: the Gaussian bin width in noise units */
    mpfr_t loss, w, atom_up, atom_lo;
    mpfr_init2(loss, 128);
    mpfr_inits2(p, w, atom_up, atom_lo, (mpfr_ptr)0);
    mpfr_set_zero(d->slack, 1);
    mpfr_set_zero(atom_lo, 1);

    /* the lower tail folded onto ℓ_0 (pess only: opt has the in-grid bins) */
    ul_pld_exact_loss(loss, klo, h);
    loss_tail(P, m, loss, false, p);
    mpfr_set(atom_up, &P->right, MPFR_RNDU);
    gauss_rec g, *gp = NULL;
    sub_rec sr;
    if (!m->subsampled) {
        endpoint_at(&e[0], m, loss, &cx);
        gauss_rec_init(&g, m, e[0].x, loss, width, h, &cx);
        gp = &g;
    } else {
        sub_rec_init(&sr, &e[0], m, loss, h, &cx);
    }
    bool late = false;
    for (size_t k = 1; k < n; k++) {
        if (k % PLD_CHECK_BINS == 0 && ul_pld_late()) {
            late = true; /* the time budget: nothing below is needed */
            break;
        }
        endpoint *prev = &e[(k - 1) & 1], *cur = &e[k & 1];
        ul_pld_exact_loss(loss, klo + (double)k, h);
        mpfi_srcptr elk;
        if (gp != NULL) {
            endpoint_at(cur, m, loss, &cx);
            elk = bin_pq_fast(P, Q, m, prev, cur, width, gp, &cx);
        } else {
            elk = sub_rec_step(&sr, cur, prev, m, loss, &cx);
            bin_pq_sub(P, Q, m, prev, cur, &cx);
        }
        ctd_split(a, b, P, Q, loss, elk, eh, ehm1, &cx);
        if (gp != NULL)
            gauss_rec_step(gp);
        mpfr_add(atom_up, atom_up, &a->right, MPFR_RNDU);
        mpfr_add(atom_lo, atom_lo, &a->left, MPFR_RNDD);
        d->pess[k - 1] = mpfr_get_d(atom_up, MPFR_RNDU);
        d->opt[k - 1] = mpfr_get_d(atom_lo, MPFR_RNDD); /* ≤ the in-grid atom (pld_opt.c) */
        a_up[k] = mpfr_get_d(&a->right, MPFR_RNDU);
        b_up[k] = mpfr_get_d(&b->right, MPFR_RNDU);
        mpfr_set(atom_up, &b->right, MPFR_RNDU);
        mpfr_set(atom_lo, &b->left, MPFR_RNDD);
        mpfi_diam_abs(w, P);
        mpfr_add(d->slack, d->slack, w, MPFR_RNDU);
    }
    if (gp != NULL)
        gauss_rec_clear(gp);
    else
        sub_rec_clear(&sr);
    if (!late) {
        d->pess[n - 1] = mpfr_get_d(atom_up, MPFR_RNDU);
        d->opt[n - 1] = mpfr_get_d(atom_lo, MPFR_RNDD);
        ul_pld_opt_build(d, a_up, b_up, h);
        /* the upper tail goes to +∞ */
        loss_tail(P, m, loss, true, p);
        mpfr_set(d->p_inf, &P->right, MPFR_RNDU);
        ul_pld_disc_moments(d, n, klo, h);
        d->sum_pess_real = mpfr_get_d(d->sum_pess, MPFR_RNDU);
    }

    endpoint_clear(&e[0]);
    endpoint_clear(&e[1]);
    mpfi_clear(width);
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        mpfi_clear(vars[i]);
    mass_ctx_clear(&cx);
    mpfr_clear(loss);
    mpfr_clears(w, atom_up, atom_lo, (mpfr_ptr)0);
    free(a_up);
    free(b_up);
    return late ? ul_pld_time_out(err, errlen, "the discretisation", n) : UL_OK;
}

