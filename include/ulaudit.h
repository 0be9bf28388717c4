/* ulaudit.h — the public C API of libulaudit: certified privacy-accounting
 * quantities, certificate audits and attack statistics.
 *
 * Build:  cc prog.c $(pkg-config --cflags --libs ulaudit)
 *
 * CONTRACTS (they hold for every function below)
 *
 * Enclosure.  Every number returned is an enclosure [lo, hi] that provably
 * contains the true value: inputs are read exactly from their decimal text
 * ("0.1" is one tenth, never the nearest double), the arithmetic is MPFR/MPFI
 * with directed rounding, lo is printed rounded down (toward -inf) and hi
 * rounded up (toward +inf).  For an inverse (a smallest sigma, a smallest
 * eps) hi is the certified safe value.  `digits` asks for that many correct
 * significant digits (1..5000); the working precision is raised until the
 * enclosure is that narrow or reaches `max_bits`.
 *
 * Status.  Functions return ULAUDIT_OK or one of:
 *   ULAUDIT_ECAP: the precision cap was reached; the result IS returned and
 *     still sound, only wider than asked (the caller decides whether to use it);
 *   ULAUDIT_EINPUT: an input is outside the quantity's domain, a flag is
 *     unknown, a file cannot be read or a certificate is malformed;
 *   ULAUDIT_ENOROOT: an inverse has no solution in its domain;
 *   ULAUDIT_ETIME: a time budget ran out (nothing certified returned);
 *   ULAUDIT_ENOMEM: memory ran out for an allocation whose size the input
 *     chose (a list, a grid, a table); err names the input and the size;
 *   ULAUDIT_ECANCEL: the caller's cancel flag was raised (see Limits).
 * On any status other than OK and ECAP no result is returned (outputs are
 * NULL) and `err` (may be NULL; errlen bytes, 256 is always enough for the
 * first line, 1024 for every line) holds a one-line message naming the input
 * and the rule broken.  Nothing is ever printed; the library never exits,
 * except abort() when memory runs out for a small allocation of a size the
 * program fixes (as GMP and MPFR do; the policy is in src/num/status.h).
 *
 * Memory.  Every char * the library hands out (JSON texts, lo/hi strings) is
 * malloc'd for the caller, who releases it with ulaudit_free() (or free()).
 * Inputs are only read and may be freed as soon as the call returns.
 *
 * Threads.  Every function may be called from several threads at once
 * (MPFR's state is thread-local, the library keeps no global mutable state;
 * the limits of ulaudit_limits_set are the calling thread's own).
 * Call ulaudit_thread_cleanup() before a thread that used the library exits
 * to release MPFR's per-thread caches (optional; valgrind-clean with it).
 *
 * Limits.  A thread may bound its following calls with a time budget and a
 * cancel flag (ulaudit_limits_set).  Long computations ask both at the same
 * checks as the command line's --max-seconds (between rounds of precision,
 * every few terms of a series, every few steps of a composition): once the
 * flag is nonzero the call returns ULAUDIT_ECANCEL with nothing returned,
 * within the time between two checks (measured: at most 0.3 s on the
 * slowest certificate of the corpus audits/, 0.01 s in pld-compose; a flag
 * raised before the call returns at once).  A step without checks runs to
 * its end first.
 *
 * Locale.  Numbers are read and printed with '.' as the decimal point: keep
 * LC_NUMERIC at "C" (the default of C programs and of Python).
 *
 * Versioning.  ULAUDIT_VERSION_* below give the header's version and
 * ulaudit_version() the library's; the shared library's soname is
 * libulaudit.so.ULAUDIT_VERSION_MAJOR and changes when the ABI does.
 */
#ifndef ULAUDIT_H
#define ULAUDIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ULAUDIT_VERSION_MAJOR 0
#define ULAUDIT_VERSION_MINOR 2
#define ULAUDIT_VERSION_PATCH 0
#define ULAUDIT_VERSION_STRING "0.2.0"
/* MAJOR * 10000 + MINOR * 100 + PATCH, for #if */
#define ULAUDIT_VERSION_NUMBER 200

