/* src/stats/special_d.c — double special functions (stats/special_d.h):
 * ranking only, never a bound. */
#include "stats/special_d.h"

#include <math.h>

double ul_emp_log_choose(unsigned long n, unsigned long k)
{
    return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

/* Continued fraction of the incomplete beta function, modified Lentz
 * (Press et al., Numerical Recipes, 3rd ed., §6.4, eq. 6.4.5). */
static double betacf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = 1 / (fabs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 10000; m++) {
        double m2 = 2.0 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        for (int half = 0; half < 2; half++) {
            d = 1 + aa * d;
            d = 1 / (fabs(d) < tiny ? tiny : d);
            c = 1 + aa / c;
            c = fabs(c) < tiny ? tiny : c;
            h *= d * c;
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        }
        if (fabs(d * c - 1) < 1e-15)
            break;
    }
    return h;
}

/* Regularised incomplete beta I_x(a, b) (NR eq. 6.4.9 with the symmetry
 * I_x(a, b) = 1 − I_{1−x}(b, a) for convergence). */
static double betai(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    if (x < (a + 1) / (a + b + 2))
        return exp(lbt) * betacf(a, b, x) / a;
    return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

/* P[Bin(n, p) ≤ k] = I_{1−p}(n − k, k + 1) (NR eq. 6.4.12). */
double ul_emp_binom_cdf_d(unsigned long k, unsigned long n, double p)
{
    if (k >= n || p <= 0)
        return 1;
    if (p >= 1)
        return 0;
    return betai((double)(n - k), (double)k + 1, 1 - p);
}

double ul_emp_cp_upper_d(unsigned long k, unsigned long n, double beta)
{
    if (k >= n)
        return 1;
    double lo = 0, hi = 1; /* cdf(lo) > beta ≥ cdf(hi) */
    for (int it = 0; it < 60; it++) {
        double mid = 0.5 * (lo + hi);
        if (ul_emp_binom_cdf_d(k, n, mid) > beta)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* P[Bin(n, p) ≥ x] = I_p(x, n − x + 1) (NR eq. 6.4.12). */
double ul_emp_binom_sf_d(unsigned long x, unsigned long n, double p)
{
    if (x == 0 || p >= 1)
        return 1;
    return p <= 0 ? 0 : betai((double)x, (double)(n - x) + 1, p);
}
