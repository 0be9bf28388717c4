/* src/audit/audit_langevin.c — audit handlers for Langevin unlearning (Chien,
 * Wang, Chen, Li, arXiv:2401.10371v4; docs/langevin.md) and for
 * its Descent-to-Delete baseline (Neel, Roth, Sharifi-Malvajerdi 2021, as
 * restated in App. M of the same paper: Thms M.1 and M.2).
 *
 * ===== method "langevin" =====================================================
 *
 * "parameters" (numbers are decimals read exactly; counts are whole numbers):
 *   case       string, required   "strongly-convex" | "convex" | "nonconvex":
 *                                 which case of Thms 3.2/3.3 is cited
 *   n          count, required    dataset size, 1 ≤ n ≤ 1e15 (adjacency
 *                                 replaces up to S records; n stays fixed)
 *   m          decimal            strong convexity constant, 0 < m ≤ L;
 *                                 required for "strongly-convex", refused
 *                                 otherwise (the paper's experiments: m = λ)
 *   L          decimal, required  smoothness constant, 0 < L ≤ 1e100
 *   M          decimal, required  Lipschitz constant or per-sample gradient
 *                                 clip norm, 0 < M ≤ 1e100
 *   eta        decimal, optional  step size η > 0; absent = 1/L exactly
 *                                 (the paper's choice)
 *   sigma      decimal, required  the LANGEVIN σ > 0: every projected noisy
 *                                 GD step adds √(2ησ²)·N(0, I_d), i.e. the
 *                                 injected noise VARIANCE per coordinate is
 *                                 2ησ² (standard deviation √(2η)·σ), not σ²;
 *                                 required by `audit`, may be left out for
 *                                 `calibrate` (which fills it in)
 *   K          count, required    unlearning steps run after the request
 *                                 (0 ≤ K ≤ 1e15); required by `audit`, may be
 *                                 left out for `calibrate`
 *   S          count, optional    records replaced by the request (group
 *                                 size, batch deletion), 1 ≤ S ≤ n; default 1
 *   T          count, optional    learning iterations, ≥ 1; absent = learning
 *                                 run to convergence (T → ∞, Algorithm 8), the
 *                                 conservative reading
 *   rate       string, optional   "printed" | "corrected" (default): the
 *                                 per-step rates R_k of Thm 3.2 cases 1–2
 *                                 (docs/langevin.md, Errata L1)
 *   eps0_form  string, optional   "printed" | "corrected" (default): the sum
 *                                 and cap of Thm 3.3, cases 1–2 (docs/langevin.md,
 *                                 Errata L2–L3)
 *   R          decimal            radius of the projection ball C_R, ≥ 0;
 *                                 required for "convex" / "nonconvex"
 *   C_LSI      decimal            LSI constant of the learned law ν_D (Chewi's
 *                                 convention: N(μ, cI) is c-LSI; bigger is
 *                                 worse), > 0; required for "convex" /
 *                                 "nonconvex"
 *   C0         decimal, optional  LSI constant of the initial law, ≥ 0
 *                                 (default 0: a point initialisation);
 *                                 "convex" / "nonconvex" only
 *   In the strongly convex case C_LSI = C0 = 2σ²/m (App. D, Table 1) and the
 *   rates are R = mη (Thm 3.2 case 3: printed and corrected coincide), so
 *   rate/eps0_form change nothing there and R, C_LSI, C0 are refused.
 *
 * "claim" (at least one complete pair):
 *   eps, delta                 (ε, δ)-unlearning (Def L.1, two-sided) of
 *                              U(M(D)) against M(D') after K steps;
 *                              eps ≥ 0, 0 < delta < 1
 *   renyi_order, renyi_value   (α, ε)-Rényi unlearning (Def 2.4, the Rényi
 *                              difference d_α, natural log); α > 1, ε ≥ 0
 *
 * "stated" (optional; intermediate numbers of the certificate, checked in
 * this order, each against the (eps, delta) claim):
 *   sigma      decimal > 0        the smallest σ the certificate says reaches
 *                                 its (ε, δ) claim after K steps (Algorithm
 *                                 4's output, e.g. Table 3)
 *   K          count              the least K the certificate says reaches
 *                                 its (ε, δ) claim at σ (Algorithm 5's output)
 *
 * The guarantee (Prop L.2 with Thms 3.2, 3.3):
 *   ε_DP(K, σ, S) = min_{α>1} [ exp(−Λ_K/α)·ε0(α) + log(1/δ)/(α − 1) ],
 * Λ_K = Σ_{k<K} R_k, ε0(α) = α·E (E the slope of Thm 3.3).  It is a bound,
 * never an exact profile: a claim beyond it is "unsupported", never
 * "refuted".  "supported" needs one α whose certified bound is ≤ ε;
 * "unsupported" needs a rigorous lower bound of the minimum over every
 * α > 1 above ε (the library's certified least K for the strongly convex
 * case, a branch and bound over α below for the others).
 *
 * Calibration (`ulaudit calibrate`, strongly convex case, (ε, δ) claim):
 * K absent, or given but not supporting the claim at the given σ → K = the
 * certified least K (ul_langevin_sc_least_k); σ absent → σ = the certified
 * safe (upper) end of the smallest σ at K (ul_langevin_sc_sigma_min),
 * rounded UP to --digits significant digits.  The completed certificate
 * is audited again and must be supported.
 *
 * ===== method "d2d" ==========================================================
 *
 * "parameters":
 *   theorem    string, required   "M.1" (Neel et al. Thm 9: fine-tuning on
 *                                 the kept, un-noised parameters) | "M.2"
 *                                 (Thm 28: no internal state)
 *   L, m, M    decimals, required smoothness, strong convexity, Lipschitz
 *                                 constant: 0 < m ≤ L ≤ 1e100, 0 < M ≤ 1e100;
 *                                 gradient steps 2/(L + m) contract by
 *                                 γ = (L − m)/(L + m)
 *   n          count, required    dataset size, 1 ≤ n ≤ 1e15
 *   d          count              dimension, ≥ 1; required for M.2
 *   I          count, required    fine-tuning GD steps per deletion, ≥ 1
 *                                 (the I of (86)–(88))
 *   sigma      decimal, required  STANDARD DEVIATION of the Gaussian noise
 *                                 added to the published parameter,
 *                                 Z ~ N(0, σ² I_d) (Alg. 2 line 8) — not a
 *                                 Langevin σ
 *   request    count, optional    M.2 only: the index i ≥ 1 of the
 *                                 sequential request audited (default 1)
 *   R          decimal, optional  radius of the parameter set, > 0 (with T)
 *   T          count, optional    learning GD iterations; checked against
 *                                 I + log(2Rmn/(2M))/log(1/γ) (needs R)
 * "claim": eps > 0, delta (0 < δ < 1): (ε, δ)-unlearning for add/remove
 *   adjacency (Neel et al.'s; docs/langevin.md, Errata L18).
 * "stated" (optional, checked in this order):
 *   sigma       decimal > 0       the σ the certificate computed from (86)
 *                                 (M.1) or (88) (M.2) for its claim and I
 *   iterations  count             the fine-tuning steps it runs for request
 *                                 i: M.1 I; M.2 I + ⌈log(log(4di/δ))/log(1/γ)⌉
 *   I_min       count             M.2: the least I meeting (87)
 *   T_min       count             the least learning T (needs R)
 * The guarantee: the theorem gives the claim when sigma ≥ its σ formula at
 * (ε, δ, I) (more output noise is post-processing) and the iteration
 * conditions hold.
 */
#include "audit/audit.h"
#include "audit/audit_omitted.h"
#include "audit/audit_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/d2d.h"
#include "bounds/langevin.h"
#include "num/encl.h"

/* ---- small shared helpers ------------------------------------------------------------ */

static const char *const VARIANTS[] = {"printed", "corrected", NULL};

static bool fhas(const ul_cert_values *v, const char *name)
{
    return ul_audit_field_text(v, name) != NULL;
}

static unsigned long fcount(const ul_cert_values *v, const char *name, unsigned long dflt)
{
    const ul_cert_value *x = ul_cert_values_get(v, name);
    return x != NULL && x->present ? (unsigned long)x->count : dflt;
}

/* A bounds-layer message "name: rule" turned into a JSON-path message. */
static ul_status path_error(char *err, size_t errlen, ul_status st, const char *msg)
{
    const char *object = "parameters";
    if (strncmp(msg, "eps:", 4) == 0 || strncmp(msg, "delta:", 6) == 0)
        object = "claim";
    return ul_fail(err, errlen, st == UL_OK ? UL_EINPUT : st, "$.%s.%s", object, msg);
}

static ul_pre_state holds(bool b)
{
    return b ? UL_PRE_HOLDS : UL_PRE_FAILS;
}

/* Lists the failing and undecided preconditions into the explanation;
 * returns the overall state. */
static ul_pre_state explain_pre(ul_audit_report *rep)
{
    ul_pre_state all = ul_pre_overall(&rep->pre);
    for (int i = 0; i < rep->pre.count; i++) {
        const ul_precondition *p = &rep->pre.items[i];
        if (p->state == UL_PRE_FAILS)
            ul_audit_explain(rep, "Precondition %s fails: %s.", p->name, p->rule);
        else if (p->state == UL_PRE_UNDECIDED)
            ul_audit_explain(rep, "Precondition %s could not be decided: %s.", p->name, p->rule);
    }
    return all;
}

/* Forensics for a stated value v below a certified least value x ∈ [lo, hi]
 * (linear form): whether rounding x to nearest at the number of decimals v
 * is written with reproduces v.  Writes the sentence into out (empty when
 * not). */
static void rounding_forensics(char *out, size_t len, const char *v, const ul_num_value *x,
                               const char *what)
{
    out[0] = '\0';
    long decimals = 0;
    if (ul_audit_rounds_to_nearest(v, x->enclosure, &decimals)) {
        char *xs = ul_audit_format_up_readable(&x->enclosure->right, 10);
        snprintf(out, len,
                 "Rounding the certified %s (%s) to nearest at %ld decimal(s) reproduces the "
                 "stated %s: it was rounded to nearest instead of up, which lands on the unsafe "
                 "side.",
                 what, xs, decimals, v);
        free(xs);
    }
}

/* ====================================================================================== */
/* ---- method "langevin" ------------------------------------------------------------------ */

static const char *const LG_CASES[] = {"strongly-convex", "convex", "nonconvex", NULL};

