/* src/calc/batch.c — the record reader and runner of `ulaudit calc
 * QUANTITY --batch FILE|-`: many points in one process.  The command line
 * (src/cli/calc_batch.c) reads its flags, opens the file and prints what
 * this file hands it through a callback; nothing here prints.
 *
 * Input: JSON lines (each line one object, keys = the quantity's flag names
 * without dashes, values numbers, strings or arrays joined with commas) or
 * CSV (a header line of flag names, then one row per point; a field may be
 * "quoted" to hold commas; an empty field takes the flag's default).  The
 * format is decided by the first line that is not blank or a # comment: a
 * '{' starts JSON lines.  Numbers are kept as their decimal text (the strict
 * reader of io/json.h), so 0.1 is one tenth, as on the command line.
 *
 * Flags given on the command line beside --batch (--digits 30, --delta
 * 1e-5, ...) apply to every record that does not set them itself.
 *
 * Output, through the callback, one call per record in input order: the
 * record's result (the object of `ulaudit calc QUANTITY --json`), or an
 * error naming the input line and the rule broken.  A bad record never
 * stops the run; the exit code at the end is 2 if any record was bad, else
 * 3 if any enclosure hit the precision cap or a record ran out of its time
 * budget, else 0.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/escape.h"
#include "io/json.h"
#include "calc/batch.h"
#include "num/progress.h"
#include "num/adaptive.h"

#define MAX_FIELDS 64
#define ERR_LEN 1024
#define MAX_LINE (16u << 20) /* bytes of one record line (16 MiB) */

/* One record: flag names and values (pointers into storage the caller owns). */
typedef struct {
    const char *name[MAX_FIELDS];
    char *value[MAX_FIELDS];
    int n;
} record;


static void free_values(record *r)
{
    for (int i = 0; i < r->n; i++)
        free(r->value[i]);
    r->n = 0;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d == NULL)
        abort();
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* ---- flag names ----------------------------------------------------------- */

/* A flag name is letters, digits and '-' (as every row of the calculator's
 * table): a key such as "eps=5" became the argument --eps=5 and its value a
 * stray argument. */
static bool is_flag_name(const char *s)
{
    return s[0] != '\0' && s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                      "0123456789-")] == '\0';
}

/* A CSV header names flags of the quantity or the common digits, max-bits
 * and max-seconds: a header of anything else (a file of JSON arrays,
 * "[1,2]") ran no record and exited 0.  0, or -1 with the message. */
static int check_header(const char *quantity, char *const *header, int n, char *err,
                        size_t errlen)
{
    const ul_calc_quantity *qq = ul_calc_find(quantity);
    const ul_calc_flag *flags = qq != NULL ? qq->flags : NULL;
    int nflags = qq != NULL ? ul_calc_library_nflags(qq) : 0;
    static const char *const COMMON[] = {"digits", "max-bits", "max-seconds"};
    for (int k = 0; flags != NULL && k < n; k++) {
        bool known = false;
        for (int i = 0; i < nflags && !known; i++)
            known = strcmp(header[k], flags[i].name) == 0;
        for (size_t i = 0; i < sizeof COMMON / sizeof COMMON[0] && !known; i++)
            known = strcmp(header[k], COMMON[i]) == 0;
        char q[200];
        if (!known) {
            snprintf(err, errlen, "field %d: '%s' is not a flag of %s (ulaudit calc %s --help)",
                     k + 1, ul_io_escape(header[k], strlen(header[k]), q, sizeof q), quantity,
                     quantity);
            return -1;
        }
    }
    return 0; /* an unknown quantity is reported with the first record */
}

/* ---- JSON lines ---------------------------------------------------------- */

/* The text of one JSON value as a flag value: numbers and strings as
 * written, arrays of them joined with commas.  NULL for anything else. */
