/* tests/sweep_oracle_b.c — independent bounds for the boundary sweep; see
 * sweep_oracle_b.h.  Plain MPFR, round to nearest, no src/ function. */
#include "sweep_oracle_b.h"

#include <stdlib.h>

#include "oracle.h"

/* x ← the decimal text s at x's precision (the texts are the sweep's own,
 * always valid). */
static void set_dec(mpfr_ptr x, const char *s)
{
    if (mpfr_set_str(x, s, 10, MPFR_RNDN) != 0 && mpfr_nan_p(x))
        abort();
}

/* ---- minimisation over α = 1 + e^t ------------------------------------------------ */

/* Grid scan of step 1/20 over [t_lo, t_hi], then golden section on the two
 * grid cells around the best point: the bracket shrinks by 0.618 per step,
 * 400 steps take it to ~1e-84, so the minimum value is found to the working
 * precision (the error of f is quadratic in the error of t). */
void sob_minimise(mpfr_ptr out, sob_objective f, const void *ctx, double t_lo, double t_hi,
                  mpfr_ptr t_best)
{
    mpfr_prec_t p = mpfr_get_prec(out) + 32;
    mpfr_t t, v, best, a, b, c, d, fc, fd, phi;
    mpfr_inits2(p, t, v, best, a, b, c, d, fc, fd, phi, (mpfr_ptr)0);
    const double step = 0.05;
    double tb = t_lo;
    mpfr_set_inf(best, 1);
    for (double x = t_lo; x <= t_hi; x += step) {
        mpfr_set_d(t, x, MPFR_RNDN);
        f(v, t, ctx);
        if (mpfr_less_p(v, best))
            mpfr_set(best, v, MPFR_RNDN), tb = x;
    }
    mpfr_sqrt_ui(phi, 5, MPFR_RNDN); /* φ = (√5 − 1)/2 */
    mpfr_sub_ui(phi, phi, 1, MPFR_RNDN);
    mpfr_div_2ui(phi, phi, 1, MPFR_RNDN);
    mpfr_set_d(a, tb - step, MPFR_RNDN);
    mpfr_set_d(b, tb + step, MPFR_RNDN);
    mpfr_sub(t, b, a, MPFR_RNDN);
    mpfr_mul(t, t, phi, MPFR_RNDN);
    mpfr_sub(c, b, t, MPFR_RNDN);
    mpfr_add(d, a, t, MPFR_RNDN);
    f(fc, c, ctx);
    f(fd, d, ctx);
    for (int i = 0; i < 400; i++) {
        if (mpfr_less_p(fc, fd)) {
            mpfr_set(b, d, MPFR_RNDN), mpfr_set(d, c, MPFR_RNDN), mpfr_set(fd, fc, MPFR_RNDN);
            mpfr_sub(t, b, a, MPFR_RNDN);
            mpfr_mul(t, t, phi, MPFR_RNDN);
            mpfr_sub(c, b, t, MPFR_RNDN);
            f(fc, c, ctx);
        } else {
            mpfr_set(a, c, MPFR_RNDN), mpfr_set(c, d, MPFR_RNDN), mpfr_set(fc, fd, MPFR_RNDN);
            mpfr_sub(t, b, a, MPFR_RNDN);
            mpfr_mul(t, t, phi, MPFR_RNDN);
            mpfr_add(d, a, t, MPFR_RNDN);
            f(fd, d, ctx);
        }
    }
    bool left = mpfr_less_p(fc, fd);
    mpfr_set(out, left ? fc : fd, MPFR_RNDN);
    if (t_best != NULL)
        mpfr_set(t_best, left ? c : d, MPFR_RNDN);
    mpfr_clears(t, v, best, a, b, c, d, fc, fd, phi, (mpfr_ptr)0);
}

/* ---- Langevin ------------------------------------------------------------------------ */

