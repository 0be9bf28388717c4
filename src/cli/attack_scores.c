/* src/cli/attack_scores.c — `ulaudit attack --scores IN,OUT`: per-run
 * scores from any membership-inference tool (LiRA, RMIA, …) get ulaudit's
 * certified ε lower bound (stats/eps_lb.h), the ROC, the GDP estimate
 * (stats/gdp.h, labelled as an estimate) and a verdict on a claimed (ε, δ).
 * The flags' rules, the statistics and the JSON object are
 * stats/scores_report.h's, shared with the library (ulaudit_attack_stats);
 * this file reads the score files and argv, and prints.
 *
 *   ulaudit attack --scores IN.csv,OUT.csv [--claim-eps E] [--delta D]
 *                  [--alpha A]
 *                  [--method joint|sum|family|all|fixed|split|onerun|onerun-fdp|levels]
 *                  [--weights equal|geometric] [--tie-break random|SEED]
 *                  [--threshold T] [--levels L] [--split-frac F] [--sides 1|2]
 *                  [--ratio R] [--html FILE] [--json]
 *
 * Exit codes: 0 consistent (or no claim, or onerun-fdp's "refuted if
 * Gaussian-shaped"), 1 refuted, 2 bad input.
 */
#include "cli/attack_scores.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/args.h"
#include "cli/attack_figures.h"
#include "cli/exitcodes.h"
#include "stats/scores_report.h"
#include "io/file.h"
#include "num/encl.h"

void ul_cli_attack_scores_help(FILE *out)
{
    fprintf(out,
            "usage: ulaudit attack --scores IN,OUT [--claim-eps E] [--delta D] [--alpha A]\n"
            "                      [--method joint|sum|family|all|fixed|split|onerun|\n"
            "                                onerun-fdp|levels]\n"
            "                      [--threshold T] [--levels L]\n"
            "                      [--split-frac F] [--sides 1|2] [--ratio R]\n"
            "                      [--weights equal|geometric] [--tie-break random|SEED]\n"
            "                      [--html FILE] [--json]\n\n"
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
            "           onerun-fdp  the same setting, the f-DP test (Mahloujifar-Melis-\n"
            "                   Chaudhuri 2024): certifies mu_lb (mu-GDP rejected for\n"
            "                   mu <= mu_lb) and reports eps_gdp, eps(D) of mu_lb-GDP, a\n"
            "                   lower bound of eps only if the mechanism's trade-off curve\n"
            "                   is Gaussian-shaped (a claim above it is 'refuted if\n"
            "                   Gaussian-shaped', exit 0); needs D > 0\n"
            "           levels  a discrete score with --levels L possible values, L\n"
            "                   declared BEFORE the data (2 for a 0/1 score): every\n"
            "                   observed value a threshold, Bonferroni over L - 1; more\n"
            "                   than L distinct values in the data: exit 2, no bound\n"
            "  --sides 1|2      forward tests only, or also the reversed rule (default 2)\n"
            "  --ratio R        the grid ratio (default 4 for joint, 2 for onerun and\n"
            "                   onerun-fdp, 1.25 otherwise)\n"
            "  --weights geometric  joint: test i of each direction's grid at level\n"
            "                   alpha 2^-(i+1) (the last 2^-(L-1); halved for 2 sides)\n"
            "                   instead of alpha/m: favours the extreme order statistics\n"
            "                   (what ulaudit attack CONFIG uses); at most 64 grid\n"
            "                   counts per direction one-sided, 63 two-sided\n"
            "  --tie-break random  ties broken by fresh uniform draws, one per score (a\n"
            "                   seed from /dev/urandom, reported; --tie-break SEED\n"
            "                   reproduces a report): every method that compares scores\n"
            "                   (joint, sum, family, all, onerun) stays valid over the\n"
            "                   scores and the draws together; never keep the best of\n"
            "                   several seeds\n"
            "  --delta D        default 0 (an omitted delta is read as the strictest claim)\n"
            "  --alpha A        default 0.05\n"
            "  --html FILE      also write the self-contained HTML report (the numbers, the\n"
            "                   ROC with its band, eps against delta) to FILE\n\n"
            "Also reported: the capacity, the bound the same method gives a perfect\n"
            "separation of the same counts (for joint the most they can certify); a claim\n"
            "at or above it cannot be refuted by these scores, whatever they are.\n\n"
            "Exit codes: 0 consistent (or no claim), 1 refuted, 2 input error.\n");
}

