/* tests/test_oom.c — the out-of-memory policy of num/status.h: an
 * allocation whose size the input chooses fails with UL_ENOMEM and a
 * message naming the size, never abort().  Each failure is forced, either
 * by a size no machine has (2^58 guesses) or by an address-space limit
 * (setrlimit RLIMIT_AS) set in a forked child just above what it already
 * uses; the child reports its status and message through a pipe, so an
 * abort() shows as a killed child, and the limit never touches the test
 * runner itself. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bounds/koloskova.h"
#include "emp/eps_lb.h"
#include "emp/stats.h"
#include "num/encl.h"

static void setup(void)
{
    ul_num_init();
}

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(oom, .init = setup, .fini = teardown);

/* What a child saw: its status and message. */
typedef struct {
    int status;
    char err[512];
} child_result;

/* The bytes of address space this process maps now (/proc/self/statm). */
static size_t mapped_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    cr_assert_not_null(f);
    cr_assert_eq(fscanf(f, "%lu", &pages), 1);
    fclose(f);
    return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

/* Runs fn(arg) in a forked child, under RLIMIT_AS = mapped + headroom when
 * headroom > 0; the child's result, or a failed assertion if it died (an
 * abort() is SIGABRT). */
static child_result in_child(ul_status (*fn)(void *, char *, size_t), void *arg,
                             size_t headroom)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    fflush(NULL);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        close(fd[0]);
        child_result r = {0, ""};
        if (headroom > 0) {
            size_t lim = mapped_bytes() + headroom;
            struct rlimit rl = {lim, lim};
            if (setrlimit(RLIMIT_AS, &rl) != 0)
                _exit(100);
        }
        r.status = (int)fn(arg, r.err, sizeof r.err);
        _exit(write(fd[1], &r, sizeof r) == (ssize_t)sizeof r ? 0 : 101);
    }
    close(fd[1]);
    child_result r = {-1, ""};
    ssize_t got = read(fd[0], &r, sizeof r);
    close(fd[0]);
    int ws = 0;
    cr_assert_eq(waitpid(pid, &ws, 0), pid);
    cr_assert(WIFEXITED(ws), "the child died (signal %d; SIGABRT is %d)",
              WIFSIGNALED(ws) ? WTERMSIG(ws) : 0, SIGABRT);
    cr_assert_eq(WEXITSTATUS(ws), 0, "child exit %d", WEXITSTATUS(ws));
    cr_assert_eq(got, (ssize_t)sizeof r);
    return r;
}

/* ---- onerun: r guesses (emp/onerun.c) -------------------------------------- */

/* ul_emp_onerun_eps at δ = 0, level 0.05, m = r canaries; *zero (may be
 * NULL) tells whether ε_lb came out 0. */
static ul_status onerun_at(unsigned long r, unsigned long v, bool *zero, char *err, size_t errlen)
{
    mpfi_t delta, level;
    mpfi_init2(delta, 64);
    mpfi_init2(level, 64);
    mpfi_set_ui(delta, 0);
    mpfi_set_d(level, 0.05);
    mpfr_t e;
    mpfr_init2(e, 64);
    mpfr_set_ui(e, 1, MPFR_RNDN);
    ul_status st = ul_emp_onerun_eps(e, r, r, v, delta, level, err, errlen);
    if (zero != NULL)
        *zero = mpfr_zero_p(e);
    mpfr_clear(e);
    mpfi_clear(delta);
    mpfi_clear(level);
    return st;
}

static ul_status onerun_huge(void *arg, char *err, size_t errlen)
{
    return onerun_at(*(const unsigned long *)arg, 1, NULL, err, errlen);
}

/* 2^58 guesses need a table of 2^61 bytes: more than any address space
 * (x86-64 user space is 2^47 bytes), so malloc must fail. */
Test(oom, onerun_guess_count_beyond_memory_is_an_error)
{
    unsigned long r = 1UL << 58;
    child_result c = in_child(onerun_huge, &r, 0);
    cr_assert_eq(c.status, UL_ENOMEM, "status %d: %s", c.status, c.err);
    cr_assert_not_null(strstr(c.err, "out of memory"), "%s", c.err);
    cr_assert_not_null(strstr(c.err, "r = 288230376151711744"), "%s", c.err); /* 2^58 */
}

