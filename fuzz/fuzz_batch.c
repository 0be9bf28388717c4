/* fuzz/fuzz_batch.c — libFuzzer harness: the `calc --batch` reader
 * (ul_cli_calc_batch, src/cli/calc_batch.c over src/calc/batch.c: JSON lines or CSV, one result or
 * error line per record) and every calculator quantity behind it.
 *
 * Input: one control byte, then the batch file.  The control byte picks the
 * quantity (b % the number of quantities); the command line beside --batch
 * is `--max-bits 256` (a record may set its own), as fuzz_cert caps its
 * audits.  Each input has FUZZ_BUDGET_SECONDS (common.h).  The output goes
 * to a file of the harness's temporary directory and is read back.
 *
 * Seeds: with ULFUZZ_SEED_DIR set, the harness writes there one JSON-lines
 * and one CSV file per quantity, built from the quantity's own flag table
 * (ul_calc_at), so they follow the calculator as it changes
 * (tools/fuzz-seeds.sh, as fuzz_checkpoint does).
 *
 * Contract (src/calc/batch.h, src/cli/calc_internal.h), abort =
 * finding: the exit code is 0, 2 or 3; every output line is one JSON object,
 * either {"line": N, "error": "<non-empty>"} with N increasing and within
 * the input, or the quantity's result object naming the quantity, whose lo
 * and hi (when present) read back whole as decimals with lo <= hi; one output
 * line per record (lines that are not blank or # comments, the CSV header
 * excepted), or none at all when a CSV header is refused; an error line
 * means exit 2, unless every error line is a record whose time budget ran
 * out ("the time budget of S s ran out", calc/result.c), which is exit 3;
 * exit 3 means a result that says cap_hit or such a time-out line.
 */
#include <json-c/json.h>
#include <mpfr.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "calc/calc.h"
#include "cli/calc_internal.h"
#include "num/deadline.h"

static const char *out_path;

/* ---- seeds ------------------------------------------------------------------ */

/* A value for a flag without a default: one that most quantities accept. */
static const char *seed_value(const ul_calc_flag *f)
{
    return f->default_value != NULL ? f->default_value : "0.5";
}

