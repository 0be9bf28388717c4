/* tests/test_lib_limits.c — ulaudit_limits_set / ulaudit_limits_clear
 * (include/ulaudit.h, "Limits"): a cancel flag raised by another thread
 * stops a long call with ULAUDIT_ECANCEL within a measured time (the clock
 * of this test, not the library's); a budget gives ULAUDIT_ETIME for calc
 * and calibrate and an inconclusive report for audit (as `ulaudit audit
 * --max-seconds`, run here); the limits are per thread (two threads with
 * different limits, run at once, each get their own outcome, and the
 * unlimited one the same result as alone); cleared limits give the result
 * of a call that never had any. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_run.h"
#include "ulaudit.h"

/* The slowest certificate of audits/ under `ulaudit audit` (timed over the
 * corpus: about 3 s, the next 2.3 s), and a composition that runs about 20 s
 * (steps 1e5 at a relative width of 1e-7; 0.05 s is before its first
 * grid). */
#define SLOWEST_AUDIT "audits/dp-sgd-opacus-gdp-clt-refuted.json"
static const char *const LONG_NAMES[] = {"sigma", "q", "steps", "eps", "rel-width"};
static const char *const LONG_VALUES[] = {"1.1", "0.01", "100000", "1", "1e-7"};
/* about 1.5 s alone */
static const char *const MID_VALUES[] = {"1.1", "0.01", "1000", "1", "1e-3"};

/* The latency allowed from the flag to the return: the checks are a few
 * hundred milliseconds apart at most on these inputs (measured: see the
 * report of cancel_latency_on_the_slowest_audit). */
#define MAX_LATENCY 1.0

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void sleep_for(double s)
{
    struct timespec t = {(time_t)s, (long)((s - floor(s)) * 1e9)};
    nanosleep(&t, NULL);
}

/* One call of the library in a thread under its own limits. */
typedef struct {
    const char *what; /* "calc" (pld-compose), "audit", "calibrate" */
    const char *const *values;
    const char *path;
    double max_seconds;
    volatile int *cancel;
    ulaudit_status st;
    ulaudit_verdict verdict;
    char *out;
    char err[1024];
    double returned; /* now() at the return */
} call;

static void *run_call(void *arg)
{
    call *c = arg;
    cr_assert_eq(ulaudit_limits_set(c->max_seconds, c->cancel, c->err, sizeof c->err),
                 ULAUDIT_OK, "%s", c->err);
    if (strcmp(c->what, "calc") == 0)
        c->st = ulaudit_calc("pld-compose", LONG_NAMES, c->values, 5, NULL, &c->out, c->err,
                             sizeof c->err);
    else if (strcmp(c->what, "audit") == 0)
        c->st = ulaudit_audit_file(c->path, NULL, &c->out, &c->verdict, c->err, sizeof c->err);
    else
        c->st = ulaudit_calibrate_file(c->path, NULL, &c->out, c->err, sizeof c->err);
    c->returned = now();
    ulaudit_limits_clear();
    ulaudit_thread_cleanup();
    return NULL;
}

/* Starts c in a thread, raises its flag after `delay` s, and returns the
 * time from the raise to the return. */
static double cancel_after(call *c, double delay)
{
    volatile int flag = 0;
    c->cancel = &flag;
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, run_call, c), 0);
    sleep_for(delay);
    double raised = now();
    flag = 1;
    pthread_join(t, NULL);
    c->cancel = NULL;
    return c->returned - raised;
}

static void assert_cancelled(const call *c)
{
    cr_assert_eq(c->st, ULAUDIT_ECANCEL, "%s: status %s: %s", c->what,
                 ulaudit_status_name(c->st), c->err);
    cr_assert_null(c->out, "%s: nothing is returned on cancel", c->what);
    cr_assert(strstr(c->err, "cancelled") != NULL, "%s", c->err);
}

