/* src/cli/import.c — `ulaudit import opacus|dp-accounting|tf-privacy FILE|-`:
 * a peer's accounting input (an Opacus accountant's history, a dp_accounting
 * DpEvent tree, TF Privacy's compute_dp_sgd_privacy parameters) turned into
 * a dp-sgd certificate by the library (cert/import.h), printed or written
 * atomically with --out.  Any input problem: exit 2, one line on stderr
 * naming the flag or the JSON path, nothing on stdout, no file written.
 */
#include "cli/import.h"

#include <stdlib.h>
#include <string.h>

#include "cert/import.h"
#include "cli/args.h"
#include "cli/exitcodes.h"
#include "io/escape.h"
#include "io/file.h"
#include "io/json.h"

#define ERR_LEN 1024

void ul_cli_import_help(FILE *out)
{
    fprintf(out,
            "usage: ulaudit import opacus|dp-accounting|tf-privacy FILE|- [--eps E] [--delta D]\n"
            "                      [--adjacency add-remove|replace] [--out FILE] [--json]\n\n"
            "Turns what a peer's accountant was given into a ulaudit-certificate/1 of method\n"
            "dp-sgd that ulaudit audit takes, with the sampling (Poisson) and the adjacency\n"
            "each tool implies written out and a \"source\" that says what was read and\n"
            "every reading taken.  Numbers are copied as their decimal text; a derived\n"
            "rate or step count that is not exact is rounded up (the reading least\n"
            "favourable to the claim).  FILE - reads standard input.\n\n"
            "Formats:\n"
            "  opacus          accountant.history [[noise_multiplier, sample_rate, steps], ...]\n"
            "                  or accountant.state_dict() {\"history\", \"mechanism\"} (with\n"
            "                  \"epsilon\", \"delta\" optional); adjacency add-remove\n"
            "  dp-accounting   a DpEvent tree as to_named_tuple()._asdict() gives it\n"
            "                  (\"class_name\" or \"type\"): ComposedDpEvent and\n"
            "                  SelfComposedDpEvent of GaussianDpEvent and\n"
            "                  PoissonSampledDpEvent(GaussianDpEvent), NoOpDpEvent; or\n"
            "                  {\"event\", \"neighboring_relation\", \"epsilon\", \"delta\"};\n"
            "                  adjacency add-remove unless the file says REPLACE_ONE\n"
            "  tf-privacy      compute_dp_sgd_privacy's {\"n\", \"batch_size\",\n"
            "                  \"noise_multiplier\", \"epochs\", \"delta\"} (\"epsilon\" optional):\n"
            "                  q = batch_size/n, steps = ceil(epochs*n/batch_size); add-remove\n\n"
            "  --eps E         the claimed eps (default: the file's \"epsilon\")\n"
            "  --delta D       the claimed delta (default: the file's \"delta\")\n"
            "  --adjacency A   add-remove or replace (default: the tool's, see above)\n"
            "  --out FILE      write the certificate to FILE atomically instead of printing it\n"
            "  --json          accepted for uniformity: the output is JSON either way\n\n"
            "Exit codes: 0 written, 2 usage or input error (nothing written).\n"
            "Example: ulaudit import opacus tests/data/import/opacus-two-phases.json --eps\n"
            "7.32911117143 --delta 1e-5 --out cert.json && ulaudit audit cert.json\n");
}

/* The whole of FILE, or of standard input for "-", at most one byte more
 * than the JSON reader takes (it refuses that, naming the limit). */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = stdin;
    long long size;
    if (strcmp(path, "-") != 0 &&
        ul_io_fopen_regular(path, "JSON file", false, &f, &size, err, errlen) != UL_OK)
        return NULL;
    char *buf = malloc(UL_JSON_MAX_BYTES + 1);
    if (buf == NULL)
        abort(); /* a fixed size: out of memory aborts (num/status.h) */
    *len = fread(buf, 1, UL_JSON_MAX_BYTES + 1, f);
    bool bad = ferror(f) != 0;
    if (f != stdin)
        fclose(f);
    const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
    if (bad || *len > UL_JSON_MAX_BYTES) {
        if (bad)
            snprintf(err, errlen, "%s: read error", name);
        else if (f != stdin) /* the file's own size, not the bytes read to find it out */
            snprintf(err, errlen, "%s: file is %lld bytes; the limit is %zu bytes (1 MiB)", name,
                     size, UL_JSON_MAX_BYTES);
        else
            snprintf(err, errlen, "%s: more than %zu bytes; the limit is %zu bytes (1 MiB)", name,
                     UL_JSON_MAX_BYTES, UL_JSON_MAX_BYTES);
        free(buf);
        return NULL;
    }
    return buf;
}

/* One line on stderr, "ulaudit import: [WHAT: ]MSG"; exit 2. */
static int fail(const char *what, const char *msg)
{
    char shown[256];
    if (what != NULL)
        fprintf(stderr, "ulaudit import: %s: %s\n",
                ul_io_escape(what, strlen(what), shown, sizeof shown), msg);
    else
        fprintf(stderr, "ulaudit import: %s\n", msg);
    return UL_EXIT_USAGE;
}

int ul_cli_import(int argc, char **argv)
{
    static const ul_cli_flag flags[] = {
        {"eps", "E", "the claimed eps", ""},
        {"delta", "D", "the claimed delta", ""},
        {"adjacency", "A", "add-remove or replace", ""},
        {"out", "FILE", "write the certificate to FILE atomically", ""},
    };
    static const char *const switches[] = {"json", "help"};
    const ul_cli_grammar g = {flags, 4, switches, 2, 2, " (one format and one file per run)"};
    ul_cli_args a;
    char err[ERR_LEN];
    if (ul_cli_parse_grammar(&g, argc, argv, &a, err, sizeof err) != 0)
        return fail(NULL, err);
    if (a.on[1]) {
        ul_cli_import_help(stdout);
        return UL_EXIT_OK;
    }
    if (a.nargs < 2)
        return fail(NULL, a.nargs == 0 ? "missing FORMAT and FILE (usage: ulaudit import "
                                         "opacus|dp-accounting|tf-privacy FILE|-)"
                                       : "missing FILE (a JSON file, or - for standard input)");
    if (ul_import_check_format(a.args[0], err, sizeof err) != UL_OK)
        return fail(NULL, err);
    ul_import_options o = {.flag_prefix = "--"};
    o.input = strcmp(a.args[1], "-") == 0 ? "standard input" : a.args[1];
    for (int i = 0; i < 3; i++) /* the flags are the options: each set once, by the parser */
        if (a.given[i])
            (void)ul_import_options_set(&o, flags[i].name, a.values[i], err, sizeof err);
    size_t len = 0;
    char *text = slurp(a.args[1], &len, err, sizeof err);
    if (text == NULL) {
        ul_io_escape_message(err, sizeof err); /* it quotes the file name */
        return fail(NULL, err);
    }
    char *cert = NULL;
    ul_status st = ul_import(a.args[0], text, len, &o, &cert, err, sizeof err);
    free(text);
    if (st != UL_OK)
        return fail(o.input, err);
    int rc = UL_EXIT_OK;
    if (a.given[3]) {
        if (ul_io_write_atomic_bytes(a.values[3], cert, strlen(cert), err, sizeof err) != UL_OK)
            rc = fail(NULL, err);
    } else {
        fputs(cert, stdout);
    }
    free(cert);
    return rc;
}
