/* tests/test_cli_theorems.c — end-to-end tests of the theorem calibrations of
 * `ulaudit calc`: noisygd-k, noisygd-sigma, model-clipping-t,
 * model-clipping-sigma, output-perturbation-sigma.  Each success is checked
 * against something the code under test did not compute: a hand derivation
 * (in the comment) evaluated here with MPFR, the independent θ oracle of
 * tests/oracle.c, or another calc quantity run through the CLI.  Each bad
 * input exits 2 with one stderr line naming the flag. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <mpfr.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"

#include "cli_run.h"

/* ---- helpers ------------------------------------------------------------------- */

/* Parses the JSON of a successful run (exit 0, nothing on stderr); frees r. */
static json_object *run_json(run_result r)
{
    cr_assert_eq(r.status, 0, "exit %d; stderr: %s", r.status, r.err);
    cr_assert_str_empty(r.err, "stderr: %s", r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o, "stdout is not JSON: %s", r.out);
    run_free(&r);
    return o;
}

static json_object *member(json_object *o, const char *key)
{
    json_object *v;
    cr_assert(json_object_object_get_ex(o, key, &v), "missing JSON field '%s'", key);
    return v;
}

/* x ← a decimal field of o, exactly as printed (at ORACLE_BITS). */
static void get_num(mpfr_ptr x, json_object *o, const char *key)
{
    cr_assert_eq(mpfr_set_str(x, field(o, key), 10, MPFR_RNDN), 0, "field %s = '%s'", key,
                 field(o, key));
}

