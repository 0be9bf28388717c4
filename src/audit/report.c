/* src/audit/report.c — an audit report as text and as JSON (see report.h). */
#include "audit/report.h"

#include <errno.h>
#include <json-c/json.h>
#include <nettle/sha2.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/escape.h"
#include "ulaudit.h" /* ULAUDIT_VERSION_STRING: the version ulaudit_version() returns */

/* ---- the record: time, hash ------------------------------------------------------- */

/* 9999-12-31T23:59:59Z: the last second a 4-digit ISO 8601 year can write. */
#define LATEST_EPOCH 253402300799LL

ul_status ul_audit_timestamp(char out[UL_AUDIT_TIME_CHARS], char *err, size_t errlen)
{
    out[0] = '\0';
    const char *env = getenv("SOURCE_DATE_EPOCH");
    time_t t = time(NULL);
    if (env != NULL && env[0] != '\0') {
        char *end;
        errno = 0;
        long long v = strtoll(env, &end, 10);
        if (env[0] < '0' || env[0] > '9' || *end != '\0' || errno != 0 || v > LATEST_EPOCH) {
            char shown[64]; /* the value as typed, escaped and cut */
            ul_io_escape(env, strlen(env), shown, sizeof shown);
            return ul_fail(err, errlen, UL_EINPUT,
                           "SOURCE_DATE_EPOCH: must be a whole number of seconds since "
                           "1970-01-01T00:00:00Z, from 0 to %lld (got '%s')",
                           LATEST_EPOCH, shown);
        }
        t = (time_t)v;
    }
    struct tm tm;
    if (t == (time_t)-1 || gmtime_r(&t, &tm) == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "the system clock cannot be read");
    strftime(out, UL_AUDIT_TIME_CHARS, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return UL_OK;
}

void ul_audit_report_hash(ul_audit_report *rep, const char *path, const char *text, size_t len)
{
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    rep->certificate_sha256[0] = '\0';
    if (text != NULL) {
        sha256_update(&ctx, len, (const uint8_t *)text);
    } else {
        FILE *f = path != NULL ? fopen(path, "rb") : NULL;
        if (f == NULL)
            return;
        uint8_t buf[8192];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            sha256_update(&ctx, n, buf);
        bool failed = ferror(f) != 0;
        fclose(f);
        if (failed)
            return;
    }
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(&ctx, sizeof digest, digest);
    for (size_t i = 0; i < sizeof digest; i++)
        snprintf(rep->certificate_sha256 + 2 * i, 3, "%02x", digest[i]);
}

/* The report's time: the audit's (rep->generated_at), or, for a report no
 * audit stamped, now; "" when SOURCE_DATE_EPOCH is malformed (ul_audit has
 * refused it already for a report it made). */
static const char *report_time(const ul_audit_report *rep, char now[UL_AUDIT_TIME_CHARS])
{
    if (rep->generated_at[0] != '\0')
        return rep->generated_at;
    char err[256];
    ul_audit_timestamp(now, err, sizeof err);
    return now;
}

/* "holds", "fails", "undecided". */
static const char *pre_state_name(ul_pre_state s)
{
    switch (s) {
    case UL_PRE_HOLDS:
        return "holds";
    case UL_PRE_FAILS:
        return "fails";
    case UL_PRE_UNDECIDED:
        break;
    }
    return "undecided";
}

/* ---- text --------------------------------------------------------------------------- */

#define LABEL_WIDTH 20
#define LINE_WIDTH 100

/* Writes text word-wrapped to LINE_WIDTH, continuation lines indented by
 * `indent` spaces (the first line is assumed to start at column indent). */
static void put_wrapped(FILE *f, const char *text, int indent)
{
    int col = indent;
    const char *p = text;
    while (*p != '\0') {
        while (*p == ' ')
            p++;
        if (*p == '\0')
            break;
        size_t w = strcspn(p, " ");
        if (col > indent && col + 1 + (int)w > LINE_WIDTH) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, w, f);
        col += (int)w;
        p += w;
    }
    fputc('\n', f);
}

static void line(FILE *f, const char *label, const char *text)
{
    fprintf(f, "%-*s", LABEL_WIDTH, label);
    put_wrapped(f, text, LABEL_WIDTH);
}

/* The printf text of fmt, malloc'd (report fields hold numbers of up to
 * --digits 5000 digits: no fixed buffer). */
