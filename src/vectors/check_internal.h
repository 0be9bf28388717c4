/* src/vectors/check_internal.h — what the files of the vectors checker
 * share (check.c: reading and matching; check_cell.c: one value's class;
 * check_fly.c: rows computed on the fly; check_json.c: the JSON). */
#ifndef UL_VECTORS_CHECK_INTERNAL_H
#define UL_VECTORS_CHECK_INTERNAL_H

#include "vectors/check.h"

/* MPFR's exponent range, saved while a check runs in its own (check_cell.c). */
typedef struct {
    mpfr_exp_t emin, emax;
} ul_vchk_exp_range;

void ul_vchk_range_begin(ul_vchk_exp_range *saved);
void ul_vchk_range_end(const ul_vchk_exp_range *saved);

/* Cell syntax: a plain decimal; an infinity (its sign, else 0); NaN. */
bool ul_vchk_is_decimal(const char *s);
int ul_vchk_inf_sign(const char *s);
bool ul_vchk_is_nan(const char *s);

/* x = the decimal or infinity s, rounded to nearest at x's precision,
 * clamped into the checker's exponent range (check_cell.c). */
void ul_vchk_read(mpfr_ptr x, const char *s);

/* Sets c->cls (and its error, tolerance mark or invalid reason) from
 * c->text, c->lo, c->hi; tol_text NULL when no tolerance is stated.  Runs
 * inside ul_vchk_range_begin/end. */
void ul_vchk_classify(ul_vchk_cell *c, const ul_vchk_direction *dir, const char *tol_text);

/* One row of family computed on the fly into t (a table begun here with
 * the family's header at digits): in holds the input cells in the
 * family's column order.  UL_EINPUT naming the inputs when the family's
 * function refuses them. */
ul_status ul_vchk_fly_row(const char *family, const char *const *in, int digits, ul_vec_table *t,
                          char *err, size_t errlen);

/* check_json.c, for check.c's rows too: the pretty text of o (malloc'd),
 * and {quantity, unsafe_side, range} of one direction (json-c objects). */
struct json_object;
char *ul_vchk_json_text(struct json_object *o);
struct json_object *ul_vchk_direction_json(const ul_vchk_direction *d);

#endif