/* The rows, their rules and messages are stats/scores_report.h's, which the
 * library's ulaudit_attack_stats reads too: copied into the parser's rows;
 * then the command's own row, --html (a file: not the library's). */
enum { F_SCORES = UL_SCORES_F_SCORES, NF = UL_SCORES_NF, F_HTML = NF, NROWS };
static const ul_cli_flag HTML_ROW = {"html", "FILE", "the HTML report", ""};

typedef struct {
    const char *v[NROWS];
    bool json;
    ul_scores_spec spec;
    double *in, *out;
    size_t n_in, n_out;
} job;

static int usage(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "ulaudit attack: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return UL_EXIT_USAGE;
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
    ul_cli_flag flags[NROWS];
    for (int i = 0; i < NF; i++)
        flags[i] = (ul_cli_flag){ul_scores_flags[i].name, ul_scores_flags[i].meta,
                                 ul_scores_flags[i].help, ul_scores_flags[i].default_value};
    flags[F_HTML] = HTML_ROW;
    ul_cli_common c;
    char err[1024];
    if (ul_cli_parse(argc, argv, flags, NROWS, j->v, &c, err, sizeof err) != 0)
        return usage("%s%s", err, "");
    if (c.help) {
        ul_cli_attack_scores_help(stdout);
        return -1;
    }
    j->json = c.json;
    if (ul_scores_spec_read(&j->spec, j->v, err, sizeof err) != UL_OK)
        return usage("%s%s", err, "");
    if (j->v[F_HTML][0] && j->spec.fdp) /* the page draws eps_lb(delta), which fdp has not */
        return usage("--html: not with --method onerun-fdp (it bounds mu, not eps)%s%s", "", "");
    if (j->v[F_HTML][0] && ul_cli_html_path_check(j->v[F_HTML], err, sizeof err) != 0)
        return usage("%s%s", err, ""); /* before anything is read: nothing written */
    return read_files(j);
}

/* The ties warning: thresholds inside blocks of equal scores lose power;
 * the remedies fixed before the data (a threshold, or the number of values
 * the score can take, of which the observed count is only a lower bound). */
static void print_ties(const ul_scores_spec *s, const ul_scores_outcome *r)
{
    if (r->lb.ties_fraction < UL_SCORES_TIES_WARN || s->o.tie_seed != 0)
        return;
    printf("  warning: %.0f%% of the scores equal another score: the tests' thresholds fall "
           "inside blocks of equal scores and lose power (valid, but weak); a threshold fixed "
           "before the data (--method fixed --threshold T) is tested at all of alpha\n",
           100 * r->lb.ties_fraction);
    if (r->distinct <= UL_SCORES_FEW_VALUES)
        printf("  the scores take %zu distinct values: --method levels --levels L tests every "
               "one, with L >= %zu the number of values the score CAN take, declared before "
               "seeing the data (not read off these scores)\n",
               r->distinct, r->distinct);
    printf("  or break the ties at random (--tie-break random: a fresh seed, reported; every "
           "method that compares scores stays valid over the scores and the draws)\n");
}

/* The certified ε lower bound of the ul_emp_lb_method methods. */
static void print_lb(const job *j, const ul_scores_outcome *r)
{
    char lb[64], w[128];
    const ul_scores_spec *s = &j->spec;
    ul_scores_eps_text(r, lb, sizeof lb);
    ul_scores_weights_text(s, &r->lb, w, sizeof w);
    bool sum = s->o.method == UL_EMP_LB_SUM;
    printf("  certified eps lower bound: %s  (method %s, %lu test%s paid for, %s%s%s, its level "
           "alpha/%lu, alpha %s, delta %s)\n",
           lb, ul_scores_method_name(s->o.method), r->lb.m, r->lb.m == 1 ? "" : "s",
           sum ? "weights " : "", w, sum ? "" : " weights", r->lb.divisor,
           j->v[UL_SCORES_F_ALPHA], j->v[UL_SCORES_F_DELTA]);
    if (s->o.method == UL_EMP_LB_LEVELS)
        printf("    levels: %lu possible values declared before the data; m = %lu thresholds\n",
               s->o.levels, s->o.levels - 1);
    const ul_emp_onerun_choice *c = &r->lb.onerun;
    if (s->o.tie_seed != 0)
        printf("    ties broken at random (seed %llu: --tie-break %llu reproduces it; valid over the "
               "scores and the draws together, so draw it afresh, never keep the best of several "
               "seeds)\n",
               (unsigned long long)s->o.tie_seed, (unsigned long long)s->o.tie_seed);
    if (s->o.method == UL_EMP_LB_ONERUN && r->lb.direction != 0)
        printf("    guesses: the %lu highest scores IN, the %lu lowest OUT (%lu and %lu made, a tie "
               "at a boundary not guessed); %lu correct\n",
               c->k_plus, c->k_minus, c->g_plus, c->g_minus, c->v);
    else if (r->lb.direction != 0 && isfinite(r->lb.tie_u))
        printf("    %s: IN iff score > %.17g, or = %.17g with its tie-break draw >= %.6f; %lu false "
               "positives of %lu, %lu false negatives of %lu\n",
               s->o.method == UL_EMP_LB_SUM ? "deepest threshold of the sum" : "rule",
               r->lb.threshold, r->lb.threshold, r->lb.tie_u, r->lb.fp, r->lb.n_out, r->lb.fn,
               r->lb.n_in);
    else if (r->lb.direction != 0)
        printf("    %s: IN iff score >= %.17g; %lu false positives of %lu, %lu false negatives "
               "of %lu\n",
               sum ? "deepest threshold of the sum" : "rule", r->lb.threshold, r->lb.fp,
               r->lb.n_out, r->lb.fn, r->lb.n_in);
    print_ties(s, r);
}

