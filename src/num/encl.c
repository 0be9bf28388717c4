/* src/num/encl.c — enclosures, exact decimal input, directed decimal output.
 *
 * Rounding guarantees are stated per function; the one rule behind all of
 * them: a lower bound is only ever rounded toward -inf and an upper bound
 * toward +inf, so every printed or stored bound stays on its side.
 */
#include "num/encl.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ul_num_init(void)
{
    if (mpfr_get_emin() != mpfr_get_emin_min())
        mpfr_set_emin(mpfr_get_emin_min());
    if (mpfr_get_emax() != mpfr_get_emax_max())
        mpfr_set_emax(mpfr_get_emax_max());
}

void ul_num_shutdown(void)
{
    mpfr_free_cache();
}

/* ---- exact decimal input ------------------------------------------------ */

static const char *skip_digits(const char *s, int *count)
{
    *count = 0;
    while (isdigit((unsigned char)*s)) {
        s++;
        (*count)++;
    }
    return s;
}

bool ul_num_is_decimal(const char *text)
{
    if (text == NULL)
        return false;
    const char *s = text;
    if (*s == '+' || *s == '-')
        s++;
    int int_digits, frac_digits = 0, exp_digits;
    s = skip_digits(s, &int_digits);
    if (*s == '.')
        s = skip_digits(s + 1, &frac_digits);
    if (int_digits + frac_digits == 0)
        return false;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        s = skip_digits(s, &exp_digits);
        if (exp_digits == 0)
            return false;
    }
    return *s == '\0';
}

ul_status ul_num_set_decimal(mpfi_ptr x, const char *text)
{
    ul_num_init();
    if (!ul_num_is_decimal(text))
        return UL_EINPUT;

    mpfr_t lo, hi;
    mpfr_inits2(mpfi_get_prec(x), lo, hi, (mpfr_ptr)0);
    char *end_lo, *end_hi;
    /* mpfr_strtofr rounds the exact decimal value correctly in the given
     * direction, so [lo, hi] is the tightest enclosure at this precision. */
    mpfr_strtofr(lo, text, &end_lo, 10, MPFR_RNDD);
    mpfr_strtofr(hi, text, &end_hi, 10, MPFR_RNDU);

    bool ok = *end_lo == '\0' && *end_hi == '\0' && mpfr_number_p(lo) && mpfr_number_p(hi);
    /* Underflow shows as one bound 0 and the other ±(least positive). */
    if (ok && mpfr_zero_p(lo) != mpfr_zero_p(hi))
        ok = false;
    if (ok)
        mpfi_interv_fr(x, lo, hi);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return ok ? UL_OK : UL_EINPUT;
}

/* A decimal as m·10^e with m a whole number without trailing zeros (m = 0
 * gives e = 0, whatever the exponent written); *digits (may be NULL) gets
 * the number of digits of |m| (0 for m = 0).  False when the written
 * exponent does not fit half a long (such numbers never compare equal to a
 * representable one, and the interval comparison decides them). */
static bool decimal_to_integer(const char *text, mpz_ptr m, long *e, size_t *digits)
{
    const char *s = text;
    bool negative = *s == '-';
    if (*s == '+' || *s == '-')
        s++;
    size_t n = strcspn(s, "eE");
    char *d = malloc(n + 1);
    /* a copy of decimal text already held: an input decimal has at most
     * UL_NUM_DECIMAL_MAX_CHARS characters (num/input.h) */
    if (d == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    size_t k = 0;
    long frac = 0;
    bool in_frac = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.') {
            in_frac = true;
            continue;
        }
        if (k > 0 || s[i] != '0') /* leading zeros dropped */
            d[k++] = s[i];
        frac += in_frac;
    }
    long zeros = 0;
    while (k > 0 && d[k - 1] == '0') /* trailing zeros move into e */
        k--, zeros++;
    d[k] = '\0';
    if (digits != NULL)
        *digits = k;
    if (k == 0) {
        free(d);
        mpz_set_ui(m, 0);
        *e = 0;
        return true;
    }
    mpz_set_str(m, d, 10); /* k > 0 decimal digits: cannot fail */
    free(d);
    long exp10 = 0;
    if (s[n] != '\0') {
        errno = 0;
        exp10 = strtol(s + n + 1, NULL, 10);
        if (errno != 0 || exp10 > LONG_MAX / 2 || exp10 < LONG_MIN / 2)
            return false;
    }
    if (negative)
        mpz_neg(m, m);
    *e = exp10 - frac + zeros;
    return true;
}

