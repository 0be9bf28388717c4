/* tests/test_audit_curve.c — the audit's certified privacy curve
 * (audit/curve.h), issue 27.
 *
 * Every band point of a Gaussian-mechanism certificate must contain the
 * exact privacy profile computed here, independently, in MPFR at 320 bits
 * (Balle & Wang 2018, "Improving the Gaussian mechanism", Thm 8):
 *     δ(ε) = Φ(μ/2 − ε/μ) − e^ε·Φ(−μ/2 − ε/μ),  μ = Δ·√T/σ,
 * with Φ(x) = erfc(−x/√2)/2.  The band at the claim is the report's own
 * enclosure (its decimals read outward, here with strtod and one step out);
 * δ(ε) is non-increasing in ε (a profile's property: Balle & Wang 2018,
 * Thm 5's hockey-stick divergence decreases in ε), so no band point may lie
 * wholly above an earlier one; methods whose audit recomputes no (ε, δ)
 * number have no curve; a time limit or a cancel flag keeps the points done
 * and says why.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "audit/curve.h"
#include "num/deadline.h"
#include "num/progress.h"

TestSuite(audit_curve);

/* A Gaussian mechanism: Δ = 1, σ = 2, one release; μ = 1/2. */
static const char *const GAUSS =
    "{\"format\": \"ulaudit-certificate/1\", \"method\": \"gaussian-mechanism\", "
    "\"parameters\": {\"sensitivity\": 1, \"sigma\": 2, \"compositions\": 1}, "
    "\"claim\": {\"eps\": 1, \"delta\": 1e-5}}";

/* Balle & Wang 2018 Thm 8 at ε (a double, exactly), μ = mu_num/mu_den. */
static double exact_delta(double eps, double mu_num, double mu_den, mpfr_rnd_t rnd)
{
    mpfr_t mu, a, b, t, e;
    mpfr_inits2(320, mu, a, b, t, e, (mpfr_ptr)0);
    mpfr_set_d(mu, mu_num, MPFR_RNDN);
    mpfr_div_d(mu, mu, mu_den, MPFR_RNDN);
    mpfr_set_d(t, eps, MPFR_RNDN);
    mpfr_div(t, t, mu, MPFR_RNDN);      /* ε/μ */
    mpfr_div_2ui(a, mu, 1, MPFR_RNDN);  /* μ/2 */
    mpfr_add(b, a, t, MPFR_RNDN);       /* μ/2 + ε/μ: Φ(−b) = erfc(b/√2)/2 */
    mpfr_sub(a, t, a, MPFR_RNDN);       /* ε/μ − μ/2: Φ(−a) = erfc(a/√2)/2 */
    mpfr_sqrt_ui(e, 2, MPFR_RNDN);
    mpfr_div(a, a, e, MPFR_RNDN);
    mpfr_div(b, b, e, MPFR_RNDN);
    mpfr_erfc(a, a, MPFR_RNDN);
    mpfr_erfc(b, b, MPFR_RNDN);
    mpfr_set_d(e, eps, MPFR_RNDN);
    mpfr_exp(e, e, MPFR_RNDN);
    mpfr_mul(b, b, e, MPFR_RNDN);
    mpfr_sub(a, a, b, MPFR_RNDN);
    mpfr_div_2ui(a, a, 1, MPFR_RNDN);
    double d = mpfr_get_d(a, rnd);
    mpfr_clears(mu, a, b, t, e, (mpfr_ptr)0);
    return d;
}

static ul_audit_report *audit_text(const char *text, const char *path)
{
    ul_audit_report *rep = malloc(sizeof *rep);
    cr_assert_not_null(rep);
    char method[64], err[512];
    ul_num_precision want = {.digits = 17};
    cr_assert_eq(ul_audit_load(path, text, text ? strlen(text) : 0, &want, rep, method,
                               sizeof method, err, sizeof err),
                 UL_OK, "%s", err);
    return rep;
}

static ul_audit_curve *curve_of(const char *text, const char *path, const ul_audit_report *rep,
                                double seconds)
{
    ul_audit_curve *c = malloc(sizeof *c);
    cr_assert_not_null(c);
    char err[512];
    ul_num_precision want = {.digits = 17};
    cr_assert_eq(ul_audit_curve_compute(path, text, text ? strlen(text) : 0, rep, &want, seconds,
                                        c, err, sizeof err),
                 UL_OK, "%s", err);
    return c;
}

/* The certificate audited, then its curve (rep: the audit's report). */
static ul_audit_curve *audited_curve(const char *text, const char *path, double seconds,
                                     ul_audit_report **rep)
{
    *rep = audit_text(text, path);
    return curve_of(text, path, *rep, seconds);
}

