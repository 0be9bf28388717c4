/* src/bounds/renyi.h — Rényi differential privacy: the Gaussian mechanism,
 * composition, group privacy, the weak triangle inequality, conversions to
 * (ε, δ), and the Poisson-subsampled Gaussian mechanism.
 *
 * Conventions.  Natural logarithms.  For orders α > 1,
 *     D_α(P‖Q) = 1/(α−1) · log E_Q[(dP/dQ)^α]            (Mironov 2017, Def. 3)
 * and a mechanism is (α, ρ)-RDP when D_α(M(D)‖M(D')) ≤ ρ for every ordered
 * pair of adjacent datasets (Def. 4).  An RDP curve is α ↦ ρ(α).  For the
 * Gaussian mechanism r = Δ/σ (sensitivity over noise standard deviation,
 * noise variance σ²).  For the subsampled Gaussian, q is the Poisson sampling
 * rate, sigma the noise multiplier σ/Δ, and adjacency is add/remove one
 * record (Mironov, Talwar, Zhang 2019, arXiv 1908.10530).
 *
 * Every value is an enclosure (MPFI, outward rounding).  Functions taking
 * mpfi arguments are sound for any boxes they are given and return a result
 * at the precision of their output.  "Certified" functions read decimal text
 * exactly, check every input (UL_EINPUT, the message naming the parameter:
 * alpha, rdp, delta, eps, r, q, sigma, conversion), and raise the precision
 * until want->digits digits are correct (num/adaptive.h).
 *
 * Where α is chosen by optimisation the search runs in doubles and is not
 * rigorous; it need not be, since every α > 1 gives a valid bound.  The bound
 * is then certified at the chosen α, which is reported as decimal text: the
 * exact α used (re-running rdp-to-dp with it reproduces the enclosure).
 */
#ifndef UL_BOUNDS_RENYI_H
#define UL_BOUNDS_RENYI_H

#include "num/adaptive.h"

/* Domain limits of the certified functions, checked on the decimal text
 * exactly (the sigma limits, kept for cost and not for soundness, at 128
 * bits: 1e-3 is not a binary fraction). */
#define UL_RENYI_MAX_ALPHA "1e12"      /* α ≤ this */
#define UL_RENYI_MAX_RDP "1e12"        /* ρ ≤ this */
#define UL_RENYI_MAX_EPS "1e12"        /* ε ≤ this */
#define UL_RENYI_MAX_R "1e9"           /* Gaussian r ≤ this */
#define UL_RENYI_SGM_MAX_ALPHA "10000" /* subsampled Gaussian: cost grows like α */
#define UL_RENYI_SGM_MIN_SIGMA "1e-3"
#define UL_RENYI_SGM_MAX_SIGMA "1e6"

/* Room needed for the decimal text of a chosen α (with its terminating NUL). */
#define UL_RENYI_ALPHA_TEXT_LEN 32

/* ---- conversions from one RDP point (α, ρ) to (ε, δ) ---------------------- */

typedef enum {
    /* Mironov 2017 Prop. 3:  ε = ρ + log(1/δ)/(α−1);  δ = exp((α−1)(ρ−ε)).
     * Exactly as printed (no shortcut), as the unlearning papers use it. */
    UL_RDP_MIRONOV,
    /* Balle et al. 2020 Thm 21 = Canonne–Kamath–Steinke 2020 Prop. 12:
     *   ε = ρ + log1p(−1/α) − (log δ + log α)/(α−1),
     *   δ = exp((α−1)(ρ − ε + log1p(−1/α))) / α,
     * as dp_accounting applies it (dp_accounting v0.6.0, rdp/rdp_privacy_accountant.py), at every
     * α > 1 (dp_accounting skips α ≤ 1.01 for double-precision reasons only):
     * ε clamped at 0; the KL (Bretagnolle–Huber) shortcut TV ≤ √(1 − e^{−ρ}):
     * ε = 0 when δ ≥ √(1 − e^{−ρ}), and δ(ε) ≤ √(1 − e^{−ρ}); δ ≤ 1. */
    UL_RDP_BBGHS,
} ul_rdp_conversion;

