/* src/bounds/pld_compose.c — composition by FFT, the a-priori rounding
 * budget, δ read off the composed array with its CTD excess bound, one
 * direction at one grid (pld.c §3–4). */

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/pld_fft.h"
#include "bounds/pld_internal.h"
#include "num/gauss_tail.h"
#include "num/progress.h"

#define SUM_BLOCK 1024        /* B of §3(e): B·u_L ≈ 6e-17, one MPFI anchor per block */

/* ---- composition by FFT (§3 a–c) ------------------------------------------------ */

/* (re, im) ← (re, im)^n by binary powering, n ≥ 1; the rounding errors enter
 * with exponents adding up to n − 1 (§3b).  Squaring is the naive product
 * formula with a = b: (x² − y²) + 2xy·i, one rounding per product. */
#define DEFINE_CPOW(NAME, REAL)                                                         \
    static void NAME(REAL *re, REAL *im, unsigned long n)                               \
    {                                                                                   \
        REAL br = *re, bi = *im, rr = 0, ri = 0;                                        \
        bool have = false;                                                              \
        for (;;) {                                                                      \
            if (n & 1) {                                                                \
                if (have) {                                                             \
                    REAL t = rr * br - ri * bi;                                         \
                    ri = rr * bi + ri * br;                                             \
                    rr = t;                                                             \
                } else {                                                                \
                    rr = br;                                                            \
                    ri = bi;                                                            \
                    have = true;                                                        \
                }                                                                       \
            }                                                                           \
            n >>= 1;                                                                    \
            if (n == 0)                                                                 \
                break;                                                                  \
            REAL t = br * br - bi * bi;                                                 \
            bi = (2 * br) * bi;                                                         \
            br = t;                                                                     \
        }                                                                               \
        *re = rr;                                                                       \
        *im = ri;                                                                       \
    }



#define DEFINE_COMPOSE(NAME, CPOW, FFT, REAL)                                           \
    /* The circular convolution Π_i p_i^{*steps_i} of the pess arrays, length N,    \
     * unnormalised (N times it), as the first N reals of acc_re; NULL, with *end    \
     * saying why, when the twiddle table cannot be allocated or the deadline     \
     * passed (asked in the transforms and every PLD_CHECK_POINTS powers). */      \
    static const REAL *NAME(fft_ctx *c, const disc *ds, size_t nd, ul_pld_fft_end *end) \
    {                                                                                   \
        REAL *wr = c->work_re, *wi = c->work_im, *ar = c->acc_re, *ai = c->acc_im;      \
        for (size_t i = 0; i < nd; i++) {                                               \
            if (ul_pld_late()) { /* before each transform's setup */                    \
                *end = UL_PLD_FFT_LATE;                                                 \
                return NULL;                                                            \
            }                                                                           \
            memset(wr, 0, c->N * sizeof(REAL));                                         \
            memset(wi, 0, c->N * sizeof(REAL));                                         \
            for (size_t k = 0; k < ds[i].n; k++)                                        \
                wr[k] = (REAL)ds[i].pess[k]; /* exact */                                \
            if ((*end = FFT(wr, wi, c->N, false, true)) != UL_PLD_FFT_DONE)             \
                return NULL;                                                            \
            for (size_t j = 0; j < c->N; j++) {                                         \
                if (j % PLD_CHECK_POINTS == 0 && j > 0 && ul_pld_late()) {              \
                    *end = UL_PLD_FFT_LATE;                                             \
                    return NULL;                                                        \
                }                                                                       \
                REAL re = wr[j], im = wi[j];                                            \
                CPOW(&re, &im, ds[i].steps);                                            \
                if (i == 0) {                                                           \
                    ar[j] = re;                                                         \
                    ai[j] = im;                                                         \
                } else {                                                                \
                    REAL xr = ar[j], xi = ai[j];                                        \
                    ar[j] = xr * re - xi * im;                                          \
                    ai[j] = xr * im + xi * re;                                          \
                }                                                                       \
            }                                                                           \
        }                                                                               \
        if ((*end = FFT(ar, ai, c->N, true, true)) != UL_PLD_FFT_DONE)                  \
            return NULL;                                                                \
        return ar;                                                                      \
    }

DEFINE_CPOW(cpow_d, double)
DEFINE_CPOW(cpow_l, long double)
DEFINE_COMPOSE(compose_d, cpow_d, ul_pld_fft_d_watch, double)
DEFINE_COMPOSE(compose_l, cpow_l, ul_pld_fft_l_watch, long double)

static void fft_ctx_clear(fft_ctx *c)
{
    if (c->acc_re != c->work_re) {
        free(c->acc_re);
        free(c->acc_im);
    }
    free(c->work_re);
    free(c->work_im);
    memset(c, 0, sizeof *c);
}

/* Allocates the buffers for length N; false when out of memory (c is then
 * cleared). */
static bool fft_ctx_init(fft_ctx *c, size_t N, size_t nd, bool is_long)
{
    memset(c, 0, sizeof *c);
    c->N = N;
    c->is_long = is_long;
    size_t bytes = N * (is_long ? sizeof(long double) : sizeof(double));
    c->work_re = malloc(bytes);
    c->work_im = malloc(bytes);
    c->acc_re = nd > 1 ? malloc(bytes) : c->work_re;
    c->acc_im = nd > 1 ? malloc(bytes) : c->work_im;
    if (c->work_re == NULL || c->work_im == NULL || c->acc_re == NULL || c->acc_im == NULL) {
        fft_ctx_clear(c);
        return false;
    }
    return true;
}



ul_status ul_pld_time_out(char *err, size_t errlen, const char *what, size_t points)
{
    return ul_fail(err, errlen, UL_ETIME,
                   "composing the privacy loss distributions (%s, %zu points)", what, points);
}

const fft_format ul_pld_format_double = {DBL_MANT_DIG, DBL_MIN_EXP, false};
const fft_format ul_pld_format_long = {LDBL_MANT_DIG, LDBL_MIN_EXP, true};

/* γ ≥ k·u/(1 − k·u), rounded up. */
static void gamma_k(mpfr_ptr g, double k, int mant)
{
    mpfr_t t;
    mpfr_init2(t, BUDGET_PREC);
    mpfr_set_d(g, k, MPFR_RNDU);
    mpfr_mul_2si(g, g, -mant, MPFR_RNDU);
    mpfr_ui_sub(t, 1, g, MPFR_RNDD);
    mpfr_div(g, g, t, MPFR_RNDU);
    mpfr_clear(t);
}