/* The stationary constant C1s of Thm 3.3's LSI recursion (docs/langevin.md,
 * "Learning privacy", corrected cap of Errata L3):
 *   C_{t,1} = min(g·C_t + h, C̄),  C_{t+1} = min(C_{t,1} + h, C̃),  h = ησ².
 * The map C_t ↦ C_{t+1} is non-decreasing and C_{t+1} ≥ min(C_t + 2h, C̄ + h,
 * C̃), so from any C0 it reaches Cs = min(C̃, C̄ + h) in finitely many steps
 * and stays there (C̃ ≤ C̄ + h: C_{t,1} + h ≥ C̃ at C = C̃; otherwise C_{t,1} = C̄
 * from the step where g·C_t + h ≥ C̄ on).  Hence C1s = min(g·C* + h, C̄). */
static void lg_c1_star(mpfr_ptr c1, mpfr_srcptr g, mpfr_srcptr h, mpfr_srcptr cbar,
                       mpfr_srcptr ctil)
{
    mpfr_t cs;
    mpfr_init2(cs, mpfr_get_prec(c1));
    mpfr_add(cs, cbar, h, MPFR_RNDN);
    mpfr_min(cs, cs, ctil, MPFR_RNDN);
    mpfr_mul(c1, g, cs, MPFR_RNDN);
    mpfr_add(c1, c1, h, MPFR_RNDN);
    mpfr_min(c1, c1, cbar, MPFR_RNDN);
    mpfr_clear(cs);
}

/* Lemma F.2 (39) with support radius r = R + ηM and variance v:
 *   6·(4r² + v)·exp(4r²/v)   (v = ησ²: C̄ (46); v = 2ησ²: C̃ (40), (47)). */
static void lg_cap(mpfr_ptr out, mpfr_srcptr r, mpfr_srcptr v)
{
    mpfr_t r4, e;
    mpfr_inits2(mpfr_get_prec(out), r4, e, (mpfr_ptr)0);
    mpfr_sqr(r4, r, MPFR_RNDN);
    mpfr_mul_2ui(r4, r4, 2, MPFR_RNDN);
    mpfr_div(e, r4, v, MPFR_RNDN);
    mpfr_exp(e, e, MPFR_RNDN);
    mpfr_add(out, r4, v, MPFR_RNDN);
    mpfr_mul_ui(out, out, 6, MPFR_RNDN);
    mpfr_mul(out, out, e, MPFR_RNDN);
    mpfr_clears(r4, e, (mpfr_ptr)0);
}

/* The inputs of one Langevin problem at precision w, and for the convex /
 * non-convex cases the constants of the LSI recursions: h = ησ² (the
 * variance of a learning half-step, eq. (43)), g = (1+ηL)² (non-convex) or
 * 1, the caps C̄, C̃, and coef = 2ηS²M²/(σ²n²) (Thm 3.3 (51)). */
typedef struct {
    mpfr_t n, L, M, m, eta, sigma, h, h2, g, cbar, ctil, coef;
} lg_setup;

static void lg_setup_init(lg_setup *z, const sob_langevin *p, mpfr_prec_t w)
{
    mpfr_inits2(w, z->n, z->L, z->M, z->m, z->eta, z->sigma, z->h, z->h2, z->g, z->cbar, z->ctil,
                z->coef, (mpfr_ptr)0);
    set_dec(z->n, p->n);
    set_dec(z->L, p->L);
    set_dec(z->M, p->M);
    set_dec(z->sigma, p->sigma);
    if (p->m != NULL)
        set_dec(z->m, p->m);
    if (p->eta != NULL)
        set_dec(z->eta, p->eta);
    else
        mpfr_ui_div(z->eta, 1, z->L, MPFR_RNDN); /* the paper's η = 1/L */
    if (p->kind == SOB_LG_STRONGLY_CONVEX)
        return;
    mpfr_sqr(z->h, z->sigma, MPFR_RNDN);
    mpfr_mul(z->h, z->h, z->eta, MPFR_RNDN);
    mpfr_mul_2ui(z->h2, z->h, 1, MPFR_RNDN);
    mpfr_t r;
    mpfr_init2(r, w);
    set_dec(r, p->R);
    mpfr_fma(r, z->eta, z->M, r, MPFR_RNDN); /* R + ηM */
    lg_cap(z->cbar, r, z->h);
    lg_cap(z->ctil, r, z->h2);
    mpfr_clear(r);
    mpfr_set_ui(z->g, 1, MPFR_RNDN);
    if (p->kind == SOB_LG_NONCONVEX) {
        mpfr_fma(z->g, z->eta, z->L, z->g, MPFR_RNDN);
        mpfr_sqr(z->g, z->g, MPFR_RNDN);
    }
    mpfr_mul_ui(z->coef, z->M, p->S, MPFR_RNDN);
    mpfr_div(z->coef, z->coef, z->sigma, MPFR_RNDN);
    mpfr_div(z->coef, z->coef, z->n, MPFR_RNDN);
    mpfr_sqr(z->coef, z->coef, MPFR_RNDN);
    mpfr_mul(z->coef, z->coef, z->eta, MPFR_RNDN);
    mpfr_mul_2ui(z->coef, z->coef, 1, MPFR_RNDN);
}

