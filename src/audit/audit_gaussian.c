/* src/audit/audit_gaussian.c — audit handlers for the Gaussian mechanism and
 * for output perturbation (the Koloskova et al. baseline), and their
 * calibration.
 *
 * ==== Schema ==============================================================
 *
 * method "gaussian-mechanism": one release x + N(0, σ²I) of a query with ℓ2
 * sensitivity Δ, or T of them composed (adaptively or not), or k releases
 * each with its own σ_i (and Δ_i).
 *
 *   parameters.sensitivity   decimal, 0 < Δ ≤ 1e100, or a list of k such (one per release):
 *                            ℓ2 sensitivity of the query (for a list: the distance between
 *                            the i-th release's means, for one pair of neighbouring data sets)
 *   parameters.sigma         decimal, 0 < σ ≤ 1e100, or a list of k such (one per release):
 *                            noise standard deviation (variance σ², not 2ησ²); required by
 *                            `audit`, filled in (one value) by `calibrate`
 *   parameters.compositions  count ≥ 1 (default 1)    T releases composed: exactly one Gaussian
 *                            mechanism with r = Δ·√T/σ (Dong, Roth, Su 2019, composition of GDP);
 *                            with a list, absent or equal to its length k
 *   Lists: at most GAUSS_MAX_RELEASES values; two lists have the same length; a
 *   single value stands for every release; the σ_i are fixed in advance (a
 *   schedule chosen from earlier outputs needs a privacy filter instead).  r² = Σ_i (Δ_i/σ_i)²: the product of
 *   N(0, σ_i²) against N(Δ_i, σ_i²), each coordinate scaled by 1/σ_i, is N(0, I)
 *   against N(v, I) with ‖v‖ = r, one Gaussian mechanism by rotation invariance
 *   (Dong, Roth, Su 2019: μ-GDP composes to √(Σ μ_i²)-GDP).  r² is formed as an
 *   exact rational when the terms are small (GAUSS_EXACT_BITS), else enclosed
 *   by outward-rounded sums; every verdict is decided on the enclosure's side
 *   that hurts the claimant (supported needs θ at r_hi ≤ δ, refuted θ at r_lo > δ).
 *   claim.eps, claim.delta   decimals, 0 ≤ ε ≤ 1e9, 0 ≤ δ ≤ 1: claimed (ε, δ)-DP
 *   claim.renyi_order, claim.renyi_value
 *                            decimals, 1 < α ≤ 1e12, 0 ≤ ρ ≤ 1e12: claimed (α, ρ)-RDP
 *   (a claim holds either eps and delta, or renyi_order and renyi_value)
 *   stated                   no fields
 *
 *   Guarantee: δ(ε) = θ_{e^ε}(r), r = Δ√T/σ, the EXACT privacy profile of the
 *   Gaussian mechanism (Balle & Wang 2018, Thm 8; docs/neural-unlearning.md, "Hockey-stick
 * divergence of Gaussians"), so
 *   a claim below it is refuted, not merely unsupported.  Rényi: D_α = α·r²/2
 *   exactly (Mironov 2017, Prop. 7; additive under composition), decided in
 *   exact rational arithmetic.
 *
 * method "output-perturbation": the Koloskova et al. baseline ("dp-baseline",
 * docs/neural-unlearning.md, "Output perturbation"): x = clip(x̂, C0) + N(0, σ²I), a Gaussian
 * mechanism with ℓ2 sensitivity 2·C0, followed by post-processing.
 *
 *   parameters.c0            decimal, 0 < C0 ≤ 1e100  radius of the initial clip
 *   parameters.sigma         decimal, 0 < σ ≤ 1e100   noise standard deviation; required by
 *                            `audit`, filled in by `calibrate`
 *   claim.eps, claim.delta   decimals, 0 ≤ ε ≤ 1e9, 0 ≤ δ ≤ 1
 *   stated.sigma_classic     decimal > 0 (optional): the σ the certificate says the classic
 *                            rule σ = 2·C0·√(2 ln(1.25/δ))/ε gives for the claimed (ε, δ)
 *
 *   Guarantee: δ = θ_{e^ε}(2·C0/σ), exact (corrected variant).  The printed
 *   rule, the classic Gaussian mechanism δ = 1.25·exp(−ε²σ²/(8·C0²))
 *   (Dwork–Roth Thm A.1, valid for ε < 1; not an upper bound on θ beyond
 *   ε ≈ 3.787, docs/neural-unlearning.md, "Simplified Gaussian bound"), is reported as the other
 * variant.
 *
 * Forensics (both methods, when the claim is not supported): the claimed δ
 * is compared with θ computed with Q = (1 − erf)/2 in double and on the
 * float32 path, and with the classic δ; the given σ with the classic σ
 * (audit/forensics.h).
 *
 * Calibration: σ is set to the upper end of the certified enclosure of the
 * smallest σ reaching the claim (ul_gauss_sigma_min, the certified safe
 * end), rounded up to --digits significant digits, when σ is absent or does
 * not support the claim; the result is audited again and must be supported.
 */
#include <gmp.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/gaussian.h"
#include "bounds/koloskova_op.h"
#include "audit/audit.h"
#include "num/input.h"
#include "audit/audit_omitted.h"
#include "audit/audit_util.h"
#include "audit/forensics.h"
#include "num/encl.h"

/* ---- field tables ------------------------------------------------------------------ */

static const ul_field_spec GAUSS_PARAMS[] = {
    {.name = "sensitivity", .type = UL_FIELD_DECIMAL, .required = true,
     .domain = &ul_domain_sensitivity,
     .doc = "l2 sensitivity of the query", .exact = true},
    {.name = "sigma", .type = UL_FIELD_DECIMAL, .domain = &ul_domain_positive,
     .doc = "noise standard deviation (variance sigma^2)", .exact = true},
    {.name = "compositions", .type = UL_FIELD_COUNT, .lo = "1",
     .doc = "number of Gaussian releases composed",
     /* r = Δ√T/σ grows with T and θ_{e^ε}(r) with r (Balle & Wang 2018, Thm 8) */
     .omitted = "any number of releases: delta(eps) of T compositions grows to 1 with T, so no "
                "claim with delta < 1 is supported; one that fails at T = 1 fails for every T "
                "(refuted)"},
};
#define N_GAUSS_PARAMS (sizeof GAUSS_PARAMS / sizeof GAUSS_PARAMS[0])

