/* src/stats/scores_report.c — the statistics of `ulaudit attack --scores`
 * and of ulaudit_attack_stats, written once (scores_report.h): the flags'
 * rules, the ROC, the certified ε lower bound (stats/eps_lb.h), the GDP
 * estimate (stats/gdp.h, labelled as an estimate) and the verdict on a
 * claimed (ε, δ), as one JSON object. */
#include "stats/scores_report.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/gdp.h"

const ul_scores_flag ul_scores_flags[UL_SCORES_NF] = {
    {"scores", "IN,OUT", "score files", NULL},
    {"claim-eps", "E", "claimed eps", ""},
    {"delta", "D", "claimed delta", "0"},
    {"alpha", "A", "significance", "0.05"},
    {"method", "M", "bound", "joint"},
    {"threshold", "T", "fixed threshold", ""},
    {"levels", "L", "declared values", ""},
    {"split-frac", "F", "split fraction", "0.25"},
    {"sides", "S", "1 or 2", "2"},
    {"ratio", "R", "grid ratio", ""},
    {"weights", "W", "equal or geometric", "equal"},
    {"tie-break", "SEED", "random, or a reported seed", ""},
};

/* The methods by name, in the order of ul_emp_lb_method; then the f-DP
 * one-run test, which is not one of them (scores_report.h, fdp). */
static const char *const METHODS[] = {"family", "fixed", "split", "onerun",
                                      "all",    "joint", "sum",   "levels"};
#define N_METHODS (sizeof METHODS / sizeof METHODS[0])
#define FDP_NAME "onerun-fdp"

void ul_scores_spec_init(ul_scores_spec *s)
{
    memset(s, 0, sizeof *s);
    mpfi_init2(s->alpha, 128);
    mpfi_init2(s->delta, 128);
    mpfi_init2(s->claim, 128);
}

void ul_scores_spec_clear(ul_scores_spec *s)
{
    mpfi_clear(s->alpha);
    mpfi_clear(s->delta);
    mpfi_clear(s->claim);
}

/* A finite double from the whole text. */
static bool read_double(const char *t, double *x)
{
    char *end;
    *x = strtod(t, &end);
    return *t && *end == '\0' && isfinite(*x);
}

static ul_status bad(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a, b);
    return ul_fail(err, errlen, UL_EINPUT, "%s", msg);
}

/* --method's name into s->o.method (and s->fdp). */
static ul_status read_method_name(ul_scores_spec *s, char *err, size_t errlen)
{
    const char *name = s->v[UL_SCORES_F_METHOD];
    s->fdp = strcmp(name, FDP_NAME) == 0;
    int k = s->fdp ? UL_EMP_LB_ONERUN : -1; /* f-DP: ONERUN's candidates */
    for (size_t i = 0; i < N_METHODS; i++)
        if (strcmp(name, METHODS[i]) == 0)
            k = (int)i;
    if (k < 0)
        return bad(err, errlen,
                   "--method: one of joint, sum, family, all, fixed, split, onerun, onerun-fdp, "
                   "levels (got '%s')%s",
                   name, "");
    s->o.method = (ul_emp_lb_method)k;
    return UL_OK;
}

/* A positive decimal integer from the whole text (no sign, no spaces). */
static bool read_positive(const char *t, unsigned long long *x)
{
    char *end;
    errno = 0;
    *x = isdigit((unsigned char)t[0]) ? strtoull(t, &end, 10) : 0;
    return *x > 0 && errno == 0 && *end == '\0';
}

/* --threshold (FIXED) and --levels (LEVELS): each given exactly with its
 * method.  L is declared before the data (stats/eps_lb.h, LEVELS). */