static void lg_setup_clear(lg_setup *z)
{
    mpfr_clears(z->n, z->L, z->M, z->m, z->eta, z->sigma, z->h, z->h2, z->g, z->cbar, z->ctil,
                z->coef, (mpfr_ptr)0);
}

/* E and Λ_K of the convex / non-convex cases, T → ∞:
 *   Thm 3.3 (51) with the recursion (50) iterated: ε0/α = coef·a_T,
 *   a_{t+1} = (a_t + 1)·q_t, q_t = (1 + h/C_{t,1})^{-1} (docs/langevin.md, Errata L2); as
 *   T → ∞ every late q_t is qs = (1 + h/C1s)^{-1}, so a_T → qs/(1 − qs) = C1s/h;
 *   Thm 3.2 cases 1–2 with the corrected rates (docs/langevin.md, Errata L1):
 *   Λ_K = Σ_{k<K} log(1 + 2h/A_k), A_k = g·C_k, C_0 = C_LSI,
 *   C_{k+1} = min(A_k + 2h, C̃). */
static void lg_general(mpfr_ptr E, mpfr_ptr lam, const sob_langevin *p, const lg_setup *z)
{
    mpfr_t c1, C, A, t;
    mpfr_inits2(mpfr_get_prec(E), c1, C, A, t, (mpfr_ptr)0);
    lg_c1_star(c1, z->g, z->h, z->cbar, z->ctil);
    mpfr_mul(t, z->coef, c1, MPFR_RNDN);
    mpfr_div(E, t, z->h, MPFR_RNDN);
    set_dec(C, p->C_lsi);
    mpfr_set_zero(lam, 1);
    for (unsigned long k = 0; k < p->K; k++) {
        mpfr_mul(A, z->g, C, MPFR_RNDN);
        mpfr_div(t, z->h2, A, MPFR_RNDN);
        mpfr_log1p(t, t, MPFR_RNDN);
        mpfr_add(lam, lam, t, MPFR_RNDN);
        mpfr_add(C, A, z->h2, MPFR_RNDN);
        mpfr_min(C, C, z->ctil, MPFR_RNDN);
    }
    mpfr_clears(c1, C, A, t, (mpfr_ptr)0);
}

void sob_langevin_consts(mpfr_ptr E, mpfr_ptr lam, const sob_langevin *p)
{
    lg_setup z;
    lg_setup_init(&z, p, mpfr_get_prec(E));
    if (p->kind == SOB_LG_STRONGLY_CONVEX) {
        /* Thm 3.3 (3), T → ∞ (Algorithm 8): ε0/α = 4S²M²/(mσ²n²);
         * Thm 3.2 case 3 with C_LSI = 2σ²/m (App. D): R = 2σ²η/C_LSI = mη. */
        mpfr_mul_ui(E, z.M, p->S, MPFR_RNDN);
        mpfr_div(E, E, z.sigma, MPFR_RNDN);
        mpfr_div(E, E, z.n, MPFR_RNDN);
        mpfr_sqr(E, E, MPFR_RNDN);
        mpfr_mul_2ui(E, E, 2, MPFR_RNDN);
        mpfr_div(E, E, z.m, MPFR_RNDN);
        mpfr_mul(lam, z.m, z.eta, MPFR_RNDN);
        mpfr_mul_ui(lam, lam, p->K, MPFR_RNDN);
    } else {
        lg_general(E, lam, p, &z);
    }
    lg_setup_clear(&z);
}

