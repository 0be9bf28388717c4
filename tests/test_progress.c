/* tests/test_progress.c — the thread's progress hook (num/progress.h) and
 * the terminal bar drawn from it (cli/progress.h), issue 27.
 *
 *   1. Library: a recording hook hears a long pld-compose and a vectors run
 *      as one task each: begun with done = 0, counts never decreasing, ended
 *      once; the count agrees with what the run itself reports (the PLD
 *      report's rounds, the set's files).  Nested tasks pass on the outer
 *      counts only; another thread's calls never reach this thread's hook.
 *   2. CLI: with stderr on a pseudo-terminal (openpty) a run of several
 *      seconds draws a bar that first shows at ≥ 1 s and erases its line at
 *      the end; a short run, --json, or a stderr that is not a terminal
 *      show nothing; stdout is the same with and without the terminal.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <mpfr.h>
#include <pthread.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bounds/pld.h"
#include "calc/batch.h"
#include "cli_run.h"
#include "num/progress.h"
#include "vectors/vectors.h"

#define MAX_EVENTS 4096

typedef struct {
    int n;
    const char *what[MAX_EVENTS];
    long done[MAX_EVENTS], total[MAX_EVENTS];
} recording;

static void record(void *ctx, const char *what, long done, long total, const char *label)
{
    (void)label;
    recording *r = ctx;
    if (r->n < MAX_EVENTS) {
        r->what[r->n] = what;
        r->done[r->n] = done;
        r->total[r->n] = total;
        r->n++;
    }
}

/* One task: opens with done = 0, counts never decrease, the one END last;
 * returns the last count before the end. */
static long check_one_task(const recording *r, const char *what, long total)
{
    cr_assert_geq(r->n, 2, "the hook heard %d events", r->n);
    cr_assert_eq(r->done[0], 0);
    cr_assert_eq(r->done[r->n - 1], UL_PROGRESS_END, "the task ends once, last");
    for (int i = 0; i < r->n; i++) {
        cr_assert_str_eq(r->what[i], what);
        cr_assert_eq(r->total[i], total);
        if (i > 0 && i < r->n - 1)
            cr_assert_geq(r->done[i], r->done[i - 1], "count went back at event %d", i);
        if (i < r->n - 1)
            cr_assert_neq(r->done[i], UL_PROGRESS_END, "an END before the last event");
    }
    return r->done[r->n - 2];
}

Test(progress, long_pld_compose_reports_its_rounds_in_order, .timeout = 300)
{
    static recording r; /* large: not on the stack */
    memset(&r, 0, sizeof r);
    ul_progress_set(record, &r);
    ul_pld_options o;
    ul_pld_options_default(&o);
    o.rel_width = 1e-4; /* several refinement rounds (pld.c, grid policy) */
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    ul_pld_report rep;
    char err[512] = "";
    ul_status st = ul_pld_compose_subsampled("0.9090909090909091", "0.01", 1000, "1", &o, lo, hi,
                                             &rep, err, sizeof err);
    ul_progress_set(NULL, NULL);
    cr_assert(st == UL_OK || st == UL_ECAP, "%s", err);
    cr_assert_geq(rep.rounds, 2, "a long run: more than one round (%d)", rep.rounds);
    long last = check_one_task(&r, "PLD accountant", -1);
    /* a report at the start of each round counts the rounds done before it */
    cr_assert_eq(last, rep.rounds - 1, "last count %ld, rounds %d", last, rep.rounds);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

Test(progress, vectors_report_families_done_of_total, .timeout = 300)
{
    static recording r;
    memset(&r, 0, sizeof r);
    char dir[] = "/tmp/ulaudit-progress-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    ul_progress_set(record, &r);
    ul_vec_set set;
    char err[512] = "";
    ul_status st = ul_vec_build(dir, 17, "theta", NULL, NULL, &set, err, sizeof err);
    ul_progress_set(NULL, NULL);
    cr_assert_eq(st, UL_OK, "%s", err);
    /* one family asked: total 1, and the last count is the files built */
    long last = check_one_task(&r, "vectors", 1);
    cr_assert_eq(last, (long)set.n);
    cr_assert_eq(set.n, 1);
    ul_vec_set_free(&set);
    rmdir(dir);
}

static void count_emitted(void *ctx, unsigned long line, const ul_calc_result *res)
{
    (void)line, (void)res;
    ++*(long *)ctx;
}

/* calc --batch: one task over the records, its count the records done (as
 * many as the results emitted), a comment and a blank line not counted. */
Test(progress, calc_batch_reports_records_done)
{
    static recording r;
    memset(&r, 0, sizeof r);
    static const char input[] = "eps,r\n# a comment\n1,1\n\n2,0.5\n0.5,3\n";
    FILE *in = fmemopen((void *)input, sizeof input - 1, "r");
    cr_assert_not_null(in);
    long emitted = 0;
    ul_calc_batch_out out = {count_emitted, &emitted};
    ul_calc_fixed fx = {.n = 0};
    char fatal[512] = "";
    int read_errno = 0;
    ul_progress_set(record, &r);
    int rc = ul_calc_batch_run("theta", in, &fx, &out, fatal, sizeof fatal, &read_errno);
    ul_progress_set(NULL, NULL);
    fclose(in);
    cr_assert_eq(rc, 0, "%s", fatal);
    cr_assert_eq(emitted, 3);
    cr_assert_eq(check_one_task(&r, "calc --batch", -1), emitted);
}

Test(progress, an_inner_task_passes_on_the_outer_counts_only)
{
    static recording r;
    memset(&r, 0, sizeof r);
    ul_progress_set(record, &r);
    int outer = ul_progress_begin("outer", 3);
    ul_progress_step(1, "first");
    int inner = ul_progress_begin("inner", -1);
    ul_progress_step(7, "inner step");
    ul_progress_end(inner);
    ul_progress_step(2, NULL);
    ul_progress_step(1, "a smaller count keeps the last");
    ul_progress_end(outer);
    ul_progress_step(9, "after the end: not heard");
    ul_progress_set(NULL, NULL);
    const long want[] = {0, 1, 1, 2, 2, UL_PROGRESS_END};
    cr_assert_eq(r.n, 6);
    for (int i = 0; i < r.n; i++) {
        cr_assert_str_eq(r.what[i], "outer");
        cr_assert_eq(r.done[i], want[i], "event %d: %ld", i, r.done[i]);
    }
}

static void *other_thread(void *arg)
{
    (void)arg;
    int t = ul_progress_begin("elsewhere", 2); /* no hook on this thread */
    ul_progress_step(1, NULL);
    ul_progress_end(t);
    return NULL;
}

Test(progress, another_threads_calls_do_not_reach_this_hook)
{
    static recording r;
    memset(&r, 0, sizeof r);
    ul_progress_set(record, &r);
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, other_thread, NULL), 0);
    pthread_join(th, NULL);
    ul_progress_set(NULL, NULL);
    cr_assert_eq(r.n, 0);
}