__attribute__((format(printf, 1, 2))) static char *text_of(const char *fmt, ...)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    /* the report's fields have fixed sizes */
    if (m == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    va_list ap;
    va_start(ap, fmt);
    vfprintf(m, fmt, ap);
    va_end(ap);
    if (fclose(m) != 0 || text == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    return text;
}

static void number_text(FILE *f, const ul_audit_number *n, int indent)
{
    const char *lo = ul_audit_number_lo(n), *hi = ul_audit_number_hi(n);
    char *text = strcmp(lo, hi) == 0 ? text_of("%s = %s  (%s)", n->key, lo, n->label)
                                     : text_of("%s in [%s, %s]  (%s)", n->key, lo, hi, n->label);
    fprintf(f, "%*s", indent, "");
    put_wrapped(f, text, indent + 4);
    free(text);
}

static const char *upper_verdict(ul_verdict v)
{
    switch (v) {
    case UL_VERDICT_SUPPORTED:
        return "SUPPORTED";
    case UL_VERDICT_UNSUPPORTED:
        return "UNSUPPORTED";
    case UL_VERDICT_REFUTED:
        return "REFUTED";
    case UL_VERDICT_INVALID:
        return "INVALID";
    case UL_VERDICT_INCONCLUSIVE:
        break;
    }
    return "INCONCLUSIVE";
}

char *ul_audit_report_text(const ul_audit_report *rep, const char *method, const char *source)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    /* the report's fields have fixed sizes */
    if (f == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    char verdict[64];
    snprintf(verdict, sizeof verdict, "%s (exit %d)", upper_verdict(rep->verdict),
             ul_verdict_exit_code(rep->verdict));
    line(f, "verdict", verdict);
    if (method != NULL)
        line(f, "method", method);
    if (source != NULL)
        line(f, "source", source);
    if (rep->certificate_sha256[0] != '\0')
        line(f, "certificate sha256", rep->certificate_sha256);
    line(f, "tool", "ulaudit " ULAUDIT_VERSION_STRING);
    char now[UL_AUDIT_TIME_CHARS];
    const char *when = report_time(rep, now);
    if (when[0] != '\0')
        line(f, "generated at", when);
    line(f, "claim", rep->claim);
    line(f, "theorem", rep->theorem);
    if (rep->variant[0] != '\0')
        line(f, "variant", rep->variant);
    if (rep->recomputed.key != NULL) {
        fprintf(f, "%s\n", "recomputed");
        number_text(f, &rep->recomputed, 2);
    }
    if (rep->margin[0] != '\0')
        line(f, "margin", rep->margin);
    if (rep->pre.count > 0) {
        fprintf(f, "preconditions\n");
        for (int i = 0; i < rep->pre.count; i++) {
            const ul_precondition *p = &rep->pre.items[i];
            char *item = text_of("%s: %s", p->name, p->rule);
            fprintf(f, "  %-10s", pre_state_name(p->state));
            put_wrapped(f, item, 12);
            free(item);
        }
    }
    if (rep->n_omitted > 0) {
        fprintf(f, "omitted\n");
        for (int i = 0; i < rep->n_omitted; i++) {
            const ul_audit_omitted *o = &rep->omitted[i];
            char *item = text_of("%s not stated: read as %s. To state it, %s.", o->field,
                                 o->reading, o->state_it);
            fprintf(f, "  ");
            put_wrapped(f, item, 4);
            free(item);
        }
    }
    if (rep->other_variant.key != NULL) {
        fprintf(f, "other variant\n");
        number_text(f, &rep->other_variant, 2);
    }
    if (rep->n_would_reach > 0) {
        fprintf(f, "would reach\n");
        for (int i = 0; i < rep->n_would_reach; i++)
            number_text(f, &rep->would_reach[i], 2);
    }
    if (rep->first_wrong_stated[0] != '\0')
        line(f, "first wrong stated", rep->first_wrong_stated);
    if (rep->forensics[0] != '\0')
        line(f, "forensics", rep->forensics);
    if (rep->explanation[0] != '\0')
        line(f, "explanation", rep->explanation);
    fclose(f);
    return buf;
}

/* ---- JSON --------------------------------------------------------------------------- */

static json_object *string_or_null(const char *s)
{
    return s != NULL && s[0] != '\0' ? json_object_new_string(s) : NULL;
}

static json_object *number_json(const ul_audit_number *n)
{
    if (n->key == NULL)
        return NULL;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "key", json_object_new_string(n->key));
    json_object_object_add(o, "label", json_object_new_string(n->label));
    json_object_object_add(o, "lo", json_object_new_string(ul_audit_number_lo(n)));
    json_object_object_add(o, "hi", json_object_new_string(ul_audit_number_hi(n)));
    return o;
}

