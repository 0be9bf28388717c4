/* src/vectors/check_fly.c — a row of RESULTS whose inputs are not among the
 * vectors, computed on the fly by the same certified functions the
 * families' generators call (bounds/gaussian.h, bounds/renyi.h), certified
 * to the same digits and written in the same columns (ul_vec_certify,
 * ul_vec_put_value), so that it is checked exactly as a vector row is.
 *
 * Families whose generators run fixed settings (contraction chains, PLD
 * brackets, Langevin and Noisy-GD tables with their derived constants) are
 * not computed here: their rows outside the vectors are UNMATCHED.
 */
#include <string.h>

#include "bounds/gaussian.h"
#include "bounds/renyi.h"
#include "vectors/check_internal.h"

typedef enum { FLY_THETA, FLY_SIGMA, FLY_EPS, FLY_RDP_EPS, FLY_RDP_DELTA, FLY_SGM } fly_kind;

/* The header each generator writes (fam_gaussian.c, fam_renyi.c). */
static const struct {
    const char *family, *inputs, *reals;
    fly_kind kind;
    bool with_log;
} FLY[] = {
    {"theta", "eps,r", "theta,log_theta", FLY_THETA, true},
    {"gauss-sigma", "eps,delta", "sigma", FLY_SIGMA, false},
    {"gauss-eps", "r,delta", "eps", FLY_EPS, false},
    {"rdp-to-eps", "conversion,alpha,rdp,delta", "eps", FLY_RDP_EPS, false},
    {"rdp-to-delta", "conversion,alpha,rdp,eps", "delta,log_delta", FLY_RDP_DELTA, true},
    {"sgm-rdp", "q,sigma,alpha", "rdp", FLY_SGM, false},
};
#define NFLY (sizeof FLY / sizeof FLY[0])

static long fly_index(const char *family)
{
    for (size_t i = 0; i < NFLY; i++)
        if (strcmp(FLY[i].family, family) == 0)
            return (long)i;
    return -1;
}

bool ul_vchk_on_the_fly(const char *family)
{
    return fly_index(family) >= 0;
}

typedef struct {
    fly_kind kind;
    const char *const *in;
} fly_ctx;

/* The inverses set the precision of the interval they are given (as
 * fam_gaussian.c relies on), so out's enclosure takes them directly. */
static ul_status inverse(const fly_ctx *c, const ul_num_precision *want, ul_num_value *out,
                         char *err, size_t errlen)
{
    ul_num_report rep;
    out->is_log = false;
    if (c->kind == FLY_SIGMA)
        return ul_gauss_sigma_min(c->in[0], c->in[1], "1", want, out->enclosure, &rep, err,
                                  errlen);
    return ul_gauss_eps_min(c->in[0], c->in[1], want, out->enclosure, &rep, err, errlen);
}

static ul_status fly_eval(void *ctx, const ul_num_precision *want, ul_num_value *out, char *err,
                          size_t errlen)
{
    const fly_ctx *c = ctx;
    const char *const *in = c->in;
    ul_num_report rep;
    ul_rdp_conversion conv;
    switch (c->kind) {
    case FLY_THETA:
        return ul_gauss_theta_certified(in[0], in[1], want, out, &rep, err, errlen);
    case FLY_SIGMA:
    case FLY_EPS:
        return inverse(c, want, out, err, errlen);
    case FLY_SGM:
        return ul_renyi_sgm_rdp_certified(in[0], in[1], in[2], want, out, &rep, err, errlen);
    case FLY_RDP_EPS:
    case FLY_RDP_DELTA:
        break;
    }
    ul_status st = ul_renyi_parse_conversion(in[0], &conv, err, errlen);
    if (st != UL_OK)
        return st;
    if (c->kind == FLY_RDP_DELTA)
        return ul_renyi_rdp_to_delta_certified(in[1], in[2], in[3], conv, want, out, &rep, err,
                                               errlen);
    return ul_renyi_rdp_to_dp_certified(in[1], in[2], in[3], conv, want, out, &rep, err, errlen);
}

ul_status ul_vchk_fly_row(const char *family, const char *const *in, int digits, ul_vec_table *t,
                          char *err, size_t errlen)
{
    long i = fly_index(family);
    if (i < 0)
        return ul_fail(err, errlen, UL_EINPUT, "%s: no rows on the fly", family);
    ul_vec_table_begin(t, digits, FLY[i].inputs, NULL, FLY[i].reals);
    fly_ctx c = {FLY[i].kind, in};
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_status st = ul_vec_certify(t, fly_eval, &c, FLY[i].with_log, &v, err, errlen);
    if (st == UL_OK) {
        for (size_t k = 0; k < t->ncols - (FLY[i].with_log ? 8 : 4); k++)
            ul_vec_put_text(t, in[k]);
        ul_vec_put_value(t, &v);
        if (FLY[i].with_log)
            ul_vec_put_log_value(t, &v);
        ul_vec_row_end(t);
    }
    ul_num_value_clear(&v);
    return st;
}
