/* src/bounds/koloskova_pabi.c — gradient clipping, PABI
 * (bounds/koloskova_pabi.h): the Rényi bound of a shift allocation (the
 * closed form, or one searched and certified), its exact form, its (ε, δ)
 * conversion and the public code's recipes, certified. */
#include "bounds/koloskova_pabi.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/bounds_util.h"
#include "bounds/gaussian.h"
#include "num/deadline.h"
#include "num/input.h"

/* ==== gradient clipping: PABI ================================================= */

/* The problem in exact rationals.  per_step: σ_t varies with t (a list of T
 * values, or the code's decreasing schedule with λ > 0); otherwise one σ. */
typedef struct {
    const ul_kol_pabi_problem *pb;
    mpq_t c0, c1, lr, lambda, eps_renyi;
    mpq_t lrl, rho, two_c1_over_lambda; /* lr·λ, 1 − lr·λ, 2·C1/λ (λ > 0) */
    mpq_t *sigma;
    size_t n_sigma;
    bool lambda_zero, per_step, code;
    double *z;               /* the searched shifts z_0..z_T, or NULL: the closed form */
    ul_kol_pabi_alloc alloc; /* which allocation, and why */
} pabi_exact;

static void pabi_exact_init(pabi_exact *x, const ul_kol_pabi_problem *pb)
{
    x->pb = pb;
    mpq_inits(x->c0, x->c1, x->lr, x->lambda, x->eps_renyi, x->lrl, x->rho, x->two_c1_over_lambda,
              NULL);
    x->sigma = NULL;
    x->n_sigma = 0;
    x->lambda_zero = x->per_step = x->code = false;
    x->z = NULL;
    memset(&x->alloc, 0, sizeof x->alloc);
}

static void pabi_exact_clear(pabi_exact *x)
{
    mpq_clears(x->c0, x->c1, x->lr, x->lambda, x->eps_renyi, x->lrl, x->rho, x->two_c1_over_lambda,
               NULL);
    for (size_t i = 0; i < x->n_sigma; i++)
        mpq_clear(x->sigma[i]);
    free(x->sigma);
    free(x->z);
}

/* Input errors, then the preconditions (into b, not finished: the caller may
 * add pabi_shifts_feasible).  with_lr_constant: include lr_schedule_constant. */
static ul_status pabi_read(const ul_kol_pabi_problem *pb, bool with_lr_constant,
                           ul_kol_pre_builder *b, pabi_exact *x, char *err, size_t errlen)
{
    ul_num_init();
    if (pb->init != UL_KOL_INIT_BALL && pb->init != UL_KOL_INIT_BOX)
        return ul_fail(err, errlen, UL_EINPUT, "init: must be the ball (clip) or the box (clamp)");
    if (pb->noise != UL_KOL_PABI_GIVEN && pb->noise != UL_KOL_PABI_CODE_CONSTANT &&
        pb->noise != UL_KOL_PABI_CODE_DECREASING)
        return ul_fail(err, errlen, UL_EINPUT, "noise: must be given, constant or decreasing");
    if (pb->variant != UL_VARIANT_CORRECTED && pb->variant != UL_VARIANT_PRINTED)
        return ul_fail(err, errlen, UL_EINPUT, "variant: must be printed or corrected");
    if (pb->steps > UL_CONTRACTION_MAX_STEPS)
        return ul_fail(err, errlen, UL_EINPUT, "steps: must be at most %lu (got %lu)",
                       UL_CONTRACTION_MAX_STEPS, pb->steps);
    x->code = pb->noise != UL_KOL_PABI_GIVEN;
    ul_status st = ul_kol_read_param(x->c0, "c0", pb->c0, err, errlen);
    if (st == UL_OK)
        st = ul_kol_read_param(x->c1, "c1", pb->c1, err, errlen);
    if (st == UL_OK)
        st = ul_kol_read_param(x->lr, "lr", pb->lr, err, errlen);
    if (st == UL_OK)
        st = ul_kol_read_param(x->lambda, "lambda", pb->lambda, err, errlen);
    if (st == UL_OK && x->code)
        st = ul_kol_read_param(x->eps_renyi, "eps-renyi", pb->eps_renyi, err, errlen);
    if (st == UL_OK && !x->code)
        st = ul_kol_read_sigma_list(&x->sigma, &x->n_sigma, pb->sigma, pb->n_sigma, pb->steps, err,
                                    errlen);
    if (st != UL_OK)
        return st;
    x->lambda_zero = mpq_sgn(x->lambda) == 0;
    x->per_step = (!x->code && x->n_sigma > 1) ||
                  (pb->noise == UL_KOL_PABI_CODE_DECREASING && !x->lambda_zero);
    if (x->per_step && pb->steps > UL_KOL_PABI_MAX_LOOP_STEPS)
        return ul_fail(err, errlen, UL_EINPUT,
                       "steps: at most %lu with a per-step noise schedule (got %lu)",
                       UL_KOL_PABI_MAX_LOOP_STEPS, pb->steps);

    /* The preconditions of the PABI bound (docs/neural-unlearning.md, "Gradient clipping"). */
    mpq_mul(x->lrl, x->lr, x->lambda);
    mpq_set_ui(x->rho, 1, 1);
    mpq_sub(x->rho, x->rho, x->lrl);
    ul_kol_pre_put(b, &ul_kol_pre_c0, ul_kol_holds_if(mpq_sgn(x->c0) > 0), pb->c0);
    ul_kol_pre_put(b, &ul_kol_pre_c1, ul_kol_holds_if(mpq_sgn(x->c1) > 0), pb->c1);
    ul_kol_pre_put(b, &ul_kol_pre_lr, ul_kol_holds_if(mpq_sgn(x->lr) > 0), pb->lr);
    ul_kol_pre_put(b, &ul_kol_pre_lambda, ul_kol_holds_if(mpq_sgn(x->lambda) >= 0), pb->lambda);
    ul_kol_pre_put(b, &ul_kol_pre_lr_lambda, ul_kol_holds_if(mpq_sgn(x->rho) > 0), pb->lambda);
    if (x->code) {
        ul_kol_pre_put(b, &ul_kol_pre_eps_renyi, ul_kol_holds_if(mpq_sgn(x->eps_renyi) > 0),
                       pb->eps_renyi);
    } else {
        size_t bad = 0;
        while (bad < x->n_sigma && mpq_sgn(x->sigma[bad]) > 0)
            bad++;
        ul_kol_pre_put(b, &ul_kol_pre_sigma, ul_kol_holds_if(bad == x->n_sigma),
                       bad < x->n_sigma ? pb->sigma[bad] : NULL);
    }
    ul_kol_pre_put(b, &ul_kol_pre_steps, ul_kol_holds_if(pb->steps >= 1), "0");
    if (with_lr_constant)
        ul_kol_pre_put(b, &ul_kol_pre_lr_constant, ul_kol_holds_if(!pb->lr_varies),
                       "a varying schedule");
    if (pb->init == UL_KOL_INIT_BOX)
        ul_kol_pre_put(b, &ul_kol_pre_dim, ul_kol_holds_if(pb->dim >= 1), "0");
    if (!x->lambda_zero && mpq_sgn(x->lambda) > 0) {
        mpq_div(x->two_c1_over_lambda, x->c1, x->lambda);
        mpq_add(x->two_c1_over_lambda, x->two_c1_over_lambda, x->two_c1_over_lambda);
    }
    return UL_OK;
}

