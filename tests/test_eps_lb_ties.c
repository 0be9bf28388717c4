/* tests/test_eps_lb_ties.c — tied scores in the ε lower bounds of
 * stats/eps_lb.h, against independent values: the true ε of randomised
 * response (exact), a brute-force count of tied scores, the input's order,
 * and false-refutation counts over seeds, including the large-n case on
 * which a tie-break by a seeded uniform refuted the truth on every seed. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "num/encl.h"
#include "stats/eps_lb.h"

static void setup(void)
{
    ul_num_init();
}

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(eps_lb_ties, .init = setup, .fini = teardown);

/* xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift
 * generators, scrambled", ACM TOMS 42 (2016)): the data's generator,
 * unrelated to the library's tie-breaking hash. */
static double unif(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return ((double)((*s * 0x2545F4914F6CDD1DULL) >> 11) + 0.5) * 0x1p-53;
}

/* α = 0.05 and δ = 0 as intervals. */
static void levels(mpfi_ptr a, mpfi_ptr d)
{
    mpfi_init2(a, 64);
    mpfi_init2(d, 64);
    mpfi_set_d(a, 0.05);
    mpfi_set_ui(d, 0);
}

/* Randomised response at ε: the score is the bit itself, 1 with
 * probability e^ε/(1 + e^ε) in the IN world and 1/(1 + e^ε) in the OUT
 * world: exactly (ε, 0)-DP and no better, two atoms (every score ties). */
static void rr(double eps, uint64_t seed, double *in, double *out, size_t n)
{
    uint64_t s = seed * 104729 + 17;
    double p = exp(eps) / (1 + exp(eps));
    for (size_t i = 0; i < n; i++) {
        in[i] = unif(&s) < p;
        out[i] = unif(&s) < 1 - p;
    }
}

/* The certified bound of method m at α = 0.05, δ = 0; LEVELS declares L
 * possible values (L is ignored by the other methods). */
static double bound_declared(ul_emp_lb_method m, unsigned long L, const double *in, size_t ni,
                             const double *out, size_t no)
{
    mpfi_t a, d;
    levels(a, d);
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    o.method = m;
    o.levels = m == UL_EMP_LB_LEVELS ? L : 0;
    char err[256] = "";
    double e = ul_emp_eps_lb_value(in, ni, out, no, a, d, &o, err, sizeof err);
    cr_assert(!isnan(e), "%s", err);
    mpfi_clear(a);
    mpfi_clear(d);
    return e;
}

/* The same for 0/1 scores (LEVELS declares 2 values). */
static double bound(ul_emp_lb_method m, const double *in, size_t ni, const double *out, size_t no)
{
    return bound_declared(m, 2, in, ni, out, no);
}

/* ---- an independent single-threshold Clopper–Pearson bound --------------------- */

/* log P[Bin(n, p) ≤ k] by a log-sum-exp over the terms (lgamma). */
static double log_cdf(unsigned long k, unsigned long n, double p)
{
    double mx = -INFINITY, t[20000];
    for (unsigned long i = 0; i <= k; i++) {
        t[i] = lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) + i * log(p) +
               (n - i) * log1p(-p);
        mx = t[i] > mx ? t[i] : mx;
    }
    double s = 0;
    for (unsigned long i = 0; i <= k; i++)
        s += exp(t[i] - mx);
    return mx + log(s);
}

/* The Clopper–Pearson upper bound: the p with P[Bin(n, p) ≤ k] = β
 * (Clopper & Pearson, Biometrika 26 (1934)), by 200 bisection steps. */
