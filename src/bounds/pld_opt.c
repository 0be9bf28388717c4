/* src/bounds/pld_opt.c — the optimistic array: a grid measure whose privacy
 * curve lies below the true one at every ε, so its composition bounds δ(ε)
 * from below with no excess term (pld.c §1).
 *
 * WHY ITS COMPOSITION IS BELOW.  For a nonnegative measure p on losses write
 * D_p(γ) = Σ_k p_k (1 − γe^{−ℓ_k})₊, γ = e^ε (its δ(ε)).  For a product pair
 * δ₁₂(γ) = E_{L₂∼P₂}[δ₁(γe^{−L₂})] = Σ_k p₁k δ₂(γe^{−ℓ_k}) when step 1 is the
 * measure p₁.  So if every step's opt measure o_t satisfies
 *     D_{o_t}(γ) ≤ δ_t(γ) + ε_t·φ_t(γ),  φ_t(γ) = (1 − γe^{−u_t})₊  (all γ > 0)
 * (ε_t ≥ 0 a slack sitting at the loss u_t just above the grid), then by
 * induction over the steps, replacing one δ_t by D_{o_t} at a time,
 *     D_{o_1 ∗ … ∗ o_T}(γ) ≤ δ_{1…T}(γ) + Σ_t ε_t·D_{W_{−t}}(γe^{−u_t}),
 * where W_{−t} composes, for every other step s, a measure whose curve is
 * above both δ_s and D_{o_s}: W_s = F_s + p∞_s·(an atom at +∞), F_s =
 * pess_s + ε_s·(an atom at u_s), will do (pess with its mass at +∞
 * dominates the step, pld.c §1).  The compositions with an atom at +∞ weigh
 * at most (Σ_s p∞_s)·M′^{T−1}; the finite part's term is at most, for any
 * λ ≥ 0 ((1 − e^{x−ℓ})₊ ≤ e^{λ(ℓ−x)}), ε_t·e^{−λ(ε − u_t)}·Π_{s≠t} M_{F_s}(λ):
 * with the arrays tilted by e^{λℓ − L_s} (pld_tilt.c) that is
 *     K(ε)·ε̃_t·Π_{s≠t}(S̃_s + ε̃_s),   ε̃_t = ε_t·e^{λu_t − L_t},
 * S̃_s the tilted pess sum and K(ε) = e^{A − λε}; untilted, λ = 0 and K = 1.
 * So the lower end subtracts K(ε)·(Σ_i T_i ε̃_i)·M^{T−1}, M = max_i(S̃_i + ε̃_i),
 * plus (Σ_i T_i ε_i)·(Σ_i T_i p∞_i)·M′^{T−1} (pld_compose.c, opt_slack).  Without the slack this is the monotonicity
 * of ⊗ in Dong, Roth, Su 2022, "Gaussian differential privacy", JRSS-B, §3.
 *
 * THE CURVE.  δ(γ) = E_P[(1 − γe^{−L})₊] is convex in γ, δ′(γ) = −Q[L > log γ].
 * The connect-the-dots atoms m_k (pld.c §1) give the chord interpolation δ_A
 * of δ at the grid points γ_k = e^{ℓ_k}.  On the segment of bin j =
 * (ℓ_{j−1}, ℓ_j] only bin j's curve bends; with its split a_j, b_j the two
 * one-sided slope gaps are A = a_j/γ_{j−1} and B = b_j/γ_j, and convexity
 * (δ above its tangents at both ends) bounds the chord's excess by
 * min(A(γ − γ_{j−1}), B(γ_j − γ)), a tent.  A line below the chord by c_{j−1}
 * at γ_{j−1} and 0 at γ_j clears the tent when c_{j−1} ≥ B·(γ_j − γ_{j−1}) =
 * (1 − e^{−h})·b_j ("left-loaded"); one with 0 at γ_{j−1} and c_j at γ_j when
 * c_j ≥ A·(γ_j − γ_{j−1}) = (e^h − 1)·a_j ("right-loaded").  Bins at or
 * below the mode k_m are right-loaded, those above left-loaded:
 *     c_k = (e^h − 1)a_k (k < k_m),  (1 − e^{−h})b_{k+1} (k > k_m),  the larger
 *     of both at k_m,
 * zero at both ends of the grid.  D = δ_A − C (C the piecewise-linear
 * interpolation of the c_k, 0 outside the grid) is ≤ δ and has kinks only
 * at grid points, so it is D_p of the masses
 *     p_k = m_k − J_k,   J_k = [c_{k+1} − (1 + e^h)c_k + e^h c_{k−1}]/(e^h − 1)
 * (e^{ℓ_k} times the jump of C's slope at γ_k).  Below the mode this is
 * p_k = P_k + e^h(a_k − a_{k−1}), above it p_k = P_{k+1} + (b_{k+1} − b_{k+2})/e^h
 * (P_j = a_j + b_j): nonnegative wherever the atoms rise towards the mode.
 * The deficit C is of the order h·(one bin's mass): second order in h, as
 * the upper end's gap.
 *
 * NEGATIVE MASSES.  Where a p_k is negative (rounding at the ends, where the
 * exact p is 0, or a local dip) it is pushed up the grid: for γ fixed,
 * (1 − γe^{−ℓ_k})₊ increases with k, so replacing masses d by masses d′ with
 * every suffix sum Σ_{k≥m} d′_k ≤ Σ_{k≥m} d_k lowers D (the step functions
 * 1{k ≥ m} span the nondecreasing weights).  The sweep keeps
 * o_k + debt_out = p_k + debt_in with o_k ≥ 0 and debt ≤ 0, so the suffix
 * sums only drop; what is left after the virtual point n, ε = −debt, stays
 * there as a negative atom: D_o − ε·(1 − γe^{−ℓ_n})₊ ≤ D_p ≤ δ, the slack above
 * with u = ℓ_n.
 *
 * ROUNDING.  The c_k are declared doubles, each at least its exact
 * requirement (upper ends of a_j, b_j, coefficients rounded up); the m_k are
 * the lower ends of the atoms' enclosures; J_k is bounded above with 16u of
 * its terms' sum (E and e^h − 1 within u of the exact values, four
 * operations); every difference and sum of the sweep is rounded down. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "bounds/pld_internal.h"

#define U_D 0x1p-53 /* unit roundoff of double */

