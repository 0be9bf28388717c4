/* src/cli/vectors.c — `ulaudit vectors --out DIR [--digits N] [--only FAMILY]
 * [--json]`: writes the certified reference vectors (src/vectors/vectors.h)
 * into DIR, one CSV file per family and a manifest.  `ulaudit vectors check`
 * (an implementation's outputs against them) is vectors_check.c.
 */
#include "cli/vectors.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "calc/read.h"
#include "cli/exitcodes.h"
#include "cli/progress.h"
#include "cli/watchdog.h"
#include "num/deadline.h"
#include "vectors/vectors.h"

void ul_cli_vectors_help(FILE *out)
{
    fprintf(out,
            "usage: ulaudit vectors --out DIR [--digits N] [--only FAMILY] [--json]\n"
            "       ulaudit vectors check --family FAMILY RESULTS.csv [--json]\n"
            "               (an implementation's outputs against the vectors: see\n"
            "               `ulaudit vectors check --help`)\n\n"
            "Writes certified reference vectors for testing other privacy accountants: one\n"
            "CSV file per family (inputs, then every output as lo and hi at N significant\n"
            "digits, lo rounded down and hi rounded up, the correctly rounded double when\n"
            "[lo, hi] determines it, and a flag where that double is 0, subnormal or\n"
            "infinite while the true value is not) and manifest.json (format and generator\n"
            "versions, digits, row count and SHA-256 of every file).  The output is the same\n"
            "byte for byte on every run.  The files are replaced all or nothing: the set is\n"
            "computed first, then renamed into place; on any failure the old ones stay.\n"
            "vectors/README.md describes the files.\n\n"
            "  --out DIR       output directory (created if missing; its parent must exist)\n"
            "  --digits N      significant digits of lo and hi, %d to %d (default %d)\n"
            "  --only FAMILY   write one family (and a manifest listing only it)\n"
            "  --max-seconds S time budget in seconds, 1e-9 to 1e9 (default 0: none); past it\n"
            "                  exit 3, the files in DIR left as they were (--digits 1000\n"
            "                  runs for minutes)\n"
            "  --json          one JSON object on stdout: the files written\n\n"
            "Families:\n",
            UL_VEC_MIN_DIGITS, UL_VEC_MAX_DIGITS, UL_VEC_DEFAULT_DIGITS);
    for (const ul_vec_family *f = ul_vec_families; f->name != NULL; f++)
        fprintf(out, "  %-15s %s\n", f->name, f->summary);
    fprintf(out, "\nExit codes: 0 written, 2 usage or input error, 3 a value could not be\n"
                 "certified to N digits or --max-seconds ran out.  Example: ulaudit vectors --out\n"
                 "/tmp/vectors\n");
}

typedef struct {
    bool json;
    json_object *files;
    const char *dir;
    int digits;
    bool header_done; /* the text header waits for the first file, so that an
                       * unusable --out prints nothing on stdout */
} progress_ctx;

/* Runs between ul_watchdog_hold and ul_watchdog_release: a line is never
 * cut by the watchdog. */
static void progress_line(const ul_vec_file_report *f, progress_ctx *p)
{
    if (!p->json && !p->header_done) {
        printf("vectors: writing to %s (%d digits)\n", p->dir, p->digits);
        p->header_done = true;
    }
    if (p->json) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "family", json_object_new_string(f->family->name));
        json_object_object_add(o, "file", json_object_new_string(f->family->file));
        json_object_object_add(o, "rows", json_object_new_int64((int64_t)f->rows));
        json_object_object_add(o, "bytes", json_object_new_int64((int64_t)f->bytes));
        json_object_object_add(o, "sha256", json_object_new_string(f->sha256));
        json_object_object_add(o, "seconds", json_object_new_double(f->seconds));
        json_object_array_add(p->files, o);
    } else {
        printf("  %-20s %6zu rows %9zu bytes %7.2f s  sha256 %.16s…\n", f->family->file, f->rows,
               f->bytes, f->seconds, f->sha256);
        fflush(stdout);
    }
}

static void progress(const ul_vec_file_report *f, void *ctx)
{
    ul_watchdog_hold();
    ul_cli_progress_clear(); /* the bar's line, before this one (cli/progress.h) */
    progress_line(f, ctx);
    ul_watchdog_release();
}

