/* src/bounds/pld_fft.c — radix-2 FFT with twiddles proven within μ (see pld_fft.h).
 *
 * The butterfly is the textbook one, y_a = x_a + ω·x_b, y_b = x_a − ω·x_b,
 * with the complex product computed by the 4-multiplication formula; each
 * real operation is one IEEE rounding (an FMA contraction, if the compiler
 * made one, removes a rounding and keeps |fl(ωx) − ωx| ≤ √2·γ_2·|ω||x|,
 * Higham Lemma 3.5, which is what Thm 24.2 uses).  The inverse runs the same
 * butterflies with conjugated twiddles: that is bit for bit conj(F conj(x))
 * (negation is exact and fl(a − b) = −fl(b − a)), so Thm 24.2 covers it.
 *
 * Twiddles (pld_fft.h for the bound μ): ω^{aB} and ω^b from mpfr_cosu /
 * mpfr_sinu at long double precision, round to nearest (correctly rounded,
 * MPFR 4.2 manual §5.7), multiplied in long double by the 4-multiplication
 * formula.  The table is stage-major (entry half + k is ω_{2·half}^k): each
 * stage's entries are copies of every other entry of the stage above, the
 * same numbers the top stage uses for those angles.
 */
#include "bounds/pld_fft.h"

#include <float.h>
#include <stdlib.h>

#include "num/deadline.h"

/* The deadline is asked every PLD_CHECK_POINTS points of a long pass (bit
 * reversal, the twiddle table, one butterfly stage), and before every stage
 * of a block of at least CHECK_BLOCK points: whatever N, at most about a
 * million butterflies run between two asks. */
#define CHECK_BLOCK ((size_t)1 << 16)

static _Thread_local bool (*late_hook)(void); /* per thread: each call its own */

void ul_pld_set_late_hook(bool (*hook)(void))
{
    late_hook = hook;
}

bool ul_pld_late(void)
{
    return late_hook != NULL ? late_hook() : ul_deadline_passed();
}

typedef struct {
    size_t N;       /* the largest length served */
    void *re, *im;  /* stage-major: entry half + k is ω_{2·half}^k, half = 1, 2, … N/2 */
} twiddles;

/* per thread: the library may run in several threads at once, each with its
 * own cache (released at the end of each call, pld.c) */
static _Thread_local twiddles TW_D, TW_L;

static void table_free(twiddles *t)
{
    free(t->re);
    free(t->im);
    t->re = t->im = NULL;
    t->N = 0;
}

void ul_pld_fft_release(void)
{
    table_free(&TW_D);
    table_free(&TW_L);
}

/* c + i·s = e^{2πij/N}, components correctly rounded to long double. */
static void cos_sin(long double *c, long double *s, mpfr_ptr x, mpfr_ptr y, size_t j, size_t N)
{
    mpfr_set_ui(x, (unsigned long)j, MPFR_RNDN); /* exact: j < 2^30 */
    mpfr_cosu(y, x, (unsigned long)N, MPFR_RNDN);
    *c = mpfr_get_ld(y, MPFR_RNDN);
    mpfr_sinu(y, x, (unsigned long)N, MPFR_RNDN);
    *s = mpfr_get_ld(y, MPFR_RNDN);
}

/* Fills the table for length N = 2^t: ω^j = e^{−2πij/N}, j < N/2, as
 * ω^{aB}·ω^{b} (j = aB + b, B = 2^⌈t/2⌉) from two correctly rounded long
 * double tables, multiplied in long double, then stored in REAL (§ header). */
