/* src/cli/calc_accounting.c — the accounting quantities: contraction,
 * contraction-steps, contraction-sigma, rdp-to-dp, gauss-rdp-eps, sgm-rdp,
 * pld-compose. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/contraction.h"
#include "bounds/pld.h"
#include "bounds/renyi.h"
#include "cli/calc_internal.h"

/* ---- contraction ------------------------------------------------------------- */

/* Reads --steps, --mode and --r into a problem; 0 or an exit code.  The list
 * storage belongs to the caller. */
static int read_contraction(const calc_quantity *q, const char *eps, const char *r_text,
                            const char *steps_text, const char *delta0, const char *mode_text,
                            char **r_copy, const char ***r_items, ul_contraction_problem *pb)
{
    *r_copy = NULL; /* the caller frees both on every path */
    *r_items = NULL;
    long steps = 0;
    if (steps_text != NULL && (!ul_cli_read_count(steps_text, &steps) ||
                               (unsigned long)steps > UL_CONTRACTION_MAX_STEPS)) {
        fprintf(stderr,
                "ulaudit calc %s: --steps: must be a whole number from 0 to %lu (got '%s')\n",
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
        n_r = calc_split_list(*r_copy, *r_items, max_items);
        if (strchr(r_text, ',') != NULL && n_r != (size_t)steps) {
            fprintf(stderr,
                    "ulaudit calc %s: --r: a list needs one value per step (%ld), got %s%zu\n",
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

int calc_run_contraction(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    /* flags: eps r steps delta0 mode */
    char *r_copy;
    const char **r_items;
    ul_contraction_problem pb;
    int rc = read_contraction(q, v[0], v[1], v[2], v[3], v[4], &r_copy, &r_items, &pb);
    if (rc == 0) {
        char err[256];
        ul_num_precision want = calc_precision_of(c);
        ul_num_value delta;
        ul_num_value_init(&delta, 64);
        ul_num_report rep;
        bool floor = false;
        ul_status st =
            ul_contraction_delta_certified(&pb, &want, &delta, &floor, &rep, err, sizeof err);
        if (st != UL_OK && st != UL_ECAP) {
            rc = calc_input_error(q, st, err);
        } else {
            calc_result r;
            calc_result_begin(&r, q, v, c);
            char *lo, *hi;
            ul_num_value_format(&delta, c->digits, &lo, &hi);
            calc_result_bounds(&r, lo, hi, &rep);
            json_object_object_add(r.json, "floor_reached", json_object_new_boolean(floor));
            free(lo);
            free(hi);
            rc = calc_result_end(
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

int calc_run_contraction_steps(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    /* flags: eps r delta delta0 mode max-steps */
    long max_steps;
    if (!ul_cli_read_count(v[5], &max_steps) || max_steps < 1) {
        fprintf(
            stderr,
            "ulaudit calc %s: --max-steps: must be a whole number from 1 to 999999999 (got '%s')\n",
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
        ul_status st = ul_contraction_least_steps(&pb, v[2], (unsigned long)max_steps, &steps, &rep,
                                                  err, sizeof err);
        if (st != UL_OK) {
            rc = calc_input_error(q, st, err);
        } else {
            calc_result r;
            calc_result_begin(&r, q, v, c);
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

int calc_run_contraction_sigma(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    /* flags: eps diameter steps delta delta0 mode */
    char *r_copy;
    const char **r_items;
    ul_contraction_problem pb;
    int rc = read_contraction(q, v[0], NULL, v[2], v[4], v[5], &r_copy, &r_items, &pb);
    if (rc == 0) {
        char err[256];
        ul_num_precision want = calc_precision_of(c);
        ul_num_report rep;
        mpfi_t sigma;
        mpfi_init2(sigma, 64);
        ul_status st =
            ul_contraction_sigma_min(&pb, v[1], v[3], &want, sigma, &rep, err, sizeof err);
        if (st != UL_OK && st != UL_ECAP)
            rc = calc_input_error(q, st, err);
        else
            rc = calc_report_inverse(q, v, c, sigma, &rep,
                                     "the smallest constant sigma with delta_T <= delta",
                                     "certified: delta_T at this sigma is <= delta", st);
        mpfi_clear(sigma);
    }
    free(r_copy);
    free(r_items);
    return rc;
}

/* ---- Rényi DP ------------------------------------------------------------------ */

static bool read_conversion(const calc_quantity *q, const char *text, ul_rdp_conversion *conv)
{
    char err[256];
    if (ul_renyi_parse_conversion(text, conv, err, sizeof err) == UL_OK)
        return true;
    fprintf(stderr, "ulaudit calc %s: --%s\n", q->name, err);
    return false;
}

int calc_run_rdp_to_dp(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    /* flags: alpha rdp delta conversion */
    ul_rdp_conversion conv;
    if (!read_conversion(q, v[3], &conv))
        return UL_EXIT_USAGE;
    char err[256];
    ul_num_precision want = calc_precision_of(c);
    ul_num_value eps;
    ul_num_value_init(&eps, 64);
    ul_num_report rep;
    ul_status st =
        ul_renyi_rdp_to_dp_certified(v[0], v[1], v[2], conv, &want, &eps, &rep, err, sizeof err);
    int rc = st != UL_OK && st != UL_ECAP
                 ? calc_input_error(q, st, err)
                 : calc_report_value(
                       q, v, c, &eps, &rep,
                       conv == UL_RDP_MIRONOV
                           ? "eps = rdp + log(1/delta)/(alpha-1) (Mironov 2017 Prop. 3)"
                           : "eps = rdp + log1p(-1/alpha) - (log delta + log alpha)/(alpha-1) "
                             "(Balle et al. 2020 Thm 21)",
                       NULL, NULL, st);
    ul_num_value_clear(&eps);
    return rc;
}

int calc_run_gauss_rdp_eps(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    /* flags: r delta conversion */
    ul_rdp_conversion conv;
    if (!read_conversion(q, v[2], &conv))
        return UL_EXIT_USAGE;
    char err[256], alpha[UL_RENYI_ALPHA_TEXT_LEN] = "";
    ul_num_precision want = calc_precision_of(c);
    ul_num_value eps;
    ul_num_value_init(&eps, 64);
    ul_num_report rep;
    ul_status st = ul_renyi_gauss_eps_certified(v[0], v[1], conv, &want, &eps, alpha, sizeof alpha,
                                                &rep, err, sizeof err);
    int rc = st != UL_OK && st != UL_ECAP
                 ? calc_input_error(q, st, err)
                 : calc_report_value(q, v, c, &eps, &rep,
                                     "eps of the Gaussian mechanism through RDP alpha*r^2/2 at the "
                                     "best alpha",
                                     "alpha", alpha, st);
    ul_num_value_clear(&eps);
    return rc;
}

int calc_run_sgm_rdp(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    /* flags: q sigma alpha */
    char err[256];
    ul_num_precision want = calc_precision_of(c);
    ul_num_value rdp;
    ul_num_value_init(&rdp, 64);
    ul_num_report rep;
    ul_status st = ul_renyi_sgm_rdp_certified(v[0], v[1], v[2], &want, &rdp, &rep, err, sizeof err);
    int rc =
        st != UL_OK && st != UL_ECAP
            ? calc_input_error(q, st, err)
            : calc_report_value(q, v, c, &rdp, &rep,
                                "RDP of the Poisson-subsampled Gaussian (Mironov, Talwar, Zhang "
                                "2019)",
                                NULL, NULL, st);
    ul_num_value_clear(&rdp);
    return rc;
}

/* ---- PLD composition --------------------------------------------------------------- */

int calc_run_pld_compose(const calc_quantity *q, const char **v, const ul_cli_common *c)
{
    /* flags: r steps eps q adjacency rel-width fft */
    ul_pld_options opt;
    ul_pld_options_default(&opt);
    long steps;
    if (!ul_cli_read_count(v[1], &steps) || steps < 1) {
        fprintf(stderr,
                "ulaudit calc %s: --steps: must be a whole number from 1 to 999999999 (got '%s')\n",
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
        fprintf(stderr,
                "ulaudit calc %s: --rel-width: must be a decimal from 1e-9 to 1 (got '%s')\n",
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
        rc = calc_input_error(q, st, err);
    } else {
        calc_result r;
        calc_result_begin(&r, q, v, c);
        int digits = c->digits > 17 ? 17 : c->digits;
        char *los = ul_num_format(lo, digits, MPFR_RNDD),
             *his = ul_num_format(hi, digits, MPFR_RNDU);
        ul_num_report nrep = {rep.fft_bits, st == UL_ECAP};
        calc_result_bounds(&r, los, his, &nrep);
        calc_add_string(r.json, "safe", his);
        json_object *b = json_object_new_object();
        json_object_object_add(b, "grid_step", json_object_new_double(rep.grid_step));
        json_object_object_add(b, "fft_length", json_object_new_int64((int64_t)rep.fft_length));
        json_object_object_add(b, "fft_bits", json_object_new_int(rep.fft_bits));
        json_object_object_add(b, "discretisation_gap",
                               json_object_new_double(rep.discretisation_gap));
        json_object_object_add(b, "tail_mass", json_object_new_double(rep.tail_mass));
        json_object_object_add(b, "rounding", json_object_new_double(rep.rounding));
        json_object_object_add(b, "mass_slack", json_object_new_double(rep.mass_slack));
        json_object_object_add(r.json, "budget", b);
        char *note = NULL;
        size_t note_len = 0;
        FILE *nf = open_memstream(&note, &note_len);
        if (nf == NULL)
            abort();
        fprintf(nf,
                "  safe    %s  (a proven upper bound on delta)\n"
                "  budget  grid step %.3g, FFT length %lu (%d-bit), discretisation gap %.3g,\n"
                "          tail mass %.3g, FFT rounding bound %.3g\n",
                his, rep.grid_step, rep.fft_length, rep.fft_bits, rep.discretisation_gap,
                rep.tail_mass, rep.rounding);
        if (st == UL_ECAP)
            fprintf(nf, "  note    %s\n", err);
        fclose(nf);
        free(los);
        free(his);
        rc = calc_result_end_pld(&r, note, st);
        free(note);
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return rc;
}
