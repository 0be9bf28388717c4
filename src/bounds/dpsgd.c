/* src/bounds/dpsgd.c — DP-SGD accounting over phases (dpsgd.h).
 *
 * Three certified accountants, each a sound upper bound on the run's privacy
 * profile δ(ε), and one proven lower bound:
 *   - RDP: ρ(α) = Σ_i T_i·ρ_{q_i,σ_i/Δ}(α) ([M17] Prop. 1 composition, [MTZ]
 *     §3.3 subsampled Gaussian, renyi.c), converted to (ε, δ) by [M17]
 *     Prop. 3 or [BBGHS] Thm 21 at one α found in doubles;
 *   - Gaussian, every q = 1: δ(ε) = θ_{e^ε}(r) exactly, r² = Σ_i T_i(kΔ/σ_i)²
 *     ([DRS] Cor. 3.3, [BW] Thm 8), both a bound and the exact profile;
 *   - PLD (pld.h): a proven bracket lo ≤ δ(ε) ≤ hi.
 * Sources: [M17] Mironov 2017 (arXiv 1702.07476); [MTZ] Mironov, Talwar,
 * Zhang 2019 (arXiv 1908.10530); [BBGHS] Balle et al. 2020 (arXiv
 * 1905.09982); [DRS] Dong, Roth, Su 2019 "Gaussian differential privacy"
 * (arXiv 1905.02383); [BW] Balle, Wang 2018 (arXiv 1805.06530); [H.2]
 * spec/langevin.md Prop H.2 eq. (52) (group privacy by the weak triangle
 * inequality, [M17] Cor. 4).
 */
#include "bounds/dpsgd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bounds/gaussian.h"
#include "num/input.h"

/* PLD calibration: the search aims this far below the claimed ε (relative),
 * and at most this many certifications are tried (ul_dpsgd_sigma_min_pld). */
#define PLD_CAL_MARGIN 5e-5
#define PLD_CAL_TRIES 6

/* ---- the run ---------------------------------------------------------------- */

static const char *sens_text(const ul_dpsgd_run *run)
{
    return run->sensitivity != NULL ? run->sensitivity : "1";
}

static bool is_one(const char *text)
{
    int cmp = 1;
    return ul_num_decimal_compare(text, "1", &cmp) && cmp == 0;
}

bool ul_dpsgd_full_batch(const ul_dpsgd_run *run)
{
    for (size_t i = 0; i < run->n; i++)
        if (!is_one(run->phases[i].q))
            return false;
    return true;
}

bool ul_dpsgd_pld_applies(const ul_dpsgd_run *run)
{
    return run->adjacency == UL_DPSGD_ADD_REMOVE;
}

/* Δ/σ ≤ 1000 for phase i (the PLD engine's limit), decided at 128 bits with a
 * value too close to tell counting as inside (a limit kept for cost). */
static ul_status check_ratio(const ul_dpsgd_run *run, size_t i, char *err, size_t errlen)
{
    mpfi_t s, d;
    mpfi_init2(s, 128);
    mpfi_init2(d, 128);
    ul_num_set_valid(s, run->phases[i].sigma);
    ul_num_set_valid(d, sens_text(run));
    mpfi_div(d, d, s);
    bool bad = mpfr_cmp_ui(&d->left, 1000) > 0;
    mpfi_clear(s);
    mpfi_clear(d);
    if (bad)
        return ul_fail(err, errlen, UL_EINPUT,
                       "phases[%zu].noise_multiplier: sensitivity/noise_multiplier must be <= "
                       "1000 (got %s/%s)",
                       i, sens_text(run), run->phases[i].sigma);
    return UL_OK;
}

