/* src/bounds/koloskova.h — Koloskova, Allouah, Jha, Guerraoui, Koyejo, "Certified
 * Unlearning for Neural Networks" (ICML 2025) and its baselines, as certified
 * functions: model clipping, gradient clipping (PABI), output perturbation,
 * and DP-SGD + group privacy.  Source of every formula: spec/koloskova.md
 * (section numbers below), which also describes what the public code
 * (stair-lab/certified-unlearning-neural-networks-icml-2025) computes.
 *
 * Notation.  The paper's learning rate γ is called `lr` here (γ = e^ε in
 * gaussian.h); λ is the ℓ2 regularisation, C0 the initial clip radius, C1
 * the gradient clip, C2 the model-clipping radius, σ the per-step noise
 * standard deviation (noise N(0, σ²I), not 2ησ²), ε natural-log.
 *
 * Every entry point reads its numbers from decimal text, exactly: the
 * preconditions of the theorem (C's > 0, lr·λ < 1, …) are decided in exact
 * rational arithmetic, never by rounding, and each is reported by name in a
 * ul_preconditions list (theorem.h; `pre` may be NULL).  A violated
 * precondition makes the entry point return UL_EINPUT with a message naming
 * the parameter and the precondition; the list then shows every violated one.
 * Parameter names in messages are CLI flag names without dashes: eps, delta,
 * c0, c1, c2, lr, lambda, sigma, sigma0, dim, steps, eps-renyi, q, batch, n,
 * k, eps-total, delta-total.  Results are enclosures (ul_num_value, log form
 * where δ can be astronomically small) to want->digits correct digits, with
 * a ul_num_report; UL_ECAP means sound but wider than asked.
 *
 * Files: koloskova.c (the theorems), koloskova_mc.c (model clipping: the
 * brackets that decide a claim without running the adaptive recursion, and
 * the recursion in doubles for searches), koloskova_pabi.c (PABI: the linear
 * RDP curve's claims and searches, the code's recipes in doubles),
 * koloskova_group.c (DP-SGD + group privacy at a chosen order, and the order
 * search).  The searches run in doubles and only choose where a certified
 * function is evaluated (DESIGN, "search in doubles, certify once").
 */
#ifndef UL_BOUNDS_KOLOSKOVA_H
#define UL_BOUNDS_KOLOSKOVA_H

#include "bounds/contraction.h"
#include "bounds/renyi.h"
#include "bounds/theorem.h"

/* Largest radius, learning rate, λ, σ, σ0 accepted (cost, not soundness). */
#define UL_KOL_MAX_PARAM "1e100"
/* Most noisy steps a PABI problem evaluates one by one (per-step σ lists and
 * the code's decreasing schedule); constant σ has a closed form up to
 * UL_CONTRACTION_MAX_STEPS. */
#define UL_KOL_PABI_MAX_LOOP_STEPS 1000000UL

/* Shape of the initial clip of the trained model (spec §1.2): the ℓ2 ball of
 * radius C0 (code `clip`, diameter 2·C0) or the box [−C0, C0]^d (code
 * `clamp`, diameter 2·C0·√d; spec §4.6: the code's own clamp C0 is
 * data-dependent, here C0 is the box half-width). */
typedef enum { UL_KOL_INIT_BALL = 0, UL_KOL_INIT_BOX } ul_kol_init;

/* ==== model clipping (spec §1.4, §2.3) ======================================== */

/* cc1: x ← Π_{C2}(x − lr·(g + λx)) + N(0, σ²I): the pre-noise point lies in
 * B(0, C2), diameter 2·C2 (every released config).  cc2: gradient clipped to
 * C1, step, noise, then projection: diameter 2·(C2 + lr·C1). */
typedef enum { UL_KOL_CC1 = 0, UL_KOL_CC2 } ul_kol_clip;

