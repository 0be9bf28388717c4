/* src/audit/audit_dp_sgd_group.c — audit handler of method "dp-sgd-group":
 * the DP-SGD + group-privacy baseline of Koloskova, Allouah, Jha, Guerraoui,
 * Koyejo, "Certified Unlearning for Neural Networks" (ICML 2025)
 * (docs/neural-unlearning.md, "DP-SGD with group privacy"), through src/bounds/koloskova.h and
 * src/bounds/renyi.h.  Shared parts: audit_koloskova_util.h.
 *
 * ==== Schema (format "ulaudit-certificate/1") =================================
 * method "dp-sgd-group" — the DP-SGD + group-privacy baseline, docs/neural-unlearning.md, "DP-SGD
 * with group privacy":
 * DP-SGD with Poisson rate q and noise multiplier σ for `steps` steps; the
 * forget set of k records is covered by group privacy, (ε', δ')-DP per example
 * giving (k·ε', δ'·Σ_{i<k} e^{iε'}) for the group.
 *   parameters:
 *     q           decimal in [0, 1]  Poisson sampling rate; or instead
 *     batch, n    count              q = batch/n exactly
 *     sigma       decimal            noise multiplier (noise std / clipping norm),
 *                                    1e-3..1e6
 *     steps       count, required    compositions (≥ 1)
 *     group_size  count, required    k, the forget-set size (k ≥ 1: precondition)
 *     conversion  string, optional   "bbghs" (default, dp_accounting's) or "mironov"
 *   claim:  eps (decimal ≥ 0), delta (decimal in (0, 1)): for the whole group
 *   stated: eps_example, delta_example (decimals, optional): the per-example pair
 *           the training targeted (the code's train_epsilon, train_delta)
 *   The guarantee recomputed: per-example ε' = eps/k (the code's split), δ' from
 *   the subsampled-Gaussian RDP curve composed `steps` times at the best α, group
 *   δ = δ'·Σ_{i<k} e^{iε'} against the claimed δ; with stated delta_example also
 *   the per-example ε at that δ and its group pair.
 *
 * What decides the verdict: the subsampled-Gaussian RDP under the cited
 * conversion and group privacy with its sum δ'·Σ_{i<k} e^{iε'}; the code's
 * δ'·e^{(k−1)ε'} (§4.4) never decides.
 */
#include "audit/audit_koloskova_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num/input.h"

/* ==== DP-SGD + group privacy ================================================== */

static const ul_field_spec DP_PARAMS[] = {
    {.name = "q",
     .type = UL_FIELD_DECIMAL,
     .domain = &ul_domain_q,
     .exact = true, /* read as an exact rational (ul_kol_dpsgd_curve_set) */
     .doc = "Poisson sampling rate (or batch and n)"},
    {.name = "batch", .type = UL_FIELD_COUNT, .doc = "expected batch size: q = batch/n"},
    {.name = "n", .type = UL_FIELD_COUNT, .doc = "training-set size: q = batch/n"},
    {.name = "sigma",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .domain = &ul_domain_sigma,
     .doc = "noise multiplier (noise std / clipping norm)"},
    {.name = "steps",
     .type = UL_FIELD_COUNT,
     .required = true,
     .lo = "1",
     .doc = "number of DP-SGD steps"},
    {.name = "group_size",
     .type = UL_FIELD_COUNT,
     .required = true,
     .doc = "k, the number of records forgotten together"},
    {.name = "conversion",
     .type = UL_FIELD_STRING,
     .choices = ul_audit_kol_conversions,
     .doc = "RDP to (eps, delta): bbghs (default) or mironov"},
};

static const ul_field_spec DP_CLAIM[] = {
    UL_AUDIT_CLAIM_EPS(true, &ul_domain_eps_renyi, "claimed epsilon for the group"),
    UL_AUDIT_CLAIM_DELTA(true, "claimed delta for the group"),
};

static const ul_field_spec DP_STATED[] = {
    {.name = "eps_example",
     .type = UL_FIELD_DECIMAL,
     .doc = "per-example epsilon the training targeted (train_epsilon)"},
    {.name = "delta_example",
     .type = UL_FIELD_DECIMAL,
     .doc = "per-example delta the training targeted (train_delta)"},
};

typedef struct {
    ul_kol_dpsgd_problem pb;
    ul_kol_dpsgd_curve_ctx curve; /* steps·ρ_SGM at the exact rate */
    unsigned long k;
    ul_rdp_conversion conv;
    const char *eps, *delta;
    const ul_cert_value *st_eps, *st_delta;
} dp_cert;

