/* src/bounds/noisygd.c — Noisy-GD learning and deletion (Chourasia & Shah,
 * ICML 2023, arXiv:2210.08911; docs/noisy-gd.md).  Conventions: noisygd.h.
 *
 * How it is computed.  Every decimal input is read once as an exact rational
 * (GMP mpq).  Preconditions between rationals are then decided exactly; the
 * few that involve B = e^{log B} or a logarithm are decided with enclosures,
 * raising the precision until they are decided (they can only tie at points
 * where a transcendental number equals a rational, i.e. not at all, except
 * in the degenerate cases handled exactly before).  Values are enclosures
 * (MPFI, outward rounding) evaluated from the rationals at a working
 * precision that the adaptive driver doubles until the digits asked for are
 * certain.  Anything with B in it travels as a logarithm.
 */
#include "bounds/noisygd.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/bounds_util.h"
#include "num/domain.h"
#include "num/input.h"

/* ---- exact reading of decimal inputs --------------------------------------- */

typedef enum {
    F_Q,
    F_L,
    F_LAMBDA,
    F_BETA,
    F_SIGMA,
    F_ETA,
    F_N,
    F_D,
    F_R,
    F_K,
    F_KA,
    F_KABAR,
    F_EPS_DP,
    F_EPS_DD,
    F_LOGB,
    F_B,
    F_INIT,
    F_P,
    F_S,
    F_COUNT
} field;

#define BIT(f) (1u << (f))

typedef struct {
    const char *name; /* the CLI flag without dashes */
    size_t offset;    /* of the text in ul_ngd_params */
    const char *lo;   /* domain: lo ≤ (or <) value ≤ hi, exact decimal comparison */
    bool lo_strict;
    const char *hi;
    bool whole; /* a whole number */
    /* the shared declaration of the range (num/domain.h), when the field
     * is one of the problem's reals: then lo / hi are unset */
    const ul_domain *domain;
} field_spec;

#define OFF(m) offsetof(ul_ngd_params, m)
static const field_spec FIELDS[F_COUNT] = {
    [F_Q] = {"q", OFF(q), "0", true, UL_NGD_MAX_Q, false},
    [F_L] = {"L", OFF(L), .domain = &ul_domain_nonneg},
    [F_LAMBDA] = {"lambda", OFF(lambda), .domain = &ul_domain_positive},
    [F_BETA] = {"beta", OFF(beta), .domain = &ul_domain_nonneg},
    [F_SIGMA] = {"sigma", OFF(sigma), .domain = &ul_domain_positive},
    [F_ETA] = {"eta", OFF(eta), .domain = &ul_domain_nonneg},
    [F_N] = {"n", OFF(n), "1", false, UL_NGD_MAX_COUNT, true},
    [F_D] = {"d", OFF(d), "1", false, UL_NGD_MAX_COUNT, true},
    [F_R] = {"r", OFF(r), "1", false, UL_NGD_MAX_COUNT, true},
    [F_K] = {"K", OFF(K), "0", false, UL_NGD_MAX_STEPS, true},
    [F_KA] = {"KA", OFF(KA), "0", false, UL_NGD_MAX_STEPS, true},
    [F_KABAR] = {"KAbar", OFF(KAbar), "0", false, UL_NGD_MAX_STEPS, true},
    [F_EPS_DP] = {"eps-dp", OFF(eps_dp), "0", false, UL_NGD_MAX_EPS, false},
    [F_EPS_DD] = {"eps-dd", OFF(eps_dd), "0", false, UL_NGD_MAX_EPS, false},
    [F_LOGB] = {"logB", OFF(log_B), "0", true, UL_NGD_MAX_LOGB, false},
    [F_B] = {"b", OFF(b), .domain = &ul_domain_positive},
    [F_INIT] = {"init-var", OFF(init_var), .domain = &ul_domain_positive},
    [F_P] = {"p", OFF(p), "0", false, UL_NGD_MAX_COUNT, true},
    [F_S] = {"s", OFF(s), "0", false, UL_NGD_MAX_COUNT, true},
};
#undef OFF

static const char *field_text(const ul_ngd_params *pb, field f)
{
    return *(const char *const *)((const char *)pb + FIELDS[f].offset);
}

/* Reads text into v exactly after checking lo ≤ (<) text ≤ (<) hi. */
static ul_status read_text(mpq_ptr v, const char *name, const char *text, const char *lo,
                           bool lo_strict, const char *hi, bool hi_strict, bool whole, char *err,
                           size_t errlen)
{
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = ul_num_read_checked(x, name, text, lo, lo_strict, hi, hi_strict, err, errlen);
    mpfi_clear(x);
    if (st != UL_OK)
        return st;
    st = ul_num_read_exact(v, name, text, err, errlen); /* the limits of num/input.h */
    if (st != UL_OK)
        return st;
    if (whole && mpz_cmp_ui(mpq_denref(v), 1) != 0)
        return ul_fail(err, errlen, UL_EINPUT, "%s: must be a whole number (got '%s')", name, text);
    return UL_OK;
}

typedef struct {
    mpq_t v[F_COUNT];
    bool set[F_COUNT];
    mpfr_prec_t cap; /* precision cap of the decided preconditions (--max-bits) */
} reading;

static void reading_init(reading *in)
{
    in->cap = UL_NUM_DEFAULT_MAX_BITS; /* functions given a precision set theirs */
    for (int f = 0; f < F_COUNT; f++) {
        mpq_init(in->v[f]);
        in->set[f] = false;
    }
}

static void reading_clear(reading *in)
{
    for (int f = 0; f < F_COUNT; f++)
        mpq_clear(in->v[f]);
}

static ul_status read_field(reading *in, const ul_ngd_params *pb, field f, char *err, size_t errlen)
{
    const field_spec *fs = &FIELDS[f];
    const ul_domain *d = fs->domain;
    ul_status st = d != NULL ? read_text(in->v[f], fs->name, field_text(pb, f), d->lo, d->lo_open,
                                         d->hi, d->hi_open, false, err, errlen)
                             : read_text(in->v[f], fs->name, field_text(pb, f), fs->lo,
                                         fs->lo_strict, fs->hi, false, fs->whole, err, errlen);
    if (st == UL_OK)
        in->set[f] = true;
    return st;
}

/* Reads the fields in `need` (missing: UL_EINPUT) and those in `opt` that
 * are given.  F_LOGB stands for "log B, given or as 4b/σ²" and reads F_B too;
 * it needs F_SIGMA in need or opt when only b is given. */
static ul_status read_fields(reading *in, const ul_ngd_params *pb, unsigned need, unsigned opt,
                             char *err, size_t errlen)
{
    ul_status st = UL_OK;
    for (int f = 0; f < F_COUNT && st == UL_OK; f++) {
        if (f == F_LOGB || f == F_B || !((need | opt) & BIT(f)))
            continue;
        if (!(need & BIT(f)) && field_text(pb, f) == NULL)
            continue;
        st = read_field(in, pb, (field)f, err, errlen);
    }
    if (st != UL_OK || !((need | opt) & BIT(F_LOGB)))
        return st;
    if (pb->log_B != NULL)
        st = read_field(in, pb, F_LOGB, err, errlen);
    if (st == UL_OK && pb->b != NULL)
        st = read_field(in, pb, F_B, err, errlen);
    if (st != UL_OK)
        return st;
    if (!in->set[F_LOGB] && in->set[F_B]) {
        if (!in->set[F_SIGMA])
            return ul_fail(err, errlen, UL_EINPUT, "sigma: missing (needed to turn b into log B)");
        /* log B = 4b/σ² (Thm 5.2: the loss is (σ² log B/4)-bounded) */
        mpq_t s2, cap;
        mpq_inits(s2, cap, (mpq_ptr)0);
        mpq_mul(s2, in->v[F_SIGMA], in->v[F_SIGMA]);
        mpq_div(in->v[F_LOGB], in->v[F_B], s2);
        mpq_set_ui(s2, 4, 1);
        mpq_mul(in->v[F_LOGB], in->v[F_LOGB], s2);
        ul_num_mpq_valid(cap, UL_NGD_MAX_LOGB);
        bool too_big = mpq_cmp(in->v[F_LOGB], cap) > 0;
        mpq_clears(s2, cap, (mpq_ptr)0);
        if (too_big)
            return ul_fail(err, errlen, UL_EINPUT,
                           "b: log B = 4b/sigma^2 must be at most %s (got b = '%s')",
                           UL_NGD_MAX_LOGB, pb->b);
        in->set[F_LOGB] = true;
    }
    if (!in->set[F_LOGB] && (need & BIT(F_LOGB)))
        return ul_fail(err, errlen, UL_EINPUT, "logB: missing (give logB, or the loss bound b)");
    return UL_OK;
}

/* ---- small helpers: rationals ---------------------------------------------- */

#define Q(in, f) ((in)->v[(f)])

/* qL²/n², the data part of every Noisy-GD privacy constant. */
static void rat_qL2_n2(mpq_ptr out, const reading *in)
{
    mpq_t t;
    mpq_init(t);
    mpq_mul(out, Q(in, F_L), Q(in, F_L));
    mpq_mul(out, out, Q(in, F_Q));
    mpq_mul(t, Q(in, F_N), Q(in, F_N));
    mpq_div(out, out, t);
    mpq_clear(t);
}

static void rat_sigma2(mpq_ptr out, const reading *in)
{
    mpq_mul(out, Q(in, F_SIGMA), Q(in, F_SIGMA));
}

/* 1 − ηλ/2 */
static void rat_one_minus_half_eta_lambda(mpq_ptr out, const reading *in)
{
    mpq_t t;
    mpq_init(t);
    mpq_mul(out, Q(in, F_ETA), Q(in, F_LAMBDA));
    mpq_set_ui(t, 1, 2);
    mpq_mul(out, out, t);
    mpq_set_ui(t, 1, 1);
    mpq_sub(out, t, out);
    mpq_clear(t);
}

static void rat_max(mpq_ptr out, mpq_srcptr a, mpq_srcptr b)
{
    mpq_set(out, mpq_cmp(a, b) >= 0 ? a : b);
}

/* ---- small helpers: enclosures ---------------------------------------------- */

static void set_inf(ul_num_value *out)
{
    mpfr_set_inf(&out->enclosure->left, 1);
    mpfr_set_inf(&out->enclosure->right, 1);
    out->is_log = false;
}

static void set_log_zero(ul_num_value *out)
{
    mpfr_set_inf(&out->enclosure->left, -1);
    mpfr_set_inf(&out->enclosure->right, -1);
    out->is_log = true;
}

/* log x for a rational x ≥ 0 (−inf at 0). */
static void log_q(mpfi_ptr out, mpq_srcptr x)
{
    if (mpq_sgn(x) == 0) {
        mpfr_set_inf(&out->left, -1);
        mpfr_set_inf(&out->right, -1);
        return;
    }
    mpfi_set_q(out, x);
    mpfi_log(out, out);
}

/* r = log(e^x + e^y), rounded in direction rnd; x, y may be ±inf. */
static void lae_fr(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rnd)
{
    if (mpfr_inf_p(x) && mpfr_sgn(x) > 0) {
        mpfr_set(r, x, rnd);
        return;
    }
    if (mpfr_inf_p(y) && mpfr_sgn(y) > 0) {
        mpfr_set(r, y, rnd);
        return;
    }
    if (mpfr_inf_p(x)) {
        mpfr_set(r, y, rnd);
        return;
    }
    if (mpfr_inf_p(y)) {
        mpfr_set(r, x, rnd);
        return;
    }
    mpfr_srcptr big = mpfr_greaterequal_p(x, y) ? x : y, small = big == x ? y : x;
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(r) + 16);
    /* log1p(exp(·)) is increasing: rounding every step in one direction
     * rounds the result in that direction. */
    mpfr_sub(t, small, big, rnd);
    mpfr_exp(t, t, rnd);
    mpfr_log1p(t, t, rnd);
    mpfr_add(r, big, t, rnd);
    mpfr_clear(t);
}

