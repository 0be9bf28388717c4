/* tests/test_cli_args.c — the one argument parser of every command
 * (src/cli/args.h): the same spellings, rules and one-line messages for
 * calc, audit, calibrate, attack, attack --scores, vectors and the
 * top-level dispatch (issue 25, item 3).
 *
 * What each test compares against is independent of the parser: two
 * spellings of the same line must give the same bytes (a property of the
 * contract, man ulaudit(1), FLAGS), a refused line must exit 2 with one
 * line on stderr and nothing on stdout (the contract), and a suggestion
 * must name the flag the command's own --help documents. */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"

#define CERT "audits/output-perturbation-classic-eps10.json"
#define SCORES "examples/scores-gaussian-in.txt,examples/scores-gaussian-out.txt"

/* Two runs give the same exit code, stdout and stderr. */
static void same_run(run_result a, run_result b, const char *what)
{
    cr_assert_eq(a.status, b.status, "%s: exit %d vs %d (%s | %s)", what, a.status, b.status, a.err,
                 b.err);
    cr_assert_str_eq(a.out, b.out, "%s: stdout differs", what);
    cr_assert_str_eq(a.err, b.err, "%s: stderr differs", what);
    cr_assert(a.status == 0 || a.status == 1 || a.status == 3, "%s: exit %d: %s", what, a.status,
              a.err);
    run_free(&a);
    run_free(&b);
}

/* ---- --flag=value and --flag value alike ------------------------------------ */

/* An audit report carries the time it was made (generated_at): the two runs
 * compared take one fixed time (SOURCE_DATE_EPOCH), or a second boundary
 * between them would be the only difference. */
static void fix_report_time(void)
{
    setenv("SOURCE_DATE_EPOCH", "0", 1);
}

Test(cli_args, equals_and_separate_values_give_identical_output, .init = fix_report_time)
{
    same_run(run("calc", "theta", "--eps=1", "--r=0.5", "--digits=5", NULL),
             run("calc", "theta", "--eps", "1", "--r", "0.5", "--digits", "5", NULL), "calc");
    same_run(run("audit", CERT, "--digits=5", "--max-seconds=30", "--max-bits=128", NULL),
             run("audit", CERT, "--digits", "5", "--max-seconds", "30", "--max-bits", "128", NULL),
             "audit");
    same_run(run("calibrate", CERT, "--digits=5", NULL),
             run("calibrate", CERT, "--digits", "5", NULL), "calibrate");
    same_run(
        run("attack", "--scores=" SCORES, "--claim-eps=2", "--delta=1e-5", "--method=sum", NULL),
        run("attack", "--scores", SCORES, "--claim-eps", "2", "--delta", "1e-5", "--method", "sum",
            NULL),
        "attack --scores");
}

