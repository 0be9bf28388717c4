/* tests/test_emp_eps_lb.c — the valid ε lower bounds of stats/eps_lb.h and
 * the GDP estimate of stats/gdp.h, against independent values: closed forms
 * evaluated here with plain 256-bit MPFR, exact GMP rationals, published
 * vectors (TF Privacy, jax_privacy, with their sources), and false-
 * refutation counts over many seeds on a pair whose privacy is exact. */
#include <criterion/criterion.h>
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "stats/eps_lb.h"
#include "stats/gdp.h"
#include "stats/roc_hull.h"
#include "stats/special_d.h"
#include "stats/stats.h"
#include "memlimit.h"
#include "num/encl.h"

static void setup(void)
{
    ul_num_init();
}

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(emp_eps_lb, .init = setup, .fini = teardown);

static void iv_set(mpfi_ptr a, const char *text)
{
    mpfi_init2(a, 128);
    cr_assert_eq(ul_num_set_decimal(a, text), UL_OK);
}

/* ε = log((1 − p)/p) with p = 1 − β^(1/n): the CP upper bound for 0
 * successes in n trials at level β is 1 − β^(1/n) (P[Bin(n, p) = 0] =
 * (1 − p)^n = β), at 256 bits. */
static double eps_zero_counts(unsigned long n, double beta)
{
    mpfr_t p, q;
    mpfr_inits2(256, p, q, (mpfr_ptr)0);
    mpfr_set_d(p, beta, MPFR_RNDN);
    mpfr_log(p, p, MPFR_RNDN);
    mpfr_div_ui(p, p, n, MPFR_RNDN);
    mpfr_expm1(p, p, MPFR_RNDN);
    mpfr_neg(p, p, MPFR_RNDN); /* p = 1 − β^(1/n) */
    mpfr_ui_sub(q, 1, p, MPFR_RNDN);
    mpfr_div(q, q, p, MPFR_RNDN);
    mpfr_log(q, q, MPFR_RNDN);
    double v = mpfr_get_d(q, MPFR_RNDN);
    mpfr_clears(p, q, (mpfr_ptr)0);
    return v;
}

/* ---- the grid ----------------------------------------------------------------- */

Test(emp_eps_lb, grid_by_hand)
{
    /* K(20), ratio 1.25: k → max(k + 1, ⌊1.25 k⌋), worked by hand */
    const unsigned long want[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 18};
    unsigned long ks[32];
    size_t c = ul_emp_lb_grid(20, 1.25, ks, 32);
    cr_assert_eq(c, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < c; i++)
        cr_assert_eq(ks[i], want[i]);
    /* ratio 2: 0, 1, 2, 4, 8, 16, 32 (< 40) */
    cr_assert_eq(ul_emp_lb_grid(40, 2.0, NULL, 0), 7);
    /* logarithmic growth: |K(n)| ≤ log(n)/log(1.25) + 10 */
    cr_assert(ul_emp_lb_grid(1000000, 1.25, NULL, 0) <= (size_t)(log(1e6) / log(1.25)) + 10);
}

/* The double-precision Clopper–Pearson bound that ranks candidates against
 * the certified MPFR one (stats/stats.h): within 1e-9 relative. */
Test(emp_eps_lb, double_cp_matches_certified_cp)
{
    const unsigned long cases[][2] = {{0, 500}, {3, 4096}, {200, 4096}, {2000, 4096}, {9, 10}};
    const char *levels[] = {"0.025", "1e-6"};
    mpfr_t b;
    mpfr_init2(b, 64);
    char err[256];
    for (int l = 0; l < 2; l++)
        for (int c = 0; c < 5; c++) {
            mpfi_t a;
            iv_set(a, levels[l]);
            cr_assert_eq(ul_emp_cp_upper(b, cases[c][0], cases[c][1], a, 12, err, sizeof err),
                         UL_OK, "%s", err);
            double want = mpfr_get_d(b, MPFR_RNDN);
            double got = ul_emp_cp_upper_d(cases[c][0], cases[c][1], strtod(levels[l], NULL));
            cr_assert(fabs(got - want) <= 1e-9 * want, "k=%lu n=%lu: %.15g vs %.15g", cases[c][0],
                      cases[c][1], got, want);
            mpfi_clear(a);
        }
    mpfr_clear(b);
}

/* ---- published vectors --------------------------------------------------------- */

/* TF Privacy's audit vector (tensorflow_privacy privacy_tests, quoted in
 * issue 15): 500 IN and 500 OUT scores perfectly separated, α = 0.01, one
 * pre-chosen threshold, δ = 0: ε_lb = 4.541915810224092.  Independently:
 * log((1 − p)/p) with p = 1 − 0.005^(1/500). */
