/* src/audit/audit_model_clipping.c — audit handler of method "model-clipping":
 * Koloskova, Allouah, Jha, Guerraoui, Koyejo, "Certified Unlearning for
 * Neural Networks" (ICML 2025), noisy fine-tuning with model clipping
 * (docs/neural-unlearning.md, "Model clipping"), through src/bounds/koloskova.h; the public
 * code is stair-lab/certified-unlearning-neural-networks-icml-2025.
 * Shared parts: audit_koloskova_util.h.
 *
 * ==== Schema (format "ulaudit-certificate/1") =================================
 * Decimals are JSON numbers or strings of decimal text, read exactly.  A field
 * marked "decimal or list" is one decimal, or a non-empty JSON array of them.
 * Ranges that are preconditions of the cited theorem (C's > 0, σ > 0, …) are
 * NOT schema errors: they make the verdict "invalid", each failing one listed
 * by name.  Unknown, missing, duplicate or unused fields are errors.
 *
 * method "model-clipping" — noisy fine-tuning with model clipping, docs/neural-unlearning.md,
 * "Model clipping",
 * §2.3.  Each step x ← Π_{C2}(x − lr·(g + λx)) + N(0, σ_t² I) (cc1) or with the
 * gradient clipped to C1 and the noise before the projection (cc2).
 *   parameters:
 *     variant     string, optional   "cc1" (default; pre-noise diameter D = 2·C2,
 *                                    every released config) or "cc2"
 *                                    (D = 2·(C2 + lr·C1))
 *     c2          decimal, required  model-clipping radius C2 (parameter norm)
 *     c1, lr      decimal            cc2 only, both required there: gradient clip C1,
 *                                    (largest) learning rate
 *     sigma       decimal or list    per-step noise standard deviation σ_t (noise
 *                                    N(0, σ_t² I), NOT 2ησ²): one value for every
 *                                    step, or exactly `steps` values
 *     steps       count, required    T, the number of noisy steps (0..1e8); required
 *                                    by `audit`; `calibrate` fills in the least T
 *                                    (one constant sigma only)
 *     sigma0      decimal, optional  std of the noise added to the clipped initial
 *                                    model; absent or 0: δ_0 = 1 (any start)
 *     c0          decimal            initial clip radius C0; required when sigma0 > 0
 *     init        string, optional   "ball" (default, code `clip`, D0 = 2·C0) or
 *                                    "box" (code `clamp`, D0 = 2·C0·√dim)
 *     dim         count              the box's dimension d (init "box" only)
 *     accounting  string, required   the cited theorem: "product" (δ_T = δ_0·Π_t
 *                                    θ_{e^ε}(D/σ_t), the theorem as stated) or
 *                                    "adaptive" (δ_{t+1} = δ_t·θ_{e^{ε̃_t}}(D/σ_{t+1}),
 *                                    ε̃_t = log(1 + (e^ε − 1)/δ_t): what the public
 *                                    code computes); both are valid theorems, the
 *                                    other one is reported beside
 *   claim:  eps (decimal ≥ 0), delta (decimal in [0, 1]): (ε, δ)-unlearning after T
 *           steps, natural log
 *   stated: deltas (list, optional): δ_1, δ_2, … the code logs after each step
 *           (at most `steps` values and at most 1000; any sign: the code's float32
 *           path logs negative values)
 *
 * What decides the verdict: the cited accounting, product or adaptive (both
 * valid: Asoodeh et al. 2020, docs/neural-unlearning.md, "Model clipping", Errata K10), with
 * cc1/cc2 and the initial
 * clip as stated (the box at its true diameter 2·C0·√d, not the code's
 * data-dependent clamp, §4.6).  The code's float32/double θ recipes never
 * decide.
 */
#include "audit/audit_koloskova_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/gaussian.h"
#include "audit/audit_omitted.h"
#include "audit/forensics.h"
#include "num/input.h"

#define MAX_STATED_DELTAS 1000
/* The least T `calibrate` searches for model clipping: the product form
 * walks one addition a step, the adaptive recursion one θ (15 µs to 0.5 ms).
 * The report's own limits are REPORT_T_MAX_ADAPTIVE and beside it. */
#define LEAST_T_MAX_PRODUCT 10000000UL
#define LEAST_T_MAX_ADAPTIVE 100000UL

/* ==== the public code's θ, for forensics ======================================
 * FAULTY RECIPES, never a bound: src/utils/dp.py `theta_epsilon`,
 *   θ = Q(ε/r − r/2) − e^ε·Q(ε/r + r/2),  Q(x) = (1 − erf(x/√2))/2,
 * (docs/neural-unlearning.md, "Public code") evaluated as the code does. */

/* The recipes themselves are src/audit/forensics.c's
 * ul_forensic_theta_one_minus_erf (double throughout: the setup's δ_0, and
 * the whole accountant if the dtype inference of docs/neural-unlearning.md, "Public code" were
 * wrong) and
 * ul_forensic_theta_float32 (the float32 path of docs/neural-unlearning.md,
 * "Precision"; a float r passes to it exactly). */

/* ==== model clipping ========================================================== */

static const char *const MC_VARIANTS[] = {"cc1", "cc2", NULL};
static const char *const MC_ACCOUNTINGS[] = {"product", "adaptive", NULL};

