/* tests/sweep_oracle_a.c — references for the boundary sweep; see
 * sweep_oracle_a.h.  Nothing here includes a header of src/. */
#include "sweep_oracle_a.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "renyi_oracle.h"

/* ---- generator ------------------------------------------------------------- */

void swa_rng_seed(swa_rng *r, uint64_t seed)
{
    r->s = seed != 0 ? seed : 0x9E3779B97F4A7C15ull;
}

/* xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift
 * generators, scrambled", ACM TOMS 2016): 53 high bits as a double in [0, 1). */
static double next01(swa_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    uint64_t x = r->s * 0x2545F4914F6CDD1Dull;
    return (double)(x >> 11) * 0x1.0p-53;
}

double swa_uniform(swa_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * next01(r);
}

double swa_log_uniform(swa_rng *r, double lo, double hi)
{
    return exp(swa_uniform(r, log(lo), log(hi)));
}

unsigned long swa_log_int(swa_rng *r, unsigned long lo, unsigned long hi)
{
    double x = floor(swa_log_uniform(r, (double)lo, (double)hi + 1));
    unsigned long v = (unsigned long)x;
    return v < lo ? lo : v > hi ? hi : v;
}

/* ---- decimal text ---------------------------------------------------------- */

void swa_dec(char *buf, size_t len, double x, int digits)
{
    snprintf(buf, len, "%.*g", digits, x);
}

void swa_dec_scaled(char *buf, size_t len, mpfr_srcptr x, double rel)
{
    mpfr_t y, f;
    mpfr_inits2(SWA_BITS, y, f, (mpfr_ptr)0);
    mpfr_set_d(f, rel, MPFR_RNDN);
    mpfr_add_ui(f, f, 1, MPFR_RNDN);
    mpfr_mul(y, x, f, MPFR_RNDN);
    mpfr_snprintf(buf, len, "%.29Re", y);
    mpfr_clears(y, f, (mpfr_ptr)0);
}

int swa_dec_exact(char *buf, size_t len, mpq_srcptr x)
{
    mpz_t d, n, two, five;
    mpz_inits(d, n, (mpz_ptr)0);
    mpz_init_set_ui(two, 2);
    mpz_init_set_ui(five, 5);
    mpz_set(d, mpq_denref(x));
    unsigned long twos = mpz_remove(d, d, two);
    unsigned long fives = mpz_remove(d, d, five);
    int ok = mpz_cmp_ui(d, 1) == 0;
    if (ok) {
        unsigned long k = twos > fives ? twos : fives;
        mpz_ui_pow_ui(n, 10, k);
        mpz_mul(n, n, mpq_numref(x));
        mpz_divexact(n, n, mpq_denref(x));
        ok = gmp_snprintf(buf, len, "%Zde-%lu", n, k) < (int)len;
    }
    mpz_clears(d, n, two, five, (mpz_ptr)0);
    return ok;
}

/* ---- Gaussian mechanism ------------------------------------------------------ */

#define WIDE (ORACLE_BITS + 256)

static void set_dec(mpfr_ptr x, const char *text)
{
    mpfr_set_str(x, text, 10, MPFR_RNDN);
}

/* r² = T·Δ²/σ², or Σ_i (Δ_i/σ_i)² over the releases of the lists. */
static void gauss_r2(mpfr_ptr r2, const swa_gauss *g)
{
    size_t k = g->n_sens > g->n_sigma ? g->n_sens : g->n_sigma;
    mpfr_t s, t;
    mpfr_inits2(WIDE, s, t, (mpfr_ptr)0);
    mpfr_set_zero(r2, 1);
    for (size_t i = 0; i < k; i++) {
        set_dec(s, g->sens[g->n_sens > 1 ? i : 0]);
        set_dec(t, g->sigma[g->n_sigma > 1 ? i : 0]);
        mpfr_div(s, s, t, MPFR_RNDN);
        mpfr_sqr(s, s, MPFR_RNDN);
        mpfr_add(r2, r2, s, MPFR_RNDN);
    }
    if (k == 1)
        mpfr_mul_ui(r2, r2, g->T, MPFR_RNDN);
    mpfr_clears(s, t, (mpfr_ptr)0);
}

