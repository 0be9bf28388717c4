/* tests/pabi_oracle.h — an independent reference for the best feasible shift
 * allocation of PABI (Feldman et al. 2018 Thm 22; docs/neural-unlearning.md, "Gradient clipping"),
 * by enumeration, not by the library's convex-hull search.
 *
 * Shifts z_0 = D0, z_{t+1} = ρ·z_t + s − a_t, feasible when a_t ≥ 0, z_t ≥ 0
 * and z_T = 0; cost Σ_t a_t²/(2σ_t²).  The optimum has some set of
 * intermediate shifts at 0; between two consecutive of them the other
 * constraints are slack, so there it is the segment's own closed form
 * (Cauchy–Schwarz, as the paper's ρ_eff over the whole run).  Hence the
 * optimum is the least cost over every subset of {1..T−1} whose segment-wise
 * closed forms are feasible: 2^(T−1) candidates, for small T.  Plain MPFR at
 * 256 bits, rounding to nearest (an approximation, far below the tolerances
 * compared against); z ≥ −1e-60 counts as ≥ 0 (a shift exactly 0 off the
 * subset). */
#ifndef UL_TESTS_PABI_ORACLE_H
#define UL_TESTS_PABI_ORACLE_H

#include <mpfr.h>

/* The least feasible cost into out (256 bits); rho = 1 − lr·λ, s = 2·lr·C1,
 * d0 = D0, sigma2[t] = σ_t² (t < T ≤ 20), all as MPFR numbers. */
void pabi_oracle_best(mpfr_ptr out, mpfr_srcptr rho, mpfr_srcptr s, mpfr_srcptr d0,
                      mpfr_t *sigma2, unsigned T);

/* The same from decimal C0, C1, lr, λ (D0 = 2·C0, s = 2·lr·C1, ρ = 1 − lr·λ). */
void pabi_oracle_best_str(mpfr_ptr out, const char *c0, const char *c1, const char *lr,
                          const char *lambda, mpfr_t *sigma2, unsigned T);

/* The best feasible cost for the code's decreasing schedule in the Figure-2
 * configuration (C0 = 20, C1 = 10, lr = 0.01, λ = 50, T = 11, ε_R = 1; spec
 * §2.4): σ_t² = A²/(2·ε_R·T)·0.5^{−2(T−t−1)}, A = 40·2^-11 + 0.4·(1 − 2^-11)
 * by hand. */
void pabi_oracle_fig2_decreasing(mpfr_ptr out);

#endif
