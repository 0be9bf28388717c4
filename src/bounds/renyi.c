/* src/bounds/renyi.c — Rényi DP: Gaussian, composition, group privacy, the
 * weak triangle inequality, conversions to (ε, δ), the subsampled Gaussian.
 *
 * Rounding.  Every quantity is an MPFI interval and MPFI rounds each
 * operation outward, so a formula evaluated in interval arithmetic over
 * boxes encloses its value at every point of the boxes.  Where this file
 * builds an interval from endpoints by hand (min, clamps, tail bounds) it
 * rounds lower ends toward −∞ and upper ends toward +∞; each such place says
 * why the construction is sound.  Doubles appear only in the α search and in
 * choosing working precisions, never in a bound.
 *
 * Sources.
 *   [M17]   Mironov, "Rényi Differential Privacy", CSF 2017 (arXiv 1702.07476):
 *           Prop. 1 composition, Prop. 3 RDP → (ε, δ), Prop. 7 Gaussian,
 *           Cor. 4 weak triangle inequality.
 *   [H.2]   Chien et al. 2024, Prop H.2, eqs. (52) and (57) (Chien et al.
 *           2024, App. H, restating [M17] Cor. 4).
 *   [BBGHS] Balle, Barthe, Gaboardi, Hsu, Sato 2020 (arXiv 1905.09982) Thm 21
 *           = Canonne, Kamath, Steinke 2020 (arXiv 2004.00010) Prop. 12;
 *           as used by dp_accounting compute_epsilon / compute_delta
 *           (dp_accounting v0.6.0 rdp_privacy_accountant.py), with its KL shortcut.
 *   [BH]    Bretagnolle–Huber: TV(P, Q) ≤ √(1 − e^{−KL(P‖Q)}); with
 *           KL = D_1 ≤ D_α (monotonicity in α, [M17] Prop. 9 / van Erven–
 *           Harremoës 2014 Thm 3) it gives (0, δ)-DP for δ ≥ √(1 − e^{−ρ}).
 *   [MTZ]   Mironov, Talwar, Zhang, "Rényi Differential Privacy of the
 *           Sampled Gaussian Mechanism" 2019 (arXiv 1908.10530), §3.3.
 */
#include "bounds/renyi.h"

#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/bounds_util.h"
#include "num/deadline.h"
#include "num/gauss_tail.h"
#include "num/domain.h"
#include "num/input.h"

/* ---- conversion names ------------------------------------------------------ */

ul_status ul_renyi_parse_conversion(const char *name, ul_rdp_conversion *conv, char *err,
                                    size_t errlen)
{
    if (name == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "conversion: missing");
    if (strcmp(name, "mironov") == 0) {
        *conv = UL_RDP_MIRONOV;
        return UL_OK;
    }
    if (strcmp(name, "bbghs") == 0) {
        *conv = UL_RDP_BBGHS;
        return UL_OK;
    }
    return ul_fail(err, errlen, UL_EINPUT, "conversion: must be mironov or bbghs (got '%s')", name);
}

const char *ul_renyi_conversion_name(ul_rdp_conversion conv)
{
    return conv == UL_RDP_MIRONOV ? "mironov" : conv == UL_RDP_BBGHS ? "bbghs" : "unknown";
}

static bool conversion_valid(ul_rdp_conversion conv)
{
    return conv == UL_RDP_MIRONOV || conv == UL_RDP_BBGHS;
}

/* ---- interval helpers ------------------------------------------------------- */

/* x ← x ∩ [0, +∞) by raising a negative lower end to 0: sound whenever the
 * true value is known to be ≥ 0.  Also max(x, 0) for a function clamped at 0. */
static void clamp_nonneg(mpfi_ptr x)
{
    if (mpfr_sgn(&x->left) < 0) {
        mpfr_t lo, hi;
        mpfr_inits2(mpfi_get_prec(x), lo, hi, (mpfr_ptr)0);
        mpfr_set_zero(lo, 1);
        mpfr_set(hi, &x->right, MPFR_RNDU);
        if (mpfr_sgn(hi) < 0)
            mpfr_set_zero(hi, 1);
        mpfi_interv_fr(x, lo, hi);
        mpfr_clears(lo, hi, (mpfr_ptr)0);
    }
}

/* x ← min(x, 0) (upper end lowered to 0): sound for a quantity capped at 0. */
static void clamp_nonpos(mpfi_ptr x)
{
    if (mpfr_sgn(&x->right) > 0) {
        mpfr_t lo, hi;
        mpfr_inits2(mpfi_get_prec(x), lo, hi, (mpfr_ptr)0);
        mpfr_set(lo, &x->left, MPFR_RNDD);
        if (mpfr_sgn(lo) > 0)
            mpfr_set_zero(lo, 1);
        mpfr_set_zero(hi, 1);
        mpfi_interv_fr(x, lo, hi);
        mpfr_clears(lo, hi, (mpfr_ptr)0);
    }
}

/* out ⊇ log(1 + e^L) (softplus), in the form that neither overflows nor
 * loses relative accuracy: L + log1p(e^{−L}) when L ≥ 0, log1p(e^L) else. */
static void softplus(mpfi_ptr out, mpfi_srcptr l)
{
    mpfi_t t;
    mpfi_init2(t, mpfi_get_prec(out) + 8);
    if (mpfr_sgn(&l->left) >= 0) {
        mpfi_neg(t, l);
        mpfi_exp(t, t);
        mpfi_log1p(t, t);
        mpfi_add(out, t, l);
    } else {
        mpfi_exp(t, l);
        mpfi_log1p(out, t);
    }
    mpfi_clear(t);
}

/* out ⊇ log(e^x − 1) for x > 0: x + log(−expm1(−x)) for x ≥ 1 (no
 * overflow), log(expm1(x)) below (no cancellation). */
static void log_expm1(mpfi_ptr out, mpfi_srcptr x)
{
    mpfi_t t;
    mpfi_init2(t, mpfi_get_prec(out) + 8);
    if (mpfr_cmp_ui(&x->left, 1) >= 0) {
        mpfi_neg(t, x);
        mpfi_expm1(t, t);
        mpfi_neg(t, t);
        mpfi_log(t, t);
        mpfi_add(out, t, x);
    } else {
        mpfi_expm1(t, x);
        mpfi_log(out, t);
    }
    mpfi_clear(t);
}

/* ---- conversions ------------------------------------------------------------ */

/* eps ⊇ ε(α, ρ, δ) as ul_renyi_eps_enclose, and which bound decided it. */
static ul_rdp_decider eps_enclose_by(mpfi_ptr eps, mpfi_srcptr alpha, mpfi_srcptr rho,
                                     mpfi_srcptr delta, ul_rdp_conversion conv)
{
    ul_num_init();
    mpfr_prec_t w = mpfi_get_prec(eps) + 16;
    mpfi_t am1, t, u, f;
    mpfi_init2(am1, w);
    mpfi_init2(t, w);
    mpfi_init2(u, w);
    mpfi_init2(f, w);
    mpfi_sub_ui(am1, alpha, 1);
    mpfi_log(t, delta);
    ul_rdp_decider by = UL_RDP_BY_MIRONOV;

    if (conv == UL_RDP_MIRONOV) {
        /* [M17] Prop. 3: ε = ρ + log(1/δ)/(α−1) > 0. */
        mpfi_div(t, t, am1);
        mpfi_sub(eps, rho, t);
    } else {
        /* [BBGHS]: ε = ρ + log1p(−1/α) − (log δ + log α)/(α−1). */
        mpfi_log(u, alpha);
        mpfi_add(t, t, u);
        mpfi_div(t, t, am1);
        mpfi_inv(u, alpha);
        mpfi_neg(u, u);
        mpfi_log1p(u, u);
        mpfi_add(f, rho, u);
        mpfi_sub(f, f, t);
        by = mpfr_sgn(&f->left) > 0    ? UL_RDP_BY_BBGHS
             : mpfr_sgn(&f->right) <= 0 ? UL_RDP_BY_CLAMP
                                        : UL_RDP_BY_UNDECIDED;
        /* (ε', δ)-DP with ε' < 0 implies (0, δ)-DP: E_γ decreases in γ. */
        clamp_nonneg(f);

        /* [BH] shortcut: ε = 0 when δ² + expm1(−ρ) ≥ 0. */
        mpfi_sqr(t, delta);
        mpfi_neg(u, rho);
        mpfi_expm1(u, u);
        mpfi_add(t, t, u);
        if (mpfr_sgn(&t->left) >= 0) {
            mpfi_set_ui(eps, 0);
            by = UL_RDP_BY_KL;
        } else if (mpfr_sgn(&t->right) < 0) {
            mpfi_set(eps, f);
        } else {
            /* undecided at this precision: the value is 0 or f, both ≥ 0 */
            mpfr_t lo, hi;
            mpfr_inits2(mpfi_get_prec(eps), lo, hi, (mpfr_ptr)0);
            mpfr_set_zero(lo, 1);
            mpfr_set(hi, &f->right, MPFR_RNDU);
            mpfi_interv_fr(eps, lo, hi);
            mpfr_clears(lo, hi, (mpfr_ptr)0);
            by = UL_RDP_BY_UNDECIDED;
        }
    }
    mpfi_clear(am1);
    mpfi_clear(t);
    mpfi_clear(u);
    mpfi_clear(f);
    return by;
}

void ul_renyi_eps_enclose(mpfi_ptr eps, mpfi_srcptr alpha, mpfi_srcptr rho, mpfi_srcptr delta,
                          ul_rdp_conversion conv)
{
    (void)eps_enclose_by(eps, alpha, rho, delta, conv);
}

ul_rdp_decider ul_renyi_rdp_to_dp_decider(const char *alpha, const char *rdp, const char *delta,
                                          ul_rdp_conversion conv, mpfr_prec_t max_bits)
{
    ul_rdp_decider by = UL_RDP_BY_UNDECIDED;
    for (mpfr_prec_t p = 64; by == UL_RDP_BY_UNDECIDED && p <= max_bits; p *= 2) {
        mpfi_t a, r, d, e;
        mpfi_init2(a, p);
        mpfi_init2(r, p);
        mpfi_init2(d, p);
        mpfi_init2(e, p);
        ul_num_set_valid(a, alpha); /* validated by ul_renyi_rdp_to_dp_certified */
        ul_num_set_valid(r, rdp);
        ul_num_set_valid(d, delta);
        by = eps_enclose_by(e, a, r, d, conv);
        mpfi_clear(a);
        mpfi_clear(r);
        mpfi_clear(d);
        mpfi_clear(e);
    }
    return by;
}

