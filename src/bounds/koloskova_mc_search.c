/* src/bounds/koloskova_mc_search.c — model clipping (Koloskova et al. 2025,
 * docs/neural-unlearning.md, "Model clipping"): what decides a claim on δ_T without running the
 * whole adaptive recursion, certified (θ* and the band sequences), and the
 * recursion in doubles that the searches use (search in doubles, certify
 * once: docs/design.md, "Search in doubles, certify in MPFR"; the double
 * values only choose where the certified functions of koloskova_mc.c are
 * evaluated; none is reported as a bound).  Entry points: koloskova_mc.h,
 * "model clipping: brackets and searches". */
#include "bounds/koloskova_mc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bounds/gaussian.h"
#include "num/input.h"

/* log of a decimal in doubles, finite even where the decimal itself is
 * outside the double range (δ = 1e-400); a search value only. */
double ul_kol_log_decimal_d(const char *text)
{
    mpfr_t x;
    mpfr_init2(x, 64);
    mpfr_set_str(x, text, 10, MPFR_RNDN);
    mpfr_log(x, x, MPFR_RNDN);
    double d = mpfr_get_d(x, MPFR_RNDN);
    mpfr_clear(x);
    return d;
}

/* σ0 > 0, decided on the decimal text. */
bool ul_kol_mc_initial_noise(const ul_kol_mc_problem *pb)
{
    int cmp = 0;
    return pb->sigma0 != NULL && ul_num_decimal_compare(pb->sigma0, "0", &cmp) && cmp > 0;
}

/* Where a value (log form or plain) lies against a decimal δ > 0, read at
 * the value's precision + 64 bits: the rule of ul_audit_compare (audit/audit.c)
 * for a nonzero claim. */
static ul_kol_side value_side(const ul_num_value *v, const char *delta)
{
    mpfi_t c;
    mpfi_init2(c, mpfi_get_prec(v->enclosure) + 64);
    ul_kol_side s = UL_KOL_UNDECIDED;
    if (ul_num_set_decimal(c, delta) == UL_OK && !mpfi_is_zero(c)) {
        if (v->is_log)
            mpfi_log(c, c);
        if (mpfr_lessequal_p(&v->enclosure->right, &c->left))
            s = UL_KOL_AT_MOST;
        else if (mpfr_greater_p(&v->enclosure->left, &c->right))
            s = UL_KOL_ABOVE;
    }
    mpfi_clear(c);
    return s;
}

/* ---- the recursion in doubles: searches only, never a bound ---------------------
 * Search in doubles, certify once (docs/design.md): these choose where the certified
 * functions are evaluated (the σ to certify, whether a least T is within
 * reach); nothing they return is reported as a bound. */

/* log θ_{e^ε}(r) in doubles, r > 0 (docs/neural-unlearning.md, "Hockey-stick divergence of
 * Gaussians"): 1 − Q(−a) − e^ε·Q(b) for a < 0, Q(a)·(1 − e^ε·Q(b)/Q(a)) otherwise, a = ε/r − r/2,
 * b = a + r; log Q from renyi.h (ul_renyi_log_q_d). */
static double log_theta_d(double eps, double r)
{
    double a = eps / r - r / 2, b = a + r;
    if (a < 0) {
        double t = exp(ul_renyi_log_q_d(-a)) + exp(eps + ul_renyi_log_q_d(b));
        return t >= 1 ? -INFINITY : log1p(-t);
    }
    double lqa = ul_renyi_log_q_d(a), d = eps + ul_renyi_log_q_d(b) - lqa;
    return d >= 0 ? -INFINITY : lqa + log(-expm1(d));
}

/* The pre-noise diameter D in doubles (docs/neural-unlearning.md, "Model clipping"). */
static double mc_diameter_d(const ul_kol_mc_problem *pb)
{
    double c2 = strtod(pb->c2, NULL);
    if (pb->variant == UL_KOL_CC2)
        return 2 * (c2 + strtod(pb->lr, NULL) * strtod(pb->c1, NULL));
    return 2 * c2;
}