typedef struct {
    const char *eps;              /* target ε ≥ 0 */
    ul_kol_clip variant;
    const char *c2;               /* C2 > 0 */
    const char *c1, *lr;          /* cc2 only: C1 > 0 and the largest learning rate > 0 */
    const char *const *sigma;     /* σ_t > 0: one value for every step, or one per step */
    size_t n_sigma;
    unsigned long steps;          /* T */
    const char *c0, *sigma0;      /* initial clip C0 > 0 and noise σ0 ≥ 0; sigma0 NULL or
                                     0: no initial noise, δ0 = 1 (c0 then unused) */
    ul_kol_init init;
    unsigned long dim;            /* d ≥ 1 for UL_KOL_INIT_BOX */
    ul_contraction_mode mode;     /* product (the theorem as quoted) or adaptive (the code) */
} ul_kol_mc_problem;

/* The exact diameter D (2·C2 or 2·(C2 + lr·C1)) as malloc'd decimal text. */
ul_status ul_kol_mc_diameter(const ul_kol_mc_problem *pb, ul_preconditions *pre,
                             char **diameter, char *err, size_t errlen);

/* δ0 = θ_{e^ε}(2·C0/σ0) (box: 2·C0·√d/σ0), or exactly 1 without initial
 * noise; log form. */
ul_status ul_kol_mc_delta0_certified(const ul_kol_mc_problem *pb, const ul_num_precision *want,
                                     ul_preconditions *pre, ul_num_value *delta0,
                                     ul_num_report *rep, char *err, size_t errlen);

/* δ_T after pb->steps noisy steps (contraction.h accounting with r_t = D/σ_t
 * and δ0 above); log form.  *floor_reached as in contraction.h. */
ul_status ul_kol_mc_delta_certified(const ul_kol_mc_problem *pb, const ul_num_precision *want,
                                    ul_preconditions *pre, ul_num_value *delta,
                                    bool *floor_reached, ul_num_report *rep, char *err,
                                    size_t errlen);

/* `model-clipping-t`: the least T ≥ 0 with δ_T ≤ delta for one constant σ
 * (pb->steps ignored; at most max_steps tried).  Certified: δ_T ≤ delta and,
 * when T > 0, δ_{T−1} > delta.  UL_ENOROOT when max_steps do not suffice;
 * UL_ECAP (with *steps a certified sufficient T) when undecided at the cap. */
ul_status ul_kol_mc_least_steps(const ul_kol_mc_problem *pb, const char *delta,
                                unsigned long max_steps, ul_preconditions *pre,
                                unsigned long *steps, ul_num_report *rep, char *err,
                                size_t errlen);

/* `model-clipping-sigma`: the smallest constant σ with δ_T ≤ delta after
 * pb->steps ≥ 1 steps (pb->sigma ignored).  sigma ⊇ σ*; its upper end is
 * certified safe, its lower end certified unsafe (0 when δ0 ≤ delta). */
ul_status ul_kol_mc_sigma_min(const ul_kol_mc_problem *pb, const char *delta,
                              const ul_num_precision *want, ul_preconditions *pre,
                              mpfi_ptr sigma, ul_num_report *rep, char *err, size_t errlen);

/* ---- model clipping: brackets and searches (koloskova_mc.c) ------------------ */

/* Where a certified quantity lies against a claimed value: certified at most
 * the claim, certified above it, or undecided at this precision. */
typedef enum { UL_KOL_UNDECIDED = 0, UL_KOL_AT_MOST, UL_KOL_ABOVE } ul_kol_side;

/* σ0 > 0 (initial noise, so δ0 < 1), decided on the decimal text. */
bool ul_kol_mc_initial_noise(const ul_kol_mc_problem *pb);

/* A certified lower bound on the adaptive δ_T: log(δ0·θ*^T), θ* =
 * θ_{e^ε̃*}(D/σ), ε̃* = log(1 + (e^ε − 1)/claim) (ε for the product form):
 * while δ_t > claim, ε̃_t < ε̃* and θ is nonincreasing in ε (spec §2.1,
 * §2.3), so every step multiplies δ_t by at least θ*.  Valid as a lower
 * bound whenever it lies above the claim.  One constant σ; `lower` (log
 * form) at p bits.  False when not computable. */
bool ul_kol_mc_delta_lower_bound(const ul_kol_mc_problem *pb, const char *claim, mpfr_prec_t p,
                                 ul_num_value *lower);

