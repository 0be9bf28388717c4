/* src/bounds/koloskova.c — Koloskova et al. (ICML 2025) and its baselines.
 *
 * Formulas: spec/koloskova.md (sections cited at each one).  How things are
 * made rigorous:
 *
 *   - Inputs are decimals, hence rationals.  They are read into GMP rationals
 *     exactly, every precondition is a comparison of rationals (decided,
 *     never "undecided"), and the quantities that are rational — diameters
 *     2·C2 and 2·(C2 + lr·C1), ratios D/σ, T0 = ⌈C0/(C1·lr)⌉ — are formed
 *     exactly.
 *   - Model clipping uses contraction.h, which takes r_t = D/σ_t and δ0 as
 *     decimal text.  D/σ_t need not be a terminating decimal and δ0 (from
 *     initial noise) is transcendental, so both are bracketed by decimals,
 *     rounded down and up.  δ_T is nondecreasing in every r_t and in δ0 in
 *     both accountings (product: plain monotonicity of θ; adaptive: δ ↦
 *     δ·θ_{1+(e^ε−1)/δ}(r) is a supremum of functions affine in δ, hence
 *     convex, and 0 at δ = 0, hence nondecreasing), so the low corner gives a
 *     lower bound and the high corner an upper bound; the brackets narrow
 *     until the two corners agree to the digits asked for.
 *   - Everything else is evaluated in MPFI at a working precision raised by
 *     num/adaptive.h until narrow enough.
 *   - Searches (the order α) run in doubles; the bound is then certified.
 */
#include "bounds/koloskova.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/bounds_util.h"
#include "bounds/gaussian.h"
#include "num/deadline.h"
#include "num/input.h"

/* ==== exact rationals ========================================================= */

/* Reads a decimal parameter: syntax and range as ul_num_read_checked, then
 * exactly into q. */
static ul_status read_rat(mpq_ptr q, const char *name, const char *text, const char *lo,
                         bool lo_strict, const char *hi, bool hi_strict, char *err, size_t errlen)
{
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = ul_num_read_checked(x, name, text, lo, lo_strict, hi, hi_strict, err, errlen);
    mpfi_clear(x);
    /* the exact tier's rule in its own words (num/input.h): "too large"
     * was also said of 1e-30000, a value inside c0's 0 < C0 <= 1e100 */
    if (st == UL_OK)
        st = ul_num_read_exact(q, name, text, err, errlen);
    return st;
}

/* A parameter whose sign is a precondition: only its magnitude is an input limit. */
static ul_status read_param(mpq_ptr q, const char *name, const char *text, char *err,
                            size_t errlen)
{
    return read_rat(q, name, text, "-" UL_KOL_MAX_PARAM, false, UL_KOL_MAX_PARAM, false, err,
                    errlen);
}

/* "<m>e<e>" as malloc'd text; NULL when out of memory (m's digits come from
 * the input's numbers: policy of num/status.h). */
static char *mantissa_text(mpz_srcptr m, long e)
{
    size_t cap = mpz_sizeinbase(m, 10) + 32;
    char *out = malloc(cap);
    if (out == NULL)
        return NULL;
    mpz_get_str(out, 10, m);
    size_t len = strlen(out);
    snprintf(out + len, cap - len, "e%ld", e);
    return out;
}

/* The exact decimal text of q when q terminates in base 10 with at most
 * max_digits mantissa digits; NULL otherwise, and when out of memory. */
static char *rat_exact_text(mpq_srcptr q, size_t max_digits)
{
    mpz_t t, five, m, pw;
    mpz_inits(t, five, m, pw, NULL);
    mpz_set(t, mpq_denref(q));
    mpz_set_ui(five, 5);
    unsigned long a = mpz_scan1(t, 0);
    mpz_fdiv_q_2exp(t, t, a);
    unsigned long b = mpz_remove(t, t, five);
    char *out = NULL;
    if (mpz_cmp_ui(t, 1) == 0) {
        unsigned long k = a > b ? a : b;
        mpz_ui_pow_ui(pw, 10, k);
        mpz_mul(m, mpq_numref(q), pw);
        mpz_divexact(m, m, mpq_denref(q));
        if (k <= (unsigned long)LONG_MAX && mpz_sizeinbase(m, 10) <= max_digits)
            out = mantissa_text(m, -(long)k);
    }
    mpz_clears(t, five, m, pw, NULL);
    return out;
}

/* q > 0 rounded to about `digits` significant digits, toward +inf (up) or
 * toward 0, as decimal text (NULL when out of memory).  The exponent is chosen in doubles; the
 * rounding itself is exact integer division. */
static char *rat_round_text(mpq_srcptr q, long digits, bool up)
{
    mpfr_t l;
    mpfr_init2(l, 64);
    mpfr_set_q(l, q, MPFR_RNDN);
    mpfr_log10(l, l, MPFR_RNDN);
    long e = mpfr_get_si(l, MPFR_RNDD) - (digits - 1);
    mpfr_clear(l);
    mpz_t num, den, pw;
    mpz_inits(num, den, pw, NULL);
    mpz_ui_pow_ui(pw, 10, (unsigned long)labs(e));
    mpz_set(num, mpq_numref(q));
    mpz_set(den, mpq_denref(q));
    if (e <= 0)
        mpz_mul(num, num, pw);
    else
        mpz_mul(den, den, pw);
    if (up)
        mpz_cdiv_q(num, num, den);
    else
        mpz_fdiv_q(num, num, den);
    char *out = mantissa_text(num, e);
    mpz_clears(num, den, pw, NULL);
    return out;
}

/* ==== named preconditions ===================================================== */

typedef struct {
    const char *name, *param, *rule;
} pre_def;

static const pre_def PRE_EPS_NONNEG = {
    "eps_nonneg", "eps", "eps >= 0: the (eps, delta)-unlearning target (spec/koloskova.md §1.1)"};
static const pre_def PRE_EPS_POSITIVE = {
    "eps_positive", "eps",
    "eps > 0: the classical Gaussian mechanism divides by eps (Dwork-Roth Thm A.1; "
    "spec/koloskova.md §2.5)"};
static const pre_def PRE_EPS_LT_1 = {
    "eps_lt_1", "eps",
    "eps < 1: domain of the classical Gaussian mechanism (Dwork-Roth Thm A.1; spec/koloskova.md "
    "§2.2, §4.9); reported, not enforced"};
static const pre_def PRE_C0 = {
    "c0_positive", "c0",
    "C0 > 0: radius of the initial clip of the trained model (spec/koloskova.md §1.2)"};
static const pre_def PRE_C1 = {"c1_positive", "c1",
                               "C1 > 0: gradient clipping radius (spec/koloskova.md §1.3, §1.4)"};
static const pre_def PRE_C2 = {
    "c2_positive", "c2",
    "C2 > 0: model-clipping radius, pre-noise diameter 2*C2 (spec/koloskova.md §1.4)"};
static const pre_def PRE_LR = {"lr_positive", "lr",
                               "lr > 0: learning rate (spec/koloskova.md §1.2)"};
static const pre_def PRE_LAMBDA = {
    "lambda_nonneg", "lambda",
    "lambda >= 0: l2 regularisation, contraction factor 1 - lr*lambda (spec/koloskova.md §1.2)"};
static const pre_def PRE_LR_LAMBDA = {
    "lr_lambda_lt_1", "lambda",
    "lr*lambda < 1: the step x -> (1 - lr*lambda)x - lr*clip(g, C1) is a contraction plus a "
    "shift (spec/koloskova.md §1.2, §1.3)"};
static const pre_def PRE_SIGMA = {
    "sigma_positive", "sigma",
    "sigma_t > 0 at every noisy step (spec/koloskova.md §2.3, §2.4)"};
static const pre_def PRE_SIGMA0 = {
    "sigma0_nonneg", "sigma0",
    "sigma0 >= 0: std of the initial noise, 0 meaning none and delta0 = 1 (spec/koloskova.md "
    "§2.3)"};
static const pre_def PRE_DIM = {
    "dim_positive", "dim",
    "d >= 1: dimension of the clamp box [-C0, C0]^d, diameter 2*C0*sqrt(d) (spec/koloskova.md "
    "§1.2, §4.6)"};
static const pre_def PRE_STEPS = {
    "steps_positive", "steps",
    "T >= 1 noisy steps: the PABI sums run over t < T (spec/koloskova.md §2.4)"};
static const pre_def PRE_LR_CONSTANT = {
    "lr_schedule_constant", "lr",
    "constant learning rate: the PABI closed forms and the code's schedules assume it "
    "(spec/koloskova.md §1.2, §3 unlearn_sigma_t)"};
static const pre_def PRE_EPS_RENYI = {
    "eps_renyi_positive", "eps-renyi",
    "eps_R > 0: the code's Renyi target (spec/koloskova.md §2.4)"};
static const pre_def PRE_FEASIBLE = {
    "pabi_shifts_feasible", "sigma",
    "the shift allocation behind the bound has every a_t >= 0, every intermediate shift "
    "z_t >= 0 and z_T = 0, as Feldman et al. 2018 Thm 22 requires: the closed form a_t ~ "
    "w_t*sigma_t^2 where it is feasible, else one searched and certified (spec/koloskova.md "
    "§2.4)"};
static const pre_def PRE_GROUP = {
    "group_size_positive", "k", "k >= 1 records in the forget set (spec/koloskova.md §2.6)"};

/* The list being filled, and the message of the first violated item. */
typedef struct {
    ul_preconditions list;
    const pre_def *first_failed;
    const char *first_got;
    bool undecided;
} pre_builder;

static void pre_begin(pre_builder *b)
{
    ul_pre_clear(&b->list);
    b->first_failed = NULL;
    b->first_got = NULL;
    b->undecided = false;
}

/* Appends an item; got is the text of the offending input (for the message). */
static void pre_put(pre_builder *b, const pre_def *d, ul_pre_state st, const char *got)
{
    ul_pre_add(&b->list, d->name, d->rule, st);
    if (st == UL_PRE_FAILS && b->first_failed == NULL) {
        b->first_failed = d;
        b->first_got = got;
    }
    if (st == UL_PRE_UNDECIDED)
        b->undecided = true;
}

static ul_pre_state holds_if(bool ok)
{
    return ok ? UL_PRE_HOLDS : UL_PRE_FAILS;
}

/* Copies the list out; UL_EINPUT naming the first violated precondition. */
static ul_status pre_finish(const pre_builder *b, ul_preconditions *out, char *err, size_t errlen)
{
    if (out != NULL)
        *out = b->list;
    if (b->first_failed != NULL)
        return ul_fail(err, errlen, UL_EINPUT, "%s: precondition %s fails: %s (got '%s')",
                       b->first_failed->param, b->first_failed->name, b->first_failed->rule,
                       b->first_got != NULL ? b->first_got : "?");
    return UL_OK;
}

/* ==== small interval helpers ================================================== */

/* out ⊇ log(e^x − 1) for x > 0, as x + log(−expm1(−x)): no overflow for
 * large x, no cancellation for small x. */
static void log_expm1(mpfi_ptr out, mpfi_srcptr x)
{
    mpfi_t t;
    mpfi_init2(t, mpfi_get_prec(out));
    mpfi_neg(t, x);
    mpfi_expm1(t, t);
    mpfi_neg(t, t);
    mpfi_log(t, t);
    mpfi_add(out, x, t);
    mpfi_clear(t);
}

/* The initial diameter D0 = 2·C0 (ball) or 2·C0·√d (box). */
static void initial_diameter(mpfi_ptr out, mpq_srcptr c0, ul_kol_init init, unsigned long dim)
{
    mpfi_set_q(out, c0);
    mpfi_mul_2ui(out, out, 1);
    if (init == UL_KOL_INIT_BOX) {
        mpfi_t s;
        mpfi_init2(s, mpfi_get_prec(out));
        mpfi_set_ui(s, dim);
        mpfi_sqrt(s, s);
        mpfi_mul(out, out, s);
        mpfi_clear(s);
    }
}

static void report_merge(ul_num_report *into, const ul_num_report *r)
{
    if (r->bits_used > into->bits_used)
        into->bits_used = r->bits_used;
    into->cap_hit = into->cap_hit || r->cap_hit;
}

/* ==== model clipping ========================================================== */

/* The problem in exact rationals. */
typedef struct {
    mpq_t eps, c2, c1, lr, c0, sigma0, diameter;
    mpq_t *sigma;
    size_t n_sigma;
    bool init_noise; /* σ0 > 0 */
} mc_exact;

static void mc_exact_init(mc_exact *x)
{
    mpq_inits(x->eps, x->c2, x->c1, x->lr, x->c0, x->sigma0, x->diameter, NULL);
    x->sigma = NULL;
    x->n_sigma = 0;
    x->init_noise = false;
}

static void mc_exact_clear(mc_exact *x)
{
    mpq_clears(x->eps, x->c2, x->c1, x->lr, x->c0, x->sigma0, x->diameter, NULL);
    for (size_t i = 0; i < x->n_sigma; i++)
        mpq_clear(x->sigma[i]);
    free(x->sigma);
}

/* The σ list (one value, or one per step), read exactly into *list (n
 * entries, every one initialised); UL_ENOMEM when n values cannot be had. */
static ul_status read_sigma_list(mpq_t **list, size_t *n, const char *const *text, size_t n_text,
                                 unsigned long steps, char *err, size_t errlen)
{
    if (text == NULL || n_text == 0)
        return ul_fail(err, errlen, UL_EINPUT, "sigma: missing");
    if (n_text != 1 && n_text != steps)
        return ul_fail(err, errlen, UL_EINPUT,
                       "sigma: give one value or one per step (%lu values), got %zu", steps,
                       n_text);
    *list = malloc(n_text * sizeof **list);
    if (*list == NULL)
        return ul_fail(err, errlen, UL_ENOMEM, "sigma: out of memory for a list of %zu values",
                       n_text);
    for (size_t i = 0; i < n_text; i++)
        mpq_init((*list)[i]);
    *n = n_text;
    ul_status st = UL_OK;
    for (size_t i = 0; i < n_text && st == UL_OK; i++)
        st = read_param((*list)[i], "sigma", text[i], err, errlen);
    return st;
}

/* Reads and checks a model-clipping problem (the σ list only when
 * need_sigma).  Input errors first (syntax, magnitude, list length, enums),
 * then every precondition of the theorem, decided exactly. */