/* Every point's band holds the exact δ(ε), with a relative slack of 1e-12
 * (far inside the 6 digits of the grid audits). */
static void check_gaussian_band(const ul_audit_curve *c, double mu_num, double mu_den)
{
    for (size_t i = 0; i < c->n; i++) {
        double lo = exact_delta(c->x[i], mu_num, mu_den, MPFR_RNDD);
        double hi = exact_delta(c->x[i], mu_num, mu_den, MPFR_RNDU);
        cr_expect(c->lo[i] <= lo * (1 + 1e-12) && hi * (1 - 1e-12) <= c->hi[i],
                  "eps %.17g: exact delta %.17g outside [%.17g, %.17g]", c->x[i], lo, c->lo[i],
                  c->hi[i]);
    }
}

/* The report's decimal read as a double one step outward (an enclosure of
 * what the curve's outward reading may give: it is never narrower). */
static double outward(const char *s, double toward)
{
    return nextafter(strtod(s, NULL), toward);
}

Test(audit_curve, gaussian_band_holds_the_exact_profile)
{
    ul_audit_report *rep;
    ul_audit_curve *c = audited_curve(GAUSS, NULL, 0, &rep);
    cr_assert_str_eq(c->x_key, "eps");
    cr_assert_str_eq(c->y_key, "delta");
    cr_assert(c->log_y && !c->log_x);
    cr_assert_geq(c->n, 20, "%zu points (%s)", c->n, c->why);
    cr_expect_eq(c->why[0], '\0', "%s", c->why);
    check_gaussian_band(c, 1.0, 2.0);
    /* from claim/8 to 3× the claim */
    cr_expect(c->x[0] > 0 && c->x[0] <= 0.125 + 1e-12 && c->x[c->n - 1] >= 3 - 1e-12);
    free(c);
    free(rep);
}

Test(audit_curve, corpus_gaussian_band_holds_the_exact_profile)
{
    /* audits/gaussian-rdp-calibrated.json: Δ = 1, σ = 4.530877117, T = 1 */
    const char *path = "audits/gaussian-rdp-calibrated.json";
    ul_audit_report *rep;
    ul_audit_curve *c = audited_curve(NULL, path, 0, &rep);
    cr_assert_geq(c->n, 20, "%zu points (%s)", c->n, c->why);
    check_gaussian_band(c, 1.0, 4.530877117);
    free(c);
    free(rep);
}

Test(audit_curve, band_at_the_claim_is_the_report)
{
    ul_audit_report *rep;
    ul_audit_curve *c = audited_curve(GAUSS, NULL, 0, &rep);
    cr_assert_eq(c->claim_x, 1.0);
    cr_assert_eq(c->claim_y, 1e-5);
    size_t at = c->n;
    for (size_t i = 0; i < c->n; i++)
        if (c->x[i] == 1.0)
            at = i;
    cr_assert_lt(at, c->n, "no point at the claim's eps");
    double lo = strtod(ul_audit_number_lo(&rep->recomputed), NULL);
    double hi = strtod(ul_audit_number_hi(&rep->recomputed), NULL);
    cr_expect(c->lo[at] <= lo && c->lo[at] >= outward(ul_audit_number_lo(&rep->recomputed), 0),
              "%.17g vs %.17g", c->lo[at], lo);
    cr_expect(c->hi[at] >= hi && c->hi[at] <= outward(ul_audit_number_hi(&rep->recomputed), 1),
              "%.17g vs %.17g", c->hi[at], hi);
    free(c);
    free(rep);
}

Test(audit_curve, delta_does_not_increase_with_eps)
{
    ul_audit_report *rep;
    ul_audit_curve *c = audited_curve(GAUSS, NULL, 0, &rep);
    for (size_t i = 0; i + 1 < c->n; i++) {
        cr_expect_lt(c->x[i], c->x[i + 1], "the grid is increasing");
        cr_expect_leq(c->lo[i + 1], c->hi[i], "eps %g: the band rises", c->x[i + 1]);
    }
    free(c);
    free(rep);
}

Test(audit_curve, eps_of_delta_on_a_log_grid)
{
    /* rdp-curve: ε at the claimed δ (Balle et al. 2020 Thm 21 conversion);
     * ε(δ) is non-increasing in δ (the conversion's log(1/δ) term). */
    const char *path = "audits/rdp-curve-tfp-constant-bbghs.json";
    ul_audit_report *rep;
    ul_audit_curve *c = audited_curve(NULL, path, 0, &rep);
    cr_assert_str_eq(c->x_key, "delta");
    cr_assert(c->log_x && !c->log_y);
    cr_assert_geq(c->n, 10, "%s", c->why);
    cr_expect(c->x[0] <= 1e-12 && c->x[c->n - 1] >= 0.1 - 1e-15);
    for (size_t i = 0; i + 1 < c->n; i++)
        cr_expect_leq(c->lo[i + 1], c->hi[i], "delta %g: eps rises", c->x[i + 1]);
    cr_expect(isfinite(c->other_lo[0]), "the Mironov conversion's band beside it");
    free(c);
    free(rep);
}

