/* src/bounds/pld_estimate.c — ε(δ) of a composition of (subsampled) Gaussian
 * phases estimated in doubles (pld.h ul_pld_epsilon_estimate): no error
 * terms and no enclosures, for searches only.  dpsgd.c's calibrations search
 * on it and then certify once with the engine (ul_pld_delta).
 *
 * Out of memory (num/status.h): the arrays are capped (EST_MAX_BINS per
 * phase, EST_MAX_N for the FFT) but the phases and the grid choose their
 * sizes, hundreds of MB at the caps, so a failed allocation is UL_ENOMEM
 * naming the size, never abort().
 *
 * The mathematics is the certified engine's (pld.c §0–§2) without the
 * budgets:
 *   - per-step pairs: pld.h's dominating pairs, REMOVE L = log(1 − q +
 *     q·e^{rx − r²/2}) with x ~ (1−q)N(0,1) + qN(r,1), ADD the negated loss
 *     with x ~ N(0,1) (Zhu, Dong, Wang 2022; add/remove = max of the two);
 *   - discretisation: "connect the dots" (Doroshenko, Ghazi, Kamath, Kumar,
 *     Manurangsi 2022, PoPETS, §3): a bin's P-mass P_k goes to its two ends,
 *     b_k = (P_k e^h − Q_k e^{ℓ_k})/(e^h − 1) to ℓ_k, the rest to ℓ_{k−1}
 *     (pld.c §1), an error of second order in h;
 *   - composition: the product of the phases' transforms raised to their
 *     step counts (Koskela, Jälkö, Honkela 2020, AISTATS, §3), in x87 long
 *     double, on a window of the composed loss chosen by Chernoff bounds
 *     P[S ≥ x] ≤ e^{−λx}Π M_i(λ)^{T_i} (pld.c §2) so that the wrapped mass
 *     is negligible;
 *   - read-off: δ(ε) = Σ_{ℓ > ε}(1 − e^{ε−ℓ})p(ℓ) + p(+∞) (pld.c §0),
 *     inverted for ε by bisection (δ(ε) decreases in ε).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/pld.h"
#include "bounds/pld_fft.h"
#include "num/status.h"

#define EST_Z 10.0               /* x range: ±10 standard deviations (Q(10) ≈ 7.6e-24) */
#define EST_LOG_TAIL (-45.0)     /* log of the composed mass allowed outside the window */
#define EST_MAX_BINS (1UL << 20) /* per phase */
#define EST_MAX_N (1UL << 22)    /* FFT length */
#define EST_N_AIM 32768.0        /* grid points over the window (and half as many) */

/* Where an out-of-memory failure is reported: the caller's buffer, and
 * UL_ENOMEM once an allocation failed. */
typedef struct {
    char *err;
    size_t errlen;
    ul_status st;
} est_ctx;

/* Records that n `what` could not be allocated; false (for the caller's
 * return). */
static bool est_nomem(est_ctx *cx, const char *what, size_t n)
{
    cx->st = ul_fail(cx->err, cx->errlen, UL_ENOMEM,
                     "pld estimate: out of memory for %s of %zu points", what, n);
    return false;
}

/* ---- one step ----------------------------------------------------------- */

/* Φ(b) − Φ(a), a ≤ b, from the tail on the smaller side (no cancellation). */
static double nmass(double a, double b)
{
    const double s = 0.7071067811865476; /* 1/√2 */
    if (a >= 0)
        return 0.5 * (erfc(a * s) - erfc(b * s));
    if (b <= 0)
        return 0.5 * (erfc(-b * s) - erfc(-a * s));
    return 1 - 0.5 * (erfc(b * s) + erfc(-a * s));
}

/* The REMOVE loss at x: log(1 − q + q·e^z), z = rx − r²/2 (pld.h). */
static double loss_rem(double x, double r, double q)
{
    double z = r * x - 0.5 * r * r;
    return z > 0 ? z + log(q + (1 - q) * exp(-z)) : log1p(q * expm1(z));
}

