/* src/bounds/d2d.c — Descent-to-Delete noise and iteration counts
 * (Chien et al. 2024, Thm M.1 and M.2; formulas in d2d.h).
 *
 * Rounding.  MPFI throughout (outward rounding), with the formulas rewritten
 * so that no variable occurs twice and nothing cancels:
 *   log(1/γ) = log((L + m)/(L − m)) = log1p(2m/(L − m)),
 *   γ^I/(1 − γ^I) = 1/(γ^{−I} − 1) = 1/expm1(I·log(1/γ)),
 *   1 − γ = 2m/(L + m),
 *   √(x + a) − √(x + b) = (a − b)/(√(x + a) + √(x + b)).
 * Integer counts are the least integers above an enclosed bound: certified
 * when both ends of the enclosure have the same ceiling, the precision
 * rising to 4096 bits otherwise.
 */
#include "bounds/d2d.h"

#include <gmp.h>
#include <math.h>
#include <stdlib.h>

#include "num/domain.h"
#include "num/input.h"

#define D2D_CAP_BITS 4096

/* ---- log(1/γ) ---------------------------------------------------------------------- */

/* lg ⊇ log(1/γ) = log1p(2m/(L − m)) assuming m ≤ L.  *zero: L − m is
 * certainly 0 (γ = 0, log(1/γ) = +inf; lg is then not set).  When L − m may
 * be 0 without certainly being 0, lg = [log1p(2m/(L−m).hi), +inf]. */
static void log_inv_gamma(mpfi_ptr lg, bool *zero, mpfi_srcptr L, mpfi_srcptr m)
{
    mpfr_prec_t w = mpfi_get_prec(lg) + 16;
    mpfi_t a;
    mpfi_init2(a, w);
    mpfi_sub(a, L, m);
    *zero = mpfr_sgn(&a->right) <= 0;
    if (!*zero && mpfr_sgn(&a->left) > 0) {
        mpfi_div(a, m, a);
        mpfi_mul_2ui(a, a, 1);
        mpfi_log1p(lg, a);
    } else if (!*zero) {
        mpfr_t lo, hi;
        mpfr_inits2(w, lo, hi, (mpfr_ptr)0);
        mpfr_mul_2ui(lo, &m->left, 1, MPFR_RNDD);
        mpfr_div(lo, lo, &a->right, MPFR_RNDD);
        mpfr_log1p(lo, lo, MPFR_RNDD);
        mpfr_set_inf(hi, 1);
        mpfi_interv_fr(lg, lo, hi);
        mpfr_clears(lo, hi, (mpfr_ptr)0);
    }
    mpfi_clear(a);
}

/* out ⊇ x/log(1/γ) (0 when γ = 0). */
static void over_lg(mpfi_ptr out, mpfi_srcptr x, mpfi_srcptr lg, bool zero)
{
    if (zero)
        mpfi_set_ui(out, 0);
    else
        mpfi_div(out, x, lg);
}

/* ---- checks --------------------------------------------------------------------------- */

static ul_status check_setting(const ul_d2d_setting *s, char *err, size_t errlen)
{
    ul_num_init();
    if (s == NULL || s->L == NULL || s->m == NULL || s->M == NULL || s->n == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "setting: missing");
    if (mpfr_sgn(&s->m->left) <= 0)
        return ul_fail(err, errlen, UL_EINPUT, "m: must be > 0");
    if (mpfr_sgn(&s->L->left) <= 0)
        return ul_fail(err, errlen, UL_EINPUT, "L: must be > 0");
    if (mpfr_sgn(&s->M->left) <= 0)
        return ul_fail(err, errlen, UL_EINPUT, "M: must be > 0");
    if (mpfr_cmp_ui(&s->n->left, 1) < 0)
        return ul_fail(err, errlen, UL_EINPUT, "n: must be >= 1");
    return UL_OK;
}

static ul_status check_eps_delta(mpfi_srcptr eps, mpfi_srcptr delta, char *err, size_t errlen)
{
    if (eps != NULL && mpfr_sgn(&eps->left) <= 0)
        return ul_fail(err, errlen, UL_EINPUT, "eps: must be > 0");
    if (delta == NULL || mpfr_sgn(&delta->left) <= 0 || mpfr_cmp_ui(&delta->right, 1) >= 0)
        return ul_fail(err, errlen, UL_EINPUT, "delta: must be in (0, 1)");
    return UL_OK;
}