void swa_gauss_log_delta(mpfr_ptr out, const char *eps, const swa_gauss *g)
{
    mpfr_t r, e;
    mpfr_inits2(WIDE, r, e, (mpfr_ptr)0);
    gauss_r2(r, g);
    mpfr_sqrt(r, r, MPFR_RNDN);
    set_dec(e, eps);
    oracle_log_theta(out, e, r);
    mpfr_clears(r, e, (mpfr_ptr)0);
}

void swa_gauss_renyi(mpfr_ptr out, const char *alpha, const swa_gauss *g)
{
    mpfr_t r, a;
    mpfr_inits2(WIDE, r, a, (mpfr_ptr)0);
    gauss_r2(r, g);
    set_dec(a, alpha);
    mpfr_mul(r, r, a, MPFR_RNDN);
    mpfr_div_2ui(out, r, 1, MPFR_RNDN);
    mpfr_clears(r, a, (mpfr_ptr)0);
}

/* ---- RDP → (ε, δ) -------------------------------------------------------------- */

/* One point.  Mironov 2017 Prop. 3: ε = ρ + log(1/δ)/(α − 1).  Balle et al.
 * 2020 Thm 21: ε = ρ + log((α − 1)/α) − (log δ + log α)/(α − 1), clamped at
 * 0, and 0 when δ ≥ √(1 − e^{−ρ}) (dp_accounting rdp_privacy_accountant
 * _compute_epsilon, v0.6.0). */
static void point_eps(mpfr_ptr out, const char *alpha, const char *rdp, mpfr_srcptr logd,
                      swa_conv conv)
{
    mpfr_t a, r, t, u;
    mpfr_inits2(SWA_BITS + 64, a, r, t, u, (mpfr_ptr)0);
    set_dec(a, alpha);
    set_dec(r, rdp);
    mpfr_sub_ui(u, a, 1, MPFR_RNDN); /* α − 1 */
    if (conv == SWA_MIRONOV) {
        mpfr_div(t, logd, u, MPFR_RNDN);
        mpfr_sub(out, r, t, MPFR_RNDN);
    } else {
        mpfr_log(t, a, MPFR_RNDN);
        mpfr_add(t, t, logd, MPFR_RNDN);
        mpfr_div(t, t, u, MPFR_RNDN);
        mpfr_sub(t, r, t, MPFR_RNDN); /* ρ − (log δ + log α)/(α − 1) */
        mpfr_div(u, u, a, MPFR_RNDN);
        mpfr_log(u, u, MPFR_RNDN);
        mpfr_add(t, t, u, MPFR_RNDN);
        if (mpfr_sgn(t) < 0)
            mpfr_set_zero(t, 1);
        /* Bretagnolle–Huber: δ ≥ √(1 − e^{−ρ}) ⟺ 2 log δ ≥ log(−expm1(−ρ)) */
        mpfr_neg(u, r, MPFR_RNDN);
        mpfr_expm1(u, u, MPFR_RNDN);
        mpfr_neg(u, u, MPFR_RNDN);
        mpfr_log(u, u, MPFR_RNDN);
        mpfr_mul_2ui(a, logd, 1, MPFR_RNDN);
        if (mpfr_zero_p(r) || mpfr_greaterequal_p(a, u))
            mpfr_set_zero(t, 1);
        mpfr_set(out, t, MPFR_RNDN);
    }
    mpfr_clears(a, r, t, u, (mpfr_ptr)0);
}

void swa_rdp_points_eps(mpfr_ptr out, const char *const *alphas, const char *const *rdps, size_t n,
                        const char *delta, swa_conv conv)
{
    mpfr_t logd, e;
    mpfr_inits2(SWA_BITS + 64, logd, e, (mpfr_ptr)0);
    set_dec(logd, delta);
    mpfr_log(logd, logd, MPFR_RNDN);
    mpfr_set_inf(out, 1);
    for (size_t i = 0; i < n; i++) {
        point_eps(e, alphas[i], rdps[i], logd, conv);
        mpfr_min(out, out, e, MPFR_RNDN);
    }
    mpfr_clears(logd, e, (mpfr_ptr)0);
}

/* ---- Noisy-GD ------------------------------------------------------------------- */

/* e^{−ηλ(1 − ηλ/2)K}/(1 − ηλ/2), the factor of the tight G.15 line
 * (Chourasia & Shah 2023, Thm G.15, "tighter"), from η, λ and K. */
