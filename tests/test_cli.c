/* tests/test_cli.c — end-to-end: run the built binary, check outputs, exit
 * codes and every class of bad input the command-line contract names. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <mpfr.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"

#include "cli_run.h"

/* ---- successes ---------------------------------------------------------------- */

Test(cli, theta_json_has_the_contract_fields_and_a_correct_enclosure)
{
    run_result r = run("calc", "theta", "--eps", "1", "--r", "0.5", "--json", NULL);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert_str_empty(r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o, "stdout is not JSON: %s", r.out);
    cr_assert_str_eq(field(o, "quantity"), "theta");
    json_object *inputs;
    cr_assert(json_object_object_get_ex(o, "inputs", &inputs));
    cr_assert_str_eq(field(inputs, "eps"), "1");
    cr_assert_str_eq(field(inputs, "r"), "0.5");
    cr_assert_str_eq(field(o, "digits"), "17");

    mpfr_t lo, hi, ref;
    mpfr_inits2(ORACLE_BITS, lo, hi, ref, (mpfr_ptr)0);
    cr_assert_eq(mpfr_set_str(lo, field(o, "lo"), 10, MPFR_RNDN), 0);
    cr_assert_eq(mpfr_set_str(hi, field(o, "hi"), 10, MPFR_RNDN), 0);
    cr_assert(mpfr_lessequal_p(lo, hi));
    mpfr_set_emin(mpfr_get_emin_min());
    oracle_log_theta_str(ref, "1", "0.5");
    mpfr_exp(ref, ref, MPFR_RNDN);
    cr_assert(mpfr_lessequal_p(lo, ref) && mpfr_lessequal_p(ref, hi),
              "printed enclosure misses the oracle");
    mpfr_clears(lo, hi, ref, (mpfr_ptr)0);
    json_object_put(o);
    run_free(&r);
}

Test(cli, text_report_and_digits)
{
    run_result r = run("calc", "theta", "--eps", "2", "--r", "1", "--digits", "40", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "lo ") && strstr(r.out, "hi "), "%s", r.out);
    /* 40 significant digits: d.ddd… has 39 digits after the point */
    const char *lo = strstr(r.out, "lo ");
    while (*lo && (*lo < '0' || *lo > '9'))
        lo++;
    const char *e = strchr(lo, 'e');
    cr_assert_not_null(e);
    cr_assert_eq(e - lo, 41, "expected 40 digits, got '%.*s'", (int)(e - lo), lo);
    run_free(&r);
}

Test(cli, inverses_report_a_safe_upper_end)
{
    run_result r = run("calc", "gauss-sigma", "--eps", "1", "--delta", "1e-5", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o);
    cr_assert_str_eq(field(o, "safe"), field(o, "hi"));
    json_object *inputs;
    json_object_object_get_ex(o, "inputs", &inputs);
    cr_assert_str_eq(field(inputs, "sensitivity"), "1", "default sensitivity echoed");
    json_object_put(o);
    run_free(&r);

    r = run("calc", "gauss-eps", "--r", "0.5", "--delta", "1e-300", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    o = json_tokener_parse(r.out);
    cr_assert_not_null(o);
    cr_assert(strtod(field(o, "lo"), NULL) > 0);
    json_object_put(o);
    run_free(&r);
}

Test(cli, help_lists_every_quantity_with_an_example)
{
    run_result r = run("calc", "--help", NULL);
    cr_assert_eq(r.status, 0);
    const char *names[] = {"theta", "gauss-sigma", "gauss-eps"};
    for (size_t i = 0; i < 3; i++)
        cr_assert(strstr(r.out, names[i]), "calc --help misses %s", names[i]);
    cr_assert(strstr(r.out, "example: ulaudit calc theta"));
    run_free(&r);
    r = run("--help", NULL);
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "calc"));
    run_free(&r);
    r = run("calc", "gauss-eps", "--help", NULL);
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "--delta"));
    run_free(&r);
}

