/* src/vectors/check.h — checking an implementation's outputs against the
 * certified reference vectors (`ulaudit vectors check`).
 *
 * RESULTS is a CSV file: a header naming the family's input columns (the
 * names of the vector file) and one column per quantity checked (the
 * quantity's name in the vector file: `theta`, `sigma`, `delta`, ...; at
 * least one), optionally `tolerance` (the implementation's stated relative
 * accuracy); one row per input.  Each row's inputs are matched by their
 * exact decimal text against the family's rows, generated in memory at
 * UL_VEC_DEFAULT_DIGITS; a row not among them is computed on the fly,
 * certified, for the families whose generator takes any input
 * (UL_VCHK_DIRECTIONS' `on_the_fly`), and is classified UNMATCHED for the
 * others.
 *
 * Every (row, quantity) gets one class:
 *   EXACT      the value lies in [lo, hi], or is the correctly rounded
 *              double of the true value (the vector's NAME_double) with flag
 *              `ok` (vectors/README.md: "A correctly rounded double
 *              implementation must return exactly NAME_double"); not when
 *              that double is 0, subnormal or infinite while the true value
 *              is not (flags zero, subnormal, inf): a 0 for a positive θ
 *              stays UNSAFE;
 *   SAFE       outside, on the side that over-states the privacy loss (or
 *              the noise needed): correct for the user, inaccurate;
 *   UNSAFE     outside, on the side that hurts users (ul_vchk_direction);
 *   INVALID    empty, NaN, infinite (unless the true value is), negative
 *              for a quantity that cannot be, above 1 for a probability;
 *   UNMATCHED  inputs not in the vectors and not computable here.
 * A stated tolerance does not change the class: a value outside [lo, hi]
 * but within lo − tol·|v| ≤ v ≤ hi + tol·|v| (vectors/README.md, "Testing
 * an implementation") is marked within_tolerance, and stays UNSAFE when it
 * is on the unsafe side.
 *
 * Comparisons are exact in effect: the value and the bounds are read as
 * decimals by MPFR at a precision above their digit counts (a 4-bit
 * margin per character), in a binary exponent range of ±2^20 wide enough
 * for every double; a bound beyond it (θ = 1.8e-2171472409516259138255427484)
 * is replaced by the extreme of that range with its sign, which orders it
 * the same way against every double.
 *
 * Library rules: no printing, no exit; UL_EINPUT with one line naming the
 * row and column for bad input.
 */
#ifndef UL_VECTORS_CHECK_H
#define UL_VECTORS_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "vectors/vectors.h"

/* The side of [lo, hi] on which a wrong value hurts users. */
typedef enum {
    UL_VCHK_BELOW, /* a value below lo under-states δ, ε, θ or ρ, or gives too little noise */
    UL_VCHK_ABOVE, /* a value above hi hurts (no quantity of the current families) */
} ul_vchk_side;

/* The values a quantity can take; a value outside is INVALID. */
typedef enum {
    UL_VCHK_PROB,    /* [0, 1]: δ, θ */
    UL_VCHK_LOGPROB, /* [-inf, 0]: the log of a probability */
    UL_VCHK_NONNEG,  /* [0, inf): σ, ε, ρ, K */
} ul_vchk_range;

/* "[0, 1]", "<= 0", ">= 0". */
const char *ul_vchk_range_name(ul_vchk_range r);

/* One quantity of one family: the table the checker, `--help` and the man
 * page all read. */
typedef struct {
    const char *family;
    const char *quantity; /* the column of RESULTS, NAME of the vector file */
    ul_vchk_side unsafe;  /* the side that hurts users */
    ul_vchk_range range;
    const char *why;      /* why that side hurts, one short line */
} ul_vchk_direction;

/* Every quantity of every family, terminated by an entry with family NULL. */
extern const ul_vchk_direction ul_vchk_directions[];

/* Whether the family's rows can be computed on the fly (inputs not in the
 * vectors); false for the families whose generator has fixed settings. */
bool ul_vchk_on_the_fly(const char *family);

typedef enum {
    UL_VCHK_EXACT,
    UL_VCHK_SAFE,
    UL_VCHK_UNSAFE,
    UL_VCHK_INVALID,
    UL_VCHK_UNMATCHED,
    UL_VCHK_NCLASS,
} ul_vchk_class;

/* "exact", "safe-inaccurate", "unsafe", "invalid", "unmatched". */
const char *ul_vchk_class_name(ul_vchk_class c);

