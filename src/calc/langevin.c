/* src/calc/langevin.c — the Langevin unlearning calibrations
 * langevin-sigma and langevin-k, strongly convex case (Chien et al. 2024,
 * arXiv:2401.10371v4, Thm 3.2-3.3, Algs 4-5; bounds/langevin.h;
 * docs/langevin.md, "Strongly convex closed form"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/langevin.h"
#include "calc/theorem.h"

/* ---- Langevin unlearning (Chien et al. 2024, Sec. 5, strongly convex case) ------- */

/* Reads the flags shared by langevin-sigma and langevin-k, in the order
 * n m L M eps delta (K|sigma) S eta rate T; 0 or an exit code. */
static int read_langevin(const ul_calc_quantity *q, const char **v, ul_calc_result *res,
                         ul_langevin_sc_problem *pb)
{
    memset(pb, 0, sizeof *pb);
    pb->n = ul_calc_flag_text(q, v, "n");
    pb->m = ul_calc_flag_text(q, v, "m");
    pb->L = ul_calc_flag_text(q, v, "L");
    pb->M = ul_calc_flag_text(q, v, "M");
    pb->delta = ul_calc_flag_text(q, v, "delta");
    long s;
    if (!ul_calc_read_count(ul_calc_flag_text(q, v, "S"), UL_CALC_COUNT_MAX, &s) || s < 1) {
        ul_calc_usage(res, "--S: must be a whole number from 1 to 999999999 (got '%s')",
                      ul_calc_flag_text(q, v, "S"));
        return UL_CALC_EXIT_USAGE;
    }
    pb->S = (unsigned long)s;
    pb->eta = ul_calc_opt_text(ul_calc_flag_text(q, v, "eta"));
    if (ul_calc_check_flag(q, v, "rate", res) != 0)
        return UL_CALC_EXIT_USAGE;
    if (!ul_langevin_variant_parse(ul_calc_flag_text(q, v, "rate"), &pb->rate))
        abort(); /* the domain (calc/domain.c) and the parser disagree */
    if (!ul_calc_is_none(ul_calc_flag_text(q, v, "T"))) {
        /* Thm 3.2 starts unlearning from the stationary law ν_D: a finite
         * learning time is outside its hypotheses (insufficient training:
         * Chien et al. 2024, Sec. 3.3; docs/langevin.md, "Insufficient
         * training"), so no finite T gives a sound calibration */
        ul_calc_usage(res,
                      "--T: must be none (learning run to convergence): Thm 3.2 "
                      "bounds unlearning started from the stationary law nu_D, and a finite T is "
                      "outside its hypotheses (got '%s')",
                      ul_calc_flag_text(q, v, "T"));
        return UL_CALC_EXIT_USAGE;
    }
    pb->T = UL_LANGEVIN_T_INF;
    return 0;
}

UL_CALC_QUANTITY_FN(ul_calc_langevin_sigma)
{
    ul_langevin_sc_problem pb;
    int rc = read_langevin(q, v, res, &pb);
    if (rc != 0)
        return rc;
    long k;
    if (!ul_calc_read_count(ul_calc_flag_text(q, v, "K"), UL_CALC_COUNT_MAX, &k)) {
        ul_calc_usage(res, "--K: must be a whole number from 0 to 999999999 (got '%s')",
                      ul_calc_flag_text(q, v, "K"));
        return UL_CALC_EXIT_USAGE;
    }
    char err[256] = "";
    ul_num_precision want = ul_calc_precision_of(c);
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report rep = {0, false};
    mpfi_t sigma;
    mpfi_init2(sigma, 64);
    ul_status st = ul_langevin_sc_sigma_min(&pb, ul_calc_flag_text(q, v, "eps"), (unsigned long)k,
                                            &want, sigma, &pre, &rep, err, sizeof err);
    if (st != UL_OK && st != UL_ECAP) {
        rc = ul_calc_input_error(res, st, err);
    } else {
        ul_calc_build r;
        ul_calc_begin(&r, q, v, c, res);
        ul_calc_note n;
        ul_calc_note_open(&n);
        ul_calc_add_inverse(&r, n.f, sigma, &rep, "certified: eps_DP(K, sigma) <= eps", "");
        ul_calc_report_preconditions(r.json, n.f, &pre, NULL);
        rc = ul_calc_end(&r,
                         "the smallest Langevin sigma (noise variance 2*eta*sigma^2 per step) "
                         "with eps_DP(K, sigma, S) <= eps (Chien et al. Thm 3.2-3.3, Alg. 4)",
                         ul_calc_note_close(&n), st);
        ul_calc_note_free(&n);
    }
    mpfi_clear(sigma);
    return rc;
}

UL_CALC_QUANTITY_FN(ul_calc_langevin_k)
{
    ul_langevin_sc_problem pb;
    int rc = read_langevin(q, v, res, &pb);
    if (rc != 0)
        return rc;
    char err[256] = "", alpha[64] = "";
    ul_num_precision want = ul_calc_precision_of(c);
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report rep = {0, false};
    ul_num_value eps;
    ul_num_value_init(&eps, 64);
    unsigned long k = 0;
    ul_status st = ul_langevin_sc_least_k(&pb, ul_calc_flag_text(q, v, "sigma"),
                                          ul_calc_flag_text(q, v, "eps"), &want, &k, &eps, alpha,
                                          sizeof alpha, &pre, &rep, err, sizeof err);
    if (st != UL_OK && st != UL_ECAP) {
        rc = ul_calc_input_error(res, st, err);
    } else {
        ul_calc_build r;
        char *lo, *hi;
        ul_calc_begin_least_k(&r, q, v, c, res, k, &eps, &rep, st, &lo, &hi);
        ul_calc_add_string(r.json, "alpha", alpha);
        ul_calc_note n;
        ul_calc_note_open(&n);
        fprintf(n.f, "  eps_DP  lo %s\n          hi %s  (at alpha = %s)\n", lo, hi, alpha);
        fprintf(n.f, k > 0 ? "  certified: eps_DP(K) <= eps and eps_DP(K - 1) > eps\n"
                           : "  certified: eps_DP <= eps already at K = 0\n");
        ul_calc_report_preconditions(r.json, n.f, &pre, NULL);
        free(lo);
        free(hi);
        rc = ul_calc_end_integer(
            &r, "the least K >= 0 with eps_DP(K, sigma, S) <= eps (Chien et al., Alg. 5)", k,
            ul_calc_note_close(&n), st, "the eps printed has fewer digits than asked");
        ul_calc_note_free(&n);
    }
    ul_num_value_clear(&eps);
    return rc;
}