/* Its inverse: x = r/2 + log((e^ℓ − 1 + q)/q)/r (pld.c §1), −∞ at or below
 * the loss's infimum log(1 − q). */
static double x_rem(double l, double r, double q)
{
    double y = l > 0 ? l - log(q) + log1p((q - 1) * exp(-l)) : log1p(expm1(l) / q);
    return isnan(y) ? -INFINITY : 0.5 * r + y / r;
}

typedef struct {
    double r, q, h;
    bool add;       /* the ADD direction (loss −L_rem, x ~ N(0,1)) */
    long k0;        /* arr[j] sits at the loss (k0 + j)·h */
    size_t n;
    double *arr;
    double p_inf;   /* mass above the grid */
} step;

/* P- and Q-mass of the loss bin (l0, l1]. */
static void bin_masses(const step *s, double l0, double l1, double *P, double *Q)
{
    double xa, xb; /* the x-interval of the bin */
    if (!s->add) {
        xa = x_rem(l0, s->r, s->q), xb = x_rem(l1, s->r, s->q);
    } else {
        xa = x_rem(-l1, s->r, s->q), xb = x_rem(-l0, s->r, s->q);
    }
    double g = nmass(xa, xb), m = (1 - s->q) * g + s->q * nmass(xa - s->r, xb - s->r);
    *P = s->add ? g : m;
    *Q = s->add ? m : g;
}

/* The connect-the-dots split of the bin (ℓ_{k−1}, ℓ_k] onto its ends. */
static void split_bin(step *s, size_t j)
{
    double l1 = (double)(s->k0 + (long)j) * s->h, P, Q;
    bin_masses(s, l1 - s->h, l1, &P, &Q);
    if (!(P > 0))
        return;
    double b = P; /* all at ℓ_k when Q underflowed */
    if (Q > 0) {
        double t = exp(log(Q) - log(P) + l1); /* (Q/P)e^{ℓ_k} ∈ [1, e^h] */
        b = P * (exp(s->h) - t) / expm1(s->h);
        b = b < 0 ? 0 : (b > P ? P : b);
    }
    s->arr[j] += b;
    s->arr[j - 1] += P - b;
}

/* The step's array at grid h; false when it would exceed EST_MAX_BINS, or
 * (cx->st = UL_ENOMEM) when it cannot be allocated. */
static bool step_discretise(step *s, double r, double q, bool add, double h, est_ctx *cx)
{
    memset(s, 0, sizeof *s);
    s->r = r, s->q = q, s->add = add, s->h = h;
    double xlo = -EST_Z, xhi = (add ? 0 : r) + EST_Z;
    double llo = add ? -loss_rem(xhi, r, q) : loss_rem(xlo, r, q);
    double lhi = add ? -loss_rem(xlo, r, q) : loss_rem(xhi, r, q);
    s->k0 = (long)floor(llo / h);
    long k1 = (long)ceil(lhi / h);
    if ((double)(k1 - s->k0) >= (double)EST_MAX_BINS)
        return false;
    s->n = (size_t)(k1 - s->k0 + 1);
    s->arr = calloc(s->n, sizeof *s->arr);
    if (s->arr == NULL) /* ≤ EST_MAX_BINS, 8 MB, per phase: up to 64 phases */
        return est_nomem(cx, "a phase's loss grid", s->n);
    double below = 0, above = 0, l0 = (double)s->k0 * h, lt = (double)k1 * h;
    bin_masses(s, -INFINITY, l0, &below, &above); /* folded onto ℓ_{k0} */
    s->arr[0] = below;
    for (size_t j = 1; j < s->n; j++)
        split_bin(s, j);
    bin_masses(s, lt, INFINITY, &s->p_inf, &above);
    return true;
}

