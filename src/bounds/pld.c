/* src/bounds/pld.c — the PLD accountant: discretise, compose by FFT, bracket δ.
 *
 * WHY delta_lo ≤ δ(ε) ≤ delta_hi
 *
 * 0. Notation.  f_ε(ℓ) = (1 − e^{ε−ℓ})₊ for finite ℓ, f_ε(+∞) = 1, f_ε(−∞) = 0.
 *    For one step δ(ε) = E f_ε(L) (pld.h); for the composition of independent
 *    steps δ(ε) = E f_ε(L_1 + … + L_T): the PLD of a product pair is the
 *    convolution of the PLDs (Sommer, Meiser, Mohammadi 2019, "Privacy loss
 *    classes", PoPETS, Thm 1; Koskela, Jälkö, Honkela 2020, "Computing tight
 *    differential privacy guarantees using FFT", AISTATS, §3).  f_ε is
 *    nondecreasing in ℓ, decreasing in ε, and 0 ≤ f_ε ≤ 1.
 *
 * 1. Discretisation on the grid ℓ_k = k·h, k = k_lo … k_lo+n−1 (Meiser &
 *    Mohammadi 2018, "Tight on budget? Tight bounds for r-fold approximate
 *    differential privacy", CCS — upper and lower "privacy buckets"; Koskela,
 *    Jälkö, Prediger, Honkela 2021, AISTATS — upper and lower δ by grid
 *    rounding; Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022, "Connect the
 *    dots", PoPETS, §3 — the "pessimistic estimate").
 *    Pessimistic: L↑ = the smallest grid point ≥ L (so L ≤ ℓ_{k_lo} goes to
 *    ℓ_{k_lo}: the folded lower tail), and L↑ = +∞ when L > ℓ_top (the
 *    truncated upper tail).  L↑ ≥ L pointwise, so for independent copies
 *    Σ L↑_t ≥ Σ L_t and, f_ε being nondecreasing, E f_ε(Σ L↑_t) ≥ δ(ε): the
 *    hockey-stick functional is monotone under this coupling.
 *    Optimistic: L↓ = the largest grid point ≤ L, and L↓ = −∞ (the mass is
 *    dropped) when L ≤ ℓ_{k_lo} or L > ℓ_top.  Folding the lower tail UP, as
 *    on the pessimistic side, would not be sound here, so it is dropped too.
 *    L↓ ≤ L or L↓ = −∞, hence E f_ε(Σ L↓_t) ≤ δ(ε).
 *    Bin masses.  L is a monotone function of the Gaussian noise value x
 *    (Gaussian: x = (ℓ − r²/2)/r; REMOVE/ADD: x(ℓ) = r/2 + log1p(expm1(±ℓ)/q)/r),
 *    so P[ℓ_{k−1} < L ≤ ℓ_k] is a normal mass ∫φ over an x-interval (two of
 *    them, weighted 1 − q and q, for the REMOVE mixture).  Each is enclosed
 *    in MPFI: by a Taylor series of ∫_a^{a+d} φ with a proven remainder
 *    (normal_mass_series: the recurrence comes from g′ = −(a+y)g, the
 *    remainder from a majorant series), or, for wide bins, as a difference
 *    of ul_num_q enclosures (num/gauss_tail.h) taken where Q is small.  The
 *    folded lower tail and the upper tail are single ul_num_q evaluations.
 *    The sum of the enclosure widths is reported (mass_slack).  The
 *    pessimistic mass is stored as the upper end of its enclosure rounded up
 *    to a double (mpfr_get_d, MPFR_RNDU: the correctly rounded nextafter),
 *    the optimistic one as the lower end rounded down; since f_ε ≥ 0 and
 *    convolving nonnegative sequences is monotone, enlarging pessimistic
 *    masses and shrinking optimistic ones keeps each bound on its side.  The
 *    mass at +∞ after composition is
 *    1 − Π_i (1 − p∞_i)^{T_i} (the finite parts convolve to a measure of mass
 *    Π (1 − p∞_i)^{T_i}), increasing in every p∞_i.
 *
 * 2. Wrap-around.  The FFT computes a circular convolution of length N (a
 *    power of two).  When N covers the whole support of the composed grid
 *    nothing wraps.  Otherwise a window of N consecutive composed grid points
 *    is chosen and the composed (finite, discretised) mass outside it is
 *    bounded by Chernoff: for λ > 0, P[S ≥ x] ≤ e^{−λx} Π_i M_i(λ)^{T_i} and
 *    P[S ≤ y] ≤ e^{λy} Π_i M_i(−λ)^{T_i}, M_i(λ) = Σ_k p_ik e^{λℓ_k} (also
 *    for sub-probability measures), bounded above by grouping consecutive
 *    bins at their extreme loss and evaluated in MPFR rounding up; λ is
 *    picked in doubles (any λ is valid).  The wrap adds the outside mass onto
 *    window points: on the pessimistic side that only increases the sum, and
 *    the outside mass above the window (below it too when the window starts
 *    above ε) is added; on the optimistic side the whole outside mass is
 *    subtracted (f ≤ 1).  Because opt_k ≤ pess_{k+1} (same bin, rounded the
 *    other way, one point lower), M_opt(λ) ≤ e^{−λh} M_pess(λ) and
 *    M_opt(−λ) ≤ e^{λh} M_pess(−λ): one certification serves both sides.
 *
 * 3. Rounding (a-priori).  u is the unit roundoff of the FFT arithmetic
 *    (2^-53 in double, 2^-LDBL_MANT_DIG = 2^-64 in x87 long double), N = 2^t.
 *    (a) Transforms.  Higham, "Accuracy and Stability of Numerical
 *        Algorithms", 2nd ed., SIAM 2002, Thm 24.2: the radix-2 Cooley–Tukey
 *        FFT with twiddle factors accurate to μ gives
 *        ‖fl(Fx) − Fx‖₂ ≤ γ_N‖Fx‖₂, γ_N = tη/(1 − tη), η = μ + γ_4(√2 + μ),
 *        γ_4 = 4u/(1 − 4u).  FFTW is not that algorithm (mixed radix,
 *        generated codelets, real-data r2c/c2r algorithms, its own trig).
 *        ASSUMPTION, not a theorem: the same bound holds for FFTW's r2c and
 *        c2r transforms with t replaced by F·(t + 2), F = 8, μ = 4u.
 *        Support: FFTW's measured accuracy, O(√log N)·u rms (Frigo & Johnson,
 *        "The design and implementation of FFTW3", Proc. IEEE 93(2), 2005);
 *        worst-case bounds of this form are pessimistic by orders of magnitude
 *        (Schatzman, "Accuracy of the discrete Fourier transform and the fast
 *        Fourier transform", SIAM J. Sci. Comput. 17(5), 1996); and
 *        tests/test_pld.c measures FFTW in double against FFTW in long double
 *        and finds it far inside the F = 1 bound.
 *    (b) Frequency-domain powers and products.  Complex multiplication
 *        satisfies |fl(ab) − ab| ≤ v|ab| with v = √5·u (Brent, Percival,
 *        Zimmermann 2007, Math. Comp. 76) or 2u with an FMA (Jeannerod,
 *        Kornerup, Louvet, Muller 2017, Math. Comp. 86); we take v = 4u.
 *        Binary powering and the products across mechanisms return
 *        Π_i a_i^{T_i}·(1 + θ), |θ| ≤ ρ := (1 + v)^{T−1} − 1, T = Σ T_i (each
 *        rounding error enters raised to the exponent of the partial power it
 *        multiplies; those exponents add up to T − 1).  Input errors
 *        propagate by |Π a_i^{T_i} − Π b_i^{T_i}| ≤ M^{T−1} Σ_i T_i|a_i − b_i|
 *        when every |a_i|, |b_i| ≤ M (telescoping), with M = max_i(S_i + E_i),
 *        S_i the sum of the stored masses (|X_ij| ≤ S_i) and E_i = γ_N√N‖p_i‖₂
 *        the ℓ2, hence entrywise, error of the computed transform.
 *    (c) With Parseval (‖Fx‖₂ = √N‖x‖₂) and Young's inequality for the exact
 *        circular convolution z (‖z‖₂ ≤ min_i ‖p_i‖₂·M^{T−1}), the computed
 *        ẑ = c2r(Ŷ)/N satisfies
 *          ‖ẑ − z‖₂ ≤ E2 := (1 + γ_N)·D/√N + γ_N·M^{T−1}·min_i‖p_i‖₂ + E_uf,
 *          D := M^{T−1}·[Σ_i T_i E_i + ρ·min_i(√N‖p_i‖₂ + E_i)],
 *        with ‖p_i‖₂ ≤ √(max_k p_ik · S_i).  E_uf is an allowance for gradual
 *        underflow (each operation that underflows errs by at most the least
 *        subnormal 2^(emin−p); counting the operations, ≤ 2^11·N·(t+2)·m, and
 *        their amplification, ≤ T·M^T·√N·4, for N, T ≤ 2^30 and m ≤ 64 gives
 *        E_uf = 2^(emin − p + 110)·max(1, M^T); generous, and negligible).
 *    (d) δ is read off as Σ_{ℓ_m > ε} w_m ẑ_m with 0 ≤ w_m = 1 − e^{ε−ℓ_m} < 1;
 *        it differs from Σ w_m z_m by at most ‖w‖₂‖ẑ − z‖₂ ≤ √K·E2
 *        (Cauchy–Schwarz; K = window points above ε).
 *    (e) That sum is evaluated in long double (unit roundoff u_L), in blocks
 *        of B = 256 points: weights by t_{j+1} = t_j·e^{−h} from an anchor
 *        t_b = e^{ε−ℓ_b} per block (anchor and e^{−h} from MPFI exp, relative
 *        errors r_b, r_ρ measured), so |t̃_j − t_j| ≤ θ_b·t_b with
 *        θ_b = (1 + r_b)((1 + r_ρ)(1 + u_L))^{B−1} − 1, and
 *        |w̃_j − w_j| ≤ ω := E_t + u_L(1 + E_t), E_t = max_b θ_b·t_b (absolute,
 *        so an anchor that underflows long double costs nothing); each block's
 *        dot product within γ_B Σ|w̃||ẑ| (Higham eq. (3.5)); block sums added
 *        in MPFR with directed rounding.  Total:
 *        (ω + γ_B(1+ω))/(1−γ_B)²·Σ|ẑ_m| + (K + B)·2^(emin_L − p_L + 3)
 *        (the last term: long-double underflow, ≤ 4 operations per point).
 *    All budget arithmetic is MPFR rounded up.  The upper end uses the lower
 *    end of ε's enclosure (f_ε decreases in ε), the lower end its upper end.
 *
 *    A single step (one mechanism, steps = 1) needs no transform: the
 *    arrays are summed directly and E2 = 0.
 *
 * 4. Result.  hi = Σ_pess + (e) + √K·E2_pess + composed mass at +∞ + the
 *    window tails (§2), capped at 1; lo = Σ_opt − (e) − √K·E2_opt − the
 *    outside mass, and at least max(0, 1 − e^ε) (E_γ(P‖Q) ≥ P(Ω) − γQ(Ω)).
 *    Directions (add, remove) combine by max.
 *
 * Grid policy (automatic).  A coarse first round (about 8192 points over the
 * composed spread); then h shrinks by the ratio of the width wanted to the
 * discretisation gap measured (the gap is close to linear in h); the
 * truncated mass follows the bracket (1e-2·rel_width·lo).  A grid whose FFT
 * would exceed max_points is refused before any mass is computed.  Every
 * round's bracket is sound; the result is their intersection.
 *
 * Precision policy.  When the rounding bound exceeds a quarter of the width
 * asked for, the composition is redone with fftw3l (long double); if it
 * still does, the grid is refined only while it dominates the rounding bound
 * (so hi gets as low as it can), and the sound bracket is returned with
 * UL_ECAP and the reason.  The failure of prv_accountant issue #17
 * (spec/anchors.md §1.3), a small δ printed below the rounding noise, cannot
 * happen here because the rounding bound is inside the bracket.
 */
