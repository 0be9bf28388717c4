/* src/calc/renyi.c — the Rényi DP quantities: rdp-to-dp, gauss-rdp-eps and
 * sgm-rdp (bounds/renyi.h; docs/accounting.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/renyi.h"
#include "calc/internal.h"

/* ---- Rényi DP ------------------------------------------------------------------ */

/* --conversion, checked against its domain (calc/domain.c). */
static bool read_conversion(const ul_calc_quantity *q, const char **v, ul_calc_result *res,
                            ul_rdp_conversion *conv)
{
    char err[256];
    if (ul_calc_check_flag(q, v, "conversion", res) != 0)
        return false;
    if (ul_renyi_parse_conversion(ul_calc_flag_text(q, v, "conversion"), conv, err, sizeof err) !=
        UL_OK)
        abort(); /* the domain and the parser disagree */
    return true;
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
    if (!read_conversion(q, v, res, &conv) || ul_calc_check_domains(q, v, res) != 0)
        return UL_CALC_EXIT_USAGE;
    char err[256];
    ul_num_precision want = ul_calc_precision_of(c);
    ul_num_value eps;
    ul_num_value_init(&eps, 64);
    ul_num_report rep;
    const char *alpha = ul_calc_flag_text(q, v, "alpha"), *rdp = ul_calc_flag_text(q, v, "rdp"),
               *delta = ul_calc_flag_text(q, v, "delta");
    ul_status st =
        ul_renyi_rdp_to_dp_certified(alpha, rdp, delta, conv, &want, &eps, &rep, err, sizeof err);
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
    if (!read_conversion(q, v, res, &conv) || ul_calc_check_domains(q, v, res) != 0)
        return UL_CALC_EXIT_USAGE;
    char err[256], alpha[UL_RENYI_ALPHA_TEXT_LEN] = "";
    ul_num_precision want = ul_calc_precision_of(c);
    ul_num_value eps;
    ul_num_value_init(&eps, 64);
    ul_num_report rep;
    ul_status st =
        ul_renyi_gauss_eps_certified(ul_calc_flag_text(q, v, "r"), ul_calc_flag_text(q, v, "delta"),
                                     conv, &want, &eps, alpha, sizeof alpha, &rep, err, sizeof err);
    int rc =
        st != UL_OK && st != UL_ECAP
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
    if (ul_calc_check_domains(q, v, res) != 0)
        return UL_CALC_EXIT_USAGE;
    char err[256];
    ul_num_precision want = ul_calc_precision_of(c);
    ul_num_value rdp;
    ul_num_value_init(&rdp, 64);
    ul_num_report rep;
    ul_status st = ul_renyi_sgm_rdp_certified(
        ul_calc_flag_text(q, v, "q"), ul_calc_flag_text(q, v, "sigma"),
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
