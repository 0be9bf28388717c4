/* tests/test_koloskova.c — Koloskova et al. (ICML 2025) and its baselines
 * (src/bounds/koloskova.h), against independent references:
 *   - the model-clipping recursions run here in plain MPFR with the θ oracle
 *     of tests/oracle.c and r = D/σ formed at oracle precision;
 *   - the PABI coefficient from its defining products and sums (no closed
 *     forms, no Horner), the linear-RDP conversions from their closed forms
 *     and from a dense search in doubles;
 *   - the quadrature oracle of tests/renyi_oracle.c for the subsampled
 *     Gaussian;
 *   - values printed in docs/neural-unlearning.md and in public test files, each with
 *     its location;
 *   - hand derivations written next to the assertion;
 *   - properties (monotonicity, printed-versus-corrected over-claims).
 * Never a value printed by the code under test and pasted back. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/koloskova_mc.h"
#include "bounds/koloskova_pabi.h"
#include "bounds/koloskova_op.h"
#include "bounds/koloskova_group.h"
#include "oracle.h"
#include "pabi_oracle.h"
#include "renyi_oracle.h"

static void setup(void)
{
    ul_num_init();
}

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(koloskova, .init = setup, .fini = teardown);

#define W (4 * ORACLE_BITS)

static const ul_num_precision WANT = {17, 0, 0};

static ul_num_value new_value(void)
{
    ul_num_value v;
    ul_num_value_init(&v, 64);
    return v;
}

static void ref_set(mpfr_ptr x, const char *text)
{
    cr_assert_eq(mpfr_set_str(x, text, 10, MPFR_RNDN), 0, "bad decimal '%s'", text);
}

/* The natural-log bounds of a certified value (lo may be -inf). */
static void log_bounds(const ul_num_value *v, mpfr_ptr lo, mpfr_ptr hi)
{
    mpfi_get_left(lo, v->enclosure);
    mpfi_get_right(hi, v->enclosure);
    if (!v->is_log) {
        mpfr_log(lo, lo, MPFR_RNDD);
        mpfr_log(hi, hi, MPFR_RNDU);
    }
}

/* Asserts lo ≤ log_ref ≤ hi up to the oracle's own error (2^-400 relative). */
static void assert_log_contains(const ul_num_value *v, mpfr_srcptr log_ref, const char *what)
{
    mpfr_t lo, hi, tol;
    mpfr_inits2(W, lo, hi, tol, (mpfr_ptr)0);
    log_bounds(v, lo, hi);
    mpfr_abs(tol, log_ref, MPFR_RNDN);
    mpfr_mul_2si(tol, tol, -400, MPFR_RNDN);
    mpfr_sub(lo, lo, tol, MPFR_RNDD);
    mpfr_add(hi, hi, tol, MPFR_RNDU);
    if (!(mpfr_lessequal_p(lo, log_ref) && mpfr_lessequal_p(log_ref, hi))) {
        mpfr_fprintf(stderr, "%s\n  ref %.30Re\n  lo  %.30Re\n  hi  %.30Re\n", what, log_ref, lo,
                     hi);
        cr_assert_fail("%s: enclosure misses the reference", what);
    }
    mpfr_clears(lo, hi, tol, (mpfr_ptr)0);
}

/* The same for a plain value against a plain reference. */
static void assert_contains(const ul_num_value *v, mpfr_srcptr ref, const char *what)
{
    mpfr_t l;
    mpfr_init2(l, W);
    mpfr_log(l, ref, MPFR_RNDN);
    assert_log_contains(v, l, what);
    mpfr_clear(l);
}

