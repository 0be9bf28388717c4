/* src/bounds/dpsgd.h — DP-SGD accounting: the privacy of a run of DP-SGD,
 * a sequence of phases, each `steps` applications of the Poisson-subsampled
 * Gaussian mechanism with sample rate q and noise multiplier σ (noise
 * standard deviation over the clipping norm C), as in Opacus's accountant
 * history [(noise_multiplier, sample_rate, steps)].  The per-record
 * contribution to a step's sum has L2 norm ≤ Δ·C (the sensitivity Δ,
 * default 1: per-example clipping).
 *
 * Neighbouring datasets:
 *   UL_DPSGD_ADD_REMOVE  one record added or removed (Opacus, TF Privacy and
 *       dp_accounting's default for Poisson sampling).  RDP: Mironov, Talwar,
 *       Zhang 2019 §3.3 (both orders of the pair; renyi.h); PLD: the
 *       dominating pairs of pld.h, max of the two directions.
 *   UL_DPSGD_REPLACE     one record replaced.  All q = 1: the Gaussian with
 *       r = 2Δ/σ per step (a replacement moves the sum by up to 2ΔC).  Some
 *       q < 1: a replacement is a removal then an addition, so group privacy
 *       for 2 records applies to the add/remove RDP curve of the whole run
 *       (Chien et al. 2024, Prop H.2 eq. (52), renyi.h ul_renyi_group_curve);
 *       the PLD engine has no proven pair for it (pld.h), so no PLD.
 *
 * Everything here is certified except what is named "search": α, and σ in
 * calibration, are found in doubles (renyi.h ul_renyi_sgm_rdp_d) and every
 * reported bound is evaluated once, with enclosures, at the chosen point.
 * Inputs are decimal text read exactly; messages name the phase field as
 * phases[i].noise_multiplier, phases[i].sample_rate, phases[i].steps, and
 * sensitivity, eps, delta.
 */
#ifndef UL_BOUNDS_DPSGD_H
#define UL_BOUNDS_DPSGD_H

#include "bounds/pld.h"
#include "bounds/renyi.h"

#define UL_DPSGD_MAX_PHASES UL_PLD_MAX_MECHANISMS
#define UL_DPSGD_MIN_SIGMA "1e-3" /* the RDP series' limits (renyi.h) */
#define UL_DPSGD_MAX_SIGMA "1e6"
#define UL_DPSGD_MIN_SENSITIVITY "1e-6" /* kept for the searches in doubles */
#define UL_DPSGD_MAX_SENSITIVITY "1000"
#define UL_DPSGD_MAX_STEPS UL_PLD_MAX_STEPS /* per phase and in total */
/* the α search range: the group curve for replacement reads orders up to
 * 2α, within the subsampled Gaussian's limit of 10000 */
#define UL_DPSGD_ALPHA_MAX 4096.0

typedef enum { UL_DPSGD_ADD_REMOVE = 0, UL_DPSGD_REPLACE } ul_dpsgd_adjacency;

typedef struct {
    const char *sigma;   /* noise multiplier σ, 1e-3 ≤ σ ≤ 1e6, Δ/σ ≤ 1000 */
    const char *q;       /* Poisson sample rate, 0 < q ≤ 1 */
    unsigned long steps; /* 1 … UL_DPSGD_MAX_STEPS */
} ul_dpsgd_phase;

typedef struct {
    const ul_dpsgd_phase *phases;
    size_t n;                 /* 1 … UL_DPSGD_MAX_PHASES */
    const char *sensitivity;  /* Δ in [1e-6, 1000]; NULL means 1 */
    ul_dpsgd_adjacency adjacency;
} ul_dpsgd_run;

/* UL_OK when the run is in the domain above, else UL_EINPUT naming the field. */
ul_status ul_dpsgd_check(const ul_dpsgd_run *run, char *err, size_t errlen);

/* Every phase has q = 1 (decided exactly): the run is a Gaussian mechanism. */
bool ul_dpsgd_full_batch(const ul_dpsgd_run *run);

/* Whether the PLD accountant applies (add/remove adjacency). */
bool ul_dpsgd_pld_applies(const ul_dpsgd_run *run);

/* The RDP accountant: the composed RDP curve ρ(α) = Σ_i T_i·ρ_i(α) (Mironov
 * 2017 Prop. 1), converted by conv at the best real α ∈ (1, 4096] found in
 * doubles and certified there: out ⊇ ε at δ = given (target UL_RDP_TO_EPS,
 * plain) or log δ at ε = given (UL_RDP_TO_DELTA).  alpha_out: the order used
 * (UL_RENYI_ALPHA_TEXT_LEN bytes). */
ul_status ul_dpsgd_rdp(const ul_dpsgd_run *run, ul_rdp_target target, const char *given,
                       ul_rdp_conversion conv, const ul_num_precision *want, ul_num_value *out,
                       char *alpha_out, size_t alpha_len, ul_num_report *rep, char *err,
                       size_t errlen);

/* All q = 1: the exact privacy profile δ(ε) = θ_{e^ε}(r),
 *   r² = Σ_i T_i·(kΔ/σ_i)²,  k = 1 (add/remove) or 2 (replace),
 * (the composition of Gaussian mechanisms is the Gaussian mechanism with
 * these r_i added in quadrature: Dong, Roth, Su 2019 Cor. 3.3; θ: Balle,
 * Wang 2018 Thm 8).  UL_EINPUT when some q < 1. */
