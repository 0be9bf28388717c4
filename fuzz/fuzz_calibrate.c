/* fuzz/fuzz_calibrate.c — libFuzzer harness: calibration (`ulaudit
 * calibrate`: ul_audit_calibrate for gaussian-mechanism, output-perturbation,
 * model-clipping, langevin and noisy-gd).
 *
 * Input: the bytes of a certificate file (seeds: those of fuzz_cert, and
 * the same with "sigma" removed, the parameter calibration most often
 * fills; tools/fuzz-seeds.sh).  Precision capped as in fuzz_cert; the
 * calibration and the audit of its output share FUZZ_BUDGET_SECONDS
 * (common.h): a calibration stopped by it is a refusal (UL_ETIME, a
 * message), an audit stopped by it is inconclusive.
 *
 * Contract (audit/audit.h): a refusal has a message and no output; a
 * completed certificate reads back (ul_cert_load_buffer) and its audit at the
 * same precision is "supported" (or "inconclusive" when the cap stops it):
 * calibration writes the parameter that makes the claim supported. */
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "cert/cert.h"
#include "common.h"
#include "num/deadline.h"

#define UL_FUZZ_MAX_BITS 256

static void check_completed(const char *text, const ul_num_precision *want)
{
    ul_cert *c = NULL;
    char err[1024] = "";
    ul_status st = ul_cert_load_buffer(text, strlen(text), &c, err, sizeof err);
    FUZZ_CHECK(st == UL_OK, "the completed certificate does not read back: %s\n%s", err, text);
    ul_audit_report rep;
    ul_audit_report_init(&rep);
    st = ul_audit(c, want, &rep, err, sizeof err);
    FUZZ_CHECK(st == UL_OK, "the completed certificate is refused: %s\n%s", err, text);
    FUZZ_CHECK(rep.verdict == UL_VERDICT_SUPPORTED || rep.verdict == UL_VERDICT_INCONCLUSIVE,
               "the completed certificate is %s: %s\n%s", ul_verdict_name(rep.verdict),
               rep.explanation, text);
    ul_cert_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ul_cert *c = NULL;
    char err[1024] = "";
    if (ul_cert_load_buffer((const char *)data, size, &c, err, sizeof err) != UL_OK)
        return 0;
    ul_num_precision want = {.digits = 10, .start_bits = 0, .max_bits = UL_FUZZ_MAX_BITS};
    char *completed = NULL;
    ul_deadline_set(FUZZ_BUDGET_SECONDS);
    ul_status st = ul_audit_calibrate(c, &want, &completed, err, sizeof err);
    if (st == UL_OK) {
        FUZZ_CHECK(completed != NULL, "calibrated without output");
        check_completed(completed, &want);
    } else {
        FUZZ_CHECK(err[0] && !completed, "refusal without a message, or with output");
    }
    ul_deadline_clear();
    free(completed);
    ul_cert_free(c);
    return 0;
}
