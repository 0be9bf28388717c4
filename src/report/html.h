/* src/report/html.h — the auditor's report as one self-contained HTML file
 * (issue 27): `audit --html`, `calibrate --html` and `attack --html`.
 *
 * The page is built from the JSON object the command prints with --json (the
 * audit report of report.h, the attack's result.json), so that every number
 * it shows is that object's, character for character:
 *
 *   - the object itself, verbatim, in <script type="application/json"
 *     id="ulaudit-report"> ("</" written "<\/"; not executed: the page has no
 *     script and its Content-Security-Policy allows none);
 *   - every number shown in <span class="num" data-key="PATH">TEXT</span>,
 *     where PATH is the value's place in that object, keys and array indexes
 *     joined by "." ("recomputed.hi", "would_reach.0.lo", "claim_values.eps")
 *     and TEXT is the JSON string's characters, or the JSON number's literal;
 *     a key may itself hold "." (the attack's tpr_at_fpr."0.01"): a reader
 *     takes, at an object, the longest next key the path allows, then a
 *     shorter one if the rest does not resolve ("scores.0.tpr_at_fpr.0.01");
 *     other values read from the object (method, hash, time) are in <code
 *     class="field" data-key="PATH"> under the same rule, and an absent or
 *     null value is <span class="none">, without data-key;
 *   - the verdict in <p id="verdict" class="verdict verdict-NAME">NAME</p>;
 *   - each figure in <figure class="figure" id="fig-N"> holding the SVG
 *     inline (its XML prolog dropped, its ids prefixed "fN-" so that figures
 *     do not share ids) and a <figcaption>;
 *   - no request leaves the file: no external script, style, font or image
 *     (<meta http-equiv="Content-Security-Policy" content="default-src
 *     'none'; style-src 'unsafe-inline'; img-src data:">), one inline
 *     <style> with a print style; readable without JavaScript.
 *
 * The page's structure, for tools and browser tests (html_page.c, html.c,
 * html_attack.c):
 *   <title>ulaudit CMD: VERDICT — METHOD</title> (attack: "membership
 *   inference"), <body class="audit|calibrate|attack">, <main>, <h1>;
 *   section#verdict-box.verdict-box.verdict-NAME holding p#verdict and
 *   p#explanation (attack: the text report's sentence for its verdict);
 *   audit and calibrate: section#claim-vs-certified (p#claim,
 *   table#claim-table: dl.claim-values beside td.recomputed with p.label and
 *   p.enclosure "[lo, hi]"; p#margin; table#reach-table with tr.other-variant
 *   and tr.would-reach rows: kind, key, label, lo, hi), section#certificate
 *   (dl.fields, dd#source), section#theorem (p#theorem-text, the variant),
 *   section#preconditions (table#preconditions-table, td.state.state-holds|
 *   fails|undecided), section#omitted (table#omitted-table: field, reading,
 *   state_it), section#first-wrong-stated, section#forensics; calibrate
 *   first: section#calibration with pre#completed-certificate (the text as
 *   given) and, after </main>, script#ulaudit-certificate beside
 *   script#ulaudit-report; attack: section#claim-section, section#scores
 *   (table#scores-table, one row per score; div#gdp-estimate.estimate with
 *   table#gdp-table, labelled "not certified"), section#capacity
 *   (p#capacity-warning.warning when runs_needed is set),
 *   section#certificate-audit when the attack audited a certificate;
 *   then section#figures; an empty list is <p class="none">.
 *
 * Nothing here draws: the figures come as SVG text (cairo's SVG surface,
 * drawn by the plugin, src/emp) and are only inlined. */
#ifndef UL_REPORT_HTML_H
#define UL_REPORT_HTML_H

#include <stddef.h>

#include "num/status.h"

/* One figure: an SVG document (UTF-8, as cairo writes it), a caption (plain
 * text, escaped here) and a text alternative (plain text).  A figure that
 * could not be drawn has svg NULL and why (plain text) saying why: the page
 * shows <figure class="figure" id="fig-N" data-missing="true"> with
 * <p class="why">WHY</p> and the caption. */
typedef struct {
    const char *svg;
    size_t svg_len;
    const char *caption;
    const char *alt;
    const char *why;
} ul_report_figure;

/* The page of an audit: report_json is ul_audit_report_json's object (the
 * command's --json output).  *html is malloc'd.  UL_EINPUT naming
 * "report_json" when it is not such an object, "figure N" when a figure is
 * not an SVG document; UL_ENOMEM. */
ul_status ul_report_html_audit(const char *report_json, const ul_report_figure *figs,
                               size_t n_figs, char **html, char *err, size_t errlen);

/* The page of a calibration: the completed certificate (JSON text, shown
 * verbatim and its calibrated parameter first), then the audit of the
 * completed certificate as ul_report_html_audit shows it. */
ul_status ul_report_html_calibrate(const char *completed_json, const char *report_json,
                                   const ul_report_figure *figs, size_t n_figs, char **html,
                                   char *err, size_t errlen);

/* The page of an attack: result_json is the attack's result.json object (or
 * `attack --scores --json`'s). */
ul_status ul_report_html_attack(const char *result_json, const ul_report_figure *figs,
                                size_t n_figs, char **html, char *err, size_t errlen);

#endif