static void g15_factor(mpfr_ptr out, mpfr_srcptr eta, mpfr_srcptr lam, mpfr_srcptr K)
{
    mpfr_t u, c;
    mpfr_inits2(mpfr_get_prec(out), u, c, (mpfr_ptr)0);
    mpfr_mul(u, lam, eta, MPFR_RNDN); /* ηλ */
    mpfr_div_2ui(c, u, 1, MPFR_RNDN);
    mpfr_ui_sub(c, 1, c, MPFR_RNDN); /* c = 1 − ηλ/2 */
    mpfr_mul(u, u, c, MPFR_RNDN);
    mpfr_mul(u, u, K, MPFR_RNDN);
    mpfr_neg(u, u, MPFR_RNDN);
    mpfr_exp(u, u, MPFR_RNDN);
    mpfr_div(out, u, c, MPFR_RNDN);
    mpfr_clears(u, c, (mpfr_ptr)0);
}

/* Thm 5.1: ε_dp/(2q)·g15_factor at η = 1/(2(λ+β)) (Chourasia & Shah 2023, Thm 5.1). */
static void t51_slope(mpfr_ptr a, const swa_ngd *p, mpfr_srcptr lam, mpfr_srcptr K)
{
    mpfr_t eta, t;
    mpfr_inits2(mpfr_get_prec(a), eta, t, (mpfr_ptr)0);
    set_dec(eta, p->beta);
    mpfr_add(eta, eta, lam, MPFR_RNDN);
    mpfr_mul_2ui(eta, eta, 1, MPFR_RNDN);
    mpfr_ui_div(eta, 1, eta, MPFR_RNDN);
    g15_factor(a, eta, lam, K);
    set_dec(t, p->eps_dp);
    mpfr_mul(a, a, t, MPFR_RNDN);
    set_dec(t, p->q);
    mpfr_div(a, a, t, MPFR_RNDN);
    mpfr_div_2ui(a, a, 1, MPFR_RNDN);
    mpfr_clears(eta, t, (mpfr_ptr)0);
}

void swa_ngd_slope(mpfr_ptr a, const swa_ngd *p)
{
    mpfr_t t, u, lam, eta, K;
    mpfr_inits2(SWA_BITS + 64, t, u, lam, eta, K, (mpfr_ptr)0);
    set_dec(K, p->K);
    if (p->thm != SWA_G7)
        set_dec(lam, p->lambda);
    if (p->thm == SWA_T51) {
        t51_slope(a, p, lam, K);
        mpfr_clears(t, u, lam, eta, K, (mpfr_ptr)0);
        return;
    }
    set_dec(eta, p->eta);
    set_dec(t, p->L);
    set_dec(u, p->n);
    mpfr_div(t, t, u, MPFR_RNDN);
    set_dec(u, p->sigma);
    mpfr_div(t, t, u, MPFR_RNDN);
    mpfr_sqr(t, t, MPFR_RNDN); /* L²/(σ²n²) */
    if (p->thm == SWA_G7) {
        /* Thm G.7: ε = q·L²·η·K/(σ²n²) */
        mpfr_mul(t, t, eta, MPFR_RNDN);
        mpfr_mul(a, t, K, MPFR_RNDN);
    } else if (p->thm == SWA_G9) {
        /* Thm G.9: ε = 4qL²/(λσ²n²)·(1 − e^{−ληK/2}) */
        mpfr_mul(u, lam, eta, MPFR_RNDN);
        mpfr_mul(u, u, K, MPFR_RNDN);
        mpfr_div_2ui(u, u, 1, MPFR_RNDN);
        mpfr_neg(u, u, MPFR_RNDN);
        mpfr_expm1(u, u, MPFR_RNDN);
        mpfr_mul(t, t, u, MPFR_RNDN);
        mpfr_div(t, t, lam, MPFR_RNDN);
        mpfr_mul_si(a, t, -4, MPFR_RNDN);
    } else {
        /* Thm G.15, the proof's line before relaxation:
         * R_q ≤ 2qL²/(λσ²n²(1 − ηλ/2))·e^{−ηλ(1 − ηλ/2)K} */
        g15_factor(u, eta, lam, K);
        mpfr_mul(t, t, u, MPFR_RNDN);
        mpfr_div(t, t, lam, MPFR_RNDN);
        mpfr_mul_2ui(a, t, 1, MPFR_RNDN);
    }
    mpfr_clears(t, u, lam, eta, K, (mpfr_ptr)0);
}

