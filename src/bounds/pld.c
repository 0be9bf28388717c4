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
 *    Lower bound (ours).  On B^c, f_ε(S_A) − f_ε(S) = e^ε y(1 − Z) + φ(yZ) − φ(y);
 *    the subgradient φ′(y) = e^ε·1{e^ε y > 1}, E[φ′(y)(yZ − y) | L's] = 0 and
 *    the remainder R = φ(yZ) − φ(y) − φ′(y)(yZ − y) is 0 unless S and S_A lie
 *    on opposite sides of ε, when |S − ε| ≤ |W| and R ≤ e^ε y|Z − 1| ≤
 *    G(|W|) = e^{|W|}(e^{|W|} − 1).  Given the L's (on B^c), D_t lies in an interval
 *    of length h and 0 ≤ E[D_t | L_t] ≤ h²e^h/2 (from E e^{−D_t} = 1 and
 *    e^{−d} ≤ 1 − d + d²e^{|d|}/2), so Hoeffding (1963, Thm 2) gives
 *    P[|W| ≥ s] ≤ p(s) := min(1, 2 exp(−(s − μ)²/(2v))) for s ≥ μ,
 *    μ = T h² e^h/2, v = T h²/4.  Given the L's, with d = |S − ε|,
 *    E[R | L's] ≤ E[G(|W|)·1{|W| ≥ d}] ≤ Ψ(d), G(s) = e^s(e^s − 1), where
 *    (layer cake, G′ ≤ 2e^{2s}, completing the square; s′ = max(d, s₀),
 *    any s₀ ≥ μ)
 *      Ψ(d) = G(d)p(d) + e^{2s′} − e^{2d} + 4e^{2μ+2v}√(2πv)·Q((s′ − μ − 2v)/√v),
 *    a decreasing function.  With bands d_i = i·√v/4 and V_i ≥ Ψ(d_i)
 *    nonincreasing, Abel summation gives
 *      E[R; B^c] ≤ V_J + Σ_{i<J} (V_i − V_{i+1})·P[d < d_{i+1}; B^c],
 *    and P[d < d_{i+1}; B^c] ≤ P[|S_A − ε| ≤ d_{i+1} + y] + p(y) for any y,
 *    read off the composed array itself (nested_masses; y chosen in
 *    doubles).  So δ ≥ E[f_ε(S_A); B^c] − E[R; B^c] (f_ε ≥ 0 on B), and
 *    E[f_ε(S_A); B^c] is the composition of the atoms split from in-grid
 *    bins alone.  This excess is ~ T·h²·(density of S at ε): second order in
 *    h, where rounding every loss up or down to the grid (the previous
 *    engine) leaves a gap ~ T·h.
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
 *    and clamped to [0, P_k] (the true a_k, b_k are there).  Each atom is stored as the upper end of its enclosure
 *    rounded up to a double (mpfr_get_d, MPFR_RNDU); since f_ε ≥ 0 and
 *    convolving nonnegative sequences is monotone, that only raises the upper
 *    bound.  For the lower one, the composition F(w) of the exact in-grid
 *    atoms w is bounded through the stored arrays w′: with a = (1 − ρ₀)w′
 *    (ρ₀ = RHO0 = 2^-48, above the relative width of the enclosures at the
 *    precision chosen) and b = min(a, w), F(w) ≥ F(b) ≥ F(a) − (Π(Σa_i)^{T_i}
 *    − Π(Σb_i)^{T_i}) ≥ (1 − ρ₀)^T·F(w′) − M^{T−1}·Σ_i T_i·E_i, E_i =
 *    Σ_k max(0, a_k − (lower end of w_k)) (f_ε ≤ 1; F homogeneous; §3b's
 *    telescoping): a relative T·ρ₀ plus the absolute mass of the atoms whose
 *    enclosures are wider than ρ₀ (mass_excess).  The mass at +∞ after
 *    composition is 1 − Π_i (1 − p∞_i)^{T_i}.
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
 *    above ε) is added; for the lower end the whole outside mass is
 *    subtracted (f ≤ 1).  One array, hence one certification, serves both.
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
 *        (the previous FFTW-based engine assumed one).  Real data are
 *        transformed as complex vectors with zero imaginary part.
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
 *    +∞ + the window tails (§2), capped at 1; lo = (1 − ρ₀)^T·(Σ w ẑ at ε's
 *    upper end − (e) − √K·E2 − the outside mass) − M^{T−1}ΣT_iE_i − the CTD
 *    excess bound (§1), and at least max(0, 1 − e^ε) (E_γ(P‖Q) ≥ P(Ω) − γQ(Ω)).
 *    Directions (add, remove) combine by max.  Composition in the frequency
 *    domain is binary powering (§3b): T = 10^6 costs ~20 squarings per
 *    frequency and two transforms, whatever T.
 *
 * Grid policy (automatic).  A coarse first round (about 8192 points over the
 * composed spread); then h shrinks by the square root of the ratio of 95% of
 * the width wanted to the gap measured (the CTD excess is ~ h²); the truncated
 * mass follows the bracket (2.5e-2·rel_width·lo).  A grid whose FFT would
 * exceed max_points is refused before any mass is computed.  Every round's
 * bracket is sound; the result is their intersection.
 *
 * Precision policy.  When the rounding bound exceeds a quarter of the width
 * asked for, the composition is redone in long double; if it
 * still does, the grid is refined only while it dominates the rounding bound
 * (so hi gets as low as it can), and the sound bracket is returned with
 * UL_ECAP and the reason.  The failure of prv_accountant issue #17
 * (spec/anchors.md §1.3), a small δ printed below the rounding noise, cannot
 * happen here because the rounding bound is inside the bracket.
 */
#include "bounds/pld.h"

#include "num/input.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bounds/pld_fft.h"
#include "num/deadline.h"
#include "num/gauss_tail.h"

#define SUM_BLOCK 256         /* B of §3(e) */
#define LAMBDA_COUNT 49       /* Chernoff exponents tried: 2^((j−24)/2)/σ */
#define MAX_ROUNDS 10         /* evaluations of the automatic grid / precision loop */
#define MIN_FACTOR (1.0 / 32)  /* the most one round refines h by */
#define INPUT_PREC 128        /* precision of the input enclosures */
#define BUDGET_PREC 128       /* precision of the budget arithmetic */
#define INITIAL_POINTS 8192.0 /* grid points of the first automatic round */
#define DEFAULT_TAIL 1e-30    /* truncated mass when not automatic */
#define RHO0 0x1p-48          /* relative slack of a stored atom charged multiplicatively (§1) */
#define MAX_EXACT_INDEX 4503599627370496.0 /* 2^52: grid indices stay exact doubles */

void ul_pld_options_default(ul_pld_options *opt)
{
    opt->grid_step = 0;
    opt->rel_width = 1e-3;
    opt->tail_bound = 0;
    opt->max_points = 1UL << 24;
    opt->fft = UL_PLD_FFT_AUTO;
    opt->adjacency = UL_PLD_ADD_REMOVE;
    opt->max_seconds = 0;
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
    if (!(isfinite(o->max_seconds) && o->max_seconds >= 0))
        return ul_fail(err, errlen, UL_EINPUT,
                       "max-seconds: must be a finite number >= 0 (0: no limit; got %g)",
                       o->max_seconds);
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
    mpfi_t r, neg_r, q, omq, half_r, half_r2; /* r, −r, q, 1 − q, r/2, r²/2 */
    double rd, qd;
} mech;

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
        st = ul_num_read_checked(m->q, name, in->q, "0", true, "1", false, err, errlen);
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
        st = ul_num_read_checked(m->q, name, in->q ? in->q : "1", "0", true, "1", false, err,
                                 errlen);
    }
    if (st == UL_OK) {
        mpfi_div(m->r, delta, m->r); /* r = Δ/σ, an enclosure */
        m->subsampled = true;        /* q = 1 exactly goes to the Gaussian path (mech_finish) */
        if (mpfr_cmp_ui(&m->r->right, 1000) > 0) /* UL_PLD_MAX_R */
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
        /* P[L > ℓ(x)] = (1−q)Q(x) + qQ(x − r) ≤ tau when Q(x) ≤ tau/2 and
         * Q(x − r) ≤ tau/(2q) (a choice: the mass above the grid is bounded
         * in MPFI by discretise, whatever the range) */
        double z2 = z_of_tail(tau / 2), zq = z_of_tail(fmin(0.5, tau / (2 * m->qd)));
        *lo = lrem_d(m, -z);
        *hi = lrem_d(m, fmax(z2, r + zq));
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

/* One discretised per-step PLD.  pess[k] sits at the loss (k_lo + k)·h. */
typedef struct {
    double k_lo; /* an integer, |k_lo| < 2^52 */
    size_t n;
    double *pess;
    unsigned long steps;
    mpfr_t p_inf;              /* ≥ P[L > ℓ_top], the pessimistic mass at +∞ */
    mpfr_t slack;              /* ≥ Σ widths of the mass enclosures (informative) */
    mpfr_t sum_pess;           /* ≥ Σ pess */
    mpfr_t excess;             /* ≥ Σ_k max(0, (1 − RHO0)·pess[k] − w_k), w_k the exact atom
                                  split from bins inside the grid (§1) */
    mpfr_t l2_pess;            /* ≥ ‖pess‖₂ */
    double var;                /* of the pessimistic array (a scale) */
    size_t group, ngroups;     /* Chernoff grouping (§2) */
    double *gmass;             /* ≥ group sums of pess */
    double *lgmass;            /* log gmass (−inf for 0), doubles: choices only */
} disc;

static void disc_init(disc *d)
{
    memset(d, 0, sizeof *d);
    mpfr_inits2(64, d->p_inf, d->slack, d->sum_pess, d->excess, d->l2_pess, (mpfr_ptr)0);
}

static void disc_clear(disc *d)
{
    free(d->pess);
    free(d->gmass);
    free(d->lgmass);
    mpfr_clears(d->p_inf, d->slack, d->sum_pess, d->excess, d->l2_pess, (mpfr_ptr)0);
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
#define SERIES_TERMS 400 /* normal_mass_series gives up beyond this */

typedef struct {
    mpfr_prec_t p;
    long target_bits;           /* relative accuracy the series aims at (a choice) */
    mpfi_t inv_sqrt_2pi;        /* 1/√(2π) */
    mpfr_t log2e_up;            /* ≥ log2(e), 32 bits */
    mpfi_t inv[SERIES_TERMS + 1]; /* inv[n] ⊇ 1/(n + 1) */
    mpfr_t invm[SERIES_TERMS + 1]; /* 1/(n + 1) rounded to nearest */
} mass_ctx;

static void mass_ctx_init(mass_ctx *c, mpfr_prec_t p)
{
    c->p = p;
    c->target_bits = (long)p - 16;
    mpfi_init2(c->inv_sqrt_2pi, p);
    mpfi_const_pi(c->inv_sqrt_2pi);
    mpfi_mul_2ui(c->inv_sqrt_2pi, c->inv_sqrt_2pi, 1);
    mpfi_sqrt(c->inv_sqrt_2pi, c->inv_sqrt_2pi);
    mpfi_ui_div(c->inv_sqrt_2pi, 1, c->inv_sqrt_2pi);
    mpfr_init2(c->log2e_up, 32);
    mpfr_const_log2(c->log2e_up, MPFR_RNDD);
    mpfr_ui_div(c->log2e_up, 1, c->log2e_up, MPFR_RNDU);
    for (int n = 0; n <= SERIES_TERMS; n++) {
        mpfi_init2(c->inv[n], p);
        mpfi_set_ui(c->inv[n], (unsigned long)n + 1);
        mpfi_ui_div(c->inv[n], 1, c->inv[n]);
        mpfr_init2(c->invm[n], p);
        mpfr_set_ui(c->invm[n], (unsigned long)n + 1, MPFR_RNDN);
        mpfr_ui_div(c->invm[n], 1, c->invm[n], MPFR_RNDN);
    }
}

static void mass_ctx_clear(mass_ctx *c)
{
    mpfi_clear(c->inv_sqrt_2pi);
    mpfr_clear(c->log2e_up);
    for (int n = 0; n <= SERIES_TERMS; n++) {
        mpfi_clear(c->inv[n]);
        mpfr_clear(c->invm[n]);
    }
}

/* out ⊇ Σ_{n<N} c_n(a) d^{n+1}/(n+1) for every a ∈ A, d ∈ D (the truncated
 * series of normal_mass_series_phi; its remainder is the caller's), by one
 * evaluation at the midpoints (a_m, d_m) in MPFR rounded to nearest, u = 2^-p:
 *   rounding: the recurrence ĉ_{n+1} = −(a_m ĉ_n + ĉ_{n−1})·fl(1/(n+1)) has
 *     ≤ 4 roundings per step, so by induction |ĉ_n − c_n| ≤ ((1+u)^{4n} − 1)·C_n
 *     with C_n the coefficients of e^{|a|y + y²/2} (C_{n+1} = (|a|C_n +
 *     C_{n−1})/(n+1), the same recurrence with absolute values); each term
 *     adds n + 3 roundings (d^{n+1} by repeated products, the product, the
 *     division) and the sum N, so the computed sum is within
 *     γ_{6N+8}·Σ C_n d^{n+1}/(n+1) ≤ γ_{6N+8}·d·e^{|a|d + d²/2} of the exact
 *     truncated series at (a_m, d_m) (Higham §3.1, γ_k = ku/(1 − ku) ≤ 2ku);
 *   the box: for the truncated series J_N(a, d), ∂J_N/∂d = Σ c_n d^n and,
 *     since ∂_a g = −y·g gives c_n′ = −c_{n−1}, ∂J_N/∂a = −Σ_{n≥1} c_{n−1}
 *     d^{n+1}/(n+1); with |c_n| ≤ C_n and d^{n+1}/(n+1) ≤ (d²/2)·d^{n−1},
 *     both are at most e^{|a|d + d²/2} times 1 and d²/2, so the mean value
 *     theorem gives (r_d + r_a·d²/2)·e^{|a|d + d²/2}, r_a and r_d the radii.
 * Exponentials are bounded by powers of two 2^⌈x·log2 e⌉ (MPFR, rounded up).
 * MPFI would evaluate both ends of every product: this is several times faster. */
/* r ≥ max(mid − X.left, X.right − mid); tmp is scratch. */
static void box_radius(mpfr_ptr r, mpfi_srcptr X, mpfr_srcptr mid, mpfr_ptr tmp)
{
    mpfr_sub(r, mid, &X->left, MPFR_RNDU);
    mpfr_sub(tmp, &X->right, mid, MPFR_RNDU);
    mpfr_max(r, r, tmp, MPFR_RNDU);
}

static void series_mid(mpfi_ptr out, mpfi_srcptr A, mpfi_srcptr D, int N, double amax,
                       double dmax, int e, const mass_ctx *cx)
{
    mpfr_prec_t p = cx->p;
    mpfr_t am, dm, cp, c, cn, dp, sum, term, ra, rd, t;
    mpfr_inits2(p, am, dm, cp, c, cn, dp, sum, term, (mpfr_ptr)0);
    mpfr_inits2(64, ra, rd, t, (mpfr_ptr)0);
    mpfi_mid(am, A);
    mpfi_mid(dm, D);
    mpfr_set_ui(cp, 1, MPFR_RNDN);
    mpfr_neg(c, am, MPFR_RNDN);
    mpfr_set(dp, dm, MPFR_RNDN);
    mpfr_set(sum, dm, MPFR_RNDN);
    for (int n = 1; n < N; n++) {
        mpfr_mul(dp, dp, dm, MPFR_RNDN);
        mpfr_mul(term, c, dp, MPFR_RNDN);
        mpfr_mul(term, term, cx->invm[n], MPFR_RNDN);
        mpfr_add(sum, sum, term, MPFR_RNDN);
        mpfr_mul(cn, am, c, MPFR_RNDN);
        mpfr_add(cn, cn, cp, MPFR_RNDN);
        mpfr_mul(cn, cn, cx->invm[n], MPFR_RNDN);
        mpfr_neg(cn, cn, MPFR_RNDN);
        mpfr_swap(cp, c);
        mpfr_swap(c, cn);
    }
    /* E1 = ⌈(amax·dmax + dmax²/2)·log2 e⌉: e^{|a|d + d²/2} ≤ 2^E1 on the box */
    mpfr_set_d(t, dmax, MPFR_RNDU);
    mpfr_sqr(t, t, MPFR_RNDU);
    mpfr_div_2ui(t, t, 1, MPFR_RNDU);
    mpfr_set_d(ra, amax, MPFR_RNDU);
    mpfr_mul_d(ra, ra, dmax, MPFR_RNDU);
    mpfr_add(t, t, ra, MPFR_RNDU);
    mpfr_mul(t, t, cx->log2e_up, MPFR_RNDU);
    mpfr_ceil(t, t);
    long E1 = mpfr_get_si(t, MPFR_RNDU);
    /* rounding: 2·(6N + 8)·2^-p·2^e·2^E1 (d ≤ 2^e) */
    mpfr_set_ui(t, 6UL * (unsigned long)N + 8, MPFR_RNDU);
    mpfr_mul_2si(t, t, 1 - (long)p + e + E1, MPFR_RNDU);
    /* box: (r_d + r_a·dmax²/2)·2^E1 */
    box_radius(ra, A, am, term);
    mpfr_mul_d(ra, ra, 0.5 * dmax, MPFR_RNDU); /* dmax/2 is exact */
    mpfr_mul_d(ra, ra, dmax, MPFR_RNDU);
    box_radius(rd, D, dm, term);
    mpfr_add(ra, ra, rd, MPFR_RNDU);
    mpfr_mul_2si(ra, ra, E1, MPFR_RNDU);
    mpfr_add(t, t, ra, MPFR_RNDU);
    mpfr_sub(term, sum, t, MPFR_RNDD);
    mpfr_add(sum, sum, t, MPFR_RNDU);
    mpfi_interv_fr(out, term, sum);
    mpfr_clears(am, dm, cp, c, cn, dp, sum, term, ra, rd, t, (mpfr_ptr)0);
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
static bool normal_mass_series_phi(mpfi_ptr out, mpfi_srcptr A, mpfi_srcptr D,
                                   mpfi_srcptr phiA, const mass_ctx *cx)
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
    /* relative target 2^-target_bits (a choice: the remainder bound is
     * added whatever N; discretise asks for what its split needs):
     * J ≥ d·e^{−|a|d − d²/2} (the integrand's minimum) and d ≥ 2^(e−1) (D
     * is one narrow box) */
    double target = (double)(e - 1) - (double)cx->target_bits -
                    (amax * dmax + 0.5 * dmax * dmax) * 1.4426950408889634;
    int N = 0, j = 0;
    for (int n = 1; n <= SERIES_TERMS && N == 0; n++) {
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

    mpfi_t sum, term;
    mpfi_init2(sum, p);
    mpfi_init2(term, p);
    series_mid(sum, A, D, N, amax, dmax, e, cx);
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
    /* φ(A) = e^{−A²/2}/√(2π), or the enclosure the caller has */
    if (phiA != NULL) {
        mpfi_mul(out, sum, phiA);
    } else {
        mpfi_sqr(term, A);
        mpfi_div_2ui(term, term, 1);
        mpfi_neg(term, term);
        mpfi_exp(term, term);
        mpfi_mul(term, term, cx->inv_sqrt_2pi);
        mpfi_mul(out, sum, term);
    }
    mpfi_clear(sum);
    mpfi_clear(term);
    return true;
}

/* The same with φ(A) computed here. */
static bool normal_mass_series(mpfi_ptr out, mpfi_srcptr A, mpfi_srcptr D, const mass_ctx *cx)
{
    return normal_mass_series_phi(out, A, D, NULL, cx);
}

/* A grid point in the noise space: x encloses the noise value where the loss
 * crosses the grid point; kind 0 finite, 1 −∞, 2 lower end −∞ (x holds the
 * upper end; see x_of_loss). */
typedef struct {
    mpfi_t x;
    int kind;
    bool has_phi;    /* subsampled recurrence path: phi, phir valid (kind 0) */
    mpfi_t phi, phir; /* φ(x), φ(x − r) */
} endpoint;

static void endpoint_init(endpoint *e, mpfr_prec_t p)
{
    mpfi_init2(e->x, p);
    mpfi_init2(e->phi, p);
    mpfi_init2(e->phir, p);
    e->kind = 0;
    e->has_phi = false;
}

static void endpoint_clear(endpoint *e)
{
    mpfi_clear(e->x);
    mpfi_clear(e->phi);
    mpfi_clear(e->phir);
}

/* The noise value of the loss ℓ: Gaussian (ℓ − r²/2)/r; REMOVE x(ℓ); ADD x(−ℓ). */
static void endpoint_at(endpoint *e, const mech *m, mpfr_srcptr loss, mpfr_prec_t p)
{
    e->has_phi = false;
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

/* P ⊇ P[ℓ_{k−1} < L ≤ ℓ_k] and Q ⊇ Q[ℓ_{k−1} < L ≤ ℓ_k] = E_P[e^{−L}; bin]
 * from the endpoints of ℓ_{k−1} (prev) and ℓ_k (cur).  Gaussian: L =
 * r²/2 + rZ under P and −r²/2 + rZ under Q (Z ~ N(0,1)), so the Q-mass is
 * the normal mass of the same x-interval shifted by +r.  REMOVE: Q = N(0,1)
 * on the noise value; ADD: Q = (1−q)N(0,1) + qN(r,1) (pld.h). */
static void bin_pq(mpfi_ptr P, mpfi_ptr Q, const mech *m, const endpoint *prev,
                   const endpoint *cur, const mass_ctx *cx)
{
    mpfi_t t;
    mpfi_init2(t, cx->p);
    if (!m->subsampled) {
        normal_mass(P, prev, cur, NULL, cx);
        normal_mass(Q, prev, cur, m->neg_r, cx);
    } else if (m->dir == DIR_ADD) {
        normal_mass(P, cur, prev, NULL, cx); /* X ∈ [x(−ℓ_k), x(−ℓ_{k−1})), X ~ N(0,1) */
        normal_mass(t, cur, prev, m->r, cx);
        mpfi_mul(t, t, m->q);
        mpfi_mul(Q, P, m->omq);
        mpfi_add(Q, Q, t);
    } else {
        /* X ∈ (x(ℓ_{k−1}), x(ℓ_k)], P = (1−q)N(0,1) + qN(r,1), Q = N(0,1) */
        normal_mass(Q, prev, cur, NULL, cx);
        normal_mass(P, prev, cur, m->r, cx);
        mpfi_mul(P, P, m->q);
        mpfi_mul(t, Q, m->omq);
        mpfi_add(P, P, t);
    }
    mpfi_clear(t);
}

/* Narrow-box exp and log with one MPFR call (MPFI calls the function at
 * both ends).  m = mid(X) (rounded to nearest), r₋ = m − X.left, r₊ =
 * X.right − m (rounded up); y = f(m) rounded to nearest at the precision p
 * of out is within 2^-p·|y| of f(m) (half an ulp).  exp: for t ∈ [−r₋, r₊],
 * 1 − r₋ ≤ e^t ≤ 1/(1 − r₊) (r₊ < 1), so exp(X) ⊆ [y(1 − 2^{1−p})(1 − r₋),
 * y(1 + 2^{1−p})/(1 − r₊)].  log (X > 0): log(1 + s) ≤ s and
 * log(1 − s) ≥ −s/(1 − s), so log(X) ⊆ [log m − ρ₋/(1 − ρ₋), log m + ρ₊]
 * with ρ± = r±/m, widened by 2^-p·|y|.  Every step is rounded outward.
 * Wide boxes (r₊ or ρ₋ ≥ 2^-20) go to MPFI. */
static bool narrow_box(mpfr_ptr m, mpfr_ptr rl, mpfr_ptr rh, mpfi_srcptr x)
{
    mpfi_mid(m, x);
    mpfr_sub(rl, m, &x->left, MPFR_RNDU);
    mpfr_sub(rh, &x->right, m, MPFR_RNDU);
    return mpfr_cmp_ui_2exp(rh, 1, -20) < 0 && mpfr_cmp_ui_2exp(rl, 1, -20) < 0;
}

static void exp_narrow(mpfi_ptr out, mpfi_srcptr x)
{
    mpfr_prec_t p = mpfi_get_prec(out);
    mpfr_t m, rl, rh, y, a, b;
    mpfr_inits2(p, m, rl, rh, y, a, b, (mpfr_ptr)0);
    if (!narrow_box(m, rl, rh, x)) {
        mpfi_exp(out, x);
    } else {
        mpfr_exp(y, m, MPFR_RNDN);
        mpfr_ui_sub(a, 1, rl, MPFR_RNDD);         /* 1 − r₋ */
        mpfr_set_ui_2exp(b, 1, 1 - (long)p, MPFR_RNDU); /* 2^{1−p}, exact */
        mpfr_ui_sub(b, 1, b, MPFR_RNDD);
        mpfr_mul(a, a, b, MPFR_RNDD);
        mpfr_mul(a, a, y, MPFR_RNDD);
        mpfr_ui_sub(b, 1, rh, MPFR_RNDD); /* 1 − r₊ */
        mpfr_div(b, y, b, MPFR_RNDU);
        mpfr_set_ui_2exp(rh, 1, 1 - (long)p, MPFR_RNDU);
        mpfr_add_ui(rh, rh, 1, MPFR_RNDU);
        mpfr_mul(b, b, rh, MPFR_RNDU);
        mpfi_interv_fr(out, a, b);
    }
    mpfr_clears(m, rl, rh, y, a, b, (mpfr_ptr)0);
}

/* X > 0 throughout. */
static void log_narrow(mpfi_ptr out, mpfi_srcptr x)
{
    mpfr_prec_t p = mpfi_get_prec(out);
    mpfr_t m, rl, rh, y, a, b;
    mpfr_inits2(p, m, rl, rh, y, a, b, (mpfr_ptr)0);
    bool ok = narrow_box(m, rl, rh, x) && mpfr_sgn(&x->left) > 0;
    if (ok) {
        mpfr_div(rl, rl, m, MPFR_RNDU); /* ρ₋ */
        mpfr_div(rh, rh, m, MPFR_RNDU); /* ρ₊ */
        ok = mpfr_cmp_ui_2exp(rl, 1, -20) < 0;
    }
    if (!ok) {
        mpfi_log(out, x);
    } else {
        mpfr_log(y, m, MPFR_RNDN);
        mpfr_abs(b, y, MPFR_RNDU);
        mpfr_mul_2si(b, b, -(long)p, MPFR_RNDU); /* ≥ the rounding error of y */
        mpfr_ui_sub(a, 1, rl, MPFR_RNDD);
        mpfr_div(a, rl, a, MPFR_RNDU); /* ρ₋/(1 − ρ₋) */
        mpfr_add(a, a, b, MPFR_RNDU);
        mpfr_add(rh, rh, b, MPFR_RNDU);
        mpfr_sub(a, y, a, MPFR_RNDD);
        mpfr_add(b, y, rh, MPFR_RNDU);
        mpfi_interv_fr(out, a, b);
    }
    mpfr_clears(m, rl, rh, y, a, b, (mpfr_ptr)0);
}

/* The subsampled endpoint of the loss ℓ from g ⊇ e^{ℓ} (REMOVE) or e^{−ℓ}
 * (ADD), carried by the caller's recurrence: with v = ±ℓ the REMOVE loss at
 * the noise value x, e^{v} = 1 − q + q·e^{rx − r²/2} (pld.h), so
 * t := (g − (1 − q))/q = e^{rx − r²/2}, x = (log t + r²/2)/r (one log where
 * x_of_loss takes expm1 and log1p), φ(x) = e^{−x²/2}/√(2π) (one exp) and
 * φ(x − r) = φ(x)·e^{rx − r²/2} = φ(x)·t (exact identity).  When t is not
 * positive throughout, the endpoint is made by endpoint_at (the −∞ cases). */
static void endpoint_sub(endpoint *e, const mech *m, mpfi_srcptr g, mpfr_srcptr loss,
                         const mass_ctx *cx)
{
    mpfi_t t;
    mpfi_init2(t, cx->p);
    mpfi_sub(t, g, m->omq);
    mpfi_div(t, t, m->q);
    if (mpfr_sgn(&t->left) <= 0) {
        endpoint_at(e, m, loss, cx->p);
    } else {
        log_narrow(e->x, t);
        mpfi_add(e->x, e->x, m->half_r2);
        mpfi_div(e->x, e->x, m->r);
        mpfi_sqr(e->phi, e->x);
        mpfi_div_2ui(e->phi, e->phi, 1);
        mpfi_neg(e->phi, e->phi);
        exp_narrow(e->phi, e->phi);
        mpfi_mul(e->phi, e->phi, cx->inv_sqrt_2pi);
        mpfi_mul(e->phir, e->phi, t);
        e->kind = 0;
        e->has_phi = true;
    }
    mpfi_clear(t);
}

/* bin_pq for a subsampled mechanism from endpoints with φ (endpoint_sub): the
 * x-interval starts at lo (REMOVE: prev, ADD: cur) and has width d; the
 * N(0,1) mass is φ(lo)·J and the N(r,1) mass φ(lo − r)·J′ (the series of
 * normal_mass_series_phi); otherwise bin_pq. */
static void bin_pq_sub(mpfi_ptr P, mpfi_ptr Q, const mech *m, const endpoint *prev,
                       const endpoint *cur, const mass_ctx *cx)
{
    bool add = m->dir == DIR_ADD;
    const endpoint *lo = add ? cur : prev, *up = add ? prev : cur;
    bool ok = lo->has_phi && up->has_phi;
    mpfi_t d, a, base, shifted;
    mpfi_init2(d, cx->p);
    mpfi_init2(a, cx->p);
    mpfi_init2(base, cx->p);
    mpfi_init2(shifted, cx->p);
    if (ok) {
        mpfi_sub(d, up->x, lo->x);
        if (mpfr_sgn(&d->left) < 0)
            mpfr_set_zero(&d->left, 1); /* the true width is ≥ 0 */
        if (mpfr_sgn(&d->right) < 0)
            mpfr_set_zero(&d->right, 1);
        ok = normal_mass_series_phi(base, lo->x, d, lo->phi, cx);
    }
    if (ok) {
        mpfi_sub(a, lo->x, m->r);
        ok = normal_mass_series_phi(shifted, a, d, lo->phir, cx);
    }
    if (ok) {
        mpfi_t unit;
        mpfi_init2(unit, cx->p);
        mpfi_set_ui(unit, 0);
        mpfi_put_ui(unit, 1);
        mpfi_intersect(base, base, unit); /* probabilities */
        mpfi_intersect(shifted, shifted, unit);
        mpfi_clear(unit);
        /* REMOVE: Q = N(0,1), P = (1−q)N(0,1) + qN(r,1); ADD: P and Q swapped */
        mpfi_ptr mix = add ? Q : P, pure = add ? P : Q;
        mpfi_mul(mix, base, m->omq);
        mpfi_mul(a, shifted, m->q);
        mpfi_add(mix, mix, a);
        mpfi_set(pure, base);
    } else {
        bin_pq(P, Q, m, prev, cur, cx);
    }
    mpfi_clear(d);
    mpfi_clear(a);
    mpfi_clear(base);
    mpfi_clear(shifted);
}

/* The connect-the-dots split of one bin (§1): the atom at ℓ ∈ (ℓ_{k−1}, ℓ_k]
 * goes to ℓ_{k−1} and ℓ_k with P-masses a + b = P and Q-masses
 * a·e^{−ℓ_{k−1}} + b·e^{−ℓ_k} = Q, i.e. b = (P·e^h − Q·e^{ℓ_k})/(e^h − 1),
 * a = P − b.  elk ⊇ e^{ℓ_k} (NULL: computed), eh ⊇ e^h, ehm1 ⊇ e^h − 1;
 * both clamped to [0, P]. */
static void ctd_split(mpfi_ptr a, mpfi_ptr b, mpfi_srcptr P, mpfi_srcptr Q, mpfr_srcptr loss,
                      mpfi_srcptr elk, mpfi_srcptr eh, mpfi_srcptr ehm1, mpfr_prec_t p)
{
    mpfi_t t, zero_p;
    mpfi_init2(t, p);
    mpfi_init2(zero_p, p);
    if (elk != NULL) {
        mpfi_set(t, elk); /* e^{ℓ_k}, carried by the caller */
    } else {
        mpfi_set_fr(t, loss);
        mpfi_exp(t, t);
    }
    mpfi_mul(t, t, Q);
    mpfi_mul(b, P, eh);
    mpfi_sub(b, b, t);
    mpfi_div(b, b, ehm1);
    mpfi_set_ui(zero_p, 0);
    mpfi_put(zero_p, P);
    mpfi_intersect(b, b, zero_p);
    if (mpfi_is_empty(b))
        mpfi_set(b, zero_p); /* cannot happen with sound enclosures; stay sound */
    mpfi_sub(a, P, b);
    mpfi_intersect(a, a, zero_p);
    if (mpfi_is_empty(a))
        mpfi_set(a, zero_p);
    mpfi_clear(t);
    mpfi_clear(zero_p);
}

/* The precision of the mass enclosures.  Gaussian: the bin width h/r is
 * one enclosure shared by all bins and the endpoints are (ℓ − r²/2)/r, so
 * p bits give masses to about 2^-(p−6) relative; the split (ctd_split)
 * loses log2(1/h) of them to cancellation and the recurrences of gauss_rec
 * up to 2·log2 n, so p = 72 + log2(1/h) + log2 n keeps the atoms within
 * RHO0 of their enclosures for n ≤ 2^24.  Subsampled: the width is a
 * difference of endpoints x(ℓ), losing up to log2(|x|/width) bits, so 80
 * bits plus log2 n. */
static mpfr_prec_t disc_precision(const mech *m, size_t n, double h)
{
    mpfr_prec_t p = 72 + (mpfr_prec_t)fmax(0, ceil(-log2(h)));
    if (m->subsampled)
        p += 16;
    /* subsampled: endpoint cancellation; Gaussian: the recurrences of
     * gauss_rec, whose relative widths grow like k²·2^-p */
    for (size_t s = n; s > 1; s >>= 1)
        p++;
    return p;
}

/* Enclosures carried from bin to bin for the Gaussian, x_k = (ℓ_k − r²/2)/r,
 * w = h/r: φ(x_{k−1}); ρ = e^{−x_{k−1}w − w²/2}, so φ(x_k) = φ(x_{k−1})·ρ and
 * the next ρ is ρ·e^{−w²}; e^{−ℓ_{k−1}}, so φ(x_{k−1} + r) = φ(x_{k−1})·e^{−ℓ_{k−1}}
 * (x r + r²/2 = ℓ), and e^{ℓ_k} = 1/(e^{−ℓ_{k−1}}·e^{−h}).  Products of
 * enclosures enclose the products: three multiplications replace three
 * exponentials per bin. */
typedef struct {
    mpfi_t phi, rho, c, eml, emh, elk, t;
} gauss_rec;

static void gauss_rec_init(gauss_rec *g, const mech *m, mpfi_srcptr x0, mpfr_srcptr loss0,
                           mpfi_srcptr width, double h, const mass_ctx *cx)
{
    mpfi_ptr v[] = {g->phi, g->rho, g->c, g->eml, g->emh, g->elk, g->t};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        mpfi_init2(v[i], cx->p);
    (void)m;
    mpfi_sqr(g->t, x0); /* φ(x_0) = e^{−x_0²/2}/√(2π) */
    mpfi_div_2ui(g->t, g->t, 1);
    mpfi_neg(g->t, g->t);
    mpfi_exp(g->phi, g->t);
    mpfi_mul(g->phi, g->phi, cx->inv_sqrt_2pi);
    mpfi_sqr(g->c, width); /* w² */
    mpfi_div_2ui(g->t, g->c, 1);
    mpfi_mul(g->rho, x0, width);
    mpfi_add(g->rho, g->rho, g->t);
    mpfi_neg(g->rho, g->rho);
    mpfi_exp(g->rho, g->rho);
    mpfi_neg(g->c, g->c);
    mpfi_exp(g->c, g->c);
    mpfi_set_fr(g->eml, loss0);
    mpfi_neg(g->eml, g->eml);
    mpfi_exp(g->eml, g->eml);
    mpfi_set_d(g->emh, -h); /* exact */
    mpfi_exp(g->emh, g->emh);
}

static void gauss_rec_clear(gauss_rec *g)
{
    mpfi_ptr v[] = {g->phi, g->rho, g->c, g->eml, g->emh, g->elk, g->t};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        mpfi_clear(v[i]);
}

/* Moves the recurrence from bin k to bin k + 1. */
static void gauss_rec_step(gauss_rec *g)
{
    mpfi_mul(g->phi, g->phi, g->rho);
    mpfi_mul(g->rho, g->rho, g->c);
    mpfi_mul(g->eml, g->eml, g->emh);
}

/* P and Q of the bin after prev (bin_pq); the Gaussian (g != NULL) by one
 * series each over the shared width h/r with φ from the recurrence, when the
 * series converges.  Sets g->elk ⊇ e^{ℓ_k} and returns it (NULL without g). */
static mpfi_srcptr bin_pq_fast(mpfi_ptr P, mpfi_ptr Q, const mech *m, const endpoint *prev,
                               const endpoint *cur, mpfi_srcptr width, gauss_rec *g,
                               const mass_ctx *cx)
{
    if (g == NULL) {
        bin_pq(P, Q, m, prev, cur, cx);
        return NULL;
    }
    mpfi_mul(g->elk, g->eml, g->emh);
    mpfi_ui_div(g->elk, 1, g->elk);
    bool ok = normal_mass_series_phi(P, prev->x, width, g->phi, cx);
    if (ok) {
        mpfi_t xr;
        mpfi_init2(xr, cx->p);
        mpfi_add(xr, prev->x, m->r);
        mpfi_mul(g->t, g->phi, g->eml); /* φ(x_{k−1} + r) */
        ok = normal_mass_series_phi(Q, xr, width, g->t, cx);
        mpfi_clear(xr);
    }
    if (!ok)
        bin_pq(P, Q, m, prev, cur, cx);
    return g->elk;
}

/* The subsampled recurrences: el ⊇ e^{ℓ_k}, eml ⊇ e^{−ℓ_k}, carried by
 * one multiplication each (e^{±h} enclosed once; products of enclosures
 * enclose the products), feeding endpoint_sub and the CTD split. */
typedef struct {
    mpfi_t el, eml, eh, emh;
} sub_rec;

static void sub_rec_init(sub_rec *sr, endpoint *e0, const mech *m, mpfr_srcptr loss0, double h,
                         const mass_ctx *cx)
{
    mpfi_ptr v[] = {sr->el, sr->eml, sr->eh, sr->emh};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        mpfi_init2(v[i], cx->p);
    mpfi_set_fr(sr->el, loss0);
    mpfi_exp(sr->el, sr->el);
    mpfi_set_fr(sr->eml, loss0);
    mpfi_neg(sr->eml, sr->eml);
    mpfi_exp(sr->eml, sr->eml);
    mpfi_set_d(sr->eh, h); /* exact */
    mpfi_exp(sr->eh, sr->eh);
    mpfi_set_d(sr->emh, -h);
    mpfi_exp(sr->emh, sr->emh);
    endpoint_sub(e0, m, m->dir == DIR_ADD ? sr->eml : sr->el, loss0, cx);
}

/* Moves to the next grid point (loss = ℓ_k) and makes its endpoint; returns e^{ℓ_k}. */
static mpfi_srcptr sub_rec_step(sub_rec *sr, endpoint *cur, const mech *m, mpfr_srcptr loss,
                                const mass_ctx *cx)
{
    mpfi_mul(sr->el, sr->el, sr->eh);
    mpfi_mul(sr->eml, sr->eml, sr->emh);
    endpoint_sub(cur, m, m->dir == DIR_ADD ? sr->eml : sr->el, loss, cx);
    return sr->el;
}

static void sub_rec_clear(sub_rec *sr)
{
    mpfi_ptr v[] = {sr->el, sr->eml, sr->eh, sr->emh};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        mpfi_clear(v[i]);
}

/* excess += max(0, (1 − RHO0)·stored − lower), rounded up (§1, mass_excess). */
static void add_excess(mpfr_ptr excess, double stored, mpfr_srcptr lower)
{
    mpfr_t t;
    mpfr_init2(t, 128);
    mpfr_set_d(t, stored, MPFR_RNDU);
    mpfr_mul_d(t, t, 1 - RHO0, MPFR_RNDU); /* 1 − 2^-48 is a double */
    mpfr_sub(t, t, lower, MPFR_RNDU);
    if (mpfr_sgn(t) > 0)
        mpfr_add(excess, excess, t, MPFR_RNDU);
    mpfr_clear(t);
}

/* Discretises m on the grid of spacing h by connect-the-dots (§1),
 * truncating about tau in each tail.  UL_EINPUT (naming grid-step) when it
 * needs more than max_points points.  Guarantee: pess[k] ≥ the CTD atom at
 * ℓ_k (pess[0] also ≥ P[L ≤ ℓ_0], folded up), p_inf ≥ P[L > ℓ_{n−1}],
 * sum_in ≤ the total mass of the atoms split from bins inside the grid. */
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
    if (d->pess == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "grid-step: %g: out of memory for %zu points", h,
                       n);
    mpfr_prec_t p = disc_precision(m, n, h);
    mass_ctx cx;
    mass_ctx_init(&cx, p);
    /* the atoms are kept to RHO0 = 2^-48 relative after the split, which
     * loses log2(1/h) bits (ctd_split): masses to 2^-(72 + log2(1/h)) leave
     * 24 bits of margin */
    cx.target_bits = (long)fmin((double)cx.target_bits, 72 + ceil(-log2(h)));
    endpoint e[2];
    endpoint_init(&e[0], p);
    endpoint_init(&e[1], p);
    mpfi_t P, Q, a, b, eh, ehm1;
    mpfi_ptr vars[] = {P, Q, a, b, eh, ehm1};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        mpfi_init2(vars[i], p);
    mpfi_set_d(eh, h);
    mpfi_expm1(ehm1, eh);
    mpfi_exp(eh, eh);
    mpfi_t width;
    mpfi_init2(width, p);
    mpfi_set_d(width, h);
    mpfi_div(width, width, m->r); /* h/r: the Gaussian bin width in noise units */
    mpfr_t loss, w, atom_up, atom_lo;
    mpfr_init2(loss, 128);
    mpfr_inits2(p, w, atom_up, atom_lo, (mpfr_ptr)0);
    mpfr_set_zero(d->slack, 1);
    mpfr_set_zero(d->excess, 1);
    mpfr_set_zero(atom_lo, 1);

    /* the lower tail folded onto ℓ_0 (pessimistic, outside sum_in) */
    exact_loss(loss, klo, h);
    loss_tail(P, m, loss, false, p);
    mpfr_set(atom_up, &P->right, MPFR_RNDU);
    gauss_rec g, *gp = NULL;
    sub_rec sr;
    if (!m->subsampled) {
        endpoint_at(&e[0], m, loss, p);
        gauss_rec_init(&g, m, e[0].x, loss, width, h, &cx);
        gp = &g;
    } else {
        sub_rec_init(&sr, &e[0], m, loss, h, &cx);
    }
    for (size_t k = 1; k < n; k++) {
        endpoint *prev = &e[(k - 1) & 1], *cur = &e[k & 1];
        exact_loss(loss, klo + (double)k, h);
        mpfi_srcptr elk;
        if (gp != NULL) {
            endpoint_at(cur, m, loss, p);
            elk = bin_pq_fast(P, Q, m, prev, cur, width, gp, &cx);
        } else {
            elk = sub_rec_step(&sr, cur, m, loss, &cx);
            bin_pq_sub(P, Q, m, prev, cur, &cx);
        }
        ctd_split(a, b, P, Q, loss, elk, eh, ehm1, p);
        if (gp != NULL)
            gauss_rec_step(gp);
        mpfr_add(atom_up, atom_up, &a->right, MPFR_RNDU);
        mpfr_add(atom_lo, atom_lo, &a->left, MPFR_RNDD);
        d->pess[k - 1] = mpfr_get_d(atom_up, MPFR_RNDU);
        add_excess(d->excess, d->pess[k - 1], atom_lo);
        mpfr_set(atom_up, &b->right, MPFR_RNDU);
        mpfr_set(atom_lo, &b->left, MPFR_RNDD);
        mpfi_diam_abs(w, P);
        mpfr_add(d->slack, d->slack, w, MPFR_RNDU);
    }
    d->pess[n - 1] = mpfr_get_d(atom_up, MPFR_RNDU);
    add_excess(d->excess, d->pess[n - 1], atom_lo);
    if (gp != NULL)
        gauss_rec_clear(gp);
    else
        sub_rec_clear(&sr);
    /* the upper tail goes to +∞ */
    loss_tail(P, m, loss, true, p);
    mpfr_set(d->p_inf, &P->right, MPFR_RNDU);

    array_norms(d->pess, n, d->sum_pess, d->l2_pess);
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

    endpoint_clear(&e[0]);
    endpoint_clear(&e[1]);
    mpfi_clear(width);
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        mpfi_clear(vars[i]);
    mass_ctx_clear(&cx);
    mpfr_clear(loss);
    mpfr_clears(w, atom_up, atom_lo, (mpfr_ptr)0);
    return UL_OK;
}

/* ---- the window and its Chernoff tails (§2) ------------------------------------- */

typedef struct {
    size_t N;       /* FFT length, a power of two */
    double base;    /* Σ steps·k_lo: composed index m sits at the loss (base + m)·h */
    double m_lo;    /* first composed index of the window */
    bool wrapped;   /* some composed mass lies outside the window */
    mpfr_t up_pess, lo_pess; /* ≥ composed mass above / below the window */
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
    free(d->lgmass);
    d->gmass = malloc(d->ngroups * sizeof *d->gmass);
    d->lgmass = malloc(d->ngroups * sizeof *d->lgmass);
    if (d->gmass == NULL || d->lgmass == NULL)
        return false;
    mpfr_t s;
    mpfr_init2(s, 64);
    for (size_t g = 0; g < d->ngroups; g++) {
        mpfr_set_zero(s, 1);
        size_t end = (g + 1) * group < d->n ? (g + 1) * group : d->n;
        for (size_t k = g * group; k < end; k++)
            mpfr_add_d(s, s, d->pess[k], MPFR_RNDU);
        d->gmass[g] = mpfr_get_d(s, MPFR_RNDU);
        d->lgmass[g] = d->gmass[g] > 0 ? log(d->gmass[g]) : -INFINITY;
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
    double mx = -INFINITY, sl = (upper ? lambda : -lambda) * h;
    for (size_t g = 0; g < d->ngroups; g++) {
        double e = sl * group_index(d, g, upper) + d->lgmass[g];
        if (e > mx)
            mx = e;
    }
    if (isinf(mx))
        return -INFINITY;
    double s = 0;
    for (size_t g = 0; g < d->ngroups; g++)
        if (d->gmass[g] > 0)
            s += exp(sl * group_index(d, g, upper) + d->lgmass[g] - mx);
    return mx + log(s);
}

/* out ≥ log M(±λ) (MPFR, rounded up at every step). */
static void log_mgf_up(mpfr_ptr out, const disc *d, double lambda, bool upper, double h)
{
    /* The weights e^{±λℓ} of consecutive groups differ by the factor
     * e^{±λ·group·h} (the last group's extreme index is capped, so its true
     * weight is smaller): carried by one multiplication rounded up, each an
     * upper bound of a product of upper bounds. */
    mpfr_t acc, t, loss, wgt, fac;
    mpfr_inits2(64, acc, t, wgt, fac, (mpfr_ptr)0);
    mpfr_init2(loss, 128);
    mpfr_set_zero(acc, 1);
    exact_loss(loss, group_index(d, 0, upper), h);
    mpfr_set_d(t, (double)d->group, MPFR_RNDN); /* exact: group < 2^53 */
    mpfr_mul_d(t, t, h, MPFR_RNDU);
    if (upper) {
        mpfr_mul_d(wgt, loss, lambda, MPFR_RNDU); /* ≥ λℓ */
        mpfr_mul_d(fac, t, lambda, MPFR_RNDU);    /* ≥ λ·group·h */
    } else {
        mpfr_mul_d(wgt, loss, lambda, MPFR_RNDD);
        mpfr_neg(wgt, wgt, MPFR_RNDU); /* ≥ −λℓ */
        mpfr_mul_d(fac, t, lambda, MPFR_RNDD);
        mpfr_neg(fac, fac, MPFR_RNDU); /* ≥ −λ·group·h */
    }
    mpfr_exp(wgt, wgt, MPFR_RNDU);
    mpfr_exp(fac, fac, MPFR_RNDU);
    for (size_t g = 0; g < d->ngroups; g++) {
        if (g > 0)
            mpfr_mul(wgt, wgt, fac, MPFR_RNDU);
        if (!(d->gmass[g] > 0))
            continue;
        mpfr_mul_d(t, wgt, d->gmass[g], MPFR_RNDU);
        mpfr_add(acc, acc, t, MPFR_RNDU);
    }
    if (mpfr_zero_p(acc))
        mpfr_set_inf(out, -1);
    else
        mpfr_log(out, acc, MPFR_RNDU);
    mpfr_clears(acc, t, loss, wgt, fac, (mpfr_ptr)0);
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
        lam[j] = pow(2.0, (j - 24) / 2.0) / sigma;
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
    mpfr_t lg;
    mpfr_init2(lg, 64);
    if (m_lo + (double)N <= full - 1) {
        chernoff_up(lg, ds, nd, lam[ju], true, x_index, h);
        exp_capped(w->up_pess, lg);
    }
    if (m_lo > 0) {
        chernoff_up(lg, ds, nd, lam[jd], false, y_index, h);
        exp_capped(w->lo_pess, lg);
    }
    mpfr_clear(lg);
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

/* Buffers for one transform length (pld_fft.h: complex data in split
 * arrays): work holds one input and its spectrum, acc the product of the
 * spectra and then, after the inverse transform, the N unnormalised
 * results (real parts in acc_re).  With one mechanism acc is work. */
typedef struct {
    size_t N;
    bool is_long;
    void *work_re, *work_im, *acc_re, *acc_im;
} fft_ctx;

#define DEFINE_COMPOSE(NAME, CPOW, FFT, REAL)                                           \
    /* The circular convolution Π_i p_i^{*steps_i} of the pess arrays, length N,    \
     * unnormalised (N times it), as the first N reals of acc_re; NULL when the      \
     * twiddle table cannot be allocated. */                                        \
    static const REAL *NAME(fft_ctx *c, const disc *ds, size_t nd)                      \
    {                                                                                   \
        REAL *wr = c->work_re, *wi = c->work_im, *ar = c->acc_re, *ai = c->acc_im;      \
        for (size_t i = 0; i < nd; i++) {                                               \
            memset(wr, 0, c->N * sizeof(REAL));                                         \
            memset(wi, 0, c->N * sizeof(REAL));                                         \
            for (size_t k = 0; k < ds[i].n; k++)                                        \
                wr[k] = (REAL)ds[i].pess[k]; /* exact */                                \
            if (!FFT(wr, wi, c->N, false))                                              \
                return NULL;                                                            \
            for (size_t j = 0; j < c->N; j++) {                                         \
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
        if (!FFT(ar, ai, c->N, true))                                                   \
            return NULL;                                                                \
        return ar;                                                                      \
    }

DEFINE_CPOW(cpow_d, double)
DEFINE_CPOW(cpow_l, long double)
DEFINE_COMPOSE(compose_d, cpow_d, ul_pld_fft_d, double)
DEFINE_COMPOSE(compose_l, cpow_l, ul_pld_fft_l, long double)

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
    double pess, opt;           /* the CTD sum, and it minus the CTD excess bound (§1) */
    double tails_hi, tails_lo;  /* added to hi / subtracted from lo */
    double round_hi, round_lo;  /* rounding bounds added / subtracted */
    double slack;
    size_t N, nmax;
} dir_result;

/* The composed array ŷ (N unnormalised reals after an FFT, scale = log2 N;
 * or the single-step array itself, scale 0). */
typedef struct {
    const void *y;
    bool is_long;
    size_t len;
    int scale;
} composed;

/* Composes the pess arrays (none for a single step: one mechanism applied
 * once); E2 ≥ ‖ẑ − z‖₂ (§3c; 0 without a transform).  false: out of memory. */
static bool compose_all(composed *c, mpfr_ptr E2, fft_ctx *fc, const disc *ds, size_t nd,
                        const window *w, const fft_format *f)
{
    mpfr_set_zero(E2, 1);
    if (fc == NULL) {
        *c = (composed){ds[0].pess, false, ds[0].n, 0};
        return true;
    }
    c->y = f->is_long ? (const void *)compose_l(fc, ds, nd) : (const void *)compose_d(fc, ds, nd);
    if (c->y == NULL)
        return false;
    c->is_long = f->is_long;
    c->len = w->N;
    c->scale = 0;
    while (((size_t)1 << c->scale) < w->N)
        c->scale++;
    rounding_l2(E2, ds, nd, w->N, f);
    return true;
}

/* The window indices whose loss may lie in [a, b] (one index of margin). */
static bool window_range(const window *w, double h, double a, double b, double *m0, double *m1)
{
    *m0 = fmax(floor(a / h) - 1 - w->base, w->m_lo);
    *m1 = fmin(ceil(b / h) + 1 - w->base, w->m_lo + (double)w->N - 1);
    return *m0 <= *m1;
}

static long double composed_at(const composed *c, const window *w, double m)
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
               q_d((s1 - mu - 2 * v) / sqrt(v));
}

#define BANDS 64 /* bands of d = |S − ε|, of width √v/4 */

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
                long double y = composed_at(c, w, m);
                if (d_out != NULL)
                    dsum += (double)y;
                else {
                    mpfr_set_ld(t, y, MPFR_RNDN); /* exact */
                    mpfr_add(sum, sum, t, MPFR_RNDU);
                }
            }
            for (double m = b + 1; m <= m1; m += 1) {
                long double y = composed_at(c, w, m);
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
                           const composed *c, const window *w, double h, double el, double eu)
{
    double R[BANDS], M[BANDS];
    for (int i = 0; i < BANDS; i++)
        R[i] = dd[i + 1] + y;
    nested_masses(NULL, M, R, BANDS, c, w, h, el, eu, NULL);
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
static void ctd_excess_bound(mpfr_ptr out, const composed *c, const window *w, double h,
                             double T, mpfr_srcptr eps_lo, mpfr_srcptr eps_hi, mpfr_srcptr E2)
{
    hoeffding hf;
    hoeffding_init(&hf, T, h);
    double el = mpfr_get_d(eps_lo, MPFR_RNDD), eu = mpfr_get_d(eps_hi, MPFR_RNDU);
    double dd[BANDS + 1], Vd[BANDS + 1], step = 0.25 * sqrt(hf.v), best_y = 0, best = INFINITY;
    for (int i = 0; i <= BANDS; i++) {
        dd[i] = step * i;
        Vd[i] = psi_d(dd[i], hf.mu, hf.v);
    }
    for (int i = BANDS - 1; i >= 0; i--)
        Vd[i] = fmax(Vd[i], Vd[i + 1]);
    for (double k = 2; k <= 14; k += 1) {
        double y = hf.mu + k * sqrt(hf.v), e = band_bound_d(Vd, dd, y, &hf, c, w, h, el, eu);
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
    nested_masses(M, NULL, R, BANDS, c, w, h, el, eu, E2);
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
    mpfr_t M, t;
    mpfr_inits2(BUDGET_PREC, M, t, (mpfr_ptr)0);
    unsigned long T = 0;
    mpfr_set_ui(M, 1, MPFR_RNDU);
    mpfr_set_zero(add, 1);
    for (size_t i = 0; i < nd; i++) {
        T += ds[i].steps;
        if (mpfr_greater_p(ds[i].sum_pess, M))
            mpfr_set(M, ds[i].sum_pess, MPFR_RNDU);
        mpfr_mul_ui(t, ds[i].excess, ds[i].steps, MPFR_RNDU);
        mpfr_add(add, add, t, MPFR_RNDU);
    }
    mpfr_pow_ui(M, M, T - 1, MPFR_RNDU);
    mpfr_mul(add, add, M, MPFR_RNDU);
    mpfr_set_d(t, -RHO0, MPFR_RNDD);
    mpfr_log1p(t, t, MPFR_RNDD);
    mpfr_mul_ui(t, t, T, MPFR_RNDD);
    mpfr_exp(scale, t, MPFR_RNDD);
    mpfr_clears(M, t, (mpfr_ptr)0);
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

/* hi (§4): the CTD sum at ε's lower end + its rounding + the mass at +∞ and
 * the window tails, capped at 1. */
static void upper_end(mpfr_ptr hi, dir_result *res, const composed *c, const window *w,
                      double h, mpfr_srcptr eps_lo, mpfr_srcptr E2, mpfr_srcptr pinf)
{
    weighted_sum ws;
    mpfr_inits2(BUDGET_PREC, ws.lo, ws.hi, ws.err, (mpfr_ptr)0);
    mpfr_t rnd, t, bottom;
    mpfr_inits2(BUDGET_PREC, rnd, t, bottom, (mpfr_ptr)0);
    sum_weighted(&ws, c->y, c->is_long, c->len, c->scale, w, h, eps_lo);
    rounding_total(rnd, &ws, E2);
    res->round_hi = mpfr_get_d(rnd, MPFR_RNDU);
    mpfr_add(hi, ws.hi, rnd, MPFR_RNDU);
    mpfr_add(t, pinf, w->up_pess, MPFR_RNDU);
    exact_loss(bottom, w->base + w->m_lo, h); /* the window's lowest loss */
    if (mpfr_greater_p(bottom, eps_lo))
        mpfr_add(t, t, w->lo_pess, MPFR_RNDU);
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
static void lower_end(mpfr_ptr lo, dir_result *res, const composed *c, const window *w,
                      const disc *ds, size_t nd, double h, double T, mpfr_srcptr eps_lo,
                      mpfr_srcptr eps_hi, mpfr_srcptr E2)
{
    weighted_sum ws;
    mpfr_inits2(BUDGET_PREC, ws.lo, ws.hi, ws.err, (mpfr_ptr)0);
    mpfr_t rnd, t, ex, sc;
    mpfr_inits2(BUDGET_PREC, rnd, t, ex, sc, (mpfr_ptr)0);
    sum_weighted(&ws, c->y, c->is_long, c->len, c->scale, w, h, eps_hi);
    rounding_total(rnd, &ws, E2);
    res->round_lo = mpfr_get_d(rnd, MPFR_RNDU);
    mpfr_sub(lo, ws.lo, rnd, MPFR_RNDD);
    mpfr_add(t, w->up_pess, w->lo_pess, MPFR_RNDU);
    res->tails_lo = mpfr_get_d(t, MPFR_RNDU);
    mpfr_sub(lo, lo, t, MPFR_RNDD); /* ≤ F(w′) */
    mass_excess(sc, ex, ds, nd);
    if (mpfr_sgn(lo) > 0)
        mpfr_mul(lo, lo, sc, MPFR_RNDD); /* ≤ scale·F(w′) (a negative bound stays one) */
    ctd_excess_bound(t, c, w, h, T, eps_lo, eps_hi, E2);
    mpfr_add(ex, ex, t, MPFR_RNDU);
    mpfr_sub(lo, lo, ex, MPFR_RNDD);
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

/* One direction at one grid, composed: the discretised steps, the window,
 * the composed array and its rounding bound, ready to be read at any ε
 * (upper_end, lower_end).  dir_build fills it; dir_free releases it. */
typedef struct {
    disc *ds;
    size_t nd;
    double T, h;
    window w;
    fft_ctx fc;
    bool have_fc;
    composed c;
    mpfr_t E2, pinf;
} dir_state;

static void dir_free(dir_state *S)
{
    if (S->have_fc)
        fft_ctx_clear(&S->fc);
    for (size_t i = 0; S->ds != NULL && i < S->nd; i++)
        disc_clear(&S->ds[i]);
    free(S->ds);
    mpfr_clears(S->w.up_pess, S->w.lo_pess, (mpfr_ptr)0);
    mpfr_clears(S->E2, S->pinf, (mpfr_ptr)0);
}

/* Discretises every mechanism (its direction set by the caller), chooses the
 * window and composes (§1–3); res gets N, the grid size and the slack.
 * S must be dir_free'd whatever the status. */
static ul_status dir_build(dir_state *S, mech *ms, size_t nm, double h, double tau,
                           const fft_format *f, unsigned long max_points, dir_result *res,
                           char *err, size_t errlen)
{
    memset(S, 0, sizeof *S);
    mpfr_inits2(64, S->w.up_pess, S->w.lo_pess, (mpfr_ptr)0);
    mpfr_inits2(BUDGET_PREC, S->E2, S->pinf, (mpfr_ptr)0);
    S->h = h;
    S->nd = nm;
    for (size_t i = 0; i < nm; i++)
        S->T += (double)ms[i].steps;
    S->ds = calloc(nm, sizeof *S->ds);
    if (S->ds == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "out of memory");
    for (size_t i = 0; i < nm; i++)
        disc_init(&S->ds[i]);
    ul_status st = precheck_size(ms, nm, h, tau, max_points, err, errlen);
    for (size_t i = 0; i < nm && st == UL_OK; i++)
        st = discretise(&S->ds[i], &ms[i], h, tau / (8 * S->T), max_points, err, errlen);
    if (st == UL_OK)
        st = choose_window(&S->w, S->ds, nm, h, tau / 8, max_points, err, errlen);
    if (st != UL_OK)
        return st;
    res->N = S->w.N;
    res->nmax = 0;
    res->slack = 0;
    for (size_t i = 0; i < nm; i++) {
        if (S->ds[i].n > res->nmax)
            res->nmax = S->ds[i].n;
        res->slack += (double)S->ds[i].steps * mpfr_get_d(S->ds[i].slack, MPFR_RNDU);
    }
    mass_at_infinity(S->pinf, S->ds, nm);
    if (!(nm == 1 && S->ds[0].steps == 1)) {
        if (!fft_ctx_init(&S->fc, S->w.N, nm, f->is_long))
            return ul_fail(err, errlen, UL_EINPUT,
                           "grid-step: %g: out of memory for an FFT of %zu points", h, S->w.N);
        S->have_fc = true;
    }
    if (!compose_all(&S->c, S->E2, S->have_fc ? &S->fc : NULL, S->ds, nm, &S->w, f))
        return ul_fail(err, errlen, UL_EINPUT,
                       "grid-step: %g: out of memory for the FFT twiddles", h);
    return UL_OK;
}

/* The certified ends at the box [eps_lo, eps_hi] (§4). */
static void dir_read(dir_state *S, mpfr_srcptr eps_lo, mpfr_srcptr eps_hi, dir_result *res,
                     bool want_hi, bool want_lo)
{
    if (want_hi)
        upper_end(res->hi, res, &S->c, &S->w, S->h, eps_lo, S->E2, S->pinf);
    if (want_lo)
        lower_end(res->lo, res, &S->c, &S->w, S->ds, S->nd, S->h, S->T, eps_lo, eps_hi, S->E2);
}

static ul_status evaluate_direction(mech *ms, size_t nm, mpfi_srcptr eps, double h, double tau,
                                    const fft_format *f, unsigned long max_points,
                                    dir_result *res, char *err, size_t errlen)
{
    dir_state S;
    ul_status st = dir_build(&S, ms, nm, h, tau, f, max_points, res, err, errlen);
    if (st == UL_OK) {
        mpfr_t eps_lo, eps_hi;
        mpfr_inits2(BUDGET_PREC, eps_lo, eps_hi, (mpfr_ptr)0);
        mpfi_get_left(eps_lo, eps);
        mpfi_get_right(eps_hi, eps);
        dir_read(&S, eps_lo, eps_hi, res, true, true);
        mpfr_clears(eps_lo, eps_hi, (mpfr_ptr)0);
    }
    dir_free(&S);
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
                                unsigned long max_points, dir_brackets *db, round_result *rr,
                                char *err, size_t errlen)
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
        st = evaluate_direction(ms, nm, eps, h, tau, f, max_points, &d, err, errlen);
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
        return ul_fail(err, errlen, UL_ETIME,
                       "the time budget (%g s) ran out during the PLD composition",
                       ul_deadline_seconds());
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

    direction dirs[2];
    size_t ndirs = directions_of(ms, nm, o, dirs);

    bool fixed = o->grid_step > 0, tau_auto = o->tail_bound == 0;
    double tau = tau_auto ? DEFAULT_TAIL : o->tail_bound;
    double h = fixed ? o->grid_step : initial_step(ms, nm, tau, o->max_points);
    const fft_format *f = o->fft == UL_PLD_FFT_LONG_DOUBLE ? &FORMAT_LONG : &FORMAT_DOUBLE;

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
        double t0 = wall_seconds();
        h_prev = h;
        ul_status rs = evaluate_round(ms, nm, dirs, ndirs, eps, h, tau, f, o->max_points, &db,
                                      &rr, rerr, sizeof rerr);
        last = wall_seconds() - t0;
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
            target_gap = 0.95 * tgt - rr.rounding - rr.tails;
        }
        /* the CTD excess bound, which dominates the gap, is ~ T·h² (§1) */
        double factor = (target_gap > 0 && rr.gap > 0) ? sqrt(target_gap / rr.gap) : 1.0 / 32;
        factor = fmin(fmax(factor, MIN_FACTOR), 0.9);
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
                tau = fmin(fmax(2.5e-2 * o->rel_width * lo_d, 1e-300), 1e-10);
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
    dir_brackets_clear(&db);
    mpfr_clears(rr.lo, rr.hi, rr.best.lo, rr.best.hi, (mpfr_ptr)0);
    mpfr_clears(best_lo, best_hi, width, target, (mpfr_ptr)0);
    mpfi_clear(eps);
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
} pess_model;

static bool pess_model_init(pess_model *pm, const dir_state *S)
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
    pm->A[N] = pm->B[N] = 0;
    for (size_t j = N; j-- > 0;) {
        double z = (double)composed_at(&S->c, &S->w, S->w.m_lo + (double)j) * scale;
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

static double model_delta(const pess_model *pm, double eps)
{
    size_t j = model_index(pm, eps);
    if (j >= pm->N)
        return 0;
    return pm->A[j] - exp(fmin(0, eps - (pm->l0 + (double)j * pm->h))) * pm->B[j];
}

static double model_slope(const pess_model *pm, double eps)
{
    size_t j = model_index(pm, eps);
    if (j >= pm->N)
        return 0;
    return exp(fmin(0, eps - (pm->l0 + (double)j * pm->h))) * pm->B[j];
}

/* The ε ≥ 0 where model_delta(ε) + c crosses target (bisection; the model
 * is nonincreasing): 0 when it is below target at 0, +∞ when it never is
 * within the window and ε ≤ 1000. */
static double model_root(const pess_model *pm, double c, double target)
{
    double a = 0, b = fmin(pm->l0 + (double)pm->N * pm->h, 1000);
    if (model_delta(pm, a) + c <= target)
        return 0;
    if (!(b > 0) || model_delta(pm, b) + c > target)
        return INFINITY;
    for (int i = 0; i < 200 && b - a > 1e-15 * fmax(1, b); i++) {
        double mid = 0.5 * (a + b);
        if (model_delta(pm, mid) + c > target)
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
    dir_read(S, e, e, r, true, false);
    mpfr_clear(e);
    return mpfr_lessequal_p(r->hi, delta_lo);
}

/* lo(ε) > δ_hi certified at the double ε. */
static bool certify_lo(dir_state *S, double eps, mpfr_srcptr delta_hi, dir_result *r)
{
    mpfr_t e;
    mpfr_init2(e, 64);
    mpfr_set_d(e, eps, MPFR_RNDN);
    dir_read(S, e, e, r, false, true);
    mpfr_clear(e);
    return mpfr_greater_p(r->lo, delta_hi);
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
    dir_read(S, e, e, &out->res, true, true);
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
    double c = 1.05 * ex_hi + 1e-300;
    for (int t = 0; t < EPS_TRIES; t++, c *= 2) {
        double x = model_root(pm, c, dd);
        if (!isfinite(x))
            break;
        if (certify_hi(S, x, &delta->left, &r)) {
            out->eps_hi = x;
            break;
        }
    }
    c = 1.05 * ex_lo + 1e-300;
    for (int t = 0; t < EPS_TRIES; t++, c *= 2) {
        double x = model_root(pm, -c, dd);
        if (!(x > 0) || !isfinite(x))
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
                           unsigned long max_points, dir_brackets *db, eps_dir *top,
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
        st = dir_build(&S, ms, nm, h, tau, f, max_points, &ed.res, err, errlen);
        pess_model pm = {NULL, NULL, 0, 0, 0};
        if (st == UL_OK && !pess_model_init(&pm, &S))
            st = ul_fail(err, errlen, UL_EINPUT, "grid-step: %g: out of memory", h);
        if (st == UL_OK) {
            eps_direction(&S, &pm, delta, &ed);
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
        dir_free(&S);
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
        *tau = fmin(fmax(2.5e-2 * dwidth, 1e-300), 1e-10);
    return h * factor;
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
static ul_status drive_eps(mech *ms, size_t nm, const char *delta_text, const ul_pld_options *o,
                           mpfr_ptr eps_lo, mpfr_ptr eps_hi, ul_pld_report *report, char *err,
                           size_t errlen)
{
    double t_start = wall_seconds();
    mpfi_t delta;
    mpfi_init2(delta, INPUT_PREC);
    ul_status st = ul_num_read_checked(delta, "delta", delta_text, "0", true, "1", true, err,
                                       errlen);
    if (st != UL_OK) {
        mpfi_clear(delta);
        return st;
    }
    direction dirs[2];
    size_t ndirs = directions_of(ms, nm, o, dirs);
    bool fixed = o->grid_step > 0;
    double tau = o->tail_bound == 0 ? DEFAULT_TAIL : o->tail_bound;
    double h = fixed ? o->grid_step : initial_step(ms, nm, tau, o->max_points);
    const fft_format *f = o->fft == UL_PLD_FFT_LONG_DOUBLE ? &FORMAT_LONG : &FORMAT_DOUBLE;
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
        double t0 = wall_seconds();
        char rerr[256] = "";
        ul_status rs = eps_round(ms, nm, dirs, ndirs, delta, h, tau, f, o->max_points, &db, &top,
                                 &top_dir, rerr, sizeof rerr);
        rounds++;
        last = wall_seconds() - t0;
        if (rs != UL_OK) {
            if (!have) {
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
        if (u - l <= o->rel_width * u) {
            st = UL_OK;
            break;
        }
        double target = o->rel_width * (isfinite(u) ? u : fmax(1, l));
        if (top.rounding > 0.25 * target * top.slope && !f->is_long &&
            o->fft == UL_PLD_FFT_AUTO) {
            f = &FORMAT_LONG; /* same grid, long double */
            continue;
        }
        double h_new = fixed ? 0 : eps_next_step(&top, h, target, o, &tau, why, sizeof why);
        if (fixed)
            snprintf(why, sizeof why, "grid-step %g is too coarse for the relative width asked "
                     "(%g); the bracket is sound", h, o->rel_width);
        done = !(h_new > 0);
        growth = done ? 1 : h / h_new;
        h = done ? h : h_new;
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
    st = read_list(ms, mechs, phases, count, o->adjacency == UL_PLD_REPLACE, &nread, err, errlen);
    if (st == UL_OK && kind == QUERY_DELTA)
        st = drive(ms, count, arg, o, lo, hi, report, err, errlen);
    else if (st == UL_OK)
        st = drive_eps(ms, count, arg, o, lo, hi, report, err, errlen);
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
