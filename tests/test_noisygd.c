/* tests/test_noisygd.c — Noisy-GD learning and deletion (Chourasia & Shah,
 * arXiv:2210.08911, docs/noisy-gd.md): every theorem against hand derivations (in the
 * comments) and against the paper's formulas re-evaluated here in plain MPFR
 * at 512 bits (never through the library), every precondition violated one
 * at a time, monotonicity, and the printed/corrected pairs. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/noisygd.h"

static void setup(void)
{
    ul_num_init();
}

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(noisygd, .init = setup, .fini = teardown);

#define OB 512 /* oracle precision */

static const ul_num_precision WANT = {17, 0, 0};
static const ul_num_precision WANT40 = {40, 0, 0};

/* ---- helpers ----------------------------------------------------------------- */

/* A decimal read at the oracle precision. */
static void dec(mpfr_ptr x, const char *s)
{
    mpfr_init2(x, OB);
    mpfr_set_str(x, s, 10, MPFR_RNDN);
}

/* Asserts that the value (either form) contains exp(log_ref) or ref, within a
 * relative slack of 2^-400 for the oracle's own rounding. */
static void assert_contains_log(const ul_num_value *v, mpfr_srcptr log_ref, const char *what)
{
    mpfr_t lo, hi, tol;
    mpfr_inits2(OB, lo, hi, tol, (mpfr_ptr)0);
    mpfi_get_left(lo, v->enclosure);
    mpfi_get_right(hi, v->enclosure);
    if (!v->is_log) {
        mpfr_log(lo, lo, MPFR_RNDD);
        mpfr_log(hi, hi, MPFR_RNDU);
    }
    mpfr_abs(tol, log_ref, MPFR_RNDN);
    mpfr_add_ui(tol, tol, 1, MPFR_RNDN);
    mpfr_mul_2si(tol, tol, -400, MPFR_RNDN);
    mpfr_sub(lo, lo, tol, MPFR_RNDD);
    mpfr_add(hi, hi, tol, MPFR_RNDU);
    cr_assert(mpfr_lessequal_p(lo, log_ref) && mpfr_lessequal_p(log_ref, hi),
              "%s: enclosure misses the oracle", what);
    mpfr_clears(lo, hi, tol, (mpfr_ptr)0);
}

static void assert_contains(const ul_num_value *v, mpfr_srcptr ref, const char *what)
{
    mpfr_t l;
    mpfr_init2(l, OB);
    mpfr_log(l, ref, MPFR_RNDN);
    assert_contains_log(v, l, what);
    mpfr_clear(l);
}

/* The value's upper end (not in log form). */
static double hi_d(const ul_num_value *v)
{
    double h = mpfr_get_d(&v->enclosure->right, MPFR_RNDU);
    return v->is_log ? exp(h) : h;
}

static double lo_d(const ul_num_value *v)
{
    double l = mpfr_get_d(&v->enclosure->left, MPFR_RNDD);
    return v->is_log ? exp(l) : l;
}

/* Certified "value ≤ t" and "value > t" for a decimal t (read at 512 bits, far
 * finer than the gaps tested). */
static bool value_leq(const ul_num_value *v, const char *t)
{
    mpfr_t x;
    dec(x, t);
    if (v->is_log)
        mpfr_log(x, x, MPFR_RNDN);
    bool r = mpfr_lessequal_p(&v->enclosure->right, x);
    mpfr_clear(x);
    return r;
}

static bool value_gt(const ul_num_value *v, const char *t)
{
    mpfr_t x;
    dec(x, t);
    if (v->is_log)
        mpfr_log(x, x, MPFR_RNDN);
    bool r = mpfr_greater_p(&v->enclosure->left, x);
    mpfr_clear(x);
    return r;
}

static ul_pre_state state_of(const ul_preconditions *pre, const char *name)
{
    for (int i = 0; i < pre->count; i++)
        if (strcmp(pre->items[i].name, name) == 0)
            return pre->items[i].state;
    cr_assert_fail("precondition %s not listed", name);
    return UL_PRE_UNDECIDED;
}

static bool listed(const ul_preconditions *pre, const char *name)
{
    for (int i = 0; i < pre->count; i++)
        if (strcmp(pre->items[i].name, name) == 0)
            return true;
    return false;
}

/* Exactly `name` fails, every other item holds. */
static void assert_only_failure(const ul_preconditions *pre, const char *name)
{
    cr_assert(listed(pre, name), "%s not listed", name);
    for (int i = 0; i < pre->count; i++) {
        bool me = strcmp(pre->items[i].name, name) == 0;
        cr_assert_eq(pre->items[i].state, me ? UL_PRE_FAILS : UL_PRE_HOLDS,
                     "violating %s: %s is in state %d", name, pre->items[i].name,
                     pre->items[i].state);
    }
}

static void assert_all_hold(const ul_preconditions *pre)
{
    for (int i = 0; i < pre->count; i++)
        cr_assert_eq(pre->items[i].state, UL_PRE_HOLDS, "%s does not hold", pre->items[i].name);
}

/* ---- Thm G.7 -------------------------------------------------------------------- */

/* A convex reference problem used below. */
static ul_ngd_params base(void)
{
    ul_ngd_params pb = {0};
    pb.q = "2";
    pb.L = "1";
    pb.lambda = "1";
    pb.beta = "1";
    pb.sigma = "0.1";
    pb.eta = "0.25";
    pb.n = "100";
    pb.K = "10";
    pb.KAbar = "10";
    return pb;
}

Test(noisygd, g7_is_the_exact_rational)
{
    /* Hand: qL²ηK/(σ²n²) = 2·1·0.25·10/(0.01·10⁴) = 5/100 = 1/20. */
    ul_ngd_params pb = base();
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_preconditions pre;
    char err[256] = "";
    cr_assert_eq(ul_ngd_rdp_g7(&pb, &WANT, &v, &pre, NULL, err, sizeof err), UL_OK, "%s", err);
    mpfr_t ref;
    dec(ref, "0.05");
    assert_contains(&v, ref, "G.7");
    cr_assert(ul_num_value_narrow_enough(&v, 17));
    assert_all_hold(&pre);
    /* q = 1 is not a Rényi order of the theorem: the value is still the formula's */
    pb.q = "1";
    cr_assert_eq(ul_ngd_rdp_g7(&pb, &WANT, &v, &pre, NULL, err, sizeof err), UL_OK);
    assert_only_failure(&pre, "q_gt_1");
    mpfr_clear(ref);
    ul_num_value_clear(&v);
}

/* ---- Thm G.9 -------------------------------------------------------------------- */

/* Oracle: 4qL²/(λσ²n²)·(1 − exp(−ληK/2)) in plain MPFR. */
static void oracle_g9(mpfr_ptr out, const char *q, const char *L, const char *lambda,
                      const char *sigma, const char *n, const char *eta, const char *K)
{
    mpfr_t a, b;
    dec(a, lambda);
    dec(b, eta);
    mpfr_mul(a, a, b, MPFR_RNDN);
    mpfr_set_str(b, K, 10, MPFR_RNDN);
    mpfr_mul(a, a, b, MPFR_RNDN);
    mpfr_div_ui(a, a, 2, MPFR_RNDN);
    mpfr_neg(a, a, MPFR_RNDN);
    mpfr_exp(a, a, MPFR_RNDN);
    mpfr_ui_sub(a, 1, a, MPFR_RNDN); /* 1 − e^{−ληK/2} */
    mpfr_set_str(b, q, 10, MPFR_RNDN);
    mpfr_mul(a, a, b, MPFR_RNDN);
    mpfr_mul_ui(a, a, 4, MPFR_RNDN);
    mpfr_set_str(b, L, 10, MPFR_RNDN);
    mpfr_mul(a, a, b, MPFR_RNDN);
    mpfr_mul(a, a, b, MPFR_RNDN);
    mpfr_set_str(b, lambda, 10, MPFR_RNDN);
    mpfr_div(a, a, b, MPFR_RNDN);
    mpfr_set_str(b, sigma, 10, MPFR_RNDN);
    mpfr_div(a, a, b, MPFR_RNDN);
    mpfr_div(a, a, b, MPFR_RNDN);
    mpfr_set_str(b, n, 10, MPFR_RNDN);
    mpfr_div(a, a, b, MPFR_RNDN);
    mpfr_div(a, a, b, MPFR_RNDN);
    mpfr_set(out, a, MPFR_RNDN);
    mpfr_clears(a, b, (mpfr_ptr)0);
}

Test(noisygd, g9_matches_the_oracle_saturates_and_checks_eta_exactly)
{
    ul_ngd_params pb = base();
    ul_num_value v, w;
    ul_num_value_init(&v, 64);
    ul_num_value_init(&w, 64);
    ul_preconditions pre;
    char err[256] = "";
    mpfr_t ref;
    mpfr_init2(ref, OB);
    cr_assert_eq(ul_ngd_rdp_g9(&pb, &WANT, &v, &pre, NULL, err, sizeof err), UL_OK, "%s", err);
    oracle_g9(ref, "2", "1", "1", "0.1", "100", "0.25", "10");
    assert_contains(&v, ref, "G.9, K = 10");
    assert_all_hold(&pre);
    /* 1 − e^{−x} ≤ x gives G.9 ≤ 2·G.7 = 0.1 (hand: G.7 = 0.05 above) */
    cr_assert(hi_d(&v) <= 0.1);
    /* K absent: the saturation 4qL²/(λσ²n²) = 8/100 exactly */
    pb.K = NULL;
    cr_assert_eq(ul_ngd_rdp_g9(&pb, &WANT, &w, &pre, NULL, err, sizeof err), UL_OK);
    mpfr_set_str(ref, "0.08", 10, MPFR_RNDN);
    assert_contains(&w, ref, "G.9 saturation");
    cr_assert(hi_d(&v) < lo_d(&w));
    /* more noise never worsens: σ = 0.2 gives exactly a quarter */
    pb.sigma = "0.2";
    cr_assert_eq(ul_ngd_rdp_g9(&pb, &WANT, &w, &pre, NULL, err, sizeof err), UL_OK);
    mpfr_set_str(ref, "0.02", 10, MPFR_RNDN);
    assert_contains(&w, ref, "G.9 saturation at sigma 0.2");
    /* η(λ+β) = 1 exactly, twice: once with binary-exact inputs, once with
     * 0.1 + 0.9 (not binary fractions): both decided FAILS, not undecided */
    pb = base();
    pb.eta = "0.5";
    cr_assert_eq(ul_ngd_rdp_g9(&pb, &WANT, &v, &pre, NULL, err, sizeof err), UL_OK);
    assert_only_failure(&pre, "eta_lt_inv_lambda_plus_beta");
    pb.lambda = "0.1";
    pb.beta = "0.9";
    pb.eta = "1";
    cr_assert_eq(ul_ngd_rdp_g9(&pb, &WANT, &v, &pre, NULL, err, sizeof err), UL_OK);
    assert_only_failure(&pre, "eta_lt_inv_lambda_plus_beta");
    pb.eta = "0.999999999999999999999999";
    cr_assert_eq(ul_ngd_rdp_g9(&pb, &WANT, &v, &pre, NULL, err, sizeof err), UL_OK);
    assert_all_hold(&pre);
    pb = base();
    pb.q = "1";
    cr_assert_eq(ul_ngd_rdp_g9(&pb, &WANT, &v, &pre, NULL, err, sizeof err), UL_OK);
    assert_only_failure(&pre, "q_gt_1");
    mpfr_clear(ref);
    ul_num_value_clear(&v);
    ul_num_value_clear(&w);
}

/* ---- Thm G.15 -------------------------------------------------------------------- */

/* Oracle for G.15 as log ε:
 *   stated: log(4qL²/(λσ²n²)) − ηλK/2
 *   tight:  log(2qL²/(λσ²n²(1 − ηλ/2))) − ηλ(1 − ηλ/2)K  (proof of G.15). */
