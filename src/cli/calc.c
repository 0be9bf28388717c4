/* src/cli/calc.c — `ulaudit calc QUANTITY --flags`: the certified calculator.
 *
 * Each quantity is one row of the table below: its flags, a one-line
 * summary, an example, and a function that computes and reports it.  Every
 * reported value is an enclosure [lo, hi] printed with lo rounded down and
 * hi rounded up (DESIGN.md, command-line contract).
 */
#include "cli/calc.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/contraction.h"
#include "bounds/gaussian.h"
#include "bounds/pld.h"
#include "bounds/renyi.h"
#include "cli/args.h"
#include "cli/exitcodes.h"

typedef struct calc_quantity calc_quantity;

struct calc_quantity {
    const char *name;
    const char *summary;
    const char *example;
    ul_cli_flag flags[UL_CLI_MAX_FLAGS];
    int nflags;
    int (*run)(const calc_quantity *q, const char **values, const ul_cli_common *common);
};

/* ---- reporting ------------------------------------------------------------ */

typedef struct {
    const calc_quantity *q;
    const char **values;
    const ul_cli_common *common;
    json_object *json;   /* the whole result, in both output modes */
} result;

static void result_begin(result *r, const calc_quantity *q, const char **values,
                         const ul_cli_common *common)
{
    r->q = q;
    r->values = values;
    r->common = common;
    r->json = json_object_new_object();
    json_object_object_add(r->json, "quantity", json_object_new_string(q->name));
    json_object *inputs = json_object_new_object();
    for (int i = 0; i < q->nflags; i++)
        json_object_object_add(inputs, q->flags[i].name, json_object_new_string(values[i]));
    json_object_object_add(r->json, "inputs", inputs);
}

static void add_string(json_object *o, const char *key, const char *value)
{
    json_object_object_add(o, key, json_object_new_string(value));
}

/* Adds lo, hi, digits, precision_bits and cap_hit. */
static void result_bounds(result *r, const char *lo, const char *hi, const ul_num_report *rep)
{
    add_string(r->json, "lo", lo);
    add_string(r->json, "hi", hi);
    json_object_object_add(r->json, "digits", json_object_new_int(r->common->digits));
    json_object_object_add(r->json, "precision_bits", json_object_new_int64(rep->bits_used));
    json_object_object_add(r->json, "cap_hit", json_object_new_boolean(rep->cap_hit));
}

static const char *get(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : "";
}

/* Prints the result (JSON or text) and returns the exit code.  note, when
 * not NULL, is printed in text mode after the bounds. */
static int result_end(result *r, const char *meaning, const char *note, ul_status st)
{
    if (r->common->json) {
        puts(json_object_to_json_string_ext(r->json, JSON_C_TO_STRING_PRETTY |
                                                         JSON_C_TO_STRING_NOSLASHESCAPE));
    } else {
        printf("%s: %s\n  inputs ", r->q->name, meaning);
        for (int i = 0; i < r->q->nflags; i++)
            printf("%s%s = %s", i ? ", " : " ", r->q->flags[i].name, r->values[i]);
        json_object *pb;
        json_object_object_get_ex(r->json, "precision_bits", &pb);
        printf("\n  lo      %s\n  hi      %s\n", get(r->json, "lo"), get(r->json, "hi"));
        printf("  %d correct significant digits asked; working precision %s bits\n",
               r->common->digits, json_object_get_string(pb));
        if (note != NULL)
            printf("%s", note);
    }
    json_object_put(r->json);
    if (st == UL_ECAP) {
        fprintf(stderr,
                "ulaudit calc %s: warning: precision cap reached; the enclosure is sound but "
                "has fewer than %d correct digits (raise --max-bits)\n",
                r->q->name, r->common->digits);
        return UL_EXIT_INCONCLUSIVE;
    }
    return UL_EXIT_OK;
}

/* result_end for the PLD bracket, whose width is set by --rel-width rather
 * than --digits: the digits line is replaced by the budget note. */
