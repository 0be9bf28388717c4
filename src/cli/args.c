/* src/cli/args.c — command-line flag parsing. */
#include "cli/args.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/escape.h"
#include "io/fields.h"
#include "num/adaptive.h"

#define DIGITS_MAX 5000
#define MAX_BITS_MIN 64L
#define MAX_BITS_MAX (1L << 22)

bool ul_cli_read_count(const char *text, long *out)
{
    size_t n = strlen(text);
    if (n == 0 || n > 9)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)text[i]))
            return false;
    *out = strtol(text, NULL, 10);
    return true;
}

/* digits, an optional fraction, an optional exponent: the whole text */
static bool is_plain_decimal(const char *t)
{
    size_t i = 0, mant = 0;
    while (isdigit((unsigned char)t[i]))
        i++, mant++;
    if (t[i] == '.')
        for (i++; isdigit((unsigned char)t[i]); i++)
            mant++;
    if (mant == 0)
        return false;
    if (t[i] == 'e' || t[i] == 'E') {
        i++;
        if (t[i] == '+' || t[i] == '-')
            i++;
        if (!isdigit((unsigned char)t[i]))
            return false;
        while (isdigit((unsigned char)t[i]))
            i++;
    }
    return t[i] == '\0';
}

bool ul_cli_read_seconds(const char *text, double *out)
{
    if (strlen(text) > 64 || !is_plain_decimal(text))
        return false;
    double s = strtod(text, NULL);
    if (!(s >= 0) || !(s <= UL_CLI_MAX_SECONDS))
        return false;
    /* a text that is not zero must not read as no limit: strtod takes
     * 1e-20000 to 0, and anything below a nanosecond is refused */
    bool nonzero = strcspn(text, "123456789") < strcspn(text, "eE");
    if (nonzero && !(s >= UL_CLI_MIN_SECONDS))
        return false;
    *out = s;
    return true;
}

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t errlen, const char *fmt,
                                                      ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return 2;
}

/* What the user typed, for a message: control bytes and bytes that are not
 * UTF-8 as \xNN (io/escape.h), so that an argument cannot recolour or clear
 * the terminal of whoever reads the error; cut with "..." past 96 bytes. */
typedef struct {
    char text[100];
} shown_text;

static shown_text shown(const char *text)
{
    shown_text s;
    ul_io_escape(text, strlen(text), s.text, sizeof s.text);
    return s;
}

static int set_common(const char *name, const char *value, ul_cli_common *common, char *err,
                      size_t errlen)
{
    long v;
    if (strcmp(name, "digits") == 0) {
        if (!ul_cli_read_count(value, &v) || v < 1 || v > DIGITS_MAX)
            return fail(err, errlen, "--digits: must be a whole number from 1 to 5000 (got '%s')",
                        shown(value).text);
        common->digits = (int)v;
    } else {
        if (!ul_cli_read_count(value, &v) || v < MAX_BITS_MIN || v > MAX_BITS_MAX)
            return fail(err, errlen,
                        "--max-bits: must be a whole number from 64 to 4194304 (got '%s')",
                        shown(value).text);
        common->max_bits = v;
    }
    return 0;
}

int ul_cli_parse(int argc, char **argv, const ul_cli_flag *flags, int nflags,
                 const char **values, ul_cli_common *common, char *err, size_t errlen)
{
    bool seen[UL_CLI_MAX_FLAGS + 2] = {false};
    common->json = false;
    common->help = false;
    common->digits = 17;
    common->max_bits = UL_NUM_DEFAULT_MAX_BITS;
    for (int i = 0; i < nflags; i++)
        values[i] = flags[i].default_value;

    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--json") == 0) {
            common->json = true;
            continue;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            common->help = true;
            continue;
        }
        if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0')
            return fail(err, errlen, "unexpected argument '%s'", shown(arg).text);

        /* --name=value or --name value */
        char name[64];
        const char *value;
        const char *eq = strchr(arg + 2, '=');
        size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
        if (len >= sizeof name)
            return fail(err, errlen, "unknown flag '%s'", shown(arg).text);
        memcpy(name, arg + 2, len);
        name[len] = '\0';
        if (eq) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            return fail(err, errlen, "--%s: missing value", shown(name).text);
        }

        int slot = -1;
        for (int k = 0; k < nflags; k++)
            if (strcmp(flags[k].name, name) == 0)
                slot = k;
        if (strcmp(name, "digits") == 0)
            slot = nflags;
        else if (strcmp(name, "max-bits") == 0)
            slot = nflags + 1;
        if (slot < 0) {
            const char *names[UL_CLI_MAX_FLAGS + 4] = {"digits", "max-bits", "json", "help"};
            size_t n = 4;
            for (int k = 0; k < nflags && n < sizeof names / sizeof names[0]; k++)
                names[n++] = flags[k].name;
            char hint[128];
            ul_io_did_you_mean(hint, sizeof hint, name, names, n, "--");
            return fail(err, errlen, "unknown flag --%s%s", shown(name).text, hint);
        }
        if (seen[slot])
            return fail(err, errlen, "--%s: given more than once", name);
        seen[slot] = true;
        /* the value is quoted by the messages of whoever reads it: no
         * terminal control goes through (io/escape.h) */
        if (ul_io_has_control(value, strlen(value)))
            return fail(err, errlen,
                        "--%s: holds a control character (a value is printable text: no C0, "
                        "DEL, C1 or bidirectional control), got '%s'",
                        name, shown(value).text);
        if (slot >= nflags) {
            int rc = set_common(name, value, common, err, errlen);
            if (rc != 0)
                return rc;
        } else {
            values[slot] = value;
        }
    }
    if (common->help)
        return 0;
    for (int k = 0; k < nflags; k++)
        if (values[k] == NULL)
            return fail(err, errlen, "--%s: missing (required)", flags[k].name);
    return 0;
}
