/* src/cli/attack_figures.c — the attack's ε–δ figure and HTML report (see
 * cli/attack_figures.h). */
#include "cli/attack_figures.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emp/attack.h"
#include "io/file.h"
#include "report/html.h"
#include "stats/gdp.h"

size_t ul_cli_lb_deltas(double claimed, double *out)
{
    static const int DECADES[] = {-10, -7, -4, -3, -2, -1};
    size_t n = 0;
    bool placed = !(claimed > 0 && claimed < 1);
    for (size_t i = 0; i < sizeof DECADES / sizeof DECADES[0]; i++) {
        double d = pow(10.0, DECADES[i]);
        if (!placed && claimed <= d) {
            placed = true;
            if (claimed != d) /* a decade itself is there already */
                out[n++] = claimed;
        }
        out[n++] = d;
    }
    if (!placed)
        out[n++] = claimed;
    return n;
}

static double text_d(const char *t, double none)
{
    return t && *t ? strtod(t, NULL) : none;
}

/* The claim: a Rényi claim's curve (Mironov 2017, "Rényi differential
 * privacy", Prop. 3: ε(δ) = value + log(1/δ)/(order − 1)) or the (ε, δ)
 * point; false when neither can be drawn. */
static bool claim_curve(ul_cli_eps_figure *f, const ul_cli_eps_inputs *in, ul_emp_eps_curve *c)
{
    double d = text_d(in->delta, 0), q = text_d(in->renyi_order, 0),
           rho = text_d(in->renyi_value, 0), ce = text_d(in->eps, NAN);
    if (q > 1) {
        for (int i = 0; i < UL_CLI_EPS_GRID; i++)
            f->claim[i] = rho + log(1 / f->grid[i]) / (q - 1);
        *c = (ul_emp_eps_curve){"claimed Renyi curve", f->grid, f->claim, UL_CLI_EPS_GRID,
                                UL_EMP_CURVE_SOLID, 1};
        return true;
    }
    if (isnan(ce) || !(d > 0 && d < 1))
        return false;
    f->claim_d = d, f->claim_e = ce;
    *c = (ul_emp_eps_curve){"claimed (eps, delta)", &f->claim_d, &f->claim_e, 1,
                            UL_EMP_CURVE_POINTS, 1};
    return true;
}

void ul_cli_eps_figure_build(ul_cli_eps_figure *f, const ul_cli_eps_inputs *in)
{
    memset(f, 0, sizeof *f);
    for (int i = 0; i < UL_CLI_EPS_GRID; i++) { /* δ from 1e-10 to 1e-1 */
        f->grid[i] = pow(10.0, -10.0 + 9.0 * i / (UL_CLI_EPS_GRID - 1));
        double g = isnan(in->gdp_mu) ? NAN : ul_emp_gdp_eps(in->gdp_mu, f->grid[i]);
        f->gdp[i] = isfinite(g) ? g : INFINITY; /* +∞: not drawn */
    }
    size_t n = 0;
    if (claim_curve(f, in, &f->c[n]))
        n++;
    size_t m = in->cert ? ul_attack_cert_points(in->cert, f->cert_d, f->cert_e) : 0, kept = 0;
    for (size_t i = 0; i < m; i++) /* the figure's δ range: 10^-12 up */
        if (f->cert_d[i] >= 1e-12)
            f->cert_d[kept] = f->cert_d[i], f->cert_e[kept++] = f->cert_e[i];
    m = kept;
    if (m) {
        snprintf(f->cert_label, sizeof f->cert_label, "certificate: %s (certified ceiling)",
                 in->cert->label[0] ? in->cert->label : "audited curve");
        f->c[n++] =
            (ul_emp_eps_curve){f->cert_label, f->cert_d, f->cert_e, m, UL_EMP_CURVE_SOLID, 2};
    }
    if (in->lb_n) {
        snprintf(f->lb_label, sizeof f->lb_label, "certified eps_lb(delta) (%s), pointwise",
                 in->lb_score ? in->lb_score : "scores");
        f->c[n++] = (ul_emp_eps_curve){f->lb_label, in->lb_delta, in->lb_eps, in->lb_n,
                                       UL_EMP_CURVE_SOLID, 3};
    }
    if (!isnan(in->gdp_mu)) {
        snprintf(f->gdp_label, sizeof f->gdp_label, "GDP estimate (%s, not a bound)%s",
                 in->gdp_score ? in->gdp_score : "scores",
                 isinf(in->gdp_mu) ? ": infinite (AUC 1)" : "");
        f->c[n++] = (ul_emp_eps_curve){f->gdp_label, f->grid, f->gdp, UL_CLI_EPS_GRID,
                                       UL_EMP_CURVE_DASHED, 4};
    }
    f->p = (ul_emp_eps_plot){.curves = f->c, .n_curves = n, .title = "eps against delta"};
}