/* ---- the CLI on a pseudo-terminal ------------------------------------------------ */

typedef struct {
    int status;
    char tty[65536]; /* what reached the terminal (stderr) */
    char *out;       /* stdout */
} pty_run;

static char *slurp(FILE *f)
{
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = calloc((size_t)n + 1, 1);
    cr_assert_not_null(s);
    cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    return s;
}

/* Runs the binary with stderr on a pseudo-terminal, stdout to a file. */
static void run_on_pty(pty_run *p, char *const argv[])
{
    int master, slave;
    cr_assert_eq(openpty(&master, &slave, NULL, NULL, NULL), 0);
    FILE *out = tmpfile();
    cr_assert_not_null(out);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        dup2(fileno(out), STDOUT_FILENO);
        dup2(slave, STDERR_FILENO);
        close(master);
        execv(ULAUDIT_BIN, argv);
        _exit(127);
    }
    close(slave);
    size_t len = 0;
    for (;;) { /* until the child closes the terminal (EIO) */
        ssize_t k = read(master, p->tty + len, sizeof p->tty - 1 - len);
        if (k <= 0)
            break;
        len += (size_t)k;
    }
    p->tty[len] = '\0';
    close(master);
    waitpid(pid, &p->status, 0);
    p->out = slurp(out);
    fclose(out);
}

#define PLD_ARGS                                                                                   \
    "calc", "pld-compose", "--sigma", "1.1", "--q", "0.01", "--steps", "1000", "--eps", "1",       \
        "--rel-width", "3e-6" /* about 3 s: the bar shows after 1 s */

Test(progress, cli_bar_on_a_terminal_after_a_second_erased_at_the_end, .timeout = 300)
{
    static pty_run p;
    char *argv[] = {ULAUDIT_BIN, PLD_ARGS, NULL};
    run_on_pty(&p, argv);
    cr_assert(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0, "%s", p.tty);
    const char *bar = strstr(p.tty, "\rPLD accountant: ");
    cr_assert_not_null(bar, "no bar on the terminal: '%s'", p.tty);
    /* the first drawing comes after the delay: its elapsed seconds ≥ 1 */
    cr_assert_geq(strtol(bar + strlen("\rPLD accountant: "), NULL, 10), 1);
    size_t n = strlen(p.tty);
    cr_assert(n >= 4 && strcmp(p.tty + n - 4, "\r\033[K") == 0, "the line is not erased at the end");
    /* stdout as without a terminal; nothing on a stderr that is not one */
    run_result plain = run(PLD_ARGS, NULL);
    cr_assert_eq(plain.status, 0);
    cr_assert_str_eq(p.out, plain.out);
    cr_assert_str_empty(plain.err);
    run_free(&plain);
    free(p.out);
}

Test(progress, cli_silent_with_json_or_a_short_run, .timeout = 300)
{
    static pty_run p;
    char *json[] = {ULAUDIT_BIN, PLD_ARGS, "--json", NULL};
    run_on_pty(&p, json);
    cr_assert(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0);
    cr_assert_str_empty(p.tty, "--json drew: '%s'", p.tty);
    free(p.out);
    char *quick[] = {ULAUDIT_BIN, "calc", "pld-compose", "--sigma", "2", "--steps", "10",
                     "--eps", "1", NULL};
    run_on_pty(&p, quick);
    cr_assert(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0);
    cr_assert_str_empty(p.tty, "a short run drew: '%s'", p.tty);
    free(p.out);
}