/* The adaptive claim δ_T ≤ claim decided without running the recursion:
 * with g(L) = log θ_{e^{ε̃(L)}}(D/σ) nondecreasing in L = log δ (spec §2.1,
 * §2.3), the recursion with θ frozen at the bottom (top) of each of 256
 * bands of log δ between δ0 and the claim stays below (above) the true
 * log δ_t.  UL_KOL_ABOVE when the lower sequence ends above the claim,
 * UL_KOL_AT_MOST when the upper one reaches it, else UL_KOL_UNDECIDED;
 * *bound (log form, p bits) is the deciding end.  Adaptive mode, one
 * constant σ. */
ul_kol_side ul_kol_mc_band_decide(const ul_kol_mc_problem *pb, const char *claim, mpfr_prec_t p,
                                  ul_num_value *bound);

/* A certified lower bound on the least T with δ_T ≤ delta (one constant σ):
 * T ≥ log(δ/δ0)/log θ* (θ* as above).  False when not computable. */
bool ul_kol_mc_least_steps_lower_bound(const ul_kol_mc_problem *pb, const char *delta,
                                       double *lb);

/* The smallest constant σ with the adaptive δ_T ≤ delta after pb->steps
 * steps: bisection on log σ in doubles (ul_kol_mc_log_delta_d), then one
 * certified recursion on each side of the estimate (δ_T(hi) ≤ δ and
 * δ_T(lo) > δ), widened up to three times: out ⊇ σ* (δ_T is nonincreasing
 * in σ).  False when not certified. */
bool ul_kol_mc_sigma_min_searched(const ul_kol_mc_problem *pb, const char *delta, mpfi_ptr out);

/* Doubles, for searches only (never a bound).  log δ_T for `steps` steps at
 * the constant σ `sigma` (> 0), or at the problem's σ_t when sigma = 0 (the
 * recursion of spec §2.3 with Q by erfc and the Mills-ratio series); −inf
 * once below 10^-300·e^-300.  And log of a decimal (finite for δ = 1e-400). */
double ul_kol_mc_log_delta_d(const ul_kol_mc_problem *pb, double sigma, unsigned long steps);
double ul_kol_log_decimal_d(const char *text);

/* ==== gradient clipping, PABI (spec §1.3, §2.4) =============================== */

/* Where the per-step noise comes from. */
typedef enum {
    UL_KOL_PABI_GIVEN = 0,         /* pb->sigma: one value, or one per step */
    UL_KOL_PABI_CODE_CONSTANT,     /* the code's closed form (`unlearn_sigma_t`) for eps-renyi */
    UL_KOL_PABI_CODE_DECREASING,   /* the code's "decreasing" schedule for eps-renyi */
} ul_kol_pabi_noise;

typedef struct {
    const char *c0, *c1, *lr, *lambda; /* C0 > 0, C1 > 0, lr > 0, λ ≥ 0, lr·λ < 1 */
    ul_kol_init init;
    unsigned long dim;
    unsigned long steps;               /* T ≥ 1 */
    bool lr_varies;                    /* true when the learning rate is not constant: the
                                          formulas need a constant one (precondition) */
    ul_kol_pabi_noise noise;
    const char *const *sigma;          /* UL_KOL_PABI_GIVEN */
    size_t n_sigma;
    const char *eps_renyi;             /* code schedules: the target ε_R > 0 */
    ul_variant variant;                /* code schedules at λ = 0: PRINTED is the public
                                          code's branch σ² = (D0 + 2·lr·C1·T)²/(4·ε_R·T),
                                          which gives ρ_eff = 2·ε_R (spec §4.5); CORRECTED
                                          (default) is the λ → 0 limit, /(2·ε_R·T) */
} ul_kol_pabi_problem;