static ul_status dp_read(const ul_cert *c, dp_cert *d, char *err, size_t errlen)
{
    ul_cert_values p, cl, s;
    ul_status st = ul_cert_read_object(c, "parameters", DP_PARAMS,
                                       sizeof DP_PARAMS / sizeof DP_PARAMS[0], &p, err, errlen);
    if (st == UL_OK)
        st = ul_cert_read_object(c, "claim", DP_CLAIM, 2, &cl, err, errlen);
    if (st == UL_OK)
        st = ul_cert_read_object(c, "stated", DP_STATED, 2, &s, err, errlen);
    if (st != UL_OK)
        return st;
    const ul_cert_value *q = ul_audit_kol_get(&p, "q"), *batch = ul_audit_kol_get(&p, "batch"), *n = ul_audit_kol_get(&p, "n");
    if (q->present) {
        if (batch->present || n->present)
            return ul_audit_kol_unused(batch->present ? batch : n, "with q (give q, or batch and n)", err,
                          errlen);
        d->pb.q = q->text;
    } else {
        if (!batch->present || !n->present)
            return ul_audit_kol_missing(batch->present ? n->path : batch->path,
                           "for the sampling rate (give q, or batch and n)", err, errlen);
        if (batch->count == 0 || n->count == 0 || batch->count > n->count)
            return ul_fail(err, errlen, UL_EINPUT, "%s: need 1 <= batch <= n (got %s/%s)",
                           batch->path, batch->text, n->text);
        d->pb.q = NULL;
        d->pb.batch = (unsigned long)batch->count;
        d->pb.n = (unsigned long)n->count;
    }
    d->pb.sigma = ul_audit_kol_get(&p, "sigma")->text;
    d->pb.steps = (unsigned long)ul_audit_kol_get(&p, "steps")->count;
    ul_kol_dpsgd_curve_set(&d->curve, &d->pb);
    d->k = (unsigned long)ul_audit_kol_get(&p, "group_size")->count;
    const ul_cert_value *conv = ul_audit_kol_get(&p, "conversion");
    d->conv = conv->present && strcmp(conv->text, "mironov") == 0 ? UL_RDP_MIRONOV : UL_RDP_BBGHS;
    d->eps = ul_audit_kol_get(&cl, "eps")->text;
    d->delta = ul_audit_kol_get(&cl, "delta")->text;
    d->st_eps = ul_audit_kol_get(&s, "eps_example");
    d->st_delta = ul_audit_kol_get(&s, "delta_example");
    return UL_OK;
}

/* ---- the verdict of a dp-sgd-group certificate ------------------------------------ */

/* The digits a dp-sgd-group decision is raised to: the certified
 * subsampled-Gaussian series at fractional α costs 0.3 s at 240 digits and
 * 20 s at 272 (α ≈ 500), so the doubling stops at 136. */
#define DP_MAX_DIGITS 250

/* (a) The group δ at the claimed ε, at the order α (ul_audit_decide_fn). */
typedef struct {
    const dp_cert *d;
    char alpha[UL_RENYI_ALPHA_TEXT_LEN];
    ul_num_value group, dex; /* log δ_group, log δ' */
    int digits;
    ul_audit_report *rep;
} dp_eval;

static ul_status dp_eval_once(void *ctx, const ul_num_precision *w, ul_verdict *verdict,
                              bool *cap_hit, char *err, size_t errlen)
{
    dp_eval *e = ctx;
    ul_num_report nr = {0, false};
    ul_status st = ul_kol_dpsgd_group_delta_certified(&e->d->curve, e->alpha, e->d->eps, e->d->k,
                                                      e->d->conv, w, &e->group, &e->dex, &nr,
                                                      err, errlen);
    if (st != UL_OK && st != UL_ECAP)
        return ul_audit_kol_with_path(st, "parameters", err, errlen);
    *cap_hit = nr.cap_hit;
    char label[128];
    snprintf(label, sizeof label, "group delta at eps = %.30s (eps' = eps/k, alpha = %s)",
             e->d->eps, e->alpha);
    *verdict = ul_audit_compare(e->rep, "delta", label, &e->group, e->d->delta, false, e->digits);
    return UL_OK;
}