static const ul_field_spec MC_PARAMS[] = {
    {.name = "variant",
     .type = UL_FIELD_STRING,
     .choices = MC_VARIANTS,
     .doc = "cc1 (pre-noise diameter 2*C2) or cc2 (2*(C2 + lr*C1))",
     /* the larger diameter gives the larger theta, hence delta (Koloskova et al.
      * Thm 3.4); without c1 and lr cc2's diameter has no bound */
     .omitted = "cc2 when c1 and lr are given (the larger pre-noise diameter 2(C2 + lr C1)); "
                "without them unknown: the code may have run cc2, whose diameter cannot then be "
                "bounded",
     .omitted_fails = true},
    {.name = "c2",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .lo = NEG_MAG,
     .hi = MAG,
     .doc = "model-clipping radius C2"},
    {.name = "c1",
     .type = UL_FIELD_DECIMAL,
     .lo = NEG_MAG,
     .hi = MAG,
     .doc = "cc2's gradient clip C1"},
    {.name = "lr",
     .type = UL_FIELD_DECIMAL,
     .lo = NEG_MAG,
     .hi = MAG,
     .doc = "cc2's largest learning rate"},
    {.name = "sigma",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .lo = NEG_MAG,
     .hi = MAG,
     .doc = "per-step noise std: one value or one per step"},
    /* required by `audit` (checked in mc_read, same message as a required
     * field's); `calibrate` fills it in */
    {.name = "steps", .type = UL_FIELD_COUNT, .hi = "100000000", .doc = "number of noisy steps T"},
    {.name = "c0",
     .type = UL_FIELD_DECIMAL,
     .lo = NEG_MAG,
     .hi = MAG,
     .doc = "initial clip radius C0"},
    {.name = "sigma0",
     .type = UL_FIELD_DECIMAL,
     .lo = NEG_MAG,
     .hi = MAG,
     .doc = "std of the initial noise (0: delta_0 = 1)",
     .omitted = "none: delta_0 = 1, no initial noise counted"},
    {.name = "init",
     .type = UL_FIELD_STRING,
     .choices = ul_audit_kol_inits,
     .doc = "initial clip: ball or box",
     .omitted = "a box of unknown dimension (with sigma0 > 0): the clipped initial model's "
                "diameter 2 C0 sqrt(dim) has no bound, so delta_0 = 1 and the initial noise "
                "counts for nothing"},
    {.name = "dim", .type = UL_FIELD_COUNT, .hi = "999999999", .doc = "dimension of the box"},
    {.name = "accounting",
     .type = UL_FIELD_STRING,
     .required = true,
     .choices = MC_ACCOUNTINGS,
     .doc = "the cited theorem: product (as stated) or adaptive (the code's recursion)"},
};

/* The parameter spec of `name` (one of MC_PARAMS). */
static const ul_field_spec *mc_spec(const char *name)
{
    return ul_audit_spec_named(MC_PARAMS, sizeof MC_PARAMS / sizeof MC_PARAMS[0], name);
}

static const ul_field_spec EPS_DELTA_CLAIM[] = {
    UL_AUDIT_CLAIM_EPS(true, &ul_domain_eps, "claimed epsilon (natural log)"),
    UL_AUDIT_CLAIM_DELTA_CLOSED(true, "claimed delta"),
};

static const ul_field_spec MC_STATED[] = {
    {.name = "deltas",
     .type = UL_FIELD_DECIMAL_LIST,
     .doc = "per-step delta_1, delta_2, ... as the code logs them"},
};

typedef struct {
    ul_kol_mc_problem pb;
    const char *claim_delta;
    const char *const *stated;
    size_t n_stated;
    const char *stated_path;
    char diameter_note[64];
    bool has_steps; /* false only when calibrating */
    bool variant_omitted, init_omitted, sigma0_omitted; /* facts read least favourably */
} mc_cert;

/* The start of the run: sigma0, c0 and the initial clip (docs/neural-unlearning.md, "Notation"):
 * δ_0 = 1
 * without sigma0, and then init and dim are unused. */
static ul_status mc_read_start(const ul_cert_values *p, mc_cert *m, char *err, size_t errlen)
{
    ul_kol_mc_problem *pb = &m->pb;
    const ul_cert_value *c0 = ul_audit_kol_get(p, "c0"), *sigma0 = ul_audit_kol_get(p, "sigma0"),
                        *init = ul_audit_kol_get(p, "init"), *dim = ul_audit_kol_get(p, "dim");
    m->sigma0_omitted = !sigma0->present;
    if (sigma0->present) {
        pb->sigma0 = sigma0->text;
        int cmp = 0;
        if (!ul_num_decimal_compare(sigma0->text, "0", &cmp))
            return ul_fail(err, errlen, UL_EINPUT, "%s: must be a decimal number (got '%s')",
                           sigma0->path, sigma0->text);
        if (cmp != 0 && !c0->present)
            return ul_audit_kol_missing(c0->path, "when sigma0 is not 0 (the initial clip radius C0)", err,
                               errlen);
    } else if (init->present || dim->present) {
        return ul_audit_kol_unused(init->present ? init : dim, "without sigma0 (delta_0 = 1)", err, errlen);
    }
    pb->c0 = c0->present ? c0->text : NULL;
    ul_status st = ul_audit_kol_read_init(init, dim, &pb->init, &pb->dim, err, errlen);
    int cmp = 0;
    if (st == UL_OK && sigma0->present && !init->present &&
        ul_num_decimal_compare(sigma0->text, "0", &cmp) && cmp != 0) {
        m->init_omitted = true;
        pb->sigma0 = NULL; /* delta_0 = 1: the box's diameter is unbounded */
    }
    return st;
}

/* Reads a "model-clipping" certificate.  calibrating: parameters.steps may
 * be absent (the audit requires it). */
