/* src/bounds/langevin_problem.c — certified entry points over one whole
 * Langevin problem given as decimal text (Chien, Wang, Chen, Li,
 * arXiv:2401.10371v4; docs/langevin.md): every case of Thms
 * 3.2/3.3, sequential requests (Cor 3.4), conversion to (ε, δ) (Prop L.2).
 * These are what the "langevin" audit handler calls (audit/audit_langevin.c);
 * the mathematics is in langevin.c, which these functions only assemble:
 *
 *   ε_DP = min_{α>1} [ ε^(s)(α) + log(1/δ)/(α − 1) ],   ε0(α) = α·E,
 *   E    = ε0(α)/α of Thm 3.3 (learning run to convergence, T → ∞),
 *   Λ_j  = Σ_{k<K_j} R_k of request j (Thm 3.2, the LSI recursion run on
 *          across requests, eq. (38)),
 *   ε^(s) the recursion of Cor 3.4 (ul_langevin_min_decide).
 *
 * Searches (a least K, a σ) follow docs/design.md, "Search in doubles,
 * certify in MPFR": doubles propose, enclosures decide; the constants E and Λ_j are enclosures at 64 bits in the search
 * (the LSI recursion has no closed form) and at the decision's precision in
 * the certification.
 */
#include "bounds/langevin.h"

#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num/encl.h"
#include "num/input.h"

/* ---- exact step-size comparisons (decimals are rationals) ------------------------ */

void ul_langevin_step_cmp_of(ul_langevin_step_cmp *c, const char *L, const char *eta,
                             const char *m)
{
    mpq_t qm, qL, qe, t;
    mpq_inits(qm, qL, qe, t, (mpq_ptr)0);
    ul_num_mpq_valid(qL, L);
    if (eta != NULL)
        ul_num_mpq_valid(qe, eta);
    else
        mpq_inv(qe, qL); /* η = 1/L exactly */
    mpq_mul(t, qe, qL);
    c->eta_L = mpq_cmp_ui(t, 1, 1);
    c->eta_L2 = mpq_cmp_ui(t, 2, 1);
    c->eta_m = c->m_L = 0;
    if (m != NULL) {
        ul_num_mpq_valid(qm, m);
        c->m_L = mpq_cmp(qm, qL);
        mpq_mul(t, qe, qm);
        c->eta_m = mpq_cmp_ui(t, 1, 1);
    }
    mpq_clears(qm, qL, qe, t, (mpq_ptr)0);
}

/* ---- the constants E, Λ_j, B on enclosures ---------------------------------------- */

/* E ⊇ ε0(α)/α, lam[j] ⊇ Λ_{j+1}, B ⊇ log(1/δ) (0 when δ is not given). */
typedef struct {
    size_t count;
    mpfi_t E, B;
    mpfi_t lam[UL_LANGEVIN_MAX_REQUESTS];
    mpfi_ptr lp[UL_LANGEVIN_MAX_REQUESTS]; /* lp[j] = lam[j], for the bounds API */
} consts_t;

static void consts_init(consts_t *k, size_t count, mpfr_prec_t p)
{
    k->count = count;
    mpfi_init2(k->E, p);
    mpfi_init2(k->B, p);
    mpfi_set_ui(k->B, 0);
    for (size_t j = 0; j < count; j++) {
        mpfi_init2(k->lam[j], p);
        k->lp[j] = k->lam[j];
    }
}

static void consts_clear(consts_t *k)
{
    mpfi_clear(k->E);
    mpfi_clear(k->B);
    for (size_t j = 0; j < k->count; j++)
        mpfi_clear(k->lam[j]);
}

/* The inputs of one problem as enclosures at precision w. */
typedef struct {
    mpfi_t n, m, L, M, R, eta, sigma, C0, C;
} inputs_t;