/* The numbers of a model-clipping problem, read exactly (names as CLI flags). */
static ul_status mc_read_numbers(const ul_kol_mc_problem *pb, bool need_sigma, mc_exact *x,
                                 char *err, size_t errlen)
{
    ul_num_init();
    if (pb->variant != UL_KOL_CC1 && pb->variant != UL_KOL_CC2)
        return ul_fail(err, errlen, UL_EINPUT, "variant: must be cc1 or cc2");
    if (pb->init != UL_KOL_INIT_BALL && pb->init != UL_KOL_INIT_BOX)
        return ul_fail(err, errlen, UL_EINPUT, "init: must be the ball (clip) or the box (clamp)");
    if (pb->mode != UL_CONTRACTION_PRODUCT && pb->mode != UL_CONTRACTION_ADAPTIVE)
        return ul_fail(err, errlen, UL_EINPUT, "mode: must be product or adaptive");
    if (pb->steps > UL_CONTRACTION_MAX_STEPS)
        return ul_fail(err, errlen, UL_EINPUT, "steps: must be at most %lu (got %lu)",
                       UL_CONTRACTION_MAX_STEPS, pb->steps);
    ul_status st = read_rat(x->eps, "eps", pb->eps, "-" UL_GAUSS_MAX_ABS_EPS, false,
                            UL_GAUSS_MAX_ABS_EPS, false, err, errlen);
    if (st == UL_OK)
        st = read_param(x->c2, "c2", pb->c2, err, errlen);
    if (st == UL_OK && pb->variant == UL_KOL_CC2) {
        st = read_param(x->c1, "c1", pb->c1, err, errlen);
        if (st == UL_OK)
            st = read_param(x->lr, "lr", pb->lr, err, errlen);
    }
    if (st == UL_OK && need_sigma)
        st = read_sigma_list(&x->sigma, &x->n_sigma, pb->sigma, pb->n_sigma, pb->steps, err,
                             errlen);
    bool has_sigma0 = pb->sigma0 != NULL;
    if (st == UL_OK && has_sigma0)
        st = read_param(x->sigma0, "sigma0", pb->sigma0, err, errlen);
    x->init_noise = st == UL_OK && has_sigma0 && mpq_sgn(x->sigma0) > 0;
    if (st == UL_OK && x->init_noise)
        st = read_param(x->c0, "c0", pb->c0, err, errlen);
    return st;
}

/* The theorem's preconditions (spec §1.4, §2.3), decided exactly. */
static ul_status mc_preconditions(const ul_kol_mc_problem *pb, bool need_sigma, const mc_exact *x,
                                  ul_preconditions *pre, char *err, size_t errlen)
{
    bool has_sigma0 = pb->sigma0 != NULL;
    pre_builder b;
    pre_begin(&b);
    pre_put(&b, &PRE_EPS_NONNEG, holds_if(mpq_sgn(x->eps) >= 0), pb->eps);
    pre_put(&b, &PRE_C2, holds_if(mpq_sgn(x->c2) > 0), pb->c2);
    if (pb->variant == UL_KOL_CC2) {
        pre_put(&b, &PRE_C1, holds_if(mpq_sgn(x->c1) > 0), pb->c1);
        pre_put(&b, &PRE_LR, holds_if(mpq_sgn(x->lr) > 0), pb->lr);
    }
    if (need_sigma) {
        size_t bad = 0;
        while (bad < x->n_sigma && mpq_sgn(x->sigma[bad]) > 0)
            bad++;
        pre_put(&b, &PRE_SIGMA, holds_if(bad == x->n_sigma),
                bad < x->n_sigma ? pb->sigma[bad] : NULL);
    }
    if (has_sigma0) {
        pre_put(&b, &PRE_SIGMA0, holds_if(mpq_sgn(x->sigma0) >= 0), pb->sigma0);
        if (x->init_noise) {
            pre_put(&b, &PRE_C0, holds_if(mpq_sgn(x->c0) > 0), pb->c0);
            if (pb->init == UL_KOL_INIT_BOX)
                pre_put(&b, &PRE_DIM, holds_if(pb->dim >= 1), "0");
        }
    }
    return pre_finish(&b, pre, err, errlen);
}

/* D = 2·C2 (cc1) or 2·(C2 + lr·C1) (cc2), spec §1.4, and r_t = D/σ_t
 * within contraction.h's domain.  D itself has no limit of its own: every
 * C2, C1, lr of their domains (≤ 1e100) is taken, the bounds see only r_t,
 * and ul_kol_mc_sigma_min scales by D exactly (a D above 1e100 was refused
 * as "c2: the diameter", a derived number, even for C2 ≤ 1e100). */
static ul_status mc_diameter_exact(const ul_kol_mc_problem *pb, mc_exact *x, char *err,
                                   size_t errlen)
{
    ul_status st = UL_OK;
    if (pb->variant == UL_KOL_CC2) {
        mpq_mul(x->diameter, x->lr, x->c1);
        mpq_add(x->diameter, x->diameter, x->c2);
    } else {
        mpq_set(x->diameter, x->c2);
    }
    mpq_add(x->diameter, x->diameter, x->diameter);

    mpq_t r, lim;
    mpq_inits(r, lim, NULL);
    ul_num_mpq_valid(lim, UL_GAUSS_MAX_R); /* a constant within the exact limits */
    for (size_t i = 0; i < x->n_sigma && st == UL_OK; i++) {
        mpq_div(r, x->diameter, x->sigma[i]);
        if (mpq_cmp(r, lim) > 0)
            st = ul_fail(err, errlen, UL_EINPUT,
                         "sigma: the ratio diameter/sigma must be at most %s (got sigma '%s')",
                         UL_GAUSS_MAX_R, pb->sigma[i]);
    }
    mpq_clears(r, lim, NULL);
    return st;
}

static ul_status mc_read(const ul_kol_mc_problem *pb, bool need_sigma, ul_preconditions *pre,
                         mc_exact *x, char *err, size_t errlen)
{
    ul_status st = mc_read_numbers(pb, need_sigma, x, err, errlen);
    if (st == UL_OK)
        st = mc_preconditions(pb, need_sigma, x, pre, err, errlen);
    if (st == UL_OK)
        st = mc_diameter_exact(pb, x, err, errlen);
    return st;
}

/* log δ0 ⊇ log θ_{e^ε}(D0/σ0) at out's precision (spec §2.3: the start of
 * the chain after clipping to C0 and adding N(0, σ0²I)); [0, 0] without
 * initial noise. */
static void mc_log_delta0(mpfi_ptr out, const mc_exact *x, const ul_kol_mc_problem *pb)
{
    if (!x->init_noise) {
        mpfi_set_ui(out, 0);
        return;
    }
    mpfr_prec_t p = mpfi_get_prec(out) + 16;
    mpfi_t e, r, s;
    mpfi_init2(e, p);
    mpfi_init2(r, p);
    mpfi_init2(s, p);
    mpfi_set_q(e, x->eps);
    initial_diameter(r, x->c0, pb->init, pb->dim);
    mpfi_set_q(s, x->sigma0);
    mpfi_div(r, r, s);
    ul_gauss_log_theta_enclose(out, e, r);
    mpfi_clear(e);
    mpfi_clear(r);
    mpfi_clear(s);
}

/* The decimal corners of a problem at `digits` digits. */
typedef struct {
    char **r_lo, **r_hi;
    size_t n;
    char *d0_lo, *d0_hi; /* NULL: δ0 = 1 */
    bool d0_lo_zero;     /* the low corner's δ0 is 0 */
    bool exact;          /* both corners are the exact problem */
} mc_corners;

static void mc_corners_clear(mc_corners *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->r_lo[i]);
        free(c->r_hi[i]);
    }
    free(c->r_lo);
    free(c->r_hi);
    free(c->d0_lo);
    free(c->d0_hi);
}

/* The corners' r_i texts; false when out of memory (entries NULL). */
static bool mc_corners_r(mc_corners *c, const mc_exact *x, long digits)
{
    bool ok = true;
    mpq_t r;
    mpq_init(r);
    for (size_t i = 0; i < c->n && ok; i++) {
        mpq_div(r, x->diameter, x->sigma[i]);
        char *ex = rat_exact_text(r, (size_t)digits + 40);
        if (ex != NULL) {
            c->r_lo[i] = ex;
            c->r_hi[i] = strdup(ex);
        } else {
            c->exact = false;
            c->r_lo[i] = rat_round_text(r, digits, false);
            c->r_hi[i] = rat_round_text(r, digits, true);
            int cmp;
            if (c->r_hi[i] != NULL && ul_num_decimal_compare(c->r_hi[i], UL_GAUSS_MAX_R, &cmp) &&
                cmp > 0) {
                free(c->r_hi[i]); /* r ≤ 1e9 exactly (mc_read): 1e9 still bounds it */
                c->r_hi[i] = strdup(UL_GAUSS_MAX_R);
            }
        }
        ok = c->r_lo[i] != NULL && c->r_hi[i] != NULL;
    }
    mpq_clear(r);
    return ok;
}

/* The corners at `digits` digits; UL_ENOMEM when the n texts of r_i (sized
 * by the σ list and the digits) cannot be had: c is then empty. */
static ul_status mc_corners_make(mc_corners *c, const mc_exact *x, const ul_kol_mc_problem *pb,
                                 long digits, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->r_lo = calloc(x->n_sigma + 1, sizeof *c->r_lo);
    c->r_hi = calloc(x->n_sigma + 1, sizeof *c->r_hi);
    bool room = c->r_lo != NULL && c->r_hi != NULL; /* n_sigma may be 0: test the pointers */
    c->n = room ? x->n_sigma : 0;
    c->exact = true;
    if (!room || !mc_corners_r(c, x, digits)) {
        mc_corners_clear(c);
        memset(c, 0, sizeof *c);
        return ul_fail(err, errlen, UL_ENOMEM,
                       "sigma: out of memory for the corners of %zu values at %ld digits",
                       x->n_sigma, digits);
    }
    c->d0_lo = c->d0_hi = NULL;
    c->d0_lo_zero = false;
    if (x->init_noise) {
        c->exact = false;
        mpfi_t l;
        mpfi_init2(l, (mpfr_prec_t)(digits * 3.33) + 64);
        mc_log_delta0(l, x, pb);
        if (mpfr_sgn(&l->right) < 0)
            c->d0_hi = ul_num_format_exp(&l->right, (int)digits, MPFR_RNDU);
        int cmp;
        if (c->d0_hi != NULL && ul_num_decimal_compare(c->d0_hi, "1", &cmp) && cmp >= 0) {
            free(c->d0_hi);
            c->d0_hi = NULL;
        }
        if (mpfr_inf_p(&l->left)) {
            c->d0_lo_zero = true;
        } else {
            c->d0_lo = ul_num_format_exp(&l->left, (int)digits, MPFR_RNDD);
            if (strcmp(c->d0_lo, "0") == 0)
                c->d0_lo_zero = true;
        }
        mpfi_clear(l);
    }
    return UL_OK;
}

static ul_contraction_problem mc_corner_problem(const ul_kol_mc_problem *pb, const mc_corners *c,
                                                bool high)
{
    ul_contraction_problem cp;
    cp.eps = pb->eps;
    cp.r = (const char *const *)(high ? c->r_hi : c->r_lo);
    cp.n_r = c->n;
    cp.steps = pb->steps;
    cp.delta0 = high ? c->d0_hi : c->d0_lo;
    cp.mode = pb->mode;
    return cp;
}

/* Digits of the first decimal brackets: the digits asked for, a guard, and
 * log10 T (a relative error in r is paid once per step).  The brackets
 * double from there until the two corners agree. */
static long mc_first_digits(const ul_num_precision *want, unsigned long steps)
{
    return want->digits + 16 + (long)ceil(log10(2.0 + (double)steps));
}

/* The time budget (num/deadline.h), asked before every round of the loops
 * below that double their digits: UL_ETIME naming what was being computed. */
static bool out_of_time(ul_status *st, const char *what, long digits, char *err, size_t errlen)
{
    if (!ul_deadline_passed())
        return false;
    *st = ul_fail(err, errlen, UL_ETIME, "computing %s at %ld digits", what, digits);
    return true;
}

static long max_digits_for(const ul_num_precision *want)
{
    return (long)((double)ul_num_max_bits(want) * 0.30103) + 1;
}

/* UL_ENOMEM for the exact text of the diameter (its digits grow with the
 * input's numbers: policy of num/status.h). */
static ul_status diameter_no_memory(const mc_exact *x, char *err, size_t errlen)
{
    return ul_fail(err, errlen, UL_ENOMEM,
                   "diameter: out of memory for its exact text (%zu digits)",
                   mpz_sizeinbase(mpq_numref(x->diameter), 10));
}

ul_status ul_kol_mc_diameter(const ul_kol_mc_problem *pb, ul_preconditions *pre,
                             char **diameter, char *err, size_t errlen)
{
    mc_exact x;
    mc_exact_init(&x);
    ul_status st = mc_read(pb, false, pre, &x, err, errlen);
    *diameter = NULL;
    if (st == UL_OK) {
        *diameter = rat_exact_text(x.diameter, (size_t)-1); /* sums and products of decimals */
        if (*diameter == NULL) /* so NULL is out of memory */
            st = diameter_no_memory(&x, err, errlen);
    }
    mc_exact_clear(&x);
    return st;
}

typedef struct {
    const mc_exact *x;
    const ul_kol_mc_problem *pb;
} mc_delta0_ctx;

static ul_status eval_delta0(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const mc_delta0_ctx *c = ctx;
    if (!c->x->init_noise) {
        mpfi_set_ui(out->enclosure, 1); /* δ0 = 1: any starting pair (spec §2.3) */
        out->is_log = false;
        return UL_OK;
    }
    mc_log_delta0(out->enclosure, c->x, c->pb);
    out->is_log = true;
    return UL_OK;
}

ul_status ul_kol_mc_delta0_certified(const ul_kol_mc_problem *pb, const ul_num_precision *want,
                                     ul_preconditions *pre, ul_num_value *delta0,
                                     ul_num_report *rep, char *err, size_t errlen)
{
    mc_exact x;
    mc_exact_init(&x);
    ul_status st = mc_read(pb, false, pre, &x, err, errlen);
    if (st == UL_OK) {
        mc_delta0_ctx c = {&x, pb};
        st = ul_num_adaptive_eval(eval_delta0, &c, want, delta0, rep, err, errlen);
    }
    mc_exact_clear(&x);
    return st;
}

