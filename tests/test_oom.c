/* tests/test_oom.c — the out-of-memory policy of num/status.h: an
 * allocation whose size the input chooses fails with UL_ENOMEM and a
 * message naming the size, never abort().  Each failure is forced, either
 * by a size no machine has (2^58 guesses) or by an address-space limit
 * (setrlimit RLIMIT_AS) set in a forked child just above what it already
 * uses; the child reports its status and message through a pipe, so an
 * abort() shows as a killed child, and the limit never touches the test
 * runner itself. */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bounds/koloskova_mc.h"
#include "bounds/pld.h"
#include "emp/data.h"
#include "stats/eps_lb.h"
#include "stats/stats.h"
#include "memlimit.h"
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
            size_t lim = memlimit_mapped_bytes() + headroom;
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


/* ---- onerun: r guesses (stats/onerun.c) -------------------------------------- */

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
    MEMLIMIT_SKIP_UNDER_SANITIZER();
    unsigned long r = 1UL << 58;
    child_result c = in_child(onerun_huge, &r, 0);
    cr_assert_eq(c.status, UL_ENOMEM, "status %d: %s", c.status, c.err);
    cr_assert_not_null(strstr(c.err, "out of memory"), "%s", c.err);
    cr_assert_not_null(strstr(c.err, "r = 288230376151711744"), "%s", c.err); /* 2^58 */
}

/* The same function at a small r still answers (the error is the size's):
 * v = 0 correct guesses prove nothing, ε_lb = 0 (stats/eps_lb.h). */
Test(oom, onerun_small_guess_count_still_answers)
{
    char err[256] = "";
    bool zero = false;
    cr_assert_eq(onerun_at(10, 0, &zero, err, sizeof err), UL_OK, "%s", err);
    cr_assert(zero);
}

/* ---- ROC: n scores (stats/stats.c) ------------------------------------------- */

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
    MEMLIMIT_SKIP_UNDER_SANITIZER();
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
    MEMLIMIT_SKIP_UNDER_SANITIZER();
    const char **sigma = malloc(KOL_STEPS * sizeof *sigma);
    cr_assert_not_null(sigma);
    for (size_t i = 0; i < KOL_STEPS; i++)
        sigma[i] = "2";
    child_result c = in_child(kol_run, sigma, (size_t)48 << 20);
    cr_assert_eq(c.status, UL_ENOMEM, "status %d: %s", c.status, c.err);
    cr_assert_str_eq(c.err, "sigma: out of memory for a list of 4000000 values");
    free(sigma);
}

/* ---- data readers: n x d values (emp/data.c) ------------------------------- */

/* A temporary file holding len bytes; its name in path (PATH_MAX-free). */
static void temp_file(char path[64], const void *bytes, size_t len)
{
    snprintf(path, 64, "/tmp/ul-oom-XXXXXX");
    int fd = mkstemp(path);
    cr_assert_neq(fd, -1);
    cr_assert_eq(write(fd, bytes, len), (ssize_t)len);
    close(fd);
}

static ul_status idx_run(void *arg, char *err, size_t errlen)
{
    const char *path = arg;
    ul_dataset ds;
    ul_status st = ul_data_read_idx(path, path, &ds, err, errlen);
    ul_dataset_free(&ds);
    return st;
}

/* An IDX header (http://yann.lecun.com/exdb/mnist/: 00 00 08 rank, then
 * big-endian u32 dimensions) declaring 16384 x 16384 unsigned bytes: 2^28
 * values, just within UL_DATA_MAX_CELLS, so the reader asks for them
 * before it reads; 64 MB more address space cannot hold them. */
Test(oom, idx_size_declared_beyond_a_memory_limit_is_an_error)
{
    MEMLIMIT_SKIP_UNDER_SANITIZER();
    const unsigned char head[12] = {0, 0, 8, 2, 0, 0, 0x40, 0, 0, 0, 0x40, 0};
    char path[64];
    temp_file(path, head, sizeof head);
    child_result c = in_child(idx_run, path, (size_t)64 << 20);
    cr_assert_eq(c.status, UL_ENOMEM, "status %d: %s", c.status, c.err);
    cr_assert_not_null(strstr(c.err, "out of memory for the 268435456 bytes"), "%s", c.err);
    cr_assert_not_null(strstr(c.err, path), "%s", c.err);
    /* without the limit the same file is refused for what it is: no data */
    child_result free_run = in_child(idx_run, path, 0);
    cr_assert_eq(free_run.status, UL_EINPUT, "%s", free_run.err);
    cr_assert_not_null(strstr(free_run.err, "truncated IDX data"), "%s", free_run.err);
    unlink(path);
}

typedef struct {
    const char *path;
    size_t dim;
} libsvm_arg;

