/* src/cert/audit_model_clipping.c — audit handler of method "model-clipping":
 * Koloskova, Allouah, Jha, Guerraoui, Koyejo, "Certified Unlearning for
 * Neural Networks" (ICML 2025), noisy fine-tuning with model clipping
 * (spec/koloskova.md §1.4, §2.3), through src/bounds/koloskova.h; the public
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
 * method "model-clipping" — noisy fine-tuning with model clipping, spec §1.4,
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
 * valid: Asoodeh et al. 2020, spec §2.3, §4.10), with cc1/cc2 and the initial
 * clip as stated (the box at its true diameter 2·C0·√d, not the code's
 * data-dependent clamp, §4.6).  The code's float32/double θ recipes never
 * decide.
 */
#include "cert/audit_koloskova_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/gaussian.h"
#include "cert/forensics.h"
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
 * (spec §3) evaluated as the code does. */

/* The recipes themselves are src/cert/forensics.c's
 * ul_forensic_theta_one_minus_erf (double throughout: the setup's δ_0, and
 * the whole accountant if the dtype inference of spec §3 were wrong) and
 * ul_forensic_theta_float32 (the float32 path of spec §3 "Precision
 * (dtype)"; a float r passes to it exactly). */

/* ==== model clipping ========================================================== */

static const char *const MC_VARIANTS[] = {"cc1", "cc2", NULL};
static const char *const MC_ACCOUNTINGS[] = {"product", "adaptive", NULL};

static const ul_field_spec MC_PARAMS[] = {
    {.name = "variant",
     .type = UL_FIELD_STRING,
     .choices = MC_VARIANTS,
     .doc = "cc1 (pre-noise diameter 2*C2) or cc2 (2*(C2 + lr*C1))"},
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
     .doc = "std of the initial noise (absent or 0: delta_0 = 1)"},
    {.name = "init",
     .type = UL_FIELD_STRING,
     .choices = KOL_INITS,
     .doc = "initial clip: ball (default) or box"},
    {.name = "dim", .type = UL_FIELD_COUNT, .hi = "999999999", .doc = "dimension of the box"},
    {.name = "accounting",
     .type = UL_FIELD_STRING,
     .required = true,
     .choices = MC_ACCOUNTINGS,
     .doc = "the cited theorem: product (as stated) or adaptive (the code's recursion)"},
};

static const ul_field_spec EPS_DELTA_CLAIM[] = {
    {.name = "eps",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .lo = "0",
     .hi = "1e9",
     .doc = "claimed epsilon (natural log)"},
    {.name = "delta",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .lo = "0",
     .hi = "1",
     .doc = "claimed delta"},
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
} mc_cert;

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
    pb->eps = kol_get(&cl, "eps")->text;
    m->claim_delta = kol_get(&cl, "delta")->text;

    const ul_cert_value *variant = kol_get(&p, "variant"), *c1 = kol_get(&p, "c1"), *lr = kol_get(&p, "lr");
    pb->variant = variant->present && strcmp(variant->text, "cc2") == 0 ? UL_KOL_CC2 : UL_KOL_CC1;
    if (pb->variant == UL_KOL_CC2) {
        if (!c1->present)
            return kol_missing(c1->path, "by variant cc2", err, errlen);
        if (!lr->present)
            return kol_missing(lr->path, "by variant cc2", err, errlen);
        pb->c1 = c1->text;
        pb->lr = lr->text;
    } else {
        if (c1->present)
            return kol_unused(c1, "by variant cc1", err, errlen);
        if (lr->present)
            return kol_unused(lr, "by variant cc1", err, errlen);
    }
    pb->c2 = kol_get(&p, "c2")->text;
    const ul_cert_value *sigma = kol_get(&p, "sigma");
    pb->sigma = kol_value_items(sigma, &pb->n_sigma);
    const ul_cert_value *steps = kol_get(&p, "steps");
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

    const ul_cert_value *c0 = kol_get(&p, "c0"), *sigma0 = kol_get(&p, "sigma0"), *init = kol_get(&p, "init"),
                        *dim = kol_get(&p, "dim");
    pb->init = init->present && strcmp(init->text, "box") == 0 ? UL_KOL_INIT_BOX : UL_KOL_INIT_BALL;
    if (sigma0->present) {
        pb->sigma0 = sigma0->text;
        int cmp = 0;
        ul_num_decimal_compare(sigma0->text, "0", &cmp);
        if (cmp != 0 && !c0->present)
            return kol_missing(c0->path, "when sigma0 is not 0 (the initial clip radius C0)", err,
                           errlen);
    } else if (init->present || dim->present) {
        return kol_unused(init->present ? init : dim, "without sigma0 (delta_0 = 1)", err, errlen);
    }
    pb->c0 = c0->present ? c0->text : NULL;
    if (pb->init == UL_KOL_INIT_BOX) {
        if (!dim->present)
            return kol_missing(dim->path, "by init box", err, errlen);
        pb->dim = (unsigned long)dim->count;
    } else if (dim->present) {
        return kol_unused(dim, "by init ball", err, errlen);
    }
    pb->mode = strcmp(kol_get(&p, "accounting")->text, "adaptive") == 0 ? UL_CONTRACTION_ADAPTIVE
                                                                    : UL_CONTRACTION_PRODUCT;

    const ul_cert_value *deltas = kol_get(&s, "deltas");
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