static const ul_field_spec LG_PARAMS[] = {
    {.name = "case",
     .type = UL_FIELD_STRING,
     .required = true,
     .choices = LG_CASES,
     .doc = "which case of Thms 3.2/3.3: strongly-convex, convex or nonconvex"},
    {.name = "n",
     .type = UL_FIELD_COUNT,
     .required = true,
     .domain = &ul_domain_dataset_size,
     .doc = "dataset size"},
    /* L before m: the required constant is read (and refused) first */
    {.name = "L",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .domain = &ul_domain_positive,
     .doc = "smoothness constant",
     .exact = true},
    {.name = "m",
     .type = UL_FIELD_DECIMAL,
     .domain = &ul_domain_positive,
     .doc = "strong convexity constant (strongly-convex case)",
     .exact = true},
    {.name = "M",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .domain = &ul_domain_positive,
     .doc = "Lipschitz constant or gradient clip norm"},
    {.name = "eta",
     .type = UL_FIELD_DECIMAL,
     .domain = &ul_domain_positive,
     .doc = "step size",
     .exact = true,
     .omitted = "unknown: Thms 3.2 and 3.3 hold only for eta <= 1/L (2/L in the convex case, "
                "1/m bounds it too in the strongly convex one), and an unstated step size "
                "cannot be checked against them",
     .omitted_fails = true},
    /* sigma and K: required by `audit` (checked in lg_read, same message as a
     * required field's); `calibrate` fills in the one that is missing */
    {.name = "sigma",
     .type = UL_FIELD_DECIMAL,
     .domain = &ul_domain_positive,
     .doc = "Langevin sigma: injected noise variance 2*eta*sigma^2 per step"},
    {.name = "K",
     .type = UL_FIELD_COUNT,
     .hi = "1000000000000000",
     .doc = "unlearning steps"},
    {.name = "S",
     .type = UL_FIELD_COUNT,
     .lo = "1",
     .doc = "records replaced per request",
     .omitted = "S = n, every record in one request: the bound grows with S (Thm 3.3, eps0 "
                "of a group of S records, the S^2 of its sensitivity)"},
    {.name = "T", .type = UL_FIELD_COUNT, .lo = "1", .doc = "learning iterations"},
    {.name = "converged",
     .type = UL_FIELD_BOOL,
     .doc = "learning ran to convergence: the learned model follows the stationary law nu_D "
            "(Thm 3.2's y_0 = x_inf); instead of a finite T",
     .omitted = "not shown to have converged (when T is omitted too): Thm 3.2 and Cor 3.4 start "
                "unlearning from the stationary law of learning, and nothing says learning "
                "reached it",
     .omitted_fails = true},
    {.name = "rate",
     .type = UL_FIELD_STRING,
     .choices = VARIANTS,
     .doc = "Thm 3.2 rates: printed or corrected"},
    {.name = "eps0_form",
     .type = UL_FIELD_STRING,
     .choices = VARIANTS,
     .doc = "Thm 3.3 sum and cap: printed or corrected"},
    {.name = "R",
     .type = UL_FIELD_DECIMAL,
     .domain = &ul_domain_nonneg,
     .doc = "projection radius (convex, nonconvex)"},
    {.name = "C_LSI",
     .type = UL_FIELD_DECIMAL,
     .domain = &ul_domain_positive,
     .doc = "LSI constant of the learned law (convex, nonconvex)"},
    {.name = "C0",
     .type = UL_FIELD_DECIMAL,
     .domain = &ul_domain_nonneg,
     .doc = "LSI constant of the initial law (convex, nonconvex)",
     .omitted = "unknown initial law (convex, nonconvex): Thm 3.3's LSI recursion starts from "
                "the initial law's constant C0, and an unstated one cannot be checked",
     .omitted_fails = true},
};
#define LG_N_PARAMS (sizeof LG_PARAMS / sizeof LG_PARAMS[0])

static const ul_field_spec LG_CLAIM[] = {
    UL_AUDIT_CLAIM_EPS(false, &ul_domain_eps_renyi, "(eps, delta)-unlearning eps"),
    UL_AUDIT_CLAIM_DELTA(false, "(eps, delta)-unlearning delta"),
    UL_AUDIT_CLAIM_RENYI_ORDER("Renyi order alpha"),
    UL_AUDIT_CLAIM_RENYI_VALUE("Renyi unlearning eps at that order"),
};
#define LG_N_CLAIM (sizeof LG_CLAIM / sizeof LG_CLAIM[0])

static const ul_field_spec LG_STATED[] = {
    {.name = "sigma",
     .type = UL_FIELD_DECIMAL,
     .domain = &ul_domain_positive,
     .doc = "calibrated smallest sigma (Algorithm 4)"},
    {.name = "K",
     .type = UL_FIELD_COUNT,
     .hi = "1000000000000000",
     .doc = "calibrated least K (Algorithm 5)"},
};
#define LG_N_STATED (sizeof LG_STATED / sizeof LG_STATED[0])

typedef struct {
    ul_langevin_case kind;
    const char *n, *m, *L, *M, *eta, *sigma, *R, *C0, *C_lsi;
    unsigned long K, S, T; /* K: the last request's steps; T = 0: to convergence */
    bool converged;        /* T = 0 stated as "converged": true */
    ul_cert_values params; /* as read, for the omitted facts */
    unsigned long Ks[UL_LANGEVIN_MAX_REQUESTS]; /* steps per request, in order */
    size_t n_req;          /* requests (Cor 3.4); 1 = a single request (Thm 3.2) */
    bool has_K;            /* false only when calibrating (K then reads 0) */
    ul_variant rate, eps0_form; /* as cited; verdicts use the corrected forms */
    mpfr_prec_t max_bits;  /* precision cap of the decisions over α */
    const char *eps, *delta, *r_alpha, *r_value;
    const char *st_sigma;
    bool has_st_K;
    unsigned long st_K;
} lg_input;

static ul_variant variant_of(const char *text)
{
    return text != NULL && strcmp(text, "printed") == 0 ? UL_VARIANT_PRINTED : UL_VARIANT_CORRECTED;
}

/* The fields of the chosen case: m for the strongly convex case only; R,
 * C_LSI (and C0, default 0) for the others only. */
