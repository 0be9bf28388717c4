/* src/io/json.c — a strict JSON document reader (see json.h for why not json-c).
 *
 * Recursive descent over the RFC 8259 grammar.  The recursion depth is bounded
 * by UL_JSON_MAX_DEPTH, so the C stack is never at risk.  Every node and
 * string lives in one arena owned by the document; children are collected on
 * one shared scratch stack and copied into the arena when their container
 * closes, so no array is ever reallocated inside the arena.  Duplicate keys
 * are found when an object closes, by sorting its members (n log n: a 1 MiB
 * object of 100 000 keys costs milliseconds, not a quadratic scan).
 */
#include "io/json.h"

#include "io/file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- arena ---------------------------------------------------------------- */

typedef struct block {
    struct block *next;
    size_t used, cap; /* bytes of data */
    max_align_t data[];
} block;

struct ul_json_doc {
    block *blocks;
    const ul_json_value *root;
};

/* A node: the public value plus where its key starts (members only). */
typedef struct {
    ul_json_value v;
    size_t key_offset;
} node;

static void *arena_alloc(ul_json_doc *doc, size_t size)
{
    size_t align = sizeof(max_align_t);
    size = (size + align - 1) / align * align;
    block *b = doc->blocks;
    if (b == NULL || b->cap - b->used < size) {
        size_t cap = size > 65536 ? size : 65536;
        b = malloc(sizeof *b + cap);
        if (b == NULL)
            return NULL;
        b->cap = cap;
        b->used = 0;
        b->next = doc->blocks;
        doc->blocks = b;
    }
    void *p = (unsigned char *)b->data + b->used;
    b->used += size;
    return p;
}

void ul_json_free(ul_json_doc *doc)
{
    if (doc == NULL)
        return;
    for (block *b = doc->blocks, *next; b != NULL; b = next) {
        next = b->next;
        free(b);
    }
    free(doc);
}

const ul_json_value *ul_json_root(const ul_json_doc *doc)
{
    return doc == NULL ? NULL : doc->root;
}

const ul_json_value *ul_json_get(const ul_json_value *obj, const char *key)
{
    if (obj == NULL || obj->type != UL_JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < obj->count; i++)
        if (strcmp(obj->items[i]->key, key) == 0)
            return obj->items[i];
    return NULL;
}

const char *ul_json_type_name(ul_json_type type)
{
    switch (type) {
    case UL_JSON_NULL:
        return "null";
    case UL_JSON_BOOL:
        return "a boolean";
    case UL_JSON_NUMBER:
        return "a number";
    case UL_JSON_STRING:
        return "a string";
    case UL_JSON_ARRAY:
        return "an array";
    case UL_JSON_OBJECT:
        return "an object";
    }
    return "?";
}

/* ---- paths ---------------------------------------------------------------- */

static void append(char *out, size_t outlen, const char *s)
{
    size_t n = strlen(out);
    if (n + 1 >= outlen)
        return;
    size_t room = outlen - 1 - n, k = strlen(s);
    if (k <= room) {
        memcpy(out + n, s, k + 1);
        return;
    }
    /* Cut, ending in "..." when there is room for it. */
    memcpy(out + n, s, room);
    out[outlen - 1] = '\0';
    if (outlen >= 4)
        memcpy(out + outlen - 4, "...", 3);
}

