/* src/cli/args.c — the one command-line parser (args.h): every command's
 * flags, switches and positional arguments by the same rules and messages. */
#include "cli/args.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/escape.h"
#include "num/adaptive.h"

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t errlen, const char *fmt,
                                                      ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return 2;
}

static int set_common(const char *name, const char *value, ul_cli_common *common, char *err,
                      size_t errlen)
{
    if (strcmp(name, "digits") == 0)
        return ul_calc_read_digits(value, &common->digits, err, errlen);
    return ul_calc_read_max_bits(value, &common->max_bits, err, errlen);
}

/* What the user typed, for a message: control bytes and bytes that are not
 * UTF-8 as \xNN (io/escape.h), so that an argument cannot recolour or clear
 * the terminal of whoever reads the error; cut with "..." past 96 bytes. */
#define SHOWN(text) ul_io_escape((text), strlen(text), (char[100]){0}, 100)

/* ---- the parser under every command ---------------------------------------- */

/* The words a switch accepts after '=' (args.h): on, then off. */
static const char *const SWITCH_ON[] = {"true", "yes", "1"};
static const char *const SWITCH_OFF[] = {"false", "no", "0"};

static int find_name(const char *name, const char *const *names, int n)
{
    for (int k = 0; k < n; k++)
        if (strcmp(names[k], name) == 0)
            return k;
    return -1;
}

static int find_row(const ul_cli_grammar *g, const char *name)
{
    for (int k = 0; k < g->nflags; k++)
        if (strcmp(g->flags[k].name, name) == 0)
            return k;
    return -1;
}

/* "unknown flag --NAME" with the suggestion among the rows, then the
 * switches (calc/read.h). */
static int unknown_flag(const ul_cli_grammar *g, const char *name, char *err, size_t errlen)
{
    const char *names[UL_CLI_MAX_ROWS + UL_CLI_MAX_SWITCHES];
    size_t n = 0;
    for (int k = 0; k < g->nflags; k++)
        names[n++] = g->flags[k].name;
    for (int k = 0; k < g->nswitches; k++)
        names[n++] = g->switches[k];
    return ul_calc_flag_unknown(name, names, n, err, errlen);
}

/* A switch: bare, or =true|yes|1 / =false|no|0 (args.h).  Given again
 * with the same state it is accepted (a wrapper that adds --json to a line
 * that has it); with the other state it is refused, as a valued flag given
 * twice is: which one is meant cannot be told. */
static int set_switch(const ul_cli_grammar *g, int k, const char *value, ul_cli_args *out,
                      char *err, size_t errlen)
{
    bool on;
    if (value == NULL || find_name(value, SWITCH_ON, 3) >= 0)
        on = true;
    else if (find_name(value, SWITCH_OFF, 3) >= 0)
        on = false;
    else
        return fail(err, errlen,
                    "--%s: a switch, written bare or =true, false, yes, no, 1 or 0 (got '%s')",
                    g->switches[k], SHOWN(value));
    if (out->seen_switch[k] && out->on[k] != on)
        return ul_calc_flag_twice(g->switches[k], err, errlen);
    out->seen_switch[k] = true;
    out->on[k] = on;
    return 0;
}

/* A valued flag's text into row k. */
static int set_row(const ul_cli_grammar *g, int k, const char *value, ul_cli_args *out, char *err,
                   size_t errlen)
{
    const char *name = g->flags[k].name;
    if (out->given[k])
        return ul_calc_flag_twice(name, err, errlen);
    /* the value is quoted by the messages of whoever reads it */
    int rc = ul_calc_flag_value_ok(name, value, err, errlen);
    if (rc != 0)
        return rc;
    out->given[k] = true;
    out->values[k] = value;
    return 0;
}

/* A positional argument (anything that is not --NAME). */
static int set_arg(const ul_cli_grammar *g, const char *arg, ul_cli_args *out, char *err,
                   size_t errlen)
{
    if (out->nargs >= g->max_args)
        return fail(err, errlen, "unexpected argument '%s'%s", SHOWN(arg),
                    g->extra_arg != NULL ? g->extra_arg : "");
    out->args[out->nargs++] = arg;
    return 0;
}

/* One --NAME[=VALUE] at argv[*i]; a valued flag without '=' takes the next
 * argument unless it is a flag itself (args.h). */