const char *ul_renyi_decider_name(ul_rdp_decider by)
{
    static const char *const names[] = {"mironov", "bbghs", "bbghs_clamp", "kl"};
    return by >= UL_RDP_BY_MIRONOV && by <= UL_RDP_BY_KL ? names[by] : NULL;
}

void ul_renyi_log_delta_enclose(mpfi_ptr log_delta, mpfi_srcptr alpha, mpfi_srcptr rho,
                                mpfi_srcptr eps, ul_rdp_conversion conv)
{
    ul_num_init();
    mpfr_prec_t w = mpfi_get_prec(log_delta) + 16;
    mpfi_t am1, f, u;
    mpfi_init2(am1, w);
    mpfi_init2(f, w);
    mpfi_init2(u, w);
    mpfi_sub_ui(am1, alpha, 1);
    mpfi_sub(f, rho, eps);

    if (conv == UL_RDP_MIRONOV) {
        /* [M17] Prop. 3 solved for δ: log δ = (α−1)(ρ − ε). */
        mpfi_mul(f, f, am1);
    } else {
        /* [BBGHS]: log δ = (α−1)(ρ − ε + log1p(−1/α)) − log α. */
        mpfi_inv(u, alpha);
        mpfi_neg(u, u);
        mpfi_log1p(u, u);
        mpfi_add(f, f, u);
        mpfi_mul(f, f, am1);
        mpfi_log(u, alpha);
        mpfi_sub(f, f, u);
        /* [BH]: δ(ε) ≤ δ(0) = TV ≤ √(1 − e^{−ρ}) for ε ≥ 0;
         * ½·log1p(−e^{−ρ}) is −inf at ρ = 0 (identical distributions). */
        mpfi_neg(u, rho);
        mpfi_exp(u, u);
        mpfi_neg(u, u);
        mpfi_log1p(u, u);
        mpfi_div_2ui(u, u, 1);
        ul_bounds_interval_min(f, f, u);
    }
    clamp_nonpos(f); /* δ ≤ 1 always holds */
    mpfi_set(log_delta, f);
    mpfi_clear(am1);
    mpfi_clear(f);
    mpfi_clear(u);
}

/* ---- Gaussian, weak triangle ----------------------------------------------- */

void ul_renyi_gauss_rdp(mpfi_ptr rho, mpfi_srcptr alpha, mpfi_srcptr r)
{
    /* [M17] Prop. 7: D_α(N(0,σ²)‖N(Δ,σ²)) = αΔ²/(2σ²) = α r²/2. */
    mpfi_t t;
    mpfi_init2(t, mpfi_get_prec(rho) + 8);
    mpfi_sqr(t, r);
    mpfi_mul(t, t, alpha);
    mpfi_div_2ui(rho, t, 1);
    mpfi_clear(t);
}

void ul_renyi_weak_triangle(mpfi_ptr out, mpfi_srcptr alpha, mpfi_srcptr p, mpfi_srcptr d_pq,
                            mpfi_srcptr d_qr)
{
    /* [H.2]: ((α − 1/p)/(α − 1))·D_{pα}(P‖Q) + D_{q(α−1/p)}(Q‖R). */
    mpfr_prec_t w = mpfi_get_prec(out) + 16;
    mpfi_t c, t;
    mpfi_init2(c, w);
    mpfi_init2(t, w);
    mpfi_inv(c, p);
    mpfi_sub(c, alpha, c);
    mpfi_sub_ui(t, alpha, 1);
    mpfi_div(c, c, t);
    mpfi_mul(c, c, d_pq);
    mpfi_add(out, c, d_qr);
    mpfi_clear(c);
    mpfi_clear(t);
}

void ul_renyi_weak_triangle_difference(mpfi_ptr out, mpfi_srcptr alpha, mpfi_srcptr d_pq,
                                       mpfi_srcptr d_qr)
{
    /* [H.2] eq. (57): ((α − 1/2)/(α − 1))·(d_{2α}(P,Q) + d_{2α}(Q,R)). */
    mpfr_prec_t w = mpfi_get_prec(out) + 16;
    mpfi_t c, t;
    mpfi_init2(c, w);
    mpfi_init2(t, w);
    mpfi_mul_2ui(c, alpha, 1);
    mpfi_sub_ui(c, c, 1);
    mpfi_sub_ui(t, alpha, 1);
    mpfi_mul_2ui(t, t, 1);
    mpfi_div(c, c, t); /* (2α − 1)/(2α − 2) */
    mpfi_add(t, d_pq, d_qr);
    mpfi_mul(out, c, t);
    mpfi_clear(c);
    mpfi_clear(t);
}

/* ---- the Poisson-subsampled Gaussian ---------------------------------------- *
 *
 * [MTZ] §3.3: with μ0 = N(0,σ²), μ1 = N(1,σ²), μ = (1−q)μ0 + qμ1, the RDP at
 * order α is ρ(α) = log(A_α)/(α−1), A_α = E_{μ0}[(μ/μ0)^α] (MTZ §3 show that
 * of the two orders of the pair, D_α(μ‖μ0) is the larger).
 *
 * Integer α (MTZ §3.3, binomial expansion of (1−q + q·μ1/μ0)^α):
 *     A_α = Σ_{k=0}^{α} C(α,k)(1−q)^{α−k} q^k e^{(k²−k)/(2σ²)}.
 * Since Σ_k C(α,k)(1−q)^{α−k}q^k = 1 and the k = 0, 1 exponents vanish,
 *     A_α − 1 = Σ_{k=2}^{α} C(α,k)(1−q)^{α−k} q^k expm1((k²−k)/(2σ²)),
 * all terms positive: log A_α = log1p(A_α − 1) loses nothing when A_α ≈ 1.
 * C(α,k) is an exact GMP integer.
 *
 * Fractional α (MTZ §3.3; dp_accounting _compute_log_a_frac, the signed
 * series dp_accounting used before commit 0b109e9).  Split the real line at
 * z0 = σ²·log(1/q − 1) + ½, where qμ1 = (1−q)μ0; below z0 put
 * x(z) = qμ1/((1−q)μ0) = e^{(z−z0)/σ²} ∈ (0, 1], above it y = 1/x ∈ (0, 1],
 * and expand (1 + x)^α, (1 + y)^α by the binomial series (convergent and
 * dominated on [0, 1] since α > 0, so sum and integral commute):
 *     A_α = Σ_{i≥0} C(α,i) (I_i + J_i),
 *     I_i = (1−q)^{α−i} q^i e^{(i²−i)/(2σ²)} Q((i − z0)/σ)
 *         = (1−q)^α ∫_{−∞}^{z0} μ0 x^i,
 *     J_i = q^{α−i} (1−q)^i e^{(j²−j)/(2σ²)} Q((z0 − j)/σ),  j = α − i,
 *         = ∫_{z0}^{∞} μ0^{1−α}(qμ1)^α y^i,
 * with Q the normal tail.  C(α,i) > 0 for i ≤ n = ⌈α⌉ and its sign
 * alternates after, so A_α = Σ_{i<n} C(α,i)(I_i + J_i) + T with
 *     T = Σ_{k≥0} (−1)^k a_{n+k},   a_i = |C(α,i)|·(I_i + J_i).
 *
 * [DERIVED] the tail bound.  (a_{n+k})_{k≥0} is a Hausdorff moment sequence:
 * |C(α,n+k)| = c·Γ(n+k−α)/Γ(n+k+1) = c'·∫_0^1 t^k t^{n−α−1}(1−t)^α dt (beta
 * integral, n − α > 0), and I_{n+k}, J_{n+k} are moments ∫ x^k dν, ∫ y^k dν'
 * of positive measures on (0, 1]; a product and a sum of moment sequences is
 * one, so a_{n+k} = ∫_{[0,1]} u^k dλ(u) for a finite positive λ without an
 * atom at 1.  Hence T = ∫ dλ/(1+u), and with 1/(1+u) = Σ_m (1−u)^m/2^{m+1},
 * whose remainder after M terms is (1−u)^M/(2^M(1+u)) ∈ [0, (1−u)^M/2^M]:
 *     T ∈ [ E_M, E_M + d_M/2^M ],  E_M = Σ_{m<M} d_m/2^{m+1},
 *     d_m = ∫(1−u)^m dλ = (−1)^m Δ^m a_n ≥ 0
 * (forward differences of the computed terms; the Euler transform of the
 * alternating tail).  M = 0 is the plain alternating-series bound
 * T ∈ [0, a_n].  The same holds from any later start n' ≥ n, the shifted
 * sequence being a moment sequence too.  So the tail is summed term by term
 * while its terms fall fast (ratio ≤ 3/4), stopping with the plain bound
 * once a term is below the rounding level, and the Euler bound takes over
 * where they fall slowly: since (1−u)^M ≤ 1 it gains at least one bit per
 * term, and far more when λ sits near u = 1 (the polynomially decaying
 * terms of small σ or q near ½), where the plain bound would crawl.  The
 * 2^m growth of the differences' rounding errors is cancelled by the 2^{−m}
 * weights, so the working precision only needs the digits asked for.
 * [DERIVED] marks this bound as derived for this project (the papers give no tail
 * bound: dp_accounting stops when terms fall below e^{−30}).
 *
 * Everything is carried as logarithms of terms and exponentiated relative to
 * the largest, so nothing overflows, whatever σ and α.
 */

#define SGM_MAX_ALPHA_ENCL 10001.0 /* enclosure-level cap (the text cap is 10000) */
#define SGM_CHECK_TERMS 8          /* terms between two asks of the time budget */

/* The time budget (num/deadline.h), asked every SGM_CHECK_TERMS terms of
 * a series: a term costs up to milliseconds at thousands of bits, and
 * α = 10^4 has 10^4 of them before the tail. */
static bool late_at(unsigned long k)
{
    return k % SGM_CHECK_TERMS == 0 && k > 0 && ul_deadline_passed();
}

/* A growable array of intervals. */
typedef struct {
    mpfi_t *v;
    size_t n, cap;
    mpfr_prec_t prec;
} ivec;

static void ivec_init(ivec *a, mpfr_prec_t prec)
{
    a->v = NULL;
    a->n = a->cap = 0;
    a->prec = prec;
}

static mpfi_ptr ivec_push(ivec *a)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 64;
        mpfi_t *v = realloc(a->v, cap * sizeof *v);
        if (v == NULL)
            abort();
        a->v = v;
        a->cap = cap;
    }
    mpfi_init2(a->v[a->n], a->prec);
    return a->v[a->n++];
}

static void ivec_clear(ivec *a)
{
    for (size_t i = 0; i < a->n; i++)
        mpfi_clear(a->v[i]);
    free(a->v);
    a->v = NULL;
    a->n = a->cap = 0;
}

