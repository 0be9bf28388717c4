/* tests/test_report_html.c — the self-contained HTML report (report/html.h,
 * issue 27).  Every check reads the page with code of its own (a scan for
 * data-key attributes, an HTML unescape, a walk of the JSON with json-c)
 * and compares with the JSON the page was built from: the library's audit
 * report of corpus certificates (one per method), the attack's JSON from
 * the command, and crafted hostile inputs.  The CLI tests run `audit
 * --html` and `calibrate --html` against runs without it. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"
#include "report/html.h"
#include "ulaudit.h"

/* ---- reading the page, independently of the renderer ------------------- */

/* The repository root's file (derived from this file's path). */
static void repo_path(char *out, size_t n, const char *file)
{
    const char *self = __FILE__;
    const char *slash = strrchr(self, '/');
    snprintf(out, n, "%.*s../%s", slash ? (int)(slash - self + 1) : 0, self, file);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot read %s", path);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    int c;
    while ((c = fgetc(f)) != EOF)
        fputc(c, m);
    fclose(f);
    fclose(m);
    return buf;
}

/* s[0..n) with the five HTML escapes undone (malloc'd). */
static char *unescape(const char *s, size_t n)
{
    static const char *const ent[][2] = {
        {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}};
    char *out = malloc(n + 1), *o = out;
    for (size_t i = 0; i < n;) {
        size_t k = 0;
        while (k < 5 && strncmp(s + i, ent[k][0], strlen(ent[k][0])) != 0)
            k++;
        if (k < 5) {
            *o++ = ent[k][1][0];
            i += strlen(ent[k][0]);
        } else {
            *o++ = s[i++];
        }
    }
    *o = '\0';
    return out;
}

/* The value at a dotted path: at an object, the longest of its keys that
 * the path starts with (followed by '.' or the end) whose rest resolves
 * (the contract's rule for keys holding '.'). */
static json_object *walk(json_object *v, const char *path)
{
    if (*path == '\0')
        return v;
    if (json_object_is_type(v, json_type_array)) {
        char *end;
        long i = strtol(path, &end, 10);
        if (end == path || i < 0 || (size_t)i >= json_object_array_length(v))
            return NULL;
        return walk(json_object_array_get_idx(v, (size_t)i), *end ? end + 1 : end);
    }
    if (!json_object_is_type(v, json_type_object))
        return NULL;
    json_object *best = NULL;
    size_t best_len = 0;
    json_object_object_foreach(v, key, val) {
        size_t k = strlen(key);
        if (strncmp(path, key, k) != 0 || (path[k] != '.' && path[k] != '\0') || k <= best_len)
            continue;
        json_object *r = path[k] == '\0' ? val : walk(val, path + k + 1);
        if (r != NULL || path[k] == '\0')
            best = r, best_len = k;
    }
    return best;
}

/* Does the element text equal the JSON value?  A string: its characters; a
 * number: the same number (the text read back with strtod / strtoll). */
static bool same_value(json_object *v, const char *text)
{
    switch (json_object_get_type(v)) {
    case json_type_string: return strcmp(json_object_get_string(v), text) == 0;
    case json_type_int: {
        char *end;
        long long x = strtoll(text, &end, 10);
        return *end == '\0' && x == json_object_get_int64(v);
    }
    case json_type_double: {
        char *end;
        double x = strtod(text, &end);
        return *end == '\0' && x == json_object_get_double(v);
    }
    default: return false;
    }
}

/* Checks every element with a data-key: its text is the JSON's value at
 * that key.  Returns how many; their texts go to texts[] (malloc'd). */
static size_t check_keys(const char *html, json_object *root, char **texts, size_t max)
{
    size_t n = 0;
    for (const char *s = strstr(html, "data-key=\""); s; s = strstr(s + 1, "data-key=\"")) {
        const char *k = s + 10, *kq = strchr(k, '"');
        const char *t = strchr(kq, '>') + 1, *te = strchr(t, '<');
        char *key = unescape(k, (size_t)(kq - k)), *text = unescape(t, (size_t)(te - t));
        json_object *v = walk(root, key);
        cr_assert_not_null(v, "data-key %s: no such value in the JSON", key);
        cr_assert(same_value(v, text), "data-key %s: page '%s', JSON %s", key, text,
                  json_object_to_json_string(v));
        free(key);
        if (n < max)
            texts[n++] = text;
        else
            free(text);
    }
    return n;
}