/* Asserts lo ≤ ref ≤ hi for the lo/hi fields of o. */
static void expect_encloses(json_object *o, mpfr_srcptr ref, const char *what)
{
    mpfr_t lo, hi;
    mpfr_inits2(ORACLE_BITS, lo, hi, (mpfr_ptr)0);
    get_num(lo, o, "lo");
    get_num(hi, o, "hi");
    cr_assert(mpfr_lessequal_p(lo, ref) && mpfr_lessequal_p(ref, hi),
              "%s: [%s, %s] misses the reference %.17g", what, field(o, "lo"), field(o, "hi"),
              mpfr_get_d(ref, MPFR_RNDN));
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

/* The state of the precondition `name` in o's `preconditions` array. */
static const char *pre_state(json_object *o, const char *name)
{
    json_object *list = member(o, "preconditions");
    cr_assert(json_object_is_type(list, json_type_array));
    for (size_t i = 0; i < json_object_array_length(list); i++) {
        json_object *item = json_object_array_get_idx(list, i);
        if (strcmp(field(item, "name"), name) == 0) {
            cr_assert(strlen(field(item, "rule")) > 0);
            return field(item, "state");
        }
    }
    cr_assert_fail("precondition %s not reported", name);
    return NULL;
}

static long value_of(json_object *o)
{
    return strtol(field(o, "value"), NULL, 10);
}

/* log θ_{e^eps}(num/den) by the oracle; num, den decimal or MPFR. */
static void oracle_log_theta_ratio(mpfr_ptr out, const char *eps, mpfr_srcptr num, mpfr_srcptr den)
{
    mpfr_t e, r;
    mpfr_inits2(ORACLE_BITS, e, r, (mpfr_ptr)0);
    mpfr_set_str(e, eps, 10, MPFR_RNDN);
    mpfr_div(r, num, den, MPFR_RNDN);
    oracle_log_theta(out, e, r);
    mpfr_clears(e, r, (mpfr_ptr)0);
}

static void wide_exponents(void)
{
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
}

/* ---- noisygd-k --------------------------------------------------------------------- */

/* Hand derivation (the G.15 formulas of bounds/noisygd.h, solved for K).
 * q = 2, L = 1, λ = 1, β = 0, σ = 1, n = 1, η = 1/2 (η < 1/(λ+β) = 1 holds):
 *   tight:  ε(K) = 2qL²/(λσ²n²(1 − ηλ/2)) · exp(−ηλ(1 − ηλ/2)K)
 *               = (4/(3/4)) · exp(−(1/2)(3/4)K) = (16/3) · e^{−3K/8};
 *           ε(K) ≤ 1/100 ⇔ K ≥ (8/3)·log(1600/3) = (8/3)·6.27915… = 16.744…, so K = 17,
 *           reaching (16/3)·e^{−51/8} = 9.0860e-3.
 *   stated: ε(K) = 4qL²/(λσ²n²) · exp(−ηλK/2) = 8 · e^{−K/4};
 *           ε(K) ≤ 1/100 ⇔ K ≥ 4·log(800) = 26.738…, so K = 27, reaching 8·e^{−27/4} = 9.3670e-3.
 * The reached ε is recomputed below in MPFR from these closed forms. */
Test(cli_theorems, noisygd_k_matches_the_hand_derivation)
{
    wide_exponents();
    mpfr_t ref, t;
    mpfr_inits2(ORACLE_BITS, ref, t, (mpfr_ptr)0);

    json_object *o = run_json(run("calc", "noisygd-k", "--q", "2", "--l", "1", "--lambda", "1",
                                  "--beta", "0", "--sigma", "1", "--eta", "0.5", "--n", "1",
                                  "--eps-dd", "0.01", "--json", NULL));
    cr_assert_str_eq(field(o, "quantity"), "noisygd-k");
    cr_assert_str_eq(field(member(o, "inputs"), "form"), "tight", "default form echoed");
    cr_assert_eq(value_of(o), 17);
    mpfr_set_si(ref, -51, MPFR_RNDN);
    mpfr_div_ui(ref, ref, 8, MPFR_RNDN);
    mpfr_exp(ref, ref, MPFR_RNDN);
    mpfr_mul_ui(ref, ref, 16, MPFR_RNDN);
    mpfr_div_ui(ref, ref, 3, MPFR_RNDN);
    expect_encloses(member(o, "eps_at_k"), ref, "tight eps_at_k");
    cr_assert_str_eq(pre_state(o, "q_gt_1"), "holds");
    cr_assert_str_eq(pre_state(o, "eta_lt_inv_lambda_plus_beta"), "holds");
    json_object_put(o);

    /* the minimality the hand derivation gives: ε(16) > 0.01 ≥ ε(17) */
    mpfr_set_si(t, -48, MPFR_RNDN);
    mpfr_div_ui(t, t, 8, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_mul_ui(t, t, 16, MPFR_RNDN);
    mpfr_div_ui(t, t, 3, MPFR_RNDN);
    cr_assert(mpfr_cmp_d(t, 0.01) > 0 && mpfr_cmp_d(ref, 0.01) < 0);

    o = run_json(run("calc", "noisygd-k", "--q", "2", "--l", "1", "--lambda", "1", "--beta", "0",
                     "--sigma", "1", "--eta", "0.5", "--n", "1", "--eps-dd", "0.01", "--form",
                     "stated", "--json", NULL));
    cr_assert_eq(value_of(o), 27);
    mpfr_set_si(ref, -27, MPFR_RNDN);
    mpfr_div_ui(ref, ref, 4, MPFR_RNDN);
    mpfr_exp(ref, ref, MPFR_RNDN);
    mpfr_mul_ui(ref, ref, 8, MPFR_RNDN);
    expect_encloses(member(o, "eps_at_k"), ref, "stated eps_at_k");
    json_object_put(o);
    mpfr_clears(ref, t, (mpfr_ptr)0);

    /* the prescribed initialisation σ²/(λ(1 − ηλ/2)) = 4/3 is accepted, 1 is not */
    o = run_json(run("calc", "noisygd-k", "--q", "2", "--l", "1", "--lambda", "1", "--beta", "0",
                     "--sigma", "1", "--eta", "0.5", "--n", "1", "--eps-dd", "0.01", "--init-var",
                     "1", "--json", NULL));
    cr_assert_str_eq(pre_state(o, "init_variance_prescribed"), "fails");
    json_object_put(o);
}

Test(cli_theorems, noisygd_k_reports_failing_preconditions)
{
    /* q = 1 is no Rényi order > 1 and η = 0.6 ≥ 1/(λ + β) = 0.5: the value is the
     * formula's, reported with both items failing */
    run_result r = run("calc", "noisygd-k", "--q", "1", "--l", "1", "--lambda", "1", "--beta", "1",
                       "--sigma", "1", "--eta", "0.6", "--n", "1", "--eps-dd", "0.01", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "value "), "%s", r.out);
    cr_assert(strstr(r.out, "precondition q_gt_1 FAILS"), "%s", r.out);
    cr_assert(strstr(r.out, "precondition eta_lt_inv_lambda_plus_beta FAILS"), "%s", r.out);
    cr_assert(strstr(r.out, "not a guarantee"), "%s", r.out);
    run_free(&r);

    json_object *o = run_json(run("calc", "noisygd-k", "--q", "1", "--l", "1", "--lambda", "1",
                                  "--beta", "1", "--sigma", "1", "--eta", "0.6", "--n", "1",
                                  "--eps-dd", "0.01", "--json", NULL));
    cr_assert_str_eq(pre_state(o, "q_gt_1"), "fails");
    cr_assert_str_eq(pre_state(o, "eta_lt_inv_lambda_plus_beta"), "fails");
    json_object_put(o);

    /* all holding: no precondition line in text */
    r = run("calc", "noisygd-k", "--q", "2", "--l", "1", "--lambda", "1", "--beta", "0", "--sigma",
            "1", "--eta", "0.5", "--n", "1", "--eps-dd", "0.01", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_null(strstr(r.out, "precondition"), "%s", r.out);
    run_free(&r);
}

Test(cli_theorems, noisygd_k_bad_inputs)
{
#define NGD_K(...)                                                                                 \
    run("calc", "noisygd-k", "--q", "2", "--l", "1", "--lambda", "1", "--beta", "0", "--sigma",    \
        "1", "--n", "1", __VA_ARGS__, NULL)
    expect_usage_error("--eps-dd", NGD_K("--eta", "0.5"));
    expect_usage_error("--eta",
                       run("calc", "noisygd-k", "--q", "2", "--l", "1", "--lambda", "1", "--beta",
                           "0", "--sigma", "1", "--n", "1", "--eps-dd", "0.01", NULL));
    expect_usage_error("--eps-dd", NGD_K("--eta", "0.5", "--eps-dd", "0"));
    expect_usage_error("--eps-dd", NGD_K("--eta", "0.5", "--eps-dd", "-1"));
    expect_usage_error("--form", NGD_K("--eta", "0.5", "--eps-dd", "0.01", "--form", "loose"));
    expect_usage_error("--max-k", NGD_K("--eta", "0.5", "--eps-dd", "0.01", "--max-k", "0"));
    expect_usage_error("--max-k", NGD_K("--eta", "0.5", "--eps-dd", "0.01", "--max-k", "5"));
    expect_usage_error("--init-var", NGD_K("--eta", "0.5", "--eps-dd", "0.01", "--init-var", "-1"));
    /* η = 0 never contracts; ηλ ≥ 2 leaves the tight form undefined */
    expect_usage_error("--eta", NGD_K("--eta", "0", "--eps-dd", "0.01"));
    expect_usage_error("--eta", NGD_K("--eta", "3", "--eps-dd", "0.01"));
    expect_usage_error("--eta", NGD_K("--eta", "x", "--eps-dd", "0.01"));
#undef NGD_K
    expect_usage_error("--l", run("calc", "noisygd-k", "--q", "2", "--l", "-1", "--lambda", "1",
                                  "--beta", "0", "--sigma", "1", "--eta", "0.5", "--n", "1",
                                  "--eps-dd", "0.01", NULL));
    expect_usage_error("--n", run("calc", "noisygd-k", "--q", "2", "--l", "1", "--lambda", "1",
                                  "--beta", "0", "--sigma", "1", "--eta", "0.5", "--n", "1.5",
                                  "--eps-dd", "0.01", NULL));
    expect_usage_error("--lambda", run("calc", "noisygd-k", "--q", "2", "--l", "1", "--lambda", "0",
                                       "--beta", "0", "--sigma", "1", "--eta", "0.5", "--n", "1",
                                       "--eps-dd", "0.01", NULL));
}

/* ---- noisygd-sigma ------------------------------------------------------------------ */

Test(cli_theorems, noisygd_sigma_matches_the_closed_forms)
{
    wide_exponents();
    mpfr_t ref;
    mpfr_init2(ref, ORACLE_BITS);

    /* G.7: ε = qL²ηK/(σ²n²) ⇒ σ² = qL²ηK/(n²ε) = 2·1·(1/2)·100/(100·1) = 1 exactly */
    json_object *o =
        run_json(run("calc", "noisygd-sigma", "--kind", "g7", "--q", "2", "--l", "1", "--eta",
                     "0.5", "--n", "10", "--k", "100", "--eps-dp", "1", "--json", NULL));
    mpfr_set_ui(ref, 1, MPFR_RNDN);
    expect_encloses(o, ref, "g7 sigma");
    cr_assert_str_eq(field(o, "safe"), field(o, "hi"));
    cr_assert_str_eq(pre_state(o, "q_gt_1"), "holds");
    json_object_put(o);

    /* G.9 with no K (the supremum): σ² = 4qL²/(λn²ε) = 8/100 */
    o = run_json(run("calc", "noisygd-sigma", "--kind", "g9", "--q", "2", "--l", "1", "--eta",
                     "0.5", "--n", "10", "--lambda", "1", "--beta", "0", "--eps-dp", "1", "--json",
                     NULL));
    mpfr_set_ui(ref, 8, MPFR_RNDN);
    mpfr_div_ui(ref, ref, 100, MPFR_RNDN);
    mpfr_sqrt(ref, ref, MPFR_RNDN);
    expect_encloses(o, ref, "g9 sigma");
    cr_assert_str_eq(pre_state(o, "eta_lt_inv_lambda_plus_beta"), "holds");
    json_object_put(o);

    /* G.15 tight: ε = 2qL²/(λσ²n²(1 − ηλ/2))·e^{−ηλ(1−ηλ/2)K̄} ⇒
     * σ² = (16/3)/10⁴ · e^{−(3/8)·10} / (1/100) at q = 2, L = 1, λ = 1, n = 100, η = 1/2 */
    o = run_json(run("calc", "noisygd-sigma", "--kind", "g15", "--q", "2", "--l", "1", "--eta",
                     "0.5", "--n", "100", "--lambda", "1", "--beta", "0", "--kabar", "10",
                     "--eps-dd", "0.01", "--json", NULL));
    mpfr_set_si(ref, -30, MPFR_RNDN);
    mpfr_div_ui(ref, ref, 8, MPFR_RNDN);
    mpfr_exp(ref, ref, MPFR_RNDN);
    mpfr_mul_ui(ref, ref, 16, MPFR_RNDN);
    mpfr_div_ui(ref, ref, 3 * 100, MPFR_RNDN);
    mpfr_sqrt(ref, ref, MPFR_RNDN);
    expect_encloses(o, ref, "g15 sigma");
    json_object_put(o);

    /* L = 0: every σ > 0 reaches the target */
    o = run_json(run("calc", "noisygd-sigma", "--kind", "g7", "--q", "2", "--l", "0", "--eta",
                     "0.5", "--n", "10", "--k", "100", "--eps-dp", "1", "--json", NULL));
    cr_assert_str_eq(field(o, "hi"), "0");
    json_object_put(o);
    mpfr_clear(ref);
}

Test(cli_theorems, noisygd_sigma_bad_inputs)
{
    expect_usage_error("--kind", run("calc", "noisygd-sigma", "--q", "2", "--l", "1", "--eta",
                                     "0.5", "--n", "10", "--k", "100", "--eps-dp", "1", NULL));
    expect_usage_error("--kind",
                       run("calc", "noisygd-sigma", "--kind", "g8", "--q", "2", "--l", "1", "--eta",
                           "0.5", "--n", "10", "--k", "100", "--eps-dp", "1", NULL));
    expect_usage_error("--k", run("calc", "noisygd-sigma", "--kind", "g7", "--q", "2", "--l", "1",
                                  "--eta", "0.5", "--n", "10", "--eps-dp", "1", NULL));
    expect_usage_error("--eps-dd", run("calc", "noisygd-sigma", "--kind", "g7", "--q", "2", "--l",
                                       "1", "--eta", "0.5", "--n", "10", "--k", "100", "--eps-dp",
                                       "1", "--eps-dd", "1", NULL));
    expect_usage_error("--kabar", run("calc", "noisygd-sigma", "--kind", "g15", "--q", "2", "--l",
                                      "1", "--eta", "0.5", "--n", "10", "--lambda", "1", "--beta",
                                      "0", "--eps-dd", "1", NULL));
    expect_usage_error("--k",
                       run("calc", "noisygd-sigma", "--kind", "g7", "--q", "2", "--l", "1", "--eta",
                           "0.5", "--n", "10", "--k", "1.5", "--eps-dp", "1", NULL));
    expect_usage_error("--form", run("calc", "noisygd-sigma", "--kind", "g7", "--q", "2", "--l",
                                     "1", "--eta", "0.5", "--n", "10", "--k", "10", "--eps-dp", "1",
                                     "--form", "stated", NULL));
    expect_usage_error("--form", run("calc", "noisygd-sigma", "--kind", "g15", "--q", "2", "--l",
                                     "1", "--eta", "0.5", "--n", "10", "--lambda", "1", "--beta",
                                     "0", "--kabar", "1", "--eps-dd", "1", "--form", "x", NULL));
    expect_usage_error("--eps-dp", run("calc", "noisygd-sigma", "--kind", "g9", "--q", "2", "--l",
                                       "1", "--eta", "0.5", "--n", "10", "--lambda", "1", "--beta",
                                       "0", "--eps-dp", "0", NULL));
    expect_usage_error("--q", run("calc", "noisygd-sigma", "--kind", "g7", "--q", "0", "--l", "1",
                                  "--eta", "0.5", "--n", "10", "--k", "10", "--eps-dp", "1", NULL));
}

/* ---- model-clipping-t ------------------------------------------------------------------ */

/* Runs calc contraction at T steps (r, mode) and returns its JSON. */
static json_object *contraction_at(const char *r, long steps, const char *mode)
{
    char t[32];
    snprintf(t, sizeof t, "%ld", steps);
    return run_json(run("calc", "contraction", "--eps", "1", "--r", r, "--steps", t, "--mode", mode,
                        "--json", NULL));
}

/* T is least: `calc contraction` (another entry point, through the CLI) at
 * r = D/σ gives δ_T ≤ δ and δ_{T−1} > δ. */
static void expect_least_t(long t, const char *r, const char *mode, double delta)
{
    cr_assert_gt(t, 1);
    json_object *o = contraction_at(r, t, mode);
    cr_assert(strtod(field(o, "hi"), NULL) <= delta, "delta_T = %s", field(o, "hi"));
    json_object_put(o);
    o = contraction_at(r, t - 1, mode);
    cr_assert(strtod(field(o, "lo"), NULL) > delta, "delta_{T-1} = %s", field(o, "lo"));
    json_object_put(o);
}

Test(cli_theorems, model_clipping_t_agrees_with_contraction_and_the_closed_form)
{
    wide_exponents();
    /* cc1, C2 = 1, σ = 1: r = 2·C2/σ = 2, δ0 = 1 */
    json_object *o = run_json(run("calc", "model-clipping-t", "--eps", "1", "--c2", "1", "--sigma",
                                  "1", "--delta", "1e-5", "--json", NULL));
    long t = value_of(o);
    cr_assert_str_eq(field(member(o, "inputs"), "mode"), "product", "default mode echoed");
    cr_assert_str_eq(pre_state(o, "c2_positive"), "holds");
    json_object_put(o);
    expect_least_t(t, "2", "product", 1e-5);

    /* the closed form of docs/neural-unlearning.md, "Model clipping", iteration
     * count (Koloskova et al. 2025, Thm 4.2; constant σ, non-adaptive):
     * T = ⌈log(δ/δ0)/log θ_{e^ε}(2·C2/σ)⌉, θ from the independent oracle */
    mpfr_t lt, x;
    mpfr_inits2(ORACLE_BITS, lt, x, (mpfr_ptr)0);
    oracle_log_theta_str(lt, "1", "2");
    mpfr_set_str(x, "1e-5", 10, MPFR_RNDN);
    mpfr_log(x, x, MPFR_RNDN);
    mpfr_div(x, x, lt, MPFR_RNDN);
    mpfr_ceil(x, x);
    cr_assert_eq(mpfr_get_si(x, MPFR_RNDN), t, "closed form %ld vs %ld", mpfr_get_si(x, MPFR_RNDN),
                 t);
    mpfr_clears(lt, x, (mpfr_ptr)0);

    /* adaptive accounting: fewer steps, and least by the same test */
    o = run_json(run("calc", "model-clipping-t", "--eps", "1", "--c2", "1", "--sigma", "1",
                     "--delta", "1e-5", "--mode", "adaptive", "--json", NULL));
    long ta = value_of(o);
    json_object_put(o);
    cr_assert_lt(ta, t);
    expect_least_t(ta, "2", "adaptive", 1e-5);

    /* cc2: D = 2·(C2 + lr·C1) = 2·(0.25 + 0.5·0.5) = 1, σ = 0.8 ⇒ r = 1.25 */
    o = run_json(run("calc", "model-clipping-t", "--eps", "1", "--c2", "0.25", "--sigma", "0.8",
                     "--delta", "1e-5", "--variant", "cc2", "--c1", "0.5", "--lr", "0.5", "--json",
                     NULL));
    cr_assert_str_eq(pre_state(o, "c1_positive"), "holds");
    cr_assert_str_eq(pre_state(o, "lr_positive"), "holds");
    expect_least_t(value_of(o), "1.25", "product", 1e-5);
    json_object_put(o);
}

Test(cli_theorems, model_clipping_t_bad_inputs)
{
#define MC_T(...)                                                                                  \
    run("calc", "model-clipping-t", "--eps", "1", "--c2", "1", "--delta", "1e-5", __VA_ARGS__, NULL)
    expect_usage_error("--sigma", MC_T("--mode", "product"));
    expect_usage_error("--sigma", MC_T("--sigma", "0"));
    expect_usage_error("--sigma", MC_T("--sigma", "1,2"));
    expect_usage_error("--variant", MC_T("--sigma", "1", "--variant", "cc3"));
    expect_usage_error("--mode", MC_T("--sigma", "1", "--mode", "fast"));
    expect_usage_error("--c1", MC_T("--sigma", "1", "--variant", "cc2"));
    expect_usage_error("--lr", MC_T("--sigma", "1", "--variant", "cc2", "--c1", "1"));
    expect_usage_error("--c1", MC_T("--sigma", "1", "--c1", "1"));
    expect_usage_error("--c1", MC_T("--sigma", "1", "--variant", "cc2", "--c1", "-1", "--lr", "1"));
    expect_usage_error("--c0", MC_T("--sigma", "1", "--c0", "1"));
    expect_usage_error("--c0", MC_T("--sigma", "1", "--sigma0", "2"));
    expect_usage_error("--sigma0", MC_T("--sigma", "1", "--sigma0", "-2", "--c0", "1"));
    expect_usage_error("--dim",
                       MC_T("--sigma", "1", "--sigma0", "2", "--c0", "1", "--init", "box"));
    expect_usage_error("--init",
                       MC_T("--sigma", "1", "--sigma0", "2", "--c0", "1", "--init", "cube"));
    expect_usage_error("--max-steps", MC_T("--sigma", "1", "--max-steps", "5"));
    expect_usage_error("--max-steps", MC_T("--sigma", "1", "--max-steps", "0"));
#undef MC_T
    /* a violated precondition (C2 > 0, ε ≥ 0) is an input error naming its flag */
    expect_usage_error("--c2", run("calc", "model-clipping-t", "--eps", "1", "--c2", "0", "--sigma",
                                   "1", "--delta", "1e-5", NULL));
    expect_usage_error("--eps", run("calc", "model-clipping-t", "--eps", "-1", "--c2", "1",
                                    "--sigma", "1", "--delta", "1e-5", NULL));
    expect_usage_error("--delta", run("calc", "model-clipping-t", "--eps", "1", "--c2", "1",
                                      "--sigma", "1", "--delta", "1", NULL));
}

/* ---- model-clipping-sigma ----------------------------------------------------------------- */

/* o (product accounting, δ0 = 1, ε = 1, δ = 1e-5, T steps) against the
 * oracle: δ_T = θ_{e^ε}(D/σ)^T, so at safe T·log θ ≤ log δ and at lo
 * (certified unsafe) T·log θ > log δ; D is checked against want_diameter,
 * the exact 2·C2 or 2·(C2 + lr·C1) worked out by hand. */
static void expect_mc_sigma_safe_and_least(json_object *o, const char *want_diameter,
                                           unsigned long steps)
{
    cr_assert_str_eq(field(o, "safe"), field(o, "hi"));
    mpfr_t d, s, lt, ld;
    mpfr_inits2(ORACLE_BITS, d, s, lt, ld, (mpfr_ptr)0);
    get_num(d, o, "diameter");
    mpfr_set_str(s, want_diameter, 10, MPFR_RNDN); /* exact: both fit in ORACLE_BITS */
    cr_assert(mpfr_equal_p(d, s), "diameter %s, want %s", field(o, "diameter"), want_diameter);
    mpfr_set_str(ld, "1e-5", 10, MPFR_RNDN);
    mpfr_log(ld, ld, MPFR_RNDN);
    get_num(s, o, "safe");
    oracle_log_theta_ratio(lt, "1", d, s);
    mpfr_mul_ui(lt, lt, steps, MPFR_RNDN);
    cr_assert(mpfr_lessequal_p(lt, ld), "delta_T at safe exceeds delta (D = %s)", want_diameter);
    get_num(s, o, "lo");
    oracle_log_theta_ratio(lt, "1", d, s);
    mpfr_mul_ui(lt, lt, steps, MPFR_RNDN);
    cr_assert(mpfr_greater_p(lt, ld), "delta_T at lo is within delta: lo is not least (D = %s)",
              want_diameter);
    mpfr_clears(d, s, lt, ld, (mpfr_ptr)0);
}

Test(cli_theorems, model_clipping_sigma_is_safe_and_least_by_the_oracle)
{
    wide_exponents();
    json_object *o = run_json(run("calc", "model-clipping-sigma", "--eps", "1", "--c2", "1",
                                  "--steps", "8", "--delta", "1e-5", "--json", NULL));
    expect_mc_sigma_safe_and_least(o, "2", 8);
    double product = strtod(field(o, "lo"), NULL);
    json_object_put(o);

    /* adaptive needs less noise than product at the same T */
    o = run_json(run("calc", "model-clipping-sigma", "--eps", "1", "--c2", "1", "--steps", "8",
                     "--delta", "1e-5", "--mode", "adaptive", "--json", NULL));
    double adaptive = strtod(field(o, "safe"), NULL);
    json_object_put(o);
    cr_assert(adaptive < product, "adaptive sigma %g, product %g", adaptive, product);
}

Test(cli_theorems, model_clipping_sigma_bad_inputs)
{
#define MC_S(...)                                                                                  \
    run("calc", "model-clipping-sigma", "--eps", "1", "--c2", "1", "--delta", "1e-5", __VA_ARGS__, \
        NULL)
    expect_usage_error("--steps", MC_S("--mode", "product"));
    expect_usage_error("--steps", MC_S("--steps", "0"));
    expect_usage_error("--steps", MC_S("--steps", "2.5"));
    expect_usage_error("--mode", MC_S("--steps", "8", "--mode", "x"));
    expect_usage_error("--variant", MC_S("--steps", "8", "--variant", "cc"));
    expect_usage_error("--dim", MC_S("--steps", "8", "--sigma0", "1", "--c0", "1", "--dim", "3"));
    expect_usage_error("--c0", MC_S("--steps", "8", "--sigma0", "1"));
#undef MC_S
    expect_usage_error("--c2", run("calc", "model-clipping-sigma", "--eps", "1", "--c2", "-1",
                                   "--steps", "8", "--delta", "1e-5", NULL));
    expect_usage_error("--delta", run("calc", "model-clipping-sigma", "--eps", "1", "--c2", "1",
                                      "--steps", "8", "--delta", "0", NULL));
}

/* ---- output-perturbation-sigma -------------------------------------------------------------- */

/* Whether θ_{e^ε}(ε/√(2·log(1.25/δ))) ≤ δ by the oracle: the classic
 * σ = 2·C0·√(2·log(1.25/δ))/ε gives r = 2·C0/σ = ε/√(2·log(1.25/δ)). */
static bool oracle_classic_delivers(const char *eps, const char *delta)
{
    mpfr_t e, d, f, lt;
    mpfr_inits2(ORACLE_BITS, e, d, f, lt, (mpfr_ptr)0);
    mpfr_set_str(e, eps, 10, MPFR_RNDN);
    mpfr_set_str(d, delta, 10, MPFR_RNDN);
    mpfr_ui_div(f, 5, d, MPFR_RNDN);
    mpfr_div_ui(f, f, 4, MPFR_RNDN);
    mpfr_log(f, f, MPFR_RNDN);
    mpfr_mul_ui(f, f, 2, MPFR_RNDN);
    mpfr_sqrt(f, f, MPFR_RNDN);
    oracle_log_theta_ratio(lt, eps, e, f);
    mpfr_log(d, d, MPFR_RNDN);
    bool ok = mpfr_lessequal_p(lt, d);
    mpfr_clears(e, d, f, lt, (mpfr_ptr)0);
    return ok;
}

/* Checks one run: classic against σ = 2·C0·√(2·log(1.25/δ))/ε in MPFR; the
 * exact σ: θ_{e^ε}(2·C0/safe) ≤ δ and θ_{e^ε}(2·C0/lo) > δ by the oracle;
 * classic_delivers against the oracle. */
static void check_output_perturbation(const char *c0, const char *eps, const char *delta,
                                      bool expect_delivers)
{
    json_object *o = run_json(run("calc", "output-perturbation-sigma", "--c0", c0, "--eps", eps,
                                  "--delta", delta, "--json", NULL));
    mpfr_t ref, t, two_c0, ld;
    mpfr_inits2(ORACLE_BITS, ref, t, two_c0, ld, (mpfr_ptr)0);
    mpfr_set_str(two_c0, c0, 10, MPFR_RNDN);
    mpfr_mul_ui(two_c0, two_c0, 2, MPFR_RNDN);
    mpfr_set_str(ld, delta, 10, MPFR_RNDN);
    mpfr_ui_div(ref, 5, ld, MPFR_RNDN);
    mpfr_div_ui(ref, ref, 4, MPFR_RNDN);
    mpfr_log(ref, ref, MPFR_RNDN);
    mpfr_mul_ui(ref, ref, 2, MPFR_RNDN);
    mpfr_sqrt(ref, ref, MPFR_RNDN);
    mpfr_mul(ref, ref, two_c0, MPFR_RNDN);
    mpfr_set_str(t, eps, 10, MPFR_RNDN);
    mpfr_div(ref, ref, t, MPFR_RNDN);
    expect_encloses(member(o, "classic"), ref, "classic sigma");

    mpfr_log(ld, ld, MPFR_RNDN);
    cr_assert_str_eq(field(o, "safe"), field(o, "hi"));
    get_num(t, o, "safe");
    oracle_log_theta_ratio(ref, eps, two_c0, t);
    cr_assert(mpfr_lessequal_p(ref, ld), "theta at safe exceeds delta");
    get_num(t, o, "lo");
    oracle_log_theta_ratio(ref, eps, two_c0, t);
    cr_assert(mpfr_greater_p(ref, ld), "theta at lo is within delta: lo is not least");

    json_object *d = member(o, "classic_delivers");
    cr_assert(json_object_is_type(d, json_type_boolean));
    cr_assert_eq(json_object_get_boolean(d), expect_delivers);
    cr_assert_eq(oracle_classic_delivers(eps, delta), expect_delivers);
    cr_assert_str_eq(pre_state(o, "c0_positive"), "holds");
    cr_assert_str_eq(pre_state(o, "eps_lt_1"), strcmp(eps, "1") < 0 ? "holds" : "fails");
    json_object_put(o);
    mpfr_clears(ref, t, two_c0, ld, (mpfr_ptr)0);
}

Test(cli_theorems, output_perturbation_sigma_classic_and_exact)
{
    wide_exponents();
    check_output_perturbation("1", "0.5", "1e-5", true);
    check_output_perturbation("1", "1", "1e-5", true);
    /* docs/neural-unlearning.md, "Simplified Gaussian bound": the classic
     * calibration (Dwork & Roth 2014, Thm A.1) fails near ε = 8.5 at δ = 1e-5 */
    check_output_perturbation("0.25", "10", "1e-5", false);

    run_result r = run("calc", "output-perturbation-sigma", "--c0", "1", "--eps", "10", "--delta",
                       "1e-5", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "does NOT give (eps, delta)"), "%s", r.out);
    cr_assert(strstr(r.out, "precondition eps_lt_1 FAILS"), "%s", r.out);
    run_free(&r);
    r = run("calc", "output-perturbation-sigma", "--c0", "1", "--eps", "0.5", "--delta", "1e-5",
            NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "really gives (eps, delta)"), "%s", r.out);
    cr_assert_null(strstr(r.out, "precondition"), "%s", r.out);
    run_free(&r);
}

