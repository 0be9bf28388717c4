/* src/audit/audit_rdp.c — audit handler for a certificate that lists points
 * of a Rényi-DP curve and claims the (ε, δ) they convert to.
 *
 * ==== Schema ==============================================================
 *
 * method "rdp-curve": a mechanism stated to be (α_i, ρ_i)-RDP at each listed
 * order (the points are taken as given: this method checks the conversion,
 * not where the points came from).
 *
 *   parameters.alphas      list of decimals, 1 < α_i ≤ 1e12     the orders
 *   parameters.rdps        list of decimals, 0 ≤ ρ_i ≤ 1e12     the RDP value at each order
 *                          (same length as alphas: point i is (alphas[i], rdps[i]))
 *   parameters.conversion  "mironov" | "bbghs" (default "bbghs")  the RDP → (ε, δ) conversion
 *                          the certificate cites
 *   claim.eps, claim.delta decimals, 0 ≤ ε ≤ 1e12, 0 < δ < 1
 *   stated                 no fields
 *
 *   Guarantee: ε(δ) = min_i of the cited conversion at (α_i, ρ_i)
 *   (renyi.h ul_renyi_points_certified): Mironov 2017 Prop. 3,
 *   ε = ρ + log(1/δ)/(α−1); or Balle et al. 2020 Thm 21 (= Canonne–Kamath–
 *   Steinke 2020 Prop. 12), ε = ρ + log1p(−1/α) − (log δ + log α)/(α−1), with
 *   dp_accounting's clamp and KL shortcut.  It is an upper bound, not an exact
 *   profile: a claim below it is unsupported, never refuted.  The other
 *   conversion is reported beside it.
 *
 * Forensics (claim not supported): a claimed ε equal to a listed ρ_i (a
 * Rényi value read as ε); a claimed ε that the other conversion gives in
 * double precision (a weaker or different conversion than the one cited); a
 * claimed ε that the cited conversion gives in double but the exact value
 * exceeds (double rounding below the bound).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/renyi.h"
#include "audit/audit.h"
#include "audit/audit_util.h"
#include "audit/forensics.h"
#include "num/encl.h"

static const char *const CONVERSIONS[] = {"mironov", "bbghs", NULL};

static const ul_field_spec RDP_PARAMS[] = {
    {.name = "alphas", .type = UL_FIELD_DECIMAL_LIST, .required = true, .domain = &ul_domain_alpha,
     .doc = "the Renyi orders alpha_i > 1"},
    {.name = "rdps", .type = UL_FIELD_DECIMAL_LIST, .required = true, .domain = &ul_domain_rdp,
     .doc = "the RDP value rho_i at each order (same length as alphas)"},
    {.name = "conversion", .type = UL_FIELD_STRING, .choices = CONVERSIONS,
     .doc = "the RDP to (eps, delta) conversion cited: mironov or bbghs (default)"},
};
#define N_RDP_PARAMS (sizeof RDP_PARAMS / sizeof RDP_PARAMS[0])

static const ul_field_spec RDP_CLAIM[] = {
    UL_AUDIT_CLAIM_EPS(true, &ul_domain_eps_renyi, "claimed epsilon (natural log)"),
    UL_AUDIT_CLAIM_DELTA(true, "claimed delta, 0 < delta < 1"),
};
#define N_RDP_CLAIM (sizeof RDP_CLAIM / sizeof RDP_CLAIM[0])

typedef struct {
    const char *const *alphas, *const *rdps;
    size_t n;
    ul_rdp_conversion conv;
    const char *eps, *delta;
} rcert;

static ul_status rcert_read(const ul_cert *c, rcert *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->eps = r->delta = "";
    ul_cert_values p, cl, st;
    ul_status s = ul_cert_read_object(c, "parameters", RDP_PARAMS, N_RDP_PARAMS, &p, err, errlen);
    if (s == UL_OK)
        s = ul_cert_read_object(c, "claim", RDP_CLAIM, N_RDP_CLAIM, &cl, err, errlen);
    if (s == UL_OK)
        s = ul_cert_read_object(c, "stated", NULL, 0, &st, err, errlen);
    if (s != UL_OK)
        return s;
    const ul_cert_value *a = ul_cert_values_get(&p, "alphas");
    const ul_cert_value *v = ul_cert_values_get(&p, "rdps");
    if (a->n_items != v->n_items)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: must have one value per order: %zu values for %zu orders in %s",
                       v->path, v->n_items, a->n_items, a->path);
    r->alphas = a->items;
    r->rdps = v->items;
    r->n = a->n_items;
    const ul_cert_value *conv = ul_cert_values_get(&p, "conversion");
    r->conv = UL_RDP_BBGHS;
    if (conv->present && strcmp(conv->text, "mironov") == 0)
        r->conv = UL_RDP_MIRONOV;
    r->eps = ul_cert_values_get(&cl, "eps")->text;
    r->delta = ul_cert_values_get(&cl, "delta")->text;
    return UL_OK;
}

static const char *conv_long(ul_rdp_conversion conv)
{
    return conv == UL_RDP_MIRONOV
               ? "Mironov 2017 Prop. 3, eps = rho + log(1/delta)/(alpha-1)"
               : "Balle et al. 2020 Thm 21 (BBGHS), eps = rho + log1p(-1/alpha) - (log delta + "
                 "log alpha)/(alpha-1)";
}

/* What one evaluation of decide needs and gives. */
typedef struct {
    const rcert *r;
    ul_audit_report *rep;
    ul_num_value *eps;
    size_t *best;
} rdp_decide_ctx;

