/* src/calc/result.c — the output shape shared by every calc quantity: the
 * result object (JSON) a quantity fills, and its text report, assembled as
 * strings.  Nothing here prints: the command line prints what
 * ul_calc_result_json and ul_calc_result_text return, the library hands the
 * JSON to its caller. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/internal.h"
#include "num/deadline.h"

void ul_calc_result_init(ul_calc_result *res)
{
    memset(res, 0, sizeof *res);
    res->status = UL_OK;
}

void ul_calc_result_clear(ul_calc_result *res)
{
    json_object_put(res->json);
    free(res->meaning);
    free(res->note);
    ul_calc_result_init(res);
}

/* Appends one line to the result's message (lines joined by '\n'). */
static void vsay(ul_calc_result *res, const char *fmt, va_list ap)
{
    size_t n = strlen(res->message);
    if (n > 0 && n + 1 < sizeof res->message)
        res->message[n++] = '\n';
    vsnprintf(res->message + n, sizeof res->message - n, fmt, ap);
}

__attribute__((format(printf, 2, 3))) static void say(ul_calc_result *res, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(res, fmt, ap);
    va_end(ap);
}

int ul_calc_usage(ul_calc_result *res, const char *fmt, ...)
{
    char text[sizeof res->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    say(res, "calc %s: %s", res->q->name, text);
    res->status = UL_EINPUT;
    return UL_CALC_EXIT_USAGE;
}

void ul_calc_result_message(const ul_calc_result *res, char *out, size_t len)
{
    if (len == 0)
        return;
    size_t n = 0;
    for (const char *line = res->message; *line != '\0' && n + 1 < len;) {
        size_t l = strcspn(line, "\n");
        if (n > 0 && n + 2 < len)
            out[n++] = ';', out[n++] = ' ';
        size_t room = len - 1 - n;
        memcpy(out + n, line, l < room ? l : room);
        n += l < room ? l : room;
        line += l + (line[l] == '\n');
    }
    out[n] = '\0';
}

const char *ul_calc_result_json(const ul_calc_result *res, bool pretty)
{
    int flags = pretty ? JSON_C_TO_STRING_PRETTY : JSON_C_TO_STRING_PLAIN;
    return json_object_to_json_string_ext(res->json, flags | JSON_C_TO_STRING_NOSLASHESCAPE);
}

void ul_calc_begin(ul_calc_build *b, const ul_calc_quantity *q, const char **values,
                   const ul_calc_options *opt, ul_calc_result *res)
{
    b->q = q;
    b->values = values;
    b->opt = opt;
    b->res = res;
    b->json = json_object_new_object();
    json_object_object_add(b->json, "quantity", json_object_new_string(q->name));
    json_object *inputs = json_object_new_object();
    for (int i = 0; i < q->nflags; i++)
        json_object_object_add(inputs, q->flags[i].name, json_object_new_string(values[i]));
    json_object_object_add(b->json, "inputs", inputs);
}

void ul_calc_add_string(json_object *o, const char *key, const char *value)
{
    json_object_object_add(o, key, json_object_new_string(value));
}

void ul_calc_bounds(ul_calc_build *b, const char *lo, const char *hi, const ul_num_report *rep)
{
    ul_calc_add_string(b->json, "lo", lo);
    ul_calc_add_string(b->json, "hi", hi);
    json_object_object_add(b->json, "digits", json_object_new_int(b->opt->digits));
    json_object_object_add(b->json, "precision_bits", json_object_new_int64(rep->bits_used));
    json_object_object_add(b->json, "cap_hit", json_object_new_boolean(rep->cap_hit));
}

static char *dup_text(const char *s)
{
    if (s == NULL)
        return NULL;
    char *d = strdup(s);
    if (d == NULL)
        abort();
    return d;
}

int ul_calc_end_form(ul_calc_build *b, ul_calc_text_form form, const char *meaning,
                     const char *note, ul_status st, const char *cap_warning)
{
    ul_calc_result *res = b->res;
    res->q = b->q;
    res->json = b->json;
    res->form = form;
    res->meaning = dup_text(meaning);
    res->note = dup_text(note);
    res->digits = b->opt->digits;
    if (st != UL_ECAP)
        return UL_CALC_EXIT_OK;
    res->status = UL_ECAP;
    if (cap_warning == NULL)
        say(res, "calc %s: warning: the bracket is sound but wider than --rel-width", b->q->name);
    else if (cap_warning[0] == '\0')
        say(res,
            "calc %s: warning: precision cap reached; the enclosure is sound but has "
            "fewer than %d correct digits (raise --max-bits)",
            b->q->name, b->opt->digits);
    else
        say(res, "calc %s: warning: precision cap reached; %s (raise --max-bits)", b->q->name,
            cap_warning);
    return UL_CALC_EXIT_INCONCLUSIVE;
}

int ul_calc_end(ul_calc_build *b, const char *meaning, const char *note, ul_status st)
{
    return ul_calc_end_form(b, UL_CALC_TEXT_BOUNDS, meaning, note, st, "");
}

/* The PLD bracket's width is set by --rel-width rather than --digits (or
 * --max-bits): the digits line is replaced by the budget note, for
 * delta(eps) and eps(delta) alike. */
int ul_calc_end_pld(ul_calc_build *b, const char *meaning, const char *note, ul_status st)
{
    return ul_calc_end_form(b, UL_CALC_TEXT_BRACKET, meaning, note, st, NULL);
}

static const char *json_get(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : "";
}

char *ul_calc_result_text(const ul_calc_result *res)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len); /* a string builder */
    if (f == NULL)
        abort();
    fprintf(f, "%s: %s\n", res->q->name, res->meaning);
    if (res->form != UL_CALC_TEXT_PLAIN) {
        fprintf(f, "  inputs ");
        json_object *inputs;
        int i = 0;
        if (json_object_object_get_ex(res->json, "inputs", &inputs)) {
            json_object_object_foreach(inputs, key, val)
                fprintf(f, "%s%s = %s", i++ ? ", " : " ", key, json_object_get_string(val));
        }
        fputc('\n', f);
    }
    if (res->form == UL_CALC_TEXT_BOUNDS || res->form == UL_CALC_TEXT_BRACKET)
        fprintf(f, "  lo      %s\n  hi      %s\n", json_get(res->json, "lo"),
                json_get(res->json, "hi"));
    if (res->form == UL_CALC_TEXT_BOUNDS)
        fprintf(f, "  %d correct significant digits asked; working precision %s bits\n",
                res->digits, json_get(res->json, "precision_bits"));
    if (res->form == UL_CALC_TEXT_VALUE)
        fprintf(f, "  value   %lu\n", res->value);
    if (res->note != NULL)
        fputs(res->note, f);
    fclose(f);
    return text;
}

