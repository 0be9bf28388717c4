/* src/cert/audit.h — the audit engine: a certificate in, a verdict and its
 * explanation out.
 *
 * One method handler per theorem family (audit_<family>.c) reads its fields
 * with ul_cert_read_object, recomputes the cited guarantee with the certified
 * functions of src/bounds, and fills a ul_audit_report.  The verdict is
 * always decided on the side of the enclosure that could hurt the
 * claimant's users (DESIGN.md, "Certificates and verdicts"):
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
 * 2 unreadable input (DESIGN.md, command-line contract).
 */
#ifndef UL_CERT_AUDIT_H
#define UL_CERT_AUDIT_H

#include "bounds/theorem.h"
#include "cert/cert.h"
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

/* A named number of a report: an enclosure printed as decimals (lo rounded
 * down, hi rounded up; an exact value or an integer has lo = hi).  key is a
 * stable snake_case JSON name ("delta", "eps", "sigma_needed", "steps_needed");
 * label is the text report's wording. */
typedef struct {
    const char *key;
    char label[128];
    char lo[96];
    char hi[96];
} ul_audit_number;

#define UL_AUDIT_MAX_NUMBERS 6

typedef struct {
    ul_verdict verdict;
    char claim[256];       /* the claim in words: "(eps, delta) = (1, 1e-5)" */
    char theorem[256];     /* the theorem/formula recomputed, with its source */
    char variant[16];      /* "corrected", "printed" or "" when the theorem has one form */

    /* The certified guarantee at the claim (e.g. δ at the claimed ε). */
    ul_audit_number recomputed;
    char margin[512];      /* the claim beside the enclosure, in words */

    ul_preconditions pre;  /* every precondition checked, by name */

    /* What the other variant gives (key NULL when the theorem has one form). */
    ul_audit_number other_variant;

    /* For unsupported claims: what the theorem does certify, e.g. the σ, K
     * or T that would reach the claim, or the δ it reaches (n ≤ MAX). */
    ul_audit_number would_reach[UL_AUDIT_MAX_NUMBERS];
    int n_would_reach;

    char first_wrong_stated[256]; /* the first wrong number under "stated", or "" */
    char forensics[512];          /* the faulty recipe that reproduces a wrong
                                   * claimed number, or "" */
    char explanation[1536];       /* plain-language summary of why */
} ul_audit_report;

/* Zeroes a report (verdict inconclusive, empty strings, no numbers). */
void ul_audit_report_init(ul_audit_report *rep);

/* One method handler.  audit: fills rep, returning UL_OK whatever the
 * verdict, or UL_EINPUT (message naming the JSON path) when the certificate
 * does not fit the method's schema.  calibrate (may be NULL): writes into
 * *completed (malloc'd JSON text) the certificate completed with the
 * missing parameter (σ, K or T) that makes the claim supported. */
typedef struct {
    const char *method; /* as in the certificate's "method" */
    ul_status (*audit)(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                       char *err, size_t errlen);
    ul_status (*calibrate)(const ul_cert *c, const ul_num_precision *want, char **completed,
                           char *err, size_t errlen);
} ul_audit_method;

/* Audits a loaded certificate with the handler of its method. */
ul_status ul_audit(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                   char *err, size_t errlen);

/* Completes a certificate (see ul_audit_method.calibrate).  UL_EINPUT when
 * the method has no calibration or nothing is missing. */
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

/* Formats a value / an mpfi enclosure into n (lo down, hi up). */
void ul_audit_number_set(ul_audit_number *n, const char *key, const char *label,
                         const ul_num_value *v, int digits);
void ul_audit_number_set_mpfi(ul_audit_number *n, const char *key, const char *label,
                              mpfi_srcptr x, int digits);
void ul_audit_number_set_integer(ul_audit_number *n, const char *key, const char *label,
                                 unsigned long value);

/* Appends a printf-formatted sentence to rep->explanation. */
void ul_audit_explain(ul_audit_report *rep, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The handlers (audit_<family>.c). */
extern const ul_audit_method ul_audit_gaussian_mechanism;
extern const ul_audit_method ul_audit_output_perturbation;
extern const ul_audit_method ul_audit_rdp_curve;
extern const ul_audit_method ul_audit_model_clipping;
extern const ul_audit_method ul_audit_gradient_clipping;
extern const ul_audit_method ul_audit_dp_sgd_group;
extern const ul_audit_method ul_audit_langevin;
extern const ul_audit_method ul_audit_noisy_gd;
extern const ul_audit_method ul_audit_d2d;

#endif