static void inputs_read(inputs_t *x, const ul_langevin_problem *pb, const char *sigma,
                        mpfr_prec_t w)
{
    mpfi_init2(x->n, w), mpfi_init2(x->m, w), mpfi_init2(x->L, w), mpfi_init2(x->M, w);
    mpfi_init2(x->R, w), mpfi_init2(x->eta, w), mpfi_init2(x->sigma, w), mpfi_init2(x->C0, w);
    mpfi_init2(x->C, w);
    ul_num_set_valid(x->n, pb->n); /* all validated by the caller's schema */
    ul_num_set_valid(x->L, pb->L);
    ul_num_set_valid(x->M, pb->M);
    ul_num_set_valid(x->sigma, sigma);
    if (pb->eta != NULL)
        ul_num_set_valid(x->eta, pb->eta);
    else
        mpfi_ui_div(x->eta, 1, x->L);
    if (pb->kind == UL_LANGEVIN_STRONGLY_CONVEX) {
        ul_num_set_valid(x->m, pb->m);
        mpfi_sqr(x->C, x->sigma);
        mpfi_mul_2ui(x->C, x->C, 1);
        mpfi_div(x->C, x->C, x->m); /* C_LSI = C0 = 2σ²/m (App. D, Table 1) */
        mpfi_set(x->C0, x->C);
        mpfi_set_ui(x->R, 0);
    } else {
        ul_num_set_valid(x->R, pb->R);
        ul_num_set_valid(x->C0, pb->C0 != NULL ? pb->C0 : "0");
        ul_num_set_valid(x->C, pb->C_lsi);
    }
}

static void inputs_clear(inputs_t *x)
{
    mpfi_clear(x->n), mpfi_clear(x->m), mpfi_clear(x->L), mpfi_clear(x->M);
    mpfi_clear(x->R), mpfi_clear(x->eta), mpfi_clear(x->sigma), mpfi_clear(x->C0);
    mpfi_clear(x->C);
}

/* Fills *k at precision p for the point pt.  Learning is read as run to
 * convergence (T → ∞): Thm 3.2 needs the stationary law ν_D. */
static ul_status consts_fill(const ul_langevin_problem *pb, const ul_langevin_point *pt,
                             mpfr_prec_t p, consts_t *k, char *err, size_t errlen)
{
    inputs_t x;
    inputs_read(&x, pb, pt->sigma, p + 32);
    bool sc = pb->kind == UL_LANGEVIN_STRONGLY_CONVEX;
    ul_langevin_setting s = {pb->kind, x.n, x.L, x.M, sc ? x.m : NULL, sc ? NULL : x.R, x.eta,
                             x.sigma};
    unsigned long Ks[UL_LANGEVIN_MAX_REQUESTS];
    memcpy(Ks, pb->Ks, pb->count * sizeof *Ks);
    Ks[pb->count - 1] = pt->K;
    ul_status st = ul_langevin_eps0_slope(k->E, &s, pb->S, x.C0, UL_LANGEVIN_T_INF, pt->eps0_form,
                                          NULL, err, errlen);
    if (st == UL_OK)
        st = ul_langevin_rate_sums(k->lp, &s, x.C, Ks, pb->count, pt->rate, NULL, err, errlen);
    if (st == UL_OK && pb->delta != NULL) {
        ul_num_set_valid(k->B, pb->delta);
        mpfi_log(k->B, k->B);
        mpfi_neg(k->B, k->B); /* B = log(1/δ), Prop L.2 */
    }
    inputs_clear(&x);
    return st;
}

/* ---- the search model in doubles ---------------------------------------------------
 *
 * For the searches over K and σ only (never a verdict): E, B and the rate
 * sums of the earlier requests as enclosures at 64 bits, once per σ; the
 * rate sum of the last request in doubles for each K tried, by the
 * recursion of Thm 3.2 (ul_langevin_rate_sums, langevin.c):
 *   strongly convex (case 3): Λ = K·2ησ²/C_LSI;
 *   convex (case 2, A_k = C_k), below the cap C̃ (C_{k+1} = C_k + 2ησ²) the
 *     sum telescopes: Σ_{k<j} log(1 + s/(C + ks)) = log((C + js)/C) and
 *     Σ_{k<j} ½(1/(C + ks)² − 1/(C + (k+1)s)²) = ½(1/C² − 1/(C + js)²),
 *     s = 2ησ² (Thm 3.2, corrected and printed);
 *   otherwise step by step until C_{k+1} = C_k (stationary: the remaining
 *     rates are equal), A_k = (1+ηL)²C_k grows geometrically (non-convex). */
