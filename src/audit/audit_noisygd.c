/* src/audit/audit_noisygd.c — the audit handler for Noisy-GD learning and
 * deletion (Chourasia & Shah, "Forget Unlearning", arXiv:2210.08911;
 * docs/noisy-gd.md), on the certified bounds of src/bounds/noisygd.h.
 *
 * ===== method "noisy-gd" =====================================================
 *
 * EVERY ε IN THIS PAPER IS A RÉNYI DIVERGENCE of order q (Def 2.2, 2.3,
 * 4.1): "(q, ε)-RDP", "(q, ε)-data-deletion".  A claim that reads such an ε
 * as the ε of an (ε, δ) pair is a category error; the audit says so and
 * converts properly (Remark 2.1, Mironov: ε + log(1/δ)/(q − 1), one-sided for
 * deletion).
 *
 * "parameters" (decimals read exactly; counts are whole numbers; each
 * theorem refuses the fields it does not read, so a misplaced one is
 * caught):
 *   theorem    string, required   which result is cited:
 *       "g7"              Thm G.7: RDP of K Noisy-GD steps, any L-Lipschitz loss
 *       "g9"              Thm G.9: RDP, convex loss (K absent: any K)
 *       "g15"             Thm G.15: (q, ε_dd)-data-deletion after KAbar steps, convex
 *       "thm51"           Thm 5.1: deletion with its prescriptions η = 1/(2(λ+β)),
 *                         σ² = 4qL²/(λ·eps_dp·n²) (G.15 at those values)
 *       "thm52-privacy"   Thm 5.2(1): RDP of every run, G.7 at max{KA, KAbar}
 *       "thm52-deletion"  Thm 5.2(2): deletion, non-convex bounded loss
 *       "thm43"           Thm 4.3 for p-adaptive requesters, privacy by G.7
 *   q          decimal > 1        Rényi order (or give claim.renyi_order; both: equal)
 *   L          decimal ≥ 0        Lipschitz constant of the per-record loss (or clip norm)
 *   lambda     decimal > 0        L2 regularisation constant (L_D is λ-strongly convex)
 *   beta       decimal ≥ 0        smoothness of the per-record loss
 *   sigma      decimal > 0        the PAPER's σ: one Noisy-GD step adds
 *                                 √(2η)·N(0, σ² I_d), i.e. per-coordinate noise
 *                                 VARIANCE 2ησ² (Remark G.8), not σ²;
 *                                 thm51: optional (default: the prescription;
 *                                 given, σ² must be ≥ it)
 *   eta        decimal ≥ 0        step size; thm51: optional (default the
 *                                 prescription 1/(2(λ+β)); given, must equal it)
 *   n, d, r    counts ≥ 1         database size, dimension, records replaced per request
 *   K          count              iterations of one run (g7, g9)
 *   KA, KAbar  counts             learner iterations, unlearner iterations per request
 *                                 (g15: `calibrate` fills in the least KAbar when it
 *                                 is absent or does not reach the claim)
 *   eps_dp     decimal ≥ 0        RDP budget of order q (thm51, thm52-deletion)
 *   eps_dd     decimal ≥ 0        non-adaptive deletion budget (thm43; for thm51 /
 *                                 thm52-deletion only when the claim has no Rényi pair)
 *   logB       decimal > 0        Thm 5.2's log B (or b, the loss bound: log B = 4b/σ²)
 *   b          decimal > 0        sup |loss| (Thm 5.2)
 *   init_var   decimal > 0        per-coordinate variance of the initialisation ρ
 *                                 (checked against the theorem's; absent: presumed)
 *   p, s       counts             observed releases, index of the last one (thm43)
 *   g15_form   string             "tight" (default: the proof's line before
 *                                 relaxation) | "stated" (the relaxed form behind
 *                                 (111) and Thm 5.1's K bound)
 *   variant    string             "corrected" (default) | "printed": thm43 (unobserved
 *                                 runs composed or not, docs/noisy-gd.md N2), thm52-deletion
 *                                 (G.22's step-size condition, N3), thm51's (17)
 *                                 utility bound for stated.KA (N10).  The variant
 *                                 cited is reported; the verdict is decided by the
 *                                 corrected form only (a printed form with a known
 *                                 error never supports a claim)
 *
 * "claim" (at least one complete pair):
 *   renyi_order, renyi_value   the (q, ε) pair: RDP (g7, g9, thm52-privacy),
 *                              data deletion ε_dd (g15, thm51, thm52-deletion),
 *                              adaptive deletion (thm43); q > 1, ε ≥ 0
 *   eps, delta                 an (ε, δ) reading; audited by converting the
 *                              theorem's Rényi bound (best q for the bounds
 *                              linear in q: g7, g9, g15, thm51, thm52-privacy;
 *                              at the given q otherwise)
 *   one_sided                  bool (default false): the (ε, δ) reading is one-
 *                              sided (P[unlearned ∈ O] ≤ e^ε P[reference ∈ O] + δ
 *                              only).  Absent, the claim is read two-sided (Def
 *                              2.1), which thm52-deletion and thm43 (one-
 *                              directional Rényi bounds) never support
 *
 * "stated" (optional; checked in this order):
 *   eta        decimal            thm51: the prescribed step size it computed
 *   sigma      decimal            thm51: the prescribed σ; g7, g9, g15, thm52-privacy:
 *                                 the smallest σ reaching the claimed Rényi value
 *   KA         count              thm51: the learner iterations of (17) (needs d);
 *                                 thm52-deletion: K_A of (19)
 *   KAbar      count              g15 / thm51: the least K_Abar reaching the claim
 *                                 (thm51: (16)); thm52-deletion: K_Abar of (19)
 *
 * Every value is a bound, not an exact privacy profile: a claim beyond it is
 * "unsupported", never "refuted".
 */
#include "audit/audit.h"
#include "num/input.h"
#include "audit/audit_omitted.h"
#include "audit/audit_util.h"

#include <gmp.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/noisygd.h"
#include "audit/forensics.h"
#include "num/encl.h"

/* ---- helpers ----------------------------------------------------------------------------- */

/* The library names its fields like the CLI flags ("eps-dp"); the schema
 * writes them with underscores. */
static ul_status path_error(char *err, size_t errlen, ul_status st, const char *msg)
{
    static const struct {
        const char *lib, *json;
    } MAP[] = {{"eps-dp", "eps_dp"}, {"eps-dd", "eps_dd"}, {"init-var", "init_var"}};
    const char *colon = strchr(msg, ':');
    size_t len = colon != NULL ? (size_t)(colon - msg) : 0;
    for (size_t i = 0; i < sizeof MAP / sizeof MAP[0]; i++)
        if (len == strlen(MAP[i].lib) && strncmp(msg, MAP[i].lib, len) == 0)
            return ul_fail(err, errlen, st == UL_OK ? UL_EINPUT : st, "$.parameters.%s%s",
                           MAP[i].json, colon);
    return ul_fail(err, errlen, st == UL_OK ? UL_EINPUT : st, "$.parameters.%s", msg);
}

/* Appends the items of src not yet in dst (by name). */
static void pre_merge(ul_preconditions *dst, const ul_preconditions *src)
{
    for (int i = 0; i < src->count; i++) {
        bool seen = false;
        for (int j = 0; j < dst->count; j++)
            if (strcmp(dst->items[j].name, src->items[i].name) == 0)
                seen = true;
        if (!seen && dst->count < UL_MAX_PRECONDITIONS)
            dst->items[dst->count++] = src->items[i];
    }
}

/* ---- the schema ----------------------------------------------------------------------------- */

typedef enum { T_G7, T_G9, T_G15, T_51, T_52P, T_52D, T_43, T_COUNT } ngd_thm;

static const char *const THEOREMS[] = {
    "g7", "g9", "g15", "thm51", "thm52-privacy", "thm52-deletion", "thm43", NULL};
static const char *const FORMS[] = {"tight", "stated", NULL};
static const char *const VARIANTS[] = {"printed", "corrected", NULL};
static const char *const INIT_LAWS[] = {"theorem", NULL};

/* Parameter indices (the order of NGD_PARAMS). */
enum {
    P_THEOREM,
    P_Q,
    P_L,
    P_LAMBDA,
    P_BETA,
    P_SIGMA,
    P_ETA,
    P_N,
    P_D,
    P_R,
    P_K,
    P_KA,
    P_KABAR,
    P_EPS_DP,
    P_EPS_DD,
    P_LOGB,
    P_B,
    P_INIT,
    P_P,
    P_S,
    P_FORM,
    P_VARIANT,
    P_INIT_LAW,
    P_COUNT
};