static ul_status check_phase(const ul_dpsgd_run *run, size_t i, unsigned long *total, char *err,
                             size_t errlen)
{
    const ul_dpsgd_phase *ph = &run->phases[i];
    char name[64];
    mpfi_t x;
    mpfi_init2(x, 64);
    snprintf(name, sizeof name, "phases[%zu].noise_multiplier", i);
    ul_status st = ul_num_read_checked(x, name, ph->sigma, UL_DPSGD_MIN_SIGMA, false,
                                       UL_DPSGD_MAX_SIGMA, false, err, errlen);
    snprintf(name, sizeof name, "phases[%zu].sample_rate", i);
    if (st == UL_OK)
        st = ul_num_read_checked(x, name, ph->q, "0", true, "1", false, err, errlen);
    mpfi_clear(x);
    if (st == UL_OK && (ph->steps < 1 || ph->steps > UL_DPSGD_MAX_STEPS ||
                        *total > UL_DPSGD_MAX_STEPS - ph->steps))
        st = ul_fail(err, errlen, UL_EINPUT,
                     "phases[%zu].steps: must be >= 1, and the total <= %lu (got %lu)", i,
                     UL_DPSGD_MAX_STEPS, ph->steps);
    if (st == UL_OK)
        *total += ph->steps;
    return st == UL_OK ? check_ratio(run, i, err, errlen) : st;
}

ul_status ul_dpsgd_check(const ul_dpsgd_run *run, char *err, size_t errlen)
{
    ul_num_init();
    if (run == NULL || run->phases == NULL || run->n < 1 || run->n > UL_DPSGD_MAX_PHASES)
        return ul_fail(err, errlen, UL_EINPUT, "phases: between 1 and %d phases",
                       UL_DPSGD_MAX_PHASES);
    if (run->adjacency != UL_DPSGD_ADD_REMOVE && run->adjacency != UL_DPSGD_REPLACE)
        return ul_fail(err, errlen, UL_EINPUT, "adjacency: must be add-remove or replace");
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = ul_num_read_checked(x, "sensitivity", sens_text(run), UL_DPSGD_MIN_SENSITIVITY,
                                       false, UL_DPSGD_MAX_SENSITIVITY, false, err, errlen);
    mpfi_clear(x);
    unsigned long total = 0;
    for (size_t i = 0; i < run->n && st == UL_OK; i++)
        st = check_phase(run, i, &total, err, errlen);
    return st;
}

/* k of the per-step ratio kΔ/σ: 2 for a replacement without subsampling. */
static unsigned long ratio_factor(const ul_dpsgd_run *run)
{
    return run->adjacency == UL_DPSGD_REPLACE && ul_dpsgd_full_batch(run) ? 2 : 1;
}

/* d ⊇ kΔ at d's precision. */
static void set_kdelta(mpfi_ptr d, const ul_dpsgd_run *run)
{
    ul_num_set_valid(d, sens_text(run));
    mpfi_mul_ui(d, d, ratio_factor(run));
}

/* Replacement with some q < 1: group privacy for 2 on the add/remove curve. */
static bool uses_group(const ul_dpsgd_run *run)
{
    return run->adjacency == UL_DPSGD_REPLACE && !ul_dpsgd_full_batch(run);
}

/* ---- the RDP curve, certified and in doubles ------------------------------------ */

/* ρ(α) = Σ_i T_i·ρ_{q_i, σ_i/(kΔ)}(α) over the box alpha ([M17] Prop. 1;
 * k = 2 turns the q = 1 curve α/(2σ²) into α(2Δ/σ)²/2). */
static ul_status run_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err, size_t errlen)
{
    const ul_dpsgd_run *run = ctx;
    mpfr_prec_t p = mpfi_get_prec(rho) + 16;
    mpfi_t sum, part, q, s, d;
    mpfi_init2(sum, p);
    mpfi_init2(part, p);
    mpfi_init2(q, p);
    mpfi_init2(s, p);
    mpfi_init2(d, p);
    set_kdelta(d, run);
    mpfi_set_ui(sum, 0);
    ul_status st = UL_OK;
    for (size_t i = 0; i < run->n && st == UL_OK; i++) {
        ul_num_set_valid(q, run->phases[i].q);
        ul_num_set_valid(s, run->phases[i].sigma);
        mpfi_div(s, s, d); /* the noise multiplier per unit of sensitivity */
        st = ul_renyi_sgm_rdp(part, alpha, q, s, err, errlen);
        mpfi_mul_ui(part, part, run->phases[i].steps);
        mpfi_add(sum, sum, part);
    }
    if (st == UL_OK)
        mpfi_set(rho, sum);
    mpfi_clear(sum);
    mpfi_clear(part);
    mpfi_clear(q);
    mpfi_clear(s);
    mpfi_clear(d);
    return st;
}