static const char *const RULE_M_LE_L =
    "m <= L: an m-strongly convex, L-smooth loss needs m <= L, so that gamma = (L-m)/(L+m) is "
    "in [0, 1) (Thm M.1, M.2; Chien et al. 2024)";
static const char *const RULE_I_M2 =
    "I >= log(sqrt(2d)/((1-gamma)(sqrt(2 log(2/delta)+eps) - sqrt(2 log(2/delta)))))/log(1/gamma) "
    "(Thm M.2 (87); Chien et al. 2024)";
static const char *const RULE_T =
    "learning steps T >= I + log(2Rmn/(2M))/log(1/gamma) (Thm M.1, M.2; Chien et al. 2024)";

/* ---- the formulas on enclosures -------------------------------------------------------- */

/* σ = c·M/(m n expm1(I·lg) D): the common shape of (86) and (88). */
static void sigma_shape(mpfi_ptr sigma, const ul_d2d_setting *s, mpfi_srcptr c, mpfi_srcptr D,
                        unsigned long I)
{
    mpfr_prec_t w = mpfi_get_prec(sigma) + 32;
    mpfi_t lg, t;
    mpfi_init2(lg, w);
    mpfi_init2(t, w);
    bool zero;
    log_inv_gamma(lg, &zero, s->L, s->m);
    if (zero) {
        mpfi_set_ui(sigma, 0); /* γ^I = 0 */
    } else {
        mpfi_mul_ui(t, lg, I);
        mpfi_expm1(t, t); /* γ^{−I} − 1 */
        mpfi_mul(t, t, D);
        mpfi_mul(t, t, s->m);
        mpfi_mul(t, t, s->n);
        mpfi_mul(lg, c, s->M);
        mpfi_div(sigma, lg, t);
    }
    mpfi_clear(lg);
    mpfi_clear(t);
}

/* D = (a − b)·ε/(√(x + aε) + √(x + bε)) = √(x + aε) − √(x + bε). */
static void sqrt_gap(mpfi_ptr D, mpfi_srcptr x, mpfi_srcptr eps, unsigned long a, unsigned long b)
{
    mpfr_prec_t w = mpfi_get_prec(D) + 16;
    mpfi_t u, v;
    mpfi_init2(u, w);
    mpfi_init2(v, w);
    mpfi_mul_ui(u, eps, a);
    mpfi_add(u, u, x);
    mpfi_sqrt(u, u);
    mpfi_mul_ui(v, eps, b);
    mpfi_add(v, v, x);
    mpfi_sqrt(v, v);
    mpfi_add(u, u, v);
    mpfi_mul_ui(v, eps, a - b);
    mpfi_div(D, v, u);
    mpfi_clear(u);
    mpfi_clear(v);
}

/* x = log(c/δ) (c = 1 or 2), times k. */
static void log_c_over_delta(mpfi_ptr x, mpfi_srcptr delta, unsigned long c, unsigned long k)
{
    mpfi_ui_div(x, c, delta);
    mpfi_log(x, x);
    mpfi_mul_ui(x, x, k);
}

ul_status ul_d2d_m1_sigma(mpfi_ptr sigma, const ul_d2d_setting *s, mpfi_srcptr eps,
                          mpfi_srcptr delta, unsigned long I, ul_preconditions *pre, char *err,
                          size_t errlen)
{
    ul_status st = check_setting(s, err, errlen);
    if (st == UL_OK)
        st = check_eps_delta(eps, delta, err, errlen);
    if (st == UL_OK && I < 1)
        st = ul_fail(err, errlen, UL_EINPUT, "I: must be >= 1");
    if (st != UL_OK)
        return st;
    ul_pre_add(pre, "m_le_L", RULE_M_LE_L, ul_pre_leq(s->m, s->L));
    mpfr_prec_t w = mpfi_get_prec(sigma) + 32;
    mpfi_t x, D, c;
    mpfi_init2(x, w);
    mpfi_init2(D, w);
    mpfi_init2(c, w);
    /* (86): 4√2 M γ^I/(m n (1 − γ^I)(√(ℓ + ε) − √ℓ)), ℓ = log(1/δ) */
    log_c_over_delta(x, delta, 1, 1);
    sqrt_gap(D, x, eps, 1, 0);
    mpfi_set_ui(c, 2);
    mpfi_sqrt(c, c);
    mpfi_mul_2ui(c, c, 2);
    sigma_shape(sigma, s, c, D, I);
    mpfi_clear(x);
    mpfi_clear(D);
    mpfi_clear(c);
    return UL_OK;
}

