/* src/bounds/pld_internal.h — what the files of the PLD accountant share
 * (not an API): the per-step mechanism, the discretised step, the window,
 * the FFT buffers and the composed array of one direction.  The argument
 * for the bracket is at the top of pld.c (§0–§4); the files are
 *   pld.c          inputs, the drivers (δ(ε) and ε(δ)), the public entries;
 *   pld_disc.c     the loss distributions and the CTD discretisation (§1);
 *   pld_opt.c      the optimistic array, whose curve is below the step's (§1);
 *   pld_window.c   the FFT window and its Chernoff tails (§2);
 *   pld_compose.c  composition by FFT, the rounding budget, δ read off (§3–4);
 *   pld_fft.c      the FFT with Higham's bound (pld_fft.h);
 *   pld_gauss.c    the exact path of plain Gaussian compositions (no FFT);
 *   pld_tilt.c     exponential tilting of the per-step arrays (§5). */
#ifndef UL_BOUNDS_PLD_INTERNAL_H
#define UL_BOUNDS_PLD_INTERNAL_H

#include <mpfi.h>
#include <stdbool.h>
#include <stddef.h>

#include "bounds/pld.h"

#define BUDGET_PREC 128       /* precision of the budget arithmetic */
#define MAX_EXACT_INDEX 4503599627370496.0 /* 2^52: grid indices stay exact doubles */
#define INPUT_PREC 128        /* precision of the input enclosures */

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

/* One discretised per-step PLD: two arrays on the grid, pess[k] and opt[k]
 * at the loss (k_lo + k)·h.  pess dominates the step (its composition is an
 * upper bound, §1); opt's curve lies below the step's (pld_opt.c: its
 * composition is a lower bound, less the slack opt_debt). */
typedef struct {
    double k_lo; /* an integer, |k_lo| < 2^52 */
    size_t n;
    double *pess, *opt;
    unsigned long steps;
    mpfr_t p_inf;              /* ≥ P[L > ℓ_top], the pessimistic mass at +∞ */
    mpfr_t slack;              /* ≥ Σ widths of the mass enclosures (informative) */
    mpfr_t sum_pess, sum_opt;  /* ≥ Σ pess, ≥ Σ opt */
    double sum_pess_real;      /* ≥ Σ pess before any tilt (opt_slack, pld_compose.c) */
    mpfr_t l2_pess, l2_opt;    /* ≥ ‖pess‖₂, ≥ ‖opt‖₂ */
    double opt_debt;           /* ε ≥ 0: D_opt ≤ δ + ε·(1 − e^{ε′−ℓ_n})₊ at every ε′, real units,
                                  ℓ_n = (k_lo + n)·h (pld_opt.c) */
    double var;                /* of the pessimistic array (a scale) */
    size_t group, ngroups;     /* Chernoff grouping (§2) */
    double *gmass, *gmass_opt; /* ≥ group sums of pess, of opt */
    double *lgmass;            /* log gmass (−inf for 0), doubles: choices only */
    double tilt_L;             /* tilted (pld_tilt.c): arrays ≈ p·e^{λℓ − tilt_L}; 0 if not */
} disc;

typedef struct {
    size_t N;       /* FFT length, a power of two */
    double base;    /* Σ steps·k_lo: composed index m sits at the loss (base + m)·h */
    double m_lo;    /* first composed index of the window */
    bool wrapped;   /* some composed mass lies outside the window */
    mpfr_t up_pess, lo_pess; /* ≥ composed pess mass above / below the window */
    mpfr_t up_opt, lo_opt;   /* ≥ composed opt mass above / below the window */
} window;

/* Buffers for one transform length (pld_fft.h: complex data in split
 * arrays): work holds one input and its spectrum, acc the product of the
 * spectra and then, after the inverse transform, the N unnormalised
 * results (real parts in acc_re).  With one mechanism acc is work. */
typedef struct {
    size_t N;
    bool is_long;
    void *work_re, *work_im, *acc_re, *acc_im;
} fft_ctx;

/* The constants of one FFT precision. */
typedef struct {
    int mant;     /* p: u = 2^-p */
    int min_exp;  /* emin of the format (FLT_MIN_EXP convention) */
    bool is_long;
} fft_format;

/* The composed array ŷ (N unnormalised reals after an FFT, scale = log2 N;
 * or the single-step array itself, scale 0). */
typedef struct {
    const void *y;
    bool is_long;
    size_t len;
    int scale;
} composed;

typedef struct {
    mpfr_t lo, hi;
    double pess, opt;           /* the sums of the composed pess and opt arrays at ε (§1) */
    double tails_hi, tails_lo;  /* added to hi / subtracted from lo */
    double round_hi, round_lo;  /* rounding bounds added / subtracted */
    double slack;
    size_t N, nmax;
    double lambda; /* the tilt of the build (§5; 0: none) */
} dir_result;

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
    composed c, c_opt; /* the composed pess and opt arrays */
    mpfr_t E2, pinf;   /* E2 bounds the rounding of both (§3) */
    double lambda; /* the tilt (pld_tilt.c; 0: none): the arrays are p·e^{λℓ − L_i} */
    mpfi_t A;      /* ⊇ Σ_i T_i·L_i: z = z̃·e^{A − λℓ} */
    bool late; /* a read stopped at the time budget (ul_pld_dir_read): no bound */
} dir_state;

/* What a direction's build tilts for (pld_tilt.c, §5): nothing, δ at the
 * loss x = ε, or ε(δ) at x = δ.  The build sets lambda (0: not tilted) and
 * eps_ref, the loss its window is centred for (ε, or the Chernoff estimate
 * of ε(δ)); the window's truncation is then tau/K(eps_ref) in tilted units. */