static char *json_flag_text(const ul_json_value *v)
{
    if (v->type == UL_JSON_NUMBER || v->type == UL_JSON_STRING)
        return dup_n(v->text, v->text_len);
    if (v->type != UL_JSON_ARRAY || v->count == 0)
        return NULL;
    size_t len = 0;
    for (size_t i = 0; i < v->count; i++) {
        const ul_json_value *e = v->items[i];
        if (e->type != UL_JSON_NUMBER && e->type != UL_JSON_STRING)
            return NULL;
        len += e->text_len + 1;
    }
    char *out = malloc(len);
    if (out == NULL)
        abort();
    size_t at = 0;
    for (size_t i = 0; i < v->count; i++) {
        memcpy(out + at, v->items[i]->text, v->items[i]->text_len);
        at += v->items[i]->text_len;
        out[at++] = i + 1 < v->count ? ',' : '\0';
    }
    return out;
}

static bool parse_json_record(const char *line, size_t len, record *r, char *err, size_t errlen)
{
    ul_json_doc *doc;
    if (ul_json_parse(line, len, &doc, err, errlen) != UL_OK)
        return false;
    const ul_json_value *root = ul_json_root(doc);
    bool ok = root->type == UL_JSON_OBJECT && root->count <= MAX_FIELDS;
    if (!ok)
        snprintf(err, errlen, "a record must be a JSON object of at most %d flags (got %s)",
                 MAX_FIELDS, ul_json_type_name(root->type));
    for (size_t i = 0; ok && i < root->count; i++) {
        const ul_json_value *m = root->items[i];
        if (!is_flag_name(m->key)) {
            char q[68];
            snprintf(err, errlen, "$.%s: not a flag name (letters, digits and '-')",
                     ul_io_escape(m->key, strlen(m->key), q, sizeof q));
            ok = false;
            break;
        }
        char *text = json_flag_text(m);
        if (text == NULL) {
            snprintf(err, errlen, "$.%.64s: must be a number, a string or an array of them (got %s)",
                     m->key, ul_json_type_name(m->type));
            ok = false;
            break;
        }
        r->name[r->n] = m->key;
        r->value[r->n++] = text;
    }
    if (!ok) {
        free_values(r);
        ul_json_free(doc);
        return false;
    }
    /* keys live in the document: copy them before freeing it */
    for (int i = 0; i < r->n; i++) {
        char *v = r->value[i];
        size_t kl = strlen(r->name[i]), vl = strlen(v);
        char *both = malloc(kl + vl + 2);
        if (both == NULL)
            abort();
        memcpy(both, v, vl + 1);
        memcpy(both + vl + 1, r->name[i], kl + 1);
        free(v);
        r->value[i] = both;
        r->name[i] = both + vl + 1;
    }
    ul_json_free(doc);
    return true;
}

/* ---- CSV ---------------------------------------------------------------- */

/* Splits one CSV line into fields (RFC 4180 quoting: "a,b" and "" inside
 * quotes).  Returns the number of fields or -1 (message in err). */
static int split_csv(const char *line, size_t len, char **fields, char *err, size_t errlen)
{
    int n = 0;
    size_t i = 0;
    for (;;) {
        if (n == MAX_FIELDS) {
            snprintf(err, errlen, "more than %d fields", MAX_FIELDS);
            goto fail;
        }
        char *f = malloc(len - i + 1);
        if (f == NULL)
            abort();
        size_t k = 0;
        if (i < len && line[i] == '"') {
            for (i++;; i++) {
                if (i >= len) {
                    free(f);
                    snprintf(err, errlen, "field %d: unterminated quote", n + 1);
                    goto fail;
                }
                if (line[i] == '"' && (i + 1 >= len || line[i + 1] != '"'))
                    break;
                f[k++] = line[i];
                i += line[i] == '"';
            }
            i++;
        } else {
            while (i < len && line[i] != ',')
                f[k++] = line[i++];
        }
        f[k] = '\0';
        fields[n++] = f;
        if (i >= len)
            return n;
        if (line[i] != ',') {
            snprintf(err, errlen, "field %d: text after the closing quote", n);
            goto fail;
        }
        i++;
    }
fail:
    while (n > 0)
        free(fields[--n]);
    return -1;
}

