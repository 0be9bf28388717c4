/* src/audit/audit_koloskova_util.h — what the audit handlers of Koloskova,
 * Allouah, Jha, Guerraoui, Koyejo, "Certified Unlearning for Neural
 * Networks" (ICML 2025) share: methods model-clipping
 * (audit_model_clipping.c), gradient-clipping (audit_gradient_clipping.c)
 * and dp-sgd-group (audit_dp_sgd_group.c).  The mathematics is in
 * src/bounds/koloskova.h; here are field reading, the rule that says whether
 * a stated number is reproduced by a value, report texts and the decision
 * loop that raises the digits near the boundary.
 *
 * Common to the three handlers (issue 11: true mathematics only; an omitted
 * or ambiguous field takes the reading least favourable to the claim, for
 * the public code's noise schedules what the code computes).  Near the
 * boundary every verdict is computed again at doubled digits until decided
 * (ul_audit_decide, audit_util.h); only --max-bits (or KOL_DECIDE_MAX_DIGITS, a claim
 * equal to the bound) leaves it inconclusive.
 *
 * Forensics (docs/neural-unlearning.md, "Public code", Errata K1-K13; docs/accounting.md
 * "Numerical soundness of theta_epsilon"): the code's θ with Q = (1 − erf)/2
 * in double and on its float32 path, adaptive versus product accounting, a
 * Rényi value read as ε (the code's conversion over linspace(1.001, 1000,
 * 10000) treating ε_R as α-independent), the λ = 0 branch, and the group δ
 * without its sum.  A recipe "reproduces" a number when its value rounds to
 * the number at the digits the certificate gives; the emulations in double and
 * float32 use this platform's erf, which may differ from SciPy's by an ulp, so
 * for them agreement to 9 significant digits also counts (KOL_EMULATION_SLACK).
 */
#ifndef UL_AUDIT_AUDIT_KOLOSKOVA_UTIL_H
#define UL_AUDIT_AUDIT_KOLOSKOVA_UTIL_H

#include "audit/audit.h"
#include "audit/audit_util.h"

#include "bounds/koloskova_group.h"
#include "bounds/koloskova_mc.h"
#include "bounds/koloskova_pabi.h"

/* Bounds of the radii, rates and σ's read (cost, not soundness). */
#define MAG "1e100"
#define NEG_MAG "-1e100"
/* digits for checking stated numbers and recipes: enough for any printed double */
#define CHECK_DIGITS 20
/* relative agreement accepted for the libm-based emulations (see the top) */
#define EMULATION_SLACK 1e-9
/* The digit limit of ul_audit_decide for most decisions: one more
 * doubling would cost far more than a claim within 10^-2500 of its bound is
 * worth (it then stays inconclusive and the report says why). */
#define DECIDE_MAX_DIGITS 2500

extern const char *const ul_audit_kol_inits[];       /* "ball", "box" */
extern const char *const ul_audit_kol_conversions[]; /* "bbghs", "mironov" */

/* printf into a fixed report field, cut at its size (a va_list keeps the
 * compiler's truncation analysis out: cutting is intended here). */
void ul_audit_kol_setf(char *dst, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The field `name` of a table read with ul_cert_read_object (abort() when
 * the name is not in the table: a bug of this program, never input). */
const ul_cert_value *ul_audit_kol_get(const ul_cert_values *v, const char *name);

/* The texts of a "decimal or list" field (items, or the one decimal). */
const char *const *ul_audit_kol_value_items(const ul_cert_value *v, size_t *n);

/* UL_EINPUT: "<path>: not used <why> (remove it)" / "<path>: missing, required <why>". */
ul_status ul_audit_kol_unused(const ul_cert_value *v, const char *why, char *err, size_t errlen);
ul_status ul_audit_kol_missing(const char *path, const char *why, char *err, size_t errlen);

/* parameters.init and .dim (docs/neural-unlearning.md, "Notation"): "ball" (default) or "box",
 * whose
 * dimension is required; dim with the ball is unused. */
ul_status ul_audit_kol_read_init(const ul_cert_value *init, const ul_cert_value *dim, ul_kol_init *shape,
                        unsigned long *d, char *err, size_t errlen);

/* Rewrites a message of src/bounds ("sigma: …", names as CLI flags) with the
 * certificate's JSON path ($.<object>.<name>, $.claim for eps and delta). */
ul_status ul_audit_kol_with_path(ul_status st, const char *object, char *err, size_t errlen);

/* The value's linear bounds (log form exponentiated outward). */
void ul_audit_kol_value_bounds(const ul_num_value *v, mpfr_ptr lo, mpfr_ptr hi);
/* Whether an exact decimal or a double (a recipe's output, with relative
 * slack rel) agrees with `text` at the digits given (the rule of
 * ul_audit_stated_agrees, audit_util.h, which a certified value uses). */
bool ul_audit_kol_agrees_decimal(const char *text, const char *value);
bool ul_audit_kol_agrees_double(const char *text, double x, double rel);
/* Whether every number that rounds to `text` lies below the value. */
bool ul_audit_kol_text_below(const char *text, const ul_num_value *v);
/* Whether `text` agrees with the value within a relative slack rel. */
bool ul_audit_kol_agrees_value_slack(const char *text, const ul_num_value *v, double rel);
/* Whether a's upper end is above b's. */
bool ul_audit_kol_hi_greater(const ul_num_value *a, const ul_num_value *b);
/* One end of x (upper rounded up, or lower rounded down) at `digits`;
 * malloc'd. */
char *ul_audit_kol_end_text(mpfi_srcptr x, int digits, bool upper);
/* x ← v (precision, value and form). */
void ul_audit_kol_value_copy(ul_num_value *x, const ul_num_value *v);

/* "[lo, hi]" (or the one number when both agree) of a value at `digits`,
 * never cut (fewer digits, still outward, when it does not fit); the upper
 * end alone (rounded up). */
void ul_audit_kol_value_text(char *buf, size_t n, const ul_num_value *v, int digits);
void ul_audit_kol_value_hi_text(char *buf, size_t n, const ul_num_value *v, int digits);

/* Marks the report invalid and explains which preconditions fail. */
void ul_audit_kol_make_invalid(ul_audit_report *rep);

/* After a bounds call: UL_OK/UL_ECAP go on; UL_EINPUT with a failing
 * precondition makes the verdict invalid (*done); other errors return
 * (message with the JSON path of `object`). */
ul_status ul_audit_kol_triage(ul_status st, ul_audit_report *rep, bool *done, const char *object,
                     char *err, size_t errlen);


/* Why a decision stayed inconclusive, in words. */
void ul_audit_kol_undecided_why(const ul_audit_decide_end *end, char *buf, size_t n);

/* Appends to rep->would_reach (while there is room). */
void ul_audit_kol_add_would_reach_value(ul_audit_report *rep, const char *key, const char *label,
                               const ul_num_value *v, int digits);
void ul_audit_kol_add_would_reach_mpfi(ul_audit_report *rep, const char *key, const char *label,
                              mpfi_srcptr x, int digits);
void ul_audit_kol_add_would_reach_integer(ul_audit_report *rep, const char *key, const char *label,
                                 unsigned long value);

#endif
