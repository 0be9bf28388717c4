/* tests/test_pld_disc.c — the per-step connect-the-dots discretisation
 * (src/bounds/pld_disc.c, pld.c §1) atom by atom against an independent
 * computation: the exact CTD atom at ℓ_k is b_k + a_{k+1}, where bin k =
 * (ℓ_{k−1}, ℓ_k] with masses P_k, Q_k splits as b_k = (P_k·e^h −
 * Q_k·e^{ℓ_k})/(e^h − 1), a_k = P_k − b_k (Doroshenko et al. 2022, §3).  The
 * masses come here from mpfr_erfc, mpfr_log1p and mpfr_expm1 at 512 bits
 * (the library uses none of them per bin: double-word series, chained logs
 * and exponentials), so each stored atom must lie in [exact, exact·(1 +
 * 2^-40)]: above it (the guarantee) and not far above (the atoms are kept
 * to 2^-48).  The optimistic array (pld_opt.c) is checked by its curve:
 * below the step's δ(ε) in closed form at every ε tried, by a gap of
 * second order in h. */

#include <criterion/criterion.h>
#include <math.h>
#include <mpfr.h>

#include "bounds/pld_internal.h"

#define XP 512

typedef struct {
    mech m;
    double h;
    const char *sigma, *q; /* q NULL: the plain Gaussian */
} disc_case;

static void case_init(disc_case *c, const char *sigma, const char *q, direction dir, double h)
{
    mech *m = &c->m;
    mpfi_ptr v[] = {m->r, m->neg_r, m->q, m->omq, m->half_r, m->half_r2};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        mpfi_init2(v[i], INPUT_PREC);
    mpfi_set_str(m->r, sigma, 10);
    mpfi_ui_div(m->r, 1, m->r); /* r = 1/σ */
    m->subsampled = q != NULL;
    if (q != NULL)
        mpfi_set_str(m->q, q, 10);
    else
        mpfi_set_ui(m->q, 1);
    m->dir = dir;
    m->steps = 1;
    /* the derived enclosures (pld_internal.h) */
    mpfi_div_2ui(m->half_r, m->r, 1);
    mpfi_mul(m->half_r2, m->r, m->half_r);
    mpfi_neg(m->neg_r, m->r);
    mpfi_set_ui(m->omq, 1);
    mpfi_sub(m->omq, m->omq, m->q);
    m->rd = mpfi_get_d(m->r);
    m->qd = mpfi_get_d(m->q);
    c->h = h;
    c->sigma = sigma;
    c->q = q;
}

static void case_clear(disc_case *c)
{
    mech *m = &c->m;
    mpfi_ptr v[] = {m->r, m->neg_r, m->q, m->omq, m->half_r, m->half_r2};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        mpfi_clear(v[i]);
}

/* Φ(x) = erfc(−x/√2)/2 */
static void big_phi(mpfr_ptr out, mpfr_srcptr x)
{
    mpfr_t s;
    mpfr_init2(s, XP);
    mpfr_sqrt_ui(s, 2, MPFR_RNDN);
    mpfr_div(out, x, s, MPFR_RNDN);
    mpfr_neg(out, out, MPFR_RNDN);
    mpfr_erfc(out, out, MPFR_RNDN);
    mpfr_div_2ui(out, out, 1, MPFR_RNDN);
    mpfr_clear(s);
}

/* The noise value where the REMOVE loss is v: r/2 + log1p(expm1(v)/q)/r
 * (pld.h); −inf when v ≤ log(1 − q). */
static void x_of(mpfr_ptr x, mpfr_srcptr v, mpfr_srcptr r, mpfr_srcptr q)
{
    mpfr_expm1(x, v, MPFR_RNDN);
    mpfr_div(x, x, q, MPFR_RNDN);
    mpfr_log1p(x, x, MPFR_RNDN);
    mpfr_div(x, x, r, MPFR_RNDN);
    mpfr_t h;
    mpfr_init2(h, XP);
    mpfr_div_2ui(h, r, 1, MPFR_RNDN);
    mpfr_add(x, x, h, MPFR_RNDN);
    mpfr_clear(h);
}

/* x = (ℓ − r²/2)/r: the noise value of the Gaussian loss ℓ. */
static void gauss_x(mpfr_ptr x, mpfr_srcptr loss, mpfr_srcptr r)
{
    mpfr_sqr(x, r, MPFR_RNDN);
    mpfr_div_2ui(x, x, 1, MPFR_RNDN);
    mpfr_sub(x, loss, x, MPFR_RNDN);
    mpfr_div(x, x, r, MPFR_RNDN);
}

