/* tests/test_max_seconds.c — the time budget (issue 12, "bounded time"):
 * `ulaudit audit/calibrate --max-seconds S`, num/deadline.h, UL_ETIME.
 *
 * No assertion depends on how fast the machine is.  A budget that has run
 * out before the work starts (1 ns, set before the call) is out whatever the
 * load; the CLI cases use certificates whose audit needs about a second of
 * CPU or more (measured in the comments; a slower machine only makes them
 * slower) against a budget of 0.01 s, and assert only the exit code and the
 * reason, never a duration.  Expected verdicts of the fast cases are the
 * corpus's own "expected" objects (written from the papers, not from
 * ulaudit's output).
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit/audit.h"
#include "cert/cert.h"
#include "cli_run.h"
#include "num/adaptive.h"
#include "num/deadline.h"

TestSuite(max_seconds);

#define REASON "time limit of 0.01 s reached (--max-seconds)"

/* A model-clipping certificate whose adaptive recursion must run 20000
 * certified steps at 17 and again at 34 digits: C2 = 2, sigma = 0.5, the
 * claim delta_T itself to 30 digits (1.57339618923932879926421399042e-2, a
 * lower end printed by `--digits 30`: no cheap bound can separate a claim
 * that close).  About 5 s of CPU in the -O2 build (its calibration 11 s),
 * mostly in the recursion (bounds/contraction.c asks the budget every 64
 * steps). */
static const char *const SLOW_MC =
    "{\"format\": \"ulaudit-certificate/1\", \"method\": \"model-clipping\", "
    "\"parameters\": {\"variant\": \"cc1\", \"c2\": 2, \"sigma\": 0.5, \"steps\": 20000, "
    "\"accounting\": \"adaptive\"}, "
    "\"claim\": {\"eps\": 1, \"delta\": 1.57339618923932879926421399042e-2}}";

/* A dp-sgd-group certificate at sigma = 50 (best order about 2000, where the
 * certified subsampled-Gaussian series is long): about 1 s of CPU at 17
 * digits, 3 s at 120. */
static const char *const SLOW_DP =
    "{\"format\": \"ulaudit-certificate/1\", \"method\": \"dp-sgd-group\", "
    "\"parameters\": {\"batch\": 128, \"n\": 45000, \"sigma\": 50, \"steps\": 10, "
    "\"group_size\": 225}, \"claim\": {\"eps\": 50, \"delta\": 1e-5}}";

/* Writes text to a fresh temporary file; returns its path (malloc'd). */
static char *temp_file(const char *text)
{
    char *path = strdup("/tmp/ulaudit-maxsec-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0 && path != NULL);
    size_t n = strlen(text);
    cr_assert_eq(write(fd, text, n), (ssize_t)n);
    close(fd);
    return path;
}

static bool contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay != '\0'; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return true;
    return false;
}

/* ---- the library: an expired budget stops the work before it starts -------- */

static ul_status never_called(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)out;
    (void)err;
    (void)errlen;
    *(int *)ctx += 1;
    return UL_OK;
}

Test(max_seconds, adaptive_loop_returns_etime_before_evaluating)
{
    int calls = 0;
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_num_precision want = {17, 0, 0};
    ul_num_report nr;
    char err[256] = "";
    ul_deadline_set(1e-9); /* out before the call: one nanosecond */
    while (!ul_deadline_passed())
        ;
    ul_status st = ul_num_adaptive_eval(never_called, &calls, &want, &v, &nr, err, sizeof err);
    ul_deadline_clear();
    cr_assert_eq(st, UL_ETIME, "status %d (%s)", st, err);
    cr_assert_eq(calls, 0, "the evaluator ran %d times after the budget", calls);
    cr_assert(err[0] != '\0', "UL_ETIME without a message");
    ul_num_value_clear(&v);
}

/* An audit whose budget has run out: inconclusive, no number, the reason;
 * the claim in words kept. */
