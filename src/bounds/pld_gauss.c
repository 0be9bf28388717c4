/* src/bounds/pld_gauss.c — the phase API's exact path: compositions of plain
 * Gaussian mechanisms (every q = 1) need no FFT.
 *
 * The privacy loss of one Gaussian step with ratio r is N(r²/2, r²) under P
 * (pld.h); independent losses add, so T_i steps of ratio r_i, over every
 * phase, have the loss N(R²/2, R²) with R² = Σ_i T_i r_i², the loss of one
 * Gaussian step of ratio R.  Hence δ(ε) = θ_{e^ε}(R) exactly (Balle & Wang
 * 2018, "Improving the Gaussian mechanism for differential privacy", ICML,
 * Thm 8; the composition: Dong, Roth & Su 2022, "Gaussian differential
 * privacy", JRSS B, Cor. 3.3, μ = R).  The Gaussian pair is symmetric, so
 * the add and remove directions coincide; replacement has already doubled r
 * (mech_finish).  Both queries are enclosures of that closed form
 * (bounds/gaussian.h), with R enclosed from the exact inputs: no grid, no
 * rounding budget, and δ down to the exponent range of MPFR.
 */
#include <math.h>
#include <string.h>

#include "bounds/gaussian.h"
#include "bounds/pld_internal.h"
#include "num/domain.h"
#include "num/threshold.h"

bool ul_pld_all_gaussian(const mech *ms, size_t nm)
{
    for (size_t i = 0; i < nm; i++)
        if (ms[i].subsampled)
            return false;
    return true;
}

/* R ⊇ √(Σ T_i r_i²) at INPUT_PREC (each r_i is an enclosure of the exact ratio). */
static void composed_ratio(mpfi_ptr R, const mech *ms, size_t nm)
{
    mpfi_t t;
    mpfi_init2(t, INPUT_PREC);
    mpfi_set_ui(R, 0);
    for (size_t i = 0; i < nm; i++) {
        mpfi_sqr(t, ms[i].r);
        mpfi_mul_ui(t, t, ms[i].steps);
        mpfi_add(R, R, t);
    }
    mpfi_sqrt(R, R);
    mpfi_clear(t);
}

/* What the report says of the exact path: no grid, no FFT, no budget. */
static void exact_report(ul_pld_report *rep)
{
    if (rep == NULL)
        return;
    memset(rep, 0, sizeof *rep);
    rep->exact_gaussian = true;
    rep->rounds = 1;
    rep->direction = UL_PLD_REMOVE;
}

ul_status ul_pld_gauss_delta(const mech *ms, size_t nm, mpfi_srcptr eps, mpfr_ptr delta_lo,
                             mpfr_ptr delta_hi, ul_pld_report *report)
{
    mpfi_t R, lt;
    mpfi_init2(R, INPUT_PREC);
    mpfi_init2(lt, INPUT_PREC);
    composed_ratio(R, ms, nm);
    ul_gauss_log_theta_enclose(lt, eps, R); /* R > 0: a finite enclosure */
    mpfr_exp(delta_lo, &lt->left, MPFR_RNDD);
    mpfr_exp(delta_hi, &lt->right, MPFR_RNDU);
    if (mpfr_cmp_ui(delta_hi, 1) > 0) /* δ ≤ 1 always */
        mpfr_set_ui(delta_hi, 1, MPFR_RNDU);
    exact_report(report);
    mpfi_clear(R);
    mpfi_clear(lt);
    return UL_OK;
}

/* ε ↦ θ_{e^ε}(R) against δ, for the threshold search (num/threshold.h). */
typedef struct {
    mpfi_t R, log_delta;
} eps_ctx;

static void log_theta_at(mpfi_ptr out, mpfr_srcptr x, mpfr_prec_t prec, const eps_ctx *c)
{
    mpfi_t e;
    mpfi_init2(e, mpfr_get_prec(x));
    mpfi_set_fr(e, x);
    mpfi_set_prec(out, prec > INPUT_PREC ? prec : INPUT_PREC);
    ul_gauss_log_theta_enclose(out, e, c->R);
    mpfi_clear(e);
}