/* The right end of x if it exceeds *m (m starts at -inf). */
static void raise_max(mpfr_ptr m, mpfi_srcptr x)
{
    if (mpfr_greater_p(&x->right, m))
        mpfr_set(m, &x->right, MPFR_RNDU);
}

/* log(A_α − 1) for integer α = a ≥ 2 and 0 < q < 1 (boxes q, s2 = 2σ²);
 * false (out unset) when the time budget ran out. */
static bool sgm_log_a_minus_1_int(mpfi_ptr out, unsigned long a, mpfi_srcptr q, mpfi_srcptr s2,
                                  mpfr_prec_t w)
{
    mpfi_t lq, l1q, x, t;
    mpfi_init2(lq, w);
    mpfi_init2(l1q, w);
    mpfi_init2(x, w);
    mpfi_init2(t, w);
    mpfi_log(lq, q);
    mpfi_neg(l1q, q);
    mpfi_log1p(l1q, l1q);

    ivec ell;
    ivec_init(&ell, w);
    mpfr_t m;
    mpfr_init2(m, w);
    mpfr_set_inf(m, -1);
    mpz_t c;
    mpz_init_set_ui(c, a); /* C(a, 1) */
    bool late = false;
    for (unsigned long k = 2; k <= a; k++) {
        if ((late = late_at(k)))
            break;
        mpz_mul_ui(c, c, a - k + 1);
        mpz_divexact_ui(c, c, k); /* C(a, k), exact */
        mpfi_ptr e = ivec_push(&ell);
        mpfi_set_z(e, c);
        mpfi_log(e, e);
        mpfi_mul_ui(t, l1q, a - k);
        mpfi_add(e, e, t);
        mpfi_mul_ui(t, lq, k);
        mpfi_add(e, e, t);
        mpfi_set_ui(x, k * (k - 1)); /* ≤ 1e8: exact */
        mpfi_div(x, x, s2);
        log_expm1(t, x);
        mpfi_add(e, e, t);
        raise_max(m, e);
    }
    /* log Σ e^{ℓ_k} = m + log Σ e^{ℓ_k − m}, for any exact m */
    mpfi_set_ui(x, 0);
    for (size_t i = 0; i < ell.n && !late; i++) {
        mpfi_sub_fr(t, ell.v[i], m);
        mpfi_exp(t, t);
        mpfi_add(x, x, t);
    }
    mpfi_log(x, x);
    mpfi_add_fr(out, x, m);
    mpz_clear(c);
    mpfr_clear(m);
    ivec_clear(&ell);
    mpfi_clear(lq);
    mpfi_clear(l1q);
    mpfi_clear(x);
    mpfi_clear(t);
    return !late;
}

/* The fractional series over a box of parameters: α (containing no integer,
 * so that n = ⌈α⌉ is the same for all its points), q ⊂ (0, 1), σ > 0. */
typedef struct {
    mpfi_t alpha, lq, l1q, z0, sigma, s2;
    mpfi_t lc; /* log |C(α, i)| for the next i */
    unsigned long next_i;
    mpfr_t m; /* the reference: terms are carried as a_i·e^{−m} */
    mpfr_prec_t w;
} frac_series;

/* Logs of the two terms of index i = s->next_i (L0 = log(|C(α,i)|·I_i),
 * L1 = log(|C(α,i)|·J_i)), then advances the binomial coefficient. */
static void frac_next_terms(frac_series *s, mpfi_ptr l0, mpfi_ptr l1)
{
    unsigned long i = s->next_i;
    mpfr_prec_t w = s->w;
    mpfi_t j, t, u;
    mpfi_init2(j, w);
    mpfi_init2(t, w);
    mpfi_init2(u, w);
    mpfi_sub_ui(j, s->alpha, i); /* j = α − i */

    /* L0 = log|C| + j·log(1−q) + i·log q + (i²−i)/(2σ²) + log Q((i − z0)/σ) */
    mpfi_mul(l0, j, s->l1q);
    mpfi_add(l0, l0, s->lc);
    mpfi_mul_ui(t, s->lq, i);
    mpfi_add(l0, l0, t);
    mpfi_set_ui(t, i);
    mpfi_mul_ui(t, t, i > 0 ? i - 1 : 0);
    mpfi_div(t, t, s->s2);
    mpfi_add(l0, l0, t);
    mpfi_ui_sub(t, i, s->z0);
    mpfi_div(t, t, s->sigma);
    ul_num_log_q(u, t);
    mpfi_add(l0, l0, u);

    /* L1 = log|C| + j·log q + i·log(1−q) + (j²−j)/(2σ²) + log Q((z0 − j)/σ) */
    mpfi_mul(l1, j, s->lq);
    mpfi_add(l1, l1, s->lc);
    mpfi_mul_ui(t, s->l1q, i);
    mpfi_add(l1, l1, t);
    mpfi_sub_ui(t, j, 1);
    mpfi_mul(t, t, j);
    mpfi_div(t, t, s->s2);
    mpfi_add(l1, l1, t);
    mpfi_sub(t, s->z0, j);
    mpfi_div(t, t, s->sigma);
    ul_num_log_q(u, t);
    mpfi_add(l1, l1, u);

    /* |C(α, i+1)| = |C(α, i)|·|α − i|/(i + 1) */
    mpfi_abs(t, j);
    mpfi_log(t, t);
    mpfi_add(s->lc, s->lc, t);
    mpfi_set_ui(t, i + 1);
    mpfi_log(t, t);
    mpfi_sub(s->lc, s->lc, t);
    s->next_i = i + 1;

    mpfi_clear(j);
    mpfi_clear(t);
    mpfi_clear(u);
}

/* out ⊇ e^{L0 − m} + e^{L1 − m}. */
static void frac_scale(frac_series *s, mpfi_ptr out, mpfi_srcptr l0, mpfi_srcptr l1)
{
    mpfi_t t;
    mpfi_init2(t, s->w);
    mpfi_sub_fr(t, l0, s->m);
    mpfi_exp(t, t);
    mpfi_sub_fr(out, l1, s->m);
    mpfi_exp(out, out);
    mpfi_add(out, out, t);
    mpfi_clear(t);
}

/* out ⊇ a_i·e^{−m} for the next i. */
static void frac_next_scaled(frac_series *s, mpfi_ptr out)
{
    mpfi_t l0, l1;
    mpfi_init2(l0, s->w);
    mpfi_init2(l1, s->w);
    frac_next_terms(s, l0, l1);
    frac_scale(s, out, l0, l1);
    mpfi_clear(l0);
    mpfi_clear(l1);
}

/* out ⊇ T = Σ_{k≥0} (−1)^k a_{i+k} (scaled) by the Euler-transform bound,
 * given a_i = first, a_{i+1} = second and s->next_i = i + 2.  b[k] holds
 * Δ^k a_{i+M−k} for k = 0..M, so d_M = (−1)^M b[M].  Stops when the
 * remainder d_M/2^M is below tau, or below the rounding width E_M has
 * gathered (more terms would not narrow the result), or after max_m terms;
 * sound whenever it stops.  false (out unset) when the time budget ran out. */
static bool euler_tail(frac_series *s, mpfi_ptr out, mpfi_srcptr first, mpfi_srcptr second,
                       mpfr_srcptr tau, unsigned long max_m)
{
    mpfr_prec_t w = s->w;
    ivec b;
    ivec_init(&b, w);
    mpfi_set(ivec_push(&b), first);
    mpfi_t e, d, old, tmp, fresh;
    mpfi_init2(e, w);
    mpfi_init2(d, w);
    mpfi_init2(old, w);
    mpfi_init2(tmp, w);
    mpfi_init2(fresh, w);
    mpfr_t rem, lo, hi, diam;
    mpfr_inits2(w, rem, lo, hi, diam, (mpfr_ptr)0);
    mpfi_set_ui(e, 0);
    bool late = false;
    for (unsigned long mm = 0; !(late = late_at(mm)); mm++) {
        if (mm & 1)
            mpfi_neg(d, b.v[mm]);
        else
            mpfi_set(d, b.v[mm]);
        clamp_nonneg(d); /* d_m ≥ 0: the moment of (1−u)^m */
        mpfr_mul_2si(rem, &d->right, -(long)mm, MPFR_RNDU);
        mpfr_sub(diam, &e->right, &e->left, MPFR_RNDD);
        if (mpfr_lessequal_p(rem, tau) || mpfr_lessequal_p(rem, diam) || mm >= max_m) {
            /* T ∈ [E_M, E_M + d_M/2^M] */
            mpfr_set(lo, &e->left, MPFR_RNDD);
            mpfr_add(hi, &e->right, rem, MPFR_RNDU);
            mpfi_interv_fr(out, lo, hi);
            break;
        }
        mpfi_div_2si(d, d, (long)mm + 1);
        mpfi_add(e, e, d); /* E_{M+1} = E_M + d_M/2^{M+1} */
        /* the next term and the new diagonal of the difference table */
        if (mm == 0)
            mpfi_set(fresh, second);
        else
            frac_next_scaled(s, fresh);
        mpfi_swap(old, b.v[0]);
        mpfi_set(b.v[0], fresh);
        for (unsigned long k = 1; k <= mm + 1; k++) {
            if (k <= mm)
                mpfi_swap(tmp, b.v[k]);
            else
                ivec_push(&b);
            mpfi_sub(b.v[k], b.v[k - 1], old);
            mpfi_swap(old, tmp);
        }
    }
    mpfr_clears(rem, lo, hi, diam, (mpfr_ptr)0);
    mpfi_clear(e);
    mpfi_clear(d);
    mpfi_clear(old);
    mpfi_clear(tmp);
    mpfi_clear(fresh);
    ivec_clear(&b);
    return !late;
}

/* x ← x + sign·[0, a.hi]: the tail of an alternating series with decreasing
 * terms lies between 0 and its first term (the sign of that term). */