static const ul_field_spec GAUSS_CLAIM[] = {
    UL_AUDIT_CLAIM_EPS(false, &ul_domain_eps, "claimed epsilon (natural log)"),
    UL_AUDIT_CLAIM_DELTA_CLOSED(false, "claimed delta"),
    {.name = "renyi_order",
     .type = UL_FIELD_DECIMAL,
     .domain = &ul_domain_alpha,
     .doc = "claimed Renyi order alpha > 1",
     .exact = true},
    {.name = "renyi_value",
     .type = UL_FIELD_DECIMAL,
     .domain = &ul_domain_rdp,
     .doc = "claimed Renyi divergence at that order",
     .exact = true},
};
#define N_GAUSS_CLAIM (sizeof GAUSS_CLAIM / sizeof GAUSS_CLAIM[0])

static const ul_field_spec OP_PARAMS[] = {
    {.name = "c0", .type = UL_FIELD_DECIMAL, .required = true, .domain = &ul_domain_positive,
     .doc = "radius C0 of the initial clip (sensitivity 2*C0)",
     .exact = true},
    {.name = "sigma", .type = UL_FIELD_DECIMAL, .domain = &ul_domain_positive,
     .doc = "noise standard deviation (variance sigma^2)", .exact = true},
};
#define N_OP_PARAMS (sizeof OP_PARAMS / sizeof OP_PARAMS[0])

static const ul_field_spec OP_CLAIM[] = {
    UL_AUDIT_CLAIM_EPS(true, &ul_domain_eps, "claimed epsilon (natural log)"),
    UL_AUDIT_CLAIM_DELTA_CLOSED(true, "claimed delta"),
};
#define N_OP_CLAIM (sizeof OP_CLAIM / sizeof OP_CLAIM[0])

static const ul_field_spec OP_STATED[] = {
    {.name = "sigma_classic", .type = UL_FIELD_DECIMAL, .domain = &ul_domain_positive,
     .doc = "the classic sigma 2*C0*sqrt(2*ln(1.25/delta))/eps the certificate states"},
};
#define N_OP_STATED (sizeof OP_STATED / sizeof OP_STATED[0])

/* ---- "one value or one per release" fields ------------------------------------------ */

/* The texts of a "decimal or list" field (items, or the one decimal); n = 0
 * when the field is absent. */
static const char *const *field_items(const ul_cert_value *v, size_t *n)
{
    if (v == NULL || !v->present) {
        *n = 0;
        return NULL;
    }
    if (v->type == UL_FIELD_DECIMAL_LIST) {
        *n = v->n_items;
        return v->items;
    }
    *n = 1;
    return &v->text;
}

/* ---- a certificate as read --------------------------------------------------------- */

/* Longest list of per-release values (a longer run of equal releases is
 * written with `compositions`). */
#define GAUSS_MAX_RELEASES 10000

typedef struct {
    bool is_op;              /* output perturbation (sensitivity 2·C0, T = 1) */
    const char *base;        /* Δ (gaussian) or C0 (op): decimal text (the first of a list) */
    const char *base_path;
    const char *sigma;       /* NULL when absent; the first of a list */
    const char *sigma_path;
    unsigned long long T;    /* compositions */
    bool T_omitted;          /* compositions left out with one value each (GAUSS_PARAMS) */
    const char *eps, *delta; /* NULL unless an (ε, δ) claim */
    const char *alpha, *rho; /* NULL unless a Rényi claim */
    const char *sigma_classic, *sigma_classic_path;
    size_t n_sens, n_sigma;  /* list lengths (1 for one value; n_sigma 0 when absent) */
    const char *const *sens_items, *const *sigma_items; /* their texts */
    size_t k;                /* releases with their own parameters: the longer list, else 1 */
    bool list;               /* k > 1 or a one-element list: the heterogeneous form */
    ul_gauss_comp comp;      /* the releases' terms, read exactly (bounds/gaussian.h);
                              * set once sigma is read (comp.u != NULL) */
} gcert;

static void gcert_clear(gcert *g)
{
    if (g->comp.u != NULL)
        ul_gauss_comp_clear(&g->comp);
}

static const char *path_of(const ul_cert_values *v, const char *name)
{
    const ul_cert_value *x = ul_cert_values_get(v, name);
    return x != NULL ? x->path : "$";
}

/* The claim: exactly one complete pair (ε, δ) or (α, ρ). */
static ul_status claim_check(const gcert *g, char *err, size_t errlen)
{
    bool dp = g->eps != NULL || g->delta != NULL, rdp = g->alpha != NULL || g->rho != NULL;
    if (dp && rdp)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.claim: holds both an (eps, delta) and a Renyi claim; give one per "
                       "certificate");
    if (!dp && !rdp)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.claim: missing the claim (eps and delta, or renyi_order and "
                       "renyi_value)");
    if (dp && (g->eps == NULL || g->delta == NULL))
        return ul_fail(err, errlen, UL_EINPUT, "$.claim.%s: missing required field (the claim "
                       "needs both eps and delta)", g->eps == NULL ? "eps" : "delta");
    if (rdp && (g->alpha == NULL || g->rho == NULL))
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.claim.%s: missing required field (a Renyi claim needs both "
                       "renyi_order and renyi_value)", g->alpha == NULL ? "renyi_order"
                                                                        : "renyi_value");
    return UL_OK;
}

/* The list lengths: equal when both are lists, at most GAUSS_MAX_RELEASES;
 * compositions only with one value each (or equal to the list's length). */