/* Reads "mironov" or "bbghs" (UL_EINPUT naming "conversion" otherwise). */
ul_status ul_renyi_parse_conversion(const char *name, ul_rdp_conversion *conv, char *err,
                                    size_t errlen);
const char *ul_renyi_conversion_name(ul_rdp_conversion conv);

/* eps ⊇ ε(α, ρ, δ) for α > 1, ρ ≥ 0, 0 < δ < 1 (all boxes in that domain). */
void ul_renyi_eps_enclose(mpfi_ptr eps, mpfi_srcptr alpha, mpfi_srcptr rho, mpfi_srcptr delta,
                          ul_rdp_conversion conv);

/* Which bound gives ε(α, ρ, δ) (the branches of ul_renyi_eps_enclose):
 *   MIRONOV  [M17] Prop. 3 (conversion mironov: always);
 *   BBGHS    Thm 21's formula, positive;
 *   CLAMP    Thm 21's formula is ≤ 0, so ε = 0 ((ε', δ)-DP with ε' < 0
 *            implies (0, δ)-DP);
 *   KL       δ ≥ √(1 − e^{−ρ}), so ε = 0 by the KL shortcut: TV ≤
 *            √(1 − e^{−KL}) (Bretagnolle–Huber), KL = D_1 ≤ D_α ≤ ρ
 *            (van Erven–Harremoës 2014 Thm 3), and (0, δ)-DP is TV ≤ δ;
 *            dp_accounting's compute_epsilon takes it (docs/accounting.md, "The KL shortcut");
 *            always at ρ = 0;
 *   UNDECIDED  not decided at the precision allowed. */
typedef enum {
    UL_RDP_BY_MIRONOV,
    UL_RDP_BY_BBGHS,
    UL_RDP_BY_CLAMP,
    UL_RDP_BY_KL,
    UL_RDP_BY_UNDECIDED,
} ul_rdp_decider;

/* The bound that decides rdp-to-dp's ε for decimal texts that
 * ul_renyi_rdp_to_dp_certified accepted, deciding at 64 bits and doubling
 * up to max_bits. */
ul_rdp_decider ul_renyi_rdp_to_dp_decider(const char *alpha, const char *rdp, const char *delta,
                                          ul_rdp_conversion conv, mpfr_prec_t max_bits);

/* "mironov", "bbghs", "bbghs_clamp", "kl"; NULL for UNDECIDED. */
const char *ul_renyi_decider_name(ul_rdp_decider by);

/* log_delta ⊇ log δ(α, ρ, ε) for α > 1, ρ ≥ 0, ε ≥ 0; never above 0 (δ ≤ 1);
 * -inf where δ = 0 (ρ = 0 with bbghs). */
void ul_renyi_log_delta_enclose(mpfi_ptr log_delta, mpfi_srcptr alpha, mpfi_srcptr rho,
                                mpfi_srcptr eps, ul_rdp_conversion conv);

/* ---- building RDP values ------------------------------------------------- */

/* Gaussian mechanism: rho ⊇ α·r²/2 (Mironov 2017, Prop. 7). */
void ul_renyi_gauss_rdp(mpfi_ptr rho, mpfi_srcptr alpha, mpfi_srcptr r);

/* Weak triangle inequality, Chien et al. 2024, Prop H.2 (Mironov 2017 Cor. 4),
 * for p > 1, q = p/(p−1):
 *   D_α(P‖R) ≤ ((α − 1/p)/(α − 1))·D_{pα}(P‖Q) + D_{q(α−1/p)}(Q‖R).
 * out ⊇ the right-hand side, given d_pq ⊇ D_{pα}(P‖Q) and
 * d_qr ⊇ D_{q(α−1/p)}(Q‖R) (the order q(α−1/p) = (pα−1)/(p−1); 2α−1 at p = 2,
 * eq. (52)). */