static void add_first_term_bound(mpfi_ptr x, mpfi_srcptr a, int sign)
{
    mpfr_t lo, hi;
    mpfr_inits2(mpfi_get_prec(x), lo, hi, (mpfr_ptr)0);
    if (sign > 0) {
        mpfr_set(lo, &x->left, MPFR_RNDD);
        mpfr_add(hi, &x->right, &a->right, MPFR_RNDU);
    } else {
        mpfr_sub(lo, &x->left, &a->right, MPFR_RNDD);
        mpfr_set(hi, &x->right, MPFR_RNDU);
    }
    mpfi_interv_fr(x, lo, hi);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

/* sum ← sum + T, the alternating tail T = Σ_{k≥0} (−1)^k a_{n+k} from the
 * logs (l0, l1) of a_n, s->next_i = n + 1.  While its terms fall fast
 * (ratio ≤ 3/4; a choice of method only, both are sound), add them one by
 * one and stop when a term is below the rounding level (the rest lies
 * between 0 and it); else switch to the Euler bound, which wins once the
 * quickly decaying part of λ is spent (tuned by counting terms over the
 * regimes of the tests).  false when the time budget ran out. */
static bool frac_tail(frac_series *s, mpfi_ptr sum, mpfi_srcptr l0, mpfi_srcptr l1,
                      mpfr_prec_t w)
{
    mpfi_t cur, nxt, t;
    mpfi_init2(cur, w);
    mpfi_init2(nxt, w);
    mpfi_init2(t, w);
    mpfr_t tau, ratio;
    mpfr_inits2(w, tau, ratio, (mpfr_ptr)0);
    mpfr_mul_2si(tau, &sum->left, -(long)w, MPFR_RNDD);
    unsigned long max_terms = 4 * (unsigned long)w + 64;
    frac_scale(s, cur, l0, l1);
    frac_next_scaled(s, nxt);
    int sign = 1;
    bool late = false;
    for (unsigned long k = 0; !(late = late_at(k)); k++) {
        if (mpfr_lessequal_p(&cur->right, tau)) {
            add_first_term_bound(sum, cur, sign);
            break;
        }
        mpfr_div(ratio, &nxt->right, &cur->left, MPFR_RNDU);
        if (!(mpfr_cmp_d(ratio, 0.75) <= 0) || k >= max_terms) {
            late = !euler_tail(s, t, cur, nxt, tau, max_terms);
            if (sign < 0)
                mpfi_neg(t, t);
            mpfi_add(sum, sum, t);
            break;
        }
        if (sign > 0)
            mpfi_add(sum, sum, cur);
        else
            mpfi_sub(sum, sum, cur);
        sign = -sign;
        mpfi_swap(cur, nxt);
        frac_next_scaled(s, nxt);
    }
    mpfr_clears(tau, ratio, (mpfr_ptr)0);
    mpfi_clear(cur);
    mpfi_clear(nxt);
    mpfi_clear(t);
    return !late;
}

/* log A_α over the box (alpha, q, sigma); s2 = 2σ².  false (out unset)
 * when the time budget ran out. */
static bool sgm_log_a_frac(mpfi_ptr out, mpfi_srcptr alpha, mpfi_srcptr q, mpfi_srcptr sigma,
                           mpfi_srcptr s2, mpfr_prec_t w)
{
    frac_series s;
    s.w = w;
    mpfi_init2(s.alpha, w);
    mpfi_init2(s.lq, w);
    mpfi_init2(s.l1q, w);
    mpfi_init2(s.z0, w);
    mpfi_init2(s.sigma, w);
    mpfi_init2(s.s2, w);
    mpfi_init2(s.lc, w);
    mpfr_init2(s.m, w);
    mpfi_set(s.alpha, alpha);
    mpfi_set(s.sigma, sigma);
    mpfi_set(s.s2, s2);
    mpfi_log(s.lq, q);
    mpfi_neg(s.l1q, q);
    mpfi_log1p(s.l1q, s.l1q);
    /* z0 = σ²·(log(1−q) − log q) + ½ */
    mpfi_sub(s.z0, s.l1q, s.lq);
    mpfi_mul(s.z0, s.z0, s2);
    mpfi_div_2ui(s.z0, s.z0, 1);
    mpfi_set_d(s.lc, 0.5); /* exact */
    mpfi_add(s.z0, s.z0, s.lc);
    mpfi_set_ui(s.lc, 0); /* log C(α, 0) */
    s.next_i = 0;

    mpfr_t up;
    mpfr_init2(up, mpfi_get_prec(alpha));
    mpfr_ceil(up, &alpha->right);
    unsigned long n = mpfr_get_ui(up, MPFR_RNDN); /* ⌈α⌉, exact */

    /* the positive terms i < n and the first tail term i = n, as logs */
    ivec l0s, l1s;
    ivec_init(&l0s, w);
    ivec_init(&l1s, w);
    mpfr_set_inf(s.m, -1);
    bool late = false;
    for (unsigned long i = 0; i <= n && !(late = late_at(i)); i++) {
        mpfi_ptr a0 = ivec_push(&l0s), a1 = ivec_push(&l1s);
        frac_next_terms(&s, a0, a1);
        raise_max(s.m, a0);
        raise_max(s.m, a1);
    }
    if (!mpfr_number_p(s.m))
        mpfr_set_zero(s.m, 1); /* any exact reference is sound */

    mpfi_t sum, t;
    mpfi_init2(sum, w);
    mpfi_init2(t, w);
    mpfi_set_ui(sum, 0);
    for (unsigned long i = 0; i < n && !late; i++) {
        frac_scale(&s, t, l0s.v[i], l1s.v[i]);
        mpfi_add(sum, sum, t);
    }
    if (!late)
        late = !frac_tail(&s, sum, l0s.v[n], l1s.v[n], w);
    if (!late) {
        mpfi_log(sum, sum);
        mpfi_add_fr(out, sum, s.m);
    }

    mpfr_clear(up);
    mpfi_clear(sum);
    mpfi_clear(t);
    ivec_clear(&l0s);
    ivec_clear(&l1s);
    mpfi_clear(s.alpha);
    mpfi_clear(s.lq);
    mpfi_clear(s.l1q);
    mpfi_clear(s.z0);
    mpfi_clear(s.sigma);
    mpfi_clear(s.s2);
    mpfi_clear(s.lc);
    mpfr_clear(s.m);
    return !late;
}

/* Extra working bits for the subsampled Gaussian (a choice, not a bound:
 * the adaptive driver checks the width).  log A_α is about
 * C(α,2) q² (e^{1/σ²} − 1) when small, and is recovered from a sum near 1
 * (fractional α) or from terms whose logs carry exponents up to about
 * (α + tail)²/(2σ²) that largely cancel. */
static mpfr_prec_t sgm_guard_bits(double alpha, double q, double sigma)
{
    double g = 24;
    double a = alpha + 64;
    g += log2(1 + a * a / (2 * sigma * sigma)) + log2(1 + alpha);
    double inv = 1 / (sigma * sigma);
    double est = alpha * (alpha - 1) / 2 * q * q * expm1(inv < 700 ? inv : 700);
    if (est > 0 && est < 1)
        g += -log2(est);
    if (!(g < 4096))
        g = 4096;
    return (mpfr_prec_t)ceil(g);
}

static bool is_point(mpfi_srcptr x)
{
    return mpfr_equal_p(&x->left, &x->right);
}

/* Whether the box suits one interval evaluation: q ⊂ (0, 1), and α an
 * integer point or a box whose points share n = ⌈α⌉. */
static bool sgm_regular(mpfi_srcptr alpha, mpfi_srcptr q)
{
    if (!(mpfr_sgn(&q->left) > 0) || !(mpfr_cmp_ui(&q->right, 1) < 0))
        return false;
    if (is_point(alpha))
        return true;
    if (mpfr_integer_p(&alpha->left) || mpfr_integer_p(&alpha->right))
        return false;
    mpfr_t a, b;
    mpfr_inits2(mpfi_get_prec(alpha), a, b, (mpfr_ptr)0);
    mpfr_ceil(a, &alpha->left);
    mpfr_ceil(b, &alpha->right);
    bool same = mpfr_equal_p(a, b);
    mpfr_clears(a, b, (mpfr_ptr)0);
    return same;
}

/* ρ over the box, at out's precision (domain checked by the caller); false
 * (out unset) when the time budget ran out inside the series. */
static bool sgm_box(mpfi_ptr out, mpfi_srcptr alpha, mpfi_srcptr q, mpfi_srcptr sigma)
{
    mpfr_prec_t p = mpfi_get_prec(out);
    if (mpfr_zero_p(&q->right)) {
        mpfi_set_ui(out, 0); /* q = 0: no record is ever used */
        return true;
    }
    mpfr_prec_t w =
        p + sgm_guard_bits(mpfr_get_d(&alpha->right, MPFR_RNDN), mpfr_get_d(&q->left, MPFR_RNDN),
                           mpfr_get_d(&sigma->left, MPFR_RNDN));
    mpfi_t s2, la, am1;
    mpfi_init2(s2, w);
    mpfi_init2(la, w);
    mpfi_init2(am1, w);
    mpfi_sqr(s2, sigma);
    mpfi_mul_2ui(s2, s2, 1); /* 2σ² */
    bool done = true;
    if (mpfr_cmp_ui(&q->left, 1) == 0) {
        /* q = 1: the Gaussian mechanism with r = 1/σ, ρ = α/(2σ²) ([M17] Prop. 7) */
        mpfi_div(out, alpha, s2);
    } else {
        if (is_point(alpha) && mpfr_integer_p(&alpha->left)) {
            done = sgm_log_a_minus_1_int(la, mpfr_get_ui(&alpha->left, MPFR_RNDN), q, s2, w);
            softplus(la, la); /* log A = log1p(A − 1) */
        } else {
            done = sgm_log_a_frac(la, alpha, q, sigma, s2, w);
        }
        mpfi_sub_ui(am1, alpha, 1);
        mpfi_div(out, la, am1);
        clamp_nonneg(out); /* a Rényi divergence is ≥ 0 */
    }
    mpfi_clear(s2);
    mpfi_clear(la);
    mpfi_clear(am1);
    return done;
}

/* The box reduced to one corner: each of alpha, q, sigma set to one end
 * (false: the time budget ran out). */
static bool sgm_corner(mpfi_ptr out, mpfr_srcptr alpha, mpfr_srcptr q, mpfr_srcptr sigma)
{
    mpfi_t a, qq, s;
    mpfi_init2(a, mpfr_get_prec(alpha));
    mpfi_init2(qq, mpfr_get_prec(q));
    mpfi_init2(s, mpfr_get_prec(sigma));
    mpfi_set_fr(a, alpha);
    mpfi_set_fr(qq, q);
    mpfi_set_fr(s, sigma);
    bool done = sgm_box(out, a, qq, s); /* points with q ∈ {0, 1} or regular */
    mpfi_clear(a);
    mpfi_clear(qq);
    mpfi_clear(s);
    return done;
}

/* UL_ETIME for the series of the subsampled Gaussian, worded as the other
 * budget checks (what was being computed). */
static ul_status sgm_out_of_time(mpfi_ptr rho, char *err, size_t errlen)
{
    mpfi_set_prec(rho, mpfi_get_prec(rho)); /* NaN: nothing certified */
    return ul_fail(err, errlen, UL_ETIME,
                   "summing the subsampled Gaussian's RDP series at %ld bits",
                   (long)mpfi_get_prec(rho));
}

ul_status ul_renyi_sgm_rdp(mpfi_ptr rho, mpfi_srcptr alpha, mpfi_srcptr q, mpfi_srcptr sigma,
                           char *err, size_t errlen)
{
    ul_num_init();
    if (!(mpfr_cmp_ui(&alpha->left, 1) > 0) ||
        !(mpfr_cmp_d(&alpha->right, SGM_MAX_ALPHA_ENCL) <= 0))
        return ul_fail(err, errlen, UL_EINPUT, "alpha: must be > 1 and <= %s",
                       UL_RENYI_SGM_MAX_ALPHA);
    if (!(mpfr_sgn(&q->left) >= 0) || !(mpfr_cmp_ui(&q->right, 1) <= 0))
        return ul_fail(err, errlen, UL_EINPUT, "q: must be >= 0 and <= 1");
    if (!(mpfr_sgn(&sigma->left) > 0) || !mpfr_number_p(&sigma->right))
        return ul_fail(err, errlen, UL_EINPUT, "sigma: must be > 0 and finite");

    bool q_end = is_point(q) && (mpfr_zero_p(&q->left) || mpfr_cmp_ui(&q->left, 1) == 0);
    if (q_end || sgm_regular(alpha, q)) { /* one evaluation over the whole box */
        return sgm_box(rho, alpha, q, sigma) ? UL_OK : sgm_out_of_time(rho, err, errlen);
    }
    /* ρ is nondecreasing in α (D_α is, [M17] Prop. 9) and in q (A_α is
     * convex in q with its minimum 1 at q = 0), and nonincreasing in σ
     * (adding independent noise is post-processing); so the box's lower end
     * is the lower end at the corner (α_lo, q_lo, σ_hi) and its upper end
     * the upper end at (α_hi, q_hi, σ_lo). */
    mpfr_prec_t p = mpfi_get_prec(rho);
    mpfi_t at;
    mpfi_init2(at, p);
    mpfr_t lo, hi;
    mpfr_inits2(p, lo, hi, (mpfr_ptr)0);
    bool done = sgm_corner(at, &alpha->left, &q->left, &sigma->right);
    mpfr_set(lo, &at->left, MPFR_RNDD);
    done = done && sgm_corner(at, &alpha->right, &q->right, &sigma->left);
    mpfr_set(hi, &at->right, MPFR_RNDU);
    mpfi_interv_fr(rho, lo, hi);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    mpfi_clear(at);
    return done ? UL_OK : sgm_out_of_time(rho, err, errlen);
}

/* ---- curves ----------------------------------------------------------------- */

/* Reads a decimal parameter of a curve at precision prec. */
static ul_status curve_param(mpfi_ptr x, const char *name, const char *text, char *err,
                             size_t errlen)
{
    if (text == NULL || ul_num_set_decimal(x, text) != UL_OK)
        return ul_fail(err, errlen, UL_EINPUT, "%s: must be a finite decimal number (got '%s')",
                       name, text == NULL ? "(null)" : text);
    return UL_OK;
}

ul_status ul_renyi_gauss_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err, size_t errlen)
{
    const ul_rdp_gauss_ctx *g = ctx;
    mpfi_t r;
    mpfi_init2(r, mpfi_get_prec(rho) + 8);
    ul_status st = curve_param(r, "r", g->r, err, errlen);
    if (st == UL_OK && mpfr_sgn(&r->left) < 0)
        st = ul_fail(err, errlen, UL_EINPUT, "r: must be >= 0 (got '%s')", g->r);
    if (st == UL_OK)
        ul_renyi_gauss_rdp(rho, alpha, r);
    mpfi_clear(r);
    return st;
}