static ul_status lists_check(gcert *g, const ul_cert_value *t, char *err, size_t errlen)
{
    if (g->n_sens > 1 && g->n_sigma > 1 && g->n_sens != g->n_sigma)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: one value per release: %zu values, but %s has %zu (give lists of "
                       "the same length, or one value for every release)",
                       g->sigma_path, g->n_sigma, g->base_path, g->n_sens);
    g->k = g->n_sens > g->n_sigma ? g->n_sens : g->n_sigma;
    if (g->k > GAUSS_MAX_RELEASES)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: at most %d values (one per release; equal releases are counted by "
                       "compositions), got %zu",
                       g->n_sigma == g->k ? g->sigma_path : g->base_path, GAUSS_MAX_RELEASES,
                       g->k);
    if (g->list)
        g->T_omitted = false; /* the list gives the releases */
    if (g->list && t != NULL && t->present) {
        if (t->count != g->k)
            return ul_fail(err, errlen, UL_EINPUT,
                           "%s: the list of per-release values already gives the number of "
                           "releases (%zu); compositions must be absent or equal to it (got %llu)",
                           t->path, g->k, t->count);
        g->T = 1;
    }
    return UL_OK;
}

/* r = √(r²) ≤ UL_GAUSS_MAX_R: decided exactly when S is formed, else on its
 * enclosure (refused only when certainly above). */
static ul_status range_check(const gcert *g, char *err, size_t errlen)
{
    bool too_big = ul_gauss_comp_r_exceeds(&g->comp, UL_GAUSS_MAX_R);
    if (too_big)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: too small: the ratio r = %s must be at most %s (got '%s'%s)",
                       g->sigma_path,
                       g->is_op  ? "2*c0/sigma"
                       : g->list ? "sqrt(sum_i (sensitivity_i/sigma_i)^2)"
                                 : "sensitivity*sqrt(compositions)/sigma",
                       UL_GAUSS_MAX_R, g->sigma, g->n_sigma > 1 ? ", ..." : "");
    return UL_OK;
}

/* Reads the three objects.  need_sigma: audit (σ required) or calibrate. */
static ul_status gcert_read(const ul_cert *c, bool is_op, bool need_sigma, gcert *g, char *err,
                            size_t errlen)
{
    memset(g, 0, sizeof *g);
    g->is_op = is_op;
    g->T = 1;
    /* sensitivity and sigma: one value or a list (the shared reader switches
     * sigma; sensitivity is switched here in a copy of the table) */
    ul_field_spec specs[N_GAUSS_PARAMS];
    memcpy(specs, GAUSS_PARAMS, sizeof specs);
    const ul_json_value *sj = ul_json_get(ul_cert_object(c, "parameters"), "sensitivity");
    if (sj != NULL && sj->type == UL_JSON_ARRAY)
        specs[0].type = UL_FIELD_DECIMAL_LIST; /* GAUSS_PARAMS[0] is sensitivity */
    ul_cert_values p, cl, st;
    ul_status s =
        is_op ? ul_cert_read_object(c, "parameters", OP_PARAMS, N_OP_PARAMS, &p, err, errlen)
              : ul_audit_read_object_list(c, "parameters", specs, N_GAUSS_PARAMS, "sigma", &p, err,
                                          errlen);
    if (s == UL_OK)
        s = ul_cert_read_object(c, "claim", is_op ? OP_CLAIM : GAUSS_CLAIM,
                                is_op ? N_OP_CLAIM : N_GAUSS_CLAIM, &cl, err, errlen);
    if (s == UL_OK)
        s = ul_cert_read_object(c, "stated", is_op ? OP_STATED : NULL, is_op ? N_OP_STATED : 0,
                                &st, err, errlen);
    if (s != UL_OK)
        return s;

    const ul_cert_value *bv = ul_cert_values_get(&p, is_op ? "c0" : "sensitivity");
    const ul_cert_value *sv = ul_cert_values_get(&p, "sigma");
    const char *const *sens = field_items(bv, &g->n_sens);
    const char *const *sig = field_items(sv, &g->n_sigma);
    g->sens_items = sens;
    g->sigma_items = sig;
    g->list = bv->type == UL_FIELD_DECIMAL_LIST ||
              (sv->present && sv->type == UL_FIELD_DECIMAL_LIST);
    g->base = sens[0];
    g->base_path = bv->path;
    g->sigma = g->n_sigma > 0 ? sig[0] : NULL;
    g->sigma_path = sv->path;
    const ul_cert_value *t = is_op ? NULL : ul_cert_values_get(&p, "compositions");
    if (t != NULL && t->present)
        g->T = t->count;
    g->T_omitted = !is_op && (t == NULL || !t->present);
    g->eps = ul_audit_field_text(&cl, "eps");
    g->delta = ul_audit_field_text(&cl, "delta");
    g->alpha = ul_audit_field_text(&cl, "renyi_order");
    g->rho = ul_audit_field_text(&cl, "renyi_value");
    if (is_op) {
        g->sigma_classic = ul_audit_field_text(&st, "sigma_classic");
        g->sigma_classic_path = path_of(&st, "sigma_classic");
    }
    s = claim_check(g, err, errlen);
    if (s == UL_OK)
        s = lists_check(g, t, err, errlen);
    if (s == UL_OK && g->sigma == NULL && need_sigma)
        s = ul_fail(err, errlen, UL_EINPUT,
                    "%s: missing required field (the noise standard deviation; `ulaudit "
                    "calibrate` fills it in)", g->sigma_path);
    if (s == UL_OK) /* every decimal within the reader's limits (num/input.h) */
        ul_gauss_comp_init(&g->comp, sens, g->n_sens, g->is_op, sig, g->n_sigma, g->k, g->T);
    if (s != UL_OK || g->sigma == NULL)
        return s;
    return range_check(g, err, errlen);
}

/* ---- enclosures -------------------------------------------------------------------- */

/* θ at the claimed ε, through ul_kol_op_delta_certified for output
 * perturbation (which also lists its preconditions). */
static ul_status theta_at(const gcert *g, const ul_num_precision *want, ul_preconditions *pre,
                          ul_num_value *out, ul_num_report *nr, char *err, size_t errlen)
{
    if (g->is_op)
        return ul_kol_op_delta_certified(g->base, g->sigma, g->eps, want, pre, out, nr, err,
                                         errlen);
    ul_status st = ul_gauss_comp_theta(&g->comp, g->eps, want, out, nr, err, errlen);
    if (st == UL_EINPUT) /* the reader validated it: cannot happen */
        st = ul_fail(err, errlen, UL_EINPUT, "$.claim.eps: not a decimal number");
    return st;
}