void ul_renyi_weak_triangle(mpfi_ptr out, mpfi_srcptr alpha, mpfi_srcptr p, mpfi_srcptr d_pq,
                            mpfi_srcptr d_qr);

/* Its Rényi-difference form, Chien et al. 2024, eq. (57):
 *   d_α(P,R) ≤ ((α − 1/2)/(α − 1))·(d_{2α}(P,Q) + d_{2α}(Q,R)),
 * given d_pq ⊇ d_{2α}(P,Q), d_qr ⊇ d_{2α}(Q,R). */
void ul_renyi_weak_triangle_difference(mpfi_ptr out, mpfi_srcptr alpha, mpfi_srcptr d_pq,
                                       mpfi_srcptr d_qr);

/* Poisson-subsampled Gaussian: rho ⊇ ρ(α) = log(A_α)/(α−1) with
 *   A_α = E_{z∼N(0,σ²)}[((1−q) + q·exp((2z−1)/(2σ²)))^α]      (MTZ 2019, §3.3)
 * over the boxes alpha ⊂ (1, 10000], q ⊂ [0, 1], sigma ⊂ (0, ∞) (the cost
 * grows like α, and like log(1/q) and log(1/σ) in precision).
 * Integer α: the exact binomial sum (all terms positive).  Fractional α: the
 * two signed series of MTZ §3.3 / dp_accounting, summed exactly up to the
 * first negative coefficient, with the alternating tail enclosed rigorously
 * (an Euler-transform bound, see renyi.c); no part is an estimate.  A box is
 * evaluated in interval arithmetic, or, when it straddles an integer α or
 * touches q = 1 without being that point, from its two corners (ρ is
 * nondecreasing in α and q, nonincreasing in σ).  UL_EINPUT (message naming
 * the parameter) outside the domain; UL_ETIME (rho NaN) when the time budget
 * (num/deadline.h) ran out inside the series, asked every few terms. */
ul_status ul_renyi_sgm_rdp(mpfi_ptr rho, mpfi_srcptr alpha, mpfi_srcptr q, mpfi_srcptr sigma,
                           char *err, size_t errlen);

/* ---- RDP curves ------------------------------------------------------------ */

/* A curve encloses ρ over a box of orders: rho ⊇ { ρ(a) : a ∈ alpha }, at
 * rho's precision (alpha is usually a point or a one-ulp box around a
 * decimal).  Non-UL_OK means "not available at this α". */
typedef ul_status (*ul_rdp_curve_fn)(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err,
                                     size_t errlen);
typedef struct {
    ul_rdp_curve_fn fn;
    void *ctx;
} ul_rdp_curve;

/* Ready-made curves; ctx points to the struct next to each.  Parameters are
 * decimal text, read at the precision of each call. */
typedef struct {
    const char *r; /* Δ/σ ≥ 0 */
} ul_rdp_gauss_ctx;
ul_status ul_renyi_gauss_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err,
                               size_t errlen);

typedef struct {
    const char *q, *sigma;
} ul_rdp_sgm_ctx;
ul_status ul_renyi_sgm_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err, size_t errlen);

/* Composition (Mironov 2017 Prop. 1, adaptive too): ρ(α) = Σ counts[i]·ρ_i(α);
 * counts NULL means one of each. */
typedef struct {
    const ul_rdp_curve *parts;
    const unsigned long *counts;
    size_t n;
} ul_rdp_composition_ctx;
ul_status ul_renyi_composition_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err,
                                     size_t errlen);

/* Group privacy for groups of k ≥ 1 records, from Chien et al. 2024, Prop H.2
 * eq. (52) applied recursively along a path D → D' → D'' with D' at distance
 * ⌊k/2⌋ from D and ⌈k/2⌉ from D'':
 *   ρ_k(α) ≤ ((α−1/2)/(α−1))·ρ_{⌊k/2⌋}(2α) + ρ_{⌈k/2⌉}(2α−1),   ρ_1 = ρ.
 * It costs k evaluations of the base curve, at orders up to about 2^⌈log2 k⌉·α;
 * k ≤ 65536. */