Test(cli_theorems, output_perturbation_sigma_bad_inputs)
{
    expect_usage_error("--delta",
                       run("calc", "output-perturbation-sigma", "--c0", "1", "--eps", "1", NULL));
    expect_usage_error("--c0", run("calc", "output-perturbation-sigma", "--c0", "0", "--eps", "1",
                                   "--delta", "1e-5", NULL));
    expect_usage_error("--c0", run("calc", "output-perturbation-sigma", "--c0", "x", "--eps", "1",
                                   "--delta", "1e-5", NULL));
    expect_usage_error("--eps", run("calc", "output-perturbation-sigma", "--c0", "1", "--eps", "0",
                                    "--delta", "1e-5", NULL));
    expect_usage_error("--delta", run("calc", "output-perturbation-sigma", "--c0", "1", "--eps",
                                      "1", "--delta", "1", NULL));
    expect_usage_error("--sigma", run("calc", "output-perturbation-sigma", "--c0", "1", "--eps",
                                      "1", "--delta", "0.1", "--sigma", "1", NULL));
}

/* ---- the whole domain of --c0 and --c2 ---------------------------------------------------- */

/* Both were refused below their documented limit 1e100 with a message in
 * derived terms: output-perturbation-sigma --c0 6e99 as "sensitivity: must
 * be <= 1e100 (got '12000...e0')" (2·C0 handed to gauss-sigma), and
 * model-clipping-* --c2 6e99 as "--c2: the diameter must be at most 1e100"
 * (2·C2, not what was typed).  Every value of the documented domains now
 * works, checked by the oracle at the top of the range. */
