/* src/cli/attack_scores.c — `ulaudit attack --scores IN,OUT`: per-run
 * scores from any membership-inference tool (LiRA, RMIA, …) get ulaudit's
 * certified ε lower bound (stats/eps_lb.h), the ROC, the GDP estimate
 * (stats/gdp.h, labelled as an estimate) and a verdict on a claimed (ε, δ).
 *
 *   ulaudit attack --scores IN.csv,OUT.csv [--claim-eps E] [--delta D]
 *                  [--alpha A] [--method joint|sum|family|all|fixed|split|onerun]
 *                  [--weights equal|geometric]
 *                  [--threshold T] [--split-frac F] [--sides 1|2]
 *                  [--ratio R] [--json]
 *
 * Exit codes: 0 consistent (or no claim), 1 refuted, 2 bad input.
 */
#include "cli/attack_scores.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/args.h"
#include "cli/exitcodes.h"
#include "stats/eps_lb.h"
#include "stats/gdp.h"
#include "stats/stats.h"
#include "io/file.h"
#include "num/encl.h"

void ul_cli_attack_scores_help(FILE *out)
{
    fprintf(out,
            "usage: ulaudit attack --scores IN,OUT [--claim-eps E] [--delta D] [--alpha A]\n"
            "                      [--method joint|sum|family|all|fixed|split|onerun]\n"
            "                      [--threshold T]\n"
            "                      [--split-frac F] [--sides 1|2] [--ratio R]\n"
            "                      [--weights equal|geometric] [--json]\n\n"
            "Certified statistics for membership-inference scores computed by any tool.\n"
            "IN and OUT are text files, one score per line (higher = more likely IN;\n"
            "'#' lines, blank lines and one header line are skipped).  Reported: ROC,\n"
            "AUC, TPR at FPR 1e-3/1e-2/1e-1 (n/a below 1/#OUT), a certified eps lower\n"
            "bound at delta D with confidence 1 - A (Clopper-Pearson tails in MPFR,\n"
            "valid without assumptions on the scores' laws), the GDP estimate of eps\n"
            "(assumes a Gaussian trade-off curve: an estimate, never a verdict), and the\n"
            "verdict on the claim (E, D): refuted when the bound exceeds E.\n\n"
            "  --method joint   thresholds at OUT/IN order statistics on a geometric grid\n"
            "                   fixed before the data, Bonferroni over them, each tested\n"
            "                   with one exact p-value (default; the most powerful here)\n"
            "           sum     ONE statistic over the 5 largest OUT scores (and, two-sided,\n"
            "                   the 5 smallest IN): sum_k 60/(k+1) * #{IN > t_(k)}, its\n"
            "                   exact law under the claim (Renyi's representation +\n"
            "                   Hoeffding); the most powerful here when eps is large\n"
            "           family  the same thresholds, two Clopper-Pearson bounds each\n"
            "           all     every distinct score a threshold (legacy)\n"
            "           fixed   one threshold --threshold T chosen BEFORE seeing the scores\n"
            "           split   the first --split-frac F of each file (default 0.25) picks\n"
            "                   the threshold, the rest certifies it (file order must not\n"
            "                   depend on the scores)\n"
            "           onerun  the scores are canaries of ONE training run, each included\n"
            "                   by an independent fair coin (Steinke-Nasr-Jagielski 2023)\n"
            "  --sides 1|2      forward tests only, or also the reversed rule (default 2)\n"
            "  --ratio R        the grid ratio (default 4 for joint, 1.25 otherwise)\n"
            "  --weights geometric  joint: test i of each direction's grid at level\n"
            "                   alpha 2^-(i+1) (the last 2^-(L-1); halved for 2 sides)\n"
            "                   instead of alpha/m: favours the extreme order statistics\n"
            "                   (what ulaudit attack CONFIG uses); at most 64 grid\n"
            "                   counts per direction one-sided, 63 two-sided\n"
            "  --delta D        default 0 (an omitted delta is read as the strictest claim)\n"
            "  --alpha A        default 0.05\n\n"
            "Exit codes: 0 consistent (or no claim), 1 refuted, 2 input error.\n");
}

