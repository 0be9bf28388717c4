/* src/report/html_page.c — what every page of the HTML report shares
 * (html_page.h): the buffer, escaping, the data-key writers, the head with
 * its one inline style, the verdict block, the figures and the embedded
 * JSON.  Nothing here reaches outside the file: no URL is written but the
 * figures' own fragment references (url(#fN-X), href="#fN-X"). */
#include "report/html_page.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_svg.h"

/* The page's one style: a system font stack (no web font), the verdict's
 * colour both as a background and as a border, so that a print without
 * backgrounds keeps it (@media print), and no figure split across pages. */
static const char CSS[] =
    ":root{--ok:#1b7a3a;--bad:#b3261e;--warn:#a15c00;--muted:#555}\n"
    "body{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,"
    "sans-serif;line-height:1.45;color:#111;background:#fff;margin:0}\n"
    "main{max-width:60rem;margin:0 auto;padding:1rem 1.25rem 3rem}\n"
    "h1{font-size:1.1rem;color:var(--muted);font-weight:600;margin:.5rem 0}\n"
    "h2{font-size:1.2rem;border-bottom:1px solid #ccc;padding-bottom:.2rem;margin-top:2rem}\n"
    ".verdict-box{border:3px solid var(--muted);border-radius:6px;padding:1rem 1.25rem}\n"
    ".verdict{font-size:2.4rem;font-weight:800;margin:0;text-transform:uppercase;"
    "letter-spacing:.04em}\n"
    ".verdict-supported,.verdict-consistent{border-color:var(--ok);color:var(--ok)}\n"
    ".verdict-unsupported,.verdict-refuted,.verdict-invalid{border-color:var(--bad);"
    "color:var(--bad)}\n"
    ".verdict-inconclusive{border-color:var(--warn);color:var(--warn)}\n"
    ".verdict-box.verdict-supported,.verdict-box.verdict-consistent{background:#eef8f0}\n"
    ".verdict-box.verdict-unsupported,.verdict-box.verdict-refuted,"
    ".verdict-box.verdict-invalid{background:#fcefee}\n"
    ".verdict-box.verdict-inconclusive{background:#fff6e5}\n"
    ".explanation{color:#111;margin:.6rem 0 0}\n"
    "table{border-collapse:collapse;width:100%;margin:.5rem 0}\n"
    "th,td{border:1px solid #bbb;padding:.3rem .5rem;text-align:left;vertical-align:top}\n"
    "th{background:#f2f2f2}\n"
    ".num,code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}\n"
    ".num{white-space:nowrap}\n"
    /* the attack's score table has a dozen columns: smaller, and its long
     * numbers may wrap rather than run off the page */
    "#scores-table{font-size:.82rem}#scores-table .num{white-space:normal;"
    "overflow-wrap:anywhere}\n"
    "pre{white-space:pre-wrap;overflow-wrap:anywhere;border:1px solid #bbb;padding:.5rem}\n"
    "dl.fields{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}\n"
    "dl.fields dt{font-weight:600}dl.fields dd{margin:0;overflow-wrap:anywhere}\n"
    ".state-holds{color:var(--ok);font-weight:600}\n"
    ".state-fails{color:var(--bad);font-weight:600}\n"
    ".state-undecided{color:var(--warn);font-weight:600}\n"
    ".none,.why{color:var(--muted);font-style:italic}\n"
    ".warning{border-left:4px solid var(--warn);padding-left:.6rem}\n"
    ".estimate{border-left:4px solid var(--muted);padding-left:.6rem}\n"
    "figure.figure{margin:1rem 0;border:1px solid #ccc;padding:.5rem}\n"
    "figure.figure svg{max-width:100%;height:auto}\n"
    "figcaption{color:var(--muted);font-size:.95rem}\n"
    "@media print{body{font-size:10.5pt}main{max-width:none;padding:0}"
    ".verdict-box{background:none!important;border-width:4px}"
    "th{background:none;border-bottom:2px solid #000}"
    "figure.figure,table,.verdict-box{break-inside:avoid;page-break-inside:avoid}"
    "h2{break-after:avoid;page-break-after:avoid}}\n";

ul_status ul_html_begin(ul_html_page *p, const char *json, const char *what, char *err,
                        size_t errlen)
{
    memset(p, 0, sizeof *p);
    if (json == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "%s: missing", what);
    p->root = json_tokener_parse(json);
    if (p->root == NULL || !json_object_is_type(p->root, json_type_object)) {
        json_object_put(p->root);
        p->root = NULL;
        return ul_fail(err, errlen, UL_EINPUT, "%s: not a JSON object", what);
    }
    p->f = open_memstream(&p->buf, &p->len);
    if (p->f == NULL) {
        json_object_put(p->root);
        return ul_fail(err, errlen, UL_ENOMEM, "html: out of memory for the page");
    }
    return UL_OK;
}