ul_status ul_kol_mc_delta_certified(const ul_kol_mc_problem *pb, const ul_num_precision *want,
                                    ul_preconditions *pre, ul_num_value *delta,
                                    bool *floor_reached, ul_num_report *rep, char *err,
                                    size_t errlen)
{
    mc_exact x;
    mc_exact_init(&x);
    ul_status st = mc_read(pb, true, pre, &x, err, errlen);
    if (st != UL_OK) {
        mc_exact_clear(&x);
        return st;
    }
    ul_num_precision corner_want = *want;
    corner_want.digits = want->digits + 1;
    long max_digits = max_digits_for(want);
    ul_num_value lo, hi;
    ul_num_value_init(&lo, 64);
    ul_num_value_init(&hi, 64);
    for (long digits = mc_first_digits(want, pb->steps);; digits *= 2) {
        if (out_of_time(&st, "the model-clipping delta_T", digits, err, errlen))
            break;
        mc_corners c;
        if ((st = mc_corners_make(&c, &x, pb, digits, err, errlen)) != UL_OK)
            break;
        ul_contraction_problem cp = mc_corner_problem(pb, &c, true);
        ul_num_report r_hi = {0, false}, r_lo = {0, false};
        bool floor_hi = false, floor_lo = false;
        ul_status st_lo = UL_OK;
        st = ul_contraction_delta_certified(&cp, &corner_want, &hi, &floor_hi, &r_hi, err, errlen);
        if ((st == UL_OK || st == UL_ECAP) && !c.exact && !c.d0_lo_zero) {
            cp = mc_corner_problem(pb, &c, false);
            st_lo = ul_contraction_delta_certified(&cp, &corner_want, &lo, &floor_lo, &r_lo, err,
                                                   errlen);
        }
        mc_corners_clear(&c);
        if ((st != UL_OK && st != UL_ECAP) || (st_lo != UL_OK && st_lo != UL_ECAP)) {
            st = st != UL_OK && st != UL_ECAP ? st : st_lo;
            break;
        }
        /* combine: lower end from the low corner, upper end from the high one */
        *rep = r_hi;
        report_merge(rep, &r_lo);
        *floor_reached = floor_hi;
        mpfr_prec_t p = mpfi_get_prec(hi.enclosure);
        if (mpfi_get_prec(lo.enclosure) > p)
            p = mpfi_get_prec(lo.enclosure);
        mpfr_t l, h;
        mpfr_inits2(p, l, h, (mpfr_ptr)0);
        mpfi_get_right(h, hi.enclosure);
        if (c.exact)
            mpfi_get_left(l, hi.enclosure);
        else if (c.d0_lo_zero || floor_lo)
            mpfr_set_inf(l, -1);
        else
            mpfi_get_left(l, lo.enclosure);
        if (mpfr_greater_p(l, h)) /* cannot happen (monotone corners); stay sound */
            mpfr_set_inf(l, -1);
        mpfi_set_prec(delta->enclosure, p);
        mpfi_interv_fr(delta->enclosure, l, h);
        delta->is_log = true;
        mpfr_clears(l, h, (mpfr_ptr)0);
        if (floor_hi) {
            st = UL_OK;
            break;
        }
        if (ul_num_value_narrow_enough(delta, want->digits)) {
            st = UL_OK;
            break;
        }
        if (st == UL_ECAP || st_lo == UL_ECAP || c.exact || 2 * digits > max_digits) {
            rep->cap_hit = true;
            st = ul_fail(err, errlen, UL_ECAP,
                         "precision cap of %ld bits reached before %d digits were certain",
                         (long)ul_num_max_bits(want), want->digits);
            break;
        }
    }
    ul_num_value_clear(&lo);
    ul_num_value_clear(&hi);
    mc_exact_clear(&x);
    return st;
}

ul_status ul_kol_mc_least_steps(const ul_kol_mc_problem *pb, const char *delta,
                                unsigned long max_steps, ul_preconditions *pre,
                                unsigned long *steps, ul_num_report *rep, char *err,
                                size_t errlen)
{
    /* the σ list must be one constant σ; steps is not used (check it as 1) */
    ul_kol_mc_problem one = *pb;
    one.steps = 1;
    if (pb->n_sigma != 1)
        return ul_fail(err, errlen, UL_EINPUT, "sigma: the least T needs one constant sigma");
    mc_exact x;
    mc_exact_init(&x);
    ul_status st = mc_read(&one, true, pre, &x, err, errlen);
    mpq_t d;
    mpq_init(d);
    if (st == UL_OK)
        st = read_rat(d, "delta", delta, "0", true, "1", true, err, errlen);
    mpq_clear(d);
    if (st != UL_OK) {
        mc_exact_clear(&x);
        return st;
    }
    ul_num_precision dummy = {17, 0, 0};
    long max_digits = max_digits_for(&dummy);
    rep->bits_used = 0;
    rep->cap_hit = false;
    unsigned long t_hi = 0;
    bool have_hi = false;
    for (long digits = mc_first_digits(&dummy, 1000);; digits *= 2) {
        if (out_of_time(&st, "the least T of model clipping", digits, err, errlen))
            break;
        mc_corners c;
        if ((st = mc_corners_make(&c, &x, &one, digits, err, errlen)) != UL_OK)
            break;
        ul_contraction_problem cp = mc_corner_problem(&one, &c, true);
        ul_num_report r = {0, false};
        unsigned long t_lo = 0;
        st = ul_contraction_least_steps(&cp, delta, max_steps, &t_hi, &r, err, errlen);
        report_merge(rep, &r);
        ul_status st_lo = UL_OK;
        bool exact = c.exact;
        if (st == UL_OK)
            have_hi = true;
        bool stop = st == UL_EINPUT || st == UL_ENOMEM; /* another round would fail alike */
        if (!exact && !c.d0_lo_zero && !stop) {
            cp = mc_corner_problem(&one, &c, false);
            st_lo = ul_contraction_least_steps(&cp, delta, max_steps, &t_lo, &r, err, errlen);
            report_merge(rep, &r);
        }
        mc_corners_clear(&c);
        if (exact || stop)
            break;
        /* the low corner bounds every true δ_t from below (UL_ENOROOT); or no memory */
        if (st_lo == UL_ENOROOT || st_lo == UL_ENOMEM) {
            st = st_lo;
            break;
        }
        if (st == UL_OK && st_lo == UL_OK && t_lo == t_hi)
            break;
        if (2 * digits > max_digits) {
            rep->cap_hit = true;
            st = ul_fail(err, errlen, have_hi ? UL_ECAP : st,
                         "could not decide the least T within the precision cap%s",
                         have_hi ? " (the T reported suffices)" : "");
            break;
        }
    }
    if (have_hi)
        *steps = t_hi;
    mc_exact_clear(&x);
    return st;
}

/* out ⊇ the smallest σ of one corner problem.  The search runs at the
 * diameter 1 and scales by the exact D: δ_T sees D and σ only through
 * r_t = D/σ (spec §1.4, §2.3), so σ* = D/r* with r* the largest admissible
 * r, which does not depend on D (contraction.c, ul_contraction_sigma_min:
 * σ* ∈ [D/r_unsafe, D/r_safe]); mpfi_mul_q rounds outward.  Passing D itself
 * would hold D to contraction-sigma's --diameter limit (1e100), which no
 * flag of model clipping states.  out is NaN when the search set nothing
 * (UL_ECAP without a bracket), never a value of an earlier round scaled
 * twice. */
static ul_status mc_corner_sigma(const ul_contraction_problem *cp, const mc_exact *x,
                                 const char *delta, const ul_num_precision *want, mpfi_ptr out,
                                 ul_num_report *rep, char *err, size_t errlen)
{
    mpfr_set_nan(&out->left);
    mpfr_set_nan(&out->right);
    ul_status st = ul_contraction_sigma_min(cp, "1", delta, want, out, rep, err, errlen);
    mpfi_mul_q(out, out, x->diameter);
    return st;
}

ul_status ul_kol_mc_sigma_min(const ul_kol_mc_problem *pb, const char *delta,
                              const ul_num_precision *want, ul_preconditions *pre,
                              mpfi_ptr sigma, ul_num_report *rep, char *err, size_t errlen)
{
    mc_exact x;
    mc_exact_init(&x);
    ul_status st = mc_read(pb, false, pre, &x, err, errlen);
    if (st != UL_OK) {
        mc_exact_clear(&x);
        return st;
    }
    ul_num_precision corner_want = *want;
    corner_want.digits = want->digits + 1;
    long max_digits = max_digits_for(want);
    mpfi_t lo;
    mpfi_init2(lo, 64);
    rep->bits_used = 0;
    rep->cap_hit = false;
    for (long digits = mc_first_digits(want, pb->steps);; digits *= 2) {
        if (out_of_time(&st, "the smallest sigma of model clipping", digits, err, errlen))
            break;
        mc_corners c;
        if ((st = mc_corners_make(&c, &x, pb, digits, err, errlen)) != UL_OK)
            break;
        ul_contraction_problem cp = mc_corner_problem(pb, &c, true);
        ul_num_report r = {0, false};
        st = mc_corner_sigma(&cp, &x, delta, &corner_want, sigma, &r, err, errlen);
        report_merge(rep, &r);
        ul_status st_lo = UL_OK;
        bool exact = !x.init_noise, lo_zero = c.d0_lo_zero;
        if ((st == UL_OK || st == UL_ECAP) && !exact && !lo_zero) {
            cp = mc_corner_problem(pb, &c, false);
            st_lo = mc_corner_sigma(&cp, &x, delta, &corner_want, lo, &r, err, errlen);
            report_merge(rep, &r);
        }
        mc_corners_clear(&c);
        if (exact || (st != UL_OK && st != UL_ECAP) || (st_lo != UL_OK && st_lo != UL_ECAP)) {
            if (st == UL_OK)
                st = st_lo;
            break;
        }
        /* σ* is nondecreasing in δ0: [low corner's lower end, high corner's upper end] */
        mpfr_t l, h;
        mpfr_inits2(mpfi_get_prec(sigma), l, h, (mpfr_ptr)0);
        mpfi_get_right(h, sigma);
        if (lo_zero)
            mpfr_set_zero(l, 1);
        else
            mpfr_set(l, &lo->left, MPFR_RNDD);
        mpfi_interv_fr(sigma, l, h);
        mpfr_clears(l, h, (mpfr_ptr)0);
        ul_num_value v;
        ul_num_value_init(&v, mpfi_get_prec(sigma));
        mpfi_set(v.enclosure, sigma);
        bool narrow = ul_num_value_narrow_enough(&v, want->digits);
        ul_num_value_clear(&v);
        if (narrow && st == UL_OK && st_lo == UL_OK)
            break;
        if (st == UL_ECAP || st_lo == UL_ECAP || 2 * digits > max_digits) {
            rep->cap_hit = true;
            st = ul_fail(err, errlen, UL_ECAP,
                         "precision cap of %ld bits reached before %d digits were certain",
                         (long)ul_num_max_bits(want), want->digits);
            break;
        }
    }
    mpfi_clear(lo);
    mc_exact_clear(&x);
    return st;
}

/* ==== DP-SGD + group privacy ================================================== */

/* log Σ_{i<k} e^{iε} at the exact point e ≥ 0:
 * log((e^{kε} − 1)/(e^ε − 1)) for ε > 0, log k at ε = 0. */
static void log_group_sum_point(mpfi_ptr out, mpfr_srcptr e, unsigned long k)
{
    mpfr_prec_t p = mpfi_get_prec(out) + 8;
    mpfi_t a, b;
    mpfi_init2(a, p);
    mpfi_init2(b, p);
    if (mpfr_sgn(e) <= 0 || k == 1) {
        mpfi_set_ui(a, k);
        mpfi_log(out, a);
    } else {
        mpfi_set_fr(b, e);
        mpfi_mul_ui(a, b, k);
        log_expm1(a, a);
        log_expm1(b, b);
        mpfi_sub(out, a, b);
    }
    mpfi_clear(a);
    mpfi_clear(b);
}

void ul_kol_group_log_delta_enclose(mpfi_ptr log_delta_k, mpfi_srcptr eps,
                                    mpfi_srcptr log_delta, unsigned long k,
                                    ul_kol_group_rule rule)
{
    ul_num_init();
    mpfr_prec_t p = mpfi_get_prec(log_delta_k) + 8;
    mpfi_t s;
    mpfi_init2(s, p);
    if (rule == UL_KOL_GROUP_CODE_LARGEST_TERM) {
        /* the code (spec §1.6): δ·e^{(k−1)ε} */
        mpfi_mul_ui(s, eps, k - 1);
        mpfi_add(log_delta_k, log_delta, s);
    } else {
        /* Dwork–Roth group privacy (spec §2.6): δ·Σ_{i<k} e^{iε}, increasing in
         * ε, so its ends come from the ends of eps (clamped at 0, its domain). */
        mpfr_t e;
        mpfr_init2(e, mpfi_get_prec(eps));
        mpfi_t lo, hi;
        mpfi_init2(lo, p);
        mpfi_init2(hi, p);
        mpfi_get_left(e, eps);
        if (mpfr_sgn(e) < 0)
            mpfr_set_zero(e, 1);
        log_group_sum_point(lo, e, k);
        mpfi_get_right(e, eps);
        if (mpfr_sgn(e) < 0)
            mpfr_set_zero(e, 1);
        log_group_sum_point(hi, e, k);
        mpfr_clear(e);
        mpfi_put(lo, hi);
        mpfi_add(log_delta_k, log_delta, lo);
        mpfi_clear(lo);
        mpfi_clear(hi);
    }
    mpfi_clear(s);
}

typedef struct {
    mpq_srcptr eps, delta;
    unsigned long k;
    ul_kol_group_rule rule;
    ul_num_value *eps_k;
} group_ctx;

static ul_status eval_group(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const group_ctx *g = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure);
    mpfi_t e, ld;
    mpfi_init2(e, p + 8);
    mpfi_init2(ld, p + 8);
    mpfi_set_q(e, g->eps);
    mpfi_set_q(ld, g->delta);
    mpfi_log(ld, ld); /* -inf when δ = 0 */
    ul_kol_group_log_delta_enclose(out->enclosure, e, ld, g->k, g->rule);
    out->is_log = true;
    mpfi_set_prec(g->eps_k->enclosure, p);
    mpfi_mul_ui(g->eps_k->enclosure, e, g->k);
    g->eps_k->is_log = false;
    mpfi_clear(e);
    mpfi_clear(ld);
    return UL_OK;
}