Test(cli, precision_cap_exits_3_with_a_sound_result)
{
    /* r = 1e-300 at ε = 1 needs thousands of bits; 64 are not enough */
    run_result r = run("calc", "theta", "--eps", "1", "--r", "1e-300", "--max-bits", "64",
                       "--json", NULL);
    cr_assert_eq(r.status, 3, "stderr: %s", r.err);
    cr_assert(strstr(r.err, "cap"), "%s", r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o);
    cr_assert_str_eq(field(o, "cap_hit"), "true");
    json_object_put(o);
    run_free(&r);
}

/* ---- bad input: one line on stderr naming the flag, nothing on stdout, 2 ----- */

Test(cli, bad_inputs_are_usage_errors)
{
    expect_usage_error("--r", run("calc", "theta", "--eps", "1", NULL));
    expect_usage_error("--r", run("calc", "theta", "--eps", "1", "--r", "-1", NULL));
    expect_usage_error("--eps", run("calc", "theta", "--eps", "nan", "--r", "1", NULL));
    expect_usage_error("--eps", run("calc", "theta", "--eps", "inf", "--r", "1", NULL));
    expect_usage_error("--r", run("calc", "theta", "--eps", "1", "--r", "1.5x", NULL));
    expect_usage_error("--delta",
                       run("calc", "gauss-sigma", "--eps", "1", "--delta", "2", NULL));
    expect_usage_error("--delta",
                       run("calc", "gauss-eps", "--r", "1", "--delta", "0", NULL));
    expect_usage_error("--digits",
                       run("calc", "theta", "--eps", "1", "--r", "1", "--digits", "0", NULL));
    expect_usage_error("--digits",
                       run("calc", "theta", "--eps", "1", "--r", "1", "--digits", "17x", NULL));
    expect_usage_error("nosuch", run("calc", "nosuch", "--eps", "1", NULL));
    expect_usage_error("--sigma", run("calc", "theta", "--eps", "1", "--r", "1", "--sigma", "2",
                                      NULL));
    expect_usage_error("--eps", run("calc", "theta", "--eps", "1", "--eps", "2", "--r", "1", NULL));
    expect_usage_error("--r", run("calc", "theta", "--eps", "1", "--r", NULL));
    expect_usage_error("--eps", run("calc", "theta", "--eps", "1e99999999999999999999", "--r",
                                    "1", NULL));
    expect_usage_error("--sensitivity", run("calc", "gauss-sigma", "--eps", "1", "--delta", "0.1",
                                            "--sensitivity", "-2", NULL));
    expect_usage_error("--eps", run("calc", "gauss-sigma", "--eps", "-1", "--delta", "0.1", NULL));
    expect_usage_error("nosuch", run("nosuch", NULL));
}

/* ---- contraction quantities ---------------------------------------------------- */