static int result_end_pld(result *r, const char *note, ul_status st)
{
    if (r->common->json) {
        puts(json_object_to_json_string_ext(r->json, JSON_C_TO_STRING_PRETTY |
                                                         JSON_C_TO_STRING_NOSLASHESCAPE));
    } else {
        printf("%s: delta(eps) by FFT privacy-loss composition\n  inputs ", r->q->name);
        for (int i = 0; i < r->q->nflags; i++)
            printf("%s%s = %s", i ? ", " : " ", r->q->flags[i].name, r->values[i]);
        printf("\n  lo      %s\n  hi      %s\n%s", get(r->json, "lo"), get(r->json, "hi"), note);
    }
    json_object_put(r->json);
    if (st == UL_ECAP) {
        fprintf(stderr,
                "ulaudit calc %s: warning: the bracket is sound but wider than --rel-width\n",
                r->q->name);
        return UL_EXIT_INCONCLUSIVE;
    }
    return UL_EXIT_OK;
}

/* A library error: its message starts with the parameter name, which is the
 * flag name without dashes. */
static int input_error(const calc_quantity *q, ul_status st, const char *msg)
{
    fprintf(stderr, "ulaudit calc %s: %s%s\n", q->name, st == UL_EINPUT ? "--" : "", msg);
    return st == UL_ECAP ? UL_EXIT_INCONCLUSIVE : UL_EXIT_USAGE;
}

static ul_num_precision precision_of(const ul_cli_common *c)
{
    ul_num_precision want = {c->digits, 0, c->max_bits};
    return want;
}

/* ---- quantities ----------------------------------------------------------- */

static int run_theta(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    char err[256];
    ul_num_precision want = precision_of(c);
    ul_num_value theta;
    ul_num_value_init(&theta, 64);
    ul_num_report rep;
    ul_status st = ul_gauss_theta_certified(v[0], v[1], &want, &theta, &rep, err, sizeof err);
    if (st != UL_OK && st != UL_ECAP) {
        ul_num_value_clear(&theta);
        return input_error(q, st, err);
    }

    result r;
    result_begin(&r, q, v, c);
    char *lo, *hi;
    ul_num_value_format(&theta, c->digits, &lo, &hi);
    result_bounds(&r, lo, hi, &rep);
    free(lo);
    free(hi);

    /* The loose bound 1.25·exp(−ε²/(2r²)) beside the exact value, with
     * whether it is an upper bound here (spec/koloskova.md §2.2). */
    ul_num_value loose;
    ul_num_value_init(&loose, rep.bits_used);
    mpfi_t e, rr;
    mpfi_init2(e, rep.bits_used);
    mpfi_init2(rr, rep.bits_used);
    ul_num_set_decimal(e, v[0]);
    ul_num_set_decimal(rr, v[1]);
    if (mpfi_is_zero(rr)) {
        mpfi_set_ui(loose.enclosure, 0);
    } else {
        ul_gauss_loose_bound_log_enclose(loose.enclosure, e, rr);
        loose.is_log = true;
    }
    ul_num_value_format(&loose, c->digits, &lo, &hi);
    ul_loose_validity valid = ul_gauss_loose_bound_check(v[0], v[1]);
    json_object *lb = json_object_new_object();
    add_string(lb, "lo", lo);
    add_string(lb, "hi", hi);
    json_object_object_add(lb, "valid_upper_bound",
                           valid == UL_LOOSE_UNDECIDED
                               ? NULL
                               : json_object_new_boolean(valid == UL_LOOSE_VALID));
    json_object_object_add(r.json, "loose_bound", lb);

    const char *verdict =
        valid == UL_LOOSE_VALID ? "is an upper bound on theta here"
        : valid == UL_LOOSE_INVALID
            ? "is NOT an upper bound on theta here (for eps > 0 it fails above about 3.787: "
              "use theta)"
            : "could not be compared with theta";
    size_t note_len = strlen(hi) + strlen(verdict) + 64;
    char *note = malloc(note_len);
    if (note == NULL)
        abort();
    snprintf(note, note_len, "  loose bound 1.25*exp(-eps^2/(2 r^2)) = %s\n    %s\n", hi,
             verdict);
    free(lo);
    free(hi);
    mpfi_clear(e);
    mpfi_clear(rr);
    ul_num_value_clear(&loose);
    ul_num_value_clear(&theta);
    int rc = result_end(&r, "E_{e^eps}(N(0,1) || N(r,1)), the Gaussian hockey-stick divergence",
                        note, st);
    free(note);
    return rc;
}