/* (b) The per-example ε' at the stated δ' and its group pair (k·ε',
 * δ'·Σ_{i<k} e^{iε'}): a valid guarantee whatever δ' is (ul_audit_decide_fn; it
 * supports the claim only when both halves are within it). */
typedef struct {
    const dp_cert *d;
    char alpha[UL_RENYI_ALPHA_TEXT_LEN];
    ul_num_value eps_example, eps_group, delta_group;
    int digits;
} dp_pair;

static ul_status dp_pair_once(void *ctx, const ul_num_precision *w, ul_verdict *verdict,
                              bool *cap_hit, char *err, size_t errlen)
{
    dp_pair *pr = ctx;
    const dp_cert *d = pr->d;
    /* k·ε' and the sum need log10(k) + 2 more digits of ε' */
    ul_num_precision we = *w;
    we.digits = w->digits + 2 + (int)ceil(log10((double)d->k));
    ul_num_report nr = {0, false};
    ul_status st = ul_kol_dpsgd_eps_at_certified(&d->curve, pr->alpha, d->st_delta->text, d->conv,
                                                 &we, &pr->eps_example, &nr, err, errlen);
    if (st != UL_OK && st != UL_ECAP)
        return ul_audit_kol_with_path(st, "parameters", err, errlen);
    *cap_hit = nr.cap_hit;
    ul_kol_group_pair(&pr->eps_example, d->st_delta->text, d->k, &pr->eps_group,
                      &pr->delta_group);
    ul_audit_report t1, t2;
    ul_audit_report_init(&t1);
    ul_audit_report_init(&t2);
    *verdict = ul_audit_worse(
        ul_audit_compare(&t1, "eps", "", &pr->eps_group, d->eps, false, pr->digits),
        ul_audit_compare(&t2, "delta", "", &pr->delta_group, d->delta, false, pr->digits));
    return UL_OK;
}

/* (b), when the stated δ' is in (0, 1): *have tells whether it was computed. */
static ul_status dp_stated_pair(const dp_cert *d, const ul_num_precision *want, dp_pair *pr,
                                bool *have, ul_verdict *verdict, char *err, size_t errlen)
{
    *have = false;
    int c0 = 0, c1 = 0;
    if (!d->st_delta->present || !ul_num_decimal_compare(d->st_delta->text, "0", &c0) || c0 <= 0 ||
        !ul_num_decimal_compare(d->st_delta->text, "1", &c1) || c1 >= 0)
        return UL_OK;
    if (!ul_kol_dpsgd_best_alpha(&d->curve, UL_RDP_TO_EPS, ul_kol_log_decimal_d(d->st_delta->text),
                                 d->conv, pr->alpha, sizeof pr->alpha))
        return UL_OK;
    ul_status st =
        ul_audit_decide(dp_pair_once, pr, want, DP_MAX_DIGITS, verdict, NULL, err, errlen);
    *have = st == UL_OK;
    return UL_OK;
}

/* Everything a dp-sgd-group audit computes. */
typedef struct {
    dp_cert d;
    /* the code's split, docs/neural-unlearning.md, "DP-SGD with group privacy" */
    ul_num_value split_eps, split_delta, split_group;
    dp_eval ev;                                       /* (a) */
    dp_pair pr;                                       /* (b) */
    bool have_b, have_need;
    ul_num_value need; /* log of the per-example δ' the claim needs at ε/k */
    int digits;
} dp_state;

static void dp_state_init(dp_state *s, ul_audit_report *rep, int digits)
{
    memset(s, 0, sizeof *s);
    ul_kol_dpsgd_curve_init(&s->d.curve);
    ul_num_value *v[] = {&s->split_eps,       &s->split_delta,     &s->split_group,
                         &s->ev.group,        &s->ev.dex,          &s->pr.eps_example,
                         &s->pr.eps_group,    &s->pr.delta_group,  &s->need};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        ul_num_value_init(v[i], 64);
    s->ev.d = s->pr.d = &s->d;
    s->ev.rep = rep;
    s->ev.digits = s->pr.digits = s->digits = digits;
}

static void dp_state_clear(dp_state *s)
{
    ul_num_value *v[] = {&s->split_eps,       &s->split_delta,     &s->split_group,
                         &s->ev.group,        &s->ev.dex,          &s->pr.eps_example,
                         &s->pr.eps_group,    &s->pr.delta_group,  &s->need};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        ul_num_value_clear(v[i]);
    ul_kol_dpsgd_curve_clear(&s->d.curve);
}

