/* tests/test_lib_calc.c — the calculator's two clients agree, and its
 * inputs are declared once.
 *
 * The library (ulaudit_calc) and the command line (`ulaudit calc ... --json`)
 * both run the quantities of src/calc; each quantity fills a result object
 * and prints nothing.  A quantity that printed its result itself used to
 * pass the command line's tests and fail in the library ("no result
 * captured"); here every quantity of the table, run through the library,
 * must hand back the object the binary prints (an independent client: a
 * separate process and argv parser).
 *
 * The rule in a flag's help text (calc/domain.h, generated from the
 * domain) and the check of its value come from one declaration: the test
 * reads each end and its strictness from the help text itself and asks the
 * library with values on and just outside each end. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/calc.h"
#include "cli_run.h"
#include "ulaudit.h"

#define MAX_TOKENS 30

/* The flags of an example "ulaudit calc Q --a x --b y" as names and values
 * (pointers into buf); returns the count. */
static size_t example_flags(const char *example, char *buf, size_t len, const char **names,
                            const char **values)
{
    snprintf(buf, len, "%s", example);
    size_t n = 0;
    char *save = NULL, *tok = strtok_r(buf, " ", &save);
    for (int skip = 0; tok != NULL && skip < 3; skip++) /* ulaudit calc Q */
        tok = strtok_r(NULL, " ", &save);
    while (tok != NULL && n < MAX_TOKENS / 2) {
        names[n] = tok + 2;
        values[n++] = strtok_r(NULL, " ", &save);
        tok = strtok_r(NULL, " ", &save);
    }
    return n;
}

/* Runs the binary with `calc Q`, the flags and --json; the parsed stdout. */
static json_object *cli_object(const char *quantity, const char **names, const char **values,
                               size_t n)
{
    const char *argv[MAX_TOKENS + 8] = {"calc", quantity};
    char flags[MAX_TOKENS / 2][80];
    size_t argc = 2;
    for (size_t i = 0; i < n; i++) {
        snprintf(flags[i], sizeof flags[i], "--%s", names[i]);
        argv[argc++] = flags[i];
        argv[argc++] = values[i];
    }
    argv[argc++] = "--json";
    run_result r = run(argv[0], argv[1], argv[2], argv[3], argv[4], argv[5], argv[6], argv[7],
                       argv[8], argv[9], argv[10], argv[11], argv[12], argv[13], argv[14],
                       argv[15], argv[16], argv[17], argv[18], argv[19], argv[20], argv[21],
                       argv[22], argv[23], argv[24], argv[25], argv[26], argv[27], argv[28],
                       argv[29], argv[30], argv[31], NULL);
    cr_assert_eq(r.status, 0, "calc %s: exit %d: %s", quantity, r.status, r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o, "calc %s: not JSON: %s", quantity, r.out);
    run_free(&r);
    return o;
}

Test(lib_calc, every_quantity_hands_the_library_the_command_lines_object, .timeout = 300)
{
    for (size_t i = 0; i < ul_calc_count(); i++) {
        const ul_calc_quantity *q = ul_calc_at(i);
        char buf[1024];
        const char *names[MAX_TOKENS / 2 + 1], *values[MAX_TOKENS / 2 + 1];
        size_t n;
        if (strcmp(q->name, "pld-compose") == 0) { /* its example takes seconds: a smaller point */
            static const char *const pn[] = {"sigma", "steps", "eps", "rel-width"};
            static const char *const pv[] = {"2", "1", "1", "0.1"};
            for (n = 0; n < 4; n++)
                names[n] = pn[n], values[n] = pv[n];
        } else {
            n = example_flags(q->example, buf, sizeof buf, names, values);
        }
        /* the command line's default budget, echoed in the inputs */
        names[n] = "max-seconds";
        values[n++] = UL_CALC_DEFAULT_MAX_SECONDS;
        char *json = NULL, err[1024] = "";
        ulaudit_status st = ulaudit_calc(q->name, names, values, n, NULL, &json, err, sizeof err);
        cr_assert(st == ULAUDIT_OK || st == ULAUDIT_ECAP, "%s: %s (%s)", q->name,
                  ulaudit_status_name(st), err);
        cr_assert_not_null(json, "%s: no result", q->name);
        json_object *lib = json_tokener_parse(json), *cli = cli_object(q->name, names, values, n);
        cr_assert(json_object_equal(lib, cli), "%s:\nlibrary  %s\ncommand  %s", q->name, json,
                  json_object_to_json_string_ext(cli, JSON_C_TO_STRING_PLAIN));
        json_object_put(lib);
        json_object_put(cli);
        ulaudit_free(json);
    }
}

/* One end of a rule as the help text states it: "0 < D" or "D <= 1e9". */
typedef struct {
    char value[32];
    bool strict;
} help_end;

/* Reads "LO <|<= M <|<= HI" or "|M| <= HI" from the end of a help text. */
static bool rule_of(const char *help, const char *meta, help_end *lo, help_end *hi)
{
    char abs_form[64], op1[3], op2[3], m[16];
    snprintf(abs_form, sizeof abs_form, ", |%s| <= ", meta);
    const char *a = strstr(help, abs_form);
    if (a != NULL) {
        sscanf(a + strlen(abs_form), "%30[^ ,(]", hi->value);
        snprintf(lo->value, sizeof lo->value, "-%.30s", hi->value);
        lo->strict = hi->strict = false;
        return true;
    }
    /* the rule follows a comma: the first ", LO OP META OP HI" (a later
     * comment may hold commas of its own) */
    for (const char *c = strchr(help, ','); c != NULL; c = strchr(c + 1, ',')) {
        int got = sscanf(c + 1, " %31s %2s %15s %2s %31[^ ,():]", lo->value, op1, m, op2,
                         hi->value);
        if (got != 5 || strcmp(m, meta) != 0)
            continue;
        lo->strict = strcmp(op1, "<") == 0;
        hi->strict = strcmp(op2, "<") == 0;
        return true;
    }
    return false;
}