static ul_status read_method_values(ul_scores_spec *s, char *err, size_t errlen)
{
    const char *const *v = s->v;
    ul_emp_lb_method m = s->o.method;
    if ((m == UL_EMP_LB_FIXED) != (v[UL_SCORES_F_THR][0] != '\0'))
        return bad(err, errlen, "--threshold: %s%s",
                   m == UL_EMP_LB_FIXED ? "needed by --method fixed" : "only with --method fixed",
                   "");
    if (m == UL_EMP_LB_FIXED && !read_double(v[UL_SCORES_F_THR], &s->o.threshold))
        return bad(err, errlen, "--threshold: a finite number (got '%s')%s", v[UL_SCORES_F_THR],
                   "");
    const char *l = v[UL_SCORES_F_LEVELS];
    if ((m == UL_EMP_LB_LEVELS) != (l[0] != '\0'))
        return bad(err, errlen, "--levels: %s%s",
                   m == UL_EMP_LB_LEVELS ? "needed by --method levels (the number of values the "
                                           "score can take, declared before the data)"
                                         : "only with --method levels",
                   "");
    if (m == UL_EMP_LB_LEVELS) {
        unsigned long long n;
        if (!read_positive(l, &n) || n < 2 || n > ULONG_MAX)
            return bad(err, errlen, "--levels: an integer >= 2 (got '%s')%s", l, "");
        s->o.levels = (unsigned long)n;
    }
    return UL_OK;
}

/* A fresh seed from the system's entropy (/dev/urandom), never 0 (0 means
 * "ties kept"); false when it cannot be read. */
static bool fresh_seed(uint64_t *seed)
{
    FILE *f = fopen("/dev/urandom", "rb");
    bool ok = f && fread(seed, sizeof *seed, 1, f) == 1;
    if (f)
        fclose(f);
    if (ok && *seed == 0)
        *seed = 1;
    return ok;
}

/* --tie-break (stats/eps_lb.h, "Ties"): "random" draws a fresh seed (the
 * bound is valid over the scores and the draws together only when the seed
 * is not chosen after seeing them), a number reproduces a reported run; only
 * for the methods that compare scores. */
static ul_status read_tie_break(ul_scores_spec *s, char *err, size_t errlen)
{
    const char *t = s->v[UL_SCORES_F_TIE];
    if (t[0] == '\0')
        return UL_OK;
    if (s->fdp || !ul_emp_lb_compares_only(s->o.method))
        return bad(err, errlen,
                   "--tie-break: only with the methods that compare scores (joint, sum, family, "
                   "all, onerun), not with --method %s%s",
                   ul_scores_spec_method(s), "");
    if (strcmp(t, "random") == 0) {
        if (!fresh_seed(&s->o.tie_seed))
            return bad(err, errlen, "--tie-break random: cannot read /dev/urandom%s%s", "", "");
        return UL_OK;
    }
    unsigned long long x;
    if (!read_positive(t, &x))
        return bad(err, errlen,
                   "--tie-break: random, or the seed a report gave (an integer in [1, "
                   "2^64 - 1]; got '%s')%s",
                   t, "");
    s->o.tie_seed = (uint64_t)x;
    return UL_OK;
}

