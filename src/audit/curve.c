/* src/audit/curve.c — PLACEHOLDER until the curve lands (issue 27). */
#include "audit/curve.h"

#include <stdio.h>
#include <string.h>

ul_status ul_audit_curve_compute(const char *path, const char *text, size_t len,
                                 const ul_audit_report *rep, const ul_num_precision *want,
                                 double max_seconds, ul_audit_curve *out, char *err,
                                 size_t errlen)
{
    (void)path, (void)text, (void)len, (void)rep, (void)want, (void)max_seconds, (void)err,
        (void)errlen;
    memset(out, 0, sizeof *out);
    snprintf(out->why, sizeof out->why, "the curve is not computed yet");
    return UL_OK;
}