enum {
    F_SCORES,
    F_CLAIM,
    F_DELTA,
    F_ALPHA,
    F_METHOD,
    F_THR,
    F_SPLIT,
    F_SIDES,
    F_RATIO,
    F_WEIGHTS,
    NF
};

static const ul_cli_flag flags[NF] = {
    {"scores", "IN,OUT", "score files", NULL},
    {"claim-eps", "E", "claimed eps", ""},
    {"delta", "D", "claimed delta", "0"},
    {"alpha", "A", "significance", "0.05"},
    {"method", "M", "bound", "joint"},
    {"threshold", "T", "fixed threshold", ""},
    {"split-frac", "F", "split fraction", "0.25"},
    {"sides", "S", "1 or 2", "2"},
    {"ratio", "R", "grid ratio", ""},
    {"weights", "W", "equal or geometric", "equal"},
};

typedef struct {
    const char *v[NF];
    bool json;
    ul_emp_lb_opts o;
    double *in, *out;
    size_t n_in, n_out;
    mpfi_t alpha, delta, claim;
    bool has_claim;
} job;

static int usage(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "ulaudit attack: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return UL_EXIT_USAGE;
}

/* A finite double from the whole text. */
static bool read_double(const char *t, double *x)
{
    char *end;
    *x = strtod(t, &end);
    return *t && *end == '\0' && isfinite(*x);
}

static int parse_method(job *j)
{
    static const char *names[] = {"family", "fixed", "split", "onerun", "all", "joint", "sum"};
    static const ul_emp_lb_method ms[] = {UL_EMP_LB_FAMILY, UL_EMP_LB_FIXED, UL_EMP_LB_SPLIT,
                                          UL_EMP_LB_ONERUN, UL_EMP_LB_ALL,   UL_EMP_LB_JOINT,
                                          UL_EMP_LB_SUM};
    j->o = ul_emp_lb_defaults();
    int k = -1;
    for (int i = 0; i < 7; i++)
        if (strcmp(j->v[F_METHOD], names[i]) == 0)
            k = i;
    if (k < 0)
        return usage("--method: one of joint, sum, family, all, fixed, split, onerun (got '%s')%s",
                     j->v[F_METHOD], "");
    j->o.method = ms[k];
    if ((ms[k] == UL_EMP_LB_FIXED) != (j->v[F_THR][0] != '\0'))
        return usage(
            "--threshold: %s%s",
            ms[k] == UL_EMP_LB_FIXED ? "needed by --method fixed" : "only with --method fixed", "");
    if (ms[k] == UL_EMP_LB_FIXED && !read_double(j->v[F_THR], &j->o.threshold))
        return usage("--threshold: a finite number (got '%s')%s", j->v[F_THR], "");
    if (!read_double(j->v[F_SPLIT], &j->o.split_frac) || !(j->o.split_frac > 0) ||
        !(j->o.split_frac < 1))
        return usage("--split-frac: a number strictly between 0 and 1 (got '%s')%s", j->v[F_SPLIT],
                     "");
    if (j->v[F_RATIO][0] &&
        (!read_double(j->v[F_RATIO], &j->o.ratio) || !(j->o.ratio > 1) || j->o.ratio > 16))
        return usage("--ratio: a number in (1, 16] (got '%s')%s", j->v[F_RATIO], "");
    if (strcmp(j->v[F_SIDES], "1") != 0 && strcmp(j->v[F_SIDES], "2") != 0)
        return usage("--sides: 1 or 2 (got '%s')%s", j->v[F_SIDES], "");
    j->o.one_sided = j->v[F_SIDES][0] == '1';
    j->o.geometric = strcmp(j->v[F_WEIGHTS], "geometric") == 0;
    if (!j->o.geometric && strcmp(j->v[F_WEIGHTS], "equal") != 0)
        return usage("--weights: equal or geometric (got '%s')%s", j->v[F_WEIGHTS], "");
    if (j->o.geometric && ms[k] != UL_EMP_LB_JOINT)
        return usage("--weights geometric: only with --method joint%s%s", "", "");
    return 0;
}

