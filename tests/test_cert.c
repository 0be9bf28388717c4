/* tests/test_cert.c — the certificate envelope, typed fields with JSON paths,
 * the reliability corpus of malformed certificates (tests/data/certs/bad,
 * plus generated 10 MB and deeply nested files), and the atomic writer.
 *
 * The field tables here are test tables shaped like the audit engine's, not
 * the engine's own. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cert/cert.h"
#include "io/file.h"
#include "num/encl.h"

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(cert, .fini = teardown);

/* Fixtures live next to this file; make test runs from the repository root. */
static void data_path(char *out, size_t n, const char *rel)
{
    const char *file = __FILE__;
    const char *slash = strrchr(file, '/');
    snprintf(out, n, "%.*sdata/certs/%s", slash ? (int)(slash - file + 1) : 0, file, rel);
}

static const char *const conversions[] = {"mironov", "bbghs", NULL};

static const ul_field_spec param_specs[] = {
    {.name = "sensitivity",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .lo = "0",
     .lo_strict = true,
     .doc = "L2 sensitivity",
     .exact = true}, /* read as an exact rational: 10^±20000 (num/input.h) */
    {.name = "sigma",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .lo = "0",
     .lo_strict = true,
     .doc = "noise standard deviation"},
    {.name = "steps", .type = UL_FIELD_COUNT, .lo = "1", .doc = "number of steps"},
    {.name = "conversion", .type = UL_FIELD_STRING, .choices = conversions},
    {.name = "clipped", .type = UL_FIELD_BOOL},
};
#define N_PARAM (sizeof param_specs / sizeof param_specs[0])

static const ul_field_spec claim_specs[] = {
    {.name = "eps", .type = UL_FIELD_DECIMAL, .required = true, .lo = "0"},
    {.name = "delta", .type = UL_FIELD_DECIMAL, .required = true, .lo = "0", .hi = "1"},
};
#define N_CLAIM (sizeof claim_specs / sizeof claim_specs[0])

static const ul_field_spec stated_specs[] = {
    {.name = "deltas",
     .type = UL_FIELD_DECIMAL_LIST,
     .lo = "0",
     .hi = "1",
     .doc = "per-step delta"},
    {.name = "sigma", .type = UL_FIELD_DECIMAL, .lo = "0", .lo_strict = true},
};
#define N_STATED (sizeof stated_specs / sizeof stated_specs[0])

static ul_cert *load_ok(const char *text)
{
    char err[768] = "";
    ul_cert *c = NULL;
    cr_assert_eq(ul_cert_load_buffer(text, strlen(text), &c, err, sizeof err), UL_OK,
                 "should load: %s\n%s", err, text);
    return c;
}

static void expect_in(const char *err, const char *const *expect, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        cr_assert(strstr(err, expect[i]) != NULL, "%s: message lacks '%s': %s", what, expect[i],
                  err);
}

/* A buffer whose envelope must be refused. */
static void refuse_envelope(const char *text, const char *const *expect, size_t n)
{
    char err[768] = "";
    ul_cert *c = (ul_cert *)&err;
    cr_assert_eq(ul_cert_load_buffer(text, strlen(text), &c, err, sizeof err), UL_EINPUT,
                 "should be refused: %s", text);
    cr_assert_null(c);
    cr_assert(err[0] == '$', "message starts with the JSON path: %s", err);
    expect_in(err, expect, n, text);
}

#define REFUSE_ENVELOPE(text, ...)                                                                 \
    do {                                                                                           \
        const char *const expect_[] = {__VA_ARGS__};                                               \
        refuse_envelope(text, expect_, sizeof expect_ / sizeof expect_[0]);                        \
    } while (0)

/* A certificate with these parameters / claim / extra top-level members. */
static char *cert_text(const char *params, const char *claim, const char *extra)
{
    size_t cap = strlen(params) + strlen(claim) + strlen(extra) + 256;
    char *s = malloc(cap);
    snprintf(s, cap,
             "{\"format\": \"ulaudit-certificate/1\", \"method\": \"gaussian-mechanism\", "
             "\"parameters\": {%s}, \"claim\": {%s}%s}",
             params, claim, extra);
    return s;
}

/* The object of a loadable certificate must be refused by the field table. */
static void refuse_field(const char *object, const char *params, const char *claim,
                         const char *extra, const char *const *expect, size_t n)
{
    char *text = cert_text(params, claim, extra);
    ul_cert *c = load_ok(text);
    const ul_field_spec *specs = strcmp(object, "parameters") == 0 ? param_specs
                                 : strcmp(object, "claim") == 0    ? claim_specs
                                                                   : stated_specs;
    size_t ns = strcmp(object, "parameters") == 0 ? N_PARAM
                : strcmp(object, "claim") == 0    ? N_CLAIM
                                                  : N_STATED;
    char err[768] = "";
    ul_cert_values vals = {99, (const ul_cert_value *)&err};
    cr_assert_eq(ul_cert_read_object(c, object, specs, ns, &vals, err, sizeof err), UL_EINPUT,
                 "should be refused: %s", text);
    cr_assert_eq(vals.n, 0);
    cr_assert_null(vals.v);
    cr_assert(err[0] == '$', "message starts with the JSON path: %s", err);
    expect_in(err, expect, n, text);
    ul_cert_free(c);
    free(text);
}

