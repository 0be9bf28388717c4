/* src/stats/eps_lb_sum.c — SUM (stats/eps_lb.h defines the statistic): one
 * statistic S = Σ_k c_k #{IN > t_(k)} over the K largest OUT scores, its
 * p-value bounded by Hoeffding's and the convex-order bound under the exact
 * law of L = Σ_k c_k U_(k+1) (Rényi's representation), searched in doubles
 * and certified in MPFR/MPFI.
 *
 * Theorem (proved here; used at level α, or α/2 per direction
 * when two-sided).  Let the OUT scores Y_1…Y_n0 and the IN
 * scores X_1…X_n1 be independent, i.i.d. within each world, and
 * P_in(E) ≤ e^ε P_out(E) + δ for every event E.  Let E_1 … E_(n0+1)
 * be i.i.d. Exp(1), d_j = Σ_{k ≥ j} c_k (j = 0…K−1) and
 *     L = Σ_j d_j E_(j+1) / (E_1 + … + E_(n0+1)).
 * Then for every s, with x = s/(n1·C), B_p ~ Bin(n1, p) and
 *     g(p) = min( H(x; p), min_{integer h < n1 x} E(B_p − h)_+ /
 *                                              (n1 x − h) ),
 * H(x; p) = exp(−n1·KL(x‖p)) for p < x and 1 otherwise (KL the
 * Bernoulli divergence),
 *     P[S ≥ s] ≤ E[ g(min(1, e^ε L/C + δ)) ].
 * Proof.  (i) Quantile coupling: with G(t) = P[Y > t] (right-
 * continuous, non-increasing) and Q(v) = inf{t : G(t) ≤ v},
 * Y = Q(V) for V uniform has the law of Y (Q(v) > t iff G(t) > v),
 * and G(Q(v)) ≤ v.  Q is non-increasing, so with Y_i = Q(V_i)
 * the (k+1)-th largest Y is Q(V_(k+1)) and G(t_(k)) ≤ V_(k+1) for
 * every k at once (ties and atoms allowed).  (ii) Given the OUT
 * scores, the IN terms Z_i = Σ_k c_k 1[X_i > t_(k)] ∈ [0, C] are
 * i.i.d. with E[Z_i] = Σ_k c_k P_in(X > t_(k)) ≤ Σ_k c_k (e^ε
 * G(t_(k)) + δ) ≤ e^ε Σ_k c_k V_(k+1) + δC.  Hoeffding's inequality
 * (W. Hoeffding, "Probability inequalities for sums of bounded
 * random variables", JASA 58 (1963), Theorem 1, eq. (2.1); its
 * bound grows with the mean when p < x) bounds P[S ≥ s | OUT] by
 * H(x; ·) at that mean.  The convex-order bound (the form of
 * V. Bentkus, "On Hoeffding's inequalities", Ann. Probab. 32
 * (2004)): a variable Y ∈ [0, 1] is below the Bernoulli of its mean
 * in convex order (Y = E[B | Y] with B ~ Bernoulli(Y)), the order is
 * kept by sums of independent terms (Shaked & Shanthikumar,
 * Stochastic Orders, 2007, Thm 3.A.12), and Bin(n1, μ) ≤ Bin(n1, p)
 * stochastically for μ ≤ p; (y − h)_+ is convex and increasing, so
 * E(S/C − h)_+ ≤ E(B_p − h)_+ and Markov's inequality gives
 * P[S ≥ s] ≤ E(B_p − h)_+/(n1 x − h) for every h < n1 x (h is
 * picked near the Chernoff tangent point; any h is valid).  Both
 * bounds increase in p.  (iii) Rényi's
 * representation (A. Rényi, "On the theory of order statistics",
 * Acta Math. Acad. Sci. Hung. 4 (1953); David & Nagaraja, Order
 * Statistics, 3rd ed., §2.5): (V_(1), …, V_(n0)) has the law of
 * (Γ_1, …, Γ_n0)/Γ_(n0+1), Γ_i = E_1 + … + E_i, so Σ_k c_k V_(k+1)
 * has the law of L (exchange the sums).  Take expectations.  ∎
 * The law of L is exact: with a_j = d_j − ℓ > 0 (ℓ < c_(K−1)) and
 * m = n0 + 1 − K, L > ℓ iff Σ_j a_j E_(j+1) > ℓ·Γ', Γ' ~
 * Gamma(m, 1) independent; the hypoexponential survival function
 * P[Σ a_j E_(j+1) > w] = Σ_j Π_{i≠j} a_j/(a_j − a_i) e^(−w/a_j)
 * (distinct a_j; e.g. Ross, Introduction to Probability Models,
 * §5.2.4) and E e^(−ℓΓ'/a_j) = (1 + ℓ/a_j)^(−m) give
 *     P[L > ℓ] = Σ_j Π_{i≠j} a_j/(a_j − a_i) · (1 + ℓ/a_j)^(−m),
 * evaluated in MPFI (ul_emp_sum_tail_upper).  The expectation is
 * bounded by the upper Riemann–Stieltjes sum on a grid ℓ_0 < … <
 * ℓ_(J−1) (any grid; here steps of 0.5 % up to the first ℓ whose
 * tail is below 1e-10): E g(L) ≤ g_0 + Σ_j (g_j − g_(j−1)) P[L >
 * ℓ_(j−1)] + (1 − g_(J−1)) P[L > ℓ_(J−1)] for non-decreasing g ≤ 1.
 * The bound increases in ε; the largest ε whose bound is ≤ the
 * level is searched in doubles and certified once (MPFR/MPFI,
 * upward rounding; E(B − h)_+ = n1 p P[Bin(n1 − 1, p) ≥ h] −
 * h P[Bin(n1, p) ≥ h + 1] from certified binomial tails).  Why
 * it gains: the best single tests sit at the random maximum of
 * the OUT scores, whose false rate V_(1) is
 * certified only up to a factor ≈ ln(1/β); the weighted sum of K
 * order statistics has relative spread O(1/√K).
 */
