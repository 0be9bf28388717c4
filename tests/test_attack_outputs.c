/* tests/test_attack_outputs.c — issue 27: the attack's documented outputs,
 * each checked against something independent of the code that wrote it:
 * roc.csv recomputed from scores.csv by counting, the largest certifiable
 * ε against the closed form of the zero-error test, pixels of the plots. */
#include <cairo.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "cli/attack_figures.h"
#include "emp/attack.h"
#include "num/encl.h"

/* ---- the largest certifiable ε -------------------------------------------- */

/* The closed form (zero errors, the extreme order statistic): F ~ Beta(1, n)
 * and P[F ≥ c] = (1 − c)^n, so the test at level L certifies at most
 * log((1 − δ)/(1 − L^{1/n})) — the one-sided Clopper–Pearson upper bound
 * of 0 errors in n, 1 − L^{1/n} (Clopper & Pearson 1934).  L: α/S halved by
 * the first geometric weight (2^−1) and by the two directions (eps_lb.h). */
static double closed_form(double alpha_each, size_t n, double delta)
{
    double level = alpha_each / 4;
    return log((1 - delta) / -expm1(log(level) / (double)n));
}

/* The whole p-value of that test at zero errors, by Simpson's rule:
 * E[min(1, e^ε F + δ)^n], F ~ Beta(1, n) with density n(1 − f)^(n−1)
 * (ul_emp_joint_pvalue_upper's π with k = 0, x = n1 = n); and the ε where
 * it meets the level (bisection: it increases in ε). */
static double p_zero_errors(double eps, size_t n, double delta)
{
    const int m = 200000;
    double acc = 0;
    for (int i = 0; i <= m; i++) {
        double f = (double)i / m, w = i == 0 || i == m ? 1 : i % 2 ? 4 : 2;
        acc += w * pow(fmin(1, exp(eps) * f + delta), (double)n) * (double)n *
               pow(1 - f, (double)n - 1);
    }
    return acc / (3.0 * m);
}