/* Thm 3.3 for a finite T, the recursion walked step by step (for checking
 * the T → ∞ closed form): C_{t,1} = min(g·C_t + h, C̄), a ← (a + 1)/(1 +
 * h/C_{t,1}), C_{t+1} = min(C_{t,1} + h, C̃), from C_0 = C0, a_0 = 0. */
void sob_langevin_eps0_walk(mpfr_ptr E, const sob_langevin *p, const char *C0, unsigned long T)
{
    lg_setup z;
    lg_setup_init(&z, p, mpfr_get_prec(E));
    mpfr_t C, C1, a, q;
    mpfr_inits2(mpfr_get_prec(E), C, C1, a, q, (mpfr_ptr)0);
    set_dec(C, C0);
    mpfr_set_zero(a, 1);
    for (unsigned long t = 0; t < T; t++) {
        mpfr_mul(C1, z.g, C, MPFR_RNDN);
        mpfr_add(C1, C1, z.h, MPFR_RNDN);
        mpfr_min(C1, C1, z.cbar, MPFR_RNDN);
        mpfr_div(q, z.h, C1, MPFR_RNDN);
        mpfr_add_ui(q, q, 1, MPFR_RNDN);
        mpfr_add_ui(a, a, 1, MPFR_RNDN);
        mpfr_div(a, a, q, MPFR_RNDN);
        mpfr_add(C, C1, z.h, MPFR_RNDN);
        mpfr_min(C, C, z.ctil, MPFR_RNDN);
    }
    mpfr_mul(E, z.coef, a, MPFR_RNDN);
    mpfr_clears(C, C1, a, q, (mpfr_ptr)0);
    lg_setup_clear(&z);
}

typedef struct {
    mpfr_srcptr E, lam, B;
} lg_obj_ctx;

/* f(t) = α·E·exp(−Λ/α) + B/(α − 1), α = 1 + e^t (Prop L.2 (80)). */
static void lg_objective(mpfr_ptr out, mpfr_srcptr t, const void *vctx)
{
    const lg_obj_ctx *c = vctx;
    mpfr_prec_t w = mpfr_get_prec(out) + 16;
    mpfr_t u, a, x;
    mpfr_inits2(w, u, a, x, (mpfr_ptr)0);
    mpfr_exp(u, t, MPFR_RNDN);
    mpfr_add_ui(a, u, 1, MPFR_RNDN);
    mpfr_div(x, c->lam, a, MPFR_RNDN);
    mpfr_neg(x, x, MPFR_RNDN);
    mpfr_exp(x, x, MPFR_RNDN);
    mpfr_mul(x, x, a, MPFR_RNDN);
    mpfr_mul(x, x, c->E, MPFR_RNDN);
    mpfr_div(u, c->B, u, MPFR_RNDN);
    mpfr_add(out, x, u, MPFR_RNDN);
    mpfr_clears(u, a, x, (mpfr_ptr)0);
}

void sob_langevin_eps(mpfr_ptr out, const sob_langevin *p)
{
    mpfr_t E, lam, B;
    mpfr_inits2(SOB_BITS, E, lam, B, (mpfr_ptr)0);
    sob_langevin_consts(E, lam, p);
    set_dec(B, p->delta);
    mpfr_log(B, B, MPFR_RNDN);
    mpfr_neg(B, B, MPFR_RNDN);
    lg_obj_ctx c = {E, lam, B};
    sob_minimise(out, lg_objective, &c, -40, 40, NULL);
    mpfr_clears(E, lam, B, (mpfr_ptr)0);
}