typedef enum {
    ULAUDIT_OK = 0,
    ULAUDIT_EINPUT = 1,
    ULAUDIT_ECAP = 2,
    ULAUDIT_ENOROOT = 3,
    ULAUDIT_ETIME = 4,
    ULAUDIT_ENOMEM = 5,
    ULAUDIT_ECANCEL = 6, /* since 0.2.0: the caller's cancel flag was raised; nothing returned */
} ulaudit_status;

/* Precision request.  NULL anywhere an options pointer is taken means the
 * defaults: 17 digits, a 65536-bit cap (the command line's). */
typedef struct {
    int digits;    /* correct significant digits, 1..5000 (0: 17) */
    long max_bits; /* working-precision cap in bits, 64..4194304 (0: 65536) */
} ulaudit_options;

/* The library's version, "MAJOR.MINOR.PATCH" (static storage: do not free). */
const char *ulaudit_version(void);

/* The name of a status ("ok", "input", "cap", "noroot", "time", "memory",
 * "cancelled"), static. */
const char *ulaudit_status_name(ulaudit_status st);

/* Releases a string handed out by the library (NULL-safe). */
void ulaudit_free(void *p);

/* Releases MPFR's caches of the calling thread. */
void ulaudit_thread_cleanup(void);

/* Limits for the calling thread's following calls, until changed (since
 * 0.2.0): a time budget of max_seconds from now (0: none; negative, NaN or
 * infinite: ULAUDIT_EINPUT) and a cancel flag (NULL: none) that another
 * thread may set to nonzero; the flag must outlive the calls.  Long loops
 * stop at their next check (see Limits above):
 *   - on the cancel flag, every call returns ULAUDIT_ECANCEL and nothing
 *     (no JSON, no report, no certificate);
 *   - when the budget runs out: ulaudit_calc and the calculator's wrappers
 *     return ULAUDIT_ETIME (nothing returned); ulaudit_audit_* return
 *     ULAUDIT_OK with an "inconclusive" report whose explanation says the
 *     time limit was reached (as `ulaudit audit --max-seconds`);
 *     ulaudit_calibrate_* return ULAUDIT_ETIME.
 * A quantity's own max-seconds flag (ulaudit_calc) applies only while no
 * budget is set here.  Each thread's limits are its own: setting them in
 * one thread never affects another. */
ulaudit_status ulaudit_limits_set(double max_seconds, const volatile int *cancel, char *err,
                                  size_t errlen);

/* Removes the calling thread's budget and cancel flag. */
void ulaudit_limits_clear(void);

/* ---- the calculator ------------------------------------------------------
 * Every quantity of `ulaudit calc` (theta, gauss-sigma, gauss-eps,
 * contraction, rdp-to-dp, gauss-rdp-eps, sgm-rdp, pld-compose, noisygd-k,
 * model-clipping-t, langevin-sigma, ...; ulaudit_calc_list() lists them with
 * their flags), by name.  names[i]/values[i] (n pairs) are the flags without
 * dashes and their decimal text, e.g. {"eps", "r"} / {"1", "0.5"}; flags not
 * given take their defaults.  *json receives the result object, one line of
 * JSON, exactly the object of `ulaudit calc QUANTITY --json`: quantity,
 * inputs, lo, hi, digits, precision_bits, cap_hit and quantity-specific
 * fields (whole-number answers such as a least T are in `value`). */
ulaudit_status ulaudit_calc(const char *quantity, const char *const *names,
                            const char *const *values, size_t n, const ulaudit_options *opt,
                            char **json, char *err, size_t errlen);

/* Every quantity with its summary and flags (name, help, default or null
 * when required, and for a flag whose range the calculator declares,
 * `domain`: {type "real" or "integer", lo, lo_open, hi, hi_open, units},
 * lo/hi decimal text or null for no end; or {type "enum", choices: [...]}
 * for a word of a list), as a JSON array.  Caller frees *json. */