/* An exact decimal in [lo, hi) ("hi" open) or (0, 1) for alpha. */
static int parse_number_flag(mpfi_ptr x, const char *name, const char *text, bool unit_open)
{
    if (ul_num_set_decimal(x, text) != UL_OK)
        return usage("--%s: a decimal number (got '%s')", name, text);
    bool ok = mpfr_sgn(&x->left) >= 0 && (!unit_open || mpfr_cmp_ui(&x->right, 1) < 0);
    if (ok && strcmp(name, "alpha") == 0)
        ok = mpfr_sgn(&x->left) > 0;
    if (!ok)
        return usage(unit_open ? "--%s: must lie in [0, 1) (alpha: (0, 1)); got '%s'"
                               : "--%s: must be >= 0 (got '%s')",
                     name, text);
    return 0;
}

/* ---- score files: one finite number per line ('#' lines, blank lines and
 * one leading header line skipped) ------------------------------------------------ */

#define MAX_SCORES 100000000UL

static bool one_number(const char *s, double *x)
{
    char *end;
    errno = 0;
    *x = strtod(s, &end);
    while (isspace((unsigned char)*end))
        end++;
    return end != s && *end == '\0' && isfinite(*x);
}

static int push(double **v, size_t *n, size_t *cap, double x)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 1024;
        double *w = realloc(*v, c * sizeof *w);
        if (!w)
            return -1;
        *v = w, *cap = c;
    }
    (*v)[(*n)++] = x;
    return 0;
}

/* One line: skipped, a header (the first content line only), or a score. */
static int score_line(const char *path, size_t lineno, char *s, bool *first, double **v, size_t *n,
                      size_t *cap)
{
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '\0' || *s == '#')
        return 0;
    double x;
    if (!one_number(s, &x)) {
        if (*first && !strchr(s, ',')) {
            *first = false;
            return 0;
        }
        s[strcspn(s, "\r\n")] = '\0';
        fprintf(stderr, "ulaudit attack: --scores: %s: line %zu: not one finite number: '%.40s'\n",
                path, lineno, s);
        return -1;
    }
    *first = false;
    if (*n >= MAX_SCORES || push(v, n, cap, x) != 0) {
        fprintf(stderr,
                "ulaudit attack: --scores: %s: line %zu: more than %lu scores or out of "
                "memory\n",
                path, lineno, MAX_SCORES);
        return -1;
    }
    return 0;
}

static int read_score_file(const char *path, double **v, size_t *n)
{
    FILE *f;
    long long size;
    char err[512];
    if (ul_io_fopen_regular(path, "score file", true, &f, &size, err, sizeof err) != UL_OK) {
        fprintf(stderr, "ulaudit attack: --scores: %s\n", err);
        return UL_EXIT_USAGE;
    }
    char *line = NULL;
    size_t lcap = 0, lineno = 0, cap = 0;
    bool first = true;
    int rc = 0;
    while (rc == 0 && getline(&line, &lcap, f) >= 0)
        rc = score_line(path, ++lineno, line, &first, v, n, &cap);
    free(line);
    fclose(f);
    if (rc == 0 && *n == 0) {
        fprintf(stderr, "ulaudit attack: --scores: %s: no scores (one number per line)\n", path);
        rc = -1;
    }
    return rc ? UL_EXIT_USAGE : 0;
}

static int read_files(job *j)
{
    const char *spec = j->v[F_SCORES], *comma = strchr(spec, ',');
    if (!comma || comma == spec || !comma[1] || strchr(comma + 1, ','))
        return usage("--scores: IN,OUT (two file names, comma-separated; got '%s')%s", spec, "");
    char *first = strndup(spec, (size_t)(comma - spec));
    int rc = read_score_file(first, &j->in, &j->n_in);
    if (rc == 0)
        rc = read_score_file(comma + 1, &j->out, &j->n_out);
    free(first);
    return rc;
}

static int parse(job *j, int argc, char **argv)
{
    ul_cli_common c;
    char err[512];
    if (ul_cli_parse(argc, argv, flags, NF, j->v, &c, err, sizeof err) != 0)
        return usage("%s%s", err, "");
    if (c.help) {
        ul_cli_attack_scores_help(stdout);
        return -1;
    }
    j->json = c.json;
    int rc = parse_method(j);
    if (!rc)
        rc = parse_number_flag(j->alpha, "alpha", j->v[F_ALPHA], true);
    if (!rc)
        rc = parse_number_flag(j->delta, "delta", j->v[F_DELTA], true);
    j->has_claim = j->v[F_CLAIM][0] != '\0';
    if (!rc && j->has_claim)
        rc = parse_number_flag(j->claim, "claim-eps", j->v[F_CLAIM], false);
    if (!rc)
        rc = read_files(j);
    return rc;
}

