/* src/bounds/koloskova_common.c — what the Koloskova et al. (ICML 2025)
 * families share (bounds/koloskova_common.h).
 *
 * Formulas: docs/neural-unlearning.md (sections cited at each one).  How things are
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
#include "bounds/koloskova_common.h"

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
ul_status ul_kol_read_rat(mpq_ptr q, const char *name, const char *text, const char *lo,
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
ul_status ul_kol_read_param(mpq_ptr q, const char *name, const char *text, char *err, size_t errlen)
{
    return ul_kol_read_rat(q, name, text, "-" UL_KOL_MAX_PARAM, false, UL_KOL_MAX_PARAM, false, err,
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
char *ul_kol_rat_exact_text(mpq_srcptr q, size_t max_digits)
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
char *ul_kol_rat_round_text(mpq_srcptr q, long digits, bool up)
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

const ul_kol_pre_def ul_kol_pre_eps_nonneg = {
    "eps_nonneg", "eps",
    "eps >= 0: the (eps, delta)-unlearning target (Koloskova et al. 2025; "
    "docs/neural-unlearning.md, section Definition)"};
const ul_kol_pre_def ul_kol_pre_eps_positive = {
    "eps_positive", "eps",
    "eps > 0: the classical Gaussian mechanism divides by eps (Dwork-Roth Thm A.1; "
    "docs/neural-unlearning.md, section Output perturbation)"};
const ul_kol_pre_def ul_kol_pre_eps_lt_1 = {
    "eps_lt_1", "eps",
    "eps < 1: domain of the classical Gaussian mechanism (Dwork-Roth Thm A.1; "
    "docs/neural-unlearning.md, section Simplified Gaussian bound, Errata K9); reported, not "
    "enforced"};
const ul_kol_pre_def ul_kol_pre_c0 = {"c0_positive", "c0",
                                      "C0 > 0: radius of the initial clip of the trained model "
                                      "(docs/neural-unlearning.md, section Notation)"};
const ul_kol_pre_def ul_kol_pre_c1 = {
    "c1_positive", "c1",
    "C1 > 0: gradient clipping radius (docs/neural-unlearning.md, sections Gradient clipping, "
    "Model clipping)"};
const ul_kol_pre_def ul_kol_pre_c2 = {"c2_positive", "c2",
                                      "C2 > 0: model-clipping radius, pre-noise diameter 2*C2 "
                                      "(docs/neural-unlearning.md, section Model clipping)"};
const ul_kol_pre_def ul_kol_pre_lr = {
    "lr_positive", "lr", "lr > 0: learning rate (docs/neural-unlearning.md, section Notation)"};
const ul_kol_pre_def ul_kol_pre_lambda = {
    "lambda_nonneg", "lambda",
    "lambda >= 0: l2 regularisation, contraction factor 1 - lr*lambda (docs/neural-unlearning.md, "
    "section Notation)"};
const ul_kol_pre_def ul_kol_pre_lr_lambda = {
    "lr_lambda_lt_1", "lambda",
    "lr*lambda < 1: the step x -> (1 - lr*lambda)x - lr*clip(g, C1) is a contraction plus a shift "
    "(docs/neural-unlearning.md, sections Notation, Gradient clipping)"};
const ul_kol_pre_def ul_kol_pre_sigma = {
    "sigma_positive", "sigma",
    "sigma_t > 0 at every noisy step (docs/neural-unlearning.md, sections Model clipping, Gradient "
    "clipping)"};
const ul_kol_pre_def ul_kol_pre_sigma0 = {
    "sigma0_nonneg", "sigma0",
    "sigma0 >= 0: std of the initial noise, 0 meaning none and delta0 = 1 "
    "(docs/neural-unlearning.md, section Model clipping)"};
const ul_kol_pre_def ul_kol_pre_dim = {
    "dim_positive", "dim",
    "d >= 1: dimension of the clamp box [-C0, C0]^d, diameter 2*C0*sqrt(d) "
    "(docs/neural-unlearning.md, section Notation, Errata K6)"};
const ul_kol_pre_def ul_kol_pre_steps = {"steps_positive", "steps",
                                         "T >= 1 noisy steps: the PABI sums run over t < T "
                                         "(docs/neural-unlearning.md, section Gradient clipping)"};
const ul_kol_pre_def ul_kol_pre_lr_constant = {
    "lr_schedule_constant", "lr",
    "constant learning rate: the PABI closed forms and the code's schedules assume it "
    "(docs/neural-unlearning.md, sections Notation, Public code: unlearn_sigma_t)"};
const ul_kol_pre_def ul_kol_pre_eps_renyi = {
    "eps_renyi_positive", "eps-renyi",
    "eps_R > 0: the code's Renyi target (docs/neural-unlearning.md, section Gradient clipping)"};
const ul_kol_pre_def ul_kol_pre_feasible = {
    "pabi_shifts_feasible", "sigma",
    "the shift allocation behind the bound has every a_t >= 0, every intermediate shift z_t >= 0 "
    "and z_T = 0, as Feldman et al. 2018 Thm 22 requires: the closed form a_t ~ w_t*sigma_t^2 "
    "where it is feasible, else one searched and certified (docs/neural-unlearning.md, section "
    "Gradient clipping)"};
const ul_kol_pre_def ul_kol_pre_group = {
    "group_size_positive", "k",
    "k >= 1 records in the forget set (docs/neural-unlearning.md, section DP-SGD with group "
    "privacy)"};

void ul_kol_pre_begin(ul_kol_pre_builder *b)
{
    ul_pre_clear(&b->list);
    b->first_failed = NULL;
    b->first_got = NULL;
    b->undecided = false;
}

/* Appends an item; got is the text of the offending input (for the message). */
void ul_kol_pre_put(ul_kol_pre_builder *b, const ul_kol_pre_def *d, ul_pre_state st,
                    const char *got)
{
    ul_pre_add(&b->list, d->name, d->rule, st);
    if (st == UL_PRE_FAILS && b->first_failed == NULL) {
        b->first_failed = d;
        b->first_got = got;
    }
    if (st == UL_PRE_UNDECIDED)
        b->undecided = true;
}

ul_pre_state ul_kol_holds_if(bool ok)
{
    return ok ? UL_PRE_HOLDS : UL_PRE_FAILS;
}

/* Copies the list out; UL_EINPUT naming the first violated precondition. */
ul_status ul_kol_pre_finish(const ul_kol_pre_builder *b, ul_preconditions *out, char *err,
                            size_t errlen)
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
void ul_kol_log_expm1(mpfi_ptr out, mpfi_srcptr x)
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
void ul_kol_initial_diameter(mpfi_ptr out, mpq_srcptr c0, ul_kol_init init, unsigned long dim)
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

void ul_kol_report_merge(ul_num_report *into, const ul_num_report *r)
{
    if (r->bits_used > into->bits_used)
        into->bits_used = r->bits_used;
    into->cap_hit = into->cap_hit || r->cap_hit;
}

/* The σ list (one value, or one per step), read exactly into *list (n
 * entries, every one initialised); UL_ENOMEM when n values cannot be had. */
ul_status ul_kol_read_sigma_list(mpq_t **list, size_t *n, const char *const *text, size_t n_text,
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
        st = ul_kol_read_param((*list)[i], "sigma", text[i], err, errlen);
    return st;
}
