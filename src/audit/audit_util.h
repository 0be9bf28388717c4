/* src/audit/audit_util.h — small helpers shared by the method handlers
 * (audit_<family>.c).  Internal to src/audit: not part of the audit API of
 * audit.h.  Each function states what it guarantees. */
#ifndef UL_AUDIT_AUDIT_UTIL_H
#define UL_AUDIT_AUDIT_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "audit/audit.h"

/* The text of the field `name` of v when it is present, else NULL (also NULL
 * when the name is not in v's table). */
const char *ul_audit_field_text(const ul_cert_values *v, const char *name);

/* ---- claim fields most methods share --------------------------------------
 * Entries of a method's claim table (ul_field_spec): the range rule is here,
 * once; the method gives whether the field is required, the upper bound
 * where methods differ, and the doc shown when the field is missing.
 *   eps          0 <= eps <= hi
 *   delta        0 < delta < 1
 *   delta closed 0 <= delta <= 1 (what gaussian-mechanism, output-perturbation
 *                and model-clipping accept)
 *   renyi_order  1 < alpha <= hi
 *   renyi_value  0 <= value <= hi */
#define UL_AUDIT_CLAIM_EPS(req, domain_, doc_)                                                     \
    {                                                                                              \
        .name = "eps", .type = UL_FIELD_DECIMAL, .required = (req), .domain = (domain_),           \
        .doc = (doc_)                                                                              \
    }
#define UL_AUDIT_CLAIM_DELTA(req, doc_)                                                            \
    {                                                                                              \
        .name = "delta", .type = UL_FIELD_DECIMAL, .required = (req),                              \
        .domain = &ul_domain_delta, .doc = (doc_)                                                  \
    }
#define UL_AUDIT_CLAIM_DELTA_CLOSED(req, doc_)                                                     \
    {                                                                                              \
        .name = "delta", .type = UL_FIELD_DECIMAL, .required = (req), .lo = "0", .hi = "1",        \
        .doc = (doc_)                                                                              \
    }
#define UL_AUDIT_CLAIM_RENYI_ORDER(doc_)                                                           \
    {                                                                                              \
        .name = "renyi_order", .type = UL_FIELD_DECIMAL, .domain = &ul_domain_alpha, .doc = (doc_) \
    }
#define UL_AUDIT_CLAIM_RENYI_VALUE(doc_)                                                           \
    {                                                                                              \
        .name = "renyi_value", .type = UL_FIELD_DECIMAL, .domain = &ul_domain_rdp, .doc = (doc_)   \
    }

/* Exact comparison of two decimal texts, both already validated by the
 * schema: < 0, 0 or > 0 as a < b, a = b, a > b (0 if either fails to parse). */
int ul_audit_dcmp(const char *a, const char *b);

/* The rank of a verdict by how bad it is for the certificate's users:
 * supported 0, inconclusive 1, unsupported 2, refuted 3, invalid 4. */
int ul_audit_verdict_rank(ul_verdict v);

/* The worse of two verdicts by ul_audit_verdict_rank; a on a tie. */
ul_verdict ul_audit_worse(ul_verdict a, ul_verdict b);

/* Appends *n to rep->would_reach; silently drops it when the report already
 * holds UL_AUDIT_MAX_NUMBERS. */
void ul_audit_add_reach(ul_audit_report *rep, const ul_audit_number *n);

/* Appends a printf-formatted recipe to rep->forensics, "; "-separated from
 * any before it, cut at the field's size; does nothing when fewer than 3
 * bytes are left.  The field stays NUL-terminated. */