Test(audit_curve, corrected_and_printed_bands_are_named)
{
    const char *path = "audits/output-perturbation-classic-eps1.json";
    ul_audit_report *rep;
    ul_audit_curve *c = audited_curve(NULL, path, 0, &rep);
    cr_assert_gt(c->n, 0, "%s", c->why);
    cr_expect(strncmp(c->label, "corrected", 9) == 0, "%s", c->label);
    cr_expect(strncmp(c->other_label, "printed", 7) == 0, "%s", c->other_label);
    size_t other = 0;
    for (size_t i = 0; i < c->n; i++)
        other += isfinite(c->other_lo[i]) && c->other_lo[i] <= c->other_hi[i];
    cr_expect_gt(other, 0);
    free(c);
    free(rep);
}

static void expect_no_curve(const char *path, const char *key)
{
    ul_audit_report *rep;
    ul_audit_curve *c = audited_curve(NULL, path, 0, &rep);
    cr_expect_eq(c->n, 0);
    cr_expect(strstr(c->why, key) != NULL && strstr(c->why, "not a privacy curve") != NULL,
              "%s", c->why);
    free(c);
    free(rep);
}

Test(audit_curve, other_keys_have_no_curve)
{
    expect_no_curve("audits/gaussian-renyi-tfp-no-sampling.json", "renyi_value");
    expect_no_curve("audits/d2d-m2-every-fact-stated-add-remove.json", "sigma_needed");
}

Test(audit_curve, a_spent_budget_keeps_the_claim_and_says_why)
{
    ul_audit_report *rep = audit_text(GAUSS, NULL);
    ul_deadline_set(1000);
    ul_audit_curve *c = curve_of(GAUSS, NULL, rep, 1e-9);
    cr_expect_eq(c->n, 1, "only the claim's point (from the report)");
    cr_expect(strstr(c->why, "time limit") != NULL, "%s", c->why);
    cr_expect(strstr(c->why, "1 of ") == c->why, "%s", c->why);
    /* the caller's budget is given back */
    cr_expect_eq(ul_deadline_seconds(), 1000);
    cr_expect_gt(ul_deadline_left(), 900);
    ul_deadline_clear();
    free(c);
    free(rep);
}

Test(audit_curve, a_raised_cancel_flag_stops_it)
{
    ul_audit_report *rep = audit_text(GAUSS, NULL);
    static volatile int cancel = 1;
    ul_deadline_set_cancel(&cancel);
    ul_audit_curve *c = curve_of(GAUSS, NULL, rep, 0);
    ul_deadline_set_cancel(NULL);
    cr_expect_eq(c->n, 1);
    cr_expect(strstr(c->why, "cancelled") != NULL, "%s", c->why);
    cr_expect_eq(ul_deadline_seconds(), 0, "no budget was left behind");
    free(c);
    free(rep);
}

/* The progress hook hears one "privacy curve" task that reaches its total. */
typedef struct {
    long last_done, last_total;
    int ends;
} heard;

static void hear(void *ctx, const char *what, long done, long total, const char *label)
{
    (void)label;
    heard *h = ctx;
    if (strcmp(what, "privacy curve") != 0)
        return;
    if (done == UL_PROGRESS_END) {
        h->ends++;
        return;
    }
    h->last_done = done;
    h->last_total = total;
}

Test(audit_curve, progress_is_reported)
{
    ul_audit_report *rep = audit_text(GAUSS, NULL);
    heard h = {0};
    ul_progress_set(hear, &h);
    ul_audit_curve *c = curve_of(GAUSS, NULL, rep, 0);
    ul_progress_set(NULL, NULL);
    cr_expect_gt(h.last_total, 0);
    cr_expect_eq(h.last_done, h.last_total);
    cr_expect_geq(h.ends, 1);
    /* the grid's points plus the claim (when it is not on the grid) */
    cr_expect(c->n == (size_t)h.last_total || c->n == (size_t)h.last_total + 1, "%zu vs %ld",
              c->n, h.last_total);
    free(c);
    free(rep);
}

Test(audit_curve, an_unreadable_certificate_is_an_input_error)
{
    ul_audit_report *rep = audit_text(GAUSS, NULL);
    ul_audit_curve c;
    char err[256];
    cr_expect_eq(ul_audit_curve_compute(NULL, "{", 1, rep, NULL, 0, &c, err, sizeof err),
                 UL_EINPUT);
    cr_expect_eq(c.n, 0);
    free(rep);
}