/* The same in doubles (search only): q, σ/(kΔ) and T per phase. */
typedef struct {
    double *q, *s, *t;
    size_t n;
    bool group;
} run_d;

static double run_curve_base_d(double alpha, const run_d *r)
{
    double sum = 0;
    for (size_t i = 0; i < r->n; i++)
        sum += r->t[i] * ul_renyi_sgm_rdp_d(alpha, r->q[i], r->s[i]);
    return sum;
}

/* With r->group, [H.2] eq. (52) for a group of two:
 * ((α − ½)/(α − 1))·ρ(2α) + ρ(2α − 1), as ul_renyi_group_curve. */
static double run_curve_d(double alpha, const void *ctx)
{
    const run_d *r = ctx;
    if (!r->group)
        return run_curve_base_d(alpha, r);
    return (alpha - 0.5) / (alpha - 1) * run_curve_base_d(2 * alpha, r) +
           run_curve_base_d(2 * alpha - 1, r);
}

/* r's arrays for the run with every σ_i replaced by sigma when sigma > 0. */
static void run_d_init(run_d *r, const ul_dpsgd_run *run, double sigma)
{
    r->n = run->n;
    r->q = malloc(run->n * sizeof *r->q);
    r->s = malloc(run->n * sizeof *r->s);
    r->t = malloc(run->n * sizeof *r->t);
    if (r->q == NULL || r->s == NULL || r->t == NULL)
        abort();
    double kd = (double)ratio_factor(run) * strtod(sens_text(run), NULL);
    for (size_t i = 0; i < run->n; i++) {
        r->q[i] = strtod(run->phases[i].q, NULL);
        r->s[i] = (sigma > 0 ? sigma : strtod(run->phases[i].sigma, NULL)) / kd;
        r->t[i] = (double)run->phases[i].steps;
    }
    r->group = uses_group(run);
}

static void run_d_clear(run_d *r)
{
    free(r->q);
    free(r->s);
    free(r->t);
}

ul_status ul_dpsgd_rdp(const ul_dpsgd_run *run, ul_rdp_target target, const char *given,
                       ul_rdp_conversion conv, const ul_num_precision *want, ul_num_value *out,
                       char *alpha_out, size_t alpha_len, ul_num_report *rep, char *err,
                       size_t errlen)
{
    ul_status st = ul_dpsgd_check(run, err, errlen);
    if (st != UL_OK)
        return st;
    ul_rdp_curve base = {run_curve, (void *)run};
    ul_rdp_group_ctx group = {&base, 2};
    ul_rdp_curve grouped = {ul_renyi_group_curve, &group};
    run_d rd;
    run_d_init(&rd, run, 0);
    ul_rdp_curve_d search = {run_curve_d, &rd};
    st = ul_renyi_curve_searched_certified(target, uses_group(run) ? &grouped : &base, &search,
                                           UL_DPSGD_ALPHA_MAX, given, conv, want, out, alpha_out,
                                           alpha_len, rep, err, errlen);
    run_d_clear(&rd);
    return st;
}

/* ---- the Gaussian, every q = 1 ------------------------------------------------ */

typedef struct {
    const ul_dpsgd_run *run;
    const char *eps;
} gauss_job;

/* r ⊇ √(Σ_i T_i·(kΔ/σ_i)²) at r's precision. */
static void gauss_r(mpfi_ptr r, const ul_dpsgd_run *run)
{
    mpfr_prec_t p = mpfi_get_prec(r) + 16;
    mpfi_t sum, t, d;
    mpfi_init2(sum, p);
    mpfi_init2(t, p);
    mpfi_init2(d, p);
    set_kdelta(d, run);
    mpfi_set_ui(sum, 0);
    for (size_t i = 0; i < run->n; i++) {
        ul_num_set_valid(t, run->phases[i].sigma);
        mpfi_div(t, d, t);
        mpfi_sqr(t, t);
        mpfi_mul_ui(t, t, run->phases[i].steps);
        mpfi_add(sum, sum, t);
    }
    mpfi_sqrt(r, sum);
    mpfi_clear(sum);
    mpfi_clear(t);
    mpfi_clear(d);
}