/* log Σ_k p_k e^{λℓ_k} (the discretised step's moment generating function). */
static double step_log_mgf(const step *s, double lambda)
{
    double mx = -INFINITY, sum = 0;
    for (size_t j = 0; j < s->n; j++)
        if (s->arr[j] > 0 && lambda * (double)(s->k0 + (long)j) * s->h > mx)
            mx = lambda * (double)(s->k0 + (long)j) * s->h;
    for (size_t j = 0; j < s->n; j++)
        if (s->arr[j] > 0)
            sum += s->arr[j] * exp(lambda * (double)(s->k0 + (long)j) * s->h - mx);
    return mx + log(sum);
}

/* ---- one direction ----------------------------------------------------------- */

typedef struct {
    step *st;
    const double *steps;
    size_t n;
    double a, b; /* the window of the composed loss */
} comp;

/* Chernoff ends of the window: P[S ≥ b], P[S ≤ a] ≤ e^{EST_LOG_TAIL}. */
static void choose_window(comp *c)
{
    double best_b = INFINITY, best_a = -INFINITY;
    for (int j = -40; j <= 40; j++) {
        double lambda = pow(2.0, 0.25 * j), up = -EST_LOG_TAIL, dn = -EST_LOG_TAIL;
        for (size_t i = 0; i < c->n; i++) {
            up += c->steps[i] * step_log_mgf(&c->st[i], lambda);
            dn += c->steps[i] * step_log_mgf(&c->st[i], -lambda);
        }
        if (up / lambda < best_b)
            best_b = up / lambda;
        if (-dn / lambda > best_a)
            best_a = -dn / lambda;
    }
    c->a = best_a, c->b = best_b;
}

/* z^T by binary powering (complex, long double). */
static void cpow_ul(long double *re, long double *im, unsigned long t)
{
    long double rr = 1, ri = 0, br = *re, bi = *im;
    for (; t > 0; t >>= 1) {
        if (t & 1) {
            long double x = rr * br - ri * bi;
            ri = rr * bi + ri * br, rr = x;
        }
        long double x = br * br - bi * bi;
        bi = 2 * br * bi, br = x;
    }
    *re = rr, *im = ri;
}

/* The composed array on N slots: slot (k mod N) holds the loss index k;
 * false (cx->st = UL_ENOMEM) when its arrays or the FFT's twiddles (N ≤
 * EST_MAX_N, a valid length, so that is the FFT's only failure) cannot be
 * allocated. */
static bool compose(const comp *c, size_t N, long double *acc_re, long double *acc_im,
                    est_ctx *cx)
{
    long double *re = malloc(N * sizeof *re), *im = malloc(N * sizeof *im);
    if (re == NULL || im == NULL) {
        free(re), free(im);
        return est_nomem(cx, "an FFT", N);
    }
    bool ok = true;
    for (size_t i = 0; i < c->n && ok; i++) {
        memset(re, 0, N * sizeof *re);
        memset(im, 0, N * sizeof *im);
        for (size_t j = 0; j < c->st[i].n; j++) {
            long k = (c->st[i].k0 + (long)j) % (long)N;
            re[k < 0 ? k + (long)N : k] += c->st[i].arr[j];
        }
        ok = ul_pld_fft_l(re, im, N, false);
        for (size_t k = 0; k < N && ok; k++) {
            cpow_ul(&re[k], &im[k], (unsigned long)c->steps[i]);
            long double x = i == 0 ? re[k] : acc_re[k] * re[k] - acc_im[k] * im[k];
            acc_im[k] = i == 0 ? im[k] : acc_re[k] * im[k] + acc_im[k] * re[k];
            acc_re[k] = x;
        }
    }
    free(re);
    free(im);
    return ok && ul_pld_fft_l(acc_re, acc_im, N, true) ? true
                                                       : est_nomem(cx, "the FFT's twiddles", N);
}

/* The composed masses in loss order from index A: S0[t] = Σ_{u ≥ t} z_u and
 * W[t] = Σ_{u ≥ t} z_u e^{−(u − t)h}, so that for ℓ_{A+t−1} ≤ ε < ℓ_{A+t}
 * δ(ε) = S0[t] − e^{ε − ℓ_{A+t}}·W[t] (pld.c §0). */
