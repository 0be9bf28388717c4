/* src/num/adaptive.c — Ziv-style adaptive precision loop. */
#include "num/adaptive.h"

#include <math.h>

#include "num/deadline.h"

mpfr_prec_t ul_num_max_bits(const ul_num_precision *want)
{
    return want->max_bits > 0 ? want->max_bits : UL_NUM_DEFAULT_MAX_BITS;
}

mpfr_prec_t ul_num_start_bits(const ul_num_precision *want, double extra_bits)
{
    /* log2(10) bits per digit, 24 guard bits for the rounding errors of a
     * few dozen operations, plus the caller's cancellation estimate. */
    double bits = want->digits * 3.3219280948873623 + 24.0;
    if (isfinite(extra_bits) && extra_bits > 0)
        bits += extra_bits;
    mpfr_prec_t cap = ul_num_max_bits(want);
    if (want->start_bits > 0)
        bits = (double)want->start_bits;
    if (!(bits < (double)cap))
        return cap;
    return bits < 53 ? 53 : (mpfr_prec_t)ceil(bits);
}

ul_status ul_num_adaptive_eval(ul_num_evaluator eval, void *ctx, const ul_num_precision *want,
                               ul_num_value *out, ul_num_report *report, char *err, size_t errlen)
{
    mpfr_prec_t cap = ul_num_max_bits(want);
    mpfr_prec_t p = ul_num_start_bits(want, 0);
    for (;;) {
        /* the time budget (deadline.h): checked before every round, so a
         * loop that raises the precision stops within one evaluation */
        if (ul_deadline_passed())
            return ul_fail(err, errlen, UL_ETIME,
                           "computing an enclosure at %ld bits of working precision", (long)p);
        mpfi_set_prec(out->enclosure, p);
        out->is_log = false;
        ul_status st = eval(out, ctx, err, errlen);
        if (st != UL_OK)
            return st;
        report->bits_used = p;
        report->cap_hit = false;
        if (ul_num_value_narrow_enough(out, want->digits))
            return UL_OK;
        if (p >= cap) {
            report->cap_hit = true;
            return ul_fail(err, errlen, UL_ECAP,
                           "precision cap of %ld bits reached before %d digits were certain",
                           (long)cap, want->digits);
        }
        p = 2 * p > cap ? cap : 2 * p;
    }
}
