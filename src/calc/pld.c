/* src/calc/pld.c — pld-compose: delta(eps) or eps(delta) of composed
 * (subsampled) Gaussian mechanisms by FFT privacy-loss composition, a
 * proven bracket (bounds/pld.h; docs/accounting.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/pld.h"
#include "calc/internal.h"

/* ---- PLD composition --------------------------------------------------------------- */

/* pld-compose's flags: --r or --sigma/--sensitivity, --q, --steps or
 * --phases, --eps or --delta, --adjacency, --rel-width, --fft,
 * --max-seconds.  A flag the row does not declare reads as "none", so one
 * function serves the table's rows as they are and as they grow. */
static const char *pld_flag(const ul_calc_quantity *q, const char **v, const char *name)
{
    return ul_calc_flag_or(q, v, name, "none");
}

static bool pld_given(const char *text)
{
    return text != NULL && strcmp(text, "none") != 0;
}

#define PLD_MAX_PHASES 64 /* UL_PLD_MAX_MECHANISMS */

/* The phases: --phases "SIGMA:Q:STEPS[:SENSITIVITY],..." or one phase from
 * --sigma (or --r, read as sensitivity R over sigma 1), --q, --steps.  The
 * texts point into *copy (freed by the caller).  0 or an exit code. */
static int pld_phases(const ul_calc_quantity *q, const char **v, ul_calc_result *res,
                      ul_pld_phase *ph, size_t *count, char **copy)
{
    const char *phases = pld_flag(q, v, "phases"), *sens = pld_flag(q, v, "sensitivity");
    const char *sigma = pld_flag(q, v, "sigma"), *r = pld_flag(q, v, "r");
    const char *steps = pld_flag(q, v, "steps"), *qq = pld_flag(q, v, "q");
    if (!pld_given(sens))
        sens = "1";
    *copy = NULL;
    if (pld_given(phases)) {
        if (pld_given(sigma) || pld_given(r) || pld_given(steps)) {
            ul_calc_usage(res, "--phases: give either --phases or --sigma (or --r) "
                               "with --steps, not both");
            return UL_CALC_EXIT_USAGE;
        }
        *copy = strdup(phases);
        if (*copy == NULL)
            abort();
        const char *items[PLD_MAX_PHASES + 1];
        size_t n = ul_calc_split_list(*copy, items, PLD_MAX_PHASES + 1);
        if (n < 1 || n > PLD_MAX_PHASES) {
            ul_calc_usage(res,
                          "--phases: need 1 to %d phases SIGMA:Q:STEPS[:SENS] "
                          "separated by commas (got '%s')",
                          PLD_MAX_PHASES, phases);
            return UL_CALC_EXIT_USAGE;
        }
        for (size_t i = 0; i < n; i++) {
            char *f[5] = {NULL}, *save = NULL, *t = (char *)items[i];
            int nf = 0;
            for (char *tok = strtok_r(t, ":", &save); tok != NULL && nf < 5;
                 tok = strtok_r(NULL, ":", &save))
                f[nf++] = tok;
            long st = 0;
            if (nf < 3 || nf > 4 || !ul_calc_read_count(f[2], UL_CALC_COUNT_MAX, &st) || st < 1) {
                ul_calc_usage(res,
                              "--phases: phase %zu must be SIGMA:Q:STEPS or "
                              "SIGMA:Q:STEPS:SENSITIVITY with STEPS a whole number >= 1 (got "
                              "'%s')",
                              i, phases);
                return UL_CALC_EXIT_USAGE;
            }
            ph[i] = (ul_pld_phase){f[0], nf == 4 ? f[3] : sens, f[1], (unsigned long)st};
        }
        *count = n;
        return 0;
    }
    long st = 0;
    if (!pld_given(steps) || !ul_calc_read_count(steps, UL_CALC_COUNT_MAX, &st) || st < 1) {
        ul_calc_usage(res,
                      "--steps: must be a whole number from 1 to 999999999 "
                      "(got '%s')",
                      steps);
        return UL_CALC_EXIT_USAGE;
    }
    if (pld_given(sigma) == pld_given(r)) {
        ul_calc_usage(res, "--sigma: give exactly one of --sigma (noise multiplier) "
                           "and --r (sensitivity/sigma)");
        return UL_CALC_EXIT_USAGE;
    }
    /* --r R is the phase of sigma 1 and sensitivity R: r = R exactly */
    ph[0] = pld_given(sigma) ? (ul_pld_phase){sigma, sens, qq, (unsigned long)st}
                             : (ul_pld_phase){"1", r, qq, (unsigned long)st};
    *count = 1;
    return 0;
}

