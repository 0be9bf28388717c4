/* src/bounds/pld.h — the privacy-loss-distribution (PLD) accountant: δ(ε) of a
 * composition of Gaussian and Poisson-subsampled Gaussian mechanisms, by FFT,
 * as a proven bracket [lo, hi].
 *
 * A mechanism step is a pair (P, Q) of output distributions on neighbouring
 * datasets; its privacy loss L = log(dP/dQ)(X), X ~ P, has a distribution
 * (the PLD, possibly with an atom at +∞), and (Sommer, Meiser, Mohammadi 2019,
 * "Privacy loss classes", PoPETS; Koskela, Jälkö, Honkela 2020, AISTATS)
 *
 *     δ(ε) = E_{e^ε}(P ‖ Q) = E[(1 − e^{ε−L})₊] + P[L = +∞].
 *
 * Composition adds independent losses, so the composed PLD is the convolution
 * of the per-step PLDs (computed here by FFT: pld_fft.h, a radix-2 FFT whose
 * error bound is proven for the algorithm run, binary powering in the
 * frequency domain, so T = 10^6 costs ~20 squarings and two transforms).  Mechanisms (r = Δ/σ, the
 * sensitivity in units of the noise standard deviation, as in gaussian.h):
 *
 *   - Gaussian: P = N(0,1), Q = N(r,1); L ~ N(r²/2, r²); δ(ε) = θ_{e^ε}(r).
 *   - Poisson-subsampled Gaussian with rate q, add/remove adjacency (the
 *     conventions of dp_accounting v0.6.0, pld/privacy_loss_mechanism.py):
 *       REMOVE: P = (1−q)·N(0,1) + q·N(r,1), Q = N(0,1),
 *               L = log(1 − q + q·exp(r·X − r²/2)), X ~ P;
 *       ADD:    P = N(0,1), Q = (1−q)·N(0,1) + q·N(r,1),
 *               L = −log(1 − q + q·exp(r·X − r²/2)), X ~ P.
 *     The default (UL_PLD_ADD_REMOVE) reports max(δ_ADD, δ_REMOVE) of the
 *     composition; q = 1 is the plain Gaussian in both directions.
 *   - any sequence of these (a list of mechanisms, each applied `steps`
 *     times; the composition is the product of their Fourier transforms).
 *
 * Guarantee: on UL_OK and UL_ECAP, delta_lo ≤ δ(ε) ≤ delta_hi, where δ(ε) is
 * the true hockey-stick divergence of the composition.  The grid is the
 * "connect the dots" discretisation (a dominating pair: the upper end) and
 * an optimistic grid measure whose curve is below the step's (the lower
 * end; both gaps are second order in the grid step); both ends
 * account for the truncated tails and an a-priori bound on the FFT's
 * floating-point rounding (Higham Thm 24.2 for the FFT actually run; no
 * assumed constant).  The argument, with its sources, is at the top of pld.c.
 * UL_ECAP means the bracket is sound but wider than rel_width asked; the
 * message says what limited it (grid size, or FFT rounding: δ below what
 * FFT composition resolves).  A wrong small δ is never returned: when the
 * rounding bound dominates, hi grows with it.
 *
 * Inputs are decimal text, read exactly (num/encl.h).  Error messages name
 * the parameter as the CLI would: r, q, steps, eps, grid-step, rel-width,
 * tail-bound, max-points (mechanism[i].r … for ul_pld_compose lists).
 *
 * The interface to use is the phase one at the end of this file
 * (ul_pld_delta for δ(ε), ul_pld_epsilon for ε(δ), phases of σ, Δ, q,
 * steps); ul_pld_compose* take r = Δ/σ directly and always run the FFT
 * engine (the tests compare it with the closed form through them), where
 * the phase API encloses a composition of plain Gaussians (every q = 1)
 * exactly, as θ_{e^ε}(R) with R² = Σ steps·r² (pld_gauss.c).  The code: pld.c (inputs,
 * drivers), pld_disc.c, pld_window.c, pld_compose.c, pld_fft.c
 * (pld_internal.h lists who does what).
 *
 * Not reentrant (the FFT's twiddle table is cached per process, see
 * pld_fft.h): call these functions from one thread at a time.
 */
