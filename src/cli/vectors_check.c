/* src/cli/vectors_check.c — `ulaudit vectors check --family F RESULTS.csv
 * [--json]`: an implementation's outputs against the certified vectors
 * (src/vectors/check.h): a table of classes per quantity, the worst rows,
 * and the exit code a CI job reads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/exitcodes.h"
#include "cli/vectors.h"
#include "vectors/check.h"

static const char *side_name(ul_vchk_side s)
{
    return s == UL_VCHK_BELOW ? "below lo" : "above hi";
}

void ul_cli_vectors_check_help(FILE *out)
{
    fprintf(out,
            "usage: ulaudit vectors check --family FAMILY RESULTS.csv [--json [--rows]]\n\n"
            "Checks an implementation's outputs against the certified reference vectors.\n"
            "RESULTS.csv: a header with the family's input columns (the names of the vector\n"
            "file) and one or more output columns named as the quantity (theta, sigma,\n"
            "delta, ...), optionally `tolerance` (the stated relative accuracy); one row per\n"
            "input, comma-separated, no quoting.  Inputs are matched by their exact decimal\n"
            "text against the family's rows (generated in memory, no file needed); a row\n"
            "not among them is computed on the fly, certified (theta, gauss-sigma,\n"
            "gauss-eps, rdp-to-eps, rdp-to-delta, sgm-rdp), or left unmatched (the other\n"
            "families).  Every value is classified:\n"
            "  exact            inside [lo, hi]\n"
            "  safe-inaccurate  outside, on the side that over-states the privacy loss\n"
            "  unsafe           outside, on the side that hurts users (table below)\n"
            "  invalid          empty, NaN, infinite, or outside the quantity's range\n"
            "  unmatched        inputs not in the vectors and not computable on the fly\n"
            "A value outside [lo, hi] but within lo - tol*|v| <= v <= hi + tol*|v| is marked\n"
            "within its stated tolerance; it keeps its class (unsafe stays unsafe).\n\n"
            "  --family F  the family (as `ulaudit vectors --only` takes it)\n"
            "  --json      one JSON object on stdout\n"
            "  --rows      with --json: every row's class per quantity (rows_classified)\n\n"
            "Directions (family, quantity, unsafe side, valid range):\n");
    for (const ul_vchk_direction *d = ul_vchk_directions; d->family != NULL; d++)
        fprintf(out, "  %-15s %-13s %-9s %-7s %s\n", d->family, d->quantity,
                side_name(d->unsafe), ul_vchk_range_name(d->range), d->why);
    fprintf(out, "\nExit codes: 0 every value exact or safe-inaccurate, 1 a value unsafe or\n"
                 "invalid, 2 usage or input error, 3 no value unsafe or invalid but some rows\n"
                 "unmatched.  Example: ulaudit vectors check --family theta\n"
                 "tests/data/vcheck/theta_example.csv\n");
}

/* "eps=1 r=0.5" */
static void inputs_text(const ul_vchk_result *r, size_t i, char *out, size_t outlen)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t k = 0; k < r->ninputs && len < outlen; k++)
        len += (size_t)snprintf(out + len, outlen - len, "%s%s=%s", k ? " " : "",
                                r->input_names[k], r->inputs[i * r->ninputs + k]);
}

static void print_worst(const ul_vchk_result *r, size_t j, ul_vchk_class c)
{
    long i = r->q[j].worst[c];
    if (i < 0 || c == UL_VCHK_EXACT)
        return;
    const ul_vchk_cell *cell = &r->cells[(size_t)i * r->nq + j];
    char in[512];
    inputs_text(r, (size_t)i, in, sizeof in);
    printf("  %-13s %-15s line %zu: %s: value '%s'", r->q[j].dir->quantity, ul_vchk_class_name(c),
           r->line[i], in, cell->text);
    if (c == UL_VCHK_INVALID)
        printf(" (%s)", cell->invalid_why);
    else if (c != UL_VCHK_UNMATCHED)
        printf(" vs [%s, %s], %s error %.3g%s", cell->lo, cell->hi,
               cell->absolute ? "absolute" : "relative", cell->error,
               cell->within_tolerance ? ", within its stated tolerance" : "");
    printf("\n");
}