static double cp_upper(unsigned long k, unsigned long n, double beta)
{
    if (k >= n)
        return 1;
    double lo = 0, hi = 1;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (log_cdf(k, n, mid) > log(beta))
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* The rule "IN iff score ≥ 0.5" fixed before the data, each rate bounded
 * at beta (α/2 = 0.025 for one test), ε from the two bounds as TF Privacy's
 * `epsilon_clopper_pearson` (and ul_emp_eps_lb_counts, stats/stats.h):
 * max(log((1 − f̄n)/f̄p), log((1 − f̄p)/f̄n)), δ = 0. */
static double cp_single_at(const double *in, size_t ni, const double *out, size_t no, double beta)
{
    unsigned long fp = 0, fn = 0;
    for (size_t i = 0; i < no; i++)
        fp += out[i] >= 0.5;
    for (size_t i = 0; i < ni; i++)
        fn += in[i] < 0.5;
    double f = cp_upper(fp, no, beta), g = cp_upper(fn, ni, beta);
    double e = fmax(log((1 - g) / f), log((1 - f) / g));
    return e > 0 ? e : 0;
}

static double cp_single(const double *in, size_t ni, const double *out, size_t no)
{
    return cp_single_at(in, ni, out, no, 0.025);
}

/* The route for a discrete score today: a threshold fixed before the data
 * (FIXED at 0.5 on 0/1 scores) is certified as the independent
 * Clopper–Pearson computation above gives it (rounded down), on randomised
 * response at ε ∈ {1, 3}, n = 4096 per world. */
Test(eps_lb_ties, fixed_threshold_matches_independent_cp, .timeout = 60)
{
    enum { N = 4096 };
    double *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    const double eps[] = {1, 3};
    for (int e = 0; e < 2; e++) {
        rr(eps[e], 1, in, out, N);
        mpfi_t a, d;
        levels(a, d);
        ul_emp_lb_opts o = ul_emp_lb_defaults();
        o.method = UL_EMP_LB_FIXED;
        o.threshold = 0.5;
        char err[256] = "";
        double f = ul_emp_eps_lb_value(in, N, out, N, a, d, &o, err, sizeof err);
        mpfi_clear(a);
        mpfi_clear(d);
        double cp = cp_single(in, N, out, N);
        cr_assert(cp > 0.5 * eps[e] && cp < eps[e], "the CP reference itself: %g", cp);
        cr_assert(f <= cp * (1 + 1e-9) && f >= cp * (1 - 1e-6), "fixed %.12g vs CP %.12g", f, cp);
    }
    free(in);
    free(out);
}

/* LEVELS on 0/1 scores has one threshold and observed counts: with 2
 * values declared it is the single Clopper–Pearson bound above at α/2;
 * with 3 declared (a valid but loose declaration) it pays two tests, each
 * rate at α/4.  Randomised response at ε ∈ {1, 3}, n = 1000 per world. */
Test(eps_lb_ties, levels_matches_independent_cp, .timeout = 60)
{
    enum { N = 1000 };
    double *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    const double eps[] = {1, 3};
    for (int e = 0; e < 2; e++) {
        rr(eps[e], 3, in, out, N);
        for (unsigned long L = 2; L <= 3; L++) {
            double got = bound_declared(UL_EMP_LB_LEVELS, L, in, N, out, N);
            double cp = cp_single_at(in, N, out, N, 0.05 / (2.0 * (double)(L - 1)));
            cr_assert(cp > 0.5 * eps[e] && cp < eps[e], "the CP reference itself: %g", cp);
            cr_assert(got <= cp * (1 + 1e-9) && got >= cp * (1 - 1e-6),
                      "eps %g, L %lu: levels %.12g vs CP %.12g", eps[e], L, got, cp);
        }
    }
    free(in);
    free(out);
}

/* A declaration the data contradict is refused (no bound under a false
 * hypothesis), and so is one below two values; the message names the field. */
Test(eps_lb_ties, levels_refuses_a_false_declaration)
{
    double in[] = {0, 1, 2, 1}, out[] = {0, 0, 1, 0};
    mpfi_t a, d;
    levels(a, d);
    for (unsigned long L = 0; L <= 3; L++) {
        ul_emp_lb_opts o = ul_emp_lb_defaults();
        o.method = UL_EMP_LB_LEVELS;
        o.levels = L;
        ul_emp_lb_result r;
        ul_emp_lb_init(&r);
        char err[256] = "";
        ul_status st = ul_emp_eps_lb(&r, in, 4, out, 4, a, d, &o, err, sizeof err);
        if (L < 3) { /* the data show 3 distinct values */
            cr_assert_eq(st, UL_EINPUT, "L %lu", L);
            cr_assert(strstr(err, "levels") != NULL, "%s", err);
        } else {
            cr_assert_eq(st, UL_OK, "%s", err);
        }
        ul_emp_lb_clear(&r);
    }
    mpfi_clear(a);
    mpfi_clear(d);
}

/* ---- validity over seeds ---------------------------------------------------------- */

/* Randomised response at ε = 1, n per world, seeds first+1 … first+seeds:
 * each method (JOINT, SUM, FAMILY, LEVELS with 2 values) refutes the true claim ε = 1 on at most
 * `allowed` seeds.  A valid method refutes on a seed with probability ≤ α,
 * so the count is stochastically below Bin(seeds, 0.05). */
static void rr_refutations_within(size_t n, int seeds, uint64_t first, int allowed)
{
    double *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    cr_assert(in && out);
    const ul_emp_lb_method ms[] = {UL_EMP_LB_JOINT, UL_EMP_LB_SUM, UL_EMP_LB_FAMILY,
                                   UL_EMP_LB_LEVELS};
    for (int m = 0; m < 4; m++) {
        int refuted = 0;
        for (uint64_t seed = 1; seed <= (uint64_t)seeds; seed++) {
            rr(1.0, seed + first, in, out, n);
            refuted += bound(ms[m], in, n, out, n) > 1;
        }
        cr_log_info("method %d: %d false refutations of %d", (int)ms[m], refuted, seeds);
        cr_assert(refuted <= allowed, "method %d: %d of %d", (int)ms[m], refuted, seeds);
    }
    free(in);
    free(out);
}

/* n = 4096 per world, 40 seeds: at most 8 (P[Bin(40, 0.05) > 8] ≈ 9e-4).
 * A tie-break by a uniform fixed by a seed and each score's world and rank
 * made SUM certify 1.049 > 1 on all 40 (one realisation of the
 * randomisation for every data set). */
Test(eps_lb_ties, rr_large_n_false_refutations_within_allowance, .timeout = 120)
{
    rr_refutations_within(4096, 40, 5000, 8);
}

/* n = 200 per world, 200 seeds: at most 20 (P[Bin(200, 0.05) > 20] ≈
 * 1.2e-3; the 99.9 % quantile is 20). */
Test(eps_lb_ties, rr_false_refutations_within_allowance, .timeout = 60)
{
    rr_refutations_within(200, 200, 1000, 20);
}

/* A planted discrete pair with five atoms: IN ∝ e^(v/2)·w_v, OUT ∝ w_v
 * on v = 0…4 (w = 1, 2, 3, 2, 1), so the likelihood ratio is e^(v/2)/c
 * and the true ε is max_v |log(ratio)| over both worlds' normalisations:
 * computed here in doubles; no bound may exceed it on more than 20 of 200
 * seeds. */
Test(eps_lb_ties, planted_five_atoms_valid, .timeout = 60)
{
    enum { N = 200, SEEDS = 200, ALLOWED = 20 };
    const double w[5] = {1, 2, 3, 2, 1};
    double pin[5], pout[5], zin = 0, zout = 0, eps = 0;
    for (int v = 0; v < 5; v++)
        zin += w[v] * exp(v / 2.0), zout += w[v];
    for (int v = 0; v < 5; v++) {
        pin[v] = w[v] * exp(v / 2.0) / zin, pout[v] = w[v] / zout;
        eps = fmax(eps, fabs(log(pin[v] / pout[v])));
    }
    double in[N], out[N];
    int refuted[3] = {0, 0, 0};
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        uint64_t s = seed * 7919;
        for (int i = 0; i < 2 * N; i++) {
            double u = unif(&s), acc = 0;
            const double *p = i < N ? pin : pout;
            int v = 0;
            while (v < 4 && u > (acc += p[v]))
                v++;
            (i < N ? in : out)[i % N] = v;
        }
        refuted[0] += bound(UL_EMP_LB_JOINT, in, N, out, N) > eps;
        refuted[1] += bound(UL_EMP_LB_SUM, in, N, out, N) > eps;
        refuted[2] += bound_declared(UL_EMP_LB_LEVELS, 5, in, N, out, N) > eps;
    }
    cr_log_info("five atoms, true eps %.4f: joint %d, sum %d, levels %d false refutations", eps,
                refuted[0], refuted[1], refuted[2]);
    cr_assert(refuted[0] <= ALLOWED && refuted[1] <= ALLOWED && refuted[2] <= ALLOWED);
}

