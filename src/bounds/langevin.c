/* src/bounds/langevin.c — Langevin unlearning bounds (docs/langevin.md).
 *
 * Rounding.  Every quantity is an MPFI interval; MPFI rounds each operation
 * outward, so each function's result encloses the exact value of its formula
 * for every parameter in the input boxes.  Where a formula is rewritten for
 * intervals (to avoid a variable occurring twice, which only widens, or a
 * cancellation), the identity is written next to it.
 *
 * Choices made by search (the Rényi order α, a least K, a smallest σ) follow
 * docs/design.md, "Search in doubles, certify in MPFR": a search in doubles
 * proposes, enclosures decide.  "K reaches the
 * target" is certified by one α (a decimal) whose bound is ≤ ε̂; "K does not
 * reach it" by a rigorous lower bound of the minimum over all α > 1
 * (branch and bound on boxes of α, below).
 */
#include "bounds/langevin.h"

#include <errno.h>
#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/bounds_util.h"
#include "num/deadline.h"
#include "num/domain.h"
#include "num/input.h"
#include "num/threshold.h"

bool ul_langevin_variant_parse(const char *text, ul_variant *v)
{
    if (text != NULL && strcmp(text, "printed") == 0)
        *v = UL_VARIANT_PRINTED;
    else if (text != NULL && strcmp(text, "corrected") == 0)
        *v = UL_VARIANT_CORRECTED;
    else
        return false;
    return true;
}

/* ---- interval helpers ----------------------------------------------------- */

static bool same_interval(mpfi_srcptr a, mpfi_srcptr b)
{
    return mpfr_equal_p(&a->left, &b->left) && mpfr_equal_p(&a->right, &b->right);
}

/* The weak-triangle factor c(a) = (a − ½)/(a − 1) = 1 + 1/(2(a − 1)) for
 * a > 1 (Prop H.2, eq. (57)); the second form has a once, so a box gives
 * the exact range. */
static void c_factor(mpfi_ptr out, mpfi_srcptr a)
{
    mpfi_t t;
    mpfi_init2(t, mpfi_get_prec(out) + 8);
    mpfi_sub_ui(t, a, 1);
    mpfi_mul_2ui(t, t, 1);
    mpfi_ui_div(t, 1, t);
    mpfi_add_ui(out, t, 1);
    mpfi_clear(t);
}

/* out ⊇ exp(−lam/a)·x for lam ≥ 0, a > 0 (any boxes). */
static void decay(mpfi_ptr out, mpfi_srcptr lam, mpfi_srcptr a, mpfi_srcptr x)
{
    mpfi_t t;
    mpfi_init2(t, mpfi_get_prec(out) + 8);
    mpfi_div(t, lam, a);
    mpfi_neg(t, t);
    mpfi_exp(t, t);
    mpfi_mul(out, t, x);
    mpfi_clear(t);
}

static bool certainly_pos(mpfi_srcptr x)
{
    return x != NULL && mpfr_sgn(&x->left) > 0;
}

static bool certainly_nonneg(mpfi_srcptr x)
{
    return x != NULL && mpfr_sgn(&x->left) >= 0;
}

static ul_pre_state state_of(bool holds)
{
    return holds ? UL_PRE_HOLDS : UL_PRE_FAILS;
}

/* ---- the caps of Lemma F.2 ---------------------------------------------------- */

/* 6(4ρ² + t)·exp(4ρ²/t), ρ = R + ηM: Lemma F.2 eq. (39) (Chen, Chewi,
 * Niles-Weed 2021, Cor. 1) for a law supported in the ball of radius ρ
 * convolved with N(0, tI). */
static void lsi_cap(mpfi_ptr out, const ul_langevin_setting *s, mpfi_srcptr t)
{
    mpfi_t rho2, u;
    mpfi_init2(rho2, mpfi_get_prec(out) + 16);
    mpfi_init2(u, mpfi_get_prec(out) + 16);
    mpfi_mul(rho2, s->eta, s->M);
    mpfi_add(rho2, rho2, s->R);
    mpfi_sqr(rho2, rho2);
    mpfi_mul_2ui(rho2, rho2, 2); /* 4ρ² */
    mpfi_div(u, rho2, t);
    mpfi_exp(u, u);
    mpfi_add(rho2, rho2, t);
    mpfi_mul(rho2, rho2, u);
    mpfi_mul_ui(out, rho2, 6);
    mpfi_clear(rho2);
    mpfi_clear(u);
}

void ul_langevin_caps(mpfi_ptr cbar, mpfi_ptr ctilde, const ul_langevin_setting *s)
{
    ul_num_init();
    mpfi_t h;
    mpfi_init2(h, mpfi_get_prec(cbar) + 16);
    mpfi_sqr(h, s->sigma);
    mpfi_mul(h, h, s->eta); /* ησ², the variance of one half-step (43) */
    lsi_cap(cbar, s, h);    /* C̄, (46) */
    mpfi_set_prec(h, mpfi_get_prec(ctilde) + 16);
    mpfi_sqr(h, s->sigma);
    mpfi_mul(h, h, s->eta);
    mpfi_mul_2ui(h, h, 1); /* 2ησ², one full step */
    lsi_cap(ctilde, s, h); /* C̃, (40), (47) */
    mpfi_clear(h);
}

/* ---- domain checks for the enclosure functions ----------------------------------- */

static ul_status check_setting(const ul_langevin_setting *s, bool need_R, char *err, size_t errlen)
{
    if (s == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "setting: missing");
    if (s->kind != UL_LANGEVIN_NONCONVEX && s->kind != UL_LANGEVIN_CONVEX &&
        s->kind != UL_LANGEVIN_STRONGLY_CONVEX)
        return ul_fail(err, errlen, UL_EINPUT, "kind: not a Langevin case");
    if (s->n == NULL || mpfr_cmp_ui(&s->n->left, 1) < 0)
        return ul_fail(err, errlen, UL_EINPUT, "n: must be >= 1");
    if (!certainly_nonneg(s->L))
        return ul_fail(err, errlen, UL_EINPUT, "L: must be >= 0");
    if (!certainly_nonneg(s->M))
        return ul_fail(err, errlen, UL_EINPUT, "M: must be >= 0");
    if (!certainly_pos(s->eta))
        return ul_fail(err, errlen, UL_EINPUT, "eta: must be > 0");
    if (!certainly_pos(s->sigma))
        return ul_fail(err, errlen, UL_EINPUT, "sigma: must be > 0");
    if (s->kind == UL_LANGEVIN_STRONGLY_CONVEX && !certainly_pos(s->m))
        return ul_fail(err, errlen, UL_EINPUT, "m: must be > 0");
    if (need_R && s->kind != UL_LANGEVIN_STRONGLY_CONVEX && !certainly_nonneg(s->R))
        return ul_fail(err, errlen, UL_EINPUT, "R: must be >= 0");
    return UL_OK;
}

/* "eta <= c/L" as η·L ≤ c (no division by L = 0). */
static ul_pre_state eta_le_c_over_L(const ul_langevin_setting *s, unsigned long c)
{
    mpfi_t a, b;
    mpfi_init2(a, mpfi_get_prec(s->eta) + 16);
    mpfi_init2(b, 64);
    mpfi_mul(a, s->eta, s->L);
    mpfi_set_ui(b, c);
    ul_pre_state st = ul_pre_leq(a, b);
    mpfi_clear(a);
    mpfi_clear(b);
    return st;
}

/* The strongly convex preconditions shared by Thm 3.3 (3) (C = C_0) and
 * Thm 3.2 case 3 (C = C_LSI): σ²/m < C and η ≤ min((2/m)(1 − σ²/(mC)), 1/L),
 * the latter checked as η·m ≤ 2(1 − σ²/(mC)), plus m ≤ L. */
static void sc_preconditions(const ul_langevin_setting *s, mpfi_srcptr C, bool thm33,
                             ul_preconditions *pre)
{
    mpfr_prec_t w = mpfi_get_prec(s->eta) + 32;
    mpfi_t a, b;
    mpfi_init2(a, w);
    mpfi_init2(b, w);
    ul_pre_add(pre, "m_le_L",
               "m <= L: an m-strongly convex, L-smooth loss needs m <= L (Chien et al. 2024, App. "
               "B "
               "(4)-(5))",
               ul_pre_leq(s->m, s->L));
    mpfi_sqr(a, s->sigma);
    mpfi_div(a, a, s->m); /* σ²/m */
    ul_pre_add(pre, thm33 ? "C0_gt_sigma2_over_m" : "sigma2_over_m_lt_C_LSI",
               thm33 ? "initial LSI constant C_0 > sigma^2/m (Thm 3.3, strongly convex case; "
                       "Chien et al. 2024)"
                     : "sigma^2/m < C_LSI (Thm 3.2 case 3; Chien et al. 2024)",
               ul_pre_less(a, C));
    mpfi_div(a, a, C);
    mpfi_ui_sub(a, 1, a);
    mpfi_mul_2ui(a, a, 1); /* 2(1 − σ²/(mC)) */
    mpfi_mul(b, s->eta, s->m);
    ul_pre_add(pre, "eta_le_sc_bound",
               thm33 ? "eta <= (2/m)(1 - sigma^2/(m C_0)) (Thm 3.3, strongly convex case; "
                       "Chien et al. 2024)"
                     : "eta <= (2/m)(1 - sigma^2/(m C_LSI)) (Thm 3.2 case 3; Chien et al. 2024)",
               ul_pre_leq(b, a));
    ul_pre_add(pre, "eta_le_1_over_L",
               thm33 ? "eta <= 1/L (Thm 3.3, strongly convex case; Chien et al. 2024)"
                     : "eta <= 1/L (Thm 3.2 case 3; Chien et al. 2024)",
               eta_le_c_over_L(s, 1));
    mpfi_clear(a);
    mpfi_clear(b);
}

/* ---- Thm 3.3: ε0 of learning ---------------------------------------------------- */

/* Extra bits for a recursion of `steps` steps (each step widens by about an
 * ulp). */
static mpfr_prec_t loop_guard(unsigned long steps)
{
    unsigned long k = steps < UL_LANGEVIN_MAX_LOOP ? steps : UL_LANGEVIN_MAX_LOOP;
    return 24 + (mpfr_prec_t)log2(1.0 + (double)k);
}

/* The stationary end of the Thm 3.3 sum (below): every remaining q_t is
 * q = (1 + h/C1)^{-1}, q/(1 − q) = C1/h, and for k remaining steps (k = 0
 * for T → ∞, where q^k → 0)
 *   corrected  a ← a·q^k + (C1/h)(1 − q^k),
 *   printed    a ← a + P·(C1/h)(1 − q^k),
 * with q^k = exp(−k·log(1 + h/C1)). */
static void eps0_tail(mpfi_ptr a, mpfi_srcptr P, mpfi_srcptr C1, mpfi_srcptr h, unsigned long k,
                      bool printed)
{
    mpfr_prec_t w = mpfi_get_prec(a);
    mpfi_t t1, qk;
    mpfi_init2(t1, w);
    mpfi_init2(qk, w);
    mpfi_div(t1, C1, h); /* q/(1 − q) */
    if (k == 0) {
        mpfi_set_ui(qk, 0); /* T → ∞ */
    } else {
        mpfi_div(qk, h, C1);
        mpfi_log1p(qk, qk);
        mpfi_mul_ui(qk, qk, k);
        mpfi_neg(qk, qk);
        mpfi_exp(qk, qk);
    }
    if (printed) {
        mpfi_ui_sub(qk, 1, qk);
        mpfi_mul(t1, t1, qk);
        mpfi_mul(t1, t1, P);
        mpfi_add(a, a, t1);
    } else {
        mpfi_mul(a, a, qk);
        mpfi_ui_sub(qk, 1, qk);
        mpfi_mul(t1, t1, qk);
        mpfi_add(a, a, t1);
    }
    mpfi_clear(t1);
    mpfi_clear(qk);
}

/* The stationary point of the Thm 3.3 recursion (eps0_sum, below):
 *   C* = min(C̄ + h, cap),   C1* = min(g·C* + h, C̄).
 * Why (g ≥ 1, h > 0, C_t ≥ 0): C* is a fixed point (if C̄ + h ≤ cap,
 * C_{t,1} = C̄ since g·C* + h > C̄, and C_{t+1} = C̄ + h; otherwise C* = cap
 * and C_{t,1} + h > cap).  C_t ≤ C* for t ≥ 1 (C_{t,1} ≤ C̄), and while
 * C_t < C*, C_{t+1} ≥ min(C_t + 2h, C*) (C_{t,1} ≥ min(C_t + h, C̄)): so
 * C_t = C* for every t ≥ t_s, t_s ≤ C* / (2h) + 2, and then q_t = q* =
 * (1 + h/C1*)^{-1}; before, C_{t,1} ≤ C1*, so q_t ≤ q* for t ≥ 1. */
static void lsi_stationary(mpfi_ptr Cs, mpfi_ptr C1s, mpfi_srcptr g, mpfi_srcptr h,
                           mpfi_srcptr cbar, mpfi_srcptr cap)
{
    mpfi_add(Cs, cbar, h);
    ul_bounds_interval_min(Cs, Cs, cap);
    mpfi_mul(C1s, g, Cs);
    mpfi_add(C1s, C1s, h);
    ul_bounds_interval_min(C1s, C1s, cbar);
}

