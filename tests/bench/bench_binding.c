/* tests/bench/bench_binding.c — the C side of the Python binding's
 * per-call overhead (tests/bench/bench_python.py runs it).
 *
 * What is measured: the median, over BATCHES batches, of the CPU time per
 * call of ulaudit_theta(eps, r) at the library's default 17 digits,
 * including the ulaudit_free of the two result strings, called through the
 * shared library build/libulaudit.so.0 (linked by its soname, as Python's
 * ctypes loads it: the same code, the same thread-local access path) from
 * a plain C loop.  The Python wrapper ulaudit.theta does exactly this plus
 * its own work (decimal text of the inputs, ctypes marshalling, decoding,
 * the Enclosure's Fractions), so the difference of the two is the
 * binding's overhead.
 *
 *   bench_binding [EPS R [CALLS]]    prints "c_theta_seconds_per_call S"
 *
 * Exit 0 always, but 1 when the call itself fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "ulaudit.h"

#define BATCHES 9

static double cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec +
           (double)u.ru_stime.tv_sec + 1e-6 * (double)u.ru_stime.tv_usec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Seconds of CPU per call over `calls` calls; negative when a call fails. */
static double batch(const char *eps, const char *r, long calls)
{
    char err[256];
    double t0 = cpu_seconds();
    for (long i = 0; i < calls; i++) {
        char *lo = NULL, *hi = NULL;
        if (ulaudit_theta(eps, r, NULL, &lo, &hi, err, sizeof err) != ULAUDIT_OK) {
            fprintf(stderr, "bench_binding: ulaudit_theta(%s, %s): %s\n", eps, r, err);
            return -1;
        }
        ulaudit_free(lo);
        ulaudit_free(hi);
    }
    return (cpu_seconds() - t0) / (double)calls;
}

int main(int argc, char **argv)
{
    const char *eps = argc > 2 ? argv[1] : "1";
    const char *r = argc > 2 ? argv[2] : "0.5";
    long calls = argc > 3 ? atol(argv[3]) : 2000;
    double t[BATCHES];
    if (calls < 1)
        calls = 1;
    for (int b = 0; b < BATCHES; b++)
        if ((t[b] = batch(eps, r, calls)) < 0)
            return 1;
    qsort(t, BATCHES, sizeof t[0], cmp_double);
    printf("bench_binding: ulaudit_theta(%s, %s) through %s, median of %d x %ld calls\n", eps, r,
           "libulaudit.so.0", BATCHES, calls);
    printf("c_theta_seconds_per_call %.9g\n", t[BATCHES / 2]);
    return 0;
}
