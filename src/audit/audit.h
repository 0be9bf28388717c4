/* src/audit/audit.h — the audit engine: a certificate in, a verdict and its
 * explanation out.
 *
 * One method handler per theorem family (audit_<family>.c) reads its fields
 * with ul_cert_read_object, recomputes the cited guarantee with the certified
 * functions of src/bounds, and fills a ul_audit_report.  The verdict is
 * always decided on the side of the enclosure that could hurt the
 * claimant's users (docs/design.md, "Verdicts"):
 *
 *   supported     the certified bound is within the claim (upper end ≤ claim)
 *   unsupported   the cited theorem, computed soundly, does not reach the
 *                 claim (lower end > claim); the report says what would
 *   refuted       the claim is provably false: an exact privacy profile
 *                 (e.g. the Gaussian mechanism's θ) exceeds it
 *   invalid       a precondition of the theorem fails (each one listed)
 *   inconclusive  the enclosure straddles the claim at the precision cap
 *
 * CLI exit codes: 0 supported, 1 unsupported/refuted/invalid, 3 inconclusive,
 * 2 unreadable input (docs/design.md, "Exit codes").
 */
#ifndef UL_AUDIT_AUDIT_H
#define UL_AUDIT_AUDIT_H

#include "bounds/theorem.h"
#include "cert/cert.h"
#include "cert/methods.h"
#include "num/adaptive.h"

typedef enum {
    UL_VERDICT_SUPPORTED = 0,
    UL_VERDICT_UNSUPPORTED,
    UL_VERDICT_REFUTED,
    UL_VERDICT_INVALID,
    UL_VERDICT_INCONCLUSIVE,
} ul_verdict;

/* "supported", "unsupported", "refuted", "invalid", "inconclusive". */
const char *ul_verdict_name(ul_verdict v);

/* The CLI exit code of a verdict: 0, 1, 1, 1, 3. */
int ul_verdict_exit_code(ul_verdict v);

/* The largest --digits the CLI accepts (src/cli/args.c: 1 to 5000). */
#define UL_AUDIT_MAX_DIGITS 5000

/* Room for one number as the handlers quote it in sentences (explanation,
 * first_wrong_stated, ...; audit_util.h's ul_audit_quote and the handlers'
 * own buffers are sized by it).  A number that does not fit is quoted with
 * fewer digits, still rounded outward, never cut; when not even 1 digit fits
 * (an exponent of ~90 digits) the quoted ends are -inf/inf and the report
 * prints the full ones (quoted_out below).  The margin holds its two numbers
 * at the digits asked (its own size, below). */
#define UL_AUDIT_NUMBER_CHARS 96

/* Room for one number at UL_AUDIT_MAX_DIGITS significant digits: sign,
 * digits, point, "e", exponent sign and digits (up to 40: log-form values),
 * NUL, with slack. */
#define UL_AUDIT_FULL_CHARS (UL_AUDIT_MAX_DIGITS + 64)

/* Room for the free text around the numbers of one report field: the
 * certificate's own decimals (each at most UL_JSON_MAX_NUMBER_CHARS
 * characters), JSON paths (UL_JSON_PATH_MAX) and the words. */
#define UL_AUDIT_TEXT_CHARS (2 * UL_JSON_MAX_NUMBER_CHARS + 2 * UL_JSON_PATH_MAX + 1024)

/* A named number of a report: an enclosure printed as decimals (lo rounded
 * down, hi rounded up; an exact value or an integer has lo = hi).  key is a
 * stable snake_case JSON name ("delta", "eps", "sigma_needed", "steps_needed");
 * label is the text report's wording (it may quote a certificate decimal). */
typedef struct {
    const char *key;
    char label[UL_JSON_MAX_NUMBER_CHARS + 256];
    /* the bounds as handlers quote them (at most 95 characters: fewer
     * digits than asked when needed, rounded outward) */
    char lo[UL_AUDIT_NUMBER_CHARS];
    char hi[UL_AUDIT_NUMBER_CHARS];
    /* the same bounds at the digits asked, written only by the helpers
     * below; report.c prints them (ul_audit_number_lo/_hi) when they agree
     * with lo/hi, i.e. when no handler has written lo/hi directly since */
    char lo_full[UL_AUDIT_FULL_CHARS];
    char hi_full[UL_AUDIT_FULL_CHARS];
    /* set by the helpers when not even 1 digit of a bound fits in lo/hi
     * (an exponent of ~90 digits or more, e.g. δ below 10^(-10^100)): lo/hi
     * then say "-inf"/"inf" (still an enclosure) and lo_full/hi_full hold the
     * bounds */
    bool quoted_out;
} ul_audit_number;

/* The bound to print: lo_full (hi_full) when it is a string that rounds, at
 * the digits of lo (hi) and in its direction, to exactly lo (hi), or, when
 * quoted_out, any whole decimal (the helpers wrote it with lo/hi = -inf/inf);
 * else lo (hi) itself. */
const char *ul_audit_number_lo(const ul_audit_number *n);
const char *ul_audit_number_hi(const ul_audit_number *n);