ul_status ul_kol_group_certified(const char *eps, const char *delta, unsigned long k,
                                 ul_kol_group_rule rule, const ul_num_precision *want,
                                 ul_preconditions *pre, ul_num_value *eps_k,
                                 ul_num_value *delta_k, ul_num_report *rep, char *err,
                                 size_t errlen)
{
    ul_num_init();
    if (rule != UL_KOL_GROUP_EXACT && rule != UL_KOL_GROUP_CODE_LARGEST_TERM)
        return ul_fail(err, errlen, UL_EINPUT, "rule: must be exact or code");
    mpq_t e, d;
    mpq_inits(e, d, NULL);
    ul_status st = read_rat(e, "eps", eps, "-" UL_RENYI_MAX_EPS, false, UL_RENYI_MAX_EPS, false,
                            err, errlen);
    if (st == UL_OK)
        st = read_rat(d, "delta", delta, "0", false, "1", false, err, errlen);
    if (st == UL_OK) {
        pre_builder b;
        pre_begin(&b);
        pre_put(&b, &PRE_EPS_NONNEG, holds_if(mpq_sgn(e) >= 0), eps);
        pre_put(&b, &PRE_GROUP, holds_if(k >= 1), "0");
        st = pre_finish(&b, pre, err, errlen);
    }
    if (st == UL_OK) {
        group_ctx g = {e, d, k, rule, eps_k};
        st = ul_num_adaptive_eval(eval_group, &g, want, delta_k, rep, err, errlen);
    }
    mpq_clears(e, d, NULL);
    return st;
}

/* ==== gradient clipping: PABI ================================================= */

/* The problem in exact rationals.  per_step: σ_t varies with t (a list of T
 * values, or the code's decreasing schedule with λ > 0); otherwise one σ. */
typedef struct {
    const ul_kol_pabi_problem *pb;
    mpq_t c0, c1, lr, lambda, eps_renyi;
    mpq_t lrl, rho, two_c1_over_lambda; /* lr·λ, 1 − lr·λ, 2·C1/λ (λ > 0) */
    mpq_t *sigma;
    size_t n_sigma;
    bool lambda_zero, per_step, code;
    double *z;               /* the searched shifts z_0..z_T, or NULL: the closed form */
    ul_kol_pabi_alloc alloc; /* which allocation, and why */
} pabi_exact;

static void pabi_exact_init(pabi_exact *x, const ul_kol_pabi_problem *pb)
{
    x->pb = pb;
    mpq_inits(x->c0, x->c1, x->lr, x->lambda, x->eps_renyi, x->lrl, x->rho,
              x->two_c1_over_lambda, NULL);
    x->sigma = NULL;
    x->n_sigma = 0;
    x->lambda_zero = x->per_step = x->code = false;
    x->z = NULL;
    memset(&x->alloc, 0, sizeof x->alloc);
}

static void pabi_exact_clear(pabi_exact *x)
{
    mpq_clears(x->c0, x->c1, x->lr, x->lambda, x->eps_renyi, x->lrl, x->rho,
               x->two_c1_over_lambda, NULL);
    for (size_t i = 0; i < x->n_sigma; i++)
        mpq_clear(x->sigma[i]);
    free(x->sigma);
    free(x->z);
}

/* Input errors, then the preconditions (into b, not finished: the caller may
 * add pabi_shifts_feasible).  with_lr_constant: include lr_schedule_constant. */
static ul_status pabi_read(const ul_kol_pabi_problem *pb, bool with_lr_constant, pre_builder *b,
                           pabi_exact *x, char *err, size_t errlen)
{
    ul_num_init();
    if (pb->init != UL_KOL_INIT_BALL && pb->init != UL_KOL_INIT_BOX)
        return ul_fail(err, errlen, UL_EINPUT, "init: must be the ball (clip) or the box (clamp)");
    if (pb->noise != UL_KOL_PABI_GIVEN && pb->noise != UL_KOL_PABI_CODE_CONSTANT &&
        pb->noise != UL_KOL_PABI_CODE_DECREASING)
        return ul_fail(err, errlen, UL_EINPUT, "noise: must be given, constant or decreasing");
    if (pb->variant != UL_VARIANT_CORRECTED && pb->variant != UL_VARIANT_PRINTED)
        return ul_fail(err, errlen, UL_EINPUT, "variant: must be printed or corrected");
    if (pb->steps > UL_CONTRACTION_MAX_STEPS)
        return ul_fail(err, errlen, UL_EINPUT, "steps: must be at most %lu (got %lu)",
                       UL_CONTRACTION_MAX_STEPS, pb->steps);
    x->code = pb->noise != UL_KOL_PABI_GIVEN;
    ul_status st = read_param(x->c0, "c0", pb->c0, err, errlen);
    if (st == UL_OK)
        st = read_param(x->c1, "c1", pb->c1, err, errlen);
    if (st == UL_OK)
        st = read_param(x->lr, "lr", pb->lr, err, errlen);
    if (st == UL_OK)
        st = read_param(x->lambda, "lambda", pb->lambda, err, errlen);
    if (st == UL_OK && x->code)
        st = read_param(x->eps_renyi, "eps-renyi", pb->eps_renyi, err, errlen);
    if (st == UL_OK && !x->code)
        st = read_sigma_list(&x->sigma, &x->n_sigma, pb->sigma, pb->n_sigma, pb->steps, err,
                             errlen);
    if (st != UL_OK)
        return st;
    x->lambda_zero = mpq_sgn(x->lambda) == 0;
    x->per_step = (!x->code && x->n_sigma > 1) ||
                  (pb->noise == UL_KOL_PABI_CODE_DECREASING && !x->lambda_zero);
    if (x->per_step && pb->steps > UL_KOL_PABI_MAX_LOOP_STEPS)
        return ul_fail(err, errlen, UL_EINPUT,
                       "steps: at most %lu with a per-step noise schedule (got %lu)",
                       UL_KOL_PABI_MAX_LOOP_STEPS, pb->steps);

    /* The preconditions of the PABI bound (spec §1.3, §2.4). */
    mpq_mul(x->lrl, x->lr, x->lambda);
    mpq_set_ui(x->rho, 1, 1);
    mpq_sub(x->rho, x->rho, x->lrl);
    pre_put(b, &PRE_C0, holds_if(mpq_sgn(x->c0) > 0), pb->c0);
    pre_put(b, &PRE_C1, holds_if(mpq_sgn(x->c1) > 0), pb->c1);
    pre_put(b, &PRE_LR, holds_if(mpq_sgn(x->lr) > 0), pb->lr);
    pre_put(b, &PRE_LAMBDA, holds_if(mpq_sgn(x->lambda) >= 0), pb->lambda);
    pre_put(b, &PRE_LR_LAMBDA, holds_if(mpq_sgn(x->rho) > 0), pb->lambda);
    if (x->code) {
        pre_put(b, &PRE_EPS_RENYI, holds_if(mpq_sgn(x->eps_renyi) > 0), pb->eps_renyi);
    } else {
        size_t bad = 0;
        while (bad < x->n_sigma && mpq_sgn(x->sigma[bad]) > 0)
            bad++;
        pre_put(b, &PRE_SIGMA, holds_if(bad == x->n_sigma),
                bad < x->n_sigma ? pb->sigma[bad] : NULL);
    }
    pre_put(b, &PRE_STEPS, holds_if(pb->steps >= 1), "0");
    if (with_lr_constant)
        pre_put(b, &PRE_LR_CONSTANT, holds_if(!pb->lr_varies), "a varying schedule");
    if (pb->init == UL_KOL_INIT_BOX)
        pre_put(b, &PRE_DIM, holds_if(pb->dim >= 1), "0");
    if (!x->lambda_zero && mpq_sgn(x->lambda) > 0) {
        mpq_div(x->two_c1_over_lambda, x->c1, x->lambda);
        mpq_add(x->two_c1_over_lambda, x->two_c1_over_lambda, x->two_c1_over_lambda);
    }
    return UL_OK;
}

/* The pieces every PABI formula shares, at one working precision. */
typedef struct {
    mpfi_t d0;  /* D0 = 2·C0 (·√d) */
    mpfi_t s;   /* shift per step, 2·lr·C1 */
    mpfi_t lrl; /* lr·λ */
    mpfi_t rho; /* ρ = 1 − lr·λ */
    mpfi_t L;   /* log ρ (0 when λ = 0) */
    mpfi_t B;   /* ρ^T·D0 + Σ_{t<T} ρ^{T−1−t}·s  (= the code's A) */
} pabi_num;

static void pabi_num_init(pabi_num *n, const pabi_exact *x, mpfr_prec_t p)
{
    const ul_kol_pabi_problem *pb = x->pb;
    mpfi_init2(n->d0, p);
    mpfi_init2(n->s, p);
    mpfi_init2(n->lrl, p);
    mpfi_init2(n->rho, p);
    mpfi_init2(n->L, p);
    mpfi_init2(n->B, p);
    initial_diameter(n->d0, x->c0, pb->init, pb->dim);
    mpq_t q;
    mpq_init(q);
    mpq_mul(q, x->lr, x->c1);
    mpq_add(q, q, q);
    mpfi_set_q(n->s, q);
    mpq_clear(q);
    mpfi_set_q(n->lrl, x->lrl);
    mpfi_set_q(n->rho, x->rho);
    if (x->lambda_zero) {
        /* ρ = 1: B = D0 + s·T */
        mpfi_set_ui(n->L, 0);
        mpfi_mul_ui(n->B, n->s, pb->steps);
        mpfi_add(n->B, n->B, n->d0);
    } else {
        /* Σ_{t<T} ρ^{T−1−t}·s = s·(1 − ρ^T)/(1 − ρ) = (2·C1/λ)·(1 − ρ^T),
         * with 1 − ρ^T = −expm1(T·log ρ) (no cancellation for small lr·λ). */
        mpfi_t tl, u;
        mpfi_init2(tl, p);
        mpfi_init2(u, p);
        mpfi_neg(n->L, n->lrl);
        mpfi_log1p(n->L, n->L);
        mpfi_mul_ui(tl, n->L, pb->steps);
        mpfi_exp(u, tl); /* ρ^T */
        mpfi_mul(n->B, u, n->d0);
        mpfi_expm1(u, tl);
        mpfi_neg(u, u);
        mpfi_set_q(tl, x->two_c1_over_lambda);
        mpfi_mul(u, u, tl);
        mpfi_add(n->B, n->B, u);
        mpfi_clear(tl);
        mpfi_clear(u);
    }
}

static void pabi_num_clear(pabi_num *n)
{
    mpfi_clear(n->d0);
    mpfi_clear(n->s);
    mpfi_clear(n->lrl);
    mpfi_clear(n->rho);
    mpfi_clear(n->L);
    mpfi_clear(n->B);
}

/* 1 − ρ^{2T} = −expm1(2T·log ρ), for λ > 0. */
static void one_minus_rho_2t(mpfi_ptr out, const pabi_exact *x, const pabi_num *n)
{
    mpfi_mul_ui(out, n->L, 2 * x->pb->steps);
    mpfi_expm1(out, out);
    mpfi_neg(out, out);
}

/* σ_t² of the code's schedule (`unlearn_sigma_t`, spec §2.4), with A = B:
 *   λ = 0:             (D0 + 2·lr·C1·T)² / (k·ε_R·T), k = 4 printed (the code),
 *                      k = 2 corrected (the λ → 0 limit of the λ > 0 forms; §4.5)
 *   constant, λ > 0:   A²·lr·λ·(2 − lr·λ) / (2·ε_R·(1 − c²)),   c = ρ^T
 *   decreasing, λ > 0: A² / (2·ε_R·T·ρ^{2(T−t−1)}) */
static void pabi_code_sigma2(mpfi_ptr out, const pabi_exact *x, const pabi_num *n,
                             unsigned long t)
{
    const ul_kol_pabi_problem *pb = x->pb;
    mpfr_prec_t p = mpfi_get_prec(out) + 8;
    mpfi_t num, den;
    mpfi_init2(num, p);
    mpfi_init2(den, p);
    mpfi_sqr(num, n->B);
    mpfi_set_q(den, x->eps_renyi);
    if (x->lambda_zero) {
        mpfi_mul_ui(den, den, pb->steps);
        mpfi_mul_ui(den, den, pb->variant == UL_VARIANT_PRINTED ? 4 : 2);
        mpfi_div(out, num, den);
    } else if (pb->noise == UL_KOL_PABI_CODE_CONSTANT) {
        mpfi_t v;
        mpfi_init2(v, p);
        mpfi_ui_sub(v, 2, n->lrl);
        mpfi_mul(v, v, n->lrl);
        mpfi_mul(num, num, v);
        one_minus_rho_2t(v, x, n);
        mpfi_mul(den, den, v);
        mpfi_mul_2ui(den, den, 1);
        mpfi_div(out, num, den);
        mpfi_clear(v);
    } else {
        mpfi_mul_ui(den, den, pb->steps);
        mpfi_mul_2ui(den, den, 1);
        mpfi_div(num, num, den);
        /* ρ^{−2(T−t−1)} = exp(−2(T−t−1)·log ρ) */
        mpfi_mul_ui(den, n->L, pb->steps - t - 1);
        mpfi_mul_si(den, den, -2);
        mpfi_exp(den, den);
        mpfi_mul(out, num, den);
    }
    mpfi_clear(num);
    mpfi_clear(den);
}

/* σ² of a constant schedule (the given σ, or the code's at any t). */
static void pabi_const_sigma2(mpfi_ptr out, const pabi_exact *x, const pabi_num *n)
{
    if (x->code) {
        pabi_code_sigma2(out, x, n, x->pb->steps - 1);
    } else {
        mpfi_set_q(out, x->sigma[0]);
        mpfi_sqr(out, out);
    }
}

/* σ_t² for a per-step schedule, walking t upward (t = 0 first): the code's
 * decreasing schedule is kept as σ_{T−1}²·ρ^{−2(T−1−t)}, updated by ρ². */
typedef struct {
    mpfi_t last, f, rho2;
} sigma_walk;