/* g(t) = a·q + ℓ/(q − 1) at q = 1 + e^t (convex in t). */
static void ngd_objective(mpfr_ptr g, mpfr_srcptr a, mpfr_srcptr ell, mpfr_srcptr t)
{
    mpfr_t e, q;
    mpfr_inits2(mpfr_get_prec(g), e, q, (mpfr_ptr)0);
    mpfr_exp(e, t, MPFR_RNDN);
    mpfr_add_ui(q, e, 1, MPFR_RNDN);
    mpfr_mul(q, q, a, MPFR_RNDN);
    mpfr_div(e, ell, e, MPFR_RNDN);
    mpfr_add(g, q, e, MPFR_RNDN);
    mpfr_clears(e, q, (mpfr_ptr)0);
}

/* g at the whole number t. */
static void ngd_at(mpfr_ptr g, mpfr_srcptr a, mpfr_srcptr ell, long t)
{
    mpfr_t x;
    mpfr_init2(x, 64);
    mpfr_set_si(x, t, MPFR_RNDN);
    ngd_objective(g, a, ell, x);
    mpfr_clear(x);
}

double swa_ngd_eps(mpfr_ptr eps, mpfr_srcptr a, const char *delta)
{
    const mpfr_prec_t w = SWA_BITS + 64;
    mpfr_t ell, lo, hi, c, d, fc, fd, t, closed;
    mpfr_inits2(w, ell, lo, hi, c, d, fc, fd, t, closed, (mpfr_ptr)0);
    set_dec(ell, delta);
    mpfr_log(ell, ell, MPFR_RNDN);
    mpfr_neg(ell, ell, MPFR_RNDN);
    /* bracket (g is convex in t): walk from t = 0 downhill in steps that
     * double, until g rises; the minimum lies within one step of the best */
    long best = 0, step = 1;
    ngd_at(fd, a, ell, 0);
    ngd_at(fc, a, ell, 1);
    long dir = mpfr_less_p(fc, fd) ? 1 : -1;
    for (;;) {
        ngd_at(fc, a, ell, best + dir * step);
        if (!mpfr_less_p(fc, fd))
            break;
        mpfr_set(fd, fc, MPFR_RNDN);
        best += dir * step;
        step *= 2;
    }
    mpfr_set_si(lo, best - step, MPFR_RNDN);
    mpfr_set_si(hi, best + step, MPFR_RNDN);
    /* golden section down to a width of 2^-(w/2) (Kiefer 1953) */
    mpfr_t g;
    mpfr_init2(g, w);
    mpfr_sqrt_ui(g, 5, MPFR_RNDN);
    mpfr_sub_ui(g, g, 1, MPFR_RNDN);
    mpfr_div_2ui(g, g, 1, MPFR_RNDN);
    for (int it = 0; it < 400; it++) {
        mpfr_sub(t, hi, lo, MPFR_RNDN);
        if (mpfr_get_exp(t) < -(mpfr_exp_t)(w / 2))
            break;
        mpfr_mul(t, t, g, MPFR_RNDN);
        mpfr_sub(c, hi, t, MPFR_RNDN);
        mpfr_add(d, lo, t, MPFR_RNDN);
        ngd_objective(fc, a, ell, c);
        ngd_objective(fd, a, ell, d);
        if (mpfr_lessequal_p(fc, fd))
            mpfr_set(hi, d, MPFR_RNDN);
        else
            mpfr_set(lo, c, MPFR_RNDN);
    }
    mpfr_add(t, lo, hi, MPFR_RNDN);
    mpfr_div_2ui(t, t, 1, MPFR_RNDN);
    ngd_objective(eps, a, ell, t);
    /* the closed form a + 2√(a·ℓ) (docs/noisy-gd.md "Derived formulas", [DERIVED]) as a check */
    mpfr_mul(closed, a, ell, MPFR_RNDN);
    mpfr_sqrt(closed, closed, MPFR_RNDN);
    mpfr_mul_2ui(closed, closed, 1, MPFR_RNDN);
    mpfr_add(closed, closed, a, MPFR_RNDN);
    mpfr_sub(t, eps, closed, MPFR_RNDN);
    mpfr_div(t, t, closed, MPFR_RNDN);
    double gap = fabs(mpfr_get_d(t, MPFR_RNDN));
    mpfr_clears(ell, lo, hi, c, d, fc, fd, t, closed, g, (mpfr_ptr)0);
    return gap;
}

