/* tests/test_emp_cli_scores.c — `ulaudit attack --scores IN,OUT`
 * (src/cli/attack_scores.c), called as a function until cli/attack.c
 * dispatches to it: the command's file is compiled into this test.
 * Oracles: the TF Privacy audit vector and its closed form; exit codes
 * and messages for bad input. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/attack_scores.c"

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
static double json_eps(const char *buf, const char *from)
{
    const char *p = strstr(from ? from : buf, "\"eps_lower_bound\"");
    cr_assert_not_null(p);
    return strtod(strchr(p + 17, '"') + 1, NULL);
}

/* Geometric weights (emp/eps_lb.h) at perfect separation, 500 vs 500: the
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
    fflush(stdout);
    FILE *f = cr_get_redirected_stdout();
    char buf[16384];
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    buf[got] = '\0';
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