/* Thm 3.2 with Thm 3.3 at one order: ε_RU(α) = α·E·exp(−Λ_K/α). */
void sob_langevin_renyi(mpfr_ptr out, const sob_langevin *p, const char *alpha)
{
    mpfr_t E, lam, a;
    mpfr_inits2(SOB_BITS, E, lam, a, (mpfr_ptr)0);
    sob_langevin_consts(E, lam, p);
    set_dec(a, alpha);
    mpfr_div(lam, lam, a, MPFR_RNDN);
    mpfr_neg(lam, lam, MPFR_RNDN);
    mpfr_exp(lam, lam, MPFR_RNDN);
    mpfr_mul(lam, lam, a, MPFR_RNDN);
    mpfr_mul(out, lam, E, MPFR_RNDN);
    mpfr_clears(E, lam, a, (mpfr_ptr)0);
}

/* ---- Descent-to-Delete ------------------------------------------------------------- */

/* c = k·M·γ^I/(m·n·(1 − γ^I)), γ = (L − m)/(L + m), k = 4√2 (86) or 8 (88). */
static void d2d_coef(mpfr_ptr c, const sob_d2d *p)
{
    mpfr_prec_t w = mpfr_get_prec(c);
    mpfr_t L, m, M, n, g, t;
    mpfr_inits2(w, L, m, M, n, g, t, (mpfr_ptr)0);
    set_dec(L, p->L);
    set_dec(m, p->m);
    set_dec(M, p->M);
    set_dec(n, p->n);
    mpfr_sub(g, L, m, MPFR_RNDN);
    mpfr_add(t, L, m, MPFR_RNDN);
    mpfr_div(g, g, t, MPFR_RNDN);
    mpfr_pow_ui(g, g, p->I, MPFR_RNDN); /* γ^I */
    mpfr_ui_sub(t, 1, g, MPFR_RNDN);
    mpfr_div(c, g, t, MPFR_RNDN);
    mpfr_mul(c, c, M, MPFR_RNDN);
    mpfr_div(c, c, m, MPFR_RNDN);
    mpfr_div(c, c, n, MPFR_RNDN);
    if (p->m2) {
        mpfr_mul_ui(c, c, 8, MPFR_RNDN);
    } else {
        mpfr_sqrt_ui(t, 32, MPFR_RNDN);
        mpfr_mul(c, c, t, MPFR_RNDN);
    }
    mpfr_clears(L, m, M, n, g, t, (mpfr_ptr)0);
}

/* a = log(1/δ) (M.1) or 2·log(2/δ) (M.2). */
static void d2d_log_term(mpfr_ptr a, const sob_d2d *p)
{
    set_dec(a, p->delta);
    if (p->m2) {
        mpfr_div_2ui(a, a, 1, MPFR_RNDN);
        mpfr_log(a, a, MPFR_RNDN);
        mpfr_mul_si(a, a, -2, MPFR_RNDN);
    } else {
        mpfr_log(a, a, MPFR_RNDN);
        mpfr_neg(a, a, MPFR_RNDN);
    }
}

/* (86): σ = c/(√(a + ε) − √a);  (88): σ = c/(√(a + 3ε) − √(a + 2ε)). */
void sob_d2d_sigma(mpfr_ptr out, const sob_d2d *p, mpfr_srcptr eps)
{
    mpfr_prec_t w = mpfr_get_prec(out) + 32;
    mpfr_t c, a, x, y;
    mpfr_inits2(w, c, a, x, y, (mpfr_ptr)0);
    d2d_coef(c, p);
    d2d_log_term(a, p);
    mpfr_mul_ui(x, eps, p->m2 ? 3 : 1, MPFR_RNDN);
    mpfr_add(x, x, a, MPFR_RNDN);
    mpfr_sqrt(x, x, MPFR_RNDN);
    mpfr_mul_ui(y, eps, p->m2 ? 2 : 0, MPFR_RNDN);
    mpfr_add(y, y, a, MPFR_RNDN);
    mpfr_sqrt(y, y, MPFR_RNDN);
    mpfr_sub(x, x, y, MPFR_RNDN);
    mpfr_div(out, c, x, MPFR_RNDN);
    mpfr_clears(c, a, x, y, (mpfr_ptr)0);
}

