/* tests/test_lib_batch.c — `ulaudit calc QUANTITY --batch FILE|-`: JSON
 * lines and CSV in, one line out per record in order, an error line (not an
 * abort) per bad record and exit 2 at the end; every enclosure checked
 * against the independent series oracle (tests/oracle.c). */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "oracle.h"

/* Writes text to a new temporary file; returns its malloc'd path. */
static char *temp_file(const char *text)
{
    char *path = strdup("/tmp/ulaudit-batch-XXXXXX");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* The lines of out (modified in place); returns how many, at most max. */
static size_t lines(char *out, char **line, size_t max)
{
    size_t n = 0;
    for (char *s = strtok(out, "\n"); s != NULL && n < max; s = strtok(NULL, "\n"))
        line[n++] = s;
    return n;
}

/* A result line encloses theta_{e^eps}(r) (the oracle) and echoes the inputs. */
static void expect_theta(const char *line, const char *eps, const char *r)
{
    json_object *o = json_tokener_parse(line), *inputs;
    cr_assert_not_null(o, "not JSON: %s", line);
    cr_assert(json_object_object_get_ex(o, "inputs", &inputs));
    cr_assert_str_eq(field(inputs, "eps"), eps);
    cr_assert_str_eq(field(inputs, "r"), r);
    mpfr_t lo, hi, ref;
    mpfr_inits2(ORACLE_BITS, lo, hi, ref, (mpfr_ptr)0);
    cr_assert_eq(mpfr_set_str(lo, field(o, "lo"), 10, MPFR_RNDD), 0);
    cr_assert_eq(mpfr_set_str(hi, field(o, "hi"), 10, MPFR_RNDU), 0);
    oracle_log_theta_str(ref, eps, r);
    mpfr_exp(ref, ref, MPFR_RNDN);
    cr_assert(mpfr_lessequal_p(lo, ref) && mpfr_lessequal_p(ref, hi), "%s misses the oracle",
              line);
    mpfr_clears(lo, hi, ref, (mpfr_ptr)0);
    json_object_put(o);
}

/* An error line names the input line and contains `mention`. */
static void expect_error(const char *line, long lineno, const char *mention)
{
    json_object *o = json_tokener_parse(line), *v;
    cr_assert_not_null(o, "not JSON: %s", line);
    cr_assert(json_object_object_get_ex(o, "line", &v));
    cr_assert_eq(json_object_get_int64(v), lineno, "%s", line);
    cr_assert(strstr(field(o, "error"), mention), "%s does not mention %s", line, mention);
    json_object_put(o);
}

Test(batch, json_lines_one_result_per_record_and_errors_in_place)
{
    char *path = temp_file("{\"eps\": 1, \"r\": 0.5}\n"
                           "{\"eps\": 1, \"r\": -0.5}\n"
                           "\n"
                           "# a comment\n"
                           "{\"eps\": \"-3\", \"r\": \"2\"}\n"
                           "{\"eps\": 1, \"r\": 0.5, \"r\": 1}\n"
                           "[1, 2]\n"
                           "{\"eps\": 0.1, \"r\": 7}\n");
    run_result r = run("calc", "theta", "--batch", path, NULL);
    cr_assert_eq(r.status, 2, "a bad record makes the exit 2: %s", r.err);
    char *line[16];
    cr_assert_eq(lines(r.out, line, 16), 6, "one line per record");
    expect_theta(line[0], "1", "0.5");
    expect_error(line[1], 2, "--r");
    expect_theta(line[2], "-3", "2");
    expect_error(line[3], 6, "duplicate");
    expect_error(line[4], 7, "object");
    expect_theta(line[5], "0.1", "7");
    run_free(&r);
    unlink(path);
    free(path);
}

/* CSV: a header of flag names, a quoted field, an empty field taking the
 * default, and a flag fixed on the command line for every row. */
Test(batch, csv_with_quotes_defaults_and_fixed_flags)
{
    char *path = temp_file("eps,delta0,r\n"
                           "1,,\"2,2.5\"\n"
                           "1,0.5,3\n"
                           "1,0.5\n");
    run_result r = run("calc", "contraction", "--steps", "2", "--batch", path, "--digits", "20",
                       NULL);
    char *line[8];
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert_eq(lines(r.out, line, 8), 3, "%s", r.out);
    json_object *a = json_tokener_parse(line[0]), *in;
    cr_assert_not_null(a, "%s", line[0]);
    cr_assert(json_object_object_get_ex(a, "inputs", &in));
    cr_assert_str_eq(field(in, "r"), "2,2.5");
    cr_assert_str_eq(field(in, "delta0"), "1", "an empty field is the default");
    cr_assert_str_eq(field(in, "steps"), "2", "the command line's flag applies");
    cr_assert_str_eq(field(a, "digits"), "20");
    json_object_put(a);
    expect_error(line[2], 4, "fields");
    run_free(&r);
    unlink(path);
    free(path);
}

Test(batch, all_good_exits_zero_and_a_record_may_override_a_fixed_flag)
{
    char *path = temp_file("{\"r\": 0.5}\n{\"r\": 1, \"delta\": \"1e-3\"}\n");
    run_result r = run("calc", "gauss-eps", "--delta", "1e-5", "--batch", path, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *line[4];
    cr_assert_eq(lines(r.out, line, 4), 2);
    json_object *b = json_tokener_parse(line[1]), *in;
    cr_assert(json_object_object_get_ex(b, "inputs", &in));
    cr_assert_str_eq(field(in, "delta"), "1e-3");
    json_object_put(b);
    run_free(&r);
    unlink(path);
    free(path);
}

Test(batch, unreadable_file_and_missing_name_are_usage_errors)
{
    expect_usage_error("cannot open", run("calc", "theta", "--batch", "/no/such/file", NULL));
    expect_usage_error("--batch", run("calc", "theta", "--batch", NULL));
}

/* pld-compose by noise multiplier and by r: sigma 2 with sensitivity 1 is
 * the mechanism of r = 1/2 (r = sensitivity/sigma), so both brackets of
 * delta(1) after 10 steps contain the same number and must overlap. */
Test(batch, pld_compose_by_sigma_and_by_r_agree)
{
    char *path = temp_file("{\"sigma\": 2, \"steps\": 10, \"eps\": 1}\n"
                           "{\"r\": 0.5, \"steps\": 10, \"eps\": 1}\n");
    run_result r = run("calc", "pld-compose", "--batch", path, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *line[4];
    cr_assert_eq(lines(r.out, line, 4), 2, "%s", r.out);
    json_object *a = json_tokener_parse(line[0]), *b = json_tokener_parse(line[1]);
    cr_assert(a && b, "%s", r.out);
    double alo = strtod(field(a, "lo"), NULL), ahi = strtod(field(a, "hi"), NULL);
    double blo = strtod(field(b, "lo"), NULL), bhi = strtod(field(b, "hi"), NULL);
    cr_assert(alo <= bhi && blo <= ahi, "[%g, %g] and [%g, %g] are disjoint", alo, ahi, blo, bhi);
    json_object_put(a);
    json_object_put(b);
    run_free(&r);
    unlink(path);
    free(path);
}
