/* src/vectors/check_json.c — the JSON of a check (`ulaudit vectors check
 * --json` and ulaudit_vectors_check: one function for both, so that the
 * library's object is the command's byte for byte) and of the direction
 * table's entries (vectors/check.h).
 */
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vectors/check_internal.h"

char *ul_vchk_json_text(json_object *o)
{
    char *text = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
                                                              JSON_C_TO_STRING_NOSLASHESCAPE));
    if (text == NULL)
        abort(); /* out of memory for a text json-c already holds: policy of num/status.h */
    return text;
}

json_object *ul_vchk_direction_json(const ul_vchk_direction *d)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "quantity", json_object_new_string(d->quantity));
    json_object_object_add(o, "unsafe_side",
                           json_object_new_string(d->unsafe == UL_VCHK_BELOW ? "below" : "above"));
    json_object_object_add(o, "range", json_object_new_string(ul_vchk_range_name(d->range)));
    return o;
}

static json_object *json_error(double e)
{
    /* +inf: beyond the double range; JSON has no infinity */
    return isinf(e) ? json_object_new_string("inf") : json_object_new_double(e);
}

/* {"a": text} of row i's inputs */
static json_object *inputs_json(const ul_vchk_result *r, size_t i)
{
    json_object *in = json_object_new_object();
    for (size_t k = 0; k < r->ninputs; k++)
        json_object_object_add(in, r->input_names[k],
                               json_object_new_string(r->inputs[i * r->ninputs + k]));
    return in;
}

/* The cell (i, j) into o: value, lo, hi, and by class its error or why it
 * is invalid; as_double when EXACT as the correctly rounded double. */
static void add_cell(json_object *o, const ul_vchk_result *r, size_t i, size_t j)
{
    const ul_vchk_cell *cell = &r->cells[i * r->nq + j];
    json_object_object_add(o, "value", json_object_new_string(cell->text));
    if (cell->lo != NULL) {
        json_object_object_add(o, "lo", json_object_new_string(cell->lo));
        json_object_object_add(o, "hi", json_object_new_string(cell->hi));
    }
    if (cell->cls == UL_VCHK_SAFE || cell->cls == UL_VCHK_UNSAFE) {
        json_object_object_add(o, "error", json_error(cell->error));
        json_object_object_add(o, "error_kind",
                               json_object_new_string(cell->absolute ? "absolute" : "relative"));
        json_object_object_add(o, "within_tolerance",
                               json_object_new_boolean(cell->within_tolerance));
    }
    if (cell->cls == UL_VCHK_INVALID)
        json_object_object_add(o, "invalid", json_object_new_string(cell->invalid_why));
    if (cell->as_double)
        json_object_object_add(o, "as_double", json_object_new_boolean(true));
}

static json_object *json_worst(const ul_vchk_result *r, size_t j, ul_vchk_class c)
{
    size_t i = (size_t)r->q[j].worst[c];
    json_object *o = json_object_new_object();
    json_object_object_add(o, "class", json_object_new_string(ul_vchk_class_name(c)));
    json_object_object_add(o, "line", json_object_new_int64((int64_t)r->line[i]));
    json_object_object_add(o, "inputs", inputs_json(r, i));
    add_cell(o, r, i, j);
    return o;
}

/* Every row: {"line", "inputs", "values": {QUANTITY: {"class", ...cell}}}. */
static json_object *json_rows(const ul_vchk_result *r)
{
    json_object *rows = json_object_new_array();
    for (size_t i = 0; i < r->nrows; i++) {
        json_object *o = json_object_new_object(), *values = json_object_new_object();
        json_object_object_add(o, "line", json_object_new_int64((int64_t)r->line[i]));
        json_object_object_add(o, "inputs", inputs_json(r, i));
        for (size_t j = 0; j < r->nq; j++) {
            json_object *v = json_object_new_object();
            json_object_object_add(v, "class", json_object_new_string(ul_vchk_class_name(
                                                   r->cells[i * r->nq + j].cls)));
            add_cell(v, r, i, j);
            json_object_object_add(values, r->q[j].dir->quantity, v);
        }
        json_object_object_add(o, "values", values);
        json_object_array_add(rows, o);
    }
    return rows;
}

static json_object *json_quantity(const ul_vchk_result *r, size_t j)
{
    const ul_vchk_quantity *q = &r->q[j];
    json_object *o = ul_vchk_direction_json(q->dir), *counts = json_object_new_object();
    json_object *worst = json_object_new_array();
    for (int c = 0; c < UL_VCHK_NCLASS; c++) {
        json_object_object_add(counts, ul_vchk_class_name((ul_vchk_class)c),
                               json_object_new_int64((int64_t)q->count[c]));
        if (c != UL_VCHK_EXACT && q->worst[c] >= 0)
            json_object_array_add(worst, json_worst(r, j, (ul_vchk_class)c));
    }
    json_object_object_add(o, "counts", counts);
    json_object_object_add(o, "within_tolerance",
                           json_object_new_int64((int64_t)q->within_tolerance));
    json_object_object_add(o, "worst", worst);
    return o;
}

char *ul_vchk_json(const ul_vchk_result *r, const char *results, bool with_rows)
{
    json_object *o = json_object_new_object(), *qs = json_object_new_array();
    json_object_object_add(o, "family", json_object_new_string(r->family->name));
    json_object_object_add(o, "results", json_object_new_string(results));
    json_object_object_add(o, "rows", json_object_new_int64((int64_t)r->nrows));
    json_object_object_add(o, "matched", json_object_new_int64((int64_t)r->matched));
    json_object_object_add(o, "computed", json_object_new_int64((int64_t)r->computed));
    json_object_object_add(o, "unmatched", json_object_new_int64((int64_t)r->unmatched));
    json_object_object_add(o, "tolerance_column", json_object_new_boolean(r->has_tolerance));
    for (size_t j = 0; j < r->nq; j++)
        json_object_array_add(qs, json_quantity(r, j));
    json_object_object_add(o, "quantities", qs);
    if (with_rows)
        json_object_object_add(o, "rows_classified", json_rows(r));
    json_object_object_add(o, "failed", json_object_new_boolean(ul_vchk_failed(r)));
    json_object_object_add(o, "exit", json_object_new_int(ul_vchk_exit_code(r)));
    char *text = ul_vchk_json_text(o);
    json_object_put(o);
    return text;
}
