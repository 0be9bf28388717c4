/* src/cli/attack.c — `ulaudit attack`: run a configured unlearning
 * experiment many times and attack it (emp/attack.h), or score released
 * models read from disk.
 *
 *   ulaudit attack CONFIG.json [--out DIR] [--resume] [--threads N] [--json]
 *   ulaudit attack --in-models F[,F…] --out-models F[,F…] [--target FILE]
 *                  [--model logreg|mlp] [--hidden H] [--format FMT] [--dim P]
 *                  [--eps E --delta D] [--renyi-order Q --renyi-value V]
 *                  [--alpha A] [--scores loss,gaussian-lr,lira-online,lira-offline,rmia]
 *                  [--primary SCORE] [--population FILE] [--reference-models F[,F…]]
 *                  [--plot FILE] [--json]
 *
 *   ulaudit attack CONFIG.json --shard I/K --out DIR      (one slice)
 *   ulaudit attack CONFIG.json --merge SHARDS --out DIR   (slices merged)
 *   mpirun -n K ulaudit-mpi attack CONFIG.json --out DIR  (mk/mpi.mk)
 *
 * Exit codes: 0 consistent or no claim (and the certificate, if any,
 * supported), 1 refuted, or the certificate unsupported, refuted or invalid,
 * 2 bad input, 3 inconclusive (--max-seconds ran out, the checkpoint kept;
 * or the certificate's audit undecided), 130 interrupted (a checkpoint is
 * left in --out DIR for --resume).
 */
#include "cli/attack.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "audit/audit.h"
#include "calc/read.h"
#include "io/file.h"
#include "cli/args.h"
#include "cli/attack_figures.h"
#include "cli/attack_scores.h"
#include "cli/exitcodes.h"
#include "cli/progress.h"
#include "emp/attack.h"
#include "io/escape.h"
#include "emp/mlp.h"
#include "emp/modelio.h"
#include "emp/plot.h"
#include "emp/shard_mpi.h"
#include "stats/gdp.h"
#include "num/deadline.h"
#include "num/encl.h"

#define EXIT_INTERRUPTED 130

/* s escaped for a message (io/escape.h): what the user typed, quoted. */
static const char *escaped(const char *s, char *buf, size_t len)
{
    return ul_io_escape(s, strlen(s), buf, len);
}

void ul_cli_attack_help(FILE *out)
{
    fprintf(
        out,
        "usage: ulaudit attack CONFIG.json [--out DIR] [--resume] [--threads N] [--json]\n"
        "                      [--max-seconds S] [--shard I/K] [--html FILE]\n"
        "       ulaudit attack CONFIG.json --merge SHARD|DIR[,...] --out DIR [--json]\n"
        "       mpirun -n K ulaudit-mpi attack CONFIG.json --out DIR [...]\n"
        "       ulaudit attack --scores IN.csv,OUT.csv [...]   (see man ulaudit-attack)\n"
        "       ulaudit attack --in-models F[,F...] --out-models F[,F...] [--target FILE]\n"
        "                      [--model logreg|mlp] [--hidden H] [--format auto|npy|f64|f32]\n"
        "                      [--dim P] [--eps E --delta D] [--renyi-order Q --renyi-value V]\n"
        "                      [--alpha A] [--scores loss,gaussian-lr,lira-online,lira-offline,rmia]\n"
        "                      [--primary SCORE] [--population FILE]\n"
        "                      [--reference-models F[,F...]] [--plot FILE] [--html FILE] [--json]\n\n"
        "Membership inference against unlearning.  The first form trains and unlearns\n"
        "with the configured noisy gradient-descent learner RUNS times in each world\n"
        "(IN: trained with the target, then unlearned; OUT: the reference process\n"
        "without it) and attacks the released models; the second scores models\n"
        "somebody else released.  Reported per score (loss on the target, Gaussian\n"
        "likelihood ratio on the parameters, LiRA online/offline on the target's\n"
        "logit-scaled confidence; for released models also RMIA against population\n"
        "records): ROC, AUC, TPR at FPR 1e-3/1e-2/1e-1 (n/a with fewer than 1/FPR\n"
        "OUT runs), the advantage with its interval, and a certified\n"
        "empirical eps lower bound at the claimed delta (the joint order-statistic\n"
        "test, Bonferroni over its grid and the scores, binomial tails in MPFR).\n"
        "Beside them: the claim's advantage ceiling and the\n"
        "audit of the certificate.  Verdict: refuted (an attack beat the claim with\n"
        "confidence 1 - alpha) or consistent.\n\n"
        "  --out DIR        write result.json, scores.csv, roc.csv, the plots and\n"
        "                   report.html (and models with save_models) into DIR; also\n"
        "                   the checkpoint of a long run\n"
        "  --resume         continue the run whose checkpoint is in --out DIR (from the\n"
        "                   first run when there is none yet); a checkpoint that does\n"
        "                   not verify (SHA-256, format version, configuration, data)\n"
        "                   is refused with exit 2\n"
        "  --threads N      OpenMP threads (default: all cores); results do not\n"
        "                   depend on it\n"
        "  --max-seconds S  stop after the chunk that runs past S seconds: verdict\n"
        "                   inconclusive (exit 3), the checkpoint kept for --resume;\n"
        "                   0 for none (the default)\n"
        "  --shard I/K      train only slice I of K (0 <= I < K) of the runs into\n"
        "                   DIR/shard-I-of-K.bin (a batch job each; --resume works)\n"
        "  --merge LIST     shard files or directories of them: the result of one\n"
        "                   run, byte for byte (mismatched, overlapping, incomplete or\n"
        "                   missing shards refused)\n"
        "  --plot FILE      the ROC plot (.png or .svg; default DIR/roc.png)\n"
        "  --html FILE      the self-contained HTML report (verdict, numbers, figures)\n"
        "                   at FILE (default DIR/report.html with --out)\n"
        "  --json           the result as one JSON object on stdout\n"
        "  --population FILE  (--scores rmia) records no model trained on, CSV, label\n"
        "                   +1/-1 last: RMIA compares the target with them\n"
        "  --reference-models F[,F...]  (--scores rmia) reference models; default the\n"
        "                   first half of the OUT models (then not scored)\n"
        "  --primary SCORE  (released models) the pre-registered primary score: all of\n"
        "                   alpha, alone decides; the others exploratory at\n"
        "                   alpha/(S - 1) each (configurations: attack.primary)\n\n"
        "Released models: .npy (float64 or float32, shape (p,) or (k, p)), or raw\n"
        "little-endian float64 (.f64, .bin) / float32 (.f32) with --dim P.  --target\n"
        "is a CSV file whose one row is the target record, label (+1/-1) last.\n\n"
        "Exit codes: 0 consistent (or no claim) and the certificate, if any, supported;\n"
        "1 refuted, or the certificate unsupported, refuted or invalid; 2 input error;\n"
        "3 inconclusive (--max-seconds, or the certificate's audit undecided);\n"
        "130 interrupted (resume with --resume).\n"
        "Configuration format: man ulaudit-attack, CONFIGURATION; example:\n"
        "ulaudit attack examples/attack-synthetic.json\n");
}

/* ---- Ctrl-C ------------------------------------------------------------------- */

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* ---- messages ------------------------------------------------------------------- */

/* A library message on stderr, escaped once more (io/escape.h): some come
 * from modules that quote certificate or configuration values as read. */
static void say(const char *err)
{
    char safe[1024];
    fprintf(stderr, "ulaudit attack: %s\n", ul_io_escape(err, strlen(err), safe, sizeof safe));
}

/* ---- flags ---------------------------------------------------------------------- */

typedef struct {
    const char *config, *out, *threads, *plot, *html;
    const char *in_models, *out_models, *target, *model, *hidden, *format, *dim;
    const char *shard, *merge, *max_seconds;
    const char *eps, *delta, *renyi_order, *renyi_value, *alpha, *scores, *primary;
    const char *population, *reference_models;
    bool json, resume, help;
} attack_args;

/* The valued flags, in the order of attack_args' slots (args.h rows; ""
 * marks "not given": each slot stays NULL unless the flag is). */
#define ROW(name)                                                                                  \
    {                                                                                              \
        name, "V", "", ""                                                                          \
    }