/* The pieces every PABI formula shares, at one working precision. */
typedef struct {
    mpfi_t d0;  /* D0 = 2·C0 (·√d) */
    mpfi_t s;   /* shift per step, 2·lr·C1 */
    mpfi_t lrl; /* lr·λ */
    mpfi_t rho; /* ρ = 1 − lr·λ */
    mpfi_t L;   /* log ρ (0 when λ = 0) */
    mpfi_t B;   /* ρ^T·D0 + Σ_{t<T} ρ^{T−1−t}·s  (= the code's A) */
} pabi_num;

static void pabi_num_init(pabi_num *n, const pabi_exact *x, mpfr_prec_t p)
{
    const ul_kol_pabi_problem *pb = x->pb;
    mpfi_init2(n->d0, p);
    mpfi_init2(n->s, p);
    mpfi_init2(n->lrl, p);
    mpfi_init2(n->rho, p);
    mpfi_init2(n->L, p);
    mpfi_init2(n->B, p);
    ul_kol_initial_diameter(n->d0, x->c0, pb->init, pb->dim);
    mpq_t q;
    mpq_init(q);
    mpq_mul(q, x->lr, x->c1);
    mpq_add(q, q, q);
    mpfi_set_q(n->s, q);
    mpq_clear(q);
    mpfi_set_q(n->lrl, x->lrl);
    mpfi_set_q(n->rho, x->rho);
    if (x->lambda_zero) {
        /* ρ = 1: B = D0 + s·T */
        mpfi_set_ui(n->L, 0);
        mpfi_mul_ui(n->B, n->s, pb->steps);
        mpfi_add(n->B, n->B, n->d0);
    } else {
        /* Σ_{t<T} ρ^{T−1−t}·s = s·(1 − ρ^T)/(1 − ρ) = (2·C1/λ)·(1 − ρ^T),
         * with 1 − ρ^T = −expm1(T·log ρ) (no cancellation for small lr·λ). */
        mpfi_t tl, u;
        mpfi_init2(tl, p);
        mpfi_init2(u, p);
        mpfi_neg(n->L, n->lrl);
        mpfi_log1p(n->L, n->L);
        mpfi_mul_ui(tl, n->L, pb->steps);
        mpfi_exp(u, tl); /* ρ^T */
        mpfi_mul(n->B, u, n->d0);
        mpfi_expm1(u, tl);
        mpfi_neg(u, u);
        mpfi_set_q(tl, x->two_c1_over_lambda);
        mpfi_mul(u, u, tl);
        mpfi_add(n->B, n->B, u);
        mpfi_clear(tl);
        mpfi_clear(u);
    }
}

static void pabi_num_clear(pabi_num *n)
{
    mpfi_clear(n->d0);
    mpfi_clear(n->s);
    mpfi_clear(n->lrl);
    mpfi_clear(n->rho);
    mpfi_clear(n->L);
    mpfi_clear(n->B);
}

/* 1 − ρ^{2T} = −expm1(2T·log ρ), for λ > 0. */
static void one_minus_rho_2t(mpfi_ptr out, const pabi_exact *x, const pabi_num *n)
{
    mpfi_mul_ui(out, n->L, 2 * x->pb->steps);
    mpfi_expm1(out, out);
    mpfi_neg(out, out);
}

/* σ_t² of the code's schedule (`unlearn_sigma_t`, docs/neural-unlearning.md, "Gradient clipping"),
 * with A = B:
 *   λ = 0:             (D0 + 2·lr·C1·T)² / (k·ε_R·T), k = 4 printed (the code),
 *                      k = 2 corrected (the λ → 0 limit of the λ > 0 forms;
 *                      docs/neural-unlearning.md, Errata K5)
 *   constant, λ > 0:   A²·lr·λ·(2 − lr·λ) / (2·ε_R·(1 − c²)),   c = ρ^T
 *   decreasing, λ > 0: A² / (2·ε_R·T·ρ^{2(T−t−1)}) */
static void pabi_code_sigma2(mpfi_ptr out, const pabi_exact *x, const pabi_num *n, unsigned long t)
{
    const ul_kol_pabi_problem *pb = x->pb;
    mpfr_prec_t p = mpfi_get_prec(out) + 8;
    mpfi_t num, den;
    mpfi_init2(num, p);
    mpfi_init2(den, p);
    mpfi_sqr(num, n->B);
    mpfi_set_q(den, x->eps_renyi);
    if (x->lambda_zero) {
        mpfi_mul_ui(den, den, pb->steps);
        mpfi_mul_ui(den, den, pb->variant == UL_VARIANT_PRINTED ? 4 : 2);
        mpfi_div(out, num, den);
    } else if (pb->noise == UL_KOL_PABI_CODE_CONSTANT) {
        mpfi_t v;
        mpfi_init2(v, p);
        mpfi_ui_sub(v, 2, n->lrl);
        mpfi_mul(v, v, n->lrl);
        mpfi_mul(num, num, v);
        one_minus_rho_2t(v, x, n);
        mpfi_mul(den, den, v);
        mpfi_mul_2ui(den, den, 1);
        mpfi_div(out, num, den);
        mpfi_clear(v);
    } else {
        mpfi_mul_ui(den, den, pb->steps);
        mpfi_mul_2ui(den, den, 1);
        mpfi_div(num, num, den);
        /* ρ^{−2(T−t−1)} = exp(−2(T−t−1)·log ρ) */
        mpfi_mul_ui(den, n->L, pb->steps - t - 1);
        mpfi_mul_si(den, den, -2);
        mpfi_exp(den, den);
        mpfi_mul(out, num, den);
    }
    mpfi_clear(num);
    mpfi_clear(den);
}

/* σ² of a constant schedule (the given σ, or the code's at any t). */
static void pabi_const_sigma2(mpfi_ptr out, const pabi_exact *x, const pabi_num *n)
{
    if (x->code) {
        pabi_code_sigma2(out, x, n, x->pb->steps - 1);
    } else {
        mpfi_set_q(out, x->sigma[0]);
        mpfi_sqr(out, out);
    }
}

