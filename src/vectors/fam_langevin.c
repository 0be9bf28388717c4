/* src/vectors/fam_langevin.c — Langevin unlearning calibrations (Chien, Wang,
 * Chen, Li, arXiv:2401.10371v4; docs/langevin.md; bounds/langevin.h),
 * strongly convex case, on the paper's own settings:
 *
 *   ε_DP(K, σ, S) = min_{α>1} [ e^{−K·mη/α} · 4αS²M²/(mσ²n²) · (1 − e^{−mηT})
 *                               + log(1/δ)/(α − 1) ]
 *
 * (Thm 3.2–3.3 with Prop L.2).  σ is the LANGEVIN σ: one step adds noise of
 * variance 2ησ² per coordinate, not σ².  η = 1/L (the paper's choice), T = ∞
 * (learning run to convergence).  Settings: Table 3 (App. L.4) for MNIST
 * (n = 11982, λ = m = 10^-6·n, L = 1/4 + λ, M = 1, δ = 1/n rounded down to 40
 * digits) and CIFAR-10 (n = 10000, δ = 1e-4), and Fig 3c (batch S = 100,
 * σ = 0.05, target ε = 1).
 *
 *   langevin-sigma: σ* = inf{σ : ε_DP(K, σ, S) ≤ ε}, an enclosure whose upper
 *                   end is certified safe (Algorithm 4 done right);
 *   langevin-k:     the least K ≥ 0 with ε_DP(K, σ, S) ≤ ε, exact (certified
 *                   both ways: K reaches ε, no α brings K − 1 there).
 */
#include <stdio.h>
#include <stdlib.h>

#include "bounds/langevin.h"
#include "vectors/vectors.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
    const char *n, *m, *L, *delta;
} SETTINGS[] = {
    {"11982", "0.011982", "0.261982", "0.00008345852111500584209647805040894675346352"},
    {"10000", "0.01", "0.26", "0.0001"},
};

/* Table 3's targets. */
static const char *const SIGMA_EPS[] = {"0.05", "0.1", "0.5", "1", "2", "5"};
static const unsigned long SIGMA_K[] = {1, 10, 100};
static const unsigned long SIGMA_S[] = {1, 100};

static const char *const K_SIGMA[] = {"0.01", "0.02", "0.05", "0.1"};
static const char *const K_EPS[] = {"0.1", "0.5", "1", "2"};
static const unsigned long K_S[] = {1, 100};

static ul_langevin_sc_problem problem(size_t d, unsigned long S)
{
    ul_langevin_sc_problem pb = {
        SETTINGS[d].n,     SETTINGS[d].m,       SETTINGS[d].L, "1", NULL, SETTINGS[d].delta, S,
        UL_LANGEVIN_T_INF, UL_VARIANT_CORRECTED};
    return pb;
}

static void put_setting(ul_vec_table *t, size_t d, unsigned long S)
{
    ul_vec_put_text(t, SETTINGS[d].n);
    ul_vec_put_text(t, SETTINGS[d].m);
    ul_vec_put_text(t, SETTINGS[d].L);
    ul_vec_put_text(t, "1");   /* M */
    ul_vec_put_text(t, "1/L"); /* eta, exactly */
    ul_vec_put_text(t, SETTINGS[d].delta);
    ul_vec_put_ulong(t, S);
    ul_vec_put_text(t, "inf"); /* T */
}

#define SETTING_COLUMNS "n,m,L,M,eta,delta,S,T"

/* A precondition that fails makes the row no guarantee: refuse it. */
static ul_status check_pre(const ul_preconditions *pre, char *err, size_t errlen)
{
    const ul_precondition *bad = ul_pre_first(pre, UL_PRE_FAILS);
    if (bad == NULL)
        bad = ul_pre_first(pre, UL_PRE_UNDECIDED);
    if (bad != NULL)
        return ul_fail(err, errlen, UL_EINPUT, "precondition %s does not hold", bad->name);
    return UL_OK;
}

/* ---- smallest σ --------------------------------------------------------------- */

typedef struct {
    ul_langevin_sc_problem pb;
    const char *eps;
    unsigned long K;
} sigma_ctx;

