/* src/bounds/gaussian_compose.c — composed Gaussian mechanisms: the one
 * ratio r of k releases with their own sensitivities Δ_i and noises σ_i,
 * each repeated T times (moved out of audit/audit_gaussian.c, issue 13).
 *
 * The composition of Gaussian mechanisms N(f_i(D), σ_i²I) with
 * sensitivities Δ_i is, for every (ε, δ) and every Rényi order, exactly the
 * Gaussian mechanism with
 *     r² = Σ_i (Δ_i/σ_i)²  (times T when each release repeats T times)
 * (Dong, Roth & Su 2022, Cor. 3.3: μ_i-GDP mechanisms compose to
 * √(Σ μ_i²)-GDP, and the Gaussian mechanism is (Δ/σ)-GDP; its privacy
 * profile is then θ_{e^ε}(r), Balle & Wang 2018 Thm 8, bounds/gaussian.h;
 * its Rényi divergence α·r²/2, Mironov 2017 Prop. 7).
 *
 * How it is computed.  Every decimal is read exactly (GMP mpq).  With one
 * sensitivity (or one σ) factored out, S = T·sens²·Σ u_i², u_i = (Δ_i or
 * 1)/(σ_i or 1), and r² = S/σ² (one σ) or S (a σ list).  S is formed as an
 * exact rational when its terms are small enough (UL_GAUSS_COMP_EXACT_BITS;
 * the sum of squares as a tree of unreduced fractions), so ties are decided
 * exactly; otherwise it is enclosed term by term with outward rounding. */
#include "bounds/gaussian.h"

#include <stdlib.h>

#include "num/input.h"

/* Largest total size (bits) of the per-release terms for which S is also
 * formed as an exact rational. */
#define UL_GAUSS_COMP_EXACT_BITS (1ul << 22)

struct ul_gauss_comp_cache {
    mpfi_t x; /* S enclosed at the highest precision asked so far */
    bool valid;
};

/* ---- whole numbers ------------------------------------------------------------------ */

static void q_set_ull(mpq_ptr q, unsigned long long n)
{
    /* two 32-bit halves: exact whatever the width of unsigned long */
    mpz_set_ui(mpq_numref(q), (unsigned long)(n >> 32));
    mpz_mul_2exp(mpq_numref(q), mpq_numref(q), 32);
    mpz_add_ui(mpq_numref(q), mpq_numref(q), (unsigned long)(n & 0xffffffffu));
    mpz_set_ui(mpq_denref(q), 1);
}

void ul_gauss_comp_set_ull(mpfi_ptr x, unsigned long long n)
{
    mpq_t q;
    mpq_init(q);
    q_set_ull(q, n);
    mpfi_set_q(x, q);
    mpq_clear(q);
}

/* ---- S exactly --------------------------------------------------------------------- */

/* num/den = Σ_{lo ≤ i < hi} u_i², summed as a tree of unreduced fractions
 * (no gcd inside, so the cost is a few products of the final size). */
static void sumsq_tree(mpz_ptr num, mpz_ptr den, mpq_t *u, size_t lo, size_t hi)
{
    if (hi - lo == 1) {
        mpz_mul(num, mpq_numref(u[lo]), mpq_numref(u[lo]));
        mpz_mul(den, mpq_denref(u[lo]), mpq_denref(u[lo]));
        return;
    }
    size_t mid = lo + (hi - lo) / 2;
    mpz_t n2, d2;
    mpz_inits(n2, d2, NULL);
    sumsq_tree(num, den, u, lo, mid);
    sumsq_tree(n2, d2, u, mid, hi);
    mpz_mul(num, num, d2); /* a/b + c/d = (ad + cb)/(bd) */
    mpz_addmul(num, n2, den);
    mpz_mul(den, den, d2);
    mpz_clears(n2, d2, NULL);
}

/* S = T·sens²·Σ u_i² exactly, when the terms are small enough. */
static void exact_s(ul_gauss_comp *c)
{
    size_t bits = mpz_sizeinbase(mpq_numref(c->sens), 2) + mpz_sizeinbase(mpq_denref(c->sens), 2);
    for (size_t i = 0; i < c->k; i++)
        bits += mpz_sizeinbase(mpq_numref(c->u[i]), 2) + mpz_sizeinbase(mpq_denref(c->u[i]), 2);
    c->have_s = bits <= UL_GAUSS_COMP_EXACT_BITS;
    if (!c->have_s)
        return;
    mpz_t num, den;
    mpz_inits(num, den, NULL);
    sumsq_tree(num, den, c->u, 0, c->k);
    mpq_set_num(c->s, num);
    mpq_set_den(c->s, den);
    mpq_canonicalize(c->s);
    mpq_t t;
    mpq_init(t);
    q_set_ull(t, c->T);
    mpq_mul(c->s, c->s, t);
    mpq_mul(t, c->sens, c->sens);
    mpq_mul(c->s, c->s, t);
    mpq_clears(t, NULL);
    mpz_clears(num, den, NULL);
}

