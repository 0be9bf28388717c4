/* tests/test_readers.c — one reader per kind of number text (calc/read.h):
 * a count with a maximum, a time budget in seconds, --digits and
 * --max-bits, the same rule and the same message in every command, in
 * --batch and in the library (issue 25); and --batch reading the flags
 * beside it by the one parser of every command (--json=yes, --flag=value).
 *
 * What each test compares against is independent of the readers: the
 * value a count text denotes is computed here digit by digit in unsigned
 * 128-bit arithmetic (no overflow for the lengths used), a budget's value
 * is strtod's (the C library's correctly rounded reading, C17 7.22.1.3)
 * checked against the documented range, and two paths of the program
 * that read the same text must refuse it in the same bytes (the contract:
 * one rule, one message). */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calc/read.h"
#include "cli_run.h"
#include "ulaudit.h"

#define CERT "audits/output-perturbation-classic-eps10.json"

/* ---- the readers at their ends ------------------------------------------------ */

/* What a count text denotes, or -1 when it is not digits only or exceeds
 * max: the definition, written apart from the reader. */
static long count_oracle(const char *t, long max)
{
    if (*t == '\0')
        return -1;
    unsigned __int128 v = 0;
    for (const char *c = t; *c; c++) {
        if (*c < '0' || *c > '9')
            return -1;
        v = 10 * v + (unsigned)(*c - '0');
        if (v > (unsigned __int128)max)
            return -1;
    }
    return (long)v;
}

static void expect_count(const char *text, long max)
{
    long want = count_oracle(text, max), got = -7;
    bool ok = ul_calc_read_count(text, max, &got);
    cr_assert_eq(ok, want >= 0, "'%s' (max %ld): read %s", text, max, ok ? "accepted" : "refused");
    if (ok)
        cr_assert_eq(got, want, "'%s': %ld, the text denotes %ld", text, got, want);
    else
        cr_assert_eq(got, -7, "'%s': refused but written", text);
}

Test(readers, count_at_its_ends)
{
    static const long maxes[] = {0, 1, 9, 10, 1024, 5000, UL_CALC_COUNT_MAX, LONG_MAX};
    for (size_t i = 0; i < sizeof maxes / sizeof maxes[0]; i++) {
        long m = maxes[i];
        char at[32], above[40], zeros[64];
        snprintf(at, sizeof at, "%ld", m);
        /* max + 1 as text (LONG_MAX + 1 does not fit a long) */
        snprintf(above, sizeof above, "%lu", (unsigned long)m + 1);
        snprintf(zeros, sizeof zeros, "0000000000000000000000%ld", m);
        const char *texts[] = {"0", at, above, zeros, "00", "+1", "-0", "-1", " 1", "1 ", "",
                               "1e3", "0x1", "1.0", "١", "99999999999999999999999999"};
        for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++)
            expect_count(texts[k], m);
    }
}

/* The budget's rule (read.h): "none", 0, or a plain decimal from 1e-9 to
 * 1e9 whose value is strtod's; a nonzero text reading below 1e-9 refused. */
Test(readers, seconds_at_their_ends)
{
    static const char *const accepted[] = {"0", "0.0", "0e-20000", "none", "1e-9", "0.000000001",
                                           "1", "0.5", "60", "1e9", "1000000000", "1E9"};
    static const char *const refused[] = {"1e-10", "0.0000000009", "1e-20000", "1000000000.001",
                                          "1.0000000001e9", "1e10", "nan", "inf", "-1", "-0",
                                          "+1", " 1", "1 ", "", "1e", ".", "0x1", "5s", "NONE"};
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
        double s = -1;
        cr_assert(ul_calc_read_seconds(accepted[i], &s), "'%s' refused", accepted[i]);
        double want = strcmp(accepted[i], "none") == 0 ? 0 : strtod(accepted[i], NULL);
        cr_assert_eq(s, want, "'%s': %g, strtod reads %g", accepted[i], s, want);
        cr_assert(s == 0 || (s >= 1e-9 && s <= 1e9), "'%s': %g outside the rule", accepted[i], s);
    }
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        double s = -1;
        cr_assert(!ul_calc_read_seconds(refused[i], &s), "'%s' accepted (%g)", refused[i], s);
    }
}

/* ---- the same message through different paths ----------------------------------- */

/* The message from "--NAME:" on, without its newline (the paths differ by
 * their prefix only: "ulaudit calc theta: ", "ulaudit audit: ", "calc
 * theta: " in a batch line or the library). */
static char *tail_of(const char *text, const char *flag)
{
    const char *t = strstr(text, flag);
    cr_assert_not_null(t, "no %s in: %s", flag, text);
    return strndup(t, strcspn(t, "\n"));
}

