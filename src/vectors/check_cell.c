/* src/vectors/check_cell.c — the class of one value against its enclosure
 * (vectors/check.h): exact, safe-inaccurate, unsafe or invalid, its error,
 * and whether it lies within the implementation's stated tolerance.
 *
 * The value and the bounds are decimal text.  They are compared in MPFR at
 * a precision above their digit counts (4 bits per character > log2(10)
 * per digit), so two different decimals never round to one number; the
 * rounding is to nearest and monotone, so the order of two decimals is
 * kept.  The exponent range is set to ±2^20 during a check: every double
 * fits, and a bound beyond (θ = 1.8e-2171472409516259138255427484, which
 * no MPFR range holds) is replaced by the extreme of the range with its
 * sign, which compares the same way against every double.
 */
#include <ctype.h>
#include <strings.h>
#include <math.h>
#include <string.h>

#include "vectors/check_internal.h"

#define RANGE_EXP (1L << 20)

void ul_vchk_range_begin(ul_vchk_exp_range *saved)
{
    saved->emin = mpfr_get_emin();
    saved->emax = mpfr_get_emax();
    mpfr_set_emin(-RANGE_EXP);
    mpfr_set_emax(RANGE_EXP);
}

void ul_vchk_range_end(const ul_vchk_exp_range *saved)
{
    mpfr_set_emin(saved->emin);
    mpfr_set_emax(saved->emax);
}

/* [+-]? digits [. digits] [(e|E) [+-]? digits], at least one digit in the
 * mantissa: the decimals a CSV writer prints (no hex, no "0x", no "@"). */
bool ul_vchk_is_decimal(const char *s)
{
    const char *p = s + (*s == '+' || *s == '-');
    size_t digits = 0;
    for (; isdigit((unsigned char)*p); p++)
        digits++;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++)
            digits++;
    if (digits == 0)
        return false;
    if (*p == 'e' || *p == 'E') {
        p++;
        p += (*p == '+' || *p == '-');
        if (!isdigit((unsigned char)*p))
            return false;
        while (isdigit((unsigned char)*p))
            p++;
    }
    return *p == '\0';
}

/* "inf", "+inf", "-inf", "infinity" in any case: the sign, 0 if not one. */
int ul_vchk_inf_sign(const char *s)
{
    int sign = *s == '-' ? -1 : 1;
    const char *p = s + (*s == '+' || *s == '-');
    return strcasecmp(p, "inf") == 0 || strcasecmp(p, "infinity") == 0 ? sign : 0;
}

bool ul_vchk_is_nan(const char *s)
{
    const char *p = s + (*s == '+' || *s == '-');
    return strcasecmp(p, "nan") == 0;
}

/* Whether the mantissa of a decimal has a nonzero digit. */
static bool nonzero_mantissa(const char *s)
{
    for (const char *p = s; *p != '\0' && *p != 'e' && *p != 'E'; p++)
        if (*p >= '1' && *p <= '9')
            return true;
    return false;
}

/* x = the decimal s (a decimal or an infinity), at x's precision, the
 * out-of-range cases clamped as the file comment says. */
void ul_vchk_read(mpfr_ptr x, const char *s)
{
    int inf = ul_vchk_inf_sign(s);
    if (inf != 0) {
        mpfr_set_inf(x, inf);
        return;
    }
    mpfr_strtofr(x, s, NULL, 10, MPFR_RNDN);
    int sign = *s == '-' ? -1 : 1;
    if (mpfr_zero_p(x) && nonzero_mantissa(s))
        mpfr_set_si_2exp(x, sign, -RANGE_EXP, MPFR_RNDN); /* 2^(emin-1): the least positive */
    else if (mpfr_inf_p(x))
        mpfr_set_si_2exp(x, sign, RANGE_EXP - 1, MPFR_RNDN); /* a finite number this range holds */
}

static mpfr_prec_t cell_prec(const char *v, const char *lo, const char *hi)
{
    return (mpfr_prec_t)(64 + 4 * (strlen(v) + strlen(lo) + strlen(hi)));
}

/* INVALID by the quantity's range, or NULL. */
static const char *out_of_range(mpfr_srcptr v, ul_vchk_range range)
{
    if (range != UL_VCHK_LOGPROB && mpfr_sgn(v) < 0)
        return "negative";
    if (range == UL_VCHK_PROB && mpfr_cmp_ui(v, 1) > 0)
        return "above 1";
    if (range == UL_VCHK_LOGPROB && mpfr_sgn(v) > 0)
        return "above 0";
    return NULL;
}

/* The error of v against the bound b it crossed: |v − b|/|b| rounded up,
 * or |v| (absolute) when b = 0; +inf when b is infinite. */