/* P-mass and Q-mass of N(shift, 1) between noise values a ≤ b, mixed. */
static void mix_mass(mpfr_ptr out, mpfr_srcptr a, mpfr_srcptr b, mpfr_srcptr shift)
{
    mpfr_t s, t;
    mpfr_inits2(XP, s, t, (mpfr_ptr)0);
    mpfr_sub(s, b, shift, MPFR_RNDN);
    big_phi(s, s);
    mpfr_sub(t, a, shift, MPFR_RNDN);
    big_phi(t, t);
    mpfr_sub(out, s, t, MPFR_RNDN);
    mpfr_clears(s, t, (mpfr_ptr)0);
}

/* P- and Q-mass of the losses in (l0, loss] (loss may be +∞).  Gaussian:
 * L = r²/2 + rZ under P and −r²/2 + rZ under Q.  Subsampled REMOVE:
 * Q = N(0,1), P = (1−q)N(0,1) + qN(r,1) on X ∈ (x(l0), x(ℓ)]; ADD:
 * P = N(0,1), Q = the mixture, on X ∈ [x(−ℓ), x(−l0)) (pld.h). */
static void masses_between(mpfr_ptr P, mpfr_ptr Q, const disc_case *c, mpfr_srcptr l0,
                           mpfr_srcptr loss)
{
    mpfr_t r, q, zero, a, b, t;
    mpfr_inits2(XP, r, q, zero, a, b, t, (mpfr_ptr)0);
    mpfr_set_str(r, c->sigma, 10, MPFR_RNDN);
    mpfr_ui_div(r, 1, r, MPFR_RNDN); /* r = 1/σ */
    mpfr_set_str(q, c->q != NULL ? c->q : "1", 10, MPFR_RNDN);
    mpfr_set_zero(zero, 1);
    if (!c->m.subsampled) {
        gauss_x(a, l0, r);
        gauss_x(b, loss, r);
        mix_mass(P, a, b, zero);
        mpfr_neg(t, r, MPFR_RNDN);
        mix_mass(Q, a, b, t);
    } else {
        bool add = c->m.dir == DIR_ADD;
        if (add) {
            mpfr_neg(t, loss, MPFR_RNDN);
            if (mpfr_inf_p(t))
                mpfr_set_inf(a, -1);
            else
                x_of(a, t, r, q);
            mpfr_neg(t, l0, MPFR_RNDN);
            x_of(b, t, r, q);
        } else {
            x_of(a, l0, r, q);
            x_of(b, loss, r, q);
        }
        mpfr_ptr pure = add ? P : Q, mix = add ? Q : P;
        mix_mass(pure, a, b, zero);
        mix_mass(t, a, b, r);
        mpfr_mul(t, t, q, MPFR_RNDN);
        mpfr_ui_sub(q, 1, q, MPFR_RNDN);
        mpfr_mul(mix, pure, q, MPFR_RNDN);
        mpfr_add(mix, mix, t, MPFR_RNDN);
    }
    mpfr_clears(r, q, zero, a, b, t, (mpfr_ptr)0);
}

/* P_k, Q_k of the bin (ℓ − h, ℓ]. */
static void bin_masses(mpfr_ptr P, mpfr_ptr Q, const disc_case *c, mpfr_srcptr loss)
{
    mpfr_t l0;
    mpfr_init2(l0, XP);
    mpfr_sub_d(l0, loss, c->h, MPFR_RNDN);
    masses_between(P, Q, c, l0, loss);
    mpfr_clear(l0);
}

/* b (lower = false: the part at ℓ) or a (the part at ℓ − h) of the bin (ℓ − h, ℓ]. */
static void split_part(mpfr_ptr out, const disc_case *c, mpfr_srcptr loss, bool lower)
{
    mpfr_t P, Q, eh, t;
    mpfr_inits2(XP, P, Q, eh, t, (mpfr_ptr)0);
    bin_masses(P, Q, c, loss);
    mpfr_set_d(eh, c->h, MPFR_RNDN);
    mpfr_exp(eh, eh, MPFR_RNDN);
    mpfr_exp(t, loss, MPFR_RNDN);
    mpfr_mul(t, t, Q, MPFR_RNDN);
    mpfr_mul(out, P, eh, MPFR_RNDN);
    mpfr_sub(out, out, t, MPFR_RNDN);
    mpfr_sub_ui(eh, eh, 1, MPFR_RNDN);
    mpfr_div(out, out, eh, MPFR_RNDN);
    if (lower)
        mpfr_sub(out, P, out, MPFR_RNDN);
    mpfr_clears(P, Q, eh, t, (mpfr_ptr)0);
}

/* About 300 interior atoms of c's discretisation (an odd stride, so the
 * chains' restarts fall at varying places) within [exact, exact·(1 + 2^-40)]
 * (exact to ~2^-400: 512 bits, the split losing log2(1/h)). */