/* ≤ x (one ulp below the nearest double of an exact x ≥ 0 … any sign). */
static double below(double x)
{
    return nextafter(x, -INFINITY) - fabs(x) * 2 * U_D;
}
static double above(double x)
{
    return nextafter(x, INFINITY) + fabs(x) * 2 * U_D;
}

typedef struct {
    double E, Em1;               /* e^h, e^h − 1, nearest */
    double em1_up, omemh_up;     /* ≥ e^h − 1, ≥ 1 − e^{−h} */
} opt_consts;

static void opt_consts_init(opt_consts *k, double h)
{
    mpfr_t t;
    mpfr_init2(t, 64);
    mpfr_set_d(t, h, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    k->E = mpfr_get_d(t, MPFR_RNDN);
    mpfr_set_d(t, h, MPFR_RNDN);
    mpfr_expm1(t, t, MPFR_RNDU);
    k->Em1 = mpfr_get_d(t, MPFR_RNDN);
    k->em1_up = mpfr_get_d(t, MPFR_RNDU);
    mpfr_set_d(t, -h, MPFR_RNDN);
    mpfr_expm1(t, t, MPFR_RNDD); /* e^{−h} − 1, rounded down: its negation up */
    mpfr_neg(t, t, MPFR_RNDU);
    k->omemh_up = mpfr_get_d(t, MPFR_RNDU);
    mpfr_clear(t);
}

/* c_k (file comment): a_up[j], b_up[j] ≥ bin j's split, j = 1 … n−1. */
static double c_at(const double *a_up, const double *b_up, size_t n, size_t km, long k,
                   const opt_consts *kc)
{
    if (k < 0 || (size_t)k >= n)
        return 0;
    size_t i = (size_t)k;
    double right = i >= 1 && i <= km ? above(kc->em1_up * a_up[i]) : 0;
    double left = i >= km && i + 1 < n ? above(kc->omemh_up * b_up[i + 1]) : 0;
    return right > left ? right : left;
}

/* ≥ J_k = [c_{k+1} − (1 + e^h)c_k + e^h c_{k−1}]/(e^h − 1) for declared c's. */
static double j_up(double cm, double c, double cp, const opt_consts *k)
{
    double t = cp + k->E * cm - (1 + k->E) * c;
    double s = cp + k->E * cm + (1 + k->E) * c;
    double q = (t + 16 * U_D * s) / k->Em1;
    /* gradual underflow: the three products err by ≤ 2^-1075 each, absolute,
     * which the division by e^h − 1 ≈ h magnifies (16u·s underflows there) */
    return above(q) + above(0x1p-1068 / k->Em1);
}

/* Builds the optimistic masses in place.  On entry d->opt[k] ≤ the exact
 * CTD atom at ℓ_k from the bins inside the grid, a_up[j], b_up[j] ≥ bin j's
 * split (j = 1 … n−1), d->pess the stored atoms (for the mode).  On return
 * d->opt[k] ≥ 0 are masses o with D_o ≤ δ + d->opt_debt at every ε (file
 * comment), d->opt_debt ≥ 0, d->sum_opt ≥ Σ o. */
/* The sweep (file comment) for the mode km: writes the masses into out
 * when out is not NULL; returns the debt left (≥ 0).  It runs over the
 * virtual points −1 and n too: C may be nonzero at a grid end (the mode
 * there), and its return to 0 outside the grid leaves a nonpositive mass at
 * the neighbour point (no atom there). */
static double sweep(double *out, const double *m_lo, const double *a_up, const double *b_up,
                    size_t n, size_t km, const opt_consts *kc)
{
    double debt = 0; /* ≤ 0 */
    double cm = 0, c = 0, cp = c_at(a_up, b_up, n, km, 0, kc);
    for (long i = -1; i <= (long)n; i++) {
        bool in = i >= 0 && i < (long)n;
        double p = below((in ? m_lo[i] : 0) - j_up(cm, c, cp, kc)); /* ≤ p_i */
        double s = below(p + debt);
        if (in && out != NULL)
            out[i] = s > 0 ? s : 0;
        debt = s > 0 && in ? 0 : fmin(s, 0);
        cm = c;
        c = cp;
        cp = c_at(a_up, b_up, n, km, i + 2, kc);
    }
    return debt < 0 ? above(-debt) : 0;
}

/* Builds the optimistic masses in place.  On entry d->opt[k] ≤ the exact
 * CTD atom at ℓ_k from the bins inside the grid, a_up[j], b_up[j] ≥ bin j's
 * split (j = 1 … n−1), d->pess the stored atoms.  On return d->opt[k] ≥ 0
 * are masses o with D_o ≤ δ + d->opt_debt·(1 − γe^{−ℓ_n})₊ at every γ (file
 * comment), d->sum_opt ≥ Σ o.  Any split point km is valid; the largest
 * atom is the natural one, but a loss with a spike at a support edge (ADD's
 * top, REMOVE's bottom) on a coarse grid can leave a large debt there, so
 * the grid's two ends are tried too and the smallest debt kept. */
void ul_pld_opt_build(disc *d, const double *a_up, const double *b_up, double h)
{
    size_t n = d->n, km = 0;
    for (size_t i = 1; i < n; i++)
        if (d->pess[i] > d->pess[km])
            km = i;
    opt_consts kc;
    opt_consts_init(&kc, h);
    size_t cand[3] = {km, 0, n - 1};
    double best = INFINITY;
    for (int c = 0; c < 3; c++) {
        double debt = sweep(NULL, d->opt, a_up, b_up, n, cand[c], &kc);
        if (debt < best) {
            best = debt;
            km = cand[c];
        }
    }
    d->opt_debt = sweep(d->opt, d->opt, a_up, b_up, n, km, &kc);
    mpfr_set_zero(d->sum_opt, 1);
    for (size_t i = 0; i < n; i++)
        mpfr_add_d(d->sum_opt, d->sum_opt, d->opt[i], MPFR_RNDU);
}