typedef struct {
    long A;
    size_t N;
    double h, p_inf;
    long double *S0, *W;
} readoff;

static double delta_at(const readoff *ro, double eps)
{
    double tt = floor(eps / ro->h) - (double)ro->A + 1;
    size_t t = tt < 0 ? 0 : (tt >= (double)ro->N ? ro->N : (size_t)tt);
    if (t >= ro->N)
        return ro->p_inf;
    double lt = (double)(ro->A + (long)t) * ro->h;
    return (double)(ro->S0[t] - expl((long double)(eps - lt)) * ro->W[t]) + ro->p_inf;
}

/* The suffix sums of the composed array (acc_re: unnormalised, N slots);
 * false (cx->st = UL_ENOMEM) when they cannot be allocated. */
static bool readoff_build(readoff *ro, const long double *acc_re, double e_h, est_ctx *cx)
{
    ro->S0 = malloc((ro->N + 1) * sizeof *ro->S0);
    ro->W = malloc((ro->N + 1) * sizeof *ro->W);
    if (ro->S0 == NULL || ro->W == NULL)
        return est_nomem(cx, "the read-off's sums", ro->N + 1);
    ro->S0[ro->N] = ro->W[ro->N] = 0;
    for (size_t t = ro->N; t-- > 0;) {
        long k = (ro->A + (long)t) % (long)ro->N;
        long double z = acc_re[k < 0 ? k + (long)ro->N : k] / (long double)ro->N;
        z = z > 0 ? z : 0; /* rounding noise */
        ro->S0[t] = ro->S0[t + 1] + z;
        ro->W[t] = z + (long double)e_h * ro->W[t + 1];
    }
    return true;
}