static void check_atoms(disc_case *c, double tau)
{
    disc d;
    ul_pld_disc_init(&d);
    char err[256] = "";
    cr_assert_eq(ul_pld_discretise(&d, &c->m, c->h, tau, 1UL << 24, err, sizeof err), UL_OK, "%s",
                 err);
    cr_assert_gt(d.n, 64);
    mpfr_t loss, atom, t;
    mpfr_inits2(XP, loss, atom, t, (mpfr_ptr)0);
    size_t checked = 0, stride = (d.n / 300) | 1;
    for (size_t k = 1; k + 1 < d.n; k += stride) {
        mpfr_set_d(loss, d.k_lo + (double)k, MPFR_RNDN);
        mpfr_mul_d(loss, loss, c->h, MPFR_RNDN); /* ℓ_k exactly */
        split_part(atom, c, loss, false); /* b_k */
        mpfr_add_d(loss, loss, c->h, MPFR_RNDN);
        split_part(t, c, loss, true); /* a_{k+1} */
        mpfr_add(atom, atom, t, MPFR_RNDN);
        mpfr_mul_d(t, atom, 1 - 0x1p-300, MPFR_RNDN);
        cr_expect(mpfr_cmp_d(t, d.pess[k]) <= 0, "atom %zu: stored %.17g below the exact %.17g", k,
                  d.pess[k], mpfr_get_d(atom, MPFR_RNDN));
        mpfr_mul_d(t, atom, 1 + 0x1p-40, MPFR_RNDN);
        mpfr_add_d(t, t, 0x1p-1000, MPFR_RNDN);
        cr_expect(mpfr_cmp_d(t, d.pess[k]) >= 0, "atom %zu: stored %.17g far above the exact %.17g",
                  k, d.pess[k], mpfr_get_d(atom, MPFR_RNDN));
        checked++;
    }
    cr_assert_gt(checked, 30);
    mpfr_clears(loss, atom, t, (mpfr_ptr)0);
    ul_pld_disc_clear(&d);
}

static void run_case(const char *sigma, const char *q, direction dir, double h, double tau)
{
    disc_case c;
    case_init(&c, sigma, q, dir, h);
    check_atoms(&c, tau);
    case_clear(&c);
}

/* σ 1.5, q 0.04 (the DP-SGD audit case), both directions, at a grid step
 * where the double-word series and the log and φ chains carry the bins. */
Test(pld_disc, subsampled_remove_atoms_exact)
{
    run_case("1.5", "0.04", DIR_REMOVE, 0x1p-14, 1e-14);
}

Test(pld_disc, subsampled_add_atoms_exact)
{
    run_case("1.5", "0.04", DIR_ADD, 0x1p-14, 1e-14);
}

/* A large q (the loss range reaches log(1 − q) closely) and a coarse grid. */
Test(pld_disc, subsampled_coarse_atoms_exact)
{
    run_case("0.8", "0.5", DIR_REMOVE, 0x1p-9, 1e-12);
}

/* The plain Gaussian, r = 0.1 (σ = 10). */
Test(pld_disc, gaussian_atoms_exact)
{
    run_case("10", NULL, DIR_REMOVE, 0x1p-15, 1e-14);
}

/* ---- the optimistic array (pld_opt.c) ------------------------------------------- */

/* The step's δ(ε) = P[L > ε] − e^ε·Q[L > ε] in closed form (the masses above
 * the noise value of ε, mpfr_erfc at 512 bits). */
static void step_delta(mpfr_ptr out, const disc_case *c, double eps)
{
    mpfr_t P, Q, e, inf;
    mpfr_inits2(XP, P, Q, e, inf, (mpfr_ptr)0);
    mpfr_set_d(e, eps, MPFR_RNDN);
    mpfr_set_inf(inf, 1);
    masses_between(P, Q, c, e, inf);
    mpfr_exp(e, e, MPFR_RNDN);
    mpfr_mul(Q, Q, e, MPFR_RNDN);
    mpfr_sub(out, P, Q, MPFR_RNDN);
    mpfr_clears(P, Q, e, inf, (mpfr_ptr)0);
}

/* Σ_k x_k (1 − e^{ε−ℓ_k})₊: the δ(ε) of a stored array. */
static void array_delta(mpfr_ptr out, const disc *d, const double *x, double h, double eps)
{
    mpfr_t t;
    mpfr_init2(t, 160);
    mpfr_set_zero(out, 1);
    for (size_t k = 0; k < d->n; k++) {
        double l = (d->k_lo + (double)k) * h;
        if (!(l > eps) || x[k] == 0)
            continue;
        mpfr_set_d(t, eps - l, MPFR_RNDN); /* exact enough: Sterbenz-close doubles */
        mpfr_expm1(t, t, MPFR_RNDN);
        mpfr_neg(t, t, MPFR_RNDN);
        mpfr_mul_d(t, t, x[k], MPFR_RNDN);
        mpfr_add(out, out, t, MPFR_RNDN);
    }
    mpfr_clear(t);
}

