/* src/bounds/theorem.h — what every unlearning theorem of src/bounds shares:
 * named preconditions checked on enclosures, and the printed/corrected choice.
 *
 * A theorem function fills a ul_preconditions list with every precondition
 * it checked, each by a stable name ("eta_le_2_over_L") and a one-line rule
 * with its source ("step size eta <= 2/L (Thm 3.3, Chien et al. 2024)"),
 * so that an audit can list each violated one rather than say "invalid".
 * Where a docs/ page's Errata flag a printed formula as wrong, the function takes a
 * ul_variant and computes either; the default everywhere is the corrected.
 */
#ifndef UL_BOUNDS_THEOREM_H
#define UL_BOUNDS_THEOREM_H

#include <mpfi.h>
#include <stdbool.h>

#define UL_MAX_PRECONDITIONS 24

typedef enum {
    UL_PRE_HOLDS = 0, /* certified true */
    UL_PRE_FAILS,     /* certified false */
    UL_PRE_UNDECIDED, /* the enclosures overlap at this precision */
} ul_pre_state;

typedef struct {
    const char *name; /* stable identifier, snake_case */
    const char *rule; /* one line: the condition and its source */
    ul_pre_state state;
} ul_precondition;

typedef struct {
    ul_precondition items[UL_MAX_PRECONDITIONS];
    int count;
} ul_preconditions;

typedef enum {
    UL_VARIANT_CORRECTED = 0, /* the form docs/ derives as right (default) */
    UL_VARIANT_PRINTED,       /* the formula as printed in the paper */
} ul_variant;

/* Empties the list. */
void ul_pre_clear(ul_preconditions *p);

/* Appends one checked precondition (name and rule must be string literals
 * or otherwise outlive the list); p = NULL (the caller wants no list) does
 * nothing.  Past UL_MAX_PRECONDITIONS it aborts: a theorem with more is a
 * programming error. */
void ul_pre_add(ul_preconditions *p, const char *name, const char *rule, ul_pre_state state);

/* The state of "a ≤ b" (strict: "a < b") for enclosures. */
ul_pre_state ul_pre_leq(mpfi_srcptr a, mpfi_srcptr b);
ul_pre_state ul_pre_less(mpfi_srcptr a, mpfi_srcptr b);

/* HOLDS when every item holds; FAILS when one fails; else UNDECIDED. */
ul_pre_state ul_pre_overall(const ul_preconditions *p);

/* The first item in state `state`, or NULL. */
const ul_precondition *ul_pre_first(const ul_preconditions *p, ul_pre_state state);

#endif
