/* src/calc/read.c — the number texts and the flag messages of every
 * command (calc/read.h). */
#include "calc/read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/escape.h"
#include "io/fields.h"
#include "num/status.h"

#define DIGITS "0123456789"

/* The exit code of a usage error (cli/exitcodes.h, UL_EXIT_USAGE). */
#define USAGE 2

/* What the user typed, for a message: control bytes and bytes that are not
 * UTF-8 as \xNN (io/escape.h), cut with "..." past 96 bytes. */
typedef struct {
    char text[100];
} shown_text;

static shown_text shown(const char *text)
{
    shown_text s;
    ul_io_escape(text, strlen(text), s.text, sizeof s.text);
    return s;
}

bool ul_calc_read_count(const char *text, long max, long *out)
{
    size_t n = strspn(text, DIGITS);
    if (n == 0 || text[n] != '\0')
        return false;
    /* digit by digit, stopping past max: no overflow whatever the length */
    long v = 0;
    for (size_t i = 0; i < n; i++) {
        int d = text[i] - '0';
        if (v > max / 10 || 10 * v > max - d)
            return false;
        v = 10 * v + d;
    }
    *out = v;
    return true;
}

int ul_calc_read_whole(const char *name, const char *text, long lo, long hi, long *out,
                       char *err, size_t errlen)
{
    long v;
    if (!ul_calc_read_count(text, hi, &v) || v < lo) {
        ul_fail(err, errlen, UL_EINPUT, "--%s: must be a whole number from %ld to %ld (got '%s')",
                name, lo, hi, shown(text).text);
        return USAGE;
    }
    *out = v;
    return 0;
}

int ul_calc_read_digits(const char *text, int *out, char *err, size_t errlen)
{
    long v;
    int rc = ul_calc_read_whole("digits", text, 1, UL_CALC_DIGITS_MAX, &v, err, errlen);
    if (rc == 0)
        *out = (int)v;
    return rc;
}

int ul_calc_read_max_bits(const char *text, long *out, char *err, size_t errlen)
{
    return ul_calc_read_whole("max-bits", text, UL_CALC_MAX_BITS_MIN, UL_CALC_MAX_BITS_MAX, out,
                              err, errlen);
}

/* digits, an optional fraction, an optional exponent: the whole text */
static bool is_plain_decimal(const char *t)
{
    size_t i = strspn(t, DIGITS), mant = i;
    if (t[i] == '.') {
        size_t frac = strspn(t + i + 1, DIGITS);
        mant += frac;
        i += 1 + frac;
    }
    if (mant == 0)
        return false;
    if (t[i] == 'e' || t[i] == 'E') {
        i += t[i + 1] == '+' || t[i + 1] == '-' ? 2 : 1;
        size_t exp = strspn(t + i, DIGITS);
        if (exp == 0)
            return false;
        i += exp;
    }
    return t[i] == '\0';
}

bool ul_calc_read_seconds(const char *text, double *secs)
{
    *secs = 0;
    if (strcmp(text, "none") == 0)
        return true;
    if (strlen(text) > 64 || !is_plain_decimal(text))
        return false;
    double s = strtod(text, NULL);
    if (!(s >= 0) || !(s <= UL_CALC_MAX_SECONDS))
        return false;
    /* a text that is not zero must not read as no limit: strtod takes
     * 1e-20000 to 0, and anything below a nanosecond is refused */
    bool nonzero = strcspn(text, "123456789") < strcspn(text, "eE");
    if (nonzero && !(s >= UL_CALC_MIN_SECONDS))
        return false;
    *secs = s;
    return true;
}

int ul_calc_read_budget(const char *text, double *secs, char *err, size_t errlen)
{
    if (ul_calc_read_seconds(text, secs))
        return 0;
    ul_fail(err, errlen, UL_EINPUT, "--max-seconds: must be " UL_CALC_BUDGET_RULE " (got '%s')",
            shown(text).text);
    return USAGE;
}

/* ---- the messages of a flag given by name ---------------------------------- */

int ul_calc_flag_unknown(const char *name, const char *const *names, size_t n, char *err,
                         size_t errlen)
{
    char hint[128];
    ul_io_did_you_mean(hint, sizeof hint, name, names, n, "--");
    ul_fail(err, errlen, UL_EINPUT, "unknown flag --%s%s", shown(name).text, hint);
    return USAGE;
}

int ul_calc_flag_twice(const char *name, char *err, size_t errlen)
{
    ul_fail(err, errlen, UL_EINPUT, "--%s: given more than once", name);
    return USAGE;
}

int ul_calc_flag_missing(const char *name, char *err, size_t errlen)
{
    ul_fail(err, errlen, UL_EINPUT, "--%s: missing (required)", name);
    return USAGE;
}

int ul_calc_flag_value_ok(const char *name, const char *value, char *err, size_t errlen)
{
    if (!ul_io_has_control(value, strlen(value)))
        return 0;
    ul_fail(err, errlen, UL_EINPUT,
            "--%s: holds a control character (a value is printable text: no C0, DEL, C1 or "
            "bidirectional control), got '%s'",
            name, shown(value).text);
    return USAGE;
}
