/* src/stats/eps_lb_tiebreak.c — ties broken at random (stats/eps_lb.h,
 * "Ties"): each score s becomes (s, U) in lexicographic order, U i.i.d.
 * uniform on (0, 1) from the caller's seed, independent of the scores.
 *
 * Why it is valid.  The pair (s, U) is a post-processing of the mechanism's
 * output with randomness of its own, so the laws of (s, U) in the two
 * worlds satisfy every (ε, δ) pair that the laws of s satisfy (Dwork & Roth
 * 2014, Prop. 2.1); the runs stay i.i.d., and every method here is valid
 * for any laws, so it is valid for these — with probability taken over the
 * scores AND U.  That is why the seed must be drawn afresh, before the
 * scores are read, and reported: a seed fixed once and reused over many
 * data sets is one realisation of U for all of them (a method then refuted
 * a true claim on every one of 40 data sets: stats/eps_lb_common.c), and
 * trying seeds and keeping the best is a search the union bound does not
 * cover.  Which U goes to which score does not matter: U is exchangeable
 * and independent of the scores, so any assignment order gives the same
 * joint law.
 *
 * The methods only compare scores, so (s, U) is represented by one double,
 * r(s) + U with r(s) the index of s among the distinct values of both
 * worlds: the same order, and a threshold maps back to a value and a draw. */
#include "stats/eps_lb_internal.h"

#include <math.h>
#include <stdlib.h>

/* splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): one 64-bit output per call. */
static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A uniform on (0, 1): the top 53 bits, centred in their cell. */
static double uniform01(uint64_t *s)
{
    return ((double)(splitmix64(s) >> 11) + 0.5) * 0x1p-53;
}

/* The index of x among the ascending distinct values v[0 … nv). */
static size_t index_of(const double *v, size_t nv, double x)
{
    size_t lo = 0, hi = nv; /* v[lo] ≤ x < v[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

ul_status ul_lb_tie_break(ul_lb_untied *t, const double *in, size_t n_in, const double *out,
                          size_t n_out, uint64_t seed, char *err, size_t errlen)
{
    size_t n = n_in + n_out;
    t->values = malloc(n * sizeof *t->values);
    t->in = malloc((n_in ? n_in : 1) * sizeof *t->in);
    t->out = malloc((n_out ? n_out : 1) * sizeof *t->out);
    if (!t->values || !t->in || !t->out) {
        ul_lb_untied_free(t);
        return ul_lb_no_room(err, errlen, "the tie-broken copies", n_in, n_out);
    }
    for (size_t i = 0; i < n; i++)
        t->values[i] = i < n_in ? in[i] : out[i - n_in];
    qsort(t->values, n, sizeof *t->values, ul_lb_cmp_double);
    size_t tied = 0; /* the scores equal to a neighbour in the pooled order */
    for (size_t i = 0; i < n; i++)
        tied += (i > 0 && t->values[i] == t->values[i - 1]) ||
                (i + 1 < n && t->values[i] == t->values[i + 1]);
    t->ties_fraction = n ? (double)tied / (double)n : 0;
    t->nv = 0;
    for (size_t i = 0; i < n; i++)
        if (t->nv == 0 || t->values[i] != t->values[t->nv - 1])
            t->values[t->nv++] = t->values[i];
    uint64_t s = seed;
    for (size_t i = 0; i < n_in; i++)
        t->in[i] = (double)index_of(t->values, t->nv, in[i]) + uniform01(&s);
    for (size_t j = 0; j < n_out; j++)
        t->out[j] = (double)index_of(t->values, t->nv, out[j]) + uniform01(&s);
    return UL_OK;
}

void ul_lb_untied_free(ul_lb_untied *t)
{
    free(t->values), free(t->in), free(t->out);
    t->values = t->in = t->out = NULL;
}

double ul_lb_untie_value(const ul_lb_untied *t, double x, double *u)
{
    *u = NAN;
    if (!isfinite(x))
        return x;
    double r = floor(x);
    if (r < 0)
        return -INFINITY; /* below every score: everything IN */
    if (r >= (double)t->nv)
        return INFINITY; /* above every score: nothing IN */
    *u = x - r;
    return t->values[(size_t)r];
}
