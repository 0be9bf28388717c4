/* src/calc/contraction.c — the contraction quantities: contraction,
 * contraction-steps and contraction-sigma (bounds/contraction.h): delta
 * after T steps of clipping and Gaussian noise, its least T and its
 * smallest sigma (Asoodeh, Diaz & Calmon 2020, Thm 2; Koloskova et al.
 * 2025, Thm 4.2; docs/neural-unlearning.md, "Model clipping"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/contraction.h"
#include "calc/internal.h"

/* ---- contraction ------------------------------------------------------------- */

/* Reads --eps, --steps, --delta0, --mode and --r (the last two when the
 * row has them) into a problem; 0 or an exit code.  The list storage
 * belongs to the caller. */
static int read_contraction(const ul_calc_quantity *q, const char **v, ul_calc_result *res,
                            char **r_copy, const char ***r_items, ul_contraction_problem *pb)
{
    const char *r_text = ul_calc_flag_or(q, v, "r", NULL);
    const char *steps_text = ul_calc_flag_or(q, v, "steps", NULL);
    const char *mode_text = ul_calc_flag_text(q, v, "mode");
    *r_copy = NULL; /* the caller frees both on every path */
    *r_items = NULL;
    long steps = 0;
    if (steps_text != NULL && (!ul_calc_read_count(steps_text, UL_CALC_COUNT_MAX, &steps) ||
                               (unsigned long)steps > UL_CONTRACTION_MAX_STEPS)) {
        ul_calc_usage(res, "--steps: must be a whole number from 0 to %lu (got '%s')",
                      UL_CONTRACTION_MAX_STEPS, steps_text);
        return UL_CALC_EXIT_USAGE;
    }
    ul_contraction_mode mode;
    if (ul_calc_check_flag(q, v, "mode", res) != 0)
        return UL_CALC_EXIT_USAGE;
    if (!ul_contraction_mode_parse(mode_text, &mode))
        abort(); /* the domain (calc/domain.c) and the parser disagree */
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
            ul_calc_usage(res,
                          "--r: one constant value, not a list (got %zu "
                          "values)",
                          given);
            return UL_CALC_EXIT_USAGE;
        }
        if (given > 1 && given != (size_t)steps) {
            ul_calc_usage(res, "--r: a list needs one value per step (%ld), got %zu", steps, given);
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
    if (rc == 0)
        rc = ul_calc_check_domains(q, v, res);
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
                    ? "delta after T steps, adaptive recursion (Asoodeh et al. 2020 Thm 2)"
                    : "delta_0 * prod_t theta_{e^eps}(r_t) (Koloskova et al. 2025 Thm 4.2)",
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
    if (!ul_calc_read_count(ul_calc_flag_text(q, v, "max-steps"), UL_CALC_COUNT_MAX, &max_steps) ||
        max_steps < 1) {
        ul_calc_usage(res, "--max-steps: must be a whole number from 1 to 999999999 (got '%s')",
                      ul_calc_flag_text(q, v, "max-steps"));
        return UL_CALC_EXIT_USAGE;
    }
    char *r_copy;
    const char **r_items;
    ul_contraction_problem pb;
    int rc = read_contraction(q, v, res, &r_copy, &r_items, &pb);
    if (rc == 0)
        rc = ul_calc_check_domains(q, v, res);
    if (rc == 0) {
        char err[256];
        unsigned long steps = 0;
        ul_num_report rep;
        ul_status st =
            ul_contraction_least_steps(&pb, ul_calc_flag_text(q, v, "delta"),
                                       (unsigned long)max_steps, &steps, &rep, err, sizeof err);
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
            rc = ul_calc_end_form(&r, UL_CALC_TEXT_PLAIN, "the least T with delta_T <= delta", note,
                                  UL_OK, "");
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
    if (rc == 0)
        rc = ul_calc_check_domains(q, v, res);
    if (rc == 0) {
        char err[256];
        ul_num_precision want = ul_calc_precision_of(c);
        ul_num_report rep;
        mpfi_t sigma;
        mpfi_init2(sigma, 64);
        ul_status st = ul_contraction_sigma_min(&pb, ul_calc_flag_text(q, v, "diameter"),
                                                ul_calc_flag_text(q, v, "delta"), &want, sigma,
                                                &rep, err, sizeof err);
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