Test(cli_theorems, c0_and_c2_take_every_value_of_their_domain)
{
    wide_exponents();
    check_output_perturbation("6e99", "1", "1e-5", true);
    check_output_perturbation("1e100", "0.5", "1e-5", true);

    /* D = 2·C2 = 1.2e100 (an integer: exact in the oracle's precision) */
    json_object *o = run_json(run("calc", "model-clipping-sigma", "--eps", "1", "--c2", "6e99",
                                  "--steps", "8", "--delta", "1e-5", "--json", NULL));
    expect_mc_sigma_safe_and_least(o, "1.2e100", 8);
    json_object_put(o);
    /* cc2: D = 2·(C2 + lr·C1) = 2·(1e100 + 1e50·1e50) = 4e100 */
    o = run_json(run("calc", "model-clipping-sigma", "--eps", "1", "--c2", "1e100", "--steps", "8",
                     "--delta", "1e-5", "--variant", "cc2", "--c1", "1e50", "--lr", "1e50",
                     "--json", NULL));
    expect_mc_sigma_safe_and_least(o, "4e100", 8);
    json_object_put(o);

    /* model-clipping-t sees r = D/σ only: 2·1e100/1e100 = 2, and cc2's
     * 2·(2.5e99 + 5e49·1e50)/7.5e99 = 2 (D = 1.5e100), both least by
     * `calc contraction` */
    o = run_json(run("calc", "model-clipping-t", "--eps", "1", "--c2", "1e100", "--sigma", "1e100",
                     "--delta", "1e-5", "--json", NULL));
    expect_least_t(value_of(o), "2", "product", 1e-5);
    json_object_put(o);
    o = run_json(run("calc", "model-clipping-t", "--eps", "1", "--c2", "2.5e99", "--sigma",
                     "7.5e99", "--delta", "1e-5", "--variant", "cc2", "--c1", "1e50", "--lr",
                     "5e49", "--json", NULL));
    expect_least_t(value_of(o), "2", "product", 1e-5);
    json_object_put(o);
}