/* σ0 > 0, decided on the decimal text. */
static bool initial_noise(const ul_kol_mc_problem *pb)
{
    int cmp = 0;
    return pb->sigma0 != NULL && ul_num_decimal_compare(pb->sigma0, "0", &cmp) && cmp > 0;
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

/* The code's logged δ_1..δ_n (adaptive recursion, spec §3 `dp_accountant`),
 * in double (f32 = false) or on the float32 path. */
static void mc_code_deltas(const ul_kol_mc_problem *pb, bool f32, double *out, size_t n)
{
    double eps = strtod(pb->eps, NULL);
    double delta = 1;
    if (initial_noise(pb)) {
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
             * the float32 learning rate (spec §3) */
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
            if (t >= 1 && kol_agrees_double(text, rec[i].values[t - 1], rec[i].slack))
                return rec[i].name;
        } else if (other_t != NULL && kol_agrees_value(text, other_t)) {
            return rec[i].name;
        }
    }
    return NULL;
}

/* ---- the recursion in doubles: searches only, never a bound ---------------------
 * "Search in doubles, certify once": these choose where the certified
 * functions are evaluated (the σ to certify, whether a least T is within
 * reach); nothing they return is reported as a bound. */

/* log Q(x) in doubles: erfc, and beyond x = 30 (erfc(x/√2) < 1e-197) the
 * asymptotic series of the Mills ratio, Q(x) ≈ φ(x)/x·(1 − 1/x² + 3/x⁴ − 15/x⁶). */
static double log_q_d(double x)
{
    if (x < 30)
        return log(0.5 * erfc(x / sqrt(2.0)));
    double x2 = x * x;
    return -0.5 * x2 - log(x) - 0.5 * log(2 * 3.14159265358979323846) +
           log1p(-1 / x2 + 3 / (x2 * x2) - 15 / (x2 * x2 * x2));
}

/* log θ_{e^ε}(r) in doubles, r > 0 (spec §2.1): 1 − Q(−a) − e^ε·Q(b) for
 * a < 0, Q(a)·(1 − e^ε·Q(b)/Q(a)) otherwise, a = ε/r − r/2, b = a + r. */
static double log_theta_d(double eps, double r)
{
    double a = eps / r - r / 2, b = a + r;
    if (a < 0) {
        double t = exp(log_q_d(-a)) + exp(eps + log_q_d(b));
        return t >= 1 ? -INFINITY : log1p(-t);
    }
    double lqa = log_q_d(a), d = eps + log_q_d(b) - lqa;
    return d >= 0 ? -INFINITY : lqa + log(-expm1(d));
}

/* The pre-noise diameter D in doubles (spec §1.4). */
static double mc_diameter_d(const ul_kol_mc_problem *pb)
{
    double c2 = strtod(pb->c2, NULL);
    if (pb->variant == UL_KOL_CC2)
        return 2 * (c2 + strtod(pb->lr, NULL) * strtod(pb->c1, NULL));
    return 2 * c2;
}

/* log δ_T in doubles for `steps` steps at the constant σ (sigma > 0), or at
 * the problem's σ_t when sigma = 0; −inf once below 10^-300·e^-300. */
static double mc_log_delta_d(const ul_kol_mc_problem *pb, double sigma, unsigned long steps)
{
    double eps = strtod(pb->eps, NULL), lem1 = log(expm1(eps)), ld = 0, d = mc_diameter_d(pb);
    if (initial_noise(pb)) {
        double d0 = 2 * strtod(pb->c0, NULL);
        if (pb->init == UL_KOL_INIT_BOX)
            d0 *= sqrt((double)pb->dim);
        ld = log_theta_d(eps, d0 / strtod(pb->sigma0, NULL));
    }
    for (unsigned long t = 0; t < steps && ld > -1000; t++) {
        double s = sigma > 0 ? sigma : strtod(pb->sigma[pb->n_sigma > 1 ? t : 0], NULL);
        /* ε̃ = log(1 + (e^ε − 1)/δ) (spec §2.3) */
        double x = lem1 - ld;
        double et = pb->mode == UL_CONTRACTION_PRODUCT ? eps
                    : x > 30                          ? x + log1p(exp(-x))
                                                      : log1p(exp(x));
        ld += log_theta_d(et, d / s);
    }
    return ld > -1000 ? ld : -INFINITY;
}