/* The library's answer for flag = text, the other flags as in the example. */
static ulaudit_status try_value(const ul_calc_quantity *q, const char *flag, const char *text,
                                char *err, size_t errlen)
{
    char buf[1024];
    const char *names[MAX_TOKENS / 2 + 1], *values[MAX_TOKENS / 2 + 1];
    size_t n = example_flags(q->example, buf, sizeof buf, names, values), k = 0;
    while (k < n && strcmp(names[k], flag) != 0)
        k++;
    names[k] = flag;
    values[k] = text;
    n += k == n;
    names[n] = "max-seconds"; /* an end may be slow to compute: its answer is not the point */
    values[n++] = "5";
    char *json = NULL;
    ulaudit_options opt = {3, 0};
    ulaudit_status st = ulaudit_calc(q->name, names, values, n, &opt, &json, err, errlen);
    ulaudit_free(json);
    return st;
}

Test(lib_calc, help_rule_and_input_check_are_one_declaration, .timeout = 300)
{
    int checked = 0;
    for (size_t i = 0; i < ul_calc_count(); i++) {
        const ul_calc_quantity *q = ul_calc_at(i);
        if (strcmp(q->name, "pld-compose") == 0)
            continue; /* no domain; its example takes seconds */
        for (int f = 0; f < q->nflags; f++) {
            const ul_calc_domain *d = ul_calc_flag_domain(q, f);
            if (d == NULL || d->type != UL_CALC_REAL)
                continue;
            char help[512], err[1024];
            ul_calc_flag_help(q, f, help, sizeof help);
            help_end end[2];
            cr_assert(rule_of(help, q->flags[f].meta, &end[0], &end[1]),
                      "%s --%s: no rule in '%s'", q->name, q->flags[f].name, help);
            for (int side = 0; side < 2; side++) {
                /* just outside: the end scaled away from the range by 1 + 1e-30
                 * (or -1e-30 for an end at 0) */
                char outside[96];
                if (strcmp(end[side].value, "0") == 0)
                    snprintf(outside, sizeof outside, "%s1e-30", side == 0 ? "-" : "");
                else
                    snprintf(outside, sizeof outside, "%s%s", end[side].value,
                             (side == 1) == (end[side].value[0] != '-') ? "000000000000001" : "");
                if (strcmp(outside, end[side].value) != 0 && strchr(end[side].value, 'e') == NULL) {
                    cr_assert_eq(try_value(q, q->flags[f].name, outside, err, sizeof err),
                                 ULAUDIT_EINPUT, "%s --%s %s accepted (help: %s)", q->name,
                                 q->flags[f].name, outside, help);
                    checked++;
                }
                /* on the end: refused exactly when the help says strict */
                ulaudit_status st = try_value(q, q->flags[f].name, end[side].value, err, sizeof err);
                char named[80];
                snprintf(named, sizeof named, "--%s: must be", q->flags[f].name);
                bool refused_by_range = st == ULAUDIT_EINPUT && strstr(err, named) != NULL;
                cr_assert_eq(refused_by_range, end[side].strict,
                             "%s --%s %s: %s (help: %s)", q->name, q->flags[f].name,
                             end[side].value, err, help);
                checked++;
            }
        }
    }
    cr_assert_gt(checked, 20);
}

/* A flag whose help lists words ("product or adaptive (default product)"):
 * each word the help names is accepted, and another is refused with a
 * message naming the flag and the same words. */
Test(lib_calc, help_words_and_input_check_are_one_declaration, .timeout = 300)
{
    int checked = 0;
    for (size_t i = 0; i < ul_calc_count(); i++) {
        const ul_calc_quantity *q = ul_calc_at(i);
        for (int f = 0; f < q->nflags; f++) {
            const ul_calc_domain *d = ul_calc_flag_domain(q, f);
            if (d == NULL || d->type != UL_CALC_ENUM)
                continue;
            char help[512], rule[512], err[1024];
            ul_calc_flag_help(q, f, help, sizeof help);
            snprintf(rule, sizeof rule, "%.*s", (int)strcspn(help, "("), help);
            size_t rl = strlen(rule); /* the words before " (default ...)" */
            if (rl > 0 && rule[rl - 1] == ' ')
                rule[rl - 1] = '\0';
            char words[512], *save = NULL;
            snprintf(words, sizeof words, "%s", rule);
            for (char *w = strtok_r(words, ", ", &save); w != NULL; w = strtok_r(NULL, ", ", &save)) {
                if (strcmp(w, "or") == 0)
                    continue;
                ulaudit_status st = try_value(q, q->flags[f].name, w, err, sizeof err);
                char named[80];
                snprintf(named, sizeof named, "--%s:", q->flags[f].name);
                cr_assert(st != ULAUDIT_EINPUT || strstr(err, named) == NULL,
                          "%s --%s %s refused: %s (help: %s)", q->name, q->flags[f].name, w, err,
                          help);
                checked++;
            }
            cr_assert_eq(try_value(q, q->flags[f].name, "bogus", err, sizeof err), ULAUDIT_EINPUT);
            char expect[600];
            snprintf(expect, sizeof expect, "--%s: must be %s (got 'bogus')", q->flags[f].name,
                     rule);
            cr_assert_not_null(strstr(err, expect), "%s: '%s' lacks '%s'", q->name, err, expect);
        }
    }
    cr_assert_gt(checked, 10);
}
