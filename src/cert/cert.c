/* src/cert/cert.c — the certificate envelope, typed fields with JSON paths,
 * and the atomic file writer. */
#define UL_NUM_CHECKED
#include "cert/cert.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "num/encl.h"
#include "num/input.h"

_Static_assert(UL_NUM_DECIMAL_MAX_CHARS == UL_JSON_MAX_NUMBER_CHARS,
               "a JSON number and a string of decimal text have the same length limit");

const char *const ul_cert_methods[] = {
    "gaussian-mechanism", "output-perturbation",
    "model-clipping",     "gradient-clipping",
    "dp-sgd-group",       "langevin",
    "noisy-gd",           "d2d",
    "rdp-curve",          "dp-sgd",
    NULL,
};

const char *const ul_cert_verdicts[] = {
    "supported", "unsupported", "refuted", "invalid", "inconclusive", NULL,
};

static const char *const top_keys[] = {
    "format", "method", "source", "parameters", "claim", "stated", "expected", NULL,
};

/* ---- memory owned by the certificate ---------------------------------------
 * ul_cert_read_object takes a const certificate yet hands out arrays the
 * certificate owns: they come from this pool, which the certificate points
 * to (not thread-safe on one certificate). */

typedef struct chunk {
    struct chunk *next;
    max_align_t data[];
} chunk;

struct ul_field_arena {
    chunk *chunks;
};
typedef struct ul_field_arena pool;

static void *pool_alloc(pool *p, size_t size)
{
    chunk *c = malloc(sizeof *c + (size ? size : 1));
    if (c == NULL)
        return NULL;
    c->next = p->chunks;
    p->chunks = c;
    return c->data;
}

