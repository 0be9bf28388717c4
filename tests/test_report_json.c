/* tests/test_report_json.c — the record an audit report carries (issue 27):
 * certificate_sha256, tool, generated_at and claim_values, in the JSON of
 * `ulaudit audit --json` and of the library, and as the text's header lines.
 *
 * Each value is checked against something the report does not compute:
 * the hash against coreutils' sha256sum, the claim's numbers against the
 * certificate read with json-c, the time against the definition of the
 * epoch, `date -u` and the clock, the version against ulaudit_version(). */
#define _GNU_SOURCE /* timegm */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "audit/audit.h"
#include "audit/report.h"
#include "cli_run.h"
#include "ulaudit.h"

static void corpus_path(char *out, size_t n, const char *file)
{
    const char *self = __FILE__;
    const char *slash = strrchr(self, '/');
    snprintf(out, n, "%.*s../audits/%s", slash ? (int)(slash - self + 1) : 0, self, file);
}

/* The first line a shell command prints, without its newline. */
static void shell_line(const char *cmd, char *out, size_t n)
{
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p, "%s", cmd);
    cr_assert_not_null(fgets(out, (int)n, p), "%s printed nothing", cmd);
    cr_assert_eq(pclose(p), 0, "%s failed", cmd);
    out[strcspn(out, "\n")] = '\0';
}

/* The SHA-256 sha256sum prints for a file (its first field). */
static void sha256sum(const char *path, char hex[65])
{
    char cmd[1200], line[1200];
    snprintf(cmd, sizeof cmd, "sha256sum '%s'", path);
    shell_line(cmd, line, sizeof line);
    cr_assert(strlen(line) > 64 && line[64] == ' ', "%s", line);
    memcpy(hex, line, 64);
    hex[64] = '\0';
}

/* `ulaudit audit PATH --json` parsed; exit 0, 1 or 3. */
static json_object *cli_json(const char *path)
{
    run_result r = run("audit", path, "--json", "--max-seconds", "0", NULL);
    cr_assert(r.status == 0 || r.status == 1 || r.status == 3, "exit %d: %s", r.status, r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o, "%s", r.out);
    run_free(&r);
    return o;
}

static const char *str_of(json_object *o, const char *key)
{
    json_object *v;
    cr_assert(json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string),
              "%s: not a string", key);
    return json_object_get_string(v);
}

Test(report_json, hash_is_sha256sum_of_the_file_and_of_the_bytes_given)
{
    char path[1024], want[65];
    corpus_path(path, sizeof path, "gaussian-one-minus-erf.json");
    sha256sum(path, want);
    json_object *o = cli_json(path);
    cr_assert_str_eq(str_of(o, "certificate_sha256"), want);
    json_object_put(o);

    char *report = NULL, err[512];
    ulaudit_verdict v;
    cr_assert_eq(ulaudit_audit_file(path, NULL, &report, &v, err, sizeof err), ULAUDIT_OK, "%s",
                 err);
    o = json_tokener_parse(report);
    cr_assert_str_eq(str_of(o, "certificate_sha256"), want);
    json_object_put(o);
    ulaudit_free(report);

    /* ulaudit_audit_string: the bytes given, here the file's with one more
     * space at the end (a different hash, which sha256sum computes too) */
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    char text[65536];
    size_t len = fread(text, 1, sizeof text - 2, f);
    fclose(f);
    text[len++] = ' ';
    char tmp[] = "/tmp/ulaudit-report-json-XXXXXX";
    int fd = mkstemp(tmp);
    cr_assert(fd >= 0);
    FILE *w = fdopen(fd, "wb");
    fwrite(text, 1, len, w);
    fclose(w);
    char want2[65];
    sha256sum(tmp, want2);
    unlink(tmp);
    cr_assert_str_neq(want2, want);
    cr_assert_eq(ulaudit_audit_string(text, len, NULL, &report, &v, err, sizeof err), ULAUDIT_OK,
                 "%s", err);
    o = json_tokener_parse(report);
    cr_assert_str_eq(str_of(o, "certificate_sha256"), want2);
    json_object_put(o);
    ulaudit_free(report);
}

/* claim_values against the certificate's "claim" read by json-c: a string
 * member as itself, a number member as json-c writes it back (the literal
 * as parsed, for a decimal; the integer, for an integer). */