/* Shared reporting for the two inverses: [lo, hi] ∋ the answer, hi safe. */
static int report_inverse(const calc_quantity *q, const char **v, const ul_cli_common *c,
                          mpfi_srcptr x, const ul_num_report *rep, const char *meaning,
                          const char *safe_note, ul_status st)
{
    mpfr_t b;
    mpfr_init2(b, mpfi_get_prec(x));
    mpfi_get_left(b, x);
    char *lo = ul_num_format(b, c->digits, MPFR_RNDD);
    mpfi_get_right(b, x);
    char *hi = ul_num_format(b, c->digits, MPFR_RNDU);
    mpfr_clear(b);

    result r;
    result_begin(&r, q, v, c);
    result_bounds(&r, lo, hi, rep);
    add_string(r.json, "safe", hi);
    size_t note_len = strlen(hi) + strlen(safe_note) + 32;
    char *note = malloc(note_len);
    if (note == NULL)
        abort();
    if (mpfr_inf_p(&x->right))
        snprintf(note, note_len, "  safe    none certified before the precision cap\n");
    else
        snprintf(note, note_len, "  safe    %s  (%s)\n", hi, safe_note);
    free(lo);
    free(hi);
    int rc = result_end(&r, meaning, note, st);
    free(note);
    return rc;
}

static int run_gauss_sigma(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    char err[256];
    ul_num_precision want = precision_of(c);
    ul_num_report rep;
    mpfi_t sigma;
    mpfi_init2(sigma, 64);
    ul_status st = ul_gauss_sigma_min(v[0], v[1], v[2], &want, sigma, &rep, err, sizeof err);
    int rc;
    if (st != UL_OK && st != UL_ECAP)
        rc = input_error(q, st, err);
    else
        rc = report_inverse(q, v, c, sigma, &rep,
                            "the smallest sigma with theta_{e^eps}(sensitivity/sigma) <= delta",
                            "certified: theta at this sigma is <= delta", st);
    mpfi_clear(sigma);
    return rc;
}

static int run_gauss_eps(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    char err[256];
    ul_num_precision want = precision_of(c);
    ul_num_report rep;
    mpfi_t eps;
    mpfi_init2(eps, 64);
    ul_status st = ul_gauss_eps_min(v[0], v[1], &want, eps, &rep, err, sizeof err);
    int rc;
    if (st != UL_OK && st != UL_ECAP)
        rc = input_error(q, st, err);
    else
        rc = report_inverse(q, v, c, eps, &rep,
                            "the smallest eps >= 0 with theta_{e^eps}(r) <= delta",
                            "certified: theta at this eps is <= delta", st);
    mpfi_clear(eps);
    return rc;
}


/* ---- contraction ------------------------------------------------------------- */

/* Splits a comma-separated list in place; returns the count (at most max). */
static size_t split_list(char *text, const char **items, size_t max)
{
    size_t n = 0;
    for (char *s = text; n < max;) {
        items[n++] = s;
        char *comma = strchr(s, ',');
        if (comma == NULL)
            break;
        *comma = '\0';
        s = comma + 1;
    }
    return n;
}

/* Reads --steps, --mode and --r into a problem; 0 or an exit code.  The list
 * storage belongs to the caller. */
static int read_contraction(const calc_quantity *q, const char *eps, const char *r_text,
                            const char *steps_text, const char *delta0, const char *mode_text,
                            char **r_copy, const char ***r_items, ul_contraction_problem *pb)
{
    long steps = 0;
    if (steps_text != NULL &&
        (!ul_cli_read_count(steps_text, &steps) || (unsigned long)steps > UL_CONTRACTION_MAX_STEPS)) {
        fprintf(stderr, "ulaudit calc %s: --steps: must be a whole number from 0 to %lu (got '%s')\n",
                q->name, UL_CONTRACTION_MAX_STEPS, steps_text);
        return UL_EXIT_USAGE;
    }
    ul_contraction_mode mode;
    if (!ul_contraction_mode_parse(mode_text, &mode)) {
        fprintf(stderr, "ulaudit calc %s: --mode: must be product or adaptive (got '%s')\n",
                q->name, mode_text);
        return UL_EXIT_USAGE;
    }
    size_t max_items = (size_t)steps > 0 ? (size_t)steps : 1;
    *r_copy = NULL;
    *r_items = malloc(max_items * sizeof **r_items);
    if (*r_items == NULL)
        abort();
    size_t n_r = 1;
    if (r_text != NULL) {
        *r_copy = strdup(r_text);
        if (*r_copy == NULL)
            abort();
        n_r = split_list(*r_copy, *r_items, max_items);
        if (strchr(r_text, ',') != NULL && n_r != (size_t)steps) {
            fprintf(stderr, "ulaudit calc %s: --r: a list needs one value per step (%ld), got %s%zu\n",
                    q->name, steps, n_r == max_items ? "more than " : "", n_r);
            return UL_EXIT_USAGE;
        }
    }
    pb->eps = eps;
    pb->r = *r_items;
    pb->n_r = n_r;
    pb->steps = (unsigned long)steps;
    pb->delta0 = delta0;
    pb->mode = mode;
    return 0;
}

