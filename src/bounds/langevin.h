/* src/bounds/langevin.h — Langevin unlearning (Chien, Wang, Chen, Li,
 * arXiv:2401.10371v4; docs/langevin.md).
 *
 * Learning M is projected noisy gradient descent (PNGD, eq. (1)) on
 * f_D = (1/n) Σ f(·; d_i) over the ball C_R; unlearning U is K more PNGD steps
 * on the edited dataset D' started from the learned parameter (eq. (2)).
 *
 * CONVENTIONS (they differ between papers; docs/langevin.md, "Conventions"):
 *  - sigma is the LANGEVIN σ: one PNGD step adds √(2ησ²)·W, W ~ N(0, I_d),
 *    so the injected noise VARIANCE per coordinate is 2ησ² (standard
 *    deviation √(2η)·σ), not σ².  With η = 1/L the noise is √(2σ²/L)·W
 *    (Alg. 3).  To treat one step with src/bounds/gaussian.h or renyi.h
 *    (noise variance σ²), pass r = Δ/(√(2η)·σ).
 *  - LSI constants follow Chewi's convention (the reciprocal of Vempala and
 *    Wibisono's): N(μ, cI) is c-LSI; a bigger constant is worse.
 *  - Rényi difference d_α(ν,ν') = max(D_α(ν‖ν'), D_α(ν'‖ν)), natural logs;
 *    adjacency replaces up to S records (n stays fixed; group size S).
 *  - In every case of Thm 3.3, ε0 is linear in α; several functions carry
 *    the slope E = ε0(α)/α.
 *
 * Implemented (each with its source next to its formula in
 * langevin.c): Thm 3.3 (ε0 of learning: non-convex, convex, strongly convex,
 * with the LSI recursion and its caps C̄, C̃), Thm 3.2 (Rényi unlearning
 * after K steps, rates R_k), Corollary 3.4 (sequential requests), Prop L.2
 * (conversion to (ε, δ)), the insufficient-training bound of Sec 3.3 (the
 * form derived in docs/langevin.md, "Insufficient training"), and the calibrations of Algorithms
 * 4–8 done right
 * (docs/langevin.md, "Strongly convex closed form").
 *
 * Printed and corrected (ul_variant, default CORRECTED):
 *  - Thm 3.3 (docs/langevin.md, Errata L2–L3): PRINTED sums Σ_{t=1..T} Π_{t'<t} q_t' and
 *    caps C_{t+1} by C̄; CORRECTED sums what the recursion (50) implies,
 *    Σ_{j<T} Π_{t'=j..T−1} q_t', and caps C_{t+1} by C̃ (eq. (47)).
 *  - Thm 3.2 rates (docs/langevin.md, Errata L1): PRINTED R_k = ½(1/A² − 1/(A + 2ησ²)²);
 *    CORRECTED R_k = log(1 + 2ησ²/A), A = (1+ηL)²C_k (non-convex) or C_k
 *    (convex).  Strongly convex: PRINTED R = 2σ²η/C_LSI (case 3 as stated,
 *    sound); CORRECTED R = log(1 + 2ησ²/((1−ηm)²C_LSI)), the same Gronwall
 *    step integrated exactly with the LSI constant (1−ηm)²C_LSI + 2tσ² of the
 *    intermediate laws — never smaller than the printed rate (langevin.c),
 *    so for this case "corrected" is a derived tightening, not an erratum.
 *
 * Preconditions: every theorem function APPENDS to a ul_preconditions list
 * (bounds/theorem.h; pre may be NULL) each condition of the theorem it
 * checked, by stable name, and computes the formula anyway; values outside
 * the formula's domain (α ≤ 1, σ ≤ 0, …) are UL_EINPUT instead.  The
 * certified entry points (decimal text) clear the list, decide the
 * preconditions exactly (decimals are rationals: η = 1/L holds with
 * equality, which no interval can show) and return UL_EINPUT naming the
 * flag and the failed precondition.  Their report pointer may be NULL.
 *
 * Rounding: every enclosure contains the exact value of its formula for
 * every parameter in the input boxes (MPFI, outward rounding).  Choices
 * (α, K, σ) are searched in doubles and certified with enclosures:
 * "reaches" by one decimal α, "does not reach" by a rigorous lower bound of
 * the minimum over all α > 1 (langevin.c, branch and bound).
 */
#ifndef UL_BOUNDS_LANGEVIN_H
#define UL_BOUNDS_LANGEVIN_H

