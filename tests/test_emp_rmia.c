/* tests/test_emp_rmia.c — the RMIA score of emp/score.h (Zarifzadeh, Liu,
 * Shokri, Shokri, ICML 2024): its definition recomputed here in the
 * probability domain (long double, no logarithms of means), its power
 * against offline LiRA on a planted population where models differ in
 * calibration (the case the pairwise ratio is built for) and where they do
 * not, and its validity as input to the certified statistics (identical
 * worlds: false positives of the eps lower bound within the binomial
 * allowance). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emp/rng.h"
#include "emp/score.h"
#include "emp_auc.h"
#include "stats/stats.h"

TestSuite(emp_rmia);

/* Score_MIA by its definition: Pr(x) = (1 + a)/2 · mean Pr(x|θ_r) + (1 − a)/2
 * in probabilities, the fraction of z with LR ≥ γ, plus the documented
 * tie-break (0.5 + atan(mean log LR)/π)/m. */
static double rmia_by_definition(const double *lx_ref, const double *lz_ref, size_t k, size_t m,
                                 double a, double gamma, double lx, const double *lz)
{
    long double px = 0, cnt = 0, sum = 0;
    for (size_t r = 0; r < k; r++)
        px += expl(lx_ref[r]) / k;
    px = (1 + a) / 2 * px + (1 - a) / 2;
    for (size_t i = 0; i < m; i++) {
        long double pz = 0;
        for (size_t r = 0; r < k; r++)
            pz += expl(lz_ref[r * m + i]) / k;
        pz = (1 + a) / 2 * pz + (1 - a) / 2;
        long double lr = (expl(lx) / px) / (expl(lz[i]) / pz);
        cnt += lr >= gamma;
        sum += logl(lr);
    }
    return (double)((cnt + 0.5L + atanl(sum / m) / acosl(-1.0L)) / m);
}

Test(emp_rmia, score_is_its_definition)
{
    const double lx_ref[3] = {-0.9, -1.4, -0.6};
    const double lz_ref[3 * 4] = {-0.2, -2.0, -0.7, -1.1, -0.3, -1.6, -0.9, -0.8,
                                  -0.25, -2.4, -0.5, -1.3};
    const double a_s[3] = {0.0, 0.3, 1.0}, g_s[2] = {1.0, 2.0};
    const double lx[3] = {-0.1, -0.9, -3.0};
    const double lz[3][4] = {{-0.3, -1.8, -0.6, -1.0}, {-0.1, -1.0, -0.2, -0.9},
                             {-0.5, -2.5, -1.2, -1.5}};
    char err[256];
    for (int ai = 0; ai < 3; ai++)
        for (int gi = 0; gi < 2; gi++) {
            ul_score_rmia f;
            cr_assert_eq(ul_score_rmia_fit(&f, lx_ref, lz_ref, 3, 4, a_s[ai], g_s[gi], err,
                                           sizeof err),
                         UL_OK, "%s", err);
            for (int j = 0; j < 3; j++) {
                double got = ul_score_rmia_one(&f, lx[j], lz[j]);
                double want = rmia_by_definition(lx_ref, lz_ref, 3, 4, a_s[ai], g_s[gi], lx[j],
                                                 lz[j]);
                cr_assert(fabs(got - want) < 1e-12, "a %g gamma %g model %d: %.15g vs %.15g",
                          a_s[ai], g_s[gi], j, got, want);
            }
            ul_score_rmia_free(&f);
        }
    /* probabilities far below the double range's exp: a = 1 stays finite */
    const double tiny_ref[2] = {-800, -801}, tiny_z[2] = {-900, -899};
    ul_score_rmia f;
    cr_assert_eq(ul_score_rmia_fit(&f, tiny_ref, tiny_z, 2, 1, 1.0, 1.0, err, sizeof err), UL_OK);
    double lzt = -899.5, s = ul_score_rmia_one(&f, -799, &lzt);
    cr_assert(isfinite(s) && s >= 1, "%g", s); /* LR = e^1.5·… ≥ 1: counted */
    ul_score_rmia_free(&f);
    /* bad input named */
    cr_assert_eq(ul_score_rmia_fit(&f, lx_ref, lz_ref, 0, 4, 0.3, 1, err, sizeof err), UL_EINPUT);
    cr_assert_eq(ul_score_rmia_fit(&f, lx_ref, lz_ref, 3, 4, 1.5, 1, err, sizeof err), UL_EINPUT);
    const double pos[1] = {0.5};
    cr_assert_eq(ul_score_rmia_fit(&f, pos, lz_ref, 1, 1, 0.3, 1, err, sizeof err), UL_EINPUT);
    cr_assert_not_null(strstr(err, "<= 0"));
    ul_score_rmia_free(&f);
}