static ul_status eval_sigma(void *ctx, const ul_num_precision *want, ul_num_value *out, char *err,
                            size_t errlen)
{
    const sigma_ctx *c = ctx;
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report rep;
    mpfi_t s;
    mpfi_init2(s, 64);
    ul_status st = ul_langevin_sc_sigma_min(&c->pb, c->eps, c->K, want, s, &pre, &rep, err, errlen);
    if (st == UL_OK || st == UL_ECAP) {
        mpfi_set_prec(out->enclosure, mpfi_get_prec(s));
        mpfi_set(out->enclosure, s);
        out->is_log = false;
        if (st == UL_OK)
            st = check_pre(&pre, err, errlen);
    }
    mpfi_clear(s);
    return st;
}

ul_status ul_vec_gen_langevin_sigma(ul_vec_table *t, char *err, size_t errlen)
{
    ul_vec_table_begin(t, t->digits, SETTING_COLUMNS ",K,eps", NULL, "sigma");
    ul_status st = UL_OK;
    for (size_t d = 0; d < COUNT(SETTINGS) && st == UL_OK; d++)
        for (size_t s = 0; s < COUNT(SIGMA_S) && st == UL_OK; s++)
            for (size_t k = 0; k < COUNT(SIGMA_K) && st == UL_OK; k++)
                for (size_t e = 0; e < COUNT(SIGMA_EPS) && st == UL_OK; e++) {
                    sigma_ctx c = {problem(d, SIGMA_S[s]), SIGMA_EPS[e], SIGMA_K[k]};
                    ul_num_value v;
                    ul_num_value_init(&v, 64);
                    char why[256] = "";
                    st = ul_vec_certify(t, eval_sigma, &c, false, &v, why, sizeof why);
                    if (st == UL_OK) {
                        put_setting(t, d, SIGMA_S[s]);
                        ul_vec_put_ulong(t, SIGMA_K[k]);
                        ul_vec_put_text(t, SIGMA_EPS[e]);
                        ul_vec_put_value(t, &v);
                        ul_vec_row_end(t);
                    } else {
                        ul_fail(err, errlen, st, "n=%s S=%lu K=%lu eps=%s: %s", SETTINGS[d].n,
                                SIGMA_S[s], SIGMA_K[k], SIGMA_EPS[e], why);
                    }
                    ul_num_value_clear(&v);
                }
    return st;
}

/* ---- least K ------------------------------------------------------------------- */

ul_status ul_vec_gen_langevin_k(ul_vec_table *t, char *err, size_t errlen)
{
    ul_vec_table_begin(t, t->digits, SETTING_COLUMNS ",sigma,eps", "K", NULL);
    ul_num_precision want = ul_vec_want(t);
    ul_status st = UL_OK;
    for (size_t d = 0; d < COUNT(SETTINGS) && st == UL_OK; d++)
        for (size_t s = 0; s < COUNT(K_S) && st == UL_OK; s++)
            for (size_t i = 0; i < COUNT(K_SIGMA) && st == UL_OK; i++)
                for (size_t e = 0; e < COUNT(K_EPS) && st == UL_OK; e++) {
                    ul_langevin_sc_problem pb = problem(d, K_S[s]);
                    ul_preconditions pre;
                    ul_pre_clear(&pre);
                    ul_num_report rep;
                    ul_num_value reached;
                    ul_num_value_init(&reached, 64);
                    char alpha[UL_LANGEVIN_ALPHA_TEXT_LEN], why[256] = "";
                    unsigned long K = 0;
                    st = ul_langevin_sc_least_k(&pb, K_SIGMA[i], K_EPS[e], &want, &K, &reached,
                                                alpha, sizeof alpha, &pre, &rep, why, sizeof why);
                    if (st == UL_OK)
                        st = check_pre(&pre, why, sizeof why);
                    if (st == UL_OK) {
                        put_setting(t, d, K_S[s]);
                        ul_vec_put_text(t, K_SIGMA[i]);
                        ul_vec_put_text(t, K_EPS[e]);
                        ul_vec_put_ulong(t, K);
                        ul_vec_row_end(t);
                    } else {
                        ul_fail(err, errlen, st, "n=%s S=%lu sigma=%s eps=%s: %s", SETTINGS[d].n,
                                K_S[s], K_SIGMA[i], K_EPS[e], why);
                    }
                    ul_num_value_clear(&reached);
                }
    return st;
}