static char *pool_strdup(pool *p, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = pool_alloc(p, n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

struct ul_cert {
    ul_json_doc *doc;
    pool *pool;
    const char *method, *source, *verdict, *explanation;
    const ul_json_value *parameters, *claim, *stated, *expected;
};

ul_field_arena *ul_field_arena_new(void)
{
    return calloc(1, sizeof(ul_field_arena));
}

void ul_field_arena_free(ul_field_arena *a)
{
    if (a == NULL)
        return;
    for (chunk *k = a->chunks, *next; k != NULL; k = next) {
        next = k->next;
        free(k);
    }
    free(a);
}

void ul_cert_free(ul_cert *c)
{
    if (c == NULL)
        return;
    ul_field_arena_free(c->pool);
    ul_json_free(c->doc);
    free(c);
}

const char *ul_cert_method(const ul_cert *c)
{
    return c->method;
}

const char *ul_cert_source(const ul_cert *c)
{
    return c->source;
}

const char *ul_cert_expected_verdict(const ul_cert *c)
{
    return c->verdict;
}

const char *ul_cert_expected_explanation(const ul_cert *c)
{
    return c->explanation;
}

const ul_json_value *ul_cert_object(const ul_cert *c, const char *object)
{
    if (strcmp(object, "parameters") == 0)
        return c->parameters;
    if (strcmp(object, "claim") == 0)
        return c->claim;
    if (strcmp(object, "stated") == 0)
        return c->stated;
    if (strcmp(object, "expected") == 0)
        return c->expected;
    return NULL;
}

/* ---- message helpers ---------------------------------------------------- */

/* Edit distance (insert, delete, substitute, swap neighbours), or a large
 * number for long strings. */
static size_t distance(const char *a, const char *b)
{
    size_t m = strlen(a), n = strlen(b);
    if (m > 40 || n > 40)
        return 1000;
    size_t d[41][41];
    for (size_t i = 0; i <= m; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= n; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= m; i++)
        for (size_t j = 1; j <= n; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[m][n];
}

/* "did you mean 'sigma'? " when one candidate is close to word, then
 * "known: a, b, c" — written into out. */
static void suggest(char *out, size_t outlen, const char *word, const char *const *names, size_t n)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t i = 0; i < n; i++) {
        size_t d = distance(word, names[i]);
        size_t limit = strlen(names[i]) <= 3 ? 1 : 2;
        if (d <= limit && d < best_d)
            best = names[i], best_d = d;
    }
    size_t len = 0;
    out[0] = '\0';
    if (best != NULL)
        len = (size_t)snprintf(out, outlen, "did you mean '%s'? ", best);
    if (len < outlen)
        len += (size_t)snprintf(out + len, outlen - len, "known: ");
    for (size_t i = 0; i < n && len < outlen; i++)
        len += (size_t)snprintf(out + len, outlen - len, "%s%s", i ? ", " : "", names[i]);
    if (n == 0 && len < outlen)
        snprintf(out + len, outlen - len, "none");
}

/* text as a quoted, one-line excerpt: control characters, '"' and '\\'
 * escaped, cut after about max bytes at a UTF-8 character boundary. */
static void quote(char *out, size_t outlen, const char *text, size_t max)
{
    size_t n = 0;
    const unsigned char *s = (const unsigned char *)text;
    if (outlen < 16) {
        if (outlen > 0)
            out[0] = '\0';
        return;
    }
    out[n++] = '"';
    for (; *s && n + 12 < outlen; s++) {
        bool boundary = (*s & 0xC0) != 0x80;
        if (boundary && (size_t)(s - (const unsigned char *)text) >= max)
            break;
        if (*s == '"' || *s == '\\')
            out[n++] = '\\', out[n++] = (char)*s;
        else if (*s < 0x20 || *s == 0x7F)
            n += (size_t)snprintf(out + n, outlen - n, "\\u%04x", *s);
        else
            out[n++] = (char)*s;
    }
    if (*s) {
        /* cut inside a UTF-8 character (s at one of its continuation
         * bytes): drop the part copied */
        if ((*s & 0xC0) == 0x80) {
            while (n > 1 && ((unsigned char)out[n - 1] & 0xC0) == 0x80)
                n--;
            if (n > 1 && (unsigned char)out[n - 1] >= 0xC0)
                n--;
        }
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n++] = '"';
    out[n] = '\0';
}

/* What a value is, for "got …" messages. */
static void describe(char *out, size_t outlen, const ul_json_value *v)
{
    char q[96];
    if (v->type == UL_JSON_STRING) {
        quote(q, sizeof q, v->text, 60);
        snprintf(out, outlen, "the string %s", q);
    } else if (v->type == UL_JSON_NUMBER)
        snprintf(out, outlen, "the number %.60s%s", v->text, v->text_len > 60 ? "..." : "");
    else if (v->type == UL_JSON_BOOL)
        snprintf(out, outlen, "%s", v->boolean ? "true" : "false");
    else
        snprintf(out, outlen, "%s", ul_json_type_name(v->type));
}

static bool in_list(const char *s, const char *const *list)
{
    for (size_t i = 0; list[i] != NULL; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

static size_t list_len(const char *const *list)
{
    size_t n = 0;
    while (list[n] != NULL)
        n++;
    return n;
}

/* The first key of obj not among names[0..n), as an error; UL_OK if none. */
static ul_status check_known_keys(const ul_json_value *obj, const char *path,
                                  const char *const *names, size_t n, const char *what, char *err,
                                  size_t errlen)
{
    for (size_t i = 0; i < obj->count; i++) {
        const char *key = obj->items[i]->key;
        bool known = false;
        for (size_t j = 0; j < n && !known; j++)
            known = strcmp(key, names[j]) == 0;
        if (!known) {
            char p[UL_JSON_PATH_MAX], hint[512];
            ul_json_path_key(p, sizeof p, path, key);
            suggest(hint, sizeof hint, key, names, n);
            return ul_fail(err, errlen, UL_EINPUT, "%s: unknown %s (%s)", p, what, hint);
        }
    }
    return UL_OK;
}

/* ---- the envelope --------------------------------------------------------- */

static ul_status envelope_string(const ul_json_value *root, const char *key, bool required,
                                 const char **out, char *err, size_t errlen)
{
    const ul_json_value *v = ul_json_get(root, key);
    *out = NULL;
    char p[UL_JSON_PATH_MAX], got[128];
    ul_json_path_key(p, sizeof p, "$", key);
    if (v == NULL)
        return required ? ul_fail(err, errlen, UL_EINPUT, "%s: missing required field", p) : UL_OK;
    if (v->type != UL_JSON_STRING) {
        describe(got, sizeof got, v);
        return ul_fail(err, errlen, UL_EINPUT, "%s: must be a string, got %s", p, got);
    }
    *out = v->text;
    return UL_OK;
}

static ul_status envelope_object(const ul_json_value *root, const char *key, bool required,
                                 const ul_json_value **out, const char *doc, char *err,
                                 size_t errlen)
{
    const ul_json_value *v = ul_json_get(root, key);
    *out = NULL;
    char p[UL_JSON_PATH_MAX], got[128];
    ul_json_path_key(p, sizeof p, "$", key);
    if (v == NULL)
        return required ? ul_fail(err, errlen, UL_EINPUT, "%s: missing required field (%s)", p, doc)
                        : UL_OK;
    if (v->type != UL_JSON_OBJECT) {
        describe(got, sizeof got, v);
        return ul_fail(err, errlen, UL_EINPUT, "%s: must be an object {...} (%s), got %s", p, doc,
                       got);
    }
    *out = v;
    return UL_OK;
}

static ul_status read_fields(pool *pl, const ul_json_value *obj, const char *path,
                             const ul_field_spec *specs, size_t n, ul_cert_values *out, char *err,
                             size_t errlen);

static ul_status check_envelope(ul_cert *c, char *err, size_t errlen)
{
    const ul_json_value *root = ul_json_root(c->doc);
    char got[128];
    if (root->type != UL_JSON_OBJECT) {
        describe(got, sizeof got, root);
        return ul_fail(err, errlen, UL_EINPUT,
                       "$: a certificate must be a JSON object {\"format\": \"%s\", ...}, got %s",
                       UL_CERT_FORMAT, got);
    }
    ul_status st =
        check_known_keys(root, "$", top_keys, list_len(top_keys), "top-level field", err, errlen);
    if (st != UL_OK)
        return st;
    const char *format;
    if ((st = envelope_string(root, "format", true, &format, err, errlen)) != UL_OK)
        return st;
    char q[128];
    if (strcmp(format, UL_CERT_FORMAT) != 0) {
        quote(q, sizeof q, format, 80);
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.format: unsupported certificate format %s (this ulaudit reads \"%s\")", q,
                       UL_CERT_FORMAT);
    }
    if ((st = envelope_string(root, "method", true, &c->method, err, errlen)) != UL_OK)
        return st;
    if (!in_list(c->method, ul_cert_methods)) {
        char hint[512];
        suggest(hint, sizeof hint, c->method, ul_cert_methods, list_len(ul_cert_methods));
        quote(q, sizeof q, c->method, 80);
        return ul_fail(err, errlen, UL_EINPUT, "$.method: unknown method %s (%s)", q, hint);
    }
    if ((st = envelope_string(root, "source", false, &c->source, err, errlen)) != UL_OK)
        return st;
    if ((st = envelope_object(root, "parameters", true, &c->parameters, "the method's parameters",
                              err, errlen)) != UL_OK)
        return st;
    if ((st = envelope_object(root, "claim", true, &c->claim, "the claimed guarantee", err,
                              errlen)) != UL_OK)
        return st;
    if ((st = envelope_object(root, "stated", false, &c->stated,
                              "intermediate numbers the certificate states", err, errlen)) != UL_OK)
        return st;
    if ((st = envelope_object(root, "expected", false, &c->expected,
                              "{\"verdict\": ..., \"explanation\": ...}", err, errlen)) != UL_OK)
        return st;
    if (c->expected != NULL) {
        const ul_field_spec specs[] = {
            {.name = "verdict",
             .type = UL_FIELD_STRING,
             .required = true,
             .choices = ul_cert_verdicts,
             .doc = "the verdict the audit should give"},
            {.name = "explanation",
             .type = UL_FIELD_STRING,
             .doc = "where the certificate's numbers come from"},
        };
        ul_cert_values vals;
        if ((st = read_fields(c->pool, c->expected, "$.expected", specs, 2, &vals, err, errlen)) !=
            UL_OK)
            return st;
        c->verdict = vals.v[0].text;
        c->explanation = vals.v[1].present ? vals.v[1].text : NULL;
    }
    return UL_OK;
}

static ul_status finish_load(ul_json_doc *doc, ul_cert **out, const char *file, char *err,
                             size_t errlen)
{
    ul_cert *c = calloc(1, sizeof *c);
    pool *pl = calloc(1, sizeof *pl);
    if (c == NULL || pl == NULL) {
        free(c);
        free(pl);
        ul_json_free(doc);
        return ul_fail(err, errlen, UL_EINPUT, "%s%sout of memory", file ? file : "",
                       file ? ": " : "");
    }
    c->doc = doc;
    c->pool = pl;
    char msg[768];
    ul_status st = check_envelope(c, msg, sizeof msg);
    if (st != UL_OK) {
        ul_fail(err, errlen, st, "%s%s%s", file ? file : "", file ? ": " : "", msg);
        ul_cert_free(c);
        return st;
    }
    *out = c;
    return UL_OK;
}

ul_status ul_cert_load(const char *path, ul_cert **out, char *err, size_t errlen)
{
    *out = NULL;
    ul_json_doc *doc;
    ul_status st = ul_json_parse_file(path, &doc, err, errlen);
    if (st != UL_OK)
        return st;
    return finish_load(doc, out, path, err, errlen);
}

ul_status ul_cert_load_buffer(const char *text, size_t len, ul_cert **out, char *err, size_t errlen)
{
    *out = NULL;
    ul_json_doc *doc;
    ul_status st = ul_json_parse(text, len, &doc, err, errlen);
    if (st != UL_OK)
        return st;
    return finish_load(doc, out, NULL, err, errlen);
}

/* ---- typed fields ----------------------------------------------------------- */

/* The decimal text of v (a JSON number, or a string of decimal text),
 * checked against the limits of exact input (ul_num_check_decimal) and
 * then against [lo, hi] exactly. */
static ul_status read_decimal(const ul_json_value *v, const char *path, const ul_field_spec *s,
                              const char **text, char *err, size_t errlen)
{
    char got[128];
    if (v->type != UL_JSON_NUMBER && v->type != UL_JSON_STRING) {
        describe(got, sizeof got, v);
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: must be a decimal number (a JSON number, or a string of decimal text "
                       "like \"1e-6\"), got %s",
                       path, got);
    }
    if (v->type == UL_JSON_STRING && v->text_len <= UL_NUM_DECIMAL_MAX_CHARS &&
        !ul_num_is_decimal(v->text)) {
        /* the text quoted as JSON (escaped) */
        describe(got, sizeof got, v);
        const char *t = v->text + (v->text[0] == '-' || v->text[0] == '+');
        bool non_finite = strcasecmp(t, "nan") == 0 || strcasecmp(t, "inf") == 0 ||
                          strcasecmp(t, "infinity") == 0;
        return ul_fail(err, errlen, UL_EINPUT,
                       non_finite ? "%s: must be finite (NaN and infinities are not numbers "
                                    "a certificate may use), got %s"
                                  : "%s: must be a decimal number like 0.5 or 1e-6 (a JSON "
                                    "number or a string of decimal text), got %s",
                       path, got);
    }
    /* the one check of every decimal's length and magnitude (num/input.h),
     * so that every later conversion succeeds (exact rationals for .exact) */
    if ((s->exact ? ul_num_check_exact(path, v->text, err, errlen)
                  : ul_num_check_decimal(path, v->text, err, errlen)) != UL_OK)
        return UL_EINPUT;
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = ul_num_read_checked(x, path, v->text, s->lo, s->lo_strict, s->hi, s->hi_strict,
                                       err, errlen);
    mpfi_clear(x);
    if (st == UL_OK)
        *text = v->text;
    return st;
}

static ul_status read_count(const ul_json_value *v, const ul_field_spec *s, const char *path,
                            ul_cert_value *out, char *err, size_t errlen)
{
    ul_status st =
        read_decimal(v, path, s, &out->text, err, errlen);
    if (st != UL_OK)
        return st;
    int lo_cmp, hi_cmp;
    bool ok = ul_num_decimal_compare(out->text, "0", &lo_cmp) &&
              ul_num_decimal_compare(out->text, UL_CERT_COUNT_MAX, &hi_cmp) && lo_cmp >= 0 &&
              hi_cmp <= 0;
    bool whole = false;
    if (ok) {
        mpq_t q;
        mpq_init(q);
        if (ul_num_decimal_to_mpq(q, out->text) && mpz_cmp_ui(mpq_denref(q), 1) == 0 &&
            mpz_fits_ulong_p(mpq_numref(q))) {
            whole = true;
            out->count = mpz_get_ui(mpq_numref(q));
        }
        mpq_clear(q);
    }
    if (!ok || !whole)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: must be a whole number from 0 to %s (got '%.80s%s')", path,
                       UL_CERT_COUNT_MAX, out->text, strlen(out->text) > 80 ? "..." : "");
    return UL_OK;
}

static ul_status read_one(pool *pl, const ul_json_value *v, const ul_field_spec *s,
                          const char *path, ul_cert_value *out, char *err, size_t errlen)
{
    char got[128];
    switch (s->type) {
    case UL_FIELD_DECIMAL:
        return read_decimal(v, path, s, &out->text, err, errlen);
    case UL_FIELD_COUNT:
        return read_count(v, s, path, out, err, errlen);
    case UL_FIELD_BOOL:
        if (v->type != UL_JSON_BOOL) {
            describe(got, sizeof got, v);
            return ul_fail(err, errlen, UL_EINPUT, "%s: must be true or false, got %s", path, got);
        }
        out->boolean = v->boolean;
        out->text = v->boolean ? "true" : "false";
        return UL_OK;
    case UL_FIELD_STRING:
        if (v->type != UL_JSON_STRING) {
            describe(got, sizeof got, v);
            return ul_fail(err, errlen, UL_EINPUT, "%s: must be a string, got %s", path, got);
        }
        if (s->choices != NULL && !in_list(v->text, s->choices)) {
            char hint[512];
            suggest(hint, sizeof hint, v->text, s->choices, list_len(s->choices));
            describe(got, sizeof got, v);
            return ul_fail(err, errlen, UL_EINPUT, "%s: not an allowed value, got %s (%s)", path,
                           got, hint);
        }
        out->text = v->text;
        return UL_OK;
    case UL_FIELD_DECIMAL_LIST: {
        if (v->type != UL_JSON_ARRAY) {
            describe(got, sizeof got, v);
            return ul_fail(err, errlen, UL_EINPUT,
                           "%s: must be a non-empty list [...] of decimal numbers, got %s", path,
                           got);
        }
        if (v->count == 0)
            return ul_fail(err, errlen, UL_EINPUT,
                           "%s: must be a non-empty list of decimal numbers, got []", path);
        const char **items = pool_alloc(pl, v->count * sizeof *items);
        if (items == NULL)
            return ul_fail(err, errlen, UL_EINPUT, "%s: out of memory", path);
        for (size_t i = 0; i < v->count; i++) {
            char p[UL_JSON_PATH_MAX];
            ul_json_path_index(p, sizeof p, path, i);
            ul_status st = read_decimal(v->items[i], p, s, &items[i], err, errlen);
            if (st != UL_OK)
                return st;
        }
        out->items = items;
        out->n_items = v->count;
        return UL_OK;
    }
    case UL_FIELD_OBJECT:
        if (v->type != UL_JSON_OBJECT) {
            describe(got, sizeof got, v);
            return ul_fail(err, errlen, UL_EINPUT, "%s: must be an object {...}, got %s", path,
                           got);
        }
        out->json = v;
        return UL_OK;
    case UL_FIELD_ANY:
        out->json = v;
        return UL_OK;
    }
    return ul_fail(err, errlen, UL_EINPUT, "%s: field table gives an unknown type", path);
}

static const char *type_doc(ul_field_type t)
{
    switch (t) {
    case UL_FIELD_DECIMAL:
        return "a decimal number";
    case UL_FIELD_COUNT:
        return "a whole number";
    case UL_FIELD_STRING:
        return "a string";
    case UL_FIELD_DECIMAL_LIST:
        return "a non-empty list of decimal numbers";
    case UL_FIELD_BOOL:
        return "true or false";
    case UL_FIELD_OBJECT:
        return "an object";
    case UL_FIELD_ANY:
        return "a value";
    }
    return "?";
}

static ul_status read_fields(pool *pl, const ul_json_value *obj, const char *path,
                             const ul_field_spec *specs, size_t n, ul_cert_values *out, char *err,
                             size_t errlen)
{
    *out = (ul_cert_values){0, NULL};
    const char **names = pool_alloc(pl, (n ? n : 1) * sizeof *names);
    ul_cert_value *vals = pool_alloc(pl, (n ? n : 1) * sizeof *vals);
    if (names == NULL || vals == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "%s: out of memory", path);
    for (size_t i = 0; i < n; i++) {
        if (specs[i].name == NULL)
            return ul_fail(err, errlen, UL_EINPUT, "%s: field table entry %zu has no name", path,
                           i);
        names[i] = specs[i].name;
    }
    if (obj != NULL) {
        ul_status st = check_known_keys(obj, path, names, n, "field", err, errlen);
        if (st != UL_OK)
            return st;
    }
    for (size_t i = 0; i < n; i++) {
        const ul_field_spec *s = &specs[i];
        char p[UL_JSON_PATH_MAX];
        ul_json_path_key(p, sizeof p, path, s->name);
        vals[i] = (ul_cert_value){.name = s->name, .type = s->type};
        if ((vals[i].path = pool_strdup(pl, p)) == NULL)
            return ul_fail(err, errlen, UL_EINPUT, "%s: out of memory", p);
        const ul_json_value *v = ul_json_get(obj, s->name);
        if (v == NULL) {
            if (s->required)
                return ul_fail(err, errlen, UL_EINPUT, "%s: missing required field (%s%s%s)", p,
                               type_doc(s->type), s->doc ? ": " : "", s->doc ? s->doc : "");
            continue;
        }
        ul_status st = read_one(pl, v, s, p, &vals[i], err, errlen);
        if (st != UL_OK)
            return st;
        vals[i].present = true;
    }
    *out = (ul_cert_values){n, vals};
    return UL_OK;
}

ul_status ul_cert_read_object(const ul_cert *c, const char *object, const ul_field_spec *specs,
                              size_t n, ul_cert_values *out, char *err, size_t errlen)
{
    *out = (ul_cert_values){0, NULL};
    const ul_json_value *obj;
    if (strcmp(object, "parameters") == 0)
        obj = c->parameters;
    else if (strcmp(object, "claim") == 0)
        obj = c->claim;
    else if (strcmp(object, "stated") == 0)
        obj = c->stated;
    else
        return ul_fail(err, errlen, UL_EINPUT,
                       "ul_cert_read_object: object must be parameters, claim or stated (got '%s')",
                       object);
    char path[UL_JSON_PATH_MAX];
    ul_json_path_key(path, sizeof path, "$", object);
    return read_fields(c->pool, obj, path, specs, n, out, err, errlen);
}

ul_status ul_json_read_fields(ul_field_arena *arena, const ul_json_value *obj, const char *path,
                              const ul_field_spec *specs, size_t n, ul_cert_values *out, char *err,
                              size_t errlen)
{
    *out = (ul_cert_values){0, NULL};
    if (obj != NULL && obj->type != UL_JSON_OBJECT)
        return ul_fail(err, errlen, UL_EINPUT, "%s: must be an object (got %s)", path,
                       ul_json_type_name(obj->type));
    return read_fields(arena, obj, path, specs, n, out, err, errlen);
}

const ul_cert_value *ul_cert_values_get(const ul_cert_values *vals, const char *name)
{
    for (size_t i = 0; i < vals->n; i++)
        if (strcmp(vals->v[i].name, name) == 0)
            return &vals->v[i];
    return NULL;
}

/* ---- atomic writing ---------------------------------------------------- */

ul_status ul_write_file_atomic(const char *path, ul_atomic_fill fill, void *ctx, int mode,
                               char *err, size_t errlen)
{
    static _Atomic unsigned counter;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        return ul_fail(err, errlen, UL_EINPUT, "%s: not a file name", path);
    size_t dir_len = slash == NULL ? 1 : slash == path ? 1 : (size_t)(slash - path);
    size_t cap = strlen(path) + 64;
    char *dir = malloc(dir_len + 1), *tmp = malloc(cap);
    if (dir == NULL || tmp == NULL) {
        free(dir);
        free(tmp);
        return ul_fail(err, errlen, UL_EINPUT, "%s: out of memory", path);
    }
    memcpy(dir, slash == NULL ? "." : slash == path ? "/" : path, dir_len);
    dir[dir_len] = '\0';

    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        /* "<dir>/.<base>.tmp.<pid>.<n>": same directory, so rename is atomic */
        snprintf(tmp, cap, "%.*s.%s.tmp.%ld.%u", (int)(base - path), path, base, (long)getpid(),
                 counter++);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    ul_status st = UL_OK;
    if (fd < 0) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s: cannot create a temporary file in %s: %s", path,
                     dir, strerror(errno));
        goto done;
    }
    FILE *f = fdopen(fd, "wb");
    const char *reason = NULL;
    if (f == NULL) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s: cannot open the temporary file: %s", path,
                     strerror(errno));
        close(fd);
    } else if (mode >= 0 && fchmod(fd, (mode_t)mode) != 0) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s: cannot set the file's mode: %s", path,
                     strerror(errno));
    } else if ((reason = fill(f, ctx)) != NULL) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s: %s", path, reason);
    } else if (fflush(f) != 0 || ferror(f)) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s: write failed: %s", path, strerror(errno));
    } else if (fsync(fd) != 0) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s: fsync failed: %s", path, strerror(errno));
    }
    if (f != NULL && fclose(f) != 0 && st == UL_OK)
        st = ul_fail(err, errlen, UL_EINPUT, "%s: close failed: %s", path, strerror(errno));
    if (st == UL_OK && rename(tmp, path) != 0)
        st = ul_fail(err, errlen, UL_EINPUT, "%s: cannot replace the file: %s", path,
                     strerror(errno));
    if (st != UL_OK) {
        unlink(tmp);
        goto done;
    }
    /* Make the rename itself durable (best effort: some file systems refuse). */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