/* ---- order of the input, the ties' share ------------------------------------------ */

static void shuffle(double *x, size_t n, uint64_t s)
{
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(unif(&s) * (double)(i + 1));
        double t = x[i];
        x[i] = x[j], x[j] = t;
    }
}

/* Shuffling the scores within each world changes nothing (the tests sort
 * them): the same bound and threshold. */
Test(eps_lb_ties, invariant_to_input_order)
{
    enum { N = 500 };
    double in[N], out[N];
    rr(1.0, 7, in, out, N);
    const ul_emp_lb_method ms[] = {UL_EMP_LB_JOINT, UL_EMP_LB_SUM, UL_EMP_LB_FAMILY};
    mpfi_t a, d;
    levels(a, d);
    char err[256];
    for (int m = 0; m < 3; m++) {
        ul_emp_lb_opts o = ul_emp_lb_defaults();
        o.method = ms[m];
        ul_emp_lb_result r[2];
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 1) /* Fisher–Yates shuffles of both worlds */
                shuffle(in, N, 99), shuffle(out, N, 101);
            ul_emp_lb_init(&r[pass]);
            cr_assert_eq(ul_emp_eps_lb(&r[pass], in, N, out, N, a, d, &o, err, sizeof err), UL_OK,
                         "%s", err);
        }
        cr_assert(mpfr_equal_p(r[0].eps_lb, r[1].eps_lb), "method %d", m);
        cr_assert(r[0].threshold == r[1].threshold && r[0].fp == r[1].fp && r[0].fn == r[1].fn);
        ul_emp_lb_clear(&r[0]);
        ul_emp_lb_clear(&r[1]);
    }
    mpfi_clear(a);
    mpfi_clear(d);
}

