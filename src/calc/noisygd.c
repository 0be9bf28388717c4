/* src/calc/noisygd.c — the Noisy-GD calibrations noisygd-k and
 * noisygd-sigma (Chourasia & Shah 2023, Thm G.7, G.9, G.15; bounds/noisygd.h;
 * docs/noisy-gd.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/noisygd.h"
#include "calc/theorem.h"

/* ---- Noisy-GD (Chourasia & Shah) ------------------------------------------------- */

static bool read_g15_form(ul_calc_result *res, const char *text, ul_ngd_g15_form *form)
{
    if (strcmp(text, "tight") == 0)
        *form = UL_NGD_G15_TIGHT;
    else if (strcmp(text, "stated") == 0)
        *form = UL_NGD_G15_STATED;
    else {
        ul_calc_flag_error(res, "form", "must be tight or stated (got '%s')", text);
        return false;
    }
    return true;
}

#define NGD_NOT_A_GUARANTEE                                                                        \
    "not a guarantee: a precondition of the theorem fails or is undecided; the value is the "      \
    "formula's"

UL_CALC_QUANTITY_FN(ul_calc_noisygd_k)
{
    ul_ngd_g15_form form;
    if (!read_g15_form(res, ul_calc_flag_text(q, v, "form"), &form))
        return UL_CALC_EXIT_USAGE;
    unsigned long max_k;
    int rc = UL_CALC_EXIT_USAGE;
    if (!ul_calc_read_limit(res, "max-k", ul_calc_flag_text(q, v, "max-k"), &max_k, &rc))
        return rc;

    ul_ngd_params pb;
    memset(&pb, 0, sizeof pb);
    pb.q = ul_calc_flag_text(q, v, "q");
    pb.L = ul_calc_flag_text(q, v, "l");
    pb.lambda = ul_calc_flag_text(q, v, "lambda");
    pb.beta = ul_calc_flag_text(q, v, "beta");
    pb.sigma = ul_calc_flag_text(q, v, "sigma");
    pb.eta = ul_calc_flag_text(q, v, "eta");
    pb.n = ul_calc_flag_text(q, v, "n");
    pb.eps_dd = ul_calc_flag_text(q, v, "eps-dd");
    pb.init_var = ul_calc_opt_text(ul_calc_flag_text(q, v, "init-var"));

    char err[256] = "";
    ul_num_precision want = ul_calc_precision_of(c);
    ul_num_value eps;
    ul_num_value_init(&eps, 64);
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report rep = {0, false};
    unsigned long k = 0;
    ul_status st =
        ul_ngd_least_kabar_g15(&pb, form, max_k, &want, &k, &eps, &pre, &rep, err, sizeof err);
    if (st == UL_ECAP && rep.cap_hit) { /* the decision itself, not the ε printed */
        rc = ul_calc_input_error(res, st, err);
    } else if (st != UL_OK && st != UL_ECAP) {
        rc = ul_calc_theorem_error(res, st, err,
                                   st == UL_ENOROOT && max_k != 0 &&
                                           strstr(err, "not reached") != NULL
                                       ? " (raise --max-k)"
                                       : NULL);
    } else {
        ul_calc_build r;
        char *lo, *hi;
        ul_calc_begin_least_k(&r, q, v, c, res, k, &eps, &rep, st, &lo, &hi);
        ul_calc_note n;
        ul_calc_note_open(&n);
        fprintf(n.f, "  eps     lo %s\n          hi %s\n", lo, hi);
        fprintf(n.f, "          the (q, eps)-data-deletion reached after K_Abar = %lu steps\n", k);
        if (k > 0)
            fprintf(n.f, "  certified: the bound at K_Abar is <= eps-dd and at K_Abar - 1 it is "
                         "> eps-dd\n");
        else
            fprintf(n.f, "  certified: the bound is <= eps-dd already at K_Abar = 0\n");
        ul_calc_report_preconditions(r.json, n.f, &pre, NGD_NOT_A_GUARANTEE);
        free(lo);
        free(hi);
        rc = ul_calc_end_integer(
            &r,
            form == UL_NGD_G15_TIGHT
                ? "the least K_Abar whose Thm G.15 deletion bound (tight form) is "
                  "<= eps-dd"
                : "the least K_Abar whose Thm G.15 deletion bound (stated form "
                  "4qL^2/(lambda sigma^2 n^2) exp(-eta lambda K/2)) is <= eps-dd",
            k, ul_calc_note_close(&n), st, "the eps printed has fewer digits than asked");
        ul_calc_note_free(&n);
    }
    ul_num_value_clear(&eps);
    return rc;
}