ul_status ul_d2d_learning_bound(mpfi_ptr out, const ul_d2d_setting *s, mpfi_srcptr R,
                                unsigned long I, char *err, size_t errlen)
{
    ul_status st = check_setting(s, err, errlen);
    if (st == UL_OK && (R == NULL || mpfr_sgn(&R->left) <= 0))
        st = ul_fail(err, errlen, UL_EINPUT, "R: must be > 0");
    if (st != UL_OK)
        return st;
    mpfr_prec_t w = mpfi_get_prec(out) + 32;
    mpfi_t lg, x;
    mpfi_init2(lg, w);
    mpfi_init2(x, w);
    bool zero;
    log_inv_gamma(lg, &zero, s->L, s->m);
    /* log(2Rmn/(2M)) exactly as printed (the 2s cancel) */
    mpfi_mul(x, R, s->m);
    mpfi_mul(x, x, s->n);
    mpfi_mul_2ui(x, x, 1);
    mpfi_div(x, x, s->M);
    mpfi_div_2ui(x, x, 1);
    mpfi_log(x, x);
    over_lg(x, x, lg, zero);
    mpfi_add_ui(out, x, I);
    mpfi_clear(lg);
    mpfi_clear(x);
    return UL_OK;
}

ul_status ul_d2d_m2_iterations_bound(mpfi_ptr out, const ul_d2d_setting *s, mpfi_srcptr d,
                                     mpfi_srcptr eps, mpfi_srcptr delta, char *err, size_t errlen)
{
    ul_status st = check_setting(s, err, errlen);
    if (st == UL_OK)
        st = check_eps_delta(eps, delta, err, errlen);
    if (st == UL_OK && (d == NULL || mpfr_cmp_ui(&d->left, 1) < 0))
        st = ul_fail(err, errlen, UL_EINPUT, "d: must be >= 1");
    if (st != UL_OK)
        return st;
    mpfr_prec_t w = mpfi_get_prec(out) + 32;
    mpfi_t lg, x, D, t;
    mpfi_init2(lg, w), mpfi_init2(x, w), mpfi_init2(D, w), mpfi_init2(t, w);
    bool zero;
    log_inv_gamma(lg, &zero, s->L, s->m);
    /* (87): log(√(2d)(1 − γ)^{-1}/(√(2ℓ2 + ε) − √(2ℓ2)))/log(1/γ), 1 − γ = 2m/(L + m) */
    log_c_over_delta(x, delta, 2, 2);
    sqrt_gap(D, x, eps, 1, 0);
    mpfi_mul_2ui(t, d, 1);
    mpfi_sqrt(t, t);
    mpfi_div(t, t, D);
    mpfi_add(x, s->L, s->m);
    mpfi_mul(t, t, x);
    mpfi_div(t, t, s->m);
    mpfi_div_2ui(t, t, 1);
    mpfi_log(t, t);
    over_lg(out, t, lg, zero);
    mpfi_clear(lg), mpfi_clear(x), mpfi_clear(D), mpfi_clear(t);
    return UL_OK;
}

