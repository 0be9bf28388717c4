/* tests/pabi_oracle.c — see pabi_oracle.h. */
#include "pabi_oracle.h"

#include <stdbool.h>

#define PO_BITS 256

/* The cost of the segment-wise closed forms with z_i = 0 for i in mask (bit
 * i − 1), or false when an intermediate shift goes negative. */
static bool po_subset(mpfr_ptr cost, unsigned long mask, mpfr_srcptr rho, mpfr_srcptr s,
                      mpfr_srcptr d0, mpfr_t *sigma2, unsigned T)
{
    mpfr_t z, B, S, w, a, u, tol;
    mpfr_inits2(PO_BITS, z, B, S, w, a, u, tol, (mpfr_ptr)0);
    mpfr_set_str(tol, "-1e-60", 10, MPFR_RNDN);
    mpfr_set_ui(cost, 0, MPFR_RNDN);
    mpfr_set(z, d0, MPFR_RNDN);
    bool ok = true;
    unsigned j = 0;
    while (j < T && ok) {
        unsigned k = j + 1;
        while (k < T && !(mask >> (k - 1) & 1))
            k++;
        /* segment t = j..k−1: B = ρ^{k−j}·z_j + s·Σ w_t, S = Σ w_t²σ_t², w_t = ρ^{k−1−t} */
        mpfr_set(B, z, MPFR_RNDN);
        mpfr_set_ui(S, 0, MPFR_RNDN);
        for (unsigned t = j; t < k; t++) {
            mpfr_mul(B, B, rho, MPFR_RNDN);
            mpfr_add(B, B, s, MPFR_RNDN);
            mpfr_mul(S, S, rho, MPFR_RNDN);
            mpfr_mul(S, S, rho, MPFR_RNDN);
            mpfr_add(S, S, sigma2[t], MPFR_RNDN);
        }
        for (unsigned t = j; t < k; t++) {
            mpfr_pow_ui(w, rho, k - 1 - t, MPFR_RNDN);
            mpfr_mul(a, B, w, MPFR_RNDN);
            mpfr_mul(a, a, sigma2[t], MPFR_RNDN);
            mpfr_div(a, a, S, MPFR_RNDN); /* a_t = B·w_t·σ_t²/S */
            mpfr_sqr(u, a, MPFR_RNDN);
            mpfr_div(u, u, sigma2[t], MPFR_RNDN);
            mpfr_div_2ui(u, u, 1, MPFR_RNDN);
            mpfr_add(cost, cost, u, MPFR_RNDN);
            mpfr_mul(z, z, rho, MPFR_RNDN);
            mpfr_add(z, z, s, MPFR_RNDN);
            mpfr_sub(z, z, a, MPFR_RNDN);
            if (t + 1 < k && mpfr_less_p(z, tol))
                ok = false;
        }
        mpfr_set_ui(z, 0, MPFR_RNDN);
        j = k;
    }
    mpfr_clears(z, B, S, w, a, u, tol, (mpfr_ptr)0);
    return ok;
}

void pabi_oracle_best(mpfr_ptr out, mpfr_srcptr rho, mpfr_srcptr s, mpfr_srcptr d0,
                      mpfr_t *sigma2, unsigned T)
{
    mpfr_t c;
    mpfr_init2(c, PO_BITS);
    mpfr_set_inf(out, 1);
    for (unsigned long mask = 0; mask < 1UL << (T - 1); mask++)
        if (po_subset(c, mask, rho, s, d0, sigma2, T) && mpfr_less_p(c, out))
            mpfr_set(out, c, MPFR_RNDN);
    mpfr_clear(c);
}

void pabi_oracle_best_str(mpfr_ptr out, const char *c0, const char *c1, const char *lr,
                          const char *lambda, mpfr_t *sigma2, unsigned T)
{
    mpfr_t rho, s, d0, v;
    mpfr_inits2(PO_BITS, rho, s, d0, v, (mpfr_ptr)0);
    mpfr_set_str(rho, lr, 10, MPFR_RNDN);
    mpfr_set_str(v, lambda, 10, MPFR_RNDN);
    mpfr_mul(rho, rho, v, MPFR_RNDN);
    mpfr_ui_sub(rho, 1, rho, MPFR_RNDN);
    mpfr_set_str(s, lr, 10, MPFR_RNDN);
    mpfr_set_str(v, c1, 10, MPFR_RNDN);
    mpfr_mul(s, s, v, MPFR_RNDN);
    mpfr_mul_2ui(s, s, 1, MPFR_RNDN);
    mpfr_set_str(d0, c0, 10, MPFR_RNDN);
    mpfr_mul_2ui(d0, d0, 1, MPFR_RNDN);
    pabi_oracle_best(out, rho, s, d0, sigma2, T);
    mpfr_clears(rho, s, d0, v, (mpfr_ptr)0);
}

void pabi_oracle_fig2_decreasing(mpfr_ptr out)
{
    mpfr_t A, sig2[11];
    mpfr_init2(A, PO_BITS);
    /* A = 40·2^-11 + (2/5)·(1 − 2^-11) = (40·5 + 2·2047)/(5·2048) */
    mpfr_set_ui(A, 40 * 5 + 2 * 2047, MPFR_RNDN);
    mpfr_div_ui(A, A, 5 * 2048, MPFR_RNDN);
    for (int t = 0; t < 11; t++) {
        mpfr_init2(sig2[t], PO_BITS);
        mpfr_sqr(sig2[t], A, MPFR_RNDN);
        mpfr_div_ui(sig2[t], sig2[t], 22, MPFR_RNDN);           /* A²/(2·ε_R·T) */
        mpfr_mul_2ui(sig2[t], sig2[t], 2 * (10 - t), MPFR_RNDN); /* ·0.5^{−2(T−t−1)} */
    }
    pabi_oracle_best_str(out, "20", "10", "0.01", "50", sig2, 11);
    for (int t = 0; t < 11; t++)
        mpfr_clear(sig2[t]);
    mpfr_clear(A);
}