#define UL_AUDIT_MAX_NUMBERS 6

/* An omitted fact (ul_field_spec.omitted): the field, the reading the audit
 * took (the one least favourable to the claim) and the line that would state
 * it. */
typedef struct {
    char field[UL_JSON_PATH_MAX]; /* "$.parameters.adjacency" */
    char reading[512];            /* the spec's .omitted text */
    char state_it[512];           /* e.g. "\"adjacency\": \"add-remove\" (or \"replacement\")" */
    bool fails;                   /* no reading can be checked: the theorem does not apply */
    char pre_name[UL_JSON_PATH_MAX + 16]; /* when fails: the precondition "<field>_stated" */
    char pre_rule[1024];          /* and its rule (rep->pre points into both) */
} ul_audit_omitted;

#define UL_AUDIT_MAX_OMITTED 12

/* One number of the certificate's claim, as its exact decimal text (a JSON
 * number's literal, or a string of decimal text, as written): every method's
 * claim table (audit_*.c) has at most eps, delta, renyi_order and
 * renyi_value. */
typedef struct {
    char key[32];
    char value[UL_JSON_MAX_NUMBER_CHARS + 1];
} ul_audit_claim_value;

#define UL_AUDIT_MAX_CLAIM_VALUES 4

/* "YYYY-MM-DDThh:mm:ssZ" and its NUL, with room for a 5-digit year. */
#define UL_AUDIT_TIME_CHARS 32

/* ul_audit() checks each text field after the handler: a field filled to
 * its last byte (a handler's snprintf cut it) is cut back to whole words and
 * marked "[cut: ...]", and a cut lo/hi becomes -inf/inf, so no printed number
 * is ever a truncated one. */
typedef struct {
    ul_verdict verdict;
    char claim[4 * UL_JSON_MAX_NUMBER_CHARS + 256]; /* the claim in words:
                                                     * "(eps, delta) = (1, 1e-5)" */
    char theorem[1024];    /* the theorem/formula recomputed, with its source */
    char variant[16];      /* "corrected", "printed" or "" when the theorem has one form */

    /* The certified guarantee at the claim (e.g. δ at the claimed ε). */
    ul_audit_number recomputed;
    /* the claim beside the enclosure, in words: room for both ends at any
     * --digits and the claimed decimal (ul_audit_compare prints its numbers
     * with fewer digits, outward, only if they still do not fit) */
    char margin[2 * UL_AUDIT_FULL_CHARS + UL_JSON_MAX_NUMBER_CHARS + 512];

    ul_preconditions pre;  /* every precondition checked, by name */

    /* What the other variant gives (key NULL when the theorem has one form). */
    ul_audit_number other_variant;

    /* For unsupported claims: what the theorem does certify, e.g. the σ, K
     * or T that would reach the claim, or the δ it reaches (n ≤ MAX). */
    ul_audit_number would_reach[UL_AUDIT_MAX_NUMBERS];
    int n_would_reach;

    /* The optional facts the certificate leaves out, each with the reading
     * taken (audit_omitted.h).  A failing omission's precondition in pre
     * points into its entry here: a copy of a finished report keeps its
     * strings only while the original lives. */
    ul_audit_omitted omitted[UL_AUDIT_MAX_OMITTED];
    int n_omitted;

    /* the first wrong number under "stated" (path, stated and certified
     * values), or "" */
    char first_wrong_stated[2 * UL_AUDIT_NUMBER_CHARS + UL_AUDIT_TEXT_CHARS];
    /* the faulty recipe that reproduces a wrong claimed number, or "" */
    char forensics[2 * UL_AUDIT_NUMBER_CHARS + UL_AUDIT_TEXT_CHARS];
    /* plain-language summary of why: whole sentences only (ul_audit_explain) */
    char explanation[8 * UL_AUDIT_NUMBER_CHARS + 2 * UL_AUDIT_TEXT_CHARS];
    bool explanation_cut; /* a sentence did not fit and was left out (said once
                           * at the end of explanation) */

    /* The record of the audit (issue 27), filled by ul_audit (claim values,
     * time) and by ul_audit_report_hash (hash):
     * the claim's numbers in the certificate's order (claim_read false: the
     * claim was not read, e.g. the command line's time-out report) */
    ul_audit_claim_value claim_values[UL_AUDIT_MAX_CLAIM_VALUES];
    int n_claim_values;
    bool claim_read;
    /* SHA-256 of the certificate's bytes, 64 lowercase hex digits, or "" */
    char certificate_sha256[65];
    /* when the audit finished, UTC ISO 8601 (report.h, ul_audit_timestamp),
     * or "": the report functions then write the time they run */
    char generated_at[UL_AUDIT_TIME_CHARS];
} ul_audit_report;

/* Zeroes a report (verdict inconclusive, empty strings, no numbers). */
void ul_audit_report_init(ul_audit_report *rep);