/* The exponent of text in scientific notation d.ddd…·10^E (*adjusted), and
 * whether |m| = 1 (the value is ±10^E exactly); false for 0, or an exponent
 * beyond a long. */
static bool decimal_exponent(const char *text, long *adjusted, bool *power_of_ten)
{
    mpz_t m;
    mpz_init(m);
    long e;
    size_t k;
    bool ok = decimal_to_integer(text, m, &e, &k) && k > 0;
    if (ok) {
        *adjusted = e + (long)k - 1;
        *power_of_ten = mpz_cmpabs_ui(m, 1) == 0;
    }
    mpz_clear(m);
    return ok;
}

int ul_num_decimal_magnitude(const char *text, long limit)
{
    long a;
    bool p10;
    if (!decimal_exponent(text, &a, &p10)) {
        /* zero, or an exponent beyond a long: the written exponent's sign decides */
        mpz_t m;
        mpz_init(m);
        long e;
        bool zero = decimal_to_integer(text, m, &e, NULL) && mpz_sgn(m) == 0;
        mpz_clear(m);
        if (zero)
            return 0;
        const char *x = strpbrk(text, "eE");
        return x != NULL && x[1] == '-' ? -1 : 1;
    }
    if (a < -limit)
        return -1;
    if (a > limit || (a == limit && !p10))
        return 1;
    return 0;
}

/* Exact comparison of two decimals through integers, when their exponents
 * are close enough for 10^|Δe| to be formed. */
static bool compare_as_integers(const char *a, const char *b, int *cmp)
{
    mpz_t ma, mb, scale;
    mpz_inits(ma, mb, scale, NULL);
    long ea, eb;
    bool ok = decimal_to_integer(a, ma, &ea, NULL) && decimal_to_integer(b, mb, &eb, NULL) &&
              labs(ea - eb) <= 100000;
    if (ok) {
        mpz_ui_pow_ui(scale, 10, (unsigned long)labs(ea - eb));
        mpz_mul(ea > eb ? ma : mb, ea > eb ? ma : mb, scale);
        int c = mpz_cmp(ma, mb);
        *cmp = (c > 0) - (c < 0);
    }
    mpz_clears(ma, mb, scale, NULL);
    return ok;
}

bool ul_num_decimal_to_mpq(mpq_ptr out, const char *text)
{
    if (!ul_num_is_decimal(text) || strlen(text) > 20000)
        return false;
    mpz_t m, p;
    mpz_inits(m, p, NULL);
    long e;
    bool ok = decimal_to_integer(text, m, &e, NULL) && labs(e) <= 21000;
    if (ok) {
        mpz_ui_pow_ui(p, 10, (unsigned long)labs(e));
        if (e >= 0) {
            mpz_mul(m, m, p);
            mpq_set_z(out, m);
        } else {
            mpq_set_num(out, m);
            mpq_set_den(out, p);
            mpq_canonicalize(out);
        }
    }
    mpz_clears(m, p, NULL);
    return ok;
}

bool ul_num_decimal_compare(const char *a, const char *b, int *cmp)
{
    if (!ul_num_is_decimal(a) || !ul_num_is_decimal(b))
        return false;
    /* Intervals first: they decide at once unless a and b are (nearly) equal. */
    for (mpfr_prec_t p = 64; p <= 256; p *= 2) {
        mpfi_t x, y;
        mpfi_init2(x, p);
        mpfi_init2(y, p);
        bool read = ul_num_set_decimal(x, a) == UL_OK && ul_num_set_decimal(y, b) == UL_OK;
        bool decided = false;
        if (read && mpfr_less_p(&x->right, &y->left))
            *cmp = -1, decided = true;
        else if (read && mpfr_greater_p(&x->left, &y->right))
            *cmp = 1, decided = true;
        mpfi_clear(x);
        mpfi_clear(y);
        if (!read)
            return false;
        if (decided)
            return true;
    }
    return compare_as_integers(a, b, cmp);
}

/* ---- directed decimal output --------------------------------------------- */

/* Formats the digit string of mpfr_get_str (value 0.DIGITS × 10^exp10) as
 * d.ddd…e±X.  The exponent is an mpz: values in log form can have decimal
 * exponents beyond a long. */