#include <limits.h>
#include <stdbool.h>

#include "bounds/renyi.h"
#include "bounds/theorem.h"
#include "num/adaptive.h"
#include "num/threshold.h"

typedef enum {
    UL_LANGEVIN_NONCONVEX,       /* f(·; d) L-smooth, M-Lipschitz */
    UL_LANGEVIN_CONVEX,          /* … and convex */
    UL_LANGEVIN_STRONGLY_CONVEX, /* … and m-strongly convex */
} ul_langevin_case;

/* The constants of one problem, as enclosures (a decimal input is a one-ulp
 * box).  Unused members may be NULL: m outside the strongly convex case, R
 * in it. */
typedef struct {
    ul_langevin_case kind;
    mpfi_srcptr n;     /* dataset size ≥ 1 */
    mpfi_srcptr L;     /* smoothness ≥ 0 */
    mpfi_srcptr M;     /* Lipschitz constant (or clipping norm) ≥ 0 */
    mpfi_srcptr m;     /* strong convexity > 0 */
    mpfi_srcptr R;     /* radius of the projection ball C_R ≥ 0 */
    mpfi_srcptr eta;   /* step size > 0 */
    mpfi_srcptr sigma; /* Langevin σ > 0: noise variance 2ησ² per step */
} ul_langevin_setting;

/* T = this means the limit T → ∞ (learning run to convergence). */
#define UL_LANGEVIN_T_INF ULONG_MAX
/* Most recursion steps walked one by one (Thm 3.3 and 3.2 recursions); past
 * this the recursion must have become stationary (then a closed form ends
 * it) or UL_EINPUT is returned. */
#define UL_LANGEVIN_MAX_LOOP 10000000UL
/* Largest K any search returns, and most sequential requests. */
#define UL_LANGEVIN_MAX_K 1000000000000000UL
#define UL_LANGEVIN_MAX_REQUESTS 256
/* Room for the decimal text of a chosen α (with its NUL). */
#define UL_LANGEVIN_ALPHA_TEXT_LEN 64

/* Reads "printed" or "corrected" (the CLI's --rate and similar flags);
 * false for anything else. */
bool ul_langevin_variant_parse(const char *text, ul_variant *v);

/* ---- theorems on enclosures ----------------------------------------------- */

/* The LSI caps of Lemma F.2 (eq. (39)) with support radius R + ηM:
 *   C̄ = 6(4(R+ηM)² + ησ²)·exp(4(R+ηM)²/(ησ²))        (46)
 *   C̃ = 6(4(R+ηM)² + 2ησ²)·exp(4(R+ηM)²/(2ησ²))      (40), (47)
 * (upper ends +inf when beyond MPFR's range: still sound).  Needs R, M, η, σ. */
void ul_langevin_caps(mpfi_ptr cbar, mpfi_ptr ctilde, const ul_langevin_setting *s);

/* Thm 3.3: the slope E ⊇ ε0^(S)/α of learning for T iterations (T may be
 * UL_LANGEVIN_T_INF) and group size S ≥ 1, so that learning is
 * (α, α·E)-RDP for every α > 1.
 *   non-convex / convex: E = (2ηS²M²/(σ²n²))·Σ, Σ from the LSI recursion
 *     started at C0 ≥ 0 (the initial law's LSI constant; 0 = a point), per v;
 *   strongly convex (3): E = 4S²M²/(mσ²n²)·(1 − e^{−mηT}) (v ignored).
 * Preconditions: convex "eta_le_2_over_L"; strongly convex "m_le_L",
 * "C0_gt_sigma2_over_m", "eta_le_sc_bound", "eta_le_1_over_L".
 * UL_EINPUT for a value outside the domain, or a recursion that does not
 * become stationary within UL_LANGEVIN_MAX_LOOP steps (a large cap C̄:
 * the message names T when T is finite, eps0_form for the printed sum with
 * T → ∞); the corrected sum with T → ∞ is its limit C1* / h in closed form
 * (langevin.c lsi_stationary) and never fails. */
ul_status ul_langevin_eps0_slope(mpfi_ptr E, const ul_langevin_setting *s, unsigned long S,
                                 mpfi_srcptr C0, unsigned long T, ul_variant v,
                                 ul_preconditions *pre, char *err, size_t errlen);

/* The same times α: eps0 ⊇ ε0^(S)(α), α > 1 (precondition list as above). */
ul_status ul_langevin_eps0(mpfi_ptr eps0, const ul_langevin_setting *s, mpfi_srcptr alpha,
                           unsigned long S, mpfi_srcptr C0, unsigned long T, ul_variant v,
                           ul_preconditions *pre, char *err, size_t errlen);

