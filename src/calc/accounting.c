/* src/cli/calc_accounting.c — the accounting quantities: contraction,
 * contraction-steps, contraction-sigma, rdp-to-dp, gauss-rdp-eps, sgm-rdp,
 * pld-compose. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/contraction.h"
#include "bounds/pld.h"
#include "bounds/renyi.h"
#include "calc/internal.h"

/* ---- contraction ------------------------------------------------------------- */

/* Reads --eps, --steps, --delta0, --mode and --r (the last two when the
 * row has them) into a problem; 0 or an exit code.  The list storage
 * belongs to the caller. */
static int read_contraction(const ul_calc_quantity *q, const char **v, ul_calc_result *res,
                            char **r_copy,
                            const char ***r_items, ul_contraction_problem *pb)
{
    const char *r_text = ul_calc_flag_or(q, v, "r", NULL);
    const char *steps_text = ul_calc_flag_or(q, v, "steps", NULL);
    const char *mode_text = ul_calc_flag_text(q, v, "mode");
    *r_copy = NULL; /* the caller frees both on every path */
    *r_items = NULL;
    long steps = 0;
    if (steps_text != NULL && (!ul_calc_read_count(steps_text, &steps) ||
                               (unsigned long)steps > UL_CONTRACTION_MAX_STEPS)) {
        ul_calc_usage(res, "--steps: must be a whole number from 0 to %lu (got '%s')",
                UL_CONTRACTION_MAX_STEPS, steps_text);
        return UL_CALC_EXIT_USAGE;
    }
    ul_contraction_mode mode;
    if (!ul_contraction_mode_parse(mode_text, &mode)) {
        ul_calc_usage(res, "--mode: must be product or adaptive (got '%s')",
                mode_text);
        return UL_CALC_EXIT_USAGE;
    }
    /* room for the values given, never for all T steps: --steps 10^8 with
     * one r allocated 800 MB and aborted under a memory limit (H3's sweep) */
    size_t given = 1;
    for (const char *c = r_text != NULL ? strchr(r_text, ',') : NULL; c != NULL;
         c = strchr(c + 1, ','))
        given++;
    *r_items = malloc(given * sizeof **r_items);
    if (*r_items == NULL)
        abort();
    size_t n_r = 1;
    if (r_text != NULL) {
        *r_copy = strdup(r_text);
        if (*r_copy == NULL)
            abort();
        n_r = ul_calc_split_list(*r_copy, *r_items, given);
        /* every value counted, not only those read: a list longer than
         * --steps was cut to its first T values without a word */
        if (given > 1 && steps_text == NULL) {
            ul_calc_usage(res, "--r: one constant value, not a list (got %zu "
                                "values)", given);
            return UL_CALC_EXIT_USAGE;
        }
        if (given > 1 && given != (size_t)steps) {
            ul_calc_usage(res, "--r: a list needs one value per step (%ld), got %zu",
                    steps, given);
            return UL_CALC_EXIT_USAGE;
        }
    }
    pb->eps = ul_calc_flag_text(q, v, "eps");
    pb->r = *r_items;
    pb->n_r = n_r;
    pb->steps = (unsigned long)steps;
    pb->delta0 = ul_calc_flag_text(q, v, "delta0");
    pb->mode = mode;
    return 0;
}

UL_CALC_QUANTITY_FN(ul_calc_contraction)
{
    char *r_copy;
    const char **r_items;
    ul_contraction_problem pb;
    int rc = read_contraction(q, v, res, &r_copy, &r_items, &pb);
    if (rc == 0) {
        char err[256];
        ul_num_precision want = ul_calc_precision_of(c);
        ul_num_value delta;
        ul_num_value_init(&delta, 64);
        ul_num_report rep;
        bool floor = false;
        ul_status st =
            ul_contraction_delta_certified(&pb, &want, &delta, &floor, &rep, err, sizeof err);
        if (st != UL_OK && st != UL_ECAP) {
            rc = ul_calc_input_error(res, st, err);
        } else {
            ul_calc_build r;
            ul_calc_begin(&r, q, v, c, res);
            char *lo, *hi;
            ul_num_value_format(&delta, c->digits, &lo, &hi);
            ul_calc_bounds(&r, lo, hi, &rep);
            json_object_object_add(r.json, "floor_reached", json_object_new_boolean(floor));
            free(lo);
            free(hi);
            rc = ul_calc_end(
                &r,
                pb.mode == UL_CONTRACTION_ADAPTIVE
                    ? "delta after T steps, adaptive recursion (spec/koloskova.md 2.3)"
                    : "delta_0 * prod_t theta_{e^eps}(r_t) (spec/koloskova.md 2.3)",
                floor ? "  below the floor 10^(-10^100): hi is the floor, a sound "
                        "upper bound (delta never increases)\n"
                      : NULL,
                st);
        }
        ul_num_value_clear(&delta);
    }
    free(r_copy);
    free(r_items);
    return rc;
}