/* --adjacency, --rel-width, --fft, --max-seconds into opt; 0 or an exit code. */
static int pld_options(const ul_calc_quantity *q, const char **v, ul_calc_result *res,
                       ul_pld_options *opt)
{
    ul_pld_options_default(opt);
    const char *adj = pld_flag(q, v, "adjacency"), *w = pld_flag(q, v, "rel-width");
    const char *fft = pld_flag(q, v, "fft"), *ms = pld_flag(q, v, "max-seconds");
    static const char *const ADJ[] = {"both", "remove", "add", "replace"};
    int a = pld_given(adj) ? -1 : 0;
    for (int i = 0; i < 4 && a < 0; i++)
        if (strcmp(adj, ADJ[i]) == 0)
            a = i; /* the order of ul_pld_adjacency */
    if (a < 0) {
        ul_calc_usage(res,
                      "--adjacency: must be both, add, remove or replace (got "
                      "'%s')",
                      adj);
        return UL_CALC_EXIT_USAGE;
    }
    opt->adjacency = (ul_pld_adjacency)a;
    char *end;
    if (pld_given(w)) {
        double width = strtod(w, &end); /* an accuracy request, not a certified input */
        if (!ul_num_is_decimal(w) || *end != '\0' || !(width >= 1e-9 && width <= 1)) {
            ul_calc_usage(res,
                          "--rel-width: must be a decimal from 1e-9 to 1 (got "
                          "'%s')",
                          w);
            return UL_CALC_EXIT_USAGE;
        }
        opt->rel_width = width;
    }
    if (!pld_given(fft) || strcmp(fft, "auto") == 0)
        opt->fft = UL_PLD_FFT_AUTO;
    else if (strcmp(fft, "double") == 0)
        opt->fft = UL_PLD_FFT_DOUBLE;
    else if (strcmp(fft, "long") == 0)
        opt->fft = UL_PLD_FFT_LONG_DOUBLE;
    else {
        ul_calc_usage(res, "--fft: must be auto, double or long (got '%s')", fft);
        return UL_CALC_EXIT_USAGE;
    }
    /* the rule ul_calc_run (calc/run.c) already checked; beside its deadline,
     * the composition's own budget stops before a round that would not fit,
     * keeping the sound bracket so far (exit 3) */
    double secs = 0;
    if (pld_given(ms) && ul_calc_read_seconds(ms, &secs))
        opt->max_seconds = secs;
    return 0;
}

/* The library's field names, as flags: phase[0].sigma is --sigma when the
 * phase came from the single-phase flags; --phases entries keep their index. */
static int pld_library_error(const ul_calc_quantity *q, const char **v, ul_calc_result *res,
                             ul_status st, const char *err, bool list)
{
    char msg[600];
    const char *tail = strstr(err, "phase[0].");
    if (list && strncmp(err, "phase[", 6) == 0)
        snprintf(msg, sizeof msg, "phases: %s", err);
    else if (!list && strncmp(err, "phase[0].sensitivity", 20) == 0 &&
             pld_given(pld_flag(q, v, "r")))
        snprintf(msg, sizeof msg, "r%s", err + 20); /* --r R is read as the sensitivity */
    else if (!list && tail != NULL)
        snprintf(msg, sizeof msg, "%.*s%s", (int)(tail - err), err, tail + 9);
    else
        snprintf(msg, sizeof msg, "%s", err);
    return ul_calc_input_error(res, st, msg);
}

/* A budget figure in JSON, which has no infinity or NaN (json-c would print
 * the invalid tokens Infinity and NaN): a number when finite, the string
 * "inf" or "-inf", null when the composition left it undetermined (NaN, as
 * a grid step far from the loss's scale gives). */
static json_object *budget_number(double x)
{
    if (isfinite(x))
        return json_object_new_double(x);
    return isnan(x) ? NULL : json_object_new_string(x > 0 ? "inf" : "-inf");
}

/* The same figure in the text report ("undetermined" for NaN, not "-nan"). */
static const char *budget_text(char *buf, size_t len, double x)
{
    if (isnan(x))
        return "undetermined";
    snprintf(buf, len, "%.3g", x);
    return buf;
}