/* The refusal of one command line: exit 2, nothing on stdout, one line. */
static char *refusal(run_result r, const char *flag)
{
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_assert_str_empty(r.out, "stdout: %s", r.out);
    cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "one line: %s", r.err);
    char *t = tail_of(r.err, flag);
    run_free(&r);
    return t;
}

static char *write_records(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/ulaudit-readers-b-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

/* The error of the one record of a --batch run (exit 2). */
static char *batch_refusal(const char *record, const char *flag)
{
    char *path = write_records(record);
    run_result r = run("calc", "theta", "--batch", path, NULL);
    unlink(path);
    cr_assert_eq(r.status, 2, "exit %d: %s %s", r.status, r.out, r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o, "not one JSON line: %s", r.out);
    char *t = tail_of(field(o, "error"), flag);
    json_object_put(o);
    run_free(&r);
    return t;
}

/* The library's refusal of theta with one extra (name, value). */
static char *library_refusal(const char *name, const char *value, const char *flag)
{
    const char *names[] = {"eps", "r", name}, *values[] = {"1", "0.5", value};
    char *json = NULL, err[1024];
    ulaudit_status st = ulaudit_calc("theta", names, values, 3, NULL, &json, err, sizeof err);
    cr_assert_eq(st, ULAUDIT_EINPUT, "status %d for %s=%s: %s", st, name, value, err);
    cr_assert_null(json);
    return tail_of(err, flag);
}

static void all_equal(char **msgs, size_t n, const char *text)
{
    for (size_t i = 1; i < n; i++)
        cr_assert_str_eq(msgs[i], msgs[0], "'%s': path %zu says '%s', path 0 '%s'", text, i,
                         msgs[i], msgs[0]);
    for (size_t i = 0; i < n; i++)
        free(msgs[i]);
}

Test(readers, a_budget_is_refused_in_the_same_words_everywhere, .timeout = 120)
{
    static const char *const bad[] = {"1e-10", "1e-20000", "1000000000.5", "nan", "inf", "-1",
                                      "+1", "1 "};
    char dir[] = "/tmp/ulaudit-readers-vec-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *t = bad[i];
        char rec[128], eq[64];
        snprintf(rec, sizeof rec, "{\"eps\":1,\"r\":0.5,\"max-seconds\":\"%s\"}\n", t);
        snprintf(eq, sizeof eq, "--max-seconds=%s", t);
        char *msgs[] = {
            refusal(run("calc", "theta", "--eps", "1", "--r", "0.5", eq, NULL), "--max-seconds"),
            refusal(run("audit", CERT, eq, NULL), "--max-seconds"),
            refusal(run("calibrate", CERT, eq, NULL), "--max-seconds"),
            refusal(run("vectors", "--out", dir, eq, NULL), "--max-seconds"),
            refusal(run("attack", "x.json", eq, NULL), "--max-seconds"),
            refusal(run("calc", "theta", "--batch", "-", eq, NULL), "--max-seconds"),
            batch_refusal(rec, "--max-seconds"),
            library_refusal("max-seconds", t, "--max-seconds"),
        };
        all_equal(msgs, sizeof msgs / sizeof msgs[0], t);
    }
    rmdir(dir);
}

/* --digits: the command line's parser, a --batch record (the library's
 * binding), the flag beside --batch; its ends 1 and 5000. */
Test(readers, digits_and_max_bits_are_refused_in_the_same_words_everywhere, .timeout = 120)
{
    static const struct {
        const char *flag, *text;
    } bad[] = {{"digits", "0"},      {"digits", "5001"},      {"digits", "+5"},
               {"digits", " 5"},     {"digits", "-5"},        {"digits", "5.0"},
               {"max-bits", "63"},   {"max-bits", "4194305"}, {"max-bits", "1e3"},
               {"max-bits", "0x40"}, {"digits", "99999999999999999999"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char rec[128], eq[64], name[16];
        snprintf(rec, sizeof rec, "{\"eps\":1,\"r\":0.5,\"%s\":\"%s\"}\n", bad[i].flag, bad[i].text);
        snprintf(eq, sizeof eq, "--%s=%s", bad[i].flag, bad[i].text);
        snprintf(name, sizeof name, "--%s:", bad[i].flag);
        char *msgs[] = {
            refusal(run("calc", "theta", "--eps", "1", "--r", "0.5", eq, NULL), name),
            refusal(run("audit", CERT, eq, NULL), name),
            refusal(run("calc", "theta", "--batch", "-", eq, NULL), name),
            batch_refusal(rec, name),
        };
        all_equal(msgs, sizeof msgs / sizeof msgs[0], bad[i].text);
    }
}

/* Two results (JSON texts; the first object of each) give the same lo and hi. */
static void same_enclosure(const char *a, const char *b)
{
    json_object *ja = json_tokener_parse(a), *jb = json_tokener_parse(b);
    cr_assert(ja != NULL && jb != NULL, "not JSON: %s | %s", a, b);
    cr_assert_str_eq(field(ja, "lo"), field(jb, "lo"));
    cr_assert_str_eq(field(ja, "hi"), field(jb, "hi"));
    json_object_put(ja);
    json_object_put(jb);
}

/* The ends that are accepted, through the parser and a --batch record:
 * the same result (leading zeros denote the same count). */
Test(readers, digits_ends_and_leading_zeros_are_accepted_alike)
{
    static const char *const same[][2] = {{"1", "0001"}, {"5000", "0000000005000"}, {"17", "017"}};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        run_result a = run("calc", "theta", "--eps", "1", "--r", "0.5", "--digits", same[i][0],
                           "--json", NULL);
        run_result b = run("calc", "theta", "--eps", "1", "--r", "0.5", "--digits", same[i][1],
                           "--json", NULL);
        cr_assert_eq(a.status, 0, "%s: %s", same[i][0], a.err);
        cr_assert_eq(b.status, 0, "%s: %s", same[i][1], b.err);
        same_enclosure(a.out, b.out);
        run_free(&a);
        run_free(&b);
    }
}

