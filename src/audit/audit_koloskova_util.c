/* src/audit/audit_koloskova_util.c — what the three Koloskova-paper audit
 * handlers (audit_model_clipping.c, audit_gradient_clipping.c,
 * audit_dp_sgd_group.c) share: field reading, the agreement of a stated
 * number with a value, report texts, and the decision loop that raises the
 * digits near the boundary.  See audit_koloskova_util.h. */
#include "audit/audit_koloskova_util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num/deadline.h"
#include "num/input.h"

const char *const ul_audit_kol_inits[] = {"ball", "box", NULL};
const char *const ul_audit_kol_conversions[] = {"bbghs", "mironov", NULL};

/* printf into a fixed report field, cut at its size (a va_list keeps the
 * compiler's truncation analysis out: cutting is intended here). */
void ul_audit_kol_setf(char *dst, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, n, fmt, ap);
    va_end(ap);
}

const ul_cert_value *ul_audit_kol_get(const ul_cert_values *v, const char *name)
{
    const ul_cert_value *x = ul_cert_values_get(v, name);
    if (x == NULL)
        abort(); /* every name used is in its table */
    return x;
}

/* The texts of a "decimal or list" field (items, or the one decimal). */
const char *const *ul_audit_kol_value_items(const ul_cert_value *v, size_t *n)
{
    if (v->type == UL_FIELD_DECIMAL_LIST) {
        *n = v->n_items;
        return v->items;
    }
    *n = 1;
    return &v->text;
}

ul_status ul_audit_kol_unused(const ul_cert_value *v, const char *why, char *err, size_t errlen)
{
    return ul_fail(err, errlen, UL_EINPUT, "%s: not used %s (remove it)", v->path, why);
}

ul_status ul_audit_kol_missing(const char *path, const char *why, char *err, size_t errlen)
{
    return ul_fail(err, errlen, UL_EINPUT, "%s: missing, required %s", path, why);
}

ul_status ul_audit_kol_read_init(const ul_cert_value *init, const ul_cert_value *dim, ul_kol_init *shape,
                        unsigned long *d, char *err, size_t errlen)
{
    *shape = init->present && strcmp(init->text, "box") == 0 ? UL_KOL_INIT_BOX : UL_KOL_INIT_BALL;
    if (*shape == UL_KOL_INIT_BOX) {
        if (!dim->present)
            return ul_audit_kol_missing(dim->path, "by init box", err, errlen);
        *d = (unsigned long)dim->count;
    } else if (dim->present) {
        return ul_audit_kol_unused(dim, "by init ball", err, errlen);
    }
    return UL_OK;
}

/* Rewrites a message of src/bounds ("sigma: …", names as CLI flags) with the
 * certificate's JSON path (an input error, or out of memory for a size the
 * certificate chose). */
ul_status ul_audit_kol_with_path(ul_status st, const char *object, char *err, size_t errlen)
{
    if ((st != UL_EINPUT && st != UL_ENOMEM) || err == NULL || errlen == 0)
        return st;
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", err);
    const char *colon = strchr(copy, ':');
    if (colon == NULL || colon - copy > 40) {
        snprintf(err, errlen, "$.%s: %s", object, copy);
        return st;
    }
    char name[48];
    snprintf(name, sizeof name, "%.*s", (int)(colon - copy), copy);
    for (char *p = name; *p; p++)
        if (*p == '-')
            *p = '_';
    const char *obj = strcmp(name, "eps") == 0 || strcmp(name, "delta") == 0 ? "claim" : object;
    snprintf(err, errlen, "$.%s.%s%s", obj, name, colon);
    return st;
}

/* The value's linear bounds (log form exponentiated outward). */
void ul_audit_kol_value_bounds(const ul_num_value *v, mpfr_ptr lo, mpfr_ptr hi)
{
    mpfi_get_left(lo, v->enclosure);
    mpfi_get_right(hi, v->enclosure);
    if (v->is_log) {
        mpfr_exp(lo, lo, MPFR_RNDD);
        mpfr_exp(hi, hi, MPFR_RNDU);
    }
}

/* Whether `text` agrees with the value within a relative slack rel
 * (at 256 bits). */