static bool is_identifier(const char *key)
{
    if (!((*key >= 'A' && *key <= 'Z') || (*key >= 'a' && *key <= 'z') || *key == '_'))
        return false;
    for (const char *s = key; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-'))
            return false;
    return true;
}

void ul_json_path_key(char *out, size_t outlen, const char *parent, const char *key)
{
    if (outlen == 0)
        return;
    out[0] = '\0';
    append(out, outlen, parent);
    char piece[80];
    size_t n = 0, max = 64; /* key characters kept */
    if (is_identifier(key)) {
        piece[n++] = '.';
        const char *s = key;
        for (; *s && n < max; s++)
            piece[n++] = *s;
        if (*s) {
            memcpy(piece + n, "...", 3);
            n += 3;
        }
    } else {
        piece[n++] = '[';
        piece[n++] = '"';
        const char *s = key;
        for (; *s && n < max; s++) {
            unsigned char c = (unsigned char)*s;
            if (c == '"' || c == '\\')
                piece[n++] = '\\', piece[n++] = (char)c;
            else if (c < 0x20)
                n += (size_t)snprintf(piece + n, sizeof piece - n, "\\u%04x", c);
            else
                piece[n++] = (char)c;
        }
        if (*s) {
            memcpy(piece + n, "...", 3);
            n += 3;
        }
        piece[n++] = '"';
        piece[n++] = ']';
    }
    piece[n] = '\0';
    append(out, outlen, piece);
}

void ul_json_path_index(char *out, size_t outlen, const char *parent, size_t index)
{
    if (outlen == 0)
        return;
    out[0] = '\0';
    append(out, outlen, parent);
    char piece[32];
    snprintf(piece, sizeof piece, "[%zu]", index);
    append(out, outlen, piece);
}

/* ---- the parser ----------------------------------------------------------- */

typedef struct {
    const char *key; /* the member being read (objects), NULL before its key */
    size_t index;    /* the element being read (arrays) */
    bool in_object;
} frame;

typedef struct {
    const unsigned char *s;
    size_t len, pos;
    size_t line, line_start; /* of pos, kept by skip_ws (newlines occur only there) */
    ul_json_doc *doc;
    node **stack; /* scratch: children of the open containers */
    size_t stack_len, stack_cap;
    char *buf; /* scratch: the string being decoded */
    size_t buf_len, buf_cap;
    frame frames[UL_JSON_MAX_DEPTH];
    int depth;
    char *err;
    size_t errlen;
} parser;

static void current_path(const parser *p, char *out, size_t outlen, const char *extra_key)
{
    char a[UL_JSON_PATH_MAX], b[UL_JSON_PATH_MAX];
    snprintf(a, sizeof a, "$");
    for (int i = 0; i < p->depth; i++) {
        const frame *f = &p->frames[i];
        if (f->in_object && f->key == NULL)
            continue;
        if (f->in_object)
            ul_json_path_key(b, sizeof b, a, f->key);
        else
            ul_json_path_index(b, sizeof b, a, f->index);
        memcpy(a, b, sizeof a);
    }
    if (extra_key != NULL) {
        ul_json_path_key(b, sizeof b, a, extra_key);
        memcpy(a, b, sizeof a);
    }
    snprintf(out, outlen, "%s", a);
}

static void line_column(const parser *p, size_t pos, size_t *line, size_t *column)
{
    size_t l = 1, start = 0;
    for (size_t i = 0; i < pos && i < p->len; i++)
        if (p->s[i] == '\n')
            l++, start = i + 1;
    *line = l;
    *column = pos - start + 1;
}

/* The error at byte pos, in the container path plus extra_key (or NULL). */
__attribute__((format(printf, 4, 5))) static ul_status
fail_key(parser *p, size_t pos, const char *extra_key, const char *fmt, ...)
{
    if (p->err == NULL || p->errlen == 0)
        return UL_EINPUT;
    char path[UL_JSON_PATH_MAX], what[512];
    current_path(p, path, sizeof path, extra_key);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    size_t line, column;
    line_column(p, pos, &line, &column);
    snprintf(p->err, p->errlen, "%s: line %zu, column %zu (byte %zu): %s", path, line, column, pos,
             what);
    return UL_EINPUT;
}

#define fail(p, pos, ...) fail_key(p, pos, NULL, __VA_ARGS__)

/* Out of memory while parsing (the document is at most UL_JSON_MAX_BYTES,
 * but its nesting and members are the input's): UL_ENOMEM (num/status.h). */
static ul_status oom(parser *p)
{
    fail(p, p->pos, "out of memory");
    return UL_ENOMEM;
}

static bool at_end(const parser *p)
{
    return p->pos >= p->len;
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len) {
        unsigned char c = p->s[p->pos];
        if (c == '\n') {
            p->line++;
            p->line_start = p->pos + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            return;
        }
        p->pos++;
    }
}