/* --method and the flags that depend on it. */
static ul_status read_method(ul_scores_spec *s, char *err, size_t errlen)
{
    const char *const *v = s->v;
    s->o = ul_emp_lb_defaults();
    ul_status st = read_method_name(s, err, errlen);
    if (st == UL_OK)
        st = read_method_values(s, err, errlen);
    if (st != UL_OK)
        return st;
    ul_emp_lb_method m = s->o.method;
    if (!read_double(v[UL_SCORES_F_SPLIT], &s->o.split_frac) || !(s->o.split_frac > 0) ||
        !(s->o.split_frac < 1))
        return bad(err, errlen, "--split-frac: a number strictly between 0 and 1 (got '%s')%s",
                   v[UL_SCORES_F_SPLIT], "");
    if (v[UL_SCORES_F_RATIO][0] &&
        (!read_double(v[UL_SCORES_F_RATIO], &s->o.ratio) || !(s->o.ratio > 1) || s->o.ratio > 16))
        return bad(err, errlen, "--ratio: a number in (1, 16] (got '%s')%s", v[UL_SCORES_F_RATIO],
                   "");
    if (strcmp(v[UL_SCORES_F_SIDES], "1") != 0 && strcmp(v[UL_SCORES_F_SIDES], "2") != 0)
        return bad(err, errlen, "--sides: 1 or 2 (got '%s')%s", v[UL_SCORES_F_SIDES], "");
    s->o.one_sided = v[UL_SCORES_F_SIDES][0] == '1';
    s->o.geometric = strcmp(v[UL_SCORES_F_WEIGHTS], "geometric") == 0;
    if (!s->o.geometric && strcmp(v[UL_SCORES_F_WEIGHTS], "equal") != 0)
        return bad(err, errlen, "--weights: equal or geometric (got '%s')%s",
                   v[UL_SCORES_F_WEIGHTS], "");
    if (s->o.geometric && m != UL_EMP_LB_JOINT)
        return bad(err, errlen, "--weights geometric: only with --method joint%s%s", "", "");
    return read_tie_break(s, err, errlen);
}

/* An exact decimal in [0, 1) when unit_open, in (0, 1) for alpha (a
 * confidence level of 0 certifies nothing), else >= 0; the message states
 * the flag's own rule. */
static ul_status read_number(mpfi_ptr x, const char *name, const char *text, bool unit_open,
                             char *err, size_t errlen)
{
    if (ul_num_set_decimal(x, text) != UL_OK)
        return bad(err, errlen, "--%s: a decimal number (got '%s')", name, text);
    bool open_left = strcmp(name, "alpha") == 0;
    bool ok = (open_left ? mpfr_sgn(&x->left) > 0 : mpfr_sgn(&x->left) >= 0) &&
              (!unit_open || mpfr_cmp_ui(&x->right, 1) < 0);
    if (!ok)
        return ul_fail(err, errlen, UL_EINPUT, "--%s: must %s (got '%s')", name,
                       !unit_open  ? "be >= 0"
                       : open_left ? "lie in (0, 1)"
                                   : "lie in [0, 1)",
                       text);
    return UL_OK;
}

ul_status ul_scores_spec_read(ul_scores_spec *s, const char *const *v, char *err, size_t errlen)
{
    for (int i = 0; i < UL_SCORES_NF; i++)
        s->v[i] = v[i];
    ul_status st = read_method(s, err, errlen);
    if (st == UL_OK)
        st = read_number(s->alpha, "alpha", v[UL_SCORES_F_ALPHA], true, err, errlen);
    if (st == UL_OK)
        st = read_number(s->delta, "delta", v[UL_SCORES_F_DELTA], true, err, errlen);
    if (st == UL_OK && s->fdp && mpfr_sgn(&s->delta->left) <= 0) /* ε(0) of μ-GDP is ∞ */
        st = bad(err, errlen,
                 "--delta: > 0 needed by --method onerun-fdp (its eps_gdp is the eps "
                 "at delta of mu-GDP, infinite at delta 0; got '%s')%s",
                 v[UL_SCORES_F_DELTA], "");
    s->has_claim = v[UL_SCORES_F_CLAIM][0] != '\0';
    if (st == UL_OK && s->has_claim)
        st = read_number(s->claim, "claim-eps", v[UL_SCORES_F_CLAIM], false, err, errlen);
    return st;
}

void ul_scores_outcome_init(ul_scores_outcome *r)
{
    memset(r, 0, sizeof *r);
    ul_emp_lb_init(&r->lb);
    ul_emp_lb_init(&r->cap);
    ul_emp_onerun_fdp_init(&r->fdp);
}

void ul_scores_outcome_clear(ul_scores_outcome *r)
{
    if (r->computed)
        ul_emp_roc_clear(&r->roc);
    ul_emp_lb_clear(&r->lb);
    ul_emp_lb_clear(&r->cap);
    ul_emp_onerun_fdp_clear(&r->fdp);
    r->computed = false;
}