static const ul_cli_flag ATTACK_ROWS[] = {
    ROW("out"),    ROW("threads"), ROW("plot"),        ROW("in-models"),   ROW("out-models"),
    ROW("target"), ROW("model"),   ROW("hidden"),      ROW("format"),      ROW("dim"),
    ROW("eps"),    ROW("delta"),   ROW("renyi-order"), ROW("renyi-value"), ROW("alpha"),
    ROW("scores"), ROW("shard"),   ROW("merge"),       ROW("max-seconds"), ROW("html"),
    ROW("primary"), ROW("population"), ROW("reference-models"),
};
#undef ROW
static const char *const ATTACK_SWITCHES[] = {"json", "resume", "help"};

/* The flags by the one parser of every command (args.h); an empty value
 * (--out=) is no value here: every flag of attack names something. */
static int parse_args(int argc, char **argv, attack_args *a)
{
    memset(a, 0, sizeof *a);
    const char **slots[] = {&a->out,         &a->threads,     &a->plot,       &a->in_models,
                            &a->out_models,  &a->target,      &a->model,      &a->hidden,
                            &a->format,      &a->dim,         &a->eps,        &a->delta,
                            &a->renyi_order, &a->renyi_value, &a->alpha,      &a->scores,
                            &a->shard,       &a->merge,       &a->max_seconds, &a->html,
                            &a->primary,     &a->population,  &a->reference_models};
    enum { NROWS = sizeof ATTACK_ROWS / sizeof ATTACK_ROWS[0] };
    _Static_assert(sizeof slots / sizeof slots[0] == NROWS, "one slot per row");
    ul_cli_grammar g = {ATTACK_ROWS, NROWS, ATTACK_SWITCHES,
                        3,           1,     " (one configuration file per run)"};
    ul_cli_args p;
    char err[512];
    if (ul_cli_parse_grammar(&g, argc, argv, &p, err, sizeof err) != 0) {
        fprintf(stderr, "ulaudit attack: %s\n", err);
        return UL_EXIT_USAGE;
    }
    for (int k = 0; k < NROWS; k++) {
        if (p.given[k] && p.values[k][0] == '\0') {
            fprintf(stderr, "ulaudit attack: --%s: missing value\n", ATTACK_ROWS[k].name);
            return UL_EXIT_USAGE;
        }
        *slots[k] = p.given[k] ? p.values[k] : NULL;
    }
    a->config = p.nargs > 0 ? p.args[0] : NULL;
    a->json = p.on[0];
    a->resume = p.on[1];
    a->help = p.on[2];
    return UL_EXIT_OK;
}

/* ---- output files ------------------------------------------------------------------ */

static int make_dir(const char *dir)
{
    if (mkdir(dir, 0777) == 0 || errno == EEXIST) {
        struct stat sb;
        if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
            return 0;
    }
    fprintf(stderr, "ulaudit attack: --out %s: cannot create the directory (%s)\n", dir,
            strerror(errno ? errno : ENOTDIR));
    return -1;
}

/* The files this command writes into --out DIR (each through a temporary
 * ".<name>.tmp.<pid>.<n>" file, io/file.h). */
static const char *const OUT_FILES[] = {
    "checkpoint.bin",   "result.json",      "roc.csv",           "roc.png",
    "scores.csv",       "eps-delta.png",    "eps-delta.svg",     "models_in.npy",
    "models_out.npy",   "roc-loss.png",     "roc-loss.svg",      "roc-gaussian-lr.png",
    "roc-gaussian-lr.svg", "roc-lira-online.png", "roc-lira-online.svg", "roc-lira-offline.png",
    "roc-lira-offline.svg", "report.html"};

/* Creates DIR if needed and removes the temporary files a killed run left
 * there (only our own names, only of dead processes: emp/attack.h). */
static int prepare_dir(const char *dir)
{
    if (make_dir(dir) != 0)
        return -1;
    char err[512] = "";
    size_t n = ul_attack_clean_temps(dir, OUT_FILES, sizeof OUT_FILES / sizeof OUT_FILES[0], err,
                                     sizeof err);
    if (n)
        fprintf(stderr,
                "attack: removed %zu stale temporary file%s of an interrupted run from %s\n", n,
                n == 1 ? "" : "s", dir);
    if (err[0])
        fprintf(stderr, "ulaudit attack: warning: %s\n", err);
    return 0;
}

static char *join(const char *dir, const char *file)
{
    size_t n = strlen(dir) + strlen(file) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, file);
    return p;
}

/* The files one result places (io/file.h: each written to a temporary file
 * in its directory, flushed, fsync'd and closed with every step checked,
 * then renamed into place).  A failure removes again the ones this result
 * placed before it: a failed run leaves no new output file, and no mix of
 * this run's files with an earlier run's. */
typedef struct {
    char *placed[32];
    int n;
} out_files;

static void out_undo(out_files *o)
{
    for (int i = 0; i < o->n; i++)
        unlink(o->placed[i]), free(o->placed[i]);
    o->n = 0;
}

static void out_keep(out_files *o)
{
    for (int i = 0; i < o->n; i++)
        free(o->placed[i]);
    o->n = 0;
}

/* A write's outcome: path (malloc'd) placed, or the message said. */
static int placed(out_files *o, char *path, ul_status st, const char *err)
{
    if (st != UL_OK) {
        say(err);
        free(path);
        return -1;
    }
    if (o && o->n < (int)(sizeof o->placed / sizeof o->placed[0]))
        o->placed[o->n++] = path;
    else
        free(path);
    return 0;
}

typedef struct {
    const char *text;
    char reason[128]; /* the system's reason for a failed write (a full disk) */
} text_job;

static const char *fill_text(FILE *f, void *ctx)
{
    text_job *t = ctx;
    size_t n = strlen(t->text);
    if (n == 0 || fwrite(t->text, 1, n, f) == n)
        return NULL;
    snprintf(t->reason, sizeof t->reason, "write failed: %s", strerror(errno ? errno : EIO));
    return t->reason;
}

/* DIR/name holding text, atomically; o (NULL: none) records it. */
static int write_file(const char *dir, const char *name, const char *text, out_files *o)
{
    char *path = join(dir, name), err[1024];
    text_job t = {.text = text};
    ul_status st = path ? ul_io_write_atomic(path, fill_text, &t, -1, err, sizeof err)
                        : ul_fail(err, sizeof err, UL_ENOMEM, "%s: out of memory", dir);
    return placed(o, path, st, err);
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* A memory stream's text (*buf is only final after fclose), or NULL when
 * it could not grow (cut short: none). */
static char *closed_text(FILE *f, char **buf)
{
    if (fclose(f) != 0) {
        free(*buf);
        return NULL;
    }
    return *buf;
}

/* roc.csv: every ROC point of every score with its threshold.  Point i of
 * a score is the rule "IN iff score >= t" at the i-th largest distinct
 * score t (stats/stats.h, ul_emp_roc_counts); the first point (0, 0) has
 * t = +inf (nothing is IN). */
static char *roc_csv(const ul_attack_result *res)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fprintf(f, "# ROC points per score; the rule: IN iff score >= threshold\n");
    fprintf(f, "score,threshold,fpr,tpr\n");
    for (int k = 0; k < res->n_scores && f; k++) {
        const ul_attack_score *s = &res->score[k];
        size_t n = s->n_in + s->n_out + 1;
        unsigned long *fp = malloc(2 * n * sizeof *fp);
        double *thr = malloc(n * sizeof *thr), *a = malloc((n - 1) * sizeof *a);
        if (!fp || !thr || !a) { /* sized by the runs */
            free(fp), free(thr), free(a), fclose(f), free(buf);
            return NULL;
        }
        memcpy(a, s->values, (n - 1) * sizeof *a);
        qsort(a, s->n_in, sizeof *a, cmp_double);
        qsort(a + s->n_in, s->n_out, sizeof *a, cmp_double);
        size_t m = ul_emp_roc_counts(a, s->n_in, a + s->n_in, s->n_out, fp, fp + n, thr);
        fprintf(f, "%s,inf,0,0\n", s->name);
        for (size_t i = 1; i <= m; i++)
            fprintf(f, "%s,%.17g,%.17g,%.17g\n", s->name, thr[i],
                    (double)fp[i] / (double)s->n_out, (double)fp[n + i] / (double)s->n_in);
        free(fp), free(thr), free(a);
    }
    return closed_text(f, &buf);
}