static bool is_alnum(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool word_is(const unsigned char *w, size_t n, const char *lit)
{
    if (n != strlen(lit))
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char a = w[i], b = (unsigned char)lit[i];
        if (a >= 'A' && a <= 'Z')
            a = (unsigned char)(a - 'A' + 'a');
        if (a != b)
            return false;
    }
    return true;
}

static bool non_finite_word(const unsigned char *w, size_t n)
{
    return word_is(w, n, "nan") || word_is(w, n, "infinity") || word_is(w, n, "inf");
}

#define NON_FINITE_MSG                                                                             \
    "NaN and Infinity are not JSON; a certificate's numbers must be finite decimals"

/* Explains why the byte at pos cannot start/continue what was expected. */
static ul_status unexpected(parser *p, const char *expected)
{
    if (at_end(p))
        return fail(p, p->pos, "unexpected end of input: %s (truncated file?)", expected);
    unsigned char c = p->s[p->pos];
    if (c == '/')
        return fail(p, p->pos, "comments are not allowed in JSON");
    if (c == '\'')
        return fail(p, p->pos, "strings must be in double quotes, not single quotes");
    if (c >= 0x80)
        return fail(p, p->pos, "unexpected byte 0x%02X outside a string: %s", c, expected);
    if (c < 0x20 || c == 0x7F)
        return fail(p, p->pos, "unexpected control character 0x%02X: %s", c, expected);
    if (is_alnum(c)) {
        size_t n = 0;
        while (p->pos + n < p->len && is_alnum(p->s[p->pos + n]) && n < 40)
            n++;
        if (non_finite_word(p->s + p->pos, n))
            return fail(p, p->pos, NON_FINITE_MSG);
        return fail(p, p->pos,
                    "unexpected word '%.*s': %s (JSON's only words are true, false and null; "
                    "strings need double quotes)",
                    (int)n, (const char *)p->s + p->pos, expected);
    }
    return fail(p, p->pos, "unexpected character '%c': %s", c, expected);
}

static node *new_node(parser *p, ul_json_type type, size_t start)
{
    node *n = arena_alloc(p->doc, sizeof *n);
    if (n == NULL)
        return NULL;
    memset(n, 0, sizeof *n);
    n->v.type = type;
    n->v.offset = start;
    n->v.line = p->line;
    n->v.column = start - p->line_start + 1;
    return n;
}