/* ε from the best listed point at w, compared with the claim. */
static ul_status rdp_decide_once(void *ctx, const ul_num_precision *w, ul_verdict *verdict,
                                 bool *cap_hit, char *err, size_t errlen)
{
    rdp_decide_ctx *d = ctx;
    const rcert *r = d->r;
    ul_num_report nr = {0, false};
    ul_status st = ul_renyi_points_certified(UL_RDP_TO_EPS, r->alphas, r->rdps, r->n, r->delta,
                                             r->conv, w, d->eps, d->best, &nr, err, errlen);
    if (st != UL_OK && st != UL_ECAP)
        return st;
    *verdict = ul_audit_compare(d->rep, "eps", "eps at the claimed delta from the best listed point",
                                d->eps, r->eps, false, w->digits);
    *cap_hit = nr.cap_hit;
    return UL_OK;
}

/* ε from the best listed point, with the precision raised while the
 * enclosure straddles the claim (the engine's loop, audit_util.h). */
static ul_status decide(const rcert *r, const ul_num_precision *want, ul_audit_report *rep,
                        ul_num_value *eps, size_t *best, char *err, size_t errlen)
{
    rdp_decide_ctx d = {r, rep, eps, best};
    return ul_audit_decide(rdp_decide_once, &d, want, INT_MAX, &rep->verdict, NULL, err, errlen);
}

/* UL_ENOMEM when the doubles of the n listed points (sized by the
 * certificate: policy of num/status.h) cannot be had. */
