/* src/emp/rng.h — counter-based random numbers for the empirical module.
 *
 * Generator: Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel random
 * numbers: as easy as 1, 2, 3", SC'11), taken from Random123's
 * <Random123/philox.h>.  Every draw is a pure function of its coordinates
 *
 *     key     = (seed, run)                       two 32-bit words
 *     counter = (index lo, index hi, step lo, step hi)   four 32-bit words
 *
 * so a run's noise at a step does not depend on which thread draws it, in
 * which order, or how a vector is cut into chunks.  There is no state.
 *
 * Uniforms.  Block b = Philox(key, (b, step)) gives four words w0..w3.
 * Uniform number i uses block i/2, words (w0,w1) if i is even, (w2,w3) if
 * odd: m = the top 53 bits of (hi << 32 | lo), u = m · 2⁻⁵³, except that
 * m = 0 gives u = 2⁻⁵⁴.  So u lies in the open interval (0, 1) and every
 * value is an exact double (probability of the substitution: 2⁻⁵³).
 *
 * Normals (Box–Muller, basic trigonometric form).  Normal number i uses
 * block i/2: u1 from (w0,w1) and u2 from (w2,w3) as above, r = √(−2 ln u1),
 * z(2b) = r cos(2π u2), z(2b+1) = r sin(2π u2).  u1 > 0 keeps r finite
 * (|z| ≤ √(2·54·ln 2) ≈ 8.65).  Bit-identical on one machine and libm;
 * across libm versions cos/sin/log may differ in the last ulp.
 *
 * Uniform i and normal i of the same (seed, run, step) share Philox words:
 * callers give each purpose its own step (or run) — see UL_RNG_RUN_DATA.
 */
#ifndef UL_EMP_RNG_H
#define UL_EMP_RNG_H

#include <stddef.h>
#include <stdint.h>

/* The run number reserved for data generation (ul_data_synthetic), so that
 * learner runs 0 … M−1 never share a stream with the data. */
#define UL_RNG_RUN_DATA UINT32_C(0xFFFFFFFF)

/* Raw Philox4x32-10 with a literal key and counter (the KAT interface). */
void ul_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/* Block `block` of the stream (seed, run, step). */
void ul_rng_block(uint32_t seed, uint32_t run, uint64_t step, uint64_t block, uint32_t out[4]);

/* Uniform number i of the stream, in (0, 1). */
double ul_rng_uniform(uint32_t seed, uint32_t run, uint64_t step, uint64_t i);

/* Standard normal number i of the stream. */
double ul_rng_normal(uint32_t seed, uint32_t run, uint64_t step, uint64_t i);

/* out[k] = uniform / normal number (first + k) for k < n.  Filling [0, n) in
 * one call or in any chunks, in any order, gives the same bits. */
void ul_rng_uniforms(uint32_t seed, uint32_t run, uint64_t step, uint64_t first, size_t n,
                     double *out);
void ul_rng_normals(uint32_t seed, uint32_t run, uint64_t step, uint64_t first, size_t n,
                    double *out);

#endif