typedef struct {
    ul_emp_roc roc;
    ul_emp_lb_result lb;
    double mu, gdp_eps;
    const char *verdict;
} outcome;

static void fmt_down(char *buf, size_t n, mpfr_srcptr x)
{
    mpfr_snprintf(buf, n, "%.10R*g", MPFR_RNDD, x);
}

static const char *method_name(ul_emp_lb_method m)
{
    static const char *names[] = {"family", "fixed", "split", "onerun", "all", "joint", "sum"};
    return names[m];
}

/* What the level is split by: --weights for the Bonferroni methods; for SUM
 * the statistic's own weights c_k = c_0/(k+1) as the library used them
 * (stats/eps_lb.h, SUM: K order statistics per direction, OUT forward, IN
 * reversed), which --weights does not touch. */
static void weights_text(const job *j, const ul_emp_lb_result *lb, char *buf, size_t n)
{
    if (j->o.method != UL_EMP_LB_SUM) {
        snprintf(buf, n, "%s", j->v[F_WEIGHTS]);
        return;
    }
    size_t kf = lb->sum_K[0], kr = lb->sum_K[1];
    int w = snprintf(buf, n, "c_k = %lu/(k+1), k = 0..%zu", lb->sum_c[0][0], kf - 1);
    if (kr > 0 && kr != kf && w >= 0 && (size_t)w < n)
        snprintf(buf + w, n - (size_t)w, " forward, c_k = %lu/(k+1), k = 0..%zu reversed",
                 lb->sum_c[1][0], kr - 1);
}

static void print_text(const job *j, const outcome *r)
{
    char lb[64], w[128];
    fmt_down(lb, sizeof lb, r->lb.eps_lb);
    weights_text(j, &r->lb, w, sizeof w);
    bool sum = j->o.method == UL_EMP_LB_SUM;
    printf("scores: %zu IN, %zu OUT\n", j->n_in, j->n_out);
    printf("  AUC %.4f; TPR at FPR 1e-3 / 1e-2 / 1e-1:", r->roc.auc);
    for (int l = 0; l < UL_EMP_N_FPR_LEVELS; l++) {
        if (!r->roc.tpr_defined[l])
            printf(" n/a");
        else
            printf(" %.4f", r->roc.tpr_at_fpr[l]);
        printf(l + 1 < UL_EMP_N_FPR_LEVELS ? " /" : "\n");
    }
    printf("  certified eps lower bound: %s  (method %s, %lu test%s paid for, %s%s%s, its level "
           "alpha/%lu, alpha %s, delta %s)\n",
           lb, method_name(j->o.method), r->lb.m, r->lb.m == 1 ? "" : "s", sum ? "weights " : "", w,
           sum ? "" : " weights", r->lb.divisor, j->v[F_ALPHA], j->v[F_DELTA]);
    if (r->lb.direction != 0)
        printf("    %s: IN iff score >= %.17g; %lu false positives of %lu, %lu false negatives "
               "of %lu\n",
               j->o.method == UL_EMP_LB_SUM ? "deepest threshold of the sum" : "rule",
               r->lb.threshold, r->lb.fp, r->lb.n_out, r->lb.fn, r->lb.n_in);
    printf("  GDP estimate (assumes a Gaussian trade-off curve; never decides): mu %.4f, "
           "eps(delta) %.4f\n",
           r->mu, r->gdp_eps);
    if (j->has_claim)
        printf("  claim (eps, delta) = (%s, %s): %s\n", j->v[F_CLAIM], j->v[F_DELTA], r->verdict);
    else
        printf("  no claim given (--claim-eps)\n");
}