/* The verdict: (a) the group δ at the claimed ε, the order α searched in
 * doubles at ε' ≈ ε/k and everything certified at that α with ε' = ε/k
 * exactly, the precision raised while the claim straddles the enclosure;
 * (b) the group pair at the stated per-example δ', which may support it. */
static ul_status dp_decide(dp_state *s, const ul_num_precision *want, ul_audit_report *rep,
                           char *err, size_t errlen)
{
    const dp_cert *d = &s->d;
    char eps1[64], eps1_short[64], e2[256];
    ul_kol_group_eps_split_text(d->eps, d->k, eps1, eps1_short, sizeof eps1);
    ul_verdict v = UL_VERDICT_INCONCLUSIVE;
    if (!ul_kol_dpsgd_best_alpha(&d->curve, UL_RDP_TO_DELTA, strtod(eps1, NULL), d->conv,
                                 s->ev.alpha, sizeof s->ev.alpha))
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters: no order alpha in (1, 10000] where the RDP curve is finite");
    ul_audit_decide_end end = {0, false};
    ul_status st =
        ul_audit_decide(dp_eval_once, &s->ev, want, DP_MAX_DIGITS, &v, &end, err, errlen);
    if (st != UL_OK)
        return st;
    rep->verdict = v;
    char dtext[160], gtext[160];
    ul_audit_kol_value_text(dtext, sizeof dtext, &s->ev.dex, 6);
    ul_audit_kol_value_text(gtext, sizeof gtext, &s->ev.group, 6);
    ul_audit_explain(rep,
                     "DP-SGD for %lu steps with noise multiplier %s; per example eps' = eps/k = "
                     "%s gives delta' = %s (RDP at alpha = %s), and group privacy for k = %lu "
                     "gives delta = delta'*sum_{i<k} e^{i eps'} = %s at eps = %s.",
                     d->pb.steps, d->pb.sigma, eps1_short, dtext, s->ev.alpha, d->k, gtext,
                     d->eps);
    ul_verdict vb = UL_VERDICT_INCONCLUSIVE;
    dp_stated_pair(d, want, &s->pr, &s->have_b, &vb, e2, sizeof e2);
    if (s->have_b) {
        char et[160], gt[160], dt[160];
        ul_audit_kol_value_text(et, sizeof et, &s->pr.eps_example, 6);
        ul_audit_kol_value_text(gt, sizeof gt, &s->pr.eps_group, 6);
        ul_audit_kol_value_text(dt, sizeof dt, &s->pr.delta_group, 6);
        ul_audit_explain(rep,
                         "At the stated per-example delta' = %s the accountant gives eps' = %s "
                         "(alpha = %s), so the group has (%s, %s).",
                         d->st_delta->text, et, s->pr.alpha, gt, dt);
        if (rep->verdict != UL_VERDICT_SUPPORTED && vb == UL_VERDICT_SUPPORTED) {
            rep->verdict = UL_VERDICT_SUPPORTED;
            ul_audit_number_set(&rep->recomputed, "delta",
                                "group delta at the stated per-example delta",
                                &s->pr.delta_group, s->digits);
            ul_audit_kol_setf(rep->margin, sizeof rep->margin,
                 "claimed (eps, delta) (%s, %s); certified group pair (%s, %s) at the "
                 "stated per-example delta: the claim is within the certified bound",
                 d->eps, d->delta, gt, dt);
        }
    }
    char why[160];
    ul_audit_kol_undecided_why(&end, why, sizeof why);
    if (rep->verdict == UL_VERDICT_SUPPORTED)
        ul_audit_explain(rep, "The claim is supported.");
    else if (rep->verdict == UL_VERDICT_UNSUPPORTED)
        ul_audit_explain(rep, "This exceeds the claimed delta: unsupported.");
    else
        ul_audit_explain(rep, "The enclosure straddles the claim %s: inconclusive.", why);
    return UL_OK;
}

