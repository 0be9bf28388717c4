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
 * Chien et al. 2024, Prop H.2 eq. (52) (group privacy by the weak triangle
 * inequality, [M17] Cor. 4).
 */
#include "bounds/dpsgd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bounds/gaussian.h"
#include "num/domain.h"
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
    ul_status st = ul_num_read_domain(x, &ul_domain_sigma, name, ph->sigma, err, errlen);
    snprintf(name, sizeof name, "phases[%zu].sample_rate", i);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_q_pos, name, ph->q, err, errlen);
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

/* r's arrays for the run with every σ_i multiplied by c (c ≤ 0: by 1). */
static void run_d_init(run_d *r, const ul_dpsgd_run *run, double c)
{
    r->n = run->n;
    r->q = malloc(run->n * sizeof *r->q);
    r->s = malloc(run->n * sizeof *r->s);
    r->t = malloc(run->n * sizeof *r->t);
    /* at most UL_DPSGD_MAX_PHASES phases */
    if (r->q == NULL || r->s == NULL || r->t == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    double kd = (double)ratio_factor(run) * strtod(sens_text(run), NULL);
    for (size_t i = 0; i < run->n; i++) {
        r->q[i] = strtod(run->phases[i].q, NULL);
        r->s[i] = (c > 0 ? c : 1) * strtod(run->phases[i].sigma, NULL) / kd;
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
    st = ul_num_read_domain(x, &ul_domain_eps_any, "eps", eps, err, errlen);
    mpfi_clear(x);
    if (st != UL_OK)
        return st;
    gauss_job job = {run, eps};
    return ul_num_adaptive_eval(gauss_eval, &job, want, delta, rep, err, errlen);
}

/* ---- PLD ------------------------------------------------------------------------ */

/* The engine's phases and options for the run (add/remove only). */
static ul_status pld_setup(const ul_dpsgd_run *run, double rel_width, const char *decide,
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
    opt->decide = decide;
    return UL_OK;
}

ul_status ul_dpsgd_pld_delta(const ul_dpsgd_run *run, const char *eps, double rel_width,
                             const char *decide, mpfr_ptr lo, mpfr_ptr hi,
                             ul_pld_report *report, char *err, size_t errlen)
{
    ul_pld_phase ph[UL_DPSGD_MAX_PHASES];
    ul_pld_options opt;
    ul_status st = pld_setup(run, rel_width, decide, ph, &opt, err, errlen);
    return st != UL_OK ? st : ul_pld_delta(ph, run->n, eps, &opt, lo, hi, report, err, errlen);
}

ul_status ul_dpsgd_pld_eps(const ul_dpsgd_run *run, const char *delta, double rel_width,
                           const char *decide, mpfr_ptr eps_lo, mpfr_ptr eps_hi,
                           ul_pld_report *report, char *err, size_t errlen)
{
    ul_pld_phase ph[UL_DPSGD_MAX_PHASES];
    ul_pld_options opt;
    ul_status st = pld_setup(run, rel_width, decide, ph, &opt, err, errlen);
    return st != UL_OK ? st
                       : ul_pld_epsilon(ph, run->n, delta, &opt, eps_lo, eps_hi, report, err,
                                        errlen);
}

/* ---- calibration: scaled and lengthened runs ------------------------------------- */

char *ul_dpsgd_decimal_product(const char *a, const char *b)
{
    /* a·b is a rational p/q with q = 2^x·5^y (both decimals): with
     * k = max(x, y), p·10^k/q is an integer N and a·b = N·10^-k exactly */
    mpq_t x, y;
    mpq_inits(x, y, (mpq_ptr)0);
    ul_num_mpq_valid(x, a);
    ul_num_mpq_valid(y, b);
    mpq_mul(x, x, y);
    mpz_t d, n;
    mpz_inits(d, n, (mpz_ptr)0);
    mpz_set(d, mpq_denref(x));
    unsigned long two = mpz_scan1(d, 0), five = 0;
    mpz_tdiv_q_2exp(d, d, two);
    while (mpz_divisible_ui_p(d, 5))
        mpz_divexact_ui(d, d, 5), five++;
    unsigned long k = two > five ? two : five;
    mpz_ui_pow_ui(n, 10, k);
    mpz_mul(n, n, mpq_numref(x));
    mpz_divexact(n, n, mpq_denref(x));
    char *digits = mpz_get_str(NULL, 10, n);
    size_t len = strlen(digits) + 24;
    char *out = malloc(len);
    /* the digits of a product of two decimals within num/input.h's limits */
    if (out == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    if (k > 0)
        snprintf(out, len, "%se-%lu", digits, k);
    else
        snprintf(out, len, "%s", digits);
    void (*freefn)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefn);
    freefn(digits, strlen(digits) + 1);
    mpz_clears(d, n, (mpz_ptr)0);
    mpq_clears(x, y, (mpq_ptr)0);
    return out;
}

/* The run with every σ_i multiplied by a decimal scale (exact products), or
 * with phase j's steps replaced (steps_j > 0). */
typedef struct {
    ul_dpsgd_phase ph[UL_DPSGD_MAX_PHASES];
    char *text[UL_DPSGD_MAX_PHASES];
    ul_dpsgd_run run;
} variant;

static void variant_init(variant *v, const ul_dpsgd_run *run, const char *scale, size_t j,
                         unsigned long steps_j)
{
    memset(v, 0, sizeof *v);
    v->run = *run;
    v->run.phases = v->ph;
    for (size_t i = 0; i < run->n; i++) {
        v->ph[i] = run->phases[i];
        if (scale != NULL)
            v->ph[i].sigma = v->text[i] = ul_dpsgd_decimal_product(run->phases[i].sigma, scale);
        if (steps_j > 0 && i == j)
            v->ph[i].steps = steps_j;
    }
}

static void variant_clear(variant *v)
{
    for (size_t i = 0; i < v->run.n; i++)
        free(v->text[i]);
}

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

/* Whether the run r is certified (eps, delta)-DP: the exact profile when
 * every q = 1, else RDP with BBGHS. */
static ul_status run_certified(const ul_dpsgd_run *r, const char *eps, const char *delta,
                               const ul_num_precision *want, bool *ok, char *err, size_t errlen)
{
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_num_report rep;
    char alpha[UL_RENYI_ALPHA_TEXT_LEN];
    ul_status st;
    if (ul_dpsgd_full_batch(r)) {
        st = ul_dpsgd_gauss_delta(r, eps, want, &v, &rep, err, errlen);
        *ok = (st == UL_OK || st == UL_ECAP) && value_at_most(&v, delta);
    } else {
        st = ul_dpsgd_rdp(r, UL_RDP_TO_EPS, delta, UL_RDP_BBGHS, want, &v, alpha, sizeof alpha,
                          &rep, err, errlen);
        *ok = (st == UL_OK || st == UL_ECAP) && value_at_most(&v, eps);
    }
    ul_num_value_clear(&v);
    return st == UL_ECAP ? UL_OK : st;
}

/* The same for the run with every σ_i multiplied by scale (text). */
static ul_status scale_certified(const ul_dpsgd_run *run, const char *scale, const char *eps,
                                 const char *delta, const ul_num_precision *want, bool *ok,
                                 char *err, size_t errlen)
{
    variant v;
    variant_init(&v, run, scale, 0, 0);
    ul_status st = run_certified(&v.run, eps, delta, want, ok, err, errlen);
    variant_clear(&v);
    return st;
}

/* min over α of the BBGHS ε at log δ of the run with every σ_i·c and phase
 * j at steps_j steps when steps_j > 0 (doubles, search). */
static double eps_rdp_near_d(const ul_dpsgd_run *run, double c, size_t j, double steps_j,
                             double log_delta, double *alpha)
{
    run_d rd;
    run_d_init(&rd, run, c);
    if (steps_j > 0)
        rd.t[j] = steps_j;
    ul_rdp_curve_d cv = {run_curve_d, &rd};
    double v = NAN;
    double a = ul_renyi_search_alpha_near_d(UL_RDP_TO_EPS, &cv, UL_DPSGD_ALPHA_MAX, log_delta,
                                            UL_RDP_BBGHS, *alpha, &v);
    run_d_clear(&rd);
    if (!isnan(a))
        *alpha = a;
    return isnan(a) || isnan(v) ? INFINITY : v;
}

/* ε by RDP in doubles (searches only), α searched afresh. */
static double eps_rdp_d(const ul_dpsgd_run *run, double c, size_t j, double steps_j,
                        double log_delta)
{
    double alpha = NAN;
    return eps_rdp_near_d(run, c, j, steps_j, log_delta, &alpha);
}

/* log δ from the decimal (finite where δ is below the double range). */
static double log_delta_d(const char *delta)
{
    mpfi_t l;
    mpfi_init2(l, 64);
    ul_num_set_valid(l, delta);
    mpfi_log(l, l);
    double ld = mpfr_get_d(&l->left, MPFR_RNDN);
    mpfi_clear(l);
    return ld;
}

/* The range of the common factor: every σ_i·c within [1e-3, 1e6]. */
static void scale_range(const ul_dpsgd_run *run, double *lo, double *hi)
{
    double smin = INFINITY, smax = 0;
    for (size_t i = 0; i < run->n; i++) {
        double s = strtod(run->phases[i].sigma, NULL);
        smin = s < smin ? s : smin;
        smax = s > smax ? s : smax;
    }
    *lo = 1e-3 / smin, *hi = 1e6 / smax;
}

/* Every q = 1: c = kΔ·√(Σ_i T_i/σ_i²)·σ1, σ1 = 1/r* with θ_{e^ε}(r*) = δ
 * ([DRS] Cor. 3.3: r² = Σ_i T_i(kΔ/(cσ_i))²), from the certified safe end
 * of σ1. */
static ul_status scale_gauss(const ul_dpsgd_run *run, const char *eps, const char *delta,
                             const ul_num_precision *want, double *c, char *err, size_t errlen)
{
    mpfi_t s1;
    mpfi_init2(s1, 128);
    ul_num_report rep;
    ul_status st = ul_gauss_sigma_min(eps, delta, "1", want, s1, &rep, err, errlen);
    double sum = 0;
    for (size_t i = 0; i < run->n; i++) {
        double s = strtod(run->phases[i].sigma, NULL);
        sum += (double)run->phases[i].steps / (s * s);
    }
    *c = mpfr_get_d(&s1->right, MPFR_RNDU) * (double)ratio_factor(run) *
         strtod(sens_text(run), NULL) * sqrt(sum);
    mpfi_clear(s1);
    return st == UL_ECAP ? UL_OK : st;
}

/* The smallest factor in doubles: scale_gauss when every q = 1, else
 * bisection on log c of the RDP ε (search). */
static ul_status scale_search(const ul_dpsgd_run *run, const char *eps, const char *delta,
                              const ul_num_precision *want, double *c, char *err, size_t errlen)
{
    if (ul_dpsgd_full_batch(run))
        return scale_gauss(run, eps, delta, want, c, err, errlen);
    double e = strtod(eps, NULL), ld = log_delta_d(delta), lo, hi;
    scale_range(run, &lo, &hi);
    lo = log(lo), hi = log(hi);
    if (!(eps_rdp_d(run, exp(hi), 0, 0, ld) <= e))
        return ul_fail(err, errlen, UL_ENOROOT,
                       "noise_multiplier: no noise with every noise multiplier up to %s reaches "
                       "(eps, delta) = (%s, %s)",
                       UL_DPSGD_MAX_SIGMA, eps, delta);
    /* the Illinois variant of regula falsi on f = ε_RDP(e^x) − ε (Dowell &
     * Jarratt 1971, BIT 11), bisecting while f(lo) is infinite and every
     * eighth step: a dozen evaluations, each an α search, where bisection
     * to 1e-13 took about 48; done when the safe end is within 1e-13·ε */
    double alpha = NAN; /* each α search starts near the last one's α */
    double flo = INFINITY, fhi = eps_rdp_near_d(run, exp(hi), 0, 0, ld, &alpha) - e;
    int side = 0;
    for (int it = 0; it < 200 && hi - lo > 1e-13 && fhi < -1e-13 * e; it++) {
        double x = 0.5 * (lo + hi);
        if (isfinite(flo) && flo > fhi && it % 8 != 7) {
            double xs = hi - fhi * (hi - lo) / (fhi - flo);
            if (xs > lo && xs < hi)
                x = xs;
        }
        double fx = eps_rdp_near_d(run, exp(x), 0, 0, ld, &alpha) - e;
        if (fx <= 0) {
            hi = x, fhi = fx;
            if (side == -1)
                flo *= 0.5;
            side = -1;
        } else {
            lo = x, flo = fx;
            if (side == 1)
                fhi *= 0.5;
            side = 1;
        }
    }
    *c = exp(hi);
    return UL_OK;
}

ul_status ul_dpsgd_sigma_min(const ul_dpsgd_run *run, const char *eps, const char *delta,
                             int digits, const ul_num_precision *want, char **scale_text,
                             char *err, size_t errlen)
{
    *scale_text = NULL;
    ul_status st = ul_dpsgd_check(run, err, errlen);
    if (st != UL_OK)
        return st;
    double c = 0;
    st = scale_search(run, eps, delta, want, &c, err, errlen);
    mpfr_t x;
    mpfr_init2(x, 64);
    /* certify the double factor rounded up to `digits`; nudge up while it
     * fails (the search's rounding), a handful of certified evaluations at most */
    for (int k = 0; st == UL_OK && k < 12; k++) {
        mpfr_set_d(x, c * (1 + 1e-12 * ldexp(1.0, 2 * k)), MPFR_RNDU);
        char *text = ul_num_format(x, digits, MPFR_RNDU);
        bool ok = false;
        st = scale_certified(run, text, eps, delta, want, &ok, err, errlen);
        if (st == UL_OK && ok) {
            *scale_text = text;
            break;
        }
        free(text);
    }
    mpfr_clear(x);
    if (st == UL_OK && *scale_text == NULL)
        st = ul_fail(err, errlen, UL_ENOROOT,
                     "noise_multiplier: the searched value could not be certified");
    return st;
}

/* ---- calibration by the PLD accountant ------------------------------------------ */

/* The first failure of the estimate in a search (UL_ENOMEM: its arrays are
 * sized by the run, pld.h), with its message in err. */
typedef struct {
    ul_status st;
    char *err;
    size_t errlen;
} est_fail;

/* The PLD estimate of ε(δ) (pld.h ul_pld_epsilon_estimate: doubles, no
 * error terms, search only) of the run with every σ_i·c and phase j at
 * steps_j steps when steps_j > 0; NAN once the estimate failed (ef->st),
 * which ends every search. */
static double pld_est(const ul_dpsgd_run *run, double c, size_t j, unsigned long steps_j,
                      double delta, est_fail *ef)
{
    if (ef->st != UL_OK)
        return NAN;
    ul_pld_phase_d ph[UL_DPSGD_MAX_PHASES];
    double sens = strtod(sens_text(run), NULL);
    for (size_t i = 0; i < run->n; i++)
        ph[i] = (ul_pld_phase_d){c * strtod(run->phases[i].sigma, NULL), sens,
                                 strtod(run->phases[i].q, NULL),
                                 steps_j > 0 && i == j ? steps_j : run->phases[i].steps};
    double e = NAN;
    ef->st = ul_pld_epsilon_estimate(ph, run->n, delta, 0, &e, ef->err, ef->errlen);
    return e;
}

/* The factor where the estimate crosses target (search only): from c_upper
 * down by factors 0.9 to a bracket, then regula falsi with the Illinois
 * modification on log c ↦ ε (decreasing); the end whose estimate is at
 * most target, or NAN when the estimate does not apply or failed (ef). */
static double pld_search(const ul_dpsgd_run *run, double c_upper, double delta, double target,
                         est_fail *ef)
{
    double hi = log(c_upper), fhi = pld_est(run, c_upper, 0, 0, delta, ef) - target;
    for (int k = 0; k < 20 && fhi > 0; k++) /* the estimate is above at c_upper: go up */
        hi += log(1.1), fhi = pld_est(run, exp(hi), 0, 0, delta, ef) - target;
    double lo = hi, flo = fhi;
    for (int k = 0; k < 40 && flo <= 0; k++)
        hi = lo, fhi = flo, lo += log(0.9), flo = pld_est(run, exp(lo), 0, 0, delta, ef) - target;
    if (!(fhi <= 0) || !(flo > 0))
        return NAN;
    int side = 0;
    /* stop at 1e-7 in log c or 1e-6·target in ε: far inside PLD_CAL_MARGIN */
    for (int it = 0; it < 30 && hi - lo > 1e-7 && -fhi > 1e-6 * target; it++) {
        double m = hi - fhi * (hi - lo) / (fhi - flo);
        double fm = pld_est(run, exp(m), 0, 0, delta, ef) - target;
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

/* Whether the PLD accountant proves the run r (eps, delta)-DP: the upper
 * end of the bracket of δ(eps) at most delta, refined to width 1e-4 or
 * until the bracket lies on one side of delta (ul_pld_options.decide). */
static ul_status pld_certified(const ul_dpsgd_run *r, const char *eps, const char *delta,
                               bool *ok, char *err, size_t errlen)
{
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    mpfi_t d;
    mpfi_init2(d, 64);
    ul_num_set_valid(d, delta);
    ul_pld_report pr;
    ul_status st = ul_dpsgd_pld_delta(r, eps, 1e-4, delta, lo, hi, &pr, err, errlen);
    st = st == UL_ECAP ? UL_OK : st;
    *ok = st == UL_OK && mpfr_lessequal_p(hi, &d->left);
    mpfi_clear(d);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return st;
}

static ul_status pld_applies_check(const ul_dpsgd_run *run, char *err, size_t errlen)
{
    ul_status st = ul_dpsgd_check(run, err, errlen);
    if (st == UL_OK && !ul_dpsgd_pld_applies(run))
        st = ul_fail(err, errlen, UL_EINPUT, "adjacency: no PLD accountant for replacement");
    return st;
}

/* The next target of a PLD calibration search after a certification of the
 * run r failed at a value the estimate put at `target`: lowered by how far
 * the accountant's certified ε_hi(δ) lies above it (the engine's bracket
 * width, e.g. its FFT rounding floor at a small δ), times 1.25, plus
 * 1e-4·2^k·eps.  The certified number only steers the next search in
 * doubles; it certifies nothing here. */
static double pld_retarget(const ul_dpsgd_run *r, const char *delta, double target, double eps,
                           int k)
{
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    ul_pld_report pr;
    char e[256];
    ul_status st = ul_dpsgd_pld_eps(r, delta, 1e-4, NULL, lo, hi, &pr, e, sizeof e);
    double gap = st == UL_OK || st == UL_ECAP ? mpfr_get_d(hi, MPFR_RNDU) - target : 0;
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return target - (isfinite(gap) && gap > 0 ? 1.25 * gap : 0) - 1e-4 * ldexp(1.0, k) * eps;
}

ul_status ul_dpsgd_sigma_min_pld(const ul_dpsgd_run *run, const char *eps, const char *delta,
                                 double scale_upper, int digits, char **scale_text, char *err,
                                 size_t errlen)
{
    *scale_text = NULL;
    ul_status st = pld_applies_check(run, err, errlen);
    if (st != UL_OK)
        return st;
    double e = strtod(eps, NULL), d = strtod(delta, NULL), target = e * (1 - PLD_CAL_MARGIN);
    mpfr_t x;
    mpfr_init2(x, 64);
    /* search in doubles (aiming PLD_CAL_MARGIN below eps: the estimate's
     * error, pld.h, and the audit's bracket width stay inside it), certify
     * once; when that fails, search again for a lower target (pld_retarget),
     * at most PLD_CAL_TRIES certifications in all */
    est_fail ef = {UL_OK, err, errlen};
    for (int k = 0; k < PLD_CAL_TRIES && st == UL_OK && *scale_text == NULL; k++) {
        double c = pld_search(run, scale_upper, d, target, &ef);
        st = ef.st; /* out of memory in the estimate: the message is in err */
        if (st != UL_OK || isnan(c))
            break;
        mpfr_set_d(x, c, MPFR_RNDU);
        char *text = ul_num_format(x, digits, MPFR_RNDU); /* more noise: post-processing */
        variant v;
        variant_init(&v, run, text, 0, 0);
        bool ok = false;
        st = pld_certified(&v.run, eps, delta, &ok, err, errlen);
        if (st == UL_OK && !ok && k + 1 < PLD_CAL_TRIES)
            target = pld_retarget(&v.run, delta, target, e, k);
        variant_clear(&v);
        if (st == UL_OK && ok)
            *scale_text = text;
        else
            free(text);
    }
    mpfr_clear(x);
    if (st == UL_OK && *scale_text == NULL)
        st = ul_fail(err, errlen, UL_ENOROOT,
                     "noise_multiplier: the PLD accountant certified none of the values tried");
    return st;
}

/* ---- the most steps ------------------------------------------------------------------ */

/* The largest T ≤ t_max with f(T) ≤ target, f nondecreasing in T (search in
 * doubles), between a T known to pass (t_ok, 0 for none) and t_max; 0 when
 * even T = 1 fails. */
typedef double (*steps_fn)(const ul_dpsgd_run *run, size_t j, unsigned long T, void *ctx);

static unsigned long steps_search(steps_fn f, const ul_dpsgd_run *run, size_t j, void *ctx,
                                  double target, unsigned long t_ok, unsigned long t_max)
{
    unsigned long lo = t_ok, hi = t_ok > 0 ? t_ok : 1;
    if (t_ok == 0 && !(f(run, j, 1, ctx) <= target))
        return 0;
    lo = lo > 0 ? lo : 1;
    /* grow to a failing T (×2), then bisect on integers */
    while (hi < t_max && f(run, j, hi, ctx) <= target) {
        lo = hi;
        hi = hi > t_max / 2 ? t_max : 2 * hi;
    }
    if (hi == t_max && f(run, j, hi, ctx) <= target)
        return t_max;
    while (hi - lo > 1 && (double)(hi - lo) > 1e-6 * (double)lo) {
        unsigned long mid = lo + (hi - lo) / 2;
        if (f(run, j, mid, ctx) <= target)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

typedef struct {
    double log_delta, delta;
    est_fail *ef; /* the PLD estimate's failure (steps_pld) */
} steps_ctx;

static double steps_rdp(const ul_dpsgd_run *run, size_t j, unsigned long T, void *ctx)
{
    return eps_rdp_d(run, 1, j, (double)T, ((steps_ctx *)ctx)->log_delta);
}

static double steps_pld(const ul_dpsgd_run *run, size_t j, unsigned long T, void *ctx)
{
    const steps_ctx *cx = ctx;
    return pld_est(run, 1, j, T, cx->delta, cx->ef);
}

/* The largest certified T from the double guess t (exact profile or RDP):
 * certify once, and while that fails step T down by (1 − 1e-4·2^k),
 * k < PLD_CAL_TRIES (bounded). */
static ul_status steps_certify(const ul_dpsgd_run *run, size_t j, unsigned long t,
                               const char *eps, const char *delta, const ul_num_precision *want,
                               unsigned long *out, char *err, size_t errlen)
{
    ul_status st = UL_OK;
    *out = 0;
    for (int k = 0; k < PLD_CAL_TRIES && st == UL_OK && *out == 0 && t > 0; k++) {
        unsigned long tk = k == 0 ? t : (unsigned long)((double)t * (1 - 1e-4 * ldexp(1.0, k - 1)));
        if (tk < 1)
            break;
        variant v;
        variant_init(&v, run, NULL, j, tk);
        bool ok = false;
        st = run_certified(&v.run, eps, delta, want, &ok, err, errlen);
        variant_clear(&v);
        if (st == UL_OK && ok)
            *out = tk;
    }
    return st;
}

/* The PLD accountant's most steps above t_ok: searched on the estimate
 * (aiming PLD_CAL_MARGIN below eps), certified once; when that fails,
 * searched again for a lower target (pld_retarget), at most PLD_CAL_TRIES
 * certifications.  *got: the certified T, or 0. */
static ul_status steps_pld_max(const ul_dpsgd_run *run, size_t j, steps_ctx *cx, const char *eps,
                               const char *delta, unsigned long t_ok, unsigned long t_max,
                               unsigned long *got, char *err, size_t errlen)
{
    double e = strtod(eps, NULL), target = e * (1 - PLD_CAL_MARGIN);
    ul_status st = UL_OK;
    *got = 0;
    for (int k = 0; k < PLD_CAL_TRIES && st == UL_OK && *got == 0; k++) {
        unsigned long t = steps_search(steps_pld, run, j, cx, target, t_ok, t_max);
        st = cx->ef->st; /* out of memory in the estimate: the message is in err */
        if (st != UL_OK || t <= t_ok)
            break;
        variant v;
        variant_init(&v, run, NULL, j, t);
        bool ok = false;
        st = pld_certified(&v.run, eps, delta, &ok, err, errlen);
        if (st == UL_OK && ok)
            *got = t;
        else if (st == UL_OK && k + 1 < PLD_CAL_TRIES)
            target = pld_retarget(&v.run, delta, target, e, k);
        variant_clear(&v);
    }
    return st;
}

/* Every q = 1: T_j = ⌊(r*² − Σ_{i≠j} T_i(kΔ/σ_i)²)/(kΔ/σ_j)²⌋ with
 * θ_{e^ε}(r*) = δ ([DRS] Cor. 3.3; r* = 1/σ1 of ul_gauss_sigma_min, a
 * search value in doubles), 0 when negative, capped at t_max. */
static ul_status steps_gauss(const ul_dpsgd_run *run, size_t j, const char *eps,
                             const char *delta, const ul_num_precision *want, unsigned long t_max,
                             unsigned long *t, char *err, size_t errlen)
{
    mpfi_t s1;
    mpfi_init2(s1, 128);
    ul_num_report rep;
    ul_status st = ul_gauss_sigma_min(eps, delta, "1", want, s1, &rep, err, errlen);
    double rs = 1 / mpfr_get_d(&s1->right, MPFR_RNDU), kd = (double)ratio_factor(run) *
                                                            strtod(sens_text(run), NULL);
    mpfi_clear(s1);
    double rest = rs * rs;
    for (size_t i = 0; i < run->n; i++) {
        double ri = kd / strtod(run->phases[i].sigma, NULL);
        rest -= i == j ? 0 : (double)run->phases[i].steps * ri * ri;
    }
    double rj = kd / strtod(run->phases[j].sigma, NULL), tj = floor(rest / (rj * rj));
    *t = !(tj > 0) ? 0 : (tj >= (double)t_max ? t_max : (unsigned long)tj);
    return st == UL_ECAP ? UL_OK : st;
}

ul_status ul_dpsgd_steps_max(const ul_dpsgd_run *run, size_t j, const char *eps,
                             const char *delta, const ul_num_precision *want,
                             unsigned long *steps, bool *by_pld, char *err, size_t errlen)
{
    *steps = 0, *by_pld = false;
    ul_status st = ul_dpsgd_check(run, err, errlen);
    if (st == UL_OK && j >= run->n)
        st = ul_fail(err, errlen, UL_EINPUT, "phases: no phase %zu", j);
    if (st != UL_OK)
        return st;
    unsigned long others = 0; /* the total stays within UL_DPSGD_MAX_STEPS */
    for (size_t i = 0; i < run->n; i++)
        others += i == j ? 0 : run->phases[i].steps;
    unsigned long t_max = UL_DPSGD_MAX_STEPS - others;
    est_fail ef = {UL_OK, err, errlen};
    steps_ctx cx = {log_delta_d(delta), strtod(delta, NULL), &ef};
    double e = strtod(eps, NULL);
    /* the exact profile when every q = 1, else the RDP accountant */
    unsigned long t = 0, best = 0;
    if (ul_dpsgd_full_batch(run))
        st = steps_gauss(run, j, eps, delta, want, t_max, &t, err, errlen);
    else
        t = steps_search(steps_rdp, run, j, &cx, e, 0, t_max);
    if (st == UL_OK)
        st = steps_certify(run, j, t, eps, delta, want, &best, err, errlen);
    if (st == UL_OK && ul_dpsgd_pld_applies(run) && !ul_dpsgd_full_batch(run) && best < t_max) {
        unsigned long got = 0; /* the PLD accountant, from the RDP value up */
        st = steps_pld_max(run, j, &cx, eps, delta, best, t_max, &got, err, errlen);
        if (st == UL_OK && got > best)
            best = got, *by_pld = true;
    }
    *steps = best;
    if (st == UL_OK && best == 0)
        st = ul_fail(err, errlen, UL_ENOROOT,
                     "steps: not even one step is certified (eps, delta) = (%s, %s)", eps, delta);
    return st;
}
