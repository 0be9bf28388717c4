/* src/calc/run.c — running a quantity: named inputs bound to its flags
 * (the library and --batch; the command line parses argv with ul_cli_parse
 * into the same values), its --max-seconds set as the deadline, and the
 * quantity's function called into a result object. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/internal.h"
#include "io/escape.h"
#include "io/fields.h"
#include "num/deadline.h"

#define DIGITS_MAX 5000
#define MAX_BITS_MIN 64L
#define MAX_BITS_MAX (1L << 22)

bool ul_calc_read_count(const char *text, long *out)
{
    size_t n = strspn(text, "0123456789");
    if (n == 0 || n > 9 || text[n] != '\0')
        return false;
    *out = strtol(text, NULL, 10);
    return true;
}

/* digits, an optional fraction, an optional exponent: the whole text */
static bool is_plain_decimal(const char *t)
{
    size_t i = strspn(t, "0123456789"), mant = i;
    if (t[i] == '.') {
        size_t frac = strspn(t + i + 1, "0123456789");
        mant += frac;
        i += 1 + frac;
    }
    if (mant == 0)
        return false;
    if (t[i] == 'e' || t[i] == 'E') {
        i += t[i + 1] == '+' || t[i + 1] == '-' ? 2 : 1;
        size_t exp = strspn(t + i, "0123456789");
        if (exp == 0)
            return false;
        i += exp;
    }
    return t[i] == '\0';
}

bool ul_calc_read_budget(const char *text, double *secs)
{
    *secs = 0;
    if (strcmp(text, "none") == 0)
        return true;
    if (strlen(text) > 64 || !is_plain_decimal(text))
        return false;
    double s = strtod(text, NULL);
    if (!(s >= 0) || !(s <= 1e9))
        return false;
    /* a text that is not zero must not read as no limit: strtod takes
     * 1e-20000 to 0, and anything below a nanosecond is refused */
    bool nonzero = strcspn(text, "123456789") < strcspn(text, "eE");
    if (nonzero && !(s >= 1e-9))
        return false;
    *secs = s;
    return true;
}

void ul_calc_unknown_message(const char *name, char *msg, size_t len)
{
    char quoted[128];
    int n = snprintf(msg, len, "calc: unknown quantity '%s' (known:",
                     ul_io_escape(name, strlen(name), quoted, sizeof quoted));
    for (size_t i = 0; i < ul_calc_count() && n >= 0 && (size_t)n < len; i++)
        n += snprintf(msg + n, len - (size_t)n, " %s", ul_calc_at(i)->name);
    if (n >= 0 && (size_t)n < len)
        snprintf(msg + n, len - (size_t)n, "; see ulaudit calc --help)");
}

/* ---- binding named inputs ------------------------------------------------------
 * The messages are the command line's parser's (cli/args.c, ul_cli_parse),
 * so that a record of --batch and a flag on the command line are refused
 * in the same words. */

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t errlen, const char *fmt,
                                                      ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return UL_CALC_EXIT_USAGE;
}

/* --digits and --max-bits into opt. */
static int set_common(const char *name, const char *value, ul_calc_options *opt, char *err,
                      size_t errlen)
{
    long v;
    char shown[100];
    ul_io_escape(value, strlen(value), shown, sizeof shown);
    if (strcmp(name, "digits") == 0) {
        if (!ul_calc_read_count(value, &v) || v < 1 || v > DIGITS_MAX)
            return fail(err, errlen, "--digits: must be a whole number from 1 to 5000 (got '%s')",
                        shown);
        opt->digits = (int)v;
    } else {
        if (!ul_calc_read_count(value, &v) || v < MAX_BITS_MIN || v > MAX_BITS_MAX)
            return fail(err, errlen,
                        "--max-bits: must be a whole number from 64 to 4194304 (got '%s')",
                        shown);
        opt->max_bits = v;
    }
    return 0;
}

/* The slot of `name`: a flag of q, nflags for digits, nflags + 1 for
 * max-bits; -1 with the message (and the name meant) when unknown. */
static int slot_of(const ul_calc_quantity *q, const char *name, const char *value, char *err,
                   size_t errlen)
{
    char shown[100];
    if (name[0] == '\0') {
        fail(err, errlen, "unexpected argument '--'");
        return -1;
    }
    if (strcmp(name, "json") == 0 || strcmp(name, "help") == 0) {
        /* a flag without a value: the value is a stray argument */
        fail(err, errlen, "unexpected argument '%s'",
             ul_io_escape(value, strlen(value), shown, sizeof shown));
        return -1;
    }
    if (strlen(name) >= 64) { /* the parser's name buffer */
        char arg[72];
        snprintf(arg, sizeof arg, "--%s", name);
        fail(err, errlen, "unknown flag '%s'", ul_io_escape(arg, strlen(arg), shown, sizeof shown));
        return -1;
    }
    for (int k = 0; k < q->nflags; k++)
        if (strcmp(q->flags[k].name, name) == 0)
            return k;
    if (strcmp(name, "digits") == 0)
        return q->nflags;
    if (strcmp(name, "max-bits") == 0)
        return q->nflags + 1;
    const char *names[UL_CALC_MAX_FLAGS + 4] = {"digits", "max-bits", "json", "help"};
    size_t n = 4;
    for (int k = 0; k < q->nflags && n < sizeof names / sizeof names[0]; k++)
        names[n++] = q->flags[k].name;
    char hint[128];
    ul_io_did_you_mean(hint, sizeof hint, name, names, n, "--");
    fail(err, errlen, "unknown flag --%s%s", ul_io_escape(name, strlen(name), shown, sizeof shown),
         hint);
    return -1;
}