/* With D = c/σ the equation for ε is
 *   M.1: √(a + ε) − √a = D          ⇒ ε = D² + 2D√a;
 *   M.2: v − u = D, v = √(a + 3ε), u = √(a + 2ε), so v + u = ε/D and
 *        v = (ε/D + D)/2; v² = a + 3ε gives ε² − 10D²ε + D⁴ − 4aD² = 0, whose
 *        root with u = (ε/D − D)/2 ≥ 0 is ε = 5D² + D·√(24D² + 4a). */
void sob_d2d_eps(mpfr_ptr out, const sob_d2d *p, const char *sigma)
{
    mpfr_prec_t w = mpfr_get_prec(out) + 32;
    mpfr_t D, a, s, t;
    mpfr_inits2(w, D, a, s, t, (mpfr_ptr)0);
    d2d_coef(D, p);
    set_dec(s, sigma);
    mpfr_div(D, D, s, MPFR_RNDN);
    d2d_log_term(a, p);
    if (p->m2) {
        mpfr_sqr(t, D, MPFR_RNDN);
        mpfr_mul_ui(s, t, 24, MPFR_RNDN);
        mpfr_mul_2ui(a, a, 2, MPFR_RNDN);
        mpfr_add(s, s, a, MPFR_RNDN);
        mpfr_sqrt(s, s, MPFR_RNDN);
        mpfr_mul(s, s, D, MPFR_RNDN);
        mpfr_mul_ui(t, t, 5, MPFR_RNDN);
        mpfr_add(out, t, s, MPFR_RNDN);
    } else {
        mpfr_sqrt(s, a, MPFR_RNDN);
        mpfr_mul_2ui(s, s, 1, MPFR_RNDN);
        mpfr_add(s, s, D, MPFR_RNDN);
        mpfr_mul(out, s, D, MPFR_RNDN);
    }
    mpfr_clears(D, a, s, t, (mpfr_ptr)0);
}

/* (87): I ≥ log( √(2d)/((1 − γ)(√(a + ε) − √a)) ) / log(1/γ), a = 2·log(2/δ). */
unsigned long sob_d2d_m2_least_I(const sob_d2d *p, mpfr_srcptr eps)
{
    mpfr_t L, m, g, a, x, y;
    mpfr_inits2(SOB_BITS, L, m, g, a, x, y, (mpfr_ptr)0);
    set_dec(L, p->L);
    set_dec(m, p->m);
    mpfr_sub(g, L, m, MPFR_RNDN);
    mpfr_add(x, L, m, MPFR_RNDN);
    mpfr_div(g, g, x, MPFR_RNDN);
    sob_d2d m2 = *p;
    m2.m2 = true;
    d2d_log_term(a, &m2);
    mpfr_add(x, a, eps, MPFR_RNDN);
    mpfr_sqrt(x, x, MPFR_RNDN);
    mpfr_sqrt(y, a, MPFR_RNDN);
    mpfr_sub(x, x, y, MPFR_RNDN);
    mpfr_ui_sub(y, 1, g, MPFR_RNDN);
    mpfr_mul(x, x, y, MPFR_RNDN);
    set_dec(y, p->d);
    mpfr_mul_2ui(y, y, 1, MPFR_RNDN);
    mpfr_sqrt(y, y, MPFR_RNDN);
    mpfr_div(x, y, x, MPFR_RNDN);
    mpfr_log(x, x, MPFR_RNDN);
    mpfr_log(y, g, MPFR_RNDN);
    mpfr_neg(y, y, MPFR_RNDN);
    mpfr_div(x, x, y, MPFR_RNDN);
    mpfr_ceil(x, x);
    unsigned long I = mpfr_sgn(x) > 0 ? mpfr_get_ui(x, MPFR_RNDN) : 1;
    mpfr_clears(L, m, g, a, x, y, (mpfr_ptr)0);
    return I;
}