#define REFUSE_PARAM(params, ...)                                                                  \
    do {                                                                                           \
        const char *const expect_[] = {__VA_ARGS__};                                               \
        refuse_field("parameters", params, "\"eps\": 1, \"delta\": 0", "", expect_,                \
                     sizeof expect_ / sizeof expect_[0]);                                          \
    } while (0)
#define REFUSE_CLAIM(claim, ...)                                                                   \
    do {                                                                                           \
        const char *const expect_[] = {__VA_ARGS__};                                               \
        refuse_field("claim", "\"sensitivity\": 1, \"sigma\": 1", claim, "", expect_,              \
                     sizeof expect_ / sizeof expect_[0]);                                          \
    } while (0)
#define REFUSE_STATED(stated, ...)                                                                 \
    do {                                                                                           \
        const char *const expect_[] = {__VA_ARGS__};                                               \
        refuse_field("stated", "\"sensitivity\": 1, \"sigma\": 1", "\"eps\": 1, \"delta\": 0",     \
                     ", \"stated\": {" stated "}", expect_, sizeof expect_ / sizeof expect_[0]);   \
    } while (0)

/* ---- a good certificate, read field by field ------------------------------ */

Test(cert, full_certificate_reads_back_exactly)
{
    char path[512], err[768] = "";
    data_path(path, sizeof path, "good/full.json");
    ul_cert *c = NULL;
    cr_assert_eq(ul_cert_load(path, &c, err, sizeof err), UL_OK, "%s", err);
    cr_assert_str_eq(ul_cert_method(c), "gaussian-mechanism");
    cr_assert(strstr(ul_cert_source(c), "test fixture") == ul_cert_source(c));
    cr_assert_str_eq(ul_cert_expected_verdict(c), "supported");
    cr_assert_str_eq(ul_cert_expected_explanation(c), "fixture for tests/test_cert.c");

    ul_cert_values p;
    cr_assert_eq(ul_cert_read_object(c, "parameters", param_specs, N_PARAM, &p, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(p.n, N_PARAM);
    cr_assert_str_eq(ul_cert_values_get(&p, "sensitivity")->text, "1");
    /* a decimal given as a string is accepted, text as written */
    cr_assert_str_eq(ul_cert_values_get(&p, "sigma")->text, "4.5");
    cr_assert_str_eq(ul_cert_values_get(&p, "sigma")->path, "$.parameters.sigma");
    cr_assert_eq(ul_cert_values_get(&p, "steps")->count, 100);
    cr_assert_str_eq(ul_cert_values_get(&p, "conversion")->text, "bbghs");
    cr_assert(ul_cert_values_get(&p, "clipped")->present);
    cr_assert(ul_cert_values_get(&p, "clipped")->boolean);
    cr_assert_null(ul_cert_values_get(&p, "nonesuch"));

    ul_cert_values cl;
    cr_assert_eq(ul_cert_read_object(c, "claim", claim_specs, N_CLAIM, &cl, err, sizeof err), UL_OK,
                 "%s", err);
    /* exact decimal text, character for character: never through a double */
    cr_assert_str_eq(cl.v[0].text, "0.1000000000000000000001");
    /* 1e-400 underflows a double to 0; here it is the string "1e-400" */
    cr_assert_str_eq(cl.v[1].text, "1e-400");
    cr_assert_str_eq(cl.v[1].path, "$.claim.delta");

    ul_cert_values st;
    cr_assert_eq(ul_cert_read_object(c, "stated", stated_specs, N_STATED, &st, err, sizeof err),
                 UL_OK, "%s", err);
    const ul_cert_value *d = ul_cert_values_get(&st, "deltas");
    cr_assert_eq(d->n_items, 3);
    cr_assert_str_eq(d->items[0], "1e-5");
    cr_assert_str_eq(d->items[1], "2e-5"); /* a string element */
    cr_assert_str_eq(d->items[2], "0.00003");
    cr_assert_str_eq(ul_cert_values_get(&st, "sigma")->text, "4.5");
    ul_cert_free(c);
}

Test(cert, minimal_certificate_and_absent_optionals)
{
    char path[512], err[768] = "";
    data_path(path, sizeof path, "good/minimal.json");
    ul_cert *c = NULL;
    cr_assert_eq(ul_cert_load(path, &c, err, sizeof err), UL_OK, "%s", err);
    cr_assert_str_eq(ul_cert_method(c), "rdp-curve");
    cr_assert_null(ul_cert_source(c));
    cr_assert_null(ul_cert_expected_verdict(c));
    cr_assert_null(ul_cert_object(c, "stated"));
    ul_cert_values p;
    cr_assert_eq(ul_cert_read_object(c, "parameters", param_specs, N_PARAM, &p, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert(!ul_cert_values_get(&p, "steps")->present);
    cr_assert_null(ul_cert_values_get(&p, "steps")->text);
    cr_assert(!ul_cert_values_get(&p, "clipped")->present);
    /* an absent "stated" reads as an empty object ... */
    ul_cert_values st;
    cr_assert_eq(ul_cert_read_object(c, "stated", stated_specs, N_STATED, &st, err, sizeof err),
                 UL_OK, "%s", err);
    cr_assert(!st.v[0].present && !st.v[1].present);
    /* ... so a required stated field is reported missing, with its path */
    const ul_field_spec need_k[] = {
        {.name = "K", .type = UL_FIELD_COUNT, .required = true, .doc = "the stated K"}};
    cr_assert_eq(ul_cert_read_object(c, "stated", need_k, 1, &st, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "$.stated.K: missing required field (a whole number: the stated K)"),
              "%s", err);
    /* a method that reads no stated numbers passes an empty table */
    cr_assert_eq(ul_cert_read_object(c, "stated", NULL, 0, &st, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(st.n, 0);
    /* only parameters, claim and stated are field objects */
    cr_assert_eq(ul_cert_read_object(c, "expected", need_k, 1, &st, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "parameters, claim or stated"), "%s", err);
    ul_cert_free(c);
}

Test(cert, every_method_is_accepted)
{
    for (size_t i = 0; ul_cert_methods[i] != NULL; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "{\"format\":\"ulaudit-certificate/1\",\"method\":\"%s\",\"parameters\":{},"
                 "\"claim\":{}}",
                 ul_cert_methods[i]);
        ul_cert *c = load_ok(text);
        cr_assert_str_eq(ul_cert_method(c), ul_cert_methods[i]);
        ul_cert_free(c);
    }
    size_t n = 0;
    while (ul_cert_methods[n] != NULL)
        n++;
    cr_assert_eq(n, 10); /* the nine of the original design plus dp-sgd (issue 14) */
}

/* ---- numbers: exact text, strings, ranges, huge exponents ------------------ */

Test(cert, decimals_exact_and_as_strings)
{
    struct {
        const char *json, *text;
    } cases[] = {
        {"0.1000000000000000000001", "0.1000000000000000000001"},
        {"\"0.1000000000000000000001\"", "0.1000000000000000000001"},
        {"1e-400", "1e-400"},
        {"\"1e-400\"", "1e-400"},
        {"\"1E-400\"", "1E-400"},
        {"0.0", "0.0"},
        {"\".5\"", ".5"}, /* decimal text in a string follows ul_num_is_decimal */
        {"1e-20000", "1e-20000"},
        {"1e-99999", "1e-99999"}, /* far below 10^-20000: delta is not read as a rational */
        {"\"0e-99999\"", "0e-99999"}, /* 0, whatever its exponent */
        {"0.00100e-19997", "0.00100e-19997"}, /* = 1e-20000: the magnitude, not the exponent */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char claim[128];
        snprintf(claim, sizeof claim, "\"eps\": 1, \"delta\": %s", cases[i].json);
        char *text = cert_text("\"sensitivity\": 1, \"sigma\": 1", claim, "");
        ul_cert *c = load_ok(text);
        ul_cert_values v;
        char err[768];
        cr_assert_eq(ul_cert_read_object(c, "claim", claim_specs, N_CLAIM, &v, err, sizeof err),
                     UL_OK, "%s: %s", cases[i].json, err);
        cr_assert_str_eq(v.v[1].text, cases[i].text);
        ul_cert_free(c);
        free(text);
    }
}

Test(cert, decimal_ranges_exact)
{
    /* the bounds are compared exactly: 0 < sigma, 0 <= delta <= 1 */
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 0", "$.parameters.sigma: must be > 0 (got '0')");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": -1e-400", "$.parameters.sigma: must be > 0");
    REFUSE_CLAIM("\"eps\": 1, \"delta\": 1.0000000000000000000000000000001",
                 "$.claim.delta: must be <= 1");
    REFUSE_CLAIM("\"eps\": -0.0000000000000000000000000000001, \"delta\": 0",
                 "$.claim.eps: must be >= 0");
    /* and the bounds themselves pass */
    char *text = cert_text("\"sensitivity\": 1, \"sigma\": 1", "\"eps\": 0, \"delta\": 1.000", "");
    ul_cert *c = load_ok(text);
    ul_cert_values v;
    char err[768];
    cr_assert_eq(ul_cert_read_object(c, "claim", claim_specs, N_CLAIM, &v, err, sizeof err), UL_OK,
                 "%s", err);
    ul_cert_free(c);
    free(text);
}

Test(cert, huge_exponents_give_range_or_magnitude_errors)
{
    /* 1e999999 is a finite decimal within every decimal's magnitudes
     * (10^±(10^18), num/input.h): a bounded field refuses it by range */
    REFUSE_CLAIM("\"eps\": 1, \"delta\": 1e999999", "$.claim.delta: must be <= 1 (got '1e999999')");
    REFUSE_CLAIM("\"eps\": 1, \"delta\": \"1e999999\"", "$.claim.delta: must be <= 1");
    REFUSE_CLAIM("\"eps\": 1, \"delta\": -1e999999", "$.claim.delta: must be >= 0");
    /* beyond 10^±(10^18), whatever the bounds, checked before the range */
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 1e99999999999999999999999",
                 "$.parameters.sigma: 1e99999999999999999999999 is above the largest magnitude "
                 "accepted (1e1000000000000000000)");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 1e-99999999999999999999999",
                 "$.parameters.sigma: 1e-99999999999999999999999 is below the smallest magnitude "
                 "accepted (1e-1000000000000000000");
    REFUSE_CLAIM("\"eps\": 1, \"delta\": 1e-1000000000000000001", "$.claim.delta:",
                 "below the smallest magnitude");
    /* a field read as an exact rational (.exact): 10^±20000 */
    REFUSE_PARAM("\"sensitivity\": 1e-20001, \"sigma\": 1",
                 "$.parameters.sensitivity: 1e-20001 is below the smallest magnitude accepted for "
                 "a number read as an exact rational (1e-20000");
    REFUSE_PARAM("\"sensitivity\": \"10.000000000000000001e19999\", \"sigma\": 1",
                 "$.parameters.sensitivity:", "above the largest magnitude accepted for a number "
                                              "read as an exact rational (1e20000)");
    REFUSE_PARAM("\"sensitivity\": 0.0999e-19999, \"sigma\": 1", "$.parameters.sensitivity:",
                 "below the smallest");
    /* … and the same value where the field is not read exactly: accepted */
    char *text = cert_text("\"sensitivity\": 1e-20000, \"sigma\": 1e-20001", "\"eps\": 0, \"delta\": 0",
                           "");
    ul_cert *c = load_ok(text);
    ul_cert_values v;
    char err[768];
    cr_assert_eq(ul_cert_read_object(c, "parameters", param_specs, N_PARAM, &v, err, sizeof err),
                 UL_OK, "%s", err);
    ul_cert_free(c);
    free(text);
    /* a count refuses what is not a whole number up to 10^18 */
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 1, \"steps\": 1e19999",
                 "$.parameters.steps: must be a whole number from 0 to 1000000000000000000");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 1, \"steps\": 1e19", "$.parameters.steps",
                 "whole number");
}

Test(cert, non_finite_values)
{
    /* as JSON literals the reader refuses them, with the path */
    char *text = cert_text("\"sensitivity\": 1, \"sigma\": NaN", "\"eps\": 1, \"delta\": 0", "");
    char err[768];
    ul_cert *c;
    cr_assert_eq(ul_cert_load_buffer(text, strlen(text), &c, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "$.parameters.sigma: line 1"), "%s", err);
    cr_assert(strstr(err, "NaN and Infinity are not JSON"), "%s", err);
    free(text);
    /* as strings the field reader refuses them */
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": \"NaN\"", "$.parameters.sigma: must be finite");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": \"-Infinity\"",
                 "$.parameters.sigma: must be finite");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": \"inf\"", "$.parameters.sigma: must be finite");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": \"@inf@\"",
                 "$.parameters.sigma: must be a decimal");
}

