/* src/bounds/koloskova_pabi.h — gradient clipping, PABI (Koloskova et al.,
 * ICML 2025; privacy amplification by iteration, Feldman et al. 2018
 * Thm 22; docs/neural-unlearning.md, "Gradient clipping"): the Rényi bound of a shift allocation,
 * its (ε, δ) conversion, and the public code's recipes.  The theorem and the
 * allocation in koloskova_pabi.c, claims and searches in
 * koloskova_pabi_search.c; conventions in bounds/koloskova_common.h. */
#ifndef UL_BOUNDS_KOLOSKOVA_PABI_H
#define UL_BOUNDS_KOLOSKOVA_PABI_H

#include "bounds/koloskova_common.h"
#include "bounds/renyi.h"

/* Where the per-step noise comes from. */
typedef enum {
    UL_KOL_PABI_GIVEN = 0,       /* pb->sigma: one value, or one per step */
    UL_KOL_PABI_CODE_CONSTANT,   /* the code's closed form (`unlearn_sigma_t`) for eps-renyi */
    UL_KOL_PABI_CODE_DECREASING, /* the code's "decreasing" schedule for eps-renyi */
} ul_kol_pabi_noise;

typedef struct {
    const char *c0, *c1, *lr, *lambda; /* C0 > 0, C1 > 0, lr > 0, λ ≥ 0, lr·λ < 1 */
    ul_kol_init init;
    unsigned long dim;
    unsigned long steps; /* T ≥ 1 */
    bool lr_varies;      /* true when the learning rate is not constant: the
                            formulas need a constant one (precondition) */
    ul_kol_pabi_noise noise;
    const char *const *sigma; /* UL_KOL_PABI_GIVEN */
    size_t n_sigma;
    const char *eps_renyi; /* code schedules: the target ε_R > 0 */
    ul_variant variant;    /* code schedules at λ = 0: PRINTED is the public
                              code's branch σ² = (D0 + 2·lr·C1·T)²/(4·ε_R·T),
                              which gives ρ_eff = 2·ε_R (docs/neural-unlearning.md, Errata K5);
                              CORRECTED (default) is the λ → 0 limit, /(2·ε_R·T) */
} ul_kol_pabi_problem;

/* The shifted-Rényi coefficient (Feldman et al. 2018 Thm 22, docs/neural-unlearning.md, "Gradient
 * clipping").
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
 * solution, see koloskova_pabi.c) and its ρ(a) is certified instead; such an
 * allocation always exists, so pabi_shifts_feasible then holds too.  alloc
 * (may be NULL) says which allocation the value is of. */
typedef struct {
    bool searched;             /* the closed form is not feasible (or not provably): searched */
    bool closed_form_fails;    /* searched because the closed form provably fails (else
                                  undecided at the precision cap) */
    unsigned long negative_at; /* closed form failing: the latest t with z_t < 0 */
    unsigned long n_zero;      /* searched: intermediate shifts z_t (0 < t < T) set to 0 */
    unsigned long zero_at[4];  /* the first min(n_zero, 4) of those t */
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
 * that σ gives ρ_eff = 2·ε_R, not ε_R (docs/neural-unlearning.md, "Gradient clipping", Errata K5).
 * */
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
                                    size_t alpha_len, ul_num_report *rep, char *err, size_t errlen);

/* FAULTY RECIPE, for forensics (docs/neural-unlearning.md, "Public code", `dp_accountant`;
 * docs/neural-unlearning.md, Errata K1): the public code's conversion, which treats eps_renyi as
 * the Rényi ε at every order,
 *   ε_code = min_{α ∈ grid} [ ε_R + log((α−1)/α) − (log δ + log α)/(α−1) ],
 * over its grid α_i = 1.001 + i·998.999/9999, i = 0..9999 (numpy
 * linspace(1.001, 1000, 10000); numpy's doubles lie within an ulp of these
 * exact points).  No clamp, no KL shortcut, as in the code.  This is NOT an
 * (ε, δ) guarantee of the PABI bound.  *grid_index is the minimising i. */
ul_status ul_kol_pabi_code_eps_certified(const char *eps_renyi, const char *delta,
                                         const ul_num_precision *want, ul_num_value *eps,
                                         unsigned long *grid_index, ul_num_report *rep, char *err,
                                         size_t errlen);

/* The code's `pabi_steps`, in exact arithmetic (docs/neural-unlearning.md, "Gradient clipping",
 * Errata K7): T0 = ⌈C0/(C1·lr)⌉; when λ > 0, T1 = ⌈log(2·λ·C0/C1)/(lr·λ)⌉, used when
 * 0 < T1 < T0.  (The code's C0 here is the radius, also for the box.) */
ul_status ul_kol_pabi_code_steps(const char *c0, const char *c1, const char *lr, const char *lambda,
                                 unsigned long *steps, char *err, size_t errlen);

/* ---- PABI: claims and searches (koloskova_pabi_search.c) --------------------- */

/* The linear RDP curve ρ(α) = α·ρ (ul_rdp_curve_fn; Feldman et al. 2018
 * Thm 22 gives it with ρ = ρ_eff), ρ an enclosure (rho, at its precision)
 * or decimal text (rho_text, when not NULL). */
typedef struct {
    mpfi_srcptr rho;
    const char *rho_text;
} ul_kol_linear_ctx;
ul_status ul_kol_linear_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err, size_t errlen);

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
 * for the code's schedules; docs/neural-unlearning.md, "Gradient clipping"): the constant σ (given
 * noise, one σ), the factor on every σ_t (given noise, a list), or ε_R (code schedules).
 * pb's decimals are fields the reader accepted (ul_num_set_valid). */
void ul_kol_pabi_noise_needed(mpfi_ptr out, const ul_kol_pabi_problem *pb, mpfi_srcptr rho,
                              mpfi_srcptr need);

/* FAULTY RECIPES in doubles, for forensics only: the code's pabi_steps with
 * double-precision ceil (docs/neural-unlearning.md, Errata K7), and its conversion of ε_R over the
 * grid of ul_kol_pabi_code_eps_certified at log δ = ld (docs/neural-unlearning.md, "Public code",
 * Errata K1), used only to decide whether the certified recipe is worth evaluating. */
double ul_kol_pabi_code_steps_d(const ul_kol_pabi_problem *pb);
double ul_kol_pabi_code_eps_d(double eps_r, double ld);

#endif
