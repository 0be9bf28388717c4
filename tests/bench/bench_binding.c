/* tests/bench/bench_binding.c — the C side of the Python binding's
 * per-call overhead (tests/bench/bench_python.py runs it).
 *
 * What is measured: the median, over BATCHES batches, of the CPU time per
 * call at the library's default 17 digits, the result strings freed, called
 * through the shared library build/libulaudit.so.0 (linked by its soname,
 * as Python's ctypes loads it: the same code, the same thread-local access
 * path) from a plain C loop, of
 *   - ulaudit_theta(eps, r): the direct entry, two decimal strings out;
 *   - ulaudit_calc("theta", {eps, r}): the entry Python's ulaudit.theta
 *     calls (every quantity goes through it), the result as a JSON object.
 * Python's wrapper does the second plus its own work (decimal text of the
 * inputs, ctypes marshalling, the hand-off to its worker thread, the JSON
 * decoded, the Enclosure's Fractions): the difference is the binding's
 * overhead.
 *
 *   bench_binding [EPS R [CALLS]]    prints "c_theta_seconds_per_call S"
 *                                    and "c_calc_theta_seconds_per_call S"
 *
 * Exit 0 always, but 1 when the call itself fails.
 */
#include <stdbool.h>
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

/* One call of the entry `calc` (0: ulaudit_theta, 1: ulaudit_calc), its
 * results freed; false when it fails. */
static bool call_once(int calc, const char *eps, const char *r)
{
    char err[256], *lo = NULL, *hi = NULL, *json = NULL;
    const char *names[] = {"eps", "r"}, *values[] = {eps, r};
    ulaudit_status st = calc ? ulaudit_calc("theta", names, values, 2, NULL, &json, err, sizeof err)
                             : ulaudit_theta(eps, r, NULL, &lo, &hi, err, sizeof err);
    if (st != ULAUDIT_OK)
        fprintf(stderr, "bench_binding: theta(%s, %s): %s\n", eps, r, err);
    ulaudit_free(lo);
    ulaudit_free(hi);
    ulaudit_free(json);
    return st == ULAUDIT_OK;
}

/* Seconds of CPU per call over `calls` calls; negative when a call fails. */
static double batch(int calc, const char *eps, const char *r, long calls)
{
    double t0 = cpu_seconds();
    for (long i = 0; i < calls; i++)
        if (!call_once(calc, eps, r))
            return -1;
    return (cpu_seconds() - t0) / (double)calls;
}

int main(int argc, char **argv)
{
    const char *eps = argc > 2 ? argv[1] : "1";
    const char *r = argc > 2 ? argv[2] : "0.5";
    long calls = argc > 3 ? atol(argv[3]) : 2000;
    if (calls < 1)
        calls = 1;
    printf("bench_binding: theta(%s, %s) through %s, median of %d x %ld calls\n", eps, r,
           "libulaudit.so.0", BATCHES, calls);
    static const char *const key[] = {"c_theta_seconds_per_call", "c_calc_theta_seconds_per_call"};
    for (int calc = 0; calc < 2; calc++) {
        double t[BATCHES];
        for (int b = 0; b < BATCHES; b++)
            if ((t[b] = batch(calc, eps, r, calls)) < 0)
                return 1;
        qsort(t, BATCHES, sizeof t[0], cmp_double);
        printf("%s %.9g\n", key[calc], t[BATCHES / 2]);
    }
    return 0;
}