Test(cert, counts)
{
    struct {
        const char *json;
        unsigned long long value;
    } ok[] = {{"1", 1},
              {"\"1000\"", 1000},
              {"1e3", 1000},
              {"1000.000", 1000},
              {"1000000000000000000", 1000000000000000000ULL},
              {"2.50e1", 25}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char params[128];
        snprintf(params, sizeof params, "\"sensitivity\": 1, \"sigma\": 1, \"steps\": %s",
                 ok[i].json);
        char *text = cert_text(params, "\"eps\": 1, \"delta\": 0", "");
        ul_cert *c = load_ok(text);
        ul_cert_values v;
        char err[768];
        cr_assert_eq(
            ul_cert_read_object(c, "parameters", param_specs, N_PARAM, &v, err, sizeof err), UL_OK,
            "%s: %s", ok[i].json, err);
        cr_assert_eq(ul_cert_values_get(&v, "steps")->count, ok[i].value, "%s", ok[i].json);
        ul_cert_free(c);
        free(text);
    }
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 1, \"steps\": 2.5",
                 "$.parameters.steps: must be a whole number");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 1, \"steps\": 0",
                 "$.parameters.steps: must be >= 1 (got '0')");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 1, \"steps\": 1e-30000",
                 "$.parameters.steps: must be >= 1");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 1, \"steps\": \"12 steps\"",
                 "$.parameters.steps: must be a decimal number");
}