/* scores.csv: one row per run and world, a column per score (empty where
 * the run fitted that score instead: LiRA, gaussian-lr). */
static char *scores_csv(const ul_attack_result *res)
{
    char *buf = NULL;
    size_t len = 0, runs[2] = {0, 0};
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fprintf(f, "world,run");
    for (int k = 0; k < res->n_scores; k++) {
        const ul_attack_score *s = &res->score[k];
        fprintf(f, ",%s", s->name);
        runs[0] = s->in0 + s->n_in > runs[0] ? s->in0 + s->n_in : runs[0];
        runs[1] = s->out0 + s->n_out > runs[1] ? s->out0 + s->n_out : runs[1];
    }
    fputc('\n', f);
    for (int w = 0; w < 2; w++)
        for (size_t r = 0; r < runs[w]; r++) {
            fprintf(f, "%s,%zu", w ? "OUT" : "IN", r);
            for (int k = 0; k < res->n_scores; k++) {
                const ul_attack_score *s = &res->score[k];
                size_t r0 = w ? s->out0 : s->in0, n = w ? s->n_out : s->n_in;
                if (r >= r0 && r < r0 + n)
                    fprintf(f, ",%.17g", s->values[(w ? s->n_in : 0) + r - r0]);
                else
                    fputc(',', f);
            }
            fputc('\n', f);
        }
    return closed_text(f, &buf);
}

static int save_models(const char *dir, const ul_attack_state *st, out_files *o)
{
    size_t runs = st->log.runs;
    double *W = ul_shard_models(&st->log);
    ul_model_set in = {.k = runs, .p = st->p, .w = W};
    ul_model_set out = {.k = runs, .p = st->p, .w = W ? W + runs * st->p : NULL};
    char err[512];
    char *a = join(dir, "models_in.npy"), *b = join(dir, "models_out.npy");
    ul_status s = UL_OK;
    if (!a || !b)
        s = ul_fail(err, sizeof err, UL_ENOMEM, "%s: out of memory for the file names", dir);
    else if (!W && runs > 0) /* the runs are all there (checked before): W did not fit */
        s = ul_fail(err, sizeof err, UL_ENOMEM, "save_models: out of memory for 2 x %zu x %zu values",
                    runs, st->p);
    else
        s = ul_modelio_write_npy(a, &in, err, sizeof err);
    int rc = placed(o, a, s, err);
    if (rc == 0)
        rc = placed(o, b, ul_modelio_write_npy(b, &out, err, sizeof err), err);
    else
        free(b);
    free(W);
    return rc;
}

/* What one result writes: into dir (NULL: none) roc.csv, the plot (or to
 * plot), the models when st is given (save_models), the HTML report (to
 * html, else DIR/report.html), result.json last. */
typedef struct {
    const char *dir, *plot, *eps, *delta, *title, *html, *alpha;
    const ul_attack_state *models;
    const char *renyi_order, *renyi_value; /* NULL or "": none */
    const ul_audit_curve *cert;            /* the certificate's curve (NULL: none) */
} out_plan;

/* A decimal text as a double for a picture ("" or NULL: none). */
static double text_d(const char *t, double none)
{
    return t && *t ? strtod(t, NULL) : none;
}

/* The rich picture of one score (emp/plot.h, ul_emp_plot_roc_ex): linear
 * and log panels, the pointwise Clopper–Pearson band at the score's level,
 * the claim's ceiling ((eps, delta) or Rényi), AUC and eps_lb.  title: the
 * caller's buffer (128 bytes). */
static ul_emp_plot_spec roc_spec(const out_plan *op, const ul_attack_score *s, char *title)
{
    snprintf(title, 128, "%s: %s", op->title, s->name);
    return (ul_emp_plot_spec){.points = s->roc.points,
                              .n_points = s->roc.n_points,
                              .n_in = s->n_in,
                              .n_out = s->n_out,
                              .alpha = strtod(s->alpha, NULL), /* the score's own level */
                              .eps = text_d(op->eps, NAN),
                              .delta = text_d(op->delta, 0),
                              .eps_lb = mpfr_get_d(s->roc.eps_lb, MPFR_RNDD),
                              .title = title,
                              .renyi_order = text_d(op->renyi_order, 0),
                              .renyi_value = text_d(op->renyi_value, 0),
                              .has_auc = true,
                              .auc = s->roc.auc,
                              .panels = true};
}

static int write_roc(const char *path, const out_plan *op, const ul_attack_score *s,
                     out_files *o)
{
    char err[512], title[128];
    ul_emp_plot_spec sp = roc_spec(op, s, title);
    char *copy = strdup(path);
    ul_status st = copy ? ul_emp_plot_roc_ex(path, &sp, err, sizeof err)
                        : ul_fail(err, sizeof err, UL_ENOMEM, "%s: out of memory", path);
    return placed(o, copy, st, err);
}

/* The ε–δ figure (cli/attack_figures.h): the claim, the certificate's
 * curve, the certified ε_lb(δ) of the scores (computed here, once, at
 * ul_cli_lb_deltas' δ values) and the GDP ESTIMATE of the score with the
 * largest AUC (stats/gdp.h), labelled as an estimate.  -1 (said) when the
 * bounds fail. */
typedef struct {
    double lb_d[UL_CLI_LB_DELTAS], lb[UL_CLI_LB_DELTAS];
    ul_cli_eps_figure fig;
    /* the SVG text of each score's ROC, then of eps-delta, drawn once for
     * the .svg files and the page (cli/attack_figures.h) */
    char *svg[UL_ATTACK_MAX_SCORES + 1];
    size_t len[UL_ATTACK_MAX_SCORES + 1];
} eps_data;

/* The score whose curve is drawn: the largest certified ε_lb at the claimed
 * δ (ties: the larger AUC), the one nearest to refuting. */
static int lb_score(const ul_attack_result *res)
{
    int k = 0;
    for (int i = 1; i < res->n_scores; i++) {
        int c = mpfr_cmp(res->score[i].roc.eps_lb, res->score[k].roc.eps_lb);
        if (c > 0 || (c == 0 && res->score[i].roc.auc > res->score[k].roc.auc))
            k = i;
    }
    return k;
}

static int eps_figure(eps_data *e, const out_plan *op, const ul_attack_result *res)
{
    char err[1024];
    const ul_attack_score *best = &res->score[0];
    for (int k = 0; k < res->n_scores; k++)
        best = res->score[k].roc.auc > best->roc.auc ? &res->score[k] : best;
    int k = lb_score(res);
    double claimed = text_d(op->delta, 0), todo[UL_CLI_LB_DELTAS], got[UL_CLI_LB_DELTAS];
    size_t n = ul_cli_lb_deltas(claimed, e->lb_d), m = 0;
    for (size_t i = 0; i < n; i++) /* the claimed δ's bound is the result's own */
        if (e->lb_d[i] != claimed)
            todo[m++] = e->lb_d[i];
    if (ul_attack_eps_lb_curve(res, k, op->alpha, todo, m, got, err, sizeof err) != UL_OK) {
        say(err);
        return -1;
    }
    for (size_t i = 0, j = 0; i < n; i++)
        e->lb[i] = e->lb_d[i] == claimed ? mpfr_get_d(res->score[k].roc.eps_lb, MPFR_RNDD)
                                         : got[j++];
    ul_cli_eps_inputs in = {.eps = op->eps,
                            .delta = op->delta,
                            .renyi_order = op->renyi_order,
                            .renyi_value = op->renyi_value,
                            .gdp_mu = best->gdp_mu,
                            .gdp_score = best->name,
                            .lb_delta = e->lb_d,
                            .lb_eps = e->lb,
                            .lb_n = n,
                            .lb_score = res->score[k].name,
                            .cert = op->cert};
    ul_cli_eps_figure_build(&e->fig, &in);
    return 0;
}