typedef struct {
    bool ok, printed, sc;
    consts_t k;            /* E, B, Λ_j of the earlier requests (64 bits) */
    double g, s2, ctil, C; /* (1+ηL)² or 1, 2ησ², C̃, C at the last request's start */
    double rate_sc;        /* 2ησ²/C_LSI (strongly convex) */
} search_model;

/* One step of the rate recursion in doubles: returns R_k, updates *C. */
static double rate_step_d(const search_model *md, double *C)
{
    double A = md->g * *C;
    double R = md->printed ? 0.5 * (1 / (A * A) - 1 / ((A + md->s2) * (A + md->s2)))
                           : log1p(md->s2 / A);
    double Cn = A + md->s2;
    *C = Cn < md->ctil ? Cn : md->ctil;
    return R;
}

/* Λ of K steps from *C in doubles (updating *C), as described above. */
static double rates_d(const search_model *md, double *C, unsigned long K)
{
    if (md->sc)
        return (double)K * md->rate_sc;
    double lam = 0;
    unsigned long k = 0;
    if (md->g == 1 && *C + md->s2 < md->ctil) { /* convex, below the cap: telescoped */
        double room = floor((md->ctil - *C) / md->s2);
        double j = (double)K < room ? (double)K : room;
        double Cj = *C + j * md->s2;
        lam = md->printed ? 0.5 * (1 / (*C * *C) - 1 / (Cj * Cj)) : log(Cj / *C);
        *C = Cj;
        k = (unsigned long)j;
    }
    for (; k < K; k++) {
        double before = *C, R = rate_step_d(md, C);
        lam += R;
        if (*C == before) {
            lam += R * (double)(K - k - 1);
            break;
        }
    }
    return lam;
}

static double mid_of(mpfi_srcptr x)
{
    return 0.5 * mpfr_get_d(&x->left, MPFR_RNDN) + 0.5 * mpfr_get_d(&x->right, MPFR_RNDN);
}

/* The model at σ = pt->sigma (pt->K is not used). */
static void model_init(search_model *md, const ul_langevin_problem *pb, const ul_langevin_point *pt)
{
    char err[256];
    ul_langevin_point p0 = *pt;
    p0.K = 0;
    consts_init(&md->k, pb->count, 64);
    md->ok = consts_fill(pb, &p0, 64, &md->k, err, sizeof err) == UL_OK;
    md->printed = pt->rate == UL_VARIANT_PRINTED;
    md->sc = pb->kind == UL_LANGEVIN_STRONGLY_CONVEX;
    inputs_t x;
    inputs_read(&x, pb, pt->sigma, 64);
    mpfi_t t, cbar, ctil;
    mpfi_init2(t, 64), mpfi_init2(cbar, 64), mpfi_init2(ctil, 64);
    mpfi_sqr(t, x.sigma);
    mpfi_mul(t, t, x.eta);
    mpfi_mul_2ui(t, t, 1); /* 2ησ² */
    md->s2 = mid_of(t);
    mpfi_div(t, t, x.C);
    md->rate_sc = mid_of(t); /* 2ησ²/C_LSI, Thm 3.2 case 3 */
    mpfi_mul(t, x.eta, x.L);
    mpfi_add_ui(t, t, 1);
    mpfi_sqr(t, t);
    md->g = pb->kind == UL_LANGEVIN_NONCONVEX ? mid_of(t) : 1;
    ul_langevin_setting s = {pb->kind, x.n, x.L, x.M, NULL, x.R, x.eta, x.sigma};
    if (!md->sc)
        ul_langevin_caps(cbar, ctil, &s);
    md->ctil = md->sc ? INFINITY : mid_of(ctil);
    md->C = mid_of(x.C);
    for (size_t j = 0; j + 1 < pb->count; j++)
        rates_d(md, &md->C, pb->Ks[j]); /* the earlier requests move C on (eq. (38)) */
    mpfi_clear(t), mpfi_clear(cbar), mpfi_clear(ctil);
    inputs_clear(&x);
}