static void sigma_walk_init(sigma_walk *w, const pabi_exact *x, const pabi_num *n, mpfr_prec_t p)
{
    mpfi_init2(w->last, p);
    mpfi_init2(w->f, p);
    mpfi_init2(w->rho2, p);
    mpfi_sqr(w->rho2, n->rho);
    if (x->code) {
        pabi_code_sigma2(w->last, x, n, x->pb->steps - 1);
        mpfi_mul_ui(w->f, n->L, x->pb->steps - 1);
        mpfi_mul_si(w->f, w->f, -2);
        mpfi_exp(w->f, w->f);
    }
}

static void sigma_walk_get(mpfi_ptr out, sigma_walk *w, const pabi_exact *x, unsigned long t)
{
    if (x->code) {
        mpfi_mul(out, w->last, w->f);
        mpfi_mul(w->f, w->f, w->rho2);
    } else {
        mpfi_set_q(out, x->sigma[t]);
        mpfi_sqr(out, out);
    }
}

static void sigma_walk_clear(sigma_walk *w)
{
    mpfi_clear(w->last);
    mpfi_clear(w->f);
    mpfi_clear(w->rho2);
}

/* S = Σ_{t<T} ρ^{2(T−1−t)}·σ_t²  (the denominator of ρ_eff). */
static void pabi_den(mpfi_ptr S, const pabi_exact *x, const pabi_num *n)
{
    const ul_kol_pabi_problem *pb = x->pb;
    mpfr_prec_t p = mpfi_get_prec(S);
    mpfi_t v;
    mpfi_init2(v, p);
    if (!x->per_step) {
        pabi_const_sigma2(S, x, n);
        if (x->lambda_zero) {
            mpfi_mul_ui(S, S, pb->steps);
        } else {
            /* Σ_{k<T} ρ^{2k} = (1 − ρ^{2T}) / (lr·λ·(2 − lr·λ)) */
            one_minus_rho_2t(v, x, n);
            mpfi_mul(S, S, v);
            mpfi_ui_sub(v, 2, n->lrl);
            mpfi_mul(v, v, n->lrl);
            mpfi_div(S, S, v);
        }
    } else {
        /* Horner: S ← ρ²·S + σ_t² */
        sigma_walk w;
        sigma_walk_init(&w, x, n, p);
        mpfi_set_ui(S, 0);
        for (unsigned long t = 0; t < pb->steps; t++) {
            mpfi_mul(S, S, w.rho2);
            sigma_walk_get(v, &w, x, t);
            mpfi_add(S, S, v);
        }
        sigma_walk_clear(&w);
    }
    mpfi_clear(v);
}

/* ρ(a) = Σ_{t<T} a_t²/(2σ_t²) of the searched allocation: a_t = ρ·z_t + s −
 * z_{t+1}, z_0 = D0 exactly and z_1..z_T the doubles x->z (Feldman et al.
 * 2018 Thm 22: step t's shift reduction costs R_α(N(0, σ_t²I), a_t) =
 * α·a_t²/(2σ_t²), Lemma 20 / spec §2.4). */
static void pabi_alloc_cost(mpfi_ptr out, const pabi_exact *x, const pabi_num *n, mpfr_prec_t p)
{
    sigma_walk w;
    sigma_walk_init(&w, x, n, p);
    mpfi_t z, a, v;
    mpfi_init2(z, p);
    mpfi_init2(a, p);
    mpfi_init2(v, p);
    mpfi_set(z, n->d0);
    mpfi_set_ui(out, 0);
    for (unsigned long t = 0; t < x->pb->steps; t++) {
        mpfi_mul(a, z, n->rho);
        mpfi_add(a, a, n->s);
        mpfi_set_d(z, x->z[t + 1]); /* exact: p ≥ 53 */
        mpfi_sub(a, a, z);
        mpfi_sqr(a, a);
        sigma_walk_get(v, &w, x, t);
        mpfi_div(a, a, v);
        mpfi_add(out, out, a);
    }
    mpfi_div_2ui(out, out, 1);
    mpfi_clear(z);
    mpfi_clear(a);
    mpfi_clear(v);
    sigma_walk_clear(&w);
}

/* ρ_eff = ½·B²/S (Feldman et al. 2018 Thm 22 with the shifts optimised by
 * Cauchy–Schwarz, spec §2.4), or the searched allocation's ρ(a). */
static void pabi_rho_eval(mpfi_ptr out, const pabi_exact *x, mpfr_prec_t p)
{
    pabi_num n;
    pabi_num_init(&n, x, p);
    if (x->z != NULL) {
        pabi_alloc_cost(out, x, &n, p);
        pabi_num_clear(&n);
        return;
    }
    mpfi_t S;
    mpfi_init2(S, p);
    pabi_den(S, x, &n);
    mpfi_sqr(out, n.B);
    mpfi_div(out, out, S);
    mpfi_div_2ui(out, out, 1);
    mpfi_clear(S);
    pabi_num_clear(&n);
}

/* Whether the optimal shift allocation is admissible.  Step t maps the
 * shift z to ρ·z + s (the step is ρ-Lipschitz up to s = 2·lr·C1, spec §1.3)
 * and its noise N(0, σ_t²) removes a_t at Rényi cost α·a_t²/(2σ_t²).  With
 * w_t = ρ^{T−1−t}, z_T = 0 needs Σ w_t·a_t = B, and Cauchy–Schwarz gives the
 * minimiser a_t = B·w_t·σ_t²/S and the cost α·B²/(2S) = α·ρ_eff.  Thm 22
 * also needs every intermediate shift z_{t+1} = ρ·z_t + s − a_t ≥ 0; one
 * finds ρ^{T−1−t}·z_{t+1} = P_t := Σ_{u>t} w_u·(a_u − s), so the condition
 * is P_t ≥ 0 for t = 0..T−2.
 *   Constant σ: P_t ≥ 0 always.  Since B ≥ s·Σ w and S = σ²·Σ w²,
 * P_t ≥ s·[(Σ_all w)(Σ_{u>t} w²)/(Σ_all w²) − Σ_{u>t} w] ≥ 0, because the
 * w-weighted mean of w over the largest w's (u > t; w increases with u as
 * ρ ≤ 1) is at least the mean over all.
 *   Per-step σ: checked here, walking u = T−1 down to 1; *negative_at is
 * the u with z_u < 0 that stops the walk (failing only). */
static ul_pre_state pabi_feasible_eval(const pabi_exact *x, mpfr_prec_t p,
                                       unsigned long *negative_at)
{
    if (!x->per_step)
        return UL_PRE_HOLDS;
    const ul_kol_pabi_problem *pb = x->pb;
    pabi_num n;
    pabi_num_init(&n, x, p);
    mpfi_t S, ratio, w, w2s, ws, v, P, rinv2, g;
    mpfi_init2(S, p);
    mpfi_init2(ratio, p);
    mpfi_init2(w, p);
    mpfi_init2(w2s, p);
    mpfi_init2(ws, p);
    mpfi_init2(v, p);
    mpfi_init2(P, p);
    mpfi_init2(rinv2, p);
    mpfi_init2(g, p);
    pabi_den(S, x, &n);
    mpfi_div(ratio, n.B, S);
    mpfi_set_ui(w, 1);
    mpfi_set_ui(w2s, 0);
    mpfi_set_ui(ws, 0);
    mpfi_sqr(rinv2, n.rho);
    mpfi_ui_div(rinv2, 1, rinv2);
    if (x->code)
        pabi_code_sigma2(g, x, &n, pb->steps - 1); /* σ_{T−1}², scaled by ρ^{−2} going down */
    ul_pre_state state = UL_PRE_HOLDS;
    for (unsigned long u = pb->steps - 1; u >= 1 && state != UL_PRE_FAILS; u--) {
        if (x->code) {
            mpfi_set(v, g);
            mpfi_mul(g, g, rinv2);
        } else {
            mpfi_set_q(v, x->sigma[u]);
            mpfi_sqr(v, v);
        }
        mpfi_mul(v, v, w);
        mpfi_mul(v, v, w);
        mpfi_add(w2s, w2s, v); /* Σ_{u' ≥ u} w²σ² */
        mpfi_add(ws, ws, w);   /* Σ_{u' ≥ u} w */
        mpfi_mul(P, ratio, w2s);
        mpfi_mul(v, n.s, ws);
        mpfi_sub(P, P, v); /* P_{u−1} */
        if (mpfr_sgn(&P->right) < 0) {
            state = UL_PRE_FAILS;
            *negative_at = u;
        } else if (mpfr_sgn(&P->left) < 0)
            state = UL_PRE_UNDECIDED;
        mpfi_mul(w, w, n.rho);
    }
    mpfi_clear(S);
    mpfi_clear(ratio);
    mpfi_clear(w);
    mpfi_clear(w2s);
    mpfi_clear(ws);
    mpfi_clear(v);
    mpfi_clear(P);
    mpfi_clear(rinv2);
    mpfi_clear(g);
    pabi_num_clear(&n);
    return state;
}

/* ---- PABI: a feasible shift allocation where the closed form is not ---------- */

/* log σ_t² for t < T, in doubles: the search's input only. */
static void pabi_log_sigma2_d(const pabi_exact *x, double *lv)
{
    pabi_num n;
    pabi_num_init(&n, x, 64);
    sigma_walk w;
    sigma_walk_init(&w, x, &n, 64);
    mpfi_t v;
    mpfi_init2(v, 64);
    for (unsigned long t = 0; t < x->pb->steps; t++) {
        sigma_walk_get(v, &w, x, t);
        mpfi_log(v, v);
        lv[t] = mpfi_get_d(v);
    }
    mpfi_clear(v);
    sigma_walk_clear(&w);
    pabi_num_clear(&n);
}

/* The optimal allocation's breakpoints, in doubles.  In the coordinates
 * X_i = Σ_{t<i} w_t²σ_t² (scaled by e^{−M}) and Y_i = ρ^T·D0 + s·Σ_{t<i} w_t,
 * i = 1..T, the path P_i = Σ_{t<i} w_t·a_t must stay ≤ Y_i (that is z_i ≥ 0,
 * as ρ^{T−i}·z_i = Y_i − P_i), start at P_0 = 0 and end at P_T = Y_T = B
 * (z_T = 0), and it costs Σ_t (ΔP)²/(2·ΔX) (= Σ a_t²/(2σ_t²)).  The KKT
 * conditions of this convex programme make its slopes a_t/(w_t·σ_t²)
 * nondecreasing and change them only where z_i = 0: the optimum is the lower
 * convex hull of (0, 0) and the (X_i, Y_i), whose slopes are ≥ 0 (a_t ≥ 0).
 * Andrew's monotone chain; h gets the hull's indices (0 first, T last). */
static size_t pabi_hull_d(const double *lv, double lrho, double d0, double s, double M,
                          unsigned long T, double *X, double *Y, unsigned long *h)
{
    X[0] = Y[0] = 0;
    double wsum = 0;
    for (unsigned long i = 1; i <= T; i++) {
        double k = (double)(T - i); /* T − 1 − t for t = i − 1 */
        X[i] = X[i - 1] + exp(lv[i - 1] + 2 * k * lrho - M);
        wsum += exp(k * lrho);
        Y[i] = exp((double)T * lrho) * d0 + s * wsum;
    }
    size_t nh = 0;
    for (unsigned long i = 0; i <= T; i++) {
        while (nh >= 2) {
            unsigned long o = h[nh - 2], a = h[nh - 1];
            double cross = (X[a] - X[o]) * (Y[i] - Y[o]) - (Y[a] - Y[o]) * (X[i] - X[o]);
            if (cross > 0)
                break;
            nh--;
        }
        h[nh++] = i;
    }
    return nh;
}

/* z_1..z_T (doubles) of the hull's allocation: on a segment between hull
 * points j < k, a_t = μ·w_t·σ_t² with μ = (Y_k − Y_j)/Σ_{j≤t<k} w_t²σ_t²
 * (the segment's own closed form, summed locally to avoid cancellation and
 * scaled by the segment's largest term), z_{t+1} = ρ·z_t + s − a_t, z_k = 0. */
static void pabi_shifts_from_hull_d(double *z, const unsigned long *h, size_t nh, const double *lv,
                                    double lrho, double d0, double s, unsigned long T)
{
    double rho = exp(lrho);
    z[0] = d0;
    for (size_t m = 0; m + 1 < nh; m++) {
        unsigned long j = h[m], k = h[m + 1];
        double num = j == 0 ? exp((double)T * lrho) * d0 : 0, Ms = -INFINITY, den = 0;
        for (unsigned long t = j; t < k; t++) {
            num += s * exp((double)(T - 1 - t) * lrho);
            Ms = fmax(Ms, lv[t] + 2 * (double)(T - 1 - t) * lrho);
        }
        for (unsigned long t = j; t < k; t++)
            den += exp(lv[t] + 2 * (double)(T - 1 - t) * lrho - Ms);
        double mu = num / den;
        for (unsigned long t = j; t < k; t++) {
            double a = mu * exp(lv[t] + (double)(T - 1 - t) * lrho - Ms);
            z[t + 1] = fmax(0, rho * z[t] + s - a);
        }
        z[k] = 0;
    }
}

/* Makes the doubles z_1..z_T provably feasible: z_T = 0, every z_t ≥ 0, and
 * z_{t+1} ≤ the lower end of an enclosure of ρ·z_t + s (z_0 = D0 exactly),
 * so a_t = ρ·z_t + s − z_{t+1} ≥ 0 for every t whatever precision later
 * encloses it: a double the search put marginally too high is lowered to
 * that end, rounded down (it is ≥ 0 as ρ·z_t + s ≥ s > 0). */
static void pabi_shifts_repair(double *z, const pabi_exact *x)
{
    unsigned long T = x->pb->steps;
    pabi_num n;
    pabi_num_init(&n, x, 128);
    mpfi_t v;
    mpfi_init2(v, 128);
    mpfi_set(v, n.d0);
    z[T] = 0;
    for (unsigned long t = 0; t < T; t++) {
        mpfi_mul(v, v, n.rho);
        mpfi_add(v, v, n.s);
        double lo = mpfr_get_d(&v->left, MPFR_RNDD);
        if (!(z[t + 1] <= lo)) /* also a NaN from the search */
            z[t + 1] = lo;
        if (!(z[t + 1] >= 0))
            z[t + 1] = 0;
        mpfi_set_d(v, z[t + 1]);
    }
    mpfi_clear(v);
    pabi_num_clear(&n);
}

/* The search in doubles (hull, then shifts), the repair, and which
 * intermediate shifts came out 0 (the binding constraints z_t ≥ 0). */
