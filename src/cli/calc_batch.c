/* src/cli/calc_batch.c — the front end of `ulaudit calc QUANTITY --batch
 * FILE|-`: the flags beside --batch, the file, and one line per record on
 * stdout (the record's result object on one line, or
 * {"line":N,"error":"..."}).  The records are read and run by src/calc
 * (calc/batch.c); the input's format is described there and in
 * man/ulaudit-calc.1. */
#include <errno.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/batch.h"
#include "cli/args.h"
#include "cli/calc_internal.h"
#include "cli/progress.h"
#include "cli/exitcodes.h"
#include "io/escape.h"

/* A record's line: its result, or its message as an error line (the lines
 * of a message joined with "; "). */
static void print_record(void *ctx, unsigned long line, const ul_calc_result *res)
{
    (void)ctx;
    ul_cli_progress_clear(); /* the bar's line, when stdout is the terminal too */
    if (res->json != NULL) {
        puts(ul_calc_result_json(res, false));
        return;
    }
    char msg[sizeof res->message];
    ul_calc_result_message(res, msg, sizeof msg);
    json_object *o = json_object_new_object();
    json_object_object_add(o, "line", json_object_new_int64((int64_t)line));
    json_object_object_add(o, "error", json_object_new_string(msg));
    puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(o);
}

/* The words "unexpected argument 'X'" goes on with beside --batch. */
#define BATCH_EXTRA_ARG " beside --batch (flags take a value: --name VALUE)"

/* Checks the common flags given beside --batch (rows 0 and 1, and the
 * budget's row ms) by their readers (calc/read.h) before any record runs,
 * as the command line without --batch does: 0, or 2 with the message. */
static int check_common(const ul_cli_args *a, int ms, char *err, size_t errlen)
{
    int digits;
    long bits;
    double secs;
    int rc = 0;
    if (a->given[0])
        rc = ul_calc_read_digits(a->values[0], &digits, err, errlen);
    if (rc == 0 && a->given[1])
        rc = ul_calc_read_max_bits(a->values[1], &bits, err, errlen);
    if (rc == 0 && a->given[ms])
        rc = ul_calc_read_budget(a->values[ms], &secs, err, errlen);
    return rc;
}

/* Reads the flags beside --batch by the one parser of every command
 * (cli/args.h: --flag VALUE and --flag=VALUE alike, switches bare or
 * =true|false|yes|no|1|0, a flag given twice refused) into fx, the file
 * name into *path; *help when --help was given.  The quantity's flags are
 * optional here (each record may set them).  0 or 2 with a message in err. */
static int read_flags(const ul_calc_quantity *q, int argc, char **argv, ul_calc_fixed *fx,
                      const char **path, bool *help, char *err, size_t errlen)
{
    /* the rows in the order of the command line without --batch
     * (ul_cli_parse_with_args: the common ones lead), then --batch */
    ul_cli_flag rows[UL_CLI_MAX_ROWS] = {{"digits", "N", "significant digits", ""},
                                         {"max-bits", "B", "precision cap in bits", ""}};
    int nrows = 2, ms = -1;
    for (int k = 0; k < q->nflags; k++, nrows++) {
        rows[nrows] = q->flags[k];
        rows[nrows].default_value = ""; /* a record may give it */
        if (strcmp(q->flags[k].name, "max-seconds") == 0)
            ms = nrows;
    }
    if (ms < 0)
        abort(); /* every row declares it (calc/table.c) */
    int batch = nrows++;
    rows[batch] = (ul_cli_flag){"batch", "FILE", "the records", NULL};
    static const char *const switches[] = {"json", "help"};
    ul_cli_grammar g = {rows, nrows, switches, 2, 0, BATCH_EXTRA_ARG};
    ul_cli_args a;
    int rc = ul_cli_parse_grammar(&g, argc, argv, &a, err, errlen);
    if (rc != 0)
        return rc;
    /* --json: the output is JSON lines whatever its state */
    *help = a.on[1];
    *path = a.values[batch];
    if (*help || (rc = check_common(&a, ms, err, errlen)) != 0)
        return rc;
    if (**path == '\0') {
        snprintf(err, errlen, "--batch: needs a file name, or - for stdin");
        return UL_EXIT_USAGE;
    }
    fx->n = 0;
    for (int k = 0; k < batch; k++)
        if (a.given[k]) {
            fx->name[fx->n] = rows[k].name;
            fx->value[fx->n++] = a.values[k];
        }
    /* each record is budgeted as on the command line (src/calc applies no
     * default budget but the command line's, so it comes as a flag a record
     * may override) */
    if (!a.given[ms]) {
        fx->name[fx->n] = "max-seconds";
        fx->value[fx->n++] = UL_CALC_DEFAULT_MAX_SECONDS;
    }
    return 0;
}

/* Runs the records of the open stream; returns the batch exit code. */
static int run_stream(const char *quantity, FILE *in, const char *shown, const ul_calc_fixed *fx)
{
    ul_calc_batch_out out = {print_record, NULL};
    char fatal[1200];
    int read_errno = 0;
    /* a bar on a terminal (cli/progress.h); the records are JSON lines either
     * way, so only stderr's being a terminal decides */
    ul_cli_progress_install(false);
    int rc = ul_calc_batch_run(quantity, in, fx, &out, fatal, sizeof fatal, &read_errno);
    ul_cli_progress_remove();
    if (fatal[0] != '\0')
        ul_cli_calc_print_message(fatal);
    if (read_errno != 0) { /* not the end of the input (a directory: EISDIR) */
        fprintf(stderr, "ulaudit calc %s: --batch: cannot read '%s': %s (the records "
                        "before it were run)\n", quantity, shown, strerror(read_errno));
        rc = UL_EXIT_USAGE;
    }
    return rc;
}

int ul_cli_calc_batch(const ul_calc_quantity *q, int argc, char **argv)
{
    ul_calc_fixed fx;
    const char *path;
    bool help;
    char err[1024];
    int rc = read_flags(q, argc, argv, &fx, &path, &help, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "ulaudit calc %s: %s\n", q->name, err);
        return UL_EXIT_USAGE;
    }
    if (help)
        return ul_cli_calc_quantity_help(q);
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    char shown[200]; /* the name for a message (io/escape.h) */
    ul_io_escape(path, strlen(path), shown, sizeof shown);
    if (in == NULL) {
        fprintf(stderr, "ulaudit calc %s: --batch: cannot open '%s': %s\n", q->name, shown,
                strerror(errno));
        return UL_EXIT_USAGE;
    }
    rc = run_stream(q->name, in, shown, &fx);
    if (in != stdin)
        fclose(in);
    return rc;
}