static const ul_field_spec NGD_PARAMS[P_COUNT] = {
    [P_THEOREM] = {.name = "theorem",
                   .type = UL_FIELD_STRING,
                   .required = true,
                   .choices = THEOREMS,
                   .doc = "the result cited"},
    [P_Q] = {.name = "q",
             .type = UL_FIELD_DECIMAL,
             .exact = true,
             .domain = &ul_domain_alpha,
             .doc = "Renyi order"},
    [P_L] = {.name = "L",
             .type = UL_FIELD_DECIMAL,
             .exact = true,
             .domain = &ul_domain_nonneg,
             .doc = "Lipschitz constant of the loss"},
    [P_LAMBDA] = {.name = "lambda",
                  .type = UL_FIELD_DECIMAL,
                  .exact = true,
                  .domain = &ul_domain_positive,
                  .doc = "L2 regularisation constant"},
    [P_BETA] = {.name = "beta",
                .type = UL_FIELD_DECIMAL,
                .exact = true,
                .domain = &ul_domain_nonneg,
                .doc = "smoothness of the loss"},
    [P_SIGMA] = {.name = "sigma",
                 .type = UL_FIELD_DECIMAL,
                 .exact = true,
                 .domain = &ul_domain_positive,
                 .doc = "paper's sigma: step noise variance 2*eta*sigma^2",
                 /* optional only for thm51 */
                 .omitted = "unknown (thm51): Thm 5.1 holds only for sigma^2 >= "
                            "4qL^2/(lambda eps_dp n^2), and an unstated noise cannot be checked "
                            "against it",
                 .omitted_fails = true},
    [P_ETA] = {.name = "eta",
               .type = UL_FIELD_DECIMAL,
               .exact = true,
               .domain = &ul_domain_nonneg,
               .doc = "step size",
               /* optional only for thm51 */
               .omitted = "unknown (thm51): Thm 5.1 holds only for eta = 1/(2(lambda + beta)), "
                          "and an unstated step size cannot be checked against it",
               .omitted_fails = true},
    [P_N] = {.name = "n", .type = UL_FIELD_COUNT, .lo = "1", .doc = "database size"},
    [P_D] = {.name = "d", .type = UL_FIELD_COUNT, .lo = "1", .doc = "dimension"},
    [P_R] = {.name = "r", .type = UL_FIELD_COUNT, .lo = "1", .doc = "records per request"},
    [P_K] = {.name = "K",
             .type = UL_FIELD_COUNT,
             .doc = "iterations of one run",
             /* optional only for G.9, whose bound increases in K */
             .omitted = "any number of steps (G.9): the bound's supremum over K, its K -> "
                        "infinity limit 4qL^2/(lambda sigma^2 n^2)"},
    [P_KA] = {.name = "KA", .type = UL_FIELD_COUNT, .doc = "learner iterations"},
    [P_KABAR] = {.name = "KAbar", .type = UL_FIELD_COUNT, .doc = "unlearner iterations"},
    [P_EPS_DP] = {.name = "eps_dp",
                  .type = UL_FIELD_DECIMAL,
                  .exact = true,
                  .domain = &ul_domain_rdp,
                  .doc = "RDP budget of order q"},
    [P_EPS_DD] = {.name = "eps_dd",
                  .type = UL_FIELD_DECIMAL,
                  .exact = true,
                  .domain = &ul_domain_rdp,
                  .doc = "deletion budget of order q"},
    [P_LOGB] = {.name = "logB",
                .type = UL_FIELD_DECIMAL,
                .exact = true,
                .lo = "0",
                .lo_strict = true,
                .hi = UL_NGD_MAX_LOGB,
                .doc = "Thm 5.2 log B"},
    [P_B] = {.name = "b",
             .type = UL_FIELD_DECIMAL,
             .exact = true,
             .domain = &ul_domain_positive,
             .doc = "loss bound"},
    [P_INIT] = {.name = "init_var",
                .type = UL_FIELD_DECIMAL,
                .exact = true,
                .domain = &ul_domain_positive,
                .doc = "initialisation variance",
                /* read by g15, thm51 and thm52-deletion */
                .omitted = "unknown: the proofs of Thm G.15, 5.1 and 5.2 start from the "
                           "theorem's own initialisation rho = N(0, sigma^2/(lambda(1 - eta "
                           "lambda/2)) I) (sigma^2/lambda for Thm 5.2) and say nothing of any "
                           "other; an unstated one cannot be checked (state init_var, or "
                           "\"initialisation\": \"theorem\" for rho itself)",
                .omitted_fails = true},
    [P_P] = {.name = "p", .type = UL_FIELD_COUNT, .doc = "observed releases"},
    [P_S] = {.name = "s", .type = UL_FIELD_COUNT, .doc = "index of the last observed release"},
    [P_FORM] = {.name = "g15_form",
                .type = UL_FIELD_STRING,
                .choices = FORMS,
                .doc = "tight or stated"},
    [P_INIT_LAW] = {.name = "initialisation",
                    .type = UL_FIELD_STRING,
                    .choices = INIT_LAWS,
                    .doc = "\"theorem\": the run starts from the theorem's own law rho (instead of "
                           "init_var, whose exact value may have no finite decimal)"},
    [P_VARIANT] = {.name = "variant",
                   .type = UL_FIELD_STRING,
                   .choices = VARIANTS,
                   .doc = "printed or corrected"},
};

#define B(x) (1u << (x))

/* Per theorem: the fields it reads (required, optional); q is always
 * optional here (it may come from the claim) and checked later. */
static const struct {
    unsigned need, opt;
    const char *cite;
    bool deletion; /* the claim is a deletion ε (else RDP / adaptive) */
    bool linear;   /* the bound is linear in q at fixed parameters */
} THM[T_COUNT] = {
    [T_G7] = {B(P_L) | B(P_SIGMA) | B(P_ETA) | B(P_N) | B(P_K), B(P_Q),
              "Chourasia & Shah, Thm G.7: Noisy-GD is (q, q L^2 eta K/(sigma^2 n^2))-RDP", false,
              true},
    [T_G9] = {B(P_L) | B(P_LAMBDA) | B(P_BETA) | B(P_SIGMA) | B(P_ETA) | B(P_N), B(P_Q) | B(P_K),
              "Chourasia & Shah, Thm G.9 (Chourasia, Ye, Shokri): convex Noisy-GD is "
              "(q, 4qL^2/(lambda sigma^2 n^2)(1 - exp(-lambda eta K/2)))-RDP",
              false, true},
    [T_G15] = {B(P_L) | B(P_LAMBDA) | B(P_BETA) | B(P_SIGMA) | B(P_ETA) | B(P_N) | B(P_KABAR),
               B(P_Q) | B(P_INIT) | B(P_INIT_LAW) | B(P_FORM),
               "Chourasia & Shah, Thm G.15: (q, eps_dd)-data-deletion of convex Noisy-GD after "
               "K_Abar steps",
               true, true},
    [T_51] = {B(P_L) | B(P_LAMBDA) | B(P_BETA) | B(P_N) | B(P_EPS_DP) | B(P_KABAR),
              B(P_Q) | B(P_SIGMA) | B(P_ETA) | B(P_INIT) | B(P_INIT_LAW) | B(P_FORM) | B(P_KA) |
                  B(P_D) | B(P_R) |
                  B(P_EPS_DD) | B(P_VARIANT),
              "Chourasia & Shah, Thm 5.1(2): with eta = 1/(2(lambda+beta)), sigma^2 = "
              "4qL^2/(lambda eps_dp n^2), K_Abar >= 4 kappa log(eps_dp/eps_dd) gives "
              "(q, eps_dd)-data-deletion (via G.15)",
              true, true},
    [T_52P] = {B(P_L) | B(P_SIGMA) | B(P_ETA) | B(P_N) | B(P_KA) | B(P_KABAR), B(P_Q),
               "Chourasia & Shah, Thm 5.2(1): every run is (q, eps_dp)-RDP when sigma^2 >= "
               "q L^2 eta max{K_A, K_Abar}/(eps_dp n^2) (G.7)",
               false, true},
    [T_52D] = {B(P_L) | B(P_LAMBDA) | B(P_BETA) | B(P_SIGMA) | B(P_ETA) | B(P_N) | B(P_D) | B(P_R) |
                   B(P_KA) | B(P_KABAR) | B(P_EPS_DP),
               B(P_Q) | B(P_LOGB) | B(P_B) | B(P_INIT) | B(P_INIT_LAW) | B(P_EPS_DD) |
                   B(P_VARIANT),
               "Chourasia & Shah, Thm 5.2(2): (q, eps_dd)-data-deletion, non-convex bounded loss "
               "(G.22, G.23, B.4)",
               true, false},
    [T_43] = {B(P_L) | B(P_SIGMA) | B(P_ETA) | B(P_N) | B(P_KA) | B(P_KABAR) | B(P_EPS_DD) |
                  B(P_P) | B(P_S),
              B(P_Q) | B(P_VARIANT),
              "Chourasia & Shah, Thm 4.3: (q, eps_dd + p eps_dp)-data-deletion under p-adaptive "
              "requesters, privacy by G.7 over the runs up to the last observed release",
              true, false},
};

/* Whether the theorem bounds the Rényi divergence in one direction only, so
 * that it gives one-sided (ε, δ) (Remark 2.1) and no two-sided claim (Def
 * 2.1): Thm 5.2(2) bounds R_q(μ_i ‖ π(D_i)), π the Gibbs law (G.22), and Thm
 * 4.3 composes one-directional deletion budgets (docs/noisy-gd.md "Conventions",
 * "Theorems audited").
 * RDP (G.7, G.9, Thm 5.2(1)) holds for both orders of every neighbouring
 * pair; G.15's tracing-diffusion argument is symmetric in the two runs (G.13's
 * drift bound 2L/n is symmetric and G.14 gives both laws the same LSI), so it
 * bounds both directions. */
static bool one_directional(ngd_thm t)
{
    return t == T_52D || t == T_43;
}

static const ul_field_spec NGD_CLAIM[] = {
    {.name = "renyi_order",
     .type = UL_FIELD_DECIMAL,
     .domain = &ul_domain_alpha,
     .doc = "the order q",
     .exact = true},
    UL_AUDIT_CLAIM_RENYI_VALUE("the Renyi RDP or deletion eps at order q"),
    UL_AUDIT_CLAIM_EPS(false, &ul_domain_eps_renyi, "an (eps, delta) reading"),
    UL_AUDIT_CLAIM_DELTA(false, "an (eps, delta) reading"),
    {.name = "one_sided",
     .type = UL_FIELD_BOOL,
     .doc = "the (eps, delta) reading is one-sided, P[unlearned in O] <= e^eps P[reference in O] "
            "+ delta only (default false: two-sided, Def 2.1)"},
};
#define NGD_N_CLAIM (sizeof NGD_CLAIM / sizeof NGD_CLAIM[0])

