/* src/audit/audit_util.c — small helpers shared by the method handlers (see
 * audit_util.h for what each guarantees). */
#include "audit/audit_util.h"
#include "audit/audit_omitted.h"
#include "num/input.h"

#include <gmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/json.h"

#include "num/deadline.h"
#include "num/encl.h"

const char *ul_audit_field_text(const ul_cert_values *v, const char *name)
{
    const ul_cert_value *x = ul_cert_values_get(v, name);
    return x != NULL && x->present ? x->text : NULL;
}

int ul_audit_dcmp(const char *a, const char *b)
{
    int c = 0;
    return ul_num_decimal_compare(a, b, &c) ? c : 0;
}

int ul_audit_verdict_rank(ul_verdict v)
{
    switch (v) {
    case UL_VERDICT_SUPPORTED:
        return 0;
    case UL_VERDICT_INCONCLUSIVE:
        return 1;
    case UL_VERDICT_UNSUPPORTED:
        return 2;
    case UL_VERDICT_REFUTED:
        return 3;
    case UL_VERDICT_INVALID:
        break;
    }
    return 4;
}

ul_verdict ul_audit_worse(ul_verdict a, ul_verdict b)
{
    return ul_audit_verdict_rank(a) >= ul_audit_verdict_rank(b) ? a : b;
}

void ul_audit_add_reach(ul_audit_report *rep, const ul_audit_number *n)
{
    if (rep->n_would_reach < UL_AUDIT_MAX_NUMBERS)
        rep->would_reach[rep->n_would_reach++] = *n;
}

void ul_audit_add_forensic(ul_audit_report *rep, const char *fmt, ...)
{
    size_t len = strlen(rep->forensics);
    if (len + 3 >= sizeof rep->forensics)
        return;
    if (len > 0) {
        memcpy(rep->forensics + len, "; ", 3);
        len += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rep->forensics + len, sizeof rep->forensics - len, fmt, ap);
    va_end(ap);
}

ul_num_precision ul_audit_precision(const ul_num_precision *want)
{
    ul_num_precision w = want != NULL ? *want : (ul_num_precision){17, 0, 0};
    if (w.digits < 1)
        w.digits = 17;
    return w;
}

bool ul_audit_rounds_to_nearest(const char *v, mpfi_srcptr x, long *decimals)
{
    const char *dot = strchr(v, '.');
    if (strpbrk(v, "eE") != NULL)
        return false;
    long dec = dot == NULL ? 0 : (long)strlen(dot + 1);
    if (dec > 40)
        return false;
    if (decimals != NULL)
        *decimals = dec;
    mpfr_prec_t p = mpfi_get_prec(x) + 64;
    mpfr_t a, b, scale;
    mpfr_inits2(p, a, b, scale, (mpfr_ptr)0);
    mpfr_set_ui(scale, 10, MPFR_RNDN);
    mpfr_pow_ui(scale, scale, (unsigned long)dec, MPFR_RNDN); /* exact up to 10^40 */
    mpfr_mul(a, &x->left, scale, MPFR_RNDD);
    mpfr_mul(b, &x->right, scale, MPFR_RNDU);
    mpfr_round(a, a);
    mpfr_round(b, b);
    bool same = false;
    mpfi_t sv;
    mpfi_init2(sv, p);
    if (mpfr_equal_p(a, b) && ul_num_set_decimal(sv, v) == UL_OK) {
        mpfr_mul(b, &sv->left, scale, MPFR_RNDN);
        mpfr_round(b, b);
        same = mpfr_equal_p(a, b);
    }
    mpfi_clear(sv);
    mpfr_clears(a, b, scale, (mpfr_ptr)0);
    return same;
}

bool ul_audit_recheck_supported(const char *text, ul_audit_fn audit, const ul_num_precision *want,
                                char *why, size_t whylen)
{
    ul_cert *done = NULL;
    ul_audit_report rep;
    ul_audit_report_init(&rep);
    why[0] = '\0';
    ul_status st = ul_cert_load_buffer(text, strlen(text), &done, why, whylen);
    if (st == UL_OK)
        st = audit(done, want, &rep, why, whylen);
    ul_cert_free(done);
    if (st != UL_OK)
        return false;
    ul_audit_apply_omitted(&rep); /* as ul_audit does after the handler */
    if (rep.verdict != UL_VERDICT_SUPPORTED) {
        if (!ul_audit_omitted_failure(&rep, why, whylen))
            snprintf(why, whylen, "%s", ul_verdict_name(rep.verdict));
        return false;
    }
    return true;
}

ul_status ul_audit_read_object_list(const ul_cert *c, const char *object,
                                    const ul_field_spec *specs, size_t n, const char *list_name,
                                    ul_cert_values *out, char *err, size_t errlen)
{
    ul_field_spec local[32];
    if (n > sizeof local / sizeof local[0])
        abort(); /* a table of this program's, never input */
    memcpy(local, specs, n * sizeof *specs);
    const ul_json_value *v = ul_json_get(ul_cert_object(c, object), list_name);
    if (v != NULL && v->type == UL_JSON_ARRAY)
        for (size_t i = 0; i < n; i++)
            if (strcmp(local[i].name, list_name) == 0)
                local[i].type = UL_FIELD_DECIMAL_LIST;
    return ul_cert_read_object(c, object, local, n, out, err, errlen);
}

