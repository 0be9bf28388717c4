/* src/bounds/noisygd_thm51.c — Thm 5.1 of Chourasia & Shah (arXiv:2210.08911;
 * docs/noisy-gd.md "Algorithm and prescriptions") as a handler cites it: the
 * deletion bound of Thm G.15 evaluated AT Thm 5.1's prescriptions, and the
 * exact checks that a certificate's η, σ and initialisation are those
 * prescriptions.  Moved out of audit/audit_noisygd.c (issue 13): the audit
 * handler calls these and does no arithmetic of its own.
 *
 * The prescriptions (Thm 5.1, docs/noisy-gd.md "Algorithm and prescriptions"):
 *     η  = 1/(2(λ + β)),      σ² = 4qL²/(λ·eps_dp·n²),
 *     ρ  = N(0, σ²/(λ(1 − ηλ/2)) I_d)         (G.15 via Lemma G.14).
 * At them, c = ηλ/2 = λ/(4(λ + β)) = 1/(4κ), and G.15's two forms
 * (noisygd.h, ul_ngd_g15_form) become
 *     stated (111): log ε = log eps_dp − c·K_Abar,
 *     tight:        log ε = log(eps_dp/2) − log(1 − c) − 2c(1 − c)·K_Abar
 * (4qL²/(λσ²n²) = eps_dp at the prescribed σ).
 *
 * Every decimal is read exactly (GMP mpq): the fields arrive validated by
 * the certificate reader (num/input.h's limits), so the conversions cannot
 * fail.  c, 1 − c and 2c(1 − c) are exact rationals; the one transcendental
 * step per term (a logarithm) is an MPFI enclosure (outward rounding), so
 * the sum encloses log ε at any precision; the adaptive driver raises it. */
#include "bounds/noisygd.h"

#include "num/input.h"

/* cq = c = λ/(4(λ + β)), exactly. */
static void thm51_c(mpq_ptr cq, const ul_ngd_params *pb)
{
    mpq_t t;
    mpq_init(t);
    ul_num_mpq_valid(cq, pb->lambda);
    ul_num_mpq_valid(t, pb->beta);
    mpq_add(t, t, cq);
    mpq_mul_2exp(t, t, 2);
    mpq_div(cq, cq, t);
    mpq_clear(t);
}

/* lg -= log(x) for a positive rational x (enclosure, outward). */
static void sub_log_q(mpfi_ptr lg, mpq_srcptr x, mpfi_ptr scratch)
{
    mpfi_set_q(scratch, x);
    mpfi_log(scratch, scratch);
    mpfi_sub(lg, lg, scratch);
}

/* lg -= a·K for rationals a and K. */
static void sub_times_k(mpfi_ptr lg, mpq_srcptr a, mpfi_srcptr k, mpfi_ptr scratch)
{
    mpfi_set_q(scratch, a);
    mpfi_mul(scratch, scratch, k);
    mpfi_sub(lg, lg, scratch);
}

typedef struct {
    const ul_ngd_params *pb;
    ul_ngd_g15_form form;
    const char *q_at;
} thm51_ctx;

/* One evaluation of log ε at out's precision (the formulas at the top). */
static ul_status thm51_eval(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const thm51_ctx *c = ctx;
    const ul_ngd_params *pb = c->pb;
    mpfr_prec_t p = mpfi_get_prec(out->enclosure) + 16;
    mpq_t cq, t;
    mpq_inits(cq, t, (mpq_ptr)0);
    thm51_c(cq, pb);
    mpfi_t lg, a, k;
    mpfi_init2(lg, p), mpfi_init2(a, p), mpfi_init2(k, p);
    ul_num_mpq_valid(t, pb->eps_dp);
    mpfi_set_q(lg, t);
    mpfi_log(lg, lg); /* log eps_dp */
    ul_num_mpq_valid(t, pb->KAbar);
    mpfi_set_q(k, t);
    if (c->form == UL_NGD_G15_STATED) {
        sub_times_k(lg, cq, k, a); /* − c·K_Abar */
    } else {
        mpq_set_ui(t, 1, 1);
        mpq_sub(t, t, cq);     /* 1 − c */
        sub_log_q(lg, t, a);   /* − log(1 − c) */
        mpfi_const_log2(a);
        mpfi_sub(lg, lg, a);   /* − log 2 */
        mpq_mul(t, t, cq);
        mpq_mul_2exp(t, t, 1); /* 2c(1 − c) */
        sub_times_k(lg, t, k, a);
    }
    if (c->q_at != NULL && c->q_at != pb->q) {
        /* at another order q' (σ fixed at the prescription for q) the bound
         * scales by q'/q: + log(q'/q) */
        mpq_t q0;
        mpq_init(q0);
        ul_num_mpq_valid(t, c->q_at);
        ul_num_mpq_valid(q0, pb->q);
        mpq_div(t, t, q0); /* q'/q */
        mpfi_set_q(a, t);
        mpfi_log(a, a);
        mpfi_add(lg, lg, a);
        mpq_clear(q0);
    }
    mpfi_set(out->enclosure, lg);
    out->is_log = true;
    mpfi_clear(lg), mpfi_clear(a), mpfi_clear(k);
    mpq_clears(cq, t, (mpq_ptr)0);
    return UL_OK;
}

ul_status ul_ngd_thm51_deletion_eps(const ul_ngd_params *pb, ul_ngd_g15_form form,
                                    const char *q_at, const ul_num_precision *want,
                                    ul_num_value *out, ul_num_report *rep, char *err,
                                    size_t errlen)
{
    thm51_ctx c = {pb, form, q_at};
    return ul_num_adaptive_eval(thm51_eval, &c, want, out, rep, err, errlen);
}