/* ε ≥ 0 with δ(ε) = delta, by bisection. */
static double solve_eps(const readoff *ro, double delta)
{
    if (delta_at(ro, 0) <= delta)
        return 0;
    double lo = 0, hi = (double)(ro->A + (long)ro->N) * ro->h;
    if (delta_at(ro, hi) > delta)
        return INFINITY;
    for (int it = 0; it < 200 && hi - lo > 1e-13 * hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (delta_at(ro, mid) > delta)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* ---- the driver ------------------------------------------------------------------ */

static void steps_free(step *st, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(st[i].arr);
}

/* Every phase discretised at h in one direction; false past EST_MAX_BINS
 * or out of memory (cx->st). */
static bool discretise_all(step *st, const ul_pld_phase_d *ph, size_t n, bool add, double h,
                           est_ctx *cx)
{
    for (size_t i = 0; i < n; i++) {
        if (!step_discretise(&st[i], ph[i].sensitivity / ph[i].sigma, ph[i].q, add, h, cx)) {
            steps_free(st, i);
            return false;
        }
    }
    return true;
}

/* The grid step for a window of width w: EST_N_AIM points over it, coarser
 * when a phase's own range would need more than EST_MAX_BINS / 2 bins. */
static double grid_for(const step *st, size_t n, double w, double points)
{
    double h = w / points;
    for (size_t i = 0; i < n; i++) {
        double range = (double)st[i].n * st[i].h;
        if (range / h > 0.5 * (double)EST_MAX_BINS)
            h = 2 * range / (double)EST_MAX_BINS;
    }
    return h;
}

/* ε(δ) read off the composition of the phases st (discretised at h) on the
 * window of c; NAN when the window needs more than EST_MAX_N points, or
 * out of memory (cx->st). */
static double window_eps(comp *c, double h, double delta, est_ctx *cx)
{
    readoff ro = {(long)floor(c->a / h) - 1, 2, h, 0, NULL, NULL};
    while ((double)ro.N < (c->b - c->a) / h + 3 && ro.N < EST_MAX_N)
        ro.N *= 2;
    if ((double)ro.N < (c->b - c->a) / h + 3)
        return NAN;
    double log_keep = 0, out = NAN;
    for (size_t i = 0; i < c->n; i++)
        log_keep += c->steps[i] * log1p(-c->st[i].p_inf);
    ro.p_inf = -expm1(log_keep); /* 1 − Π(1 − p∞_i)^{T_i} */
    long double *acc_re = malloc(ro.N * sizeof *acc_re), *acc_im = malloc(ro.N * sizeof *acc_im);
    if (acc_re == NULL || acc_im == NULL)
        est_nomem(cx, "the composition", ro.N);
    else if (compose(c, ro.N, acc_re, acc_im, cx) && readoff_build(&ro, acc_re, exp(-h), cx))
        out = solve_eps(&ro, delta);
    free(acc_re);
    free(acc_im);
    free(ro.S0);
    free(ro.W);
    return out;
}

/* ε(δ) of one direction, NAN when the grid would be too large, or out of
 * memory (cx->st = UL_ENOMEM). */
static double direction_eps(const ul_pld_phase_d *ph, size_t n, bool add, double delta,
                            double points, est_ctx *cx)
{
    step *st = calloc(n, sizeof *st);
    double steps[UL_PLD_MAX_MECHANISMS], out = NAN, h = 0.05;
    /* at most UL_PLD_MAX_MECHANISMS phases */
    if (st == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    for (size_t i = 0; i < n; i++)
        steps[i] = (double)ph[i].steps;
    comp c = {st, steps, n, 0, 0};
    /* a coarse pass for the window, then the grid that fills it */
    for (int pass = 0; pass < 2; pass++) {
        if (!discretise_all(st, ph, n, add, h, cx))
            goto done;
        choose_window(&c);
        if (pass == 0) {
            h = grid_for(st, n, c.b - c.a, points);
            steps_free(st, n);
        }
    }
    out = window_eps(&c, h, delta, cx);
    steps_free(st, n);
done:
    free(st);
    return out;
}

/* Whether the phases and δ are in the estimate's domain (pld.h). */
static bool estimate_applies(const ul_pld_phase_d *phases, size_t count, double delta)
{
    if (count < 1 || count > UL_PLD_MAX_MECHANISMS || !(delta > 0 && delta < 1))
        return false;
    for (size_t i = 0; i < count; i++) {
        const ul_pld_phase_d *p = &phases[i];
        if (!(p->sigma > 0 && p->sensitivity > 0 && p->q > 0 && p->q <= 1 && p->steps >= 1 &&
              p->sensitivity / p->sigma <= 1000))
            return false;
    }
    return true;
}

ul_status ul_pld_epsilon_estimate(const ul_pld_phase_d *phases, size_t count, double delta,
                                  double points, double *eps, char *err, size_t errlen)
{
    *eps = NAN;
    if (!estimate_applies(phases, count, delta))
        return UL_OK;
    est_ctx cx = {err, errlen, UL_OK};
    double pts = points > 0 ? points : EST_N_AIM, e[2] = {NAN, NAN};
    for (int add = 0; add < 2 && cx.st == UL_OK; add++) {
        /* Richardson: the connect-the-dots error is of second order in h
         * (pld.c §1), so ε(h) + (ε(h) − ε(2h))/3 removes its leading term */
        double e1 = direction_eps(phases, count, add, delta, pts, &cx);
        double e2 = cx.st == UL_OK ? direction_eps(phases, count, add, delta, 0.5 * pts, &cx) : NAN;
        e[add] = isfinite(e1) && isfinite(e2) && e1 > 0 && e2 > 0 ? e1 + (e1 - e2) / 3 : e1;
    }
    ul_pld_fft_release();
    if (cx.st != UL_OK)
        return cx.st;
    *eps = isnan(e[0]) || isnan(e[1]) ? NAN : fmax(e[0], fmax(e[1], 0));
    return UL_OK;
}

double ul_pld_epsilon_estimate_d(const ul_pld_phase_d *phases, size_t count, double delta,
                                 double points)
{
    double eps = NAN;
    /* out of memory leaves eps at NAN, as a grid too large does */
    (void)ul_pld_epsilon_estimate(phases, count, delta, points, &eps, NULL, 0);
    return eps;
}
