/* tests/test_lib_attack_stats.c — ulaudit_attack_stats against `ulaudit
 * attack --scores IN,OUT ... --json` (the binary, run here) on random
 * scores of a fixed seed written to files: the same JSON for every method
 * the command offers and its options, the same refusals for bad flags; the
 * AUC against the Mann-Whitney count done here, and the verdict against
 * the bound and the claim. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "ulaudit.h"

#define N_IN 1500
#define N_OUT 2000

static double in[N_IN], out[N_OUT];
static char dir[] = "/tmp/ulaudit-stats-XXXXXX", spec[256];

/* splitmix64 (Steele, Lea & Flood 2014): a fixed, portable sequence. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* N(mu, 1) by Box-Muller from two uniforms in (0, 1). */
static double normal(uint64_t *s, double mu)
{
    double u = ((double)(next(s) >> 11) + 0.5) / 9007199254740992.0;
    double v = ((double)(next(s) >> 11) + 0.5) / 9007199254740992.0;
    return mu + sqrt(-2 * log(u)) * cos(2 * 3.14159265358979323846 * v);
}

/* One score per line at 17 digits (read back as the same double), after a
 * header line, as a CSV column. */
static void write_scores(const char *path, const double *x, size_t n)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "score\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%.17g\n", x[i]);
    cr_assert_eq(fclose(f), 0);
}

static void setup(void)
{
    uint64_t s = 26;
    for (size_t i = 0; i < N_IN; i++)
        in[i] = normal(&s, 1.0);
    for (size_t i = 0; i < N_OUT; i++)
        out[i] = normal(&s, 0.0);
    cr_assert_not_null(mkdtemp(dir));
    char a[96], b[96];
    snprintf(a, sizeof a, "%s/in.csv", dir);
    snprintf(b, sizeof b, "%s/out.csv", dir);
    write_scores(a, in, N_IN);
    write_scores(b, out, N_OUT);
    snprintf(spec, sizeof spec, "%s,%s", a, b);
}

static void teardown(void)
{
    char p[96];
    snprintf(p, sizeof p, "%s/in.csv", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/out.csv", dir);
    unlink(p);
    rmdir(dir);
}

TestSuite(lib_attack_stats, .init = setup, .fini = teardown);

#define MAX_FLAGS 8

/* The command with names/values as --name value, and the library with the
 * same pairs: equal JSON (the command's line ends in a newline), or both
 * refusing in the same words.  Returns the library's JSON (or NULL). */
static json_object *both(const char *const *names, const char *const *values, size_t n)
{
    const char *argv[4 + 2 * MAX_FLAGS + 2] = {"attack", "--scores", spec};
    char flags[MAX_FLAGS][40];
    size_t k = 3;
    for (size_t i = 0; i < n; i++) {
        snprintf(flags[i], sizeof flags[i], "--%s", names[i]);
        argv[k++] = flags[i];
        argv[k++] = values[i];
    }
    argv[k++] = "--json";
    while (k < sizeof argv / sizeof argv[0])
        argv[k++] = NULL;
    run_result r = run(argv[0], argv[1], argv[2], argv[3], argv[4], argv[5], argv[6], argv[7],
                       argv[8], argv[9], argv[10], argv[11], argv[12], argv[13], argv[14],
                       argv[15], argv[16], argv[17], argv[18], argv[19], NULL);
    char *json = NULL, err[1024] = "";
    ulaudit_status st =
        ulaudit_attack_stats(in, N_IN, out, N_OUT, names, values, n, &json, err, sizeof err);
    json_object *o = NULL;
    if (r.status == 2) {
        cr_assert_eq(st, ULAUDIT_EINPUT, "%s", json);
        cr_assert_null(json);
        char want[1100];
        snprintf(want, sizeof want, "ulaudit attack: %s\n", err);
        cr_assert_str_eq(r.err, want, "the command's message, not the library's");
    } else {
        cr_assert_eq(st, ULAUDIT_OK, "%s", err);
        size_t len = strlen(json);
        cr_assert(strlen(r.out) == len + 1 && strncmp(r.out, json, len) == 0 &&
                      r.out[len] == '\n',
                  "library:\n%s\ncommand:\n%s", json, r.out);
        o = json_tokener_parse(json);
        cr_assert_not_null(o);
    }
    ulaudit_free(json);
    run_free(&r);
    return o;
}

static double number(json_object *o, const char *key)
{
    json_object *v;
    cr_assert(json_object_object_get_ex(o, key, &v), "%s missing", key);
    return json_object_is_type(v, json_type_string) ? strtod(json_object_get_string(v), NULL)
                                                    : json_object_get_double(v);
}

/* Every method the command offers (its --help), with and without a claim,
 * one- and two-sided, other levels. */
Test(lib_attack_stats, every_method_is_the_command)
{
    /* levels and onerun-fdp need their own flags: their tests below */
    const char *methods[] = {"joint", "sum", "family", "all", "fixed", "split", "onerun"};
    for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
        bool fixed = strcmp(methods[m], "fixed") == 0;
        const char *n1[] = {"method", "threshold"}, *v1[] = {methods[m], "0.5"};
        json_object_put(both(n1, v1, fixed ? 2 : 1));
        const char *n2[] = {"method", "claim-eps", "delta", "alpha", "sides", "threshold"},
                   *v2[] = {methods[m], "0.5", "1e-5", "0.1", "1", "0.75"};
        json_object *o = both(n2, v2, fixed ? 6 : 5);
        /* refuted exactly when the certified bound exceeds the claim */
        bool above = number(o, "eps_lower_bound") > 0.5;
        json_object *v;
        cr_assert(json_object_object_get_ex(o, "verdict", &v));
        cr_assert_str_eq(json_object_get_string(v), above ? "refuted" : "consistent", "%s",
                         methods[m]);
        json_object_put(o);
    }
}

