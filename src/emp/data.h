/* src/emp/data.h — data sets for the empirical module: readers (IDX, CSV,
 * LIBSVM), a synthetic generator, binary task selection, row scaling.
 *
 * A data set is n rows of d features, row-major doubles (x[i*d + j]), and
 * one label per row (y[i], a double: a class id as read, or ±1 / 0/1 after
 * ul_data_select_binary).  Readers fill a zeroed ul_dataset; on failure the
 * output is left empty (nothing to free) and err names the file, the line
 * (text formats) or byte offset (IDX), and the reason; file names and
 * quoted cells are escaped (control bytes and invalid UTF-8 as \xNN,
 * io/escape.h).  Sizes over UL_DATA_MAX_CELLS doubles are refused before
 * the matrix is allocated.  Out of memory for a size the file declares or
 * holds (its values, its lines, the n x d matrix) is UL_ENOMEM naming that
 * size (num/status.h); the other refusals are UL_EINPUT.
 */
#ifndef UL_EMP_DATA_H
#define UL_EMP_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "num/status.h"

/* Largest n·d accepted (2²⁸ doubles = 2 GiB). */
#define UL_DATA_MAX_CELLS ((size_t)1 << 28)

typedef struct {
    size_t n, d;
    double *x; /* n·d, row-major */
    double *y; /* n labels */
} ul_dataset;

void ul_dataset_free(ul_dataset *ds); /* frees and zeroes; NULL-safe */

/* IDX (the MNIST format, http://yann.lecun.com/exdb/mnist/): magic 00 00 08 r
 * (unsigned bytes, rank r), r big-endian u32 dimensions, then the bytes.
 * images: rank ≥ 2, n = dim 0, d = product of the others, pixel p → p/255.
 * labels: rank 1 with the same n, label byte → y.  Only type 0x08 is read.
 * Either file may be gzip-compressed (RFC 1952, as the MNIST and Fashion-MNIST
 * distributions ship them): it is decompressed with zlib, whatever its name;
 * a plain file is read as is.  Byte offsets in messages count decompressed
 * bytes, and a truncated or corrupt gzip stream (gzerror) is an error. */
ul_status ul_data_read_idx(const char *images, const char *labels, ul_dataset *out, char *err,
                           size_t errlen);

typedef enum {
    UL_LABELS_PM1, /* class a → +1, class b → −1 */
    UL_LABELS_01,  /* class a → 1,  class b → 0  */
} ul_label_coding;

/* ul_data_read_idx then ul_data_select_binary(a, b, coding), then the
 * first `limit` rows kept (0: all), without converting the other rows to
 * doubles: with Fashion-MNIST (60,000 × 784) and a limit of 1000 the
 * doubles take 6 MB instead of 376 MB (the file's bytes are still read,
 * 47 MB).  The class checks (a ≠ b, both present) run over the whole file,
 * as ul_data_select_binary's do. */
ul_status ul_data_read_idx_binary(const char *images, const char *labels, double a, double b,
                                  ul_label_coding coding, size_t limit, ul_dataset *out, char *err,
                                  size_t errlen);

/* CSV: numeric cells separated by ',', spaces around cells allowed, blank
 * lines skipped, no quoting.  label_col is 0-based; negative counts from the
 * end (−1 = last column).  header: 1 = first line is a header, 0 = none,
 * −1 = auto (a header if any cell of the first line is not a number).
 * Every row must have the first row's column count; non-finite cells
 * (nan, inf) are refused. */
ul_status ul_data_read_csv(const char *path, int label_col, int header, ul_dataset *out, char *err,
                           size_t errlen);

/* RMIA's population records (emp/attack.h, UL_SCORE_RMIA): a CSV file as
 * ul_data_read_csv (label last), at least one row, d features, labels +1 or
 * −1; UL_EINPUT saying so otherwise (out is then freed). */
ul_status ul_data_read_population(const char *path, size_t d, ul_dataset *out, char *err,
                                  size_t errlen);

/* LIBSVM sparse text: "label idx:val idx:val …", indices 1-based and strictly
 * increasing, '#' starts a comment.  dim > 0: the dimension (an index above
 * it is an error); dim = 0: inferred as the largest index.  Absent entries
 * are 0. */
ul_status ul_data_read_libsvm(const char *path, size_t dim, ul_dataset *out, char *err,
                              size_t errlen);

/* Two Gaussian classes: row i has class c = i mod 2 (y = c, so classes 0 and
 * 1 alternate and are balanced), x = (c − ½)·separation·u + g, where
 * u = (1, …, 1)/√d and g ~ N(0, I_d).  The class means are `separation`
 * apart.  g is ul_rng_normals(seed, UL_RNG_RUN_DATA, step 0) numbers
 * i·d … i·d + d − 1: a pure function of (n, d, separation, seed). */
ul_status ul_data_synthetic(size_t n, size_t d, double separation, uint32_t seed, ul_dataset *out,
                            char *err, size_t errlen);

/* The rows of `in` whose label is a or b, in their order, relabelled (class a
 * is the positive class).  Fails if a = b or either class has no row. */
ul_status ul_data_select_binary(const ul_dataset *in, double a, double b, ul_label_coding coding,
                                ul_dataset *out, char *err, size_t errlen);

/* Scales each row to Euclidean norm 1 (as in the Langevin experiments).
 * All-zero rows stay zero; returns how many there were. */
size_t ul_data_normalize_rows(ul_dataset *ds);

#endif
