/* fuzz/fuzz_cert.c — libFuzzer harness: the certificate reader and the audit
 * of every method.
 *
 * Input: the bytes of a certificate file (seeds: the .json files of
 * audits/, tests/data/certs/good/ and tests/data/fuzz/; tools/fuzz-seeds.sh).
 * ul_cert_load_buffer reads it; a certificate that loads is audited by the
 * handler of its method (ul_audit dispatches on "method", so every method is
 * reached) at a low precision cap (UL_FUZZ_MAX_BITS) so each input is fast,
 * and the report is rendered as text and JSON, as `ulaudit audit` does.
 *
 * Each input has FUZZ_BUDGET_SECONDS (common.h).
 *
 * Contracts checked (abort = finding): a refusal carries a message and
 * leaves no certificate; every printed enclosure has lo <= hi, each end
 * reads back fully as a decimal, and no end fills its buffer (a full buffer
 * is how snprintf truncation shows, issue 12 item 1).
 */
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "cert/cert.h"
#include "audit/report.h"
#include "common.h"
#include "num/deadline.h"

/* The cap: 256 bits (about 77 digits) decide most verdicts and keep an audit
 * in milliseconds; a wider enclosure is still sound (adaptive.h). */
#define UL_FUZZ_MAX_BITS 256

/* A printed end: a whole decimal that did not fill its buffer. */
static void check_end(mpfr_ptr x, const char *text, size_t cap, const char *what)
{
    FUZZ_CHECK(strlen(text) < cap - 1, "%s '%s' fills its %zu-byte buffer (truncated?)", what, text,
               cap);
    char *end = NULL;
    FUZZ_CHECK(mpfr_strtofr(x, text, &end, 10, MPFR_RNDN) >= -1 && end && *end == '\0' &&
                   end != text,
               "%s '%s' is not a decimal", what, text);
}

/* lo <= hi for one reported number (lo rounded down, hi up: audit.h). */
static void check_number(const ul_audit_number *n)
{
    if (!n->key || (!n->lo[0] && !n->hi[0]))
        return;
    mpfr_t lo, hi;
    mpfr_inits2(256, lo, hi, (mpfr_ptr)0);
    check_end(lo, n->lo, sizeof n->lo, n->key);
    check_end(hi, n->hi, sizeof n->hi, n->key);
    FUZZ_CHECK(mpfr_lessequal_p(lo, hi), "%s: lo %s > hi %s", n->key, n->lo, n->hi);
    /* the ends as printed: every digit asked (lo_full / hi_full) or the quoted ones */
    const char *plo = ul_audit_number_lo(n), *phi = ul_audit_number_hi(n);
    check_end(lo, plo, plo == n->lo_full ? sizeof n->lo_full : sizeof n->lo, n->key);
    check_end(hi, phi, phi == n->hi_full ? sizeof n->hi_full : sizeof n->hi, n->key);
    FUZZ_CHECK(mpfr_lessequal_p(lo, hi), "%s: printed lo %s > hi %s", n->key, plo, phi);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

static void check_report(const ul_cert *c, const ul_audit_report *rep, int digits)
{
    check_number(&rep->recomputed);
    check_number(&rep->other_variant);
    FUZZ_CHECK(rep->n_would_reach >= 0 && rep->n_would_reach <= UL_AUDIT_MAX_NUMBERS,
               "n_would_reach = %d", rep->n_would_reach);
    for (int i = 0; i < rep->n_would_reach; i++)
        check_number(&rep->would_reach[i]);
    char *text = ul_audit_report_text(rep, ul_cert_method(c), ul_cert_source(c));
    char *json = ul_audit_report_json(rep, ul_cert_method(c), ul_cert_source(c), digits);
    FUZZ_CHECK(text && json, "a report did not render");
    free(text);
    free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ul_cert *c = NULL;
    char err[1024] = "";
    if (ul_cert_load_buffer((const char *)data, size, &c, err, sizeof err) != UL_OK) {
        FUZZ_CHECK(c == NULL && err[0], "a refused certificate must leave no cert and a message");
        return 0;
    }
    /* digits from the size, so inputs of every size class ask for 4 to 30 digits */
    static const int digits_of[4] = {4, 10, 17, 30};
    int digits = digits_of[size % 4];
    ul_num_precision want = {.digits = digits, .start_bits = 0, .max_bits = UL_FUZZ_MAX_BITS};
    ul_audit_report rep;
    ul_audit_report_init(&rep);
    err[0] = '\0';
    ul_deadline_set(FUZZ_BUDGET_SECONDS);
    ul_status st = ul_audit(c, &want, &rep, err, sizeof err);
    ul_deadline_clear();
    if (st == UL_OK)
        check_report(c, &rep, digits);
    else
        FUZZ_CHECK(err[0], "audit status %d without a message", (int)st);
    ul_cert_free(c);
    return 0;
}