typedef enum { TILT_NONE = 0, TILT_DELTA, TILT_EPS } tilt_mode;
typedef struct {
    tilt_mode mode;
    double x;
    double lambda, eps_ref; /* set by the build */
} tilt_choice;

/* UL_ETIME: the time budget (num/deadline.h, asked through ul_pld_late)
 * ran out during `what` over `points` grid points; the message says what
 * was being done, as pld.c's check between rounds (pld_compose.c). */
ul_status ul_pld_time_out(char *err, size_t errlen, const char *what, size_t points);

/* ---- the loss distributions and the discretisation (pld_disc.c) ---- */
double ul_pld_q_d(double x);
double ul_pld_z_of_tail(double tau);
void ul_pld_range_d(const mech *m, double tau, double *lo, double *hi);
double ul_pld_variance_d(const mech *m, double lo, double hi);
typedef struct {
    double T;     /* total steps */
    double range; /* widest single-step loss range */
    double total; /* Σ steps·range: the composed support's length */
    double var;   /* Σ steps·variance: the composed variance */
} pld_spread;
pld_spread ul_pld_spread_d(const mech *ms, size_t nm, double tau);
void ul_pld_exact_loss(mpfr_ptr loss, double idx, double h);
void ul_pld_disc_init(disc *d);
void ul_pld_disc_clear(disc *d);
/* sum_pess, l2_pess (rounded up) and var (a scale) of the n stored atoms. */
void ul_pld_disc_moments(disc *d, size_t n, double klo, double h);
ul_status ul_pld_discretise(disc *d, const mech *m, double h, double tau, unsigned long max_points,
                         char *err, size_t errlen);

/* ---- the optimistic array (pld_opt.c) ---- */
/* On entry d->opt[k] ≤ the exact in-grid CTD atom at ℓ_k and a_up[j], b_up[j]
 * ≥ bin j's split (j = 1 … n−1); builds opt, opt_debt and sum_opt. */
void ul_pld_opt_build(disc *d, const double *a_up, const double *b_up, double h);

/* ---- the window and its Chernoff tails (pld_window.c) ---- */
ul_status ul_pld_choose_window(window *w, disc *ds, size_t nd, double h, double tau_w,
                            unsigned long max_points, char *err, size_t errlen);

/* ---- composition, rounding bounds, reading δ off (pld_compose.c) ---- */
extern const fft_format ul_pld_format_double, ul_pld_format_long;
long double ul_pld_composed_at(const composed *c, const window *w, double m);
/* A long double t̃ near e^{arg} for every arg in the box, and rel ≥ its
 * largest relative error over the box (from an MPFI exp). */
void ul_pld_exp_anchor(long double *t_out, mpfr_ptr rel, mpfi_srcptr arg);
/* C ≥ ((1 + r)(1 + u_L))^{block−1}: the relative error growth of a
 * recurrence x_{j+1} = x_j·ρ̃ over a block (ρ̃ within r, u_L per product). */
void ul_pld_block_growth(mpfr_ptr C, mpfr_srcptr r, mpfr_srcptr uL, unsigned long block);
ul_status ul_pld_dir_build(dir_state *S, mech *ms, size_t nm, double h, double tau,
                        const fft_format *f, unsigned long max_points, tilt_choice *tc,
                        dir_result *res, char *err, size_t errlen);
void ul_pld_dir_read(dir_state *S, mpfr_srcptr eps_lo, mpfr_srcptr eps_hi, dir_result *res,
                  bool want_hi, bool want_lo);
void ul_pld_dir_free(dir_state *S);
ul_status ul_pld_evaluate_direction(mech *ms, size_t nm, mpfi_srcptr eps, double h, double tau,
                                 const fft_format *f, unsigned long max_points, bool tilt,
                                 dir_result *res, char *err, size_t errlen);
/* log K(ε) = A − λε, rounded `rnd` (K multiplies tilted units into real). */
void ul_pld_log_k(mpfr_ptr out, const dir_state *S, mpfr_srcptr eps, mpfr_rnd_t rnd);

/* ---- exponential tilting (pld_tilt.c) ---- */
/* λ for δ at ε (0: tilting would not help) and for ε(δ) (with *eps0 the
 * Chernoff estimate of ε(δ), the window's centre); doubles, choices only. */
double ul_pld_tilt_lambda_delta(const disc *ds, size_t nd, double h, double eps);
double ul_pld_tilt_lambda_eps(const disc *ds, size_t nd, double h, double delta, double *eps0);
/* log M(λ) of the stored array in doubles (a choice of L below). */
double ul_pld_tilt_log_mgf(const disc *d, double lambda, double h);
/* Tilts d in place by e^{λℓ − L} (L finite, stored in tilt_L; rho raised),
 * tau scratch of d->n long doubles. */
void ul_pld_tilt(disc *d, double lambda, double L, double h, long double *tau);


/* ---- plain Gaussian compositions, exactly (pld_gauss.c) ---- */
bool ul_pld_all_gaussian(const mech *ms, size_t nm);
/* δ(ε) = θ_{e^ε}(R), R² = Σ T_i r_i²: an enclosure, UL_OK. */
ul_status ul_pld_gauss_delta(const mech *ms, size_t nm, mpfi_srcptr eps, mpfr_ptr delta_lo,
                             mpfr_ptr delta_hi, ul_pld_report *report);
/* ε(δ) of the same, to rel_width (the statuses of ul_pld_epsilon). */
ul_status ul_pld_gauss_eps(const mech *ms, size_t nm, mpfi_srcptr delta, double rel_width,
                           mpfr_ptr eps_lo, mpfr_ptr eps_hi, ul_pld_report *report, char *err,
                           size_t errlen);

#endif
