/* src/report/html_attack.c — the page of `attack --html` (html.h): the
 * attack's result.json (scores under "scores") or `attack --scores
 * --json`'s object (one score at the top level), verdict first, every
 * number a data-key span (html_page.c). */
#include <string.h>

#include "report/html.h"
#include "report/html_page.h"

/* The FPR levels of tpr_at_fpr (src/emp/attack.c's level_key). */
static const char *const FPR[] = {"0.001", "0.01", "0.1"};
#define N_FPR (sizeof FPR / sizeof *FPR)

/* The verdict in words: the attack's JSON carries no explanation; these are
 * the text report's lines (src/emp/attack.c, ul_attack_result_text). */
static const char *verdict_words(const char *v)
{
    if (v != NULL && strcmp(v, "refuted") == 0)
        return "An attack beat the claim with confidence at least 1 - alpha: the claimed "
               "guarantee is false for this learner.";
    if (v != NULL && strcmp(v, "consistent") == 0)
        return "No attack beat the claim; this does not prove it (an audit only bounds from "
               "below).";
    return "The attack's measurements follow.";
}

static void cell_num(ul_html_page *p, const char *prefix, const char *key)
{
    char path[96];
    snprintf(path, sizeof path, "%s%s", prefix, key);
    fputs("<td>", p->f);
    ul_html_num(p, path);
    fputs("</td>", p->f);
}

/* <tr><td>NAME</td>: the score's name, or "score" for the one score of
 * --scores. */
static void name_cell(ul_html_page *p, const char *prefix)
{
    char path[96];
    snprintf(path, sizeof path, "%sname", prefix);
    fputs("<tr><td>", p->f);
    if (ul_html_at(p->root, path) != NULL)
        ul_html_field(p, path);
    else
        fputs("score", p->f);
    fputs("</td>", p->f);
}

/* One row of the scores table (prefix "" or "scores.N."). */
static void score_row(ul_html_page *p, const char *prefix)
{
    char path[96];
    name_cell(p, prefix);
    cell_num(p, prefix, "n_in");
    cell_num(p, prefix, "n_out");
    cell_num(p, prefix, "auc");
    for (size_t l = 0; l < N_FPR; l++) {
        snprintf(path, sizeof path, "tpr_at_fpr.%s", FPR[l]);
        cell_num(p, prefix, path);
    }
    snprintf(path, sizeof path, "%sadvantage", prefix);
    if (ul_html_at(p->root, path) != NULL) {
        fputs("<td>", p->f);
        ul_html_num(p, path);
        fputs(" in ", p->f);
        ul_html_enclosure(p, prefix, "advantage_lo", "advantage_hi");
        fputs("</td>", p->f);
    } else {
        fputs("<td><span class=\"none\">none</span></td>", p->f);
    }
    cell_num(p, prefix, "eps_lower_bound");
    snprintf(path, sizeof path, "%s%s", prefix,
             ul_html_at(p->root, "scores") != NULL ? "eps_method" : "method");
    fputs("<td>", p->f);
    ul_html_field(p, path);
    fputs("</td>", p->f);
    cell_num(p, prefix, "eps_max_certifiable");
    fputs("</tr>\n", p->f);
}

/* The GDP estimate of one score, labelled as what it is. */
static void gdp_row(ul_html_page *p, const char *prefix, bool nested)
{
    name_cell(p, prefix);
    cell_num(p, prefix, nested ? "gdp_estimate.mu" : "gdp_mu_estimate");
    cell_num(p, prefix, nested ? "gdp_estimate.eps" : "gdp_eps_estimate");
    fputs("</tr>\n", p->f);
}

static void scores(ul_html_page *p)
{
    json_object *a = ul_html_at(p->root, "scores");
    size_t n = json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 1;
    fputs("<section id=\"scores\">\n<h2>Scores</h2>\n<table id=\"scores-table\">\n<thead><tr>"
          "<th>score</th><th>IN runs</th><th>OUT runs</th><th>AUC</th>", p->f);
    for (size_t l = 0; l < N_FPR; l++)
        fprintf(p->f, "<th>TPR at FPR %s</th>", FPR[l]);
    fputs("<th>advantage in [lo, hi]</th><th>eps lower bound (certified)</th><th>test</th>"
          "<th>largest certifiable eps</th>"
          "</tr></thead>\n<tbody>\n", p->f);
    char prefix[32] = "";
    for (size_t i = 0; i < n; i++) {
        if (a != NULL)
            snprintf(prefix, sizeof prefix, "scores.%zu.", i);
        score_row(p, prefix);
    }
    fputs("</tbody>\n</table>\n<p>Level: alpha ", p->f);
    ul_html_num(p, a != NULL ? "alpha_per_score" : "alpha");
    fputs(a != NULL ? " per score.</p>\n" : ".</p>\n", p->f);
    fputs("<div id=\"gdp-estimate\" class=\"estimate\">\n<h3>GDP estimate (not certified)</h3>\n"
          "<p>An estimate, not a bound: the Gaussian trade-off curve (GDP, Dong, Roth and Su "
          "2022) fitted to the scores.</p>\n<table id=\"gdp-table\">\n<thead><tr><th>score</th>"
          "<th>mu (estimate)</th><th>eps (estimate, not certified)</th></tr></thead>\n<tbody>\n",
          p->f);
    for (size_t i = 0; i < n; i++) {
        if (a != NULL)
            snprintf(prefix, sizeof prefix, "scores.%zu.", i);
        gdp_row(p, prefix, a == NULL);
    }
    fputs("</tbody>\n</table>\n</div>\n</section>\n", p->f);
}