#include "bounds/pld.h"

#include "num/input.h"

#include <fftw3.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num/gauss_tail.h"

#define FFTW_SAFETY 8         /* F of §3(a) */
#define SUM_BLOCK 256         /* B of §3(e) */
#define LAMBDA_COUNT 97       /* Chernoff exponents tried: 2^((j−48)/4)/σ */
#define MAX_ROUNDS 10         /* evaluations of the automatic grid / precision loop */
#define INPUT_PREC 128        /* precision of the input enclosures */
#define BUDGET_PREC 128       /* precision of the budget arithmetic */
#define INITIAL_POINTS 8192.0 /* grid points of the first automatic round */
#define DEFAULT_TAIL 1e-30    /* truncated mass when not automatic */
#define MAX_EXACT_INDEX 4503599627370496.0 /* 2^52: grid indices stay exact doubles */

void ul_pld_options_default(ul_pld_options *opt)
{
    opt->grid_step = 0;
    opt->rel_width = 1e-3;
    opt->tail_bound = 0;
    opt->max_points = 1UL << 24;
    opt->fft = UL_PLD_FFT_AUTO;
    opt->adjacency = UL_PLD_ADD_REMOVE;
}

static ul_status check_options(const ul_pld_options *o, char *err, size_t errlen)
{
    if (!(isfinite(o->grid_step) && o->grid_step >= 0))
        return ul_fail(err, errlen, UL_EINPUT,
                       "grid-step: must be a finite number > 0, or 0 for automatic (got %g)",
                       o->grid_step);
    if (o->grid_step != 0 && o->grid_step < 1e-12)
        return ul_fail(err, errlen, UL_EINPUT, "grid-step: must be >= 1e-12 (got %g)",
                       o->grid_step);
    if (!(o->rel_width > 0 && o->rel_width <= 1))
        return ul_fail(err, errlen, UL_EINPUT, "rel-width: must be in (0, 1] (got %g)",
                       o->rel_width);
    if (!(o->tail_bound == 0 || (o->tail_bound >= 1e-300 && o->tail_bound <= 1e-6)))
        return ul_fail(err, errlen, UL_EINPUT,
                       "tail-bound: must be 0 (automatic) or in [1e-300, 1e-6] (got %g)",
                       o->tail_bound);
    if (o->max_points < (1UL << 10) || o->max_points > (1UL << 30))
        return ul_fail(err, errlen, UL_EINPUT,
                       "max-points: must be between 1024 and 1073741824 (got %lu)",
                       o->max_points);
    if (o->fft != UL_PLD_FFT_AUTO && o->fft != UL_PLD_FFT_DOUBLE &&
        o->fft != UL_PLD_FFT_LONG_DOUBLE)
        return ul_fail(err, errlen, UL_EINPUT, "fft: unknown precision choice %d", (int)o->fft);
    if (o->adjacency != UL_PLD_ADD_REMOVE && o->adjacency != UL_PLD_ADD &&
        o->adjacency != UL_PLD_REMOVE)
        return ul_fail(err, errlen, UL_EINPUT, "adjacency: unknown choice %d",
                       (int)o->adjacency);
    return UL_OK;
}

/* ---- mechanisms -------------------------------------------------------------- */

typedef enum { DIR_REMOVE = 0, DIR_ADD = 1 } direction;

/* One per-step PLD: the Gaussian, or the subsampled Gaussian in one
 * direction.  Enclosures at INPUT_PREC; doubles only for choices. */
typedef struct {
    bool subsampled;
    direction dir;
    unsigned long steps;
    mpfi_t r, q, omq, half_r, half_r2; /* r, q, 1 − q, r/2, r²/2 */
    double rd, qd;
} mech;

static void mech_clear(mech *m)
{
    mpfi_clear(m->r);
    mpfi_clear(m->q);
    mpfi_clear(m->omq);
    mpfi_clear(m->half_r);
    mpfi_clear(m->half_r2);
}

/* Reads and checks one mechanism; names are prefix + "r" etc. */
static ul_status mech_read(mech *m, const ul_pld_mechanism *in, const char *prefix, char *err,
                           size_t errlen)
{
    char name[64];
    mpfi_init2(m->r, INPUT_PREC);
    mpfi_init2(m->q, INPUT_PREC);
    mpfi_init2(m->omq, INPUT_PREC);
    mpfi_init2(m->half_r, INPUT_PREC);
    mpfi_init2(m->half_r2, INPUT_PREC);
    m->dir = DIR_REMOVE;
    m->steps = in->steps;
    snprintf(name, sizeof name, "%sr", prefix);
    ul_status st = ul_num_read_checked(m->r, name, in->r, "0", true, UL_PLD_MAX_R, false, err, errlen);
    if (st != UL_OK)
        return st;
    m->subsampled = in->q != NULL;
    if (m->subsampled) {
        snprintf(name, sizeof name, "%sq", prefix);
        st = ul_num_read_checked(m->q, name, in->q, "0", true, "1", false, err, errlen);
        if (st != UL_OK)
            return st;
    } else {
        mpfi_set_ui(m->q, 1);
    }
    if (in->steps < 1 || in->steps > UL_PLD_MAX_STEPS)
        return ul_fail(err, errlen, UL_EINPUT, "%ssteps: must be between 1 and %lu (got %lu)",
                       prefix, UL_PLD_MAX_STEPS, in->steps);
    mpfi_ui_sub(m->omq, 1, m->q);
    mpfi_div_2ui(m->half_r, m->r, 1);
    mpfi_sqr(m->half_r2, m->r);
    mpfi_div_2ui(m->half_r2, m->half_r2, 1);
    m->rd = mpfi_get_d(m->r);
    m->qd = mpfi_get_d(m->q);
    return UL_OK;
}

/* ---- the loss distributions in doubles (choices only, never bounds) ---------- */

static double q_d(double x)
{
    return 0.5 * erfc(x * 0.70710678118654752440);
}

/* The REMOVE loss at noise value x: log(1 − q + q·e^{rx − r²/2}). */
static double lrem_d(const mech *m, double x)
{
    double r = m->rd, q = m->qd, a = r * x - 0.5 * r * r;
    if (a > 700)
        return log(q) + a + log1p((1 - q) / q * exp(-a));
    return log1p(q * expm1(a));
}

/* The noise value where the REMOVE loss is v; −inf when v ≤ log(1 − q). */
static double xinv_d(const mech *m, double v)
{
    double r = m->rd, q = m->qd, lg;
    if (v > 30) {
        lg = v - log(q) + log1p((q - 1) * exp(-v));
    } else {
        double a = expm1(v) / q;
        if (!(a > -1))
            return -INFINITY;
        lg = log1p(a);
    }
    return 0.5 * r + lg / r;
}

/* P[L > ℓ] in doubles. */
static double sf_d(const mech *m, double l)
{
    double r = m->rd, q = m->qd;
    if (!m->subsampled)
        return q_d((l - 0.5 * r * r) / r);
    if (m->dir == DIR_REMOVE) {
        double x = xinv_d(m, l);
        return isinf(x) ? 1 : (1 - q) * q_d(x) + q * q_d(x - r);
    }
    double x = xinv_d(m, -l);
    return isinf(x) ? 0 : q_d(-x);
}

