/* src/emp/modelio.c — model parameter files: .npy (NumPy format 1.0/2.0/3.0,
 * numpy.lib.format) and raw little-endian float64/float32, read into a model
 * set; .npy 1.0 written atomically.  Errors name the file, the byte offset
 * where one applies, and the reason. */
#include "emp/modelio.h"

#include "io/file.h"
#include "io/escape.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* Values are moved as IEEE-754 binary64/binary32 bit patterns through
 * uint64_t/uint32_t of the same size. */
_Static_assert(sizeof(double) == sizeof(uint64_t), "double must be 64 bits");
_Static_assert(sizeof(float) == sizeof(uint32_t), "float must be 32 bits");

/* numpy.lib.format: "\x93NUMPY", then major and minor version bytes. */
static const unsigned char npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
#define NPY_PREFIX_LEN 8                 /* magic + version */
#define NPY_MAX_HEADER ((size_t)1 << 20) /* header bytes we agree to parse */
#define NPY_ALIGN 64                     /* NumPy aligns the data to 64 bytes */

#define IO_CHUNK ((size_t)1 << 16) /* bytes per fread/fwrite when converting */

void ul_model_set_free(ul_model_set *s)
{
    if (s == NULL)
        return;
    free(s->w);
    memset(s, 0, sizeof *s);
}

ul_status ul_modelio_parse_format(const char *name, ul_modelio_format *out, char *err,
                                  size_t errlen)
{
    static const struct {
        const char *name;
        ul_modelio_format fmt;
    } names[] = {{"auto", UL_MODELIO_AUTO},
                 {"npy", UL_MODELIO_NPY},
                 {"f64", UL_MODELIO_F64},
                 {"f32", UL_MODELIO_F32}};
    for (size_t i = 0; name != NULL && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].fmt;
            return UL_OK;
        }
    return ul_fail(err, errlen, UL_EINPUT, "model format '%s' is not one of auto, npy, f64, f32",
                   name == NULL ? "(null)" : name);
}

const char *ul_modelio_format_name(ul_modelio_format fmt)
{
    switch (fmt) {
    case UL_MODELIO_AUTO:
        return "auto";
    case UL_MODELIO_NPY:
        return "npy";
    case UL_MODELIO_F64:
        return "f64";
    case UL_MODELIO_F32:
        return "f32";
    }
    return "?";
}

/* ---- helpers ------------------------------------------------------------- */