static void write_seeds(const char *dir)
{
    for (size_t i = 0; i < ul_calc_count(); i++) {
        const char *name = ul_calc_at(i)->name;
        int n = ul_calc_library_nflags(ul_calc_at(i));
        const ul_calc_flag *flags = ul_calc_at(i)->flags;
        char path[4096];
        for (int csv = 0; csv <= 1; csv++) {
            snprintf(path, sizeof path, "%s/%s.%s", dir, name, csv ? "csv" : "jsonl");
            FILE *f = fopen(path, "wb");
            FUZZ_CHECK(f != NULL, "cannot write %s", path);
            fputc((int)i, f); /* the control byte */
            for (int k = 0; csv && k < n; k++)
                fprintf(f, "%s%s", k ? "," : "", flags[k].name);
            fputs(csv ? "\n" : "{", f);
            for (int k = 0; k < n; k++) {
                if (csv)
                    fprintf(f, "%s%s", k ? "," : "", seed_value(&flags[k]));
                else
                    fprintf(f, "%s\"%s\": \"%s\"", k ? ", " : "", flags[k].name,
                            seed_value(&flags[k]));
            }
            fputs(csv ? "\n# a comment, then a record with every field empty\n" : "}\n\n", f);
            for (int k = 1; csv && k < n; k++)
                fputc(',', f);
            fputs(csv ? "\n" : "{\"digits\": 30}\n", f);
            FUZZ_CHECK(fclose(f) == 0, "cannot write %s", path);
        }
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *seed_dir = getenv("ULFUZZ_SEED_DIR");
    if (seed_dir != NULL && seed_dir[0])
        write_seeds(seed_dir);
    out_path = fuzz_path("batch.out");
    FUZZ_CHECK(freopen(out_path, "w+", stdout) != NULL, "cannot redirect stdout");
    return 0;
}

/* ---- the records of the input (the reader's rules, from its header) -------- */

typedef struct {
    size_t records; /* lines that are records */
    size_t lines;   /* all lines */
    bool csv;       /* the first line that is not blank or a comment is not '{' */
} input_shape;

static input_shape shape_of(const char *text, size_t n)
{
    input_shape s = {0, 0, false};
    bool decided = false;
    for (size_t at = 0; at < n;) {
        const char *nl = memchr(text + at, '\n', n - at);
        size_t len = nl != NULL ? (size_t)(nl - (text + at)) : n - at;
        const char *line = text + at;
        at += len + (nl != NULL);
        s.lines++;
        while (len > 0 && line[len - 1] == '\r') /* stripped, as \n */
            len--;
        const char *nul = memchr(line, '\0', len); /* read as a C string from here */
        if (nul != NULL)
            len = (size_t)(nul - line);
        size_t skip = 0;
        while (skip < len && (line[skip] == ' ' || line[skip] == '\t'))
            skip++;
        if (skip == len || line[skip] == '#') /* blank, or a comment */
            continue;
        if (!decided) {
            decided = true;
            s.csv = line[skip] != '{';
            if (s.csv)
                continue; /* the header */
        }
        s.records++;
    }
    return s;
}

/* ---- the output ---------------------------------------------------------------- */

static void check_end_pair(json_object *o, const char *line)
{
    json_object *lo, *hi;
    if (!json_object_object_get_ex(o, "lo", &lo) || !json_object_object_get_ex(o, "hi", &hi) ||
        !json_object_is_type(lo, json_type_string) || !json_object_is_type(hi, json_type_string))
        return;
    mpfr_t a, b;
    mpfr_inits2(256, a, b, (mpfr_ptr)0);
    char *end = NULL;
    const char *ta = json_object_get_string(lo), *tb = json_object_get_string(hi);
    mpfr_strtofr(a, ta, &end, 10, MPFR_RNDD);
    FUZZ_CHECK(end != ta && *end == '\0', "lo '%s' is not a decimal: %s", ta, line);
    mpfr_strtofr(b, tb, &end, 10, MPFR_RNDU);
    FUZZ_CHECK(end != tb && *end == '\0', "hi '%s' is not a decimal: %s", tb, line);
    FUZZ_CHECK(mpfr_lessequal_p(a, b), "lo > hi: %s", line);
    mpfr_clears(a, b, (mpfr_ptr)0);
}

typedef struct {
    size_t lines;
    bool any_cap, any_timeout, any_other_error;
} output_seen;

/* A record stopped by its time budget (calc_input_error's UL_ETIME text). */
static bool is_timeout(const char *message)
{
    const char *p = strstr(message, "the time budget of ");
    return p != NULL && strstr(p, " ran out") != NULL;
}

/* Checks one output line; error lines must name increasing input lines. */
static void check_line(const char *line, const char *quantity, const input_shape *in,
                       long *last_error_line, output_seen *seen)
{
    json_object *o = json_tokener_parse(line), *v;
    FUZZ_CHECK(o != NULL && json_object_is_type(o, json_type_object), "not a JSON object: %s",
               line);
    if (json_object_object_get_ex(o, "error", &v)) {
        FUZZ_CHECK(json_object_is_type(v, json_type_string) && json_object_get_string_len(v) > 0,
                   "an error line without a message: %s", line);
        json_object *ln;
        FUZZ_CHECK(json_object_object_get_ex(o, "line", &ln), "an error line without its line");
        long n = (long)json_object_get_int64(ln);
        FUZZ_CHECK(n > *last_error_line && n >= 1 && (size_t)n <= in->lines,
                   "error line %ld after %ld (input of %zu lines): %s", n, *last_error_line,
                   in->lines, line);
        *last_error_line = n;
        if (is_timeout(json_object_get_string(v)))
            seen->any_timeout = true;
        else
            seen->any_other_error = true;
    } else {
        FUZZ_CHECK(json_object_object_get_ex(o, "quantity", &v) &&
                       strcmp(json_object_get_string(v), quantity) == 0,
                   "a result not naming %s: %s", quantity, line);
        check_end_pair(o, line);
        if (json_object_object_get_ex(o, "cap_hit", &v) && json_object_get_boolean(v))
            seen->any_cap = true;
    }
    json_object_put(o);
    seen->lines++;
}

static output_seen check_output(const char *quantity, const input_shape *in)
{
    FILE *f = fopen(out_path, "r");
    FUZZ_CHECK(f != NULL, "cannot read %s", out_path);
    output_seen seen = {0, false, false, false};
    long last_error_line = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
        FUZZ_CHECK(len > 0 && line[len - 1] == '\n', "an output line without its newline");
        line[len - 1] = '\0';
        check_line(line, quantity, in, &last_error_line, &seen);
    }
    free(line);
    fclose(f);
    return seen;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t i = data[0] % ul_calc_count();
    const char *quantity = ul_calc_at(i)->name;
    const char *in_path = fuzz_file("batch.in", data + 1, size - 1);
    char *argv[] = {"--max-bits", "256", "--batch", (char *)in_path};

    fflush(stdout);
    FUZZ_CHECK(ftruncate(fileno(stdout), 0) == 0, "cannot truncate %s", out_path);
    rewind(stdout);
    ul_deadline_set(FUZZ_BUDGET_SECONDS);
    int rc = ul_cli_calc_batch(quantity, 4, argv, 2);
    ul_deadline_clear();
    fflush(stdout);

    FUZZ_CHECK(rc == 0 || rc == 2 || rc == 3, "exit code %d", rc);
    input_shape in = shape_of((const char *)data + 1, size - 1);
    output_seen out = check_output(quantity, &in);
    FUZZ_CHECK(out.lines == in.records || (out.lines == 0 && in.csv && rc == 2),
               "%zu output lines for %zu records (exit %d)", out.lines, in.records, rc);
    FUZZ_CHECK(!out.any_other_error || rc == 2, "an error line but exit %d", rc);
    FUZZ_CHECK(!out.any_timeout || rc == 2 || rc == 3, "a time-out line but exit %d", rc);
    FUZZ_CHECK(rc != 3 || out.any_cap || out.any_timeout,
               "exit 3 without a result saying cap_hit or a time-out line");
    return 0;
}
