/* tests/test_audit_omitted_cases.c — named cases of "an omitted fact never
 * helps the claim" (ulaudit-certificate(5), OMITTED FIELDS), beside the
 * corpus-wide property of tests/test_audit_omission.c.
 *
 * Oracles: the exact Gaussian privacy profile θ_{e^ε}(r) evaluated by the
 * independent code of tests/oracle.c (Balle & Wang 2018, Thm 8), which
 * places each claim on its side at T = 1; the report format documented in
 * src/audit/report.h (an "omitted" array of {field, reading, state_it});
 * and the reading the manual gives (Langevin S omitted is S = n), checked
 * against the audit of the same certificate with S = n stated. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit/audit.h"
#include "audit/report.h"
#include "cli_run.h"
#include "num/encl.h"
#include "oracle.h"

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(audit_omitted_cases, .fini = teardown);

static const ul_num_precision WANT = {17, 0, 0};

/* Δ = 1, σ = 1 and the (ε, δ) claim (1, delta), one release stated or not. */
#define GAUSS(extra, delta)                                                                        \
    "{\"format\": \"ulaudit-certificate/1\", \"method\": \"gaussian-mechanism\", "                 \
    "\"parameters\": {\"sensitivity\": 1, \"sigma\": 1" extra "}, "                                \
    "\"claim\": {\"eps\": 1, \"delta\": " delta "}}"
#define ONE_RELEASE ", \"compositions\": 1"

/* Loads and audits text (ul_audit, the method's own handler). */
static void audit_text(const char *text, ul_audit_report *rep)
{
    ul_cert *c = NULL;
    char err[1024];
    cr_assert_eq(ul_cert_load_buffer(text, strlen(text), &c, err, sizeof err), UL_OK, "%s\n%s", err,
                 text);
    cr_assert_eq(ul_audit(c, &WANT, rep, err, sizeof err), UL_OK, "%s", err);
    ul_cert_free(c);
}

static ul_verdict verdict_of(const char *text)
{
    ul_audit_report rep;
    audit_text(text, &rep);
    return rep.verdict;
}

/* The "omitted" array of rep's JSON report (ul_audit_report_json); the
 * caller puts *doc. */
static json_object *omitted_of(const ul_audit_report *rep, json_object **doc)
{
    char *text = ul_audit_report_json(rep, "m", NULL, 17);
    cr_assert_not_null(text);
    *doc = json_tokener_parse(text);
    cr_assert_not_null(*doc, "not JSON: %s", text);
    free(text);
    json_object *om = NULL;
    cr_assert(json_object_object_get_ex(*doc, "omitted", &om), "no \"omitted\" member");
    cr_assert(json_object_is_type(om, json_type_array), "\"omitted\" is not an array");
    return om;
}

/* The entry of the omitted array naming path, with a non-empty reading and
 * a state_it that names the field's key; NULL when none names it. */
static json_object *omitted_entry(json_object *om, const char *path, const char *key)
{
    for (size_t i = 0; i < json_object_array_length(om); i++) {
        json_object *e = json_object_array_get_idx(om, i);
        if (strcmp(field(e, "field"), path) != 0)
            continue;
        cr_assert(strlen(field(e, "reading")) > 0, "%s: empty reading", path);
        cr_assert(strstr(field(e, "state_it"), key) != NULL, "%s: state_it '%s' lacks %s", path,
                  field(e, "state_it"), key);
        return e;
    }
    return NULL;
}

/* θ_{e^1}(1) by tests/oracle.c, as a double (the claims below are far
 * from it). */
static double theta_e1_at_1(void)
{
    mpfr_t lt;
    mpfr_init2(lt, ORACLE_BITS);
    oracle_log_theta_str(lt, "1", "1");
    double t = exp(mpfr_get_d(lt, MPFR_RNDN));
    mpfr_clear(lt);
    return t;
}

/* ==== (1) gaussian-mechanism, compositions omitted ============================= */

Test(audit_omitted_cases, gaussian_compositions_omitted_supports_nothing_refutes_as_at_one)
{
    /* δ = 0.2 is above θ_e(1) ≈ 0.1269 and δ = 0.1 below it (oracle) */
    double theta = theta_e1_at_1();
    cr_assert(0.1 < theta && theta < 0.2, "theta_e(1) = %g", theta);
    /* stated T = 1: the exact profile decides both sides */
    cr_assert_eq(verdict_of(GAUSS(ONE_RELEASE, "0.2")), UL_VERDICT_SUPPORTED);
    cr_assert_eq(verdict_of(GAUSS(ONE_RELEASE, "0.1")), UL_VERDICT_REFUTED);
    /* omitted: any T >= 1 may have run and θ grows with r = Δ√T/σ, so what
     * holds at T = 1 is not shown for the certificate (unsupported), and
     * what fails at T = 1 fails at every T (still refuted) */
    cr_assert_eq(verdict_of(GAUSS("", "0.2")), UL_VERDICT_UNSUPPORTED);
    cr_assert_eq(verdict_of(GAUSS("", "0.1")), UL_VERDICT_REFUTED);
}