Test(lib_attack_stats, options_are_the_command)
{
    const char *n1[] = {"weights", "ratio", "claim-eps"}, *v1[] = {"geometric", "2", "3"};
    json_object_put(both(n1, v1, 3));
    const char *n2[] = {"method", "split-frac", "digits"}, *v2[] = {"split", "0.4", "5"};
    json_object_put(both(n2, v2, 3));
}

/* The AUC is the Mann-Whitney statistic P[IN > OUT] (no ties among
 * continuous draws), counted here pair by pair. */
Test(lib_attack_stats, auc_is_the_mann_whitney_count)
{
    json_object *o = both(NULL, NULL, 0);
    size_t above = 0;
    for (size_t i = 0; i < N_IN; i++)
        for (size_t j = 0; j < N_OUT; j++)
            above += in[i] > out[j];
    double auc = (double)above / ((double)N_IN * N_OUT);
    cr_assert_float_eq(number(o, "auc"), auc, 1e-12);
    cr_assert_eq((size_t)number(o, "n_in"), (size_t)N_IN);
    json_object_put(o);
}

/* Refusals in the command's words, one per rule. */
Test(lib_attack_stats, refusals_are_the_command)
{
    const char *bad[][2] = {{"method", "bogus"},     {"threshold", "1"},  {"ratio", "17"},
                            {"sides", "3"},          {"alpha", "0"},      {"delta", "1"},
                            {"claim-eps", "-1"},     {"split-frac", "1"}, {"weights", "x"},
                            {"delat", "1"},          {"bogus", "1"},      {"digits", "0"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *n[] = {bad[i][0]}, *v[] = {bad[i][1]};
        cr_assert_null(both(n, v, 1), "%s %s accepted", bad[i][0], bad[i][1]);
    }
    const char *n[] = {"delta", "delta"}, *v[] = {"1e-5", "1e-5"};
    cr_assert_null(both(n, v, 2));
    char *json, err[256];
    const char *sn[] = {"scores"}, *sv[] = {"a,b"};
    cr_assert_eq(ulaudit_attack_stats(in, N_IN, out, N_OUT, sn, sv, 1, &json, err, sizeof err),
                 ULAUDIT_EINPUT);
    cr_assert(strstr(err, "scores") != NULL, "%s", err);
}

/* The 0.1 interface is "all" with 17 digits: its eps_lb, rounded down to
 * 10 digits, is the new one's eps_lower_bound (both rounded down). */
Test(lib_attack_stats, old_interface_is_method_all)
{
    const char *n[] = {"method", "delta"}, *v[] = {"all", "1e-5"};
    json_object *o = both(n, v, 2);
    char *old, err[256];
    cr_assert_eq(ulaudit_attack_scores(in, N_IN, out, N_OUT, NULL, "1e-5", &old, err, sizeof err),
                 ULAUDIT_OK, "%s", err);
    json_object *p = json_tokener_parse(old);
    double a = number(o, "eps_lower_bound"), b = number(p, "eps_lb");
    cr_assert(a <= b && b - a <= 1e-9 * fmax(1, b), "%.17g vs %.17g", a, b);
    json_object_put(p);
    json_object_put(o);
    ulaudit_free(old);
}

/* onerun-fdp: the command's JSON; eps_gdp above the claim gives "refuted
 * if Gaussian-shaped", never "refuted" (eps_gdp bounds eps only for a
 * Gaussian-shaped trade-off curve), else "consistent"; δ = 0 refused in the
 * command's words. */
Test(lib_attack_stats, onerun_fdp_is_the_command)
{
    const char *claims[] = {"0.1", "50"};
    for (int c = 0; c < 2; c++) {
        const char *n[] = {"method", "claim-eps", "delta", "sides"},
                   *v[] = {"onerun-fdp", claims[c], "1e-5", "1"};
        json_object *o = both(n, v, 4), *w;
        bool above = number(o, "eps_gdp") > strtod(claims[c], NULL);
        cr_assert(json_object_object_get_ex(o, "verdict", &w));
        cr_assert_str_eq(json_object_get_string(w),
                         above ? "refuted if Gaussian-shaped" : "consistent");
        cr_assert_eq(above, c == 0, "eps_gdp %g", number(o, "eps_gdp"));
        json_object_put(o);
    }
    const char *n0[] = {"method"}, *v0[] = {"onerun-fdp"};
    cr_assert_null(both(n0, v0, 1));
}

/* levels: 3500 distinct continuous scores are a false declaration of 2
 * values, refused alike (the message names --levels); so is --levels
 * without --method levels. */
Test(lib_attack_stats, levels_refusals_are_the_command)
{
    const char *n[] = {"method", "levels"}, *v[] = {"levels", "2"};
    cr_assert_null(both(n, v, 2));
    char *json, err[512];
    cr_assert_eq(ulaudit_attack_stats(in, N_IN, out, N_OUT, n, v, 2, &json, err, sizeof err),
                 ULAUDIT_EINPUT);
    cr_assert(strncmp(err, "--levels: the scores take 3500 distinct values", 46) == 0, "%s", err);
    cr_assert_null(both(n + 1, v + 1, 1));
}