/* The SVG texts of the figures (eps_data), or -1 (said). */
static int draw_svgs(const out_plan *op, const ul_attack_result *res, eps_data *e)
{
    ul_emp_plot_spec rocs[UL_ATTACK_MAX_SCORES];
    char titles[UL_ATTACK_MAX_SCORES][128], err[1024];
    for (int k = 0; k < res->n_scores; k++)
        rocs[k] = roc_spec(op, &res->score[k], titles[k]);
    ul_status st =
        ul_cli_draw_svgs(rocs, (size_t)res->n_scores, &e->fig.p, e->svg, e->len, err, sizeof err);
    if (st != UL_OK)
        say(err);
    return st == UL_OK ? 0 : -1;
}

/* DIR/name holding SVG text (a picture: mode 0644); o records it. */
static int write_svg(const char *dir, const char *name, const char *svg, size_t len,
                     out_files *o)
{
    char *path = join(dir, name), err[1024];
    ul_status st = path ? ul_cli_write_text(path, svg, len, err, sizeof err)
                        : ul_fail(err, sizeof err, UL_ENOMEM, "%s: out of memory", dir);
    return placed(o, path, st, err);
}

/* In DIR: roc-<score>.png and .svg per score, eps-delta.png and .svg (the
 * .svg files: the texts drawn once, eps_data). */
static int write_score_plots(const out_plan *op, const ul_attack_result *res, const eps_data *e,
                             out_files *o)
{
    int rc = 0;
    char name[64];
    for (int k = 0; k < res->n_scores && rc == 0; k++) {
        snprintf(name, sizeof name, "roc-%s.png", res->score[k].name);
        char *path = join(op->dir, name);
        rc = path ? write_roc(path, op, &res->score[k], o) : -1;
        free(path);
        snprintf(name, sizeof name, "roc-%s.svg", res->score[k].name);
        rc = rc == 0 ? write_svg(op->dir, name, e->svg[k], e->len[k], o) : rc;
    }
    char *path = join(op->dir, "eps-delta.png"), err[512];
    ul_status st = path ? ul_emp_plot_eps_delta(path, &e->fig.p, err, sizeof err)
                        : ul_fail(err, sizeof err, UL_ENOMEM, "%s: out of memory", op->dir);
    rc = rc == 0 ? placed(o, path, st, err) : (free(path), rc);
    int n = res->n_scores;
    return rc == 0 ? write_svg(op->dir, "eps-delta.svg", e->svg[n], e->len[n], o) : rc;
}

/* The HTML report (cli/attack_figures.h) at --html FILE, else
 * DIR/report.html.  An explicit --html that fails is an error (-1, said);
 * the default page that fails is a warning (the other files stand). */
static int write_html(const out_plan *op, const ul_attack_result *res, const char *json,
                      const eps_data *e, out_files *o)
{
    char *path = op->html ? strdup(op->html) : join(op->dir, "report.html"), err[1536];
    const char *names[UL_ATTACK_MAX_SCORES];
    for (int k = 0; k < res->n_scores; k++)
        names[k] = res->score[k].name;
    ul_status st = path ? ul_cli_attack_html(path, json, e->svg, e->len, names,
                                             (size_t)res->n_scores, true, err, sizeof err)
                        : ul_fail(err, sizeof err, UL_ENOMEM, "--html: out of memory");
    if (st != UL_OK && !op->html) {
        /* the page nobody asked for by name: its message without the flag */
        fprintf(stderr, "ulaudit attack: warning: report.html not written: %s\n",
                strncmp(err, "--html ", 7) == 0 ? err + 7 : err);
        free(path);
        return 0;
    }
    return placed(o, path, st, err);
}

/* Every output file, or none new (out_files).  -1 when one failed (said). */
static int write_outputs(const out_plan *op, const ul_attack_result *res)
{
    char *json = ul_attack_result_json(res);
    char *csv = roc_csv(res), *per_run = scores_csv(res);
    eps_data *e = calloc(1, sizeof *e);
    int rc = (!json || !csv || !per_run || !e) ? -1 : 0;
    if (rc != 0) /* the CSV files are sized by the runs */
        say("out of memory for the result's JSON or the scores' CSV files");
    out_files o = {.n = 0};
    bool figures = (op->dir || op->html) && res->n_scores > 0;
    if (rc == 0 && figures)
        rc = eps_figure(e, op, res);
    if (rc == 0 && figures)
        rc = draw_svgs(op, res, e);
    if (rc == 0 && op->dir)
        rc = write_file(op->dir, "roc.csv", csv, &o);
    if (rc == 0 && op->dir)
        rc = write_file(op->dir, "scores.csv", per_run, &o);
    if (rc == 0 && op->dir && figures)
        rc = write_score_plots(op, res, e, &o);
    char *plot_path = op->plot ? strdup(op->plot) : op->dir ? join(op->dir, "roc.png") : NULL;
    if (rc == 0 && plot_path && res->n_scores > 0)
        rc = write_roc(plot_path, op, &res->score[0], &o); /* the first score's */
    if (rc == 0 && op->models)
        rc = save_models(op->dir, op->models, &o);
    if (rc == 0 && figures)
        rc = write_html(op, res, json, e, &o);
    /* last: a result.json stands only beside the files it describes */
    if (rc == 0 && op->dir)
        rc = write_file(op->dir, "result.json", json, &o);
    if (rc != 0)
        out_undo(&o);
    out_keep(&o);
    for (int k = 0; e && k <= UL_ATTACK_MAX_SCORES; k++)
        free(e->svg[k]);
    free(json), free(csv), free(per_run), free(plot_path), free(e);
    return rc;
}

/* The result: every output file first, then the report on stdout (JSON, or
 * text after a line saying what was attacked), so that a run that fails to
 * write prints nothing.  -1 (said) on a failure: out of memory for the
 * report's text, or a file not written. */
static int deliver(const out_plan *op, const ul_attack_result *res, bool json, const char *label,
                   const char *what)
{
    char *text = json ? ul_attack_result_json(res) : ul_attack_result_text(res);
    if (!text) {
        say("out of memory for the result's text");
        return -1;
    }
    int rc = (op->dir || op->plot || op->html) ? write_outputs(op, res) : 0;
    if (rc == 0) {
        if (!json)
            printf("%s: %s\n", label, what);
        fputs(text, stdout);
    }
    free(text);
    return rc;
}

/* ---- progress ------------------------------------------------------------------------ */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void progress(size_t done, size_t total, double t0, bool tty, size_t *last_decile)
{
    ul_cli_progress_runs("attack", done, total, t0, tty, last_decile); /* cli/progress.h */
}

/* ---- the configured experiment ---------------------------------------------------------- */

/* How a configured attack runs: the slice of the chunks (--shard, or the
 * MPI rank), the checkpoint file, and who writes the result. */
typedef struct {
    size_t shard_i, shard_k; /* k = 0: no --shard */
    int rank, ranks;         /* MPI (0 and 1 without) */
    char *ckpt;              /* NULL without --out */
    char *ckpt_fit;          /* MPI: the fitting phase's (NULL: none) */
    double max_seconds;      /* 0: none */
} run_plan;

/* --resume: the checkpoint, verified (emp/attack.h), or a fresh start when
 * there is none yet; without --resume a fresh checkpoint. */
static int open_checkpoint(const attack_args *a, const char *ckpt, ul_attack_state *st)
{
    struct stat sb;
    char err[1024];
    ul_status s;
    if (!ckpt)
        return 0;
    if (a->resume && !(lstat(ckpt, &sb) != 0 && errno == ENOENT)) {
        s = ul_attack_checkpoint_load(st, ckpt, err, sizeof err);
        if (s == UL_OK && st->ckpt_cut > 0)
            fprintf(stderr,
                    "attack: %s: the last %lld bytes were a record cut off mid-write; "
                    "dropped (that chunk runs again)\n",
                    ckpt, st->ckpt_cut);
    } else {
        if (a->resume)
            fprintf(stderr,
                    "attack: --resume: no checkpoint %s yet (stopped before the first chunk "
                    "finished?); starting from the first run\n",
                    ckpt);
        s = ul_attack_checkpoint_start(st, ckpt, err, sizeof err);
    }
    if (s != UL_OK)
        say(err);
    return s == UL_OK ? 0 : -1;
}