/* log δ_T in doubles for `steps` steps at the constant σ (sigma > 0), or at
 * the problem's σ_t when sigma = 0; −inf once below 10^-300·e^-300. */
double ul_kol_mc_log_delta_d(const ul_kol_mc_problem *pb, double sigma, unsigned long steps)
{
    double eps = strtod(pb->eps, NULL), lem1 = log(expm1(eps)), ld = 0, d = mc_diameter_d(pb);
    if (ul_kol_mc_initial_noise(pb)) {
        double d0 = 2 * strtod(pb->c0, NULL);
        if (pb->init == UL_KOL_INIT_BOX)
            d0 *= sqrt((double)pb->dim);
        ld = log_theta_d(eps, d0 / strtod(pb->sigma0, NULL));
    }
    for (unsigned long t = 0; t < steps && ld > -1000; t++) {
        double s = sigma > 0 ? sigma : strtod(pb->sigma[pb->n_sigma > 1 ? t : 0], NULL);
        /* ε̃ = log(1 + (e^ε − 1)/δ) (docs/neural-unlearning.md, "Model clipping") */
        double x = lem1 - ld;
        double et = pb->mode == UL_CONTRACTION_PRODUCT ? eps
                    : x > 30                           ? x + log1p(exp(-x))
                                                       : log1p(exp(x));
        ld += log_theta_d(et, d / s);
    }
    return ld > -1000 ? ld : -INFINITY;
}

/* The parts of a one-σ recursion at r's precision: r ⊇ D/σ, ld0 ⊇ log δ_0
 * (δ_0 = 1: 0).  False when not computable. */
static bool mc_parts(const ul_kol_mc_problem *pb, mpfi_ptr r, mpfi_ptr ld0)
{
    char *diam = NULL, e2[256];
    ul_preconditions pre;
    if (pb->n_sigma != 1 || ul_kol_mc_diameter(pb, &pre, &diam, e2, sizeof e2) != UL_OK)
        return false;
    mpfr_prec_t p = mpfi_get_prec(r);
    ul_num_value d0;
    ul_num_value_init(&d0, p);
    ul_num_precision w = {20, 0, 0};
    ul_num_report nr;
    bool ok = ul_kol_mc_delta0_certified(pb, &w, &pre, &d0, &nr, e2, sizeof e2) == UL_OK;
    mpfi_t s;
    mpfi_init2(s, p);
    ok = ok && ul_num_set_decimal(r, diam) == UL_OK && ul_num_set_decimal(s, pb->sigma[0]) == UL_OK;
    if (ok) {
        mpfi_div(r, r, s);
        mpfi_set(ld0, d0.enclosure);
        if (!d0.is_log)
            mpfi_log(ld0, ld0);
    }
    mpfi_clear(s);
    ul_num_value_clear(&d0);
    free(diam);
    return ok;
}

/* The contraction per step that δ_t cannot beat while it stays above delta:
 * then ε̃_t < ε̃* = log(1 + (e^ε − 1)/δ) and θ is nonincreasing in ε, so
 * every step multiplies δ_t by at least θ* = θ_{e^ε̃*}(D/σ) (ε̃* = ε for the
 * product form; docs/neural-unlearning.md, "Model clipping").  lt ⊇ log θ*, ld0 ⊇ log δ_0 (at lt's
 * precision); one constant σ only; false when not computable. */
static bool mc_theta_star(const ul_kol_mc_problem *pb, const char *delta, mpfi_ptr lt, mpfi_ptr ld0)
{
    mpfr_prec_t p = mpfi_get_prec(lt);
    mpfi_t r, s, et;
    mpfi_init2(r, p);
    mpfi_init2(s, p);
    mpfi_init2(et, p);
    bool ok = mc_parts(pb, r, ld0) && ul_num_set_decimal(et, pb->eps) == UL_OK;
    if (ok && pb->mode == UL_CONTRACTION_ADAPTIVE)
        ok = ul_num_set_decimal(s, delta) == UL_OK;
    if (ok && pb->mode == UL_CONTRACTION_ADAPTIVE) {
        mpfi_expm1(et, et);
        mpfi_div(et, et, s);
        mpfi_log1p(et, et);
    }
    if (ok)
        ul_gauss_log_theta_enclose(lt, et, r);
    mpfi_clear(r);
    mpfi_clear(s);
    mpfi_clear(et);
    return ok && mpfr_number_p(&lt->left) && mpfr_sgn(&lt->right) < 0;
}