/* The string leaves of o that are numbers (strtod reads them whole) are
 * each the text of some data-key element. */
static void numbers_shown(json_object *o, const char *where, char **texts, size_t n)
{
    if (json_object_is_type(o, json_type_object)) {
        json_object_object_foreach(o, key, val) {
            (void)key;
            numbers_shown(val, where, texts, n);
        }
    } else if (json_object_is_type(o, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(o); i++)
            numbers_shown(json_object_array_get_idx(o, i), where, texts, n);
    } else if (json_object_is_type(o, json_type_string)) {
        const char *s = json_object_get_string(o);
        char *end;
        (void)strtod(s, &end);
        if (end == s || *end != '\0')
            return;
        size_t i = 0;
        while (i < n && strcmp(texts[i], s) != 0)
            i++;
        cr_assert_lt(i, n, "%s: the number %s is in no data-key element", where, s);
    }
}

/* The text between open (found in html) and the next "</tag>". */
static char *element_text(const char *html, const char *open, const char *close)
{
    const char *s = strstr(html, open);
    cr_assert_not_null(s, "no %s in the page", open);
    s += strlen(open);
    const char *e = strstr(s, close);
    cr_assert_not_null(e);
    return unescape(s, (size_t)(e - s));
}

/* The embedded JSON parses and equals obj. */
static void embedded_equals(const char *html, const char *id, json_object *obj)
{
    char open[128];
    snprintf(open, sizeof open, "<script type=\"application/json\" id=\"%s\">", id);
    const char *s = strstr(html, open);
    cr_assert_not_null(s, "no embedded %s", id);
    s += strlen(open);
    const char *e = strstr(s, "</script>");
    cr_assert_not_null(e);
    char *text = strndup(s, (size_t)(e - s));
    cr_assert_null(strstr(text, "</"), "\"</\" left in the embedded JSON");
    json_object *back = json_tokener_parse(text);
    cr_assert_not_null(back, "the embedded %s does not parse", id);
    cr_assert(json_object_equal(back, obj), "the embedded %s differs from the object", id);
    json_object_put(back);
    free(text);
}

/* Nothing that loads from elsewhere: no URL scheme, no src attribute, no
 * @import, and url( only as a figure's own fragment. */
static void self_contained(const char *html)
{
    cr_assert_null(strstr(html, "http://"), "an http:// URL in the page");
    cr_assert_null(strstr(html, "https://"), "an https:// URL in the page");
    cr_assert_null(strstr(html, "src="), "a src attribute in the page");
    cr_assert_null(strstr(html, "@import"), "an @import in the page");
    for (const char *u = strstr(html, "url("); u; u = strstr(u + 1, "url("))
        cr_assert(strncmp(u, "url(#f", 6) == 0, "url( outside a figure's fragment: %.40s", u);
    cr_assert_not_null(strstr(html, "Content-Security-Policy"));
    cr_assert_not_null(strstr(html, "@media print"));
}

/* The page of report json (with figs) passes every check. */
static void check_page(const char *html, const char *json, const char *what)
{
    json_object *root = json_tokener_parse(json);
    cr_assert_not_null(root);
    char *texts[512];
    size_t n = check_keys(html, root, texts, 512);
    cr_assert_gt(n, 0, "%s: no data-key element", what);
    static const char *const groups[] = {"recomputed", "claim_values", "would_reach",
                                         "other_variant", "scores", "certificate"};
    for (size_t g = 0; g < sizeof groups / sizeof *groups; g++) {
        json_object *o;
        if (json_object_object_get_ex(root, groups[g], &o))
            numbers_shown(o, what, texts, n);
    }
    for (size_t i = 0; i < n; i++)
        free(texts[i]);
    embedded_equals(html, "ulaudit-report", root);
    self_contained(html);
    char *verdict = element_text(html, "<p id=\"verdict\"", "</p>");
    const char *gt = strchr(verdict, '>');
    cr_assert_not_null(gt);
    json_object *v;
    cr_assert(json_object_object_get_ex(root, "verdict", &v));
    cr_assert_str_eq(gt + 1, json_object_get_string(v), "%s: the verdict paragraph", what);
    free(verdict);
    json_object_put(root);
}