/* ---- model clipping: the verdict and what else the report says ------------------ */

/* Cost limits of the optional numbers of a model-clipping report (a
 * certified step of the adaptive recursion costs up to ~0.25 ms when δ_t
 * stays near 1): at most ~1 s each.  Calibration searches further. */
#define REPORT_T_MAX_ADAPTIVE 2000UL
#define SIGMA_NEEDED_ADAPTIVE_MAX_STEPS 500UL
#define STATED_CHECK_BUDGET 4000UL /* certified adaptive / per-step steps for the stated δ_t */

/* The parts of a one-σ recursion at r's precision: r ⊇ D/σ, ld0 ⊇ log δ_0
 * (δ_0 = 1: 0).  False when not computable. */
static bool mc_parts(const ul_kol_mc_problem *pb, mpfi_ptr r, mpfi_ptr ld0)
{
    char *diam = NULL, e2[256];
    ul_preconditions pre;
    if (pb->n_sigma != 1 || ul_kol_mc_diameter(pb, &pre, &diam, e2, sizeof e2) != UL_OK)
        return false;
    mpfr_prec_t p = mpfi_get_prec(r);
    ul_num_value d0;
    ul_num_value_init(&d0, p);
    ul_num_precision w = {20, 0, 0};
    ul_num_report nr;
    bool ok = ul_kol_mc_delta0_certified(pb, &w, &pre, &d0, &nr, e2, sizeof e2) == UL_OK;
    mpfi_t s;
    mpfi_init2(s, p);
    ul_num_set_decimal(r, diam);
    ul_num_set_decimal(s, pb->sigma[0]);
    mpfi_div(r, r, s);
    if (ok) {
        mpfi_set(ld0, d0.enclosure);
        if (!d0.is_log)
            mpfi_log(ld0, ld0);
    }
    mpfi_clear(s);
    ul_num_value_clear(&d0);
    free(diam);
    return ok;
}

/* The contraction per step that δ_t cannot beat while it stays above delta:
 * then ε̃_t < ε̃* = log(1 + (e^ε − 1)/δ) and θ is nonincreasing in ε, so
 * every step multiplies δ_t by at least θ* = θ_{e^ε̃*}(D/σ) (ε̃* = ε for the
 * product form; spec §2.3).  lt ⊇ log θ*, ld0 ⊇ log δ_0 (at lt's precision);
 * one constant σ only; false when not computable. */
static bool mc_theta_star(const ul_kol_mc_problem *pb, const char *delta, mpfi_ptr lt,
                          mpfi_ptr ld0)
{
    mpfr_prec_t p = mpfi_get_prec(lt);
    mpfi_t r, s, et;
    mpfi_init2(r, p);
    mpfi_init2(s, p);
    mpfi_init2(et, p);
    bool ok = mc_parts(pb, r, ld0);
    ul_num_set_decimal(et, pb->eps);
    if (ok && pb->mode == UL_CONTRACTION_ADAPTIVE) {
        ul_num_set_decimal(s, delta);
        mpfi_expm1(et, et);
        mpfi_div(et, et, s);
        mpfi_log1p(et, et);
    }
    if (ok)
        ul_gauss_log_theta_enclose(lt, et, r);
    mpfi_clear(r);
    mpfi_clear(s);
    mpfi_clear(et);
    return ok && mpfr_number_p(&lt->left) && mpfr_sgn(&lt->right) < 0;
}

/* ---- the adaptive recursion between two step functions -------------------------
 * g(L) = log θ_{e^{ε̃(L)}}(r), ε̃(L) = log(1 + (e^ε − 1)·e^{−L}), L = log δ, is
 * nondecreasing in L (ε̃ falls as δ rises, θ is nonincreasing in ε: spec
 * §2.1, §2.3), and F(L) = L + g(L), one step of the recursion, is increasing
 * (contraction.c, chain_end).  So y_{t+1} = y_t + g_lo(y_t) with g_lo ≤ g
 * stays at or below log δ_t (induction: y_{t+1} ≤ F(y_t) ≤ F(log δ_t)), and
 * z_{t+1} = z_t + g_hi(z_t) with g_hi ≥ g stays at or above it.  With M
 * equal bands (ℓ_{j+1}, ℓ_j] of L from log δ_0 down to log δ_claim, g_lo =
 * g(ℓ_{j+1}) and g_hi = g(ℓ_j) on band j: 2M θ's, and each sequence walked a
 * band at a time (many steps per band), whatever T is. */
#define MC_BANDS 256

typedef struct {
    mpfr_prec_t p;
    mpfi_t em1, r;                /* e^ε − 1, D/σ */
    mpfr_t level[MC_BANDS + 1];  /* ℓ_0 > ℓ_1 > … > ℓ_M */
    mpfi_t g;                     /* g at the level last asked for */
    int g_at;                     /* its index, -1: none */
} mc_bands;