int ul_cli_vectors(int argc, char **argv)
{
    if (argc > 0 && strcmp(argv[0], "check") == 0)
        return ul_cli_vectors_check(argc - 1, argv + 1);
    /* the one parser of every command (args.h); --digits and --max-bits are
     * rows of vectors' own: its digits range is not the calculator's, and
     * --max-bits is refused by name rather than as an unknown flag */
    static const ul_cli_flag flags[] = {
        {"out", "DIR", "output directory", NULL},
        {"only", "FAMILY", "one family (default: all)", "all"},
        {"max-seconds", "S", "time budget in seconds (default 0: none)", "0"},
        {"digits", "N", "significant digits", ""},
        {"max-bits", "B", "not taken", ""},
    };
    static const char *const switches[] = {"json", "help"};
    const ul_cli_grammar g = {flags, 5, switches, 2, 0, NULL};
    ul_cli_args parsed;
    char err[1024];
    if (ul_cli_parse_grammar(&g, argc, argv, &parsed, err, sizeof err) != 0) {
        fprintf(stderr, "ulaudit vectors: %s\n", err);
        return UL_EXIT_USAGE;
    }
    const char *const *values = parsed.values;
    ul_cli_common common = {parsed.on[0], parsed.on[1], UL_VEC_DEFAULT_DIGITS, 0};
    if (common.help) {
        ul_cli_vectors_help(stdout);
        return UL_EXIT_OK;
    }
    if (parsed.given[4]) {
        fprintf(stderr, "ulaudit vectors: --max-bits: not taken by vectors (the precision rises "
                        "as far as the digits need)\n");
        return UL_EXIT_USAGE;
    }
    /* vectors' own --digits range (not the calculator's 1..5000), read by
     * the rule and in the words of every count (calc/read.h) */
    long digits_read = UL_VEC_DEFAULT_DIGITS;
    if (parsed.given[3] && ul_calc_read_whole("digits", values[3], UL_VEC_MIN_DIGITS,
                                              UL_VEC_MAX_DIGITS, &digits_read, err, sizeof err)) {
        fprintf(stderr, "ulaudit vectors: %s\n", err);
        return UL_EXIT_USAGE;
    }
    int digits = (int)digits_read;
    const char *only = strcmp(values[1], "all") == 0 ? NULL : values[1];
    if (only != NULL && ul_vec_family_find(only) == NULL) {
        fprintf(stderr, "ulaudit vectors: --only: unknown family '%s' (one of", only);
        for (const ul_vec_family *f = ul_vec_families; f->name != NULL; f++)
            fprintf(stderr, " %s", f->name);
        fprintf(stderr, ")\n");
        return UL_EXIT_USAGE;
    }
    if (values[0][0] == '\0') {
        fprintf(stderr, "ulaudit vectors: --out: must be a directory path (got '')\n");
        return UL_EXIT_USAGE;
    }

    double secs = 0;
    if (ul_calc_read_budget(values[2], &secs, err, sizeof err) != 0) {
        fprintf(stderr, "ulaudit vectors: %s\n", err);
        return UL_EXIT_USAGE;
    }

    progress_ctx p = {common.json, common.json ? json_object_new_array() : NULL, values[0], digits,
                      false};
    if (secs > 0) {
        ul_deadline_set(secs); /* the certified loops ask it between rounds (num/deadline.h) */
        /* and the steps that do not: the watchdog.  It can only fire while
         * the set is built in memory, before any file of --out is touched */
        ul_watchdog_clean_dir(values[0]);
        ul_watchdog_start("vectors", secs, NULL, "the files in --out left as they were");
    }
    ul_vec_set set;
    ul_cli_progress_install(common.json); /* families done / total on a terminal */
    ul_status st = ul_vec_build(values[0], digits, only, progress, &p, &set, err, sizeof err);
    ul_cli_progress_remove();
    /* the set is complete: from here the watchdog never fires, so the
     * commit (all or nothing, vectors.h) is never cut midway */
    ul_watchdog_stop();
    ul_deadline_clear();
    if (st == UL_OK)
        st = ul_vec_commit(values[0], &set, err, sizeof err);
    ul_vec_set_free(&set);
    int rc;
    if (st == UL_ETIME) {
        fprintf(stderr, "ulaudit vectors: the time budget of %g s (--max-seconds) ran out: %s (the "
                        "files in --out left as they were)\n", secs, err);
        rc = UL_EXIT_INCONCLUSIVE;
    } else if (st != UL_OK) {
        /* the library names its parameters without dashes (out, digits, only) */
        bool flag = strncmp(err, "out:", 4) == 0 || strncmp(err, "digits:", 7) == 0 ||
                    strncmp(err, "only:", 5) == 0;
        fprintf(stderr, "ulaudit vectors: %s%s\n", flag ? "--" : "", err);
        rc = st == UL_ECAP ? UL_EXIT_INCONCLUSIVE : UL_EXIT_USAGE;
    } else if (common.json) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "out", json_object_new_string(values[0]));
        json_object_object_add(o, "digits", json_object_new_int(digits));
        json_object_object_add(o, "format_version", json_object_new_int(UL_VEC_FORMAT_VERSION));
        json_object_object_add(o, "generator_version",
                               json_object_new_string(UL_VEC_GENERATOR_VERSION));
        json_object_object_add(o, "manifest", json_object_new_string(UL_VEC_MANIFEST));
        json_object_object_add(o, "files", json_object_get(p.files));
        puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
                                                   JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(o);
        rc = UL_EXIT_OK;
    } else {
        printf("  %-20s (row counts and SHA-256 of the files above)\n", UL_VEC_MANIFEST);
        rc = UL_EXIT_OK;
    }
    if (p.files != NULL)
        json_object_put(p.files);
    return rc;
}