/* "%s: byte offset %lld: <reason>" */
static ul_status fail_at(char *err, size_t errlen, const char *path, long long offset,
                         const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static ul_status fail_at(char *err, size_t errlen, const char *path, long long offset,
                         const char *fmt, ...)
{
    char reason[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return ul_fail(err, errlen, UL_EINPUT, "%s: byte offset %lld: %s", path, offset, reason);
}

/* Little-endian byte order assembled explicitly, whatever the host's. */
static double f64_from_le(const unsigned char *b)
{
    uint64_t u = 0;
    for (int i = 7; i >= 0; i--)
        u = u << 8 | b[i];
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static double f32_from_le(const unsigned char *b)
{
    uint32_t u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    float f;
    memcpy(&f, &u, sizeof f);
    return f; /* float → double is exact */
}

static void f64_to_le(double d, unsigned char *b)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(u >> (8 * i));
}

/* "(2, 3)" or "(3,)" into buf. */
static const char *shape_text(const size_t *dims, unsigned rank, char *buf, size_t cap)
{
    if (rank == 1)
        snprintf(buf, cap, "(%zu,)", dims[0]);
    else
        snprintf(buf, cap, "(%zu, %zu)", dims[0], dims[1]);
    return buf;
}

/* s[0..n) for a message, escaped (io/escape.h) and cut to the buffer. */
static const char *printable(const unsigned char *s, size_t n, char *buf, size_t cap)
{
    return ul_io_escape(s, n, buf, cap);
}

/* Opens a regular, non-empty file for reading; *size = its length. */
static ul_status open_model_file(const char *path, FILE **fp, long long *size, char *err,
                                 size_t errlen)
{
    *fp = NULL;
    if (path == NULL || path[0] == '\0')
        return ul_fail(err, errlen, UL_EINPUT, "model file: no file name given");
    return ul_io_fopen_regular(path, "model file", false, fp, size, err, errlen);
}

/* ---- the .npy header dict ------------------------------------------------ */

/* A cursor over the header bytes; base = the file offset of s[0]. */
typedef struct {
    const char *path;
    const unsigned char *s;
    size_t n, pos;
    long long base;
    char *err;
    size_t errlen;
} npy_cursor;

typedef struct {
    size_t itemsize; /* 8 ('<f8') or 4 ('<f4') */
    bool fortran_order;
    unsigned rank; /* 1 or 2 */
    size_t dims[2];
    size_t count;          /* product of dims */
    long long data_offset; /* where the data starts */
} npy_info;

static ul_status cursor_fail(npy_cursor *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static ul_status cursor_fail(npy_cursor *c, const char *fmt, ...)
{
    char reason[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return fail_at(c->err, c->errlen, c->path, c->base + (long long)c->pos, "npy header: %s",
                   reason);
}

/* Blanks between tokens: spaces and tabs (Python allows them anywhere
 * between tokens of a literal; NumPy writes single spaces). */
static void skip_blanks(npy_cursor *c)
{
    while (c->pos < c->n && (c->s[c->pos] == ' ' || c->s[c->pos] == '\t'))
        c->pos++;
}

static int peek(const npy_cursor *c)
{
    return c->pos < c->n ? c->s[c->pos] : -1;
}

/* A Python string literal in ' or " quotes without escapes; *str, *len point
 * into the header. */
static ul_status parse_string(npy_cursor *c, const char *what, const unsigned char **str,
                              size_t *len)
{
    int q = peek(c);
    if (q != '\'' && q != '"')
        return cursor_fail(c, "expected %s as a quoted string", what);
    size_t start = ++c->pos;
    while (c->pos < c->n && c->s[c->pos] != q) {
        if (c->s[c->pos] == '\\')
            return cursor_fail(c, "escape sequences in strings are not supported");
        if (c->s[c->pos] == '\n')
            return cursor_fail(c, "unterminated string");
        c->pos++;
    }
    if (c->pos >= c->n)
        return cursor_fail(c, "unterminated string");
    *str = c->s + start;
    *len = c->pos - start;
    c->pos++; /* closing quote */
    return UL_OK;
}

static bool token_is(const unsigned char *s, size_t n, const char *word)
{
    return n == strlen(word) && memcmp(s, word, n) == 0;
}

static ul_status parse_descr(npy_cursor *c, npy_info *info)
{
    size_t at = c->pos;
    const unsigned char *s;
    size_t n;
    ul_status st = parse_string(c, "the 'descr' value (such as '<f8')", &s, &n);
    if (st != UL_OK)
        return st;
    if (token_is(s, n, "<f8")) {
        info->itemsize = 8;
        return UL_OK;
    }
    if (token_is(s, n, "<f4")) {
        info->itemsize = 4;
        return UL_OK;
    }
    char shown[48];
    c->pos = at;
    return cursor_fail(c,
                       "unsupported descr '%s': only '<f8' and '<f4' (little-endian float64, "
                       "float32) are read",
                       printable(s, n, shown, sizeof shown));
}

static ul_status parse_fortran_order(npy_cursor *c, npy_info *info)
{
    size_t start = c->pos;
    while (c->pos < c->n && ((c->s[c->pos] >= 'A' && c->s[c->pos] <= 'Z') ||
                             (c->s[c->pos] >= 'a' && c->s[c->pos] <= 'z')))
        c->pos++;
    const unsigned char *s = c->s + start;
    size_t n = c->pos - start;
    if (token_is(s, n, "True") || token_is(s, n, "False")) {
        info->fortran_order = s[0] == 'T';
        return UL_OK;
    }
    c->pos = start;
    return cursor_fail(c, "'fortran_order' must be True or False");
}

/* A Python tuple of non-negative decimal integers: (p,) or (k, p), trailing
 * comma allowed, required for one element. */
static ul_status parse_shape(npy_cursor *c, npy_info *info)
{
    if (peek(c) != '(')
        return cursor_fail(c, "'shape' must be a tuple such as (3,) or (2, 3)");
    size_t open = c->pos++;
    unsigned rank = 0;
    bool trailing_comma = false;
    size_t dims[2] = {0, 0};
    skip_blanks(c);
    while (peek(c) != ')') {
        int ch = peek(c);
        if (ch < '0' || ch > '9')
            return cursor_fail(c, "expected a dimension (a decimal integer) in 'shape'");
        if (ch == '0' && c->pos + 1 < c->n && c->s[c->pos + 1] >= '0' && c->s[c->pos + 1] <= '9')
            return cursor_fail(c, "leading zero in a 'shape' dimension");
        size_t start = c->pos;
        uint64_t v = 0;
        bool huge = false;
        while ((ch = peek(c)) >= '0' && ch <= '9') {
            v = v * 10 + (uint64_t)(ch - '0');
            if (v > UL_MODELIO_MAX_VALUES) { /* saturate: the value is refused anyway */
                huge = true;
                v = UL_MODELIO_MAX_VALUES + 1;
            }
            c->pos++;
        }
        if (huge) {
            c->pos = start;
            return cursor_fail(c, "a 'shape' dimension exceeds %zu values; refused",
                               UL_MODELIO_MAX_VALUES);
        }
        if (rank < 2)
            dims[rank] = (size_t)v;
        rank++;
        skip_blanks(c);
        trailing_comma = false;
        if (peek(c) == ',') {
            c->pos++;
            trailing_comma = true;
            skip_blanks(c);
        } else if (peek(c) != ')') {
            return cursor_fail(c, "expected ',' or ')' in 'shape'");
        }
    }
    c->pos++; /* ')' */
    size_t end = c->pos;
    c->pos = open; /* shape errors point at the tuple */
    if (rank == 1 && !trailing_comma)
        return cursor_fail(c, "'shape' (%zu) is not a tuple; a 1-D shape is written (%zu,)",
                           dims[0], dims[0]);
    if (rank == 0)
        return cursor_fail(c, "'shape' () is a scalar; a model file has shape (p,) or (k, p)");
    if (rank > 2)
        return cursor_fail(c, "'shape' has %u dimensions; a model file has shape (p,) or (k, p)",
                           rank);
    char txt[64];
    shape_text(dims, rank, txt, sizeof txt);
    for (unsigned i = 0; i < rank; i++)
        if (dims[i] == 0)
            return cursor_fail(c, "'shape' %s has a zero dimension (no models or no parameters)",
                               txt);
    if (rank == 2 && dims[0] > UL_MODELIO_MAX_VALUES / dims[1])
        return cursor_fail(c, "'shape' %s has more than %zu values; refused", txt,
                           UL_MODELIO_MAX_VALUES);
    info->rank = rank;
    info->dims[0] = dims[0];
    info->dims[1] = dims[1];
    info->count = rank == 1 ? dims[0] : dims[0] * dims[1];
    c->pos = end;
    return UL_OK;
}

/* The dict literal: exactly 'descr', 'fortran_order', 'shape', any order,
 * trailing comma allowed; then spaces and a final '\n'. */
static ul_status parse_header_dict(npy_cursor *c, npy_info *info)
{
    static const char *const keys[3] = {"descr", "fortran_order", "shape"};
    bool seen[3] = {false, false, false};
    skip_blanks(c);
    if (peek(c) != '{')
        return cursor_fail(c, "expected '{' (the header is a Python dict literal)");
    c->pos++;
    for (;;) {
        skip_blanks(c);
        if (peek(c) == '}')
            break;
        size_t key_at = c->pos;
        const unsigned char *key;
        size_t key_len;
        ul_status st = parse_string(c, "a key", &key, &key_len);
        if (st != UL_OK)
            return st;
        int which = -1;
        for (int i = 0; i < 3; i++)
            if (token_is(key, key_len, keys[i]))
                which = i;
        char shown[48];
        if (which < 0) {
            c->pos = key_at;
            return cursor_fail(c,
                               "unexpected key '%s' (the keys are exactly 'descr', "
                               "'fortran_order' and 'shape')",
                               printable(key, key_len, shown, sizeof shown));
        }
        if (seen[which]) {
            c->pos = key_at;
            return cursor_fail(c, "duplicate key '%s'", keys[which]);
        }
        seen[which] = true;
        skip_blanks(c);
        if (peek(c) != ':')
            return cursor_fail(c, "expected ':' after the key '%s'", keys[which]);
        c->pos++;
        skip_blanks(c);
        st = which == 0   ? parse_descr(c, info)
             : which == 1 ? parse_fortran_order(c, info)
                          : parse_shape(c, info);
        if (st != UL_OK)
            return st;
        skip_blanks(c);
        if (peek(c) == ',') {
            c->pos++;
            continue;
        }
        if (peek(c) != '}')
            return cursor_fail(c, "expected ',' or '}' after the value of '%s'", keys[which]);
    }
    c->pos++; /* '}' */
    for (int i = 0; i < 3; i++)
        if (!seen[i])
            return cursor_fail(c,
                               "missing key '%s' (the keys are exactly 'descr', "
                               "'fortran_order' and 'shape')",
                               keys[i]);
    while (c->pos < c->n && c->s[c->pos] == ' ')
        c->pos++;
    if (c->pos >= c->n)
        return cursor_fail(c, "the header does not end in '\\n'");
    if (c->s[c->pos] != '\n' || c->pos + 1 != c->n)
        return cursor_fail(c, "only spaces and a final '\\n' may follow the dict");
    return UL_OK;
}

/* Reads magic, version, header length and header; leaves f at the data. */
static ul_status npy_read_header(const char *path, FILE *f, long long size, npy_info *info,
                                 char *err, size_t errlen)
{
    memset(info, 0, sizeof *info);
    unsigned char pre[NPY_PREFIX_LEN + 4];
    size_t have = size < (long long)sizeof pre ? (size_t)size : sizeof pre;
    if (fread(pre, 1, have, f) != have)
        return ul_fail(err, errlen, UL_EINPUT, "%s: read error", path);
    size_t cmp = have < sizeof npy_magic ? have : sizeof npy_magic;
    if (memcmp(pre, npy_magic, cmp) != 0) {
        char shown[48];
        return fail_at(err, errlen, path, 0, "bad .npy magic '%s' (expected \"\\x93NUMPY\")",
                       printable(pre, cmp, shown, sizeof shown));
    }
    if (have < NPY_PREFIX_LEN)
        return fail_at(err, errlen, path, size,
                       "truncated .npy header: the file ends inside the magic and version");
    unsigned major = pre[6], minor = pre[7];
    if (!(major >= 1 && major <= 3 && minor == 0))
        return fail_at(err, errlen, path, 6,
                       "unsupported .npy version %u.%u (1.0, 2.0 and 3.0 are read)", major, minor);
    size_t len_bytes = major == 1 ? 2 : 4;
    if (have < NPY_PREFIX_LEN + len_bytes)
        return fail_at(err, errlen, path, size,
                       "truncated .npy header: the file ends inside the %zu-byte header length "
                       "at byte offset 8",
                       len_bytes);
    const unsigned char *l = pre + NPY_PREFIX_LEN;
    uint32_t hlen = major == 1 ? (uint32_t)l[0] | (uint32_t)l[1] << 8
                               : (uint32_t)l[0] | (uint32_t)l[1] << 8 | (uint32_t)l[2] << 16 |
                                     (uint32_t)l[3] << 24;
    long long hstart = NPY_PREFIX_LEN + (long long)len_bytes;
    long long hend = hstart + hlen;
    if (hend > size)
        return fail_at(err, errlen, path, 8,
                       "header length %lu runs past the end of the file (the header would "
                       "end at byte offset %lld, the file ends at byte offset %lld)",
                       (unsigned long)hlen, hend, size);
    if (hlen > NPY_MAX_HEADER)
        return fail_at(err, errlen, path, 8, "header length %lu is over %zu bytes; refused",
                       (unsigned long)hlen, NPY_MAX_HEADER);
    if (fseek(f, (long)hstart, SEEK_SET) != 0)
        return ul_fail(err, errlen, UL_EINPUT, "%s: read error", path);
    unsigned char *hdr = malloc(hlen > 0 ? hlen : 1);
    if (hdr == NULL) /* at most NPY_MAX_HEADER bytes: nothing of the input's to name */
        return ul_fail(err, errlen, UL_ENOMEM, "%s: out of memory", path);
    if (fread(hdr, 1, hlen, f) != hlen) {
        free(hdr);
        return ul_fail(err, errlen, UL_EINPUT, "%s: read error", path);
    }
    npy_cursor c = {path, hdr, hlen, 0, hstart, err, errlen};
    ul_status st = parse_header_dict(&c, info);
    free(hdr);
    if (st != UL_OK)
        return st;
    char txt[64];
    shape_text(info->dims, info->rank, txt, sizeof txt);
    if (info->fortran_order && info->rank == 2)
        return fail_at(err, errlen, path, hstart,
                       "npy header: fortran_order True with the 2-D shape %s is not supported "
                       "(save the array in C order)",
                       txt);
    info->data_offset = hend;
    long long need = (long long)(info->count * info->itemsize);
    long long data = size - hend;
    if (data < need)
        return fail_at(err, errlen, path, size,
                       "npy data truncated: shape %s of '<f%zu' needs %lld bytes from byte "
                       "offset %lld to %lld, the file ends here",
                       txt, info->itemsize, need, hend, hend + need);
    if (data > need)
        return fail_at(err, errlen, path, hend + need,
                       "%lld trailing bytes after the npy data of shape %s (the file should "
                       "end here)",
                       data - need, txt);
    return UL_OK;
}

/* ---- reading ------------------------------------------------------------- */

/* Out of memory for k models of p parameters, sizes the files chose
 * (policy: num/status.h). */
static ul_status models_room(const char *path, size_t k, size_t p, char *err, size_t errlen)
{
    return ul_fail(err, errlen, UL_ENOMEM, "%s: out of memory for %zu models x %zu parameters",
                   path, k, p);
}

/* Reads count items of itemsize bytes (little-endian float) from f at file
 * offset `offset` into w, refusing non-finite values; p is for messages. */
static ul_status read_values(const char *path, FILE *f, long long offset, size_t itemsize,
                             size_t count, size_t p, double *w, char *err, size_t errlen)
{
    unsigned char *buf = malloc(IO_CHUNK);
    if (buf == NULL) /* fixed size (IO_CHUNK): nothing of the input's to name */
        return ul_fail(err, errlen, UL_ENOMEM, "%s: out of memory", path);
    size_t per_chunk = IO_CHUNK / itemsize;
    for (size_t done = 0; done < count;) {
        size_t m = count - done < per_chunk ? count - done : per_chunk;
        if (fread(buf, itemsize, m, f) != m) {
            free(buf);
            return ul_fail(err, errlen, UL_EINPUT, "%s: read error", path);
        }
        for (size_t j = 0; j < m; j++) {
            const unsigned char *b = buf + j * itemsize;
            double v = itemsize == 8 ? f64_from_le(b) : f32_from_le(b);
            size_t idx = done + j;
            if (!isfinite(v)) {
                free(buf);
                return fail_at(err, errlen, path, offset + (long long)(idx * itemsize),
                               "model %zu, parameter %zu (value %zu of the file) is %s; "
                               "model parameters must be finite",
                               idx / p, idx % p, idx,
                               isnan(v) ? "NaN"
                               : v > 0  ? "+inf"
                                        : "-inf");
            }
            w[idx] = v;
        }
        done += m;
    }
    free(buf);
    return UL_OK;
}

static bool has_extension(const char *path, const char *ext)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    return dot != NULL && strcasecmp(dot, ext) == 0;
}

/* The format of path for fmt = AUTO: the extension, else the magic. */
static ul_status resolve_format(const char *path, FILE *f, long long size, ul_modelio_format *fmt,
                                bool *starts_with_magic, char *err, size_t errlen)
{
    unsigned char head[sizeof npy_magic];
    size_t have = size < (long long)sizeof head ? (size_t)size : sizeof head;
    if (fread(head, 1, have, f) != have || fseek(f, 0, SEEK_SET) != 0)
        return ul_fail(err, errlen, UL_EINPUT, "%s: read error", path);
    *starts_with_magic = have == sizeof head && memcmp(head, npy_magic, sizeof head) == 0;
    if (*fmt != UL_MODELIO_AUTO)
        return UL_OK;
    if (has_extension(path, ".npy"))
        *fmt = UL_MODELIO_NPY;
    else if (has_extension(path, ".f64") || has_extension(path, ".bin"))
        *fmt = UL_MODELIO_F64;
    else if (has_extension(path, ".f32"))
        *fmt = UL_MODELIO_F32;
    else if (*starts_with_magic)
        *fmt = UL_MODELIO_NPY;
    else
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: cannot tell the model format from the name (.npy, .f64, .bin, .f32) "
                       "and it is not an .npy file; give the format (npy, f64, f32)",
                       path);
    return UL_OK;
}

/* Where a file's models are: k models of p parameters, itemsize-byte
 * items from byte offset `offset`. */
typedef struct {
    size_t k, p, itemsize;
    long long offset;
} layout;

/* The layout of an .npy file from its header; p > 0: required. */
static ul_status npy_layout(const char *path, FILE *f, long long size, size_t p, layout *lay,
                            char *err, size_t errlen)
{
    npy_info info;
    ul_status st = npy_read_header(path, f, size, &info, err, errlen);
    if (st != UL_OK)
        return st;
    size_t file_p = info.dims[info.rank - 1];
    if (p > 0 && file_p != p) {
        char txt[64];
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: shape %s: the models have %zu parameters, %zu expected", path,
                       shape_text(info.dims, info.rank, txt, sizeof txt), file_p, p);
    }
    *lay = (layout){.k = info.rank == 1 ? 1 : info.dims[0],
                    .p = file_p,
                    .itemsize = info.itemsize,
                    .offset = info.data_offset};
    return UL_OK;
}

/* The layout of a raw file from its size; p = 0: the whole file. */
static ul_status raw_layout(const char *path, ul_modelio_format fmt, bool magic, long long size,
                            size_t p, layout *lay, char *err, size_t errlen)
{
    size_t itemsize = fmt == UL_MODELIO_F64 ? 8 : 4;
    if (magic)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: starts with the NumPy magic \"\\x93NUMPY\": it is an .npy file, "
                       "not raw %s; read it as npy",
                       path, ul_modelio_format_name(fmt));
    unsigned long long ull = (unsigned long long)size;
    if (ull % itemsize != 0)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: raw %s file of %lld bytes is not a multiple of %zu bytes", path,
                       ul_modelio_format_name(fmt), size, itemsize);
    unsigned long long values = ull / itemsize;
    if (values > UL_MODELIO_MAX_VALUES)
        return ul_fail(err, errlen, UL_EINPUT, "%s: %llu values is over %zu; refused", path,
                       values, UL_MODELIO_MAX_VALUES);
    if (p > 0 && values % p != 0)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: raw %s file of %lld bytes is not a multiple of %zu·p = %zu bytes "
                       "(p = %zu parameters per model)",
                       path, ul_modelio_format_name(fmt), size, itemsize, itemsize * p, p);
    if (p == 0)
        p = (size_t)values;
    *lay = (layout){.k = (size_t)values / p, .p = p, .itemsize = itemsize, .offset = 0};
    return UL_OK;
}