static ul_status pabi_search_shifts(pabi_exact *x, char *err, size_t errlen)
{
    unsigned long T = x->pb->steps;
    double *lv = malloc(T * sizeof *lv), *X = malloc((T + 1) * sizeof *X),
           *Y = malloc((T + 1) * sizeof *Y);
    unsigned long *h = malloc((T + 1) * sizeof *h);
    x->z = malloc((T + 1) * sizeof *x->z);
    ul_status st = UL_OK;
    if (lv == NULL || X == NULL || Y == NULL || h == NULL || x->z == NULL) {
        st = ul_fail(err, errlen, UL_ENOMEM,
                     "sigma: out of memory for the shift search over %lu steps", T);
    } else {
        pabi_log_sigma2_d(x, lv);
        double lrho = log(mpq_get_d(x->rho)), d0 = 0, s = 2 * mpq_get_d(x->lr) * mpq_get_d(x->c1);
        pabi_num n;
        pabi_num_init(&n, x, 64);
        d0 = mpfi_get_d(n.d0);
        pabi_num_clear(&n);
        double M = -INFINITY;
        for (unsigned long t = 0; t < T; t++)
            M = fmax(M, lv[t] + 2 * (double)(T - 1 - t) * lrho);
        size_t nh = pabi_hull_d(lv, lrho, d0, s, M, T, X, Y, h);
        pabi_shifts_from_hull_d(x->z, h, nh, lv, lrho, d0, s, T);
        pabi_shifts_repair(x->z, x);
        x->z[0] = d0;
        x->alloc.searched = true;
        for (unsigned long t = 1; t < T; t++)
            if (x->z[t] == 0 && x->alloc.n_zero++ < 4)
                x->alloc.zero_at[x->alloc.n_zero - 1] = t;
    }
    free(lv);
    free(X);
    free(Y);
    free(h);
    return st;
}

/* pabi_shifts_feasible: the closed form's allocation where it is feasible
 * (decided by enclosures, raising the precision to want's cap), else the
 * searched one, feasible by construction.  *f its state. */
static ul_status pabi_choose_alloc(pabi_exact *x, const ul_num_precision *want, ul_pre_state *f,
                                   char *err, size_t errlen)
{
    mpfr_prec_t cap = ul_num_max_bits(want);
    for (mpfr_prec_t p = 128;; p = 2 * p > cap ? cap : 2 * p) {
        *f = pabi_feasible_eval(x, p, &x->alloc.negative_at);
        if (*f != UL_PRE_UNDECIDED || p >= cap)
            break;
    }
    if (*f == UL_PRE_HOLDS)
        return UL_OK;
    x->alloc.closed_form_fails = *f == UL_PRE_FAILS;
    ul_status st = pabi_search_shifts(x, err, errlen);
    if (st == UL_OK)
        *f = UL_PRE_HOLDS;
    return st;
}

/* Reads the problem and checks the guarantee's preconditions (with the
 * feasibility of the shifts when with_feasible), raising the precision for
 * the one precondition decided by enclosures. */
static ul_status pabi_prepare(const ul_kol_pabi_problem *pb, const ul_num_precision *want,
                              bool with_lr_constant, bool with_feasible, ul_preconditions *pre,
                              pabi_exact *x, char *err, size_t errlen)
{
    pre_builder b;
    pre_begin(&b);
    ul_status st = pabi_read(pb, with_lr_constant, &b, x, err, errlen);
    if (st != UL_OK)
        return st;
    if (with_feasible) {
        ul_pre_state f = UL_PRE_UNDECIDED;
        if (b.first_failed == NULL)
            st = pabi_choose_alloc(x, want, &f, err, errlen);
        if (st != UL_OK)
            return st;
        pre_put(&b, &PRE_FEASIBLE, f, "no feasible shift allocation");
    }
    st = pre_finish(&b, pre, err, errlen);
    if (st == UL_OK && b.undecided)
        st = ul_fail(err, errlen, UL_ECAP,
                     "sigma: precondition %s undecided at the precision cap of %ld bits",
                     PRE_FEASIBLE.name, (long)ul_num_max_bits(want));
    return st;
}

static ul_status eval_pabi_rho(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const pabi_exact *x = ctx;
    pabi_rho_eval(out->enclosure, x, mpfi_get_prec(out->enclosure) + 16);
    out->is_log = false;
    return UL_OK;
}

/* ρ_eff as a guarantee (every precondition, the allocation chosen) or as
 * the bare formula (guarantee false: the closed form, what the code logs). */
static ul_status pabi_rho_run(const ul_kol_pabi_problem *pb, const ul_num_precision *want,
                              bool guarantee, ul_preconditions *pre, ul_num_value *rho,
                              ul_kol_pabi_alloc *alloc, ul_num_report *rep, char *err,
                              size_t errlen)
{
    pabi_exact x;
    pabi_exact_init(&x, pb);
    ul_status st = pabi_prepare(pb, want, guarantee, guarantee, pre, &x, err, errlen);
    if (st == UL_OK)
        st = ul_num_adaptive_eval(eval_pabi_rho, &x, want, rho, rep, err, errlen);
    if (alloc != NULL)
        *alloc = x.alloc;
    pabi_exact_clear(&x);
    return st;
}

ul_status ul_kol_pabi_rho_alloc_certified(const ul_kol_pabi_problem *pb,
                                          const ul_num_precision *want, ul_preconditions *pre,
                                          ul_num_value *rho, ul_kol_pabi_alloc *alloc,
                                          ul_num_report *rep, char *err, size_t errlen)
{
    return pabi_rho_run(pb, want, true, pre, rho, alloc, rep, err, errlen);
}

ul_status ul_kol_pabi_rho_certified(const ul_kol_pabi_problem *pb, const ul_num_precision *want,
                                    ul_preconditions *pre, ul_num_value *rho, ul_num_report *rep,
                                    char *err, size_t errlen)
{
    return ul_kol_pabi_rho_alloc_certified(pb, want, pre, rho, NULL, rep, err, errlen);
}

ul_status ul_kol_pabi_searched_shifts(const ul_kol_pabi_problem *pb, double **z, char *err,
                                      size_t errlen)
{
    pabi_exact x;
    pabi_exact_init(&x, pb);
    ul_num_precision want = {17, 0, 0};
    ul_status st = pabi_prepare(pb, &want, true, true, NULL, &x, err, errlen);
    *z = st == UL_OK ? x.z : NULL;
    if (st == UL_OK)
        x.z = NULL; /* handed over */
    pabi_exact_clear(&x);
    return st;
}

/* D0 as a rational: 2·C0, or 2·C0·√d when d is a square; false otherwise. */
static bool pabi_d0_exact(mpq_ptr out, const pabi_exact *x)
{
    mpq_add(out, x->c0, x->c0);
    if (x->pb->init != UL_KOL_INIT_BOX)
        return true;
    mpz_t d;
    mpz_init_set_ui(d, x->pb->dim);
    bool square = mpz_perfect_square_p(d) != 0;
    mpz_sqrt(d, d);
    mpz_mul(mpq_numref(out), mpq_numref(out), d);
    mpq_canonicalize(out);
    mpz_clear(d);
    return square;
}

/* r^k exactly (r canonical, out ≠ r: coprime powers stay canonical). */
static void q_pow_ui(mpq_ptr out, mpq_srcptr r, unsigned long k)
{
    mpz_pow_ui(mpq_numref(out), mpq_numref(r), k);
    mpz_pow_ui(mpq_denref(out), mpq_denref(r), k);
}

/* Σ_{k<n} r^k: n when r = 1, else (1 − r^n)/(1 − r). */
static void q_geom_sum(mpq_ptr out, mpq_srcptr r, unsigned long n)
{
    if (mpq_cmp_ui(r, 1, 1) == 0) {
        mpq_set_ui(out, n, 1);
        return;
    }
    mpq_t u;
    mpq_init(u);
    q_pow_ui(out, r, n);
    mpq_set_ui(u, 1, 1);
    mpq_sub(out, u, out);
    mpq_sub(u, u, r);
    mpq_div(out, out, u);
    mpq_clear(u);
}

/* The exact pieces of the closed form (spec §2.4): B = ρ^T·D0 + s·Σ_{k<T} ρ^k
 * (into B, D0 given in it) and S = Σ_t ρ^{2(T−1−t)}·σ_t², σ_t² given or the
 * code's constant schedule (λ = 0: B²/(k·ε_R·T), k = 4 printed, 2 corrected;
 * λ > 0: B²·lrλ(2 − lrλ)/(2·ε_R·(1 − ρ^{2T}))).  Per-step σ by Horner. */
static void pabi_pieces_exact(mpq_ptr B, mpq_ptr S, const pabi_exact *x, mpq_srcptr s)
{
    unsigned long T = x->pb->steps;
    mpq_t r2, v, g;
    mpq_inits(r2, v, g, NULL);
    q_pow_ui(v, x->rho, T);
    mpq_mul(B, B, v);
    q_geom_sum(g, x->rho, T);
    mpq_mul(g, g, s);
    mpq_add(B, B, g);
    mpq_mul(r2, x->rho, x->rho);
    if (x->per_step) {
        mpq_set_ui(S, 0, 1);
        for (unsigned long t = 0; t < T; t++) {
            mpq_mul(S, S, r2);
            mpq_mul(v, x->sigma[t], x->sigma[t]);
            mpq_add(S, S, v);
        }
    } else {
        if (!x->code) {
            mpq_mul(v, x->sigma[0], x->sigma[0]);
        } else if (x->lambda_zero) {
            mpq_mul(v, B, B);
            mpq_div(v, v, x->eps_renyi);
            mpq_set_ui(g, T * (x->pb->variant == UL_VARIANT_PRINTED ? 4 : 2), 1);
            mpq_div(v, v, g);
        } else {
            mpq_set_ui(g, 2, 1);
            mpq_sub(g, g, x->lrl);
            mpq_mul(g, g, x->lrl);
            mpq_mul(v, B, B);
            mpq_mul(v, v, g); /* B²·lrλ(2 − lrλ) */
            q_pow_ui(g, r2, T);
            mpq_set_ui(S, 1, 1);
            mpq_sub(g, S, g);
            mpq_mul(g, g, x->eps_renyi);
            mpq_mul_2exp(g, g, 1);
            mpq_div(v, v, g);
        }
        q_geom_sum(S, r2, T);
        mpq_mul(S, S, v);
    }
    mpq_clears(r2, v, g, NULL);
}

/* The closed form is feasible iff P_{u−1} = (B/S)·Σ_{u'≥u} w²σ² −
 * s·Σ_{u'≥u} w ≥ 0 for u = T−1..1 (pabi_feasible_eval's condition, w_u =
 * ρ^{T−1−u}), decided exactly; always so for constant σ. */
static bool pabi_feasible_exact(const pabi_exact *x, mpq_srcptr ratio, mpq_srcptr s)
{
    if (!x->per_step)
        return true;
    mpq_t w, w2s, ws, P, v;
    mpq_inits(w, w2s, ws, P, v, NULL);
    mpq_set_ui(w, 1, 1);
    bool ok = true;
    for (unsigned long u = x->pb->steps - 1; u >= 1 && ok; u--) {
        mpq_mul(v, x->sigma[u], x->sigma[u]);
        mpq_mul(v, v, w);
        mpq_mul(v, v, w);
        mpq_add(w2s, w2s, v);
        mpq_add(ws, ws, w);
        mpq_mul(P, ratio, w2s);
        mpq_mul(v, s, ws);
        ok = mpq_cmp(P, v) >= 0;
        mpq_mul(w, w, x->rho);
    }
    mpq_clears(w, w2s, ws, P, v, NULL);
    return ok;
}

/* Whether the exact evaluation is cheap: ρ^{2T} has about 2T·bits(ρ) bits
 * (none grow at λ = 0); per-step σ costs T operations on such numbers.  The
 * code's decreasing schedule at λ > 0 is left to the enclosures. */
static bool pabi_exact_cheap(const pabi_exact *x)
{
    if (x->lambda_zero)
        return true;
    if (x->code && x->pb->noise == UL_KOL_PABI_CODE_DECREASING)
        return false;
    double bits = (double)mpz_sizeinbase(mpq_numref(x->rho), 2) +
                  (double)mpz_sizeinbase(mpq_denref(x->rho), 2);
    return bits * (double)x->pb->steps <= (x->per_step ? 65536.0 : 4194304.0);
}

/* ρ_eff = B²/(2S) (spec §2.4) in rationals. */
bool ul_kol_pabi_rho_exact(const ul_kol_pabi_problem *pb, mpq_ptr out)
{
    pabi_exact x;
    pabi_exact_init(&x, pb);
    pre_builder b;
    pre_begin(&b);
    char err[256];
    bool ok = pabi_read(pb, true, &b, &x, err, sizeof err) == UL_OK && b.first_failed == NULL &&
              pabi_exact_cheap(&x);
    mpq_t s, B, S;
    mpq_inits(s, B, S, NULL);
    if (ok)
        ok = pabi_d0_exact(B, &x);
    if (ok) {
        mpq_mul(s, x.lr, x.c1);
        mpq_add(s, s, s);
        pabi_pieces_exact(B, S, &x, s);
        mpq_div(out, B, S); /* B/S, the closed form's a_t/(w_t·σ_t²) */
        ok = pabi_feasible_exact(&x, out, s);
        mpq_mul(out, out, B);
        mpq_div_2exp(out, out, 1);
    }
    mpq_clears(s, B, S, NULL);
    pabi_exact_clear(&x);
    return ok;
}

ul_status ul_kol_pabi_rho_formula_certified(const ul_kol_pabi_problem *pb,
                                            const ul_num_precision *want, ul_num_value *rho,
                                            ul_num_report *rep, char *err, size_t errlen)
{
    return pabi_rho_run(pb, want, false, NULL, rho, NULL, rep, err, errlen);
}

typedef struct {
    const pabi_exact *x;
    unsigned long t;
} code_sigma_ctx;

static ul_status eval_code_sigma(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const code_sigma_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 16;
    pabi_num n;
    pabi_num_init(&n, c->x, p);
    pabi_code_sigma2(out->enclosure, c->x, &n, c->t);
    mpfi_sqrt(out->enclosure, out->enclosure);
    out->is_log = false;
    pabi_num_clear(&n);
    return UL_OK;
}