static void oracle_log_g15(mpfr_ptr out, bool tight, const char *q, const char *L,
                           const char *lambda, const char *sigma, const char *n, const char *eta,
                           const char *K)
{
    mpfr_t c, h, a, t;
    dec(c, q);
    dec(h, eta);
    dec(a, lambda);
    dec(t, L);
    mpfr_mul(h, h, a, MPFR_RNDN); /* ηλ */
    mpfr_mul(c, c, t, MPFR_RNDN);
    mpfr_mul(c, c, t, MPFR_RNDN);
    mpfr_div(c, c, a, MPFR_RNDN);
    mpfr_set_str(t, sigma, 10, MPFR_RNDN);
    mpfr_div(c, c, t, MPFR_RNDN);
    mpfr_div(c, c, t, MPFR_RNDN);
    mpfr_set_str(t, n, 10, MPFR_RNDN);
    mpfr_div(c, c, t, MPFR_RNDN);
    mpfr_div(c, c, t, MPFR_RNDN); /* qL²/(λσ²n²) */
    mpfr_set_str(t, K, 10, MPFR_RNDN);
    if (tight) {
        mpfr_div_ui(a, h, 2, MPFR_RNDN);
        mpfr_ui_sub(a, 1, a, MPFR_RNDN); /* 1 − ηλ/2 */
        mpfr_mul_ui(c, c, 2, MPFR_RNDN);
        mpfr_div(c, c, a, MPFR_RNDN);
        mpfr_mul(a, a, h, MPFR_RNDN);
    } else {
        mpfr_mul_ui(c, c, 4, MPFR_RNDN);
        mpfr_div_ui(a, h, 2, MPFR_RNDN);
    }
    mpfr_mul(a, a, t, MPFR_RNDN);
    mpfr_log(c, c, MPFR_RNDN);
    mpfr_sub(out, c, a, MPFR_RNDN);
    mpfr_clears(c, h, a, t, (mpfr_ptr)0);
}

static void g15(ul_num_value *v, const ul_ngd_params *pb, ul_ngd_g15_form form,
                ul_preconditions *pre)
{
    char err[256] = "";
    cr_assert_eq(ul_ngd_deletion_g15(pb, form, &WANT, v, pre, NULL, err, sizeof err), UL_OK, "%s",
                 err);
}

Test(noisygd, g15_both_forms_match_the_oracle_and_tight_is_below_stated)
{
    /* Hand (stated): 0.08·e^{−1.25} = 0.0229204; tight: 0.08/(2·0.875)·e^{−2.1875}
     * = 0.0457143·0.112208 = 0.0051290. */
    ul_ngd_params pb = base();
    ul_num_value t, s;
    ul_num_value_init(&t, 64);
    ul_num_value_init(&s, 64);
    ul_preconditions pre;
    mpfr_t ref;
    mpfr_init2(ref, OB);
    g15(&t, &pb, UL_NGD_G15_TIGHT, &pre);
    oracle_log_g15(ref, true, "2", "1", "1", "0.1", "100", "0.25", "10");
    assert_contains_log(&t, ref, "G.15 tight");
    cr_assert(t.is_log);
    assert_all_hold(&pre);
    cr_assert(!listed(&pre, "init_variance_prescribed"));
    g15(&s, &pb, UL_NGD_G15_STATED, &pre);
    oracle_log_g15(ref, false, "2", "1", "1", "0.1", "100", "0.25", "10");
    assert_contains_log(&s, ref, "G.15 stated");
    cr_assert(fabs(hi_d(&s) - 0.0229204) < 1e-7 && fabs(hi_d(&t) - 0.0051290) < 1e-7);
    cr_assert(mpfr_less_p(&t.enclosure->right, &s.enclosure->left));
    /* a long run: K = 10^9 steps, ε far below double range, still enclosed */
    pb.KAbar = "1000000000";
    g15(&t, &pb, UL_NGD_G15_TIGHT, &pre);
    oracle_log_g15(ref, true, "2", "1", "1", "0.1", "100", "0.25", "1000000000");
    assert_contains_log(&t, ref, "G.15 tight, K = 1e9");
    cr_assert(ul_num_value_narrow_enough(&t, 17));
    mpfr_clear(ref);
    ul_num_value_clear(&t);
    ul_num_value_clear(&s);
}

Test(noisygd, g15_is_monotone_in_steps_and_noise)
{
    static const char *ks[] = {"0", "1", "5", "40", "1000"};
    static const char *sigmas[] = {"0.05", "0.1", "0.3", "2"};
    for (int form = 0; form < 2; form++) {
        ul_num_value prev, cur;
        ul_num_value_init(&prev, 64);
        ul_num_value_init(&cur, 64);
        ul_ngd_params pb = base();
        for (size_t i = 0; i < 5; i++) {
            pb.KAbar = ks[i];
            g15(&cur, &pb, (ul_ngd_g15_form)form, NULL);
            if (i > 0)
                cr_assert(mpfr_less_p(&cur.enclosure->right, &prev.enclosure->left),
                          "more unlearning steps must lower the bound (K = %s)", ks[i]);
            mpfi_set_prec(prev.enclosure, mpfi_get_prec(cur.enclosure));
            mpfi_set(prev.enclosure, cur.enclosure);
        }
        pb = base();
        for (size_t i = 0; i < 4; i++) {
            pb.sigma = sigmas[i];
            g15(&cur, &pb, (ul_ngd_g15_form)form, NULL);
            if (i > 0)
                cr_assert(mpfr_less_p(&cur.enclosure->right, &prev.enclosure->left),
                          "more noise must lower the bound (sigma = %s)", sigmas[i]);
            mpfi_set_prec(prev.enclosure, mpfi_get_prec(cur.enclosure));
            mpfi_set(prev.enclosure, cur.enclosure);
        }
        ul_num_value_clear(&prev);
        ul_num_value_clear(&cur);
    }
}

Test(noisygd, g15_preconditions_one_at_a_time)
{
    /* init variance σ²/(λ(1 − ηλ/2)) = 0.01/(1·0.8) = 0.0125 at η = 0.4 */
    ul_ngd_params pb = base();
    pb.eta = "0.4";
    pb.init_var = "0.0125";
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_preconditions pre;
    g15(&v, &pb, UL_NGD_G15_TIGHT, &pre);
    cr_assert_eq(pre.count, 3);
    assert_all_hold(&pre);
    pb.init_var = "0.0125000000000000000000001";
    g15(&v, &pb, UL_NGD_G15_TIGHT, &pre);
    assert_only_failure(&pre, "init_variance_prescribed");
    pb.init_var = "0.0125";
    pb.q = "0.5";
    g15(&v, &pb, UL_NGD_G15_TIGHT, &pre);
    assert_only_failure(&pre, "q_gt_1");
    pb.q = "2";
    pb.eta = "0.5"; /* η(λ+β) = 1; init must follow η: 0.01/(1·0.75) is no decimal, drop it */
    pb.init_var = NULL;
    g15(&v, &pb, UL_NGD_G15_STATED, &pre);
    assert_only_failure(&pre, "eta_lt_inv_lambda_plus_beta");
    /* ηλ ≥ 2: the tight form is undefined, +inf; the stated one still evaluates */
    pb.eta = "2";
    g15(&v, &pb, UL_NGD_G15_TIGHT, &pre);
    cr_assert(mpfr_inf_p(&v.enclosure->left) && mpfr_sgn(&v.enclosure->left) > 0);
    cr_assert_eq(state_of(&pre, "eta_lt_inv_lambda_plus_beta"), UL_PRE_FAILS);
    ul_num_value_clear(&v);
}

Test(noisygd, g15_plateau_printed_understates_the_proof)
{
    /* Proof of G.15: phase-I plateau q·c2/c1 = 2qL²/(λσ²n²(1 − ηλ/2)); hand at the base
     * problem: 2·2/(1·0.01·10⁴·0.875) = 0.0457142857…  Figure 1 prints qL²/(λn²σ²) =
     * 0.02, smaller by 2/(1 − ηλ/2) ∈ (2, 4): the printed curve over-claims. */
    ul_ngd_params pb = base();
    ul_num_value c, p;
    ul_num_value_init(&c, 64);
    ul_num_value_init(&p, 64);
    char err[256] = "";
    cr_assert_eq(
        ul_ngd_g15_plateau(&pb, UL_VARIANT_CORRECTED, &WANT, &c, NULL, NULL, err, sizeof err),
        UL_OK);
    cr_assert_eq(
        ul_ngd_g15_plateau(&pb, UL_VARIANT_PRINTED, &WANT, &p, NULL, NULL, err, sizeof err), UL_OK);
    mpfr_t ref;
    dec(ref, "0.32");
    mpfr_div_ui(ref, ref, 7, MPFR_RNDN); /* 0.32/7 = 0.0457142857… */
    assert_contains(&c, ref, "plateau, corrected");
    mpfr_set_str(ref, "0.02", 10, MPFR_RNDN);
    assert_contains(&p, ref, "plateau, printed");
    double ratio = hi_d(&c) / hi_d(&p);
    cr_assert(ratio > 2 && ratio < 4);
    mpfr_clear(ref);
    ul_num_value_clear(&c);
    ul_num_value_clear(&p);
}

/* ---- least K_Abar (G.15) -------------------------------------------------------- */

/* Whether the oracle's G.15 at K is ≤ t. */
static bool oracle_g15_reaches(bool tight, const ul_ngd_params *pb, unsigned long K, const char *t)
{
    char ks[32];
    snprintf(ks, sizeof ks, "%lu", K);
    mpfr_t l, lt;
    mpfr_init2(l, OB);
    oracle_log_g15(l, tight, pb->q, pb->L, pb->lambda, pb->sigma, pb->n, pb->eta, ks);
    dec(lt, t);
    mpfr_log(lt, lt, MPFR_RNDN);
    bool r = mpfr_lessequal_p(l, lt);
    mpfr_clears(l, lt, (mpfr_ptr)0);
    return r;
}