static const ul_field_spec NGD_STATED[] = {
    {.name = "eta",
     .type = UL_FIELD_DECIMAL,
     .domain = &ul_domain_nonneg,
     .doc = "thm51: the prescribed step size"},
    {.name = "sigma",
     .type = UL_FIELD_DECIMAL,
     .domain = &ul_domain_positive,
     .doc = "the calibrated or prescribed sigma"},
    {.name = "KA", .type = UL_FIELD_COUNT, .doc = "learner iterations the theorem needs"},
    {.name = "KAbar", .type = UL_FIELD_COUNT, .doc = "unlearner iterations the theorem needs"},
};
#define NGD_N_STATED (sizeof NGD_STATED / sizeof NGD_STATED[0])

typedef struct {
    ngd_thm thm;
    bool init_law_stated; /* parameters.initialisation: "theorem" */
    ul_ngd_params pb;
    ul_ngd_g15_form form;
    ul_variant variant;       /* the variant that decides: always the corrected one */
    ul_variant cited_variant; /* the certificate's `variant` (corrected when absent) */
    const char *q;            /* the order, from the claim or the parameters (or NULL) */
    const char *r_value;      /* claimed Rényi value */
    const char *eps, *delta;  /* claimed (ε, δ) */
    bool one_sided;           /* claim.one_sided: the (ε, δ) claim is one-sided */
    const char *st_eta, *st_sigma, *st_KA, *st_KAbar;
    unsigned long long st_KA_count, st_KAbar_count; /* their exact values (a count may be
                                                     * written "8.8e1") */
    char kmax[32];                                  /* max{KA, KAbar} as text (thm52-privacy) */
} ngd_input;

/* Reads a "noisy-gd" certificate.  calibrating: parameters.KAbar may be
 * absent under theorem g15 (the audit requires it). */
/* Each parameter (exactly readable already: the reader's limits, num/input.h):
 * read by the theorem (a misplaced field would be
 * silently ignored), present when the theorem needs it. */
static ul_status ngd_fields_check(const ul_cert_values *pv, ngd_thm th, bool calibrating, char *err,
                                  size_t errlen)
{
    const ul_cert_values p = *pv;
    const char *thm = THEOREMS[th];
    unsigned need = THM[th].need, opt = THM[th].opt;
    for (int f = 1; f < P_COUNT; f++) {
        bool present = ul_audit_field_text(&p, NGD_PARAMS[f].name) != NULL;
        if (present && !((need | opt) & B(f)))
            return ul_fail(err, errlen, UL_EINPUT,
                           "$.parameters.%s: not used by theorem '%s' (a misplaced field would "
                           "be silently ignored)",
                           NGD_PARAMS[f].name, thm);
        if (!present && (need & B(f)) && !(calibrating && th == T_G15 && f == P_KABAR))
            return ul_fail(err, errlen, UL_EINPUT,
                           "$.parameters.%s: missing (theorem '%s' needs it: %s)",
                           NGD_PARAMS[f].name, thm, NGD_PARAMS[f].doc);
    }
    return UL_OK;
}

/* The claim: a Rényi pair and/or an (ε, δ) pair, the order from the claim
 * or the parameters, the deletion budget of thm51 / thm52-deletion. */