/* A refusal of --c0 / --c2 names the flag, quotes what was typed and
 * states the rule in the flag's own terms (no derived "sensitivity" or
 * "diameter"); frees r. */
static void expect_refusal_in_flag_terms(const char *flag, const char *typed, const char *rule,
                                         run_result r)
{
    cr_assert(strstr(r.err, typed) != NULL, "%s: the typed '%s' is not quoted: %s", flag, typed,
              r.err);
    cr_assert(strstr(r.err, rule) != NULL, "%s: the rule '%s' is not stated: %s", flag, rule,
              r.err);
    cr_assert_null(strstr(r.err, "sensitivity"), "%s: derived terms: %s", flag, r.err);
    cr_assert_null(strstr(r.err, "diameter"), "%s: derived terms: %s", flag, r.err);
    expect_usage_error(flag, r);
}

Test(cli_theorems, c0_and_c2_refusals_name_the_flag_and_quote_it)
{
    expect_refusal_in_flag_terms("--c0", "'2e100'", "1e100",
                                 run("calc", "output-perturbation-sigma", "--c0", "2e100", "--eps",
                                     "1", "--delta", "1e-5", NULL));
    /* inside 0 < C0 but below what is read as an exact rational (man page) */
    expect_refusal_in_flag_terms("--c0", "1e-30000", "1e-20000",
                                 run("calc", "output-perturbation-sigma", "--c0", "1e-30000",
                                     "--eps", "1", "--delta", "1e-5", NULL));
    expect_refusal_in_flag_terms("--c2", "'2e100'", "1e100",
                                 run("calc", "model-clipping-t", "--eps", "1", "--c2", "2e100",
                                     "--sigma", "1e100", "--delta", "1e-5", NULL));
    expect_refusal_in_flag_terms("--c2", "'2e100'", "1e100",
                                 run("calc", "model-clipping-sigma", "--eps", "1", "--c2", "2e100",
                                     "--steps", "8", "--delta", "1e-5", NULL));
    expect_refusal_in_flag_terms("--c1", "'2e100'", "1e100",
                                 run("calc", "model-clipping-sigma", "--eps", "1", "--c2", "1",
                                     "--steps", "8", "--delta", "1e-5", "--variant", "cc2", "--c1",
                                     "2e100", "--lr", "1", NULL));
    /* the one joint limit, D/σ <= 1e9, is --sigma's (its help says so) */
    expect_usage_error("--sigma", run("calc", "model-clipping-t", "--eps", "1", "--c2", "1e100",
                                      "--sigma", "1", "--delta", "1e-5", NULL));
}