UL_CALC_QUANTITY_FN(ul_calc_contraction_steps)
{
    long max_steps;
    if (!ul_calc_read_count(ul_calc_flag_text(q, v, "max-steps"), &max_steps) || max_steps < 1) {
        ul_calc_usage(res, "--max-steps: must be a whole number from 1 to 999999999 (got '%s')",
            ul_calc_flag_text(q, v, "max-steps"));
        return UL_CALC_EXIT_USAGE;
    }
    char *r_copy;
    const char **r_items;
    ul_contraction_problem pb;
    int rc = read_contraction(q, v, res, &r_copy, &r_items, &pb);
    if (rc == 0) {
        char err[256];
        unsigned long steps = 0;
        ul_num_report rep;
        ul_status st = ul_contraction_least_steps(
            &pb, ul_calc_flag_text(q, v, "delta"), (unsigned long)max_steps, &steps, &rep, err, sizeof err);
        if (st != UL_OK) {
            rc = ul_calc_input_error(res, st, err);
        } else {
            ul_calc_build r;
            ul_calc_begin(&r, q, v, c, res);
            json_object_object_add(r.json, "value", json_object_new_int64((int64_t)steps));
            json_object_object_add(r.json, "precision_bits", json_object_new_int64(rep.bits_used));
            char note[160];
            snprintf(note, sizeof note, "  value   %lu\n  certified: delta_T <= delta%s\n", steps,
                     steps > 0 ? " and delta_{T-1} > delta" : "");
            rc = ul_calc_end_form(&r, UL_CALC_TEXT_PLAIN, "the least T with delta_T <= delta",
                                  note, UL_OK, "");
        }
    }
    free(r_copy);
    free(r_items);
    return rc;
}

UL_CALC_QUANTITY_FN(ul_calc_contraction_sigma)
{
    char *r_copy;
    const char **r_items;
    ul_contraction_problem pb;
    int rc = read_contraction(q, v, res, &r_copy, &r_items, &pb);
    if (rc == 0) {
        char err[256];
        ul_num_precision want = ul_calc_precision_of(c);
        ul_num_report rep;
        mpfi_t sigma;
        mpfi_init2(sigma, 64);
        ul_status st =
            ul_contraction_sigma_min(&pb, ul_calc_flag_text(q, v, "diameter"), ul_calc_flag_text(q, v, "delta"),
                                     &want, sigma, &rep, err, sizeof err);
        if (st != UL_OK && st != UL_ECAP)
            rc = ul_calc_input_error(res, st, err);
        else
            rc = ul_calc_report_inverse(q, v, c, res, sigma, &rep,
                                     "the smallest constant sigma with delta_T <= delta",
                                     "certified: delta_T at this sigma is <= delta", st);
        mpfi_clear(sigma);
    }
    free(r_copy);
    free(r_items);
    return rc;
}

/* ---- Rényi DP ------------------------------------------------------------------ */

static bool read_conversion(ul_calc_result *res, const char *text, ul_rdp_conversion *conv)
{
    char err[256];
    if (ul_renyi_parse_conversion(text, conv, err, sizeof err) == UL_OK)
        return true;
    ul_calc_usage(res, "--%s", err);
    return false;
}

/* The text line naming the bound that decided rdp-to-dp's eps (JSON
 * decided_by: ul_renyi_decider_name, null when undecided). */