static ul_status rdp_forensics(ul_audit_report *rep, const rcert *r, char *err, size_t errlen)
{
    long i = ul_forensic_renyi_as_eps(r->eps, r->rdps, r->n);
    if (i >= 0)
        ul_audit_add_forensic(
            rep,
            "a Renyi value read as eps: the claimed eps %s is the listed RDP value at "
            "order alpha = %s ($.parameters.rdps[%ld]), not an (eps, delta) guarantee",
            r->eps, r->alphas[i], i);
    double *a = malloc(r->n * sizeof *a), *v = malloc(r->n * sizeof *v);
    if (a == NULL || v == NULL) {
        free(a), free(v);
        return ul_fail(err, errlen, UL_ENOMEM,
                       "$.parameters.rdps: out of memory for the %zu listed points", r->n);
    }
    for (size_t k = 0; k < r->n; k++) {
        a[k] = ul_forensic_double(r->alphas[k]);
        v[k] = ul_forensic_double(r->rdps[k]);
    }
    double delta = ul_forensic_double(r->delta);
    ul_rdp_conversion other = r->conv == UL_RDP_MIRONOV ? UL_RDP_BBGHS : UL_RDP_MIRONOV;
    size_t best;
    double e = ul_forensic_rdp_points_eps(a, v, r->n, delta, other, &best);
    if (ul_forensic_matches_digits(r->eps, e, 2))
        ul_audit_add_forensic(
            rep,
            "the claimed eps %s is what the %s conversion gives from these points (at "
            "alpha = %s), not the cited %s conversion",
            r->eps, ul_renyi_conversion_name(other), r->alphas[best],
            ul_renyi_conversion_name(r->conv));
    e = ul_forensic_rdp_points_eps(a, v, r->n, delta, r->conv, &best);
    if (ul_forensic_matches_digits(r->eps, e, 2))
        ul_audit_add_forensic(rep,
                              "the claimed eps %s is the cited %s conversion evaluated in double "
                              "precision (at alpha = %s), which rounds below the certified bound",
                              r->eps, ul_renyi_conversion_name(r->conv), r->alphas[best]);
    free(a);
    free(v);
    return UL_OK;
}

/* The other conversion (also a theorem) beside the cited one, which decides;
 * *reaches: it would support the claim. */
static ul_status rdp_other(const rcert *r, const ul_num_precision *want, ul_audit_report *rep,
                           bool *reaches, char *err, size_t errlen)
{
    ul_rdp_conversion oc = r->conv == UL_RDP_MIRONOV ? UL_RDP_BBGHS : UL_RDP_MIRONOV;
    ul_num_value other;
    ul_num_value_init(&other, 64);
    ul_num_report nr = {0, false};
    size_t best = 0;
    ul_status st = ul_renyi_points_certified(UL_RDP_TO_EPS, r->alphas, r->rdps, r->n, r->delta, oc,
                                             want, &other, &best, &nr, err, errlen);
    if (st == UL_ECAP)
        st = UL_OK;
    *reaches = false;
    if (st == UL_OK) {
        char label[128];
        snprintf(label, sizeof label, "eps by the %s conversion instead (best alpha = %.40s)",
                 ul_renyi_conversion_name(oc), r->alphas[best]);
        ul_audit_number_set(&rep->other_variant, oc == UL_RDP_MIRONOV ? "eps_mironov" : "eps_bbghs",
                            label, &other, want->digits);
        ul_audit_report scratch;
        ul_audit_report_init(&scratch);
        *reaches = ul_audit_compare(&scratch, "eps", "", &other, r->eps, false, want->digits) ==
                   UL_VERDICT_SUPPORTED;
    }
    ul_num_value_clear(&other);
    return st;
}

/* What the cited conversion does certify: δ at the claimed ε, ε at the
 * claimed δ, and the best listed order. */
static ul_status rdp_reach(const rcert *r, const ul_num_precision *want, ul_audit_report *rep,
                           const ul_num_value *eps, size_t best, char *err, size_t errlen)
{
    ul_num_value delta;
    ul_num_value_init(&delta, 64);
    ul_num_report nr = {0, false};
    size_t bd;
    ul_status st = ul_renyi_points_certified(UL_RDP_TO_DELTA, r->alphas, r->rdps, r->n, r->eps,
                                             r->conv, want, &delta, &bd, &nr, err, errlen);
    if (st == UL_ECAP)
        st = UL_OK;
    if (st == UL_OK) {
        ul_audit_number_set(&rep->would_reach[rep->n_would_reach++], "delta",
                            "the delta the cited conversion certifies at the claimed eps", &delta,
                            want->digits);
        ul_audit_number_set(&rep->would_reach[rep->n_would_reach++], "eps",
                            "the eps the cited conversion certifies at the claimed delta", eps,
                            want->digits);
        ul_audit_number *n = &rep->would_reach[rep->n_would_reach++];
        n->key = "alpha_best";
        snprintf(n->label, sizeof n->label, "the listed order giving that eps");
        snprintf(n->lo, sizeof n->lo, "%.90s", r->alphas[best]);
        snprintf(n->hi, sizeof n->hi, "%.90s", r->alphas[best]);
    }
    ul_num_value_clear(&delta);
    return st;
}