/* Whether the convex recursion (g = 1, increments of at least 2h, at most
 * C* / (2h) + 2 steps: lsi_stationary) could run past UL_LANGEVIN_MAX_LOOP
 * before becoming stationary (doubles: a choice of which error to give
 * before walking 10^7 steps, never a bound). */
static bool too_long(mpfi_srcptr g, mpfi_srcptr Cs, mpfi_srcptr h, unsigned long T)
{
    double n = mpfr_get_d(&Cs->right, MPFR_RNDU) / (2 * mpfr_get_d(&h->left, MPFR_RNDD));
    return T > UL_LANGEVIN_MAX_LOOP && mpfr_cmp_ui(&g->right, 1) <= 0 &&
           !(n < 0.5 * (double)UL_LANGEVIN_MAX_LOOP);
}

/* The error for a recursion too long to walk: the field the reading
 * depends on (T when given, else the printed form of the sum: the
 * corrected one with T → ∞ needs no recursion) and the rule. */
static ul_status too_long_error(unsigned long T, char *err, size_t errlen)
{
    if (T == UL_LANGEVIN_T_INF)
        return ul_fail(err, errlen, UL_EINPUT,
                       "eps0_form: the printed sum of Thm 3.3 follows the LSI recursion to its "
                       "cap C-bar (Lemma F.2 eq. (46), from R, eta, M and sigma), more than %lu "
                       "steps here; not computed (the corrected form needs no recursion)",
                       UL_LANGEVIN_MAX_LOOP);
    return ul_fail(err, errlen, UL_EINPUT,
                   "T: the LSI recursion of Thm 3.3 does not reach its cap C-bar (Lemma F.2 eq. "
                   "(46), from R, eta, M and sigma) within %lu steps; give T <= %lu, or leave T "
                   "out (learning run to convergence)",
                   UL_LANGEVIN_MAX_LOOP, UL_LANGEVIN_MAX_LOOP);
}

/* Σ of Thm 3.3 (non-convex, convex), Chien et al.
 * 2024, App. G (docs/langevin.md, "Learning privacy"):  h = ησ² (the variance of each half-step,
 * eq. (43)),
 *   C_{t,1} = min(g·C_t + h, C̄),   g = (1+ηL)² non-convex, 1 convex   (45),(46)
 *   q_t     = (1 + h/C_{t,1})^{-1}
 *   C_{t+1} = min(C_{t,1} + h, cap),  cap = C̄ (PRINTED) or C̃ (CORRECTED, (47))
 * and
 *   PRINTED   Σ = Σ_{t=1..T} Π_{t'=0..t−1} q_t'           (the theorem as stated)
 *   CORRECTED Σ = a_T, a_{t+1} = (a_t + 1)·q_t, a_0 = 0    (iterating (50):
 *               a_T = Σ_{j<T} Π_{t'=j..T−1} q_t'; docs/langevin.md, Errata L2).
 * Once C_{t+1} = C_t (as intervals: the caps have taken over), every later
 * q_t is the same q, and the rest is a geometric series with
 * q/(1 − q) = C_{t,1}/h:
 *   a_T = a_{t+1}·q^k + (C_{t,1}/h)(1 − q^k),   Σ_T = Σ_{t+1} + P_{t+1}(C_{t,1}/h)(1 − q^k),
 * k = T − t − 1 remaining steps (q^k = 0 for T → ∞).  CORRECTED with T → ∞
 * is that limit from the start, a_∞ = C1* / h (lsi_stationary), whatever the
 * path, so a large C̄ (the convex case climbs by 2h per step) costs
 * nothing; any other recursion longer than UL_LANGEVIN_MAX_LOOP is refused
 * (too_long_error). */
static ul_status eps0_sum(mpfi_ptr sum, const ul_langevin_setting *s, mpfi_srcptr C0,
                          unsigned long T, ul_variant v, char *err, size_t errlen)
{
    mpfr_prec_t w = mpfi_get_prec(sum) + loop_guard(T);
    mpfi_t h, cbar, ctil, g, C, C1, Cn, q, a, P, Cs, C1s;
    mpfi_init2(h, w), mpfi_init2(cbar, w), mpfi_init2(ctil, w), mpfi_init2(g, w);
    mpfi_init2(C, w), mpfi_init2(C1, w), mpfi_init2(Cn, w), mpfi_init2(q, w);
    mpfi_init2(a, w), mpfi_init2(P, w), mpfi_init2(Cs, w), mpfi_init2(C1s, w);
    mpfi_sqr(h, s->sigma);
    mpfi_mul(h, h, s->eta);
    ul_langevin_caps(cbar, ctil, s);
    mpfi_set_ui(g, 1);
    if (s->kind == UL_LANGEVIN_NONCONVEX) {
        mpfi_mul(g, s->eta, s->L);
        mpfi_add_ui(g, g, 1);
        mpfi_sqr(g, g);
    }
    bool printed = v == UL_VARIANT_PRINTED;
    lsi_stationary(Cs, C1s, g, h, cbar, printed ? cbar : ctil);
    mpfi_set(C, C0);
    mpfi_set_ui(a, 0); /* corrected: a_t;  printed: running Σ */
    mpfi_set_ui(P, 1); /* printed: P_t = Π_{t'<t} q_t' */
    bool done = T == 0;
    if (!done && !printed && T == UL_LANGEVIN_T_INF) {
        mpfi_div(a, C1s, h); /* the limit a_∞ = C1* / h */
        done = true;
    }
    ul_status st = !done && too_long(g, Cs, h, T) ? too_long_error(T, err, errlen) : UL_OK;
    for (unsigned long t = 0; !done && st == UL_OK; t++) {
        if (t >= UL_LANGEVIN_MAX_LOOP) {
            st = too_long_error(T, err, errlen);
            break;
        }
        mpfi_mul(C1, g, C);
        mpfi_add(C1, C1, h);
        ul_bounds_interval_min(C1, C1, cbar);
        mpfi_div(q, h, C1);
        mpfi_add_ui(q, q, 1);
        mpfi_ui_div(q, 1, q);
        if (printed) {
            mpfi_mul(P, P, q);
            mpfi_add(a, a, P);
        } else {
            mpfi_add_ui(a, a, 1);
            mpfi_mul(a, a, q);
        }
        mpfi_add(Cn, C1, h);
        ul_bounds_interval_min(Cn, Cn, printed ? cbar : ctil);
        bool last = T != UL_LANGEVIN_T_INF && t + 1 >= T;
        if (!last && same_interval(Cn, C)) {
            eps0_tail(a, P, C1, h, T == UL_LANGEVIN_T_INF ? 0 : T - t - 1, printed);
            done = true;
        }
        done = done || last;
        mpfi_set(C, Cn);
    }
    if (st == UL_OK)
        mpfi_set(sum, a);
    mpfi_clear(h), mpfi_clear(cbar), mpfi_clear(ctil), mpfi_clear(g);
    mpfi_clear(C), mpfi_clear(C1), mpfi_clear(Cn), mpfi_clear(q);
    mpfi_clear(a), mpfi_clear(P), mpfi_clear(Cs), mpfi_clear(C1s);
    return st;
}

ul_status ul_langevin_eps0_slope(mpfi_ptr E, const ul_langevin_setting *s, unsigned long S,
                                 mpfi_srcptr C0, unsigned long T, ul_variant v,
                                 ul_preconditions *pre, char *err, size_t errlen)
{
    ul_num_init();
    ul_status st = check_setting(s, true, err, errlen);
    if (st != UL_OK)
        return st;
    if (S < 1)
        return ul_fail(err, errlen, UL_EINPUT, "S: must be >= 1");
    if (!certainly_nonneg(C0))
        return ul_fail(err, errlen, UL_EINPUT, "C0: must be >= 0");
    if (v != UL_VARIANT_CORRECTED && v != UL_VARIANT_PRINTED)
        return ul_fail(err, errlen, UL_EINPUT, "variant: must be printed or corrected");
    if (s->kind == UL_LANGEVIN_STRONGLY_CONVEX && T == 0)
        return ul_fail(err, errlen, UL_EINPUT, "T: must be >= 1 (or infinite)");
    mpfr_prec_t w = mpfi_get_prec(E) + 32;
    mpfi_t c, t;
    mpfi_init2(c, w);
    mpfi_init2(t, w);
    if (s->kind == UL_LANGEVIN_STRONGLY_CONVEX) {
        sc_preconditions(s, C0, true, pre);
        /* (3): ε0/α = 4S²M²/(mσ²n²)·(1 − e^{−mηT}) */
        mpfi_mul_ui(c, s->M, S);
        mpfi_div(c, c, s->sigma);
        mpfi_div(c, c, s->n);
        mpfi_sqr(c, c);
        mpfi_mul_2ui(c, c, 2);
        mpfi_div(c, c, s->m);
        if (T != UL_LANGEVIN_T_INF) {
            mpfi_mul(t, s->m, s->eta);
            mpfi_mul_ui(t, t, T);
            mpfi_neg(t, t);
            mpfi_expm1(t, t);
            mpfi_neg(t, t); /* 1 − e^{−mηT} */
            mpfi_mul(c, c, t);
        }
        mpfi_set(E, c);
    } else {
        if (s->kind == UL_LANGEVIN_CONVEX)
            ul_pre_add(pre, "eta_le_2_over_L",
                       "eta <= 2/L (Thm 3.3, convex case; Chien et al. 2024)",
                       eta_le_c_over_L(s, 2));
        st = eps0_sum(t, s, C0, T, v, err, errlen);
        /* (51): ε0/α = (2ηS²M²/(σ²n²))·Σ */
        mpfi_mul_ui(c, s->M, S);
        mpfi_div(c, c, s->sigma);
        mpfi_div(c, c, s->n);
        mpfi_sqr(c, c);
        mpfi_mul(c, c, s->eta);
        mpfi_mul_2ui(c, c, 1);
        if (st == UL_OK)
            mpfi_mul(E, c, t);
    }
    mpfi_clear(c);
    mpfi_clear(t);
    return st;
}

ul_status ul_langevin_eps0(mpfi_ptr eps0, const ul_langevin_setting *s, mpfi_srcptr alpha,
                           unsigned long S, mpfi_srcptr C0, unsigned long T, ul_variant v,
                           ul_preconditions *pre, char *err, size_t errlen)
{
    if (alpha == NULL || mpfr_cmp_ui(&alpha->left, 1) <= 0)
        return ul_fail(err, errlen, UL_EINPUT, "alpha: must be > 1");
    mpfi_t E;
    mpfi_init2(E, mpfi_get_prec(eps0) + 16);
    ul_status st = ul_langevin_eps0_slope(E, s, S, C0, T, v, pre, err, errlen);
    if (st == UL_OK)
        mpfi_mul(eps0, E, alpha);
    mpfi_clear(E);
    return st;
}

/* ---- Thm 3.2: rates of unlearning ------------------------------------------------- */

/* The general-case rate recursion of Thm 3.2 cases 1–2 over K steps, from
 * the LSI constant in C (updated to the constant after the K steps):
 *   A_k = (1+ηL)²C_k (non-convex) or C_k (convex),
 *   R_k = log(1 + 2ησ²/A_k)                 corrected (docs/langevin.md, Errata L1, [DERIVED])
 *       = ½(1/A_k² − 1/(A_k + 2ησ²)²)       printed,
 *   C_{k+1} = min(A_k + 2ησ², C̃)             (38), (40).
 * sum += Σ R_k.  g = (1+ηL)² or 1, s2 = 2ησ², ctil = C̃. */
static ul_status rate_run(mpfi_ptr sum, mpfi_ptr C, unsigned long K, bool printed, mpfi_srcptr g,
                          mpfi_srcptr s2, mpfi_srcptr ctil, char *err, size_t errlen)
{
    mpfr_prec_t w = mpfi_get_prec(sum);
    mpfi_t A, Rk, t, Cn;
    mpfi_init2(A, w), mpfi_init2(Rk, w), mpfi_init2(t, w), mpfi_init2(Cn, w);
    ul_status st = UL_OK;
    for (unsigned long k = 0; k < K; k++) {
        if (k >= UL_LANGEVIN_MAX_LOOP) {
            st = ul_fail(err, errlen, UL_EINPUT,
                         "K: the LSI recursion of Thm 3.2 is not stationary after %lu "
                         "steps; give K <= %lu",
                         UL_LANGEVIN_MAX_LOOP, UL_LANGEVIN_MAX_LOOP);
            break;
        }
        mpfi_mul(A, g, C); /* A_k = (1+ηL)²C_k or C_k */
        if (printed) {
            /* (1/2)(1/A² − 1/(A + 2ησ²)²), as printed (docs/langevin.md, Errata L1) */
            mpfi_sqr(Rk, A);
            mpfi_ui_div(Rk, 1, Rk);
            mpfi_add(t, A, s2);
            mpfi_sqr(t, t);
            mpfi_ui_div(t, 1, t);
            mpfi_sub(Rk, Rk, t);
            mpfi_div_2ui(Rk, Rk, 1);
        } else {
            /* ∫_0^η 2σ²/(A + 2tσ²) dt = log(1 + 2ησ²/A) (docs/langevin.md, "Unlearning rates") */
            mpfi_div(Rk, s2, A);
            mpfi_log1p(Rk, Rk);
        }
        mpfi_add(sum, sum, Rk);
        /* C_{k+1} = min(A_k + 2ησ², C̃) (Thm 3.2 1), 2); (38), (40)) */
        mpfi_add(Cn, A, s2);
        ul_bounds_interval_min(Cn, Cn, ctil);
        if (same_interval(Cn, C) && k + 1 < K) {
            /* stationary: every later R_k equals this one, C stays */
            mpfi_mul_ui(Rk, Rk, K - k - 1);
            mpfi_add(sum, sum, Rk);
            break;
        }
        mpfi_set(C, Cn);
    }
    mpfi_clear(A), mpfi_clear(Rk), mpfi_clear(t), mpfi_clear(Cn);
    return st;
}