ul_status ul_dpsgd_gauss_delta(const ul_dpsgd_run *run, const char *eps,
                               const ul_num_precision *want, ul_num_value *delta,
                               ul_num_report *rep, char *err, size_t errlen);

/* The PLD accountant (pld.h ul_pld_delta): lo ≤ δ(ε) ≤ hi, proven both ways,
 * for add/remove adjacency (UL_EINPUT for replace).  rel_width and decide
 * as in ul_pld_options (0 / NULL: the defaults; decide, a δ, stops the
 * refinement once the bracket is on one side of it).  No wall-time limit of
 * its own: the work done depends on the inputs only, and the thread's
 * deadline (num/deadline.h) is the outer limit.  Statuses as ul_pld_delta
 * (UL_ECAP: sound, wider). */
ul_status ul_dpsgd_pld_delta(const ul_dpsgd_run *run, const char *eps, double rel_width,
                             const char *decide, mpfr_ptr lo, mpfr_ptr hi, ul_pld_report *report,
                             char *err, size_t errlen);

/* ε(δ) by the PLD accountant (pld.h ul_pld_epsilon): eps_hi is proven (the
 * run is (eps_hi, δ)-DP), eps_lo proven too small (δ(eps_lo) > δ), or 0. */
ul_status ul_dpsgd_pld_eps(const ul_dpsgd_run *run, const char *delta, double rel_width,
                           const char *decide, mpfr_ptr eps_lo, mpfr_ptr eps_hi,
                           ul_pld_report *report, char *err, size_t errlen);

/* a·b of two decimal texts (valid, as ul_num_mpq_valid reads them), exact:
 * "Ne-k" or "N" (malloc'd).  The noise multipliers of a scaled run. */
char *ul_dpsgd_decimal_product(const char *a, const char *b);

/* Calibration (Opacus get_noise_multiplier, certified, for any number of
 * phases): the smallest common factor c by which every phase's noise
 * multiplier is multiplied — the run with σ_i·c (exact products) — at which
 * the run is certified (eps, delta)-DP: by the exact Gaussian profile when
 * every q = 1 (c = kΔ·√(Σ T_i/σ_i²)/r*, θ_{e^ε}(r*) = δ), else by the RDP
 * accountant with the BBGHS conversion.  With one phase at σ = 1, c is the
 * noise multiplier itself (what `calibrate` fills in for the one-phase
 * form).  c is searched in doubles, then scale_text (malloc'd) receives it
 * rounded up to `digits` significant digits and certified: the scaled run
 * is proven (eps, delta)-DP (more noise in every phase: post-processing).
 * UL_ENOROOT when no c with every σ_i·c ≤ 1e6 reaches the target. */
ul_status ul_dpsgd_sigma_min(const ul_dpsgd_run *run, const char *eps, const char *delta,
                             int digits, const ul_num_precision *want, char **scale_text,
                             char *err, size_t errlen);

/* The same by the PLD accountant (add/remove adjacency).  Search in doubles,
 * certify once: c is searched from scale_upper (e.g. the RDP value) on the
 * PLD estimate (pld.h ul_pld_epsilon_estimate, no certified arithmetic),
 * aiming 5e-5 (relative) below eps; the c found, rounded up to `digits`,
 * is then certified by the PLD accountant as an audit does (ul_dpsgd_pld_delta
 * at the claimed eps, refined until its side of delta is known: upper end ≤ delta).
 * When that fails (the estimate's error, or the accountant's bracket width,
 * e.g. its FFT rounding floor at a small δ, exceeded the margin), the
 * search is run again for a target lowered by 1.25 times the certified
 * ε_hi(δ)'s excess over it plus 1e-4·2^k·eps; at most 6 certifications.
 * No wall-time limit but the thread's deadline (num/deadline.h): the work
 * depends on the inputs only.  The c returned was
 * certified itself.  UL_ENOROOT when the estimate does not apply or no
 * value tried was certified; UL_ENOMEM (the message naming the size) when
 * the estimate's arrays cannot be allocated. */
ul_status ul_dpsgd_sigma_min_pld(const ul_dpsgd_run *run, const char *eps, const char *delta,
                                 double scale_upper, int digits, char **scale_text, char *err,
                                 size_t errlen);

/* The most steps: the largest T for phase j (its own steps ignored) at
 * which the run is certified (eps, delta)-DP, the total within
 * UL_DPSGD_MAX_STEPS.  Search in doubles, certify once: T is searched on the
 * RDP curve in doubles (every q = 1: the exact Gaussian r² = Σ T_i(kΔ/σ_i)²)
 * and certified by RDP/BBGHS (exact profile when every q = 1); then, for
 * add/remove with some q < 1, searched upward on the PLD estimate (aiming
 * 5e-5 below eps) and certified by the PLD accountant.  A failed
 * certification steps T down by (1 − 1e-4·2^k) (RDP, exact profile) or
 * retargets the PLD search as ul_dpsgd_sigma_min_pld; at most 6 tries each.  steps: the
 * largest certified T (within about 1e-6 relative of the search's optimum
 * when the first certification holds); by_pld: the PLD accountant
 * certified it.  UL_ENOROOT when not even T = 1 is certified; UL_ENOMEM as
 * ul_dpsgd_sigma_min_pld. */
ul_status ul_dpsgd_steps_max(const ul_dpsgd_run *run, size_t j, const char *eps,
                             const char *delta, const ul_num_precision *want,
                             unsigned long *steps, bool *by_pld, char *err, size_t errlen);

#endif