/* ---- help -------------------------------------------------------------------------------------
 */

Test(cli_theorems, help_lists_the_theorem_quantities_with_examples_and_defaults)
{
    const char *names[] = {"noisygd-k", "noisygd-sigma", "model-clipping-t", "model-clipping-sigma",
                           "output-perturbation-sigma"};
    run_result r = run("calc", "--help", NULL);
    cr_assert_eq(r.status, 0);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char example[96];
        snprintf(example, sizeof example, "example: ulaudit calc %s ", names[i]);
        cr_assert(strstr(r.out, example), "calc --help misses %s", example);
    }
    run_free(&r);
    r = run("calc", "model-clipping-t", "--help", NULL);
    cr_assert_eq(r.status, 0);
    const char *flags[] = {"--variant", "--c1",  "--lr",   "--c0",       "--sigma0",
                           "--init",    "--dim", "--mode", "--max-steps"};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        cr_assert(strstr(r.out, flags[i]), "model-clipping-t --help misses %s", flags[i]);
    cr_assert(strstr(r.out, "product (default"), "%s", r.out);
    run_free(&r);
}

/* ---- langevin-sigma, langevin-k ---------------------------------------------------- */

/* With K = 0 no unlearning happens and ε_DP(0, σ) = min_α [α·c + B/(α − 1)],
 * c = 4S²M²/(mσ²n²) (Thm 3.3 (3) with T = ∞), B = log(1/δ): the linear-RDP
 * optimum c + 2√(cB) (at α = 1 + √(B/c)).  Setting it to ε gives
 * √c = √(B + ε) − √B, so σ* = 2SM/(n·√(m·c)) in closed form. */