/* {"name": "ulaudit", "version": "0.2.0"} */
static json_object *tool_json(void)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "name", json_object_new_string("ulaudit"));
    json_object_object_add(o, "version", json_object_new_string(ULAUDIT_VERSION_STRING));
    return o;
}

/* The claim's numbers as decimal strings, or null when not read. */
static json_object *claim_values_json(const ul_audit_report *rep)
{
    if (!rep->claim_read)
        return NULL;
    json_object *o = json_object_new_object();
    for (int i = 0; i < rep->n_claim_values && i < UL_AUDIT_MAX_CLAIM_VALUES; i++)
        json_object_object_add(o, rep->claim_values[i].key,
                               json_object_new_string(rep->claim_values[i].value));
    return o;
}

char *ul_audit_report_json(const ul_audit_report *rep, const char *method, const char *source,
                           int digits)
{
    char now[UL_AUDIT_TIME_CHARS];
    json_object *o = json_object_new_object();
    json_object_object_add(o, "verdict", json_object_new_string(ul_verdict_name(rep->verdict)));
    json_object_object_add(o, "exit_code", json_object_new_int(ul_verdict_exit_code(rep->verdict)));
    json_object_object_add(o, "method", string_or_null(method));
    json_object_object_add(o, "source", string_or_null(source));
    json_object_object_add(o, "certificate_sha256", string_or_null(rep->certificate_sha256));
    json_object_object_add(o, "tool", tool_json());
    json_object_object_add(o, "generated_at", string_or_null(report_time(rep, now)));
    json_object_object_add(o, "claim", json_object_new_string(rep->claim));
    json_object_object_add(o, "claim_values", claim_values_json(rep));
    json_object_object_add(o, "theorem", json_object_new_string(rep->theorem));
    json_object_object_add(o, "variant", string_or_null(rep->variant));
    json_object_object_add(o, "recomputed", number_json(&rep->recomputed));
    json_object_object_add(o, "margin", json_object_new_string(rep->margin));
    json_object *pre = json_object_new_array();
    for (int i = 0; i < rep->pre.count; i++) {
        const ul_precondition *p = &rep->pre.items[i];
        json_object *item = json_object_new_object();
        json_object_object_add(item, "name", json_object_new_string(p->name));
        json_object_object_add(item, "rule", json_object_new_string(p->rule));
        json_object_object_add(item, "state", json_object_new_string(pre_state_name(p->state)));
        json_object_array_add(pre, item);
    }
    json_object_object_add(o, "preconditions", pre);
    json_object *omitted = json_object_new_array();
    for (int i = 0; i < rep->n_omitted; i++) {
        json_object *item = json_object_new_object();
        json_object_object_add(item, "field", json_object_new_string(rep->omitted[i].field));
        json_object_object_add(item, "reading", json_object_new_string(rep->omitted[i].reading));
        json_object_object_add(item, "state_it",
                               json_object_new_string(rep->omitted[i].state_it));
        json_object_array_add(omitted, item);
    }
    json_object_object_add(o, "omitted", omitted);
    json_object_object_add(o, "other_variant", number_json(&rep->other_variant));
    json_object *reach = json_object_new_array();
    for (int i = 0; i < rep->n_would_reach; i++)
        json_object_array_add(reach, number_json(&rep->would_reach[i]));
    json_object_object_add(o, "would_reach", reach);
    json_object_object_add(o, "first_wrong_stated", string_or_null(rep->first_wrong_stated));
    json_object_object_add(o, "forensics", string_or_null(rep->forensics));
    json_object_object_add(o, "explanation", json_object_new_string(rep->explanation));
    json_object_object_add(o, "digits", json_object_new_int(digits));
    const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
                                                             JSON_C_TO_STRING_NOSLASHESCAPE);
    char *out = strdup(text);
    json_object_put(o);
    if (out == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    return out;
}