/* min over α of the bound after K steps of the last request, in doubles
 * (NaN when the constants failed). */
static double model_min_d(search_model *md, unsigned long K)
{
    if (!md->ok)
        return NAN;
    double C = md->C;
    mpfi_set_d(md->k.lam[md->k.count - 1], rates_d(md, &C, K));
    return ul_langevin_min_d(md->k.E, (mpfi_srcptr const *)md->k.lp, md->k.count, md->k.B);
}

/* min over α of the bound at pt in doubles, or NaN on an error (search only). */
static double min_d(const ul_langevin_problem *pb, const ul_langevin_point *pt)
{
    search_model md;
    model_init(&md, pb, pt);
    double f = model_min_d(&md, pt->K);
    consts_clear(&md.k);
    return f;
}

/* ---- the (ε, δ) bound: certified decision ------------------------------------------ */

/* The bound at the decimal α `a` into f (at precision p). */
static void value_at(ul_num_value *f, const consts_t *k, const char *a, mpfr_prec_t p)
{
    mpfi_set_prec(f->enclosure, p);
    f->is_log = false;
    mpfi_t x;
    mpfi_init2(x, p + 16);
    ul_num_set_valid(x, a);
    ul_langevin_objective_at(f->enclosure, k->E, (mpfi_srcptr const *)k->lp, k->count, k->B, x);
    mpfi_clear(x);
}

ul_side ul_langevin_problem_reaches(const ul_langevin_problem *pb, const ul_langevin_point *pt,
                                    const char *eps, ul_num_value *f, char *alpha, size_t alen,
                                    ul_status *st, char *err, size_t errlen)
{
    *st = UL_OK;
    ul_side side = UL_SIDE_UNDECIDED;
    mpfr_prec_t cap = pb->max_bits;
    for (mpfr_prec_t p = cap < 128 ? cap : 128;; p = 2 * p < cap ? 2 * p : cap) {
        consts_t k;
        consts_init(&k, pb->count, p);
        *st = consts_fill(pb, pt, p, &k, err, errlen);
        mpfi_t target;
        mpfi_init2(target, p);
        char *a = NULL;
        if (*st == UL_OK) {
            ul_num_set_valid(target, eps);
            side = ul_langevin_min_decide(k.E, (mpfi_srcptr const *)k.lp, k.count, k.B, target, p,
                                          &a);
        }
        bool last = *st != UL_OK || side != UL_SIDE_UNDECIDED || p >= cap;
        if (last && a != NULL) {
            if (alpha != NULL)
                snprintf(alpha, alen, "%s", a);
            if (f != NULL)
                value_at(f, &k, a, p);
        }
        free(a);
        mpfi_clear(target);
        consts_clear(&k);
        if (last)
            return *st == UL_OK ? side : UL_SIDE_UNDECIDED;
    }
}

/* ---- least K of the last request ------------------------------------------------- */

/* The least K in doubles: *hi_out reaches eps in the model (ε_DP decreases
 * in K: every R_k > 0), K − 1 does not; UL_ENOROOT beyond 2^40. */
static ul_status least_k_guess(search_model *md, double target, unsigned long *hi_out)
{
    unsigned long lo = 0, hi = 1;
    if (model_min_d(md, 0) <= target) {
        *hi_out = 0;
        return UL_OK;
    }
    while (!(model_min_d(md, hi) <= target)) {
        lo = hi;
        if (hi >= (1UL << 40))
            return UL_ENOROOT;
        hi *= 2;
    }
    while (hi - lo > 1) {
        unsigned long mid = lo + (hi - lo) / 2;
        if (model_min_d(md, mid) <= target)
            hi = mid;
        else
            lo = mid;
    }
    *hi_out = hi;
    return UL_OK;
}