ul_status ul_renyi_sgm_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err, size_t errlen)
{
    const ul_rdp_sgm_ctx *g = ctx;
    mpfr_prec_t p = mpfi_get_prec(rho) + 8;
    mpfi_t q, s;
    mpfi_init2(q, p);
    mpfi_init2(s, p);
    ul_status st = curve_param(q, "q", g->q, err, errlen);
    if (st == UL_OK)
        st = curve_param(s, "sigma", g->sigma, err, errlen);
    if (st == UL_OK)
        st = ul_renyi_sgm_rdp(rho, alpha, q, s, err, errlen);
    mpfi_clear(q);
    mpfi_clear(s);
    return st;
}

ul_status ul_renyi_composition_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err,
                                     size_t errlen)
{
    /* [M17] Prop. 1: RDP curves of composed mechanisms add at each order. */
    const ul_rdp_composition_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(rho) + 8;
    mpfi_t sum, part;
    mpfi_init2(sum, p);
    mpfi_init2(part, p);
    mpfi_set_ui(sum, 0);
    ul_status st = UL_OK;
    for (size_t i = 0; i < c->n && st == UL_OK; i++) {
        st = c->parts[i].fn(part, alpha, c->parts[i].ctx, err, errlen);
        if (st == UL_OK) {
            if (c->counts != NULL)
                mpfi_mul_ui(part, part, c->counts[i]);
            mpfi_add(sum, sum, part);
        }
    }
    if (st == UL_OK)
        mpfi_set(rho, sum);
    mpfi_clear(sum);
    mpfi_clear(part);
    return st;
}

/* ρ_k(α) by [H.2] eq. (52) with p = 2, splitting the group in halves: with
 * D' at distance ⌊k/2⌋ from D and ⌈k/2⌉ from D'', P = M(D), Q = M(D'),
 * R = M(D''), D_α(P‖R) ≤ ((α−½)/(α−1))·ρ_{⌊k/2⌋}(2α) + ρ_{⌈k/2⌉}(2α−1).
 * (The same recursion, with the factor bounded by 3 for α ≥ 2, is [M17]
 * Prop. 2 for groups of 2^c.) */
static ul_status group_eval(mpfi_ptr rho, mpfi_srcptr alpha, const ul_rdp_curve *base,
                            unsigned long k, char *err, size_t errlen)
{
    if (k == 1)
        return base->fn(rho, alpha, base->ctx, err, errlen);
    unsigned long k1 = k / 2, k2 = k - k1;
    mpfr_prec_t p = mpfi_get_prec(rho) + 8;
    mpfr_prec_t pa = mpfi_get_prec(alpha) + 2; /* 2α and 2α − 1 stay exact */
    mpfi_t a2, a3, r1, r2, two;
    mpfi_init2(a2, pa);
    mpfi_init2(a3, pa);
    mpfi_init2(r1, p);
    mpfi_init2(r2, p);
    mpfi_init2(two, 8);
    mpfi_mul_2ui(a2, alpha, 1);
    mpfi_sub_ui(a3, a2, 1);
    mpfi_set_ui(two, 2);
    ul_status st = group_eval(r1, a2, base, k1, err, errlen);
    if (st == UL_OK)
        st = group_eval(r2, a3, base, k2, err, errlen);
    if (st == UL_OK)
        ul_renyi_weak_triangle(rho, alpha, two, r1, r2);
    mpfi_clear(a2);
    mpfi_clear(a3);
    mpfi_clear(r1);
    mpfi_clear(r2);
    mpfi_clear(two);
    return st;
}

ul_status ul_renyi_group_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err, size_t errlen)
{
    const ul_rdp_group_ctx *g = ctx;
    if (g->k < 1 || g->k > 65536)
        return ul_fail(err, errlen, UL_EINPUT,
                       "k: group size must be between 1 and 65536 (got %lu)", g->k);
    if (!(mpfr_cmp_ui(&alpha->left, 1) > 0))
        return ul_fail(err, errlen, UL_EINPUT, "alpha: must be > 1");
    return group_eval(rho, alpha, g->base, g->k, err, errlen);
}

/* ---- certified conversions ---------------------------------------------------- */

/* One conversion job: a list of points, or one point of a curve. */
typedef struct {
    ul_rdp_target target;
    ul_rdp_conversion conv;
    const char *given; /* delta (to ε) or eps (to δ) */
    const char *const *alphas;
    const char *const *rdps; /* NULL when the curve gives ρ */
    size_t n;
    const ul_rdp_curve *curve;
    size_t best;
} conv_job;

static ul_status check_given(ul_rdp_target target, const char *given, char *err, size_t errlen)
{
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = target == UL_RDP_TO_EPS
                       ? ul_num_read_domain(x, &ul_domain_delta, "delta", given, err, errlen)
                       : ul_num_read_domain(x, &ul_domain_eps_renyi, "eps", given, err, errlen);
    mpfi_clear(x);
    return st;
}

static ul_status check_point(const char *alpha, const char *rdp, const char *alpha_name,
                             const char *rdp_name, char *err, size_t errlen)
{
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = ul_num_read_domain(x, &ul_domain_alpha, alpha_name, alpha, err, errlen);
    if (st == UL_OK && rdp_name != NULL)
        st =
            ul_num_read_domain(x, &ul_domain_rdp, rdp_name, rdp, err, errlen);
    mpfi_clear(x);
    return st;
}

static ul_status check_conversion(ul_rdp_conversion conv, char *err, size_t errlen)
{
    if (!conversion_valid(conv))
        return ul_fail(err, errlen, UL_EINPUT, "conversion: must be mironov or bbghs (got %d)",
                       (int)conv);
    return UL_OK;
}

static ul_status eval_job(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    conv_job *job = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure);
    mpfi_t a, rho, given, b, best;
    mpfi_init2(a, p + 8);
    mpfi_init2(rho, p + 8);
    mpfi_init2(given, p + 8);
    mpfi_init2(b, p);
    mpfi_init2(best, p);
    ul_status st = UL_OK;
    if (ul_num_set_decimal(given, job->given) != UL_OK)
        st = ul_fail(err, errlen, UL_EINPUT, "%s: unreadable",
                     job->target == UL_RDP_TO_EPS ? "delta" : "eps");
    for (size_t i = 0; i < job->n && st == UL_OK; i++) {
        if (ul_num_set_decimal(a, job->alphas[i]) != UL_OK) {
            st = ul_fail(err, errlen, UL_EINPUT, "alpha: unreadable");
            break;
        }
        if (job->rdps != NULL) {
            if (ul_num_set_decimal(rho, job->rdps[i]) != UL_OK)
                st = ul_fail(err, errlen, UL_EINPUT, "rdp: unreadable");
        } else {
            st = job->curve->fn(rho, a, job->curve->ctx, err, errlen);
        }
        if (st != UL_OK)
            break;
        if (job->target == UL_RDP_TO_EPS)
            ul_renyi_eps_enclose(b, a, rho, given, job->conv);
        else
            ul_renyi_log_delta_enclose(b, a, rho, given, job->conv);
        if (i == 0) {
            mpfi_set(best, b);
            job->best = 0;
        } else {
            if (mpfr_less_p(&b->right, &best->right))
                job->best = i;
            ul_bounds_interval_min(best, best, b);
        }
    }
    if (st == UL_OK) {
        mpfi_set(out->enclosure, best);
        out->is_log = job->target == UL_RDP_TO_DELTA;
    }
    mpfi_clear(a);
    mpfi_clear(rho);
    mpfi_clear(given);
    mpfi_clear(b);
    mpfi_clear(best);
    return st;
}

