/* src/cli/attack_figures.h — the attack's figures and its HTML report,
 * shared by `attack CONFIG`, `attack --in-models` (cli/attack.c) and
 * `attack --scores` (cli/attack_scores.c): one way to draw the ε–δ figure
 * and one way to build the page (report/html.h), whichever form ran.
 * Messages name the flag (--html) as the command line writes it. */
#ifndef UL_CLI_ATTACK_FIGURES_H
#define UL_CLI_ATTACK_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#include "audit/curve.h"
#include "emp/plot.h"
#include "num/status.h"

/* The δ values of the certified ε_lb(δ) curve: 10^-10, 10^-7, 10^-4, 10^-3,
 * 10^-2, 10^-1 (each costs a certified bound: few, denser where the curve
 * bends) and the claimed δ when it lies in (0, 1) and is none of them,
 * ascending.  Returns how many (at most UL_CLI_LB_DELTAS). */
#define UL_CLI_LB_DELTAS 7
size_t ul_cli_lb_deltas(double claimed_delta, double *out);

/* What the ε–δ figure shows (emp/plot.h, ul_emp_plot_eps_delta), in its
 * colours' order: the claim (red: its (ε, δ) point, or a Rényi claim's
 * curve ε(δ) = value + log(1/δ)/(order − 1), Mironov 2017 Prop. 3), the
 * certificate's certified curve (blue, audit/curve.h, its ceiling, at
 * δ ≥ 10^-12; left out when cert is NULL or has no point there), the certified empirical ε_lb(δ) of
 * the score lb_score (orange, pointwise at each δ), the GDP estimate ε(δ) of μ̂ (green,
 * dashed, Dong, Roth & Su 2022 Cor. 2.13; labelled an estimate). */
typedef struct {
    const char *eps, *delta, *renyi_order, *renyi_value; /* claim texts ("" or NULL: none) */
    double gdp_mu;                                        /* NAN: no estimate */
    const char *gdp_score;                                /* the score it comes from */
    const double *lb_delta, *lb_eps;                      /* ε_lb(δ), lb_n points */
    const char *lb_score;                                 /* the score they are of */
    size_t lb_n;
    const ul_audit_curve *cert;
} ul_cli_eps_inputs;

enum { UL_CLI_EPS_GRID = 41 };

typedef struct {
    double grid[UL_CLI_EPS_GRID], claim[UL_CLI_EPS_GRID], gdp[UL_CLI_EPS_GRID];
    double cert_d[UL_AUDIT_CURVE_MAX_POINTS], cert_e[UL_AUDIT_CURVE_MAX_POINTS];
    double claim_d, claim_e;
    char cert_label[160], lb_label[128], gdp_label[128];
    ul_emp_eps_curve c[4];
    ul_emp_eps_plot p;
} ul_cli_eps_figure;

/* Fills f from in (f points into itself and into in's arrays: keep both
 * while f is drawn). */
void ul_cli_eps_figure_build(ul_cli_eps_figure *f, const ul_cli_eps_inputs *in);

/* Whether path can take the page: its directory exists and is writable,
 * and path is not a directory.  0, or -1 with the message (naming --html)
 * in err. */
int ul_cli_html_path_check(const char *path, char *err, size_t errlen);

/* The figures as SVG text (emp/plot.h's memory variants, the pictures the
 * .svg files hold): svg[i], len[i] for rocs[0..n_rocs), then the ε–δ
 * figure at svg[n_rocs] when eps is not NULL.  The caller frees svg[i]
 * (NULL after an error). */
ul_status ul_cli_draw_svgs(const ul_emp_plot_spec *rocs, size_t n_rocs, const ul_emp_eps_plot *eps,
                           char **svg, size_t *len, char *err, size_t errlen);

/* text[0..len) written atomically to path, mode 0644 (a page or a
 * picture: for reading, whatever the umask). */
ul_status ul_cli_write_text(const char *path, const char *text, size_t len, char *err,
                            size_t errlen);

/* The page (report/html.h, ul_report_html_attack) of the result JSON
 * object `json` with the figures of ul_cli_draw_svgs (n_rocs ROC figures,
 * names[i] their scores, then the ε–δ figure when has_eps), written to
 * path by ul_cli_write_text.  UL_OK, or the status with a message naming
 * --html and path. */
ul_status ul_cli_attack_html(const char *path, const char *json, char *const *svg,
                             const size_t *len, const char *const *names, size_t n_rocs,
                             bool has_eps, char *err, size_t errlen);

#endif