/* ties_fraction against a brute-force count (each score against every
 * other of both worlds), for every method that reports it; 0 without
 * ties. */
Test(eps_lb_ties, ties_fraction_counts_tied_scores)
{
    double in[] = {0.1, 0.5, 0.5, 0.9, 2.0}, out[] = {0.2, 0.5, 0.9, 3.0};
    const size_t ni = 5, no = 4;
    size_t tied = 0;
    for (size_t i = 0; i < ni + no; i++) {
        double v = i < ni ? in[i] : out[i - ni];
        int hit = 0;
        for (size_t j = 0; j < ni + no; j++)
            hit |= j != i && (j < ni ? in[j] : out[j - ni]) == v;
        tied += hit;
    }
    cr_assert_eq(tied, 5); /* 0.5 ×3 and 0.9 ×2 */
    const ul_emp_lb_method ms[] = {UL_EMP_LB_JOINT, UL_EMP_LB_SUM, UL_EMP_LB_FAMILY, UL_EMP_LB_ALL,
                                   UL_EMP_LB_FIXED};
    mpfi_t a, d;
    levels(a, d);
    char err[256];
    for (int m = 0; m < 5; m++) {
        for (int pass = 0; pass < 2; pass++) {
            ul_emp_lb_opts o = ul_emp_lb_defaults();
            o.method = ms[m];
            o.k_max = ms[m] == UL_EMP_LB_SUM ? 2 : -1;
            ul_emp_lb_result r;
            ul_emp_lb_init(&r);
            double out2[] = {0.2, 0.55, 0.95, 3.0}, in2[] = {0.1, 0.5, 0.6, 0.9, 2.0};
            cr_assert_eq(ul_emp_eps_lb(&r, pass ? in2 : in, ni, pass ? out2 : out, no, a, d, &o,
                                       err, sizeof err),
                         UL_OK, "%s", err);
            double want = pass ? 0.0 : (double)tied / (double)(ni + no);
            cr_assert(r.ties_fraction == want, "method %d pass %d: %g", m, pass, r.ties_fraction);
            ul_emp_lb_clear(&r);
        }
    }
    mpfi_clear(a);
    mpfi_clear(d);
}

/* ---- ties broken at random (stats/eps_lb_tiebreak.c) ------------------------------- */

/* The bound of method m with ties broken from seed (0: kept), α = 0.05, δ = 0. */
static double bound_untied(ul_emp_lb_method m, uint64_t seed, const double *in, size_t ni,
                           const double *out, size_t no, ul_emp_lb_result *keep)
{
    mpfi_t a, d;
    levels(a, d);
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    o.method = m;
    o.tie_seed = seed;
    ul_emp_lb_result r;
    ul_emp_lb_init(&r);
    char err[256] = "";
    cr_assert_eq(ul_emp_eps_lb(&r, in, ni, out, no, a, d, &o, err, sizeof err), UL_OK, "%s", err);
    double e = mpfr_get_d(r.eps_lb, MPFR_RNDD);
    if (keep) {
        keep->threshold = r.threshold, keep->tie_u = r.tie_u;
        keep->ties_fraction = r.ties_fraction;
    }
    ul_emp_lb_clear(&r);
    mpfi_clear(a);
    mpfi_clear(d);
    return e;
}

