/* src/calc/internal.h — what the quantity files of src/calc share: the
 * assembly of a result (calc/result.c) that gives every quantity the same
 * shape (docs/design.md, "Command-line contract"): quantity, inputs as given, lo
 * (rounded down), hi (rounded up), digits, precision_bits, cap_hit, and
 * quantity-specific fields.  A quantity fills its ul_calc_result and
 * returns the exit code; it never prints. */
#ifndef UL_CALC_INTERNAL_H
#define UL_CALC_INTERNAL_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "calc/calc.h"
#include "num/adaptive.h"

/* The default of every row's --max-seconds: an object of its own, so that
 * a flag left at it is told by its address from one given as the same text
 * (calc/run.c). */
extern const char ul_calc_budget_default[];

/* A result being assembled: the quantity, its inputs and options, and the
 * result object it fills. */
typedef struct {
    const ul_calc_quantity *q;
    const char **values;
    const ul_calc_options *opt;
    ul_calc_result *res;
    json_object *json;
} ul_calc_build;

/* Starts a result with `quantity` and `inputs` (every flag as given or defaulted). */
void ul_calc_begin(ul_calc_build *b, const ul_calc_quantity *q, const char **values,
                   const ul_calc_options *opt, ul_calc_result *res);

/* Adds a string field. */
void ul_calc_add_string(json_object *o, const char *key, const char *value);

/* Adds lo, hi, digits, precision_bits and cap_hit. */
void ul_calc_bounds(ul_calc_build *b, const char *lo, const char *hi, const ul_num_report *rep);

/* Hands the result object to res with its text layout, `meaning` and the
 * optional `note` (copied); returns the exit code: 3 after UL_ECAP (with
 * the warning cap_warning, "" for the digits' warning), else 0. */
int ul_calc_end_form(ul_calc_build *b, ul_calc_text_form form, const char *meaning,
                     const char *note, ul_status st, const char *cap_warning);

/* The text layout UL_CALC_TEXT_BOUNDS, with the digits' cap warning. */
int ul_calc_end(ul_calc_build *b, const char *meaning, const char *note, ul_status st);

/* The same for the PLD bracket, whose width is set by --rel-width. */
int ul_calc_end_pld(ul_calc_build *b, const char *meaning, const char *note, ul_status st);

/* An input error naming a flag: "calc Q: " and the formatted text as the
 * message of res; UL_EINPUT; returns 2. */
__attribute__((format(printf, 2, 3))) int ul_calc_usage(ul_calc_result *res, const char *fmt, ...);

/* Reports a library error (its message starts with the parameter name, the
 * flag name without dashes) and returns 2 (input) or 3 (cap, time). */
int ul_calc_input_error(ul_calc_result *res, ul_status st, const char *msg);

/* Every flag of q with a domain (calc/domain.h) against it, in the order of
 * q's inputs (the order the bound checks them in): one check, whose message ("calc Q: --delta: must
 * be < 1 (got '2')") names the flag and the rule broken.  A quantity calls it after its own flags
 * are read, just before the bound (whose checks, in the same order and words, guard the library's
 * other callers).  0, or 2 with the message in res. */
int ul_calc_check_domains(const ul_calc_quantity *q, const char **values, ul_calc_result *res);

/* The one flag `name` of q against its domain (a fault of the tables when
 * it has none: abort): 0, or 2 with the message in res. */
int ul_calc_check_flag(const ul_calc_quantity *q, const char **values, const char *name,
                       ul_calc_result *res);

/* The precision request of the options. */
ul_num_precision ul_calc_precision_of(const ul_calc_options *c);

/* An inverse's enclosure [lo, hi] ∋ answer with hi the certified safe value
 * (also reported as `safe`). */
int ul_calc_report_inverse(const ul_calc_quantity *q, const char **v, const ul_calc_options *c,
                           ul_calc_result *res, mpfi_srcptr x, const ul_num_report *rep,
                           const char *meaning, const char *safe_note, ul_status st);

/* A certified value with the JSON field json_key (may be NULL) holding the
 * string json_value (NULL: JSON null), and the text note (may be NULL). */
int ul_calc_report_value_note(const ul_calc_quantity *q, const char **v, const ul_calc_options *c,
                              ul_calc_result *res, const ul_num_value *value,
                              const ul_num_report *rep, const char *meaning, const char *json_key,
                              const char *json_value, const char *note, ul_status st);

/* A certified value; extra_key/extra_value (may be NULL) add one string field. */
int ul_calc_report_value(const ul_calc_quantity *q, const char **v, const ul_calc_options *c,
                         ul_calc_result *res, const ul_num_value *value, const ul_num_report *rep,
                         const char *meaning, const char *extra_key, const char *extra_value,
                         ul_status st);

/* The value of the flag `name` of quantity q (as given, or its default),
 * looked up by name in q's row, never by position.  A name the row does
 * not declare is a fault of this program's tables, never of the input:
 * ul_calc_flag_text aborts, ul_calc_flag_or returns dflt. */
const char *ul_calc_flag_text(const ul_calc_quantity *q, const char **v, const char *name);
const char *ul_calc_flag_or(const ul_calc_quantity *q, const char **v, const char *name,
                            const char *dflt);

/* Splits a comma-separated list in place; returns the count (at most max). */
size_t ul_calc_split_list(char *text, const char **items, size_t max);

/* The quantities, one function each (gauss.c, contraction.c, renyi.c,
 * pld.c, noisygd.c, koloskova.c, langevin.c). */
#define UL_CALC_QUANTITY_FN(fn)                                                                    \
    int fn(const ul_calc_quantity *q, const char **v, const ul_calc_options *c, ul_calc_result *res)
UL_CALC_QUANTITY_FN(ul_calc_theta);
UL_CALC_QUANTITY_FN(ul_calc_gauss_sigma);
UL_CALC_QUANTITY_FN(ul_calc_gauss_eps);
UL_CALC_QUANTITY_FN(ul_calc_contraction);
UL_CALC_QUANTITY_FN(ul_calc_contraction_steps);
UL_CALC_QUANTITY_FN(ul_calc_contraction_sigma);
UL_CALC_QUANTITY_FN(ul_calc_rdp_to_dp);
UL_CALC_QUANTITY_FN(ul_calc_gauss_rdp_eps);
UL_CALC_QUANTITY_FN(ul_calc_sgm_rdp);
UL_CALC_QUANTITY_FN(ul_calc_pld_compose);
UL_CALC_QUANTITY_FN(ul_calc_noisygd_k);
UL_CALC_QUANTITY_FN(ul_calc_noisygd_sigma);
UL_CALC_QUANTITY_FN(ul_calc_model_clipping_t);
UL_CALC_QUANTITY_FN(ul_calc_model_clipping_sigma);
UL_CALC_QUANTITY_FN(ul_calc_output_perturbation_sigma);
UL_CALC_QUANTITY_FN(ul_calc_langevin_sigma);
UL_CALC_QUANTITY_FN(ul_calc_langevin_k);

#endif