/* The chunks of the slice, one after another; stops early on Ctrl-C or
 * when the time budget (--max-seconds) runs out, after a whole chunk. */
static int train(ul_attack_state *st, bool quiet)
{
    char err[1024];
    bool tty = isatty(STDERR_FILENO) && !quiet;
    double t0 = now();
    size_t last = 0;
    int rc = UL_EXIT_OK;
    while (st->next < st->c1 && !interrupted) {
        if (ul_attack_step(st, err, sizeof err) != UL_OK) {
            say(err);
            rc = UL_EXIT_USAGE;
            break;
        }
        if (!quiet)
            progress(st->done, st->total, t0, tty, &last);
        if (ul_deadline_passed())
            break;
    }
    if (tty && st->next < st->c1)
        fputc('\n', stderr);
    return rc;
}

/* Why the attack stopped short: exit 130 (Ctrl-C) or 3 (time budget: an
 * inconclusive result, printed and written to DIR/result.json). */
static int stopped(const attack_args *a, size_t done, size_t total, const char *why_extra)
{
    char why[512];
    if (why_extra)
        snprintf(why, sizeof why, "%s", why_extra);
    else
        snprintf(why, sizeof why,
                 "stopped after %zu of %zu runs per world (--max-seconds %g)%s", done, total,
                 ul_deadline_seconds(), a->out ? "; --resume continues" : "");
    if (interrupted && !why_extra) {
        if (a->out)
            fprintf(stderr,
                    "ulaudit attack: interrupted after %zu of %zu runs; continue with: ulaudit "
                    "attack %s --out %s --resume\n",
                    done, total, a->config, a->out);
        else
            fprintf(stderr, "ulaudit attack: interrupted (use --out DIR to keep a checkpoint)\n");
        return EXIT_INTERRUPTED;
    }
    for (char *c = why; *c; c++) /* a JSON string: no quote, backslash or control byte */
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20)
            *c = '\'';
    char json[1024];
    snprintf(json, sizeof json,
             "{\n  \"format\": \"ulaudit-attack-result/1\",\n  \"verdict\": \"inconclusive\",\n"
             "  \"runs_done\": %zu,\n  \"runs\": %zu,\n  \"reason\": \"%s\"\n}\n",
             done, total, why);
    /* DIR/result.json says so too (no earlier result left standing),
     * written before anything is printed */
    if (a->out && !a->shard && write_file(a->out, "result.json", json, NULL) != 0)
        return UL_EXIT_USAGE;
    if (a->json)
        fputs(json, stdout);
    else
        printf("verdict: inconclusive\n  %s\n", why);
    fprintf(stderr, "ulaudit attack: inconclusive: %s\n", why);
    return UL_EXIT_INCONCLUSIVE;
}

/* The certificate's certified curve for the ε–δ figure (audit/curve.h),
 * within CERT_CURVE_SECONDS; NULL when there is no certificate or no curve
 * (a curve that fails is left out with a note: the figure only loses it). */
#define CERT_CURVE_SECONDS 20.0
static ul_audit_curve *cert_curve(const ul_attack_config *cfg, const ul_attack_result *res)
{
    if (!res->has_audit)
        return NULL;
    ul_audit_curve *c = calloc(1, sizeof *c);
    char err[1024];
    ul_num_precision want = {.digits = 6, .start_bits = 128, .max_bits = 65536};
    const char *text = cfg->certificate_text;
    if (c && ul_audit_curve_compute(cfg->certificate_path, text, text ? strlen(text) : 0,
                                    &res->audit, &want, CERT_CURVE_SECONDS, c, err,
                                    sizeof err) != UL_OK) {
        fprintf(stderr, "attack: note: the certificate's curve is left out of eps-delta: %s\n",
                err);
        free(c);
        return NULL;
    }
    return c;
}

/* Every chunk recorded: the statistics, printed and written. */
static int conclude(const attack_args *a, const ul_attack_config *cfg, ul_attack_state *st)
{
    char err[1024];
    ul_attack_result res;
    ul_status s = ul_attack_finish(&res, st, err, sizeof err);
    if (s != UL_OK) {
        ul_attack_result_clear(&res);
        if (s == UL_ETIME) {
            /* err names what was being computed; the reason names the
             * budget too, in the audit's words (audit/audit.h) */
            char why[1200];
            ul_audit_time_out_text(why, sizeof why, err);
            return stopped(a, cfg->runs, cfg->runs, why);
        }
        say(err);
        return UL_EXIT_USAGE;
    }
    ul_audit_curve *cert = a->out || a->html ? cert_curve(cfg, &res) : NULL;
    out_plan op = {.dir = a->out,
                   .plot = a->plot,
                   .html = a->html,
                   .alpha = cfg->alpha,
                   .eps = cfg->eps,
                   .delta = cfg->delta,
                   .title = "membership inference ROC",
                   .renyi_order = cfg->renyi_order,
                   .renyi_value = cfg->renyi_value,
                   .models = cfg->save_models ? st : NULL,
                   .cert = cert};
    int rc = deliver(&op, &res, a->json, "data", cfg->data_desc) == 0 ? UL_EXIT_OK : UL_EXIT_USAGE;
    if (rc == UL_EXIT_OK)
        rc = ul_attack_exit_code(&res); /* the attack's verdict and the certificate's */
    free(cert);
    ul_attack_result_clear(&res);
    return rc;
}

/* Before the runs (emp/attack.h, ul_attack_capacity_of): the largest eps
 * lower bound this many runs per world can certify at the chosen alpha, and
 * a warning when the claimed eps is not below it.  -1 (said) on an error. */
static int say_capacity(const ul_attack_config *cfg)
{
    char err[1024], m[64], claim[160];
    ul_attack_capacity cap;
    ul_attack_scoring sc = ul_attack_config_scoring(cfg);
    ul_status s = ul_attack_capacity_of(&cap, &sc, cfg->runs, err, sizeof err);
    if (s == UL_OK) {
        mpfr_snprintf(m, sizeof m, "%.3RDg", cap.eps_max);
        fprintf(stderr,
                "attack: %zu runs per world can certify at most eps %s and advantage %.3g at "
                "alpha %s (a perfect separation)\n",
                cfg->runs, m, cap.adv_max, cfg->alpha);
        if (cap.renyi) /* Mironov 2017 Prop. 3 */
            snprintf(claim, sizeof claim, "the Renyi claim (eps %.4g at delta %s)", cap.claim_eps,
                     cfg->delta);
        else
            snprintf(claim, sizeof claim, "eps = %s", cfg->eps);
        if (cap.runs_needed)
            fprintf(stderr,
                    "ulaudit attack: warning: this attack cannot refute %s with %zu runs per "
                    "world by its eps bound (at most %s can be certified); use >= %zu%s\n",
                    claim, cfg->runs, m, cap.runs_needed,
                    cap.runs_certified ? "" : " (a lower bound)");
        if (cap.adv_max <= cap.ceiling) /* false when NAN: no claim */
            fprintf(stderr,
                    "ulaudit attack: warning: nor by its advantage test: the claim's ceiling "
                    "%.4g is not below the %.4g it can certify\n",
                    cap.ceiling, cap.adv_max);
    } else if (s == UL_ETIME) { /* a note: the budget is the runs' */
        fprintf(stderr, "attack: note: the capacity is not computed within --max-seconds\n");
        s = UL_OK;
    } else {
        say(err);
    }
    ul_attack_capacity_clear(&cap);
    return s == UL_OK ? 0 : -1;
}

/* --shard i/k: 0 <= i < k. */
static int parse_shard(const char *text, run_plan *rp)
{
    long i, k;
    const char *slash = text ? strchr(text, '/') : NULL;
    char num[32], e[128];
    if (!slash || (size_t)(slash - text) >= sizeof num)
        goto bad;
    memcpy(num, text, (size_t)(slash - text));
    num[slash - text] = '\0';
    if (!ul_calc_read_count(num, 1000000, &i) || !ul_calc_read_count(slash + 1, 1000000, &k) ||
        k == 0 || i >= k)
        goto bad;
    rp->shard_i = (size_t)i, rp->shard_k = (size_t)k;
    return 0;
bad:
    fprintf(stderr, "ulaudit attack: --shard: must be i/k with 0 <= i < k (got '%s')\n",
            escaped(text ? text : "", e, sizeof e));
    return -1;
}