ul_status ul_d2d_m2_sigma(mpfi_ptr sigma, const ul_d2d_setting *s, mpfi_srcptr d, mpfi_srcptr eps,
                          mpfi_srcptr delta, unsigned long I, ul_preconditions *pre, char *err,
                          size_t errlen)
{
    mpfr_prec_t w = mpfi_get_prec(sigma) + 32;
    mpfi_t x, D, c;
    mpfi_init2(x, w);
    mpfi_init2(D, w);
    mpfi_init2(c, w);
    ul_status st = ul_d2d_m2_iterations_bound(x, s, d, eps, delta, err, errlen);
    if (st == UL_OK && I < 1)
        st = ul_fail(err, errlen, UL_EINPUT, "I: must be >= 1");
    if (st == UL_OK) {
        ul_pre_add(pre, "m_le_L", RULE_M_LE_L, ul_pre_leq(s->m, s->L));
        mpfi_set_ui(c, I);
        ul_pre_add(pre, "I_ge_m2_bound", RULE_I_M2, ul_pre_leq(x, c));
        /* (88): 8M γ^I/(m n (1 − γ^I)(√(2ℓ2 + 3ε) − √(2ℓ2 + 2ε))) */
        log_c_over_delta(x, delta, 2, 2);
        sqrt_gap(D, x, eps, 3, 2);
        mpfi_set_ui(c, 8);
        sigma_shape(sigma, s, c, D, I);
    }
    mpfi_clear(x);
    mpfi_clear(D);
    mpfi_clear(c);
    return st;
}

ul_status ul_d2d_m2_request_bound(mpfi_ptr out, const ul_d2d_setting *s, mpfi_srcptr d,
                                  mpfi_srcptr delta, unsigned long I, unsigned long i, char *err,
                                  size_t errlen)
{
    ul_status st = check_setting(s, err, errlen);
    if (st == UL_OK)
        st = check_eps_delta(NULL, delta, err, errlen);
    if (st == UL_OK && (d == NULL || mpfr_cmp_ui(&d->left, 1) < 0))
        st = ul_fail(err, errlen, UL_EINPUT, "d: must be >= 1");
    if (st == UL_OK && i < 1)
        st = ul_fail(err, errlen, UL_EINPUT, "i: requests are numbered from 1");
    if (st != UL_OK)
        return st;
    mpfr_prec_t w = mpfi_get_prec(out) + 32;
    mpfi_t lg, x;
    mpfi_init2(lg, w);
    mpfi_init2(x, w);
    bool zero;
    log_inv_gamma(lg, &zero, s->L, s->m);
    /* log(log(4 d i/δ))/log(1/γ); 4di/δ > 4 > e, so the inner log is > 1 */
    mpfi_mul_ui(x, d, i);
    mpfi_mul_2ui(x, x, 2);
    mpfi_div(x, x, delta);
    mpfi_log(x, x);
    mpfi_log(x, x);
    over_lg(x, x, lg, zero);
    mpfi_add_ui(out, x, I);
    mpfi_clear(lg);
    mpfi_clear(x);
    return UL_OK;
}

/* ---- certified entry points -------------------------------------------------------------- */

/* An integer: read at 256 bits (exact for integers up to 1e18), the
 * enclosure is one point and that point is an integer.  A non-integer is
 * either exact and not integral, or not representable (two ends). */
static bool is_integer_text(const char *text)
{
    mpfi_t a;
    mpfi_init2(a, 256);
    bool ok = ul_num_set_decimal(a, text) == UL_OK && mpfr_equal_p(&a->left, &a->right) &&
              mpfr_integer_p(&a->left);
    mpfi_clear(a);
    return ok;
}

/* Reads and checks; decides "m_le_L" exactly. */
static ul_status validate(const ul_d2d_problem *pb, bool need_eps, bool need_d, bool need_R,
                          ul_preconditions *pre, char *err, size_t errlen)
{
    ul_num_init();
    if (pre != NULL)
        ul_pre_clear(pre);
    if (pb == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "problem: missing");
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = ul_num_read_domain(x, &ul_domain_positive, "L", pb->L, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_positive, "m", pb->m, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_positive, "M", pb->M, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_dataset_size, "n", pb->n, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_delta, "delta", pb->delta, err, errlen);
    if (st == UL_OK && need_eps)
        st = ul_num_read_domain(x, &ul_domain_eps_renyi_pos, "eps", pb->eps, err, errlen);
    if (st == UL_OK && need_d)
        st = ul_num_read_domain(x, &ul_domain_dimension, "d", pb->d, err, errlen);
    if (st == UL_OK && (need_R || pb->T != NULL))
        st = ul_num_read_domain(x, &ul_domain_positive, "R", pb->R, err, errlen);
    if (st == UL_OK && pb->T != NULL)
        st = ul_num_read_checked(x, "T", pb->T, "0", false, "1e18", false, err, errlen);
    if (st == UL_OK && pb->T != NULL && !is_integer_text(pb->T))
        st = ul_fail(err, errlen, UL_EINPUT, "T: must be an integer (got '%s')", pb->T);
    mpfi_clear(x);
    if (st != UL_OK)
        return st;
    int c = 0;
    if (!ul_num_decimal_compare(pb->m, pb->L, &c))
        return ul_fail(err, errlen, UL_EINPUT,
                       "m: cannot be compared exactly with L (exponents too far apart: m = "
                       "'%.40s', L = '%.40s')",
                       pb->m, pb->L);
    ul_pre_add(pre, "m_le_L", RULE_M_LE_L, c <= 0 ? UL_PRE_HOLDS : UL_PRE_FAILS);
    if (c > 0)
        return ul_fail(err, errlen, UL_EINPUT, "m: precondition m_le_L fails: %s", RULE_M_LE_L);
    return UL_OK;
}