static double eps_zero_errors(double alpha_each, size_t n, double delta)
{
    double lo = 0, hi = 50;
    for (int i = 0; i < 60; i++) {
        double mid = 0.5 * (lo + hi);
        if (p_zero_errors(mid, n, delta) <= alpha_each / 4)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

Test(attack_outputs, eps_max_matches_the_zero_error_closed_form)
{
    const size_t ns[] = {16, 64, 256, 1000};
    const double deltas[] = {0, 1e-5};
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 2; j++) {
            mpfi_t a, d;
            mpfi_init2(a, 128), mpfi_init2(d, 128);
            mpfi_set_d(a, 0.025);
            mpfi_set_d(d, deltas[j]);
            mpfr_t e;
            mpfr_init2(e, 128);
            char err[256];
            unsigned long div = 0;
            cr_assert_eq(ul_attack_eps_max(e, ns[i], ns[i], a, d, &div, err, sizeof err), UL_OK,
                         "%s", err);
            double got = mpfr_get_d(e, MPFR_RNDD), want = closed_form(0.025, ns[i], deltas[j]);
            double exact = eps_zero_errors(0.025, ns[i], deltas[j]);
            /* certified ≤ the tail-term closed form (the p-value is at least
             * that term) and ≤ the quadrature's ε (an upper Riemann sum
             * certifies less: 120 grid points, eps_lb_joint.c); within 0.03 of it */
            cr_expect(got <= want + 1e-12, "n %zu: %.6f above the closed form %.6f", ns[i], got,
                      want);
            cr_expect(got <= exact + 1e-6, "n %zu: %.6f above the exact %.6f", ns[i], got, exact);
            cr_expect(got >= exact - 0.03, "n %zu: %.6f far below the exact %.6f", ns[i], got,
                      exact);
            cr_expect_eq(div, 4, "the extreme order statistic's weight");
            mpfr_clear(e);
            mpfi_clear(a), mpfi_clear(d);
        }
}

/* attack --scores: the capacity of its counts (the method's bound on a
 * perfect separation) against the zero-error closed form and quadrature
 * above, for the joint test with geometric weights (the attack's own), one
 * score: α/S = α; and the claim above it said to be out of reach. */
Test(attack_outputs, scores_capacity_matches_the_closed_form)
{
    char dir[] = "/tmp/ul-scores-cap-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char in[128], out[128], spec[300];
    snprintf(in, sizeof in, "%s/in.txt", dir);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    FILE *fi = fopen(in, "w"), *fo = fopen(out, "w");
    cr_assert(fi && fo);
    for (int i = 0; i < 256; i++) /* overlapping worlds: the capacity ignores the values */
        fprintf(fi, "%d\n", i % 7), fprintf(fo, "%d\n", i % 5);
    fclose(fi), fclose(fo);
    snprintf(spec, sizeof spec, "%s,%s", in, out);
    run_result r = run("attack", "--scores", spec, "--weights", "geometric", "--alpha", "0.025",
                       "--delta", "1e-5", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o, "%s", r.out);
    double got = strtod(field(o, "eps_max_certifiable"), NULL);
    json_object_put(o);
    run_free(&r);
    double want = closed_form(0.025, 256, 1e-5), exact = eps_zero_errors(0.025, 256, 1e-5);
    cr_expect(got <= want + 1e-9 && got <= exact + 1e-6 && got >= exact - 0.03,
              "%.6f: closed form %.6f, quadrature %.6f", got, want, exact);
    r = run("attack", "--scores", spec, "--weights", "geometric", "--alpha", "0.025", "--delta",
            "1e-5", "--claim-eps", "5", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_not_null(strstr(r.out, "cannot refute eps = 5"), "%s", r.out);
    run_free(&r);
    unlink(in), unlink(out);
    rmdir(dir);
}

static ul_status capacity(ul_attack_capacity *cap, int scores, size_t runs, const char *eps,
                          const char *delta, const char *q, const char *v, char *err,
                          size_t errlen)
{
    ul_attack_scoring sc = {.scores = scores,
                            .alpha = "0.05",
                            .eps = eps,
                            .delta = delta,
                            .renyi_order = q,
                            .renyi_value = v};
    return ul_attack_capacity_of(cap, &sc, runs, err, errlen);
}

/* The runs needed: more than the closed form's least n (the closed form
 * only bounds the certified ε from above), certified, and within 2% of the
 * least count: the certified capacity at that count passes the claim
 * while 98% of it does not. */
Test(attack_outputs, runs_needed_certifies_the_claim)
{
    ul_attack_capacity cap;
    char err[256];
    cr_assert_eq(capacity(&cap, UL_SCORE_LOSS, 256, "5", "1e-5", NULL, NULL, err, sizeof err),
                 UL_OK, "%s", err);
    cr_expect(mpfr_cmp_ui(cap.eps_max, 5) < 0);
    double n_star = log(0.05 / 4) / log1p(-(1 - 1e-5) * exp(-5.0));
    cr_expect((double)cap.runs_needed >= n_star, "%zu runs < closed form %.1f", cap.runs_needed,
              n_star);
    cr_expect(cap.runs_certified, "the doubles' search certified at once");
    size_t need = cap.runs_needed;
    ul_attack_capacity_clear(&cap);
    cr_assert_eq(capacity(&cap, UL_SCORE_LOSS, need * 98 / 100, "5", "1e-5", NULL, NULL, err,
                          sizeof err),
                 UL_OK, "%s", err);
    cr_expect(mpfr_cmp_ui(cap.eps_max, 5) <= 0, "%zu runs already certify 5", need * 98 / 100);
    ul_attack_capacity_clear(&cap);
    cr_assert_eq(capacity(&cap, UL_SCORE_LOSS, need, "5", "1e-5", NULL, NULL, err, sizeof err),
                 UL_OK, "%s", err);
    cr_expect(mpfr_cmp_ui(cap.eps_max, 5) > 0);
    cr_expect_eq(cap.runs_needed, 0);
    ul_attack_capacity_clear(&cap);
}

/* The advantage test at a perfect separation: with n runs in each world
 * the one-sided Clopper–Pearson bounds of n of n and 0 of n at level β are
 * β^{1/n} and 1 − β^{1/n} (P[Bin(n, p) = n] = p^n; Clopper & Pearson
 * 1934), β = (α/S)/(2(2n + 2)) (attack.h's Bonferroni family), so the
 * largest certifiable advantage is 2β^{1/n} − 1.  The ceiling of an (ε, δ)
 * claim is (e^ε − 1 + 2δ)/(e^ε + 1) (Kairouz, Oh, Viswanath 2015). */
Test(attack_outputs, advantage_capacity_and_ceiling)
{
    const size_t ns[] = {16, 256, 2000};
    for (int i = 0; i < 3; i++) {
        ul_attack_capacity cap;
        char err[256];
        cr_assert_eq(capacity(&cap, UL_SCORE_LOSS, ns[i], "1", "1e-5", NULL, NULL, err,
                              sizeof err),
                     UL_OK, "%s", err);
        double n = (double)ns[i], beta = 0.05 / (2 * (2 * n + 2));
        double want = 2 * pow(beta, 1 / n) - 1;
        /* the bounds are certified to 8 digits (sound, only wider) */
        cr_expect(cap.adv_max <= want + 1e-12 && cap.adv_max >= want - 1e-7,
                  "n %zu: %.15g, closed form %.15g", ns[i], cap.adv_max, want);
        double ceil = (exp(1.0) - 1 + 2e-5) / (exp(1.0) + 1);
        cr_expect(cap.ceiling >= ceil && cap.ceiling <= ceil + 1e-12, "%.17g %.17g", cap.ceiling,
                  ceil);
        ul_attack_capacity_clear(&cap);
    }
}

/* A Rényi-only claim: the ε it implies at the attack's δ (Mironov 2017
 * Prop. 3: value + log(1/δ)/(order − 1)), rounded up, drives runs_needed;
 * without a δ there is no such ε. */
Test(attack_outputs, renyi_claim_capacity)
{
    ul_attack_capacity cap;
    char err[256];
    cr_assert_eq(capacity(&cap, UL_SCORE_LOSS, 64, NULL, "1e-3", "3", "0.5", err, sizeof err),
                 UL_OK, "%s", err);
    double want = 0.5 + log(1e3) / 2;
    cr_expect(cap.renyi);
    cr_expect(cap.claim_eps >= want && cap.claim_eps <= want * (1 + 1e-14), "%.17g %.17g",
              cap.claim_eps, want);
    cr_expect(mpfr_get_d(cap.eps_max, MPFR_RNDU) <= want, "64 runs cannot reach %.3f", want);
    cr_expect_gt(cap.runs_needed, 64);
    size_t need = cap.runs_needed;
    bool certified = cap.runs_certified;
    ul_attack_capacity_clear(&cap);
    /* the same runs as an (ε, δ) claim at that ε */
    char e[64];
    snprintf(e, sizeof e, "%.17g", want);
    cr_assert_eq(capacity(&cap, UL_SCORE_LOSS, 64, e, "1e-3", NULL, NULL, err, sizeof err),
                 UL_OK, "%s", err);
    cr_expect(cap.runs_needed + 1 >= need && cap.runs_needed <= need + 1, "%zu vs %zu",
              cap.runs_needed, need);
    ul_attack_capacity_clear(&cap);
    if (certified) { /* the certified check, by an independent capacity at that count */
        cr_assert_eq(capacity(&cap, UL_SCORE_LOSS, need, NULL, "1e-3", "3", "0.5", err,
                              sizeof err),
                     UL_OK, "%s", err);
        cr_expect(mpfr_get_d(cap.eps_max, MPFR_RNDD) > want);
        ul_attack_capacity_clear(&cap);
    }
    cr_assert_eq(capacity(&cap, UL_SCORE_LOSS, 64, NULL, "", "3", "0.5", err, sizeof err), UL_OK,
                 "%s", err);
    cr_expect(isnan(cap.claim_eps) && cap.runs_needed == 0, "no delta: no eps");
    ul_attack_capacity_clear(&cap);
}

/* The certificate's curve as (δ, ε) points: δ(ε) curves swap the axes,
 * ε(δ) do not; the hi end is taken; NAN points and δ outside (0, 1) are
 * dropped; δ ascending. */
Test(attack_outputs, certificate_curve_points)
{
    ul_audit_curve c;
    memset(&c, 0, sizeof c);
    c.x_key = "eps", c.y_key = "delta", c.n = 5;
    const double x[] = {0.5, 1, 1.5, 2, 2.5}, hi[] = {1e-2, 1e-3, NAN, 1e-5, 0};
    for (int i = 0; i < 5; i++)
        c.x[i] = x[i], c.hi[i] = hi[i], c.lo[i] = hi[i] / 2;
    double d[UL_AUDIT_CURVE_MAX_POINTS], e[UL_AUDIT_CURVE_MAX_POINTS];
    size_t m = ul_attack_cert_points(&c, d, e);
    cr_assert_eq(m, 3);
    const double wd[] = {1e-5, 1e-3, 1e-2}, we[] = {2, 1, 0.5};
    for (size_t i = 0; i < m; i++) {
        cr_expect_eq(d[i], wd[i]);
        cr_expect_eq(e[i], we[i]);
    }
    c.x_key = "delta", c.y_key = "eps", c.n = 2;
    c.x[0] = 1e-3, c.hi[0] = 2, c.x[1] = 1e-6, c.hi[1] = 3;
    m = ul_attack_cert_points(&c, d, e);
    cr_assert_eq(m, 2);
    cr_expect(d[0] == 1e-6 && e[0] == 3 && d[1] == 1e-3 && e[1] == 2);
    c.n = 0;
    cr_expect_eq(ul_attack_cert_points(&c, d, e), 0);
}

/* The δ values of the ε_lb(δ) curve: six decades and the claimed δ,
 * ascending, the claimed one once. */
Test(attack_outputs, lb_deltas)
{
    double d[UL_CLI_LB_DELTAS];
    const double claimed[] = {3e-6, 1e-4, 0, 0.5};
    const size_t want[] = {7, 6, 6, 7};
    for (int c = 0; c < 4; c++) {
        size_t n = ul_cli_lb_deltas(claimed[c], d), hits = 0;
        cr_assert_eq(n, want[c], "claimed %g", claimed[c]);
        for (size_t i = 0; i < n; i++) {
            cr_expect(i == 0 || d[i] > d[i - 1], "ascending at %zu", i);
            hits += d[i] == claimed[c];
        }
        cr_expect_eq(hits, claimed[c] > 0 ? 1u : 0u, "claimed %g", claimed[c]);
        cr_expect_eq(d[0], claimed[c] > 0 && claimed[c] < 1e-10 ? claimed[c] : 1e-10);
    }
}

/* The ε–δ figure's curves: the Rényi claim's curve is Mironov 2017 Prop. 3
 * at each δ, the certificate's points below 10^-12 are dropped, each curve
 * keeps its colour (claim 1, certificate 2, ε_lb 3, GDP 4) whatever is
 * left out, and the GDP estimate is μ-GDP's ε(δ) (dashed). */
Test(attack_outputs, eps_figure_curves)
{
    ul_audit_curve c;
    memset(&c, 0, sizeof c);
    c.x_key = "eps", c.y_key = "delta", c.n = 3;
    const double x[] = {1, 2, 3}, hi[] = {1e-4, 1e-9, 1e-15};
    for (int i = 0; i < 3; i++)
        c.x[i] = x[i], c.hi[i] = hi[i];
    const double ld[] = {1e-6, 1e-3}, le[] = {0.5, 0.4};
    ul_cli_eps_inputs in = {.renyi_order = "3", .renyi_value = "0.5", .delta = "1e-5",
                            .gdp_mu = 1.0, .gdp_score = "loss", .lb_delta = ld, .lb_eps = le,
                            .lb_n = 2, .lb_score = "loss", .cert = &c};
    static ul_cli_eps_figure f;
    ul_cli_eps_figure_build(&f, &in);
    cr_assert_eq(f.p.n_curves, 4);
    for (size_t k = 0; k < 4; k++)
        cr_expect_eq(f.c[k].colour, (int)k + 1, "curve %zu", k);
    for (size_t i = 0; i < f.c[0].n; i++)
        cr_expect(fabs(f.c[0].eps[i] - (0.5 + log(1 / f.c[0].delta[i]) / 2)) < 1e-12);
    cr_expect_eq(f.c[1].n, 2, "the point at 1e-15 is below the figure");
    cr_expect(f.c[1].delta[0] == 1e-9 && f.c[1].eps[0] == 2);
    cr_expect_eq(f.c[3].style, UL_EMP_CURVE_DASHED);
    cr_expect_not_null(strstr(f.c[3].label, "not a bound"));
    for (size_t i = 0; i < f.c[3].n; i += 10) { /* δ(ε) of μ-GDP at the plotted ε is δ */
        double e = f.c[3].eps[i], d = f.c[3].delta[i];
        double back = 0.5 * erfc((e - 0.5) / sqrt(2)) - exp(e) * 0.5 * erfc((e + 0.5) / sqrt(2));
        cr_expect(fabs(back - d) <= 1e-6 * d, "delta %g: %g", d, back);
    }
    in.cert = NULL, in.renyi_order = NULL, in.eps = "1";
    ul_cli_eps_figure_build(&f, &in);
    cr_assert_eq(f.p.n_curves, 3);
    cr_expect(f.c[0].n == 1 && f.c[0].delta[0] == 1e-5 && f.c[0].eps[0] == 1);
    cr_expect(f.c[0].colour == 1 && f.c[1].colour == 3 && f.c[2].colour == 4);
}

/* The certified ε_lb(δ) curve of a score: at the claimed δ it is the
 * score's own bound (computed by the ROC's path, ul_emp_roc_compute_opts); it does not increase with δ (the privacy
 * region grows with δ, so each test certifies less); and no point exceeds
 * the capacity of the counts (a perfect separation). */
Test(attack_outputs, eps_lb_curve_properties)
{
    enum { N = 200 };
    double in[N], out[N];
    for (int i = 0; i < N; i++) { /* IN separated from OUT but for a few */
        in[i] = 3.0 + (double)i / N;
        out[i] = (double)i / N - (i % 50 == 0 ? -3.5 : 0);
    }
    ul_attack_scoring sc = {.scores = UL_SCORE_LOSS,
                            .alpha = "0.05",
                            .eps = "1",
                            .delta = "1e-5"};
    ul_attack_values v = {.loss_in = in, .loss_out = out, .n_in = N, .n_out = N};
    ul_attack_result res;
    char err[512];
    cr_assert_eq(ul_attack_score_values(&res, &sc, &v, 1, err, sizeof err), UL_OK, "%s", err);
    double d[UL_CLI_LB_DELTAS], e[UL_CLI_LB_DELTAS];
    size_t n = ul_cli_lb_deltas(1e-5, d);
    cr_assert_eq(ul_attack_eps_lb_curve(&res, 0, "0.05", d, n, e, err, sizeof err), UL_OK, "%s",
                 err);
    double at = mpfr_get_d(res.score[0].roc.eps_lb, MPFR_RNDD);
    cr_expect_gt(at, 0, "the scores separate: something is certified");
    mpfi_t a, dl;
    mpfi_init2(a, 128), mpfi_init2(dl, 128);
    mpfi_set_d(a, 0.05); /* one score: α/S = α */
    mpfr_t cap;
    mpfr_init2(cap, 128);
    for (size_t i = 0; i < n; i++) {
        if (d[i] == 1e-5)
            cr_expect_eq(e[i], at, "at the claimed delta: %.17g vs %.17g", e[i], at);
        cr_expect(i == 0 || e[i] <= e[i - 1], "increases at delta %g", d[i]);
        mpfi_set_d(dl, d[i]);
        cr_assert_eq(ul_attack_eps_max(cap, N, N, a, dl, NULL, err, sizeof err), UL_OK, "%s", err);
        cr_expect(e[i] <= mpfr_get_d(cap, MPFR_RNDU), "above the capacity at delta %g", d[i]);
    }
    mpfr_clear(cap);
    mpfi_clear(a), mpfi_clear(dl);
    const double bad = 1.5;
    cr_expect_eq(ul_attack_eps_lb_curve(&res, 0, "0.05", &bad, 1, e, err, sizeof err), UL_EINPUT);
    cr_expect_not_null(strstr(err, "delta"), "%s", err);
    ul_attack_result_clear(&res);
}

/* ---- the files of a configured run ---------------------------------------- */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *b = malloc((size_t)n + 1);
    cr_assert_eq(fread(b, 1, (size_t)n, f), (size_t)n);
    b[n] = '\0';
    fclose(f);
    return b;
}

/* The per-run loss scores of one world from scores.csv (column 2). */
static size_t read_loss(const char *csv, const char *world, double *v, size_t cap)
{
    size_t n = 0;
    char w[8];
    const char *line = strchr(csv, '\n') + 1; /* after the header */
    for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        size_t run;
        double s;
        if (sscanf(line, "%7[A-Z],%zu,%lf", w, &run, &s) == 3 && strcmp(w, world) == 0) {
            cr_assert_lt(n, cap);
            cr_assert_eq(run, n, "runs in order");
            v[n++] = s;
        }
    }
    return n;
}