static ul_status libsvm_run(void *arg, char *err, size_t errlen)
{
    const libsvm_arg *a = arg;
    ul_dataset ds;
    ul_status st = ul_data_read_libsvm(a->path, a->dim, &ds, err, errlen);
    /* the free run: the two rows as written, zeros elsewhere (sampled) */
    if (st == UL_OK && !(ds.n == 2 && ds.d == a->dim && ds.y[0] == 1 && ds.y[1] == -1 &&
                         ds.x[0] == 0.5 && ds.x[a->dim + a->dim - 1] == 2 &&
                         ds.x[a->dim / 2] == 0 && ds.x[a->dim + 3] == 0))
        st = ul_fail(err, errlen, UL_EINPUT, "the rows read back wrong");
    ul_dataset_free(&ds);
    return st;
}

/* Two LIBSVM rows (label index:value ..., 1-based; Chang & Lin, LIBSVM
 * FAQ) read at the caller's dimension 2^27: 2 x 2^27 = 2^28 values, within
 * UL_DATA_MAX_CELLS, 2 GB of doubles; 64 MB more address space cannot hold
 * them.  (A list of many values grown by realloc is not forced so: glibc
 * may grow it inside an arena's heap, address space reserved before the
 * limit, and falls back to that heap when mmap fails.) */
Test(oom, libsvm_dimension_beyond_a_memory_limit_is_an_error)
{
    MEMLIMIT_SKIP_UNDER_SANITIZER();
    const char rows[] = "1 1:0.5\n-1 134217728:2\n";
    char path[64];
    temp_file(path, rows, sizeof rows - 1);
    libsvm_arg a = {path, (size_t)1 << 27};
    child_result c = in_child(libsvm_run, &a, (size_t)64 << 20);
    cr_assert_eq(c.status, UL_ENOMEM, "status %d: %s", c.status, c.err);
    cr_assert_not_null(strstr(c.err, "out of memory for 2 x 134217728 values"), "%s", c.err);
    /* without the limit: calloc maps the zeros without touching them */
    child_result free_run = in_child(libsvm_run, &a, 0);
    cr_assert_eq(free_run.status, UL_OK, "%s", free_run.err);
    unlink(path);
}

/* ---- the PLD estimate (bounds/pld_estimate.c) ------------------------------ */

/* One Gaussian phase: σ = 20, Δ = 1, q = 1, T = 100 steps, i.e. a Gaussian
 * mechanism of μ = √T·Δ/σ = 0.5 (Dong, Roth, Su 2019, Cor. 3.3). */
static const ul_pld_phase_d GAUSS_PHASE = {20, 1, 1, 100};

typedef struct {
    double points, eps;
} est_arg;

static ul_status est_run(void *arg, char *err, size_t errlen)
{
    est_arg *a = arg;
    return ul_pld_epsilon_estimate(&GAUSS_PHASE, 1, 1e-5, a->points, &a->eps, err, errlen);
}

/* δ(ε) of the Gaussian mechanism of parameter μ (Balle, Wang 2018, Thm 8):
 * Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2). */
static double gauss_delta(double eps, double mu)
{
    double s = 0.7071067811865476; /* 1/√2 */
    return 0.5 * erfc((eps / mu - mu / 2) * s) - exp(eps) * 0.5 * erfc((eps / mu + mu / 2) * s);
}

/* A grid of 2e6 points needs an FFT of 2^21 long doubles (32 MB per array,
 * several arrays); 16 MB more address space cannot hold it: UL_ENOMEM, not
 * abort(), naming a power of two ≥ the points asked (the FFT's length). */
Test(oom, pld_estimate_grid_under_a_memory_limit_is_an_error)
{
    MEMLIMIT_SKIP_UNDER_SANITIZER();
    est_arg a = {2e6, 0};
    child_result c = in_child(est_run, &a, (size_t)16 << 20);
    cr_assert_eq(c.status, UL_ENOMEM, "status %d: %s", c.status, c.err);
    const char *at = strstr(c.err, "pld estimate: out of memory for ");
    cr_assert_not_null(at, "%s", c.err);
    const char *of = NULL; /* the last " of ": "... of N points" */
    for (const char *t = strstr(at, " of "); t != NULL; t = strstr(t + 1, " of "))
        of = t;
    unsigned long n = 0;
    cr_assert(of != NULL && sscanf(of, " of %lu points", &n) == 1, "%s", c.err);
    cr_assert(n >= 2000000 && (n & (n - 1)) == 0, "%lu points: %s", n, c.err);
}

/* At the default grid the same call answers, within 1e-4 (relative) of the
 * exact ε(δ) of the Gaussian mechanism (bisection on gauss_delta). */
Test(oom, pld_estimate_default_grid_still_answers)
{
    est_arg a = {0, NAN};
    char err[256] = "";
    cr_assert_eq(est_run(&a, err, sizeof err), UL_OK, "%s", err);
    double lo = 0, hi = 20, mu = 0.5;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (gauss_delta(mid, mu) > 1e-5)
            lo = mid;
        else
            hi = mid;
    }
    cr_assert(fabs(a.eps - hi) <= 1e-4 * hi, "estimate %.10g, exact %.10g", a.eps, hi);
}
