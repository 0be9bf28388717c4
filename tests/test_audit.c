/* tests/test_audit.c — the gaussian-mechanism, output-perturbation and
 * rdp-curve handlers (called directly), their calibration, the faulty
 * recipes of cert/forensics.h and the report renderers.
 *
 * Oracles: mpmath at 50–60 digits (values written with their source), the
 * numbers printed in spec/anchors.md and spec/koloskova.md (computed by the
 * spec's authors, not by this code), published test values of
 * tensorflow/privacy, and exact properties (T compositions of σ = 2√T·… are
 * one mechanism; a calibrated σ audits as supported and a σ just below the
 * certified unsafe end as refuted). */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cert/audit.h"
#include "cert/forensics.h"
#include "cert/report.h"
#include "num/encl.h"

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
#define OP(params, claim, stated)                                                                  \
    "{\"format\": \"ulaudit-certificate/1\", \"method\": \"output-perturbation\", "                \
    "\"parameters\": {" params "}, \"claim\": {" claim "}, \"stated\": {" stated "}}"
#define RDP(params, claim)                                                                         \
    "{\"format\": \"ulaudit-certificate/1\", \"method\": \"rdp-curve\", "                          \
    "\"parameters\": {" params "}, \"claim\": {" claim "}}"

/* ==== gaussian-mechanism ===================================================== */

Test(audit, gaussian_one_minus_erf_claim_is_refuted_and_named)
{
    /* spec/anchors.md §2.6: eps_tilde = ln(1 + (e-1)/1e-6), r = 2: true
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
    /* spec/koloskova.md §4.2: theta_{e^15}(2) exact 9.1712418e-12, float32 0 */
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
    cr_assert_eq(
        verdict_of(&ul_audit_gaussian_mechanism, GAUSS("\"sensitivity\": 1, \"sigma\": 4.530877117",
                                                       "\"eps\": 0.92739234, \"delta\": 1e-6")),
        UL_VERDICT_SUPPORTED);
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(audit_text(&ul_audit_gaussian_mechanism,
                            GAUSS("\"sensitivity\": 1, \"sigma\": 4.530877117",
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
                   GAUSS("\"sensitivity\": 1, \"sigma\": 1.5", "\"eps\": 0.5, \"delta\": 0.1"), &b,
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
     * calibration for (9, 1e-5), which fails beyond eps ≈ 8.5 (spec §2.2) */
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
                            GAUSS("\"sensitivity\": 1, \"sigma\": 10",
                                  "\"renyi_order\": 20, \"renyi_value\": 0.1")),
                 UL_VERDICT_SUPPORTED);
    ul_audit_report rep;
    char err[512];
    cr_assert_eq(audit_text(&ul_audit_gaussian_mechanism,
                            GAUSS("\"sensitivity\": 1, \"sigma\": 10",
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
    const char *text = GAUSS("\"sensitivity\": 1, \"sigma\": 1",
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
                            GAUSS("\"sensitivity\": 1, \"sigma\": 1",
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
    /* spec/koloskova.md §4.9: valid at eps = 1 (theta = 4.11e-8 << 1e-5) */
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
    /* truncated and rounded forms of the right value pass; one off by more
     * than a unit of its last digit does not */
    const char *ok[] = {"9.689", "9.69", "9.7", "9.6", "9.6896105252", "9.68961052521077884"};
    for (size_t i = 0; i < 6; i++) {
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
        GAUSS("\"sensitivity\": 1, \"sigma\": 10", "\"renyi_order\": 20, \"renyi_value\": 0.1"),
        17);
    sigma_of(done, sigma, sizeof sigma);
    cr_assert_str_eq(sigma, "10");
    free(done);
    done = calibrate_text(&ul_audit_gaussian_mechanism,
                          GAUSS("\"sensitivity\": 1", "\"renyi_order\": 20, \"renyi_value\": 0.1"),
                          17);
    sigma_of(done, sigma, sizeof sigma);
    cr_assert_str_eq(sigma, "1.0000000000000000e+1"); /* √(20/0.2) = 10 exactly */
    free(done);
}

Test(audit, calibrate_refuses_what_no_sigma_reaches)
{
    ul_cert *c = cert_of(GAUSS("\"sensitivity\": 1", "\"eps\": 1, \"delta\": 0"));
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
    /* spec/koloskova.md §4.2, columns exact / code-double / float32-emulated */
    cr_assert(ul_forensic_matches("7.835643e-8", ul_forensic_theta_one_minus_erf(12, 2)));
    cr_assert(ul_forensic_matches("4.016e-11", ul_forensic_theta_one_minus_erf(15, 2)));
    cr_assert_eq(ul_forensic_theta_one_minus_erf(30, 2), 0.0);
    cr_assert(ul_forensic_matches("1.7546333e-8", ul_forensic_theta_one_minus_erf(1, 0.2)));
    cr_assert(ul_forensic_matches("-9.23e-9", ul_forensic_theta_float32(1, 0.2)));
    cr_assert(ul_forensic_matches("2.98e-7", ul_forensic_theta_float32(12, 2)));
    cr_assert_eq(ul_forensic_theta_float32(15, 2), 0.0);
    /* spec/anchors.md §2.6 */
    cr_assert(ul_forensic_matches("3.7584e-11",
                                  ul_forensic_theta_one_minus_erf(14.356835994553729734, 2)));
    /* spec/koloskova.md §2.2: 1.25·exp(−ε²/(2r²)) at ε = 5, r = 3 = 0.311690260972 */
    cr_assert(ul_forensic_matches("0.311690260972", ul_forensic_classic_delta(5, 3)));
    /* spec/koloskova.md §4.9: σ/(2 C0) = 4.8448 at (1, 1e-5) */
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
    /* spec/koloskova.md §4.4: δ_train = 2.4087171e-27 with ε_train = 50/225,
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
    cr_assert_str_eq(json_object_get_string(json_object_object_get(o, "verdict")), "inconclusive");
    json_object_put(o);
    free(text);
    text = ul_audit_report_text(&rep, NULL, NULL);
    cr_assert(strstr(text, "INCONCLUSIVE (exit 3)") != NULL);
    free(text);
}