static ul_status mc_read(const ul_cert *c, mc_cert *m, bool calibrating, char *err, size_t errlen)
{
    ul_cert_values p, cl, s;
    ul_status st =
        ul_audit_read_object_list(c, "parameters", MC_PARAMS, sizeof MC_PARAMS / sizeof MC_PARAMS[0],
                         "sigma", &p, err, errlen);
    if (st == UL_OK)
        st = ul_cert_read_object(c, "claim", EPS_DELTA_CLAIM, 2, &cl, err, errlen);
    if (st == UL_OK)
        st = ul_cert_read_object(c, "stated", MC_STATED, 1, &s, err, errlen);
    if (st != UL_OK)
        return st;
    memset(m, 0, sizeof *m);
    ul_kol_mc_problem *pb = &m->pb;
    pb->eps = ul_audit_kol_get(&cl, "eps")->text;
    m->claim_delta = ul_audit_kol_get(&cl, "delta")->text;

    const ul_cert_value *variant = ul_audit_kol_get(&p, "variant"), *c1 = ul_audit_kol_get(&p, "c1"), *lr = ul_audit_kol_get(&p, "lr");
    /* omitted: cc2 when its c1 and lr are given, else cc1 computed and the
     * omission fails (MC_PARAMS) */
    pb->variant = variant->present ? (strcmp(variant->text, "cc2") == 0 ? UL_KOL_CC2 : UL_KOL_CC1)
                  : c1->present && lr->present ? UL_KOL_CC2
                                               : UL_KOL_CC1;
    m->variant_omitted = !variant->present;
    if (!variant->present && pb->variant == UL_KOL_CC1 && (c1->present || lr->present))
        return ul_audit_kol_missing(c1->present ? lr->path : c1->path, "with the other of c1, lr", err,
                           errlen);
    if (pb->variant == UL_KOL_CC2) {
        if (!c1->present)
            return ul_audit_kol_missing(c1->path, "by variant cc2", err, errlen);
        if (!lr->present)
            return ul_audit_kol_missing(lr->path, "by variant cc2", err, errlen);
        pb->c1 = c1->text;
        pb->lr = lr->text;
    } else {
        if (c1->present)
            return ul_audit_kol_unused(c1, "by variant cc1", err, errlen);
        if (lr->present)
            return ul_audit_kol_unused(lr, "by variant cc1", err, errlen);
    }
    pb->c2 = ul_audit_kol_get(&p, "c2")->text;
    const ul_cert_value *sigma = ul_audit_kol_get(&p, "sigma");
    pb->sigma = ul_audit_kol_value_items(sigma, &pb->n_sigma);
    const ul_cert_value *steps = ul_audit_kol_get(&p, "steps");
    m->has_steps = steps->present;
    if (!steps->present && !calibrating)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: missing required field (a whole number: number of noisy steps T)",
                       steps->path);
    if (!steps->present && pb->n_sigma != 1)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: a list of per-step values needs steps; calibrate fills in steps for "
                       "one constant sigma only",
                       sigma->path);
    pb->steps = (unsigned long)steps->count;
    if (m->has_steps && pb->n_sigma != 1 && pb->n_sigma != pb->steps)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: give one value or a list of exactly steps = %lu values (got %zu)",
                       sigma->path, pb->steps, pb->n_sigma);

    st = mc_read_start(&p, m, err, errlen);
    if (st != UL_OK)
        return st;
    pb->mode = strcmp(ul_audit_kol_get(&p, "accounting")->text, "adaptive") == 0 ? UL_CONTRACTION_ADAPTIVE
                                                                    : UL_CONTRACTION_PRODUCT;

    const ul_cert_value *deltas = ul_audit_kol_get(&s, "deltas");
    if (deltas->present) {
        if ((m->has_steps && deltas->n_items > pb->steps) || deltas->n_items > MAX_STATED_DELTAS)
            return ul_fail(err, errlen, UL_EINPUT,
                           "%s: at most one value per step (steps = %lu) and at most %d (got %zu)",
                           deltas->path, pb->steps, MAX_STATED_DELTAS, deltas->n_items);
        m->stated = deltas->items;
        m->n_stated = deltas->n_items;
        m->stated_path = deltas->path;
    }
    return UL_OK;
}


static const char *mode_name(ul_contraction_mode mode)
{
    return mode == UL_CONTRACTION_ADAPTIVE ? "adaptive" : "product";
}

/* The problem after t steps (the σ list cut to its first t values). */
static ul_kol_mc_problem mc_prefix(const ul_kol_mc_problem *pb, unsigned long t)
{
    ul_kol_mc_problem q = *pb;
    q.steps = t;
    if (pb->n_sigma > 1)
        q.n_sigma = t;
    if (q.n_sigma == 0) { /* t = 0: δ_0, the σ list is not read */
        q.n_sigma = 1;
    }
    return q;
}

static ul_status mc_delta_at(const ul_kol_mc_problem *pb, unsigned long t, ul_contraction_mode mode,
                             int digits, ul_num_value *out, char *err, size_t errlen)
{
    ul_kol_mc_problem q = mc_prefix(pb, t);
    q.mode = mode;
    ul_num_precision w = {digits, 0, 0};
    ul_preconditions pre;
    ul_num_report nr;
    bool floor_reached = false;
    return ul_kol_mc_delta_certified(&q, &w, &pre, out, &floor_reached, &nr, err, errlen);
}

/* The code's logged δ_1..δ_n (adaptive recursion, docs/neural-unlearning.md, "Public code"
 * `dp_accountant`),
 * in double (f32 = false) or on the float32 path. */
static void mc_code_deltas(const ul_kol_mc_problem *pb, bool f32, double *out, size_t n)
{
    double eps = strtod(pb->eps, NULL);
    double delta = 1;
    if (ul_kol_mc_initial_noise(pb)) {
        double d0 = 2 * strtod(pb->c0, NULL);
        if (pb->init == UL_KOL_INIT_BOX)
            d0 *= sqrt((double)pb->dim);
        delta = ul_forensic_theta_one_minus_erf(eps, d0 / strtod(pb->sigma0, NULL)); /* float64 at setup */
    }
    double c2 = strtod(pb->c2, NULL);
    double c1 = pb->c1 ? strtod(pb->c1, NULL) : 0, lr = pb->lr ? strtod(pb->lr, NULL) : 0;
    for (size_t t = 0; t < n; t++) {
        double sigma = strtod(pb->sigma[pb->n_sigma > 1 ? t : 0], NULL);
        /* ε̃ = log(1 + (e^ε − 1)/δ), computed naively as the code does */
        double et = log(1 + (exp(eps) - 1) / delta);
        double gamma;
        if (f32) {
            /* 2*C2/σ: the Python float 2*C2 meets the float32 σ; cc2 also has
             * the float32 learning rate (docs/neural-unlearning.md, "Public code") */
            float r;
            if (pb->variant == UL_KOL_CC2) {
                float step = (float)lr * (float)c1;
                float d = (float)c2 + step;
                float two_d = 2.0f * d;
                r = two_d / (float)sigma;
            } else {
                float two_c2 = (float)(2 * c2);
                r = two_c2 / (float)sigma;
            }
            gamma = ul_forensic_theta_float32(et, (double)r);
        } else {
            double d = pb->variant == UL_KOL_CC2 ? 2 * (c2 + lr * c1) : 2 * c2;
            gamma = ul_forensic_theta_one_minus_erf(et, d / sigma);
        }
        delta *= gamma;
        out[t] = delta;
    }
}

/* Recipes tried on a wrong δ_t (1-based t), in this order. */
typedef struct {
    const char *name;
    double *values; /* per step, NULL for the certified other accounting */
    double slack;
} mc_recipe;

/* Finds the recipe reproducing `text` as δ_t; returns its name or NULL. */
static const char *mc_reproduce(const char *text, unsigned long t, const mc_recipe *rec,
                                size_t nrec, const ul_num_value *other_t)
{
    for (size_t i = 0; i < nrec; i++) {
        if (rec[i].values != NULL) {
            if (t >= 1 && ul_audit_kol_agrees_double(text, rec[i].values[t - 1], rec[i].slack))
                return rec[i].name;
        } else if (other_t != NULL && ul_audit_stated_agrees(text, other_t)) {
            return rec[i].name;
        }
    }
    return NULL;
}