static void print_text(const ul_vchk_result *r, const char *path)
{
    printf("vectors check: %s, %s: %zu rows (%zu in the vectors, %zu computed on the fly, %zu "
           "unmatched)%s\n",
           r->family->name, path, r->nrows, r->matched, r->computed, r->unmatched,
           r->has_tolerance ? ", stated tolerances read" : "");
    printf("  %-13s %-9s %-7s %7s %15s %7s %7s %9s %10s\n", "quantity", "unsafe", "range", "exact",
           "safe-inaccurate", "unsafe", "invalid", "unmatched", "within-tol");
    for (size_t j = 0; j < r->nq; j++) {
        const ul_vchk_quantity *q = &r->q[j];
        printf("  %-13s %-9s %-7s %7zu %15zu %7zu %7zu %9zu %10zu\n", q->dir->quantity,
               side_name(q->dir->unsafe), ul_vchk_range_name(q->dir->range),
               q->count[UL_VCHK_EXACT], q->count[UL_VCHK_SAFE], q->count[UL_VCHK_UNSAFE],
               q->count[UL_VCHK_INVALID], q->count[UL_VCHK_UNMATCHED], q->within_tolerance);
    }
    printf("worst rows (largest error of each class; the first invalid and unmatched):\n");
    bool any = false;
    for (size_t j = 0; j < r->nq; j++)
        for (int c = UL_VCHK_SAFE; c < UL_VCHK_NCLASS; c++) {
            any = any || r->q[j].worst[c] >= 0;
            print_worst(r, j, (ul_vchk_class)c);
        }
    if (!any)
        printf("  none: every value is inside its enclosure\n");
}

static void print_json(const ul_vchk_result *r, const char *path, bool rows)
{
    /* the library's ulaudit_vectors_check gives the same text */
    char *text = ul_vchk_json(r, path, rows);
    puts(text);
    free(text);
}

int ul_cli_vectors_check(int argc, char **argv)
{
    static const ul_cli_flag flags[] = {{"family", "F", "the family", NULL}};
    static const char *const switches[] = {"json", "help", "rows"};
    const ul_cli_grammar g = {flags, 1, switches, 3, 1, " (one RESULTS file per run)"};
    ul_cli_args a;
    char err[1024];
    if (ul_cli_parse_grammar(&g, argc, argv, &a, err, sizeof err) != 0) {
        fprintf(stderr, "ulaudit vectors check: %s\n", err);
        return UL_EXIT_USAGE;
    }
    if (a.on[1]) {
        ul_cli_vectors_check_help(stdout);
        return UL_EXIT_OK;
    }
    if (a.on[2] && !a.on[0]) {
        fprintf(stderr, "ulaudit vectors check: --rows: only with --json (it adds every row's "
                        "class to the JSON object)\n");
        return UL_EXIT_USAGE;
    }
    if (a.nargs != 1) {
        fprintf(stderr, "ulaudit vectors check: RESULTS: missing (the CSV file of the "
                        "implementation's outputs)\n");
        return UL_EXIT_USAGE;
    }
    ul_vchk_result r;
    ul_status st = ul_vchk_run(a.values[0], a.args[0], &r, err, sizeof err);
    if (st != UL_OK) {
        fprintf(stderr, "ulaudit vectors check: %s%s\n",
                strncmp(err, "family:", 7) == 0 ? "--" : "", err);
        return st == UL_ECAP || st == UL_ETIME ? UL_EXIT_INCONCLUSIVE : UL_EXIT_USAGE;
    }
    int rc = ul_vchk_exit_code(&r); /* UL_EXIT_REJECTED, UL_EXIT_INCONCLUSIVE or UL_EXIT_OK */
    if (a.on[0])
        print_json(&r, a.args[0], a.on[2]);
    else
        print_text(&r, a.args[0]);
    ul_vchk_free(&r);
    return rc;
}
