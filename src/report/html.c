/* src/report/html.c — the pages of `audit --html` and `calibrate --html`
 * (html.h): the audit report's object (report.h, the --json output) laid out
 * verdict first, every number a data-key span of that object
 * (html_page.c), the figures inlined, the object embedded verbatim. */
#include "report/html.h"

#include <string.h>

#include "report/html_page.h"

/* <tr> of an enclosure object {key, label, lo, hi} at path (kind: what it is). */
static void enclosure_row(ul_html_page *p, const char *path, const char *kind,
                          const char *cls)
{
    char k[96];
    fprintf(p->f, "<tr class=\"%s\"><td>%s</td><td>", cls, kind);
    snprintf(k, sizeof k, "%s.key", path);
    ul_html_field(p, k);
    fputs("</td><td>", p->f);
    snprintf(k, sizeof k, "%s.label", path);
    ul_html_prose(p, k, "");
    fputs("</td><td>", p->f);
    snprintf(k, sizeof k, "%s.lo", path);
    ul_html_num(p, k);
    fputs("</td><td>", p->f);
    snprintf(k, sizeof k, "%s.hi", path);
    ul_html_num(p, k);
    fputs("</td></tr>\n", p->f);
}

/* The claim's numbers beside the certified enclosure, the margin, the other
 * variant and what would reach the claim. */
static void claim_vs_certified(ul_html_page *p)
{
    fputs("<section id=\"claim-vs-certified\">\n<h2>Claim vs certified</h2>\n"
          "<p id=\"claim\" class=\"claim\">Claim: ", p->f);
    ul_html_prose(p, "claim", "none");
    fputs("</p>\n<table id=\"claim-table\">\n<thead><tr><th>Claimed (as written)</th>"
          "<th>Certified (recomputed)</th></tr></thead>\n<tbody><tr><td>"
          "<dl class=\"fields claim-values\">", p->f);
    json_object *cv = ul_html_at(p->root, "claim_values");
    if (json_object_is_type(cv, json_type_object)) {
        json_object_object_foreach(cv, key, val) {
            (void)val;
            char path[160];
            snprintf(path, sizeof path, "claim_values.%s", key);
            fputs("<dt>", p->f);
            ul_html_text(p->f, key);
            fputs("</dt><dd>", p->f);
            ul_html_num(p, path);
            fputs("</dd>", p->f);
        }
    }
    fputs("</dl></td>\n<td class=\"recomputed\">", p->f);
    if (json_object_is_type(ul_html_at(p->root, "recomputed"), json_type_object)) {
        fputs("<p class=\"label\">", p->f);
        ul_html_prose(p, "recomputed.label", "");
        fputs(" (", p->f);
        ul_html_field(p, "recomputed.key");
        fputs(")</p>\n<p class=\"enclosure\">", p->f);
        ul_html_enclosure(p, "recomputed.", "lo", "hi");
        fputs("</p>", p->f);
    } else {
        fputs("<span class=\"none\">nothing was computed</span>", p->f);
    }
    fputs("</td></tr></tbody>\n</table>\n<p id=\"margin\" class=\"margin\">", p->f);
    ul_html_prose(p, "margin", "no margin (nothing was computed)");
    fputs("</p>\n", p->f);
}

/* The other variant and would_reach, one table. */
static void other_and_reach(ul_html_page *p)
{
    json_object *wr = ul_html_at(p->root, "would_reach");
    size_t n = json_object_is_type(wr, json_type_array) ? json_object_array_length(wr) : 0;
    bool other = json_object_is_type(ul_html_at(p->root, "other_variant"), json_type_object);
    if (!other && n == 0) {
        fputs("<p class=\"none\">No other variant; nothing else to reach the claim.</p>\n"
              "</section>\n", p->f);
        return;
    }
    fputs("<table id=\"reach-table\">\n<thead><tr><th></th><th>key</th><th>label</th>"
          "<th>lo</th><th>hi</th></tr></thead>\n<tbody>\n", p->f);
    if (other)
        enclosure_row(p, "other_variant", "other variant", "other-variant");
    for (size_t i = 0; i < n; i++) {
        char path[48];
        snprintf(path, sizeof path, "would_reach.%zu", i);
        enclosure_row(p, path, "would reach the claim", "would-reach");
    }
    fputs("</tbody>\n</table>\n</section>\n", p->f);
}