bool ul_audit_kol_agrees_value_slack(const char *text, const ul_num_value *v, double rel)
{
    mpfr_t lo, hi, vl, vh;
    mpfr_inits2(256, lo, hi, vl, vh, (mpfr_ptr)0);
    ul_audit_stated_interval(text, rel, lo, hi);
    ul_audit_kol_value_bounds(v, vl, vh);
    bool ok = mpfr_lessequal_p(vl, hi) && mpfr_greaterequal_p(vh, lo);
    mpfr_clears(lo, hi, vl, vh, (mpfr_ptr)0);
    return ok;
}

/* Whether a's upper end is above b's. */
bool ul_audit_kol_hi_greater(const ul_num_value *a, const ul_num_value *b)
{
    return mpfr_greater_p(&a->enclosure->right, &b->enclosure->right);
}

/* One end of x (upper rounded up, or lower rounded down) at `digits`;
 * malloc'd. */
char *ul_audit_kol_end_text(mpfi_srcptr x, int digits, bool upper)
{
    mpfr_t e;
    mpfr_init2(e, mpfi_get_prec(x));
    if (upper)
        mpfi_get_right(e, x);
    else
        mpfi_get_left(e, x);
    char *t = ul_num_format(e, digits, upper ? MPFR_RNDU : MPFR_RNDD);
    mpfr_clear(e);
    return t;
}

/* x ← v (its precision and value, log form or plain). */
void ul_audit_kol_value_copy(ul_num_value *x, const ul_num_value *v)
{
    mpfi_set_prec(x->enclosure, mpfi_get_prec(v->enclosure));
    mpfi_set(x->enclosure, v->enclosure);
    x->is_log = v->is_log;
}

/* Whether every number that rounds to `text` lies below the value. */
bool ul_audit_kol_text_below(const char *text, const ul_num_value *v)
{
    mpfr_t sl, sh, vl, vh;
    mpfr_inits2(256, sl, sh, vl, vh, (mpfr_ptr)0);
    ul_audit_stated_interval(text, 0, sl, sh);
    ul_audit_kol_value_bounds(v, vl, vh);
    bool under = mpfr_less_p(sh, vl);
    mpfr_clears(sl, sh, vl, vh, (mpfr_ptr)0);
    return under;
}

/* Whether the exact decimal `value` agrees with `text` at the digits given. */
bool ul_audit_kol_agrees_decimal(const char *text, const char *value)
{
    ul_num_value v;
    ul_num_value_init(&v, 256);
    bool ok = ul_num_set_decimal(v.enclosure, value) == UL_OK && ul_audit_stated_agrees(text, &v);
    ul_num_value_clear(&v);
    return ok;
}

/* Whether a double (a recipe's output) reproduces `text`. */
bool ul_audit_kol_agrees_double(const char *text, double x, double rel)
{
    if (!isfinite(x))
        return false;
    mpfr_t lo, hi;
    mpfr_inits2(256, lo, hi, (mpfr_ptr)0);
    ul_audit_stated_interval(text, rel, lo, hi);
    bool ok = mpfr_cmp_d(lo, x) <= 0 && mpfr_cmp_d(hi, x) >= 0;
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return ok;
}

/* "[lo, hi]" (or the one number when both agree) of a value, into buf
 * (n ≥ 12), or "hi" alone (hi_only).  Never cut: when it does not fit, the
 * ends are formatted again with fewer digits (still rounded outward: lo
 * down, hi up), and as -inf/inf when not even 1 digit fits (an exponent of
 * over 100 digits, δ below 10^(-10^100), in a short buffer). */
static void value_text_fit(char *buf, size_t n, const ul_num_value *v, int digits, bool hi_only)
{
    for (int d = digits; d >= 1; d--) {
        char *lo, *hi;
        ul_num_value_format(v, d, &lo, &hi);
        int len = hi_only              ? snprintf(buf, n, "%s", hi)
                  : strcmp(lo, hi) == 0 ? snprintf(buf, n, "%s", lo)
                                        : snprintf(buf, n, "[%s, %s]", lo, hi);
        free(lo);
        free(hi);
        if (len >= 0 && (size_t)len < n)
            return;
    }
    snprintf(buf, n, "%s", hi_only ? "inf" : "[-inf, inf]");
}