void ul_html_abandon(ul_html_page *p)
{
    if (p->f != NULL)
        fclose(p->f);
    free(p->buf);
    json_object_put(p->root);
    memset(p, 0, sizeof *p);
}

ul_status ul_html_end(ul_html_page *p, char **html, char *err, size_t errlen)
{
    /* the page's size follows the input (figures, texts): a failed write
     * is UL_ENOMEM (policy: num/status.h) */
    bool bad = ferror(p->f) != 0;
    bad |= fclose(p->f) != 0;
    p->f = NULL;
    if (bad || p->buf == NULL) {
        ul_html_abandon(p);
        *html = NULL;
        return ul_fail(err, errlen, UL_ENOMEM, "html: out of memory for the page");
    }
    *html = p->buf;
    p->buf = NULL;
    ul_html_abandon(p);
    return UL_OK;
}

void ul_html_text(FILE *f, const char *s)
{
    for (; *s != '\0'; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* At an object, the member named by the longest prefix of path ending at a
 * '.' or at its end that is a key, backtracking to a shorter one when the
 * rest does not resolve: keys may hold '.' (tpr_at_fpr's "0.01"). */
json_object *ul_html_at(json_object *root, const char *path)
{
    if (root == NULL || *path == '\0')
        return root;
    size_t len = strlen(path);
    if (json_object_is_type(root, json_type_array)) {
        char *end;
        unsigned long i = strtoul(path, &end, 10);
        if (end == path || (*end != '.' && *end != '\0'))
            return NULL;
        return ul_html_at(json_object_array_get_idx(root, i), *end == '.' ? end + 1 : end);
    }
    if (!json_object_is_type(root, json_type_object))
        return NULL;
    for (size_t n = len; n > 0; n--) {
        if (n < len && path[n] != '.')
            continue;
        char key[128];
        if (n >= sizeof key)
            continue;
        memcpy(key, path, n);
        key[n] = '\0';
        json_object *v;
        if (!json_object_object_get_ex(root, key, &v))
            continue;
        if (n == len)
            return v;
        json_object *r = ul_html_at(v, path + n + 1);
        if (r != NULL)
            return r;
    }
    return NULL;
}

const char *ul_html_scalar(json_object *v)
{
    switch (json_object_get_type(v)) {
    case json_type_string: return json_object_get_string(v);
    /* json-c keeps a parsed double's literal (json_object_new_double_s) and
     * prints an integer in its one decimal form */
    case json_type_int:
    case json_type_double:
    case json_type_boolean: return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
    default: return NULL;
    }
}

static void keyed(ul_html_page *p, const char *path, const char *open, const char *close)
{
    const char *t = ul_html_scalar(ul_html_at(p->root, path));
    if (t == NULL) {
        fputs("<span class=\"none\">none</span>", p->f);
        return;
    }
    fputs(open, p->f);
    fputs(" data-key=\"", p->f);
    ul_html_text(p->f, path);
    fputs("\">", p->f);
    ul_html_text(p->f, t);
    fputs(close, p->f);
}

void ul_html_num(ul_html_page *p, const char *path)
{
    keyed(p, path, "<span class=\"num\"", "</span>");
}

void ul_html_field(ul_html_page *p, const char *path)
{
    keyed(p, path, "<code class=\"field\"", "</code>");
}

void ul_html_prose(ul_html_page *p, const char *path, const char *absent)
{
    json_object *v = ul_html_at(p->root, path);
    if (json_object_is_type(v, json_type_string) && json_object_get_string_len(v) > 0)
        ul_html_text(p->f, json_object_get_string(v));
    else
        fprintf(p->f, "<span class=\"none\">%s</span>", absent);
}

void ul_html_dl(ul_html_page *p, const char *term, const char *path, char kind)
{
    fputs("<dt>", p->f);
    ul_html_text(p->f, term);
    fputs("</dt><dd>", p->f);
    if (kind == 'n')
        ul_html_num(p, path);
    else if (kind == 'f')
        ul_html_field(p, path);
    else
        ul_html_prose(p, path, "not stated");
    fputs("</dd>\n", p->f);
}

void ul_html_enclosure(ul_html_page *p, const char *prefix, const char *lo, const char *hi)
{
    char path[96];
    snprintf(path, sizeof path, "%s%s", prefix, lo);
    fputs("[", p->f);
    ul_html_num(p, path);
    fputs(", ", p->f);
    snprintf(path, sizeof path, "%s%s", prefix, hi);
    ul_html_num(p, path);
    fputs("]", p->f);
}

void ul_html_head(ul_html_page *p, const char *title, const char *body_class)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; img-src data:\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          p->f);
    ul_html_text(p->f, title);
    fprintf(p->f, "</title>\n<style>\n%s</style>\n</head>\n<body class=\"%s\">\n<main>\n", CSS,
            body_class);
}

/* The verdict as a class name: lower-case letters kept, others '-'. */
static void class_name(FILE *f, const char *s)
{
    for (; *s != '\0'; s++)
        fputc(islower((unsigned char)*s) ? *s : '-', f);
}

void ul_html_verdict(ul_html_page *p, const char *key, const char *explain_key,
                     const char *words)
{
    json_object *v = ul_html_at(p->root, key);
    const char *name = json_object_is_type(v, json_type_string) ? json_object_get_string(v)
                                                                  : "unknown";
    fputs("<section id=\"verdict-box\" class=\"verdict-box verdict-", p->f);
    class_name(p->f, name);
    fputs("\">\n<p id=\"verdict\" class=\"verdict verdict-", p->f);
    class_name(p->f, name);
    fputs("\">", p->f);
    ul_html_text(p->f, name);
    fputs("</p>\n<p id=\"explanation\" class=\"explanation\">", p->f);
    if (explain_key != NULL)
        ul_html_prose(p, explain_key, "no explanation given");
    else
        ul_html_text(p->f, words);
    fputs("</p>\n</section>\n", p->f);
}

static ul_status one_figure(ul_html_page *p, const ul_report_figure *fig, size_t n, char *err,
                            size_t errlen)
{
    fprintf(p->f, "<figure class=\"figure\" id=\"fig-%zu\"", n);
    if (fig->svg == NULL) {
        fputs(" data-missing=\"true\">\n<p class=\"why\">", p->f);
        ul_html_text(p->f, fig->why != NULL ? fig->why : "no figure was drawn");
        fputs("</p>\n", p->f);
    } else {
        fputs(" role=\"img\" aria-label=\"", p->f);
        ul_html_text(p->f, fig->alt != NULL ? fig->alt : "");
        fputs("\">\n", p->f);
        char prefix[32];
        snprintf(prefix, sizeof prefix, "f%zu-", n);
        ul_status st = ul_html_svg_inline(p->f, fig->svg, fig->svg_len, prefix, err, errlen);
        if (st != UL_OK) {
            char why[256];
            snprintf(why, sizeof why, "%s", err != NULL ? err : "");
            return ul_fail(err, errlen, st, "figure %zu: %s", n, why);
        }
        fputc('\n', p->f);
    }
    fputs("<figcaption>", p->f);
    ul_html_text(p->f, fig->caption != NULL ? fig->caption : "");
    fputs("</figcaption>\n</figure>\n", p->f);
    return UL_OK;
}

ul_status ul_html_figures(ul_html_page *p, const ul_report_figure *figs, size_t n, char *err,
                          size_t errlen)
{
    fputs("<section id=\"figures\">\n<h2>Figures</h2>\n", p->f);
    if (n == 0)
        fputs("<p class=\"none\">No figure.</p>\n", p->f);
    for (size_t i = 0; i < n; i++) {
        ul_status st = one_figure(p, &figs[i], i + 1, err, errlen);
        if (st != UL_OK)
            return st;
    }
    fputs("</section>\n", p->f);
    return UL_OK;
}

void ul_html_embed(ul_html_page *p, const char *id, const char *json)
{
    fprintf(p->f, "<script type=\"application/json\" id=\"%s\">", id);
    size_t len = strlen(json);
    while (len > 0 && isspace((unsigned char)json[len - 1]))
        len--;
    for (size_t i = 0; i < len; i++) {
        /* "<" occurs only inside JSON strings, where "\/" and "\u0021"
         * are escapes of "/" and "!": the text parses to the same object,
         * and neither "</script" nor "<!--" (which would change how the
         * HTML parser ends the element) is left */
        if (json[i] == '<' && json[i + 1] == '/') {
            fputs("<\\/", p->f);
            i++;
        } else if (strncmp(json + i, "<!--", 4) == 0) {
            fputs("<\\u0021--", p->f);
            i += 3;
        } else {
            fputc(json[i], p->f);
        }
    }
    fputs("</script>\n", p->f);
}

void ul_html_tail(ul_html_page *p, const char *json)
{
    fputs("</main>\n", p->f);
    ul_html_embed(p, "ulaudit-report", json);
    fputs("</body>\n</html>\n", p->f);
}

ul_status ul_html_finish(ul_html_page *p, ul_status st, const char *json, char **html, char *err,
                         size_t errlen)
{
    if (st != UL_OK) {
        ul_html_abandon(p);
        return st;
    }
    ul_html_tail(p, json);
    return ul_html_end(p, html, err, errlen);
}
