/* src/emp/attack_config.c — reading an attack configuration
 * ("ulaudit-attack/1"): every field typed and range-checked by the
 * typed field reader (io/fields.h), every error naming its JSON path.
 */
#include "emp/attack.h"

#include <gmp.h>
#include <libgen.h>
#include <math.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/fields.h"
#include "io/file.h"
#include "io/json.h"
#include "io/escape.h"
#include "emp/mlp.h"
#include "emp/modelio.h"
#include "num/encl.h"

/* ---- field tables -------------------------------------------------------- */

static const char *const SOURCES[] = {"synthetic", "idx", "csv", "libsvm", NULL};
static const char *const HEADERS[] = {"auto", "yes", "no", NULL};
static const char *const MODELS[] = {"logreg", "mlp", NULL};
static const char *const ALGORITHMS[] = {"pngd", "noisy-gd", "model-clipping", NULL};
static const char *const EDITS[] = {"replace", "remove", NULL};
static const char *const REFERENCES[] = {"retrain", "certifying", NULL};

#define BIG "1e300"

static const ul_field_spec TOP[] = {
    {.name = "format", .type = UL_FIELD_STRING, .required = true, .doc = UL_ATTACK_FORMAT},
    {.name = "description", .type = UL_FIELD_STRING, .doc = "free text"},
    {.name = "data", .type = UL_FIELD_OBJECT, .required = true, .doc = "the data set"},
    {.name = "model", .type = UL_FIELD_OBJECT, .required = true, .doc = "the model"},
    {.name = "learner", .type = UL_FIELD_OBJECT, .required = true, .doc = "the learner"},
    {.name = "unlearning", .type = UL_FIELD_OBJECT, .doc = "the requests"},
    {.name = "target", .type = UL_FIELD_ANY, .doc = "\"adversarial\" or a row number"},
    {.name = "runs",
     .type = UL_FIELD_COUNT,
     .lo = "2",
     .hi = "1000000",
     .doc = "runs per world (default 256)"},
    {.name = "chunk",
     .type = UL_FIELD_COUNT,
     .lo = "1",
     .hi = "4096",
     .doc = "runs trained together (default 64)"},
    {.name = "seed", .type = UL_FIELD_COUNT, .hi = "4294967295", .doc = "seed (default 1)"},
    {.name = "attack", .type = UL_FIELD_OBJECT, .doc = "scores and alpha"},
    {.name = "claim", .type = UL_FIELD_OBJECT, .doc = "the claimed guarantee"},
    {.name = "certificate",
     .type = UL_FIELD_STRING,
     .doc = "\"auto\" or a certificate file to audit beside the attack"},
    {.name = "save_models", .type = UL_FIELD_BOOL, .doc = "write the trained models (.npy)"},
};

static const ul_field_spec DATA[] = {
    {.name = "source",
     .type = UL_FIELD_STRING,
     .required = true,
     .choices = SOURCES,
     .doc = "synthetic, idx, csv or libsvm"},
    {.name = "n", .type = UL_FIELD_COUNT, .lo = "2", .hi = "100000000", .doc = "synthetic rows"},
    {.name = "d",
     .type = UL_FIELD_COUNT,
     .lo = "1",
     .hi = "100000000",
     .doc = "synthetic features"},
    {.name = "separation",
     .type = UL_FIELD_DECIMAL,
     .lo = "0",
     .hi = "1e6",
     .doc = "synthetic class separation"},
    {.name = "seed", .type = UL_FIELD_COUNT, .hi = "4294967295", .doc = "synthetic data seed"},
    {.name = "images", .type = UL_FIELD_STRING, .doc = "IDX images file (.gz allowed)"},
    {.name = "labels", .type = UL_FIELD_STRING, .doc = "IDX labels file (.gz allowed)"},
    {.name = "path", .type = UL_FIELD_STRING, .doc = "CSV or LIBSVM file"},
    {.name = "label_column",
     .type = UL_FIELD_DECIMAL,
     .lo = "-100000",
     .hi = "100000",
     .doc = "CSV label column, 0-based, negative from the end (default -1)"},
    {.name = "header", .type = UL_FIELD_STRING, .choices = HEADERS, .doc = "CSV header"},
    {.name = "dim", .type = UL_FIELD_COUNT, .hi = "100000000", .doc = "LIBSVM dimension"},
    {.name = "classes",
     .type = UL_FIELD_DECIMAL_LIST,
     .lo = "-1e9",
     .hi = "1e9",
     .doc = "[positive, negative] class labels"},
    {.name = "limit",
     .type = UL_FIELD_COUNT,
     .lo = "2",
     .hi = "100000000",
     .doc = "keep the first rows only"},
    {.name = "normalize", .type = UL_FIELD_BOOL, .doc = "scale rows to norm 1 (default true)"},
};

static const ul_field_spec MODEL[] = {
    {.name = "type",
     .type = UL_FIELD_STRING,
     .required = true,
     .choices = MODELS,
     .doc = "logreg or mlp"},
    {.name = "lambda",
     .type = UL_FIELD_DECIMAL,
     .lo = "0",
     .hi = BIG,
     .doc = "L2 regularisation (default 0)"},
    {.name = "clip",
     .type = UL_FIELD_DECIMAL,
     .lo = "0",
     .lo_strict = true,
     .hi = BIG,
     .doc = "per-sample gradient clip (default none)"},
    {.name = "hidden",
     .type = UL_FIELD_COUNT,
     .lo = "1",
     .hi = "100000",
     .doc = "hidden units (mlp)"},
};