static ul_status run_job(conv_job *job, const ul_num_precision *want, ul_num_value *out,
                         ul_num_report *rep, char *err, size_t errlen)
{
    return ul_num_adaptive_eval(eval_job, job, want, out, rep, err, errlen);
}

ul_status ul_renyi_points_certified(ul_rdp_target target, const char *const *alphas,
                                    const char *const *rdps, size_t n, const char *given,
                                    ul_rdp_conversion conv, const ul_num_precision *want,
                                    ul_num_value *out, size_t *best, ul_num_report *rep, char *err,
                                    size_t errlen)
{
    ul_status st = check_conversion(conv, err, errlen);
    if (st != UL_OK)
        return st;
    if (target != UL_RDP_TO_EPS && target != UL_RDP_TO_DELTA)
        return ul_fail(err, errlen, UL_EINPUT, "target: must be eps or delta");
    if (n == 0 || alphas == NULL || rdps == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "alpha: the list of points is empty");
    for (size_t i = 0; i < n && st == UL_OK; i++) {
        char an[40], rn[40];
        if (n == 1) {
            snprintf(an, sizeof an, "alpha");
            snprintf(rn, sizeof rn, "rdp");
        } else {
            snprintf(an, sizeof an, "alpha[%zu]", i);
            snprintf(rn, sizeof rn, "rdp[%zu]", i);
        }
        st = check_point(alphas[i], rdps[i], an, rn, err, errlen);
    }
    if (st == UL_OK)
        st = check_given(target, given, err, errlen);
    if (st != UL_OK)
        return st;
    conv_job job = {target, conv, given, alphas, rdps, n, NULL, 0};
    st = run_job(&job, want, out, rep, err, errlen);
    if (best != NULL)
        *best = job.best;
    return st;
}

ul_status ul_renyi_rdp_to_dp_certified(const char *alpha, const char *rdp, const char *delta,
                                       ul_rdp_conversion conv, const ul_num_precision *want,
                                       ul_num_value *eps_out, ul_num_report *rep, char *err,
                                       size_t errlen)
{
    const char *a[1] = {alpha}, *r[1] = {rdp};
    return ul_renyi_points_certified(UL_RDP_TO_EPS, a, r, 1, delta, conv, want, eps_out, NULL, rep,
                                     err, errlen);
}

ul_status ul_renyi_rdp_to_delta_certified(const char *alpha, const char *rdp, const char *eps,
                                          ul_rdp_conversion conv, const ul_num_precision *want,
                                          ul_num_value *delta_out, ul_num_report *rep, char *err,
                                          size_t errlen)
{
    const char *a[1] = {alpha}, *r[1] = {rdp};
    return ul_renyi_points_certified(UL_RDP_TO_DELTA, a, r, 1, eps, conv, want, delta_out, NULL,
                                     rep, err, errlen);
}

/* ---- the α search (doubles; not rigorous, and need not be) ------------------ */

typedef struct {
    const ul_rdp_curve *curve;   /* certified curve (slow), used when dcurve is NULL */
    const ul_rdp_curve_d *dcurve; /* the same curve in doubles */
    ul_rdp_target target;
    ul_rdp_conversion conv;
    double given; /* log δ (to ε) or ε (to δ) */
    mpfi_t a, rho;
} search_ctx;

/* The conversion of one point (α, ρ) in doubles: ε (to ε) or log δ (to δ),
 * the formulas of ul_renyi_eps_enclose / ul_renyi_log_delta_enclose. */
static double convert_d(ul_rdp_target target, ul_rdp_conversion conv, double given, double alpha,
                        double rho)
{
    double am1 = alpha - 1, l1a = log1p(-1 / alpha);
    if (target == UL_RDP_TO_EPS) {
        double ld = given;
        if (conv == UL_RDP_MIRONOV)
            return rho - ld / am1;
        if (rho == 0 || 2 * ld >= log(-expm1(-rho)))
            return 0;
        double e = rho + l1a - (ld + log(alpha)) / am1;
        return e > 0 ? e : 0;
    }
    double e = given, ld;
    if (conv == UL_RDP_MIRONOV) {
        ld = am1 * (rho - e);
    } else {
        ld = am1 * (rho - e + l1a) - log(alpha);
        double kl = rho > 0 ? 0.5 * log(-expm1(-rho)) : -INFINITY;
        if (kl < ld)
            ld = kl;
    }
    return ld < 0 ? ld : 0;
}

/* The bound at α in doubles; +inf where the curve gives nothing finite. */
static double search_objective(search_ctx *s, double alpha)
{
    if (!(alpha > 1) || !isfinite(alpha))
        return INFINITY;
    double rho;
    if (s->dcurve != NULL) {
        rho = s->dcurve->fn(alpha, s->dcurve->ctx);
    } else {
        mpfi_set_d(s->a, alpha); /* exact */
        char err[8];
        if (s->curve->fn(s->rho, s->a, s->curve->ctx, err, sizeof err) != UL_OK)
            return INFINITY;
        rho = mpfr_get_d(&s->rho->right, MPFR_RNDU);
    }
    if (!isfinite(rho))
        return INFINITY;
    return convert_d(s->target, s->conv, s->given, alpha, rho);
}

static double objective_t(search_ctx *s, double t)
{
    return search_objective(s, 1 + exp(t));
}

/* objective_t as a ul_bounds_fn_d (ctx is the caller's own non-const search_ctx, whose
 * scratch the evaluation writes: the cast gives back what it was). */
static double objective_t_fn(const void *ctx, double t)
{
    return objective_t((search_ctx *)ctx, t);
}

/* Grid over t = log(α − 1) at four points per decade from α − 1 = 1e-12 to
 * alpha_max − 1, then golden-section refinement around the best grid point
 * down to |Δt| ≈ 1e-8 (near a smooth minimum the bound then exceeds the
 * optimum by a relative ~1e-16).
 * Returns NaN when the curve is nowhere finite. */
/* hint_t: log(α − 1) of a previous search, or NaN: then (or when the best
 * of the nine grid points around it is at their edge) the whole grid. */
static double search_alpha_from(search_ctx *s, double alpha_max, double hint_t)
{
    double t_lo = log(1e-12), t_hi = log(alpha_max - 1);
    if (t_hi < t_lo)
        t_hi = t_lo;
    double step = log(10.0) / 4;
    int n = (int)ceil((t_hi - t_lo) / step) + 1;
    if (n < 2)
        n = 2;
    step = (t_hi - t_lo) / (n - 1);
    int best = -1, i0 = 0, i1 = n - 1;
    if (isfinite(hint_t)) {
        int c = (int)lround((hint_t - t_lo) / step);
        i0 = c - 4 > 0 ? c - 4 : 0;
        i1 = c + 4 < n - 1 ? c + 4 : n - 1;
    }
    double fbest = INFINITY;
    for (int i = i0; i <= i1; i++) {
        double f = objective_t(s, t_lo + i * step);
        if (f < fbest) {
            fbest = f;
            best = i;
        }
    }
    if ((best == i0 && i0 > 0) || (best == i1 && i1 < n - 1) || best < 0) {
        if (isfinite(hint_t))
            return search_alpha_from(s, alpha_max, NAN);
    }
    if (best < 0)
        return NAN;
    double tb = t_lo + best * step;
    double a = best > 0 ? tb - step : tb, b = best < n - 1 ? tb + step : tb, fm;
    double tm = ul_bounds_golden_min_d(objective_t_fn, s, a, b, 1e-8, 80, &fm);
    return 1 + exp(fm <= fbest ? tm : tb);
}

static double search_alpha(search_ctx *s, double alpha_max)
{
    return search_alpha_from(s, alpha_max, NAN);
}

/* A short decimal for α > 1, within 1e-9·(α − 1) of it (any α is valid;
 * short text is easier to re-use).  False when no text above 1 fits. */
static bool format_alpha(double alpha, char *buf, size_t len)
{
    for (int digits = 10; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, alpha);
        double back = strtod(buf, NULL); /* only to choose the length */
        if (back > 1 && (fabs(back - alpha) <= 1e-9 * (alpha - 1) || digits == 17))
            return ul_num_is_decimal(buf);
    }
    return false;
}

double ul_renyi_search_alpha_d(ul_rdp_target target, const ul_rdp_curve_d *search,
                               double alpha_max, double given, ul_rdp_conversion conv,
                               double *value)
{
    return ul_renyi_search_alpha_near_d(target, search, alpha_max, given, conv, NAN, value);
}

double ul_renyi_search_alpha_near_d(ul_rdp_target target, const ul_rdp_curve_d *search,
                                    double alpha_max, double given, ul_rdp_conversion conv,
                                    double alpha_hint, double *value)
{
    if (search == NULL || search->fn == NULL || !conversion_valid(conv))
        return NAN;
    if (!(alpha_max > 1) || !isfinite(alpha_max))
        alpha_max = 1e4;
    search_ctx s; /* the mpfi members stay unused: dcurve is set */
    s.curve = NULL;
    s.dcurve = search;
    s.target = target;
    s.conv = conv;
    s.given = given;
    double alpha = search_alpha_from(&s, alpha_max, alpha_hint > 1 ? log(alpha_hint - 1) : NAN);
    if (value != NULL)
        *value = isnan(alpha) ? NAN : search_objective(&s, alpha);
    return alpha;
}