#define DEFINE_TABLE(NAME, REAL)                                                        \
    static ul_pld_fft_end NAME(twiddles *t, size_t N, bool watch)                       \
    {                                                                                   \
        if (t->N >= N)                                                                  \
            return UL_PLD_FFT_DONE;                                                     \
        table_free(t);                                                                  \
        size_t H = N / 2 > 0 ? N / 2 : 1, B = 1;                                        \
        while (B * B < N)                                                               \
            B <<= 1;                                                                    \
        REAL *re = malloc(2 * H * sizeof *re), *im = malloc(2 * H * sizeof *im);        \
        long double *fc = malloc(B * sizeof *fc), *fs = malloc(B * sizeof *fs);         \
        bool ok = re != NULL && im != NULL && fc != NULL && fs != NULL, late = false;   \
        mpfr_t x, y;                                                                    \
        mpfr_init2(x, 64);                                                              \
        mpfr_init2(y, LDBL_MANT_DIG);                                                   \
        for (size_t b = 0; ok && b < B; b++)                                            \
            cos_sin(&fc[b], &fs[b], x, y, b, N);                                        \
        for (size_t a = 0; ok && a * B < H; a++) { /* ω^j into im/re[H + j] */        \
            if (watch && a * B % PLD_CHECK_POINTS == 0 && a > 0 && ul_pld_late()) {    \
                ok = false;                                                             \
                late = true;                                                            \
                break;                                                                  \
            }                                                                           \
            long double cc, cs;                                                         \
            cos_sin(&cc, &cs, x, y, a * B, N);                                          \
            for (size_t b = 0; b < B && a * B + b < H; b++) {                           \
                long double pr = cc * fc[b] - cs * fs[b], pi = cc * fs[b] + cs * fc[b]; \
                re[H + a * B + b] = (REAL)pr;                                           \
                im[H + a * B + b] = (REAL)-pi;                                          \
            }                                                                           \
        }                                                                               \
        /* stage len = 2·half uses ω_len^k = ω_N^{k·H/half}: every other entry of   \
         * the stage above (the same values, copied) */                                \
        for (size_t half = H / 2; ok && half >= 1; half >>= 1)                          \
            for (size_t k = 0; k < half; k++) {                                         \
                re[half + k] = re[2 * half + 2 * k];                                    \
                im[half + k] = im[2 * half + 2 * k];                                    \
            }                                                                           \
        mpfr_clears(x, y, (mpfr_ptr)0);                                                 \
        free(fc);                                                                       \
        free(fs);                                                                       \
        if (!ok) {                                                                      \
            free(re);                                                                   \
            free(im);                                                                   \
            return late ? UL_PLD_FFT_LATE : UL_PLD_FFT_NOMEM;                           \
        }                                                                               \
        t->N = N;                                                                       \
        t->re = re;                                                                     \
        t->im = im;                                                                     \
        return UL_PLD_FFT_DONE;                                                         \
    }

/* The butterflies of the stages len = 2 … n on the block [0, n) (after bit
 * reversal), depth first: blocks that fit in cache finish all their stages
 * before the next block starts.  Independent butterflies in another order:
 * the same operations on the same operands, so the same result bit for bit.
 * With watch, a block of at least CHECK_BLOCK points asks the deadline
 * before its last stage and every PLD_CHECK_POINTS butterflies of it (the
 * same butterflies in the same order): false when it has passed. */
#define DEFINE_STAGES(NAME, REAL)                                                       \
    static bool NAME(REAL *re, REAL *im, size_t n, const REAL *wr, const REAL *wi,      \
                     REAL sgn, bool watch)                                              \
    {                                                                                   \
        size_t first = 2;                                                               \
        if (n > 4096) {                                                                 \
            if (!NAME(re, im, n / 2, wr, wi, sgn, watch) ||                             \
                !NAME(re + n / 2, im + n / 2, n / 2, wr, wi, sgn, watch))               \
                return false;                                                           \
            first = n;                                                                  \
        }                                                                               \
        bool ask = watch && n >= CHECK_BLOCK;                                           \
        for (size_t len = first; len <= n; len <<= 1) {                                 \
            size_t half = len / 2;                                                      \
            for (size_t b = 0; b < n; b += len) {                                       \
                REAL *ar = re + b, *ai = im + b, *br = re + b + half, *bi = im + b + half; \
                for (size_t k0 = 0; k0 < half; k0 += PLD_CHECK_POINTS) {                \
                    if (ask && ul_pld_late())                                           \
                        return false;                                                   \
                    size_t k1 = half - k0 > PLD_CHECK_POINTS ? k0 + PLD_CHECK_POINTS : half; \
                    for (size_t k = k0; k < k1; k++) {                                  \
                        REAL cr = wr[half + k], ci = sgn * wi[half + k];                \
                        REAL tr = cr * br[k] - ci * bi[k], ti = cr * bi[k] + ci * br[k]; \
                        br[k] = ar[k] - tr;                                             \
                        bi[k] = ai[k] - ti;                                             \
                        ar[k] = ar[k] + tr;                                             \
                        ai[k] = ai[k] + ti;                                             \
                    }                                                                   \
                }                                                                       \
            }                                                                           \
        }                                                                               \
        return true;                                                                    \
    }

