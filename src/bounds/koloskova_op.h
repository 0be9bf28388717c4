/* src/bounds/koloskova_op.h — output perturbation, the baseline of
 * Koloskova et al. (ICML 2025; docs/neural-unlearning.md, "Output perturbation"): the classical
 * Gaussian mechanism's σ (Dwork–Roth Thm A.1) and the exact δ of a σ (Balle & Wang
 * 2018).  Conventions in bounds/koloskova_common.h. */
#ifndef UL_BOUNDS_KOLOSKOVA_OP_H
#define UL_BOUNDS_KOLOSKOVA_OP_H

#include "bounds/koloskova_common.h"

/* `output-perturbation-sigma`.  classic ⊇ the classical Gaussian-mechanism
 * noise for sensitivity 2·C0 (Dwork–Roth Thm A.1, the code's dp-baseline):
 *   σ = 2·C0·√(2·log(1.25/δ)) / ε,   i.e. σ² = 8·C0²·log(1.25/δ)/ε²;
 * exact ⊇ the smallest σ with θ_{e^ε}(2·C0/σ) ≤ δ (upper end certified safe).
 * The classical theorem's domain eps_lt_1 (ε < 1) is reported in pre but not
 * enforced; *classic_delivers says whether the classic σ really gives
 * (ε, δ): HOLDS/FAILS decided with enclosures (the Lemma A.4 check of
 * gaussian.h at the exact classic point: the loose bound equals δ there). */
ul_status ul_kol_op_sigma_certified(const char *c0, const char *eps, const char *delta,
                                    const ul_num_precision *want, ul_preconditions *pre,
                                    ul_num_value *classic, ul_pre_state *classic_delivers,
                                    mpfi_ptr exact, ul_num_report *rep, char *err, size_t errlen);

/* The exact δ of output perturbation with noise σ: θ_{e^ε}(2·C0/σ); log form. */
ul_status ul_kol_op_delta_certified(const char *c0, const char *sigma, const char *eps,
                                    const ul_num_precision *want, ul_preconditions *pre,
                                    ul_num_value *delta, ul_num_report *rep, char *err,
                                    size_t errlen);

#endif