static ul_status gauss_eval(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    const gauss_job *job = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 16;
    mpfi_t r, e;
    mpfi_init2(r, p);
    mpfi_init2(e, p);
    gauss_r(r, job->run);
    ul_num_set_valid(e, job->eps);
    ul_gauss_theta_enclose(out, e, r);
    mpfi_clear(r);
    mpfi_clear(e);
    return UL_OK;
}

ul_status ul_dpsgd_gauss_delta(const ul_dpsgd_run *run, const char *eps,
                               const ul_num_precision *want, ul_num_value *delta,
                               ul_num_report *rep, char *err, size_t errlen)
{
    ul_status st = ul_dpsgd_check(run, err, errlen);
    if (st != UL_OK)
        return st;
    if (!ul_dpsgd_full_batch(run))
        return ul_fail(err, errlen, UL_EINPUT,
                       "phases: a sample_rate below 1: the run is not a Gaussian mechanism");
    mpfi_t x;
    mpfi_init2(x, 64);
    st = ul_num_read_checked(x, "eps", eps, "-" UL_GAUSS_MAX_ABS_EPS, false, UL_GAUSS_MAX_ABS_EPS,
                             false, err, errlen);
    mpfi_clear(x);
    if (st != UL_OK)
        return st;
    gauss_job job = {run, eps};
    return ul_num_adaptive_eval(gauss_eval, &job, want, delta, rep, err, errlen);
}

/* ---- PLD ------------------------------------------------------------------------ */

/* The engine's phases and options for the run (add/remove only). */
static ul_status pld_setup(const ul_dpsgd_run *run, double rel_width, double max_seconds,
                           ul_pld_phase *ph, ul_pld_options *opt, char *err, size_t errlen)
{
    ul_status st = ul_dpsgd_check(run, err, errlen);
    if (st != UL_OK)
        return st;
    if (!ul_dpsgd_pld_applies(run))
        return ul_fail(err, errlen, UL_EINPUT,
                       "adjacency: the PLD accountant has no proven pair for replacement with "
                       "Poisson subsampling (pld.h)");
    for (size_t i = 0; i < run->n; i++)
        ph[i] = (ul_pld_phase){run->phases[i].sigma, sens_text(run), run->phases[i].q,
                               run->phases[i].steps};
    ul_pld_options_default(opt);
    opt->adjacency = UL_PLD_ADD_REMOVE;
    if (rel_width > 0)
        opt->rel_width = rel_width;
    opt->max_seconds = max_seconds;
    return UL_OK;
}

ul_status ul_dpsgd_pld_delta(const ul_dpsgd_run *run, const char *eps, double rel_width,
                             double max_seconds, mpfr_ptr lo, mpfr_ptr hi, ul_pld_report *report,
                             char *err, size_t errlen)
{
    ul_pld_phase ph[UL_DPSGD_MAX_PHASES];
    ul_pld_options opt;
    ul_status st = pld_setup(run, rel_width, max_seconds, ph, &opt, err, errlen);
    return st != UL_OK ? st : ul_pld_delta(ph, run->n, eps, &opt, lo, hi, report, err, errlen);
}

ul_status ul_dpsgd_pld_eps(const ul_dpsgd_run *run, const char *delta, double rel_width,
                           double max_seconds, mpfr_ptr eps_lo, mpfr_ptr eps_hi,
                           ul_pld_report *report, char *err, size_t errlen)
{
    ul_pld_phase ph[UL_DPSGD_MAX_PHASES];
    ul_pld_options opt;
    ul_status st = pld_setup(run, rel_width, max_seconds, ph, &opt, err, errlen);
    return st != UL_OK ? st
                       : ul_pld_epsilon(ph, run->n, delta, &opt, eps_lo, eps_hi, report, err,
                                        errlen);
}

/* ---- calibration ------------------------------------------------------------------ */