static void print_json(const job *j, const outcome *r)
{
    char lb[64];
    fmt_down(lb, sizeof lb, r->lb.eps_lb);
    json_object *o = json_object_new_object(), *tp = json_object_new_object();
    json_object_object_add(o, "n_in", json_object_new_int64((int64_t)j->n_in));
    json_object_object_add(o, "n_out", json_object_new_int64((int64_t)j->n_out));
    json_object_object_add(o, "auc", json_object_new_double(r->roc.auc));
    const char *keys[] = {"0.001", "0.01", "0.1"};
    for (int l = 0; l < UL_EMP_N_FPR_LEVELS; l++)
        json_object_object_add(tp, keys[l],
                               r->roc.tpr_defined[l] ? json_object_new_double(r->roc.tpr_at_fpr[l])
                                                     : NULL);
    json_object_object_add(o, "tpr_at_fpr", tp);
    json_object_object_add(o, "method", json_object_new_string(method_name(j->o.method)));
    json_object_object_add(o, "tests", json_object_new_int64((int64_t)r->lb.m));
    char w[128];
    weights_text(j, &r->lb, w, sizeof w);
    json_object_object_add(o, "weights", json_object_new_string(w));
    json_object_object_add(o, "level_divisor", json_object_new_int64((int64_t)r->lb.divisor));
    json_object_object_add(o, "alpha", json_object_new_string(j->v[F_ALPHA]));
    json_object_object_add(o, "delta", json_object_new_string(j->v[F_DELTA]));
    json_object_object_add(o, "eps_lower_bound", json_object_new_string(lb));
    json_object_object_add(o, "threshold",
                           r->lb.direction ? json_object_new_double(r->lb.threshold) : NULL);
    json_object_object_add(o, "fp", json_object_new_int64((int64_t)r->lb.fp));
    json_object_object_add(o, "fn", json_object_new_int64((int64_t)r->lb.fn));
    json_object *g = json_object_new_object();
    json_object_object_add(g, "assumption",
                           json_object_new_string("Gaussian trade-off curve (GDP)"));
    json_object_object_add(g, "mu", json_object_new_double(r->mu));
    json_object_object_add(g, "eps",
                           isfinite(r->gdp_eps) ? json_object_new_double(r->gdp_eps)
                                                : json_object_new_string("inf"));
    json_object_object_add(o, "gdp_estimate", g);
    json_object_object_add(o, "claim_eps",
                           j->has_claim ? json_object_new_string(j->v[F_CLAIM]) : NULL);
    json_object_object_add(o, "verdict", json_object_new_string(r->verdict));
    printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
                                                         JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(o);
}

static int compute(job *j, outcome *r)
{
    char err[512];
    ul_status s = ul_emp_roc_curve(&r->roc, j->in, j->n_in, j->out, j->n_out, err, sizeof err);
    if (s == UL_OK)
        s = ul_emp_eps_lb(&r->lb, j->in, j->n_in, j->out, j->n_out, j->alpha, j->delta, &j->o, err,
                          sizeof err);
    if (s != UL_OK && s != UL_ECAP)
        return usage("%s%s", err, "");
    double d = mpfr_get_d(&j->delta->right, MPFR_RNDU);
    r->mu = ul_emp_gdp_mu_from_auc(r->roc.auc);
    r->gdp_eps = d > 0 ? ul_emp_gdp_eps(r->mu, d) : INFINITY;
    r->verdict = !j->has_claim                                  ? "no claim"
                 : mpfr_cmp(r->lb.eps_lb, &j->claim->right) > 0 ? "refuted"
                                                                : "consistent";
    return 0;
}

int ul_cli_attack_scores(int argc, char **argv)
{
    ul_num_init();
    job j;
    memset(&j, 0, sizeof j);
    mpfi_init2(j.alpha, 128), mpfi_init2(j.delta, 128), mpfi_init2(j.claim, 128);
    int rc = parse(&j, argc, argv);
    outcome r;
    memset(&r, 0, sizeof r);
    ul_emp_lb_init(&r.lb);
    bool computed = false;
    if (rc == 0) {
        rc = compute(&j, &r);
        computed = true;
    }
    if (rc == 0) {
        if (j.json)
            print_json(&j, &r);
        else
            print_text(&j, &r);
        if (strcmp(r.verdict, "refuted") == 0)
            rc = UL_EXIT_REJECTED;
    }
    if (computed)
        ul_emp_roc_clear(&r.roc);
    ul_emp_lb_clear(&r.lb);
    free(j.in), free(j.out);
    mpfi_clear(j.alpha), mpfi_clear(j.delta), mpfi_clear(j.claim);
    return rc < 0 ? UL_EXIT_OK : rc;
}