/* The capacity (scores_report.h): the method's bound on a perfect
 * separation of the same counts, every IN score above every OUT score, all
 * distinct (a tie at a boundary is not guessed by onerun; for --method
 * fixed, IN at the threshold and OUT just below it; for levels, IN 1 and
 * OUT 0, two values as any declared L ≥ 2 allows).  For onerun-fdp, the
 * eps_gdp of that separation.  The memory of 2 × the counts: when it is
 * not there, or the method refuses such scores, no capacity (cap_known
 * false): it only informs. */
static void capacity(const ul_scores_spec *s, size_t n_in, size_t n_out, ul_scores_outcome *r)
{
    double *v = malloc((n_in + n_out) * sizeof *v);
    char err[512];
    if (!v)
        return;
    bool fixed = s->o.method == UL_EMP_LB_FIXED, two = fixed || s->o.method == UL_EMP_LB_LEVELS;
    double hi = fixed ? s->o.threshold : 1, lo = fixed ? nextafter(hi, -INFINITY) : 0;
    for (size_t i = 0; i < n_in + n_out; i++)
        v[i] = two ? (i < n_in ? hi : lo) : i < n_in ? 1 + (double)i : -1 - (double)(i - n_in);
    ul_emp_lb_opts o = s->o;
    o.tie_seed = 0; /* distinct scores: a tie-break would change nothing */
    ul_status st;
    if (s->fdp) {
        ul_emp_onerun_fdp_result f;
        ul_emp_onerun_fdp_init(&f);
        st = ul_emp_onerun_fdp(&f, v, n_in, v + n_in, n_out, s->alpha, s->delta, &o, err,
                               sizeof err);
        mpfr_set_d(r->cap.eps_lb, f.eps_gdp, MPFR_RNDD);
        ul_emp_onerun_fdp_clear(&f);
    } else
        st = ul_emp_eps_lb(&r->cap, v, n_in, v + n_in, n_out, s->alpha, s->delta, &o, err,
                           sizeof err);
    free(v);
    r->cap_known = st == UL_OK || st == UL_ECAP; /* ECAP: sound, only looser */
}

/* The distinct values of in ∪ out, counted up to UL_SCORES_FEW_VALUES + 1
 * (the ties warning's hint: a lower bound of the L to declare). */
static size_t count_distinct(const double *in, size_t n_in, const double *out, size_t n_out)
{
    double seen[UL_SCORES_FEW_VALUES + 1];
    size_t d = 0;
    for (size_t i = 0; i < n_in + n_out && d <= UL_SCORES_FEW_VALUES; i++) {
        double x = i < n_in ? in[i] : out[i - n_in];
        size_t j = 0;
        while (j < d && seen[j] != x)
            j++;
        if (j == d)
            seen[d++] = x;
    }
    return d;
}

/* The library names the option "levels"; the command line's flag is
 * --levels (a false declaration: the data show more values than L). */
static void name_the_flag(ul_status st, char *err, size_t errlen)
{
    if (st == UL_EINPUT && errlen > 2 && strncmp(err, "levels: ", 8) == 0) {
        size_t n = strlen(err);
        if (n + 2 < errlen) {
            memmove(err + 2, err, n + 1);
            err[0] = err[1] = '-';
        }
    }
}

/* The verdict on a claim: the certified ε_lb above it refutes it; for
 * onerun-fdp, eps_gdp above it refutes it only for a Gaussian-shaped
 * trade-off curve (stats/eps_lb.h, one run f-DP), which is said, not
 * decided.  Both compared with the claim's upper end, so a claim is not
 * refuted by rounding. */
