/* src/cert/cert.h — the certificate envelope (its objects read by io/fields.h).
 *
 * A certificate (format "ulaudit-certificate/1") is one JSON object with
 * exactly these top-level keys:
 *
 *   "format"     required  the string "ulaudit-certificate/1"
 *   "method"     required  one of ul_cert_methods (gaussian-mechanism, …, rdp-curve)
 *   "source"     optional  a free string: where the claim comes from
 *   "parameters" required  an object: the method's parameters
 *   "claim"      required  an object: what is claimed (ε, δ, Rényi order/value, …)
 *   "stated"     optional  an object: intermediate numbers the certificate states
 *                          (a per-step δ list, a calibrated σ, a K, …)
 *   "expected"   optional  {"verdict": "supported"|"unsupported"|"refuted"|"invalid"|
 *                          "inconclusive", "explanation": "…"} — used only by the
 *                          audits/ corpus; the audit itself ignores it
 *
 * Anything else at the top level is an error.  ul_cert_load checks the
 * envelope only; what "parameters", "claim" and "stated" may hold depends on
 * the method and is checked by ul_cert_read_object against a field table the
 * audit engine supplies.
 *
 * Numbers are never converted to double here: values come back as their
 * decimal TEXT ("0.1000000000000000000001" stays exactly that), checked by
 * exact decimal comparison, for the certified layer to read exactly
 * (ul_num_set_decimal).  A decimal may be written as a JSON number or as a
 * JSON string of decimal text ("1e-400" and 1e-400 are the same value).
 * Every decimal read here is also held to the limits of exact input
 * (num/input.h), checked before its range, so that every method converts
 * what it is given and refuses the same hostile value with the same words:
 * at most UL_NUM_DECIMAL_MAX_CHARS (1000) characters and 0 or
 * 10^-(10^18) <= |x| <= 10^(10^18) (ul_num_check_decimal); a field whose
 * spec sets .exact (read by its handler as an exact rational) also
 * 10^-20000 <= |x| <= 10^20000 (ul_num_check_exact), e.g.
 *   "$.parameters.L: 1e-20001 is below the smallest magnitude accepted for a
 *    number read as an exact rational (1e-20000; 0 itself is accepted)"
 *
 * Every error is UL_EINPUT with one line in (err, errlen) that names the JSON
 * path and the rule, e.g.
 *   "$.parameters.sgima: unknown field (did you mean 'sigma'? known: sigma, eps, delta)"
 *   "$.claim.delta: must be <= 1 (got '1e999999')"
 *   "$.stated.deltas[3]: must be a decimal number (a JSON number or a string of decimal text), got
 * null" Errors from ul_cert_load start with the file name.  The library never exits or prints.
 */
#ifndef UL_CERT_CERT_H
#define UL_CERT_CERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "io/fields.h"
#include "io/json.h"
#include "num/status.h"

/* The format tag this reader accepts. */
#define UL_CERT_FORMAT "ulaudit-certificate/1"

/* The method names of cert/methods.h (UL_CERT_METHOD_LIST), NULL-terminated. */
extern const char *const ul_cert_methods[];

/* The verdicts "expected.verdict" may name, NULL-terminated: supported,
 * unsupported, refuted, invalid, inconclusive. */
extern const char *const ul_cert_verdicts[];

typedef struct ul_cert ul_cert;

/* Reads a certificate file and checks its envelope.  Refuses (UL_EINPUT,
 * message starting with the file name) what ul_json_parse_file refuses
 * (unopenable, directory, empty, > 1 MiB, malformed JSON), and any envelope
 * error.  On failure *out is NULL. */
ul_status ul_cert_load(const char *path, ul_cert **out, char *err, size_t errlen);

/* The same from memory (text[0..len), need not be NUL-terminated); messages
 * carry no file name. */
ul_status ul_cert_load_buffer(const char *text, size_t len, ul_cert **out, char *err,
                              size_t errlen);

void ul_cert_free(ul_cert *c);

const char *ul_cert_method(const ul_cert *c);               /* never NULL for a loaded cert */
const char *ul_cert_source(const ul_cert *c);               /* NULL when absent */
const char *ul_cert_expected_verdict(const ul_cert *c);     /* NULL when "expected" is absent */
const char *ul_cert_expected_explanation(const ul_cert *c); /* NULL when absent */

/* The raw object ("parameters", "claim", "stated", "expected"), NULL when
 * absent; for callers that need more than ul_cert_read_object gives. */
const ul_json_value *ul_cert_object(const ul_cert *c, const char *object);

/* Reads object "parameters", "claim" or "stated" against specs[0..n):
 * every key present must be a spec (unknown field → error listing the known
 * ones), every required spec must be present, each value must have its
 * type, lie in its range (exact decimal comparison, ul_num_read_checked
 * semantics) and, for lists, be non-empty with each element valid.  An
 * absent "stated" object reads as an object with no keys.  On failure
 * *out = {0, NULL}. */
ul_status ul_cert_read_object(const ul_cert *c, const char *object, const ul_field_spec *specs,
                              size_t n, ul_cert_values *out, char *err, size_t errlen);

/* Re-serialises the certificate as JSON text (*out, malloc'd, NUL-terminated,
 * ending in a newline) with the field `field` of the object `object`
 * ("parameters", "claim" or "stated") set to the number decimal_text:
 * replaced in place when present, appended as the object's last member when
 * absent (an absent "stated" object is created with that one member).  This
 * is how `ulaudit calibrate` writes a completed certificate.
 *   - decimal_text must be one JSON number literal ("0.2431", "18",
 *     "9.9977724e-1"); it is written verbatim, never through a double;
 *   - every other number keeps its original decimal text, strings are
 *     re-escaped, members and elements keep their document order;
 *   - top-level keys come in the order format, method, source, parameters,
 *     claim, stated; "expected" is DROPPED (a corpus expectation no longer
 *     applies to the changed certificate);
 *   - layout: two-space indentation, one member per line, arrays on one line.
 * The result reads back with ul_cert_load_buffer.  UL_EINPUT (out NULL, err
 * says why) when object is not one of the three, field is empty or
 * decimal_text is not a JSON number. */
ul_status ul_cert_to_json_with(const ul_cert *c, const char *object, const char *field,
                               const char *decimal_text, char **out, char *err, size_t errlen);

#endif