/* Over ε at grid points, midpoints and off-centre points of every bin (a
 * stride of bins, the whole grid): opt's curve is ≤ the step's δ (+ its
 * slack), and the largest shortfall is returned with pess's largest excess
 * (pess's curve with the mass at +∞ ≥ δ is checked too: the CTD upper end). */
static void opt_below(const char *sigma, const char *q, direction dir, double h,
                      double *opt_gap, double *pess_gap)
{
    disc_case c;
    case_init(&c, sigma, q, dir, h);
    disc d;
    ul_pld_disc_init(&d);
    char err[256] = "";
    cr_assert_eq(ul_pld_discretise(&d, &c.m, h, 1e-13, 1UL << 24, err, sizeof err), UL_OK, "%s",
                 err);
    cr_assert_geq(d.opt_debt, 0);
    double lq = q == NULL ? -INFINITY : log1p(-atof(q)); /* REMOVE's least loss, ADD's −(top) */
    mpfr_t D, Do, Dp, t;
    mpfr_inits2(XP, D, Do, Dp, t, (mpfr_ptr)0);
    *opt_gap = *pess_gap = 0;
    const double fr[] = {0, 0.25, 0.5, 0.77};
    size_t stride = (d.n / 150) | 1, checked = 0;
    for (size_t k = 0; k + 1 < d.n; k += stride)
        for (size_t f = 0; f < 4; f++) {
            double eps = (d.k_lo + (double)k + fr[f]) * h;
            if ((dir == DIR_REMOVE && eps <= lq + 1e-9) || (dir == DIR_ADD && eps >= -lq - 1e-9))
                continue;
            step_delta(D, &c, eps);
            array_delta(Do, &d, d.opt, h, eps);
            array_delta(Dp, &d, d.pess, h, eps);
            mpfr_add(Dp, Dp, d.p_inf, MPFR_RNDN); /* the upper tail, at +∞ */
            mpfr_add_d(t, D, d.opt_debt, MPFR_RNDN);
            mpfr_mul_d(t, t, 1 + 1e-15, MPFR_RNDN); /* the 160-bit sum's rounding, generously */
            cr_expect(mpfr_lessequal_p(Do, t), "h %g eps %.17g: opt's delta %.17g above %.17g", h,
                      eps, mpfr_get_d(Do, MPFR_RNDN), mpfr_get_d(D, MPFR_RNDN));
            mpfr_mul_d(t, D, 1 - 1e-15, MPFR_RNDN);
            cr_expect(mpfr_greaterequal_p(Dp, t), "h %g eps %.17g: pess's delta %.17g below %.17g",
                      h, eps, mpfr_get_d(Dp, MPFR_RNDN), mpfr_get_d(D, MPFR_RNDN));
            mpfr_sub(t, D, Do, MPFR_RNDN);
            *opt_gap = fmax(*opt_gap, mpfr_get_d(t, MPFR_RNDN));
            mpfr_sub(t, Dp, D, MPFR_RNDN);
            *pess_gap = fmax(*pess_gap, mpfr_get_d(t, MPFR_RNDN));
            checked++;
        }
    cr_assert_gt(checked, 200);
    mpfr_clears(D, Do, Dp, t, (mpfr_ptr)0);
    ul_pld_disc_clear(&d);
    case_clear(&c);
}

/* Below, and second order: halving h divides the largest shortfall by about
 * 4 (more than 3), as it does the upper end's excess (the deficit is about
 * h·(one bin's mass), pld_opt.c), and it stays within a small multiple of
 * that excess. */
static void opt_case(const char *sigma, const char *q, direction dir, double h)
{
    double o1, p1, o2, p2;
    opt_below(sigma, q, dir, h, &o1, &p1);
    opt_below(sigma, q, dir, h / 2, &o2, &p2);
    cr_expect_gt(o1, 0);
    cr_expect_gt(o1 / o2, 3, "h %g: shortfall %.3g, at h/2 %.3g", h, o1, o2);
    cr_expect_lt(o1, 8 * p1, "h %g: shortfall %.3g, the upper end's excess %.3g", h, o1, p1);
}

Test(pld_opt, subsampled_remove_curve_below_and_second_order)
{
    opt_case("1.5", "0.04", DIR_REMOVE, 0x1p-9);
}

Test(pld_opt, subsampled_add_curve_below_and_second_order)
{
    opt_case("1.5", "0.04", DIR_ADD, 0x1p-9);
}

Test(pld_opt, large_q_curve_below_and_second_order)
{
    opt_case("0.8", "0.5", DIR_REMOVE, 0x1p-7);
}

Test(pld_opt, gaussian_curve_below_and_second_order)
{
    opt_case("2", NULL, DIR_REMOVE, 0x1p-8);
}