/* E2 ≥ ‖ẑ − z‖₂ (§3c) for the composed pess arrays at length N in format f. */
static void rounding_l2(mpfr_ptr E2, const disc *ds, size_t nd, size_t N, const fft_format *f)
{
    mpfr_prec_t P = BUDGET_PREC;
    mpfr_t u, gN, sqrtN, M, E, Mpow, rho, D, t, sumTE, minA, minP, one;
    mpfr_inits2(P, u, gN, sqrtN, M, E, Mpow, rho, D, t, sumTE, minA, minP, one, (mpfr_ptr)0);
    mpfr_set_ui_2exp(u, 1, -f->mant, MPFR_RNDN); /* exact */
    mpfr_set_ui(one, 1, MPFR_RNDN);
    ul_pld_fft_gamma(gN, N, f->mant); /* Higham Thm 24.2 for pld_fft.c (§3a) */
    mpfr_sqrt_ui(sqrtN, N, MPFR_RNDU);

    /* M = max(S_i + E_i), Σ T_i E_i, min_i(√N‖p_i‖ + E_i), min_i ‖p_i‖ */
    unsigned long T = 0;
    mpfr_set_zero(M, 1);
    mpfr_set_zero(sumTE, 1);
    mpfr_set_inf(minA, 1);
    mpfr_set_inf(minP, 1);
    for (size_t i = 0; i < nd; i++) {
        mpfr_srcptr l2 = ds[i].l2_pess;
        mpfr_srcptr S = ds[i].sum_pess;
        T += ds[i].steps;
        mpfr_mul(E, gN, sqrtN, MPFR_RNDU);
        mpfr_mul(E, E, l2, MPFR_RNDU);
        mpfr_add(t, S, E, MPFR_RNDU);
        if (mpfr_greater_p(t, M))
            mpfr_set(M, t, MPFR_RNDU);
        mpfr_mul_ui(t, E, ds[i].steps, MPFR_RNDU);
        mpfr_add(sumTE, sumTE, t, MPFR_RNDU);
        mpfr_mul(t, sqrtN, l2, MPFR_RNDU);
        mpfr_add(t, t, E, MPFR_RNDU);
        if (mpfr_less_p(t, minA))
            mpfr_set(minA, t, MPFR_RNDU);
        if (mpfr_less_p(l2, minP))
            mpfr_set(minP, l2, MPFR_RNDU);
    }
    /* M^{T−1} */
    mpfr_pow_ui(Mpow, M, T - 1, MPFR_RNDU);
    /* ρ = (1 + 4u)^{T−1} − 1 = expm1((T−1)·log1p(4u)) */
    mpfr_mul_ui(rho, u, 4, MPFR_RNDU);
    mpfr_log1p(rho, rho, MPFR_RNDU);
    mpfr_mul_ui(rho, rho, T - 1, MPFR_RNDU);
    mpfr_expm1(rho, rho, MPFR_RNDU);
    /* D = M^{T−1}·(Σ T_i E_i + ρ·minA) */
    mpfr_mul(t, rho, minA, MPFR_RNDU);
    mpfr_add(D, sumTE, t, MPFR_RNDU);
    mpfr_mul(D, D, Mpow, MPFR_RNDU);
    /* E2 = (1+γ_N)·D/√N + γ_N·M^{T−1}·minP + E_uf */
    mpfr_add(t, one, gN, MPFR_RNDU);
    mpfr_mul(E2, t, D, MPFR_RNDU);
    mpfr_sqrt_ui(t, N, MPFR_RNDD);
    mpfr_div(E2, E2, t, MPFR_RNDU);
    mpfr_mul(t, gN, Mpow, MPFR_RNDU);
    mpfr_mul(t, t, minP, MPFR_RNDU);
    mpfr_add(E2, E2, t, MPFR_RNDU);
    /* E_uf = 2^(emin − p + 110)·max(1, M^T) */
    mpfr_mul(t, Mpow, M, MPFR_RNDU);
    if (mpfr_cmp_ui(t, 1) < 0)
        mpfr_set_ui(t, 1, MPFR_RNDU);
    mpfr_mul_2si(t, t, f->min_exp - f->mant + 110, MPFR_RNDU);
    mpfr_add(E2, E2, t, MPFR_RNDU);

    mpfr_clears(u, gN, sqrtN, M, E, Mpow, rho, D, t, sumTE, minA, minP, one, (mpfr_ptr)0);
}

/* ---- reading δ off the composed array (§3 d–e) ---------------------------------- */

typedef struct {
    mpfr_t lo, hi;   /* Σ w̃ŷ/N accumulated down and up */
    mpfr_t err;      /* ≥ |Σ w ẑ − computed| (§3e) */
    double K;        /* window points above ε */
    bool late;       /* the time budget ran out: no bound (asked every PLD_CHECK_POINTS) */
} weighted_sum;

/* A long double t̃ near e^{arg} for every arg in the box, and
 * rel ≥ max |t̃ − e^{arg}|/e^{arg} over the box (both from an MPFI exp). */
void ul_pld_exp_anchor(long double *t_out, mpfr_ptr rel, mpfi_srcptr arg)
{
    mpfi_t a;
    mpfi_init2(a, 96);
    mpfi_exp(a, arg);
    mpfr_t mid, d1, d2;
    mpfr_inits2(BUDGET_PREC, mid, d1, d2, (mpfr_ptr)0);
    mpfi_mid(mid, a);
    long double t = mpfr_get_ld(mid, MPFR_RNDN);
    mpfr_set_ld(mid, t, MPFR_RNDN); /* exact at 128 bits */
    mpfr_sub(d1, mid, &a->left, MPFR_RNDU);
    mpfr_sub(d2, &a->right, mid, MPFR_RNDU);
    mpfr_abs(d1, d1, MPFR_RNDU);
    mpfr_abs(d2, d2, MPFR_RNDU);
    if (mpfr_less_p(d1, d2))
        mpfr_set(d1, d2, MPFR_RNDU);
    mpfr_div(rel, d1, &a->left, MPFR_RNDU);
    *t_out = t;
    mpfr_clears(mid, d1, d2, (mpfr_ptr)0);
    mpfi_clear(a);
}

/* C ≥ ((1 + r)(1 + u_L))^{B−1}: a block's recurrence growth of relative error. */
void ul_pld_block_growth(mpfr_ptr C, mpfr_srcptr r, mpfr_srcptr uL, unsigned long block)
{
    mpfr_t t;
    mpfr_init2(t, BUDGET_PREC);
    mpfr_add_ui(C, r, 1, MPFR_RNDU);
    mpfr_add_ui(t, uL, 1, MPFR_RNDU);
    mpfr_mul(C, C, t, MPFR_RNDU);
    mpfr_pow_ui(C, C, block - 1, MPFR_RNDU);
    mpfr_clear(t);
}

/* A block's anchor e^{scale·arg} (arg ⊇ ε − ℓ_b; scale 1 for t_b = e^{ε−ℓ_b},
 * λ for the tilt's s_b = e^{−λ(ℓ_b − ε)}): a long double near it, and emax
 * raised to θ_b·x_b, θ_b = (1 + r_b)·C − 1 (x decreases along the block, so
 * every |x̃_j − x_j| ≤ θ_b·x_b). */
static long double block_anchor(mpfr_ptr emax, mpfi_srcptr arg, double scale, mpfr_srcptr C)
{
    mpfi_t a;
    mpfi_init2(a, BUDGET_PREC);
    mpfi_mul_d(a, arg, scale); /* exact for scale 1 */
    long double x;
    mpfr_t r, top;
    mpfr_inits2(BUDGET_PREC, r, top, (mpfr_ptr)0);
    ul_pld_exp_anchor(&x, r, a);
    mpfr_add_ui(r, r, 1, MPFR_RNDU);
    mpfr_mul(r, r, C, MPFR_RNDU);
    mpfr_sub_ui(r, r, 1, MPFR_RNDU);
    mpfr_exp(top, &a->right, MPFR_RNDU);
    mpfr_mul(r, r, top, MPFR_RNDU);
    if (mpfr_greater_p(r, emax))
        mpfr_set(emax, r, MPFR_RNDU);
    mpfr_clears(r, top, (mpfr_ptr)0);
    mpfi_clear(a);
    return x;
}

/* Σ over window indices m with (base + m)·h > eps of g(ℓ_m)·y[m mod N]·2^-scale,
 * g(ℓ) = (1 − e^{eps − ℓ})·e^{−λ(ℓ − eps)} (λ = 0: untilted, §0; λ > 0: the
 * tilted weight of §5, in [0, 1) too), with its rounding bound.  y holds
 * len ≤ N reals (double or long double); entries len … N−1 are zero. */