void ul_audit_add_forensic(ul_audit_report *rep, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The working precision of an audit or calibration: *want, or 17 digits
 * when want is NULL; digits below 1 become 17 (other fields as given). */
ul_num_precision ul_audit_precision(const ul_num_precision *want);

/* Whether the stated decimal v is the enclosure x rounded to nearest at the
 * number of decimals v is written with: true only when both ends of x round
 * to the same integer multiple of 10^-decimals and v does too.  False for a
 * v in exponent notation or with more than 40 decimals.  *decimals (may be
 * NULL) receives v's count of decimals when the test was made. */
bool ul_audit_rounds_to_nearest(const char *v, mpfi_srcptr x, long *decimals);

/* lo (rounded down) and hi (rounded up) of x as quoted in a sentence: at
 * `digits` significant digits, or at fewer (still outward) where a bound
 * would not fit its UL_AUDIT_NUMBER_CHARS, exactly as the report's numbers
 * are quoted (ul_audit_number_set; the audit then says once that sentences
 * hold fewer digits than asked).  Never cut. */
void ul_audit_quote(mpfi_srcptr x, int digits, char lo[UL_AUDIT_NUMBER_CHARS],
                    char hi[UL_AUDIT_NUMBER_CHARS]);
/* The same for a value in either form (linear or log). */
void ul_audit_quote_value(const ul_num_value *v, int digits, char lo[UL_AUDIT_NUMBER_CHARS],
                          char hi[UL_AUDIT_NUMBER_CHARS]);

/* What a calibration writes for a safe upper end x: its decimal text rounded
 * up at `digits` significant digits, or at fewer (still rounded up: still
 * safe) when that text would exceed the UL_NUM_DECIMAL_MAX_CHARS a
 * certificate may hold, so that the completed certificate reads back.
 * malloc'd. */
char *ul_audit_format_up_readable(mpfr_srcptr x, int digits);

/* The method handler's audit function, as in ul_audit_method. */
typedef ul_status (*ul_audit_fn)(const ul_cert *c, const ul_num_precision *want,
                                 ul_audit_report *rep, char *err, size_t errlen);

/* Loads the completed certificate `text` and audits it with `audit` at
 * *want.  True when it loads, audits and comes out supported; otherwise
 * false, with why (whylen bytes, NUL-terminated) holding the load or audit
 * error message, or the verdict's name when the audit ran. */
bool ul_audit_recheck_supported(const char *text, ul_audit_fn audit, const ul_num_precision *want,
                                char *why, size_t whylen);

/* Reads `object` like ul_cert_read_object, except that the field `list_name`
 * may be written either as its spec says or as a JSON array: an array is read
 * as a UL_FIELD_DECIMAL_LIST under the same lo/hi bounds (each element
 * checked).  At most 32 specs. */
ul_status ul_audit_read_object_list(const ul_cert *c, const char *object,
                                    const ul_field_spec *specs, size_t n, const char *list_name,
                                    ul_cert_values *out, char *err, size_t errlen);

/* ---- the decision loop ------------------------------------------------------------
 * The one loop that raises the precision of a decision (issue 13): the
 * bounds' adaptive driver (num/adaptive.c) doubles the bits until the
 * digits asked for are certain or --max-bits stops it; this loop doubles
 * the digits asked for while the verdict is inconclusive.  It stops when
 *   - the verdict is decided (anything but INCONCLUSIVE), or
 *   - an evaluation reports the precision cap (--max-bits: *cap_hit), or
 *   - doubling would pass max_digits (INT_MAX: no limit of the handler's
 *     own; a handler whose evaluation grows too costly sets a lower one), or
 *   - the time budget has run out (UL_ETIME, checked before every
 *     evaluation; ul_audit turns it into an inconclusive report), or
 *   - an evaluation fails (its status returned). */

/* One evaluation at w: *verdict (INCONCLUSIVE while the enclosure straddles
 * the claim) and *cap_hit (the precision cap stopped it). */
typedef ul_status (*ul_audit_decide_fn)(void *ctx, const ul_num_precision *w, ul_verdict *verdict,
                                        bool *cap_hit, char *err, size_t errlen);

/* How a decision ended: the last digits asked for, and whether --max-bits
 * stopped it. */
typedef struct {
    int digits;
    bool cap_hit;
} ul_audit_decide_end;

/* Runs fn at want's digits, then at doubled digits while it is inconclusive,
 * as above; *end (may be NULL) says how it ended. */
ul_status ul_audit_decide(ul_audit_decide_fn fn, void *ctx, const ul_num_precision *want,
                          int max_digits, ul_verdict *verdict, ul_audit_decide_end *end, char *err,
                          size_t errlen);

/* ---- a bound that is an exact rational -------------------------------------------
 * At some parameters a cited bound is a rational (a K = 0 makes every
 * exp(-c*K) factor exactly 1; a K -> infinity limit is a rational
 * constant).  An enclosure of it then straddles a claim written at that
 * value at every precision, so the loop above never decides the tie.
 * Compared as rationals, a tie is a proof that the claim holds. */

/* The verdict of the bound, whose exact value is `exact`, against the
 * claimed decimal `claimed` read exactly: SUPPORTED when exact <= claimed,
 * UNSUPPORTED when exact > claimed, INCONCLUSIVE (nothing written) when
 * claimed is beyond the limits of an exact reading (num/encl.h).  margin
 * (mlen bytes) receives the report's margin sentence, quoting the
 * enclosure [lo, hi] already computed; on a tie the explanation of rep says
 * that the bound equals the claim exactly, and why (`why`: the parameters
 * that make it rational, e.g. "K = 0: exp(-m eta K/alpha) = 1"). */
ul_verdict ul_audit_exact_verdict(ul_audit_report *rep, char *margin, size_t mlen, const char *key,
                                  const char *claimed, mpq_srcptr exact, const char *lo,
                                  const char *hi, const char *why);

/* ---- the stated-number rule ------------------------------------------------------
 * The one rule by which an audit calls a stated number (a value the
 * certificate states beside its claim: a σ, an η, a per-step δ, ...) wrong
 * (issue 13).  A decimal s whose last written digit sits at 10^k stands for
 * the numbers that round to it to nearest at that digit:
 *     [s − ½·10^k, s + ½·10^k]
 * (a written zero, "0", "0.00", "0e5", stands for exactly 0).  The stated
 * number AGREES with a certified value when this interval meets the value's
 * enclosure, and is WRONG when they are disjoint: then no value the theorem
 * allows rounds to it, a proof, never a guess from a straddling enclosure.
 * Rounding to nearest at the digits written passes; truncation, or rounding
 * to the unsafe side, by more than half a unit does not (the claimant gets
 * no more slack than the digits they chose to write). */

/* [lo, hi] ⊇ the numbers text stands for, as above, widened to
 * rel·|text| on each side when that is more than half a unit (rel ≤ 0:
 * not widened; a recipe evaluated in doubles uses rel ~ 1e-12); lo rounded
 * down, hi up, at lo's precision. */
void ul_audit_stated_interval(const char *text, double rel, mpfr_ptr lo, mpfr_ptr hi);

/* Whether the stated decimal text agrees with the certified value v (linear
 * or log form) under the rule above; false means provably wrong. */
bool ul_audit_stated_agrees(const char *text, const ul_num_value *v);

/* ---- a certified value against a decimal ----------------------------------------
 * Certain comparisons: true only when the enclosures prove the relation,
 * false when they do not decide (so a caller that supports a claim on true
 * is sound).  Used for side remarks (stated numbers, forensics, the other
 * variant) and by the Langevin and d2d decisions; unlike ul_audit_compare
 * they add no "fewer digits" sentence to the report.  v in either form; text
 * a validated decimal, read as an enclosure at v's precision + 64 bits. */

/* Every value of v is ≤ text. */
bool ul_audit_value_at_most(const ul_num_value *v, const char *text);

/* text is < every value of v. */
bool ul_audit_decimal_below(const char *text, const ul_num_value *v);

/* v's lower end in linear form, to nearest double: for recipes evaluated in
 * doubles (forensics), never for a verdict. */
double ul_audit_value_lo_double(const ul_num_value *v);

#endif