/* The inputs at precision p. */
typedef struct {
    mpfi_t L, m, M, n, eps, delta, d, R;
    ul_d2d_setting s;
    bool gamma_zero;
} reading;

static void read_at(reading *r, const ul_d2d_problem *pb, mpfr_prec_t p)
{
    mpfi_init2(r->L, p), mpfi_init2(r->m, p), mpfi_init2(r->M, p), mpfi_init2(r->n, p);
    mpfi_init2(r->eps, p), mpfi_init2(r->delta, p), mpfi_init2(r->d, p), mpfi_init2(r->R, p);
    ul_num_set_valid(r->L, pb->L);
    ul_num_set_valid(r->m, pb->m);
    ul_num_set_valid(r->M, pb->M);
    ul_num_set_valid(r->n, pb->n);
    ul_num_set_valid(r->delta, pb->delta);
    mpfi_set_ui(r->eps, 1);
    mpfi_set_ui(r->d, 1);
    mpfi_set_ui(r->R, 1);
    if (pb->eps != NULL)
        ul_num_set_valid(r->eps, pb->eps);
    if (pb->d != NULL)
        ul_num_set_valid(r->d, pb->d);
    if (pb->R != NULL)
        ul_num_set_valid(r->R, pb->R);
    /* L = m exactly (decimal text): γ = 0 exactly, which the intervals of L
     * and m cannot show when they are not binary fractions */
    int c = 1; /* compared in validate: this cannot fail */
    r->gamma_zero = ul_num_decimal_compare(pb->m, pb->L, &c) && c == 0;
    r->s.L = r->L;
    r->s.m = r->m;
    r->s.M = r->M;
    r->s.n = r->n;
}

static void reading_clear(reading *r)
{
    mpfi_clear(r->L), mpfi_clear(r->m), mpfi_clear(r->M), mpfi_clear(r->n);
    mpfi_clear(r->eps), mpfi_clear(r->delta), mpfi_clear(r->d), mpfi_clear(r->R);
}

typedef enum { BOUND_LEARNING, BOUND_M2_I, BOUND_M2_REQUEST } bound_kind;

/* The least integer ≥ the bound (and ≥ floor), certified by the ceilings
 * of both ends agreeing; *least false when 4096 bits do not separate. */
