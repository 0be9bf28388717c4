/* src/bounds/pld_fft.h — the FFT of the PLD accountant, with a proven error bound.
 *
 * A textbook iterative radix-2 Cooley–Tukey FFT (decimation in time: bit
 * reversal P_N, then t = log2 N butterfly stages A_1 … A_t, F_N = A_t⋯A_1·P_N;
 * Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., SIAM
 * 2002, §24.1) in double or x87 long double, complex data in split arrays.
 * Every twiddle factor ω^j = e^{−2πij/N}, j = aB + b (B = 2^⌈t/2⌉), is the
 * long double product of ω^{aB} and ω^b, each with real and imaginary parts
 * correctly rounded to long double (mpfr_cosu / mpfr_sinu, MPFR ≥ 4.2, round
 * to nearest, so each within u_L = 2^-64 of the unit-modulus value): the
 * product is within √2γ_2(1 + u_L)² + 2u_L + u_L² ≤ 5u_L of ω^j (Higham
 * Lemma 3.5 for the complex product), and rounding it to double adds at most
 * u(1 + 5u_L).  So Higham's (24.5) holds with μ = 5u_L (long double) or
 * μ = u + 6u_L (double).  Higham Thm 24.2 then gives, for the algorithm run
 * here,
 *
 *     ‖fl(F_N x) − F_N x‖₂ ≤ γ·‖F_N x‖₂,   γ = tη/(1 − tη),
 *     η = μ + γ_4(√2 + μ),  γ_4 = 4u/(1 − 4u),
 *
 * u = 2^-53 (double) or 2^-64 (long double).  The inverse is computed as
 * conj(F_N conj(y)) (conjugation is exact), unnormalised: the same bound.
 * ul_pld_fft_gamma returns that γ rounded up.
 *
 * The twiddles of the largest length used so far are cached per format and
 * serve every shorter length (stage-major table); ul_pld_fft_release frees
 * them (ul_pld_compose does so before returning).
 * Not reentrant: one thread at a time (as the rest of pld.c).
 */
#ifndef UL_BOUNDS_PLD_FFT_H
#define UL_BOUNDS_PLD_FFT_H

#include <mpfr.h>
#include <stdbool.h>
#include <stddef.h>

/* In-place DFT of length N = 2^t (2 ≤ N ≤ 2^30) of re + i·im: forward
 * y_k = Σ_j x_j e^{−2πijk/N}, or (inverse) Σ_j x_j e^{+2πijk/N}
 * (unnormalised).  false when the twiddle table cannot be allocated. */
bool ul_pld_fft_d(double *re, double *im, size_t N, bool inverse);
bool ul_pld_fft_l(long double *re, long double *im, size_t N, bool inverse);

/* How a watched transform ended. */
typedef enum { UL_PLD_FFT_DONE = 0, UL_PLD_FFT_NOMEM, UL_PLD_FFT_LATE } ul_pld_fft_end;

/* Points between two asks of the deadline in the long passes of the PLD
 * accountant (the FFT's, the frequency-domain powers, the discretisation's
 * masses are asked more often: every PLD_CHECK_BINS bins). */
#define PLD_CHECK_POINTS ((size_t)1 << 20)
#define PLD_CHECK_BINS 128

/* The same transforms (bit for bit); with watch, the process deadline
 * (num/deadline.h, through ul_pld_late) is asked every PLD_CHECK_POINTS
 * points of a pass and before the stages of every block of 2^16 points or
 * more: UL_PLD_FFT_LATE when it had passed (the data are then partly
 * transformed), UL_PLD_FFT_NOMEM when the twiddles cannot be allocated. */
ul_pld_fft_end ul_pld_fft_d_watch(double *re, double *im, size_t N, bool inverse, bool watch);
ul_pld_fft_end ul_pld_fft_l_watch(long double *re, long double *im, size_t N, bool inverse,
                                  bool watch);

/* true once the time budget has run out (ul_deadline_passed), for every
 * loop of the PLD accountant.  A test may replace the question with its own
 * (a count of asks, a deadline after the k-th ask); NULL restores it.  Not
 * reentrant, as the rest of the accountant. */
bool ul_pld_late(void);
void ul_pld_set_late_hook(bool (*hook)(void));

/* g ≥ γ of Higham Thm 24.2 for length N and mant-bit arithmetic (μ above). */
void ul_pld_fft_gamma(mpfr_ptr g, size_t N, int mant);

/* Frees the cached twiddle tables. */
void ul_pld_fft_release(void);

#endif