/* b->g ⊇ g(ℓ_j), computed once per band visited. */
static void mc_band_g(mc_bands *b, int j)
{
    if (b->g_at == j)
        return;
    mpfi_t l, et;
    mpfi_init2(l, b->p);
    mpfi_init2(et, b->p);
    mpfi_set_fr(l, b->level[j]);
    mpfi_neg(et, l);
    mpfi_exp(et, et);
    mpfi_mul(et, et, b->em1);
    mpfi_log1p(et, et); /* ε̃(ℓ_j) */
    ul_gauss_log_theta_enclose(b->g, et, b->r);
    b->g_at = j;
    mpfi_clear(l);
    mpfi_clear(et);
}

/* The lower sequence for T steps from *y (lower end of log δ_0), rounded
 * down.  A jump of k steps on band j needs every start point above
 * ℓ_{j+1}: k = ⌊(y − ℓ_{j+1})/|g_lo|⌋ (≥ 1, the first start is above it).
 * False (nothing shown) once y reaches ℓ_M, the claim's level. */
static bool mc_band_lower(mc_bands *b, unsigned long steps, mpfr_ptr y)
{
    mpfr_t a, k;
    mpfr_inits2(b->p, a, k, (mpfr_ptr)0);
    bool ok = true;
    int j = 0;
    for (unsigned long t = 0; t < steps && ok;) {
        while (j < MC_BANDS && !mpfr_greater_p(y, b->level[j + 1]))
            j++;
        if (j < MC_BANDS)
            mc_band_g(b, j + 1);
        ok = j < MC_BANDS && mpfr_number_p(&b->g->left) && mpfr_sgn(&b->g->left) < 0;
        if (!ok)
            break;
        mpfr_sub(a, y, b->level[j + 1], MPFR_RNDD);
        mpfr_neg(k, &b->g->left, MPFR_RNDU);
        mpfr_div(k, a, k, MPFR_RNDD);
        mpfr_floor(k, k);
        unsigned long n = mpfr_cmp_ui(k, 1) < 0 ? 1 : mpfr_get_ui(k, MPFR_RNDD);
        n = n > steps - t ? steps - t : n;
        mpfr_mul_ui(a, &b->g->left, n, MPFR_RNDD);
        mpfr_add(y, y, a, MPFR_RNDD);
        t += n;
    }
    mpfr_clears(a, k, (mpfr_ptr)0);
    return ok;
}

/* The upper sequence for T steps from *z (upper end of log δ_0), rounded
 * up; any jump length is valid (g_hi = g(ℓ_j) ≥ g below ℓ_j too), so k =
 * ⌈(z − ℓ_{j+1})/|g_hi|⌉ reaches the next band.  True when z reached ℓ_M
 * (δ_T ≤ δ_t ≤ e^{ℓ_M} ≤ the claim). */
static bool mc_band_upper(mc_bands *b, unsigned long steps, mpfr_ptr z)
{
    mpfr_t a, k;
    mpfr_inits2(b->p, a, k, (mpfr_ptr)0);
    int j = 0;
    bool below = false, stuck = false;
    for (unsigned long t = 0; t < steps && !below && !stuck;) {
        while (j < MC_BANDS && mpfr_lessequal_p(z, b->level[j + 1]))
            j++;
        below = j == MC_BANDS;
        mc_band_g(b, j < MC_BANDS ? j : MC_BANDS);
        stuck = !below && !(mpfr_number_p(&b->g->right) && mpfr_sgn(&b->g->right) < 0);
        if (below || stuck)
            break;
        mpfr_sub(a, z, b->level[j + 1], MPFR_RNDU);
        mpfr_neg(k, &b->g->right, MPFR_RNDD);
        mpfr_div(k, a, k, MPFR_RNDU);
        mpfr_ceil(k, k);
        unsigned long n = mpfr_cmp_ui(k, steps - t) >= 0 ? steps - t : mpfr_get_ui(k, MPFR_RNDU);
        n = n < 1 ? 1 : n;
        mpfr_mul_ui(a, &b->g->right, n, MPFR_RNDU);
        mpfr_add(z, z, a, MPFR_RNDU);
        t += n;
    }
    below = below || mpfr_lessequal_p(z, b->level[MC_BANDS]);
    mpfr_clears(a, k, (mpfr_ptr)0);
    return below;
}

static void mc_bands_init(mc_bands *b, mpfr_prec_t p)
{
    b->p = p;
    mpfi_init2(b->em1, p);
    mpfi_init2(b->r, p);
    mpfi_init2(b->g, p);
    for (int j = 0; j <= MC_BANDS; j++)
        mpfr_init2(b->level[j], p);
    b->g_at = -1;
}