int ul_calc_bind(const ul_calc_quantity *q, const char *const *names, const char *const *vals,
                 size_t n, bool common_given, const char **values, ul_calc_options *opt,
                 char *err, size_t errlen)
{
    bool seen[UL_CALC_MAX_FLAGS + 2] = {false};
    seen[q->nflags] = seen[q->nflags + 1] = common_given;
    for (int i = 0; i < q->nflags; i++)
        values[i] = q->flags[i].default_value;
    for (size_t i = 0; i < n; i++) {
        int slot = slot_of(q, names[i], vals[i], err, errlen);
        if (slot < 0)
            return UL_CALC_EXIT_USAGE;
        if (seen[slot])
            return fail(err, errlen, "--%s: given more than once", names[i]);
        seen[slot] = true;
        /* the value is quoted by the messages of whoever reads it: no
         * terminal control goes through (io/escape.h) */
        if (ul_io_has_control(vals[i], strlen(vals[i]))) {
            char shown[100];
            return fail(err, errlen,
                        "--%s: holds a control character (a value is printable text: no C0, "
                        "DEL, C1 or bidirectional control), got '%s'",
                        names[i], ul_io_escape(vals[i], strlen(vals[i]), shown, sizeof shown));
        }
        if (slot >= q->nflags) {
            int rc = set_common(names[i], vals[i], opt, err, errlen);
            if (rc != 0)
                return rc;
        } else {
            values[slot] = vals[i];
        }
    }
    for (int k = 0; k < q->nflags; k++)
        if (values[k] == NULL)
            return fail(err, errlen, "--%s: missing (required)", q->flags[k].name);
    return 0;
}

/* ---- running -------------------------------------------------------------------- */

/* --max-seconds S (ul_calc_read_budget's rule) into *secs.  Without
 * opt->default_budget (the library, --batch) a defaulted budget is not
 * applied, only one given: the deadline is process-wide, and the library
 * promises threads that it keeps no global state unless asked (--batch
 * passes the default as an input, calc/batch.c). */
static bool read_budget(const ul_calc_quantity *q, const char **values,
                        const ul_calc_options *opt, ul_calc_result *res, double *secs)
{
    int slot = -1;
    for (int i = 0; i < q->nflags; i++)
        if (strcmp(q->flags[i].name, "max-seconds") == 0)
            slot = i;
    *secs = 0;
    if (slot < 0)
        abort(); /* every row declares it (calc/table.c) */
    if (!opt->default_budget && values[slot] == ul_calc_budget_default)
        values[slot] = "0"; /* as echoed in the result's inputs */
    if (ul_calc_read_budget(values[slot], secs))
        return true;
    ul_calc_usage(res, "--max-seconds: must be " UL_CALC_BUDGET_RULE " (got '%s')",
                  values[slot]);
    return false;
}

int ul_calc_check_flag(const ul_calc_quantity *q, const char **values, const char *name,
                       ul_calc_result *res)
{
    for (int k = 0; k < UL_CALC_MAX_INPUTS && q->inputs[k].flag != NULL; k++) {
        if (strcmp(q->inputs[k].flag, name) != 0)
            continue;
        char err[512];
        if (ul_calc_domain_check(q->inputs[k].domain, name, ul_calc_flag_text(q, values, name),
                                 err, sizeof err) != UL_OK)
            return ul_calc_input_error(res, UL_EINPUT, err);
        return 0;
    }
    abort(); /* a flag without a domain in this program's table, never input */
}

int ul_calc_check_domains(const ul_calc_quantity *q, const char **values, ul_calc_result *res)
{
    char err[512];
    for (int k = 0; k < UL_CALC_MAX_INPUTS && q->inputs[k].flag != NULL; k++) {
        const char *text = ul_calc_flag_text(q, values, q->inputs[k].flag);
        if (ul_calc_domain_check(q->inputs[k].domain, q->inputs[k].flag, text, err,
                                 sizeof err) != UL_OK)
            return ul_calc_input_error(res, UL_EINPUT, err);
    }
    return 0;
}

int ul_calc_run(const ul_calc_quantity *q, const char **values, const ul_calc_options *opt,
                ul_calc_result *res)
{
    ul_calc_result_init(res);
    res->q = q;
    res->digits = opt->digits;
    double secs;
    if (!read_budget(q, values, opt, res, &secs))
        return res->exit_code = UL_CALC_EXIT_USAGE;
    /* runs under its budget, unless a caller's budget is already running */
    bool started = secs > 0 && ul_deadline_seconds() == 0;
    if (started)
        ul_deadline_set(secs);
    char command[64];
    snprintf(command, sizeof command, "calc %s", q->name);
    /* the command line only: its watchdog ends the process */
    bool watched = started && opt->watch != NULL;
    if (watched)
        opt->watch->start(command, secs);
    int rc = q->run(q, values, opt, res);
    if (watched)
        opt->watch->stop();
    if (started)
        ul_deadline_clear();
    /* the status: the library's reason when a quantity named one (ENOROOT,
     * ETIME), else the exit code's */
    if (res->status == UL_OK || res->status == UL_ECAP)
        res->status = rc == UL_CALC_EXIT_OK                ? UL_OK
                      : rc == UL_CALC_EXIT_INCONCLUSIVE ? UL_ECAP
                                                          : UL_EINPUT;
    if (rc == UL_CALC_EXIT_USAGE && res->json != NULL) {
        json_object_put(res->json); /* an input error returns no result */
        res->json = NULL;
    }
    return res->exit_code = rc;
}