Test(lib_limits, status_name_and_bad_budgets)
{
    cr_assert_str_eq(ulaudit_status_name(ULAUDIT_ECANCEL), "cancelled");
    char err[256];
    const double bad[] = {-1, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        cr_assert_eq(ulaudit_limits_set(bad[i], NULL, err, sizeof err), ULAUDIT_EINPUT);
        cr_assert(strstr(err, "max_seconds") != NULL, "%s", err);
    }
    cr_assert_eq(ulaudit_limits_set(0, NULL, err, sizeof err), ULAUDIT_OK);
    ulaudit_limits_clear();
}

/* A flag raised 0.5 s into a composition that runs ~20 s. */
Test(lib_limits, cancel_flag_stops_a_long_calc)
{
    call c = {.what = "calc", .values = LONG_VALUES};
    double latency = cancel_after(&c, 0.5);
    assert_cancelled(&c);
    cr_assert_lt(latency, MAX_LATENCY, "calc returned %.3f s after the flag", latency);
    cr_log_info("cancel latency, pld-compose: %.3f s", latency);
}

/* The flag at several points of the slowest corpus audit (each point a
 * different step: the search, the accountant, the report).  The audit takes
 * about half a second since issue 29, so a late flag may find it done: that
 * point is then skipped (it returned its report before the flag), and the
 * first, at 0.05 s, must always cancel. */
Test(lib_limits, cancel_latency_on_the_slowest_audit)
{
    const double delays[] = {0.05, 0.15, 0.3, 0.45};
    double worst = 0;
    for (size_t i = 0; i < sizeof delays / sizeof delays[0]; i++) {
        call c = {.what = "audit", .path = SLOWEST_AUDIT};
        double latency = cancel_after(&c, delays[i]);
        if (i > 0 && c.st == ULAUDIT_OK && latency <= 0) {
            cr_log_info("slowest corpus audit: done before the flag at %.2f s", delays[i]);
            ulaudit_free(c.out);
            continue;
        }
        assert_cancelled(&c);
        cr_assert_lt(latency, MAX_LATENCY, "audit returned %.3f s after the flag (raised at "
                     "%.1f s)", latency, delays[i]);
        worst = fmax(worst, latency);
        cr_log_info("cancel latency, slowest corpus audit, flag at %.2f s: %.3f s", delays[i],
                    latency);
    }
    cr_log_info("cancel latency, slowest corpus audit: at most %.3f s", worst);
}

/* A flag already raised: nothing runs (a calibration of seconds returns at
 * once), nothing is returned. */
Test(lib_limits, cancel_flag_raised_before_the_call)
{
    volatile int flag = 1;
    call c = {.what = "calibrate", .path = "audits/dp-sgd-abadi-2016-moments-accountant.json",
              .cancel = &flag};
    double t0 = now();
    run_call(&c);
    assert_cancelled(&c);
    cr_assert_lt(c.returned - t0, 0.1, "%.3f s", c.returned - t0);
}

/* A budget: calc ETIME with nothing returned, calibrate ETIME, audit an
 * inconclusive report saying the time limit was reached, as the command's
 * --max-seconds. */
Test(lib_limits, budget_gives_etime_or_an_inconclusive_report)
{
    call c = {.what = "calc", .values = LONG_VALUES, .max_seconds = 0.05};
    double t0 = now();
    run_call(&c);
    cr_assert_eq(c.st, ULAUDIT_ETIME, "%s: %s", ulaudit_status_name(c.st), c.err);
    cr_assert_null(c.out);
    cr_assert_lt(c.returned - t0, 0.05 + MAX_LATENCY);

    call b = {.what = "calibrate", .path = "audits/dp-sgd-bu-2020-gdp-mnist-epoch70.json",
              .max_seconds = 0.2};
    run_call(&b);
    cr_assert_eq(b.st, ULAUDIT_ETIME, "%s: %s", ulaudit_status_name(b.st), b.err);
    cr_assert_null(b.out);

    call a = {.what = "audit", .path = SLOWEST_AUDIT, .max_seconds = 0.2};
    run_call(&a);
    cr_assert_eq(a.st, ULAUDIT_OK, "%s", a.err);
    cr_assert_eq(a.verdict, ULAUDIT_INCONCLUSIVE);
    json_object *o = json_tokener_parse(a.out);
    cr_assert(strstr(field(o, "explanation"), "Time limit of 0.2 s reached"), "%s", a.out);
    run_result r = run("audit", SLOWEST_AUDIT, "--max-seconds", "0.2", "--json", NULL);
    json_object *cli = json_tokener_parse(r.out);
    cr_assert_eq(r.status, 3, "the command: inconclusive too");
    cr_assert_str_eq(field(cli, "verdict"), field(o, "verdict"));
    json_object_put(o);
    json_object_put(cli);
    run_free(&r);
    ulaudit_free(a.out);
}