/* z with Q(z) = tau (bisection; tau in [1e-300, 0.5]). */
static double z_of_tail(double tau)
{
    double lo = 0, hi = 40;
    for (int i = 0; i < 100; i++) {
        double mid = 0.5 * (lo + hi);
        if (q_d(mid) > tau)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* The loss range holding all but about tau of the mass in each tail. */
static void range_d(const mech *m, double tau, double *lo, double *hi)
{
    double z = z_of_tail(tau), r = m->rd;
    if (!m->subsampled) {
        *lo = 0.5 * r * r - r * z;
        *hi = 0.5 * r * r + r * z;
    } else if (m->dir == DIR_REMOVE) {
        *lo = lrem_d(m, -z);
        *hi = lrem_d(m, r + z);
    } else {
        *lo = -lrem_d(m, z);
        *hi = -lrem_d(m, -z);
    }
}

/* Variance of the loss, from 4096 bins in doubles (a scale, not a bound). */
static double variance_d(const mech *m, double lo, double hi)
{
    const int bins = 4096;
    double step = (hi - lo) / bins, s0 = 0, s1 = 0, s2 = 0, prev = sf_d(m, lo);
    for (int i = 1; i <= bins; i++) {
        double l = lo + step * i, cur = sf_d(m, l), p = prev - cur, c = l - 0.5 * step;
        if (p > 0) {
            s0 += p;
            s1 += p * c;
            s2 += p * c * c;
        }
        prev = cur;
    }
    if (!(s0 > 0))
        return step * step;
    double mean = s1 / s0, var = s2 / s0 - mean * mean;
    return var > step * step ? var : step * step;
}

/* ---- the loss distributions, enclosed ----------------------------------------- */

/* X ⊇ x(v) = r/2 + log1p(expm1(v)/q)/r, the noise value where the REMOVE loss
 * equals v.  Returns 0 when X encloses it; 1 when x = −∞ throughout (every
 * v in the box is ≤ log(1 − q)); 2 when only the upper end is finite (X then
 * encloses x at the box's upper end, and the lower end is −∞). */
static int x_of_loss(mpfi_ptr X, const mech *m, mpfi_srcptr v, mpfr_prec_t p)
{
    mpfi_t a;
    mpfi_init2(a, p);
    mpfi_expm1(a, v);
    mpfi_div(a, a, m->q);
    int kind = 0;
    if (mpfr_cmp_si(&a->right, -1) <= 0) {
        kind = 1;
    } else {
        if (mpfr_cmp_si(&a->left, -1) <= 0) {
            kind = 2;
            mpfi_set_fr(a, &a->right);
        }
        mpfi_log1p(a, a);
        mpfi_div(a, a, m->r);
        mpfi_add(X, a, m->half_r);
    }
    mpfi_clear(a);
    return kind;
}

/* out ⊇ c1·Q(a) + c2·Q(b) (c1 may be [0, 0]). */
static void q_combination(mpfi_ptr out, mpfi_srcptr c1, mpfi_srcptr a, mpfi_srcptr c2,
                          mpfi_srcptr b, mpfr_prec_t p)
{
    mpfi_t t1, t2;
    mpfi_init2(t1, p);
    mpfi_init2(t2, p);
    ul_num_q(t1, a);
    mpfi_mul(t1, t1, c1);
    ul_num_q(t2, b);
    mpfi_mul(t2, t2, c2);
    mpfi_add(out, t1, t2);
    mpfi_clear(t1);
    mpfi_clear(t2);
}

/* out ⊇ P[L > ℓ] (upper) or P[L ≤ ℓ] (!upper) at the exact loss ℓ, inside
 * [0, 1].  Gaussian: L ~ N(r²/2, r²).  REMOVE: P[L > ℓ] = P[X > x(ℓ)] with
 * X ~ (1−q)N(0,1) + qN(r,1), i.e. (1−q)Q(x) + qQ(x − r).  ADD: L = −ℓ_rem(X),
 * X ~ N(0,1), so P[L > ℓ] = P[X < x(−ℓ)] = Q(−x(−ℓ)).  Each is monotone in
 * x, so a half-infinite x box is covered by its finite end and the limit. */
static void loss_tail(mpfi_ptr out, const mech *m, mpfr_srcptr loss, bool upper, mpfr_prec_t p)
{
    mpfi_t l, x, a, b;
    mpfi_init2(l, p);
    mpfi_init2(x, p);
    mpfi_init2(a, p);
    mpfi_init2(b, p);
    mpfi_set_fr(l, loss);
    if (!m->subsampled) {
        mpfi_sub(a, l, m->half_r2);
        mpfi_div(a, a, m->r);
        if (!upper)
            mpfi_neg(a, a);
        ul_num_q(out, a);
    } else if (m->dir == DIR_REMOVE) {
        int kind = x_of_loss(x, m, l, p);
        if (kind == 1) {
            mpfi_set_ui(out, upper ? 1 : 0);
        } else {
            mpfi_sub(b, x, m->r); /* x − r */
            if (upper) {
                mpfi_set(a, x);
            } else {
                mpfi_neg(a, x);
                mpfi_neg(b, b);
            }
            q_combination(out, m->omq, a, m->q, b, p);
            if (kind == 2)
                mpfi_put_ui(out, upper ? 1 : 0);
        }
    } else {
        mpfi_neg(l, l);
        int kind = x_of_loss(x, m, l, p);
        if (kind == 1) {
            mpfi_set_ui(out, upper ? 0 : 1);
        } else {
            if (upper)
                mpfi_neg(a, x);
            else
                mpfi_set(a, x);
            ul_num_q(out, a);
            if (kind == 2)
                mpfi_put_ui(out, upper ? 0 : 1);
        }
    }
    /* probabilities lie in [0, 1] */
    mpfi_set_ui(a, 0);
    mpfi_put_ui(a, 1);
    mpfi_intersect(out, out, a);
    mpfi_clear(l);
    mpfi_clear(x);
    mpfi_clear(a);
    mpfi_clear(b);
}

/* ---- discretisation (§1) -------------------------------------------------------- */

/* One discretised per-step PLD.  pess[k], opt[k] sit at the loss (k_lo + k)·h. */
typedef struct {
    double k_lo; /* an integer, |k_lo| < 2^52 */
    size_t n;
    double *pess, *opt;
    unsigned long steps;
    mpfr_t p_inf;              /* ≥ P[L > ℓ_top], the pessimistic mass at +∞ */
    mpfr_t slack;              /* ≥ Σ widths of the mass enclosures (informative) */
    mpfr_t sum_pess, sum_opt;  /* ≥ Σ of the stored arrays */
    mpfr_t l2_pess, l2_opt;    /* ≥ their ℓ2 norms */
    double var;                /* of the pessimistic array (a scale) */
    size_t group, ngroups;     /* Chernoff grouping (§2) */
    double *gmass;             /* ≥ group sums of pess */
} disc;

static void disc_init(disc *d)
{
    memset(d, 0, sizeof *d);
    mpfr_inits2(64, d->p_inf, d->slack, d->sum_pess, d->sum_opt, d->l2_pess, d->l2_opt,
                (mpfr_ptr)0);
}

static void disc_clear(disc *d)
{
    free(d->pess);
    free(d->opt);
    free(d->gmass);
    mpfr_clears(d->p_inf, d->slack, d->sum_pess, d->sum_opt, d->l2_pess, d->l2_opt,
                (mpfr_ptr)0);
}

/* loss = idx·h exactly (|idx| < 2^52, h a double: the product has ≤ 106 bits). */
static void exact_loss(mpfr_ptr loss, double idx, double h)
{
    mpfr_set_prec(loss, 128);
    mpfr_set_d(loss, idx, MPFR_RNDN);
    mpfr_mul_d(loss, loss, h, MPFR_RNDN);
}

/* sum ≥ Σ x, max ≥ max x, l2 ≥ ‖x‖₂ ≤ √(max·Σ) (all rounded up; x ≥ 0). */
static void array_norms(const double *x, size_t n, mpfr_ptr sum, mpfr_ptr l2)
{
    double mx = 0;
    mpfr_set_zero(sum, 1);
    for (size_t k = 0; k < n; k++) {
        mpfr_add_d(sum, sum, x[k], MPFR_RNDU);
        if (x[k] > mx)
            mx = x[k];
    }
    mpfr_mul_d(l2, sum, mx, MPFR_RNDU);
    mpfr_sqrt(l2, l2, MPFR_RNDU);
}

/* ---- bin masses without erfc ----------------------------------------------------- */

/* Constants shared by the bin-mass evaluations at one precision. */
typedef struct {
    mpfr_prec_t p;
    mpfi_t inv_sqrt_2pi; /* 1/√(2π) */
    mpfr_t log2e_up;     /* ≥ log2(e), 32 bits */
} mass_ctx;

static void mass_ctx_init(mass_ctx *c, mpfr_prec_t p)
{
    c->p = p;
    mpfi_init2(c->inv_sqrt_2pi, p);
    mpfi_const_pi(c->inv_sqrt_2pi);
    mpfi_mul_2ui(c->inv_sqrt_2pi, c->inv_sqrt_2pi, 1);
    mpfi_sqrt(c->inv_sqrt_2pi, c->inv_sqrt_2pi);
    mpfi_ui_div(c->inv_sqrt_2pi, 1, c->inv_sqrt_2pi);
    mpfr_init2(c->log2e_up, 32);
    mpfr_const_log2(c->log2e_up, MPFR_RNDD);
    mpfr_ui_div(c->log2e_up, 1, c->log2e_up, MPFR_RNDU);
}

static void mass_ctx_clear(mass_ctx *c)
{
    mpfi_clear(c->inv_sqrt_2pi);
    mpfr_clear(c->log2e_up);
}

/* out ⊇ ∫_a^{a+d} φ(y) dy for every a ∈ A, d ∈ D ⊂ [0, 1] (φ the standard
 * normal density), or false (out untouched) when more than 400 terms would
 * be needed.  ∫_a^{a+d} φ = φ(a)·J, J = ∫_0^d g, g(y) = e^{−ay − y²/2}.
 * Series: g = Σ c_n y^n with c_0 = 1, c_1 = −a, (n+1)c_{n+1} = −a·c_n − c_{n−1}
 * (compare coefficients in g′ = −(a + y)·g).  Remainder: |c_n| ≤ C_n, the
 * coefficients of e^{|a|y}·e^{y²/2} (the Cauchy product of the two
 * exponential series with absolute coefficients dominates that of
 * e^{−ay}·e^{−y²/2}), so for every ρ ≥ d
 *     Σ_{n≥N} |c_n| d^{n+1}/(n+1) ≤ d·(d/ρ)^N·Σ_{n≥N} C_n ρ^n ≤ d·(d/ρ)^N·e^{|a|ρ + ρ²/2},
 * increasing in |a| and d, hence valid over the box (|a| ≤ amax, d ≤ dmax).
 * With dmax ≤ 2^e (frexp, exact) and ρ = 2^{e+j}, (dmax/ρ)^N ≤ 2^{−jN} and
 * e^y ≤ 2^⌈y·log2 e⌉, so the bound is an exact power of two computed with
 * upward-rounded MPFR at 32 bits.  N and j are chosen in doubles (any
 * choice is valid).  This is what makes fine grids affordable: mpfr_erfc
 * costs 50–500 µs in the tails, this a few µs. */
static bool normal_mass_series(mpfi_ptr out, mpfi_srcptr A, mpfi_srcptr D, const mass_ctx *cx)
{
    mpfr_prec_t p = cx->p;
    mpfr_t mag;
    mpfr_init2(mag, p);
    mpfi_mag(mag, A);
    double amax = mpfr_get_d(mag, MPFR_RNDU);
    double dmax = mpfr_get_d(&D->right, MPFR_RNDU);
    mpfr_clear(mag);
    if (!(dmax <= 1) || !(amax < 1e6))
        return false;
    if (dmax == 0) {
        mpfi_set_ui(out, 0);
        return true;
    }
    int e;
    frexp(dmax, &e); /* dmax < 2^e */
    /* relative target 2^-(p+8): J ≥ d·e^{−|a|d − d²/2} (the integrand's
     * minimum) and d ≥ 2^(e−1) (D is one narrow box) */
    double target = (double)(e - 1) - (double)(p + 8) -
                    (amax * dmax + 0.5 * dmax * dmax) * 1.4426950408889634;
    int N = 0, j = 0;
    for (int n = 1; n <= 400 && N == 0; n++) {
        /* the best ρ ≈ (√(a² + 4n) − a)/2, rounded to a power of two ≥ 2^e */
        double rho = 0.5 * (sqrt(amax * amax + 4.0 * n) - amax);
        int jj = (int)floor(log2(rho) - e + 0.5);
        if (jj < 0)
            jj = 0;
        double r2 = ldexp(1.0, e + jj);
        double lb = e - (double)jj * n + (amax * r2 + 0.5 * r2 * r2) * 1.4426950408889634;
        if (lb <= target - 2) {
            N = n;
            j = jj;
        }
    }
    if (N == 0)
        return false;

    mpfi_t c_prev, c, c_next, dp, sum, term;
    mpfi_init2(c_prev, p);
    mpfi_init2(c, p);
    mpfi_init2(c_next, p);
    mpfi_init2(dp, p);
    mpfi_init2(sum, p);
    mpfi_init2(term, p);
    mpfi_set_ui(c_prev, 1);
    mpfi_neg(c, A);
    mpfi_set(dp, D);  /* d^{n+1} */
    mpfi_set(sum, D); /* n = 0: c_0·d/1 */
    for (int n = 1; n < N; n++) {
        mpfi_mul(dp, dp, D);
        mpfi_mul(term, c, dp);
        mpfi_div_ui(term, term, (unsigned long)n + 1);
        mpfi_add(sum, sum, term);
        mpfi_mul(c_next, A, c);
        mpfi_add(c_next, c_next, c_prev);
        mpfi_neg(c_next, c_next);
        mpfi_div_ui(c_next, c_next, (unsigned long)n + 1);
        mpfi_swap(c_prev, c);
        mpfi_swap(c, c_next);
    }
    /* remainder ≤ 2^(e − jN + ⌈(amax·ρ + ρ²/2)·log2 e⌉), ρ = 2^{e+j} */
    mpfr_t y, t;
    mpfr_inits2(32, y, t, (mpfr_ptr)0);
    mpfr_set_ui_2exp(t, 1, e + j, MPFR_RNDU); /* ρ, exact */
    mpfr_sqr(y, t, MPFR_RNDU);
    mpfr_div_2ui(y, y, 1, MPFR_RNDU);
    mpfr_mul_d(t, t, amax, MPFR_RNDU);
    mpfr_add(y, y, t, MPFR_RNDU);
    mpfr_mul(y, y, cx->log2e_up, MPFR_RNDU);
    mpfr_ceil(y, y);
    long k = mpfr_get_si(y, MPFR_RNDU) + e - (long)j * N;
    mpfr_set_ui_2exp(y, 1, k, MPFR_RNDU);
    mpfr_neg(t, y, MPFR_RNDD);
    mpfi_interv_fr(term, t, y);
    mpfi_add(sum, sum, term);
    mpfr_clears(y, t, (mpfr_ptr)0);
    /* φ(A) = e^{−A²/2}/√(2π) */
    mpfi_sqr(term, A);
    mpfi_div_2ui(term, term, 1);
    mpfi_neg(term, term);
    mpfi_exp(term, term);
    mpfi_mul(term, term, cx->inv_sqrt_2pi);
    mpfi_mul(out, sum, term);
    mpfi_clear(c_prev);
    mpfi_clear(c);
    mpfi_clear(c_next);
    mpfi_clear(dp);
    mpfi_clear(sum);
    mpfi_clear(term);
    return true;
}

/* A grid point in the noise space: x encloses the noise value where the loss
 * crosses the grid point; kind 0 finite, 1 −∞, 2 lower end −∞ (x holds the
 * upper end; see x_of_loss). */
typedef struct {
    mpfi_t x;
    int kind;
} endpoint;

/* The noise value of the loss ℓ: Gaussian (ℓ − r²/2)/r; REMOVE x(ℓ); ADD x(−ℓ). */
static void endpoint_at(endpoint *e, const mech *m, mpfr_srcptr loss, mpfr_prec_t p)
{
    mpfi_t l;
    mpfi_init2(l, p);
    mpfi_set_fr(l, loss);
    if (!m->subsampled) {
        mpfi_sub(l, l, m->half_r2);
        mpfi_div(e->x, l, m->r);
        e->kind = 0;
    } else {
        if (m->dir == DIR_ADD)
            mpfi_neg(l, l);
        e->kind = x_of_loss(e->x, m, l, p);
    }
    mpfi_clear(l);
}

/* out ⊇ ∫_{A−s}^{B−s} φ, A ≤ B (s = shift, NULL for 0), clamped to [0, 1]:
 * by the series when the bin is narrow, else by a difference of Q (taken on
 * the side where Q is small, for relative accuracy). */
static void normal_mass(mpfi_ptr out, const endpoint *A, const endpoint *B, mpfi_srcptr shift,
                        const mass_ctx *cx)
{
    mpfr_prec_t p = cx->p;
    mpfi_t a, b, d;
    mpfi_init2(a, p);
    mpfi_init2(b, p);
    mpfi_init2(d, p);
    if (B->kind == 1) {
        mpfi_set_ui(out, 0);
    } else {
        mpfi_set(a, A->x);
        mpfi_set(b, B->x);
        if (shift != NULL) {
            mpfi_sub(a, a, shift);
            mpfi_sub(b, b, shift);
        }
        if (A->kind == 1 && B->kind == 0) {
            mpfi_neg(b, b);
            ul_num_q(out, b); /* Φ(b) */
        } else if (A->kind != 0 || B->kind != 0) {
            /* a half-infinite end (only within 2^-p of log(1 − q)): [0, Φ(b_hi)] */
            mpfi_neg(b, b);
            ul_num_q(out, b);
            mpfi_put_ui(out, 0);
        } else {
            mpfi_sub(d, b, a);
            if (mpfr_sgn(&d->left) < 0)
                mpfr_set_zero(&d->left, 1); /* B ≥ A for the true endpoints */
            if (mpfr_sgn(&d->right) < 0)
                mpfr_set_zero(&d->right, 1);
            if (!normal_mass_series(out, a, d, cx)) {
                if (mpfr_sgn(&a->right) < 0) {
                    mpfi_neg(a, a);
                    mpfi_neg(b, b);
                    ul_num_q(d, b);
                    ul_num_q(out, a);
                    mpfi_sub(out, d, out); /* Φ(b) − Φ(a) */
                } else {
                    ul_num_q(d, a);
                    ul_num_q(out, b);
                    mpfi_sub(out, d, out); /* Q(a) − Q(b) */
                }
            }
        }
    }
    mpfi_set_ui(a, 0);
    mpfi_put_ui(a, 1);
    mpfi_intersect(out, out, a);
    mpfi_clear(a);
    mpfi_clear(b);
    mpfi_clear(d);
}

/* out ⊇ P[ℓ_{k−1} < L ≤ ℓ_k] from the endpoints of ℓ_{k−1} (prev) and ℓ_k (cur). */
static void bin_mass(mpfi_ptr out, const mech *m, const endpoint *prev, const endpoint *cur,
                     const mass_ctx *cx)
{
    mpfr_prec_t p = cx->p;
    if (!m->subsampled) {
        normal_mass(out, prev, cur, NULL, cx);
    } else if (m->dir == DIR_ADD) {
        normal_mass(out, cur, prev, NULL, cx); /* X ∈ [x(−ℓ_k), x(−ℓ_{k−1})), X ~ N(0,1) */
    } else {
        /* X ∈ (x(ℓ_{k−1}), x(ℓ_k)], X ~ (1−q)N(0,1) + qN(r,1) */
        mpfi_t t;
        mpfi_init2(t, p);
        normal_mass(out, prev, cur, m->r, cx);
        mpfi_mul(out, out, m->q);
        if (!mpfi_is_zero(m->omq)) {
            normal_mass(t, prev, cur, NULL, cx);
            mpfi_mul(t, t, m->omq);
            mpfi_add(out, out, t);
        }
        mpfi_clear(t);
    }
}

/* Discretises m on the grid of spacing h, truncating about tau in each tail.
 * UL_EINPUT (naming grid-step) when it needs more than max_points points.
 * Guarantee: pess[k] ≥ P[ℓ_{k−1} < L ≤ ℓ_k] (k ≥ 1), pess[0] ≥ P[L ≤ ℓ_0],
 * p_inf ≥ P[L > ℓ_{n−1}], 0 ≤ opt[k] ≤ P[ℓ_k < L ≤ ℓ_{k+1}], opt[n−1] = 0. */
static ul_status discretise(disc *d, const mech *m, double h, double tau,
                            unsigned long max_points, char *err, size_t errlen)
{
    double lo_d, hi_d;
    range_d(m, tau, &lo_d, &hi_d);
    double klo = floor(lo_d / h), khi = ceil(hi_d / h);
    if (!(khi > klo))
        khi = klo + 1;
    if (!(khi - klo + 1 <= (double)max_points) || !(fabs(klo) + fabs(khi) < MAX_EXACT_INDEX))
        return ul_fail(err, errlen, UL_EINPUT,
                       "grid-step: %g needs %.3g grid points per step, more than max-points (%lu)",
                       h, khi - klo + 1, max_points);
    size_t n = (size_t)(khi - klo) + 1;
    d->k_lo = klo;
    d->n = n;
    d->steps = m->steps;
    d->pess = malloc(n * sizeof *d->pess);
    d->opt = malloc(n * sizeof *d->opt);
    if (d->pess == NULL || d->opt == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "grid-step: %g: out of memory for %zu points", h,
                       n);

    /* Precision of the mass enclosures.  Gaussian: the bin width h/r is one
     * enclosure shared by all bins and the endpoints are (ℓ − r²/2)/r, so 64
     * bits give masses to about 2^-58 relative.  Subsampled: the width is a
     * difference of endpoints x(ℓ), losing up to log2(|x|/width) bits, so 80
     * bits plus log2 n. */
    mpfr_prec_t p = 64;
    if (m->subsampled) {
        p = 80;
        for (size_t s = n; s > 1; s >>= 1)
            p++;
    }
    mass_ctx cx;
    mass_ctx_init(&cx, p);
    mpfi_t width;
    mpfi_init2(width, p);
    mpfi_set_d(width, h);
    mpfi_div(width, width, m->r); /* h/r: the Gaussian bin width in noise units */
    endpoint e[2];
    mpfi_init2(e[0].x, p);
    mpfi_init2(e[1].x, p);
    mpfi_t mass;
    mpfi_init2(mass, p);
    mpfr_t loss, w;
    mpfr_init2(loss, 128);
    mpfr_init2(w, 64);
    mpfr_set_zero(d->slack, 1);

    /* pessimistic: the lower tail folded onto ℓ_0 */
    exact_loss(loss, klo, h);
    loss_tail(mass, m, loss, false, p);
    d->pess[0] = mpfr_get_d(&mass->right, MPFR_RNDU);
    endpoint_at(&e[0], m, loss, p);
    for (size_t k = 1; k < n; k++) {
        endpoint *prev = &e[(k - 1) & 1], *cur = &e[k & 1];
        exact_loss(loss, klo + (double)k, h);
        endpoint_at(cur, m, loss, p);
        if (m->subsampled || !normal_mass_series(mass, prev->x, width, &cx))
            bin_mass(mass, m, prev, cur, &cx);
        d->pess[k] = mpfr_get_d(&mass->right, MPFR_RNDU);
        d->opt[k - 1] = mpfr_get_d(&mass->left, MPFR_RNDD);
        mpfi_diam_abs(w, mass);
        mpfr_add(d->slack, d->slack, w, MPFR_RNDU);
    }
    d->opt[n - 1] = 0;
    /* pessimistic: the upper tail goes to +∞ */
    loss_tail(mass, m, loss, true, p);
    mpfr_set(d->p_inf, &mass->right, MPFR_RNDU);

    array_norms(d->pess, n, d->sum_pess, d->l2_pess);
    array_norms(d->opt, n, d->sum_opt, d->l2_opt);
    double s0 = 0, s1 = 0, s2 = 0;
    for (size_t k = 0; k < n; k++) {
        double c = (klo + (double)k) * h;
        s0 += d->pess[k];
        s1 += d->pess[k] * c;
        s2 += d->pess[k] * c * c;
    }
    d->var = s0 > 0 ? s2 / s0 - (s1 / s0) * (s1 / s0) : 0;
    if (!(d->var > h * h))
        d->var = h * h;

    mpfi_clear(e[0].x);
    mpfi_clear(e[1].x);
    mpfi_clear(mass);
    mpfi_clear(width);
    mass_ctx_clear(&cx);
    mpfr_clear(loss);
    mpfr_clear(w);
    return UL_OK;
}

/* ---- the window and its Chernoff tails (§2) ------------------------------------- */

typedef struct {
    size_t N;       /* FFT length, a power of two */
    double base;    /* Σ steps·k_lo: composed index m sits at the loss (base + m)·h */
    double m_lo;    /* first composed index of the window */
    bool wrapped;   /* some composed mass lies outside the window */
    mpfr_t up_pess, lo_pess, up_opt, lo_opt; /* ≥ composed mass above / below the window */
} window;

/* Group sizes and group sums (rounded up) of the pessimistic arrays. */
static bool make_groups(disc *d, size_t group)
{
    if (group < 1)
        group = 1;
    if (group > d->n)
        group = d->n;
    d->group = group;
    d->ngroups = (d->n + group - 1) / group;
    free(d->gmass);
    d->gmass = malloc(d->ngroups * sizeof *d->gmass);
    if (d->gmass == NULL)
        return false;
    mpfr_t s;
    mpfr_init2(s, 64);
    for (size_t g = 0; g < d->ngroups; g++) {
        mpfr_set_zero(s, 1);
        size_t end = (g + 1) * group < d->n ? (g + 1) * group : d->n;
        for (size_t k = g * group; k < end; k++)
            mpfr_add_d(s, s, d->pess[k], MPFR_RNDU);
        d->gmass[g] = mpfr_get_d(s, MPFR_RNDU);
    }
    mpfr_clear(s);
    return true;
}

/* The extreme index of group g: its top (upper) or bottom. */
static double group_index(const disc *d, size_t g, bool upper)
{
    size_t k = upper ? (g + 1) * d->group - 1 : g * d->group;
    if (k > d->n - 1)
        k = d->n - 1;
    return d->k_lo + (double)k;
}

/* log M(±λ) in doubles, M(λ) = Σ_g gmass·e^{λ·ℓ_top}, M(−λ) = Σ_g gmass·e^{−λ·ℓ_bot}
 * (for choosing λ and the window). */
static double log_mgf_d(const disc *d, double lambda, bool upper, double h)
{
    double mx = -INFINITY;
    for (size_t g = 0; g < d->ngroups; g++) {
        if (!(d->gmass[g] > 0))
            continue;
        double e = (upper ? lambda : -lambda) * group_index(d, g, upper) * h + log(d->gmass[g]);
        if (e > mx)
            mx = e;
    }
    if (isinf(mx))
        return -INFINITY;
    double s = 0;
    for (size_t g = 0; g < d->ngroups; g++) {
        if (!(d->gmass[g] > 0))
            continue;
        s += exp((upper ? lambda : -lambda) * group_index(d, g, upper) * h + log(d->gmass[g]) -
                 mx);
    }
    return mx + log(s);
}

/* out ≥ log M(±λ) (MPFR, rounded up at every step). */
static void log_mgf_up(mpfr_ptr out, const disc *d, double lambda, bool upper, double h)
{
    mpfr_t acc, t, loss;
    mpfr_inits2(64, acc, t, (mpfr_ptr)0);
    mpfr_init2(loss, 128);
    mpfr_set_zero(acc, 1);
    for (size_t g = 0; g < d->ngroups; g++) {
        if (!(d->gmass[g] > 0))
            continue;
        exact_loss(loss, group_index(d, g, upper), h);
        if (upper) {
            mpfr_mul_d(t, loss, lambda, MPFR_RNDU); /* ≥ λℓ */
        } else {
            mpfr_mul_d(t, loss, lambda, MPFR_RNDD);
            mpfr_neg(t, t, MPFR_RNDU); /* ≥ −λℓ */
        }
        mpfr_exp(t, t, MPFR_RNDU);
        mpfr_mul_d(t, t, d->gmass[g], MPFR_RNDU);
        mpfr_add(acc, acc, t, MPFR_RNDU);
    }
    if (mpfr_zero_p(acc))
        mpfr_set_inf(out, -1);
    else
        mpfr_log(out, acc, MPFR_RNDU);
    mpfr_clears(acc, t, loss, (mpfr_ptr)0);
}

/* out ≥ log P[S ≥ x] (upper) or log P[S ≤ x] (!upper) for the composed
 * pessimistic finite measure, at the exponent λ > 0. */
static void chernoff_up(mpfr_ptr out, const disc *ds, size_t nd, double lambda, bool upper,
                        double x_index, double h)
{
    mpfr_t t, x;
    mpfr_init2(t, 64);
    mpfr_init2(x, 128);
    mpfr_set_zero(out, 1);
    for (size_t i = 0; i < nd && !mpfr_inf_p(out); i++) {
        log_mgf_up(t, &ds[i], lambda, upper, h);
        if (mpfr_inf_p(t)) {
            mpfr_set_inf(out, -1); /* an empty measure: nothing outside */
            break;
        }
        mpfr_mul_ui(t, t, ds[i].steps, MPFR_RNDU);
        mpfr_add(out, out, t, MPFR_RNDU);
    }
    if (!mpfr_inf_p(out)) {
        exact_loss(x, x_index, h);
        if (upper) {
            mpfr_mul_d(t, x, lambda, MPFR_RNDD);
            mpfr_sub(out, out, t, MPFR_RNDU); /* − λx */
        } else {
            mpfr_mul_d(t, x, lambda, MPFR_RNDU);
            mpfr_add(out, out, t, MPFR_RNDU); /* + λy */
        }
    }
    mpfr_clear(t);
    mpfr_clear(x);
}

/* out = min(1, e^{log}) rounded up. */
static void exp_capped(mpfr_ptr out, mpfr_srcptr log_value)
{
    if (mpfr_inf_p(log_value) && mpfr_sgn(log_value) < 0) {
        mpfr_set_zero(out, 1);
        return;
    }
    if (mpfr_sgn(log_value) >= 0) {
        mpfr_set_ui(out, 1, MPFR_RNDU);
        return;
    }
    mpfr_exp(out, log_value, MPFR_RNDU);
}

static size_t next_pow2(double x)
{
    size_t n = 1;
    while ((double)n < x)
        n <<= 1;
    return n;
}

/* Chooses N and the window, and bounds the composed mass outside it. */
static ul_status choose_window(window *w, disc *ds, size_t nd, double h, double tau_w,
                               unsigned long max_points, char *err, size_t errlen)
{
    double T = 0, base = 0, full = 1, var = 0;
    size_t nmax = 0;
    for (size_t i = 0; i < nd; i++) {
        T += (double)ds[i].steps;
        base += (double)ds[i].steps * ds[i].k_lo;
        full += (double)ds[i].steps * (double)(ds[i].n - 1);
        var += (double)ds[i].steps * ds[i].var;
        if (ds[i].n > nmax)
            nmax = ds[i].n;
    }
    if (!(fabs(base) + full < MAX_EXACT_INDEX))
        return ul_fail(err, errlen, UL_EINPUT,
                       "grid-step: %g with these steps gives composed grid indices beyond 2^52",
                       h);
    w->base = base;
    w->m_lo = 0;
    w->wrapped = false;
    mpfr_set_zero(w->up_pess, 1);
    mpfr_set_zero(w->lo_pess, 1);
    mpfr_set_zero(w->up_opt, 1);
    mpfr_set_zero(w->lo_opt, 1);

    double sigma = sqrt(var), zw = sqrt(2 * log(1 / tau_w));
    double group = floor(0.25 * sigma / (zw * T * h));
    for (size_t i = 0; i < nd; i++)
        if (!make_groups(&ds[i], group > 1 ? (size_t)fmin(group, 1e9) : 1))
            return ul_fail(err, errlen, UL_EINPUT, "grid-step: %g: out of memory", h);

    /* Chernoff in doubles over a grid of λ: the loss x_up above which, and
     * y_lo below which, at most tau_w of the composed mass lies. */
    double lam[LAMBDA_COUNT], cgf_up[LAMBDA_COUNT], cgf_dn[LAMBDA_COUNT];
    double x_up = INFINITY, y_lo = -INFINITY, log_tau = log(tau_w);
    for (int j = 0; j < LAMBDA_COUNT; j++) {
        lam[j] = pow(2.0, (j - 48) / 4.0) / sigma;
        cgf_up[j] = cgf_dn[j] = 0;
        for (size_t i = 0; i < nd; i++) {
            cgf_up[j] += (double)ds[i].steps * log_mgf_d(&ds[i], lam[j], true, h);
            cgf_dn[j] += (double)ds[i].steps * log_mgf_d(&ds[i], lam[j], false, h);
        }
        double xu = (cgf_up[j] - log_tau) / lam[j], yl = (log_tau - cgf_dn[j]) / lam[j];
        if (xu < x_up)
            x_up = xu;
        if (yl > y_lo)
            y_lo = yl;
    }
    double m_up = fmin(ceil(x_up / h) - base, full - 1);
    double m_dn = fmax(floor(y_lo / h) - base, 0);
    if (!(m_up >= m_dn)) {
        m_up = full - 1;
        m_dn = 0;
    }
    double need = fmax(m_up - m_dn + 1, (double)nmax);
    if (need > (double)max_points)
        return ul_fail(err, errlen, UL_EINPUT,
                       "grid-step: %g needs an FFT of %.3g points, more than max-points (%lu)", h,
                       need, max_points);
    size_t N = next_pow2(need);
    if ((double)N > (double)max_points && (double)next_pow2(full) > (double)max_points)
        return ul_fail(err, errlen, UL_EINPUT,
                       "grid-step: %g needs an FFT of %zu points, more than max-points (%lu)", h,
                       N, max_points);
    if ((double)N >= full) {
        w->N = next_pow2(full);
        if (w->N < 2)
            w->N = 2;
        return UL_OK; /* the whole composed support fits: no wrap */
    }
    w->N = N;
    double m_lo = m_dn - floor(((double)N - (m_up - m_dn + 1)) / 2);
    if (m_lo < 0)
        m_lo = 0;
    if (m_lo + (double)N > full)
        m_lo = full - (double)N;
    w->m_lo = m_lo;
    w->wrapped = true;

    /* Certify at the best λ of the grid for the actual edges. */
    double x_index = base + m_lo + (double)N; /* first index above the window */
    double y_index = base + m_lo - 1;         /* last index below it */
    int ju = 0, jd = 0;
    for (int j = 1; j < LAMBDA_COUNT; j++) {
        if (cgf_up[j] - lam[j] * x_index * h < cgf_up[ju] - lam[ju] * x_index * h)
            ju = j;
        if (cgf_dn[j] + lam[j] * y_index * h < cgf_dn[jd] + lam[jd] * y_index * h)
            jd = j;
    }
    mpfr_t lg, shift;
    mpfr_inits2(64, lg, shift, (mpfr_ptr)0);
    if (m_lo + (double)N <= full - 1) {
        chernoff_up(lg, ds, nd, lam[ju], true, x_index, h);
        exp_capped(w->up_pess, lg);
        /* optimistic: M_opt(λ) ≤ e^{−λh} M_pess(λ) per step */
        mpfr_set_d(shift, lam[ju], MPFR_RNDD);
        mpfr_mul_d(shift, shift, h, MPFR_RNDD);
        mpfr_mul_d(shift, shift, T, MPFR_RNDD);
        mpfr_sub(lg, lg, shift, MPFR_RNDU);
        exp_capped(w->up_opt, lg);
    }
    if (m_lo > 0) {
        chernoff_up(lg, ds, nd, lam[jd], false, y_index, h);
        exp_capped(w->lo_pess, lg);
        /* optimistic: M_opt(−λ) ≤ e^{λh} M_pess(−λ) per step */
        mpfr_set_d(shift, lam[jd], MPFR_RNDU);
        mpfr_mul_d(shift, shift, h, MPFR_RNDU);
        mpfr_mul_d(shift, shift, T, MPFR_RNDU);
        mpfr_add(lg, lg, shift, MPFR_RNDU);
        exp_capped(w->lo_opt, lg);
    }
    mpfr_clears(lg, shift, (mpfr_ptr)0);
    return UL_OK;
}

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

/* Buffers and plans for one transform length, reused by both sides: work
 * holds a real input / its half spectrum (in place), acc the product of the
 * spectra and then, after the in-place c2r, the N unnormalised reals. */
typedef struct {
    size_t N, H;
    bool is_long;
    fftw_complex *work_d, *acc_d;
    fftw_plan fwd_d, inv_d;
    fftwl_complex *work_l, *acc_l;
    fftwl_plan fwd_l, inv_l;
} fft_ctx;

#define DEFINE_FFT_CTX(INIT, FREE, RUN, CPOW, REAL, PFX, SUF)                            \
    static bool INIT(fft_ctx *c, bool two_buffers)                                      \
    {                                                                                   \
        c->work##SUF = PFX##_alloc_complex(c->H);                                       \
        c->acc##SUF = two_buffers ? PFX##_alloc_complex(c->H) : c->work##SUF;           \
        if (c->work##SUF == NULL || c->acc##SUF == NULL)                                \
            return false;                                                               \
        c->fwd##SUF = PFX##_plan_dft_r2c_1d((int)c->N, (REAL *)c->work##SUF, c->work##SUF, \
                                            FFTW_ESTIMATE);                             \
        c->inv##SUF = PFX##_plan_dft_c2r_1d((int)c->N, c->acc##SUF, (REAL *)c->acc##SUF,   \
                                            FFTW_ESTIMATE | FFTW_DESTROY_INPUT);        \
        return c->fwd##SUF != NULL && c->inv##SUF != NULL;                              \
    }                                                                                   \
    static void FREE(fft_ctx *c)                                                        \
    {                                                                                   \
        if (c->fwd##SUF != NULL)                                                        \
            PFX##_destroy_plan(c->fwd##SUF);                                            \
        if (c->inv##SUF != NULL)                                                        \
            PFX##_destroy_plan(c->inv##SUF);                                            \
        if (c->acc##SUF != c->work##SUF)                                                \
            PFX##_free(c->acc##SUF);                                                    \
        PFX##_free(c->work##SUF);                                                       \
    }                                                                                   \
    /* The circular convolution Π_i p_i^{*steps_i} (pess or opt arrays) of length   \
     * N, unnormalised (N times it), as the first N reals of acc. */                   \
    static const REAL *RUN(fft_ctx *c, const disc *ds, size_t nd, bool pess)            \
    {                                                                                   \
        PFX##_complex *work = c->work##SUF, *acc = c->acc##SUF;                         \
        for (size_t i = 0; i < nd; i++) {                                               \
            REAL *x = (REAL *)work;                                                     \
            memset(x, 0, 2 * c->H * sizeof(REAL));                                      \
            const double *src = pess ? ds[i].pess : ds[i].opt;                          \
            for (size_t k = 0; k < ds[i].n; k++)                                        \
                x[k] = (REAL)src[k]; /* exact */                                        \
            PFX##_execute(c->fwd##SUF);                                                 \
            for (size_t j = 0; j < c->H; j++) {                                         \
                REAL re = work[j][0], im = work[j][1];                                  \
                CPOW(&re, &im, ds[i].steps);                                            \
                if (i == 0) {                                                           \
                    acc[j][0] = re;                                                     \
                    acc[j][1] = im;                                                     \
                } else {                                                                \
                    REAL ar = acc[j][0], ai = acc[j][1];                                \
                    acc[j][0] = ar * re - ai * im;                                      \
                    acc[j][1] = ar * im + ai * re;                                      \
                }                                                                       \
            }                                                                           \
        }                                                                               \
        PFX##_execute(c->inv##SUF);                                                     \
        return (const REAL *)acc;                                                       \
    }

DEFINE_CPOW(cpow_d, double)
DEFINE_CPOW(cpow_l, long double)
DEFINE_FFT_CTX(fft_init_d, fft_free_d, compose_d, cpow_d, double, fftw, _d)
DEFINE_FFT_CTX(fft_init_l, fft_free_l, compose_l, cpow_l, long double, fftwl, _l)

/* Allocates buffers and plans for length N; false when out of memory (c is
 * then cleared). */
static bool fft_ctx_init(fft_ctx *c, size_t N, size_t nd, bool is_long)
{
    memset(c, 0, sizeof *c);
    c->N = N;
    c->H = N / 2 + 1;
    c->is_long = is_long;
    bool ok = is_long ? fft_init_l(c, nd > 1) : fft_init_d(c, nd > 1);
    if (!ok) {
        if (is_long)
            fft_free_l(c);
        else
            fft_free_d(c);
    }
    return ok;
}

static void fft_ctx_clear(fft_ctx *c)
{
    if (c->is_long)
        fft_free_l(c);
    else
        fft_free_d(c);
}

/* The constants of one FFT precision. */
typedef struct {
    int mant;     /* p: u = 2^-p */
    int min_exp;  /* emin of the format (FLT_MIN_EXP convention) */
    bool is_long;
} fft_format;

static const fft_format FORMAT_DOUBLE = {DBL_MANT_DIG, DBL_MIN_EXP, false};
static const fft_format FORMAT_LONG = {LDBL_MANT_DIG, LDBL_MIN_EXP, true};

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

/* E2 ≥ ‖ẑ − z‖₂ (§3c) for the pess or opt arrays at length N in format f. */
static void rounding_l2(mpfr_ptr E2, const disc *ds, size_t nd, bool pess, size_t N,
                        const fft_format *f)
{
    mpfr_prec_t P = BUDGET_PREC;
    mpfr_t u, eta, g4, gN, c, sqrtN, M, E, Mpow, rho, D, t, sumTE, minA, minP, one;
    mpfr_inits2(P, u, eta, g4, gN, c, sqrtN, M, E, Mpow, rho, D, t, sumTE, minA, minP, one,
                (mpfr_ptr)0);
    int tlog = 0;
    while (((size_t)1 << tlog) < N)
        tlog++;
    mpfr_set_ui_2exp(u, 1, -f->mant, MPFR_RNDN); /* exact */
    mpfr_set_ui(one, 1, MPFR_RNDN);

    /* η = μ + γ_4(√2 + μ), μ = 4u */
    gamma_k(g4, 4, f->mant);
    mpfr_mul_ui(eta, u, 4, MPFR_RNDU); /* μ */
    mpfr_sqrt_ui(t, 2, MPFR_RNDU);
    mpfr_add(t, t, eta, MPFR_RNDU);
    mpfr_mul(t, t, g4, MPFR_RNDU);
    mpfr_add(eta, eta, t, MPFR_RNDU);
    /* γ_N = c/(1 − c), c = F·(t+2)·η */
    mpfr_mul_ui(c, eta, (unsigned long)FFTW_SAFETY * (unsigned long)(tlog + 2), MPFR_RNDU);
    mpfr_ui_sub(t, 1, c, MPFR_RNDD);
    mpfr_div(gN, c, t, MPFR_RNDU);
    mpfr_sqrt_ui(sqrtN, N, MPFR_RNDU);

    /* M = max(S_i + E_i), Σ T_i E_i, min_i(√N‖p_i‖ + E_i), min_i ‖p_i‖ */
    unsigned long T = 0;
    mpfr_set_zero(M, 1);
    mpfr_set_zero(sumTE, 1);
    mpfr_set_inf(minA, 1);
    mpfr_set_inf(minP, 1);
    for (size_t i = 0; i < nd; i++) {
        mpfr_srcptr l2 = pess ? ds[i].l2_pess : ds[i].l2_opt;
        mpfr_srcptr S = pess ? ds[i].sum_pess : ds[i].sum_opt;
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

    mpfr_clears(u, eta, g4, gN, c, sqrtN, M, E, Mpow, rho, D, t, sumTE, minA, minP, one,
                (mpfr_ptr)0);
}

/* ---- reading δ off the composed array (§3 d–e) ---------------------------------- */

typedef struct {
    mpfr_t lo, hi;   /* Σ w̃ŷ/N accumulated down and up */
    mpfr_t err;      /* ≥ |Σ w ẑ − computed| (§3e) */
    double K;        /* window points above ε */
} weighted_sum;

/* A long double t̃ near e^{arg} for every arg in the box, and
 * rel ≥ max |t̃ − e^{arg}|/e^{arg} over the box (both from an MPFI exp). */
static void exp_anchor(long double *t_out, mpfr_ptr rel, mpfi_srcptr arg)
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

/* Σ over window indices m with (base + m)·h > eps of (1 − e^{eps − ℓ_m})·y[m mod N]·2^-scale,
 * with its rounding bound.  y holds len ≤ N reals (double or long double);
 * entries len … N−1 are zero. */
static void sum_weighted(weighted_sum *out, const void *y, bool y_long, size_t len, int scale,
                         const window *w, double h, mpfr_srcptr eps)
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

    /* first m with (base + m)h > eps, by exact comparisons */
    mpfr_div_d(q, eps, h, MPFR_RNDD);
    mpfr_floor(q, q);
    double m0 = mpfr_get_d(q, MPFR_RNDN) - w->base;
    exact_loss(loss, w->base + m0, h);
    while (mpfr_greater_p(loss, eps)) {
        m0 -= 1;
        exact_loss(loss, w->base + m0, h);
    }
    do {
        m0 += 1;
        exact_loss(loss, w->base + m0, h);
    } while (!mpfr_greater_p(loss, eps));
    double m_start = fmax(m0, w->m_lo), m_end = w->m_lo + (double)N - 1;
    if (m_start > m_end) {
        mpfr_clears(loss, q, ra, rrho, blk, theta, t, (mpfr_ptr)0);
        mpfi_clear(arg);
        return;
    }
    out->K = m_end - m_start + 1;

    /* ρ̃ ≈ e^{−h} with its relative error; C = ((1 + r_ρ)(1 + u_L))^{B−1} */
    long double rho_t;
    mpfi_set_d(arg, -h); /* exact */
    exp_anchor(&rho_t, rrho, arg);
    mpfr_t uL, gB, omega, C, abs_sum;
    mpfr_inits2(BUDGET_PREC, uL, gB, omega, C, abs_sum, (mpfr_ptr)0);
    mpfr_set_ui_2exp(uL, 1, -LDBL_MANT_DIG, MPFR_RNDN);
    mpfr_add_ui(C, rrho, 1, MPFR_RNDU);
    mpfr_add_ui(t, uL, 1, MPFR_RNDU);
    mpfr_mul(C, C, t, MPFR_RNDU);
    mpfr_pow_ui(C, C, SUM_BLOCK - 1, MPFR_RNDU);
    mpfr_set_zero(ra, 1); /* max over blocks of θ_b·t_b */
    mpfr_set_zero(abs_sum, 1);

    for (double mb = m_start; mb <= m_end; mb += SUM_BLOCK) {
        double me = fmin(mb + SUM_BLOCK - 1, m_end);
        exact_loss(loss, w->base + mb, h);
        mpfi_set_fr(arg, eps);
        mpfi_sub_fr(arg, arg, loss); /* an enclosure of ε − ℓ, rounded outward */
        long double tw;
        exp_anchor(&tw, t, arg);
        /* |t̃_j − t_j| ≤ θ_b·t_j ≤ θ_b·t_b, θ_b = (1 + r_b)·C − 1 (t decreases) */
        mpfr_add_ui(t, t, 1, MPFR_RNDU);
        mpfr_mul(t, t, C, MPFR_RNDU);
        mpfr_sub_ui(t, t, 1, MPFR_RNDU);
        mpfr_exp(theta, &arg->right, MPFR_RNDU);
        mpfr_mul(t, t, theta, MPFR_RNDU);
        if (mpfr_greater_p(t, ra))
            mpfr_set(ra, t, MPFR_RNDU);
        long double acc = 0, asum = 0;
        size_t pos = (size_t)fmod(mb, (double)N);
        for (double m = mb; m <= me; m += 1) {
            long double v = pos >= len ? 0 : y_long ? yl[pos] : (long double)yd[pos];
            acc += (1 - tw) * v;
            asum += fabsl(v);
            tw *= rho_t;
            if (++pos == N)
                pos = 0;
        }
        mpfr_set_ld(blk, acc, MPFR_RNDN); /* exact */
        mpfr_add(out->lo, out->lo, blk, MPFR_RNDD);
        mpfr_add(out->hi, out->hi, blk, MPFR_RNDU);
        mpfr_set_ld(blk, asum, MPFR_RNDN);
        mpfr_add(abs_sum, abs_sum, blk, MPFR_RNDU);
    }

    /* Weights: |w̃ − w| ≤ ω = E_t + u_L(1 + E_t), E_t = max_b θ_b·t_b.  Sum:
     * err = (ω + γ_B(1 + ω))/(1 − γ_B)·Σ|ŷ| (Higham (3.5) per block; Σ|ŷ| ≤
     * its computed value/(1 − γ_B)), plus an underflow allowance: every
     * long-double operation that underflows errs by at most η = 2^(emin − p),
     * at most 4 operations per point, each feeding the sum with weight ≤ 2. */
    mpfr_add_ui(t, ra, 1, MPFR_RNDU);
    mpfr_mul(t, t, uL, MPFR_RNDU);
    mpfr_add(omega, ra, t, MPFR_RNDU);
    gamma_k(gB, SUM_BLOCK, LDBL_MANT_DIG);
    mpfr_add_ui(t, omega, 1, MPFR_RNDU);
    mpfr_mul(t, t, gB, MPFR_RNDU);
    mpfr_add(t, t, omega, MPFR_RNDU);
    mpfr_ui_sub(theta, 1, gB, MPFR_RNDD);
    mpfr_div(t, t, theta, MPFR_RNDU);
    mpfr_div(t, t, theta, MPFR_RNDU);
    mpfr_mul(out->err, t, abs_sum, MPFR_RNDU);
    mpfr_set_d(t, out->K + SUM_BLOCK, MPFR_RNDU);
    mpfr_mul_2si(t, t, LDBL_MIN_EXP - LDBL_MANT_DIG + 3, MPFR_RNDU);
    mpfr_add(out->err, out->err, t, MPFR_RNDU);

    /* ÷ 2^scale (N after an FFT), exact */
    mpfr_div_2ui(out->lo, out->lo, (unsigned long)scale, MPFR_RNDD);
    mpfr_div_2ui(out->hi, out->hi, (unsigned long)scale, MPFR_RNDU);
    mpfr_div_2ui(out->err, out->err, (unsigned long)scale, MPFR_RNDU);

    mpfr_clears(uL, gB, omega, C, abs_sum, (mpfr_ptr)0);
    mpfr_clears(loss, q, ra, rrho, blk, theta, t, (mpfr_ptr)0);
    mpfi_clear(arg);
}

/* ---- one direction at one grid (§4) --------------------------------------------- */

typedef struct {
    mpfr_t lo, hi;
    double pess, opt;           /* the sums Σ w ẑ before the budget */
    double tails_hi, tails_lo;  /* added to hi / subtracted from lo */
    double round_hi, round_lo;  /* rounding bounds added / subtracted */
    double slack;
    size_t N, nmax;
} dir_result;

/* Composes one side (pess or opt) and reads its weighted sum off; E2 bounds
 * the ℓ2 rounding error of the composed array.  A single step (one
 * mechanism applied once) needs no transform: the array is read directly
 * and E2 = 0. */
static void compose_side(weighted_sum *ws, mpfr_ptr E2, fft_ctx *fc, const disc *ds, size_t nd,
                         bool pess, const window *w, double h, mpfr_srcptr eps,
                         const fft_format *f)
{
    if (fc == NULL) {
        sum_weighted(ws, pess ? ds[0].pess : ds[0].opt, false, ds[0].n, 0, w, h, eps);
        mpfr_set_zero(E2, 1);
        return;
    }
    const void *y = f->is_long ? (const void *)compose_l(fc, ds, nd, pess)
                               : (const void *)compose_d(fc, ds, nd, pess);
    int tlog = 0;
    while (((size_t)1 << tlog) < w->N)
        tlog++;
    sum_weighted(ws, y, f->is_long, w->N, tlog, w, h, eps);
    rounding_l2(E2, ds, nd, pess, w->N, f);
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
    double T = 0, var = 0, full = 1;
    for (size_t i = 0; i < nm; i++)
        T += (double)ms[i].steps;
    for (size_t i = 0; i < nm; i++) {
        double lo, hi;
        range_d(&ms[i], tau / (8 * T), &lo, &hi);
        full += (double)ms[i].steps * ((hi - lo) / h);
        var += (double)ms[i].steps * variance_d(&ms[i], lo, hi);
    }
    double need = fmin(2 * z_of_tail(tau / 8) * sqrt(var) / h, full);
    if (!(need <= 2.0 * (double)max_points))
        return ul_fail(err, errlen, UL_EINPUT,
                       "grid-step: %g needs an FFT of about %.3g points, more than max-points "
                       "(%lu)",
                       h, need, max_points);
    return UL_OK;
}

static ul_status evaluate_direction(mech *ms, size_t nm, mpfi_srcptr eps, double h, double tau,
                                    const fft_format *f, unsigned long max_points,
                                    dir_result *res, char *err, size_t errlen)
{
    double T = 0;
    for (size_t i = 0; i < nm; i++)
        T += (double)ms[i].steps;
    disc *ds = calloc(nm, sizeof *ds);
    if (ds == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "out of memory");
    for (size_t i = 0; i < nm; i++)
        disc_init(&ds[i]);
    window w;
    mpfr_inits2(64, w.up_pess, w.lo_pess, w.up_opt, w.lo_opt, (mpfr_ptr)0);
    weighted_sum sp, so;
    mpfr_inits2(BUDGET_PREC, sp.lo, sp.hi, sp.err, so.lo, so.hi, so.err, (mpfr_ptr)0);
    mpfr_t E2, rnd, pinf, t, hi, lo, eps_lo, eps_hi, bottom;
    mpfr_inits2(BUDGET_PREC, E2, rnd, pinf, t, hi, lo, eps_lo, eps_hi, bottom, (mpfr_ptr)0);
    mpfi_get_left(eps_lo, eps);
    mpfi_get_right(eps_hi, eps);

    ul_status st = precheck_size(ms, nm, h, tau, max_points, err, errlen);
    for (size_t i = 0; i < nm && st == UL_OK; i++)
        st = discretise(&ds[i], &ms[i], h, tau / (8 * T), max_points, err, errlen);
    if (st == UL_OK)
        st = choose_window(&w, ds, nm, h, tau / 8, max_points, err, errlen);
    if (st != UL_OK)
        goto done;
    res->N = w.N;
    res->nmax = 0;
    res->slack = 0;
    for (size_t i = 0; i < nm; i++) {
        if (ds[i].n > res->nmax)
            res->nmax = ds[i].n;
        res->slack += (double)ds[i].steps * mpfr_get_d(ds[i].slack, MPFR_RNDU);
    }

    /* composed mass at +∞: 1 − Π(1 − p∞_i)^{T_i}, rounded up */
    mpfr_set_zero(pinf, 1);
    for (size_t i = 0; i < nm; i++) {
        mpfr_neg(t, ds[i].p_inf, MPFR_RNDN);
        mpfr_log1p(t, t, MPFR_RNDD);
        mpfr_mul_ui(t, t, ds[i].steps, MPFR_RNDD);
        mpfr_add(pinf, pinf, t, MPFR_RNDD);
    }
    mpfr_expm1(pinf, pinf, MPFR_RNDD);
    mpfr_neg(pinf, pinf, MPFR_RNDU);

    fft_ctx fc, *fcp = NULL;
    bool single = nm == 1 && ds[0].steps == 1;
    if (!single) {
        if (!fft_ctx_init(&fc, w.N, nm, f->is_long)) {
            st = ul_fail(err, errlen, UL_EINPUT,
                         "grid-step: %g: out of memory for an FFT of %zu points", h, w.N);
            goto done;
        }
        fcp = &fc;
    }
    /* upper end: pessimistic arrays, ε's lower end */
    compose_side(&sp, E2, fcp, ds, nm, true, &w, h, eps_lo, f);
    rounding_total(rnd, &sp, E2);
    res->round_hi = mpfr_get_d(rnd, MPFR_RNDU);
    mpfr_add(hi, sp.hi, rnd, MPFR_RNDU);
    mpfr_add(t, pinf, w.up_pess, MPFR_RNDU);
    exact_loss(bottom, w.base + w.m_lo, h); /* the window's lowest loss */
    if (mpfr_greater_p(bottom, eps_lo))
        mpfr_add(t, t, w.lo_pess, MPFR_RNDU);
    res->tails_hi = mpfr_get_d(t, MPFR_RNDU);
    mpfr_add(hi, hi, t, MPFR_RNDU);
    if (mpfr_cmp_ui(hi, 1) > 0)
        mpfr_set_ui(hi, 1, MPFR_RNDU);
    res->pess = mpfr_get_d(sp.hi, MPFR_RNDN);

    /* lower end: optimistic arrays, ε's upper end */
    compose_side(&so, E2, fcp, ds, nm, false, &w, h, eps_hi, f);
    if (fcp != NULL)
        fft_ctx_clear(fcp);
    rounding_total(rnd, &so, E2);
    res->round_lo = mpfr_get_d(rnd, MPFR_RNDU);
    mpfr_sub(lo, so.lo, rnd, MPFR_RNDD);
    mpfr_add(t, w.up_opt, w.lo_opt, MPFR_RNDU);
    res->tails_lo = mpfr_get_d(t, MPFR_RNDU);
    mpfr_sub(lo, lo, t, MPFR_RNDD);
    /* E_γ ≥ max(0, 1 − e^ε) */
    mpfr_exp(t, eps_hi, MPFR_RNDU);
    mpfr_ui_sub(t, 1, t, MPFR_RNDD);
    if (mpfr_sgn(t) < 0)
        mpfr_set_zero(t, 1);
    if (mpfr_less_p(lo, t))
        mpfr_set(lo, t, MPFR_RNDD);
    res->opt = mpfr_get_d(so.lo, MPFR_RNDN);

    mpfr_set(res->lo, lo, MPFR_RNDD);
    mpfr_set(res->hi, hi, MPFR_RNDU);

done:
    for (size_t i = 0; i < nm; i++)
        disc_clear(&ds[i]);
    free(ds);
    mpfr_clears(w.up_pess, w.lo_pess, w.up_opt, w.lo_opt, (mpfr_ptr)0);
    mpfr_clears(sp.lo, sp.hi, sp.err, so.lo, so.hi, so.err, (mpfr_ptr)0);
    mpfr_clears(E2, rnd, pinf, t, hi, lo, eps_lo, eps_hi, bottom, (mpfr_ptr)0);
    return st;
}

/* ---- the driver: directions, automatic grid and precision ------------------------ */

/* A first grid step: about INITIAL_POINTS points over the wider of the
 * composed spread (±(z+1)σ√T, Gaussian approximation) and the widest
 * single-step range. */
static double initial_step(mech *ms, size_t nm, double tau, unsigned long max_points)
{
    double T = 0, var = 0, range = 0;
    for (size_t i = 0; i < nm; i++)
        T += (double)ms[i].steps;
    for (size_t i = 0; i < nm; i++) {
        double lo, hi;
        range_d(&ms[i], tau / (8 * T), &lo, &hi);
        range = fmax(range, hi - lo);
        var += (double)ms[i].steps * variance_d(&ms[i], lo, hi);
    }
    double z = z_of_tail(tau / 8) + 1;
    double width = fmax(2 * z * sqrt(var), range);
    double points = fmin(INITIAL_POINTS, (double)max_points / 8);
    return width / points;
}

typedef struct {
    mpfr_t lo, hi;
    double gap, tails, rounding; /* components of the direction on top */
    dir_result best;             /* the direction giving hi */
    direction best_dir;
} round_result;

static ul_status evaluate_round(mech *ms, size_t nm, const direction *dirs, size_t ndirs,
                                mpfi_srcptr eps, double h, double tau, const fft_format *f,
                                unsigned long max_points, round_result *rr, char *err,
                                size_t errlen)
{
    ul_status st = UL_OK;
    mpfr_set_zero(rr->lo, 1);
    mpfr_set_zero(rr->hi, 1);
    rr->gap = rr->tails = rr->rounding = 0;
    for (size_t k = 0; k < ndirs && st == UL_OK; k++) {
        dir_result d;
        mpfr_inits2(BUDGET_PREC, d.lo, d.hi, (mpfr_ptr)0);
        for (size_t i = 0; i < nm; i++)
            ms[i].dir = dirs[k];
        st = evaluate_direction(ms, nm, eps, h, tau, f, max_points, &d, err, errlen);
        if (st == UL_OK) {
            if (mpfr_greater_p(d.lo, rr->lo))
                mpfr_set(rr->lo, d.lo, MPFR_RNDD);
            if (k == 0 || mpfr_greater_p(d.hi, rr->hi)) {
                mpfr_set(rr->hi, d.hi, MPFR_RNDU);
                mpfr_set(rr->best.lo, d.lo, MPFR_RNDD);
                mpfr_set(rr->best.hi, d.hi, MPFR_RNDU);
                rr->best.pess = d.pess;
                rr->best.opt = d.opt;
                rr->best.tails_hi = d.tails_hi;
                rr->best.tails_lo = d.tails_lo;
                rr->best.round_hi = d.round_hi;
                rr->best.round_lo = d.round_lo;
                rr->best.slack = d.slack;
                rr->best.N = d.N;
                rr->best.nmax = d.nmax;
                rr->best_dir = dirs[k];
            }
        }
        mpfr_clears(d.lo, d.hi, (mpfr_ptr)0);
    }
    /* the width of max(δ_ADD, δ_REMOVE) is governed by the direction on top */
    rr->gap = rr->best.pess - rr->best.opt;
    rr->tails = rr->best.tails_hi + rr->best.tails_lo;
    rr->rounding = rr->best.round_hi + rr->best.round_lo;
    return st;
}

static void fill_report(ul_pld_report *rep, const round_result *rr, double h, double tau,
                        const fft_format *f, int rounds)
{
    if (rep == NULL)
        return;
    rep->grid_step = h;
    rep->fft_length = (unsigned long)rr->best.N;
    rep->grid_points = (unsigned long)rr->best.nmax;
    rep->fft_bits = f->mant;
    rep->rounds = rounds;
    rep->direction = rr->best_dir == DIR_ADD ? UL_PLD_ADD : UL_PLD_REMOVE;
    rep->delta_pessimistic = rr->best.pess;
    rep->delta_optimistic = rr->best.opt;
    rep->discretisation_gap = rr->best.pess - rr->best.opt;
    rep->tail_mass = rr->best.tails_hi;
    rep->rounding = rr->best.round_hi;
    rep->mass_slack = rr->best.slack;
    rep->truncation = tau;
}

static ul_status drive(mech *ms, size_t nm, const char *eps_text, const ul_pld_options *o,
                       mpfr_ptr delta_lo, mpfr_ptr delta_hi, ul_pld_report *report, char *err,
                       size_t errlen)
{
    mpfi_t eps;
    mpfi_init2(eps, INPUT_PREC);
    ul_status st = ul_num_read_checked(eps, "eps", eps_text, "-" UL_PLD_MAX_ABS_EPS, false,
                                UL_PLD_MAX_ABS_EPS, false, err, errlen);
    if (st != UL_OK) {
        mpfi_clear(eps);
        return st;
    }

    bool any_sub = false;
    for (size_t i = 0; i < nm; i++)
        any_sub = any_sub || ms[i].subsampled;
    direction dirs[2];
    size_t ndirs = 0;
    if (!any_sub || o->adjacency != UL_PLD_ADD)
        dirs[ndirs++] = DIR_REMOVE; /* the Gaussian PLD is the same both ways */
    if (any_sub && o->adjacency != UL_PLD_REMOVE)
        dirs[ndirs++] = DIR_ADD;

    bool fixed = o->grid_step > 0, tau_auto = o->tail_bound == 0;
    double tau = tau_auto ? DEFAULT_TAIL : o->tail_bound;
    double h = fixed ? o->grid_step : initial_step(ms, nm, tau, o->max_points);
    const fft_format *f = o->fft == UL_PLD_FFT_LONG_DOUBLE ? &FORMAT_LONG : &FORMAT_DOUBLE;

    round_result rr;
    mpfr_inits2(BUDGET_PREC, rr.lo, rr.hi, rr.best.lo, rr.best.hi, (mpfr_ptr)0);
    mpfr_t best_lo, best_hi, width, target;
    mpfr_inits2(BUDGET_PREC, best_lo, best_hi, width, target, (mpfr_ptr)0);
    mpfr_set_zero(best_lo, 1);
    mpfr_set_ui(best_hi, 1, MPFR_RNDU);
    bool have = false;
    char reason[640] = "";
    st = UL_ECAP;
    int rounds = 0;
    for (; rounds < MAX_ROUNDS;) {
        char rerr[256] = "";
        ul_status rs = evaluate_round(ms, nm, dirs, ndirs, eps, h, tau, f, o->max_points, &rr,
                                      rerr, sizeof rerr);
        rounds++;
        if (rs != UL_OK) {
            if (!have) {
                st = ul_fail(err, errlen, rs, "%s", rerr);
                goto out;
            }
            snprintf(reason, sizeof reason,
                     "the relative width asked (%g) needs a finer grid than max-points (%lu) "
                     "allows (%s)",
                     o->rel_width, o->max_points, rerr);
            break;
        }
        have = true;
        fill_report(report, &rr, h, tau, f, rounds);
        if (mpfr_greater_p(rr.lo, best_lo))
            mpfr_set(best_lo, rr.lo, MPFR_RNDD);
        if (mpfr_less_p(rr.hi, best_hi))
            mpfr_set(best_hi, rr.hi, MPFR_RNDU);
        if (mpfr_greater_p(best_lo, best_hi)) {
            /* impossible when every bound is sound; refuse rather than guess */
            snprintf(reason, sizeof reason,
                     "internal inconsistency: disjoint brackets across grids; reporting [0, 1]");
            mpfr_set_zero(best_lo, 1);
            mpfr_set_ui(best_hi, 1, MPFR_RNDU);
            break;
        }
        mpfr_sub(width, best_hi, best_lo, MPFR_RNDU);
        mpfr_mul_d(target, best_hi, o->rel_width, MPFR_RNDD);
        if (mpfr_lessequal_p(width, target)) {
            st = UL_OK;
            break;
        }
        double tgt = mpfr_get_d(target, MPFR_RNDD), hi_d = mpfr_get_d(best_hi, MPFR_RNDU);
        double target_gap;
        char floor_reason[320];
        snprintf(floor_reason, sizeof floor_reason,
                 "the FFT rounding bound (%.3g) exceeds the relative width asked (%g) at "
                 "delta <= %.3g with %d-bit FFT arithmetic: delta <= hi is proven, but delta "
                 "is below what FFT composition resolves here",
                 rr.rounding, o->rel_width, hi_d, f->mant);
        bool at_floor = rr.rounding > 0.25 * tgt;
        if (at_floor) {
            if (!f->is_long && o->fft == UL_PLD_FFT_AUTO) {
                f = &FORMAT_LONG; /* same grid, long double */
                continue;
            }
            /* Precision exhausted: refine the grid only while it, not the
             * rounding, dominates the width, so hi gets as low as it can. */
            if (fixed || rr.gap <= 2 * rr.rounding + rr.tails) {
                snprintf(reason, sizeof reason, "%s", floor_reason);
                break;
            }
            target_gap = rr.rounding;
        } else {
            if (fixed) {
                snprintf(reason, sizeof reason,
                         "grid-step %g is too coarse for the relative width asked (%g): the "
                         "bracket is sound but %.3g wide",
                         h, o->rel_width, mpfr_get_d(width, MPFR_RNDU));
                break;
            }
            if (rr.tails > 0.25 * tgt && tau_auto && tau > 1e-290) {
                tau = fmax(1e-300, tau * 1e-30);
                continue;
            }
            target_gap = 0.85 * tgt - rr.rounding - rr.tails;
        }
        double factor = (target_gap > 0 && rr.gap > 0) ? target_gap / rr.gap : 1.0 / 32;
        factor = fmin(fmax(factor, 1.0 / 32), 0.9);
        double h_new = h * factor;
        double n_pred = (double)rr.best.N / factor;
        if (n_pred > (double)o->max_points) {
            h_new = h * (double)rr.best.N / (double)o->max_points;
            if (!(h_new < 0.95 * h)) {
                if (at_floor)
                    snprintf(reason, sizeof reason, "%s", floor_reason);
                else
                    snprintf(reason, sizeof reason,
                             "the relative width asked (%g) needs an FFT longer than "
                             "max-points (%lu); the bracket is sound but %.3g wide",
                             o->rel_width, o->max_points, mpfr_get_d(width, MPFR_RNDU));
                break;
            }
        }
        if (tau_auto) {
            double lo_d = mpfr_get_d(best_lo, MPFR_RNDD);
            if (lo_d > 0)
                tau = fmin(fmax(1e-2 * o->rel_width * lo_d, 1e-300), 1e-10);
        }
        h = h_new;
    }
    if (st == UL_ECAP && reason[0] == '\0')
        snprintf(reason, sizeof reason,
                 "the relative width asked (%g) was not reached in %d rounds; the bracket is "
                 "sound",
                 o->rel_width, rounds);
    if (st == UL_ECAP)
        ul_fail(err, errlen, UL_ECAP, "%s", reason);
    mpfr_set(delta_lo, best_lo, MPFR_RNDD);
    mpfr_set(delta_hi, best_hi, MPFR_RNDU);

out:
    mpfr_clears(rr.lo, rr.hi, rr.best.lo, rr.best.hi, (mpfr_ptr)0);
    mpfr_clears(best_lo, best_hi, width, target, (mpfr_ptr)0);
    mpfi_clear(eps);
    return st;
}

/* ---- public entries ------------------------------------------------------------------ */

ul_status ul_pld_compose(const ul_pld_mechanism *mechanisms, size_t count, const char *eps,
                         const ul_pld_options *opt, mpfr_ptr delta_lo, mpfr_ptr delta_hi,
                         ul_pld_report *report, char *err, size_t errlen)
{
    ul_num_init();
    ul_pld_options defaults;
    ul_pld_options_default(&defaults);
    const ul_pld_options *o = opt != NULL ? opt : &defaults;
    ul_status st = check_options(o, err, errlen);
    if (st != UL_OK)
        return st;
    if (mechanisms == NULL || count < 1 || count > UL_PLD_MAX_MECHANISMS)
        return ul_fail(err, errlen, UL_EINPUT, "mechanisms: need between 1 and %d (got %zu)",
                       UL_PLD_MAX_MECHANISMS, mechanisms == NULL ? (size_t)0 : count);
    mech *ms = calloc(count, sizeof *ms);
    if (ms == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "mechanisms: out of memory");
    size_t nread = 0;
    unsigned long total = 0;
    for (size_t i = 0; i < count && st == UL_OK; i++) {
        char prefix[40] = "";
        if (count > 1)
            snprintf(prefix, sizeof prefix, "mechanism[%zu].", i);
        st = mech_read(&ms[i], &mechanisms[i], prefix, err, errlen);
        nread++;
        if (st == UL_OK) {
            total += mechanisms[i].steps;
            if (total > UL_PLD_MAX_STEPS)
                st = ul_fail(err, errlen, UL_EINPUT,
                             "steps: the total number of steps must be at most %lu",
                             UL_PLD_MAX_STEPS);
        }
    }
    if (st == UL_OK)
        st = drive(ms, count, eps, o, delta_lo, delta_hi, report, err, errlen);
    for (size_t i = 0; i < nread; i++)
        mech_clear(&ms[i]);
    free(ms);
    fftw_cleanup();
    fftwl_cleanup();
    return st;
}

ul_status ul_pld_compose_gaussian(const char *r, unsigned long steps, const char *eps,
                                  const ul_pld_options *opt, mpfr_ptr delta_lo,
                                  mpfr_ptr delta_hi, ul_pld_report *report, char *err,
                                  size_t errlen)
{
    ul_pld_mechanism m = {r, NULL, steps};
    return ul_pld_compose(&m, 1, eps, opt, delta_lo, delta_hi, report, err, errlen);
}

ul_status ul_pld_compose_subsampled(const char *r, const char *q, unsigned long steps,
                                    const char *eps, const ul_pld_options *opt,
                                    mpfr_ptr delta_lo, mpfr_ptr delta_hi,
                                    ul_pld_report *report, char *err, size_t errlen)
{
    if (q == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "q: missing");
    ul_pld_mechanism m = {r, q, steps};
    return ul_pld_compose(&m, 1, eps, opt, delta_lo, delta_hi, report, err, errlen);
}