ul_status ul_langevin_rate_sums(mpfi_ptr *lambda, const ul_langevin_setting *s, mpfi_srcptr C_lsi,
                                const unsigned long *K, size_t count, ul_variant v,
                                ul_preconditions *pre, char *err, size_t errlen)
{
    ul_num_init();
    ul_status st = check_setting(s, s->kind != UL_LANGEVIN_STRONGLY_CONVEX, err, errlen);
    if (st != UL_OK)
        return st;
    if (!certainly_pos(C_lsi))
        return ul_fail(err, errlen, UL_EINPUT, "C_lsi: must be > 0");
    if (v != UL_VARIANT_CORRECTED && v != UL_VARIANT_PRINTED)
        return ul_fail(err, errlen, UL_EINPUT, "variant: must be printed or corrected");
    if (count < 1 || count > UL_LANGEVIN_MAX_REQUESTS)
        return ul_fail(err, errlen, UL_EINPUT, "requests: must be between 1 and %d",
                       UL_LANGEVIN_MAX_REQUESTS);
    unsigned long Kmax = 0;
    for (size_t j = 0; j < count; j++)
        Kmax = K[j] > Kmax ? K[j] : Kmax;
    mpfr_prec_t w = mpfi_get_prec(lambda[0]) + loop_guard(Kmax) + 4 * (mpfr_prec_t)count;
    mpfi_t s2, Rk, C, ctil, cbar, g, sum;
    mpfi_init2(s2, w), mpfi_init2(Rk, w), mpfi_init2(C, w), mpfi_init2(ctil, w);
    mpfi_init2(cbar, w), mpfi_init2(g, w), mpfi_init2(sum, w);
    mpfi_sqr(s2, s->sigma);
    mpfi_mul(s2, s2, s->eta);
    mpfi_mul_2ui(s2, s2, 1); /* 2ησ², the variance of one unlearning step (2) */

    if (s->kind == UL_LANGEVIN_STRONGLY_CONVEX) {
        sc_preconditions(s, C_lsi, false, pre);
        /* Case 3 (strongly convex): R = 2σ²η/C_LSI, and ρ_k stays C_LSI-LSI
         * for every k, so every request starts from the same constant (Cor
         * 3.4's hypothesis holds here).  Errata L1–L3 of docs/langevin.md
         * concern cases 1 and 2: printed and corrected coincide. */
        mpfi_div(Rk, s2, C_lsi);
        for (size_t j = 0; j < count; j++)
            mpfi_mul_ui(lambda[j], Rk, K[j]);
    } else {
        if (s->kind == UL_LANGEVIN_CONVEX)
            ul_pre_add(pre, "eta_le_2_over_L", "eta <= 2/L (Thm 3.2 case 2; Chien et al. 2024)",
                       eta_le_c_over_L(s, 2));
        ul_langevin_caps(cbar, ctil, s);
        if (s->kind == UL_LANGEVIN_NONCONVEX) {
            mpfi_mul(g, s->eta, s->L);
            mpfi_add_ui(g, g, 1);
            mpfi_sqr(g, g);
        } else {
            mpfi_set_ui(g, 1);
        }
        /* Cor 3.4 assumes every request starts from a C_LSI-LSI law (docs/langevin.md,
         * Errata L17: assumed, not proven).  Instead the LSI recursion runs
         * on across requests: request j starts from the constant the
         * recursion reached after requests 1..j−1, which (38) proves. */
        mpfi_set(C, C_lsi);
        for (size_t j = 0; j < count && st == UL_OK; j++) {
            mpfi_set_ui(sum, 0);
            st = rate_run(sum, C, K[j], v == UL_VARIANT_PRINTED, g, s2, ctil, err, errlen);
            if (st == UL_OK)
                mpfi_set(lambda[j], sum);
        }
    }
    mpfi_clear(s2), mpfi_clear(Rk), mpfi_clear(C), mpfi_clear(ctil);
    mpfi_clear(cbar), mpfi_clear(g), mpfi_clear(sum);
    return st;
}

ul_status ul_langevin_rate_sum(mpfi_ptr lambda, const ul_langevin_setting *s, mpfi_srcptr C_lsi,
                               unsigned long K, ul_variant v, ul_preconditions *pre, char *err,
                               size_t errlen)
{
    return ul_langevin_rate_sums(&lambda, s, C_lsi, &K, 1, v, pre, err, errlen);
}

ul_status ul_langevin_unlearn(ul_num_value *eps, const ul_langevin_setting *s, mpfi_srcptr alpha,
                              mpfi_srcptr eps0, mpfi_srcptr C_lsi, unsigned long K, ul_variant v,
                              ul_preconditions *pre, char *err, size_t errlen)
{
    if (alpha == NULL || mpfr_cmp_ui(&alpha->left, 1) <= 0)
        return ul_fail(err, errlen, UL_EINPUT, "alpha: must be > 1");
    if (!certainly_nonneg(eps0))
        return ul_fail(err, errlen, UL_EINPUT, "eps0: must be >= 0");
    mpfr_prec_t w = mpfi_get_prec(eps->enclosure) + 16;
    mpfi_t lam, t;
    mpfi_init2(lam, w);
    mpfi_init2(t, w);
    ul_status st = ul_langevin_rate_sum(lam, s, C_lsi, K, v, pre, err, errlen);
    if (st == UL_OK) {
        /* Thm 3.2: log ε = log ε0 − Λ_K/α (log 0 = −inf) */
        mpfi_log(t, eps0);
        mpfi_div(lam, lam, alpha);
        mpfi_sub(eps->enclosure, t, lam);
        eps->is_log = true;
    }
    mpfi_clear(lam);
    mpfi_clear(t);
    return st;
}

/* ---- Corollary 3.4, Prop L.2, insufficient training ------------------------------ */

ul_status ul_langevin_linear_curve(mpfi_ptr rho, mpfi_srcptr alpha, void *ctx, char *err,
                                   size_t errlen)
{
    (void)err;
    (void)errlen;
    mpfi_mul(rho, alpha, *(const mpfi_t *)ctx);
    return UL_OK;
}

ul_status ul_langevin_sequential(mpfi_ptr out, mpfi_srcptr alpha, const ul_rdp_curve *eps0,
                                 mpfi_srcptr const *lambda, size_t requests, char *err,
                                 size_t errlen)
{
    ul_num_init();
    if (alpha == NULL || mpfr_cmp_ui(&alpha->left, 1) <= 0)
        return ul_fail(err, errlen, UL_EINPUT, "alpha: must be > 1");
    if (requests < 1 || requests > UL_LANGEVIN_MAX_REQUESTS)
        return ul_fail(err, errlen, UL_EINPUT, "requests: must be between 1 and %d",
                       UL_LANGEVIN_MAX_REQUESTS);
    if (eps0 == NULL || eps0->fn == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "eps0: missing curve");
    for (size_t j = 0; j < requests; j++)
        if (lambda == NULL || !certainly_nonneg(lambda[j]))
            return ul_fail(err, errlen, UL_EINPUT, "lambda[%zu]: must be >= 0", j);
    mpfr_prec_t w = mpfi_get_prec(out) + 16 + 4 * (mpfr_prec_t)requests;
    mpfi_t a, e0, v, c;
    mpfi_init2(a, w), mpfi_init2(e0, w), mpfi_init2(v, w), mpfi_init2(c, w);
    /* request j (1-based) is evaluated at order a_j = 2^{requests−j}·α: the
     * recursion needs ε^(j−1) and ε0 at 2a_j = a_{j−1} (Algorithm 7). */
    mpfi_mul_2ui(a, alpha, (unsigned long)(requests - 1));
    ul_status st = eps0->fn(e0, a, eps0->ctx, err, errlen);
    if (st == UL_OK)
        decay(v, lambda[0], a, e0); /* ε^(1)(a_1) = e^{−Λ_1/a_1}·ε0(a_1) (Thm 3.2) */
    for (size_t j = 1; st == UL_OK && j < requests; j++) {
        /* e0 holds ε0(a_{j}) = ε0(2a_{j+1}) from the previous round */
        mpfi_div_2ui(a, a, 1);
        c_factor(c, a);
        mpfi_add(v, v, e0);
        mpfi_mul(v, v, c);
        decay(v, lambda[j], a, v);
        if (j + 1 < requests)
            st = eps0->fn(e0, a, eps0->ctx, err, errlen);
    }
    if (st == UL_OK)
        mpfi_set(out, v);
    mpfi_clear(a), mpfi_clear(e0), mpfi_clear(v), mpfi_clear(c);
    return st;
}

void ul_langevin_to_dp(mpfi_ptr eps, mpfi_srcptr alpha, const ul_num_value *eps_ru,
                       mpfi_srcptr delta)
{
    ul_num_init();
    mpfr_prec_t w = mpfi_get_prec(eps) + 16;
    mpfi_t r, t;
    mpfi_init2(r, w);
    mpfi_init2(t, w);
    if (eps_ru->is_log)
        mpfi_exp(r, eps_ru->enclosure);
    else
        mpfi_set(r, eps_ru->enclosure);
    /* (80): ε = ε_RU + log(1/δ)/(α − 1) (Mironov 2017 Prop. 3) */
    mpfi_log(t, delta);
    mpfi_neg(t, t);
    mpfi_t am1;
    mpfi_init2(am1, w);
    mpfi_sub_ui(am1, alpha, 1);
    mpfi_div(t, t, am1);
    mpfi_add(eps, r, t);
    mpfi_clear(am1);
    mpfi_clear(r);
    mpfi_clear(t);
}

void ul_langevin_insufficient(mpfi_ptr out, mpfi_srcptr alpha, mpfi_srcptr lambda,
                              mpfi_srcptr eps_T_2alpha, mpfi_srcptr eps_T_4alpha,
                              mpfi_srcptr eps0_4alpha)
{
    ul_num_init();
    mpfr_prec_t w = mpfi_get_prec(out) + 16;
    mpfi_t a2, c, v;
    mpfi_init2(a2, w);
    mpfi_init2(c, w);
    mpfi_init2(v, w);
    /* docs/langevin.md, "Insufficient training":
     *   d_{2α}(ρ_K, ν_{D'}) ≤ e^{−Λ/(2α)}·c(2α)·(ε_T(4α) + ε0(4α))
     *     (Thm 3.2 at order 2α from ρ_0 = ν_T, then the weak triangle (57)
     *      through ν_D),
     *   d_α(ρ_K, ν'_T) ≤ c(α)·(d_{2α}(ρ_K, ν_{D'}) + ε_T(2α))   ((57) through ν_{D'}). */
    mpfi_mul_2ui(a2, alpha, 1);
    c_factor(c, a2);
    mpfi_add(v, eps_T_4alpha, eps0_4alpha);
    mpfi_mul(v, v, c);
    decay(v, lambda, a2, v);
    mpfi_add(v, v, eps_T_2alpha);
    c_factor(c, alpha);
    mpfi_mul(out, v, c);
    mpfi_clear(a2);
    mpfi_clear(c);
    mpfi_clear(v);
}

/* ---- the objective over α and its certified decision --------------------------------
 *
 * For the calibrations, with E = ε0(α)/α (one request's group size),
 * Λ_j the rate sum of request j and B = log(1/δ):
 *
 *   F(α) = ε^(s)(α) + B/(α − 1),
 *   ε^(1)(α) = e^{−Λ_1/α}·E·α,
 *   ε^(j)(α) = e^{−Λ_j/α}·c(α)·(2αE + ε^(j−1)(2α))        (Cor 3.4, Alg. 7)
 *
 * (s = 1 is Algorithm 5's objective; Prop L.2 adds B/(α − 1)).
 *
 * Deciding "min_α F ≤ ε̂" soundly:
 *  - yes: one decimal α with F(α) ≤ ε̂ in interval arithmetic;
 *  - no: a lower bound of F over all α > 1 above ε̂.  Every factor above is
 *    positive and monotone in α on a box, so evaluating F on a box [α1, α2]
 *    in interval arithmetic gives a lower bound of F there (the natural
 *    interval extension, first-order tight in the width).  The two tails:
 *      α − 1 ≤ β_L = B/(2ε̂):   F ≥ B/(α − 1) ≥ 2ε̂ > ε̂;
 *      α ≥ α_R:  F ≥ ℓ(α) = e^{−Λ_s/α}·E·α, increasing in α (ℓ' > 0), and
 *                ε^(s) ≥ ℓ for every s (c ≥ 1, 2αE ≥ αE, ε^(s−1) ≥ 0),
 *    with α_R found by doubling until ℓ(α_R) > ε̂.  The middle is covered by
 *    boxes, split until each is excluded (its lower bound is > ε̂) or a
 *    witness appears; a box too narrow to split at this precision leaves the
 *    decision open (the caller raises the precision).
 * The natural extension alone is only first-order tight, and near the
 * minimum (F' = 0, F − min quadratic) that needs ever more boxes; so each
 * box also gets F' by forward differentiation in interval arithmetic: where
 * F' has one sign on the box, F ≥ F(the lower end); otherwise the
 * mean-value form F(α) ∈ F(c) + F'(box)·(α − c) bounds it to second order
 * (obj_box_lower).  Both are sound for any box; the best bound is used. */