/* onerun-fdp (stats/eps_lb.h, one run f-DP; Mahloujifar, Melis, Chaudhuri
 * 2024, arXiv:2410.22235): the certified μ, then eps_gdp with its
 * assumption. */
static void print_fdp(const job *j, const ul_scores_outcome *r)
{
    char mu[64], eps[64];
    ul_scores_fdp_text(r, mu, eps, sizeof mu);
    const ul_emp_onerun_choice *c = &r->fdp.choice;
    printf("  f-DP one-run test (Mahloujifar, Melis, Chaudhuri 2024, arXiv:2410.22235; one "
           "run, each canary included by an independent fair coin):\n");
    printf("    mu-GDP rejected for mu <= %s  (certified; %lu test%s paid for, its level "
           "alpha/%lu, alpha %s)\n",
           mu, c->tests, c->tests == 1 ? "" : "s", c->tests, j->v[UL_SCORES_F_ALPHA]);
    printf("    guesses: the %lu highest scores IN, the %lu lowest OUT; %lu correct\n",
           c->k_plus, c->k_minus, c->v);
    printf("    eps_gdp %s at delta %s: the eps(delta) of %s-GDP, a lower bound of the "
           "mechanism's eps(delta) ONLY if its trade-off curve is Gaussian-shaped\n",
           eps, j->v[UL_SCORES_F_DELTA], mu);
}

static void print_text(const job *j, const ul_scores_outcome *r)
{
    const ul_scores_spec *s = &j->spec;
    printf("scores: %zu IN, %zu OUT\n", j->n_in, j->n_out);
    printf("  AUC %.4f; TPR at FPR 1e-3 / 1e-2 / 1e-1:", r->roc.auc);
    for (int l = 0; l < UL_EMP_N_FPR_LEVELS; l++) {
        if (!r->roc.tpr_defined[l])
            printf(" n/a");
        else
            printf(" %.4f", r->roc.tpr_at_fpr[l]);
        printf(l + 1 < UL_EMP_N_FPR_LEVELS ? " /" : "\n");
    }
    if (s->fdp)
        print_fdp(j, r);
    else
        print_lb(j, r);
    printf("  GDP estimate (assumes a Gaussian trade-off curve; never decides): mu %.4f, "
           "eps(delta) %.4f\n",
           r->mu, r->gdp_eps);
    char cap[64];
    if (ul_scores_capacity_text(r, cap, sizeof cap))
        printf("  capacity: at most %s %s from %zu IN and %zu OUT scores (a perfect "
               "separation)\n",
               s->fdp ? "eps_gdp" : "eps", cap, j->n_in, j->n_out);
    if (s->has_claim)
        printf("  claim (eps, delta) = (%s, %s): %s%s\n", j->v[UL_SCORES_F_CLAIM],
               j->v[UL_SCORES_F_DELTA], r->verdict,
               strcmp(r->verdict, UL_SCORES_VERDICT_IF_GAUSSIAN) == 0
                   ? " (eps_gdp exceeds it; without that assumption it is not refuted)"
                   : "");
    else
        printf("  no claim given (--claim-eps)\n");
    if (ul_scores_cannot_refute(s, r))
        printf("  these counts cannot refute eps = %s whatever the scores (at most %s)\n",
               j->v[UL_SCORES_F_CLAIM], cap);
}