/* The shifted-Rényi coefficient (Feldman et al. 2018 Thm 22, spec §2.4).
 * Step t maps the shift z to ρ·z + s and its noise removes a_t ≥ 0 at cost
 * α·a_t²/(2σ_t²); from z_0 = D0, z_{t+1} = ρ·z_t + s − a_t, and EVERY
 * allocation with a_t ≥ 0, z_t ≥ 0 (0 < t < T) and z_T = 0 gives
 *   D_α(X_T‖X'_T) ≤ α·ρ(a),   ρ(a) = Σ_{t<T} a_t²/(2σ_t²).
 * Its minimum without the z_t ≥ 0 constraints is the closed form
 *   ρ_eff = ½·B² / Σ_{t<T} w_t²·σ_t²,
 *   B = ρ^T·D0 + Σ_{t<T} w_t·s,   w_t = ρ^{T−1−t},  ρ = 1 − lr·λ,  s = 2·lr·C1,
 * at a_t = B·w_t·σ_t²/S: when that allocation keeps every z_t ≥ 0 (always for
 * constant σ) it is the optimum and ρ_eff is returned.  When it does not (a
 * front-loaded per-step σ; the code's decreasing schedule in its Figure-2
 * configuration) a feasible allocation is searched in doubles (the KKT
 * solution, see koloskova.c) and its ρ(a) is certified instead; such an
 * allocation always exists, so pabi_shifts_feasible then holds too.  alloc
 * (may be NULL) says which allocation the value is of. */
typedef struct {
    bool searched;               /* the closed form is not feasible (or not provably): searched */
    bool closed_form_fails;      /* searched because the closed form provably fails (else
                                    undecided at the precision cap) */
    unsigned long negative_at;   /* closed form failing: the latest t with z_t < 0 */
    unsigned long n_zero;        /* searched: intermediate shifts z_t (0 < t < T) set to 0 */
    unsigned long zero_at[4];    /* the first min(n_zero, 4) of those t */
} ul_kol_pabi_alloc;

ul_status ul_kol_pabi_rho_alloc_certified(const ul_kol_pabi_problem *pb,
                                          const ul_num_precision *want, ul_preconditions *pre,
                                          ul_num_value *rho, ul_kol_pabi_alloc *alloc,
                                          ul_num_report *rep, char *err, size_t errlen);
/* The same without alloc. */
ul_status ul_kol_pabi_rho_certified(const ul_kol_pabi_problem *pb, const ul_num_precision *want,
                                    ul_preconditions *pre, ul_num_value *rho, ul_num_report *rep,
                                    char *err, size_t errlen);

/* The shifts z_0..z_T of the allocation ul_kol_pabi_rho_certified uses, into
 * *z (T + 1 doubles, malloc'd, the caller frees; z_0 is D0 rounded to
 * nearest, the exact D0 being what is certified), or *z = NULL when it uses
 * the closed form.  The searched z_t (t ≥ 1) are exactly the doubles whose
 * a_t = ρ·z_t + s − z_{t+1} are certified: for an independent check. */
ul_status ul_kol_pabi_searched_shifts(const ul_kol_pabi_problem *pb, double **z, char *err,
                                      size_t errlen);

/* ρ_eff exactly, into out, where every operation of the closed form is
 * rational and cheap: D0 rational (the ball, or the box with a square dim),
 * σ given or the code's constant schedule (or either schedule at λ = 0),
 * ρ^{2T} of modest size (always at λ = 0: ρ = 1), the closed form feasible
 * (decided exactly) and every precondition holding.  False otherwise (out
 * then unspecified).  For deciding a claim equal to the bound (a tie). */
bool ul_kol_pabi_rho_exact(const ul_kol_pabi_problem *pb, mpq_ptr out);

/* The same expression evaluated without the two preconditions that do not
 * affect its definition (pabi_shifts_feasible, lr_schedule_constant): what
 * the code logs as "epsilon_renyi".  Forensics only, not a guarantee. */
ul_status ul_kol_pabi_rho_formula_certified(const ul_kol_pabi_problem *pb,
                                            const ul_num_precision *want, ul_num_value *rho,
                                            ul_num_report *rep, char *err, size_t errlen);

