/* src/stats/gdp.h — the Gaussian-DP ESTIMATE of ε beside the valid bounds.
 *
 * This is an estimate, not a bound: it assumes that the attack's trade-off
 * curve is a Gaussian one, G_μ(α) = Φ(Φ⁻¹(1 − α) − μ) (Dong, Roth, Su,
 * "Gaussian differential privacy", JRSS-B 2022, Def. 2.5), fits μ from the
 * whole ROC, and converts it to ε(δ) with the Gaussian privacy profile.  It
 * never decides a verdict.
 *
 * Fit.  For the Gaussian pair N(0, 1) vs N(μ, 1) the AUC is Φ(μ/√2) (the
 * probability that an IN draw exceeds an OUT draw, X − Y ~ N(μ, 2)), so
 *     μ̂ = √2 · Φ⁻¹(AUC),
 * which uses every point of the ROC (the AUC is the Mann–Whitney statistic).
 * Profile (Dong–Roth–Su Cor. 2.13; Balle & Wang 2018 Thm 8):
 *     δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2),
 * decreasing in ε; ε(δ) is its inverse (0 when δ(0) ≤ δ).
 */
#ifndef UL_EMP_GDP_H
#define UL_EMP_GDP_H

/* μ̂ from an AUC in [0, 1]: √2·Φ⁻¹(AUC); 0 for AUC ≤ ½, +∞ for AUC = 1. */
double ul_emp_gdp_mu_from_auc(double auc);

/* ε(δ) of μ-GDP in doubles (0 when mu ≤ 0; +∞ when mu is infinite);
 * NAN when delta ∉ (0, 1). */
double ul_emp_gdp_eps(double mu, double delta);

/* Φ⁻¹(p) in doubles for p ∈ (0, 1) (bisection on erfc, ~1e-15). */
double ul_emp_norm_quantile(double p);

#endif