Test(emp_eps_lb, tf_privacy_vector_fixed_threshold)
{
    enum { N = 500 };
    double in[N], out[N];
    for (int i = 0; i < N; i++) {
        in[i] = 1.0 + i * 1e-3;
        out[i] = -1.0 - i * 1e-3;
    }
    mpfi_t a, d;
    iv_set(a, "0.01");
    iv_set(d, "0");
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    o.method = UL_EMP_LB_FIXED;
    o.threshold = 0.0;
    ul_emp_lb_result r;
    ul_emp_lb_init(&r);
    char err[256];
    cr_assert_eq(ul_emp_eps_lb(&r, in, N, out, N, a, d, &o, err, sizeof err), UL_OK, "%s", err);
    double e = mpfr_get_d(r.eps_lb, MPFR_RNDN);
    cr_assert(e <= 4.541915810224092 + 1e-15 && e > 4.541915810224092 - 1e-9, "eps %.16g", e);
    cr_assert(fabs(e - eps_zero_counts(N, 0.005)) < 1e-9);
    cr_assert_eq(r.m, 1);
    ul_emp_lb_clear(&r);
    mpfi_clear(a);
    mpfi_clear(d);
}

/* The family on separated scores: its best test has 0 false positives and
 * 0 false negatives, paid for with m = 2|K(n)| tests at α/(2m) each. */
Test(emp_eps_lb, family_closed_form_on_separated_scores)
{
    enum { N = 300 };
    double in[N], out[N];
    for (int i = 0; i < N; i++) {
        in[i] = 5.0 + (i % 11);
        out[i] = -(double)(i % 13);
    }
    mpfi_t a, d;
    iv_set(a, "0.05");
    iv_set(d, "0");
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    ul_emp_lb_result r;
    ul_emp_lb_init(&r);
    char err[256];
    cr_assert_eq(ul_emp_eps_lb(&r, in, N, out, N, a, d, &o, err, sizeof err), UL_OK, "%s", err);
    unsigned long m = 2 * ul_emp_lb_grid(N, 1.25, NULL, 0);
    cr_assert_eq(r.m, m);
    double want = eps_zero_counts(N, 0.05 / (2.0 * (double)m));
    double e = mpfr_get_d(r.eps_lb, MPFR_RNDN);
    cr_assert(e <= want + 1e-12 && e > want - 1e-8, "eps %.12g want %.12g", e, want);
    ul_emp_lb_clear(&r);
    mpfi_clear(a);
    mpfi_clear(d);
}

/* ---- one run -------------------------------------------------------------------- */

/* Exact p-value at ε = log 3 (q = 3/4) with GMP rationals:
 * β = P[Bin(r, ¾) ≥ v], p = β + 2mδ·max_i P[v−i ≤ X ≤ v−1]/i. */
static void pvalue_exact(mpq_t p, unsigned long m, unsigned long r, unsigned long v, mpq_srcptr dl)
{
    mpq_t *b = malloc((r + 1) * sizeof *b), beta, win, t, amax;
    mpz_t c, num;
    mpz_inits(c, num, NULL);
    mpq_inits(beta, win, t, amax, NULL);
    for (unsigned long j = 0; j <= r; j++) { /* C(r, j) 3^j / 4^r */
        mpq_init(b[j]);
        mpz_bin_uiui(c, r, j);
        mpz_ui_pow_ui(num, 3, j);
        mpz_mul(num, num, c);
        mpq_set_z(b[j], num);
        mpz_ui_pow_ui(num, 4, r);
        mpq_set_z(t, num);
        mpq_div(b[j], b[j], t);
    }
    for (unsigned long j = v; j <= r; j++)
        mpq_add(beta, beta, b[j]);
    for (unsigned long i = 1; i <= v; i++) {
        mpq_add(win, win, b[v - i]);
        mpq_set_ui(t, 1, i);
        mpq_mul(t, t, win);
        if (mpq_cmp(t, amax) > 0)
            mpq_set(amax, t);
    }
    mpq_set_ui(t, 2 * m, 1);
    mpq_mul(t, t, dl);
    mpq_mul(t, t, amax);
    mpq_add(p, beta, t);
    for (unsigned long j = 0; j <= r; j++)
        mpq_clear(b[j]);
    free(b);
    mpq_clears(beta, win, t, amax, NULL);
    mpz_clears(c, num, NULL);
}

Test(emp_eps_lb, onerun_pvalue_against_rationals)
{
    const unsigned long cases[][3] = {{100, 40, 36}, {1000, 60, 55}, {50, 20, 20}, {400, 200, 170}};
    mpq_t dl, p;
    mpq_inits(dl, p, NULL);
    mpq_set_ui(dl, 1, 1000);
    for (size_t c = 0; c < 4; c++) {
        unsigned long m = cases[c][0], r = cases[c][1], v = cases[c][2];
        pvalue_exact(p, m, r, v, dl);
        double want = mpq_get_d(p) < 1 ? mpq_get_d(p) : 1;
        double got = ul_emp_onerun_pvalue_d(m, r, v, log(3.0), 1e-3);
        cr_assert(fabs(got - want) <= 1e-11 * want, "case %zu: %.17g vs %.17g", c, got, want);
    }
    mpq_clears(dl, p, NULL);
}

/* Certified ε_lb at the level equal to the exact p-value at log 3: the
 * covering proves p ≤ level up to ε_lb, so ε_lb ≤ log 3 (p increases
 * through log 3 here) and it comes within the search tolerance. */