/* The offline constant a by hand (§3 of the paper): one reference model
 * with Pr(x|θ_r) = 0.2, Pr(z|θ_r) = 0.8, and a model with Pr(x|θ) = 0.3,
 * Pr(z|θ) = 0.6.  Then Pr(x) = (1 + a)/2 · 0.2 + (1 − a)/2 = 0.6 − 0.4a,
 * Pr(z) = (1 + a)/2 · 0.8 + (1 − a)/2 = 0.9 − 0.1a, and
 *     LR(a) = (0.3/Pr(x)) / (0.6/Pr(z)) = (0.9 − 0.1a) / (2(0.6 − 0.4a)),
 * which rises from 0.75 (a = 0) through 1 at a = 3/7 to 2 (a = 1): with
 * γ = 1 the one population record counts for a > 3/7 only.  The score is
 * [LR ≥ γ] + 0.5 + atan(log LR)/π over m = 1 (the documented tie-break). */
Test(emp_rmia, offline_a_moves_the_score_as_the_formula)
{
    const double lx_ref = log(0.2), lz_ref = log(0.8), lx = log(0.3), lz = log(0.6);
    const double a_s[] = {0.05, 0.3, 0.42, 3.0 / 7 - 1e-9, 3.0 / 7 + 1e-9, 0.44, 0.75, 1.0};
    const double g_s[] = {1.0, 0.8, 1.9};
    char err[256];
    double prev = -1;
    for (size_t gi = 0; gi < sizeof g_s / sizeof *g_s; gi++)
        for (size_t ai = 0; ai < sizeof a_s / sizeof *a_s; ai++) {
            double a = a_s[ai], lr = (0.9 - 0.1 * a) / (2 * (0.6 - 0.4 * a));
            double want = ((lr >= g_s[gi]) + 0.5 + atan(log(lr)) / acos(-1.0)) / 1;
            ul_score_rmia f;
            cr_assert_eq(ul_score_rmia_fit(&f, &lx_ref, &lz_ref, 1, 1, a, g_s[gi], err, sizeof err),
                         UL_OK, "%s", err);
            double got = ul_score_rmia_one(&f, lx, &lz);
            ul_score_rmia_free(&f);
            cr_assert(fabs(got - want) < 1e-12, "a %g gamma %g: %.15g vs %.15g", a, g_s[gi], got,
                      want);
            if (g_s[gi] == 1.0) { /* the count flips at a = 3/7; the score rises with a */
                cr_assert_eq(got >= 1, a > 3.0 / 7, "a %g: %g", a, got);
                cr_assert(got > prev, "a %g: %g after %g", a, got, prev);
                prev = got;
            }
        }
    /* a outside [0, 1] and γ ≤ 0 refused by the fit (the configuration
     * narrows a to (0, 1], emp/attack.h) */
    ul_score_rmia f;
    cr_assert_eq(ul_score_rmia_fit(&f, &lx_ref, &lz_ref, 1, 1, -0.1, 1, err, sizeof err),
                 UL_EINPUT);
    cr_assert_eq(ul_score_rmia_fit(&f, &lx_ref, &lz_ref, 1, 1, 0.3, 0, err, sizeof err), UL_EINPUT);
    cr_assert_not_null(strstr(err, "gamma"));
    ul_score_rmia_free(&f);
}

/* ---- a planted population ------------------------------------------------------
 *
 * Model j has a calibration shift c_j ~ N(0, tau²) that moves every logit
 * it outputs; the target's logit is mu_x + c_j + d·[j IN] + e, each
 * population record's mu_i + c_j + e (e ~ N(0, 0.3²)), and Pr(·|θ) =
 * sigmoid(logit).  Offline LiRA on one target ranks runs by the target's
 * logit alone (emp/attack.h), so c_j is noise to it; RMIA compares the
 * target with records that share c_j. */
enum { M_POP = 40 };

typedef struct {
    double tau, d;
    uint32_t seed;
} planted;

static double log_sigmoid(double t)
{
    return t >= 0 ? -log1p(exp(-t)) : t - log1p(exp(t));
}

/* Model j (run number, IN when in) of the planted law: its logits. */
static void model_logits(const planted *pl, uint32_t j, bool in, double *lx_logit, double *lz_logit)
{
    double c = pl->tau * ul_rng_normal(pl->seed, j, 0, 0);
    *lx_logit = 0.5 + c + (in ? pl->d : 0) + 0.3 * ul_rng_normal(pl->seed, j, 1, 0);
    for (size_t i = 0; i < M_POP; i++)
        lz_logit[i] = ul_rng_normal(pl->seed + 1000, 0, 2, i) + c +
                      0.3 * ul_rng_normal(pl->seed, j, 3, i);
}

/* RMIA and offline-LiRA scores of n IN and n OUT planted models with R OUT
 * reference models (run numbers 0 … R − 1; the scored ones follow). */
