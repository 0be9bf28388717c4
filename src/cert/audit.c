/* src/cert/audit.c — dispatch to the method handlers, and the helpers they
 * share for verdicts and report numbers. */
#include "cert/audit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num/encl.h"

/* The handlers that exist; a method missing here is reported as not yet
 * auditable (never guessed). */
static const ul_audit_method *const REGISTRY[] = {
    &ul_audit_gaussian_mechanism,
    &ul_audit_output_perturbation,
    &ul_audit_rdp_curve,
    &ul_audit_langevin,
    &ul_audit_noisy_gd,
    &ul_audit_d2d,
    &ul_audit_model_clipping,
    &ul_audit_gradient_clipping,
    &ul_audit_dp_sgd_group,
    NULL,
};

const char *ul_verdict_name(ul_verdict v)
{
    switch (v) {
    case UL_VERDICT_SUPPORTED:
        return "supported";
    case UL_VERDICT_UNSUPPORTED:
        return "unsupported";
    case UL_VERDICT_REFUTED:
        return "refuted";
    case UL_VERDICT_INVALID:
        return "invalid";
    case UL_VERDICT_INCONCLUSIVE:
        break;
    }
    return "inconclusive";
}

int ul_verdict_exit_code(ul_verdict v)
{
    switch (v) {
    case UL_VERDICT_SUPPORTED:
        return 0;
    case UL_VERDICT_INCONCLUSIVE:
        return 3;
    default:
        return 1;
    }
}

void ul_audit_report_init(ul_audit_report *rep)
{
    memset(rep, 0, sizeof *rep);
    rep->verdict = UL_VERDICT_INCONCLUSIVE;
    ul_pre_clear(&rep->pre);
}

static const ul_audit_method *find(const char *method)
{
    for (size_t i = 0; REGISTRY[i] != NULL; i++)
        if (strcmp(REGISTRY[i]->method, method) == 0)
            return REGISTRY[i];
    return NULL;
}

ul_status ul_audit(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                   char *err, size_t errlen)
{
    ul_audit_report_init(rep);
    const ul_audit_method *m = find(ul_cert_method(c));
    if (m == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "$.method: '%s' cannot be audited yet",
                       ul_cert_method(c));
    return m->audit(c, want, rep, err, errlen);
}

ul_status ul_audit_calibrate(const ul_cert *c, const ul_num_precision *want, char **completed,
                             char *err, size_t errlen)
{
    const ul_audit_method *m = find(ul_cert_method(c));
    if (m == NULL || m->calibrate == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "$.method: '%s' has no calibration",
                       ul_cert_method(c));
    return m->calibrate(c, want, completed, err, errlen);
}

/* ---- report numbers ---------------------------------------------------------- */

static void copy_text(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src);
}

void ul_audit_number_set(ul_audit_number *n, const char *key, const char *label,
                         const ul_num_value *v, int digits)
{
    char *lo, *hi;
    ul_num_value_format(v, digits, &lo, &hi);
    n->key = key;
    copy_text(n->label, sizeof n->label, label);
    copy_text(n->lo, sizeof n->lo, lo);
    copy_text(n->hi, sizeof n->hi, hi);
    free(lo);
    free(hi);
}

void ul_audit_number_set_mpfi(ul_audit_number *n, const char *key, const char *label,
                              mpfi_srcptr x, int digits)
{
    mpfr_t b;
    mpfr_init2(b, mpfi_get_prec(x));
    mpfi_get_left(b, x);
    char *lo = ul_num_format(b, digits, MPFR_RNDD);
    mpfi_get_right(b, x);
    char *hi = ul_num_format(b, digits, MPFR_RNDU);
    n->key = key;
    copy_text(n->label, sizeof n->label, label);
    copy_text(n->lo, sizeof n->lo, lo);
    copy_text(n->hi, sizeof n->hi, hi);
    free(lo);
    free(hi);
    mpfr_clear(b);
}

void ul_audit_number_set_integer(ul_audit_number *n, const char *key, const char *label,
                                 unsigned long value)
{
    n->key = key;
    copy_text(n->label, sizeof n->label, label);
    snprintf(n->lo, sizeof n->lo, "%lu", value);
    snprintf(n->hi, sizeof n->hi, "%lu", value);
}

void ul_audit_explain(ul_audit_report *rep, const char *fmt, ...)
{
    size_t len = strlen(rep->explanation);
    if (len + 2 >= sizeof rep->explanation)
        return;
    if (len > 0)
        rep->explanation[len++] = ' ', rep->explanation[len] = '\0';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rep->explanation + len, sizeof rep->explanation - len, fmt, ap);
    va_end(ap);
}

/* ---- the verdict of a bound against a claim ----------------------------------- */

ul_verdict ul_audit_compare(ul_audit_report *rep, const char *key, const char *label,
                            const ul_num_value *guarantee, const char *claimed,
                            bool exact_profile, int digits)
{
    ul_audit_number_set(&rep->recomputed, key, label, guarantee, digits);

    /* Compare in the guarantee's own form: log(claimed) against a log
     * enclosure, claimed itself against a linear one; claimed read as an
     * enclosure at the guarantee's precision plus margin. */
    mpfr_prec_t p = mpfi_get_prec(guarantee->enclosure) + 64;
    mpfi_t c;
    mpfi_init2(c, p);
    ul_verdict v = UL_VERDICT_INCONCLUSIVE;
    if (ul_num_set_decimal(c, claimed) == UL_OK) {
        bool claim_zero = mpfi_is_zero(c);
        if (guarantee->is_log && !claim_zero)
            mpfi_log(c, c);
        mpfr_srcptr g_lo = &guarantee->enclosure->left, g_hi = &guarantee->enclosure->right;
        if (guarantee->is_log && claim_zero) {
            /* a positive quantity can be ≤ 0 only if it is 0: lo = -inf */
            if (mpfr_inf_p(g_hi) && mpfr_sgn(g_hi) < 0)
                v = UL_VERDICT_SUPPORTED;
            else if (!(mpfr_inf_p(g_lo) && mpfr_sgn(g_lo) < 0))
                v = exact_profile ? UL_VERDICT_REFUTED : UL_VERDICT_UNSUPPORTED;
        } else if (mpfr_lessequal_p(g_hi, &c->left)) {
            v = UL_VERDICT_SUPPORTED;
        } else if (mpfr_greater_p(g_lo, &c->right)) {
            v = exact_profile ? UL_VERDICT_REFUTED : UL_VERDICT_UNSUPPORTED;
        }
    }
    mpfi_clear(c);

    snprintf(rep->margin, sizeof rep->margin, "claimed %s %s; certified %s in [%s, %s]: %s", key,
             claimed, key, rep->recomputed.lo, rep->recomputed.hi,
             v == UL_VERDICT_SUPPORTED  ? "the claim is within the certified bound"
             : v == UL_VERDICT_REFUTED  ? "the exact value exceeds the claim"
             : v == UL_VERDICT_UNSUPPORTED ? "the bound does not reach the claim"
                                           : "the enclosure straddles the claim");
    return v;
}