#ifndef UL_BOUNDS_PLD_H
#define UL_BOUNDS_PLD_H

#include "num/encl.h"

/* Limits of the inputs. */
#define UL_PLD_MAX_R "1000"
#define UL_PLD_MAX_ABS_EPS "1000"
#define UL_PLD_MAX_STEPS 1000000000UL /* per mechanism and in total */
#define UL_PLD_MAX_MECHANISMS 64

/* Neighbouring relations (what "one record's difference" means).
 *
 *   UL_PLD_ADD_REMOVE  D′ = D plus or minus one record: the mechanism must be
 *       (ε, δ)-DP for both ordered pairs, so δ(ε) = max(δ_ADD(ε), δ_REMOVE(ε))
 *       (dp_accounting's NeighboringRelation.ADD_OR_REMOVE_ONE, its default;
 *       Opacus's convention).  The default.
 *   UL_PLD_REMOVE      only the pair P = M(D), Q = M(D minus one record).
 *   UL_PLD_ADD         only the pair P = M(D), Q = M(D plus one record).
 *       The per-step pairs of a Poisson-subsampled Gaussian (rate q, r = Δ/σ)
 *       are the dominating pairs of Zhu, Dong & Wang 2022 ("Optimal
 *       accounting of differential privacy via characteristic function",
 *       AISTATS, Poisson subsampling under add/remove: (qP + (1−q)Q, Q) for
 *       remove, (Q, qP + (1−q)Q) for add, with P = N(r,1), Q = N(0,1)); the
 *       same pairs as dp_accounting's AdditiveNoisePrivacyLoss (docs of
 *       privacy_loss_mechanism.py: REMOVE mu_upper = (1−q)μ(x) + qμ(x + Δ),
 *       ADD mu_lower = (1−q)μ(x) + qμ(x − Δ)).  Written out below (the
 *       mechanism list at the top of this file).
 *   UL_PLD_REPLACE     D′ = D with one record replaced (substitution; Balle,
 *       Barthe, Gaboardi 2018, "Privacy amplification by subsampling: tight
 *       analyses via couplings and divergences", NeurIPS, §2).  Δ bounds the
 *       norm of one record's contribution (the add/remove sensitivity, as
 *       everywhere here), so a replacement moves the noiseless output by up
 *       to 2Δ: without subsampling the pair is N(−Δ, σ²) vs N(Δ, σ²), i.e.
 *       the Gaussian with r = 2Δ/σ, symmetric, so both directions coincide
 *       (dp_accounting's REPLACE_ONE for GaussianPrivacyLoss compares
 *       N(−Δ, σ²) with N(Δ, σ²)).  With q < 1 it is refused (UL_EINPUT naming
 *       `adjacency`): the worst-case pair of a Poisson-subsampled Gaussian
 *       under substitution is not one of the pairs above, and composing a
 *       single-step pair can then understate δ (Lebeda, Regehr, Kamath,
 *       Steinke 2024, "Avoiding pitfalls for privacy accounting of subsampled
 *       mechanisms under composition"); no proven pair is implemented. */
typedef enum {
    UL_PLD_ADD_REMOVE = 0, /* max(δ_ADD, δ_REMOVE): add/remove adjacency */
    UL_PLD_REMOVE,         /* P = M(D), Q = M(D minus one record) */
    UL_PLD_ADD,            /* P = M(D), Q = M(D plus one record) */
    UL_PLD_REPLACE,        /* substitution: q = 1 only, r = 2Δ/σ */
} ul_pld_adjacency;

/* Exponential tilting of the per-step arrays (pld.c §5): automatic (when ε
 * lies well above the bulk of the composed loss: small δ, large T), or off
 * (the untilted engine; tests compare the two). */
typedef enum { UL_PLD_TILT_AUTO = 0, UL_PLD_TILT_OFF } ul_pld_tilt_mode;

typedef enum {
    UL_PLD_FFT_AUTO = 0,    /* double; long double when double rounding dominates */
    UL_PLD_FFT_DOUBLE,      /* double only */
    UL_PLD_FFT_LONG_DOUBLE, /* x87 long double only */
} ul_pld_fft;