/* Opens path and reads its layout from the header (npy) or the size (raw),
 * no data; *fp is left open (NULL on failure).  p > 0: required. */
static ul_status probe_file(const char *path, ul_modelio_format fmt, size_t p, FILE **fp,
                            layout *lay, char *err, size_t errlen)
{
    *fp = NULL;
    if (fmt != UL_MODELIO_AUTO && fmt != UL_MODELIO_NPY && fmt != UL_MODELIO_F64 &&
        fmt != UL_MODELIO_F32)
        return ul_fail(err, errlen, UL_EINPUT, "%s: unknown model format %d", path ? path : "",
                       (int)fmt);
    if (p > UL_MODELIO_MAX_VALUES)
        return ul_fail(err, errlen, UL_EINPUT, "%s: %zu parameters per model is over %zu; refused",
                       path ? path : "", p, UL_MODELIO_MAX_VALUES);
    FILE *f;
    long long size = 0;
    ul_status st = open_model_file(path, &f, &size, err, errlen);
    if (st != UL_OK)
        return st;
    bool magic = false;
    st = resolve_format(path, f, size, &fmt, &magic, err, errlen);
    if (st == UL_OK)
        st = fmt == UL_MODELIO_NPY ? npy_layout(path, f, size, p, lay, err, errlen)
                                   : raw_layout(path, fmt, magic, size, p, lay, err, errlen);
    if (st != UL_OK)
        fclose(f);
    else
        *fp = f;
    return st;
}