ulaudit_status ulaudit_calc_list(char **json, char *err, size_t errlen);

/* The same as ulaudit_calc for one real-valued quantity, returning only the
 * enclosure: *lo, *hi receive decimal strings (caller frees both). */
ulaudit_status ulaudit_calc_enclosure(const char *quantity, const char *const *names,
                                      const char *const *values, size_t n,
                                      const ulaudit_options *opt, char **lo, char **hi,
                                      char *err, size_t errlen);

/* theta_{e^eps}(r) = E_{e^eps}(N(0,1) || N(r,1)), the Gaussian hockey-stick
 * divergence (Balle & Wang 2018, Thm 8); eps any real, r >= 0. */
ulaudit_status ulaudit_theta(const char *eps, const char *r, const ulaudit_options *opt,
                             char **lo, char **hi, char *err, size_t errlen);

/* The smallest sigma with theta_{e^eps}(sensitivity / sigma) <= delta
 * (sensitivity NULL: 1); hi is the certified safe sigma. */
ulaudit_status ulaudit_gauss_sigma(const char *eps, const char *delta, const char *sensitivity,
                                   const ulaudit_options *opt, char **lo, char **hi, char *err,
                                   size_t errlen);

/* The smallest eps >= 0 with theta_{e^eps}(r) <= delta; hi is safe. */
ulaudit_status ulaudit_gauss_eps(const char *r, const char *delta, const ulaudit_options *opt,
                                 char **lo, char **hi, char *err, size_t errlen);

/* eps at delta from one RDP point (alpha, rdp); conversion "mironov" or
 * "bbghs" (NULL: bbghs, Balle et al. 2020 Thm 21). */
ulaudit_status ulaudit_rdp_to_dp(const char *alpha, const char *rdp, const char *delta,
                                 const char *conversion, const ulaudit_options *opt, char **lo,
                                 char **hi, char *err, size_t errlen);

/* eps of the Gaussian mechanism (r = sensitivity/sigma) through RDP at the
 * best order alpha (conversion as above). */
ulaudit_status ulaudit_gauss_rdp_eps(const char *r, const char *delta, const char *conversion,
                                     const ulaudit_options *opt, char **lo, char **hi, char *err,
                                     size_t errlen);

/* ---- audits ----------------------------------------------------------------
 * Audits a certificate (the schema is ulaudit-certificate(5)) from a file or
 * from JSON text (len bytes, need not be NUL-terminated).  *report receives
 * the report object of `ulaudit audit --json` (verdict, exit_code, method,
 * claim, recomputed, margin, preconditions, ... ), *verdict (may be NULL) the
 * verdict.  A certificate that does not fit its method's schema is
 * ULAUDIT_EINPUT with the JSON path in err; an unsupported or invalid claim
 * is not an error (ULAUDIT_OK with that verdict). */
typedef enum {
    ULAUDIT_SUPPORTED = 0,
    ULAUDIT_UNSUPPORTED = 1,
    ULAUDIT_REFUTED = 2,
    ULAUDIT_INVALID = 3,
    ULAUDIT_INCONCLUSIVE = 4,
} ulaudit_verdict;

ulaudit_status ulaudit_audit_file(const char *path, const ulaudit_options *opt, char **report,
                                  ulaudit_verdict *verdict, char *err, size_t errlen);
ulaudit_status ulaudit_audit_string(const char *text, size_t len, const ulaudit_options *opt,
                                    char **report, ulaudit_verdict *verdict, char *err,
                                    size_t errlen);

/* The same audits with the report in both forms (since 0.2.0): *json as
 * above, *text the readable report `ulaudit audit` prints, from its second
 * line on (the command's first line names the certificate's file).  Either
 * of json and text may be NULL: that form is not made.  One audit runs. */
ulaudit_status ulaudit_audit_file_forms(const char *path, const ulaudit_options *opt,
                                        char **json, char **text, ulaudit_verdict *verdict,
                                        char *err, size_t errlen);