typedef struct {
    const ul_rdp_curve *base;
    unsigned long k;
} ul_rdp_group_ctx;
ul_status ul_renyi_group_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err,
                               size_t errlen);

/* ---- certified entry points --------------------------------------------- */

/* ε from one point: alpha ∈ (1, 1e12], rdp ∈ [0, 1e12], delta ∈ (0, 1).
 * eps_out is a plain value (is_log false). */
ul_status ul_renyi_rdp_to_dp_certified(const char *alpha, const char *rdp, const char *delta,
                                       ul_rdp_conversion conv, const ul_num_precision *want,
                                       ul_num_value *eps_out, ul_num_report *rep, char *err,
                                       size_t errlen);

/* δ from one point: eps ∈ [0, 1e12]; delta_out in log form. */
ul_status ul_renyi_rdp_to_delta_certified(const char *alpha, const char *rdp, const char *eps,
                                          ul_rdp_conversion conv, const ul_num_precision *want,
                                          ul_num_value *delta_out, ul_num_report *rep, char *err,
                                          size_t errlen);

/* Which side of the (ε, δ) pair is asked for, the other being given. */
typedef enum { UL_RDP_TO_EPS, UL_RDP_TO_DELTA } ul_rdp_target;

/* The best bound over a list of n ≥ 1 points (alphas[i], rdps[i]) (names in
 * messages: alpha[i], rdp[i]): out ⊇ min_i of the bound at each point, every
 * point certified.  given is delta (UL_RDP_TO_EPS) or eps (UL_RDP_TO_DELTA);
 * out is ε (plain) or δ (log form).  *best is the index whose certified upper
 * end is least. */
ul_status ul_renyi_points_certified(ul_rdp_target target, const char *const *alphas,
                                    const char *const *rdps, size_t n, const char *given,
                                    ul_rdp_conversion conv, const ul_num_precision *want,
                                    ul_num_value *out, size_t *best, ul_num_report *rep, char *err,
                                    size_t errlen);

/* The bound from a curve, optimising α over (1, alpha_max] (alpha_max ≤ 1 or
 * not finite means 1e4) by a search in doubles, then certifying at the chosen
 * α, whose decimal text goes to alpha_out (alpha_len ≥ UL_RENYI_ALPHA_TEXT_LEN). */
ul_status ul_renyi_curve_certified(ul_rdp_target target, const ul_rdp_curve *curve,
                                   double alpha_max, const char *given, ul_rdp_conversion conv,
                                   const ul_num_precision *want, ul_num_value *out, char *alpha_out,
                                   size_t alpha_len, ul_num_report *rep, char *err, size_t errlen);

/* ε of the Gaussian mechanism through RDP (ρ(α) = α r²/2) at the best real
 * α > 1 (searched over (1, 1e15]): r ∈ (0, 1e9], delta ∈ (0, 1). */
ul_status ul_renyi_gauss_eps_certified(const char *r, const char *delta, ul_rdp_conversion conv,
                                       const ul_num_precision *want, ul_num_value *eps_out,
                                       char *alpha_out, size_t alpha_len, ul_num_report *rep,
                                       char *err, size_t errlen);

/* The subsampled Gaussian's ρ(α) from decimal text: q ∈ [0, 1],
 * sigma ∈ [1e-3, 1e6], alpha ∈ (1, 10000]. */
ul_status ul_renyi_sgm_rdp_certified(const char *q, const char *sigma, const char *alpha,
                                     const ul_num_precision *want, ul_num_value *rdp_out,
                                     ul_num_report *rep, char *err, size_t errlen);

/* ---- double precision, for searches only -------------------------------- */

/* Not bounds: fast approximations for choosing a parameter (α) by search in
 * doubles; the chosen point is then certified with the functions above
 * (docs/design.md, "Search in doubles, certify in MPFR").  NaN outside the domain. */