static const char *verdict(const ul_scores_spec *s, const ul_scores_outcome *r)
{
    if (!s->has_claim)
        return "no claim";
    if (s->fdp)
        return mpfr_cmp_d(&s->claim->right, r->fdp.eps_gdp) < 0 ? UL_SCORES_VERDICT_IF_GAUSSIAN
                                                                : "consistent";
    return mpfr_cmp(r->lb.eps_lb, &s->claim->right) > 0 ? "refuted" : "consistent";
}

ul_status ul_scores_compute(const ul_scores_spec *s, const double *in, size_t n_in,
                            const double *out, size_t n_out, ul_scores_outcome *r, char *err,
                            size_t errlen)
{
    r->n_in = n_in;
    r->n_out = n_out;
    r->computed = true;
    ul_status st = ul_emp_roc_curve(&r->roc, in, n_in, out, n_out, err, errlen);
    if (st == UL_OK && s->fdp) /* Mahloujifar, Melis, Chaudhuri 2024 (arXiv:2410.22235) */
        st = ul_emp_onerun_fdp(&r->fdp, in, n_in, out, n_out, s->alpha, s->delta, &s->o, err,
                               errlen);
    else if (st == UL_OK)
        st = ul_emp_eps_lb(&r->lb, in, n_in, out, n_out, s->alpha, s->delta, &s->o, err, errlen);
    name_the_flag(st, err, errlen);
    if (st != UL_OK && st != UL_ECAP)
        return st;
    capacity(s, n_in, n_out, r);
    r->distinct = count_distinct(in, n_in, out, n_out);
    double d = mpfr_get_d(&s->delta->right, MPFR_RNDU);
    r->mu = ul_emp_gdp_mu_from_auc(r->roc.auc);
    r->gdp_eps = d > 0 ? ul_emp_gdp_eps(r->mu, d) : INFINITY;
    r->verdict = verdict(s, r);
    return UL_OK;
}

const char *ul_scores_method_name(ul_emp_lb_method m)
{
    return METHODS[m];
}

const char *ul_scores_spec_method(const ul_scores_spec *s)
{
    return s->fdp ? FDP_NAME : METHODS[s->o.method];
}

/* A double as reported: 10 significant digits, rounded down. */
static void down10(double x, char *buf, size_t n)
{
    mpfr_t t;
    mpfr_init2(t, 53);
    mpfr_set_d(t, x, MPFR_RNDD);
    mpfr_snprintf(buf, n, "%.10R*g", MPFR_RNDD, t);
    mpfr_clear(t);
}

void ul_scores_fdp_text(const ul_scores_outcome *r, char *mu, char *eps, size_t n)
{
    mpfr_snprintf(mu, n, "%.10R*g", MPFR_RNDD, r->fdp.mu_lb);
    down10(r->fdp.eps_gdp, eps, n);
}

/* What the level is split by: --weights for the Bonferroni methods; for SUM
 * the statistic's own weights c_k = c_0/(k+1) as the library used them
 * (stats/eps_lb.h, SUM: K order statistics per direction, OUT forward, IN
 * reversed), which --weights does not touch. */
void ul_scores_weights_text(const ul_scores_spec *s, const ul_emp_lb_result *lb, char *buf,
                            size_t n)
{
    if (s->o.method != UL_EMP_LB_SUM) {
        snprintf(buf, n, "%s", s->v[UL_SCORES_F_WEIGHTS]);
        return;
    }
    size_t kf = lb->sum_K[0], kr = lb->sum_K[1];
    int w = snprintf(buf, n, "c_k = %lu/(k+1), k = 0..%zu", lb->sum_c[0][0], kf - 1);
    if (kr > 0 && kr != kf && w >= 0 && (size_t)w < n)
        snprintf(buf + w, n - (size_t)w, " forward, c_k = %lu/(k+1), k = 0..%zu reversed",
                 lb->sum_c[1][0], kr - 1);
}

void ul_scores_eps_text(const ul_scores_outcome *r, char *buf, size_t n)
{
    mpfr_snprintf(buf, n, "%.10R*g", MPFR_RNDD, r->lb.eps_lb);
}