Test(emp_eps_lb, onerun_certified_inverts_the_exact_pvalue)
{
    const unsigned long m = 400, r = 60, v = 52;
    mpq_t dl, p;
    mpq_inits(dl, p, NULL);
    mpq_set_ui(dl, 1, 1000);
    pvalue_exact(p, m, r, v, dl);
    mpfi_t lev, d;
    mpfi_init2(lev, 256);
    mpfi_set_q(lev, p);
    iv_set(d, "0.001");
    mpfr_t e;
    mpfr_init2(e, 64);
    char err[256];
    cr_assert_eq(ul_emp_onerun_eps(e, m, r, v, d, lev, err, sizeof err), UL_OK, "%s", err);
    double got = mpfr_get_d(e, MPFR_RNDN);
    cr_assert(got <= log(3.0) + 1e-12 && got > log(3.0) - 1e-6, "eps %.12g vs log 3", got);
    mpfr_clear(e);
    mpfi_clear(lev);
    mpfi_clear(d);
    mpq_clears(dl, p, NULL);
}

/* jax_privacy's one-run vectors (SNJ and f-DP): tests/test_onerun.c. */

/* ---- false refutations ----------------------------------------------------------- */

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double unif(uint64_t *s)
{
    return ((double)(splitmix(s) >> 11) + 0.5) * 0x1p-53;
}

/* Randomised response at ε = 1: the bit is 1 with probability e/(1 + e) in
 * the IN world and 1/(1 + e) in the OUT world, plus a uniform jitter with
 * the same law in both worlds (post-processing).  The pair is exactly
 * (1, 0)-DP and no better, so a claim (ε, δ) = (1, 0) is true and tight. */
static double rr_score(int in, uint64_t *s)
{
    double p1 = in ? exp(1.0) / (1 + exp(1.0)) : 1 / (1 + exp(1.0));
    return (unif(s) < p1 ? 1.0 : 0.0) + 0.5 * unif(s);
}

/* Each seed is independent and refutes with probability ≤ α = 0.05 when
 * the method is valid, so the count is stochastically below Bin(200, 0.05)
 * (mean 10, sd 3.08); P[Bin(200, 0.05) > 20] ≈ 1.2e-3, so more than 20
 * refutations would be evidence against validity at that level.  (The
 * seeds are fixed: the outcome is deterministic.) */
#define SEEDS 200
#define ALLOWED 20

/* 1 when the method's bound exceeds the true ε = 1 (a false refutation). */
/* variant 1: JOINT with geometric weights; 2: JOINT on k = 0 alone, one-sided */
static int refutes_eps_1(ul_emp_lb_method method, int variant, const double *in, size_t ni,
                         const double *out, size_t no, mpfi_srcptr a, mpfi_srcptr d)
{
    char err[256];
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    o.method = method;
    o.geometric = variant == 1;
    o.k_max = variant == 2 ? 0 : -1;
    o.one_sided = variant == 2;
    o.threshold = 1.0; /* FIXED: chosen before the data */
    ul_emp_lb_result r;
    ul_emp_lb_init(&r);
    cr_assert_eq(ul_emp_eps_lb(&r, in, ni, out, no, a, d, &o, err, sizeof err), UL_OK, "%s", err);
    int v = mpfr_cmp_ui(r.eps_lb, 1) > 0;
    ul_emp_lb_clear(&r);
    return v;
}

static int count_refutations(ul_emp_lb_method method, int variant, size_t n)
{
    mpfi_t a, d;
    iv_set(a, "0.05");
    iv_set(d, "0");
    double *in = malloc(2 * n * sizeof *in), *out = malloc(2 * n * sizeof *out);
    int refuted = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        uint64_t s = seed * 7919;
        size_t ni = 0, no = 0;
        for (size_t i = 0; i < 2 * n; i++) { /* ONERUN: fair independent inclusion */
            int inc = method == UL_EMP_LB_ONERUN ? unif(&s) < 0.5 : (int)(i < n);
            if (inc)
                in[ni++] = rr_score(1, &s);
            else
                out[no++] = rr_score(0, &s);
        }
        refuted += refutes_eps_1(method, variant, in, ni, out, no, a, d);
    }
    free(in);
    free(out);
    mpfi_clear(a);
    mpfi_clear(d);
    return refuted;
}

Test(emp_eps_lb, false_refutations_within_allowance, .timeout = 300)
{
    const ul_emp_lb_method ms[] = {UL_EMP_LB_FAMILY, UL_EMP_LB_FIXED, UL_EMP_LB_SPLIT,
                                   UL_EMP_LB_ONERUN, UL_EMP_LB_JOINT, UL_EMP_LB_ALL,
                                   UL_EMP_LB_JOINT,  UL_EMP_LB_JOINT};
    const char *names[] = {"family", "fixed", "split",           "onerun",
                           "joint",  "all",   "joint geometric", "joint k = 0"};
    for (int i = 0; i < 8; i++) {
        int c = count_refutations(ms[i], i < 6 ? 0 : i - 5, 400);
        cr_log_info("%s: %d false refutations of %d", names[i], c, SEEDS);
        cr_assert(c <= ALLOWED, "%s: %d false refutations of %d", names[i], c, SEEDS);
    }
}

/* The same with ties: scores are the randomised-response bits themselves
 * (two atoms), which the lemma covers (atoms allowed); same allowance. */