ul_status ul_kol_pabi_code_sigma_certified(const ul_kol_pabi_problem *pb, unsigned long t,
                                           const ul_num_precision *want, ul_preconditions *pre,
                                           ul_num_value *sigma, bool *code_lambda_zero_branch,
                                           ul_num_report *rep, char *err, size_t errlen)
{
    if (pb->noise == UL_KOL_PABI_GIVEN)
        return ul_fail(err, errlen, UL_EINPUT,
                       "noise: the code's sigma needs the constant or decreasing schedule");
    pabi_exact x;
    pabi_exact_init(&x, pb);
    ul_status st = pabi_prepare(pb, want, true, false, pre, &x, err, errlen);
    if (st == UL_OK && t >= pb->steps)
        st = ul_fail(err, errlen, UL_EINPUT, "t: must be below steps = %lu (got %lu)", pb->steps,
                     t);
    if (st == UL_OK) {
        *code_lambda_zero_branch = x.lambda_zero && pb->variant == UL_VARIANT_PRINTED;
        code_sigma_ctx c = {&x, t};
        st = ul_num_adaptive_eval(eval_code_sigma, &c, want, sigma, rep, err, errlen);
    }
    pabi_exact_clear(&x);
    return st;
}

/* The linear RDP curve ρ(α) = α·ρ_eff, with ρ_eff cached per precision. */
typedef struct {
    const pabi_exact *x;
    mpfi_t cache;
    mpfr_prec_t cache_prec;
} pabi_curve_ctx;

static ul_status pabi_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    pabi_curve_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(rho) + 16;
    if (c->cache_prec != p) {
        mpfi_set_prec(c->cache, p);
        pabi_rho_eval(c->cache, c->x, p);
        c->cache_prec = p;
    }
    mpfi_mul(rho, alpha, c->cache);
    return UL_OK;
}

ul_status ul_kol_pabi_eps_certified(const ul_kol_pabi_problem *pb, const char *delta,
                                    ul_rdp_conversion conv, const ul_num_precision *want,
                                    ul_preconditions *pre, ul_num_value *eps, char *alpha_out,
                                    size_t alpha_len, ul_num_report *rep, char *err,
                                    size_t errlen)
{
    pabi_exact x;
    pabi_exact_init(&x, pb);
    ul_status st = pabi_prepare(pb, want, true, true, pre, &x, err, errlen);
    if (st == UL_OK) {
        /* Both directions D_α(X_T‖X'_T), D_α(X'_T‖X_T) ≤ α·ρ_eff (spec §2.4), so
         * each hockey-stick divergence obeys the conversion (spec §1.1). */
        pabi_curve_ctx c;
        c.x = &x;
        mpfi_init2(c.cache, 64);
        c.cache_prec = 0;
        ul_rdp_curve curve = {pabi_curve, &c};
        st = ul_renyi_curve_certified(UL_RDP_TO_EPS, &curve, 1e15, delta, conv, want, eps,
                                      alpha_out, alpha_len, rep, err, errlen);
        mpfi_clear(c.cache);
    }
    pabi_exact_clear(&x);
    return st;
}

/* The code's order grid: α_i = (1001·9999 + 998999·i)/9999000, i < 10000. */
#define CODE_GRID_N 10000UL

typedef struct {
    mpq_srcptr eps_renyi, delta;
    unsigned long best;
} code_eps_ctx;

static ul_status eval_code_eps(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    code_eps_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 16;
    mpfi_t er, ld, a, am1, f, v, best;
    mpfi_init2(er, p);
    mpfi_init2(ld, p);
    mpfi_init2(a, p);
    mpfi_init2(am1, p);
    mpfi_init2(f, p);
    mpfi_init2(v, p);
    mpfi_init2(best, p);
    mpfi_set_q(er, c->eps_renyi);
    mpfi_set_q(ld, c->delta);
    mpfi_log(ld, ld);
    for (unsigned long i = 0; i < CODE_GRID_N; i++) {
        /* α − 1 = (9999 + 998999·i)/9999000, exactly representable numerators */
        mpfi_set_ui(am1, 9999UL + 998999UL * i);
        mpfi_div_ui(am1, am1, 9999000UL);
        mpfi_add_ui(a, am1, 1);
        /* ε_R + log((α−1)/α) − (log δ + log α)/(α−1), spec §3 dp_accountant */
        mpfi_div(f, am1, a);
        mpfi_log(f, f);
        mpfi_log(v, a);
        mpfi_add(v, v, ld);
        mpfi_div(v, v, am1);
        mpfi_sub(f, f, v);
        mpfi_add(f, f, er);
        if (i == 0) {
            mpfi_set(best, f);
            c->best = 0;
        } else {
            if (mpfr_less_p(&f->right, &best->right))
                c->best = i;
            /* min of two enclosures: [min lo, min hi] (best has precision p) */
            ul_bounds_interval_min(best, best, f);
        }
    }
    mpfi_set(out->enclosure, best);
    out->is_log = false;
    mpfi_clear(er);
    mpfi_clear(ld);
    mpfi_clear(a);
    mpfi_clear(am1);
    mpfi_clear(f);
    mpfi_clear(v);
    mpfi_clear(best);
    return UL_OK;
}

ul_status ul_kol_pabi_code_eps_certified(const char *eps_renyi, const char *delta,
                                         const ul_num_precision *want, ul_num_value *eps,
                                         unsigned long *grid_index, ul_num_report *rep,
                                         char *err, size_t errlen)
{
    ul_num_init();
    mpq_t er, d;
    mpq_inits(er, d, NULL);
    ul_status st = read_rat(er, "eps-renyi", eps_renyi, "0", false, UL_RENYI_MAX_RDP, false, err,
                            errlen);
    if (st == UL_OK)
        st = read_rat(d, "delta", delta, "0", true, "1", true, err, errlen);
    if (st == UL_OK) {
        code_eps_ctx c = {er, d, 0};
        st = ul_num_adaptive_eval(eval_code_eps, &c, want, eps, rep, err, errlen);
        if (grid_index != NULL)
            *grid_index = c.best;
    }
    mpq_clears(er, d, NULL);
    return st;
}

ul_status ul_kol_pabi_code_steps(const char *c0, const char *c1, const char *lr,
                                 const char *lambda, unsigned long *steps, char *err,
                                 size_t errlen)
{
    ul_num_init();
    mpq_t q0, q1, ql, qlam, r;
    mpq_inits(q0, q1, ql, qlam, r, NULL);
    mpz_t t0;
    mpz_init(t0);
    ul_status st = read_rat(q0, "c0", c0, "0", true, UL_KOL_MAX_PARAM, false, err, errlen);
    if (st == UL_OK)
        st = read_rat(q1, "c1", c1, "0", true, UL_KOL_MAX_PARAM, false, err, errlen);
    if (st == UL_OK)
        st = read_rat(ql, "lr", lr, "0", true, UL_KOL_MAX_PARAM, false, err, errlen);
    if (st == UL_OK)
        st = read_rat(qlam, "lambda", lambda, "0", false, UL_KOL_MAX_PARAM, false, err, errlen);
    if (st == UL_OK) {
        /* T0 = ⌈C0/(C1·lr)⌉ exactly (the code's double ceil can be off by one, §4.7) */
        mpq_mul(r, q1, ql);
        mpq_div(r, q0, r);
        mpz_cdiv_q(t0, mpq_numref(r), mpq_denref(r));
        if (!mpz_fits_ulong_p(t0))
            st = ul_fail(err, errlen, UL_EINPUT, "c0: the code's T0 = ceil(C0/(C1*lr)) is too large");
    }
    if (st == UL_OK) {
        unsigned long t = mpz_get_ui(t0);
        /* T1 = ⌈log(2λC0/C1)/(lr·λ)⌉ when λ > 0 and 2λC0/C1 > 1 (else T1 ≤ 0,
         * unused).  log of a rational ≠ 1 is irrational (Lindemann), so the
         * quotient is never an integer and its ceiling is decided once the
         * enclosure lies between two integers. */
        mpq_mul(r, qlam, q0);
        mpq_add(r, r, r);
        mpq_div(r, r, q1);
        if (mpq_sgn(qlam) > 0 && mpq_cmp_ui(r, 1, 1) > 0) {
            bool decided = false;
            for (mpfr_prec_t p = 64; p <= 65536 && !decided; p *= 2) {
                mpfi_t x, y;
                mpfi_init2(x, p);
                mpfi_init2(y, p);
                mpfi_set_q(x, r);
                mpfi_log(x, x);
                mpq_t lrl;
                mpq_init(lrl);
                mpq_mul(lrl, ql, qlam);
                mpfi_set_q(y, lrl);
                mpq_clear(lrl);
                mpfi_div(x, x, y);
                mpfr_t fl, fh;
                mpfr_inits2(p, fl, fh, (mpfr_ptr)0);
                mpfr_floor(fl, &x->left);
                mpfr_floor(fh, &x->right);
                if (mpfr_equal_p(fl, fh)) {
                    decided = true;
                    if (mpfr_cmp_ui(fl, ULONG_MAX - 1) < 0) {
                        unsigned long t1 = mpfr_get_ui(fl, MPFR_RNDN) + 1;
                        if (t1 < t)
                            t = t1; /* "use T1 if 0 < T1 < T0" */
                    }
                }
                mpfr_clears(fl, fh, (mpfr_ptr)0);
                mpfi_clear(x);
                mpfi_clear(y);
            }
            if (!decided)
                st = ul_fail(err, errlen, UL_ECAP, "lambda: could not decide the ceiling of T1");
        }
        *steps = t;
    }
    mpz_clear(t0);
    mpq_clears(q0, q1, ql, qlam, r, NULL);
    return st;
}

/* ==== output perturbation ===================================================== */

/* out ⊇ √(2·log(1.25/δ)) (the classical calibration's factor). */
static void classic_factor(mpfi_ptr out, mpq_srcptr delta)
{
    mpfi_t d;
    mpfi_init2(d, mpfi_get_prec(out));
    mpq_t q;
    mpq_init(q);
    mpq_set_ui(q, 5, 4);
    mpq_div(q, q, delta); /* 1.25/δ exactly */
    mpfi_set_q(d, q);
    mpq_clear(q);
    mpfi_log(d, d);
    mpfi_mul_2ui(d, d, 1);
    mpfi_sqrt(out, d);
    mpfi_clear(d);
}

typedef struct {
    mpq_srcptr c0, eps, delta;
} op_ctx;

/* σ = 2·C0·√(2·log(1.25/δ))/ε (spec §1.5, §2.5; Dwork–Roth Thm A.1 with
 * ℓ2 sensitivity 2·C0). */
static ul_status eval_classic_sigma(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const op_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 8;
    mpfi_t f, v;
    mpfi_init2(f, p);
    mpfi_init2(v, p);
    classic_factor(f, c->delta);
    mpfi_set_q(v, c->c0);
    mpfi_mul_2ui(v, v, 1);
    mpfi_mul(f, f, v);
    mpfi_set_q(v, c->eps);
    mpfi_div(out->enclosure, f, v);
    out->is_log = false;
    mpfi_clear(f);
    mpfi_clear(v);
    return UL_OK;
}

/* Does the classic σ deliver (ε, δ)?  At σ_classic the ratio is
 * r = 2·C0/σ = ε/√(2·log(1.25/δ)), where the loose bound 1.25·e^{−ε²/(2r²)}
 * ("Lemma A.4", spec §2.2) equals δ; so the question is exactly whether the
 * loose bound is an upper bound on θ there (ul_gauss_loose_bound_check's
 * question, asked at this irrational r through the enclosure functions). */
static ul_pre_state classic_delivers_eval(mpq_srcptr eps, mpq_srcptr delta, mpfr_prec_t cap)
{
    ul_pre_state state = UL_PRE_UNDECIDED;
    for (mpfr_prec_t p = 64; state == UL_PRE_UNDECIDED; p *= 2) {
        if (p > cap)
            break;
        mpfi_t e, r, lt, lb;
        mpfi_init2(e, p);
        mpfi_init2(r, p);
        mpfi_init2(lt, p);
        mpfi_init2(lb, p);
        mpfi_set_q(e, eps);
        classic_factor(r, delta);
        mpfi_div(r, e, r);
        ul_gauss_log_theta_enclose(lt, e, r);
        ul_gauss_loose_bound_log_enclose(lb, e, r);
        if (mpfr_greaterequal_p(&lb->left, &lt->right))
            state = UL_PRE_HOLDS;
        else if (mpfr_less_p(&lb->right, &lt->left))
            state = UL_PRE_FAILS;
        mpfi_clear(e);
        mpfi_clear(r);
        mpfi_clear(lt);
        mpfi_clear(lb);
    }
    return state;
}

ul_status ul_kol_op_sigma_certified(const char *c0, const char *eps, const char *delta,
                                    const ul_num_precision *want, ul_preconditions *pre,
                                    ul_num_value *classic, ul_pre_state *classic_delivers,
                                    mpfi_ptr exact, ul_num_report *rep, char *err,
                                    size_t errlen)
{
    ul_num_init();
    mpq_t qc, qe, qd;
    mpq_inits(qc, qe, qd, NULL);
    ul_status st = read_param(qc, "c0", c0, err, errlen);
    if (st == UL_OK)
        st = read_rat(qe, "eps", eps, "-" UL_GAUSS_MAX_ABS_EPS, false, UL_GAUSS_MAX_ABS_EPS,
                      false, err, errlen);
    if (st == UL_OK)
        st = read_rat(qd, "delta", delta, "0", true, "1", true, err, errlen);
    if (st == UL_OK) {
        pre_builder b;
        pre_begin(&b);
        pre_put(&b, &PRE_C0, holds_if(mpq_sgn(qc) > 0), c0);
        pre_put(&b, &PRE_EPS_POSITIVE, holds_if(mpq_sgn(qe) > 0), eps);
        /* reported, not enforced: recorded after the check */
        st = pre_finish(&b, NULL, err, errlen);
        ul_pre_add(&b.list, PRE_EPS_LT_1.name, PRE_EPS_LT_1.rule,
                   holds_if(mpq_cmp_ui(qe, 1, 1) < 0));
        if (pre != NULL)
            *pre = b.list;
    }
    if (st == UL_OK) {
        op_ctx c = {qc, qe, qd};
        st = ul_num_adaptive_eval(eval_classic_sigma, &c, want, classic, rep, err, errlen);
    }
    if (st == UL_OK || st == UL_ECAP) {
        *classic_delivers = classic_delivers_eval(qe, qd, ul_num_max_bits(want));
        /* the exact smallest σ for the sensitivity 2·C0: σ_min = 2·C0/r*
         * with θ_{e^ε}(r*) = δ (spec §2.5; Balle–Wang 2018, Thm 8).  So
         * σ_min(2·C0) = 2·σ_min(C0), and doubling an interval is exact.
         * Asking for σ_min(C0) keeps every C0 of c0's domain (0 < C0 ≤
         * 1e100) inside gauss-sigma's (sensitivity ≤ 1e100): a C0 above
         * 5e99 was refused as the derived "sensitivity" 2·C0. */
        ul_num_report r2 = {0, false};
        ul_status st2 = ul_gauss_sigma_min(eps, delta, c0, want, exact, &r2, err, errlen);
        mpfi_mul_2ui(exact, exact, 1);
        report_merge(rep, &r2);
        if (st2 != UL_OK)
            st = st2;
    }
    mpq_clears(qc, qe, qd, NULL);
    return st;
}