/* vectors prints timings: the files it writes are compared instead. */
Test(cli_args, vectors_equals_and_separate_values_write_the_same_file)
{
    char a[] = "/tmp/ulaudit-args-vec-a-XXXXXX", b[] = "/tmp/ulaudit-args-vec-b-XXXXXX";
    cr_assert_not_null(mkdtemp(a));
    cr_assert_not_null(mkdtemp(b));
    char out_a[64];
    snprintf(out_a, sizeof out_a, "--out=%s", a);
    run_result r = run("vectors", out_a, "--only=rdp-to-eps", "--digits=20", "--json=yes", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    r = run("vectors", "--out", b, "--only", "rdp-to-eps", "--digits", "20", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "cmp -s '%s/rdp_to_eps.csv' '%s/rdp_to_eps.csv'", a, b);
    cr_assert_eq(system(cmd), 0, "the two spellings wrote different files");
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", a, b);
    cr_assert_eq(system(cmd), 0);
}

/* ---- switches: bare or =true|false|yes|no|1|0 -------------------------------- */

Test(cli_args, switches_take_a_truth_value, .init = fix_report_time)
{
    static const char *const ON[] = {"--json=yes", "--json=true", "--json=1"};
    static const char *const OFF[] = {"--json=no", "--json=false", "--json=0"};
    for (size_t i = 0; i < 3; i++) {
        same_run(run("calc", "theta", "--eps", "1", "--r", "0.5", ON[i], NULL),
                 run("calc", "theta", "--eps", "1", "--r", "0.5", "--json", NULL), ON[i]);
        same_run(run("calc", "theta", "--eps", "1", "--r", "0.5", OFF[i], NULL),
                 run("calc", "theta", "--eps", "1", "--r", "0.5", NULL), OFF[i]);
    }
    same_run(run("audit", CERT, "--json=yes", NULL), run("audit", CERT, "--json", NULL), "audit");
    same_run(run("attack", "--scores", SCORES, "--claim-eps", "2", "--json=yes", NULL),
             run("attack", "--scores", SCORES, "--claim-eps", "2", "--json", NULL), "attack");
    /* --help=yes is --help: the same text as the bare switch */
    run_result a = run("calc", "theta", "--help=yes", NULL),
               b = run("calc", "theta", "--help", NULL);
    cr_assert_eq(a.status, 0);
    cr_assert_str_eq(a.out, b.out);
    run_free(&a), run_free(&b);
    a = run("--help=true", NULL), b = run("--help", NULL);
    cr_assert_eq(a.status, 0);
    cr_assert_str_eq(a.out, b.out);
    run_free(&a), run_free(&b);
}

Test(cli_args, a_switch_with_another_value_is_refused_naming_it)
{
    expect_usage_error("--json: a switch",
                       run("calc", "theta", "--eps", "1", "--r", "1", "--json=maybe", NULL));
    expect_usage_error("--json: a switch", run("audit", CERT, "--json=maybe", NULL));
    expect_usage_error("--json: a switch", run("calibrate", CERT, "--json=maybe", NULL));
    expect_usage_error("--json: a switch", run("attack", "--scores", SCORES, "--json=maybe", NULL));
    expect_usage_error("--resume: a switch", run("attack", "x.json", "--resume=maybe", NULL));
    expect_usage_error("--json: a switch", run("vectors", "--out", "/tmp", "--json=maybe", NULL));
    expect_usage_error("--version: a switch", run("--version=maybe", NULL));
    run_result r = run("audit", CERT, "--json=maybe", NULL);
    cr_assert(strstr(r.err, "'maybe'"), "the message quotes the value: %s", r.err);
    run_free(&r);
}

/* ---- repeated flags, missing values, values that look like flags ------------- */

Test(cli_args, a_repeated_flag_is_refused_by_every_command)
{
    expect_usage_error("--eps: given more than once",
                       run("calc", "theta", "--eps", "1", "--eps=2", "--r", "1", NULL));
    expect_usage_error("--digits: given more than once",
                       run("audit", CERT, "--digits", "5", "--digits", "6", NULL));
    expect_usage_error("--out: given more than once",
                       run("calibrate", CERT, "--out", "/tmp/a", "--out=/tmp/b", NULL));
    expect_usage_error("--threads: given more than once",
                       run("attack", "x.json", "--threads", "1", "--threads", "2", NULL));
    expect_usage_error("--delta: given more than once",
                       run("attack", "--scores", SCORES, "--delta", "0", "--delta", "0", NULL));
    expect_usage_error("--only: given more than once",
                       run("vectors", "--out", "/tmp", "--only", "theta", "--only", "theta", NULL));
    /* a switch repeated with the same state is harmless; with the other, refused */
    run_result r = run("calc", "theta", "--eps", "1", "--r", "1", "--json", "--json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    expect_usage_error("--json: given more than once",
                       run("audit", CERT, "--json", "--json=no", NULL));
}

Test(cli_args, a_valued_flag_without_a_value_is_refused_by_every_command)
{
    expect_usage_error("--r: missing value", run("calc", "theta", "--eps", "1", "--r", NULL));
    expect_usage_error("--digits: missing value", run("audit", CERT, "--digits", NULL));
    expect_usage_error("--out: missing value", run("calibrate", CERT, "--out", NULL));
    expect_usage_error("--out: missing value", run("attack", "x.json", "--out", NULL));
    expect_usage_error("--out: missing value", run("attack", "x.json", "--out=", NULL));
    expect_usage_error("--alpha: missing value",
                       run("attack", "--scores", SCORES, "--alpha", NULL));
    expect_usage_error("--only: missing value", run("vectors", "--out", "/tmp", "--only", NULL));
}

/* A value is never taken from a following --flag: `--eps --r 1` is a
 * missing value, not eps = "--r"; --name=VALUE carries such a value. */
Test(cli_args, a_following_flag_is_not_a_value)
{
    run_result r = run("calc", "theta", "--eps", "--r", "1", NULL);
    cr_assert(strstr(r.err, "'--r'") && strstr(r.err, "--eps=VALUE"), "%s", r.err);
    expect_usage_error("--eps: missing value", r);
    expect_usage_error("--digits: missing value", run("audit", "--digits", "--json", CERT, NULL));
    expect_usage_error("--out: missing value", run("attack", "x.json", "--out", "--json", NULL));
    expect_usage_error("--out: missing value", run("vectors", "--out", "--json", NULL));
    /* --eps=--r is a value (refused by the quantity's own rule, naming --eps) */
    expect_usage_error("--eps", run("calc", "theta", "--eps=--r", "--r", "1", NULL));
}

/* ---- did you mean, in every command ------------------------------------------ */

Test(cli_args, a_mistyped_flag_names_the_one_meant_in_every_command)
{
    expect_usage_error("unknown flag --esp (did you mean '--eps'?)",
                       run("calc", "theta", "--esp", "1", "--r", "1", NULL));
    expect_usage_error("unknown flag --digit (did you mean '--digits'?)",
                       run("audit", CERT, "--digit", "5", NULL));
    expect_usage_error("unknown flag --max-second (did you mean '--max-seconds'?)",
                       run("calibrate", CERT, "--max-second", "5", NULL));
    expect_usage_error("unknown flag --thread (did you mean '--threads'?)",
                       run("attack", "x.json", "--thread", "2", NULL));
    expect_usage_error("unknown flag --resum (did you mean '--resume'?)",
                       run("attack", "x.json", "--resum", NULL));
    expect_usage_error("unknown flag --claim-esp (did you mean '--claim-eps'?)",
                       run("attack", "--scores", SCORES, "--claim-esp", "1", NULL));
    expect_usage_error("unknown flag --onyl (did you mean '--only'?)",
                       run("vectors", "--out", "/tmp", "--onyl", "theta", NULL));
    expect_usage_error("unknown flag --versoin (did you mean '--version'?)",
                       run("--versoin", NULL));
    expect_usage_error("did you mean 'vectors'?", run("vector", NULL));
    /* a peer's name: --epsilon is --eps (dp_accounting's epsilon) */
    expect_usage_error(
        "unknown flag --epsilon (did you mean '--eps'?)",
        run("attack", "--in-models", "a", "--out-models", "b", "--epsilon", "1", NULL));
    /* a mistyped last flag is unknown, not "missing value" */
    expect_usage_error("unknown flag --jsn (did you mean '--json'?)",
                       run("calc", "theta", "--eps", "1", "--r", "1", "--jsn", NULL));
}

/* ---- messages: "ulaudit CMD: --flag: rule", one line, exit 2 ----------------- */

Test(cli_args, every_command_prefixes_its_name)
{
    run_result r = run("audit", CERT, "--jsn", NULL);
    cr_assert(strncmp(r.err, "ulaudit audit: unknown flag --jsn", 33) == 0, "%s", r.err);
    run_free(&r);
    r = run("attack", "x.json", "--jsn", NULL);
    cr_assert(strncmp(r.err, "ulaudit attack: unknown flag --jsn", 34) == 0, "%s", r.err);
    run_free(&r);
    r = run("vectors", "--jsn", NULL);
    cr_assert(strncmp(r.err, "ulaudit vectors: unknown flag --jsn", 35) == 0, "%s", r.err);
    run_free(&r);
    r = run("calc", "theta", "--jsn", NULL);
    cr_assert(strncmp(r.err, "ulaudit calc theta: unknown flag --jsn", 38) == 0, "%s", r.err);
    run_free(&r);
    expect_usage_error("unexpected argument 'b.json' (one configuration file per run)",
                       run("attack", "a.json", "b.json", NULL));
    expect_usage_error("unexpected argument 'b.json' (one certificate file per run)",
                       run("audit", "a.json", "b.json", NULL));
}

/* ---- ulaudit help TOPIC ------------------------------------------------------ */

/* Without a terminal (ULAUDIT_HELP=text) `help COMMAND` is COMMAND --help,
 * for every command. */
Test(cli_args, help_topic_prints_each_commands_help)
{
    setenv("ULAUDIT_HELP", "text", 1);
    static const char *const CMDS[] = {"calc", "audit", "calibrate", "attack", "vectors"};
    for (size_t i = 0; i < sizeof CMDS / sizeof CMDS[0]; i++) {
        run_result a = run("help", CMDS[i], NULL), b = run(CMDS[i], "--help", NULL);
        cr_assert_eq(a.status, 0, "help %s: %s", CMDS[i], a.err);
        cr_assert_str_eq(a.out, b.out, "help %s is %s --help", CMDS[i], CMDS[i]);
        run_free(&a), run_free(&b);
        a = run("--help", CMDS[i], NULL), b = run(CMDS[i], "--help", NULL);
        cr_assert_str_eq(a.out, b.out, "--help %s is %s --help", CMDS[i], CMDS[i]);
        run_free(&a), run_free(&b);
    }
    expect_usage_error("did you mean 'certificate'?", run("help", "certificat", NULL));
}

/* Without man, `help certificate` says where the page is (the repository's
 * man/ulaudit-certificate.5, found beside the build directory) and what
 * it describes; with ULAUDIT_HELP=man it is the page itself (its NAME). */
Test(cli_args, help_certificate_opens_the_schema_page)
{
    setenv("ULAUDIT_HELP", "text", 1);
    run_result r = run("help", "certificate", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "man 5 ulaudit-certificate"), "%s", r.out);
    cr_assert(strstr(r.out, "man/ulaudit-certificate.5"), "%s", r.out);
    cr_assert(strstr(r.out, "certificate format read by ulaudit audit"), "%s", r.out);
    run_free(&r);
    if (system("command -v man >/dev/null 2>&1") != 0)
        return; /* no man here: the text above is the answer */
    setenv("ULAUDIT_HELP", "man", 1);
    setenv("MANPAGER", "cat", 1);
    r = run("help", "certificate", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* the page's own header, which the text answer does not print */
    cr_assert(strstr(r.out, "ULAUDIT-CERTIFICATE(5)"), "not the page: %.200s", r.out);
    run_free(&r);
    unsetenv("ULAUDIT_HELP");
}
