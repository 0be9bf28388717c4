/* src/calc/koloskova.c — the calibrations of Koloskova et al. 2025:
 * model-clipping-t, model-clipping-sigma (Thm 4.2) and
 * output-perturbation-sigma (the baseline; bounds/koloskova.h;
 * docs/neural-unlearning.md, "Model clipping", "Output perturbation"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/koloskova_mc.h"
#include "bounds/koloskova_op.h"
#include "calc/theorem.h"

/* ---- model clipping (Koloskova et al.) -------------------------------------------- */

/* The flags shared by model-clipping-t and model-clipping-sigma: eps c2
 * variant c1 lr c0 sigma0 init dim mode. */
static int read_model_clipping(const ul_calc_quantity *q, const char **v, ul_calc_result *res,
                               ul_kol_mc_problem *pb)
{
    memset(pb, 0, sizeof *pb);
    pb->eps = ul_calc_flag_text(q, v, "eps");
    pb->c2 = ul_calc_flag_text(q, v, "c2");
    const char *variant = ul_calc_flag_text(q, v, "variant");
    if (strcmp(variant, "cc1") == 0)
        pb->variant = UL_KOL_CC1;
    else if (strcmp(variant, "cc2") == 0)
        pb->variant = UL_KOL_CC2;
    else
        return ul_calc_flag_error(res, "variant", "must be cc1 or cc2 (got '%s')", variant);
    static const char *const cc2_only[] = {"c1", "lr"};
    for (int i = 0; i < 2; i++) {
        const char *text = ul_calc_flag_text(q, v, cc2_only[i]);
        if (pb->variant == UL_KOL_CC1 && !ul_calc_is_none(text))
            return ul_calc_flag_error(res, cc2_only[i], "only used with --variant cc2");
        if (pb->variant == UL_KOL_CC2 && ul_calc_is_none(text))
            return ul_calc_flag_error(res, cc2_only[i], "missing (required with --variant cc2)");
    }
    pb->c1 = ul_calc_opt_text(ul_calc_flag_text(q, v, "c1"));
    pb->lr = ul_calc_opt_text(ul_calc_flag_text(q, v, "lr"));

    /* initial noise: --sigma0 (none: δ0 = 1), its clip --c0 and shape */
    pb->sigma0 = ul_calc_opt_text(ul_calc_flag_text(q, v, "sigma0"));
    pb->c0 = ul_calc_opt_text(ul_calc_flag_text(q, v, "c0"));
    if (pb->sigma0 == NULL && pb->c0 != NULL)
        return ul_calc_flag_error(res, "c0", "only used with --sigma0 (the initial noise)");
    int cmp = 0;
    if (pb->sigma0 != NULL && pb->c0 == NULL && ul_num_is_decimal(pb->sigma0) &&
        ul_num_decimal_compare(pb->sigma0, "0", &cmp) && cmp > 0)
        return ul_calc_flag_error(res, "c0", "missing (required when --sigma0 > 0)");
    if (strcmp(ul_calc_flag_text(q, v, "init"), "ball") == 0)
        pb->init = UL_KOL_INIT_BALL;
    else if (strcmp(ul_calc_flag_text(q, v, "init"), "box") == 0)
        pb->init = UL_KOL_INIT_BOX;
    else
        return ul_calc_flag_error(res, "init", "must be ball or box (got '%s')",
                                  ul_calc_flag_text(q, v, "init"));
    if (pb->init == UL_KOL_INIT_BOX && pb->sigma0 == NULL)
        return ul_calc_flag_error(res, "init", "only used with --sigma0 (the initial noise)");
    if (!ul_calc_is_none(ul_calc_flag_text(q, v, "dim"))) {
        long dim;
        if (pb->init != UL_KOL_INIT_BOX)
            return ul_calc_flag_error(res, "dim", "only used with --init box");
        if (!ul_calc_read_count(ul_calc_flag_text(q, v, "dim"), UL_CALC_COUNT_MAX, &dim) || dim < 1)
            return ul_calc_flag_error(res, "dim",
                                      "must be a whole number from 1 to 999999999 (got '%s')",
                                      ul_calc_flag_text(q, v, "dim"));
        pb->dim = (unsigned long)dim;
    } else if (pb->init == UL_KOL_INIT_BOX) {
        return ul_calc_flag_error(res, "dim", "missing (required with --init box)");
    }
    if (!ul_contraction_mode_parse(ul_calc_flag_text(q, v, "mode"), &pb->mode))
        return ul_calc_flag_error(res, "mode", "must be product or adaptive (got '%s')",
                                  ul_calc_flag_text(q, v, "mode"));
    return 0;
}