Test(max_seconds, engine_turns_etime_into_inconclusive)
{
    ul_cert *c = NULL;
    char err[512] = "";
    cr_assert_eq(ul_cert_load_buffer(SLOW_MC, strlen(SLOW_MC), &c, err, sizeof err), UL_OK, "%s",
                 err);
    ul_audit_report *rep = malloc(sizeof *rep);
    ul_num_precision want = {17, 0, 0};
    ul_deadline_set(1e-9);
    while (!ul_deadline_passed())
        ;
    ul_status st = ul_audit(c, &want, rep, err, sizeof err);
    ul_deadline_clear();
    cr_assert_eq(st, UL_OK, "status %d: %s", st, err);
    cr_assert_eq(rep->verdict, UL_VERDICT_INCONCLUSIVE);
    cr_assert_null(rep->recomputed.key, "a number from a stopped audit: %s", rep->recomputed.hi);
    cr_assert_eq(rep->n_would_reach, 0);
    cr_assert_str_empty(rep->margin);
    cr_assert(contains_ci(rep->explanation, "time limit of 1e-09 s reached (--max-seconds)"),
              "%s", rep->explanation);
    cr_assert(strstr(rep->claim, "1.57339618923932879926421399042e-2") != NULL,
              "claim lost: '%s'", rep->claim);
    free(rep);
    ul_cert_free(c);
}

/* ---- the command line ---------------------------------------------------------- */