ul_status ul_renyi_curve_searched_certified(ul_rdp_target target, const ul_rdp_curve *curve,
                                            const ul_rdp_curve_d *search, double alpha_max,
                                            const char *given, ul_rdp_conversion conv,
                                            const ul_num_precision *want, ul_num_value *out,
                                            char *alpha_out, size_t alpha_len, ul_num_report *rep,
                                            char *err, size_t errlen)
{
    ul_num_init();
    ul_status st = check_conversion(conv, err, errlen);
    if (st != UL_OK)
        return st;
    if (target != UL_RDP_TO_EPS && target != UL_RDP_TO_DELTA)
        return ul_fail(err, errlen, UL_EINPUT, "target: must be eps or delta");
    if (curve == NULL || curve->fn == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "curve: missing");
    if (alpha_out == NULL || alpha_len < UL_RENYI_ALPHA_TEXT_LEN)
        return ul_fail(err, errlen, UL_EINPUT, "alpha_out: needs room for %d characters",
                       UL_RENYI_ALPHA_TEXT_LEN);
    st = check_given(target, given, err, errlen);
    if (st != UL_OK)
        return st;
    if (!(alpha_max > 1) || !isfinite(alpha_max))
        alpha_max = 1e4;

    /* the given side in doubles, for the search only (log δ may be far below
     * the double range of δ itself) */
    search_ctx s;
    s.curve = curve;
    s.dcurve = search != NULL && search->fn != NULL ? search : NULL;
    s.target = target;
    s.conv = conv;
    mpfi_init2(s.a, 64);
    st = ul_num_read_checked(s.a, target == UL_RDP_TO_EPS ? "delta" : "eps", given, NULL, false,
                             NULL, false, err, errlen);
    if (st != UL_OK) {
        mpfi_clear(s.a);
        return st;
    }
    mpfi_init2(s.rho, 64);
    if (target == UL_RDP_TO_EPS)
        mpfi_log(s.a, s.a);
    s.given = mpfr_get_d(&s.a->left, MPFR_RNDN);
    double alpha = search_alpha(&s, alpha_max);
    mpfi_clear(s.a);
    mpfi_clear(s.rho);
    if (isnan(alpha))
        return ul_fail(err, errlen, UL_EINPUT,
                       "curve: no order alpha in (1, %g] where the RDP curve is finite", alpha_max);
    if (!format_alpha(alpha, alpha_out, alpha_len))
        return ul_fail(err, errlen, UL_EINPUT, "alpha: the search found no usable order");

    const char *alphas[1] = {alpha_out};
    conv_job job = {target, conv, given, alphas, NULL, 1, curve, 0};
    return run_job(&job, want, out, rep, err, errlen);
}

ul_status ul_renyi_curve_certified(ul_rdp_target target, const ul_rdp_curve *curve,
                                   double alpha_max, const char *given, ul_rdp_conversion conv,
                                   const ul_num_precision *want, ul_num_value *out, char *alpha_out,
                                   size_t alpha_len, ul_num_report *rep, char *err, size_t errlen)
{
    return ul_renyi_curve_searched_certified(target, curve, NULL, alpha_max, given, conv, want,
                                             out, alpha_out, alpha_len, rep, err, errlen);
}

ul_status ul_renyi_gauss_eps_certified(const char *r, const char *delta, ul_rdp_conversion conv,
                                       const ul_num_precision *want, ul_num_value *eps_out,
                                       char *alpha_out, size_t alpha_len, ul_num_report *rep,
                                       char *err, size_t errlen)
{
    ul_status st = check_conversion(conv, err, errlen);
    if (st != UL_OK)
        return st;
    mpfi_t x;
    mpfi_init2(x, 64);
    st = ul_num_read_domain(x, &ul_domain_r_pos, "r", r, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_delta, "delta", delta, err, errlen);
    mpfi_clear(x);
    if (st != UL_OK)
        return st;
    ul_rdp_gauss_ctx g = {r};
    ul_rdp_curve curve = {ul_renyi_gauss_curve, &g};
    return ul_renyi_curve_certified(UL_RDP_TO_EPS, &curve, 1e15, delta, conv, want, eps_out,
                                    alpha_out, alpha_len, rep, err, errlen);
}

/* ---- certified subsampled Gaussian ---------------------------------------------- */

/* A limit kept for cost, not soundness: lo ≤ text ≤ hi decided at 128 bits,
 * a value too close to a limit to tell counting as inside.  (An exact
 * comparison cannot settle text = limit when the limit, like 1e-3, is not a
 * binary fraction.)  text is already known to be a decimal. */
static ul_status check_soft_range(const char *text, const char *name, const char *lo,
                                  const char *hi, char *err, size_t errlen)
{
    mpfi_t x, b;
    mpfi_init2(x, 128);
    mpfi_init2(b, 128);
    ul_status st = ul_num_read_checked(x, name, text, NULL, false, NULL, false, err, errlen);
    ul_num_set_valid(b, lo); /* lo and hi: the program's constants */
    if (st == UL_OK && mpfr_less_p(&x->right, &b->left))
        st = ul_fail(err, errlen, UL_EINPUT, "%s: must be >= %s (got '%s')", name, lo, text);
    ul_num_set_valid(b, hi);
    if (st == UL_OK && mpfr_greater_p(&x->left, &b->right))
        st = ul_fail(err, errlen, UL_EINPUT, "%s: must be <= %s (got '%s')", name, hi, text);
    mpfi_clear(x);
    mpfi_clear(b);
    return st;
}

typedef struct {
    const char *q, *sigma, *alpha;
} sgm_inputs;

static ul_status eval_sgm(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    const sgm_inputs *in = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure);
    mpfi_t q, s, a;
    mpfi_init2(q, p);
    mpfi_init2(s, p);
    mpfi_init2(a, p);
    ul_status st;
    if (ul_num_set_decimal(q, in->q) != UL_OK || ul_num_set_decimal(s, in->sigma) != UL_OK ||
        ul_num_set_decimal(a, in->alpha) != UL_OK)
        st = ul_fail(err, errlen, UL_EINPUT, "q/sigma/alpha: unreadable");
    else
        st = ul_renyi_sgm_rdp(out->enclosure, a, q, s, err, errlen);
    out->is_log = false;
    mpfi_clear(q);
    mpfi_clear(s);
    mpfi_clear(a);
    return st;
}

