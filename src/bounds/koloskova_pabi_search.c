/* src/bounds/koloskova_pabi_search.c — gradient clipping, PABI (Koloskova
 * et al. 2025, docs/neural-unlearning.md, "Gradient clipping"): what an audit needs beside
 * koloskova_pabi.c's ρ_eff — the (ε, δ) of the linear RDP curve α·ρ_eff, the
 * largest ρ_eff reaching a claim (searched in doubles, certified once), the
 * Rényi bound α·ρ_eff and the noise that would reach a claim — and the
 * public code's recipes in doubles (pabi_steps with double ceil, its
 * conversion over a grid), which only choose what the certified functions
 * evaluate.  Entry points: koloskova_pabi.h, "PABI: claims and searches". */
#include "bounds/koloskova_pabi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "num/input.h"

/* The linear RDP curve ρ(α) = α·ρ with ρ an enclosure (at its precision) or
 * a decimal text. */

ul_status ul_kol_linear_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err, size_t errlen)
{
    const ul_kol_linear_ctx *l = ctx;
    ul_status st = UL_OK;
    if (l->rho_text != NULL) {
        mpfi_t r;
        mpfi_init2(r, mpfi_get_prec(rho) + 8);
        st = ul_num_read_checked(r, "rho", l->rho_text, NULL, false, NULL, false, err, errlen);
        if (st == UL_OK)
            mpfi_mul(rho, alpha, r);
        mpfi_clear(r);
    } else {
        mpfi_mul(rho, alpha, l->rho);
    }
    return st;
}

/* The certified ε at delta of the linear curve α·ρ (ρ as text); false when
 * not computable. */
static bool linear_eps(const char *rho_text, const char *delta, ul_rdp_conversion conv, int digits,
                       ul_num_value *eps)
{
    ul_kol_linear_ctx l = {NULL, rho_text};
    ul_rdp_curve curve = {ul_kol_linear_curve, &l};
    ul_num_precision w = {digits, 0, 0};
    ul_num_report nr;
    char alpha[UL_RENYI_ALPHA_TEXT_LEN], e[256];
    ul_status st = ul_renyi_curve_certified(UL_RDP_TO_EPS, &curve, 1e15, delta, conv, &w, eps,
                                            alpha, sizeof alpha, &nr, e, sizeof e);
    return st == UL_OK || st == UL_ECAP;
}

/* The linear curve in doubles (renyi.h's ul_rdp_curve_d; ctx: ρ). */
static double linear_curve_d(double alpha, const void *ctx)
{
    return alpha * *(const double *)ctx;
}

/* ε of D_α ≤ α·ρ at log δ = ld in doubles, minimised over α ∈ (1, 1e15] by
 * renyi.h's search (Balle et al. 2020 Thm 21 with its clamp at 0 and KL
 * shortcut, or Mironov 2017 Prop. 3).  A search aid only, never a bound. */
static double linear_eps_d(double rho, double ld, ul_rdp_conversion conv)
{
    if (conv == UL_RDP_BBGHS && 2 * ld >= log(-expm1(-rho)))
        return 0;
    ul_rdp_curve_d curve = {linear_curve_d, &rho};
    double eps = NAN;
    ul_renyi_search_alpha_d(UL_RDP_TO_EPS, &curve, 1e15, ld, conv, &eps);
    return isnan(eps) ? INFINITY : fmax(0, eps);
}

/* The largest ρ (6 significant digits, rounded down) whose certified ε at
 * delta is ≤ eps: bisection in log ρ below rho_hi in doubles, then the
 * candidate certified; false when none is found. */
bool ul_kol_pabi_largest_rho(const char *eps, const char *delta, ul_rdp_conversion conv,
                             mpfi_srcptr rho_bound, char *out, size_t outlen)
{
    mpfr_t target;
    mpfr_init2(target, 256);
    mpfr_set_str(target, eps, 10, MPFR_RNDD);
    ul_num_value v;
    ul_num_value_init(&v, 64);
    double rho_hi = mpfr_get_d(&rho_bound->right, MPFR_RNDU);
    double lo = log(rho_hi) - 60, hi = log(rho_hi), e = strtod(eps, NULL);
    double ld = ul_kol_log_decimal_d(delta);
    char text[64];
    bool found = false;
    for (int it = 0; it < 80; it++) {
        double mid = 0.5 * (lo + hi);
        if (linear_eps_d(exp(mid), ld, conv) <= e)
            lo = mid;
        else
            hi = mid;
    }
    /* certify the final candidate, cut down to 6 significant digits (a few
     * units lower if the search's double arithmetic put it just above ρ*) */
    double x = exp(lo);
    int e10 = (int)floor(log10(x)) - 5;
    long mant = (long)floor(x / pow(10, e10));
    for (int tries = 0; tries < 4 && !found && mant > 0; tries++, mant--) {
        char digs[32];
        int nd = snprintf(digs, sizeof digs, "%ld", mant);
        snprintf(text, sizeof text, "%c.%se%d", digs[0], digs + 1, e10 + nd - 1);
        if (linear_eps(text, delta, conv, 8, &v) && mpfr_lessequal_p(&v.enclosure->right, target)) {
            snprintf(out, outlen, "%s", text);
            found = true;
        }
    }
    ul_num_value_clear(&v);
    mpfr_clear(target);
    return found;
}