/* ---- fields: unknown, missing, wrong types, lists, choices ----------------- */

Test(cert, unknown_field_names_path_and_suggests)
{
    REFUSE_PARAM("\"sensitivity\": 1, \"sgima\": 2",
                 "$.parameters.sgima: unknown field (did you mean 'sigma'? known: sensitivity, "
                 "sigma, steps, conversion, clipped)");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 2, \"zzz\": 1",
                 "$.parameters.zzz: unknown field (known: sensitivity");
    REFUSE_CLAIM("\"eps\": 1, \"delta\": 0, \"epsilon\": 1", "$.claim.epsilon: unknown field");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 2, \"odd key\": 1",
                 "$.parameters[\"odd key\"]: unknown field");
    /* with an empty table every key is unknown */
    char *text = cert_text("\"sensitivity\": 1", "\"eps\": 1", ", \"stated\": {\"K\": 3}");
    ul_cert *c = load_ok(text);
    ul_cert_values v;
    char err[768];
    cr_assert_eq(ul_cert_read_object(c, "stated", NULL, 0, &v, err, sizeof err), UL_EINPUT);
    cr_assert_str_eq(err, "$.stated.K: unknown field (known: none)");
    ul_cert_free(c);
    free(text);
}

Test(cert, missing_required_field)
{
    REFUSE_PARAM("\"sensitivity\": 1",
                 "$.parameters.sigma: missing required field (a decimal number: noise standard "
                 "deviation)");
    REFUSE_CLAIM("\"eps\": 1", "$.claim.delta: missing required field");
}

