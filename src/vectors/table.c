/* src/vectors/table.c — CSV tables of certified values, and the double column.
 *
 * Every real output is written as four cells: lo and hi (the enclosure
 * rounded outward to the table's digits), the correctly rounded double of
 * the true value when lo and hi determine it, and a flag for doubles that are
 * 0, subnormal or infinite while the true value is not.  The double is
 * derived from the two printed decimals only, so a reader can re-derive it
 * from the file, and it does not depend on the precision the library
 * happened to use.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors/vectors.h"

/* ---- the buffer ------------------------------------------------------------ */

static void append(ul_vec_table *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (t->len + n + 1 > cap)
            cap *= 2;
        char *b = realloc(t->buf, cap);
        /* the program's own vector tables */
        if (b == NULL)
            abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
        t->buf = b;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = '\0';
}

static void append_str(ul_vec_table *t, const char *s)
{
    append(t, s, strlen(s));
}

/* Appends each comma-separated name of list (with suffixes when given) and
 * counts the columns. */
static void header_names(ul_vec_table *t, const char *list, const char *const *suffixes)
{
    if (list == NULL || *list == '\0')
        return;
    const char *p = list;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *const none[] = {"", NULL};
        for (const char *const *s = suffixes ? suffixes : none; *s != NULL; s++) {
            if (t->ncols > 0)
                append_str(t, ",");
            append(t, p, n);
            append_str(t, *s);
            t->ncols++;
        }
        if (end == NULL)
            break;
        p = end + 1;
    }
}

void ul_vec_table_begin(ul_vec_table *t, int digits, const char *inputs, const char *exact,
                        const char *reals)
{
    static const char *const real_suffixes[] = {"_lo", "_hi", "_double", "_flag", NULL};
    memset(t, 0, sizeof *t);
    t->digits = digits;
    header_names(t, inputs, NULL);
    header_names(t, exact, NULL);
    header_names(t, reals, real_suffixes);
    append_str(t, "\n");
}

void ul_vec_table_free(ul_vec_table *t)
{
    free(t->buf);
    memset(t, 0, sizeof *t);
}

/* ---- cells ------------------------------------------------------------------ */

void ul_vec_put_text(ul_vec_table *t, const char *text)
{
    if (t->col > 0)
        append_str(t, ",");
    append_str(t, text);
    t->col++;
}

void ul_vec_put_ulong(ul_vec_table *t, unsigned long v)
{
    char s[32];
    snprintf(s, sizeof s, "%lu", v);
    ul_vec_put_text(t, s);
}

void ul_vec_row_end(ul_vec_table *t)
{
    if (t->col != t->ncols) {
        fprintf(stderr, "ul_vec_row_end: %zu cells for %zu columns\n", t->col, t->ncols);
        abort(); /* not out of memory: a broken invariant of the program (policy: num/status.h) */
    }
    append_str(t, "\n");
    t->col = 0;
    t->rows++;
}

/* ---- the double column ------------------------------------------------------- */

const char *ul_vec_flag_name(ul_vec_flag f)
{
    switch (f) {
    case UL_VEC_FLAG_OK:
        return "ok";
    case UL_VEC_FLAG_ZERO:
        return "zero";
    case UL_VEC_FLAG_SUBNORMAL:
        return "subnormal";
    case UL_VEC_FLAG_INF:
        return "inf";
    case UL_VEC_FLAG_UNDETERMINED:
        break;
    }
    return "undetermined";
}

double ul_vec_decimal_to_double(const char *text)
{
    /* binary64 as an MPFR format: 53 bits, exponents (MPFR's 0.1xxx·2^e
     * convention) from -1073 (the least subnormal 2^-1074) to 1024, and
     * mpfr_subnormalize for the gradual underflow; this is the emulation
     * the MPFR manual gives for mpfr_subnormalize.  The exponent range is a
     * per-thread setting, restored before returning. */
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(-1073);
    mpfr_set_emax(1024);
    mpfr_t x;
    mpfr_init2(x, 53);
    int t = mpfr_strtofr(x, text, NULL, 10, MPFR_RNDN);
    t = mpfr_subnormalize(x, t, MPFR_RNDN);
    (void)t;
    double d = mpfr_get_d(x, MPFR_RNDN); /* exact: x is a double */
    mpfr_clear(x);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    return d;
}

/* Sign of a decimal as printed (ul_num_format's syntax, or "inf"/"-inf"),
 * read from the text: values beyond MPFR's exponent range are ordinary here. */
static int decimal_sign(const char *text)
{
    int neg = text[0] == '-';
    const char *p = text + (neg || text[0] == '+');
    if (strncmp(p, "inf", 3) == 0)
        return neg ? -1 : 1;
    for (; *p != '\0' && *p != 'e' && *p != 'E'; p++)
        if (*p >= '1' && *p <= '9')
            return neg ? -1 : 1;
    return 0;
}

static bool decimal_is_inf(const char *text)
{
    return strstr(text, "inf") != NULL;
}

static ul_vec_flag classify(double d, bool true_nonzero, bool true_finite)
{
    if (d == 0)
        return true_nonzero ? UL_VEC_FLAG_ZERO : UL_VEC_FLAG_OK;
    if (isinf(d))
        return true_finite ? UL_VEC_FLAG_INF : UL_VEC_FLAG_OK;
    if (fabs(d) < DBL_MIN)
        return UL_VEC_FLAG_SUBNORMAL;
    return UL_VEC_FLAG_OK;
}