/* σ* ⊇ the smallest σ with θ_{e^ε}(Δ√T/σ) ≤ δ, for 0 < δ < 1 (bounds/gaussian.h:
 * ul_gauss_comp_sigma_min).  The upper end is certified safe. */
static ul_status sigma_needed(const gcert *g, const ul_num_precision *want, mpfi_ptr sigma,
                              char *err, size_t errlen)
{
    ul_num_report nr = {0, false};
    return ul_gauss_comp_sigma_min(&g->comp, g->eps, g->delta, g->list ? NULL : g->base, g->is_op,
                                   want, sigma, &nr, err, errlen);
}

/* The smallest ε reached at the claimed δ by r (bounds/gaussian.h). */
static ul_status eps_needed(const gcert *g, const ul_num_precision *want, mpfi_ptr eps_out,
                            char *err, size_t errlen)
{
    return ul_gauss_comp_eps_min(&g->comp, g->delta, want, eps_out, err, errlen);
}

/* ---- the verdict, raising precision until it is decided ------------------------------ */

/* What one evaluation of decide_theta needs and gives. */
typedef struct {
    ul_audit_report *rep;
    const gcert *g;
    ul_num_value *theta;
} theta_decide_ctx;

/* θ at w, compared with the claimed δ. */
static ul_status theta_decide_once(void *ctx, const ul_num_precision *w, ul_verdict *verdict,
                                   bool *cap_hit, char *err, size_t errlen)
{
    theta_decide_ctx *d = ctx;
    ul_num_report nr = {0, false};
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_status st = theta_at(d->g, w, &pre, d->theta, &nr, err, errlen);
    if (st != UL_OK && st != UL_ECAP)
        return st;
    if (d->g->is_op)
        d->rep->pre = pre;
    *verdict = ul_audit_compare(d->rep, "delta", "delta = theta_{e^eps}(r) at the claimed eps",
                                d->theta, d->g->delta, true, w->digits);
    *cap_hit = nr.cap_hit;
    return UL_OK;
}

/* Computes θ at want->digits, compares, and while the enclosure straddles the
 * claim doubles the digits, until decided or the precision cap stops it (the
 * engine's loop, audit_util.h). */
static ul_status decide_theta(ul_audit_report *rep, const gcert *g, const ul_num_precision *want,
                              ul_num_value *theta, char *err, size_t errlen)
{
    theta_decide_ctx d = {rep, g, theta};
    return ul_audit_decide(theta_decide_once, &d, want, INT_MAX, &rep->verdict, NULL, err,
                           errlen);
}

/* ---- forensics ----------------------------------------------------------------------- */

/* The faulty recipes for a wrong (ε, δ) claim of a Gaussian mechanism. */
static void gauss_forensics(ul_audit_report *rep, const gcert *g)
{
    double eps = ul_forensic_double(g->eps), delta = ul_forensic_double(g->delta);
    double sens = ul_gauss_comp_sqrt_s_double(&g->comp); /* √S: Δ√T, or √(T·sens²·Σ u_i²) */
    double r = g->n_sigma > 1 ? sens : sens / ul_forensic_double(g->sigma);
    double exact = strtod(rep->recomputed.lo, NULL);
    int nd = ul_forensic_sig_digits(g->delta);

    double v = ul_forensic_theta_one_minus_erf(eps, r);
    if (ul_forensic_matches_digits(g->delta, v, 2)) {
        char how[64] = "";
        if (exact > 0 && v < exact)
            snprintf(how, sizeof how, ", understating delta by %.0f%%", 100.0 * (1.0 - v / exact));
        ul_audit_add_forensic(
            rep,
            "the claimed delta %s is theta with Q(x) = (1 - erf(x/sqrt 2))/2 in double "
            "(stair-lab src/utils/dp.py theta_epsilon; docs/accounting.md "
            "'Numerical soundness of theta_epsilon'), to its "
            "%d digits: 1 - erf cancels%s",
            g->delta, nd, how);
    }
    v = ul_forensic_theta_float32(eps, r);
    if (ul_forensic_matches_digits(g->delta, v, 2))
        ul_audit_add_forensic(
            rep,
            "the claimed delta %s is the same theta on the float32 path (the stair-lab "
            "code under JAX float32; docs/neural-unlearning.md, \"Public code\", Errata K2): Q off "
            "by ~6e-8",
            g->delta);
    if (eps > 0 && r > 0) {
        v = ul_forensic_classic_delta(eps, r);
        if (ul_forensic_matches_digits(g->delta, v, 2))
            ul_audit_add_forensic(
                rep,
                "the claimed delta %s is the classic bound 1.25*exp(-eps^2/(2 r^2)) "
                "(Dwork-Roth Thm A.1) used at eps = %s, outside its domain eps < 1 "
                "(no bound on theta beyond eps ~ 3.787, docs/neural-unlearning.md, \"Simplified "
                "Gaussian bound\")",
                g->delta, g->eps);
    }
    if (eps > 0 && delta > 0 && delta < 1 && g->n_sigma == 1) {
        v = ul_forensic_classic_sigma(sens, eps, delta);
        if (ul_forensic_matches_digits(g->sigma, v, 2))
            ul_audit_add_forensic(
                rep,
                "%s = %s is the classic calibration %s*sqrt(2 ln(1.25/delta))/eps for "
                "the claim (to its %d digits; Dwork-Roth Thm A.1%s) used at eps = %s, "
                "outside its domain eps < 1 (docs/neural-unlearning.md, \"Simplified Gaussian "
                "bound\")",
                g->sigma_path, g->sigma, g->is_op ? "2*C0" : "sensitivity",
                ul_forensic_sig_digits(g->sigma), g->is_op ? "; the stair-lab dp-baseline" : "",
                g->eps);
    }
}

/* Wrong compositions of a list of releases that reproduce the claimed δ:
 * the mean σ in place of each σ_i (r = √(Σ Δ_i²)/mean σ), or one release
 * alone (the largest Δ_i/σ_i), instead of r = √(Σ (Δ_i/σ_i)²). */