/* out ⊇ log(e^a + e^b) (increasing in both). */
static void log_add_exp(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b)
{
    mpfr_t lo, hi;
    mpfr_inits2(mpfi_get_prec(out), lo, hi, (mpfr_ptr)0);
    lae_fr(lo, &a->left, &b->left, MPFR_RNDD);
    lae_fr(hi, &a->right, &b->right, MPFR_RNDU);
    mpfi_interv_fr(out, lo, hi);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

/* ---- preconditions ------------------------------------------------------------ */

static ul_pre_state holds(bool b)
{
    return b ? UL_PRE_HOLDS : UL_PRE_FAILS;
}

/* Exact "a ≤ b" and "a < b" for rationals. */
static ul_pre_state rat_leq(mpq_srcptr a, mpq_srcptr b)
{
    return holds(mpq_cmp(a, b) <= 0);
}

static ul_pre_state rat_less(mpq_srcptr a, mpq_srcptr b)
{
    return holds(mpq_cmp(a, b) < 0);
}

/* Decides a condition with enclosures at 128, 256, … bits up to in->cap
 * (--max-bits where the caller gave a precision, else the default cap);
 * UNDECIDED only if the cap is reached. */
typedef ul_pre_state (*decider)(const reading *in, mpfr_prec_t p, const void *ctx);

static ul_pre_state decide_rising(decider f, const reading *in, const void *ctx)
{
    for (mpfr_prec_t p = 128 < in->cap ? 128 : in->cap;; p = 2 * p < in->cap ? 2 * p : in->cap) {
        ul_pre_state s = f(in, p, ctx);
        if (s != UL_PRE_UNDECIDED || p >= in->cap)
            return s;
    }
}

/* "a ≤ b" for enclosures. */
static ul_pre_state encl_leq(mpfi_srcptr a, mpfi_srcptr b)
{
    return ul_pre_leq(a, b);
}

static const char RULE_Q[] = "Renyi order q > 1 (Def 2.2; docs/noisy-gd.md 'Conventions')";
static const char RULE_ETA_CONVEX[] =
    "step size eta < 1/(lambda + beta) (Thm G.9, G.15, Lemma G.12; "
    "docs/noisy-gd.md 'Theorems audited')";

static void pre_q(ul_preconditions *pre, const reading *in)
{
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    ul_pre_add(pre, "q_gt_1", RULE_Q, rat_less(one, Q(in, F_Q)));
    mpq_clear(one);
}

/* η < 1/(λ+β) ⟺ η(λ+β) < 1 */
static void pre_eta_convex(ul_preconditions *pre, const reading *in)
{
    mpq_t t, one;
    mpq_inits(t, one, (mpq_ptr)0);
    mpq_add(t, Q(in, F_LAMBDA), Q(in, F_BETA));
    mpq_mul(t, t, Q(in, F_ETA));
    mpq_set_ui(one, 1, 1);
    ul_pre_add(pre, "eta_lt_inv_lambda_plus_beta", RULE_ETA_CONVEX, rat_less(t, one));
    mpq_clears(t, one, (mpq_ptr)0);
}

/* ρ = N(0, σ²/(λ(1 − ηλ/2)) I) (G.15) — exact: init·λ·(1 − ηλ/2) = σ². */
static void pre_init_g15(ul_preconditions *pre, const reading *in)
{
    if (!in->set[F_INIT])
        return;
    mpq_t lhs, s2;
    mpq_inits(lhs, s2, (mpq_ptr)0);
    rat_one_minus_half_eta_lambda(lhs, in);
    mpq_mul(lhs, lhs, Q(in, F_LAMBDA));
    mpq_mul(lhs, lhs, Q(in, F_INIT));
    rat_sigma2(s2, in);
    ul_pre_add(pre, "init_variance_prescribed",
               "initialisation rho = N(0, sigma^2/(lambda(1 - eta lambda/2)) I_d) (Thm G.15 via "
               "Lemma G.14; docs/noisy-gd.md 'Theorems audited', erratum N7)",
               holds(mpq_equal(lhs, s2)));
    mpq_clears(lhs, s2, (mpq_ptr)0);
}

/* ---- the adaptive driver for rational-valued and formula-valued results --------- */

typedef void (*value_fn)(ul_num_value *out, const reading *in, const void *arg);

typedef struct {
    value_fn fn;
    const reading *in;
    const void *arg;
} eval_job;

static ul_status eval_job_run(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const eval_job *job = ctx;
    job->fn(out, job->in, job->arg);
    return UL_OK;
}

static const ul_num_precision DEFAULT_WANT = {17, 0, 0};

static ul_status evaluate(value_fn fn, const reading *in, const void *arg,
                          const ul_num_precision *want, ul_num_value *out, ul_num_report *rep,
                          char *err, size_t errlen)
{
    ul_num_init();
    eval_job job = {fn, in, arg};
    ul_num_report dummy;
    return ul_num_adaptive_eval(eval_job_run, &job, want != NULL ? want : &DEFAULT_WANT, out,
                                rep != NULL ? rep : &dummy, err, errlen);
}

/* A rational as a value (tight enclosure at the working precision). */
static void value_rational(ul_num_value *out, const reading *in, const void *arg)
{
    (void)in;
    mpfi_set_q(out->enclosure, (mpq_srcptr)arg);
    out->is_log = false;
}

/* ---- Thm G.7 ------------------------------------------------------------------ */

/* ε = qL²ηK/(σ²n²) exactly (Thm G.7, docs/noisy-gd.md "Theorems audited"). */
static void rat_g7(mpq_ptr out, const reading *in, mpq_srcptr K)
{
    mpq_t s2;
    mpq_init(s2);
    rat_qL2_n2(out, in);
    mpq_mul(out, out, Q(in, F_ETA));
    mpq_mul(out, out, K);
    rat_sigma2(s2, in);
    mpq_div(out, out, s2);
    mpq_clear(s2);
}

ul_status ul_ngd_rdp_g7(const ul_ngd_params *pb, const ul_num_precision *want, ul_num_value *out,
                        ul_preconditions *pre, ul_num_report *rep, char *err, size_t errlen)
{
    reading in;
    reading_init(&in);
    ul_status st =
        read_fields(&in, pb, BIT(F_Q) | BIT(F_L) | BIT(F_SIGMA) | BIT(F_ETA) | BIT(F_N) | BIT(F_K),
                    0, err, errlen);
    if (st == UL_OK) {
        if (pre != NULL)
            ul_pre_clear(pre);
        pre_q(pre, &in);
        mpq_t v;
        mpq_init(v);
        rat_g7(v, &in, Q(&in, F_K));
        st = evaluate(value_rational, &in, v, want, out, rep, err, errlen);
        mpq_clear(v);
    }
    reading_clear(&in);
    return st;
}

/* ---- Thm G.9 ------------------------------------------------------------------ */

/* C = 4qL²/(λσ²n²), the G.9 saturation level (and G.15's stated constant). */
static void rat_c4(mpq_ptr out, const reading *in)
{
    mpq_t t;
    mpq_init(t);
    rat_qL2_n2(out, in);
    mpq_mul_2exp(out, out, 2);
    mpq_div(out, out, Q(in, F_LAMBDA));
    rat_sigma2(t, in);
    mpq_div(out, out, t);
    mpq_clear(t);
}

typedef struct {
    mpq_srcptr c; /* the constant in front */
    mpq_srcptr x; /* the exponent: value = c·(1 − e^{−x}); NULL for c alone */
} saturating;

/* c·(1 − e^{−x}) = −c·expm1(−x) */
static void value_saturating(ul_num_value *out, const reading *in, const void *arg)
{
    (void)in;
    const saturating *s = arg;
    mpfi_ptr v = out->enclosure;
    out->is_log = false;
    if (s->x == NULL) {
        mpfi_set_q(v, s->c);
        return;
    }
    mpfi_t c;
    mpfi_init2(c, mpfi_get_prec(v));
    mpfi_set_q(v, s->x);
    mpfi_neg(v, v);
    mpfi_expm1(v, v);
    mpfi_neg(v, v);
    mpfi_set_q(c, s->c);
    mpfi_mul(v, v, c);
    mpfi_clear(c);
}

ul_status ul_ngd_rdp_g9(const ul_ngd_params *pb, const ul_num_precision *want, ul_num_value *out,
                        ul_preconditions *pre, ul_num_report *rep, char *err, size_t errlen)
{
    reading in;
    reading_init(&in);
    ul_status st = read_fields(&in, pb,
                               BIT(F_Q) | BIT(F_L) | BIT(F_LAMBDA) | BIT(F_BETA) | BIT(F_SIGMA) |
                                   BIT(F_ETA) | BIT(F_N),
                               BIT(F_K), err, errlen);
    if (st == UL_OK) {
        if (pre != NULL)
            ul_pre_clear(pre);
        pre_q(pre, &in);
        pre_eta_convex(pre, &in);
        mpq_t c, x;
        mpq_inits(c, x, (mpq_ptr)0);
        rat_c4(c, &in);
        /* x = ληK/2 */
        mpq_mul(x, Q(&in, F_LAMBDA), Q(&in, F_ETA));
        mpq_mul(x, x, Q(&in, F_K));
        mpq_div_2exp(x, x, 1);
        saturating s = {c, in.set[F_K] ? x : NULL};
        st = evaluate(value_saturating, &in, &s, want, out, rep, err, errlen);
        mpq_clears(c, x, (mpq_ptr)0);
    }
    reading_clear(&in);
    return st;
}

/* G.9's bound c·(1 − e^{−x}), x = ληK/2 (Thm G.9, docs/noisy-gd.md "Theorems audited"), is a
 * rational exactly when K is absent (the supremum c = 4qL²/(λσ²n²)), when
 * x = 0 (K = 0 or η = 0: 1 − e^0 = 0) or when c = 0 (L = 0).  For any other
 * rational x > 0, e^{−x} is transcendental (Lindemann) and so is the bound:
 * no claim written as a decimal can equal it. */
bool ul_ngd_g9_exact(mpq_ptr out, const ul_ngd_params *pb)
{
    reading in;
    reading_init(&in);
    char err[256];
    bool exact = read_fields(&in, pb,
                             BIT(F_Q) | BIT(F_L) | BIT(F_LAMBDA) | BIT(F_BETA) | BIT(F_SIGMA) |
                                 BIT(F_ETA) | BIT(F_N),
                             BIT(F_K), err, sizeof err) == UL_OK;
    if (exact) {
        rat_c4(out, &in);
        bool x_zero = in.set[F_K] && (mpq_sgn(Q(&in, F_K)) == 0 || mpq_sgn(Q(&in, F_ETA)) == 0);
        exact = !in.set[F_K] || x_zero || mpq_sgn(out) == 0;
        if (x_zero)
            mpq_set_ui(out, 0, 1); /* c·(1 − 1) */
    }
    reading_clear(&in);
    return exact;
}

/* ---- Thm G.15 ------------------------------------------------------------------ */

/* The bound is C·e^{−a·K} with rationals C, a (docs/noisy-gd.md "Theorems audited", Thm G.15):
 *   stated: C = 4qL²/(λσ²n²),               a = ηλ/2;
 *   tight:  C = 2qL²/(λσ²n²(1 − ηλ/2)),     a = ηλ(1 − ηλ/2).
 * False (bound undefined) when the tight form has 1 − ηλ/2 ≤ 0. */
static bool g15_constants(mpq_ptr c, mpq_ptr a, const reading *in, ul_ngd_g15_form form)
{
    mpq_t h;
    mpq_init(h);
    rat_one_minus_half_eta_lambda(h, in);
    bool ok = true;
    rat_c4(c, in);
    mpq_mul(a, Q(in, F_ETA), Q(in, F_LAMBDA));
    if (form == UL_NGD_G15_STATED) {
        mpq_div_2exp(a, a, 1);
    } else if (mpq_sgn(h) <= 0) {
        ok = false;
    } else {
        mpq_div_2exp(c, c, 1);
        mpq_div(c, c, h);
        mpq_mul(a, a, h);
    }
    mpq_clear(h);
    return ok;
}

typedef struct {
    mpq_srcptr c, a, K; /* log value = log c − a·K */
} exp_decay;

static void value_exp_decay(ul_num_value *out, const reading *in, const void *arg)
{
    (void)in;
    const exp_decay *e = arg;
    if (mpq_sgn(e->c) == 0) {
        set_log_zero(out);
        return;
    }
    mpq_t ak;
    mpq_init(ak);
    mpq_mul(ak, e->a, e->K);
    mpfi_t t;
    mpfi_init2(t, mpfi_get_prec(out->enclosure));
    log_q(out->enclosure, e->c);
    mpfi_set_q(t, ak);
    mpfi_sub(out->enclosure, out->enclosure, t);
    out->is_log = true;
    mpfi_clear(t);
    mpq_clear(ak);
}

static const unsigned G15_NEED =
    BIT(F_Q) | BIT(F_L) | BIT(F_LAMBDA) | BIT(F_BETA) | BIT(F_SIGMA) | BIT(F_ETA) | BIT(F_N);

static void pre_g15(ul_preconditions *pre, const reading *in)
{
    if (pre != NULL)
        ul_pre_clear(pre);
    pre_q(pre, in);
    pre_eta_convex(pre, in);
    pre_init_g15(pre, in);
}

ul_status ul_ngd_deletion_g15(const ul_ngd_params *pb, ul_ngd_g15_form form,
                              const ul_num_precision *want, ul_num_value *out,
                              ul_preconditions *pre, ul_num_report *rep, char *err, size_t errlen)
{
    reading in;
    reading_init(&in);
    ul_status st = read_fields(&in, pb, G15_NEED | BIT(F_KABAR), BIT(F_INIT), err, errlen);
    if (st == UL_OK) {
        pre_g15(pre, &in);
        mpq_t c, a;
        mpq_inits(c, a, (mpq_ptr)0);
        if (g15_constants(c, a, &in, form)) {
            exp_decay e = {c, a, Q(&in, F_KABAR)};
            st = evaluate(value_exp_decay, &in, &e, want, out, rep, err, errlen);
        } else {
            set_inf(out);
            if (rep != NULL) {
                rep->bits_used = mpfi_get_prec(out->enclosure);
                rep->cap_hit = false;
            }
        }
        mpq_clears(c, a, (mpq_ptr)0);
    }
    reading_clear(&in);
    return st;
}

/* G.15's C·e^{−a·K_Abar} (g15_constants) is a rational exactly when
 * a·K_Abar = 0 (K_Abar = 0 or η = 0: e^0 = 1, the bound is C) or C = 0
 * (L = 0); for a·K_Abar > 0 rational, e^{−a·K_Abar} is transcendental
 * (Lindemann) and so is C·e^{−a·K_Abar} with C > 0. */
bool ul_ngd_g15_exact(mpq_ptr out, const ul_ngd_params *pb, ul_ngd_g15_form form)
{
    reading in;
    reading_init(&in);
    char err[256];
    bool exact =
        read_fields(&in, pb, G15_NEED | BIT(F_KABAR), BIT(F_INIT), err, sizeof err) == UL_OK;
    mpq_t a;
    mpq_init(a);
    if (exact && g15_constants(out, a, &in, form)) {
        mpq_mul(a, a, Q(&in, F_KABAR));
        exact = mpq_sgn(a) == 0 || mpq_sgn(out) == 0;
    } else {
        exact = false; /* unread, or the tight form undefined (+inf) */
    }
    mpq_clear(a);
    reading_clear(&in);
    return exact;
}

ul_status ul_ngd_g15_plateau(const ul_ngd_params *pb, ul_variant variant,
                             const ul_num_precision *want, ul_num_value *out, ul_preconditions *pre,
                             ul_num_report *rep, char *err, size_t errlen)
{
    reading in;
    reading_init(&in);
    ul_status st = read_fields(&in, pb, G15_NEED, BIT(F_INIT), err, errlen);
    if (st == UL_OK) {
        pre_g15(pre, &in);
        mpq_t c, a;
        mpq_inits(c, a, (mpq_ptr)0);
        bool ok = true;
        if (variant == UL_VARIANT_PRINTED) {
            /* Figure 1: R_inf = qL²/(λn²σ²) = C4/4 */
            rat_c4(c, &in);
            mpq_div_2exp(c, c, 2);
        } else {
            /* proof of G.15: q·c2/c1 = 2qL²/(λσ²n²(1 − ηλ/2)), the tight C */
            ok = g15_constants(c, a, &in, UL_NGD_G15_TIGHT);
        }
        if (ok) {
            st = evaluate(value_rational, &in, c, want, out, rep, err, errlen);
        } else {
            set_inf(out);
            if (rep != NULL) {
                rep->bits_used = mpfi_get_prec(out->enclosure);
                rep->cap_hit = false;
            }
        }
        mpq_clears(c, a, (mpq_ptr)0);
    }
    reading_clear(&in);
    return st;
}

/* ---- least K_Abar for G.15 ------------------------------------------------------ */

/* Whether log c − a·K ≤ log t, decided at precision p. */
static ul_pre_state g15_reaches(mpq_srcptr c, mpq_srcptr a, unsigned long K, mpq_srcptr t,
                                mpfr_prec_t p)
{
    mpfi_t lhs, rhs, ak;
    mpfi_init2(lhs, p);
    mpfi_init2(rhs, p);
    mpfi_init2(ak, p);
    log_q(lhs, c);
    mpfi_set_q(ak, a);
    mpfi_mul_ui(ak, ak, K);
    mpfi_sub(lhs, lhs, ak);
    log_q(rhs, t);
    ul_pre_state s = encl_leq(lhs, rhs);
    mpfi_clear(lhs);
    mpfi_clear(rhs);
    mpfi_clear(ak);
    return s;
}

ul_status ul_ngd_least_kabar_g15(const ul_ngd_params *pb, ul_ngd_g15_form form, unsigned long max_k,
                                 const ul_num_precision *want, unsigned long *k,
                                 ul_num_value *eps_at_k, ul_preconditions *pre, ul_num_report *rep,
                                 char *err, size_t errlen)
{
    ul_num_init();
    reading in;
    reading_init(&in);
    ul_status st = read_fields(&in, pb, G15_NEED | BIT(F_EPS_DD), BIT(F_INIT), err, errlen);
    if (st == UL_OK && mpq_sgn(Q(&in, F_EPS_DD)) == 0)
        st = ul_fail(err, errlen, UL_EINPUT, "eps-dd: the target must be > 0 (got '%s')",
                     pb->eps_dd);
    if (st != UL_OK) {
        reading_clear(&in);
        return st;
    }
    if (max_k == 0)
        max_k = ULONG_MAX;
    pre_g15(pre, &in);
    mpq_t c, a;
    mpq_inits(c, a, (mpq_ptr)0);
    mpq_srcptr t = Q(&in, F_EPS_DD);
    mpfr_prec_t p = 128, cap = UL_NUM_DEFAULT_MAX_BITS;
    if (!g15_constants(c, a, &in, form)) {
        st = ul_fail(err, errlen, UL_ENOROOT,
                     "eta: the tight G.15 bound needs eta*lambda < 2 (no K reaches eps-dd)");
    } else if (mpq_cmp(c, t) <= 0) {
        *k = 0; /* the bound at K = 0 is c itself */
    } else if (mpq_sgn(a) == 0) {
        st = ul_fail(err, errlen, UL_ENOROOT,
                     "eta: with eta*lambda = 0 the bound never decreases below eps-dd");
    } else {
        /* A first guess K ≈ log(c/t)/a at 128 bits (not rigorous), then
         * certify: the bound at K reaches t, at K − 1 it does not.  Since
         * c/t ≠ 1 is rational, log(c/t)/a is transcendental, never a whole
         * number, so the decisions end. */
        mpfr_t g, tt;
        mpfr_inits2(128, g, tt, (mpfr_ptr)0);
        mpfr_set_q(g, c, MPFR_RNDN);
        mpfr_set_q(tt, t, MPFR_RNDN);
        mpfr_div(g, g, tt, MPFR_RNDN);
        mpfr_log(g, g, MPFR_RNDN);
        mpfr_set_q(tt, a, MPFR_RNDN);
        mpfr_div(g, g, tt, MPFR_RNDN);
        mpfr_ceil(g, g);
        unsigned long guess;
        if (mpfr_cmp_ui(g, 1) < 0)
            guess = 1;
        else if (mpfr_fits_ulong_p(g, MPFR_RNDN))
            guess = mpfr_get_ui(g, MPFR_RNDN);
        else
            guess = ULONG_MAX;
        mpfr_clears(g, tt, (mpfr_ptr)0);
        if (guess > max_k)
            guess = max_k;
        unsigned long cand = guess;
        for (;;) {
            ul_pre_state at = g15_reaches(c, a, cand, t, p);
            if (at == UL_PRE_HOLDS) {
                ul_pre_state before = g15_reaches(c, a, cand - 1, t, p); /* cand ≥ 1 here */
                if (before == UL_PRE_FAILS) {
                    *k = cand;
                    break;
                }
                if (before == UL_PRE_HOLDS) {
                    cand--; /* stays ≥ 1: K = 0 fails since c > t */
                    continue;
                }
            } else if (at == UL_PRE_FAILS) {
                if (cand >= max_k) {
                    st = ul_fail(err, errlen, UL_ENOROOT,
                                 "eps-dd: not reached within %lu unlearning steps", max_k);
                    break;
                }
                cand++;
                continue;
            }
            if (p >= cap) {
                st = ul_fail(err, errlen, UL_ECAP, "could not decide the least K within %ld bits",
                             (long)cap);
                break;
            }
            p *= 2;
        }
    }
    if (rep != NULL) {
        rep->bits_used = p;
        rep->cap_hit = st == UL_ECAP;
    }
    if (st == UL_OK && eps_at_k != NULL) {
        mpq_t kq;
        mpq_init(kq);
        mpq_set_ui(kq, *k, 1);
        exp_decay e = {c, a, kq};
        st = evaluate(value_exp_decay, &in, &e, want, eps_at_k, NULL, err, errlen);
        mpq_clear(kq);
    }
    mpq_clears(c, a, (mpq_ptr)0);
    reading_clear(&in);
    return st;
}

/* ---- the smallest σ ------------------------------------------------------------ */

/* ε(σ) = N·f(x)/σ² with f = 1 (G.7, G.9 for any K), 1 − e^{−x} (G.9) or
 * e^{−x} (G.15), so σ*² = N·f(x)/t. */
typedef enum { FACTOR_ONE, FACTOR_SATURATING, FACTOR_DECAY } factor_kind;

typedef struct {
    mpq_t N, x, t;
    factor_kind f;
} sigma_problem;

/* out ⊇ N·f(x) at out's precision. */
static void sigma_numerator(mpfi_ptr out, const sigma_problem *sp)
{
    mpfi_t v;
    mpfi_init2(v, mpfi_get_prec(out));
    mpfi_set_q(v, sp->x);
    mpfi_neg(v, v);
    if (sp->f == FACTOR_SATURATING) {
        mpfi_expm1(v, v);
        mpfi_neg(v, v);
    } else if (sp->f == FACTOR_DECAY) {
        mpfi_exp(v, v);
    } else {
        mpfi_set_ui(v, 1);
    }
    mpfi_set_q(out, sp->N);
    mpfi_mul(out, out, v);
    mpfi_clear(v);
}

/* Whether ε at the exact point σ is ≤ t (HOLDS: safe; FAILS: unsafe). */
static ul_pre_state sigma_side(const sigma_problem *sp, mpfr_srcptr sigma, mpfr_prec_t p)
{
    mpfi_t e, s2, t;
    mpfi_init2(e, p);
    mpfi_init2(s2, p);
    mpfi_init2(t, p);
    sigma_numerator(e, sp);
    mpfi_set_fr(s2, sigma);
    mpfi_sqr(s2, s2);
    mpfi_div(e, e, s2);
    mpfi_set_q(t, sp->t);
    ul_pre_state s = encl_leq(e, t);
    mpfi_clear(e);
    mpfi_clear(s2);
    mpfi_clear(t);
    return s;
}

ul_status ul_ngd_sigma_min(const ul_ngd_params *pb, ul_ngd_sigma_kind kind, ul_ngd_g15_form form,
                           const ul_num_precision *want, mpfi_ptr sigma, ul_preconditions *pre,
                           ul_num_report *rep, char *err, size_t errlen)
{
    ul_num_init();
    if (want == NULL)
        want = &DEFAULT_WANT;
    reading in;
    reading_init(&in);
    unsigned need = BIT(F_Q) | BIT(F_L) | BIT(F_ETA) | BIT(F_N), opt = 0;
    field target = F_EPS_DP;
    if (kind == UL_NGD_SIGMA_G7) {
        need |= BIT(F_K) | BIT(F_EPS_DP);
    } else if (kind == UL_NGD_SIGMA_G9) {
        need |= BIT(F_LAMBDA) | BIT(F_BETA) | BIT(F_EPS_DP);
        opt |= BIT(F_K);
    } else {
        need |= BIT(F_LAMBDA) | BIT(F_BETA) | BIT(F_KABAR) | BIT(F_EPS_DD);
        target = F_EPS_DD;
    }
    ul_status st = read_fields(&in, pb, need, opt, err, errlen);
    if (st == UL_OK && mpq_sgn(Q(&in, target)) == 0)
        st = ul_fail(err, errlen, UL_EINPUT, "%s: the target must be > 0 (got '%s')",
                     FIELDS[target].name, field_text(pb, target));
    if (st != UL_OK) {
        reading_clear(&in);
        return st;
    }
    if (pre != NULL)
        ul_pre_clear(pre);
    pre_q(pre, &in);
    if (kind != UL_NGD_SIGMA_G7)
        pre_eta_convex(pre, &in);

    sigma_problem sp;
    mpq_inits(sp.N, sp.x, sp.t, (mpq_ptr)0);
    mpq_set(sp.t, Q(&in, target));
    sp.f = FACTOR_ONE;
    bool defined = true;
    /* The rationals below are ε·σ² with σ left out (docs/noisy-gd.md "Theorems audited"). */
    if (kind == UL_NGD_SIGMA_G7) {
        /* G.7: σ² ε = qL²ηK/n² */
        rat_qL2_n2(sp.N, &in);
        mpq_mul(sp.N, sp.N, Q(&in, F_ETA));
        mpq_mul(sp.N, sp.N, Q(&in, F_K));
    } else if (kind == UL_NGD_SIGMA_G9) {
        /* G.9: σ² ε = 4qL²/(λn²)·(1 − e^{−ληK/2}) */
        rat_qL2_n2(sp.N, &in);
        mpq_mul_2exp(sp.N, sp.N, 2);
        mpq_div(sp.N, sp.N, Q(&in, F_LAMBDA));
        if (in.set[F_K]) {
            mpq_mul(sp.x, Q(&in, F_LAMBDA), Q(&in, F_ETA));
            mpq_mul(sp.x, sp.x, Q(&in, F_K));
            mpq_div_2exp(sp.x, sp.x, 1);
            sp.f = FACTOR_SATURATING;
        }
    } else {
        /* G.15: σ² ε = (C σ²)·e^{−a K_Abar}, with C, a of g15_constants
         * (computed at σ = 1: C is proportional to 1/σ²) */
        mpq_t one, a;
        mpq_inits(one, a, (mpq_ptr)0);
        mpq_set_ui(one, 1, 1);
        mpq_swap(one, Q(&in, F_SIGMA));
        defined = g15_constants(sp.N, a, &in, form);
        mpq_swap(one, Q(&in, F_SIGMA));
        mpq_mul(sp.x, a, Q(&in, F_KABAR));
        sp.f = FACTOR_DECAY;
        mpq_clears(one, a, (mpq_ptr)0);
    }

    mpfr_prec_t cap = ul_num_max_bits(want), p = ul_num_start_bits(want, 16);
    if (!defined) {
        st = ul_fail(err, errlen, UL_ENOROOT,
                     "eta: the tight G.15 bound needs eta*lambda < 2 (no sigma reaches eps-dd)");
    } else if (mpq_sgn(sp.N) == 0 || (sp.f == FACTOR_SATURATING && mpq_sgn(sp.x) == 0)) {
        mpfi_set_ui(sigma, 0); /* ε = 0 for every σ */
        p = 0;
    } else {
        for (;;) {
            mpfi_set_prec(sigma, p);
            mpfi_t t;
            mpfi_init2(t, p);
            sigma_numerator(sigma, &sp);
            mpfi_set_q(t, sp.t);
            mpfi_div(sigma, sigma, t);
            mpfi_sqrt(sigma, sigma);
            mpfi_clear(t);
            /* Widen by 2^{8−p} relative so that each end sits clearly on its
             * side, then certify both ends at twice the precision. */
            mpfr_t lo, hi, w;
            mpfr_inits2(p, lo, hi, w, (mpfr_ptr)0);
            mpfr_set_ui_2exp(w, 1, 8 - p, MPFR_RNDU);
            mpfr_ui_sub(lo, 1, w, MPFR_RNDD);
            mpfr_mul(lo, lo, &sigma->left, MPFR_RNDD);
            mpfr_add_ui(w, w, 1, MPFR_RNDU);
            mpfr_mul(hi, w, &sigma->right, MPFR_RNDU);
            mpfi_interv_fr(sigma, lo, hi);
            bool certified = sigma_side(&sp, hi, 2 * p) == UL_PRE_HOLDS &&
                             sigma_side(&sp, lo, 2 * p) == UL_PRE_FAILS;
            mpfr_clears(lo, hi, w, (mpfr_ptr)0);
            ul_num_value tmp;
            tmp.enclosure[0] = sigma[0];
            tmp.is_log = false;
            if (certified && ul_num_value_narrow_enough(&tmp, want->digits))
                break;
            if (p >= cap) {
                st = ul_fail(err, errlen, UL_ECAP,
                             "precision cap of %ld bits reached before %d digits were certain",
                             (long)cap, want->digits);
                break;
            }
            p = 2 * p > cap ? cap : 2 * p;
        }
    }
    if (rep != NULL) {
        rep->bits_used = p;
        rep->cap_hit = st == UL_ECAP;
    }
    mpq_clears(sp.N, sp.x, sp.t, (mpq_ptr)0);
    reading_clear(&in);
    return st;
}

/* ---- least whole number above a certified bound ---------------------------------- */

/* Fills T (initialised at precision p by the caller) with the bound. */
typedef void (*bound_fn)(ul_num_value *T, const reading *in, const void *arg);

/* The least whole k ≥ max(0, T), certified: T ≤ k and (k = 0 or T > k − 1),
 * raising the precision until decided. */
static ul_status least_whole(bound_fn fn, const reading *in, const void *arg, unsigned long *k,
                             ul_num_report *rep, char *err, size_t errlen)
{
    ul_num_init();
    mpfr_prec_t p = 128, cap = UL_NUM_DEFAULT_MAX_BITS;
    ul_status st = UL_OK;
    ul_num_value T;
    ul_num_value_init(&T, p);
    mpfr_t umax, lo, hi, c;
    mpfr_inits2(64, umax, (mpfr_ptr)0);
    mpfr_set_ui(umax, ULONG_MAX, MPFR_RNDU);
    for (;;) {
        mpfi_set_prec(T.enclosure, p);
        fn(&T, in, arg);
        mpfr_inits2(p, lo, hi, c, (mpfr_ptr)0);
        int done = 0; /* 1 found, -1 too large */
        bool plain = true;
        if (T.is_log) {
            /* exp only when the bound may fit an unsigned long:
             * 44.37 > log(ULONG_MAX) = 44.36… */
            mpfr_set_d(c, 44.37, MPFR_RNDN);
            if (mpfr_greater_p(&T.enclosure->left, c)) {
                done = -1; /* T > e^44.37 > ULONG_MAX */
            } else if (mpfr_lessequal_p(&T.enclosure->right, c)) {
                mpfr_exp(lo, &T.enclosure->left, MPFR_RNDD);
                mpfr_exp(hi, &T.enclosure->right, MPFR_RNDU);
            } else {
                plain = false; /* undecided: raise the precision */
            }
        } else {
            mpfi_get_left(lo, T.enclosure);
            mpfi_get_right(hi, T.enclosure);
        }
        if (done == 0 && plain) {
            if (mpfr_sgn(hi) <= 0) {
                *k = 0;
                done = 1;
            } else if (mpfr_greater_p(lo, umax)) {
                done = -1;
            } else if (mpfr_sgn(lo) > 0) {
                mpfr_ceil(c, lo); /* the only candidate: lo > c − 1 holds */
                if (mpfr_lessequal_p(hi, c) && mpfr_lessequal_p(c, umax)) {
                    *k = mpfr_get_ui(c, MPFR_RNDN);
                    done = 1;
                }
            }
        }
        mpfr_clears(lo, hi, c, (mpfr_ptr)0);
        if (done == 1)
            break;
        if (done == -1) {
            st = ul_fail(err, errlen, UL_ENOROOT, "the least number of iterations exceeds %lu",
                         ULONG_MAX);
            break;
        }
        if (p >= cap) {
            st = ul_fail(err, errlen, UL_ECAP,
                         "could not decide the least whole number within %ld bits", (long)cap);
            break;
        }
        p *= 2;
    }
    if (rep != NULL) {
        rep->bits_used = p;
        rep->cap_hit = st == UL_ECAP;
    }
    mpfr_clear(umax);
    ul_num_value_clear(&T);
    return st;
}

/* ---- Thm 5.1 -------------------------------------------------------------------- */

typedef struct {
    ul_ngd_51_quantity which;
    ul_variant variant;
} q51;

/* κ = (λ+β)/λ */
static void rat_kappa(mpq_ptr out, const reading *in)
{
    mpq_add(out, Q(in, F_LAMBDA), Q(in, F_BETA));
    mpq_div(out, out, Q(in, F_LAMBDA));
}

/* out = max(0, coef·log x), plain; exactly 0 when x ≤ 1. */
static void value_coef_log(ul_num_value *out, mpq_srcptr coef, mpq_srcptr x)
{
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    out->is_log = false;
    if (mpq_cmp(x, one) <= 0) {
        mpfi_set_ui(out->enclosure, 0);
    } else {
        mpfi_t c;
        mpfi_init2(c, mpfi_get_prec(out->enclosure));
        mpfi_set_q(out->enclosure, x);
        mpfi_log(out->enclosure, out->enclosure);
        mpfi_set_q(c, coef);
        mpfi_mul(out->enclosure, out->enclosure, c);
        mpfi_clear(c);
    }
    mpq_clear(one);
}

/* The (17) utility bound on K_Abar: cκ·log max{5κ, m·r²/(qd)} with c = 4,
 * m = 8·eps_dp (statement) or c = 2, m = 8 (proof text, docs/noisy-gd.md erratum N10). */
static void value_51_kabar_utility(ul_num_value *out, const reading *in, ul_variant v)
{
    mpq_t kappa, coef, x, y;
    mpq_inits(kappa, coef, x, y, (mpq_ptr)0);
    rat_kappa(kappa, in);
    mpq_set_ui(coef, v == UL_VARIANT_PRINTED ? 2 : 4, 1);
    mpq_mul(coef, coef, kappa);
    mpq_set_ui(x, 5, 1);
    mpq_mul(x, x, kappa);
    mpq_mul(y, Q(in, F_R), Q(in, F_R));
    mpq_mul_2exp(y, y, 3);
    if (v != UL_VARIANT_PRINTED)
        mpq_mul(y, y, Q(in, F_EPS_DP));
    mpq_div(y, y, Q(in, F_Q));
    mpq_div(y, y, Q(in, F_D));
    rat_max(x, x, y);
    value_coef_log(out, coef, x);
    mpq_clears(kappa, coef, x, y, (mpq_ptr)0);
}

/* max(0, 4κ·log(eps_dp/eps_dd)), +inf when eps_dd = 0 < eps_dp (16). */
static void value_51_kabar_deletion(ul_num_value *out, const reading *in)
{
    if (mpq_sgn(Q(in, F_EPS_DD)) == 0) {
        if (mpq_sgn(Q(in, F_EPS_DP)) == 0)
            mpfi_set_ui(out->enclosure, 0);
        else
            set_inf(out);
        out->is_log = false;
        return;
    }
    mpq_t coef, x;
    mpq_inits(coef, x, (mpq_ptr)0);
    rat_kappa(coef, in);
    mpq_mul_2exp(coef, coef, 2);
    mpq_div(x, Q(in, F_EPS_DP), Q(in, F_EPS_DD));
    value_coef_log(out, coef, x);
    mpq_clears(coef, x, (mpq_ptr)0);
}

static void value_51(ul_num_value *out, const reading *in, const void *arg)
{
    const q51 *w = arg;
    mpq_t a, b;
    mpq_inits(a, b, (mpq_ptr)0);
    out->is_log = false;
    bool rational = true, root = false;
    switch (w->which) {
    case UL_NGD_51_ETA: /* η = 1/(2(λ+β)) */
        mpq_add(a, Q(in, F_LAMBDA), Q(in, F_BETA));
        mpq_mul_2exp(a, a, 1);
        mpq_inv(a, a);
        break;
    case UL_NGD_51_SIGMA:
        root = true;
        /* fall through */
    case UL_NGD_51_SIGMA2:
    case UL_NGD_51_INIT_VAR:
        /* σ² = 4qL²/(λ·eps_dp·n²) */
        if (mpq_sgn(Q(in, F_EPS_DP)) == 0) {
            set_inf(out);
            rational = false;
            break;
        }
        rat_qL2_n2(a, in);
        mpq_mul_2exp(a, a, 2);
        mpq_div(a, a, Q(in, F_LAMBDA));
        mpq_div(a, a, Q(in, F_EPS_DP));
        if (w->which == UL_NGD_51_INIT_VAR) {
            /* σ²/(λ(1 − ηλ/2)) with η = 1/(2(λ+β)): ηλ/2 = λ/(4(λ+β)) */
            mpq_add(b, Q(in, F_LAMBDA), Q(in, F_BETA));
            mpq_mul_2exp(b, b, 2);
            mpq_div(b, Q(in, F_LAMBDA), b);
            mpq_t one;
            mpq_init(one);
            mpq_set_ui(one, 1, 1);
            mpq_sub(b, one, b);
            mpq_clear(one);
            mpq_mul(b, b, Q(in, F_LAMBDA));
            mpq_div(a, a, b);
        }
        break;
    case UL_NGD_51_KAPPA:
        rat_kappa(a, in);
        break;
    case UL_NGD_51_KABAR_DELETION:
        value_51_kabar_deletion(out, in);
        rational = false;
        break;
    case UL_NGD_51_KA_UTILITY:
        /* cκ·log(eps_dp·n²/(4qd)), c = 4 (statement) or 2 (proof text) */
        rat_kappa(a, in);
        mpq_mul_2exp(a, a, w->variant == UL_VARIANT_PRINTED ? 1 : 2);
        mpq_mul(b, Q(in, F_N), Q(in, F_N));
        mpq_mul(b, b, Q(in, F_EPS_DP));
        mpq_div_2exp(b, b, 2);
        mpq_div(b, b, Q(in, F_Q));
        mpq_div(b, b, Q(in, F_D));
        value_coef_log(out, a, b);
        rational = false;
        break;
    case UL_NGD_51_KABAR_UTILITY:
        value_51_kabar_utility(out, in, w->variant);
        rational = false;
        break;
    case UL_NGD_51_KABAR_BOTH: {
        ul_num_value other;
        ul_num_value_init(&other, mpfi_get_prec(out->enclosure));
        value_51_kabar_deletion(&other, in);
        value_51_kabar_utility(out, in, w->variant);
        ul_bounds_interval_max(out->enclosure, out->enclosure, other.enclosure);
        ul_num_value_clear(&other);
        rational = false;
        break;
    }
    case UL_NGD_51_RISK:
        /* 10κqdL²/(λ·eps_dp·n²) (proof of Thm 5.1(3)) */
        if (mpq_sgn(Q(in, F_EPS_DP)) == 0) {
            set_inf(out);
            rational = false;
            break;
        }
        rat_kappa(a, in);
        rat_qL2_n2(b, in);
        mpq_mul(a, a, b);
        mpq_mul(a, a, Q(in, F_D));
        mpq_set_ui(b, 10, 1);
        mpq_mul(a, a, b);
        mpq_div(a, a, Q(in, F_LAMBDA));
        mpq_div(a, a, Q(in, F_EPS_DP));
        break;
    }
    if (rational) {
        mpfi_set_q(out->enclosure, a);
        if (root)
            mpfi_sqrt(out->enclosure, out->enclosure);
    }
    mpq_clears(a, b, (mpq_ptr)0);
}

static unsigned need_51(ul_ngd_51_quantity which)
{
    unsigned need =
        BIT(F_LAMBDA) | BIT(F_BETA) | BIT(F_L) | BIT(F_Q) | BIT(F_EPS_DP) | BIT(F_EPS_DD);
    if (which == UL_NGD_51_SIGMA2 || which == UL_NGD_51_SIGMA || which == UL_NGD_51_INIT_VAR ||
        which == UL_NGD_51_RISK)
        need |= BIT(F_N);
    if (which == UL_NGD_51_KA_UTILITY || which == UL_NGD_51_RISK)
        need |= BIT(F_N) | BIT(F_D);
    if (which == UL_NGD_51_KABAR_UTILITY || which == UL_NGD_51_KABAR_BOTH)
        need |= BIT(F_D) | BIT(F_R) | BIT(F_N);
    return need;
}

static void pre_51(ul_preconditions *pre, const reading *in)
{
    if (pre == NULL)
        return;
    ul_pre_clear(pre);
    ul_pre_add(pre, "lambda_pos", "lambda > 0 (Thm 5.1; docs/noisy-gd.md 'Theorems audited')",
               holds(mpq_sgn(Q(in, F_LAMBDA)) > 0));
    ul_pre_add(pre, "beta_pos", "beta > 0 (Thm 5.1; docs/noisy-gd.md 'Theorems audited')",
               holds(mpq_sgn(Q(in, F_BETA)) > 0));
    ul_pre_add(pre, "L_pos", "L > 0 (Thm 5.1; docs/noisy-gd.md 'Theorems audited')",
               holds(mpq_sgn(Q(in, F_L)) > 0));
    pre_q(pre, in);
    ul_pre_add(pre, "eps_dd_pos", "0 < eps_dd (Thm 5.1; docs/noisy-gd.md 'Theorems audited')",
               holds(mpq_sgn(Q(in, F_EPS_DD)) > 0));
    ul_pre_add(pre, "eps_dd_le_eps_dp",
               "eps_dd <= eps_dp (Thm 5.1; docs/noisy-gd.md 'Theorems audited')",
               rat_leq(Q(in, F_EPS_DD), Q(in, F_EPS_DP)));
    if (in->set[F_R])
        ul_pre_add(pre, "r_le_n", "a request replaces r <= n distinct records (Def 2.5)",
                   rat_leq(Q(in, F_R), Q(in, F_N)));
}

ul_status ul_ngd_thm51(const ul_ngd_params *pb, ul_ngd_51_quantity which, ul_variant variant,
                       const ul_num_precision *want, ul_num_value *out, ul_preconditions *pre,
                       ul_num_report *rep, char *err, size_t errlen)
{
    reading in;
    reading_init(&in);
    ul_status st = read_fields(&in, pb, need_51(which), 0, err, errlen);
    if (st == UL_OK) {
        pre_51(pre, &in);
        q51 w = {which, variant};
        st = evaluate(value_51, &in, &w, want, out, rep, err, errlen);
    }
    reading_clear(&in);
    return st;
}

ul_status ul_ngd_thm51_least_k(const ul_ngd_params *pb, ul_ngd_51_quantity which,
                               ul_variant variant, unsigned long *k, ul_preconditions *pre,
                               ul_num_report *rep, char *err, size_t errlen)
{
    if (which != UL_NGD_51_KABAR_DELETION && which != UL_NGD_51_KA_UTILITY &&
        which != UL_NGD_51_KABAR_UTILITY && which != UL_NGD_51_KABAR_BOTH)
        return ul_fail(err, errlen, UL_EINPUT, "which: not an iteration bound of Thm 5.1");
    reading in;
    reading_init(&in);
    ul_status st = read_fields(&in, pb, need_51(which), 0, err, errlen);
    if (st == UL_OK) {
        pre_51(pre, &in);
        q51 w = {which, variant};
        st = least_whole(value_51, &in, &w, k, rep, err, errlen);
    }
    reading_clear(&in);
    return st;
}

/* ---- Thm 5.2 -------------------------------------------------------------------- */

/* M = log(2B/(λη)) = log(2/(λη)) + log B; +inf when η = 0. */
static void log_2B_over_lambda_eta(mpfi_ptr out, const reading *in)
{
    if (mpq_sgn(Q(in, F_ETA)) == 0) {
        mpfr_set_inf(&out->left, 1);
        mpfr_set_inf(&out->right, 1);
        return;
    }
    mpq_t x;
    mpq_init(x);
    mpq_mul(x, Q(in, F_LAMBDA), Q(in, F_ETA));
    mpq_inv(x, x);
    mpq_mul_2exp(x, x, 1);
    mpfi_t lb;
    mpfi_init2(lb, mpfi_get_prec(out));
    log_q(out, x);
    mpfi_set_q(lb, Q(in, F_LOGB));
    mpfi_add(out, out, lb);
    mpfi_clear(lb);
    mpq_clear(x);
}

/* out = log(e^M·log y) for a rational y > 1 (log form of (2B/(λη))·log y). */
static void log_M_log(mpfi_ptr out, const reading *in, mpq_srcptr y)
{
    mpfi_t t;
    mpfi_init2(t, mpfi_get_prec(out));
    log_2B_over_lambda_eta(out, in);
    mpfi_set_q(t, y);
    mpfi_log(t, t);
    mpfi_log(t, t);
    mpfi_add(out, out, t);
    mpfi_clear(t);
}

/* X = log B/(2(eps_dd + (r/n)·log B)) (eq. 19) */
static void rat_52_x(mpq_ptr x, const reading *in)
{
    mpq_t den;
    mpq_init(den);
    mpq_mul(den, Q(in, F_R), Q(in, F_LOGB));
    mpq_div(den, den, Q(in, F_N));
    mpq_add(den, den, Q(in, F_EPS_DD));
    mpq_mul_2exp(den, den, 1);
    mpq_div(x, Q(in, F_LOGB), den);
    mpq_clear(den);
}

/* The K_Abar bound of (19) for the given K_A, as max(0, T) in log form:
 *   T = K_A − e^M·log X. */
static void value_52_kabar_min(ul_num_value *out, const reading *in)
{
    mpfi_ptr v = out->enclosure;
    mpfr_prec_t p = mpfi_get_prec(v);
    mpq_t x, one;
    mpq_inits(x, one, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    rat_52_x(x, in);
    int cmp = mpq_cmp(x, one);
    mpfi_t lka, s;
    mpfi_init2(lka, p);
    mpfi_init2(s, p);
    log_q(lka, Q(in, F_KA));
    out->is_log = true;
    if (cmp == 0) {
        mpfi_set(v, lka); /* T = K_A */
    } else if (cmp < 0) {
        /* T = K_A + e^M·(−log X) */
        mpq_inv(x, x);
        log_M_log(s, in, x);
        log_add_exp(v, lka, s);
    } else if (mpq_sgn(Q(in, F_KA)) == 0 || mpq_sgn(Q(in, F_ETA)) == 0) {
        set_log_zero(out); /* T = −e^M·log X < 0 (or −inf) */
    } else {
        /* T = K_A − S, S = e^M·log X: log T = log K_A + log(−expm1(log S − log K_A)) */
        log_M_log(s, in, x);
        mpfi_sub(s, s, lka);
        if (mpfi_is_strictly_neg(s)) {
            mpfi_expm1(s, s);
            mpfi_neg(s, s);
            mpfi_log(s, s);
            mpfi_add(v, lka, s);
        } else if (mpfr_sgn(&s->left) >= 0) {
            set_log_zero(out); /* S ≥ K_A */
        } else {
            /* undecided at this precision: 0 ≤ T ≤ K_A */
            mpfr_set_inf(&v->left, -1);
            mpfr_set(&v->right, &lka->right, MPFR_RNDU);
        }
    }
    mpfi_clear(lka);
    mpfi_clear(s);
    mpq_clears(x, one, (mpq_ptr)0);
}

static void value_52(ul_num_value *out, const reading *in, const void *arg)
{
    ul_ngd_52_quantity which = *(const ul_ngd_52_quantity *)arg;
    mpfi_ptr v = out->enclosure;
    mpfr_prec_t p = mpfi_get_prec(v);
    mpq_t a, b, one;
    mpq_inits(a, b, one, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    mpfi_t lb, t, u;
    mpfi_init2(lb, p);
    mpfi_init2(t, p);
    mpfi_init2(u, p);
    mpfi_set_q(lb, Q(in, F_LOGB));
    out->is_log = true;
    switch (which) {
    case UL_NGD_52_KA_MIN:
        /* (2B/(λη))·log(q log B/eps_dd), 0 when the log is ≤ 0 */
        if (mpq_sgn(Q(in, F_EPS_DD)) == 0) {
            set_inf(out);
            break;
        }
        mpq_mul(a, Q(in, F_Q), Q(in, F_LOGB));
        mpq_div(a, a, Q(in, F_EPS_DD));
        if (mpq_cmp(a, one) <= 0)
            set_log_zero(out);
        else if (mpq_sgn(Q(in, F_ETA)) == 0)
            set_inf(out);
        else
            log_M_log(v, in, a);
        break;
    case UL_NGD_52_KABAR_MIN:
        if (mpq_sgn(Q(in, F_ETA)) == 0) {
            mpq_t x;
            mpq_init(x);
            rat_52_x(x, in);
            int c = mpq_cmp(x, one);
            mpq_clear(x);
            if (c < 0)
                set_inf(out);
            else if (c > 0)
                set_log_zero(out);
            else
                log_q(v, Q(in, F_KA));
            break;
        }
        value_52_kabar_min(out, in);
        break;
    case UL_NGD_52_KABAR_SUFFICIENT:
        /* (2B/(λη))·log(2q(eps_dd + (r/n) log B)/eps_dd) */
        if (mpq_sgn(Q(in, F_EPS_DD)) == 0) {
            set_inf(out);
            break;
        }
        mpq_mul(a, Q(in, F_R), Q(in, F_LOGB));
        mpq_div(a, a, Q(in, F_N));
        mpq_add(a, a, Q(in, F_EPS_DD));
        mpq_mul(a, a, Q(in, F_Q));
        mpq_mul_2exp(a, a, 1);
        mpq_div(a, a, Q(in, F_EPS_DD));
        if (mpq_cmp(a, one) <= 0)
            set_log_zero(out);
        else if (mpq_sgn(Q(in, F_ETA)) == 0)
            set_inf(out);
        else
            log_M_log(v, in, a);
        break;
    case UL_NGD_52_ETA_MAX:
    case UL_NGD_52_ETA_MAX_G22:
        /* λ·eps_dd/(64dqB(β+λ)²) or λ/(64Bq²(β+λ)²), as log(rational) − log B */
        mpq_add(b, Q(in, F_LAMBDA), Q(in, F_BETA));
        mpq_mul(b, b, b);
        mpq_mul_2exp(b, b, 6);
        mpq_mul(b, b, Q(in, F_Q));
        if (which == UL_NGD_52_ETA_MAX) {
            mpq_mul(b, b, Q(in, F_D));
            mpq_mul(a, Q(in, F_LAMBDA), Q(in, F_EPS_DD));
        } else {
            mpq_mul(b, b, Q(in, F_Q));
            mpq_set(a, Q(in, F_LAMBDA));
        }
        mpq_div(a, a, b);
        log_q(v, a);
        if (mpq_sgn(a) != 0)
            mpfi_sub(v, v, lb);
        break;
    case UL_NGD_52_SIGMA2_MIN:
        /* qL²η·max{K_A, K_Abar}/(eps_dp·n²) (18) */
        out->is_log = false;
        rat_qL2_n2(a, in);
        mpq_mul(a, a, Q(in, F_ETA));
        rat_max(b, Q(in, F_KA), Q(in, F_KABAR));
        mpq_mul(a, a, b);
        if (mpq_sgn(a) == 0) {
            mpfi_set_ui(v, 0);
        } else if (mpq_sgn(Q(in, F_EPS_DP)) == 0) {
            set_inf(out);
        } else {
            mpq_div(a, a, Q(in, F_EPS_DP));
            mpfi_set_q(v, a);
        }
        break;
    case UL_NGD_52_RISK:
    case UL_NGD_52_GIBBS_RISK: {
        /* third term: (dσ²/2)·(log κ + c√B) = (dσ²/2)·√B·(c + log κ·e^{−logB/2}),
         * c = 2 in (162), 1 in G.24 (146) */
        mpq_mul(a, Q(in, F_SIGMA), Q(in, F_SIGMA));
        mpq_mul(a, a, Q(in, F_D));
        mpq_div_2exp(a, a, 1);
        log_q(v, a);
        mpfi_div_2ui(t, lb, 1);
        mpfi_add(v, v, t); /* log(dσ²√B/2) */
        rat_kappa(b, in);
        mpfi_set_q(u, b);
        mpfi_log(u, u);
        mpfi_neg(t, t);
        mpfi_exp(t, t);
        mpfi_mul(u, u, t);
        mpfi_add_ui(u, u, which == UL_NGD_52_RISK ? 2 : 1);
        mpfi_log(u, u);
        mpfi_add(v, v, u);
        if (which == UL_NGD_52_GIBBS_RISK)
            break;
        /* first term: Lσ√(2·eps_dd·B/λ) = exp((log(2L²σ²eps_dd/λ) + log B)/2) */
        mpq_mul(a, Q(in, F_L), Q(in, F_SIGMA));
        mpq_mul(a, a, a);
        mpq_mul(a, a, Q(in, F_EPS_DD));
        mpq_mul_2exp(a, a, 1);
        mpq_div(a, a, Q(in, F_LAMBDA));
        if (mpq_sgn(a) != 0) {
            log_q(t, a);
            mpfi_add(t, t, lb);
            mpfi_div_2ui(t, t, 1);
            log_add_exp(v, v, t);
        }
        /* second term: eps_dd·Bσ²(2λ+β)/λ */
        mpq_add(a, Q(in, F_LAMBDA), Q(in, F_LAMBDA));
        mpq_add(a, a, Q(in, F_BETA));
        mpq_div(a, a, Q(in, F_LAMBDA));
        mpq_mul(a, a, Q(in, F_EPS_DD));
        mpq_mul(a, a, Q(in, F_SIGMA));
        mpq_mul(a, a, Q(in, F_SIGMA));
        if (mpq_sgn(a) != 0) {
            log_q(t, a);
            mpfi_add(t, t, lb);
            log_add_exp(v, v, t);
        }
        break;
    }
    }
    mpfi_clear(lb);
    mpfi_clear(t);
    mpfi_clear(u);
    mpq_clears(a, b, one, (mpq_ptr)0);
}

static unsigned need_52(ul_ngd_52_quantity which)
{
    unsigned base = BIT(F_LAMBDA) | BIT(F_BETA) | BIT(F_ETA) | BIT(F_Q) | BIT(F_LOGB);
    switch (which) {
    case UL_NGD_52_KA_MIN:
        return base | BIT(F_EPS_DD);
    case UL_NGD_52_KABAR_MIN:
        return base | BIT(F_EPS_DD) | BIT(F_R) | BIT(F_N) | BIT(F_KA);
    case UL_NGD_52_KABAR_SUFFICIENT:
        return base | BIT(F_EPS_DD) | BIT(F_R) | BIT(F_N);
    case UL_NGD_52_ETA_MAX:
        return base | BIT(F_EPS_DD) | BIT(F_D);
    case UL_NGD_52_ETA_MAX_G22:
        return base;
    case UL_NGD_52_SIGMA2_MIN:
        return BIT(F_Q) | BIT(F_L) | BIT(F_ETA) | BIT(F_N) | BIT(F_KA) | BIT(F_KABAR) |
               BIT(F_EPS_DP);
    case UL_NGD_52_RISK:
        return base | BIT(F_SIGMA) | BIT(F_L) | BIT(F_D) | BIT(F_EPS_DD);
    case UL_NGD_52_GIBBS_RISK:
        return base | BIT(F_SIGMA) | BIT(F_D);
    }
    return base;
}

ul_status ul_ngd_thm52(const ul_ngd_params *pb, ul_ngd_52_quantity which,
                       const ul_num_precision *want, ul_num_value *out, ul_num_report *rep,
                       char *err, size_t errlen)
{
    reading in;
    reading_init(&in);
    ul_status st = read_fields(&in, pb, need_52(which), BIT(F_SIGMA), err, errlen);
    if (st == UL_OK)
        st = evaluate(value_52, &in, &which, want, out, rep, err, errlen);
    reading_clear(&in);
    return st;
}

ul_status ul_ngd_thm52_least_k(const ul_ngd_params *pb, ul_ngd_52_quantity which, unsigned long *k,
                               ul_num_report *rep, char *err, size_t errlen)
{
    if (which != UL_NGD_52_KA_MIN && which != UL_NGD_52_KABAR_MIN &&
        which != UL_NGD_52_KABAR_SUFFICIENT)
        return ul_fail(err, errlen, UL_EINPUT, "which: not an iteration bound of Thm 5.2");
    reading in;
    reading_init(&in);
    ul_status st = read_fields(&in, pb, need_52(which), BIT(F_SIGMA), err, errlen);
    if (st == UL_OK)
        st = least_whole(value_52, &in, &which, k, rep, err, errlen);
    reading_clear(&in);
    return st;
}

/* ---- Thm 5.2 preconditions -------------------------------------------------------- */

typedef enum {
    DEC_ETA_DELETION, /* log(64dqη(β+λ)²/(λ eps_dd)) + log B ≤ 0 */
    DEC_ETA_G22,      /* log(64q²η(β+λ)²/λ) + log B ≤ 0 */
    DEC_KA,           /* log K_A ≥ M + log log(q log B/eps_dd) */
    DEC_KABAR_BELOW,  /* X < 1: log K_Abar ≥ lae(log K_A, M + log(−log X)) */
    DEC_KABAR_ABOVE,  /* X > 1: lae(log K_Abar, M + log log X) ≥ log K_A */
    DEC_CONTRACTION,  /* log q − (ληK_Abar/2)·e^{−log B} < 0 */
} dec_kind;

/* 64·(β+λ)²·η·q^k (k = 1 or 2) divided by λ */
static void rat_64_eta(mpq_ptr out, const reading *in, int qpow)
{
    mpq_add(out, Q(in, F_LAMBDA), Q(in, F_BETA));
    mpq_mul(out, out, out);
    mpq_mul_2exp(out, out, 6);
    mpq_mul(out, out, Q(in, F_ETA));
    for (int i = 0; i < qpow; i++)
        mpq_mul(out, out, Q(in, F_Q));
    mpq_div(out, out, Q(in, F_LAMBDA));
}

static ul_pre_state decide_52(const reading *in, mpfr_prec_t p, const void *ctx)
{
    dec_kind kind = *(const dec_kind *)ctx;
    mpfi_t l, r, t, lb;
    mpfi_init2(l, p);
    mpfi_init2(r, p);
    mpfi_init2(t, p);
    mpfi_init2(lb, p);
    mpfi_set_q(lb, Q(in, F_LOGB));
    mpq_t x;
    mpq_init(x);
    ul_pre_state s = UL_PRE_UNDECIDED;
    switch (kind) {
    case DEC_ETA_DELETION:
    case DEC_ETA_G22:
        rat_64_eta(x, in, kind == DEC_ETA_G22 ? 2 : 1);
        if (kind == DEC_ETA_DELETION) {
            mpq_mul(x, x, Q(in, F_D));
            mpq_div(x, x, Q(in, F_EPS_DD)); /* eps_dd > 0 here */
        }
        log_q(l, x);
        mpfi_add(l, l, lb);
        mpfi_set_ui(r, 0);
        s = ul_pre_leq(l, r);
        break;
    case DEC_KA:
        mpq_mul(x, Q(in, F_Q), Q(in, F_LOGB));
        mpq_div(x, x, Q(in, F_EPS_DD)); /* > 1 here */
        log_M_log(r, in, x);
        log_q(l, Q(in, F_KA));
        s = ul_pre_leq(r, l);
        break;
    case DEC_KABAR_BELOW:
        rat_52_x(x, in);
        mpq_inv(x, x);
        log_M_log(t, in, x);
        log_q(l, Q(in, F_KA));
        log_add_exp(r, l, t);
        log_q(l, Q(in, F_KABAR));
        s = ul_pre_leq(r, l);
        break;
    case DEC_KABAR_ABOVE:
        rat_52_x(x, in);
        log_M_log(t, in, x);
        log_q(l, Q(in, F_KABAR));
        log_add_exp(l, l, t);
        log_q(r, Q(in, F_KA));
        s = ul_pre_leq(r, l);
        break;
    case DEC_CONTRACTION:
        mpq_mul(x, Q(in, F_LAMBDA), Q(in, F_ETA));
        mpq_mul(x, x, Q(in, F_KABAR));
        mpq_div_2exp(x, x, 1); /* > 0 here */
        log_q(l, x);
        mpfi_sub(l, l, lb);
        mpfi_exp(l, l);
        log_q(t, Q(in, F_Q));
        mpfi_sub(l, t, l);
        mpfi_set_ui(r, 0);
        s = ul_pre_less(l, r);
        break;
    }
    mpq_clear(x);
    mpfi_clear(l);
    mpfi_clear(r);
    mpfi_clear(t);
    mpfi_clear(lb);
    return s;
}

static ul_pre_state decide(const reading *in, dec_kind kind)
{
    return decide_rising(decide_52, in, &kind);
}

static const char RULE_ETA_G22[] =
    "eta <= lambda/(64 B q^2 (beta + lambda)^2), needed by Thm G.22 (docs/noisy-gd.md "
    "erratum N3)";

static ul_pre_state state_eta_g22(const reading *in)
{
    if (mpq_sgn(Q(in, F_ETA)) == 0)
        return UL_PRE_HOLDS;
    return decide(in, DEC_ETA_G22);
}

/* The hypotheses shared by both parts of Thm 5.2 (and, for the ones it
 * needs, the derived recursion). */
static void pre_52_shared(ul_preconditions *pre, const reading *in, const ul_ngd_params *pb,
                          bool full)
{
    ul_pre_add(pre, "lambda_pos", "lambda > 0 (Thm 5.2; docs/noisy-gd.md 'Theorems audited')",
               holds(mpq_sgn(Q(in, F_LAMBDA)) > 0));
    ul_pre_add(pre, "beta_pos", "beta > 0 (Thm 5.2; docs/noisy-gd.md 'Theorems audited')",
               holds(mpq_sgn(Q(in, F_BETA)) > 0));
    if (full)
        ul_pre_add(pre, "L_pos", "L > 0 (Thm 5.2; docs/noisy-gd.md 'Theorems audited')",
                   holds(mpq_sgn(Q(in, F_L)) > 0));
    ul_pre_add(pre, "eta_pos", "eta > 0 (Thm 5.2; docs/noisy-gd.md 'Theorems audited')",
               holds(mpq_sgn(Q(in, F_ETA)) > 0));
    pre_q(pre, in);
    if (full) {
        ul_pre_add(pre, "eps_dd_pos", "0 < eps_dd (Thm 5.2; docs/noisy-gd.md 'Theorems audited')",
                   holds(mpq_sgn(Q(in, F_EPS_DD)) > 0));
        ul_pre_add(pre, "eps_dd_le_eps_dp",
                   "eps_dd <= eps_dp (Thm 5.2; docs/noisy-gd.md 'Theorems audited')",
                   rat_leq(Q(in, F_EPS_DD), Q(in, F_EPS_DP)));
        ul_pre_add(pre, "eps_dp_lt_d", "eps_dp < d (Thm 5.2; docs/noisy-gd.md 'Theorems audited')",
                   rat_less(Q(in, F_EPS_DP), Q(in, F_D)));
    }
    ul_pre_add(pre, "r_le_n", "a request replaces r <= n distinct records (Def 2.5)",
               rat_leq(Q(in, F_R), Q(in, F_N)));
    if (pb->log_B != NULL && pb->b != NULL) {
        /* b ≤ σ² log B/4 */
        mpq_t rhs;
        mpq_init(rhs);
        rat_sigma2(rhs, in);
        mpq_mul(rhs, rhs, Q(in, F_LOGB));
        mpq_div_2exp(rhs, rhs, 2);
        ul_pre_add(pre, "loss_bound_le_sigma2_logB_over_4",
                   "the loss is (sigma^2 log B/4)-bounded: b <= sigma^2 log B/4 (Thm 5.2, G.22; "
                   "docs/noisy-gd.md erratum N5)",
                   rat_leq(Q(in, F_B), rhs));
        mpq_clear(rhs);
    }
    if (in->set[F_INIT]) {
        /* ρ = N(0, σ²/λ I): init·λ = σ² */
        mpq_t l, s2;
        mpq_inits(l, s2, (mpq_ptr)0);
        mpq_mul(l, Q(in, F_INIT), Q(in, F_LAMBDA));
        rat_sigma2(s2, in);
        ul_pre_add(pre, "init_variance_prescribed",
                   "initialisation rho = N(0, (sigma^2/lambda) I_d) (Thm 5.2, base case (153); "
                   "docs/noisy-gd.md erratum N7)",
                   holds(mpq_equal(l, s2)));
        mpq_clears(l, s2, (mpq_ptr)0);
    }
}

static const unsigned NEED_52_CHECK =
    BIT(F_LAMBDA) | BIT(F_BETA) | BIT(F_L) | BIT(F_SIGMA) | BIT(F_ETA) | BIT(F_Q) | BIT(F_LOGB) |
    BIT(F_EPS_DD) | BIT(F_EPS_DP) | BIT(F_D) | BIT(F_N) | BIT(F_R) | BIT(F_KA) | BIT(F_KABAR);

ul_status ul_ngd_thm52_check(const ul_ngd_params *pb, ul_ngd_52_part part, ul_variant variant,
                             ul_preconditions *pre, char *err, size_t errlen)
{
    ul_num_init();
    if (part != UL_NGD_52_PRIVACY && part != UL_NGD_52_DELETION)
        return ul_fail(err, errlen, UL_EINPUT, "part: must be 1 (privacy) or 2 (deletion)");
    reading in;
    reading_init(&in);
    ul_status st = read_fields(&in, pb, NEED_52_CHECK, BIT(F_INIT), err, errlen);
    if (st != UL_OK) {
        reading_clear(&in);
        return st;
    }
    if (pre != NULL)
        ul_pre_clear(pre);
    pre_52_shared(pre, &in, pb, true);
    mpq_t a, b, one;
    mpq_inits(a, b, one, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    if (part == UL_NGD_52_PRIVACY) {
        /* (18): σ²·eps_dp·n² ≥ qL²η·max{K_A, K_Abar} */
        rat_sigma2(a, &in);
        mpq_mul(a, a, Q(&in, F_EPS_DP));
        mpq_mul(b, Q(&in, F_N), Q(&in, F_N));
        mpq_mul(a, a, b);
        mpq_mul(b, Q(&in, F_L), Q(&in, F_L));
        mpq_mul(b, b, Q(&in, F_Q));
        mpq_mul(b, b, Q(&in, F_ETA));
        mpq_t m;
        mpq_init(m);
        rat_max(m, Q(&in, F_KA), Q(&in, F_KABAR));
        mpq_mul(b, b, m);
        mpq_clear(m);
        ul_pre_add(pre, "sigma2_ge_privacy_bound",
                   "sigma^2 >= q L^2 eta max{K_A, K_Abar}/(eps_dp n^2) (Thm 5.2(1), eq. 18)",
                   rat_leq(b, a));
    } else {
        ul_pre_state s;
        /* η ≤ λ eps_dd/(64dqB(β+λ)²) */
        if (mpq_sgn(Q(&in, F_ETA)) == 0)
            s = UL_PRE_HOLDS;
        else if (mpq_sgn(Q(&in, F_EPS_DD)) == 0)
            s = UL_PRE_FAILS;
        else
            s = decide(&in, DEC_ETA_DELETION);
        ul_pre_add(pre, "eta_le_deletion_bound",
                   "eta <= lambda eps_dd/(64 d q B (beta + lambda)^2) (Thm 5.2(2))", s);
        if (variant != UL_VARIANT_PRINTED)
            ul_pre_add(pre, "eta_le_g22_bound", RULE_ETA_G22, state_eta_g22(&in));
        /* K_A ≥ (2B/(λη)) log(q log B/eps_dd) */
        if (mpq_sgn(Q(&in, F_EPS_DD)) == 0) {
            s = UL_PRE_FAILS;
        } else {
            mpq_mul(a, Q(&in, F_Q), Q(&in, F_LOGB));
            mpq_div(a, a, Q(&in, F_EPS_DD));
            if (mpq_cmp(a, one) <= 0)
                s = UL_PRE_HOLDS; /* the bound is ≤ 0 */
            else if (mpq_sgn(Q(&in, F_ETA)) == 0)
                s = UL_PRE_FAILS;
            else
                s = decide(&in, DEC_KA);
        }
        ul_pre_add(pre, "KA_ge_bound",
                   "K_A >= (2B/(lambda eta)) log(q log B/eps_dd) (Thm 5.2(2), eq. 19)", s);
        /* K_Abar ≥ K_A − (2B/(λη)) log X */
        rat_52_x(a, &in);
        int c = mpq_cmp(a, one);
        if (c == 0)
            s = rat_leq(Q(&in, F_KA), Q(&in, F_KABAR));
        else if (mpq_sgn(Q(&in, F_ETA)) == 0)
            s = holds(c > 0);
        else if (c < 0)
            s = decide(&in, DEC_KABAR_BELOW);
        else if (mpq_sgn(Q(&in, F_KA)) == 0)
            s = UL_PRE_HOLDS;
        else
            s = decide(&in, DEC_KABAR_ABOVE);
        ul_pre_add(pre, "KAbar_ge_bound",
                   "K_Abar >= K_A - (2B/(lambda eta)) log(log B/(2(eps_dd + (r/n) log B))) (Thm "
                   "5.2(2), eq. 19)",
                   s);
    }
    mpq_clears(a, b, one, (mpq_ptr)0);
    reading_clear(&in);
    return UL_OK;
}

/* ---- [DERIVED] the deletion ε Thm 5.2's proof achieves ----------------------------- */

static void value_nonconvex(ul_num_value *out, const reading *in, const void *arg)
{
    (void)arg;
    mpfi_ptr v = out->enclosure;
    mpfr_prec_t p = mpfi_get_prec(v);
    mpfi_t lb, ld, lc, le0, t, u;
    mpfi_init2(lb, p);
    mpfi_init2(ld, p);
    mpfi_init2(lc, p);
    mpfi_init2(le0, p);
    mpfi_init2(t, p);
    mpfi_init2(u, p);
    mpq_t x;
    mpq_init(x);
    mpfi_set_q(lb, Q(in, F_LOGB));
    /* log D* = log(32dηq(β+λ)²/λ) + log B  (G.22's discretisation term) */
    rat_64_eta(x, in, 1);
    mpq_mul(x, x, Q(in, F_D));
    mpq_div_2exp(x, x, 1);
    log_q(ld, x);
    if (mpq_sgn(x) != 0)
        mpfi_add(ld, ld, lb);
    /* log c = log q − (ληK_Abar/2)·e^{−log B} */
    log_q(lc, Q(in, F_Q));
    mpq_mul(x, Q(in, F_LAMBDA), Q(in, F_ETA));
    mpq_mul(x, x, Q(in, F_KABAR));
    mpq_div_2exp(x, x, 1);
    if (mpq_sgn(x) != 0) {
        log_q(t, x);
        mpfi_sub(t, t, lb);
        mpfi_exp(t, t);
        mpfi_sub(lc, lc, t);
    }
    /* log ε_0 = lae(log q − (ληK_A/2)e^{−log B} + log(log B/2), log D*) */
    log_q(le0, Q(in, F_Q));
    mpq_mul(x, Q(in, F_LAMBDA), Q(in, F_ETA));
    mpq_mul(x, x, Q(in, F_KA));
    mpq_div_2exp(x, x, 1);
    if (mpq_sgn(x) != 0) {
        log_q(t, x);
        mpfi_sub(t, t, lb);
        mpfi_exp(t, t);
        mpfi_sub(le0, le0, t);
    }
    mpq_div_2exp(x, Q(in, F_LOGB), 1);
    log_q(t, x);
    mpfi_add(le0, le0, t);
    log_add_exp(le0, le0, ld);
    out->is_log = true;
    if (mpfi_is_strictly_neg(lc)) {
        /* log F = lae(log c + log(r log B/n), log D*) − log(1 − c) */
        mpq_mul(x, Q(in, F_R), Q(in, F_LOGB));
        mpq_div(x, x, Q(in, F_N));
        log_q(t, x);
        mpfi_add(t, t, lc);
        log_add_exp(t, t, ld);
        mpfi_expm1(u, lc);
        mpfi_neg(u, u);
        mpfi_log(u, u);
        mpfi_sub(t, t, u);
        ul_bounds_interval_max(v, le0, t);
    } else if (mpfr_sgn(&lc->left) >= 0) {
        set_inf(out); /* c ≥ 1: the recursion gives nothing */
    } else {
        mpfr_set(&v->left, &le0->left, MPFR_RNDD); /* c undecided at this precision */
        mpfr_set_inf(&v->right, 1);
    }
    mpq_clear(x);
    mpfi_clear(lb);
    mpfi_clear(ld);
    mpfi_clear(lc);
    mpfi_clear(le0);
    mpfi_clear(t);
    mpfi_clear(u);
}

ul_status ul_ngd_nonconvex_deletion_eps(const ul_ngd_params *pb, const ul_num_precision *want,
                                        ul_num_value *out, ul_preconditions *pre,
                                        ul_num_report *rep, char *err, size_t errlen)
{
    ul_num_init();
    reading in;
    reading_init(&in);
    in.cap = ul_num_max_bits(want);
    unsigned need = BIT(F_LAMBDA) | BIT(F_BETA) | BIT(F_ETA) | BIT(F_Q) | BIT(F_LOGB) | BIT(F_D) |
                    BIT(F_N) | BIT(F_R) | BIT(F_KA) | BIT(F_KABAR);
    ul_status st = read_fields(&in, pb, need, BIT(F_SIGMA) | BIT(F_INIT), err, errlen);
    if (st == UL_OK && !in.set[F_SIGMA] && (in.set[F_INIT] || (pb->b != NULL && pb->log_B != NULL)))
        st = ul_fail(err, errlen, UL_EINPUT, "sigma: missing (needed to check %s)",
                     in.set[F_INIT] ? "init-var" : "b");
    if (st != UL_OK) {
        reading_clear(&in);
        return st;
    }
    if (pre != NULL)
        ul_pre_clear(pre);
    pre_52_shared(pre, &in, pb, false);
    ul_pre_add(pre, "eta_le_g22_bound", RULE_ETA_G22, state_eta_g22(&in));
    ul_pre_state s;
    if (mpq_sgn(Q(&in, F_ETA)) == 0 || mpq_sgn(Q(&in, F_KABAR)) == 0) {
        mpq_t one;
        mpq_init(one);
        mpq_set_ui(one, 1, 1);
        s = rat_less(Q(&in, F_Q), one); /* c = q */
        mpq_clear(one);
    } else {
        s = decide(&in, DEC_CONTRACTION);
    }
    ul_pre_add(pre, "contraction_lt_1",
               "c = q exp(-lambda eta K_Abar/(2B)) < 1, so the recursion of G.22, G.23 and B.4 "
               "stays bounded (docs/noisy-gd.md 'Derived formulas', [DERIVED])",
               s);
    st = evaluate(value_nonconvex, &in, NULL, want, out, rep, err, errlen);
    reading_clear(&in);
    return st;
}

/* ---- Thm 4.3 ------------------------------------------------------------------------ */

ul_status ul_ngd_adaptive_eps(const ul_ngd_params *pb, const ul_num_precision *want,
                              ul_num_value *out, ul_num_report *rep, char *err, size_t errlen)
{
    reading in;
    reading_init(&in);
    ul_status st = read_fields(&in, pb, BIT(F_EPS_DD) | BIT(F_EPS_DP) | BIT(F_P), 0, err, errlen);
    if (st == UL_OK) {
        /* eps_dd + p·eps_dp (Thm 4.3) */
        mpq_t v;
        mpq_init(v);
        mpq_mul(v, Q(&in, F_P), Q(&in, F_EPS_DP));
        mpq_add(v, v, Q(&in, F_EPS_DD));
        st = evaluate(value_rational, &in, v, want, out, rep, err, errlen);
        mpq_clear(v);
    }
    reading_clear(&in);
    return st;
}

ul_status ul_ngd_adaptive_eps_nonconvex(const ul_ngd_params *pb, ul_variant variant,
                                        const ul_num_precision *want, ul_num_value *out,
                                        ul_preconditions *pre, ul_num_report *rep, char *err,
                                        size_t errlen)
{
    reading in;
    reading_init(&in);
    ul_status st = read_fields(&in, pb,
                               BIT(F_EPS_DD) | BIT(F_Q) | BIT(F_L) | BIT(F_SIGMA) | BIT(F_ETA) |
                                   BIT(F_N) | BIT(F_KA) | BIT(F_KABAR) | BIT(F_P) | BIT(F_S),
                               0, err, errlen);
    if (st == UL_OK) {
        if (pre != NULL)
            ul_pre_clear(pre);
        pre_q(pre, &in);
        mpq_t v, steps;
        mpq_inits(v, steps, (mpq_ptr)0);
        mpq_set_ui(v, 1, 1);
        mpq_add(v, v, Q(&in, F_S));
        ul_pre_add(pre, "p_le_s_plus_1",
                   "the p observed releases have distinct indices among 0..s (Def 2.6)",
                   rat_leq(Q(&in, F_P), v));
        if (mpq_sgn(Q(&in, F_P)) == 0) {
            mpq_set_ui(steps, 0, 1);
        } else if (variant == UL_VARIANT_PRINTED) {
            /* p·G.7(max{K_A, K_Abar}): Thm 4.3 with Thm 5.2(1)'s eps_dp */
            rat_max(steps, Q(&in, F_KA), Q(&in, F_KABAR));
            mpq_mul(steps, steps, Q(&in, F_P));
        } else {
            /* G.7(K_A + s·K_Abar): every step up to release s (docs/noisy-gd.md erratum N2) */
            mpq_mul(steps, Q(&in, F_S), Q(&in, F_KABAR));
            mpq_add(steps, steps, Q(&in, F_KA));
        }
        rat_g7(v, &in, steps);
        mpq_add(v, v, Q(&in, F_EPS_DD));
        st = evaluate(value_rational, &in, v, want, out, rep, err, errlen);
        mpq_clears(v, steps, (mpq_ptr)0);
    }
    reading_clear(&in);
    return st;
}

/* ---- Thm 4.1 and 4.5 ----------------------------------------------------------------- */

void ul_ngd_mi_ceiling_enclose(mpfi_ptr out, mpfi_srcptr q, mpfi_srcptr eps)
{
    ul_num_init();
    mpfr_prec_t w = mpfi_get_prec(out) + 16;
    mpfi_t t1, t2, qm1, a;
    mpfi_init2(t1, w);
    mpfi_init2(t2, w);
    mpfi_init2(qm1, w);
    mpfi_init2(a, w);
    /* √(2ε) (Pinsker twice, eq. 38-39) */
    mpfi_mul_ui(t1, eps, 2);
    mpfi_sqrt(t1, t1);
    /* q e^{ε(q−1)/q} (2(q−1))^{1/q}/(q−1) − 1 = expm1(log q − log(q−1) + ε(q−1)/q
     * + log(2(q−1))/q)  (eq. 10) */
    mpfi_sub_ui(qm1, q, 1);
    mpfi_log(t2, q);
    mpfi_log(a, qm1);
    mpfi_sub(t2, t2, a);
    mpfi_mul(a, eps, qm1);
    mpfi_div(a, a, q);
    mpfi_add(t2, t2, a);
    mpfi_mul_ui(a, qm1, 2);
    mpfi_log(a, a);
    mpfi_div(a, a, q);
    mpfi_add(t2, t2, a);
    mpfi_expm1(t2, t2);
    ul_bounds_interval_min(t1, t1, t2);
    mpfi_set_ui(a, 1);
    ul_bounds_interval_min(t1, t1, a); /* an advantage never exceeds 1 */
    if (mpfr_sgn(&t1->left) < 0)
        mpfr_set_zero(&t1->left, 1); /* nor is this ceiling below 0 */
    mpfi_set(out, t1);
    mpfi_clear(t1);
    mpfi_clear(t2);
    mpfi_clear(qm1);
    mpfi_clear(a);
}

void ul_ngd_mi_threshold_enclose(mpfi_ptr out, mpfi_srcptr q, mpfi_srcptr delta)
{
    ul_num_init();
    mpfr_prec_t w = mpfi_get_prec(out) + 16;
    mpfi_t t1, t2, a, d2;
    mpfi_init2(t1, w);
    mpfi_init2(t2, w);
    mpfi_init2(a, w);
    mpfi_init2(d2, w);
    /* δ⁴/2 */
    mpfi_sqr(d2, delta);
    mpfi_sqr(t1, d2);
    mpfi_div_2ui(t1, t1, 1);
    /* log(q−1) + (q/(q−1))·(log(1+δ²) − log q − log 2/q)  (eq. 11) */
    mpfi_log1p(t2, d2);
    mpfi_log(a, q);
    mpfi_sub(t2, t2, a);
    mpfi_const_log2(a);
    mpfi_div(a, a, q);
    mpfi_sub(t2, t2, a);
    mpfi_mul(t2, t2, q);
    mpfi_sub_ui(a, q, 1);
    mpfi_div(t2, t2, a);
    mpfi_log(a, a);
    mpfi_add(t2, t2, a);
    ul_bounds_interval_max(t1, t1, t2);
    mpfi_set(out, t1);
    mpfi_clear(t1);
    mpfi_clear(t2);
    mpfi_clear(a);
    mpfi_clear(d2);
}

typedef struct {
    mpq_t a, b;
    void (*fn)(mpfi_ptr, mpfi_srcptr, mpfi_srcptr);
} two_args;

static void value_two_args(ul_num_value *out, const reading *in, const void *arg)
{
    (void)in;
    const two_args *t = arg;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure);
    mpfi_t a, b;
    mpfi_init2(a, p);
    mpfi_init2(b, p);
    mpfi_set_q(a, t->a);
    mpfi_set_q(b, t->b);
    t->fn(out->enclosure, a, b);
    out->is_log = false;
    mpfi_clear(a);
    mpfi_clear(b);
}

static ul_status mi_certified(void (*fn)(mpfi_ptr, mpfi_srcptr, mpfi_srcptr), const char *q,
                              const char *second, const char *second_name, const char *second_hi,
                              const ul_num_precision *want, ul_num_value *out, ul_num_report *rep,
                              char *err, size_t errlen)
{
    two_args t;
    t.fn = fn;
    mpq_inits(t.a, t.b, (mpq_ptr)0);
    ul_status st = read_text(t.a, "q", q, "1", true, UL_NGD_MAX_Q, false, false, err, errlen);
    if (st == UL_OK)
        st = read_text(t.b, second_name, second, "0", false, second_hi, false, false, err, errlen);
    if (st == UL_OK)
        st = evaluate(value_two_args, NULL, &t, want, out, rep, err, errlen);
    mpq_clears(t.a, t.b, (mpq_ptr)0);
    return st;
}

ul_status ul_ngd_mi_ceiling(const char *q, const char *eps, const ul_num_precision *want,
                            ul_num_value *out, ul_num_report *rep, char *err, size_t errlen)
{
    return mi_certified(ul_ngd_mi_ceiling_enclose, q, eps, "eps", UL_NGD_MAX_EPS, want, out, rep,
                        err, errlen);
}

ul_status ul_ngd_mi_threshold(const char *q, const char *delta, const ul_num_precision *want,
                              ul_num_value *out, ul_num_report *rep, char *err, size_t errlen)
{
    return mi_certified(ul_ngd_mi_threshold_enclose, q, delta, "delta", "1", want, out, rep, err,
                        errlen);
}

/* ---- Remark G.8 ------------------------------------------------------------------------ */

typedef struct {
    mpq_t K, eps, delta;
    unsigned long factor;
} abadi;

/* factor·√(K(ε − 2 log δ))/ε */
static void value_abadi(ul_num_value *out, const reading *in, const void *arg)
{
    (void)in;
    const abadi *a = arg;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure);
    mpfi_ptr v = out->enclosure;
    mpfi_t t;
    mpfi_init2(t, p);
    mpfi_set_q(v, a->delta);
    mpfi_log(v, v);
    mpfi_mul_si(v, v, -2);
    mpfi_set_q(t, a->eps);
    mpfi_add(v, v, t);
    mpfi_set_q(t, a->K);
    mpfi_mul(v, v, t);
    mpfi_sqrt(v, v);
    mpfi_mul_ui(v, v, a->factor);
    mpfi_set_q(t, a->eps);
    mpfi_div(v, v, t);
    out->is_log = false;
    mpfi_clear(t);
}

ul_status ul_ngd_abadi_sigmahat_min(const char *K, const char *eps, const char *delta,
                                    ul_variant variant, const ul_num_precision *want,
                                    ul_num_value *out, ul_num_report *rep, char *err, size_t errlen)
{
    abadi a;
    mpq_inits(a.K, a.eps, a.delta, (mpq_ptr)0);
    /* Remark G.8 prints factor 1; G.7 with 2ησ² = η²σ̂²L²/n² gives RDP 2qK/σ̂², and
     * 2qK/σ̂² ≤ ε/2 at q = 1 + (2/ε) log(1/δ) needs factor 2 (docs/noisy-gd.md erratum N12). */
    a.factor = variant == UL_VARIANT_PRINTED ? 1 : 2;
    ul_status st = read_text(a.K, "K", K, "0", false, UL_NGD_MAX_STEPS, false, true, err, errlen);
    if (st == UL_OK)
        st = read_text(a.eps, "eps", eps, "0", true, UL_NGD_MAX_EPS, false, false, err, errlen);
    if (st == UL_OK)
        st = read_text(a.delta, "delta", delta, "0", true, "1", true, false, err, errlen);
    if (st == UL_OK)
        st = evaluate(value_abadi, NULL, &a, want, out, rep, err, errlen);
    mpq_clears(a.K, a.eps, a.delta, (mpq_ptr)0);
    return st;
}
