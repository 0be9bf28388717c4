/* src/bounds/theorem.c — named preconditions. */
#include "bounds/theorem.h"

#include <stdlib.h>

void ul_pre_clear(ul_preconditions *p)
{
    p->count = 0;
}

void ul_pre_add(ul_preconditions *p, const char *name, const char *rule, ul_pre_state state)
{
    if (p == NULL)
        return;
    if (p->count >= UL_MAX_PRECONDITIONS)
        abort(); /* not out of memory: a broken invariant of the program (policy: num/status.h) */
    p->items[p->count].name = name;
    p->items[p->count].rule = rule;
    p->items[p->count].state = state;
    p->count++;
}

ul_pre_state ul_pre_leq(mpfi_srcptr a, mpfi_srcptr b)
{
    if (mpfr_lessequal_p(&a->right, &b->left))
        return UL_PRE_HOLDS;
    if (mpfr_greater_p(&a->left, &b->right))
        return UL_PRE_FAILS;
    return UL_PRE_UNDECIDED;
}

ul_pre_state ul_pre_less(mpfi_srcptr a, mpfi_srcptr b)
{
    if (mpfr_less_p(&a->right, &b->left))
        return UL_PRE_HOLDS;
    if (mpfr_greaterequal_p(&a->left, &b->right))
        return UL_PRE_FAILS;
    return UL_PRE_UNDECIDED;
}

ul_pre_state ul_pre_overall(const ul_preconditions *p)
{
    ul_pre_state overall = UL_PRE_HOLDS;
    for (int i = 0; i < p->count; i++) {
        if (p->items[i].state == UL_PRE_FAILS)
            return UL_PRE_FAILS;
        if (p->items[i].state == UL_PRE_UNDECIDED)
            overall = UL_PRE_UNDECIDED;
    }
    return overall;
}

const ul_precondition *ul_pre_first(const ul_preconditions *p, ul_pre_state state)
{
    for (int i = 0; i < p->count; i++)
        if (p->items[i].state == state)
            return &p->items[i];
    return NULL;
}