/* ---- model clipping ------------------------------------------------------------------ */

/* log θ_{e^ε}(num/den) by tests/oracle.c. */
static void log_theta_ratio(mpfr_ptr out, mpfr_srcptr eps, mpfr_srcptr num, const char *den)
{
    mpfr_t r;
    mpfr_init2(r, ORACLE_BITS);
    set_dec(r, den);
    mpfr_div(r, num, r, MPFR_RNDN);
    oracle_log_theta(out, eps, r);
    mpfr_clear(r);
}

/* docs/neural-unlearning.md, "Model clipping": δ0 = θ_{e^ε}(D0/σ0) (D0 = 2·C0, or 2·C0·√dim for
 * the box) or 1;  product:  δ_T = δ0·Π_t θ_{e^ε}(D/σ_t);  adaptive:
 * δ_{t+1} = δ_t·θ_{e^{ε̃_t}}(D/σ_{t+1}), ε̃_t = log(1 + (e^ε − 1)/δ_t),
 * computed as −log δ_t + log(e^{log δ_t} + expm1(ε)); D = 2·C2 (cc1) or
 * 2·(C2 + lr·C1) (cc2). */
void sob_mc_log_delta(mpfr_ptr out, const sob_mc *p)
{
    mpfr_t eps, D, x, ld, et, lt, em1;
    mpfr_inits2(ORACLE_BITS, eps, D, x, ld, et, lt, em1, (mpfr_ptr)0);
    set_dec(eps, p->eps);
    mpfr_set_zero(ld, 1);
    if (p->sigma0 != NULL) {
        set_dec(D, p->c0);
        mpfr_mul_2ui(D, D, 1, MPFR_RNDN);
        if (p->box) {
            mpfr_sqrt_ui(x, p->dim, MPFR_RNDN);
            mpfr_mul(D, D, x, MPFR_RNDN);
        }
        log_theta_ratio(ld, eps, D, p->sigma0);
    }
    set_dec(D, p->c2);
    if (p->cc2) {
        set_dec(x, p->c1);
        set_dec(et, p->lr);
        mpfr_fma(D, x, et, D, MPFR_RNDN);
    }
    mpfr_mul_2ui(D, D, 1, MPFR_RNDN);
    mpfr_expm1(em1, eps, MPFR_RNDN);
    if (!p->adaptive && p->n_sigma == 1) { /* T equal factors */
        log_theta_ratio(lt, eps, D, p->sigma[0]);
        mpfr_mul_ui(lt, lt, p->steps, MPFR_RNDN);
        mpfr_add(out, ld, lt, MPFR_RNDN);
        mpfr_clears(eps, D, x, ld, et, lt, em1, (mpfr_ptr)0);
        return;
    }
    for (unsigned long t = 0; t < p->steps; t++) {
        const char *s = p->sigma[p->n_sigma > 1 ? t : 0];
        if (p->adaptive) {
            mpfr_exp(x, ld, MPFR_RNDN);
            mpfr_add(x, x, em1, MPFR_RNDN);
            mpfr_log(x, x, MPFR_RNDN);
            mpfr_sub(et, x, ld, MPFR_RNDN);
        } else {
            mpfr_set(et, eps, MPFR_RNDN);
        }
        log_theta_ratio(lt, et, D, s);
        mpfr_add(ld, ld, lt, MPFR_RNDN);
    }
    mpfr_set(out, ld, MPFR_RNDN);
    mpfr_clears(eps, D, x, ld, et, lt, em1, (mpfr_ptr)0);
}

/* ---- gradient clipping (PABI) -------------------------------------------------------- */