static ul_status audit_rdp(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                           char *err, size_t errlen)
{
    ul_audit_report_init(rep);
    rcert r;
    ul_status st = rcert_read(c, &r, err, errlen);
    if (st != UL_OK)
        return st;
    snprintf(rep->claim, sizeof rep->claim, "(eps, delta) = (%s, %s) from %zu listed RDP point%s",
             r.eps, r.delta, r.n, r.n == 1 ? "" : "s");
    snprintf(rep->theorem, sizeof rep->theorem,
             "eps = min over the listed points (alpha_i, rho_i) of the cited conversion: %s "
             "(renyi.h); an upper bound, not an exact profile",
             conv_long(r.conv));
    ul_pre_add(&rep->pre, "alphas_gt_1", "every listed order alpha_i > 1 (Mironov 2017 Def. 3)",
               UL_PRE_HOLDS);
    ul_pre_add(&rep->pre, "rdps_nonneg", "every listed RDP value rho_i >= 0", UL_PRE_HOLDS);

    ul_num_value eps;
    ul_num_value_init(&eps, 64);
    size_t best = 0;
    st = decide(&r, want, rep, &eps, &best, err, errlen);

    bool other_reaches = false;
    if (st == UL_OK)
        st = rdp_other(&r, want, rep, &other_reaches, err, errlen);
    if (st == UL_OK && rep->verdict != UL_VERDICT_SUPPORTED) {
        st = rdp_reach(&r, want, rep, &eps, best, err, errlen);
        if (st == UL_OK && rep->verdict == UL_VERDICT_UNSUPPORTED)
            st = rdp_forensics(rep, &r, err, errlen);
    }
    if (st == UL_OK) {
        switch (rep->verdict) {
        case UL_VERDICT_SUPPORTED:
            ul_audit_explain(rep,
                             "The %s conversion from the listed point at alpha = %s certifies "
                             "an eps at most the claimed one at the claimed delta: the claim "
                             "follows from the listed RDP points (which are taken as given).",
                             ul_renyi_conversion_name(r.conv), r.alphas[best]);
            break;
        case UL_VERDICT_UNSUPPORTED:
            ul_audit_explain(rep,
                             "No listed point, converted by the cited %s conversion, certifies "
                             "the claimed eps at the claimed delta: the best (alpha = %s) gives "
                             "eps >= %s.",
                             ul_renyi_conversion_name(r.conv), r.alphas[best],
                             rep->recomputed.lo);
            if (other_reaches)
                ul_audit_explain(rep,
                                 "The %s conversion from the same points does reach the claim: "
                                 "the certificate cites the weaker conversion.",
                                 ul_renyi_conversion_name(r.conv == UL_RDP_MIRONOV
                                                              ? UL_RDP_BBGHS
                                                              : UL_RDP_MIRONOV));
            if (rep->forensics[0] == '\0')
                ul_audit_explain(rep,
                                 "None of the known faulty recipes (a Renyi value read as "
                                 "eps, the other conversion) reproduces the claimed eps.");
            break;
        default:
            ul_audit_explain(rep,
                             "The enclosure of the converted eps still straddles the claim at "
                             "the precision cap (raise --max-bits).");
            break;
        }
    }
    ul_num_value_clear(&eps);
    return st;
}

const ul_audit_method ul_audit_rdp_curve = {"rdp-curve", audit_rdp, NULL, RDP_PARAMS, N_RDP_PARAMS};