/* The same bound is a rational exactly when c·K_Abar = 0, i.e. K_Abar = 0
 * (c = λ/(4(λ+β)) > 0): the formulas at the top give
 *     stated: ε = eps_dp,     tight: ε = eps_dp/(2(1 − c)),
 * times q'/q at another order; or when eps_dp = 0 (ε = 0).  For K_Abar > 0
 * the factor e^{−c·K_Abar} (stated) or e^{−2c(1−c)·K_Abar} (tight) is
 * transcendental (Lindemann), and so is the bound. */
bool ul_ngd_thm51_exact(mpq_ptr out, const ul_ngd_params *pb, ul_ngd_g15_form form,
                        const char *q_at)
{
    mpq_t cq, t;
    mpq_inits(cq, t, (mpq_ptr)0);
    ul_num_mpq_valid(out, pb->eps_dp);
    ul_num_mpq_valid(t, pb->KAbar);
    bool exact = mpq_sgn(t) == 0 || mpq_sgn(out) == 0;
    if (exact && form == UL_NGD_G15_TIGHT) {
        thm51_c(cq, pb);
        mpq_set_ui(t, 1, 1);
        mpq_sub(t, t, cq);
        mpq_mul_2exp(t, t, 1); /* 2(1 − c) */
        mpq_div(out, out, t);
    }
    if (exact && q_at != NULL && q_at != pb->q) {
        ul_num_mpq_valid(t, q_at);
        mpq_mul(out, out, t);
        ul_num_mpq_valid(t, pb->q);
        mpq_div(out, out, t); /* · q'/q */
    }
    mpq_clears(cq, t, (mpq_ptr)0);
    return exact;
}

void ul_ngd_thm51_prescriptions(const ul_ngd_params *pb, ul_preconditions *pre)
{
    mpq_t lam, beta, eta, a, b, s2;
    mpq_inits(lam, beta, eta, a, b, s2, (mpq_ptr)0);
    ul_num_mpq_valid(lam, pb->lambda);
    ul_num_mpq_valid(beta, pb->beta);
    mpq_add(eta, lam, beta);
    mpq_mul_2exp(eta, eta, 1);
    mpq_inv(eta, eta); /* the prescription 1/(2(λ+β)) */
    if (pb->eta != NULL) {
        ul_num_mpq_valid(a, pb->eta);
        ul_pre_add(pre, "eta_prescribed",
                   "step size eta = 1/(2(lambda + beta)) (Thm 5.1; docs/noisy-gd.md "
                   "'Algorithm and prescriptions'); "
                   "other step sizes: cite Thm G.15",
                   mpq_equal(a, eta) ? UL_PRE_HOLDS : UL_PRE_FAILS);
    }
    /* σ*² = 4qL²/(λ·eps_dp·n²) */
    mpq_t q, L, n, edp;
    mpq_inits(q, L, n, edp, (mpq_ptr)0);
    ul_num_mpq_valid(q, pb->q);
    ul_num_mpq_valid(L, pb->L);
    ul_num_mpq_valid(n, pb->n);
    ul_num_mpq_valid(edp, pb->eps_dp);
    mpq_mul(a, L, L);
    mpq_mul(a, a, q);
    mpq_mul_2exp(a, a, 2); /* 4qL² */
    mpq_mul(b, n, n);
    mpq_mul(b, b, edp);
    mpq_mul(b, b, lam); /* λ·eps_dp·n² */
    if (pb->sigma != NULL) {
        ul_num_mpq_valid(s2, pb->sigma);
        mpq_mul(s2, s2, s2);
        mpq_t lhs;
        mpq_init(lhs);
        mpq_mul(lhs, s2, b);
        ul_pre_add(pre, "sigma2_ge_prescribed",
                   "sigma^2 >= 4 q L^2/(lambda eps_dp n^2), Thm 5.1's prescription (more noise "
                   "only lowers G.9 and G.15; docs/noisy-gd.md 'Algorithm and prescriptions')",
                   mpq_cmp(lhs, a) >= 0 ? UL_PRE_HOLDS : UL_PRE_FAILS);
        mpq_clear(lhs);
    } else if (mpq_sgn(b) > 0) {
        mpq_div(s2, a, b);
    }
    if (pb->init_var != NULL && mpq_sgn(b) > 0) {
        /* ρ = N(0, σ²/(λ(1 − ηλ/2)) I) (G.15 via Lemma G.14) */
        mpq_t lhs, t;
        mpq_inits(lhs, t, (mpq_ptr)0);
        ul_num_mpq_valid(lhs, pb->init_var);
        mpq_mul(t, eta, lam);
        mpq_div_2exp(t, t, 1);
        mpq_set_ui(a, 1, 1);
        mpq_sub(t, a, t);
        mpq_mul(t, t, lam);
        mpq_mul(lhs, lhs, t);
        ul_pre_add(pre, "init_variance_prescribed",
                   "initialisation rho = N(0, sigma^2/(lambda(1 - eta lambda/2)) I_d) (Thm 5.1, "
                   "G.15 via Lemma G.14; docs/noisy-gd.md erratum N7)",
                   mpq_equal(lhs, s2) ? UL_PRE_HOLDS : UL_PRE_FAILS);
        mpq_clears(lhs, t, (mpq_ptr)0);
    }
    mpq_clears(q, L, n, edp, (mpq_ptr)0);
    mpq_clears(lam, beta, eta, a, b, s2, (mpq_ptr)0);
}