/* The data of an open, probed file into w (lay->k · lay->p values). */
static ul_status read_data(const char *path, FILE *f, const layout *lay, double *w, char *err,
                           size_t errlen)
{
    if (fseek(f, (long)lay->offset, SEEK_SET) != 0)
        return ul_fail(err, errlen, UL_EINPUT, "%s: read error", path);
    return read_values(path, f, lay->offset, lay->itemsize, lay->k * lay->p, lay->p, w, err,
                       errlen);
}

/* One file into a fresh set; p > 0: required parameters per model. */
static ul_status read_file(const char *path, ul_modelio_format fmt, size_t p, ul_model_set *out,
                           char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f;
    layout lay;
    ul_status st = probe_file(path, fmt, p, &f, &lay, err, errlen);
    if (st != UL_OK)
        return st;
    double *w = malloc(lay.k * lay.p * sizeof *w);
    if (w == NULL) /* the file's k·p ≤ UL_MODELIO_MAX_VALUES (policy: num/status.h) */
        st = models_room(path, lay.k, lay.p, err, errlen);
    else
        st = read_data(path, f, &lay, w, err, errlen);
    fclose(f);
    if (st != UL_OK) {
        free(w);
        return st;
    }
    *out = (ul_model_set){.k = lay.k, .p = lay.p, .w = w};
    return UL_OK;
}