/* σ_t² for a per-step schedule, walking t upward (t = 0 first): the code's
 * decreasing schedule is kept as σ_{T−1}²·ρ^{−2(T−1−t)}, updated by ρ². */
typedef struct {
    mpfi_t last, f, rho2;
} sigma_walk;

static void sigma_walk_init(sigma_walk *w, const pabi_exact *x, const pabi_num *n, mpfr_prec_t p)
{
    mpfi_init2(w->last, p);
    mpfi_init2(w->f, p);
    mpfi_init2(w->rho2, p);
    mpfi_sqr(w->rho2, n->rho);
    if (x->code) {
        pabi_code_sigma2(w->last, x, n, x->pb->steps - 1);
        mpfi_mul_ui(w->f, n->L, x->pb->steps - 1);
        mpfi_mul_si(w->f, w->f, -2);
        mpfi_exp(w->f, w->f);
    }
}

static void sigma_walk_get(mpfi_ptr out, sigma_walk *w, const pabi_exact *x, unsigned long t)
{
    if (x->code) {
        mpfi_mul(out, w->last, w->f);
        mpfi_mul(w->f, w->f, w->rho2);
    } else {
        mpfi_set_q(out, x->sigma[t]);
        mpfi_sqr(out, out);
    }
}

static void sigma_walk_clear(sigma_walk *w)
{
    mpfi_clear(w->last);
    mpfi_clear(w->f);
    mpfi_clear(w->rho2);
}

/* S = Σ_{t<T} ρ^{2(T−1−t)}·σ_t²  (the denominator of ρ_eff). */
static void pabi_den(mpfi_ptr S, const pabi_exact *x, const pabi_num *n)
{
    const ul_kol_pabi_problem *pb = x->pb;
    mpfr_prec_t p = mpfi_get_prec(S);
    mpfi_t v;
    mpfi_init2(v, p);
    if (!x->per_step) {
        pabi_const_sigma2(S, x, n);
        if (x->lambda_zero) {
            mpfi_mul_ui(S, S, pb->steps);
        } else {
            /* Σ_{k<T} ρ^{2k} = (1 − ρ^{2T}) / (lr·λ·(2 − lr·λ)) */
            one_minus_rho_2t(v, x, n);
            mpfi_mul(S, S, v);
            mpfi_ui_sub(v, 2, n->lrl);
            mpfi_mul(v, v, n->lrl);
            mpfi_div(S, S, v);
        }
    } else {
        /* Horner: S ← ρ²·S + σ_t² */
        sigma_walk w;
        sigma_walk_init(&w, x, n, p);
        mpfi_set_ui(S, 0);
        for (unsigned long t = 0; t < pb->steps; t++) {
            mpfi_mul(S, S, w.rho2);
            sigma_walk_get(v, &w, x, t);
            mpfi_add(S, S, v);
        }
        sigma_walk_clear(&w);
    }
    mpfi_clear(v);
}

/* ρ(a) = Σ_{t<T} a_t²/(2σ_t²) of the searched allocation: a_t = ρ·z_t + s −
 * z_{t+1}, z_0 = D0 exactly and z_1..z_T the doubles x->z (Feldman et al.
 * 2018 Thm 22: step t's shift reduction costs R_α(N(0, σ_t²I), a_t) =
 * α·a_t²/(2σ_t²), Lemma 20 / docs/neural-unlearning.md, "Gradient clipping"). */
static void pabi_alloc_cost(mpfi_ptr out, const pabi_exact *x, const pabi_num *n, mpfr_prec_t p)
{
    sigma_walk w;
    sigma_walk_init(&w, x, n, p);
    mpfi_t z, a, v;
    mpfi_init2(z, p);
    mpfi_init2(a, p);
    mpfi_init2(v, p);
    mpfi_set(z, n->d0);
    mpfi_set_ui(out, 0);
    for (unsigned long t = 0; t < x->pb->steps; t++) {
        mpfi_mul(a, z, n->rho);
        mpfi_add(a, a, n->s);
        mpfi_set_d(z, x->z[t + 1]); /* exact: p ≥ 53 */
        mpfi_sub(a, a, z);
        mpfi_sqr(a, a);
        sigma_walk_get(v, &w, x, t);
        mpfi_div(a, a, v);
        mpfi_add(out, out, a);
    }
    mpfi_div_2ui(out, out, 1);
    mpfi_clear(z);
    mpfi_clear(a);
    mpfi_clear(v);
    sigma_walk_clear(&w);
}

/* ρ_eff = ½·B²/S (Feldman et al. 2018 Thm 22 with the shifts optimised by
 * Cauchy–Schwarz, docs/neural-unlearning.md, "Gradient clipping"), or the searched allocation's
 * ρ(a). */
static void pabi_rho_eval(mpfi_ptr out, const pabi_exact *x, mpfr_prec_t p)
{
    pabi_num n;
    pabi_num_init(&n, x, p);
    if (x->z != NULL) {
        pabi_alloc_cost(out, x, &n, p);
        pabi_num_clear(&n);
        return;
    }
    mpfi_t S;
    mpfi_init2(S, p);
    pabi_den(S, x, &n);
    mpfi_sqr(out, n.B);
    mpfi_div(out, out, S);
    mpfi_div_2ui(out, out, 1);
    mpfi_clear(S);
    pabi_num_clear(&n);
}

/* Whether the optimal shift allocation is admissible.  Step t maps the
 * shift z to ρ·z + s (the step is ρ-Lipschitz up to s = 2·lr·C1, docs/neural-unlearning.md,
 * "Gradient clipping") and its noise N(0, σ_t²) removes a_t at Rényi cost α·a_t²/(2σ_t²).  With
 * w_t = ρ^{T−1−t}, z_T = 0 needs Σ w_t·a_t = B, and Cauchy–Schwarz gives the
 * minimiser a_t = B·w_t·σ_t²/S and the cost α·B²/(2S) = α·ρ_eff.  Thm 22
 * also needs every intermediate shift z_{t+1} = ρ·z_t + s − a_t ≥ 0; one
 * finds ρ^{T−1−t}·z_{t+1} = P_t := Σ_{u>t} w_u·(a_u − s), so the condition
 * is P_t ≥ 0 for t = 0..T−2.
 *   Constant σ: P_t ≥ 0 always.  Since B ≥ s·Σ w and S = σ²·Σ w²,
 * P_t ≥ s·[(Σ_all w)(Σ_{u>t} w²)/(Σ_all w²) − Σ_{u>t} w] ≥ 0, because the
 * w-weighted mean of w over the largest w's (u > t; w increases with u as
 * ρ ≤ 1) is at least the mean over all.
 *   Per-step σ: checked here, walking u = T−1 down to 1; *negative_at is
 * the u with z_u < 0 that stops the walk (failing only). */
