/* src/cli/attack_scores.c — `ulaudit attack --scores IN,OUT`: per-run
 * scores from any membership-inference tool (LiRA, RMIA, …) get ulaudit's
 * certified ε lower bound (stats/eps_lb.h), the ROC, the GDP estimate
 * (stats/gdp.h, labelled as an estimate) and a verdict on a claimed (ε, δ).
 * The flags' rules, the statistics and the JSON object are
 * stats/scores_report.h's, shared with the library (ulaudit_attack_stats);
 * this file reads the score files and argv, and prints.
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
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/args.h"
#include "cli/exitcodes.h"
#include "stats/scores_report.h"
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

/* The rows, their rules and messages are stats/scores_report.h's, which the
 * library's ulaudit_attack_stats reads too: copied into the parser's rows. */
enum { F_SCORES = UL_SCORES_F_SCORES, NF = UL_SCORES_NF };

typedef struct {
    const char *v[NF];
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
    ul_cli_flag flags[NF];
    for (int i = 0; i < NF; i++)
        flags[i] = (ul_cli_flag){ul_scores_flags[i].name, ul_scores_flags[i].meta,
                                 ul_scores_flags[i].help, ul_scores_flags[i].default_value};
    ul_cli_common c;
    char err[512];
    if (ul_cli_parse(argc, argv, flags, NF, j->v, &c, err, sizeof err) != 0)
        return usage("%s%s", err, "");
    if (c.help) {
        ul_cli_attack_scores_help(stdout);
        return -1;
    }
    j->json = c.json;
    if (ul_scores_spec_read(&j->spec, j->v, err, sizeof err) != UL_OK)
        return usage("%s%s", err, "");
    return read_files(j);
}

static void print_text(const job *j, const ul_scores_outcome *r)
{
    char lb[64], w[128];
    const ul_scores_spec *s = &j->spec;
    ul_scores_eps_text(r, lb, sizeof lb);
    ul_scores_weights_text(s, &r->lb, w, sizeof w);
    bool sum = s->o.method == UL_EMP_LB_SUM;
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
           lb, ul_scores_method_name(s->o.method), r->lb.m, r->lb.m == 1 ? "" : "s",
           sum ? "weights " : "", w, sum ? "" : " weights", r->lb.divisor,
           j->v[UL_SCORES_F_ALPHA], j->v[UL_SCORES_F_DELTA]);
    if (r->lb.direction != 0)
        printf("    %s: IN iff score >= %.17g; %lu false positives of %lu, %lu false negatives "
               "of %lu\n",
               sum ? "deepest threshold of the sum" : "rule", r->lb.threshold, r->lb.fp,
               r->lb.n_out, r->lb.fn, r->lb.n_in);
    printf("  GDP estimate (assumes a Gaussian trade-off curve; never decides): mu %.4f, "
           "eps(delta) %.4f\n",
           r->mu, r->gdp_eps);
    if (s->has_claim)
        printf("  claim (eps, delta) = (%s, %s): %s\n", j->v[UL_SCORES_F_CLAIM],
               j->v[UL_SCORES_F_DELTA], r->verdict);
    else
        printf("  no claim given (--claim-eps)\n");
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
    if (rc == 0) {
        if (j.json) {
            char *text = ul_scores_json(&j.spec, &r);
            printf("%s\n", text);
            free(text);
        } else {
            print_text(&j, &r);
        }
        if (strcmp(r.verdict, "refuted") == 0)
            rc = UL_EXIT_REJECTED;
    }
    ul_scores_outcome_clear(&r);
    free(j.in), free(j.out);
    ul_scores_spec_clear(&j.spec);
    return rc < 0 ? UL_EXIT_OK : rc;
}
