/* src/vectors/fam_gaussian.c — the Gaussian families: θ_{e^ε}(r) with log θ,
 * and the two inverses (σ for (ε, δ), ε for (r, δ)).
 *
 * θ_{e^ε}(r) = Q(ε/r − r/2) − e^ε·Q(ε/r + r/2) = E_{e^ε}(N(0,1) ‖ N(r,1))
 * (docs/neural-unlearning.md, "Hockey-stick divergence of Gaussians"; bounds/gaussian.h), r = Δ/σ
 * with noise variance
 * σ², natural-log ε.  The grids reach the regimes where double-precision
 * accountants break: θ below the least double (tiny r with large ε), ε < 0
 * (reciprocity), θ within 10^-130 of 1 (where log θ needs hundreds of
 * digits), δ below 10^-300 and below the least subnormal.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bounds/gaussian.h"
#include "vectors/vectors.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- θ and log θ -------------------------------------------------------------- */

static const char *const THETA_EPS[] = {"-20", "-5", "-1", "-0.1", "0",  "0.01", "0.1",  "0.5",
                                        "1",   "2",  "5",  "10",   "50", "100",  "1000", "1e6"};
static const char *const THETA_R[] = {"0", "1e-8", "1e-4", "0.01", "0.1", "0.5",
                                      "1", "2",    "5",    "10",   "30",  "50"};
/* At r = 1, θ crosses the least normal double (2.2e-308) between ε = 37 and
 * 38 and the least subnormal (4.9e-324) between 38.5 and 39: rows where the
 * double is normal, subnormal, then 0. */
static const char *const THETA_EDGE_EPS[] = {"37", "37.5", "38", "38.5", "39", "39.5"};

typedef struct {
    const char *eps, *r;
} theta_ctx;

static ul_status eval_theta(void *ctx, const ul_num_precision *want, ul_num_value *out, char *err,
                            size_t errlen)
{
    const theta_ctx *c = ctx;
    ul_num_report rep;
    return ul_gauss_theta_certified(c->eps, c->r, want, out, &rep, err, errlen);
}

static ul_status theta_row(ul_vec_table *t, const char *eps, const char *r, char *err,
                           size_t errlen)
{
    theta_ctx c = {eps, r};
    ul_num_value v;
    ul_num_value_init(&v, 64);
    char why[256] = "";
    ul_status st = ul_vec_certify(t, eval_theta, &c, true, &v, why, sizeof why);
    if (st == UL_OK) {
        ul_vec_put_text(t, eps);
        ul_vec_put_text(t, r);
        ul_vec_put_value(t, &v);
        ul_vec_put_log_value(t, &v);
        ul_vec_row_end(t);
    } else {
        ul_fail(err, errlen, st, "eps=%s r=%s: %s", eps, r, why);
    }
    ul_num_value_clear(&v);
    return st;
}

ul_status ul_vec_gen_theta(ul_vec_table *t, char *err, size_t errlen)
{
    ul_vec_table_begin(t, t->digits, "eps,r", NULL, "theta,log_theta");
    ul_status st = UL_OK;
    for (size_t i = 0; i < COUNT(THETA_EPS) && st == UL_OK; i++)
        for (size_t j = 0; j < COUNT(THETA_R) && st == UL_OK; j++)
            st = theta_row(t, THETA_EPS[i], THETA_R[j], err, errlen);
    for (size_t i = 0; i < COUNT(THETA_EDGE_EPS) && st == UL_OK; i++)
        st = theta_row(t, THETA_EDGE_EPS[i], "1", err, errlen);
    return st;
}

/* ---- the inverses ------------------------------------------------------------- */

/* δ from an easy 0.5 down past the least normal (1e-310 is subnormal as a
 * double) and the least subnormal (1e-400, 1e-1000 are 0 as doubles). */
static const char *const INV_DELTA[] = {"0.5",   "0.1",    "1e-2",   "1e-5",   "1e-10",  "1e-20",
                                        "1e-50", "1e-100", "1e-300", "1e-310", "1e-400", "1e-1000"};
static const char *const SIGMA_EPS[] = {"0", "0.01", "0.1", "0.5", "1", "2", "5", "10", "100"};
static const char *const EPS_R[] = {"1e-6", "1e-3", "0.01", "0.1", "0.5",
                                    "1",    "2",    "5",    "10",  "100"};

typedef struct {
    const char *a, *delta; /* a = eps (gauss-sigma) or r (gauss-eps) */
    bool sigma;
} inverse_ctx;

static ul_status eval_inverse(void *ctx, const ul_num_precision *want, ul_num_value *out, char *err,
                              size_t errlen)
{
    const inverse_ctx *c = ctx;
    ul_num_report rep;
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = c->sigma ? ul_gauss_sigma_min(c->a, c->delta, "1", want, x, &rep, err, errlen)
                            : ul_gauss_eps_min(c->a, c->delta, want, x, &rep, err, errlen);
    if (st == UL_OK || st == UL_ECAP) {
        mpfi_set_prec(out->enclosure, mpfi_get_prec(x));
        mpfi_set(out->enclosure, x);
        out->is_log = false;
    }
    mpfi_clear(x);
    return st;
}

static ul_status inverse_table(ul_vec_table *t, bool sigma, const char *const *as, size_t n_a,
                               char *err, size_t errlen)
{
    ul_vec_table_begin(t, t->digits, sigma ? "eps,delta" : "r,delta", NULL,
                       sigma ? "sigma" : "eps");
    ul_status st = UL_OK;
    for (size_t i = 0; i < n_a && st == UL_OK; i++) {
        for (size_t j = 0; j < COUNT(INV_DELTA) && st == UL_OK; j++) {
            inverse_ctx c = {as[i], INV_DELTA[j], sigma};
            ul_num_value v;
            ul_num_value_init(&v, 64);
            char why[256] = "";
            st = ul_vec_certify(t, eval_inverse, &c, false, &v, why, sizeof why);
            if (st == UL_OK) {
                ul_vec_put_text(t, as[i]);
                ul_vec_put_text(t, INV_DELTA[j]);
                ul_vec_put_value(t, &v);
                ul_vec_row_end(t);
            } else {
                ul_fail(err, errlen, st, "%s=%s delta=%s: %s", sigma ? "eps" : "r", as[i],
                        INV_DELTA[j], why);
            }
            ul_num_value_clear(&v);
        }
    }
    return st;
}

ul_status ul_vec_gen_gauss_sigma(ul_vec_table *t, char *err, size_t errlen)
{
    return inverse_table(t, true, SIGMA_EPS, COUNT(SIGMA_EPS), err, errlen);
}

ul_status ul_vec_gen_gauss_eps(ul_vec_table *t, char *err, size_t errlen)
{
    return inverse_table(t, false, EPS_R, COUNT(EPS_R), err, errlen);
}