static bool parse_csv_record(const char *line, size_t len, char *const *header, int nheader,
                             record *r, char *err, size_t errlen)
{
    char *fields[MAX_FIELDS];
    int n = split_csv(line, len, fields, err, errlen);
    if (n < 0)
        return false;
    if (n != nheader) {
        snprintf(err, errlen, "%d fields where the header has %d", n, nheader);
        while (n > 0)
            free(fields[--n]);
        return false;
    }
    for (int i = 0; i < n; i++) {
        if (fields[i][0] == '\0') { /* empty: the flag's default */
            free(fields[i]);
            continue;
        }
        r->name[r->n] = header[i];
        r->value[r->n++] = fields[i];
    }
    return true;
}

/* ---- running the records --------------------------------------------------- */

/* An error of the input (no result): the message as the record's. */
static void error_line(const ul_calc_batch_out *out, unsigned long line, const char *msg)
{
    ul_calc_result res;
    ul_calc_result_init(&res);
    res.status = UL_EINPUT;
    res.exit_code = UL_CALC_EXIT_USAGE;
    snprintf(res.message, sizeof res.message, "%.*s", (int)sizeof res.message - 1, msg);
    out->emit(out->ctx, line, &res);
}

/* Runs one record (plus the fixed flags it does not set) and hands its
 * result or error to emit; returns the exit code. */
static int run_record(const char *quantity, const record *r, const ul_calc_fixed *fx,
                      unsigned long line, const ul_calc_batch_out *out)
{
    const char *names[2 * MAX_FIELDS], *vals[2 * MAX_FIELDS];
    char cut[MAX_FIELDS][72];
    size_t n = 0;
    for (int i = 0; i < r->n; i++) {
        snprintf(cut[i], sizeof cut[i], "%.64s", r->name[i]);
        names[n] = cut[i];
        vals[n++] = r->value[i];
    }
    for (int i = 0; i < fx->n; i++) {
        bool set = false;
        for (int j = 0; j < r->n; j++)
            set = set || strcmp(fx->name[i], r->name[j]) == 0;
        if (!set) {
            names[n] = fx->name[i];
            vals[n++] = fx->value[i];
        }
    }
    ul_calc_result res;
    ul_calc_result_init(&res);
    const ul_calc_quantity *q = ul_calc_find(quantity);
    const char *values[UL_CALC_MAX_FLAGS];
    ul_calc_options opt = {17, UL_NUM_DEFAULT_MAX_BITS, false, NULL};
    char err[ERR_LEN];
    int rc = UL_CALC_EXIT_USAGE;
    if (q == NULL) {
        ul_calc_unknown_message(quantity, res.message, sizeof res.message);
    } else if (ul_calc_bind(q, names, vals, n, false, values, &opt, err, sizeof err) != 0) {
        snprintf(res.message, sizeof res.message, "calc %.64s: %.900s", quantity, err);
    } else {
        rc = ul_calc_run(q, values, &opt, &res);
    }
    out->emit(out->ctx, line, &res);
    ul_calc_result_clear(&res);
    return rc;
}

/* The worse of two batch exit codes: 2 over 3 over 0. */
static int worse(int a, int b)
{
    if (a == UL_CALC_EXIT_USAGE || b == UL_CALC_EXIT_USAGE)
        return UL_CALC_EXIT_USAGE;
    return a != UL_CALC_EXIT_OK ? a : b;
}

static void free_header(char **header, int n)
{
    while (n > 0)
        free(header[--n]);
}

/* Reads one line, without its newline, into *line (NUL-terminated; a NUL
 * inside ends it for the string functions, as with getline).  Returns its
 * length, -1 at the end of the input (*read_errno: 0, or the errno of a read
 * error, saved before any record runs), or -2 when the line is longer than
 * MAX_LINE: getline had no bound, so `--batch /dev/zero` (no newline ever)
 * grew its buffer until memory ran out (H3's sweep). */