typedef struct {
    double grid_step;         /* spacing h of the loss grid; 0: chosen for rel_width */
    double rel_width;         /* target (hi − lo)/hi of the quantity asked (δ, or ε for
                                 ul_pld_epsilon), in (0, 1]; default 1e-3 */
    double tail_bound;        /* total truncated mass allowed, in [1e-300, 1e-6]; 0: automatic */
    unsigned long max_points; /* largest FFT length, 2^10 … 2^30; default 2^24 */
    ul_pld_fft fft;
    ul_pld_adjacency adjacency;
    double max_seconds;       /* time knob: 0 none; else no refinement round starts once
                                 this much wall time has passed, and the sound bracket so
                                 far is returned with UL_ECAP (the message says so) */
    ul_pld_tilt_mode tilt;    /* default UL_PLD_TILT_AUTO */
    const char *decide;       /* NULL: none.  Else a decimal (δ for ul_pld_delta, ε for
                                 ul_pld_epsilon): refinement stops, with UL_OK, as soon as
                                 the bracket lies strictly on one side of it (an audit needs
                                 only the side of its claim, not the width asked) */
} ul_pld_options;

/* Fills opt with the defaults: automatic grid for rel_width 1e-3,
 * automatic tails, max_points 2^24 (at that length, complex work arrays of
 * 256 MB in double — 512 MB with several mechanisms — plus a 256 MB twiddle
 * table; twice that in long double), automatic FFT precision, add/remove
 * adjacency, automatic tilting, no time limit, no decision threshold.
 * Passing opt = NULL to the functions below means these defaults. */
void ul_pld_options_default(ul_pld_options *opt);

/* One mechanism of a sequence (the older interface, by r = Δ/σ; the phase
 * interface below reads σ and Δ).  With UL_PLD_REPLACE, r is still Δ/σ and
 * the pair uses 2r. */
typedef struct {
    const char *r;       /* Δ/σ, 0 < r ≤ 1000 */
    const char *q;       /* Poisson sampling rate, 0 < q ≤ 1; NULL: plain Gaussian */
    unsigned long steps; /* how often it is applied, 1 … UL_PLD_MAX_STEPS */
} ul_pld_mechanism;

/* What the last round of the computation did (doubles rounded to nearest,
 * for display; the certified result is delta_lo, delta_hi).  The budget
 * fields are those of the direction that gave delta_hi. */
typedef struct {
    double grid_step;          /* h */
    unsigned long fft_length;  /* N, a power of two */
    unsigned long grid_points; /* largest single-step grid */
    int fft_bits;              /* mantissa bits of the FFT arithmetic: 53, or 64 (long double) */
    int rounds;                /* evaluations done (automatic grid / precision) */
    ul_pld_adjacency direction;   /* UL_PLD_ADD or UL_PLD_REMOVE */
    double delta_pessimistic;  /* the CTD (dominating) sum before the error budget */
    double delta_optimistic;   /* the optimistic array's sum (a dominated measure, pld.c §1) */
    double discretisation_gap; /* delta_pessimistic − delta_optimistic */
    double tail_mass;          /* mass at +∞ after composition + window tails, added to hi */
    double rounding;           /* a-priori FFT + summation rounding bound added to hi */
    double mass_slack;         /* total width of the certified single-step mass enclosures */
    double truncation;         /* the tail_bound used (automatic: chosen from the last bracket) */
    double tilt;               /* the exponential tilt λ of the arrays (pld.c §5; 0: none) */
    bool exact_gaussian;       /* the phase API's exact path: every phase has q = 1, so the
                                  composition is the Gaussian with R² = Σ steps·r² and the
                                  bracket encloses θ_{e^ε}(R) (pld_gauss.c); no grid, no FFT,
                                  every budget field 0 */
} ul_pld_report;

/* δ(eps) of the composition of the `count` mechanisms (each applied its
 * `steps` times), |eps| ≤ 1000.  delta_lo is rounded down and delta_hi up to
 * their own precisions.  UL_OK: hi − lo ≤ rel_width·hi.  UL_ECAP: sound but
 * wider (err says why).  UL_EINPUT: a bad argument, or a fixed grid_step
 * needing more than max_points (err names it); outputs untouched. */