/* A library error: its message starts with the parameter name, which is the
 * flag name without dashes. */
int ul_calc_input_error(ul_calc_result *res, ul_status st, const char *msg)
{
    res->status = st;
    if (st == UL_ETIME) /* the library says what it was computing (num/deadline.h) */
        say(res,
            "calc %s: the time budget of %g s ran out while %s (no result; --max-seconds "
            "S sets it, 0 for none)",
            res->q->name, ul_deadline_seconds(), msg);
    else
        say(res, "calc %s: %s%s", res->q->name, st == UL_EINPUT ? "--" : "", msg);
    /* the precision cap and the time budget leave the question open (exit 3,
     * as audit, calibrate and attack); anything else is the input's fault */
    return st == UL_ECAP || st == UL_ETIME ? UL_CALC_EXIT_INCONCLUSIVE : UL_CALC_EXIT_USAGE;
}

ul_num_precision ul_calc_precision_of(const ul_calc_options *c)
{
    ul_num_precision want = {c->digits, 0, c->max_bits};
    return want;
}

/* Shared reporting for the two inverses: [lo, hi] ∋ the answer, hi safe. */
int ul_calc_report_inverse(const ul_calc_quantity *q, const char **v, const ul_calc_options *c,
                           ul_calc_result *res, mpfi_srcptr x, const ul_num_report *rep,
                           const char *meaning, const char *safe_note, ul_status st)
{
    mpfr_t b;
    mpfr_init2(b, mpfi_get_prec(x));
    mpfi_get_left(b, x);
    char *lo = ul_num_format(b, c->digits, MPFR_RNDD);
    mpfi_get_right(b, x);
    char *hi = ul_num_format(b, c->digits, MPFR_RNDU);
    mpfr_clear(b);

    ul_calc_build r;
    ul_calc_begin(&r, q, v, c, res);
    ul_calc_bounds(&r, lo, hi, rep);
    ul_calc_add_string(r.json, "safe", hi);
    size_t note_len = strlen(hi) + strlen(safe_note) + 32;
    char *note = malloc(note_len);
    if (note == NULL)
        abort();
    if (mpfr_inf_p(&x->right))
        snprintf(note, note_len, "  safe    none certified before the precision cap\n");
    else
        snprintf(note, note_len, "  safe    %s  (%s)\n", hi, safe_note);
    free(lo);
    free(hi);
    int rc = ul_calc_end(&r, meaning, note, st);
    free(note);
    return rc;
}

