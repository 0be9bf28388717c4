/* src/emp/modelio.h — released model parameter vectors on disk: reading
 * them for `ulaudit attack --in-models` (scoring models somebody else
 * trained) and writing them for `--out-models` (so they can be re-scored).
 *
 * A model set is k models of p parameters each, row-major doubles: model i
 * is w[i·p … i·p + p − 1].  Readers fill a set; on failure the output is
 * left as it was (empty for ul_modelio_read) and err names the file, the
 * byte offset where one applies, and the reason (file names and quoted
 * header bytes escaped: control bytes and invalid UTF-8 as \xNN,
 * io/escape.h).  Every value must be
 * finite: NaN or ±inf is an error naming the model and parameter index.
 * Sets over UL_MODELIO_MAX_VALUES doubles in total are refused before
 * anything is allocated.
 *
 * Formats
 *
 *   npy   NumPy's .npy, versions 1.0, 2.0 and 3.0 (numpy.lib.format,
 *         https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
 *           bytes 0–5   magic "\x93NUMPY"
 *           byte  6, 7  major, minor version: (1, 0), (2, 0) or (3, 0)
 *           then        header length H: u16 little-endian (1.0) or u32
 *                       little-endian (2.0, 3.0)
 *           then        H bytes of header: a Python dict literal, padded
 *                       with spaces and ending in '\n' (ASCII; 3.0: UTF-8,
 *                       which can only matter inside strings)
 *           then        the data, little-endian, shape-product items.
 *         The dict has exactly the keys 'descr', 'fortran_order' and
 *         'shape', in any order, each once (strings in ' or " quotes, no
 *         escapes; a trailing comma is allowed, as NumPy writes one):
 *           'descr'          '<f8' (float64) or '<f4' (float32); nothing
 *                            else ('>f8', '|f8', '=f8', '<i4', … refused)
 *           'fortran_order'  False; True only for a 1-D shape (same bytes)
 *           'shape'          (p,) = one model, or (k, p) = k models, one per
 *                            row; no dimension may be 0
 *         After '}' only spaces may come before the final '\n'.  The data
 *         must be exactly k·p items: a short file or trailing bytes is an
 *         error giving the byte offset.  Headers over 1 MiB are refused.
 *   f64   raw little-endian IEEE-754 float64, no header (".f64", ".bin")
 *   f32   raw little-endian IEEE-754 float32, no header (".f32")
 *         A raw file holds k·p numbers, model after model.  The caller gives
 *         p; p = 0 means the whole file is one model.  The file size must
 *         be a multiple of 8·p (f64) or 4·p (f32).  A raw read of a file
 *         that starts with the NumPy magic is refused (it is an .npy file).
 *
 * UL_MODELIO_AUTO picks the format from the extension (case-insensitive:
 * .npy, .f64, .bin, .f32); for any other name a file starting with the
 * NumPy magic is read as npy, and anything else is an error asking for an
 * explicit format.  An explicit format overrides the extension.
 *
 * Bytes are assembled little-endian explicitly, whatever the host's order.
 */
#ifndef UL_EMP_MODELIO_H
#define UL_EMP_MODELIO_H

#include <stddef.h>

#include "num/status.h"

/* Largest k·p accepted (2²⁸ doubles = 2 GiB, as UL_DATA_MAX_CELLS). */
#define UL_MODELIO_MAX_VALUES ((size_t)1 << 28)

typedef enum {
    UL_MODELIO_AUTO, /* from the extension (see above) */
    UL_MODELIO_NPY,
    UL_MODELIO_F64,
    UL_MODELIO_F32,
} ul_modelio_format;

typedef struct {
    size_t k, p; /* k models of p parameters */
    double *w;   /* k·p, row-major: model i at w + i·p */
} ul_model_set;

void ul_model_set_free(ul_model_set *s); /* frees w and zeroes k, p, w; NULL-safe */

/* "auto", "npy", "f64" or "f32" (exactly, lower case) → *out. */
ul_status ul_modelio_parse_format(const char *name, ul_modelio_format *out, char *err,
                                  size_t errlen);

/* The inverse of ul_modelio_parse_format ("auto", "npy", "f64", "f32"). */
const char *ul_modelio_format_name(ul_modelio_format fmt);

/* Reads one file into a fresh set (*out is overwritten, not freed).
 * p = 0: inferred (npy: the shape's last dimension; raw: the whole file is
 * one model); p > 0: the file's models must have p parameters. */
ul_status ul_modelio_read(const char *path, ul_modelio_format fmt, size_t p, ul_model_set *out,
                          char *err, size_t errlen);

/* Reads one file and appends its models to *set (for a list of paths from
 * the command line: one model per file, or several).  Start from a zeroed
 * set to infer p from the first file, or from {.p = p} to require p; every
 * later file must have set->p parameters per model.  A file whose models
 * would take the set over UL_MODELIO_MAX_VALUES values is refused from its
 * header, before its data is read ("PATH: K1 + K2 models of P parameters
 * is over …": K1 in the set, K2 in the file).  On failure *set holds the
 * models it held. */
ul_status ul_modelio_append(ul_model_set *set, const char *path, ul_modelio_format fmt, char *err,
                            size_t errlen);

/* Reads the n files paths[0..n) into a fresh set (*out overwritten; p as
 * for ul_modelio_read, the first file's for the others when 0).  Every
 * file's header (or raw size) is read first and the counts summed: a list
 * over UL_MODELIO_MAX_VALUES values is refused naming the file that takes
 * it over and both counts ("PATH: K1 + K2 models …": K1 in the files
 * before it), before any data is read or allocated.  On failure *out is
 * empty. */
ul_status ul_modelio_read_list(const char *const *paths, size_t n, ul_modelio_format fmt,
                               size_t p, ul_model_set *out, char *err, size_t errlen);

/* Writes the set as .npy version 1.0: descr '<f8', fortran_order False,
 * shape (k, p), the header padded so the data starts at a multiple of 64
 * bytes (as NumPy writes it).  Atomic: a temporary file in the same
 * directory (mode 0666 less the umask), fsync'd, renamed over path; on
 * failure path is untouched.  Refuses an empty set and non-finite values
 * (the readers would refuse the file). */
ul_status ul_modelio_write_npy(const char *path, const ul_model_set *set, char *err, size_t errlen);

#endif