/* Every roc.csv row of the loss score: FPR and TPR recounted from the
 * per-run scores at the row's threshold (rule: IN iff score ≥ t). */
static void check_roc_rows(const char *roc, const double *in, size_t n_in, const double *out,
                           size_t n_out)
{
    size_t rows = 0;
    for (const char *l = roc; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        char t[64];
        double fpr, tpr;
        if (sscanf(l, "loss,%63[^,],%lf,%lf", t, &fpr, &tpr) != 3)
            continue;
        double thr = strcmp(t, "inf") == 0 ? INFINITY : strtod(t, NULL);
        size_t fp = 0, tp = 0;
        for (size_t i = 0; i < n_in; i++)
            tp += in[i] >= thr;
        for (size_t i = 0; i < n_out; i++)
            fp += out[i] >= thr;
        cr_expect_eq(fpr, (double)fp / (double)n_out, "threshold %s", t);
        cr_expect_eq(tpr, (double)tp / (double)n_in, "threshold %s", t);
        rows++;
    }
    cr_expect_geq(rows, 2);
}

/* A pixel's colour is close to (r, g, b) somewhere in the rectangle. */
static bool has_colour(cairo_surface_t *im, int x0, int x1, double r, double g, double b)
{
    int w = cairo_image_surface_get_width(im), h = cairo_image_surface_get_height(im);
    int stride = cairo_image_surface_get_stride(im);
    const unsigned char *d = cairo_image_surface_get_data(im);
    for (int y = 0; y < h; y++)
        for (int x = x0; x < x1 && x < w; x++) {
            uint32_t p = *(const uint32_t *)(d + y * stride + 4 * x);
            double pr = ((p >> 16) & 255) / 255.0, pg = ((p >> 8) & 255) / 255.0,
                   pb = (p & 255) / 255.0;
            if (fabs(pr - r) < 0.06 && fabs(pg - g) < 0.06 && fabs(pb - b) < 0.06)
                return true;
        }
    return false;
}