static ul_pre_state pabi_feasible_eval(const pabi_exact *x, mpfr_prec_t p,
                                       unsigned long *negative_at)
{
    if (!x->per_step)
        return UL_PRE_HOLDS;
    const ul_kol_pabi_problem *pb = x->pb;
    pabi_num n;
    pabi_num_init(&n, x, p);
    mpfi_t S, ratio, w, w2s, ws, v, P, rinv2, g;
    mpfi_init2(S, p);
    mpfi_init2(ratio, p);
    mpfi_init2(w, p);
    mpfi_init2(w2s, p);
    mpfi_init2(ws, p);
    mpfi_init2(v, p);
    mpfi_init2(P, p);
    mpfi_init2(rinv2, p);
    mpfi_init2(g, p);
    pabi_den(S, x, &n);
    mpfi_div(ratio, n.B, S);
    mpfi_set_ui(w, 1);
    mpfi_set_ui(w2s, 0);
    mpfi_set_ui(ws, 0);
    mpfi_sqr(rinv2, n.rho);
    mpfi_ui_div(rinv2, 1, rinv2);
    if (x->code)
        pabi_code_sigma2(g, x, &n, pb->steps - 1); /* σ_{T−1}², scaled by ρ^{−2} going down */
    ul_pre_state state = UL_PRE_HOLDS;
    for (unsigned long u = pb->steps - 1; u >= 1 && state != UL_PRE_FAILS; u--) {
        if (x->code) {
            mpfi_set(v, g);
            mpfi_mul(g, g, rinv2);
        } else {
            mpfi_set_q(v, x->sigma[u]);
            mpfi_sqr(v, v);
        }
        mpfi_mul(v, v, w);
        mpfi_mul(v, v, w);
        mpfi_add(w2s, w2s, v); /* Σ_{u' ≥ u} w²σ² */
        mpfi_add(ws, ws, w);   /* Σ_{u' ≥ u} w */
        mpfi_mul(P, ratio, w2s);
        mpfi_mul(v, n.s, ws);
        mpfi_sub(P, P, v); /* P_{u−1} */
        if (mpfr_sgn(&P->right) < 0) {
            state = UL_PRE_FAILS;
            *negative_at = u;
        } else if (mpfr_sgn(&P->left) < 0)
            state = UL_PRE_UNDECIDED;
        mpfi_mul(w, w, n.rho);
    }
    mpfi_clear(S);
    mpfi_clear(ratio);
    mpfi_clear(w);
    mpfi_clear(w2s);
    mpfi_clear(ws);
    mpfi_clear(v);
    mpfi_clear(P);
    mpfi_clear(rinv2);
    mpfi_clear(g);
    pabi_num_clear(&n);
    return state;
}

/* ---- PABI: a feasible shift allocation where the closed form is not ---------- */

/* log σ_t² for t < T, in doubles: the search's input only. */
static void pabi_log_sigma2_d(const pabi_exact *x, double *lv)
{
    pabi_num n;
    pabi_num_init(&n, x, 64);
    sigma_walk w;
    sigma_walk_init(&w, x, &n, 64);
    mpfi_t v;
    mpfi_init2(v, 64);
    for (unsigned long t = 0; t < x->pb->steps; t++) {
        sigma_walk_get(v, &w, x, t);
        mpfi_log(v, v);
        lv[t] = mpfi_get_d(v);
    }
    mpfi_clear(v);
    sigma_walk_clear(&w);
    pabi_num_clear(&n);
}

/* The optimal allocation's breakpoints, in doubles.  In the coordinates
 * X_i = Σ_{t<i} w_t²σ_t² (scaled by e^{−M}) and Y_i = ρ^T·D0 + s·Σ_{t<i} w_t,
 * i = 1..T, the path P_i = Σ_{t<i} w_t·a_t must stay ≤ Y_i (that is z_i ≥ 0,
 * as ρ^{T−i}·z_i = Y_i − P_i), start at P_0 = 0 and end at P_T = Y_T = B
 * (z_T = 0), and it costs Σ_t (ΔP)²/(2·ΔX) (= Σ a_t²/(2σ_t²)).  The KKT
 * conditions of this convex programme make its slopes a_t/(w_t·σ_t²)
 * nondecreasing and change them only where z_i = 0: the optimum is the lower
 * convex hull of (0, 0) and the (X_i, Y_i), whose slopes are ≥ 0 (a_t ≥ 0).
 * Andrew's monotone chain; h gets the hull's indices (0 first, T last). */
static size_t pabi_hull_d(const double *lv, double lrho, double d0, double s, double M,
                          unsigned long T, double *X, double *Y, unsigned long *h)
{
    X[0] = Y[0] = 0;
    double wsum = 0;
    for (unsigned long i = 1; i <= T; i++) {
        double k = (double)(T - i); /* T − 1 − t for t = i − 1 */
        X[i] = X[i - 1] + exp(lv[i - 1] + 2 * k * lrho - M);
        wsum += exp(k * lrho);
        Y[i] = exp((double)T * lrho) * d0 + s * wsum;
    }
    size_t nh = 0;
    for (unsigned long i = 0; i <= T; i++) {
        while (nh >= 2) {
            unsigned long o = h[nh - 2], a = h[nh - 1];
            double cross = (X[a] - X[o]) * (Y[i] - Y[o]) - (Y[a] - Y[o]) * (X[i] - X[o]);
            if (cross > 0)
                break;
            nh--;
        }
        h[nh++] = i;
    }
    return nh;
}

/* z_1..z_T (doubles) of the hull's allocation: on a segment between hull
 * points j < k, a_t = μ·w_t·σ_t² with μ = (Y_k − Y_j)/Σ_{j≤t<k} w_t²σ_t²
 * (the segment's own closed form, summed locally to avoid cancellation and
 * scaled by the segment's largest term), z_{t+1} = ρ·z_t + s − a_t, z_k = 0. */
static void pabi_shifts_from_hull_d(double *z, const unsigned long *h, size_t nh, const double *lv,
                                    double lrho, double d0, double s, unsigned long T)
{
    double rho = exp(lrho);
    z[0] = d0;
    for (size_t m = 0; m + 1 < nh; m++) {
        unsigned long j = h[m], k = h[m + 1];
        double num = j == 0 ? exp((double)T * lrho) * d0 : 0, Ms = -INFINITY, den = 0;
        for (unsigned long t = j; t < k; t++) {
            num += s * exp((double)(T - 1 - t) * lrho);
            Ms = fmax(Ms, lv[t] + 2 * (double)(T - 1 - t) * lrho);
        }
        for (unsigned long t = j; t < k; t++)
            den += exp(lv[t] + 2 * (double)(T - 1 - t) * lrho - Ms);
        double mu = num / den;
        for (unsigned long t = j; t < k; t++) {
            double a = mu * exp(lv[t] + (double)(T - 1 - t) * lrho - Ms);
            z[t + 1] = fmax(0, rho * z[t] + s - a);
        }
        z[k] = 0;
    }
}