/* log(δ_0·θ*^T) at p bits: a certified lower bound on δ_T whenever it lies
 * above the claim (mc_theta_star: no step before the claim is reached
 * contracts more).  False when not computable. */
bool ul_kol_mc_delta_lower_bound(const ul_kol_mc_problem *pb, const char *claim, mpfr_prec_t p,
                                 ul_num_value *lower)
{
    mpfi_t ld0;
    mpfi_init2(ld0, p);
    mpfi_set_prec(lower->enclosure, p);
    bool ok = mc_theta_star(pb, claim, lower->enclosure, ld0);
    if (ok) {
        mpfi_mul_ui(lower->enclosure, lower->enclosure, pb->steps);
        mpfi_add(lower->enclosure, lower->enclosure, ld0); /* log(δ_0·θ*^T) */
        lower->is_log = true;
    }
    mpfi_clear(ld0);
    return ok;
}

/* ---- the adaptive recursion between two step functions -------------------------
 * g(L) = log θ_{e^{ε̃(L)}}(r), ε̃(L) = log(1 + (e^ε − 1)·e^{−L}), L = log δ, is
 * nondecreasing in L (ε̃ falls as δ rises, θ is nonincreasing in ε: docs/neural-unlearning.md,
 * "Hockey-stick divergence of Gaussians", "Model clipping"), and F(L) = L + g(L), one step of the
 * recursion, is increasing (contraction.c, chain_end).  So y_{t+1} = y_t + g_lo(y_t) with g_lo ≤ g
 * stays at or below log δ_t (induction: y_{t+1} ≤ F(y_t) ≤ F(log δ_t)), and z_{t+1} = z_t +
 * g_hi(z_t) with g_hi ≥ g stays at or above it.  With M equal bands (ℓ_{j+1}, ℓ_j] of L from log
 * δ_0 down to log δ_claim, g_lo = g(ℓ_{j+1}) and g_hi = g(ℓ_j) on band j: 2M θ's, and each sequence
 * walked a band at a time (many steps per band), whatever T is. */
#define MC_BANDS 256

typedef struct {
    mpfr_prec_t p;
    mpfi_t em1, r;              /* e^ε − 1, D/σ */
    mpfr_t level[MC_BANDS + 1]; /* ℓ_0 > ℓ_1 > … > ℓ_M */
    mpfi_t g;                   /* g at the level last asked for */
    int g_at;                   /* its index, -1: none */
} mc_bands;

/* b->g ⊇ g(ℓ_j), computed once per band visited. */
static void mc_band_g(mc_bands *b, int j)
{
    if (b->g_at == j)
        return;
    mpfi_t l, et;
    mpfi_init2(l, b->p);
    mpfi_init2(et, b->p);
    mpfi_set_fr(l, b->level[j]);
    mpfi_neg(et, l);
    mpfi_exp(et, et);
    mpfi_mul(et, et, b->em1);
    mpfi_log1p(et, et); /* ε̃(ℓ_j) */
    ul_gauss_log_theta_enclose(b->g, et, b->r);
    b->g_at = j;
    mpfi_clear(l);
    mpfi_clear(et);
}

/* The lower sequence for T steps from *y (lower end of log δ_0), rounded
 * down.  A jump of k steps on band j needs every start point above
 * ℓ_{j+1}: k = ⌊(y − ℓ_{j+1})/|g_lo|⌋ (≥ 1, the first start is above it).
 * False (nothing shown) once y reaches ℓ_M, the claim's level. */