bool ul_vec_double_of(const char *lo, const char *hi, double *d, ul_vec_flag *flag)
{
    double dl = ul_vec_decimal_to_double(lo), dh = ul_vec_decimal_to_double(hi);
    /* The true value x lies in [lo, hi]: it is certainly nonzero when the two
     * ends have the same nonzero sign, certainly finite when both ends are. */
    int sl = decimal_sign(lo), sh = decimal_sign(hi);
    bool nonzero = (sl > 0) || (sh < 0);
    bool finite = !decimal_is_inf(lo) && !decimal_is_inf(hi);
    ul_vec_flag fl = classify(dl, nonzero, finite), fh = classify(dh, nonzero, finite);
    bool same = dl == dh && signbit(dl) == signbit(dh);
    *flag = fl == fh ? fl : UL_VEC_FLAG_UNDETERMINED;
    *d = dl;
    return same;
}

void ul_vec_put_bounds(ul_vec_table *t, const char *lo, const char *hi)
{
    ul_vec_put_text(t, lo);
    ul_vec_put_text(t, hi);
    double d;
    ul_vec_flag flag;
    char s[40];
    if (!ul_vec_double_of(lo, hi, &d, &flag))
        snprintf(s, sizeof s, "undetermined");
    else if (isinf(d))
        snprintf(s, sizeof s, "%s", d > 0 ? "inf" : "-inf");
    else
        snprintf(s, sizeof s, "%.16e", d); /* 17 significant digits: round-trips */
    ul_vec_put_text(t, s);
    ul_vec_put_text(t, ul_vec_flag_name(flag));
}

void ul_vec_put_value(ul_vec_table *t, const ul_num_value *v)
{
    char *lo, *hi;
    ul_num_value_format(v, t->digits, &lo, &hi);
    ul_vec_put_bounds(t, lo, hi);
    free(lo);
    free(hi);
}

void ul_vec_put_interval(ul_vec_table *t, mpfi_srcptr x)
{
    char *lo = ul_num_format(&x->left, t->digits, MPFR_RNDD);
    char *hi = ul_num_format(&x->right, t->digits, MPFR_RNDU);
    ul_vec_put_bounds(t, lo, hi);
    free(lo);
    free(hi);
}

/* The enclosure of log v at v's precision (v plain: mpfi_log rounds
 * outward; [0, 0] gives [-inf, -inf]). */
static void log_of_value(mpfi_ptr out, const ul_num_value *v)
{
    mpfi_set_prec(out, mpfi_get_prec(v->enclosure));
    if (v->is_log)
        mpfi_set(out, v->enclosure);
    else
        mpfi_log(out, v->enclosure);
}

void ul_vec_put_log_value(ul_vec_table *t, const ul_num_value *v)
{
    if (!v->is_log && mpfi_is_zero(v->enclosure)) {
        ul_vec_put_bounds(t, "-inf", "-inf");
        return;
    }
    mpfi_t l;
    mpfi_init2(l, mpfi_get_prec(v->enclosure));
    log_of_value(l, v);
    ul_vec_put_interval(t, l);
    mpfi_clear(l);
}

/* ---- certifying ---------------------------------------------------------------- */

ul_num_precision ul_vec_want(const ul_vec_table *t)
{
    ul_num_precision want = {t->digits + UL_VEC_GUARD_DIGITS, 0, 0};
    return want;
}

/* Digits the logarithm still lacks: log v is near 0 when v is near 1, and
 * then its relative width is the value's relative width over |log v|.
 * 0 when it is narrow enough (or v is exactly 0, whose log is exactly
 * -inf).  When the enclosure of log v still touches 0 its size is unknown
 * and the digits asked (`asked`) are doubled; otherwise -log10|log v| more
 * are asked. */
static int log_digits_missing(const ul_num_value *v, int digits, int asked)
{
    if (!v->is_log && mpfi_is_zero(v->enclosure))
        return 0;
    ul_num_value l;
    ul_num_value_init(&l, mpfi_get_prec(v->enclosure));
    log_of_value(l.enclosure, v);
    int missing = 0;
    if (!ul_num_value_narrow_enough(&l, digits)) {
        if (mpfi_has_zero(l.enclosure)) {
            missing = asked;
        } else {
            /* |log v| ≥ 2^(e−1) at its end nearer 0, e that end's binary
             * exponent (read from MPFR: |log v| may be below any double) */
            mpfr_srcptr near = mpfr_cmpabs(&l.enclosure->left, &l.enclosure->right) < 0
                                   ? &l.enclosure->left
                                   : &l.enclosure->right;
            long e = mpfr_get_exp(near);
            missing = e <= 0 ? (int)ceil((double)(1 - e) * 0.30103) + 2 : 4;
        }
    }
    ul_num_value_clear(&l);
    return missing;
}

ul_status ul_vec_certify(const ul_vec_table *t, ul_vec_eval eval, void *ctx, bool with_log,
                         ul_num_value *out, char *err, size_t errlen)
{
    ul_num_precision want = ul_vec_want(t);
    for (int attempt = 0; attempt < 12; attempt++) {
        ul_status st = eval(ctx, &want, out, err, errlen);
        if (st == UL_ECAP)
            return ul_fail(err, errlen, UL_ECAP,
                           "precision cap reached before %d digits (lower --digits)", want.digits);
        if (st != UL_OK)
            return st;
        int missing =
            with_log ? log_digits_missing(out, t->digits + UL_VEC_GUARD_DIGITS, want.digits) : 0;
        if (missing == 0)
            return UL_OK;
        want.digits += missing;
    }
    return ul_fail(err, errlen, UL_ECAP, "the logarithm did not reach %d digits",
                   t->digits + UL_VEC_GUARD_DIGITS);
}