/* Makes the doubles z_1..z_T provably feasible: z_T = 0, every z_t ≥ 0, and
 * z_{t+1} ≤ the lower end of an enclosure of ρ·z_t + s (z_0 = D0 exactly),
 * so a_t = ρ·z_t + s − z_{t+1} ≥ 0 for every t whatever precision later
 * encloses it: a double the search put marginally too high is lowered to
 * that end, rounded down (it is ≥ 0 as ρ·z_t + s ≥ s > 0). */
static void pabi_shifts_repair(double *z, const pabi_exact *x)
{
    unsigned long T = x->pb->steps;
    pabi_num n;
    pabi_num_init(&n, x, 128);
    mpfi_t v;
    mpfi_init2(v, 128);
    mpfi_set(v, n.d0);
    z[T] = 0;
    for (unsigned long t = 0; t < T; t++) {
        mpfi_mul(v, v, n.rho);
        mpfi_add(v, v, n.s);
        double lo = mpfr_get_d(&v->left, MPFR_RNDD);
        if (!(z[t + 1] <= lo)) /* also a NaN from the search */
            z[t + 1] = lo;
        if (!(z[t + 1] >= 0))
            z[t + 1] = 0;
        mpfi_set_d(v, z[t + 1]);
    }
    mpfi_clear(v);
    pabi_num_clear(&n);
}

/* The search in doubles (hull, then shifts), the repair, and which
 * intermediate shifts came out 0 (the binding constraints z_t ≥ 0). */
static ul_status pabi_search_shifts(pabi_exact *x, char *err, size_t errlen)
{
    unsigned long T = x->pb->steps;
    double *lv = malloc(T * sizeof *lv), *X = malloc((T + 1) * sizeof *X),
           *Y = malloc((T + 1) * sizeof *Y);
    unsigned long *h = malloc((T + 1) * sizeof *h);
    x->z = malloc((T + 1) * sizeof *x->z);
    ul_status st = UL_OK;
    if (lv == NULL || X == NULL || Y == NULL || h == NULL || x->z == NULL) {
        st = ul_fail(err, errlen, UL_ENOMEM,
                     "sigma: out of memory for the shift search over %lu steps", T);
    } else {
        pabi_log_sigma2_d(x, lv);
        double lrho = log(mpq_get_d(x->rho)), d0 = 0, s = 2 * mpq_get_d(x->lr) * mpq_get_d(x->c1);
        pabi_num n;
        pabi_num_init(&n, x, 64);
        d0 = mpfi_get_d(n.d0);
        pabi_num_clear(&n);
        double M = -INFINITY;
        for (unsigned long t = 0; t < T; t++)
            M = fmax(M, lv[t] + 2 * (double)(T - 1 - t) * lrho);
        size_t nh = pabi_hull_d(lv, lrho, d0, s, M, T, X, Y, h);
        pabi_shifts_from_hull_d(x->z, h, nh, lv, lrho, d0, s, T);
        pabi_shifts_repair(x->z, x);
        x->z[0] = d0;
        x->alloc.searched = true;
        for (unsigned long t = 1; t < T; t++)
            if (x->z[t] == 0 && x->alloc.n_zero++ < 4)
                x->alloc.zero_at[x->alloc.n_zero - 1] = t;
    }
    free(lv);
    free(X);
    free(Y);
    free(h);
    return st;
}

/* pabi_shifts_feasible: the closed form's allocation where it is feasible
 * (decided by enclosures, raising the precision to want's cap), else the
 * searched one, feasible by construction.  *f its state. */
static ul_status pabi_choose_alloc(pabi_exact *x, const ul_num_precision *want, ul_pre_state *f,
                                   char *err, size_t errlen)
{
    mpfr_prec_t cap = ul_num_max_bits(want);
    for (mpfr_prec_t p = 128;; p = 2 * p > cap ? cap : 2 * p) {
        *f = pabi_feasible_eval(x, p, &x->alloc.negative_at);
        if (*f != UL_PRE_UNDECIDED || p >= cap)
            break;
    }
    if (*f == UL_PRE_HOLDS)
        return UL_OK;
    x->alloc.closed_form_fails = *f == UL_PRE_FAILS;
    ul_status st = pabi_search_shifts(x, err, errlen);
    if (st == UL_OK)
        *f = UL_PRE_HOLDS;
    return st;
}

/* Reads the problem and checks the guarantee's preconditions (with the
 * feasibility of the shifts when with_feasible), raising the precision for
 * the one precondition decided by enclosures. */
static ul_status pabi_prepare(const ul_kol_pabi_problem *pb, const ul_num_precision *want,
                              bool with_lr_constant, bool with_feasible, ul_preconditions *pre,
                              pabi_exact *x, char *err, size_t errlen)
{
    ul_kol_pre_builder b;
    ul_kol_pre_begin(&b);
    ul_status st = pabi_read(pb, with_lr_constant, &b, x, err, errlen);
    if (st != UL_OK)
        return st;
    if (with_feasible) {
        ul_pre_state f = UL_PRE_UNDECIDED;
        if (b.first_failed == NULL)
            st = pabi_choose_alloc(x, want, &f, err, errlen);
        if (st != UL_OK)
            return st;
        ul_kol_pre_put(&b, &ul_kol_pre_feasible, f, "no feasible shift allocation");
    }
    st = ul_kol_pre_finish(&b, pre, err, errlen);
    if (st == UL_OK && b.undecided)
        st = ul_fail(err, errlen, UL_ECAP,
                     "sigma: precondition %s undecided at the precision cap of %ld bits",
                     ul_kol_pre_feasible.name, (long)ul_num_max_bits(want));
    return st;
}

static ul_status eval_pabi_rho(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const pabi_exact *x = ctx;
    pabi_rho_eval(out->enclosure, x, mpfi_get_prec(out->enclosure) + 16);
    out->is_log = false;
    return UL_OK;
}

/* ρ_eff as a guarantee (every precondition, the allocation chosen) or as
 * the bare formula (guarantee false: the closed form, what the code logs). */