static int run_contraction(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    /* flags: eps r steps delta0 mode */
    char *r_copy;
    const char **r_items;
    ul_contraction_problem pb;
    int rc = read_contraction(q, v[0], v[1], v[2], v[3], v[4], &r_copy, &r_items, &pb);
    if (rc == 0) {
        char err[256];
        ul_num_precision want = precision_of(c);
        ul_num_value delta;
        ul_num_value_init(&delta, 64);
        ul_num_report rep;
        bool floor = false;
        ul_status st = ul_contraction_delta_certified(&pb, &want, &delta, &floor, &rep, err,
                                                      sizeof err);
        if (st != UL_OK && st != UL_ECAP) {
            rc = input_error(q, st, err);
        } else {
            result r;
            result_begin(&r, q, v, c);
            char *lo, *hi;
            ul_num_value_format(&delta, c->digits, &lo, &hi);
            result_bounds(&r, lo, hi, &rep);
            json_object_object_add(r.json, "floor_reached", json_object_new_boolean(floor));
            free(lo);
            free(hi);
            rc = result_end(&r,
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

static int run_contraction_steps(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    /* flags: eps r delta delta0 mode max-steps */
    long max_steps;
    if (!ul_cli_read_count(v[5], &max_steps) || max_steps < 1) {
        fprintf(stderr, "ulaudit calc %s: --max-steps: must be a whole number from 1 to 999999999 (got '%s')\n",
                q->name, v[5]);
        return UL_EXIT_USAGE;
    }
    char *r_copy;
    const char **r_items;
    ul_contraction_problem pb;
    int rc = read_contraction(q, v[0], v[1], NULL, v[3], v[4], &r_copy, &r_items, &pb);
    if (rc == 0) {
        char err[256];
        unsigned long steps = 0;
        ul_num_report rep;
        ul_status st = ul_contraction_least_steps(&pb, v[2], (unsigned long)max_steps, &steps,
                                                  &rep, err, sizeof err);
        if (st != UL_OK) {
            rc = input_error(q, st, err);
        } else {
            result r;
            result_begin(&r, q, v, c);
            json_object_object_add(r.json, "value", json_object_new_int64((int64_t)steps));
            json_object_object_add(r.json, "precision_bits", json_object_new_int64(rep.bits_used));
            if (c->json) {
                puts(json_object_to_json_string_ext(r.json, JSON_C_TO_STRING_PRETTY |
                                                                JSON_C_TO_STRING_NOSLASHESCAPE));
            } else {
                printf("%s: the least T with delta_T <= delta\n  value   %lu\n"
                       "  certified: delta_T <= delta%s\n",
                       q->name, steps, steps > 0 ? " and delta_{T-1} > delta" : "");
            }
            json_object_put(r.json);
            rc = UL_EXIT_OK;
        }
    }
    free(r_copy);
    free(r_items);
    (void)c;
    return rc;
}

static int run_contraction_sigma(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    /* flags: eps diameter steps delta delta0 mode */
    char *r_copy;
    const char **r_items;
    ul_contraction_problem pb;
    int rc = read_contraction(q, v[0], NULL, v[2], v[4], v[5], &r_copy, &r_items, &pb);
    if (rc == 0) {
        char err[256];
        ul_num_precision want = precision_of(c);
        ul_num_report rep;
        mpfi_t sigma;
        mpfi_init2(sigma, 64);
        ul_status st = ul_contraction_sigma_min(&pb, v[1], v[3], &want, sigma, &rep, err,
                                                sizeof err);
        if (st != UL_OK && st != UL_ECAP)
            rc = input_error(q, st, err);
        else
            rc = report_inverse(q, v, c, sigma, &rep,
                                "the smallest constant sigma with delta_T <= delta",
                                "certified: delta_T at this sigma is <= delta", st);
        mpfi_clear(sigma);
    }
    free(r_copy);
    free(r_items);
    return rc;
}

/* ---- Rényi DP ------------------------------------------------------------------ */

/* Reports a certified value; extra_key/extra_value (may be NULL) add one
 * quantity-specific string field. */
static int report_value(const calc_quantity *q, const char **v, const ul_cli_common *c,
                        const ul_num_value *value, const ul_num_report *rep, const char *meaning,
                        const char *extra_key, const char *extra_value, ul_status st)
{
    result r;
    result_begin(&r, q, v, c);
    char *lo, *hi;
    ul_num_value_format(value, c->digits, &lo, &hi);
    result_bounds(&r, lo, hi, rep);
    free(lo);
    free(hi);
    char note[128] = "";
    if (extra_key != NULL) {
        add_string(r.json, extra_key, extra_value);
        snprintf(note, sizeof note, "  %-7s %s\n", extra_key, extra_value);
    }
    return result_end(&r, meaning, extra_key != NULL ? note : NULL, st);
}

static bool read_conversion(const calc_quantity *q, const char *text, ul_rdp_conversion *conv)
{
    char err[256];
    if (ul_renyi_parse_conversion(text, conv, err, sizeof err) == UL_OK)
        return true;
    fprintf(stderr, "ulaudit calc %s: --%s\n", q->name, err);
    return false;
}

static int run_rdp_to_dp(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    /* flags: alpha rdp delta conversion */
    ul_rdp_conversion conv;
    if (!read_conversion(q, v[3], &conv))
        return UL_EXIT_USAGE;
    char err[256];
    ul_num_precision want = precision_of(c);
    ul_num_value eps;
    ul_num_value_init(&eps, 64);
    ul_num_report rep;
    ul_status st = ul_renyi_rdp_to_dp_certified(v[0], v[1], v[2], conv, &want, &eps, &rep, err,
                                                sizeof err);
    int rc = st != UL_OK && st != UL_ECAP
                 ? input_error(q, st, err)
                 : report_value(q, v, c, &eps, &rep,
                                conv == UL_RDP_MIRONOV
                                    ? "eps = rdp + log(1/delta)/(alpha-1) (Mironov 2017 Prop. 3)"
                                    : "eps = rdp + log1p(-1/alpha) - (log delta + log alpha)/(alpha-1) "
                                      "(Balle et al. 2020 Thm 21)",
                                NULL, NULL, st);
    ul_num_value_clear(&eps);
    return rc;
}

static int run_gauss_rdp_eps(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    /* flags: r delta conversion */
    ul_rdp_conversion conv;
    if (!read_conversion(q, v[2], &conv))
        return UL_EXIT_USAGE;
    char err[256], alpha[UL_RENYI_ALPHA_TEXT_LEN] = "";
    ul_num_precision want = precision_of(c);
    ul_num_value eps;
    ul_num_value_init(&eps, 64);
    ul_num_report rep;
    ul_status st = ul_renyi_gauss_eps_certified(v[0], v[1], conv, &want, &eps, alpha, sizeof alpha,
                                                &rep, err, sizeof err);
    int rc = st != UL_OK && st != UL_ECAP
                 ? input_error(q, st, err)
                 : report_value(q, v, c, &eps, &rep,
                                "eps of the Gaussian mechanism through RDP alpha*r^2/2 at the "
                                "best alpha",
                                "alpha", alpha, st);
    ul_num_value_clear(&eps);
    return rc;
}

static int run_sgm_rdp(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    /* flags: q sigma alpha */
    char err[256];
    ul_num_precision want = precision_of(c);
    ul_num_value rdp;
    ul_num_value_init(&rdp, 64);
    ul_num_report rep;
    ul_status st = ul_renyi_sgm_rdp_certified(v[0], v[1], v[2], &want, &rdp, &rep, err, sizeof err);
    int rc = st != UL_OK && st != UL_ECAP
                 ? input_error(q, st, err)
                 : report_value(q, v, c, &rdp, &rep,
                                "RDP of the Poisson-subsampled Gaussian (Mironov, Talwar, Zhang "
                                "2019)",
                                NULL, NULL, st);
    ul_num_value_clear(&rdp);
    return rc;
}

/* ---- PLD composition --------------------------------------------------------------- */

static int run_pld_compose(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    /* flags: r steps eps q adjacency rel-width fft */
    ul_pld_options opt;
    ul_pld_options_default(&opt);
    long steps;
    if (!ul_cli_read_count(v[1], &steps) || steps < 1) {
        fprintf(stderr, "ulaudit calc %s: --steps: must be a whole number from 1 to 999999999 (got '%s')\n",
                q->name, v[1]);
        return UL_EXIT_USAGE;
    }
    if (strcmp(v[4], "both") == 0)
        opt.adjacency = UL_PLD_ADD_REMOVE;
    else if (strcmp(v[4], "remove") == 0)
        opt.adjacency = UL_PLD_REMOVE;
    else if (strcmp(v[4], "add") == 0)
        opt.adjacency = UL_PLD_ADD;
    else {
        fprintf(stderr, "ulaudit calc %s: --adjacency: must be both, add or remove (got '%s')\n",
                q->name, v[4]);
        return UL_EXIT_USAGE;
    }
    char *end;
    double width = strtod(v[5], &end); /* an accuracy request, not a certified input */
    if (!ul_num_is_decimal(v[5]) || *end != '\0' || !(width >= 1e-9 && width <= 1)) {
        fprintf(stderr, "ulaudit calc %s: --rel-width: must be a decimal from 1e-9 to 1 (got '%s')\n",
                q->name, v[5]);
        return UL_EXIT_USAGE;
    }
    opt.rel_width = width;
    if (strcmp(v[6], "auto") == 0)
        opt.fft = UL_PLD_FFT_AUTO;
    else if (strcmp(v[6], "double") == 0)
        opt.fft = UL_PLD_FFT_DOUBLE;
    else if (strcmp(v[6], "long") == 0)
        opt.fft = UL_PLD_FFT_LONG_DOUBLE;
    else {
        fprintf(stderr, "ulaudit calc %s: --fft: must be auto, double or long (got '%s')\n",
                q->name, v[6]);
        return UL_EXIT_USAGE;
    }

    char err[256] = "";
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    ul_pld_report rep;
    ul_status st = ul_pld_compose_subsampled(v[0], v[3], (unsigned long)steps, v[2], &opt, lo, hi,
                                             &rep, err, sizeof err);
    int rc;
    if (st != UL_OK && st != UL_ECAP) {
        rc = input_error(q, st, err);
    } else {
        result r;
        result_begin(&r, q, v, c);
        int digits = c->digits > 17 ? 17 : c->digits;
        char *los = ul_num_format(lo, digits, MPFR_RNDD), *his = ul_num_format(hi, digits, MPFR_RNDU);
        ul_num_report nrep = {rep.fft_bits, st == UL_ECAP};
        result_bounds(&r, los, his, &nrep);
        add_string(r.json, "safe", his);
        json_object *b = json_object_new_object();
        json_object_object_add(b, "grid_step", json_object_new_double(rep.grid_step));
        json_object_object_add(b, "fft_length", json_object_new_int64((int64_t)rep.fft_length));
        json_object_object_add(b, "fft_bits", json_object_new_int(rep.fft_bits));
        json_object_object_add(b, "discretisation_gap", json_object_new_double(rep.discretisation_gap));
        json_object_object_add(b, "tail_mass", json_object_new_double(rep.tail_mass));
        json_object_object_add(b, "rounding", json_object_new_double(rep.rounding));
        json_object_object_add(b, "mass_slack", json_object_new_double(rep.mass_slack));
        json_object_object_add(r.json, "budget", b);
        char note[512];
        snprintf(note, sizeof note,
                 "  safe    %s  (a proven upper bound on delta)\n"
                 "  budget  grid step %.3g, FFT length %lu (%d-bit), discretisation gap %.3g,\n"
                 "          tail mass %.3g, FFT rounding bound %.3g\n%s",
                 his, rep.grid_step, rep.fft_length, rep.fft_bits, rep.discretisation_gap,
                 rep.tail_mass, rep.rounding, st == UL_ECAP ? "  note    " : "");
        free(los);
        free(his);
        if (st == UL_ECAP) {
            size_t len = strlen(note);
            snprintf(note + len, sizeof note - len, "%s\n", err);
        }
        rc = result_end_pld(&r, note, st);
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return rc;
}

static const calc_quantity QUANTITIES[] = {
    {"theta",
     "E_{e^E}(N(0,1) || N(R,1)) = theta_{e^E}(R), the Gaussian hockey-stick divergence",
     "ulaudit calc theta --eps 1 --r 0.5",
     {{"eps", "E", "privacy parameter, any real (negative uses reciprocity), |E| <= 1e9", NULL},
      {"r", "R", "distance of the means over sigma, 0 <= R <= 1e9", NULL}},
     2,
     run_theta},
    {"gauss-sigma",
     "the smallest sigma with theta_{e^E}(S/sigma) <= D",
     "ulaudit calc gauss-sigma --eps 1 --delta 1e-5 --sensitivity 2",
     {{"eps", "E", "privacy parameter, 0 <= E <= 1e9", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      {"sensitivity", "S", "l2 sensitivity, 0 < S <= 1e100 (default 1)", "1"}},
     3,
     run_gauss_sigma},
    {"gauss-eps",
     "the smallest eps >= 0 with theta_{e^eps}(R) <= D",
     "ulaudit calc gauss-eps --r 0.5 --delta 1e-5",
     {{"r", "R", "distance of the means over sigma, 0 <= R <= 1e9", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL}},
     2,
     run_gauss_eps},
    {"contraction",
     "delta after T clipping + noise steps: delta_0 * prod theta_{e^E}(R_t), or the adaptive "
     "recursion",
     "ulaudit calc contraction --eps 1 --r 2 --steps 10 --delta0 0.1 --mode adaptive",
     {{"eps", "E", "target eps, 0 <= E <= 1e9", NULL},
      {"r", "R", "diameter/sigma per step: one value, or a comma list of T values", NULL},
      {"steps", "T", "number of noisy steps, 0..100000000", NULL},
      {"delta0", "D0", "starting delta, 0 < D0 <= 1 (default 1)", "1"},
      {"mode", "M", "product or adaptive (default product)", "product"}},
     5,
     run_contraction},
    {"contraction-steps",
     "the least T with delta_T <= D (constant R)",
     "ulaudit calc contraction-steps --eps 1 --r 1.5 --delta 1e-6 --mode adaptive",
     {{"eps", "E", "target eps, 0 <= E <= 1e9", NULL},
      {"r", "R", "diameter/sigma, one value", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      {"delta0", "D0", "starting delta, 0 < D0 <= 1 (default 1)", "1"},
      {"mode", "M", "product or adaptive (default product)", "product"},
      {"max-steps", "N", "give up after N steps (default 100000000)", "100000000"}},
     6,
     run_contraction_steps},
    {"contraction-sigma",
     "the smallest constant sigma with delta_T <= D after T steps of diameter DIAM",
     "ulaudit calc contraction-sigma --eps 1 --diameter 2 --steps 8 --delta 1e-5",
     {{"eps", "E", "target eps, 0 <= E <= 1e9", NULL},
      {"diameter", "DIAM", "diameter of the pre-noise set (2*C_2 for model clipping)", NULL},
      {"steps", "T", "number of noisy steps, 1..100000000", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      {"delta0", "D0", "starting delta, 0 < D0 <= 1 (default 1)", "1"},
      {"mode", "M", "product or adaptive (default product)", "product"}},
     6,
     run_contraction_sigma},
    {"rdp-to-dp",
     "eps from one RDP point (alpha, rdp) at delta",
     "ulaudit calc rdp-to-dp --alpha 32 --rdp 0.5 --delta 1e-5 --conversion bbghs",
     {{"alpha", "A", "Renyi order, 1 < A <= 1e12", NULL},
      {"rdp", "V", "Renyi divergence at A, 0 <= V <= 1e12", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      {"conversion", "C", "mironov or bbghs (default bbghs)", "bbghs"}},
     4,
     run_rdp_to_dp},
    {"gauss-rdp-eps",
     "eps of the Gaussian mechanism (r = sensitivity/sigma) through RDP at the best alpha",
     "ulaudit calc gauss-rdp-eps --r 0.5 --delta 1e-5",
     {{"r", "R", "sensitivity/sigma, 0 < R <= 1e9", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      {"conversion", "C", "mironov or bbghs (default bbghs)", "bbghs"}},
     3,
     run_gauss_rdp_eps},
    {"sgm-rdp",
     "RDP of the Poisson-subsampled Gaussian at order A (integer or fractional)",
     "ulaudit calc sgm-rdp --q 0.01 --sigma 1.1 --alpha 8",
     {{"q", "Q", "sampling rate, 0 <= Q <= 1", NULL},
      {"sigma", "S", "noise multiplier sigma/sensitivity, 1e-3 <= S <= 1e6", NULL},
      {"alpha", "A", "Renyi order, 1 < A <= 10000", NULL}},
     3,
     run_sgm_rdp},
    {"pld-compose",
     "delta(eps) of the T-fold (subsampled) Gaussian by FFT privacy-loss composition, a proven "
     "bracket",
     "ulaudit calc pld-compose --r 0.1 --steps 1000 --eps 1",
     {{"r", "R", "sensitivity/sigma, 0 < R <= 1000", NULL},
      {"steps", "T", "number of compositions, 1..999999999", NULL},
      {"eps", "E", "|E| <= 1000", NULL},
      {"q", "Q", "Poisson sampling rate, 0 < Q <= 1 (default 1: no subsampling)", "1"},
      {"adjacency", "A", "both, add or remove (default both: the max)", "both"},
      {"rel-width", "W", "target relative width of the bracket (default 1e-3)", "1e-3"},
      {"fft", "F", "auto, double or long (default auto)", "auto"}},
     7,
     run_pld_compose},
};

#define N_QUANTITIES (sizeof QUANTITIES / sizeof QUANTITIES[0])

/* ---- help and dispatch ------------------------------------------------------ */

static void print_quantity_help(FILE *out, const calc_quantity *q)
{
    fprintf(out, "  %s", q->name);
    for (int i = 0; i < q->nflags; i++)
        fprintf(out, q->flags[i].default_value ? " [--%s %s]" : " --%s %s", q->flags[i].name,
                q->flags[i].meta);
    fprintf(out, "\n      %s\n", q->summary);
    for (int i = 0; i < q->nflags; i++)
        fprintf(out, "      --%-12s %s\n", q->flags[i].name, q->flags[i].help);
    fprintf(out, "      example: %s\n\n", q->example);
}

void ul_cli_calc_help(FILE *out)
{
    fprintf(out,
            "usage: ulaudit calc QUANTITY [flags] [--digits N] [--max-bits B] [--json]\n\n"
            "Certified calculator: every value is an enclosure [lo, hi] that contains the\n"
            "true value (lo rounded down, hi rounded up).  Numbers are read exactly from\n"
            "their decimal text.\n\n"
            "Quantities:\n");
    for (size_t i = 0; i < N_QUANTITIES; i++)
        print_quantity_help(out, &QUANTITIES[i]);
    fprintf(out,
            "Common flags:\n"
            "  --digits N     correct significant digits, 1..5000 (default 17)\n"
            "  --max-bits B   working-precision cap in bits, 64..4194304 (default 65536)\n"
            "  --json         one JSON object on stdout: quantity, inputs, lo, hi, digits,\n"
            "                 precision_bits, cap_hit, and quantity-specific fields\n\n"
            "Exit codes: 0 success, 2 usage or input error, 3 precision cap reached\n"
            "(the enclosure printed is sound but has fewer digits than asked).\n");
}

int ul_cli_calc(int argc, char **argv)
{
    if (argc < 1 || strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
        ul_cli_calc_help(argc < 1 ? stderr : stdout);
        return argc < 1 ? UL_EXIT_USAGE : UL_EXIT_OK;
    }
    const calc_quantity *q = NULL;
    for (size_t i = 0; i < N_QUANTITIES; i++)
        if (strcmp(argv[0], QUANTITIES[i].name) == 0)
            q = &QUANTITIES[i];
    if (q == NULL) {
        fprintf(stderr, "ulaudit calc: unknown quantity '%s' (known:", argv[0]);
        for (size_t i = 0; i < N_QUANTITIES; i++)
            fprintf(stderr, " %s", QUANTITIES[i].name);
        fprintf(stderr, "; see ulaudit calc --help)\n");
        return UL_EXIT_USAGE;
    }

    const char *values[UL_CLI_MAX_FLAGS];
    ul_cli_common common;
    char err[256];
    if (ul_cli_parse(argc - 1, argv + 1, q->flags, q->nflags, values, &common, err, sizeof err)) {
        fprintf(stderr, "ulaudit calc %s: %s\n", q->name, err);
        return UL_EXIT_USAGE;
    }
    if (common.help) {
        printf("usage: ulaudit calc %s [flags] [--digits N] [--max-bits B] [--json]\n\n", q->name);
        print_quantity_help(stdout, q);
        return UL_EXIT_OK;
    }
    return q->run(q, values, &common);
}