/* σ_t of the code's schedule (pb->noise a code schedule; t < T is used by
 * the decreasing one only).  With D0 the initial diameter, c = (1 − lr·λ)^T,
 * A = D0·c + (2·C1/λ)(1 − c):
 *   constant, λ > 0:   σ² = A²·lr·λ(2 − lr·λ) / (2·ε_R·(1 − c²))
 *   decreasing, λ > 0: σ_t² = A² / (2·ε_R·T·(1 − lr·λ)^{2(T−t−1)})
 *   λ = 0:             σ² = (D0 + 2·lr·C1·T)² / (4·ε_R·T) as printed in the
 *                      code, /(2·ε_R·T) corrected (pb->variant).
 * *code_lambda_zero_branch is set when the printed λ = 0 branch was used:
 * that σ gives ρ_eff = 2·ε_R, not ε_R (spec §2.4, §4.5). */
ul_status ul_kol_pabi_code_sigma_certified(const ul_kol_pabi_problem *pb, unsigned long t,
                                           const ul_num_precision *want, ul_preconditions *pre,
                                           ul_num_value *sigma, bool *code_lambda_zero_branch,
                                           ul_num_report *rep, char *err, size_t errlen);

/* The correct (ε, δ) of PABI: RDP linear in α, ρ(α) = α·ρ_eff, converted by
 * renyi.h (conv) at the best α > 1 (searched in doubles, certified at the
 * decimal α written to alpha_out).  Preconditions as ul_kol_pabi_rho_certified. */
ul_status ul_kol_pabi_eps_certified(const ul_kol_pabi_problem *pb, const char *delta,
                                    ul_rdp_conversion conv, const ul_num_precision *want,
                                    ul_preconditions *pre, ul_num_value *eps, char *alpha_out,
                                    size_t alpha_len, ul_num_report *rep, char *err,
                                    size_t errlen);

/* FAULTY RECIPE, for forensics (spec §3 `dp_accountant`, §4.1): the public
 * code's conversion, which treats eps_renyi as the Rényi ε at every order,
 *   ε_code = min_{α ∈ grid} [ ε_R + log((α−1)/α) − (log δ + log α)/(α−1) ],
 * over its grid α_i = 1.001 + i·998.999/9999, i = 0..9999 (numpy
 * linspace(1.001, 1000, 10000); numpy's doubles lie within an ulp of these
 * exact points).  No clamp, no KL shortcut, as in the code.  This is NOT an
 * (ε, δ) guarantee of the PABI bound.  *grid_index is the minimising i. */
ul_status ul_kol_pabi_code_eps_certified(const char *eps_renyi, const char *delta,
                                         const ul_num_precision *want, ul_num_value *eps,
                                         unsigned long *grid_index, ul_num_report *rep,
                                         char *err, size_t errlen);

/* The code's `pabi_steps`, in exact arithmetic (spec §2.4, §4.7):
 * T0 = ⌈C0/(C1·lr)⌉; when λ > 0, T1 = ⌈log(2·λ·C0/C1)/(lr·λ)⌉, used when
 * 0 < T1 < T0.  (The code's C0 here is the radius, also for the box.) */
ul_status ul_kol_pabi_code_steps(const char *c0, const char *c1, const char *lr,
                                 const char *lambda, unsigned long *steps, char *err,
                                 size_t errlen);

/* ---- PABI: claims and searches (koloskova_pabi.c) ---------------------------- */

/* The linear RDP curve ρ(α) = α·ρ (ul_rdp_curve_fn; Feldman et al. 2018
 * Thm 22 gives it with ρ = ρ_eff), ρ an enclosure (rho, at its precision)
 * or decimal text (rho_text, when not NULL). */
typedef struct {
    mpfi_srcptr rho;
    const char *rho_text;
} ul_kol_linear_ctx;
ul_status ul_kol_linear_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err,
                              size_t errlen);

/* The largest ρ (6 significant digits, rounded down, as decimal text into
 * out) whose certified ε at delta under conv is ≤ eps: bisection in log ρ
 * below rho_bound's upper end in doubles, then the candidate certified.
 * False when none is found. */
bool ul_kol_pabi_largest_rho(const char *eps, const char *delta, ul_rdp_conversion conv,
                             mpfi_srcptr rho_bound, char *out, size_t outlen);