/* The checkpoint's name in DIR: checkpoint.bin for the whole run, else the
 * shard's (or the rank's) file. */
static char *checkpoint_path(const char *dir, size_t i, size_t k)
{
    char name[96];
    if (k <= 1)
        snprintf(name, sizeof name, "checkpoint.bin");
    else
        snprintf(name, sizeof name, "shard-%zu-of-%zu.bin", i, k);
    return join(dir, name);
}

/* An MPI rank's checkpoint in DIR for one phase. */
static char *rank_path(const char *dir, int rank, int ranks, bool fit)
{
    char name[96];
    snprintf(name, sizeof name, "rank-%d-of-%d%s.bin", rank, ranks, fit ? "-fit" : "");
    return join(dir, name);
}

/* MPI ranks train in two phases (emp/shard_mpi.h): their slice of the
 * chunks holding fitting runs, shared with every rank, then their slice of
 * the others, scored as they come.  Each phase has its own checkpoint, so
 * a killed rank resumes its ranges.  A failure ends every rank. */
static void train_ranks(const attack_args *a, ul_attack_state *st, run_plan *rp)
{
    char err[1024];
    const ul_shard_log *log = &st->log;
    size_t n = log->nchunks, r = (size_t)rp->rank, K = (size_t)rp->ranks;
    size_t cf = (log->scores & UL_SCORE_LR) ? (log->half + log->chunk - 1) / log->chunk : 0;
    for (int phase = 0; phase < 2; phase++) {
        size_t lo = phase ? cf : 0, hi = phase ? n : cf, c0, c1;
        ul_shard_slice(hi - lo, r, K, &c0, &c1);
        ul_attack_set_range(st, lo + c0, lo + c1);
        char *path = a->out && c1 > c0 ? rank_path(a->out, rp->rank, rp->ranks, !phase) : NULL;
        *(phase ? &rp->ckpt : &rp->ckpt_fit) = path;
        if (open_checkpoint(a, path, st) != 0 || train(st, rp->rank != 0) != UL_EXIT_OK)
            ul_mpi_abort(UL_EXIT_USAGE);
        if (!phase && ul_mpi_share(st, rp->rank, rp->ranks, err, sizeof err) != UL_OK) {
            say(err);
            ul_mpi_abort(UL_EXIT_USAGE);
        }
    }
}

/* After the training: a shard is done when its file is complete; the whole
 * run (or rank 0 after the MPI gather) concludes. */
static int after_training(const attack_args *a, const ul_attack_config *cfg, ul_attack_state *st,
                          const run_plan *rp)
{
    char err[1024];
    if (rp->ranks > 1 && ul_mpi_gather(st, rp->rank, rp->ranks, err, sizeof err) != UL_OK) {
        say(err);
        ul_mpi_abort(UL_EXIT_USAGE);
    }
    if (rp->rank != 0)
        return UL_EXIT_OK;
    if (rp->shard_k) {
        if (st->next < st->c1)
            return stopped(a, st->done, st->total, NULL);
        fprintf(stderr, "attack: shard %zu/%zu done (runs %zu..%zu of each world): %s\n",
                rp->shard_i, rp->shard_k, st->c0 * cfg->chunk, st->c0 * cfg->chunk + st->total - 1,
                rp->ckpt);
        return UL_EXIT_OK;
    }
    size_t have = 0;
    for (size_t c = 0; c < st->log.nchunks; c++)
        if (st->log.rec[c].present) {
            size_t run0, M, nf;
            ul_shard_chunk(&st->log, c, &run0, &M, &nf);
            have += M;
        }
    if (have < cfg->runs)
        return stopped(a, have, cfg->runs, NULL);
    return conclude(a, cfg, st);
}

/* --merge F[,F…]: shard files, or directories whose shard-*.bin files are
 * taken, merged into the run's records; then the result as one run. */
static int merge_path(ul_attack_state *st, const char *path)
{
    char err[1024];
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, sizeof err, "--merge %s: cannot open: %s", path, strerror(errno));
        say(err);
        return -1;
    }
    ul_status s = ul_attack_merge_stream(st, f, path, err, sizeof err);
    fclose(f);
    if (s != UL_OK)
        say(err);
    return s == UL_OK ? 0 : -1;
}

static int merge_dir(ul_attack_state *st, const char *dir)
{
    struct dirent **list = NULL;
    int n = scandir(dir, &list, NULL, alphasort), rc = 0, found = 0;
    for (int i = 0; i < n; i++) {
        const char *e = list[i]->d_name;
        size_t len = strlen(e);
        if (rc == 0 && strncmp(e, "shard-", 6) == 0 && len > 10 &&
            strcmp(e + len - 4, ".bin") == 0) {
            char *path = join(dir, e);
            rc = path ? merge_path(st, path) : -1;
            free(path);
            found++;
        }
        free(list[i]);
    }
    free(list);
    if (rc == 0 && found == 0) {
        fprintf(stderr, "ulaudit attack: --merge %s: no shard-*.bin file there\n", dir);
        rc = -1;
    }
    return rc;
}

static int merge_shards(const attack_args *a, const ul_attack_config *cfg, ul_attack_state *st)
{
    char *copy = strdup(a->merge), *save = NULL;
    int rc = copy ? 0 : -1;
    for (char *t = strtok_r(copy, ",", &save); rc == 0 && t; t = strtok_r(NULL, ",", &save)) {
        struct stat sb;
        rc = stat(t, &sb) == 0 && S_ISDIR(sb.st_mode) ? merge_dir(st, t) : merge_path(st, t);
    }
    free(copy);
    return rc == 0 ? conclude(a, cfg, st) : UL_EXIT_USAGE;
}

static int run_config(const attack_args *a, run_plan *rp)
{
    char err[1024];
    ul_attack_config cfg;
    if (ul_attack_config_load(a->config, &cfg, err, sizeof err) != UL_OK) {
        say(err);
        return UL_EXIT_USAGE;
    }
    const char *need_out = a->resume ? "--resume" : rp->shard_k ? "--shard" : a->merge ? "--merge"
                           : cfg.save_models                      ? "save_models"
                                                                  : NULL;
    if (need_out && !a->out) {
        fprintf(stderr, "ulaudit attack: %s needs --out DIR\n", need_out);
        ul_attack_config_free(&cfg);
        return UL_EXIT_USAGE;
    }
    /* every rank makes the directory (a rank may get there first); rank 0
     * alone removes stale temporary files */
    if (a->out && (rp->rank == 0 ? prepare_dir(a->out) : make_dir(a->out)) != 0) {
        ul_attack_config_free(&cfg);
        if (rp->ranks > 1)
            ul_mpi_abort(UL_EXIT_USAGE);
        return UL_EXIT_USAGE;
    }
    /* --resume continues the run of the same layout (ranks) only: another
     * would find none of its files, start over and leave the others */
    if (a->resume && ul_attack_resume_layout(a->out, rp->ranks, err, sizeof err) != UL_OK) {
        if (rp->rank == 0) /* every rank sees the same directory: one says it */
            say(err);
        ul_attack_config_free(&cfg);
        if (rp->ranks > 1) { /* no rank ends the others before rank 0 has said it */
            ul_mpi_bcast_int(0);
            ul_mpi_abort(UL_EXIT_USAGE);
        }
        return UL_EXIT_USAGE;
    }
    ul_attack_state st;
    int rc = UL_EXIT_USAGE;
    bool gathered = false;
    size_t si = rp->shard_k ? rp->shard_i : 0, sk = rp->shard_k ? rp->shard_k : 1;
    rp->ckpt = a->out && !a->merge && rp->ranks == 1 ? checkpoint_path(a->out, si, sk) : NULL;
    if (ul_attack_prepare(&st, &cfg, err, sizeof err) != UL_OK ||
        ul_attack_set_slice(&st, si, sk, err, sizeof err) != UL_OK ||
        (rp->ranks > (int)st.log.nchunks &&
         !ul_fail(err, sizeof err, UL_EINPUT, "%d MPI ranks for %zu chunks: at most one rank a chunk",
                  rp->ranks, st.log.nchunks))) {
        say(err);
        goto done;
    }
    if (a->merge) {
        rc = merge_shards(a, &cfg, &st);
        goto done;
    }
    /* Ctrl-C from here on stops after a whole chunk (the checkpoint exists
     * as soon as open_checkpoint returns) */
    struct sigaction sa = {0}, old;
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    int opened = rp->ranks > 1 ? 0 : open_checkpoint(a, rp->ckpt, &st);
    if (opened != 0) {
        sigaction(SIGINT, &old, NULL);
        goto done;
    }
    if (rp->rank == 0)
        fprintf(stderr, "attack: %s; target row %zu; %zu runs per world%s%s\n", cfg.data_desc,
                st.plan.target, cfg.runs, st.done ? " (resumed)" : "",
                rp->ranks > 1 ? " over MPI ranks" : "");
    if (rp->rank == 0 && !rp->shard_k && say_capacity(&cfg) != 0) {
        sigaction(SIGINT, &old, NULL);
        goto done;
    }
    rc = UL_EXIT_OK;
    if (rp->ranks > 1)
        train_ranks(a, &st, rp);
    else
        rc = train(&st, false);
    sigaction(SIGINT, &old, NULL);
    if (rc != UL_EXIT_OK)
        goto done;
    rc = after_training(a, &cfg, &st, rp);
    gathered = true;
    /* finished (rank 0 says so to every rank): the checkpoints are spent */
    bool spent = rc <= 1 && !rp->shard_k;
    if (rp->ranks > 1)
        spent = ul_mpi_bcast_int(spent) != 0;
    if (spent && rp->ckpt)
        unlink(rp->ckpt);
    if (spent && rp->ckpt_fit)
        unlink(rp->ckpt_fit);
done:
    /* a rank that fails before the gather stops them all: no rank waits
     * for it forever */
    if (rp->ranks > 1 && !gathered && rc != UL_EXIT_OK)
        ul_mpi_abort(rc);
    free(rp->ckpt), free(rp->ckpt_fit);
    rp->ckpt = rp->ckpt_fit = NULL;
    ul_attack_state_free(&st);
    ul_attack_config_free(&cfg);
    return rc;
}

