/* tests/test_audit.c — the gaussian-mechanism, output-perturbation and
 * rdp-curve handlers (called directly), their calibration, the faulty
 * recipes of audit/forensics.h and the report renderers.
 *
 * Oracles: mpmath at 50–60 digits (values written with their source), the
 * numbers printed in docs/accounting.md and docs/neural-unlearning.md (computed by the
 * pages' authors, not by this code), published test values of
 * tensorflow/privacy, and exact properties (T compositions of σ = 2√T·… are
 * one mechanism; a calibrated σ audits as supported and a σ just below the
 * certified unsafe end as refuted).  Heterogeneous compositions (σ or Δ
 * lists) against a quadrature of the two-dimensional product measure with
 * libm's erfcl; near-boundary claims (1e-12 relative) against the bounds
 * evaluated in plain MPFR here and the independent θ of tests/oracle.c; the
 * noisy-gd handler's printed variants (never deciding a verdict). */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "audit/audit_util.h"
#include "audit/forensics.h"
#include "audit/report.h"
#include "num/encl.h"
#include "num/input.h"

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(audit, .fini = teardown);

static const ul_num_precision WANT = {17, 0, 0};

static ul_cert *cert_of(const char *text)
{
    ul_cert *c = NULL;
    char err[512];
    ul_status st = ul_cert_load_buffer(text, strlen(text), &c, err, sizeof err);
    cr_assert_eq(st, UL_OK, "fixture does not load: %s\n%s", err, text);
    return c;
}

/* Audits text with handler m; returns the status and fills rep and err. */
static ul_status audit_text(const ul_audit_method *m, const char *text, ul_audit_report *rep,
                            const ul_num_precision *want, char *err, size_t errlen)
{
    ul_cert *c = cert_of(text);
    ul_status st = m->audit(c, want, rep, err, errlen);
    ul_cert_free(c);
    return st;
}

static ul_verdict verdict_of(const ul_audit_method *m, const char *text)
{
    ul_audit_report rep;
    char err[512];
    ul_status st = audit_text(m, text, &rep, &WANT, err, sizeof err);
    cr_assert_eq(st, UL_OK, "audit failed: %s", err);
    return rep.verdict;
}

/* lo ≤ ref ≤ hi for the decimal strings of a report number. */
static void expect_contains(const ul_audit_number *n, const char *ref)
{
    mpfr_t lo, hi, r;
    mpfr_inits2(256, lo, hi, r, (mpfr_ptr)0);
    cr_assert_eq(mpfr_set_str(lo, n->lo, 10, MPFR_RNDD), 0, "lo '%s'", n->lo);
    cr_assert_eq(mpfr_set_str(hi, n->hi, 10, MPFR_RNDU), 0, "hi '%s'", n->hi);
    mpfr_set_str(r, ref, 10, MPFR_RNDN);
    cr_assert(mpfr_lessequal_p(lo, r) && mpfr_lessequal_p(r, hi), "%s: [%s, %s] misses %s", n->key,
              n->lo, n->hi, ref);
    mpfr_clears(lo, hi, r, (mpfr_ptr)0);
}

/* |mid − ref| ≤ rel·|ref|, for references printed to fewer digits. */
static void expect_near(const ul_audit_number *n, const char *ref, double rel)
{
    double lo = strtod(n->lo, NULL), hi = strtod(n->hi, NULL), r = strtod(ref, NULL);
    cr_assert(fabs((lo + hi) / 2 - r) <= rel * fabs(r), "%s: [%s, %s] is not within %g of %s",
              n->key, n->lo, n->hi, rel, ref);
}

static const ul_audit_number *reach(const ul_audit_report *rep, const char *key)
{
    for (int i = 0; i < rep->n_would_reach; i++)
        if (strcmp(rep->would_reach[i].key, key) == 0)
            return &rep->would_reach[i];
    cr_assert_fail("no would_reach '%s'", key);
    return NULL;
}

#define GAUSS(params, claim)                                                                       \
    "{\"format\": \"ulaudit-certificate/1\", \"method\": \"gaussian-mechanism\", "                 \
    "\"parameters\": {" params "}, \"claim\": {" claim "}}"
/* One release, stated: an omitted "compositions" with one σ and Δ is read as
 * an unknown number of releases, so a claim not refuted at T = 1 is
 * unsupported (ulaudit-certificate(5), OMITTED FIELDS); tests about T = 1
 * state it, as the old default read it. */
#define GAUSS1(params, claim) GAUSS("\"compositions\": 1, " params, claim)
#define OP(params, claim, stated)                                                                  \
    "{\"format\": \"ulaudit-certificate/1\", \"method\": \"output-perturbation\", "                \
    "\"parameters\": {" params "}, \"claim\": {" claim "}, \"stated\": {" stated "}}"
#define RDP(params, claim)                                                                         \
    "{\"format\": \"ulaudit-certificate/1\", \"method\": \"rdp-curve\", "                          \
    "\"parameters\": {" params "}, \"claim\": {" claim "}}"

/* ==== gaussian-mechanism ===================================================== */