static char *arena_strdup(parser *p, const char *s, size_t n)
{
    char *c = arena_alloc(p->doc, n + 1);
    if (c != NULL) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

static bool buf_put(parser *p, const char *bytes, size_t n)
{
    if (p->buf_len + n + 1 > p->buf_cap) {
        size_t cap = p->buf_cap ? p->buf_cap : 256;
        while (cap < p->buf_len + n + 1)
            cap *= 2;
        char *b = realloc(p->buf, cap);
        if (b == NULL)
            return false;
        p->buf = b;
        p->buf_cap = cap;
    }
    memcpy(p->buf + p->buf_len, bytes, n);
    p->buf_len += n;
    return true;
}

/* Length of the well-formed UTF-8 sequence at s[0..avail), or 0 (Unicode
 * Table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF). */
static size_t utf8_sequence(const unsigned char *s, size_t avail)
{
    unsigned char c = s[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF; /* range of the second byte */
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (avail < n || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

static int hex4(const unsigned char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static size_t utf8_encode(unsigned long cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Reads the string at pos (a '"') into the arena: *out, *out_len. */
static ul_status parse_string(parser *p, const char **out, size_t *out_len)
{
    size_t start = p->pos++;
    p->buf_len = 0;
    for (;;) {
        if (at_end(p))
            return fail(p, start,
                        "unterminated string: input ends before its closing '\"' "
                        "(truncated file?)");
        unsigned char c = p->s[p->pos];
        if (c == '"') {
            p->pos++;
            break;
        }
        if (c < 0x20)
            return fail(p, p->pos,
                        "raw control character 0x%02X in a string (escape it, e.g. \\n, \\t or "
                        "\\u%04X)",
                        c, c);
        if (c >= 0x80) {
            size_t n = utf8_sequence(p->s + p->pos, p->len - p->pos);
            if (n == 0)
                return fail(p, p->pos,
                            "invalid UTF-8 (byte 0x%02X does not start a valid sequence here); "
                            "a certificate must be UTF-8 text",
                            c);
            if (!buf_put(p, (const char *)p->s + p->pos, n))
                return oom(p);
            p->pos += n;
            continue;
        }
        if (c != '\\') {
            if (!buf_put(p, (const char *)&c, 1))
                return oom(p);
            p->pos++;
            continue;
        }
        size_t esc = p->pos++;
        if (at_end(p))
            return fail(p, start, "unterminated string (truncated file?)");
        c = p->s[p->pos++];
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *simple = c != 0 ? strchr(from, c) : NULL;
        if (simple != NULL) {
            if (!buf_put(p, to + (simple - from), 1))
                return oom(p);
            continue;
        }
        if (c != 'u')
            return fail(
                p, esc,
                "invalid escape '\\%c' (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
                c >= 0x20 && c < 0x7F ? c : '?');
        if (p->len - p->pos < 4 || hex4(p->s + p->pos) < 0)
            return fail(p, esc, "\\u must be followed by four hex digits");
        unsigned long cp = (unsigned long)hex4(p->s + p->pos);
        p->pos += 4;
        if (cp == 0)
            return fail(p, esc, "\\u0000 (a NUL character) is not allowed in strings");
        if (cp >= 0xDC00 && cp <= 0xDFFF)
            return fail(p, esc, "unpaired surrogate \\u%04lX", cp);
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            int low = -1;
            if (p->len - p->pos >= 6 && p->s[p->pos] == '\\' && p->s[p->pos + 1] == 'u')
                low = hex4(p->s + p->pos + 2);
            if (low < 0xDC00 || low > 0xDFFF)
                return fail(p, esc, "unpaired surrogate \\u%04lX", cp);
            p->pos += 6;
            cp = 0x10000 + ((cp - 0xD800) << 10) + ((unsigned long)low - 0xDC00);
        }
        char enc[4];
        if (!buf_put(p, enc, utf8_encode(cp, enc)))
            return oom(p);
    }
    char *s = arena_strdup(p, p->buf ? p->buf : "", p->buf_len);
    if (s == NULL)
        return oom(p);
    *out = s;
    *out_len = p->buf_len;
    return UL_OK;
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static size_t skip_digits(parser *p)
{
    size_t n = 0;
    while (!at_end(p) && is_digit(p->s[p->pos]))
        p->pos++, n++;
    return n;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, kept as text. */
static ul_status parse_number(parser *p, node **out)
{
    size_t start = p->pos;
    if (p->s[p->pos] == '-')
        p->pos++;
    if (at_end(p))
        return fail(p, start, "a '-' must be followed by digits (truncated file?)");
    if (!is_digit(p->s[p->pos])) {
        if (is_alnum(p->s[p->pos]))
            return unexpected(p, "digits after '-'");
        return fail(p, start, "a '-' must be followed by digits");
    }
    if (p->s[p->pos] == '0') {
        p->pos++;
        if (!at_end(p) && is_digit(p->s[p->pos]))
            return fail(p, start, "leading zeros are not allowed in JSON numbers");
    } else {
        skip_digits(p);
    }
    if (!at_end(p) && p->s[p->pos] == '.') {
        p->pos++;
        if (skip_digits(p) == 0)
            return fail(p, start, "a digit must follow the decimal point");
    }
    if (!at_end(p) && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
        p->pos++;
        if (!at_end(p) && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
            p->pos++;
        if (skip_digits(p) == 0)
            return fail(p, start, "the exponent of a number needs digits");
    }
    if (!at_end(p) && (is_alnum(p->s[p->pos]) || p->s[p->pos] == '.'))
        return fail(p, start, "malformed number ('%c' after '%.*s')", p->s[p->pos],
                    (int)(p->pos - start > 40 ? 40 : p->pos - start), (const char *)p->s + start);
    size_t n = p->pos - start;
    if (n > UL_JSON_MAX_NUMBER_CHARS)
        return fail(p, start, "number literal of %zu characters; the limit is %d", n,
                    UL_JSON_MAX_NUMBER_CHARS);
    node *v = new_node(p, UL_JSON_NUMBER, start);
    char *text = v ? arena_strdup(p, (const char *)p->s + start, n) : NULL;
    if (text == NULL)
        return oom(p);
    v->v.text = text;
    v->v.text_len = n;
    *out = v;
    return UL_OK;
}

static bool push_child(parser *p, node *n)
{
    if (p->stack_len == p->stack_cap) {
        size_t cap = p->stack_cap ? 2 * p->stack_cap : 64;
        node **s = realloc(p->stack, cap * sizeof *s);
        if (s == NULL)
            return false;
        p->stack = s;
        p->stack_cap = cap;
    }
    p->stack[p->stack_len++] = n;
    return true;
}

static int by_key_then_offset(const void *a, const void *b)
{
    const node *x = *(node *const *)a, *y = *(node *const *)b;
    int c = strcmp(x->v.key, y->v.key);
    if (c != 0)
        return c;
    return (x->key_offset > y->key_offset) - (x->key_offset < y->key_offset);
}

/* The earliest repeated key of an object's members, or NULL (the first
 * occurrence in *first). */
static const node *duplicate_key(node *const *members, size_t n, const node **first, bool *oom_flag)
{
    *oom_flag = false;
    if (n < 2)
        return NULL;
    node **sorted = malloc(n * sizeof *sorted);
    if (sorted == NULL) {
        *oom_flag = true;
        return NULL;
    }
    memcpy(sorted, members, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_key_then_offset);
    const node *dup = NULL;
    for (size_t i = 1; i < n; i++)
        if (strcmp(sorted[i]->v.key, sorted[i - 1]->v.key) == 0 &&
            (dup == NULL || sorted[i]->key_offset < dup->key_offset)) {
            dup = sorted[i];
            /* the first occurrence: the run's head */
            size_t j = i - 1;
            while (j > 0 && strcmp(sorted[j - 1]->v.key, dup->v.key) == 0)
                j--;
            *first = sorted[j];
        }
    free(sorted);
    return dup;
}

static ul_status parse_value(parser *p, node **out);

/* Moves the children pushed since `base` into the container. */
static bool close_container(parser *p, node *c, size_t base)
{
    size_t n = p->stack_len - base;
    c->v.count = n;
    if (n > 0) {
        const ul_json_value **items = arena_alloc(p->doc, n * sizeof *items);
        if (items == NULL)
            return false;
        for (size_t i = 0; i < n; i++)
            items[i] = &p->stack[base + i]->v;
        c->v.items = items;
    }
    p->stack_len = base;
    return true;
}

static ul_status parse_container(parser *p, node **out, bool object)
{
    size_t start = p->pos;
    if (p->depth >= UL_JSON_MAX_DEPTH)
        return fail(p, start,
                    "nesting deeper than %d levels (arrays and objects inside each other)",
                    UL_JSON_MAX_DEPTH);
    node *c = new_node(p, object ? UL_JSON_OBJECT : UL_JSON_ARRAY, start);
    if (c == NULL)
        return oom(p);
    char close = object ? '}' : ']';
    const char *kind = object ? "object" : "array";
    frame *f = &p->frames[p->depth++];
    *f = (frame){.key = NULL, .index = 0, .in_object = object};
    size_t base = p->stack_len;
    p->pos++;
    skip_ws(p);
    if (!at_end(p) && p->s[p->pos] == close) {
        p->pos++;
    } else {
        for (;;) {
            size_t key_offset = 0;
            const char *key = NULL;
            skip_ws(p);
            if (object) {
                f->key = NULL;
                if (at_end(p) || p->s[p->pos] != '"') {
                    if (!at_end(p) && p->s[p->pos] == '}' && f->index > 0)
                        return fail(p, p->pos, "trailing comma before '}' is not allowed");
                    if (!at_end(p) && is_alnum(p->s[p->pos]))
                        return fail(p, p->pos, "object keys must be strings in double quotes");
                    return unexpected(p, "a key in double quotes was expected");
                }
                key_offset = p->pos;
                size_t key_len;
                ul_status st = parse_string(p, &key, &key_len);
                if (st != UL_OK)
                    return st;
                f->key = key;
                skip_ws(p);
                if (at_end(p) || p->s[p->pos] != ':')
                    return unexpected(p, "':' was expected after the key");
                p->pos++;
            } else {
                skip_ws(p);
                if (!at_end(p) && p->s[p->pos] == ']' && f->index > 0)
                    return fail(p, p->pos, "trailing comma before ']' is not allowed");
            }
            node *child;
            ul_status st = parse_value(p, &child);
            if (st != UL_OK)
                return st;
            child->v.key = key;
            child->key_offset = key_offset;
            if (!push_child(p, child))
                return oom(p);
            skip_ws(p);
            if (at_end(p)) {
                char what[64];
                snprintf(what, sizeof what, "',' or '%c' was expected in this %s", close, kind);
                return unexpected(p, what);
            }
            unsigned char c2 = p->s[p->pos];
            if (c2 == ',') {
                p->pos++;
                f->index++;
                continue;
            }
            if (c2 == (unsigned char)close) {
                p->pos++;
                break;
            }
            char what[80];
            snprintf(what, sizeof what, "',' or '%c' was expected after this %s", close,
                     object ? "member" : "element");
            return unexpected(p, what);
        }
    }
    if (object && p->stack_len > base) { /* an empty object has no keys (and the stack may be NULL) */
        const node *first = NULL;
        bool no_memory;
        const node *dup = duplicate_key(p->stack + base, p->stack_len - base, &first, &no_memory);
        if (no_memory)
            return oom(p);
        if (dup != NULL) {
            size_t line, column;
            line_column(p, first->key_offset, &line, &column);
            f->key = NULL;
            return fail_key(p, dup->key_offset, dup->v.key,
                            "duplicate key (first given at line %zu, column %zu); each key may "
                            "appear once",
                            line, column);
        }
    }
    if (!close_container(p, c, base))
        return oom(p);
    p->depth--;
    *out = c;
    return UL_OK;
}

static ul_status parse_value(parser *p, node **out)
{
    skip_ws(p);
    if (at_end(p))
        return unexpected(p, "a value was expected");
    size_t start = p->pos;
    unsigned char c = p->s[p->pos];
    if (c == '{' || c == '[')
        return parse_container(p, out, c == '{');
    if (c == '"') {
        node *v = new_node(p, UL_JSON_STRING, start);
        if (v == NULL)
            return oom(p);
        ul_status st = parse_string(p, &v->v.text, &v->v.text_len);
        if (st != UL_OK)
            return st;
        *out = v;
        return UL_OK;
    }
    if (c == '-' || is_digit(c))
        return parse_number(p, out);
    if (c == '+')
        return fail(p, start, "a JSON number may not start with '+'");
    if (c == '.')
        return fail(p, start, "a JSON number needs a digit before the decimal point");
    static const char *const literals[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(literals[i]);
        if (p->len - p->pos >= n && memcmp(p->s + p->pos, literals[i], n) == 0 &&
            (p->len - p->pos == n || !is_alnum(p->s[p->pos + n]))) {
            node *v = new_node(p, i == 2 ? UL_JSON_NULL : UL_JSON_BOOL, start);
            if (v == NULL)
                return oom(p);
            v->v.boolean = i == 0;
            p->pos += n;
            *out = v;
            return UL_OK;
        }
    }
    return unexpected(p, "a value was expected");
}

ul_status ul_json_parse(const char *text, size_t len, ul_json_doc **out, char *err, size_t errlen)
{
    *out = NULL;
    parser p = {
        .s = (const unsigned char *)text, .len = len, .line = 1, .err = err, .errlen = errlen};
    if (len == 0)
        return fail(&p, 0, "empty input: no JSON value");
    if (len > UL_JSON_MAX_BYTES)
        return fail(&p, 0, "input is %zu bytes; the limit is %zu bytes (1 MiB)", len,
                    UL_JSON_MAX_BYTES);
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        return fail(&p, 0,
                    "a byte-order mark (EF BB BF) is not allowed; save as UTF-8 without BOM");
    p.doc = calloc(1, sizeof *p.doc);
    if (p.doc == NULL)
        return oom(&p);
    skip_ws(&p);
    ul_status st;
    node *root = NULL;
    if (at_end(&p))
        st = fail(&p, p.pos, "input holds only whitespace: no JSON value");
    else
        st = parse_value(&p, &root);
    if (st == UL_OK) {
        skip_ws(&p);
        if (!at_end(&p))
            st = fail(&p, p.pos, "unexpected content after the end of the JSON document%s",
                      p.s[p.pos] == '/' ? " (comments are not allowed in JSON)" : "");
    }
    free(p.stack);
    free(p.buf);
    if (st != UL_OK) {
        ul_json_free(p.doc);
        return st;
    }
    p.doc->root = &root->v;
    *out = p.doc;
    return UL_OK;
}

/* ---- files ---------------------------------------------------------------- */

ul_status ul_json_parse_file(const char *path, ul_json_doc **out, char *err, size_t errlen)
{
    *out = NULL;
    int fd;
    long long size;
    ul_status opened = ul_io_open_regular(path, "JSON file", true, &fd, &size, err, errlen);
    if (opened != UL_OK)
        return opened;
    if ((uintmax_t)size > UL_JSON_MAX_BYTES) {
        close(fd);
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: file is %jd bytes; the limit is %zu bytes (1 MiB)", path,
                       (intmax_t)size, UL_JSON_MAX_BYTES);
    }
    /* Read at most one byte past the limit: the file may have grown. */
    size_t cap = UL_JSON_MAX_BYTES + 1, len = 0;
    char *buf = malloc(cap);
    if (buf == NULL) {
        close(fd);
        return ul_fail(err, errlen, UL_ENOMEM, "%s: out of memory for a read buffer of %zu bytes",
                       path, cap);
    }
    while (len < cap) {
        ssize_t r = read(fd, buf + len, cap - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return ul_fail(err, errlen, UL_EINPUT, "%s: read error: %s", path, strerror(e));
        }
        if (r == 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    ul_status status;
    if (len == 0)
        status = ul_fail(err, errlen, UL_EINPUT, "%s: empty file: no JSON value", path);
    else if (len > UL_JSON_MAX_BYTES)
        status = ul_fail(err, errlen, UL_EINPUT,
                         "%s: file is larger than the limit of %zu bytes (1 MiB)", path,
                         UL_JSON_MAX_BYTES);
    else {
        char msg[768];
        status = ul_json_parse(buf, len, out, msg, sizeof msg);
        if (status != UL_OK)
            ul_fail(err, errlen, status, "%s: %s", path, msg);
    }
    free(buf);
    return status;
}
