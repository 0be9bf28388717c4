/* tests/test_audit_sequential.c — Langevin certificates with sequential
 * deletion requests (Chien et al., arXiv:2401.10371v4, Cor 3.4 and
 * Algorithm 7; Chien et al. 2024, Corollary 3.4; docs/langevin.md,
 * "Sequential requests" and "Strongly convex closed form"), audited against
 * an oracle written here from the formulas alone (plain MPFR at 320
 * bits, no library function):
 *
 *   E        = ε0(α)/α: strongly convex 4S²M²/(mσ²n²) (Thm 3.3 (3), T → ∞);
 *              convex with a point initialisation 2ηS²M²/(σ²n²)·a_∞, where
 *              the recursion a_{t+1} = (a_t + 1)q_t of (50) tends to
 *              q₀/(1 − q₀) = C₀/(ησ²), C₀ = min(C̃ + ησ², C̄) its stationary
 *              C_{t,1} (both caps of (46)-(47));
 *   Λ_j      = Σ of the rates of request j: strongly convex K_j·mη (case 3,
 *              C_LSI = 2σ²/m); convex log(1 + 2ησ²/C_k) with the LSI
 *              recursion C_{k+1} = min(C_k + 2ησ², C̃) run on across
 *              requests from C_LSI;
 *   ε^(1)(α) = e^{−Λ_1/α}·αE,
 *   ε^(j)(α) = e^{−Λ_j/α}·((α − ½)/(α − 1))·(2αE + ε^(j−1)(2α)),
 *   bound    = min_{α>1} ε^(s)(α) + log(1/δ)/(α − 1)   (Prop L.2),
 * the minimum by golden-section search on log(α − 1) (the objective is
 * smooth, so the minimum's value is accurate to far below 1e-9 relative).
 * Claims at bound·(1 ± 1e-9) must be supported / unsupported. */
#include <criterion/criterion.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "num/encl.h"

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(audit_sequential, .fini = teardown);

#define OB 320
#define MAXREQ 8

typedef struct {
    bool convex;
    const char *n, *m, *L, *M, *eta, *sigma, *R, *C_lsi, *delta;
    unsigned long S;
    unsigned long K[MAXREQ];
    size_t count;
} seq_case;

static void dec(mpfr_ptr x, const char *text)
{
    mpfr_set_str(x, text, 10, MPFR_RNDN);
}