Test(noisygd, least_kabar_reaches_the_target_and_one_less_does_not)
{
    /* Hand (stated): 0.08·e^{−K/8} ≤ 10⁻³ ⇔ K ≥ 8 ln 80 = 35.056 → 36.
     * Tight: 0.0457143·e^{−0.21875K} ≤ 10⁻³ ⇔ K ≥ ln(45.714)/0.21875 = 17.47 → 18. */
    ul_ngd_params pb = base();
    pb.eps_dd = "0.001";
    unsigned long k;
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_preconditions pre;
    ul_num_report rep;
    char err[256] = "";
    cr_assert_eq(ul_ngd_least_kabar_g15(&pb, UL_NGD_G15_STATED, 0, &WANT, &k, &v, &pre, &rep, err,
                                        sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(k, 36);
    cr_assert(oracle_g15_reaches(false, &pb, 36, "0.001") &&
              !oracle_g15_reaches(false, &pb, 35, "0.001"));
    cr_assert(hi_d(&v) <= 0.001);
    assert_all_hold(&pre);
    cr_assert_eq(ul_ngd_least_kabar_g15(&pb, UL_NGD_G15_TIGHT, 0, &WANT, &k, NULL, &pre, &rep, err,
                                        sizeof err),
                 UL_OK);
    cr_assert_eq(k, 18);
    cr_assert(oracle_g15_reaches(true, &pb, 18, "0.001") &&
              !oracle_g15_reaches(true, &pb, 17, "0.001"));
    /* a target already met at K = 0 (stated bound 0.08) */
    pb.eps_dd = "0.08";
    cr_assert_eq(ul_ngd_least_kabar_g15(&pb, UL_NGD_G15_STATED, 0, &WANT, &k, NULL, NULL, NULL, err,
                                        sizeof err),
                 UL_OK);
    cr_assert_eq(k, 0);
    /* a tiny step: K in the hundreds of billions, still exact */
    pb.eps_dd = "0.001";
    pb.eta = "0.000000000002"; /* a = ηλ/2 = 1e-12 */
    cr_assert_eq(ul_ngd_least_kabar_g15(&pb, UL_NGD_G15_STATED, 0, &WANT, &k, NULL, NULL, NULL, err,
                                        sizeof err),
                 UL_OK, "%s", err);
    cr_assert(oracle_g15_reaches(false, &pb, k, "0.001") &&
              !oracle_g15_reaches(false, &pb, k - 1, "0.001"));
    cr_assert(k > 4000000000000UL && k < 5000000000000UL); /* 1e12·ln 80 = 4.38e12 */
    /* η = 0 never gets there; a cap below the answer is reported */
    pb.eta = "0";
    cr_assert_eq(ul_ngd_least_kabar_g15(&pb, UL_NGD_G15_STATED, 0, &WANT, &k, NULL, NULL, NULL, err,
                                        sizeof err),
                 UL_ENOROOT);
    pb.eta = "0.25";
    cr_assert_eq(ul_ngd_least_kabar_g15(&pb, UL_NGD_G15_STATED, 30, &WANT, &k, NULL, NULL, NULL,
                                        err, sizeof err),
                 UL_ENOROOT);
    pb.eps_dd = "0";
    cr_assert_eq(ul_ngd_least_kabar_g15(&pb, UL_NGD_G15_STATED, 0, &WANT, &k, NULL, NULL, NULL, err,
                                        sizeof err),
                 UL_EINPUT);
    cr_assert(strstr(err, "eps-dd") != NULL);
    ul_num_value_clear(&v);
}

Test(noisygd, least_kabar_agrees_with_thm51_closed_form)
{
    /* With Thm 5.1's η = 1/(2(λ+β)) and σ² = 4qL²/(λ·eps_dp·n²), (111) becomes
     * K_Abar ≥ 4κ log(eps_dp/eps_dd) (proof of 5.1(2)).  Hand-picked so that σ is a
     * decimal: λ = 8, β = 24 (κ = 4, η = 1/64), q = 2, L = 1, eps_dp = 1, n = 10:
     * σ² = 8/(8·100) = 0.01, σ = 0.1.  eps_dd = 0.01: 16 ln 100 = 73.68 → 74. */
    ul_ngd_params g = {0};
    g.q = "2";
    g.L = "1";
    g.lambda = "8";
    g.beta = "24";
    g.sigma = "0.1";
    g.eta = "0.015625";
    g.n = "10";
    g.eps_dd = "0.01";
    ul_ngd_params t = g;
    t.eps_dp = "1";
    unsigned long k1, k2;
    char err[256] = "";
    cr_assert_eq(ul_ngd_least_kabar_g15(&g, UL_NGD_G15_STATED, 0, &WANT, &k1, NULL, NULL, NULL, err,
                                        sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(ul_ngd_thm51_least_k(&t, UL_NGD_51_KABAR_DELETION, UL_VARIANT_CORRECTED, &k2, NULL,
                                      NULL, err, sizeof err),
                 UL_OK, "%s", err);
    /* 16 ln 100 = 73.68 → 74 */
    cr_assert_eq(k1, 74);
    cr_assert_eq(k2, 74);
}

/* ---- the smallest σ -------------------------------------------------------------- */

/* sigma as decimal text, rounded in direction rnd. */
static char *sigma_text(mpfr_srcptr x, mpfr_rnd_t rnd)
{
    return ul_num_format(x, 40, rnd);
}

static void check_sigma_kind(ul_ngd_sigma_kind kind, ul_ngd_g15_form form, mpfr_srcptr sigma_star)
{
    ul_ngd_params pb = base();
    pb.eps_dp = "1";
    pb.eps_dd = "0.001";
    mpfi_t s;
    mpfi_init2(s, 64);
    ul_num_report rep;
    char err[256] = "";
    cr_assert_eq(ul_ngd_sigma_min(&pb, kind, form, &WANT, s, NULL, &rep, err, sizeof err), UL_OK,
                 "%s", err);
    cr_assert(mpfr_lessequal_p(&s->left, sigma_star) && mpfr_lessequal_p(sigma_star, &s->right),
              "kind %d: sigma* outside", kind);
    /* the upper end is safe and the lower end unsafe, re-checked through the forward
     * bounds from decimal text (rounded outward) */
    ul_num_value v;
    ul_num_value_init(&v, 64);
    char *hi = sigma_text(&s->right, MPFR_RNDU), *lo = sigma_text(&s->left, MPFR_RNDD);
    for (int side = 0; side < 2; side++) {
        pb.sigma = side == 0 ? hi : lo;
        ul_status st;
        const char *target;
        if (kind == UL_NGD_SIGMA_G7) {
            st = ul_ngd_rdp_g7(&pb, &WANT40, &v, NULL, NULL, err, sizeof err);
            target = "1";
        } else if (kind == UL_NGD_SIGMA_G9) {
            st = ul_ngd_rdp_g9(&pb, &WANT40, &v, NULL, NULL, err, sizeof err);
            target = "1";
        } else {
            st = ul_ngd_deletion_g15(&pb, form, &WANT40, &v, NULL, NULL, err, sizeof err);
            target = "0.001";
        }
        cr_assert_eq(st, UL_OK, "%s", err);
        if (side == 0)
            cr_assert(value_leq(&v, target), "kind %d: upper end not safe", kind);
        else
            cr_assert(value_gt(&v, target), "kind %d: lower end not unsafe", kind);
    }
    free(hi);
    free(lo);
    ul_num_value_clear(&v);
    mpfi_clear(s);
}

Test(noisygd, sigma_min_for_each_bound)
{
    /* G.7 hand: σ*² = qL²ηK/(eps_dp n²) = 2·0.25·10/10⁴ = 5·10⁻⁴. */
    mpfr_t star, t;
    dec(star, "0.0005");
    mpfr_sqrt(star, star, MPFR_RNDN);
    check_sigma_kind(UL_NGD_SIGMA_G7, 0, star);
    /* G.9: σ*² = (4qL²/(λn²))(1 − e^{−ληK/2})/eps_dp = 8·10⁻⁴·(1 − e^{−1.25}) */
    dec(t, "-1.25");
    mpfr_expm1(t, t, MPFR_RNDN);
    mpfr_neg(t, t, MPFR_RNDN);
    mpfr_set_str(star, "0.0008", 10, MPFR_RNDN);
    mpfr_mul(star, star, t, MPFR_RNDN);
    mpfr_sqrt(star, star, MPFR_RNDN);
    check_sigma_kind(UL_NGD_SIGMA_G9, 0, star);
    /* G.15 stated: σ*² = (4qL²/(λn²)) e^{−ηλK/2}/eps_dd = 8·10⁻⁴·e^{−1.25}/10⁻³ */
    mpfr_set_str(star, "-1.25", 10, MPFR_RNDN);
    mpfr_exp(star, star, MPFR_RNDN);
    mpfr_set_str(t, "0.8", 10, MPFR_RNDN);
    mpfr_mul(star, star, t, MPFR_RNDN);
    mpfr_sqrt(star, star, MPFR_RNDN);
    check_sigma_kind(UL_NGD_SIGMA_G15, UL_NGD_G15_STATED, star);
    /* G.15 tight: σ*² = 2qL²/(λn²(1 − ηλ/2)) e^{−ηλ(1−ηλ/2)K}/eps_dd
     *              = (4/8.75)·e^{−2.1875} */
    mpfr_set_str(star, "-2.1875", 10, MPFR_RNDN);
    mpfr_exp(star, star, MPFR_RNDN);
    mpfr_set_str(t, "8.75", 10, MPFR_RNDN);
    mpfr_div(star, star, t, MPFR_RNDN);
    mpfr_mul_ui(star, star, 4, MPFR_RNDN);
    mpfr_sqrt(star, star, MPFR_RNDN);
    check_sigma_kind(UL_NGD_SIGMA_G15, UL_NGD_G15_TIGHT, star);
    /* L = 0: every σ > 0 works */
    ul_ngd_params pb = base();
    pb.L = "0";
    pb.eps_dp = "1";
    mpfi_t s;
    mpfi_init2(s, 64);
    char err[256] = "";
    cr_assert_eq(ul_ngd_sigma_min(&pb, UL_NGD_SIGMA_G7, 0, &WANT, s, NULL, NULL, err, sizeof err),
                 UL_OK);
    cr_assert(mpfi_is_zero(s));
    mpfi_clear(s);
    mpfr_clears(star, t, (mpfr_ptr)0);
}

/* ---- Thm 5.1 -------------------------------------------------------------------- */

static ul_ngd_params thm51_base(void)
{
    ul_ngd_params pb = {0};
    pb.lambda = "1";
    pb.beta = "3";
    pb.L = "1";
    pb.q = "2";
    pb.eps_dp = "1";
    pb.eps_dd = "0.1";
    pb.n = "1000";
    pb.d = "10";
    pb.r = "1";
    return pb;
}

static void q51(ul_num_value *v, const ul_ngd_params *pb, ul_ngd_51_quantity w, ul_variant var,
                ul_preconditions *pre)
{
    char err[256] = "";
    cr_assert_eq(ul_ngd_thm51(pb, w, var, &WANT, v, pre, NULL, err, sizeof err), UL_OK, "%s", err);
}

Test(noisygd, thm51_prescriptions_and_bounds_by_hand)
{
    /* λ = 1, β = 3 (κ = 4), L = 1, q = 2, eps_dp = 1, eps_dd = 0.1, n = 1000, d = 10,
     * r = 1.  Hand: η = 1/8; σ² = 4·2/(10⁶) = 8·10⁻⁶; init variance
     * σ²/(λ(1 − ηλ/2)) = 8·10⁻⁶/(15/16) = 128/15·10⁻⁶; deletion K ≥ 16 ln 10; K_A ≥
     * 16 ln(10⁶/80); K_Abar(utility) ≥ 16 ln max{20, 8/20} = 16 ln 20; risk
     * 10·4·2·10/10⁶ = 8·10⁻⁴. */
    ul_ngd_params pb = thm51_base();
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_preconditions pre;
    mpfr_t ref, t;
    mpfr_init2(ref, OB);
    mpfr_init2(t, OB);
    q51(&v, &pb, UL_NGD_51_ETA, UL_VARIANT_CORRECTED, &pre);
    mpfr_set_d(ref, 0.125, MPFR_RNDN);
    assert_contains(&v, ref, "eta");
    assert_all_hold(&pre);
    q51(&v, &pb, UL_NGD_51_SIGMA2, UL_VARIANT_CORRECTED, NULL);
    mpfr_set_str(ref, "8e-6", 10, MPFR_RNDN);
    assert_contains(&v, ref, "sigma^2");
    q51(&v, &pb, UL_NGD_51_SIGMA, UL_VARIANT_CORRECTED, NULL);
    mpfr_sqrt(ref, ref, MPFR_RNDN);
    assert_contains(&v, ref, "sigma");
    q51(&v, &pb, UL_NGD_51_INIT_VAR, UL_VARIANT_CORRECTED, NULL);
    mpfr_set_str(ref, "128e-6", 10, MPFR_RNDN);
    mpfr_div_ui(ref, ref, 15, MPFR_RNDN);
    assert_contains(&v, ref, "init variance");
    q51(&v, &pb, UL_NGD_51_KAPPA, UL_VARIANT_CORRECTED, NULL);
    mpfr_set_ui(ref, 4, MPFR_RNDN);
    assert_contains(&v, ref, "kappa");
    q51(&v, &pb, UL_NGD_51_KABAR_DELETION, UL_VARIANT_CORRECTED, NULL);
    mpfr_set_ui(ref, 10, MPFR_RNDN);
    mpfr_log(ref, ref, MPFR_RNDN);
    mpfr_mul_ui(ref, ref, 16, MPFR_RNDN);
    assert_contains(&v, ref, "K_Abar deletion");
    q51(&v, &pb, UL_NGD_51_KA_UTILITY, UL_VARIANT_CORRECTED, NULL);
    mpfr_set_ui(ref, 12500, MPFR_RNDN);
    mpfr_log(ref, ref, MPFR_RNDN);
    mpfr_mul_ui(ref, ref, 16, MPFR_RNDN);
    assert_contains(&v, ref, "K_A utility");
    q51(&v, &pb, UL_NGD_51_KABAR_UTILITY, UL_VARIANT_CORRECTED, NULL);
    mpfr_set_ui(t, 20, MPFR_RNDN);
    mpfr_log(t, t, MPFR_RNDN);
    mpfr_mul_ui(t, t, 16, MPFR_RNDN);
    assert_contains(&v, t, "K_Abar utility");
    q51(&v, &pb, UL_NGD_51_KABAR_BOTH, UL_VARIANT_CORRECTED, NULL);
    assert_contains(&v, t, "K_Abar both (utility dominates: 16 ln 20 > 16 ln 10)");
    q51(&v, &pb, UL_NGD_51_RISK, UL_VARIANT_CORRECTED, NULL);
    mpfr_set_str(ref, "8e-4", 10, MPFR_RNDN);
    assert_contains(&v, ref, "risk");
    /* least whole numbers: 36.84 → 37, 150.94 → 151, 47.93 → 48 */
    unsigned long k;
    char err[256] = "";
    static const struct {
        ul_ngd_51_quantity w;
        unsigned long k;
    } least[] = {{UL_NGD_51_KABAR_DELETION, 37},
                 {UL_NGD_51_KA_UTILITY, 151},
                 {UL_NGD_51_KABAR_UTILITY, 48},
                 {UL_NGD_51_KABAR_BOTH, 48}};
    for (size_t i = 0; i < 4; i++) {
        cr_assert_eq(ul_ngd_thm51_least_k(&pb, least[i].w, UL_VARIANT_CORRECTED, &k, NULL, NULL,
                                          err, sizeof err),
                     UL_OK, "%s", err);
        cr_assert_eq(k, least[i].k, "quantity %d: %lu", least[i].w, k);
    }
    /* a tiny budget ratio: eps_dp n² < 4qd gives K_A ≥ 0 */
    pb.n = "2";
    cr_assert_eq(ul_ngd_thm51_least_k(&pb, UL_NGD_51_KA_UTILITY, UL_VARIANT_CORRECTED, &k, NULL,
                                      NULL, err, sizeof err),
                 UL_OK);
    cr_assert_eq(k, 0);
    cr_assert_eq(ul_ngd_thm51_least_k(&pb, UL_NGD_51_RISK, UL_VARIANT_CORRECTED, &k, NULL, NULL,
                                      err, sizeof err),
                 UL_EINPUT);
    mpfr_clears(ref, t, (mpfr_ptr)0);
    ul_num_value_clear(&v);
}

/* The excess-risk recursion of the proof of Thm 5.1(3) (G.16 + G.17), base case:
 *   e_0 ≤ κ[L²/(2λ) + dσ²]·e^{−ληK_A/2} + κdσ²,  with λη/2 = 1/(4κ). */
static double risk_e0(double kappa, double L, double lambda, double d, double s2, double ka)
{
    return kappa * (L * L / (2 * lambda) + d * s2) * exp(-ka / (4 * kappa)) + kappa * d * s2;
}

/* One induction step: e_i ≤ κ[2e_{i−1} + 16r²L²/(λn²)]·e^{−K_Abar/(4κ)} + κdσ². */
static double risk_step(double e, double kappa, double L, double lambda, double d, double s2,
                        double r, double n, double kabar)
{
    return kappa * (2 * e + 16 * r * r * L * L / (lambda * n * n)) * exp(-kabar / (4 * kappa)) +
           kappa * d * s2;
}

Test(noisygd, thm51_printed_utility_bounds_overclaim)
{
    /* The proof's text asks K_A ≥ 2κ log(eps_dp n²/(4qd)) and K_Abar ≥ 2κ log max{5κ,
     * 8r²/(qd)} (docs/noisy-gd.md erratum N10).  At those K the proof's own recursion does not
     * reach its claimed risk 10κqdL²/(λ eps_dp n²) = 8·10⁻⁴; at the statement's it
     * does.  (Doubles suffice: the margins are factors of 20 and 2.) */
    ul_ngd_params pb = thm51_base();
    unsigned long ka_p, ka_c, kb_p, kb_c;
    char err[256] = "";
    cr_assert_eq(ul_ngd_thm51_least_k(&pb, UL_NGD_51_KA_UTILITY, UL_VARIANT_PRINTED, &ka_p, NULL,
                                      NULL, err, sizeof err),
                 UL_OK);
    cr_assert_eq(ul_ngd_thm51_least_k(&pb, UL_NGD_51_KA_UTILITY, UL_VARIANT_CORRECTED, &ka_c, NULL,
                                      NULL, err, sizeof err),
                 UL_OK);
    cr_assert_eq(ka_p, 76); /* 8 ln 12500 = 75.47 */
    double bound = 8e-4, kappa = 4, s2 = 8e-6;
    double e_p = risk_e0(kappa, 1, 1, 10, s2, (double)ka_p);
    double e_c = risk_e0(kappa, 1, 1, 10, s2, (double)ka_c);
    cr_assert(e_p > 10 * bound, "printed K_A = %lu gives %g", ka_p, e_p);
    cr_assert(e_c <= bound, "corrected K_A = %lu gives %g", ka_c, e_c);
    /* the K_Abar term 8·eps_dp·r²/(qd) vs 8r²/(qd): with eps_dp = 8 and r = 100 the
     * statement asks for 4κ ln(8·8·10⁴/20) (= 16 ln 32000) and the proof text for
     * 2κ ln(8·10⁴/20) (= 8 ln 4000); one induction step from the claimed risk level
     * overshoots it at the printed K_Abar and not at the statement's. */
    pb.eps_dp = "8";
    pb.eps_dd = "1";
    pb.r = "100";
    cr_assert_eq(ul_ngd_thm51_least_k(&pb, UL_NGD_51_KABAR_UTILITY, UL_VARIANT_PRINTED, &kb_p, NULL,
                                      NULL, err, sizeof err),
                 UL_OK);
    cr_assert_eq(ul_ngd_thm51_least_k(&pb, UL_NGD_51_KABAR_UTILITY, UL_VARIANT_CORRECTED, &kb_c,
                                      NULL, NULL, err, sizeof err),
                 UL_OK);
    cr_assert_eq(kb_p, 67);                                 /* 8 ln 4000 = 66.35 */
    cr_assert_eq(kb_c, 166);                                /* 16 ln 32000 = 165.98 */
    double level = 10 * kappa * 2 * 10 * 1 / (1 * 8 * 1e6); /* 10κqdL²/(λ eps_dp n²) = 1e-4 */
    double s2b = 4.0 * 2 / (8 * 1e6);                       /* σ² = 4qL²/(λ eps_dp n²) */
    cr_assert(risk_step(level, kappa, 1, 1, 10, s2b, 100, 1000, (double)kb_p) > level);
    cr_assert(risk_step(level, kappa, 1, 1, 10, s2b, 100, 1000, (double)kb_c) <= level);
}

Test(noisygd, thm51_preconditions_one_at_a_time)
{
    static const struct {
        const char *field, *value, *name;
    } cases[] = {
        {"beta", "0", "beta_pos"},
        {"L", "0", "L_pos"},
        {"q", "1", "q_gt_1"},
        {"eps_dd", "0", "eps_dd_pos"},
        {"eps_dd", "2", "eps_dd_le_eps_dp"},
        {"r", "1001", "r_le_n"},
    };
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_preconditions pre;
    ul_ngd_params pb = thm51_base();
    q51(&v, &pb, UL_NGD_51_KABAR_BOTH, UL_VARIANT_CORRECTED, &pre);
    assert_all_hold(&pre);
    cr_assert(listed(&pre, "lambda_pos"));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pb = thm51_base();
        if (strcmp(cases[i].field, "beta") == 0)
            pb.beta = cases[i].value;
        else if (strcmp(cases[i].field, "L") == 0)
            pb.L = cases[i].value;
        else if (strcmp(cases[i].field, "q") == 0)
            pb.q = cases[i].value;
        else if (strcmp(cases[i].field, "eps_dd") == 0)
            pb.eps_dd = cases[i].value;
        else
            pb.r = cases[i].value;
        q51(&v, &pb, UL_NGD_51_KABAR_BOTH, UL_VARIANT_CORRECTED, &pre);
        assert_only_failure(&pre, cases[i].name);
    }
    /* lambda > 0 is also the domain of the formulas: an input error naming it */
    pb = thm51_base();
    pb.lambda = "0";
    char err[256] = "";
    cr_assert_eq(ul_ngd_thm51(&pb, UL_NGD_51_ETA, UL_VARIANT_CORRECTED, &WANT, &v, &pre, NULL, err,
                              sizeof err),
                 UL_EINPUT);
    cr_assert(strncmp(err, "lambda:", 7) == 0, "%s", err);
    ul_num_value_clear(&v);
}

/* ---- Thm 5.2 -------------------------------------------------------------------- */

/* λ = β = 1, L = 1, σ = 0.5, q = 2, log B = 2, eps_dd = 0.5, eps_dp = 1, d = 2,
 * n = 1000, r = 1, η = 10⁻⁵.  Hand: 2B/(λη) = 2e²·10⁵ = 1477811.2; K_A ≥ that ×
 * ln(q log B/eps_dd) = ln 8, i.e. 3073022.04 → 3073023; X = log B/(2(eps_dd + (r/n)
 * log B)) = 2/1.004 = 1.99203; the sufficient K_Abar is ×ln(2q(eps_dd + 0.002)/eps_dd)
 * = ln 4.016. */
static ul_ngd_params thm52_base(void)
{
    ul_ngd_params pb = {0};
    pb.lambda = "1";
    pb.beta = "1";
    pb.L = "1";
    pb.sigma = "0.5";
    pb.q = "2";
    pb.log_B = "2";
    pb.eps_dd = "0.5";
    pb.eps_dp = "1";
    pb.d = "2";
    pb.n = "1000";
    pb.r = "1";
    pb.eta = "0.00001";
    pb.KA = "3073023";
    pb.KAbar = "2054582"; /* 3073023 − 2B/(λη)·ln(2/1.004) = 2054581.4 */
    return pb;
}

/* log(2B/(λη)) + log log y at log B = lb (oracle, plain MPFR). */
static void oracle_log_2B_log(mpfr_ptr out, const char *lb, const char *lambda_eta, mpfr_srcptr y)
{
    mpfr_t a, b;
    dec(a, lambda_eta);
    mpfr_ui_div(a, 2, a, MPFR_RNDN);
    mpfr_log(a, a, MPFR_RNDN);
    dec(b, lb);
    mpfr_add(a, a, b, MPFR_RNDN);
    mpfr_log(b, y, MPFR_RNDN);
    mpfr_log(b, b, MPFR_RNDN);
    mpfr_add(out, a, b, MPFR_RNDN);
    mpfr_clears(a, b, (mpfr_ptr)0);
}

static void q52(ul_num_value *v, const ul_ngd_params *pb, ul_ngd_52_quantity w)
{
    char err[256] = "";
    cr_assert_eq(ul_ngd_thm52(pb, w, &WANT, v, NULL, err, sizeof err), UL_OK, "%s", err);
}

Test(noisygd, thm52_bounds_match_the_oracle)
{
    ul_ngd_params pb = thm52_base();
    ul_num_value v;
    ul_num_value_init(&v, 64);
    mpfr_t ref, y, t;
    mpfr_inits2(OB, ref, y, t, (mpfr_ptr)0);
    q52(&v, &pb, UL_NGD_52_KA_MIN);
    mpfr_set_ui(y, 8, MPFR_RNDN);
    oracle_log_2B_log(ref, "2", "0.00001", y);
    assert_contains_log(&v, ref, "K_A bound");
    cr_assert(fabs(hi_d(&v) - 3073022.04) < 0.01);
    q52(&v, &pb, UL_NGD_52_KABAR_SUFFICIENT);
    mpfr_set_str(y, "4.016", 10, MPFR_RNDN);
    oracle_log_2B_log(ref, "2", "0.00001", y);
    assert_contains_log(&v, ref, "sufficient K_Abar bound");
    /* K_Abar bound at K_A = 3073023: K_A − 2B/(λη)·ln(2/1.004) */
    q52(&v, &pb, UL_NGD_52_KABAR_MIN);
    mpfr_set_str(y, "2", 10, MPFR_RNDN);
    mpfr_set_str(t, "1.004", 10, MPFR_RNDN);
    mpfr_div(y, y, t, MPFR_RNDN);
    oracle_log_2B_log(ref, "2", "0.00001", y);
    mpfr_exp(ref, ref, MPFR_RNDN);
    mpfr_ui_sub(ref, 3073023, ref, MPFR_RNDN);
    assert_contains(&v, ref, "K_Abar bound at the given K_A");
    /* step-size bounds: λ eps_dd/(64dqB(β+λ)²) = 0.5/(1024 e²), λ/(64Bq²(β+λ)²) =
     * 1/(1024 e²) */
    q52(&v, &pb, UL_NGD_52_ETA_MAX);
    mpfr_set_si(ref, -2, MPFR_RNDN);
    mpfr_exp(ref, ref, MPFR_RNDN);
    mpfr_div_ui(ref, ref, 2048, MPFR_RNDN);
    assert_contains(&v, ref, "printed eta bound");
    q52(&v, &pb, UL_NGD_52_ETA_MAX_G22);
    mpfr_mul_ui(ref, ref, 2, MPFR_RNDN);
    assert_contains(&v, ref, "G.22 eta bound");
    /* (18): qL²η max{K_A, K_Abar}/(eps_dp n²) = 2·10⁻⁵·3073023/10⁶ */
    q52(&v, &pb, UL_NGD_52_SIGMA2_MIN);
    mpfr_set_str(ref, "6.146046e-5", 10, MPFR_RNDN);
    assert_contains(&v, ref, "sigma^2 bound");
    /* (162) and (146), term by term with B = e² */
    mpfr_t B, lk, term;
    mpfr_inits2(OB, B, lk, term, (mpfr_ptr)0);
    mpfr_set_ui(B, 2, MPFR_RNDN);
    mpfr_exp(B, B, MPFR_RNDN);
    mpfr_set_ui(lk, 2, MPFR_RNDN);
    mpfr_log(lk, lk, MPFR_RNDN); /* log((β+λ)/λ) = log 2 */
    mpfr_sqrt(t, B, MPFR_RNDN);  /* √B */
    mpfr_add(term, lk, t, MPFR_RNDN);
    mpfr_mul_d(term, term, 0.25, MPFR_RNDN); /* dσ²/2 = 2·0.25/2 */
    q52(&v, &pb, UL_NGD_52_GIBBS_RISK);
    assert_contains(&v, term, "G.24 risk");
    mpfr_mul_ui(t, t, 2, MPFR_RNDN);
    mpfr_add(ref, lk, t, MPFR_RNDN);
    mpfr_mul_d(ref, ref, 0.25, MPFR_RNDN);
    mpfr_mul_ui(term, B, 2, MPFR_RNDN); /* Lσ√(2 eps_dd B/λ) = 0.5·√(B) */
    mpfr_mul_d(term, term, 0.5, MPFR_RNDN);
    mpfr_sqrt(term, term, MPFR_RNDN);
    mpfr_mul_d(term, term, 0.5, MPFR_RNDN);
    mpfr_add(ref, ref, term, MPFR_RNDN);
    mpfr_mul_d(term, B, 0.5 * 0.25 * 3, MPFR_RNDN); /* eps_dd Bσ²(2λ+β)/λ */
    mpfr_add(ref, ref, term, MPFR_RNDN);
    q52(&v, &pb, UL_NGD_52_RISK);
    assert_contains(&v, ref, "risk (162)");
    /* the loss bound b instead of log B: b = σ² log B/4 = 0.125 is the same problem */
    pb.log_B = NULL;
    pb.b = "0.125";
    q52(&v, &pb, UL_NGD_52_KA_MIN);
    mpfr_set_ui(y, 8, MPFR_RNDN);
    oracle_log_2B_log(ref, "2", "0.00001", y);
    assert_contains_log(&v, ref, "K_A bound from b");
    mpfr_clears(B, lk, term, ref, y, t, (mpfr_ptr)0);
    ul_num_value_clear(&v);
}

Test(noisygd, thm52_astronomical_B_stays_in_log_form)
{
    /* log B = 10⁹ (B = e^{10⁹}, never formed): K_A ≥ (2B/(λη)) ln(2·10⁹/0.5). */
    ul_ngd_params pb = thm52_base();
    pb.log_B = "1e9";
    ul_num_value v;
    ul_num_value_init(&v, 64);
    q52(&v, &pb, UL_NGD_52_KA_MIN);
    mpfr_t ref, y;
    mpfr_inits2(OB, ref, y, (mpfr_ptr)0);
    mpfr_set_str(y, "4e9", 10, MPFR_RNDN);
    oracle_log_2B_log(ref, "1e9", "0.00001", y);
    assert_contains_log(&v, ref, "K_A bound, log B = 1e9");
    cr_assert(ul_num_value_narrow_enough(&v, 17));
    unsigned long k;
    char err[256] = "";
    cr_assert_eq(ul_ngd_thm52_least_k(&pb, UL_NGD_52_KA_MIN, &k, NULL, err, sizeof err),
                 UL_ENOROOT);
    /* b = 1 with σ² = 10⁻⁶ is log B = 4·10⁶ */
    pb.log_B = NULL;
    pb.b = "1";
    pb.sigma = "0.001";
    q52(&v, &pb, UL_NGD_52_ETA_MAX_G22);
    mpfr_set_str(ref, "-4e6", 10, MPFR_RNDN);
    mpfr_set_ui(y, 1024, MPFR_RNDN);
    mpfr_log(y, y, MPFR_RNDN);
    mpfr_sub(ref, ref, y, MPFR_RNDN); /* log(1/(1024 B)) */
    assert_contains_log(&v, ref, "G.22 eta bound, log B = 4e6");
    mpfr_clears(ref, y, (mpfr_ptr)0);
    ul_num_value_clear(&v);
}

static ul_preconditions check52(const ul_ngd_params *pb, ul_ngd_52_part part, ul_variant var)
{
    ul_preconditions pre;
    char err[256] = "";
    cr_assert_eq(ul_ngd_thm52_check(pb, part, var, &pre, err, sizeof err), UL_OK, "%s", err);
    return pre;
}

Test(noisygd, thm52_least_k_are_exactly_the_thresholds_of_the_check)
{
    ul_ngd_params pb = thm52_base();
    unsigned long ka, kb;
    char err[256] = "";
    cr_assert_eq(ul_ngd_thm52_least_k(&pb, UL_NGD_52_KA_MIN, &ka, NULL, err, sizeof err), UL_OK,
                 "%s", err);
    cr_assert_eq(ka, 3073023);
    char buf[32], bufb[32];
    snprintf(buf, sizeof buf, "%lu", ka);
    pb.KA = buf;
    cr_assert_eq(ul_ngd_thm52_least_k(&pb, UL_NGD_52_KABAR_MIN, &kb, NULL, err, sizeof err), UL_OK,
                 "%s", err);
    snprintf(bufb, sizeof bufb, "%lu", kb);
    pb.KAbar = bufb;
    ul_preconditions pre = check52(&pb, UL_NGD_52_DELETION, UL_VARIANT_CORRECTED);
    assert_all_hold(&pre);
    snprintf(bufb, sizeof bufb, "%lu", kb - 1);
    pre = check52(&pb, UL_NGD_52_DELETION, UL_VARIANT_CORRECTED);
    assert_only_failure(&pre, "KAbar_ge_bound");
    snprintf(bufb, sizeof bufb, "%lu", kb);
    snprintf(buf, sizeof buf, "%lu", ka - 1);
    pre = check52(&pb, UL_NGD_52_DELETION, UL_VARIANT_CORRECTED);
    cr_assert_eq(state_of(&pre, "KA_ge_bound"), UL_PRE_FAILS);
    /* (19) at K_A = its least value and the sufficient form agree to a step:
     * both are 2B/(λη)·ln 4.016 up to the rounding of K_A */
    unsigned long ks;
    cr_assert_eq(ul_ngd_thm52_least_k(&pb, UL_NGD_52_KABAR_SUFFICIENT, &ks, NULL, err, sizeof err),
                 UL_OK);
    cr_assert(kb == ks || kb == ks + 1, "%lu vs %lu", kb, ks);
}

Test(noisygd, thm52_preconditions_one_at_a_time)
{
    static const struct {
        int part;
        const char *field, *value, *name;
    } cases[] = {
        {1, "beta", "0", "beta_pos"},
        {1, "L", "0", "L_pos"},
        {1, "q", "1", "q_gt_1"},
        {1, "eps_dd", "0", "eps_dd_pos"},
        {1, "eps_dp", "0.4", "eps_dd_le_eps_dp"},
        {1, "d", "1", "eps_dp_lt_d"},
        {1, "r", "1001", "r_le_n"},
        {1, "init", "0.2", "init_variance_prescribed"},
        {1, "b", "0.1250000001", "loss_bound_le_sigma2_logB_over_4"},
        {1, "sigma_small", "", "sigma2_ge_privacy_bound"},
        {2, "KA", "3000000", "KA_ge_bound"},
        {2, "KAbar", "2000000", "KAbar_ge_bound"},
    };
    ul_ngd_params pb = thm52_base();
    pb.init_var = "0.25"; /* σ²/λ */
    pb.b = "0.125";       /* = σ² log B/4 */
    ul_preconditions pre = check52(&pb, UL_NGD_52_PRIVACY, UL_VARIANT_CORRECTED);
    assert_all_hold(&pre);
    pre = check52(&pb, UL_NGD_52_DELETION, UL_VARIANT_CORRECTED);
    assert_all_hold(&pre);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pb = thm52_base();
        pb.init_var = "0.25";
        pb.b = "0.125";
        const char *f = cases[i].field, *val = cases[i].value;
        if (strcmp(f, "beta") == 0)
            pb.beta = val;
        else if (strcmp(f, "L") == 0)
            pb.L = val;
        else if (strcmp(f, "q") == 0)
            pb.q = val;
        else if (strcmp(f, "eps_dd") == 0)
            pb.eps_dd = val;
        else if (strcmp(f, "eps_dp") == 0)
            pb.eps_dp = val;
        else if (strcmp(f, "d") == 0)
            pb.d = val;
        else if (strcmp(f, "r") == 0)
            pb.r = val;
        else if (strcmp(f, "init") == 0)
            pb.init_var = val;
        else if (strcmp(f, "b") == 0)
            pb.b = val;
        else if (strcmp(f, "KA") == 0)
            pb.KA = val;
        else if (strcmp(f, "KAbar") == 0)
            pb.KAbar = val;
        if (strcmp(f, "sigma_small") == 0) {
            /* (18) needs σ² ≥ 6.146046e-5 (test above): make the privacy budget tiny
             * instead, keeping eps_dd ≤ eps_dp: eps_dp = eps_dd = 1e-5 */
            pb.eps_dp = "0.00001";
            pb.eps_dd = "0.00001";
        }
        if (cases[i].part == 1) {
            /* the shared hypotheses appear in both parts; (18) only in part 1 */
            pre = check52(&pb, UL_NGD_52_PRIVACY, UL_VARIANT_CORRECTED);
            if (strcmp(f, "sigma_small") == 0 || strcmp(f, "eps_dd") == 0 || strcmp(f, "q") == 0) {
                cr_assert_eq(state_of(&pre, cases[i].name), UL_PRE_FAILS, "%s", cases[i].name);
            } else {
                assert_only_failure(&pre, cases[i].name);
            }
        } else {
            pre = check52(&pb, UL_NGD_52_DELETION, UL_VARIANT_CORRECTED);
            assert_only_failure(&pre, cases[i].name);
        }
    }
    /* η = 0: eta_pos fails (and the K bounds become infinite) */
    pb = thm52_base();
    pb.eta = "0";
    pre = check52(&pb, UL_NGD_52_PRIVACY, UL_VARIANT_CORRECTED);
    assert_only_failure(&pre, "eta_pos");
    /* the step-size bounds, one at a time: η = 2·10⁻⁴ breaks both; see the next test
     * for the one that breaks only G.22's */
    pb = thm52_base();
    pb.eta = "0.0002";
    pb.KA = "1000000000";
    pb.KAbar = "1000000000";
    pre = check52(&pb, UL_NGD_52_DELETION, UL_VARIANT_CORRECTED);
    cr_assert_eq(state_of(&pre, "eta_le_deletion_bound"), UL_PRE_FAILS);
    cr_assert_eq(state_of(&pre, "eta_le_g22_bound"), UL_PRE_FAILS);
}

Test(noisygd, thm52_printed_step_size_condition_overclaims)
{
    /* docs/noisy-gd.md erratum N3: with q·eps_dd > d the printed η ≤ λ eps_dd/(64dqB(β+λ)²)
     * does not imply G.22's η ≤ λ/(64Bq²(β+λ)²).  d = 1, q = 4, eps_dd = 0.5,
     * eps_dp = 0.9 < d, λ = β = 1, log B = 1: printed bound 0.5/(1024e) = 1.80e-4,
     * G.22's 1/(4096e)·… = 1/(64·e·16·4) = 8.98e-5.  η = 10⁻⁴ sits between: the
     * printed theorem certifies deletion, the corrected check refuses it. */
    ul_ngd_params pb = thm52_base();
    pb.d = "1";
    pb.q = "4";
    pb.eps_dd = "0.5";
    pb.eps_dp = "0.9";
    pb.log_B = "1";
    pb.eta = "0.0001";
    pb.KA = "100000000";
    pb.KAbar = "100001000"; /* X = 1/1.002 < 1: K_Abar ≥ K_A + (2e/10⁻⁴)·ln 1.002 */
    ul_preconditions printed = check52(&pb, UL_NGD_52_DELETION, UL_VARIANT_PRINTED);
    ul_preconditions corrected = check52(&pb, UL_NGD_52_DELETION, UL_VARIANT_CORRECTED);
    assert_all_hold(&printed);
    cr_assert(!listed(&printed, "eta_le_g22_bound"));
    assert_only_failure(&corrected, "eta_le_g22_bound");
    /* the derived recursion, which rests on G.22, refuses too */
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_preconditions pre;
    char err[256] = "";
    cr_assert_eq(ul_ngd_nonconvex_deletion_eps(&pb, &WANT, &v, &pre, NULL, err, sizeof err), UL_OK,
                 "%s", err);
    cr_assert_eq(state_of(&pre, "eta_le_g22_bound"), UL_PRE_FAILS);
    ul_num_value_clear(&v);
}

/* The recursion of the proof of Thm 5.2(2), iterated directly:
 *   ε_0 = q e^{−ληK_A/(2B)}·log B/2 + D*,  ε_i = c(ε_{i−1} + r log B/n) + D*,
 *   c = q e^{−ληK_Abar/(2B)}, D* = 32dηqB(β+λ)²/λ. */
static void oracle_recursion_sup(mpfr_ptr sup, mpfr_ptr last, const char *lb, const char *q,
                                 const char *lambda, const char *beta, const char *eta,
                                 const char *d, const char *n, const char *r, const char *ka,
                                 const char *kabar, int steps)
{
    mpfr_t L, B, c, D, e, t, u;
    dec(L, lb);
    mpfr_inits2(OB, B, c, D, e, t, u, (mpfr_ptr)0);
    mpfr_exp(B, L, MPFR_RNDN);
    /* D* = 32 d η q (β+λ)² B/λ */
    mpfr_set_str(t, beta, 10, MPFR_RNDN);
    mpfr_set_str(u, lambda, 10, MPFR_RNDN);
    mpfr_add(D, t, u, MPFR_RNDN);
    mpfr_sqr(D, D, MPFR_RNDN);
    mpfr_mul_ui(D, D, 32, MPFR_RNDN);
    mpfr_div(D, D, u, MPFR_RNDN);
    mpfr_mul(D, D, B, MPFR_RNDN);
    mpfr_set_str(t, d, 10, MPFR_RNDN);
    mpfr_mul(D, D, t, MPFR_RNDN);
    mpfr_set_str(t, q, 10, MPFR_RNDN);
    mpfr_mul(D, D, t, MPFR_RNDN);
    mpfr_set_str(t, eta, 10, MPFR_RNDN);
    mpfr_mul(D, D, t, MPFR_RNDN);
    /* λη/(2B) */
    mpfr_mul(u, u, t, MPFR_RNDN);
    mpfr_div_ui(u, u, 2, MPFR_RNDN);
    mpfr_div(u, u, B, MPFR_RNDN);
    /* c = q e^{−ληK_Abar/(2B)} */
    mpfr_set_str(t, kabar, 10, MPFR_RNDN);
    mpfr_mul(c, u, t, MPFR_RNDN);
    mpfr_neg(c, c, MPFR_RNDN);
    mpfr_exp(c, c, MPFR_RNDN);
    mpfr_set_str(t, q, 10, MPFR_RNDN);
    mpfr_mul(c, c, t, MPFR_RNDN);
    /* ε_0 = q e^{−ληK_A/(2B)} log B/2 + D* */
    mpfr_set_str(t, ka, 10, MPFR_RNDN);
    mpfr_mul(e, u, t, MPFR_RNDN);
    mpfr_neg(e, e, MPFR_RNDN);
    mpfr_exp(e, e, MPFR_RNDN);
    mpfr_set_str(t, q, 10, MPFR_RNDN);
    mpfr_mul(e, e, t, MPFR_RNDN);
    mpfr_mul(e, e, L, MPFR_RNDN);
    mpfr_div_ui(e, e, 2, MPFR_RNDN);
    mpfr_add(e, e, D, MPFR_RNDN);
    mpfr_set(sup, e, MPFR_RNDN);
    /* r log B/n */
    mpfr_set_str(t, r, 10, MPFR_RNDN);
    mpfr_mul(u, L, t, MPFR_RNDN);
    mpfr_set_str(t, n, 10, MPFR_RNDN);
    mpfr_div(u, u, t, MPFR_RNDN);
    for (int i = 1; i <= steps; i++) {
        mpfr_add(t, e, u, MPFR_RNDN);
        mpfr_mul(t, t, c, MPFR_RNDN);
        mpfr_add(e, t, D, MPFR_RNDN);
        mpfr_max(sup, sup, e, MPFR_RNDN);
    }
    mpfr_set(last, e, MPFR_RNDN);
    mpfr_clears(L, B, c, D, e, t, u, (mpfr_ptr)0);
}

Test(noisygd, nonconvex_deletion_eps_matches_the_iterated_recursion)
{
    /* log B = 1, q = 2, λ = β = 1, η = 10⁻⁴ (≤ 1/(1024e) = 3.59e-4, G.22), d = 2,
     * n = 100, r = 1, K_A = 2·10⁵, K_Abar = 8·10⁴: c = 2e^{−4/e} = 0.459 < 1, the
     * iterates rise from ε_0 ≈ 0.165 to the fixed point ≈ 0.266. */
    ul_ngd_params pb = {0};
    pb.lambda = "1";
    pb.beta = "1";
    pb.q = "2";
    pb.log_B = "1";
    pb.eta = "0.0001";
    pb.d = "2";
    pb.n = "100";
    pb.r = "1";
    pb.KA = "200000";
    pb.KAbar = "80000";
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_preconditions pre;
    char err[256] = "";
    cr_assert_eq(ul_ngd_nonconvex_deletion_eps(&pb, &WANT, &v, &pre, NULL, err, sizeof err), UL_OK,
                 "%s", err);
    assert_all_hold(&pre);
    mpfr_t sup, last;
    mpfr_inits2(OB, sup, last, (mpfr_ptr)0);
    oracle_recursion_sup(sup, last, "1", "2", "1", "1", "0.0001", "2", "100", "1", "200000",
                         "80000", 400);
    assert_contains(&v, sup, "sup of the recursion");
    cr_assert(fabs(mpfr_get_d(last, MPFR_RNDN) - 0.2658) < 1e-3);
    /* more unlearning steps never worsen it */
    pb.KAbar = "120000";
    ul_num_value w;
    ul_num_value_init(&w, 64);
    cr_assert_eq(ul_ngd_nonconvex_deletion_eps(&pb, &WANT, &w, NULL, NULL, err, sizeof err), UL_OK);
    cr_assert(mpfr_less_p(&w.enclosure->right, &v.enclosure->left));
    /* too few: c ≥ 1, no guarantee */
    pb.KAbar = "10000";
    cr_assert_eq(ul_ngd_nonconvex_deletion_eps(&pb, &WANT, &w, &pre, NULL, err, sizeof err), UL_OK);
    cr_assert(mpfr_inf_p(&w.enclosure->right));
    assert_only_failure(&pre, "contraction_lt_1");
    /* where Thm 5.2's (corrected) conditions hold, the recursion stays ≤ eps_dd */
    ul_ngd_params t = thm52_base();
    ul_preconditions all = check52(&t, UL_NGD_52_DELETION, UL_VARIANT_CORRECTED);
    assert_all_hold(&all);
    cr_assert_eq(ul_ngd_nonconvex_deletion_eps(&t, &WANT, &w, &pre, NULL, err, sizeof err), UL_OK);
    assert_all_hold(&pre);
    cr_assert(value_leq(&w, "0.5"));
    mpfr_clears(sup, last, (mpfr_ptr)0);
    ul_num_value_clear(&v);
    ul_num_value_clear(&w);
}

/* ---- Thm 4.3 -------------------------------------------------------------------- */

Test(noisygd, adaptive_eps_generic_and_nonconvex_printed_overclaims)
{
    /* Thm 4.3: eps_dd + p·eps_dp = 0.1 + 3·0.5 = 1.6 exactly */
    ul_ngd_params pb = {0};
    pb.eps_dd = "0.1";
    pb.eps_dp = "0.5";
    pb.p = "3";
    ul_num_value v, w;
    ul_num_value_init(&v, 64);
    ul_num_value_init(&w, 64);
    char err[256] = "";
    cr_assert_eq(ul_ngd_adaptive_eps(&pb, &WANT, &v, NULL, err, sizeof err), UL_OK, "%s", err);
    mpfr_t ref;
    dec(ref, "1.6");
    assert_contains(&v, ref, "Thm 4.3");
    /* Non-convex: A = qL²η/(σ²n²) = 2·0.25/(0.01·10⁴) = 0.005 per step; p = 2
     * observations at s = (0, 100), K_A = 100, K_Abar = 10.  Printed: 0.1 + 2·0.005·100
     * = 1.1; corrected: 0.1 + 0.005·(100 + 100·10) = 5.6 (docs/noisy-gd.md erratum N2). */
    pb = base();
    pb.eps_dd = "0.1";
    pb.KA = "100";
    pb.KAbar = "10";
    pb.p = "2";
    pb.s = "100";
    ul_preconditions pre;
    cr_assert_eq(ul_ngd_adaptive_eps_nonconvex(&pb, UL_VARIANT_PRINTED, &WANT, &v, &pre, NULL, err,
                                               sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(ul_ngd_adaptive_eps_nonconvex(&pb, UL_VARIANT_CORRECTED, &WANT, &w, &pre, NULL,
                                               err, sizeof err),
                 UL_OK);
    assert_all_hold(&pre);
    mpfr_set_str(ref, "1.1", 10, MPFR_RNDN);
    assert_contains(&v, ref, "printed");
    mpfr_set_str(ref, "5.6", 10, MPFR_RNDN);
    assert_contains(&w, ref, "corrected");
    /* p = 0 is the non-adaptive case */
    pb.p = "0";
    cr_assert_eq(ul_ngd_adaptive_eps_nonconvex(&pb, UL_VARIANT_CORRECTED, &WANT, &w, &pre, NULL,
                                               err, sizeof err),
                 UL_OK);
    mpfr_set_str(ref, "0.1", 10, MPFR_RNDN);
    assert_contains(&w, ref, "p = 0");
    /* p releases need p distinct indices in 0..s */
    pb.p = "5";
    pb.s = "3";
    cr_assert_eq(ul_ngd_adaptive_eps_nonconvex(&pb, UL_VARIANT_CORRECTED, &WANT, &w, &pre, NULL,
                                               err, sizeof err),
                 UL_OK);
    assert_only_failure(&pre, "p_le_s_plus_1");
    pb.p = "1";
    pb.q = "1";
    cr_assert_eq(ul_ngd_adaptive_eps_nonconvex(&pb, UL_VARIANT_CORRECTED, &WANT, &w, &pre, NULL,
                                               err, sizeof err),
                 UL_OK);
    assert_only_failure(&pre, "q_gt_1");
    mpfr_clear(ref);
    ul_num_value_clear(&v);
    ul_num_value_clear(&w);
}

/* ---- Thm 4.1 and 4.5 ------------------------------------------------------------- */

/* min over δ ∈ (0, 1) of e^{ε + log(1/δ)/(q−1)} − 1 + 2δ on a fine grid refined
 * around its best point (the proof of Thm 4.1, before its closed form). */
static double grid_min(double q, double eps)
{
    double best = INFINITY, at = 0.5, lo = 1e-12, hi = 1 - 1e-12;
    for (int round = 0; round < 6; round++) {
        for (int i = 0; i <= 20000; i++) {
            double dlt = lo + (hi - lo) * i / 20000.0;
            double f = exp(eps + log(1 / dlt) / (q - 1)) - 1 + 2 * dlt;
            if (f < best) {
                best = f;
                at = dlt;
            }
        }
        double w = (hi - lo) / 100;
        lo = at - w > 1e-300 ? at - w : 1e-300;
        hi = at + w < 1 ? at + w : 1 - 1e-16;
    }
    return best;
}

static void mi(ul_num_value *v, const char *q, const char *eps)
{
    char err[256] = "";
    cr_assert_eq(ul_ngd_mi_ceiling(q, eps, &WANT, v, NULL, err, sizeof err), UL_OK, "%s", err);
}

Test(noisygd, mi_ceiling_hand_values_grid_minimum_and_limit)
{
    ul_num_value v;
    ul_num_value_init(&v, 64);
    mpfr_t ref;
    mpfr_init2(ref, OB);
    /* q = 2, ε = 0.1: √0.2 = 0.4472 < 2e^{0.05}√2 − 1 = 1.973 */
    mi(&v, "2", "0.1");
    mpfr_set_str(ref, "0.2", 10, MPFR_RNDN);
    mpfr_sqrt(ref, ref, MPFR_RNDN);
    assert_contains(&v, ref, "q = 2, eps = 0.1");
    /* q = 100, ε = 0.5: the second term (100/99)e^{0.495}·198^{0.01} − 1 = 1.010101 ·
     * 1.640498 · 1.054306 − 1 = 0.747058 wins
     * over √1 = 1; it is the minimum over δ of the proof's expression */
    mi(&v, "100", "0.5");
    double g = grid_min(100, 0.5);
    cr_assert(fabs(hi_d(&v) - 0.747058) < 1e-6, "%g", hi_d(&v));
    /* the grid (doubles) can only approach the minimum from above, up to its rounding */
    cr_assert(g >= lo_d(&v) - 1e-12 && g - hi_d(&v) < 1e-7, "grid %.12g vs %.12g", g, hi_d(&v));
    /* q → ∞: min{√(2ε), e^ε − 1} (text after eq. 10); q = 1e12, ε = 0.01 */
    mi(&v, "1e12", "0.01");
    cr_assert(fabs(hi_d(&v) - expm1(0.01)) < 1e-9);
    /* ε = 0: no advantage; large ε: the trivial ceiling 1 */
    mi(&v, "2", "0");
    cr_assert(hi_d(&v) == 0);
    mi(&v, "2", "5");
    cr_assert(lo_d(&v) == 1 && hi_d(&v) == 1);
    /* nondecreasing in ε */
    double prev = 0;
    static const char *es[] = {"0.001", "0.01", "0.1", "0.3", "0.49", "1"};
    for (size_t i = 0; i < 6; i++) {
        mi(&v, "8", es[i]);
        cr_assert(lo_d(&v) >= prev);
        prev = hi_d(&v);
    }
    char err[256] = "";
    cr_assert_eq(ul_ngd_mi_ceiling("1", "0.1", &WANT, &v, NULL, err, sizeof err), UL_EINPUT);
    cr_assert(strncmp(err, "q:", 2) == 0, "%s", err);
    mpfr_clear(ref);
    ul_num_value_clear(&v);
}

Test(noisygd, mi_threshold_inverts_the_ceiling)
{
    /* Hand: q = 2, δ = 0.5: δ⁴/2 = 1/32 (the log term is negative). */
    ul_num_value v, c;
    ul_num_value_init(&v, 64);
    ul_num_value_init(&c, 64);
    char err[256] = "";
    cr_assert_eq(ul_ngd_mi_threshold("2", "0.5", &WANT, &v, NULL, err, sizeof err), UL_OK, "%s",
                 err);
    mpfr_t ref;
    dec(ref, "0.03125");
    assert_contains(&v, ref, "threshold q = 2, delta = 0.5");
    /* Eq. (11) is eq. (10) inverted at Adv = δ² (proof of 4.5): the ceiling at the
     * threshold is δ², in both regimes (q = 100, δ = 0.9: the log term, 0.5356,
     * exceeds δ⁴/2 = 0.328). */
    static const struct {
        const char *q, *delta;
    } pts[] = {{"2", "0.5"}, {"100", "0.9"}, {"10", "0.3"}, {"1.5", "0.99"}};
    for (size_t i = 0; i < 4; i++) {
        ul_num_precision w = {30, 0, 0};
        cr_assert_eq(ul_ngd_mi_threshold(pts[i].q, pts[i].delta, &w, &v, NULL, err, sizeof err),
                     UL_OK);
        mpfi_t q, e;
        mpfi_init2(q, 200);
        mpfi_init2(e, 200);
        cr_assert_eq(ul_num_set_decimal(q, pts[i].q), UL_OK);
        mpfi_set(e, v.enclosure);
        mpfi_set_prec(c.enclosure, 200);
        ul_ngd_mi_ceiling_enclose(c.enclosure, q, e);
        double d = atof(pts[i].delta);
        cr_assert(fabs(mpfr_get_d(&c.enclosure->left, MPFR_RNDN) - d * d) < 1e-12 &&
                      fabs(mpfr_get_d(&c.enclosure->right, MPFR_RNDN) - d * d) < 1e-12,
                  "q = %s, delta = %s", pts[i].q, pts[i].delta);
        mpfi_clear(q);
        mpfi_clear(e);
    }
    mpfr_clear(ref);
    ul_num_value_clear(&v);
    ul_num_value_clear(&c);
}

/* ---- Remark G.8 ---------------------------------------------------------------- */

Test(noisygd, abadi_sigmahat_printed_gives_four_times_the_budget)
{
    /* With 2ησ² = η²σ̂²L²/n², G.7 reads ε_RDP = 2qK/σ̂² (hand: qL²ηK/(σ²n²) with σ² =
     * ησ̂²L²/(2n²)).  At q = 1 + (2/ε) log(1/δ) the corrected σ̂ gives exactly ε/2, the
     * printed one 2ε.  K = 100, ε = 1, δ = 10⁻⁵. */
    ul_num_value c, p;
    ul_num_value_init(&c, 64);
    ul_num_value_init(&p, 64);
    char err[256] = "";
    cr_assert_eq(ul_ngd_abadi_sigmahat_min("100", "1", "1e-5", UL_VARIANT_CORRECTED, &WANT, &c,
                                           NULL, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(ul_ngd_abadi_sigmahat_min("100", "1", "1e-5", UL_VARIANT_PRINTED, &WANT, &p, NULL,
                                           err, sizeof err),
                 UL_OK);
    mpfr_t q, s, r;
    mpfr_inits2(OB, q, s, r, (mpfr_ptr)0);
    mpfr_set_str(q, "1e-5", 10, MPFR_RNDN);
    mpfr_log(q, q, MPFR_RNDN);
    mpfr_mul_si(q, q, -2, MPFR_RNDN);
    mpfr_add_ui(q, q, 1, MPFR_RNDN); /* q = 1 + 2 log(1/δ) */
    for (int which = 0; which < 2; which++) {
        const ul_num_value *v = which == 0 ? &c : &p;
        mpfr_set(s, &v->enclosure->right, MPFR_RNDN);
        mpfr_sqr(s, s, MPFR_RNDN);
        mpfr_mul_ui(r, q, 200, MPFR_RNDN);
        mpfr_div(r, r, s, MPFR_RNDN); /* 2qK/σ̂² */
        double want = which == 0 ? 0.5 : 2.0;
        cr_assert(fabs(mpfr_get_d(r, MPFR_RNDN) - want) < 1e-12, "%s: %.15g",
                  which == 0 ? "corrected" : "printed", mpfr_get_d(r, MPFR_RNDN));
    }
    mpfr_clears(q, s, r, (mpfr_ptr)0);
    ul_num_value_clear(&c);
    ul_num_value_clear(&p);
}

/* ---- property: random points against the oracles ----------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static double uniform01(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

/* MI ceiling (eq. 10) by the oracle: min{√(2ε), q e^{ε(q−1)/q}(2(q−1))^{1/q}/(q−1) − 1, 1}. */
static void oracle_mi(mpfr_ptr out, const char *qs, const char *es)
{
    mpfr_t q, e, a, b;
    dec(q, qs);
    dec(e, es);
    mpfr_inits2(OB, a, b, (mpfr_ptr)0);
    mpfr_mul_ui(a, e, 2, MPFR_RNDN);
    mpfr_sqrt(a, a, MPFR_RNDN);
    mpfr_sub_ui(b, q, 1, MPFR_RNDN);
    mpfr_mul_ui(b, b, 2, MPFR_RNDN);
    mpfr_ui_div(out, 1, q, MPFR_RNDN);
    mpfr_pow(b, b, out, MPFR_RNDN); /* (2(q−1))^{1/q} */
    mpfr_sub_ui(out, q, 1, MPFR_RNDN);
    mpfr_mul(out, out, e, MPFR_RNDN);
    mpfr_div(out, out, q, MPFR_RNDN);
    mpfr_exp(out, out, MPFR_RNDN);
    mpfr_mul(b, b, out, MPFR_RNDN);
    mpfr_mul(b, b, q, MPFR_RNDN);
    mpfr_sub_ui(out, q, 1, MPFR_RNDN);
    mpfr_div(b, b, out, MPFR_RNDN);
    mpfr_sub_ui(b, b, 1, MPFR_RNDN);
    mpfr_min(out, a, b, MPFR_RNDN);
    if (mpfr_cmp_ui(out, 1) > 0)
        mpfr_set_ui(out, 1, MPFR_RNDN);
    mpfr_clears(q, e, a, b, (mpfr_ptr)0);
}

Test(noisygd, random_points_are_enclosed)
{
    char q[32], L[32], lam[32], bet[32], sig[32], eta[32], n[32], K[32], e[32];
    ul_num_value v;
    ul_num_value_init(&v, 64);
    mpfr_t ref;
    mpfr_init2(ref, OB);
    for (int i = 0; i < 60; i++) {
        snprintf(q, sizeof q, "%.6f", 1.001 + 40 * uniform01());
        snprintf(L, sizeof L, "%.5f", 0.001 + 10 * uniform01());
        snprintf(lam, sizeof lam, "%.5f", 0.001 + 5 * uniform01());
        snprintf(bet, sizeof bet, "%.4f", 20 * uniform01());
        snprintf(sig, sizeof sig, "%.5f", 0.01 + 5 * uniform01());
        snprintf(eta, sizeof eta, "%.8f", 0.999 * uniform01() / (atof(lam) + atof(bet)) + 1e-8);
        snprintf(n, sizeof n, "%.0f", 1 + floor(1e6 * uniform01()));
        snprintf(K, sizeof K, "%.0f", floor(1e5 * uniform01()));
        ul_ngd_params pb = {0};
        pb.q = q;
        pb.L = L;
        pb.lambda = lam;
        pb.beta = bet;
        pb.sigma = sig;
        pb.eta = eta;
        pb.n = n;
        pb.K = K;
        pb.KAbar = K;
        ul_preconditions pre;
        for (int form = 0; form < 2; form++) {
            g15(&v, &pb, (ul_ngd_g15_form)form, &pre);
            assert_all_hold(&pre);
            oracle_log_g15(ref, form == UL_NGD_G15_TIGHT, q, L, lam, sig, n, eta, K);
            assert_contains_log(&v, ref, "random G.15");
            cr_assert(ul_num_value_narrow_enough(&v, 17));
        }
        char err[256] = "";
        cr_assert_eq(ul_ngd_rdp_g9(&pb, &WANT, &v, &pre, NULL, err, sizeof err), UL_OK, "%s", err);
        if (strcmp(K, "0") != 0) {
            oracle_g9(ref, q, L, lam, sig, n, eta, K);
            assert_contains(&v, ref, "random G.9");
        }
        snprintf(e, sizeof e, "%.6f", 3 * uniform01() * uniform01());
        cr_assert_eq(ul_ngd_mi_ceiling(q, e, &WANT, &v, NULL, err, sizeof err), UL_OK, "%s", err);
        oracle_mi(ref, q, e);
        if (mpfr_sgn(ref) > 0)
            assert_contains(&v, ref, "random MI ceiling");
    }
    mpfr_clear(ref);
    ul_num_value_clear(&v);
}

/* ---- inputs ---------------------------------------------------------------------- */

Test(noisygd, bad_inputs_name_the_parameter)
{
    ul_ngd_params pb = base();
    ul_num_value v;
    ul_num_value_init(&v, 64);
    char err[256] = "";
    static const struct {
        const char *field, *value, *prefix;
    } cases[] = {
        {"n", "100.5", "n:"},  {"n", "0", "n:"},   {"K", "1e-3", "K:"}, {"sigma", "0", "sigma:"},
        {"eta", "-1", "eta:"}, {"L", "abc", "L:"}, {"q", "nan", "q:"},  {"n", NULL, "n:"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pb = base();
        if (strcmp(cases[i].field, "n") == 0)
            pb.n = cases[i].value;
        else if (strcmp(cases[i].field, "K") == 0)
            pb.K = cases[i].value;
        else if (strcmp(cases[i].field, "sigma") == 0)
            pb.sigma = cases[i].value;
        else if (strcmp(cases[i].field, "eta") == 0)
            pb.eta = cases[i].value;
        else if (strcmp(cases[i].field, "L") == 0)
            pb.L = cases[i].value;
        else
            pb.q = cases[i].value;
        cr_assert_eq(ul_ngd_rdp_g7(&pb, &WANT, &v, NULL, NULL, err, sizeof err), UL_EINPUT,
                     "%s = %s accepted", cases[i].field, cases[i].value);
        cr_assert(strncmp(err, cases[i].prefix, strlen(cases[i].prefix)) == 0, "%s", err);
    }
    /* "1e2" is a whole number */
    pb = base();
    pb.n = "1e2";
    cr_assert_eq(ul_ngd_rdp_g7(&pb, &WANT, &v, NULL, NULL, err, sizeof err), UL_OK, "%s", err);
    /* Thm 5.2 without log B or b */
    ul_ngd_params t = thm52_base();
    t.log_B = NULL;
    cr_assert_eq(ul_ngd_thm52(&t, UL_NGD_52_KA_MIN, &WANT, &v, NULL, err, sizeof err), UL_EINPUT);
    cr_assert(strncmp(err, "logB:", 5) == 0, "%s", err);
    ul_num_value_clear(&v);
}

/* ---- Thm 5.1 at its prescriptions (noisygd_thm51.c) --------------------------------
 * λ = 1, β = 3: κ = 4, c = ηλ/2 = 1/16 at η = 1/8.  By hand (Thm 5.1 with
 * G.15, docs/noisy-gd.md "Algorithm and prescriptions"; 4qL²/(λσ²n²) = eps_dp = 1
 * at the prescribed σ):
 *   stated (111): ε = eps_dp·exp(−c·K) = exp(−20/16)                 (K = 20)
 *   tight:        ε = (eps_dp/2)/(1 − c)·exp(−2c(1 − c)K) = (8/15)·exp(−75/32)
 * and at the order q' = 3 instead of q = 2, both times 3/2. */
static void thm51_eps_oracle(mpfr_ptr out, bool tight, double scale)
{
    mpfr_init2(out, OB);
    mpfr_t t;
    mpfr_init2(t, OB);
    if (tight) {
        mpfr_set_si(out, -75, MPFR_RNDN);
        mpfr_div_ui(out, out, 32, MPFR_RNDN);
        mpfr_set_ui(t, 8, MPFR_RNDN);
        mpfr_div_ui(t, t, 15, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_add(out, out, t, MPFR_RNDN);
    } else {
        mpfr_set_d(out, -1.25, MPFR_RNDN);
    }
    mpfr_set_d(t, scale, MPFR_RNDN); /* 1 or 1.5: exact in binary */
    mpfr_log(t, t, MPFR_RNDN);
    mpfr_add(out, out, t, MPFR_RNDN);
    mpfr_clear(t);
}

Test(noisygd, thm51_deletion_eps_by_hand)
{
    ul_ngd_params pb = thm51_base();
    pb.KAbar = "20";
    const char *orders[] = {NULL, "3"};
    double scales[] = {1, 1.5};
    for (int f = 0; f < 2; f++)
        for (int o = 0; o < 2; o++) {
            ul_num_value v;
            ul_num_value_init(&v, 64);
            ul_num_report nr = {0, false};
            char err[256] = "";
            ul_ngd_g15_form form = f ? UL_NGD_G15_TIGHT : UL_NGD_G15_STATED;
            cr_assert_eq(ul_ngd_thm51_deletion_eps(&pb, form, orders[o], &WANT40, &v, &nr, err,
                                                   sizeof err),
                         UL_OK, "%s", err);
            mpfr_t ref;
            thm51_eps_oracle(ref, f == 1, scales[o]);
            assert_contains_log(&v, ref, f ? "tight" : "stated");
            cr_assert(ul_num_value_narrow_enough(&v, 40));
            mpfr_clear(ref);
            ul_num_value_clear(&v);
        }
}

/* η = 1/(2(λ+β)) = 1/8; σ*² = 4qL²/(λ·eps_dp·n²) = 8e-6; the initialisation
 * variance σ²/(λ(1 − ηλ/2)) = σ²·16/15 (9.6e-6 at σ = 0.003). */
Test(noisygd, thm51_prescriptions_exactly)
{
    ul_ngd_params pb = thm51_base();
    pb.eta = "0.125";
    pb.sigma = "0.003";     /* σ² = 9e-6 ≥ 8e-6 */
    pb.init_var = "0.0000096";
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_ngd_thm51_prescriptions(&pb, &pre);
    cr_assert_eq(state_of(&pre, "eta_prescribed"), UL_PRE_HOLDS);
    cr_assert_eq(state_of(&pre, "sigma2_ge_prescribed"), UL_PRE_HOLDS);
    cr_assert_eq(state_of(&pre, "init_variance_prescribed"), UL_PRE_HOLDS);
    pb.eta = "0.12";
    pb.sigma = "0.002";     /* σ² = 4e-6 < 8e-6 */
    pb.init_var = "0.0000096"; /* σ²·16/15 is now 4.2666…e-6 */
    ul_pre_clear(&pre);
    ul_ngd_thm51_prescriptions(&pb, &pre);
    cr_assert_eq(state_of(&pre, "eta_prescribed"), UL_PRE_FAILS);
    cr_assert_eq(state_of(&pre, "sigma2_ge_prescribed"), UL_PRE_FAILS);
    cr_assert_eq(state_of(&pre, "init_variance_prescribed"), UL_PRE_FAILS);
}

/* ---- exact rationals and the (eps, delta) reading (noisygd_rational.c) ---------------
 * By hand: q = 2, L = 1, eta = 1/10, sigma = 1, n = 10: G.7 at K = 10 is
 * 2·1·(1/10)·10/(1·100) = 1/50.  Thm 4.3 with p = 2, s = 1, K_A = 10,
 * K_Abar = 5, eps_dd = 1/2: corrected K43 = 10 + 5 = 15, 3/100 + 1/2 = 53/100;
 * printed K43 = 2·max(10, 5) = 20, 4/100 + 1/2 = 54/100; p = 0: 1/2. */
Test(noisygd, rational_bounds_by_hand)
{
    ul_ngd_params pb = {0};
    pb.q = "2", pb.L = "1", pb.eta = "0.1", pb.sigma = "1", pb.n = "10", pb.K = "10";
    pb.p = "2", pb.s = "1", pb.KA = "10", pb.KAbar = "5", pb.eps_dd = "0.5";
    mpq_t v, want;
    mpq_inits(v, want, (mpq_ptr)0);
    struct {
        bool t43;
        ul_variant var;
        unsigned long num, den;
    } cases[] = {{false, UL_VARIANT_CORRECTED, 1, 50},
                 {true, UL_VARIANT_CORRECTED, 53, 100},
                 {true, UL_VARIANT_PRINTED, 54, 100}};
    for (int i = 0; i < 3; i++) {
        ul_ngd_rational_bound(v, &pb, cases[i].t43, cases[i].var);
        mpq_set_ui(want, cases[i].num, cases[i].den);
        mpq_canonicalize(want);
        cr_assert(mpq_equal(v, want), "case %d", i);
    }
    pb.p = "0";
    ul_ngd_rational_bound(v, &pb, true, UL_VARIANT_PRINTED);
    mpq_set_ui(want, 1, 2);
    cr_assert(mpq_equal(v, want));
    mpq_clears(v, want, (mpq_ptr)0);
}

/* The bounds that are rationals only at some parameters (noisygd.h, "exact
 * ties").  By hand, q = 2, L = 1, lambda = 1, beta = 1, sigma = 1, eta =
 * 1/10, n = 10: C = 4qL²/(λσ²n²) = 8/100 = 2/25.
 *   G.9: K absent 2/25; K = 0 or eta = 0: C·(1 − e^0) = 0; K = 3: e^{−0.15}
 *     is transcendental, no rational.
 *   G.15 at K_Abar = 0: stated C = 2/25, tight 2qL²/(λσ²n²(1 − ηλ/2)) =
 *     (1/25)/(19/20) = 4/95; K_Abar = 3: none; eta = 2 (ηλ = 2): the tight
 *     form is +inf, none.
 *   Thm 5.1, eps_dp = 3/10, K_Abar = 0: stated 3/10; tight, c = λ/(4(λ+β)) =
 *     1/8: (3/10)/(2·7/8) = 6/35; stated at order q' = 4 for q = 2: 3/5. */
static bool exact_is(bool got, mpq_srcptr v, unsigned long num, unsigned long den)
{
    mpq_t w;
    mpq_init(w);
    mpq_set_ui(w, num, den);
    mpq_canonicalize(w);
    bool same = got && mpq_equal(v, w);
    mpq_clear(w);
    return same;
}

Test(noisygd, exact_ties_by_hand)
{
    ul_ngd_params pb = {0};
    pb.q = "2", pb.L = "1", pb.lambda = "1", pb.beta = "1", pb.sigma = "1", pb.eta = "0.1";
    pb.n = "10";
    mpq_t v;
    mpq_init(v);
    cr_assert(exact_is(ul_ngd_g9_exact(v, &pb), v, 2, 25));
    pb.K = "0";
    cr_assert(exact_is(ul_ngd_g9_exact(v, &pb), v, 0, 1));
    pb.K = "3";
    cr_assert_not(ul_ngd_g9_exact(v, &pb));
    pb.eta = "0";
    cr_assert(exact_is(ul_ngd_g9_exact(v, &pb), v, 0, 1));
    pb.eta = "0.1", pb.L = "0";
    cr_assert(exact_is(ul_ngd_g9_exact(v, &pb), v, 0, 1));
    pb.L = "1", pb.K = NULL, pb.KAbar = "0";
    cr_assert(exact_is(ul_ngd_g15_exact(v, &pb, UL_NGD_G15_STATED), v, 2, 25));
    cr_assert(exact_is(ul_ngd_g15_exact(v, &pb, UL_NGD_G15_TIGHT), v, 4, 95));
    pb.KAbar = "3";
    cr_assert_not(ul_ngd_g15_exact(v, &pb, UL_NGD_G15_STATED));
    pb.KAbar = "0", pb.eta = "2";
    cr_assert_not(ul_ngd_g15_exact(v, &pb, UL_NGD_G15_TIGHT));
    pb.eta = NULL, pb.sigma = NULL, pb.eps_dp = "0.3";
    cr_assert(exact_is(ul_ngd_thm51_exact(v, &pb, UL_NGD_G15_STATED, pb.q), v, 3, 10));
    cr_assert(exact_is(ul_ngd_thm51_exact(v, &pb, UL_NGD_G15_TIGHT, pb.q), v, 6, 35));
    cr_assert(exact_is(ul_ngd_thm51_exact(v, &pb, UL_NGD_G15_STATED, "4"), v, 3, 5));
    pb.KAbar = "5";
    cr_assert_not(ul_ngd_thm51_exact(v, &pb, UL_NGD_G15_STATED, pb.q));
    mpq_clear(v);
}

/* Remark 2.1: for rho(q) = a·q with a = 1/50 and delta = 1e-5, the best order
 * gives a + 2√(a·ln 1e5) (checked in doubles, and as the minimum of
 * a·q + ln(1e5)/(q − 1) over a fine grid of q); at the fixed order q = 3 a
 * bound rho = 1/2 gives 1/2 + ln(1e5)/2. */
Test(noisygd, rdp_to_dp_conversion_by_hand)
{
    ul_num_value b;
    ul_num_value_init(&b, 128);
    cr_assert_eq(ul_num_set_decimal(b.enclosure, "0.02"), UL_OK);
    mpfi_t eps, qs;
    mpfi_init2(eps, 64), mpfi_init2(qs, 64);
    ul_ngd_rdp_to_dp(eps, qs, &b, true, NULL, NULL, "1e-5");
    double l = log(1e5), a = 0.02, e = a + 2 * sqrt(a * l);
    cr_assert(fabs(mpfr_get_d(&eps->left, MPFR_RNDN) - e) < 1e-13 * e);
    cr_assert(fabs(mpfr_get_d(&qs->left, MPFR_RNDN) - (1 + sqrt(l / a))) < 1e-12);
    for (double q = 1.01; q < 200; q += 0.01)
        cr_assert(a * q + l / (q - 1) >= e * (1 - 1e-12), "q = %g below the minimum", q);
    /* the same slope given per order: the bound at q = 4 is 0.08 */
    cr_assert_eq(ul_num_set_decimal(b.enclosure, "0.08"), UL_OK);
    ul_ngd_rdp_to_dp(eps, qs, &b, true, "4", NULL, "1e-5");
    cr_assert(fabs(mpfr_get_d(&eps->left, MPFR_RNDN) - e) < 1e-13 * e);
    cr_assert_eq(ul_num_set_decimal(b.enclosure, "0.5"), UL_OK);
    ul_ngd_rdp_to_dp(eps, qs, &b, false, NULL, "3", "1e-5");
    double e3 = 0.5 + l / 2;
    cr_assert(fabs(mpfr_get_d(&eps->left, MPFR_RNDN) - e3) < 1e-13 * e3);
    cr_assert(mpfr_cmp_ui(&qs->left, 3) == 0);
    mpfi_clear(eps), mpfi_clear(qs);
    ul_num_value_clear(&b);
}