/* |value − ref| ≤ rel·|ref| for a value printed with finitely many digits. */
static void assert_near(const ul_num_value *v, double ref, double rel, const char *what)
{
    mpfr_t lo, hi;
    mpfr_inits2(W, lo, hi, (mpfr_ptr)0);
    log_bounds(v, lo, hi);
    mpfr_exp(lo, lo, MPFR_RNDN);
    mpfr_exp(hi, hi, MPFR_RNDN);
    double l = mpfr_get_d(lo, MPFR_RNDN), h = mpfr_get_d(hi, MPFR_RNDN);
    cr_assert(fabs(l - ref) <= rel * fabs(ref) && fabs(h - ref) <= rel * fabs(ref),
              "%s: [%.12g, %.12g] vs %.12g", what, l, h, ref);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

static double upper_d(const ul_num_value *v)
{
    mpfr_t lo, hi;
    mpfr_inits2(W, lo, hi, (mpfr_ptr)0);
    log_bounds(v, lo, hi);
    double h = mpfr_get_d(hi, MPFR_RNDU);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return h; /* natural log of the upper end */
}

static double lower_d(const ul_num_value *v)
{
    mpfr_t lo, hi;
    mpfr_inits2(W, lo, hi, (mpfr_ptr)0);
    log_bounds(v, lo, hi);
    double l = mpfr_get_d(lo, MPFR_RNDD);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return l;
}

static ul_pre_state state_of(const ul_preconditions *pre, const char *name)
{
    for (int i = 0; i < pre->count; i++)
        if (strcmp(pre->items[i].name, name) == 0)
            return pre->items[i].state;
    cr_assert_fail("precondition %s not in the list", name);
    return UL_PRE_UNDECIDED;
}

/* A violation reported by name: UL_EINPUT, the message names the
 * precondition and the parameter, the item FAILS, every other item HOLDS. */
static void expect_violation(ul_status st, const char *err, const ul_preconditions *pre,
                             const char *name, const char *param)
{
    cr_assert_eq(st, UL_EINPUT, "%s: status %d (%s)", name, st, err);
    cr_assert(strstr(err, name) != NULL, "message does not name %s: %s", name, err);
    size_t n = strlen(param);
    cr_assert(strncmp(err, param, n) == 0 && err[n] == ':', "message does not start with %s: %s",
              param, err);
    cr_assert_eq(state_of(pre, name), UL_PRE_FAILS, "%s should fail", name);
    for (int i = 0; i < pre->count; i++)
        if (strcmp(pre->items[i].name, name) != 0)
            cr_assert_eq(pre->items[i].state, UL_PRE_HOLDS, "%s: %s should hold", name,
                         pre->items[i].name);
}

/* ==== model clipping ========================================================== */

/* log δ_T by the recursions of docs/neural-unlearning.md, "Model clipping" in plain MPFR:
 * r_t = D/σ_t (D = 2·C2 as decimal strings divided at W bits), log θ from
 * tests/oracle.c, δ0 = θ_{e^ε}(2·C0/σ0) or 1. */
static void oracle_mc(mpfr_ptr out, const char *eps, const char *diameter,
                      const char *const *sigma, size_t n_sigma, unsigned long steps,
                      const char *c0, const char *sigma0, bool adaptive)
{
    mpfr_t e, d, r, l, et, lt, tmp;
    mpfr_inits2(W, e, d, r, l, et, lt, tmp, (mpfr_ptr)0);
    ref_set(e, eps);
    ref_set(d, diameter);
    if (sigma0 != NULL) {
        ref_set(r, c0);
        mpfr_mul_2ui(r, r, 1, MPFR_RNDN);
        ref_set(tmp, sigma0);
        mpfr_div(r, r, tmp, MPFR_RNDN);
        oracle_log_theta(l, e, r);
    } else {
        mpfr_set_zero(l, 1);
    }
    for (unsigned long t = 0; t < steps; t++) {
        ref_set(tmp, sigma[n_sigma == 1 ? 0 : t]);
        mpfr_div(r, d, tmp, MPFR_RNDN);
        if (adaptive) {
            /* ε̃ = log(1 + (e^ε − 1)/δ_t) */
            mpfr_expm1(tmp, e, MPFR_RNDN);
            mpfr_neg(et, l, MPFR_RNDN);
            mpfr_exp(et, et, MPFR_RNDN);
            mpfr_mul(et, et, tmp, MPFR_RNDN);
            mpfr_log1p(et, et, MPFR_RNDN);
        } else {
            mpfr_set(et, e, MPFR_RNDN);
        }
        oracle_log_theta(lt, et, r);
        mpfr_add(l, l, lt, MPFR_RNDN);
    }
    mpfr_set(out, l, MPFR_RNDN);
    mpfr_clears(e, d, r, l, et, lt, tmp, (mpfr_ptr)0);
}

static ul_kol_mc_problem cc1(const char *eps, const char *c2, const char *const *sigma,
                             size_t n_sigma, unsigned long steps, ul_contraction_mode mode)
{
    ul_kol_mc_problem pb;
    memset(&pb, 0, sizeof pb);
    pb.eps = eps;
    pb.variant = UL_KOL_CC1;
    pb.c2 = c2;
    pb.sigma = sigma;
    pb.n_sigma = n_sigma;
    pb.steps = steps;
    pb.mode = mode;
    return pb;
}

static void mc_delta(ul_num_value *v, const ul_kol_mc_problem *pb)
{
    ul_num_report rep;
    ul_preconditions pre;
    bool floor;
    char err[512] = "";
    ul_status st = ul_kol_mc_delta_certified(pb, &WANT, &pre, v, &floor, &rep, err, sizeof err);
    cr_assert_eq(st, UL_OK, "%s", err);
    cr_assert(!floor);
    cr_assert(ul_num_value_narrow_enough(v, WANT.digits));
    cr_assert_eq(ul_pre_overall(&pre), UL_PRE_HOLDS);
}

Test(koloskova, mc_cc1_delta_matches_the_oracle_recursions)
{
    /* C2 = 0.5, σ = 0.3: r = 1/0.3 = 10/3 is not a terminating decimal, so
     * the certified path brackets it; the oracle divides at 4800 bits. */
    const char *s1[] = {"0.3"};
    const char *sl[] = {"0.3", "0.5", "0.25", "1"};
    mpfr_t ref;
    mpfr_init2(ref, W);
    ul_num_value v = new_value();
    for (int adaptive = 0; adaptive <= 1; adaptive++) {
        ul_contraction_mode mode = adaptive ? UL_CONTRACTION_ADAPTIVE : UL_CONTRACTION_PRODUCT;
        ul_kol_mc_problem pb = cc1("1", "0.5", s1, 1, 5, mode);
        mc_delta(&v, &pb);
        oracle_mc(ref, "1", "1", s1, 1, 5, NULL, NULL, adaptive);
        assert_log_contains(&v, ref, adaptive ? "adaptive r=10/3" : "product r=10/3");

        pb = cc1("0.7", "0.5", sl, 4, 4, mode);
        mc_delta(&v, &pb);
        oracle_mc(ref, "0.7", "1", sl, 4, 4, NULL, NULL, adaptive);
        assert_log_contains(&v, ref, "per-step sigma list");

        /* initial noise: C0 = 1, σ0 = 4, δ0 = θ_e(0.5) */
        pb = cc1("1", "0.5", s1, 1, 3, mode);
        pb.c0 = "1";
        pb.sigma0 = "4";
        mc_delta(&v, &pb);
        oracle_mc(ref, "1", "1", s1, 1, 3, "1", "4", adaptive);
        assert_log_contains(&v, ref, "with initial noise");
    }
    /* δ0 itself */
    ul_kol_mc_problem pb = cc1("1", "0.5", s1, 1, 3, UL_CONTRACTION_ADAPTIVE);
    pb.c0 = "1";
    pb.sigma0 = "4";
    ul_num_report rep;
    char err[512] = "";
    cr_assert_eq(ul_kol_mc_delta0_certified(&pb, &WANT, NULL, &v, &rep, err, sizeof err), UL_OK,
                 "%s", err);
    oracle_log_theta_str(ref, "1", "0.5");
    assert_log_contains(&v, ref, "delta0 = theta_e(0.5)");
    /* σ0 = 0 means no initial noise: δ0 = 1 exactly (docs/neural-unlearning.md, "Model clipping")
     * */
    pb.sigma0 = "0";
    cr_assert_eq(ul_kol_mc_delta0_certified(&pb, &WANT, NULL, &v, &rep, err, sizeof err), UL_OK);
    cr_assert(!v.is_log && mpfr_cmp_ui(&v.enclosure->left, 1) == 0 &&
              mpfr_cmp_ui(&v.enclosure->right, 1) == 0);
    ul_num_value_clear(&v);
    mpfr_clear(ref);
}

Test(koloskova, mc_cc2_diameter_and_box_initialisation)
{
    char err[512] = "";
    char *d = NULL;
    /* cc2: D = 2·(C2 + lr·C1) = 2·(0.5 + 0.01·10) = 1.2 (docs/neural-unlearning.md, "Model
     * clipping"); cc1: 2·C2 = 1 */
    const char *s1[] = {"0.5"};
    ul_kol_mc_problem pb = cc1("1", "0.5", s1, 1, 4, UL_CONTRACTION_ADAPTIVE);
    pb.variant = UL_KOL_CC2;
    pb.c1 = "10";
    pb.lr = "0.01";
    cr_assert_eq(ul_kol_mc_diameter(&pb, NULL, &d, err, sizeof err), UL_OK, "%s", err);
    int cmp = 9;
    cr_assert(ul_num_decimal_compare(d, "1.2", &cmp) && cmp == 0, "cc2 diameter %s", d);
    free(d);
    /* second formula: cc2 with (C2, C1, lr) is cc1 with C2' = C2 + lr·C1 = 0.6 */
    ul_num_value a = new_value(), b = new_value();
    mc_delta(&a, &pb);
    ul_kol_mc_problem pb1 = cc1("1", "0.6", s1, 1, 4, UL_CONTRACTION_ADAPTIVE);
    mc_delta(&b, &pb1);
    mpfr_t ref;
    mpfr_init2(ref, W);
    oracle_mc(ref, "1", "1.2", s1, 1, 4, NULL, NULL, true);
    assert_log_contains(&a, ref, "cc2");
    assert_log_contains(&b, ref, "cc1 with C2 + lr*C1");
    pb1.c2 = "0.5";
    cr_assert_eq(ul_kol_mc_diameter(&pb1, NULL, &d, err, sizeof err), UL_OK);
    cr_assert(ul_num_decimal_compare(d, "1", &cmp) && cmp == 0, "cc1 diameter %s", d);
    free(d);

    /* clamp box [−C0, C0]^d: diameter 2·C0·√d (docs/neural-unlearning.md, "Notation", Errata K6);
     * with d = 4
     * and C0 = 1 it is the ball of radius 2 */
    ul_num_report rep;
    pb1.c0 = "1";
    pb1.sigma0 = "3";
    pb1.init = UL_KOL_INIT_BOX;
    pb1.dim = 4;
    cr_assert_eq(ul_kol_mc_delta0_certified(&pb1, &WANT, NULL, &a, &rep, err, sizeof err), UL_OK);
    mpfr_t r, e;
    mpfr_inits2(W, r, e, (mpfr_ptr)0);
    mpfr_set_ui(r, 4, MPFR_RNDN);
    mpfr_div_ui(r, r, 3, MPFR_RNDN); /* 2·1·√4/3 */
    mpfr_set_ui(e, 1, MPFR_RNDN);
    oracle_log_theta(ref, e, r);
    assert_log_contains(&a, ref, "box delta0");
    pb1.init = UL_KOL_INIT_BALL;
    pb1.c0 = "2";
    cr_assert_eq(ul_kol_mc_delta0_certified(&pb1, &WANT, NULL, &b, &rep, err, sizeof err), UL_OK);
    assert_log_contains(&b, ref, "ball of radius 2");
    mpfr_clears(r, e, (mpfr_ptr)0);
    mpfr_clear(ref);
    ul_num_value_clear(&a);
    ul_num_value_clear(&b);
}

/* The least T by the oracle: the recursion of oracle_mc stepped until
 * log δ_t ≤ log δ (constant σ). */
static unsigned long oracle_least_t(const char *eps, const char *diameter, const char *sigma,
                                    const char *c0, const char *sigma0, const char *delta,
                                    bool adaptive)
{
    mpfr_t e, r, l, ld, et, lt, tmp;
    mpfr_inits2(W, e, r, l, ld, et, lt, tmp, (mpfr_ptr)0);
    ref_set(e, eps);
    ref_set(ld, delta);
    mpfr_log(ld, ld, MPFR_RNDN);
    const char *s[] = {sigma};
    oracle_mc(l, eps, diameter, s, 1, 0, c0, sigma0, adaptive); /* log δ0 */
    ref_set(r, diameter);
    ref_set(tmp, sigma);
    mpfr_div(r, r, tmp, MPFR_RNDN);
    unsigned long t = 0;
    for (; mpfr_greater_p(l, ld); t++) {
        if (adaptive) {
            mpfr_expm1(tmp, e, MPFR_RNDN);
            mpfr_neg(et, l, MPFR_RNDN);
            mpfr_exp(et, et, MPFR_RNDN);
            mpfr_mul(et, et, tmp, MPFR_RNDN);
            mpfr_log1p(et, et, MPFR_RNDN);
        } else {
            mpfr_set(et, e, MPFR_RNDN);
        }
        oracle_log_theta(lt, et, r);
        mpfr_add(l, l, lt, MPFR_RNDN);
    }
    mpfr_clears(e, r, l, ld, et, lt, tmp, (mpfr_ptr)0);
    return t;
}

Test(koloskova, mc_least_steps_spec_values_and_oracle)
{
    ul_num_report rep;
    ul_preconditions pre;
    char err[512] = "";
    unsigned long t = 0;
    /* docs/neural-unlearning.md, Errata K10: for r = 2 (CIFAR config σ = C2 = 0.5, ε = 1,
     * δ0 = 1, δ = 1e-5) the adaptive recursion needs T = 6 steps, versus 18
     * for the product δ0·θ_{e^ε}(r)^T. */
    const char *s[] = {"0.5"};
    ul_kol_mc_problem pb = cc1("1", "0.5", s, 1, 0, UL_CONTRACTION_ADAPTIVE);
    cr_assert_eq(ul_kol_mc_least_steps(&pb, "1e-5", 1000, &pre, &t, &rep, err, sizeof err), UL_OK,
                 "%s", err);
    cr_assert_eq(t, 6);
    pb.mode = UL_CONTRACTION_PRODUCT;
    cr_assert_eq(ul_kol_mc_least_steps(&pb, "1e-5", 1000, &pre, &t, &rep, err, sizeof err), UL_OK);
    cr_assert_eq(t, 18);
    /* r = 10/3 (bracketed) and initial noise (δ0 bracketed), against the oracle */
    const char *s3[] = {"0.3"};
    for (int adaptive = 0; adaptive <= 1; adaptive++) {
        pb = cc1("1", "0.5", s3, 1, 0,
                 adaptive ? UL_CONTRACTION_ADAPTIVE : UL_CONTRACTION_PRODUCT);
        cr_assert_eq(ul_kol_mc_least_steps(&pb, "1e-5", 1000, &pre, &t, &rep, err, sizeof err),
                     UL_OK, "%s", err);
        cr_assert_eq(t, oracle_least_t("1", "1", "0.3", NULL, NULL, "1e-5", adaptive));
        pb.c0 = "1";
        pb.sigma0 = "4";
        cr_assert_eq(ul_kol_mc_least_steps(&pb, "1e-5", 1000, &pre, &t, &rep, err, sizeof err),
                     UL_OK, "%s", err);
        cr_assert_eq(t, oracle_least_t("1", "1", "0.3", "1", "4", "1e-5", adaptive));
    }
    /* not reachable within max_steps */
    pb = cc1("1", "0.5", s3, 1, 0, UL_CONTRACTION_PRODUCT);
    cr_assert_eq(ul_kol_mc_least_steps(&pb, "1e-5", 3, &pre, &t, &rep, err, sizeof err),
                 UL_ENOROOT);
}

Test(koloskova, mc_sigma_min_is_safe_and_tight)
{
    ul_num_report rep;
    ul_preconditions pre;
    char err[512] = "";
    mpfi_t s;
    mpfi_init2(s, 64);
    mpfr_t l, ld;
    mpfr_inits2(W, l, ld, (mpfr_ptr)0);
    ref_set(ld, "1e-5");
    mpfr_log(ld, ld, MPFR_RNDN);
    for (int init = 0; init <= 1; init++) {
        for (int adaptive = 0; adaptive <= 1; adaptive++) {
            ul_kol_mc_problem pb =
                cc1("1", "0.5", NULL, 0, 5,
                    adaptive ? UL_CONTRACTION_ADAPTIVE : UL_CONTRACTION_PRODUCT);
            if (init) {
                pb.c0 = "1";
                pb.sigma0 = "4";
            }
            cr_assert_eq(ul_kol_mc_sigma_min(&pb, "1e-5", &WANT, &pre, s, &rep, err, sizeof err),
                         UL_OK, "%s", err);
            /* the oracle at the two ends (printed to 25 digits, rounded outward) */
            char lo[64], hi[64];
            mpfr_snprintf(lo, sizeof lo, "%.25RDe", &s->left);
            mpfr_snprintf(hi, sizeof hi, "%.25RUe", &s->right);
            const char *sl[] = {lo}, *sh[] = {hi};
            oracle_mc(l, "1", "1", sh, 1, 5, init ? "1" : NULL, init ? "4" : NULL, adaptive);
            cr_assert(mpfr_lessequal_p(l, ld), "upper end must be safe");
            oracle_mc(l, "1", "1", sl, 1, 5, init ? "1" : NULL, init ? "4" : NULL, adaptive);
            cr_assert(mpfr_greater_p(l, ld), "lower end must be unsafe");
            mpfr_t w;
            mpfr_init2(w, 64);
            mpfi_diam_rel(w, s);
            cr_assert(mpfr_cmp_d(w, 1e-16) < 0, "too wide");
            mpfr_clear(w);
        }
    }
    mpfr_clears(l, ld, (mpfr_ptr)0);
    mpfi_clear(s);
}

Test(koloskova, mc_more_noise_or_more_steps_never_worsen)
{
    const char *sa[] = {"0.4"}, *sb[] = {"0.5"};
    ul_num_value a = new_value(), b = new_value();
    for (int adaptive = 0; adaptive <= 1; adaptive++) {
        ul_contraction_mode mode = adaptive ? UL_CONTRACTION_ADAPTIVE : UL_CONTRACTION_PRODUCT;
        /* more steps */
        ul_kol_mc_problem pa = cc1("1", "0.5", sa, 1, 3, mode), pb = cc1("1", "0.5", sa, 1, 4, mode);
        mc_delta(&a, &pa);
        mc_delta(&b, &pb);
        cr_assert(upper_d(&b) <= lower_d(&a), "T = 4 above T = 3");
        /* more noise */
        pb = cc1("1", "0.5", sb, 1, 3, mode);
        mc_delta(&b, &pb);
        cr_assert(upper_d(&b) <= lower_d(&a), "sigma 0.5 above sigma 0.4");
        /* more initial noise */
        pa.c0 = pb.c0 = "1";
        pa.sigma0 = "2";
        pb = pa;
        pb.sigma0 = "3";
        mc_delta(&a, &pa);
        mc_delta(&b, &pb);
        cr_assert(upper_d(&b) <= lower_d(&a), "sigma0 3 above sigma0 2");
        /* initial noise never worse than none (δ0 = 1) */
        pb.sigma0 = NULL;
        mc_delta(&b, &pb);
        cr_assert(upper_d(&a) <= lower_d(&b));
    }
    /* the adaptive accounting is never above the product (docs/neural-unlearning.md, Errata K10) */
    ul_kol_mc_problem pa = cc1("1", "0.5", sa, 1, 4, UL_CONTRACTION_PRODUCT);
    ul_kol_mc_problem pb = cc1("1", "0.5", sa, 1, 4, UL_CONTRACTION_ADAPTIVE);
    mc_delta(&a, &pa);
    mc_delta(&b, &pb);
    cr_assert(upper_d(&b) <= lower_d(&a));
    ul_num_value_clear(&a);
    ul_num_value_clear(&b);
}

typedef struct {
    const char *name, *param;
    ul_kol_mc_problem pb;
} mc_case;

Test(koloskova, mc_preconditions_violated_one_at_a_time)
{
    ul_num_report rep;
    ul_preconditions pre;
    bool floor;
    char err[512];
    ul_num_value v = new_value();
    const char *s[] = {"0.5"}, *bad_s[] = {"0.5", "-0.1"};
    mc_case cases[9];
    int n = 0;
    ul_kol_mc_problem base = cc1("1", "0.5", s, 1, 2, UL_CONTRACTION_ADAPTIVE);
    ul_kol_mc_problem p;

    p = base, p.eps = "-1";
    cases[n++] = (mc_case){"eps_nonneg", "eps", p};
    p = base, p.c2 = "0";
    cases[n++] = (mc_case){"c2_positive", "c2", p};
    p = base, p.sigma = bad_s, p.n_sigma = 2;
    cases[n++] = (mc_case){"sigma_positive", "sigma", p};
    p = base, p.variant = UL_KOL_CC2, p.c1 = "0", p.lr = "0.1";
    cases[n++] = (mc_case){"c1_positive", "c1", p};
    p = base, p.variant = UL_KOL_CC2, p.c1 = "1", p.lr = "-0.1";
    cases[n++] = (mc_case){"lr_positive", "lr", p};
    p = base, p.sigma0 = "-1", p.c0 = "1";
    cases[n++] = (mc_case){"sigma0_nonneg", "sigma0", p};
    p = base, p.sigma0 = "1", p.c0 = "0";
    cases[n++] = (mc_case){"c0_positive", "c0", p};
    p = base, p.sigma0 = "1", p.c0 = "1", p.init = UL_KOL_INIT_BOX, p.dim = 0;
    cases[n++] = (mc_case){"dim_positive", "dim", p};
    for (int i = 0; i < n; i++) {
        err[0] = '\0';
        ul_status st = ul_kol_mc_delta_certified(&cases[i].pb, &WANT, &pre, &v, &floor, &rep, err,
                                                 sizeof err);
        expect_violation(st, err, &pre, cases[i].name, cases[i].param);
    }
    /* the calibrations report the same */
    unsigned long t;
    p = base, p.c2 = "-2";
    expect_violation(ul_kol_mc_least_steps(&p, "1e-5", 100, &pre, &t, &rep, err, sizeof err), err,
                     &pre, "c2_positive", "c2");
    mpfi_t sg;
    mpfi_init2(sg, 64);
    expect_violation(ul_kol_mc_sigma_min(&p, "1e-5", &WANT, &pre, sg, &rep, err, sizeof err), err,
                     &pre, "c2_positive", "c2");
    mpfi_clear(sg);
    /* input errors (not preconditions) name the parameter too */
    p = base, p.c2 = "abc";
    cr_assert_eq(ul_kol_mc_delta_certified(&p, &WANT, &pre, &v, &floor, &rep, err, sizeof err),
                 UL_EINPUT);
    cr_assert(strncmp(err, "c2:", 3) == 0, "%s", err);
    p = base, p.steps = 3, p.sigma = bad_s, p.n_sigma = 2;
    cr_assert_eq(ul_kol_mc_delta_certified(&p, &WANT, &pre, &v, &floor, &rep, err, sizeof err),
                 UL_EINPUT);
    cr_assert(strncmp(err, "sigma:", 6) == 0, "%s", err);
    cr_assert_eq(ul_kol_mc_least_steps(&base, "1", 100, &pre, &t, &rep, err, sizeof err),
                 UL_EINPUT);
    cr_assert(strncmp(err, "delta:", 6) == 0, "%s", err);
    ul_num_value_clear(&v);
}

/* ==== gradient clipping (PABI) ================================================ */

static ul_kol_pabi_problem pabi(const char *c0, const char *c1, const char *lr,
                                const char *lambda, unsigned long steps,
                                const char *const *sigma, size_t n_sigma)
{
    ul_kol_pabi_problem pb;
    memset(&pb, 0, sizeof pb);
    pb.c0 = c0;
    pb.c1 = c1;
    pb.lr = lr;
    pb.lambda = lambda;
    pb.steps = steps;
    pb.noise = UL_KOL_PABI_GIVEN;
    pb.sigma = sigma;
    pb.n_sigma = n_sigma;
    return pb;
}

/* ρ_eff from its definition (docs/neural-unlearning.md, "Gradient clipping"), with every product
 * and sum spelled
 * out term by term in plain MPFR:
 *   ½·[(∏_{t<T} ρ)·D0 + Σ_{t<T} (∏_{k=t+1}^{T−1} ρ)·s]² / Σ_{t<T} (∏_{k=t+1}^{T−1} ρ²)·σ_t². */
static void oracle_rho(mpfr_ptr out, const char *c0, const char *c1, const char *lr,
                       const char *lambda, unsigned long T, const double *sigma2_scale,
                       const char *const *sigma, size_t n_sigma)
{
    mpfr_t rho, d0, s, num, den, prod, term, v;
    mpfr_inits2(W, rho, d0, s, num, den, prod, term, v, (mpfr_ptr)0);
    ref_set(rho, lr);
    ref_set(v, lambda);
    mpfr_mul(rho, rho, v, MPFR_RNDN);
    mpfr_ui_sub(rho, 1, rho, MPFR_RNDN);
    ref_set(d0, c0);
    mpfr_mul_2ui(d0, d0, 1, MPFR_RNDN);
    ref_set(s, lr);
    ref_set(v, c1);
    mpfr_mul(s, s, v, MPFR_RNDN);
    mpfr_mul_2ui(s, s, 1, MPFR_RNDN);
    mpfr_set(num, d0, MPFR_RNDN);
    for (unsigned long t = 0; t < T; t++)
        mpfr_mul(num, num, rho, MPFR_RNDN);
    mpfr_set_zero(den, 1);
    for (unsigned long t = 0; t < T; t++) {
        mpfr_set_ui(prod, 1, MPFR_RNDN);
        for (unsigned long k = t + 1; k < T; k++)
            mpfr_mul(prod, prod, rho, MPFR_RNDN);
        mpfr_mul(term, prod, s, MPFR_RNDN);
        mpfr_add(num, num, term, MPFR_RNDN);
        ref_set(v, sigma[n_sigma == 1 ? 0 : t]);
        mpfr_sqr(v, v, MPFR_RNDN);
        if (sigma2_scale != NULL)
            mpfr_mul_d(v, v, sigma2_scale[t], MPFR_RNDN);
        mpfr_sqr(term, prod, MPFR_RNDN);
        mpfr_mul(term, term, v, MPFR_RNDN);
        mpfr_add(den, den, term, MPFR_RNDN);
    }
    mpfr_sqr(num, num, MPFR_RNDN);
    mpfr_div(out, num, den, MPFR_RNDN);
    mpfr_div_2ui(out, out, 1, MPFR_RNDN);
    mpfr_clears(rho, d0, s, num, den, prod, term, v, (mpfr_ptr)0);
}

static void pabi_rho(ul_num_value *v, const ul_kol_pabi_problem *pb, bool guarantee)
{
    ul_num_report rep;
    ul_preconditions pre;
    char err[512] = "";
    ul_status st = guarantee ? ul_kol_pabi_rho_certified(pb, &WANT, &pre, v, &rep, err, sizeof err)
                             : ul_kol_pabi_rho_formula_certified(pb, &WANT, v, &rep, err,
                                                                 sizeof err);
    cr_assert_eq(st, UL_OK, "%s", err);
    cr_assert(ul_num_value_narrow_enough(v, WANT.digits));
}

Test(koloskova, pabi_rho_matches_its_definition)
{
    mpfr_t ref;
    mpfr_init2(ref, W);
    ul_num_value v = new_value();
    /* constant σ (closed forms inside), λ > 0 and λ = 0, ball and box */
    const char *s1[] = {"0.3"};
    ul_kol_pabi_problem pb = pabi("1", "0.5", "0.1", "2", 7, s1, 1);
    pabi_rho(&v, &pb, true);
    oracle_rho(ref, "1", "0.5", "0.1", "2", 7, NULL, s1, 1);
    assert_contains(&v, ref, "constant sigma, lambda 2");
    pb = pabi("1", "0.5", "0.1", "0", 7, s1, 1);
    pabi_rho(&v, &pb, true);
    oracle_rho(ref, "1", "0.5", "0.1", "0", 7, NULL, s1, 1);
    assert_contains(&v, ref, "constant sigma, lambda 0");
    /* a tiny lr·λ (the closed forms use expm1/log1p) */
    pb = pabi("3", "0.5", "0.001", "0.001", 40, s1, 1);
    pabi_rho(&v, &pb, true);
    oracle_rho(ref, "3", "0.5", "0.001", "0.001", 40, NULL, s1, 1);
    assert_contains(&v, ref, "lr*lambda = 1e-6");
    /* box of dimension 9: D0 = 2·C0·3, i.e. the ball with C0 = 3 */
    pb = pabi("1", "0.5", "0.1", "2", 7, s1, 1);
    pb.init = UL_KOL_INIT_BOX;
    pb.dim = 9;
    pabi_rho(&v, &pb, true);
    oracle_rho(ref, "3", "0.5", "0.1", "2", 7, NULL, s1, 1);
    assert_contains(&v, ref, "box d = 9");
    /* per-step list (Horner inside) */
    const char *sl[] = {"0.5", "0.4", "0.3", "0.35", "0.2"};
    pb = pabi("1", "0.5", "0.1", "2", 5, sl, 5);
    pabi_rho(&v, &pb, false);
    oracle_rho(ref, "1", "0.5", "0.1", "2", 5, NULL, sl, 5);
    assert_contains(&v, ref, "per-step list");
    /* the same value as one constant σ given once or T times */
    const char *same[] = {"0.3", "0.3", "0.3", "0.3", "0.3", "0.3", "0.3"};
    pb = pabi("1", "0.5", "0.1", "2", 7, same, 7);
    pabi_rho(&v, &pb, true);
    oracle_rho(ref, "1", "0.5", "0.1", "2", 7, NULL, s1, 1);
    assert_contains(&v, ref, "constant sigma as a list");
    ul_num_value_clear(&v);
    mpfr_clear(ref);
}

Test(koloskova, pabi_code_calibration_figure_2)
{
    /* docs/neural-unlearning.md, "Public code", Figure 2 (convergence): PABI with C0 = 20,
     * C1 = 10, η = 0.01, λ = 50, ε_R = 1 gives T = 11, σ = 0.2567898.
     * T: T0 = ⌈20/(10·0.01)⌉ = 200; T1 = ⌈log(2·50·20/10)/(0.01·50)⌉ =
     * ⌈2·log 200⌉ = ⌈10.5966⌉ = 11 < 200. */
    char err[512] = "";
    unsigned long t = 0;
    cr_assert_eq(ul_kol_pabi_code_steps("20", "10", "0.01", "50", &t, err, sizeof err), UL_OK,
                 "%s", err);
    cr_assert_eq(t, 11);
    ul_kol_pabi_problem pb = pabi("20", "10", "0.01", "50", 11, NULL, 0);
    pb.noise = UL_KOL_PABI_CODE_CONSTANT;
    pb.eps_renyi = "1";
    ul_num_value v = new_value();
    ul_num_report rep;
    ul_preconditions pre;
    bool flag = true;
    cr_assert_eq(ul_kol_pabi_code_sigma_certified(&pb, 0, &WANT, &pre, &v, &flag, &rep, err,
                                                  sizeof err),
                 UL_OK, "%s", err);
    cr_assert(!flag);
    assert_near(&v, 0.2567898, 2e-7, "Figure 2 sigma");
    /* and that σ makes ρ_eff = ε_R (docs/neural-unlearning.md, "Gradient clipping" [NUM]: 1.000 on
     * every released
     * config): the definition evaluated at the certified σ's two ends
     * brackets 1 */
    mpfr_t ref;
    mpfr_init2(ref, W);
    char lo[64], hi[64];
    mpfr_snprintf(lo, sizeof lo, "%.40RDe", &v.enclosure->left);
    mpfr_snprintf(hi, sizeof hi, "%.40RUe", &v.enclosure->right);
    const char *sl[] = {lo}, *sh[] = {hi};
    oracle_rho(ref, "20", "10", "0.01", "50", 11, NULL, sl, 1);
    cr_assert(mpfr_cmp_ui(ref, 1) >= 0);
    oracle_rho(ref, "20", "10", "0.01", "50", 11, NULL, sh, 1);
    cr_assert(mpfr_cmp_ui(ref, 1) <= 0);
    pabi_rho(&v, &pb, true);
    assert_near(&v, 1.0, 1e-15, "rho_eff of the code's constant schedule");
    mpfr_clear(ref);
    ul_num_value_clear(&v);
}

Test(koloskova, pabi_lambda_zero_branch_printed_doubles_rho)
{
    /* λ = 0, C0 = 1, C1 = 0.5, lr = 0.1, T = 8, ε_R = 0.5:
     * B = 2·C0 + 2·lr·C1·T = 2 + 0.8 = 2.8 and S = T·σ², so ρ_eff =
     * B²/(2·T·σ²).  The code's σ² = B²/(4·ε_R·T) gives ρ_eff = 2·ε_R = 1; the
     * corrected σ² = B²/(2·ε_R·T) (the λ → 0 limit, docs/neural-unlearning.md, Errata K5) gives
     * ε_R. */
    ul_kol_pabi_problem pb = pabi("1", "0.5", "0.1", "0", 8, NULL, 0);
    pb.noise = UL_KOL_PABI_CODE_CONSTANT;
    pb.eps_renyi = "0.5";
    ul_num_value v = new_value(), e_printed = new_value(), e_corrected = new_value();
    ul_num_report rep;
    ul_preconditions pre;
    char err[512] = "", alpha[UL_RENYI_ALPHA_TEXT_LEN];
    bool flag = false;

    pb.variant = UL_VARIANT_PRINTED;
    cr_assert_eq(ul_kol_pabi_code_sigma_certified(&pb, 0, &WANT, &pre, &v, &flag, &rep, err,
                                                  sizeof err),
                 UL_OK, "%s", err);
    cr_assert(flag, "the printed lambda = 0 branch must be flagged");
    assert_near(&v, sqrt(2.8 * 2.8 / (4 * 0.5 * 8)), 1e-15, "printed sigma");
    pabi_rho(&v, &pb, true);
    assert_near(&v, 1.0, 1e-15, "printed: rho_eff = 2 eps_R");
    cr_assert_eq(ul_kol_pabi_eps_certified(&pb, "1e-5", UL_RDP_BBGHS, &WANT, &pre, &e_printed,
                                           alpha, sizeof alpha, &rep, err, sizeof err),
                 UL_OK, "%s", err);

    pb.variant = UL_VARIANT_CORRECTED;
    cr_assert_eq(ul_kol_pabi_code_sigma_certified(&pb, 3, &WANT, &pre, &v, &flag, &rep, err,
                                                  sizeof err),
                 UL_OK, "%s", err);
    cr_assert(!flag);
    assert_near(&v, sqrt(2.8 * 2.8 / (2 * 0.5 * 8)), 1e-15, "corrected sigma");
    pabi_rho(&v, &pb, true);
    assert_near(&v, 0.5, 1e-15, "corrected: rho_eff = eps_R");
    cr_assert_eq(ul_kol_pabi_eps_certified(&pb, "1e-5", UL_RDP_BBGHS, &WANT, &pre, &e_corrected,
                                           alpha, sizeof alpha, &rep, err, sizeof err),
                 UL_OK, "%s", err);
    /* the printed branch over-claims: for the same target its noise gives a
     * strictly larger certified ε */
    cr_assert(lower_d(&e_printed) > upper_d(&e_corrected));
    ul_num_value_clear(&v);
    ul_num_value_clear(&e_printed);
    ul_num_value_clear(&e_corrected);
}

/* v, a certified feasible allocation's cost, is ≥ the optimum ref (less a
 * hair for the oracle's rounding) and within rel of it. */
static void assert_near_optimum(const ul_num_value *v, mpfr_srcptr ref, double rel,
                                const char *what)
{
    double r = mpfr_get_d(ref, MPFR_RNDN);
    double hi = mpfr_get_d(&v->enclosure->right, MPFR_RNDU);
    double lo = mpfr_get_d(&v->enclosure->left, MPFR_RNDD);
    cr_assert(hi >= r * (1 - 1e-15), "%s: [%.17g, %.17g] below the optimum %.17g", what, lo, hi, r);
    cr_assert(lo <= r * (1 + rel), "%s: [%.17g, %.17g] vs optimum %.17g", what, lo, hi, r);
}

Test(koloskova, pabi_searched_allocation_is_the_enumerated_optimum)
{
    /* Front-loaded per-step lists whose closed form is infeasible, λ = 0 and
     * λ > 0 (ρ = 0.8, 0.5): the certified bound of the searched allocation
     * against the best of every active set (pabi_oracle.h, enumeration, a
     * method independent of the library's convex hull); a feasible
     * allocation can never beat the optimum, and the search must find it to
     * double-rounding accuracy. */
    static const char *l1[] = {"5", "3", "1", "0.5", "0.5", "0.2"};
    static const char *l2[] = {"40", "1", "30", "0.1", "2", "0.05", "0.05"};
    static const char *l3[] = {"4", "2", "1", "1"};
    const struct {
        const char *c0, *c1, *lr, *lambda;
        const char *const *sigma;
        unsigned T;
    } cases[] = {
        {"1", "1", "0.1", "2", l1, 6},
        {"1", "1", "0.1", "0", l1, 6},
        {"0.5", "2", "0.25", "2", l2, 7},
        {"1", "1", "0.1", "0", l3, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ul_kol_pabi_problem pb = pabi(cases[i].c0, cases[i].c1, cases[i].lr, cases[i].lambda,
                                      cases[i].T, cases[i].sigma, cases[i].T);
        ul_num_value v = new_value();
        ul_num_report rep;
        ul_preconditions pre;
        ul_kol_pabi_alloc alloc;
        char err[512] = "";
        cr_assert_eq(ul_kol_pabi_rho_alloc_certified(&pb, &WANT, &pre, &v, &alloc, &rep, err,
                                                     sizeof err),
                     UL_OK, "case %zu: %s", i, err);
        cr_assert(alloc.searched, "case %zu: the closed form is feasible", i);
        mpfr_t best, sig2[8];
        mpfr_init2(best, W);
        for (unsigned t = 0; t < cases[i].T; t++) {
            mpfr_init2(sig2[t], W);
            ref_set(sig2[t], cases[i].sigma[t]);
            mpfr_sqr(sig2[t], sig2[t], MPFR_RNDN);
        }
        pabi_oracle_best_str(best, cases[i].c0, cases[i].c1, cases[i].lr, cases[i].lambda, sig2,
                             cases[i].T);
        char what[32];
        snprintf(what, sizeof what, "case %zu", i);
        assert_near_optimum(&v, best, 1e-12, what);
        for (unsigned t = 0; t < cases[i].T; t++)
            mpfr_clear(sig2[t]);
        mpfr_clear(best);
        ul_num_value_clear(&v);
    }
}

Test(koloskova, pabi_searched_allocation_long_run_by_hand)
{
    /* λ = 0, D0 = 2, s = 2·0.001·1 = 0.002, σ = 50 for 100 steps then 0.05
     * for 1900: the closed form would spread D0 + s·T over the cheap steps and
     * drive the shift negative.  By hand (KKT), the optimum removes
     * D0 + 100·s = 2.2 evenly over the first 100 steps (z_100 = 0) and then s
     * at every step (z stays 0; equal σ, the segment's closed form):
     * 2.2²/(2·100·50²) + 1900·0.002²/(2·0.05²) = 9.68e-6 + 1.52. */
    enum { T = 2000 };
    static const char *sg[T];
    for (int t = 0; t < T; t++)
        sg[t] = t < 100 ? "50" : "0.05";
    ul_kol_pabi_problem pb = pabi("1", "1", "0.001", "0", T, sg, T);
    ul_num_value v = new_value();
    ul_num_report rep;
    ul_preconditions pre;
    ul_kol_pabi_alloc alloc;
    char err[512] = "";
    cr_assert_eq(ul_kol_pabi_rho_alloc_certified(&pb, &WANT, &pre, &v, &alloc, &rep, err,
                                                 sizeof err),
                 UL_OK, "%s", err);
    cr_assert(alloc.searched && alloc.closed_form_fails);
    cr_assert_eq(alloc.zero_at[0], 100);
    mpfr_t ref;
    mpfr_init2(ref, W);
    mpfr_set_str(ref, "1.52000968", 10, MPFR_RNDN);
    assert_near_optimum(&v, ref, 1e-12, "long front-loaded run");
    mpfr_clear(ref);
    ul_num_value_clear(&v);
}

Test(koloskova, pabi_rho_exact_where_rational)
{
    /* λ = 0, ball: ρ_eff = (D0 + s·T)²/(2·Σσ_t²) by hand.  C0 = 1, C1 = 1,
     * lr = 0.1, T = 10, σ = 1: (2 + 2)²/20 = 4/5 exactly. */
    const char *one[] = {"1"};
    ul_kol_pabi_problem pb = pabi("1", "1", "0.1", "0", 10, one, 1);
    mpq_t r, want;
    mpq_inits(r, want, NULL);
    cr_assert(ul_kol_pabi_rho_exact(&pb, r));
    mpq_set_ui(want, 4, 5);
    cr_assert(mpq_equal(r, want));
    /* the box with d = 9: D0 = 2·1·3 = 6, (6 + 2)²/20 = 16/5; d = 2 is irrational */
    pb.init = UL_KOL_INIT_BOX;
    pb.dim = 9;
    cr_assert(ul_kol_pabi_rho_exact(&pb, r));
    mpq_set_ui(want, 16, 5);
    cr_assert(mpq_equal(r, want));
    pb.dim = 2;
    cr_assert(!ul_kol_pabi_rho_exact(&pb, r));
    /* a feasible list [1, 2]: T = 2, B = 2 + 0.4, S = 5: 2.4²/10 = 0.576 = 72/125 */
    const char *l[] = {"1", "2"};
    pb = pabi("1", "1", "0.1", "0", 2, l, 2);
    cr_assert(ul_kol_pabi_rho_exact(&pb, r));
    mpq_set_ui(want, 72, 125);
    cr_assert(mpq_equal(r, want));
    /* the code's λ = 0 schedule, printed branch: ρ_eff = 2·ε_R (docs/neural-unlearning.md, Errata
     * K5) */
    pb = pabi("1", "1", "0.1", "0", 10, NULL, 0);
    pb.noise = UL_KOL_PABI_CODE_CONSTANT;
    pb.eps_renyi = "1.5";
    pb.variant = UL_VARIANT_PRINTED;
    cr_assert(ul_kol_pabi_rho_exact(&pb, r));
    mpq_set_ui(want, 3, 1);
    cr_assert(mpq_equal(r, want));
    /* λ > 0, ρ = 0.8: against the term-by-term definition in MPFR at W bits */
    pb = pabi("1", "0.5", "0.1", "2", 7, one, 1);
    cr_assert(ul_kol_pabi_rho_exact(&pb, r));
    mpfr_t ref, got;
    mpfr_inits2(W, ref, got, (mpfr_ptr)0);
    oracle_rho(ref, "1", "0.5", "0.1", "2", 7, NULL, one, 1);
    mpfr_set_q(got, r, MPFR_RNDN);
    mpfr_sub(got, got, ref, MPFR_RNDN);
    mpfr_div(got, got, ref, MPFR_RNDN);
    cr_assert_lt(fabs(mpfr_get_d(got, MPFR_RNDN)), 1e-300);
    mpfr_clears(ref, got, (mpfr_ptr)0);
    /* the code's constant schedule at λ > 0 makes ρ_eff = ε_R exactly
     * (docs/neural-unlearning.md, "Gradient clipping"), Figure-2 configuration */
    pb = pabi("20", "10", "0.01", "50", 11, NULL, 0);
    pb.noise = UL_KOL_PABI_CODE_CONSTANT;
    pb.eps_renyi = "1";
    cr_assert(ul_kol_pabi_rho_exact(&pb, r));
    cr_assert_eq(mpq_cmp_ui(r, 1, 1), 0);
    /* not the closed form's value: the decreasing schedule at λ > 0 (left to
     * the enclosures), a front-loaded list (infeasible closed form) */
    pb.noise = UL_KOL_PABI_CODE_DECREASING;
    cr_assert(!ul_kol_pabi_rho_exact(&pb, r));
    const char *bad[] = {"100", "0.01", "0.01"};
    pb = pabi("0.1", "1", "0.1", "0", 3, bad, 3);
    cr_assert(!ul_kol_pabi_rho_exact(&pb, r));
    mpq_clears(r, want, NULL);
}

Test(koloskova, pabi_decreasing_schedule_shift_feasibility)
{
    /* The code's decreasing schedule, Figure-2 configuration (C0 = 20,
     * C1 = 10, lr = 0.01, λ = 50, T = 11, ε_R = 1).  By hand: ρ = 0.5,
     * s = 0.2, A = B ≈ 40·0.5^11 + 0.4·(1 − 0.5^11) ≈ 0.41933, and
     * w_t²σ_t² = A²/(2·ε_R·T) for every t, so the closed form's reductions are
     * a_t = B·w_t·σ_t²/S = A/(T·w_t): a_0 = 0.41933·2^10/11 ≈ 39.03, while the
     * shift before the first noise is only ρ·D0 + s = 20.2.  So z_1 < 0: that
     * allocation is not one Feldman et al.'s Thm 22 allows, although the
     * formula evaluates to exactly ε_R = 1 (every term equal).  The theorem
     * holds for every feasible allocation: the bound is the best one's, found
     * here by enumeration (pabi_oracle.h), and it is ≥ 1, the minimum without
     * the z_t ≥ 0 constraints. */
    ul_kol_pabi_problem pb = pabi("20", "10", "0.01", "50", 11, NULL, 0);
    pb.noise = UL_KOL_PABI_CODE_DECREASING;
    pb.eps_renyi = "1";
    ul_num_value v = new_value();
    ul_num_report rep;
    ul_preconditions pre;
    char err[512] = "";
    ul_kol_pabi_alloc alloc;
    cr_assert_eq(ul_kol_pabi_rho_alloc_certified(&pb, &WANT, &pre, &v, &alloc, &rep, err,
                                                 sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(state_of(&pre, "pabi_shifts_feasible"), UL_PRE_HOLDS);
    cr_assert(alloc.searched && alloc.closed_form_fails);
    mpfr_t best;
    mpfr_init2(best, W);
    pabi_oracle_fig2_decreasing(best);
    cr_assert_gt(mpfr_get_d(best, MPFR_RNDN), 1.0);
    assert_near_optimum(&v, best, 1e-12, "Figure-2 decreasing schedule");
    mpfr_clear(best);
    pabi_rho(&v, &pb, false);
    assert_near(&v, 1.0, 1e-15, "the formula's value");
    /* the decreasing σ_t against its closed form: σ_t² = A²/(2·ε_R·T)·4^{T−t−1}
     * here, so σ_0/σ_10 = 2^10 */
    ul_num_value a = new_value(), b = new_value();
    bool flag;
    cr_assert_eq(ul_kol_pabi_code_sigma_certified(&pb, 0, &WANT, &pre, &a, &flag, &rep, err,
                                                  sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(ul_kol_pabi_code_sigma_certified(&pb, 10, &WANT, &pre, &b, &flag, &rep, err,
                                                  sizeof err),
                 UL_OK, "%s", err);
    mpfi_div(a.enclosure, a.enclosure, b.enclosure);
    assert_near(&a, 1024.0, 1e-15, "sigma_0/sigma_10");
    /* the oracle's ρ_eff with σ_t² = σ_10²·4^{10−t} agrees with the formula */
    double scale[11];
    for (int t = 0; t < 11; t++)
        scale[t] = ldexp(1.0, 2 * (10 - t));
    char s10[64];
    mpfr_snprintf(s10, sizeof s10, "%.40RNe", &b.enclosure->left);
    const char *sl[] = {s10};
    mpfr_t ref;
    mpfr_init2(ref, W);
    oracle_rho(ref, "20", "10", "0.01", "50", 11, scale, sl, 1);
    cr_assert(fabs(mpfr_get_d(ref, MPFR_RNDN) - 1.0) < 1e-30 + 1e-15, "oracle %g",
              mpfr_get_d(ref, MPFR_RNDN));
    mpfr_clear(ref);
    /* where D0 dominates C1/λ the same schedule is feasible: C0 = 100, C1 = 1,
     * lr = 0.01, λ = 1, T = 10, where P_t = k·B/T − (2·C1/λ)(1 − ρ^k) with
     * B ≈ 181 is positive for every k = T−1−t */
    pb = pabi("100", "1", "0.01", "1", 10, NULL, 0);
    pb.noise = UL_KOL_PABI_CODE_DECREASING;
    pb.eps_renyi = "1";
    cr_assert_eq(ul_kol_pabi_rho_certified(&pb, &WANT, &pre, &v, &rep, err, sizeof err), UL_OK,
                 "%s", err);
    cr_assert_eq(state_of(&pre, "pabi_shifts_feasible"), UL_PRE_HOLDS);
    assert_near(&v, 1.0, 1e-15, "feasible decreasing schedule");
    /* a given per-step list whose closed form is infeasible: huge early
     * noise, tiny later.  D0 = 0.2, s = 0.2, λ = 0, so the closed form puts
     * a_0 = B·σ_0²/S ≈ 0.8 > z_0 + s = 0.4.  By hand, the best feasible
     * allocation removes all of z_0 + s = 0.4 at step 0 (z_1 = 0) and s = 0.2
     * at each later step: 0.4²/(2·100²) + 2·0.2²/(2·0.01²) = 400.000008 (any
     * shift left after step 0 would cost 1/0.01² per unit² later). */
    const char *bad[] = {"100", "0.01", "0.01"};
    pb = pabi("0.1", "1", "0.1", "0", 3, bad, 3);
    cr_assert_eq(ul_kol_pabi_rho_certified(&pb, &WANT, &pre, &v, &rep, err, sizeof err), UL_OK,
                 "%s", err);
    cr_assert_eq(state_of(&pre, "pabi_shifts_feasible"), UL_PRE_HOLDS);
    assert_near(&v, 400.000008, 1e-12, "front-loaded list, by hand");
    ul_num_value_clear(&a);
    ul_num_value_clear(&b);
    ul_num_value_clear(&v);
}

/* Independent minimum over α of the BBGHS conversion for ρ(α) = α·ρ, by a
 * dense grid in t = log(α − 1) and a local refinement, in doubles. */
static double dense_bbghs(double rho, double delta)
{
    double best = INFINITY, bt = 0;
    for (double t = -12; t <= 12; t += 1e-3) {
        double a = 1 + exp(t);
        double e = a * rho + log1p(-1 / a) - (log(delta) + log(a)) / (a - 1);
        if (e < best)
            best = e, bt = t;
    }
    for (double t = bt - 1e-3; t <= bt + 1e-3; t += 1e-7) {
        double a = 1 + exp(t);
        double e = a * rho + log1p(-1 / a) - (log(delta) + log(a)) / (a - 1);
        if (e < best)
            best = e;
    }
    return best;
}

Test(koloskova, pabi_eps_conversions_against_closed_forms_and_spec)
{
    /* Problems whose ρ_eff is exactly a round number (λ = 0, lr = 1, σ = 1:
     * B = 2·C0 + 2·C1·T, S = T, ρ_eff = B²/(2T)):
     *   ρ = 0.1: T = 5, C0 = 0.25, C1 = 0.05 (B = 1);  ρ = 1: T = 2, C0 = 0.5,
     *   C1 = 0.25 (B = 2);  ρ = 10: T = 5, C0 = 2.5, C1 = 0.5 (B = 10);
     *   ρ = 100: T = 2, C0 = 5, C1 = 2.5 (B = 20).
     * docs/neural-unlearning.md, Errata K1 table (δ = 1e-5): 1.9142 (α* 10.57), 7.0772
     * (4.175), 30.111 (2.039), 165.62 (1.335); §2.4: the cruder form
     * ρ + 2√(ρ·log(1/δ)) (Mironov) gives 7.7861 at ρ = 1. */
    struct {
        const char *c0, *c1;
        unsigned long T;
        double rho, spec, half_unit, alpha;
    } rows[] = {
        {"0.25", "0.05", 5, 0.1, 1.9142, 5e-5, 10.57},
        {"0.5", "0.25", 2, 1, 7.0772, 5e-5, 4.175},
        {"2.5", "0.5", 5, 10, 30.111, 5e-4, 2.039},
        {"5", "2.5", 2, 100, 165.62, 5e-3, 1.335},
    };
    const char *one[] = {"1"};
    ul_num_value v = new_value();
    ul_num_report rep;
    ul_preconditions pre;
    char err[512] = "", alpha[UL_RENYI_ALPHA_TEXT_LEN];
    for (int i = 0; i < 4; i++) {
        ul_kol_pabi_problem pb = pabi(rows[i].c0, rows[i].c1, "1", "0", rows[i].T, one, 1);
        pabi_rho(&v, &pb, true);
        assert_near(&v, rows[i].rho, 1e-15, "round rho");
        cr_assert_eq(ul_kol_pabi_eps_certified(&pb, "1e-5", UL_RDP_BBGHS, &WANT, &pre, &v, alpha,
                                               sizeof alpha, &rep, err, sizeof err),
                     UL_OK, "%s", err);
        assert_near(&v, rows[i].spec, rows[i].half_unit / rows[i].spec, "Errata K1 table");
        assert_near(&v, dense_bbghs(rows[i].rho, 1e-5), 1e-9, "dense search");
        double a = strtod(alpha, NULL);
        cr_assert(fabs(a - rows[i].alpha) < 0.01, "alpha %s vs %g", alpha, rows[i].alpha);
        if (i == 1) {
            cr_assert_eq(ul_kol_pabi_eps_certified(&pb, "1e-5", UL_RDP_MIRONOV, &WANT, &pre, &v,
                                                   alpha, sizeof alpha, &rep, err, sizeof err),
                         UL_OK, "%s", err);
            mpfr_t ref, l;
            mpfr_inits2(W, ref, l, (mpfr_ptr)0);
            ref_set(l, "1e5");
            mpfr_log(l, l, MPFR_RNDN);
            mpfr_sqrt(ref, l, MPFR_RNDN);
            mpfr_mul_2ui(ref, ref, 1, MPFR_RNDN);
            mpfr_add_ui(ref, ref, 1, MPFR_RNDN); /* 1 + 2√(log 1e5) */
            mpfr_t tol;
            mpfr_init2(tol, 64);
            /* the α search stops at |Δ log(α−1)| ≈ 1e-8: quadratic loss */
            mpfr_sub(tol, ref, &v.enclosure->left, MPFR_RNDN);
            cr_assert(mpfr_cmp_d(tol, 1e-12) <= 0 && mpfr_cmp_d(tol, -1e-12) >= 0);
            assert_near(&v, 7.7861, 2e-5, "\"Gradient clipping\": crude form");
            mpfr_clears(ref, l, tol, (mpfr_ptr)0);
        }
    }
    ul_num_value_clear(&v);
}

Test(koloskova, pabi_code_conversion_is_the_faulty_recipe)
{
    /* docs/neural-unlearning.md, Errata K1: the code's conversion gives ε_R + 0.0036093 at
     * δ = 1e-5, its minimum on the grid edge α = 1000.  By hand at α = 1000:
     * log(999/1000) − (log 1e-5 + log 1000)/999 = −0.0010005 + 4.6052/999
     * = 0.0036093. */
    ul_num_value v = new_value(), c = new_value();
    ul_num_report rep;
    char err[512] = "";
    unsigned long idx = 0;
    cr_assert_eq(ul_kol_pabi_code_eps_certified("1", "1e-5", &WANT, &v, &idx, &rep, err,
                                                sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(idx, 9999);
    mpfr_t ref, t;
    mpfr_inits2(W, ref, t, (mpfr_ptr)0);
    mpfr_set_ui(ref, 999, MPFR_RNDN);
    mpfr_div_ui(ref, ref, 1000, MPFR_RNDN);
    mpfr_log(ref, ref, MPFR_RNDN);
    ref_set(t, "1e-2"); /* δ·α = 1e-5·1000 */
    mpfr_log(t, t, MPFR_RNDN);
    mpfr_div_ui(t, t, 999, MPFR_RNDN);
    mpfr_sub(ref, ref, t, MPFR_RNDN);
    mpfr_add_ui(ref, ref, 1, MPFR_RNDN);
    assert_contains(&v, ref, "faulty recipe at alpha = 1000");
    assert_near(&v, 1.0036093, 1e-7, "docs/neural-unlearning.md, Errata K1");
    /* it over-claims: the correct conversion of the same ρ_eff = 1 is 7.0772 */
    const char *one[] = {"1"};
    ul_kol_pabi_problem pb = pabi("0.5", "0.25", "1", "0", 2, one, 1);
    ul_preconditions pre;
    char alpha[UL_RENYI_ALPHA_TEXT_LEN];
    cr_assert_eq(ul_kol_pabi_eps_certified(&pb, "1e-5", UL_RDP_BBGHS, &WANT, &pre, &c, alpha,
                                           sizeof alpha, &rep, err, sizeof err),
                 UL_OK);
    cr_assert(upper_d(&v) < lower_d(&c));
    /* a large δ puts the code's minimum inside the grid: the exact minimiser
     * of ε_R + log(1 − 1/α) − (log δ + log α)/(α − 1) over real α, here found
     * by the dense search in doubles, lies within one grid step of it */
    cr_assert_eq(ul_kol_pabi_code_eps_certified("0", "0.5", &WANT, &v, &idx, &rep, err,
                                                sizeof err),
                 UL_OK, "%s", err);
    double best = INFINITY, ba = 0;
    for (double a = 1.001; a < 1000; a *= 1.0001) {
        double e = log1p(-1 / a) - (log(0.5) + log(a)) / (a - 1);
        if (e < best)
            best = e, ba = a;
    }
    double grid_a = 1.001 + idx * 998.999 / 9999;
    cr_assert(fabs(grid_a - ba) < 0.2, "grid alpha %g vs %g", grid_a, ba);
    /* the grid minimum lies above the real minimum, and close to it */
    double glo = mpfr_get_d(&v.enclosure->left, MPFR_RNDD);
    cr_assert(glo >= best - 1e-9 && glo <= best + 1e-4, "grid min %.12g vs %.12g", glo, best);
    mpfr_clears(ref, t, (mpfr_ptr)0);
    ul_num_value_clear(&v);
    ul_num_value_clear(&c);
}

Test(koloskova, pabi_code_steps_in_exact_arithmetic)
{
    char err[512] = "";
    unsigned long t = 0;
    /* docs/neural-unlearning.md, Errata K7: 1.0/(0.1·0.1) = 99.99999999999999 in doubles; exactly
     * 100 */
    cr_assert_eq(ul_kol_pabi_code_steps("1", "0.1", "0.1", "0", &t, err, sizeof err), UL_OK);
    cr_assert_eq(t, 100);
    /* 0.01/(100·0.001) = 0.1: T0 = 1 */
    cr_assert_eq(ul_kol_pabi_code_steps("0.01", "100", "0.001", "0", &t, err, sizeof err), UL_OK);
    cr_assert_eq(t, 1);
    /* an exact integer that doubles push above: 0.9/(1·0.03) evaluates to
     * 30.000000000000004 in doubles (the code's ceil would give 31); exactly 30 */
    cr_assert_eq(ul_kol_pabi_code_steps("0.9", "1", "0.03", "0", &t, err, sizeof err), UL_OK);
    cr_assert_eq(t, 30);
    /* docs/neural-unlearning.md, Errata K7 degenerate T1 = 0: 2·λ·C0 = C1 (C0 = 0.1, C1 = 10, λ =
     * 50)
     * falls back to T0 = ⌈0.1/(10·0.01)⌉ = 1 */
    cr_assert_eq(ul_kol_pabi_code_steps("0.1", "10", "0.01", "50", &t, err, sizeof err), UL_OK);
    cr_assert_eq(t, 1);
    /* T1 ≥ T0 keeps T0: C0 = 1, C1 = 1, lr = 0.5, λ = 0.1: T0 = 2,
     * T1 = ⌈log(0.2)/0.05⌉ < 0 (2λC0/C1 = 0.2 < 1), so T0 */
    cr_assert_eq(ul_kol_pabi_code_steps("1", "1", "0.5", "0.1", &t, err, sizeof err), UL_OK);
    cr_assert_eq(t, 2);
    /* bad inputs name the parameter */
    cr_assert_eq(ul_kol_pabi_code_steps("1", "0", "0.5", "0.1", &t, err, sizeof err), UL_EINPUT);
    cr_assert(strncmp(err, "c1:", 3) == 0, "%s", err);
}

Test(koloskova, pabi_more_noise_never_worsens)
{
    const char *a[] = {"0.3"}, *b[] = {"0.31"};
    ul_num_value va = new_value(), vb = new_value();
    ul_num_report rep;
    ul_preconditions pre;
    char err[512] = "", alpha[UL_RENYI_ALPHA_TEXT_LEN];
    ul_kol_pabi_problem pa = pabi("1", "0.5", "0.1", "2", 7, a, 1);
    ul_kol_pabi_problem pb = pabi("1", "0.5", "0.1", "2", 7, b, 1);
    pabi_rho(&va, &pa, true);
    pabi_rho(&vb, &pb, true);
    cr_assert(upper_d(&vb) < lower_d(&va));
    cr_assert_eq(ul_kol_pabi_eps_certified(&pa, "1e-5", UL_RDP_BBGHS, &WANT, &pre, &va, alpha,
                                           sizeof alpha, &rep, err, sizeof err),
                 UL_OK);
    cr_assert_eq(ul_kol_pabi_eps_certified(&pb, "1e-5", UL_RDP_BBGHS, &WANT, &pre, &vb, alpha,
                                           sizeof alpha, &rep, err, sizeof err),
                 UL_OK);
    cr_assert(upper_d(&vb) < lower_d(&va));
    /* more regularisation (stronger contraction) at the same σ never worsens */
    pb = pabi("1", "0.5", "0.1", "3", 7, a, 1);
    pabi_rho(&va, &pa, true);
    pabi_rho(&vb, &pb, true);
    cr_assert(upper_d(&vb) < lower_d(&va));
    ul_num_value_clear(&va);
    ul_num_value_clear(&vb);
}

typedef struct {
    const char *name, *param;
    ul_kol_pabi_problem pb;
} pabi_case;

Test(koloskova, pabi_preconditions_violated_one_at_a_time)
{
    ul_num_value v = new_value();
    ul_num_report rep;
    ul_preconditions pre;
    char err[512];
    const char *s[] = {"0.3"}, *zero[] = {"0"};
    ul_kol_pabi_problem base = pabi("1", "0.5", "0.1", "2", 4, s, 1), p;
    pabi_case cases[10];
    int n = 0;
    p = base, p.c0 = "0";
    cases[n++] = (pabi_case){"c0_positive", "c0", p};
    p = base, p.c1 = "-1";
    cases[n++] = (pabi_case){"c1_positive", "c1", p};
    p = base, p.lr = "0";
    cases[n++] = (pabi_case){"lr_positive", "lr", p};
    p = base, p.lambda = "-0.5";
    cases[n++] = (pabi_case){"lambda_nonneg", "lambda", p};
    /* lr·λ = 0.1·10 = 1 exactly: decided in rationals (no rounding) */
    p = base, p.lambda = "10";
    cases[n++] = (pabi_case){"lr_lambda_lt_1", "lambda", p};
    p = base, p.sigma = zero;
    cases[n++] = (pabi_case){"sigma_positive", "sigma", p};
    p = base, p.steps = 0;
    cases[n++] = (pabi_case){"steps_positive", "steps", p};
    p = base, p.lr_varies = true;
    cases[n++] = (pabi_case){"lr_schedule_constant", "lr", p};
    p = base, p.init = UL_KOL_INIT_BOX, p.dim = 0;
    cases[n++] = (pabi_case){"dim_positive", "dim", p};
    p = base, p.noise = UL_KOL_PABI_CODE_CONSTANT, p.sigma = NULL, p.n_sigma = 0,
    p.eps_renyi = "0";
    cases[n++] = (pabi_case){"eps_renyi_positive", "eps-renyi", p};
    for (int i = 0; i < n; i++) {
        err[0] = '\0';
        ul_status st = ul_kol_pabi_rho_certified(&cases[i].pb, &WANT, &pre, &v, &rep, err,
                                                 sizeof err);
        cr_assert_eq(st, UL_EINPUT, "%s: %s", cases[i].name, err);
        cr_assert(strstr(err, cases[i].name) != NULL, "%s", err);
        cr_assert_eq(state_of(&pre, cases[i].name), UL_PRE_FAILS);
        for (int j = 0; j < pre.count; j++)
            if (strcmp(pre.items[j].name, cases[i].name) != 0 &&
                strcmp(pre.items[j].name, "pabi_shifts_feasible") != 0)
                cr_assert_eq(pre.items[j].state, UL_PRE_HOLDS, "%s: %s", cases[i].name,
                             pre.items[j].name);
    }
    /* just below the boundary holds: lr·λ = 0.1·9.999 < 1 */
    p = base, p.lambda = "9.999";
    cr_assert_eq(ul_kol_pabi_rho_certified(&p, &WANT, &pre, &v, &rep, err, sizeof err), UL_OK,
                 "%s", err);
    cr_assert_eq(ul_pre_overall(&pre), UL_PRE_HOLDS);
    /* the formula evaluation skips only the schedule preconditions */
    p = base, p.lr_varies = true;
    cr_assert_eq(ul_kol_pabi_rho_formula_certified(&p, &WANT, &v, &rep, err, sizeof err), UL_OK);
    p = base, p.c0 = "0";
    cr_assert_eq(ul_kol_pabi_rho_formula_certified(&p, &WANT, &v, &rep, err, sizeof err),
                 UL_EINPUT);
    ul_num_value_clear(&v);
}

/* ==== output perturbation ===================================================== */

Test(koloskova, op_classic_and_exact_sigma)
{
    /* C0 = 0.5 so that the sensitivity 2·C0 is 1.  docs/neural-unlearning.md, Errata K9 at
     * ε = 1, δ = 1e-5: σ/(2·C0) = 4.8448 (classic) versus the exact minimum
     * 3.7306, and θ = 4.11e-8 ≪ 1e-5 at the classic σ.  Hand: the classic σ is
     * √(2·log 125000). */
    ul_num_value classic = new_value(), d = new_value();
    mpfi_t exact;
    mpfi_init2(exact, 64);
    ul_pre_state delivers = UL_PRE_UNDECIDED;
    ul_num_report rep;
    ul_preconditions pre;
    char err[512] = "";
    cr_assert_eq(ul_kol_op_sigma_certified("0.5", "1", "1e-5", &WANT, &pre, &classic, &delivers,
                                           exact, &rep, err, sizeof err),
                 UL_OK, "%s", err);
    mpfr_t ref, l;
    mpfr_inits2(W, ref, l, (mpfr_ptr)0);
    mpfr_set_ui(ref, 125000, MPFR_RNDN);
    mpfr_log(ref, ref, MPFR_RNDN);
    mpfr_mul_2ui(ref, ref, 1, MPFR_RNDN);
    mpfr_sqrt(ref, ref, MPFR_RNDN);
    assert_contains(&classic, ref, "classic sigma");
    assert_near(&classic, 4.8448, 2e-5, "docs/neural-unlearning.md, Errata K9 classic");
    cr_assert_eq(delivers, UL_PRE_HOLDS);
    cr_assert_eq(state_of(&pre, "eps_lt_1"), UL_PRE_FAILS); /* ε = 1 is not < 1: reported */
    cr_assert(fabs(mpfr_get_d(&exact->right, MPFR_RNDU) - 3.7306) < 1e-4, "exact sigma");
    /* exact σ: safe at the upper end, unsafe at the lower (oracle θ) */
    char lo[64], hi[64];
    mpfr_snprintf(lo, sizeof lo, "%.30RDe", &exact->left);
    mpfr_snprintf(hi, sizeof hi, "%.30RUe", &exact->right);
    mpfr_t e, r, ld;
    mpfr_inits2(W, e, r, ld, (mpfr_ptr)0);
    mpfr_set_ui(e, 1, MPFR_RNDN);
    ref_set(ld, "1e-5");
    mpfr_log(ld, ld, MPFR_RNDN);
    ref_set(r, hi);
    mpfr_ui_div(r, 1, r, MPFR_RNDN);
    oracle_log_theta(l, e, r);
    cr_assert(mpfr_lessequal_p(l, ld));
    ref_set(r, lo);
    mpfr_ui_div(r, 1, r, MPFR_RNDN);
    oracle_log_theta(l, e, r);
    cr_assert(mpfr_greater_p(l, ld));
    /* the exact δ of the classic noise (σ a little above the classic one) */
    cr_assert_eq(ul_kol_op_delta_certified("0.5", "4.8448052627", "1", &WANT, &pre, &d, &rep, err,
                                           sizeof err),
                 UL_OK, "%s", err);
    assert_near(&d, 4.11e-8, 3e-3, "Errata K9: theta at the classic sigma");
    /* inside the domain both hold */
    cr_assert_eq(ul_kol_op_sigma_certified("0.5", "0.5", "1e-5", &WANT, &pre, &classic,
                                           &delivers, exact, &rep, err, sizeof err),
                 UL_OK);
    cr_assert_eq(state_of(&pre, "eps_lt_1"), UL_PRE_HOLDS);
    cr_assert_eq(delivers, UL_PRE_HOLDS);
    mpfr_clears(ref, l, e, r, ld, (mpfr_ptr)0);
    mpfi_clear(exact);
    ul_num_value_clear(&classic);
    ul_num_value_clear(&d);
}

Test(koloskova, op_classic_over_claims_beyond_its_domain)
{
    /* docs/neural-unlearning.md, "Simplified Gaussian bound": read as a calibration rule, the
     * classical
     * mechanism first fails at ε ≈ 8.5 for δ = 1e-5 (θ = 1.0438e-5 there).
     * At ε = 9 the classic σ claims δ = 1e-5 but delivers more. */
    ul_num_value classic = new_value(), d = new_value();
    mpfi_t exact;
    mpfi_init2(exact, 64);
    ul_pre_state delivers = UL_PRE_UNDECIDED;
    ul_num_report rep;
    ul_preconditions pre;
    char err[512] = "";
    cr_assert_eq(ul_kol_op_sigma_certified("0.5", "9", "1e-5", &WANT, &pre, &classic, &delivers,
                                           exact, &rep, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(delivers, UL_PRE_FAILS);
    cr_assert_eq(state_of(&pre, "eps_lt_1"), UL_PRE_FAILS);
    /* the exact minimum is larger than the classic σ there */
    cr_assert(mpfr_cmp(&exact->left, &classic.enclosure->right) > 0);
    /* and the δ of a σ just above the classic one already exceeds 1e-5 */
    char hi[64];
    mpfr_snprintf(hi, sizeof hi, "%.20RUe", &classic.enclosure->right);
    cr_assert_eq(ul_kol_op_delta_certified("0.5", hi, "9", &WANT, &pre, &d, &rep, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert(lower_d(&d) > log(1e-5));
    /* ε = 8.5: θ = 1.0438e-5 at the classic σ (docs/neural-unlearning.md, Errata K13) */
    cr_assert_eq(ul_kol_op_sigma_certified("0.5", "8.5", "1e-5", &WANT, &pre, &classic,
                                           &delivers, exact, &rep, err, sizeof err),
                 UL_OK);
    cr_assert_eq(delivers, UL_PRE_FAILS);
    mpfr_snprintf(hi, sizeof hi, "%.20RNe", &classic.enclosure->right);
    cr_assert_eq(ul_kol_op_delta_certified("0.5", hi, "8.5", &WANT, &pre, &d, &rep, err,
                                           sizeof err),
                 UL_OK);
    assert_near(&d, 1.0438e-5, 1e-4, "docs/neural-unlearning.md, \"Simplified Gaussian bound\"");
    mpfi_clear(exact);
    ul_num_value_clear(&classic);
    ul_num_value_clear(&d);
}

Test(koloskova, op_delta_matches_oracle_and_decreases_with_noise)
{
    ul_num_value a = new_value(), b = new_value();
    ul_num_report rep;
    ul_preconditions pre;
    char err[512] = "";
    /* C0 = 0.5, σ = 3: r = 1/3 */
    cr_assert_eq(ul_kol_op_delta_certified("0.5", "3", "0.5", &WANT, &pre, &a, &rep, err,
                                           sizeof err),
                 UL_OK, "%s", err);
    mpfr_t ref, e, r;
    mpfr_inits2(W, ref, e, r, (mpfr_ptr)0);
    ref_set(e, "0.5");
    mpfr_set_ui(r, 1, MPFR_RNDN);
    mpfr_div_ui(r, r, 3, MPFR_RNDN);
    oracle_log_theta(ref, e, r);
    assert_log_contains(&a, ref, "theta_{e^0.5}(1/3)");
    cr_assert_eq(ul_kol_op_delta_certified("0.5", "3.5", "0.5", &WANT, &pre, &b, &rep, err,
                                           sizeof err),
                 UL_OK);
    cr_assert(upper_d(&b) < lower_d(&a));
    mpfr_clears(ref, e, r, (mpfr_ptr)0);
    ul_num_value_clear(&a);
    ul_num_value_clear(&b);
}

Test(koloskova, op_preconditions_violated_one_at_a_time)
{
    ul_num_value v = new_value();
    mpfi_t exact;
    mpfi_init2(exact, 64);
    ul_pre_state dl;
    ul_num_report rep;
    ul_preconditions pre;
    char err[512] = "";
    ul_status st =
        ul_kol_op_sigma_certified("0", "0.5", "1e-5", &WANT, &pre, &v, &dl, exact, &rep, err,
                                  sizeof err);
    cr_assert_eq(st, UL_EINPUT);
    cr_assert(strstr(err, "c0_positive") && strncmp(err, "c0:", 3) == 0, "%s", err);
    cr_assert_eq(state_of(&pre, "c0_positive"), UL_PRE_FAILS);
    cr_assert_eq(state_of(&pre, "eps_positive"), UL_PRE_HOLDS);
    st = ul_kol_op_sigma_certified("1", "0", "1e-5", &WANT, &pre, &v, &dl, exact, &rep, err,
                                   sizeof err);
    cr_assert_eq(st, UL_EINPUT);
    cr_assert(strstr(err, "eps_positive") && strncmp(err, "eps:", 4) == 0, "%s", err);
    cr_assert_eq(state_of(&pre, "c0_positive"), UL_PRE_HOLDS);
    st = ul_kol_op_sigma_certified("1", "0.5", "1", &WANT, &pre, &v, &dl, exact, &rep, err,
                                   sizeof err);
    cr_assert_eq(st, UL_EINPUT);
    cr_assert(strncmp(err, "delta:", 6) == 0, "%s", err);
    expect_violation(ul_kol_op_delta_certified("1", "-2", "1", &WANT, &pre, &v, &rep, err,
                                               sizeof err),
                     err, &pre, "sigma_positive", "sigma");
    expect_violation(ul_kol_op_delta_certified("1", "2", "-1", &WANT, &pre, &v, &rep, err,
                                               sizeof err),
                     err, &pre, "eps_nonneg", "eps");
    expect_violation(ul_kol_op_delta_certified("0", "2", "1", &WANT, &pre, &v, &rep, err,
                                               sizeof err),
                     err, &pre, "c0_positive", "c0");
    mpfi_clear(exact);
    ul_num_value_clear(&v);
}

/* ==== DP-SGD + group privacy ================================================== */

Test(koloskova, group_exact_is_the_sum_and_code_is_its_largest_term)
{
    /* δ·Σ_{i<k} e^{iε} summed term by term here, for ε = 0.3, δ = 1e-6, k = 7 */
    ul_num_value ek = new_value(), dk = new_value(), dc = new_value();
    ul_num_report rep;
    ul_preconditions pre;
    char err[512] = "";
    cr_assert_eq(ul_kol_group_certified("0.3", "1e-6", 7, UL_KOL_GROUP_EXACT, &WANT, &pre, &ek,
                                        &dk, &rep, err, sizeof err),
                 UL_OK, "%s", err);
    mpfr_t sum, t, e;
    mpfr_inits2(W, sum, t, e, (mpfr_ptr)0);
    ref_set(e, "0.3");
    mpfr_set_zero(sum, 1);
    for (int i = 0; i < 7; i++) {
        mpfr_mul_ui(t, e, (unsigned long)i, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_add(sum, sum, t, MPFR_RNDN);
    }
    ref_set(t, "1e-6");
    mpfr_mul(sum, sum, t, MPFR_RNDN);
    assert_contains(&dk, sum, "group delta");
    ref_set(t, "2.1");
    assert_contains(&ek, t, "group eps = 7 * 0.3");
    /* the code's δ·e^{6ε} is the largest term alone: smaller, so it
     * over-claims for k ≥ 2 */
    cr_assert_eq(ul_kol_group_certified("0.3", "1e-6", 7, UL_KOL_GROUP_CODE_LARGEST_TERM, &WANT,
                                        &pre, &ek, &dc, &rep, err, sizeof err),
                 UL_OK);
    ref_set(t, "1.8");
    mpfr_exp(t, t, MPFR_RNDN);
    ref_set(e, "1e-6");
    mpfr_mul(t, t, e, MPFR_RNDN);
    assert_contains(&dc, t, "code: delta * e^{(k-1) eps}");
    cr_assert(upper_d(&dc) < lower_d(&dk));
    /* ε = 0: k·δ; k = 1: δ, both rules */
    cr_assert_eq(ul_kol_group_certified("0", "1e-6", 5, UL_KOL_GROUP_EXACT, &WANT, &pre, &ek, &dk,
                                        &rep, err, sizeof err),
                 UL_OK);
    ref_set(t, "5e-6");
    assert_contains(&dk, t, "eps = 0");
    for (int rule = 0; rule <= 1; rule++) {
        cr_assert_eq(ul_kol_group_certified("0.7", "1e-6", 1, (ul_kol_group_rule)rule, &WANT,
                                            &pre, &ek, &dk, &rep, err, sizeof err),
                     UL_OK);
        ref_set(t, "1e-6");
        assert_contains(&dk, t, "k = 1");
    }
    /* monotone in k */
    cr_assert_eq(ul_kol_group_certified("0.3", "1e-6", 8, UL_KOL_GROUP_EXACT, &WANT, &pre, &ek,
                                        &dc, &rep, err, sizeof err),
                 UL_OK);
    cr_assert_eq(ul_kol_group_certified("0.3", "1e-6", 7, UL_KOL_GROUP_EXACT, &WANT, &pre, &ek,
                                        &dk, &rep, err, sizeof err),
                 UL_OK);
    cr_assert(upper_d(&dk) < lower_d(&dc));
    /* preconditions */
    expect_violation(ul_kol_group_certified("0.3", "1e-6", 0, UL_KOL_GROUP_EXACT, &WANT, &pre, &ek,
                                            &dk, &rep, err, sizeof err),
                     err, &pre, "group_size_positive", "k");
    expect_violation(ul_kol_group_certified("-0.3", "1e-6", 3, UL_KOL_GROUP_EXACT, &WANT, &pre,
                                            &ek, &dk, &rep, err, sizeof err),
                     err, &pre, "eps_nonneg", "eps");
    mpfr_clears(sum, t, e, (mpfr_ptr)0);
    ul_num_value_clear(&ek);
    ul_num_value_clear(&dk);
    ul_num_value_clear(&dc);
}

Test(koloskova, dpsgd_code_split_spec_values)
{
    /* docs/neural-unlearning.md, "DP-SGD with group privacy", Errata K4: target (50, 1e-5), k =
     * 225:
     * ε_train = 50/225, δ_train = 2.4087171e-27, and the exact group δ of
     * that pair is 5.0185e-5, not 1e-5.  Hand: δ_train·(e^{kε} − 1)/(e^ε − 1)
     * = δ_tot·(e^ε − e^{−(k−1)ε})/(e^ε − 1) ≈ 1e-5·1.24884/0.24884 = 5.0186e-5. */
    ul_num_value e = new_value(), d = new_value(), g = new_value();
    ul_num_report rep;
    ul_preconditions pre;
    char err[512] = "";
    cr_assert_eq(ul_kol_dpsgd_code_split_certified("50", "1e-5", 225, &WANT, &pre, &e, &d, &g,
                                                   &rep, err, sizeof err),
                 UL_OK, "%s", err);
    assert_near(&e, 50.0 / 225.0, 1e-15, "eps_train");
    assert_near(&d, 2.4087171e-27, 1e-7, "delta_train");
    assert_near(&g, 5.0185e-5, 1e-4, "exact group delta");
    cr_assert(ul_num_value_narrow_enough(&e, 17) && ul_num_value_narrow_enough(&d, 17) &&
              ul_num_value_narrow_enough(&g, 17));
    /* the code's own reading, δ_train·e^{(k−1)ε_train}, gives back δ_tot */
    mpfi_t lc;
    mpfi_init2(lc, 200);
    ul_kol_group_log_delta_enclose(lc, e.enclosure, d.enclosure, 225,
                                   UL_KOL_GROUP_CODE_LARGEST_TERM);
    mpfi_exp(lc, lc);
    cr_assert(mpfr_cmp_d(&lc->left, 1e-5 * (1 + 1e-15)) < 0 &&
              mpfr_cmp_d(&lc->right, 1e-5 * (1 - 1e-15)) > 0);
    mpfi_clear(lc);
    expect_violation(ul_kol_dpsgd_code_split_certified("50", "1e-5", 0, &WANT, &pre, &e, &d, &g,
                                                       &rep, err, sizeof err),
                     err, &pre, "group_size_positive", "k");
    ul_num_value_clear(&e);
    ul_num_value_clear(&d);
    ul_num_value_clear(&g);
}

Test(koloskova, dpsgd_per_example_against_opacus_and_quadrature)
{
    /* pytorch/opacus opacus/tests/accountants_test.py, test_rdp_accountant:
     * noise multiplier 1.5, sample rate 0.04, 2250 steps, δ = 1e-5 →
     * ε ≈ 7.32911117143 over its fixed order grid; the optimum over real α can
     * only be lower, and by little. */
    ul_kol_dpsgd_problem pb = {"0.04", 0, 0, "1.5", 2250};
    ul_kol_dpsgd_result res;
    ul_kol_dpsgd_result_init(&res);
    ul_num_report rep;
    ul_preconditions pre;
    char err[512] = "";
    cr_assert_eq(ul_kol_dpsgd_group_certified(&pb, "1e-5", 3, UL_RDP_BBGHS, &WANT, &pre, &res,
                                              &rep, err, sizeof err),
                 UL_OK, "%s", err);
    double hi = exp(upper_d(&res.eps_example)), lo = exp(lower_d(&res.eps_example));
    cr_assert(hi <= 7.32911117143 + 1e-10 && lo > 7.32911117143 - 0.01, "eps %.12g", hi);
    /* quadrature at the certified α: 2250·ρ(α) and the BBGHS formula */
    mpfr_t rho, qerr, a, eps;
    mpfr_inits2(RENYI_ORACLE_BITS, rho, qerr, a, eps, (mpfr_ptr)0);
    renyi_oracle_sgm_rdp(rho, qerr, "0.04", "1.5", res.alpha);
    mpfr_mul_ui(rho, rho, 2250, MPFR_RNDN);
    ref_set(a, res.alpha);
    double ad = mpfr_get_d(a, MPFR_RNDN);
    double ref = mpfr_get_d(rho, MPFR_RNDN) + log1p(-1 / ad) - (log(1e-5) + log(ad)) / (ad - 1);
    cr_assert(fabs(ref - hi) < 1e-9 + 2250 * mpfr_get_d(qerr, MPFR_RNDU), "quadrature %.15g", ref);
    /* the group of 3: ε·3 and δ·(1 + e^ε + e^{2ε}) from the per-example ε */
    double e1 = exp(upper_d(&res.eps_example));
    cr_assert(fabs(exp(upper_d(&res.eps_group)) - 3 * e1) < 1e-12 * e1);
    double gd = 1e-5 * (1 + exp(e1) + exp(2 * e1));
    cr_assert(fabs(exp(upper_d(&res.delta_group)) - gd) < 1e-9 * gd);
    double cd = 1e-5 * exp(2 * e1);
    cr_assert(fabs(exp(upper_d(&res.delta_group_code)) - cd) < 1e-9 * cd);
    cr_assert(upper_d(&res.delta_group_code) < lower_d(&res.delta_group));
    mpfr_clears(rho, qerr, a, eps, (mpfr_ptr)0);

    /* q = batch/n exactly (128/45000, not a terminating decimal) lies between
     * the decimal rates 0.0028444 and 0.0028445; ε is monotone in q; and more
     * noise never worsens */
    ul_kol_dpsgd_result r2;
    ul_kol_dpsgd_result_init(&r2);
    ul_kol_dpsgd_problem pq = {NULL, 128, 45000, "1", 3520};
    cr_assert_eq(ul_kol_dpsgd_group_certified(&pq, "1e-5", 1, UL_RDP_BBGHS, &WANT, &pre, &r2, &rep,
                                              err, sizeof err),
                 UL_OK, "%s", err);
    pq.q = "0.0028445";
    cr_assert_eq(ul_kol_dpsgd_group_certified(&pq, "1e-5", 1, UL_RDP_BBGHS, &WANT, &pre, &res,
                                              &rep, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert(upper_d(&r2.eps_example) < lower_d(&res.eps_example) + 1e-9);
    pq.q = "0.0028444";
    cr_assert_eq(ul_kol_dpsgd_group_certified(&pq, "1e-5", 1, UL_RDP_BBGHS, &WANT, &pre, &res,
                                              &rep, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert(lower_d(&r2.eps_example) > upper_d(&res.eps_example) - 1e-9);
    pq.q = NULL;
    pq.sigma = "1.1";
    cr_assert_eq(ul_kol_dpsgd_group_certified(&pq, "1e-5", 1, UL_RDP_BBGHS, &WANT, &pre, &res,
                                              &rep, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert(upper_d(&res.eps_example) < lower_d(&r2.eps_example));

    /* inputs and preconditions */
    expect_violation(ul_kol_dpsgd_group_certified(&pb, "1e-5", 0, UL_RDP_BBGHS, &WANT, &pre, &res,
                                                  &rep, err, sizeof err),
                     err, &pre, "group_size_positive", "k");
    pq.batch = 50000;
    cr_assert_eq(ul_kol_dpsgd_group_certified(&pq, "1e-5", 1, UL_RDP_BBGHS, &WANT, &pre, &res,
                                              &rep, err, sizeof err),
                 UL_EINPUT);
    cr_assert(strncmp(err, "batch:", 6) == 0, "%s", err);
    ul_kol_dpsgd_result_clear(&res);
    ul_kol_dpsgd_result_clear(&r2);
}

/* ==== what the audits ask beyond the theorems (koloskova_mc.c, _pabi.c, _group.c) ==== */

/* The adaptive model-clipping brackets against the oracle recursion: a slow
 * start (C2 = 2, σ = 1: r = 4, θ ≈ 0.93 at ε = 1 while δ_t is near 1, then
 * faster as ε̃_t grows) run for 38 steps in plain MPFR (log δ_38 ≈ −10).  Whatever decides must be on the right side of the
 * oracle's δ_T; the lower bound δ0·θ*^T must lie below it; the least-T
 * lower bound must not exceed the least T the oracle sequence shows. */
Test(koloskova, mc_brackets_against_the_oracle_recursion)
{
    const char *sg[] = {"1"};
    const unsigned long T = 38;
    ul_kol_mc_problem pb = cc1("1", "2", sg, 1, T, UL_CONTRACTION_ADAPTIVE);
    mpfr_t l, l25, c;
    mpfr_inits2(W, l, l25, c, (mpfr_ptr)0);
    oracle_mc(l, "1", "4", sg, 1, T, NULL, NULL, true);
    oracle_mc(l25, "1", "4", sg, 1, 25, NULL, NULL, true);
    cr_assert(mpfr_cmp_d(l, -5) < 0 && mpfr_cmp_d(l, -100) > 0, "a nontrivial test point");
    for (int side = 0; side <= 1; side++) {
        /* a claim half a nat above (side 0) or below (side 1) the oracle's log δ_T */
        char claim[64];
        mpfr_add_d(c, l, side == 0 ? 0.5 : -0.5, MPFR_RNDN);
        mpfr_exp(c, c, MPFR_RNDN);
        mpfr_snprintf(claim, sizeof claim, "%.20Re", c);
        ul_num_value b = new_value();
        ul_kol_side s = ul_kol_mc_band_decide(&pb, claim, 128, &b);
        cr_assert_neq(s, side == 0 ? UL_KOL_ABOVE : UL_KOL_AT_MOST, "a band bracket on the wrong side");
        if (s != UL_KOL_UNDECIDED) {
            /* the deciding end bounds the oracle's log δ_T from the right side */
            if (s == UL_KOL_AT_MOST)
                cr_assert(lower_d(&b) >= mpfr_get_d(l, MPFR_RNDD) - 1e-9, "upper sequence below delta_T");
            else
                cr_assert(upper_d(&b) <= mpfr_get_d(l, MPFR_RNDU) + 1e-9, "lower sequence above delta_T");
        }
        if (side == 1) {
            /* δ_t stays above this claim: δ0·θ*^T is a lower bound */
            ul_num_value lo = new_value();
            cr_assert(ul_kol_mc_delta_lower_bound(&pb, claim, 128, &lo));
            cr_assert(upper_d(&lo) <= mpfr_get_d(l, MPFR_RNDU) + 1e-9, "theta* bound above delta_T");
            ul_num_value_clear(&lo);
        }
        ul_num_value_clear(&b);
    }
    /* a claim just below δ_25: the least T is 26, the bound at most that */
    char claim[64];
    mpfr_add_d(c, l25, -1e-9, MPFR_RNDN);
    mpfr_exp(c, c, MPFR_RNDN);
    mpfr_snprintf(claim, sizeof claim, "%.20Re", c);
    double lb = 0;
    cr_assert(ul_kol_mc_least_steps_lower_bound(&pb, claim, &lb));
    cr_assert(lb > 0 && lb <= 26, "least-T lower bound %.17g", lb);
    /* the double-precision recursion of the searches agrees with the oracle */
    double d = ul_kol_mc_log_delta_d(&pb, 0, T);
    cr_assert(fabs(d - mpfr_get_d(l, MPFR_RNDN)) <= 1e-9 * fabs(d), "doubles %.17g", d);
    mpfr_clears(l, l25, c, (mpfr_ptr)0);
}

/* The adaptive σ search: the upper end safe, the lower end unsafe, by the
 * oracle recursion at the printed ends (as mc_sigma_min_is_safe_and_tight). */
Test(koloskova, mc_sigma_min_searched_is_safe_and_tight)
{
    ul_kol_mc_problem pb = cc1("1", "0.5", NULL, 0, 5, UL_CONTRACTION_ADAPTIVE);
    const char *start[] = {"0.5"};
    pb.sigma = start;
    pb.n_sigma = 1;
    mpfi_t s;
    mpfi_init2(s, 64);
    cr_assert(ul_kol_mc_sigma_min_searched(&pb, "1e-5", s));
    mpfr_t l, ld;
    mpfr_inits2(W, l, ld, (mpfr_ptr)0);
    ref_set(ld, "1e-5");
    mpfr_log(ld, ld, MPFR_RNDN);
    char lo[64], hi[64];
    mpfr_snprintf(lo, sizeof lo, "%.25RDe", &s->left);
    mpfr_snprintf(hi, sizeof hi, "%.25RUe", &s->right);
    const char *sl[] = {lo}, *sh[] = {hi};
    oracle_mc(l, "1", "1", sh, 1, 5, NULL, NULL, true);
    cr_assert(mpfr_lessequal_p(l, ld), "upper end must be safe");
    oracle_mc(l, "1", "1", sl, 1, 5, NULL, NULL, true);
    cr_assert(mpfr_greater_p(l, ld), "lower end must be unsafe");
    mpfr_clears(l, ld, (mpfr_ptr)0);
    mpfi_clear(s);
}

/* The linear curve α·ρ: α·ρ, value/α, Mironov's δ at ε in closed form
 * (min over α of (α−1)(αρ − ε) at α* = (ε + ρ)/(2ρ): log δ = −(ε − ρ)²/(4ρ)),
 * the largest ρ reaching (ε, δ) under Mironov in closed form
 * (ε = ρ + 2√(ρ·L), L = log(1/δ): √ρ* = √(L + ε) − √L), the noise needed
 * (ρ_eff ∝ 1/σ², ∝ ε_R), and the code's pabi_steps for Figure 2 (docs/neural-unlearning.md,
 * "Gradient clipping":
 * T1 = ⌈log(2·50·20/10)/(0.01·50)⌉ = ⌈10.597⌉ = 11). */
Test(koloskova, pabi_claims_against_closed_forms)
{
    ul_num_value rho = new_value(), ren = new_value(), dv = new_value();
    cr_assert_eq(ul_num_set_decimal(rho.enclosure, "0.2"), UL_OK);
    ul_kol_pabi_renyi_bound(&ren, "3.5", &rho);
    mpfr_t t;
    mpfr_init2(t, W);
    ref_set(t, "0.7");
    assert_contains(&ren, t, "alpha * rho");
    mpfi_t need, f;
    mpfi_init2(need, 128);
    mpfi_init2(f, 128);
    cr_assert(ul_kol_pabi_rho_for_renyi(need, "0.7", "3.5"));
    cr_assert(mpfr_cmp_d(&need->left, 0.2 * (1 - 1e-15)) > 0 && mpfr_cmp_d(&need->right, 0.2 * (1 + 1e-15)) < 0);
    /* δ at ε = 2 of α·0.1, Mironov: log δ = −1.9²/0.4 = −9.025 */
    cr_assert_eq(ul_num_set_decimal(rho.enclosure, "0.1"), UL_OK);
    ul_num_report rep;
    char err[512] = "";
    cr_assert_eq(ul_kol_pabi_delta_at_eps(rho.enclosure, "2", UL_RDP_MIRONOV, &WANT, &dv, &rep, err,
                                          sizeof err),
                 UL_OK, "%s", err);
    cr_assert(lower_d(&dv) >= -9.025 - 1e-12, "below the optimum over alpha");
    cr_assert(upper_d(&dv) <= -9.025 + 1e-9, "far from the optimum: %.17g", upper_d(&dv));
    /* the largest ρ with ε ≤ 1 at δ = 1e-5 (Mironov) */
    char out[64];
    cr_assert(ul_kol_pabi_largest_rho("1", "1e-5", UL_RDP_MIRONOV, rho.enclosure, out, sizeof out));
    double L = log(1e5), star = pow(sqrt(L + 1) - sqrt(L), 2), got = strtod(out, NULL);
    cr_assert(got <= star && got >= star * (1 - 2e-5), "largest rho %s vs %.10g", out, star);
    /* noise needed: σ = 2, ρ_eff = 0.4 → 0.1 needs σ·√4 = 4; ε_R = 1 → 0.25 */
    ul_kol_pabi_problem pb;
    memset(&pb, 0, sizeof pb);
    const char *s2[] = {"2"};
    pb.noise = UL_KOL_PABI_GIVEN;
    pb.sigma = s2;
    pb.n_sigma = 1;
    mpfi_t r4;
    mpfi_init2(r4, 128);
    mpfi_set_d(r4, 0.4);
    mpfi_set_d(need, 0.1);
    ul_kol_pabi_noise_needed(f, &pb, r4, need);
    cr_assert(mpfr_cmp_d(&f->left, 4 * (1 - 1e-15)) > 0 && mpfr_cmp_d(&f->right, 4 * (1 + 1e-15)) < 0);
    pb.noise = UL_KOL_PABI_CODE_CONSTANT;
    pb.eps_renyi = "1";
    ul_kol_pabi_noise_needed(f, &pb, r4, need);
    cr_assert(mpfr_cmp_d(&f->left, 0.25 * (1 - 1e-15)) > 0 && mpfr_cmp_d(&f->right, 0.25 * (1 + 1e-15)) < 0);
    pb.c0 = "20";
    pb.c1 = "10";
    pb.lr = "0.01";
    pb.lambda = "50";
    cr_assert_eq(ul_kol_pabi_code_steps_d(&pb), 11);
    mpfi_clear(r4);
    mpfi_clear(need);
    mpfi_clear(f);
    mpfr_clear(t);
    ul_num_value_clear(&rho);
    ul_num_value_clear(&ren);
    ul_num_value_clear(&dv);
}

/* Group privacy and DP-SGD at q = 1, where the subsampled Gaussian is the
 * Gaussian mechanism: ρ(α) = steps·α/(2σ²) (Mironov 2017 Prop. 7), so with
 * σ = 2, 3 steps, α = 5: ρ = 1.875, and Mironov's conversion gives
 * ε' = ρ + log(1/δ')/(α − 1) and log δ' = (α − 1)(ρ − ε') in closed form;
 * the best α for ε' is 1 + √(log(1/δ')/c), c = 3/8.  The group sums
 * Σ_{i<k} e^{iε'} are summed term by term here. */
Test(koloskova, dpsgd_group_claims_at_q_one)
{
    ul_kol_dpsgd_problem pb = {"1", 0, 0, "2", 3};
    ul_kol_dpsgd_curve_ctx cv;
    ul_kol_dpsgd_curve_init(&cv);
    ul_kol_dpsgd_curve_set(&cv, &pb);
    ul_num_value e = new_value(), g = new_value(), dex = new_value(), eg = new_value();
    ul_num_report rep;
    char err[512] = "";
    mpfr_t t, sum, x;
    mpfr_inits2(W, t, sum, x, (mpfr_ptr)0);
    /* ε' at δ' = 1e-5, α = 5: 1.875 + log(1e5)/4 */
    cr_assert_eq(ul_kol_dpsgd_eps_at_certified(&cv, "5", "1e-5", UL_RDP_MIRONOV, &WANT, &e, &rep,
                                               err, sizeof err),
                 UL_OK, "%s", err);
    ref_set(t, "1e5");
    mpfr_log(t, t, MPFR_RNDN);
    mpfr_div_ui(t, t, 4, MPFR_RNDN);
    ref_set(x, "1.875");
    mpfr_add(t, t, x, MPFR_RNDN);
    assert_contains(&e, t, "eps' at q = 1");
    /* the group δ at ε = 8, k = 2 (ε' = 4): log δ' = 4·(1.875 − 4) = −8.5,
     * plus log(1 + e^4) */
    cr_assert_eq(ul_kol_dpsgd_group_delta_certified(&cv, "5", "8", 2, UL_RDP_MIRONOV, &WANT, &g,
                                                    &dex, &rep, err, sizeof err),
                 UL_OK, "%s", err);
    ref_set(t, "-8.5");
    assert_log_contains(&dex, t, "log delta' at q = 1");
    mpfr_set_ui(x, 4, MPFR_RNDN);
    mpfr_exp(x, x, MPFR_RNDN);
    mpfr_log1p(x, x, MPFR_RNDN);
    mpfr_add(t, t, x, MPFR_RNDN);
    assert_log_contains(&g, t, "group delta at q = 1");
    /* the code's rule on that pair: −8.5 + (k − 1)·4 */
    ul_kol_group_code_rule_at(&eg, "8", 2, &dex);
    ref_set(t, "-4.5");
    assert_log_contains(&eg, t, "code rule");
    /* the best α for ε' at δ' = 1e-5 */
    char alpha[UL_RENYI_ALPHA_TEXT_LEN];
    cr_assert(ul_kol_dpsgd_best_alpha(&cv, UL_RDP_TO_EPS, log(1e-5), UL_RDP_MIRONOV, alpha,
                                      sizeof alpha));
    double star = 1 + sqrt(log(1e5) / 0.375);
    cr_assert(fabs(strtod(alpha, NULL) - star) <= 1e-6 * star, "alpha %s vs %.12g", alpha, star);
    /* δ' needed for the group δ 1e-5 at ε = 1.4, k = 7 (ε' = 0.2), the pair
     * of ε' = 0.2 and δ' = 1e-6, and ε/k */
    mpfr_set_zero(sum, 1);
    for (int i = 0; i < 7; i++) {
        ref_set(x, "0.2");
        mpfr_mul_ui(x, x, (unsigned long)i, MPFR_RNDN);
        mpfr_exp(x, x, MPFR_RNDN);
        mpfr_add(sum, sum, x, MPFR_RNDN);
    }
    cr_assert_eq(ul_kol_group_delta_needed_certified("1.4", "1e-5", 7, &WANT, &g, &rep, err,
                                                     sizeof err),
                 UL_OK, "%s", err);
    ref_set(t, "1e-5");
    mpfr_div(t, t, sum, MPFR_RNDN);
    assert_contains(&g, t, "delta' needed");
    ul_kol_group_eps_split(&e, "1.4", 7, 256);
    ref_set(t, "0.2");
    assert_contains(&e, t, "eps/k");
    ul_kol_group_pair(&e, "1e-6", 7, &eg, &g);
    ref_set(t, "1e-6");
    mpfr_mul(t, t, sum, MPFR_RNDN);
    assert_contains(&g, t, "group delta of the pair");
    ref_set(t, "1.4");
    assert_contains(&eg, t, "group eps of the pair");
    char e20[64], e8[64];
    ul_kol_group_eps_split_text("1", 3, e20, e8, sizeof e20);
    cr_assert(fabs(strtod(e8, NULL) - 1.0 / 3) <= 1e-8 && fabs(strtod(e20, NULL) - 1.0 / 3) <= 1e-16,
              "eps/k as text: %s, %s", e20, e8);
    mpfr_clears(t, sum, x, (mpfr_ptr)0);
    ul_num_value_clear(&e);
    ul_num_value_clear(&g);
    ul_num_value_clear(&dex);
    ul_num_value_clear(&eg);
    ul_kol_dpsgd_curve_clear(&cv);
}
