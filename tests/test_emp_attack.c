/* tests/test_emp_attack.c — the unlearning game, the attack statistics and
 * the verdict: plans against their definition, determinism across thread
 * counts and checkpoints, a non-private learner refuted, identical worlds
 * not refuted more often than α, ceilings against closed forms. */
#include <cblas.h>
#include <criterion/criterion.h>
#include <math.h>
#include <nettle/sha2.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cert/cert.h"
#include "emp/attack.h"
#include "emp/experiment.h"
#include "emp/learner.h"
#include "emp/modelio.h"
#include "emp/rng.h"
#include "emp_auc.h"
#include "stats/eps_lb.h"
#include "test_emp_files.h"

TestSuite(emp_attack);

static ul_dataset synthetic(size_t n, size_t d, uint32_t seed)
{
    ul_dataset raw = {0}, ds = {0};
    char err[256];
    cr_assert_eq(ul_data_synthetic(n, d, 2.0, seed, &raw, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_data_select_binary(&raw, 1, 0, UL_LABELS_PM1, &ds, err, sizeof err), UL_OK,
                 "%s", err);
    ul_dataset_free(&raw);
    ul_data_normalize_rows(&ds);
    return ds;
}

static ul_exp_design design(double sigma)
{
    ul_exp_design de = {
        .algorithm = UL_EXP_PNGD,
        .model = ul_logreg_model(0.05, 1.0),
        .eta = 1.0 / 0.3,
        .sigma = sigma,
        .radius = 20,
        .train_sigma = 0,
        .unlearn_clip = INFINITY,
        .init_mean = 0,
        .init_std = 0.1,
        .train_steps = 30,
        .unlearn_steps = 5,
        .requests = 1,
        .batch = 1,
        .edit = UL_EXP_REPLACE,
        .reference = UL_EXP_REF_RETRAIN,
        .normalized = true,
        .seed = 11,
    };
    return de;
}

static bool rows_equal(const ul_dataset *a, size_t i, const ul_dataset *b, size_t j)
{
    return a->y[i] == b->y[j] &&
           memcmp(a->x + i * a->d, b->x + j * b->d, a->d * sizeof(double)) == 0;
}

/* ---- plans ------------------------------------------------------------------ */

Test(emp_attack, replace_plan_edits_exactly_the_request_rows)
{
    ul_exp_design de = design(0.1);
    de.requests = 3, de.batch = 4;
    ul_dataset D = synthetic(50, 6, 1);
    ul_exp_plan plan;
    char err[256];
    cr_assert_eq(ul_exp_plan_build(&plan, &de, &D, 17, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(plan.rows[0], 17u);
    /* all 12 rows distinct */
    for (size_t a = 0; a < 12; a++)
        for (size_t b = a + 1; b < 12; b++)
            cr_assert_neq(plan.rows[a], plan.rows[b]);
    for (size_t s = 0; s < 3; s++) {
        const ul_dataset *prev = s ? &plan.after[s - 1] : &plan.data;
        const ul_dataset *cur = &plan.after[s];
        cr_assert_eq(cur->n, 50u);
        for (size_t i = 0; i < 50; i++) {
            bool edited = false;
            for (size_t k = 0; k < 4; k++)
                edited |= plan.rows[s * 4 + k] == i;
            if (edited) {
                cr_assert(!rows_equal(prev, i, cur, i), "request %zu row %zu unchanged", s, i);
                double nrm = cblas_dnrm2(6, cur->x + i * 6, 1);
                cr_assert_float_eq(nrm, 1.0, 1e-12); /* replacements scaled like the data */
                cr_assert(cur->y[i] == 1 || cur->y[i] == -1);
            } else {
                cr_assert(rows_equal(prev, i, cur, i), "request %zu touched row %zu", s, i);
            }
        }
    }
    ul_exp_plan_free(&plan);
}

Test(emp_attack, remove_plan_drops_the_rows_in_order)
{
    ul_exp_design de = design(0.1);
    de.edit = UL_EXP_REMOVE, de.requests = 2, de.batch = 3;
    ul_dataset D = synthetic(40, 5, 2);
    ul_exp_plan plan;
    char err[256];
    cr_assert_eq(ul_exp_plan_build(&plan, &de, &D, 0, err, sizeof err), UL_OK, "%s", err);
    for (size_t s = 0; s < 2; s++) {
        const ul_dataset *cur = &plan.after[s];
        cr_assert_eq(cur->n, 40 - 3 * (s + 1));
        /* the kept rows are D's rows that no request so far removed, in order */
        size_t k = 0;
        for (size_t i = 0; i < 40; i++) {
            bool gone = false;
            for (size_t r = 0; r < 3 * (s + 1); r++)
                gone |= plan.rows[r] == i;
            if (!gone) {
                cr_assert(rows_equal(&plan.data, i, cur, k), "row %zu misplaced", i);
                k++;
            }
        }
        cr_assert_eq(k, cur->n);
    }
    ul_exp_plan_free(&plan);
}

Test(emp_attack, plan_refuses_bad_requests)
{
    ul_exp_design de = design(0.1);
    char err[256];
    ul_exp_plan plan;
    ul_dataset D = synthetic(10, 3, 3);
    de.batch = 10; /* 10 edits of 10 rows: nothing left */
    cr_assert_eq(ul_exp_plan_build(&plan, &de, &D, 0, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "fewer than n"), "%s", err);
    cr_assert_null(D.x); /* ownership taken even on failure */
    D = synthetic(10, 3, 3);
    de.batch = 1;
    cr_assert_eq(ul_exp_plan_build(&plan, &de, &D, 10, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "target"), "%s", err);
    D = synthetic(10, 3, 3);
    de.requests = 0;
    cr_assert_eq(ul_exp_plan_build(&plan, &de, &D, 1, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "requests"), "%s", err);
}

/* The adversarial target is the row of largest clipped gradient norm at the
 * pilot model: check against a brute-force search with the same pilot. */
Test(emp_attack, adversarial_target_has_largest_gradient)
{
    ul_exp_design de = design(0.1);
    ul_dataset D = synthetic(60, 4, 4);
    /* plant an outlier: row 33 becomes a far point of the wrong class */
    for (size_t k = 0; k < 4; k++)
        D.x[33 * 4 + k] = -D.x[33 * 4 + k];
    size_t t;
    char err[256];
    cr_assert_eq(ul_exp_pick_target(&de, &D, &t, err, sizeof err), UL_OK, "%s", err);
    /* pilot by hand: 30 noiseless projected GD steps from 0 */
    double w[4] = {0};
    ul_pngd_params par = {.eta = de.eta, .sigma = 0, .radius = de.radius, .seed = 1};
    cr_assert_eq(ul_pngd_train(&de.model, &D, &par, 1, 0, 0, 30, w, NULL, NULL, err, sizeof err),
                 UL_OK);
    double best = -1;
    for (size_t i = 0; i < D.n; i++) {
        double z = 0, nx = 0;
        for (size_t k = 0; k < 4; k++)
            z += w[k] * D.x[i * 4 + k], nx += D.x[i * 4 + k] * D.x[i * 4 + k];
        double g = fabs(D.y[i] / (1 + exp(D.y[i] * z))) * sqrt(nx); /* |σ(−yz)|·‖x‖, clip 1 */
        if (g > 1)
            g = 1;
        best = fmax(best, g);
    }
    double z = 0, nx = 0;
    for (size_t k = 0; k < 4; k++)
        z += w[k] * D.x[t * 4 + k], nx += D.x[t * 4 + k] * D.x[t * 4 + k];
    double gt = fmin(1.0, fabs(D.y[t] / (1 + exp(D.y[t] * z))) * sqrt(nx));
    cr_assert_float_eq(gt, best, 1e-12, "target %zu has %g, best %g", t, gt, best);
    ul_dataset_free(&D);
}

/* ---- determinism ------------------------------------------------------------- */

/* Big enough that the learner and the model take their threaded paths
 * (M·p and n·M ≥ UL_EMP_PARALLEL_MIN). */
static void run_with_threads(int threads, double *W_in, double *W_out, size_t M)
{
    ul_exp_design de = design(0.2);
    de.train_steps = 8, de.unlearn_steps = 3;
    ul_dataset D = synthetic(400, 256, 5);
    ul_exp_plan plan;
    char err[256];
    cr_assert_eq(ul_exp_plan_build(&plan, &de, &D, 3, err, sizeof err), UL_OK, "%s", err);
    omp_set_num_threads(threads);
    openblas_set_num_threads(threads);
    cr_assert_eq(ul_exp_run(&de, &plan, 0, M, W_in, W_out, err, sizeof err), UL_OK, "%s", err);
    omp_set_num_threads(omp_get_num_procs());
    openblas_set_num_threads(omp_get_num_procs());
    ul_exp_plan_free(&plan);
}

Test(emp_attack, one_and_two_threads_give_identical_bits)
{
    size_t M = 128, p = 256;
    cr_assert_geq(M * p, (size_t)UL_EMP_PARALLEL_MIN);
    double *a = malloc(4 * M * p * sizeof *a);
    cr_assert_not_null(a);
    double *a_in = a, *a_out = a + M * p, *b_in = a + 2 * M * p, *b_out = a + 3 * M * p;
    run_with_threads(1, a_in, a_out, M);
    run_with_threads(2, b_in, b_out, M);
    cr_assert_eq(memcmp(a_in, b_in, M * p * sizeof *a), 0, "IN models differ");
    cr_assert_eq(memcmp(a_out, b_out, M * p * sizeof *a), 0, "OUT models differ");
    /* and the worlds are not trivially equal */
    cr_assert_neq(memcmp(a_in, a_out, M * p * sizeof *a), 0);
    free(a);
}

Test(emp_attack, chunks_agree_with_one_batch)
{
    ul_exp_design de = design(0.3);
    ul_dataset D = synthetic(80, 6, 6);
    ul_exp_plan plan;
    char err[256];
    cr_assert_eq(ul_exp_plan_build(&plan, &de, &D, 5, err, sizeof err), UL_OK, "%s", err);
    size_t p = 6, M = 8;
    double one_in[48], one_out[48], two_in[48], two_out[48];
    cr_assert_eq(ul_exp_run(&de, &plan, 0, M, one_in, one_out, err, sizeof err), UL_OK);
    cr_assert_eq(ul_exp_run(&de, &plan, 0, 4, two_in, two_out, err, sizeof err), UL_OK);
    cr_assert_eq(ul_exp_run(&de, &plan, 4, 4, two_in + 4 * p, two_out + 4 * p, err, sizeof err),
                 UL_OK);
    /* BLAS may sum in another order at another width: agree to rounding */
    for (size_t k = 0; k < M * p; k++) {
        cr_assert_float_eq(one_in[k], two_in[k], 1e-12 * (1 + fabs(one_in[k])));
        cr_assert_float_eq(one_out[k], two_out[k], 1e-12 * (1 + fabs(one_out[k])));
    }
    ul_exp_plan_free(&plan);
}

/* ---- statistics and verdicts ------------------------------------------------------ */

/* P-value of the joint test (stats/eps_lb.h) at perfect separation, k = 0:
 * every one of the n other-world runs is beyond the threshold, F ~
 * Beta(1, n) (density n(1 − f)^(n−1)) and X ~ Bin(n, min(1, e^ε F + δ)),
 * so π(ε) = P[X = n] = ∫₀^f* (e^ε f + δ)^n n(1 − f)^(n−1) df + (1 − f*)^n,
 * f* = (1 − δ)e^(−ε) (beyond f* the rate is 1).  Composite Simpson with
 * 200,000 cells in long double (the integrand is smooth on [0, f*]). */
static double joint_perfect_pvalue(unsigned n, double eps, double delta)
{
    const int cells = 200000;
    long double fs = (1 - (long double)delta) * expl(-eps), h = fs / cells, sum = 0;
    if (fs > 1)
        fs = 1, h = fs / cells;
    for (int c = 0; c <= cells; c++) {
        long double f = c * h, w = (c == 0 || c == cells) ? 1 : (c % 2 ? 4 : 2);
        sum += w * expl(n * logl(expl(eps) * f + delta) + logl(n) + (n - 1) * log1pl(-f));
    }
    return (double)(sum * h / 3 + powl(1 - fs, n));
}

/* The largest ε with π(ε) ≤ level (π increases in ε), by bisection. */
static double joint_perfect_eps(unsigned n, double delta, double level)
{
    double lo = 0, hi = 30;
    for (int it = 0; it < 60; it++) {
        double mid = 0.5 * (lo + hi);
        if (joint_perfect_pvalue(n, mid, delta) <= level)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* A learner without noise and a point start: every IN model is the same
 * vector and every OUT model another, so the loss score separates the
 * worlds perfectly.  The ε bound is the joint test (stats/eps_lb.h) on the
 * grid K(200) = {0, 1, 4, 16, 64} (k_{i+1} = max(k_i + 1, ⌊4 k_i⌋) below
 * n = 200), forward and reversed: m = 10 tests, with geometric weights
 * 1/4, 1/8, 1/16, 1/32, 1/32 per direction (2^−(i+1), the last 2^−(L−1),
 * halved for two sides), so k = 0 runs at α' = (α/2 scores)/4.  At perfect
 * separation the best test is k = 0 (a larger k only makes F
 * stochastically larger, and its level is smaller), whose exact p-value is
 * the integral above; the certified bound must lie below its root (validity) and
 * within 2 % of it (the certificate's upper Riemann–Stieltjes sum on 120
 * points).  The advantage interval pays for every distinct score (2 here):
 * both CP bounds at k = 0 give 1 − 2f̄, f̄ = 1 − (α/2/(2·2))^(1/n). */
Test(emp_attack, nonprivate_learner_is_refuted)
{
    ul_exp_design de = design(0);
    de.init_std = 0;
    ul_dataset D = synthetic(60, 5, 7);
    ul_exp_plan plan;
    char err[256];
    cr_assert_eq(ul_exp_plan_build(&plan, &de, &D, 2, err, sizeof err), UL_OK, "%s", err);
    size_t M = 200, p = 5;
    double *W = malloc(2 * M * p * sizeof *W);
    cr_assert_eq(ul_exp_run(&de, &plan, 0, M, W, W + M * p, err, sizeof err), UL_OK, "%s", err);
    ul_attack_scoring sc = {.model = &de.model,
                            .x = plan.data.x + 2 * 5,
                            .d = 5,
                            .y = plan.data.y[2],
                            .scores = UL_SCORE_LOSS | UL_SCORE_LR,
                            .alpha = "0.05",
                            .eps = "1",
                            .delta = "1e-5",
                            .renyi_order = "",
                            .renyi_value = ""};
    ul_attack_result res;
    cr_assert_eq(ul_attack_score_models(&res, &sc, W, M, W + M * p, M, p, err, sizeof err), UL_OK,
                 "%s", err);
    cr_assert_str_eq(res.verdict, "refuted");
    const ul_attack_score *s = &res.score[0];
    cr_assert_str_eq(s->name, "loss");
    cr_assert_eq(s->roc.n_thresholds, 10u);
    double expect = joint_perfect_eps((unsigned)M, 1e-5, 0.05 / 2 / 4);
    double got = mpfr_get_d(s->roc.eps_lb, MPFR_RNDN);
    cr_assert(got <= expect + 1e-9 && got >= expect * 0.98, "eps_lb %g, exact root %g", got,
              expect);
    cr_assert(got > 3.5, "a non-private learner should show a large eps (%g)", got);
    /* the perfect rule: no false positive, no false negative */
    cr_assert_eq(s->roc.fp, 0u);
    cr_assert_eq(s->roc.fn, 0u);
    /* advantage: TPR 1, FPR 0, each end a Clopper-Pearson bound at 0 (or n) of
     * n in closed form, 1 - level^(1/n), at alpha/2 (two scores) spread over
     * the 2(n_in + n_out + 2) bounds of the order-statistic family */
    double f = 1 - pow(0.05 / 2 / (2.0 * (2 * M + 2)), 1.0 / (double)M);
    cr_assert_float_eq(s->advantage, 1.0, 0);
    double lo = mpfr_get_d(s->adv_lo, MPFR_RNDN);
    cr_assert(lo <= 1 - 2 * f + 1e-9 && lo >= 1 - 2 * f - 1e-4, "adv_lo %g vs %g", lo, 1 - 2 * f);
    /* issue 30: without noise every model of a world is the same vector, the
     * pooled variance is 0 in every coordinate and the worlds' means differ:
     * a perfect separation, which the gaussian-lr score must show (it gave
     * AUC 0.5, weight 0 everywhere): AUC 1, the perfect rule, the same bound
     * as a perfect separation of its M/2 + M/2 held-out runs, and a finite
     * threshold of the size the floor (gap/8: 0.5·8² = 32 per coordinate,
     * emp/score.h) gives */
    const ul_attack_score *g = &res.score[1];
    cr_assert_str_eq(g->name, "gaussian-lr");
    cr_assert_float_eq(g->roc.auc, 1.0, 0);
    cr_assert_eq(g->roc.fp, 0u);
    cr_assert_eq(g->roc.fn, 0u);
    double g_expect = joint_perfect_eps((unsigned)M / 2, 1e-5, 0.05 / 2 / 4);
    double g_got = mpfr_get_d(g->roc.eps_lb, MPFR_RNDN);
    cr_assert(g_got <= g_expect + 1e-9 && g_got >= g_expect * 0.98, "eps_lb %g, exact root %g",
              g_got, g_expect);
    cr_assert(isfinite(g->roc.threshold) && fabs(g->roc.threshold) <= 32.0 * (double)p + 1e-6,
              "threshold %g", g->roc.threshold);
    ul_attack_result_clear(&res);
    free(W);
    ul_exp_plan_free(&plan);
}

/* TPR at FPR level l says something only when one false positive is at
 * most l of the OUT runs, n_out·l ≥ 1: with 200 OUT runs the level 1e-3
 * is "n/a" in the text and null in the JSON, 1e-2 and 1e-1 are numbers;
 * with 1000 OUT runs every level is a number. */
Test(emp_attack, tpr_at_low_fpr_needs_enough_out_runs)
{
    size_t n_out[2] = {200, 1000};
    for (int c = 0; c < 2; c++) {
        size_t n = n_out[c];
        double *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (double)i + 0.5, out[i] = (double)i; /* interleaved: AUC about 1/2 */
        ul_attack_scoring sc = {
            .alpha = "0.05", .eps = "", .delta = "", .renyi_order = "", .renyi_value = ""};
        ul_attack_values v = {.loss_in = in, .loss_out = out, .n_in = n, .n_out = n};
        ul_attack_result res;
        char err[256];
        cr_assert_eq(ul_attack_score_values(&res, &sc, &v, 1, err, sizeof err), UL_OK, "%s", err);
        char *text = ul_attack_result_text(&res), *json = ul_attack_result_json(&res);
        cr_assert(text && json);
        bool na = n < 1000;
        cr_assert_eq(strstr(text, "1e-1: n/a / 0.") != NULL, na, "%s", text);
        cr_assert_eq(strstr(text, "n/a") != NULL, na, "%s", text); /* only that level */
        cr_assert_eq(strstr(json, "\"0.001\":null") != NULL, na, "%s", json);
        cr_assert(strstr(json, "\"0.01\":null") == NULL && strstr(json, "\"0.1\":null") == NULL);
        free(text), free(json);
        ul_attack_result_clear(&res);
        free(in), free(out);
    }
}

/* IN and OUT models from the same law: the attack must not refute even the
 * strictest claim (ε, δ) = (0, 0) more often than α.  200 independent
 * experiments of 64 + 64 models; with α = 0.1 the count of refutations is
 * at most Bin(200, 0.1); P[Bin(200, 0.1) ≥ 32] < 0.01, so 32 or more would
 * mean the bounds are not valid. */
Test(emp_attack, identical_worlds_rarely_refuted, .timeout = 120)
{
    size_t M = 64, p = 3, refuted = 0, trials = 200;
    double *W = malloc(2 * M * p * sizeof *W);
    for (size_t t = 0; t < trials; t++) {
        ul_rng_normals(1000 + (uint32_t)t, 0, 0, 0, 2 * M * p, W);
        double x[3] = {0.6, 0.0, 0.8};
        ul_model m = ul_logreg_model(0, INFINITY);
        ul_attack_scoring sc = {.model = &m,
                                .x = x,
                                .d = 3,
                                .y = 1,
                                .scores = UL_SCORE_LOSS | UL_SCORE_LR,
                                .alpha = "0.1",
                                .eps = "0",
                                .delta = "0",
                                .renyi_order = "",
                                .renyi_value = ""};
        ul_attack_result res;
        char err[256];
        cr_assert_eq(ul_attack_score_models(&res, &sc, W, M, W + M * p, M, p, err, sizeof err),
                     UL_OK, "%s", err);
        refuted += strcmp(res.verdict, "refuted") == 0;
        ul_attack_result_clear(&res);
    }
    free(W);
    cr_assert_lt(refuted, 32u, "%zu of %zu false refutations", refuted, trials);
}

/* The (ε, δ) advantage ceiling (e^ε − 1 + 2δ)/(e^ε + 1) by hand: ε = ln 3,
 * δ = 0 gives 1/2; δ = 0.1 gives 0.55.  The Rényi ceiling is Thm 4.1:
 * at q = 2, ε = 0.02 the first term √(2ε) = 0.2 and the second
 * 2·e^{0.01}·√2 − 1 ≈ 1.857 (Chourasia & Shah 2023, eq. 10, so 0.2. */
Test(emp_attack, advantage_ceilings)
{
    double W[4 * 4];
    for (int k = 0; k < 16; k++)
        W[k] = k % 5;
    struct {
        const char *eps, *delta, *q, *v;
        double want;
    } cases[] = {
        {"1.0986122886681098", "0", "", "", 0.5},
        {"1.0986122886681098", "0.1", "", "", 0.55},
        {"", "", "2", "0.02", 0.2},
    };
    for (size_t i = 0; i < 3; i++) {
        ul_attack_scoring sc = {.scores = UL_SCORE_LR,
                                .alpha = "0.05",
                                .eps = cases[i].eps,
                                .delta = cases[i].delta,
                                .renyi_order = cases[i].q,
                                .renyi_value = cases[i].v};
        ul_attack_result res;
        char err[256];
        cr_assert_eq(ul_attack_score_models(&res, &sc, W, 4, W + 8, 4, 2, err, sizeof err), UL_OK,
                     "%s", err);
        double c = mpfr_get_d(res.ceiling, MPFR_RNDN);
        cr_assert(c >= cases[i].want && c <= cases[i].want + 1e-12, "case %zu: %.17g", i, c);
        ul_attack_result_clear(&res);
    }
}

/* ---- checkpoints ------------------------------------------------------------------- */

static const char *CONFIG_TEXT =
    "{\"format\": \"ulaudit-attack/1\","
    " \"data\": {\"source\": \"synthetic\", \"n\": 40, \"d\": 4, \"seed\": 2},"
    " \"model\": {\"type\": \"logreg\", \"lambda\": \"0.1\", \"clip\": 1},"
    " \"learner\": {\"sigma\": \"0.1\", \"train_steps\": 20, \"unlearn_steps\": 3},"
    " \"runs\": 24, \"chunk\": 8, \"seed\": 4, \"target\": 5}";

static char *write_temp(const char *text)
{
    char *path = strdup("/tmp/ul-attack-cfg-XXXXXX");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

/* Runs every chunk of a fresh state of cfg_path. */
static void run_all(ul_attack_state *s)
{
    char err[512];
    while (s->next < s->c1)
        cr_assert_eq(ul_attack_step(s, err, sizeof err), UL_OK, "%s", err);
}

/* The scores of a finished state (emp/shard.h), loss then LR arrays. */
static void scores_of(ul_attack_state *s, double **loss, double **lr)
{
    char err[512];
    cr_assert_eq(ul_shard_scores(&s->log, loss, lr, err, sizeof err), UL_OK, "%s", err);
    cr_assert(*loss && *lr);
}

Test(emp_attack, checkpoint_resumes_bit_identically)
{
    char *cfg_path = write_temp(CONFIG_TEXT);
    char ck[] = "/tmp/ul-attack-ckpt-XXXXXX";
    int fd = mkstemp(ck);
    close(fd);
    char err[512];
    ul_attack_config c1, c2;
    ul_attack_state s1, s2;
    cr_assert_eq(ul_attack_config_load(cfg_path, &c1, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_attack_prepare(&s1, &c1, err, sizeof err), UL_OK, "%s", err);
    run_all(&s1); /* s1: all at once, no file */
    /* s2: one chunk appended to a checkpoint, then a fresh state resumes */
    cr_assert_eq(ul_attack_config_load(cfg_path, &c2, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_attack_prepare(&s2, &c2, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_attack_checkpoint_start(&s2, ck, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_attack_step(&s2, err, sizeof err), UL_OK);
    cr_assert_eq(s2.done, 8u);
    ul_attack_state_free(&s2);
    ul_attack_config_free(&c2);
    cr_assert_eq(ul_attack_config_load(cfg_path, &c2, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_attack_prepare(&s2, &c2, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_attack_checkpoint_load(&s2, ck, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s2.done, 8u);
    run_all(&s2);
    double *l1, *r1, *l2, *r2;
    scores_of(&s1, &l1, &r1);
    scores_of(&s2, &l2, &r2);
    cr_assert_eq(memcmp(l1, l2, 2 * 24 * sizeof *l1), 0, "loss scores differ after resuming");
    cr_assert_eq(memcmp(r1, r2, 2 * 12 * sizeof *r1), 0, "LR scores differ after resuming");
    free(l1), free(r1), free(l2), free(r2);
    ul_attack_state_free(&s2);
    ul_attack_config_free(&c2);

    /* a checkpoint of another configuration is refused */
    char *other =
        write_temp("{\"format\": \"ulaudit-attack/1\","
                   " \"data\": {\"source\": \"synthetic\", \"n\": 40, \"d\": 4, \"seed\": 2},"
                   " \"model\": {\"type\": \"logreg\", \"lambda\": \"0.1\", \"clip\": 1},"
                   " \"learner\": {\"sigma\": \"0.2\", \"train_steps\": 20, \"unlearn_steps\": 3},"
                   " \"runs\": 24, \"chunk\": 8, \"seed\": 4, \"target\": 5}");
    cr_assert_eq(ul_attack_config_load(other, &c2, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_attack_prepare(&s2, &c2, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_attack_checkpoint_load(&s2, ck, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "another configuration"), "%s", err);
    ul_attack_state_free(&s2);
    ul_attack_config_free(&c2);
    ul_attack_state_free(&s1);
    ul_attack_config_free(&c1);
    unlink(cfg_path), unlink(other), unlink(ck);
    free(cfg_path), free(other);
}

/* ---- checkpoints that must be refused (issue 12) ------------------------------------- */

/* The layout of emp/shard.h, written out here independently of shard.c:
 * "ULCKPT03", 64 hex of the configuration, 32 bytes of the data digest,
 * 8 u64 (p, runs, chunk, target, scores, save_models, c0, c1), a SHA-256
 * of the bytes before; then per chunk u64 chunk, u64 kind, the arrays, and
 * a SHA-256 of every byte before it. */
enum { CK_DATA = 72, CK_SHAPE = 104, CK_HEAD = 168, CK_SUM = 32 };

/* The digest at byte offset at := the SHA-256 (nettle, called here
 * directly) of the bytes before it. */
static void seal_at(unsigned char *b, size_t at)
{
    struct sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, at, b);
    sha256_digest(&c, CK_SUM, b + at);
}

/* Both digests of a file of one record (rec bytes, its digest included). */
static void reseal(unsigned char *b, size_t len, size_t rec)
{
    seal_at(b, CK_HEAD);
    cr_assert_eq(len, (size_t)CK_HEAD + CK_SUM + rec);
    seal_at(b, len - CK_SUM);
}

/* The configuration at cfg_path, loaded and prepared. */
static void load_prepared(const char *cfg_path, ul_attack_config *c, ul_attack_state *s)
{
    char err[1024];
    cr_assert_eq(ul_attack_config_load(cfg_path, c, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_attack_prepare(s, c, err, sizeof err), UL_OK, "%s", err);
}

/* Loads ck into a fresh state of cfg_path: refused (UL_EINPUT), the message
 * names the file and `reason`, and nothing is resumed. */
static void expect_refused(const char *cfg_path, const char *ck, const char *reason)
{
    ul_attack_config c;
    ul_attack_state s;
    char err[1024];
    load_prepared(cfg_path, &c, &s);
    cr_assert_eq(ul_attack_checkpoint_load(&s, ck, err, sizeof err), UL_EINPUT,
                 "accepted a checkpoint that should fail with '%s'", reason);
    cr_assert(strstr(err, ck), "'%s' does not name the file", err);
    cr_assert(strstr(err, reason), "'%s' does not say '%s'", err, reason);
    cr_assert_eq(s.done, 0u);
    ul_attack_state_free(&s);
    ul_attack_config_free(&c);
}

/* Loads ck: accepted with `chunks` whole chunks (8 runs each) resumed and
 * `cut` trailing bytes of a cut-off record dropped. */
static void expect_resumed(const char *cfg_path, const char *ck, size_t chunks, long long cut)
{
    ul_attack_config c;
    ul_attack_state s;
    char err[1024];
    load_prepared(cfg_path, &c, &s);
    cr_assert_eq(ul_attack_checkpoint_load(&s, ck, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.done, 8 * chunks);
    cr_assert_eq(s.ckpt_cut, cut, "dropped %lld bytes, not %lld", s.ckpt_cut, cut);
    ul_attack_state_free(&s);
    ul_attack_config_free(&c);
}

Test(emp_attack, checkpoint_layout_and_every_corruption_refused)
{
    char *cfg_path = write_temp(CONFIG_TEXT);
    char ck[] = "/tmp/ul-attack-ckpt-XXXXXX";
    close(mkstemp(ck));
    char err[512];
    ul_attack_config c;
    ul_attack_state s;
    load_prepared(cfg_path, &c, &s);
    cr_assert_eq(ul_attack_checkpoint_start(&s, ck, err, sizeof err), UL_OK, "%s", err);
    size_t head_len;
    free(emp_test_read(ck, &head_len));
    cr_assert_eq(head_len, (size_t)CK_HEAD + CK_SUM, "a fresh checkpoint is its header");
    cr_assert_eq(ul_attack_step(&s, err, sizeof err), UL_OK, "%s", err);
    size_t len, p = s.p;
    unsigned char *good = emp_test_read(ck, &len), *b = malloc(len + 64);
    /* chunk 0 = runs 0..7, all in the fitting half (runs 0..11): 2·8 loss
     * scores and 4·p moments, after the 16 bytes of chunk number and kind */
    size_t rec = 16 + 8 * (2 * 8 + 4 * p) + CK_SUM;
    cr_assert_eq(len, (size_t)CK_HEAD + CK_SUM + rec);
    cr_assert_eq(memcmp(good, "ULCKPT03", 8), 0);
    struct sha256_ctx h;
    uint8_t d[32];
    char hex[65];
    sha256_init(&h);
    sha256_update(&h, strlen(CONFIG_TEXT), (const uint8_t *)CONFIG_TEXT);
    sha256_digest(&h, 32, d);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    cr_assert_eq(memcmp(good + 8, hex, 64), 0);
    uint64_t shape[8];
    memcpy(shape, good + CK_SHAPE, sizeof shape);
    cr_assert(shape[0] == p && shape[1] == 24 && shape[2] == 8 && shape[3] == 5 &&
              shape[4] == 3 && shape[5] == 0 && shape[6] == 0 && shape[7] == 3);
    uint64_t rh[2];
    memcpy(rh, good + CK_HEAD + CK_SUM, sizeof rh);
    cr_assert(rh[0] == 0 && rh[1] == 0);
    /* the loss scores stored are −ℓ of the models run 0..7 would give:
     * recomputed here from ul_exp_run and the model's sample_loss */
    double W[2 * 8 * 5], loss[16];
    cr_assert_leq(p, 5u);
    cr_assert_eq(ul_exp_run(&c.design, &s.plan, 0, 8, W, W + 8 * p, err, sizeof err), UL_OK);
    const double *x = s.plan.data.x + 5 * s.plan.data.d;
    for (size_t j = 0; j < 16; j++)
        cr_assert_eq(-c.design.model.ops->sample_loss(&c.design.model, x, s.plan.data.d,
                                                      s.plan.data.y[5], W + j * p),
                     (memcpy(&loss[j], good + CK_HEAD + CK_SUM + 16 + 8 * j, 8), loss[j]));
    /* both digests are SHA-256 of everything before them */
    memcpy(b, good, len);
    reseal(b, len, rec);
    cr_assert_eq(memcmp(b, good, len), 0, "a digest is not the SHA-256 of the bytes before it");

#define CORRUPT(edit, new_len, reason)                                                             \
    do {                                                                                           \
        memcpy(b, good, len);                                                                      \
        edit;                                                                                      \
        emp_test_write(ck, b, new_len);                                                            \
        expect_refused(cfg_path, ck, reason);                                                      \
    } while (0)
    size_t r0 = CK_HEAD + CK_SUM; /* the first record */
    /* the reproducer: every byte after the first 10 % zeroed */
    CORRUPT(memset(b + len / 10, 0, len - len / 10), len, "checksum");
    CORRUPT(b[r0 + 16 + 3] ^= 0x10, len, "checksum");    /* one bit of a loss score */
    CORRUPT(b[len - CK_SUM - 1] ^= 0x01, len, "checksum"); /* one bit of the moments */
    CORRUPT(b[CK_SHAPE] ^= 0x02, len, "checksum");        /* one bit of p */
    CORRUPT(b[len - 1] ^= 0x80, len, "checksum");         /* one bit of the last digest */
    CORRUPT(b[r0 - 1] ^= 0x80, len, "checksum");          /* one bit of the header's */
    CORRUPT((void)0, 100, "truncated");                   /* inside the header */
    CORRUPT((void)0, 5, "truncated");                     /* inside the magic */
    CORRUPT((void)0, 0, "truncated");                     /* empty */
    CORRUPT(b[0] = 'X', len, "not a ulaudit checkpoint"); /* no magic */
    CORRUPT(memcpy(b + 6, "02", 2), len, "version 02");   /* the previous format */
    CORRUPT((memcpy(b + 6, "04", 2), reseal(b, len, rec)), len, "version 04");
    CORRUPT(b[r0] = 1, len, "chunk 0 was expected");     /* a record out of order */
    /* well-formed and sealed, but not this run's */
    CORRUPT((b[CK_DATA] ^= 1, reseal(b, len, rec)), len, "other data");
    CORRUPT((b[8] = b[8] == 'a' ? 'b' : 'a', reseal(b, len, rec)), len, "another configuration");
    uint64_t v = 6; /* another target */
    CORRUPT((memcpy(b + CK_SHAPE + 24, &v, 8), reseal(b, len, rec)), len, "shape");
    v = 2; /* another slice */
    CORRUPT((memcpy(b + CK_SHAPE + 56, &v, 8), reseal(b, len, rec)), len, "slice");
    /* sealed, but holding what no run writes (a crafted file) */
    double nan = NAN, minus = -1, huge = 1e200;
    CORRUPT((memcpy(b + r0 + 16 + 8 * 3, &nan, 8), reseal(b, len, rec)), len, "not finite");
    CORRUPT((memcpy(b + r0 + 16 + 8 * 20, &huge, 8), reseal(b, len, rec)), len, "beyond 1e100");
    CORRUPT((memcpy(b + r0 + 16 + 8 * (16 + p), &minus, 8), reseal(b, len, rec)), len,
            "negative sum of squares"); /* the first S of the IN world */
#undef CORRUPT
    /* a record cut off mid-append (the writer killed) is dropped, not used:
     * the run resumes from the chunk before it */
    emp_test_write(ck, good, len - 1);
    expect_resumed(cfg_path, ck, 0, (long long)(len - 1) - (CK_HEAD + CK_SUM));
    free(emp_test_read(ck, &head_len));
    cr_assert_eq(head_len, (size_t)CK_HEAD + CK_SUM, "the cut-off record is truncated away");

    /* the untouched file still resumes */
    emp_test_write(ck, good, len);
    expect_resumed(cfg_path, ck, 1, 0);
    ul_attack_state_free(&s);
    ul_attack_config_free(&c);
    unlink(cfg_path), unlink(ck);
    free(cfg_path), free(good), free(b);
}

/* ---- stale temporary files ----------------------------------------------------------- */

static bool present(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%.200s/%.200s", dir, name);
    return access(path, F_OK) == 0;
}

Test(emp_attack, stale_temporaries_of_dead_writers_only_are_removed)
{
    char dir[] = "/tmp/ul-attack-tmp-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    long dead = (long)emp_test_dead_pid(), live = (long)getpid();
    char gone[4][96], kept[7][96], path[700];
    snprintf(gone[0], 96, ".checkpoint.bin.tmp.%ld.0", dead);
    snprintf(gone[1], 96, ".checkpoint.bin.tmp.%ld.17", dead);
    snprintf(gone[2], 96, ".result.json.tmp.%ld.3", dead);
    snprintf(gone[3], 96, ".roc.png.tmp.%ld.0", dead);
    snprintf(kept[0], 96, ".checkpoint.bin.tmp.%ld.0", live);  /* a live writer */
    snprintf(kept[1], 96, ".notes.txt.tmp.%ld.0", dead);       /* not our name */
    snprintf(kept[2], 96, "checkpoint.bin.tmp.%ld.0", dead);   /* no leading dot */
    snprintf(kept[3], 96, ".checkpoint.bin.tmp.%ld.0x", dead); /* trailing junk */
    snprintf(kept[4], 96, ".checkpoint.bin.tmp.%ld", dead);    /* no counter */
    snprintf(kept[5], 96, ".checkpoint.bin.tmp.x%ld.0", dead); /* no pid */
    snprintf(kept[6], 96, "checkpoint.bin");
    for (int i = 0; i < 4; i++)
        snprintf(path, sizeof path, "%s/%s", dir, gone[i]),
            emp_test_write(path, (const void *)"x", 1);
    for (int i = 0; i < 7; i++)
        snprintf(path, sizeof path, "%s/%s", dir, kept[i]),
            emp_test_write(path, (const void *)"x", 1);
    /* a directory with a matching name is not a file: left alone */
    char sub[96];
    snprintf(sub, sizeof sub, ".roc.csv.tmp.%ld.1", dead);
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    cr_assert_eq(mkdir(path, 0700), 0);
    const char *names[] = {"checkpoint.bin", "result.json", "roc.csv", "roc.png"};
    char err[512] = "";
    cr_assert_eq(ul_attack_clean_temps(dir, names, 4, err, sizeof err), 4u, "%s", err);
    for (int i = 0; i < 4; i++)
        cr_assert(!present(dir, gone[i]), "%s was not removed", gone[i]);
    for (int i = 0; i < 7; i++)
        cr_assert(present(dir, kept[i]), "%s was removed", kept[i]);
    cr_assert(present(dir, sub));
    cr_assert_eq(ul_attack_clean_temps(dir, names, 4, err, sizeof err), 0u);
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    cr_assert_eq(system(path), 0);
}

/* --resume continues a run of the same layout only.  A directory holding
 * the files the MPI build writes for 2 ranks (named as cli/attack.c and
 * man ulaudit-attack give them; their content is not read) is refused for
 * one process and for 3 ranks, naming the 2 ranks it holds, and accepted
 * for 2; a one-process checkpoint.bin is refused for MPI ranks. */
Test(emp_attack, resume_refuses_another_rank_count)
{
    char *dir = emp_test_mkdtemp();
    const char *names[] = {"rank-0-of-2-fit.bin", "rank-1-of-2-fit.bin", "rank-0-of-2.bin",
                           "rank-1-of-2.bin", "notes-of-7.bin", "rank-9-of-4.bin"};
    for (int i = 0; i < 6; i++) /* the last two: not rank files (a name, R ≥ K) */
        emp_test_put(dir, names[i], "x", 1);
    char err[1024];
    int refused[] = {1, 3};
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(ul_attack_resume_layout(dir, refused[i], err, sizeof err), UL_EINPUT,
                     "%d ranks resumed a run of 2", refused[i]);
        cr_assert(strstr(err, dir) && strstr(err, "2 MPI ranks") && strstr(err, "mpirun -n 2"),
                  "%s", err);
    }
    cr_assert_eq(ul_attack_resume_layout(dir, 2, err, sizeof err), UL_OK, "%s", err);
    emp_test_rm_rf(dir);
    free(dir);
    /* a one-process directory: fine for one process, not for MPI ranks */
    dir = emp_test_mkdtemp();
    emp_test_put(dir, "checkpoint.bin", "x", 1);
    cr_assert_eq(ul_attack_resume_layout(dir, 1, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_attack_resume_layout(dir, 2, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "without MPI") && strstr(err, "checkpoint.bin"), "%s", err);
    emp_test_rm_rf(dir);
    free(dir);
}

/* ---- configuration errors ------------------------------------------------------------- */

static void expect_config_error(const char *text, const char *mention)
{
    char *path = write_temp(text);
    ul_attack_config cfg;
    char err[1024];
    cr_assert_eq(ul_attack_config_load(path, &cfg, err, sizeof err), UL_EINPUT, "accepted: %s",
                 text);
    cr_assert(strstr(err, mention), "'%s' does not mention '%s'", err, mention);
    cr_assert(strstr(err, path), "'%s' does not name the file", err);
    unlink(path);
    free(path);
}

#define HEAD "{\"format\": \"ulaudit-attack/1\", "
#define DATA "\"data\": {\"source\": \"synthetic\", \"n\": 40, \"d\": 4}, "
#define MODEL "\"model\": {\"type\": \"logreg\", \"lambda\": \"0.1\", \"clip\": 1}, "
#define LEARN "\"learner\": {\"sigma\": \"0.1\", \"train_steps\": 20, \"unlearn_steps\": 3}"

/* ---- LiRA from the loss scores ---------------------------------------------------- */

/* The logistic loss with margin φ, log(1 + e^(−φ)), whose logit-scaled
 * confidence (emp/score.h) is φ again; the loss score is −ℓ. */
static double loss_score_of_margin(double phi)
{
    return -(phi > 0 ? log1p(exp(-phi)) : -phi + log1p(exp(phi)));
}

/* IN margins φ ~ N(1, 1), OUT φ ~ N(1, 0.1²): the same centre, so the loss
 * score (monotone in φ) has AUC near ½, while a test on both tails sees
 * them.  Checked against definitions, not against the code's output:
 *   - counts: online scores the second halves of both worlds, offline
 *     every IN run and the second half of OUT (attack.h);
 *   - offline ranks as the loss score does ((φ − μ)/σ is increasing in φ),
 *     so its AUC is the pair-count AUC of the loss scores on those runs;
 *   - online is the Gaussian log-likelihood ratio of fits on the first
 *     halves (sample mean, unbiased sd), recomputed here; its AUC is the
 *     pair-count AUC of the recomputed scores;
 *   - the online AUC is near its population value: for the ratio test,
 *     essentially |φ_in − 1| > |φ_out − 1|·σ-ratio, P[|Z| > 0.1|Z'|] =
 *     1 − (2/π)·atan(0.1) ≈ 0.937 (sd of a 500 × 500 AUC ≈ 0.01: > 0.85);
 *   - two scores share α: α/2 each. */
Test(emp_attack, lira_scores_from_the_loss)
{
    size_t n = 1000, h = n / 2;
    double *z = malloc(2 * n * sizeof *z), *in = malloc(n * sizeof *in),
           *out = malloc(n * sizeof *out);
    ul_rng_normals(77, 0, 0, 0, 2 * n, z);
    for (size_t i = 0; i < n; i++)
        in[i] = loss_score_of_margin(1 + z[i]), out[i] = loss_score_of_margin(1 + 0.1 * z[n + i]);
    ul_attack_scoring sc = {.scores = UL_SCORE_LIRA_ONLINE | UL_SCORE_LIRA_OFFLINE,
                            .alpha = "0.05", .eps = "", .delta = "", .renyi_order = "",
                            .renyi_value = ""};
    ul_attack_values v = {.loss_in = in, .loss_out = out, .n_in = n, .n_out = n};
    ul_attack_result res;
    char err[256];
    cr_assert_eq(ul_attack_score_values(&res, &sc, &v, 1, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(res.n_scores, 2);
    cr_assert_str_eq(res.alpha_each, "0.025");
    const ul_attack_score *on = &res.score[0], *off = &res.score[1];
    cr_assert_str_eq(on->name, "lira-online");
    cr_assert_str_eq(off->name, "lira-offline");
    cr_assert_eq(on->n_in, n - h);
    cr_assert_eq(on->n_out, n - h);
    cr_assert_eq(off->n_in, n);
    cr_assert_eq(off->n_out, n - h);
    double a_off = auc_pairs(in, n, out + h, n - h);
    cr_assert(fabs(off->roc.auc - a_off) < 1e-9, "offline AUC %.12g, loss AUC %.12g", off->roc.auc,
              a_off);
    cr_assert(fabs(a_off - 0.5) < 0.1, "the loss score should not separate (AUC %g)", a_off);
    /* online by hand: fits on the first halves of φ = 1 + z (IN), 1 + 0.1 z (OUT) */
    double m[2] = {0, 0}, sd[2] = {0, 0};
    for (int w = 0; w < 2; w++) {
        for (size_t i = 0; i < h; i++)
            m[w] += (w ? 1 + 0.1 * z[n + i] : 1 + z[i]) / (double)h;
        for (size_t i = 0; i < h; i++) {
            double d = (w ? 1 + 0.1 * z[n + i] : 1 + z[i]) - m[w];
            sd[w] += d * d / (double)(h - 1);
        }
        sd[w] = sqrt(sd[w]);
    }
    double *ls = malloc(2 * (n - h) * sizeof *ls);
    for (size_t i = 0; i < 2 * (n - h); i++) {
        double phi = i < n - h ? 1 + z[h + i] : 1 + 0.1 * z[n + h + (i - (n - h))];
        double zi = (phi - m[0]) / sd[0], zo = (phi - m[1]) / sd[1];
        ls[i] = 0.5 * (zo * zo - zi * zi) + log(sd[1] / sd[0]);
    }
    double a_on = auc_pairs(ls, n - h, ls + (n - h), n - h);
    cr_assert(fabs(on->roc.auc - a_on) < 2e-3, "online AUC %.6g, by hand %.6g", on->roc.auc, a_on);
    cr_assert(a_on > 0.85, "online LiRA should see both tails (AUC %g)", a_on);
    ul_attack_result_clear(&res);
    /* LiRA needs the loss scores */
    ul_attack_values none = {0};
    cr_assert_eq(ul_attack_score_values(&res, &sc, &none, 1, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "LiRA"), "%s", err);
    ul_attack_result_clear(&res);
    free(ls), free(z), free(in), free(out);
}

/* A configured run with "scores": ["lira-online"] records the loss scores
 * and reports LiRA only: one score, on the second halves of the 24 runs. */
Test(emp_attack, configured_lira_score)
{
    char *cfg_path = write_temp("{\"format\": \"ulaudit-attack/1\","
                                " \"data\": {\"source\": \"synthetic\", \"n\": 40, \"d\": 4, \"seed\": 2},"
                                " \"model\": {\"type\": \"logreg\", \"lambda\": \"0.1\", \"clip\": 1},"
                                " \"learner\": {\"sigma\": \"0.1\", \"train_steps\": 20, "
                                "\"unlearn_steps\": 3}, \"runs\": 24, \"chunk\": 8, \"seed\": 4, "
                                "\"target\": 5, \"attack\": {\"scores\": [\"lira-online\"]}}");
    ul_attack_config cfg;
    ul_attack_state st;
    ul_attack_result res;
    char err[512];
    cr_assert_eq(ul_attack_config_load(cfg_path, &cfg, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_attack_prepare(&st, &cfg, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(st.log.scores, UL_SCORE_LOSS); /* what the shard records */
    run_all(&st);
    cr_assert_eq(ul_attack_finish(&res, &st, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(res.n_scores, 1);
    cr_assert_str_eq(res.score[0].name, "lira-online");
    cr_assert_eq(res.score[0].n_in, 12u);
    cr_assert_eq(res.score[0].n_out, 12u);
    ul_attack_result_clear(&res);
    ul_attack_state_free(&st);
    ul_attack_config_free(&cfg);
    unlink(cfg_path);
    free(cfg_path);
}

Test(emp_attack, config_errors_name_the_field)
{
    expect_config_error("{\"format\": \"ulaudit-attack/2\", " DATA MODEL LEARN "}", "$.format");
    expect_config_error(HEAD DATA MODEL "\"learner\": {\"train_steps\": 20, \"unlearn_steps\": 3}}",
                        "$.learner.sigma");
    expect_config_error(HEAD DATA MODEL
                        "\"learner\": {\"sigma\": -1, \"train_steps\": 20, \"unlearn_steps\": 3}}",
                        "$.learner.sigma");
    expect_config_error(HEAD DATA MODEL
                        "\"learner\": {\"sigma\": NaN, \"train_steps\": 20, \"unlearn_steps\": 3}}",
                        "NaN");
    expect_config_error(HEAD DATA MODEL LEARN ", \"runs\": 1e12}", "$.runs");
    expect_config_error(HEAD DATA MODEL LEARN ", \"target\": 40}", "$.target");
    expect_config_error(HEAD DATA MODEL LEARN ", \"colour\": 1}", "colour");
    expect_config_error(HEAD DATA MODEL LEARN ", \"claim\": {\"eps\": 1}}", "$.claim");
    expect_config_error(HEAD DATA MODEL LEARN ", \"claim\": {\"eps\": 1, \"delta\": 1}}",
                        "$.claim.delta");
    expect_config_error(HEAD "\"data\": {\"source\": \"csv\", \"path\": \"/nonexistent.csv\", "
                             "\"classes\": [1, 0]}, " MODEL LEARN "}",
                        "/nonexistent.csv");
    expect_config_error(
        HEAD "\"data\": {\"source\": \"idx\", \"classes\": [1, 0]}, " MODEL LEARN "}", "images");
    expect_config_error(HEAD "\"data\": {\"source\": \"synthetic\", \"n\": 40, \"d\": 4, "
                             "\"classes\": [1]}, " MODEL LEARN "}",
                        "$.data.classes");
    expect_config_error(HEAD DATA "\"model\": {\"type\": \"mlp\"}, " LEARN "}", "$.model.hidden");
    expect_config_error(HEAD DATA MODEL LEARN ", \"certificate\": \"auto\"}", "$.certificate");
    expect_config_error(HEAD DATA MODEL LEARN ", \"attack\": {\"scores\": [\"loss\", \"loss\"]}}",
                        "$.attack.scores");
    expect_config_error(HEAD DATA MODEL LEARN ", \"attack\": {\"scores\": [\"lira\"]}}",
                        "$.attack.scores[0]");
    expect_config_error(HEAD DATA MODEL LEARN ", \"attack\": {\"scores\": [\"loss\", \"rmia\"], "
                                              "\"population\": \"p.csv\"}}",
                        "\"save_models\": true");
    expect_config_error(HEAD DATA MODEL LEARN ", \"save_models\": true, \"attack\": "
                                              "{\"scores\": [\"rmia\"]}}",
                        "$.attack.population");
    expect_config_error(HEAD DATA MODEL LEARN ", \"attack\": {\"population\": \"p.csv\"}}",
                        "$.attack.population: only with the rmia score");
    expect_config_error(HEAD DATA MODEL LEARN
                        ", \"attack\": {\"scores\": [\"loss\"], \"primary\": \"gaussian-lr\"}}",
                        "$.attack.primary");
    /* RMIA's constants (attack.h): a in (0, 1], gamma > 0, each message naming
     * the field and its rule; a decimal that rounds to a double 0 refused */
    static const char *const rmia_bad[][2] = {
        {"\"rmia_a\": 0", "$.attack.rmia_a: must be > 0"},
        {"\"rmia_a\": 1.5", "$.attack.rmia_a: must be <= 1"},
        {"\"rmia_a\": \"half\"", "$.attack.rmia_a: must be a decimal number"},
        {"\"rmia_gamma\": -1", "$.attack.rmia_gamma: must be > 0"},
        {"\"rmia_gamma\": 0", "$.attack.rmia_gamma: must be > 0"},
        {"\"rmia_gamma\": \"1e-400\"", "$.attack.rmia_gamma: must be > 0 as a double"},
        {"\"rmia_gama\": 2", "did you mean 'rmia_gamma'"},
    };
    for (size_t i = 0; i < sizeof rmia_bad / sizeof *rmia_bad; i++) {
        char text[640];
        snprintf(text, sizeof text,
                 HEAD DATA MODEL LEARN ", \"save_models\": true, \"attack\": {\"scores\": "
                                       "[\"rmia\"], %s}}",
                 rmia_bad[i][0]);
        expect_config_error(text, rmia_bad[i][1]);
    }
    expect_config_error(HEAD DATA MODEL LEARN ", \"attack\": {\"rmia_a\": 0.5}}",
                        "$.attack.rmia_a: only with the rmia score");
    expect_config_error(HEAD DATA MODEL LEARN ", \"unlearning\": {\"batch\": 40}}", "fewer than n");
    expect_config_error(HEAD DATA MODEL LEARN, "end of input");
}

/* Every shipped example reads (the Fashion-MNIST one only where Debian's
 * dataset-fashion-mnist is installed), and an auto certificate audits as
 * the example's text says: attack-synthetic.json's and
 * attack-fashion-mnist.json's texts say INVALID (their finite learning time
 * T is outside the stationary Langevin theorem), attack-noisy-gd.json's
 * that Thm G.15 covers it (supported). */
Test(emp_attack, examples_read)
{
    const char *names[] = {"attack-synthetic.json",      "attack-nonprivate.json",
                           "attack-model-clipping.json", "attack-mlp.json",
                           "attack-fashion-mnist.json",  "attack-noisy-gd.json"};
    const ul_verdict said[] = {UL_VERDICT_INVALID, 0, 0, 0, UL_VERDICT_INVALID, UL_VERDICT_SUPPORTED};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "examples/%s", names[i]);
        if (strstr(names[i], "fashion") &&
            access("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz", R_OK) != 0)
            continue;
        ul_attack_config cfg;
        char err[1024];
        cr_assert_eq(ul_attack_config_load(path, &cfg, err, sizeof err), UL_OK, "%s", err);
        cr_assert_gt(cfg.data.n, 0u);
        /* an auto certificate must itself be a valid certificate of its method */
        if (cfg.certificate_text) {
            ul_cert *c = NULL;
            cr_assert_eq(ul_cert_load_buffer(cfg.certificate_text, strlen(cfg.certificate_text), &c,
                                             err, sizeof err),
                         UL_OK, "%s: %s", names[i], err);
            ul_audit_report rep;
            ul_num_precision want = {.digits = 6, .start_bits = 128, .max_bits = 4096};
            cr_assert_eq(ul_audit(c, &want, &rep, err, sizeof err), UL_OK, "%s", err);
            cr_assert_eq(rep.verdict, said[i], "%s: the audit says %s", names[i],
                         ul_verdict_name(rep.verdict));
            ul_cert_free(c);
        }
        ul_attack_config_free(&cfg);
    }
}

/* --primary (issue 30): the pre-registered primary score gets all of α, so
 * adding a second score no longer lowers its bound.  Planted scores: IN
 * N(1.5, 1), OUT N(0, 1), 600 each, for the loss and for gaussian-lr.  The
 * reference is the JOINT test (geometric weights, two-sided) run here
 * directly on the same values at α and at α/2 (stats/eps_lb.h). */
static double direct_eps_lb(const double *in, const double *out, size_t n, double alpha)
{
    mpfi_t a, d;
    mpfi_init2(a, 128), mpfi_init2(d, 128);
    mpfi_set_d(a, alpha), mpfi_set_str(d, "1e-5", 10);
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    o.method = UL_EMP_LB_JOINT, o.geometric = true;
    ul_emp_lb_result r;
    ul_emp_lb_init(&r);
    char err[256];
    ul_status st = ul_emp_eps_lb(&r, in, n, out, n, a, d, &o, err, sizeof err);
    cr_assert(st == UL_OK || st == UL_ECAP, "%s", err);
    double e = mpfr_get_d(r.eps_lb, MPFR_RNDD);
    ul_emp_lb_clear(&r);
    mpfi_clear(a), mpfi_clear(d);
    return e;
}

static void planted_result(ul_attack_result *res, const ul_attack_values *v, int scores,
                           int primary, const char *eps)
{
    ul_attack_scoring sc = {.scores = scores, .primary = primary, .alpha = "0.05", .eps = eps,
                            .delta = "1e-5", .renyi_order = "", .renyi_value = ""};
    char err[256];
    cr_assert_eq(ul_attack_score_values(res, &sc, v, 1, err, sizeof err), UL_OK, "%s", err);
}

Test(emp_attack, primary_score_keeps_all_of_alpha)
{
    enum { N = 600 };
    static double loss[2 * N], lr[2 * N];
    for (size_t i = 0; i < 2 * N; i++) {
        loss[i] = ul_rng_normal(5, 0, 0, i) + (i < N ? 1.5 : 0);
        lr[i] = ul_rng_normal(6, 0, 0, i) + (i < N ? 1.2 : 0);
    }
    ul_attack_values v = {.loss_in = loss, .loss_out = loss + N, .n_in = N, .n_out = N,
                          .lr_in = lr, .lr_out = lr + N, .lr_n_in = N, .lr_n_out = N};
    ul_attack_values loss_only = v;
    loss_only.lr_in = loss_only.lr_out = NULL;
    double at_alpha = direct_eps_lb(loss, loss + N, N, 0.05);
    double at_half = direct_eps_lb(loss, loss + N, N, 0.025);
    cr_assert(at_half < at_alpha && at_half > 0, "%g vs %g", at_half, at_alpha);

    ul_attack_result one, two, prim;
    planted_result(&one, &loss_only, UL_SCORE_LOSS, 0, "");
    planted_result(&two, &v, UL_SCORE_LOSS | UL_SCORE_LR, 0, "");
    planted_result(&prim, &v, UL_SCORE_LOSS | UL_SCORE_LR, UL_SCORE_LOSS, "");
    double e1 = mpfr_get_d(one.score[0].roc.eps_lb, MPFR_RNDD);
    double e2 = mpfr_get_d(two.score[0].roc.eps_lb, MPFR_RNDD);
    double ep = mpfr_get_d(prim.score[0].roc.eps_lb, MPFR_RNDD);
    /* Bonferroni across scores halves the loss score's level ... */
    cr_assert(fabs(e2 - at_half) <= 1e-9 * at_half, "two scores: %g vs %g", e2, at_half);
    /* ... the primary keeps all of it: the bound of the loss score alone */
    cr_assert(fabs(ep - at_alpha) <= 1e-9 * at_alpha, "primary: %g vs %g", ep, at_alpha);
    cr_assert(fabs(ep - e1) <= 1e-12 * e1 && ep > e2, "%g, %g, %g", ep, e1, e2);
    cr_assert_str_eq(prim.score[0].role, "primary");
    cr_assert_str_eq(prim.score[1].role, "exploratory");
    cr_assert_eq(prim.score[0].alpha_divisor, 1u);
    cr_assert_eq(prim.score[1].alpha_divisor, 1u); /* S − 1 = 1 exploratory score */
    cr_assert_null(two.score[0].role);
    cr_assert_eq(two.score[0].alpha_divisor, 2u);
    cr_assert_str_eq(prim.primary, "loss");
    /* the capacity is the primary's at all of α: a perfect separation of its
     * counts, as the one-score run has */
    cr_assert(mpfr_equal_p(prim.eps_max, one.eps_max));
    ul_attack_result_clear(&one), ul_attack_result_clear(&two), ul_attack_result_clear(&prim);
}

/* Only the primary decides: a claim between the two scores' bounds is
 * refuted when the stronger score is primary, and stays consistent when
 * the stronger one is only exploratory (it is reported as beating the
 * claim, never deciding). */
Test(emp_attack, only_the_primary_decides_the_verdict)
{
    enum { N = 600 };
    static double loss[2 * N], lr[2 * N];
    for (size_t i = 0; i < 2 * N; i++) {
        loss[i] = ul_rng_normal(7, 0, 0, i) + (i < N ? 2.5 : 0); /* strong */
        lr[i] = ul_rng_normal(8, 0, 0, i) + (i < N ? 0.3 : 0);   /* weak */
    }
    ul_attack_values v = {.loss_in = loss, .loss_out = loss + N, .n_in = N, .n_out = N,
                          .lr_in = lr, .lr_out = lr + N, .lr_n_in = N, .lr_n_out = N};
    double strong = direct_eps_lb(loss, loss + N, N, 0.05), weak = direct_eps_lb(lr, lr + N, N, 0.05);
    cr_assert(weak + 0.2 < strong, "%g, %g", weak, strong);
    char eps[32];
    snprintf(eps, sizeof eps, "%.3f", 0.5 * (weak + strong));
    ul_attack_result a, b;
    planted_result(&a, &v, UL_SCORE_LOSS | UL_SCORE_LR, UL_SCORE_LOSS, eps);
    planted_result(&b, &v, UL_SCORE_LOSS | UL_SCORE_LR, UL_SCORE_LR, eps);
    cr_assert_str_eq(a.verdict, "refuted");
    cr_assert_str_eq(b.verdict, "consistent");
    cr_assert(b.score[0].refutes && !b.score[1].refutes);
    char *text = ul_attack_result_text(&b);
    cr_assert_not_null(strstr(text, "(exploratory: not the verdict)"), "%s", text);
    free(text);
    ul_attack_result_clear(&a), ul_attack_result_clear(&b);
}

/* RMIA on a configuration's runs (issue 30): save_models keeps the models,
 * the population is a file, the references are the first half of the OUT
 * runs or the configuration's reference_models.  Each scored run's score is
 * recomputed here by the definition (emp/score.h) in probabilities, from
 * the losses of the kept models; the scored runs are the ones that were not
 * references. */
typedef struct {
    const double *pop, *pop_y;
    size_t np, d;
    long double a, gamma;
} rmia_inputs;

static double rmia_definition(const ul_model *m, const double *x, double y, const rmia_inputs *in,
                              const double *R, size_t kr, const double *W, size_t p)
{
    const double *pop = in->pop, *pop_y = in->pop_y;
    size_t np = in->np, d = in->d;
    long double px = 0, cnt = 0, sum = 0, a = in->a;
    for (size_t r = 0; r < kr; r++)
        px += expl(-m->ops->sample_loss(m, x, d, y, R + r * p)) / kr;
    px = (1 + a) / 2 * px + (1 - a) / 2; /* the offline Pr(x), §3 */
    long double lx = expl(-m->ops->sample_loss(m, x, d, y, W));
    for (size_t i = 0; i < np; i++) {
        long double pz = 0;
        for (size_t r = 0; r < kr; r++)
            pz += expl(-m->ops->sample_loss(m, pop + i * d, d, pop_y[i], R + r * p)) / kr;
        pz = (1 + a) / 2 * pz + (1 - a) / 2;
        long double lz = expl(-m->ops->sample_loss(m, pop + i * d, d, pop_y[i], W));
        long double lr = (lx / px) / (lz / pz);
        cnt += lr >= in->gamma, sum += logl(lr);
    }
    return (double)((cnt + 0.5L + atanl(sum / np) / acosl(-1.0L)) / np);
}

/* The capacity a scored-run count can certify, by the attack's own bound
 * at a perfect separation (ul_attack_eps_max), at alpha and delta. */
static void eps_max_at(mpfr_ptr out, size_t n_in, size_t n_out, const char *alpha,
                       const char *delta)
{
    mpfi_t a, dl;
    mpfi_init2(a, 128), mpfi_init2(dl, 128);
    mpfi_set_str(a, alpha, 10), mpfi_set_str(dl, delta, 10);
    char err[256];
    cr_assert_eq(ul_attack_eps_max(out, n_in, n_out, a, dl, NULL, err, sizeof err), UL_OK, "%s",
                 err);
    mpfi_clear(a), mpfi_clear(dl);
}

/* One configured RMIA run (16 runs per world), the references given or the
 * first half of the OUT runs, a and gamma as configured (NULL: absent). */
static void check_configured_rmia(const char *pop, const ul_model_set *rs, const char *refs,
                                  const char *a, const char *gamma)
{
    char text[1800], extra[600] = "";
    int given = refs != NULL;
    snprintf(extra, sizeof extra, "%s%s%s%s%s%s%s", given ? ", \"reference_models\": [\"" : "",
             given ? refs : "", given ? "\"]" : "", a ? ", \"rmia_a\": " : "", a ? a : "",
             gamma ? ", \"rmia_gamma\": " : "", gamma ? gamma : "");
    snprintf(text, sizeof text,
             "{\"format\": \"ulaudit-attack/1\","
             " \"data\": {\"source\": \"synthetic\", \"n\": 40, \"d\": 4, \"seed\": 2},"
             " \"model\": {\"type\": \"logreg\", \"lambda\": \"0.1\", \"clip\": 1},"
             " \"learner\": {\"sigma\": \"0.1\", \"train_steps\": 20, \"unlearn_steps\": 3},"
             " \"runs\": 16, \"chunk\": 8, \"seed\": 4, \"target\": 5, \"save_models\": true,"
             " \"claim\": {\"eps\": 4, \"delta\": \"1e-5\"},"
             " \"attack\": {\"scores\": [\"rmia\"], \"population\": \"%s\"%s}}",
             pop, extra);
    char *cfg_path = write_temp(text), err[512];
    ul_attack_config cfg;
    ul_attack_state st;
    ul_attack_result res;
    cr_assert_eq(ul_attack_config_load(cfg_path, &cfg, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(cfg.population.n, 5u);
    /* before the runs: the capacity of the scored runs (16 IN; 16 OUT with
     * given references, else the 8 after the references) */
    mpfr_t want, in_run;
    mpfr_inits2(128, want, in_run, (mpfr_ptr)0);
    eps_max_at(want, 16, given ? 16 : 8, "0.05", "1e-5");
    eps_max_at(in_run, 16, 8, "0.05", "1e-5");
    ul_attack_scoring sc = ul_attack_config_scoring(&cfg);
    ul_attack_capacity cap;
    cr_assert_eq(ul_attack_capacity_of(&cap, &sc, cfg.runs, err, sizeof err), UL_OK, "%s", err);
    cr_assert(mpfr_equal_p(cap.eps_max, want), "capacity %g vs %g", mpfr_get_d(cap.eps_max, MPFR_RNDN),
              mpfr_get_d(want, MPFR_RNDN));
    cr_assert(!given || mpfr_greater_p(cap.eps_max, in_run));
    size_t runs_needed = cap.runs_needed;
    cr_assert(runs_needed > 16); /* eps 4 is beyond 16 runs */
    ul_attack_capacity_clear(&cap);

    cr_assert_eq(ul_attack_prepare(&st, &cfg, err, sizeof err), UL_OK, "%s", err);
    run_all(&st);
    cr_assert_eq(ul_attack_finish(&res, &st, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(res.n_scores, 1);
    const ul_attack_score *s = &res.score[0];
    cr_assert_str_eq(s->name, "rmia");
    size_t kr = given ? rs->k : 8, p = st.p;
    cr_assert_eq(s->n_in, 16u);
    cr_assert_eq(s->n_out, given ? 16u : 8u);
    cr_assert_eq(s->out0, given ? 0u : 8u);
    /* after the runs: the same counts, the same runs needed */
    cr_assert(mpfr_equal_p(res.eps_max, want));
    cr_assert_eq(res.runs_needed, runs_needed);
    double *W = ul_shard_models(&st.log); /* IN runs, then OUT runs */
    const double *R = given ? rs->w : W + 16 * p;
    const ul_dataset *D = &st.plan.data;
    size_t t = st.plan.target;
    rmia_inputs in = {.pop = cfg.population.x, .pop_y = cfg.population.y, .np = 5, .d = D->d,
                      .a = a ? strtold(a, NULL) : 0.3L, .gamma = gamma ? strtold(gamma, NULL) : 1};
    for (size_t j = 0; j < s->n_in + s->n_out; j++) {
        const double *Wj = j < 16 ? W + j * p : W + (16 + s->out0 + (j - 16)) * p;
        double w = rmia_definition(&cfg.design.model, D->x + t * D->d, D->y[t], &in, R, kr, Wj, p);
        cr_assert(fabs(s->values[j] - w) < 1e-12, "run %zu: %.15g vs %.15g", j, s->values[j], w);
    }
    /* a and gamma recorded, as configured, in the JSON result */
    char *json = ul_attack_result_json(&res), key[64];
    snprintf(key, sizeof key, "\"rmia_a\":%s", a ? a : "0.3");
    cr_assert_not_null(strstr(json, key), "%s not in %s", key, json);
    snprintf(key, sizeof key, "\"rmia_gamma\":%s", gamma ? gamma : "1");
    cr_assert_not_null(strstr(json, key), "%s not in %s", key, json);
    free(json), free(W);
    mpfr_clears(want, in_run, (mpfr_ptr)0);
    ul_attack_result_clear(&res);
    ul_attack_state_free(&st);
    ul_attack_config_free(&cfg);
    unlink(cfg_path);
    free(cfg_path);
}

Test(emp_attack, configured_rmia_score)
{
    char *pop = write_temp("0.3,-0.2,0.5,0.1,1\n-0.4,0.4,0.2,-0.3,-1\n0.1,0.1,-0.6,0.2,1\n"
                           "0.5,0.5,0.5,-0.5,-1\n-0.2,-0.7,0.1,0.4,1\n");
    /* three reference models of the logreg's 4 parameters */
    char rdir[] = "/tmp/ul-attack-refs-XXXXXX", *refs = malloc(sizeof rdir + 16);
    cr_assert_not_null(mkdtemp(rdir));
    snprintf(refs, sizeof rdir + 16, "%s/refs.npy", rdir);
    ul_model_set rs = {.k = 3, .p = 4, .w = malloc(12 * sizeof(double))};
    ul_rng_normals(21, 0, 0, 0, 12, rs.w);
    char err[512];
    cr_assert_eq(ul_modelio_write_npy(refs, &rs, err, sizeof err), UL_OK, "%s", err);
    check_configured_rmia(pop, &rs, NULL, NULL, NULL);     /* the defaults 0.3 and 1 */
    check_configured_rmia(pop, &rs, refs, NULL, NULL);
    check_configured_rmia(pop, &rs, NULL, "0.75", "1.25"); /* configured */
    check_configured_rmia(pop, &rs, refs, "1", "0.5");
    free(rs.w);
    unlink(pop), unlink(refs), rmdir(rdir);
    free(pop), free(refs);
}

/* RMIA's capacity (attack.h) counts the runs that are scored: with given
 * references every run of both worlds, with references from the run all IN
 * runs and the OUT runs after the ⌊runs/2⌋ references.  Recomputed here
 * from the runs count by the attack's bound at those counts; given
 * references never certify less, and need no more runs to pass a claim
 * (each runs_needed, when certified, passes the claim at its own counts). */
Test(emp_attack, rmia_capacity_counts_where_references_come_from)
{
    const double one_model = 0; /* W_ref: only whether it is given matters here */
    ul_attack_scoring in_run = {.scores = UL_SCORE_RMIA, .alpha = "0.05", .eps = "4",
                                .delta = "1e-5", .renyi_order = "", .renyi_value = ""};
    ul_attack_scoring given = in_run;
    given.W_ref = &one_model, given.k_ref = 1;
    mpfr_t want_in, want_given, e;
    mpfr_inits2(128, want_in, want_given, e, (mpfr_ptr)0);
    char err[256];
    for (size_t runs = 20; runs <= 21; runs++) {
        ul_attack_capacity ci, cg;
        cr_assert_eq(ul_attack_capacity_of(&ci, &in_run, runs, err, sizeof err), UL_OK, "%s", err);
        cr_assert_eq(ul_attack_capacity_of(&cg, &given, runs, err, sizeof err), UL_OK, "%s", err);
        eps_max_at(want_in, runs, runs - runs / 2, "0.05", "1e-5");
        eps_max_at(want_given, runs, runs, "0.05", "1e-5");
        cr_assert(mpfr_equal_p(ci.eps_max, want_in), "runs %zu, in-run", runs);
        cr_assert(mpfr_equal_p(cg.eps_max, want_given), "runs %zu, given", runs);
        cr_assert(mpfr_greater_p(cg.eps_max, ci.eps_max), "runs %zu", runs);
        cr_assert_eq(cg.n_out, runs);
        cr_assert_eq(ci.n_out, runs - runs / 2);
        cr_assert(cg.adv_max >= ci.adv_max);
        /* eps 4 lies beyond both: the runs that pass it */
        cr_assert(ci.runs_needed > runs && cg.runs_needed > runs);
        cr_assert(cg.runs_needed <= ci.runs_needed, "%zu vs %zu", cg.runs_needed, ci.runs_needed);
        if (cg.runs_certified) {
            eps_max_at(e, cg.runs_needed, cg.runs_needed, "0.05", "1e-5");
            cr_assert(mpfr_cmp_ui(e, 4) > 0, "given: %zu runs", cg.runs_needed);
        }
        if (ci.runs_certified) {
            eps_max_at(e, ci.runs_needed, ci.runs_needed - ci.runs_needed / 2, "0.05", "1e-5");
            cr_assert(mpfr_cmp_ui(e, 4) > 0, "in-run: %zu runs", ci.runs_needed);
        }
        cr_log_info("runs %zu: in-run eps_max %g, needs %zu; given %g, needs %zu", runs,
                    mpfr_get_d(ci.eps_max, MPFR_RNDN), ci.runs_needed,
                    mpfr_get_d(cg.eps_max, MPFR_RNDN), cg.runs_needed);
        ul_attack_capacity_clear(&ci), ul_attack_capacity_clear(&cg);
    }
    mpfr_clears(want_in, want_given, e, (mpfr_ptr)0);
}