/* The file name and the header bytes quoted are untrusted: every message
 * of a read leaves escaped (io/escape.h). */
ul_status ul_modelio_read(const char *path, ul_modelio_format fmt, size_t p, ul_model_set *out,
                          char *err, size_t errlen)
{
    return ul_io_escaped(read_file(path, fmt, p, out, err, errlen), err, errlen);
}

/* k more models on top of `have` within UL_MODELIO_MAX_VALUES values, or
 * the refusal naming both counts (from the headers: nothing read yet). */
static ul_status room_for(const char *path, size_t have, size_t k, size_t p, char *err,
                          size_t errlen)
{
    if (k <= UL_MODELIO_MAX_VALUES / p - have)
        return UL_OK;
    return ul_fail(err, errlen, UL_EINPUT,
                   "%s: %zu + %zu models of %zu parameters is over %zu values; refused from the "
                   "headers, before reading any data",
                   path, have, k, p, UL_MODELIO_MAX_VALUES);
}

/* The probed file's models appended to *set (grown to hold them). */
static ul_status append_probed(ul_model_set *set, const char *path, FILE *f, const layout *lay,
                               char *err, size_t errlen)
{
    double *w = realloc(set->w, (set->k + lay->k) * lay->p * sizeof *w);
    if (w == NULL) /* the files' sizes (policy: num/status.h) */
        return models_room(path, set->k + lay->k, lay->p, err, errlen);
    set->w = w;
    ul_status st = read_data(path, f, lay, w + set->k * lay->p, err, errlen);
    if (st == UL_OK)
        set->k += lay->k, set->p = lay->p;
    return st;
}