Test(cli, contraction_quantities_run_and_agree_with_each_other)
{
    /* contraction-steps says T is least; contraction at T must be ≤ δ and at
     * T − 1 above it (here through the CLI, i.e. a different entry point). */
    run_result r = run("calc", "contraction-steps", "--eps", "1", "--r", "1.5", "--delta", "1e-6",
                       "--mode", "adaptive", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o);
    long t = strtol(field(o, "value"), NULL, 10);
    json_object_put(o);
    run_free(&r);
    cr_assert_gt(t, 1);
    char steps[32], fewer[32];
    snprintf(steps, sizeof steps, "%ld", t);
    snprintf(fewer, sizeof fewer, "%ld", t - 1);
    r = run("calc", "contraction", "--eps", "1", "--r", "1.5", "--steps", steps, "--mode",
            "adaptive", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    o = json_tokener_parse(r.out);
    cr_assert(strtod(field(o, "hi"), NULL) <= 1e-6);
    cr_assert_str_eq(field(o, "floor_reached"), "false");
    json_object_put(o);
    run_free(&r);
    r = run("calc", "contraction", "--eps", "1", "--r", "1.5", "--steps", fewer, "--mode",
            "adaptive", "--json", NULL);
    o = json_tokener_parse(r.out);
    cr_assert(strtod(field(o, "lo"), NULL) > 1e-6);
    json_object_put(o);
    run_free(&r);

    r = run("calc", "contraction-sigma", "--eps", "1", "--diameter", "2", "--steps", "8",
            "--delta", "1e-5", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    o = json_tokener_parse(r.out);
    cr_assert_str_eq(field(o, "safe"), field(o, "hi"));
    json_object_put(o);
    run_free(&r);
}

Test(cli, contraction_bad_inputs)
{
    expect_usage_error("--steps", run("calc", "contraction", "--eps", "1", "--r", "2", "--steps",
                                      "-3", NULL));
    expect_usage_error("--steps", run("calc", "contraction", "--eps", "1", "--r", "2", "--steps",
                                      "1e3", NULL));
    expect_usage_error("--mode", run("calc", "contraction", "--eps", "1", "--r", "2", "--steps",
                                     "3", "--mode", "fast", NULL));
    expect_usage_error("--r", run("calc", "contraction", "--eps", "1", "--r", "2,3", "--steps",
                                  "3", NULL));
    expect_usage_error("--r", run("calc", "contraction", "--eps", "1", "--r", "2,x,3", "--steps",
                                  "3", NULL));
    expect_usage_error("--delta0", run("calc", "contraction", "--eps", "1", "--r", "2", "--steps",
                                       "3", "--delta0", "2", NULL));
    expect_usage_error("--eps", run("calc", "contraction", "--eps", "-1", "--r", "2", "--steps",
                                    "3", NULL));
    expect_usage_error("--delta", run("calc", "contraction-steps", "--eps", "1", "--r", "2",
                                      "--delta", "0", NULL));
    expect_usage_error("--diameter", run("calc", "contraction-sigma", "--eps", "1", "--diameter",
                                         "0", "--steps", "3", "--delta", "0.1", NULL));
}

/* ---- Rényi quantities ------------------------------------------------------------ */

Test(cli, renyi_quantities_run)
{
    /* Mironov's conversion by hand: ε = ρ + log(1/δ)/(α − 1) at α = 11, ρ = 0.5,
     * δ = 1e-5: 0.5 + ln(1e5)/10 = 1.6512925464970229 */
    run_result r = run("calc", "rdp-to-dp", "--alpha", "11", "--rdp", "0.5", "--delta", "1e-5",
                       "--conversion", "mironov", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o);
    double lo = strtod(field(o, "lo"), NULL), hi = strtod(field(o, "hi"), NULL);
    cr_assert(lo <= 1.6512925464970230 && hi >= 1.6512925464970228, "[%g, %g]", lo, hi);
    json_object_put(o);
    run_free(&r);

    r = run("calc", "gauss-rdp-eps", "--r", "0.5", "--delta", "1e-5", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    o = json_tokener_parse(r.out);
    cr_assert_not_null(o);
    cr_assert(strtod(field(o, "alpha"), NULL) > 1);
    json_object_put(o);
    run_free(&r);

    r = run("calc", "sgm-rdp", "--q", "1", "--sigma", "2", "--alpha", "3", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    o = json_tokener_parse(r.out);
    /* q = 1 is the plain Gaussian: α/(2σ²) = 3/8 */
    lo = strtod(field(o, "lo"), NULL), hi = strtod(field(o, "hi"), NULL);
    cr_assert(lo <= 0.375 && hi >= 0.375, "[%g, %g]", lo, hi);
    json_object_put(o);
    run_free(&r);
}

/* rdp-to-dp printed [0, 0] from the KL shortcut with a meaning line that
 * named only Thm 21's formula.  decided_by names the bound; the expected
 * one is worked out here from the papers' statements in MPFR:
 *   kl           δ² ≥ 1 − e^{−ρ} (Bretagnolle–Huber: TV ≤ √(1 − e^{−KL}),
 *                KL ≤ D_α ≤ ρ), ε = 0;
 *   bbghs_clamp  not kl, and f = ρ + log(1 − 1/α) − (log δ + log α)/(α − 1)
 *                (Balle et al. 2020 Thm 21) ≤ 0, ε = 0;
 *   bbghs        not kl and f > 0, ε = f. */
static const char *expected_bbghs_decider(const char *alpha, const char *rdp, const char *delta,
                                          mpfr_ptr f)
{
    mpfr_t a, r, d, t, u;
    mpfr_inits2(256, a, r, d, t, u, (mpfr_ptr)0);
    mpfr_set_str(a, alpha, 10, MPFR_RNDN);
    mpfr_set_str(r, rdp, 10, MPFR_RNDN);
    mpfr_set_str(d, delta, 10, MPFR_RNDN);
    mpfr_sqr(t, d, MPFR_RNDN);
    mpfr_neg(u, r, MPFR_RNDN);
    mpfr_exp(u, u, MPFR_RNDN);
    mpfr_ui_sub(u, 1, u, MPFR_RNDN); /* 1 − e^{−ρ} */
    bool kl = mpfr_greaterequal_p(t, u);
    mpfr_ui_div(t, 1, a, MPFR_RNDN);
    mpfr_ui_sub(t, 1, t, MPFR_RNDN);
    mpfr_log(t, t, MPFR_RNDN); /* log(1 − 1/α) */
    mpfr_add(f, r, t, MPFR_RNDN);
    mpfr_log(t, d, MPFR_RNDN);
    mpfr_log(u, a, MPFR_RNDN);
    mpfr_add(t, t, u, MPFR_RNDN);
    mpfr_sub_ui(u, a, 1, MPFR_RNDN);
    mpfr_div(t, t, u, MPFR_RNDN);
    mpfr_sub(f, f, t, MPFR_RNDN);
    mpfr_clears(a, r, d, t, u, (mpfr_ptr)0);
    return kl ? "kl" : mpfr_sgn(f) <= 0 ? "bbghs_clamp" : "bbghs";
}

Test(cli, rdp_to_dp_says_which_bound_decided)
{
    static const char *const cases[][3] = {
        {"32", "0", "1e-5"},     /* ρ = 0: identical laws, always kl */
        {"32", "1e-12", "1e-5"}, /* δ² = 1e-10 ≥ 1 − e^{−1e-12} */
        {"2", "0.5", "0.5"},     /* 0.25 < 0.39, f = 0.5 − log 2 < 0 */
        {"32", "0.5", "1e-5"},   /* f ≈ 0.73 */
    };
    mpfr_t f, lo, hi;
    mpfr_inits2(256, f, lo, hi, (mpfr_ptr)0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *want = expected_bbghs_decider(cases[i][0], cases[i][1], cases[i][2], f);
        run_result r = run("calc", "rdp-to-dp", "--alpha", cases[i][0], "--rdp", cases[i][1],
                           "--delta", cases[i][2], "--json", NULL);
        cr_assert_eq(r.status, 0, "%s", r.err);
        json_object *o = json_tokener_parse(r.out);
        cr_assert_not_null(o);
        cr_assert_str_eq(field(o, "decided_by"), want, "alpha %s rdp %s delta %s", cases[i][0],
                         cases[i][1], cases[i][2]);
        mpfr_set_str(lo, field(o, "lo"), 10, MPFR_RNDN);
        mpfr_set_str(hi, field(o, "hi"), 10, MPFR_RNDN);
        if (strcmp(want, "bbghs") == 0)
            cr_assert(mpfr_lessequal_p(lo, f) && mpfr_lessequal_p(f, hi), "[%s, %s]",
                      field(o, "lo"), field(o, "hi"));
        else
            cr_assert(mpfr_zero_p(lo) && mpfr_zero_p(hi), "%s: [%s, %s], want [0, 0]", want,
                      field(o, "lo"), field(o, "hi"));
        json_object_put(o);
        run_free(&r);
    }
    mpfr_clears(f, lo, hi, (mpfr_ptr)0);

    run_result r = run("calc", "rdp-to-dp", "--alpha", "32", "--rdp", "0", "--delta", "1e-5",
                       NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "decided by kl") != NULL && strstr(r.out, "KL shortcut") != NULL,
              "the text says which bound: %s", r.out);
    run_free(&r);
    r = run("calc", "rdp-to-dp", "--alpha", "11", "--rdp", "0", "--delta", "1e-5", "--conversion",
            "mironov", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_str_eq(field(o, "decided_by"), "mironov", "Mironov's Prop. 3 has no shortcut");
    json_object_put(o);
    run_free(&r);
}

Test(cli, renyi_bad_inputs)
{
    expect_usage_error("--alpha", run("calc", "rdp-to-dp", "--alpha", "1", "--rdp", "0.5",
                                      "--delta", "1e-5", NULL));
    expect_usage_error("--rdp", run("calc", "rdp-to-dp", "--alpha", "2", "--rdp", "-0.5",
                                    "--delta", "1e-5", NULL));
    expect_usage_error("--conversion", run("calc", "rdp-to-dp", "--alpha", "2", "--rdp", "0.5",
                                           "--delta", "1e-5", "--conversion", "foo", NULL));
    expect_usage_error("--delta", run("calc", "gauss-rdp-eps", "--r", "1", "--delta", "1.5", NULL));
    expect_usage_error("--q", run("calc", "sgm-rdp", "--q", "1.2", "--sigma", "1", "--alpha", "2",
                                  NULL));
    expect_usage_error("--sigma", run("calc", "sgm-rdp", "--q", "0.1", "--sigma", "0", "--alpha",
                                      "2", NULL));
}

/* ---- PLD composition ------------------------------------------------------------- */

Test(cli, pld_compose_bracket_contains_the_exact_gaussian_value)
{
    /* 4-fold Gaussian composition at r = 0.5 is the Gaussian at r = 1:
     * δ(1) = θ_e(1), from the independent oracle. */
    run_result r = run("calc", "pld-compose", "--r", "0.5", "--steps", "4", "--eps", "1",
                       "--rel-width", "1e-2", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o);
    mpfr_t lo, hi, ref;
    mpfr_inits2(ORACLE_BITS, lo, hi, ref, (mpfr_ptr)0);
    mpfr_set_str(lo, field(o, "lo"), 10, MPFR_RNDN);
    mpfr_set_str(hi, field(o, "hi"), 10, MPFR_RNDN);
    mpfr_set_emin(mpfr_get_emin_min());
    oracle_log_theta_str(ref, "1", "1");
    mpfr_exp(ref, ref, MPFR_RNDN);
    cr_assert(mpfr_lessequal_p(lo, ref) && mpfr_lessequal_p(ref, hi), "bracket misses θ_e(1)");
    cr_assert_str_eq(field(o, "safe"), field(o, "hi"));
    mpfr_clears(lo, hi, ref, (mpfr_ptr)0);
    json_object_put(o);
    run_free(&r);
}

Test(cli, pld_compose_bad_inputs)
{
    expect_usage_error("--steps", run("calc", "pld-compose", "--r", "1", "--steps", "0", "--eps",
                                      "1", NULL));
    expect_usage_error("--r", run("calc", "pld-compose", "--r", "-1", "--steps", "3", "--eps", "1",
                                  NULL));
    expect_usage_error("--q", run("calc", "pld-compose", "--r", "1", "--steps", "3", "--eps", "1",
                                  "--q", "2", NULL));
    expect_usage_error("--adjacency", run("calc", "pld-compose", "--r", "1", "--steps", "3",
                                          "--eps", "1", "--adjacency", "swap", NULL));
    expect_usage_error("--rel-width", run("calc", "pld-compose", "--r", "1", "--steps", "3",
                                          "--eps", "1", "--rel-width", "0", NULL));
    expect_usage_error("--fft", run("calc", "pld-compose", "--r", "1", "--steps", "3", "--eps",
                                    "1", "--fft", "quad", NULL));
}

/* ---- vectors ------------------------------------------------------------------------ */

Test(cli, vectors_writes_one_family_identical_to_the_committed_file)
{
    char dir[] = "/tmp/ulaudit-cli-vectors-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    run_result r = run("vectors", "--only", "rdp-to-eps", "--out", dir, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    /* the committed file was generated by the same command at the same digits */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cmp -s '%s/rdp_to_eps.csv' vectors/rdp_to_eps.csv", dir);
    cr_assert_eq(system(cmd), 0, "regenerated rdp_to_eps.csv differs from vectors/");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(cli, vectors_bad_inputs)
{
    expect_usage_error("--digits", run("vectors", "--out", "/tmp", "--digits", "0", NULL));
    expect_usage_error("--only", run("vectors", "--out", "/tmp", "--only", "nosuch", NULL));
    expect_usage_error("--out", run("vectors", NULL));
}

/* Issue 12: every wrong --digits of `vectors` states vectors' own range
 * (UL_VEC_MIN_DIGITS..UL_VEC_MAX_DIGITS = 1..1000, src/vectors/vectors.h),
 * not the calculator's 1..5000 for some values and 1..1000 for others. */
Test(cli, vectors_digits_errors_state_one_range)
{
    static const char *const WRONG[] = {"0", "2000", "6000", "abc", "-3"};
    for (size_t i = 0; i < sizeof WRONG / sizeof WRONG[0]; i++) {
        run_result r = run("vectors", "--out", "/tmp/ulaudit-never-written", "--digits", WRONG[i],
                           NULL);
        cr_assert(strstr(r.err, "from 1 to 1000") != NULL, "--digits %s: %s", WRONG[i], r.err);
        expect_usage_error("--digits", r);
    }
}

/* ---- a mistyped flag or command names the one meant --------------------------- */

/* Each suggestion is the flag or command this tool documents for the word:
 * a one-letter slip (Damerau distance 1: --esp, --digit, audti, --jsn) or
 * a peer's name for the same quantity (Opacus's noise_multiplier is the
 * noise std over the clipping norm, --sigma here; dp_accounting's epsilon
 * is --eps).  A word close to nothing gets no suggestion. */
Test(cli, a_mistyped_flag_or_command_names_the_one_meant)
{
    expect_usage_error("did you mean '--eps'?", run("calc", "theta", "--esp", "1", "--r", "1", NULL));
    expect_usage_error("did you mean '--eps'?",
                       run("calc", "theta", "--epsilon", "1", "--r", "1", NULL));
    expect_usage_error("did you mean '--digits'?",
                       run("calc", "theta", "--digit", "5", "--eps", "1", "--r", "1", NULL));
    expect_usage_error("did you mean '--sigma'?",
                       run("calc", "pld-compose", "--noise-multiplier", "1", "--q", "0.01",
                           "--steps", "10", "--delta", "1e-5", NULL));
    expect_usage_error("did you mean 'audit'?", run("audti", "x.json", NULL));
    expect_usage_error("did you mean 'audit'?", run("help", "audti", NULL));
    expect_usage_error("did you mean '--json'?", run("audit", "--jsn", "x.json", NULL));
    expect_usage_error("did you mean '--scores'?", run("attack", "--score", "a,b", NULL));
    run_result r = run("calc", "theta", "--zzz", "1", NULL);
    cr_assert_eq(r.status, 2);
    cr_assert_null(strstr(r.err, "did you mean"), "%s", r.err);
    run_free(&r);
}