static ul_status pabi_rho_run(const ul_kol_pabi_problem *pb, const ul_num_precision *want,
                              bool guarantee, ul_preconditions *pre, ul_num_value *rho,
                              ul_kol_pabi_alloc *alloc, ul_num_report *rep, char *err,
                              size_t errlen)
{
    pabi_exact x;
    pabi_exact_init(&x, pb);
    ul_status st = pabi_prepare(pb, want, guarantee, guarantee, pre, &x, err, errlen);
    if (st == UL_OK)
        st = ul_num_adaptive_eval(eval_pabi_rho, &x, want, rho, rep, err, errlen);
    if (alloc != NULL)
        *alloc = x.alloc;
    pabi_exact_clear(&x);
    return st;
}

ul_status ul_kol_pabi_rho_alloc_certified(const ul_kol_pabi_problem *pb,
                                          const ul_num_precision *want, ul_preconditions *pre,
                                          ul_num_value *rho, ul_kol_pabi_alloc *alloc,
                                          ul_num_report *rep, char *err, size_t errlen)
{
    return pabi_rho_run(pb, want, true, pre, rho, alloc, rep, err, errlen);
}

ul_status ul_kol_pabi_rho_certified(const ul_kol_pabi_problem *pb, const ul_num_precision *want,
                                    ul_preconditions *pre, ul_num_value *rho, ul_num_report *rep,
                                    char *err, size_t errlen)
{
    return ul_kol_pabi_rho_alloc_certified(pb, want, pre, rho, NULL, rep, err, errlen);
}

ul_status ul_kol_pabi_searched_shifts(const ul_kol_pabi_problem *pb, double **z, char *err,
                                      size_t errlen)
{
    pabi_exact x;
    pabi_exact_init(&x, pb);
    ul_num_precision want = {17, 0, 0};
    ul_status st = pabi_prepare(pb, &want, true, true, NULL, &x, err, errlen);
    *z = st == UL_OK ? x.z : NULL;
    if (st == UL_OK)
        x.z = NULL; /* handed over */
    pabi_exact_clear(&x);
    return st;
}

/* D0 as a rational: 2·C0, or 2·C0·√d when d is a square; false otherwise. */
static bool pabi_d0_exact(mpq_ptr out, const pabi_exact *x)
{
    mpq_add(out, x->c0, x->c0);
    if (x->pb->init != UL_KOL_INIT_BOX)
        return true;
    mpz_t d;
    mpz_init_set_ui(d, x->pb->dim);
    bool square = mpz_perfect_square_p(d) != 0;
    mpz_sqrt(d, d);
    mpz_mul(mpq_numref(out), mpq_numref(out), d);
    mpq_canonicalize(out);
    mpz_clear(d);
    return square;
}

/* r^k exactly (r canonical, out ≠ r: coprime powers stay canonical). */
static void q_pow_ui(mpq_ptr out, mpq_srcptr r, unsigned long k)
{
    mpz_pow_ui(mpq_numref(out), mpq_numref(r), k);
    mpz_pow_ui(mpq_denref(out), mpq_denref(r), k);
}

/* Σ_{k<n} r^k: n when r = 1, else (1 − r^n)/(1 − r). */
static void q_geom_sum(mpq_ptr out, mpq_srcptr r, unsigned long n)
{
    if (mpq_cmp_ui(r, 1, 1) == 0) {
        mpq_set_ui(out, n, 1);
        return;
    }
    mpq_t u;
    mpq_init(u);
    q_pow_ui(out, r, n);
    mpq_set_ui(u, 1, 1);
    mpq_sub(out, u, out);
    mpq_sub(u, u, r);
    mpq_div(out, out, u);
    mpq_clear(u);
}

/* The exact pieces of the closed form (docs/neural-unlearning.md, "Gradient clipping"): B =
 * ρ^T·D0 + s·Σ_{k<T} ρ^k (into B, D0 given in it) and S = Σ_t ρ^{2(T−1−t)}·σ_t², σ_t² given or the
 * code's constant schedule (λ = 0: B²/(k·ε_R·T), k = 4 printed, 2 corrected;
 * λ > 0: B²·lrλ(2 − lrλ)/(2·ε_R·(1 − ρ^{2T}))).  Per-step σ by Horner. */
static void pabi_pieces_exact(mpq_ptr B, mpq_ptr S, const pabi_exact *x, mpq_srcptr s)
{
    unsigned long T = x->pb->steps;
    mpq_t r2, v, g;
    mpq_inits(r2, v, g, NULL);
    q_pow_ui(v, x->rho, T);
    mpq_mul(B, B, v);
    q_geom_sum(g, x->rho, T);
    mpq_mul(g, g, s);
    mpq_add(B, B, g);
    mpq_mul(r2, x->rho, x->rho);
    if (x->per_step) {
        mpq_set_ui(S, 0, 1);
        for (unsigned long t = 0; t < T; t++) {
            mpq_mul(S, S, r2);
            mpq_mul(v, x->sigma[t], x->sigma[t]);
            mpq_add(S, S, v);
        }
    } else {
        if (!x->code) {
            mpq_mul(v, x->sigma[0], x->sigma[0]);
        } else if (x->lambda_zero) {
            mpq_mul(v, B, B);
            mpq_div(v, v, x->eps_renyi);
            mpq_set_ui(g, T * (x->pb->variant == UL_VARIANT_PRINTED ? 4 : 2), 1);
            mpq_div(v, v, g);
        } else {
            mpq_set_ui(g, 2, 1);
            mpq_sub(g, g, x->lrl);
            mpq_mul(g, g, x->lrl);
            mpq_mul(v, B, B);
            mpq_mul(v, v, g); /* B²·lrλ(2 − lrλ) */
            q_pow_ui(g, r2, T);
            mpq_set_ui(S, 1, 1);
            mpq_sub(g, S, g);
            mpq_mul(g, g, x->eps_renyi);
            mpq_mul_2exp(g, g, 1);
            mpq_div(v, v, g);
        }
        q_geom_sum(S, r2, T);
        mpq_mul(S, S, v);
    }
    mpq_clears(r2, v, g, NULL);
}

/* The closed form is feasible iff P_{u−1} = (B/S)·Σ_{u'≥u} w²σ² −
 * s·Σ_{u'≥u} w ≥ 0 for u = T−1..1 (pabi_feasible_eval's condition, w_u =
 * ρ^{T−1−u}), decided exactly; always so for constant σ. */
