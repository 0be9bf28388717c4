/* tests/renyi_oracle.h — an independent reference for the RDP of the
 * Poisson-subsampled Gaussian: numerical quadrature of its defining integral
 * (Mironov, Talwar, Zhang 2019, §3.3)
 *
 *     A_α = E_{z∼N(0,σ²)}[((1−q) + q·exp((2z−1)/(2σ²)))^α],
 *     ρ(α) = log(A_α)/(α−1),
 *
 * by the trapezoidal rule in plain MPFR at RENYI_ORACLE_BITS, at steps h and
 * h/2.  It shares no code or formula with src/bounds/renyi.c (no binomial
 * series, no erfc).  Not an enclosure: the error estimate is the change from
 * h to h/2 plus a bound on the stretches of the line skipped because the
 * integrand is negligible there; the tests require it to be tiny, which
 * shows convergence.
 */
#ifndef UL_TESTS_RENYI_ORACLE_H
#define UL_TESTS_RENYI_ORACLE_H

#include <mpfr.h>

#define RENYI_ORACLE_BITS 400

/* rho ≈ ρ(α) for the decimal q ∈ (0, 1), sigma > 0, alpha > 1; err ≥ the
 * estimated absolute error of rho (both at RENYI_ORACLE_BITS). */
void renyi_oracle_sgm_rdp(mpfr_ptr rho, mpfr_ptr err, const char *q, const char *sigma,
                          const char *alpha);

#endif
