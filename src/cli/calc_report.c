/* src/cli/calc_report.c — the output shape shared by every calc quantity. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/calc.h"
#include "cli/calc_internal.h"
#include "num/deadline.h"

static _Thread_local calc_sink *current_sink;

void calc_sink_set(calc_sink *s)
{
    current_sink = s;
}

/* ---- the budget's backstop ----------------------------------------------------
 * The budget is cooperative (num/deadline.h): a step that never asks it
 * (H3's sweep: the PLD sums over 8.4 million grid points at a grid step of
 * 1e-300, the Langevin branch and bound at --digits 1000) ran for minutes
 * under --max-seconds 5.  On the command line the watchdog of
 * src/cli/watchdog.h ends such a run; this library file reaches it only
 * through the hooks main.c installs (calc.h).  The first output of the
 * quantity (calc_out or calc_err) claims it, so a result is never cut. */

static const ul_cli_calc_backstop *backstop; /* set once, by main.c */

/* This thread's run: 0 none, 1 started, 2 started and claimed. */
static _Thread_local int backstop_state;

void ul_cli_calc_set_backstop(const ul_cli_calc_backstop *b)
{
    backstop = b;
}

void calc_backstop_arm(const char *command, double seconds)
{
    if (backstop == NULL || current_sink != NULL || backstop_state != 0)
        return;
    backstop->start(command, seconds);
    backstop_state = 1;
}

void calc_backstop_end(void)
{
    if (backstop_state != 0)
        backstop->stop();
    backstop_state = 0;
}

static void backstop_claim(void)
{
    if (backstop_state == 1) {
        backstop_state = 2;
        backstop->claim();
    }
}

FILE *calc_out(void)
{
    backstop_claim();
    return current_sink != NULL ? current_sink->out : stdout;
}

FILE *calc_err(void)
{
    backstop_claim();
    return current_sink != NULL ? current_sink->err : stderr;
}

void calc_print_json(json_object *o)
{
    int flags = current_sink != NULL ? JSON_C_TO_STRING_PLAIN : JSON_C_TO_STRING_PRETTY;
    fputs(json_object_to_json_string_ext(o, flags | JSON_C_TO_STRING_NOSLASHESCAPE), calc_out());
    fputc('\n', calc_out());
}

void calc_result_begin(calc_result *r, const calc_quantity *q, const char **values,
                       const ul_cli_common *common)
{
    r->q = q;
    r->values = values;
    r->common = common;
    r->json = json_object_new_object();
    json_object_object_add(r->json, "quantity", json_object_new_string(q->name));
    json_object *inputs = json_object_new_object();
    for (int i = 0; i < q->nflags; i++)
        json_object_object_add(inputs, q->flags[i].name, json_object_new_string(values[i]));
    json_object_object_add(r->json, "inputs", inputs);
}

void calc_add_string(json_object *o, const char *key, const char *value)
{
    json_object_object_add(o, key, json_object_new_string(value));
}

/* Adds lo, hi, digits, precision_bits and cap_hit. */
void calc_result_bounds(calc_result *r, const char *lo, const char *hi, const ul_num_report *rep)
{
    calc_add_string(r->json, "lo", lo);
    calc_add_string(r->json, "hi", hi);
    json_object_object_add(r->json, "digits", json_object_new_int(r->common->digits));
    json_object_object_add(r->json, "precision_bits", json_object_new_int64(rep->bits_used));
    json_object_object_add(r->json, "cap_hit", json_object_new_boolean(rep->cap_hit));
}

static const char *json_get(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : "";
}

/* Prints the result (JSON or text) and returns the exit code.  note, when
 * not NULL, is printed in text mode after the bounds. */
int calc_result_end(calc_result *r, const char *meaning, const char *note, ul_status st)
{
    if (r->common->json) {
        calc_print_json(r->json);
    } else {
        fprintf(calc_out(), "%s: %s\n  inputs ", r->q->name, meaning);
        for (int i = 0; i < r->q->nflags; i++)
            fprintf(calc_out(), "%s%s = %s", i ? ", " : " ", r->q->flags[i].name, r->values[i]);
        json_object *pb;
        json_object_object_get_ex(r->json, "precision_bits", &pb);
        fprintf(calc_out(), "\n  lo      %s\n  hi      %s\n", json_get(r->json, "lo"), json_get(r->json, "hi"));
        fprintf(calc_out(), "  %d correct significant digits asked; working precision %s bits\n",
               r->common->digits, json_object_get_string(pb));
        if (note != NULL)
            fprintf(calc_out(), "%s", note);
    }
    json_object_put(r->json);
    if (st == UL_ECAP) {
        fprintf(calc_err(),
                "ulaudit calc %s: warning: precision cap reached; the enclosure is sound but "
                "has fewer than %d correct digits (raise --max-bits)\n",
                r->q->name, r->common->digits);
        return UL_EXIT_INCONCLUSIVE;
    }
    return UL_EXIT_OK;
}

/* result_end for the PLD bracket, whose width is set by --rel-width rather
 * than --digits (or --max-bits): the digits line is replaced by the budget
 * note, for delta(eps) and eps(delta) alike. */
