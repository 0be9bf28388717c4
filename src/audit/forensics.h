/* src/audit/forensics.h — the known faulty recipes of public code, computed the
 * faulty way on purpose, and a matcher that says whether one of them
 * reproduces a number a certificate printed.
 *
 * NOTHING HERE IS CERTIFIED.  These functions emulate code that computes in
 * IEEE double (or float32) with the formulas the public implementations use
 * (docs/accounting.md "Numerical soundness of theta_epsilon", docs/neural-unlearning.md,
 * "Public code", Errata K1-K13): they exist so that an
 * audit can say "the claimed δ = 3.7584e-11 is what θ gives when Q is
 * computed as (1 − erf)/2 in double precision", never to decide a verdict.
 * Verdicts come from src/bounds (enclosures) only.  Doubles and floats are
 * therefore the point here, not a shortcut: the certified layer's rule
 * "never through double" does not apply to a function whose job is to
 * reproduce what double-precision code printed.
 *
 * Inputs arrive as doubles because the emulated code held them as doubles;
 * ul_forensic_double reads decimal text the way that code did (strtod,
 * round to nearest).
 */
#ifndef UL_AUDIT_FORENSICS_H
#define UL_AUDIT_FORENSICS_H

#include <stdbool.h>
#include <stddef.h>

#include "bounds/renyi.h"

/* The double nearest to the decimal text (strtod), as the emulated code read
 * it; NaN when text is not a decimal number. */
double ul_forensic_double(const char *text);

/* ---- matching a printed number ---------------------------------------------- */

/* Significant digits printed in a decimal text: the mantissa's digits from
 * the first non-zero one to the last one written ("3.7584e-11" → 5,
 * "0.00120" → 3, "1e-5" → 1, "1500" → 4).  0 when the mantissa is zero or
 * text is not a decimal. */
int ul_forensic_sig_digits(const char *text);

/* True when `value` (what a faulty recipe computes) reproduces the decimal
 * `claimed` to its printed digits: value rounded to nearest at
 * ul_forensic_sig_digits(claimed) significant digits is exactly claimed's
 * value (a claimed zero is reproduced only by an exact 0).  False for
 * non-finite values and non-decimal text. */
bool ul_forensic_matches(const char *claimed, double value);

/* The same, but only when the claim carries at least min_digits significant
 * digits: a one-digit claim such as 1e-5 is a target someone chose, and
 * "reproducing" it proves nothing.  A claimed zero always qualifies. */
bool ul_forensic_matches_digits(const char *claimed, double value, int min_digits);

/* ---- the Gaussian hockey-stick divergence, computed badly --------------------- */

/* θ_{e^ε}(r) = Q(ε/r − r/2) − e^ε·Q(ε/r + r/2) with that Q, everything in
 * double: the stair-lab `theta_epsilon`.  At ε = 14.357, r = 2 it gives
 * 3.7584e-11 for the true 7.6651e-11 (docs/accounting.md "Numerical soundness of
 * theta_epsilon"): half the true δ.
 * May be negative or 0; r > 0. */
double ul_forensic_theta_one_minus_erf(double eps, double r);

/* The exact θ_{e^ε}(r) (bounds/gaussian.h, enclosed at 64 bits) rounded to a
 * double: what a correct recipe at a wrong r gives (a forensic value, never
 * a verdict). */
double ul_forensic_theta(double eps, double r);

/* The same on the float32 path of the stair-lab code under JAX defaults
 * (docs/neural-unlearning.md, "Precision"): r and the arguments
 * ε/r ∓ r/2 and x/√2 in float32, erf evaluated in double on the float32
 * argument and rounded to float32 (scipy's float32 loop), 1 − erf and /2 in
 * float32; e^ε and the final subtraction in double.  Q then carries an
 * absolute error ≈ 6e-8: θ_e(0.2) comes out negative, θ_{e^15}(2) as 0
 * (docs/neural-unlearning.md, Errata K2). */
double ul_forensic_theta_float32(double eps, double r);

/* ---- the classic Gaussian mechanism outside its domain ------------------------- */

/* σ = Δ·√(2·ln(1.25/δ))/ε (Dwork–Roth Thm A.1; the stair-lab dp-baseline
 * with Δ = 2·C0, docs/neural-unlearning.md, "Output perturbation"), in double.  The theorem needs
 * ε < 1; as a tail bound it fails from ε ≈ 3.787 (docs/neural-unlearning.md, "Simplified Gaussian
 * bound"). */
double ul_forensic_classic_sigma(double sensitivity, double eps, double delta);

/* δ = 1.25·exp(−ε²/(2r²)): the same rule solved for δ, in double. */
double ul_forensic_classic_delta(double eps, double r);

/* ---- RDP → (ε, δ) ------------------------------------------------------------ */

/* ε from one point (α, ρ) at δ in double, as accountants compute it:
 * Mironov 2017 Prop. 3, ε = ρ + log(1/δ)/(α−1); or BBGHS (Balle et al. 2020
 * Thm 21, as opacus applies it), ε = ρ + log1p(−1/α) − (log δ + log α)/(α−1),
 * clamped at 0 (no KL shortcut).  α > 1. */
double ul_forensic_rdp_eps(double alpha, double rdp, double delta, ul_rdp_conversion conv);

/* The least of ul_forensic_rdp_eps over n ≥ 1 points; *best (may be NULL)
 * receives its index. */
double ul_forensic_rdp_points_eps(const double *alphas, const double *rdps, size_t n,
                                  double delta, ul_rdp_conversion conv, size_t *best);

/* "A Rényi value read as ε": the first index i with rdps[i] reproducing
 * claimed_eps to its printed digits (exact decimal equality, or the double
 * of rdps[i] rounded to claimed's digits; at least 2 digits), or -1. */
long ul_forensic_renyi_as_eps(const char *claimed_eps, const char *const *rdps, size_t n);

/* ---- group privacy without its sum --------------------------------------------- */

/* δ·e^{(k−1)ε}: the largest term of the group-privacy δ·Σ_{i<k} e^{iε}
 * only (stair-lab's DP-SGD baseline, docs/neural-unlearning.md, "DP-SGD with group privacy",
 * Errata K4), in
 * double.  Test-only: the dp-sgd-group handler computes this rule certified
 * (UL_KOL_GROUP_CODE_LARGEST_TERM, bounds/koloskova.h); tests/test_audit.c
 * uses this one to reproduce the baseline's printed δ. */
double ul_forensic_group_delta_largest_term(double eps, double delta, unsigned long k);

#endif