static void sum_weighted(weighted_sum *out, const void *y, bool y_long, size_t len, int scale,
                         const window *w, double h, mpfr_srcptr eps, double lambda)
{
    const double *yd = y;
    const long double *yl = y;
    size_t N = w->N;
    mpfr_t loss, q, ra, rrho, blk, theta, t;
    mpfr_inits2(BUDGET_PREC, q, ra, rrho, blk, theta, t, (mpfr_ptr)0);
    mpfr_init2(loss, 128);
    mpfi_t arg;
    mpfi_init2(arg, BUDGET_PREC);
    mpfr_set_zero(out->lo, 1);
    mpfr_set_zero(out->hi, 1);
    mpfr_set_zero(out->err, 1);
    out->K = 0;
    out->late = false;

    /* first m with (base + m)h > eps, by exact comparisons.  ε outside the
     * window is decided at its ends first: eps/h can pass 2^53 (a tiny
     * sensitivity makes h tiny), where a double step m0 ± 1 is lost and the
     * walk below never ended (H3's sweep: pld-compose --sensitivity 1e-14). */
    double m_end = w->m_lo + (double)N - 1, m0;
    ul_pld_exact_loss(loss, w->base + m_end, h);
    bool empty = !mpfr_greater_p(loss, eps);
    ul_pld_exact_loss(loss, w->base + w->m_lo, h);
    if (empty) {
        m0 = m_end + 1;
    } else if (mpfr_greater_p(loss, eps)) {
        m0 = w->m_lo;
    } else { /* loss(m_lo) <= eps < loss(m_end): m0 in (m_lo, m_end] */
        mpfr_div_d(q, eps, h, MPFR_RNDD);
        mpfr_floor(q, q);
        m0 = fmin(fmax(mpfr_get_d(q, MPFR_RNDN) - w->base, w->m_lo), m_end);
        ul_pld_exact_loss(loss, w->base + m0, h);
        while (mpfr_greater_p(loss, eps)) {
            m0 -= 1;
            ul_pld_exact_loss(loss, w->base + m0, h);
        }
        do {
            m0 += 1;
            ul_pld_exact_loss(loss, w->base + m0, h);
        } while (!mpfr_greater_p(loss, eps));
    }
    double m_start = fmax(m0, w->m_lo);
    if (m_start > m_end) {
        mpfr_clears(loss, q, ra, rrho, blk, theta, t, (mpfr_ptr)0);
        mpfi_clear(arg);
        return;
    }
    out->K = m_end - m_start + 1;

    /* ρ̃ ≈ e^{−h} with its relative error; C = ((1 + r_ρ)(1 + u_L))^{B−1};
     * the tilt's σ̃ ≈ e^{−λh} and C_s likewise */
    long double rho_t, sig_t = 1;
    mpfi_set_d(arg, -h); /* exact */
    ul_pld_exp_anchor(&rho_t, rrho, arg);
    mpfr_t uL, gB, omega, C, abs_sum, Cs, rs, es;
    mpfr_inits2(BUDGET_PREC, uL, gB, omega, C, abs_sum, Cs, rs, es, (mpfr_ptr)0);
    mpfr_set_ui_2exp(uL, 1, -LDBL_MANT_DIG, MPFR_RNDN);
    ul_pld_block_growth(C, rrho, uL, SUM_BLOCK);
    mpfr_set_zero(Cs, 1);
    if (lambda > 0) {
        mpfi_set_d(arg, -lambda);
        mpfi_mul_d(arg, arg, h);
        ul_pld_exp_anchor(&sig_t, rs, arg);
        ul_pld_block_growth(Cs, rs, uL, SUM_BLOCK);
    }
    mpfr_set_zero(ra, 1); /* max over blocks of θ_b·t_b */
    mpfr_set_zero(es, 1); /* max over blocks of θ′_b·s_b */
    mpfr_set_zero(abs_sum, 1);

    for (double mb = m_start; mb <= m_end; mb += SUM_BLOCK) {
        if (fmod(mb - m_start, (double)PLD_CHECK_POINTS) == 0 && mb > m_start && ul_pld_late()) {
            out->late = true;
            break;
        }
        double me = fmin(mb + SUM_BLOCK - 1, m_end);
        ul_pld_exact_loss(loss, w->base + mb, h);
        mpfi_set_fr(arg, eps);
        mpfi_sub_fr(arg, arg, loss); /* an enclosure of ε − ℓ, rounded outward */
        long double tw = block_anchor(ra, arg, 1, C), sw = 1;
        if (lambda > 0)
            sw = block_anchor(es, arg, lambda, Cs);
        long double acc = 0, asum = 0;
        size_t pos = (size_t)fmod(mb, (double)N);
        for (double m = mb; m <= me; m += 1) {
            long double v = pos >= len ? 0 : y_long ? yl[pos] : (long double)yd[pos];
            acc += ((1 - tw) * sw) * v;
            asum += fabsl(v);
            tw *= rho_t;
            sw *= sig_t;
            if (++pos == N)
                pos = 0;
        }
        mpfr_set_ld(blk, acc, MPFR_RNDN); /* exact */
        mpfr_add(out->lo, out->lo, blk, MPFR_RNDD);
        mpfr_add(out->hi, out->hi, blk, MPFR_RNDU);
        mpfr_set_ld(blk, asum, MPFR_RNDN);
        mpfr_add(abs_sum, abs_sum, blk, MPFR_RNDU);
    }

    /* Weights g = (1 − t)·s (s ≡ 1 untilted, E_s = 0): |g̃ − g| ≤ ω =
     * E_t(1 + E_s) + E_s + 3u_L(1 + E_t)(1 + E_s), E_t = max_b θ_b·t_b,
     * E_s = max_b θ′_b·s_b (s ≤ 1; two roundings in (1 − t̃)·s̃).  Sum:
     * err = (ω + γ_B(1 + ω))/(1 − γ_B)·Σ|ŷ| (Higham (3.5) per block; Σ|ŷ| ≤
     * its computed value/(1 − γ_B)), plus an underflow allowance: every
     * long-double operation that underflows errs by at most η = 2^(emin − p),
     * at most 8 operations per point, each feeding the sum with weight ≤ 2. */
    mpfr_add_ui(t, es, 1, MPFR_RNDU);
    mpfr_mul(omega, ra, t, MPFR_RNDU);
    mpfr_add(omega, omega, es, MPFR_RNDU);
    mpfr_add_ui(theta, ra, 1, MPFR_RNDU);
    mpfr_mul(t, t, theta, MPFR_RNDU);
    mpfr_mul(t, t, uL, MPFR_RNDU);
    mpfr_mul_ui(t, t, 3, MPFR_RNDU);
    mpfr_add(omega, omega, t, MPFR_RNDU);
    gamma_k(gB, SUM_BLOCK, LDBL_MANT_DIG);
    mpfr_add_ui(t, omega, 1, MPFR_RNDU);
    mpfr_mul(t, t, gB, MPFR_RNDU);
    mpfr_add(t, t, omega, MPFR_RNDU);
    mpfr_ui_sub(theta, 1, gB, MPFR_RNDD);
    mpfr_div(t, t, theta, MPFR_RNDU);
    mpfr_div(t, t, theta, MPFR_RNDU);
    mpfr_mul(out->err, t, abs_sum, MPFR_RNDU);
    mpfr_set_d(t, out->K + SUM_BLOCK, MPFR_RNDU);
    mpfr_mul_2si(t, t, LDBL_MIN_EXP - LDBL_MANT_DIG + 4, MPFR_RNDU);
    mpfr_add(out->err, out->err, t, MPFR_RNDU);

    /* ÷ 2^scale (N after an FFT), exact */
    mpfr_div_2ui(out->lo, out->lo, (unsigned long)scale, MPFR_RNDD);
    mpfr_div_2ui(out->hi, out->hi, (unsigned long)scale, MPFR_RNDU);
    mpfr_div_2ui(out->err, out->err, (unsigned long)scale, MPFR_RNDU);

    mpfr_clears(uL, gB, omega, C, abs_sum, Cs, rs, es, (mpfr_ptr)0);
    mpfr_clears(loss, q, ra, rrho, blk, theta, t, (mpfr_ptr)0);
    mpfi_clear(arg);
}