Test(cli_theorems, langevin_sigma_at_k0_matches_the_closed_form)
{
    run_result r = run("calc", "langevin-sigma", "--n", "1000", "--m", "0.5", "--L", "2", "--M",
                       "1", "--eps", "1", "--delta", "1e-5", "--K", "0", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o);
    mpfr_t b, c, s, lo, hi;
    mpfr_inits2(256, b, c, s, lo, hi, (mpfr_ptr)0);
    mpfr_set_str(b, "1e-5", 10, MPFR_RNDN);
    mpfr_log(b, b, MPFR_RNDN);
    mpfr_neg(b, b, MPFR_RNDN); /* B */
    mpfr_add_ui(c, b, 1, MPFR_RNDN);
    mpfr_sqrt(c, c, MPFR_RNDN);
    mpfr_sqrt(s, b, MPFR_RNDN);
    mpfr_sub(c, c, s, MPFR_RNDN);
    mpfr_sqr(c, c, MPFR_RNDN); /* c */
    mpfr_mul_d(s, c, 0.5, MPFR_RNDN);
    mpfr_sqrt(s, s, MPFR_RNDN);
    mpfr_mul_ui(s, s, 1000, MPFR_RNDN);
    mpfr_ui_div(s, 2, s, MPFR_RNDN); /* σ* = 2SM/(n√(mc)) */
    mpfr_set_str(lo, field(o, "lo"), 10, MPFR_RNDN);
    mpfr_set_str(hi, field(o, "hi"), 10, MPFR_RNDN);
    /* lo and hi are printed to 17 digits: allow that rounding */
    mpfr_mul_d(lo, lo, 1 - 1e-16, MPFR_RNDD);
    mpfr_mul_d(hi, hi, 1 + 1e-16, MPFR_RNDU);
    cr_assert(mpfr_lessequal_p(lo, s) && mpfr_lessequal_p(s, hi),
              "langevin-sigma at K = 0 misses the closed form");
    mpfr_clears(b, c, s, lo, hi, (mpfr_ptr)0);
    json_object_put(o);
    run_free(&r);
}