static ul_status append_file(ul_model_set *set, const char *path, ul_modelio_format fmt, char *err,
                             size_t errlen)
{
    if (set->k > 0 && (set->p == 0 || set->w == NULL))
        return ul_fail(err, errlen, UL_EINPUT, "%s: the model set to append to is inconsistent",
                       path ? path : "");
    FILE *f;
    layout lay;
    ul_status st = probe_file(path, fmt, set->p, &f, &lay, err, errlen);
    if (st != UL_OK)
        return st;
    st = room_for(path, set->k, lay.k, lay.p, err, errlen);
    if (st == UL_OK) {
        /* on failure *set keeps its models (the new ones not counted); an
         * empty set is left empty, without the room grown for them */
        st = append_probed(set, path, f, &lay, err, errlen);
        if (st != UL_OK && set->k == 0) {
            free(set->w);
            set->w = NULL;
        }
    }
    fclose(f);
    return st;
}

ul_status ul_modelio_append(ul_model_set *set, const char *path, ul_modelio_format fmt, char *err,
                            size_t errlen)
{
    return ul_io_escaped(append_file(set, path, fmt, err, errlen), err, errlen);
}

/* Every header first: the counts summed and refused over the limit before
 * any data is read (a list of large files costs no read then); then each
 * file's data, checked against its header read before (a file that
 * changed in between is refused). */
