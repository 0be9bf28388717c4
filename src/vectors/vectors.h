/* src/vectors/vectors.h — certified reference vectors for other accountants.
 *
 * Anyone who writes a privacy accountant in double precision needs values to
 * test against, above all where double precision breaks (θ below 10^-300,
 * ε < 0, r → 0, δ near 1).  This module writes them: one CSV file per
 * family of quantities over fixed grids, every real output as an enclosure
 * [lo, hi] printed at N significant digits (lo rounded down, hi rounded up),
 * plus the correctly rounded double of the true value when [lo, hi]
 * determines it, and a flag where that double is 0, subnormal or infinite
 * while the true value is not.  A JSON manifest records the format and
 * generator versions, the digits, and the row count, size and SHA-256 of
 * every file.  vectors/README.md documents the columns and conventions.
 *
 * Determinism.  The files are a function of the grids and of the true
 * values only, in practice: every value is certified to N + UL_VEC_GUARD_DIGITS
 * digits and then rounded outward to N, so lo and hi are the two N-digit
 * decimals around the true value whatever precision path the library took
 * (they depend on that path only when the true value lies within 10^-(N+7)
 * relative of an N-digit decimal).  The double is derived from the printed
 * lo and hi, not from internal state.  No timestamps; fixed row order.  The
 * PLD brackets are the exception, see UL_VEC_PLD_DIGITS.
 *
 * Layering: uses num/ and bounds/ only; knows nothing of the CLI.
 */
#ifndef UL_VECTORS_VECTORS_H
#define UL_VECTORS_VECTORS_H

#include <stdbool.h>
#include <stddef.h>

#include "num/adaptive.h"

/* Version of the file format (columns, cell syntax, manifest keys): bump it
 * when a consumer's parser would need to change. */
#define UL_VEC_FORMAT_VERSION 1
/* Version of the generator (grids and families): bump it when the set of
 * rows changes. */
#define UL_VEC_GENERATOR_VERSION "1.0.0"

/* Default significant digits of lo and hi: enough that [lo, hi] decides the
 * correctly rounded double except within about 10^-14 ulp of a rounding
 * boundary, and cheap (the whole set takes seconds). */
#define UL_VEC_DEFAULT_DIGITS 30
#define UL_VEC_MIN_DIGITS 1
#define UL_VEC_MAX_DIGITS 1000
/* Extra digits certified before rounding outward to the digits printed. */
#define UL_VEC_GUARD_DIGITS 8

/* PLD brackets are printed with at most this many digits.  They are not
 * N-digit enclosures but brackets about 10^-3 wide (relative), computed by
 * FFT in double precision: their last bits vary with the FFT code path
 * (SIMD width), and 6 outward-rounded digits hide that variation while
 * keeping the bracket's real width. */
#define UL_VEC_PLD_DIGITS 6

#define UL_VEC_MANIFEST "manifest.json"

/* ---- CSV tables ------------------------------------------------------------ */

/* A CSV file under construction, in memory (it is hashed, then written
 * atomically).  Columns: the inputs (decimal text, exactly as evaluated),
 * then the exact outputs (whole numbers), then for every real output NAME
 * the four columns NAME_lo, NAME_hi, NAME_double, NAME_flag. */
typedef struct {
    char *buf;
    size_t len, cap;
    size_t rows;
    int digits;   /* significant digits of lo and hi */
    size_t ncols; /* columns per row */
    size_t col;   /* columns written in the current row */
} ul_vec_table;

/* Starts a table: the header line from comma-separated names (exact may be
 * NULL or ""). */
void ul_vec_table_begin(ul_vec_table *t, int digits, const char *inputs, const char *exact,
                        const char *reals);
void ul_vec_table_free(ul_vec_table *t);

/* Cells, in header order.  A row is closed by ul_vec_row_end (which aborts
 * on a column count that does not match the header: a programming error). */
void ul_vec_put_text(ul_vec_table *t, const char *text);
void ul_vec_put_ulong(ul_vec_table *t, unsigned long v);
/* A real output from its printed bounds: lo, hi, then the double and flag
 * derived from them (ul_vec_double_of). */
void ul_vec_put_bounds(ul_vec_table *t, const char *lo, const char *hi);
/* A real output from a certified value (plain or log form). */
void ul_vec_put_value(ul_vec_table *t, const ul_num_value *v);
/* The natural logarithm of a certified value ("-inf" when it is exactly 0). */
void ul_vec_put_log_value(ul_vec_table *t, const ul_num_value *v);
/* A real output from a plain enclosure. */
void ul_vec_put_interval(ul_vec_table *t, mpfi_srcptr x);
void ul_vec_row_end(ul_vec_table *t);

/* ---- the double column ----------------------------------------------------- */

typedef enum {
    UL_VEC_FLAG_OK = 0,       /* a normal double, or exactly the true value (0, ±inf) */
    UL_VEC_FLAG_ZERO,         /* the double is 0 but the true value is not (underflow) */
    UL_VEC_FLAG_SUBNORMAL,    /* the double is subnormal: fewer than 53 significant bits */
    UL_VEC_FLAG_INF,          /* the double is infinite but the true value is finite */
    UL_VEC_FLAG_UNDETERMINED, /* lo and hi round to doubles of different classes */
} ul_vec_flag;

const char *ul_vec_flag_name(ul_vec_flag f);

/* The decimal text rounded to the nearest double (ties to even), subnormals
 * and overflow as IEEE 754 binary64 does, by MPFR in a 53-bit emulation of
 * the binary64 exponent range.  "inf" and "-inf" are read as infinities. */
double ul_vec_decimal_to_double(const char *text);