Test(cert, wrong_types)
{
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": [2]",
                 "$.parameters.sigma: must be a decimal number", "got an array");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": {}", "$.parameters.sigma", "got an object");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": null", "$.parameters.sigma", "got null");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": true", "$.parameters.sigma", "got true");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": \"two\"", "$.parameters.sigma",
                 "got the string \"two\"");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": \" 2\"", "$.parameters.sigma",
                 "must be a decimal number");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 1, \"clipped\": \"true\"",
                 "$.parameters.clipped: must be true or false, got the string \"true\"");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 1, \"clipped\": 1",
                 "$.parameters.clipped: must be true or false, got the number 1");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 1, \"conversion\": 2",
                 "$.parameters.conversion: must be a string, got the number 2");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 1, \"conversion\": \"mironv\"",
                 "$.parameters.conversion: not an allowed value, got the string \"mironv\"",
                 "did you mean 'mironov'? known: mironov, bbghs");
    REFUSE_PARAM("\"sensitivity\": 1, \"sigma\": 1, \"steps\": [1]",
                 "$.parameters.steps: must be a decimal number", "got an array");
}

Test(cert, lists)
{
    REFUSE_STATED("\"deltas\": []", "$.stated.deltas: must be a non-empty list");
    REFUSE_STATED("\"deltas\": 1e-5", "$.stated.deltas: must be a non-empty list",
                  "got the number 1e-5");
    REFUSE_STATED("\"deltas\": [1e-5, 2e-5, 3e-5, \"abc\"]",
                  "$.stated.deltas[3]: must be a decimal number", "got the string \"abc\"");
    REFUSE_STATED("\"deltas\": [1e-5, null]", "$.stated.deltas[1]:", "got null");
    REFUSE_STATED("\"deltas\": [1e-5, [1e-5]]", "$.stated.deltas[1]:", "got an array");
    REFUSE_STATED("\"deltas\": [0.5, 1.5]", "$.stated.deltas[1]: must be <= 1 (got '1.5')");
    REFUSE_STATED("\"deltas\": [0.5, \"1e999999\"]", "$.stated.deltas[1]: must be <= 1");
    REFUSE_STATED("\"deltas\": [0.5], \"sigma\": 0", "$.stated.sigma: must be > 0");
}

/* ---- the envelope ------------------------------------------------------- */

Test(cert, envelope_errors)
{
    REFUSE_ENVELOPE("[1]", "$: a certificate must be a JSON object", "got an array");
    REFUSE_ENVELOPE("\"ulaudit-certificate/1\"", "$: a certificate must be a JSON object");
    REFUSE_ENVELOPE("{\"method\": \"d2d\", \"parameters\": {}, \"claim\": {}}",
                    "$.format: missing required field");
    REFUSE_ENVELOPE("{\"format\": 1, \"method\": \"d2d\", \"parameters\": {}, \"claim\": {}}",
                    "$.format: must be a string, got the number 1");
    REFUSE_ENVELOPE("{\"format\": \"ulaudit-certificate/2\", \"method\": \"d2d\", "
                    "\"parameters\": {}, \"claim\": {}}",
                    "$.format: unsupported certificate format \"ulaudit-certificate/2\"",
                    "reads \"ulaudit-certificate/1\"");
    REFUSE_ENVELOPE("{\"format\": \"ulaudit-certificate/1\", \"parameters\": {}, \"claim\": {}}",
                    "$.method: missing required field");
    REFUSE_ENVELOPE("{\"format\": \"ulaudit-certificate/1\", \"method\": \"langevn\", "
                    "\"parameters\": {}, \"claim\": {}}",
                    "$.method: unknown method \"langevn\" (did you mean 'langevin'?",
                    "gaussian-mechanism, output-perturbation");
    REFUSE_ENVELOPE("{\"format\": \"ulaudit-certificate/1\", \"method\": \"d2d\", \"claim\": {}}",
                    "$.parameters: missing required field");
    REFUSE_ENVELOPE("{\"format\": \"ulaudit-certificate/1\", \"method\": \"d2d\", "
                    "\"parameters\": {}}",
                    "$.claim: missing required field");
    REFUSE_ENVELOPE("{\"format\": \"ulaudit-certificate/1\", \"method\": \"d2d\", "
                    "\"parameters\": [], \"claim\": {}}",
                    "$.parameters: must be an object", "got an array");
    REFUSE_ENVELOPE("{\"format\": \"ulaudit-certificate/1\", \"method\": \"d2d\", "
                    "\"parameters\": {}, \"claim\": {}, \"stated\": 3}",
                    "$.stated: must be an object");
    REFUSE_ENVELOPE("{\"format\": \"ulaudit-certificate/1\", \"method\": \"d2d\", "
                    "\"parameters\": {}, \"claim\": {}, \"source\": 3}",
                    "$.source: must be a string");
    REFUSE_ENVELOPE("{\"format\": \"ulaudit-certificate/1\", \"method\": \"d2d\", "
                    "\"parameters\": {}, \"claim\": {}, \"claims\": {}}",
                    "$.claims: unknown top-level field (did you mean 'claim'? known: format, "
                    "method, source, parameters, claim, stated, expected)");
    REFUSE_ENVELOPE("{\"format\": \"ulaudit-certificate/1\", \"method\": \"d2d\", "
                    "\"parameters\": {}, \"claim\": {}, \"expected\": {\"verdict\": \"supportd\"}}",
                    "$.expected.verdict: not an allowed value", "did you mean 'supported'?");
    REFUSE_ENVELOPE("{\"format\": \"ulaudit-certificate/1\", \"method\": \"d2d\", "
                    "\"parameters\": {}, \"claim\": {}, \"expected\": {}}",
                    "$.expected.verdict: missing required field");
    REFUSE_ENVELOPE("{\"format\": \"ulaudit-certificate/1\", \"method\": \"d2d\", "
                    "\"parameters\": {}, \"claim\": {}, \"expected\": {\"verdict\": \"invalid\", "
                    "\"why\": \"x\"}}",
                    "$.expected.why: unknown field");
}