typedef struct {
    mpfr_prec_t prec;
    size_t count;        /* requests s ≥ 1 */
    mpfi_t E, B, target; /* slope of ε0, log(1/δ), ε̂ */
    mpfi_t *lam;         /* lam[j] = Λ_{j+1} */
    double logE, Bd;     /* doubles for the search */
    double *lamd;
} objective;

static void obj_init(objective *o, size_t count, mpfr_prec_t p)
{
    o->prec = p;
    o->count = count;
    mpfi_init2(o->E, p);
    mpfi_init2(o->B, p);
    mpfi_init2(o->target, p);
    o->lam = malloc(count * sizeof *o->lam);
    o->lamd = malloc(count * sizeof *o->lamd);
    /* count <= UL_LANGEVIN_MAX_REQUESTS (checked where requests are read) */
    if (o->lam == NULL || o->lamd == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    for (size_t j = 0; j < count; j++) {
        mpfi_init2(o->lam[j], p);
        mpfi_set_ui(o->lam[j], 0);
    }
    mpfi_set_ui(o->target, 0);
}

static void obj_clear(objective *o)
{
    mpfi_clear(o->E);
    mpfi_clear(o->B);
    mpfi_clear(o->target);
    for (size_t j = 0; j < o->count; j++)
        mpfi_clear(o->lam[j]);
    free(o->lam);
    free(o->lamd);
}

static double mid_d(mpfi_srcptr x)
{
    return 0.5 * mpfr_get_d(&x->left, MPFR_RNDN) + 0.5 * mpfr_get_d(&x->right, MPFR_RNDN);
}

/* Fills the doubles from the enclosures (after E, B, lam are set). */
static void obj_doubles(objective *o)
{
    mpfr_t t;
    mpfr_init2(t, 64);
    mpfr_log(t, &o->E->left, MPFR_RNDN);
    o->logE = mpfr_get_d(t, MPFR_RNDN);
    mpfr_clear(t);
    o->Bd = mid_d(o->B);
    for (size_t j = 0; j < o->count; j++)
        o->lamd[j] = mid_d(o->lam[j]);
}

/* out ⊇ F over the box alpha ⊂ (1, ∞). */
static void obj_eval(mpfi_ptr out, const objective *o, mpfi_srcptr alpha)
{
    mpfr_prec_t w = mpfi_get_prec(out) + 16 + 2 * (mpfr_prec_t)o->count;
    mpfi_t a, e0, v, c;
    mpfi_init2(a, w), mpfi_init2(e0, w), mpfi_init2(v, w), mpfi_init2(c, w);
    mpfi_mul_2ui(a, alpha, (unsigned long)(o->count - 1)); /* exact scaling */
    mpfi_mul(e0, o->E, a);
    decay(v, o->lam[0], a, e0);
    for (size_t j = 1; j < o->count; j++) {
        mpfi_div_2ui(a, a, 1);
        mpfi_mul_2ui(e0, a, 1);
        mpfi_mul(e0, e0, o->E); /* ε0(2a) = 2aE */
        c_factor(c, a);
        mpfi_add(v, v, e0);
        mpfi_mul(v, v, c);
        decay(v, o->lam[j], a, v);
    }
    mpfi_sub_ui(c, alpha, 1);
    mpfi_div(c, o->B, c);
    mpfi_add(out, v, c);
    mpfi_clear(a), mpfi_clear(e0), mpfi_clear(v), mpfi_clear(c);
}

/* F and its derivative F' over the box alpha, both as natural interval
 * extensions (forward-mode differentiation of obj_eval's recursion):
 *   d/dα e^{−Λ/a} = e^{−Λ/a}·Λ/a²·a',  d/dα c(a) = −a'/(2(a − 1)²),
 *   d/dα B/(α − 1) = −B/(α − 1)²,  a = 2^k α,  a' = 2^k. */
static void obj_eval_dual(mpfi_ptr f, mpfi_ptr df, const objective *o, mpfi_srcptr alpha)
{
    mpfr_prec_t w = mpfi_get_prec(f) + 16 + 2 * (mpfr_prec_t)o->count;
    mpfi_t a, da, e0, de0, v, dv, x, dx, t;
    mpfi_init2(a, w), mpfi_init2(da, w), mpfi_init2(e0, w), mpfi_init2(de0, w);
    mpfi_init2(v, w), mpfi_init2(dv, w), mpfi_init2(x, w), mpfi_init2(dx, w), mpfi_init2(t, w);
    unsigned long k = (unsigned long)(o->count - 1);
    mpfi_mul_2ui(a, alpha, k);
    mpfi_set_ui(da, 1);
    mpfi_mul_2ui(da, da, k);
    mpfi_mul(e0, o->E, a);
    mpfi_mul(de0, o->E, da);
    for (size_t j = 0; j < o->count; j++) {
        if (j > 0) {
            mpfi_div_2ui(a, a, 1);
            mpfi_div_2ui(da, da, 1);
            mpfi_mul_2ui(e0, a, 1);
            mpfi_mul(e0, e0, o->E); /* 2aE */
            mpfi_mul_2ui(de0, da, 1);
            mpfi_mul(de0, de0, o->E); /* 2a'E */
            /* u = ε^(j−1)(2a) + ε0(2a) */
            mpfi_add(v, v, e0);
            mpfi_add(dv, dv, de0);
            /* times c(a) */
            c_factor(x, a);
            mpfi_sub_ui(t, a, 1);
            mpfi_sqr(t, t);
            mpfi_mul_2ui(t, t, 1);
            mpfi_div(dx, da, t);
            mpfi_neg(dx, dx); /* c' */
            mpfi_mul(dx, dx, v);
            mpfi_mul(dv, dv, x);
            mpfi_add(dv, dv, dx);
            mpfi_mul(v, v, x);
        } else {
            mpfi_set(v, e0);
            mpfi_set(dv, de0);
        }
        /* times e^{−Λ/a} */
        mpfi_div(x, o->lam[j], a);
        mpfi_neg(t, x);
        mpfi_exp(t, t); /* e^{−Λ/a} */
        mpfi_div(x, x, a);
        mpfi_mul(x, x, da);
        mpfi_mul(x, x, t); /* its derivative */
        mpfi_mul(x, x, v);
        mpfi_mul(dv, dv, t);
        mpfi_add(dv, dv, x);
        mpfi_mul(v, v, t);
    }
    mpfi_sub_ui(t, alpha, 1);
    mpfi_div(x, o->B, t);
    mpfi_add(f, v, x);
    mpfi_div(x, x, t);
    mpfi_sub(df, dv, x);
    mpfi_clear(a), mpfi_clear(da), mpfi_clear(e0), mpfi_clear(de0);
    mpfi_clear(v), mpfi_clear(dv), mpfi_clear(x), mpfi_clear(dx), mpfi_clear(t);
}

/* A lower bound of F over α ∈ 1 + [lo, hi], into lb (a number): the best of
 * the natural extension, the monotone case (F' of one sign on the box: the
 * value at the lower end) and the mean-value form
 * F(α) ∈ F(c) + F'(box)·(α − c), which is second-order tight where F' = 0. */
static void obj_box_lower(mpfr_ptr lb, const objective *o, mpfr_srcptr lo, mpfr_srcptr hi)
{
    mpfr_prec_t p = o->prec + 16;
    mpfi_t box, f, df, pt, fc, d;
    mpfi_init2(box, p), mpfi_init2(f, p), mpfi_init2(df, p), mpfi_init2(pt, p);
    mpfi_init2(fc, p), mpfi_init2(d, p);
    mpfi_interv_fr(box, lo, hi);
    mpfi_add_ui(box, box, 1);
    obj_eval_dual(f, df, o, box);
    mpfr_set(lb, &f->left, MPFR_RNDD);
    mpfr_t c;
    mpfr_init2(c, mpfr_get_prec(lo) + 1);
    if (mpfr_sgn(&df->left) > 0 || mpfr_sgn(&df->right) < 0) {
        /* monotone on the box */
        mpfi_set_fr(pt, mpfr_sgn(&df->left) > 0 ? lo : hi);
        mpfi_add_ui(pt, pt, 1);
        obj_eval(fc, o, pt);
        mpfr_max(lb, lb, &fc->left, MPFR_RNDD);
    } else if (mpfr_number_p(&df->left) && mpfr_number_p(&df->right)) {
        mpfr_add(c, lo, hi, MPFR_RNDN);
        mpfr_div_2ui(c, c, 1, MPFR_RNDN);
        mpfi_set_fr(pt, c);
        mpfi_add_ui(pt, pt, 1);
        obj_eval(fc, o, pt);
        mpfi_sub(d, box, pt); /* α − c over the box */
        mpfi_mul(d, d, df);
        mpfi_add(d, d, fc);
        mpfr_max(lb, lb, &d->left, MPFR_RNDD);
    }
    mpfr_clear(c);
    mpfi_clear(box), mpfi_clear(f), mpfi_clear(df), mpfi_clear(pt);
    mpfi_clear(fc), mpfi_clear(d);
}

static double logaddexp(double x, double y)
{
    if (x == -INFINITY)
        return y;
    if (y == -INFINITY)
        return x;
    return x > y ? x + log1p(exp(y - x)) : y + log1p(exp(x - y));
}

/* log F at α = 1 + β in doubles (search only). */
static double obj_logf_d(const objective *o, double beta)
{
    double alpha = 1 + beta;
    double a = ldexp(alpha, (int)(o->count - 1));
    double lv = -o->lamd[0] / a + o->logE + log(a);
    for (size_t j = 1; j < o->count; j++) {
        a /= 2;
        double am1 = j + 1 == o->count ? beta : a - 1;
        lv = -o->lamd[j] / a + log1p(0.5 / am1) + logaddexp(o->logE + log(2 * a), lv);
    }
    double r = logaddexp(lv, log(o->Bd) - log(beta));
    return isnan(r) ? INFINITY : r;
}

/* The t minimising f(ctx, t) in doubles (search only, not rigorous): a
 * grid of the given step on [t_lo, t_hi], then golden-section refinement
 * around the best grid point to |Δt| ≈ 1e-9; the grid point is kept unless
 * the refined one is at least as good. */
typedef ul_bounds_fn_d d_objective;

static double d_argmin(d_objective f, const void *ctx, double t_lo, double t_hi, double step)
{
    int n = (int)((t_hi - t_lo) / step) + 1;
    int best = 0;
    double fbest = INFINITY;
    for (int i = 0; i < n; i++) {
        double fi = f(ctx, t_lo + i * step);
        if (fi < fbest) {
            fbest = fi;
            best = i;
        }
    }
    double tb = t_lo + best * step, fm;
    double tm = ul_bounds_golden_min_d(f, ctx, tb - step, tb + step, 1e-9, 100, &fm);
    return fm <= fbest ? tm : tb;
}

/* log F at β = e^t (for d_argmin). */
static double obj_logf_t(const void *ctx, double t)
{
    return obj_logf_d(ctx, exp(t));
}

/* The β = α − 1 minimising F in doubles: t = log β on a grid of four
 * points per e-fold on [−30, 200], then golden section. */
static double obj_search_beta(const objective *o)
{
    return exp(d_argmin(obj_logf_t, o, -30, 200, 0.25));
}

/* The decimal text of x > 0 rounded to `digits` significant digits
 * (malloc'd): positional ("11.5457163783") when 1 ≤ x < 10^20, else
 * "0.DDD…eX".  Only used for orders α > 1. */
static char *decimal_text(mpfr_srcptr x, int digits)
{
    mpfr_exp_t e;
    char *s = mpfr_get_str(NULL, &e, 10, (size_t)digits, x, MPFR_RNDN);
    /* digits: at most the --digits cap */
    if (s == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    size_t n = strlen(s), len = n + 32;
    char *out = malloc(len);
    if (out == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    if (s[0] != '-' && e >= 1 && e <= 20) {
        /* value = 0.s × 10^e: the point goes after e digits (zeros padded) */
        len = (size_t)e + n + 2;
        free(out);
        out = malloc(len);
        if (out == NULL)
            abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
        size_t k = (size_t)e < n ? (size_t)e : n;
        memcpy(out, s, k);
        while (k < (size_t)e)
            out[k++] = '0';
        if ((size_t)e < n) {
            out[k++] = '.';
            memcpy(out + k, s + e, n - (size_t)e);
            k += n - (size_t)e;
        }
        out[k] = '\0';
    } else {
        snprintf(out, len, "%s0.%se%ld", s[0] == '-' ? "-" : "", s[0] == '-' ? s + 1 : s, (long)e);
    }
    mpfr_free_str(s);
    return out;
}

/* F at the decimal α `text`, at the objective's precision. */
static void obj_eval_text(mpfi_ptr out, const objective *o, const char *text)
{
    mpfi_t a;
    mpfi_init2(a, o->prec + 16);
    ul_num_set_valid(a, text); /* our own well-formed text */
    obj_eval(out, o, a);
    mpfi_clear(a);
}

/* True (and *witness = text, malloc'd, replacing the old one) when F at the
 * decimal `text` is certainly ≤ ε̂; frees text otherwise. */
static bool try_witness(const objective *o, char *text, mpfi_ptr tmp, char **witness)
{
    bool ok = false;
    mpfi_t a;
    mpfi_init2(a, o->prec + 16);
    if (ul_num_set_decimal(a, text) == UL_OK && mpfr_cmp_ui(&a->left, 1) > 0) {
        obj_eval(tmp, o, a);
        ok = mpfr_lessequal_p(&tmp->right, &o->target->left);
    }
    mpfi_clear(a);
    if (ok && witness != NULL) {
        free(*witness);
        *witness = text;
    } else {
        free(text);
    }
    return ok;
}

#define BB_MAX_BOXES 20000

typedef struct {
    mpfr_t lo, hi; /* β = α − 1 */
} bb_box;

/* The tails (see above): bl = β_L = B/(2ε̂) rounded down, with F > ε̂ for
 * β ≤ β_L, and br = β_R with ℓ(1 + β_R) > ε̂, found by doubling.  false
 * when either cannot be shown at this precision. */
static bool obj_tails(const objective *o, mpfr_ptr bl, mpfr_ptr br)
{
    mpfr_prec_t p = o->prec;
    mpfi_t f, a;
    mpfi_init2(f, p);
    mpfi_init2(a, p + 16);
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(bl));
    mpfr_mul_2ui(t, &o->target->right, 1, MPFR_RNDU);
    mpfr_div(bl, &o->B->left, t, MPFR_RNDD); /* β_L = B/(2ε̂), rounded down */
    bool ok = mpfr_sgn(bl) > 0; /* B = 0 would need δ = 1: excluded upstream */
    if (ok) {
        mpfi_set_fr(a, bl);
        mpfi_div(f, o->B, a);
        ok = mpfr_greater_p(&f->left, &o->target->right);
    }
    if (ok) {
        mpfr_mul_2ui(br, bl, 1, MPFR_RNDU);
        if (mpfr_cmp_ui(br, 1) < 0)
            mpfr_set_ui(br, 1, MPFR_RNDU);
    }
    for (int i = 0; ok; i++) {
        /* ℓ(α_R) = e^{−Λ_s/α_R}·E·α_R */
        mpfi_set_fr(a, br);
        mpfi_add_ui(a, a, 1);
        mpfi_mul(f, o->E, a);
        decay(f, o->lam[o->count - 1], a, f);
        if (mpfr_greater_p(&f->left, &o->target->right))
            break;
        if (i > 4000)
            ok = false;
        else
            mpfr_mul_2ui(br, br, 1, MPFR_RNDU);
    }
    mpfr_clear(t);
    mpfi_clear(f);
    mpfi_clear(a);
    return ok;
}

/* A stack of boxes of β, the top processed first. */
typedef struct {
    bb_box *box;
    size_t n, cap;
    mpfr_prec_t prec;
} bb_stack;

static bb_box *bb_push(bb_stack *s, mpfr_srcptr lo, mpfr_srcptr hi)
{
    if (s->n == s->cap) {
        s->cap = s->cap == 0 ? 64 : 2 * s->cap;
        s->box = realloc(s->box, s->cap * sizeof *s->box);
        /* at most BB_MAX_BOXES boxes are ever pushed */
        if (s->box == NULL)
            abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    }
    bb_box *b = &s->box[s->n++];
    mpfr_init2(b->lo, s->prec);
    mpfr_init2(b->hi, s->prec);
    mpfr_set(b->lo, lo, MPFR_RNDN);
    mpfr_set(b->hi, hi, MPFR_RNDN);
    return b;
}

static void bb_pop(bb_stack *s)
{
    s->n--;
    mpfr_clears(s->box[s->n].lo, s->box[s->n].hi, (mpfr_ptr)0);
}

/* The initial boxes [β_L 2^k, β_L 2^{k+1}] ∩ [β_L, β_R], the smallest β on
 * top. */
static void bb_initial(bb_stack *s, mpfr_srcptr bl, mpfr_srcptr br)
{
    mpfr_t t, u;
    mpfr_inits2(s->prec, t, u, (mpfr_ptr)0);
    mpfr_set(t, bl, MPFR_RNDN);
    for (bool end = false; !end;) {
        mpfr_mul_2ui(u, t, 1, MPFR_RNDN);
        end = mpfr_greaterequal_p(u, br);
        bb_push(s, t, end ? br : u);
        mpfr_set(t, u, MPFR_RNDN);
    }
    for (size_t i = 0, j = s->n - 1; i < j; i++, j--) {
        bb_box tmp = s->box[i];
        s->box[i] = s->box[j];
        s->box[j] = tmp;
    }
    mpfr_clears(t, u, (mpfr_ptr)0);
}

/* A witness near the middle of the box (mid, width), with as few digits as
 * the box's width allows: true (and *witness set) when F there is ≤ ε̂. */
static bool bb_try_middle(const objective *o, mpfr_srcptr mid, mpfr_srcptr width, mpfi_ptr f,
                          char **witness)
{
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(mid));
    mpfr_div(t, mid, width, MPFR_RNDN);
    double ratio = mpfr_get_d(t, MPFR_RNDN);
    int digits = (int)ceil(log10(ratio > 1 ? ratio : 1)) + 4;
    if (digits < 6)
        digits = 6;
    if (digits > (int)(o->prec / 3) + 8)
        digits = (int)(o->prec / 3) + 8;
    mpfr_add_ui(t, mid, 1, MPFR_RNDN);
    bool ok = try_witness(o, decimal_text(t, digits), f, witness);
    mpfr_clear(t);
    return ok;
}

/* The middle, box by box (depth first): UL_SIDE_SAFE on a witness,
 * UL_SIDE_UNSAFE when every box is excluded, UL_SIDE_UNDECIDED when a box
 * is too narrow to split at this precision, BB_MAX_BOXES is reached or the
 * time budget ran out. */
static ul_side bb_run(const objective *o, bb_stack *s, char **witness)
{
    mpfr_prec_t p = o->prec;
    mpfi_t f;
    mpfi_init2(f, p);
    mpfr_t mid, width, t;
    mpfr_inits2(s->prec, mid, width, t, (mpfr_ptr)0);
    ul_side result = UL_SIDE_UNSAFE;
    bool open = false;
    for (size_t evals = 0; s->n > 0;) {
        bb_box *bx = &s->box[s->n - 1];
        /* out of boxes or out of time (num/deadline.h; H3's sweep: at
         * --digits 1000 this loop ran for minutes): undecided, never a side */
        if (++evals > BB_MAX_BOXES || ul_deadline_passed()) {
            open = true;
            break;
        }
        obj_box_lower(mid, o, bx->lo, bx->hi);
        if (mpfr_greater_p(mid, &o->target->right)) {
            bb_pop(s);
            continue; /* excluded */
        }
        mpfr_add(mid, bx->lo, bx->hi, MPFR_RNDN);
        mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
        mpfr_sub(width, bx->hi, bx->lo, MPFR_RNDU);
        if (bb_try_middle(o, mid, width, f, witness)) {
            result = UL_SIDE_SAFE;
            break;
        }
        /* split, unless the box is already at the limit of this precision */
        mpfr_mul_2si(t, bx->lo, -(long)(p - 8), MPFR_RNDD);
        if (mpfr_lessequal_p(width, t) || !mpfr_less_p(bx->lo, mid) || !mpfr_less_p(mid, bx->hi)) {
            open = true;
            bb_pop(s);
            continue;
        }
        /* [lo, mid] on top (processed first), [mid, hi] below it */
        mpfr_set(t, bx->lo, MPFR_RNDN);
        mpfr_set(bx->lo, mid, MPFR_RNDN);
        bb_push(s, t, mid);
    }
    mpfr_clears(mid, width, t, (mpfr_ptr)0);
    mpfi_clear(f);
    return result == UL_SIDE_UNSAFE && open ? UL_SIDE_UNDECIDED : result;
}

/* The certified decision (see above): UL_SIDE_SAFE = some α reaches ε̂
 * (witness set), UL_SIDE_UNSAFE = none does, UL_SIDE_UNDECIDED = not at
 * this precision.  o->target must be set. */
static ul_side obj_decide(const objective *o, char **witness)
{
    /* the double-precision optimum first: usually decides "yes" at once */
    double beta_d = obj_search_beta(o);
    if (isfinite(beta_d) && beta_d > 0) {
        mpfi_t f;
        mpfi_init2(f, o->prec);
        mpfr_t x;
        mpfr_init2(x, 64);
        mpfr_set_d(x, 1 + beta_d, MPFR_RNDN);
        bool ok = try_witness(o, decimal_text(x, 17), f, witness);
        mpfr_clear(x);
        mpfi_clear(f);
        if (ok)
            return UL_SIDE_SAFE;
    }
    bb_stack s = {NULL, 0, 0, o->prec + 64};
    mpfr_t bl, br;
    mpfr_inits2(s.prec, bl, br, (mpfr_ptr)0);
    ul_side result = UL_SIDE_UNDECIDED;
    if (obj_tails(o, bl, br)) {
        bb_initial(&s, bl, br);
        result = bb_run(o, &s, witness);
    }
    while (s.n > 0)
        bb_pop(&s);
    free(s.box);
    mpfr_clears(bl, br, (mpfr_ptr)0);
    return result;
}

/* Copies the given enclosures into an objective at precision prec. */
static void obj_from(objective *o, mpfi_srcptr E, mpfi_srcptr const *lam, size_t count,
                     mpfi_srcptr B, mpfr_prec_t prec)
{
    obj_init(o, count, prec);
    mpfi_set(o->E, E);
    mpfi_set(o->B, B);
    for (size_t j = 0; j < count; j++)
        mpfi_set(o->lam[j], lam[j]);
    obj_doubles(o);
}

ul_side ul_langevin_min_decide(mpfi_srcptr E, mpfi_srcptr const *lam, size_t count, mpfi_srcptr B,
                               mpfi_srcptr eps, mpfr_prec_t prec, char **alpha)
{
    if (count < 1 || count > UL_LANGEVIN_MAX_REQUESTS || mpfr_sgn(&B->left) <= 0)
        return UL_SIDE_UNDECIDED;
    objective o;
    obj_from(&o, E, lam, count, B, prec);
    mpfi_set(o.target, eps);
    char *witness = NULL;
    /* F > 0 everywhere (B/(α − 1) > 0, the rest ≥ 0): eps ≤ 0 is out of reach */
    ul_side side = mpfr_sgn(&eps->right) <= 0 ? UL_SIDE_UNSAFE : obj_decide(&o, &witness);
    if (side != UL_SIDE_SAFE) {
        free(witness);
        mpfr_t x;
        mpfr_init2(x, 64);
        mpfr_set_d(x, 1 + obj_search_beta(&o), MPFR_RNDN);
        witness = decimal_text(x, 17);
        mpfr_clear(x);
    }
    if (alpha != NULL)
        *alpha = witness;
    else
        free(witness);
    obj_clear(&o);
    return side;
}

double ul_langevin_min_d(mpfi_srcptr E, mpfi_srcptr const *lam, size_t count, mpfi_srcptr B)
{
    objective o;
    obj_from(&o, E, lam, count, B, 64);
    double f = exp(obj_logf_d(&o, obj_search_beta(&o)));
    obj_clear(&o);
    return f;
}

void ul_langevin_objective_at(mpfi_ptr out, mpfi_srcptr E, mpfi_srcptr const *lam, size_t count,
                              mpfi_srcptr B, mpfi_srcptr alpha)
{
    objective o;
    obj_from(&o, E, lam, count, B, mpfi_get_prec(out));
    obj_eval(out, &o, alpha);
    obj_clear(&o);
}

/* ---- strongly convex calibrations: inputs ------------------------------------------ */

/* the ranges of the inputs: their shared declarations (num/domain.h) */

static const char *const RULE_M_LE_L =
    "m <= L: an m-strongly convex, L-smooth loss needs m <= L (Chien et al. 2024, App. B (4)-(5))";
static const char *const RULE_SC_ETA_L =
    "eta <= 1/L (Thm 3.2 case 3 and Thm 3.3 (3); Chien et al. 2024)";
static const char *const RULE_SC_ETA_M =
    "eta <= (2/m)(1 - sigma^2/(m C_LSI)) = 1/m with C_LSI = 2 sigma^2/m (Thm 3.2 case 3, "
    "Thm 3.3 (3); Chien et al. 2024, App. D)";
static const char *const RULE_SC_CLSI =
    "sigma^2/m < C_LSI = 2 sigma^2/m (Thm 3.2 case 3; Thm 3.3 (3) with C_0 = C_LSI; "
    "Chien et al. 2024, App. D, Table 1)";

static unsigned long sc_S(const ul_langevin_sc_problem *pb)
{
    return pb->S == 0 ? 1 : pb->S;
}

static unsigned long sc_T(const ul_langevin_sc_problem *pb)
{
    return pb->T == 0 ? UL_LANGEVIN_T_INF : pb->T;
}

/* Reads and checks every input, decides the preconditions exactly (into pre
 * when not NULL) and fails naming the flag of the first one that fails. */
static ul_status sc_validate(const ul_langevin_sc_problem *pb, const char *sigma, const char *eps,
                             ul_preconditions *pre, char *err, size_t errlen)
{
    ul_num_init();
    if (pre != NULL)
        ul_pre_clear(pre);
    if (pb == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "problem: missing");
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = ul_num_read_domain(x, &ul_domain_dataset_size, "n", pb->n, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_positive, "m", pb->m, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_positive, "L", pb->L, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_positive, "M", pb->M, err, errlen);
    if (st == UL_OK && pb->eta != NULL)
        st = ul_num_read_domain(x, &ul_domain_positive, "eta", pb->eta, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_delta, "delta", pb->delta, err, errlen);
    if (st == UL_OK && sigma != NULL)
        st = ul_num_read_domain(x, &ul_domain_positive, "sigma", sigma, err, errlen);
    if (st == UL_OK && eps != NULL)
        st = ul_num_read_domain(x, &ul_domain_eps_renyi_pos, "eps", eps, err, errlen);
    mpfi_clear(x);
    if (st == UL_OK && pb->rate != UL_VARIANT_CORRECTED && pb->rate != UL_VARIANT_PRINTED)
        st = ul_fail(err, errlen, UL_EINPUT, "rate: must be printed or corrected");
    if (st != UL_OK)
        return st;

    /* the preconditions are decided on exact rationals: each input must
     * read as one (the limits of num/input.h; L > 0 then makes 1/L exact) */
    mpq_t qn, qm, qL, qe, t;
    mpq_inits(qn, qm, qL, qe, t, (mpq_ptr)0);
    st = ul_num_read_exact(qn, "n", pb->n, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_exact(qm, "m", pb->m, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_exact(qL, "L", pb->L, err, errlen);
    if (st == UL_OK && pb->eta != NULL)
        st = ul_num_read_exact(qe, "eta", pb->eta, err, errlen);
    else if (st == UL_OK)
        mpq_inv(qe, qL); /* η = 1/L exactly */
    if (st != UL_OK) {
        mpq_clears(qn, qm, qL, qe, t, (mpq_ptr)0);
        return st;
    }
    mpq_set_ui(t, sc_S(pb), 1);
    if (mpq_cmp(t, qn) > 0)
        st = ul_fail(err, errlen, UL_EINPUT, "S: must be at most n (got %lu)", sc_S(pb));
    bool m_le_L = mpq_cmp(qm, qL) <= 0;
    mpq_mul(t, qe, qL);
    bool eta_L = mpq_cmp_ui(t, 1, 1) <= 0;
    mpq_mul(t, qe, qm);
    int em = mpq_cmp_ui(t, 1, 1);
    bool eta_m = em <= 0;
    ul_pre_add(pre, "m_le_L", RULE_M_LE_L, state_of(m_le_L));
    ul_pre_add(pre, "eta_le_1_over_L", RULE_SC_ETA_L, state_of(eta_L));
    ul_pre_add(pre, "eta_le_sc_bound", RULE_SC_ETA_M, state_of(eta_m));
    ul_pre_add(pre, "sigma2_over_m_lt_C_LSI", RULE_SC_CLSI, UL_PRE_HOLDS);
    if (st == UL_OK && !m_le_L)
        st = ul_fail(err, errlen, UL_EINPUT, "m: precondition m_le_L fails: %s", RULE_M_LE_L);
    if (st == UL_OK && !eta_L)
        st = ul_fail(err, errlen, UL_EINPUT, "eta: precondition eta_le_1_over_L fails: %s",
                     RULE_SC_ETA_L);
    if (st == UL_OK && !eta_m)
        st = ul_fail(err, errlen, UL_EINPUT, "eta: precondition eta_le_sc_bound fails: %s",
                     RULE_SC_ETA_M);
    mpq_clears(qn, qm, qL, qe, t, (mpq_ptr)0);
    return st;
}

/* The checks every strongly-convex entry point opens with, in the order the
 * messages depend on: sc_validate, then the inputs the entry point needs
 * (need_sigma, need_eps) must be given, then K ≤ UL_LANGEVIN_MAX_K (pass
 * K = 0 where the entry point takes no K).  The first failure wins. */
static ul_status sc_validate_entry(const ul_langevin_sc_problem *pb, const char *sigma,
                                   const char *eps, bool need_sigma, bool need_eps, unsigned long K,
                                   ul_preconditions *pre, char *err, size_t errlen)
{
    ul_status st = sc_validate(pb, sigma, eps, pre, err, errlen);
    if (st == UL_OK && need_sigma && sigma == NULL)
        st = ul_fail(err, errlen, UL_EINPUT, "sigma: missing");
    if (st == UL_OK && need_eps && eps == NULL)
        st = ul_fail(err, errlen, UL_EINPUT, "eps: missing");
    if (st == UL_OK && K > UL_LANGEVIN_MAX_K)
        st = ul_fail(err, errlen, UL_EINPUT, "K: must be at most %lu", UL_LANGEVIN_MAX_K);
    return st;
}

/* The σ-independent constants at working precision p:
 *   G = ε0·σ²/α = 4S²M²/(m n²)·(1 − e^{−mηT})     (Thm 3.3 (3), Alg. 8)
 *   R = mη (2σ²η/C_LSI with C_LSI = 2σ²/m, App. D; printed = corrected here)
 *   B = log(1/δ),  target = ε̂. */
typedef struct {
    mpfr_prec_t prec;
    mpfi_t G, R, B, target;
} sc_reading;

static void sc_read(sc_reading *rd, const ul_langevin_sc_problem *pb, const char *eps,
                    mpfr_prec_t p)
{
    mpfr_prec_t w = p + 32;
    rd->prec = p;
    mpfi_init2(rd->G, p);
    mpfi_init2(rd->R, p);
    mpfi_init2(rd->B, p);
    mpfi_init2(rd->target, p);
    mpfi_t n, m, L, M, eta, t;
    mpfi_init2(n, w), mpfi_init2(m, w), mpfi_init2(L, w), mpfi_init2(M, w);
    mpfi_init2(eta, w), mpfi_init2(t, w);
    ul_num_set_valid(n, pb->n); /* all checked by sc_validate */
    ul_num_set_valid(m, pb->m);
    ul_num_set_valid(L, pb->L);
    ul_num_set_valid(M, pb->M);
    if (pb->eta != NULL)
        ul_num_set_valid(eta, pb->eta);
    else
        mpfi_ui_div(eta, 1, L);
    mpfi_mul_ui(t, M, sc_S(pb));
    mpfi_div(t, t, n);
    mpfi_sqr(t, t);
    mpfi_mul_2ui(t, t, 2);
    mpfi_div(t, t, m);
    if (sc_T(pb) != UL_LANGEVIN_T_INF) {
        mpfi_t f;
        mpfi_init2(f, w);
        mpfi_mul(f, m, eta);
        mpfi_mul_ui(f, f, sc_T(pb));
        mpfi_neg(f, f);
        mpfi_expm1(f, f);
        mpfi_neg(f, f);
        mpfi_mul(t, t, f);
        mpfi_clear(f);
    }
    mpfi_set(rd->G, t);
    mpfi_mul(rd->R, m, eta); /* R = ηm: printed and corrected coincide (no erratum in case 3) */
    ul_num_set_valid(t, pb->delta);
    mpfi_log(t, t);
    mpfi_neg(rd->B, t);
    if (eps != NULL)
        ul_num_set_valid(rd->target, eps);
    else
        mpfi_set_ui(rd->target, 0);
    mpfi_clear(n), mpfi_clear(m), mpfi_clear(L), mpfi_clear(M);
    mpfi_clear(eta), mpfi_clear(t);
}

static void sc_reading_clear(sc_reading *rd)
{
    mpfi_clear(rd->G);
    mpfi_clear(rd->R);
    mpfi_clear(rd->B);
    mpfi_clear(rd->target);
}

/* The objective of `count` requests with K_j = Ks[j], at σ = sigma. */
static void sc_objective(objective *o, const sc_reading *rd, mpfi_srcptr sigma, size_t count,
                         const unsigned long *Ks)
{
    obj_init(o, count, rd->prec);
    mpfi_sqr(o->E, sigma);
    mpfi_div(o->E, rd->G, o->E);
    mpfi_set(o->B, rd->B);
    mpfi_set(o->target, rd->target);
    for (size_t j = 0; j < count; j++)
        mpfi_mul_ui(o->lam[j], rd->R, Ks[j]);
    obj_doubles(o);
}

static void sc_objective_text(objective *o, const sc_reading *rd, const char *sigma, size_t count,
                              const unsigned long *Ks)
{
    mpfi_t s;
    mpfi_init2(s, rd->prec + 16);
    ul_num_set_valid(s, sigma);
    sc_objective(o, rd, s, count, Ks);
    mpfi_clear(s);
}

/* ---- strongly convex calibrations: evaluation at a chosen α ------------------------- */

typedef struct {
    const ul_langevin_sc_problem *pb;
    const char *sigma;
    size_t count;
    const unsigned long *Ks;
    const char *alpha;
} sc_eval_ctx;

/* One round of ul_num_adaptive_eval: F at the decimal α, at out's precision. */
static ul_status sc_eval(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const sc_eval_ctx *c = ctx;
    sc_reading rd;
    sc_read(&rd, c->pb, NULL, mpfi_get_prec(out->enclosure) + 16);
    objective o;
    sc_objective_text(&o, &rd, c->sigma, c->count, c->Ks);
    obj_eval_text(out->enclosure, &o, c->alpha);
    out->is_log = false;
    obj_clear(&o);
    sc_reading_clear(&rd);
    return UL_OK;
}

/* A decimal α near the double-precision optimum of F for these K (12
 * significant digits), or NULL. */
static char *sc_search_alpha(const ul_langevin_sc_problem *pb, const char *sigma, size_t count,
                             const unsigned long *Ks, int digits)
{
    sc_reading rd;
    sc_read(&rd, pb, NULL, 128);
    objective o;
    sc_objective_text(&o, &rd, sigma, count, Ks);
    double beta = obj_search_beta(&o);
    obj_clear(&o);
    sc_reading_clear(&rd);
    if (!(beta > 0) || !isfinite(beta))
        return NULL;
    mpfr_t x;
    mpfr_init2(x, 64);
    mpfr_set_d(x, 1 + beta, MPFR_RNDN);
    char *text = decimal_text(x, digits);
    mpfr_clear(x);
    return text;
}

static ul_status copy_alpha(char *alpha_out, size_t alpha_len, const char *text, char *err,
                            size_t errlen)
{
    if (alpha_out == NULL || alpha_len < UL_LANGEVIN_ALPHA_TEXT_LEN)
        return ul_fail(err, errlen, UL_EINPUT, "alpha_out: needs room for %d characters",
                       UL_LANGEVIN_ALPHA_TEXT_LEN);
    if (strlen(text) + 1 > alpha_len)
        return ul_fail(err, errlen, UL_ECAP,
                       "alpha: the chosen order needs more than %zu characters", alpha_len - 1);
    memcpy(alpha_out, text, strlen(text) + 1);
    return UL_OK;
}

ul_status ul_langevin_sc_eps_certified(const ul_langevin_sc_problem *pb, const char *sigma,
                                       unsigned long K, const ul_num_precision *want,
                                       ul_num_value *eps, char *alpha_out, size_t alpha_len,
                                       ul_preconditions *pre, ul_num_report *rep, char *err,
                                       size_t errlen)
{
    ul_num_report local_rep;
    if (rep == NULL)
        rep = &local_rep;
    ul_status st = sc_validate_entry(pb, sigma, NULL, true, false, K, pre, err, errlen);
    if (st != UL_OK)
        return st;
    char *text = sc_search_alpha(pb, sigma, 1, &K, 12);
    if (text == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "alpha: the search found no usable order");
    st = copy_alpha(alpha_out, alpha_len, text, err, errlen);
    free(text);
    if (st != UL_OK)
        return st;
    sc_eval_ctx c = {pb, sigma, 1, &K, alpha_out};
    return ul_num_adaptive_eval(sc_eval, &c, want, eps, rep, err, errlen);
}

/* ---- least K ------------------------------------------------------------------------ */

typedef struct {
    const ul_langevin_sc_problem *pb;
    const char *sigma, *eps;
    size_t count;      /* requests; the last K is searched */
    unsigned long *Ks; /* count entries */
    mpfr_prec_t cap;
    char *witness; /* α of the last "reaches" decision, for witness_k */
    unsigned long witness_k;
    mpfr_prec_t bits_used;
} ksearch;

/* Certified "ε_DP ≤ ε̂ after K steps of the last request?", raising the
 * precision while undecided. */
static ul_side ks_decide(ksearch *ks, unsigned long K)
{
    ks->Ks[ks->count - 1] = K;
    for (mpfr_prec_t p = 96;; p = 2 * p > ks->cap ? ks->cap : 2 * p) {
        sc_reading rd;
        sc_read(&rd, ks->pb, ks->eps, p);
        objective o;
        sc_objective_text(&o, &rd, ks->sigma, ks->count, ks->Ks);
        char *wit = NULL;
        ul_side side = obj_decide(&o, &wit);
        obj_clear(&o);
        sc_reading_clear(&rd);
        if (p > ks->bits_used)
            ks->bits_used = p;
        if (side == UL_SIDE_SAFE) {
            free(ks->witness);
            ks->witness = wit;
            ks->witness_k = K;
        } else {
            free(wit);
        }
        if (side != UL_SIDE_UNDECIDED || p >= ks->cap)
            return side;
    }
}

/* The least K in doubles (a guess; certified afterwards). */
static unsigned long ks_guess(ksearch *ks)
{
    ks->Ks[ks->count - 1] = 0;
    sc_reading rd;
    sc_read(&rd, ks->pb, ks->eps, 64);
    objective o;
    sc_objective_text(&o, &rd, ks->sigma, ks->count, ks->Ks);
    double r = mid_d(rd.R), lt = log(mid_d(rd.target));
    unsigned long lo = 0, hi = 1, K = 0;
#define KS_REACHES(k)                                                                              \
    (o.lamd[ks->count - 1] = (double)(k)*r, obj_logf_d(&o, obj_search_beta(&o)) <= lt)
    if (KS_REACHES(0)) {
        K = 0;
    } else {
        while (!KS_REACHES(hi) && hi < UL_LANGEVIN_MAX_K) {
            lo = hi;
            hi = 2 * hi > UL_LANGEVIN_MAX_K ? UL_LANGEVIN_MAX_K : 2 * hi;
        }
        while (hi - lo > 1) {
            unsigned long mid = lo + (hi - lo) / 2;
            if (KS_REACHES(mid))
                hi = mid;
            else
                lo = mid;
        }
        K = hi;
    }
#undef KS_REACHES
    obj_clear(&o);
    sc_reading_clear(&rd);
    return K;
}

/* The least K with certified decisions on both sides, galloping from the
 * guess: lo is certified not to reach, hi certified to reach, and the
 * bound decreases in K (e^{−KR/α} decreases), so hi is the least. */
static ul_status ks_least(ksearch *ks, unsigned long *K, char *err, size_t errlen)
{
    unsigned long g = ks_guess(ks), lo = 0, hi = 0;
    bool have_lo = false;
    ul_side s = ks_decide(ks, g);
    if (s == UL_SIDE_UNDECIDED)
        goto cap;
    if (s == UL_SIDE_SAFE) {
        hi = g;
        for (unsigned long step = 1; hi > 0; step *= 2) {
            unsigned long c = hi > step ? hi - step : 0;
            s = ks_decide(ks, c);
            if (s == UL_SIDE_UNDECIDED)
                goto cap;
            if (s == UL_SIDE_SAFE) {
                hi = c;
            } else {
                lo = c;
                have_lo = true;
                break;
            }
        }
    } else {
        lo = g;
        have_lo = true;
        for (unsigned long step = 1;; step *= 2) {
            if (lo >= UL_LANGEVIN_MAX_K)
                return ul_fail(err, errlen, UL_ENOROOT,
                               "eps: not reached within K = %lu unlearning steps",
                               UL_LANGEVIN_MAX_K);
            unsigned long c = UL_LANGEVIN_MAX_K - lo > step ? lo + step : UL_LANGEVIN_MAX_K;
            s = ks_decide(ks, c);
            if (s == UL_SIDE_UNDECIDED)
                goto cap;
            if (s == UL_SIDE_SAFE) {
                hi = c;
                break;
            }
            lo = c;
        }
    }
    while (have_lo && hi - lo > 1) {
        unsigned long mid = lo + (hi - lo) / 2;
        s = ks_decide(ks, mid);
        if (s == UL_SIDE_UNDECIDED)
            goto cap;
        if (s == UL_SIDE_SAFE)
            hi = mid;
        else
            lo = mid;
    }
    *K = hi;
    ks->Ks[ks->count - 1] = hi;
    return UL_OK;
cap:
    return ul_fail(err, errlen, UL_ECAP,
                   "could not decide within %ld bits whether eps is reached (the target is "
                   "within rounding of the bound)",
                   (long)ks->cap);
}

static void ks_init(ksearch *ks, const ul_langevin_sc_problem *pb, const char *sigma,
                    const char *eps, size_t count, unsigned long *Ks, const ul_num_precision *want)
{
    ks->pb = pb;
    ks->sigma = sigma;
    ks->eps = eps;
    ks->count = count;
    ks->Ks = Ks;
    ks->cap = want != NULL ? ul_num_max_bits(want) : UL_NUM_DEFAULT_MAX_BITS;
    ks->witness = NULL;
    ks->witness_k = 0;
    ks->bits_used = 0;
}

ul_status ul_langevin_sc_least_k(const ul_langevin_sc_problem *pb, const char *sigma,
                                 const char *eps, const ul_num_precision *want, unsigned long *K,
                                 ul_num_value *eps_reached, char *alpha_out, size_t alpha_len,
                                 ul_preconditions *pre, ul_num_report *rep, char *err,
                                 size_t errlen)
{
    ul_num_report local_rep;
    if (rep == NULL)
        rep = &local_rep;
    ul_status st = sc_validate_entry(pb, sigma, eps, true, true, 0, pre, err, errlen);
    if (st == UL_OK && (alpha_out == NULL || alpha_len < UL_LANGEVIN_ALPHA_TEXT_LEN))
        st = ul_fail(err, errlen, UL_EINPUT, "alpha_out: needs room for %d characters",
                     UL_LANGEVIN_ALPHA_TEXT_LEN);
    if (st != UL_OK)
        return st;
    unsigned long Ks[1] = {0};
    ksearch ks;
    ks_init(&ks, pb, sigma, eps, 1, Ks, want);
    st = ks_least(&ks, K, err, errlen);
    if (st != UL_OK) {
        free(ks.witness);
        return st;
    }
    /* Report the bound at a short α near the optimum; it must be ≤ ε̂ (else
     * a longer one, else the certified witness). */
    mpfi_t target;
    mpfi_init2(target, 64);
    st = UL_ECAP;
    for (int attempt = 0; attempt < 3; attempt++) {
        char *text = attempt < 2 ? sc_search_alpha(pb, sigma, 1, Ks, attempt == 0 ? 12 : 17)
                     : ks.witness_k == *K && ks.witness != NULL ? strdup(ks.witness)
                                                                : NULL;
        if (text == NULL)
            continue;
        st = copy_alpha(alpha_out, alpha_len, text, err, errlen);
        free(text);
        if (st != UL_OK)
            continue;
        sc_eval_ctx c = {pb, sigma, 1, Ks, alpha_out};
        st = ul_num_adaptive_eval(sc_eval, &c, want, eps_reached, rep, err, errlen);
        if (st != UL_OK && st != UL_ECAP)
            break;
        mpfi_set_prec(target, mpfi_get_prec(eps_reached->enclosure));
        ul_num_set_valid(target, eps);
        if (mpfr_lessequal_p(&eps_reached->enclosure->right, &target->left))
            break;
        st = UL_ECAP;
    }
    if (st == UL_ECAP && !(rep->cap_hit))
        ul_fail(err, errlen, UL_ECAP, "alpha: no short order certifies the bound");
    mpfi_clear(target);
    free(ks.witness);
    if (rep != NULL && ks.bits_used > rep->bits_used)
        rep->bits_used = ks.bits_used;
    return st;
}

/* ---- smallest σ ---------------------------------------------------------------------- */

typedef struct {
    const ul_langevin_sc_problem *pb;
    const char *eps;
    unsigned long K;
    bool have;
    sc_reading rd;
} sigma_search;

/* x = σ: safe when some α reaches ε̂ (ε_DP decreases in σ: E ∝ 1/σ²). */
static ul_side classify_sigma(mpfr_srcptr x, mpfr_prec_t p, void *ctx)
{
    sigma_search *s = ctx;
    if (s->have && s->rd.prec != p) {
        sc_reading_clear(&s->rd);
        s->have = false;
    }
    if (!s->have) {
        sc_read(&s->rd, s->pb, s->eps, p);
        s->have = true;
    }
    mpfi_t sig;
    mpfi_init2(sig, mpfr_get_prec(x));
    mpfi_set_fr(sig, x); /* exact */
    objective o;
    sc_objective(&o, &s->rd, sig, 1, &s->K);
    ul_side side = obj_decide(&o, NULL);
    obj_clear(&o);
    mpfi_clear(sig);
    return side;
}

/* ---- smallest σ: searched without enclosures, certified at the two ends ---------------
 *
 * For one request, F(α, σ) = A(α)/σ² + B/(α − 1) with A(α) = G·α·e^{−Λ/α}
 * (G, Λ = K·R, B of sc_reading; Thm 3.2 case 3, Thm 3.3 (3), Prop L.2), so
 * for u = α − 1 > B/ε̂
 *   F(α, σ) ≤ ε̂  ⟺  σ² ≥ A(α)/(ε̂ − B/u),
 * and σ*² = G·min_α e^{h(α)} (docs/langevin.md, "Strongly convex closed form"), with
 *   h   = log α − Λ/α − log(ε̂ − B/u),
 *   h'  = 1/α + Λ/α² − B/(u(ε̂u − B)),
 *   h'' = −1/α² − 2Λ/α³ + B(2ε̂u − B)/(u(ε̂u − B))².
 * The minimiser is located in doubles (t = log(ε̂u/B − 1), d_argmin) and polished by Newton's method on h' = 0 in MPFR rounded to
 * nearest: doubles alone give σ* to 16 digits, and the bracket asks for
 * want->digits.  This estimate decides nothing: the bisection of
 * ul_num_bracket_threshold runs against it, and only its two final ends
 * are classified with enclosures (classify_sigma), once each.  Should
 * either certification fail (the estimate landed on the wrong side of a
 * midpoint), the fully certified bisection runs instead. */

typedef struct {
    double Lam, B, eps; /* Λ, B, ε̂ in doubles */
} sigma_model;

/* h at t = log(ε̂u/B − 1) in doubles (for d_argmin); ε̂ − B/u = ε̂·e^t/(1 + e^t). */
static double sigma_h_d(const void *ctx, double t)
{
    const sigma_model *md = ctx;
    double u = md->B / md->eps * (1 + exp(t)), a = 1 + u;
    double r = log(a) - md->Lam / a - (log(md->eps) + t - log1p(exp(t)));
    return isnan(r) ? INFINITY : r;
}

/* One Newton step on h' = 0 (formulas above), in place on alpha; false when
 * it leaves the domain u > B/ε̂ or is not a number. */
static bool sigma_newton_step(mpfr_ptr alpha, mpfr_srcptr Lam, mpfr_srcptr B, mpfr_srcptr eps,
                              mpfr_ptr step)
{
    mpfr_prec_t p = mpfr_get_prec(alpha);
    mpfr_t u, D, a2, h1, h2, t;
    mpfr_inits2(p, u, D, a2, h1, h2, t, (mpfr_ptr)0);
    mpfr_sub_ui(u, alpha, 1, MPFR_RNDN);
    mpfr_mul(D, eps, u, MPFR_RNDN);
    mpfr_sub(D, D, B, MPFR_RNDN);
    mpfr_mul(D, D, u, MPFR_RNDN); /* u(ε̂u − B) */
    mpfr_sqr(a2, alpha, MPFR_RNDN);
    mpfr_div(h1, Lam, a2, MPFR_RNDN);
    mpfr_ui_div(t, 1, alpha, MPFR_RNDN);
    mpfr_add(h1, h1, t, MPFR_RNDN);
    mpfr_div(t, B, D, MPFR_RNDN);
    mpfr_sub(h1, h1, t, MPFR_RNDN); /* h' */
    mpfr_mul(t, eps, u, MPFR_RNDN);
    mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
    mpfr_sub(t, t, B, MPFR_RNDN);
    mpfr_mul(t, t, B, MPFR_RNDN);
    mpfr_div(t, t, D, MPFR_RNDN);
    mpfr_div(h2, t, D, MPFR_RNDN); /* B(2ε̂u − B)/D² */
    mpfr_ui_div(t, 1, a2, MPFR_RNDN);
    mpfr_sub(h2, h2, t, MPFR_RNDN);
    mpfr_div(t, Lam, a2, MPFR_RNDN);
    mpfr_div(t, t, alpha, MPFR_RNDN);
    mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
    mpfr_sub(h2, h2, t, MPFR_RNDN); /* h'' */
    mpfr_div(step, h1, h2, MPFR_RNDN);
    mpfr_sub(t, alpha, step, MPFR_RNDN);
    bool ok = mpfr_number_p(t) && mpfr_sgn(D) > 0 && mpfr_sgn(h2) > 0;
    if (ok) {
        mpfr_sub_ui(u, t, 1, MPFR_RNDN);
        mpfr_mul(u, u, eps, MPFR_RNDN);
        ok = mpfr_greater_p(u, B); /* still ε̂u > B */
    }
    if (ok)
        mpfr_set(alpha, t, MPFR_RNDN);
    mpfr_clears(u, D, a2, h1, h2, t, (mpfr_ptr)0);
    return ok;
}

/* out = σ̂ = √(A(α)/(ε̂ − B/u)) at the polished α, at out's precision (an
 * estimate, rounded to nearest); false when none was found. */
static bool sigma_estimate(mpfr_ptr out, const ul_langevin_sc_problem *pb, const char *eps,
                           unsigned long K)
{
    mpfr_prec_t p = mpfr_get_prec(out);
    sc_reading rd;
    sc_read(&rd, pb, eps, p + 32);
    mpfr_t G, Lam, B, e, alpha, step, t;
    mpfr_inits2(p + 32, G, Lam, B, e, alpha, step, t, (mpfr_ptr)0);
    mpfi_mid(G, rd.G);
    mpfi_mid(Lam, rd.R);
    mpfr_mul_ui(Lam, Lam, K, MPFR_RNDN);
    mpfi_mid(B, rd.B);
    mpfi_mid(e, rd.target);
    sc_reading_clear(&rd);
    sigma_model md = {mpfr_get_d(Lam, MPFR_RNDN), mpfr_get_d(B, MPFR_RNDN),
                      mpfr_get_d(e, MPFR_RNDN)};
    double tm = d_argmin(sigma_h_d, &md, -30, 60, 0.25); /* the minimiser, in doubles */
    bool ok = isfinite(sigma_h_d(&md, tm)) && md.B > 0 && md.eps > 0;
    mpfr_set_d(alpha, 1 + md.B / md.eps * (1 + exp(tm)), MPFR_RNDN);
    for (int it = 0; ok && it < 64; it++) {
        ok = sigma_newton_step(alpha, Lam, B, e, step);
        mpfr_div(step, step, alpha, MPFR_RNDN);
        if (ok && (mpfr_zero_p(step) || mpfr_get_exp(step) < -(mpfr_exp_t)(p + 8)))
            break;
    }
    if (ok) {
        mpfr_sub_ui(t, alpha, 1, MPFR_RNDN);
        mpfr_div(t, B, t, MPFR_RNDN);
        mpfr_sub(e, e, t, MPFR_RNDN); /* ε̂ − B/u */
        mpfr_div(t, Lam, alpha, MPFR_RNDN);
        mpfr_neg(t, t, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_mul(t, t, alpha, MPFR_RNDN);
        mpfr_mul(t, t, G, MPFR_RNDN); /* A(α) */
        mpfr_div(t, t, e, MPFR_RNDN);
        mpfr_sqrt(out, t, MPFR_RNDN);
        ok = mpfr_number_p(out) && mpfr_sgn(out) > 0;
    }
    mpfr_clears(G, Lam, B, e, alpha, step, t, (mpfr_ptr)0);
    return ok;
}

/* The side of x against the estimate σ̂ (ctx): a search, not a decision. */
static ul_side classify_sigma_estimate(mpfr_srcptr x, mpfr_prec_t p, void *ctx)
{
    (void)p;
    return mpfr_less_p(x, (mpfr_srcptr)ctx) ? UL_SIDE_UNSAFE : UL_SIDE_SAFE;
}

/* Whether classify_sigma certifies `expect` at x, the precision doubling
 * from `start` to `cap` while undecided; *bits gets the highest used. */
static bool sigma_certify(sigma_search *s, mpfr_srcptr x, ul_side expect, mpfr_prec_t start,
                          mpfr_prec_t cap, mpfr_prec_t *bits)
{
    for (mpfr_prec_t p = start < cap ? start : cap;; p = 2 * p < cap ? 2 * p : cap) {
        ul_side side = classify_sigma(x, p, s);
        if (p > *bits)
            *bits = p;
        if (side != UL_SIDE_UNDECIDED || p >= cap)
            return side == expect;
    }
}

/* The bracket of σ* from the estimate, both ends certified; false when the
 * estimate or a certification fails (the caller then bisects with
 * certified decisions throughout). */
static bool sigma_bracket_fast(sigma_search *s, const ul_num_precision *want, mpfr_ptr safe,
                               mpfr_ptr unsafe, ul_num_report *rep)
{
    mpfr_t est;
    mpfr_init2(est, (mpfr_prec_t)(want->digits * 3.33) + 64);
    bool ok = sigma_estimate(est, s->pb, s->eps, s->K);
    char e2[256];
    if (ok)
        ok = ul_num_bracket_threshold(classify_sigma_estimate, est, true, want, safe, unsafe, rep,
                                      e2, sizeof e2) == UL_OK;
    mpfr_clear(est);
    if (ok) {
        mpfr_prec_t start = ul_num_start_bits(want, 0), cap = ul_num_max_bits(want);
        mpfr_prec_t bits = rep->bits_used;
        ok = sigma_certify(s, safe, UL_SIDE_SAFE, start, cap, &bits) &&
             sigma_certify(s, unsafe, UL_SIDE_UNSAFE, start, cap, &bits);
        rep->bits_used = bits;
    }
    return ok;
}

ul_status ul_langevin_sc_sigma_min(const ul_langevin_sc_problem *pb, const char *eps,
                                   unsigned long K, const ul_num_precision *want, mpfi_ptr sigma,
                                   ul_preconditions *pre, ul_num_report *rep, char *err,
                                   size_t errlen)
{
    ul_num_report local_rep;
    if (rep == NULL)
        rep = &local_rep;
    ul_status st = sc_validate_entry(pb, NULL, eps, false, true, K, pre, err, errlen);
    if (st != UL_OK)
        return st;
    sigma_search s = {pb, eps, K, false, {0}};
    mpfr_t safe, unsafe;
    mpfr_inits2(64, safe, unsafe, (mpfr_ptr)0);
    if (!sigma_bracket_fast(&s, want, safe, unsafe, rep))
        st = ul_num_bracket_threshold(classify_sigma, &s, true, want, safe, unsafe, rep, err,
                                      errlen);
    if (s.have)
        sc_reading_clear(&s.rd);
    if (st == UL_OK || (st == UL_ECAP && !mpfr_nan_p(unsafe))) {
        mpfr_prec_t p = mpfr_get_prec(safe) > mpfr_get_prec(unsafe) ? mpfr_get_prec(safe)
                                                                    : mpfr_get_prec(unsafe);
        mpfi_set_prec(sigma, p);
        mpfi_interv_fr(sigma, unsafe, safe); /* exact: both at precision p */
    }
    mpfr_clears(safe, unsafe, (mpfr_ptr)0);
    return st;
}

/* ---- sequential requests ------------------------------------------------------------- */

ul_status ul_langevin_sc_sequential_k(const ul_langevin_sc_problem *pb, const char *sigma,
                                      const char *eps, size_t requests, unsigned long *K_list,
                                      ul_preconditions *pre, ul_num_report *rep, char *err,
                                      size_t errlen)
{
    ul_status st = sc_validate_entry(pb, sigma, eps, true, true, 0, pre, err, errlen);
    if (st == UL_OK && (requests < 1 || requests > UL_LANGEVIN_MAX_REQUESTS))
        st = ul_fail(err, errlen, UL_EINPUT, "requests: must be between 1 and %d (got %zu)",
                     UL_LANGEVIN_MAX_REQUESTS, requests);
    if (st == UL_OK && K_list == NULL)
        st = ul_fail(err, errlen, UL_EINPUT, "K_list: missing");
    if (st != UL_OK)
        return st;
    mpfr_prec_t used = 0;
    for (size_t i = 1; i <= requests && st == UL_OK; i++) {
        ksearch ks;
        ks_init(&ks, pb, sigma, eps, i, K_list, NULL);
        unsigned long K;
        st = ks_least(&ks, &K, err, errlen);
        free(ks.witness);
        if (ks.bits_used > used)
            used = ks.bits_used;
        if (st == UL_OK)
            K_list[i - 1] = K;
        else if (st != UL_EINPUT && st != UL_ENOMEM) /* those messages say it already */
            ul_fail(err, errlen, st, "request %zu: %s", i,
                    st == UL_ENOROOT ? "eps not reached within the step limit"
                                     : "could not decide within the precision cap");
    }
    if (rep != NULL) {
        rep->bits_used = used;
        rep->cap_hit = st == UL_ECAP;
    }
    return st;
}

/* ---- non-convex and convex: ε_DP at a chosen α ---------------------------------------- */

typedef struct {
    const ul_langevin_general_problem *pb;
    char *alpha; /* filled by the first round */
    size_t alpha_len;
} general_ctx;

static unsigned long gen_T(const ul_langevin_general_problem *pb)
{
    return pb->T == 0 ? UL_LANGEVIN_T_INF : pb->T;
}

static ul_status general_eval(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    general_ctx *c = ctx;
    const ul_langevin_general_problem *pb = c->pb;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 16;
    mpfi_t n, L, M, R, eta, sigma, C0, C_lsi, delta;
    mpfi_init2(n, p), mpfi_init2(L, p), mpfi_init2(M, p), mpfi_init2(R, p);
    mpfi_init2(eta, p), mpfi_init2(sigma, p), mpfi_init2(C0, p), mpfi_init2(C_lsi, p);
    mpfi_init2(delta, p);
    ul_num_set_valid(n, pb->n); /* all checked by the caller */
    ul_num_set_valid(L, pb->L);
    ul_num_set_valid(M, pb->M);
    ul_num_set_valid(R, pb->R);
    ul_num_set_valid(eta, pb->eta);
    ul_num_set_valid(sigma, pb->sigma);
    ul_num_set_valid(C0, pb->C0);
    ul_num_set_valid(C_lsi, pb->C_lsi);
    ul_num_set_valid(delta, pb->delta);
    ul_langevin_setting s = {pb->kind, n, L, M, NULL, R, eta, sigma};
    objective o;
    obj_init(&o, 1, p);
    ul_status st = ul_langevin_eps0_slope(o.E, &s, pb->S == 0 ? 1 : pb->S, C0, gen_T(pb),
                                          pb->eps0_form, NULL, err, errlen);
    if (st == UL_OK)
        st = ul_langevin_rate_sum(o.lam[0], &s, C_lsi, pb->K, pb->rate, NULL, err, errlen);
    if (st == UL_OK) {
        mpfi_log(o.B, delta);
        mpfi_neg(o.B, o.B);
        if (c->alpha[0] == '\0') {
            obj_doubles(&o);
            double beta = obj_search_beta(&o);
            mpfr_t x;
            mpfr_init2(x, 64);
            mpfr_set_d(x, 1 + (beta > 0 && isfinite(beta) ? beta : 1), MPFR_RNDN);
            char *text = decimal_text(x, 12);
            mpfr_clear(x);
            st = copy_alpha(c->alpha, c->alpha_len, text, err, errlen);
            free(text);
        }
    }
    if (st == UL_OK) {
        obj_eval_text(out->enclosure, &o, c->alpha);
        out->is_log = false;
    }
    obj_clear(&o);
    mpfi_clear(n), mpfi_clear(L), mpfi_clear(M), mpfi_clear(R);
    mpfi_clear(eta), mpfi_clear(sigma), mpfi_clear(C0), mpfi_clear(C_lsi);
    mpfi_clear(delta);
    return st;
}

ul_status ul_langevin_general_eps_certified(const ul_langevin_general_problem *pb,
                                            const ul_num_precision *want, ul_num_value *eps,
                                            char *alpha_out, size_t alpha_len,
                                            ul_preconditions *pre, ul_num_report *rep, char *err,
                                            size_t errlen)
{
    ul_num_init();
    if (pre != NULL)
        ul_pre_clear(pre);
    if (pb == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "problem: missing");
    if (pb->kind != UL_LANGEVIN_NONCONVEX && pb->kind != UL_LANGEVIN_CONVEX)
        return ul_fail(err, errlen, UL_EINPUT, "kind: must be non-convex or convex");
    if ((pb->eps0_form != UL_VARIANT_CORRECTED && pb->eps0_form != UL_VARIANT_PRINTED) ||
        (pb->rate != UL_VARIANT_CORRECTED && pb->rate != UL_VARIANT_PRINTED))
        return ul_fail(err, errlen, UL_EINPUT, "variant: must be printed or corrected");
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = ul_num_read_domain(x, &ul_domain_dataset_size, "n", pb->n, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_nonneg, "L", pb->L, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_positive, "M", pb->M, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_nonneg, "R", pb->R, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_positive, "eta", pb->eta, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_positive, "sigma", pb->sigma, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_nonneg, "C0", pb->C0, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_positive, "C_lsi", pb->C_lsi, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_domain(x, &ul_domain_delta, "delta", pb->delta, err, errlen);
    mpfi_clear(x);
    if (st == UL_OK && pb->K > UL_LANGEVIN_MAX_K)
        st = ul_fail(err, errlen, UL_EINPUT, "K: must be at most %lu", UL_LANGEVIN_MAX_K);
    if (st != UL_OK)
        return st;
    mpq_t qn, qe, qL;
    mpq_inits(qn, qe, qL, (mpq_ptr)0);
    st = ul_num_read_exact(qn, "n", pb->n, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_exact(qe, "eta", pb->eta, err, errlen);
    if (st == UL_OK)
        st = ul_num_read_exact(qL, "L", pb->L, err, errlen);
    bool read = st == UL_OK;
    if (st == UL_OK && mpz_cmp_ui(mpq_numref(qn), pb->S == 0 ? 1 : pb->S) < 0)
        st = ul_fail(err, errlen, UL_EINPUT, "S: must be at most n (got %lu)", pb->S);
    if (read && pb->kind == UL_LANGEVIN_CONVEX) {
        static const char *const rule =
            "eta <= 2/L (Thm 3.3 convex case and Thm 3.2 case 2; Chien et al. 2024)";
        mpq_mul(qe, qe, qL);
        bool holds = mpq_cmp_ui(qe, 2, 1) <= 0;
        ul_pre_add(pre, "eta_le_2_over_L", rule, state_of(holds));
        if (st == UL_OK && !holds)
            st = ul_fail(err, errlen, UL_EINPUT, "eta: precondition eta_le_2_over_L fails: %s",
                         rule);
    }
    mpq_clears(qn, qe, qL, (mpq_ptr)0);
    if (st != UL_OK)
        return st;
    if (alpha_out == NULL || alpha_len < UL_LANGEVIN_ALPHA_TEXT_LEN)
        return ul_fail(err, errlen, UL_EINPUT, "alpha_out: needs room for %d characters",
                       UL_LANGEVIN_ALPHA_TEXT_LEN);
    alpha_out[0] = '\0';
    general_ctx c = {pb, alpha_out, alpha_len};
    ul_num_report local;
    return ul_num_adaptive_eval(general_eval, &c, want, eps, rep != NULL ? rep : &local, err,
                                errlen);
}
