/* tests/test_audit_ties.c — claims written exactly at a bound that is a
 * rational (audit_util.h, "a bound that is an exact rational"): Noisy-GD
 * (Chourasia & Shah, docs/noisy-gd.md "Theorems audited") G.9 with K absent or K = 0,
 * G.15 and Thm 5.1 at K_Abar = 0 (or η = 0), and Langevin's strongly
 * convex case at K = 0 (Chien et al. 2024, Thm 3.2 case 3,
 * Cor 3.4; docs/langevin.md, "Strongly convex closed form").
 *
 * An enclosure of such a bound straddles the claim at every precision, so
 * only exact arithmetic decides the tie.  Oracle: each tie value is
 * computed here with GMP rationals from the paper's formula (the arithmetic
 * is written next to it), turned into its exact decimal text, and claimed;
 * the tie must be supported, and a claim 10^-22 below it must not be.  The
 * ties are not dyadic (0.96, not 1.5), so no binary enclosure is exact. */
#include <criterion/criterion.h>
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "num/encl.h"

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(audit_ties, .fini = teardown);

/* ---- helpers ------------------------------------------------------------------------------- */

/* out = the decimal text, exactly. */
static void q_set(mpq_ptr out, const char *text)
{
    cr_assert(ul_num_decimal_to_mpq(out, text), "not a decimal: %s", text);
}

/* The exact decimal text of x ≥ 0 (its denominator must divide a power of
 * ten: the ties below are built so).  malloc'd. */
static char *decimal_of(mpq_srcptr x)
{
    mpq_t t, ten;
    mpq_inits(t, ten, (mpq_ptr)0);
    mpq_set(t, x);
    mpq_set_ui(ten, 10, 1);
    size_t k = 0;
    while (mpz_cmp_ui(mpq_denref(t), 1) != 0) {
        mpq_mul(t, t, ten);
        cr_assert_lt(++k, 200u, "not a terminating decimal");
    }
    char *digits = mpz_get_str(NULL, 10, mpq_numref(t));
    size_t len = strlen(digits);
    char *out = malloc(len + k + 3);
    cr_assert_not_null(out);
    if (k == 0)
        snprintf(out, len + 1, "%s", digits);
    else if (len <= k) { /* 0.00ddd */
        memcpy(out, "0.", 2);
        memset(out + 2, '0', k - len);
        memcpy(out + 2 + k - len, digits, len + 1);
    } else
        sprintf(out, "%.*s.%s", (int)(len - k), digits, digits + len - k);
    void (*gmp_free)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gmp_free);
    gmp_free(digits, len + 1);
    mpq_clears(t, ten, (mpq_ptr)0);
    return out;
}

/* The certificate fmt with its one %s replaced by claim; malloc'd. */
static char *cert_with(const char *fmt, const char *claim)
{
    size_t n = strlen(fmt) + strlen(claim) + 1;
    char *text = malloc(n);
    cr_assert_not_null(text);
    snprintf(text, n, fmt, claim);
    return text;
}

/* Audits text at precision want with its method's handler. */
static void audit_at(const char *text, const ul_num_precision *want, ul_audit_report *rep)
{
    char err[1024] = "";
    ul_cert *c = NULL;
    cr_assert_eq(ul_cert_load_buffer(text, strlen(text), &c, err, sizeof err), UL_OK, "%s", err);
    const ul_audit_method *m =
        strcmp(ul_cert_method(c), "langevin") == 0 ? &ul_audit_langevin : &ul_audit_noisy_gd;
    cr_assert_eq(m->audit(c, want, rep, err, sizeof err), UL_OK, "%s\n%s", err, text);
    ul_cert_free(c);
}

/* The certificate fmt claimed exactly at tie is supported, its explanation
 * saying that the bound equals the claim exactly, at the default precision
 * and under a 64-bit cap; claimed 10^-22 below the tie it is not supported
 * (the bound exceeds that claim). */