static bool mc_band_lower(mc_bands *b, unsigned long steps, mpfr_ptr y)
{
    mpfr_t a, k;
    mpfr_inits2(b->p, a, k, (mpfr_ptr)0);
    bool ok = true;
    int j = 0;
    for (unsigned long t = 0; t < steps && ok;) {
        while (j < MC_BANDS && !mpfr_greater_p(y, b->level[j + 1]))
            j++;
        if (j < MC_BANDS)
            mc_band_g(b, j + 1);
        ok = j < MC_BANDS && mpfr_number_p(&b->g->left) && mpfr_sgn(&b->g->left) < 0;
        if (!ok)
            break;
        mpfr_sub(a, y, b->level[j + 1], MPFR_RNDD);
        mpfr_neg(k, &b->g->left, MPFR_RNDU);
        mpfr_div(k, a, k, MPFR_RNDD);
        mpfr_floor(k, k);
        unsigned long n = mpfr_cmp_ui(k, 1) < 0 ? 1 : mpfr_get_ui(k, MPFR_RNDD);
        n = n > steps - t ? steps - t : n;
        mpfr_mul_ui(a, &b->g->left, n, MPFR_RNDD);
        mpfr_add(y, y, a, MPFR_RNDD);
        t += n;
    }
    mpfr_clears(a, k, (mpfr_ptr)0);
    return ok;
}

/* The upper sequence for T steps from *z (upper end of log δ_0), rounded
 * up; any jump length is valid (g_hi = g(ℓ_j) ≥ g below ℓ_j too), so k =
 * ⌈(z − ℓ_{j+1})/|g_hi|⌉ reaches the next band.  True when z reached ℓ_M
 * (δ_T ≤ δ_t ≤ e^{ℓ_M} ≤ the claim). */
static bool mc_band_upper(mc_bands *b, unsigned long steps, mpfr_ptr z)
{
    mpfr_t a, k;
    mpfr_inits2(b->p, a, k, (mpfr_ptr)0);
    int j = 0;
    bool below = false, stuck = false;
    for (unsigned long t = 0; t < steps && !below && !stuck;) {
        while (j < MC_BANDS && mpfr_lessequal_p(z, b->level[j + 1]))
            j++;
        below = j == MC_BANDS;
        mc_band_g(b, j < MC_BANDS ? j : MC_BANDS);
        stuck = !below && !(mpfr_number_p(&b->g->right) && mpfr_sgn(&b->g->right) < 0);
        if (below || stuck)
            break;
        mpfr_sub(a, z, b->level[j + 1], MPFR_RNDU);
        mpfr_neg(k, &b->g->right, MPFR_RNDD);
        mpfr_div(k, a, k, MPFR_RNDU);
        mpfr_ceil(k, k);
        unsigned long n = mpfr_cmp_ui(k, steps - t) >= 0 ? steps - t : mpfr_get_ui(k, MPFR_RNDU);
        n = n < 1 ? 1 : n;
        mpfr_mul_ui(a, &b->g->right, n, MPFR_RNDU);
        mpfr_add(z, z, a, MPFR_RNDU);
        t += n;
    }
    below = below || mpfr_lessequal_p(z, b->level[MC_BANDS]);
    mpfr_clears(a, k, (mpfr_ptr)0);
    return below;
}

static void mc_bands_init(mc_bands *b, mpfr_prec_t p)
{
    b->p = p;
    mpfi_init2(b->em1, p);
    mpfi_init2(b->r, p);
    mpfi_init2(b->g, p);
    for (int j = 0; j <= MC_BANDS; j++)
        mpfr_init2(b->level[j], p);
    b->g_at = -1;
}

static void mc_bands_clear(mc_bands *b)
{
    mpfi_clear(b->em1);
    mpfi_clear(b->r);
    mpfi_clear(b->g);
    for (int j = 0; j <= MC_BANDS; j++)
        mpfr_clear(b->level[j]);
}