static ul_status read_list(const char *const *paths, size_t n, ul_modelio_format fmt, size_t p,
                           ul_model_set *out, char *err, size_t errlen)
{
    *out = (ul_model_set){.p = p};
    size_t k = 0;
    ul_status st = n ? UL_OK : ul_fail(err, errlen, UL_EINPUT, "model files: none given");
    for (size_t i = 0; i < n && st == UL_OK; i++) {
        FILE *f;
        layout lay;
        st = probe_file(paths[i], fmt, out->p, &f, &lay, err, errlen);
        if (st != UL_OK)
            break;
        fclose(f);
        st = room_for(paths[i], k, lay.k, lay.p, err, errlen);
        k += lay.k, out->p = lay.p;
    }
    for (size_t i = 0, before = 0; i < n && st == UL_OK; i++, before = out->k) {
        FILE *f;
        layout lay;
        st = probe_file(paths[i], fmt, out->p, &f, &lay, err, errlen);
        if (st == UL_OK && lay.k > k - before)
            st = ul_fail(err, errlen, UL_EINPUT, "%s: changed while the model files were read",
                         paths[i]);
        if (st == UL_OK)
            st = append_probed(out, paths[i], f, &lay, err, errlen);
        if (f)
            fclose(f);
    }
    if (st != UL_OK)
        ul_model_set_free(out);
    return st;
}