static const char *decider_note(ul_rdp_decider by)
{
    switch (by) {
    case UL_RDP_BY_MIRONOV:
        return "  decided by mironov: eps = rdp + log(1/delta)/(alpha-1) (Mironov 2017 Prop. 3)\n";
    case UL_RDP_BY_BBGHS:
        return "  decided by bbghs: Balle et al. 2020 Thm 21's formula\n";
    case UL_RDP_BY_CLAMP:
        return "  decided by bbghs_clamp: Thm 21's formula is <= 0, and (eps', delta)-DP with\n"
               "    eps' < 0 is (0, delta)-DP: eps = 0\n";
    case UL_RDP_BY_KL:
        return "  decided by kl: delta >= sqrt(1 - e^-rdp), so eps = 0: TV <= sqrt(1 - e^-KL)\n"
               "    (Bretagnolle-Huber) and KL = D_1 <= D_alpha <= rdp (van Erven-Harremoes\n"
               "    2014 Thm 3); (0, delta)-DP is TV <= delta\n";
    default:
        return "  decided by: not decided within --max-bits (the KL shortcut's 0, or Thm 21's\n"
               "    formula clamped at 0)\n";
    }
}

UL_CALC_QUANTITY_FN(ul_calc_rdp_to_dp)
{
    ul_rdp_conversion conv;
    if (!read_conversion(res, ul_calc_flag_text(q, v, "conversion"), &conv))
        return UL_CALC_EXIT_USAGE;
    char err[256];
    ul_num_precision want = ul_calc_precision_of(c);
    ul_num_value eps;
    ul_num_value_init(&eps, 64);
    ul_num_report rep;
    const char *alpha = ul_calc_flag_text(q, v, "alpha"), *rdp = ul_calc_flag_text(q, v, "rdp"),
               *delta = ul_calc_flag_text(q, v, "delta");
    ul_status st = ul_renyi_rdp_to_dp_certified(alpha, rdp, delta, conv, &want, &eps, &rep, err,
                                                sizeof err);
    int rc;
    if (st != UL_OK && st != UL_ECAP) {
        rc = ul_calc_input_error(res, st, err);
    } else {
        /* which of the conversion's bounds gave eps: with bbghs a 0 comes
         * from the clamp or from the KL shortcut, which the formula alone
         * does not show (man/ulaudit-calc.1, rdp-to-dp) */
        ul_rdp_decider by =
            ul_renyi_rdp_to_dp_decider(alpha, rdp, delta, conv, ul_num_max_bits(&want));
        rc = ul_calc_report_value_note(
            q, v, c, res, &eps, &rep,
            conv == UL_RDP_MIRONOV
                ? "eps = rdp + log(1/delta)/(alpha-1) (Mironov 2017 Prop. 3)"
                : "eps = max(0, rdp + log1p(-1/alpha) - (log delta + log alpha)/(alpha-1)) "
                  "(Balle et al. 2020 Thm 21), or 0 when delta >= sqrt(1 - e^-rdp) (KL shortcut)",
            "decided_by", ul_renyi_decider_name(by), decider_note(by), st);
    }
    ul_num_value_clear(&eps);
    return rc;
}

UL_CALC_QUANTITY_FN(ul_calc_gauss_rdp_eps)
{
    ul_rdp_conversion conv;
    if (!read_conversion(res, ul_calc_flag_text(q, v, "conversion"), &conv))
        return UL_CALC_EXIT_USAGE;
    char err[256], alpha[UL_RENYI_ALPHA_TEXT_LEN] = "";
    ul_num_precision want = ul_calc_precision_of(c);
    ul_num_value eps;
    ul_num_value_init(&eps, 64);
    ul_num_report rep;
    ul_status st =
        ul_renyi_gauss_eps_certified(ul_calc_flag_text(q, v, "r"), ul_calc_flag_text(q, v, "delta"), conv, &want,
                                     &eps, alpha, sizeof alpha, &rep, err, sizeof err);
    int rc = st != UL_OK && st != UL_ECAP
                 ? ul_calc_input_error(res, st, err)
                 : ul_calc_report_value(q, v, c, res, &eps, &rep,
                                     "eps of the Gaussian mechanism through RDP alpha*r^2/2 at the "
                                     "best alpha",
                                     "alpha", alpha, st);
    ul_num_value_clear(&eps);
    return rc;
}