done:
    free(dir);
    free(tmp);
    return st;
}

typedef struct {
    const void *data;
    size_t len;
} bytes;

static const char *fill_bytes(FILE *f, void *ctx)
{
    const bytes *b = ctx;
    return b->len == 0 || fwrite(b->data, 1, b->len, f) == b->len ? NULL : "write failed";
}

ul_status ul_cert_write_atomic(const char *path, const void *data, size_t len, char *err,
                               size_t errlen)
{
    bytes b = {data, len};
    return ul_write_file_atomic(path, fill_bytes, &b, -1, err, errlen);
}

/* ---- re-serialising ------------------------------------------------------ */

static void put_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p == '\r')
            fputs("\\r", f);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* Writes v at indentation depth: numbers as their original decimal text;
 * in the object `target` (when v is it), the member `field` gets the literal
 * `number` (appended when absent). */
static void put_json_value(FILE *f, const ul_json_value *v, int depth, const ul_json_value *target,
                           const char *field, const char *number)
{
    switch (v->type) {
    case UL_JSON_NULL:
        fputs("null", f);
        return;
    case UL_JSON_BOOL:
        fputs(v->boolean ? "true" : "false", f);
        return;
    case UL_JSON_NUMBER:
        fwrite(v->text, 1, v->text_len, f);
        return;
    case UL_JSON_STRING:
        put_json_string(f, v->text);
        return;
    case UL_JSON_ARRAY:
        fputc('[', f);
        for (size_t i = 0; i < v->count; i++) {
            if (i)
                fputs(", ", f);
            put_json_value(f, v->items[i], depth + 1, NULL, NULL, NULL);
        }
        fputc(']', f);
        return;
    case UL_JSON_OBJECT: {
        bool put = false;
        fputs("{", f);
        for (size_t i = 0; i < v->count; i++) {
            fprintf(f, "%s\n%*s", i ? "," : "", 2 * (depth + 1), "");
            put_json_string(f, v->items[i]->key);
            fputs(": ", f);
            if (v == target && strcmp(v->items[i]->key, field) == 0) {
                fputs(number, f);
                put = true;
            } else {
                put_json_value(f, v->items[i], depth + 1, NULL, NULL, NULL);
            }
        }
        if (v == target && !put) {
            fprintf(f, "%s\n%*s", v->count ? "," : "", 2 * (depth + 1), "");
            put_json_string(f, field);
            fprintf(f, ": %s", number);
        }
        fprintf(f, "\n%*s}", 2 * depth, "");
        return;
    }
    }
}

