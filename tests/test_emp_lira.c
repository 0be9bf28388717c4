/* tests/test_emp_lira.c — the LiRA score of emp/score.h against closed
 * forms computed here another way: φ from p = e^(−ℓ) directly and by its
 * series at the ends, Gaussian log densities from the density itself, and
 * the fitted moments from a one-pass sum of squares in long double. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "emp/score.h"

TestSuite(emp_lira);

Test(emp_lira, logit_confidence)
{
    /* moderate ℓ: log(p/(1 − p)) straight from p */
    const double ls[] = {0.05, 0.3, 0.6931471805599453, 2, 7};
    for (int i = 0; i < 5; i++) {
        double p = exp(-ls[i]), want = log(p / (1 - p));
        cr_assert(fabs(ul_score_logit_conf(ls[i]) - want) <= 1e-13 * fmax(1, fabs(want)), "loss %g",
                  ls[i]);
    }
    /* ℓ = log 2: p = ½, φ = 0 */
    cr_assert(fabs(ul_score_logit_conf(log(2.0))) < 1e-15);
    /* small ℓ: 1 − e^(−ℓ) = ℓ − ℓ²/2 + …, so φ = −log ℓ − ℓ/2 + O(ℓ²) */
    double l = 1e-10;
    cr_assert(fabs(ul_score_logit_conf(l) - (-log(l) - l / 2)) < 1e-14);
    /* large ℓ: φ = −ℓ − log(1 − e^(−ℓ)) = −ℓ + e^(−ℓ) + … */
    cr_assert(fabs(ul_score_logit_conf(50) - (-50 + exp(-50.0))) < 1e-13);
    cr_assert(isinf(ul_score_logit_conf(0)));
    cr_assert(isnan(ul_score_logit_conf(-1)));
}

static double log_normal_pdf(double x, double mu, double sd)
{
    return log(exp(-0.5 * (x - mu) * (x - mu) / (sd * sd)) / (sd * sqrt(2 * acos(-1.0))));
}

static void moments_ld(const double *x, size_t k, double *mu, double *sd)
{
    long double s = 0, q = 0;
    for (size_t i = 0; i < k; i++)
        s += x[i], q += (long double)x[i] * x[i];
    long double m = s / k;
    *mu = (double)m;
    *sd = (double)sqrtl((q - k * m * m) / (k - 1));
}

Test(emp_lira, online_and_offline_scores)
{
    const double in[] = {2.1, 3.7, 2.9, 4.4, 3.0, 2.2}, out[] = {0.3, -0.8, 1.1, 0.0, -0.2};
    ul_score_lira f;
    char err[256];
    cr_assert_eq(ul_score_lira_fit(&f, 1, in, 6, out, 5, err, sizeof err), UL_OK, "%s", err);
    double mi, si, mo, so;
    moments_ld(in, 6, &mi, &si);
    moments_ld(out, 5, &mo, &so);
    cr_assert(fabs(f.mu_in - mi) < 1e-14 && fabs(f.sd_in - si) < 1e-13);
    cr_assert(fabs(f.mu_out - mo) < 1e-14 && fabs(f.sd_out - so) < 1e-13);
    const double phi[] = {-1.5, 0.2, 1.9, 3.3, 6.0};
    double s[5];
    ul_score_lira_apply(&f, phi, 5, s);
    for (int j = 0; j < 5; j++) {
        double want = log_normal_pdf(phi[j], mi, si) - log_normal_pdf(phi[j], mo, so);
        cr_assert(fabs(s[j] - want) < 1e-12 * fmax(1, fabs(want)), "phi %g: %g vs %g", phi[j], s[j],
                  want);
    }
    /* offline: the OUT z-score only, and phi_in may be absent */
    cr_assert_eq(ul_score_lira_fit(&f, 0, NULL, 0, out, 5, err, sizeof err), UL_OK);
    ul_score_lira_apply(&f, phi, 5, s);
    for (int j = 0; j < 5; j++)
        cr_assert(fabs(s[j] - (phi[j] - mo) / so) < 1e-13);
}

Test(emp_lira, degenerate_and_bad_input)
{
    const double same[] = {1, 1, 1}, out[] = {0, 0.5};
    ul_score_lira f;
    char err[256];
    /* no spread: the floored sd keeps every score finite */
    cr_assert_eq(ul_score_lira_fit(&f, 1, same, 3, out, 2, err, sizeof err), UL_OK);
    double s[2], phi[] = {1, 0.9};
    ul_score_lira_apply(&f, phi, 2, s);
    cr_assert(isfinite(s[0]));
    cr_assert_eq(ul_score_lira_fit(&f, 1, same, 1, out, 2, err, sizeof err), UL_EINPUT);
    cr_assert_not_null(strstr(err, "IN"));
    cr_assert_eq(ul_score_lira_fit(&f, 0, NULL, 0, out, 1, err, sizeof err), UL_EINPUT);
    cr_assert_not_null(strstr(err, "OUT"));
    const double bad[] = {0, INFINITY};
    cr_assert_eq(ul_score_lira_fit(&f, 0, NULL, 0, bad, 2, err, sizeof err), UL_EINPUT);
    cr_assert_not_null(strstr(err, "not finite"));
}
