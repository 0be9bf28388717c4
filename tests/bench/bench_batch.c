/* tests/bench/bench_batch.c — points per second of `ulaudit calc theta
 * --batch` against one process per point (the same binary, the same
 * quantity, fork + exec, no shell), and of the library call ulaudit_theta
 * in one process, all measured in this run.
 *
 * The points: theta_{e^eps}(r) at 17 digits on a grid of eps in [0.05, 5]
 * and r in [0.1, 4].  Reference beside them (not run here: it is a Python
 * package outside Debian): dp_accounting's scalar hockey-stick delta costs
 * 69-110 us per value in one Python process (issue 17's measurement).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulaudit.h"

#ifndef ULAUDIT_BIN
#define ULAUDIT_BIN "build/ulaudit"
#endif

#define N_BATCH 20000
#define N_PROCESS 200

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU seconds (user + system) of the finished children, or of this
 * process: the figure that does not depend on the machine's other load. */
static double cpu(int who)
{
    struct rusage u;
    getrusage(who, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

static void point(int i, char *eps, char *r)
{
    snprintf(eps, 32, "%.2f", 0.05 + 0.05 * (i % 100));
    snprintf(r, 32, "%.2f", 0.1 + 0.02 * ((i / 100) % 196));
}

/* Runs argv with stdout (and stdin from `in` when not NULL) redirected;
 * returns the exit status. */
static int run(char *const *argv, const char *in)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (freopen("/dev/null", "w", stdout) == NULL ||
            (in != NULL && freopen(in, "r", stdin) == NULL))
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(void)
{
    char path[] = "/tmp/bench-batch-XXXXXX", eps[32], r[32];
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f == NULL) {
        perror("bench_batch: temporary file");
        return 1;
    }
    for (int i = 0; i < N_BATCH; i++) {
        point(i, eps, r);
        fprintf(f, "{\"eps\": %s, \"r\": %s}\n", eps, r);
    }
    fclose(f);

    char *batch[] = {ULAUDIT_BIN, "calc", "theta", "--batch", "-", NULL};
    double t0 = now(), c0 = cpu(RUSAGE_CHILDREN);
    int rc = run(batch, path);
    double t_batch = now() - t0, c_batch = cpu(RUSAGE_CHILDREN) - c0;
    unlink(path);

    t0 = now();
    c0 = cpu(RUSAGE_CHILDREN);
    for (int i = 0; i < N_PROCESS && rc == 0; i++) {
        point(i * 97, eps, r);
        char *one[] = {ULAUDIT_BIN, "calc", "theta", "--eps", eps, "--r", r, "--json", NULL};
        rc = run(one, NULL);
    }
    double t_proc = now() - t0, c_proc = cpu(RUSAGE_CHILDREN) - c0;

    t0 = now();
    c0 = cpu(RUSAGE_SELF);
    for (int i = 0; i < N_BATCH && rc == 0; i++) {
        char *lo, *hi;
        point(i, eps, r);
        if (ulaudit_theta(eps, r, NULL, &lo, &hi, NULL, 0) != ULAUDIT_OK)
            rc = 1;
        ulaudit_free(lo);
        ulaudit_free(hi);
    }
    double t_lib = now() - t0, c_lib = cpu(RUSAGE_SELF) - c0;
    if (rc != 0) {
        fprintf(stderr, "bench_batch: a run failed (exit %d)\n", rc);
        return 1;
    }
    double p_batch = N_BATCH / t_batch, p_proc = N_PROCESS / t_proc, p_lib = N_BATCH / t_lib;
    printf("bench_batch: theta at 17 digits, %d points batched, %d processes\n", N_BATCH,
           N_PROCESS);
    printf("  %-28s %9s %12s %14s\n", "", "points/s", "us/point", "CPU us/point");
    printf("  %-28s %9.0f %12.1f %14.1f\n", "calc --batch (one process)", p_batch, 1e6 / p_batch,
           1e6 * c_batch / N_BATCH);
    printf("  %-28s %9.0f %12.1f %14.1f\n", "one process per point", p_proc, 1e6 / p_proc,
           1e6 * c_proc / N_PROCESS);
    printf("  %-28s %9.0f %12.1f %14.1f\n", "ulaudit_theta (library)", p_lib, 1e6 / p_lib,
           1e6 * c_lib / N_BATCH);
    printf("  batch / per-process: %.1fx the points/s, %.1fx less CPU per point\n",
           p_batch / p_proc, (c_proc / N_PROCESS) / (c_batch / N_BATCH));
    printf("  reference: dp_accounting scalar delta 69-110 us/value (issue 17; not run here)\n");
    return 0;
}