/* ---- DP-SGD with group privacy --------------------------------------------------- */

/* log A_α of the subsampled Gaussian (MTZ 2019 §3.3),
 *   A_α = ∫ φ_σ(z)·((1 − q) + q·e^{(2z−1)/(2σ²)})^α dz,
 * in long double by the trapezoidal rule on [−40σ, α + 40σ] with step σ/16
 * (the integrand is smooth and Gaussian-tailed; this is for the search of
 * the order only, the value used comes from renyi_oracle). */
static long double sgm_log_a(double q, double sigma, double alpha)
{
    long double s2 = 2.0L * sigma * sigma, lq = logl(q), l1q = log1pl(-q);
    long double h = sigma / 16.0L, z0 = -40.0L * sigma;
    long n = (long)ceill((alpha + 80.0L * sigma) / h);
    long double m = -INFINITY, acc = 0;
    for (long j = 0; j <= n; j++) {
        long double z = z0 + j * h;
        long double u = lq + (2 * z - 1) / s2;
        long double lb = u > l1q ? u + log1pl(expl(l1q - u)) : l1q + log1pl(expl(u - l1q));
        long double lf = -z * z / s2 + alpha * lb;
        if (lf > m) {
            acc = acc * expl(m - lf) + 1;
            m = lf;
        } else {
            acc += expl(lf - m);
        }
    }
    return m + logl(acc) + logl(h) -
           logl(sigma * sqrtl(2 * 3.14159265358979323846264338327950288L));
}

typedef struct {
    double q, sigma, eps1;
    unsigned long steps;
    swa_conv conv;
} sgm_job;

/* log δ' at order α (Mironov 2017 Prop. 3: (α−1)(ρ − ε'); Balle et al. 2020
 * Thm 21: (α−1)(ρ − ε' + log(1 − 1/α)) − log α), with (α−1)ρ = steps·log A_α. */
static long double sgm_objective(const sgm_job *j, double alpha)
{
    long double am1 = alpha - 1.0L;
    long double v = j->steps * sgm_log_a(j->q, j->sigma, alpha) - am1 * j->eps1;
    if (j->conv == SWA_BBGHS)
        v += am1 * log1pl(-1.0L / alpha) - logl(alpha);
    return v;
}

/* The order minimising log δ' over t = log(α − 1) ∈ [log 1e-6, log(alpha_max − 1)]:
 * a grid of 8 points per decade, then golden section to |Δt| < 1e-9. */
static double sgm_search(const sgm_job *j, double alpha_max)
{
    double t_lo = log(1e-6), t_hi = log(alpha_max - 1), step = log(10.0) / 8;
    int n = (int)ceil((t_hi - t_lo) / step);
    step = (t_hi - t_lo) / n;
    int best = 0;
    long double fb = INFINITY;
    for (int i = 0; i <= n; i++) {
        long double f = sgm_objective(j, 1 + exp(t_lo + i * step));
        if (f < fb) {
            fb = f;
            best = i;
        }
    }
    if (best == 0 || best == n)
        return best == 0 ? 1 + 1e-6 : alpha_max; /* on the edge: no interior minimum */
    double lo = t_lo + (best > 0 ? best - 1 : 0) * step, hi = t_lo + (best + 1) * step;
    const double g = 0.6180339887498949;
    while (hi - lo > 1e-9) {
        double c = hi - g * (hi - lo), d = lo + g * (hi - lo);
        if (sgm_objective(j, 1 + exp(c)) <= sgm_objective(j, 1 + exp(d)))
            hi = d;
        else
            lo = c;
    }
    return 1 + exp((lo + hi) / 2);
}

/* log Σ_{i<k} e^{iε'} = log((e^{kε'} − 1)/(e^{ε'} − 1)) (geometric sum; k ≥ 1). */
static void log_group_sum(mpfr_ptr out, mpfr_srcptr eps1, unsigned long k)
{
    mpfr_t a, b;
    mpfr_inits2(mpfr_get_prec(out) + 32, a, b, (mpfr_ptr)0);
    mpfr_mul_ui(a, eps1, k, MPFR_RNDN);
    mpfr_expm1(a, a, MPFR_RNDN);
    mpfr_expm1(b, eps1, MPFR_RNDN);
    mpfr_div(a, a, b, MPFR_RNDN);
    mpfr_log(out, a, MPFR_RNDN);
    mpfr_clears(a, b, (mpfr_ptr)0);
}

