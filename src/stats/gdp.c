/* src/stats/gdp.c — the Gaussian-DP estimate of ε (stats/gdp.h has the
 * fit and the profile with their sources).  In doubles: an estimate
 * reported beside the certified bounds, never a verdict. */
#include "stats/gdp.h"

#include <math.h>

/* Φ(x) = erfc(−x/√2)/2 */
static double norm_cdf(double x)
{
    return 0.5 * erfc(-x / sqrt(2.0));
}

double ul_emp_norm_quantile(double p)
{
    if (!(p > 0 && p < 1))
        return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
    double lo = -40, hi = 40;
    for (int it = 0; it < 200 && hi - lo > 1e-15 * (1 + fabs(lo)); it++) {
        double mid = 0.5 * (lo + hi);
        if (norm_cdf(mid) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

double ul_emp_gdp_mu_from_auc(double auc)
{
    if (!(auc > 0.5))
        return 0;
    if (auc >= 1)
        return INFINITY;
    return sqrt(2.0) * ul_emp_norm_quantile(auc);
}

/* log δ(ε) for μ-GDP: log(Φ(a) − e^ε Φ(b)), a = −ε/μ + μ/2, b = a − μ. */
static double log_delta(double eps, double mu)
{
    double a = -eps / mu + mu / 2, b = a - mu;
    double la = log(norm_cdf(a)), lb = eps + log(norm_cdf(b));
    if (!(la > lb))
        return -INFINITY;
    return la + log1p(-exp(lb - la));
}

double ul_emp_gdp_eps(double mu, double delta)
{
    if (!(delta > 0 && delta < 1))
        return NAN;
    if (!(mu > 0))
        return 0;
    if (isinf(mu))
        return INFINITY;
    double ld = log(delta);
    if (log_delta(0, mu) <= ld)
        return 0;
    double lo = 0, hi = 1;
    while (log_delta(hi, mu) > ld && hi < 1e6) {
        lo = hi;
        hi *= 2;
    }
    for (int it = 0; it < 200 && hi - lo > 1e-13 * hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (log_delta(mid, mu) > ld)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}
