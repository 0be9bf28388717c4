/* src/calc/run.c — running a quantity: named inputs bound to its flags
 * (the library and --batch; the command line parses argv with ul_cli_parse
 * into the same values), its --max-seconds set as the deadline, and the
 * quantity's function called into a result object. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/internal.h"
#include "io/escape.h"
#include "num/deadline.h"

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
 * The messages are the command line's parser's (calc/read.h, which
 * cli/args.c words its refusals with), so that a record of --batch, a name
 * given to the library and a flag on the command line are refused in the
 * same words. */

/* The slot of `name`: a flag of q, nflags for digits, nflags + 1 for
 * max-bits; -1 with the message (and the name meant) when unknown. */
static int slot_of(const ul_calc_quantity *q, const char *name, const char *value, char *err,
                   size_t errlen)
{
    if (name[0] == '\0') {
        snprintf(err, errlen, "unexpected argument '--'");
        return -1;
    }
    if (strcmp(name, "json") == 0 || strcmp(name, "help") == 0) {
        /* a switch given a value the command line would read as a stray
         * argument: the library and a record have no output to switch */
        char shown[100];
        snprintf(err, errlen, "unexpected argument '%s'",
                 ul_io_escape(value, strlen(value), shown, sizeof shown));
        return -1;
    }
    for (int k = 0; k < q->nflags; k++)
        if (strcmp(q->flags[k].name, name) == 0)
            return k;
    if (strcmp(name, "digits") == 0)
        return q->nflags;
    if (strcmp(name, "max-bits") == 0)
        return q->nflags + 1;
    /* the names in the order of the command line's parser (cli/args.c,
     * ul_cli_parse_with_args): the common rows, the quantity's, the switches */
    const char *names[UL_CALC_MAX_FLAGS + 4] = {"digits", "max-bits"};
    size_t n = 2;
    for (int k = 0; k < q->nflags && n < UL_CALC_MAX_FLAGS + 2; k++)
        names[n++] = q->flags[k].name;
    names[n++] = "json";
    names[n++] = "help";
    ul_calc_flag_unknown(name, names, n, err, errlen);
    return -1;
}

/* --digits and --max-bits into opt. */
static int set_common(const char *name, const char *value, ul_calc_options *opt, char *err,
                      size_t errlen)
{
    if (strcmp(name, "digits") == 0)
        return ul_calc_read_digits(value, &opt->digits, err, errlen);
    return ul_calc_read_max_bits(value, &opt->max_bits, err, errlen);
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
            return ul_calc_flag_twice(names[i], err, errlen);
        seen[slot] = true;
        int rc = ul_calc_flag_value_ok(names[i], vals[i], err, errlen);
        if (rc == 0 && slot >= q->nflags)
            rc = set_common(names[i], vals[i], opt, err, errlen);
        if (rc != 0)
            return rc;
        if (slot < q->nflags)
            values[slot] = vals[i];
    }
    for (int k = 0; k < q->nflags; k++)
        if (values[k] == NULL)
            return ul_calc_flag_missing(q->flags[k].name, err, errlen);
    return 0;
}

/* ---- running -------------------------------------------------------------------- */

/* --max-seconds S (calc/read.h, ul_calc_read_budget) into *secs.  Without
 * opt->default_budget (the library, --batch) a defaulted budget is not
 * applied, only one given: the library imposes no budget its caller did
 * not ask for (a caller's ulaudit_limits_set budget stays in force, the
 * deadline being the calling thread's; --batch passes the default as an
 * input, calc/batch.c). */
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
    char err[256];
    if (ul_calc_read_budget(values[slot], secs, err, sizeof err) == 0)
        return true;
    ul_calc_usage(res, "%s", err);
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