/* The per-example δ' that would reach the claim, and what else would. */
static void dp_would_reach(dp_state *s, const ul_num_precision *want, ul_audit_report *rep)
{
    ul_num_report nr;
    char e2[256];
    s->have_need =
        ul_kol_group_delta_needed_certified(s->d.eps, s->d.delta, s->d.k, want, &s->need, &nr, e2,
                                            sizeof e2) == UL_OK;
    if (rep->verdict != UL_VERDICT_UNSUPPORTED)
        return;
    ul_audit_kol_add_would_reach_value(rep, "delta", "group delta certified at the claimed eps", &s->ev.group,
                          s->digits);
    if (s->have_need) {
        ul_audit_kol_add_would_reach_value(rep, "delta_example_needed",
                              "per-example delta' at eps/k that reaches the claimed group delta",
                              &s->need, s->digits);
        char nt[160];
        ul_audit_kol_value_text(nt, sizeof nt, &s->need, 6);
        ul_audit_explain(rep, "Reaching the claim needs per-example delta' <= %s at eps' = eps/k.",
                         nt);
    }
    if (s->have_b)
        ul_audit_kol_add_would_reach_value(rep, "eps_group", "group eps at the stated per-example delta",
                              &s->pr.eps_group, s->digits);
}

/* The stated per-example numbers, in order; the code's split named. */
static void dp_check_stated(const dp_state *s, ul_audit_report *rep)
{
    const dp_cert *d = &s->d;
    ul_num_value ex;
    ul_num_value_init(&ex, 256);
    ul_kol_group_eps_split(&ex, d->eps, d->k, 256);
    if (d->st_eps->present && !ul_audit_stated_agrees(d->st_eps->text, &ex)) {
        char t[160];
        ul_audit_kol_value_text(t, sizeof t, &ex, 10);
        ul_audit_kol_setf(rep->first_wrong_stated, sizeof rep->first_wrong_stated,
             "%s = %s; the per-example eps of the claim is eps/k = %s", d->st_eps->path,
             d->st_eps->text, t);
    } else if (d->st_delta->present && s->have_need && !ul_audit_stated_agrees(d->st_delta->text, &s->need)) {
        char t[160];
        ul_audit_kol_value_text(t, sizeof t, &s->need, 8);
        ul_audit_kol_setf(rep->first_wrong_stated, sizeof rep->first_wrong_stated,
             "%s = %s; group privacy needs delta' = delta/sum_{i<k} e^{i eps/k} = %s",
             d->st_delta->path, d->st_delta->text, t);
        double k1 = (double)(d->k - 1);
        double et = strtod(d->eps, NULL) / (double)d->k;
        double code = exp(ul_kol_log_decimal_d(d->delta) + (et - 1) - (et * (double)d->k - 1));
        if (ul_audit_stated_agrees(d->st_delta->text, &s->split_delta) ||
            ul_audit_kol_agrees_double(d->st_delta->text, code, EMULATION_SLACK))
            ul_audit_kol_setf(rep->forensics, sizeof rep->forensics,
                 "%s is the code's split delta*e^{-(k-1) eps/k} = delta*e^{-%.0f eps'} "
                 "(docs/neural-unlearning.md, \"DP-SGD with group privacy\"): the group delta "
                 "without its sum "
                 "sum_{i<k} e^{i eps'}",
                 d->st_delta->path, k1);
    }
    if (rep->first_wrong_stated[0] != '\0')
        ul_audit_explain(rep, "First wrong stated number: %s.", rep->first_wrong_stated);
    ul_num_value_clear(&ex);
}

/* Whether the claimed group δ is the code's rule δ'·e^{(k−1)ε'} (docs/neural-unlearning.md, Errata
 * K4)
 * on the stated per-example pair; its words into what. */
static void dp_code_rule_stated(const dp_cert *d, char *what, size_t n)
{
    ul_num_value ek, dk;
    ul_num_value_init(&ek, 64);
    ul_num_value_init(&dk, 64);
    ul_preconditions pre2;
    ul_num_precision wc = {CHECK_DIGITS, 0, 0};
    ul_num_report nr;
    char e2[256];
    if (ul_kol_group_certified(d->st_eps->text, d->st_delta->text, d->k,
                               UL_KOL_GROUP_CODE_LARGEST_TERM, &wc, &pre2, &ek, &dk, &nr, e2,
                               sizeof e2) == UL_OK &&
        ul_audit_stated_agrees(d->delta, &dk)) {
        char ct[160], xt[160] = "";
        ul_audit_kol_value_text(ct, sizeof ct, &dk, 8);
        if (ul_kol_group_certified(d->st_eps->text, d->st_delta->text, d->k, UL_KOL_GROUP_EXACT,
                                   &wc, &pre2, &ek, &dk, &nr, e2, sizeof e2) == UL_OK)
            ul_audit_kol_value_text(xt, sizeof xt, &dk, 6);
        snprintf(what, n,
                 "the claimed group delta %s is the code's group rule delta'*e^{(k-1) eps'} = %s "
                 "on the stated per-example pair: the group delta without its sum, which group "
                 "privacy makes %s",
                 d->delta, ct, xt);
    }
    ul_num_value_clear(&ek);
    ul_num_value_clear(&dk);
}

