/* src/io/fields.c — typed, path-named reading of the fields of a JSON
 * object against a field table (see fields.h): the certificate's
 * "parameters" / "claim" / "stated" (cert/cert.c) and the attack
 * configuration (emp/attack_config.c) are read by this one reader. */
#include "io/fields.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "num/encl.h"
#include "num/input.h"

_Static_assert(UL_NUM_DECIMAL_MAX_CHARS == UL_JSON_MAX_NUMBER_CHARS,
               "a JSON number and a string of decimal text have the same length limit");

/* ---- the arena ---------------------------------------------------------------
 * The values read are owned by an arena (a certificate owns one: its
 * ul_cert_read_object takes a const certificate yet hands out arrays it
 * owns; not thread-safe on one arena). */

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

/* The names other tools give the quantities this one calls otherwise
 * (Opacus, dp_accounting, TF Privacy, the papers): a suggestion only when
 * the canonical name is one of the candidates. */
static const struct {
    const char *alias, *name;
} ALIASES[] = {
    {"epsilon", "eps"},         {"target-epsilon", "eps"},  {"target-delta", "delta"},
    {"noise-multiplier", "sigma"}, {"noise", "sigma"},      {"sample-rate", "q"},
    {"sampling-rate", "q"},     {"sampling-probability", "q"}, {"iterations", "steps"},
    {"epochs", "steps"},        {"order", "alpha"},         {"orders", "alphas"},
};

static const char *closest(const char *word, const char *const *names, size_t n)
{
    for (size_t k = 0; k < sizeof ALIASES / sizeof ALIASES[0]; k++)
        if (strcmp(word, ALIASES[k].alias) == 0)
            for (size_t i = 0; i < n; i++)
                if (strcmp(names[i], ALIASES[k].name) == 0)
                    return names[i];
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t i = 0; i < n; i++) {
        size_t d = distance(word, names[i]);
        size_t limit = strlen(names[i]) <= 3 ? 1 : 2;
        if (d <= limit && d < best_d)
            best = names[i], best_d = d;
    }
    return best;
}

/* "did you mean 'sigma'? " when one candidate is close to word, then
 * "known: a, b, c" — written into out. */
