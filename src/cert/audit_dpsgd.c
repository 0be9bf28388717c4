/* src/cert/audit_dpsgd.c — method "dp-sgd": (ε, δ) claims of DP-SGD runs
 * (phases of noise multiplier, Poisson sample rate and steps, as in Opacus's
 * accountant history), decided by the certified accountants of bounds/
 * (issue 14).  Not auditable yet: the handler refuses every certificate. */
#include "cert/audit.h"

static ul_status dpsgd_audit(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                             char *err, size_t errlen)
{
    (void)c, (void)want, (void)rep;
    return ul_fail(err, errlen, UL_EINPUT, "$.method: 'dp-sgd' cannot be audited yet");
}

const ul_audit_method ul_audit_dp_sgd = {"dp-sgd", dpsgd_audit, NULL};