static bool pabi_feasible_exact(const pabi_exact *x, mpq_srcptr ratio, mpq_srcptr s)
{
    if (!x->per_step)
        return true;
    mpq_t w, w2s, ws, P, v;
    mpq_inits(w, w2s, ws, P, v, NULL);
    mpq_set_ui(w, 1, 1);
    bool ok = true;
    for (unsigned long u = x->pb->steps - 1; u >= 1 && ok; u--) {
        mpq_mul(v, x->sigma[u], x->sigma[u]);
        mpq_mul(v, v, w);
        mpq_mul(v, v, w);
        mpq_add(w2s, w2s, v);
        mpq_add(ws, ws, w);
        mpq_mul(P, ratio, w2s);
        mpq_mul(v, s, ws);
        ok = mpq_cmp(P, v) >= 0;
        mpq_mul(w, w, x->rho);
    }
    mpq_clears(w, w2s, ws, P, v, NULL);
    return ok;
}

/* Whether the exact evaluation is cheap: ρ^{2T} has about 2T·bits(ρ) bits
 * (none grow at λ = 0); per-step σ costs T operations on such numbers.  The
 * code's decreasing schedule at λ > 0 is left to the enclosures. */
static bool pabi_exact_cheap(const pabi_exact *x)
{
    if (x->lambda_zero)
        return true;
    if (x->code && x->pb->noise == UL_KOL_PABI_CODE_DECREASING)
        return false;
    double bits = (double)mpz_sizeinbase(mpq_numref(x->rho), 2) +
                  (double)mpz_sizeinbase(mpq_denref(x->rho), 2);
    return bits * (double)x->pb->steps <= (x->per_step ? 65536.0 : 4194304.0);
}

/* ρ_eff = B²/(2S) (docs/neural-unlearning.md, "Gradient clipping") in rationals. */
bool ul_kol_pabi_rho_exact(const ul_kol_pabi_problem *pb, mpq_ptr out)
{
    pabi_exact x;
    pabi_exact_init(&x, pb);
    ul_kol_pre_builder b;
    ul_kol_pre_begin(&b);
    char err[256];
    bool ok = pabi_read(pb, true, &b, &x, err, sizeof err) == UL_OK && b.first_failed == NULL &&
              pabi_exact_cheap(&x);
    mpq_t s, B, S;
    mpq_inits(s, B, S, NULL);
    if (ok)
        ok = pabi_d0_exact(B, &x);
    if (ok) {
        mpq_mul(s, x.lr, x.c1);
        mpq_add(s, s, s);
        pabi_pieces_exact(B, S, &x, s);
        mpq_div(out, B, S); /* B/S, the closed form's a_t/(w_t·σ_t²) */
        ok = pabi_feasible_exact(&x, out, s);
        mpq_mul(out, out, B);
        mpq_div_2exp(out, out, 1);
    }
    mpq_clears(s, B, S, NULL);
    pabi_exact_clear(&x);
    return ok;
}

ul_status ul_kol_pabi_rho_formula_certified(const ul_kol_pabi_problem *pb,
                                            const ul_num_precision *want, ul_num_value *rho,
                                            ul_num_report *rep, char *err, size_t errlen)
{
    return pabi_rho_run(pb, want, false, NULL, rho, NULL, rep, err, errlen);
}

typedef struct {
    const pabi_exact *x;
    unsigned long t;
} code_sigma_ctx;

static ul_status eval_code_sigma(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const code_sigma_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 16;
    pabi_num n;
    pabi_num_init(&n, c->x, p);
    pabi_code_sigma2(out->enclosure, c->x, &n, c->t);
    mpfi_sqrt(out->enclosure, out->enclosure);
    out->is_log = false;
    pabi_num_clear(&n);
    return UL_OK;
}

ul_status ul_kol_pabi_code_sigma_certified(const ul_kol_pabi_problem *pb, unsigned long t,
                                           const ul_num_precision *want, ul_preconditions *pre,
                                           ul_num_value *sigma, bool *code_lambda_zero_branch,
                                           ul_num_report *rep, char *err, size_t errlen)
{
    if (pb->noise == UL_KOL_PABI_GIVEN)
        return ul_fail(err, errlen, UL_EINPUT,
                       "noise: the code's sigma needs the constant or decreasing schedule");
    pabi_exact x;
    pabi_exact_init(&x, pb);
    ul_status st = pabi_prepare(pb, want, true, false, pre, &x, err, errlen);
    if (st == UL_OK && t >= pb->steps)
        st =
            ul_fail(err, errlen, UL_EINPUT, "t: must be below steps = %lu (got %lu)", pb->steps, t);
    if (st == UL_OK) {
        *code_lambda_zero_branch = x.lambda_zero && pb->variant == UL_VARIANT_PRINTED;
        code_sigma_ctx c = {&x, t};
        st = ul_num_adaptive_eval(eval_code_sigma, &c, want, sigma, rep, err, errlen);
    }
    pabi_exact_clear(&x);
    return st;
}

/* The linear RDP curve ρ(α) = α·ρ_eff, with ρ_eff cached per precision. */
typedef struct {
    const pabi_exact *x;
    mpfi_t cache;
    mpfr_prec_t cache_prec;
} pabi_curve_ctx;

static ul_status pabi_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    pabi_curve_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(rho) + 16;
    if (c->cache_prec != p) {
        mpfi_set_prec(c->cache, p);
        pabi_rho_eval(c->cache, c->x, p);
        c->cache_prec = p;
    }
    mpfi_mul(rho, alpha, c->cache);
    return UL_OK;
}

ul_status ul_kol_pabi_eps_certified(const ul_kol_pabi_problem *pb, const char *delta,
                                    ul_rdp_conversion conv, const ul_num_precision *want,
                                    ul_preconditions *pre, ul_num_value *eps, char *alpha_out,
                                    size_t alpha_len, ul_num_report *rep, char *err, size_t errlen)
{
    pabi_exact x;
    pabi_exact_init(&x, pb);
    ul_status st = pabi_prepare(pb, want, true, true, pre, &x, err, errlen);
    if (st == UL_OK) {
        /* Both directions D_α(X_T‖X'_T), D_α(X'_T‖X_T) ≤ α·ρ_eff (docs/neural-unlearning.md,
         * "Gradient clipping"), so each hockey-stick divergence obeys the conversion
         * (docs/neural-unlearning.md, "Definition"). */
        pabi_curve_ctx c;
        c.x = &x;
        mpfi_init2(c.cache, 64);
        c.cache_prec = 0;
        ul_rdp_curve curve = {pabi_curve, &c};
        st = ul_renyi_curve_certified(UL_RDP_TO_EPS, &curve, 1e15, delta, conv, want, eps,
                                      alpha_out, alpha_len, rep, err, errlen);
        mpfi_clear(c.cache);
    }
    pabi_exact_clear(&x);
    return st;
}

/* The code's order grid: α_i = (1001·9999 + 998999·i)/9999000, i < 10000. */
#define CODE_GRID_N 10000UL