static void list_forensics(ul_audit_report *rep, const gcert *g)
{
    const char *const *sens = g->sens_items, *const *sig = g->sigma_items;
    double eps = ul_forensic_double(g->eps), d2 = 0, smean = 0, rmax = 0;
    for (size_t i = 0; i < g->k; i++) {
        double d = ul_forensic_double(sens[g->n_sens > 1 ? i : 0]);
        double s = g->n_sigma > 1 ? ul_forensic_double(sig[i]) : ul_forensic_double(g->sigma);
        d2 += d * d;
        smean += s / (double)g->k;
        rmax = fmax(rmax, d / s);
    }
    double rm = sqrt(d2 * (double)g->T) / smean;
    if (g->n_sigma > 1 && ul_forensic_matches_digits(g->delta, ul_forensic_theta(eps, rm), 2))
        ul_audit_add_forensic(rep,
                              "the claimed delta %s is theta at the mean sigma %.6g (r = %.6g): "
                              "averaging the sigmas is not composition (r = sqrt(sum_i "
                              "(Delta_i/sigma_i)^2))",
                              g->delta, smean, rm);
    if (ul_forensic_matches_digits(g->delta, ul_forensic_theta(eps, rmax), 2))
        ul_audit_add_forensic(rep,
                              "the claimed delta %s is theta of one release alone (the largest "
                              "Delta_i/sigma_i = %.6g): the other releases are not composed",
                              g->delta, rmax);
}

/* ---- the (ε, δ) audit ------------------------------------------------------------------ */

static void put_number_mpfi(ul_audit_number *n, const char *key, const char *label, mpfi_srcptr x,
                            int digits)
{
    ul_audit_number_set_mpfi(n, key, label, x, digits);
}

/* The theorem recomputed and the preconditions, for the (ε, δ) or the Rényi
 * claim of either method. */
static void set_theorem(ul_audit_report *rep, const gcert *g, bool renyi)
{
    if (g->is_op) {
        snprintf(rep->theorem, sizeof rep->theorem,
                 "delta = theta_{e^eps}(2*C0/sigma): the exact privacy profile of the Gaussian "
                 "mechanism with sensitivity 2*C0 (output perturbation, docs/neural-unlearning.md, "
                 "\"Output perturbation\"; Balle-Wang 2018 Thm 8)");
        snprintf(rep->variant, sizeof rep->variant, "corrected");
        return; /* the bound function lists the preconditions */
    }
    const char *what = renyi ? "D_alpha = alpha*r^2/2" : "delta = theta_{e^eps}(r)";
    const char *exact = renyi ? "exact (Mironov 2017 Prop. 7; additive, Prop. 1)"
                              : "the exact profile (Balle-Wang 2018 Thm 8; "
                                "docs/neural-unlearning.md, \"Hockey-stick divergence of "
                                "Gaussians\")";
    if (g->list)
        snprintf(rep->theorem, sizeof rep->theorem,
                 "%s, r = sqrt(sum_i (Delta_i/sigma_i)^2) over %zu releases, composed exactly "
                 "as one Gaussian (Dong-Roth-Su 2019: mu = sqrt(sum mu_i^2)); %s",
                 what, g->k, exact);
    else if (renyi)
        snprintf(rep->theorem, sizeof rep->theorem,
                 "D_alpha = alpha*r^2/2, r = sensitivity*sqrt(T)/sigma: the exact Renyi "
                 "divergence of the Gaussian mechanism (Mironov 2017 Prop. 7), additive under "
                 "composition (Prop. 1); decided in exact rational arithmetic");
    else
        snprintf(rep->theorem, sizeof rep->theorem,
                 "delta = theta_{e^eps}(r), r = sensitivity*sqrt(T)/sigma: the exact privacy "
                 "profile of the Gaussian mechanism (Balle-Wang 2018 Thm 8; "
                 "docs/neural-unlearning.md, \"Hockey-stick divergence of Gaussians\"), T "
                 "compositions being one Gaussian mechanism with r*sqrt(T)");
    ul_pre_clear(&rep->pre);
    ul_pre_add(&rep->pre, "sensitivity_positive",
               g->list ? "sensitivity > 0: l2 sensitivity of each released query"
                       : "sensitivity > 0: l2 sensitivity of the released query",
               UL_PRE_HOLDS);
    ul_pre_add(&rep->pre, "sigma_positive", "sigma > 0: standard deviation of the Gaussian noise",
               UL_PRE_HOLDS);
    if (renyi)
        ul_pre_add(&rep->pre, "renyi_order_gt_1", "alpha > 1: Renyi order (Mironov 2017 Def. 3)",
                   UL_PRE_HOLDS);
}

/* What output perturbation's printed rule says (the classic Gaussian
 * mechanism, Dwork-Roth Thm A.1, docs/neural-unlearning.md, "Simplified Gaussian bound"): its δ as
 * the other
 * variant (never the verdict), whether it over-claims (gives less than the
 * exact θ), and, for 0 < δ < 1, the classic σ against stated.sigma_classic
 * and whether it delivers δ.  *skipped: δ beyond exact rationals (below
 * 10^-20000, num/input.h), where the classic-σ checks (exact rational
 * arithmetic, bounds/koloskova.c) are not made. */
static ul_status op_classic(ul_audit_report *rep, const gcert *g, const ul_num_precision *want,
                            const ul_num_value *theta, bool delta_inner, bool *overclaims,
                            ul_pre_state *delivers, bool *skipped, char *err, size_t errlen)
{
    ul_num_value classic; /* 1.25·exp(−ε²/(2r²)) (bounds/gaussian.h) */
    ul_num_value_init(&classic, mpfi_get_prec(theta->enclosure) + 16);
    ul_gauss_comp_loose_delta(&classic, &g->comp, g->eps);
    ul_audit_number_set(&rep->other_variant, "delta_classic",
                        "printed rule: the classic Gaussian mechanism's delta "
                        "1.25*exp(-eps^2 sigma^2/(8 C0^2)) (Dwork-Roth Thm A.1, eps < 1 only)",
                        &classic, want->digits);
    /* the printed rule over-claims when it gives less than the exact δ */
    *overclaims = theta->is_log && mpfr_less_p(&classic.enclosure->right,
                                               &theta->enclosure->left);
    ul_num_value_clear(&classic);
    *skipped = delta_inner && ul_num_decimal_magnitude(g->delta, UL_NUM_EXACT_MAX_EXP10) != 0;
    if (!delta_inner || *skipped)
        return UL_OK;
    ul_num_value cs;
    ul_num_value_init(&cs, 64);
    mpfi_t exact;
    mpfi_init2(exact, 64);
    ul_num_report nr = {0, false};
    ul_preconditions pre2;
    ul_status s2 = ul_kol_op_sigma_certified(g->base, g->eps, g->delta, want, &pre2, &cs,
                                             delivers, exact, &nr, err, errlen);
    if ((s2 == UL_OK || s2 == UL_ECAP) && g->sigma_classic != NULL &&
        !ul_audit_stated_agrees(g->sigma_classic, &cs)) { /* the engine's rule */
        ul_audit_number n;
        ul_audit_number_set(&n, "sigma_classic", "", &cs, want->digits);
        snprintf(rep->first_wrong_stated, sizeof rep->first_wrong_stated,
                 "%s = %s, but 2*C0*sqrt(2*ln(1.25/delta))/eps is in [%s, %s]",
                 g->sigma_classic_path, g->sigma_classic, n.lo, n.hi);
    }
    ul_num_value_clear(&cs);
    mpfi_clear(exact);
    return s2 == UL_ECAP ? UL_OK : s2;
}