ul_status ul_langevin_problem_least_k(const ul_langevin_problem *pb, const char *sigma,
                                      const char *eps, unsigned long *K, char *err, size_t errlen)
{
    ul_langevin_point pt = {sigma, 0, UL_VARIANT_CORRECTED, UL_VARIANT_CORRECTED};
    unsigned long hi = 0;
    search_model md;
    model_init(&md, pb, &pt);
    ul_status st = least_k_guess(&md, strtod(eps, NULL), &hi);
    consts_clear(&md.k);
    if (st != UL_OK)
        return st;
    /* certify: hi reaches eps, hi − 1 does not (stepping where doubles erred) */
    for (int tries = 0; tries < 64; tries++) {
        pt.K = hi;
        ul_side s = ul_langevin_problem_reaches(pb, &pt, eps, NULL, NULL, 0, &st, err, errlen);
        if (st != UL_OK)
            return st;
        if (s == UL_SIDE_UNDECIDED)
            return UL_ECAP;
        if (s == UL_SIDE_UNSAFE) {
            hi++;
            continue;
        }
        if (hi == 0) {
            *K = 0;
            return UL_OK;
        }
        pt.K = hi - 1;
        s = ul_langevin_problem_reaches(pb, &pt, eps, NULL, NULL, 0, &st, err, errlen);
        if (st != UL_OK)
            return st;
        if (s == UL_SIDE_UNDECIDED)
            return UL_ECAP;
        if (s == UL_SIDE_UNSAFE) {
            *K = hi;
            return UL_OK;
        }
        hi--;
    }
    return UL_ECAP;
}

/* ---- a σ that reaches the claim ---------------------------------------------------- */

bool ul_langevin_problem_sigma(const ul_langevin_problem *pb, unsigned long K, const char *sigma0,
                               const char *eps, char *out, size_t len)
{
    char text[64];
    ul_langevin_point pt = {text, K, UL_VARIANT_CORRECTED, UL_VARIANT_CORRECTED};
    double target = strtod(eps, NULL), lo = log(strtod(sigma0, NULL)), hi = lo;
    bool found = false;
    for (int i = 0; i < 40 && !found; i++) {
        hi += log(2.0);
        snprintf(text, sizeof text, "%.6e", exp(hi));
        found = min_d(pb, &pt) <= target;
    }
    if (!found)
        return false;
    for (int i = 0; i < 60 && hi - lo > 1e-8; i++) {
        double mid = (lo + hi) / 2;
        snprintf(text, sizeof text, "%.6e", exp(mid));
        if (min_d(pb, &pt) <= target)
            hi = mid;
        else
            lo = mid;
    }
    char err[256];
    ul_status st;
    for (int i = 0; i < 8; i++) {
        snprintf(text, sizeof text, "%.6e", exp(hi) * (1 + 2e-6 * (1 << i)));
        if (ul_langevin_problem_reaches(pb, &pt, eps, NULL, NULL, 0, &st, err, sizeof err) ==
            UL_SIDE_SAFE) {
            snprintf(out, len, "%s", text);
            return true;
        }
    }
    return false;
}

/* ---- the Rényi bound where it is a rational ------------------------------------------ */

/* E = 4S²M²/(mσ²n²), Thm 3.3 (3) with T → ∞ (Chien et al. 2024, Alg. 8). */
static bool sc_slope_q(mpq_ptr E, const ul_langevin_problem *pb, const char *sigma)
{
    mpq_t den, t;
    mpq_inits(den, t, (mpq_ptr)0);
    bool ok = ul_num_decimal_to_mpq(E, pb->M) && ul_num_decimal_to_mpq(den, sigma) &&
              ul_num_decimal_to_mpq(t, pb->n);
    if (ok) {
        mpq_mul(den, den, t); /* σn > 0 */
        mpq_div(E, E, den);
        mpq_mul(E, E, E); /* M²/(σ²n²) */
        mpq_set_ui(t, pb->S, 1);
        mpq_mul(E, E, t);
        mpq_mul(E, E, t);
        mpq_mul_2exp(E, E, 2); /* 4S²M²/(σ²n²) */
        ok = ul_num_decimal_to_mpq(t, pb->m);
    }
    if (ok)
        mpq_div(E, E, t); /* m > 0 */
    mpq_clears(den, t, (mpq_ptr)0);
    return ok;
}