/* Method, source, hash, tool, time, theorem and variant. */
static void certificate(ul_html_page *p)
{
    fputs("<section id=\"certificate\">\n<h2>Certificate</h2>\n<dl class=\"fields\">\n", p->f);
    ul_html_dl(p, "method", "method", 'f');
    fputs("<dt>source</dt><dd id=\"source\">", p->f);
    ul_html_prose(p, "source", "not stated");
    fputs("</dd>\n", p->f);
    ul_html_dl(p, "certificate sha256", "certificate_sha256", 'f');
    fputs("<dt>tool</dt><dd>", p->f);
    ul_html_field(p, "tool.name");
    fputs(" ", p->f);
    ul_html_num(p, "tool.version");
    fputs("</dd>\n", p->f);
    ul_html_dl(p, "generated at", "generated_at", 'f');
    ul_html_dl(p, "digits", "digits", 'n');
    ul_html_dl(p, "exit code", "exit_code", 'n');
    fputs("</dl>\n</section>\n<section id=\"theorem\">\n<h2>Theorem</h2>\n"
          "<p id=\"theorem-text\">", p->f);
    ul_html_prose(p, "theorem", "none");
    fputs("</p>\n<p>Variant: ", p->f);
    if (ul_html_scalar(ul_html_at(p->root, "variant")) != NULL)
        ul_html_field(p, "variant");
    else
        fputs("<span class=\"none\">one form</span>", p->f);
    fputs("</p>\n</section>\n", p->f);
}

/* One table of an array of objects: its columns are keys of each row. */
static void rows(ul_html_page *p, const char *key, const char *id, const char *const *cols,
                 const char *const *heads, size_t ncols, const char *none)
{
    json_object *a = ul_html_at(p->root, key);
    size_t n = json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
    if (n == 0) {
        fprintf(p->f, "<p class=\"none\">%s</p>\n", none);
        return;
    }
    fprintf(p->f, "<table id=\"%s\">\n<thead><tr>", id);
    for (size_t c = 0; c < ncols; c++)
        fprintf(p->f, "<th>%s</th>", heads[c]);
    fputs("</tr></thead>\n<tbody>\n", p->f);
    for (size_t i = 0; i < n; i++) {
        fputs("<tr>", p->f);
        for (size_t c = 0; c < ncols; c++) {
            char path[96];
            snprintf(path, sizeof path, "%s.%zu.%s", key, i, cols[c]);
            const char *t = ul_html_scalar(ul_html_at(p->root, path));
            if (strcmp(cols[c], "state") == 0 && t != NULL) {
                fputs("<td class=\"state state-", p->f);
                ul_html_text(p->f, t);
                fputs("\">", p->f);
            } else {
                fprintf(p->f, "<td class=\"%s\">", cols[c]);
            }
            ul_html_prose(p, path, "");
            fputs("</td>", p->f);
        }
        fputs("</tr>\n", p->f);
    }
    fputs("</tbody>\n</table>\n", p->f);
}

/* Preconditions, omitted fields, the first wrong stated number, forensics. */
static void findings(ul_html_page *p)
{
    static const char *const pc[] = {"name", "rule", "state"};
    static const char *const om[] = {"field", "reading", "state_it"};
    static const char *const omh[] = {"field", "reading taken", "how to state it"};
    fputs("<section id=\"preconditions\">\n<h2>Preconditions</h2>\n", p->f);
    rows(p, "preconditions", "preconditions-table", pc, pc, 3, "No precondition listed.");
    fputs("</section>\n<section id=\"omitted\">\n<h2>Omitted fields</h2>\n", p->f);
    rows(p, "omitted", "omitted-table", om, omh, 3,
         "The certificate leaves out no optional fact.");
    fputs("</section>\n<section id=\"first-wrong-stated\">\n<h2>First wrong stated "
          "number</h2>\n<p>", p->f);
    ul_html_prose(p, "first_wrong_stated", "none");
    fputs("</p>\n</section>\n<section id=\"forensics\">\n<h2>Forensics</h2>\n<p>", p->f);
    ul_html_prose(p, "forensics", "none");
    fputs("</p>\n</section>\n", p->f);
}