Test(attack_outputs, files_of_a_refutable_claim_too_large_for_the_runs, .timeout = 120)
{
    char dir[] = "/tmp/ul-attack-outputs-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char cfg[256], path[512];
    snprintf(cfg, sizeof cfg, "%s/np5.json", dir);
    /* the noiseless learner of examples/attack-nonprivate.json claimed at ε = 5 */
    char *ex = slurp("examples/attack-nonprivate.json");
    char *at = strstr(ex, "\"eps\": 1,");
    cr_assert_not_null(at);
    at[7] = '5';
    FILE *f = fopen(cfg, "w");
    fputs(ex, f);
    fclose(f);
    free(ex);
    snprintf(path, sizeof path, "%s/out", dir);
    run_result r = run("attack", cfg, "--out", path, NULL);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_not_null(strstr(r.err, "cannot refute eps = 5 with 256 runs per world"), "%s",
                       r.err);
    cr_expect_not_null(strstr(r.out, "GDP estimate (an estimate, not a bound)"), "%s", r.out);
    run_free(&r);

    snprintf(path, sizeof path, "%s/out/scores.csv", dir);
    char *scores = slurp(path);
    cr_expect_eq(strncmp(scores, "world,run,loss,gaussian-lr\n", 27), 0);
    double *in = malloc(256 * sizeof *in), *out = malloc(256 * sizeof *out);
    size_t n_in = read_loss(scores, "IN", in, 256), n_out = read_loss(scores, "OUT", out, 256);
    cr_expect_eq(n_in, 256);
    cr_expect_eq(n_out, 256);
    snprintf(path, sizeof path, "%s/out/roc.csv", dir);
    char *roc = slurp(path);
    cr_expect_not_null(strstr(roc, "score,threshold,fpr,tpr\n"));
    check_roc_rows(roc, in, n_in, out, n_out);
    free(roc), free(scores), free(in), free(out);

    /* the pictures: two panels, each with the ROC's blue and the claim's red */
    const char *pngs[] = {"roc.png", "roc-loss.png", "roc-gaussian-lr.png", "eps-delta.png"};
    for (int k = 0; k < 4; k++) {
        snprintf(path, sizeof path, "%s/out/%s", dir, pngs[k]);
        cairo_surface_t *im = cairo_image_surface_create_from_png(path);
        cr_assert_eq(cairo_surface_status(im), CAIRO_STATUS_SUCCESS, "%s", path);
        int w = cairo_image_surface_get_width(im);
        if (k < 3) {
            cr_expect_eq(w, 1600, "%s: two panels", pngs[k]);
            for (int half = 0; half < 2; half++) {
                cr_expect(has_colour(im, half * 800, half * 800 + 800, 0.10, 0.30, 0.80),
                          "%s panel %d: no ROC", pngs[k], half);
                cr_expect(has_colour(im, half * 800, half * 800 + 800, 0.85, 0.10, 0.10),
                          "%s panel %d: no ceiling", pngs[k], half);
            }
        } else {
            cr_expect(has_colour(im, 0, w, 0.85, 0.10, 0.10), "eps-delta: no claim");
        }
        cairo_surface_destroy(im);
        snprintf(path, sizeof path, "%s/out/%.*s.svg", dir, (int)(strlen(pngs[k]) - 4), pngs[k]);
        if (k > 0) {
            char *svg = slurp(path);
            cr_expect_not_null(strstr(svg, "<svg"), "%s", path);
            free(svg);
        }
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}