Test(emp_eps_lb, false_refutations_with_ties, .timeout = 300)
{
    mpfi_t a, d;
    iv_set(a, "0.05");
    iv_set(d, "0");
    enum { N = 200 };
    double in[N], out[N], e = exp(1.0);
    const ul_emp_lb_method ms[] = {UL_EMP_LB_ALL, UL_EMP_LB_FAMILY, UL_EMP_LB_JOINT,
                                   UL_EMP_LB_JOINT, UL_EMP_LB_JOINT};
    for (int m = 0; m < 5; m++) {
        int refuted = 0;
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            uint64_t s = seed * 104729;
            for (int i = 0; i < N; i++) {
                in[i] = unif(&s) < e / (1 + e);
                out[i] = unif(&s) < 1 / (1 + e);
            }
            refuted += refutes_eps_1(ms[m], m < 3 ? 0 : m - 2, in, N, out, N, a, d);
        }
        cr_assert(refuted <= ALLOWED, "method %d: %d false refutations of %d", m, refuted, SEEDS);
    }
    mpfi_clear(a);
    mpfi_clear(d);
}

/* ---- the joint test's p-value ------------------------------------------------------ */

/* π = ∫ P[Bin(n1, min(1, e^ε f + δ)) ≥ x] dG(f), G the Beta(k+1, n0−k) law
 * with density C·f^k (1−f)^(n0−k−1), by a 400,000-cell midpoint rule in
 * long double (the binomial tail by direct summation): the certified bound
 * must lie above it and, on a 600-point grid, within 8 % of it. */
static double joint_quadrature(unsigned k, unsigned n0, unsigned x, unsigned n1, double eps,
                               double delta)
{
    const int cells = 400000;
    long double sum = 0, lbeta = lgammal(k + 1) + lgammal(n0 - k) - lgammal(n0 + 1);
    for (int c = 0; c < cells; c++) {
        long double f = (c + 0.5L) / cells, p = expl(eps) * f + delta, tail = 0;
        if (p >= 1)
            tail = 1;
        else
            for (unsigned i = x; i <= n1; i++)
                tail += expl(lgammal(n1 + 1) - lgammal(i + 1) - lgammal(n1 - i + 1) + i * logl(p) +
                             (n1 - i) * log1pl(-p));
        sum += tail * expl(k * logl(f) + (n0 - k - 1) * log1pl(-f) - lbeta);
    }
    return (double)(sum / cells);
}

Test(emp_eps_lb, joint_pvalue_bound_against_quadrature, .timeout = 120)
{
    const struct {
        unsigned k, n0, x, n1;
        double eps;
    } cases[] = {{0, 40, 12, 40, 1.0}, {2, 60, 20, 50, 1.5}, {5, 80, 40, 80, 0.7}};
    mpfi_t d;
    iv_set(d, "0.001");
    for (int c = 0; c < 3; c++) {
        double f[600];
        size_t J = 0;
        for (int i = 1; i <= 600; i++) /* a plain grid; the bound holds for any grid */
            f[J++] = pow(i / 601.0, 2);
        mpfr_t e, p;
        mpfr_inits2(64, e, p, (mpfr_ptr)0);
        mpfr_set_d(e, cases[c].eps, MPFR_RNDN);
        char err[256];
        cr_assert_eq(ul_emp_joint_pvalue_upper(p, cases[c].k, cases[c].n0, cases[c].x, cases[c].n1,
                                               e, d, f, J, err, sizeof err),
                     UL_OK, "%s", err);
        double q =
            joint_quadrature(cases[c].k, cases[c].n0, cases[c].x, cases[c].n1, cases[c].eps, 0.001);
        double got = mpfr_get_d(p, MPFR_RNDU);
        cr_assert(got >= q * (1 - 1e-6), "case %d: bound %.10g below the integral %.10g", c, got,
                  q);
        cr_assert(got <= q * 1.08 + 1e-12, "case %d: bound %.10g far above %.10g", c, got, q);
        mpfr_clears(e, p, (mpfr_ptr)0);
    }
    mpfi_clear(d);
}

/* ---- GDP estimate ------------------------------------------------------------------ */

/* μ from the AUC inverts AUC = Φ(μ/√2); ε(δ) against the closed form: at
 * ε = 0, δ(0) = Φ(μ/2) − Φ(−μ/2) = erf(μ/(2√2)), so asking for exactly that
 * δ gives ε = 0 (and a smaller δ a positive ε). */
Test(emp_eps_lb, gdp_estimate_closed_forms)
{
    double mu = 1.7, auc = 0.5 * erfc(-mu / sqrt(2.0) / sqrt(2.0));
    cr_assert(fabs(ul_emp_gdp_mu_from_auc(auc) - mu) < 1e-12);
    double d0 = erf(mu / (2 * sqrt(2.0)));
    cr_assert(ul_emp_gdp_eps(mu, d0 * (1 + 1e-12)) == 0);
    double e = ul_emp_gdp_eps(mu, d0 / 2);
    cr_assert(e > 0);
    /* the profile at that ε gives back δ = d0/2 */
    double x = 0.5 * erfc((e / mu - mu / 2) / sqrt(2.0)) -
               exp(e) * 0.5 * erfc((e / mu + mu / 2) / sqrt(2.0));
    cr_assert(fabs(x - d0 / 2) < 1e-10 * d0, "delta %.17g vs %.17g", x, d0 / 2);
    cr_assert(ul_emp_gdp_mu_from_auc(0.4) == 0);
    cr_assert(isnan(ul_emp_gdp_eps(1, 0)));
}