void sob_pabi_rho(mpfr_ptr out, const sob_pabi *p)
{
    mpfr_prec_t w = mpfr_get_prec(out) + 32;
    mpfr_t rho, s, D0, B, W, pw, x;
    mpfr_inits2(w, rho, s, D0, B, W, pw, x, (mpfr_ptr)0);
    set_dec(rho, p->lr);
    set_dec(x, p->lambda);
    mpfr_mul(rho, rho, x, MPFR_RNDN);
    mpfr_ui_sub(rho, 1, rho, MPFR_RNDN); /* ρ = 1 − lr·λ */
    set_dec(s, p->lr);
    set_dec(x, p->c1);
    mpfr_mul(s, s, x, MPFR_RNDN);
    mpfr_mul_2ui(s, s, 1, MPFR_RNDN); /* s = 2·lr·C1 */
    set_dec(D0, p->c0);
    mpfr_mul_2ui(D0, D0, 1, MPFR_RNDN);
    if (p->box) {
        mpfr_sqrt_ui(x, p->dim, MPFR_RNDN);
        mpfr_mul(D0, D0, x, MPFR_RNDN);
    }
    /* sums over j = T−1−t = 0..T−1 of ρ^j·s and ρ^{2j} */
    mpfr_set_zero(B, 1);
    mpfr_set_zero(W, 1);
    mpfr_set_ui(pw, 1, MPFR_RNDN);
    for (unsigned long j = 0; j < p->steps; j++) {
        mpfr_fma(B, pw, s, B, MPFR_RNDN);
        mpfr_sqr(x, pw, MPFR_RNDN);
        mpfr_add(W, W, x, MPFR_RNDN);
        mpfr_mul(pw, pw, rho, MPFR_RNDN);
    }
    mpfr_fma(B, pw, D0, B, MPFR_RNDN); /* pw = ρ^T */
    set_dec(x, p->sigma);
    mpfr_sqr(x, x, MPFR_RNDN);
    mpfr_mul(W, W, x, MPFR_RNDN);
    mpfr_sqr(B, B, MPFR_RNDN);
    mpfr_div(B, B, W, MPFR_RNDN);
    mpfr_div_2ui(out, B, 1, MPFR_RNDN);
    mpfr_clears(rho, s, D0, B, W, pw, x, (mpfr_ptr)0);
}

typedef struct {
    mpfr_srcptr rho, ldelta;
    bool bbghs;
} rdp_obj_ctx;

/* α·ρ + log(1 − 1/α) − (log δ + log α)/(α − 1) (bbghs) or α·ρ − log δ/(α − 1),
 * α = 1 + e^t. */
static void rdp_objective(mpfr_ptr out, mpfr_srcptr t, const void *vctx)
{
    const rdp_obj_ctx *c = vctx;
    mpfr_prec_t w = mpfr_get_prec(out) + 16;
    mpfr_t u, a, x, y;
    mpfr_inits2(w, u, a, x, y, (mpfr_ptr)0);
    mpfr_exp(u, t, MPFR_RNDN);
    mpfr_add_ui(a, u, 1, MPFR_RNDN);
    mpfr_mul(x, a, c->rho, MPFR_RNDN);
    mpfr_set(y, c->ldelta, MPFR_RNDN);
    if (c->bbghs) {
        mpfr_div(out, u, a, MPFR_RNDN); /* log(1 − 1/α) = log(u/α) */
        mpfr_log(out, out, MPFR_RNDN);
        mpfr_add(x, x, out, MPFR_RNDN);
        mpfr_log(out, a, MPFR_RNDN);
        mpfr_add(y, y, out, MPFR_RNDN);
    }
    mpfr_div(y, y, u, MPFR_RNDN);
    mpfr_sub(out, x, y, MPFR_RNDN);
    mpfr_clears(u, a, x, y, (mpfr_ptr)0);
}

void sob_rdp_linear_eps(mpfr_ptr out, mpfr_srcptr rho, const char *delta, bool bbghs)
{
    mpfr_t ld;
    mpfr_init2(ld, SOB_BITS);
    set_dec(ld, delta);
    mpfr_log(ld, ld, MPFR_RNDN);
    rdp_obj_ctx c = {rho, ld, bbghs};
    sob_minimise(out, rdp_objective, &c, -40, 40, NULL);
    mpfr_clear(ld);
}