static void error_of(ul_vchk_cell *c, mpfr_srcptr v, mpfr_srcptr b)
{
    if (mpfr_inf_p(b)) {
        c->error = INFINITY;
        return;
    }
    mpfr_t d;
    mpfr_init2(d, 64);
    mpfr_sub(d, v, b, MPFR_RNDA); /* away from 0: |d| rounded up */
    mpfr_abs(d, d, MPFR_RNDU);
    c->absolute = mpfr_zero_p(b);
    if (!c->absolute) {
        mpfr_t ab;
        mpfr_init2(ab, mpfr_get_prec(b));
        mpfr_abs(ab, b, MPFR_RNDN); /* exact */
        mpfr_div(d, d, ab, MPFR_RNDU);
        mpfr_clear(ab);
    }
    c->error = mpfr_get_d(d, MPFR_RNDU); /* +inf past the double range */
    mpfr_clear(d);
}

/* Whether lo − tol·|v| ≤ v ≤ hi + tol·|v| certainly holds (vectors/README.md,
 * "Testing an implementation"): e = tol·|v| rounded down, the comparison
 * rounded against the value. */
static bool within(mpfr_srcptr v, mpfr_srcptr lo, mpfr_srcptr hi, mpfr_srcptr tol, bool below)
{
    mpfr_prec_t p = mpfr_get_prec(v) + mpfr_get_prec(tol) + 64;
    mpfr_t e, s;
    mpfr_inits2(p, e, s, (mpfr_ptr)0);
    mpfr_abs(e, v, MPFR_RNDD);
    mpfr_mul(e, e, tol, MPFR_RNDD);
    bool ok;
    if (below) {
        mpfr_add(s, v, e, MPFR_RNDD); /* v + e ≥ lo */
        ok = mpfr_cmp(s, lo) >= 0;
    } else {
        mpfr_sub(s, v, e, MPFR_RNDU); /* v − e ≤ hi */
        ok = mpfr_cmp(s, hi) <= 0;
    }
    mpfr_clears(e, s, (mpfr_ptr)0);
    return ok;
}

/* Whether v is the vector's correctly rounded double with flag ok (a
 * normal double, or the true value exactly): what a double implementation
 * at its best returns (vectors/README.md, "Testing an implementation"). */
static bool is_the_double(const ul_vchk_cell *c, mpfr_srcptr v)
{
    if (c->dbl == NULL || strcmp(c->flag, "ok") != 0 || !ul_vchk_is_decimal(c->dbl))
        return false;
    /* both texts read to the nearest 53-bit number: a double printed with
     * 17 digits reads back exactly, and a shorter round-trip print of the
     * same double (Python's repr) rounds to it too */
    mpfr_t d, v53;
    mpfr_inits2(53, d, v53, (mpfr_ptr)0);
    ul_vchk_read(d, c->dbl);
    mpfr_set(v53, v, MPFR_RNDN);
    bool same = mpfr_equal_p(d, v53);
    mpfr_clears(d, v53, (mpfr_ptr)0);
    return same;
}

/* The class of the value v (a number, not NaN) inside or outside [lo, hi]. */
static void place(ul_vchk_cell *c, const ul_vchk_direction *dir, mpfr_srcptr v, mpfr_srcptr lo,
                  mpfr_srcptr hi, mpfr_srcptr tol)
{
    bool below = mpfr_cmp(v, lo) < 0, above = mpfr_cmp(v, hi) > 0;
    c->as_double = (below || above) && is_the_double(c, v);
    if ((!below && !above) || c->as_double) {
        c->cls = UL_VCHK_EXACT;
        return;
    }
    bool hurts = below ? dir->unsafe == UL_VCHK_BELOW : dir->unsafe == UL_VCHK_ABOVE;
    c->cls = hurts ? UL_VCHK_UNSAFE : UL_VCHK_SAFE;
    error_of(c, v, below ? lo : hi);
    c->within_tolerance = tol != NULL && within(v, lo, hi, tol, below);
}

void ul_vchk_classify(ul_vchk_cell *c, const ul_vchk_direction *dir, const char *tol_text)
{
    const char *t = c->text;
    c->cls = UL_VCHK_INVALID;
    if (*t == '\0') {
        c->invalid_why = "empty";
        return;
    }
    if (ul_vchk_is_nan(t)) {
        c->invalid_why = "NaN";
        return;
    }
    int inf = ul_vchk_inf_sign(t);
    if (inf != 0) {
        /* exact only when the true value is that infinity (log θ = −inf at θ = 0) */
        bool same = ul_vchk_inf_sign(c->lo) == inf && ul_vchk_inf_sign(c->hi) == inf;
        c->cls = same ? UL_VCHK_EXACT : UL_VCHK_INVALID;
        c->invalid_why = same ? NULL : "infinite";
        return;
    }
    mpfr_prec_t p = cell_prec(t, c->lo, c->hi);
    mpfr_t v, lo, hi, tol;
    mpfr_inits2(p, v, lo, hi, tol, (mpfr_ptr)0);
    ul_vchk_read(v, t);
    ul_vchk_read(lo, c->lo);
    ul_vchk_read(hi, c->hi);
    c->invalid_why = out_of_range(v, dir->range);
    if (c->invalid_why == NULL) {
        if (tol_text != NULL)
            ul_vchk_read(tol, tol_text);
        place(c, dir, v, lo, hi, tol_text != NULL ? tol : NULL);
    }
    mpfr_clears(v, lo, hi, tol, (mpfr_ptr)0);
}
