/* src/vectors/fam_noisygd.c — Noisy-GD learning and deletion calibrations
 * (Chourasia & Shah, "Forget Unlearning", arXiv:2210.08911; docs/noisy-gd.md; bounds/noisygd.h).
 *
 * σ is the paper's: one Noisy-GD step adds noise of variance 2ησ² per
 * coordinate (not σ²).  Every ε here is a Rényi divergence of order q, not
 * an (ε, δ) pair.  The bounds (convex, L-Lipschitz, β-smooth loss with L2
 * regularisation λ; database size n):
 *
 *   G.7  (RDP of K steps, any loss):     q·L²·η·K/(σ²n²)
 *   G.9  (RDP of K steps, convex):       4qL²/(λσ²n²)·(1 − exp(−ληK/2))   (K = none: sup)
 *   G.15 (deletion after K̄ steps):
 *        tight:   2qL²/(λσ²n²(1 − ηλ/2)) · exp(−ηλ(1 − ηλ/2)·K̄)
 *        stated:  4qL²/(λσ²n²) · exp(−ηλ·K̄/2)
 *
 * The paper has no experiments (docs/noisy-gd.md "Empirical tests"); the settings follow its
 * Table 1 and Thm 5.1 (1-Lipschitz, 1-smooth loss, L2 constant 0.01 to 1)
 * at MNIST-like and small n, with η = 1/4, which keeps η(λ + β) < 1 (the
 * theorems' step-size precondition) for every λ here.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bounds/noisygd.h"
#include "vectors/vectors.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#define L_TEXT "1"
#define BETA_TEXT "1"
#define ETA_TEXT "0.25"

static const char *const Q[] = {"2", "32"};
static const char *const N[] = {"1000", "60000"};
static const char *const LAMBDA[] = {"0.01", "0.1", "1"};
static const ul_ngd_g15_form FORMS[] = {UL_NGD_G15_TIGHT, UL_NGD_G15_STATED};

static const char *form_name(ul_ngd_g15_form f)
{
    return f == UL_NGD_G15_TIGHT ? "tight" : "stated";
}

static ul_status check_pre(const ul_preconditions *pre, char *err, size_t errlen)
{
    const ul_precondition *bad = ul_pre_first(pre, UL_PRE_FAILS);
    if (bad == NULL)
        bad = ul_pre_first(pre, UL_PRE_UNDECIDED);
    if (bad != NULL)
        return ul_fail(err, errlen, UL_EINPUT, "precondition %s does not hold", bad->name);
    return UL_OK;
}

/* ---- least K_Abar (G.15) ------------------------------------------------------ */

static const char *const K_SIGMA[] = {"0.001", "0.01", "0.1"};
static const char *const K_EPS_DD[] = {"0.001", "0.1"};

ul_status ul_vec_gen_noisygd_k(ul_vec_table *t, char *err, size_t errlen)
{
    ul_vec_table_begin(t, t->digits, "form,q,L,lambda,beta,sigma,eta,n,eps_dd", "KAbar",
                       "eps_at_KAbar");
    ul_num_precision want = ul_vec_want(t);
    ul_status st = UL_OK;
    for (size_t f = 0; f < COUNT(FORMS) && st == UL_OK; f++)
        for (size_t q = 0; q < COUNT(Q) && st == UL_OK; q++)
            for (size_t l = 0; l < COUNT(LAMBDA) && st == UL_OK; l++)
                for (size_t s = 0; s < COUNT(K_SIGMA) && st == UL_OK; s++)
                    for (size_t n = 0; n < COUNT(N) && st == UL_OK; n++)
                        for (size_t e = 0; e < COUNT(K_EPS_DD) && st == UL_OK; e++) {
                            ul_ngd_params pb = {0};
                            pb.q = Q[q];
                            pb.L = L_TEXT;
                            pb.lambda = LAMBDA[l];
                            pb.beta = BETA_TEXT;
                            pb.sigma = K_SIGMA[s];
                            pb.eta = ETA_TEXT;
                            pb.n = N[n];
                            pb.eps_dd = K_EPS_DD[e];
                            ul_preconditions pre;
                            ul_pre_clear(&pre);
                            ul_num_report rep;
                            ul_num_value at;
                            ul_num_value_init(&at, 64);
                            unsigned long k = 0;
                            char why[256] = "";
                            st = ul_ngd_least_kabar_g15(&pb, FORMS[f], 0, &want, &k, &at, &pre,
                                                        &rep, why, sizeof why);
                            if (st == UL_OK)
                                st = check_pre(&pre, why, sizeof why);
                            if (st == UL_OK && !ul_num_value_narrow_enough(&at, want.digits))
                                st = ul_fail(why, sizeof why, UL_EINPUT,
                                             "eps at K_Abar not certified to %d digits",
                                             want.digits);
                            if (st == UL_OK) {
                                ul_vec_put_text(t, form_name(FORMS[f]));
                                ul_vec_put_text(t, Q[q]);
                                ul_vec_put_text(t, L_TEXT);
                                ul_vec_put_text(t, LAMBDA[l]);
                                ul_vec_put_text(t, BETA_TEXT);
                                ul_vec_put_text(t, K_SIGMA[s]);
                                ul_vec_put_text(t, ETA_TEXT);
                                ul_vec_put_text(t, N[n]);
                                ul_vec_put_text(t, K_EPS_DD[e]);
                                ul_vec_put_ulong(t, k);
                                ul_vec_put_value(t, &at);
                                ul_vec_row_end(t);
                            } else {
                                ul_fail(err, errlen, st,
                                        "form=%s q=%s lambda=%s sigma=%s n=%s eps_dd=%s: %s",
                                        form_name(FORMS[f]), Q[q], LAMBDA[l], K_SIGMA[s], N[n],
                                        K_EPS_DD[e], why);
                            }
                            ul_num_value_clear(&at);
                        }
    return st;
}