static char *scientific(const char *digits, mpz_srcptr exp10)
{
    int negative = digits[0] == '-';
    const char *d = digits + negative;
    size_t n = strlen(d);
    mpz_t e;
    mpz_init(e);
    mpz_sub_ui(e, exp10, 1);
    size_t cap = n + mpz_sizeinbase(e, 10) + 16;
    char *out = malloc(cap);
    /* at most --digits (5000) digits and a clamped exponent */
    if (out == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    int len = snprintf(out, cap, "%s%c", negative ? "-" : "", d[0]);
    if (n > 1)
        len += snprintf(out + len, cap - (size_t)len, ".%s", d + 1);
    len += snprintf(out + len, cap - (size_t)len, "e%s", mpz_sgn(e) < 0 ? "-" : "+");
    mpz_abs(e, e);
    mpz_get_str(out + len, 10, e);
    mpz_clear(e);
    return out;
}

/* A malloc'd copy of a fixed word ("0", "inf", "nan", ...). */
static char *word_string(const char *word)
{
    size_t n = strlen(word) + 1;
    char *s = malloc(n);
    if (s == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    memcpy(s, word, n);
    return s;
}

char *ul_num_format(mpfr_srcptr x, int digits, mpfr_rnd_t rnd)
{
    if (mpfr_zero_p(x))
        return word_string("0");
    if (!mpfr_number_p(x))
        return word_string(mpfr_nan_p(x) ? "nan" : mpfr_sgn(x) > 0 ? "inf" : "-inf");
    mpfr_exp_t e;
    /* mpfr_get_str rounds correctly in direction rnd. */
    char *s = mpfr_get_str(NULL, &e, 10, (size_t)digits, x, rnd);
    mpz_t e10;
    mpz_init_set_si(e10, (long)e);
    char *out = scientific(s, e10);
    mpz_clear(e10);
    mpfr_free_str(s);
    return out;
}

/* Beyond the printable range: |log_x| >= 2^UL_PRINT_LOG_EXP_BITS.  Then
 * |log10 x| = |log_x| / ln 10 >= 2^3400 / 2.3026 > 10^1023, so
 * x < 10^-(10^1023) (log_x < 0) or x > 10^(10^1023) (log_x > 0).  Printing the
 * exact decimal exponent would take more than a thousand digits and time that
 * grows with its length (a hostile r = 1e-1000000 in calc theta asked for a
 * two-million-digit exponent), so the bound is moved outward to a fixed end:
 * 0 or 10^-(10^1023) for a tiny x, 10^(10^1023) or inf for a huge one. */
#define UL_PRINT_LOG_EXP_BITS 3400
#define UL_PRINT_EXP10_DIGITS 1023

static char *clamped_string(bool tiny, mpfr_rnd_t rnd)
{
    bool inner = (tiny && rnd == MPFR_RNDU) || (!tiny && rnd == MPFR_RNDD);
    if (!inner)
        return word_string(tiny ? "0" : "inf");
    /* "1e-1000…0" or "1e+1000…0": 10^(∓10^1023) */
    size_t n = 4 + UL_PRINT_EXP10_DIGITS;
    char *s = malloc(n + 1);
    if (s == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    memcpy(s, tiny ? "1e-1" : "1e+1", 4);
    memset(s + 4, '0', UL_PRINT_EXP10_DIGITS);
    s[n] = '\0';
    return s;
}

char *ul_num_format_exp(mpfr_srcptr log_x, int digits, mpfr_rnd_t rnd)
{
    ul_num_init();
    if (mpfr_inf_p(log_x) && mpfr_sgn(log_x) < 0)
        return word_string("0");
    if (mpfr_inf_p(log_x)
        || (mpfr_regular_p(log_x) && mpfr_get_exp(log_x) > UL_PRINT_LOG_EXP_BITS))
        return clamped_string(mpfr_sgn(log_x) < 0, rnd);

    /* u = log10(x) = log_x / ln 10, enclosed; take the bound on rnd's side.
     * Precision: enough for the integer part of u plus the digits asked. */
    mpfr_prec_t p = mpfr_get_prec(log_x) + 64 + (mpfr_prec_t)(3.33 * digits);
    if (mpfr_regular_p(log_x) && mpfr_get_exp(log_x) > 0)
        p += mpfr_get_exp(log_x); /* <= UL_PRINT_LOG_EXP_BITS, see above */
    mpfi_t u, ln10;
    mpfi_init2(u, p);
    mpfi_init2(ln10, p);
    mpfi_set_ui(ln10, 10);
    mpfi_log(ln10, ln10);
    mpfi_set_fr(u, log_x);
    mpfi_div(u, u, ln10);

    mpfr_t bound, ipart, mant;
    mpfr_inits2(p, bound, ipart, mant, (mpfr_ptr)0);
    if (rnd == MPFR_RNDD)
        mpfi_get_left(bound, u);
    else
        mpfi_get_right(bound, u);
    mpfr_floor(ipart, bound);
    /* mant = 10^(bound - floor(bound)) in [1, 10), rounded in direction rnd;
     * the subtraction is rounded the same way, so the bound only moves
     * outward. */
    mpfr_sub(mant, bound, ipart, rnd);
    mpfr_exp10(mant, mant, rnd);

    mpfr_exp_t e;
    char *s = mpfr_get_str(NULL, &e, 10, (size_t)digits, mant, rnd);
    mpz_t e10;
    mpz_init(e10);
    mpfr_get_z(e10, ipart, MPFR_RNDN); /* an integer already: exact */
    if (e >= 0)
        mpz_add_ui(e10, e10, (unsigned long)e);
    else
        mpz_sub_ui(e10, e10, (unsigned long)-e);
    char *out = scientific(s, e10);
    mpz_clear(e10);
    mpfr_free_str(s);
    mpfr_clears(bound, ipart, mant, (mpfr_ptr)0);
    mpfi_clear(u);
    mpfi_clear(ln10);
    return out;
}

/* ---- values -------------------------------------------------------------- */

void ul_num_value_init(ul_num_value *v, mpfr_prec_t prec)
{
    ul_num_init();
    mpfi_init2(v->enclosure, prec);
    v->is_log = false;
}

void ul_num_value_clear(ul_num_value *v)
{
    mpfi_clear(v->enclosure);
}

bool ul_num_value_narrow_enough(const ul_num_value *v, int digits)
{
    /* Differences are taken from the full-precision ends and rounded up into
     * 64 bits; every rounding makes the test stricter, never looser. */
    mpfr_srcptr lo = &v->enclosure->left, hi = &v->enclosure->right;
    mpfr_t width, scale, target;
    mpfr_inits2(64, width, scale, target, (mpfr_ptr)0);

    /* target = 10^(1-digits), rounded down */
    mpfr_set_si(target, 1 - digits, MPFR_RNDN);
    mpfr_exp10(target, target, MPFR_RNDD);

    bool ok;
    if (mpfr_equal_p(lo, hi)) {
        ok = true;
    } else if (!mpfr_number_p(lo) || !mpfr_number_p(hi)) {
        ok = false;
    } else if (v->is_log) {
        /* relative width of exp: (e^hi - e^lo)/e^lo = expm1(hi - lo) */
        mpfr_sub(width, hi, lo, MPFR_RNDU);
        mpfr_expm1(width, width, MPFR_RNDU);
        ok = mpfr_lessequal_p(width, target);
    } else if (mpfr_sgn(lo) <= 0 && mpfr_sgn(hi) >= 0) {
        ok = false;
    } else {
        mpfr_sub(width, hi, lo, MPFR_RNDU);
        if (mpfr_sgn(lo) > 0)
            mpfr_set(scale, lo, MPFR_RNDD);
        else
            mpfr_neg(scale, hi, MPFR_RNDD);
        mpfr_div(width, width, scale, MPFR_RNDU);
        ok = mpfr_lessequal_p(width, target);
    }
    mpfr_clears(width, scale, target, (mpfr_ptr)0);
    return ok;
}

/* One bound of exp(L), in direction rnd, as decimal text. */
static char *format_exp_bound(mpfr_srcptr log_bound, int digits, mpfr_rnd_t rnd)
{
    mpfr_t v;
    mpfr_init2(v, mpfr_get_prec(log_bound) + 32);
    mpfr_clear_flags();
    mpfr_exp(v, log_bound, rnd);
    char *s;
    if (mpfr_underflow_p() || mpfr_overflow_p())
        s = ul_num_format_exp(log_bound, digits, rnd);
    else
        s = ul_num_format(v, digits, rnd);
    mpfr_clear(v);
    return s;
}

void ul_num_value_format(const ul_num_value *v, int digits, char **lo, char **hi)
{
    mpfr_t b;
    mpfr_init2(b, mpfi_get_prec(v->enclosure));
    mpfi_get_left(b, v->enclosure);
    *lo = v->is_log ? format_exp_bound(b, digits, MPFR_RNDD) : ul_num_format(b, digits, MPFR_RNDD);
    mpfi_get_right(b, v->enclosure);
    *hi = v->is_log ? format_exp_bound(b, digits, MPFR_RNDU) : ul_num_format(b, digits, MPFR_RNDU);
    mpfr_clear(b);
}