static ul_side eps_side(mpfr_srcptr x, mpfr_prec_t prec, void *ctx)
{
    const eps_ctx *c = ctx;
    mpfi_t lt;
    mpfi_init2(lt, prec);
    log_theta_at(lt, x, prec, c);
    ul_side s = mpfr_less_p(&lt->right, &c->log_delta->left)      ? UL_SIDE_SAFE
                : mpfr_greater_p(&lt->left, &c->log_delta->right) ? UL_SIDE_UNSAFE
                                                                   : UL_SIDE_UNDECIDED;
    mpfi_clear(lt);
    return s;
}

/* log θ − log δ at the midpoints: negative on the safe side (an estimate). */
static bool eps_estimate(mpfr_ptr g, mpfr_srcptr x, mpfr_prec_t prec, void *ctx)
{
    const eps_ctx *c = ctx;
    mpfi_t lt;
    mpfi_init2(lt, prec);
    log_theta_at(lt, x, prec, c);
    mpfr_t a, b;
    mpfr_inits2(prec, a, b, (mpfr_ptr)0);
    mpfi_mid(a, lt);
    mpfi_mid(b, c->log_delta);
    mpfr_sub(g, a, b, MPFR_RNDN);
    bool ok = mpfr_number_p(g);
    mpfr_clears(a, b, (mpfr_ptr)0);
    mpfi_clear(lt);
    return ok;
}

ul_status ul_pld_gauss_eps(const mech *ms, size_t nm, mpfi_srcptr delta, double rel_width,
                           mpfr_ptr eps_lo, mpfr_ptr eps_hi, ul_pld_report *report, char *err,
                           size_t errlen)
{
    eps_ctx c;
    mpfi_init2(c.R, INPUT_PREC);
    mpfi_init2(c.log_delta, INPUT_PREC);
    composed_ratio(c.R, ms, nm);
    mpfi_log(c.log_delta, delta);
    exact_report(report);
    ul_status st = UL_OK;
    mpfr_t zero;
    mpfr_init2(zero, 2);
    mpfr_set_zero(zero, 1);
    /* θ decreases in ε: when ε = 0 is certified safe, ε(δ) = 0 exactly */
    if (eps_side(zero, INPUT_PREC, &c) == UL_SIDE_SAFE) {
        mpfr_set_zero(eps_lo, 1);
        mpfr_set_zero(eps_hi, 1);
    } else {
        /* digits for rel_width: |safe − unsafe| ≤ 10^(1−d)/4·min (threshold.h) */
        int digits = (int)ceil(1 - log10(4 * rel_width));
        ul_num_precision want = {digits < 3 ? 3 : digits > 30 ? 30 : digits, 0, 0};
        mpfr_t safe, unsafe;
        mpfr_inits2(INPUT_PREC, safe, unsafe, (mpfr_ptr)0);
        ul_num_report nr;
        st = ul_num_bracket_threshold_est(eps_side, eps_estimate, &c, true, &want, safe, unsafe,
                                          &nr, err, errlen);
        if (st == UL_OK || (st == UL_ECAP && mpfr_number_p(unsafe))) {
            mpfr_set(eps_hi, safe, MPFR_RNDU);
            mpfr_set(eps_lo, unsafe, MPFR_RNDD);
        } else if (st == UL_ECAP) { /* no unsafe point: 0 is the only lower bound */
            mpfr_set(eps_hi, safe, MPFR_RNDU);
            mpfr_set_zero(eps_lo, 1);
        }
        mpfr_clears(safe, unsafe, (mpfr_ptr)0);
    }
    mpfr_clear(zero);
    mpfi_clear(c.R);
    mpfi_clear(c.log_delta);
    return st;
}
