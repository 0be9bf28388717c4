/* src/audit/report.h — an audit report as text and as JSON.
 *
 * JSON (one object; field names are stable and documented in README):
 *
 *   verdict             "supported" | "unsupported" | "refuted" | "invalid" | "inconclusive"
 *   exit_code           0 | 1 | 3 (the CLI's exit code for the verdict)
 *   method              the certificate's method
 *   source              the certificate's "source", or null
 *   certificate_sha256  SHA-256 of the certificate's bytes (64 lowercase hex digits), or null
 *   tool                {name: "ulaudit", version}: the library that wrote the report
 *   generated_at        when the audit finished: UTC, "YYYY-MM-DDThh:mm:ssZ" (ISO 8601);
 *                       SOURCE_DATE_EPOCH, when set, fixes it (ul_audit_timestamp)
 *   claim               the claim in words
 *   claim_values        {key: "decimal text"}: the certificate's claim numbers exactly as
 *                       written (eps, delta, renyi_order, renyi_value: the ones it has),
 *                       or null when the claim was not read
 *   theorem             the theorem or formula recomputed, with its source
 *   variant             "corrected" | "printed" | null (theorems with one form)
 *   recomputed          {key, label, lo, hi}: the certified guarantee at the claim
 *                       (lo rounded down, hi rounded up), or null when nothing was computed
 *   margin              the claim beside the enclosure, in words
 *   preconditions       [{name, rule, state: "holds" | "fails" | "undecided"}]
 *   omitted             [{field, reading, state_it}]: each optional fact the certificate
 *                       leaves out (a JSON path), the reading the audit took (the one least
 *                       favourable to the claim) and the line that would state it
 *   other_variant       {key, label, lo, hi} for the other form, or null
 *   would_reach         [{key, label, lo, hi}]: what the theorem does certify (σ, K, T, δ, ε)
 *   first_wrong_stated  the first wrong number under "stated" (path and certified value), or null
 *   forensics           which faulty recipe reproduces a wrong number, or null
 *   explanation         plain-language summary
 *   digits              significant digits asked for (--digits)
 *
 * The text form shows the same content, one labelled line or block each
 * (certificate_sha256, tool and generated_at as the header lines
 * "certificate sha256", "tool" and "generated at" after the source).
 */
#ifndef UL_AUDIT_REPORT_H
#define UL_AUDIT_REPORT_H

#include "audit/audit.h"

/* The time of a report: SOURCE_DATE_EPOCH when set and not empty (the
 * reproducible-builds convention, https://reproducible-builds.org/specs/
 * source-date-epoch/: a whole number of seconds since 1970-01-01 00:00:00
 * UTC), else the clock; written as "YYYY-MM-DDThh:mm:ssZ".  UL_EINPUT (out
 * "") when SOURCE_DATE_EPOCH is not a whole number from 0 to 253402300799
 * (9999-12-31T23:59:59Z): the convention asks tools to refuse a malformed
 * value rather than fall back to the clock. */
ul_status ul_audit_timestamp(char out[UL_AUDIT_TIME_CHARS], char *err, size_t errlen);

/* Sets rep->certificate_sha256 to the SHA-256 of text[0..len) when text is
 * not NULL, else of the bytes of the file path (read again: the certificate
 * reader keeps no copy); "" (JSON null) when the file cannot be read. */
void ul_audit_report_hash(ul_audit_report *rep, const char *path, const char *text, size_t len);

/* The report as readable text (malloc'd, ends in a newline).  method and
 * source may be NULL. */
char *ul_audit_report_text(const ul_audit_report *rep, const char *method, const char *source);

/* The report as one pretty-printed JSON object (malloc'd, no trailing
 * newline). */
char *ul_audit_report_json(const ul_audit_report *rep, const char *method, const char *source,
                           int digits);

#endif