Test(cert, messages_are_one_line_and_quote_user_text)
{
    REFUSE_ENVELOPE("{\"format\": \"ulaudit-certificate/1\", \"method\": \"bad\\nmethod\\\"\", "
                    "\"parameters\": {}, \"claim\": {}}",
                    "$.method: unknown method \"bad\\u000amethod\\\"\"");
    /* 70 two-byte characters: cut after ~60 bytes, at a character boundary */
    char params[512] = "\"sensitivity\": 1, \"sigma\": \"";
    for (int i = 0; i < 70; i++)
        strcat(params, "\xc3\xa9");
    strcat(params, "\"");
    char *text = cert_text(params, "\"eps\": 1, \"delta\": 0", "");
    ul_cert *c = load_ok(text);
    ul_cert_values v;
    char err[768];
    cr_assert_eq(ul_cert_read_object(c, "parameters", param_specs, N_PARAM, &v, err, sizeof err),
                 UL_EINPUT);
    cr_assert(strchr(err, '\n') == NULL, "%s", err);
    char expect[256] = "got the string \"";
    for (int i = 0; i < 30; i++)
        strcat(expect, "\xc3\xa9");
    strcat(expect, "...\"");
    cr_assert(strstr(err, expect) != NULL, "%s", err);
    ul_cert_free(c);
    free(text);
}

/* ---- the reliability corpus ------------------------------------------------
 * Every file in tests/data/certs/bad must be refused, by ul_cert_load or by
 * the field tables, with a message naming the file or the JSON path and
 * saying what is wrong. */

static const struct {
    const char *file;
    const char *expect[3];
} corpus[] = {
    {"truncated.json", {"$.method: line 3", "unterminated string", "truncated"}},
    {"nan.json", {"$.parameters.sigma: line 4", "NaN and Infinity are not JSON"}},
    {"infinity.json", {"$.claim.eps: line 5", "NaN and Infinity"}},
    {"neg_infinity.json", {"$.claim.eps: line 5", "NaN and Infinity"}},
    {"huge_exponent.json", {"$.claim.delta: must be <= 1 (got '1e999999')"}},
    {"huge_exponent_unbounded.json", {"$.parameters.sigma: 1e99999999999999999999999 is above"}},
    {"tiny_exponent.json", {"$.parameters.sigma:", "is below the smallest magnitude"}},
    {"wrong_type.json", {"$.parameters.sigma: must be a decimal number", "got an array"}},
    {"wrong_type_bool.json", {"$.parameters.clipped: must be true or false"}},
    {"duplicate_key.json",
     {"$.parameters.sigma: line 4", "duplicate key", "first given at line 4"}},
    {"unknown_field.json", {"$.parameters.sgima: unknown field", "did you mean 'sigma'?"}},
    {"missing_field.json", {"$.parameters.sigma: missing required field"}},
    {"trailing_garbage.json", {"$: line 7, column 1", "after the end of the JSON document"}},
    {"comment.json", {"$.parameters: line 4, column 36", "comments are not allowed"}},
    {"control_char.json", {"$.source: line 6", "raw control character 0x09"}},
    {"bad_format.json", {"$.format: unsupported certificate format"}},
    {"bad_method.json", {"$.method: unknown method", "did you mean 'gaussian-mechanism'?"}},
    {"unknown_top_level.json", {"$.claims: unknown top-level field", "did you mean 'claim'?"}},
    {"not_object.json", {"$: a certificate must be a JSON object"}},
    {"whitespace_only.json", {"$: line 3", "only whitespace"}},
    {"bad_list_element.json", {"$.stated.deltas[3]: must be a decimal number"}},
    {"empty_list.json", {"$.stated.deltas: must be a non-empty list"}},
    {"string_nan.json", {"$.parameters.sigma: must be finite"}},
    {"count_fraction.json", {"$.parameters.steps: must be a whole number"}},
    {"bad_verdict.json", {"$.expected.verdict: not an allowed value"}},
    {"empty.json", {"empty file"}},
    {"non_utf8.json", {"$.source: line 6", "invalid UTF-8 (byte 0xE9"}},
    {"bom.json", {"$: line 1, column 1", "byte-order mark"}},
};

