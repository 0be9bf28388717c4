/* src/bounds/noisygd_rational.c — the Noisy-GD bounds that are exact
 * rationals, and the Rényi-to-(ε, δ) conversion an audit applies to any of
 * them (Chourasia & Shah, arXiv:2210.08911; docs/noisy-gd.md).  Moved out of
 * audit/audit_noisygd.c (issue 13).
 *
 * Thm G.7 (Abadi-style composition of K Gaussian steps, docs/noisy-gd.md "Theorems audited"):
 *     ε = q·L²·η·K/(σ²n²),
 * a rational in the decimal inputs; Thm 5.2's privacy part uses it at its
 * own K, and Thm 4.3 (p-adaptive requesters, docs/noisy-gd.md "Theorems audited") adds eps_dd to it
 * at the composed number of steps K43:
 *     corrected: K43 = K_A + s·K_Abar;   printed: K43 = p·max(K_A, K_Abar)
 * (K43 = 0 when p = 0; docs/noisy-gd.md erratum N2).
 *
 * Remark 2.1 (Mironov 2017 Prop. 3): (q, ρ)-RDP gives (ρ + log(1/δ)/(q − 1),
 * δ)-DP.  For a bound linear in the order, ρ(q) = a·q, the best order is
 * exact: ε(δ) = min_{q>1} a·q + log(1/δ)/(q − 1) = a + 2√(a·log(1/δ)) at
 * q* = 1 + √(log(1/δ)/a). */
#include "bounds/noisygd.h"

#include "num/input.h"

/* K43 of Thm 4.3, exactly. */
static void thm43_steps(mpq_ptr K, const ul_ngd_params *pb, ul_variant variant)
{
    mpq_t p, s, ka, kb;
    mpq_inits(p, s, ka, kb, (mpq_ptr)0);
    ul_num_mpq_valid(p, pb->p);
    ul_num_mpq_valid(s, pb->s);
    ul_num_mpq_valid(ka, pb->KA);
    ul_num_mpq_valid(kb, pb->KAbar);
    if (mpq_sgn(p) == 0) {
        mpq_set_ui(K, 0, 1);
    } else if (variant == UL_VARIANT_PRINTED) {
        mpq_set(K, mpq_cmp(ka, kb) >= 0 ? ka : kb);
        mpq_mul(K, K, p);
    } else {
        mpq_mul(K, s, kb);
        mpq_add(K, K, ka);
    }
    mpq_clears(p, s, ka, kb, (mpq_ptr)0);
}

void ul_ngd_rational_bound(mpq_ptr out, const ul_ngd_params *pb, bool thm43, ul_variant variant)
{
    mpq_t t, K;
    mpq_inits(t, K, (mpq_ptr)0);
    if (thm43)
        thm43_steps(K, pb, variant);
    else
        ul_num_mpq_valid(K, pb->K);
    /* q·L²·η·K/(σ²n²) */
    ul_num_mpq_valid(out, pb->L);
    mpq_mul(out, out, out);
    ul_num_mpq_valid(t, pb->q);
    mpq_mul(out, out, t);
    ul_num_mpq_valid(t, pb->eta);
    mpq_mul(out, out, t);
    mpq_mul(out, out, K);
    ul_num_mpq_valid(t, pb->sigma);
    mpq_mul(t, t, t);
    mpq_div(out, out, t);
    ul_num_mpq_valid(t, pb->n);
    mpq_mul(t, t, t);
    mpq_div(out, out, t);
    if (thm43) {
        ul_num_mpq_valid(t, pb->eps_dd);
        mpq_add(out, out, t);
    }
    mpq_clears(t, K, (mpq_ptr)0);
}

/* out ⊇ the bound in linear form. */
static void plain_of(mpfi_ptr out, const ul_num_value *x)
{
    if (x->is_log)
        mpfi_exp(out, x->enclosure);
    else
        mpfi_set(out, x->enclosure);
}

void ul_ngd_rdp_to_dp(mpfi_ptr eps, mpfi_ptr qstar, const ul_num_value *bound, bool linear,
                      const char *per_order, const char *q, const char *delta)
{
    mpfr_prec_t p = mpfi_get_prec(bound->enclosure) + 32;
    mpfi_t a, ell, t;
    mpfi_init2(a, p), mpfi_init2(ell, p), mpfi_init2(t, p);
    mpfi_set_prec(eps, p);
    mpfi_set_prec(qstar, p);
    plain_of(a, bound);
    if (per_order != NULL) {
        ul_num_set_valid(t, per_order);
        mpfi_div(a, a, t); /* the slope a = ε(q)/q */
    }
    ul_num_set_valid(ell, delta);
    mpfi_log(ell, ell);
    mpfi_neg(ell, ell); /* log(1/δ) */
    if (linear) {
        mpfi_t u; /* a + 2√(a·log(1/δ)), 16 guard bits */
        mpfi_init2(u, p + 16);
        mpfi_mul(u, a, ell);
        mpfi_sqrt(u, u);
        mpfi_mul_2ui(u, u, 1);
        mpfi_add(eps, a, u);
        mpfi_clear(u);
        mpfi_div(qstar, ell, a); /* q* = 1 + √(log(1/δ)/a) */
        mpfi_sqrt(qstar, qstar);
        mpfi_add_ui(qstar, qstar, 1);
    } else {
        ul_num_set_valid(qstar, q); /* ρ + log(1/δ)/(q − 1) at the given q */
        mpfi_sub_ui(t, qstar, 1);
        mpfi_div(t, ell, t);
        mpfi_add(eps, a, t);
    }
    mpfi_clear(a), mpfi_clear(ell), mpfi_clear(t);
}