/* ---- model clipping: the verdict and what else the report says ------------------ */

/* Cost limits of the optional numbers of a model-clipping report (a
 * certified step of the adaptive recursion costs up to ~0.25 ms when δ_t
 * stays near 1): at most ~1 s each.  Calibration searches further. */
#define REPORT_T_MAX_ADAPTIVE 2000UL
#define SIGMA_NEEDED_ADAPTIVE_MAX_STEPS 500UL
#define STATED_CHECK_BUDGET 4000UL /* certified adaptive / per-step steps for the stated δ_t */

typedef struct {
    const ul_kol_mc_problem *pb;
    const char *claim_delta;
    int digits;
    ul_num_value delta;
    bool floor_reached;
    const char *bound_note; /* δ_T itself (NULL), or which bound on it decided */
    bool bound_upper;
    ul_audit_decide_end end;
    ul_audit_report *rep;
} mc_eval;

/* An adaptive recursion longer than this at one σ is decided first from two
 * O(1) bounds (mc_bracket), and run only when they do not decide: the
 * certified recursion costs 15 µs to 0.15 ms a step (C2 = 2.5, σ = 0.5:
 * 3000 steps 0.5 s, 20000 steps 3 s of CPU). */
#define MC_ADAPTIVE_FULL_MAX_STEPS REPORT_T_MAX_ADAPTIVE

/* The adaptive δ_T lies below the product form's (ε̃_t ≥ ε while δ_t ≤ 1,
 * θ nonincreasing in ε) and above δ_0·θ*^T whenever that exceeds the claim
 * (mc_theta_star: no step before the claim is reached contracts more), and
 * between the two band sequences (mc_band_decide, 2·256 θ's).  Any may
 * decide the claim; *verdict INCONCLUSIVE when none does. */
static ul_status mc_bracket(mc_eval *e, const ul_num_precision *w, ul_verdict *verdict,
                            char *err, size_t errlen)
{
    ul_kol_mc_problem q = *e->pb;
    q.mode = UL_CONTRACTION_PRODUCT;
    ul_num_report nr;
    ul_status st = ul_kol_mc_delta_certified(&q, w, &e->rep->pre, &e->delta, &e->floor_reached,
                                             &nr, err, errlen);
    if (st != UL_OK && st != UL_ECAP)
        return st;
    ul_audit_report tmp;
    ul_audit_report_init(&tmp);
    e->bound_note = "an upper bound on delta_T: the product form";
    e->bound_upper = true;
    *verdict = ul_audit_compare(&tmp, "delta", "", &e->delta, e->claim_delta, false, e->digits);
    if (*verdict == UL_VERDICT_SUPPORTED)
        return UL_OK;
    mpfr_prec_t p = ul_num_start_bits(w, 64);
    ul_num_value lo;
    ul_num_value_init(&lo, p);
    *verdict = UL_VERDICT_INCONCLUSIVE;
    if (ul_kol_mc_delta_lower_bound(e->pb, e->claim_delta, p, &lo)) {
        if (ul_audit_compare(&tmp, "delta", "", &lo, e->claim_delta, false, e->digits) ==
            UL_VERDICT_UNSUPPORTED) {
            *verdict = UL_VERDICT_UNSUPPORTED;
            e->bound_note = "a lower bound on delta_T: delta_0*theta*^T, theta* = theta at the "
                            "claimed delta";
            e->bound_upper = false;
            ul_audit_kol_value_copy(&e->delta, &lo);
            e->floor_reached = false;
        }
    }
    if (*verdict == UL_VERDICT_INCONCLUSIVE) {
        ul_kol_side side = ul_kol_mc_band_decide(e->pb, e->claim_delta, p, &lo);
        *verdict = side == UL_KOL_AT_MOST ? UL_VERDICT_SUPPORTED
                   : side == UL_KOL_ABOVE ? UL_VERDICT_UNSUPPORTED
                                          : UL_VERDICT_INCONCLUSIVE;
        if (*verdict != UL_VERDICT_INCONCLUSIVE) {
            e->bound_upper = *verdict == UL_VERDICT_SUPPORTED;
            e->bound_note = e->bound_upper ? "an upper bound on delta_T: the recursion with "
                                             "theta frozen at the top of each of 256 bands of "
                                             "log delta"
                                           : "a lower bound on delta_T: the recursion with "
                                             "theta frozen at the bottom of each of 256 bands "
                                             "of log delta";
            ul_audit_kol_value_copy(&e->delta, &lo);
            e->floor_reached = false;
        }
    }
    ul_num_value_clear(&lo);
    return UL_OK;
}

/* ul_audit_decide_fn: δ_T of the cited accounting against the claimed δ. */
static ul_status mc_eval_once(void *ctx, const ul_num_precision *w, ul_verdict *verdict,
                              bool *cap_hit, char *err, size_t errlen)
{
    mc_eval *e = ctx;
    ul_num_report nr = {0, false};
    ul_pre_clear(&e->rep->pre);
    e->floor_reached = false;
    e->bound_note = NULL;
    ul_status st;
    if (e->pb->mode == UL_CONTRACTION_ADAPTIVE && e->pb->n_sigma == 1 &&
        e->pb->steps > MC_ADAPTIVE_FULL_MAX_STEPS) {
        st = mc_bracket(e, w, verdict, err, errlen);
        if (st != UL_OK || *verdict != UL_VERDICT_INCONCLUSIVE) {
            char label[160];
            snprintf(label, sizeof label, "%s (adaptive accounting, T = %lu)", e->bound_note,
                     e->pb->steps);
            if (st == UL_OK)
                ul_audit_compare(e->rep, "delta", label, &e->delta, e->claim_delta, false,
                                 e->digits);
            return st;
        }
        e->bound_note = NULL;
        ul_pre_clear(&e->rep->pre);
    }
    st = ul_kol_mc_delta_certified(e->pb, w, &e->rep->pre, &e->delta, &e->floor_reached, &nr,
                                   err, errlen);
    if (st != UL_OK && st != UL_ECAP)
        return st;
    /* below the floor only [0, δ_floor] is known: more digits do not help */
    *cap_hit = nr.cap_hit || e->floor_reached;
    char label[128];
    snprintf(label, sizeof label, "delta after T = %lu steps (%s accounting)", e->pb->steps,
             mode_name(e->pb->mode));
    *verdict = ul_audit_compare(e->rep, "delta", label, &e->delta, e->claim_delta, false,
                                e->digits);
    return UL_OK;
}