/* C̄ (h = ησ²) or C̃ (h = 2ησ²): 6(4(R + ηM)² + h)·exp(4(R + ηM)²/h). */
static void cap(mpfr_ptr out, mpfr_srcptr R, mpfr_srcptr eta, mpfr_srcptr M, mpfr_srcptr h)
{
    mpfr_t a, t;
    mpfr_inits2(OB, a, t, (mpfr_ptr)0);
    mpfr_mul(a, eta, M, MPFR_RNDN);
    mpfr_add(a, a, R, MPFR_RNDN);
    mpfr_sqr(a, a, MPFR_RNDN);
    mpfr_mul_ui(a, a, 4, MPFR_RNDN);
    mpfr_div(t, a, h, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_add(a, a, h, MPFR_RNDN);
    mpfr_mul_ui(a, a, 6, MPFR_RNDN);
    mpfr_mul(out, a, t, MPFR_RNDN);
    mpfr_clears(a, t, (mpfr_ptr)0);
}

/* E and Λ_1..Λ_s of a case, as in the header. */
static void oracle_consts(const seq_case *c, mpfr_ptr E, mpfr_t *lam)
{
    mpfr_t n, m, L, M, eta, sg, R, C, h, h2, cb, ct, t;
    mpfr_inits2(OB, n, m, L, M, eta, sg, R, C, h, h2, cb, ct, t, (mpfr_ptr)0);
    dec(n, c->n), dec(L, c->L), dec(M, c->M), dec(sg, c->sigma);
    if (c->eta != NULL)
        dec(eta, c->eta);
    else
        mpfr_ui_div(eta, 1, L, MPFR_RNDN);
    mpfr_sqr(h, sg, MPFR_RNDN);
    mpfr_mul(h, h, eta, MPFR_RNDN); /* ησ² */
    mpfr_mul_2ui(h2, h, 1, MPFR_RNDN);
    /* S²M²/(σ²n²) */
    mpfr_mul(t, sg, n, MPFR_RNDN);
    mpfr_div(t, M, t, MPFR_RNDN);
    mpfr_sqr(t, t, MPFR_RNDN);
    mpfr_mul_ui(t, t, c->S * c->S, MPFR_RNDN);
    if (!c->convex) {
        dec(m, c->m);
        mpfr_mul_ui(E, t, 4, MPFR_RNDN);
        mpfr_div(E, E, m, MPFR_RNDN);
        for (size_t j = 0; j < c->count; j++) {
            mpfr_mul(lam[j], m, eta, MPFR_RNDN);
            mpfr_mul_ui(lam[j], lam[j], c->K[j], MPFR_RNDN);
        }
    } else {
        dec(R, c->R), dec(C, c->C_lsi);
        cap(cb, R, eta, M, h);
        cap(ct, R, eta, M, h2);
        mpfr_add(E, ct, h, MPFR_RNDN);
        mpfr_min(E, E, cb, MPFR_RNDN); /* C₀ */
        mpfr_div(E, E, h, MPFR_RNDN);  /* a_∞ */
        mpfr_mul(E, E, t, MPFR_RNDN);
        mpfr_mul(E, E, eta, MPFR_RNDN);
        mpfr_mul_2ui(E, E, 1, MPFR_RNDN);
        for (size_t j = 0; j < c->count; j++) {
            mpfr_set_ui(lam[j], 0, MPFR_RNDN);
            for (unsigned long k = 0; k < c->K[j]; k++) {
                mpfr_div(t, h2, C, MPFR_RNDN);
                mpfr_log1p(t, t, MPFR_RNDN);
                mpfr_add(lam[j], lam[j], t, MPFR_RNDN);
                mpfr_add(C, C, h2, MPFR_RNDN);
                mpfr_min(C, C, ct, MPFR_RNDN);
            }
        }
    }
    mpfr_clears(n, m, L, M, eta, sg, R, C, h, h2, cb, ct, t, (mpfr_ptr)0);
}

/* F(α) = ε^(s)(α) + B/(α − 1) at α = 1 + e^u, by the recursion in the
 * header written top-down. */
static void oracle_eps_seq(mpfr_ptr out, mpfr_srcptr alpha, size_t j, mpfr_srcptr E,
                           mpfr_t *lam)
{
    mpfr_t a2, v, c, t;
    mpfr_inits2(OB, a2, v, c, t, (mpfr_ptr)0);
    if (j == 1) {
        mpfr_mul(v, alpha, E, MPFR_RNDN);
    } else {
        mpfr_mul_2ui(a2, alpha, 1, MPFR_RNDN);
        oracle_eps_seq(v, a2, j - 1, E, lam);
        mpfr_mul(t, a2, E, MPFR_RNDN);
        mpfr_add(v, v, t, MPFR_RNDN);
        mpfr_sub_d(c, alpha, 0.5, MPFR_RNDN);
        mpfr_sub_ui(t, alpha, 1, MPFR_RNDN);
        mpfr_div(c, c, t, MPFR_RNDN);
        mpfr_mul(v, v, c, MPFR_RNDN);
    }
    mpfr_div(t, lam[j - 1], alpha, MPFR_RNDN);
    mpfr_neg(t, t, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_mul(out, v, t, MPFR_RNDN);
    mpfr_clears(a2, v, c, t, (mpfr_ptr)0);
}

static void oracle_F(mpfr_ptr out, double u, size_t s, mpfr_srcptr E, mpfr_t *lam, mpfr_srcptr B)
{
    mpfr_t a, t;
    mpfr_inits2(OB, a, t, (mpfr_ptr)0);
    mpfr_set_d(t, u, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_add_ui(a, t, 1, MPFR_RNDN);
    oracle_eps_seq(out, a, s, E, lam);
    mpfr_div(t, B, t, MPFR_RNDN);
    mpfr_add(out, out, t, MPFR_RNDN);
    mpfr_clears(a, t, (mpfr_ptr)0);
}

/* The bound: a grid on u = log(α − 1), then golden section. */
static void oracle_bound(mpfr_ptr out, const seq_case *c)
{
    mpfr_t E, B, f1, f2, lam[MAXREQ];
    mpfr_inits2(OB, E, B, f1, f2, (mpfr_ptr)0);
    for (size_t j = 0; j < c->count; j++)
        mpfr_init2(lam[j], OB);
    oracle_consts(c, E, lam);
    dec(B, c->delta);
    mpfr_log(B, B, MPFR_RNDN);
    mpfr_neg(B, B, MPFR_RNDN);
    double best = 0;
    mpfr_set_inf(f2, 1);
    for (double u = -20; u <= 20; u += 0.05) {
        oracle_F(f1, u, c->count, E, lam, B);
        if (mpfr_less_p(f1, f2)) {
            mpfr_set(f2, f1, MPFR_RNDN);
            best = u;
        }
    }
    double lo = best - 0.05, hi = best + 0.05, g = 0.6180339887498949;
    for (int i = 0; i < 200 && hi - lo > 1e-15; i++) {
        double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
        oracle_F(f1, x1, c->count, E, lam, B);
        oracle_F(f2, x2, c->count, E, lam, B);
        if (mpfr_less_p(f1, f2))
            hi = x2;
        else
            lo = x1;
    }
    oracle_F(out, (lo + hi) / 2, c->count, E, lam, B);
    for (size_t j = 0; j < c->count; j++)
        mpfr_clear(lam[j]);
    mpfr_clears(E, B, f1, f2, (mpfr_ptr)0);
}

static char *cert_text(const seq_case *c, const char *eps)
{
    char ks[256] = "";
    size_t o = 0;
    for (size_t j = 0; j < c->count; j++)
        o += (size_t)snprintf(ks + o, sizeof ks - o, "%s%lu", j ? "," : "", c->K[j]);
    char extra[256] = "";
    if (c->convex)
        snprintf(extra, sizeof extra, ",\"R\":\"%s\",\"C_LSI\":\"%s\"", c->R, c->C_lsi);
    else
        snprintf(extra, sizeof extra, ",\"m\":\"%s\"", c->m);
    char eta[64] = "";
    if (c->eta != NULL)
        snprintf(eta, sizeof eta, ",\"eta\":\"%s\"", c->eta);
    char *t = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&t, &len);
    fprintf(f,
            "{\"format\":\"ulaudit-certificate/1\",\"method\":\"langevin\",\"parameters\":{"
            "\"case\":\"%s\",\"n\":%s,\"L\":\"%s\",\"M\":\"%s\",\"sigma\":\"%s\",\"K\":[%s],"
            "\"S\":%lu%s%s},\"claim\":{\"eps\":\"%s\",\"delta\":\"%s\"}}",
            c->convex ? "convex" : "strongly-convex", c->n, c->L, c->M, c->sigma, ks, c->S, eta,
            extra, eps, c->delta);
    fclose(f);
    return t;
}

static ul_verdict audit_verdict(const char *text, ul_audit_report *rep)
{
    char err[1024] = "";
    ul_cert *cert = NULL;
    cr_assert_eq(ul_cert_load_buffer(text, strlen(text), &cert, err, sizeof err), UL_OK, "%s",
                 err);
    ul_num_precision want = {17, 0, 0};
    ul_status st = ul_audit_langevin.audit(cert, &want, rep, err, sizeof err);
    ul_cert_free(cert);
    cr_assert_eq(st, UL_OK, "audit failed: %s\n%s", err, text);
    return rep->verdict;
}

/* bound·(1 + k·1e-9) as decimal text (20 significant digits). */
static void claim_text(char *out, size_t len, mpfr_srcptr bound, int k)
{
    mpfr_t x;
    mpfr_init2(x, OB);
    mpfr_mul_d(x, bound, 1 + k * 1e-9, MPFR_RNDN);
    mpfr_snprintf(out, len, "%.20Re", x);
    mpfr_clear(x);
}

static void check_boundary(const seq_case *c)
{
    mpfr_t b;
    mpfr_init2(b, OB);
    oracle_bound(b, c);
    for (int k = -1; k <= 1; k += 2) {
        char eps[64];
        claim_text(eps, sizeof eps, b, k);
        char *text = cert_text(c, eps);
        ul_audit_report rep;
        ul_verdict v = audit_verdict(text, &rep);
        ul_verdict want = k > 0 ? UL_VERDICT_SUPPORTED : UL_VERDICT_UNSUPPORTED;
        char oracle[64];
        mpfr_snprintf(oracle, sizeof oracle, "%.20Rg", b); /* Criterion's printf has no %R */
        cr_assert_eq(v, want, "oracle %s, claim %s: got %s\n%s\n%s", oracle, eps,
                     ul_verdict_name(v), text, rep.explanation);
        free(text);
    }
    mpfr_clear(b);
}

Test(audit_sequential, strongly_convex_boundary_matches_algorithm_7)
{
    /* the CIFAR-10 setting of Fig. 3b (docs/langevin.md, "Experimental setting"): n = 10000,
     * m = λ = 0.01, L = 0.26, M = 1, η = 1/L, σ = 0.03, b = 5 per request */
    seq_case c = {false, "10000", "0.01", "0.26", "1", NULL, "0.03", NULL, NULL, "1e-4",
                  5,     {40, 12, 9, 7}, 4};
    check_boundary(&c);
    seq_case two = {false, "5000", "0.05", "1", "2", "0.5", "0.2", NULL, NULL, "1e-6",
                    1,     {3, 1},       2};
    check_boundary(&two);
}

Test(audit_sequential, convex_boundary_runs_the_lsi_recursion_across_requests)
{
    seq_case c = {true, "10000", NULL, "1", "1", "0.1", "0.25", "0.01", "0.005", "1e-5",
                  1,    {5, 3, 2},    3};
    check_boundary(&c);
}

Test(audit_sequential, one_request_listed_is_the_single_request)
{
    /* K = [k] is Thm 3.2 alone: the same verdicts as K = k at the boundary */
    seq_case c = {false, "10000", "0.01", "0.26", "1", NULL, "0.0125", NULL, NULL, "1e-4",
                  1,     {1},     1};
    check_boundary(&c);
}

Test(audit_sequential, bad_request_lists_are_refused)
{
    const char *bad[] = {"[]", "[1,-2]", "[1,2.5]", "[\"x\"]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "{\"format\":\"ulaudit-certificate/1\",\"method\":\"langevin\",\"parameters\":{"
                 "\"case\":\"strongly-convex\",\"n\":100,\"m\":\"0.1\",\"L\":1,\"M\":1,"
                 "\"sigma\":\"1\",\"K\":%s},\"claim\":{\"eps\":1,\"delta\":\"1e-5\"}}",
                 bad[i]);
        ul_cert *cert = NULL;
        char err[512] = "";
        ul_status st = ul_cert_load_buffer(text, strlen(text), &cert, err, sizeof err);
        if (st == UL_OK) {
            ul_audit_report rep;
            ul_num_precision want = {17, 0, 0};
            st = ul_audit_langevin.audit(cert, &want, &rep, err, sizeof err);
            ul_cert_free(cert);
        }
        cr_assert_eq(st, UL_EINPUT, "%s accepted", bad[i]);
        cr_assert(strstr(err, "$.parameters.K") != NULL, "%s: '%s'", bad[i], err);
    }
}