/* One method handler.  audit: fills rep, returning UL_OK whatever the
 * verdict, or UL_EINPUT (message naming the JSON path) when the certificate
 * does not fit the method's schema; the omitted facts it notes are applied
 * to the verdict by ul_audit (audit_omitted.h), so callers go through
 * ul_audit, or apply them themselves (ul_audit_apply_omitted).  calibrate (may be NULL): writes into
 * *completed (malloc'd JSON text) the certificate completed with the
 * missing parameter (σ, K or T) that makes the claim supported. */
typedef struct {
    const char *method; /* as in the certificate's "method" */
    ul_status (*audit)(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                       char *err, size_t errlen);
    ul_status (*calibrate)(const ul_cert *c, const ul_num_precision *want, char **completed,
                           char *err, size_t errlen);
    /* The method's "parameters" table: the one declaration of its fields,
     * facts with their omitted reading among them (tests and the manual's
     * table of omitted fields read it too). */
    const ul_field_spec *params;
    size_t n_params;
} ul_audit_method;

/* The handler of a method name, or NULL. */
const ul_audit_method *ul_audit_find(const char *method);

/* Audits a loaded certificate with the handler of its method.
 *
 * Time budget (num/deadline.h, set by the caller, e.g. `--max-seconds`):
 * when the handler returns UL_ETIME, or returns anything after the budget
 * has run out, the audit did not finish in time and the report becomes
 * ul_audit_time_out's (inconclusive, the reason in the explanation, no
 * number), returned with UL_OK. */
ul_status ul_audit(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                   char *err, size_t errlen);

/* Loads a certificate (from text[0..len) when text is not NULL, else from
 * the file path: ul_cert_load_buffer / ul_cert_load) and audits it
 * (ul_audit).  method[0..methodlen) gets the certificate's method, or ""
 * when it does not load.  For callers that hold no certificate of their
 * own (emp/attack.c). */
ul_status ul_audit_load(const char *path, const char *text, size_t len,
                        const ul_num_precision *want, ul_audit_report *rep, char *method,
                        size_t methodlen, char *err, size_t errlen);

/* Turns rep into the report of an audit stopped by the time budget: verdict
 * inconclusive; claim, theorem, variant and the preconditions already decided
 * are kept; every number, the margin, forensics and the old explanation are
 * dropped (a number from an unfinished audit is never printed); the
 * explanation says "Time limit of S s reached (--max-seconds) while <what>".
 * what: a gerund phrase ("auditing the certificate"), or NULL for that one. */
void ul_audit_time_out(ul_audit_report *rep, const char *what);

/* The sentence ul_audit_time_out writes, into buf (for a caller that has no
 * report, e.g. `calibrate`). */
void ul_audit_time_out_text(char *buf, size_t n, const char *what);

/* Completes a certificate (see ul_audit_method.calibrate).  UL_EINPUT when
 * the method has no calibration or nothing is missing.  UL_ETIME (message:
 * ul_audit_time_out_text's) when the time budget ran out before it
 * finished: *completed is then NULL. */
ul_status ul_audit_calibrate(const ul_cert *c, const ul_num_precision *want, char **completed,
                             char *err, size_t errlen);

/* ---- helpers for method handlers ----------------------------------------- */

/* The verdict of "guarantee ≤ claimed" for a certified upper bound
 * (guarantee: a value, linear or log form) against the claimed decimal:
 * SUPPORTED when the upper end is ≤ claimed, UNSUPPORTED (REFUTED when
 * exact_profile: the guarantee is the exact privacy profile, not just a
 * bound) when the lower end is > claimed, INCONCLUSIVE otherwise.  Fills
 * rep->recomputed (with key and label) and rep->margin. */
ul_verdict ul_audit_compare(ul_audit_report *rep, const char *key, const char *label,
                            const ul_num_value *guarantee, const char *claimed,
                            bool exact_profile, int digits);

/* Formats a value / an mpfi enclosure into n (lo down, hi up) at `digits`
 * significant digits, or, when lo or hi would not fit in n, at fewer digits
 * (still rounded outward: lo down, hi up), never cut. */
void ul_audit_number_set(ul_audit_number *n, const char *key, const char *label,
                         const ul_num_value *v, int digits);
void ul_audit_number_set_mpfi(ul_audit_number *n, const char *key, const char *label,
                              mpfi_srcptr x, int digits);
void ul_audit_number_set_integer(ul_audit_number *n, const char *key, const char *label,
                                 unsigned long value);

/* Appends a printf-formatted sentence to rep->explanation, separated by a
 * space.  A sentence that does not fit is left out whole (never cut in the
 * middle), and the explanation then ends, once, with a note saying so. */
void ul_audit_explain(ul_audit_report *rep, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The handlers (audit_<family>.c): ul_audit_<id> for every method of
 * cert/methods.h. */
#define UL_AUDIT_DECLARE_METHOD(name, id) extern const ul_audit_method ul_audit_##id;
UL_CERT_METHOD_LIST(UL_AUDIT_DECLARE_METHOD)
#undef UL_AUDIT_DECLARE_METHOD

#endif