static void expect_tie(const char *fmt, mpq_srcptr tie)
{
    static const ul_num_precision WANT = {17, 0, 0}, CAPPED = {17, 0, 64};
    ul_audit_report rep;
    char *claim = decimal_of(tie);
    char *text = cert_with(fmt, claim);
    audit_at(text, &WANT, &rep);
    cr_assert_eq(rep.verdict, UL_VERDICT_SUPPORTED, "claim %s: %s\n%s", claim, rep.margin,
                 rep.explanation);
    cr_assert_not_null(strstr(rep.explanation, "exactly (exact rational evaluation"), "%s",
                       rep.explanation);
    cr_assert_not_null(strstr(rep.margin, "the bound equals the claim"), "%s", rep.margin);
    audit_at(text, &CAPPED, &rep);
    cr_assert_eq(rep.verdict, UL_VERDICT_SUPPORTED, "capped, claim %s: %s", claim, rep.margin);
    free(text);
    free(claim);

    mpq_t below, ulp;
    mpq_inits(below, ulp, (mpq_ptr)0);
    q_set(ulp, "1e-22");
    mpq_sub(below, tie, ulp);
    claim = decimal_of(below);
    text = cert_with(fmt, claim);
    audit_at(text, &WANT, &rep);
    cr_assert_eq(rep.verdict, UL_VERDICT_UNSUPPORTED, "claim %s: %s", claim, rep.margin);
    cr_assert_null(strstr(rep.explanation, "exact rational evaluation"), "%s", rep.explanation);
    free(text);
    free(claim);
    mpq_clears(below, ulp, (mpq_ptr)0);
}

/* out = 4qL²/(λσ²n²) (Thm G.9's supremum over K, G.15's stated constant). */
static void c4(mpq_ptr out, const char *q, const char *L, const char *lambda, const char *sigma,
               const char *n)
{
    mpq_t t;
    mpq_init(t);
    q_set(out, L);
    mpq_mul(out, out, out);
    q_set(t, q);
    mpq_mul(out, out, t);
    mpq_mul_2exp(out, out, 2);
    q_set(t, lambda);
    mpq_div(out, out, t);
    q_set(t, sigma);
    mpq_mul(t, t, t);
    mpq_div(out, out, t);
    q_set(t, n);
    mpq_mul(t, t, t);
    mpq_div(out, out, t);
    mpq_clear(t);
}

#define NGD_HEAD "{\"format\":\"ulaudit-certificate/1\",\"method\":\"noisy-gd\",\"source\":\"t\","

/* ---- Noisy-GD -------------------------------------------------------------------------------- */

Test(audit_ties, noisygd_g9_k_absent_is_its_supremum)
{
    /* G.9 without K: 4qL²/(λσ²n²) = 4·3·2.25/(0.5·0.25·225) = 27/28.125 = 0.96 */
    mpq_t tie;
    mpq_init(tie);
    c4(tie, "3", "1.5", "0.5", "0.5", "15");
    expect_tie(NGD_HEAD "\"parameters\":{\"theorem\":\"g9\",\"L\":\"1.5\",\"lambda\":\"0.5\","
                        "\"beta\":1,\"sigma\":\"0.5\",\"eta\":\"0.1\",\"n\":15},"
                        "\"claim\":{\"renyi_order\":3,\"renyi_value\":\"%s\"}}",
               tie);
    mpq_clear(tie);
}

Test(audit_ties, noisygd_g9_k0_is_zero)
{
    /* G.9 at K = 0: c·(1 − e^0) = 0, so a claim of 0 ties (no claim lies below) */
    ul_audit_report rep;
    static const ul_num_precision WANT = {17, 0, 0};
    audit_at(NGD_HEAD "\"parameters\":{\"theorem\":\"g9\",\"L\":\"1.5\",\"lambda\":\"0.5\","
                      "\"beta\":1,\"sigma\":\"0.5\",\"eta\":\"0.1\",\"n\":15,\"K\":0},"
                      "\"claim\":{\"renyi_order\":3,\"renyi_value\":\"0\"}}",
             &WANT, &rep);
    cr_assert_eq(rep.verdict, UL_VERDICT_SUPPORTED, "%s", rep.margin);
}