/* D_α ≤ α·ρ_eff at the decimal α `order` (plain, at rho's precision);
 * order a field the reader accepted (ul_num_set_valid, num/input.h). */
void ul_kol_pabi_renyi_bound(ul_num_value *out, const char *order, const ul_num_value *rho);

/* value/α: the largest ρ_eff with α·ρ_eff ≤ value (at need's precision);
 * false when it is 0 or a text is not a decimal in range. */
bool ul_kol_pabi_rho_for_renyi(mpfi_ptr need, const char *value, const char *order);

/* δ at eps of the linear curve α·ρ (ρ an enclosure), α searched over
 * (1, 1e15] and certified (renyi.h); log form. */
ul_status ul_kol_pabi_delta_at_eps(mpfi_srcptr rho, const char *eps, ul_rdp_conversion conv,
                                   const ul_num_precision *want, ul_num_value *delta,
                                   ul_num_report *rep, char *err, size_t errlen);

/* The noise that brings ρ_eff = rho down to need (ρ_eff ∝ 1/σ², and ∝ ε_R
 * for the code's schedules; spec §2.4): the constant σ (given noise, one σ),
 * the factor on every σ_t (given noise, a list), or ε_R (code schedules).
 * pb's decimals are fields the reader accepted (ul_num_set_valid). */
void ul_kol_pabi_noise_needed(mpfi_ptr out, const ul_kol_pabi_problem *pb, mpfi_srcptr rho,
                              mpfi_srcptr need);

/* FAULTY RECIPES in doubles, for forensics only: the code's pabi_steps with
 * double-precision ceil (spec §4.7), and its conversion of ε_R over the grid
 * of ul_kol_pabi_code_eps_certified at log δ = ld (spec §3, §4.1), used
 * only to decide whether the certified recipe is worth evaluating. */
double ul_kol_pabi_code_steps_d(const ul_kol_pabi_problem *pb);
double ul_kol_pabi_code_eps_d(double eps_r, double ld);

/* ==== output perturbation (spec §1.5, §2.5) =================================== */

/* `output-perturbation-sigma`.  classic ⊇ the classical Gaussian-mechanism
 * noise for sensitivity 2·C0 (Dwork–Roth Thm A.1, the code's dp-baseline):
 *   σ = 2·C0·√(2·log(1.25/δ)) / ε,   i.e. σ² = 8·C0²·log(1.25/δ)/ε²;
 * exact ⊇ the smallest σ with θ_{e^ε}(2·C0/σ) ≤ δ (upper end certified safe).
 * The classical theorem's domain eps_lt_1 (ε < 1) is reported in pre but not
 * enforced; *classic_delivers says whether the classic σ really gives
 * (ε, δ): HOLDS/FAILS decided with enclosures (the Lemma A.4 check of
 * gaussian.h at the exact classic point: the loose bound equals δ there). */
ul_status ul_kol_op_sigma_certified(const char *c0, const char *eps, const char *delta,
                                    const ul_num_precision *want, ul_preconditions *pre,
                                    ul_num_value *classic, ul_pre_state *classic_delivers,
                                    mpfi_ptr exact, ul_num_report *rep, char *err,
                                    size_t errlen);

/* The exact δ of output perturbation with noise σ: θ_{e^ε}(2·C0/σ); log form. */
ul_status ul_kol_op_delta_certified(const char *c0, const char *sigma, const char *eps,
                                    const ul_num_precision *want, ul_preconditions *pre,
                                    ul_num_value *delta, ul_num_report *rep, char *err,
                                    size_t errlen);

/* ==== DP-SGD + group privacy (spec §1.6, §2.6) ================================ */

typedef enum {
    /* Group privacy of (ε, δ)-DP for k records: (k·ε, δ·Σ_{i<k} e^{iε})
     * = (k·ε, δ·(e^{kε} − 1)/(e^ε − 1)) (Dwork–Roth; spec §2.6). */
    UL_KOL_GROUP_EXACT = 0,
    /* FAULTY, the public code's (spec §1.6, §4.4): δ·e^{(k−1)ε}, the largest
     * term of the sum only.  Not a group-privacy guarantee for k ≥ 2. */
    UL_KOL_GROUP_CODE_LARGEST_TERM,
} ul_kol_group_rule;

