/* tests/test_emp_lira.c — the LiRA score of emp/score.h against closed
 * forms computed here another way: φ from p = e^(−ℓ) directly and by its
 * series at the ends, Gaussian log densities from the density itself, and
 * the fitted moments from a one-pass sum of squares in long double. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "emp/score.h"
#include "emp_auc.h"
#include "stats/stats.h"

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

/* The ROC of stats/stats.h on separable scores: AUC 1 (also by pairs), a
 * positive eps bound, and a finite threshold of the expected size. */
static void expect_perfect_roc(const double *in, size_t n_in, const double *out, size_t n_out,
                               double max_abs_threshold)
{
    cr_assert_float_eq(auc_pairs(in, n_in, out, n_out), 1.0, 0);
    ul_emp_roc roc;
    mpfi_t a, d;
    mpfi_init2(a, 128), mpfi_init2(d, 128);
    mpfi_set_d(a, 0.05), mpfi_set_d(d, 1e-5);
    char err[256];
    ul_status st = ul_emp_roc_compute(&roc, in, n_in, out, n_out, a, d, err, sizeof err);
    cr_assert(st == UL_OK || st == UL_ECAP, "%s", err);
    cr_assert_float_eq(roc.auc, 1.0, 0);
    cr_assert(mpfr_sgn(roc.eps_lb) > 0);
    cr_assert(isfinite(roc.threshold) && fabs(roc.threshold) <= max_abs_threshold, "threshold %g",
              roc.threshold);
    ul_emp_roc_clear(&roc);
    mpfi_clear(a), mpfi_clear(d);
}

/* Issue 30: perfectly separable runs (each world's statistic constant, as a
 * noiseless learner gives) are the strongest evidence.  With σ = 0 floored at
 * gap/8 (emp/score.h), the online score at a world's mean is, from the
 * Gaussian densities themselves, ±0.5·8² = ±32: AUC 1 and thresholds of that
 * size (a 1e-12 floor gave ±1e19..1e25). */
Test(emp_lira, separable_worlds_rank_apart_with_finite_scores)
{
    enum { K = 16 };
    double in[K], out[K];
    for (int i = 0; i < K; i++)
        in[i] = 3.0, out[i] = -1.0;
    ul_score_lira f;
    char err[256];
    cr_assert_eq(ul_score_lira_fit(&f, 1, in, K, out, K, err, sizeof err), UL_OK, "%s", err);
    cr_assert_float_eq(f.sd_in, 0.5, 1e-15); /* gap 4, /8 */
    cr_assert_float_eq(f.sd_out, 0.5, 1e-15);
    double s_in[K], s_out[K];
    ul_score_lira_apply(&f, in, K, s_in);
    ul_score_lira_apply(&f, out, K, s_out);
    double want = log_normal_pdf(3, 3, 0.5) - log_normal_pdf(3, -1, 0.5);
    cr_assert(fabs(want - 32) < 1e-12 && fabs(s_in[0] - want) < 1e-12, "%g vs %g", s_in[0], want);
    cr_assert(fabs(s_out[0] + 32) < 1e-12, "%g", s_out[0]);
    expect_perfect_roc(s_in, K, s_out, K, 32);

    /* one world constant, the other spread: the floor is max(gap, σ_other)/8
     * and the ranking still puts the constant world's value on top */
    double spread[K];
    for (int i = 0; i < K; i++)
        spread[i] = -1.0 + 0.25 * (i - 7.5) / 7.5; /* in [-1.25, -0.75] */
    cr_assert_eq(ul_score_lira_fit(&f, 1, in, K, spread, K, err, sizeof err), UL_OK, "%s", err);
    cr_assert_float_eq(f.sd_in, 0.5, 1e-15);
    ul_score_lira_apply(&f, in, K, s_in);
    ul_score_lira_apply(&f, spread, K, s_out);
    expect_perfect_roc(s_in, K, s_out, K, 1e3);

    /* offline: a constant OUT world has σ = 1, the scores φ − μ_out */
    cr_assert_eq(ul_score_lira_fit(&f, 0, NULL, 0, out, K, err, sizeof err), UL_OK, "%s", err);
    cr_assert_float_eq(f.sd_out, 1.0, 0);
    ul_score_lira_apply(&f, in, K, s_in);
    ul_score_lira_apply(&f, out, K, s_out);
    cr_assert_float_eq(s_in[0], 4.0, 1e-15);
    cr_assert_float_eq(s_out[0], 0.0, 1e-15);
    expect_perfect_roc(s_in, K, s_out, K, 4);

    /* no gap and no spread: no evidence, every score 0 */
    cr_assert_eq(ul_score_lira_fit(&f, 1, out, K, out, K, err, sizeof err), UL_OK, "%s", err);
    ul_score_lira_apply(&f, in, 1, s_in);
    cr_assert_float_eq(s_in[0], 0.0, 0);
}

/* The parameter-space score on constant worlds: each coordinate whose
 * means differ contributes ±0.5·8² = ±32 at the fitted means (the Gaussian
 * log ratio with variance (gap/8)²), a coordinate equal in both worlds 0. */
Test(emp_lira, separable_parameters_give_auc_one)
{
    enum { P = 3, K = 32 };
    const double a[P] = {0.7, -2.0, 5.0}, b[P] = {0.2, -2.0, 4.0}; /* coordinate 1 equal */
    double Wi[P * K], Wo[P * K];
    for (int j = 0; j < K; j++)
        for (int q = 0; q < P; q++)
            Wi[j * P + q] = a[q], Wo[j * P + q] = b[q];
    ul_score_lr lr;
    char err[256];
    cr_assert_eq(ul_score_lr_fit(&lr, Wi, K / 2, Wo, K / 2, P, err, sizeof err), UL_OK, "%s", err);
    double s_in[K / 2], s_out[K / 2];
    ul_score_lr_apply(&lr, Wi + P * K / 2, K / 2, s_in);
    ul_score_lr_apply(&lr, Wo + P * K / 2, K / 2, s_out);
    double want = 0;
    for (int q = 0; q < P; q++) {
        double gap = a[q] - b[q];
        if (gap != 0)
            want += log_normal_pdf(a[q], a[q], fabs(gap) / 8) - log_normal_pdf(a[q], b[q], fabs(gap) / 8);
    }
    cr_assert(fabs(want - 64) < 1e-9, "%g", want);
    for (int j = 0; j < K / 2; j++) {
        cr_assert(fabs(s_in[j] - want) < 1e-9, "%g vs %g", s_in[j], want);
        cr_assert(fabs(s_out[j] + want) < 1e-9, "%g vs %g", s_out[j], -want);
    }
    expect_perfect_roc(s_in, K / 2, s_out, K / 2, 64 + 1e-9);
    ul_score_lr_free(&lr);
}