/* ---- --batch reads the flags beside it as every command does -------------------- */

/* The records' output is JSON lines whatever --json says: every truth value
 * of the switch gives the bytes of the run without it (it used to fail
 * every record: "unexpected argument 'yes'"). */
Test(batch_flags, json_takes_a_truth_value_beside_batch)
{
    char *path = write_records("{\"eps\":1,\"r\":0.5}\n{\"eps\":2,\"r\":1}\n");
    run_result plain = run("calc", "theta", "--batch", path, NULL);
    cr_assert_eq(plain.status, 0, "%s", plain.err);
    cr_assert_str_empty(plain.err);
    static const char *const spellings[] = {"--json", "--json=yes", "--json=true", "--json=1",
                                            "--json=no", "--json=false", "--json=0"};
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
        run_result r = run("calc", "theta", "--batch", path, spellings[i], NULL);
        cr_assert_eq(r.status, 0, "%s: exit %d: %s", spellings[i], r.status, r.err);
        cr_assert_str_eq(r.out, plain.out, "%s: other records", spellings[i]);
        cr_assert_str_empty(r.err, "%s: %s", spellings[i], r.err);
        run_free(&r);
    }
    expect_usage_error("--json", run("calc", "theta", "--batch", path, "--json=maybe", NULL));
    run_free(&plain);
    unlink(path);
}

/* --flag=value and --flag value beside --batch, and --batch=FILE: the same
 * records' output; the flags apply to every record that does not set them. */
Test(batch_flags, equals_and_separate_values_give_the_same_records)
{
    char *path = write_records("{\"eps\":1}\n{\"eps\":2,\"r\":1}\n");
    char batch_eq[80];
    snprintf(batch_eq, sizeof batch_eq, "--batch=%s", path);
    run_result a = run("calc", "theta", "--batch", path, "--r", "0.5", "--digits", "5", NULL);
    run_result b = run("calc", "theta", batch_eq, "--r=0.5", "--digits=5", NULL);
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert_str_eq(a.out, b.out);
    cr_assert_str_eq(a.err, b.err);
    /* and each record is the point the command line computes */
    run_result one = run("calc", "theta", "--eps=1", "--r=0.5", "--digits=5", "--json", NULL);
    same_enclosure(a.out, one.out); /* the first line */
    run_free(&one);
    run_free(&a);
    run_free(&b);
    unlink(path);
}

/* What the parser refuses on the command line it refuses beside --batch,
 * once, before any record: exit 2, nothing on stdout. */
Test(batch_flags, the_parsers_refusals_hold_beside_batch)
{
    char *path = write_records("{\"eps\":1,\"r\":0.5}\n");
    expect_usage_error("unknown flag --digitz",
                       run("calc", "theta", "--batch", path, "--digitz", "5", NULL));
    expect_usage_error("--digits: given more than once",
                       run("calc", "theta", "--batch", path, "--digits", "5", "--digits=6", NULL));
    expect_usage_error("--batch: given more than once",
                       run("calc", "theta", "--batch", path, "--batch", path, NULL));
    expect_usage_error("--r: missing value", run("calc", "theta", "--batch", path, "--r", NULL));
    expect_usage_error("unexpected argument 'stray'",
                       run("calc", "theta", "--batch", path, "stray", NULL));
    expect_usage_error("--batch: needs a file name", run("calc", "theta", "--batch=", NULL));
    unlink(path);
}