/* ---- audit pages of the corpus ----------------------------------------- */

/* One per method (and with omitted fields, a first wrong stated number,
 * another variant, would_reach), all audited in well under a second. */
static const char *const CORPUS[] = {
    "d2d-fig3b-cifar10-m2-request1.json",
    "dp-sgd-tfp-compute-dp-sgd-privacy-test0.json",
    "dp-sgd-group-cifar-k225.json",
    "gaussian-one-minus-erf.json",
    "gradient-clipping-lambda0-code-default.json",
    "langevin-table1-rounded-lambda-mnist-eps1.json",
    "model-clipping-cifar-r2-float32.json",
    "noisy-gd-thm51-renyi-read-as-eps.json",
    "output-perturbation-classic-eps10.json",
    "rdp-curve-tfp-constant-mironov.json",
};

static char *audit_json(const char *file)
{
    char p[1024];
    snprintf(p, sizeof p, "audits/%s", file);
    char path[1200];
    repo_path(path, sizeof path, p);
    char *json = NULL, err[512];
    cr_assert_eq(ulaudit_audit_file_forms(path, NULL, &json, NULL, NULL, err, sizeof err),
                 ULAUDIT_OK, "%s: %s", file, err);
    return json;
}

Test(report_html, corpus_pages_show_the_json_numbers_exactly)
{
    for (size_t i = 0; i < sizeof CORPUS / sizeof *CORPUS; i++) {
        char *json = audit_json(CORPUS[i]), *html = NULL, err[512];
        ul_report_figure why = {NULL, 0, "the curve", "the curve", "no curve here"};
        cr_assert_eq(ul_report_html_audit(json, &why, 1, &html, err, sizeof err), UL_OK, "%s: %s",
                     CORPUS[i], err);
        check_page(html, json, CORPUS[i]);
        cr_assert_not_null(strstr(html, "<p class=\"why\">no curve here</p>"), "%s", CORPUS[i]);
        free(html);
        ulaudit_free(json);
    }
}

/* The title names the verdict and the method. */
Test(report_html, title_names_verdict_and_method)
{
    char *json = audit_json("output-perturbation-classic-eps10.json"), *html = NULL, err[256];
    cr_assert_eq(ul_report_html_audit(json, NULL, 0, &html, err, sizeof err), UL_OK, "%s", err);
    json_object *root = json_tokener_parse(json), *v, *m;
    json_object_object_get_ex(root, "verdict", &v);
    json_object_object_get_ex(root, "method", &m);
    char *title = element_text(html, "<title>", "</title>");
    cr_assert(strstr(title, json_object_get_string(v)) != NULL, "title %s", title);
    cr_assert(strstr(title, json_object_get_string(m)) != NULL, "title %s", title);
    free(title);
    json_object_put(root);
    free(html);
    ulaudit_free(json);
}

/* ---- figures: ids unique, references kept ----------------------------- */

static const char TINY_SVG[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
    "width=\"10\" height=\"10\" viewBox=\"0 0 10 10\">\n<defs>\n<g>\n<g id=\"glyph0-1\">"
    "<path d=\"M 0 0 L 1 1\"/></g>\n</g>\n<clipPath id=\"clip1\"><rect width=\"5\" "
    "height=\"5\"/></clipPath>\n</defs>\n<g clip-path=\"url(#clip1)\"><use "
    "xlink:href=\"#glyph0-1\" x=\"1\" y=\"2\"/></g>\n</svg>\n";

/* Every id="X" of the page, in order (malloc'd each). */
static size_t page_ids(const char *html, char **ids, size_t max)
{
    size_t n = 0;
    for (const char *s = strstr(html, " id=\""); s && n < max; s = strstr(s + 1, " id=\"")) {
        const char *e = strchr(s + 5, '"');
        ids[n++] = strndup(s + 5, (size_t)(e - s - 5));
    }
    return n;
}

static bool has_id(char **ids, size_t n, const char *id, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(ids[i]) == len && strncmp(ids[i], id, len) == 0)
            return true;
    return false;
}