/* Whether the certified value v (plain or log form) is ≤ the decimal bound. */
static bool value_at_most(const ul_num_value *v, const char *bound)
{
    mpfr_prec_t p = mpfi_get_prec(v->enclosure) + 16;
    mpfi_t b;
    mpfi_init2(b, p);
    ul_num_set_valid(b, bound);
    if (v->is_log)
        mpfi_log(b, b);
    bool ok = mpfr_lessequal_p(&v->enclosure->right, &b->left);
    mpfi_clear(b);
    return ok;
}

/* Whether the run with every noise multiplier set to sigma is certified
 * (eps, delta)-DP: the exact profile when every q = 1, else RDP with BBGHS. */
static ul_status sigma_certified(const ul_dpsgd_run *run, const char *sigma, const char *eps,
                                 const char *delta, const ul_num_precision *want, bool *ok,
                                 char *err, size_t errlen)
{
    ul_dpsgd_phase ph[UL_DPSGD_MAX_PHASES];
    for (size_t i = 0; i < run->n; i++)
        ph[i] = (ul_dpsgd_phase){sigma, run->phases[i].q, run->phases[i].steps};
    ul_dpsgd_run r = {ph, run->n, run->sensitivity, run->adjacency};
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_num_report rep;
    char alpha[UL_RENYI_ALPHA_TEXT_LEN];
    ul_status st;
    if (ul_dpsgd_full_batch(&r)) {
        st = ul_dpsgd_gauss_delta(&r, eps, want, &v, &rep, err, errlen);
        *ok = (st == UL_OK || st == UL_ECAP) && value_at_most(&v, delta);
    } else {
        st = ul_dpsgd_rdp(&r, UL_RDP_TO_EPS, delta, UL_RDP_BBGHS, want, &v, alpha, sizeof alpha,
                          &rep, err, errlen);
        *ok = (st == UL_OK || st == UL_ECAP) && value_at_most(&v, eps);
    }
    ul_num_value_clear(&v);
    return st == UL_ECAP ? UL_OK : st;
}

/* min over α of the BBGHS ε at log δ, every σ_i = sigma (doubles, search). */
static double eps_at_sigma_d(const ul_dpsgd_run *run, double sigma, double log_delta)
{
    run_d rd;
    run_d_init(&rd, run, sigma);
    ul_rdp_curve_d c = {run_curve_d, &rd};
    double v = NAN;
    double a =
        ul_renyi_search_alpha_d(UL_RDP_TO_EPS, &c, UL_DPSGD_ALPHA_MAX, log_delta, UL_RDP_BBGHS, &v);
    run_d_clear(&rd);
    return isnan(a) || isnan(v) ? INFINITY : v;
}

/* The smallest σ in doubles: the exact Gaussian inverse (certified, its safe
 * end) when every q = 1, else bisection on log σ of the RDP ε (search). */
static ul_status sigma_search(const ul_dpsgd_run *run, const char *eps, const char *delta,
                              const ul_num_precision *want, double *sigma, char *err,
                              size_t errlen)
{
    if (ul_dpsgd_full_batch(run)) {
        /* σ = kΔ√(ΣT)·σ1 with σ1 = 1/r*, θ_{e^ε}(r*) = δ ([DRS] Cor. 3.3) */
        mpfi_t s1;
        mpfi_init2(s1, 128);
        ul_num_report rep;
        ul_status st = ul_gauss_sigma_min(eps, delta, "1", want, s1, &rep, err, errlen);
        double total = 0;
        for (size_t i = 0; i < run->n; i++)
            total += (double)run->phases[i].steps;
        *sigma = mpfr_get_d(&s1->right, MPFR_RNDU) * (double)ratio_factor(run) *
                 strtod(sens_text(run), NULL) * sqrt(total);
        mpfi_clear(s1);
        return st == UL_ECAP ? UL_OK : st;
    }
    /* log δ from the decimal (finite where δ is below the double range) */
    mpfi_t l;
    mpfi_init2(l, 64);
    ul_num_set_valid(l, delta);
    mpfi_log(l, l);
    double e = strtod(eps, NULL), ld = mpfr_get_d(&l->left, MPFR_RNDN);
    mpfi_clear(l);
    double lo = log(1e-3), hi = log(1e6);
    if (!(eps_at_sigma_d(run, exp(hi), ld) <= e))
        return ul_fail(err, errlen, UL_ENOROOT,
                       "noise_multiplier: no value up to %s reaches (eps, delta) = (%s, %s)",
                       UL_DPSGD_MAX_SIGMA, eps, delta);
    for (int it = 0; it < 60 && hi - lo > 1e-13; it++) {
        double mid = 0.5 * (lo + hi);
        if (eps_at_sigma_d(run, exp(mid), ld) <= e)
            hi = mid;
        else
            lo = mid;
    }
    *sigma = exp(hi);
    return UL_OK;
}