/* Adds the exact pre-noise diameter D (2*C2, or 2*(C2 + lr*C1) for cc2). */
static void add_diameter(ul_calc_build *r, FILE *note, const ul_kol_mc_problem *pb)
{
    char err[256], *d = NULL;
    if (ul_kol_mc_diameter(pb, NULL, &d, err, sizeof err) != UL_OK || d == NULL)
        return; /* already checked by the calibration that succeeded */
    ul_calc_add_string(r->json, "diameter", d);
    fprintf(note, "  diameter of the pre-noise set D = %s (r = D/sigma per step)\n", d);
    free(d);
}

static const char *mc_accounting(const ul_kol_mc_problem *pb)
{
    return pb->mode == UL_CONTRACTION_ADAPTIVE
               ? "adaptive recursion, Asoodeh et al. 2020 Thm 2"
               : "delta_0 * prod theta_{e^eps}(D/sigma), Koloskova et al. 2025 Thm 4.2";
}

UL_CALC_QUANTITY_FN(ul_calc_model_clipping_t)
{
    ul_kol_mc_problem pb;
    int rc = read_model_clipping(q, v, res, &pb);
    if (rc != 0)
        return rc;
    long max_steps;
    if (!ul_calc_read_count(ul_calc_flag_text(q, v, "max-steps"), UL_CALC_COUNT_MAX, &max_steps) ||
        max_steps < 1)
        return ul_calc_flag_error(res, "max-steps",
                                  "must be a whole number from 1 to 999999999 (got '%s')",
                                  ul_calc_flag_text(q, v, "max-steps"));
    if (strchr(ul_calc_flag_text(q, v, "sigma"), ',') != NULL)
        return ul_calc_flag_error(res, "sigma",
                                  "one constant value (the least T is for a constant sigma)");
    const char *sigma[1] = {ul_calc_flag_text(q, v, "sigma")};
    pb.sigma = sigma;
    pb.n_sigma = 1;

    char err[256] = "";
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report rep = {0, false};
    unsigned long steps = 0;
    ul_status st =
        ul_kol_mc_least_steps(&pb, ul_calc_flag_text(q, v, "delta"), (unsigned long)max_steps, &pre,
                              &steps, &rep, err, sizeof err);
    if (st != UL_OK && st != UL_ECAP)
        return ul_calc_theorem_error(res, st, err,
                                     st == UL_ENOROOT ? " (raise --max-steps)" : NULL);

    ul_calc_build r;
    ul_calc_begin(&r, q, v, c, res);
    json_object_object_add(r.json, "value", json_object_new_uint64((uint64_t)steps));
    json_object_object_add(r.json, "precision_bits", json_object_new_int64(rep.bits_used));
    json_object_object_add(r.json, "cap_hit", json_object_new_boolean(st == UL_ECAP));
    ul_calc_note n;
    ul_calc_note_open(&n);
    add_diameter(&r, n.f, &pb);
    if (st == UL_ECAP)
        fprintf(n.f, "  certified: delta_T <= delta; not decided whether T is the least\n");
    else if (steps > 0)
        fprintf(n.f, "  certified: delta_T <= delta and delta_{T-1} > delta\n");
    else
        fprintf(n.f, "  certified: delta_0 <= delta already\n");
    ul_calc_report_preconditions(r.json, n.f, &pre, NULL);
    char meaning[256];
    snprintf(meaning, sizeof meaning, "the least T with delta_T <= delta (%s)", mc_accounting(&pb));
    rc = ul_calc_end_integer(&r, meaning, steps, ul_calc_note_close(&n), st,
                             "the T printed suffices but may not be the least");
    ul_calc_note_free(&n);
    return rc;
}