void ul_audit_quote_value(const ul_num_value *v, int digits, char lo[UL_AUDIT_NUMBER_CHARS],
                          char hi[UL_AUDIT_NUMBER_CHARS])
{
    /* through the report's own number formatting (audit.c: format_fitting),
     * so that the shortening, its rounding and the note about it are the
     * same as for every other number a sentence quotes */
    ul_audit_number *n = calloc(1, sizeof *n);
    if (n == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    ul_audit_number_set(n, "quoted", "", v, digits);
    memcpy(lo, n->lo, UL_AUDIT_NUMBER_CHARS);
    memcpy(hi, n->hi, UL_AUDIT_NUMBER_CHARS);
    free(n);
}

void ul_audit_quote(mpfi_srcptr x, int digits, char lo[UL_AUDIT_NUMBER_CHARS],
                    char hi[UL_AUDIT_NUMBER_CHARS])
{
    ul_num_value v; /* a read-only view of x in linear form (shares its limbs) */
    v.enclosure[0] = *x;
    v.is_log = false;
    ul_audit_quote_value(&v, digits, lo, hi);
}

char *ul_audit_format_up_readable(mpfr_srcptr x, int digits)
{
    for (;;) {
        char *t = ul_num_format(x, digits, MPFR_RNDU);
        size_t len = strlen(t);
        if (len <= UL_NUM_DECIMAL_MAX_CHARS || digits <= 1)
            return t;
        free(t);
        /* each digit fewer shortens the text by one (the exponent may lose
         * one more): the next try fits or comes closer */
        size_t over = len - UL_NUM_DECIMAL_MAX_CHARS;
        digits = over >= (size_t)digits ? 1 : digits - (int)over;
    }
}

ul_status ul_audit_decide(ul_audit_decide_fn fn, void *ctx, const ul_num_precision *want,
                          int max_digits, ul_verdict *verdict, ul_audit_decide_end *end, char *err,
                          size_t errlen)
{
    ul_num_precision w = *want;
    for (;;) {
        if (ul_deadline_passed()) /* the time budget (num/deadline.h) */
            return ul_fail(err, errlen, UL_ETIME, "deciding the verdict at %d digits",
                           w.digits);
        bool cap_hit = false;
        *verdict = UL_VERDICT_INCONCLUSIVE;
        ul_status st = fn(ctx, &w, verdict, &cap_hit, err, errlen);
        if (end != NULL)
            *end = (ul_audit_decide_end){w.digits, cap_hit};
        if (st != UL_OK || *verdict != UL_VERDICT_INCONCLUSIVE || cap_hit ||
            w.digits > max_digits / 2)
            return st;
        w.digits *= 2;
    }
}

ul_verdict ul_audit_exact_verdict(ul_audit_report *rep, char *margin, size_t mlen, const char *key,
                                  const char *claimed, mpq_srcptr exact, const char *lo,
                                  const char *hi, const char *why)
{
    mpq_t c;
    mpq_init(c);
    bool read = ul_num_decimal_to_mpq(c, claimed);
    int cmp = read ? mpq_cmp(exact, c) : 1;
    mpq_clear(c);
    if (!read)
        return UL_VERDICT_INCONCLUSIVE;
    snprintf(margin, mlen,
             "claimed %s %s; certified %s in [%s, %s], a rational compared exactly: %s", key,
             claimed, key, lo, hi,
             cmp == 0  ? "the bound equals the claim"
             : cmp < 0 ? "the claim is within the certified bound"
                       : "the bound does not reach the claim");
    if (cmp == 0) {
        /* the value itself when it is short enough to read (e.g. 4/25);
         * mpq_get_str needs sizeinbase(num) + sizeinbase(den) + 3 bytes */
        char q[64] = "";
        if (mpz_sizeinbase(mpq_numref(exact), 10) + mpz_sizeinbase(mpq_denref(exact), 10) <= 40)
            mpq_get_str(q, 10, exact);
        ul_audit_explain(rep,
                         "The bound equals the claimed %s = %s exactly (exact rational "
                         "evaluation%s%s%s%s): a tie, so the claim holds; no enclosure can show "
                         "a tie, the rationals do.",
                         key, claimed, q[0] != '\0' ? ": " : "", q, why != NULL ? "; " : "",
                         why != NULL ? why : "");
    }
    return cmp <= 0 ? UL_VERDICT_SUPPORTED : UL_VERDICT_UNSUPPORTED;
}

/* Where the last written digit of text sits: 10^(*exp10) (the exponent
 * written minus the decimals written); *zero when every digit is 0. */
static void last_digit_place(const char *text, long *exp10, bool *zero)
{
    const char *p = text;
    if (*p == '-' || *p == '+')
        p++;
    long frac = 0, ex = 0;
    *zero = true;
    for (; *p >= '0' && *p <= '9'; p++)
        *zero = *zero && *p == '0';
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++, frac++)
            *zero = *zero && *p == '0';
    if (*p == 'e' || *p == 'E')
        ex = strtol(p + 1, NULL, 10); /* within ±10^18 (num/input.h's limits) */
    *exp10 = ex - frac;
}