void ul_io_suggest(char *out, size_t outlen, const char *word, const char *const *names, size_t n)
{
    const char *best = closest(word, names, n);
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

void ul_io_did_you_mean(char *out, size_t outlen, const char *word, const char *const *names,
                        size_t n, const char *prefix)
{
    const char *best = closest(word, names, n);
    if (best != NULL)
        snprintf(out, outlen, " (did you mean '%s%s'?)", prefix, best);
    else if (outlen > 0)
        out[0] = '\0';
}

/* text as a quoted, one-line excerpt: control characters, '"' and '\\'
 * escaped, cut after about max bytes at a UTF-8 character boundary. */
void ul_io_quote(char *out, size_t outlen, const char *text, size_t max)
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
void ul_io_describe(char *out, size_t outlen, const ul_json_value *v)
{
    char q[96];
    if (v->type == UL_JSON_STRING) {
        ul_io_quote(q, sizeof q, v->text, 60);
        snprintf(out, outlen, "the string %s", q);
    } else if (v->type == UL_JSON_NUMBER)
        snprintf(out, outlen, "the number %.60s%s", v->text, v->text_len > 60 ? "..." : "");
    else if (v->type == UL_JSON_BOOL)
        snprintf(out, outlen, "%s", v->boolean ? "true" : "false");
    else
        snprintf(out, outlen, "%s", ul_json_type_name(v->type));
}

bool ul_io_in_list(const char *s, const char *const *list)
{
    for (size_t i = 0; list[i] != NULL; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

size_t ul_io_list_len(const char *const *list)
{
    size_t n = 0;
    while (list[n] != NULL)
        n++;
    return n;
}

/* The first key of obj not among names[0..n), as an error; UL_OK if none. */
ul_status ul_io_check_keys(const ul_json_value *obj, const char *path, const char *const *names,
                           size_t n, const char *what, char *err, size_t errlen)
{
    for (size_t i = 0; i < obj->count; i++) {
        const char *key = obj->items[i]->key;
        bool known = false;
        for (size_t j = 0; j < n && !known; j++)
            known = strcmp(key, names[j]) == 0;
        if (!known) {
            char p[UL_JSON_PATH_MAX], hint[512];
            ul_json_path_key(p, sizeof p, path, key);
            ul_io_suggest(hint, sizeof hint, key, names, n);
            return ul_fail(err, errlen, UL_EINPUT, "%s: unknown %s (%s)", p, what, hint);
        }
    }
    return UL_OK;
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
        ul_io_describe(got, sizeof got, v);
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: must be a decimal number (a JSON number, or a string of decimal text "
                       "like \"1e-6\"), got %s",
                       path, got);
    }
    if (v->type == UL_JSON_STRING && v->text_len <= UL_NUM_DECIMAL_MAX_CHARS &&
        !ul_num_is_decimal(v->text)) {
        /* the text quoted as JSON (escaped) */
        ul_io_describe(got, sizeof got, v);
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
    /* the range: the field's shared declaration (num/domain.h) when it
     * names one, its own ends otherwise; the words are the same */
    mpfi_t x;
    mpfi_init2(x, 64);
    const ul_domain *d = s->domain;
    ul_status st = d != NULL ? ul_num_read_checked(x, path, v->text, d->lo, d->lo_open, d->hi,
                                                   d->hi_open, err, errlen)
                             : ul_num_read_checked(x, path, v->text, s->lo, s->lo_strict, s->hi,
                                                   s->hi_strict, err, errlen);
    mpfi_clear(x);
    if (st == UL_OK)
        *text = v->text;
    return st;
}

static ul_status read_count(const ul_json_value *v, const ul_field_spec *s, const char *path,
                            ul_cert_value *out, char *err, size_t errlen)
{
    ul_status st = read_decimal(v, path, s, &out->text, err, errlen);
    if (st != UL_OK)
        return st;
    int lo_cmp, hi_cmp;
    bool ok = ul_num_decimal_compare(out->text, "0", &lo_cmp) &&
              ul_num_decimal_compare(out->text, UL_FIELD_COUNT_MAX, &hi_cmp) && lo_cmp >= 0 &&
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
                       UL_FIELD_COUNT_MAX, out->text, strlen(out->text) > 80 ? "..." : "");
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
            ul_io_describe(got, sizeof got, v);
            return ul_fail(err, errlen, UL_EINPUT, "%s: must be true or false, got %s", path, got);
        }
        out->boolean = v->boolean;
        out->text = v->boolean ? "true" : "false";
        return UL_OK;
    case UL_FIELD_STRING:
        if (v->type != UL_JSON_STRING) {
            ul_io_describe(got, sizeof got, v);
            return ul_fail(err, errlen, UL_EINPUT, "%s: must be a string, got %s", path, got);
        }
        if (s->choices != NULL && !ul_io_in_list(v->text, s->choices)) {
            char hint[512];
            ul_io_suggest(hint, sizeof hint, v->text, s->choices, ul_io_list_len(s->choices));
            ul_io_describe(got, sizeof got, v);
            return ul_fail(err, errlen, UL_EINPUT, "%s: not an allowed value, got %s (%s)", path,
                           got, hint);
        }
        out->text = v->text;
        return UL_OK;
    case UL_FIELD_DECIMAL_LIST: {
        if (v->type != UL_JSON_ARRAY) {
            ul_io_describe(got, sizeof got, v);
            return ul_fail(err, errlen, UL_EINPUT,
                           "%s: must be a non-empty list [...] of decimal numbers, got %s", path,
                           got);
        }
        if (v->count == 0)
            return ul_fail(err, errlen, UL_EINPUT,
                           "%s: must be a non-empty list of decimal numbers, got []", path);
        const char **items = pool_alloc(pl, v->count * sizeof *items);
        if (items == NULL)
            return ul_fail(err, errlen, UL_ENOMEM, "%s: out of memory for a list of %zu values",
                           path, v->count);
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
            ul_io_describe(got, sizeof got, v);
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
        return ul_fail(err, errlen, UL_ENOMEM, "%s: out of memory", path);
    for (size_t i = 0; i < n; i++) {
        if (specs[i].name == NULL)
            return ul_fail(err, errlen, UL_EINPUT, "%s: field table entry %zu has no name", path,
                           i);
        names[i] = specs[i].name;
    }
    if (obj != NULL) {
        ul_status st = ul_io_check_keys(obj, path, names, n, "field", err, errlen);
        if (st != UL_OK)
            return st;
    }
    for (size_t i = 0; i < n; i++) {
        const ul_field_spec *s = &specs[i];
        char p[UL_JSON_PATH_MAX];
        ul_json_path_key(p, sizeof p, path, s->name);
        vals[i] = (ul_cert_value){.name = s->name, .type = s->type};
        if ((vals[i].path = pool_strdup(pl, p)) == NULL)
            return ul_fail(err, errlen, UL_ENOMEM, "%s: out of memory", p);
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

ul_status ul_io_read_fields(ul_field_arena *arena, const ul_json_value *obj, const char *path,
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

ul_status ul_io_read_counts(const ul_cert_value *v, unsigned long hi, unsigned long *out,
                            size_t max, size_t *n, char *err, size_t errlen)
{
    *n = 0;
    if (v->type == UL_FIELD_COUNT) {
        out[(*n)++] = (unsigned long)v->count;
        return UL_OK;
    }
    if (v->n_items > max)
        return ul_fail(err, errlen, UL_EINPUT, "%s: at most %zu elements (got %zu)", v->path, max,
                       v->n_items);
    ul_status st = UL_OK;
    mpq_t q;
    mpq_init(q);
    for (size_t i = 0; i < v->n_items && st == UL_OK; i++) {
        bool whole = ul_num_decimal_to_mpq(q, v->items[i]) && mpz_cmp_ui(mpq_denref(q), 1) == 0 &&
                     mpq_sgn(q) >= 0 && mpz_cmp_ui(mpq_numref(q), hi) <= 0;
        if (!whole)
            st = ul_fail(err, errlen, UL_EINPUT,
                         "%s[%zu]: must be a whole number between 0 and %lu (got %s)", v->path, i,
                         hi, v->items[i]);
        else
            out[(*n)++] = mpz_get_ui(mpq_numref(q));
    }
    mpq_clear(q);
    return st;
}