/* One (row, quantity). */
typedef struct {
    ul_vchk_class cls;
    const char *text;     /* the cell as given */
    const char *lo, *hi;  /* the enclosure (NULL when UNMATCHED) */
    /* the vector's correctly rounded double and its flag (NULL when the
     * quantity has none: whole numbers) */
    const char *dbl, *flag;
    bool as_double;       /* EXACT as the correctly rounded double, outside [lo, hi] */
    /* SAFE and UNSAFE: |v − b|/|b|, b the bound crossed, rounded up to a
     * double (+inf beyond the double range); |v − b| when b = 0 (absolute) */
    double error;
    bool absolute;
    bool within_tolerance;
    /* INVALID: "empty", "NaN", "infinite", "negative", "above 1", "above 0" */
    const char *invalid_why;
} ul_vchk_cell;

typedef struct {
    const ul_vchk_direction *dir;
    size_t count[UL_VCHK_NCLASS];
    size_t within_tolerance; /* outside [lo, hi] but within the stated tolerance */
    /* The row of the worst cell of each class, -1 if none: the largest
     * error for SAFE and UNSAFE, the first row for the others. */
    long worst[UL_VCHK_NCLASS];
} ul_vchk_quantity;

typedef struct ul_vchk_store ul_vchk_store; /* the texts the result points into */

typedef struct {
    const ul_vec_family *family;
    size_t ninputs;
    const char **input_names;
    size_t nrows;
    const char **inputs; /* nrows × ninputs, the cells as given */
    size_t *line;        /* each row's line in RESULTS (the header is line 1) */
    size_t matched, computed, unmatched; /* rows: in the vectors, on the fly, neither */
    size_t nq;
    ul_vchk_quantity *q;
    ul_vchk_cell *cells; /* nrows × nq */
    bool has_tolerance;
    ul_vchk_store *store;
} ul_vchk_result;

/* Checks the file at path against family.  UL_EINPUT (one line) for an
 * unknown family (with a did-you-mean), an unreadable file, a missing,
 * unknown or duplicate column (named), a row with the wrong cell count, an
 * unparsable number (row and column named), a bad tolerance, an input the
 * family's function refuses; UL_ECAP / UL_ETIME from an on-the-fly row.
 * On failure *out is empty. */
ul_status ul_vchk_run(const char *family, const char *path, ul_vchk_result *out, char *err,
                      size_t errlen);

void ul_vchk_free(ul_vchk_result *r);

/* The same check of RESULTS given as text[0..len) (need not be
 * NUL-terminated; a NUL byte is UL_EINPUT): `name` stands for the file's
 * path in messages. */
ul_status ul_vchk_run_text(const char *family, const char *name, const char *text, size_t len,
                           ul_vchk_result *out, char *err, size_t errlen);

/* Whether any cell is UNSAFE or INVALID (exit 1). */
bool ul_vchk_failed(const ul_vchk_result *r);

/* The command's exit code (docs/design.md, "Exit codes"): 1 when
 * ul_vchk_failed, else 3 when a row is unmatched, else 0. */
int ul_vchk_exit_code(const ul_vchk_result *r);

/* The object of `ulaudit vectors check --json` (pretty, no final newline;
 * malloc'd): family, results (the name given), rows, matched, computed,
 * unmatched, tolerance_column, quantities [{quantity, unsafe_side, range,
 * counts {class: n}, within_tolerance, worst [...]}], with_rows (--rows):
 * rows_classified [{line, inputs, values {QUANTITY: {class, value, lo, hi,
 * error, error_kind, within_tolerance, invalid, as_double}}}] (the keys
 * that apply), then failed, exit.  The command and ulaudit_vectors_check
 * both print this text (check_json.c). */
char *ul_vchk_json(const ul_vchk_result *r, const char *results, bool with_rows);

/* The family's rows generated at digits (UL_VEC_MIN_DIGITS..MAX), as the
 * JSON object ulaudit_vectors_rows hands out (pretty, malloc'd):
 * {family, digits, inputs [names], quantities [{quantity, unsafe_side,
 * range}], rows [{inputs {name: text}, QUANTITY {lo, hi[, double,
 * flag]}}]}; double and flag for real outputs only (not whole numbers).
 * UL_EINPUT for an unknown family or digits out of range; the generator's
 * status otherwise. */
ul_status ul_vchk_rows_json(const char *family, int digits, char **json, char *err,
                            size_t errlen);

#endif