#include "stats/eps_lb_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/special_d.h"
#include "stats/stats.h"

/* ---- the weighted sum over order statistics (SUM; the theorem above) ------------ */

#define SUM_K_MAX UL_EMP_SUM_K_MAX /* stats/eps_lb.h */
#define SUM_K_DEFAULT 5    /* bench_eps_lb_weights: K = 4…8 within 0.01 of the best at μ = 2 */
#define SUM_GRID 1200      /* the grid of ℓ for the Riemann–Stieltjes sum: steps of 0.5 % */
#define SUM_LO 0.05        /* it runs from SUM_LO·E[L] … */
#define SUM_HI 30.0        /* … to SUM_HI·E[L] (the tail there: below e^-30 for every K) */
#define SUM_TAIL_END 1e-10 /* or to the first ℓ whose tail is below this */
/* The search's halvings: to 64·2^-33 ≈ 7.5e-9, the resolution of the former
 * two-pass search.  A finer one can land closer to the double root than the
 * doubles' own error, and ul_lb_certify_eps then has to lower ε by 1e-6 (40
 * halvings: 1 of 612 fixed runs; 33: none). */
#define SUM_HALVINGS 33

/* The design of one direction: it depends on (K, n0) only. */
typedef struct {
    size_t K;                   /* thresholds t_(0) … t_(K−1) */
    unsigned long c[SUM_K_MAX]; /* weights c_k = lcm(1…K)/(k + 1) */
    double C;                   /* Σ c_k (an exact integer) */
    unsigned long n0;           /* the thresholds' world */
    size_t J;
    double l[SUM_GRID], T[SUM_GRID]; /* T_j ≥ P[L > l_j], certified */
} sum_design;

/* One direction's test: its design, the counted world's size, the statistic. */
typedef struct {
    const sum_design *D;
    unsigned long n1;
    unsigned long long s;
} sum_test;