static void expect_claim_values(const char *file)
{
    char path[1024];
    corpus_path(path, sizeof path, file);
    json_object *cert = json_object_from_file(path), *claim, *got;
    cr_assert_not_null(cert, "%s", path);
    cr_assert(json_object_object_get_ex(cert, "claim", &claim));
    json_object *o = cli_json(path);
    cr_assert(json_object_object_get_ex(o, "claim_values", &got) &&
                  json_object_is_type(got, json_type_object),
              "%s: claim_values", file);
    cr_assert_eq(json_object_object_length(got), json_object_object_length(claim), "%s", file);
    json_object_object_foreach(claim, key, val)
    {
        const char *want = json_object_is_type(val, json_type_string)
                               ? json_object_get_string(val)
                               : json_object_to_json_string_ext(val, JSON_C_TO_STRING_PLAIN);
        cr_assert_str_eq(str_of(got, key), want, "%s: claim.%s", file, key);
    }
    json_object_put(o);
    json_object_put(cert);
}

Test(report_json, claim_values_are_the_certificate_claim_numbers)
{
    expect_claim_values("gaussian-one-minus-erf.json");            /* eps as a string */
    expect_claim_values("gaussian-renyi-tfp-no-sampling.json");    /* a Rényi claim */
    expect_claim_values("output-perturbation-classic-eps10.json"); /* numbers */
    expect_claim_values("gradient-clipping-fig2-renyi-supported.json");
}

/* generated_at of the CLI's JSON and the text's header line under a given
 * SOURCE_DATE_EPOCH. */
static void expect_time(const char *epoch, const char *want)
{
    char path[1024];
    corpus_path(path, sizeof path, "gaussian-one-minus-erf.json");
    cr_assert_eq(setenv("SOURCE_DATE_EPOCH", epoch, 1), 0);
    json_object *o = cli_json(path);
    cr_assert_str_eq(str_of(o, "generated_at"), want);
    json_object_put(o);
    run_result r = run("audit", path, NULL);
    char line[128];
    snprintf(line, sizeof line, "\ngenerated at        %s\n", want);
    cr_assert(strstr(r.out, line) != NULL, "%s", r.out);
    run_free(&r);
    /* the library, in this process */
    ul_audit_report *rep = malloc(sizeof *rep);
    char method[64], err[512];
    ul_num_precision want_p = {17, 0, 65536};
    cr_assert_eq(ul_audit_load(path, NULL, 0, &want_p, rep, method, sizeof method, err,
                               sizeof err),
                 UL_OK, "%s", err);
    cr_assert_str_eq(rep->generated_at, want);
    free(rep);
}

Test(report_json, source_date_epoch_fixes_the_time)
{
    expect_time("0", "1970-01-01T00:00:00Z"); /* the epoch, by definition */
    char cmd[64], day[64];
    snprintf(cmd, sizeof cmd, "date -u -d @951782400 +%%Y-%%m-%%dT%%H:%%M:%%SZ");
    shell_line(cmd, day, sizeof day); /* 2000-02-29: a leap day */
    expect_time("951782400", day);
}

Test(report_json, without_source_date_epoch_the_time_is_now)
{
    char path[1024];
    corpus_path(path, sizeof path, "gaussian-one-minus-erf.json");
    unsetenv("SOURCE_DATE_EPOCH");
    time_t before = time(NULL);
    json_object *o = cli_json(path);
    struct tm tm = {0};
    const char *at = str_of(o, "generated_at");
    const char *end = strptime(at, "%Y-%m-%dT%H:%M:%SZ", &tm);
    cr_assert(end != NULL && *end == '\0', "not ISO 8601 UTC: %s", at);
    double off = difftime(timegm(&tm), before);
    cr_assert(off > -60 && off < 60, "%s is %g s from the clock", at, off);
    json_object_put(o);
}

Test(report_json, malformed_source_date_epoch_is_refused)
{
    char path[1024];
    corpus_path(path, sizeof path, "gaussian-one-minus-erf.json");
    const char *bad[] = {"yesterday", "-1", "1.5", "99999999999999999999", "253402300800"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(setenv("SOURCE_DATE_EPOCH", bad[i], 1), 0);
        expect_usage_error("SOURCE_DATE_EPOCH",
                           run("audit", path, "--json", NULL));
    }
}

Test(report_json, tool_is_ulaudit_at_the_library_version)
{
    char path[1024];
    corpus_path(path, sizeof path, "gaussian-one-minus-erf.json");
    json_object *o = cli_json(path), *tool;
    cr_assert(json_object_object_get_ex(o, "tool", &tool));
    cr_assert_str_eq(str_of(tool, "name"), "ulaudit");
    cr_assert_str_eq(str_of(tool, "version"), ulaudit_version());
    json_object_put(o);
    run_result r = run("audit", path, NULL);
    char line[128];
    snprintf(line, sizeof line, "\ntool                ulaudit %s\n", ulaudit_version());
    cr_assert(strstr(r.out, line) != NULL, "%s", r.out);
    run_free(&r);
}