static const ul_field_spec LEARNER[] = {
    {.name = "algorithm",
     .type = UL_FIELD_STRING,
     .choices = ALGORITHMS,
     .doc = "pngd, noisy-gd or model-clipping (default pngd)"},
    {.name = "eta",
     .type = UL_FIELD_DECIMAL,
     .lo = "0",
     .lo_strict = true,
     .hi = BIG,
     .doc = "step size (default 1/(1/4 + lambda) for logreg on unit rows)"},
    {.name = "sigma",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .lo = "0",
     .hi = BIG,
     .doc = "noise: Langevin sigma (pngd, noisy-gd) or per-step std (model-clipping)"},
    {.name = "radius",
     .type = UL_FIELD_DECIMAL,
     .lo = "0",
     .lo_strict = true,
     .hi = BIG,
     .doc = "projection radius R (pngd) or C2 (model-clipping)"},
    {.name = "train_sigma",
     .type = UL_FIELD_DECIMAL,
     .lo = "0",
     .hi = BIG,
     .doc = "model-clipping: Langevin sigma of training (default 0)"},
    {.name = "c0",
     .type = UL_FIELD_DECIMAL,
     .lo = "0",
     .lo_strict = true,
     .hi = BIG,
     .doc = "model-clipping: initial clip C0"},
    {.name = "init_mean",
     .type = UL_FIELD_DECIMAL,
     .lo = "-1e6",
     .hi = "1e6",
     .doc = "initial mean per coordinate (default 0)"},
    {.name = "init_std",
     .type = UL_FIELD_DECIMAL,
     .lo = "0",
     .hi = "1e6",
     .doc = "initial std per coordinate"},
    {.name = "train_steps",
     .type = UL_FIELD_COUNT,
     .required = true,
     .hi = "100000000",
     .doc = "learning steps T"},
    {.name = "unlearn_steps",
     .type = UL_FIELD_COUNT,
     .required = true,
     .hi = "100000000",
     .doc = "unlearning steps K per request"},
};

static const ul_field_spec UNLEARNING[] = {
    {.name = "edit",
     .type = UL_FIELD_STRING,
     .choices = EDITS,
     .doc = "replace or remove (default replace)"},
    {.name = "requests",
     .type = UL_FIELD_COUNT,
     .lo = "1",
     .hi = "16",
     .doc = "sequential requests (default 1)"},
    {.name = "batch",
     .type = UL_FIELD_COUNT,
     .lo = "1",
     .hi = "100000000",
     .doc = "rows per request (default 1)"},
    {.name = "reference",
     .type = UL_FIELD_STRING,
     .choices = REFERENCES,
     .doc = "retrain or certifying"},
};

static const ul_field_spec ATTACK[] = {
    {.name = "scores",
     .type = UL_FIELD_ANY,
     .doc = "list of \"loss\", \"gaussian-lr\", \"lira-online\", \"lira-offline\", \"rmia\""},
    {.name = "alpha",
     .type = UL_FIELD_DECIMAL,
     .lo = "0",
     .lo_strict = true,
     .hi = "0.5",
     .doc = "significance level (default 0.05)"},
    {.name = "primary",
     .type = UL_FIELD_STRING,
     .doc = "the pre-registered primary score (one of scores): all of alpha, alone decides"},
    {.name = "population",
     .type = UL_FIELD_STRING,
     .doc = "rmia: CSV of records no model trained on, label +1/-1 last"},
    {.name = "reference_models",
     .type = UL_FIELD_ANY,
     .doc = "rmia: list of model files (default: the first half of the OUT runs)"},
    /* RMIA's constants (emp/attack.h, UL_SCORE_RMIA; Zarifzadeh et al. 2024, §3) */
    {.name = "rmia_a",
     .type = UL_FIELD_DECIMAL,
     .lo = "0",
     .lo_strict = true,
     .hi = "1",
     .doc = "rmia: a in (0, 1] of the offline Pr(x) = (1 + a)/2 mean_r Pr(x|ref_r) + (1 - a)/2 "
            "(default 0.3)"},
    {.name = "rmia_gamma",
     .type = UL_FIELD_DECIMAL,
     .lo = "0",
     .lo_strict = true,
     .hi = BIG,
     .doc = "rmia: gamma > 0, the threshold of the pairwise likelihood ratio LR(x, z) >= gamma "
            "(default 1)"},
};