/* ---- one direction at one grid (§4) --------------------------------------------- */





/* Composes the pess arrays (none for a single step: one mechanism applied
 * once); E2 ≥ ‖ẑ − z‖₂ (§3c; 0 without a transform).  UL_PLD_FFT_NOMEM: out
 * of memory; UL_PLD_FFT_LATE: the deadline passed. */
static ul_pld_fft_end compose_all(composed *c, mpfr_ptr E2, fft_ctx *fc, const disc *ds,
                                  size_t nd, const window *w, const fft_format *f)
{
    mpfr_set_zero(E2, 1);
    if (fc == NULL) {
        *c = (composed){ds[0].pess, false, ds[0].n, 0};
        return UL_PLD_FFT_DONE;
    }
    ul_pld_fft_end end = UL_PLD_FFT_DONE;
    c->y = f->is_long ? (const void *)compose_l(fc, ds, nd, &end)
                      : (const void *)compose_d(fc, ds, nd, &end);
    if (c->y == NULL)
        return end;
    c->is_long = f->is_long;
    c->len = w->N;
    c->scale = 0;
    while (((size_t)1 << c->scale) < w->N)
        c->scale++;
    rounding_l2(E2, ds, nd, w->N, f);
    return UL_PLD_FFT_DONE;
}

/* The window indices whose loss may lie in [a, b] (one index of margin). */
static bool window_range(const window *w, double h, double a, double b, double *m0, double *m1)
{
    *m0 = fmax(floor(a / h) - 1 - w->base, w->m_lo);
    *m1 = fmin(ceil(b / h) + 1 - w->base, w->m_lo + (double)w->N - 1);
    return *m0 <= *m1;
}

long double ul_pld_composed_at(const composed *c, const window *w, double m)
{
    size_t pos = (size_t)fmod(m, (double)w->N);
    if (pos >= c->len)
        return 0;
    return c->is_long ? ((const long double *)c->y)[pos] : ((const double *)c->y)[pos];
}

/* The CTD excess bound of §1 by bands of d = |S − ε|.  Given the L's (on
 * B^c), R ≤ G(|W|)·1{|W| ≥ d}, G(s) = e^s(e^s − 1), so E[R | L's] ≤ Ψ(d):
 *   Ψ(d) = G(d)·p(d) + (e^{2s′} − e^{2d}) + 4e^{2μ+2v}·√(2πv)·Q((s′ − μ − 2v)/√v),
 * s′ = max(d, s₀) for any s₀ ≥ μ, p(s) = min(1, 2e^{−(s−μ)²/(2v)}) for s ≥ μ
 * (1 below μ) ≥ P[|W| ≥ s] (Hoeffding, §1), by the layer-cake formula
 * E[G(|W|)1{|W|≥d}] = G(d)P[|W| ≥ d] + ∫_d^∞ G′(s)P[|W| ≥ s]ds with
 * G′ ≤ 2e^{2s}.  Every term increases in μ and v, so those are rounded up. */
typedef struct {
    double mu, v;      /* the doubles used */
    mpfr_t mu_up, v_up; /* μ = T h² e^h/2, v = T h²/4, rounded up */
} hoeffding;

static void hoeffding_init(hoeffding *hf, double T, double h)
{
    mpfr_inits2(BUDGET_PREC, hf->mu_up, hf->v_up, (mpfr_ptr)0);
    mpfr_t a;
    mpfr_init2(a, BUDGET_PREC);
    mpfr_set_d(hf->v_up, h, MPFR_RNDU);
    mpfr_sqr(hf->v_up, hf->v_up, MPFR_RNDU);
    mpfr_mul_d(hf->v_up, hf->v_up, T, MPFR_RNDU);
    mpfr_set_d(a, h, MPFR_RNDU);
    mpfr_exp(a, a, MPFR_RNDU);
    mpfr_mul(hf->mu_up, hf->v_up, a, MPFR_RNDU);
    mpfr_div_2ui(hf->mu_up, hf->mu_up, 1, MPFR_RNDU);
    mpfr_div_2ui(hf->v_up, hf->v_up, 2, MPFR_RNDU);
    hf->mu = mpfr_get_d(hf->mu_up, MPFR_RNDU);
    hf->v = mpfr_get_d(hf->v_up, MPFR_RNDU);
    mpfr_clear(a);
}

static void hoeffding_clear(hoeffding *hf)
{
    mpfr_clears(hf->mu_up, hf->v_up, (mpfr_ptr)0);
}

/* out ≥ p(s) = 2e^{−(s−μ)²/(2v)} capped at 1 (1 when s ≤ μ). */
static void tail_p(mpfr_ptr out, double s, const hoeffding *hf)
{
    mpfr_d_sub(out, s, hf->mu_up, MPFR_RNDD);
    if (mpfr_sgn(out) <= 0) {
        mpfr_set_ui(out, 1, MPFR_RNDU);
        return;
    }
    mpfr_sqr(out, out, MPFR_RNDD);
    mpfr_div(out, out, hf->v_up, MPFR_RNDD);
    mpfr_div_2ui(out, out, 1, MPFR_RNDD);
    mpfr_neg(out, out, MPFR_RNDU);
    mpfr_exp(out, out, MPFR_RNDU);
    mpfr_mul_2ui(out, out, 1, MPFR_RNDU);
    if (mpfr_cmp_ui(out, 1) > 0)
        mpfr_set_ui(out, 1, MPFR_RNDU);
}

/* out ≥ Ψ(d) (d ≥ 0 a double). */
static void psi_up(mpfr_ptr out, double d, const hoeffding *hf)
{
    double s1 = fmax(d, hf->mu + sqrt(2 * hf->v * 0.6931471805599453));
    if (!(s1 >= hf->mu))
        s1 = hf->mu; /* s₀ ≥ μ (μ is already rounded up) */
    mpfr_t a, b;
    mpfr_inits2(BUDGET_PREC, a, b, (mpfr_ptr)0);
    /* G(d)·p(d) */
    tail_p(out, d, hf);
    mpfr_set_d(a, d, MPFR_RNDU);
    mpfr_expm1(b, a, MPFR_RNDU);
    mpfr_exp(a, a, MPFR_RNDU);
    mpfr_mul(a, a, b, MPFR_RNDU);
    mpfr_mul(out, out, a, MPFR_RNDU);
    /* + e^{2s′} − e^{2d} = e^{2d}·expm1(2(s′ − d)) (0 when s′ = d: no
     * cancellation noise, which would count absolutely in V_J) */
    if (s1 > d) {
        mpfr_set_d(a, s1, MPFR_RNDU);
        mpfr_sub_d(a, a, d, MPFR_RNDU);
        mpfr_mul_2ui(a, a, 1, MPFR_RNDU);
        mpfr_expm1(a, a, MPFR_RNDU);
        mpfr_set_d(b, 2 * d, MPFR_RNDU); /* exact */
        mpfr_exp(b, b, MPFR_RNDU);
        mpfr_mul(a, a, b, MPFR_RNDU);
        mpfr_add(out, out, a, MPFR_RNDU);
    }
    /* + 4 e^{2μ+2v} √(2πv) Q((s′ − μ − 2v)/√v) */
    mpfi_t z;
    mpfi_init2(z, BUDGET_PREC);
    mpfr_mul_2ui(a, hf->v_up, 1, MPFR_RNDU);
    mpfr_add(a, a, hf->mu_up, MPFR_RNDU);
    mpfr_d_sub(a, s1, a, MPFR_RNDD);
    mpfr_sqrt(b, hf->v_up, MPFR_RNDU);
    if (mpfr_sgn(a) >= 0) {
        mpfr_div(a, a, b, MPFR_RNDD); /* a lower argument: a larger Q */
        mpfi_set_fr(z, a);
        ul_num_q(z, z);
        mpfr_set(b, &z->right, MPFR_RNDU);
    } else {
        mpfr_set_ui(b, 1, MPFR_RNDU); /* Q ≤ 1 */
    }
    mpfi_clear(z);
    mpfr_add(a, hf->mu_up, hf->v_up, MPFR_RNDU);
    mpfr_mul_2ui(a, a, 1, MPFR_RNDU);
    mpfr_exp(a, a, MPFR_RNDU);
    mpfr_mul(b, b, a, MPFR_RNDU);
    mpfr_const_pi(a, MPFR_RNDU);
    mpfr_mul(a, a, hf->v_up, MPFR_RNDU);
    mpfr_mul_2ui(a, a, 1, MPFR_RNDU);
    mpfr_sqrt(a, a, MPFR_RNDU);
    mpfr_mul(b, b, a, MPFR_RNDU);
    mpfr_mul_2ui(b, b, 2, MPFR_RNDU);
    mpfr_add(out, out, b, MPFR_RNDU);
    mpfr_clears(a, b, (mpfr_ptr)0);
}