UL_CALC_QUANTITY_FN(ul_calc_model_clipping_sigma)
{
    ul_kol_mc_problem pb;
    int rc = read_model_clipping(q, v, res, &pb);
    if (rc != 0)
        return rc;
    long steps;
    if (!ul_calc_read_count(ul_calc_flag_text(q, v, "steps"), UL_CALC_COUNT_MAX, &steps) ||
        steps < 1 || (unsigned long)steps > UL_CONTRACTION_MAX_STEPS)
        return ul_calc_flag_error(res, "steps", "must be a whole number from 1 to %lu (got '%s')",
                                  UL_CONTRACTION_MAX_STEPS, ul_calc_flag_text(q, v, "steps"));
    pb.steps = (unsigned long)steps;

    char err[256] = "";
    ul_num_precision want = ul_calc_precision_of(c);
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report rep = {0, false};
    mpfi_t sigma;
    mpfi_init2(sigma, 64);
    ul_status st = ul_kol_mc_sigma_min(&pb, ul_calc_flag_text(q, v, "delta"), &want, &pre, sigma,
                                       &rep, err, sizeof err);
    if (st != UL_OK && st != UL_ECAP) {
        rc = ul_calc_theorem_error(res, st, err, NULL);
    } else {
        ul_calc_build r;
        ul_calc_begin(&r, q, v, c, res);
        ul_calc_note n;
        ul_calc_note_open(&n);
        ul_calc_add_inverse(&r, n.f, sigma, &rep, "certified: delta_T at this sigma is <= delta",
                            "delta_0 <= delta already");
        add_diameter(&r, n.f, &pb);
        ul_calc_report_preconditions(r.json, n.f, &pre, NULL);
        char meaning[256];
        snprintf(meaning, sizeof meaning, "the smallest constant sigma with delta_T <= delta (%s)",
                 mc_accounting(&pb));
        rc = ul_calc_end(&r, meaning, ul_calc_note_close(&n), st);
        ul_calc_note_free(&n);
    }
    mpfi_clear(sigma);
    return rc;
}

/* ---- output perturbation ------------------------------------------------------------ */

UL_CALC_QUANTITY_FN(ul_calc_output_perturbation_sigma)
{
    char err[256] = "";
    ul_num_precision want = ul_calc_precision_of(c);
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report rep = {0, false};
    ul_num_value classic;
    ul_num_value_init(&classic, 64);
    ul_pre_state delivers = UL_PRE_UNDECIDED;
    mpfi_t exact;
    mpfi_init2(exact, 64);
    ul_status st =
        ul_kol_op_sigma_certified(ul_calc_flag_text(q, v, "c0"), ul_calc_flag_text(q, v, "eps"),
                                  ul_calc_flag_text(q, v, "delta"), &want, &pre, &classic,
                                  &delivers, exact, &rep, err, sizeof err);
    int rc;
    if (st != UL_OK && st != UL_ECAP) {
        rc = ul_calc_theorem_error(res, st, err, NULL);
    } else {
        ul_calc_build r;
        ul_calc_begin(&r, q, v, c, res);
        ul_calc_note n;
        ul_calc_note_open(&n);
        ul_calc_add_inverse(&r, n.f, exact, &rep,
                            "certified: theta_{e^eps}(2*C0/sigma) <= delta at this sigma",
                            "every sigma reaches delta");
        char *lo, *hi;
        ul_num_value_format(&classic, c->digits, &lo, &hi);
        json_object *cl = json_object_new_object();
        ul_calc_add_string(cl, "lo", lo);
        ul_calc_add_string(cl, "hi", hi);
        json_object_object_add(r.json, "classic", cl);
        json_object_object_add(r.json, "classic_delivers",
                               delivers == UL_PRE_UNDECIDED
                                   ? NULL
                                   : json_object_new_boolean(delivers == UL_PRE_HOLDS));
        fprintf(n.f, "  classic lo %s  (2*C0*sqrt(2*log(1.25/delta))/eps)\n", lo);
        fprintf(n.f, "          hi %s\n", hi);
        fprintf(n.f, "          %s\n",
                delivers == UL_PRE_HOLDS ? "the classic calibration really gives (eps, delta) here"
                : delivers == UL_PRE_FAILS
                    ? "the classic calibration does NOT give (eps, delta) here: theta at the "
                      "classic sigma exceeds delta (use safe)"
                    : "could not decide whether the classic calibration gives (eps, delta) "
                      "(precision cap)");
        free(lo);
        free(hi);
        ul_calc_report_preconditions(r.json, n.f, &pre, NULL);
        rc = ul_calc_end(&r,
                         "the smallest sigma with theta_{e^eps}(2*C0/sigma) <= delta (output "
                         "perturbation, sensitivity 2*C0)",
                         ul_calc_note_close(&n), st);
        ul_calc_note_free(&n);
    }
    mpfi_clear(exact);
    ul_num_value_clear(&classic);
    return rc;
}
