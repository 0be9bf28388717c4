/* src/cert/cert.c — the certificate envelope; its objects are read by the
 * typed field reader of io/fields.c. */
#include "cert/cert.h"
#include "cert/methods.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num/encl.h"
#include "num/input.h"

#define UL_CERT_METHOD_NAME(name, id) name,
const char *const ul_cert_methods[] = {UL_CERT_METHOD_LIST(UL_CERT_METHOD_NAME) NULL};
#undef UL_CERT_METHOD_NAME

const char *const ul_cert_verdicts[] = {
    "supported", "unsupported", "refuted", "invalid", "inconclusive", NULL,
};

static const char *const top_keys[] = {
    "format", "method", "source", "parameters", "claim", "stated", "expected", NULL,
};

struct ul_cert {
    ul_json_doc *doc;
    ul_field_arena *pool;
    const char *method, *source, *verdict, *explanation;
    const ul_json_value *parameters, *claim, *stated, *expected;
};

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
        ul_io_describe(got, sizeof got, v);
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
        ul_io_describe(got, sizeof got, v);
        return ul_fail(err, errlen, UL_EINPUT, "%s: must be an object {...} (%s), got %s", p, doc,
                       got);
    }
    *out = v;
    return UL_OK;
}

static ul_status check_envelope(ul_cert *c, char *err, size_t errlen)
{
    const ul_json_value *root = ul_json_root(c->doc);
    char got[128];
    if (root->type != UL_JSON_OBJECT) {
        ul_io_describe(got, sizeof got, root);
        return ul_fail(err, errlen, UL_EINPUT,
                       "$: a certificate must be a JSON object {\"format\": \"%s\", ...}, got %s",
                       UL_CERT_FORMAT, got);
    }
    ul_status st =
        ul_io_check_keys(root, "$", top_keys, ul_io_list_len(top_keys), "top-level field", err, errlen);
    if (st != UL_OK)
        return st;
    const char *format;
    if ((st = envelope_string(root, "format", true, &format, err, errlen)) != UL_OK)
        return st;
    char q[128];
    if (strcmp(format, UL_CERT_FORMAT) != 0) {
        ul_io_quote(q, sizeof q, format, 80);
        return ul_fail(err, errlen, UL_EINPUT,
                       "$.format: unsupported certificate format %s (this ulaudit reads \"%s\")", q,
                       UL_CERT_FORMAT);
    }
    if ((st = envelope_string(root, "method", true, &c->method, err, errlen)) != UL_OK)
        return st;
    if (!ul_io_in_list(c->method, ul_cert_methods)) {
        char hint[512];
        ul_io_suggest(hint, sizeof hint, c->method, ul_cert_methods, ul_io_list_len(ul_cert_methods));
        ul_io_quote(q, sizeof q, c->method, 80);
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
        if ((st = ul_io_read_fields(c->pool, c->expected, "$.expected", specs, 2, &vals, err,
                                    errlen)) != UL_OK)
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
    ul_field_arena *pl = ul_field_arena_new();
    if (c == NULL || pl == NULL) {
        free(c);
        ul_field_arena_free(pl);
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
    return ul_io_read_fields(c->pool, obj, path, specs, n, out, err, errlen);
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