static void planted_scores(const planted *pl, size_t R, size_t n, double *rmia, double *lira)
{
    double *lx_ref = malloc(R * sizeof *lx_ref), *lz_ref = malloc(R * M_POP * sizeof *lz_ref);
    double *phi_ref = malloc(R * sizeof *phi_ref), lz[M_POP], t;
    for (size_t r = 0; r < R; r++) {
        model_logits(pl, (uint32_t)r, false, &t, lz_ref + r * M_POP);
        phi_ref[r] = t, lx_ref[r] = log_sigmoid(t);
        for (size_t i = 0; i < M_POP; i++)
            lz_ref[r * M_POP + i] = log_sigmoid(lz_ref[r * M_POP + i]);
    }
    ul_score_rmia f;
    ul_score_lira lf;
    char err[256];
    cr_assert_eq(ul_score_rmia_fit(&f, lx_ref, lz_ref, R, M_POP, 0.3, 1.0, err, sizeof err), UL_OK,
                 "%s", err);
    cr_assert_eq(ul_score_lira_fit(&lf, 0, NULL, 0, phi_ref, R, err, sizeof err), UL_OK, "%s",
                 err);
    for (size_t j = 0; j < 2 * n; j++) {
        model_logits(pl, (uint32_t)(R + j), j < n, &t, lz);
        for (size_t i = 0; i < M_POP; i++)
            lz[i] = log_sigmoid(lz[i]);
        rmia[j] = ul_score_rmia_one(&f, log_sigmoid(t), lz);
        ul_score_lira_apply(&lf, &t, 1, lira + j); /* φ = the logit (emp/score.h) */
    }
    ul_score_rmia_free(&f);
    free(lx_ref), free(lz_ref), free(phi_ref);
}

/* Few reference models (2 and 4): with calibration that varies between
 * models RMIA's AUC is well above offline LiRA's; without it, comparable
 * (within 0.03).  Five seeds each. */
Test(emp_rmia, beats_offline_lira_at_few_reference_models)
{
    enum { N = 300 };
    static double rmia[2 * N], lira[2 * N];
    const size_t refs[2] = {2, 4};
    for (uint32_t seed = 1; seed <= 5; seed++)
        for (int k = 0; k < 2; k++) {
            planted shifted = {.tau = 1.5, .d = 1.0, .seed = seed};
            planted_scores(&shifted, refs[k], N, rmia, lira);
            double a_r = auc_pairs(rmia, N, rmia + N, N), a_l = auc_pairs(lira, N, lira + N, N);
            cr_log_info("shifted seed %u R %zu: RMIA %.4f LiRA %.4f", seed, refs[k], a_r, a_l);
            cr_assert(a_r >= a_l + 0.05, "shifted, seed %u, R %zu: RMIA %.4f, LiRA %.4f", seed,
                      refs[k], a_r, a_l);
            planted flat = {.tau = 0, .d = 0.5, .seed = seed};
            planted_scores(&flat, refs[k], N, rmia, lira);
            a_r = auc_pairs(rmia, N, rmia + N, N), a_l = auc_pairs(lira, N, lira + N, N);
            cr_log_info("flat seed %u R %zu: RMIA %.4f LiRA %.4f", seed, refs[k], a_r, a_l);
            cr_assert(a_r >= a_l - 0.03, "flat, seed %u, R %zu: RMIA %.4f, LiRA %.4f", seed,
                      refs[k], a_r, a_l);
        }
}

/* Identical worlds (d = 0): the RMIA scores of held-out runs are i.i.d.
 * across the worlds given the references, so the certified eps lower bound
 * at alpha = 0.05 must be 0 in all but about 5% of 100 seeds; the allowance
 * is the binomial(100, 0.05) 99.9% quantile, 13. */
Test(emp_rmia, valid_input_to_the_certified_bound, .timeout = 300)
{
    enum { N = 100, SEEDS = 100 };
    static double rmia[2 * N], lira[2 * N];
    mpfi_t a, dl;
    mpfi_init2(a, 128), mpfi_init2(dl, 128);
    mpfi_set_d(a, 0.05), mpfi_set_str(dl, "1e-5", 10);
    int refuted = 0;
    char err[256];
    for (uint32_t seed = 1; seed <= SEEDS; seed++) {
        planted null = {.tau = 1.0, .d = 0.0, .seed = 100 + seed};
        planted_scores(&null, 4, N, rmia, lira);
        ul_emp_roc roc;
        ul_status st = ul_emp_roc_compute(&roc, rmia, N, rmia + N, N, a, dl, err, sizeof err);
        cr_assert(st == UL_OK || st == UL_ECAP, "%s", err);
        refuted += mpfr_sgn(roc.eps_lb) > 0;
        ul_emp_roc_clear(&roc);
    }
    cr_log_info("identical worlds: %d of %d seeds certify eps > 0", refuted, SEEDS);
    cr_assert(refuted <= 13, "%d of %d seeds certify eps > 0 between identical worlds", refuted,
              SEEDS);
    mpfi_clear(a), mpfi_clear(dl);
}