/* ---- released models ------------------------------------------------------------------------ */

/* The comma list of model files: every header read before any data, so
 * that a list over the size limit is refused at once (emp/modelio.h). */
static int read_models(const char *flag, const char *list, ul_modelio_format fmt, size_t p,
                       ul_model_set *set)
{
    char *copy = strdup(list), *save = NULL, err[1024];
    size_t n = 0, cap = 1;
    for (const char *c = list; *c; c++)
        cap += *c == ',';
    const char **paths = malloc(cap * sizeof *paths);
    ul_status s = UL_ENOMEM;
    *set = (ul_model_set){.p = p};
    if (copy && paths) {
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
            paths[n++] = tok;
        s = ul_modelio_read_list(paths, n, fmt, p, set, err, sizeof err);
    } else { /* the list's length: the input's size */
        snprintf(err, sizeof err, "out of memory for the list of %zu model files", cap);
    }
    if (s != UL_OK) {
        char safe[1024]; /* as say(): library messages escaped once more */
        fprintf(stderr, "ulaudit attack: %s: %s\n", flag,
                ul_io_escape(err, strlen(err), safe, sizeof safe));
    }
    free(copy), free(paths);
    return s == UL_OK ? 0 : -1;
}

/* RMIA's inputs (emp/attack.h, UL_SCORE_RMIA): the --population records (a
 * CSV file, label +1/-1 last, the target's features) and the optional
 * --reference-models (p parameters each).  -1 (said) on bad input. */
static int read_rmia_inputs(const attack_args *a, size_t d, size_t p, ul_dataset *pop,
                            ul_model_set *ref)
{
    char err[1024];
    if (!a->population)
        return 0;
    if (ul_data_read_population(a->population, d, pop, err, sizeof err) != UL_OK) {
        fprintf(stderr, "ulaudit attack: --population: %s\n", err);
        return -1;
    }
    return a->reference_models ? read_models("--reference-models", a->reference_models,
                                             UL_MODELIO_AUTO, p, ref)
                               : 0;
}

/* --population and --reference-models belong to --scores rmia, which needs
 * the population. */
static int check_rmia_flags(const attack_args *a, int scores)
{
    if ((scores & UL_SCORE_RMIA) && !a->population) {
        fprintf(stderr, "ulaudit attack: --scores rmia needs --population FILE (records no "
                        "model trained on) and --target FILE\n");
        return -1;
    }
    if (!(scores & UL_SCORE_RMIA) && (a->population || a->reference_models)) {
        fprintf(stderr, "ulaudit attack: --%s: only with --scores rmia\n",
                a->population ? "population" : "reference-models");
        return -1;
    }
    return 0;
}

