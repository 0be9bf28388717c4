/* tests/bench/bench_vectors.c — time to generate the whole reference-vector
 * set at the default digits, and its ratio to the same set at 17 digits
 * (issue 6 benchmark), measured in the same run, with the time per family.
 * The sets are written to temporary directories and removed afterwards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vectors/vectors.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct {
    double seconds[32];
    const char *names[32];
    int n;
} timings;

static void record(const ul_vec_file_report *f, void *ctx)
{
    timings *t = ctx;
    if (t->n < 32) {
        t->names[t->n] = f->family->name;
        t->seconds[t->n++] = f->seconds;
    }
}

/* Generates the set at `digits` into a fresh temporary directory; returns
 * the wall time, or a negative number on failure. */
static double generate(int digits, timings *t)
{
    char dir[] = "/tmp/ulaudit-bench-vectors-XXXXXX";
    if (mkdtemp(dir) == NULL)
        return -1;
    char err[512] = "";
    double t0 = now();
    ul_status st = ul_vec_generate(dir, digits, NULL, record, t, err, sizeof err);
    double elapsed = now() - t0;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_vectors: could not remove %s\n", dir);
    if (st != UL_OK) {
        fprintf(stderr, "bench_vectors: %s\n", err);
        return -1;
    }
    return elapsed;
}

int main(void)
{
    ul_num_init();
    timings def = {{0}, {0}, 0}, d17 = {{0}, {0}, 0};
    double t_def = generate(UL_VEC_DEFAULT_DIGITS, &def);
    double t_17 = generate(17, &d17);
    if (t_def < 0 || t_17 < 0)
        return 1;
    printf("bench_vectors: the whole set, wall time (one thread)\n");
    printf("%-16s %12s %12s\n", "family", "default s", "17 digits s");
    for (int i = 0; i < def.n && i < d17.n; i++)
        printf("%-16s %12.2f %12.2f\n", def.names[i], def.seconds[i], d17.seconds[i]);
    printf("%-16s %12.2f %12.2f\n", "total", t_def, t_17);
    printf("default digits = %d; ratio default / 17 digits = %.2f\n", UL_VEC_DEFAULT_DIGITS,
           t_def / t_17);
    ul_num_shutdown();
    return 0;
}