/* The page's ids are unique and every fragment reference (href="#X",
 * url(#X)) names one of them; returns how many references. */
static size_t ids_resolve(const char *html)
{
    char **ids = malloc(20000 * sizeof *ids);
    size_t n = page_ids(html, ids, 20000);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            cr_assert_str_neq(ids[i], ids[j], "id %s twice", ids[i]);
    static const char *const refs[] = {"href=\"#", "url(#"};
    size_t nref = 0;
    for (size_t r = 0; r < 2; r++)
        for (const char *s = strstr(html, refs[r]); s; s = strstr(s + 1, refs[r])) {
            const char *id = s + strlen(refs[r]);
            size_t len = strcspn(id, "\")");
            cr_assert(has_id(ids, n, id, len), "reference to a missing id: %.30s", id);
            nref++;
        }
    for (size_t i = 0; i < n; i++)
        free(ids[i]);
    free(ids);
    return nref;
}

Test(report_html, two_figures_sharing_ids_get_unique_ids)
{
    char *json = audit_json("gaussian-one-minus-erf.json"), *html = NULL, err[256];
    ul_report_figure f[2] = {{TINY_SVG, strlen(TINY_SVG), "one", "first", NULL},
                             {TINY_SVG, strlen(TINY_SVG), "two", "second", NULL}};
    cr_assert_eq(ul_report_html_audit(json, f, 2, &html, err, sizeof err), UL_OK, "%s", err);
    check_page(html, json, "two figures");
    cr_assert_null(strstr(html, "<?xml"), "the XML prolog is left");
    cr_assert_eq(ids_resolve(html), 4, "two references per figure");
    cr_assert_not_null(strstr(html, "id=\"fig-1\"") && strstr(html, "id=\"fig-2\""));
    free(html);
    ulaudit_free(json);
}

Test(report_html, refuses_what_is_not_a_report_or_an_svg)
{
    char *html = (char *)1, err[256];
    cr_assert_eq(ul_report_html_audit("[1, 2]", NULL, 0, &html, err, sizeof err), UL_EINPUT);
    cr_assert_null(html);
    cr_assert(strstr(err, "report_json") != NULL, "%s", err);
    char *json = audit_json("gaussian-one-minus-erf.json");
    ul_report_figure bad = {"<html><script>x</script></html>", 31, "c", "a", NULL};
    cr_assert_eq(ul_report_html_audit(json, &bad, 1, &html, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "figure 1") != NULL, "%s", err);
    static const char scripted[] = "<svg width=\"1\"><script>alert(1)</script></svg>";
    ul_report_figure s = {scripted, strlen(scripted), "c", "a", NULL};
    cr_assert_eq(ul_report_html_audit(json, &s, 1, &html, err, sizeof err), UL_EINPUT);
    ulaudit_free(json);
}

/* ---- escaping ----------------------------------------------------------- */

Test(report_html, hostile_source_is_escaped_and_the_json_survives)
{
    char *json = audit_json("output-perturbation-classic-eps10.json"), *html = NULL, err[256];
    json_object *root = json_tokener_parse(json);
    static const char hostile[] = "<script>alert(\"x\")</script> & 'q' <!-- <script>";
    json_object_object_add(root, "source", json_object_new_string(hostile));
    const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
                                                                JSON_C_TO_STRING_NOSLASHESCAPE);
    cr_assert_eq(ul_report_html_audit(text, NULL, 0, &html, err, sizeof err), UL_OK, "%s", err);
    /* the escaped form, written by hand from the five rules */
    cr_assert_not_null(strstr(html, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; "
                                    "&#39;q&#39; &lt;!-- &lt;script&gt;"));
    /* the one <script> element is the embedded JSON (no "<!--" in it, so
     * that its first "</script>" ends it), whose text parses back */
    const char *first = strstr(html, "<script");
    cr_assert_not_null(first);
    cr_assert(strncmp(first, "<script type=\"application/json\"", 31) == 0);
    cr_assert_null(strstr(html, "<!--"));
    cr_assert_null(strstr(strstr(first, "</script>"), "<script"), "a second <script element");
    embedded_equals(html, "ulaudit-report", root);
    json_object_put(root);
    free(html);
    ulaudit_free(json);
}

