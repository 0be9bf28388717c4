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
#include "cli/calc_internal.h"
#include "cli/exitcodes.h"
#include "io/escape.h"

/* A record's line: its result, or its message as an error line (the lines
 * of a message joined with "; "). */
static void print_record(void *ctx, unsigned long line, const ul_calc_result *res)
{
    (void)ctx;
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

static char *dup_n(const char *s, size_t n)
{
    char *d = strndup(s, n);
    if (d == NULL)
        abort();
    return d;
}

/* Reads the flags beside --batch (argv[batch] and its value) into fx and
 * the file name into *path; 0 or 2 with a message on stderr. */
static int read_flags(const char *quantity, int argc, char **argv, int batch, ul_calc_fixed *fx,
                      const char **path)
{
    fx->n = 0;
    *path = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = strchr(a, '=');
        bool has_eq = strncmp(a, "--", 2) == 0 && eq != NULL;
        if (i == batch) {
            *path = has_eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
            continue;
        }
        if (strcmp(a, "--json") == 0)
            continue; /* the output is JSON lines anyway */
        if (strncmp(a, "--", 2) != 0 || fx->n == UL_CALC_BATCH_MAX_FIXED ||
            (!has_eq && i + 1 >= argc)) {
            char q[200];
            fprintf(stderr, "ulaudit calc %s: unexpected argument '%s' beside --batch (flags "
                            "take a value: --name VALUE)\n",
                    quantity, ul_io_escape(a, strlen(a), q, sizeof q));
            return UL_EXIT_USAGE;
        }
        fx->name[fx->n] = has_eq ? dup_n(a + 2, (size_t)(eq - a - 2)) : dup_n(a + 2, strlen(a + 2));
        fx->value[fx->n++] = has_eq ? eq + 1 : argv[++i];
    }
    if (*path == NULL || **path == '\0') {
        fprintf(stderr, "ulaudit calc %s: --batch: needs a file name, or - for stdin\n", quantity);
        return UL_EXIT_USAGE;
    }
    /* each record is budgeted as on the command line (src/calc applies no
     * default budget but the command line's, so it comes as a flag a record
     * may override) */
    bool budget = false;
    for (int i = 0; i < fx->n; i++)
        budget = budget || strcmp(fx->name[i], "max-seconds") == 0;
    if (!budget && fx->n < UL_CALC_BATCH_MAX_FIXED) {
        fx->name[fx->n] = dup_n("max-seconds", strlen("max-seconds"));
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
    int rc = ul_calc_batch_run(quantity, in, fx, &out, fatal, sizeof fatal, &read_errno);
    if (fatal[0] != '\0')
        ul_cli_calc_print_message(fatal);
    if (read_errno != 0) { /* not the end of the input (a directory: EISDIR) */
        fprintf(stderr, "ulaudit calc %s: --batch: cannot read '%s': %s (the records "
                        "before it were run)\n", quantity, shown, strerror(read_errno));
        rc = UL_EXIT_USAGE;
    }
    return rc;
}

int ul_cli_calc_batch(const char *quantity, int argc, char **argv, int batch)
{
    ul_calc_fixed fx;
    const char *path;
    int rc = read_flags(quantity, argc, argv, batch, &fx, &path);
    if (rc == 0) {
        FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
        char q[200]; /* the name for a message (io/escape.h) */
        ul_io_escape(path, strlen(path), q, sizeof q);
        if (in == NULL) {
            fprintf(stderr, "ulaudit calc %s: --batch: cannot open '%s': %s\n", quantity, q,
                    strerror(errno));
            rc = UL_EXIT_USAGE;
        } else {
            rc = run_stream(quantity, in, q, &fx);
            if (in != stdin)
                fclose(in);
        }
    }
    for (int i = 0; i < fx.n; i++)
        free((char *)fx.name[i]);
    return rc;
}
