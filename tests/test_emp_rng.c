/* tests/test_emp_rng.c — Philox4x32-10 known answers, stream determinism and
 * independence, uniform range, normal moments. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emp/rng.h"

TestSuite(emp_rng);

/* Random123 1.14, examples/kat_vectors, the three "philox4x32 10" lines:
 * counter (4 words), key (2 words), expected output (4 words).  The third
 * uses the hex digits of π as counter and key. */
Test(emp_rng, philox_kat)
{
    static const uint32_t kat[3][10] = {
        {0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
         0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
        {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
         0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
        {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0,
         0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1},
    };
    for (int t = 0; t < 3; t++) {
        uint32_t out[4];
        ul_philox4x32_10(kat[t], kat[t] + 4, out);
        for (int j = 0; j < 4; j++)
            cr_assert_eq(out[j], kat[t][6 + j], "KAT %d word %d: %08x, expected %08x", t, j,
                         out[j], kat[t][6 + j]);
    }
    /* the stream mapping: key (seed, run), counter (block lo, hi, step lo, hi) */
    uint32_t out[4];
    ul_rng_block(0xa4093822, 0x299f31d0, 0x0370734413198a2eULL, 0x85a308d3243f6a88ULL, out);
    cr_assert_eq(out[0], 0xd16cfe09);
    cr_assert_eq(out[3], 0x24126ea1);
}

Test(emp_rng, determinism_and_chunking)
{
    enum { N = 1001 };
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    ul_rng_normals(42, 3, 7, 0, N, a);
    ul_rng_normals(42, 3, 7, 0, N, b);
    cr_assert(memcmp(a, b, N * sizeof *a) == 0, "same key, different stream");
    /* chunks of odd sizes, filled back to front: same bits */
    size_t cuts[] = {0, 1, 4, 5, 300, 301, 777, N};
    for (int k = 6; k >= 0; k--)
        ul_rng_normals(42, 3, 7, cuts[k], cuts[k + 1] - cuts[k], c + cuts[k]);
    cr_assert(memcmp(a, c, N * sizeof *a) == 0, "chunked fill differs");
    for (size_t i = 0; i < N; i += 97)
        cr_assert(a[i] == ul_rng_normal(42, 3, 7, i));
    /* a different run, step or seed gives a different stream */
    size_t same = 0;
    ul_rng_normals(42, 4, 7, 0, N, b);
    for (size_t i = 0; i < N; i++)
        same += a[i] == b[i];
    ul_rng_normals(42, 3, 8, 0, N, b);
    for (size_t i = 0; i < N; i++)
        same += a[i] == b[i];
    ul_rng_normals(43, 3, 7, 0, N, b);
    for (size_t i = 0; i < N; i++)
        same += a[i] == b[i];
    cr_assert_eq(same, 0);
    /* uniforms: deterministic, chunk-independent, in (0, 1) */
    ul_rng_uniforms(1, 2, 3, 0, N, a);
    ul_rng_uniforms(1, 2, 3, 0, 500, b);
    ul_rng_uniforms(1, 2, 3, 500, N - 500, b + 500);
    cr_assert(memcmp(a, b, N * sizeof *a) == 0);
    free(a);
    free(b);
    free(c);
}

Test(emp_rng, uniform_range_and_moments)
{
    enum { N = 1000000 };
    double *u = malloc(N * sizeof *u);
    ul_rng_uniforms(7, 0, 0, 0, N, u);
    double s = 0, s2 = 0;
    for (size_t i = 0; i < N; i++) {
        cr_assert(u[i] > 0 && u[i] < 1);
        s += u[i];
        s2 += u[i] * u[i];
    }
    /* mean ½ (sd 0.289/√N ≈ 2.9e-4), E u² = ⅓ (sd ≈ 2.98e-4): 6-sigma bounds */
    cr_assert(fabs(s / N - 0.5) < 6 * 2.9e-4, "uniform mean %g", s / N);
    cr_assert(fabs(s2 / N - 1.0 / 3) < 6 * 3e-4, "uniform E u^2 %g", s2 / N);
    free(u);
}

Test(emp_rng, normal_moments)
{
    enum { N = 1000000 };
    double *z = malloc(N * sizeof *z);
    ul_rng_normals(2024, 5, 11, 0, N, z);
    double m[5] = {0};
    for (size_t i = 0; i < N; i++) {
        double p = 1;
        for (int k = 1; k <= 4; k++) {
            p *= z[i];
            m[k] += p;
        }
        cr_assert(isfinite(z[i]) && fabs(z[i]) < 8.7);
    }
    for (int k = 1; k <= 4; k++)
        m[k] /= N;
    /* raw moments 0, 1, 0, 3 with standard errors √(1/N), √(2/N), √(15/N),
     * √(96/N) = 1e-3, 1.41e-3, 3.87e-3, 9.8e-3: 6-sigma bounds */
    cr_assert(fabs(m[1]) < 6 * 1.0e-3, "mean %g", m[1]);
    cr_assert(fabs(m[2] - 1) < 6 * 1.42e-3, "E z^2 %g", m[2]);
    cr_assert(fabs(m[3]) < 6 * 3.88e-3, "E z^3 %g", m[3]);
    cr_assert(fabs(m[4] - 3) < 6 * 9.8e-3, "E z^4 %g", m[4]);
    /* tail: P(|z| > 3) = 2.6998e-3, sd √(p(1−p)/N) ≈ 5.2e-5 */
    size_t tail = 0;
    for (size_t i = 0; i < N; i++)
        tail += fabs(z[i]) > 3;
    cr_assert(fabs((double)tail / N - 2.6998e-3) < 6 * 5.2e-5, "tail %zu", tail);
    free(z);
}