ul_status ul_dpsgd_sigma_min(const ul_dpsgd_run *run, const char *eps, const char *delta,
                             int digits, const ul_num_precision *want, char **sigma_text,
                             char *err, size_t errlen)
{
    *sigma_text = NULL;
    ul_status st = ul_dpsgd_check(run, err, errlen);
    if (st != UL_OK)
        return st;
    double sigma = 0;
    st = sigma_search(run, eps, delta, want, &sigma, err, errlen);
    mpfr_t x;
    mpfr_init2(x, 64);
    /* certify the double σ rounded up to `digits`; nudge up while it fails
     * (the search's rounding), a handful of certified evaluations at most */
    for (int k = 0; st == UL_OK && k < 12; k++) {
        mpfr_set_d(x, sigma * (1 + 1e-12 * ldexp(1.0, 2 * k)), MPFR_RNDU);
        char *text = ul_num_format(x, digits, MPFR_RNDU);
        bool ok = false;
        st = sigma_certified(run, text, eps, delta, want, &ok, err, errlen);
        if (st == UL_OK && ok) {
            *sigma_text = text;
            break;
        }
        free(text);
    }
    mpfr_clear(x);
    if (st == UL_OK && *sigma_text == NULL)
        st = ul_fail(err, errlen, UL_ENOROOT,
                     "noise_multiplier: the searched value could not be certified");
    return st;
}

/* ---- calibration by the PLD accountant ------------------------------------------ */

/* The PLD estimate of ε(δ) (pld.h ul_pld_epsilon_estimate_d: doubles, no
 * error terms, search only) of the run with every σ_i = sigma. */
static double pld_est(const ul_dpsgd_run *run, double sigma, double delta)
{
    ul_pld_phase_d ph[UL_DPSGD_MAX_PHASES];
    double sens = strtod(sens_text(run), NULL);
    for (size_t i = 0; i < run->n; i++)
        ph[i] = (ul_pld_phase_d){sigma, sens, strtod(run->phases[i].q, NULL),
                                 run->phases[i].steps};
    return ul_pld_epsilon_estimate_d(ph, run->n, delta, 0);
}

/* The σ where the estimate crosses target (search only): from sigma_upper
 * down by factors 0.9 to a bracket, then regula falsi with the Illinois
 * modification on log σ ↦ ε (decreasing); the end whose estimate is at
 * most target, or NAN when the estimate does not apply. */
static double pld_search(const ul_dpsgd_run *run, double sigma_upper, double delta, double target)
{
    double hi = log(sigma_upper), fhi = pld_est(run, sigma_upper, delta) - target;
    for (int k = 0; k < 20 && fhi > 0; k++) /* the estimate is above at sigma_upper: go up */
        hi += log(1.1), fhi = pld_est(run, exp(hi), delta) - target;
    double lo = hi, flo = fhi;
    for (int k = 0; k < 40 && flo <= 0; k++)
        hi = lo, fhi = flo, lo += log(0.9), flo = pld_est(run, exp(lo), delta) - target;
    if (!(fhi <= 0) || !(flo > 0))
        return NAN;
    int side = 0;
    /* stop at 1e-7 in log σ or 1e-6·target in ε: far inside PLD_CAL_MARGIN */
    for (int it = 0; it < 30 && hi - lo > 1e-7 && -fhi > 1e-6 * target; it++) {
        double m = hi - fhi * (hi - lo) / (fhi - flo), fm = pld_est(run, exp(m), delta) - target;
        if (!isfinite(fm))
            break;
        if (fm > 0) {
            lo = m, flo = fm;
            fhi *= side == -1 ? 0.5 : 1, side = -1;
        } else {
            hi = m, fhi = fm;
            flo *= side == 1 ? 0.5 : 1, side = 1;
        }
    }
    return exp(hi);
}

