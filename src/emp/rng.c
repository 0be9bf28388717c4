/* src/emp/rng.c — Philox4x32-10 streams keyed by (seed, run), counter (step, index). */
#include "emp/rng.h"

#include <Random123/philox.h>
#include <math.h>

void ul_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    philox4x32_ctr_t c = {{ctr[0], ctr[1], ctr[2], ctr[3]}};
    philox4x32_key_t k = {{key[0], key[1]}};
    philox4x32_ctr_t r = philox4x32_R(10, c, k);
    for (int j = 0; j < 4; j++)
        out[j] = r.v[j];
}

void ul_rng_block(uint32_t seed, uint32_t run, uint64_t step, uint64_t block, uint32_t out[4])
{
    const uint32_t ctr[4] = {(uint32_t)block, (uint32_t)(block >> 32), (uint32_t)step,
                             (uint32_t)(step >> 32)};
    const uint32_t key[2] = {seed, run};
    ul_philox4x32_10(ctr, key, out);
}

/* 53 bits of (hi, lo) → (0, 1); see rng.h. */
static double u01(uint32_t hi, uint32_t lo)
{
    uint64_t m = (((uint64_t)hi << 32) | lo) >> 11;
    if (m == 0)
        return 0x1p-54;
    return (double)m * 0x1p-53;
}

double ul_rng_uniform(uint32_t seed, uint32_t run, uint64_t step, uint64_t i)
{
    uint32_t w[4];
    ul_rng_block(seed, run, step, i / 2, w);
    return (i & 1) ? u01(w[2], w[3]) : u01(w[0], w[1]);
}

static void box_muller(const uint32_t w[4], double z[2])
{
    const double two_pi = 6.283185307179586476925286766559;
    double r = sqrt(-2.0 * log(u01(w[0], w[1])));
    double t = two_pi * u01(w[2], w[3]);
    z[0] = r * cos(t);
    z[1] = r * sin(t);
}

double ul_rng_normal(uint32_t seed, uint32_t run, uint64_t step, uint64_t i)
{
    uint32_t w[4];
    double z[2];
    ul_rng_block(seed, run, step, i / 2, w);
    box_muller(w, z);
    return z[i & 1];
}

void ul_rng_uniforms(uint32_t seed, uint32_t run, uint64_t step, uint64_t first, size_t n,
                     double *out)
{
    for (size_t k = 0; k < n; k++)
        out[k] = ul_rng_uniform(seed, run, step, first + k);
}

void ul_rng_normals(uint32_t seed, uint32_t run, uint64_t step, uint64_t first, size_t n,
                    double *out)
{
    size_t k = 0;
    if (n > 0 && (first & 1)) { /* odd start: second half of a block */
        out[k++] = ul_rng_normal(seed, run, step, first);
    }
    for (; k + 1 < n; k += 2) {
        uint32_t w[4];
        double z[2];
        ul_rng_block(seed, run, step, (first + k) / 2, w);
        box_muller(w, z);
        out[k] = z[0];
        out[k + 1] = z[1];
    }
    if (k < n)
        out[k] = ul_rng_normal(seed, run, step, first + k);
}