Test(audit_ties, noisygd_g15_at_kabar_0_both_forms_and_eta_0)
{
    /* stated form, K_Abar = 0: 4qL²/(λσ²n²)·e^0 = 0.96 (as above) */
    mpq_t tie, t;
    mpq_inits(tie, t, (mpq_ptr)0);
    c4(tie, "3", "1.5", "0.5", "0.5", "15");
    expect_tie(NGD_HEAD "\"parameters\":{\"theorem\":\"g15\",\"L\":\"1.5\",\"lambda\":\"0.5\","
                        "\"beta\":1,\"sigma\":\"0.5\",\"eta\":\"0.1\",\"n\":15,\"KAbar\":0,"
                        "\"g15_form\":\"stated\"},"
                        "\"claim\":{\"renyi_order\":3,\"renyi_value\":\"%s\"}}",
               tie);
    /* stated form, η = 0: e^{−ηλK_Abar/2} = 1 whatever K_Abar */
    expect_tie(NGD_HEAD "\"parameters\":{\"theorem\":\"g15\",\"L\":\"1.5\",\"lambda\":\"0.5\","
                        "\"beta\":1,\"sigma\":\"0.5\",\"eta\":0,\"n\":15,\"KAbar\":7,"
                        "\"g15_form\":\"stated\"},"
                        "\"claim\":{\"renyi_order\":3,\"renyi_value\":\"%s\"}}",
               tie);
    /* tight form, K_Abar = 0: 2qL²/(λσ²n²(1 − ηλ/2)) with η = 1, λ = 0.5:
     * 0.48/(1 − 0.25) = 0.64 */
    mpq_div_2exp(tie, tie, 1);
    q_set(t, "0.75");
    mpq_div(tie, tie, t);
    expect_tie(NGD_HEAD "\"parameters\":{\"theorem\":\"g15\",\"L\":\"1.5\",\"lambda\":\"0.5\","
                        "\"beta\":\"0.25\",\"sigma\":\"0.5\",\"eta\":1,\"n\":15,\"KAbar\":0},"
                        "\"claim\":{\"renyi_order\":3,\"renyi_value\":\"%s\"}}",
               tie);
    mpq_clears(tie, t, (mpq_ptr)0);
}

Test(audit_ties, noisygd_thm51_at_kabar_0_both_forms)
{
    /* Thm 5.1's prescriptions make 4qL²/(λσ²n²) = eps_dp (docs/noisy-gd.md
     * "Algorithm and prescriptions"): stated form at K_Abar = 0, ε = eps_dp·e^0 = 0.3 */
    mpq_t tie, c;
    mpq_inits(tie, c, (mpq_ptr)0);
    q_set(tie, "0.3");
    expect_tie(NGD_HEAD "\"parameters\":{\"theorem\":\"thm51\",\"L\":1,\"lambda\":\"0.0625\","
                        "\"beta\":\"0.25\",\"n\":1000,\"eps_dp\":\"0.3\",\"KAbar\":0,"
                        "\"g15_form\":\"stated\"},"
                        "\"claim\":{\"renyi_order\":4,\"renyi_value\":\"%s\"}}",
               tie);
    /* tight form: (eps_dp/2)/(1 − c), c = λ/(4(λ+β)) = 0.0625/1.25 = 0.05:
     * 0.19/(2·0.95) = 0.1 */
    mpq_t t;
    mpq_init(t);
    q_set(c, "0.0625");
    q_set(t, "0.3125"); /* λ + β */
    mpq_div(c, c, t);
    mpq_div_2exp(c, c, 2); /* c = 0.05 */
    mpq_set_ui(t, 1, 1);
    mpq_sub(c, t, c); /* 1 − c */
    q_set(tie, "0.19");
    mpq_div(tie, tie, c);
    mpq_clear(t);
    mpq_div_2exp(tie, tie, 1);
    expect_tie(NGD_HEAD "\"parameters\":{\"theorem\":\"thm51\",\"L\":1,\"lambda\":\"0.0625\","
                        "\"beta\":\"0.25\",\"n\":1000,\"eps_dp\":\"0.19\",\"KAbar\":0},"
                        "\"claim\":{\"renyi_order\":4,\"renyi_value\":\"%s\"}}",
               tie);
    mpq_clears(tie, c, (mpq_ptr)0);
}

/* ---- Langevin, strongly convex ------------------------------------------------------------ */

