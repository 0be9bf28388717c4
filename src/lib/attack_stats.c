/* src/lib/attack_stats.c — ulaudit_attack_stats: `ulaudit attack --scores`
 * on arrays.  The flags, their rules and messages, the statistics and the
 * JSON object are stats/scores_report.h's, which the command calls too, so
 * both answer alike for the same scores and flags.  The names are bound
 * here as the command line's parser binds them (cli/args.c, in the words of
 * calc/read.h): unknown (with the name meant), given twice, holding a
 * control character. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/read.h"
#include "io/escape.h"
#include "lib/lib.h"
#include "stats/scores_report.h"

#define MAX_PAIRS 32
#define SLOT_DIGITS UL_SCORES_NF
#define SLOT_MAX_BITS (UL_SCORES_NF + 1)

/* "unknown flag --NAME", the name meant among the command line's names in
 * its parser's order: --digits, --max-bits, the rows, the switches. */
static int unknown(const char *name, char *err, size_t errlen)
{
    const char *names[UL_SCORES_NF + 4] = {"digits", "max-bits"};
    size_t n = 2;
    for (int k = 0; k < UL_SCORES_NF; k++)
        names[n++] = ul_scores_flags[k].name;
    names[n++] = "json";
    names[n++] = "help";
    ul_calc_flag_unknown(name, names, n, err, errlen);
    return -1;
}

/* The slot of `name`: a row, SLOT_DIGITS or SLOT_MAX_BITS; -1 with the
 * message. */
static int slot_of(const char *name, const char *value, char *err, size_t errlen)
{
    if (strcmp(name, "json") == 0 || strcmp(name, "help") == 0 || name[0] == '\0') {
        /* the command line would read the value as a stray argument (calc/run.c) */
        char shown[100];
        snprintf(err, errlen, "unexpected argument '%s'",
                 name[0] == '\0' ? "--" : ul_io_escape(value, strlen(value), shown, sizeof shown));
        return -1;
    }
    if (strcmp(name, ul_scores_flags[UL_SCORES_F_SCORES].name) == 0) {
        snprintf(err, errlen, "scores: given as the arrays in_scores and out_scores, not as a "
                              "flag");
        return -1;
    }
    for (int k = 0; k < UL_SCORES_NF; k++)
        if (strcmp(ul_scores_flags[k].name, name) == 0)
            return k;
    if (strcmp(name, "digits") == 0)
        return SLOT_DIGITS;
    if (strcmp(name, "max-bits") == 0)
        return SLOT_MAX_BITS;
    return unknown(name, err, errlen);
}

/* names/values into the rows' texts v (defaults for the others); --digits
 * and --max-bits are checked as the command checks them, and unused. */
static int bind(const char *const *names, const char *const *values, size_t n, const char **v,
                char *err, size_t errlen)
{
    bool seen[UL_SCORES_NF + 2] = {false};
    for (int k = 0; k < UL_SCORES_NF; k++)
        v[k] = ul_scores_flags[k].default_value;
    for (size_t i = 0; i < n; i++) {
        int slot = slot_of(names[i], values[i], err, errlen);
        if (slot < 0)
            return 2;
        if (seen[slot])
            return ul_calc_flag_twice(names[i], err, errlen);
        seen[slot] = true;
        int rc = ul_calc_flag_value_ok(names[i], values[i], err, errlen);
        int digits;
        long bits;
        if (rc == 0 && slot == SLOT_DIGITS)
            rc = ul_calc_read_digits(values[i], &digits, err, errlen);
        if (rc == 0 && slot == SLOT_MAX_BITS)
            rc = ul_calc_read_max_bits(values[i], &bits, err, errlen);
        if (rc != 0)
            return rc;
        if (slot < UL_SCORES_NF)
            v[slot] = values[i];
    }
    return 0;
}

/* The arguments the API requires (the rules of include/ulaudit.h). */
static ulaudit_status check_args(const double *in, size_t n_in, const double *out, size_t n_out,
                                 const char *const *names, const char *const *values, size_t n,
                                 char *err, size_t errlen)
{
    if ((n_in > 0 && in == NULL) || (n_out > 0 && out == NULL))
        return ul_lib_fail(err, errlen, ULAUDIT_EINPUT,
                           "attack: in_scores and out_scores must be given");
    if (n > 0 && (names == NULL || values == NULL))
        return ul_lib_fail(err, errlen, ULAUDIT_EINPUT, "attack: names and values must be given");
    if (n > MAX_PAIRS)
        return ul_lib_fail(err, errlen, ULAUDIT_EINPUT, "attack: at most %d flags (got %zu)",
                           MAX_PAIRS, n);
    for (size_t i = 0; i < n; i++)
        if (names[i] == NULL || values[i] == NULL || strlen(names[i]) > 64)
            return ul_lib_fail(err, errlen, ULAUDIT_EINPUT,
                               "attack: flag %zu: a name of at most 64 characters and a value "
                               "are needed",
                               i);
    return ULAUDIT_OK;
}

UL_API ulaudit_status ulaudit_attack_stats(const double *in_scores, size_t n_in,
                                           const double *out_scores, size_t n_out,
                                           const char *const *names, const char *const *values,
                                           size_t n, char **json, char *err, size_t errlen)
{
    *json = NULL;
    ulaudit_status ust =
        check_args(in_scores, n_in, out_scores, n_out, names, values, n, err, errlen);
    if (ust != ULAUDIT_OK)
        return ust;
    const char *v[UL_SCORES_NF];
    if (bind(names, values, n, v, err, errlen) != 0)
        return ULAUDIT_EINPUT;
    ul_num_init(); /* MPFR's exponent range is per thread */
    ul_scores_spec s;
    ul_scores_spec_init(&s);
    ul_scores_outcome r;
    ul_scores_outcome_init(&r);
    ul_status st = ul_scores_spec_read(&s, v, err, errlen);
    if (st == UL_OK)
        st = ul_scores_compute(&s, in_scores, n_in, out_scores, n_out, &r, err, errlen);
    if (st == UL_OK)
        *json = ul_scores_json(&s, &r);
    ul_scores_outcome_clear(&r);
    ul_scores_spec_clear(&s);
    return ul_lib_status(st);
}