/* log Q(x), Q the standard normal tail, to ~1e-15 relative at every x
 * (erfc, log1p(−Q(−x)) for x < 0, Laplace's continued fraction for x ≥ 26). */
double ul_renyi_log_q_d(double x);

/* log A_α of the Poisson-subsampled Gaussian ([MTZ] §3.3, as
 * ul_renyi_sgm_rdp): α > 1, q ∈ [0, 1], σ > 0.  Integer α by the binomial
 * sum, fractional α by the two series with the alternating tail summed to
 * convergence (Euler transform; no cut); arranged to give log(A_α − 1)
 * without cancellation when A_α is near 1 (renyi.c: the binomial identity
 * for q < 0.45, a quadrature of a nonnegative integrand for larger q and
 * σ ≥ 1).  Relative error of log A_α against the certified enclosure
 * (tests/test_renyi.c): at most 2.2e-13 measured over q ∈ (0, 0.9],
 * σ ∈ [0.3, 10], α ∈ (1, 10^3.5] (the worst near α = 1.01, σ = 0.3). */
double ul_renyi_sgm_log_a_d(double alpha, double q, double sigma);

/* ρ(α) = log A_α/(α−1) (≥ 0). */
double ul_renyi_sgm_rdp_d(double alpha, double q, double sigma);

/* A curve in doubles: ρ(α), or NaN/inf where not available. */
typedef double (*ul_rdp_curve_d_fn)(double alpha, const void *ctx);
typedef struct {
    ul_rdp_curve_d_fn fn;
    const void *ctx;
} ul_rdp_curve_d;

/* ctx: a ul_rdp_sgm_d_ctx. */
typedef struct {
    double q, sigma;
} ul_rdp_sgm_d_ctx;
double ul_renyi_sgm_curve_d(double alpha, const void *ctx);

/* ctx: a ul_rdp_composition_d_ctx: Σ counts[i]·ρ_i(α) (counts NULL: one of each). */
typedef struct {
    const ul_rdp_curve_d *parts;
    const double *counts;
    size_t n;
} ul_rdp_composition_d_ctx;
double ul_renyi_composition_curve_d(double alpha, const void *ctx);

/* As ul_renyi_curve_certified, but the α search evaluates `search` (the same
 * curve in doubles) instead of certified enclosures; the bound is certified
 * once, with `curve`, at the chosen α.  search NULL: the search evaluates
 * `curve` itself (slow). */
ul_status ul_renyi_curve_searched_certified(ul_rdp_target target, const ul_rdp_curve *curve,
                                            const ul_rdp_curve_d *search, double alpha_max,
                                            const char *given, ul_rdp_conversion conv,
                                            const ul_num_precision *want, ul_num_value *out,
                                            char *alpha_out, size_t alpha_len, ul_num_report *rep,
                                            char *err, size_t errlen);

/* The α the search picks, without certifying anything: the minimiser in doubles
 * of the conversion's bound over (1, alpha_max] for the double curve, with
 * log_delta (target eps) or eps (target delta) given as a double; *value
 * receives the bound there in doubles (ε, or log δ).  NaN when the curve is
 * nowhere finite. */
double ul_renyi_search_alpha_d(ul_rdp_target target, const ul_rdp_curve_d *search,
                               double alpha_max, double given, ul_rdp_conversion conv,
                               double *value);

/* The same, starting near alpha_hint (a previous search's α for a nearby
 * curve, e.g. a noise search's last step): nine grid points around it, the
 * whole grid when the best of them is at their edge (the minimiser may lie
 * beyond); alpha_hint NaN: ul_renyi_search_alpha_d.  Choices only. */
double ul_renyi_search_alpha_near_d(ul_rdp_target target, const ul_rdp_curve_d *search,
                                    double alpha_max, double given, ul_rdp_conversion conv,
                                    double alpha_hint, double *value);

#endif