/* Validity with a fresh seed per data set (the randomisation is part of the
 * test): randomised response at ε = 1 (exactly (1, 0)-DP), n = 500 per
 * world, 200 data sets, each with its own seed: JOINT, SUM and FAMILY each
 * refute the true claim on at most 20 (the 99.9 % quantile of Bin(200,
 * 0.05)). */
Test(eps_lb_ties, tie_break_valid_over_fresh_seeds, .timeout = 120)
{
    enum { N = 500, SEEDS = 200, ALLOWED = 20 };
    double in[N], out[N];
    const ul_emp_lb_method ms[] = {UL_EMP_LB_JOINT, UL_EMP_LB_SUM, UL_EMP_LB_FAMILY};
    for (int m = 0; m < 3; m++) {
        int refuted = 0;
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            rr(1.0, seed + 20000, in, out, N);
            refuted += bound_untied(ms[m], 0x5DEECE66DULL * seed + 11, in, N, out, N, NULL) > 1;
        }
        cr_log_info("tie-broken method %d: %d false refutations of %d", (int)ms[m], refuted,
                    SEEDS);
        cr_assert(refuted <= ALLOWED, "method %d: %d of %d", (int)ms[m], refuted, SEEDS);
    }
}

/* What it is for: on 0/1 scores with n = 4096 per world, no count of
 * JOINT's ratio-4 grid falls between the tie blocks (about 1100 OUT scores
 * are 1, the grid jumps from 1024 to 4096), so with ties kept it certifies
 * nothing; with them broken at random a grid count inside the block
 * tests a random part of it, and the bound comes near the true ε = 1.  The
 * reported rule is back on the scores' scale: a value the scores take, a
 * draw in (0, 1), and the ties' share of the scores as given (all tied). */
Test(eps_lb_ties, tie_break_reaches_into_the_block, .timeout = 120)
{
    enum { N = 4096, DRAWS = 4 };
    double *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    double kept = 0, broken = 0;
    for (uint64_t s = 1; s <= DRAWS; s++) {
        rr(1.0, s + 30000, in, out, N);
        kept += bound_untied(UL_EMP_LB_JOINT, 0, in, N, out, N, NULL);
        ul_emp_lb_result r;
        broken += bound_untied(UL_EMP_LB_JOINT, 977 * s + 5, in, N, out, N, &r);
        cr_assert(r.threshold == 0 || r.threshold == 1, "threshold %g", r.threshold);
        cr_assert(r.tie_u > 0 && r.tie_u < 1, "draw %g", r.tie_u);
        cr_assert(r.ties_fraction == 1);
    }
    cr_log_info("joint on 0/1 scores: kept %.4f, broken %.4f", kept / DRAWS, broken / DRAWS);
    cr_assert(kept / DRAWS < 0.1, "ties kept: %g", kept / DRAWS);
    cr_assert(broken / DRAWS > 0.8 && broken / DRAWS < 1, "ties broken: %g", broken / DRAWS);
    free(in);
    free(out);
}

/* A seed reproduces its bound; the methods that read score values (FIXED,
 * SPLIT, LEVELS) refuse a seed, naming it. */
Test(eps_lb_ties, tie_break_reproducible_and_refused_where_meaningless)
{
    enum { N = 300 };
    double in[N], out[N];
    rr(2.0, 77, in, out, N);
    double e1 = bound_untied(UL_EMP_LB_JOINT, 42, in, N, out, N, NULL);
    double e2 = bound_untied(UL_EMP_LB_JOINT, 42, in, N, out, N, NULL);
    cr_assert(e1 == e2 && e1 > 0, "%g vs %g", e1, e2);
    const ul_emp_lb_method ms[] = {UL_EMP_LB_FIXED, UL_EMP_LB_SPLIT, UL_EMP_LB_LEVELS};
    mpfi_t a, d;
    levels(a, d);
    for (int m = 0; m < 3; m++) {
        ul_emp_lb_opts o = ul_emp_lb_defaults();
        o.method = ms[m];
        o.threshold = 0.5, o.levels = 2, o.tie_seed = 42;
        ul_emp_lb_result r;
        ul_emp_lb_init(&r);
        char err[256] = "";
        cr_assert_eq(ul_emp_eps_lb(&r, in, N, out, N, a, d, &o, err, sizeof err), UL_EINPUT);
        cr_assert(strstr(err, "tie_seed") != NULL, "%s", err);
        ul_emp_lb_clear(&r);
    }
    mpfi_clear(a);
    mpfi_clear(d);
}