Test(cli_theorems, langevin_k_is_zero_when_sigma_already_suffices_and_positive_below)
{
    /* The K = 0 closed form above gives σ* ≈ 0.0196 for these inputs:
     * σ = 0.03 needs no unlearning step, σ = 0.01 needs some. */
    run_result r = run("calc", "langevin-k", "--n", "1000", "--m", "0.5", "--L", "2", "--M", "1",
                       "--eps", "1", "--delta", "1e-5", "--sigma", "0.03", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_str_eq(field(o, "value"), "0");
    json_object_put(o);
    run_free(&r);
    r = run("calc", "langevin-k", "--n", "1000", "--m", "0.5", "--L", "2", "--M", "1", "--eps",
            "1", "--delta", "1e-5", "--sigma", "0.01", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    o = json_tokener_parse(r.out);
    cr_assert(strtol(field(o, "value"), NULL, 10) > 0);
    cr_assert(strtod(field(o, "alpha"), NULL) > 1);
    json_object_put(o);
    run_free(&r);
}

Test(cli_theorems, langevin_bad_inputs)
{
    expect_usage_error("--m", run("calc", "langevin-sigma", "--n", "1000", "--m", "3", "--L", "2",
                                  "--M", "1", "--eps", "1", "--delta", "1e-5", "--K", "1", NULL));
    expect_usage_error("--K", run("calc", "langevin-sigma", "--n", "1000", "--m", "0.5", "--L",
                                  "2", "--M", "1", "--eps", "1", "--delta", "1e-5", "--K", "-1",
                                  NULL));
    expect_usage_error("--rate", run("calc", "langevin-sigma", "--n", "1000", "--m", "0.5", "--L",
                                     "2", "--M", "1", "--eps", "1", "--delta", "1e-5", "--K", "1",
                                     "--rate", "new", NULL));
    expect_usage_error("--delta", run("calc", "langevin-k", "--n", "1000", "--m", "0.5", "--L",
                                      "2", "--M", "1", "--eps", "1", "--delta", "1", "--sigma",
                                      "0.1", NULL));
    expect_usage_error("--eta", run("calc", "langevin-k", "--n", "1000", "--m", "0.5", "--L", "2",
                                    "--M", "1", "--eps", "1", "--delta", "1e-5", "--sigma", "0.1",
                                    "--eta", "1", NULL));
}