static ul_status lg_read_case(const ul_cert_values *p, lg_input *in, char *err, size_t errlen)
{
    const char *kind = ul_audit_field_text(p, "case");
    bool sc = in->kind == UL_LANGEVIN_STRONGLY_CONVEX;
    if (sc && in->m == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.m: missing (the strongly convex case needs m)");
    if (!sc && in->m != NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.m: only the strongly-convex case uses m (case is '%s')", kind);
    static const char *const general_only[] = {"R", "C_LSI", "C0"};
    for (size_t i = 0; i < 3; i++) {
        if (sc && fhas(p, general_only[i]))
            return ul_fail(err, errlen, UL_EINPUT,
                           "$.parameters.%s: not used in the strongly-convex case (C_LSI = C0 = "
                           "2 sigma^2/m there, App. D)",
                           general_only[i]);
    }
    if (!sc && in->R == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.R: missing (the %s case needs the projection radius)", kind);
    if (!sc && in->C_lsi == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.C_LSI: missing (the %s case needs the LSI constant of nu_D)",
                       kind);
    if (!sc && in->C0 == NULL)
        in->C0 = "0"; /* any value: its omission fails (LG_PARAMS) */
    char S[32];
    snprintf(S, sizeof S, "%lu", in->S);
    if (ul_audit_dcmp(S, in->n) > 0) /* exact: both whole numbers */
        return ul_fail(err, errlen, UL_EINPUT, "$.parameters.S: must be at most n (got %lu)",
                       in->S);
    return UL_OK;
}

/* "parameters" into *in (sigma and K may be absent when calibrating). */
static ul_status lg_read_params(const ul_cert_values *p, lg_input *in, bool calibrating,
                                char *err, size_t errlen)
{
    const char *kind = ul_audit_field_text(p, "case");
    in->kind = strcmp(kind, "strongly-convex") == 0 ? UL_LANGEVIN_STRONGLY_CONVEX
               : strcmp(kind, "convex") == 0        ? UL_LANGEVIN_CONVEX
                                                    : UL_LANGEVIN_NONCONVEX;
    in->n = ul_audit_field_text(p, "n");
    in->m = ul_audit_field_text(p, "m");
    in->L = ul_audit_field_text(p, "L");
    in->M = ul_audit_field_text(p, "M");
    in->eta = ul_audit_field_text(p, "eta");
    in->sigma = ul_audit_field_text(p, "sigma");
    in->R = ul_audit_field_text(p, "R");
    in->C0 = ul_audit_field_text(p, "C0");
    in->C_lsi = ul_audit_field_text(p, "C_LSI");
    if (!calibrating && in->sigma == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.sigma: missing required field (a decimal number: Langevin "
                       "sigma: injected noise variance 2*eta*sigma^2 per step)");
    const ul_cert_value *kv = ul_cert_values_get(p, "K");
    in->has_K = kv->present;
    if (!calibrating && !in->has_K)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.K: missing required field (a whole number: unlearning "
                       "steps; or a list of them, one per sequential request)");
    in->n_req = 1;
    if (in->has_K) {
        ul_status s = ul_io_read_counts(kv, UL_LANGEVIN_MAX_K, in->Ks,
                                           UL_LANGEVIN_MAX_REQUESTS, &in->n_req, err, errlen);
        if (s != UL_OK)
            return s;
    }
    in->K = in->Ks[in->n_req - 1];
    in->max_bits = UL_NUM_DEFAULT_MAX_BITS; /* the callers apply --max-bits */
    /* S omitted: n, the reading least favourable to the claim (LG_PARAMS) */
    in->S = fcount(p, "S", fcount(p, "n", 1));
    in->T = fcount(p, "T", 0);
    const ul_cert_value *cv = ul_cert_values_get(p, "converged");
    in->converged = cv->present && cv->boolean;
    if (in->converged && in->T != 0)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.converged: true contradicts the finite learning time "
                       "$.parameters.T = %lu (state one or the other)",
                       in->T);
    in->params = *p;
    in->rate = variant_of(ul_audit_field_text(p, "rate"));
    in->eps0_form = variant_of(ul_audit_field_text(p, "eps0_form"));
    return lg_read_case(p, in, err, errlen);
}

/* "claim" and "stated" into *in. */
static ul_status lg_read_claim(const ul_cert_values *cl, const ul_cert_values *st, lg_input *in,
                               char *err, size_t errlen)
{
    in->eps = ul_audit_field_text(cl, "eps");
    in->delta = ul_audit_field_text(cl, "delta");
    in->r_alpha = ul_audit_field_text(cl, "renyi_order");
    in->r_value = ul_audit_field_text(cl, "renyi_value");
    if ((in->eps == NULL) != (in->delta == NULL))
        return ul_fail(err, errlen, UL_EINPUT, "$.claim.%s: missing (eps and delta go together)",
                       in->eps == NULL ? "eps" : "delta");
    if ((in->r_alpha == NULL) != (in->r_value == NULL))
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.claim.%s: missing (renyi_order and renyi_value go together)",
                       in->r_alpha == NULL ? "renyi_order" : "renyi_value");
    if (in->eps == NULL && in->r_alpha == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.claim: needs eps and delta, or renyi_order and renyi_value");
    in->st_sigma = ul_audit_field_text(st, "sigma");
    in->has_st_K = fhas(st, "K");
    in->st_K = fcount(st, "K", 0);
    if ((in->st_sigma != NULL || in->has_st_K) && in->eps == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.stated.%s: a calibrated value needs an (eps, delta) claim to check",
                       in->st_sigma != NULL ? "sigma" : "K");
    return UL_OK;
}

/* Reads a "langevin" certificate.  calibrating: parameters.sigma or
 * parameters.K may be absent (the audit requires both). */
static ul_status lg_read(const ul_cert *c, lg_input *in, bool calibrating, char *err,
                         size_t errlen)
{
    ul_cert_values p, cl, st;
    ul_status s =
        ul_audit_read_object_list(c, "parameters", LG_PARAMS, LG_N_PARAMS, "K", &p, err, errlen);
    if (s == UL_OK)
        s = ul_cert_read_object(c, "claim", LG_CLAIM, LG_N_CLAIM, &cl, err, errlen);
    if (s == UL_OK)
        s = ul_cert_read_object(c, "stated", LG_STATED, LG_N_STATED, &st, err, errlen);
    if (s != UL_OK)
        return s;
    memset(in, 0, sizeof *in);
    s = lg_read_params(&p, in, calibrating, err, errlen);
    return s == UL_OK ? lg_read_claim(&cl, &st, in, err, errlen) : s;
}

/* The numerical preconditions, decided exactly on the rationals
 * (bounds/langevin.h ul_langevin_step_cmp_of). */
static void lg_preconditions(const lg_input *in, ul_preconditions *pre)
{
    ul_pre_clear(pre);
    ul_langevin_step_cmp c;
    bool sc = in->kind == UL_LANGEVIN_STRONGLY_CONVEX;
    ul_langevin_step_cmp_of(&c, in->L, in->eta, sc ? in->m : NULL);
    if (sc) {
        ul_pre_add(pre, "m_le_L",
                   "m <= L: an m-strongly convex, L-smooth loss needs m <= L (Chien et al. 2024, "
                   "App. B (4)-(5))",
                   holds(c.m_L <= 0));
        ul_pre_add(pre, "eta_le_1_over_L",
                   "step size eta <= 1/L (Thm 3.2 case 3 and Thm 3.3 (3); Chien et al. 2024)",
                   holds(c.eta_L <= 0));
        ul_pre_add(pre, "eta_le_sc_bound",
                   "eta <= (2/m)(1 - sigma^2/(m C_LSI)) = 1/m with C_LSI = 2 sigma^2/m (Thm 3.2 "
                   "case 3, Thm 3.3 (3); Chien et al. 2024, App. D)",
                   holds(c.eta_m <= 0));
        ul_pre_add(pre, "sigma2_over_m_lt_C_LSI",
                   "sigma^2/m < C_LSI = C0 = 2 sigma^2/m (Thm 3.2 case 3, Thm 3.3 (3); "
                   "Chien et al. 2024, App. D, Table 1)",
                   UL_PRE_HOLDS);
    } else if (in->kind == UL_LANGEVIN_CONVEX) {
        ul_pre_add(pre, "eta_le_2_over_L",
                   "step size eta <= 2/L (Thm 3.2 case 2 and Thm 3.3 convex case; "
                   "Chien et al. 2024)",
                   holds(c.eta_L2 <= 0));
    }
    if (in->T != 0 || (!in->converged && ul_audit_field_text(&in->params, "converged") != NULL))
        ul_pre_add(pre, "learning_stationary",
                   "Thm 3.2 (and Cor 3.4) bound unlearning started from the stationary law "
                   "nu_D (y_0 = x_inf, learning run to convergence); a finite learning time T "
                   "starts it from nu_{D,T}, which the theorem does not cover: the factor "
                   "(1 - e^{-m eta T}) of Thm 3.3 bounds two T-step learning runs, not nu_{D,T} "
                   "against nu_{D'} (docs/langevin.md, \"Insufficient training\", whose bound is "
                   "not implemented); state \"converged\": true for learning run to "
                   "convergence",
                   UL_PRE_FAILS);
}

static ul_langevin_sc_problem lg_sc_problem(const lg_input *in)
{
    ul_langevin_sc_problem pb = {
        in->n, in->m, in->L, in->M, in->eta, in->delta, in->S, in->T, UL_VARIANT_CORRECTED};
    return pb;
}

/* The whole problem for bounds/langevin_problem.c (learning read as run to
 * convergence: a finite T fails lg_preconditions before any bound). */
static ul_langevin_problem lg_problem(const lg_input *in)
{
    ul_langevin_problem pb = {in->kind, in->n,    in->m,  in->L,     in->M,
                              in->eta,  in->R,    in->C0, in->C_lsi, in->delta,
                              in->S,    in->Ks,   in->n_req, in->max_bits};
    return pb;
}

/* Does the corrected bound at (sigma, K of the last request) reach eps? */
static ul_side lg_reaches(const lg_input *in, const char *sigma, const char *eps, char *err,
                          size_t errlen, ul_status *st)
{
    ul_langevin_problem pb = lg_problem(in);
    ul_langevin_point pt = {sigma, in->K, UL_VARIANT_CORRECTED, UL_VARIANT_CORRECTED};
    return ul_langevin_problem_reaches(&pb, &pt, eps, NULL, NULL, 0, st, err, errlen);
}

/* ε_RU at the claimed order (rates and Thm 3.3 form as given). */
static ul_status lg_renyi(const lg_input *in, ul_variant rate, ul_variant e0,
                          const ul_num_precision *want, ul_num_value *out, bool *capped, char *err,
                          size_t errlen)
{
    ul_langevin_problem pb = lg_problem(in);
    ul_langevin_point pt = {in->sigma, in->K, rate, e0};
    return ul_langevin_problem_renyi(&pb, &pt, in->r_alpha, want, out, capped, err, errlen);
}

/* ---- the (ε, δ) claim ------------------------------------------------------------------ */

static const char *const SC_THEOREM =
    "Chien et al. 2024 (arXiv:2401.10371v4): Thm 3.2 case 3 (rate R = m*eta with C_LSI = "
    "2 sigma^2/m, App. D), Thm 3.3 (3) (eps0), Prop L.2 (to (eps, delta)), minimised over alpha > "
    "1";
static const char *const GEN_THEOREM[2] = {
    "Chien et al. 2024 (arXiv:2401.10371v4): Thm 3.2 case 2 (convex rates), Thm 3.3 convex case "
    "(eps0, LSI recursion with caps), Prop L.2 (to (eps, delta)), minimised over alpha > 1",
    "Chien et al. 2024 (arXiv:2401.10371v4): Thm 3.2 case 1 (non-convex rates), Thm 3.3 "
    "(eps0, LSI recursion with caps), Prop L.2 (to (eps, delta)), minimised over alpha > 1"};

/* Strongly convex, claim reached at the searched α: the report's sentences. */
static void lg_sc_explain_within(const lg_input *in, const char *alpha, ul_audit_report *rep)
{
    snprintf(rep->margin, sizeof rep->margin,
             "claimed eps %s; certified eps_DP <= %s at alpha = %s: the claim is within "
             "the certified bound",
             in->eps, rep->recomputed.hi, alpha);
    ul_audit_explain(rep,
                     "With sigma = %s and K = %lu the theorem certifies eps_DP <= %s at "
                     "delta = %s (Renyi order alpha = %s), within the claimed eps = %s.",
                     in->sigma, in->K, rep->recomputed.hi, in->delta, alpha, in->eps);
}

/* Strongly convex, the certified least K Kstar ≤ K reaches the claim. */
static void lg_sc_explain_least_k(const lg_input *in, unsigned long Kstar, const char *alpha2,
                                  const ul_num_value *reached, int digits, ul_audit_report *rep)
{
    ul_audit_number_set(&rep->recomputed, "eps",
                        "eps_DP after the least K (>= the bound "
                        "after K)",
                        reached, digits);
    snprintf(rep->margin, sizeof rep->margin,
             "claimed eps %s; certified eps_DP <= %s after %lu <= K step(s) at alpha = %s: "
             "the claim is within the certified bound",
             in->eps, rep->recomputed.hi, Kstar, alpha2);
    ul_audit_explain(rep,
                     "After %lu <= K = %lu step(s) the theorem already certifies "
                     "eps_DP <= %s (alpha = %s), within the claimed eps = %s.",
                     Kstar, in->K, rep->recomputed.hi, alpha2, in->eps);
}

/* Strongly convex, unsupported: the least K (when found) and the smallest σ
 * that reach the claim (certified by the library's calibrations). */
static void lg_sc_explain_reach(const lg_input *in, const ul_num_precision *want, ul_status st,
                                unsigned long Kstar, bool eps_zero, ul_audit_report *rep)
{
    ul_audit_number n = {0};
    if (st == UL_OK) {
        ul_audit_number_set_integer(&n, "steps_needed", "least K reaching the claim at this sigma",
                                    Kstar);
        ul_audit_add_reach(rep, &n);
        ul_audit_explain(rep,
                         "With sigma = %s the theorem needs K = %lu unlearning step(s) to "
                         "reach eps = %s at delta = %s (certified least K: K - 1 steps do "
                         "not reach it for any alpha > 1); the certificate runs K = %lu.",
                         in->sigma, Kstar, in->eps, in->delta, in->K);
    } else {
        ul_audit_explain(rep,
                         "No number of unlearning steps up to %lu reaches eps = %s at "
                         "sigma = %s.",
                         UL_LANGEVIN_MAX_K, in->eps, in->sigma);
    }
    if (eps_zero) {
        ul_audit_explain(rep, "eps = 0 is out of reach: the conversion term "
                              "log(1/delta)/(alpha - 1) is positive for every alpha.");
        return;
    }
    ul_langevin_sc_problem pb = lg_sc_problem(in);
    ul_num_value s;
    ul_num_value_init(&s, 128);
    ul_num_report nr;
    char e2[512];
    st = ul_langevin_sc_sigma_min(&pb, in->eps, in->K, want, s.enclosure, NULL, &nr, e2, sizeof e2);
    if (st == UL_OK || st == UL_ECAP) {
        ul_audit_number_set(&n, "sigma_needed",
                            "smallest sigma reaching the claim at this K (hi is certified safe)",
                            &s, want->digits);
        ul_audit_add_reach(rep, &n);
        ul_audit_explain(rep, "At K = %lu, sigma >= %s reaches it (smallest sigma in [%s, %s]).",
                         in->K, n.hi, n.lo, n.hi);
    }
    ul_num_value_clear(&s);
}

/* Strongly convex, not reached at the searched α: the certified least K
 * decides.  alpha: the searched α (for the margin). */
static ul_verdict lg_sc_by_least_k(const lg_input *in, const ul_num_precision *want,
                                   const char *alpha, ul_audit_report *rep)
{
    bool eps_zero = ul_audit_dcmp(in->eps, "0") == 0;
    ul_langevin_sc_problem pb = lg_sc_problem(in);
    unsigned long Kstar = 0;
    ul_num_value reached;
    ul_num_value_init(&reached, 64);
    char alpha2[UL_LANGEVIN_ALPHA_TEXT_LEN] = "", e2[512];
    ul_num_report nr;
    ul_status st = eps_zero ? UL_ENOROOT
                            : ul_langevin_sc_least_k(&pb, in->sigma, in->eps, want, &Kstar,
                                                     &reached, alpha2, sizeof alpha2, NULL, &nr,
                                                     e2, sizeof e2);
    ul_verdict verdict = UL_VERDICT_INCONCLUSIVE;
    if (st == UL_OK && Kstar <= in->K) {
        lg_sc_explain_least_k(in, Kstar, alpha2, &reached, want->digits, rep);
        verdict = UL_VERDICT_SUPPORTED;
    } else if (st == UL_OK || st == UL_ENOROOT) {
        verdict = UL_VERDICT_UNSUPPORTED;
        snprintf(rep->margin, sizeof rep->margin,
                 "claimed eps %s; no Renyi order alpha > 1 brings the bound to it after K = %lu "
                 "step(s) (certified lower bound of the minimum over alpha); at alpha = %s the "
                 "bound is in [%s, %s]",
                 in->eps, in->K, alpha, rep->recomputed.lo, rep->recomputed.hi);
        lg_sc_explain_reach(in, want, st, Kstar, eps_zero, rep);
    } else {
        snprintf(rep->margin, sizeof rep->margin,
                 "claimed eps %s; the bound at alpha = %s is in [%s, %s] and the minimum over "
                 "alpha could not be decided at the precision cap",
                 in->eps, alpha, rep->recomputed.lo, rep->recomputed.hi);
        ul_audit_explain(rep, "The claim lies within rounding of the certified bound; the "
                              "precision cap was reached without a decision.");
    }
    ul_num_value_clear(&reached);
    return verdict;
}

/* The (ε, δ) verdict, strongly convex case, with the library's certified
 * entry points (docs/langevin.md, "Strongly convex closed form"). */
static ul_verdict lg_dp_sc(const lg_input *in, const ul_num_precision *want, ul_audit_report *rep,
                           char *err, size_t errlen, ul_status *status)
{
    ul_langevin_sc_problem pb = lg_sc_problem(in);
    ul_num_value v;
    ul_num_value_init(&v, 64);
    char alpha[UL_LANGEVIN_ALPHA_TEXT_LEN] = "", e2[512] = "";
    ul_num_report nr;
    *status = UL_OK;
    ul_status st = ul_langevin_sc_eps_certified(&pb, in->sigma, in->K, want, &v, alpha,
                                                sizeof alpha, NULL, &nr, e2, sizeof e2);
    if (st != UL_OK && st != UL_ECAP) {
        ul_num_value_clear(&v);
        *status = path_error(err, errlen, st, e2);
        return UL_VERDICT_INCONCLUSIVE;
    }
    char label[128];
    snprintf(label, sizeof label, "eps_DP after K = %lu step(s) (bound at alpha = %s)", in->K,
             alpha);
    ul_audit_number_set(&rep->recomputed, "eps", label, &v, want->digits);
    bool within = ul_audit_value_at_most(&v, in->eps);
    ul_num_value_clear(&v);
    if (within) {
        lg_sc_explain_within(in, alpha, rep);
        return UL_VERDICT_SUPPORTED;
    }
    return lg_sc_by_least_k(in, want, alpha, rep);
}

static const char *variant_name(ul_variant v)
{
    return v == UL_VARIANT_PRINTED ? "printed" : "corrected";
}

/* Whether the certificate cites a printed form with a known error
 * (docs/langevin.md, Errata L1–L3): such a form is computed and reported, never decides. */
static bool lg_cites_printed(const lg_input *in)
{
    return in->kind != UL_LANGEVIN_STRONGLY_CONVEX &&
           (in->rate == UL_VARIANT_PRINTED || in->eps0_form == UL_VARIANT_PRINTED);
}

/* The (ε, δ) verdict of one reading (rates, Thm 3.3 form); fills num (the
 * bound at the searched α) and alpha_text. */
static ul_verdict lg_dp_one(const lg_input *in, ul_variant rate, ul_variant e0, int digits,
                            ul_audit_number *num, char *alpha_text, size_t alen, char *err,
                            size_t errlen, ul_status *status)
{
    ul_langevin_problem pb = lg_problem(in);
    ul_langevin_point pt = {in->sigma, in->K, rate, e0};
    ul_num_value f;
    ul_num_value_init(&f, 128);
    ul_side s = ul_langevin_problem_reaches(&pb, &pt, in->eps, &f, alpha_text, alen, status, err,
                                            errlen);
    if (*status == UL_OK) {
        char label[128];
        snprintf(label, sizeof label, "eps_DP after K = %lu step(s)%s (bound at alpha ~ %.12s)",
                 in->K, in->n_req > 1 ? " of the last request" : "", alpha_text);
        ul_audit_number_set(num, "eps", label, &f, digits);
    }
    ul_num_value_clear(&f);
    return s == UL_SIDE_SAFE     ? UL_VERDICT_SUPPORTED
           : s == UL_SIDE_UNSAFE ? UL_VERDICT_UNSUPPORTED
                                 : UL_VERDICT_INCONCLUSIVE;
}

/* What would reach an unsupported claim: the least K of the last request
 * (certified both ways) and a σ (certified safe). */
static void lg_explain_reach(const lg_input *in, ul_audit_report *rep)
{
    if (ul_audit_dcmp(in->eps, "0") <= 0) {
        ul_audit_explain(rep, "eps = 0 is out of reach: the conversion term "
                              "log(1/delta)/(alpha - 1) is positive for every alpha.");
        return;
    }
    char e2[512];
    unsigned long Kstar;
    ul_audit_number n = {0};
    ul_langevin_problem pb = lg_problem(in);
    if (ul_langevin_problem_least_k(&pb, in->sigma, in->eps, &Kstar, e2, sizeof e2) == UL_OK) {
        ul_audit_number_set_integer(&n, "steps_needed",
                                    in->n_req > 1 ? "least K of the last request reaching the "
                                                    "claim at this sigma"
                                                  : "least K reaching the claim at this sigma",
                                    Kstar);
        ul_audit_add_reach(rep, &n);
        ul_audit_explain(rep, "At this sigma the least K reaching it is %lu (certified both ways).",
                         Kstar);
    }
    char s[64];
    if (ul_langevin_problem_sigma(&pb, in->K, in->sigma, in->eps, s, sizeof s)) {
        n.key = "sigma_needed";
        snprintf(n.label, sizeof n.label,
                 "a sigma reaching the claim at this K (search; certified safe, not proven least)");
        snprintf(n.lo, sizeof n.lo, "%s", s);
        snprintf(n.hi, sizeof n.hi, "%s", s);
        ul_audit_add_reach(rep, &n);
        ul_audit_explain(rep, "At K = %lu, sigma = %s reaches it.", in->K, s);
    }
}

/* The report's sentences about the printed forms: they are computed and
 * shown, and never decide (docs/design.md, "Printed forms with known errors"). */
static void lg_explain_printed(const lg_input *in, ul_verdict v, ul_verdict vo,
                               ul_audit_report *rep)
{
    if (!lg_cites_printed(in)) {
        ul_audit_explain(rep,
                         "For the record, the printed forms (a known error, docs/langevin.md, "
                         "Errata L1-L3) give [%s, %s]; they decide nothing.",
                         rep->other_variant.lo, rep->other_variant.hi);
        return;
    }
    if (vo == UL_VERDICT_SUPPORTED && v != UL_VERDICT_SUPPORTED)
        ul_audit_explain(rep,
                         "The certificate cites the printed %s, which would give eps_DP <= %s "
                         "and support the claim; but %s (docs/langevin.md, Errata L1-L3), so the "
                         "cited formula over-claims and the verdict follows the corrected "
                         "forms.",
                         in->rate == UL_VARIANT_PRINTED ? "rates R_k of Thm 3.2" : "Thm 3.3 sum",
                         rep->other_variant.hi,
                         in->rate == UL_VARIANT_PRINTED
                             ? "the printed R_k is mis-integrated (eqs. 33-34: the integral of "
                               "1/x^3 where the proof has 1/x; correct rate log(1 + 2 eta "
                               "sigma^2/A_k))"
                             : "the printed sum runs its products over the early indices where "
                               "the recursion (50) gives the late ones, with the cap C-bar "
                               "where (47) gives C-tilde");
    else
        ul_audit_explain(rep,
                         "The certificate cites the printed forms, a known error "
                         "(docs/langevin.md, Errata L1-L3): they give [%s, %s] and decide "
                         "nothing; the verdict follows the corrected forms.",
                         rep->other_variant.lo, rep->other_variant.hi);
}

/* The (ε, δ) verdict through the certified minimum over α (convex and
 * non-convex cases, and sequential requests in every case): decided by the
 * corrected forms only. */
static ul_verdict lg_dp_general(const lg_input *in, const ul_num_precision *want,
                                ul_audit_report *rep, char *err, size_t errlen, ul_status *status)
{
    char e2[512] = "", alpha[64] = "", alpha_o[64] = "";
    ul_verdict v = lg_dp_one(in, UL_VARIANT_CORRECTED, UL_VARIANT_CORRECTED, want->digits,
                             &rep->recomputed, alpha, sizeof alpha, e2, sizeof e2, status);
    if (*status != UL_OK) {
        *status = path_error(err, errlen, *status, e2);
        return v;
    }
    bool sc = in->kind == UL_LANGEVIN_STRONGLY_CONVEX;
    snprintf(rep->variant, sizeof rep->variant, "%s", sc ? "" : "corrected");
    if (v == UL_VERDICT_SUPPORTED) {
        snprintf(rep->margin, sizeof rep->margin,
                 "claimed eps %s; certified eps_DP <= %s at alpha ~ %.12s: the claim is within "
                 "the certified bound",
                 in->eps, rep->recomputed.hi, alpha);
        ul_audit_explain(rep,
                         "With sigma = %s and K = %lu the %s certify eps_DP <= %s at "
                         "delta = %s, within the claimed eps = %s.",
                         in->sigma, in->K, sc ? "theorems" : "corrected forms", rep->recomputed.hi,
                         in->delta, in->eps);
    } else if (v == UL_VERDICT_UNSUPPORTED) {
        snprintf(rep->margin, sizeof rep->margin,
                 "claimed eps %s; no Renyi order alpha > 1 brings the bound to it (certified "
                 "lower bound of the minimum over alpha); at alpha ~ %.12s it is in [%s, %s]",
                 in->eps, alpha, rep->recomputed.lo, rep->recomputed.hi);
        ul_audit_explain(rep,
                         "With sigma = %s and K = %lu no Renyi order brings the %s bound "
                         "to eps = %s at delta = %s.",
                         in->sigma, in->K, sc ? "" : "corrected", in->eps, in->delta);
        lg_explain_reach(in, rep);
    } else {
        snprintf(rep->margin, sizeof rep->margin,
                 "claimed eps %s; the bound at alpha ~ %.12s is in [%s, %s] and the minimum over "
                 "alpha could not be decided at %ld bits",
                 in->eps, alpha, rep->recomputed.lo, rep->recomputed.hi, (long)in->max_bits);
        ul_audit_explain(rep, "The claim lies within rounding of the certified bound at the "
                              "precision cap (--max-bits).");
    }
    if (sc)
        return v; /* one form: no erratum in case 3 */
    /* the other reading: the printed forms the certificate cites, or else
     * the printed forms for the record */
    bool cites = lg_cites_printed(in);
    ul_status so;
    ul_verdict vo = lg_dp_one(in, cites ? in->rate : UL_VARIANT_PRINTED,
                              cites ? in->eps0_form : UL_VARIANT_PRINTED, want->digits,
                              &rep->other_variant, alpha_o, sizeof alpha_o, e2, sizeof e2, &so);
    if (so != UL_OK) {
        rep->other_variant.key = NULL;
        return v;
    }
    snprintf(rep->other_variant.label, sizeof rep->other_variant.label,
             "eps_DP with the %s rates and %s Thm 3.3 sum (alpha ~ %.12s)",
             variant_name(cites ? in->rate : UL_VARIANT_PRINTED),
             variant_name(cites ? in->eps0_form : UL_VARIANT_PRINTED), alpha_o);
    lg_explain_printed(in, v, vo, rep);
    return v;
}

/* ---- stated numbers ---------------------------------------------------------------------- */

/* $.stated.sigma, strongly convex single request: wrong when below the
 * certified smallest σ (its enclosure's lower end). */
static void lg_stated_sigma_sc(const lg_input *in, const ul_num_precision *want,
                               ul_audit_report *rep)
{
    ul_langevin_sc_problem pb = lg_sc_problem(in);
    ul_num_value s;
    ul_num_value_init(&s, 128);
    ul_num_report nr;
    char e2[512];
    ul_status st =
        ul_langevin_sc_sigma_min(&pb, in->eps, in->K, want, s.enclosure, NULL, &nr, e2, sizeof e2);
    if ((st == UL_OK || st == UL_ECAP) && ul_audit_decimal_below(in->st_sigma, &s)) {
        char lo[UL_AUDIT_NUMBER_CHARS], hi[UL_AUDIT_NUMBER_CHARS];
        ul_audit_quote_value(&s, want->digits, lo, hi);
        snprintf(rep->first_wrong_stated, sizeof rep->first_wrong_stated,
                 "$.stated.sigma = %s: below the smallest sigma reaching eps = %s "
                 "at K = %lu, certified in [%s, %s]",
                 in->st_sigma, in->eps, in->K, lo, hi);
        rounding_forensics(rep->forensics, sizeof rep->forensics, in->st_sigma, &s,
                           "smallest sigma");
        ul_audit_explain(rep,
                         "The stated sigma = %s does not reach the claim "
                         "(the smallest sigma is %s).",
                         in->st_sigma, hi);
    }
    ul_num_value_clear(&s);
}

/* $.stated.sigma, other cases: wrong when the bound at it provably
 * exceeds the claim. */
static void lg_stated_sigma_general(const lg_input *in, ul_audit_report *rep)
{
    char e2[512];
    ul_status st;
    if (lg_reaches(in, in->st_sigma, in->eps, e2, sizeof e2, &st) == UL_SIDE_UNSAFE)
        snprintf(rep->first_wrong_stated, sizeof rep->first_wrong_stated,
                 "$.stated.sigma = %s: the bound at this sigma after K = %lu step(s) "
                 "provably exceeds eps = %s",
                 in->st_sigma, in->K, in->eps);
}

/* The certified least K at the certificate's σ (library calibration for one
 * strongly convex request, the general search otherwise). */
static ul_status lg_least_k(const lg_input *in, bool sc, const ul_num_precision *want,
                            unsigned long *Kstar)
{
    char e2[512];
    if (!sc) {
        ul_langevin_problem pb = lg_problem(in);
        return ul_langevin_problem_least_k(&pb, in->sigma, in->eps, Kstar, e2, sizeof e2);
    }
    ul_langevin_sc_problem pb = lg_sc_problem(in);
    ul_num_value r;
    ul_num_value_init(&r, 64);
    char alpha[UL_LANGEVIN_ALPHA_TEXT_LEN];
    ul_num_report nr;
    ul_status st = ul_langevin_sc_least_k(&pb, in->sigma, in->eps, want, Kstar, &r, alpha,
                                          sizeof alpha, NULL, &nr, e2, sizeof e2);
    ul_num_value_clear(&r);
    return st;
}

/* $.stated.K against the certified least K. */
static void lg_stated_k(const lg_input *in, bool sc, const ul_num_precision *want,
                        ul_audit_report *rep)
{
    unsigned long Kstar = 0;
    ul_status st = lg_least_k(in, sc, want, &Kstar);
    if (st == UL_OK && in->st_K < Kstar) {
        snprintf(rep->first_wrong_stated, sizeof rep->first_wrong_stated,
                 "$.stated.K = %lu: below the least K reaching eps = %s at sigma = %s, "
                 "certified %lu",
                 in->st_K, in->eps, in->sigma, Kstar);
    } else if (st == UL_OK && in->st_K == Kstar + 1) {
        snprintf(rep->forensics, sizeof rep->forensics,
                 "The stated K = %lu is the least K (%lu) plus one: Algorithm 5 as printed "
                 "increments K after the successful check (off-by-one, docs/langevin.md, "
                 "Errata L8).",
                 in->st_K, Kstar);
    } else if (st == UL_OK && in->st_K > Kstar) {
        ul_audit_explain(rep,
                         "The stated K = %lu reaches the claim but is not the least "
                         "(%lu).",
                         in->st_K, Kstar);
    }
}

static void lg_check_stated(const lg_input *in, const ul_num_precision *want, ul_audit_report *rep)
{
    bool sc = in->kind == UL_LANGEVIN_STRONGLY_CONVEX && in->n_req == 1; /* library path */
    bool positive = ul_audit_dcmp(in->eps, "0") > 0;
    if (in->st_sigma != NULL && rep->first_wrong_stated[0] == '\0' && positive) {
        if (sc)
            lg_stated_sigma_sc(in, want, rep);
        else
            lg_stated_sigma_general(in, rep);
    }
    if (in->has_st_K && rep->first_wrong_stated[0] == '\0' && positive)
        lg_stated_k(in, sc, want, rep);
}

/* ---- the handler --------------------------------------------------------------------------- */

/* The (ε, δ) verdict: one strongly convex request through the library's
 * calibrations (which also say what would reach the claim); where they
 * stop undecided (a claim within ~1e-17 of the bound) and everywhere else,
 * through the certified minimum over α, raised to the precision cap. */
static ul_verdict lg_dp(const lg_input *in, const ul_num_precision *w, ul_audit_report *rep,
                        char *err, size_t errlen, ul_status *st)
{
    if (in->kind != UL_LANGEVIN_STRONGLY_CONVEX || in->n_req > 1)
        return lg_dp_general(in, w, rep, err, errlen, st);
    ul_audit_report *before = malloc(sizeof *before);
    if (before == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    *before = *rep;
    ul_verdict v = lg_dp_sc(in, w, rep, err, errlen, st);
    if (*st == UL_OK && v == UL_VERDICT_INCONCLUSIVE) {
        *rep = *before;
        v = lg_dp_general(in, w, rep, err, errlen, st);
    }
    free(before);
    return v;
}

/* Why the strongly convex bound at K = 0 is rational, in words. */
static const char *lg_exact_why(const lg_input *in)
{
    return in->n_req > 1
               ? "strongly convex case, K = 0 in every request: each exp(-Lambda_j/alpha) "
                 "= 1 in Cor 3.4's recursion"
               : "strongly convex case, K = 0: exp(-Lambda/alpha) = 1, so eps = alpha E "
                 "with E = 4 S^2 M^2/(m sigma^2 n^2) (Thm 3.3 (3))";
}

/* The Rényi claim against the corrected forms: a claim within the
 * enclosure asks again with twice the digits, up to the precision cap
 * (lg_renyi stops there).  Where the bound is a rational (strongly convex,
 * K = 0: ul_langevin_problem_renyi_exact) no precision decides a claim
 * equal to it: it is evaluated once and a tie decided on the rationals.
 * tmp receives the number and the margin; the tie's sentence goes to rep. */
static ul_verdict lg_renyi_decide(const lg_input *in, const ul_num_precision *w,
                                  ul_audit_report *rep, ul_audit_report *tmp, ul_status *st,
                                  char *e2, size_t e2len)
{
    char label[sizeof tmp->recomputed.label]; /* holds the claimed order whole */
    snprintf(label, sizeof label, "Renyi unlearning eps at alpha = %s after K = %lu step(s)",
             in->r_alpha, in->K);
    ul_langevin_problem pb = lg_problem(in);
    ul_langevin_point pt = {in->sigma, in->K, UL_VARIANT_CORRECTED, UL_VARIANT_CORRECTED};
    mpq_t exact;
    mpq_init(exact);
    bool rational = ul_langevin_problem_renyi_exact(exact, &pb, &pt, in->r_alpha);
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_verdict vr = UL_VERDICT_INCONCLUSIVE;
    for (ul_num_precision p = *w;; p.digits *= 2) {
        bool capped = false;
        *st = lg_renyi(in, UL_VARIANT_CORRECTED, UL_VARIANT_CORRECTED, &p, &v, &capped, e2, e2len);
        if (*st != UL_OK)
            break;
        ul_audit_report_init(tmp);
        vr = ul_audit_compare(tmp, "renyi_value", label, &v, in->r_value, false, w->digits);
        if (vr != UL_VERDICT_INCONCLUSIVE || capped || rational || p.digits > 20000)
            break;
    }
    if (*st == UL_OK && vr == UL_VERDICT_INCONCLUSIVE && rational)
        vr =
            ul_audit_exact_verdict(rep, tmp->margin, sizeof tmp->margin, "renyi_value", in->r_value,
                                   exact, tmp->recomputed.lo, tmp->recomputed.hi, lg_exact_why(in));
    ul_num_value_clear(&v);
    mpq_clear(exact);
    return vr;
}

/* The Rényi claim at its order: decided by the corrected forms; the printed
 * ones (convex, non-convex) are computed and shown.  Returns its verdict. */
static ul_verdict lg_renyi_claim(const lg_input *in, const ul_num_precision *w,
                                 ul_audit_report *rep, char *err, size_t errlen, ul_status *st)
{
    bool sc = in->kind == UL_LANGEVIN_STRONGLY_CONVEX;
    char e2[512] = "";
    ul_audit_report tmp;
    ul_verdict vr = lg_renyi_decide(in, w, rep, &tmp, st, e2, sizeof e2);
    if (*st != UL_OK) {
        *st = path_error(err, errlen, *st, e2);
        return UL_VERDICT_INCONCLUSIVE;
    }
    if (in->eps == NULL) {
        rep->recomputed = tmp.recomputed;
        snprintf(rep->margin, sizeof rep->margin, "%s", tmp.margin);
        snprintf(rep->variant, sizeof rep->variant, "%s", sc ? "" : "corrected");
    } else {
        ul_audit_add_reach(rep, &tmp.recomputed);
    }
    ul_audit_explain(rep,
                     "At the claimed order alpha = %s, the %s give a Renyi unlearning eps in "
                     "[%s, %s] (claimed %s): %s.",
                     in->r_alpha, sc ? "theorems" : "corrected forms", tmp.recomputed.lo,
                     tmp.recomputed.hi, in->r_value,
                     vr == UL_VERDICT_SUPPORTED     ? "supported"
                     : vr == UL_VERDICT_UNSUPPORTED ? "the bound does not reach it"
                                                    : "undecided at the precision cap");
    if (sc)
        return vr;
    bool cites = lg_cites_printed(in);
    ul_num_value o;
    ul_num_value_init(&o, 64);
    if (lg_renyi(in, cites ? in->rate : UL_VARIANT_PRINTED,
                 cites ? in->eps0_form : UL_VARIANT_PRINTED, w, &o, NULL, e2, sizeof e2) == UL_OK) {
        ul_audit_number on = {0};
        ul_audit_number_set(&on, "renyi_value", "Renyi eps with the printed forms", &o, w->digits);
        ul_audit_explain(rep,
                         "The printed forms%s (a known error, docs/langevin.md, Errata L1-L3) "
                         "give [%s, %s] at that order; they decide nothing.",
                         cites ? " the certificate cites" : "", on.lo, on.hi);
        if (in->eps == NULL)
            rep->other_variant = on;
    }
    ul_num_value_clear(&o);
    return vr;
}

/* The claim, theorem and request list in words. */
static void lg_describe(const lg_input *in, ul_audit_report *rep)
{
    bool sc = in->kind == UL_LANGEVIN_STRONGLY_CONVEX;
    size_t off = 0;
    if (in->eps != NULL)
        off += (size_t)snprintf(rep->claim, sizeof rep->claim, "(eps, delta) = (%s, %s)", in->eps,
                                in->delta);
    if (in->r_alpha != NULL && off < sizeof rep->claim)
        snprintf(rep->claim + off, sizeof rep->claim - off, "%sRenyi (alpha, eps) = (%s, %s)",
                 off > 0 ? "; " : "", in->r_alpha, in->r_value);
    snprintf(rep->theorem, sizeof rep->theorem, "%s%s",
             sc ? SC_THEOREM : GEN_THEOREM[in->kind == UL_LANGEVIN_NONCONVEX],
             in->n_req > 1 ? "; Cor 3.4 (sequential requests)" : "");
    if (in->n_req > 1) {
        char list[192] = "";
        size_t o = 0;
        for (size_t j = 0; j < in->n_req && o + 24 < sizeof list; j++)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%lu", j ? ", " : "", in->Ks[j]);
        ul_audit_explain(rep,
                         "%zu sequential requests of S = %lu record(s) each, K = [%s%s] "
                         "(Cor 3.4, Algorithm 7: eps0 at orders up to 2^%zu alpha).%s",
                         in->n_req, in->S, list, o + 24 >= sizeof list ? ", ..." : "",
                         in->n_req - 1,
                         sc ? ""
                            : " Cor 3.4 assumes every request starts from a C_LSI-LSI law; "
                              "instead the LSI recursion of Thm 3.2 runs on across requests, "
                              "which eq. (38) proves.");
    }
}

/* The facts the certificate leaves out, each with its reading (LG_PARAMS):
 * eta, converged (when T is omitted too) and, outside the strongly convex
 * case, C0 fail; S is read as n. */
static void lg_note_omitted(const lg_input *in, ul_audit_report *rep)
{
    static const char *const FACTS[] = {"eta", "S", "converged", "C0"};
    for (size_t i = 0; i < sizeof FACTS / sizeof FACTS[0]; i++) {
        const char *name = FACTS[i];
        if (strcmp(name, "converged") == 0 && in->T != 0)
            continue; /* a finite T is stated instead */
        if (strcmp(name, "C0") == 0 && in->kind == UL_LANGEVIN_STRONGLY_CONVEX)
            continue; /* C0 = 2 sigma^2/m there (App. D), not a field */
        const ul_cert_value *v = ul_cert_values_get(&in->params, name);
        if (!v->present)
            ul_audit_note_omitted(rep, "parameters", &LG_PARAMS[v - in->params.v]);
    }
}

static ul_status lg_audit(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                          char *err, size_t errlen)
{
    ul_num_init();
    ul_audit_report_init(rep);
    lg_input in;
    ul_status st = lg_read(c, &in, false, err, errlen);
    if (st != UL_OK)
        return st;
    ul_num_precision w = ul_audit_precision(want);
    in.max_bits = ul_num_max_bits(&w);
    bool sc = in.kind == UL_LANGEVIN_STRONGLY_CONVEX;
    lg_note_omitted(&in, rep);
    lg_describe(&in, rep);
    lg_preconditions(&in, &rep->pre);
    if (explain_pre(rep) == UL_PRE_FAILS) {
        rep->verdict = UL_VERDICT_INVALID;
        ul_audit_explain(rep, "The cited theorem does not apply, so it supports no claim here.");
        return UL_OK;
    }
    ul_audit_explain(rep, "The sigma here is the Langevin sigma: each step injects noise of "
                          "variance 2*eta*sigma^2 per coordinate.");

    ul_verdict verdict = UL_VERDICT_SUPPORTED;
    if (in.eps != NULL) {
        verdict = lg_dp(&in, &w, rep, err, errlen, &st);
        if (st != UL_OK)
            return st;
    }
    if (in.r_alpha != NULL) {
        ul_verdict vr = lg_renyi_claim(&in, &w, rep, err, errlen, &st);
        if (st != UL_OK)
            return st;
        verdict = in.eps == NULL ? vr : ul_audit_worse(verdict, vr);
    }
    if (in.eps != NULL)
        lg_check_stated(&in, &w, rep);
    if (sc)
        ul_audit_explain(rep, "Strongly convex case: one form of the rates (R = m*eta); learning "
                              "run to convergence (T -> infinity).");
    ul_audit_explain(rep,
                     "A bound, not an exact privacy profile: a claim beyond it is "
                     "unsupported, not refuted. The loss-shape assumptions (smoothness, "
                     "Lipschitz or clipping%s) are the certificate's to establish.",
                     sc ? ", strong convexity" : ", the LSI of nu_D");
    rep->verdict = verdict;
    return UL_OK;
}

/* ---- calibration --------------------------------------------------------------------------- */

/* Loads the completed text and audits it; UL_OK only when it is supported.
 * On failure err names `path` and the value written. */
static ul_status lg_recheck(const char *text, const ul_num_precision *want, const char *path,
                            const char *value, char *err, size_t errlen)
{
    char why[512];
    if (!ul_audit_recheck_supported(text, lg_audit, want, why, sizeof why))
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: the calibrated value %s did not audit as "
                       "supported (%s)",
                       path, value, why);
    return UL_OK;
}

/* Why this certificate cannot be calibrated (UL_OK when it can). */
static ul_status lg_calibratable(const lg_input *in, char *err, size_t errlen)
{
    if (in->sigma == NULL && !in->has_K)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.sigma: missing, and so is $.parameters.K: calibrate fills "
                       "in one of them; give the other");
    if (in->kind != UL_LANGEVIN_STRONGLY_CONVEX)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.case: calibrate supports the strongly-convex case only");
    if (in->n_req > 1)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.K: calibrate fills in one request's K or sigma; a list of "
                       "sequential requests is audited, not calibrated");
    if (in->T != 0)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.T: Thm 3.2 needs learning run to convergence (no finite T; "
                       "see `ulaudit audit`), so nothing calibrates this certificate");
    if (in->eps == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.claim.eps: calibrate needs an (eps, delta) claim to calibrate for");
    if (ul_audit_dcmp(in->eps, "0") <= 0)
        return ul_fail(err, errlen, UL_ENOROOT,
                       "$.claim.eps: no sigma or K reaches eps = 0 (the conversion term "
                       "log(1/delta)/(alpha - 1) is positive)");
    return UL_OK;
}

/* K = the certified least K at σ (ul_langevin_sc_least_k: K − 1 steps
 * provably do not reach the claim), as malloc'd text in *value. */
static ul_status lg_calibrate_k(const lg_input *in, const ul_num_precision *w, char **value,
                                char *err, size_t errlen)
{
    ul_langevin_sc_problem pb = lg_sc_problem(in);
    unsigned long K = 0;
    ul_num_value r;
    ul_num_value_init(&r, 64);
    char alpha[UL_LANGEVIN_ALPHA_TEXT_LEN], e2[512] = "";
    ul_num_report nr;
    ul_status st = ul_langevin_sc_least_k(&pb, in->sigma, in->eps, w, &K, &r, alpha, sizeof alpha,
                                          NULL, &nr, e2, sizeof e2);
    ul_num_value_clear(&r);
    if (st == UL_ENOROOT)
        return ul_fail(err, errlen, UL_ENOROOT,
                       "$.parameters.K: no K up to %lu reaches eps = %s at sigma = %s",
                       UL_LANGEVIN_MAX_K, in->eps, in->sigma);
    if (st != UL_OK)
        return path_error(err, errlen, st, e2);
    *value = malloc(32);
    if (*value == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    snprintf(*value, 32, "%lu", K);
    return UL_OK;
}

/* σ = the certified safe (upper) end of σ*(K) (ul_langevin_sc_sigma_min)
 * rounded UP to w->digits significant digits, as malloc'd text.  σ* is
 * bracketed a few digits beyond those printed, so that its safe end rounded
 * up is the smallest safe σ at that many digits. */
static ul_status lg_calibrate_sigma(const lg_input *in, const ul_num_precision *w, char **value,
                                    char *err, size_t errlen)
{
    ul_langevin_sc_problem pb = lg_sc_problem(in);
    ul_num_precision fine = *w;
    fine.digits = w->digits + 5;
    ul_num_value s;
    ul_num_value_init(&s, 128);
    ul_num_report nr;
    char e2[512] = "";
    ul_status st =
        ul_langevin_sc_sigma_min(&pb, in->eps, in->K, &fine, s.enclosure, NULL, &nr, e2, sizeof e2);
    if (st == UL_OK || st == UL_ECAP) {
        *value = ul_audit_format_up_readable(&s.enclosure->right, w->digits);
        st = UL_OK;
    } else {
        st = path_error(err, errlen, st, e2);
    }
    ul_num_value_clear(&s);
    return st;
}

/* Both σ and K given: *done when they already support the claim (the
 * certificate re-serialised into *completed). */
static ul_status lg_calibrate_given(const ul_cert *c, const lg_input *in,
                                    const ul_num_precision *w, char **completed, bool *done,
                                    char *err, size_t errlen)
{
    *done = false;
    ul_audit_report rep;
    ul_status st = lg_audit(c, w, &rep, err, errlen);
    if (st != UL_OK)
        return st;
    ul_audit_apply_omitted(&rep); /* as ul_audit does */
    if (rep.verdict == UL_VERDICT_SUPPORTED) {
        *done = true;
        return ul_cert_to_json_with(c, "parameters", "sigma", in->sigma, completed, err, errlen);
    }
    if (rep.verdict == UL_VERDICT_INVALID)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters: a precondition of the cited theorem fails (see "
                       "`ulaudit audit`); no K makes the claim supported");
    return UL_OK;
}

/* `ulaudit calibrate`, strongly convex case, (eps, delta) claim: K absent or
 * not supporting the claim at the given σ → K = the certified least K; σ
 * absent → σ = the certified safe end of σ*(K) rounded up.  A certificate
 * that already audits as supported is returned unchanged (re-serialised,
 * "expected" dropped).  The completed certificate is audited again and must
 * come out supported, else UL_EINPUT. */
static ul_status lg_calibrate(const ul_cert *c, const ul_num_precision *want, char **completed,
                              char *err, size_t errlen)
{
    ul_num_init();
    *completed = NULL;
    lg_input in;
    ul_status st = lg_read(c, &in, true, err, errlen);
    if (st != UL_OK)
        return st;
    ul_num_precision w = ul_audit_precision(want);
    in.max_bits = ul_num_max_bits(&w);
    st = lg_calibratable(&in, err, errlen);
    bool done = false;
    if (st == UL_OK && in.sigma != NULL && in.has_K)
        st = lg_calibrate_given(c, &in, &w, completed, &done, err, errlen);
    if (st != UL_OK || done)
        return st;
    char *value = NULL, *text = NULL; /* the value written, the completed text */
    const char *path = in.sigma != NULL ? "$.parameters.K" : "$.parameters.sigma";
    st = in.sigma != NULL ? lg_calibrate_k(&in, &w, &value, err, errlen)
                          : lg_calibrate_sigma(&in, &w, &value, err, errlen);
    if (st == UL_OK)
        st = ul_cert_to_json_with(c, "parameters", in.sigma != NULL ? "K" : "sigma", value, &text,
                                  err, errlen);
    if (st == UL_OK)
        st = lg_recheck(text, &w, path, value, err, errlen);
    free(value);
    if (st != UL_OK) {
        free(text);
        return st;
    }
    *completed = text;
    return UL_OK;
}

const ul_audit_method ul_audit_langevin = {"langevin", lg_audit, lg_calibrate,
                                          LG_PARAMS, sizeof LG_PARAMS / sizeof LG_PARAMS[0]};

/* ====================================================================================== */
/* ---- method "d2d" ----------------------------------------------------------------------- */

static const char *const D2D_THEOREMS[] = {"M.1", "M.2", NULL};
static const char *const D2D_ADJACENCIES[] = {"replacement", "add-remove", NULL};

static const ul_field_spec D2D_PARAMS[] = {
    {.name = "theorem",
     .type = UL_FIELD_STRING,
     .required = true,
     .choices = D2D_THEOREMS,
     .doc = "M.1 (with internal non-private state) or M.2 (without)"},
    {.name = "L",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .domain = &ul_domain_positive,
     .doc = "smoothness constant"},
    {.name = "m",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .domain = &ul_domain_positive,
     .doc = "strong convexity constant"},
    {.name = "M",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .domain = &ul_domain_positive,
     .doc = "Lipschitz constant"},
    {.name = "n",
     .type = UL_FIELD_COUNT,
     .required = true,
     .domain = &ul_domain_dataset_size,
     .doc = "dataset size"},
    {.name = "d", .type = UL_FIELD_COUNT, .domain = &ul_domain_dimension, .doc = "dimension (M.2)"},
    {.name = "I",
     .type = UL_FIELD_COUNT,
     .required = true,
     .lo = "1",
     .hi = "1000000000",
     .doc = "fine-tuning steps per deletion"},
    {.name = "sigma",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .domain = &ul_domain_positive,
     .doc = "standard deviation of the Gaussian output noise"},
    {.name = "request",
     .type = UL_FIELD_COUNT,
     .lo = "1",
     .hi = "1000000",
     .doc = "index of the sequential request (M.2)"},
    {.name = "R",
     .type = UL_FIELD_DECIMAL,
     .domain = &ul_domain_positive,
     .doc = "radius of the parameter set"},
    {.name = "T",
     .type = UL_FIELD_COUNT,
     .hi = "1000000000000000000",
     .doc = "learning iterations (with R)",
     .omitted = "unknown: Thms M.1 and M.2 need learning to run T >= I + "
                "log(2Rmn/(2M))/log(1/gamma) steps (Neel et al. 2021, Thms 9 and 28), and an "
                "unstated T cannot be checked against it",
     .omitted_fails = true},
    {.name = "adjacency",
     .type = UL_FIELD_STRING,
     .choices = D2D_ADJACENCIES,
     .doc = "replacement (Chien et al.'s setting) or add-remove (Neel et al.'s)",
     .omitted = "replacement, Chien et al.'s setting (arXiv:2401.10371 Sec. 2): a replaced "
                "record moves a gradient by up to 2M, twice Neel et al.'s add/remove "
                "sensitivity, so the sigma of (86)/(88) is doubled"},
};
#define D2D_N_PARAMS (sizeof D2D_PARAMS / sizeof D2D_PARAMS[0])

static const ul_field_spec D2D_CLAIM[] = {
    {.name = "eps",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .domain = &ul_domain_eps_renyi_pos,
     .doc = "(eps, delta)-unlearning eps"},
    UL_AUDIT_CLAIM_DELTA(true, "(eps, delta)-unlearning delta"),
};
#define D2D_N_CLAIM (sizeof D2D_CLAIM / sizeof D2D_CLAIM[0])

static const ul_field_spec D2D_STATED[] = {
    {.name = "sigma",
     .type = UL_FIELD_DECIMAL,
     .domain = &ul_domain_positive,
     .doc = "sigma computed from (86) or (88)"},
    {.name = "iterations", .type = UL_FIELD_COUNT, .doc = "fine-tuning steps of the request"},
    {.name = "I_min", .type = UL_FIELD_COUNT, .doc = "least I meeting (87) (M.2)"},
    {.name = "T_min", .type = UL_FIELD_COUNT, .doc = "least learning T"},
};
#define D2D_N_STATED (sizeof D2D_STATED / sizeof D2D_STATED[0])

typedef struct {
    bool m2;
    bool replacement; /* adjacency: replacement (also when omitted) or add-remove */
    ul_d2d_problem pb;
    unsigned long I, request;
    const char *sigma;
    const char *st_sigma;
    bool has_iter, has_Imin, has_Tmin;
    unsigned long st_iter, st_Imin, st_Tmin;
    ul_cert_values params; /* as read, for the omitted facts */
} d2d_input;

static ul_status d2d_read(const ul_cert *c, d2d_input *in, char *err, size_t errlen)
{
    ul_cert_values p, cl, st;
    ul_status s = ul_cert_read_object(c, "parameters", D2D_PARAMS, D2D_N_PARAMS, &p, err, errlen);
    if (s == UL_OK)
        s = ul_cert_read_object(c, "claim", D2D_CLAIM, D2D_N_CLAIM, &cl, err, errlen);
    if (s == UL_OK)
        s = ul_cert_read_object(c, "stated", D2D_STATED, D2D_N_STATED, &st, err, errlen);
    if (s != UL_OK)
        return s;
    memset(in, 0, sizeof *in);
    in->m2 = strcmp(ul_audit_field_text(&p, "theorem"), "M.2") == 0;
    const char *adjacency = ul_audit_field_text(&p, "adjacency");
    in->replacement = adjacency == NULL || strcmp(adjacency, "replacement") == 0;
    in->params = p;
    in->pb.L = ul_audit_field_text(&p, "L");
    in->pb.m = ul_audit_field_text(&p, "m");
    in->pb.M = ul_audit_field_text(&p, "M");
    in->pb.n = ul_audit_field_text(&p, "n");
    in->pb.d = ul_audit_field_text(&p, "d");
    in->pb.R = ul_audit_field_text(&p, "R");
    in->pb.T = ul_audit_field_text(&p, "T");
    in->pb.eps = ul_audit_field_text(&cl, "eps");
    in->pb.delta = ul_audit_field_text(&cl, "delta");
    in->I = fcount(&p, "I", 1);
    in->request = fcount(&p, "request", 1);
    in->sigma = ul_audit_field_text(&p, "sigma");
    if (in->m2 && in->pb.d == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.d: missing (Thm M.2 needs the dimension)");
    if (!in->m2 && fhas(&p, "request"))
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.request: only Thm M.2 (sequential, no internal state) uses "
                       "a request index");
    if (in->pb.T != NULL && in->pb.R == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.parameters.R: missing (checking the learning T needs the radius R)");
    in->st_sigma = ul_audit_field_text(&st, "sigma");
    in->has_iter = fhas(&st, "iterations");
    in->st_iter = fcount(&st, "iterations", 0);
    in->has_Imin = fhas(&st, "I_min");
    in->st_Imin = fcount(&st, "I_min", 0);
    in->has_Tmin = fhas(&st, "T_min");
    in->st_Tmin = fcount(&st, "T_min", 0);
    if (in->has_Imin && !in->m2)
        return ul_fail(err, errlen, UL_EINPUT, "$.stated.I_min: only Thm M.2 has a least I (87)");
    if (in->has_Tmin && in->pb.R == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.stated.T_min: checking it needs the radius $.parameters.R");
    return UL_OK;
}

/* σ of (86) / (88) at I (plain value); pre checks are done by the caller.
 * Under replacement adjacency the σ is doubled: (86) and (88) are linear in
 * the gradient sensitivity, M for Neel et al.'s add/remove neighbours
 * (Neel et al. 2021 Thms 9, 28) and 2M when a record is replaced (the two
 * records' gradients each have norm ≤ M; Chien et al., arXiv:2401.10371,
 * use replacement, App. M).  Doubling is exact in binary. */
static ul_status d2d_sigma(const d2d_input *in, unsigned long I, const ul_num_precision *want,
                           ul_num_value *out, char *err, size_t errlen)
{
    ul_d2d_problem pb = in->pb;
    pb.T = NULL; /* decided separately */
    ul_num_report nr;
    ul_status st = in->m2 ? ul_d2d_m2_sigma_certified(&pb, I, want, out, NULL, &nr, err, errlen)
                          : ul_d2d_m1_sigma_certified(&pb, I, want, out, NULL, &nr, err, errlen);
    if ((st == UL_OK || st == UL_ECAP) && in->replacement) {
        if (out->is_log) {
            mpfi_t log2;
            mpfi_init2(log2, mpfi_get_prec(out->enclosure));
            mpfi_const_log2(log2); /* outward: MPFI encloses log 2 */
            mpfi_add(out->enclosure, out->enclosure, log2);
            mpfi_clear(log2);
        } else {
            mpfi_mul_2ui(out->enclosure, out->enclosure, 1); /* exact */
        }
    }
    return st;
}

static bool d2d_ok(ul_status st)
{
    return st == UL_OK || st == UL_ECAP; /* an enclosure either way */
}

/* The σ the theorem needs at I, and the verdict for the certificate's σ:
 * supported when σ ≥ the need's upper end, unsupported when σ < its lower
 * end.  A claim within the enclosure asks again with twice the digits,
 * until decided or the precision cap (--max-bits) is reached. */
static ul_status d2d_decide(const d2d_input *in, const ul_num_precision *w, ul_num_value *need,
                            ul_verdict *v, char *err, size_t errlen)
{
    ul_num_precision p = *w;
    ul_status st;
    for (;;) {
        st = d2d_sigma(in, in->I, &p, need, err, errlen);
        if (st != UL_OK && st != UL_ECAP)
            break;
        *v = ul_audit_value_at_most(need, in->sigma)   ? UL_VERDICT_SUPPORTED
             : ul_audit_decimal_below(in->sigma, need) ? UL_VERDICT_UNSUPPORTED
                                                       : UL_VERDICT_INCONCLUSIVE;
        if (*v != UL_VERDICT_INCONCLUSIVE || st == UL_ECAP || p.digits > 100000) {
            st = UL_OK;
            break;
        }
        p.digits *= 2;
    }
    return st;
}

/* The side of I: 1 safe (the σ formula at I is certainly ≤ sigma), 0 unsafe
 * (certainly above), -1 undecided or an error. */
static int d2d_side_of_I(const d2d_input *in, unsigned long I)
{
    ul_num_precision want = {6, 0, 0};
    char err[256];
    ul_num_value v;
    ul_num_value_init(&v, 64);
    int side = !d2d_ok(d2d_sigma(in, I, &want, &v, err, sizeof err)) ? -1 : 0;
    if (side == 0)
        side = ul_audit_value_at_most(&v, in->sigma)   ? 1
               : ul_audit_decimal_below(in->sigma, &v) ? 0
                                                       : -1;
    ul_num_value_clear(&v);
    return side;
}

/* The least I ≥ I0 whose σ formula is ≤ sigma (decreasing in I: γ^I/(1 − γ^I)),
 * both sides certified; false when none up to 2^30. */
static bool d2d_least_I(const d2d_input *in, unsigned long I0, unsigned long *I)
{
    unsigned long lo = I0 - 1, hi = I0;
    int side;
    for (;;) {
        side = d2d_side_of_I(in, hi);
        if (side == 1)
            break;
        if (side < 0 || hi >= (1UL << 30))
            return false;
        lo = hi;
        hi *= 2;
    }
    while (hi - lo > 1) {
        unsigned long mid = lo + (hi - lo) / 2;
        side = d2d_side_of_I(in, mid);
        if (side < 0)
            return false;
        if (side == 1)
            hi = mid;
        else
            lo = mid;
    }
    *I = hi;
    return true;
}

/* The preconditions: m <= L exactly; the learning T (with R); M.2's (87).
 * Fills the least T and I found (have_*: computed; least_*: proven least). */
typedef struct {
    unsigned long Tmin, Imin;
    bool least_T, least_I, have_T, have_I;
} d2d_conditions;

static ul_status d2d_preconditions(const d2d_input *in, ul_audit_report *rep, d2d_conditions *k,
                                   char *err, size_t errlen)
{
    char e2[512] = "";
    memset(k, 0, sizeof *k);
    ul_pre_clear(&rep->pre);
    bool m_le_L = ul_audit_dcmp(in->pb.m, in->pb.L) <= 0;
    ul_pre_add(&rep->pre, "m_le_L",
               "m <= L: an m-strongly convex, L-smooth loss needs m <= L (Thm M.1/M.2; "
               "Chien et al. 2024)",
               holds(m_le_L));
    if (m_le_L && in->pb.R != NULL) {
        ul_status st = ul_d2d_learning_iterations(&in->pb, in->I, &k->Tmin, &k->least_T, e2,
                                                  sizeof e2);
        if (st != UL_OK)
            return path_error(err, errlen, st, e2);
        k->have_T = true;
        char Tmin[32];
        snprintf(Tmin, sizeof Tmin, "%lu", k->Tmin);
        if (in->pb.T != NULL)
            ul_pre_add(&rep->pre, "T_ge_learning_bound",
                       "learning runs T >= I + log(2Rmn/(2M))/log(1/gamma) GD steps (Thm M.1/M.2; "
                       "Chien et al. 2024; docs/langevin.md, Errata L18)",
                       ul_audit_dcmp(in->pb.T, Tmin) >= 0 ? UL_PRE_HOLDS
                       : k->least_T                      ? UL_PRE_FAILS
                                                         : UL_PRE_UNDECIDED);
    }
    if (m_le_L && in->m2) {
        ul_status st = ul_d2d_m2_least_I(&in->pb, &k->Imin, &k->least_I, e2, sizeof e2);
        if (st != UL_OK)
            return path_error(err, errlen, st, e2);
        k->have_I = true;
        ul_pre_add(
            &rep->pre, "I_ge_m2_bound",
            "I >= log(sqrt(2d)/((1-gamma)(sqrt(2 log(2/delta) + eps) - sqrt(2 log(2/delta)))))"
            "/log(1/gamma) (Thm M.2 (87); Chien et al. 2024)",
            in->I >= k->Imin ? UL_PRE_HOLDS
            : k->least_I     ? UL_PRE_FAILS
                             : UL_PRE_UNDECIDED);
    }
    return UL_OK;
}

/* A failed precondition: the verdict "invalid" with what would meet it. */
static void d2d_invalid(const d2d_input *in, const d2d_conditions *k, ul_audit_report *rep)
{
    rep->verdict = UL_VERDICT_INVALID;
    ul_audit_number n = {0};
    if (k->have_I && in->I < k->Imin) {
        ul_audit_number_set_integer(&n, "I_needed", "least I meeting (87)", k->Imin);
        ul_audit_add_reach(rep, &n);
    }
    if (k->have_T && in->pb.T != NULL) {
        ul_audit_number_set_integer(&n, "T_needed", "least learning T", k->Tmin);
        ul_audit_add_reach(rep, &n);
    }
    ul_audit_explain(rep, "The cited theorem does not apply, so it supports no claim here.");
}

/* The margin and sentences of the verdict v for the σ the theorem needs. */
static void d2d_explain(const d2d_input *in, ul_verdict v, const ul_num_value *need, int digits,
                        ul_audit_report *rep)
{
    snprintf(rep->margin, sizeof rep->margin,
             "output noise sigma %s; the theorem needs sigma >= %s (certified in [%s, %s]) for "
             "(eps, delta) = (%s, %s): %s",
             in->sigma, rep->recomputed.hi, rep->recomputed.lo, rep->recomputed.hi, in->pb.eps,
             in->pb.delta,
             v == UL_VERDICT_SUPPORTED     ? "the claim is within the certified bound"
             : v == UL_VERDICT_UNSUPPORTED ? "the noise is below what the theorem needs"
                                           : "undecided");
    if (v == UL_VERDICT_SUPPORTED) {
        ul_audit_explain(rep,
                         "The noise sigma = %s is at least the %s (%s) for (eps, delta) = "
                         "(%s, %s) after I = %lu fine-tuning step(s).",
                         in->sigma, rep->recomputed.hi, in->m2 ? "Thm M.2 sigma" : "Thm M.1 sigma",
                         in->pb.eps, in->pb.delta, in->I);
    } else if (v == UL_VERDICT_UNSUPPORTED) {
        ul_audit_number n = {0};
        ul_audit_number_set(&n, "sigma_needed", "noise std the theorem needs at this I", need,
                            digits);
        ul_audit_add_reach(rep, &n);
        unsigned long I2;
        if (d2d_least_I(in, in->I + 1, &I2)) {
            ul_audit_number_set_integer(&n, "I_needed",
                                        "least I whose sigma formula is <= this "
                                        "sigma",
                                        I2);
            ul_audit_add_reach(rep, &n);
            ul_audit_explain(rep, "At this sigma the formula needs I >= %lu fine-tuning steps.",
                             I2);
        }
        ul_audit_explain(rep,
                         "The noise sigma = %s is below the %s needed for (eps, delta) = "
                         "(%s, %s) after I = %lu step(s).",
                         in->sigma, rep->recomputed.lo, in->pb.eps, in->pb.delta, in->I);
    } else {
        ul_audit_explain(rep, "The noise sigma lies within rounding of the theorem's sigma.");
    }
}

/* The stated numbers, in order; the first wrong one is reported. */
static void d2d_check_stated(const d2d_input *in, const d2d_conditions *k, const ul_num_value *need,
                             ul_audit_report *rep)
{
    char e2[512] = "";
    if (in->st_sigma != NULL && ul_audit_decimal_below(in->st_sigma, need)) {
        snprintf(rep->first_wrong_stated, sizeof rep->first_wrong_stated,
                 "$.stated.sigma = %s: below the sigma of %s, certified in [%s, %s]", in->st_sigma,
                 in->m2 ? "(88)" : "(86)", rep->recomputed.lo, rep->recomputed.hi);
        rounding_forensics(rep->forensics, sizeof rep->forensics, in->st_sigma, need, "sigma");
    }
    if (in->has_iter && rep->first_wrong_stated[0] == '\0') {
        unsigned long steps = in->I;
        bool lst = true;
        if (in->m2 && ul_d2d_m2_request_iterations(&in->pb, in->I, in->request, &steps, &lst, e2,
                                                   sizeof e2) != UL_OK)
            steps = 0;
        if (steps > 0 && in->st_iter < steps && (lst || in->st_iter + 1 < steps))
            snprintf(rep->first_wrong_stated, sizeof rep->first_wrong_stated,
                     "$.stated.iterations = %lu: request %lu needs %lu fine-tuning step(s)%s",
                     in->st_iter, in->request, steps,
                     in->m2 ? " (I + ceil(log(log(4 d i/delta))/log(1/gamma)), Thm M.2)" : " (I)");
    }
    if (in->has_Imin && rep->first_wrong_stated[0] == '\0' && k->have_I &&
        in->st_Imin < k->Imin && k->least_I)
        snprintf(rep->first_wrong_stated, sizeof rep->first_wrong_stated,
                 "$.stated.I_min = %lu: (87) needs I >= %lu", in->st_Imin, k->Imin);
    if (in->has_Tmin && rep->first_wrong_stated[0] == '\0' && k->have_T &&
        in->st_Tmin < k->Tmin && k->least_T)
        snprintf(rep->first_wrong_stated, sizeof rep->first_wrong_stated,
                 "$.stated.T_min = %lu: learning needs T >= %lu", in->st_Tmin, k->Tmin);
    if (rep->first_wrong_stated[0] != '\0')
        ul_audit_explain(rep, "First wrong stated number: %s.", rep->first_wrong_stated);
}

static ul_status d2d_audit(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                           char *err, size_t errlen)
{
    ul_num_init();
    ul_audit_report_init(rep);
    d2d_input in;
    ul_status st = d2d_read(c, &in, err, errlen);
    if (st != UL_OK)
        return st;
    ul_audit_note_omitted_facts(rep, "parameters", D2D_PARAMS, D2D_N_PARAMS, &in.params, 0);
    ul_num_precision w = ul_audit_precision(want);
    char e2[512] = "";
    snprintf(rep->claim, sizeof rep->claim, "(eps, delta) = (%s, %s) under %s adjacency",
             in.pb.eps, in.pb.delta, in.replacement ? "replacement" : "add/remove");
    snprintf(rep->theorem, sizeof rep->theorem, "%s",
             in.m2 ? "Descent-to-Delete without internal state: Neel et al. 2021 Thm 28 as Thm "
                     "M.2 of arXiv:2401.10371v4, eqs. (87)-(88)"
                   : "Descent-to-Delete with internal non-private state: Neel et al. 2021 Thm 9 "
                     "as Thm M.1 of arXiv:2401.10371v4, eq. (86)");
    d2d_conditions k;
    st = d2d_preconditions(&in, rep, &k, err, errlen);
    if (st != UL_OK)
        return st;
    ul_pre_state all = explain_pre(rep);
    if (all == UL_PRE_FAILS) {
        d2d_invalid(&in, &k, rep);
        return UL_OK;
    }
    ul_audit_explain(rep, "sigma is the standard deviation of the Gaussian noise added to the "
                          "published parameters (not a Langevin sigma).");
    /* the σ the theorem needs for the claim at I */
    ul_num_value need;
    ul_num_value_init(&need, 64);
    ul_verdict v;
    st = d2d_decide(&in, &w, &need, &v, e2, sizeof e2);
    if (st != UL_OK) {
        ul_num_value_clear(&need);
        return path_error(err, errlen, st, e2);
    }
    char label[128];
    snprintf(label, sizeof label, "sigma the theorem needs for the claim at I = %lu (%s)", in.I,
             in.m2 ? "(88)" : "(86)");
    ul_audit_number_set(&rep->recomputed, "sigma_needed", label, &need, w.digits);
    if (all == UL_PRE_UNDECIDED && v == UL_VERDICT_SUPPORTED)
        v = UL_VERDICT_INCONCLUSIVE;
    d2d_explain(&in, v, &need, w.digits, rep);
    d2d_check_stated(&in, &k, &need, rep);
    ul_audit_explain(rep,
                     in.replacement
                         ? "Adjacency is replacement (Chien et al.'s setting): the sensitivity "
                           "is 2M, so the sigma needed is twice that of Neel et al.'s add/remove "
                           "bound, which Chien et al. use unchanged."
                         : "Adjacency is add/remove, Neel et al.'s own setting.");
    ul_audit_explain(rep, "The bound is not an exact privacy profile: a claim beyond it is "
                          "unsupported, not refuted.");
    ul_num_value_clear(&need);
    rep->verdict = v;
    return UL_OK;
}

const ul_audit_method ul_audit_d2d = {"d2d", d2d_audit, NULL, D2D_PARAMS, D2D_N_PARAMS};