/* ---- out of memory (policy of num/status.h) ------------------------------------ */

#define OOM_N 2000000 /* scores per world: 16 MB each */

/* ul_emp_eps_lb of `method` must fail with UL_ENOMEM and a message naming
 * the number of scores, not abort (the test would crash). */
static void expect_no_room(const double *in, const double *out, ul_emp_lb_method method)
{
    mpfi_t a, d;
    iv_set(a, "0.05");
    iv_set(d, "0");
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    o.method = method;
    char err[256] = "";
    ul_emp_lb_result r;
    ul_emp_lb_init(&r);
    ul_status st = ul_emp_eps_lb(&r, in, OOM_N, out, OOM_N, a, d, &o, err, sizeof err);
    cr_log_info("method %d: %s", (int)method, err);
    cr_assert_eq(st, UL_ENOMEM, "method %d: status %d (%s)", (int)method, (int)st, err);
    cr_assert_not_null(strstr(err, "out of memory"), "%s", err);
    cr_assert_not_null(strstr(err, "2000000 in_scores and 2000000 out_scores"), "%s", err);
    ul_emp_lb_clear(&r);
    mpfi_clear(a);
    mpfi_clear(d);
}

/* Arrays sized by the number of scores fail with UL_ENOMEM under an
 * address-space limit just above what the process maps with the scores
 * loaded (Criterion runs each test in a process of its own, so the limit
 * stays here): 8 MB more leaves no room for the sorted copies (16 MB each),
 * for every method; 40 MB more holds the copies but not the legacy method's
 * thresholds (4 arrays of 2n + 1 entries) nor SUM's negated copies.
 * Skipped under a sanitizer or valgrind, which map memory of their own. */
Test(emp_eps_lb, scores_beyond_memory_are_an_error_not_an_abort)
{
    MEMLIMIT_SKIP_UNDER_SANITIZER();
    double *in = malloc(OOM_N * sizeof *in), *out = malloc(OOM_N * sizeof *out);
    cr_assert(in != NULL && out != NULL);
    for (size_t i = 0; i < OOM_N; i++)
        in[i] = (double)i + 0.5, out[i] = (double)i;
    const size_t headroom[2] = {(size_t)8 << 20, (size_t)40 << 20};
    const ul_emp_lb_method small[] = {UL_EMP_LB_FAMILY, UL_EMP_LB_FIXED, UL_EMP_LB_SPLIT,
                                      UL_EMP_LB_ALL,    UL_EMP_LB_JOINT, UL_EMP_LB_SUM};
    struct rlimit lim; /* the soft limit only: it can be raised again */
    cr_assert_eq(getrlimit(RLIMIT_AS, &lim), 0);
    lim.rlim_cur = memlimit_mapped_bytes() + headroom[0];
    cr_assert_eq(setrlimit(RLIMIT_AS, &lim), 0);
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
        expect_no_room(in, out, small[i]);
    lim.rlim_cur = memlimit_mapped_bytes() + headroom[1];
    cr_assert_eq(setrlimit(RLIMIT_AS, &lim), 0);
    expect_no_room(in, out, UL_EMP_LB_ALL);
    expect_no_room(in, out, UL_EMP_LB_SUM);
    free(in);
    free(out);
}

/* ---- bad inputs ----------------------------------------------------------------- */

Test(emp_eps_lb, bad_inputs_name_the_parameter)
{
    mpfi_t a, d;
    iv_set(a, "0.05");
    iv_set(d, "0");
    double s[] = {1, 2, 3};
    ul_emp_lb_result r;
    ul_emp_lb_init(&r);
    char err[256];
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    o.method = UL_EMP_LB_SPLIT;
    o.split_frac = 1.5;
    cr_assert_eq(ul_emp_eps_lb(&r, s, 3, s, 3, a, d, &o, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "split_frac"));
    o.method = UL_EMP_LB_FIXED;
    o.threshold = NAN;
    cr_assert_eq(ul_emp_eps_lb(&r, s, 3, s, 3, a, d, &o, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "threshold"));
    o = ul_emp_lb_defaults();
    cr_assert_eq(ul_emp_eps_lb(&r, s, 0, s, 3, a, d, &o, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "in_scores"));
    o.ratio = 0.5;
    cr_assert_eq(ul_emp_eps_lb(&r, s, 3, s, 3, a, d, &o, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "ratio"));
    o = ul_emp_lb_defaults(); /* SUM: at most 16 order statistics (k_max ≤ 15) */
    o.method = UL_EMP_LB_SUM;
    o.k_max = 16;
    cr_assert_eq(ul_emp_eps_lb(&r, s, 3, s, 3, a, d, &o, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "k_max"));
    ul_emp_lb_clear(&r);
    mpfi_clear(a);
    mpfi_clear(d);
}

/* Geometric weights 2^-(j+1) along a grid of L counts need divisors up to
 * 2^(L-1) (two-sided 2^L): beyond 64 bits the shift wrapped and the weights
 * summed above 1 (ratio 1.05, n = 1000: L = 111, a test at level alpha/2).
 * L is counted here by the grid's recursion (stats/eps_lb.h: k_0 = 0,
 * k_{i+1} = max(floor(r k_i), k_i + 1), k < n), independently. */
