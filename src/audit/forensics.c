/* src/audit/forensics.c — faulty recipes, computed the faulty way on purpose.
 *
 * Everything in this file runs in IEEE double or float32 BY DESIGN: each
 * function reproduces what a public implementation printed (see
 * forensics.h), so it must round where that code rounded.  None of it is on
 * a certified path; verdicts never depend on it.
 */
#include "audit/forensics.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/gaussian.h"
#include "num/encl.h"

double ul_forensic_double(const char *text)
{
    if (text == NULL || !ul_num_is_decimal(text))
        return NAN;
    return strtod(text, NULL);
}

/* ---- matching ------------------------------------------------------------------ */

int ul_forensic_sig_digits(const char *text)
{
    if (text == NULL || !ul_num_is_decimal(text))
        return 0;
    const char *p = text;
    if (*p == '+' || *p == '-')
        p++;
    int n = 0;
    bool started = false;
    for (; *p != '\0' && *p != 'e' && *p != 'E'; p++) {
        if (*p == '.')
            continue;
        if (!started) {
            if (*p == '0')
                continue;
            started = true;
        }
        n++; /* every digit after the first non-zero one was written, zeros too */
    }
    return n;
}

static bool mantissa_is_zero(const char *text)
{
    for (const char *p = text; *p != '\0' && *p != 'e' && *p != 'E'; p++)
        if (isdigit((unsigned char)*p) && *p != '0')
            return false;
    return true;
}

bool ul_forensic_matches(const char *claimed, double value)
{
    if (claimed == NULL || !ul_num_is_decimal(claimed) || !isfinite(value))
        return false;
    if (mantissa_is_zero(claimed))
        return value == 0.0;
    int n = ul_forensic_sig_digits(claimed);
    if (value == 0.0)
        return false;
    /* printf rounds the binary value correctly to n significant digits */
    char buf[64];
    snprintf(buf, sizeof buf, "%.*e", n - 1 > 40 ? 40 : n - 1, value);
    int cmp;
    return ul_num_decimal_compare(buf, claimed, &cmp) && cmp == 0;
}

bool ul_forensic_matches_digits(const char *claimed, double value, int min_digits)
{
    if (claimed == NULL || !ul_num_is_decimal(claimed))
        return false;
    if (!mantissa_is_zero(claimed) && ul_forensic_sig_digits(claimed) < min_digits)
        return false;
    return ul_forensic_matches(claimed, value);
}

/* ---- θ, badly -------------------------------------------------------------------- */

/* Q(x) = (1 − erf(x/√2))/2 in double, as stair-lab's src/utils/dp.py
 * (docs/neural-unlearning.md, "Public code"): absolute error ≈ 1.1e-16, so relative error
 * explodes once Q(x) is below about 1e-15 (x ≳ 8), and Q(x) = 0 for x ≳ 8.3. */
static double q_one_minus_erf(double x)
{
    return (1.0 - erf(x / sqrt(2.0))) / 2.0; /* the cancellation is the point */
}

double ul_forensic_theta_one_minus_erf(double eps, double r)
{
    double a = eps / r - r / 2.0, b = eps / r + r / 2.0;
    return q_one_minus_erf(a) - exp(eps) * q_one_minus_erf(b);
}

/* Q on the float32 path: float32 argument, erf in double rounded to
 * float32 (scipy's 'f->f' loop), 1 − erf and /2 in float32.  volatile keeps
 * every intermediate a true float32 whatever the compiler's excess
 * precision. */
static float q_float32(float x)
{
    volatile float s = x / (float)sqrt(2.0);
    volatile float e = (float)erf((double)s);
    volatile float one_minus = 1.0f - e;
    volatile float q = one_minus / 2.0f;
    return q;
}

double ul_forensic_theta_float32(double eps, double r)
{
    volatile float rf = (float)r;
    volatile float ratio = (float)eps / rf;
    volatile float half = rf / 2.0f;
    volatile float a = ratio - half;
    volatile float b = ratio + half;
    double qa = (double)q_float32(a), qb = (double)q_float32(b);
    return qa - exp(eps) * qb;
}

/* ---- classic Gaussian mechanism ---------------------------------------------------- */

double ul_forensic_classic_sigma(double sensitivity, double eps, double delta)
{
    return sensitivity * sqrt(2.0 * log(1.25 / delta)) / eps;
}

double ul_forensic_classic_delta(double eps, double r)
{
    return 1.25 * exp(-eps * eps / (2.0 * r * r));
}

/* ---- RDP → (ε, δ) ---------------------------------------------------------------- */

double ul_forensic_rdp_eps(double alpha, double rdp, double delta, ul_rdp_conversion conv)
{
    if (conv == UL_RDP_MIRONOV)
        return rdp + log(1.0 / delta) / (alpha - 1.0);
    double eps = rdp + log1p(-1.0 / alpha) - (log(delta) + log(alpha)) / (alpha - 1.0);
    return eps < 0.0 ? 0.0 : eps;
}

double ul_forensic_rdp_points_eps(const double *alphas, const double *rdps, size_t n,
                                  double delta, ul_rdp_conversion conv, size_t *best)
{
    double min = INFINITY;
    size_t arg = 0;
    for (size_t i = 0; i < n; i++) {
        double e = ul_forensic_rdp_eps(alphas[i], rdps[i], delta, conv);
        if (e < min) {
            min = e;
            arg = i;
        }
    }
    if (best != NULL)
        *best = arg;
    return min;
}

long ul_forensic_renyi_as_eps(const char *claimed_eps, const char *const *rdps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int cmp;
        if (ul_num_decimal_compare(claimed_eps, rdps[i], &cmp) && cmp == 0)
            return (long)i;
        if (ul_forensic_matches_digits(claimed_eps, ul_forensic_double(rdps[i]), 2))
            return (long)i;
    }
    return -1;
}

/* ---- group privacy ------------------------------------------------------------------ */

double ul_forensic_group_delta_largest_term(double eps, double delta, unsigned long k)
{
    return delta * exp((double)(k - 1) * eps);
}

double ul_forensic_theta(double eps, double r)
{
    mpfi_t e, x;
    mpfi_init2(e, 64);
    mpfi_init2(x, 64);
    mpfi_set_d(e, eps);
    mpfi_set_d(x, r);
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_gauss_theta_enclose(&v, e, x);
    mpfr_t m;
    mpfr_init2(m, 64);
    mpfi_mid(m, v.enclosure);
    double d = v.is_log ? exp(mpfr_get_d(m, MPFR_RNDN)) : mpfr_get_d(m, MPFR_RNDN);
    mpfr_clear(m);
    ul_num_value_clear(&v);
    mpfi_clear(e);
    mpfi_clear(x);
    return d;
}
