/* src/audit/curve.h — the certified privacy curve of an audited certificate,
 * for the report's figure (issue 27).
 *
 * An audit certifies one point: the guarantee at the claim (report.h's
 * "recomputed": δ at the claimed ε, or ε at the claimed δ).  The curve is
 * the same theorem with the same parameters at other claims: the
 * certificate is audited again with its claim's free coordinate moved over a
 * grid (ε over a linear grid when the recomputed key is "delta", δ over a
 * log grid when it is "eps"), and each point keeps that audit's recomputed
 * enclosure, so every point of the band is itself certified (its decimal
 * ends, read as doubles rounded outward).  The other form of a theorem
 * (report.h's other_variant: "printed" beside "corrected") gives the second
 * curve.  Methods whose recomputed key is neither (σ, K, a Rényi value)
 * have no curve: n = 0 and why says so.
 *
 * The grid (curve.c): ε = claim·i/8 for i = 1..24 (claim/8 to 3× the claim,
 * the claim among them); δ = 10^-12 … 10^-1 at half decades (23 points), the
 * claimed δ inserted.  Each grid point is a decimal of 6 significant digits
 * (x holds the double nearest it), audited at min(want->digits, 6) digits;
 * the claim's own point is the caller's report (its digits), not audited
 * again.  A grid audit whose number is keyed otherwise (dp-sgd certifies a
 * large ε through the RDP ε instead of δ) or that fails is a gap (NAN).
 *
 * The count: the first grid point (the same whatever the count) is audited
 * alone and timed; the grid then has as many points as the time left holds
 * at that cost (max_seconds, or 60 s when 0), between 5 and the full grid,
 * audited coarse to fine (last point, then every 2^k-th) so that a curve
 * the time cuts still spans its range.
 *
 * Time and cancel: each audit runs under a budget of the time left
 * (num/deadline.h), within the caller's own budget; the caller's budget is
 * restored afterwards.  When the time runs out or the cancel flag is
 * raised, the points done are kept (UL_OK) and why says "k of n points: time
 * limit of S s" or "k of n points: cancelled".  Progress: the task "privacy
 * curve" (num/progress.h), the first point's timing as a task of unknown
 * length, then one step per point. */
#ifndef UL_AUDIT_CURVE_H
#define UL_AUDIT_CURVE_H

#include <stdbool.h>
#include <stddef.h>

#include "audit/audit.h"

#define UL_AUDIT_CURVE_MAX_POINTS 41

typedef struct {
    const char *x_key, *y_key;  /* "eps", "delta" (δ(ε)) or "delta", "eps" (ε(δ)) */
    bool log_x, log_y;          /* δ axes are logarithmic */
    size_t n;                   /* points computed, 0 when there is no curve */
    double x[UL_AUDIT_CURVE_MAX_POINTS];
    /* the certified enclosure of y at x: lo rounded toward −∞, hi toward +∞
     * (from the report's decimals); lo = hi = NAN where that audit gave no
     * number of this key (e.g. it certified the claim through another
     * quantity); points the time did not reach are left out, not NAN */
    double lo[UL_AUDIT_CURVE_MAX_POINTS], hi[UL_AUDIT_CURVE_MAX_POINTS];
    /* the other variant's enclosure at x, NAN when the theorem has one form */
    double other_lo[UL_AUDIT_CURVE_MAX_POINTS], other_hi[UL_AUDIT_CURVE_MAX_POINTS];
    char label[96], other_label[96];  /* e.g. "corrected Thm 3.2", "printed Thm 3.2" */
    double claim_x, claim_y;          /* the claim's point */
    char why[256];                    /* no curve, or points missing: why, in words */
} ul_audit_curve;

/* Computes the curve of the certificate (text[0..len) when text is not
 * NULL, else the file path) whose audit gave rep.  max_seconds bounds the
 * whole curve (each audit gets the time left; points not reached are left
 * out and why says so); 0 means no limit (the count then aims at 60 s).
 * want (may be NULL) gives the precision cap; its digits are capped at 6.  UL_OK with n = 0 when the method
 * has no curve; UL_EINPUT when the certificate does not load. */
ul_status ul_audit_curve_compute(const char *path, const char *text, size_t len,
                                 const ul_audit_report *rep, const ul_num_precision *want,
                                 double max_seconds, ul_audit_curve *out, char *err,
                                 size_t errlen);

#endif