/* log δ_k ⊇ the rule's group δ over the boxes eps ⊂ [0, ∞), log_delta. */
void ul_kol_group_log_delta_enclose(mpfi_ptr log_delta_k, mpfi_srcptr eps,
                                    mpfi_srcptr log_delta, unsigned long k,
                                    ul_kol_group_rule rule);

/* The group pair from a per-example (eps, delta): eps_k = k·ε (plain),
 * delta_k (log form).  eps ≥ 0, 0 < delta ≤ 1, k ≥ 1. */
ul_status ul_kol_group_certified(const char *eps, const char *delta, unsigned long k,
                                 ul_kol_group_rule rule, const ul_num_precision *want,
                                 ul_preconditions *pre, ul_num_value *eps_k,
                                 ul_num_value *delta_k, ul_num_report *rep, char *err,
                                 size_t errlen);

/* The code's per-example target (spec §1.6): ε_train = ε_tot/k and
 * δ_train = δ_tot·e^{−(k−1)·ε_train} (the code's reading of group privacy),
 * and the group δ that per-example pair really gives,
 * group_delta = δ_train·Σ_{i<k} e^{i·ε_train} (spec §4.4: 5.0185e-5, not
 * 1e-5, for (50, 1e-5) and k = 225).  eps_train plain; the δ's log form. */
ul_status ul_kol_dpsgd_code_split_certified(const char *eps_total, const char *delta_total,
                                            unsigned long k, const ul_num_precision *want,
                                            ul_preconditions *pre, ul_num_value *eps_train,
                                            ul_num_value *delta_train, ul_num_value *group_delta,
                                            ul_num_report *rep, char *err, size_t errlen);

/* DP-SGD training: Poisson rate q (decimal text, or batch/n exactly when q
 * is NULL), noise multiplier sigma (σ/clip), `steps` compositions. */
typedef struct {
    const char *q;
    unsigned long batch, n;
    const char *sigma;
    unsigned long steps;
} ul_kol_dpsgd_problem;

typedef struct {
    ul_num_value eps_example;      /* per-example ε at delta (plain) */
    ul_num_value eps_group;        /* k·ε (plain) */
    ul_num_value delta_group;      /* δ·Σ_{i<k} e^{iε} (log form) */
    ul_num_value delta_group_code; /* δ·e^{(k−1)ε}, the code's, FAULTY (log form) */
    char alpha[UL_RENYI_ALPHA_TEXT_LEN]; /* the order the per-example ε was certified at */
} ul_kol_dpsgd_result;

void ul_kol_dpsgd_result_init(ul_kol_dpsgd_result *r);
void ul_kol_dpsgd_result_clear(ul_kol_dpsgd_result *r);

/* Per-example ε at delta from the Poisson-subsampled Gaussian RDP curve
 * (renyi.h) composed pb->steps times, α optimised over (1, 10000] and
 * certified (conv), then the group of k records by both rules.  The report
 * is the per-example ε's (asked for with log10(k) + 2 more digits). */
ul_status ul_kol_dpsgd_group_certified(const ul_kol_dpsgd_problem *pb, const char *delta,
                                       unsigned long k, ul_rdp_conversion conv,
                                       const ul_num_precision *want, ul_preconditions *pre,
                                       ul_kol_dpsgd_result *out, ul_num_report *rep, char *err,
                                       size_t errlen);

/* ---- DP-SGD + group privacy: claims and searches (koloskova_group.c) ---------- */

/* The composed curve steps·ρ_SGM(α; q, σ) (ul_rdp_curve_fn; MTZ 2019 §3.3,
 * Mironov 2017 Prop. 1) at the exact rate q (pb->q, or batch/n): init, then
 * set (pb already checked: 1 ≤ batch ≤ n, q a decimal in [0, 1] that
 * ul_num_check_exact accepted; ul_num_mpq_valid aborts otherwise), clear. */