/* Ψ in doubles (choices only). */
static double psi_d(double d, double mu, double v)
{
    double s1 = fmax(d, mu + sqrt(2 * v * 0.6931471805599453));
    double p = d <= mu ? 1 : fmin(1, 2 * exp(-(d - mu) * (d - mu) / (2 * v)));
    return exp(d) * expm1(d) * p + (exp(2 * s1) - exp(2 * d)) +
           4 * exp(2 * mu + 2 * v) * sqrt(6.283185307179586 * v) *
               ul_pld_q_d((s1 - mu - 2 * v) / sqrt(v));
}

#define BANDS 64 /* bands of d = |S − ε|, of width √v/4 (wider at a small δ) */

/* The composed masses within radius R_i of [eps_lo, eps_hi], nested radii
 * increasing: out_i ≥ P[S_A ∈ [eps_lo − R_i, eps_hi + R_i]] (window_range
 * indices, computed values summed upward, + √K·E2 + the outside mass), or
 * the doubles sums when d_out != NULL (choices only). */
static void nested_masses(mpfr_t *out, double *d_out, const double *R, int count,
                          const composed *c, const window *w, double h, double el, double eu,
                          mpfr_srcptr E2)
{
    mpfr_t sum, t;
    mpfr_inits2(BUDGET_PREC, sum, t, (mpfr_ptr)0);
    mpfr_set_zero(sum, 1);
    double dsum = 0, a = 0, b = -1; /* indices summed so far: [a, b] */
    for (int i = 0; i < count; i++) {
        double m0, m1;
        if (window_range(w, h, el - R[i], eu + R[i], &m0, &m1)) {
            if (b < a) {
                a = m0;
                b = m0 - 1;
            }
            for (double m = fmin(m0, a); m < a; m += 1) {
                long double y = ul_pld_composed_at(c, w, m);
                if (d_out != NULL)
                    dsum += (double)y;
                else {
                    mpfr_set_ld(t, y, MPFR_RNDN); /* exact */
                    mpfr_add(sum, sum, t, MPFR_RNDU);
                }
            }
            for (double m = b + 1; m <= m1; m += 1) {
                long double y = ul_pld_composed_at(c, w, m);
                if (d_out != NULL)
                    dsum += (double)y;
                else {
                    mpfr_set_ld(t, y, MPFR_RNDN);
                    mpfr_add(sum, sum, t, MPFR_RNDU);
                }
            }
            a = fmin(a, m0);
            b = fmax(b, m1);
        }
        if (d_out != NULL) {
            d_out[i] = ldexp(dsum, -c->scale);
            continue;
        }
        mpfr_div_2ui(out[i], sum, (unsigned long)c->scale, MPFR_RNDU);
        mpfr_set_d(t, b >= a ? b - a + 1 : 0, MPFR_RNDU);
        mpfr_sqrt(t, t, MPFR_RNDU);
        mpfr_mul(t, t, E2, MPFR_RNDU);
        mpfr_add(out[i], out[i], t, MPFR_RNDU);
        mpfr_add(out[i], out[i], w->up_pess, MPFR_RNDU);
        mpfr_add(out[i], out[i], w->lo_pess, MPFR_RNDU);
    }
    mpfr_clears(sum, t, (mpfr_ptr)0);
}

/* The band bound in doubles for the widening y (choices only):
 * V_J + Σ_i (V_i − V_{i+1})·(M_i + t), M_i the mass within d_{i+1} + y. */
static double band_bound_d(const double *V, const double *dd, double y, const hoeffding *hf,
                           const composed *c, const window *w, double h, double el, double eu,
                           double lambda, double log_k)
{
    double R[BANDS], M[BANDS];
    for (int i = 0; i < BANDS; i++)
        R[i] = dd[i + 1] + y;
    nested_masses(NULL, M, R, BANDS, c, w, h, el, eu, NULL);
    if (lambda > 0)
        for (int i = 0; i < BANDS; i++)
            M[i] *= exp(fmin(700, log_k + lambda * (R[i] + 2 * h)));
    double t = y <= hf->mu ? 1 : 2 * exp(-(y - hf->mu) * (y - hf->mu) / (2 * hf->v));
    double s = V[BANDS];
    for (int i = 0; i < BANDS; i++)
        s += (V[i] - V[i + 1]) * (fmax(M[i], 0) + t);
    return s;
}

/* out ≥ E[R; B^c] (§1).  E[Ψ(d)] ≤ V_J + Σ_{i<J} (V_i − V_{i+1})·P[d < d_{i+1}]
 * (Abel summation) for V_i ≥ Ψ(d_i) nonincreasing (Ψ decreases; V is the
 * running maximum from the right of the certified values), d_i = i·√v/4,
 * and P[d < d_{i+1}; B^c] ≤ P[|S_A − ε| ≤ d_{i+1} + y] + p(y) for any y
 * (|W| ≤ y or not).  y is chosen in doubles, the bound certified once. */