/* noisygd-sigma: which optional flags each --kind needs ('r'), accepts
 * ('o') or rejects ('-'), in the order lambda beta k kabar eps-dp eps-dd. */
static const struct {
    const char *name;
    ul_ngd_sigma_kind kind;
    const char *use;
    const char *meaning;
} SIGMA_KINDS[] = {
    {"g7", UL_NGD_SIGMA_G7, "--r-r-",
     "the smallest sigma with the Thm G.7 RDP q L^2 eta K/(sigma^2 n^2) <= eps-dp"},
    {"g9", UL_NGD_SIGMA_G9, "rro-r-",
     "the smallest sigma with the Thm G.9 RDP 4qL^2/(lambda sigma^2 n^2) (1 - "
     "exp(-lambda eta K/2)) <= eps-dp (no K: its supremum over K)"},
    {"g15", UL_NGD_SIGMA_G15, "rr-r-r",
     "the smallest sigma with the Thm G.15 deletion bound after K_Abar steps <= eps-dd"},
};

UL_CALC_QUANTITY_FN(ul_calc_noisygd_sigma)
{
    static const char *const optional[6] = {"lambda", "beta", "k", "kabar", "eps-dp", "eps-dd"};
    const char *kind_text = ul_calc_flag_text(q, v, "kind");
    size_t kind = 0;
    while (kind < 3 && strcmp(kind_text, SIGMA_KINDS[kind].name) != 0)
        kind++;
    if (kind == 3)
        return ul_calc_flag_error(res, "kind", "must be g7, g9 or g15 (got '%s')", kind_text);
    const char *use = SIGMA_KINDS[kind].use;
    for (int i = 0; i < 6; i++) {
        const char *flag = optional[i], *text = ul_calc_flag_text(q, v, flag);
        if (use[i] == 'r' && ul_calc_is_none(text))
            return ul_calc_flag_error(res, flag, "missing (required with --kind %s)", kind_text);
        if (use[i] == '-' && !ul_calc_is_none(text))
            return ul_calc_flag_error(res, flag, "not used with --kind %s", kind_text);
    }
    ul_ngd_g15_form form;
    if (!read_g15_form(res, ul_calc_flag_text(q, v, "form"), &form))
        return UL_CALC_EXIT_USAGE;
    if (SIGMA_KINDS[kind].kind != UL_NGD_SIGMA_G15 && form != UL_NGD_G15_TIGHT)
        return ul_calc_flag_error(res, "form", "only used with --kind g15");

    ul_ngd_params pb;
    memset(&pb, 0, sizeof pb);
    pb.q = ul_calc_flag_text(q, v, "q");
    pb.L = ul_calc_flag_text(q, v, "l");
    pb.eta = ul_calc_flag_text(q, v, "eta");
    pb.n = ul_calc_flag_text(q, v, "n");
    pb.lambda = ul_calc_opt_text(ul_calc_flag_text(q, v, "lambda"));
    pb.beta = ul_calc_opt_text(ul_calc_flag_text(q, v, "beta"));
    pb.K = ul_calc_opt_text(ul_calc_flag_text(q, v, "k"));
    pb.KAbar = ul_calc_opt_text(ul_calc_flag_text(q, v, "kabar"));
    pb.eps_dp = ul_calc_opt_text(ul_calc_flag_text(q, v, "eps-dp"));
    pb.eps_dd = ul_calc_opt_text(ul_calc_flag_text(q, v, "eps-dd"));

    char err[256] = "";
    ul_num_precision want = ul_calc_precision_of(c);
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report rep = {0, false};
    mpfi_t sigma;
    mpfi_init2(sigma, 64);
    ul_status st = ul_ngd_sigma_min(&pb, SIGMA_KINDS[kind].kind, form, &want, sigma, &pre, &rep,
                                    err, sizeof err);
    int rc;
    if (st != UL_OK && st != UL_ECAP) {
        rc = ul_calc_theorem_error(res, st, err, NULL);
    } else {
        ul_calc_build r;
        ul_calc_begin(&r, q, v, c, res);
        ul_calc_note n;
        ul_calc_note_open(&n);
        ul_calc_add_inverse(&r, n.f, sigma, &rep,
                            "certified: the bound at this sigma is <= the target",
                            "the bound is 0 for every sigma: L = 0, or K = 0");
        ul_calc_report_preconditions(r.json, n.f, &pre, NGD_NOT_A_GUARANTEE);
        rc = ul_calc_end(&r, SIGMA_KINDS[kind].meaning, ul_calc_note_close(&n), st);
        ul_calc_note_free(&n);
    }
    mpfi_clear(sigma);
    return rc;
}