ul_status ul_cert_to_json_with(const ul_cert *c, const char *object, const char *field,
                               const char *decimal_text, char **out, char *err, size_t errlen)
{
    *out = NULL;
    static const char *const objs[] = {"parameters", "claim", "stated"};
    bool known = false;
    for (size_t k = 0; k < 3; k++)
        known = known || (object != NULL && strcmp(object, objs[k]) == 0);
    if (!known)
        return ul_fail(err, errlen, UL_EINPUT,
                       "ul_cert_to_json_with: object must be parameters, claim or stated (got "
                       "'%s')",
                       object != NULL ? object : "(null)");
    if (field == NULL || field[0] == '\0')
        return ul_fail(err, errlen, UL_EINPUT, "ul_cert_to_json_with: empty field name");
    /* the number must be one JSON number literal, nothing else */
    ul_json_doc *num = NULL;
    char e2[256];
    size_t len = decimal_text != NULL ? strlen(decimal_text) : 0;
    bool is_number = len > 0 && ul_json_parse(decimal_text, len, &num, e2, sizeof e2) == UL_OK &&
                     ul_json_root(num)->type == UL_JSON_NUMBER &&
                     strspn(decimal_text, "0123456789+-.eE") == len;
    ul_json_free(num);
    if (!is_number)
        return ul_fail(err, errlen, UL_EINPUT, "$.%s.%s: '%s' is not a JSON number literal", object,
                       field, decimal_text != NULL ? decimal_text : "(null)");

    char *buf = NULL;
    size_t blen = 0;
    FILE *f = open_memstream(&buf, &blen);
    if (f == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "$.%s.%s: out of memory", object, field);
    fputs("{\n  \"format\": ", f);
    put_json_string(f, UL_CERT_FORMAT);
    fputs(",\n  \"method\": ", f);
    put_json_string(f, ul_cert_method(c));
    if (ul_cert_source(c) != NULL) {
        fputs(",\n  \"source\": ", f);
        put_json_string(f, ul_cert_source(c));
    }
    for (size_t k = 0; k < 3; k++) {
        const ul_json_value *o = ul_cert_object(c, objs[k]);
        bool target = strcmp(objs[k], object) == 0;
        if (o == NULL && !target)
            continue;
        fprintf(f, ",\n  \"%s\": ", objs[k]);
        if (o == NULL) { /* only an absent "stated" (the others are required) */
            fputs("{\n    ", f);
            put_json_string(f, field);
            fprintf(f, ": %s\n  }", decimal_text);
        } else {
            put_json_value(f, o, 1, target ? o : NULL, field, decimal_text);
        }
    }
    fputs("\n}\n", f);
    if (fclose(f) != 0 || buf == NULL) {
        free(buf);
        return ul_fail(err, errlen, UL_EINPUT, "$.%s.%s: out of memory", object, field);
    }
    *out = buf;
    return UL_OK;
}
