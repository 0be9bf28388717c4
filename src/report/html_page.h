/* src/report/html_page.h — private to src/report/html*.c: the parts every
 * page of the HTML report shares (html.h is the contract): a page buffer,
 * escaping, the value writers (data-key spans), the figures, the head and
 * the tail with the embedded JSON. */
#ifndef UL_REPORT_HTML_PAGE_H
#define UL_REPORT_HTML_PAGE_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "report/html.h"

/* A page being written: f writes into buf (open_memstream). */
typedef struct {
    FILE *f;
    char *buf;
    size_t len;
    json_object *root; /* the object the page shows (the data-key paths' root) */
} ul_html_page;

/* Parses json (a JSON object, named `what` in the error) and opens the
 * page.  UL_EINPUT, UL_ENOMEM. */
ul_status ul_html_begin(ul_html_page *p, const char *json, const char *what, char *err,
                        size_t errlen);

/* Closes the page: *html is its text (malloc'd), or UL_ENOMEM when a write
 * failed.  Frees everything either way. */
ul_status ul_html_end(ul_html_page *p, char **html, char *err, size_t errlen);

/* Frees the page after an error (nothing returned). */
void ul_html_abandon(ul_html_page *p);

/* s escaped as HTML text or attribute value (& < > " '). */
void ul_html_text(FILE *f, const char *s);

/* The value at PATH ("a.b.0.c": keys and array indexes), or NULL. */
json_object *ul_html_at(json_object *root, const char *path);

/* The value's text as the page shows it: a string's characters, a number's
 * JSON literal, "true"/"false"; NULL for null, objects and arrays. */
const char *ul_html_scalar(json_object *v);

/* <span class="num" data-key="PATH">TEXT</span> for the value at PATH (a
 * number, or a decimal string), or <span class="none">none</span> when it
 * is absent or null. */
void ul_html_num(ul_html_page *p, const char *path);

/* The same with class "field" (a name, a hash, a time, in <code>). */
void ul_html_field(ul_html_page *p, const char *path);

/* The string at PATH as escaped text (a sentence: its numbers are the
 * JSON's own characters), or `absent` when it is null or missing. */
void ul_html_prose(ul_html_page *p, const char *path, const char *absent);

/* <dt>TERM</dt><dd>VALUE</dd>: the value at path as a number span
 * (kind 'n'), a field (kind 'f') or prose (kind 'p'). */
void ul_html_dl(ul_html_page *p, const char *term, const char *path, char kind);

/* "[LO, HI]": the spans of PREFIX+lo and PREFIX+hi ("recomputed." "lo"). */
void ul_html_enclosure(ul_html_page *p, const char *prefix, const char *lo, const char *hi);

/* <!DOCTYPE> to <body>: title (escaped), body class. */
void ul_html_head(ul_html_page *p, const char *title, const char *body_class);

/* The verdict block: <p id="verdict" class="verdict verdict-NAME">NAME</p>
 * (NAME the string at key, lower case letters kept, anything else '-' in
 * the class) and the explanation paragraph <p id="explanation"> (the
 * string at explain_key, or words when explain_key is NULL). */
void ul_html_verdict(ul_html_page *p, const char *key, const char *explain_key,
                     const char *words);

/* The figures section: each figure inlined (html.h), or its why. */
ul_status ul_html_figures(ul_html_page *p, const ul_report_figure *figs, size_t n, char *err,
                          size_t errlen);

/* The embedded JSON: <script type="application/json" id="ID"> holding json
 * verbatim, "</" written "<\/" and "<!--" written "<\u0021--" (both the
 * same JSON: "<" occurs only inside strings). */
void ul_html_embed(ul_html_page *p, const char *id, const char *json);

/* </main>, the embedded report (the page's JSON), </body></html>. */
void ul_html_tail(ul_html_page *p, const char *json);

/* The page's end after its sections wrote with status st: when st is
 * UL_OK, the tail (json embedded) and ul_html_end; else the page is
 * abandoned and st returned. */
ul_status ul_html_finish(ul_html_page *p, ul_status st, const char *json, char **html, char *err,
                         size_t errlen);

#endif
