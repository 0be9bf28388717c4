/* src/stats/scores_report.h — the statistics of `ulaudit attack --scores`
 * (cli/attack_scores.c) and of ulaudit_attack_stats (src/lib), written
 * once: the flag rows (names, defaults), their rules and messages, the
 * computation (ROC, certified ε lower bound, GDP estimate, verdict on a
 * claim) and the JSON object, so that the command and the library give the
 * same answer, byte for byte, for the same scores and flags.
 *
 * Messages name the flag as the command line writes it ("--method: ...")
 * without the "ulaudit attack: " prefix, which the command adds. */
#ifndef UL_STATS_SCORES_REPORT_H
#define UL_STATS_SCORES_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "num/encl.h"
#include "num/status.h"
#include "stats/eps_lb.h"
#include "stats/stats.h"

/* The share of tied scores (ul_emp_lb_result.ties_fraction) from which the
 * report warns that the bound is limited by the score's resolution. */
#define UL_SCORES_TIES_WARN 0.5

/* Up to this many distinct scores, the ties warning also suggests --method
 * levels (a score with a handful of values: a bit, a bucketed loss). */
#define UL_SCORES_FEW_VALUES 16

/* The flags, in the order of their rows (the command line's order). */
enum {
    UL_SCORES_F_SCORES,
    UL_SCORES_F_CLAIM,
    UL_SCORES_F_DELTA,
    UL_SCORES_F_ALPHA,
    UL_SCORES_F_METHOD,
    UL_SCORES_F_THR,
    UL_SCORES_F_LEVELS,
    UL_SCORES_F_SPLIT,
    UL_SCORES_F_SIDES,
    UL_SCORES_F_RATIO,
    UL_SCORES_F_WEIGHTS,
    UL_SCORES_F_TIE,
    UL_SCORES_NF
};

/* One flag: name (without dashes), meta, help, default (NULL: required;
 * "": absent unless given).  The layout of the command line's rows
 * (calc/calc.h, ul_calc_flag), which cli/attack_scores.c copies them into. */
typedef struct {
    const char *name, *meta, *help, *default_value;
} ul_scores_flag;

extern const ul_scores_flag ul_scores_flags[UL_SCORES_NF];

/* What the flags ask, read from their texts (ul_scores_spec_read). */
typedef struct {
    const char *v[UL_SCORES_NF]; /* the texts (or defaults), echoed in the report */
    ul_emp_lb_opts o;
    mpfi_t alpha, delta, claim;
    bool has_claim;
    /* --method onerun-fdp: the f-DP one-run test (stats/eps_lb.h,
     * ul_emp_onerun_fdp), not a ul_emp_lb_method: o.method is ONERUN, whose
     * candidates (o.one_sided, o.ratio) it shares. */
    bool fdp;
} ul_scores_spec;

void ul_scores_spec_init(ul_scores_spec *s);
void ul_scores_spec_clear(ul_scores_spec *s);

/* Reads texts v[0..UL_SCORES_NF) (each given or its row's default; v[F_SCORES]
 * is not read) into s: UL_OK, or UL_EINPUT with the command line's message
 * naming the flag and its rule. */
ul_status ul_scores_spec_read(ul_scores_spec *s, const char *const *v, char *err, size_t errlen);

/* The statistics of one pair of score lists. */
typedef struct {
    size_t n_in, n_out;
    ul_emp_roc roc;
    ul_emp_lb_result lb;
    double mu, gdp_eps;
    const char *verdict; /* "no claim", "refuted" or "consistent" (static) */
    bool computed;       /* roc holds memory */
    /* The capacity of the counts: the method's bound (same α, δ, options)
     * on a perfect separation, every IN score above every OUT score — for
     * JOINT the largest these counts can certify (emp/attack.h,
     * ul_attack_eps_max); cap_known false when its memory was not there. */
    ul_emp_lb_result cap;
    bool cap_known;
    /* --method onerun-fdp: its result (lb is then unused, eps_lb 0), and
     * cap.eps_lb the eps_gdp of a perfect separation. */
    ul_emp_onerun_fdp_result fdp;
    /* The number of distinct scores of both worlds, counted up to
     * UL_SCORES_FEW_VALUES + 1 (more is not counted). */
    size_t distinct;
} ul_scores_outcome;

void ul_scores_outcome_init(ul_scores_outcome *r);
void ul_scores_outcome_clear(ul_scores_outcome *r);

/* Computes r for in[0..n_in), out[0..n_out) under s: UL_OK (a precision cap
 * inside the bound is sound and reported as OK, as the command does), or the
 * status of the statistics with their message. */
ul_status ul_scores_compute(const ul_scores_spec *s, const double *in, size_t n_in,
                            const double *out, size_t n_out, ul_scores_outcome *r, char *err,
                            size_t errlen);

/* The method's name, and what the level is split by (for the report). */
const char *ul_scores_method_name(ul_emp_lb_method m);
/* The name --method gave ("onerun-fdp" for the f-DP test). */
const char *ul_scores_spec_method(const ul_scores_spec *s);
void ul_scores_weights_text(const ul_scores_spec *s, const ul_emp_lb_result *lb, char *buf,
                            size_t n);

/* The eps lower bound as reported: 10 significant digits, rounded down. */
void ul_scores_eps_text(const ul_scores_outcome *r, char *buf, size_t n);

/* --method onerun-fdp: mu_lb and eps_gdp as reported (10 significant
 * digits, rounded down). */
void ul_scores_fdp_text(const ul_scores_outcome *r, char *mu, char *eps, size_t n);

/* The verdict of onerun-fdp when eps_gdp exceeds the claim: NOT "refuted"
 * (eps_gdp bounds eps(delta) only for a Gaussian-shaped trade-off curve),
 * so the command's exit status stays that of a claim not refuted. */
#define UL_SCORES_VERDICT_IF_GAUSSIAN "refuted if Gaussian-shaped"

/* The capacity as reported (10 significant digits, rounded down): false
 * when it is not known. */
bool ul_scores_capacity_text(const ul_scores_outcome *r, char *buf, size_t n);

/* Whether a claim is given whose ε is at or above the capacity: these
 * counts cannot refute it, whatever the scores. */
bool ul_scores_cannot_refute(const ul_scores_spec *s, const ul_scores_outcome *r);

/* The report as the command's --json prints it (pretty, no final newline;
 * malloc'd). */
char *ul_scores_json(const ul_scores_spec *s, const ul_scores_outcome *r);

#endif