/* ---- calibrate and attack pages ---------------------------------------- */

Test(report_html, calibrate_page_shows_the_certificate_then_its_audit)
{
    char path[1024], err[512];
    repo_path(path, sizeof path, "audits/output-perturbation-classic-eps10.json");
    char *done = NULL, *json = NULL, *html = NULL;
    cr_assert_eq(ulaudit_calibrate_file(path, NULL, &done, err, sizeof err), ULAUDIT_OK, "%s",
                 err);
    cr_assert_eq(ulaudit_audit_string_forms(done, strlen(done), NULL, &json, NULL, NULL, err,
                                            sizeof err),
                 ULAUDIT_OK, "%s", err);
    cr_assert_eq(ul_report_html_calibrate(done, json, NULL, 0, &html, err, sizeof err), UL_OK,
                 "%s", err);
    check_page(html, json, "calibrate");
    char *pre = element_text(html, "<pre id=\"completed-certificate\">", "</pre>");
    cr_assert_str_eq(pre, done, "the <pre> is the completed certificate");
    cr_assert_lt(strstr(html, "id=\"completed-certificate\""), strstr(html, "id=\"verdict\""),
                 "the certificate comes first");
    json_object *cert = json_tokener_parse(done);
    embedded_equals(html, "ulaudit-certificate", cert);
    json_object_put(cert);
    free(pre);
    free(html);
    ulaudit_free(json);
    ulaudit_free(done);
}

/* The attack's JSON from the command (--scores: one score at the top). */
Test(report_html, attack_scores_page)
{
    char in[1024], out[1024], both[2100];
    repo_path(in, sizeof in, "examples/scores-gaussian-in.txt");
    repo_path(out, sizeof out, "examples/scores-gaussian-out.txt");
    snprintf(both, sizeof both, "%s,%s", in, out);
    run_result r = run("attack", "--scores", both, "--claim-eps", "2", "--delta", "1e-5", "--json",
                       NULL);
    cr_assert_str_neq(r.out, "", "attack --scores gave nothing: %s", r.err);
    char *html = NULL, err[256];
    cr_assert_eq(ul_report_html_attack(r.out, NULL, 0, &html, err, sizeof err), UL_OK, "%s", err);
    check_page(html, r.out, "attack --scores");
    cr_assert_not_null(strstr(html, "data-key=\"tpr_at_fpr.0.01\""));
    cr_assert_not_null(strstr(html, "data-key=\"gdp_estimate.eps\""));
    cr_assert_not_null(strstr(html, "not certified"), "the GDP estimate's label");
    free(html);
    run_free(&r);
}

/* result.json's shape (scores under "scores"), with runs_needed set: the
 * capacity warning shows it. */
Test(report_html, attack_result_page_with_capacity_warning)
{
    char cfg[1024];
    repo_path(cfg, sizeof cfg, "examples/attack-mlp.json");
    char dir[] = "/tmp/ulaudit-html-attack-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char outdir[256], res[300];
    snprintf(outdir, sizeof outdir, "%s/out", dir);
    run_result r = run("attack", cfg, "--out", outdir, NULL);
    snprintf(res, sizeof res, "%s/result.json", outdir);
    char *json = slurp(res);
    json_object *root = json_tokener_parse(json);
    cr_assert_not_null(root);
    json_object_object_add(root, "runs_needed", json_object_new_int64(4096));
    const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY);
    /* the attack's own cairo figures: ids shared (glyph0-1, clip1) */
    char svg_path[2][320];
    snprintf(svg_path[0], sizeof svg_path[0], "%s/eps-delta.svg", outdir);
    snprintf(svg_path[1], sizeof svg_path[1], "%s/roc-loss.svg", outdir);
    char *svg[2] = {slurp(svg_path[0]), slurp(svg_path[1])};
    ul_report_figure figs[2] = {{svg[0], strlen(svg[0]), "eps-delta", "eps-delta", NULL},
                                {svg[1], strlen(svg[1]), "ROC", "ROC", NULL}};
    char *html = NULL, err[256];
    cr_assert_eq(ul_report_html_attack(text, figs, 2, &html, err, sizeof err), UL_OK, "%s", err);
    check_page(html, text, "result.json");
    cr_assert_gt(ids_resolve(html), 0);
    free(svg[0]);
    free(svg[1]);
    cr_assert_not_null(strstr(html, "data-key=\"scores.1.tpr_at_fpr.0.1\""));
    char *warn = element_text(html, "<p id=\"capacity-warning\"", "</p>");
    cr_assert_not_null(strstr(warn, ">4096<"), "%s", warn);
    free(warn);
    free(html);
    json_object_put(root);
    free(json);
    run_free(&r);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* ---- the commands ------------------------------------------------------- */

