/* src/cli/calc.c — `ulaudit calc QUANTITY --flags`: the certified
 * calculator's command line, a thin client of src/calc: argv -> ul_cli_parse
 * (the quantity's flag rows, calc/table.c) -> ul_calc_run -> the result
 * printed (JSON, or the text report) and its message on stderr.  The
 * --batch front end is calc_batch.c; the backstop of --max-seconds is the
 * watchdog of src/cli/watchdog.h, reached through the hooks main.c installs.
 * Every reported value is an enclosure [lo, hi] printed with lo rounded
 * down and hi rounded up (docs/design.md, "Command-line contract").
 */
#include "cli/calc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/calc.h"
#include "cli/args.h"
#include "cli/calc_internal.h"
#include "cli/exitcodes.h"
#include "cli/progress.h"

/* The calculator's exit codes are the command line's. */
_Static_assert(UL_CALC_EXIT_OK == UL_EXIT_OK && UL_CALC_EXIT_USAGE == UL_EXIT_USAGE &&
                   UL_CALC_EXIT_INCONCLUSIVE == UL_EXIT_INCONCLUSIVE,
               "calc/calc.h and cli/exitcodes.h disagree");
_Static_assert(UL_CALC_MAX_FLAGS == UL_CLI_MAX_FLAGS, "calc/calc.h and cli/args.h disagree");

/* ---- help and dispatch ------------------------------------------------------ */

static void print_quantity_help(FILE *out, const ul_calc_quantity *q)
{
    fprintf(out, "  %s", q->name);
    for (int i = 0; i < q->nflags; i++)
        fprintf(out, q->flags[i].default_value ? " [--%s %s]" : " --%s %s", q->flags[i].name,
                q->flags[i].meta);
    fprintf(out, "\n      %s\n", q->summary);
    for (int i = 0; i < q->nflags; i++) {
        char help[512]; /* the domain's rule generated in (calc/domain.h) */
        ul_calc_flag_help(q, i, help, sizeof help);
        fprintf(out, "      --%-12s %s\n", q->flags[i].name, help);
    }
    fprintf(out, "      example: %s\n\n", q->example);
}

void ul_cli_calc_help(FILE *out)
{
    fprintf(out, "usage: ulaudit calc QUANTITY [flags] [--digits N] [--max-bits B] [--json]\n"
                 "       ulaudit calc QUANTITY [flags] --batch FILE|-\n\n"
                 "Certified calculator: every value is an enclosure [lo, hi] that contains the\n"
                 "true value (lo rounded down, hi rounded up).  Numbers are read exactly from\n"
                 "their decimal text.\n\n"
                 "Quantities:\n");
    for (size_t i = 0; i < ul_calc_count(); i++)
        print_quantity_help(out, ul_calc_at(i));
    fprintf(out, "Common flags:\n"
                 "  --digits N     correct significant digits, 1..5000 (default 17)\n"
                 "  --max-bits B   working-precision cap in bits, 64..4194304 (default 65536)\n"
                 "  --json         one JSON object on stdout: quantity, inputs, lo, hi, digits,\n"
                 "                 precision_bits, cap_hit, and quantity-specific fields\n"
                 "  --batch FILE   many points in one process: JSON lines (flag names as keys)\n"
                 "                 or CSV (a header of flag names); - reads stdin; one result\n"
                 "                 or {\"line\":N,\"error\":...} line per record; flags given\n"
                 "                 beside it apply to every record (man ulaudit-calc)\n\n"
                 "Exit codes: 0 success, 2 usage or input error, 3 precision cap reached\n"
                 "(the enclosure printed is sound but has fewer digits than asked).\n");
}

/* ---- the budget's backstop ----------------------------------------------------
 * The budget is cooperative (num/deadline.h): a step that never asks it
 * (H3's sweep: the PLD sums over 8.4 million grid points at a grid step of
 * 1e-300, the Langevin branch and bound at --digits 1000) ran for minutes
 * under --max-seconds 5.  The watchdog of src/cli/watchdog.h ends such a
 * run; ul_calc_run starts it once the deadline is set, and claims the
 * output when the quantity has returned, so a result is never cut. */

static const ul_cli_calc_backstop *backstop; /* set once, by main.c */
static bool backstop_started;

void ul_cli_calc_set_backstop(const ul_cli_calc_backstop *b)
{
    backstop = b;
}

static void watch_start(const char *command, double seconds)
{
    if (backstop == NULL || backstop_started)
        return;
    backstop->start(command, seconds);
    backstop_started = true;
}

static void watch_claim(void)
{
    if (backstop_started)
        backstop->claim();
}

static const ul_calc_watch WATCH = {watch_start, watch_claim};

static void watch_end(void)
{
    if (backstop_started)
        backstop->stop();
    backstop_started = false;
}

/* ---- printing ----------------------------------------------------------------- */

void ul_cli_calc_print_message(const char *message)
{
    for (const char *line = message; *line != '\0';) {
        size_t len = strcspn(line, "\n");
        fprintf(stderr, "ulaudit %.*s\n", (int)len, line);
        line += len + (line[len] == '\n');
    }
}

/* The result on stdout (pretty JSON, or the text report), then its warning
 * or error on stderr; returns the exit code. */
static int print_result(const ul_calc_result *res, bool json)
{
    if (res->json != NULL && json) {
        fputs(ul_calc_result_json(res, true), stdout);
        fputc('\n', stdout);
    } else if (res->json != NULL) {
        char *text = ul_calc_result_text(res);
        fputs(text, stdout);
        free(text);
    }
    ul_cli_calc_print_message(res->message);
    return res->exit_code;
}

int ul_cli_calc_quantity_help(const ul_calc_quantity *q)
{
    printf("usage: ulaudit calc %s [flags] [--digits N] [--max-bits B] [--json] "
           "[--batch FILE|-]\n\n", q->name);
    print_quantity_help(stdout, q);
    return UL_EXIT_OK;
}

/* Parses the flags after the quantity and runs it; returns the exit code. */
static int run_quantity(const ul_calc_quantity *q, int argc, char **argv)
{
    const char *values[UL_CLI_MAX_FLAGS];
    ul_cli_common common;
    char err[256];
    if (ul_cli_parse(argc, argv, q->flags, q->nflags, values, &common, err, sizeof err)) {
        fprintf(stderr, "ulaudit calc %s: %s\n", q->name, err);
        return UL_EXIT_USAGE;
    }
    if (common.help)
        return ul_cli_calc_quantity_help(q);
    ul_calc_options opt = {common.digits, common.max_bits, true, &WATCH};
    ul_calc_result res;
    ul_cli_progress_install(common.json); /* a bar on a terminal (cli/progress.h) */
    ul_calc_run(q, values, &opt, &res);
    ul_cli_progress_remove();
    int rc = print_result(&res, common.json);
    watch_end();
    ul_calc_result_clear(&res);
    return rc;
}

int ul_cli_calc(int argc, char **argv)
{
    if (argc < 1 || strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
        ul_cli_calc_help(argc < 1 ? stderr : stdout);
        return argc < 1 ? UL_EXIT_USAGE : UL_EXIT_OK;
    }
    const ul_calc_quantity *q = ul_calc_find(argv[0]);
    if (q == NULL) {
        char msg[1024];
        ul_calc_unknown_message(argv[0], msg, sizeof msg);
        ul_cli_calc_print_message(msg);
        return UL_EXIT_USAGE;
    }
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--batch") == 0 || strncmp(argv[i], "--batch=", 8) == 0)
            return ul_cli_calc_batch(q, argc - 1, argv + 1);
    return run_quantity(q, argc - 1, argv + 1);
}