static ssize_t read_line(FILE *in, char **line, size_t *cap, int *read_errno)
{
    size_t len = 0;
    int c;
    while ((c = getc_unlocked(in)) != EOF && c != '\n') {
        if (len == MAX_LINE)
            return -2;
        if (len + 2 > *cap) {
            size_t grown = *cap < 256 ? 256 : 2 * *cap;
            char *bigger = realloc(*line, grown > MAX_LINE + 2 ? MAX_LINE + 2 : grown);
            if (bigger == NULL)
                abort();
            *line = bigger;
            *cap = grown > MAX_LINE + 2 ? MAX_LINE + 2 : grown;
        }
        (*line)[len++] = (char)c;
    }
    if (c == EOF && ferror(in))
        *read_errno = errno ? errno : EIO;
    if (c == EOF && len == 0)
        return -1;
    if (*line == NULL && (*line = malloc(*cap = 256)) == NULL)
        abort();
    (*line)[len] = '\0';
    return (ssize_t)len;
}

int ul_calc_batch_run(const char *quantity, FILE *in, const ul_calc_fixed *fx,
                      const ul_calc_batch_out *out, char *fatal, size_t fatallen, int *read_errno)
{
    if (fatallen > 0)
        fatal[0] = '\0';
    *read_errno = 0;
    char *line = NULL, *header[MAX_FIELDS];
    size_t cap = 0;
    ssize_t len;
    int nheader = -1, rc = UL_CALC_EXIT_OK;
    bool json_lines = false, decided = false;
    char err[ERR_LEN];
    /* records done, to the thread's progress hook (num/progress.h): a long
     * batch shows a bar on a terminal; the total is not known in advance */
    int task = ul_progress_begin("calc --batch", -1);
    long done = 0;
    for (unsigned long lineno = 1; (len = read_line(in, &line, &cap, read_errno)) != -1; lineno++) {
        if (len == -2) { /* the rest of the input is not read: it may never end */
            snprintf(err, sizeof err, "calc %s: line %lu: longer than %u bytes (a record is one "
                     "line of at most 16 MiB); the batch stops here", quantity, lineno,
                     (unsigned)MAX_LINE);
            error_line(out, lineno, err);
            rc = UL_CALC_EXIT_USAGE;
            break;
        }
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        size_t skip = strspn(line, " \t");
        if (line[skip] == '\0' || line[skip] == '#')
            continue;
        if (!decided) {
            decided = true;
            json_lines = line[skip] == '{';
            if (!json_lines) {
                nheader = split_csv(line, (size_t)len, header, err, sizeof err);
                if (nheader >= 0 && check_header(quantity, header, nheader, err, sizeof err)) {
                    free_header(header, nheader);
                    nheader = -1;
                }
                if (nheader < 0) {
                    snprintf(fatal, fatallen, "calc %s: --batch: line %lu (CSV header): %s",
                             quantity, lineno, err);
                    rc = UL_CALC_EXIT_USAGE;
                    break;
                }
                continue;
            }
        }
        record r = {.n = 0};
        bool ok = json_lines ? parse_json_record(line, (size_t)len, &r, err, sizeof err)
                             : parse_csv_record(line, (size_t)len, header, nheader, &r, err,
                                                sizeof err);
        if (!ok) {
            char msg[ERR_LEN + 64];
            snprintf(msg, sizeof msg, "calc %s: line %lu: %s", quantity, lineno, err);
            error_line(out, lineno, msg);
            rc = worse(rc, UL_CALC_EXIT_USAGE);
            continue;
        }
        char label[48];
        snprintf(label, sizeof label, "record %ld, line %lu", done + 1, lineno);
        ul_progress_step(done, label);
        rc = worse(rc, run_record(quantity, &r, fx, lineno, out));
        ul_progress_step(++done, NULL);
        free_values(&r);
    }
    ul_progress_end(task);
    free(line);
    if (nheader > 0)
        free_header(header, nheader);
    return rc;
}