#define LG_HEAD "{\"format\":\"ulaudit-certificate/1\",\"method\":\"langevin\",\"source\":\"t\","

Test(audit_ties, langevin_strongly_convex_k0_single_and_sequential)
{
    /* Thm 3.2 case 3 at K = 0: e^0·ε0(α), ε0(α) = 4αS²M²/(mσ²n²) (Thm 3.3
     * (3), T → ∞): E = 4·4·2.25/(0.25·0.25·400) = 1.44, α = 3: 4.32 */
    /* two requests, both K = 0 (Cor 3.4): ε^(2)(α) = ((α − ½)/(α − 1))·
     * (ε0(2α) + ε^(1)(2α)) = (2.5/2)·(6E + 6E) = 15E = 21.6 */
    static const struct {
        const char *K;
        unsigned long times_E;
    } CASES[] = {{"0", 3}, {"[0,0]", 15}};
    mpq_t E, tie, t;
    mpq_inits(E, tie, t, (mpq_ptr)0);
    c4(E, "4", "1.5", "0.25", "0.5", "20"); /* 4·S²·M²/(mσ²n²) with S² = 4 */
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        mpq_set_ui(t, CASES[i].times_E, 1);
        mpq_mul(tie, E, t);
        char fmt[512];
        snprintf(fmt, sizeof fmt,
                 LG_HEAD "\"parameters\":{\"case\":\"strongly-convex\",\"n\":20,\"m\":\"0.25\","
                         "\"L\":1,\"M\":\"1.5\",\"sigma\":\"0.5\",\"K\":%s,\"S\":2},"
                         "\"claim\":{\"renyi_order\":3,\"renyi_value\":\"%%s\"}}",
                 CASES[i].K);
        expect_tie(fmt, tie);
    }
    mpq_clears(E, tie, t, (mpq_ptr)0);
}

Test(audit_ties, langevin_k_positive_is_not_taken_for_a_rational)
{
    /* K = 1 multiplies by e^{−R/α}, transcendental: a claim at the K = 0
     * value is then above the bound and supported by the enclosures alone,
     * without the exact path's sentence */
    static const ul_num_precision WANT = {17, 0, 0};
    ul_audit_report rep;
    audit_at(LG_HEAD "\"parameters\":{\"case\":\"strongly-convex\",\"n\":20,\"m\":\"0.25\","
                     "\"L\":1,\"M\":\"1.5\",\"sigma\":\"0.5\",\"K\":1,\"S\":2},"
                     "\"claim\":{\"renyi_order\":3,\"renyi_value\":\"4.32\"}}",
             &WANT, &rep);
    cr_assert_eq(rep.verdict, UL_VERDICT_SUPPORTED, "%s", rep.margin);
    cr_assert_null(strstr(rep.explanation, "exact rational evaluation"), "%s", rep.explanation);
}

Test(audit_ties, noisygd_g15_calibrate_at_the_tie_returns_kabar_0)
{
    /* calibrate re-audits what it completes: at a claim equal to G.15's
     * constant 0.96 (stated form, as above) K_Abar = 0 reaches it with
     * equality, and that re-audit is the exact tie */
    const char *text =
        NGD_HEAD "\"parameters\":{\"theorem\":\"g15\",\"L\":\"1.5\",\"lambda\":\"0.5\","
                 "\"beta\":1,\"sigma\":\"0.5\",\"eta\":\"0.1\",\"n\":15,\"g15_form\":\"stated\","
                 "\"initialisation\":\"theorem\"},"
                 "\"claim\":{\"renyi_order\":3,\"renyi_value\":\"0.96\"}}";
    char err[1024] = "", *completed = NULL;
    ul_cert *c = NULL;
    cr_assert_eq(ul_cert_load_buffer(text, strlen(text), &c, err, sizeof err), UL_OK, "%s", err);
    ul_num_precision want = {17, 0, 0};
    cr_assert_eq(ul_audit_noisy_gd.calibrate(c, &want, &completed, err, sizeof err), UL_OK, "%s",
                 err);
    cr_assert_not_null(strstr(completed, "\"KAbar\": 0"), "%s", completed);
    free(completed);
    ul_cert_free(c);
}