/* ---- reading --------------------------------------------------------------------------- */

void ul_gauss_comp_init(ul_gauss_comp *c, const char *const *sens, size_t n_sens, bool doubled,
                        const char *const *sig, size_t n_sigma, size_t k, unsigned long long T)
{
    c->k = k;
    c->T = T;
    c->n_sigma = n_sigma;
    mpq_inits(c->sens, c->sig, c->s, NULL);
    c->cache = malloc(sizeof *c->cache);
    c->u = malloc(k * sizeof *c->u);
    /* k <= GAUSS_MAX_RELEASES, checked by the reader (audit_gaussian.c) */
    if (c->cache == NULL || c->u == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    mpfi_init2(c->cache->x, MPFR_PREC_MIN);
    c->cache->valid = false;
    for (size_t i = 0; i < k; i++)
        mpq_init(c->u[i]);
    /* every decimal is within the reader's limits (num/input.h): exact */
    mpq_set_ui(c->sens, 1, 1);
    if (n_sens == 1)
        ul_num_mpq_valid(c->sens, sens[0]);
    if (doubled)
        mpq_add(c->sens, c->sens, c->sens);
    mpq_t d;
    mpq_init(d);
    for (size_t i = 0; i < k; i++) {
        mpq_set_ui(c->u[i], 1, 1);
        if (n_sens > 1)
            ul_num_mpq_valid(c->u[i], sens[i]);
        if (n_sigma > 1) {
            ul_num_mpq_valid(d, sig[i]);
            mpq_div(c->u[i], c->u[i], d);
        }
    }
    mpq_clear(d);
    exact_s(c);
    if (n_sigma == 1)
        ul_num_mpq_valid(c->sig, sig[0]);
}

void ul_gauss_comp_clear(ul_gauss_comp *c)
{
    mpq_clears(c->sens, c->sig, c->s, NULL);
    for (size_t i = 0; c->u != NULL && i < c->k; i++)
        mpq_clear(c->u[i]);
    free(c->u);
    c->u = NULL;
    if (c->cache != NULL)
        mpfi_clear(c->cache->x);
    free(c->cache);
    c->cache = NULL;
}

/* ---- enclosures ------------------------------------------------------------------------ */

void ul_gauss_comp_s(mpfi_ptr out, const ul_gauss_comp *c)
{
    mpfr_prec_t p = mpfi_get_prec(out);
    if (c->cache->valid && mpfi_get_prec(c->cache->x) >= p) {
        mpfi_set(out, c->cache->x); /* rounded outward to out's precision */
        return;
    }
    if (c->have_s) {
        mpfi_set_q(out, c->s);
    } else {
        mpfi_t t;
        mpfi_init2(t, p);
        mpfi_set_ui(out, 0);
        for (size_t i = 0; i < c->k; i++) {
            mpfi_set_q(t, c->u[i]);
            mpfi_sqr(t, t);
            mpfi_add(out, out, t);
        }
        ul_gauss_comp_set_ull(t, c->T);
        mpfi_mul(out, out, t);
        mpfi_set_q(t, c->sens);
        mpfi_sqr(t, t);
        mpfi_mul(out, out, t);
        mpfi_clear(t);
    }
    mpfi_set_prec(c->cache->x, p);
    mpfi_set(c->cache->x, out);
    c->cache->valid = true;
}

void ul_gauss_comp_r2(mpfi_ptr out, const ul_gauss_comp *c)
{
    ul_gauss_comp_s(out, c);
    if (c->n_sigma == 1) {
        mpfi_t t;
        mpfi_init2(t, mpfi_get_prec(out));
        mpfi_set_q(t, c->sig);
        mpfi_sqr(t, t);
        mpfi_div(out, out, t);
        mpfi_clear(t);
    }
}

void ul_gauss_comp_r(mpfi_ptr r, const ul_gauss_comp *c)
{
    mpfi_t t;
    mpfi_init2(t, mpfi_get_prec(r) + 8);
    ul_gauss_comp_r2(t, c);
    mpfi_sqrt(r, t);
    mpfi_clear(t);
}

bool ul_gauss_comp_r_exceeds(const ul_gauss_comp *c, const char *limit)
{
    mpfi_t r2, lim;
    mpfi_init2(r2, 128);
    mpfi_init2(lim, 128);
    ul_gauss_comp_r2(r2, c);
    ul_num_set_valid(lim, limit);
    mpfi_sqr(lim, lim);
    bool too_big = mpfr_greater_p(&r2->left, &lim->right);
    if (!too_big && c->have_s && !mpfr_lessequal_p(&r2->right, &lim->left)) {
        mpq_t x, l; /* undecided on the enclosure: exactly */
        mpq_inits(x, l, NULL);
        mpq_set(x, c->s);
        if (c->n_sigma == 1) {
            mpq_div(x, x, c->sig);
            mpq_div(x, x, c->sig);
        }
        ul_num_mpq_valid(l, limit);
        mpq_mul(l, l, l);
        too_big = mpq_cmp(x, l) > 0;
        mpq_clears(x, l, NULL);
    }
    mpfi_clear(r2);
    mpfi_clear(lim);
    return too_big;
}

/* ---- the Rényi divergence (Mironov 2017 Prop. 7: D_α = α·r²/2) ------------------------- */

void ul_gauss_comp_renyi_exact(mpq_ptr rho, const ul_gauss_comp *c, bool with_sigma,
                               mpq_srcptr alpha)
{
    mpq_mul(rho, c->s, alpha);
    if (with_sigma && c->n_sigma == 1) {
        mpq_div(rho, rho, c->sig);
        mpq_div(rho, rho, c->sig);
    }
    mpq_div_2exp(rho, rho, 1);
}

void ul_gauss_comp_renyi(mpfi_ptr x, const ul_gauss_comp *c, bool with_sigma, mpq_srcptr alpha)
{
    if (with_sigma)
        ul_gauss_comp_r2(x, c);
    else
        ul_gauss_comp_s(x, c);
    mpfi_mul_q(x, x, alpha);
    mpfi_div_2ui(x, x, 1);
}

int ul_gauss_comp_renyi_cmp(const ul_gauss_comp *c, mpq_srcptr alpha, mpq_srcptr claimed,
                            const ul_num_precision *want, mpfi_ptr x)
{
    if (c->have_s) {
        mpq_t rho;
        mpq_init(rho);
        ul_gauss_comp_renyi_exact(rho, c, true, alpha);
        int cmp = mpq_cmp(rho, claimed);
        mpfi_set_q(x, rho);
        mpq_clear(rho);
        return cmp < 0 ? -1 : cmp > 0;
    }
    mpfr_prec_t cap = ul_num_max_bits(want); /* --max-bits */
    for (mpfr_prec_t p = mpfi_get_prec(x);; p *= 2) {
        mpfi_set_prec(x, p < cap ? p : cap);
        ul_gauss_comp_renyi(x, c, true, alpha);
        if (mpfr_cmp_q(&x->right, claimed) <= 0)
            return -1; /* ρ ≤ claimed; a tie cannot be told from below here */
        if (mpfr_cmp_q(&x->left, claimed) > 0)
            return 1;
        if (p >= cap)
            return 2;
    }
}

/* ---- the inverses -------------------------------------------------------------------- */

ul_status ul_gauss_comp_sigma_min(const ul_gauss_comp *c, const char *eps, const char *delta,
                                  const char *base, bool doubled, const ul_num_precision *want,
                                  mpfi_ptr sigma, ul_num_report *nr, char *err, size_t errlen)
{
    ul_status st = ul_gauss_sigma_min(eps, delta, base != NULL ? base : "1", want, sigma, nr, err,
                                      errlen);
    if (st != UL_OK && st != UL_ECAP)
        return st;
    if (doubled) {
        mpfi_mul_2ui(sigma, sigma, 1); /* sensitivity 2·base */
    } else if (base == NULL || c->T > 1) {
        /* σ* is linear in the sensitivity: × √S for a list, × √T for T
         * compositions of one release (r = Δ√T/σ) */
        mpfi_t t;
        mpfi_init2(t, mpfi_get_prec(sigma) + 8);
        if (base == NULL)
            ul_gauss_comp_s(t, c);
        else
            ul_gauss_comp_set_ull(t, c->T);
        mpfi_sqrt(t, t);
        mpfi_mul(sigma, sigma, t);
        mpfi_clear(t);
    }
    return UL_OK;
}

ul_status ul_gauss_comp_eps_min(const ul_gauss_comp *c, const char *delta,
                                const ul_num_precision *want, mpfi_ptr eps_out, char *err,
                                size_t errlen)
{
    /* r need not be a finite decimal: ε* is increasing in r, so
     * ε*(r) ∈ [lo ε*(r_lo), hi ε*(r_hi)] for decimals r_lo ≤ r ≤ r_hi */
    int digits = want->digits + 4;
    mpfi_t r;
    mpfi_init2(r, (mpfr_prec_t)(digits * 3.33) + 64);
    ul_gauss_comp_r(r, c);
    mpfr_t b;
    mpfr_init2(b, mpfi_get_prec(r));
    mpfi_get_left(b, r);
    char *r_lo = ul_num_format(b, digits, MPFR_RNDD);
    mpfi_get_right(b, r);
    char *r_hi = ul_num_format(b, digits, MPFR_RNDU);
    mpfr_clear(b);
    mpfi_clear(r);
    mpfi_t e_lo, e_hi;
    mpfi_init2(e_lo, 64);
    mpfi_init2(e_hi, 64);
    ul_num_report nr = {0, false};
    ul_status st = ul_gauss_eps_min(r_lo, delta, want, e_lo, &nr, err, errlen);
    if (st == UL_OK || st == UL_ECAP)
        st = ul_gauss_eps_min(r_hi, delta, want, e_hi, &nr, err, errlen);
    if (st == UL_OK || st == UL_ECAP) {
        mpfr_prec_t p = mpfi_get_prec(e_lo) > mpfi_get_prec(e_hi) ? mpfi_get_prec(e_lo)
                                                                  : mpfi_get_prec(e_hi);
        mpfi_set_prec(eps_out, p);
        mpfi_interv_fr(eps_out, &e_lo->left, &e_hi->right);
        st = UL_OK;
    }
    mpfi_clear(e_lo);
    mpfi_clear(e_hi);
    free(r_lo);
    free(r_hi);
    return st;
}

void ul_gauss_comp_renyi_sigma(mpfi_ptr x, const ul_gauss_comp *c, mpq_srcptr alpha,
                               mpq_srcptr rho)
{
    /* α·S/(2σ²) ≤ ρ ⇔ σ ≥ √(α·S/(2ρ)) (Mironov 2017 Prop. 7) */
    ul_gauss_comp_renyi(x, c, false, alpha);
    mpfi_div_q(x, x, rho);
    mpfi_sqrt(x, x);
}

/* ---- the privacy profile ---------------------------------------------------------------- */

typedef struct {
    const ul_gauss_comp *c;
    const char *eps;
} comp_theta_ctx;

static ul_status comp_theta_eval(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    const comp_theta_ctx *t = ctx;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 16;
    mpfi_t e, r;
    mpfi_init2(e, p);
    mpfi_init2(r, p);
    ul_status st = ul_num_set_decimal(e, t->eps);
    if (st == UL_OK) {
        ul_gauss_comp_r(r, t->c);
        ul_gauss_theta_enclose(out, e, r); /* θ_{e^ε}(r), Balle & Wang 2018 Thm 8 */
    } else {
        st = ul_fail(err, errlen, UL_EINPUT, "eps: not a decimal number");
    }
    mpfi_clear(e);
    mpfi_clear(r);
    return st;
}

ul_status ul_gauss_comp_theta(const ul_gauss_comp *c, const char *eps,
                              const ul_num_precision *want, ul_num_value *out, ul_num_report *nr,
                              char *err, size_t errlen)
{
    comp_theta_ctx t = {c, eps};
    return ul_num_adaptive_eval(comp_theta_eval, &t, want, out, nr, err, errlen);
}

double ul_gauss_comp_sqrt_s_double(const ul_gauss_comp *c)
{
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_gauss_comp_s(x, c);
    mpfi_sqrt(x, x);
    double d = mpfr_get_d(&x->left, MPFR_RNDN);
    mpfi_clear(x);
    return d;
}

void ul_gauss_comp_loose_delta(ul_num_value *out, const ul_gauss_comp *c, const char *eps)
{
    mpfr_prec_t p = mpfi_get_prec(out->enclosure);
    mpfi_t e, r;
    mpfi_init2(e, p);
    mpfi_init2(r, p);
    ul_num_set_valid(e, eps);
    ul_gauss_comp_r(r, c);
    ul_gauss_loose_bound_log_enclose(out->enclosure, e, r); /* 1.25·exp(−ε²/(2r²)) */
    out->is_log = true;
    mpfi_clear(e);
    mpfi_clear(r);
}