/* ---- smallest σ (G.7, G.9, G.15) ------------------------------------------------ */

static const char *const S_K[] = {"1", "100", "10000"};
static const char *const S_EPS[] = {"0.01", "1"};

typedef struct {
    ul_ngd_params pb;
    ul_ngd_sigma_kind kind;
    ul_ngd_g15_form form;
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
    ul_status st = ul_ngd_sigma_min(&c->pb, c->kind, c->form, want, s, &pre, &rep, err, errlen);
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

static ul_status sigma_row(ul_vec_table *t, const char *kind, ul_ngd_sigma_kind k,
                           ul_ngd_g15_form form, const char *q, const char *lambda, const char *n,
                           const char *steps, const char *eps, char *err, size_t errlen)
{
    sigma_ctx c = {{0}, k, form};
    c.pb.q = q;
    c.pb.L = L_TEXT;
    c.pb.eta = ETA_TEXT;
    c.pb.n = n;
    if (k != UL_NGD_SIGMA_G7) {
        c.pb.lambda = lambda;
        c.pb.beta = BETA_TEXT;
    }
    if (k == UL_NGD_SIGMA_G15) {
        c.pb.KAbar = steps;
        c.pb.eps_dd = eps;
    } else {
        c.pb.K = steps; /* NULL for G.9: the supremum over K */
        c.pb.eps_dp = eps;
    }
    ul_num_value v;
    ul_num_value_init(&v, 64);
    char why[256] = "";
    ul_status st = ul_vec_certify(t, eval_sigma, &c, false, &v, why, sizeof why);
    if (st == UL_OK) {
        ul_vec_put_text(t, kind);
        ul_vec_put_text(t, k == UL_NGD_SIGMA_G15 ? form_name(form) : "none");
        ul_vec_put_text(t, q);
        ul_vec_put_text(t, L_TEXT);
        ul_vec_put_text(t, k == UL_NGD_SIGMA_G7 ? "none" : lambda);
        ul_vec_put_text(t, k == UL_NGD_SIGMA_G7 ? "none" : BETA_TEXT);
        ul_vec_put_text(t, ETA_TEXT);
        ul_vec_put_text(t, n);
        ul_vec_put_text(t, steps != NULL ? steps : "none");
        ul_vec_put_text(t, eps);
        ul_vec_put_value(t, &v);
        ul_vec_row_end(t);
    } else {
        ul_fail(err, errlen, st, "kind=%s form=%s q=%s lambda=%s n=%s steps=%s eps=%s: %s", kind,
                form_name(form), q, lambda != NULL ? lambda : "none", n,
                steps != NULL ? steps : "none", eps, why);
    }
    ul_num_value_clear(&v);
    return st;
}

ul_status ul_vec_gen_noisygd_sigma(ul_vec_table *t, char *err, size_t errlen)
{
    ul_vec_table_begin(t, t->digits, "kind,form,q,L,lambda,beta,eta,n,steps,eps", NULL, "sigma");
    static const char *const LAMBDA2[] = {"0.01", "1"};
    ul_status st = UL_OK;
    /* G.7: λ and β do not enter. */
    for (size_t q = 0; q < COUNT(Q) && st == UL_OK; q++)
        for (size_t n = 0; n < COUNT(N) && st == UL_OK; n++)
            for (size_t k = 0; k < COUNT(S_K) && st == UL_OK; k++)
                for (size_t e = 0; e < COUNT(S_EPS) && st == UL_OK; e++)
                    st = sigma_row(t, "g7", UL_NGD_SIGMA_G7, UL_NGD_G15_TIGHT, Q[q], NULL, N[n],
                                   S_K[k], S_EPS[e], err, errlen);
    /* G.9: K steps, or the supremum over K ("none"). */
    for (size_t q = 0; q < COUNT(Q) && st == UL_OK; q++)
        for (size_t l = 0; l < COUNT(LAMBDA2) && st == UL_OK; l++)
            for (size_t n = 0; n < COUNT(N) && st == UL_OK; n++)
                for (size_t k = 0; k <= COUNT(S_K) && st == UL_OK; k++)
                    for (size_t e = 0; e < COUNT(S_EPS) && st == UL_OK; e++)
                        st = sigma_row(t, "g9", UL_NGD_SIGMA_G9, UL_NGD_G15_TIGHT, Q[q], LAMBDA2[l],
                                       N[n], k < COUNT(S_K) ? S_K[k] : NULL, S_EPS[e], err, errlen);
    /* G.15: K_Abar unlearning steps, both forms. */
    for (size_t f = 0; f < COUNT(FORMS) && st == UL_OK; f++)
        for (size_t q = 0; q < COUNT(Q) && st == UL_OK; q++)
            for (size_t l = 0; l < COUNT(LAMBDA2) && st == UL_OK; l++)
                for (size_t n = 0; n < COUNT(N) && st == UL_OK; n++)
                    for (size_t k = 0; k < COUNT(S_K) && st == UL_OK; k++)
                        for (size_t e = 0; e < COUNT(S_EPS) && st == UL_OK; e++)
                            st = sigma_row(t, "g15", UL_NGD_SIGMA_G15, FORMS[f], Q[q], LAMBDA2[l],
                                           N[n], S_K[k], S_EPS[e], err, errlen);
    return st;
}