/* Thm 3.2: lambda ⊇ Λ_K = Σ_{k<K} R_k, the total rate of K unlearning steps
 * started from ν_D with LSI constant C_lsi > 0, rates per v (see above).
 * Preconditions: convex "eta_le_2_over_L"; strongly convex "m_le_L",
 * "sigma2_over_m_lt_C_LSI", "eta_le_sc_bound", "eta_le_1_over_L". */
ul_status ul_langevin_rate_sum(mpfi_ptr lambda, const ul_langevin_setting *s, mpfi_srcptr C_lsi,
                               unsigned long K, ul_variant v, ul_preconditions *pre, char *err,
                               size_t errlen);

/* Thm 3.2 over `count` sequential requests (Cor 3.4): lambda[j] ⊇ Λ_{j+1},
 * the total rate of the K[j] steps of request j + 1.  Strongly convex: Λ_j =
 * K_j·2ησ²/C_lsi (ρ_k stays C_lsi-LSI, case 3).  Convex / non-convex: the
 * LSI recursion runs on across requests (request j + 1 starts from the
 * constant reached after the earlier ones, eq. (38)), so Cor 3.4's assumed
 * "every request starts C_LSI-LSI" is not needed.  count = 1 is
 * ul_langevin_rate_sum.  1 ≤ count ≤ UL_LANGEVIN_MAX_REQUESTS. */
ul_status ul_langevin_rate_sums(mpfi_ptr *lambda, const ul_langevin_setting *s, mpfi_srcptr C_lsi,
                                const unsigned long *K, size_t count, ul_variant v,
                                ul_preconditions *pre, char *err, size_t errlen);

/* The certified decision behind every "does some α reach ε?" of this family:
 *   F(α) = ε^(count)(α) + B/(α − 1),   ε0(α) = α·E,
 *   ε^(1)(α) = e^{−Λ_1/α}·ε0(α),  ε^(j)(α) = e^{−Λ_j/α}·c(α)·(ε0(2α) + ε^(j−1)(2α))
 * (Thm 3.2, Cor 3.4, Prop L.2 with B = log(1/δ) > 0; lam[j] ⊇ Λ_{j+1}).
 * UL_SIDE_SAFE: F ≤ eps at the decimal α returned in *alpha; UL_SIDE_UNSAFE:
 * a rigorous lower bound of F over every α > 1 exceeds eps (branch and bound
 * with a mean-value form, second-order tight at the minimum);
 * UL_SIDE_UNDECIDED: not at precision prec (raise it).  Unless SAFE, *alpha
 * is the double-precision minimiser (for reports).  *alpha is malloc'd, the
 * caller frees it; alpha may be NULL. */
ul_side ul_langevin_min_decide(mpfi_srcptr E, mpfi_srcptr const *lam, size_t count, mpfi_srcptr B,
                               mpfi_srcptr eps, mpfr_prec_t prec, char **alpha);

/* min_{α>1} F(α) in double precision, for searches only (never a verdict). */
double ul_langevin_min_d(mpfi_srcptr E, mpfi_srcptr const *lam, size_t count, mpfi_srcptr B);

/* out ⊇ F(α) above, over the box alpha ⊂ (1, ∞), at out's precision. */
void ul_langevin_objective_at(mpfi_ptr out, mpfi_srcptr E, mpfi_srcptr const *lam, size_t count,
                              mpfi_srcptr B, mpfi_srcptr alpha);

/* Thm 3.2: (α, ε)-RU after K steps, ε = exp(−Λ_K/α)·eps0, returned in log
 * form (eps->is_log; lower end −inf when eps0 may be 0), eps0 ⊇ the
 * learning RDP at order α (e.g. from ul_langevin_eps0). */
ul_status ul_langevin_unlearn(ul_num_value *eps, const ul_langevin_setting *s, mpfi_srcptr alpha,
                              mpfi_srcptr eps0, mpfi_srcptr C_lsi, unsigned long K, ul_variant v,
                              ul_preconditions *pre, char *err, size_t errlen);

/* Corollary 3.4 (with Algorithm 7's first request, which is Thm 3.2 itself):
 *   ε^(1)(α) = e^{−Λ_1/α}·ε0(α),
 *   ε^(s)(α) = e^{−Λ_s/α}·((α − ½)/(α − 1))·(ε0(2α) + ε^(s−1)(2α)),
 * out ⊇ ε^(requests)(α), lambda[s−1] ⊇ Λ_s (the rate sum of request s),
 * eps0 the learning RDP curve (group size of one request), called at the
 * orders 2^j·α.  Curve errors are passed on. */