bool ul_scores_capacity_text(const ul_scores_outcome *r, char *buf, size_t n)
{
    if (r->cap_known)
        mpfr_snprintf(buf, n, "%.10R*g", MPFR_RNDD, r->cap.eps_lb);
    return r->cap_known;
}

bool ul_scores_cannot_refute(const ul_scores_spec *s, const ul_scores_outcome *r)
{
    return s->has_claim && r->cap_known && mpfr_cmp(r->cap.eps_lb, &s->claim->right) <= 0;
}

/* The ROC part: sizes, AUC, TPR at the FPR levels (null below 1/#OUT). */
static void add_roc(json_object *o, const ul_scores_outcome *r)
{
    json_object *tp = json_object_new_object();
    json_object_object_add(o, "n_in", json_object_new_int64((int64_t)r->n_in));
    json_object_object_add(o, "n_out", json_object_new_int64((int64_t)r->n_out));
    json_object_object_add(o, "auc", json_object_new_double(r->roc.auc));
    const char *keys[] = {"0.001", "0.01", "0.1"};
    for (int l = 0; l < UL_EMP_N_FPR_LEVELS; l++)
        json_object_object_add(tp, keys[l],
                               r->roc.tpr_defined[l] ? json_object_new_double(r->roc.tpr_at_fpr[l])
                                                     : NULL);
    json_object_object_add(o, "tpr_at_fpr", tp);
}

/* The GDP estimate, labelled with its assumption (stats/gdp.h). */
static json_object *gdp_json(const ul_scores_outcome *r)
{
    json_object *g = json_object_new_object();
    json_object_object_add(g, "assumption",
                           json_object_new_string("Gaussian trade-off curve (GDP)"));
    json_object_object_add(g, "mu", json_object_new_double(r->mu));
    json_object_object_add(g, "eps",
                           isfinite(r->gdp_eps) ? json_object_new_double(r->gdp_eps)
                                                : json_object_new_string("inf"));
    return g;
}

/* The guesses behind a one-run bound (onerun, onerun-fdp): design counts
 * of each side, the guesses made (a tie at a boundary is not guessed), and
 * the correct ones. */
static json_object *guesses_json(const ul_emp_onerun_choice *c)
{
    json_object *g = json_object_new_object();
    json_object_object_add(g, "k_plus", json_object_new_int64((int64_t)c->k_plus));
    json_object_object_add(g, "k_minus", json_object_new_int64((int64_t)c->k_minus));
    json_object_object_add(g, "made_plus", json_object_new_int64((int64_t)c->g_plus));
    json_object_object_add(g, "made_minus", json_object_new_int64((int64_t)c->g_minus));
    json_object_object_add(g, "correct", json_object_new_int64((int64_t)c->v));
    return g;
}

/* The certified ε bound's part (every method but onerun-fdp); "levels"
 * only for --method levels, so the other reports keep their keys. */
static void add_lb(json_object *o, const ul_scores_spec *s, const ul_scores_outcome *r)
{
    char lb[64], w[128];
    ul_scores_eps_text(r, lb, sizeof lb);
    ul_scores_weights_text(s, &r->lb, w, sizeof w);
    json_object_object_add(o, "tests", json_object_new_int64((int64_t)r->lb.m));
    json_object_object_add(o, "weights", json_object_new_string(w));
    json_object_object_add(o, "level_divisor", json_object_new_int64((int64_t)r->lb.divisor));
    if (s->o.method == UL_EMP_LB_LEVELS)
        json_object_object_add(o, "levels", json_object_new_int64((int64_t)s->o.levels));
    json_object_object_add(o, "alpha", json_object_new_string(s->v[UL_SCORES_F_ALPHA]));
    json_object_object_add(o, "delta", json_object_new_string(s->v[UL_SCORES_F_DELTA]));
    json_object_object_add(o, "eps_lower_bound", json_object_new_string(lb));
    json_object_object_add(o, "threshold",
                           r->lb.direction ? json_object_new_double(r->lb.threshold) : NULL);
    json_object_object_add(o, "fp", json_object_new_int64((int64_t)r->lb.fp));
    json_object_object_add(o, "fn", json_object_new_int64((int64_t)r->lb.fn));
    json_object_object_add(o, "ties_fraction", json_object_new_double(r->lb.ties_fraction));
    if (s->o.method == UL_EMP_LB_ONERUN && r->lb.direction != 0)
        json_object_object_add(o, "guesses", guesses_json(&r->lb.onerun));
    if (s->o.tie_seed != 0) {
        char seed[32];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)s->o.tie_seed);
        json_object *t = json_object_new_object();
        json_object_object_add(t, "seed", json_object_new_string(seed));
        json_object_object_add(t, "draw_at_threshold", isfinite(r->lb.tie_u)
                                                            ? json_object_new_double(r->lb.tie_u)
                                                            : NULL);
        json_object_object_add(o, "tie_break", t);
    }
}