/* The least T reaching the claim at this σ, certified where that is cheap. */
static void mc_least_steps_note(const ul_kol_mc_problem *pb, const char *claim_delta,
                                ul_audit_report *rep)
{
    unsigned long t_max =
        pb->mode == UL_CONTRACTION_PRODUCT ? LEAST_T_MAX_PRODUCT : REPORT_T_MAX_ADAPTIVE;
    double lb = 0;
    if (ul_kol_mc_least_steps_lower_bound(pb, claim_delta, &lb) && lb > (double)t_max) {
        ul_audit_explain(rep, "At this sigma the %s accounting needs more than %.6g steps to "
                              "reach the claim (certified: every step multiplies delta_t by at "
                              "least theta at the claimed delta).",
                         mode_name(pb->mode), floor(lb));
        return;
    }
    if (pb->mode == UL_CONTRACTION_ADAPTIVE) {
        double target = ul_kol_log_decimal_d(claim_delta);
        double sigma = strtod(pb->sigma[0], NULL);
        if (ul_kol_mc_log_delta_d(pb, sigma, REPORT_T_MAX_ADAPTIVE + REPORT_T_MAX_ADAPTIVE / 10) >
            target) {
            ul_audit_explain(rep, "At this sigma the adaptive accounting needs more than about "
                                  "%lu steps (estimated in double precision; the least T is "
                                  "certified only up to %lu here).",
                             REPORT_T_MAX_ADAPTIVE, REPORT_T_MAX_ADAPTIVE);
            return;
        }
    }
    unsigned long t_need = 0;
    ul_num_report r2;
    ul_preconditions scratch;
    char e2[256];
    ul_status s2 = ul_kol_mc_least_steps(pb, claim_delta, t_max, &scratch, &t_need, &r2, e2,
                                         sizeof e2);
    if (s2 == UL_OK || s2 == UL_ECAP) {
        ul_audit_kol_add_would_reach_integer(rep, "steps_needed",
                                "least T reaching the claimed delta at this sigma", t_need);
        ul_audit_explain(rep, "At this sigma the %s accounting reaches the claim after T = %lu "
                              "steps.",
                         mode_name(pb->mode), t_need);
    } else if (s2 == UL_ENOROOT) {
        ul_audit_explain(rep, "At this sigma no T up to %lu reaches the claim.", t_max);
    }
}
static void mc_sigma_needed_note(const ul_kol_mc_problem *pb, const char *claim_delta,
                                 const ul_num_precision *want, ul_audit_report *rep)
{
    mpfi_t sg;
    mpfi_init2(sg, 64);
    bool have = false;
    if (pb->mode == UL_CONTRACTION_PRODUCT) {
        ul_kol_mc_problem q = *pb;
        q.sigma = NULL;
        q.n_sigma = 0;
        ul_num_report r2;
        ul_preconditions scratch;
        char e2[256];
        ul_status s2 = ul_kol_mc_sigma_min(&q, claim_delta, want, &scratch, sg, &r2, e2, sizeof e2);
        have = s2 == UL_OK || s2 == UL_ECAP;
    } else if (pb->steps <= SIGMA_NEEDED_ADAPTIVE_MAX_STEPS) {
        have = ul_kol_mc_sigma_min_searched(pb, claim_delta, sg);
    }
    if (have) {
        ul_audit_kol_add_would_reach_mpfi(rep, "sigma_needed",
                             "smallest constant sigma reaching the claim in T steps (upper end "
                             "certified safe)",
                             sg, want->digits);
        char *hi = ul_audit_kol_end_text(sg, 6, true);
        ul_audit_explain(rep, "In T = %lu steps a constant sigma of %s reaches it.", pb->steps,
                         hi);
        free(hi);
    }
    mpfi_clear(sg);
}

/* Certified steps one δ_t costs: t for the adaptive recursion or a per-step
 * σ list, 1 for the product form at one σ. */
static unsigned long mc_cost(const ul_kol_mc_problem *pb, ul_contraction_mode mode,
                             unsigned long t)
{
    return mode == UL_CONTRACTION_ADAPTIVE || pb->n_sigma > 1 ? t : 1;
}

/* The stated per-step δ_t, checked in order against the cited recursion
 * (within STATED_CHECK_BUDGET certified steps); the first wrong one goes to
 * first_wrong_stated, and the recipe reproducing it to forensics.  Returns
 * the recipe's name (or NULL). */