/* Appends the σ that would reach the claim (one σ: "sigma_needed"), or for a
 * σ list the factor c on every σ_i ("sigma_scale_needed"). */
static void put_sigma_reach(ul_audit_report *rep, const gcert *g, mpfi_srcptr x, int digits,
                            const char *what)
{
    char label[128];
    snprintf(label, sizeof label, "%s %s",
             g->n_sigma > 1 ? "the smallest factor c with every sigma_i*c reaching"
                            : "the smallest sigma that reaches",
             what);
    put_number_mpfi(&rep->would_reach[rep->n_would_reach++],
                    g->n_sigma > 1 ? "sigma_scale_needed" : "sigma_needed", label, x, digits);
}

/* The σ (or the factor on every σ_i) and the ε that would reach the claim. */
static ul_status eps_delta_reach(ul_audit_report *rep, const gcert *g,
                                 const ul_num_precision *want, char *err, size_t errlen)
{
    /* a few digits beyond those printed, so the printed ends are tight */
    ul_num_precision fine = *want;
    fine.digits = want->digits + 3;
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = sigma_needed(g, &fine, x, err, errlen);
    if (st == UL_OK)
        put_sigma_reach(rep, g, x, want->digits, "the claim (hi: certified safe)");
    if (st == UL_OK)
        st = eps_needed(g, &fine, x, err, errlen);
    if (st == UL_OK)
        put_number_mpfi(&rep->would_reach[rep->n_would_reach++], "eps_needed",
                        g->n_sigma > 1 ? "the smallest eps these sigmas reach at the claimed delta"
                                       : "the smallest eps this sigma reaches at the claimed delta",
                        x,
                        want->digits);
    mpfi_clear(x);
    return st;
}

/* The verdict in words. */
static void eps_delta_explain(ul_audit_report *rep, const gcert *g)
{
    const char *what = g->is_op ? "Output perturbation (noise N(0, sigma^2 I) added to the "
                                  "model clipped to radius C0, sensitivity 2*C0)"
                       : g->list ? "The composition of these Gaussian mechanisms"
                                 : "The Gaussian mechanism";
    switch (rep->verdict) {
    case UL_VERDICT_SUPPORTED:
        ul_audit_explain(rep,
                         "%s has the exact privacy profile delta(eps) = theta_{e^eps}(r); at the "
                         "claimed eps it is at most the claimed delta, so the claim holds.",
                         what);
        break;
    case UL_VERDICT_REFUTED:
        ul_audit_explain(rep,
                         "%s has the exact privacy profile delta(eps) = theta_{e^eps}(r), the "
                         "smallest delta any analysis can certify at that eps; at the claimed "
                         "eps it is larger than the claimed delta, so the claim is false.",
                         what);
        if (rep->n_would_reach > 1)
            ul_audit_explain(rep,
                             "%s >= %s would reach it; %s the claimed delta only at eps >= %s.",
                             g->n_sigma > 1 ? "Every sigma_i multiplied by a factor" : "sigma",
                             rep->would_reach[0].hi,
                             g->n_sigma > 1 ? "these sigmas reach" : "this sigma reaches",
                             rep->would_reach[1].lo);
        break;
    default:
        ul_audit_explain(rep,
                         "The enclosure of theta_{e^eps}(r) still straddles the claimed delta "
                         "at the precision cap (raise --max-bits).");
        break;
    }
}