typedef struct {
    const ul_kol_dpsgd_problem *pb;
    mpq_t q;
} ul_kol_dpsgd_curve_ctx;
void ul_kol_dpsgd_curve_init(ul_kol_dpsgd_curve_ctx *c);
void ul_kol_dpsgd_curve_set(ul_kol_dpsgd_curve_ctx *c, const ul_kol_dpsgd_problem *pb);
void ul_kol_dpsgd_curve_clear(ul_kol_dpsgd_curve_ctx *c);
ul_status ul_kol_dpsgd_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err,
                             size_t errlen);

/* The group δ at the claimed eps at the decimal order alpha: ε' = eps/k
 * exactly, log δ' ⊇ the conversion (renyi.h) of (α, steps·ρ_SGM(α)) at ε',
 * log δ_group = log δ' + log Σ_{i<k} e^{iε'} (spec §2.6); both log form,
 * log_delta_example at the same precision. */
ul_status ul_kol_dpsgd_group_delta_certified(const ul_kol_dpsgd_curve_ctx *curve, const char *alpha,
                                             const char *eps, unsigned long k,
                                             ul_rdp_conversion conv, const ul_num_precision *want,
                                             ul_num_value *log_delta_group,
                                             ul_num_value *log_delta_example, ul_num_report *rep,
                                             char *err, size_t errlen);

/* The per-example ε' at the decimal δ' of steps·ρ_SGM(α) at the decimal α
 * (renyi.h's conversion; plain). */
ul_status ul_kol_dpsgd_eps_at_certified(const ul_kol_dpsgd_curve_ctx *curve, const char *alpha,
                                        const char *delta, ul_rdp_conversion conv,
                                        const ul_num_precision *want, ul_num_value *eps,
                                        ul_num_report *rep, char *err, size_t errlen);

/* log of the per-example δ' group privacy needs at ε' = eps/k for the group
 * δ `delta`: log δ − log Σ_{i<k} e^{iε'} (spec §2.6). */
ul_status ul_kol_group_delta_needed_certified(const char *eps, const char *delta, unsigned long k,
                                              const ul_num_precision *want, ul_num_value *out,
                                              ul_num_report *rep, char *err, size_t errlen);

/* ε/k at prec bits (plain); and as text to 20 and 8 digits (round to
 * nearest; for searches and the report, not a bound).  The decimal texts
 * of ul_kol_group_eps_split, _pair and _code_rule_at are fields the
 * certificate reader accepted (read with ul_num_set_valid, num/input.h). */
void ul_kol_group_eps_split(ul_num_value *v, const char *eps, unsigned long k, mpfr_prec_t prec);
void ul_kol_group_eps_split_text(const char *eps, unsigned long k, char *eps1, char *eps1_short,
                                 size_t n);

/* The group pair (k·ε', log(δ'·Σ_{i<k} e^{iε'})) of ε' = eps_example and the
 * decimal δ' (Dwork–Roth; spec §2.6), at eps_example's precision. */
void ul_kol_group_pair(const ul_num_value *eps_example, const char *delta_example, unsigned long k,
                       ul_num_value *eps_group, ul_num_value *log_delta_group);

/* FAULTY, the code's rule (spec §1.6, §4.4) on the accountant's pair:
 * log(δ'·e^{(k−1)ε'}), ε' = eps/k, at the precision of log δ'. */
void ul_kol_group_code_rule_at(ul_num_value *out, const char *eps, unsigned long k,
                               const ul_num_value *log_delta_example);

/* The order α in (1, 10000] minimising the conversion's bound (log δ' at
 * ε' = given for UL_RDP_TO_DELTA, ε' at log δ' = given for UL_RDP_TO_EPS) of
 * steps·ρ_SGM in doubles: renyi.h's ul_renyi_search_alpha_d on its double
 * curve, refined by golden section near the optimum; written as the
 * shortest decimal (10 to 17 digits) within 1e-13·(α − 1) of it.  Any α
 * gives a valid bound; this only makes it tight.  False when the objective
 * is nowhere finite. */
bool ul_kol_dpsgd_best_alpha(const ul_kol_dpsgd_curve_ctx *curve, ul_rdp_target target,
                             double given, ul_rdp_conversion conv, char *out, size_t n);

#endif