Test(max_seconds, slow_audit_is_inconclusive_with_the_reason)
{
    char *path = temp_file(SLOW_MC);
    run_result r = run("audit", path, "--max-seconds", "0.01", NULL);
    cr_assert_eq(r.status, 3, "exit %d; stdout: %s stderr: %s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "INCONCLUSIVE (exit 3)") != NULL, "%s", r.out);
    cr_assert(contains_ci(r.out, REASON), "%s", r.out);
    cr_assert_str_empty(r.err, "%s", r.err);
    run_free(&r);
    unlink(path);
    free(path);
}

/* --json: one whole JSON object (the watchdog's or the engine's, never both
 * mixed), verdict inconclusive, no recomputed number. */
static void expect_json_time_out(const char *cert, const char *digits)
{
    char *path = temp_file(cert);
    run_result r = run("audit", path, "--json", "--digits", digits, "--max-seconds", "0.01", NULL);
    cr_assert_eq(r.status, 3, "exit %d; stdout: %s stderr: %s", r.status, r.out, r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o, "stdout is not one JSON object: %s", r.out);
    cr_assert_str_eq(field(o, "verdict"), "inconclusive");
    json_object *x;
    cr_assert(json_object_object_get_ex(o, "exit_code", &x) && json_object_get_int(x) == 3);
    cr_assert(json_object_object_get_ex(o, "recomputed", &x) && x == NULL,
              "a number from a stopped audit: %s", r.out);
    cr_assert(contains_ci(field(o, "explanation"), REASON), "%s", r.out);
    json_object_put(o);
    run_free(&r);
    unlink(path);
    free(path);
}

Test(max_seconds, slow_audit_json_is_one_inconclusive_object)
{
    expect_json_time_out(SLOW_MC, "17");
    expect_json_time_out(SLOW_DP, "120");
}

Test(max_seconds, slow_calibrate_exits_3_and_writes_nothing)
{
    char *path = temp_file(SLOW_MC);
    char out[64];
    snprintf(out, sizeof out, "%s.out", path);
    run_result r = run("calibrate", path, "--out", out, "--max-seconds", "0.01", NULL);
    cr_assert_eq(r.status, 3, "exit %d; stdout: %s stderr: %s", r.status, r.out, r.err);
    cr_assert_str_empty(r.out, "%s", r.out);
    cr_assert(contains_ci(r.err, REASON), "%s", r.err);
    struct stat sb;
    cr_assert(stat(out, &sb) != 0, "calibrate wrote %s after its budget ran out", out);
    run_free(&r);
    unlink(path);
    free(path);
}

Test(max_seconds, bad_values_are_usage_errors)
{
    const char *cert = "audits/output-perturbation-classic-eps10.json";
    /* the last three are positive but below 1 ns: strtod reads 1e-20000 as 0,
     * which used to turn a budget into none (H3's sweep) */
    const char *bad[] = {"-1", "nan", "NaN", "inf", "abc", "", " 5", "5s", "0x10", "1e10",
                         "1,5", "+3", "1e-20000", "1e-10", "0.0000000001"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        expect_usage_error("--max-seconds", run("audit", cert, "--max-seconds", bad[i], NULL));
        expect_usage_error("--max-seconds",
                           run("calibrate", cert, "--max-seconds", bad[i], NULL));
    }
    expect_usage_error("--max-seconds", run("audit", cert, "--max-seconds", NULL));
}

/* calc's contraction quantities take --max-seconds too: the adaptive
 * recursion at r = 7.9, eps = 1 runs about 2 s of CPU (-O2) to its floor
 * over 10^5 steps, about 3 s to reach delta = 1e-300, and the sigma search
 * over 10^5 steps longer still.  A budget of 0.01 s stops each: exit 3
 * (inconclusive, as audit and attack), nothing on stdout, the reason naming the budget; a value that is not a
 * number of seconds is a usage error naming the flag. */
Test(max_seconds, calc_contraction_quantities_stop_at_the_budget)
{
    run_result r[3] = {
        run("calc", "contraction", "--eps", "1", "--r", "7.9", "--steps", "100000", "--mode",
            "adaptive", "--max-seconds", "0.01", NULL),
        run("calc", "contraction-steps", "--eps", "1", "--r", "7.9", "--delta", "1e-300",
            "--mode", "adaptive", "--max-seconds", "0.01", NULL),
        run("calc", "contraction-sigma", "--eps", "1", "--diameter", "3.95", "--steps", "100000",
            "--delta", "1e-6", "--mode", "adaptive", "--max-seconds", "0.01", NULL)};
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(r[i].status, 3, "exit %d; stdout: %s stderr: %s", r[i].status, r[i].out,
                     r[i].err);
        cr_assert_str_empty(r[i].out, "%s", r[i].out);
        cr_assert(strstr(r[i].err, "the time budget of 0.01 s ran out while") != NULL, "%s",
                  r[i].err);
        run_free(&r[i]);
    }
    expect_usage_error("--max-seconds", run("calc", "contraction", "--eps", "1", "--r", "2",
                                            "--steps", "3", "--max-seconds", "5s", NULL));
}

/* A fast certificate keeps its verdict (the corpus's expected one) with a
 * budget, without one (0) and by default. */
Test(max_seconds, fast_audit_unchanged)
{
    const char *cert = "audits/output-perturbation-classic-eps10.json";
    json_object *c = json_object_from_file(cert), *exp, *v;
    cr_assert(c != NULL && json_object_object_get_ex(c, "expected", &exp) &&
              json_object_object_get_ex(exp, "verdict", &v));
    const char *expected = json_object_get_string(v);
    const char *budgets[] = {"60", "0", "1e3", "0.5e2", NULL};
    for (int i = 0; i < 5; i++) {
        run_result r = budgets[i] != NULL
                           ? run("audit", cert, "--json", "--max-seconds", budgets[i], NULL)
                           : run("audit", cert, "--json", NULL);
        json_object *o = json_tokener_parse(r.out);
        cr_assert_not_null(o, "%s %s", r.out, r.err);
        cr_assert_str_eq(field(o, "verdict"), expected, "budget %s: %s",
                         budgets[i] ? budgets[i] : "(default)", r.out);
        cr_assert(!contains_ci(field(o, "explanation"), "time limit"), "%s", r.out);
        json_object_put(o);
        run_free(&r);
    }
    json_object_put(c);
}