/* The adaptive claim decided by the two sequences, the recursion not run:
 * UNSUPPORTED when the lower one ends above log δ_claim, SUPPORTED when the
 * upper one reaches it, INCONCLUSIVE otherwise; *bound (log form, at p
 * bits) is the deciding end.  One constant σ only. */
ul_kol_side ul_kol_mc_band_decide(const ul_kol_mc_problem *pb, const char *claim, mpfr_prec_t p,
                                  ul_num_value *bound)
{
    mc_bands b;
    mc_bands_init(&b, p);
    mpfi_t ld0, lc;
    mpfi_init2(ld0, p);
    mpfi_init2(lc, p);
    bool ok = pb->mode == UL_CONTRACTION_ADAPTIVE && mc_parts(pb, b.r, ld0) &&
              ul_num_set_decimal(b.em1, pb->eps) == UL_OK && ul_num_set_decimal(lc, claim) == UL_OK;
    if (ok) {
        mpfi_expm1(b.em1, b.em1);
        mpfi_log(lc, lc);
    }
    ok = ok && mpfr_number_p(&lc->left) && mpfr_number_p(&ld0->right) &&
         mpfr_less_p(&lc->left, &ld0->right);
    ul_kol_side v = UL_KOL_UNDECIDED;
    if (ok) {
        /* ℓ_j = ℓ_0 − expm1(j·U/M), U = log(1 + ℓ_0 − ℓ_M): narrow bands near
         * δ_0, where a slowly contracting recursion spends its steps, wider
         * ones deep down, where log δ_t falls fast.  Any decreasing points
         * serve (each band's factors are evaluated at its own ends). */
        mpfr_set(b.level[0], &ld0->right, MPFR_RNDU);
        mpfr_set(b.level[MC_BANDS], &lc->left, MPFR_RNDD);
        mpfr_t step, y;
        mpfr_inits2(p, step, y, (mpfr_ptr)0);
        mpfr_sub(step, b.level[0], b.level[MC_BANDS], MPFR_RNDN);
        mpfr_log1p(step, step, MPFR_RNDN);
        mpfr_div_ui(step, step, MC_BANDS, MPFR_RNDN);
        for (int j = 1; j < MC_BANDS; j++) {
            mpfr_mul_ui(y, step, (unsigned long)j, MPFR_RNDN);
            mpfr_expm1(y, y, MPFR_RNDN);
            mpfr_sub(b.level[j], b.level[0], y, MPFR_RNDN);
        }
        mpfr_set(y, &ld0->left, MPFR_RNDD);
        if (mc_band_lower(&b, pb->steps, y) && mpfr_greater_p(y, &lc->right)) {
            v = UL_KOL_ABOVE;
        } else {
            mpfr_set(y, &ld0->right, MPFR_RNDU);
            if (mc_band_upper(&b, pb->steps, y))
                v = UL_KOL_AT_MOST;
        }
        if (v != UL_KOL_UNDECIDED) {
            mpfi_set_prec(bound->enclosure, p);
            mpfi_set_fr(bound->enclosure, y);
            bound->is_log = true;
        }
        mpfr_clears(step, y, (mpfr_ptr)0);
    }
    mpfi_clear(ld0);
    mpfi_clear(lc);
    mc_bands_clear(&b);
    return v;
}

/* A certified lower bound on the least T with δ_T ≤ delta: each step
 * multiplies δ_t by at least θ* until then (mc_theta_star), hence
 * T ≥ log(δ/δ_0)/log θ*. */
bool ul_kol_mc_least_steps_lower_bound(const ul_kol_mc_problem *pb, const char *delta, double *lb)
{
    mpfi_t lt, ld0, ld;
    mpfi_init2(lt, 128);
    mpfi_init2(ld0, 128);
    mpfi_init2(ld, 128);
    bool ok = mc_theta_star(pb, delta, lt, ld0) && ul_num_set_decimal(ld, delta) == UL_OK;
    if (ok) {
        mpfi_log(ld, ld);
        mpfi_sub(ld, ld, ld0); /* log(δ/δ_0) */
        mpfi_div(ld, ld, lt);
        ok = mpfr_number_p(&ld->left);
        *lb = ok ? mpfr_get_d(&ld->left, MPFR_RNDD) : 0;
    }
    mpfi_clear(lt);
    mpfi_clear(ld0);
    mpfi_clear(ld);
    return ok;
}