ulaudit_status ulaudit_audit_string_forms(const char *certificate, size_t len,
                                          const ulaudit_options *opt, char **json, char **text,
                                          ulaudit_verdict *verdict, char *err, size_t errlen);

/* `ulaudit calibrate` (since 0.2.0): *certificate receives the certificate
 * completed with the parameter that makes its claim supported, byte for
 * byte what `ulaudit calibrate CERT.json` prints for the same options
 * (one JSON object and its final newline; opt as --digits, --max-bits).
 * A method without calibration is ULAUDIT_EINPUT naming it ("$.method:
 * 'NAME' has no calibration"); the calibrated methods are listed in
 * ulaudit-audit(1).  Auditing the result gives "supported". */
ulaudit_status ulaudit_calibrate_file(const char *path, const ulaudit_options *opt,
                                      char **certificate, char *err, size_t errlen);
ulaudit_status ulaudit_calibrate_string(const char *text, size_t len, const ulaudit_options *opt,
                                        char **certificate, char *err, size_t errlen);

/* ---- attack statistics -----------------------------------------------------
 * Membership-inference statistics from given scores (higher = more likely
 * IN): the ROC of "score >= t => IN" over every distinct score, its AUC, TPR
 * at FPR 1e-3/1e-2/1e-1, and the certified empirical eps lower bound at
 * delta (one-sided Clopper-Pearson at confidence 1 - alpha, Bonferroni over
 * the thresholds; Jagielski et al. 2020), rounded down.  alpha, delta are
 * decimal strings (alpha NULL: "0.05").  *json: {"eps_lb", "auc",
 * "tpr_at_fpr", "threshold", "fp", "fn", "n_thresholds", "n_in", "n_out"}.
 *
 * This is the 0.1 interface, kept as it was: its method is "all" (every
 * distinct score a threshold), which `ulaudit attack --scores` offers as
 * --method all, but its keys, its eps_lb digits (17, not 10) and its
 * missing GDP estimate and verdict differ from that command's.  New code
 * calls ulaudit_attack_stats, which is the command. */
ulaudit_status ulaudit_attack_scores(const double *in_scores, size_t n_in,
                                     const double *out_scores, size_t n_out, const char *alpha,
                                     const char *delta, char **json, char *err, size_t errlen);

/* `ulaudit attack --scores IN,OUT ... --json` on arrays (since 0.2.0).
 * names[i]/values[i] (n pairs) are that command's flags without dashes and
 * their text, with its defaults and rules (man ulaudit-attack(1)):
 *   claim-eps (none), delta ("0"), alpha ("0.05"), method ("joint"; sum,
 *   family, all, fixed, split, onerun), threshold (fixed only), split-frac
 *   ("0.25"), sides ("2"), ratio (the method's), weights ("equal" or
 *   "geometric"); digits and max-bits are accepted and unused, as there.
 * A flag unknown, given twice or outside its rule is ULAUDIT_EINPUT with
 * the command's message ("--method: one of ..."); "scores" is not a flag
 * here (the arrays are).  *json receives exactly the object the command
 * prints (pretty, without the final newline): n_in, n_out, auc,
 * tpr_at_fpr (null below 1/n_out), method, tests, weights, level_divisor,
 * alpha, delta, eps_lower_bound (10 digits, rounded down), threshold, fp,
 * fn, gdp_estimate {assumption, mu, eps}, claim_eps, verdict ("no claim",
 * "consistent" or "refuted"). */
ulaudit_status ulaudit_attack_stats(const double *in_scores, size_t n_in,
                                    const double *out_scores, size_t n_out,
                                    const char *const *names, const char *const *values, size_t n,
                                    char **json, char *err, size_t errlen);

