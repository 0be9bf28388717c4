/* src/bounds/pld_compose.c — composition by FFT of the pess and opt arrays
 * (one complex transform for both), the a-priori rounding budget, δ read
 * off the two composed arrays, one direction at one grid (pld.c §3–4). */

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



/* One mechanism's forward transform, split (§3a): Z = F(pess + i·opt), and
 * for the pair (j, N − j) the spectra of the two real arrays are
 * X_j = (Z_j + conj Z_{N−j})/2 (pess) and Y_j = (Z_j − conj Z_{N−j})/(2i) (opt),
 * X_{N−j} = conj X_j, Y_{N−j} = conj Y_j.  The accumulators keep X_j in
 * slot j and Y_j in slot N − j for 0 < j < N/2; at j = 0 and N/2 both are
 * real, X in the real and Y in the imaginary part of slot j. */
#define DEFINE_COMPOSE(NAME, CPOW, FFT, REAL)                                           \
    static void NAME##_mul(REAL *r, REAL *i, REAL xr, REAL xi, bool first)              \
    {                                                                                   \
        if (first) {                                                                    \
            *r = xr;                                                                    \
            *i = xi;                                                                    \
        } else {                                                                        \
            REAL t = *r * xr - *i * xi;                                                 \
            *i = *r * xi + *i * xr;                                                     \
            *r = t;                                                                     \
        }                                                                               \
    }                                                                                   \
    /* Both compositions, pess and opt, circular of length N, unnormalised (N    \
     * times them): pess in acc_re, opt in acc_im.  false, with *end saying why, \
     * when the twiddles cannot be allocated or the deadline passed (asked in the \
     * transforms and every PLD_CHECK_POINTS pairs). */                           \
    static bool NAME(fft_ctx *c, const disc *ds, size_t nd, ul_pld_fft_end *end)        \
    {                                                                                   \
        REAL *wr = c->work_re, *wi = c->work_im, *ar = c->acc_re, *ai = c->acc_im;      \
        size_t N = c->N, half = N / 2;                                                  \
        for (size_t i = 0; i < nd; i++) {                                               \
            if (ul_pld_late()) { /* before each transform's setup */                    \
                *end = UL_PLD_FFT_LATE;                                                 \
                return false;                                                           \
            }                                                                           \
            memset(wr, 0, N * sizeof(REAL));                                            \
            memset(wi, 0, N * sizeof(REAL));                                            \
            for (size_t k = 0; k < ds[i].n; k++) {                                      \
                wr[k] = (REAL)ds[i].pess[k]; /* exact */                                \
                wi[k] = (REAL)ds[i].opt[k];                                             \
            }                                                                           \
            if ((*end = FFT(wr, wi, N, false, true)) != UL_PLD_FFT_DONE)                \
                return false;                                                           \
            for (size_t j = 0; j <= half; j++) {                                        \
                if (j % PLD_CHECK_POINTS == 0 && j > 0 && ul_pld_late()) {              \
                    *end = UL_PLD_FFT_LATE;                                             \
                    return false;                                                       \
                }                                                                       \
                size_t jj = (N - j) & (N - 1);                                          \
                REAL zr = wr[j], zi = wi[j], yr = wr[jj], yi = wi[jj];                  \
                REAL Xr = (zr + yr) / 2, Xi = (zi - yi) / 2;                            \
                REAL Yr = (zi + yi) / 2, Yi = (yr - zr) / 2;                            \
                CPOW(&Xr, &Xi, ds[i].steps);                                            \
                CPOW(&Yr, &Yi, ds[i].steps);                                            \
                if (jj == j) { /* j = 0 or N/2: X and Y real */                         \
                    REAL zero = 0;                                                      \
                    NAME##_mul(&ar[j], &zero, Xr, 0, i == 0);                           \
                    zero = 0;                                                           \
                    NAME##_mul(&ai[j], &zero, Yr, 0, i == 0);                           \
                } else {                                                                \
                    NAME##_mul(&ar[j], &ai[j], Xr, Xi, i == 0);                         \
                    NAME##_mul(&ar[jj], &ai[jj], Yr, Yi, i == 0);                       \
                }                                                                       \
            }                                                                           \
        }                                                                               \
        /* W = X + iY, so that F⁻¹W = N·(pess + i·opt) composed */                     \
        for (size_t j = 1; j < half; j++) {                                             \
            size_t jj = N - j;                                                          \
            REAL Xr = ar[j], Xi = ai[j], Yr = ar[jj], Yi = ai[jj];                      \
            ar[j] = Xr - Yi;                                                            \
            ai[j] = Xi + Yr;                                                            \
            ar[jj] = Xr + Yi;                                                           \
            ai[jj] = Yr - Xi;                                                           \
        }                                                                               \
        return (*end = FFT(ar, ai, N, true, true)) == UL_PLD_FFT_DONE;                  \
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

/* One array family's side of §3b–c (pess or opt): M = max_i(S_i + E_i),
 * Σ T_i E_i, min_i(√N‖p_i‖₂ + E_i) and min_i ‖p_i‖₂, E_i = γ′√N·‖z_i‖₂ the
 * entrywise error of its split spectrum (z_i = pess_i + i·opt_i). */
typedef struct {
    mpfr_t M, sumTE, minA, minP;
} side_norms;

static void side_norms_of(side_norms *o, const disc *ds, size_t nd, bool opt, mpfr_srcptr gp,
                          mpfr_srcptr sqrtN)
{
    mpfr_t E, t;
    mpfr_inits2(BUDGET_PREC, E, t, (mpfr_ptr)0);
    mpfr_inits2(BUDGET_PREC, o->M, o->sumTE, o->minA, o->minP, (mpfr_ptr)0);
    mpfr_set_zero(o->M, 1);
    mpfr_set_zero(o->sumTE, 1);
    mpfr_set_inf(o->minA, 1);
    mpfr_set_inf(o->minP, 1);
    for (size_t i = 0; i < nd; i++) {
        mpfr_srcptr l2 = opt ? ds[i].l2_opt : ds[i].l2_pess;
        mpfr_srcptr S = opt ? ds[i].sum_opt : ds[i].sum_pess;
        mpfr_sqr(E, ds[i].l2_pess, MPFR_RNDU);
        mpfr_sqr(t, ds[i].l2_opt, MPFR_RNDU);
        mpfr_add(E, E, t, MPFR_RNDU);
        mpfr_sqrt(E, E, MPFR_RNDU); /* ‖z_i‖₂ */
        mpfr_mul(E, E, gp, MPFR_RNDU);
        mpfr_mul(E, E, sqrtN, MPFR_RNDU);
        mpfr_add(t, S, E, MPFR_RNDU);
        if (mpfr_greater_p(t, o->M))
            mpfr_set(o->M, t, MPFR_RNDU);
        mpfr_mul_ui(t, E, ds[i].steps, MPFR_RNDU);
        mpfr_add(o->sumTE, o->sumTE, t, MPFR_RNDU);
        mpfr_mul(t, sqrtN, l2, MPFR_RNDU);
        mpfr_add(t, t, E, MPFR_RNDU);
        if (mpfr_less_p(t, o->minA))
            mpfr_set(o->minA, t, MPFR_RNDU);
        if (mpfr_less_p(l2, o->minP))
            mpfr_set(o->minP, l2, MPFR_RNDU);
    }
    mpfr_clears(E, t, (mpfr_ptr)0);
}

static void side_norms_clear(side_norms *o)
{
    mpfr_clears(o->M, o->sumTE, o->minA, o->minP, (mpfr_ptr)0);
}

/* D ≥ ‖P̃ − P‖₂ of one side's frequency-domain product (§3b):
 * M^{T−1}·(Σ T_i E_i + ρ·min_i(√N‖p_i‖ + E_i)); G ≥ ‖P‖₂/√N = M^{T−1}·min‖p_i‖. */
static void side_product(mpfr_ptr D, mpfr_ptr G, const side_norms *o, unsigned long T,
                         mpfr_srcptr rho)
{
    mpfr_t Mpow, t;
    mpfr_inits2(BUDGET_PREC, Mpow, t, (mpfr_ptr)0);
    mpfr_pow_ui(Mpow, o->M, T - 1, MPFR_RNDU);
    mpfr_mul(t, rho, o->minA, MPFR_RNDU);
    mpfr_add(D, o->sumTE, t, MPFR_RNDU);
    mpfr_mul(D, D, Mpow, MPFR_RNDU);
    mpfr_mul(G, Mpow, o->minP, MPFR_RNDU);
    mpfr_clears(Mpow, t, (mpfr_ptr)0);
}

/* E2 ≥ ‖x̂ − x‖₂ and ‖ŷ − y‖₂ (§3c), x, y the composed pess and opt arrays,
 * at length N in format f.  With γ_N of Higham Thm 24.2 and u the unit
 * roundoff: the split spectra err entrywise by E_i = γ′√N‖z_i‖₂, γ′ =
 * γ_N(1 + 2u) + 4u (the forward error, halved twice and summed, and one
 * rounding per split component); each side's product by D_s (side_product);
 * W = X + iY by Δ = (1 + 2u)(D_X + D_Y) + 2u√N·G, G = G_X + G_Y; the inverse
 * transform adds γ_N√N(√N·G + Δ); divided by N:
 *     E2 = ((1 + γ_N)·Δ/√N + γ_N·G) + E_uf. */
static void rounding_l2(mpfr_ptr E2, const disc *ds, size_t nd, size_t N, const fft_format *f)
{
    mpfr_t u, gN, gp, sqrtN, rho, DX, DY, GX, GY, t;
    mpfr_inits2(BUDGET_PREC, u, gN, gp, sqrtN, rho, DX, DY, GX, GY, t, (mpfr_ptr)0);
    mpfr_set_ui_2exp(u, 1, -f->mant, MPFR_RNDN); /* exact */
    ul_pld_fft_gamma(gN, N, f->mant);            /* Higham Thm 24.2 for pld_fft.c (§3a) */
    mpfr_sqrt_ui(sqrtN, N, MPFR_RNDU);
    mpfr_mul_2ui(t, u, 1, MPFR_RNDU);
    mpfr_add_ui(t, t, 1, MPFR_RNDU);
    mpfr_mul(gp, gN, t, MPFR_RNDU);
    mpfr_mul_2ui(t, u, 2, MPFR_RNDU);
    mpfr_add(gp, gp, t, MPFR_RNDU); /* γ′ */
    unsigned long T = 0;
    for (size_t i = 0; i < nd; i++)
        T += ds[i].steps;
    /* ρ = (1 + 4u)^{T−1} − 1 = expm1((T−1)·log1p(4u)) */
    mpfr_mul_ui(rho, u, 4, MPFR_RNDU);
    mpfr_log1p(rho, rho, MPFR_RNDU);
    mpfr_mul_ui(rho, rho, T - 1, MPFR_RNDU);
    mpfr_expm1(rho, rho, MPFR_RNDU);
    side_norms sx, sy;
    side_norms_of(&sx, ds, nd, false, gp, sqrtN);
    side_norms_of(&sy, ds, nd, true, gp, sqrtN);
    side_product(DX, GX, &sx, T, rho);
    side_product(DY, GY, &sy, T, rho);
    /* Δ = (1 + 2u)(D_X + D_Y) + 2u√N·G, G = G_X + G_Y (into GX) */
    mpfr_add(GX, GX, GY, MPFR_RNDU);
    mpfr_add(DX, DX, DY, MPFR_RNDU);
    mpfr_mul_2ui(t, u, 1, MPFR_RNDU);
    mpfr_add_ui(t, t, 1, MPFR_RNDU);
    mpfr_mul(DX, DX, t, MPFR_RNDU);
    mpfr_mul_2ui(t, u, 1, MPFR_RNDU);
    mpfr_mul(t, t, sqrtN, MPFR_RNDU);
    mpfr_mul(t, t, GX, MPFR_RNDU);
    mpfr_add(DX, DX, t, MPFR_RNDU); /* Δ */
    /* E2 = (1 + γ_N)·Δ/√N + γ_N·G */
    mpfr_add_ui(t, gN, 1, MPFR_RNDU);
    mpfr_mul(E2, t, DX, MPFR_RNDU);
    mpfr_sqrt_ui(t, N, MPFR_RNDD);
    mpfr_div(E2, E2, t, MPFR_RNDU);
    mpfr_mul(t, gN, GX, MPFR_RNDU);
    mpfr_add(E2, E2, t, MPFR_RNDU);
    /* E_uf = 2^(emin − p + 111)·max(1, M^T), M the larger side's (two arrays) */
    mpfr_max(t, sx.M, sy.M, MPFR_RNDU);
    mpfr_pow_ui(t, t, T, MPFR_RNDU);
    if (mpfr_cmp_ui(t, 1) < 0)
        mpfr_set_ui(t, 1, MPFR_RNDU);
    mpfr_mul_2si(t, t, f->min_exp - f->mant + 111, MPFR_RNDU);
    mpfr_add(E2, E2, t, MPFR_RNDU);
    side_norms_clear(&sx);
    side_norms_clear(&sy);
    mpfr_clears(u, gN, gp, sqrtN, rho, DX, DY, GX, GY, t, (mpfr_ptr)0);
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





/* Composes the pess and opt arrays (none for a single step: one mechanism
 * applied once); E2 ≥ the ℓ2 rounding error of each (§3c; 0 without a
 * transform).  UL_PLD_FFT_NOMEM: out of memory; UL_PLD_FFT_LATE: the deadline
 * passed. */
static ul_pld_fft_end compose_all(composed *c, composed *c_opt, mpfr_ptr E2, fft_ctx *fc,
                                  const disc *ds, size_t nd, const window *w,
                                  const fft_format *f)
{
    mpfr_set_zero(E2, 1);
    if (fc == NULL) {
        *c = (composed){ds[0].pess, false, ds[0].n, 0};
        *c_opt = (composed){ds[0].opt, false, ds[0].n, 0};
        return UL_PLD_FFT_DONE;
    }
    ul_pld_fft_end end = UL_PLD_FFT_DONE;
    bool done = f->is_long ? compose_l(fc, ds, nd, &end) : compose_d(fc, ds, nd, &end);
    if (!done)
        return end;
    int scale = 0;
    while (((size_t)1 << scale) < w->N)
        scale++;
    *c = (composed){fc->acc_re, f->is_long, w->N, scale};
    *c_opt = (composed){fc->acc_im, f->is_long, w->N, scale};
    rounding_l2(E2, ds, nd, w->N, f);
    return UL_PLD_FFT_DONE;
}

long double ul_pld_composed_at(const composed *c, const window *w, double m)
{
    size_t pos = (size_t)fmod(m, (double)w->N);
    if (pos >= c->len)
        return 0;
    return c->is_long ? ((const long double *)c->y)[pos] : ((const double *)c->y)[pos];
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

/* slack ≥ K(ε)·(Σ_i T_i ε̃_i)·M^{T−1} + (Σ_i T_i ε_i)·(Σ_i T_i p∞_i)·M′^{T−1}:
 * what the composed opt arrays may exceed δ(ε) by, in real units
 * (pld_opt.c).  ε̃_i is the debt ε_i tilted at its loss u_i = ℓ_{n_i}
 * (e^{λu_i − L_i}; λ = 0 untilted), M = max_i(S̃_i + ε̃_i) with S̃_i the
 * (tilted) pess sum: the Chernoff term of the other steps' finite part.  The
 * second term is their mass at +∞ (an other step at +∞ makes f = 1):
 * Π(F_s + p∞_s) − ΠF_s ≤ (Σ p∞_s)·M′^{T−1}, M′ = max(1, max_s(S_s + ε_s + p∞_s))
 * with the real sums S_s. */
static void opt_slack(mpfr_ptr slack, const dir_state *S, mpfr_srcptr eps_hi)
{
    mpfr_t M, M2, t, e, sum_e, sum_p;
    mpfr_inits2(BUDGET_PREC, M, M2, t, e, sum_e, sum_p, (mpfr_ptr)0);
    unsigned long T = 0;
    mpfr_set_zero(M, 1);
    mpfr_set_ui(M2, 1, MPFR_RNDU);
    mpfr_set_zero(slack, 1);
    mpfr_set_zero(sum_e, 1);
    mpfr_set_zero(sum_p, 1);
    for (size_t i = 0; i < S->nd; i++) {
        const disc *d = &S->ds[i];
        T += d->steps;
        mpfr_set_d(e, d->opt_debt, MPFR_RNDU);
        mpfr_add_d(t, e, d->sum_pess_real, MPFR_RNDU);
        mpfr_add(t, t, d->p_inf, MPFR_RNDU);
        if (mpfr_greater_p(t, M2))
            mpfr_set(M2, t, MPFR_RNDU);
        mpfr_mul_ui(t, e, d->steps, MPFR_RNDU);
        mpfr_add(sum_e, sum_e, t, MPFR_RNDU);
        mpfr_mul_ui(t, d->p_inf, d->steps, MPFR_RNDU);
        mpfr_add(sum_p, sum_p, t, MPFR_RNDU);
        if (S->lambda > 0 && d->opt_debt > 0) {
            ul_pld_exact_loss(t, d->k_lo + (double)d->n, S->h); /* u_i */
            mpfr_mul_d(t, t, S->lambda, MPFR_RNDU);
            mpfr_sub_d(t, t, d->tilt_L, MPFR_RNDU);
            mpfr_exp(t, t, MPFR_RNDU);
            mpfr_mul(e, e, t, MPFR_RNDU); /* ε̃_i */
        }
        mpfr_add(t, d->sum_pess, e, MPFR_RNDU);
        if (mpfr_greater_p(t, M))
            mpfr_set(M, t, MPFR_RNDU);
        mpfr_mul_ui(e, e, d->steps, MPFR_RNDU);
        mpfr_add(slack, slack, e, MPFR_RNDU);
    }
    mpfr_pow_ui(M, M, T - 1, MPFR_RNDU);
    mpfr_mul(slack, slack, M, MPFR_RNDU);
    times_k(slack, S, eps_hi, true);
    mpfr_pow_ui(M2, M2, T - 1, MPFR_RNDU);
    mpfr_mul(t, sum_e, sum_p, MPFR_RNDU);
    mpfr_mul(t, t, M2, MPFR_RNDU);
    mpfr_add(slack, slack, t, MPFR_RNDU);
    mpfr_clears(M, M2, t, e, sum_e, sum_p, (mpfr_ptr)0);
}

/* lo (§4): the composed opt sum at ε's upper end − its rounding − the mass
 * outside the window (tilted sums times K(ε), §5) − the opt slack, and at
 * least max(0, 1 − e^ε). */
static void lower_end(mpfr_ptr lo, dir_result *res, dir_state *S, mpfr_srcptr eps_hi)
{
    const composed *c = &S->c_opt;
    const window *w = &S->w;
    weighted_sum ws;
    mpfr_inits2(BUDGET_PREC, ws.lo, ws.hi, ws.err, (mpfr_ptr)0);
    mpfr_t rnd, t;
    mpfr_inits2(BUDGET_PREC, rnd, t, (mpfr_ptr)0);
    sum_weighted(&ws, c->y, c->is_long, c->len, c->scale, w, S->h, eps_hi, S->lambda);
    S->late = S->late || ws.late;
    rounding_total(rnd, &ws, S->E2);
    mpfr_sub(lo, ws.lo, rnd, MPFR_RNDD);
    mpfr_add(t, w->up_opt, w->lo_opt, MPFR_RNDU);
    mpfr_sub(lo, lo, t, MPFR_RNDD); /* ≤ the composed opt sum, tilted units (g ≤ 1 on the
                                       wrapped mass) */
    times_k(rnd, S, eps_hi, true);
    times_k(t, S, eps_hi, true);
    res->round_lo = mpfr_get_d(rnd, MPFR_RNDU);
    res->tails_lo = mpfr_get_d(t, MPFR_RNDU);
    times_k(lo, S, eps_hi, false); /* into real units, a lower bound */
    opt_slack(t, S, eps_hi);
    mpfr_sub(lo, lo, t, MPFR_RNDD);
    times_k(ws.lo, S, eps_hi, false); /* the report's optimistic sum */
    res->opt = mpfr_get_d(ws.lo, MPFR_RNDN);
    /* E_γ ≥ max(0, 1 − e^ε) */
    mpfr_exp(t, eps_hi, MPFR_RNDU);
    mpfr_ui_sub(t, 1, t, MPFR_RNDD);
    if (mpfr_sgn(t) < 0)
        mpfr_set_zero(t, 1);
    if (mpfr_less_p(lo, t))
        mpfr_set(lo, t, MPFR_RNDD);
    mpfr_clears(ws.lo, ws.hi, ws.err, rnd, t, (mpfr_ptr)0);
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
    mpfr_clears(S->w.up_pess, S->w.lo_pess, S->w.up_opt, S->w.lo_opt, (mpfr_ptr)0);
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
    mpfr_inits2(64, S->w.up_pess, S->w.lo_pess, S->w.up_opt, S->w.lo_opt, (mpfr_ptr)0);
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
    ul_pld_fft_end end = compose_all(&S->c, &S->c_opt, S->E2, S->have_fc ? &S->fc : NULL, S->ds,
                                     nm, &S->w, f);
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
        lower_end(res->lo, res, S, eps_hi);
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