UL_CALC_QUANTITY_FN(ul_calc_sgm_rdp)
{
    char err[256];
    ul_num_precision want = ul_calc_precision_of(c);
    ul_num_value rdp;
    ul_num_value_init(&rdp, 64);
    ul_num_report rep;
    ul_status st =
        ul_renyi_sgm_rdp_certified(ul_calc_flag_text(q, v, "q"), ul_calc_flag_text(q, v, "sigma"),
                                   ul_calc_flag_text(q, v, "alpha"), &want, &rdp, &rep, err, sizeof err);
    int rc =
        st != UL_OK && st != UL_ECAP
            ? ul_calc_input_error(res, st, err)
            : ul_calc_report_value(q, v, c, res, &rdp, &rep,
                                "RDP of the Poisson-subsampled Gaussian (Mironov, Talwar, Zhang "
                                "2019)",
                                NULL, NULL, st);
    ul_num_value_clear(&rdp);
    return rc;
}

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
                      ul_pld_phase *ph, size_t *count,
                      char **copy)
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
            ul_calc_usage(res, "--phases: need 1 to %d phases SIGMA:Q:STEPS[:SENS] "
                            "separated by commas (got '%s')", PLD_MAX_PHASES, phases);
            return UL_CALC_EXIT_USAGE;
        }
        for (size_t i = 0; i < n; i++) {
            char *f[5] = {NULL}, *save = NULL, *t = (char *)items[i];
            int nf = 0;
            for (char *tok = strtok_r(t, ":", &save); tok != NULL && nf < 5;
                 tok = strtok_r(NULL, ":", &save))
                f[nf++] = tok;
            long st = 0;
            if (nf < 3 || nf > 4 || !ul_calc_read_count(f[2], &st) || st < 1) {
                ul_calc_usage(res, "--phases: phase %zu must be SIGMA:Q:STEPS or "
                                "SIGMA:Q:STEPS:SENSITIVITY with STEPS a whole number >= 1 (got "
                                "'%s')", i, phases);
                return UL_CALC_EXIT_USAGE;
            }
            ph[i] = (ul_pld_phase){f[0], nf == 4 ? f[3] : sens, f[1], (unsigned long)st};
        }
        *count = n;
        return 0;
    }
    long st = 0;
    if (!pld_given(steps) || !ul_calc_read_count(steps, &st) || st < 1) {
        ul_calc_usage(res, "--steps: must be a whole number from 1 to 999999999 "
                        "(got '%s')", steps);
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
        ul_calc_usage(res, "--adjacency: must be both, add, remove or replace (got "
                        "'%s')", adj);
        return UL_CALC_EXIT_USAGE;
    }
    opt->adjacency = (ul_pld_adjacency)a;
    char *end;
    if (pld_given(w)) {
        double width = strtod(w, &end); /* an accuracy request, not a certified input */
        if (!ul_num_is_decimal(w) || *end != '\0' || !(width >= 1e-9 && width <= 1)) {
            ul_calc_usage(res, "--rel-width: must be a decimal from 1e-9 to 1 (got "
                            "'%s')", w);
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
        ul_calc_usage(res, "--fft: must be auto, double or long (got '%s')",
                fft);
        return UL_CALC_EXIT_USAGE;
    }
    /* the rule run_quantity (calc.c) already checked; beside its deadline,
     * the composition's own budget stops before a round that would not fit,
     * keeping the sound bracket so far (exit 3) */
    double secs = 0;
    if (pld_given(ms) && ul_calc_read_budget(ms, &secs))
        opt->max_seconds = secs;
    return 0;
}

/* The library's field names, as flags: phase[0].sigma is --sigma when the
 * phase came from the single-phase flags; --phases entries keep their index. */
static int pld_library_error(const ul_calc_quantity *q, const char **v, ul_calc_result *res,
                             ul_status st,
                             const char *err, bool list)
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
    json_object_object_add(r->json, "budget", b);
    char *note = NULL;
    size_t note_len = 0;
    FILE *nf = open_memstream(&note, &note_len);
    if (nf == NULL)
        abort();
    char t[4][32];
    fprintf(nf,
            "  safe    %s  (%s)\n"
            "  budget  grid step %s, FFT length %lu (%d-bit), discretisation gap %s,\n"
            "          tail mass %s, FFT rounding bound %s (direction %s)\n",
            safe, safe_meaning, budget_text(t[0], sizeof t[0], rep->grid_step), rep->fft_length,
            rep->fft_bits, budget_text(t[1], sizeof t[1], rep->discretisation_gap),
            budget_text(t[2], sizeof t[2], rep->tail_mass),
            budget_text(t[3], sizeof t[3], rep->rounding),
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
        ul_num_report nrep = {rep.fft_bits, st == UL_ECAP};
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