/* K of the options: k_max + 1 when k_max ≥ 0, else the default; at most n0. */
static size_t sum_k(const ul_emp_lb_opts *o, unsigned long n0)
{
    size_t K = o->k_max >= 0 ? (size_t)o->k_max + 1 : SUM_K_DEFAULT;
    return K < n0 ? K : (size_t)n0;
}

static unsigned long gcd_ul(unsigned long a, unsigned long b)
{
    while (b) {
        unsigned long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* c_k = lcm(1…K)/(k + 1): weights ∝ 1/(k + 1), exact integers. */
static void sum_weights(size_t K, unsigned long *c)
{
    unsigned long l = 1;
    for (unsigned long k = 2; k <= K; k++)
        l = l / gcd_ul(l, k) * k;
    for (size_t k = 0; k < K; k++)
        c[k] = l / (k + 1);
}

/* The exact tail of L = Σ_k c_k U_(k+1) (the theorem above): with d_j =
 * Σ_{k≥j} c_k, a_j = d_j − ℓ > 0 and m = n0 + 1 − K,
 *     P[L > ℓ] = Σ_j Π_{i≠j} a_j/(a_j − a_i) · (1 + ℓ/a_j)^(−m)
 * (Rényi's representation and the hypoexponential survival function), in
 * MPFI at 256 bits; a_j − a_i = d_j − d_i is an exact integer. */
double ul_emp_sum_tail_upper(const unsigned long *c, size_t K, unsigned long n0, double ell)
{
    if (K == 0 || K > n0 || K > SUM_K_MAX || !(ell > 0))
        return 1;
    double d[SUM_K_MAX], acc_d = 0;
    for (size_t j = K; j-- > 0;)
        d[j] = acc_d += (double)c[j];
    if (ell >= d[K - 1]) /* some a_j ≤ 0: the formula above does not apply */
        return 1;
    mpfi_t v[4];
    for (int i = 0; i < 4; i++)
        mpfi_init2(v[i], 256);
    mpfi_ptr a = v[0], t = v[1], u = v[2], acc = v[3];
    mpfi_set_ui(acc, 0);
    for (size_t j = 0; j < K; j++) {
        mpfi_set_d(a, d[j]);
        mpfi_sub_d(a, a, ell);
        mpfi_set_ui(t, 1);
        for (size_t i = 0; i < K; i++)
            if (i != j) {
                mpfi_div_d(u, a, d[j] - d[i]); /* exact integer divisor */
                mpfi_mul(t, t, u);
            }
        mpfi_d_div(u, ell, a);
        mpfi_log1p(u, u);
        mpfi_mul_ui(u, u, n0 + 1 - K);
        mpfi_neg(u, u);
        mpfi_exp(u, u);
        mpfi_mul(t, t, u);
        mpfi_add(acc, acc, t);
    }
    double r = mpfr_get_d(&acc->right, MPFR_RNDU);
    for (int i = 0; i < 4; i++)
        mpfi_clear(v[i]);
    return isnan(r) || r > 1 ? 1 : r < 0 ? 0 : r;
}

/* The design: weights, and the certified tails of L on a grid of ℓ,
 * geometric from SUM_LO·E[L] to SUM_HI·E[L] (E[U_(k+1)] = (k+1)/(n0+1)),
 * kept below d_(K−1) = c_(K−1) (where the tail formula holds). */
static void sum_design_init(sum_design *D, size_t K, unsigned long n0)
{
    D->K = K, D->n0 = n0, D->C = 0;
    sum_weights(K, D->c);
    double mean = 0;
    for (size_t k = 0; k < K; k++) {
        D->C += (double)D->c[k];
        mean += (double)D->c[k] * (double)(k + 1) / ((double)n0 + 1);
    }
    double lo = SUM_LO * mean, hi = fmin(SUM_HI * mean, 0.999 * (double)D->c[K - 1]);
    D->J = 0;
    for (size_t j = 0; j < SUM_GRID && lo < hi; j++) {
        D->l[D->J] = lo * pow(hi / lo, (double)j / (SUM_GRID - 1));
        D->T[D->J] = ul_emp_sum_tail_upper(D->c, K, n0, D->l[D->J]);
        if (D->T[D->J++] < SUM_TAIL_END) /* the rest adds at most this to the p-value */
            break;
    }
}

/* The design of (K, n0), kept per thread for the next calls: its tails
 * (SUM_GRID MPFI evaluations) cost about 80 ms at K = 5 and 330 ms at
 * K = 16, more than a search and certification (1–130 ms), and repeated
 * calls at one size (benchmarks, tests over many seeds) reuse it.  The two
 * most recently used designs are kept, so the two of one call (forward and
 * reversed) never evict each other. */
static const sum_design *sum_design_of(size_t K, unsigned long n0)
{
    static _Thread_local sum_design cache[2];
    static _Thread_local int lru; /* the slot to replace next */
    int i = 0;
    while (i < 2 && !(cache[i].K == K && cache[i].n0 == n0))
        i++;
    if (i == 2) {
        i = lru;
        sum_design_init(&cache[i], K, n0);
    }
    lru = i ^ 1;
    return &cache[i];
}

/* S = Σ_k c_k #{i : a_i > t_(k)}, t_(k) the (k+1)-th largest of b
 * (ascending arrays a of n1, b of D->n0 scores). */
static unsigned long long sum_stat(const sum_design *D, const double *a, size_t n1, const double *b)
{
    unsigned long long s = 0;
    size_t idx = n1; /* a[idx…] > t */
    for (size_t k = 0; k < D->K; k++) {
        double t = b[D->n0 - 1 - k];
        while (idx > 0 && a[idx - 1] > t)
            idx--;
        s += (unsigned long long)D->c[k] * (n1 - idx);
    }
    return s;
}

/* Hoeffding's bound in doubles: exp(−n1·KL(x‖p)) for p < x, else 1. */
static double sum_h_d(double x, unsigned long n1, double p)
{
    if (p >= x)
        return 1;
    double kl = x * log(x / p) + (x < 1 ? (1 - x) * log((1 - x) / (1 - p)) : 0);
    return exp(-(double)n1 * kl);
}

/* E(B − h)_+ for B ~ Bin(n, p), integer h ≥ 0: Σ_{b>h} (b − h) P[B = b] =
 * n p P[Bin(n − 1, p) ≥ h] − h P[Bin(n, p) ≥ h + 1] (b·C(n, b) = n·C(n − 1,
 * b − 1)). */
static double excess_d(unsigned long h, unsigned long n, double p)
{
    return (double)n * p * ul_emp_binom_sf_d(h, n - 1, p) -
           (double)h * ul_emp_binom_sf_d(h + 1, n, p);
}

/* The convex-order bound (the theorem above, (ii)) in doubles at the count
 * xs = s/C: min over integers h < xs near the Chernoff tangent point
 * xs − 1/λ* of E(B − h)_+/(xs − h); 1 when p ≥ xs/n.  *h_out: the best h. */
static double conv_d(double xs, unsigned long n, double p, unsigned long *h_out)
{
    double f = xs / (double)n;
    *h_out = 0;
    if (n < 2 || p >= f || p <= 0)
        return 1;
    double lam = f < 1 ? log(f * (1 - p) / (p * (1 - f))) : INFINITY;
    double top = ceil(xs) - 1, h0 = floor(xs - 1 / lam), best = 1;
    for (double h = fmax(0, h0 - 2); h <= fmin(top, h0 + 2); h++) {
        double r = excess_d((unsigned long)h, n, p) / (xs - h);
        if (r < best)
            best = r, *h_out = (unsigned long)h;
    }
    return best;
}

/* g(ℓ) in doubles: the smaller of Hoeffding's bound and the convex one. */
static double sum_g_d(double x, unsigned long n1, double p)
{
    unsigned long h;
    double hb = sum_h_d(x, n1, p); /* below 1e-12 the convex bound cannot matter here */
    return hb < 1e-12 ? hb : fmin(hb, conv_d(x * (double)n1, n1, p, &h));
}

/* The p-value bound of the theorem above in doubles, the search's
 * p-value (ul_lb_search_eps_d; test is a sum_test): the upper Riemann–Stieltjes
 * sum of E[g(L)], g(ℓ) at p = e^ε ℓ/C + δ; the sum stops once it exceeds
 * `stop`, the level (its terms are ≥ 0: only "≤ level?" is asked). */
static double sum_p_d(const void *test, double eps, double delta, double stop)
{
    const sum_test *t = test;
    const sum_design *D = t->D;
    double x = (double)t->s / ((double)t->n1 * D->C), ee = exp(eps);
    double prev = sum_g_d(x, t->n1, ee * D->l[0] / D->C + delta), acc = prev;
    for (size_t j = 1; j < D->J && acc <= stop; j++) {
        double g = fmax(prev, sum_g_d(x, t->n1, ee * D->l[j] / D->C + delta));
        acc += (g - prev) * D->T[j - 1];
        prev = g;
    }
    return acc + (1 - prev) * D->T[D->J - 1];
}

/* g ≥ Hoeffding's bound exp(−n1·KL(x‖p̄)), x = s/(n1·C), certified: KL
 * enclosed in MPFI and taken at its lower end, exp rounded up; 1 when
 * p̄ ≥ x. */
static void hoeffding_upper(mpfr_ptr g, const sum_test *st, mpfr_srcptr pb)
{
    double n1C = (double)st->n1 * st->D->C;
    mpfr_t t;
    mpfi_t v[4];
    mpfr_init2(t, 128);
    for (int i = 0; i < 4; i++)
        mpfi_init2(v[i], 128);
    mpfi_ptr x = v[0], kl = v[1], u = v[2], q = v[3];
    mpfi_set_d(x, (double)st->s); /* s < 2^53: exact */
    mpfi_div_d(x, x, n1C);
    mpfr_set_ui(g, 1, MPFR_RNDU);
    if (mpfr_cmp(pb, &x->left) < 0) {
        mpfi_set_fr(q, pb);
        mpfi_div(kl, x, q); /* x·log(x/p̄) */
        mpfi_log(kl, kl);
        mpfi_mul(kl, kl, x);
        if ((double)st->s < n1C) { /* + (1 − x)·log((1 − x)/(1 − p̄)) */
            mpfi_ui_sub(u, 1, x);
            mpfi_ui_sub(q, 1, q);
            mpfi_div(q, u, q);
            mpfi_log(q, q);
            mpfi_mul(u, u, q);
            mpfi_add(kl, kl, u);
        }
        mpfr_mul_ui(t, &kl->left, st->n1, MPFR_RNDD);
        mpfr_neg(t, t, MPFR_RNDU);
        mpfr_exp(g, t, MPFR_RNDU);
        if (!(mpfr_cmp_ui(g, 1) <= 0))
            mpfr_set_ui(g, 1, MPFR_RNDU);
    }
    mpfr_clear(t);
    for (int i = 0; i < 4; i++)
        mpfi_clear(v[i]);
}

/* g ≥ the convex-order bound E(B − h)_+/(xs − h), B ~ Bin(n1, p̄), xs =
 * s/C, at the h the double search picks (any integer h < xs is valid):
 * n1 p̄ P[Bin(n1 − 1, p̄) ≥ h] rounded up minus h P[Bin(n1, p̄) ≥ h + 1]
 * rounded down, over xs − h rounded down (MPFR binomial tails, stats/stats.h).
 * g is left alone when the bound is not smaller or a tail fails. */
static void conv_upper(mpfr_ptr g, const sum_test *st, mpfr_srcptr pb)
{
    unsigned long h, n = st->n1;
    double xs = (double)st->s / st->D->C; /* for the choice of h only */
    double cd = conv_d(xs, n, mpfr_get_d(pb, MPFR_RNDU), &h);
    /* the MPFR tails only where they can lower g: the double value of the
     * same bound is far above g when they cannot (a skip only keeps g higher,
     * so it is sound; the margin covers the double's rounding) */
    if (cd >= 1 || cd >= mpfr_get_d(g, MPFR_RNDU) * (1 + 1e-9))
        return;
    mpfi_t t;
    mpfr_t num, den;
    mpfi_init2(t, 128);
    mpfr_inits2(128, num, den, (mpfr_ptr)0);
    char e[128];
    if (ul_emp_binom_sf(t, h, n - 1, pb, e, sizeof e) == UL_OK) {
        mpfr_mul(num, &t->right, pb, MPFR_RNDU);
        mpfr_mul_ui(num, num, n, MPFR_RNDU);
        if (ul_emp_binom_sf(t, h + 1, n, pb, e, sizeof e) == UL_OK) {
            mpfr_mul_ui(den, &t->left, h, MPFR_RNDD);
            mpfr_sub(num, num, den, MPFR_RNDU);
            mpfr_set_d(den, (double)st->s, MPFR_RNDD); /* exact */
            mpfr_div_d(den, den, st->D->C, MPFR_RNDD);
            mpfr_sub_ui(den, den, h, MPFR_RNDD);
            if (mpfr_sgn(den) > 0) {
                mpfr_div(num, num, den, MPFR_RNDU);
                if (mpfr_less_p(num, g))
                    mpfr_set(g, num, MPFR_RNDU);
            }
        }
    }
    mpfi_clear(t);
    mpfr_clears(num, den, (mpfr_ptr)0);
}

/* g(ℓ) certified: p̄ = e^ε ℓ/C + δ rounded up to a double (both bounds
 * grow with p), then the smaller of the two bounds. */
static void sum_h_upper(mpfr_ptr g, const sum_test *t, mpfr_srcptr eps, double ell,
                        mpfi_srcptr delta)
{
    mpfr_t pb;
    mpfr_init2(pb, 53);
    mpfr_exp(pb, eps, MPFR_RNDU);
    mpfr_mul_d(pb, pb, ell, MPFR_RNDU);
    mpfr_div_d(pb, pb, t->D->C, MPFR_RNDU);
    mpfr_add(pb, pb, &delta->right, MPFR_RNDU);
    hoeffding_upper(g, t, pb);
    if (mpfr_cmp_ui(pb, 1) < 0)
        conv_upper(g, t, pb);
    mpfr_clear(pb);
}

/* The p-value bound at ε, certified: g_0 + Σ_j (g_j − g_(j−1))·T_(j−1) +
 * (1 − g_(J−1))·T_(J−1) with the g_j made nondecreasing (still upper bounds
 * of a nondecreasing g), every step rounded up. */
static void sum_p_upper(mpfr_ptr out, const sum_test *t, mpfr_srcptr eps, mpfi_srcptr delta)
{
    const sum_design *D = t->D;
    mpfr_t prev, g, d;
    mpfr_inits2(128, prev, g, d, (mpfr_ptr)0);
    sum_h_upper(prev, t, eps, D->l[0], delta);
    mpfr_set(out, prev, MPFR_RNDU);
    for (size_t j = 1; j < D->J; j++) {
        sum_h_upper(g, t, eps, D->l[j], delta);
        mpfr_max(g, g, prev, MPFR_RNDU);
        mpfr_sub(d, g, prev, MPFR_RNDU);
        mpfr_mul_d(d, d, D->T[j - 1], MPFR_RNDU);
        mpfr_add(out, out, d, MPFR_RNDU);
        mpfr_set(prev, g, MPFR_RNDU);
    }
    mpfr_ui_sub(d, 1, prev, MPFR_RNDU);
    mpfr_mul_d(d, d, D->T[D->J - 1], MPFR_RNDU);
    mpfr_add(out, out, d, MPFR_RNDU);
    mpfr_clears(prev, g, d, (mpfr_ptr)0);
}

static ul_status sum_pvalue(mpfr_ptr p, const void *test, mpfr_srcptr eps, mpfi_srcptr delta,
                            char *err, size_t errlen)
{
    (void)err, (void)errlen;
    sum_p_upper(p, test, eps, delta);
    return UL_OK;
}

/* Certifies the double estimate est of the test (ul_lb_certify_eps, 6 tries,
 * 128 bits; sum_p_upper cannot fail). */
static void sum_certify(mpfr_ptr e, const sum_test *t, double est, mpfi_srcptr level,
                        mpfi_srcptr delta)
{
    ul_lb_certify_eps(e, sum_pvalue, t, est, 6, 128, level, delta, NULL, 0);
}

/* One direction of SUM: thresholds at the order statistics of b (n0,
 * ascending), counts of a (n1, ascending); the test and its estimate. */
static sum_test sum_direction(const double *a, size_t n1, const double *b, size_t n0,
                              const ul_emp_lb_opts *o, double delta, double level, double *est)
{
    sum_test t = {sum_design_of(sum_k(o, n0), n0), n1, 0};
    t.s = sum_stat(t.D, a, n1, b);
    bool none = t.s == 0 || t.D->J == 0; /* no IN score above a threshold, or no grid */
    *est = none ? 0 : ul_lb_search_eps_d(sum_p_d, &t, delta, level, SUM_HALVINGS);
    return t;
}

/* The reversed direction: OUT below the IN order statistics = the forward
 * test on the negated scores, the worlds swapped. */
static ul_status sum_reversed(sum_test *t, const double *a, size_t n_in, const double *b,
                              size_t n_out, const ul_emp_lb_opts *o, double delta, double level,
                              double *est, char *err, size_t errlen)
{
    double *na = malloc((n_out ? n_out : 1) * sizeof *na);
    double *nb = malloc((n_in ? n_in : 1) * sizeof *nb);
    if (!na || !nb) {
        free(na), free(nb);
        return ul_lb_no_room(err, errlen, "the negated scores", n_in, n_out);
    }
    for (size_t i = 0; i < n_out; i++)
        na[i] = -b[n_out - 1 - i];
    for (size_t i = 0; i < n_in; i++)
        nb[i] = -a[n_in - 1 - i];
    *t = sum_direction(na, n_out, nb, n_in, o, delta, level, est);
    free(na), free(nb);
    return UL_OK;
}

ul_status ul_lb_run_sum(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                        size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta, const ul_emp_lb_opts *o,
                        char *err, size_t errlen)
{
    unsigned long m = o->one_sided ? 1 : 2;
    double dd = mpfr_get_d(&delta->right, MPFR_RNDU), lev_d = ul_lb_beta_d(alpha, (double)m);
    double est[2] = {0, 0};
    sum_test t[2];
    t[0] = sum_direction(a, n_in, b, n_out, o, dd, lev_d, &est[0]);
    if (!o->one_sided) {
        ul_status st = sum_reversed(&t[1], a, n_in, b, n_out, o, dd, lev_d, &est[1], err, errlen);
        if (st != UL_OK)
            return st;
    }
    int w = est[1] > est[0];
    mpfi_t lev;
    mpfi_init2(lev, mpfi_get_prec(alpha) + 32);
    mpfi_div_ui(lev, alpha, m);
    mpfr_t e;
    mpfr_init2(e, 64);
    sum_certify(e, &t[w], est[w], lev, delta);
    size_t K = t[w].D->K;
    ul_lb_candidate c = w == 0 ? ul_lb_forward_test(a, n_in, b, n_out, K - 1)
                               : ul_lb_reversed_test(a, n_in, b, n_out, K - 1);
    c.est = est[w];
    ul_lb_record(res, &c, e, n_in, n_out);
    res->m = res->divisor = m;
    for (unsigned long d = 0; d < m; d++) { /* the weights of each direction, as used */
        res->sum_K[d] = t[d].D->K;
        memcpy(res->sum_c[d], t[d].D->c, t[d].D->K * sizeof t[d].D->c[0]);
    }
    mpfr_clear(e);
    mpfi_clear(lev);
    return UL_OK;
}