ul_status ul_langevin_sequential(mpfi_ptr out, mpfi_srcptr alpha, const ul_rdp_curve *eps0,
                                 mpfi_srcptr const *lambda, size_t requests, char *err,
                                 size_t errlen);

/* The curve α ↦ α·E for ul_langevin_sequential; ctx points to the slope E
 * (an mpfi_t). */
ul_status ul_langevin_linear_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err,
                                   size_t errlen);

/* Prop L.2 (80): eps ⊇ ε_RU + log(1/δ)/(α − 1), for α > 1, 0 < δ < 1,
 * eps_ru in either form. */
void ul_langevin_to_dp(mpfi_ptr eps, mpfi_srcptr alpha, const ul_num_value *eps_ru,
                       mpfi_srcptr delta);

/* Insufficient training (Sec 3.3, the form derived in docs/langevin.md, "Insufficient training"):
 * unlearning
 * started from ν_T with d_α(ν_T, ν_D) ≤ ε_T(α) for all D,
 *   d_α(ρ_K, ν'_T) ≤ c(α)·[ e^{−Λ_K/(2α)}·c(2α)·(ε_T(4α) + ε0(4α)) + ε_T(2α) ],
 * c(a) = (a − ½)/(a − 1).  out ⊇ the right-hand side. */
void ul_langevin_insufficient(mpfi_ptr out, mpfi_srcptr alpha, mpfi_srcptr lambda,
                              mpfi_srcptr eps_T_2alpha, mpfi_srcptr eps_T_4alpha,
                              mpfi_srcptr eps0_4alpha);

/* ---- certified entry points: strongly convex closed form (docs/langevin.md, "Strongly convex
 * closed form") -------- */

/* Algorithms 4–8 with C_LSI = 2σ²/m (App. D, Table 1), so that
 *   ε_RU(α; K) = e^{−K·R/α}·ε0(α),  ε0(α) = 4αS²M²/(mσ²n²)·(1 − e^{−mηT}),
 *   ε_DP(K, σ, S) = min_{α>1} [ ε_RU(α; K) + log(1/δ)/(α − 1) ],
 * R = mη (printed and corrected coincide in this case: no erratum).
 * All numbers are decimal text read exactly; names in messages are the CLI
 * flag names: n, m, L, M, eta, delta, S, T, sigma, eps, K, rate. */
typedef struct {
    const char *n;     /* integer, 1 ≤ n ≤ 1e15 */
    const char *m;     /* strong convexity, 0 < m ≤ 1e100 */
    const char *L;     /* smoothness, 0 < L ≤ 1e100 */
    const char *M;     /* Lipschitz constant / clipping norm, 0 < M ≤ 1e100 */
    const char *eta;   /* step size; NULL means 1/L (the paper's choice) */
    const char *delta; /* 0 < δ < 1 */
    unsigned long S;   /* group size of one request, ≥ 1 (0 is read as 1) */
    unsigned long T;   /* learning iterations ≥ 1, or UL_LANGEVIN_T_INF (Alg. 8; 0 is read as inf) */
    ul_variant rate;
} ul_langevin_sc_problem;

/* Preconditions decided exactly: "m_le_L", "eta_le_1_over_L",
 * "eta_le_sc_bound" (η ≤ (2/m)(1 − σ²/(m C_LSI)) = 1/m) and
 * "sigma2_over_m_lt_C_LSI" (σ²/m < 2σ²/m, always).  pre may be NULL.  The
 * corrected rate also needs ηm < 1 (it is infinite at ηm = 1). */

/* ε_DP(K, σ, S) at an α chosen by search (any α > 1 gives a valid bound):
 * eps ⊇ the bound at α = alpha_out (decimal text, re-usable), to
 * want->digits digits.  sigma in (0, 1e100], K ≤ UL_LANGEVIN_MAX_K. */
ul_status ul_langevin_sc_eps_certified(const ul_langevin_sc_problem *pb, const char *sigma,
                                       unsigned long K, const ul_num_precision *want,
                                       ul_num_value *eps, char *alpha_out, size_t alpha_len,
                                       ul_preconditions *pre, ul_num_report *rep, char *err,
                                       size_t errlen);

