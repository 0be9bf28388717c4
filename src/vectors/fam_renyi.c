/* src/vectors/fam_renyi.c — Rényi DP: conversions from one RDP point to
 * (ε, δ) in both directions and both formulas, and the RDP of the
 * Poisson-subsampled Gaussian (bounds/renyi.h):
 *
 *   mironov (Mironov 2017, Prop. 3):   ε = ρ + log(1/δ)/(α − 1)
 *                                      δ = exp((α − 1)(ρ − ε))            (≤ 1)
 *   bbghs (Balle et al. 2020, Thm 21; Canonne–Kamath–Steinke 2020):
 *       ε = ρ + log1p(−1/α) − (log δ + log α)/(α − 1)                    (≥ 0)
 *       δ = exp((α − 1)(ρ − ε + log1p(−1/α)))/α                           (≤ 1)
 *     with the KL shortcut of docs/accounting.md "The KL shortcut": ε = 0 when
 *     δ ≥ √(1 − e^{−ρ}), and δ ≤ √(1 − e^{−ρ}).
 *   subsampled Gaussian (Mironov, Talwar, Zhang 2019, §3.3), q the Poisson
 *     rate, sigma the noise multiplier σ/Δ, add/remove adjacency:
 *       ρ(α) = log E_{z∼N(0,σ²)}[((1−q) + q·exp((2z−1)/(2σ²)))^α]/(α − 1).
 */
#include <stdio.h>
#include <stdlib.h>

#include "bounds/renyi.h"
#include "vectors/vectors.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const ALPHA[] = {"1.01", "1.5", "2", "8", "32", "1024", "1e6"};
static const char *const RHO[] = {"0", "1e-6", "0.01", "0.5", "2", "10", "1000"};
static const char *const DELTA[] = {"0.1", "1e-5", "1e-10", "1e-300"};
static const char *const EPS[] = {"0", "0.1", "1", "10", "100"};
static const ul_rdp_conversion CONV[] = {UL_RDP_MIRONOV, UL_RDP_BBGHS};

/* ---- conversions -------------------------------------------------------------- */

typedef struct {
    const char *alpha, *rho, *given;
    ul_rdp_conversion conv;
    bool to_delta;
} conv_ctx;

static ul_status eval_conversion(void *ctx, const ul_num_precision *want, ul_num_value *out,
                                 char *err, size_t errlen)
{
    const conv_ctx *c = ctx;
    ul_num_report rep;
    if (c->to_delta)
        return ul_renyi_rdp_to_delta_certified(c->alpha, c->rho, c->given, c->conv, want, out, &rep,
                                               err, errlen);
    return ul_renyi_rdp_to_dp_certified(c->alpha, c->rho, c->given, c->conv, want, out, &rep, err,
                                        errlen);
}

static ul_status conversion_table(ul_vec_table *t, bool to_delta, const char *const *given,
                                  size_t n_given, char *err, size_t errlen)
{
    ul_vec_table_begin(t, t->digits,
                       to_delta ? "conversion,alpha,rdp,eps" : "conversion,alpha,rdp,delta", NULL,
                       to_delta ? "delta,log_delta" : "eps");
    ul_status st = UL_OK;
    for (size_t k = 0; k < COUNT(CONV) && st == UL_OK; k++)
        for (size_t a = 0; a < COUNT(ALPHA) && st == UL_OK; a++)
            for (size_t r = 0; r < COUNT(RHO) && st == UL_OK; r++)
                for (size_t g = 0; g < n_given && st == UL_OK; g++) {
                    conv_ctx c = {ALPHA[a], RHO[r], given[g], CONV[k], to_delta};
                    ul_num_value v;
                    ul_num_value_init(&v, 64);
                    char why[256] = "";
                    st = ul_vec_certify(t, eval_conversion, &c, to_delta, &v, why, sizeof why);
                    if (st == UL_OK) {
                        ul_vec_put_text(t, ul_renyi_conversion_name(CONV[k]));
                        ul_vec_put_text(t, ALPHA[a]);
                        ul_vec_put_text(t, RHO[r]);
                        ul_vec_put_text(t, given[g]);
                        ul_vec_put_value(t, &v);
                        if (to_delta)
                            ul_vec_put_log_value(t, &v);
                        ul_vec_row_end(t);
                    } else {
                        ul_fail(err, errlen, st, "conversion=%s alpha=%s rdp=%s %s=%s: %s",
                                ul_renyi_conversion_name(CONV[k]), ALPHA[a], RHO[r],
                                to_delta ? "eps" : "delta", given[g], why);
                    }
                    ul_num_value_clear(&v);
                }
    return st;
}

ul_status ul_vec_gen_rdp_to_eps(ul_vec_table *t, char *err, size_t errlen)
{
    return conversion_table(t, false, DELTA, COUNT(DELTA), err, errlen);
}

ul_status ul_vec_gen_rdp_to_delta(ul_vec_table *t, char *err, size_t errlen)
{
    return conversion_table(t, true, EPS, COUNT(EPS), err, errlen);
}

/* ---- subsampled Gaussian ------------------------------------------------------ */

/* Rates from 1e-4 (large datasets) to 1 (the plain Gaussian, ρ = α/(2σ²));
 * noise multipliers around the DP-SGD range; integer orders (exact binomial
 * sum) and fractional ones (the signed series with its certified tail). */
static const char *const SGM_Q[] = {"1e-4", "0.001", "0.01", "0.1", "0.5", "1"};
static const char *const SGM_SIGMA[] = {"0.5", "0.8", "1", "2", "5", "20"};
static const char *const SGM_ALPHA[] = {"1.5", "2",  "2.5", "3",     "4.75", "8",
                                        "16",  "32", "64",  "128.5", "256"};

typedef struct {
    const char *q, *sigma, *alpha;
} sgm_ctx;

static ul_status eval_sgm(void *ctx, const ul_num_precision *want, ul_num_value *out, char *err,
                          size_t errlen)
{
    const sgm_ctx *c = ctx;
    ul_num_report rep;
    return ul_renyi_sgm_rdp_certified(c->q, c->sigma, c->alpha, want, out, &rep, err, errlen);
}

ul_status ul_vec_gen_sgm_rdp(ul_vec_table *t, char *err, size_t errlen)
{
    ul_vec_table_begin(t, t->digits, "q,sigma,alpha", NULL, "rdp");
    ul_status st = UL_OK;
    for (size_t i = 0; i < COUNT(SGM_Q) && st == UL_OK; i++)
        for (size_t j = 0; j < COUNT(SGM_SIGMA) && st == UL_OK; j++)
            for (size_t k = 0; k < COUNT(SGM_ALPHA) && st == UL_OK; k++) {
                sgm_ctx c = {SGM_Q[i], SGM_SIGMA[j], SGM_ALPHA[k]};
                ul_num_value v;
                ul_num_value_init(&v, 64);
                char why[256] = "";
                st = ul_vec_certify(t, eval_sgm, &c, false, &v, why, sizeof why);
                if (st == UL_OK) {
                    ul_vec_put_text(t, SGM_Q[i]);
                    ul_vec_put_text(t, SGM_SIGMA[j]);
                    ul_vec_put_text(t, SGM_ALPHA[k]);
                    ul_vec_put_value(t, &v);
                    ul_vec_row_end(t);
                } else {
                    ul_fail(err, errlen, st, "q=%s sigma=%s alpha=%s: %s", SGM_Q[i], SGM_SIGMA[j],
                            SGM_ALPHA[k], why);
                }
                ul_num_value_clear(&v);
            }
    return st;
}
