/* tests/test_lib_vectors.c — ulaudit_vectors_rows and ulaudit_vectors_check
 * (include/ulaudit.h, "reference vectors") against the command line and
 * the committed files: the check's JSON is `ulaudit vectors check --json`
 * (the binary, run here) byte for byte on the same file, for the example of
 * the man page and for wrong implementations run here on the rows the
 * library hands out; bad input is refused in the command's words; the rows
 * are the committed vectors/<file>.csv cell for cell. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "ulaudit.h"

#define SQRT2 1.41421356237309504880 /* √2 */

static char dir[] = "/tmp/ulaudit-libvec-XXXXXX", path[96];

static void setup(void)
{
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/results.csv", dir);
}

static void teardown(void)
{
    unlink(path);
    rmdir(dir);
    ulaudit_thread_cleanup();
}

TestSuite(lib_vectors, .init = setup, .fini = teardown);

static char *slurp(const char *file, size_t *len)
{
    FILE *f = fopen(file, "rb");
    cr_assert_not_null(f, "%s", file);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *text = malloc((size_t)n + 1);
    cr_assert_eq(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return text;
}

/* The command on file and the library on its text with name = file: the
 * same JSON (the command's ends in a newline) and the command's exit code
 * in "exit".  Returns the parsed object. */
static json_object *same_as_command(const char *family, const char *file, int rows)
{
    size_t len;
    char *text = slurp(file, &len), *json = NULL, err[1024] = "";
    ulaudit_status st = ulaudit_vectors_check(family, text, len, file, rows, &json, err,
                                              sizeof err);
    cr_assert_eq(st, ULAUDIT_OK, "%s", err);
    run_result r = run("vectors", "check", "--family", family, file, "--json",
                       rows ? "--rows" : NULL, NULL);
    size_t n = strlen(json);
    cr_assert(strlen(r.out) == n + 1 && strncmp(r.out, json, n) == 0 && r.out[n] == '\n',
              "library:\n%s\ncommand:\n%s", json, r.out);
    json_object *o = json_tokener_parse(json), *code;
    cr_assert_not_null(o);
    cr_assert(json_object_object_get_ex(o, "exit", &code));
    cr_assert_eq(json_object_get_int(code), r.status, "exit in the JSON vs the command's");
    run_free(&r);
    free(json);
    free(text);
    return o;
}

static int64_t count(json_object *o, const char *cls)
{
    json_object *qs, *c, *n;
    cr_assert(json_object_object_get_ex(o, "quantities", &qs));
    cr_assert(json_object_object_get_ex(json_object_array_get_idx(qs, 0), "counts", &c));
    cr_assert(json_object_object_get_ex(c, cls, &n));
    return json_object_get_int64(n);
}

Test(lib_vectors, check_is_the_command_on_the_man_page_example)
{
    json_object_put(same_as_command("theta", "tests/data/vcheck/theta_example.csv", 0));
    json_object_put(same_as_command("theta", "tests/data/vcheck/theta_example.csv", 1));
    expect_usage_error("--rows: only with --json",
                       run("vectors", "check", "--family", "theta",
                           "tests/data/vcheck/theta_example.csv", "--rows", NULL));
}

static json_object *rows_of(const char *family, int digits)
{
    char *json = NULL, err[1024] = "";
    cr_assert_eq(ulaudit_vectors_rows(family, digits, &json, err, sizeof err), ULAUDIT_OK, "%s",
                 err);
    json_object *o = json_tokener_parse(json);
    cr_assert_not_null(o);
    free(json);
    return o;
}

static const char *str(json_object *o, const char *a, const char *b)
{
    json_object *x;
    cr_assert(json_object_object_get_ex(o, a, &x), "%s", a);
    if (b != NULL)
        cr_assert(json_object_object_get_ex(x, b, &x), "%s.%s", a, b);
    return json_object_get_string(x);
}

/* θ with Q = (1 − erf)/2 in doubles (cancels in the tail), and the classic
 * σ rule of Dwork & Roth 2014, Thm A.1 (σ = √(2 ln(1.25/δ))/ε): what the
 * harness of a user would run on the rows, written to RESULTS. */
static double impl(const char *family, json_object *in)
{
    if (strcmp(family, "theta") == 0) {
        double eps = strtod(str(in, "eps", NULL), NULL), r = strtod(str(in, "r", NULL), NULL);
        double a = eps / r - r / 2, b = eps / r + r / 2;
        return 0.5 * (1 - erf(a / SQRT2)) - exp(eps) * 0.5 * (1 - erf(b / SQRT2));
    }
    double eps = strtod(str(in, "eps", NULL), NULL), delta = strtod(str(in, "delta", NULL), NULL);
    return sqrt(2 * log(1.25 / delta)) / eps;
}

static void wrong_implementation(const char *family, const char *header, const char *quantity)
{
    json_object *o = rows_of(family, 0), *rows, *names;
    cr_assert(json_object_object_get_ex(o, "rows", &rows));
    cr_assert(json_object_object_get_ex(o, "inputs", &names));
    FILE *f = fopen(path, "w");
    fprintf(f, "%s,%s\n", header, quantity);
    size_t n = json_object_array_length(rows);
    for (size_t i = 0; i < n; i++) {
        json_object *in;
        cr_assert(json_object_object_get_ex(json_object_array_get_idx(rows, i), "inputs", &in));
        for (size_t k = 0; k < json_object_array_length(names); k++)
            fprintf(f, "%s,", str(in, json_object_get_string(json_object_array_get_idx(names, k)),
                                  NULL));
        double v = impl(family, in);
        if (isnan(v) || isinf(v))
            fprintf(f, "%s\n", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
        else
            fprintf(f, "%.17g\n", v);
    }
    fclose(f);
    json_object *r = same_as_command(family, path, 1), *classified;
    /* every row classified once, in rows_classified as in the counts */
    cr_assert(json_object_object_get_ex(r, "rows_classified", &classified));
    cr_assert_eq(json_object_array_length(classified), n);
    for (const char *const *c = (const char *const[]){"exact", "safe-inaccurate", "unsafe",
                                                       "invalid", "unmatched", NULL};
         *c != NULL; c++) {
        int64_t m = 0;
        for (size_t i = 0; i < n; i++)
            m += strcmp(str(json_object_object_get(json_object_array_get_idx(classified, i),
                                                   "values"),
                            quantity, "class"),
                        *c) == 0;
        cr_assert_eq(m, count(r, *c), "%s", *c);
    }
    cr_assert_eq(count(r, "unmatched"), 0, "the rows handed out are the vectors'");
    cr_assert_gt(count(r, "unsafe") + count(r, "invalid"), 0, "the defect shows");
    json_object_put(r);
    json_object_put(o);
}

Test(lib_vectors, check_is_the_command_on_a_one_minus_erf_theta)
{
    wrong_implementation("theta", "eps,r", "theta");
}

Test(lib_vectors, check_is_the_command_on_the_classic_sigma_rule)
{
    wrong_implementation("gauss-sigma", "eps,delta", "sigma");
}

/* The rows at the default digits are the committed file's cell for cell:
 * inputs, lo, hi, double, flag; a whole number (noisygd-k's KAbar) has no
 * double or flag.  The file is read here with its own header. */
static void rows_are_the_file(const char *family, const char *file)
{
    size_t len;
    char *text = slurp(file, &len), *save = NULL;
    json_object *o = rows_of(family, 0), *rows;
    cr_assert(json_object_object_get_ex(o, "rows", &rows));
    const char *names[64], *cells[64];
    size_t nc = 0, row = 0;
    char *header = strtok_r(text, "\n", &save), *line;
    for (char *s2 = NULL, *t = strtok_r(header, ",", &s2); t != NULL; t = strtok_r(NULL, ",", &s2))
        names[nc++] = t;
    while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
        size_t k = 0;
        for (char *s2 = NULL, *t = strtok_r(line, ",", &s2); t != NULL && k < 64;
             t = strtok_r(NULL, ",", &s2))
            cells[k++] = t;
        cr_assert_eq(k, nc);
        json_object *r = json_object_array_get_idx(rows, row++), *q;
        cr_assert_not_null(r, "the file has more rows than the library");
        for (size_t c = 0; c < nc; c++) {
            char base[64];
            snprintf(base, sizeof base, "%s", names[c]);
            char *suffix = strrchr(base, '_');
            const char *got;
            if (suffix != NULL && (strcmp(suffix, "_lo") == 0 || strcmp(suffix, "_hi") == 0 ||
                                   strcmp(suffix, "_double") == 0 || strcmp(suffix, "_flag") == 0)) {
                *suffix = '\0';
                got = str(r, base, suffix + 1);
            } else if (json_object_object_get_ex(r, names[c], &q)) { /* a whole number */
                cr_assert(!json_object_object_get_ex(q, "double", NULL), "%s", names[c]);
                cr_assert_str_eq(str(r, names[c], "lo"), str(r, names[c], "hi"));
                got = str(r, names[c], "lo");
            } else {
                got = str(r, "inputs", names[c]);
            }
            cr_assert_str_eq(got, cells[c], "%s row %zu column %s", file, row, names[c]);
        }
    }
    cr_assert_eq(json_object_array_length(rows), row, "the library has more rows than the file");
    json_object_put(o);
    free(text);
}

Test(lib_vectors, rows_are_the_committed_files)
{
    rows_are_the_file("theta", "vectors/theta.csv");
    rows_are_the_file("noisygd-k", "vectors/noisygd_k.csv");
    rows_are_the_file("rdp-to-eps", "vectors/rdp_to_eps.csv");
}

/* Digits ask for narrower enclosures around the same truth: at 50 digits
 * every row's [lo, hi] lies inside the 30-digit one. */
Test(lib_vectors, more_digits_narrower_inside)
{
    json_object *a = rows_of("gauss-sigma", 30), *b = rows_of("gauss-sigma", 50), *ra, *rb;
    cr_assert(json_object_object_get_ex(a, "rows", &ra));
    cr_assert(json_object_object_get_ex(b, "rows", &rb));
    cr_assert_eq(json_object_array_length(ra), json_object_array_length(rb));
    for (size_t i = 0; i < json_object_array_length(ra); i++) {
        json_object *x = json_object_array_get_idx(ra, i), *y = json_object_array_get_idx(rb, i);
        cr_assert_str_eq(str(x, "inputs", "eps"), str(y, "inputs", "eps"));
        long double lo30 = strtold(str(x, "sigma", "lo"), NULL),
                    hi30 = strtold(str(x, "sigma", "hi"), NULL);
        long double lo50 = strtold(str(y, "sigma", "lo"), NULL),
                    hi50 = strtold(str(y, "sigma", "hi"), NULL);
        cr_assert(lo30 <= lo50 && lo50 <= hi50 && hi50 <= hi30, "row %zu", i);
    }
    json_object_put(a);
    json_object_put(b);
}

/* Bad input: the command's message (after its "ulaudit vectors check: "),
 * nothing returned. */
static void refused(const char *family, const char *text, const char *must_mention)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    char *json = (char *)1, err[1024] = "";
    cr_assert_eq(ulaudit_vectors_check(family, text, strlen(text), path, 0, &json, err, sizeof err),
                 ULAUDIT_EINPUT);
    cr_assert_null(json);
    cr_assert(strstr(err, must_mention) != NULL, "%s", err);
    run_result r = run("vectors", "check", "--family", family, path, NULL);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, err) != NULL, "command: %s library: %s", r.err, err);
    run_free(&r);
}

