/* src/cert/import_tfp.c — `ulaudit import tf-privacy`: the parameters of TF
 * Privacy's compute_dp_sgd_privacy(n, batch_size, noise_multiplier, epochs,
 * delta) as a JSON object (and, optionally, the "epsilon" it printed).
 *
 * What the function does (tensorflow/privacy,
 * tensorflow_privacy/privacy/analysis/compute_dp_sgd_privacy_lib.py):
 *   q = batch_size / n (a Python float; q > 1 is refused);
 *   steps = int(math.ceil(epochs * n / batch_size));
 *   an RdpAccountant (dp_accounting's default neighbouring relation,
 *   ADD_OR_REMOVE_ONE) composes SelfComposedDpEvent(PoissonSampledDpEvent(q,
 *   GaussianDpEvent(noise_multiplier)), steps).
 * So the certificate has one phase, Poisson sampling, add-remove.  Its
 * numbers are computed exactly: q = batch_size / n as a terminating
 * decimal when it is one, else rounded UP at 17 significant digits (the
 * larger rate is the reading least favourable to the claim: the privacy
 * loss of the sampled Gaussian grows with q); steps = the exact ceiling of
 * epochs·n/batch_size, or the ceiling of Python's double evaluation when
 * that is larger (fractional epochs: float(epochs) is not epochs).
 */
#include <gmp.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cert/import_internal.h"
#include "num/input.h"

/* Significant digits of a rate that is not a terminating decimal. */
#define RATE_DIGITS 17

/* b/n (1 <= b <= n) as decimal text, exact or rounded up at RATE_DIGITS
 * significant digits (*exact says which); malloc'd. */
static char *rate_text(unsigned long b, unsigned long n, bool *exact)
{
    mpz_t num, den, lim, q;
    mpz_inits(num, den, lim, q, (mpz_ptr)0);
    mpz_set_ui(num, b);
    mpz_set_ui(den, n);
    mpz_ui_pow_ui(lim, 10, RATE_DIGITS - 1);
    mpz_mul(lim, lim, den);
    unsigned long k = 0; /* the least k with b·10^k >= n·10^(D-1): D digits of b·10^k/n */
    for (; mpz_cmp(num, lim) < 0; k++)
        mpz_mul_ui(num, num, 10);
    *exact = mpz_divisible_p(num, den);
    mpz_cdiv_q(q, num, den); /* rounded up */
    while (k > 0 && mpz_divisible_ui_p(q, 10))
        mpz_divexact_ui(q, q, 10), k--;
    char *digits = mpz_get_str(NULL, 10, q);
    size_t nd = strlen(digits), len = nd + k + 4;
    char *out = malloc(len);
    if (out == NULL)
        abort(); /* a few dozen bytes: out of memory aborts (num/status.h) */
    if (nd > k) { /* b = n, or rounded up to 1 */
        snprintf(out, len, "1");
    } else { /* 0. then k - nd zeros then the digits */
        memcpy(out, "0.", 2);
        memset(out + 2, '0', k - nd);
        memcpy(out + 2 + (k - nd), digits, nd + 1);
    }
    void (*freefn)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefn);
    freefn(digits, nd + 1);
    mpz_clears(num, den, lim, q, (mpz_ptr)0);
    return out;
}