static bool exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

Test(report_html, audit_html_writes_the_page_and_keeps_stdout)
{
    setenv("SOURCE_DATE_EPOCH", "0", 1);
    char cert[1024], file[] = "/tmp/ulaudit-html-cli-XXXXXX";
    repo_path(cert, sizeof cert, "audits/output-perturbation-classic-eps10.json");
    cr_assert_not_null(mkdtemp(file));
    char page[200];
    snprintf(page, sizeof page, "%s/report.html", file);
    for (int json = 0; json < 2; json++) {
        run_result plain = run("audit", cert, json ? "--json" : NULL, NULL);
        run_result with = run("audit", cert, "--html", page, json ? "--json" : NULL, NULL);
        cr_assert_eq(with.status, plain.status, "stderr: %s", with.err);
        cr_assert_str_eq(with.out, plain.out, "stdout changed by --html");
        char *html = slurp(page);
        if (json)
            check_page(html, plain.out, "audit --html");
        free(html);
        cr_assert_eq(unlink(page), 0);
        run_free(&plain);
        run_free(&with);
    }
    cr_assert_eq(rmdir(file), 0);
}

Test(report_html, audit_html_unwritable_is_exit_2_naming_the_flag)
{
    char cert[1024];
    repo_path(cert, sizeof cert, "audits/output-perturbation-classic-eps10.json");
    const char *bad = "/tmp/ulaudit-no-such-dir-for-html/x.html";
    expect_usage_error("--html", run("audit", cert, "--html", bad, NULL));
    cr_assert(!exists(bad));
    expect_usage_error("--html", run("audit", cert, "--html", "/tmp", NULL));
    expect_usage_error("--html", run("calibrate", cert, "--html", bad, NULL));
    cr_assert(!exists(bad));
}

Test(report_html, calibrate_html_writes_the_page_and_keeps_stdout)
{
    setenv("SOURCE_DATE_EPOCH", "0", 1);
    char cert[1024], dir[] = "/tmp/ulaudit-html-cal-XXXXXX";
    repo_path(cert, sizeof cert, "audits/output-perturbation-classic-eps10.json");
    cr_assert_not_null(mkdtemp(dir));
    char page[200];
    snprintf(page, sizeof page, "%s/cal.html", dir);
    run_result plain = run("calibrate", cert, NULL);
    run_result with = run("calibrate", cert, "--html", page, NULL);
    cr_assert_eq(with.status, 0, "stderr: %s", with.err);
    cr_assert_str_eq(with.out, plain.out);
    char *html = slurp(page);
    char *pre = element_text(html, "<pre id=\"completed-certificate\">", "</pre>");
    cr_assert_str_eq(pre, plain.out, "the page shows the certificate calibrate prints");
    /* its audit is `audit --json` of that certificate as a file (the same
     * bytes, so the same hash) */
    char done[220];
    snprintf(done, sizeof done, "%s/done.json", dir);
    FILE *f = fopen(done, "w");
    fputs(plain.out, f);
    fclose(f);
    run_result audit = run("audit", "--json", done, NULL);
    json_object *rep = json_tokener_parse(audit.out);
    cr_assert_not_null(rep, "audit --json: %s", audit.err);
    embedded_equals(html, "ulaudit-report", rep);
    json_object_put(rep);
    free(pre);
    free(html);
    run_free(&audit);
    cr_assert_eq(unlink(done), 0);
    run_free(&plain);
    run_free(&with);
    cr_assert_eq(unlink(page), 0);
    cr_assert_eq(rmdir(dir), 0);
}
