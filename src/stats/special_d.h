/* src/stats/special_d.h — double special functions for ranking candidates.
 *
 * Binomial tails, log C(n, k) and the one-sided Clopper–Pearson bound in
 * doubles (lgamma and the incomplete beta function of Press et al.,
 * Numerical Recipes, 3rd ed., §6.4).  Never a bound: they choose which
 * candidate a certified MPFR function (stats/stats.h) then evaluates.
 */
#ifndef UL_STATS_SPECIAL_D_H
#define UL_STATS_SPECIAL_D_H

/* log C(n, k) in doubles (lgamma). */
double ul_emp_log_choose(unsigned long n, unsigned long k);

/* P[Bin(n, p) ≤ k] in doubles (1 when k ≥ n). */
double ul_emp_binom_cdf_d(unsigned long k, unsigned long n, double p);

/* P[Bin(n, p) ≥ x] in doubles (1 when x = 0). */
double ul_emp_binom_sf_d(unsigned long x, unsigned long n, double p);

/* Double-precision one-sided Clopper–Pearson upper bound (for ranking
 * only): the p with P[Bin(n, p) ≤ k] = beta; 1 when k ≥ n. */
double ul_emp_cp_upper_d(unsigned long k, unsigned long n, double beta);

#endif