bool ul_langevin_problem_renyi_exact(mpq_ptr out, const ul_langevin_problem *pb,
                                     const ul_langevin_point *pt, const char *alpha)
{
    if (pb->kind != UL_LANGEVIN_STRONGLY_CONVEX || pt->K != 0)
        return false;
    for (size_t j = 0; j + 1 < pb->count; j++)
        if (pb->Ks[j] != 0)
            return false;
    mpq_t E, a, c, t;
    mpq_inits(E, a, c, t, (mpq_ptr)0);
    bool ok = sc_slope_q(E, pb, pt->sigma) && ul_num_decimal_to_mpq(a, alpha);
    if (ok) {
        /* ul_langevin_sequential with every Λ_j = 0: request j at order
         * a_j = 2^{count−j}·α, ε^(1)(a_1) = a_1·E, then
         * ε^(j)(a_j) = c(a_j)·(2a_j·E + ε^(j−1)(2a_j)), c(a) = (a − ½)/(a − 1) */
        mpq_mul_2exp(a, a, (mp_bitcnt_t)(pb->count - 1));
        mpq_mul(out, a, E);
        for (size_t j = 1; j < pb->count; j++) {
            mpq_mul(t, a, E); /* ε0(a_{j-1}) = 2a_j·E, a still a_{j-1} */
            mpq_add(out, out, t);
            mpq_div_2exp(a, a, 1);
            mpq_set_ui(t, 1, 2);
            mpq_sub(c, a, t);
            mpq_set_ui(t, 1, 1);
            mpq_sub(t, a, t);
            mpq_div(c, c, t);
            mpq_mul(out, out, c);
        }
    }
    mpq_clears(E, a, c, t, (mpq_ptr)0);
    return ok;
}

/* ---- the Rényi bound at one order (no optimisation) --------------------------------- */

typedef struct {
    const ul_langevin_problem *pb;
    const ul_langevin_point *pt;
    const char *alpha;
} renyi_ctx;

/* ε^(s)(α) at the order, at out's precision: e^{−Λ/α}·α·E for one request
 * (Thm 3.2 with Thm 3.3), the recursion of Cor 3.4 for several; B = 0 (the
 * Rényi value alone, no conversion term). */
static ul_status renyi_eval(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    const renyi_ctx *c = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 16;
    consts_t k;
    consts_init(&k, c->pb->count, p);
    ul_status st = consts_fill(c->pb, c->pt, p, &k, err, errlen);
    if (st == UL_OK) {
        mpfi_t a;
        mpfi_init2(a, p);
        ul_num_set_valid(a, c->alpha);
        mpfi_set_ui(k.B, 0);
        ul_langevin_objective_at(out->enclosure, k.E, (mpfi_srcptr const *)k.lp, k.count, k.B, a);
        out->is_log = false;
        mpfi_clear(a);
    }
    consts_clear(&k);
    return st;
}

ul_status ul_langevin_problem_renyi(const ul_langevin_problem *pb, const ul_langevin_point *pt,
                                    const char *alpha, const ul_num_precision *want,
                                    ul_num_value *out, bool *capped, char *err, size_t errlen)
{
    renyi_ctx c = {pb, pt, alpha};
    ul_num_report nr;
    ul_status st = ul_num_adaptive_eval(renyi_eval, &c, want, out, &nr, err, errlen);
    if (capped != NULL)
        *capped = st == UL_ECAP;
    return st == UL_ECAP ? UL_OK : st;
}