static ul_status least_integer(const ul_d2d_problem *pb, bound_kind kind, unsigned long I,
                               unsigned long i, unsigned long floor_value, unsigned long *out,
                               bool *least, char *err, size_t errlen)
{
    for (mpfr_prec_t p = 64;; p *= 2) {
        reading r;
        read_at(&r, pb, p);
        mpfi_t b;
        mpfi_init2(b, p);
        ul_status st;
        if (r.gamma_zero)
            st = UL_OK, mpfi_set_ui(b, kind == BOUND_M2_I ? 0 : I); /* log(·)/log(1/γ) = 0 */
        else if (kind == BOUND_LEARNING)
            st = ul_d2d_learning_bound(b, &r.s, r.R, I, err, errlen);
        else if (kind == BOUND_M2_I)
            st = ul_d2d_m2_iterations_bound(b, &r.s, r.d, r.eps, r.delta, err, errlen);
        else
            st = ul_d2d_m2_request_bound(b, &r.s, r.d, r.delta, I, i, err, errlen);
        reading_clear(&r);
        if (st != UL_OK) {
            mpfi_clear(b);
            return st;
        }
        mpfr_t lo, hi;
        mpfr_inits2(p, lo, hi, (mpfr_ptr)0);
        mpfr_ceil(lo, &b->left);
        mpfr_ceil(hi, &b->right);
        mpfi_clear(b);
        bool same = mpfr_equal_p(lo, hi);
        if (same || p >= D2D_CAP_BITS) {
            if (!mpfr_number_p(hi) || mpfr_cmp_ui(hi, 1000000000000000000UL) > 0) {
                mpfr_clears(lo, hi, (mpfr_ptr)0);
                return ul_fail(err, errlen, UL_EINPUT, "the iteration count exceeds 1e18");
            }
            unsigned long v = mpfr_sgn(hi) > 0 ? mpfr_get_ui(hi, MPFR_RNDU) : 0;
            *out = v > floor_value ? v : floor_value;
            *least = same || v <= floor_value;
            mpfr_clears(lo, hi, (mpfr_ptr)0);
            return UL_OK;
        }
        mpfr_clears(lo, hi, (mpfr_ptr)0);
    }
}

/* Checks "T_ge_learning_bound" when pb->T is given. */
static ul_status check_T(const ul_d2d_problem *pb, unsigned long I, ul_preconditions *pre,
                         char *err, size_t errlen)
{
    if (pb->T == NULL)
        return UL_OK;
    unsigned long Tmin;
    bool least;
    ul_status st = least_integer(pb, BOUND_LEARNING, I, 0, 0, &Tmin, &least, err, errlen);
    if (st != UL_OK)
        return st;
    mpfr_t t;
    mpfr_init2(t, 128);
    /* an integer ≤ 1e18 (validate): exact at 128 bits */
    if (mpfr_set_str(t, pb->T, 10, MPFR_RNDN) != 0) {
        mpfr_clear(t);
        return ul_fail(err, errlen, UL_EINPUT, "T: must be an integer (got '%s')", pb->T);
    }
    ul_pre_state state = mpfr_cmp_ui(t, Tmin) >= 0               ? UL_PRE_HOLDS
                         : least || mpfr_cmp_ui(t, Tmin - 1) < 0 ? UL_PRE_FAILS
                                                                 : UL_PRE_UNDECIDED;
    mpfr_clear(t);
    ul_pre_add(pre, "T_ge_learning_bound", RULE_T, state);
    if (state == UL_PRE_FAILS)
        return ul_fail(err, errlen, UL_EINPUT,
                       "T: precondition T_ge_learning_bound fails: %s "
                       "(needs T >= %lu)",
                       RULE_T, Tmin);
    if (state == UL_PRE_UNDECIDED)
        return ul_fail(err, errlen, UL_ECAP, "T: precondition T_ge_learning_bound undecided");
    return UL_OK;
}

typedef struct {
    const ul_d2d_problem *pb;
    unsigned long I;
    bool m2;
} sigma_ctx;

static ul_status sigma_eval(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    const sigma_ctx *c = ctx;
    reading r;
    read_at(&r, c->pb, mpfi_get_prec(out->enclosure) + 16);
    ul_status st =
        r.gamma_zero ? (mpfi_set_ui(out->enclosure, 0), UL_OK) /* γ^I = 0 */
        : c->m2
            ? ul_d2d_m2_sigma(out->enclosure, &r.s, r.d, r.eps, r.delta, c->I, NULL, err, errlen)
            : ul_d2d_m1_sigma(out->enclosure, &r.s, r.eps, r.delta, c->I, NULL, err, errlen);
    out->is_log = false;
    reading_clear(&r);
    return st;
}