ul_status ul_pld_compose(const ul_pld_mechanism *mechanisms, size_t count, const char *eps,
                         const ul_pld_options *opt, mpfr_ptr delta_lo, mpfr_ptr delta_hi,
                         ul_pld_report *report, char *err, size_t errlen);

/* T-fold Gaussian mechanism with ratio r: the exact answer is θ_{e^ε}(r√T). */
ul_status ul_pld_compose_gaussian(const char *r, unsigned long steps, const char *eps,
                                  const ul_pld_options *opt, mpfr_ptr delta_lo,
                                  mpfr_ptr delta_hi, ul_pld_report *report, char *err,
                                  size_t errlen);

/* T-fold Poisson-subsampled Gaussian (rate q), direction(s) per opt->adjacency. */
ul_status ul_pld_compose_subsampled(const char *r, const char *q, unsigned long steps,
                                    const char *eps, const ul_pld_options *opt,
                                    mpfr_ptr delta_lo, mpfr_ptr delta_hi,
                                    ul_pld_report *report, char *err, size_t errlen);

/* ==== Phases: the API for DP-SGD-shaped compositions ===========================
 *
 * One phase: `steps` applications of the Gaussian mechanism with noise
 * standard deviation σ on an output whose per-record contribution has L2
 * norm ≤ Δ (the sensitivity; σ and Δ in the same units, so Opacus's
 * noise_multiplier is σ with Δ = 1), each run on a Poisson subsample of rate
 * q (q = 1: no subsampling, the plain Gaussian, computed on the faster
 * Gaussian path).  A composition is a list of phases (Opacus's accountant
 * history [{noise_multiplier, sample_rate, steps}]), applied in any order:
 * composition adds independent privacy losses, so the order does not change
 * δ(ε) (pld.c §0).  Per step, r = Δ/σ (2Δ/σ for UL_PLD_REPLACE) and the pair
 * is the one of the mechanism list at the top of this file.
 *
 * Inputs are decimal text read exactly (num/encl.h): sigma and sensitivity
 * in (0, 10^6] with r = Δ/σ ≤ 1000 (the ratio is enclosed, never rounded to
 * a double); q in (0, 1]; steps 1 … UL_PLD_MAX_STEPS, the total too; 1 …
 * UL_PLD_MAX_MECHANISMS phases.  Error messages name the field as
 * `phase[i].sigma`, `phase[i].sensitivity`, `phase[i].q`, `phase[i].steps`
 * (i from 0), `phases`, `eps`, `delta`, `adjacency`, or an option
 * (grid-step, rel-width, tail-bound, max-points, max-seconds).
 *
 * Status codes (these two functions; ul_pld_compose likewise):
 *   UL_OK      the bracket is proven and as narrow as rel_width asks;
 *   UL_ECAP    the bracket is proven but wider (grid limit max_points, FFT
 *              rounding floor, or max_seconds; err says which);
 *   UL_EINPUT  a bad argument (err names it); outputs untouched;
 *   UL_ETIME   the calling thread's budget of num/deadline.h ran out (or its
 *              cancel flag was raised), between
 *              rounds or inside one (the discretisation, the FFTs and the
 *              read-off ask it every 2^20 points or fewer); nothing certified
 *              is returned (outputs set to the trivial bracket: [0, 1] for
 *              δ, [0, +∞] for ε).
 * Not reentrant (one thread at a time, see above). */
typedef struct {
    const char *sigma;       /* noise standard deviation σ > 0 (Opacus: noise_multiplier) */
    const char *sensitivity; /* Δ > 0; NULL means "1" */
    const char *q;           /* Poisson sampling rate, 0 < q ≤ 1; NULL means "1" */
    unsigned long steps;     /* 1 … UL_PLD_MAX_STEPS */
} ul_pld_phase;

/* (a) δ(ε): delta_lo ≤ δ(ε) ≤ delta_hi, δ(ε) = sup over neighbouring pairs
 * (per opt->adjacency) of the hockey-stick divergence E_{e^ε}(M(D) ‖ M(D′))
 * of the whole composition, |ε| ≤ 1000.
 *   delta_hi: a proven upper bound (the composition is (ε, delta_hi)-DP);
 *   delta_lo: a proven LOWER bound of the true privacy profile: when
 *             delta_lo > δ_claimed the claim "(ε, δ_claimed)-DP" is false
 *             (for UL_PLD_ADD_REMOVE it is the larger of the two directions'
 *             lower bounds, a lower bound of their max).
 * Both are the engine's certified numbers rounded outward to the caller's
 * MPFR precision (delta_lo down, delta_hi up); 0 ≤ delta_lo ≤ delta_hi ≤ 1.
 * UL_OK when delta_hi − delta_lo ≤ rel_width·delta_hi. */