int ul_calc_report_value_note(const ul_calc_quantity *q, const char **v, const ul_calc_options *c,
                              ul_calc_result *res, const ul_num_value *value,
                              const ul_num_report *rep, const char *meaning, const char *json_key,
                              const char *json_value, const char *note, ul_status st)
{
    ul_calc_build r;
    ul_calc_begin(&r, q, v, c, res);
    char *lo, *hi;
    ul_num_value_format(value, c->digits, &lo, &hi);
    ul_calc_bounds(&r, lo, hi, rep);
    free(lo);
    free(hi);
    if (json_key != NULL)
        json_object_object_add(r.json, json_key,
                               json_value != NULL ? json_object_new_string(json_value) : NULL);
    return ul_calc_end(&r, meaning, note, st);
}

int ul_calc_report_value(const ul_calc_quantity *q, const char **v, const ul_calc_options *c,
                         ul_calc_result *res, const ul_num_value *value, const ul_num_report *rep,
                         const char *meaning, const char *extra_key, const char *extra_value,
                         ul_status st)
{
    char *note = NULL;
    if (extra_key != NULL) {
        size_t note_len = strlen(extra_key) + strlen(extra_value) + 16;
        note = malloc(note_len);
        if (note == NULL)
            abort();
        snprintf(note, note_len, "  %-7s %s\n", extra_key, extra_value);
    }
    int rc = ul_calc_report_value_note(q, v, c, res, value, rep, meaning, extra_key, extra_value,
                                       note, st);
    free(note);
    return rc;
}

size_t ul_calc_split_list(char *text, const char **items, size_t max)
{
    size_t n = 0;
    for (char *s = text; n < max;) {
        items[n++] = s;
        char *comma = strchr(s, ',');
        if (comma == NULL)
            break;
        *comma = '\0';
        s = comma + 1;
    }
    return n;
}

const char *ul_calc_flag_or(const ul_calc_quantity *q, const char **v, const char *name,
                            const char *dflt)
{
    for (int i = 0; i < q->nflags; i++)
        if (strcmp(q->flags[i].name, name) == 0)
            return v[i];
    return dflt;
}

const char *ul_calc_flag_text(const ul_calc_quantity *q, const char **v, const char *name)
{
    const char *text = ul_calc_flag_or(q, v, name, NULL);
    if (text == NULL)
        abort(); /* a name missing from this program's table, never input */
    return text;
}