void ul_audit_stated_interval(const char *text, double rel, mpfr_ptr lo, mpfr_ptr hi)
{
    long place;
    bool zero;
    last_digit_place(text, &place, &zero);
    mpfr_prec_t prec = mpfr_get_prec(lo);
    mpfr_t s_lo, s_hi, h;
    mpfr_inits2(prec, s_lo, s_hi, h, (mpfr_ptr)0);
    mpfr_set_str(s_lo, text, 10, MPFR_RNDD);
    mpfr_set_str(s_hi, text, 10, MPFR_RNDU);
    char half[64];
    snprintf(half, sizeof half, "5e%ld", place - 1); /* ½·10^place, rounded up */
    mpfr_set_str(h, half, 10, MPFR_RNDU);
    if (zero)
        mpfr_set_zero(h, 1); /* a written zero is exact */
    if (rel > 0 && !zero) {
        mpfr_t r;
        mpfr_init2(r, prec);
        mpfr_abs(r, s_hi, MPFR_RNDU);
        if (mpfr_cmpabs(s_lo, r) > 0)
            mpfr_abs(r, s_lo, MPFR_RNDU);
        mpfr_mul_d(r, r, rel, MPFR_RNDU);
        if (mpfr_greater_p(r, h))
            mpfr_set(h, r, MPFR_RNDU);
        mpfr_clear(r);
    }
    mpfr_sub(lo, s_lo, h, MPFR_RNDD);
    mpfr_add(hi, s_hi, h, MPFR_RNDU);
    mpfr_clears(s_lo, s_hi, h, (mpfr_ptr)0);
}

bool ul_audit_stated_agrees(const char *text, const ul_num_value *v)
{
    mpfr_prec_t p = mpfi_get_prec(v->enclosure) + 64;
    if (p < 256)
        p = 256;
    mpfr_t lo, hi, vl, vh;
    mpfr_inits2(p, lo, hi, vl, vh, (mpfr_ptr)0);
    ul_audit_stated_interval(text, 0, lo, hi);
    mpfi_get_left(vl, v->enclosure);
    mpfi_get_right(vh, v->enclosure);
    if (v->is_log) { /* the linear ends, outward */
        mpfr_exp(vl, vl, MPFR_RNDD);
        mpfr_exp(vh, vh, MPFR_RNDU);
    }
    bool ok = mpfr_lessequal_p(vl, hi) && mpfr_greaterequal_p(vh, lo);
    mpfr_clears(lo, hi, vl, vh, (mpfr_ptr)0);
    return ok;
}

/* lo/hi ⊇ v's ends in linear form at v's precision + 16 (outward). */
static void value_ends(const ul_num_value *v, mpfr_ptr lo, mpfr_ptr hi)
{
    mpfi_get_left(lo, v->enclosure);
    mpfi_get_right(hi, v->enclosure);
    if (v->is_log) {
        mpfr_exp(lo, lo, MPFR_RNDD);
        mpfr_exp(hi, hi, MPFR_RNDU);
    }
}

/* Compares v with text: *below (text < v) and *at_most (v ≤ text). */
static void value_vs_decimal(const ul_num_value *v, const char *text, bool *below, bool *at_most)
{
    mpfr_prec_t p = mpfi_get_prec(v->enclosure);
    mpfr_t lo, hi;
    mpfr_inits2(p + 16, lo, hi, (mpfr_ptr)0);
    value_ends(v, lo, hi);
    mpfi_t d;
    mpfi_init2(d, p + 64);
    *below = *at_most = false;
    if (ul_num_set_decimal(d, text) == UL_OK) {
        *below = mpfr_less_p(&d->right, lo);
        *at_most = mpfr_lessequal_p(hi, &d->left);
    }
    mpfi_clear(d);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

bool ul_audit_value_at_most(const ul_num_value *v, const char *text)
{
    bool below, at_most;
    value_vs_decimal(v, text, &below, &at_most);
    return at_most;
}

bool ul_audit_decimal_below(const char *text, const ul_num_value *v)
{
    bool below, at_most;
    value_vs_decimal(v, text, &below, &at_most);
    return below;
}

double ul_audit_value_lo_double(const ul_num_value *v)
{
    mpfr_t lo, hi;
    mpfr_inits2(mpfi_get_prec(v->enclosure) + 16, lo, hi, (mpfr_ptr)0);
    value_ends(v, lo, hi);
    double d = mpfr_get_d(lo, MPFR_RNDN);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return d;
}