ul_status ul_modelio_read_list(const char *const *paths, size_t n, ul_modelio_format fmt,
                               size_t p, ul_model_set *out, char *err, size_t errlen)
{
    return ul_io_escaped(read_list(paths, n, fmt, p, out, err, errlen), err, errlen);
}

/* ---- writing ------------------------------------------------------------- */

/* The .npy 1.0 prefix and header for shape (k, p) '<f8' into buf (at least
 * NPY_PREFIX_LEN + 2 + 192 bytes); returns its length, a multiple of 64.
 * As numpy.lib.format writes it: the dict, then spaces, then '\n', the
 * spaces making magic + version + length + header a multiple of 64. */
static size_t npy_header_v1(size_t k, size_t p, unsigned char *buf, size_t cap)
{
    char dict[160];
    int n = snprintf(dict, sizeof dict,
                     "{'descr': '<f8', 'fortran_order': False, 'shape': (%zu, %zu), }", k, p);
    size_t used = NPY_PREFIX_LEN + 2 + (size_t)n + 1; /* + '\n' */
    size_t pad = NPY_ALIGN - used % NPY_ALIGN;        /* 1 … 64 spaces, as NumPy */
    size_t hlen = (size_t)n + pad + 1, total = NPY_PREFIX_LEN + 2 + hlen;
    if (total > cap)
        return 0;
    memcpy(buf, npy_magic, sizeof npy_magic);
    buf[6] = 1;
    buf[7] = 0;
    buf[8] = (unsigned char)(hlen & 0xff);
    buf[9] = (unsigned char)(hlen >> 8);
    memcpy(buf + 10, dict, (size_t)n);
    memset(buf + 10 + n, ' ', pad);
    buf[total - 1] = '\n';
    return total;
}

typedef struct {
    const ul_model_set *set;
    const unsigned char *header;
    size_t header_len;
    unsigned char *buf; /* IO_CHUNK bytes */
    char reason[128];   /* why a write failed: the system's reason (a full disk) */
} npy_writer;

/* The header, then the values as little-endian float64, a chunk at a time. */
static const char *fill_npy(FILE *f, void *ctx)
{
    npy_writer *w = ctx;
    size_t count = w->set->k * w->set->p, per_chunk = IO_CHUNK / 8;
    bool ok = fwrite(w->header, 1, w->header_len, f) == w->header_len;
    for (size_t i = 0; ok && i < count; i += per_chunk) {
        size_t m = count - i < per_chunk ? count - i : per_chunk;
        for (size_t j = 0; j < m; j++)
            f64_to_le(w->set->w[i + j], w->buf + 8 * j);
        ok = fwrite(w->buf, 8, m, f) == m;
    }
    if (ok)
        return NULL;
    snprintf(w->reason, sizeof w->reason, "write failed: %s", strerror(errno ? errno : EIO));
    return w->reason;
}

ul_status ul_modelio_write_npy(const char *path, const ul_model_set *set, char *err, size_t errlen)
{
    if (path == NULL || path[0] == '\0')
        return ul_fail(err, errlen, UL_EINPUT, "model file: no file name given");
    if (set == NULL || set->k == 0 || set->p == 0 || set->w == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "%s: no models to write (the set is empty)", path);
    if (set->k > UL_MODELIO_MAX_VALUES / set->p)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: %zu models of %zu parameters is over %zu "
                       "values; refused",
                       path, set->k, set->p, UL_MODELIO_MAX_VALUES);
    size_t count = set->k * set->p;
    for (size_t i = 0; i < count; i++)
        if (!isfinite(set->w[i]))
            return ul_fail(err, errlen, UL_EINPUT,
                           "%s: model %zu, parameter %zu is not finite; not written", path,
                           i / set->p, i % set->p);

    unsigned char header[NPY_PREFIX_LEN + 2 + 256];
    npy_writer w = {.set = set, .header = header, .buf = malloc(IO_CHUNK)};
    w.header_len = npy_header_v1(set->k, set->p, header, sizeof header);
    /* the buffer has a fixed size (IO_CHUNK); the header always fits its
     * room (two numbers of at most 20 digits) */
    ul_status st;
    if (w.buf == NULL)
        st = ul_fail(err, errlen, UL_ENOMEM, "%s: out of memory", path);
    else if (w.header_len == 0)
        st = ul_fail(err, errlen, UL_EINPUT, "%s: the .npy header does not fit", path);
    else
        st = ul_io_write_atomic(path, fill_npy, &w, -1, err, errlen);
    free(w.buf);
    return st;
}