static ul_status audit_eps_delta(const gcert *g, const ul_num_precision *want,
                                 ul_audit_report *rep, char *err, size_t errlen)
{
    snprintf(rep->claim, sizeof rep->claim, "(eps, delta) = (%s, %s)", g->eps, g->delta);
    set_theorem(rep, g, false);
    ul_num_value theta;
    ul_num_value_init(&theta, 64);
    ul_status st = decide_theta(rep, g, want, &theta, err, errlen);
    if (g->is_op)
        snprintf(rep->variant, sizeof rep->variant, "corrected");
    bool delta_inner = ul_audit_dcmp(g->delta, "0") > 0 && ul_audit_dcmp(g->delta, "1") < 0;
    /* output perturbation: the printed (classic) rule as the other variant */
    bool overclaims = false, skipped = false;
    ul_pre_state delivers = UL_PRE_UNDECIDED;
    if (st == UL_OK && g->is_op && ul_audit_dcmp(g->eps, "0") > 0)
        st = op_classic(rep, g, want, &theta, delta_inner, &overclaims, &delivers, &skipped, err,
                        errlen);
    if (st == UL_OK && rep->verdict != UL_VERDICT_SUPPORTED && delta_inner)
        st = eps_delta_reach(rep, g, want, err, errlen);
    if (st != UL_OK) {
        ul_num_value_clear(&theta);
        return st;
    }
    if (rep->verdict != UL_VERDICT_SUPPORTED)
        ul_audit_number_set(&rep->would_reach[rep->n_would_reach++], "delta",
                            g->n_sigma > 1 ? "the delta these sigmas reach at the claimed eps"
                                           : "the delta this sigma reaches at the claimed eps",
                            &theta,
                            want->digits);
    ul_num_value_clear(&theta);
    if (rep->verdict == UL_VERDICT_REFUTED || rep->verdict == UL_VERDICT_UNSUPPORTED)
        gauss_forensics(rep, g);
    if ((rep->verdict == UL_VERDICT_REFUTED || rep->verdict == UL_VERDICT_UNSUPPORTED) && g->list)
        list_forensics(rep, g);
    eps_delta_explain(rep, g);
    if (g->list) {
        mpfi_t r;
        mpfi_init2(r, 64);
        ul_gauss_comp_r(r, &g->comp);
        ul_audit_number n;
        ul_audit_number_set_mpfi(&n, "r", "", r, want->digits);
        mpfi_clear(r);
        ul_audit_explain(rep, "Here r = sqrt(sum_i (Delta_i/sigma_i)^2) is in [%s, %s].", n.lo,
                         n.hi);
    }
    if (overclaims)
        ul_audit_explain(rep,
                         "The printed rule (the classic Gaussian mechanism, delta = "
                         "1.25*exp(-eps^2 sigma^2/(8 C0^2))) over-claims here: it gives delta "
                         "<= %s, less than the exact delta; it holds only for eps < 1 and is no "
                         "bound on the exact delta at eps = %s.",
                         rep->other_variant.hi, g->eps);
    if (skipped)
        ul_audit_explain(rep, "The classic sigma is not checked: it needs delta as an exact "
                              "rational (at least " UL_NUM_EXACT_SMALLEST ").");
    if (g->is_op && delivers == UL_PRE_FAILS && g->sigma_classic != NULL &&
        rep->first_wrong_stated[0] == '\0')
        ul_audit_explain(rep,
                         "The stated classic sigma is computed correctly, but at eps = %s the "
                         "classic calibration does not deliver delta = %s (certified).",
                         g->eps, g->delta);
    if ((rep->verdict == UL_VERDICT_REFUTED || rep->verdict == UL_VERDICT_UNSUPPORTED) &&
        rep->forensics[0] == '\0')
        ul_audit_explain(rep,
                         "None of the known faulty recipes (1 - erf in double, float32, the "
                         "classic bound) reproduces the claimed numbers.");
    return UL_OK;
}

/* ---- the Rényi audit (exact rational) -------------------------------------------------- */

static void audit_renyi(const gcert *g, const ul_num_precision *want, ul_audit_report *rep)
{
    int digits = want->digits;
    snprintf(rep->claim, sizeof rep->claim, "(alpha, rho)-RDP with (alpha, rho) = (%s, %s)",
             g->alpha, g->rho);
    set_theorem(rep, g, true);
    mpq_t a, claimed;
    mpq_inits(a, claimed, NULL);
    ul_num_mpq_valid(a, g->alpha); /* the reader's limits: exact */
    ul_num_mpq_valid(claimed, g->rho);
    mpfi_t x;
    mpfi_init2(x, (mpfr_prec_t)(digits * 3.33) + 64);
    int cmp = ul_gauss_comp_renyi_cmp(&g->comp, a, claimed, want, x);
    rep->verdict = cmp <= 0 ? UL_VERDICT_SUPPORTED
                   : cmp == 1 ? UL_VERDICT_REFUTED
                              : UL_VERDICT_INCONCLUSIVE;
    ul_audit_number_set_mpfi(&rep->recomputed, "renyi_value",
                             g->comp.have_s ? "D_alpha = alpha*r^2/2 at the claimed order (exact)"
                                       : "D_alpha = alpha*r^2/2 at the claimed order",
                             x, digits);
    snprintf(rep->margin, sizeof rep->margin, "claimed renyi_value %s; %s renyi_value in [%s, %s]%s: %s",
             g->rho, g->comp.have_s ? "exact" : "certified", rep->recomputed.lo, rep->recomputed.hi,
             g->comp.have_s ? " (a rational, compared exactly)" : "",
             cmp < 0    ? "the claim is within the exact value's bound"
             : cmp == 0 ? "the claim equals the exact value"
             : cmp == 1 ? "the exact value exceeds the claim"
                        : "the enclosure straddles the claim at the precision cap");
    if (cmp == 1 && mpq_sgn(claimed) > 0) {
        /* σ ≥ √(α·S/(2ρ)) (one σ), or the factor c ≥ √(α·S/(2ρ)) for a σ list */
        ul_gauss_comp_renyi_sigma(x, &g->comp, a, claimed);
        put_sigma_reach(rep, g, x, digits, "the claimed Renyi value");
    }
    if (cmp == 1)
        ul_audit_explain(rep, "The Renyi divergence of the Gaussian mechanism at order alpha is "
                              "exactly alpha*r^2/2; it exceeds the claimed value, so the claim is "
                              "false.");
    else if (cmp <= 0)
        ul_audit_explain(rep, "The Renyi divergence of the Gaussian mechanism at order alpha is "
                              "exactly alpha*r^2/2, which is at most the claimed value: the claim "
                              "holds.");
    else
        ul_audit_explain(rep, "The enclosure of alpha*r^2/2 still straddles the claimed value at "
                              "the precision cap (raise --max-bits).");
    mpfi_clear(x);
    mpq_clears(a, claimed, NULL);
}

/* ---- handlers ---------------------------------------------------------------------------- */

/* compositions omitted (one value each): the audit at T = 1 decides only a
 * refutation, which holds for every T ≥ 1 since δ(ε) and the Rényi
 * divergence α·r²/2 grow with r = Δ√T/σ (Balle & Wang 2018 Thm 8; Mironov
 * 2017 Prop. 7); anything else is unsupported, the reading least favourable
 * to the claim (GAUSS_PARAMS). */
static void compositions_omitted(const gcert *g, ul_audit_report *rep)
{
    if (!g->T_omitted)
        return;
    ul_audit_note_omitted(rep, "parameters",
                          ul_audit_spec_named(GAUSS_PARAMS, N_GAUSS_PARAMS, "compositions"));
    if (rep->verdict == UL_VERDICT_REFUTED || rep->verdict == UL_VERDICT_UNSUPPORTED)
        return;
    rep->verdict = UL_VERDICT_UNSUPPORTED;
    ul_audit_explain(rep, "The number of releases is not stated: the figures above are for one "
                          "release, and the guarantee degrades with every further one, so the "
                          "claim is unsupported until \"compositions\" is stated.");
}