Test(audit, gaussian_one_minus_erf_claim_is_refuted_and_named)
{
    /* docs/accounting.md "Numerical soundness of theta_epsilon":
     * eps_tilde = ln(1 + (e-1)/1e-6), r = 2: true
     * 7.6651074e-11, stair-lab's double 1 - erf gives 3.7584e-11 */
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(audit_text(&ul_audit_gaussian_mechanism,
                            GAUSS("\"sensitivity\": 2, \"sigma\": 1",
                                  "\"eps\": \"14.356835994553729734\", \"delta\": \"3.7584e-11\""),
                            &rep, &WANT, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(rep.verdict, UL_VERDICT_REFUTED);
    expect_contains(&rep.recomputed, "7.6651073592755457423e-11"); /* mpmath, 60 digits */
    cr_assert(strstr(rep.forensics, "1 - erf") != NULL, "forensics: %s", rep.forensics);
    cr_assert(strstr(rep.forensics, "float32") == NULL, "float32 does not reproduce it");
    cr_assert(strstr(rep.forensics, "understating delta by 51%") != NULL, "%s", rep.forensics);
}

Test(audit, gaussian_zero_delta_from_float32)
{
    /* docs/neural-unlearning.md, Errata K2: theta_{e^15}(2) exact 9.1712418e-12, float32 0 */
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(audit_text(&ul_audit_gaussian_mechanism,
                            GAUSS("\"sensitivity\": 2, \"sigma\": 1", "\"eps\": 15, \"delta\": 0"),
                            &rep, &WANT, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(rep.verdict, UL_VERDICT_REFUTED);
    expect_near(&rep.recomputed, "9.1712418e-12", 1e-7);
    cr_assert(strstr(rep.forensics, "float32") != NULL, "forensics: %s", rep.forensics);
    cr_assert(strstr(rep.forensics, "double precision") == NULL, "%s", rep.forensics);
    /* delta = 0: no sigma reaches it, only the delta reached is reported */
    cr_assert_eq(rep.n_would_reach, 1);
    cr_assert_str_eq(rep.would_reach[0].key, "delta");
}

Test(audit, gaussian_exact_eps_decides_both_sides)
{
    /* σ = 4.530877117 (tensorflow/privacy rdp_accountant_test.py): exact eps
     * at δ = 1e-6 is 0.92739233799744306369 (mpmath findroot, 50 digits) */
    cr_assert_eq(verdict_of(&ul_audit_gaussian_mechanism,
                            GAUSS1("\"sensitivity\": 1, \"sigma\": 4.530877117",
                                   "\"eps\": 0.92739234, \"delta\": 1e-6")),
                 UL_VERDICT_SUPPORTED);
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(audit_text(&ul_audit_gaussian_mechanism,
                            GAUSS1("\"sensitivity\": 1, \"sigma\": 4.530877117",
                                   "\"eps\": 0.92739233, \"delta\": 1e-6"),
                            &rep, &WANT, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(rep.verdict, UL_VERDICT_REFUTED);
    expect_contains(reach(&rep, "eps_needed"), "0.92739233799744306369");
    cr_assert_str_empty(rep.forensics);
}

Test(audit, gaussian_compositions_are_one_mechanism)
{
    /* T = 4 at σ = 3 is r = 2/3: theta_{e^0.5}(2/3) = 0.108744376888585454851333766015
     * (mpmath); the same as T = 1 at σ = 1.5 */
    ul_audit_report a, b;
    char err[512];
    cr_assert_eq(audit_text(&ul_audit_gaussian_mechanism,
                            GAUSS("\"sensitivity\": 1, \"sigma\": 3, \"compositions\": 4",
                                  "\"eps\": 0.5, \"delta\": 0.1"),
                            &a, &WANT, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(
        audit_text(&ul_audit_gaussian_mechanism,
                   GAUSS1("\"sensitivity\": 1, \"sigma\": 1.5", "\"eps\": 0.5, \"delta\": 0.1"), &b,
                   &WANT, err, sizeof err),
        UL_OK, "%s", err);
    cr_assert_eq(a.verdict, UL_VERDICT_REFUTED);
    cr_assert_eq(b.verdict, UL_VERDICT_REFUTED);
    expect_contains(&a.recomputed, "0.108744376888585454851333766015");
    cr_assert_str_eq(a.recomputed.lo, b.recomputed.lo);
    cr_assert_str_eq(a.recomputed.hi, b.recomputed.hi);
    /* σ_needed scales with √T: 2·σ*(1) for T = 4 */
    mpfr_t x, y;
    mpfr_inits2(128, x, y, (mpfr_ptr)0);
    mpfr_set_str(x, reach(&a, "sigma_needed")->hi, 10, MPFR_RNDN);
    mpfr_set_str(y, reach(&b, "sigma_needed")->hi, 10, MPFR_RNDN);
    mpfr_mul_2ui(y, y, 1, MPFR_RNDN);
    mpfr_sub(x, x, y, MPFR_RNDN);
    mpfr_div(x, x, y, MPFR_RNDN);
    cr_assert(fabs(mpfr_get_d(x, MPFR_RNDN)) < 1e-15);
    mpfr_clears(x, y, (mpfr_ptr)0);
}

Test(audit, gaussian_classic_sigma_outside_its_domain_is_named)
{
    /* σ = √(2 ln(1.25e5))/9 = 0.5383116958450432690 (mpmath): the classic
     * calibration for (9, 1e-5), which fails beyond eps ≈ 8.5 (docs/neural-unlearning.md,
     * "Simplified Gaussian bound") */
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(audit_text(&ul_audit_gaussian_mechanism,
                            GAUSS("\"sensitivity\": 1, \"sigma\": 0.538311695845",
                                  "\"eps\": 9, \"delta\": 1e-5"),
                            &rep, &WANT, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(rep.verdict, UL_VERDICT_REFUTED);
    /* theta_{e^9}(1/0.538311695845) ≈ 1.3588e-5 (mpmath: 1.3588135576791746e-5 at the
     * unrounded σ) */
    cr_assert(strstr(rep.forensics, "classic calibration") != NULL, "%s", rep.forensics);
}

Test(audit, gaussian_renyi_claim_is_exact)
{
    /* tensorflow/privacy: compute_rdp(q=1, σ=10, 1 step, α=20) == 0.1 */
    cr_assert_eq(verdict_of(&ul_audit_gaussian_mechanism,
                            GAUSS1("\"sensitivity\": 1, \"sigma\": 10",
                                   "\"renyi_order\": 20, \"renyi_value\": 0.1")),
                 UL_VERDICT_SUPPORTED);
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(audit_text(&ul_audit_gaussian_mechanism,
                            GAUSS1("\"sensitivity\": 1, \"sigma\": 10",
                                   "\"renyi_order\": 20, \"renyi_value\": "
                                   "\"0.0999999999999999999999999999999\""),
                            &rep, &WANT, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(rep.verdict, UL_VERDICT_REFUTED);
    /* σ_needed = √(20/(2·claimed)) = 10·(1 + 5e-32) */
    expect_contains(reach(&rep, "sigma_needed"), "10.0000000000000000000000000000005");
}

Test(audit, gaussian_inconclusive_at_a_low_cap_decided_at_the_default)
{
    /* theta_e(1) = 0.12693673750664394580082962475776688041508 (mpmath, 50
     * digits); the claim is it rounded up at 30 digits */
    const char *text = GAUSS1("\"sensitivity\": 1, \"sigma\": 1",
                              "\"eps\": 1, \"delta\": \"0.126936737506643945800829624758\"");
    cr_assert_eq(verdict_of(&ul_audit_gaussian_mechanism, text), UL_VERDICT_SUPPORTED);
    ul_num_precision capped = {17, 0, 64};
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(audit_text(&ul_audit_gaussian_mechanism, text, &rep, &capped, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(rep.verdict, UL_VERDICT_INCONCLUSIVE);
    cr_assert_eq(ul_verdict_exit_code(rep.verdict), 3);
    /* and the same claim rounded down is refuted */
    cr_assert_eq(verdict_of(&ul_audit_gaussian_mechanism,
                            GAUSS1("\"sensitivity\": 1, \"sigma\": 1",
                                   "\"eps\": 1, \"delta\": \"0.126936737506643945800829624757\"")),
                 UL_VERDICT_REFUTED);
}

Test(audit, gaussian_schema_errors_name_the_path)
{
    struct {
        const char *text, *must;
    } cases[] = {
        {GAUSS("\"sensitivity\": 1", "\"eps\": 1, \"delta\": 1e-5"), "$.parameters.sigma"},
        {GAUSS("\"sensitivity\": 1, \"sgima\": 1", "\"eps\": 1, \"delta\": 1e-5"),
         "$.parameters.sgima"},
        {GAUSS("\"sensitivity\": 1, \"sigma\": 1", "\"eps\": 1"), "$.claim.delta"},
        {GAUSS("\"sensitivity\": 1, \"sigma\": 1", "\"renyi_order\": 2"), "$.claim.renyi_value"},
        {GAUSS("\"sensitivity\": 1, \"sigma\": 1",
               "\"eps\": 1, \"delta\": 1e-5, \"renyi_order\": 2, \"renyi_value\": 1"),
         "$.claim"},
        {GAUSS("\"sensitivity\": 1, \"sigma\": 1", ""), "$.claim"},
        {GAUSS("\"sensitivity\": 1, \"sigma\": 1", "\"eps\": -1, \"delta\": 1e-5"), "$.claim.eps"},
        {GAUSS("\"sensitivity\": 1, \"sigma\": 1", "\"renyi_order\": 1, \"renyi_value\": 1"),
         "$.claim.renyi_order"},
        {GAUSS("\"sensitivity\": 1, \"sigma\": 1e-10", "\"eps\": 1, \"delta\": 1e-5"),
         "$.parameters.sigma"},
        {GAUSS("\"sensitivity\": 1, \"sigma\": 1, \"compositions\": 0",
               "\"eps\": 1, \"delta\": 1e-5"),
         "$.parameters.compositions"},
        {"{\"format\": \"ulaudit-certificate/1\", \"method\": \"gaussian-mechanism\", "
         "\"parameters\": {\"sensitivity\": 1, \"sigma\": 1}, \"claim\": {\"eps\": 1, \"delta\": "
         "1e-5}, \"stated\": {\"sigma\": 1}}",
         "$.stated.sigma"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ul_audit_report rep;
        char err[512] = "";
        ul_status st =
            audit_text(&ul_audit_gaussian_mechanism, cases[i].text, &rep, &WANT, err, sizeof err);
        cr_assert_eq(st, UL_EINPUT, "case %zu accepted: %s", i, cases[i].text);
        cr_assert(strstr(err, cases[i].must) != NULL, "case %zu: '%s' does not name %s", i, err,
                  cases[i].must);
    }
}

/* ==== output-perturbation =================================================== */

Test(audit, op_classic_bound_at_eps_10_is_refuted)
{
    /* mpmath: theta_{e^10}(2/0.9689610525) = 2.265374366042056402249e-5,
     * smallest σ = 0.99977723941801702928 */
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(
        audit_text(&ul_audit_output_perturbation,
                   OP("\"c0\": 1, \"sigma\": \"0.9689610525\"", "\"eps\": 10, \"delta\": 1e-5",
                      "\"sigma_classic\": \"0.9689610525\""),
                   &rep, &WANT, err, sizeof err),
        UL_OK, "%s", err);
    cr_assert_eq(rep.verdict, UL_VERDICT_REFUTED);
    expect_contains(&rep.recomputed, "2.265374366042056402249e-5");
    expect_contains(reach(&rep, "sigma_needed"), "0.99977723941801702928");
    cr_assert_str_eq(rep.variant, "corrected");
    cr_assert_str_eq(rep.other_variant.key, "delta_classic");
    cr_assert(strstr(rep.forensics, "classic calibration") != NULL, "%s", rep.forensics);
    cr_assert(strstr(rep.explanation, "over-claims") != NULL, "%s", rep.explanation);
    cr_assert_str_empty(rep.first_wrong_stated);
    cr_assert_eq(rep.pre.count, 3);
}

Test(audit, op_released_config_is_supported)
{
    /* docs/neural-unlearning.md, Errata K9: valid at eps = 1 (theta = 4.11e-8 << 1e-5) */
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(
        audit_text(&ul_audit_output_perturbation,
                   OP("\"c0\": 0.01, \"sigma\": \"0.09689610525\"", "\"eps\": 1, \"delta\": 1e-5",
                      "\"sigma_classic\": \"0.09689610525\""),
                   &rep, &WANT, err, sizeof err),
        UL_OK, "%s", err);
    cr_assert_eq(rep.verdict, UL_VERDICT_SUPPORTED);
    expect_near(&rep.recomputed, "4.1136919e-8", 1e-7); /* θ_e(2·0.01/0.09689610525), mpmath */
    cr_assert_eq(rep.n_would_reach, 0);
    cr_assert(strstr(rep.explanation, "over-claims") == NULL);
}

Test(audit, op_wrong_stated_classic_sigma)
{
    /* classic σ for C0 = 1, (1, 1e-5) is 9.689610525210778842 (mpmath) */
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(audit_text(&ul_audit_output_perturbation,
                            OP("\"c0\": 1, \"sigma\": 10", "\"eps\": 1, \"delta\": 1e-5",
                               "\"sigma_classic\": 9.8"),
                            &rep, &WANT, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(rep.verdict, UL_VERDICT_SUPPORTED);
    cr_assert(strstr(rep.first_wrong_stated, "$.stated.sigma_classic") != NULL, "%s",
              rep.first_wrong_stated);
    /* the engine's stated-number rule (audit_util.h): forms of the right
     * value rounded to nearest at their digits pass; a truncated one (9.689,
     * 9.6: more than half a unit of the last digit below 9.68961...) does not */
    const char *ok[] = {"9.69", "9.7", "9.6896105252", "9.68961052521077884"};
    for (size_t i = 0; i < 4; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 OP("\"c0\": 1, \"sigma\": 10", "\"eps\": 1, \"delta\": 1e-5",
                    "\"sigma_classic\": \"%s\""),
                 ok[i]);
        cr_assert_eq(audit_text(&ul_audit_output_perturbation, text, &rep, &WANT, err, sizeof err),
                     UL_OK, "%s", err);
        cr_assert_str_empty(rep.first_wrong_stated, "%s flagged: %s", ok[i],
                            rep.first_wrong_stated);
    }
    cr_assert_eq(audit_text(&ul_audit_output_perturbation,
                            OP("\"c0\": 1, \"sigma\": 10", "\"eps\": 1, \"delta\": 1e-5",
                               "\"sigma_classic\": 9.6895"),
                            &rep, &WANT, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_str_neq(rep.first_wrong_stated, "", "9.6895 is more than a unit off");
    const char *truncated[] = {"9.689", "9.6"};
    for (size_t i = 0; i < 2; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 OP("\"c0\": 1, \"sigma\": 10", "\"eps\": 1, \"delta\": 1e-5",
                    "\"sigma_classic\": \"%s\""),
                 truncated[i]);
        cr_assert_eq(audit_text(&ul_audit_output_perturbation, text, &rep, &WANT, err, sizeof err),
                     UL_OK, "%s", err);
        cr_assert_str_neq(rep.first_wrong_stated, "", "%s (truncated) passed", truncated[i]);
    }
}

/* ==== rdp-curve ============================================================== */

#define ORDERS_2_32                                                                                \
    "[2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32]"
#define RHO_1_1                                                                                    \
    "[1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,"    \
    "1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1]"

Test(audit, rdp_tf_privacy_test_value)
{
    /* tensorflow/privacy rdp_accountant_test.py: eps 1.32783806176 at order 32 */
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(audit_text(&ul_audit_rdp_curve,
                            RDP("\"alphas\": " ORDERS_2_32 ", \"rdps\": " RHO_1_1,
                                "\"eps\": 1.32783806176, \"delta\": 1e-5"),
                            &rep, &WANT, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(rep.verdict, UL_VERDICT_SUPPORTED);
    expect_contains(&rep.recomputed, "1.327838061755435888294739");    /* mpmath */
    expect_contains(&rep.other_variant, "1.471384692418394465164192"); /* 1.1 + ln(1e5)/31 */
    cr_assert_str_eq(rep.other_variant.key, "eps_mironov");
}

Test(audit, rdp_cited_mironov_with_the_bbghs_value)
{
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(audit_text(&ul_audit_rdp_curve,
                            RDP("\"alphas\": " ORDERS_2_32 ", \"rdps\": " RHO_1_1
                                ", \"conversion\": \"mironov\"",
                                "\"eps\": 1.32783806176, \"delta\": 1e-5"),
                            &rep, &WANT, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(rep.verdict, UL_VERDICT_UNSUPPORTED, "a bound is never refuted");
    cr_assert(strstr(rep.forensics, "bbghs conversion") != NULL, "%s", rep.forensics);
    cr_assert(strstr(rep.explanation, "weaker conversion") != NULL, "%s", rep.explanation);
    cr_assert_str_eq(reach(&rep, "alpha_best")->lo, "32");
    /* δ at the claimed eps by Mironov at α = 32: exp(31·(1.1 − 1.32783806176)) */
    expect_near(reach(&rep, "delta"), "8.5622281777155e-4", 1e-13);
}

Test(audit, rdp_renyi_value_read_as_eps)
{
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(audit_text(&ul_audit_rdp_curve,
                            RDP("\"alphas\": [1.25, 2, 10], \"rdps\": [0.17710637990830963, "
                                "0.28402138324210935, 1.4562314921461514]",
                                "\"eps\": 0.284021383242, \"delta\": 1e-5"),
                            &rep, &WANT, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(rep.verdict, UL_VERDICT_UNSUPPORTED);
    cr_assert(strstr(rep.forensics, "$.parameters.rdps[1]") != NULL, "%s", rep.forensics);
    /* BBGHS at α = 10: 2.3742421289301231806 (mpmath) */
    expect_contains(&rep.recomputed, "2.3742421289301231806");
}

Test(audit, rdp_schema_errors)
{
    struct {
        const char *text, *must;
    } cases[] = {
        {RDP("\"alphas\": [2, 3], \"rdps\": [1]", "\"eps\": 1, \"delta\": 1e-5"),
         "$.parameters.rdps"},
        {RDP("\"alphas\": [1, 3], \"rdps\": [1, 2]", "\"eps\": 1, \"delta\": 1e-5"),
         "$.parameters.alphas[0]"},
        {RDP("\"alphas\": [2], \"rdps\": [-1]", "\"eps\": 1, \"delta\": 1e-5"),
         "$.parameters.rdps[0]"},
        {RDP("\"alphas\": [2], \"rdps\": [1], \"conversion\": \"kl\"",
             "\"eps\": 1, \"delta\": 1e-5"),
         "$.parameters.conversion"},
        {RDP("\"alphas\": [2], \"rdps\": [1]", "\"eps\": 1, \"delta\": 1"), "$.claim.delta"},
        {RDP("\"alphas\": [2], \"rdps\": [1]", "\"eps\": 1"), "$.claim.delta"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ul_audit_report rep;
        char err[512] = "";
        ul_status st = audit_text(&ul_audit_rdp_curve, cases[i].text, &rep, &WANT, err, sizeof err);
        cr_assert_eq(st, UL_EINPUT, "case %zu accepted", i);
        cr_assert(strstr(err, cases[i].must) != NULL, "case %zu: '%s' does not name %s", i, err,
                  cases[i].must);
    }
}

/* ==== calibration ============================================================= */

static char *calibrate_text(const ul_audit_method *m, const char *text, int digits)
{
    ul_cert *c = cert_of(text);
    ul_num_precision want = {digits, 0, 0};
    char *out = NULL;
    char err[512];
    ul_status st = m->calibrate(c, &want, &out, err, sizeof err);
    ul_cert_free(c);
    cr_assert_eq(st, UL_OK, "calibrate: %s", err);
    return out;
}

/* The σ written into a completed certificate. */
static void sigma_of(const char *completed, char *out, size_t n)
{
    json_object *o = json_tokener_parse(completed);
    cr_assert_not_null(o, "not JSON: %s", completed);
    json_object *p, *s;
    cr_assert(json_object_object_get_ex(o, "parameters", &p));
    cr_assert(json_object_object_get_ex(p, "sigma", &s));
    snprintf(out, n, "%s", json_object_get_string(s));
    cr_assert(!json_object_object_get_ex(o, "expected", &s), "expected must be dropped");
    json_object_put(o);
}

Test(audit, calibrate_fills_the_smallest_safe_sigma)
{
    const char *text =
        GAUSS("\"sensitivity\": 1, \"compositions\": 100", "\"eps\": 1, \"delta\": 1e-5");
    char *done = calibrate_text(&ul_audit_gaussian_mechanism, text, 6);
    cr_assert_eq(verdict_of(&ul_audit_gaussian_mechanism, done), UL_VERDICT_SUPPORTED);
    char sigma[64];
    sigma_of(done, sigma, sizeof sigma);
    /* 10·σ*(1, 1e-5) = 37.3063163481594183 (mpmath) rounded up at 6 digits */
    cr_assert_str_eq(sigma, "3.73064e+1");
    /* one unit lower in the 6th digit is refuted */
    cr_assert_eq(verdict_of(&ul_audit_gaussian_mechanism,
                            GAUSS("\"sensitivity\": 1, \"compositions\": 100, \"sigma\": 37.3063",
                                  "\"eps\": 1, \"delta\": 1e-5")),
                 UL_VERDICT_REFUTED);
    free(done);
}

Test(audit, calibrate_replaces_an_insufficient_sigma_and_keeps_a_sufficient_one)
{
    char *done =
        calibrate_text(&ul_audit_output_perturbation,
                       OP("\"c0\": 1, \"sigma\": \"0.9689610525\"", "\"eps\": 10, \"delta\": 1e-5",
                          "\"sigma_classic\": \"0.9689610525\""),
                       17);
    char sigma[64];
    sigma_of(done, sigma, sizeof sigma);
    cr_assert_str_eq(sigma, "9.9977723941801703e-1"); /* mpmath 0.999777239418017029283, up */
    cr_assert(strstr(done, "\"sigma_classic\": \"0.9689610525\"") != NULL, "stated kept");
    free(done);
    done = calibrate_text(
        &ul_audit_gaussian_mechanism,
        GAUSS1("\"sensitivity\": 1, \"sigma\": 10", "\"renyi_order\": 20, \"renyi_value\": 0.1"),
        17);
    sigma_of(done, sigma, sizeof sigma);
    cr_assert_str_eq(sigma, "10");
    free(done);
    done = calibrate_text(&ul_audit_gaussian_mechanism,
                          GAUSS1("\"sensitivity\": 1", "\"renyi_order\": 20, \"renyi_value\": 0.1"),
                          17);
    sigma_of(done, sigma, sizeof sigma);
    cr_assert_str_eq(sigma, "1.0000000000000000e+1"); /* √(20/0.2) = 10 exactly */
    free(done);
}

Test(audit, calibrate_refuses_what_no_sigma_reaches)
{
    ul_cert *c = cert_of(GAUSS1("\"sensitivity\": 1", "\"eps\": 1, \"delta\": 0"));
    char *out = NULL;
    char err[512];
    cr_assert_neq(ul_audit_gaussian_mechanism.calibrate(c, &WANT, &out, err, sizeof err), UL_OK);
    cr_assert_null(out);
    cr_assert(strstr(err, "$.claim.delta") != NULL, "%s", err);
    ul_cert_free(c);
    cr_assert_null(ul_audit_rdp_curve.calibrate);
}

/* ==== forensics ================================================================ */

Test(audit, forensic_theta_recipes_match_the_spec_tables)
{
    /* docs/neural-unlearning.md, Errata K2, columns exact / code-double / float32-emulated */
    cr_assert(ul_forensic_matches("7.835643e-8", ul_forensic_theta_one_minus_erf(12, 2)));
    cr_assert(ul_forensic_matches("4.016e-11", ul_forensic_theta_one_minus_erf(15, 2)));
    cr_assert_eq(ul_forensic_theta_one_minus_erf(30, 2), 0.0);
    cr_assert(ul_forensic_matches("1.7546333e-8", ul_forensic_theta_one_minus_erf(1, 0.2)));
    cr_assert(ul_forensic_matches("-9.23e-9", ul_forensic_theta_float32(1, 0.2)));
    cr_assert(ul_forensic_matches("2.98e-7", ul_forensic_theta_float32(12, 2)));
    cr_assert_eq(ul_forensic_theta_float32(15, 2), 0.0);
    /* docs/accounting.md "Numerical soundness of theta_epsilon" */
    cr_assert(ul_forensic_matches("3.7584e-11",
                                  ul_forensic_theta_one_minus_erf(14.356835994553729734, 2)));
    /* docs/neural-unlearning.md, "Simplified Gaussian bound": 1.25·exp(−ε²/(2r²)) at ε = 5, r = 3
     * = 0.311690260972 */
    cr_assert(ul_forensic_matches("0.311690260972", ul_forensic_classic_delta(5, 3)));
    /* docs/neural-unlearning.md, Errata K9: σ/(2 C0) = 4.8448 at (1, 1e-5) */
    cr_assert(ul_forensic_matches("4.8448", ul_forensic_classic_sigma(1, 1, 1e-5)));
}

Test(audit, forensic_rdp_and_group_recipes)
{
    /* tensorflow/privacy test: 1.32783806176 (BBGHS, α = 32); Mironov 1.4713846924 */
    cr_assert(
        ul_forensic_matches("1.32783806176", ul_forensic_rdp_eps(32, 1.1, 1e-5, UL_RDP_BBGHS)));
    cr_assert(
        ul_forensic_matches("1.4713846924", ul_forensic_rdp_eps(32, 1.1, 1e-5, UL_RDP_MIRONOV)));
    double a[] = {2, 10, 32}, v[] = {1.1, 1.1, 1.1};
    size_t best;
    ul_forensic_rdp_points_eps(a, v, 3, 1e-5, UL_RDP_BBGHS, &best);
    cr_assert_eq(best, 2);
    const char *rdps[] = {"0.5", "0.28402138324210935"};
    cr_assert_eq(ul_forensic_renyi_as_eps("0.284021383242", rdps, 2), 1);
    cr_assert_eq(ul_forensic_renyi_as_eps("0.3", rdps, 2), -1);
    cr_assert_eq(ul_forensic_renyi_as_eps("0.50", rdps, 2), 0);
    /* docs/neural-unlearning.md, Errata K4: δ_train = 2.4087171e-27 with ε_train = 50/225,
     * k = 225 gives the code's "unlearn" δ = 1.0000e-5 */
    cr_assert(ul_forensic_matches(
        "1.0000e-5", ul_forensic_group_delta_largest_term(50.0 / 225, 2.4087171e-27, 225)));
}

Test(audit, forensic_matcher_semantics)
{
    cr_assert_eq(ul_forensic_sig_digits("3.7584e-11"), 5);
    cr_assert_eq(ul_forensic_sig_digits("0.00120"), 3);
    cr_assert_eq(ul_forensic_sig_digits("1e-5"), 1);
    cr_assert_eq(ul_forensic_sig_digits("1500"), 4);
    cr_assert_eq(ul_forensic_sig_digits("-0.5"), 1);
    cr_assert_eq(ul_forensic_sig_digits("0"), 0);
    cr_assert_eq(ul_forensic_sig_digits("nan"), 0);
    cr_assert(ul_forensic_matches("3.7584e-11", 3.758396453073307e-11));
    cr_assert(!ul_forensic_matches("3.7585e-11", 3.758396453073307e-11));
    cr_assert(ul_forensic_matches("0.00120", 0.0011996));
    cr_assert(!ul_forensic_matches("0.00120", 0.0012051));
    cr_assert(ul_forensic_matches("0", 0.0));
    cr_assert(ul_forensic_matches("0.000", -0.0));
    cr_assert(!ul_forensic_matches("0", 1e-300));
    cr_assert(!ul_forensic_matches("1e-5", NAN));
    cr_assert(!ul_forensic_matches("1e-5", INFINITY));
    cr_assert(ul_forensic_matches("1e-5", 1.04e-5));
    cr_assert(!ul_forensic_matches_digits("1e-5", 1.04e-5, 2), "one digit proves nothing");
    cr_assert(ul_forensic_matches_digits("0", 0.0, 2), "an exact zero always qualifies");
}

/* ==== reports ================================================================== */

Test(audit, report_json_has_the_stable_fields)
{
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(
        audit_text(&ul_audit_output_perturbation,
                   OP("\"c0\": 1, \"sigma\": \"0.9689610525\"", "\"eps\": 10, \"delta\": 1e-5", ""),
                   &rep, &WANT, err, sizeof err),
        UL_OK, "%s", err);
    char *text = ul_audit_report_json(&rep, "output-perturbation", NULL, 17);
    json_object *o = json_tokener_parse(text);
    cr_assert_not_null(o, "%s", text);
    const char *strings[] = {"verdict", "method", "claim",     "theorem",
                             "variant", "margin", "forensics", "explanation"};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        json_object *v;
        cr_assert(json_object_object_get_ex(o, strings[i], &v), "missing %s", strings[i]);
        cr_assert(json_object_is_type(v, json_type_string), "%s not a string", strings[i]);
    }
    json_object *v, *x;
    cr_assert_str_eq(json_object_get_string(json_object_object_get(o, "verdict")), "refuted");
    cr_assert_eq(json_object_get_int(json_object_object_get(o, "exit_code")), 1);
    cr_assert(json_object_object_get_ex(o, "source", &v) && v == NULL, "absent source is null");
    cr_assert(json_object_object_get_ex(o, "first_wrong_stated", &v) && v == NULL);
    v = json_object_object_get(o, "recomputed");
    const char *keys[] = {"key", "label", "lo", "hi"};
    for (size_t i = 0; i < 4; i++)
        cr_assert(json_object_object_get_ex(v, keys[i], &x), "recomputed.%s", keys[i]);
    cr_assert_str_eq(json_object_get_string(json_object_object_get(v, "key")), "delta");
    v = json_object_object_get(o, "preconditions");
    cr_assert(json_object_is_type(v, json_type_array));
    cr_assert_eq(json_object_array_length(v), 3);
    x = json_object_array_get_idx(v, 0);
    cr_assert_str_eq(json_object_get_string(json_object_object_get(x, "state")), "holds");
    cr_assert_not_null(json_object_object_get(x, "name"));
    cr_assert_not_null(json_object_object_get(x, "rule"));
    v = json_object_object_get(o, "would_reach");
    cr_assert_eq(json_object_array_length(v), 3);
    cr_assert_not_null(json_object_object_get(o, "other_variant"));
    cr_assert_eq(json_object_get_int(json_object_object_get(o, "digits")), 17);
    json_object_put(o);
    free(text);

    text = ul_audit_report_text(&rep, "output-perturbation", "a source");
    cr_assert(strstr(text, "REFUTED (exit 1)") != NULL, "%s", text);
    cr_assert(strstr(text, "sigma_needed in [") != NULL, "%s", text);
    cr_assert(strstr(text, "source              a source") != NULL, "%s", text);
    free(text);
}

/* The record of issue 27, through ul_audit (which fills it): the claim's
 * numbers as the fixture writes them, the tool, a time; no hash (only
 * ul_audit_report_hash sets one: tests/test_report_json.c checks it). */
Test(audit, report_json_has_the_record_fields)
{
    ul_audit_report *rep = malloc(sizeof *rep);
    char err[512];
    ul_cert *c = cert_of(OP("\"c0\": 1, \"sigma\": \"0.9689610525\"",
                            "\"eps\": 10, \"delta\": \"1.0e-5\"", ""));
    cr_assert_eq(ul_audit(c, &WANT, rep, err, sizeof err), UL_OK, "%s", err);
    ul_cert_free(c);
    char *text = ul_audit_report_json(rep, "output-perturbation", NULL, 17);
    json_object *o = json_tokener_parse(text), *v, *x;
    cr_assert_not_null(o, "%s", text);
    cr_assert(json_object_object_get_ex(o, "certificate_sha256", &v) && v == NULL);
    v = json_object_object_get(o, "tool");
    cr_assert(json_object_is_type(v, json_type_object));
    cr_assert_str_eq(json_object_get_string(json_object_object_get(v, "name")), "ulaudit");
    cr_assert(json_object_is_type(json_object_object_get(v, "version"), json_type_string));
    cr_assert(json_object_is_type(json_object_object_get(o, "generated_at"), json_type_string));
    v = json_object_object_get(o, "claim_values");
    cr_assert(json_object_is_type(v, json_type_object), "%s", text);
    cr_assert_eq(json_object_object_length(v), 2);
    /* the fixture's decimal text, not a rounding of it */
    cr_assert(json_object_object_get_ex(v, "eps", &x) && json_object_is_type(x, json_type_string));
    cr_assert_str_eq(json_object_get_string(x), "10");
    cr_assert_str_eq(json_object_get_string(json_object_object_get(v, "delta")), "1.0e-5");
    json_object_put(o);
    free(text);
    free(rep);
}

Test(audit, report_json_of_an_empty_report)
{
    ul_audit_report rep;
    ul_audit_report_init(&rep);
    char *text = ul_audit_report_json(&rep, NULL, NULL, 5);
    json_object *o = json_tokener_parse(text);
    cr_assert_not_null(o);
    json_object *v;
    cr_assert(json_object_object_get_ex(o, "recomputed", &v) && v == NULL);
    cr_assert(json_object_object_get_ex(o, "other_variant", &v) && v == NULL);
    cr_assert(json_object_object_get_ex(o, "claim_values", &v) && v == NULL, "claim not read");
    cr_assert(json_object_object_get_ex(o, "certificate_sha256", &v) && v == NULL);
    cr_assert_str_eq(json_object_get_string(json_object_object_get(o, "verdict")), "inconclusive");
    json_object_put(o);
    free(text);
    text = ul_audit_report_text(&rep, NULL, NULL);
    cr_assert(strstr(text, "INCONCLUSIVE (exit 3)") != NULL);
    free(text);
}

/* ==== heterogeneous Gaussian compositions (issue 11) =========================== */

#include "oracle.h"

/* Φ from libm's erfcl (not the library's MPFR code). */
static long double phi_cdf(long double x)
{
    return erfcl(-x / sqrtl(2.0L)) / 2;
}

/* E_{e^ε}(P‖Q) for P = N(0, I_2), Q = N((r1, r2), I_2) by quadrature of the
 * product measure, without the rotation argument: the set where
 * log(p/q) = −r1·x − r2·y + (r1² + r2²)/2 ≥ ε is y ≤ (t − r1·x)/r2,
 * t = (r1² + r2²)/2 − ε, so
 *   P(A) = ∫ φ(x) Φ((t − r1 x)/r2) dx,  Q(A) = ∫ φ(x − r1) Φ((t − r1 x)/r2 − r2) dx,
 * each integrated by the trapezoidal rule (spectrally accurate for these
 * smooth, Gaussian-decaying integrands) on [−40, 40 + r1], step 2^-10. */
static long double hockey_stick_2d(long double eps, long double r1, long double r2)
{
    const long double h = 1.0L / 1024, pi = acosl(-1.0L);
    long double t = (r1 * r1 + r2 * r2) / 2 - eps, p = 0, q = 0;
    for (long double x = -40; x <= 40 + r1; x += h) {
        long double u = (t - r1 * x) / r2;
        p += expl(-x * x / 2) * phi_cdf(u);
        q += expl(-(x - r1) * (x - r1) / 2) * phi_cdf(u - r2);
    }
    return h / sqrtl(2 * pi) * (p - expl(eps) * q);
}

/* A decimal claim text: x·(1 + rel), 40 significant digits. */
static void claim_text(char *out, size_t n, mpfr_srcptr x, double rel)
{
    mpfr_t y;
    mpfr_init2(y, mpfr_get_prec(x));
    mpfr_mul_d(y, x, rel, MPFR_RNDN); /* x + x·rel: 1 + 1e-30 is 1 in double */
    mpfr_add(y, y, x, MPFR_RNDN);
    mpfr_snprintf(out, n, "%.40Re", y);
    mpfr_clear(y);
}

static ul_verdict verdict_at(const ul_audit_method *m, const char *text,
                             const ul_num_precision *want)
{
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(audit_text(m, text, &rep, want, err, sizeof err), UL_OK, "%s", err);
    return rep.verdict;
}

Test(audit, gaussian_sigma_list_against_2d_quadrature)
{
    static const struct {
        const char *params;
        long double r1, r2, eps;
    } cases[] = {
        /* r_i = Δ/σ_i */
        {"\"sensitivity\": 1, \"sigma\": [0.8, 1.7]", 1.25L, 1.0L / 1.7L, 0.5L},
        /* r_i = Δ_i/σ */
        {"\"sensitivity\": [1, 2], \"sigma\": 2", 0.5L, 1.0L, 0.25L},
        /* r_i = Δ_i/σ_i */
        {"\"sensitivity\": [0.5, 3], \"sigma\": [0.25, 4]", 2.0L, 0.75L, 1.5L},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        long double quad = hockey_stick_2d(cases[i].eps, cases[i].r1, cases[i].r2);
        char text[512], claim[128];
        snprintf(claim, sizeof claim, "\"eps\": %.3Lf, \"delta\": 0.5", cases[i].eps);
        snprintf(text, sizeof text, GAUSS("%s", "%s"), cases[i].params, claim);
        ul_audit_report rep;
        char err[512];
        cr_assert_eq(audit_text(&ul_audit_gaussian_mechanism, text, &rep, &WANT, err, sizeof err),
                     UL_OK, "%s", err);
        double lo = strtod(rep.recomputed.lo, NULL), hi = strtod(rep.recomputed.hi, NULL);
        cr_assert(fabsl((lo + hi) / 2 - quad) <= 1e-12L * quad, "case %zu: [%s, %s] vs %.20Lg",
                  i, rep.recomputed.lo, rep.recomputed.hi, quad);
        /* claims 1e-6 on either side of the quadrature: refuted below, supported above */
        snprintf(claim, sizeof claim, "\"eps\": %.3Lf, \"delta\": %.20Le", cases[i].eps,
                 quad * (1 - 1e-6L));
        snprintf(text, sizeof text, GAUSS("%s", "%s"), cases[i].params, claim);
        cr_assert_eq(verdict_of(&ul_audit_gaussian_mechanism, text), UL_VERDICT_REFUTED, "%zu", i);
        snprintf(claim, sizeof claim, "\"eps\": %.3Lf, \"delta\": %.20Le", cases[i].eps,
                 quad * (1 + 1e-6L));
        snprintf(text, sizeof text, GAUSS("%s", "%s"), cases[i].params, claim);
        cr_assert_eq(verdict_of(&ul_audit_gaussian_mechanism, text), UL_VERDICT_SUPPORTED, "%zu",
                     i);
    }
}

Test(audit, gaussian_lists_of_equal_values_are_compositions)
{
    /* k equal σ's are `compositions` k (the same r² = k·Δ²/σ², exactly); Δ =
     * [3, 4] at σ = 1 is Δ = 5 (9 + 16 = 25) */
    static const char *const pairs[][2] = {
        {GAUSS("\"sensitivity\": 1, \"sigma\": [1.3, 1.3, 1.3, 1.3]", "\"eps\": 1, \"delta\": 0.1"),
         GAUSS("\"sensitivity\": 1, \"sigma\": 1.3, \"compositions\": 4",
               "\"eps\": 1, \"delta\": 0.1")},
        {GAUSS("\"sensitivity\": [3, 4], \"sigma\": 2", "\"eps\": 2, \"delta\": 0.3"),
         GAUSS("\"sensitivity\": 5, \"sigma\": 2", "\"eps\": 2, \"delta\": 0.3")},
        {GAUSS("\"sensitivity\": [1], \"sigma\": [0.5]", "\"eps\": 2, \"delta\": 0.3"),
         GAUSS("\"sensitivity\": 1, \"sigma\": 0.5", "\"eps\": 2, \"delta\": 0.3")},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        ul_audit_report a, b;
        char err[512];
        cr_assert_eq(audit_text(&ul_audit_gaussian_mechanism, pairs[i][0], &a, &WANT, err,
                                sizeof err),
                     UL_OK, "%s", err);
        cr_assert_eq(audit_text(&ul_audit_gaussian_mechanism, pairs[i][1], &b, &WANT, err,
                                sizeof err),
                     UL_OK, "%s", err);
        cr_assert_eq(a.verdict, b.verdict, "%zu", i);
        cr_assert_str_eq(a.recomputed.lo, b.recomputed.lo, "%zu", i);
        cr_assert_str_eq(a.recomputed.hi, b.recomputed.hi, "%zu", i);
    }
    /* the common factor on a σ list: c·[1.3, 1.3, 1.3, 1.3] reaches the claim
     * exactly when 1.3·c reaches it with compositions 4 */
    ul_audit_report a, b;
    char err[512];
    audit_text(&ul_audit_gaussian_mechanism, pairs[0][0], &a, &WANT, err, sizeof err);
    audit_text(&ul_audit_gaussian_mechanism, pairs[0][1], &b, &WANT, err, sizeof err);
    double c = strtod(reach(&a, "sigma_scale_needed")->hi, NULL);
    double s = strtod(reach(&b, "sigma_needed")->hi, NULL);
    cr_assert(fabs(1.3 * c / s - 1) < 1e-15, "%.17g vs %.17g", 1.3 * c, s);
}

Test(audit, gaussian_renyi_list_is_exact)
{
    /* r² = (1/0.5)² + (1/0.25)² = 4 + 16 = 20; at α = 2, D = α r²/2 = 20 */
    const char *tie = GAUSS("\"sensitivity\": 1, \"sigma\": [0.5, 0.25]",
                            "\"renyi_order\": 2, \"renyi_value\": 20");
    cr_assert_eq(verdict_of(&ul_audit_gaussian_mechanism, tie), UL_VERDICT_SUPPORTED);
    ul_num_precision capped = {17, 0, 64}; /* exact: the cap does not matter */
    cr_assert_eq(verdict_at(&ul_audit_gaussian_mechanism, tie, &capped), UL_VERDICT_SUPPORTED);
    cr_assert_eq(verdict_of(&ul_audit_gaussian_mechanism,
                            GAUSS("\"sensitivity\": 1, \"sigma\": [0.5, 0.25]",
                                  "\"renyi_order\": 2, \"renyi_value\": "
                                  "\"19.9999999999999999999999999999999999999\"")),
                 UL_VERDICT_REFUTED);
    /* (0.1, 0.3): 100 + 100/9 = 1000/9 at α = 2 is 1000/9 = 111.111…, above any
     * finite decimal truncation of it */
    cr_assert_eq(verdict_of(&ul_audit_gaussian_mechanism,
                            GAUSS("\"sensitivity\": 1, \"sigma\": [0.1, 0.3]",
                                  "\"renyi_order\": 2, \"renyi_value\": "
                                  "\"111.11111111111111111111111111111\"")),
                 UL_VERDICT_REFUTED);
    cr_assert_eq(verdict_of(&ul_audit_gaussian_mechanism,
                            GAUSS("\"sensitivity\": 1, \"sigma\": [0.1, 0.3]",
                                  "\"renyi_order\": 2, \"renyi_value\": "
                                  "\"111.11111111111111111111111111112\"")),
                 UL_VERDICT_SUPPORTED);
}

Test(audit, gaussian_list_schema_errors)
{
    static const struct {
        const char *text, *must;
    } cases[] = {
        {GAUSS("\"sensitivity\": [1, 2], \"sigma\": [1, 2, 3]", "\"eps\": 1, \"delta\": 0.1"),
         "$.parameters.sigma"},
        {GAUSS("\"sensitivity\": 1, \"sigma\": [1, 2], \"compositions\": 3",
               "\"eps\": 1, \"delta\": 0.1"),
         "$.parameters.compositions"},
        {GAUSS("\"sensitivity\": 1, \"sigma\": [1, 0]", "\"eps\": 1, \"delta\": 0.1"),
         "$.parameters.sigma[1]"},
        {GAUSS("\"sensitivity\": 1, \"sigma\": []", "\"eps\": 1, \"delta\": 0.1"),
         "$.parameters.sigma"},
        {GAUSS("\"sensitivity\": [1, \"x\"], \"sigma\": 1", "\"eps\": 1, \"delta\": 0.1"),
         "$.parameters.sensitivity[1]"},
        {GAUSS("\"sensitivity\": 1, \"sigma\": [1e-10, 1]", "\"eps\": 1, \"delta\": 0.1"),
         "$.parameters.sigma"}, /* r = √(1e20 + 1) > 1e9 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ul_audit_report rep;
        char err[512] = "";
        ul_status st =
            audit_text(&ul_audit_gaussian_mechanism, cases[i].text, &rep, &WANT, err, sizeof err);
        cr_assert_eq(st, UL_EINPUT, "case %zu accepted", i);
        cr_assert(strstr(err, cases[i].must) != NULL, "case %zu: '%s' does not name %s", i, err,
                  cases[i].must);
    }
    /* calibrate fills one σ, never a list */
    ul_cert *c = cert_of(GAUSS("\"sensitivity\": 1, \"sigma\": [1, 2]", "\"eps\": 1, \"delta\": 0.1"));
    char *out = NULL;
    char err[512];
    cr_assert_eq(ul_audit_gaussian_mechanism.calibrate(c, &WANT, &out, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "$.parameters.sigma") != NULL, "%s", err);
    ul_cert_free(c);
}

Test(audit, calibrate_with_a_sensitivity_list)
{
    /* Δ = [3, 4] is √25 = 5: the σ filled in must make θ_{e^1}(5/σ) ≤ 1e-5
     * (independent θ of tests/oracle.c) and 1e-6 less must not */
    char *done = calibrate_text(&ul_audit_gaussian_mechanism,
                                GAUSS("\"sensitivity\": [3, 4]", "\"eps\": 1, \"delta\": 1e-5"), 12);
    char sigma[64];
    sigma_of(done, sigma, sizeof sigma);
    free(done);
    mpfr_t s, r, e, lt, ld;
    mpfr_inits2(ORACLE_BITS, s, r, e, lt, ld, (mpfr_ptr)0);
    mpfr_set_str(s, sigma, 10, MPFR_RNDN);
    mpfr_set_ui(e, 1, MPFR_RNDN);
    mpfr_set_str(ld, "1e-5", 10, MPFR_RNDN);
    mpfr_log(ld, ld, MPFR_RNDN);
    mpfr_ui_div(r, 5, s, MPFR_RNDN);
    oracle_log_theta(lt, e, r);
    cr_assert(mpfr_lessequal_p(lt, ld), "sigma %s does not reach the claim", sigma);
    mpfr_mul_d(s, s, 1 - 1e-6, MPFR_RNDN);
    mpfr_ui_div(r, 5, s, MPFR_RNDN);
    oracle_log_theta(lt, e, r);
    cr_assert(mpfr_greater_p(lt, ld), "sigma %s is not the smallest to 1e-6", sigma);
    mpfr_clears(s, r, e, lt, ld, (mpfr_ptr)0);
}

/* ==== near the boundary: 1e-12 relative, decided at the default settings ========= */

/* The claims bound·(1 − 1e-12) and bound·(1 + 1e-12) for the (ε, δ) or Rényi
 * template `fmt` (one %s for the claimed number): the first must give
 * `below`, the second supported, at the default precision; 1e-30 relative
 * is inconclusive at --max-bits 64 and decided at the default cap. */
static void near_boundary(const ul_audit_method *m, const char *fmt, mpfr_srcptr bound,
                          ul_verdict below)
{
    static const double rel[] = {-1e-12, 1e-12, -1e-30, 1e-30};
    ul_num_precision capped = {17, 0, 64};
    for (int i = 0; i < 4; i++) {
        char num[96], text[1024];
        claim_text(num, sizeof num, bound, rel[i]);
        snprintf(text, sizeof text, fmt, num);
        ul_verdict want = rel[i] < 0 ? below : UL_VERDICT_SUPPORTED;
        cr_assert_eq(verdict_of(m, text), want, "%s: %s", text, ul_verdict_name(verdict_of(m, text)));
        if (i >= 2)
            cr_assert_eq(verdict_at(m, text, &capped), UL_VERDICT_INCONCLUSIVE, "%s", text);
    }
}

Test(audit, near_boundary_gaussian_and_output_perturbation)
{
    mpfr_t e, r, b;
    mpfr_inits2(ORACLE_BITS, e, r, b, (mpfr_ptr)0);
    /* θ_{e^1}(2/1.3) */
    mpfr_set_ui(e, 1, MPFR_RNDN);
    mpfr_set_str(r, "1.3", 10, MPFR_RNDN);
    mpfr_ui_div(r, 2, r, MPFR_RNDN);
    oracle_log_theta(b, e, r);
    mpfr_exp(b, b, MPFR_RNDN);
    near_boundary(&ul_audit_gaussian_mechanism,
                  GAUSS1("\"sensitivity\": 2, \"sigma\": 1.3", "\"eps\": 1, \"delta\": \"%s\""), b,
                  UL_VERDICT_REFUTED);
    /* output perturbation: θ_{e^0.7}(2·0.5/0.8) */
    mpfr_set_str(e, "0.7", 10, MPFR_RNDN);
    mpfr_set_str(r, "1.25", 10, MPFR_RNDN);
    oracle_log_theta(b, e, r);
    mpfr_exp(b, b, MPFR_RNDN);
    near_boundary(&ul_audit_output_perturbation,
                  OP("\"c0\": 0.5, \"sigma\": 0.8", "\"eps\": 0.7, \"delta\": \"%s\"", ""), b,
                  UL_VERDICT_REFUTED);
    /* a σ list: θ_{e^0.5}(√(Σ (1/σ_i)²)) */
    static const char *const sig[] = {"0.9", "1.1", "1.3", "2.7"};
    mpfr_t t;
    mpfr_init2(t, ORACLE_BITS);
    mpfr_set_zero(r, 1);
    for (int i = 0; i < 4; i++) {
        mpfr_set_str(t, sig[i], 10, MPFR_RNDN);
        mpfr_ui_div(t, 1, t, MPFR_RNDN);
        mpfr_sqr(t, t, MPFR_RNDN);
        mpfr_add(r, r, t, MPFR_RNDN);
    }
    mpfr_sqrt(r, r, MPFR_RNDN);
    mpfr_set_str(e, "0.5", 10, MPFR_RNDN);
    oracle_log_theta(b, e, r);
    mpfr_exp(b, b, MPFR_RNDN);
    near_boundary(&ul_audit_gaussian_mechanism,
                  GAUSS("\"sensitivity\": 1, \"sigma\": [0.9, 1.1, 1.3, 2.7]",
                        "\"eps\": 0.5, \"delta\": \"%s\""),
                  b, UL_VERDICT_REFUTED);
    mpfr_clears(e, r, b, t, (mpfr_ptr)0);
}

Test(audit, near_boundary_rdp_curve)
{
    /* the best of three points; Mironov: ρ + log(1/δ)/(α − 1); BBGHS: ρ +
     * log1p(−1/α) − (log δ + log α)/(α − 1) (Balle et al. 2020 Thm 21),
     * evaluated here in plain MPFR */
    static const char *const a[] = {"8", "32", "64"}, *const v[] = {"0.0125", "0.05", "0.1"};
    mpfr_t best[2], x, al, ld, t;
    mpfr_inits2(ORACLE_BITS, best[0], best[1], x, al, ld, t, (mpfr_ptr)0);
    mpfr_set_inf(best[0], 1);
    mpfr_set_inf(best[1], 1);
    mpfr_set_str(ld, "1e-6", 10, MPFR_RNDN);
    mpfr_log(ld, ld, MPFR_RNDN);
    for (int i = 0; i < 3; i++) {
        mpfr_set_str(al, a[i], 10, MPFR_RNDN);
        mpfr_set_str(x, v[i], 10, MPFR_RNDN);
        mpfr_sub_ui(t, al, 1, MPFR_RNDN);
        mpfr_div(t, ld, t, MPFR_RNDN);
        mpfr_sub(t, x, t, MPFR_RNDN); /* Mironov */
        mpfr_min(best[0], best[0], t, MPFR_RNDN);
        mpfr_log(t, al, MPFR_RNDN);
        mpfr_add(t, t, ld, MPFR_RNDN);
        mpfr_sub_ui(x, al, 1, MPFR_RNDN);
        mpfr_div(t, t, x, MPFR_RNDN);
        mpfr_ui_div(x, 1, al, MPFR_RNDN);
        mpfr_neg(x, x, MPFR_RNDN);
        mpfr_log1p(x, x, MPFR_RNDN);
        mpfr_sub(x, x, t, MPFR_RNDN);
        mpfr_set_str(t, v[i], 10, MPFR_RNDN);
        mpfr_add(x, x, t, MPFR_RNDN); /* BBGHS */
        mpfr_min(best[1], best[1], x, MPFR_RNDN);
    }
    near_boundary(&ul_audit_rdp_curve,
                  RDP("\"alphas\": [8, 32, 64], \"rdps\": [0.0125, 0.05, 0.1], \"conversion\": "
                      "\"mironov\"",
                      "\"eps\": \"%s\", \"delta\": 1e-6"),
                  best[0], UL_VERDICT_UNSUPPORTED);
    near_boundary(&ul_audit_rdp_curve,
                  RDP("\"alphas\": [8, 32, 64], \"rdps\": [0.0125, 0.05, 0.1]",
                      "\"eps\": \"%s\", \"delta\": 1e-6"),
                  best[1], UL_VERDICT_UNSUPPORTED);
    mpfr_clears(best[0], best[1], x, al, ld, t, (mpfr_ptr)0);
}

#define NGD(params, claim)                                                                         \
    "{\"format\": \"ulaudit-certificate/1\", \"method\": \"noisy-gd\", "                           \
    "\"parameters\": {" params "}, \"claim\": {" claim "}}"

Test(audit, near_boundary_noisy_gd)
{
    /* the bounds of docs/noisy-gd.md "Theorems audited", "Derived formulas",
     * evaluated here in plain MPFR:
     *   G.9:  4qL²/(λσ²n²)·(1 − e^{−ληK/2});  G.15 tight: 2qL²/(λσ²n²(1 − ηλ/2))·
     *   e^{−ηλ(1 − ηλ/2)K};  Thm 5.1 at its prescriptions, c = λ/(4(λ+β)):
     *   (eps_dp/2)/(1 − c)·e^{−2c(1−c)K};  G.7 read as (ε, δ) at the best
     *   order: a + 2√(a log(1/δ)), a = L²ηK/(σ²n²) */
    static const char *const renyi[] = {
        NGD("\"theorem\": \"g9\", \"L\": 1, \"lambda\": 0.1, \"beta\": 1, \"sigma\": 0.01, "
            "\"eta\": 0.5, \"n\": 1000, \"K\": 100",
            "\"renyi_order\": 2, \"renyi_value\": \"%s\""),
        NGD("\"theorem\": \"g15\", \"L\": 1, \"lambda\": 0.1, \"beta\": 1, \"sigma\": 0.01, "
            "\"eta\": 0.4, \"n\": 1000, \"KAbar\": 50",
            "\"renyi_order\": 2, \"renyi_value\": \"%s\""),
        NGD("\"theorem\": \"thm51\", \"L\": 1, \"lambda\": 0.1, \"beta\": 1, \"n\": 1000, "
            "\"eps_dp\": 1, \"KAbar\": 200",
            "\"renyi_order\": 2, \"renyi_value\": \"%s\""),
    };
    mpfr_t bound[3], b, t, u;
    mpfr_inits2(ORACLE_BITS, bound[0], bound[1], bound[2], b, t, u, (mpfr_ptr)0);
    /* G.9: q = 2, L = 1, λ = 0.1, σ = 0.01, η = 0.5, n = 1000, K = 100:
     * 8/(0.1·1e-4·1e6)·(1 − e^{−2.5}) = 0.8·(1 − e^{−2.5}) */
    mpfr_set_si(t, -5, MPFR_RNDN);
    mpfr_div_2ui(t, t, 1, MPFR_RNDN);
    mpfr_expm1(t, t, MPFR_RNDN);
    mpfr_mul_si(t, t, -8, MPFR_RNDN);
    mpfr_div_ui(bound[0], t, 10, MPFR_RNDN);
    /* G.15 tight, η = 0.4, K_Abar = 50: ηλ = 0.04, 2·2/(0.1·1e-4·1e6·0.98)·e^{−0.04·0.98·50} */
    mpfr_set_str(t, "-1.96", 10, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_set_str(u, "9.8", 10, MPFR_RNDN);
    mpfr_ui_div(u, 4, u, MPFR_RNDN);
    mpfr_mul(bound[1], t, u, MPFR_RNDN);
    /* Thm 5.1, λ = 0.1, β = 1: c = 1/44; eps_dp = 1, K_Abar = 200:
     * (1/2)/(43/44)·e^{−2c(1−c)·200} = (22/43)·e^{−400·43/44²} */
    mpfr_set_ui(t, 43, MPFR_RNDN);
    mpfr_div_ui(t, t, 44 * 44, MPFR_RNDN);
    mpfr_mul_si(t, t, -400, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_mul_ui(t, t, 22, MPFR_RNDN);
    mpfr_div_ui(bound[2], t, 43, MPFR_RNDN);
    for (int i = 0; i < 3; i++)
        near_boundary(&ul_audit_noisy_gd, renyi[i], bound[i], UL_VERDICT_UNSUPPORTED);
    /* G.7 as (ε, 1e-5): a = 0.1·100/(1e-4·1e6) = 0.1 */
    mpfr_set_str(t, "1e-5", 10, MPFR_RNDN);
    mpfr_log(t, t, MPFR_RNDN);
    mpfr_div_si(t, t, -10, MPFR_RNDN);
    mpfr_sqrt(t, t, MPFR_RNDN);
    mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
    mpfr_set_str(u, "0.1", 10, MPFR_RNDN);
    mpfr_add(b, t, u, MPFR_RNDN);
    near_boundary(&ul_audit_noisy_gd,
                  NGD("\"theorem\": \"g7\", \"L\": 1, \"sigma\": 0.01, \"eta\": 0.1, \"n\": 1000, "
                      "\"K\": 100",
                      "\"eps\": \"%s\", \"delta\": 1e-5"),
                  b, UL_VERDICT_UNSUPPORTED);
    mpfr_clears(bound[0], bound[1], bound[2], b, t, u, (mpfr_ptr)0);
}

/* ==== the rule: a printed form with a known error never decides ================= */

Test(audit, noisy_gd_printed_thm43_never_supports)
{
    /* q = 2, L = 1, σ = 0.05, η = 0.01, n = 1000: G.7 per step 2·0.01/(0.0025·1e6) = 8e-6;
     * p = 2, s = 20, K_A = 1000, K_Abar = 100: printed 0.05 + 8e-6·2·1000 = 0.066,
     * corrected 0.05 + 8e-6·(1000 + 20·100) = 0.074 (docs/noisy-gd.md erratum N2).  The
     * claim 0.07 is reached only by the printed form, cited or not. */
    static const char *const cites[] = {"\"variant\": \"printed\", ", "\"variant\": \"corrected\", ",
                                        ""};
    for (int i = 0; i < 3; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 NGD("%s\"theorem\": \"thm43\", \"L\": 1, \"sigma\": 0.05, \"eta\": 0.01, \"n\": "
                     "1000, \"KA\": 1000, \"KAbar\": 100, \"eps_dd\": 0.05, \"p\": 2, \"s\": 20",
                     "\"renyi_order\": 2, \"renyi_value\": 0.07"),
                 cites[i]);
        ul_audit_report rep;
        char err[512];
        cr_assert_eq(audit_text(&ul_audit_noisy_gd, text, &rep, &WANT, err, sizeof err), UL_OK,
                     "%s", err);
        cr_assert_eq(rep.verdict, UL_VERDICT_UNSUPPORTED, "cited %s", cites[i]);
        expect_contains(&rep.recomputed, "0.074");
        expect_contains(&rep.other_variant, "0.066");
        cr_assert_str_eq(rep.variant, "corrected");
        cr_assert(strstr(rep.explanation, "over-claims") != NULL, "%s", rep.explanation);
        if (i == 0)
            cr_assert(strstr(rep.explanation, "cites the printed") != NULL, "%s",
                      rep.explanation);
    }
}

Test(audit, noisy_gd_printed_thm52_step_condition_is_not_enough)
{
    /* λ = β = 1, log B = 0.5, q = 2, d = 1, eps_dd = 0.9 < eps_dp = 0.95 < d:
     * printed η ≤ λ eps_dd/(64 d q B (β+λ)²) = 0.9/(512 e^0.5) ≈ 1.066e-3, G.22's
     * η ≤ λ/(64 B q² (β+λ)²) = 1/(1024 e^0.5) ≈ 5.92e-4 (docs/noisy-gd.md erratum N3):
     * η = 1e-3 meets the printed condition only */
    cr_assert(1e-3 < 0.9 / (512 * exp(0.5)) && 1e-3 > 1 / (1024 * exp(0.5)));
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(audit_text(&ul_audit_noisy_gd,
                            NGD("\"theorem\": \"thm52-deletion\", \"variant\": \"printed\", \"L\": "
                                "1, \"lambda\": 1, \"beta\": 1, \"sigma\": 0.1, \"eta\": 0.001, "
                                "\"n\": 1000, \"d\": 1, \"r\": 1, \"KA\": 100000, \"KAbar\": "
                                "100000, \"eps_dp\": 0.95, \"logB\": 0.5",
                                "\"renyi_order\": 2, \"renyi_value\": 0.9"),
                            &rep, &WANT, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(rep.verdict, UL_VERDICT_INVALID, "%s", rep.explanation);
    bool g22 = false;
    for (int i = 0; i < rep.pre.count; i++)
        if (strcmp(rep.pre.items[i].name, "eta_le_g22_bound") == 0)
            g22 = rep.pre.items[i].state == UL_PRE_FAILS;
    cr_assert(g22, "G.22's step-size condition must be checked and fail");
}

/* ==== issue 12 item 5: δ below exact rationals ================================= */

Test(audit, tiny_delta_is_read_by_both_gaussian_methods)
{
    /* δ is not read as an exact rational (num/input.h: every decimal down to
     * 10^-(10^18)); only output perturbation's classic-σ check needs it so,
     * and is skipped, saying so */
    /* δ = 1e-20001: at ε = 1, r = 2 θ ≈ 0.51 refutes it; at ε = 620 the exact
     * θ is below it (tests/oracle.c: log θ_{e^620}(2) < log 1e-20001), supported */
    mpfr_t e, r, lt, ld;
    mpfr_inits2(ORACLE_BITS, e, r, lt, ld, (mpfr_ptr)0);
    mpfr_set_ui(e, 620, MPFR_RNDN);
    mpfr_set_ui(r, 2, MPFR_RNDN);
    oracle_log_theta(lt, e, r);
    mpfr_set_si(ld, -20001, MPFR_RNDN);
    mpfr_mul_d(ld, ld, log(10.0), MPFR_RNDN); /* to 1e-16, far from the 1e2 margin */
    cr_assert(mpfr_cmp_d(lt, mpfr_get_d(ld, MPFR_RNDN) - 100) < 0);
    mpfr_clears(e, r, lt, ld, (mpfr_ptr)0);
    cr_assert_eq(verdict_of(&ul_audit_output_perturbation,
                            OP("\"c0\": 1, \"sigma\": 1", "\"eps\": 1, \"delta\": \"1e-20001\"", "")),
                 UL_VERDICT_REFUTED);
    cr_assert_eq(
        verdict_of(&ul_audit_gaussian_mechanism, GAUSS1("\"sensitivity\": 2, \"sigma\": 1",
                                                        "\"eps\": 1, \"delta\": \"1e-20001\"")),
        UL_VERDICT_REFUTED);
    cr_assert_eq(verdict_of(&ul_audit_output_perturbation,
                            OP("\"c0\": 1, \"sigma\": 1", "\"eps\": 620, \"delta\": \"1e-20001\"",
                               "\"sigma_classic\": 1")),
                 UL_VERDICT_SUPPORTED);
    cr_assert_eq(
        verdict_of(&ul_audit_gaussian_mechanism, GAUSS1("\"sensitivity\": 2, \"sigma\": 1",
                                                        "\"eps\": 620, \"delta\": \"1e-20001\"")),
        UL_VERDICT_SUPPORTED);
}

Test(audit, noisy_gd_one_directional_theorems_give_one_sided_eps_delta)
{
    /* Thm 5.2(2) bounds R_q(unlearned ‖ Gibbs) and Thm 4.3 composes one-directional
     * budgets: Remark 2.1 gives P[unlearned ∈ O] ≤ e^ε P[reference ∈ O] + δ only.
     * The same generous claim (ε = 20 at δ = 1e-5; the Rényi bounds here are below
     * 0.2 and log(1e5)/(q − 1) = 11.5 at q = 2) is supported one-sided and not
     * two-sided (the default reading). */
    static const char *const params[] = {
        "\"theorem\": \"thm52-deletion\", \"q\": 2, \"L\": 1, \"lambda\": 1, \"beta\": 1, "
        "\"sigma\": 0.1, \"eta\": 0.0002, \"n\": 1000, \"d\": 2, \"r\": 1, \"KA\": 11431, "
        "\"KAbar\": 22880, \"eps_dp\": 1, \"eps_dd\": 0.5, \"logB\": 0.5",
        "\"theorem\": \"thm43\", \"q\": 2, \"L\": 1, \"sigma\": 0.05, \"eta\": 0.01, \"n\": 1000, "
        "\"KA\": 1000, \"KAbar\": 100, \"eps_dd\": 0.05, \"p\": 2, \"s\": 20",
    };
    for (int i = 0; i < 2; i++) {
        char text[1024];
        snprintf(text, sizeof text, NGD("%s", "\"eps\": 20, \"delta\": 1e-5"), params[i]);
        cr_assert_eq(verdict_of(&ul_audit_noisy_gd, text), UL_VERDICT_UNSUPPORTED, "%d", i);
        snprintf(text, sizeof text, NGD("%s", "\"eps\": 20, \"delta\": 1e-5, \"one_sided\": true"),
                 params[i]);
        cr_assert_eq(verdict_of(&ul_audit_noisy_gd, text), UL_VERDICT_SUPPORTED, "%d", i);
    }
    /* G.15 is symmetric in the two runs: its two-sided reading stands */
    cr_assert_eq(verdict_of(&ul_audit_noisy_gd,
                            NGD("\"theorem\": \"g15\", \"L\": 1, \"lambda\": 0.1, \"beta\": 1, "
                                "\"sigma\": 0.01, \"eta\": 0.4, \"n\": 1000, \"KAbar\": 50",
                                "\"eps\": 20, \"delta\": 1e-5")),
                 UL_VERDICT_SUPPORTED);
    /* one_sided without an (ε, δ) claim is refused */
    ul_audit_report rep;
    char err[512] = "";
    cr_assert_eq(audit_text(&ul_audit_noisy_gd,
                            NGD("\"theorem\": \"g7\", \"L\": 1, \"sigma\": 0.01, \"eta\": 0.1, "
                                "\"n\": 1000, \"K\": 100",
                                "\"renyi_order\": 2, \"renyi_value\": 1, \"one_sided\": true"),
                            &rep, &WANT, err, sizeof err),
                 UL_EINPUT);
    cr_assert(strstr(err, "$.claim.one_sided") != NULL, "%s", err);
}

Test(audit, noisy_gd_decimals_beyond_exact_reading_are_refused_with_their_path)
{
    /* 1e-30000 is > 0 (the schema's range) but beyond exact rationals (10^±20000):
     * Thm 5.1's optional sigma and eta are read as rationals by its preconditions */
    static const char *const fields[] = {"sigma", "eta"};
    for (int i = 0; i < 2; i++) {
        char text[1024], must[64];
        snprintf(text, sizeof text,
                 NGD("\"theorem\": \"thm51\", \"L\": 1, \"lambda\": 0.1, \"beta\": 1, \"n\": 1000, "
                     "\"eps_dp\": 1, \"KAbar\": 200, \"%s\": \"1e-30000\"",
                     "\"renyi_order\": 2, \"renyi_value\": 0.1"),
                 fields[i]);
        snprintf(must, sizeof must, "$.parameters.%s", fields[i]);
        ul_audit_report rep;
        char err[512] = "";
        cr_assert_eq(audit_text(&ul_audit_noisy_gd, text, &rep, &WANT, err, sizeof err), UL_EINPUT,
                     "%s accepted", fields[i]);
        cr_assert(strstr(err, must) != NULL, "'%s' does not name %s", err, must);
    }
}

Test(audit, gaussian_list_wrong_compositions_are_named)
{
    /* σ = [2, 2, 4, 4, 8], Δ = 1, ε = 1: the mean σ is 4 (r = √5/4) and the largest
     * single r_i is 1/2; θ at each from tests/oracle.c, written to 6 digits, is
     * refuted by the true r = √(1/4 + 1/4 + 1/16 + 1/16 + 1/64) = √0.640625 and
     * names its recipe */
    static const struct {
        double r;
        const char *must;
    } cases[] = {{0.5590169943749474241, "mean sigma"}, {0.5, "one release alone"}};
    for (int i = 0; i < 2; i++) {
        mpfr_t e, r, t;
        mpfr_inits2(ORACLE_BITS, e, r, t, (mpfr_ptr)0);
        mpfr_set_ui(e, 1, MPFR_RNDN);
        mpfr_set_d(r, cases[i].r, MPFR_RNDN);
        oracle_log_theta(t, e, r);
        mpfr_exp(t, t, MPFR_RNDN);
        char claim[128], text[512];
        mpfr_snprintf(claim, sizeof claim, "\"eps\": 1, \"delta\": \"%.5Re\"", t);
        mpfr_clears(e, r, t, (mpfr_ptr)0);
        snprintf(text, sizeof text, GAUSS("\"sensitivity\": 1, \"sigma\": [2, 2, 4, 4, 8]", "%s"),
                 claim);
        ul_audit_report rep;
        char err[512];
        cr_assert_eq(audit_text(&ul_audit_gaussian_mechanism, text, &rep, &WANT, err, sizeof err),
                     UL_OK, "%s", err);
        cr_assert_eq(rep.verdict, UL_VERDICT_REFUTED, "%s", claim);
        cr_assert(strstr(rep.forensics, cases[i].must) != NULL, "%s: '%s'", claim, rep.forensics);
    }
}

/* ==== calibrations write what a certificate can hold ============================== */

Test(audit, calibrated_values_fit_a_certificate_and_stay_safe)
{
    /* x = 1/3 rounded down at 20000 bits (about 6000 digits): asked at 5000
     * digits (the largest --digits) the text would be 5000+ characters, more than the
     * 1000 a certificate's decimal may have (num/input.h); the text written
     * must fit, read back, and still be >= x (rounded up: the safe side),
     * compared here by mpfr_strtofr at 20000 bits and by the rule itself */
    mpfr_t x, y;
    mpfr_inits2(20000, x, y, (mpfr_ptr)0);
    mpfr_set_ui(x, 1, MPFR_RNDN);
    mpfr_div_ui(x, x, 3, MPFR_RNDD);
    static const int asked[] = {17, 990, 1000, 5000};
    for (size_t i = 0; i < sizeof asked / sizeof asked[0]; i++) {
        char *t = ul_audit_format_up_readable(x, asked[i]);
        char err[256] = "";
        cr_assert_leq(strlen(t), 1000, "%d digits: %zu characters", asked[i], strlen(t));
        cr_assert_eq(ul_num_check_decimal("$.x", t, err, sizeof err), UL_OK, "%s", err);
        char *end;
        mpfr_strtofr(y, t, &end, 10, MPFR_RNDN);
        cr_assert(*end == '\0' && mpfr_greaterequal_p(y, x), "%d digits: below x", asked[i]);
        /* the digits asked when they fit, else close to the 1000 characters */
        int k = 0;
        for (const char *p = t; *p && *p != 'e'; p++)
            k += *p >= '0' && *p <= '9';
        cr_assert(asked[i] < 990 ? k == asked[i] : k >= 990, "%d digits asked, %d written",
                  asked[i], k);
        free(t);
    }
    mpfr_clears(x, y, (mpfr_ptr)0);
}

/* ---- the engine's decision loop (ul_audit_decide) ---------------------------------
 * A scripted evaluation: undecided below `decided_at` digits, the cap hit at
 * or above `cap_at`; it records the digits it was asked for.  The property
 * checked: the digits double from those asked, and the loop stops at the
 * first decision, at the cap, or where one more doubling would pass
 * max_digits. */
typedef struct {
    int decided_at, cap_at;
    int asked[32];
    int n;
} scripted;

static ul_status scripted_once(void *ctx, const ul_num_precision *w, ul_verdict *verdict,
                               bool *cap_hit, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    scripted *s = ctx;
    if (s->n < 32)
        s->asked[s->n++] = w->digits;
    *cap_hit = w->digits >= s->cap_at;
    *verdict = w->digits >= s->decided_at ? UL_VERDICT_SUPPORTED : UL_VERDICT_INCONCLUSIVE;
    return UL_OK;
}

Test(audit, decide_loop_doubles_digits_until_decided)
{
    scripted s = {.decided_at = 100, .cap_at = 1 << 30};
    ul_verdict v;
    ul_audit_decide_end end;
    char err[256];
    cr_assert_eq(ul_audit_decide(scripted_once, &s, &WANT, INT_MAX, &v, &end, err, sizeof err),
                 UL_OK);
    cr_assert_eq(v, UL_VERDICT_SUPPORTED);
    int expect[] = {17, 34, 68, 136}; /* 17·2^k until ≥ 100 */
    cr_assert_eq(s.n, 4);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(s.asked[i], expect[i]);
    cr_assert(end.digits == 136 && !end.cap_hit);
}

Test(audit, decide_loop_stops_at_the_cap_and_at_max_digits)
{
    scripted s = {.decided_at = 1 << 30, .cap_at = 68};
    ul_verdict v;
    ul_audit_decide_end end;
    char err[256];
    cr_assert_eq(ul_audit_decide(scripted_once, &s, &WANT, INT_MAX, &v, &end, err, sizeof err),
                 UL_OK);
    cr_assert(v == UL_VERDICT_INCONCLUSIVE && end.cap_hit && end.digits == 68 && s.n == 3);
    scripted t = {.decided_at = 1 << 30, .cap_at = 1 << 30};
    /* 17, 34, 68: one more doubling (136) would pass 100 */
    cr_assert_eq(ul_audit_decide(scripted_once, &t, &WANT, 100, &v, &end, err, sizeof err), UL_OK);
    cr_assert(v == UL_VERDICT_INCONCLUSIVE && !end.cap_hit && end.digits == 68 && t.n == 3);
    /* max_digits = the digits asked: one evaluation, never raised */
    scripted u = {.decided_at = 1 << 30, .cap_at = 1 << 30};
    cr_assert_eq(ul_audit_decide(scripted_once, &u, &WANT, 17, &v, NULL, err, sizeof err), UL_OK);
    cr_assert_eq(u.n, 1);
}

/* ---- the stated-number rule (ul_audit_stated_agrees) ------------------------------
 * A stated decimal stands for [s - ½·10^k, s + ½·10^k], 10^k its last written
 * digit; it is wrong only when that interval misses the certified enclosure.
 * Checked against values chosen by hand on either side of the half-unit. */
static bool agrees_exact(const char *stated, const char *value)
{
    ul_num_value v;
    ul_num_value_init(&v, 128);
    cr_assert_eq(ul_num_set_decimal(v.enclosure, value), UL_OK);
    bool ok = ul_audit_stated_agrees(stated, &v);
    ul_num_value_clear(&v);
    return ok;
}

Test(audit, stated_rule_is_half_a_unit_of_the_last_digit)
{
    cr_assert(agrees_exact("0.12", "0.1249"));  /* rounds to 0.12 */
    cr_assert(agrees_exact("0.12", "0.125"));   /* the tie: may round either way */
    cr_assert(agrees_exact("0.12", "0.115"));
    cr_assert(!agrees_exact("0.12", "0.1251")); /* rounds to 0.13 */
    cr_assert(!agrees_exact("0.12", "0.1289")); /* truncated, not rounded: wrong */
    cr_assert(!agrees_exact("0.12", "0.1149"));
    cr_assert(agrees_exact("1.5e-3", "0.00152"));
    cr_assert(!agrees_exact("1.5e-3", "0.00156"));
    cr_assert(agrees_exact("15e-4", "0.001549"));
    cr_assert(agrees_exact("0", "0"));          /* a written zero is exact */
    cr_assert(!agrees_exact("0.000", "1e-30"));
    cr_assert(!agrees_exact("-0.5", "0.5"));
}

Test(audit, stated_rule_reads_log_values_linearly)
{
    ul_num_value v; /* log(0.3) as an enclosure in log form */
    ul_num_value_init(&v, 128);
    cr_assert_eq(ul_num_set_decimal(v.enclosure, "0.3"), UL_OK);
    mpfi_log(v.enclosure, v.enclosure);
    v.is_log = true;
    cr_assert(ul_audit_stated_agrees("0.3", &v));
    cr_assert(ul_audit_stated_agrees("3e-1", &v));
    cr_assert(!ul_audit_stated_agrees("0.31", &v));
    ul_num_value_clear(&v);
}

/* Thm 5.1 prescribes eta = 1/(2(lambda + beta)) = 1/6 = 0.1666... at lambda = 1,
 * beta = 2: a stated eta is judged by the engine's stated-number rule whatever
 * its notation ("1.667e-1" was called wrong before: exponent notation was
 * never accepted), and one more than half a unit of its last digit off (a
 * truncation such as 0.1666) is wrong. */
Test(audit, noisy_gd_stated_eta_by_the_engine_rule)
{
    static const struct {
        const char *eta;
        bool wrong;
    } cases[] = {{"0.1667", false}, {"1.667e-1", false}, {"1667e-4", false}, {"0.17", false},
                 {"0.1666", true},  {"0.16", true},      {"1.6e-1", true}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "{\"format\": \"ulaudit-certificate/1\", \"method\": \"noisy-gd\", "
                 "\"parameters\": {\"theorem\": \"thm51\", \"L\": 1, \"lambda\": 1, \"beta\": 2, "
                 "\"n\": 1000, \"eps_dp\": 1, \"KAbar\": 20}, \"claim\": {\"renyi_order\": 2, "
                 "\"renyi_value\": 1}, \"stated\": {\"eta\": \"%s\"}}",
                 cases[i].eta);
        ul_audit_report rep;
        char err[512] = "";
        cr_assert_eq(audit_text(&ul_audit_noisy_gd, text, &rep, &WANT, err, sizeof err), UL_OK,
                     "%s", err);
        cr_assert_eq(strstr(rep.first_wrong_stated, "$.stated.eta") != NULL, cases[i].wrong,
                     "%s: '%s'", cases[i].eta, rep.first_wrong_stated);
    }
}

/* ---- a certified value against a decimal (audit_util.h) ---------------------------
 * Certain answers only: 1/3 (linear) and log(1/3) (log form) against decimals
 * on either side of 0.3333...; undecided cases (the decimal inside the
 * enclosure) answer false. */
Test(audit, value_against_decimal_is_certain)
{
    ul_num_value v, w;
    ul_num_value_init(&v, 100);
    ul_num_value_init(&w, 100);
    mpfi_set_ui(v.enclosure, 1);
    mpfi_div_ui(v.enclosure, v.enclosure, 3);
    mpfi_set(w.enclosure, v.enclosure);
    mpfi_log(w.enclosure, w.enclosure);
    w.is_log = true;
    const ul_num_value *both[] = {&v, &w};
    for (int i = 0; i < 2; i++) {
        cr_assert(ul_audit_value_at_most(both[i], "0.33334"));
        cr_assert(!ul_audit_value_at_most(both[i], "0.33333"));
        cr_assert(ul_audit_decimal_below("0.33333", both[i]));
        cr_assert(!ul_audit_decimal_below("0.33334", both[i]));
        cr_assert(fabs(ul_audit_value_lo_double(both[i]) - 1.0 / 3) < 1e-15);
    }
    mpfi_interv_d(v.enclosure, 0.25, 0.5); /* straddles 0.3: neither */
    v.is_log = false;
    cr_assert(!ul_audit_value_at_most(&v, "0.3") && !ul_audit_decimal_below("0.3", &v));
    ul_num_value_clear(&v);
    ul_num_value_clear(&w);
}