static void mc_bands_clear(mc_bands *b)
{
    mpfi_clear(b->em1);
    mpfi_clear(b->r);
    mpfi_clear(b->g);
    for (int j = 0; j <= MC_BANDS; j++)
        mpfr_clear(b->level[j]);
}

/* The adaptive claim decided by the two sequences, the recursion not run:
 * UNSUPPORTED when the lower one ends above log δ_claim, SUPPORTED when the
 * upper one reaches it, INCONCLUSIVE otherwise; *bound (log form, at p
 * bits) is the deciding end.  One constant σ only. */
static ul_verdict mc_band_decide(const ul_kol_mc_problem *pb, const char *claim, mpfr_prec_t p,
                                 ul_num_value *bound)
{
    mc_bands b;
    mc_bands_init(&b, p);
    mpfi_t ld0, lc;
    mpfi_init2(ld0, p);
    mpfi_init2(lc, p);
    bool ok = pb->mode == UL_CONTRACTION_ADAPTIVE && mc_parts(pb, b.r, ld0);
    ul_num_set_decimal(b.em1, pb->eps);
    mpfi_expm1(b.em1, b.em1);
    ul_num_set_decimal(lc, claim);
    mpfi_log(lc, lc);
    ok = ok && mpfr_number_p(&lc->left) && mpfr_number_p(&ld0->right) &&
         mpfr_less_p(&lc->left, &ld0->right);
    ul_verdict v = UL_VERDICT_INCONCLUSIVE;
    if (ok) {
        /* ℓ_j = ℓ_0 − expm1(j·U/M), U = log(1 + ℓ_0 − ℓ_M): narrow bands near
         * δ_0, where a slowly contracting recursion spends its steps, wider
         * ones deep down, where log δ_t falls fast.  Any decreasing points
         * serve (each band's factors are evaluated at its own ends). */
        mpfr_set(b.level[0], &ld0->right, MPFR_RNDU);
        mpfr_set(b.level[MC_BANDS], &lc->left, MPFR_RNDD);
        mpfr_t step, y;
        mpfr_inits2(p, step, y, (mpfr_ptr)0);
        mpfr_sub(step, b.level[0], b.level[MC_BANDS], MPFR_RNDN);
        mpfr_log1p(step, step, MPFR_RNDN);
        mpfr_div_ui(step, step, MC_BANDS, MPFR_RNDN);
        for (int j = 1; j < MC_BANDS; j++) {
            mpfr_mul_ui(y, step, (unsigned long)j, MPFR_RNDN);
            mpfr_expm1(y, y, MPFR_RNDN);
            mpfr_sub(b.level[j], b.level[0], y, MPFR_RNDN);
        }
        mpfr_set(y, &ld0->left, MPFR_RNDD);
        if (mc_band_lower(&b, pb->steps, y) && mpfr_greater_p(y, &lc->right)) {
            v = UL_VERDICT_UNSUPPORTED;
        } else {
            mpfr_set(y, &ld0->right, MPFR_RNDU);
            if (mc_band_upper(&b, pb->steps, y))
                v = UL_VERDICT_SUPPORTED;
        }
        if (v != UL_VERDICT_INCONCLUSIVE) {
            mpfi_set_prec(bound->enclosure, p);
            mpfi_set_fr(bound->enclosure, y);
            bound->is_log = true;
        }
        mpfr_clears(step, y, (mpfr_ptr)0);
    }
    mpfi_clear(ld0);
    mpfi_clear(lc);
    mc_bands_clear(&b);
    return v;
}

typedef struct {
    const ul_kol_mc_problem *pb;
    const char *claim_delta;
    int digits;
    ul_num_value delta;
    bool floor_reached;
    const char *bound_note; /* δ_T itself (NULL), or which bound on it decided */
    bool bound_upper;
    kol_decide_end end;
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
    mpfi_t ld0;
    mpfi_init2(ld0, p);
    *verdict = UL_VERDICT_INCONCLUSIVE;
    if (mc_theta_star(e->pb, e->claim_delta, lo.enclosure, ld0)) {
        mpfi_mul_ui(lo.enclosure, lo.enclosure, e->pb->steps);
        mpfi_add(lo.enclosure, lo.enclosure, ld0); /* log(δ_0·θ*^T) */
        lo.is_log = true;
        if (ul_audit_compare(&tmp, "delta", "", &lo, e->claim_delta, false, e->digits) ==
            UL_VERDICT_UNSUPPORTED) {
            *verdict = UL_VERDICT_UNSUPPORTED;
            e->bound_note = "a lower bound on delta_T: delta_0*theta*^T, theta* = theta at the "
                            "claimed delta";
            e->bound_upper = false;
            mpfi_set_prec(e->delta.enclosure, p);
            mpfi_set(e->delta.enclosure, lo.enclosure);
            e->delta.is_log = true;
            e->floor_reached = false;
        }
    }
    if (*verdict == UL_VERDICT_INCONCLUSIVE) {
        *verdict = mc_band_decide(e->pb, e->claim_delta, p, &lo);
        if (*verdict != UL_VERDICT_INCONCLUSIVE) {
            e->bound_upper = *verdict == UL_VERDICT_SUPPORTED;
            e->bound_note = e->bound_upper ? "an upper bound on delta_T: the recursion with "
                                             "theta frozen at the top of each of 256 bands of "
                                             "log delta"
                                           : "a lower bound on delta_T: the recursion with "
                                             "theta frozen at the bottom of each of 256 bands "
                                             "of log delta";
            mpfi_set_prec(e->delta.enclosure, p);
            mpfi_set(e->delta.enclosure, lo.enclosure);
            e->delta.is_log = true;
            e->floor_reached = false;
        }
    }
    mpfi_clear(ld0);
    ul_num_value_clear(&lo);
    return UL_OK;
}

