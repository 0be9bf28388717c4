/* src/vectors/fam_contraction.c — δ after T projection + Gaussian noise steps
 * (bounds/contraction.h; Asoodeh, Diaz, Calmon 2020; docs/neural-unlearning.md, "Model clipping"):
 *
 *   product:   δ_T = δ_0 · θ_{e^ε}(r)^T
 *   adaptive:  δ_{t+1} = δ_t · θ_{e^{ε̃_t}}(r),  ε̃_t = log(1 + (e^ε − 1)/δ_t)
 *
 * with the same r = D/σ at every step.  The adaptive recursion drives δ
 * down doubly exponentially (10 steps at r = 2 reach 10^(−2.9·10^44)), so
 * every row carries log δ as well; the grid stops before the library's floor
 * 10^(−10^100), below which it reports only a bound.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bounds/contraction.h"
#include "vectors/vectors.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const EPS[] = {"0", "0.5", "1", "4"};
static const char *const R[] = {"0.5", "1", "2", "8"};
static const char *const DELTA0[] = {"1", "1e-5"};
static const unsigned long PRODUCT_STEPS[] = {1, 10, 100, 10000};
/* Adaptive: log δ roughly squares per step once small (at r = 0.5 from
 * δ0 = 1e-5, five steps reach about 10^(-1.7e43), seven the floor). */
static const unsigned long ADAPTIVE_STEPS[] = {1, 2, 3, 5};
/* Longer adaptive chains where they stay above the floor; the first is the
 * README's example (10 steps at r = 2 from δ0 = 0.1: 10^(-2.9e44)). */
static const struct {
    const char *eps, *r;
    unsigned long steps;
    const char *delta0;
} ADAPTIVE_EXTRA[] = {{"1", "2", 10, "0.1"}, {"1", "8", 10, "1"}, {"0.5", "8", 30, "1"}};

typedef struct {
    ul_contraction_problem pb;
} contraction_ctx;

static ul_status eval_contraction(void *ctx, const ul_num_precision *want, ul_num_value *out,
                                  char *err, size_t errlen)
{
    const contraction_ctx *c = ctx;
    bool floor = false;
    ul_num_report rep;
    ul_status st = ul_contraction_delta_certified(&c->pb, want, out, &floor, &rep, err, errlen);
    if ((st == UL_OK || st == UL_ECAP) && floor)
        return ul_fail(err, errlen, UL_EINPUT,
                       "below the floor 10^(-10^100): only a bound (shrink the grid)");
    return st;
}

static ul_status row(ul_vec_table *t, ul_contraction_mode mode, const char *eps, const char *r,
                     unsigned long steps, const char *delta0, char *err, size_t errlen)
{
    const char *mode_name = mode == UL_CONTRACTION_PRODUCT ? "product" : "adaptive";
    const char *rs[1] = {r};
    contraction_ctx c = {{eps, rs, 1, steps, delta0, mode}};
    ul_num_value v;
    ul_num_value_init(&v, 64);
    char why[256] = "";
    ul_status st = ul_vec_certify(t, eval_contraction, &c, true, &v, why, sizeof why);
    if (st == UL_OK) {
        ul_vec_put_text(t, mode_name);
        ul_vec_put_text(t, eps);
        ul_vec_put_text(t, r);
        ul_vec_put_ulong(t, steps);
        ul_vec_put_text(t, delta0);
        ul_vec_put_value(t, &v);
        ul_vec_put_log_value(t, &v);
        ul_vec_row_end(t);
    } else {
        ul_fail(err, errlen, st, "mode=%s eps=%s r=%s steps=%lu delta0=%s: %s", mode_name, eps, r,
                steps, delta0, why);
    }
    ul_num_value_clear(&v);
    return st;
}

static ul_status mode_rows(ul_vec_table *t, ul_contraction_mode mode, const unsigned long *steps,
                           size_t n_steps, char *err, size_t errlen)
{
    ul_status st = UL_OK;
    for (size_t d = 0; d < COUNT(DELTA0) && st == UL_OK; d++)
        for (size_t e = 0; e < COUNT(EPS) && st == UL_OK; e++)
            for (size_t i = 0; i < COUNT(R) && st == UL_OK; i++)
                for (size_t s = 0; s < n_steps && st == UL_OK; s++)
                    st = row(t, mode, EPS[e], R[i], steps[s], DELTA0[d], err, errlen);
    return st;
}

ul_status ul_vec_gen_contraction(ul_vec_table *t, char *err, size_t errlen)
{
    ul_vec_table_begin(t, t->digits, "mode,eps,r,steps,delta0", NULL, "delta,log_delta");
    ul_status st =
        mode_rows(t, UL_CONTRACTION_PRODUCT, PRODUCT_STEPS, COUNT(PRODUCT_STEPS), err, errlen);
    if (st == UL_OK)
        st = mode_rows(t, UL_CONTRACTION_ADAPTIVE, ADAPTIVE_STEPS, COUNT(ADAPTIVE_STEPS), err,
                       errlen);
    for (size_t i = 0; i < COUNT(ADAPTIVE_EXTRA) && st == UL_OK; i++)
        st = row(t, UL_CONTRACTION_ADAPTIVE, ADAPTIVE_EXTRA[i].eps, ADAPTIVE_EXTRA[i].r,
                 ADAPTIVE_EXTRA[i].steps, ADAPTIVE_EXTRA[i].delta0, err, errlen);
    return st;
}
