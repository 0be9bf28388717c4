/* tests/test_audit_cli.c — `ulaudit audit` and `ulaudit calibrate` end to end:
 * reports, JSON, exit codes (0 / 1 / 3 / 2) and bad input (one stderr line
 * naming the file and JSON path, nothing on stdout). */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"

/* The repository's audits/ directory (make test runs from the root, but
 * the path is derived from this file so any working directory works). */
static void corpus_path(char *out, size_t n, const char *file)
{
    const char *self = __FILE__;
    const char *slash = strrchr(self, '/');
    snprintf(out, n, "%.*s../audits/%s", slash ? (int)(slash - self + 1) : 0, self, file);
}

/* Writes text to a fresh temporary file; the path goes to out. */
static void temp_cert(char *out, size_t n, const char *text)
{
    snprintf(out, n, "/tmp/ulaudit-audit-cli-XXXXXX");
    int fd = mkstemp(out);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
}

static void expect_one_error_line(run_result *r, int status, const char *must)
{
    cr_assert_eq(r->status, status, "exit %d; stderr: %s; stdout: %s", r->status, r->err, r->out);
    cr_assert_str_empty(r->out, "stdout must stay empty: %s", r->out);
    cr_assert(strstr(r->err, must) != NULL, "stderr should name '%s': %s", must, r->err);
    char *nl = strchr(r->err, '\n');
    cr_assert(nl != NULL && nl[1] == '\0', "one line expected: %s", r->err);
}

Test(audit_cli, refuted_text_report)
{
    char p[1024];
    corpus_path(p, sizeof p, "output-perturbation-classic-eps10.json");
    run_result r = run("audit", p, NULL);
    cr_assert_eq(r.status, 1, "stderr: %s", r.err);
    cr_assert_str_empty(r.err);
    const char *need[] = {"REFUTED (exit 1)", "output-perturbation", "recomputed",
                          "preconditions", "would reach", "sigma_needed", "forensics",
                          "classic calibration", "explanation"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        cr_assert(strstr(r.out, need[i]) != NULL, "missing '%s' in:\n%s", need[i], r.out);
    run_free(&r);
}

Test(audit_cli, json_report_and_digits)
{
    char p[1024];
    corpus_path(p, sizeof p, "gaussian-one-minus-erf.json");
    run_result r = run("audit", p, "--json", "--digits", "6", NULL);
    cr_assert_eq(r.status, 1, "stderr: %s", r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o, "not JSON: %s", r.out);
    cr_assert_str_eq(field(o, "verdict"), "refuted");
    cr_assert_str_eq(field(o, "method"), "gaussian-mechanism");
    cr_assert_str_eq(field(o, "digits"), "6");
    json_object *rec;
    cr_assert(json_object_object_get_ex(o, "recomputed", &rec));
    /* 7.6651073592755457e-11 (mpmath) at 6 digits, outward */
    cr_assert_str_eq(field(rec, "lo"), "7.66510e-11");
    cr_assert_str_eq(field(rec, "hi"), "7.66511e-11");
    cr_assert(strstr(field(o, "forensics"), "1 - erf") != NULL);
    json_object_put(o);
    run_free(&r);
}

Test(audit_cli, supported_exits_0)
{
    char p[1024];
    corpus_path(p, sizeof p, "gaussian-rdp-calibrated.json");
    run_result r = run("audit", "--json", p, NULL);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_str_eq(field(o, "verdict"), "supported");
    cr_assert_str_eq(field(o, "exit_code"), "0");
    json_object_put(o);
    run_free(&r);
}

Test(audit_cli, unsupported_exits_1)
{
    char p[1024];
    corpus_path(p, sizeof p, "rdp-curve-tfp-constant-mironov.json");
    run_result r = run("audit", p, NULL);
    cr_assert_eq(r.status, 1, "stderr: %s", r.err);
    cr_assert(strstr(r.out, "UNSUPPORTED") != NULL, "%s", r.out);
    run_free(&r);
}

Test(audit_cli, inconclusive_at_the_cap_exits_3)
{
    /* θ_e(1) = 0.126936737506643945800829624757760… (mpmath); the claim is
     * it rounded up at 30 digits: decided at the default cap, not at 64 bits */
    char p[256];
    temp_cert(p, sizeof p,
              "{\"format\": \"ulaudit-certificate/1\", \"method\": \"gaussian-mechanism\", "
              "\"parameters\": {\"sensitivity\": 1, \"sigma\": 1}, \"claim\": {\"eps\": 1, "
              "\"delta\": \"0.126936737506643945800829624758\"}}");
    run_result r = run("audit", p, "--max-bits", "64", NULL);
    cr_assert_eq(r.status, 3, "stdout: %s stderr: %s", r.out, r.err);
    cr_assert(strstr(r.out, "INCONCLUSIVE") != NULL);
    run_free(&r);
    r = run("audit", p, NULL);
    cr_assert_eq(r.status, 0, "stdout: %s stderr: %s", r.out, r.err);
    run_free(&r);
    unlink(p);
}

Test(audit_cli, bad_input_is_exit_2_with_the_path)
{
    char p[256];
    temp_cert(p, sizeof p,
              "{\"format\": \"ulaudit-certificate/1\", \"method\": \"gaussian-mechanism\", "
              "\"parameters\": {\"sensitivity\": 1, \"sgima\": 1}, \"claim\": {\"eps\": 1, "
              "\"delta\": 1e-5}}");
    run_result r = run("audit", p, NULL);
    expect_one_error_line(&r, 2, "$.parameters.sgima");
    cr_assert(strstr(r.err, p) != NULL, "names the file: %s", r.err);
    run_free(&r);
    r = run("audit", p, "--json", NULL);
    expect_one_error_line(&r, 2, "$.parameters.sgima");
    run_free(&r);
    unlink(p);

    temp_cert(p, sizeof p,
              "{\"format\": \"ulaudit-certificate/1\", \"method\": \"output-perturbation\", "
              "\"parameters\": {\"c0\": 1, \"sigma\": NaN}, \"claim\": {\"eps\": 1, "
              "\"delta\": 1e-5}}");
    r = run("audit", p, NULL);
    expect_one_error_line(&r, 2, "$.parameters.sigma");
    run_free(&r);
    unlink(p);

    temp_cert(p, sizeof p,
              "{\"format\": \"ulaudit-certificate/1\", \"method\": \"rdp-curve\", "
              "\"parameters\": {\"alphas\": [2, 3], \"rdps\": [1]}, \"claim\": {\"eps\": 1, "
              "\"delta\": 1e-5}}");
    r = run("audit", p, NULL);
    expect_one_error_line(&r, 2, "$.parameters.rdps");
    run_free(&r);
    unlink(p);

    temp_cert(p, sizeof p, "{\"format\": \"ulaudit-certificate/1\", \"method\": ");
    r = run("audit", p, NULL);
    expect_one_error_line(&r, 2, p);
    run_free(&r);
    unlink(p);
}

Test(audit_cli, unreadable_files_and_usage)
{
    run_result r = run("audit", "/nonexistent/cert.json", NULL);
    expect_one_error_line(&r, 2, "/nonexistent/cert.json");
    run_free(&r);
    r = run("audit", "/tmp", NULL);
    expect_one_error_line(&r, 2, "/tmp");
    run_free(&r);
    expect_usage_error("certificate file", run("audit", NULL));
    expect_usage_error("unexpected argument", run("audit", "a.json", "b.json", NULL));
    expect_usage_error("--digits", run("audit", "a.json", "--digits", "0", NULL));
    expect_usage_error("--bogus", run("audit", "a.json", "--bogus", "1", NULL));
    expect_usage_error("--out", run("audit", "a.json", "--out", "x", NULL));
    r = run("audit", "--help", NULL);
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "usage: ulaudit audit") != NULL);
    run_free(&r);
    r = run("--help", NULL);
    cr_assert(strstr(r.out, "audit CERT.json") != NULL && strstr(r.out, "calibrate") != NULL);
    run_free(&r);
}