static ul_status ngd_claim_read(const ul_cert_values *pv, const ul_cert_values *clv, ngd_input *in,
                                char *err, size_t errlen)
{
    const ul_cert_values p = *pv, cl = *clv;
    const char *thm = THEOREMS[in->thm];
    ul_ngd_params *pb = &in->pb;
    const char *q_param = ul_audit_field_text(&p, "q");
    const char *q_claim = ul_audit_field_text(&cl, "renyi_order");
    in->r_value = ul_audit_field_text(&cl, "renyi_value");
    in->eps = ul_audit_field_text(&cl, "eps");
    in->delta = ul_audit_field_text(&cl, "delta");
    const ul_cert_value *os = ul_cert_values_get(&cl, "one_sided");
    in->one_sided = os->present && os->boolean;
    if (os->present && in->eps == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.claim.one_sided: qualifies an (eps, delta) claim; there is none");
    if ((q_claim == NULL) != (in->r_value == NULL))
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.claim.%s: missing (renyi_order and renyi_value go together)",
                       q_claim == NULL ? "renyi_order" : "renyi_value");
    if ((in->eps == NULL) != (in->delta == NULL))
        return ul_fail(err, errlen, UL_EINPUT, "$.claim.%s: missing (eps and delta go together)",
                       in->eps == NULL ? "eps" : "delta");
    if (q_claim == NULL && in->eps == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.claim: needs renyi_order and renyi_value, or eps and delta");
    if (q_param != NULL && q_claim != NULL && ul_audit_dcmp(q_param, q_claim) != 0)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.q: '%s' differs from $.claim.renyi_order '%s'", q_param,
                       q_claim);
    in->q = q_claim != NULL ? q_claim : q_param;
    pb->q = in->q;
    bool needs_q = in->thm == T_51 || in->thm == T_52D || in->thm == T_43 || in->r_value != NULL;
    if (needs_q && in->q == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.q: missing (theorem '%s' needs the Renyi order: give q or "
                       "claim.renyi_order)",
                       thm);
    /* the deletion budget of thm51 / thm52-deletion is the claim's value */
    if ((in->thm == T_51 || in->thm == T_52D) && in->r_value != NULL) {
        if (pb->eps_dd != NULL && ul_audit_dcmp(pb->eps_dd, in->r_value) != 0)
            return ul_fail(err, errlen, UL_EINPUT,
                           "$.parameters.eps_dd: '%s' differs from $.claim.renyi_value '%s'",
                           pb->eps_dd, in->r_value);
        pb->eps_dd = in->r_value;
    }
    if ((in->thm == T_51 || in->thm == T_52D) && pb->eps_dd == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.eps_dd: missing (give the deletion budget, or claim it as "
                       "renyi_order/renyi_value)");
    if (in->thm == T_52P) {
        const char *m = ul_audit_dcmp(pb->KA, pb->KAbar) >= 0 ? pb->KA : pb->KAbar;
        snprintf(in->kmax, sizeof in->kmax, "%s", m);
        pb->K = in->kmax;
    }
    return UL_OK;
}

/* The stated numbers, each only where the theorem has one to check. */
static ul_status ngd_stated_read(const ul_cert_values *stv, ngd_input *in, char *err, size_t errlen)
{
    const ul_cert_values st = *stv;
    const char *thm = THEOREMS[in->thm];
    const ul_ngd_params *pb = &in->pb;
    in->st_eta = ul_audit_field_text(&st, "eta");
    in->st_sigma = ul_audit_field_text(&st, "sigma");
    in->st_KA = ul_audit_field_text(&st, "KA");
    in->st_KAbar = ul_audit_field_text(&st, "KAbar");
    if (in->st_KA != NULL)
        in->st_KA_count = ul_cert_values_get(&st, "KA")->count;
    if (in->st_KAbar != NULL)
        in->st_KAbar_count = ul_cert_values_get(&st, "KAbar")->count;
    if (in->st_eta != NULL && in->thm != T_51)
        return ul_fail(err, errlen, UL_EINPUT, "$.stated.eta: only Thm 5.1 prescribes a step size");
    if (in->st_sigma != NULL && (in->thm == T_52D || in->thm == T_43))
        return ul_fail(err, errlen, UL_EINPUT, "$.stated.sigma: theorem '%s' calibrates no sigma",
                       thm);
    if (in->st_sigma != NULL && in->thm != T_51 && in->r_value == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.stated.sigma: a calibrated sigma needs a Renyi claim to check");
    if (in->st_KA != NULL && in->thm != T_51 && in->thm != T_52D)
        return ul_fail(err, errlen, UL_EINPUT, "$.stated.KA: theorem '%s' has no K_A bound", thm);
    if (in->st_KA != NULL && in->thm == T_51 && pb->d == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.stated.KA: checking Thm 5.1's (17) needs $.parameters.d");
    if (in->st_KAbar != NULL && in->thm != T_51 && in->thm != T_52D && in->thm != T_G15)
        return ul_fail(err, errlen, UL_EINPUT, "$.stated.KAbar: theorem '%s' has no K_Abar bound",
                       thm);
    if (in->st_KAbar != NULL && in->thm == T_G15 && in->r_value == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.stated.KAbar: a least K_Abar needs a Renyi claim to check");
    return UL_OK;
}

static ul_status ngd_read(const ul_cert *c, ngd_input *in, bool calibrating, char *err,
                          size_t errlen)
{
    ul_cert_values p, cl, st;
    ul_status s = ul_cert_read_object(c, "parameters", NGD_PARAMS, P_COUNT, &p, err, errlen);
    if (s == UL_OK)
        s = ul_cert_read_object(c, "claim", NGD_CLAIM, NGD_N_CLAIM, &cl, err, errlen);
    if (s == UL_OK)
        s = ul_cert_read_object(c, "stated", NGD_STATED, NGD_N_STATED, &st, err, errlen);
    if (s != UL_OK)
        return s;
    memset(in, 0, sizeof *in);
    const char *thm = ul_audit_field_text(&p, "theorem");
    for (int t = 0; t < T_COUNT; t++)
        if (strcmp(thm, THEOREMS[t]) == 0)
            in->thm = (ngd_thm)t;
    s = ngd_fields_check(&p, in->thm, calibrating, err, errlen);
    if (s != UL_OK)
        return s;
    ul_ngd_params *pb = &in->pb;
    pb->L = ul_audit_field_text(&p, "L");
    pb->lambda = ul_audit_field_text(&p, "lambda");
    pb->beta = ul_audit_field_text(&p, "beta");
    pb->sigma = ul_audit_field_text(&p, "sigma");
    pb->eta = ul_audit_field_text(&p, "eta");
    pb->n = ul_audit_field_text(&p, "n");
    pb->d = ul_audit_field_text(&p, "d");
    pb->r = ul_audit_field_text(&p, "r");
    pb->K = ul_audit_field_text(&p, "K");
    pb->KA = ul_audit_field_text(&p, "KA");
    pb->KAbar = ul_audit_field_text(&p, "KAbar");
    pb->eps_dp = ul_audit_field_text(&p, "eps_dp");
    pb->eps_dd = ul_audit_field_text(&p, "eps_dd");
    pb->log_B = ul_audit_field_text(&p, "logB");
    pb->b = ul_audit_field_text(&p, "b");
    pb->init_var = ul_audit_field_text(&p, "init_var");
    in->init_law_stated = ul_audit_field_text(&p, "initialisation") != NULL;
    if (in->init_law_stated && pb->init_var != NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.initialisation: states the theorem's own law, and init_var "
                       "states a variance: give one of them");
    pb->p = ul_audit_field_text(&p, "p");
    pb->s = ul_audit_field_text(&p, "s");
    const char *form = ul_audit_field_text(&p, "g15_form");
    in->form = form != NULL && strcmp(form, "stated") == 0 ? UL_NGD_G15_STATED : UL_NGD_G15_TIGHT;
    const char *var = ul_audit_field_text(&p, "variant");
    /* a printed form with a known error (docs/noisy-gd.md errata N2, N3, N10) is
     * computed and reported, never what decides the verdict */
    in->cited_variant =
        var != NULL && strcmp(var, "printed") == 0 ? UL_VARIANT_PRINTED : UL_VARIANT_CORRECTED;
    in->variant = UL_VARIANT_CORRECTED;
    if (in->thm == T_52D && pb->log_B == NULL && pb->b == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.logB: missing (Thm 5.2 needs log B, or the loss bound b)");

    s = ngd_claim_read(&p, &cl, in, err, errlen);
    if (s == UL_OK)
        s = ngd_stated_read(&st, in, err, errlen);
    return s;
}

/* ---- Thm 5.1 at its prescriptions -------------------------------------------------------- */

/* ---- the bound of the cited theorem at order q ------------------------------------------- */

/* out ⊇ the theorem's Rényi bound at order q (the parameters' q replaced),
 * pre receives the library's preconditions. */
static ul_status ngd_bound_cap(const ngd_input *in, const char *q, ul_ngd_g15_form form,
                               ul_variant variant, const ul_num_precision *want, ul_num_value *out,
                               ul_preconditions *pre, bool *cap_hit, char *err, size_t errlen)
{
    ul_ngd_params pb = in->pb;
    pb.q = q;
    ul_num_report nr = {0, false};
    ul_preconditions local;
    ul_pre_clear(&local);
    ul_status st;
    switch (in->thm) {
    case T_G7:
    case T_52P:
        st = ul_ngd_rdp_g7(&pb, want, out, &local, &nr, err, errlen);
        break;
    case T_G9:
        st = ul_ngd_rdp_g9(&pb, want, out, &local, &nr, err, errlen);
        break;
    case T_G15:
        st = ul_ngd_deletion_g15(&pb, form, want, out, &local, &nr, err, errlen);
        break;
    case T_51: /* G.15 at Thm 5.1's prescriptions (bounds/noisygd_thm51.c) */
        st = ul_ngd_thm51_deletion_eps(&in->pb, form, q, want, out, &nr, err, errlen);
        break;
    case T_52D:
        st = ul_ngd_nonconvex_deletion_eps(&pb, want, out, &local, &nr, err, errlen);
        break;
    default:
        st = ul_ngd_adaptive_eps_nonconvex(&pb, variant, want, out, &local, &nr, err, errlen);
        break;
    }
    if (cap_hit != NULL)
        *cap_hit = st == UL_ECAP || nr.cap_hit;
    if (st == UL_ECAP)
        st = UL_OK;
    if (pre != NULL)
        pre_merge(pre, &local);
    return st;
}

static ul_status ngd_bound(const ngd_input *in, const char *q, ul_ngd_g15_form form,
                           ul_variant variant, const ul_num_precision *want, ul_num_value *out,
                           ul_preconditions *pre, char *err, size_t errlen)
{
    return ngd_bound_cap(in, q, form, variant, want, out, pre, NULL, err, errlen);
}

/* The exact rational value of the cited bound, when it is one (enclosures
 * cannot decide a claim equal to it): always for G.7, Thm 5.2(1) and Thm
 * 4.3 (qL²ηK/(σ²n²), plus eps_dd for Thm 4.3, noisygd_rational.c); for
 * G.9, G.15 and Thm 5.1 where the exponential factor is exactly 1 or the
 * K → ∞ limit is cited (noisygd.h, "exact ties": elsewhere their bounds are
 * transcendental).  Thm 5.2(2)'s recursion carries B = e^{log B}, log B > 0,
 * so it is never rational.  false when it is not. */
static bool exact_bound(const ngd_input *in, mpq_ptr out)
{
    switch (in->thm) {
    case T_G7:
    case T_52P:
    case T_43:
        ul_ngd_rational_bound(out, &in->pb, in->thm == T_43, in->variant);
        return true;
    case T_G9:
        return ul_ngd_g9_exact(out, &in->pb);
    case T_G15:
        return ul_ngd_g15_exact(out, &in->pb, in->form);
    case T_51:
        return ul_ngd_thm51_exact(out, &in->pb, in->form, in->q);
    default:
        return false;
    }
}

/* Why exact_bound's value is rational, in words (for the report). */
static const char *exact_why(const ngd_input *in)
{
    switch (in->thm) {
    case T_G9:
        return in->pb.K == NULL ? "K absent: G.9's supremum over K, 4qL^2/(lambda sigma^2 n^2)"
                                : "G.9 with lambda eta K = 0 or L = 0: 1 - exp(0) = 0";
    case T_G15:
        return "G.15 with eta K_Abar = 0: exp(0) = 1 (or L = 0)";
    case T_51:
        return "Thm 5.1 with K_Abar = 0: exp(0) = 1 (or eps_dp = 0)";
    default:
        return "G.7's q L^2 eta K/(sigma^2 n^2) (plus eps_dd for Thm 4.3) is rational";
    }
}

/* ---- the Rényi claim ---------------------------------------------------------------------- */

/* G.9's bound 4qL²/(λσ²n²)(1 − e^{−ληK/2}) is below its supremum over K,
 * the rational 4qL²/(λσ²n²) (Thm G.9): a claim at or above the supremum
 * holds at every K, decided exactly where the enclosure at a large K
 * cannot leave the claim (the reading of an omitted K is that supremum, so
 * a stated K is never judged more harshly than an omitted one). */
static bool g9_under_supremum(const ngd_input *in, ul_audit_report *rep)
{
    if (in->thm != T_G9 || in->pb.K == NULL || in->r_value == NULL)
        return false;
    ul_ngd_params sup = in->pb;
    sup.K = NULL;
    mpq_t s, claim;
    mpq_inits(s, claim, (mpq_ptr)0);
    bool holds = ul_ngd_g9_exact(s, &sup) && ul_num_decimal_to_mpq(claim, in->r_value) &&
                 mpq_cmp(s, claim) <= 0;
    char frac[UL_AUDIT_NUMBER_CHARS] = "";
    if (holds && gmp_snprintf(frac, sizeof frac, "%Qd", s) >= (int)sizeof frac)
        snprintf(frac, sizeof frac, "a rational");
    if (holds)
        ul_audit_explain(rep,
                         "The claimed renyi_value %s is at least G.9's supremum over K, "
                         "4qL^2/(lambda sigma^2 n^2) = %s (compared exactly), so it holds at "
                         "K = %s.",
                         in->r_value, frac, in->pb.K);
    mpq_clears(s, claim, (mpq_ptr)0);
    return holds;
}

static const char *form_name(ul_ngd_g15_form f)
{
    return f == UL_NGD_G15_STATED ? "stated (relaxed, (111))" : "tight (the proof's line)";
}

/* What one evaluation of ngd_decide needs. */
typedef struct {
    const ngd_input *in;
    ul_audit_report *rep;
    const char *label;
} ngd_decide_ctx;

/* The cited bound at w (corrected variant) against the claimed Rényi value. */
static ul_status ngd_decide_once(void *ctx, const ul_num_precision *w, ul_verdict *verdict,
                                 bool *cap_hit, char *err, size_t errlen)
{
    const ngd_decide_ctx *d = ctx;
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_status st = ngd_bound_cap(d->in, d->in->q, d->in->form, UL_VARIANT_CORRECTED, w, &v, NULL,
                                 cap_hit, err, errlen);
    if (st == UL_OK)
        *verdict = ul_audit_compare(d->rep, "renyi_value", d->label, &v, d->in->r_value, false,
                                    w->digits);
    ul_num_value_clear(&v);
    return st;
}

/* The verdict of the cited bound (at the certificate's order, in the
 * variant that decides: always the corrected one) against the claimed Rényi
 * value, the digits doubled while the enclosure straddles the claim, until
 * it is decided or the precision cap (--max-bits) stops it (the engine's
 * loop, audit_util.h).  The rational bounds are not raised: their ties are
 * left to the caller (exact_bound). */
static ul_verdict ngd_decide(const ngd_input *in, const ul_num_precision *want,
                             ul_audit_report *rep, const char *label, ul_status *status, char *e2,
                             size_t e2len)
{
    mpq_t ignored;
    mpq_init(ignored);
    bool rational = exact_bound(in, ignored);
    mpq_clear(ignored);
    ngd_decide_ctx d = {in, rep, label};
    ul_verdict verdict = UL_VERDICT_INCONCLUSIVE;
    *status = ul_audit_decide(ngd_decide_once, &d, want, rational ? want->digits : INT_MAX,
                              &verdict, NULL, e2, e2len);
    return verdict;
}

/* The other G.15 form (both are true bounds: the proof's tight line and its
 * relaxation) or Thm 4.3's printed composition (a known error, never the
 * verdict), reported beside the verdict. */
static void renyi_other(const ngd_input *in, const ul_num_precision *want, ul_audit_report *rep,
                        ul_verdict verdict, const char *what)
{
    bool two_forms = in->thm == T_G15 || in->thm == T_51;
    if (!two_forms && in->thm != T_43)
        return;
    /* the other form, or the printed composition (the corrected one decided) */
    ul_ngd_g15_form of = in->form == UL_NGD_G15_TIGHT ? UL_NGD_G15_STATED : UL_NGD_G15_TIGHT;
    ul_num_value o;
    ul_num_value_init(&o, 64);
    char e2[512] = "", label[128];
    if (ngd_bound(in, in->q, two_forms ? of : in->form, UL_VARIANT_PRINTED, want, &o, NULL, e2,
                  sizeof e2) != UL_OK) {
        ul_num_value_clear(&o);
        return;
    }
    snprintf(label, sizeof label, "%s with the %s", what,
             two_forms ? form_name(of) : "printed composition");
    ul_audit_number_set(&rep->other_variant, "renyi_value", label, &o, want->digits);
    if (two_forms) {
        snprintf(rep->variant, sizeof rep->variant, "%s",
                 in->form == UL_NGD_G15_TIGHT ? "tight" : "stated");
    } else {
        snprintf(rep->variant, sizeof rep->variant, "corrected");
        bool printed_reaches = ul_audit_value_at_most(&o, in->r_value);
        if (in->cited_variant == UL_VARIANT_PRINTED)
            ul_audit_explain(rep, "The certificate cites the printed Thm 4.3 (eps_dd + p eps_dp), "
                                  "a known error: it is reported as the other variant, and the "
                                  "verdict is decided by the corrected composition.");
        if (printed_reaches && verdict == UL_VERDICT_UNSUPPORTED)
            ul_audit_explain(rep, "The printed Thm 4.3 (eps_dd + p eps_dp) over-claims: it would "
                                  "support the claim, but the runs between observed releases "
                                  "also touch the target record (docs/noisy-gd.md erratum N2).");
    }
    ul_audit_explain(rep, "The %s gives [%s, %s].", label, rep->other_variant.lo,
                     rep->other_variant.hi);
    ul_num_value_clear(&o);
}

/* What would reach an unsupported Rényi claim: the least K_Abar (G.15, Thm
 * 5.1), the smallest σ (G.7, G.9, G.15, Thm 5.2(1)), Thm 5.2's counts. */
static void renyi_reach(const ngd_input *in, const ul_num_precision *want, ul_audit_report *rep)
{
    int digits = want->digits;
    char e2[512] = "";
    ul_ngd_params pb = in->pb;
    ul_num_report nr;
    ul_audit_number n;
    if (in->thm == T_G15 || in->thm == T_51) {
        /* least K_Abar at this σ (G.15) or by (16) (Thm 5.1) */
        unsigned long k;
        pb.eps_dd = in->r_value;
        ul_status st;
        if (in->thm == T_G15) {
            ul_num_value at;
            ul_num_value_init(&at, 64);
            st = ul_ngd_least_kabar_g15(&pb, in->form, 0, want, &k, &at, NULL, &nr, e2, sizeof e2);
            ul_num_value_clear(&at);
        } else {
            st = ul_ngd_thm51_least_k(&pb, UL_NGD_51_KABAR_DELETION, in->variant, &k, NULL, &nr, e2,
                                      sizeof e2);
        }
        if (st == UL_OK) {
            ul_audit_number_set_integer(
                &n, "steps_needed",
                in->thm == T_51 ? "K_Abar of Thm 5.1 (16)" : "least K_Abar reaching the claim", k);
            ul_audit_add_reach(rep, &n);
            ul_audit_explain(rep,
                             "K_Abar = %lu unlearning steps would reach it (the "
                             "certificate runs %s).",
                             k, pb.KAbar);
        }
    }
    if (in->thm == T_G7 || in->thm == T_G9 || in->thm == T_G15 || in->thm == T_52P) {
        ul_ngd_sigma_kind kind = in->thm == T_G9    ? UL_NGD_SIGMA_G9
                                 : in->thm == T_G15 ? UL_NGD_SIGMA_G15
                                                    : UL_NGD_SIGMA_G7;
        pb.eps_dp = in->r_value;
        pb.eps_dd = in->r_value;
        mpfi_t s;
        mpfi_init2(s, 128);
        ul_status st =
            ul_audit_dcmp(in->r_value, "0") > 0
                ? ul_ngd_sigma_min(&pb, kind, in->form, want, s, NULL, &nr, e2, sizeof e2)
                : UL_ENOROOT;
        if (st == UL_OK || st == UL_ECAP) {
            ul_audit_number_set_mpfi(&n, "sigma_needed",
                                     "smallest sigma reaching the claim (hi certified safe)", s,
                                     digits);
            ul_audit_add_reach(rep, &n);
            ul_audit_explain(rep, "sigma >= %s would reach it.", n.hi);
        }
        mpfi_clear(s);
    }
    if (in->thm == T_52D) {
        unsigned long k;
        if (ul_ngd_thm52_least_k(&pb, UL_NGD_52_KA_MIN, &k, &nr, e2, sizeof e2) == UL_OK) {
            ul_audit_number_set_integer(&n, "KA_needed", "K_A of Thm 5.2 (19)", k);
            ul_audit_add_reach(rep, &n);
        }
        if (ul_ngd_thm52_least_k(&pb, UL_NGD_52_KABAR_SUFFICIENT, &k, &nr, e2, sizeof e2) ==
            UL_OK) {
            ul_audit_number_set_integer(&n, "KAbar_needed",
                                        "K_Abar implied by (19) at K_A = its minimum", k);
            ul_audit_add_reach(rep, &n);
        }
    }
}

static ul_verdict ngd_renyi(const ngd_input *in, const ul_num_precision *want, ul_audit_report *rep,
                            ul_status *status, char *err, size_t errlen)
{
    char e2[512] = "";
    bool del = THM[in->thm].deletion;
    char label[sizeof rep->recomputed.label]; /* holds the order q whole */
    snprintf(label, sizeof label, "%s at order q = %s",
             in->thm == T_43 ? "adaptive deletion eps"
             : del           ? "deletion eps_dd"
                             : "RDP eps",
             in->q);
    ul_verdict verdict = ngd_decide(in, want, rep, label, status, e2, sizeof e2);
    if (*status != UL_OK) {
        *status = path_error(err, errlen, *status, e2);
        return UL_VERDICT_INCONCLUSIVE;
    }
    mpq_t exact;
    mpq_init(exact);
    if (verdict == UL_VERDICT_INCONCLUSIVE && exact_bound(in, exact)) /* a tie, on the rationals */
        verdict =
            ul_audit_exact_verdict(rep, rep->margin, sizeof rep->margin, "renyi_value", in->r_value,
                                   exact, rep->recomputed.lo, rep->recomputed.hi, exact_why(in));
    mpq_clear(exact);
    if (verdict == UL_VERDICT_INCONCLUSIVE && g9_under_supremum(in, rep))
        verdict = UL_VERDICT_SUPPORTED;
    const char *what = in->thm == T_43 ? "adaptive data-deletion" : del ? "data-deletion" : "RDP";
    ul_audit_explain(rep,
                     "The theorem certifies (q, eps)-%s with eps in [%s, %s] at q = %s "
                     "(claimed %s).",
                     what, rep->recomputed.lo, rep->recomputed.hi, in->q, in->r_value);

    renyi_other(in, want, rep, verdict, what);
    if (verdict == UL_VERDICT_UNSUPPORTED)
        renyi_reach(in, want, rep);
    return verdict;
}

/* ---- the (ε, δ) reading -----------------------------------------------------------------------
 */

/* eps ⊇ ε(δ) of the cited Rényi bound (computed at w) converted by Remark
 * 2.1 (Mironov Prop. 3): at the best order for the bounds linear in q (the
 * exact minimum a + 2√(a·log(1/δ))), else at the certificate's q; qstar ⊇
 * that order.  eps and qstar are set to the working precision. */
static ul_status dp_eps(const ngd_input *in, const ul_num_precision *w, mpfi_ptr eps,
                        mpfi_ptr qstar, bool *cap, char *e2, size_t e2len)
{
    bool linear = THM[in->thm].linear;
    /* linear bounds at q = 1 give the slope a; Thm 5.1's prescription depends
     * on the certificate's q, so it is evaluated there and divided below */
    const char *q = linear && in->thm != T_51 ? "1" : in->q;
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_status st = ngd_bound_cap(in, q, in->form, in->variant, w, &v, NULL, cap, e2, e2len);
    if (st != UL_OK) {
        ul_num_value_clear(&v);
        return st;
    }
    /* Remark 2.1 (bounds/noisygd_rational.c) */
    ul_ngd_rdp_to_dp(eps, qstar, &v, linear, linear && in->thm == T_51 ? in->q : NULL, in->q,
                     in->delta);
    ul_num_value_clear(&v);
    return UL_OK;
}

/* What one evaluation of ngd_dp's decision needs and gives: the report tmp
 * receives the number and margin, qs the order used (8 digits). */
typedef struct {
    const ngd_input *in;
    ul_audit_report *tmp;
    char *qs; /* 64 bytes */
} dp_decide_ctx;

/* ε(δ) at w (6 guard digits over those compared) against the claimed ε. */
static ul_status dp_decide_once(void *ctx, const ul_num_precision *w, ul_verdict *verdict,
                                bool *cap_hit, char *err, size_t errlen)
{
    const dp_decide_ctx *d = ctx;
    const ngd_input *in = d->in;
    bool linear = THM[in->thm].linear;
    mpfi_t eps, qstar;
    mpfi_init2(eps, 64), mpfi_init2(qstar, 64);
    ul_status st = dp_eps(in, w, eps, qstar, cap_hit, err, errlen);
    if (st == UL_OK) {
        char *qtext = ul_num_format(&qstar->left, 8, MPFR_RNDN);
        snprintf(d->qs, 64, "%s", qtext);
        free(qtext);
        char label[sizeof d->tmp->recomputed.label]; /* holds delta whole */
        snprintf(label, sizeof label, "eps at delta = %s (Remark 2.1 at %s q = %s)", in->delta,
                 linear ? "the best" : "the given", d->qs);
        ul_num_value ev; /* a read-only view of eps in linear form */
        ev.enclosure[0] = *eps;
        ev.is_log = false;
        ul_audit_report_init(d->tmp);
        *verdict = ul_audit_compare(d->tmp, "eps", label, &ev, in->eps, false, w->digits - 6);
    }
    mpfi_clear(eps), mpfi_clear(qstar);
    return st;
}

/* Forensics of an unsupported (ε, δ) reading: the claimed ε at most, or
 * equal to, the theorem's Rényi bound at the certificate's own order (a
 * Rényi value read as ε).  eps_lo: the converted ε's lower end, printed. */
static void renyi_read_as_eps(const ngd_input *in, const ul_num_precision *want,
                              ul_audit_report *rep, const char *eps_lo)
{
    int digits = want->digits;
    char e2[512] = "";
    ul_num_value r;
    ul_num_value_init(&r, 64);
    if (ngd_bound(in, in->q, in->form, in->variant, want, &r, NULL, e2, sizeof e2) == UL_OK) {
        ul_audit_number rn;
        ul_audit_number_set(&rn, "renyi_value", "the Renyi bound itself", &r, digits);
        double rd = ul_audit_value_lo_double(&r);
        bool reproduces = ul_forensic_matches_digits(in->eps, rd, 2);
        bool below = ul_audit_value_at_most(&r, in->eps);
        mpq_t ex, ce;
        mpq_inits(ex, ce, (mpq_ptr)0);
        ngd_input at_q = *in;
        at_q.pb.q = in->q;
        if (!below && exact_bound(&at_q, ex) && ul_num_decimal_to_mpq(ce, in->eps))
            below = mpq_cmp(ex, ce) <= 0; /* a tie, decided on the rationals */
        mpq_clears(ex, ce, (mpq_ptr)0);
        if (reproduces || below) {
            snprintf(rep->forensics, sizeof rep->forensics,
                     "A Renyi value read as eps: the theorem's Renyi divergence of order "
                     "q = %s is in [%s, %s], %s the claimed eps = %s, but an (eps, delta) "
                     "eps needs the conversion of Remark 2.1 (eps >= %s at delta = %s): a "
                     "category error.",
                     in->q, rn.lo, rn.hi, reproduces ? "which reproduces" : "at most", in->eps,
                     eps_lo, in->delta);
            ul_audit_explain(rep, "%s", rep->forensics);
        }
    }
    ul_num_value_clear(&r);
}

static ul_verdict ngd_dp(const ngd_input *in, const ul_num_precision *want, ul_audit_report *rep,
                         bool primary, ul_status *status, char *err, size_t errlen)
{
    int digits = want->digits;
    char e2[512] = "";
    bool del = THM[in->thm].deletion;
    bool linear = THM[in->thm].linear;
    if (!linear && in->q == NULL) {
        *status = ul_fail(err, errlen, UL_EINPUT,
                          "$.parameters.q: missing (theorem '%s' certifies one order at a time: "
                          "give q to convert to (eps, delta))",
                          THEOREMS[in->thm]);
        return UL_VERDICT_INCONCLUSIVE;
    }
    /* the digits doubled while the enclosure straddles the claim, until
     * decided or the precision cap (--max-bits) stops it (the engine's loop,
     * audit_util.h); 6 guard digits over those printed */
    ul_num_precision w2 = *want;
    w2.digits = digits + 6;
    ul_audit_report tmp;
    ul_verdict verdict = UL_VERDICT_INCONCLUSIVE;
    char qs[64];
    dp_decide_ctx d = {in, &tmp, qs};
    *status = ul_audit_decide(dp_decide_once, &d, &w2, INT_MAX, &verdict, NULL, e2, sizeof e2);
    if (*status != UL_OK) {
        *status = path_error(err, errlen, *status, e2);
        return UL_VERDICT_INCONCLUSIVE;
    }
    if (primary) {
        rep->recomputed = tmp.recomputed;
        snprintf(rep->margin, sizeof rep->margin, "%s", tmp.margin);
    } else {
        ul_audit_add_reach(rep, &tmp.recomputed);
    }
    bool one_dir = one_directional(in->thm);
    ul_audit_explain(rep,
                     "Read as (eps, delta): converting the Renyi bound (Remark 2.1, "
                     "Mironov) gives eps in [%s, %s] at delta = %s (%s q = %s)%s.",
                     tmp.recomputed.lo, tmp.recomputed.hi, in->delta,
                     linear ? "best order" : "order", qs,
                     one_dir ? ", one-sided: P[unlearned in O] <= e^eps P[reference in O] + delta"
                     : del   ? " in both directions (G.15's argument is symmetric in the two runs)"
                             : "");
    if (one_dir && !in->one_sided && verdict == UL_VERDICT_SUPPORTED) {
        /* a two-sided claim (Def 2.1, the default reading) is not what the theorem gives */
        verdict = UL_VERDICT_UNSUPPORTED;
        ul_audit_explain(rep, "The theorem bounds the Renyi divergence in one direction only, so "
                              "it gives one-sided (eps, delta); the claim, read two-sided (Def "
                              "2.1; claim.one_sided absent), is not established. With "
                              "claim.one_sided true the one-sided claim holds.");
    }

    /* the category error: a Rényi value read as ε */
    bool equal_pair = in->r_value != NULL && ul_audit_dcmp(in->r_value, in->eps) == 0;
    if (equal_pair)
        ul_audit_explain(rep, "The claim gives the same number as the Renyi value and as the "
                              "(eps, delta) eps: every eps in Chourasia & Shah is a Renyi "
                              "divergence of order q, and reading it as an (eps, delta) eps is "
                              "a category error.");
    if (verdict == UL_VERDICT_UNSUPPORTED && in->q != NULL)
        renyi_read_as_eps(in, want, rep, tmp.recomputed.lo);
    return verdict;
}

/* ---- stated numbers ---------------------------------------------------------------------------
 */

static void set_wrong(ul_audit_report *rep, const char *fmt_text, const char *a, const char *b,
                      const char *c)
{
    if (rep->first_wrong_stated[0] == '\0')
        snprintf(rep->first_wrong_stated, sizeof rep->first_wrong_stated, fmt_text, a, b, c);
}

/* Thm 5.1's prescribed step size against stated.eta. */
static void stated_eta(const ngd_input *in, const ul_num_precision *want, ul_audit_report *rep)
{
    char e2[512];
    ul_num_report nr;
    ul_ngd_params pb = in->pb;
    int digits = want->digits;
    /* Thm 5.1: η = 1/(2(λ+β)) */
    ul_num_value v;
    ul_num_value_init(&v, 64);
    if (ul_ngd_thm51(&pb, UL_NGD_51_ETA, in->variant, want, &v, NULL, &nr, e2, sizeof e2) ==
        UL_OK) {
        if (!ul_audit_stated_agrees(in->st_eta, &v)) { /* the engine's rule */
            char lo[UL_AUDIT_NUMBER_CHARS], hi[UL_AUDIT_NUMBER_CHARS];
            ul_audit_quote_value(&v, digits, lo, hi);
            set_wrong(rep,
                      "$.stated.eta = %s: Thm 5.1 prescribes eta = 1/(2(lambda + beta)), "
                      "certified in [%s, %s]",
                      in->st_eta, lo, hi);
        }
    }
    ul_num_value_clear(&v);
}

/* A stated σ below the certified one (Thm 5.1's, or the smallest reaching the claim). */
static void stated_sigma(const ngd_input *in, const ul_num_precision *want, ul_audit_report *rep)
{
    char e2[512];
    ul_num_report nr;
    ul_ngd_params pb = in->pb;
    int digits = want->digits;
    mpfi_t s;
    mpfi_init2(s, 128);
    ul_status st;
    const char *what;
    if (in->thm == T_51) {
        ul_num_value v;
        ul_num_value_init(&v, 64);
        st = ul_ngd_thm51(&pb, UL_NGD_51_SIGMA, in->variant, want, &v, NULL, &nr, e2, sizeof e2);
        mpfi_set_prec(s, mpfi_get_prec(v.enclosure));
        mpfi_set(s, v.enclosure);
        ul_num_value_clear(&v);
        what = "Thm 5.1's sigma = sqrt(4 q L^2/(lambda eps_dp n^2))";
    } else {
        ul_ngd_sigma_kind kind = in->thm == T_G9    ? UL_NGD_SIGMA_G9
                                 : in->thm == T_G15 ? UL_NGD_SIGMA_G15
                                                    : UL_NGD_SIGMA_G7;
        pb.eps_dp = in->r_value;
        pb.eps_dd = in->r_value;
        st = ul_audit_dcmp(in->r_value, "0") > 0
                 ? ul_ngd_sigma_min(&pb, kind, in->form, want, s, NULL, &nr, e2, sizeof e2)
                 : UL_ENOROOT;
        what = "the smallest sigma reaching the claim";
    }
    ul_num_value sval; /* a read-only view of s */
    sval.enclosure[0] = *s;
    sval.is_log = false;
    if ((st == UL_OK || st == UL_ECAP) && ul_audit_decimal_below(in->st_sigma, &sval)) {
        char lo[UL_AUDIT_NUMBER_CHARS], hi[UL_AUDIT_NUMBER_CHARS];
        ul_audit_quote(s, digits, lo, hi);
        char range[2 * UL_AUDIT_NUMBER_CHARS + 8];
        snprintf(range, sizeof range, "[%s, %s]", lo, hi);
        set_wrong(rep, "$.stated.sigma = %s: below %s, certified in %s", in->st_sigma, what, range);
        if (ul_audit_rounds_to_nearest(in->st_sigma, s, NULL) && rep->forensics[0] == '\0')
            snprintf(rep->forensics, sizeof rep->forensics,
                     "Rounding %s (%s) to nearest at the stated decimals reproduces %s: it "
                     "was rounded to nearest instead of up.",
                     what, hi, in->st_sigma);
    }
    mpfi_clear(s);
}

/* A stated K_A below (17) (Thm 5.1) or (19) (Thm 5.2). */
static void stated_ka(const ngd_input *in, ul_audit_report *rep)
{
    char e2[512];
    ul_num_report nr;
    ul_ngd_params pb = in->pb;
    unsigned long k = 0, kp = 0;
    ul_status st;
    if (in->thm == T_51)
        st = ul_ngd_thm51_least_k(&pb, UL_NGD_51_KA_UTILITY, UL_VARIANT_CORRECTED, &k, NULL, &nr,
                                  e2, sizeof e2);
    else
        st = ul_ngd_thm52_least_k(&pb, UL_NGD_52_KA_MIN, &k, &nr, e2, sizeof e2);
    unsigned long long stated = in->st_KA_count;
    if (st == UL_OK && stated < k) {
        char ks[32], what[64];
        snprintf(ks, sizeof ks, "%lu", k);
        snprintf(what, sizeof what, "%s", in->thm == T_51 ? "(17)" : "(19)");
        set_wrong(rep, "$.stated.KA = %s: %s needs K_A >= %s", in->st_KA, what, ks);
        if (in->thm == T_51 &&
            ul_ngd_thm51_least_k(&pb, UL_NGD_51_KA_UTILITY, UL_VARIANT_PRINTED, &kp, NULL, &nr, e2,
                                 sizeof e2) == UL_OK &&
            kp == stated && rep->forensics[0] == '\0')
            snprintf(rep->forensics, sizeof rep->forensics,
                     "The stated K_A = %llu is what the proof text's 2 kappa gives instead of "
                     "the statement's 4 kappa (docs/noisy-gd.md erratum N10).",
                     stated);
    }
}

/* A stated K_Abar below (16), G.15's least or (19). */
static void stated_kabar(const ngd_input *in, const ul_num_precision *want, ul_audit_report *rep)
{
    char e2[512];
    ul_num_report nr;
    ul_ngd_params pb = in->pb;
    unsigned long k = 0;
    ul_status st;
    const char *what;
    if (in->thm == T_51) {
        st = ul_ngd_thm51_least_k(&pb, UL_NGD_51_KABAR_DELETION, in->variant, &k, NULL, &nr, e2,
                                  sizeof e2);
        what = "Thm 5.1 (16)";
    } else if (in->thm == T_G15) {
        pb.eps_dd = in->r_value;
        ul_num_value at;
        ul_num_value_init(&at, 64);
        st = ul_ngd_least_kabar_g15(&pb, in->form, 0, want, &k, &at, NULL, &nr, e2, sizeof e2);
        ul_num_value_clear(&at);
        what = "G.15";
    } else {
        st = ul_ngd_thm52_least_k(&pb, UL_NGD_52_KABAR_MIN, &k, &nr, e2, sizeof e2);
        what = "Thm 5.2 (19)";
    }
    unsigned long long stated = in->st_KAbar_count;
    if (st == UL_OK && stated < k) {
        char ks[32];
        snprintf(ks, sizeof ks, "%lu", k);
        set_wrong(rep, "$.stated.KAbar = %s: %s needs K_Abar >= %s", in->st_KAbar, what, ks);
    }
}

static void ngd_check_stated(const ngd_input *in, const ul_num_precision *want,
                             ul_audit_report *rep)
{
    if (in->st_eta != NULL)
        stated_eta(in, want, rep);
    if (in->st_sigma != NULL)
        stated_sigma(in, want, rep);
    if (in->st_KA != NULL)
        stated_ka(in, rep);
    if (in->st_KAbar != NULL)
        stated_kabar(in, want, rep);
    if (rep->first_wrong_stated[0] != '\0')
        ul_audit_explain(rep, "First wrong stated number: %s.", rep->first_wrong_stated);
}

/* ---- the handler ---------------------------------------------------------------------------- */

/* The claim and the theorem in words. */
static void ngd_claim_text(const ngd_input *in, ul_audit_report *rep)
{
    size_t off = 0;
    if (in->r_value != NULL)
        off += (size_t)snprintf(rep->claim, sizeof rep->claim, "Renyi (q, eps) = (%s, %s) (%s)",
                                in->q, in->r_value,
                                in->thm == T_43         ? "adaptive data-deletion"
                                : THM[in->thm].deletion ? "data-deletion"
                                                        : "RDP");
    if (in->eps != NULL && off < sizeof rep->claim)
        snprintf(rep->claim + off, sizeof rep->claim - off, "%s(eps, delta) = (%s, %s)",
                 off > 0 ? "; " : "", in->eps, in->delta);
    snprintf(rep->theorem, sizeof rep->theorem, "%s (arXiv:2210.08911; docs/noisy-gd.md)",
             THM[in->thm].cite);
}

/* The preconditions: the library's for the cited bound (corrected variant),
 * plus Thm 5.1's prescriptions or Thm 5.2(2)'s conditions. */
static ul_status ngd_preconditions(const ngd_input *in, ul_audit_report *rep, char *err,
                                   size_t errlen)
{
    char e2[512] = "";
    ul_pre_clear(&rep->pre);
    ul_num_precision quick = {6, 0, 0};
    ul_ngd_params pb = in->pb;
    ul_num_report nr;
    ul_preconditions pl;
    ul_pre_clear(&pl);
    ul_num_value tmpv;
    ul_num_value_init(&tmpv, 64);
    ul_status st = UL_OK;
    if (in->thm == T_51) {
        st =
            ul_ngd_thm51(&pb, UL_NGD_51_KAPPA, in->variant, &quick, &tmpv, &pl, &nr, e2, sizeof e2);
        if (st == UL_ECAP)
            st = UL_OK;
    } else if (in->thm == T_52D) {
        st = ul_ngd_thm52_check(&pb, UL_NGD_52_DELETION, in->variant, &pl, e2, sizeof e2);
        if (in->cited_variant == UL_VARIANT_PRINTED)
            ul_audit_explain(rep, "The certificate cites Thm 5.2(2)'s printed step-size "
                                  "condition alone; G.22, which its proof invokes, also needs "
                                  "eta <= lambda/(64 B q^2 (beta + lambda)^2) (docs/noisy-gd.md "
                                  "erratum N3), so both are required.");
    }
    if (st == UL_OK)
        pre_merge(&rep->pre, &pl);
    if (st == UL_OK && in->thm == T_51)
        ul_ngd_thm51_prescriptions(&in->pb, &rep->pre);
    if (st == UL_OK && in->thm != T_51) {
        /* the library's list for the cited bound (at the certificate's order when
         * given; the linear bounds' conditions do not involve q beyond q > 1) */
        ul_pre_clear(&pl);
        st = ngd_bound(in, in->q != NULL ? in->q : "2", in->form, in->variant, &quick, &tmpv, &pl,
                       e2, sizeof e2);
        ul_preconditions keep;
        ul_pre_clear(&keep);
        for (int i = 0; i < pl.count; i++)
            if (in->q != NULL || strcmp(pl.items[i].name, "q_gt_1") != 0)
                keep.items[keep.count++] = pl.items[i]; /* q_gt_1 at a stand-in order: dropped */
        pre_merge(&rep->pre, &keep);
    }
    ul_num_value_clear(&tmpv);
    return st == UL_OK ? UL_OK : path_error(err, errlen, st, e2);
}

/* Sorts the preconditions: *invalid (a failing one, except Thm 5.2's
 * iteration counts, which the claim's verdict weighs: *counts_fail) and
 * *undecided; each named in the explanation. */
static void ngd_classify(ul_audit_report *rep, bool *invalid, bool *undecided, bool *counts_fail)
{
    *invalid = *undecided = *counts_fail = false;
    for (int i = 0; i < rep->pre.count; i++) {
        const ul_precondition *p = &rep->pre.items[i];
        bool count_item = strcmp(p->name, "KA_ge_bound") == 0 ||
                          strcmp(p->name, "KAbar_ge_bound") == 0 ||
                          strcmp(p->name, "contraction_lt_1") == 0;
        if (p->state == UL_PRE_FAILS && count_item) {
            *counts_fail = true;
            ul_audit_explain(rep, "Condition %s fails: %s.", p->name, p->rule);
        } else if (p->state == UL_PRE_FAILS) {
            *invalid = true;
            ul_audit_explain(rep, "Precondition %s fails: %s.", p->name, p->rule);
        } else if (p->state == UL_PRE_UNDECIDED) {
            *undecided = true;
            ul_audit_explain(rep, "Precondition %s could not be decided: %s.", p->name, p->rule);
        }
    }
}

/* What is taken as given, in words. */
static void ngd_conventions(ul_audit_report *rep)
{
    ul_audit_explain(rep, "Every eps of Chourasia & Shah is a Renyi divergence of order q; "
                          "sigma is the paper's: each step adds noise of variance 2*eta*sigma^2 "
                          "per coordinate.");
}

/* The facts the theorem reads that the certificate leaves out (the omitted
 * readings of NGD_PARAMS: thm51's sigma and eta, the initialisation of the
 * deletion theorems fail; G.9's K is read as its supremum). */
static void ngd_note_omitted(const ngd_input *in, ul_audit_report *rep)
{
    const ul_ngd_params *pb = &in->pb;
    if (in->thm == T_51 && pb->sigma == NULL)
        ul_audit_note_omitted(rep, "parameters", &NGD_PARAMS[P_SIGMA]);
    if (in->thm == T_51 && pb->eta == NULL)
        ul_audit_note_omitted(rep, "parameters", &NGD_PARAMS[P_ETA]);
    if ((in->thm == T_G15 || in->thm == T_51 || in->thm == T_52D) && pb->init_var == NULL &&
        !in->init_law_stated)
        ul_audit_note_omitted(rep, "parameters", &NGD_PARAMS[P_INIT]);
    if (in->thm == T_G9 && pb->K == NULL)
        ul_audit_note_omitted(rep, "parameters", &NGD_PARAMS[P_K]);
}

/* The verdict of the claims (Rényi, (ε, δ) or both: the worse). */
static ul_status ngd_verdict(const ngd_input *in, const ul_num_precision *w, ul_audit_report *rep,
                             bool undecided, bool counts_fail, ul_verdict *verdict, char *err,
                             size_t errlen)
{
    ul_status st = UL_OK;
    *verdict = UL_VERDICT_SUPPORTED;
    if (in->r_value != NULL) {
        *verdict = ngd_renyi(in, w, rep, &st, err, errlen);
        if (st != UL_OK)
            return st;
        if (in->thm == T_52D && !counts_fail && !undecided && *verdict != UL_VERDICT_SUPPORTED) {
            /* every condition of Thm 5.2(2) holds (G.22's included): the theorem
             * gives the claim as stated, whatever the (looser) recursion bound */
            *verdict = UL_VERDICT_SUPPORTED;
            ul_audit_explain(rep,
                             "Every condition of Thm 5.2(2) holds (step size, K_A and "
                             "K_Abar of (19), G.22's step size), so the theorem gives "
                             "(q, eps_dd) = (%s, %s)-data-deletion as stated.",
                             in->q, in->r_value);
        }
    }
    if (in->eps != NULL) {
        ul_verdict v = ngd_dp(in, w, rep, in->r_value == NULL, &st, err, errlen);
        if (st != UL_OK)
            return st;
        *verdict = in->r_value == NULL ? v : ul_audit_worse(*verdict, v);
    }
    if (in->thm == T_52D && counts_fail && *verdict == UL_VERDICT_SUPPORTED)
        ul_audit_explain(rep, "Thm 5.2's iteration counts (19) are not met, but the recursion "
                              "of its proof (G.22, G.23, B.4; docs/noisy-gd.md "
                              "'Derived formulas') still "
                              "reaches the claim.");
    if (undecided && *verdict == UL_VERDICT_SUPPORTED)
        *verdict = UL_VERDICT_INCONCLUSIVE;
    return UL_OK;
}

static ul_status ngd_audit(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                           char *err, size_t errlen)
{
    ul_num_init();
    ul_audit_report_init(rep);
    ngd_input in;
    ul_status st = ngd_read(c, &in, false, err, errlen);
    if (st != UL_OK)
        return st;
    ul_num_precision w = ul_audit_precision(want);
    ngd_claim_text(&in, rep);
    ngd_note_omitted(&in, rep);
    st = ngd_preconditions(&in, rep, err, errlen);
    if (st != UL_OK)
        return st;
    bool invalid, undecided, counts_fail;
    ngd_classify(rep, &invalid, &undecided, &counts_fail);
    if (invalid) {
        rep->verdict = UL_VERDICT_INVALID;
        ul_audit_explain(rep, "The cited theorem does not apply, so it supports no claim here.");
        return UL_OK;
    }
    ngd_conventions(rep);
    ul_verdict verdict;
    st = ngd_verdict(&in, &w, rep, undecided, counts_fail, &verdict, err, errlen);
    if (st != UL_OK)
        return st;
    if (in.thm == T_51) {
        unsigned long k;
        ul_ngd_params p2 = in.pb;
        ul_num_report nr;
        char e2[512];
        if (ul_ngd_thm51_least_k(&p2, UL_NGD_51_KABAR_DELETION, in.variant, &k, NULL, &nr, e2,
                                 sizeof e2) == UL_OK)
            ul_audit_explain(rep,
                             "Thm 5.1 (16) asks K_Abar >= 4 kappa log(eps_dp/eps_dd), i.e. "
                             "K_Abar >= %lu; the certificate runs %s.",
                             k, in.pb.KAbar);
    }
    ngd_check_stated(&in, &w, rep);
    ul_audit_explain(rep,
                     "A bound, not an exact privacy profile: a claim beyond it is "
                     "unsupported, not refuted. The loss-shape assumptions (%s) are the "
                     "certificate's to establish.",
                     in.thm == T_52D ? "L-Lipschitz, beta-smooth, (sigma^2 log B/4)-bounded"
                     : in.thm == T_G7 || in.thm == T_52P || in.thm == T_43
                         ? "L-Lipschitz loss or gradients clipped at L"
                         : "convex, beta-smooth, L-Lipschitz or clipped at L");
    rep->verdict = verdict;
    return UL_OK;
}

/* ---- calibration --------------------------------------------------------------------------- */

/* `ulaudit calibrate`, theorem g15 with a Rényi claim (q, ε_dd): parameters.
 * KAbar absent, or given but not supporting the claim → K_Abar = the
 * certified least K_Abar whose G.15 bound (in the certificate's g15_form)
 * is ≤ ε_dd (ul_ngd_least_kabar_g15: the bound at K_Abar − 1 provably
 * exceeds it).  A certificate that already audits as supported is returned
 * unchanged (re-serialised, "expected" dropped).  The completed
 * certificate is audited again and must be supported, else UL_EINPUT. */
static ul_status ngd_calibrate(const ul_cert *c, const ul_num_precision *want, char **completed,
                               char *err, size_t errlen)
{
    ul_num_init();
    *completed = NULL;
    ngd_input in;
    ul_status st = ngd_read(c, &in, true, err, errlen);
    if (st != UL_OK)
        return st;
    ul_num_precision w = ul_audit_precision(want);
    if (in.thm != T_G15)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.theorem: calibrate fills in KAbar for theorem 'g15' only "
                       "(got '%s')",
                       THEOREMS[in.thm]);
    if (in.r_value == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.claim.renyi_value: calibrate needs the deletion claim (renyi_order, "
                       "renyi_value) to calibrate K_Abar for");
    if (ul_audit_dcmp(in.r_value, "0") <= 0)
        return ul_fail(err, errlen, UL_ENOROOT,
                       "$.claim.renyi_value: no K_Abar reaches a deletion eps of 0");
    const char *path = "$.parameters.KAbar";
    char value[32];
    if (in.pb.KAbar != NULL) {
        ul_audit_report rep;
        st = ngd_audit(c, &w, &rep, err, errlen);
        if (st != UL_OK)
            return st;
        ul_audit_apply_omitted(&rep); /* as ul_audit does */
        if (rep.verdict == UL_VERDICT_SUPPORTED)
            return ul_cert_to_json_with(c, "parameters", "KAbar", in.pb.KAbar, completed, err,
                                        errlen);
        if (rep.verdict == UL_VERDICT_INVALID)
            return ul_fail(err, errlen, UL_EINPUT,
                           "$.parameters: a precondition of the cited theorem fails (see "
                           "`ulaudit audit`); no K_Abar makes the claim supported");
    }
    ul_ngd_params pb = in.pb;
    pb.eps_dd = in.r_value;
    pb.KAbar = NULL;
    unsigned long k = 0;
    ul_num_report nr;
    char e2[512] = "";
    st = ul_ngd_least_kabar_g15(&pb, in.form, 0, &w, &k, NULL, NULL, &nr, e2, sizeof e2);
    if (st == UL_ENOROOT)
        return ul_fail(err, errlen, UL_ENOROOT,
                       "%s: no K_Abar reaches the deletion eps %s at order q = %s (%s)", path,
                       in.r_value, in.q, e2);
    if (st != UL_OK)
        return path_error(err, errlen, st, e2);
    snprintf(value, sizeof value, "%lu", k);
    char *text = NULL;
    st = ul_cert_to_json_with(c, "parameters", "KAbar", value, &text, err, errlen);
    if (st != UL_OK)
        return st;
    if (!ul_audit_recheck_supported(text, ngd_audit, &w, e2, sizeof e2)) {
        free(text);
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: the calibrated K_Abar = %s did not audit as supported (%s)", path,
                       value, e2);
    }
    *completed = text;
    return UL_OK;
}

const ul_audit_method ul_audit_noisy_gd = {"noisy-gd", ngd_audit, ngd_calibrate,
                                          NGD_PARAMS, P_COUNT};