#define DEFINE_FFT(NAME, TABLE, STAGES, TW, REAL)                                       \
    ul_pld_fft_end NAME##_watch(REAL *re, REAL *im, size_t N, bool inverse, bool watch) \
    {                                                                                   \
        ul_pld_fft_end e = TABLE(&TW, N, watch);                                        \
        if (e != UL_PLD_FFT_DONE)                                                       \
            return e;                                                                   \
        for (size_t i = 1, j = 0; i < N; i++) { /* bit reversal */                      \
            if (watch && i % PLD_CHECK_POINTS == 0 && ul_pld_late())                    \
                return UL_PLD_FFT_LATE;                                                 \
            size_t bit = N >> 1;                                                        \
            for (; j & bit; bit >>= 1)                                                  \
                j ^= bit;                                                               \
            j ^= bit;                                                                   \
            if (i < j) {                                                                \
                REAL t = re[i];                                                         \
                re[i] = re[j];                                                          \
                re[j] = t;                                                              \
                t = im[i];                                                              \
                im[i] = im[j];                                                          \
                im[j] = t;                                                              \
            }                                                                           \
        }                                                                               \
        if (!STAGES(re, im, N, (const REAL *)TW.re, (const REAL *)TW.im, inverse ? -1 : 1, \
                    watch))                                                             \
            return UL_PLD_FFT_LATE;                                                     \
        return UL_PLD_FFT_DONE;                                                         \
    }                                                                                   \
    bool NAME(REAL *re, REAL *im, size_t N, bool inverse)                               \
    {                                                                                   \
        return NAME##_watch(re, im, N, inverse, false) == UL_PLD_FFT_DONE;              \
    }

DEFINE_TABLE(table_d, double)
DEFINE_TABLE(table_l, long double)
DEFINE_STAGES(stages_d, double)
DEFINE_STAGES(stages_l, long double)
DEFINE_FFT(ul_pld_fft_d, table_d, stages_d, TW_D, double)
DEFINE_FFT(ul_pld_fft_l, table_l, stages_l, TW_L, long double)

/* γ = tη/(1 − tη), η = μ + γ_4(√2 + μ) (Higham Thm 24.2), u = 2^-mant;
 * μ = 5u_L for the long double table, u + 6u_L for the double one (header). */
void ul_pld_fft_gamma(mpfr_ptr g, size_t N, int mant)
{
    int t = 0;
    while (((size_t)1 << t) < N)
        t++;
    mpfr_t u, g4, eta, x, mu;
    mpfr_inits2(128, u, g4, eta, x, mu, (mpfr_ptr)0);
    mpfr_set_ui_2exp(u, 1, -mant, MPFR_RNDN); /* exact */
    mpfr_mul_ui(g4, u, 4, MPFR_RNDU);
    mpfr_ui_sub(x, 1, g4, MPFR_RNDD);
    mpfr_div(g4, g4, x, MPFR_RNDU); /* γ_4 */
    mpfr_set_ui_2exp(mu, 5, -LDBL_MANT_DIG, MPFR_RNDU); /* 5u_L, exact */
    if (mant < LDBL_MANT_DIG) {
        mpfr_set_ui_2exp(x, 6, -LDBL_MANT_DIG, MPFR_RNDU);
        mpfr_add(mu, u, x, MPFR_RNDU); /* u + 6u_L */
    }
    mpfr_sqrt_ui(eta, 2, MPFR_RNDU);
    mpfr_add(eta, eta, mu, MPFR_RNDU);
    mpfr_mul(eta, eta, g4, MPFR_RNDU);
    mpfr_add(eta, eta, mu, MPFR_RNDU); /* η */
    mpfr_mul_ui(eta, eta, (unsigned long)t, MPFR_RNDU);
    mpfr_ui_sub(x, 1, eta, MPFR_RNDD);
    mpfr_div(g, eta, x, MPFR_RNDU);
    mpfr_clears(u, g4, eta, x, mu, (mpfr_ptr)0);
}