/* --html FILE (cli/attack_figures.h): the ROC of the scores and eps against
 * delta with the certified eps_lb(delta) of the same method at each delta
 * of ul_cli_lb_deltas.  0, or exit 2 (said). */
static int write_html(const job *j, const ul_scores_outcome *r, const char *json)
{
    const ul_scores_spec *s = &j->spec;
    double d[UL_CLI_LB_DELTAS], e[UL_CLI_LB_DELTAS];
    size_t n = ul_cli_lb_deltas(strtod(j->v[UL_SCORES_F_DELTA], NULL), d);
    char err[1536];
    ul_status st = UL_OK;
    mpfi_t dl;
    mpfi_init2(dl, 128);
    ul_emp_lb_result lb;
    ul_emp_lb_init(&lb);
    for (size_t i = 0; i < n && st == UL_OK; i++) {
        mpfi_set_d(dl, d[i]); /* the double itself: the bound is at that delta */
        st = ul_emp_eps_lb(&lb, j->in, j->n_in, j->out, j->n_out, s->alpha, dl, &s->o, err,
                           sizeof err);
        st = st == UL_ECAP ? UL_OK : st; /* sound, only looser */
        e[i] = st == UL_OK ? mpfr_get_d(lb.eps_lb, MPFR_RNDD) : 0;
    }
    ul_emp_lb_clear(&lb);
    mpfi_clear(dl);
    const char *claim = s->has_claim ? j->v[UL_SCORES_F_CLAIM] : NULL;
    ul_cli_eps_inputs in = {.eps = claim,
                            .delta = j->v[UL_SCORES_F_DELTA],
                            .gdp_mu = r->mu,
                            .gdp_score = "scores",
                            .lb_delta = d,
                            .lb_eps = e,
                            .lb_n = st == UL_OK ? n : 0,
                            .lb_score = "scores"};
    ul_cli_eps_figure fig;
    ul_cli_eps_figure_build(&fig, &in);
    ul_emp_plot_spec roc = {.points = r->roc.points,
                            .n_points = r->roc.n_points,
                            .n_in = j->n_in,
                            .n_out = j->n_out,
                            .alpha = mpfr_get_d(&s->alpha->left, MPFR_RNDD),
                            .eps = claim ? strtod(claim, NULL) : NAN,
                            .delta = strtod(j->v[UL_SCORES_F_DELTA], NULL),
                            .eps_lb = mpfr_get_d(r->lb.eps_lb, MPFR_RNDD),
                            .title = "membership inference ROC: scores",
                            .has_auc = true,
                            .auc = r->roc.auc,
                            .panels = true};
    const char *names[] = {"scores"};
    char *svg[2] = {NULL, NULL};
    size_t len[2];
    st = ul_cli_draw_svgs(&roc, 1, &fig.p, svg, len, err, sizeof err);
    if (st == UL_OK)
        st = ul_cli_attack_html(j->v[F_HTML], json, svg, len, names, 1, true, err, sizeof err);
    else /* a picture that cannot be drawn: the page is not written */
        snprintf(err + strlen(err), sizeof err - strlen(err), " (--html)");
    free(svg[0]), free(svg[1]);
    return st == UL_OK ? 0 : usage("%s%s", err, "");
}

int ul_cli_attack_scores(int argc, char **argv)
{
    ul_num_init();
    job j;
    memset(&j, 0, sizeof j);
    ul_scores_spec_init(&j.spec);
    int rc = parse(&j, argc, argv);
    ul_scores_outcome r;
    ul_scores_outcome_init(&r);
    char err[512];
    if (rc == 0 &&
        ul_scores_compute(&j.spec, j.in, j.n_in, j.out, j.n_out, &r, err, sizeof err) != UL_OK)
        rc = usage("%s%s", err, "");
    char *json = rc == 0 ? ul_scores_json(&j.spec, &r) : NULL;
    if (rc == 0 && j.v[F_HTML][0]) /* the file first: a failure prints nothing */
        rc = write_html(&j, &r, json);
    if (rc == 0) {
        if (j.json)
            printf("%s\n", json);
        else
            print_text(&j, &r);
        if (strcmp(r.verdict, "refuted") == 0)
            rc = UL_EXIT_REJECTED;
    }
    free(json);
    ul_scores_outcome_clear(&r);
    free(j.in), free(j.out);
    ul_scores_spec_clear(&j.spec);
    return rc < 0 ? UL_EXIT_OK : rc;
}