/* Three threads at once: A's budget (0.05 s) runs out while B (no limits)
 * is composing and C's flag is up from the start.  A: ETIME, C: ECANCEL,
 * B: exactly the result of the same call alone afterwards.  With one
 * process-wide deadline B would have stopped with A. */
Test(lib_limits, threads_keep_their_own_limits)
{
    volatile int up = 1;
    call a = {.what = "calc", .values = LONG_VALUES, .max_seconds = 0.05};
    call b = {.what = "calc", .values = MID_VALUES};
    call c = {.what = "calc", .values = LONG_VALUES, .cancel = &up};
    pthread_t ta, tb, tc;
    cr_assert_eq(pthread_create(&tb, NULL, run_call, &b), 0);
    cr_assert_eq(pthread_create(&ta, NULL, run_call, &a), 0);
    cr_assert_eq(pthread_create(&tc, NULL, run_call, &c), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    pthread_join(tc, NULL);
    cr_assert_eq(a.st, ULAUDIT_ETIME, "A: %s: %s", ulaudit_status_name(a.st), a.err);
    assert_cancelled(&c);
    cr_assert_eq(b.st, ULAUDIT_OK, "B: %s: %s", ulaudit_status_name(b.st), b.err);
    cr_assert_gt(b.returned, a.returned, "B must outlive A's budget for the test to mean it");

    char *alone, err[1024];
    cr_assert_eq(ulaudit_calc("pld-compose", LONG_NAMES, MID_VALUES, 5, NULL, &alone, err,
                              sizeof err),
                 ULAUDIT_OK, "%s", err);
    cr_assert_str_eq(b.out, alone);
    ulaudit_free(alone);
    ulaudit_free(b.out);
}

/* Limits set, then cleared in the same thread: the next calls are those of
 * a thread that never had limits (the same JSON as another thread's). */
Test(lib_limits, cleared_limits_give_normal_results)
{
    volatile int up = 1;
    char err[1024], *json;
    cr_assert_eq(ulaudit_limits_set(1e-9, &up, err, sizeof err), ULAUDIT_OK);
    const char *names[] = {"eps", "delta"}, *values[] = {"1", "1e-5"};
    cr_assert_eq(ulaudit_calc("gauss-sigma", names, values, 2, NULL, &json, err, sizeof err),
                 ULAUDIT_ECANCEL, "%s", err);
    ulaudit_limits_clear();
    cr_assert_eq(ulaudit_calc("gauss-sigma", names, values, 2, NULL, &json, err, sizeof err),
                 ULAUDIT_OK, "%s", err);
    setenv("SOURCE_DATE_EPOCH", "0", 1); /* one generated_at for both reports */
    call fresh = {.what = "audit", .path = "audits/output-perturbation-classic-eps1.json"};
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, run_call, &fresh), 0);
    pthread_join(t, NULL);
    char *report;
    ulaudit_verdict v;
    cr_assert_eq(ulaudit_audit_file(fresh.path, NULL, &report, &v, err, sizeof err), ULAUDIT_OK);
    cr_assert_eq(fresh.st, ULAUDIT_OK, "%s", fresh.err);
    cr_assert_str_eq(report, fresh.out);
    cr_assert_neq(v, ULAUDIT_INCONCLUSIVE);
    ulaudit_free(report);
    ulaudit_free(fresh.out);
    ulaudit_free(json);
}