static const char *mc_check_stated(const mc_cert *m, const mc_recipe *recipes, size_t n_recipes,
                                   ul_audit_report *rep)
{
    const ul_kol_mc_problem *pb = &m->pb;
    ul_contraction_mode other_mode =
        pb->mode == UL_CONTRACTION_ADAPTIVE ? UL_CONTRACTION_PRODUCT : UL_CONTRACTION_ADAPTIVE;
    unsigned long spent = 0;
    char e2[256];
    for (size_t i = 0; i < m->n_stated; i++) {
        unsigned long t = (unsigned long)i + 1;
        spent += mc_cost(pb, pb->mode, t);
        if (spent > STATED_CHECK_BUDGET) {
            ul_audit_explain(rep, "(The stated deltas are checked up to %s[%zu]; the rest are not "
                                  "checked: cost limit.)",
                             m->stated_path, i > 0 ? i - 1 : 0);
            return NULL;
        }
        ul_num_value dt;
        ul_num_value_init(&dt, 64);
        ul_status s2 = mc_delta_at(pb, t, pb->mode, CHECK_DIGITS, &dt, e2, sizeof e2);
        bool wrong = (s2 == UL_OK || s2 == UL_ECAP) && !ul_audit_stated_agrees(m->stated[i], &dt);
        if (!wrong) {
            ul_num_value_clear(&dt);
            continue;
        }
        char cert[160];
        ul_audit_kol_value_text(cert, sizeof cert, &dt, 8);
        bool under = ul_audit_kol_text_below(m->stated[i], &dt);
        ul_num_value_clear(&dt);
        ul_audit_kol_setf(rep->first_wrong_stated, sizeof rep->first_wrong_stated,
             "%s[%zu] = %s is delta_%lu; the %s recursion certifies %s (%s)", m->stated_path, i,
             m->stated[i], t, mode_name(pb->mode), cert,
             under ? "the stated value under-states delta" : "the stated value over-states delta");
        ul_audit_explain(rep, "The stated per-step deltas are first wrong at %s[%zu] (%s, "
                              "certified %s).",
                         m->stated_path, i, m->stated[i], cert);
        ul_num_value ot;
        ul_num_value_init(&ot, 64);
        bool have_ot = mc_delta_at(pb, t, other_mode, CHECK_DIGITS, &ot, e2, sizeof e2) == UL_OK;
        const char *who = mc_reproduce(m->stated[i], t, recipes, n_recipes, have_ot ? &ot : NULL);
        ul_num_value_clear(&ot);
        if (who != NULL) {
            /* how many of the stated values the same recipe reproduces */
            size_t hits = 0, checked = 0;
            spent = 0;
            for (size_t j = 0; j < m->n_stated; j++, checked++) {
                bool certified = who == recipes[0].name;
                spent += certified ? mc_cost(pb, other_mode, j + 1) : 0;
                if (spent > STATED_CHECK_BUDGET)
                    break;
                ul_num_value oj;
                ul_num_value_init(&oj, 64);
                bool have_oj = certified && mc_delta_at(pb, (unsigned long)j + 1, other_mode,
                                                        CHECK_DIGITS, &oj, e2, sizeof e2) == UL_OK;
                if (mc_reproduce(m->stated[j], (unsigned long)j + 1, recipes, n_recipes,
                                 have_oj ? &oj : NULL) == who)
                    hits++;
                ul_num_value_clear(&oj);
            }
            ul_audit_kol_setf(rep->forensics, sizeof rep->forensics,
                 "%s[%zu] is reproduced by %s; the same recipe reproduces %zu of the %zu stated "
                 "deltas%s",
                 m->stated_path, i, who, hits, checked,
                 checked < m->n_stated ? " checked (cost limit)" : "");
        }
        return who;
    }
    return NULL;
}

/* The other accounting, reported beside (never the verdict: the cited one
 * decides; both are valid theorems, docs/neural-unlearning.md, "Model clipping", Errata K10). */
static bool mc_other(const ul_kol_mc_problem *pb, int digits, ul_num_value *other,
                     ul_audit_report *rep)
{
    ul_contraction_mode other_mode =
        pb->mode == UL_CONTRACTION_ADAPTIVE ? UL_CONTRACTION_PRODUCT : UL_CONTRACTION_ADAPTIVE;
    char label[128], e2[256];
    bool have = mc_cost(pb, other_mode, pb->steps) <= REPORT_T_MAX_ADAPTIVE &&
                mc_delta_at(pb, pb->steps, other_mode, digits, other, e2, sizeof e2) == UL_OK;
    if (have) {
        snprintf(label, sizeof label, "delta after T = %lu steps with the %s accounting%s",
                 pb->steps, mode_name(other_mode),
                 other_mode == UL_CONTRACTION_ADAPTIVE ? " (the public code's)"
                                                       : " (the theorem as stated)");
        ul_audit_number_set(&rep->other_variant, "delta", label, other, digits);
    }
    return have;
}

/* The verdict's sentences, the other accounting's, and what the theorem
 * does certify. */
static void mc_explain(const mc_cert *m, const mc_eval *e, const ul_num_value *other,
                       bool have_other, const ul_num_precision *want, ul_audit_report *rep)
{
    const ul_kol_mc_problem *pb = &m->pb;
    char dtext[160];
    ul_audit_kol_value_text(dtext, sizeof dtext, &e->delta, 8);
    ul_audit_explain(rep,
                     "Model clipping (%s, pre-noise diameter D = %s) with %s sigma for T = %lu "
                     "steps from delta_0 %s, %s accounting: delta_T %s %s at eps = %s%s%s%s.",
                     pb->variant == UL_KOL_CC2 ? "cc2" : "cc1", m->diameter_note,
                     pb->n_sigma > 1 ? "a per-step" : "constant", pb->steps,
                     ul_kol_mc_initial_noise(pb) ? "from the initial noise" : "= 1", mode_name(pb->mode),
                     e->bound_note == NULL ? "=" : e->bound_upper ? "<=" : ">=",
                     dtext, pb->eps, e->floor_reached ? " (below the floor 10^(-10^100))" : "",
                     e->bound_note != NULL ? " (" : "", e->bound_note != NULL ? e->bound_note : "");
    if (e->bound_note != NULL)
        ul_audit_explain(rep, "(The recursion itself is not run for T > %lu: this bound "
                              "decides.)",
                         MC_ADAPTIVE_FULL_MAX_STEPS);
    if (rep->verdict == UL_VERDICT_SUPPORTED)
        ul_audit_explain(rep, "This is within the claimed delta %s: supported.", m->claim_delta);
    else if (rep->verdict == UL_VERDICT_UNSUPPORTED)
        ul_audit_explain(rep, "This exceeds the claimed delta %s: unsupported.", m->claim_delta);
    else if (e->floor_reached)
        ul_audit_explain(rep, "A claimed delta of 0 cannot be certified from a bound that only "
                              "shows delta_T below the floor: inconclusive.");
    else {
        char why[160];
        ul_audit_kol_undecided_why(&e->end, why, sizeof why);
        ul_audit_explain(rep, "The enclosure straddles the claimed delta %s: inconclusive.", why);
    }
    const char *other_name = pb->mode == UL_CONTRACTION_ADAPTIVE ? "product" : "adaptive";
    if (have_other) {
        ul_audit_kol_value_text(dtext, sizeof dtext, other, 8);
        ul_audit_report tmp;
        ul_audit_report_init(&tmp);
        bool other_ok = ul_audit_compare(&tmp, "delta", "", other, m->claim_delta, false,
                                         want->digits) == UL_VERDICT_SUPPORTED;
        ul_audit_explain(rep, "The %s accounting gives delta_T = %s%s.", other_name, dtext,
                         other_ok && rep->verdict != UL_VERDICT_SUPPORTED
                             ? ", which would support the claim"
                             : "");
    } else {
        ul_audit_explain(rep, "(The %s accounting is not computed for T > %lu.)", other_name,
                         REPORT_T_MAX_ADAPTIVE);
    }
    if (rep->verdict != UL_VERDICT_UNSUPPORTED)
        return;
    ul_audit_kol_add_would_reach_value(rep, "delta",
                          e->bound_note != NULL ? "a lower bound on the delta the theorem "
                                                  "certifies after T steps"
                                                : "delta the theorem certifies after T steps",
                          &e->delta, want->digits);
    int cmp0 = 0, cmp1 = 0;
    bool in_range = ul_num_decimal_compare(m->claim_delta, "0", &cmp0) && cmp0 > 0 &&
                    ul_num_decimal_compare(m->claim_delta, "1", &cmp1) && cmp1 < 0;
    if (in_range && pb->n_sigma == 1)
        mc_least_steps_note(pb, m->claim_delta, rep);
    if (in_range && pb->steps >= 1)
        mc_sigma_needed_note(pb, m->claim_delta, want, rep);
}