static size_t grid_len(unsigned long n, double r)
{
    size_t L = 0;
    for (unsigned long k = 0; k < n; L++)
        k = (unsigned long)floor(r * (double)k) > k + 1 ? (unsigned long)floor(r * (double)k) : k + 1;
    return L;
}

Test(emp_eps_lb, geometric_weights_refuse_a_grid_beyond_64_bits)
{
    mpfi_t a, d;
    iv_set(a, "0.05");
    iv_set(d, "0");
    enum { N = 1000 };
    double *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    for (int i = 0; i < N; i++)
        in[i] = 1 + i, out[i] = -1 - i; /* separated: the k = 0 test decides */
    ul_emp_lb_result r;
    ul_emp_lb_init(&r);
    char err[256];
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    o.method = UL_EMP_LB_JOINT;
    o.geometric = true;
    o.ratio = 1.05;
    cr_assert(grid_len(N, 1.05) > 64, "L = %zu", grid_len(N, 1.05));
    cr_assert_eq(ul_emp_eps_lb(&r, in, N, out, N, a, d, &o, err, sizeof err), UL_EINPUT);
    cr_assert(strncmp(err, "ratio:", 6) == 0, "%s", err);
    /* ratio 1.1: L = 64, refused two-sided (divisor 2^64), accepted one-sided
     * with the k = 0 test at level alpha/2 (weight 1/2) */
    o.ratio = 1.1;
    cr_assert_eq(grid_len(N, 1.1), 64);
    cr_assert_eq(ul_emp_eps_lb(&r, in, N, out, N, a, d, &o, err, sizeof err), UL_EINPUT);
    o.one_sided = true;
    cr_assert_eq(ul_emp_eps_lb(&r, in, N, out, N, a, d, &o, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(r.divisor, 2, "divisor %lu", r.divisor);
    ul_emp_lb_clear(&r);
    free(in);
    free(out);
    mpfi_clear(a);
    mpfi_clear(d);
}

/* ---- the weighted sum over order statistics (SUM) ---------------------------------- */

/* The K smallest of n uniforms, ascending (selection by insertion). */
static void smallest_uniforms(uint64_t *s, unsigned n, unsigned K, double *u)
{
    unsigned have = 0;
    for (unsigned i = 0; i < n; i++) {
        double v = unif(s);
        if (have == K && v >= u[K - 1])
            continue;
        unsigned j = have < K ? have++ : K - 1;
        while (j > 0 && u[j - 1] > v) {
            u[j] = u[j - 1];
            j--;
        }
        u[j] = v;
    }
}

/* P[Σ_k c_k U_(k+1) > ℓ] against (1 − ℓ)^n0 for K = 1 (U_(1) ~ Beta(1, n0),
 * 256-bit MPFR) and against a Monte-Carlo of sorted uniforms for K = 5
 * (200,000 draws; within 5 standard errors). */
Test(emp_eps_lb, sum_tail_against_closed_form_and_monte_carlo, .timeout = 60)
{
    const unsigned long one[1] = {1};
    const double ells[] = {1e-3, 0.02, 0.1};
    for (int i = 0; i < 3; i++) {
        mpfr_t q;
        mpfr_init2(q, 256);
        mpfr_set_d(q, ells[i], MPFR_RNDN);
        mpfr_ui_sub(q, 1, q, MPFR_RNDN);
        mpfr_pow_ui(q, q, 50, MPFR_RNDN);
        double want = mpfr_get_d(q, MPFR_RNDN), got = ul_emp_sum_tail_upper(one, 1, 50, ells[i]);
        cr_assert(got >= want * (1 - 1e-15) && got <= want * (1 + 1e-12), "K = 1, ell %g: %.17g vs %.17g",
                  ells[i], got, want);
        mpfr_clear(q);
    }
    const unsigned long c[5] = {60, 30, 20, 15, 12};
    enum { N0 = 40, DRAWS = 200000 };
    const double probe[] = {4.0, 7.0, 11.0};
    int above[3] = {0, 0, 0};
    uint64_t s = 12345;
    for (int d = 0; d < DRAWS; d++) {
        double u[5], L = 0;
        smallest_uniforms(&s, N0, 5, u);
        for (int k = 0; k < 5; k++)
            L += (double)c[k] * u[k];
        for (int i = 0; i < 3; i++)
            above[i] += L > probe[i];
    }
    for (int i = 0; i < 3; i++) {
        double ph = (double)above[i] / DRAWS, se = sqrt(ph * (1 - ph) / DRAWS) + 1e-6;
        double got = ul_emp_sum_tail_upper(c, 5, N0, probe[i]);
        cr_log_info("K = 5, ell %g: formula %.6f, Monte-Carlo %.6f", probe[i], got, ph);
        cr_assert(fabs(got - ph) <= 5 * se, "K = 5, ell %g: %.6f vs Monte-Carlo %.6f (se %.1e)",
                  probe[i], got, ph, se);
    }
}

static double sum_run(const double *in, size_t ni, const double *out, size_t no, long k_max,
                      bool one_sided, const char *delta)
{
    mpfi_t a, d;
    iv_set(a, "0.05");
    iv_set(d, delta);
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    o.method = UL_EMP_LB_SUM;
    o.k_max = k_max;
    o.one_sided = one_sided;
    char err[256];
    double e = ul_emp_eps_lb_value(in, ni, out, no, a, d, &o, err, sizeof err);
    cr_assert(!isnan(e), "%s", err);
    mpfi_clear(a);
    mpfi_clear(d);
    return e;
}

/* Hoeffding's bound exp(−n·KL(x‖p)) (1 when p ≥ x), written out here. */
static long double hoeffding_l(long double x, unsigned n, long double p)
{
    if (p >= x)
        return 1;
    long double kl = x * logl(x / p) + (x < 1 ? (1 - x) * logl((1 - x) / (1 - p)) : 0);
    return expl(-(long double)n * kl);
}

/* The conditional bound of SUM at the count xs (= s/C) of n terms: the
 * smaller of Hoeffding's and min over every integer h < xs of E(B − h)_+ /
 * (xs − h), B ~ Bin(n, p), from the binomial pmf summed directly here. */
static long double g_bound(long double xs, unsigned n, long double p)
{
    long double best = hoeffding_l(xs / n, n, p);
    if (p >= xs / n || p <= 0)
        return 1;
    if (p >= 1)
        return best;
    long double pmf[1024], excess = 0, above = 0; /* above = P[B > h] */
    pmf[0] = expl(n * log1pl(-p));
    for (unsigned k = 0; k < n; k++)
        pmf[k + 1] = pmf[k] * (n - k) / (k + 1) * p / (1 - p);
    for (long h = (long)n; h >= 0; h--) { /* excess(h) = excess(h + 1) + P[B > h] */
        if (h < (long)n)
            excess += above;
        above += pmf[h];
        if (h < xs && excess / (xs - h) < best)
            best = excess / (xs - h);
    }
    return best;
}

/* K = 1: the bound is ∫ g(min(1, e^ε u + δ)) dBeta(1, n0)(u) (g of g_bound), here by a
 * 100,000-cell midpoint rule on the density n0 (1 − u)^(n0 − 1) in long
 * double (no Rényi, no hypoexponential formula); ε_q its root at α = 0.05
 * by bisection.  The certified ε must not exceed ε_q (the integral at it
 * ≤ α, up to the quadrature's 1e-4) and must be within 0.01 of it. */
static long double sum_k1_quadrature(unsigned n0, unsigned n1, long double x, long double eps,
                                     long double delta)
{
    const int cells = 100000;
    long double acc = 0;
    for (int c = 0; c < cells; c++) {
        long double u = (c + 0.5L) / cells, p = fminl(1, expl(eps) * u + delta);
        acc += g_bound(x * n1, n1, p) * n0 * expl((n0 - 1) * log1pl(-u));
    }
    return acc / cells;
}

Test(emp_eps_lb, sum_k1_against_quadrature, .timeout = 60)
{
    enum { N0 = 100, N1 = 50 };
    double in[N1], out[N0];
    const unsigned hits[2] = {50, 40}; /* IN scores above every OUT score */
    const char *deltas[2] = {"0", "0.001"};
    for (int c = 0; c < 2; c++) {
        for (int i = 0; i < N0; i++)
            out[i] = i / (double)N0;
        for (int i = 0; i < N1; i++)
            in[i] = i < (int)hits[c] ? 2 + i / 100.0 : -1;
        double e = sum_run(in, N1, out, N0, 0, true, deltas[c]);
        long double x = hits[c] / (long double)N1, dl = c ? 0.001L : 0, lo = 0, hi = 20;
        for (int it = 0; it < 30; it++) {
            long double mid = (lo + hi) / 2;
            if (sum_k1_quadrature(N0, N1, x, mid, dl) <= 0.05L)
                lo = mid;
            else
                hi = mid;
        }
        cr_log_info("K = 1, %u of %u: certified %.6f, quadrature %.6Lf", hits[c], N1, e, lo);
        cr_assert(sum_k1_quadrature(N0, N1, x, e, dl) <= 0.05L * (1 + 1e-4L), "case %d", c);
        cr_assert(e >= lo - 0.01L && e > 0, "case %d: %.6f far below %.6Lf", c, e, lo);
    }
}

static double normal(uint64_t *s)
{
    return sqrt(-2 * log(unif(s))) * cos(6.283185307179586 * unif(s)); /* Box–Muller, 2π */
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The whole SUM chain (K = 5, one-sided) against an independent
 * computation: the statistic counted here, and the bound E[g(e^ε L/C + δ)]
 * (g of g_bound) by a Monte-Carlo of L = Σ c_k U_(k+1) from sorted uniforms (100,000
 * draws).  At the certified ε the Monte-Carlo p-value is ≤ α (within 4
 * standard errors); 0.05 above it, it exceeds α (the bound is not loose). */
Test(emp_eps_lb, sum_whole_chain_against_monte_carlo, .timeout = 60)
{
    enum { N = 200, DRAWS = 100000 };
    const double c[5] = {60, 30, 20, 15, 12}, C = 137;
    double in[N], out[N];
    uint64_t s = 777;
    for (int i = 0; i < N; i++) {
        in[i] = 3 + normal(&s);
        out[i] = normal(&s);
    }
    double e = sum_run(in, N, out, N, -1, true, "0.00001");
    qsort(out, N, sizeof *out, cmp_d);
    double stat = 0;
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < N; i++)
            stat += c[k] * (in[i] > out[N - 1 - k]);
    long double x = stat / (N * C);
    double *L = malloc(DRAWS * sizeof *L);
    for (int d = 0; d < DRAWS; d++) {
        double u[5];
        smallest_uniforms(&s, N, 5, u);
        L[d] = 0;
        for (int k = 0; k < 5; k++)
            L[d] += c[k] * u[k];
    }
    double pv[2];
    for (int t = 0; t < 2; t++) {
        long double acc = 0, ee = expl(e + 0.05 * t);
        for (int d = 0; d < DRAWS; d++)
            acc += g_bound(x * N, N, fminl(1, ee * L[d] / C + 1e-5L));
        pv[t] = (double)(acc / DRAWS);
    }
    free(L);
    cr_log_info("SUM K = 5: eps %.4f, x %.4Lf, Monte-Carlo p %.5f (at eps + 0.05: %.5f)", e, x,
                pv[0], pv[1]);
    cr_assert(e > 0);
    cr_assert(pv[0] <= 0.05 + 4 * sqrt(0.05 * 0.95 / DRAWS), "p %.5f at the certified eps", pv[0]);
    cr_assert(pv[1] > 0.05, "p %.5f at eps + 0.05: the bound is loose", pv[1]);
}

/* SUM reports the weights it used (stats/eps_lb.h: c_k = lcm(1…K)/(k+1),
 * K = k_max + 1 or 5, at most the size of the thresholds' world), here
 * against values written out by hand: lcm(1…5) = 60 (60, 30, 20, 15, 12);
 * lcm(1, 2, 3) = 6 (6, 3, 2); lcm(1…16) = 720720 (OEIS A003418), whose last
 * weight is 720720/16 = 45045.  With 3 IN scores the reversed K is 3 (the
 * IN scores are its thresholds); one-sided and the other methods report
 * none. */
static void sum_weights_of(ul_emp_lb_result *r, size_t ni, size_t no, long k_max, bool one_sided,
                           ul_emp_lb_method method)
{
    double s[40];
    for (int i = 0; i < 40; i++)
        s[i] = 0.5 * i;
    mpfi_t a, d;
    iv_set(a, "0.05");
    iv_set(d, "0");
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    o.method = method;
    o.k_max = k_max;
    o.one_sided = one_sided;
    char err[256];
    ul_emp_lb_init(r);
    cr_assert_eq(ul_emp_eps_lb(r, s, ni, s + 1, no, a, d, &o, err, sizeof err), UL_OK, "%s", err);
    mpfi_clear(a);
    mpfi_clear(d);
}

Test(emp_eps_lb, sum_reports_the_weights_it_used)
{
    const unsigned long five[5] = {60, 30, 20, 15, 12}, three[3] = {6, 3, 2};
    ul_emp_lb_result r;
    sum_weights_of(&r, 20, 20, -1, false, UL_EMP_LB_SUM);
    cr_assert(r.sum_K[0] == 5 && r.sum_K[1] == 5);
    for (int d = 0; d < 2; d++)
        cr_assert_arr_eq(r.sum_c[d], five, sizeof five);
    ul_emp_lb_clear(&r);
    sum_weights_of(&r, 3, 20, -1, false, UL_EMP_LB_SUM);
    cr_assert(r.sum_K[0] == 5 && r.sum_K[1] == 3);
    cr_assert_arr_eq(r.sum_c[0], five, sizeof five);
    cr_assert_arr_eq(r.sum_c[1], three, sizeof three);
    ul_emp_lb_clear(&r);
    sum_weights_of(&r, 20, 30, 15, true, UL_EMP_LB_SUM);
    cr_assert(r.sum_K[0] == 16 && r.sum_K[1] == 0);
    cr_assert(r.sum_c[0][0] == 720720 && r.sum_c[0][15] == 45045);
    ul_emp_lb_clear(&r);
    sum_weights_of(&r, 20, 20, -1, false, UL_EMP_LB_JOINT);
    cr_assert(r.sum_K[0] == 0 && r.sum_K[1] == 0);
    ul_emp_lb_clear(&r);
}

/* False refutations of the true claim (1, 0) over 200 seeds, as above
 * (same allowance, same binomial justification): SUM two-sided with K = 5,
 * one-sided with K = 16, on continuous scores (n = 400 per world) and on
 * the two-atom scores (ties, n = 200). */
Test(emp_eps_lb, sum_false_refutations_within_allowance, .timeout = 120)
{
    enum { N = 400 };
    double *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out), e1 = exp(1.0);
    for (int v = 0; v < 4; v++) {
        int refuted = 0, n = v < 2 ? N : N / 2;
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            uint64_t s = seed * (v < 2 ? 7919 : 104729);
            for (int i = 0; i < n; i++) {
                in[i] = v < 2 ? rr_score(1, &s) : unif(&s) < e1 / (1 + e1);
                out[i] = v < 2 ? rr_score(0, &s) : unif(&s) < 1 / (1 + e1);
            }
            refuted += sum_run(in, n, out, n, v % 2 ? 15 : -1, v % 2, "0") > 1;
        }
        cr_log_info("sum variant %d: %d false refutations of %d", v, refuted, SEEDS);
        cr_assert(refuted <= ALLOWED, "sum variant %d: %d false refutations of %d", v, refuted,
                  SEEDS);
    }
    free(in);
    free(out);
}