/* Whether the PLD accountant proves the run with every σ_i = sigma (text)
 * (eps, delta)-DP: the upper end of the bracket of δ(eps) at most delta, at
 * the widths an audit asks (1e-3, then 1e-4 when the bracket straddles). */
static ul_status pld_certified(const ul_dpsgd_run *run, const char *sigma, const char *eps,
                               const char *delta, double seconds, bool *ok, char *err,
                               size_t errlen)
{
    ul_dpsgd_phase ph[UL_DPSGD_MAX_PHASES];
    for (size_t i = 0; i < run->n; i++)
        ph[i] = (ul_dpsgd_phase){sigma, run->phases[i].q, run->phases[i].steps};
    ul_dpsgd_run r = {ph, run->n, run->sensitivity, run->adjacency};
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    mpfi_t d;
    mpfi_init2(d, 64);
    ul_num_set_valid(d, delta);
    ul_status st = UL_OK;
    *ok = false;
    const double widths[2] = {1e-3, 1e-4};
    for (int k = 0; k < 2 && !*ok && st == UL_OK; k++) {
        ul_pld_report pr;
        st = ul_dpsgd_pld_delta(&r, eps, widths[k], seconds, lo, hi, &pr, err, errlen);
        st = st == UL_ECAP ? UL_OK : st;
        *ok = st == UL_OK && mpfr_lessequal_p(hi, &d->left);
        if (st == UL_OK && mpfr_greater_p(lo, &d->right))
            break; /* proven too little noise */
    }
    mpfi_clear(d);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return st;
}

ul_status ul_dpsgd_sigma_min_pld(const ul_dpsgd_run *run, const char *eps, const char *delta,
                                 double sigma_upper, int digits, double max_seconds,
                                 char **sigma_text, char *err, size_t errlen)
{
    *sigma_text = NULL;
    ul_status st = ul_dpsgd_check(run, err, errlen);
    if (st == UL_OK && !ul_dpsgd_pld_applies(run))
        st = ul_fail(err, errlen, UL_EINPUT, "adjacency: no PLD accountant for replacement");
    if (st != UL_OK)
        return st;
    /* search in doubles, aiming PLD_CAL_MARGIN below eps (the estimate's
     * error, pld.h, and the audit's bracket width stay inside it) */
    double sigma = pld_search(run, sigma_upper, strtod(delta, NULL),
                              strtod(eps, NULL) * (1 - PLD_CAL_MARGIN));
    if (isnan(sigma))
        return ul_fail(err, errlen, UL_ENOROOT,
                       "noise_multiplier: the PLD estimate does not apply to this run");
    /* certify once; when that fails (the estimate's error exceeded the
     * margin), step σ up by (1 + 1e-4·2^k), k < PLD_CAL_TRIES: a bounded
     * count of certified evaluations, never a search */
    double deadline = (double)time(NULL) + (max_seconds > 0 ? max_seconds : 1e9);
    mpfr_t x;
    mpfr_init2(x, 64);
    for (int k = 0; k < PLD_CAL_TRIES && st == UL_OK && *sigma_text == NULL; k++) {
        mpfr_set_d(x, k == 0 ? sigma : sigma * (1 + 1e-4 * ldexp(1.0, k - 1)), MPFR_RNDU);
        char *text = ul_num_format(x, digits, MPFR_RNDU); /* more noise: post-processing */
        double left = deadline - (double)time(NULL);
        bool ok = false;
        st = pld_certified(run, text, eps, delta, left > 2 ? left : 2, &ok, err, errlen);
        if (st == UL_OK && ok)
            *sigma_text = text;
        else
            free(text);
    }
    mpfr_clear(x);
    if (st == UL_OK && *sigma_text == NULL)
        st = ul_fail(err, errlen, UL_ENOROOT,
                     "noise_multiplier: the PLD accountant certified none of the values tried");
    return st;
}