/* Forensics: the stated per-step δ_t against the code's own path (cheap, in
 * doubles), and a claimed δ the theorem does not give.  UL_ENOMEM when the
 * two paths (one entry per step or stated value: sized by the certificate)
 * cannot be had. */
static ul_status mc_forensics(const mc_cert *m, const ul_num_value *other, bool have_other,
                              ul_audit_report *rep, char *err, size_t errlen)
{
    const ul_kol_mc_problem *pb = &m->pb;
    size_t n_code = m->n_stated;
    if (pb->steps > n_code && pb->steps <= 1000000UL)
        n_code = pb->steps;
    double *code64 = calloc(n_code + 1, sizeof *code64);
    double *code32 = calloc(n_code + 1, sizeof *code32);
    if (code64 == NULL || code32 == NULL) {
        free(code64), free(code32);
        bool by_steps = n_code != m->n_stated || m->stated_path == NULL; /* which set the size */
        return ul_fail(err, errlen, UL_ENOMEM,
                       "%s: out of memory for the code's delta_t path of %zu steps",
                       by_steps ? "$.parameters.steps" : m->stated_path, n_code);
    }
    mc_code_deltas(pb, false, code64, n_code);
    mc_code_deltas(pb, true, code32, n_code);
    const mc_recipe recipes[] = {
        {"the other accounting (product versus adaptive confusion)", NULL, 0},
        {"the public code's accountant on its float32 path (r = 2*C2/sigma, the erf arguments "
         "and Q = (1 - erf)/2 in float32; docs/neural-unlearning.md, \"Public code\", Errata K2)",
         code32, EMULATION_SLACK},
        {"the public code's accountant in double precision with Q = (1 - erf)/2 "
         "(docs/neural-unlearning.md, \"Public code\")",
         code64, EMULATION_SLACK},
    };
    const size_t n_recipes = sizeof recipes / sizeof recipes[0];
    const char *stated_who = mc_check_stated(m, recipes, n_recipes, rep), *claim_who = NULL;
    if (rep->verdict == UL_VERDICT_UNSUPPORTED && pb->steps >= 1) {
        const char *who =
            mc_reproduce(m->claim_delta, pb->steps, recipes, n_code >= pb->steps ? n_recipes : 1,
                         have_other ? other : NULL);
        if (who != NULL && rep->forensics[0] == '\0')
            ul_audit_kol_setf(rep->forensics, sizeof rep->forensics, "the claimed delta %s is delta_T of %s",
                 m->claim_delta, who);
        else if (who != NULL)
            claim_who = who;
    }
    if (rep->forensics[0] != '\0')
        ul_audit_explain(rep, "Forensics: %s.", rep->forensics);
    if (claim_who != NULL && claim_who == stated_who)
        ul_audit_explain(rep, "The claimed delta %s is delta_T of the same recipe.",
                         m->claim_delta);
    else if (claim_who != NULL)
        ul_audit_explain(rep, "The claimed delta %s is delta_T of %s.", m->claim_delta,
                         claim_who);
    free(code64);
    free(code32);
    return UL_OK;
}

/* The digits the adaptive recursion (or a per-step σ list) is raised to:
 * about 5 s at 1e-8 s · T · digits² (DECIDE_MAX_DIGITS for short runs). */
static int mc_max_digits(const ul_kol_mc_problem *pb)
{
    double t = (double)mc_cost(pb, pb->mode, pb->steps > 0 ? pb->steps : 1);
    double d = sqrt(4.5e8 / t);
    return d > DECIDE_MAX_DIGITS ? DECIDE_MAX_DIGITS : d < 68 ? 68 : (int)d;
}

/* Which readings decide (README): the cited accounting (product or
 * adaptive: both valid, docs/neural-unlearning.md, "Model clipping", Errata K10), cc1/cc2 and the
 * initial clip as
 * stated, with the box's true diameter 2·C0·√d (docs/neural-unlearning.md, Errata K6); the code's
 * float32 and double recipes never decide. */