/* Whether δ_T at the constant σ `text` is certified ≤ delta (want_safe) or
 * certified > delta (!want_safe). */
static bool mc_sigma_side(const ul_kol_mc_problem *pb, const char *text, const char *delta,
                          int digits, bool want_safe)
{
    ul_kol_mc_problem q = *pb;
    const char *one[1] = {text};
    q.sigma = one;
    q.n_sigma = 1;
    ul_num_value v;
    ul_num_value_init(&v, 64);
    char e2[256];
    bool ok = false;
    ul_num_precision w = {digits, 0, 0};
    ul_preconditions pre;
    ul_num_report nr;
    bool floor_reached = false;
    if (ul_kol_mc_delta_certified(&q, &w, &pre, &v, &floor_reached, &nr, e2, sizeof e2) == UL_OK) {
        ul_kol_side sd = value_side(&v, delta);
        ok = want_safe ? sd == UL_KOL_AT_MOST : sd == UL_KOL_ABOVE;
    }
    ul_num_value_clear(&v);
    return ok;
}

/* The smallest constant σ reaching the claim under the adaptive recursion:
 * bisection on log σ in doubles, then one certified recursion on each side
 * of the estimate (δ_T(hi) ≤ δ and δ_T(lo) > δ), widened up to three times.
 * [lo, hi] ⊇ σ* (δ_T is nonincreasing in σ).  False when not certified. */
bool ul_kol_mc_sigma_min_searched(const ul_kol_mc_problem *pb, const char *delta, mpfi_ptr out)
{
    double target = ul_kol_log_decimal_d(delta), lo = ul_kol_log_decimal_d(pb->sigma[0]), hi = lo;
    if (!isfinite(target) || !isfinite(lo))
        return false;
    for (int i = 0; i < 200 && ul_kol_mc_log_delta_d(pb, exp(hi), pb->steps) > target; i++)
        hi += 1;
    for (int i = 0; i < 200 && !(ul_kol_mc_log_delta_d(pb, exp(lo), pb->steps) > target); i++)
        lo -= 1;
    for (int i = 0; i < 60; i++) {
        double mid = 0.5 * (lo + hi);
        if (ul_kol_mc_log_delta_d(pb, exp(mid), pb->steps) > target)
            lo = mid;
        else
            hi = mid;
    }
    double s = exp(hi);
    for (double w = 1e-9; w < 1e-5; w *= 1e3) {
        char t_lo[40], t_hi[40];
        snprintf(t_lo, sizeof t_lo, "%.12e", s * (1 - w));
        snprintf(t_hi, sizeof t_hi, "%.12e", s * (1 + w));
        /* a relative step w in σ moves log δ_T by about 2·w·|log δ| (θ depends
         * on r = D/σ): the digits that see it, and whether doubles do */
        double need = ceil(-log10(2 * w * fabs(target)));
        if (!isfinite(need) || need > 1e6)
            return false;
        int digits = 3 + (int)need;
        if (ul_kol_mc_log_delta_d(pb, strtod(t_hi, NULL), pb->steps) > target ||
            !(ul_kol_mc_log_delta_d(pb, strtod(t_lo, NULL), pb->steps) > target) || digits > 60)
            continue;
        digits = digits < 20 ? 20 : digits;
        if (mc_sigma_side(pb, t_hi, delta, digits, true) &&
            mc_sigma_side(pb, t_lo, delta, digits, false)) {
            mpfr_set_str(&out->left, t_lo, 10, MPFR_RNDD);
            mpfr_set_str(&out->right, t_hi, 10, MPFR_RNDU);
            return true;
        }
    }
    return false;
}

/* The smallest constant σ reaching the claim in T steps. */