typedef struct {
    mpq_srcptr eps_renyi, delta;
    unsigned long best;
} code_eps_ctx;

static ul_status eval_code_eps(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    code_eps_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 16;
    mpfi_t er, ld, a, am1, f, v, best;
    mpfi_init2(er, p);
    mpfi_init2(ld, p);
    mpfi_init2(a, p);
    mpfi_init2(am1, p);
    mpfi_init2(f, p);
    mpfi_init2(v, p);
    mpfi_init2(best, p);
    mpfi_set_q(er, c->eps_renyi);
    mpfi_set_q(ld, c->delta);
    mpfi_log(ld, ld);
    for (unsigned long i = 0; i < CODE_GRID_N; i++) {
        /* α − 1 = (9999 + 998999·i)/9999000, exactly representable numerators */
        mpfi_set_ui(am1, 9999UL + 998999UL * i);
        mpfi_div_ui(am1, am1, 9999000UL);
        mpfi_add_ui(a, am1, 1);
        /* ε_R + log((α−1)/α) − (log δ + log α)/(α−1), docs/neural-unlearning.md, "Public code"
         * dp_accountant */
        mpfi_div(f, am1, a);
        mpfi_log(f, f);
        mpfi_log(v, a);
        mpfi_add(v, v, ld);
        mpfi_div(v, v, am1);
        mpfi_sub(f, f, v);
        mpfi_add(f, f, er);
        if (i == 0) {
            mpfi_set(best, f);
            c->best = 0;
        } else {
            if (mpfr_less_p(&f->right, &best->right))
                c->best = i;
            /* min of two enclosures: [min lo, min hi] (best has precision p) */
            ul_bounds_interval_min(best, best, f);
        }
    }
    mpfi_set(out->enclosure, best);
    out->is_log = false;
    mpfi_clear(er);
    mpfi_clear(ld);
    mpfi_clear(a);
    mpfi_clear(am1);
    mpfi_clear(f);
    mpfi_clear(v);
    mpfi_clear(best);
    return UL_OK;
}

ul_status ul_kol_pabi_code_eps_certified(const char *eps_renyi, const char *delta,
                                         const ul_num_precision *want, ul_num_value *eps,
                                         unsigned long *grid_index, ul_num_report *rep, char *err,
                                         size_t errlen)
{
    ul_num_init();
    mpq_t er, d;
    mpq_inits(er, d, NULL);
    ul_status st = ul_kol_read_rat(er, "eps-renyi", eps_renyi, "0", false, UL_RENYI_MAX_RDP, false,
                                   err, errlen);
    if (st == UL_OK)
        st = ul_kol_read_rat(d, "delta", delta, "0", true, "1", true, err, errlen);
    if (st == UL_OK) {
        code_eps_ctx c = {er, d, 0};
        st = ul_num_adaptive_eval(eval_code_eps, &c, want, eps, rep, err, errlen);
        if (grid_index != NULL)
            *grid_index = c.best;
    }
    mpq_clears(er, d, NULL);
    return st;
}

ul_status ul_kol_pabi_code_steps(const char *c0, const char *c1, const char *lr, const char *lambda,
                                 unsigned long *steps, char *err, size_t errlen)
{
    ul_num_init();
    mpq_t q0, q1, ql, qlam, r;
    mpq_inits(q0, q1, ql, qlam, r, NULL);
    mpz_t t0;
    mpz_init(t0);
    ul_status st = ul_kol_read_rat(q0, "c0", c0, "0", true, UL_KOL_MAX_PARAM, false, err, errlen);
    if (st == UL_OK)
        st = ul_kol_read_rat(q1, "c1", c1, "0", true, UL_KOL_MAX_PARAM, false, err, errlen);
    if (st == UL_OK)
        st = ul_kol_read_rat(ql, "lr", lr, "0", true, UL_KOL_MAX_PARAM, false, err, errlen);
    if (st == UL_OK)
        st = ul_kol_read_rat(qlam, "lambda", lambda, "0", false, UL_KOL_MAX_PARAM, false, err,
                             errlen);
    if (st == UL_OK) {
        /* T0 = ⌈C0/(C1·lr)⌉ exactly (the code's double ceil can be off by one:
         * docs/neural-unlearning.md, Errata K7) */
        mpq_mul(r, q1, ql);
        mpq_div(r, q0, r);
        mpz_cdiv_q(t0, mpq_numref(r), mpq_denref(r));
        if (!mpz_fits_ulong_p(t0))
            st = ul_fail(err, errlen, UL_EINPUT,
                         "c0: the code's T0 = ceil(C0/(C1*lr)) is too large");
    }
    if (st == UL_OK) {
        unsigned long t = mpz_get_ui(t0);
        /* T1 = ⌈log(2λC0/C1)/(lr·λ)⌉ when λ > 0 and 2λC0/C1 > 1 (else T1 ≤ 0,
         * unused).  log of a rational ≠ 1 is irrational (Lindemann), so the
         * quotient is never an integer and its ceiling is decided once the
         * enclosure lies between two integers. */
        mpq_mul(r, qlam, q0);
        mpq_add(r, r, r);
        mpq_div(r, r, q1);
        if (mpq_sgn(qlam) > 0 && mpq_cmp_ui(r, 1, 1) > 0) {
            bool decided = false;
            for (mpfr_prec_t p = 64; p <= 65536 && !decided; p *= 2) {
                mpfi_t x, y;
                mpfi_init2(x, p);
                mpfi_init2(y, p);
                mpfi_set_q(x, r);
                mpfi_log(x, x);
                mpq_t lrl;
                mpq_init(lrl);
                mpq_mul(lrl, ql, qlam);
                mpfi_set_q(y, lrl);
                mpq_clear(lrl);
                mpfi_div(x, x, y);
                mpfr_t fl, fh;
                mpfr_inits2(p, fl, fh, (mpfr_ptr)0);
                mpfr_floor(fl, &x->left);
                mpfr_floor(fh, &x->right);
                if (mpfr_equal_p(fl, fh)) {
                    decided = true;
                    if (mpfr_cmp_ui(fl, ULONG_MAX - 1) < 0) {
                        unsigned long t1 = mpfr_get_ui(fl, MPFR_RNDN) + 1;
                        if (t1 < t)
                            t = t1; /* "use T1 if 0 < T1 < T0" */
                    }
                }
                mpfr_clears(fl, fh, (mpfr_ptr)0);
                mpfi_clear(x);
                mpfi_clear(y);
            }
            if (!decided)
                st = ul_fail(err, errlen, UL_ECAP, "lambda: could not decide the ceiling of T1");
        }
        *steps = t;
    }
    mpz_clear(t0);
    mpq_clears(q0, q1, ql, qlam, r, NULL);
    return st;
}