/* steps = ceil(epochs·n/b), exact; *why the reading, for the source text. */
static unsigned long long steps_of(const char *epochs, unsigned long n, unsigned long b,
                                   char *why, size_t whylen)
{
    mpq_t x;
    mpq_init(x);
    ul_num_mpq_valid(x, epochs); /* read with .exact: within 10^±20000 */
    mpz_mul_ui(mpq_numref(x), mpq_numref(x), n);
    mpz_mul_ui(mpq_denref(x), mpq_denref(x), b);
    mpq_canonicalize(x);
    mpz_t t;
    mpz_init(t);
    mpz_cdiv_q(t, mpq_numref(x), mpq_denref(x));
    /* above the limit of steps: any count that says so */
    unsigned long long exact = mpz_fits_ulong_p(t) ? mpz_get_ui(t) : ULLONG_MAX, steps = exact;
    char *frac = mpq_get_str(NULL, 10, x);
    snprintf(why, whylen, "steps = ceil(epochs * n / batch_size) = ceil(%s) = %llu", frac, exact);
    if (strpbrk(epochs, ".eE") != NULL) {
        /* Python reads such an epochs as a float and evaluates
         * (float(epochs) * n) / batch_size in doubles */
        double v = strtod(epochs, NULL) * (double)n / (double)b;
        if (isfinite(v) && ceil(v) > (double)exact) {
            steps = (unsigned long long)ceil(v);
            size_t l = strlen(why);
            snprintf(why + l, whylen - l, ", and %llu as TF Privacy computes it in doubles "
                     "(the larger count taken)", steps);
        }
    }
    void (*freefn)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefn);
    freefn(frac, strlen(frac) + 1);
    mpz_clear(t);
    mpq_clear(x);
    return steps;
}

static const ul_field_spec SPECS[] = {
    {.name = "n", .type = UL_FIELD_COUNT, .required = true, .domain = &ul_domain_dataset_size,
     .doc = "number of training examples"},
    {.name = "batch_size", .type = UL_FIELD_COUNT, .required = true, .lo = "1", .hi = "1e15",
     .doc = "batch size (expected, under Poisson sampling)"},
    {.name = "noise_multiplier", .type = UL_FIELD_DECIMAL, .required = true,
     .domain = &ul_domain_sigma, .doc = "noise standard deviation over the clipping norm"},
    {.name = "epochs", .type = UL_FIELD_DECIMAL, .required = true, .lo = "0", .lo_strict = true,
     .hi = "1e6", .exact = true, .doc = "number of epochs (may be fractional)"},
};
#define N_SPECS (sizeof SPECS / sizeof SPECS[0])

ul_status ul_import_tf_privacy(const ul_json_value *root, ul_import_run *r, char *err,
                               size_t errlen)
{
    ul_cert_values v;
    ul_status st = ul_import_read_top(r, root, SPECS, N_SPECS, &v, err, errlen);
    if (st != UL_OK)
        return st;
    unsigned long n = (unsigned long)v.v[0].count, b = (unsigned long)v.v[1].count;
    if (b > n)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.batch_size: must be <= n (%lu; TF Privacy refuses a sampling ratio "
                       "above 1: 'n must be larger than the batch size'), got %lu",
                       n, b);
    char why[512];
    unsigned long long steps = steps_of(v.v[3].text, n, b, why, sizeof why);
    if (steps > UL_DPSGD_MAX_STEPS)
        return ul_fail(err, errlen, UL_EINPUT, "$.epochs: %s, above the limit of %lu steps", why,
                       (unsigned long)UL_DPSGD_MAX_STEPS);
    bool exact;
    char *q = rate_text(b, n, &exact);
    st = ul_import_add_phase(r, v.v[2].text, "$.noise_multiplier", q, "$.batch_size / $.n",
                             (unsigned long)steps, "$", err, errlen);
    fprintf(r->src,
            " Read: the parameters of TF Privacy's compute_dp_sgd_privacy (n %lu, batch_size "
            "%lu, noise_multiplier %s, epochs %s), one phase as that function "
            "composes it: q = batch_size / n = %lu/%lu = %s%s; %s; noise_multiplier as "
            "written. Sampling: Poisson at rate q (the function's PoissonSampledDpEvent; a "
            "training that drew shuffled fixed-size batches is not what it, or this audit, "
            "covers). Sensitivity: one clipping norm per example (the function ignores the "
            "doubling microbatches cause, as its deprecation note says).",
            n, b, v.v[2].text, v.v[3].text, b, n, q,
            exact ? " exactly" : ", not a terminating decimal: rounded up at 17 significant "
                                 "digits (the larger rate is the reading least favourable to "
                                 "the claim)",
            why);
    free(q);
    r->adj_reading = "compute_dp_sgd_privacy's RdpAccountant keeps dp_accounting's default "
                     "NeighboringRelation.ADD_OR_REMOVE_ONE";
    return st;
}
