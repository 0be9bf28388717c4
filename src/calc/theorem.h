/* src/calc/theorem.h — the helpers of the theorem calibrations
 * (calc/theorem_report.c), shared by noisygd.c, koloskova.c, langevin.c. */
#ifndef UL_CALC_THEOREM_H
#define UL_CALC_THEOREM_H

#include <stdio.h>

#include "bounds/theorem.h"
#include "calc/internal.h"

/* True when an optional flag is `none`; its text, or NULL when it is. */
bool ul_calc_is_none(const char *text);
const char *ul_calc_opt_text(const char *text);

/* One-line usage error naming a flag ("--FLAG: " and the formatted text);
 * returns 2. */
__attribute__((format(printf, 3, 4))) int ul_calc_flag_error(ul_calc_result *res, const char *flag,
                                                             const char *fmt, ...);

/* A library error (exit 2, or 3 for UL_ECAP) whose message starts with the
 * parameter's library name, renamed to its flag; hint (may be NULL) is
 * appended. */
int ul_calc_theorem_error(ul_calc_result *res, ul_status st, const char *msg, const char *hint);

/* Adds `preconditions` (every item: name, rule, state) to o and writes one
 * text line per item that fails or is undecided to note; when there is one,
 * `consequence` (may be NULL) follows. */
void ul_calc_report_preconditions(json_object *o, FILE *note, const ul_preconditions *pre,
                                  const char *consequence);

/* A text buffer for the notes of the text report (a string builder). */
typedef struct {
    char *text;
    size_t len;
    FILE *f;
} ul_calc_note;

void ul_calc_note_open(ul_calc_note *n);
/* Closes the stream; the text stays until ul_calc_note_free. */
const char *ul_calc_note_close(ul_calc_note *n);
void ul_calc_note_free(ul_calc_note *n);

/* Adds an inverse's enclosure x ∋ answer (lo, hi, digits, precision_bits,
 * cap_hit, and safe = hi) to r and its `safe` line to note.  x = [0, 0]
 * means every positive value reaches the target (zero_note). */
void ul_calc_add_inverse(ul_calc_build *r, FILE *note, mpfi_srcptr x, const ul_num_report *rep,
                         const char *safe_note, const char *zero_note);

/* Hands over a result whose `value` is a whole number (the JSON field added
 * by the caller): the text report with the inputs, the value and note;
 * returns 0, or 3 with cap_warning when the precision cap was reached. */
int ul_calc_end_integer(ul_calc_build *r, const char *meaning, unsigned long value,
                        const char *note, ul_status st, const char *cap_warning);

/* An optional whole-number limit: `none` gives 0; else 1..999999999. */
bool ul_calc_read_limit(ul_calc_result *res, const char *flag, const char *text, unsigned long *out,
                        int *rc);

/* Starts the result of a "least K" quantity: `value` (the K), `eps_at_k`
 * (the certified eps it reaches, lo and hi also returned, malloc'd, for the
 * text note), digits, precision_bits and cap_hit. */
void ul_calc_begin_least_k(ul_calc_build *r, const ul_calc_quantity *q, const char **v,
                           const ul_calc_options *c, ul_calc_result *res, unsigned long k,
                           const ul_num_value *eps, const ul_num_report *rep, ul_status st,
                           char **lo, char **hi);

#endif