void ul_audit_kol_value_text(char *buf, size_t n, const ul_num_value *v, int digits)
{
    value_text_fit(buf, n, v, digits, false);
}

/* Upper end of a value as text (rounded up). */
void ul_audit_kol_value_hi_text(char *buf, size_t n, const ul_num_value *v, int digits)
{
    value_text_fit(buf, n, v, digits, true);
}

/* Marks the report invalid and explains which preconditions fail. */
void ul_audit_kol_make_invalid(ul_audit_report *rep)
{
    rep->verdict = UL_VERDICT_INVALID;
    char names[1024] = "";
    size_t len = 0;
    for (int i = 0; i < rep->pre.count && len < sizeof names; i++)
        if (rep->pre.items[i].state == UL_PRE_FAILS)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "",
                                    rep->pre.items[i].name);
    ul_audit_explain(rep, "Invalid: precondition%s of the cited theorem fail%s: %s.",
                     strchr(names, ',') ? "s" : "", strchr(names, ',') ? "" : "s", names);
    const ul_precondition *first = ul_pre_first(&rep->pre, UL_PRE_FAILS);
    if (first != NULL)
        ul_audit_explain(rep, "(%s: %s.)", first->name, first->rule);
}

/* After a bounds call: UL_OK/UL_ECAP go on; UL_EINPUT with a failing
 * precondition makes the verdict invalid (*done); other errors return. */
ul_status ul_audit_kol_triage(ul_status st, ul_audit_report *rep, bool *done, const char *object,
                        char *err, size_t errlen)
{
    *done = false;
    if (st == UL_OK || st == UL_ECAP)
        return UL_OK;
    if (st == UL_EINPUT && ul_pre_first(&rep->pre, UL_PRE_FAILS) != NULL) {
        ul_audit_kol_make_invalid(rep);
        *done = true;
        return UL_OK;
    }
    return ul_audit_kol_with_path(st, object, err, errlen);
}

/* ---- decisions near the boundary ----------------------------------------------
 * A claim within a relative 10^-17 of the bound straddles the enclosure at
 * the default digits.  The handlers then evaluate again at twice the digits
 * (the pattern of audit_gaussian.c decide_theta and audit_rdp.c decide),
 * until the verdict is decided or the precision cap (--max-bits) stops the
 * evaluation.  Each method also has a digit limit where one more doubling
 * would cost far more than the claim is worth (a claim within 10^-limit of
 * its bound, or equal to it, then stays inconclusive and the report says
 * why): the subsampled-Gaussian series of dp-sgd-group grows from 0.3 s at
 * 240 digits to 20 s at 272 (α ≈ 500); the adaptive recursion costs about
 * 1e-8 s · T · digits². */

/* Why a decision stayed inconclusive, in words. */
void ul_audit_kol_undecided_why(const ul_audit_decide_end *end, char *buf, size_t n)
{
    if (end->cap_hit)
        snprintf(buf, n, "at the precision cap (raise --max-bits)");
    else
        snprintf(buf, n,
                 "at %d digits, where this audit stops raising its precision (cost): the claim "
                 "is within about 10^-%d of the bound",
                 end->digits, end->digits - 2);
}

void ul_audit_kol_add_would_reach_value(ul_audit_report *rep, const char *key, const char *label,
                                  const ul_num_value *v, int digits)
{
    if (rep->n_would_reach < UL_AUDIT_MAX_NUMBERS)
        ul_audit_number_set(&rep->would_reach[rep->n_would_reach++], key, label, v, digits);
}

void ul_audit_kol_add_would_reach_mpfi(ul_audit_report *rep, const char *key, const char *label,
                                 mpfi_srcptr x, int digits)
{
    if (rep->n_would_reach < UL_AUDIT_MAX_NUMBERS)
        ul_audit_number_set_mpfi(&rep->would_reach[rep->n_would_reach++], key, label, x, digits);
}

void ul_audit_kol_add_would_reach_integer(ul_audit_report *rep, const char *key, const char *label,
                                    unsigned long value)
{
    if (rep->n_would_reach < UL_AUDIT_MAX_NUMBERS)
        ul_audit_number_set_integer(&rep->would_reach[rep->n_would_reach++], key, label, value);
}
