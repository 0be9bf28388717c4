/* src/num/adaptive.h — Ziv-style adaptive precision.
 *
 * Evaluate at p bits; while the enclosure is wider than the digits asked
 * for, evaluate again at 2p bits; stop at a cap.  Every round's enclosure is
 * sound, so hitting the cap costs tightness, never correctness.
 */
#ifndef UL_NUM_ADAPTIVE_H
#define UL_NUM_ADAPTIVE_H

#include "num/encl.h"

#define UL_NUM_DEFAULT_MAX_BITS 65536

/* What the caller wants: `digits` correct significant digits (>= 1),
 * starting at start_bits (0: derived from digits) and never above max_bits
 * (0: UL_NUM_DEFAULT_MAX_BITS). */
typedef struct {
    int digits;
    mpfr_prec_t start_bits;
    mpfr_prec_t max_bits;
} ul_num_precision;

/* What happened: the precision of the last round and whether the cap stopped
 * the loop before the enclosure was narrow enough. */
typedef struct {
    mpfr_prec_t bits_used;
    bool cap_hit;
} ul_num_report;

/* One evaluation.  out->enclosure arrives initialised at the working
 * precision; the evaluator fills it (and out->is_log) with a sound enclosure
 * or returns an error status with a message. */
typedef ul_status (*ul_num_evaluator)(ul_num_value *out, void *ctx, char *err, size_t errlen);

/* Runs the loop.  On UL_OK or UL_ECAP, *out (initialised by the caller at any
 * precision) holds the last, sound enclosure and *report says how it ended.
 * UL_ETIME when the time budget (num/deadline.h) has run out before a round:
 * nothing is returned then.  Other statuses come from the evaluator. */
ul_status ul_num_adaptive_eval(ul_num_evaluator eval, void *ctx, const ul_num_precision *want,
                               ul_num_value *out, ul_num_report *report, char *err, size_t errlen);

/* The first working precision for `digits` digits plus extra_bits of guard
 * (a caller's estimate of cancellation), clamped to the cap. */
mpfr_prec_t ul_num_start_bits(const ul_num_precision *want, double extra_bits);

/* The cap that applies to want. */
mpfr_prec_t ul_num_max_bits(const ul_num_precision *want);

#endif