/* log δ' at the decimal order alpha, from renyi_oracle; *kl_binds when the
 * Bretagnolle–Huber cap ½·log(1 − e^{−ρ}) is below it (bbghs). */
static int sgm_log_delta_at(mpfr_ptr out, const char *alpha, const char *q, const char *sigma,
                            unsigned long steps, mpfr_srcptr eps1, swa_conv conv, int *kl_binds)
{
    const mpfr_prec_t w = RENYI_ORACLE_BITS;
    mpfr_t rho, err, a, am1, t;
    mpfr_inits2(w, rho, err, a, am1, t, (mpfr_ptr)0);
    renyi_oracle_sgm_rdp(rho, err, q, sigma, alpha);
    int ok = mpfr_cmp_d(err, 0) >= 0 && mpfr_get_exp(err) < mpfr_get_exp(rho) - 200;
    mpfr_mul_ui(rho, rho, steps, MPFR_RNDN); /* composition, Mironov 2017 Prop. 1 */
    set_dec(a, alpha);
    mpfr_sub_ui(am1, a, 1, MPFR_RNDN);
    mpfr_sub(t, rho, eps1, MPFR_RNDN);
    if (conv == SWA_BBGHS) {
        mpfr_t l;
        mpfr_init2(l, w);
        mpfr_ui_div(l, 1, a, MPFR_RNDN);
        mpfr_neg(l, l, MPFR_RNDN);
        mpfr_log1p(l, l, MPFR_RNDN);
        mpfr_add(t, t, l, MPFR_RNDN);
        mpfr_mul(t, t, am1, MPFR_RNDN);
        mpfr_log(l, a, MPFR_RNDN);
        mpfr_sub(out, t, l, MPFR_RNDN);
        mpfr_neg(l, rho, MPFR_RNDN); /* ½ log(−expm1(−ρ)) */
        mpfr_expm1(l, l, MPFR_RNDN);
        mpfr_neg(l, l, MPFR_RNDN);
        mpfr_log(l, l, MPFR_RNDN);
        mpfr_div_2ui(l, l, 1, MPFR_RNDN);
        *kl_binds = mpfr_less_p(l, out);
        mpfr_clear(l);
    } else {
        mpfr_mul(out, t, am1, MPFR_RNDN);
        *kl_binds = 0;
    }
    mpfr_clears(rho, err, a, am1, t, (mpfr_ptr)0);
    return ok;
}

int swa_dpsgd_log_delta(mpfr_ptr out, double *alpha_star, const char *q, const char *sigma,
                        unsigned long steps, unsigned long k, const char *eps, swa_conv conv,
                        double alpha_max)
{
    mpfr_t eps1, ld, side, gs;
    mpfr_inits2(RENYI_ORACLE_BITS, eps1, ld, side, gs, (mpfr_ptr)0);
    set_dec(eps1, eps);
    mpfr_div_ui(eps1, eps1, k, MPFR_RNDN);
    sgm_job j = {strtod(q, NULL), strtod(sigma, NULL), mpfr_get_d(eps1, MPFR_RNDN), steps, conv};
    double alpha = sgm_search(&j, alpha_max);
    *alpha_star = alpha;
    int rc = -1, kl = 0, kl2 = 0;
    char at[40], nb[40];
    if (alpha < 0.99 * alpha_max && alpha > 1 + 2e-6) {
        snprintf(at, sizeof at, "%.17g", alpha);
        rc = sgm_log_delta_at(ld, at, q, sigma, steps, eps1, conv, &kl) ? 0 : -2;
        /* the minimiser: both neighbours at ±1e-3·(α − 1) give more */
        for (int s = -1; rc == 0 && s <= 1; s += 2) {
            snprintf(nb, sizeof nb, "%.17g", alpha + s * 1e-3 * (alpha - 1));
            if (!sgm_log_delta_at(side, nb, q, sigma, steps, eps1, conv, &kl2) ||
                mpfr_less_p(side, ld))
                rc = -2;
        }
        if (rc == 0 && kl)
            rc = -1;
    }
    if (rc == 0) {
        log_group_sum(gs, eps1, k);
        mpfr_add(out, ld, gs, MPFR_RNDN);
    }
    mpfr_clears(eps1, ld, side, gs, (mpfr_ptr)0);
    return rc;
}