static ul_status mc_audit(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                          char *err, size_t errlen)
{
    ul_audit_report_init(rep);
    mc_cert m;
    ul_status st = mc_read(c, &m, false, err, errlen);
    if (st != UL_OK)
        return st;
    ul_kol_mc_problem *pb = &m.pb;
    if (m.variant_omitted) /* read as cc2 (c1, lr given): checkable; else it fails */
        ul_audit_note_omitted_as(rep, "parameters", &MC_PARAMS[0], MC_PARAMS[0].omitted,
                                 pb->variant != UL_KOL_CC2);
    if (m.init_omitted)
        ul_audit_note_omitted(rep, "parameters", mc_spec("init"));
    if (m.sigma0_omitted)
        ul_audit_note_omitted(rep, "parameters", mc_spec("sigma0"));
    ul_audit_kol_setf(rep->claim, sizeof rep->claim, "(eps, delta) = (%s, %s) after T = %lu steps", pb->eps,
         m.claim_delta, pb->steps);
    ul_audit_kol_setf(rep->theorem, sizeof rep->theorem, "%s",
         pb->mode == UL_CONTRACTION_PRODUCT
             ? "model clipping, non-adaptive contraction delta_T = delta_0 * prod_t "
               "theta_{e^eps}(D/sigma_t) (Asoodeh et al. 2020 Thm 2; Koloskova et al. 2025 as "
               "stated; docs/neural-unlearning.md, \"Model clipping\")"
             : "model clipping, adaptive contraction delta_{t+1} = delta_t * "
               "theta_{e^{eps~_t}}(D/sigma_{t+1}), eps~_t = log(1 + (e^eps - 1)/delta_t) "
               "(Asoodeh et al. 2020; the public code's accountant; docs/neural-unlearning.md, "
               "\"Model clipping\")");

    /* the guarantee of the cited theorem at the claimed ε, decided */
    mc_eval e;
    memset(&e, 0, sizeof e);
    e.pb = pb;
    e.claim_delta = m.claim_delta;
    e.digits = want->digits;
    e.rep = rep;
    ul_num_value_init(&e.delta, 64);
    ul_verdict v = UL_VERDICT_INCONCLUSIVE;
    bool done = false;
    st = ul_audit_decide(mc_eval_once, &e, want, mc_max_digits(pb), &v, &e.end, err, errlen);
    st = ul_audit_kol_triage(st, rep, &done, "parameters", err, errlen);
    if (st != UL_OK || done) {
        ul_num_value_clear(&e.delta);
        return st;
    }
    rep->verdict = v;
    char *diam = NULL, e2[256];
    ul_preconditions scratch;
    st = ul_kol_mc_diameter(pb, &scratch, &diam, e2, sizeof e2);
    if (st == UL_OK) {
        snprintf(m.diameter_note, sizeof m.diameter_note, "%.10g", strtod(diam, NULL));
        free(diam);
    } else if (st == UL_ENOMEM) { /* the note needs the diameter's text: no report without it */
        ul_num_value_clear(&e.delta);
        return ul_fail(err, errlen, st, "%s", e2);
    }
    ul_num_value other;
    ul_num_value_init(&other, 64);
    bool have_other = mc_other(pb, want->digits, &other, rep);
    mc_explain(&m, &e, &other, have_other, want, rep);
    st = mc_forensics(&m, &other, have_other, rep, err, errlen);
    ul_num_value_clear(&other);
    ul_num_value_clear(&e.delta);
    return st;
}

/* `ulaudit calibrate`: parameters.steps absent, or given but not supporting
 * the claim → T = the certified least T with δ_T ≤ the claimed δ at the one
 * constant σ (ul_kol_mc_least_steps: δ_T ≤ δ and δ_{T−1} > δ, with the
 * cited accounting; at most 1e7 steps for the product form, 1e5 for the
 * adaptive one).  A certificate that already audits as supported is
 * returned unchanged (re-serialised, "expected" dropped).  The completed
 * certificate is audited again and must be supported, else UL_EINPUT. */
static ul_status mc_calibrate(const ul_cert *c, const ul_num_precision *want, char **completed,
                              char *err, size_t errlen)
{
    *completed = NULL;
    mc_cert m;
    ul_status st = mc_read(c, &m, true, err, errlen);
    if (st != UL_OK)
        return st;
    ul_kol_mc_problem *pb = &m.pb;
    const char *path = "$.parameters.steps";
    char value[32];
    if (m.has_steps) {
        ul_audit_report rep;
        st = mc_audit(c, want, &rep, err, errlen);
        if (st != UL_OK)
            return st;
        ul_audit_apply_omitted(&rep); /* as ul_audit does */
        if (rep.verdict == UL_VERDICT_SUPPORTED) {
            snprintf(value, sizeof value, "%lu", pb->steps);
            return ul_cert_to_json_with(c, "parameters", "steps", value, completed, err, errlen);
        }
        if (rep.verdict == UL_VERDICT_INVALID)
            return ul_fail(err, errlen, UL_EINPUT,
                           "$.parameters: a precondition of the cited theorem fails (see "
                           "`ulaudit audit`); no T makes the claim supported");
        if (pb->n_sigma != 1)
            return ul_fail(err, errlen, UL_EINPUT,
                           "$.parameters.sigma: a list of per-step values fixes T; calibrate "
                           "fills in steps for one constant sigma only");
    }
    unsigned long t_max =
        pb->mode == UL_CONTRACTION_PRODUCT ? LEAST_T_MAX_PRODUCT : LEAST_T_MAX_ADAPTIVE;
    unsigned long T = 0;
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report nr;
    char e2[512] = "";
    double lb = 0; /* certified: no T below lb reaches the claim */
    if (pb->n_sigma == 1 && ul_kol_mc_least_steps_lower_bound(pb, m.claim_delta, &lb) &&
        lb > (double)t_max)
        st = UL_ENOROOT;
    else
        st = ul_kol_mc_least_steps(pb, m.claim_delta, t_max, &pre, &T, &nr, e2, sizeof e2);
    if (st == UL_ENOROOT)
        return ul_fail(err, errlen, UL_ENOROOT,
                       "%s: no T up to %lu reaches delta = %s at eps = %s with this sigma (%s "
                       "accounting)",
                       path, t_max, m.claim_delta, pb->eps, mode_name(pb->mode));
    if (st != UL_OK && st != UL_ECAP) { /* UL_ECAP: T is still certified sufficient */
        ul_fail(err, errlen, st, "%s", e2);
        return ul_audit_kol_with_path(st, "parameters", err, errlen);
    }
    snprintf(value, sizeof value, "%lu", T);
    char *text = NULL;
    st = ul_cert_to_json_with(c, "parameters", "steps", value, &text, err, errlen);
    if (st != UL_OK)
        return st;
    /* the completed certificate must audit as supported */
    ul_cert *done = NULL;
    ul_audit_report rep;
    ul_audit_report_init(&rep);
    ul_status s2 = ul_cert_load_buffer(text, strlen(text), &done, e2, sizeof e2);
    if (s2 == UL_OK)
        s2 = mc_audit(done, want, &rep, e2, sizeof e2);
    ul_cert_free(done);
    if (s2 == UL_OK)
        ul_audit_apply_omitted(&rep); /* as ul_audit does */
    if (s2 != UL_OK || rep.verdict != UL_VERDICT_SUPPORTED) {
        free(text);
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: the calibrated T = %s did not audit as supported (%s)", path, value,
                       s2 != UL_OK ? e2 : ul_verdict_name(rep.verdict));
    }
    *completed = text;
    return UL_OK;
}

const ul_audit_method ul_audit_model_clipping = {"model-clipping", mc_audit, mc_calibrate,
                                                 MC_PARAMS, sizeof MC_PARAMS / sizeof MC_PARAMS[0]};