/* The same on the accountant's per-example pair (ε/k, δ'(ε/k)). */
static void dp_code_rule_accountant(const dp_state *s, char *what, size_t n)
{
    const dp_cert *d = &s->d;
    ul_num_value cv;
    ul_num_value_init(&cv, 64);
    ul_kol_group_code_rule_at(&cv, d->eps, d->k, &s->ev.dex);
    if (ul_audit_stated_agrees(d->delta, &cv))
        snprintf(what, n,
                 "the claimed group delta %s is the code's group rule delta'*e^{(k-1) eps'} on "
                 "the accountant's per-example pair: the group delta without its sum",
                 d->delta);
    ul_num_value_clear(&cv);
}

/* Forensics on an unsupported claim: the claimed group δ by the code's rule
 * (its sentence as long as the report's forensics field, ahead of what is
 * there already). */
static void dp_forensics(const dp_state *s, ul_audit_report *rep)
{
    const dp_cert *d = &s->d;
    size_t n = sizeof rep->forensics;
    char *what = calloc(1, n), *both = malloc(2 * n + 2);
    /* twice the report's forensics field */
    if (what == NULL || both == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    if (rep->verdict == UL_VERDICT_UNSUPPORTED) {
        if (d->st_eps->present && d->st_delta->present)
            dp_code_rule_stated(d, what, n);
        else
            dp_code_rule_accountant(s, what, n);
    }
    if (what[0] != '\0') {
        snprintf(both, 2 * n + 2, "%s%s%s", what, rep->forensics[0] ? "; " : "", rep->forensics);
        ul_audit_kol_setf(rep->forensics, sizeof rep->forensics, "%s", both);
    }
    free(what);
    free(both);
    if (rep->forensics[0] != '\0')
        ul_audit_explain(rep, "Forensics: %s.", rep->forensics);
}

/* Which readings decide (README): the subsampled-Gaussian RDP under the
 * cited conversion and group privacy with its sum; the code's
 * δ'·e^{(k−1)ε'} (docs/neural-unlearning.md, Errata K4) is forensics only. */
static ul_status dp_audit(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                          char *err, size_t errlen)
{
    ul_audit_report_init(rep);
    dp_state s;
    dp_state_init(&s, rep, want->digits);
    dp_cert *d = &s.d;
    ul_status st = dp_read(c, d, err, errlen);
    if (st != UL_OK) {
        dp_state_clear(&s);
        return st;
    }
    ul_audit_kol_setf(rep->claim, sizeof rep->claim, "(eps, delta) = (%s, %s) for a group of k = %lu", d->eps,
         d->delta, d->k);
    ul_audit_kol_setf(rep->theorem, sizeof rep->theorem,
         "DP-SGD per-example RDP (Poisson-subsampled Gaussian, Mironov-Talwar-Zhang 2019, "
         "composed; %s conversion) and group privacy (k*eps', delta'*sum_{i<k} e^{i eps'}) "
         "(Dwork-Roth; docs/neural-unlearning.md, \"DP-SGD with group privacy\")",
         ul_renyi_conversion_name(d->conv));
    /* the code's split (and the precondition k ≥ 1) */
    ul_num_precision wc = {CHECK_DIGITS, 0, 0};
    ul_num_report nr;
    bool done = false;
    ul_pre_clear(&rep->pre);
    st = ul_kol_dpsgd_code_split_certified(d->eps, d->delta, d->k, &wc, &rep->pre, &s.split_eps,
                                           &s.split_delta, &s.split_group, &nr, err, errlen);
    st = ul_audit_kol_triage(st, rep, &done, "parameters", err, errlen);
    if (st == UL_OK && !done)
        st = dp_decide(&s, want, rep, err, errlen);
    if (st == UL_OK && !done) {
        dp_would_reach(&s, want, rep);
        dp_check_stated(&s, rep);
        dp_forensics(&s, rep);
    }
    dp_state_clear(&s);
    return st;
}

const ul_audit_method ul_audit_dp_sgd_group = {"dp-sgd-group", dp_audit, NULL, DP_PARAMS, sizeof DP_PARAMS / sizeof DP_PARAMS[0]};