Test(lib_vectors, bad_input_refused_in_the_commands_words)
{
    refused("thta", "eps,r,theta\n1,1,0.1\n", "did you mean 'theta'");
    refused("theta", "eps,r\n1,1\n", "no output column");
    refused("theta", "eps,r,theta\n1,1,0x1p-3\n", "line 2, column 'theta': not a number");
    char *json = (char *)1, err[256];
    cr_assert_eq(ulaudit_vectors_rows("theta", 1001, &json, err, sizeof err), ULAUDIT_EINPUT);
    cr_assert_null(json);
    cr_assert(strstr(err, "digits") != NULL, "%s", err);
    cr_assert_eq(ulaudit_vectors_rows("thta", 0, &json, err, sizeof err), ULAUDIT_EINPUT);
    cr_assert(strstr(err, "did you mean 'theta'") != NULL, "%s", err);
    cr_assert_eq(ulaudit_vectors_check("theta", "eps,r,theta\n1,1,0\0", 18, NULL, 0, &json, err,
                                       sizeof err),
                 ULAUDIT_EINPUT);
    cr_assert(strstr(err, "RESULTS: holds a NUL byte") != NULL, "%s", err);
}

/* Text without a final NUL is read for len bytes only; name NULL reports
 * "RESULTS". */
Test(lib_vectors, text_read_for_len_bytes_named_results)
{
    const char text[] = "eps,r,theta\n1,1,0.5\nGARBAGE";
    char *json = NULL, err[256] = "";
    cr_assert_eq(ulaudit_vectors_check("theta", text, strlen(text) - strlen("GARBAGE"), NULL, 0,
                                       &json, err, sizeof err),
                 ULAUDIT_OK, "%s", err);
    json_object *o = json_tokener_parse(json);
    cr_assert_str_eq(str(o, "results", NULL), "RESULTS");
    /* θ_e(1) ≈ 0.1269 (the oracle of test_vectors_check.c): 0.5 is above, safe */
    cr_assert_eq(count(o, "safe-inaccurate"), 1);
    json_object_put(o);
    free(json);
}