/* Loads and reads every object; the first error, or UL_OK. */
static ul_status audit_like_read(const char *path, char *err, size_t errlen)
{
    ul_cert *c;
    ul_status st = ul_cert_load(path, &c, err, errlen);
    if (st != UL_OK)
        return st;
    ul_cert_values v;
    if ((st = ul_cert_read_object(c, "parameters", param_specs, N_PARAM, &v, err, errlen)) ==
            UL_OK &&
        (st = ul_cert_read_object(c, "claim", claim_specs, N_CLAIM, &v, err, errlen)) == UL_OK)
        st = ul_cert_read_object(c, "stated", stated_specs, N_STATED, &v, err, errlen);
    ul_cert_free(c);
    return st;
}

Test(cert, reliability_corpus)
{
    for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; i++) {
        char path[512], err[768] = "";
        data_path(path, sizeof path, "bad/");
        strncat(path, corpus[i].file, sizeof path - strlen(path) - 1);
        cr_assert_eq(audit_like_read(path, err, sizeof err), UL_EINPUT, "%s must be refused",
                     corpus[i].file);
        cr_assert(strstr(err, "$") != NULL || strncmp(err, path, strlen(path)) == 0,
                  "%s: message names the file or the JSON path: %s", corpus[i].file, err);
        for (int k = 0; k < 3 && corpus[i].expect[k] != NULL; k++)
            cr_assert(strstr(err, corpus[i].expect[k]) != NULL, "%s: message lacks '%s': %s",
                      corpus[i].file, corpus[i].expect[k], err);
    }
}

Test(cert, corpus_table_covers_every_bad_file)
{
    char dir[512];
    data_path(dir, sizeof dir, "bad");
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "cannot open %s (run from the repository root)", dir);
    size_t files = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        files++;
        bool listed = false;
        for (size_t i = 0; i < sizeof corpus / sizeof corpus[0] && !listed; i++)
            listed = strcmp(corpus[i].file, e->d_name) == 0;
        cr_assert(listed, "bad/%s has no entry in the corpus table", e->d_name);
    }
    closedir(d);
    cr_assert_eq(files, sizeof corpus / sizeof corpus[0]);
}

Test(cert, good_files_pass_the_same_reading)
{
    const char *good[] = {"good/full.json", "good/minimal.json"};
    for (size_t i = 0; i < 2; i++) {
        char path[512], err[768] = "";
        data_path(path, sizeof path, good[i]);
        cr_assert_eq(audit_like_read(path, err, sizeof err), UL_OK, "%s: %s", good[i], err);
    }
}

/* ---- generated files: 10 MB, deep nesting, a directory ----------------------- */

static char tmpdir[64];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ul-cert-test-XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
}

static void remove_tmpdir(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s'; rm -rf '%s'", tmpdir, tmpdir);
    cr_assert_eq(system(cmd), 0);
    ul_num_shutdown();
}

static void refuse_load(const char *path, const char *expect)
{
    char err[768] = "";
    ul_cert *c = (ul_cert *)&err;
    cr_assert_eq(ul_cert_load(path, &c, err, sizeof err), UL_EINPUT, "%s refused", path);
    cr_assert_null(c);
    cr_assert(strncmp(err, path, strlen(path)) == 0, "message starts with the file: %s", err);
    cr_assert(strstr(err, expect) != NULL, "message lacks '%s': %s", expect, err);
}

Test(cert, ten_megabyte_certificate, .init = make_tmpdir, .fini = remove_tmpdir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/big.json", tmpdir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    /* a well-formed certificate whose "source" is 10 MB long */
    fputs("{\"format\": \"ulaudit-certificate/1\", \"method\": \"d2d\", \"source\": \"", f);
    for (int i = 0; i < 10 * 1000 * 1000 / 50; i++)
        fputs("padding padding padding padding padding padding. ", f);
    fputs("\", \"parameters\": {}, \"claim\": {}}\n", f);
    cr_assert_eq(fclose(f), 0);
    refuse_load(path, "the limit is 1048576 bytes (1 MiB)");
}

Test(cert, deeply_nested_certificate, .init = make_tmpdir, .fini = remove_tmpdir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/deep.json", tmpdir);
    FILE *f = fopen(path, "w");
    fputs("{\"format\": \"ulaudit-certificate/1\", \"method\": \"d2d\", \"parameters\": {\"x\": ",
          f);
    for (int i = 0; i < 200000; i++)
        fputc('[', f);
    for (int i = 0; i < 200000; i++)
        fputc(']', f);
    fputs("}, \"claim\": {}}\n", f);
    cr_assert_eq(fclose(f), 0);
    refuse_load(path, "$.parameters.x[0][0]");
    refuse_load(path, "nesting deeper than 64 levels");
}