/* ---- importers -------------------------------------------------------------
 * `ulaudit import` (man ulaudit-import(1)): a peer's accounting input as
 * JSON text (len bytes, need not be NUL-terminated) turned into a
 * ulaudit-certificate/1 object of method dp-sgd that ulaudit_audit_string
 * takes, with the sampling (Poisson) and the adjacency each tool implies
 * written out and a "source" naming every reading taken.  format: "opacus"
 * (accountant.history [[noise_multiplier, sample_rate, steps], ...] or
 * accountant.state_dict()), "dp-accounting" (a DpEvent tree in its dict
 * form, or {"event", "neighboring_relation", "epsilon", "delta"}) or
 * "tf-privacy" (compute_dp_sgd_privacy's {"n", "batch_size",
 * "noise_multiplier", "epochs", "delta"}).  names/values (n pairs) are the
 * command's flags without dashes: "eps", "delta" (the claim; default: the
 * file's "epsilon" / "delta"), "adjacency" ("add-remove" or "replace";
 * default: the tool's).  *certificate: the JSON text (caller frees).  A
 * missing claim, an unsupported event, a value outside the audit's domain:
 * ULAUDIT_EINPUT with the JSON path or the option named in err. */
ulaudit_status ulaudit_import(const char *format, const char *text, size_t len,
                              const char *const *names, const char *const *values, size_t n,
                              char **certificate, char *err, size_t errlen);

/* ---- reference vectors (since 0.2.0) ---------------------------------------
 * The certified reference vectors of `ulaudit vectors` (vectors/README.md)
 * for testing another implementation, and `ulaudit vectors check` on its
 * outputs (man ulaudit-vectors(1), "check").  family is a name as
 * `ulaudit vectors --only` takes it (theta, gauss-sigma, gauss-eps,
 * contraction, rdp-to-eps, rdp-to-delta, sgm-rdp, pld, langevin-sigma,
 * langevin-k, noisygd-k, noisygd-sigma); an unknown one is ULAUDIT_EINPUT
 * with a did-you-mean.
 *
 * ulaudit_vectors_rows: the family's rows generated in memory at digits
 * significant digits (1..1000; 0: 30, the committed files' and the check's),
 * as the JSON object {"family", "digits", "inputs": [input column names],
 * "quantities": [{"quantity", "unsafe_side" ("below" or "above"), "range"
 * ("[0, 1]", "<= 0" or ">= 0")}], "rows": [{"inputs": {NAME: decimal
 * text}, QUANTITY: {"lo", "hi", "double", "flag"}, ...}]}: lo and hi the
 * enclosure's decimal text, "double" the correctly rounded double of the
 * true value and "flag" its class (ok, zero, subnormal, inf, undetermined;
 * vectors/README.md), both absent for a whole-number quantity.  A harness
 * calls its implementation on each row's inputs and writes their decimal
 * text unchanged into RESULTS, where they are matched exactly.
 *
 * ulaudit_vectors_check: RESULTS given as text (len bytes, need not be
 * NUL-terminated; the CSV format of ulaudit-vectors(1)) checked against the
 * family; name stands for the file's path in messages and in the report's
 * "results" (NULL: "RESULTS").  *json receives exactly the object `ulaudit
 * vectors check --family F FILE --json` prints for the same text and
 * name = FILE (pretty, without the final newline), with rows nonzero the
 * object of `... --json --rows`: per quantity the counts of exact,
 * safe-inaccurate, unsafe, invalid, unmatched, the worst rows, (rows:
 * "rows_classified", every row's class per quantity), "failed" and "exit"
 * (the command's code: 1 unsafe or invalid, 3 rows unmatched, else 0).  Unsafe or invalid values are a result, not an error
 * (ULAUDIT_OK).  Bad RESULTS (a missing or unknown column, a cell that is
 * not a number, a row with the wrong cell count) is ULAUDIT_EINPUT naming
 * the line and column; a row outside the vectors computed on the fly that
 * reaches the precision cap or the time budget is ULAUDIT_ECAP or
 * ULAUDIT_ETIME with nothing returned (the command exits 3). */
ulaudit_status ulaudit_vectors_rows(const char *family, int digits, char **json, char *err,
                                    size_t errlen);
ulaudit_status ulaudit_vectors_check(const char *family, const char *results, size_t len,
                                     const char *name, int rows, char **json, char *err,
                                     size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
