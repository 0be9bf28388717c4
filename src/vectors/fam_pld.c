/* src/vectors/fam_pld.c — δ(ε) of the T-fold composition of the Gaussian
 * mechanism, Poisson-subsampled with rate q when q < 1, by the privacy-loss
 * distribution accountant (bounds/pld.h): a proven bracket [lo, hi], about
 * rel_width wide relative to hi, with add/remove adjacency (the larger of
 * the two directions, as dp_accounting reports).
 *
 * These rows are few and small because the certified discretisation is
 * slow (a second or more per row).  The brackets are printed with
 * UL_VEC_PLD_DIGITS digits (vectors.h says why); the FFT is pinned to double
 * precision so no row depends on the width of long double.  For q = 1 the
 * exact value is θ_{e^ε}(r√T) (T-fold Gaussian composition is Gaussian),
 * which the theta family gives to full precision; the subsampled rows have
 * no closed form beyond T = 1.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bounds/pld.h"
#include "vectors/vectors.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
    const char *r, *q;
    unsigned long steps;
    const char *eps, *rel_width;
    double rel_width_value;
} ROWS[] = {
    {"1", "1", 1, "0.5", "1e-3", 1e-3}, {"0.5", "1", 10, "1", "1e-3", 1e-3},
    {"1", "1", 4, "3", "1e-2", 1e-2},   {"1", "0.1", 1, "0.5", "1e-3", 1e-3},
    {"2", "0.1", 1, "2", "1e-3", 1e-3}, {"2", "0.1", 10, "1", "1e-2", 1e-2},
};

ul_status ul_vec_gen_pld(ul_vec_table *t, char *err, size_t errlen)
{
    ul_vec_table_begin(t, t->digits, "r,q,steps,eps,rel_width", NULL, "delta");
    int digits = t->digits < UL_VEC_PLD_DIGITS ? t->digits : UL_VEC_PLD_DIGITS;
    ul_status st = UL_OK;
    for (size_t i = 0; i < COUNT(ROWS) && st == UL_OK; i++) {
        ul_pld_options opt;
        ul_pld_options_default(&opt);
        opt.rel_width = ROWS[i].rel_width_value;
        opt.fft = UL_PLD_FFT_DOUBLE;
        opt.adjacency = UL_PLD_ADD_REMOVE;
        ul_pld_mechanism m = {ROWS[i].r, ROWS[i].q, ROWS[i].steps};
        mpfr_t lo, hi;
        mpfr_inits2(128, lo, hi, (mpfr_ptr)0);
        ul_pld_report rep;
        char why[256] = "";
        st = ul_pld_compose(&m, 1, ROWS[i].eps, &opt, lo, hi, &rep, why, sizeof why);
        if (st == UL_OK) {
            char *slo = ul_num_format(lo, digits, MPFR_RNDD);
            char *shi = ul_num_format(hi, digits, MPFR_RNDU);
            ul_vec_put_text(t, ROWS[i].r);
            ul_vec_put_text(t, ROWS[i].q);
            ul_vec_put_ulong(t, ROWS[i].steps);
            ul_vec_put_text(t, ROWS[i].eps);
            ul_vec_put_text(t, ROWS[i].rel_width);
            ul_vec_put_bounds(t, slo, shi);
            ul_vec_row_end(t);
            free(slo);
            free(shi);
        } else {
            ul_fail(err, errlen, st, "r=%s q=%s steps=%lu eps=%s: %s", ROWS[i].r, ROWS[i].q,
                    ROWS[i].steps, ROWS[i].eps, why);
        }
        mpfr_clears(lo, hi, (mpfr_ptr)0);
    }
    return st;
}