/* Algorithm 5 done right: the least K ≥ 0 with ε_DP(K, σ, S) ≤ eps.
 * Certified both ways: the bound at alpha_out after K steps is ≤ eps, and
 * for K > 0 no α > 1 brings K − 1 steps to eps (a rigorous lower bound on
 * the minimum over α).  eps_reached ⊇ the bound at alpha_out.
 * UL_ENOROOT beyond UL_LANGEVIN_MAX_K; UL_ECAP when undecidable at the cap. */
ul_status ul_langevin_sc_least_k(const ul_langevin_sc_problem *pb, const char *sigma,
                                 const char *eps, const ul_num_precision *want, unsigned long *K,
                                 ul_num_value *eps_reached, char *alpha_out, size_t alpha_len,
                                 ul_preconditions *pre, ul_num_report *rep, char *err,
                                 size_t errlen);

/* Algorithm 4 done right: σ* = inf{σ : ε_DP(K, σ, S) ≤ eps} (ε_DP decreases
 * in σ).  sigma ⊇ σ*; its upper end is certified safe (some α gives
 * ε_DP ≤ eps there) and its lower end certified unsafe (no α does), unless
 * a bound is exactly σ*.  eps in (0, 1e12]. */
ul_status ul_langevin_sc_sigma_min(const ul_langevin_sc_problem *pb, const char *eps,
                                   unsigned long K, const ul_num_precision *want, mpfi_ptr sigma,
                                   ul_preconditions *pre, ul_num_report *rep, char *err,
                                   size_t errlen);

/* Algorithms 6–7 done right: `requests` sequential requests of pb->S points
 * each (batch within a request, Corollary 3.4 across them); K_list[i] is
 * the least K_i ≥ 0 for request i + 1 given K_list[0..i−1], each certified
 * as in ul_langevin_sc_least_k.  1 ≤ requests ≤ UL_LANGEVIN_MAX_REQUESTS. */
ul_status ul_langevin_sc_sequential_k(const ul_langevin_sc_problem *pb, const char *sigma,
                                      const char *eps, size_t requests, unsigned long *K_list,
                                      ul_preconditions *pre, ul_num_report *rep, char *err,
                                      size_t errlen);

/* ---- certified entry point: non-convex and convex cases ------------------- */

/* ε_DP after K unlearning steps from learning run T iterations (T = 0 or
 * UL_LANGEVIN_T_INF: to convergence), α chosen by search: eps0 from Thm 3.3
 * started at C0 (≥ 0; 0 = a point), rates from Thm 3.2 started at C_lsi
 * (> 0, the LSI constant of ν_D, which the paper assumes), then Prop L.2;
 * eps ⊇ the bound at alpha_out.  Names: n, L, M, R, eta, sigma, C0, C_lsi,
 * delta, S (0 read as 1), T, K.  Precondition "eta_le_2_over_L" (convex)
 * decided exactly; UL_EINPUT when it fails. */
typedef struct {
    ul_langevin_case kind; /* UL_LANGEVIN_NONCONVEX or UL_LANGEVIN_CONVEX */
    const char *n, *L, *M, *R, *eta, *sigma, *C0, *C_lsi, *delta;
    unsigned long S, T, K;
    ul_variant eps0_form, rate;
} ul_langevin_general_problem;

ul_status ul_langevin_general_eps_certified(const ul_langevin_general_problem *pb,
                                            const ul_num_precision *want, ul_num_value *eps,
                                            char *alpha_out, size_t alpha_len,
                                            ul_preconditions *pre, ul_num_report *rep, char *err,
                                            size_t errlen);

/* ---- certified entry points over one whole problem (langevin_problem.c) ----
 *
 * Any case of Thms 3.2/3.3 and any number of sequential requests (Cor 3.4),
 * as the "langevin" audit reads them: decimal text already validated by the
 * caller's schema (so read with ul_num_set_valid), learning run to
 * convergence (T → ∞).  The strongly convex case takes C_LSI = C0 = 2σ²/m
 * (App. D) and ignores R, C0, C_lsi; the others ignore m (C0 NULL = 0, a
 * point initialisation). */
typedef struct {
    ul_langevin_case kind;
    const char *n, *m, *L, *M, *eta, *R, *C0, *C_lsi; /* eta NULL: 1/L exactly */
    const char *delta;       /* NULL: no (ε, δ) claim (B = 0) */
    unsigned long S;         /* group size of one request, ≥ 1 */
    const unsigned long *Ks; /* steps of each request, in order */
    size_t count;            /* 1 ≤ count ≤ UL_LANGEVIN_MAX_REQUESTS */
    mpfr_prec_t max_bits;    /* precision cap of the decisions over α */
} ul_langevin_problem;