/* The code's pabi_steps in double precision (np.ceil of double quotients,
 * docs/neural-unlearning.md, Errata K7): a FAULTY RECIPE for forensics. */
double ul_kol_pabi_code_steps_d(const ul_kol_pabi_problem *pb)
{
    double c0 = strtod(pb->c0, NULL), c1 = strtod(pb->c1, NULL), lr = strtod(pb->lr, NULL),
           lam = strtod(pb->lambda, NULL);
    double t = ceil(c0 / (c1 * lr));
    if (lam != 0) {
        double t1 = ceil(log(lam * 2 * c0 / c1) / (lr * lam));
        if (t1 > 0 && t1 < t)
            t = t1;
    }
    return t;
}

/* The public code's conversion in doubles (docs/neural-unlearning.md, "Public code", dp_accountant;
 * docs/neural-unlearning.md, Errata K1: ε_R at every order, min over linspace(1.001, 1000, 10000)):
 * only to decide whether the certified recipe is worth evaluating. */
double ul_kol_pabi_code_eps_d(double eps_r, double ld)
{
    double best = INFINITY;
    for (int i = 0; i < 10000; i++) {
        double a = 1.001 + i * 998.999 / 9999.0;
        double e = eps_r + log((a - 1) / a) - (ld + log(a)) / (a - 1);
        best = e < best ? e : best;
    }
    return best;
}

/* D_α ≤ α·ρ_eff (Feldman et al. 2018 Thm 22; docs/neural-unlearning.md, "Gradient clipping") at the
 * decimal α `order`: out (plain) at rho's precision. */
void ul_kol_pabi_renyi_bound(ul_num_value *out, const char *order, const ul_num_value *rho)
{
    mpfr_prec_t p = mpfi_get_prec(rho->enclosure);
    mpfi_set_prec(out->enclosure, p);
    mpfi_t a;
    mpfi_init2(a, p);
    ul_num_set_valid(a, order); /* a field the reader accepted */
    mpfi_mul(out->enclosure, a, rho->enclosure);
    out->is_log = false;
    mpfi_clear(a);
}

/* The largest ρ_eff with α·ρ_eff ≤ value: value/α, at need's precision;
 * false when it is 0 or a text is not a decimal in range. */
bool ul_kol_pabi_rho_for_renyi(mpfi_ptr need, const char *value, const char *order)
{
    mpfi_t a;
    mpfi_init2(a, mpfi_get_prec(need));
    bool ok = ul_num_set_decimal(need, value) == UL_OK && ul_num_set_decimal(a, order) == UL_OK;
    if (ok)
        mpfi_div(need, need, a);
    mpfi_clear(a);
    return ok && !mpfi_is_zero(need);
}

/* δ at ε of the linear curve α·ρ (ρ an enclosure), α searched over
 * (1, 1e15] (renyi.h, ul_renyi_curve_certified, TO_DELTA); log form. */
ul_status ul_kol_pabi_delta_at_eps(mpfi_srcptr rho, const char *eps, ul_rdp_conversion conv,
                                   const ul_num_precision *want, ul_num_value *delta,
                                   ul_num_report *rep, char *err, size_t errlen)
{
    ul_kol_linear_ctx l = {rho, NULL};
    ul_rdp_curve curve = {ul_kol_linear_curve, &l};
    char alpha[UL_RENYI_ALPHA_TEXT_LEN];
    return ul_renyi_curve_certified(UL_RDP_TO_DELTA, &curve, 1e15, eps, conv, want, delta, alpha,
                                    sizeof alpha, rep, err, errlen);
}

/* The noise reaching ρ* = need from ρ_eff = rho (docs/neural-unlearning.md, "Gradient clipping":
 * ρ_eff = B²/(2 Σ_t w_t² σ_t²) scales as 1/σ² when every σ_t is scaled alike, and the
 * code's schedules, σ² ∝ 1/ε_R, give ρ_eff ∝ ε_R): given noise, one σ:
 * σ·√(ρ_eff/ρ*); given noise, a list: the factor √(ρ_eff/ρ*) on every σ_t;
 * a code schedule: ε_R·ρ* / ρ_eff.  out at its own precision. */
void ul_kol_pabi_noise_needed(mpfi_ptr out, const ul_kol_pabi_problem *pb, mpfi_srcptr rho,
                              mpfi_srcptr need)
{
    if (pb->noise != UL_KOL_PABI_GIVEN) {
        ul_num_set_valid(out, pb->eps_renyi); /* fields the reader accepted */
        mpfi_mul(out, out, need);
        mpfi_div(out, out, rho);
        return;
    }
    mpfi_div(out, rho, need);
    mpfi_sqrt(out, out);
    if (pb->n_sigma == 1) {
        mpfi_t s;
        mpfi_init2(s, mpfi_get_prec(need));
        ul_num_set_valid(s, pb->sigma[0]);
        mpfi_mul(out, out, s);
        mpfi_clear(s);
    }
}