static ul_status sigma_certified(const ul_d2d_problem *pb, unsigned long I, bool m2,
                                 const ul_num_precision *want, ul_num_value *sigma,
                                 ul_preconditions *pre, ul_num_report *rep, char *err,
                                 size_t errlen)
{
    ul_status st = validate(pb, true, m2, false, pre, err, errlen);
    if (st == UL_OK && I < 1)
        st = ul_fail(err, errlen, UL_EINPUT, "I: must be >= 1");
    if (st == UL_OK && m2) {
        unsigned long Imin;
        bool least;
        st = least_integer(pb, BOUND_M2_I, 0, 0, 0, &Imin, &least, err, errlen);
        if (st == UL_OK) {
            ul_pre_state state = I >= Imin               ? UL_PRE_HOLDS
                                 : least || I + 1 < Imin ? UL_PRE_FAILS
                                                         : UL_PRE_UNDECIDED;
            ul_pre_add(pre, "I_ge_m2_bound", RULE_I_M2, state);
            if (state == UL_PRE_FAILS)
                st = ul_fail(err, errlen, UL_EINPUT,
                             "I: precondition I_ge_m2_bound fails: %s (needs I >= %lu)", RULE_I_M2,
                             Imin);
            else if (state == UL_PRE_UNDECIDED)
                st = ul_fail(err, errlen, UL_ECAP, "I: precondition I_ge_m2_bound undecided");
        }
    }
    if (st == UL_OK)
        st = check_T(pb, I, pre, err, errlen);
    if (st != UL_OK)
        return st;
    sigma_ctx c = {pb, I, m2};
    ul_num_report local;
    return ul_num_adaptive_eval(sigma_eval, &c, want, sigma, rep != NULL ? rep : &local, err,
                                errlen);
}

ul_status ul_d2d_m1_sigma_certified(const ul_d2d_problem *pb, unsigned long I,
                                    const ul_num_precision *want, ul_num_value *sigma,
                                    ul_preconditions *pre, ul_num_report *rep, char *err,
                                    size_t errlen)
{
    return sigma_certified(pb, I, false, want, sigma, pre, rep, err, errlen);
}

ul_status ul_d2d_m2_sigma_certified(const ul_d2d_problem *pb, unsigned long I,
                                    const ul_num_precision *want, ul_num_value *sigma,
                                    ul_preconditions *pre, ul_num_report *rep, char *err,
                                    size_t errlen)
{
    return sigma_certified(pb, I, true, want, sigma, pre, rep, err, errlen);
}

ul_status ul_d2d_learning_iterations(const ul_d2d_problem *pb, unsigned long I, unsigned long *T,
                                     bool *least, char *err, size_t errlen)
{
    ul_status st = validate(pb, false, false, true, NULL, err, errlen);
    if (st != UL_OK)
        return st;
    return least_integer(pb, BOUND_LEARNING, I, 0, 0, T, least, err, errlen);
}

ul_status ul_d2d_m2_least_I(const ul_d2d_problem *pb, unsigned long *I, bool *least, char *err,
                            size_t errlen)
{
    ul_status st = validate(pb, true, true, false, NULL, err, errlen);
    if (st != UL_OK)
        return st;
    return least_integer(pb, BOUND_M2_I, 0, 0, 1, I, least, err, errlen);
}

ul_status ul_d2d_m2_request_iterations(const ul_d2d_problem *pb, unsigned long I, unsigned long i,
                                       unsigned long *steps, bool *least, char *err, size_t errlen)
{
    ul_status st = validate(pb, false, true, false, NULL, err, errlen);
    if (st == UL_OK && i < 1)
        st = ul_fail(err, errlen, UL_EINPUT, "i: requests are numbered from 1");
    if (st != UL_OK)
        return st;
    return least_integer(pb, BOUND_M2_REQUEST, I, i, 0, steps, least, err, errlen);
}

ul_status ul_d2d_m2_total_iterations(const ul_d2d_problem *pb, unsigned long I,
                                     unsigned long requests, unsigned long *total, bool *least,
                                     char *err, size_t errlen)
{
    ul_status st = validate(pb, false, true, false, NULL, err, errlen);
    if (st == UL_OK && (requests < 1 || requests > 1000000))
        st = ul_fail(err, errlen, UL_EINPUT, "requests: must be between 1 and 1000000");
    if (st != UL_OK)
        return st;
    *total = 0;
    *least = true;
    for (unsigned long i = 1; i <= requests; i++) {
        unsigned long k;
        bool l;
        st = least_integer(pb, BOUND_M2_REQUEST, I, i, 0, &k, &l, err, errlen);
        if (st != UL_OK)
            return st;
        *total += k;
        *least = *least && l;
    }
    return UL_OK;
}