/* Where the bound is evaluated: σ (decimal), the steps of the LAST request
 * (the others are pb->Ks), and the forms of Thm 3.2's rates and Thm 3.3's
 * sum (docs/langevin.md, Errata L1–L3). */
typedef struct {
    const char *sigma;
    unsigned long K;
    ul_variant rate, eps0_form;
} ul_langevin_point;

/* Exact signs (−1, 0, 1) of ηL − 1, ηL − 2, ηm − 1 and m − L, the decimals
 * read as rationals (η = 1/L exactly when eta is NULL; the m terms 0 when m
 * is NULL): the step-size preconditions of Thms 3.2/3.3 (Chien et al. 2024). */
typedef struct {
    int eta_L, eta_L2, eta_m, m_L;
} ul_langevin_step_cmp;
void ul_langevin_step_cmp_of(ul_langevin_step_cmp *c, const char *L, const char *eta,
                             const char *m);

/* Does min_{α>1} of the (ε, δ) bound at pt reach eps?  UL_SIDE_SAFE: at the
 * decimal α written to alpha; UL_SIDE_UNSAFE: no α > 1 does (a rigorous
 * lower bound of the minimum, ul_langevin_min_decide).  The precision
 * doubles from 128 bits up to pb->max_bits while undecided.  f (initialised,
 * or NULL) receives the bound at alpha (the witness, or the searched α),
 * linear form.  *st: an error of the constants (then UNDECIDED). */
ul_side ul_langevin_problem_reaches(const ul_langevin_problem *pb, const ul_langevin_point *pt,
                                    const char *eps, ul_num_value *f, char *alpha, size_t alen,
                                    ul_status *st, char *err, size_t errlen);

/* The least K of the last request with the corrected bound at σ ≤ eps
 * (ε_DP decreases in K: every R_k > 0): searched in doubles, certified both
 * ways (K reaches eps; K − 1 provably does not).  UL_ENOROOT beyond 2^40,
 * UL_ECAP when a certification is out of reach. */
ul_status ul_langevin_problem_least_k(const ul_langevin_problem *pb, const char *sigma,
                                      const char *eps, unsigned long *K, char *err, size_t errlen);

/* A σ (decimal, 6 significant digits, rounded up) at which the corrected
 * bound after K steps of the last request certifiably reaches eps:
 * bisection on log σ in doubles above sigma0, then one certified check.
 * Not proven least (the general bound need not be monotone in σ).  false
 * when none is found below 2^40·sigma0. */
bool ul_langevin_problem_sigma(const ul_langevin_problem *pb, unsigned long K, const char *sigma0,
                               const char *eps, char *out, size_t len);

/* ε^(s)(α) at the decimal order alpha (Thm 3.2 with Thm 3.3; Cor 3.4 for
 * several requests), to want->digits; an enclosure either way (*capped, if
 * not NULL, says whether the precision cap stopped it). */
ul_status ul_langevin_problem_renyi(const ul_langevin_problem *pb, const ul_langevin_point *pt,
                                    const char *alpha, const ul_num_precision *want,
                                    ul_num_value *out, bool *capped, char *err, size_t errlen);

/* Whether ul_langevin_problem_renyi's ε^(s)(α) (same arguments) is a
 * rational, and then out = it: the strongly convex case with K = 0 for
 * every request, where each factor e^{−Λ_j/α} is exactly 1, so
 *   ε^(1)(α) = α·E,  E = 4S²M²/(mσ²n²)            (Thm 3.3 (3), T → ∞),
 *   ε^(j)(α) = ((α − ½)/(α − 1))·(2α·E + ε^(j−1)(2α))            (Cor 3.4).
 * Elsewhere it is not: a K > 0 brings e^{−Λ/α} with Λ a positive multiple
 * of mη or log(1 + ·) (transcendental, Lindemann), and the convex and
 * non-convex E carry the caps C̄, C̃ of Lemma F.2, rational multiples of
 * e^{4(R+ηM)²/(ησ²)} with R + ηM > 0.  False also for a decimal beyond an
 * exact reading's limits (num/encl.h). */
bool ul_langevin_problem_renyi_exact(mpq_ptr out, const ul_langevin_problem *pb,
                                     const ul_langevin_point *pt, const char *alpha);

#endif