/* kol_decide_fn: δ_T of the cited accounting against the claimed δ. */
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

/* A certified lower bound on the least T with δ_T ≤ delta: each step
 * multiplies δ_t by at least θ* until then (mc_theta_star), hence
 * T ≥ log(δ/δ_0)/log θ*. */
static bool mc_least_steps_lower_bound(const ul_kol_mc_problem *pb, const char *delta, double *lb)
{
    mpfi_t lt, ld0, ld;
    mpfi_init2(lt, 128);
    mpfi_init2(ld0, 128);
    mpfi_init2(ld, 128);
    bool ok = mc_theta_star(pb, delta, lt, ld0);
    if (ok) {
        ul_num_set_decimal(ld, delta);
        mpfi_log(ld, ld);
        mpfi_sub(ld, ld, ld0); /* log(δ/δ_0) */
        mpfi_div(ld, ld, lt);
        ok = mpfr_number_p(&ld->left);
        *lb = ok ? mpfr_get_d(&ld->left, MPFR_RNDD) : 0;
    }
    mpfi_clear(lt);
    mpfi_clear(ld0);
    mpfi_clear(ld);
    return ok;
}

/* The least T reaching the claim at this σ, certified where that is cheap. */
static void mc_least_steps_note(const ul_kol_mc_problem *pb, const char *claim_delta,
                                ul_audit_report *rep)
{
    unsigned long t_max =
        pb->mode == UL_CONTRACTION_PRODUCT ? LEAST_T_MAX_PRODUCT : REPORT_T_MAX_ADAPTIVE;
    double lb = 0;
    if (mc_least_steps_lower_bound(pb, claim_delta, &lb) && lb > (double)t_max) {
        ul_audit_explain(rep, "At this sigma the %s accounting needs more than %.6g steps to "
                              "reach the claim (certified: every step multiplies delta_t by at "
                              "least theta at the claimed delta).",
                         mode_name(pb->mode), floor(lb));
        return;
    }
    if (pb->mode == UL_CONTRACTION_ADAPTIVE) {
        double target = kol_log_decimal_d(claim_delta);
        double sigma = strtod(pb->sigma[0], NULL);
        if (mc_log_delta_d(pb, sigma, REPORT_T_MAX_ADAPTIVE + REPORT_T_MAX_ADAPTIVE / 10) >
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
        kol_add_would_reach_integer(rep, "steps_needed",
                                "least T reaching the claimed delta at this sigma", t_need);
        ul_audit_explain(rep, "At this sigma the %s accounting reaches the claim after T = %lu "
                              "steps.",
                         mode_name(pb->mode), t_need);
    } else if (s2 == UL_ENOROOT) {
        ul_audit_explain(rep, "At this sigma no T up to %lu reaches the claim.", t_max);
    }
}

/* Whether δ_T at the constant σ `text` is certified ≤ delta (want_safe) or
 * certified > delta (!want_safe). */
static bool mc_sigma_side(const ul_kol_mc_problem *pb, const char *text, const char *delta,
                          int digits, bool want_safe)
{
    ul_kol_mc_problem q = *pb;
    const char *one[1] = {text};
    q.sigma = one;
    q.n_sigma = 1;
    ul_num_value v;
    ul_num_value_init(&v, 64);
    char e2[256];
    bool ok = false;
    if (mc_delta_at(&q, q.steps, q.mode, digits, &v, e2, sizeof e2) == UL_OK) {
        ul_audit_report tmp;
        ul_audit_report_init(&tmp);
        ul_verdict vd = ul_audit_compare(&tmp, "delta", "", &v, delta, false, digits);
        ok = want_safe ? vd == UL_VERDICT_SUPPORTED : vd == UL_VERDICT_UNSUPPORTED;
    }
    ul_num_value_clear(&v);
    return ok;
}

/* The smallest constant σ reaching the claim under the adaptive recursion:
 * bisection on log σ in doubles, then one certified recursion on each side
 * of the estimate (δ_T(hi) ≤ δ and δ_T(lo) > δ), widened up to three times.
 * [lo, hi] ⊇ σ* (δ_T is nonincreasing in σ).  False when not certified. */
static bool mc_sigma_needed_adaptive(const ul_kol_mc_problem *pb, const char *delta, mpfi_ptr out)
{
    double target = kol_log_decimal_d(delta), lo = kol_log_decimal_d(pb->sigma[0]), hi = lo;
    if (!isfinite(target) || !isfinite(lo))
        return false;
    for (int i = 0; i < 200 && mc_log_delta_d(pb, exp(hi), pb->steps) > target; i++)
        hi += 1;
    for (int i = 0; i < 200 && !(mc_log_delta_d(pb, exp(lo), pb->steps) > target); i++)
        lo -= 1;
    for (int i = 0; i < 60; i++) {
        double mid = 0.5 * (lo + hi);
        if (mc_log_delta_d(pb, exp(mid), pb->steps) > target)
            lo = mid;
        else
            hi = mid;
    }
    double s = exp(hi);
    for (double w = 1e-9; w < 1e-5; w *= 1e3) {
        char t_lo[40], t_hi[40];
        snprintf(t_lo, sizeof t_lo, "%.12e", s * (1 - w));
        snprintf(t_hi, sizeof t_hi, "%.12e", s * (1 + w));
        /* a relative step w in σ moves log δ_T by about 2·w·|log δ| (θ depends
         * on r = D/σ): the digits that see it, and whether doubles do */
        double need = ceil(-log10(2 * w * fabs(target)));
        if (!isfinite(need) || need > 1e6)
            return false;
        int digits = 3 + (int)need;
        if (mc_log_delta_d(pb, strtod(t_hi, NULL), pb->steps) > target ||
            !(mc_log_delta_d(pb, strtod(t_lo, NULL), pb->steps) > target) || digits > 60)
            continue;
        digits = digits < 20 ? 20 : digits;
        if (mc_sigma_side(pb, t_hi, delta, digits, true) &&
            mc_sigma_side(pb, t_lo, delta, digits, false)) {
                mpfr_set_str(&out->left, t_lo, 10, MPFR_RNDD);
            mpfr_set_str(&out->right, t_hi, 10, MPFR_RNDU);
            return true;
        }
    }
    return false;
}

/* The smallest constant σ reaching the claim in T steps. */
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
        have = mc_sigma_needed_adaptive(pb, claim_delta, sg);
    }
    if (have) {
        kol_add_would_reach_mpfi(rep, "sigma_needed",
                             "smallest constant sigma reaching the claim in T steps (upper end "
                             "certified safe)",
                             sg, want->digits);
        mpfr_t h;
        mpfr_init2(h, mpfi_get_prec(sg));
        mpfi_get_right(h, sg);
        char *hi = ul_num_format(h, 6, MPFR_RNDU);
        ul_audit_explain(rep, "In T = %lu steps a constant sigma of %s reaches it.", pb->steps,
                         hi);
        free(hi);
        mpfr_clear(h);
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
        bool wrong = (s2 == UL_OK || s2 == UL_ECAP) && !kol_agrees_value(m->stated[i], &dt);
        if (!wrong) {
            ul_num_value_clear(&dt);
            continue;
        }
        char cert[160];
        kol_value_text(cert, sizeof cert, &dt, 8);
        mpfr_t sl, sh, vl, vh;
        mpfr_inits2(256, sl, sh, vl, vh, (mpfr_ptr)0);
        kol_text_interval(m->stated[i], 0, sl, sh);
        kol_value_bounds(&dt, vl, vh);
        bool under = mpfr_less_p(sh, vl);
        mpfr_clears(sl, sh, vl, vh, (mpfr_ptr)0);
        ul_num_value_clear(&dt);
        kol_setf(rep->first_wrong_stated, sizeof rep->first_wrong_stated,
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
            kol_setf(rep->forensics, sizeof rep->forensics,
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
 * decides; both are valid theorems, spec §2.3, §4.10). */
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
    kol_value_text(dtext, sizeof dtext, &e->delta, 8);
    ul_audit_explain(rep,
                     "Model clipping (%s, pre-noise diameter D = %s) with %s sigma for T = %lu "
                     "steps from delta_0 %s, %s accounting: delta_T %s %s at eps = %s%s%s%s.",
                     pb->variant == UL_KOL_CC2 ? "cc2" : "cc1", m->diameter_note,
                     pb->n_sigma > 1 ? "a per-step" : "constant", pb->steps,
                     initial_noise(pb) ? "from the initial noise" : "= 1", mode_name(pb->mode),
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
        kol_undecided_why(&e->end, why, sizeof why);
        ul_audit_explain(rep, "The enclosure straddles the claimed delta %s: inconclusive.", why);
    }
    const char *other_name = pb->mode == UL_CONTRACTION_ADAPTIVE ? "product" : "adaptive";
    if (have_other) {
        kol_value_text(dtext, sizeof dtext, other, 8);
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
    kol_add_would_reach_value(rep, "delta",
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
 * doubles), and a claimed δ the theorem does not give. */
static void mc_forensics(const mc_cert *m, const ul_num_value *other, bool have_other,
                         ul_audit_report *rep)
{
    const ul_kol_mc_problem *pb = &m->pb;
    size_t n_code = m->n_stated;
    if (pb->steps > n_code && pb->steps <= 1000000UL)
        n_code = pb->steps;
    double *code64 = calloc(n_code + 1, sizeof *code64);
    double *code32 = calloc(n_code + 1, sizeof *code32);
    if (code64 == NULL || code32 == NULL)
        abort();
    mc_code_deltas(pb, false, code64, n_code);
    mc_code_deltas(pb, true, code32, n_code);
    const mc_recipe recipes[] = {
        {"the other accounting (product versus adaptive confusion)", NULL, 0},
        {"the public code's accountant on its float32 path (r = 2*C2/sigma, the erf arguments "
         "and Q = (1 - erf)/2 in float32; spec/koloskova.md 3, 4.2)",
         code32, EMULATION_SLACK},
        {"the public code's accountant in double precision with Q = (1 - erf)/2 "
         "(spec/koloskova.md 3)",
         code64, EMULATION_SLACK},
    };
    const size_t n_recipes = sizeof recipes / sizeof recipes[0];
    const char *stated_who = mc_check_stated(m, recipes, n_recipes, rep), *claim_who = NULL;
    if (rep->verdict == UL_VERDICT_UNSUPPORTED && pb->steps >= 1) {
        const char *who =
            mc_reproduce(m->claim_delta, pb->steps, recipes, n_code >= pb->steps ? n_recipes : 1,
                         have_other ? other : NULL);
        if (who != NULL && rep->forensics[0] == '\0')
            kol_setf(rep->forensics, sizeof rep->forensics, "the claimed delta %s is delta_T of %s",
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
 * adaptive: both valid, spec §2.3, §4.10), cc1/cc2 and the initial clip as
 * stated, with the box's true diameter 2·C0·√d (spec §4.6); the code's
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
    kol_setf(rep->claim, sizeof rep->claim, "(eps, delta) = (%s, %s) after T = %lu steps", pb->eps,
         m.claim_delta, pb->steps);
    kol_setf(rep->theorem, sizeof rep->theorem, "%s",
         pb->mode == UL_CONTRACTION_PRODUCT
             ? "model clipping, non-adaptive contraction delta_T = delta_0 * prod_t "
               "theta_{e^eps}(D/sigma_t) (Asoodeh et al. 2020 Thm 2; Koloskova et al. 2025 as "
               "stated; spec/koloskova.md 2.3)"
             : "model clipping, adaptive contraction delta_{t+1} = delta_t * "
               "theta_{e^{eps~_t}}(D/sigma_{t+1}), eps~_t = log(1 + (e^eps - 1)/delta_t) "
               "(Asoodeh et al. 2020; the public code's accountant; spec/koloskova.md 2.3)");

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
    st = kol_decide_raising(mc_eval_once, &e, want, mc_max_digits(pb), &v, &e.end, err, errlen);
    st = kol_triage(st, rep, &done, "parameters", err, errlen);
    if (st != UL_OK || done) {
        ul_num_value_clear(&e.delta);
        return st;
    }
    rep->verdict = v;
    char *diam = NULL, e2[256];
    ul_preconditions scratch;
    if (ul_kol_mc_diameter(pb, &scratch, &diam, e2, sizeof e2) == UL_OK) {
        snprintf(m.diameter_note, sizeof m.diameter_note, "%.10g", strtod(diam, NULL));
        free(diam);
    }
    ul_num_value other;
    ul_num_value_init(&other, 64);
    bool have_other = mc_other(pb, want->digits, &other, rep);
    mc_explain(&m, &e, &other, have_other, want, rep);
    mc_forensics(&m, &other, have_other, rep);
    ul_num_value_clear(&other);
    ul_num_value_clear(&e.delta);
    return UL_OK;
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
    if (pb->n_sigma == 1 && mc_least_steps_lower_bound(pb, m.claim_delta, &lb) &&
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
        return kol_with_path(st, "parameters", err, errlen);
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
    if (s2 != UL_OK || rep.verdict != UL_VERDICT_SUPPORTED) {
        free(text);
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: the calibrated T = %s did not audit as supported (%s)", path, value,
                       s2 != UL_OK ? e2 : ul_verdict_name(rep.verdict));
    }
    *completed = text;
    return UL_OK;
}

const ul_audit_method ul_audit_model_clipping = {"model-clipping", mc_audit, mc_calibrate};