static void ctd_excess_bound(mpfr_ptr out, const dir_state *S, mpfr_srcptr eps_lo,
                             mpfr_srcptr eps_hi)
{
    const composed *c = &S->c;
    const window *w = &S->w;
    double h = S->h;
    hoeffding hf;
    hoeffding_init(&hf, S->T, h);
    double el = mpfr_get_d(eps_lo, MPFR_RNDD), eu = mpfr_get_d(eps_hi, MPFR_RNDU);
    /* tilted (§5): a real mass within R of [ε_lo, ε_hi] is at most
     * K(ε_lo)·e^{λ(R + 2h)} times the tilted one (ℓ ≥ ε_lo − R − h there) */
    mpfr_t lk;
    mpfr_init2(lk, BUDGET_PREC);
    ul_pld_log_k(lk, S, eps_lo, MPFR_RNDU);
    double lkd = mpfr_get_d(lk, MPFR_RNDU);
    /* The bands reach d_J = zmax·√v, where the absolute terms V_J and p(y)
     * fall below 1e-8·K(ε) (δ is of the order of K, §5): 16√v untilted
     * (K = 1), further for a small δ.  Any reach is valid; this one keeps
     * them from swamping the lower end. */
    double zmax = fmax(16, sqrt(2 * (0.7 + 18.5 - fmin(lkd, 0))) + 2);
    double dd[BANDS + 1], Vd[BANDS + 1], step = zmax / BANDS * sqrt(hf.v), best_y = 0,
           best = INFINITY;
    for (int i = 0; i <= BANDS; i++) {
        dd[i] = step * i;
        Vd[i] = psi_d(dd[i], hf.mu, hf.v);
    }
    for (int i = BANDS - 1; i >= 0; i--)
        Vd[i] = fmax(Vd[i], Vd[i + 1]);
    for (double k = 2; k <= zmax - 2; k += 1) {
        double y = hf.mu + k * sqrt(hf.v),
               e = band_bound_d(Vd, dd, y, &hf, c, w, h, el, eu, S->lambda, lkd);
        if (e < best) {
            best = e;
            best_y = y;
        }
    }
    mpfr_t V[BANDS + 1], M[BANDS], t, p;
    double R[BANDS];
    mpfr_inits2(BUDGET_PREC, t, p, (mpfr_ptr)0);
    for (int i = 0; i <= BANDS; i++) {
        mpfr_init2(V[i], BUDGET_PREC);
        psi_up(V[i], dd[i], &hf);
    }
    for (int i = BANDS - 1; i >= 0; i--)
        if (mpfr_less_p(V[i], V[i + 1]))
            mpfr_set(V[i], V[i + 1], MPFR_RNDU);
    for (int i = 0; i < BANDS; i++) {
        mpfr_init2(M[i], BUDGET_PREC);
        R[i] = dd[i + 1] + best_y; /* a double: the band edges used are these */
    }
    nested_masses(M, NULL, R, BANDS, c, w, h, el, eu, S->E2);
    if (S->lambda > 0)
        for (int i = 0; i < BANDS; i++) {
            mpfr_set_d(t, R[i] + 2 * h, MPFR_RNDU);
            mpfr_mul_d(t, t, S->lambda, MPFR_RNDU);
            mpfr_add(t, t, lk, MPFR_RNDU);
            mpfr_exp(t, t, MPFR_RNDU);
            mpfr_mul(M[i], M[i], t, MPFR_RNDU);
        }
    mpfr_clear(lk);
    tail_p(p, best_y, &hf);
    mpfr_set(out, V[BANDS], MPFR_RNDU);
    for (int i = 0; i < BANDS; i++) {
        mpfr_sub(t, V[i], V[i + 1], MPFR_RNDU);
        mpfr_add(M[i], M[i], p, MPFR_RNDU);
        mpfr_mul(t, t, M[i], MPFR_RNDU);
        mpfr_add(out, out, t, MPFR_RNDU);
        mpfr_clear(M[i]);
    }
    for (int i = 0; i <= BANDS; i++)
        mpfr_clear(V[i]);
    mpfr_clears(t, p, (mpfr_ptr)0);
    hoeffding_clear(&hf);
}

/* The stored atoms w′ against the exact in-grid atoms w (§1): with
 * a = (1 − RHO0)·w′ and b = min(a, w) ≤ w, F(w) ≥ F(b) ≥ F(a) − (Π(Σa_i)^{T_i}
 * − Π(Σb_i)^{T_i}) ≥ scale·F(w′) − add, where scale = (1 − RHO0)^T (F is
 * homogeneous of degree T_i in w_i) and add = M^{T−1}·Σ_i T_i·E_i
 * (telescoping, §3b), E_i = Σ(a − b) = excess, M = max(1, max_i Σw′_i). */
static void mass_excess(mpfr_ptr scale, mpfr_ptr add, const disc *ds, size_t nd)
{
    mpfr_t M, t, lsc;
    mpfr_inits2(BUDGET_PREC, M, t, lsc, (mpfr_ptr)0);
    unsigned long T = 0;
    mpfr_set_ui(M, 1, MPFR_RNDU);
    mpfr_set_zero(add, 1);
    mpfr_set_zero(lsc, 1);
    for (size_t i = 0; i < nd; i++) {
        T += ds[i].steps;
        if (mpfr_greater_p(ds[i].sum_pess, M))
            mpfr_set(M, ds[i].sum_pess, MPFR_RNDU);
        mpfr_mul_ui(t, ds[i].excess, ds[i].steps, MPFR_RNDU);
        mpfr_add(add, add, t, MPFR_RNDU);
        /* Π (1 − ρ_i)^{T_i}: ρ_i = RHO0, or more for a tilted array (pld_tilt.c) */
        mpfr_set_d(t, -ds[i].rho, MPFR_RNDD);
        mpfr_log1p(t, t, MPFR_RNDD);
        mpfr_mul_ui(t, t, ds[i].steps, MPFR_RNDD);
        mpfr_add(lsc, lsc, t, MPFR_RNDD);
    }
    mpfr_pow_ui(M, M, T - 1, MPFR_RNDU);
    mpfr_mul(add, add, M, MPFR_RNDU);
    mpfr_exp(scale, lsc, MPFR_RNDD);
    mpfr_clears(M, t, lsc, (mpfr_ptr)0);
}

/* round ≥ ws.err + √K·E2 */
static void rounding_total(mpfr_ptr round, const weighted_sum *ws, mpfr_srcptr E2)
{
    mpfr_t t;
    mpfr_init2(t, BUDGET_PREC);
    mpfr_set_d(t, ws->K, MPFR_RNDU);
    mpfr_sqrt(t, t, MPFR_RNDU);
    mpfr_mul(t, t, E2, MPFR_RNDU);
    mpfr_add(round, ws->err, t, MPFR_RNDU);
    mpfr_clear(t);
}

/* Refuses, before any mass is computed, a grid whose FFT would clearly
 * exceed max_points: the composed spread estimated as ±z·σ√(ΣT var) (twice
 * the limit, since this is an estimate; choose_window decides exactly). */
static ul_status precheck_size(const mech *ms, size_t nm, double h, double tau,
                               unsigned long max_points, char *err, size_t errlen)
{
    pld_spread sp = ul_pld_spread_d(ms, nm, tau);
    double var = sp.var, full = 1 + sp.total / h;
    double need = fmin(2 * ul_pld_z_of_tail(tau / 8) * sqrt(var) / h, full);
    if (!(need <= 2.0 * (double)max_points))
        return ul_fail(err, errlen, UL_EINPUT,
                       "grid-step: %g needs an FFT of about %.3g points, more than max-points "
                       "(%lu)",
                       h, need, max_points);
    return UL_OK;
}

void ul_pld_log_k(mpfr_ptr out, const dir_state *S, mpfr_srcptr eps, mpfr_rnd_t rnd)
{
    if (S->lambda == 0) {
        mpfr_set_zero(out, 1);
        return;
    }
    mpfr_t t;
    mpfr_init2(t, BUDGET_PREC);
    mpfr_mul_d(t, eps, S->lambda, rnd == MPFR_RNDU ? MPFR_RNDD : MPFR_RNDU);
    mpfr_sub(out, rnd == MPFR_RNDU ? &S->A->right : &S->A->left, t, rnd);
    mpfr_clear(t);
}

/* x ← x·K(ε) (§5; K = 1 untilted), an upper bound of it (up) or a lower
 * one: K's end and the product's rounding chosen by x's sign. */
static void times_k(mpfr_ptr x, const dir_state *S, mpfr_srcptr eps, bool up)
{
    if (S->lambda == 0)
        return;
    mpfr_rnd_t rk = (mpfr_sgn(x) >= 0) == up ? MPFR_RNDU : MPFR_RNDD;
    mpfr_t k;
    mpfr_init2(k, BUDGET_PREC);
    ul_pld_log_k(k, S, eps, rk);
    mpfr_exp(k, k, rk);
    mpfr_mul(x, x, k, up ? MPFR_RNDU : MPFR_RNDD);
    mpfr_clear(k);
}