typedef struct {
    mpq_srcptr c0, sigma, eps;
} op_delta_ctx;

static ul_status eval_op_delta(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const op_delta_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 16;
    mpfi_t e, r, s;
    mpfi_init2(e, p);
    mpfi_init2(r, p);
    mpfi_init2(s, p);
    mpfi_set_q(e, c->eps);
    mpfi_set_q(r, c->c0);
    mpfi_mul_2ui(r, r, 1);
    mpfi_set_q(s, c->sigma);
    mpfi_div(r, r, s);
    ul_gauss_theta_enclose(out, e, r); /* E_{e^ε}(N(x,σ²I)‖N(x',σ²I)), ‖x−x'‖ ≤ 2·C0 */
    mpfi_clear(e);
    mpfi_clear(r);
    mpfi_clear(s);
    return UL_OK;
}

ul_status ul_kol_op_delta_certified(const char *c0, const char *sigma, const char *eps,
                                    const ul_num_precision *want, ul_preconditions *pre,
                                    ul_num_value *delta, ul_num_report *rep, char *err,
                                    size_t errlen)
{
    ul_num_init();
    mpq_t qc, qs, qe;
    mpq_inits(qc, qs, qe, NULL);
    ul_status st = read_param(qc, "c0", c0, err, errlen);
    if (st == UL_OK)
        st = read_param(qs, "sigma", sigma, err, errlen);
    if (st == UL_OK)
        st = read_rat(qe, "eps", eps, "-" UL_GAUSS_MAX_ABS_EPS, false, UL_GAUSS_MAX_ABS_EPS,
                      false, err, errlen);
    if (st == UL_OK) {
        pre_builder b;
        pre_begin(&b);
        pre_put(&b, &PRE_C0, holds_if(mpq_sgn(qc) > 0), c0);
        pre_put(&b, &PRE_SIGMA, holds_if(mpq_sgn(qs) > 0), sigma);
        pre_put(&b, &PRE_EPS_NONNEG, holds_if(mpq_sgn(qe) >= 0), eps);
        st = pre_finish(&b, pre, err, errlen);
    }
    if (st == UL_OK) {
        mpq_t r, lim;
        mpq_inits(r, lim, NULL);
        mpq_add(r, qc, qc);
        mpq_div(r, r, qs);
        ul_num_mpq_valid(lim, UL_GAUSS_MAX_R); /* a constant within the exact limits */
        if (mpq_cmp(r, lim) > 0)
            st = ul_fail(err, errlen, UL_EINPUT,
                         "sigma: the ratio 2*C0/sigma must be at most %s (got sigma '%s')",
                         UL_GAUSS_MAX_R, sigma);
        mpq_clears(r, lim, NULL);
    }
    if (st == UL_OK) {
        op_delta_ctx c = {qc, qs, qe};
        st = ul_num_adaptive_eval(eval_op_delta, &c, want, delta, rep, err, errlen);
    }
    mpq_clears(qc, qs, qe, NULL);
    return st;
}

/* ==== DP-SGD: the code's split and the accountant ============================= */

typedef struct {
    mpq_srcptr eps_total, delta_total;
    unsigned long k;
    ul_num_value *eps_train, *delta_train;
} split_ctx;

/* Evaluates all three at out's precision; out is the group δ. */
static ul_status eval_split(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const split_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure);
    mpfi_t e, ld, v;
    mpfi_init2(e, p + 16);
    mpfi_init2(ld, p + 16);
    mpfi_init2(v, p + 16);
    /* ε_train = ε_tot/k;  log δ_train = log δ_tot − (k−1)·ε_train (spec §1.6:
     * exp(ln δ_tot + (ε_train − 1) − (k·ε_train − 1))) */
    mpfi_set_q(e, c->eps_total);
    mpfi_div_ui(e, e, c->k);
    mpfi_set_q(ld, c->delta_total);
    mpfi_log(ld, ld);
    mpfi_mul_ui(v, e, c->k - 1);
    mpfi_sub(ld, ld, v);
    mpfi_set_prec(c->eps_train->enclosure, p);
    mpfi_set(c->eps_train->enclosure, e);
    c->eps_train->is_log = false;
    mpfi_set_prec(c->delta_train->enclosure, p);
    mpfi_set(c->delta_train->enclosure, ld);
    c->delta_train->is_log = true;
    ul_kol_group_log_delta_enclose(out->enclosure, e, ld, c->k, UL_KOL_GROUP_EXACT);
    out->is_log = true;
    mpfi_clear(e);
    mpfi_clear(ld);
    mpfi_clear(v);
    return UL_OK;
}

ul_status ul_kol_dpsgd_code_split_certified(const char *eps_total, const char *delta_total,
                                            unsigned long k, const ul_num_precision *want,
                                            ul_preconditions *pre, ul_num_value *eps_train,
                                            ul_num_value *delta_train, ul_num_value *group_delta,
                                            ul_num_report *rep, char *err, size_t errlen)
{
    ul_num_init();
    mpq_t e, d;
    mpq_inits(e, d, NULL);
    ul_status st = read_rat(e, "eps-total", eps_total, "0", false, UL_RENYI_MAX_EPS, false, err,
                            errlen);
    if (st == UL_OK)
        st = read_rat(d, "delta-total", delta_total, "0", true, "1", false, err, errlen);
    if (st == UL_OK) {
        pre_builder b;
        pre_begin(&b);
        pre_put(&b, &PRE_GROUP, holds_if(k >= 1), "0");
        st = pre_finish(&b, pre, err, errlen);
    }
    if (st == UL_OK) {
        split_ctx c = {e, d, k, eps_train, delta_train};
        /* The driver judges the group δ; the two others are checked after it
         * and the evaluation repeated at twice the precision if needed. */
        ul_num_precision w = *want;
        mpfr_prec_t cap = ul_num_max_bits(want);
        for (;;) {
            st = ul_num_adaptive_eval(eval_split, &c, &w, group_delta, rep, err, errlen);
            if (st != UL_OK || (ul_num_value_narrow_enough(eps_train, want->digits) &&
                                ul_num_value_narrow_enough(delta_train, want->digits)))
                break;
            if (rep->bits_used >= cap) {
                rep->cap_hit = true;
                st = ul_fail(err, errlen, UL_ECAP,
                             "precision cap of %ld bits reached before %d digits were certain",
                             (long)cap, want->digits);
                break;
            }
            w.start_bits = 2 * rep->bits_used > cap ? cap : 2 * rep->bits_used;
        }
    }
    mpq_clears(e, d, NULL);
    return st;
}

void ul_kol_dpsgd_result_init(ul_kol_dpsgd_result *r)
{
    ul_num_value_init(&r->eps_example, 64);
    ul_num_value_init(&r->eps_group, 64);
    ul_num_value_init(&r->delta_group, 64);
    ul_num_value_init(&r->delta_group_code, 64);
    r->alpha[0] = '\0';
}

void ul_kol_dpsgd_result_clear(ul_kol_dpsgd_result *r)
{
    ul_num_value_clear(&r->eps_example);
    ul_num_value_clear(&r->eps_group);
    ul_num_value_clear(&r->delta_group);
    ul_num_value_clear(&r->delta_group_code);
}

void ul_kol_dpsgd_curve_init(ul_kol_dpsgd_curve_ctx *c)
{
    c->pb = NULL;
    mpq_init(c->q);
}

void ul_kol_dpsgd_curve_set(ul_kol_dpsgd_curve_ctx *c, const ul_kol_dpsgd_problem *pb)
{
    c->pb = pb;
    if (pb->q != NULL) {
        ul_num_mpq_valid(c->q, pb->q); /* read as exact (the reader's second tier) */
    } else {
        mpq_set_ui(c->q, pb->batch, pb->n);
        mpq_canonicalize(c->q);
    }
}

void ul_kol_dpsgd_curve_clear(ul_kol_dpsgd_curve_ctx *c)
{
    mpq_clear(c->q);
}

/* steps·ρ_SGM(α; q, σ): the subsampled Gaussian (MTZ 2019 §3.3, renyi.h)
 * composed `steps` times (Mironov 2017 Prop. 1). */
ul_status ul_kol_dpsgd_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err, size_t errlen)
{
    const ul_kol_dpsgd_curve_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(rho) + 8;
    mpfi_t q, s;
    mpfi_init2(q, p);
    mpfi_init2(s, p);
    mpfi_set_q(q, c->q);
    ul_status st = ul_num_read_checked(s, "sigma", c->pb->sigma, NULL, false, NULL, false, err,
                                       errlen);
    if (st == UL_OK)
        st = ul_renyi_sgm_rdp(rho, alpha, q, s, err, errlen);
    if (st == UL_OK)
        mpfi_mul_ui(rho, rho, c->pb->steps); /* composition, Mironov 2017 Prop. 1 */
    mpfi_clear(q);
    mpfi_clear(s);
    return st;
}

/* The group of k records from the per-example pair (out->eps_example, d):
 * (k·ε, δ·Σ_{i<k} e^{iε}) and the code's δ·e^{(k−1)ε} (spec §2.6, §4.4). */
static void dpsgd_group_of(ul_kol_dpsgd_result *out, mpq_srcptr d, unsigned long k)
{
    mpfr_prec_t p = mpfi_get_prec(out->eps_example.enclosure);
    mpfi_t ld;
    mpfi_init2(ld, p + 16);
    mpfi_set_q(ld, d);
    mpfi_log(ld, ld);
    mpfi_set_prec(out->eps_group.enclosure, p);
    mpfi_mul_ui(out->eps_group.enclosure, out->eps_example.enclosure, k);
    out->eps_group.is_log = false;
    mpfi_set_prec(out->delta_group.enclosure, p);
    ul_kol_group_log_delta_enclose(out->delta_group.enclosure, out->eps_example.enclosure, ld,
                                   k, UL_KOL_GROUP_EXACT);
    out->delta_group.is_log = true;
    mpfi_set_prec(out->delta_group_code.enclosure, p);
    ul_kol_group_log_delta_enclose(out->delta_group_code.enclosure,
                                   out->eps_example.enclosure, ld, k,
                                   UL_KOL_GROUP_CODE_LARGEST_TERM);
    out->delta_group_code.is_log = true;
    mpfi_clear(ld);
}

ul_status ul_kol_dpsgd_group_certified(const ul_kol_dpsgd_problem *pb, const char *delta,
                                       unsigned long k, ul_rdp_conversion conv,
                                       const ul_num_precision *want, ul_preconditions *pre,
                                       ul_kol_dpsgd_result *out, ul_num_report *rep, char *err,
                                       size_t errlen)
{
    ul_num_init();
    ul_kol_dpsgd_curve_ctx c;
    ul_kol_dpsgd_curve_init(&c);
    c.pb = pb;
    mpq_t d;
    mpq_init(d);
    ul_status st = UL_OK;
    if (pb->q != NULL) {
        st = read_rat(c.q, "q", pb->q, "0", false, "1", false, err, errlen);
    } else if (pb->n == 0 || pb->batch == 0 || pb->batch > pb->n) {
        st = ul_fail(err, errlen, UL_EINPUT,
                     "batch: need 1 <= batch <= n for the sampling rate batch/n (got %lu/%lu)",
                     pb->batch, pb->n);
    } else {
        mpq_set_ui(c.q, pb->batch, pb->n);
        mpq_canonicalize(c.q);
    }
    if (st == UL_OK) {
        mpfi_t x;
        mpfi_init2(x, 64);
        st = ul_num_read_checked(x, "sigma", pb->sigma, UL_RENYI_SGM_MIN_SIGMA, false,
                                 UL_RENYI_SGM_MAX_SIGMA, false, err, errlen);
        mpfi_clear(x);
    }
    if (st == UL_OK && pb->steps == 0)
        st = ul_fail(err, errlen, UL_EINPUT, "steps: must be at least 1");
    if (st == UL_OK)
        st = read_rat(d, "delta", delta, "0", true, "1", true, err, errlen);
    if (st == UL_OK) {
        pre_builder b;
        pre_begin(&b);
        pre_put(&b, &PRE_GROUP, holds_if(k >= 1), "0");
        st = pre_finish(&b, pre, err, errlen);
    }
    if (st == UL_OK) {
        /* per-example ε: RDP of the Poisson-subsampled Gaussian (add/remove
         * adjacency, as dp_accounting), composed, α optimised (renyi.h) */
        ul_num_precision w = *want;
        w.digits = want->digits + 2 + (int)ceil(log10((double)k));
        ul_rdp_curve curve = {ul_kol_dpsgd_curve, &c};
        /* Large fractional orders are costly (the subsampled Gaussian's series
         * grows like α), so the search first covers (1, 512] and widens to
         * renyi.h's limit only when its optimum sits near that edge.  Any α
         * gives a valid bound; this only affects how close to optimal it is. */
        st = ul_renyi_curve_certified(UL_RDP_TO_EPS, &curve, 512, delta, conv, &w,
                                      &out->eps_example, out->alpha, sizeof out->alpha, rep, err,
                                      errlen);
        if ((st == UL_OK || st == UL_ECAP) && strtod(out->alpha, NULL) > 256)
            st = ul_renyi_curve_certified(UL_RDP_TO_EPS, &curve, 1e4, delta, conv, &w,
                                          &out->eps_example, out->alpha, sizeof out->alpha, rep,
                                          err, errlen);
    }
    if (st == UL_OK || st == UL_ECAP)
        dpsgd_group_of(out, d, k);
    ul_kol_dpsgd_curve_clear(&c);
    mpq_clear(d);
    return st;
}