Test(audit_cli, calibrate_prints_a_supported_certificate)
{
    char p[1024];
    corpus_path(p, sizeof p, "output-perturbation-classic-eps10.json");
    run_result r = run("calibrate", p, "--digits", "8", NULL);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert_str_empty(r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o, "not JSON: %s", r.out);
    json_object *params;
    cr_assert(json_object_object_get_ex(o, "parameters", &params));
    /* σ* = 0.99977723941801702928 (mpmath), rounded up at 8 digits */
    cr_assert_str_eq(field(params, "sigma"), "9.9977724e-1");
    json_object_put(o);

    char q[256];
    temp_cert(q, sizeof q, r.out);
    run_free(&r);
    r = run("audit", q, NULL);
    cr_assert_eq(r.status, 0, "the calibrated certificate must audit as supported: %s", r.out);
    run_free(&r);
    unlink(q);
}

Test(audit_cli, calibrate_out_writes_atomically)
{
    char p[1024];
    corpus_path(p, sizeof p, "gaussian-one-minus-erf.json");
    char dir[] = "/tmp/ulaudit-calibrate-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char out[512];
    snprintf(out, sizeof out, "%s/done.json", dir);
    run_result r = run("calibrate", p, "--out", out, NULL);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert_str_empty(r.out);
    struct stat st;
    cr_assert_eq(stat(out, &st), 0);
    run_free(&r);
    r = run("audit", out, NULL);
    cr_assert_eq(r.status, 0, "%s", r.out);
    run_free(&r);
    unlink(out);

    /* an unwritable destination: exit 2, nothing written, nothing on stdout */
    snprintf(out, sizeof out, "%s/missing/done.json", dir);
    r = run("calibrate", p, "--out", out, NULL);
    expect_one_error_line(&r, 2, "missing");
    cr_assert_neq(stat(out, &st), 0);
    run_free(&r);
    rmdir(dir);
}

Test(audit_cli, calibrate_refusals)
{
    char p[1024];
    corpus_path(p, sizeof p, "rdp-curve-tfp-constant-bbghs.json");
    run_result r = run("calibrate", p, NULL);
    expect_one_error_line(&r, 2, "no calibration");
    run_free(&r);
    corpus_path(p, sizeof p, "gaussian-float32-zero.json");
    r = run("calibrate", p, NULL);
    expect_one_error_line(&r, 2, "$.claim.delta");
    run_free(&r);
    expect_usage_error("certificate file", run("calibrate", NULL));
}
