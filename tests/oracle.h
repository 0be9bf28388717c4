/* tests/oracle.h — independent high-precision references for the tests.
 *
 * Nothing here calls the library or mpfr_erfc/mpfr_erf: Q is evaluated from
 * its Taylor series near 0 and from Laplace's continued fraction for the
 * Mills ratio in the tails, in plain MPFR at a precision far above what the
 * library is asked for.  These are approximations, not enclosures; their
 * error (checked by comparing truncation depths) is far below the widths the
 * tests compare against.
 */
#ifndef UL_TESTS_ORACLE_H
#define UL_TESTS_ORACLE_H

#include <mpfr.h>

/* The oracle's working precision in bits. */
#define ORACLE_BITS 1200

/* log Q(x), x any real (out at ORACLE_BITS). */
void oracle_log_q(mpfr_ptr out, mpfr_srcptr x);

/* log θ_{e^ε}(r) = log(Q(a) − e^ε Q(b)), a = ε/r − r/2, b = ε/r + r/2, for
 * r > 0 and any real ε, by the direct formula (no reciprocity).  For a ≥ 5
 * it uses θ = φ(a)·(M(a) − M(b)) (because e^ε φ(b) = φ(a)), so it works where
 * θ leaves the exponent range. */
void oracle_log_theta(mpfr_ptr out, mpfr_srcptr eps, mpfr_srcptr r);

/* Convenience: the same from decimal strings (parsed at ORACLE_BITS). */
void oracle_log_theta_str(mpfr_ptr out, const char *eps, const char *r);

#endif
