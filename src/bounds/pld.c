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
 * 1. Discretisation: "connect the dots" (Doroshenko, Ghazi, Kamath, Kumar,
 *    Manurangsi 2022, "Connect the dots: tighter discrete approximations of
 *    privacy loss distributions", PoPETS, §3) on the grid ℓ_k = k·h,
 *    k = k_lo … k_lo+n−1, with a proven lower bound of our own (below).
 *    Split.  P- and Q-mass of the bin (ℓ_{k−1}, ℓ_k] are P_k = P[bin] and
 *    Q_k = Q[bin] = E_P[e^{−L}; bin].  The bin's mass goes to its two ends,
 *    b_k to ℓ_k and a_k = P_k − b_k to ℓ_{k−1}, with a_k e^{−ℓ_{k−1}} +
 *    b_k e^{−ℓ_k} = Q_k, i.e. b_k = (P_k e^h − Q_k e^{ℓ_k})/(e^h − 1):
 *    pointwise, a loss ℓ in the bin becomes the random L_A ∈ {ℓ_{k−1}, ℓ_k}
 *    with E[e^{−L_A} | L = ℓ] = e^{−ℓ}.  The lower tail (L ≤ ℓ_0) is folded
 *    up onto ℓ_0 and the upper tail (L > ℓ_top) goes to +∞.
 *    Upper bound.  Write D = L_A − L, S = Σ L_t, S_A = Σ L_A,t = S + W,
 *    W = Σ D_t, B = {some L_t outside [ℓ_0, ℓ_top]}, y = e^{−S}, Z = e^{−W}.
 *    f_ε(s) = 1 − e^ε y + φ(y), φ(y) = (e^ε y − 1)₊ convex.  On B^c,
 *    E[Z | L's] = 1, so by Jensen E[f_ε(S_A) | L's] ≥ f_ε(S); on B the tail
 *    steps only raise the loss (f_ε nondecreasing).  Hence δ ≤ δ_A := E f_ε(S_A)
 *    (the dominating pair of Doroshenko et al.).
 *    Lower bound: the optimistic array (pld_opt.c, where the argument is
 *    written out).  The CTD curve is the chord interpolation of the step's
 *    curve δ(γ), γ = e^ε, at the grid points; on each bin's segment the
 *    chord exceeds δ by at most a tent fixed by the bin's split.  Lowering
 *    the chords by a piecewise-linear C(γ) that clears every tent (c_k of the
 *    order h·(one bin's mass)) gives a curve ≤ δ with kinks at grid points
 *    only: the curve of grid masses o_k = m_k − J_k (J_k the jump of C's
 *    slope), negative ones pushed up the grid (which only lowers the curve)
 *    and what is left at the top kept as a slack ε_i.  A measure whose curve
 *    is below the step's at every ε composes to a curve below the
 *    composition's (the monotonicity of ⊗, Dong, Roth, Su 2022, §3), less
 *    (Σ_i T_i ε_i)·M^{T−1}.  So the lower end is the composed opt array, with
 *    no excess term: its gap to δ is second order in h, a few times the
 *    upper end's (pld_disc test: checked against the closed-form curve).
 *    The bins outside the grid are dropped from opt (its curve only drops).
 *    Bin masses.  L is a monotone function of the Gaussian noise value x
 *    (Gaussian: x = (ℓ − r²/2)/r; REMOVE/ADD: x(ℓ) = r/2 + log1p(expm1(±ℓ)/q)/r),
 *    so P_k and Q_k are normal masses ∫φ over an x-interval (Gaussian: Q is
 *    the same interval shifted by r; REMOVE: Q = N(0,1); ADD: Q is the
 *    mixture), enclosed in MPFI by a Taylor series of ∫_a^{a+d} φ with a
 *    proven remainder (normal_mass_series: the recurrence comes from
 *    g′ = −(a+y)g, the remainder from a majorant series), or, for wide bins,
 *    as a difference of ul_num_q enclosures (num/gauss_tail.h).  The folded
 *    lower tail and the upper tail are single ul_num_q evaluations.  For
 *    the Gaussian, φ at consecutive endpoints, e^{−ℓ_k} and e^{ℓ_k} are
 *    carried from bin to bin by interval recurrences (gauss_rec; products
 *    of enclosures enclose the products).  The split is evaluated in MPFI
 *    and clamped to [0, P_k] (the true a_k, b_k are there).  Each pess atom
 *    is stored as the upper end of its enclosure rounded up to a double
 *    (mpfr_get_d, MPFR_RNDU); since f_ε ≥ 0 and convolving nonnegative
 *    sequences is monotone, that only raises the upper bound.  opt is built
 *    from the lower ends and rounded down (pld_opt.c), which only lowers
 *    the lower one.  The mass at +∞ after composition is
 *    1 − Π_i (1 − p∞_i)^{T_i}.
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
 *    window points: for the upper end that only increases the sum, and the
 *    outside mass above the window (below it too when the window starts
 *    above ε) is added; for the lower end the whole outside mass of the opt
 *    composition (its own Chernoff bound, from its own group sums) is
 *    subtracted (f ≤ 1).
 *
 * 3. Rounding (a-priori).  u is the unit roundoff of the FFT arithmetic
 *    (2^-53 in double, 2^-LDBL_MANT_DIG = 2^-64 in x87 long double), N = 2^t.
 *    (a) Transforms: pld_fft.c, a radix-2 Cooley–Tukey FFT of our own whose
 *        twiddles are proven accurate to μ (correctly rounded long double
 *        factors from mpfr_cosu/sinu, one product: μ = 5u_L, or u + 6u_L once
 *        rounded to double), so Higham, "Accuracy and Stability of Numerical
 *        Algorithms", 2nd ed., SIAM 2002, Thm 24.2 applies to the algorithm
 *        actually run: ‖fl(Fx) − Fx‖₂ ≤ γ_N‖Fx‖₂, γ_N = tη/(1 − tη),
 *        η = μ + γ_4(√2 + μ), γ_4 = 4u/(1 − 4u).  No constant is assumed
 *        (the previous FFTW-based engine assumed one).  The two real arrays
 *        of a mechanism go in one complex transform, pess + i·opt, and are
 *        separated by conjugate symmetry; the two composed spectra are packed
 *        back as X + iY for one inverse transform (pld_compose.c,
 *        rounding_l2: the separation and packing add a few u to the bounds
 *        below, and each array's bound covers both).
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
 * 4. Result.  hi = Σ w ẑ at ε's lower end + (e) + √K·E2 + composed mass at
 *    +∞ + the window tails (§2), capped at 1; lo = Σ w ŷ (ŷ the composed opt
 *    array) at ε's upper end − (e) − √K·E2 − the opt mass outside the window
 *    − the opt slack (§1), and at least max(0, 1 − e^ε) (E_γ(P‖Q) ≥ P(Ω) −
 *    γQ(Ω)).
 *    Directions (add, remove) combine by max.  Composition in the frequency
 *    domain is binary powering (§3b): T = 10^6 costs ~20 squarings per
 *    frequency and two transforms, whatever T.
 *
 * 5. Tilting (pld_tilt.c, where the argument is written out).  When ε lies
 *    well above the composed bulk (small δ, large T), each per-step array is
 *    replaced by p·e^{λℓ − L_i} (λ the Chernoff exponent of ε, or of the
 *    Chernoff estimate of ε(δ); L_i ≈ log M_i(λ)), which commutes with
 *    convolution: the composed array is z·e^{λℓ − A}, A = Σ T_i L_i, so
 *    δ = K(ε)·Σ g_ε(ℓ_m) z̃_m with g_ε(ℓ) = (1 − e^{ε−ℓ})e^{−λ(ℓ−ε)} ∈ [0, 1)
 *    and K(ε) = e^{A − λε}.  §1–4 hold for the tilted arrays as written, with
 *    the weights g_ε in (d)–(e), every tilted-unit term of hi and lo
 *    multiplied by K(ε) (rounded outward), the mass at +∞ and the opt slack
 *    untilted, opt's tilted atoms rounded down, the window tails weighted by K (and
 *    e^{λ(ε − top)} when the window ends below ε).  The rounding bound becomes relative
 *    to K, of the order of δ: double FFTs at any δ the doubles' range
 *    holds, a window a few tilted standard deviations wide around ε.
 *    ul_pld_options.tilt = UL_PLD_TILT_OFF runs the untilted engine.
 *
 * Grid policy (automatic).  A coarse first round (about 8192 points over the
 * composed spread); then h shrinks by the square root of the ratio of 95% of
 * the width wanted to the gap measured (both ends' gaps are ~ h²); the truncated
 * mass follows the bracket (2.5e-2·rel_width·max(lo, hi/10), at most 1e-6).
 * A grid whose FFT would exceed max_points is refused before any mass is
 * computed.  Every round's bracket is sound; the result is their
 * intersection, per direction (a direction whose hi is below the other's lo
 * cannot move max(δ_ADD, δ_REMOVE) and is not evaluated again).
 *
 * ε(δ) (drive_eps).  Each round composes each direction once; the crossing
 * of the CTD sum with δ is found in doubles on suffix sums of the composed
 * array (pess_model), one certified read there gives the budget on each
 * side, and each end is moved by its budget and certified once (a few
 * retries with twice the budget when the double model was optimistic).
 * eps_hi is an ε with a proven hi(ε) ≤ δ, eps_lo one with a proven
 * lo(ε) > δ; the grid is refined for the δ-width rel_width·eps_hi·|δ′(ε)|.
 *
 * Precision policy.  When the rounding bound exceeds a quarter of the width
 * asked for, the composition is redone in long double; if it
 * still does, the grid is refined only while it dominates the rounding bound
 * (so hi gets as low as it can), and the sound bracket is returned with
 * UL_ECAP and the reason.  The failure of prv_accountant issue #17
 * (microsoft/prv_accountant issue #17), a small δ printed below the rounding noise, cannot
 * happen here because the rounding bound is inside the bracket.
 */
#include "bounds/pld.h"

#include "num/domain.h"
#include "num/input.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bounds/pld_fft.h"
#include "bounds/pld_internal.h"
#include "num/deadline.h"
#include "num/progress.h"
#include "num/gauss_tail.h"

#define MAX_ROUNDS 10         /* evaluations of the automatic grid / precision loop */
#define MIN_FACTOR (1.0 / 32)  /* the most one round refines h by */
#define INITIAL_POINTS 32768.0 /* grid points of the first automatic round */
#define DEFAULT_TAIL 1e-30    /* truncated mass when not automatic */
#define MIN_TAIL 1e-320       /* the least automatic truncation: δ down to about 1e-300 (and
                                 the per-step tails a thousandth of that, still doubles) */

void ul_pld_options_default(ul_pld_options *opt)
{
    opt->grid_step = 0;
    opt->rel_width = 1e-3;
    opt->tail_bound = 0;
    opt->max_points = 1UL << 24;
    opt->fft = UL_PLD_FFT_AUTO;
    opt->adjacency = UL_PLD_ADD_REMOVE;
    opt->max_seconds = 0;
    opt->decide = NULL;
    opt->tilt = UL_PLD_TILT_AUTO;
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
        o->adjacency != UL_PLD_REMOVE && o->adjacency != UL_PLD_REPLACE)
        return ul_fail(err, errlen, UL_EINPUT, "adjacency: unknown choice %d",
                       (int)o->adjacency);
    if (o->tilt != UL_PLD_TILT_AUTO && o->tilt != UL_PLD_TILT_OFF)
        return ul_fail(err, errlen, UL_EINPUT, "tilt: unknown choice %d", (int)o->tilt);
    if (!(isfinite(o->max_seconds) && o->max_seconds >= 0))
        return ul_fail(err, errlen, UL_EINPUT,
                       "max-seconds: must be a finite number >= 0 (0: no limit; got %g)",
                       o->max_seconds);
    return UL_OK;
}

/* ---- mechanisms -------------------------------------------------------------- */





static void mech_clear(mech *m)
{
    mpfi_clear(m->r);
    mpfi_clear(m->neg_r);
    mpfi_clear(m->q);
    mpfi_clear(m->omq);
    mpfi_clear(m->half_r);
    mpfi_clear(m->half_r2);
}

static ul_status mech_finish(mech *m, unsigned long steps, bool replace, const char *prefix,
                             char *err, size_t errlen);

static void mech_init(mech *m)
{
    mpfi_init2(m->r, INPUT_PREC);
    mpfi_init2(m->neg_r, INPUT_PREC);
    mpfi_init2(m->q, INPUT_PREC);
    mpfi_init2(m->omq, INPUT_PREC);
    mpfi_init2(m->half_r, INPUT_PREC);
    mpfi_init2(m->half_r2, INPUT_PREC);
    m->dir = DIR_REMOVE;
    m->subsampled = false;
}

/* Reads and checks one mechanism; names are prefix + "r" etc. */
static ul_status mech_read(mech *m, const ul_pld_mechanism *in, bool replace, const char *prefix,
                           char *err, size_t errlen)
{
    char name[64];
    mech_init(m);
    snprintf(name, sizeof name, "%sr", prefix);
    ul_status st = ul_num_read_checked(m->r, name, in->r, "0", true, UL_PLD_MAX_R, false, err, errlen);
    if (st != UL_OK)
        return st;
    m->subsampled = in->q != NULL;
    if (m->subsampled) {
        snprintf(name, sizeof name, "%sq", prefix);
        st = ul_num_read_domain(m->q, &ul_domain_q_pos, name, in->q, err, errlen);
        if (st != UL_OK)
            return st;
    } else {
        mpfi_set_ui(m->q, 1);
    }
    return mech_finish(m, in->steps, replace, prefix, err, errlen);
}

/* Reads one phase (pld.h): r = Δ/σ enclosed, q (NULL: 1); names are
 * prefix + "sigma" etc. */
static ul_status phase_read(mech *m, const ul_pld_phase *in, bool replace, const char *prefix,
                            char *err, size_t errlen)
{
    char name[64];
    mech_init(m);
    mpfi_t delta;
    mpfi_init2(delta, INPUT_PREC);
    snprintf(name, sizeof name, "%ssigma", prefix);
    ul_status st = ul_num_read_checked(m->r, name, in->sigma, "0", true, "1e6", false, err,
                                       errlen);
    if (st == UL_OK) {
        snprintf(name, sizeof name, "%ssensitivity", prefix);
        st = ul_num_read_checked(delta, name, in->sensitivity ? in->sensitivity : "1", "0", true,
                                 "1e6", false, err, errlen);
    }
    if (st == UL_OK) {
        snprintf(name, sizeof name, "%sq", prefix);
        st = ul_num_read_domain(m->q, &ul_domain_q_pos, name, in->q ? in->q : "1", err, errlen);
    }
    if (st == UL_OK) {
        mpfi_div(m->r, delta, m->r); /* r = Δ/σ, an enclosure */
        m->subsampled = true;        /* q = 1 exactly goes to the Gaussian path (mech_finish) */
        /* UL_PLD_MAX_R, a limit kept for cost: a ratio too close to tell counts as inside */
        if (mpfr_cmp_ui(&m->r->left, 1000) > 0)
            st = ul_fail(err, errlen, UL_EINPUT,
                         "%ssigma: sensitivity/sigma must be at most %s (got %s/%s)", prefix,
                         UL_PLD_MAX_R, in->sensitivity ? in->sensitivity : "1", in->sigma);
    }
    mpfi_clear(delta);
    if (st != UL_OK)
        return st;
    return mech_finish(m, in->steps, replace, prefix, err, errlen);
}

/* The rest of mech_read once r and q are set: steps, the q = 1 path, the
 * derived enclosures. */
static ul_status mech_finish(mech *m, unsigned long steps, bool replace, const char *prefix,
                             char *err, size_t errlen)
{
    m->steps = steps;
    if (steps < 1 || steps > UL_PLD_MAX_STEPS)
        return ul_fail(err, errlen, UL_EINPUT, "%ssteps: must be between 1 and %lu (got %lu)",
                       prefix, UL_PLD_MAX_STEPS, steps);
    /* q = 1 exactly is the plain Gaussian (pld.h): the faster path */
    if (m->subsampled && mpfr_cmp_ui(&m->q->left, 1) == 0 && mpfr_cmp_ui(&m->q->right, 1) == 0)
        m->subsampled = false;
    if (replace && m->subsampled)
        return ul_fail(err, errlen, UL_EINPUT,
                       "adjacency: replace needs %sq = 1 (no proven dominating pair for the "
                       "Poisson-subsampled Gaussian under substitution; pld.h)",
                       prefix);
    if (replace) /* N(−Δ, σ²) vs N(Δ, σ²): the Gaussian with 2r (pld.h) */
        mpfi_mul_2ui(m->r, m->r, 1);
    mpfi_neg(m->neg_r, m->r);
    mpfi_ui_sub(m->omq, 1, m->q);
    mpfi_div_2ui(m->half_r, m->r, 1);
    mpfi_sqr(m->half_r2, m->r);
    mpfi_div_2ui(m->half_r2, m->half_r2, 1);
    m->rd = mpfi_get_d(m->r);
    m->qd = mpfi_get_d(m->q);
    return UL_OK;
}

/* ---- the driver: directions, automatic grid and precision ------------------------ */

/* A first grid step: about INITIAL_POINTS points over the wider of the
 * composed spread (±(z+1)σ√T, Gaussian approximation) and the widest
 * single-step range, and at most a quarter of a step's standard deviation
 * (at large T a coarser grid would not resolve one step's loss at all: its
 * CTD mass, its Chernoff exponent and the tilt chosen from them would be
 * the grid's, not the mechanism's). */
static double initial_step(mech *ms, size_t nm, double tau, unsigned long max_points)
{
    pld_spread sp = ul_pld_spread_d(ms, nm, tau);
    double z = ul_pld_z_of_tail(tau / 8) + 1;
    double width = fmax(2 * z * sqrt(sp.var), sp.range);
    double points = fmin(INITIAL_POINTS, (double)max_points / 8);
    double step_sd = sqrt(sp.var / sp.T);
    return fmin(width / points, step_sd > 0 ? 0.25 * step_sd : INFINITY);
}

typedef struct {
    mpfr_t lo, hi;
    double gap, tails, rounding; /* components of the direction on top */
    dir_result best;             /* the direction giving hi */
    direction best_dir;
} round_result;

/* Per-direction brackets, intersected over the rounds (each round's is
 * sound, so their intersection is).  A direction whose hi is below another
 * direction's lo cannot change max(δ_ADD, δ_REMOVE) nor its bracket
 * [max lo, max hi], so later rounds skip it (dir_skip). */
typedef struct {
    mpfr_t lo[2], hi[2]; /* indexed by direction */
    bool have[2];
} dir_brackets;

static void dir_brackets_init(dir_brackets *db)
{
    for (int i = 0; i < 2; i++) {
        mpfr_inits2(BUDGET_PREC, db->lo[i], db->hi[i], (mpfr_ptr)0);
        mpfr_set_zero(db->lo[i], 1);
        mpfr_set_ui(db->hi[i], 1, MPFR_RNDU);
        db->have[i] = false;
    }
}

static void dir_brackets_clear(dir_brackets *db)
{
    for (int i = 0; i < 2; i++)
        mpfr_clears(db->lo[i], db->hi[i], (mpfr_ptr)0);
}

static bool dir_skip(const dir_brackets *db, direction d)
{
    int o = d == DIR_ADD ? DIR_REMOVE : DIR_ADD;
    return db->have[d] && db->have[o] && mpfr_less_p(db->hi[d], db->lo[o]);
}

/* [max lo, max hi] over the directions asked. */
static void dir_combined(mpfr_ptr lo, mpfr_ptr hi, const dir_brackets *db, const direction *dirs,
                         size_t ndirs)
{
    mpfr_set_zero(lo, 1);
    mpfr_set_zero(hi, 1);
    for (size_t k = 0; k < ndirs; k++) {
        if (mpfr_greater_p(db->lo[dirs[k]], lo))
            mpfr_set(lo, db->lo[dirs[k]], MPFR_RNDD);
        if (mpfr_greater_p(db->hi[dirs[k]], hi))
            mpfr_set(hi, db->hi[dirs[k]], MPFR_RNDU);
    }
}

static void keep_best_into(dir_result *to, const dir_result *d)
{
    mpfr_set(to->lo, d->lo, MPFR_RNDD);
    mpfr_set(to->hi, d->hi, MPFR_RNDU);
    to->pess = d->pess;
    to->opt = d->opt;
    to->tails_hi = d->tails_hi;
    to->tails_lo = d->tails_lo;
    to->round_hi = d->round_hi;
    to->round_lo = d->round_lo;
    to->slack = d->slack;
    to->N = d->N;
    to->nmax = d->nmax;
    to->lambda = d->lambda;
}

static void keep_best(round_result *rr, const dir_result *d, direction dir)
{
    keep_best_into(&rr->best, d);
    rr->best_dir = dir;
}

/* One round at grid step h: each direction not skipped is evaluated and
 * intersected into db; rr gets the combined bracket and the components of
 * the evaluated direction with the largest hi (the one that limits the
 * width). */
static ul_status evaluate_round(mech *ms, size_t nm, const direction *dirs, size_t ndirs,
                                mpfi_srcptr eps, double h, double tau, const fft_format *f,
                                unsigned long max_points, bool tilt, dir_brackets *db,
                                round_result *rr, char *err, size_t errlen)
{
    ul_status st = UL_OK;
    bool any = false;
    rr->gap = rr->tails = rr->rounding = 0;
    bool skip[2] = {dir_skip(db, DIR_REMOVE), dir_skip(db, DIR_ADD)};
    for (size_t k = 0; k < ndirs && st == UL_OK; k++) {
        if (skip[dirs[k]])
            continue;
        dir_result d;
        mpfr_inits2(BUDGET_PREC, d.lo, d.hi, (mpfr_ptr)0);
        for (size_t i = 0; i < nm; i++)
            ms[i].dir = dirs[k];
        st = ul_pld_evaluate_direction(ms, nm, eps, h, tau, f, max_points, tilt, &d, err,
                                       errlen);
        if (st == UL_OK) {
            direction dk = dirs[k];
            if (!db->have[dk] || mpfr_greater_p(d.lo, db->lo[dk]))
                mpfr_set(db->lo[dk], d.lo, MPFR_RNDD);
            if (!db->have[dk] || mpfr_less_p(d.hi, db->hi[dk]))
                mpfr_set(db->hi[dk], d.hi, MPFR_RNDU);
            db->have[dk] = true;
            if (!any || mpfr_greater_p(d.hi, rr->best.hi))
                keep_best(rr, &d, dk);
            any = true;
        }
        mpfr_clears(d.lo, d.hi, (mpfr_ptr)0);
    }
    dir_combined(rr->lo, rr->hi, db, dirs, ndirs);
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
    rep->tilt = rr->best.lambda;
    rep->exact_gaussian = false;
}

/* The directions to evaluate: both for add/remove, one otherwise; the
 * Gaussian PLD is the same both ways (and under replace, with 2r). */
static size_t directions_of(const mech *ms, size_t nm, const ul_pld_options *o, direction *dirs)
{
    bool any_sub = false;
    for (size_t i = 0; i < nm; i++)
        any_sub = any_sub || ms[i].subsampled;
    size_t ndirs = 0;
    if (!any_sub || o->adjacency != UL_PLD_ADD)
        dirs[ndirs++] = DIR_REMOVE;
    if (any_sub && o->adjacency != UL_PLD_REMOVE && o->adjacency != UL_PLD_REPLACE)
        dirs[ndirs++] = DIR_ADD;
    return ndirs;
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Round-loop checks shared by both queries: the process deadline
 * (UL_ETIME) and the max_seconds knob (true in *stop, with the reason). */
static ul_status time_checks(const ul_pld_options *o, double t_start, double last_round,
                             double growth, bool *stop, char *why, size_t whylen, char *err,
                             size_t errlen)
{
    *stop = false;
    if (ul_deadline_passed())
        return ul_fail(err, errlen, UL_ETIME, "composing the privacy loss distributions");
    double elapsed = wall_seconds() - t_start;
    if (o->max_seconds > 0 && elapsed + last_round * growth > o->max_seconds) {
        *stop = true;
        snprintf(why, whylen,
                 "max-seconds (%g) reached: the next grid would take about %.2g s more; the "
                 "bracket is sound",
                 o->max_seconds, last_round * growth);
    }
    return UL_OK;
}

/* The grid of the next δ round. */
typedef struct {
    double h, tau;
    const fft_format *f;
    bool fixed, tau_auto;
} grid_state;

/* Decides the next round from this one (rr) and the bracket so far (width
 * wide, target tgt = rel_width·hi, hi and lo its ends): the same grid in long
 * double when the rounding bound dominates, a smaller truncation when the
 * tails do, else h by the h² law of the discretisation gap (§1).  false (reason set)
 * when nothing can narrow the bracket. */
static bool next_grid(grid_state *g, const round_result *rr, double tgt, double hi_d,
                      double width, double lo_d, const ul_pld_options *o, char *reason,
                      size_t rlen)
{
    double target_gap;
    char floor_reason[320];
    snprintf(floor_reason, sizeof floor_reason,
             "the FFT rounding bound (%.3g) exceeds the relative width asked (%g) at "
             "delta <= %.3g with %d-bit FFT arithmetic: delta <= hi is proven, but delta "
             "is below what FFT composition resolves here",
             rr->rounding, o->rel_width, hi_d, g->f->mant);
    bool at_floor = rr->rounding > 0.25 * tgt;
    if (at_floor) {
        if (!g->f->is_long && o->fft == UL_PLD_FFT_AUTO) {
            g->f = &ul_pld_format_long; /* same grid, long double */
            return true;
        }
        /* Precision exhausted: refine the grid only while it, not the
         * rounding, dominates the width, so hi gets as low as it can. */
        if (g->fixed || rr->gap <= 2 * rr->rounding + rr->tails) {
            snprintf(reason, rlen, "%s", floor_reason);
            return false;
        }
        target_gap = rr->rounding;
    } else {
        if (g->fixed) {
            snprintf(reason, rlen,
                     "grid-step %g is too coarse for the relative width asked (%g): the "
                     "bracket is sound but %.3g wide",
                     g->h, o->rel_width, width);
            return false;
        }
        if (rr->tails > 0.25 * tgt && g->tau_auto && g->tau > 1e3 * MIN_TAIL) {
            g->tau = fmax(MIN_TAIL, g->tau * 1e-30);
            return true;
        }
        target_gap = 0.95 * tgt - rr->rounding - rr->tails;
    }
    /* the gap between the composed pess and opt arrays is ~ T·h² (§1) */
    double factor = (target_gap > 0 && rr->gap > 0) ? sqrt(target_gap / rr->gap) : 1.0 / 32;
    factor = fmin(fmax(factor, MIN_FACTOR), 0.9);
    double h_new = g->h * factor;
    if ((double)rr->best.N / factor > (double)o->max_points) {
        h_new = g->h * (double)rr->best.N / (double)o->max_points;
        if (!(h_new < 0.95 * g->h)) {
            if (at_floor)
                snprintf(reason, rlen, "%s", floor_reason);
            else
                snprintf(reason, rlen,
                         "the relative width asked (%g) needs an FFT longer than max-points "
                         "(%lu); the bracket is sound but %.3g wide",
                         o->rel_width, o->max_points, width);
            return false;
        }
    }
    /* the truncated mass takes 2.5% of the width asked, rel_width·hi; hi
     * after a coarse round can be far above δ, so not less than lo, nor
     * than a tenth of hi (a choice: any truncation is accounted for) */
    double scale = fmax(lo_d, 0.1 * hi_d);
    if (g->tau_auto && scale > 0)
        g->tau = fmin(fmax(2.5e-2 * o->rel_width * scale, MIN_TAIL), 1e-6);
    g->h = h_new;
    return true;
}

/* Tells the thread's progress hook (num/progress.h) a round starts: the
 * count is the rounds done, the total unknown (the refinement stops when
 * the width is reached). */
static void round_report(int done, double h)
{
    char label[64];
    snprintf(label, sizeof label, "PLD round %d, grid step %.3g", done + 1, h);
    ul_progress_step(done, label);
}

/* opt->decide (pld.h) read exactly into x; *have false when there is none. */
static ul_status read_decide(mpfi_ptr x, bool *have, const ul_pld_options *o, char *err,
                             size_t errlen)
{
    *have = o->decide != NULL;
    if (!*have)
        return UL_OK;
    return ul_num_read_checked(x, "decide", o->decide, "-1e9", false, "1e9", false, err, errlen);
}

/* The width a round must reach to decide against threshold t (pld.h
 * decide), from the upper end u of the bracket so far: the upper end is the tight one
 * (the CTD sum is a dominating pair, §1; the opt array's deficit is several
 * times larger, pld_opt.c), so the truth is near u and the side is
 * known once l passes t: a width below u − t (80% of it), never less than
 * the width asked (`width`).  A choice of grid only: every bracket is
 * sound whatever is chosen. */
static double decide_width(double width, double u, double t)
{
    double need = 0.8 * (u - t);
    return isfinite(need) && need > width ? need : width;
}

/* True when [lo, hi] lies strictly on one side of the threshold x. */
static bool decided(mpfr_srcptr lo, mpfr_srcptr hi, mpfi_srcptr x)
{
    return mpfr_less_p(hi, &x->left) || mpfr_greater_p(lo, &x->right);
}

static ul_status drive(mech *ms, size_t nm, bool exact_ok, const char *eps_text,
                       const ul_pld_options *o, mpfr_ptr delta_lo, mpfr_ptr delta_hi, ul_pld_report *report, char *err,
                       size_t errlen)
{
    mpfi_t eps;
    mpfi_init2(eps, INPUT_PREC);
    mpfi_t threshold;
    mpfi_init2(threshold, INPUT_PREC);
    bool deciding;
    ul_status st = ul_num_read_domain(eps, &ul_domain_eps_pld, "eps", eps_text, err, errlen);
    if (st == UL_OK)
        st = read_decide(threshold, &deciding, o, err, errlen);
    bool exact = exact_ok && ul_pld_all_gaussian(ms, nm);
    if (st == UL_OK && exact)
        st = ul_pld_gauss_delta(ms, nm, eps, delta_lo, delta_hi, report);
    if (st != UL_OK || exact) {
        mpfi_clear(eps);
        mpfi_clear(threshold);
        return st;
    }

    direction dirs[2];
    size_t ndirs = directions_of(ms, nm, o, dirs);

    bool fixed = o->grid_step > 0, tau_auto = o->tail_bound == 0;
    double tau = tau_auto ? DEFAULT_TAIL : o->tail_bound;
    double h = fixed ? o->grid_step : initial_step(ms, nm, tau, o->max_points);
    const fft_format *f = o->fft == UL_PLD_FFT_LONG_DOUBLE ? &ul_pld_format_long : &ul_pld_format_double;

    round_result rr;
    mpfr_inits2(BUDGET_PREC, rr.lo, rr.hi, rr.best.lo, rr.best.hi, (mpfr_ptr)0);
    dir_brackets db;
    dir_brackets_init(&db);
    mpfr_t best_lo, best_hi, width, target;
    mpfr_inits2(BUDGET_PREC, best_lo, best_hi, width, target, (mpfr_ptr)0);
    mpfr_set_zero(best_lo, 1);
    mpfr_set_ui(best_hi, 1, MPFR_RNDU);
    bool have = false;
    char reason[640] = "";
    st = UL_ECAP;
    int rounds = 0;
    double t_start = wall_seconds(), last = 0, h_prev = h;
    for (; rounds < MAX_ROUNDS;) {
        bool stop;
        ul_status ts = time_checks(o, t_start, last, h_prev / h, &stop, reason, sizeof reason,
                                   err, errlen);
        if (ts != UL_OK) {
            st = ts;
            mpfr_set_zero(delta_lo, 1);
            mpfr_set_ui(delta_hi, 1, MPFR_RNDU);
            goto out;
        }
        if (stop && have)
            break;
        reason[0] = '\0';
        char rerr[256] = "";
        round_report(rounds, h);
        double t0 = wall_seconds();
        h_prev = h;
        ul_status rs = evaluate_round(ms, nm, dirs, ndirs, eps, h, tau, f, o->max_points,
                                      o->tilt == UL_PLD_TILT_AUTO, &db, &rr, rerr, sizeof rerr);
        last = wall_seconds() - t0;
        rounds++;
        if (rs == UL_ETIME) { /* inside the round: no result, as at its start */
            st = ul_fail(err, errlen, rs, "%s", rerr);
            mpfr_set_zero(delta_lo, 1);
            mpfr_set_ui(delta_hi, 1, MPFR_RNDU);
            goto out;
        }
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
        /* the report describes the round that gave delta_hi */
        if (!have || mpfr_less_p(rr.hi, best_hi))
            fill_report(report, &rr, h, tau, f, rounds);
        if (report != NULL)
            report->rounds = rounds;
        have = true;
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
        if (mpfr_lessequal_p(width, target) || (deciding && decided(best_lo, best_hi, threshold))) {
            st = UL_OK;
            break;
        }
        grid_state g = {h, tau, f, fixed, tau_auto};
        double tgt = mpfr_get_d(target, MPFR_RNDD);
        if (deciding)
            tgt = decide_width(tgt, mpfr_get_d(best_hi, MPFR_RNDU), mpfi_get_d(threshold));
        if (!next_grid(&g, &rr, tgt, mpfr_get_d(best_hi, MPFR_RNDU),
                       mpfr_get_d(width, MPFR_RNDU), mpfr_get_d(best_lo, MPFR_RNDD), o, reason,
                       sizeof reason))
            break;
        h = g.h;
        tau = g.tau;
        f = g.f;
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
    dir_brackets_clear(&db);
    mpfr_clears(rr.lo, rr.hi, rr.best.lo, rr.best.hi, (mpfr_ptr)0);
    mpfr_clears(best_lo, best_hi, width, target, (mpfr_ptr)0);
    mpfi_clear(eps);
    mpfi_clear(threshold);
    return st;
}

/* ---- ε(δ) (pld.h (b)): search in doubles, certify once per end -------------------- */

/* δ of the CTD sum as a function of ε, in doubles (choices only): over the
 * window positions j (loss ℓ_j = l0 + j·h), A_j = Σ_{i≥j} z_i and
 * B_j = Σ_{i≥j} z_i e^{ℓ_j − ℓ_i} (every factor ≤ 1: no overflow), so for
 * j0 the first position above ε, δ(ε) ≈ A_j0 − e^{ε − ℓ_j0}·B_j0 and
 * −dδ/dε = e^{ε − ℓ_j0}·B_j0. */
typedef struct {
    double *A, *B;
    size_t N;
    double l0, h;
    double unit; /* A and B are in units of this (tilted: e^{A − λℓ_c} at the window's
                    centre ℓ_c, so that δ near 1e-300 is not summed in subnormals) */
} pess_model;

static bool pess_model_init(pess_model *pm, const dir_state *S, double log_delta)
{
    size_t N = S->w.N;
    pm->N = N;
    pm->h = S->h;
    pm->l0 = (S->w.base + S->w.m_lo) * S->h;
    pm->A = malloc((N + 1) * sizeof *pm->A);
    pm->B = malloc((N + 1) * sizeof *pm->B);
    if (pm->A == NULL || pm->B == NULL)
        return false;
    double emh = exp(-S->h), scale = ldexp(1.0, -S->c.scale);
    /* tilted (§5): z̃·e^{−λ(ℓ_j − ℓ_c)} in units e^{A − λℓ_c} = δ, ℓ_c the
     * Chernoff estimate of ε(δ), the factor carried down by e^{λh} within
     * blocks of 256 from an exp at each block's top (a model: clamped to
     * what the real mass 1 allows) */
    double a = mpfi_get_d(S->A), lc = S->lambda > 0 ? (a - log_delta) / S->lambda : 0;
    pm->unit = S->lambda > 0 ? exp(fmax(log_delta, -700)) : 1;
    double cap = S->lambda > 0 ? fmin(1 / pm->unit, 1e300) : 1;
    double grow = exp(S->lambda * S->h), f = 0;
    pm->A[N] = pm->B[N] = 0;
    for (size_t j = N; j-- > 0;) {
        double z = (double)ul_pld_composed_at(&S->c, &S->w, S->w.m_lo + (double)j) * scale;
        if (S->lambda > 0) {
            if ((N - 1 - j) % 256 == 0)
                f = exp(fmin(690, -S->lambda * (pm->l0 + (double)j * pm->h - lc)));
            z = fmin(cap, fmax(0, z) * f);
            f *= grow;
        }
        pm->A[j] = pm->A[j + 1] + z;
        pm->B[j] = z + emh * pm->B[j + 1];
    }
    return true;
}

static void pess_model_free(pess_model *pm)
{
    free(pm->A);
    free(pm->B);
}

static size_t model_index(const pess_model *pm, double eps)
{
    double j = floor((eps - pm->l0) / pm->h) + 1;
    if (!(j > 0))
        return 0;
    return j >= (double)pm->N ? pm->N : (size_t)j;
}

/* δ of the model at ε in its units (model_root), and in real units. */
static double model_delta_units(const pess_model *pm, double eps)
{
    size_t j = model_index(pm, eps);
    if (j >= pm->N)
        return 0;
    return pm->A[j] - exp(fmin(0, eps - (pm->l0 + (double)j * pm->h))) * pm->B[j];
}

static double model_delta(const pess_model *pm, double eps)
{
    return model_delta_units(pm, eps) * pm->unit;
}

static double model_slope(const pess_model *pm, double eps)
{
    size_t j = model_index(pm, eps);
    if (j >= pm->N)
        return 0;
    return exp(fmin(0, eps - (pm->l0 + (double)j * pm->h))) * pm->B[j] * pm->unit;
}

/* The ε ≥ 0 where model_delta(ε) + c crosses target (bisection; the model
 * is nonincreasing): 0 when it is below target at 0, +∞ when it never is
 * within the window and ε ≤ 1000. */
static double model_root(const pess_model *pm, double c, double target)
{
    double a = 0, b = fmin(pm->l0 + (double)pm->N * pm->h, 1000);
    c /= pm->unit, target /= pm->unit; /* compared in the model's units */
    if (model_delta_units(pm, a) + c <= target)
        return 0;
    if (!(b > 0) || model_delta_units(pm, b) + c > target)
        return INFINITY;
    for (int i = 0; i < 200 && b - a > 1e-15 * fmax(1, b); i++) {
        double mid = 0.5 * (a + b);
        if (model_delta_units(pm, mid) + c > target)
            a = mid;
        else
            b = mid;
    }
    return b;
}

/* What one direction gives at one grid: its ε bracket and, for the grid
 * choice, the slope and the δ-budget near the crossing. */
typedef struct {
    double eps_lo, eps_hi;
    double slope, gap, tails, rounding;
    dir_result res; /* the read at the crossing (report) */
} eps_dir;

/* hi(ε) ≤ δ_lo (the lower end of δ's enclosure) certified at the double ε. */
static bool certify_hi(dir_state *S, double eps, mpfr_srcptr delta_lo, dir_result *r)
{
    mpfr_t e;
    mpfr_init2(e, 64);
    mpfr_set_d(e, eps, MPFR_RNDN); /* exact */
    ul_pld_dir_read(S, e, e, r, true, false);
    mpfr_clear(e);
    return !S->late && mpfr_lessequal_p(r->hi, delta_lo);
}

/* lo(ε) > δ_hi certified at the double ε. */
static bool certify_lo(dir_state *S, double eps, mpfr_srcptr delta_hi, dir_result *r)
{
    mpfr_t e;
    mpfr_init2(e, 64);
    mpfr_set_d(e, eps, MPFR_RNDN);
    ul_pld_dir_read(S, e, e, r, false, true);
    mpfr_clear(e);
    return !S->late && mpfr_greater_p(r->lo, delta_hi);
}

#define EPS_TRIES 8 /* certifications per end before giving up on that end */

/* The ε bracket of one built direction: the crossing of the CTD sum in
 * doubles, one certified read there for the budget on each side, then each
 * end moved by its budget and certified (retried with twice the budget if
 * the double model was optimistic).  eps_lo stays 0 and eps_hi +∞ when not
 * certified. */
static void eps_direction(dir_state *S, const pess_model *pm, mpfi_srcptr delta, eps_dir *out)
{
    double dd = mpfi_get_d(delta);
    dir_result r;
    mpfr_inits2(BUDGET_PREC, r.lo, r.hi, (mpfr_ptr)0);
    double e0 = model_root(pm, 0, dd);
    double at = isfinite(e0) ? e0 : fmin(pm->l0 + (double)pm->N * pm->h, 1000);
    mpfr_t e;
    mpfr_init2(e, 64);
    mpfr_set_d(e, fmax(at, 0), MPFR_RNDN);
    ul_pld_dir_read(S, e, e, &out->res, true, true);
    mpfr_clear(e);
    double p0 = model_delta(pm, fmax(at, 0));
    double ex_hi = fmax(0, mpfr_get_d(out->res.hi, MPFR_RNDU) - p0);
    double ex_lo = fmax(0, p0 - mpfr_get_d(out->res.lo, MPFR_RNDD));
    out->slope = model_slope(pm, fmax(at, 0));
    out->gap = out->res.pess - out->res.opt;
    out->tails = out->res.tails_hi + out->res.tails_lo;
    out->rounding = out->res.round_hi + out->res.round_lo;
    out->eps_hi = INFINITY;
    out->eps_lo = 0;
    double c = 1.05 * ex_hi + 1e-12 * dd; /* a start above 0, small beside δ */
    for (int t = 0; t < EPS_TRIES && !S->late; t++, c *= 2) {
        double x = model_root(pm, c, dd);
        if (!isfinite(x))
            break;
        if (certify_hi(S, x, &delta->left, &r)) {
            out->eps_hi = x;
            break;
        }
    }
    c = 1.05 * ex_lo + 1e-12 * dd;
    double cap = fmin(pm->l0 + (double)pm->N * pm->h, 1000);
    for (int t = 0; t < EPS_TRIES && !S->late; t++, c *= 2) {
        double x = model_root(pm, -c, dd);
        if (!isfinite(x))
            x = cap; /* δ(ε) > δ up to the cap, in the model: certify there */
        if (!(x > 0))
            break;
        if (certify_lo(S, x, &delta->right, &r)) {
            out->eps_lo = x;
            break;
        }
    }
    mpfr_clears(r.lo, r.hi, (mpfr_ptr)0);
}

/* One round of the ε query at grid step h: every direction not skipped is
 * built, searched and certified; db keeps the per-direction ε brackets
 * (lo: max over rounds, hi: min), top the direction with the largest eps_hi
 * this round.  false in *any when nothing was evaluated. */
static ul_status eps_round(mech *ms, size_t nm, const direction *dirs, size_t ndirs,
                           mpfi_srcptr delta, double h, double tau, const fft_format *f,
                           unsigned long max_points, bool tilt, dir_brackets *db, eps_dir *top,
                           direction *top_dir, char *err, size_t errlen)
{
    ul_status st = UL_OK;
    bool any = false, skip[2] = {dir_skip(db, DIR_REMOVE), dir_skip(db, DIR_ADD)};
    for (size_t k = 0; k < ndirs && st == UL_OK; k++) {
        direction dk = dirs[k];
        if (skip[dk])
            continue;
        for (size_t i = 0; i < nm; i++)
            ms[i].dir = dk;
        dir_state S;
        eps_dir ed;
        mpfr_inits2(BUDGET_PREC, ed.res.lo, ed.res.hi, (mpfr_ptr)0);
        tilt_choice tc = {tilt ? TILT_EPS : TILT_NONE, mpfi_get_d(delta), 0, 0};
        st = ul_pld_dir_build(&S, ms, nm, h, tau, f, max_points, &tc, &ed.res, err, errlen);
        pess_model pm = {NULL, NULL, 0, 0, 0, 1};
        if (st == UL_OK && !pess_model_init(&pm, &S, log(mpfi_get_d(delta))))
            st = ul_fail(err, errlen, UL_EINPUT, "grid-step: %g: out of memory", h);
        if (st == UL_OK)
            eps_direction(&S, &pm, delta, &ed);
        if (st == UL_OK && S.late)
            st = ul_pld_time_out(err, errlen, "searching eps", S.w.N);
        if (st == UL_OK) {
            if (!db->have[dk] || ed.eps_lo > mpfr_get_d(db->lo[dk], MPFR_RNDN))
                mpfr_set_d(db->lo[dk], ed.eps_lo, MPFR_RNDD);
            if (!db->have[dk] || ed.eps_hi < mpfr_get_d(db->hi[dk], MPFR_RNDN))
                mpfr_set_d(db->hi[dk], ed.eps_hi, MPFR_RNDU);
            db->have[dk] = true;
            if (!any || ed.eps_hi > top->eps_hi ||
                (ed.eps_hi == top->eps_hi && ed.eps_lo > top->eps_lo)) {
                top->eps_lo = ed.eps_lo;
                top->eps_hi = ed.eps_hi;
                top->slope = ed.slope;
                top->gap = ed.gap;
                top->tails = ed.tails;
                top->rounding = ed.rounding;
                keep_best_into(&top->res, &ed.res);
                *top_dir = dk;
            }
            any = true;
        }
        pess_model_free(&pm);
        ul_pld_dir_free(&S);
        mpfr_clears(ed.res.lo, ed.res.hi, (mpfr_ptr)0);
    }
    return st;
}

/* The ε query's grid step for the next round (the h² law of drive, aimed
 * at the δ-width that the ε width asked allows: target_eps·slope), or 0
 * when the grid cannot be refined (why says so). */
static double eps_next_step(const eps_dir *top, double h, double target_eps,
                            const ul_pld_options *o, double *tau, char *why, size_t whylen)
{
    double dwidth = target_eps * top->slope;
    double target_gap = 0.9 * dwidth - top->rounding - top->tails;
    double factor = (target_gap > 0 && top->gap > 0) ? sqrt(target_gap / top->gap) : 1.0 / 32;
    factor = fmin(fmax(factor, MIN_FACTOR), 0.9);
    if ((double)top->res.N / factor > (double)o->max_points) {
        double h_new = h * (double)top->res.N / (double)o->max_points;
        if (!(h_new < 0.95 * h)) {
            snprintf(why, whylen,
                     "the relative width asked (%g) needs an FFT longer than max-points (%lu); "
                     "the bracket is sound",
                     o->rel_width, o->max_points);
            return 0;
        }
        factor = h_new / h;
    }
    if (dwidth > 0)
        *tau = fmin(fmax(2.5e-2 * dwidth, MIN_TAIL), 1e-6);
    return h * factor;
}

/* Decides the next ε round (like next_grid): with no ε certified yet
 * (u = +∞) only a smaller truncation or long double can help, else the end
 * is beyond the ε range or δ below what the FFT resolves; otherwise the
 * precision, the truncation, then the grid by eps_next_step.  false (why
 * set) when nothing can narrow the bracket. */
static bool eps_next(grid_state *g, const eps_dir *top, double u, double dd,
                     const ul_pld_options *o, char *why, size_t whylen)
{
    bool can_long = !g->f->is_long && o->fft == UL_PLD_FFT_AUTO;
    double dwidth = isfinite(u) ? o->rel_width * u * top->slope : 0.25 * dd;
    if (top->rounding > 0.25 * dwidth && can_long) {
        g->f = &ul_pld_format_long; /* same grid, long double */
        return true;
    }
    if (top->tails > 0.25 * dwidth && g->tau_auto && g->tau > 1e3 * MIN_TAIL) {
        g->tau = fmax(MIN_TAIL, fmin(g->tau * 1e-10, 2.5e-2 * dwidth));
        return true;
    }
    if (!isfinite(u)) {
        if (top->rounding > 0.25 * dd)
            snprintf(why, whylen,
                     "delta (%g) is below what FFT composition resolves here (rounding bound "
                     "%.3g with %d-bit arithmetic): no eps is certified",
                     dd, top->rounding, g->f->mant);
        else
            snprintf(why, whylen,
                     "no eps <= %s is certified at this delta (eps is larger, or delta is "
                     "within the truncated tails)",
                     UL_PLD_MAX_ABS_EPS);
        return false;
    }
    if (top->rounding > 0.25 * dwidth && top->gap <= 2 * top->rounding + top->tails) {
        /* precision exhausted and the grid no longer dominates (next_grid) */
        snprintf(why, whylen,
                 "the FFT rounding bound (%.3g, %d-bit arithmetic) exceeds the delta-width the "
                 "relative width asked (%g) allows: the bracket is sound but wider",
                 top->rounding, g->f->mant, o->rel_width);
        return false;
    }
    if (g->fixed) {
        snprintf(why, whylen,
                 "grid-step %g is too coarse for the relative width asked (%g); the bracket is "
                 "sound",
                 g->h, o->rel_width);
        return false;
    }
    double tau = g->tau;
    double h_new = eps_next_step(top, g->h, o->rel_width * u, o, &tau, why, whylen);
    if (!(h_new > 0))
        return false;
    if (g->tau_auto)
        g->tau = tau;
    g->h = h_new;
    return true;
}

static void fill_report_eps(ul_pld_report *rep, const eps_dir *top, direction dir, double h,
                            double tau, const fft_format *f, int rounds)
{
    if (rep == NULL)
        return;
    round_result rr;
    rr.best = top->res;
    rr.best_dir = dir;
    fill_report(rep, &rr, h, tau, f, rounds);
}

/* ε(δ) (pld.h (b)).  Rounds like drive: the grid is refined until
 * eps_hi − eps_lo ≤ rel_width·eps_hi; every round's bracket is sound, the
 * result their intersection per direction, combined by max. */
static ul_status drive_eps(mech *ms, size_t nm, bool exact_ok, const char *delta_text,
                           const ul_pld_options *o,
                           mpfr_ptr eps_lo, mpfr_ptr eps_hi, ul_pld_report *report, char *err,
                           size_t errlen)
{
    double t_start = wall_seconds();
    mpfi_t delta;
    mpfi_init2(delta, INPUT_PREC);
    mpfi_t threshold;
    mpfi_init2(threshold, INPUT_PREC);
    bool deciding;
    ul_status st = ul_num_read_domain(delta, &ul_domain_delta, "delta", delta_text, err, errlen);
    if (st == UL_OK)
        st = read_decide(threshold, &deciding, o, err, errlen);
    bool exact = exact_ok && ul_pld_all_gaussian(ms, nm);
    if (st == UL_OK && exact)
        st = ul_pld_gauss_eps(ms, nm, delta, o->rel_width, eps_lo, eps_hi, report, err, errlen);
    if (st != UL_OK || exact) {
        mpfi_clear(delta);
        mpfi_clear(threshold);
        return st;
    }
    direction dirs[2];
    size_t ndirs = directions_of(ms, nm, o, dirs);
    bool fixed = o->grid_step > 0;
    /* the truncated mass enters hi whole: keep it well below δ·rel_width */
    double tau = o->tail_bound != 0 ? o->tail_bound
                                    : fmin(DEFAULT_TAIL, fmax(MIN_TAIL, 2.5e-2 * o->rel_width *
                                                                          mpfi_get_d(delta)));
    double h = fixed ? o->grid_step : initial_step(ms, nm, tau, o->max_points);
    const fft_format *f = o->fft == UL_PLD_FFT_LONG_DOUBLE ? &ul_pld_format_long : &ul_pld_format_double;
    dir_brackets db;
    dir_brackets_init(&db);
    eps_dir top;
    mpfr_inits2(BUDGET_PREC, top.res.lo, top.res.hi, (mpfr_ptr)0);
    direction top_dir = DIR_REMOVE;
    mpfr_t lo, hi;
    mpfr_inits2(BUDGET_PREC, lo, hi, (mpfr_ptr)0);
    char why[400] = "";
    bool have = false, done = false;
    int rounds = 0;
    double last = 0, growth = 1;
    st = UL_ECAP;
    while (rounds < MAX_ROUNDS && !done) {
        bool stop;
        ul_status ts = time_checks(o, t_start, last, growth, &stop, why, sizeof why, err, errlen);
        if (ts != UL_OK || (stop && have)) {
            st = ts != UL_OK ? ts : UL_ECAP;
            break;
        }
        round_report(rounds, h);
        double t0 = wall_seconds();
        char rerr[256] = "";
        ul_status rs = eps_round(ms, nm, dirs, ndirs, delta, h, tau, f, o->max_points,
                                 o->tilt == UL_PLD_TILT_AUTO, &db, &top, &top_dir, rerr,
                                 sizeof rerr);
        rounds++;
        last = wall_seconds() - t0;
        if (rs != UL_OK) {
            if (!have || rs == UL_ETIME) {
                st = ul_fail(err, errlen, rs, "%s", rerr);
                break;
            }
            snprintf(why, sizeof why, "a finer grid was refused (%s); the bracket is sound",
                     rerr);
            break;
        }
        have = true;
        fill_report_eps(report, &top, top_dir, h, tau, f, rounds);
        dir_combined(lo, hi, &db, dirs, ndirs);
        double l = mpfr_get_d(lo, MPFR_RNDD), u = mpfr_get_d(hi, MPFR_RNDU);
        if ((isfinite(u) && u - l <= o->rel_width * u) || (deciding && decided(lo, hi, threshold))) {
            st = UL_OK;
            break;
        }
        grid_state g = {h, tau, f, fixed, o->tail_bound == 0};
        ul_pld_options step = *o; /* deciding: the width that tells the side */
        if (deciding && isfinite(u) && u > 0)
            step.rel_width = decide_width(o->rel_width * u, u, mpfi_get_d(threshold)) / u;
        done = !eps_next(&g, &top, u, mpfi_get_d(delta), &step, why, sizeof why);
        growth = h / g.h;
        h = g.h;
        tau = g.tau;
        f = g.f;
    }
    if (have && st != UL_ETIME) {
        if (st == UL_ECAP)
            ul_fail(err, errlen, UL_ECAP, "%s",
                    why[0] ? why : "the relative width asked was not reached; the bracket is sound");
        mpfr_set(eps_lo, lo, MPFR_RNDD);
        mpfr_set(eps_hi, hi, MPFR_RNDU);
    } else if (st == UL_ETIME) {
        mpfr_set_zero(eps_lo, 1);
        mpfr_set_inf(eps_hi, 1);
    }
    dir_brackets_clear(&db);
    mpfr_clears(top.res.lo, top.res.hi, lo, hi, (mpfr_ptr)0);
    mpfi_clear(delta);
    mpfi_clear(threshold);
    return st;
}

/* ---- public entries ------------------------------------------------------------------ */

/* Reads the list (mechanisms by r, or phases by σ and Δ) into ms; *nread
 * says how many entries need mech_clear. */
static ul_status read_list(mech *ms, const ul_pld_mechanism *mechs, const ul_pld_phase *phases,
                           size_t count, bool replace, size_t *nread, char *err, size_t errlen)
{
    ul_status st = UL_OK;
    unsigned long total = 0;
    *nread = 0;
    for (size_t i = 0; i < count && st == UL_OK; i++) {
        char prefix[40] = "";
        if (phases != NULL)
            snprintf(prefix, sizeof prefix, "phase[%zu].", i);
        else if (count > 1)
            snprintf(prefix, sizeof prefix, "mechanism[%zu].", i);
        st = phases != NULL ? phase_read(&ms[i], &phases[i], replace, prefix, err, errlen)
                            : mech_read(&ms[i], &mechs[i], replace, prefix, err, errlen);
        (*nread)++;
        if (st == UL_OK) {
            total += ms[i].steps;
            if (total > UL_PLD_MAX_STEPS)
                st = ul_fail(err, errlen, UL_EINPUT,
                             "steps: the total number of steps must be at most %lu",
                             UL_PLD_MAX_STEPS);
        }
    }
    return st;
}

typedef enum { QUERY_DELTA, QUERY_EPS } query_kind;

/* The common entry: options, the list, then the query (δ at ε, or ε at δ). */
static ul_status entry(const ul_pld_mechanism *mechs, const ul_pld_phase *phases, size_t count,
                       query_kind kind, const char *arg, const ul_pld_options *opt, mpfr_ptr lo,
                       mpfr_ptr hi, ul_pld_report *report, char *err, size_t errlen)
{
    ul_num_init();
    ul_pld_options defaults;
    ul_pld_options_default(&defaults);
    const ul_pld_options *o = opt != NULL ? opt : &defaults;
    ul_status st = check_options(o, err, errlen);
    if (st != UL_OK)
        return st;
    const char *what = phases != NULL ? "phases" : "mechanisms";
    if ((mechs == NULL && phases == NULL) || count < 1 || count > UL_PLD_MAX_MECHANISMS)
        return ul_fail(err, errlen, UL_EINPUT, "%s: need between 1 and %d (got %zu)", what,
                       UL_PLD_MAX_MECHANISMS, (mechs == NULL && phases == NULL) ? (size_t)0 : count);
    mech *ms = calloc(count, sizeof *ms);
    if (ms == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "%s: out of memory", what);
    size_t nread = 0;
    int task = ul_progress_begin("PLD accountant", -1);
    st = read_list(ms, mechs, phases, count, o->adjacency == UL_PLD_REPLACE, &nread, err, errlen);
    if (st == UL_OK && kind == QUERY_DELTA)
        st = drive(ms, count, phases != NULL, arg, o, lo, hi, report, err, errlen);
    else if (st == UL_OK)
        st = drive_eps(ms, count, phases != NULL, arg, o, lo, hi, report, err, errlen);
    ul_progress_end(task);
    for (size_t i = 0; i < nread; i++)
        mech_clear(&ms[i]);
    free(ms);
    ul_pld_fft_release(); /* the twiddle cache lives for one call (its rounds) */
    return st;
}

ul_status ul_pld_compose(const ul_pld_mechanism *mechanisms, size_t count, const char *eps,
                         const ul_pld_options *opt, mpfr_ptr delta_lo, mpfr_ptr delta_hi,
                         ul_pld_report *report, char *err, size_t errlen)
{
    return entry(mechanisms, NULL, count, QUERY_DELTA, eps, opt, delta_lo, delta_hi, report, err,
                 errlen);
}

ul_status ul_pld_delta(const ul_pld_phase *phases, size_t count, const char *eps,
                       const ul_pld_options *opt, mpfr_ptr delta_lo, mpfr_ptr delta_hi,
                       ul_pld_report *report, char *err, size_t errlen)
{
    return entry(NULL, phases, count, QUERY_DELTA, eps, opt, delta_lo, delta_hi, report, err,
                 errlen);
}

ul_status ul_pld_epsilon(const ul_pld_phase *phases, size_t count, const char *delta,
                         const ul_pld_options *opt, mpfr_ptr eps_lo, mpfr_ptr eps_hi,
                         ul_pld_report *report, char *err, size_t errlen)
{
    return entry(NULL, phases, count, QUERY_EPS, delta, opt, eps_lo, eps_hi, report, err, errlen);
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