int ul_cli_html_path_check(const char *path, char *err, size_t errlen)
{
    struct stat sb;
    char *copy = strdup(path);
    if (!copy) {
        snprintf(err, errlen, "--html %s: out of memory", path);
        return -1;
    }
    const char *dir = dirname(copy);
    int rc = 0;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        snprintf(err, errlen, "--html %s: is a directory; give the page's file name", path);
        rc = -1;
    } else if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        snprintf(err, errlen, "--html %s: the directory %s does not exist", path, dir);
        rc = -1;
    } else if (access(dir, W_OK) != 0) {
        snprintf(err, errlen, "--html %s: cannot write into %s (%s)", path, dir, strerror(errno));
        rc = -1;
    }
    free(copy);
    return rc;
}

ul_status ul_cli_draw_svgs(const ul_emp_plot_spec *rocs, size_t n_rocs, const ul_emp_eps_plot *eps,
                           char **svg, size_t *len, char *err, size_t errlen)
{
    ul_status st = UL_OK;
    for (size_t i = 0; i < n_rocs + (eps != NULL); i++)
        svg[i] = NULL, len[i] = 0;
    for (size_t i = 0; i < n_rocs && st == UL_OK; i++)
        st = ul_emp_plot_roc_svg(&rocs[i], &svg[i], &len[i], err, errlen);
    if (st == UL_OK && eps)
        st = ul_emp_plot_eps_delta_svg(eps, &svg[n_rocs], &len[n_rocs], err, errlen);
    return st;
}

typedef struct {
    const char *text;
    size_t len;
} text_job;

static const char *fill_text(FILE *f, void *ctx)
{
    const text_job *j = ctx;
    return fwrite(j->text, 1, j->len, f) == j->len ? NULL : "write failed";
}

ul_status ul_cli_write_text(const char *path, const char *text, size_t len, char *err,
                            size_t errlen)
{
    text_job j = {text, len};
    return ul_io_write_atomic(path, fill_text, &j, 0644, err, errlen);
}

/* One figure's caption and text alternative. */
static void caption_of(char *cap, char *alt, size_t len, const char *name, bool eps)
{
    if (eps) {
        snprintf(cap, len,
                 "eps against delta: the claim (red), the certificate's certified curve (blue, "
                 "when there is one), the certified empirical lower bound eps_lb(delta) at each "
                 "delta (orange, pointwise), the GDP estimate (green dashed, an estimate, never "
                 "a bound)");
        snprintf(alt, len, "eps against delta on a logarithmic delta axis");
        return;
    }
    snprintf(cap, len,
             "ROC of the %s score on linear (left) and logarithmic (right) axes: the empirical "
             "ROC (blue) with its pointwise Clopper-Pearson band, the claim's trade-off ceiling "
             "(red), the ceiling of the certified eps_lb (dashed orange); AUC in the legend",
             name);
    snprintf(alt, len, "ROC of the %s score, linear and log axes", name);
}

ul_status ul_cli_attack_html(const char *path, const char *json, char *const *svg,
                             const size_t *len, const char *const *names, size_t n_rocs,
                             bool has_eps, char *err, size_t errlen)
{
    size_t n = n_rocs + has_eps;
    ul_report_figure *figs = calloc(n + 1, sizeof *figs);
    char(*text)[2][512] = calloc(n + 1, sizeof *text), *html = NULL, why[1024] = "";
    ul_status st = figs && text ? UL_OK
                                : ul_fail(why, sizeof why, UL_ENOMEM, "out of memory for %zu figures", n);
    for (size_t i = 0; i < n && st == UL_OK; i++) {
        caption_of(text[i][0], text[i][1], sizeof text[i][0], i < n_rocs ? names[i] : "",
                   i >= n_rocs);
        figs[i] = (ul_report_figure){
            .svg = svg[i], .svg_len = len[i], .caption = text[i][0], .alt = text[i][1]};
    }
    if (st == UL_OK)
        st = ul_report_html_attack(json, figs, n, &html, why, sizeof why);
    if (st == UL_OK) {
        st = ul_cli_write_text(path, html, strlen(html), why, sizeof why);
        if (st != UL_OK) /* the message names the path */
            ul_fail(err, errlen, st, "--html %s", why);
    } else {
        ul_fail(err, errlen, st, "--html %s: %s", path, why);
    }
    free(figs), free(text), free(html);
    return st;
}