/* The budget lines and JSON object of the report. */
static char *pld_note(ul_calc_build *r, const ul_pld_report *rep, const char *safe,
                      const char *safe_meaning, ul_status st, const char *err)
{
    ul_calc_add_string(r->json, "safe", safe);
    json_object *b = json_object_new_object();
    json_object_object_add(b, "grid_step", budget_number(rep->grid_step));
    json_object_object_add(b, "fft_length", json_object_new_int64((int64_t)rep->fft_length));
    json_object_object_add(b, "fft_bits", json_object_new_int(rep->fft_bits));
    json_object_object_add(b, "discretisation_gap", budget_number(rep->discretisation_gap));
    json_object_object_add(b, "tail_mass", budget_number(rep->tail_mass));
    json_object_object_add(b, "rounding", budget_number(rep->rounding));
    json_object_object_add(b, "mass_slack", budget_number(rep->mass_slack));
    json_object_object_add(b, "tilt", budget_number(rep->tilt));
    json_object_object_add(b, "exact_gaussian", json_object_new_boolean(rep->exact_gaussian));
    json_object_object_add(r->json, "budget", b);
    char *note = NULL;
    size_t note_len = 0;
    FILE *nf = open_memstream(&note, &note_len);
    if (nf == NULL)
        abort();
    char t[5][32];
    if (rep->exact_gaussian)
        fprintf(nf,
                "  safe    %s  (%s)\n"
                "  exact   every phase has q = 1: the composition is one Gaussian mechanism with\n"
                "          r = sqrt(sum of steps*r^2), enclosed without grid or FFT\n",
                safe, safe_meaning);
    else
        fprintf(nf,
            "  safe    %s  (%s)\n"
            "  budget  grid step %s, FFT length %lu (%d-bit), discretisation gap %s,\n"
            "          tail mass %s, FFT rounding bound %s, tilt %s (direction %s)\n",
            safe, safe_meaning, budget_text(t[0], sizeof t[0], rep->grid_step), rep->fft_length,
            rep->fft_bits, budget_text(t[1], sizeof t[1], rep->discretisation_gap),
            budget_text(t[2], sizeof t[2], rep->tail_mass),
            budget_text(t[3], sizeof t[3], rep->rounding),
            budget_text(t[4], sizeof t[4], rep->tilt),
            rep->direction == UL_PLD_ADD ? "add" : "remove");
    if (st == UL_ECAP)
        fprintf(nf, "  note    %s\n", err);
    fclose(nf);
    return note;
}

static char *pld_format(mpfr_srcptr x, int digits, mpfr_rnd_t rnd)
{
    return mpfr_inf_p(x) ? strdup("inf") : ul_num_format(x, digits, rnd);
}

/* δ(ε) or ε(δ) of the phases (pld.h): a proven bracket, hi the safe end. */
UL_CALC_QUANTITY_FN(ul_calc_pld_compose)
{
    ul_pld_options opt;
    int rc = pld_options(q, v, res, &opt);
    if (rc != 0)
        return rc;
    const char *eps = pld_flag(q, v, "eps"), *delta = pld_flag(q, v, "delta");
    if (pld_given(eps) == pld_given(delta)) {
        ul_calc_usage(res, "--eps: give exactly one of --eps (for delta(eps)) and "
                           "--delta (for eps(delta))");
        return UL_CALC_EXIT_USAGE;
    }
    ul_pld_phase ph[PLD_MAX_PHASES];
    size_t count = 0;
    char *copy = NULL;
    rc = pld_phases(q, v, res, ph, &count, &copy);
    if (rc != 0) {
        free(copy);
        return rc;
    }
    bool want_eps = pld_given(delta);
    char err[512] = "";
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    ul_pld_report rep;
    ul_status st = want_eps ? ul_pld_epsilon(ph, count, delta, &opt, lo, hi, &rep, err, sizeof err)
                            : ul_pld_delta(ph, count, eps, &opt, lo, hi, &rep, err, sizeof err);
    if (st != UL_OK && st != UL_ECAP) {
        rc = pld_library_error(q, v, res, st, err, copy != NULL);
    } else {
        ul_calc_build r;
        ul_calc_begin(&r, q, v, c, res);
        int digits = c->digits > 17 ? 17 : c->digits;
        char *los = pld_format(lo, digits, MPFR_RNDD), *his = pld_format(hi, digits, MPFR_RNDU);
        ul_num_report nrep = {rep.exact_gaussian ? 128 : rep.fft_bits, st == UL_ECAP};
        ul_calc_bounds(&r, los, his, &nrep);
        ul_calc_add_string(r.json, "query", want_eps ? "eps(delta)" : "delta(eps)");
        char *note = pld_note(&r, &rep, his,
                              want_eps ? "a proven eps: the composition is (eps, delta)-DP; no "
                                         "eps <= lo is"
                                       : "a proven upper bound on delta; lo is a proven lower "
                                         "bound",
                              st, err);
        rc = ul_calc_end_pld(&r,
                             want_eps ? "eps(delta) by FFT privacy-loss composition, a "
                                        "proven bracket"
                                      : "delta(eps) by FFT privacy-loss composition",
                             note, st);
        free(los);
        free(his);
        free(note);
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    free(copy);
    return rc;
}
