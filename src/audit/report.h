/* src/audit/report.h — an audit report as text and as JSON.
 *
 * JSON (one object; field names are stable and documented in README):
 *
 *   verdict             "supported" | "unsupported" | "refuted" | "invalid" | "inconclusive"
 *   exit_code           0 | 1 | 3 (the CLI's exit code for the verdict)
 *   method              the certificate's method
 *   source              the certificate's "source", or null
 *   claim               the claim in words
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
 * The text form shows the same content, one labelled line or block each.
 */
#ifndef UL_AUDIT_REPORT_H
#define UL_AUDIT_REPORT_H

#include "audit/audit.h"

/* The report as readable text (malloc'd, ends in a newline).  method and
 * source may be NULL. */
char *ul_audit_report_text(const ul_audit_report *rep, const char *method, const char *source);

/* The report as one pretty-printed JSON object (malloc'd, no trailing
 * newline). */
char *ul_audit_report_json(const ul_audit_report *rep, const char *method, const char *source,
                           int digits);

#endif