/* The correctly rounded double of a real known to lie in [lo, hi] (decimal
 * text): rounding to nearest is monotone, so when lo and hi round to the
 * same double, so does every point between them.  Returns false when they
 * do not (the double is undetermined at these digits).  *flag (never NULL)
 * classifies the double (when determined) or both candidates (when they
 * share a class; UNDETERMINED otherwise). */
bool ul_vec_double_of(const char *lo, const char *hi, double *d, ul_vec_flag *flag);

/* ---- certifying a row ------------------------------------------------------ */

/* One certified evaluation at want->digits, into out (initialised by the
 * caller at any precision). */
typedef ul_status (*ul_vec_eval)(void *ctx, const ul_num_precision *want, ul_num_value *out,
                                 char *err, size_t errlen);

/* Runs eval at t->digits + UL_VEC_GUARD_DIGITS.  With with_log, also makes
 * the value's natural logarithm that narrow (relative), raising the digits
 * when |log| < 1 (a value near 1).  The precision cap is an error here
 * (UL_ECAP, with a message): a reference vector must have all its digits. */
ul_status ul_vec_certify(const ul_vec_table *t, ul_vec_eval eval, void *ctx, bool with_log,
                         ul_num_value *out, char *err, size_t errlen);

/* The precision request for a table's rows: t->digits + UL_VEC_GUARD_DIGITS. */
ul_num_precision ul_vec_want(const ul_vec_table *t);

/* ---- families ----------------------------------------------------------------- */

typedef struct {
    const char *name;    /* as --only takes it */
    const char *file;    /* file name inside the output directory */
    const char *summary; /* one line, for the manifest and --help */
    ul_status (*generate)(ul_vec_table *t, char *err, size_t errlen);
} ul_vec_family;

/* The families in their fixed order, terminated by an entry with name NULL. */
extern const ul_vec_family ul_vec_families[];

/* The family called name, or NULL. */
const ul_vec_family *ul_vec_family_find(const char *name);

/* The generators (one file each under src/vectors/). */
ul_status ul_vec_gen_theta(ul_vec_table *t, char *err, size_t errlen);
ul_status ul_vec_gen_gauss_sigma(ul_vec_table *t, char *err, size_t errlen);
ul_status ul_vec_gen_gauss_eps(ul_vec_table *t, char *err, size_t errlen);
ul_status ul_vec_gen_contraction(ul_vec_table *t, char *err, size_t errlen);
ul_status ul_vec_gen_rdp_to_eps(ul_vec_table *t, char *err, size_t errlen);
ul_status ul_vec_gen_rdp_to_delta(ul_vec_table *t, char *err, size_t errlen);
ul_status ul_vec_gen_sgm_rdp(ul_vec_table *t, char *err, size_t errlen);
ul_status ul_vec_gen_pld(ul_vec_table *t, char *err, size_t errlen);
ul_status ul_vec_gen_langevin_sigma(ul_vec_table *t, char *err, size_t errlen);
ul_status ul_vec_gen_langevin_k(ul_vec_table *t, char *err, size_t errlen);
ul_status ul_vec_gen_noisygd_k(ul_vec_table *t, char *err, size_t errlen);
ul_status ul_vec_gen_noisygd_sigma(ul_vec_table *t, char *err, size_t errlen);

/* ---- the whole set ------------------------------------------------------------ */

/* What one written file holds (seconds is wall time, for progress reports
 * only; it is never written to a file). */
typedef struct {
    const ul_vec_family *family;
    size_t rows;
    size_t bytes;
    char sha256[65]; /* lowercase hex */
    double seconds;
} ul_vec_file_report;

typedef void (*ul_vec_progress)(const ul_vec_file_report *file, void *ctx);

/* The set in memory: one table per family built, with its report. */
typedef struct {
    ul_vec_table *tables;
    ul_vec_file_report *files;
    size_t n;
    int digits;
} ul_vec_set;

/* Computes the set in memory: every family, or only the one named `only`
 * (NULL: all), at digits in [UL_VEC_MIN_DIGITS, UL_VEC_MAX_DIGITS].  dir
 * is created if missing (its parent must exist), so that an unusable
 * directory fails before the work; no file in it is touched.  progress
 * (may be NULL) is called after each family.  UL_EINPUT names the problem
 * (bad digits, unknown family, unusable directory, a row that failed);
 * UL_ECAP when a row could not be certified to the digits asked below the
 * precision cap; UL_ETIME when the budget (num/deadline.h) ran out.  On
 * failure set is empty. */
ul_status ul_vec_build(const char *dir, int digits, const char *only, ul_vec_progress progress,
                       void *ctx, ul_vec_set *set, char *err, size_t errlen);

/* Replaces the set's files and the manifest (listing the files of this
 * set) in dir, all or nothing: the new files are written beside their
 * places, the old ones kept under hard links, and the new ones renamed into
 * place, the manifest last.  On any failure (UL_EINPUT, "out: ...") the old
 * files are put back exactly as they were (the same inodes) and no
 * temporary file is left.  Other files of dir (another family's, a
 * README) are never touched. */
ul_status ul_vec_commit(const char *dir, const ul_vec_set *set, char *err, size_t errlen);

void ul_vec_set_free(ul_vec_set *set);

/* ul_vec_build, then ul_vec_commit. */
ul_status ul_vec_generate(const char *dir, int digits, const char *only, ul_vec_progress progress,
                          void *ctx, char *err, size_t errlen);

/* SHA-256 (FIPS 180-4, by nettle) of a buffer, as 64 lowercase hex digits. */
void ul_vec_sha256_hex(const void *data, size_t len, char hex[65]);

#endif