static int run_released(const attack_args *a)
{
    char err[1024];
    ul_modelio_format fmt = UL_MODELIO_AUTO;
    long dim = 0, hidden = 0;
    if (a->format && ul_modelio_parse_format(a->format, &fmt, err, sizeof err) != UL_OK) {
        fprintf(stderr, "ulaudit attack: --format: %s\n", err);
        return UL_EXIT_USAGE;
    }
    if (a->dim && !ul_calc_read_count(a->dim, 1L << 28, &dim)) {
        fprintf(stderr, "ulaudit attack: --dim: must be a whole number of parameters\n");
        return UL_EXIT_USAGE;
    }
    if ((a->eps == NULL) != (a->delta == NULL) ||
        (a->renyi_order == NULL) != (a->renyi_value == NULL)) {
        fprintf(stderr,
                "ulaudit attack: give --eps with --delta, --renyi-order with --renyi-value\n");
        return UL_EXIT_USAGE;
    }
    const char *model_name = a->model ? a->model : "logreg";
    if (strcmp(model_name, "logreg") != 0 && strcmp(model_name, "mlp") != 0) {
        fprintf(stderr, "ulaudit attack: --model: must be logreg or mlp\n");
        return UL_EXIT_USAGE;
    }
    if (strcmp(model_name, "mlp") == 0 &&
        (!a->hidden || !ul_calc_read_count(a->hidden, 100000, &hidden) || !hidden)) {
        fprintf(stderr,
                "ulaudit attack: --hidden: an mlp needs its number of hidden units (>= 1)\n");
        return UL_EXIT_USAGE;
    }
    int scores = 0;
    if (a->scores) {
        char *copy = strdup(a->scores), *save = NULL;
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
            scores |= ul_attack_score_bit(t) ? ul_attack_score_bit(t) : 0x100;
        free(copy);
        if (scores == 0 || (scores & 0x100)) {
            fprintf(stderr, "ulaudit attack: --scores: a comma list of loss, gaussian-lr, "
                            "lira-online, lira-offline, rmia\n");
            return UL_EXIT_USAGE;
        }
    } else {
        scores = UL_SCORE_LR | (a->target ? UL_SCORE_LOSS : 0);
    }
    int primary = a->primary ? ul_attack_score_bit(a->primary) : 0;
    if (a->primary && !(primary & scores)) {
        char e[128];
        fprintf(stderr, "ulaudit attack: --primary: must be one of the --scores (got '%s')\n",
                escaped(a->primary, e, sizeof e));
        return UL_EXIT_USAGE;
    }
    if ((scores & (UL_SCORE_LOSS | UL_SCORE_LIRA | UL_SCORE_RMIA)) && !a->target) {
        fprintf(stderr, "ulaudit attack: --scores loss, lira-* and rmia need --target FILE (the "
                        "target record)\n");
        return UL_EXIT_USAGE;
    }
    if (check_rmia_flags(a, scores) != 0)
        return UL_EXIT_USAGE;
    /* validate decimal claims before the (possibly long) reads */
    const char *dec[] = {a->eps, a->delta, a->renyi_order, a->renyi_value, a->alpha};
    const char *names[] = {"eps", "delta", "renyi-order", "renyi-value", "alpha"};
    const char *lo[] = {"0", "0", "1", "0", "0"}, *hi[] = {"1e6", "1", "1e12", "1e12", "0.5"};
    for (int i = 0; i < 5; i++) {
        int c1, c2;
        if (!dec[i])
            continue;
        if (!ul_num_decimal_compare(dec[i], lo[i], &c1) ||
            !ul_num_decimal_compare(dec[i], hi[i], &c2) || c1 < 0 || c2 > 0 ||
            ((i == 2 || i == 4) && c1 == 0) || ((i == 1) && c2 == 0)) {
            char e[128];
            fprintf(stderr,
                    "ulaudit attack: --%s: must be a decimal number in %s%s, %s%s (got '%s')\n",
                    names[i], (i == 2 || i == 4) ? "(" : "[", lo[i], hi[i], (i == 1) ? ")" : "]",
                    escaped(dec[i], e, sizeof e));
            return UL_EXIT_USAGE;
        }
    }
    ul_model_set in = {0}, out = {0};
    if (read_models("--in-models", a->in_models, fmt, dim, &in) != 0)
        return UL_EXIT_USAGE;
    if (read_models("--out-models", a->out_models, fmt, in.p, &out) != 0) {
        ul_model_set_free(&in);
        return UL_EXIT_USAGE;
    }
    int rc = UL_EXIT_OK;
    ul_dataset target = {0}, pop = {0};
    ul_model_set ref = {0};
    ul_model model = {0};
    if (a->target) {
        if (ul_data_read_csv(a->target, -1, -1, &target, err, sizeof err) != UL_OK) {
            fprintf(stderr, "ulaudit attack: --target: %s\n", err);
            rc = UL_EXIT_USAGE;
            goto done;
        }
        model = hidden ? ul_mlp_model(hidden, 0, INFINITY) : ul_logreg_model(0, INFINITY);
        size_t p_model = model.ops->nparams(&model, target.d);
        if (target.n != 1 || (target.y[0] != 1 && target.y[0] != -1) || p_model != in.p) {
            fprintf(stderr,
                    "ulaudit attack: --target %s: need one row, label +1 or -1 last, and %s "
                    "features matching the models' %zu parameters (got %zu rows, %zu features)\n",
                    a->target, model_name, in.p, target.n, target.d);
            rc = UL_EXIT_USAGE;
            goto done;
        }
    }
    if (read_rmia_inputs(a, target.d, in.p, &pop, &ref) != 0) {
        rc = UL_EXIT_USAGE;
        goto done;
    }
    ul_attack_scoring sc = {
        .model = a->target ? &model : NULL,
        .x = a->target ? target.x : NULL,
        .d = target.d,
        .y = a->target ? target.y[0] : 0,
        .scores = scores,
        .primary = primary,
        .alpha = a->alpha ? a->alpha : "0.05",
        .eps = a->eps ? a->eps : "",
        .delta = a->delta ? a->delta : "",
        .renyi_order = a->renyi_order ? a->renyi_order : "",
        .renyi_value = a->renyi_value ? a->renyi_value : "",
        .pop_x = pop.x,
        .pop_y = pop.y,
        .pop_n = pop.n,
        .W_ref = ref.k ? ref.w : NULL,
        .k_ref = ref.k,
    };
    ul_attack_result res;
    if (ul_attack_score_models(&res, &sc, in.w, in.k, out.w, out.k, in.p, err, sizeof err) !=
        UL_OK) {
        say(err);
        ul_attack_result_clear(&res);
        rc = UL_EXIT_USAGE;
        goto done;
    }
    char what[128];
    snprintf(what, sizeof what, "%zu IN, %zu OUT, %zu parameters each", in.k, out.k, in.p);
    out_plan op = {.dir = a->out,
                   .plot = a->plot,
                   .html = a->html,
                   .alpha = sc.alpha,
                   .eps = sc.eps,
                   .delta = sc.delta,
                   .title = "released models: ROC",
                   .renyi_order = sc.renyi_order,
                   .renyi_value = sc.renyi_value};
    if ((a->out && prepare_dir(a->out) != 0) ||
        deliver(&op, &res, a->json, "released models", what) != 0)
        rc = UL_EXIT_USAGE;
    if (rc == UL_EXIT_OK)
        rc = ul_attack_exit_code(&res); /* the attack's verdict and the certificate's */
    ul_attack_result_clear(&res);
done:
    ul_dataset_free(&target);
    ul_dataset_free(&pop);
    ul_model_set_free(&ref);
    ul_model_set_free(&in);
    ul_model_set_free(&out);
    return rc;
}

/* `attack --scores IN,OUT` (scores from an external attack, no models):
 * cli/attack_scores.c.  --scores with --in-models/--out-models is the list
 * of scores to compute on released models (below). */
static bool scores_mode(int argc, char **argv)
{
    bool scores = false, models = false;
    for (int i = 0; i < argc; i++) {
        scores = scores || strcmp(argv[i], "--scores") == 0 || strncmp(argv[i], "--scores=", 9) == 0;
        models = models || strncmp(argv[i], "--in-models", 11) == 0 ||
                 strncmp(argv[i], "--out-models", 12) == 0;
    }
    return scores && !models;
}

int ul_cli_attack(int argc, char **argv)
{
    if (scores_mode(argc, argv))
        return ul_cli_attack_scores(argc, argv);
    attack_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != UL_EXIT_OK)
        return rc;
    if (a.help) {
        ul_cli_attack_help(stdout);
        return UL_EXIT_OK;
    }
    char bad[1024];
    if (a.html && ul_cli_html_path_check(a.html, bad, sizeof bad) != 0) {
        fprintf(stderr, "ulaudit attack: %s\n", bad); /* before any run: nothing written */
        return UL_EXIT_USAGE;
    }
    if (a.threads) {
        long t;
        if (!ul_calc_read_count(a.threads, 1024, &t) || t == 0) {
            fprintf(stderr, "ulaudit attack: --threads: must be a whole number 1 to 1024\n");
            return UL_EXIT_USAGE;
        }
        omp_set_num_threads((int)t);
    }
    bool released = a.in_models || a.out_models;
    if (released) {
        if (a.config || a.resume) {
            fprintf(stderr,
                    "ulaudit attack: give a configuration file or --in-models/--out-models, "
                    "not both\n");
            return UL_EXIT_USAGE;
        }
        if (!a.in_models || !a.out_models) {
            fprintf(stderr,
                    "ulaudit attack: released models need both --in-models and --out-models\n");
            return UL_EXIT_USAGE;
        }
        return run_released(&a);
    }
    if (!a.config) {
        fprintf(stderr, "ulaudit attack: missing CONFIG.json (see ulaudit attack --help)\n");
        return UL_EXIT_USAGE;
    }
    const char *only_released[] = {a.target, a.model,       a.hidden,      a.format, a.dim,   a.eps,
                                   a.delta,  a.renyi_order, a.renyi_value, a.alpha,  a.scores,
                                   a.primary, a.population, a.reference_models};
    for (size_t i = 0; i < sizeof only_released / sizeof only_released[0]; i++)
        if (only_released[i]) {
            fprintf(stderr, "ulaudit attack: with a configuration file, the target, model, claim "
                            "and scores come from the file (flag not allowed here)\n");
            return UL_EXIT_USAGE;
        }
    run_plan rp = {0};
    if (a.shard && parse_shard(a.shard, &rp) != 0)
        return UL_EXIT_USAGE;
    char err[256];
    if (a.max_seconds && ul_calc_read_budget(a.max_seconds, &rp.max_seconds, err, sizeof err)) {
        fprintf(stderr, "ulaudit attack: %s\n", err);
        return UL_EXIT_USAGE;
    }
    if (rp.max_seconds > 0)
        ul_deadline_set(rp.max_seconds);
    if (a.merge && (a.shard || a.resume)) {
        fprintf(stderr, "ulaudit attack: --merge takes no --shard or --resume\n");
        return UL_EXIT_USAGE;
    }
    ul_mpi_start(NULL, NULL, &rp.rank, &rp.ranks);
    if (rp.ranks > 1 && (a.shard || a.merge)) {
        if (rp.rank == 0)
            fprintf(stderr, "ulaudit attack: under MPI the ranks are the shards: no --shard or "
                            "--merge\n");
        ul_mpi_stop();
        return UL_EXIT_USAGE;
    }
    rc = run_config(&a, &rp);
    ul_mpi_stop();
    return rc;
}