/* The window tails in tilted units as real δ (§2, §5): mass above the window
 * top b counts e^{−λ(b − ε)} ≤ 1 of K(ε) per unit (ℓ > b > ε), at most
 * e^{λ(ε − b)} if b ≤ ε; below the window (counted when it starts above ε)
 * ≤ 1 per unit since ℓ ≥ ε there.  t ← K(ε)·(factor·up + [lo]). */
static void tails_real(mpfr_ptr t, const dir_state *S, mpfr_srcptr eps, bool with_lo)
{
    const window *w = &S->w;
    mpfr_t top, f;
    mpfr_inits2(BUDGET_PREC, top, f, (mpfr_ptr)0);
    mpfr_set(t, w->up_pess, MPFR_RNDU);
    ul_pld_exact_loss(top, w->base + w->m_lo + (double)w->N - 1, S->h);
    if (S->lambda > 0 && mpfr_lessequal_p(top, eps)) {
        mpfr_sub(f, eps, top, MPFR_RNDU);
        mpfr_mul_d(f, f, S->lambda, MPFR_RNDU);
        mpfr_exp(f, f, MPFR_RNDU);
        mpfr_mul(t, t, f, MPFR_RNDU);
    }
    if (with_lo)
        mpfr_add(t, t, w->lo_pess, MPFR_RNDU);
    times_k(t, S, eps, true);
    mpfr_clears(top, f, (mpfr_ptr)0);
}

/* hi (§4): the CTD sum at ε's lower end + its rounding + the mass at +∞ and
 * the window tails, capped at 1; tilted sums times K(ε) (§5). */
static void upper_end(mpfr_ptr hi, dir_result *res, dir_state *S, mpfr_srcptr eps_lo)
{
    const composed *c = &S->c;
    const window *w = &S->w;
    weighted_sum ws;
    mpfr_inits2(BUDGET_PREC, ws.lo, ws.hi, ws.err, (mpfr_ptr)0);
    mpfr_t rnd, t, bottom;
    mpfr_inits2(BUDGET_PREC, rnd, t, bottom, (mpfr_ptr)0);
    sum_weighted(&ws, c->y, c->is_long, c->len, c->scale, w, S->h, eps_lo, S->lambda);
    S->late = S->late || ws.late;
    rounding_total(rnd, &ws, S->E2);
    times_k(rnd, S, eps_lo, true);
    times_k(ws.hi, S, eps_lo, true);
    res->round_hi = mpfr_get_d(rnd, MPFR_RNDU);
    mpfr_add(hi, ws.hi, rnd, MPFR_RNDU);
    ul_pld_exact_loss(bottom, w->base + w->m_lo, S->h); /* the window's lowest loss */
    tails_real(t, S, eps_lo, mpfr_greater_p(bottom, eps_lo));
    mpfr_add(t, t, S->pinf, MPFR_RNDU); /* real, untilted */
    res->tails_hi = mpfr_get_d(t, MPFR_RNDU);
    mpfr_add(hi, hi, t, MPFR_RNDU);
    if (mpfr_cmp_ui(hi, 1) > 0)
        mpfr_set_ui(hi, 1, MPFR_RNDU);
    res->pess = mpfr_get_d(ws.hi, MPFR_RNDN);
    mpfr_clears(ws.lo, ws.hi, ws.err, rnd, t, bottom, (mpfr_ptr)0);
}

/* lo (§4): the CTD sum at ε's upper end − its rounding − the mass outside
 * the window − the stored masses' excess − the CTD excess bound, and at
 * least max(0, 1 − e^ε). */
static void lower_end(mpfr_ptr lo, dir_result *res, dir_state *S, mpfr_srcptr eps_lo,
                      mpfr_srcptr eps_hi)
{
    const composed *c = &S->c;
    const window *w = &S->w;
    weighted_sum ws;
    mpfr_inits2(BUDGET_PREC, ws.lo, ws.hi, ws.err, (mpfr_ptr)0);
    mpfr_t rnd, t, ex, sc;
    mpfr_inits2(BUDGET_PREC, rnd, t, ex, sc, (mpfr_ptr)0);
    sum_weighted(&ws, c->y, c->is_long, c->len, c->scale, w, S->h, eps_hi, S->lambda);
    S->late = S->late || ws.late;
    rounding_total(rnd, &ws, S->E2);
    mpfr_sub(lo, ws.lo, rnd, MPFR_RNDD);
    mpfr_add(t, w->up_pess, w->lo_pess, MPFR_RNDU);
    mpfr_sub(lo, lo, t, MPFR_RNDD); /* ≤ F(w′), tilted units (g ≤ 1 on the wrapped mass) */
    times_k(rnd, S, eps_hi, true);
    times_k(t, S, eps_hi, true);
    res->round_lo = mpfr_get_d(rnd, MPFR_RNDU);
    res->tails_lo = mpfr_get_d(t, MPFR_RNDU);
    mass_excess(sc, ex, S->ds, S->nd);
    if (mpfr_sgn(lo) > 0)
        mpfr_mul(lo, lo, sc, MPFR_RNDD); /* ≤ scale·F(w′) (a negative bound stays one) */
    mpfr_sub(lo, lo, ex, MPFR_RNDD);
    times_k(lo, S, eps_hi, false); /* into real units, a lower bound */
    times_k(ex, S, eps_hi, true);
    ctd_excess_bound(t, S, eps_lo, eps_hi);
    mpfr_add(ex, ex, t, MPFR_RNDU);
    mpfr_sub(lo, lo, t, MPFR_RNDD);
    times_k(ws.lo, S, eps_hi, false); /* the report's optimistic sum */
    res->opt = mpfr_get_d(ws.lo, MPFR_RNDN) - mpfr_get_d(ex, MPFR_RNDU);
    /* E_γ ≥ max(0, 1 − e^ε) */
    mpfr_exp(t, eps_hi, MPFR_RNDU);
    mpfr_ui_sub(t, 1, t, MPFR_RNDD);
    if (mpfr_sgn(t) < 0)
        mpfr_set_zero(t, 1);
    if (mpfr_less_p(lo, t))
        mpfr_set(lo, t, MPFR_RNDD);
    mpfr_clears(ws.lo, ws.hi, ws.err, rnd, t, ex, sc, (mpfr_ptr)0);
}

/* pinf ≥ 1 − Π(1 − p∞_i)^{T_i}, the composed mass at +∞. */
static void mass_at_infinity(mpfr_ptr pinf, const disc *ds, size_t nd)
{
    mpfr_t t;
    mpfr_init2(t, BUDGET_PREC);
    mpfr_set_zero(pinf, 1);
    for (size_t i = 0; i < nd; i++) {
        mpfr_neg(t, ds[i].p_inf, MPFR_RNDN);
        mpfr_log1p(t, t, MPFR_RNDD);
        mpfr_mul_ui(t, t, ds[i].steps, MPFR_RNDD);
        mpfr_add(pinf, pinf, t, MPFR_RNDD);
    }
    mpfr_expm1(pinf, pinf, MPFR_RNDD);
    mpfr_neg(pinf, pinf, MPFR_RNDU);
    mpfr_clear(t);
}



void ul_pld_dir_free(dir_state *S)
{
    if (S->have_fc)
        fft_ctx_clear(&S->fc);
    for (size_t i = 0; S->ds != NULL && i < S->nd; i++)
        ul_pld_disc_clear(&S->ds[i]);
    free(S->ds);
    mpfr_clears(S->w.up_pess, S->w.lo_pess, (mpfr_ptr)0);
    mpfr_clears(S->E2, S->pinf, (mpfr_ptr)0);
    mpfi_clear(S->A);
}