static const ul_field_spec CLAIM[] = {
    {.name = "eps", .type = UL_FIELD_DECIMAL, .lo = "0", .hi = "1e6", .doc = "claimed epsilon"},
    {.name = "delta",
     .type = UL_FIELD_DECIMAL,
     .lo = "0",
     .hi = "1",
     .hi_strict = true,
     .doc = "claimed delta"},
    {.name = "renyi_order",
     .type = UL_FIELD_DECIMAL,
     .lo = "1",
     .lo_strict = true,
     .hi = "1e12",
     .doc = "Renyi order q"},
    {.name = "renyi_value",
     .type = UL_FIELD_DECIMAL,
     .lo = "0",
     .hi = "1e12",
     .doc = "Renyi divergence bound"},
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- small readers --------------------------------------------------------- */

static const ul_cert_value *get(const ul_cert_values *v, const char *name)
{
    const ul_cert_value *x = ul_cert_values_get(v, name);
    return x && x->present ? x : NULL;
}

static double dbl(const ul_cert_values *v, const char *name, double dflt)
{
    const ul_cert_value *x = get(v, name);
    return x ? strtod(x->text, NULL) : dflt;
}

static unsigned long long cnt(const ul_cert_values *v, const char *name, unsigned long long dflt)
{
    const ul_cert_value *x = get(v, name);
    return x ? x->count : dflt;
}

static const char *str(const ul_cert_values *v, const char *name, const char *dflt)
{
    const ul_cert_value *x = get(v, name);
    return x ? x->text : dflt;
}

static void copy_text(char *dst, const char *src)
{
    snprintf(dst, UL_ATTACK_TEXT, "%s", src ? src : "");
}

/* A path in the configuration, relative to its directory. */
static char *resolve(const char *dir, const char *file)
{
    size_t n = strlen(dir) + strlen(file) + 2;
    char *out = malloc(n);
    if (out == NULL)
        return NULL;
    if (file[0] == '/' || strcmp(dir, ".") == 0)
        snprintf(out, n, "%s", file);
    else
        snprintf(out, n, "%s/%s", dir, file);
    return out;
}

/* a + b for two decimal texts, exactly, as decimal text (both have finite
 * decimal expansions, so the sum has one).  NULL when out of memory. */
static char *decimal_sum(const char *a, const char *b)
{
    mpq_t x, y;
    mpq_init(x), mpq_init(y);
    char *out = NULL;
    if (ul_num_decimal_to_mpq(x, a) && ul_num_decimal_to_mpq(y, b)) {
        mpq_add(x, x, y);
        /* smallest k with x·10^k whole (the denominator divides 10^k) */
        mpz_t num, den;
        mpz_init_set(num, mpq_numref(x)), mpz_init_set(den, mpq_denref(x));
        unsigned long k = 0;
        while (!mpz_divisible_p(num, den) && k < 4000) {
            mpz_mul_ui(num, num, 10);
            k++;
        }
        mpz_divexact(num, num, den);
        char *digits = mpz_get_str(NULL, 10, num);
        size_t len = strlen(digits) + 32;
        out = malloc(len);
        if (out && digits)
            snprintf(out, len, "%se-%lu", digits, k);
        free(digits);
        mpz_clear(num), mpz_clear(den);
    }
    mpq_clear(x), mpq_clear(y);
    return out;
}

/* ---- data ------------------------------------------------------------------ */

static ul_status load_data(const ul_json_value *obj, const char *dir, ul_field_arena *ar,
                           ul_attack_config *cfg, char *err, size_t errlen)
{
    ul_cert_values v;
    ul_status st = ul_io_read_fields(ar, obj, "$.data", DATA, N_OF(DATA), &v, err, errlen);
    if (st != UL_OK)
        return st;
    const char *src = str(&v, "source", "");
    ul_dataset raw = {0};
    char *f1 = NULL, *f2 = NULL;
    double cls[2] = {1, 0};
    const ul_cert_value *classes = get(&v, "classes");
    if (classes) {
        if (classes->n_items != 2)
            return ul_fail(err, errlen, UL_EINPUT,
                           "$.data.classes: must list exactly two labels [positive, negative]");
        cls[0] = strtod(classes->items[0], NULL), cls[1] = strtod(classes->items[1], NULL);
    } else if (strcmp(src, "synthetic") != 0) {
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.data.classes: missing required field: the two labels [positive, "
                       "negative] of the binary task");
    }
    if (strcmp(src, "synthetic") == 0) {
        if (!get(&v, "n") || !get(&v, "d"))
            return ul_fail(err, errlen, UL_EINPUT,
                           "$.data: a synthetic source needs n and d (and optionally "
                           "separation, seed)");
        st = ul_data_synthetic(cnt(&v, "n", 0), cnt(&v, "d", 0), dbl(&v, "separation", 2.0),
                               (uint32_t)cnt(&v, "seed", 1), &raw, err, errlen);
        snprintf(cfg->data_desc, sizeof cfg->data_desc,
                 "synthetic: n = %llu, d = %llu, separation %g", cnt(&v, "n", 0), cnt(&v, "d", 0),
                 dbl(&v, "separation", 2.0));
    } else if (strcmp(src, "idx") == 0) {
        if (!get(&v, "images") || !get(&v, "labels"))
            return ul_fail(err, errlen, UL_EINPUT, "$.data: an idx source needs images and labels");
        f1 = resolve(dir, str(&v, "images", "")), f2 = resolve(dir, str(&v, "labels", ""));
        /* the paths are within UL_JSON_MAX_BYTES: out of memory has no
         * size of the input's to name (policy: num/status.h) */
        /* the binary task and the limit while reading: only the kept rows
         * become doubles (issue 15: not 60,000 images for a limit of 1000) */
        st = f1 && f2 ? ul_data_read_idx_binary(f1, f2, cls[0], cls[1], UL_LABELS_PM1,
                                                (size_t)cnt(&v, "limit", 0), &raw, err, errlen)
                      : ul_fail(err, errlen, UL_ENOMEM, "out of memory");
        snprintf(cfg->data_desc, sizeof cfg->data_desc, "IDX %s", str(&v, "images", ""));
    } else {
        if (!get(&v, "path"))
            return ul_fail(err, errlen, UL_EINPUT, "$.data.path: missing required field (%s file)",
                           src);
        f1 = resolve(dir, str(&v, "path", ""));
        if (!f1) /* a path within UL_JSON_MAX_BYTES (policy: num/status.h) */
            st = ul_fail(err, errlen, UL_ENOMEM, "out of memory");
        else if (strcmp(src, "csv") == 0) {
            const char *h = str(&v, "header", "auto");
            int header = strcmp(h, "yes") == 0 ? 1 : strcmp(h, "no") == 0 ? 0 : -1;
            double lc = dbl(&v, "label_column", -1);
            if (lc != floor(lc))
                st = ul_fail(err, errlen, UL_EINPUT, "$.data.label_column: must be a whole number");
            else
                st = ul_data_read_csv(f1, (int)lc, header, &raw, err, errlen);
        } else {
            st = ul_data_read_libsvm(f1, cnt(&v, "dim", 0), &raw, err, errlen);
        }
        snprintf(cfg->data_desc, sizeof cfg->data_desc, "%s %s", src, str(&v, "path", ""));
    }
    free(f1), free(f2);
    if (st != UL_OK)
        return st;
    if (strcmp(src, "idx") == 0) {
        cfg->data = raw; /* already the binary task (and limited) */
        memset(&raw, 0, sizeof raw);
    } else {
        st = ul_data_select_binary(&raw, cls[0], cls[1], UL_LABELS_PM1, &cfg->data, err, errlen);
    }
    ul_dataset_free(&raw);
    if (st != UL_OK)
        return st;
    unsigned long long limit = cnt(&v, "limit", 0);
    if (limit && limit < cfg->data.n)
        cfg->data.n = limit; /* the first rows; the buffers stay larger */
    const ul_cert_value *norm = get(&v, "normalize");
    cfg->design.normalized = norm ? norm->boolean : true;
    if (cfg->design.normalized)
        ul_data_normalize_rows(&cfg->data);
    size_t len = strlen(cfg->data_desc);
    snprintf(cfg->data_desc + len, sizeof cfg->data_desc - len,
             "; classes %g (+1) vs %g (-1): n = %zu, d = %zu%s", cls[0], cls[1], cfg->data.n,
             cfg->data.d, cfg->design.normalized ? ", rows scaled to norm 1" : "");
    return UL_OK;
}

/* ---- the learner and the requests ------------------------------------------- */

static ul_status read_learning(const ul_json_value *model_obj, const ul_json_value *learner_obj,
                               const ul_json_value *unl_obj, ul_field_arena *ar,
                               ul_attack_config *cfg, ul_cert_values *mv, ul_cert_values *lv,
                               char *err, size_t errlen)
{
    ul_exp_design *de = &cfg->design;
    ul_status st =
        ul_io_read_fields(ar, model_obj, "$.model", MODEL, N_OF(MODEL), mv, err, errlen);
    if (st == UL_OK)
        st = ul_io_read_fields(ar, learner_obj, "$.learner", LEARNER, N_OF(LEARNER), lv, err,
                                 errlen);
    ul_cert_values uv;
    if (st == UL_OK)
        st = ul_io_read_fields(ar, unl_obj, "$.unlearning", UNLEARNING, N_OF(UNLEARNING), &uv,
                                 err, errlen);
    if (st != UL_OK)
        return st;
    double lambda = dbl(mv, "lambda", 0), clip = dbl(mv, "clip", INFINITY);
    bool mlp = strcmp(str(mv, "type", ""), "mlp") == 0;
    if (mlp && !get(mv, "hidden"))
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.model.hidden: missing required field (the "
                       "number of hidden units of an mlp)");
    if (!mlp && get(mv, "hidden"))
        return ul_fail(err, errlen, UL_EINPUT, "$.model.hidden: only an mlp has hidden units");
    de->model =
        mlp ? ul_mlp_model(cnt(mv, "hidden", 1), lambda, clip) : ul_logreg_model(lambda, clip);

    const char *alg = str(lv, "algorithm", "pngd");
    de->algorithm = strcmp(alg, "noisy-gd") == 0         ? UL_EXP_NOISY_GD
                    : strcmp(alg, "model-clipping") == 0 ? UL_EXP_MODEL_CLIP
                                                         : UL_EXP_PNGD;
    de->sigma = dbl(lv, "sigma", 0);
    if (get(lv, "eta"))
        de->eta = dbl(lv, "eta", 0);
    else if (!mlp && de->normalized)
        /* η = 1/L, L = 1/4 + λ (docs/langevin.md, "Experimental setting") */
        de->eta = 1.0 / (0.25 + lambda);
    else
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.learner.eta: missing required field (there is a default, 1/(1/4 + "
                       "lambda), only for logreg on rows scaled to norm 1)");
    de->radius = dbl(lv, "radius", INFINITY);
    if (de->algorithm == UL_EXP_NOISY_GD && get(lv, "radius"))
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.learner.radius: noisy-gd has no projection (use pngd)");
    if (de->algorithm == UL_EXP_MODEL_CLIP && !get(lv, "radius"))
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.learner.radius: missing required field (the model clip C2 of "
                       "model-clipping)");
    if (de->algorithm != UL_EXP_MODEL_CLIP && (get(lv, "c0") || get(lv, "train_sigma")))
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.learner: c0 and train_sigma belong to model-clipping only");
    de->train_sigma = dbl(lv, "train_sigma", 0);
    de->unlearn_clip = dbl(lv, "c0", INFINITY);
    de->init_mean = dbl(lv, "init_mean", 0);
    /* Default initial law: the papers' (N(μ0, 2σ²/m), docs/langevin.md, "Experimental setting",
     * for PNGD; N(0, σ²/(λ(1 − ηλ/2))), Chourasia & Shah 2023, Thm 5.1, for
     * Noisy-GD); a point when λ = 0 or for model clipping. */
    double s2 = de->sigma * de->sigma, init_std = 0;
    if (lambda > 0 && de->algorithm == UL_EXP_PNGD)
        init_std = sqrt(2 * s2 / lambda);
    if (lambda > 0 && de->algorithm == UL_EXP_NOISY_GD && de->eta * lambda < 2)
        init_std = sqrt(s2 / (lambda * (1 - de->eta * lambda / 2)));
    de->init_std = dbl(lv, "init_std", init_std);
    de->train_steps = cnt(lv, "train_steps", 0);
    de->unlearn_steps = cnt(lv, "unlearn_steps", 0);

    de->edit = strcmp(str(&uv, "edit", "replace"), "remove") == 0 ? UL_EXP_REMOVE : UL_EXP_REPLACE;
    de->requests = cnt(&uv, "requests", 1);
    de->batch = cnt(&uv, "batch", 1);
    const char *ref =
        str(&uv, "reference", de->algorithm == UL_EXP_MODEL_CLIP ? "certifying" : "retrain");
    de->reference = strcmp(ref, "certifying") == 0 ? UL_EXP_REF_CERTIFYING : UL_EXP_REF_RETRAIN;
    return ul_exp_design_check(de, err, errlen);
}

/* Why "auto" cannot describe this experiment, or NULL.  Both theorems
 * need logistic regression on rows of norm ≤ 1 (smoothness 1/4 + λ, or
 * β = 1/4), λ > 0, a gradient clip (the Lipschitz constant), one request
 * replacing one row set (n fixed) and the theorem's own initial law. */
static const char *auto_refusal(const ul_attack_config *cfg, const ul_cert_values *mv,
                                const ul_cert_values *lv)
{
    const ul_exp_design *de = &cfg->design;
    bool ngd = de->algorithm == UL_EXP_NOISY_GD;
    if ((de->algorithm != UL_EXP_PNGD && !ngd) || de->model.ops != &ul_logreg_ops)
        return "it covers pngd (Langevin) and noisy-gd (Chourasia-Shah G.15) with a logreg model";
    if (!de->normalized)
        return "the smoothness constant needs rows of norm <= 1 (normalize)";
    if (!get(mv, "lambda") || !(dbl(mv, "lambda", 0) > 0) || !get(mv, "clip"))
        return "the strongly convex case needs lambda > 0 and a gradient clip";
    if (de->edit != UL_EXP_REPLACE || de->requests != 1 || (ngd && de->batch != 1))
        return "the theorems are for one request that replaces rows (n fixed; G.15: one row)";
    if (!ngd && de->reference != UL_EXP_REF_RETRAIN)
        return "the Langevin guarantee compares with retraining";
    if (ngd && de->reference != UL_EXP_REF_CERTIFYING)
        return "G.15 compares with the same Noisy-GD run on the edited data (reference: "
               "certifying)";
    if (get(lv, "init_std") || de->init_mean != 0)
        return "the theorem fixes the initial law (Langevin N(0, 2 sigma^2/m), G.15 "
               "N(0, sigma^2/(lambda(1 - eta lambda/2)))): leave init_std and init_mean out";
    if (!ngd && (!cfg->eps[0] || !cfg->delta[0]))
        return "the Langevin certificate needs a claim with eps and delta";
    if (ngd && !cfg->eps[0] && !cfg->renyi_order[0])
        return "it needs a claim";
    if (ngd && !get(lv, "eta"))
        return "give learner.eta: G.15 needs eta < 1/(lambda + 1/4), below the default 1/L";
    return NULL;
}

/* The certificate of the configured learner: Langevin Thm 3.2-3.3 (strongly
 * convex) for pngd, Chourasia-Shah Thm G.15 for noisy-gd (README, methods
 * "langevin" and "noisy-gd"). */
static ul_status auto_certificate(ul_attack_config *cfg, const ul_cert_values *mv,
                                  const ul_cert_values *lv, char *err, size_t errlen)
{
    const ul_exp_design *de = &cfg->design;
    const char *why = auto_refusal(cfg, mv, lv);
    if (why)
        return ul_fail(err, errlen, UL_EINPUT, "$.certificate: \"auto\" does not apply: %s", why);
    const char *lambda = str(mv, "lambda", "0");
    /* L = 1/4 + λ, docs/langevin.md, "Experimental setting" */
    char *L = decimal_sum("0.25", lambda);
    /* λ > 0 as a double and within num/input.h's 1000 characters, so it is
     * read exactly: NULL only when out of memory for its few digits */
    if (!L)
        return ul_fail(err, errlen, UL_ENOMEM, "out of memory");
    char eta[96];
    if (get(lv, "eta"))
        snprintf(eta, sizeof eta, "\"eta\": \"%s\", ", str(lv, "eta", ""));
    else
        eta[0] = '\0'; /* pngd's default 1/L in both (noisy-gd: refused above) */
    char claim[256];
    if (cfg->eps[0])
        snprintf(claim, sizeof claim, "\"eps\": \"%s\", \"delta\": \"%s\"", cfg->eps, cfg->delta);
    else
        snprintf(claim, sizeof claim, "\"renyi_order\": \"%s\", \"renyi_value\": \"%s\"",
                 cfg->renyi_order, cfg->renyi_value);
    size_t len = 4096;
    cfg->certificate_text = malloc(len);
    if (!cfg->certificate_text) { /* fixed size (4096): nothing of the input's to name */
        free(L);
        return ul_fail(err, errlen, UL_ENOMEM, "out of memory");
    }
    if (de->algorithm == UL_EXP_PNGD)
        snprintf(cfg->certificate_text, len,
                 "{\"format\": \"ulaudit-certificate/1\", \"method\": \"langevin\", "
                 "\"source\": \"written by ulaudit attack for its own PNGD experiment\", "
                 "\"parameters\": {\"case\": \"strongly-convex\", \"n\": %zu, \"m\": \"%s\", "
                 "\"L\": \"%s\", \"M\": \"%s\", %s\"sigma\": \"%s\", \"K\": %zu, \"S\": %zu, "
                 "\"T\": %zu}, \"claim\": {%s}}",
                 cfg->data.n, lambda, L, str(mv, "clip", ""), eta, str(lv, "sigma", ""),
                 de->unlearn_steps, de->batch, de->train_steps ? de->train_steps : 1, claim);
    else /* β = 1/4: the logistic loss's smoothness on rows of norm ≤ 1 */
        snprintf(cfg->certificate_text, len,
                 "{\"format\": \"ulaudit-certificate/1\", \"method\": \"noisy-gd\", "
                 "\"source\": \"written by ulaudit attack for its own Noisy-GD experiment\", "
                 "\"parameters\": {\"theorem\": \"g15\", \"L\": \"%s\", \"lambda\": \"%s\", "
                 "\"beta\": \"0.25\", \"n\": %zu, %s\"sigma\": \"%s\", \"KAbar\": %zu, "
                 "\"initialisation\": \"theorem\"}, "
                 "\"claim\": {%s}}",
                 str(mv, "clip", ""), lambda, cfg->data.n, eta, str(lv, "sigma", ""),
                 de->unlearn_steps, claim);
    free(L);
    return UL_OK;
}

/* ---- RMIA's inputs (attack.h) ------------------------------------------------- */

/* attack.population: a CSV file (relative to the configuration), label ±1
 * last, the data's features, rows scaled as the data's. */
static ul_status read_population(ul_attack_config *cfg, const char *dir, const char *file,
                                 char *err, size_t errlen)
{
    char *path = resolve(dir, file), msg[512];
    if (!path) /* within the JSON's size */
        return ul_fail(err, errlen, UL_ENOMEM, "out of memory");
    ul_status st = ul_data_read_population(path, cfg->data.d, &cfg->population, msg, sizeof msg);
    free(path);
    if (st != UL_OK)
        return ul_fail(err, errlen, st, "$.attack.population: %s", msg);
    if (cfg->design.normalized)
        ul_data_normalize_rows(&cfg->population);
    return UL_OK;
}

/* attack.reference_models: a list of model files of the configured model's
 * p parameters (emp/modelio.h). */
static ul_status read_references(ul_attack_config *cfg, const char *dir, const ul_json_value *j,
                                 char *err, size_t errlen)
{
    if (j->type != UL_JSON_ARRAY || j->count == 0)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.attack.reference_models: must be a non-empty list of model files");
    char **paths = calloc(j->count, sizeof *paths), msg[768];
    ul_status st = paths ? UL_OK : ul_fail(err, errlen, UL_ENOMEM, "out of memory");
    for (size_t i = 0; st == UL_OK && i < j->count; i++) {
        if (j->items[i]->type != UL_JSON_STRING)
            st = ul_fail(err, errlen, UL_EINPUT, "$.attack.reference_models[%zu]: a file name", i);
        else if (!(paths[i] = resolve(dir, j->items[i]->text)))
            st = ul_fail(err, errlen, UL_ENOMEM, "out of memory");
    }
    size_t p = cfg->design.model.ops->nparams(&cfg->design.model, cfg->data.d);
    ul_model_set set = {0};
    if (st == UL_OK && (st = ul_modelio_read_list((const char *const *)paths, j->count,
                                                  UL_MODELIO_AUTO, p, &set, msg, sizeof msg)) !=
                           UL_OK)
        st = ul_fail(err, errlen, st, "$.attack.reference_models: %s", msg);
    cfg->ref_w = set.w, cfg->ref_k = set.k;
    for (size_t i = 0; paths && i < j->count; i++)
        free(paths[i]);
    free(paths);
    return st;
}

/* attack.rmia_a and attack.rmia_gamma, their ranges checked exactly by the
 * table (ATTACK); a decimal too small for a double (1e-400) would read as 0,
 * which the scoring takes for "the default" (attack.h): refused. */
static ul_status read_rmia_constants(ul_attack_config *cfg, const ul_cert_values *av, char *err,
                                     size_t errlen)
{
    static const char *const name[2] = {"rmia_a", "rmia_gamma"};
    double *value[2] = {&cfg->rmia_a, &cfg->rmia_gamma};
    const double dflt[2] = {UL_RMIA_A_DEFAULT, UL_RMIA_GAMMA_DEFAULT};
    for (int i = 0; i < 2; i++) {
        *value[i] = dbl(av, name[i], dflt[i]);
        if (!(*value[i] > 0))
            return ul_fail(err, errlen, UL_EINPUT,
                           "$.attack.%s: must be > 0 as a double (got '%.40s', which rounds to 0)",
                           name[i], str(av, name[i], ""));
    }
    return UL_OK;
}

/* RMIA's fields: only with the rmia score, which needs the runs' models
 * (save_models) and a population. */
static ul_status read_rmia(ul_attack_config *cfg, const ul_cert_values *av, const char *dir,
                           char *err, size_t errlen)
{
    static const char *const fields[] = {"population", "reference_models", "rmia_a",
                                         "rmia_gamma"};
    const char *pop = str(av, "population", NULL);
    const ul_cert_value *refs = get(av, "reference_models");
    if (!(cfg->scores & UL_SCORE_RMIA)) {
        for (size_t i = 0; i < N_OF(fields); i++)
            if (get(av, fields[i]))
                return ul_fail(err, errlen, UL_EINPUT, "$.attack.%s: only with the rmia score",
                               fields[i]);
        return UL_OK;
    }
    ul_status st = read_rmia_constants(cfg, av, err, errlen);
    if (st != UL_OK)
        return st;
    if (!cfg->save_models || !pop)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.attack.scores: rmia needs %s (a run's record holds scores, not the "
                       "models' probabilities on a population)",
                       !pop ? "$.attack.population" : "\"save_models\": true");
    st = read_population(cfg, dir, pop, err, errlen);
    return st == UL_OK && refs ? read_references(cfg, dir, refs->json, err, errlen) : st;
}

/* ---- the whole file ---------------------------------------------------------- */

static ul_status read_config(const ul_json_value *root, const char *dir, ul_field_arena *ar,
                             ul_attack_config *cfg, char *err, size_t errlen)
{
    ul_cert_values top, av, cv, mv, lv;
    ul_status st = ul_io_read_fields(ar, root, "$", TOP, N_OF(TOP), &top, err, errlen);
    if (st != UL_OK)
        return st;
    if (strcmp(str(&top, "format", ""), UL_ATTACK_FORMAT) != 0)
        return ul_fail(err, errlen, UL_EINPUT, "$.format: must be \"%s\"", UL_ATTACK_FORMAT);
    st = load_data(get(&top, "data")->json, dir, ar, cfg, err, errlen);
    if (st != UL_OK)
        return st;
    const ul_cert_value *u = get(&top, "unlearning");
    st = read_learning(get(&top, "model")->json, get(&top, "learner")->json, u ? u->json : NULL, ar,
                       cfg, &mv, &lv, err, errlen);
    if (st != UL_OK)
        return st;
    if (cfg->design.requests * cfg->design.batch >= cfg->data.n)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.unlearning: requests x batch = %zu rows must be fewer than n = %zu",
                       cfg->design.requests * cfg->design.batch, cfg->data.n);
    cfg->design.seed = (uint32_t)cnt(&top, "seed", 1);
    cfg->runs = cnt(&top, "runs", 256);
    cfg->chunk = cnt(&top, "chunk", 64);
    if (cfg->chunk > cfg->runs)
        cfg->chunk = cfg->runs;
    const ul_cert_value *save = get(&top, "save_models");
    cfg->save_models = save && save->boolean;

    cfg->target = -1;
    const ul_cert_value *t = get(&top, "target");
    if (t) {
        const ul_json_value *j = t->json;
        if (j->type == UL_JSON_STRING && strcmp(j->text, "adversarial") == 0) {
            cfg->target = -1;
        } else {
            char *end;
            unsigned long long row = j->type == UL_JSON_NUMBER ? strtoull(j->text, &end, 10) : 0;
            if (j->type != UL_JSON_NUMBER || *end != '\0' || j->text[0] == '-' ||
                row >= cfg->data.n)
                return ul_fail(err, errlen, UL_EINPUT,
                               "$.target: must be \"adversarial\" or a row number 0 .. %zu",
                               cfg->data.n - 1);
            cfg->target = (long)row;
        }
    }

    const ul_cert_value *a = get(&top, "attack");
    st = ul_io_read_fields(ar, a ? a->json : NULL, "$.attack", ATTACK, N_OF(ATTACK), &av, err,
                             errlen);
    if (st != UL_OK)
        return st;
    copy_text(cfg->alpha, str(&av, "alpha", "0.05"));
    cfg->scores = UL_SCORE_LOSS | UL_SCORE_LR;
    const ul_cert_value *sc = get(&av, "scores");
    if (sc) {
        const ul_json_value *j = sc->json;
        if (j->type != UL_JSON_ARRAY || j->count == 0)
            return ul_fail(
                err, errlen, UL_EINPUT,
                "$.attack.scores: must be a non-empty list of \"loss\", \"gaussian-lr\", "
                "\"lira-online\", \"lira-offline\", \"rmia\"");
        cfg->scores = 0;
        for (size_t i = 0; i < j->count; i++) {
            const ul_json_value *e = j->items[i];
            int bit = e->type != UL_JSON_STRING ? 0 : ul_attack_score_bit(e->text);
            if (!bit || (cfg->scores & bit))
                return ul_fail(err, errlen, UL_EINPUT,
                               "$.attack.scores[%zu]: must be \"loss\", \"gaussian-lr\", "
                               "\"lira-online\", \"lira-offline\" or \"rmia\", each at most once",
                               i);
            cfg->scores |= bit;
        }
    }
    const char *primary = str(&av, "primary", NULL);
    if (primary && !((cfg->primary = ul_attack_score_bit(primary)) & cfg->scores))
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.attack.primary: must be one of $.attack.scores (got \"%.64s\")",
                       primary);
    st = read_rmia(cfg, &av, dir, err, errlen);
    if (st != UL_OK)
        return st;
    if ((cfg->scores & (UL_SCORE_LR | UL_SCORE_LIRA)) && cfg->runs < 4)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.runs: the gaussian-lr and lira-* scores need >= 4 runs (half fit, half "
                       "test)");

    const ul_cert_value *c = get(&top, "claim");
    st = ul_io_read_fields(ar, c ? c->json : NULL, "$.claim", CLAIM, N_OF(CLAIM), &cv, err,
                             errlen);
    if (st != UL_OK)
        return st;
    copy_text(cfg->eps, str(&cv, "eps", ""));
    copy_text(cfg->delta, str(&cv, "delta", ""));
    copy_text(cfg->renyi_order, str(&cv, "renyi_order", ""));
    copy_text(cfg->renyi_value, str(&cv, "renyi_value", ""));
    if (!cfg->eps[0] != !cfg->delta[0] || !cfg->renyi_order[0] != !cfg->renyi_value[0])
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.claim: give eps with delta, and renyi_order with renyi_value");
    if (cfg->renyi_order[0] && !cfg->delta[0])
        copy_text(cfg->delta, "1e-5"); /* δ for the reported ε lower bound only */

    const char *cert = str(&top, "certificate", NULL);
    if (cert && strcmp(cert, "auto") == 0)
        return auto_certificate(cfg, &mv, &lv, err, errlen);
    if (cert && (cfg->certificate_path = resolve(dir, cert)) == NULL) /* within the JSON's size */
        return ul_fail(err, errlen, UL_ENOMEM, "out of memory");
    return UL_OK;
}

static void sha256_file_hex(const char *text, size_t len, char hex[65])
{
    struct sha256_ctx ctx;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, len, (const uint8_t *)text);
    sha256_digest(&ctx, sizeof digest, digest);
    for (size_t i = 0; i < sizeof digest; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

ul_status ul_attack_config_load(const char *path, ul_attack_config *cfg, char *err, size_t errlen)
{
    memset(cfg, 0, sizeof *cfg);
    FILE *f;
    long long size;
    ul_status opened = ul_io_fopen_regular(path, "configuration file", true, &f, &size, err, errlen);
    if (opened != UL_OK)
        return ul_io_escaped(opened, err, errlen);
    char *text = malloc(UL_JSON_MAX_BYTES + 1);
    size_t len = text ? fread(text, 1, UL_JSON_MAX_BYTES + 1, f) : 0;
    fclose(f);
    if (!text) /* fixed size (UL_JSON_MAX_BYTES + 1) */
        return ul_io_escaped(ul_fail(err, errlen, UL_ENOMEM,
                                     "%s: out of memory for a read buffer of %zu bytes", path,
                                     (size_t)UL_JSON_MAX_BYTES + 1),
                             err, errlen);
    ul_json_doc *doc = NULL;
    char msg[768];
    ul_status st = len > UL_JSON_MAX_BYTES
                       ? ul_fail(msg, sizeof msg, UL_EINPUT, "larger than %zu bytes",
                                 (size_t)UL_JSON_MAX_BYTES)
                       : ul_json_parse(text, len, &doc, msg, sizeof msg);
    if (st == UL_OK) {
        sha256_file_hex(text, len, cfg->sha256);
        char *copy = strdup(path);
        ul_field_arena *ar = ul_field_arena_new();
        if (!copy || !ar) /* fixed size (a path, an arena's head) */
            st = ul_fail(msg, sizeof msg, UL_ENOMEM, "out of memory");
        else if (ul_json_root(doc)->type != UL_JSON_OBJECT)
            st = ul_fail(msg, sizeof msg, UL_EINPUT, "$: must be an object");
        else
            st = read_config(ul_json_root(doc), dirname(copy), ar, cfg, msg, sizeof msg);
        free(copy);
        ul_field_arena_free(ar);
    }
    ul_json_free(doc);
    free(text);
    /* the file's name and values (and the data file names in data_desc) are
     * untrusted bytes: escaped for messages (io/escape.h) */
    if (st != UL_OK) {
        ul_attack_config_free(cfg);
        return ul_io_escaped(ul_fail(err, errlen, st, "%s: %s", path, msg), err, errlen);
    }
    ul_io_escape_message(cfg->data_desc, sizeof cfg->data_desc);
    return UL_OK;
}

void ul_attack_config_free(ul_attack_config *cfg)
{
    if (!cfg)
        return;
    ul_dataset_free(&cfg->data);
    ul_dataset_free(&cfg->population);
    free(cfg->ref_w);
    free(cfg->certificate_path);
    free(cfg->certificate_text);
    memset(cfg, 0, sizeof *cfg);
}