/* The same function at a small r still answers (the error is the size's):
 * v = 0 correct guesses prove nothing, ε_lb = 0 (emp/eps_lb.h). */
Test(oom, onerun_small_guess_count_still_answers)
{
    char err[256] = "";
    bool zero = false;
    cr_assert_eq(onerun_at(10, 0, &zero, err, sizeof err), UL_OK, "%s", err);
    cr_assert(zero);
}

/* ---- ROC: n scores (emp/stats.c) ------------------------------------------- */

#define ROC_N 2000000 /* scores per world: the curve needs ~160 MB more */

typedef struct {
    double *in, *out;
} roc_arg;

static ul_status roc_run(void *arg, char *err, size_t errlen)
{
    const roc_arg *a = arg;
    ul_emp_roc r;
    ul_status st = ul_emp_roc_curve(&r, a->in, ROC_N, a->out, ROC_N, err, errlen);
    ul_emp_roc_clear(&r);
    return st;
}

/* The scores fit; the curve's arrays (5 of up to 2n + 1 entries) do not fit
 * in 32 MB more address space.  Without the limit the same call succeeds. */
Test(oom, roc_of_many_scores_under_a_memory_limit_is_an_error)
{
    roc_arg a = {malloc(ROC_N * sizeof(double)), malloc(ROC_N * sizeof(double))};
    cr_assert(a.in != NULL && a.out != NULL);
    for (size_t i = 0; i < ROC_N; i++)
        a.in[i] = (double)i, a.out[i] = (double)i + 0.5;
    child_result c = in_child(roc_run, &a, (size_t)32 << 20);
    cr_assert_eq(c.status, UL_ENOMEM, "status %d: %s", c.status, c.err);
    cr_assert_not_null(strstr(c.err, "out of memory"), "%s", c.err);
    cr_assert_not_null(strstr(c.err, "2000000 in_scores"), "%s", c.err);
    child_result free_run = in_child(roc_run, &a, 0);
    cr_assert_eq(free_run.status, UL_OK, "%s", free_run.err);
    free(a.in);
    free(a.out);
}

/* ---- model clipping: one σ per step (bounds/koloskova.c) ------------------- */

#define KOL_STEPS 4000000UL /* a σ list of 4e6 entries (< UL_CONTRACTION_MAX_STEPS) */

static ul_status kol_run(void *arg, char *err, size_t errlen)
{
    ul_kol_mc_problem pb;
    memset(&pb, 0, sizeof pb);
    pb.eps = "1";
    pb.variant = UL_KOL_CC1;
    pb.c2 = "0.5";
    pb.sigma = (const char *const *)arg;
    pb.n_sigma = KOL_STEPS;
    pb.steps = KOL_STEPS;
    pb.mode = UL_CONTRACTION_PRODUCT;
    ul_num_precision want = {17, 0, 0};
    ul_num_value delta;
    ul_num_value_init(&delta, 64);
    ul_num_report rep = {0, false};
    ul_preconditions pre;
    bool floor_reached = false;
    ul_status st =
        ul_kol_mc_delta_certified(&pb, &want, &pre, &delta, &floor_reached, &rep, err, errlen);
    ul_num_value_clear(&delta);
    return st;
}

/* The list of 4e6 pointers (32 MB) is the input; its exact values (4e6
 * rationals of 32 bytes each, 128 MB) do not fit in 48 MB more. */
Test(oom, model_clipping_sigma_list_under_a_memory_limit_is_an_error)
{
    const char **sigma = malloc(KOL_STEPS * sizeof *sigma);
    cr_assert_not_null(sigma);
    for (size_t i = 0; i < KOL_STEPS; i++)
        sigma[i] = "2";
    child_result c = in_child(kol_run, sigma, (size_t)48 << 20);
    cr_assert_eq(c.status, UL_ENOMEM, "status %d: %s", c.status, c.err);
    cr_assert_str_eq(c.err, "sigma: out of memory for a list of 4000000 values");
    free(sigma);
}