ul_status ul_renyi_sgm_rdp_certified(const char *q, const char *sigma, const char *alpha,
                                     const ul_num_precision *want, ul_num_value *rdp_out,
                                     ul_num_report *rep, char *err, size_t errlen)
{
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = ul_num_read_domain(x, &ul_domain_q, "q", q, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_checked(x, "sigma", sigma, "0", true, NULL, false, err, errlen);
    if (st == UL_OK)
        st = check_soft_range(sigma, "sigma", UL_RENYI_SGM_MIN_SIGMA, UL_RENYI_SGM_MAX_SIGMA, err,
                              errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_alpha_sgm, "alpha", alpha, err, errlen);
    mpfi_clear(x);
    if (st != UL_OK)
        return st;
    sgm_inputs in = {q, sigma, alpha};
    return ul_num_adaptive_eval(eval_sgm, &in, want, rdp_out, rep, err, errlen);
}

/* ---- the subsampled Gaussian in double precision (searches only) ------------ *
 *
 * Not a bound: a fast approximation for choosing α (docs/design.md, "Search in
 * doubles, certify in MPFR"); the chosen α is then certified with
 * ul_renyi_sgm_rdp.  It follows [MTZ] §3.3 like the enclosure above, but
 * arranged so that double precision keeps ~1e-13 relative accuracy in
 * log A_α even when A_α − 1 is tiny (small q, large σ), where summing A_α
 * and taking its log would lose log10(1/(A_α − 1)) digits:
 *
 * Integer α ([MTZ] §3.3, as above): log(A_α − 1) as a log-sum-exp of the
 *     positive terms C(α,k)(1−q)^{α−k} q^k expm1((k²−k)/(2σ²)), k ≥ 2.
 *
 * Fractional α: with b_i = C(α,i)(1−q)^{α−i} q^i, c_i = (i²−i)/(2σ²) and
 * Φ_i = Φ((z0 − i)/σ), the I-term of the series above is I_i = b_i e^{c_i} Φ_i
 * (per unit C).  For q < ½ the binomial series Σ_i b_i = ((1−q) + q)^α = 1
 * converges (ratio q/(1−q) < 1), so subtracting it term by term
 *     A_α − 1 = Σ_i [ b_i·h_i + C(α,i) J_i ],   h_i = e^{c_i}Φ_i − 1 = expm1(c_i + log Φ_i)
 * [DERIVED] has no cancellation between large terms: for i = 0, 1 (c_i = 0)
 * h_i = −Q((z0 − i)/σ), tiny when q is small, and the leading i = 2 term is
 * b_2·expm1(1/σ² + log Φ_2) > 0.  (For q ≥ 0.45 the binomial series
 * converges too slowly and the plain series Σ C(α,i)(I_i + J_i) is summed.
 * Where q ≥ 0.2 and A_α is still near 1 — large σ, z0 near 0, where both
 * forms cancel — A_α − 1 comes from a quadrature of a nonnegative
 * integrand instead, sgm_d_am1_quad.)
 * The alternating tail (i > ⌈α⌉) is summed term by term while that converges
 * quickly and by the Euler transform after (as euler_tail above; linear, so
 * it applies to the difference of the two moment sequences too), until the
 * remainder is below 1e-18 of the sum: no cut at e^{−30} as in dp_accounting.
 * log Q comes from erfc for moderate arguments, from log1p(−Q(−x)) below 0,
 * and from Laplace's continued fraction for the Mills ratio beyond 26
 * (DLMF 7.9.1 with z = x/√2, Q(x) = erfc(z)/2: Q(x) = φ(x)/(x + 1/(x + 2/(x + 3/(x + …))))).
 * Terms are carried as (sign, log magnitude) in a running log-sum-exp, so
 * nothing overflows for any σ or α. */

#define LOG_SQRT_2PI_D 0.91893853320467274178
#define SQRT1_2_D 0.70710678118654752440
#define SQRT1_2_LO_D (-4.8336466567264567e-17) /* 1/√2 − SQRT1_2_D */
#define M_2_SQRTPI_D 1.12837916709551257390 /* 2/√π */

/* Q(x) for 0 ≤ x < 26 by erfc (erfc(18.4) ~ 1e-148: no underflow).  x/√2
 * is rounded, an error that would cost 2z²·2^-53 relative at z = x/√2; it
 * is taken back to first order: z = zh + zl (zl from an fma and the low part
 * of 1/√2), erfc(zh + zl) = erfc(zh)·exp(−zl·2e^{−zh²}/(√π·erfc(zh))). */
static double q_erfc(double x)
{
    double zh = x * SQRT1_2_D;
    double zl = fma(x, SQRT1_2_D, -zh) + x * SQRT1_2_LO_D;
    double e = erfc(zh);
    return 0.5 * e * exp(-zl * M_2_SQRTPI_D * exp(-zh * zh) / e);
}

double ul_renyi_log_q_d(double x)
{
    if (isnan(x))
        return NAN;
    if (x < 0) /* Q(x) = 1 − Q(−x); below −26 |log Q| < 1e-148, to 1e-13 relative */
        return log1p(x > -26 ? -q_erfc(-x) : -exp(ul_renyi_log_q_d(-x)));
    if (x < 26)
        return log(q_erfc(x));
    if (isinf(x))
        return -INFINITY;
    /* Laplace's continued fraction, evaluated backwards: at x ≥ 26 forty
     * levels are far more than double needs */
    double f = x;
    for (int k = 40; k >= 1; k--)
        f = x + k / f;
    return -0.5 * x * x - LOG_SQRT_2PI_D - log(f);
}

/* A running sum Σ sign·e^{l} kept as e^{m}·s. */
typedef struct {
    double m, s;
} lse_acc;

static void lse_add(lse_acc *a, double sign, double l)
{
    if (!(l > -INFINITY) || sign == 0)
        return;
    if (l > a->m) {
        a->s = a->s * exp(a->m - l) + sign;
        a->m = l;
    } else {
        a->s += sign * exp(l - a->m);
    }
}

/* log |expm1(x)| for x ≠ 0. */
static double log_abs_expm1_d(double x)
{
    if (x > 30)
        return x + log1p(-exp(-x));
    return log(fabs(expm1(x)));
}

/* log(e^l + 1) (softplus): log A from log(A − 1). */
static double softplus_d(double l)
{
    return l > 0 ? l + log1p(exp(-l)) : log1p(exp(l));
}

/* Integer α = a ≥ 2: log(A_α − 1) (−inf when A_α = 1). */
static double sgm_d_log_am1_int(double a, double q, double sigma)
{
    double lq = log(q), l1q = log1p(-q), s2 = 2 * sigma * sigma, lc = log(a);
    lse_acc acc = {-INFINITY, 0};
    for (double k = 2; k <= a; k++) {
        lc += log((a - k + 1) / k); /* log C(a, k) */
        double c = k * (k - 1) / s2;
        lse_add(&acc, 1, lc + (a - k) * l1q + k * lq + log_abs_expm1_d(c));
    }
    return acc.s > 0 ? acc.m + log(acc.s) : -INFINITY;
}

typedef struct {
    double alpha, sigma, s2, lq, l1q, z0;
    bool minus_one; /* sum A − 1 (q < 0.45) instead of A */
} sgm_d;

/* Term i of the fractional series without its sign, as (sign, log) pairs
 * for the I (or I − binomial) part and the J part; lc = log|C(α, i)|. */
static void sgm_d_term(const sgm_d *s, double i, double lc, double *sign_i, double *l_i,
                       double *l_j)
{
    double j = s->alpha - i;
    double lb = lc + j * s->l1q + i * s->lq;
    double x = i * (i - 1) / s->s2 + ul_renyi_log_q_d((i - s->z0) / s->sigma); /* c_i + log Φ_i */
    if (s->minus_one) {
        *sign_i = x > 0 ? 1 : (x < 0 ? -1 : 0);
        *l_i = *sign_i != 0 ? lb + log_abs_expm1_d(x) : -INFINITY;
    } else {
        *sign_i = 1;
        *l_i = lb + x;
    }
    *l_j = lc + j * s->lq + i * s->l1q + j * (j - 1) / s->s2 +
           ul_renyi_log_q_d((s->z0 - j) / s->sigma);
}

/* The value of term i scaled by e^{−m} (its coefficient's sign excluded). */
static double sgm_d_scaled(const sgm_d *s, double i, double lc, double m)
{
    double si, li, lj;
    sgm_d_term(s, i, lc, &si, &li, &lj);
    return si * exp(li - m) + exp(lj - m);
}

/* Σ_{k≥0} (−1)^k u_{i0+k} (scaled by e^{−m}) by the Euler transform
 * Σ_t (−1)^t Δ^t u_{i0} / 2^{t+1}; lc is log|C(α, i0)|.  Stops when two
 * consecutive contributions are below 1e-18·scale. */
static double sgm_d_euler(const sgm_d *s, double i0, double lc, double m, double scale)
{
    enum { MAX_T = 200 };
    double diag[MAX_T] = {0}; /* after u_t: diag[k] = Δ^k u_{i0+t−k} */
    double sum = 0;
    int small = 0;
    for (int t = 0; t < MAX_T && small < 2; t++) {
        double i = i0 + t;
        double old = diag[0];
        diag[0] = sgm_d_scaled(s, i, lc, m);
        lc += log(fabs(s->alpha - i) / (i + 1));
        for (int k = 1; k <= t; k++) {
            double tmp = diag[k];
            diag[k] = diag[k - 1] - old;
            old = tmp;
        }
        double d = ldexp(t & 1 ? -diag[t] : diag[t], -(t + 1));
        sum += d;
        small = fabs(d) <= 1e-18 * scale ? small + 1 : 0;
    }
    return sum;
}

/* Fractional α: log A_α (plain) or log(A_α − 1) (minus_one). */
static double sgm_d_log_frac(const sgm_d *s)
{
    double n = ceil(s->alpha), lc = 0; /* log C(α, 0) */
    lse_acc acc = {-INFINITY, 0};
    double i = 0;
    for (; i <= n; i++) { /* C(α, i) > 0 for i ≤ ⌈α⌉ */
        double si, li, lj;
        sgm_d_term(s, i, lc, &si, &li, &lj);
        lse_add(&acc, si, li);
        lse_add(&acc, 1, lj);
        lc += log(fabs(s->alpha - i) / (i + 1));
    }
    /* the alternating tail, sign (−1)^{i−n}, in the scale e^{acc.m} */
    double m = acc.m, sum = acc.s, sign = -1;
    int small = 0;
    for (int k = 0; k < 64 && small < 2; k++, i++, sign = -sign) {
        double u = sgm_d_scaled(s, i, lc, m);
        lc += log(fabs(s->alpha - i) / (i + 1));
        sum += sign * u;
        small = fabs(u) <= 1e-18 * fabs(sum) ? small + 1 : 0;
    }
    if (small < 2)
        sum += sign * sgm_d_euler(s, i, lc, m, fabs(sum));
    return sum > 0 ? m + log(sum) : -INFINITY;
}

/* f(x) = (1 + x)^α − 1 − αx ≥ 0 (x > −1), without cancellation: the
 * binomial series Σ_{k≥2} C(α,k)x^k where (α−1)|x| < 0.1 and |x| < 0.5
 * (then each term is less than half the one before), else directly (then
 * αx/f(x) < 21: at most 5 bits lost). */
static double binom_excess_d(double alpha, double x)
{
    if ((alpha - 1) * fabs(x) >= 0.1 || fabs(x) >= 0.5)
        return expm1(alpha * log1p(x)) - alpha * x;
    double term = alpha * (alpha - 1) / 2 * x * x, sum = 0;
    for (int k = 2; k < 200 && fabs(term) > 1e-18 * fabs(sum); k++) {
        sum += term;
        term *= (alpha - k) / (k + 1) * x;
    }
    return sum;
}

/* A_α − 1 = E_{u∼N(0,1)}[f(q(e^{u/σ − 1/(2σ²)} − 1))] ([MTZ] §3.3 with
 * z = σu; E[L − 1] = 0 for the likelihood ratio L, so the linear term
 * integrates to 0) [DERIVED]: a nonnegative integrand, summed by the
 * trapezoidal rule with step 1/4 over u ∈ [−38, 38 + α/σ].  The integrand
 * is analytic in the strip |Im u| < πσ (1 + q(L − 1) ≠ 0 there), so with
 * σ ≥ 1 the rule's relative error is below e^{9/2 − 2π·3·4} < 1e-30
 * (Trefethen & Weideman 2014, SIAM Review 56(3), Thm 5.1, strip half-width
 * 3); the tails beyond ±38 are below e^{−700}.  Used where the series of
 * sgm_d_log_frac lose digits (q ≥ 0.2 with A_α close to 1, i.e. large σ). */
static double sgm_d_am1_quad(double alpha, double q, double sigma)
{
    const double h = 0.25;
    double sum = 0, hi = 38 + alpha / sigma;
    for (double u = -38; u <= hi; u += h) {
        double x = q * expm1(u / sigma - 0.5 / (sigma * sigma));
        sum += exp(-0.5 * u * u) * binom_excess_d(alpha, x);
    }
    return sum * h / 2.5066282746310005; /* √(2π) */
}

double ul_renyi_sgm_log_a_d(double alpha, double q, double sigma)
{
    if (!(alpha > 1) || !(q >= 0 && q <= 1) || !(sigma > 0) || !isfinite(alpha) ||
        !isfinite(sigma))
        return NAN;
    if (q == 0)
        return 0;
    double s2 = 2 * sigma * sigma;
    if (q == 1)
        return (alpha - 1) * alpha / s2; /* the Gaussian: ρ = α/(2σ²) ([M17] Prop. 7) */
    if (alpha == floor(alpha) && alpha <= 1e7)
        return softplus_d(sgm_d_log_am1_int(alpha, q, sigma));
    sgm_d s = {alpha, sigma, s2, log(q), log1p(-q), 0, q < 0.45};
    s.z0 = s2 / 2 * (s.l1q - s.lq) + 0.5; /* where q·μ1 = (1−q)·μ0 */
    double l = sgm_d_log_frac(&s);
    double la = s.minus_one ? softplus_d(l) : l;
    /* where q is not small and A_α is near 1 (then σ ≥ 1), the series lose
     * digits to cancellation (the split point z0 is near 0): the quadrature
     * gives A_α − 1 itself */
    return q >= 0.2 && la < 0.5 && sigma >= 1 ? log1p(sgm_d_am1_quad(alpha, q, sigma)) : la;
}

double ul_renyi_sgm_rdp_d(double alpha, double q, double sigma)
{
    double la = ul_renyi_sgm_log_a_d(alpha, q, sigma);
    if (isnan(la))
        return NAN;
    double rho = la / (alpha - 1);
    return rho > 0 ? rho : 0;
}

double ul_renyi_sgm_curve_d(double alpha, const void *ctx)
{
    const ul_rdp_sgm_d_ctx *g = ctx;
    return ul_renyi_sgm_rdp_d(alpha, g->q, g->sigma);
}

double ul_renyi_composition_curve_d(double alpha, const void *ctx)
{
    /* [M17] Prop. 1, as ul_renyi_composition_curve */
    const ul_rdp_composition_d_ctx *c = ctx;
    double sum = 0;
    for (size_t i = 0; i < c->n; i++)
        sum += (c->counts != NULL ? c->counts[i] : 1) * c->parts[i].fn(alpha, c->parts[i].ctx);
    return sum;
}