ul_status ul_pld_delta(const ul_pld_phase *phases, size_t count, const char *eps,
                       const ul_pld_options *opt, mpfr_ptr delta_lo, mpfr_ptr delta_hi,
                       ul_pld_report *report, char *err, size_t errlen);

/* (b) ε(δ) = inf{ε ≥ 0 : δ(ε) ≤ δ}, the smallest non-negative ε at which
 * the composition is (ε, δ)-DP (dp_accounting's get_epsilon_for_delta), for
 * 0 < δ < 1: eps_lo ≤ ε(δ) ≤ eps_hi, with
 *   eps_hi: proven delta_hi(eps_hi) ≤ δ, so the composition is
 *           (eps_hi, δ)-DP; +∞ when no ε ≤ 1000 is certified (UL_ECAP);
 *   eps_lo: 0, or proven delta_lo(eps_lo) > δ, so for every ε ≤ eps_lo the
 *           true δ(ε) > δ: any claim (ε′, δ) with ε′ ≤ eps_lo is false.
 * The search runs in doubles on one composed array per grid; the two ends
 * are certified once each, by the same read-off as ul_pld_delta, at the
 * exact binary values returned (eps_lo rounded down, eps_hi up, to the
 * caller's precision: they are doubles, so exact at ≥ 53 bits).
 * UL_OK when eps_hi − eps_lo ≤ rel_width·eps_hi.  The report describes the
 * last round's grid and the δ budget read at the crossing of the direction
 * with the largest eps_hi. */
ul_status ul_pld_epsilon(const ul_pld_phase *phases, size_t count, const char *delta,
                         const ul_pld_options *opt, mpfr_ptr eps_lo, mpfr_ptr eps_hi,
                         ul_pld_report *report, char *err, size_t errlen);

/* ==== An estimate in doubles (searches only; never a bound) ====================
 *
 * ε(δ) of the add/remove composition of the phases (max of the ADD and REMOVE
 * directions), computed like ul_pld_epsilon but in floating point with no
 * error terms (pld_estimate.c): connect-the-dots discretisation, long double
 * FFT on a window chosen by Chernoff bounds, δ(ε) read off and inverted by
 * bisection.  Its error is of second order in the grid step (about 1e-5
 * relative at the default grid on DP-SGD-sized runs: tests/test_pld.c) but
 * unproven: callers search on it and certify the value they choose with
 * ul_pld_delta or ul_pld_epsilon.  points: grid points over the window of
 * the composed loss (0: 32768, pld_estimate.c's EST_N_AIM).  NAN when an
 * input is out of the domain of
 * ul_pld_delta (σ, Δ > 0, Δ/σ ≤ 1000, 0 < q ≤ 1, steps ≥ 1, 1 … 64 phases,
 * 0 < δ < 1) or the grid would exceed 2^22 points; +∞ when δ is below what
 * the window resolves; 0 when the composition is (0, δ)-DP by the estimate. */
typedef struct {
    double sigma, sensitivity, q;
    unsigned long steps;
} ul_pld_phase_d;

/* The estimate into *eps (NAN, +∞ or 0 as above), UL_OK; UL_ENOMEM, *eps
 * NAN, when its arrays cannot be allocated (at the caps, 2^20 loss points
 * per phase and an FFT of 2^22, hundreds of MB), the message naming the
 * size (num/status.h). */
ul_status ul_pld_epsilon_estimate(const ul_pld_phase_d *phases, size_t count, double delta,
                                  double points, double *eps, char *err, size_t errlen);

/* The same as a double: NAN also when out of memory (tests and benchmarks;
 * the library's callers use ul_pld_epsilon_estimate). */
double ul_pld_epsilon_estimate_d(const ul_pld_phase_d *phases, size_t count, double delta,
                                 double points);

#endif
