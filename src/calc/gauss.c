/* src/calc/gauss.c — the Gaussian quantities: theta (the hockey-stick
 * divergence of two Gaussians, Balle & Wang 2018, Thm 8), gauss-sigma and
 * gauss-eps (its inverses; bounds/gaussian.h; docs/accounting.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/gaussian.h"
#include "calc/internal.h"
#include "num/input.h"

UL_CALC_QUANTITY_FN(ul_calc_theta)
{
    if (ul_calc_check_domains(q, v, res) != 0)
        return UL_CALC_EXIT_USAGE;
    char err[256];
    ul_num_precision want = ul_calc_precision_of(c);
    ul_num_value theta;
    ul_num_value_init(&theta, 64);
    ul_num_report rep;
    ul_status st =
        ul_gauss_theta_certified(ul_calc_flag_text(q, v, "eps"), ul_calc_flag_text(q, v, "r"),
                                 &want, &theta, &rep, err, sizeof err);
    if (st != UL_OK && st != UL_ECAP) {
        ul_num_value_clear(&theta);
        return ul_calc_input_error(res, st, err);
    }

    ul_calc_build r;
    ul_calc_begin(&r, q, v, c, res);
    char *lo, *hi;
    ul_num_value_format(&theta, c->digits, &lo, &hi);
    ul_calc_bounds(&r, lo, hi, &rep);
    free(lo);
    free(hi);

    /* The loose bound 1.25·exp(−ε²/(2r²)) beside the exact value, with
     * whether it is an upper bound here (Koloskova et al. 2025, Lemma A.4, the
     * classical bound of Dwork & Roth 2014, Thm A.1, proved for eps < 1; it fails
     * above eps ~ 3.787: docs/neural-unlearning.md, "Simplified Gaussian bound"). */
    ul_num_value loose;
    ul_num_value_init(&loose, rep.bits_used);
    mpfi_t e, rr;
    mpfi_init2(e, rep.bits_used);
    mpfi_init2(rr, rep.bits_used);
    /* both accepted by ul_gauss_theta_certified above */
    ul_num_set_valid(e, ul_calc_flag_text(q, v, "eps"));
    ul_num_set_valid(rr, ul_calc_flag_text(q, v, "r"));
    if (mpfi_is_zero(rr)) {
        mpfi_set_ui(loose.enclosure, 0);
    } else {
        ul_gauss_loose_bound_log_enclose(loose.enclosure, e, rr);
        loose.is_log = true;
    }
    ul_num_value_format(&loose, c->digits, &lo, &hi);
    ul_loose_validity valid =
        ul_gauss_loose_bound_check(ul_calc_flag_text(q, v, "eps"), ul_calc_flag_text(q, v, "r"));
    json_object *lb = json_object_new_object();
    ul_calc_add_string(lb, "lo", lo);
    ul_calc_add_string(lb, "hi", hi);
    json_object_object_add(
        lb, "valid_upper_bound",
        valid == UL_LOOSE_UNDECIDED ? NULL : json_object_new_boolean(valid == UL_LOOSE_VALID));
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
    snprintf(note, note_len, "  loose bound 1.25*exp(-eps^2/(2 r^2)) = %s\n    %s\n", hi, verdict);
    free(lo);
    free(hi);
    mpfi_clear(e);
    mpfi_clear(rr);
    ul_num_value_clear(&loose);
    ul_num_value_clear(&theta);
    int rc = ul_calc_end(&r, "E_{e^eps}(N(0,1) || N(r,1)), the Gaussian hockey-stick divergence",
                         note, st);
    free(note);
    return rc;
}

UL_CALC_QUANTITY_FN(ul_calc_gauss_sigma)
{
    if (ul_calc_check_domains(q, v, res) != 0)
        return UL_CALC_EXIT_USAGE;
    char err[256];
    ul_num_precision want = ul_calc_precision_of(c);
    ul_num_report rep;
    mpfi_t sigma;
    mpfi_init2(sigma, 64);
    ul_status st = ul_gauss_sigma_min(
        ul_calc_flag_text(q, v, "eps"), ul_calc_flag_text(q, v, "delta"),
        ul_calc_flag_text(q, v, "sensitivity"), &want, sigma, &rep, err, sizeof err);
    int rc;
    if (st != UL_OK && st != UL_ECAP)
        rc = ul_calc_input_error(res, st, err);
    else
        rc = ul_calc_report_inverse(
            q, v, c, res, sigma, &rep,
            "the smallest sigma with theta_{e^eps}(sensitivity/sigma) <= delta",
            "certified: theta at this sigma is <= delta", st);
    mpfi_clear(sigma);
    return rc;
}

UL_CALC_QUANTITY_FN(ul_calc_gauss_eps)
{
    if (ul_calc_check_domains(q, v, res) != 0)
        return UL_CALC_EXIT_USAGE;
    char err[256];
    ul_num_precision want = ul_calc_precision_of(c);
    ul_num_report rep;
    mpfi_t eps;
    mpfi_init2(eps, 64);
    ul_status st = ul_gauss_eps_min(ul_calc_flag_text(q, v, "r"), ul_calc_flag_text(q, v, "delta"),
                                    &want, eps, &rep, err, sizeof err);
    int rc;
    if (st != UL_OK && st != UL_ECAP)
        rc = ul_calc_input_error(res, st, err);
    else
        rc = ul_calc_report_inverse(q, v, c, res, eps, &rep,
                                    "the smallest eps >= 0 with theta_{e^eps}(r) <= delta",
                                    "certified: theta at this eps is <= delta", st);
    mpfi_clear(eps);
    return rc;
}