static ul_status audit_common(const ul_cert *c, bool is_op, const ul_num_precision *want,
                              ul_audit_report *rep, char *err, size_t errlen)
{
    ul_audit_report_init(rep);
    gcert g;
    ul_status st = gcert_read(c, is_op, true, &g, err, errlen);
    if (st == UL_OK && g.eps != NULL)
        st = audit_eps_delta(&g, want, rep, err, errlen);
    else if (st == UL_OK)
        audit_renyi(&g, want, rep);
    if (st == UL_OK)
        compositions_omitted(&g, rep);
    gcert_clear(&g);
    return st;
}

static ul_status audit_gauss(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                             char *err, size_t errlen)
{
    return audit_common(c, false, want, rep, err, errlen);
}

static ul_status audit_op(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                          char *err, size_t errlen)
{
    return audit_common(c, true, want, rep, err, errlen);
}

/* ---- calibration ------------------------------------------------------------------------- */

/* s ⊇ the smallest σ reaching the claim, its upper end certified safe, a
 * few digits beyond those printed (so that the safe end rounded up is the
 * smallest safe σ at that many digits). */
static ul_status calibrate_target(const gcert *g, const ul_num_precision *want, mpfi_ptr s,
                                  char *err, size_t errlen)
{
    ul_num_precision fine = *want;
    fine.digits = want->digits + 5;
    if (g->eps != NULL) {
        if (ul_audit_dcmp(g->delta, "0") == 0)
            return ul_fail(err, errlen, UL_ENOROOT,
                           "$.claim.delta: no sigma reaches delta = 0 (the Gaussian mechanism is "
                           "never (eps, 0)-DP)");
        if (ul_audit_dcmp(g->delta, "1") >= 0)
            return ul_fail(err, errlen, UL_EINPUT,
                           "$.claim.delta: delta = 1 holds for every sigma; nothing to calibrate");
        return sigma_needed(g, &fine, s, err, errlen);
    }
    if (ul_audit_dcmp(g->rho, "0") == 0)
        return ul_fail(err, errlen, UL_ENOROOT,
                       "$.claim.renyi_value: no sigma reaches a Renyi divergence of 0");
    /* σ ≥ √(α·S/(2ρ)) (Mironov 2017 Prop. 7) */
    mpq_t a, v;
    mpq_inits(a, v, NULL);
    ul_num_mpq_valid(a, g->alpha);
    ul_num_mpq_valid(v, g->rho);
    mpfi_set_prec(s, (mpfr_prec_t)(fine.digits * 3.33) + 64);
    ul_gauss_comp_renyi_sigma(s, &g->comp, a, v);
    mpq_clears(a, v, NULL);
    return UL_OK;
}

static ul_status calibrate_common(const ul_cert *c, bool is_op, const ul_num_precision *want,
                                  char **completed, char *err, size_t errlen)
{
    *completed = NULL;
    gcert g;
    ul_status st = gcert_read(c, is_op, false, &g, err, errlen);
    if (st == UL_OK && g.T_omitted)
        st = ul_fail(err, errlen, UL_EINPUT,
                     "$.parameters.compositions: missing (no sigma supports a claim for any "
                     "number of releases; state how many Gaussian releases are composed, e.g. "
                     "\"compositions\": 1)");
    if (st == UL_OK && g.n_sigma > 1)
        st = ul_fail(err, errlen, UL_EINPUT,
                     "%s: a list of per-release sigmas; calibrate fills in one sigma for every "
                     "release (give it as one value, or leave it out)", g.sigma_path);
    /* a σ that already supports the claim is kept */
    ul_audit_report rep;
    if (st == UL_OK && g.sigma != NULL) {
        st = audit_common(c, is_op, want, &rep, err, errlen);
        if (st == UL_OK)
            ul_audit_apply_omitted(&rep); /* as ul_audit does */
        if (st == UL_OK && rep.verdict == UL_VERDICT_SUPPORTED) {
            st = ul_cert_to_json_with(c, "parameters", "sigma", g.sigma, completed, err, errlen);
            gcert_clear(&g);
            return st;
        }
    }
    mpfi_t s;
    mpfi_init2(s, 64);
    if (st == UL_OK)
        st = calibrate_target(&g, want, s, err, errlen);
    char *text = NULL, *out = NULL;
    if (st == UL_OK) {
        /* the safe end, rounded up to the digits asked for */
        mpfr_t hi;
        mpfr_init2(hi, mpfi_get_prec(s));
        mpfi_get_right(hi, s);
        text = ul_audit_format_up_readable(hi, want->digits);
        mpfr_clear(hi);
        st = ul_cert_to_json_with(c, "parameters", "sigma", text, &out, err, errlen);
    }
    char why[512];
    if (st == UL_OK && !ul_audit_recheck_supported(out, is_op ? audit_op : audit_gauss, want, why,
                                                   sizeof why)) {
        st = ul_fail(err, errlen, UL_EINPUT,
                     "%s: the calibrated sigma %s did not audit as supported (%s)", g.sigma_path,
                     text, why);
        free(out);
        out = NULL;
    }
    *completed = out;
    free(text);
    mpfi_clear(s);
    gcert_clear(&g);
    return st;
}

static ul_status calibrate_gauss(const ul_cert *c, const ul_num_precision *want, char **completed,
                                 char *err, size_t errlen)
{
    return calibrate_common(c, false, want, completed, err, errlen);
}

static ul_status calibrate_op(const ul_cert *c, const ul_num_precision *want, char **completed,
                              char *err, size_t errlen)
{
    return calibrate_common(c, true, want, completed, err, errlen);
}

const ul_audit_method ul_audit_gaussian_mechanism = {
    "gaussian-mechanism", audit_gauss, calibrate_gauss, GAUSS_PARAMS, N_GAUSS_PARAMS};
const ul_audit_method ul_audit_output_perturbation = {"output-perturbation", audit_op,
                                                      calibrate_op, OP_PARAMS, N_OP_PARAMS};