/* onerun-fdp's part (stats/eps_lb.h, one run f-DP; Mahloujifar, Melis,
 * Chaudhuri 2024, arXiv:2410.22235): no assumption-free ε bound
 * (eps_lower_bound null), the certified μ_lb, eps_gdp with its assumption,
 * and the guesses chosen. */
static void add_fdp(json_object *o, const ul_scores_spec *s, const ul_scores_outcome *r)
{
    char mu[64], eps[64];
    ul_scores_fdp_text(r, mu, eps, sizeof mu);
    const ul_emp_onerun_choice *c = &r->fdp.choice;
    json_object_object_add(o, "tests", json_object_new_int64((int64_t)c->tests));
    json_object_object_add(o, "level_divisor", json_object_new_int64((int64_t)c->tests));
    json_object_object_add(o, "alpha", json_object_new_string(s->v[UL_SCORES_F_ALPHA]));
    json_object_object_add(o, "delta", json_object_new_string(s->v[UL_SCORES_F_DELTA]));
    json_object_object_add(o, "eps_lower_bound", NULL);
    json_object_object_add(o, "mu_lb", json_object_new_string(mu));
    json_object_object_add(o, "mu_lb_meaning",
                           json_object_new_string("mu-GDP rejected for every mu <= mu_lb "
                                                  "(certified, confidence 1 - alpha)"));
    json_object_object_add(o, "eps_gdp", json_object_new_string(eps));
    json_object_object_add(
        o, "eps_gdp_assumption",
        json_object_new_string("a lower bound of eps(delta) only if the "
                               "mechanism's trade-off curve is Gaussian-shaped"));
    json_object_object_add(o, "guesses", guesses_json(c));
    json_object_object_add(o, "source",
                           json_object_new_string("Mahloujifar, Melis, Chaudhuri "
                                                  "2024, arXiv:2410.22235"));
}

char *ul_scores_json(const ul_scores_spec *s, const ul_scores_outcome *r)
{
    json_object *o = json_object_new_object();
    add_roc(o, r);
    json_object_object_add(o, "method", json_object_new_string(ul_scores_spec_method(s)));
    if (s->fdp)
        add_fdp(o, s, r);
    else
        add_lb(o, s, r);
    json_object_object_add(o, "gdp_estimate", gdp_json(r));
    char cap[64];
    json_object_object_add(o, "eps_max_certifiable",
                           ul_scores_capacity_text(r, cap, sizeof cap) ? json_object_new_string(cap)
                                                                       : NULL);
    json_object_object_add(o, "claim_eps",
                           s->has_claim ? json_object_new_string(s->v[UL_SCORES_F_CLAIM]) : NULL);
    json_object_object_add(o, "verdict", json_object_new_string(r->verdict));
    char *text = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
                                                              JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(o);
    if (text == NULL)
        abort(); /* a report of fixed shape: out of memory aborts (policy: num/status.h) */
    return text;
}
