/* src/calc/theorem_report.c — what the calibrations of the unlearning
 * theorems share (noisygd.c, koloskova.c, langevin.c): optional flags whose
 * absence means something ("no initial noise", "no limit") default to the
 * word `none`; the theorem's preconditions as checked by the library are
 * reported in JSON as `preconditions` (name, rule, state) and in text one
 * line per item that fails or is undecided; a precondition the library
 * enforces (UL_EINPUT) is an input error, exit 2, with a one-line message
 * naming the flag. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/theorem.h"

bool ul_calc_is_none(const char *text)
{
    return strcmp(text, "none") == 0;
}

/* The text of an optional flag, NULL when it is `none`. */
const char *ul_calc_opt_text(const char *text)
{
    return ul_calc_is_none(text) ? NULL : text;
}

static bool is_flag(const ul_calc_quantity *q, const char *name, size_t len)
{
    for (int i = 0; i < q->nflags; i++)
        if (strlen(q->flags[i].name) == len && strncmp(q->flags[i].name, name, len) == 0)
            return true;
    return false;
}

/* One-line usage error naming a flag; returns 2. */
int ul_calc_flag_error(ul_calc_result *res, const char *flag, const char *fmt, ...)
{
    char text[sizeof res->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return ul_calc_usage(res, "--%s: %s", flag, text);
}

/* A library error (exit 2, or 3 for UL_ECAP).  Its message starts with the
 * parameter's library name ("L: must be ..."); the flags are the lowercase
 * names, so the three capitalised ones of noisygd.h are renamed.  Input
 * errors get the flag's dashes from calc_input_error; a "no solution"
 * (UL_ENOROOT) message that starts with a flag name gets them here; any
 * other message is printed as it is.  hint (may be NULL) is appended. */
int ul_calc_theorem_error(ul_calc_result *res, ul_status st, const char *msg, const char *hint)
{
    static const char *const RENAMED[][2] = {{"L", "l"}, {"K", "k"}, {"KAbar", "kabar"}};
    const char *colon = strchr(msg, ':');
    size_t len = colon != NULL ? (size_t)(colon - msg) : 0;
    const char *name = msg;
    for (size_t i = 0; colon != NULL && i < sizeof RENAMED / sizeof RENAMED[0]; i++)
        if (strlen(RENAMED[i][0]) == len && strncmp(msg, RENAMED[i][0], len) == 0) {
            name = RENAMED[i][1];
            len = strlen(name);
            break;
        }
    bool flag = colon != NULL && len > 0 && is_flag(res->q, name, len);
    char text[768];
    if (flag)
        snprintf(text, sizeof text, "%s%.*s%s%s", st == UL_ENOROOT ? "--" : "", (int)len, name,
                 colon, hint != NULL ? hint : "");
    else
        snprintf(text, sizeof text, "%s%s", msg, hint != NULL ? hint : "");
    /* calc_input_error adds "--" to UL_EINPUT messages only: keep it off a
     * message that does not start with a flag (the exit code is 2 either way) */
    return ul_calc_input_error(res, !flag && st == UL_EINPUT ? UL_ENOROOT : st, text);
}

static const char *pre_state_name(ul_pre_state s)
{
    return s == UL_PRE_HOLDS ? "holds" : s == UL_PRE_FAILS ? "fails" : "undecided";
}

/* Adds `preconditions` (every item: name, rule, state) to o and writes one
 * text line per item that fails or is undecided to note; when there is one,
 * `consequence` (may be NULL) follows. */
void ul_calc_report_preconditions(json_object *o, FILE *note, const ul_preconditions *pre,
                                  const char *consequence)
{
    json_object *list = json_object_new_array();
    bool any = false;
    for (int i = 0; i < pre->count; i++) {
        const ul_precondition *p = &pre->items[i];
        json_object *item = json_object_new_object();
        ul_calc_add_string(item, "name", p->name);
        ul_calc_add_string(item, "rule", p->rule);
        ul_calc_add_string(item, "state", pre_state_name(p->state));
        json_object_array_add(list, item);
        if (p->state == UL_PRE_FAILS)
            fprintf(note, "  precondition %s FAILS: %s\n", p->name, p->rule);
        else if (p->state == UL_PRE_UNDECIDED)
            fprintf(note, "  precondition %s UNDECIDED at the precision cap: %s\n", p->name,
                    p->rule);
        any = any || p->state != UL_PRE_HOLDS;
    }
    json_object_object_add(o, "preconditions", list);
    if (any && consequence != NULL)
        fprintf(note, "  %s\n", consequence);
}

void ul_calc_note_open(ul_calc_note *n)
{
    n->text = NULL;
    n->len = 0;
    n->f = open_memstream(&n->text, &n->len);
    if (n->f == NULL)
        abort();
}

/* Closes the stream; the text stays until ul_calc_note_free. */
const char *ul_calc_note_close(ul_calc_note *n)
{
    fclose(n->f);
    n->f = NULL;
    return n->text;
}

void ul_calc_note_free(ul_calc_note *n)
{
    free(n->text);
}

/* Adds an inverse's enclosure x ∋ answer (lo, hi, digits, precision_bits,
 * cap_hit, and safe = hi) to r and its `safe` line to note.  x = [0, 0]
 * means every positive value reaches the target (zero_note). */
void ul_calc_add_inverse(ul_calc_build *r, FILE *note, mpfi_srcptr x, const ul_num_report *rep,
                         const char *safe_note, const char *zero_note)
{
    int digits = r->opt->digits;
    mpfr_t b;
    mpfr_init2(b, mpfi_get_prec(x));
    mpfi_get_left(b, x);
    char *lo = ul_num_format(b, digits, MPFR_RNDD);
    mpfi_get_right(b, x);
    char *hi = ul_num_format(b, digits, MPFR_RNDU);
    ul_calc_bounds(r, lo, hi, rep);
    ul_calc_add_string(r->json, "safe", hi);
    if (mpfr_inf_p(&x->right))
        fprintf(note, "  safe    none certified before the precision cap\n");
    else if (mpfr_zero_p(&x->right))
        fprintf(note, "  safe    any value > 0 (%s)\n", zero_note);
    else
        fprintf(note, "  safe    %s  (%s)\n", hi, safe_note);
    mpfr_clear(b);
    free(lo);
    free(hi);
}

/* Prints a result whose `value` is a whole number (added by the caller):
 * JSON, or the text report with the inputs, the value and note.  Frees r;
 * returns 0, or 3 with a warning when the precision cap was reached. */
int ul_calc_end_integer(ul_calc_build *r, const char *meaning, unsigned long value,
                        const char *note, ul_status st, const char *cap_warning)
{
    r->res->value = value;
    return ul_calc_end_form(r, UL_CALC_TEXT_VALUE, meaning, note, st, cap_warning);
}

/* An optional whole-number limit: `none` gives 0; else 1..999999999. */
bool ul_calc_read_limit(ul_calc_result *res, const char *flag, const char *text, unsigned long *out,
                        int *rc)
{
    long v = 0;
    if (ul_calc_is_none(text)) {
        *out = 0;
        return true;
    }
    if (!ul_calc_read_count(text, UL_CALC_COUNT_MAX, &v) || v < 1) {
        *rc = ul_calc_flag_error(
            res, flag, "must be none or a whole number from 1 to 999999999 (got '%s')", text);
        return false;
    }
    *out = (unsigned long)v;
    return true;
}

/* Starts the result of a "least K" quantity: `value` (the K), `eps_at_k`
 * (the certified ε it reaches, lo and hi also returned, malloc'd, for the
 * text note), digits, precision_bits and cap_hit. */
void ul_calc_begin_least_k(ul_calc_build *r, const ul_calc_quantity *q, const char **v,
                           const ul_calc_options *c, ul_calc_result *res, unsigned long k,
                           const ul_num_value *eps, const ul_num_report *rep, ul_status st,
                           char **lo, char **hi)
{
    ul_calc_begin(r, q, v, c, res);
    json_object_object_add(r->json, "value", json_object_new_uint64((uint64_t)k));
    ul_num_value_format(eps, c->digits, lo, hi);
    json_object *e = json_object_new_object();
    ul_calc_add_string(e, "lo", *lo);
    ul_calc_add_string(e, "hi", *hi);
    json_object_object_add(r->json, "eps_at_k", e);
    json_object_object_add(r->json, "digits", json_object_new_int(c->digits));
    json_object_object_add(r->json, "precision_bits", json_object_new_int64(rep->bits_used));
    json_object_object_add(r->json, "cap_hit", json_object_new_boolean(st == UL_ECAP));
}