Test(cert, directory_empty_missing, .init = make_tmpdir, .fini = remove_tmpdir)
{
    refuse_load(tmpdir, "is a directory");
    char path[512];
    data_path(path, sizeof path, "good");
    refuse_load(path, "is a directory");
    snprintf(path, sizeof path, "%s/nothing-here.json", tmpdir);
    refuse_load(path, "cannot open: No such file or directory");
    data_path(path, sizeof path, "bad/empty.json");
    refuse_load(path, "empty file");
}

/* ---- atomic writing ------------------------------------------------------------ */

static size_t count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

Test(cert, write_atomic_creates_and_replaces, .init = make_tmpdir, .fini = remove_tmpdir)
{
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/out.json", tmpdir);
    const char *a = "{\"verdict\": \"supported\"}\n";
    cr_assert_eq(ul_io_write_atomic_bytes(path, a, strlen(a), err, sizeof err), UL_OK, "%s", err);
    cr_assert_str_eq(slurp(path), a);
    const char *b = "{\"verdict\": \"unsupported\"}\n";
    cr_assert_eq(ul_io_write_atomic_bytes(path, b, strlen(b), err, sizeof err), UL_OK, "%s", err);
    cr_assert_str_eq(slurp(path), b);
    /* no temporary file is left behind */
    cr_assert_eq(count_entries(tmpdir), 1);
    /* an empty output is a valid (empty) file */
    cr_assert_eq(ul_io_write_atomic_bytes(path, "", 0, err, sizeof err), UL_OK, "%s", err);
    cr_assert_str_eq(slurp(path), "");
    /* mode follows the umask like any new file: not the 0600 of mkstemp */
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    mode_t mask = umask(0);
    umask(mask);
    cr_assert_eq(st.st_mode & 0777, 0666 & ~mask);
}

Test(cert, write_atomic_relative_path, .init = make_tmpdir, .fini = remove_tmpdir)
{
    char cwd[4096], err[512];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    cr_assert_eq(chdir(tmpdir), 0);
    cr_assert_eq(ul_io_write_atomic_bytes("plain.txt", "x", 1, err, sizeof err), UL_OK, "%s", err);
    cr_assert_str_eq(slurp("plain.txt"), "x");
    cr_assert_eq(chdir(cwd), 0);
    cr_assert_eq(count_entries(tmpdir), 1);
}

Test(cert, write_atomic_failures_leave_nothing, .init = make_tmpdir, .fini = remove_tmpdir)
{
    char path[256], err[512];
    /* the directory does not exist */
    snprintf(path, sizeof path, "%s/no/such/dir/out.json", tmpdir);
    cr_assert_eq(ul_io_write_atomic_bytes(path, "x", 1, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "cannot create a temporary file") && strstr(err, "No such file"), "%s",
              err);
    cr_assert_eq(count_entries(tmpdir), 0);
    /* the target is a directory: the rename fails, the temporary file goes */
    snprintf(path, sizeof path, "%s/adir", tmpdir);
    cr_assert_eq(mkdir(path, 0755), 0);
    cr_assert_eq(ul_io_write_atomic_bytes(path, "x", 1, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "cannot replace the file"), "%s", err);
    cr_assert_eq(count_entries(tmpdir), 1);
    cr_assert_eq(count_entries(path), 0);
    /* a path with no file name */
    snprintf(path, sizeof path, "%s/", tmpdir);
    cr_assert_eq(ul_io_write_atomic_bytes(path, "x", 1, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "not a file name"), "%s", err);
    cr_assert_eq(count_entries(tmpdir), 1);
}

/* Runs fn in a child process; as root, the child first drops to the user
 * nobody (65534), since permissions do not stop root.  The child's exit code
 * is fn's result. */
static int in_child_without_privileges(int (*fn)(const char *), const char *arg)
{
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(90);
        _exit(fn(arg));
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status), "child crashed");
    return WEXITSTATUS(status);
}

static int write_into(const char *dir)
{
    char path[300], err[512];
    snprintf(path, sizeof path, "%s/out.json", dir);
    if (ul_io_write_atomic_bytes(path, "x", 1, err, sizeof err) != UL_EINPUT)
        return 1;
    if (strstr(err, "cannot create a temporary file") == NULL ||
        strstr(err, "Permission denied") == NULL)
        return 2;
    return 0;
}

Test(cert, write_atomic_unwritable_directory, .init = make_tmpdir, .fini = remove_tmpdir)
{
    char dir[256];
    snprintf(dir, sizeof dir, "%s/ro", tmpdir);
    cr_assert_eq(chmod(tmpdir, 0755), 0);
    cr_assert_eq(mkdir(dir, 0755), 0);
    cr_assert_eq(chmod(dir, 0555), 0);
    int rc = in_child_without_privileges(write_into, dir);
    cr_assert_eq(rc, 0, "child result %d (1: not refused, 2: wrong message, 90: setuid failed)",
                 rc);
    cr_assert_eq(count_entries(dir), 0);
}