/* The claim: an advantage ceiling (result.json) or eps and delta (--scores). */
static void claim(ul_html_page *p)
{
    fputs("<section id=\"claim-section\">\n<h2>Claim</h2>\n<dl class=\"fields\">\n", p->f);
    static const char *const keys[] = {"claim_eps", "delta", "advantage_ceiling"};
    static const char *const words[] = {"claimed eps", "delta", "advantage ceiling"};
    bool any = false;
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        if (ul_html_at(p->root, keys[i]) == NULL)
            continue;
        fprintf(p->f, "<dt>%s</dt><dd>", words[i]);
        ul_html_num(p, keys[i]);
        fputs("</dd>\n", p->f);
        any = true;
    }
    if (ul_html_at(p->root, "ceiling_source") != NULL) {
        fputs("<dt>ceiling from</dt><dd>", p->f);
        ul_html_prose(p, "ceiling_source", "");
        fputs("</dd>\n", p->f);
    }
    fputs("</dl>\n", p->f);
    if (!any)
        fputs("<p class=\"none\">No claim was given: the attack only measures.</p>\n", p->f);
    fputs("</section>\n", p->f);
}

/* The largest certifiable eps and the runs a refutation would need. */
static void capacity(ul_html_page *p)
{
    if (ul_html_at(p->root, "scores") == NULL)
        return;
    fputs("<section id=\"capacity\">\n<h2>Capacity</h2>\n<p>At most eps ", p->f);
    ul_html_num(p, "eps_max_certifiable");
    fputs(" can be certified from these runs (a perfect separation).</p>\n", p->f);
    if (ul_html_scalar(ul_html_at(p->root, "runs_needed")) != NULL) {
        fputs("<p id=\"capacity-warning\" class=\"warning\">The claim is not below it: no run "
              "of this size can refute it by the eps bound; use at least ", p->f);
        ul_html_num(p, "runs_needed");
        fputs(" runs per world.</p>\n", p->f);
    }
    fputs("</section>\n", p->f);
}

/* The audit of the certificate the attack was given, when it was. */
static void certificate(ul_html_page *p)
{
    if (!json_object_is_type(ul_html_at(p->root, "certificate"), json_type_object))
        return;
    fputs("<section id=\"certificate-audit\">\n<h2>Certificate audit</h2>\n<dl "
          "class=\"fields\">\n", p->f);
    ul_html_dl(p, "method", "certificate.method", 'f');
    ul_html_dl(p, "verdict", "certificate.verdict", 'f');
    fputs("<dt>recomputed</dt><dd>", p->f);
    ul_html_field(p, "certificate.key");
    fputs(" in ", p->f);
    ul_html_enclosure(p, "certificate.", "lo", "hi");
    fputs("</dd>\n</dl>\n<p>", p->f);
    ul_html_prose(p, "certificate.explanation", "");
    fputs("</p>\n</section>\n", p->f);
}

ul_status ul_report_html_attack(const char *result_json, const ul_report_figure *figs,
                                size_t n_figs, char **html, char *err, size_t errlen)
{
    ul_html_page p;
    *html = NULL;
    ul_status st = ul_html_begin(&p, result_json, "result_json", err, errlen);
    if (st != UL_OK)
        return st;
    const char *v = ul_html_scalar(ul_html_at(p.root, "verdict"));
    char title[160];
    snprintf(title, sizeof title, "ulaudit attack: %s \xe2\x80\x94 membership inference",
             v != NULL ? v : "unknown");
    ul_html_head(&p, title, "attack");
    fputs("<h1>ulaudit attack report</h1>\n", p.f);
    ul_html_verdict(&p, "verdict", NULL, verdict_words(v));
    claim(&p);
    scores(&p);
    capacity(&p);
    certificate(&p);
    st = ul_html_figures(&p, figs, n_figs, err, errlen);
    return ul_html_finish(&p, st, result_json, html, err, errlen);
}