int calc_result_end_pld(calc_result *r, const char *meaning, const char *note, ul_status st)
{
    if (r->common->json) {
        calc_print_json(r->json);
    } else {
        fprintf(calc_out(), "%s: %s\n  inputs ", r->q->name, meaning);
        for (int i = 0; i < r->q->nflags; i++)
            fprintf(calc_out(), "%s%s = %s", i ? ", " : " ", r->q->flags[i].name, r->values[i]);
        fprintf(calc_out(), "\n  lo      %s\n  hi      %s\n%s", json_get(r->json, "lo"), json_get(r->json, "hi"),
               note);
    }
    json_object_put(r->json);
    if (st == UL_ECAP) {
        fprintf(calc_err(),
                "ulaudit calc %s: warning: the bracket is sound but wider than --rel-width\n",
                r->q->name);
        return UL_EXIT_INCONCLUSIVE;
    }
    return UL_EXIT_OK;
}

/* A library error: its message starts with the parameter name, which is the
 * flag name without dashes. */
int calc_input_error(const calc_quantity *q, ul_status st, const char *msg)
{
    if (current_sink != NULL)
        current_sink->status = st;
    if (st == UL_ETIME) /* the library says what it was computing (num/deadline.h) */
        fprintf(calc_err(), "ulaudit calc %s: the time budget of %g s ran out while %s (no "
                "result; --max-seconds S sets it, 0 for none)\n", q->name, ul_deadline_seconds(),
                msg);
    else
        fprintf(calc_err(), "ulaudit calc %s: %s%s\n", q->name, st == UL_EINPUT ? "--" : "",
                msg);
    /* the precision cap and the time budget leave the question open (exit 3,
     * as audit, calibrate and attack); anything else is the input's fault */
    return st == UL_ECAP || st == UL_ETIME ? UL_EXIT_INCONCLUSIVE : UL_EXIT_USAGE;
}

ul_num_precision calc_precision_of(const ul_cli_common *c)
{
    ul_num_precision want = {c->digits, 0, c->max_bits};
    return want;
}

/* Shared reporting for the two inverses: [lo, hi] ∋ the answer, hi safe. */
int calc_report_inverse(const calc_quantity *q, const char **v, const ul_cli_common *c,
                        mpfi_srcptr x, const ul_num_report *rep, const char *meaning,
                        const char *safe_note, ul_status st)
{
    mpfr_t b;
    mpfr_init2(b, mpfi_get_prec(x));
    mpfi_get_left(b, x);
    char *lo = ul_num_format(b, c->digits, MPFR_RNDD);
    mpfi_get_right(b, x);
    char *hi = ul_num_format(b, c->digits, MPFR_RNDU);
    mpfr_clear(b);

    calc_result r;
    calc_result_begin(&r, q, v, c);
    calc_result_bounds(&r, lo, hi, rep);
    calc_add_string(r.json, "safe", hi);
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
    int rc = calc_result_end(&r, meaning, note, st);
    free(note);
    return rc;
}

/* Reports a certified value; extra_key/extra_value (may be NULL) add one
 * quantity-specific string field. */
int calc_report_value_note(const calc_quantity *q, const char **v, const ul_cli_common *c,
                           const ul_num_value *value, const ul_num_report *rep,
                           const char *meaning, const char *json_key, const char *json_value,
                           const char *note, ul_status st)
{
    calc_result r;
    calc_result_begin(&r, q, v, c);
    char *lo, *hi;
    ul_num_value_format(value, c->digits, &lo, &hi);
    calc_result_bounds(&r, lo, hi, rep);
    free(lo);
    free(hi);
    if (json_key != NULL)
        json_object_object_add(r.json, json_key,
                               json_value != NULL ? json_object_new_string(json_value) : NULL);
    return calc_result_end(&r, meaning, note, st);
}

int calc_report_value(const calc_quantity *q, const char **v, const ul_cli_common *c,
                      const ul_num_value *value, const ul_num_report *rep, const char *meaning,
                      const char *extra_key, const char *extra_value, ul_status st)
{
    char *note = NULL;
    if (extra_key != NULL) {
        size_t note_len = strlen(extra_key) + strlen(extra_value) + 16;
        note = malloc(note_len);
        if (note == NULL)
            abort();
        snprintf(note, note_len, "  %-7s %s\n", extra_key, extra_value);
    }
    int rc = calc_report_value_note(q, v, c, value, rep, meaning, extra_key, extra_value, note,
                                    st);
    free(note);
    return rc;
}

bool calc_read_budget(const char *text, double *secs)
{
    *secs = 0;
    if (strcmp(text, "none") == 0)
        return true;
    return ul_cli_read_seconds(text, secs);
}

/* Splits a comma-separated list in place; returns the count (at most max). */

size_t calc_split_list(char *text, const char **items, size_t max)
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

const char *calc_flag_or(const calc_quantity *q, const char **v, const char *name, const char *dflt)
{
    for (int i = 0; i < q->nflags; i++)
        if (strcmp(q->flags[i].name, name) == 0)
            return v[i];
    return dflt;
}

const char *calc_flag(const calc_quantity *q, const char **v, const char *name)
{
    const char *text = calc_flag_or(q, v, name, NULL);
    if (text == NULL)
        abort(); /* a name missing from this program's table, never input */
    return text;
}