/* The title: the verdict and the method. */
static void audit_head(ul_html_page *p, const char *command)
{
    const char *v = ul_html_scalar(ul_html_at(p->root, "verdict"));
    const char *m = ul_html_scalar(ul_html_at(p->root, "method"));
    char title[256];
    snprintf(title, sizeof title, "ulaudit %s: %s \xe2\x80\x94 %s", command,
             v != NULL ? v : "unknown", m != NULL ? m : "unknown method");
    ul_html_head(p, title, command);
    fprintf(p->f, "<h1>ulaudit %s report</h1>\n", command);
}

/* Everything of the audit's page after its head. */
static ul_status audit_body(ul_html_page *p, const ul_report_figure *figs, size_t n_figs,
                            char *err, size_t errlen)
{
    /* the picture right after the numbers it draws: the claim's point
     * against the certified band, before the details that explain it */
    ul_html_verdict(p, "verdict", "explanation", NULL);
    claim_vs_certified(p);
    ul_status st = ul_html_figures(p, figs, n_figs, err, errlen);
    if (st != UL_OK)
        return st;
    other_and_reach(p);
    certificate(p);
    findings(p);
    return UL_OK;
}

ul_status ul_report_html_audit(const char *report_json, const ul_report_figure *figs,
                               size_t n_figs, char **html, char *err, size_t errlen)
{
    ul_html_page p;
    *html = NULL;
    ul_status st = ul_html_begin(&p, report_json, "report_json", err, errlen);
    if (st != UL_OK)
        return st;
    audit_head(&p, "audit");
    st = audit_body(&p, figs, n_figs, err, errlen);
    return ul_html_finish(&p, st, report_json, html, err, errlen);
}

ul_status ul_report_html_calibrate(const char *completed_json, const char *report_json,
                                   const ul_report_figure *figs, size_t n_figs, char **html,
                                   char *err, size_t errlen)
{
    ul_html_page p;
    *html = NULL;
    json_object *cert = completed_json != NULL ? json_tokener_parse(completed_json) : NULL;
    bool ok = json_object_is_type(cert, json_type_object);
    json_object_put(cert);
    if (!ok)
        return ul_fail(err, errlen, UL_EINPUT, "completed_json: not a JSON object");
    ul_status st = ul_html_begin(&p, report_json, "report_json", err, errlen);
    if (st != UL_OK)
        return st;
    audit_head(&p, "calibrate");
    /* the calibrated parameter first: the certificate as calibrate prints it */
    fputs("<section id=\"calibration\">\n<h2>Completed certificate</h2>\n<p>The certificate "
          "completed with the parameter that makes its claim supported (as <code>ulaudit "
          "calibrate</code> prints it); its audit follows.</p>\n"
          "<pre id=\"completed-certificate\">", p.f);
    ul_html_text(p.f, completed_json);
    fputs("</pre>\n</section>\n<h2>Audit of the completed certificate</h2>\n", p.f);
    if ((st = audit_body(&p, figs, n_figs, err, errlen)) != UL_OK) {
        ul_html_abandon(&p);
        return st;
    }
    fputs("</main>\n", p.f);
    ul_html_embed(&p, "ulaudit-certificate", completed_json);
    ul_html_embed(&p, "ulaudit-report", report_json);
    fputs("</body>\n</html>\n", p.f);
    return ul_html_end(&p, html, err, errlen);
}