/* Tilts every array for tc (pld_tilt.c, §5) when it helps and there is a
 * composition; S->lambda, S->A and *tau_w (into tilted units) follow. */
static void tilt_all(dir_state *S, tilt_choice *tc, double *tau_w)
{
    double lambda = 0, eps_ref = tc->x;
    if (tc->mode == TILT_DELTA)
        lambda = ul_pld_tilt_lambda_delta(S->ds, S->nd, S->h, tc->x);
    else if (tc->mode == TILT_EPS)
        lambda = ul_pld_tilt_lambda_eps(S->ds, S->nd, S->h, tc->x, &eps_ref);
    tc->lambda = 0;
    tc->eps_ref = eps_ref;
    /* no composition, or ε beyond the composed support (only the mass at +∞
     * counts there; a tilt towards it would only rescale the window's tails) */
    double top = 0;
    for (size_t i = 0; i < S->nd; i++)
        top += (double)S->ds[i].steps * (S->ds[i].k_lo + (double)S->ds[i].n - 1) * S->h;
    if (!(lambda > 0) || !isfinite(eps_ref) || eps_ref >= top ||
        (S->nd == 1 && S->ds[0].steps == 1))
        return;
    /* every L_i finite and one scratch array, or no tilt at all */
    size_t nmax = 0;
    double L[UL_PLD_MAX_MECHANISMS];
    for (size_t i = 0; i < S->nd; i++) {
        L[i] = ul_pld_tilt_log_mgf(&S->ds[i], lambda, S->h);
        if (!isfinite(L[i]))
            return;
        nmax = S->ds[i].n > nmax ? S->ds[i].n : nmax;
    }
    long double *buf = malloc(nmax * sizeof *buf);
    if (buf == NULL)
        return;
    mpfi_t t;
    mpfi_init2(t, BUDGET_PREC);
    for (size_t i = 0; i < S->nd; i++) {
        ul_pld_tilt(&S->ds[i], lambda, L[i], S->h, buf);
        mpfi_set_d(t, L[i]); /* exact */
        mpfi_mul_ui(t, t, S->ds[i].steps);
        mpfi_add(S->A, S->A, t);
    }
    mpfi_clear(t);
    free(buf);
    S->lambda = tc->lambda = lambda;
    double log_k = mpfi_get_d(S->A) - lambda * eps_ref;
    *tau_w = fmin(fmax(*tau_w * exp(fmin(700, -log_k)), 1e-300), 1e-8);
}

/* Discretises every mechanism (its direction set by the caller), chooses the
 * window and composes (§1–3); res gets N, the grid size and the slack.
 * S must be dir_free'd whatever the status. */
ul_status ul_pld_dir_build(dir_state *S, mech *ms, size_t nm, double h, double tau,
                           const fft_format *f, unsigned long max_points, tilt_choice *tc,
                           dir_result *res, char *err, size_t errlen)
{
    memset(S, 0, sizeof *S);
    mpfr_inits2(64, S->w.up_pess, S->w.lo_pess, (mpfr_ptr)0);
    mpfr_inits2(BUDGET_PREC, S->E2, S->pinf, (mpfr_ptr)0);
    mpfi_init2(S->A, BUDGET_PREC);
    mpfi_set_ui(S->A, 0);
    S->h = h;
    S->nd = nm;
    for (size_t i = 0; i < nm; i++)
        S->T += (double)ms[i].steps;
    S->ds = calloc(nm, sizeof *S->ds);
    if (S->ds == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "out of memory");
    for (size_t i = 0; i < nm; i++)
        ul_pld_disc_init(&S->ds[i]);
    ul_status st = precheck_size(ms, nm, h, tau, max_points, err, errlen);
    for (size_t i = 0; i < nm && st == UL_OK; i++) {
        st = ul_pld_discretise(&S->ds[i], &ms[i], h, tau / (8 * S->T), max_points, err, errlen);
        S->ds[i].rho = RHO0;
        S->ds[i].tilt_L = 0;
    }
    double tau_w = tau / 8;
    if (st == UL_OK && tc != NULL)
        tilt_all(S, tc, &tau_w);
    if (st == UL_OK)
        st = ul_pld_choose_window(&S->w, S->ds, nm, h, tau_w, max_points, err, errlen);
    if (st != UL_OK)
        return st;
    res->N = S->w.N;
    res->lambda = S->lambda;
    res->nmax = 0;
    res->slack = 0;
    for (size_t i = 0; i < nm; i++) {
        if (S->ds[i].n > res->nmax)
            res->nmax = S->ds[i].n;
        res->slack += (double)S->ds[i].steps * mpfr_get_d(S->ds[i].slack, MPFR_RNDU);
    }
    mass_at_infinity(S->pinf, S->ds, nm);
    char label[80]; /* a label-only progress report (num/progress.h): the FFT can take seconds */
    snprintf(label, sizeof label, "PLD: composing %zu points by FFT", S->w.N);
    ul_progress_step(0, label);
    if (!(nm == 1 && S->ds[0].steps == 1)) {
        if (!fft_ctx_init(&S->fc, S->w.N, nm, f->is_long))
            return ul_fail(err, errlen, UL_EINPUT,
                           "grid-step: %g: out of memory for an FFT of %zu points", h, S->w.N);
        S->have_fc = true;
    }
    ul_pld_fft_end end = compose_all(&S->c, S->E2, S->have_fc ? &S->fc : NULL, S->ds, nm, &S->w, f);
    if (end == UL_PLD_FFT_LATE)
        return ul_pld_time_out(err, errlen, "the FFT", S->w.N);
    if (end != UL_PLD_FFT_DONE)
        return ul_fail(err, errlen, UL_EINPUT,
                       "grid-step: %g: out of memory for the FFT twiddles", h);
    return UL_OK;
}

/* The certified ends at the box [eps_lo, eps_hi] (§4); S->late (and no
 * bound in res) when the time budget ran out. */
void ul_pld_dir_read(dir_state *S, mpfr_srcptr eps_lo, mpfr_srcptr eps_hi, dir_result *res,
                     bool want_hi, bool want_lo)
{
    if (want_hi)
        upper_end(res->hi, res, S, eps_lo);
    if (want_lo && !S->late)
        lower_end(res->lo, res, S, eps_lo, eps_hi);
}

ul_status ul_pld_evaluate_direction(mech *ms, size_t nm, mpfi_srcptr eps, double h, double tau,
                                    const fft_format *f, unsigned long max_points, bool tilt,
                                    dir_result *res, char *err, size_t errlen)
{
    dir_state S;
    tilt_choice tc = {tilt ? TILT_DELTA : TILT_NONE, mpfi_get_d(eps), 0, 0};
    ul_status st = ul_pld_dir_build(&S, ms, nm, h, tau, f, max_points, &tc, res, err, errlen);
    if (st == UL_OK) {
        mpfr_t eps_lo, eps_hi;
        mpfr_inits2(BUDGET_PREC, eps_lo, eps_hi, (mpfr_ptr)0);
        mpfi_get_left(eps_lo, eps);
        mpfi_get_right(eps_hi, eps);
        ul_pld_dir_read(&S, eps_lo, eps_hi, res, true, true);
        mpfr_clears(eps_lo, eps_hi, (mpfr_ptr)0);
        if (S.late)
            st = ul_pld_time_out(err, errlen, "reading delta off", S.w.N);
    }
    ul_pld_dir_free(&S);
    return st;
}

