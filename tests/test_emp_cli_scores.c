/* tests/test_emp_cli_scores.c — `ulaudit attack --scores IN,OUT`
 * (src/cli/attack_scores.c), called as a function until cli/attack.c
 * dispatches to it: the command's file is compiled into this test.
 * Oracles: the TF Privacy audit vector and its closed form; exit codes
 * and messages for bad input; for levels a Clopper–Pearson computed here;
 * for onerun-fdp jax_privacy's published f-DP vectors, the paper's
 * recursion and the GDP profile written here. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/attack_scores.c"
#include "stats/gdp.h"

static char dir[] = "/tmp/ulaudit-scores-XXXXXX";

static void setup(void)
{
    cr_assert_not_null(mkdtemp(dir));
}

TestSuite(emp_cli_scores, .init = setup);

static char *path_of(const char *name)
{
    static char buf[2][256];
    static int k;
    k ^= 1;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

/* n scores a + i·step, one per line, after a header and a comment. */
static void write_scores(const char *name, int n, double a, double step)
{
    FILE *f = fopen(path_of(name), "w");
    cr_assert_not_null(f);
    fprintf(f, "score\n# written by the test\n\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "%.17g\n", a + i * step);
    fclose(f);
}

static int run(const char *a1, const char *a2, const char *a3, const char *a4, const char *a5)
{
    char spec[600];
    snprintf(spec, sizeof spec, "%s,%s", path_of("in.txt"), path_of("out.txt"));
    char *argv[16] = {"--scores", spec};
    int argc = 2;
    const char *extra[] = {a1, a2, a3, a4, a5};
    for (int i = 0; i < 5 && extra[i]; i++)
        argv[argc++] = (char *)extra[i];
    return ul_cli_attack_scores(argc, argv);
}

/* TF Privacy's vector (issue 15): 500 vs 500 perfectly separated, α = 0.01,
 * one pre-chosen threshold, δ = 0: ε_lb = 4.541915810224092.  A claim of
 * 4.5 is refuted (exit 1), one of 4.6 is not (exit 0). */
Test(emp_cli_scores, tf_privacy_vector_from_the_cli)
{
    write_scores("in.txt", 500, 1, 1e-3);
    write_scores("out.txt", 500, -1, -1e-3);
    cr_redirect_stdout();
    int rc = run("--method=fixed", "--threshold=0", "--alpha=0.01", "--claim-eps=4.5", "--json");
    cr_assert_eq(rc, 1);
    rc = run("--method=fixed", "--threshold=0", "--alpha=0.01", "--claim-eps=4.6", "--json");
    cr_assert_eq(rc, 0);
    fflush(stdout);
    FILE *f = cr_get_redirected_stdout();
    char buf[8192];
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    buf[got] = '\0';
    char *p = strstr(buf, "\"eps_lower_bound\"");
    cr_assert_not_null(p);
    double e = strtod(strchr(p + 17, '"') + 1, NULL);
    cr_assert(e <= 4.541915810224092 && e > 4.5419158, "eps %.16g", e);
    cr_assert_not_null(strstr(buf, "\"refuted\""));
    cr_assert_not_null(strstr(buf, "\"consistent\""));
    cr_assert_not_null(strstr(buf, "Gaussian trade-off curve"));
}

/* The eps_lower_bound of the JSON in buf (after `from`). */
/* What the redirected stdout holds so far, as a string. */
static void read_stdout(char *buf, size_t n)
{
    fflush(stdout);
    FILE *f = cr_get_redirected_stdout();
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
}

static double json_eps(const char *buf, const char *from)
{
    const char *p = strstr(from ? from : buf, "\"eps_lower_bound\"");
    cr_assert_not_null(p);
    return strtod(strchr(p + 17, '"') + 1, NULL);
}

/* Geometric weights (stats/eps_lb.h) at perfect separation, 500 vs 500: the
 * best test is k = 0 (a larger k makes F stochastically larger), which runs
 * at α/4 (two sides, weight 2^−1 each side halved) instead of α/m with m =
 * 2·|{0, 1, 4, 16, 64, 256}| = 12; the p-value increases in ε, so a larger
 * level gives a larger certified ε: geometric ≥ equal, with m = 12 tests
 * paid for either way and the level divisors 4 and 12. */
Test(emp_cli_scores, geometric_weights_raise_the_extreme_test)
{
    write_scores("in.txt", 500, 1, 1e-3);
    write_scores("out.txt", 500, -1, -1e-3);
    cr_redirect_stdout();
    cr_assert_eq(run("--json", NULL, NULL, NULL, NULL), 0);
    cr_assert_eq(run("--weights=geometric", "--json", NULL, NULL, NULL), 0);
    char buf[16384];
    read_stdout(buf, sizeof buf);
    const char *second = strstr(buf, "\"geometric\"");
    cr_assert_not_null(second, "%s", buf);
    double e_equal = json_eps(buf, NULL), e_geo = json_eps(buf, second);
    cr_assert(e_geo > e_equal, "geometric %.10g, equal %.10g", e_geo, e_equal);
    cr_assert_not_null(strstr(buf, "\"tests\":12"), "%s", buf);
    cr_assert_not_null(strstr(buf, "\"level_divisor\":12"), "%s", buf);
    cr_assert_not_null(strstr(buf, "\"level_divisor\":4"), "%s", buf);
}

Test(emp_cli_scores, bad_input_exits_2)
{
    write_scores("in.txt", 10, 1, 1);
    write_scores("out.txt", 10, 0, 1);
    cr_redirect_stderr();
    cr_assert_eq(run("--method=bogus", NULL, NULL, NULL, NULL), 2);
    cr_assert_eq(run("--threshold=1", NULL, NULL, NULL, NULL), 2);  /* only with fixed */
    cr_assert_eq(run("--method=fixed", NULL, NULL, NULL, NULL), 2); /* fixed needs it */
    cr_assert_eq(run("--weights=heavy", NULL, NULL, NULL, NULL), 2);
    cr_assert_eq(run("--method=family", "--weights=geometric", NULL, NULL, NULL), 2);
    cr_assert_eq(run("--alpha=1", NULL, NULL, NULL, NULL), 2);
    cr_assert_eq(run("--delta=-0.1", NULL, NULL, NULL, NULL), 2);
    cr_assert_eq(run("--sides=3", NULL, NULL, NULL, NULL), 2);
    FILE *f = fopen(path_of("out.txt"), "a");
    fprintf(f, "0.5\nnan\n");
    fclose(f);
    cr_assert_eq(run(NULL, NULL, NULL, NULL, NULL), 2); /* nan on line 15 */
    char *argv[] = {"--scores", "only-one-file"};
    cr_assert_eq(ul_cli_attack_scores(2, argv), 2);
    fflush(stderr);
    FILE *e = cr_get_redirected_stderr();
    char buf[8192];
    size_t got = fread(buf, 1, sizeof buf - 1, e);
    buf[got] = '\0';
    cr_assert_not_null(strstr(buf, "--method"));
    cr_assert_not_null(strstr(buf, "--threshold"));
    cr_assert_not_null(strstr(buf, "--alpha"));
    cr_assert_not_null(strstr(buf, "--sides"));
    cr_assert_not_null(strstr(buf, "line 15"));
    cr_assert_not_null(strstr(buf, "IN,OUT"));
}

/* ---- --method sum (stats/eps_lb.h, SUM) ------------------------------------ */

/* Everything the redirected stdout (or stderr) holds. */
static void slurp(FILE *f, char *buf, size_t n)
{
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
}

/* The k-th (0-based) JSON object of buf: its "n_in" key onwards. */
static const char *nth_object(const char *buf, int k)
{
    const char *p = buf;
    for (int i = 0; i <= k; i++) {
        p = strstr(i ? p + 1 : p, "\"n_in\"");
        cr_assert_not_null(p, "object %d of %s", k, buf);
    }
    return p;
}

/* `--method sum --json` with the claim flag, one-sided then two-sided, both
 * expected to exit rc; their output into buf. */
static void sum_both_sides(const char *claim, int rc, char *buf, size_t n)
{
    cr_redirect_stdout();
    cr_assert_eq(run("--method=sum", "--sides=1", claim, "--json", NULL), rc);
    cr_assert_eq(run("--method=sum", claim, "--json", NULL, NULL), rc);
    fflush(stdout);
    slurp(cr_get_redirected_stdout(), buf, n);
}

/* Perfect separation, 500 vs 500, α = 0.05, δ = 0: the observed statistic
 * is its maximum, x = s/(n1·C) = 1, so Hoeffding's bound is p^n1 (the
 * convex-order bound E(B − h)_+/(n1 − h) ≥ P[B = n1] is not smaller).
 * Oracles from the theorem, not from the code:
 *  - above: the p-value bound is ≥ E[g(min(1, e^ε L/C))] ≥ P[L/C ≥ e^−ε]
 *    (g(1) = 1), and L/C = Σ c_k V_(k+1)/C ≥ V_(1) ~ Beta(1, n0), so it is
 *    ≥ (1 − e^−ε)^n0: no ε with (1 − e^−ε)^500 > β is rejected, i.e.
 *    ε_lb ≤ −ln(1 − β^(1/500)) = 5.12041363459593 at β = α one-sided and
 *    4.912971968942167 at β = α/2 per direction two-sided (the reversed
 *    direction is the same problem here: OUT all below the 5 smallest IN);
 *  - below: at ε = 3, split at L/C = 0.04: L/C ≤ V_(5) (a weighted mean of
 *    V_(1) … V_(5)), P[V_(5) > 0.04] = P[Bin(500, 0.04) ≤ 4] = 1.297e-5;
 *    on L/C ≤ 0.04 the upper Riemann–Stieltjes sum (grid ratio ≈ 1.005,
 *    stats/eps_lb.h: steps of 0.5 %) takes g at most (e^3·1.01·0.04)^500 =
 *    4.3e-46; the grid's end adds ≤ 1e-10.  Total < 1.4e-5 < α/2, so ε = 3
 *    is rejected either way: ε_lb ≥ 3 and a claim of 2.9 is refuted. */
Test(emp_cli_scores, sum_separated_between_theorem_bounds)
{
    write_scores("in.txt", 500, 1, 1e-3);
    write_scores("out.txt", 500, -1, -1e-3);
    char buf[16384];
    sum_both_sides("--claim-eps=2.9", 1, buf, sizeof buf);
    const char *one = nth_object(buf, 0), *two = nth_object(buf, 1);
    double e1 = json_eps(buf, one), e2 = json_eps(buf, two);
    cr_assert(e1 >= 3 && e1 <= 5.12041363459593, "one-sided %.10g", e1);
    cr_assert(e2 >= 3 && e2 <= 4.912971968942167, "two-sided %.10g", e2);
    cr_assert_not_null(strstr(one, "\"method\":\"sum\""), "%s", buf);
    cr_assert_not_null(strstr(one, "\"weights\":\"c_k = 60/(k+1), k = 0..4\""), "%s", buf);
    cr_assert_not_null(strstr(two, "\"method\":\"sum\""), "%s", buf);
    /* one statistic per direction: level α one-sided, α/2 each two-sided */
    cr_assert_not_null(strstr(one, "\"level_divisor\":1"), "%s", buf);
    cr_assert_not_null(strstr(two, "\"level_divisor\":2"), "%s", buf);
    const char *v1 = strstr(one, "\"refuted\"");
    cr_assert(v1 && v1 < two, "%s", buf);
    cr_assert_not_null(strstr(two, "\"refuted\""), "%s", buf);
}

/* No signal: IN and OUT the same 200 distinct scores.  Then #{IN > t_(k)}
 * = k and S = Σ_k c_k·k = 30 + 40 + 45 + 48 = 163 (both directions, by
 * symmetry).  The claim (0, 0) holds for IN, OUT i.i.d. continuous, and
 * under that law, when the 2 largest of the 400 pooled scores are IN every
 * count #{IN > t_(k)} is ≥ 2, so S ≥ 2C = 274 ≥ 163: P[S ≥ 163] ≥
 * (200/400)(199/399) = 0.2494 > α.  The theorem's bound on P[S ≥ 163] is
 * valid for that law, so it exceeds α (and α/2): ε = 0 is not rejected,
 * ε_lb = 0 one- and two-sided, and the claim (0, 0) stands. */
Test(emp_cli_scores, sum_no_signal_is_not_refuted)
{
    write_scores("in.txt", 200, 0, 0.37);
    write_scores("out.txt", 200, 0, 0.37);
    char buf[16384];
    sum_both_sides("--claim-eps=0", 0, buf, sizeof buf);
    cr_assert_eq(json_eps(buf, nth_object(buf, 0)), 0, "%s", buf);
    cr_assert_eq(json_eps(buf, nth_object(buf, 1)), 0, "%s", buf);
    cr_assert_null(strstr(buf, "\"refuted\""), "%s", buf);
}

/* The text names the method and the sum's own weights c_k = lcm(1…K)/(k+1)
 * (lcm(1…5) = 60; with 3 OUT scores K = 3 forward, lcm(1, 2, 3) = 6, while
 * the reversed direction keeps K = 5), not --weights' "equal", which does
 * not apply to it; the Bonferroni methods still echo --weights. */
Test(emp_cli_scores, sum_text_names_method_and_its_weights)
{
    write_scores("in.txt", 40, 1, 1e-2);
    write_scores("out.txt", 40, -1, -1e-2);
    cr_redirect_stdout();
    cr_assert_eq(run("--method=sum", NULL, NULL, NULL, NULL), 0);
    cr_assert_eq(run("--method=joint", NULL, NULL, NULL, NULL), 0);
    write_scores("out.txt", 3, -1, -1e-2);
    cr_assert_eq(run("--method=sum", NULL, NULL, NULL, NULL), 0);
    fflush(stdout);
    char buf[16384];
    slurp(cr_get_redirected_stdout(), buf, sizeof buf);
    const char *joint = strstr(buf, "method joint"), *small = strstr(buf, "scores: 40 IN, 3 OUT");
    cr_assert(joint && small, "%s", buf);
    const char *sum =
        strstr(buf, "(method sum, 2 tests paid for, weights c_k = 60/(k+1), k = 0..4,");
    cr_assert(sum && sum < joint, "%s", buf);
    cr_assert_not_null(strstr(sum, "deepest threshold of the sum"), "%s", buf);
    cr_assert_not_null(strstr(joint, "equal weights"), "%s", buf);
    cr_assert(strstr(buf, "equal weights") > sum, "%s", buf);
    cr_assert_not_null(strstr(small, "weights c_k = 6/(k+1), k = 0..2 forward, c_k = 60/(k+1), "
                                     "k = 0..4 reversed"),
                       "%s", buf);
}

/* A misspelt method, or --weights/--threshold that do not apply to sum:
 * exit 2 and the flag named on stderr. */
Test(emp_cli_scores, sum_bad_flags_exit_2)
{
    write_scores("in.txt", 10, 1, 1);
    write_scores("out.txt", 10, 0, 1);
    cr_redirect_stderr();
    cr_redirect_stdout();
    cr_assert_eq(run("--method=sums", NULL, NULL, NULL, NULL), 2);
    cr_assert_eq(run("--method=sum", "--weights=geometric", NULL, NULL, NULL), 2);
    cr_assert_eq(run("--method=sum", "--threshold=1", NULL, NULL, NULL), 2);
    fflush(stderr);
    fflush(stdout);
    char buf[4096], out[64];
    slurp(cr_get_redirected_stderr(), buf, sizeof buf);
    slurp(cr_get_redirected_stdout(), out, sizeof out);
    cr_assert_not_null(strstr(buf, "--method: one of joint, sum,"), "%s", buf);
    cr_assert_not_null(strstr(buf, "'sums'"), "%s", buf);
    cr_assert_not_null(strstr(buf, "--weights geometric: only with --method joint"), "%s", buf);
    cr_assert_not_null(strstr(buf, "--threshold: only with --method fixed"), "%s", buf);
    cr_assert_str_empty(out);
}

/* The capacity is a bound over every data set of these counts, so it is at
 * least what the data at hand certify: onerun on 500 vs 500 perfectly
 * separated distinct scores (the capacity's own data once had all its IN
 * and all its OUT scores tied, which onerun does not guess: capacity 0). */
Test(emp_cli_scores, onerun_capacity_at_least_the_bound)
{
    write_scores("in.txt", 500, 1, 1e-3);
    write_scores("out.txt", 500, -1, -1e-3);
    cr_redirect_stdout();
    cr_assert_eq(run("--method=onerun", "--json", NULL, NULL, NULL), 0);
    char buf[16384];
    read_stdout(buf, sizeof buf);
    const char *p = strstr(buf, "\"eps_max_certifiable\"");
    cr_assert_not_null(p, "%s", buf);
    double cap = strtod(strchr(p + 21, '"') + 1, NULL), lb = json_eps(buf, NULL);
    cr_assert(lb > 1 && cap >= lb, "bound %g, capacity %g", lb, cap);
}

/* The ties warning: 0/1 scores (every score ties) print it, in the text and
 * as the JSON's ties_fraction 1; distinct scores do not (fraction 0). */
Test(emp_cli_scores, ties_are_reported)
{
    FILE *fi = fopen(path_of("in.txt"), "w"), *fo = fopen(path_of("out.txt"), "w");
    for (int i = 0; i < 200; i++)
        fprintf(fi, "%d\n", i % 4 != 0), fprintf(fo, "%d\n", i % 4 == 0);
    fclose(fi), fclose(fo);
    cr_redirect_stdout();
    run(NULL, NULL, NULL, NULL, NULL);
    run("--json", NULL, NULL, NULL, NULL);
    write_scores("in.txt", 200, 1, 1e-3);
    write_scores("out.txt", 200, -1, -1e-3);
    run("--json", NULL, NULL, NULL, NULL);
    char buf[32768];
    read_stdout(buf, sizeof buf);
    cr_assert_not_null(strstr(buf, "warning: 100% of the scores equal another score"), "%s", buf);
    const char *j1 = strstr(buf, "\"ties_fraction\":1");
    cr_assert_not_null(j1, "%s", buf);
    cr_assert_not_null(strstr(j1 + 1, "\"ties_fraction\":0"), "%s", buf);
}

/* ---- --method levels (stats/eps_lb.h, LEVELS) -------------------------------- */

/* k ones then n − k zeros, one per line. */
static void write_bits(const char *name, int n, int k)
{
    FILE *f = fopen(path_of(name), "w");
    cr_assert_not_null(f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%d\n", i < k);
    fclose(f);
}

/* P[Bin(n, p) ≤ k] by the terms' ratio t_(i+1)/t_i = (n − i)/(i + 1) ·
 * p/(1 − p) from t_0 = (1 − p)^n, in long double (n ≤ 1000 here: t_0 ≥
 * 1e-4900 stays normal). */
static long double bin_cdf(unsigned long k, unsigned long n, long double p)
{
    long double t = powl(1 - p, (long double)n), s = t;
    for (unsigned long i = 0; i < k; i++) {
        t *= (long double)(n - i) / (long double)(i + 1) * p / (1 - p);
        s += t;
    }
    return s;
}

/* The Clopper–Pearson upper bound (Clopper & Pearson, Biometrika 26
 * (1934)): the p with P[Bin(n, p) ≤ k] = beta, by bisection. */
static double cp_up(unsigned long k, unsigned long n, double beta)
{
    long double lo = 0, hi = 1;
    for (int i = 0; k < n && i < 120; i++) {
        long double mid = (lo + hi) / 2;
        if (bin_cdf(k, n, mid) > beta)
            lo = mid;
        else
            hi = mid;
    }
    return (double)hi;
}

/* LEVELS on 0/1 scores with 2 values declared: one threshold (score 1),
 * m = 1, both rates at α/2 = 0.025, ε = max(log((1 − f̄n)/f̄p),
 * log((1 − f̄p)/f̄n)) at δ = 0 (TF Privacy's `epsilon_clopper_pearson`):
 * the CLI's bound is that, rounded down (10 digits), computed here from the
 * counts with a CP of its own.  Randomised response's expected counts at
 * ε = 1 and 3 (e/(1 + e) ≈ 0.731, e³/(1 + e³) ≈ 0.953), 1000 per world. */
Test(emp_cli_scores, levels_matches_independent_cp)
{
    const int ones[][2] = {{731, 269}, {953, 47}};
    char buf[16384];
    cr_redirect_stdout();
    for (int c = 0; c < 2; c++) {
        write_bits("in.txt", 1000, ones[c][0]);
        write_bits("out.txt", 1000, ones[c][1]);
        cr_assert_eq(run("--method=levels", "--levels=2", "--json", NULL, NULL), 0);
        read_stdout(buf, sizeof buf);
        double f = cp_up((unsigned long)ones[c][1], 1000, 0.025),
               g = cp_up((unsigned long)(1000 - ones[c][0]), 1000, 0.025);
        double cp = fmax(log((1 - g) / f), log((1 - f) / g)), e = json_eps(buf, NULL);
        cr_assert(e <= cp * (1 + 1e-9) && e >= cp * (1 - 1e-6), "levels %.12g vs CP %.12g", e, cp);
        cr_assert_not_null(strstr(buf, "\"levels\":2"), "%s", buf);
        cr_assert_not_null(strstr(buf, "\"tests\":1"), "%s", buf);
    }
    cr_assert_eq(run("--method=levels", "--levels=3", NULL, NULL, NULL), 0);
    read_stdout(buf, sizeof buf);
    cr_assert_not_null(strstr(buf, "levels: 3 possible values declared before the data; m = 2 "
                                   "thresholds"),
                       "%s", buf);
}

/* Everything the redirected stderr holds, and that stdout holds nothing. */
static void stderr_only(char *buf, size_t n)
{
    char out[64];
    fflush(stderr);
    fflush(stdout);
    slurp(cr_get_redirected_stderr(), buf, n);
    slurp(cr_get_redirected_stdout(), out, sizeof out);
    cr_assert_str_empty(out);
}

/* A false declaration (three values, two declared) is refused, exit 2,
 * nothing on stdout: no bound; as --levels without --method levels, --method
 * levels without --levels, and a count below 2. */
Test(emp_cli_scores, levels_refusals_exit_2)
{
    FILE *fi = fopen(path_of("in.txt"), "w"), *fo = fopen(path_of("out.txt"), "w");
    for (int i = 0; i < 60; i++)
        fprintf(fi, "%d\n", i % 3), fprintf(fo, "%d\n", i % 2);
    fclose(fi), fclose(fo);
    cr_redirect_stderr();
    cr_redirect_stdout();
    cr_assert_eq(run("--method=levels", "--levels=2", "--json", NULL, NULL), 2);
    cr_assert_eq(run("--levels=2", NULL, NULL, NULL, NULL), 2);
    cr_assert_eq(run("--method=levels", NULL, NULL, NULL, NULL), 2);
    cr_assert_eq(run("--method=levels", "--levels=1", NULL, NULL, NULL), 2);
    cr_assert_eq(run("--method=levels", "--levels=2x", NULL, NULL, NULL), 2);
    char buf[8192];
    stderr_only(buf, sizeof buf);
    cr_assert_not_null(strstr(buf, "ulaudit attack: --levels: the scores take 3 distinct values, "
                                   "more than the 2 declared"),
                       "%s", buf);
    cr_assert_not_null(strstr(buf, "--levels: only with --method levels\n"), "%s", buf);
    cr_assert_not_null(strstr(buf, "--levels: needed by --method levels"), "%s", buf);
    cr_assert_not_null(strstr(buf, "--levels: an integer >= 2 (got '1')"), "%s", buf);
    cr_assert_not_null(strstr(buf, "--levels: an integer >= 2 (got '2x')"), "%s", buf);
}

/* The ties warning names levels with the observed count of values (2 here)
 * as a lower bound of L, when the values are few; not with 40 distinct
 * values in blocks of 5 (ties_fraction 1, more than UL_SCORES_FEW_VALUES). */
Test(emp_cli_scores, ties_warning_suggests_levels_when_few_values)
{
    write_bits("in.txt", 200, 150);
    write_bits("out.txt", 200, 50);
    cr_redirect_stdout();
    run(NULL, NULL, NULL, NULL, NULL);
    char buf[16384];
    read_stdout(buf, sizeof buf);
    cr_assert_not_null(strstr(buf, "the scores take 2 distinct values: --method levels --levels L"),
                       "%s", buf);
    cr_assert_not_null(strstr(buf, "L >= 2 the number of values the score CAN take, declared "
                                   "before seeing the data"),
                       "%s", buf);
    FILE *fi = fopen(path_of("in.txt"), "w"), *fo = fopen(path_of("out.txt"), "w");
    for (int i = 0; i < 100; i++)
        fprintf(fi, "%d\n", i / 5 + 10), fprintf(fo, "%d\n", i / 5);
    fclose(fi), fclose(fo);
    run(NULL, NULL, NULL, NULL, NULL);
    read_stdout(buf, sizeof buf);
    cr_assert_not_null(strstr(buf, "warning: 100% of the scores"), "%s", buf);
    cr_assert_null(strstr(buf, "--method levels"), "%s", buf);
}

/* ---- --method onerun-fdp (stats/eps_lb.h, one run f-DP) -------------------- */

/* Φ by erfc, Φ⁻¹ by bisection (both independent of stats/gdp.c). */
static double phi(double x)
{
    return 0.5 * erfc(-x / sqrt(2.0));
}

static double phi_inv(double p)
{
    double lo = -40, hi = 40;
    for (int i = 0; i < 100; i++) {
        double mid = 0.5 * (lo + hi);
        *(phi(mid) < p ? &lo : &hi) = mid;
    }
    return 0.5 * (lo + hi);
}

/* Mahloujifar, Melis, Chaudhuri 2024 (arXiv:2410.22235), the recursion of
 * `audit_rh_with_cap` as stats/eps_lb.h states it, for μ-GDP (f̄⁻¹(x) =
 * Φ(Φ⁻¹(x) − μ)): r_0 + h_0 − r/m, > 0 when "μ-GDP" is rejected at τ. */
static double fdp_margin(unsigned long m, unsigned long r, unsigned long v, double mu, double tau)
{
    double R = tau * (double)v / (double)m, H = tau * (double)(r - v) / (double)m;
    for (unsigned long i = v; i-- > 0;) {
        double h = fmax(H, R >= 1 ? 1 : phi(phi_inv(R) - mu));
        R = fmin(1, R + (double)i / (double)(r - i) * (h - H));
        H = h;
    }
    return R + H - (double)r / (double)m;
}

/* δ(ε) of μ-GDP: Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Dong, Roth, Su 2022,
 * Cor. 2.13). */
static double gdp_delta(double eps, double mu)
{
    return phi(-eps / mu + mu / 2) - exp(eps) * phi(-eps / mu - mu / 2);
}

static double json_num(json_object *o, const char *key)
{
    json_object *v;
    cr_assert(json_object_object_get_ex(o, key, &v), "%s missing", key);
    return json_object_is_type(v, json_type_string) ? strtod(json_object_get_string(v), NULL)
                                                    : json_object_get_double(v);
}

/* jax_privacy's f-DP vectors (tests/auditing_test.py, `test_epsilon_one_run_close`,
 * cases 'one_fdp' … 'four_fdp'; reproduced with jax's own selection rule
 * in onerun/jax_privacy_vectors): n = 10000 OUT scores Φ⁻¹((i + ½)/n), IN =
 * OUT + shift, α = 0.05, δ = 1e-6, one-sided guesses; jax's ε 2.164749 /
 * 4.7218075 / 9.133752 at shift 1 / 2 / 4.  Through the command:
 *  - eps_gdp ≥ jax's ε: jax pays Bonferroni over the ROC hull's vertices
 *    (thousands here), the command over its fixed grid (|C| = 16), on the
 *    same data; the command cannot reproduce jax's exact number, whose
 *    level is data-dependent (stats/eps_lb.h);
 *  - μ_lb is where the paper's recursion, written here, crosses zero for
 *    the reported guesses at τ = α/|C| (rejected just below, not 1e-5
 *    above);
 *  - eps_gdp is ε(δ) of μ_lb-GDP by the profile written here;
 *  - the claim ε = 2 is NOT refuted (exit 0): "refuted if Gaussian-shaped";
 *  - the JSON's fields. */
Test(emp_cli_scores, onerun_fdp_against_jax_vectors, .timeout = 240)
{
    enum { N = 10000 };
    const double shift[] = {1, 2, 4}, jax[] = {2.164749, 4.7218075, 9.133752};
    char *buf = malloc(1 << 16);
    cr_redirect_stdout();
    for (int c = 0; c < 3; c++) {
        FILE *fi = fopen(path_of("in.txt"), "w"), *fo = fopen(path_of("out.txt"), "w");
        for (int i = 0; i < N; i++) {
            double x = ul_emp_norm_quantile((i + 0.5) / N);
            fprintf(fo, "%.17g\n", x), fprintf(fi, "%.17g\n", x + shift[c]);
        }
        fclose(fi), fclose(fo);
        cr_assert_eq(
            run("--method=onerun-fdp", "--sides=1", "--delta=1e-6", "--claim-eps=2", "--json"), 0);
        read_stdout(buf, 1 << 16);
        json_object *o = json_tokener_parse(buf), *g, *v;
        cr_assert_not_null(o, "%s", buf);
        double mu = json_num(o, "mu_lb"), eps = json_num(o, "eps_gdp");
        cr_assert(json_object_object_get_ex(o, "guesses", &g), "%s", buf);
        unsigned long kp = (unsigned long)json_num(g, "k_plus"),
                      km = (unsigned long)json_num(g, "k_minus"),
                      w = (unsigned long)json_num(g, "correct"),
                      t = (unsigned long)json_num(o, "tests");
        cr_log_info(
            "shift %g: mu_lb %.10g, eps_gdp %.10g (jax %.9g), guesses %lu/%lu, %lu correct, "
            "%lu tests",
            shift[c], mu, eps, jax[c], kp, km, w, t);
        cr_assert(eps >= jax[c], "shift %g: eps_gdp %.9g below jax's %.9g", shift[c], eps, jax[c]);
        cr_assert_eq(km, 0, "one-sided");
        double tau = 0.05 / (double)t;
        cr_assert(fdp_margin(2 * N, kp + km, w, mu * (1 - 1e-5), tau) > 0, "shift %g", shift[c]);
        cr_assert(fdp_margin(2 * N, kp + km, w, mu * (1 + 1e-5), tau) <= 0, "shift %g", shift[c]);
        cr_assert(gdp_delta(eps, mu) >= 1e-6 * (1 - 1e-6) && gdp_delta(eps * (1 + 1e-6), mu) < 1e-6,
                  "eps_gdp %.10g is not eps(1e-6) of %.10g-GDP", eps, mu);
        cr_assert(json_object_object_get_ex(o, "eps_lower_bound", &v) && v == NULL, "%s", buf);
        cr_assert(json_object_object_get_ex(o, "verdict", &v), "%s", buf);
        cr_assert_str_eq(json_object_get_string(v), "refuted if Gaussian-shaped");
        const char *keys[] = {"method", "mu_lb_meaning",       "eps_gdp_assumption",
                              "source", "eps_max_certifiable", "gdp_estimate"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            cr_assert(json_object_object_get_ex(o, keys[k], &v) && v != NULL, "%s", keys[k]);
        json_object_put(o);
    }
    free(buf);
}

/* The text of onerun-fdp says what is certified and what is assumed; the
 * f-DP test refuses δ = 0 (ε(0) of μ-GDP is infinite) and --html, exit 2,
 * nothing on stdout. */
Test(emp_cli_scores, onerun_fdp_text_and_refusals)
{
    write_scores("in.txt", 300, 1, 1e-3);
    write_scores("out.txt", 300, -1, -1e-3);
    cr_redirect_stdout();
    cr_assert_eq(run("--method=onerun-fdp", "--delta=1e-5", "--claim-eps=1", NULL, NULL), 0);
    char buf[16384];
    read_stdout(buf, sizeof buf);
    cr_assert_not_null(strstr(buf, "Mahloujifar, Melis, Chaudhuri 2024, arXiv:2410.22235"), "%s",
                       buf);
    cr_assert_not_null(strstr(buf, "mu-GDP rejected for mu <= "), "%s", buf);
    cr_assert_not_null(strstr(buf, "ONLY if its trade-off curve is Gaussian-shaped"), "%s", buf);
    cr_assert_not_null(strstr(buf, "(1, 1e-5): refuted if Gaussian-shaped"), "%s", buf);
    cr_redirect_stderr();
    cr_assert_eq(run("--method=onerun-fdp", NULL, NULL, NULL, NULL), 2);
    cr_assert_eq(run("--method=onerun-fdp", "--delta=1e-5", "--html=x.html", NULL, NULL), 2);
    stderr_only(buf, sizeof buf);
    cr_assert_not_null(strstr(buf, "--delta: > 0 needed by --method onerun-fdp"), "%s", buf);
    cr_assert_not_null(strstr(buf, "--html: not with --method onerun-fdp"), "%s", buf);
}

/* --method onerun reports its guesses (text and JSON), recounted here from
 * the score lists: the k_plus highest of the pooled scores are guessed IN
 * and the k_minus lowest OUT (distinct scores: every design guess is made),
 * and "correct" is the number of IN scores among the first plus OUT scores
 * among the second.  Data: 300 IN scores 0.5 + 0.01i and 300 OUT scores
 * −0.5 + 0.01i, so the worlds overlap on [0.5, 2.49]. */
Test(emp_cli_scores, onerun_guesses_recounted)
{
    enum { N = 300 };
    write_scores("in.txt", N, 0.5, 0.01);
    write_scores("out.txt", N, -0.5, 0.01);
    cr_redirect_stdout();
    cr_assert_eq(run("--method=onerun", "--json", NULL, NULL, NULL), 0);
    char buf[16384];
    read_stdout(buf, sizeof buf);
    json_object *o = json_tokener_parse(buf), *g;
    cr_assert_not_null(o, "%s", buf);
    cr_assert(json_object_object_get_ex(o, "guesses", &g), "%s", buf);
    unsigned long kp = (unsigned long)json_num(g, "k_plus"),
                  km = (unsigned long)json_num(g, "k_minus"),
                  v = (unsigned long)json_num(g, "correct");
    cr_assert(kp > 0 && km > 0 && kp + km <= 2 * N, "k %lu, %lu", kp, km);
    cr_assert_eq((unsigned long)json_num(g, "made_plus"), kp);
    cr_assert_eq((unsigned long)json_num(g, "made_minus"), km);
    /* pooled scores as (value, is_in), in ascending order: both lists are
     * ascending, so merge them */
    double in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = 0.5 + i * 0.01, out[i] = -0.5 + i * 0.01;
    unsigned long correct = 0, i = 0, j = 0, rank = 0;
    while (i < N || j < N) {
        bool take_in = j >= N || (i < N && in[i] < out[j]);
        if (rank < km && !take_in)
            correct++; /* among the k_minus lowest, an OUT score */
        if (rank >= 2 * N - kp && take_in)
            correct++; /* among the k_plus highest, an IN score */
        take_in ? i++ : j++;
        rank++;
    }
    cr_assert_eq(v, correct, "reported %lu, recounted %lu", v, correct);
    json_object_put(o);
}

/* ---- --tie-break (stats/eps_lb.h, "Ties") ------------------------------------------- */

/* The tie-break seed of the JSON text from `from` on (the object's
 * "tie_break": {"seed": "S", ...}), into seed. */
static void json_seed(const char *from, char *seed, size_t n)
{
    const char *p = strstr(from, "\"tie_break\"");
    cr_assert_not_null(p, "%s", from);
    p = strstr(p, "\"seed\"");
    cr_assert_not_null(p);
    p = strchr(p + 6, '"') + 1;
    size_t k = strcspn(p, "\"");
    cr_assert(k > 0 && k < n);
    memcpy(seed, p, k);
    seed[k] = '\0';
}

/* 0/1 scores (3000 of 4096 IN scores are 1, 1100 of 4096 OUT): with ties
 * kept, joint's ratio-4 grid has no count between the blocks and certifies
 * nothing; --tie-break random reports its seed, which reproduces the same
 * bound; the bound stays below the pair's largest log-ratio over the two
 * events {1}, {0} (log((3000/4096)/(1100/4096)) ≈ 1.003 and
 * log((2996/4096)/(1096/4096)) ≈ 1.006: the empirical laws' ε at δ = 0);
 * the text names the seed and the rule with its draw. */
Test(emp_cli_scores, tie_break_reports_and_reproduces_its_seed, .timeout = 60)
{
    write_bits("in.txt", 4096, 3000);
    write_bits("out.txt", 4096, 1100);
    cr_redirect_stdout();
    cr_assert_eq(run("--json", NULL, NULL, NULL, NULL), 0);
    cr_assert_eq(run("--tie-break=random", "--json", NULL, NULL, NULL), 0);
    char buf[65536];
    read_stdout(buf, sizeof buf);
    const char *second = nth_object(buf, 1);
    double kept = json_eps(buf, NULL), broken = json_eps(buf, second);
    char seed[32];
    json_seed(second, seed, sizeof seed);
    cr_assert(kept == 0, "ties kept: %g", kept);
    cr_assert(broken > 0.5 && broken < 1.006, "ties broken: %g", broken);
    char flag[64];
    snprintf(flag, sizeof flag, "--tie-break=%s", seed);
    cr_assert_eq(run(flag, "--json", NULL, NULL, NULL), 0);
    cr_assert_eq(run(flag, NULL, NULL, NULL, NULL), 0);
    read_stdout(buf, sizeof buf);
    const char *third = nth_object(buf, 0); /* read_stdout goes on where it stopped */
    cr_assert(json_eps(buf, third) == broken, "reproduced %g vs %g", json_eps(buf, third), broken);
    cr_assert_not_null(strstr(buf, "ties broken at random (seed "), "%s", buf);
    cr_assert_not_null(strstr(buf, "with its tie-break draw >= "), "%s", buf);
}

/* Refusals: a seed that is not a positive integer, and the methods that read
 * score values (fixed, split, levels) or have no tie-break (onerun-fdp):
 * exit 2, nothing on stdout, the flag named. */
Test(emp_cli_scores, tie_break_refusals_exit_2)
{
    write_bits("in.txt", 100, 70);
    write_bits("out.txt", 100, 30);
    cr_redirect_stderr();
    cr_redirect_stdout();
    cr_assert_eq(run("--tie-break=0", NULL, NULL, NULL, NULL), 2);
    cr_assert_eq(run("--tie-break=seven", NULL, NULL, NULL, NULL), 2);
    cr_assert_eq(run("--tie-break=random", "--method=fixed", "--threshold=1", NULL, NULL), 2);
    cr_assert_eq(run("--tie-break=random", "--method=levels", "--levels=2", NULL, NULL), 2);
    cr_assert_eq(run("--tie-break=5", "--method=onerun-fdp", "--delta=1e-5", NULL, NULL), 2);
    char buf[8192];
    stderr_only(buf, sizeof buf);
    cr_assert_not_null(strstr(buf, "--tie-break: random, or the seed a report gave"), "%s", buf);
    cr_assert_not_null(strstr(buf, "got 'seven')"), "%s", buf);
    cr_assert_not_null(strstr(buf, "not with --method fixed"), "%s", buf);
    cr_assert_not_null(strstr(buf, "not with --method levels"), "%s", buf);
    cr_assert_not_null(strstr(buf, "not with --method onerun-fdp"), "%s", buf);
}