Test(audit_omitted_cases, gaussian_report_names_the_omitted_compositions)
{
    ul_audit_report rep;
    json_object *doc;
    audit_text(GAUSS("", "0.2"), &rep);
    json_object *om = omitted_of(&rep, &doc);
    cr_assert_not_null(omitted_entry(om, "$.parameters.compositions", "\"compositions\""),
                       "JSON omitted lacks $.parameters.compositions: %s",
                       json_object_get_string(om));
    json_object_put(doc);
    char *text = ul_audit_report_text(&rep, "gaussian-mechanism", NULL);
    cr_assert(strstr(text, "\nomitted") != NULL && strstr(text, "$.parameters.compositions"),
              "text report: %s", text);
    free(text);

    /* stated: nothing omitted, in either form */
    audit_text(GAUSS(ONE_RELEASE, "0.2"), &rep);
    om = omitted_of(&rep, &doc);
    cr_assert_eq(json_object_array_length(om), 0, "%s", json_object_get_string(om));
    json_object_put(doc);
    text = ul_audit_report_text(&rep, "gaussian-mechanism", NULL);
    cr_assert(strstr(text, "$.parameters.compositions") == NULL, "%s", text);
    free(text);
}

Test(audit_omitted_cases, calibrate_refuses_an_omitted_compositions)
{
    /* no σ supports a claim for an unknown number of releases: exit 2 naming
     * the field, nothing on stdout; stated, the same certificate calibrates */
    char p[] = "/tmp/ulaudit-omitted-XXXXXX";
    int fd = mkstemp(p);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(GAUSS("", "1e-5"), f);
    fclose(f);
    run_result r = run("calibrate", p, NULL);
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_assert_str_empty(r.out);
    cr_assert(strstr(r.err, "$.parameters.compositions") != NULL, "%s", r.err);
    run_free(&r);
    unlink(p);

    ul_cert *c = NULL;
    char err[1024];
    const char *stated = "{\"format\": \"ulaudit-certificate/1\", \"method\": "
                         "\"gaussian-mechanism\", \"parameters\": {\"sensitivity\": 1, "
                         "\"compositions\": 1}, \"claim\": {\"eps\": 1, \"delta\": 1e-5}}";
    cr_assert_eq(ul_cert_load_buffer(stated, strlen(stated), &c, err, sizeof err), UL_OK, "%s",
                 err);
    char *done = NULL;
    cr_assert_eq(ul_audit_calibrate(c, &WANT, &done, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(verdict_of(done), UL_VERDICT_SUPPORTED, "%s", done);
    free(done);
    ul_cert_free(c);
}

/* ==== (2) the report's "omitted" section ======================================= */

/* Langevin, strongly convex, every fact stated but S (appended by extra):
 * eta = 1/L = 1/0.26 rounded down at 40 decimals, learning converged. */
#define LANGEVIN(extra)                                                                            \
    "{\"format\": \"ulaudit-certificate/1\", \"method\": \"langevin\", "                           \
    "\"parameters\": {\"case\": \"strongly-convex\", \"n\": 10000, \"m\": \"0.01\", "              \
    "\"L\": \"0.26\", \"M\": 1, \"K\": 1, \"sigma\": \"0.2431048\", \"converged\": true, "         \
    "\"eta\": \"3.8461538461538461538461538461538461538461\"" extra "}, "                          \
    "\"claim\": {\"eps\": \"0.05\", \"delta\": \"0.0001\"}}"

Test(audit_omitted_cases, report_lists_an_omitted_fact_and_nothing_when_all_are_stated)
{
    ul_audit_report all, omit, as_n;
    json_object *doc;
    /* every fact stated: an empty array */
    audit_text(LANGEVIN(", \"S\": 1"), &all);
    json_object *om = omitted_of(&all, &doc);
    cr_assert_eq(json_object_array_length(om), 0, "%s", json_object_get_string(om));
    json_object_put(doc);
    /* S omitted: one entry, field/reading/state_it */
    audit_text(LANGEVIN(""), &omit);
    om = omitted_of(&omit, &doc);
    cr_assert_eq(json_object_array_length(om), 1, "%s", json_object_get_string(om));
    json_object *e = omitted_entry(om, "$.parameters.S", "\"S\"");
    cr_assert_not_null(e, "%s", json_object_get_string(om));
    cr_assert(strstr(field(e, "reading"), "S = n") != NULL, "%s", field(e, "reading"));
    json_object_put(doc);
    /* the reading S = n is the audit of S = n stated: the same enclosure */
    audit_text(LANGEVIN(", \"S\": 10000"), &as_n);
    cr_assert_eq(omit.verdict, as_n.verdict);
    cr_assert_str_eq(omit.recomputed.lo, as_n.recomputed.lo);
    cr_assert_str_eq(omit.recomputed.hi, as_n.recomputed.hi);
    /* and it is least favourable: S = 1 supports the claim (the calibrated
     * σ of tests/test_audit_cli.c), S = n does not */
    cr_assert_eq(all.verdict, UL_VERDICT_SUPPORTED);
    cr_assert_neq(omit.verdict, UL_VERDICT_SUPPORTED);
}