static int one_flag(const ul_cli_grammar *g, int argc, char **argv, int *i, ul_cli_args *out,
                    char *err, size_t errlen)
{
    const char *arg = argv[*i];
    const char *eq = strchr(arg + 2, '=');
    size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
    char name[100];
    snprintf(name, sizeof name, "%.*s", (int)(len < 99 ? len : 99), arg + 2);
    int sw = len < sizeof name ? find_name(name, g->switches, g->nswitches) : -1;
    if (sw >= 0)
        return set_switch(g, sw, eq ? eq + 1 : NULL, out, err, errlen);
    int k = len < sizeof name ? find_row(g, name) : -1;
    if (k < 0)
        return unknown_flag(g, name, err, errlen);
    if (eq)
        return set_row(g, k, eq + 1, out, err, errlen);
    if (*i + 1 >= argc)
        return fail(err, errlen, "--%s: missing value", name);
    const char *next = argv[*i + 1];
    if (strncmp(next, "--", 2) == 0 && next[2] != '\0')
        return fail(err, errlen,
                    "--%s: missing value (the next argument '%s' is a flag; a value starting "
                    "with -- is written --%s=VALUE)",
                    name, SHOWN(next), name);
    ++*i;
    return set_row(g, k, next, out, err, errlen);
}

int ul_cli_parse_grammar(const ul_cli_grammar *g, int argc, char **argv, ul_cli_args *out,
                         char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (g->nflags > UL_CLI_MAX_ROWS || g->nswitches > UL_CLI_MAX_SWITCHES ||
        g->max_args > UL_CLI_MAX_ARGS)
        abort(); /* a grammar larger than the parser's tables: a programming error */
    for (int k = 0; k < g->nflags; k++)
        out->values[k] = g->flags[k].default_value;
    int help = find_name("help", g->switches, g->nswitches);
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        int rc;
        if (strcmp(arg, "-h") == 0 && help >= 0)
            rc = set_switch(g, help, NULL, out, err, errlen);
        else if (strncmp(arg, "--", 2) == 0 && arg[2] != '\0')
            rc = one_flag(g, argc, argv, &i, out, err, errlen);
        else
            rc = set_arg(g, arg, out, err, errlen);
        if (rc != 0)
            return rc;
    }
    if (help >= 0 && out->on[help])
        return 0;
    for (int k = 0; k < g->nflags; k++)
        if (out->values[k] == NULL)
            return ul_calc_flag_missing(g->flags[k].name, err, errlen);
    return 0;
}

bool ul_cli_switch_on(const ul_cli_grammar *g, const ul_cli_args *a, const char *name)
{
    int k = find_name(name, g->switches, g->nswitches);
    return k >= 0 && a->on[k];
}

/* ---- the calculator's flags and the common ones ------------------------------ */

static const char *const COMMON_SWITCHES[] = {"json", "help"};

int ul_cli_parse_with_args(const ul_cli_grammar *g, int argc, char **argv, const char **values,
                           ul_cli_common *common, const char **args, int *nargs, char *err,
                           size_t errlen)
{
    /* --digits and --max-bits lead the rows (the order of the suggestions) */
    ul_cli_flag rows[UL_CLI_MAX_ROWS] = {{"digits", "N", "significant digits", "17"},
                                         {"max-bits", "B", "precision cap in bits", ""}};
    if (g->nflags > UL_CLI_MAX_ROWS - 2)
        abort();
    for (int k = 0; k < g->nflags; k++)
        rows[2 + k] = g->flags[k];
    ul_cli_grammar all = {rows, g->nflags + 2, COMMON_SWITCHES, 2, g->max_args, g->extra_arg};
    ul_cli_args a;
    common->json = false;
    common->help = false;
    common->digits = 17;
    common->max_bits = UL_NUM_DEFAULT_MAX_BITS;
    int rc = ul_cli_parse_grammar(&all, argc, argv, &a, err, errlen);
    for (int k = 0; k < g->nflags; k++)
        values[k] = a.values[2 + k];
    if (rc != 0)
        return rc;
    common->json = a.on[0];
    common->help = a.on[1];
    for (int k = 0; k < 2; k++)
        if (a.given[k] && (rc = set_common(rows[k].name, a.values[k], common, err, errlen)) != 0)
            return rc;
    if (args != NULL)
        for (int k = 0; k < a.nargs; k++)
            args[k] = a.args[k];
    if (nargs != NULL)
        *nargs = a.nargs;
    return 0;
}

int ul_cli_parse(int argc, char **argv, const ul_cli_flag *flags, int nflags, const char **values,
                 ul_cli_common *common, char *err, size_t errlen)
{
    ul_cli_grammar g = {flags, nflags, NULL, 0, 0, NULL};
    return ul_cli_parse_with_args(&g, argc, argv, values, common, NULL, NULL, err, errlen);
}
