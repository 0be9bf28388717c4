/* src/emp/data.c — IDX / CSV / LIBSVM readers, synthetic data, binary tasks,
 * row scaling.  Errors name the file, the line or byte offset, and the reason. */
#include "emp/data.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "io/escape.h"
#include "emp/rng.h"
#include "io/file.h"

void ul_dataset_free(ul_dataset *ds)
{
    if (ds == NULL)
        return;
    free(ds->x);
    free(ds->y);
    memset(ds, 0, sizeof *ds);
}

/* n·d ≤ UL_DATA_MAX_CELLS without overflow. */
static int cells_ok(size_t n, size_t d)
{
    return d == 0 || n <= UL_DATA_MAX_CELLS / d;
}

/* out->x (n·d doubles, zeroed when zero) and out->y (n), at least one
 * each; n and d are the input's (n·d ≤ UL_DATA_MAX_CELLS), so out of memory
 * is UL_ENOMEM naming them after `who` (policy: num/status.h). */
static ul_status data_room(ul_dataset *out, size_t n, size_t d, bool zero, const char *who,
                           char *err, size_t errlen)
{
    size_t cells = n * d > 0 ? n * d : 1;
    out->x = zero ? calloc(cells, sizeof *out->x) : malloc(cells * sizeof *out->x);
    out->y = malloc((n ? n : 1) * sizeof *out->y);
    if (out->x != NULL && out->y != NULL)
        return UL_OK;
    ul_dataset_free(out);
    return ul_fail(err, errlen, UL_ENOMEM, "%s: out of memory for %zu x %zu values", who, n, d);
}

/* Opens a regular, non-empty file for reading; *size = its length. */
static ul_status open_data(const char *path, FILE **fp, long long *size, char *err, size_t errlen)
{
    *fp = NULL;
    if (path == NULL || path[0] == '\0')
        return ul_fail(err, errlen, UL_EINPUT, "data file: no file name given");
    return ul_io_fopen_regular(path, "data file", false, fp, size, err, errlen);
}

/* ---- IDX ------------------------------------------------------------------ */

/* IDX files are read through zlib's gz interface (zlib.h, gzread): a gzip
 * file (RFC 1952, magic 1f 8b) is decompressed, any other file is passed
 * through unchanged, so one code path reads both.  Byte offsets in messages
 * count bytes of the IDX stream, i.e. after decompression; for a gzip file
 * the message says so after the file name. */

#define IDX_MAX_RANK 4
#define IDX_GZ_BUFFER ((unsigned)1 << 17) /* zlib's input/output buffers, bytes */
/* Bytes per gzread.  On an error gzread returns −1 and forgets what it
 * produced in that call, so an error is placed within one chunk: after
 * byte offset X means in X … X + IDX_GZ_CHUNK. */
#define IDX_GZ_CHUNK ((size_t)1 << 16)

typedef struct {
    unsigned rank;
    size_t dims[IDX_MAX_RANK];
    size_t count; /* product of dims */
    unsigned char *data;
} idx_file;

typedef struct {
    gzFile gz;
    const char *path;
    const char *label; /* "" or the gzip note printed after the path */
    long long offset;  /* IDX (decompressed) bytes read so far */
} idx_stream;

/* gzerror's text without the "<fd:N>: " prefix zlib puts on a gzdopen'ed file. */
static const char *gz_reason(gzFile gz, int *errnum)
{
    const char *msg = gzerror(gz, errnum);
    const char *cut = strncmp(msg, "<fd:", 4) == 0 ? strstr(msg, ">: ") : NULL;
    return cut ? cut + 3 : msg;
}

/* Opens path (a regular non-empty file, ul_io_open_regular) for gzread. */
static ul_status idx_open(const char *path, idx_stream *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    s->label = "";
    if (path == NULL || path[0] == '\0')
        return ul_fail(err, errlen, UL_EINPUT, "data file: no file name given");
    int fd;
    long long size;
    ul_status st = ul_io_open_regular(path, "data file", false, &fd, &size, err, errlen);
    if (st != UL_OK)
        return st;
    s->gz = gzdopen(fd, "rb");
    if (s->gz == NULL) { /* fixed size (zlib's state): UL_ENOMEM with nothing to name */
        close(fd);
        return ul_fail(err, errlen, UL_ENOMEM, "%s: out of memory (zlib)", path);
    }
    gzbuffer(s->gz, IDX_GZ_BUFFER);
    return UL_OK;
}

/* Reads up to len bytes; *got = how many.  A short read is the end of the
 * data unless zlib reports an error (a truncated or corrupt gzip stream, a
 * failed read), which is returned as UL_EINPUT with the offset reached. */
static ul_status idx_take(idx_stream *s, void *buf, size_t len, size_t *got, char *err,
                          size_t errlen)
{
    *got = 0;
    while (*got < len) {
        size_t want = len - *got < IDX_GZ_CHUNK ? len - *got : IDX_GZ_CHUNK;
        int r = gzread(s->gz, (unsigned char *)buf + *got, (unsigned)want);
        if (r > 0) {
            *got += (size_t)r;
            s->offset += r;
        }
        if (r != (int)want)
            break; /* the end, or an error (r = −1: this chunk's bytes are lost) */
    }
    if (s->label[0] == '\0' && !gzdirect(s->gz))
        s->label = " (gzip; byte offsets count decompressed bytes)";
    if (*got == len)
        return UL_OK;
    int errnum;
    const char *why = gz_reason(s->gz, &errnum);
    if (errnum == Z_ERRNO)
        return ul_fail(err, errlen, UL_EINPUT, "%s%s: read error after byte offset %lld: %s",
                       s->path, s->label, s->offset, why); /* zlib's text includes strerror */
    if (errnum == Z_BUF_ERROR)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s%s: truncated gzip stream after byte offset %lld: %s (the compressed "
                       "file is cut short)",
                       s->path, s->label, s->offset, why);
    if (errnum != Z_OK)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s%s: corrupt gzip stream after byte offset %lld: %s", s->path, s->label,
                       s->offset, why);
    return UL_OK; /* a clean end of the data */
}

/* Reads to the end of the stream (at most UL_DATA_MAX_CELLS bytes more);
 * *extra = the bytes found, *more = 1 if it stopped at that cap. */
static ul_status idx_rest(idx_stream *s, long long *extra, int *more, char *err, size_t errlen)
{
    unsigned char sink[4096];
    *extra = 0;
    *more = 0;
    for (;;) {
        size_t got;
        ul_status st = idx_take(s, sink, sizeof sink, &got, err, errlen);
        if (st != UL_OK)
            return st;
        *extra += (long long)got;
        if (got < sizeof sink)
            return UL_OK;
        if (*extra >= (long long)UL_DATA_MAX_CELLS) {
            *more = 1;
            return UL_OK;
        }
    }
}

static ul_status idx_read(const char *path, idx_file *ix, char *err, size_t errlen)
{
    memset(ix, 0, sizeof *ix);
    idx_stream s;
    ul_status st = idx_open(path, &s, err, errlen);
    if (st != UL_OK)
        return st;
    unsigned char head[4 + 4 * IDX_MAX_RANK];
    size_t got;
    st = idx_take(&s, head, 4, &got, err, errlen);
    if (st != UL_OK)
        goto fail;
    if (got < 4) {
        st = ul_fail(err, errlen, UL_EINPUT,
                     "%s%s: truncated IDX header: the 4-byte magic ends at byte offset %lld", path,
                     s.label, s.offset);
        goto fail;
    }
    if (head[0] != 0 || head[1] != 0) {
        st = ul_fail(
            err, errlen, UL_EINPUT,
            "%s%s: byte offset 0: bad IDX magic %02x %02x %02x %02x (expected 00 00 type rank)",
            path, s.label, head[0], head[1], head[2], head[3]);
        goto fail;
    }
    if (head[2] != 0x08) {
        st = ul_fail(err, errlen, UL_EINPUT,
                     "%s%s: byte offset 2: IDX element type 0x%02x is not supported (only unsigned "
                     "bytes, 0x08)",
                     path, s.label, head[2]);
        goto fail;
    }
    ix->rank = head[3];
    if (ix->rank == 0 || ix->rank > IDX_MAX_RANK) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s%s: byte offset 3: IDX rank %u is not in 1..%d",
                     path, s.label, ix->rank, IDX_MAX_RANK);
        goto fail;
    }
    long long header = 4 + 4 * (long long)ix->rank;
    st = idx_take(&s, head + 4, 4 * (size_t)ix->rank, &got, err, errlen);
    if (st != UL_OK)
        goto fail;
    if (got < 4 * (size_t)ix->rank) {
        st = ul_fail(err, errlen, UL_EINPUT,
                     "%s%s: truncated IDX header: %u dimensions need %lld bytes, the file ends at "
                     "byte offset %lld",
                     path, s.label, ix->rank, header, s.offset);
        goto fail;
    }
    /* dimensions: big-endian u32 each */
    ix->count = 1;
    for (unsigned k = 0; k < ix->rank; k++) {
        const unsigned char *p = head + 4 + 4 * k;
        uint32_t v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
        ix->dims[k] = v;
        if (v == 0) {
            st = ul_fail(err, errlen, UL_EINPUT, "%s%s: byte offset %u: IDX dimension %u is zero",
                         path, s.label, 4 + 4 * k, k);
            goto fail;
        }
        if (!cells_ok(ix->count, v)) {
            st = ul_fail(err, errlen, UL_EINPUT,
                         "%s%s: byte offset %u: IDX dimensions give more than %zu values; refused",
                         path, s.label, 4 + 4 * k, UL_DATA_MAX_CELLS);
            goto fail;
        }
        ix->count *= v;
    }
    ix->data = malloc(ix->count);
    if (ix->data == NULL) { /* the size its header declares (≤ UL_DATA_MAX_CELLS) */
        st = ul_fail(err, errlen, UL_ENOMEM,
                     "%s%s: out of memory for the %zu bytes of IDX data its header declares",
                     path, s.label, ix->count);
        goto fail;
    }
    st = idx_take(&s, ix->data, ix->count, &got, err, errlen);
    if (st != UL_OK)
        goto fail;
    if (got < ix->count) {
        st = ul_fail(err, errlen, UL_EINPUT,
                     "%s%s: truncated IDX data: the header promises %zu bytes after byte offset "
                     "%lld, the file ends at byte offset %lld",
                     path, s.label, ix->count, header, s.offset);
        goto fail;
    }
    /* Nothing may follow the data; reading on to the end also makes zlib
     * check the gzip trailer (CRC-32 and length), so a damaged or cut
     * trailer is reported here rather than ignored. */
    long long extra;
    int more;
    st = idx_rest(&s, &extra, &more, err, errlen);
    if (st != UL_OK)
        goto fail;
    if (extra > 0) {
        st = ul_fail(err, errlen, UL_EINPUT,
                     "%s%s: byte offset %lld: %s%lld bytes after the end of the IDX data "
                     "(dimensions do not match the file size)",
                     path, s.label, header + (long long)ix->count, more ? "at least " : "", extra);
        goto fail;
    }
    gzclose_r(s.gz);
    return UL_OK;
fail:
    gzclose_r(s.gz);
    free(ix->data);
    ix->data = NULL;
    return st;
}

/* Reads and cross-checks an image file and its label file (bytes only). */
static ul_status idx_pair(const char *images, const char *labels, idx_file *im, idx_file *lb,
                          char *err, size_t errlen)
{
    ul_status st = idx_read(images, im, err, errlen);
    if (st != UL_OK)
        return st;
    if (im->rank < 2) {
        free(im->data);
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: byte offset 3: an IDX image file needs rank ≥ 2, this one has rank %u",
                       images, im->rank);
    }
    st = idx_read(labels, lb, err, errlen);
    if (st != UL_OK) {
        free(im->data);
        return st;
    }
    if (lb->rank != 1 || lb->dims[0] != im->dims[0]) {
        ul_fail(err, errlen, UL_EINPUT,
                "%s: byte offset 4: dims mismatch: %s has %zu images, the label file must have "
                "rank 1 and %zu labels (it has rank %u, first dimension %zu)",
                labels, images, im->dims[0], im->dims[0], lb->rank, lb->dims[0]);
        free(im->data);
        free(lb->data);
        return UL_EINPUT;
    }
    return UL_OK;
}

/* Which rows become doubles: all (binary false), or the rows of classes a
 * and b relabelled, at most limit of them (0: no limit). */
typedef struct {
    bool binary;
    double a, b;
    ul_label_coding coding;
    size_t limit;
} idx_pick;

static bool idx_keep(const idx_pick *k, double label)
{
    return !k->binary || label == k->a || label == k->b;
}

/* Converts the picked rows only (p/255), so a limit bounds the memory. */
static ul_status idx_convert(const idx_file *im, const idx_file *lb, const idx_pick *k,
                             ul_dataset *out, const char *images, char *err, size_t errlen)
{
    size_t n = 0, d = im->count / im->dims[0];
    for (size_t i = 0; i < im->dims[0] && (!k->limit || n < k->limit); i++)
        n += idx_keep(k, lb->data[i]);
    ul_status st = data_room(out, n, d, false, images, err, errlen);
    if (st != UL_OK)
        return st;
    double neg = k->coding == UL_LABELS_PM1 ? -1.0 : 0.0;
    for (size_t i = 0, r = 0; r < n; i++) {
        double y = lb->data[i];
        if (!idx_keep(k, y))
            continue;
        for (size_t j = 0; j < d; j++)
            out->x[r * d + j] = im->data[i * d + j] / 255.0;
        out->y[r++] = !k->binary ? y : y == k->a ? 1.0 : neg;
    }
    out->n = n;
    out->d = d;
    return UL_OK;
}

/* The binary task's checks of ul_data_select_binary, over the whole file. */
static ul_status idx_classes(const idx_file *lb, const idx_pick *k, char *err, size_t errlen)
{
    if (k->a == k->b)
        return ul_fail(err, errlen, UL_EINPUT, "binary task: classes a and b are both %g", k->a);
    size_t na = 0, nb = 0;
    for (size_t i = 0; i < lb->dims[0]; i++) {
        na += lb->data[i] == k->a;
        nb += lb->data[i] == k->b;
    }
    if (na == 0 || nb == 0)
        return ul_fail(err, errlen, UL_EINPUT,
                       "binary task: class %g has %zu rows and class %g has %zu; both need some",
                       k->a, na, k->b, nb);
    return UL_OK;
}

static ul_status read_idx(const char *images, const char *labels, const idx_pick *k,
                          ul_dataset *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    idx_file im, lb;
    ul_status st = idx_pair(images, labels, &im, &lb, err, errlen);
    if (st != UL_OK)
        return st;
    if (k->binary)
        st = idx_classes(&lb, k, err, errlen);
    if (st == UL_OK)
        st = idx_convert(&im, &lb, k, out, images, err, errlen);
    free(im.data);
    free(lb.data);
    return st;
}

/* ---- text helpers ------------------------------------------------------------ */

typedef struct {
    double *v;
    size_t len, cap;
} dvec;

/* The list's next size: doubled, at most UL_DATA_MAX_CELLS. */
static size_t dvec_next_cap(const dvec *a)
{
    size_t cap = a->cap ? 2 * a->cap : 64;
    return cap > UL_DATA_MAX_CELLS ? UL_DATA_MAX_CELLS : cap;
}

/* 0, or -1 past UL_DATA_MAX_CELLS values, or -2 when the list's next size
 * (dvec_next_cap: the input's) cannot be allocated. */
static int dvec_push(dvec *a, double x)
{
    if (a->len == a->cap) {
        size_t cap = dvec_next_cap(a);
        if (a->len >= cap)
            return -1;
        double *v = realloc(a->v, cap * sizeof *v);
        if (v == NULL)
            return -2;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->len++] = x;
    return 0;
}

/* Parses [s, e) (already trimmed) as one finite number. */
static int parse_number(const char *s, const char *e, double *x)
{
    if (s == e)
        return 0;
    char buf[128];
    size_t len = (size_t)(e - s);
    if (len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end != buf + len || !isfinite(v))
        return 0;
    *x = v;
    return 1;
}

/* Out of memory for a list of n values read up to line lineno (policy:
 * num/status.h). */
static ul_status values_room(const char *path, size_t lineno, size_t n, char *err, size_t errlen)
{
    return ul_fail(err, errlen, UL_ENOMEM, "%s: line %zu: out of memory for a list of %zu values",
                   path, lineno, n);
}

/* Why a getline loop ended after line lineno: the end of the file (UL_OK),
 * a read error, or getline's failure to grow its buffer of linecap bytes
 * for the next line, the input's (UL_ENOMEM; neither EOF nor an error
 * flag then): never taken for the end of the data. */
static ul_status lines_end(FILE *f, const char *path, size_t lineno, size_t linecap, char *err,
                           size_t errlen)
{
    if (ferror(f))
        return ul_fail(err, errlen, UL_EINPUT, "%s: read error after line %zu", path, lineno);
    if (!feof(f))
        return ul_fail(err, errlen, UL_ENOMEM,
                       "%s: line %zu: out of memory for a line of more than %zu bytes", path,
                       lineno + 1, linecap);
    return UL_OK;
}

static void trim(const char **s, const char **e)
{
    while (*s < *e && (**s == ' ' || **s == '\t'))
        (*s)++;
    while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r' || (*e)[-1] == '\n'))
        (*e)--;
}

/* ---- CSV -------------------------------------------------------------------- */

static ul_status read_csv(const char *path, int label_col, int header, ul_dataset *out, char *err,
                          size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f;
    long long size;
    ul_status st = open_data(path, &f, &size, err, errlen);
    if (st != UL_OK)
        return st;
    char *line = NULL;
    size_t linecap = 0, lineno = 0, ncols = 0, first_line = 0, rows = 0;
    dvec cells = {0};
    ssize_t got;
    int first = 1;
    st = UL_OK;
    while ((got = getline(&line, &linecap, f)) >= 0) {
        lineno++;
        const char *s = line, *e = line + got;
        trim(&s, &e);
        if (s == e)
            continue;
        if (memchr(s, '\0', (size_t)(e - s)) != NULL) {
            st = ul_fail(err, errlen, UL_EINPUT, "%s: line %zu: NUL byte (not a text file?)", path,
                         lineno);
            goto done;
        }
        /* count and check the cells of this line */
        size_t col = 0, start = cells.len;
        int is_header = first && header == 1;
        for (const char *c = s;; col++) {
            const char *ce = memchr(c, ',', (size_t)(e - c));
            if (ce == NULL)
                ce = e;
            const char *cs = c, *cend = ce;
            trim(&cs, &cend);
            double v = 0;
            if (!is_header && !parse_number(cs, cend, &v)) {
                if (first && header == -1) {
                    is_header = 1;
                    cells.len = start;
                } else {
                    st = ul_fail(err, errlen, UL_EINPUT,
                                 "%s: line %zu, column %zu: not a number: '%.*s'", path, lineno,
                                 col + 1, (int)((cend - cs) > 40 ? 40 : (cend - cs)), cs);
                    goto done;
                }
            }
            if (!is_header) {
                if (rows > 0 && col >= ncols) {
                    st = ul_fail(err, errlen, UL_EINPUT,
                                 "%s: line %zu: more than %zu columns (line %zu has %zu)", path,
                                 lineno, ncols, first_line, ncols);
                    goto done;
                }
                int full = dvec_push(&cells, v);
                if (full != 0) {
                    st = full == -2 ? values_room(path, lineno, dvec_next_cap(&cells), err, errlen)
                                    : ul_fail(err, errlen, UL_EINPUT,
                                              "%s: line %zu: more than %zu values; refused", path,
                                              lineno, UL_DATA_MAX_CELLS);
                    goto done;
                }
            }
            if (ce == e)
                break;
            c = ce + 1;
        }
        col++;
        if (is_header) {
            first = 0;
            continue;
        }
        if (rows == 0) {
            ncols = col;
            first_line = lineno;
            if (ncols < 2) {
                st = ul_fail(err, errlen, UL_EINPUT,
                             "%s: line %zu: one column only; need a label and at least one feature",
                             path, lineno);
                goto done;
            }
            long lc = label_col < 0 ? (long)ncols + label_col : label_col;
            if (lc < 0 || lc >= (long)ncols) {
                st = ul_fail(
                    err, errlen, UL_EINPUT,
                    "%s: line %zu: label column %d is out of range: the file has %zu columns", path,
                    lineno, label_col, ncols);
                goto done;
            }
        } else if (col != ncols) {
            st = ul_fail(err, errlen, UL_EINPUT,
                         "%s: line %zu: %zu columns, expected %zu (as on line %zu)", path, lineno,
                         col, ncols, first_line);
            goto done;
        }
        first = 0;
        rows++;
    }
    st = lines_end(f, path, lineno, linecap, err, errlen);
    if (st != UL_OK)
        goto done;
    if (rows == 0) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s: no data rows (%zu lines read)", path, lineno);
        goto done;
    }
    size_t lc = label_col < 0 ? (size_t)((long)ncols + label_col) : (size_t)label_col;
    size_t d = ncols - 1;
    st = data_room(out, rows, d, false, path, err, errlen);
    if (st != UL_OK)
        goto done;
    for (size_t i = 0; i < rows; i++) {
        const double *r = cells.v + i * ncols;
        double *xi = out->x + i * d;
        for (size_t j = 0, k = 0; j < ncols; j++) {
            if (j == lc)
                out->y[i] = r[j];
            else
                xi[k++] = r[j];
        }
    }
    out->n = rows;
    out->d = d;
done:
    free(line);
    free(cells.v);
    fclose(f);
    return st;
}

/* ---- LIBSVM ------------------------------------------------------------------ */

typedef struct {
    size_t row, col;
    double v;
} triplet;

static ul_status read_libsvm(const char *path, size_t dim, ul_dataset *out, char *err,
                             size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (dim > UL_DATA_MAX_CELLS)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: dimension %zu exceeds the limit of %zu values per row; refused",
                       path ? path : "(null)", dim, UL_DATA_MAX_CELLS);
    FILE *f;
    long long size;
    ul_status st = open_data(path, &f, &size, err, errlen);
    if (st != UL_OK)
        return st;
    char *line = NULL;
    size_t linecap = 0, lineno = 0, rows = 0, maxidx = 0, nt = 0, tcap = 0;
    triplet *t = NULL;
    dvec labels = {0};
    ssize_t got;
    while ((got = getline(&line, &linecap, f)) >= 0) {
        lineno++;
        char *hash = memchr(line, '#', (size_t)got);
        const char *s = line, *e = hash ? hash : line + got;
        trim(&s, &e);
        if (s == e)
            continue;
        /* label */
        const char *te = s;
        while (te < e && *te != ' ' && *te != '\t')
            te++;
        double lab;
        if (!parse_number(s, te, &lab)) {
            st = ul_fail(err, errlen, UL_EINPUT, "%s: line %zu: label is not a number: '%.*s'",
                         path, lineno, (int)((te - s) > 40 ? 40 : (te - s)), s);
            goto done;
        }
        int full = dvec_push(&labels, lab);
        if (full != 0) {
            st = full == -2 ? values_room(path, lineno, dvec_next_cap(&labels), err, errlen)
                            : ul_fail(err, errlen, UL_EINPUT, "%s: line %zu: too many rows; refused",
                                      path, lineno);
            goto done;
        }
        size_t prev = 0;
        for (s = te;;) {
            while (s < e && (*s == ' ' || *s == '\t'))
                s++;
            if (s == e)
                break;
            te = s;
            while (te < e && *te != ' ' && *te != '\t')
                te++;
            const char *colon = memchr(s, ':', (size_t)(te - s));
            int tl = (int)((te - s) > 40 ? 40 : (te - s));
            if (colon == NULL || colon == s) {
                st = ul_fail(err, errlen, UL_EINPUT,
                             "%s: line %zu: expected index:value, got '%.*s'", path, lineno, tl, s);
                goto done;
            }
            size_t idx = 0;
            for (const char *p = s; p < colon; p++) {
                if (!isdigit((unsigned char)*p)) {
                    st = ul_fail(err, errlen, UL_EINPUT,
                                 "%s: line %zu: index is not a positive integer in '%.*s'", path,
                                 lineno, tl, s);
                    goto done;
                }
                if (idx > UL_DATA_MAX_CELLS) /* stays small; checked below */
                    continue;
                idx = idx * 10 + (size_t)(*p - '0');
            }
            if (idx == 0) {
                st = ul_fail(err, errlen, UL_EINPUT,
                             "%s: line %zu: index 0 in '%.*s': indices are 1-based", path, lineno,
                             tl, s);
                goto done;
            }
            if (idx > UL_DATA_MAX_CELLS || (dim > 0 && idx > dim)) {
                st = ul_fail(err, errlen, UL_EINPUT,
                             "%s: line %zu: index in '%.*s' exceeds the dimension %zu", path,
                             lineno, tl, s, dim > 0 ? dim : UL_DATA_MAX_CELLS);
                goto done;
            }
            if (idx <= prev) {
                st = ul_fail(
                    err, errlen, UL_EINPUT,
                    "%s: line %zu: index %zu after index %zu: indices must be strictly increasing",
                    path, lineno, idx, prev);
                goto done;
            }
            prev = idx;
            double v;
            if (!parse_number(colon + 1, te, &v)) {
                st = ul_fail(err, errlen, UL_EINPUT,
                             "%s: line %zu: value is not a number in '%.*s'", path, lineno, tl, s);
                goto done;
            }
            if (nt == tcap) {
                size_t cap = tcap ? 2 * tcap : 256;
                triplet *nt2 = cap <= UL_DATA_MAX_CELLS ? realloc(t, cap * sizeof *t) : NULL;
                if (nt2 == NULL) {
                    st = cap <= UL_DATA_MAX_CELLS
                             ? ul_fail(err, errlen, UL_ENOMEM,
                                       "%s: line %zu: out of memory for a list of %zu entries",
                                       path, lineno, cap)
                             : ul_fail(err, errlen, UL_EINPUT,
                                       "%s: line %zu: more than %zu entries; refused", path,
                                       lineno, UL_DATA_MAX_CELLS);
                    goto done;
                }
                t = nt2;
                tcap = cap;
            }
            t[nt++] = (triplet){rows, idx - 1, v};
            if (idx > maxidx)
                maxidx = idx;
            s = te;
        }
        rows++;
    }
    st = lines_end(f, path, lineno, linecap, err, errlen);
    if (st != UL_OK)
        goto done;
    if (rows == 0) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s: no data rows (%zu lines read)", path, lineno);
        goto done;
    }
    size_t d = dim > 0 ? dim : maxidx;
    if (d == 0) {
        st = ul_fail(err, errlen, UL_EINPUT,
                     "%s: no features in any of %zu rows and no dimension given", path, rows);
        goto done;
    }
    if (!cells_ok(rows, d)) {
        st = ul_fail(err, errlen, UL_EINPUT,
                     "%s: %zu rows × %zu columns exceeds the limit of %zu values; refused", path,
                     rows, d, UL_DATA_MAX_CELLS);
        goto done;
    }
    st = data_room(out, rows, d, true, path, err, errlen);
    if (st != UL_OK)
        goto done;
    for (size_t k = 0; k < nt; k++)
        out->x[t[k].row * d + t[k].col] = t[k].v;
    memcpy(out->y, labels.v, rows * sizeof *out->y);
    out->n = rows;
    out->d = d;
done:
    free(line);
    free(t);
    free(labels.v);
    fclose(f);
    return st;
}

/* ---- the readers' messages ------------------------------------------------------ */

/* The file names and the cells a reader quotes are untrusted bytes: every
 * message leaves through ul_io_escape_message (control bytes and invalid
 * UTF-8 as \xNN, io/escape.h). */
ul_status ul_data_read_idx(const char *images, const char *labels, ul_dataset *out, char *err,
                           size_t errlen)
{
    idx_pick all = {false, 0, 0, UL_LABELS_PM1, 0};
    return ul_io_escaped(read_idx(images, labels, &all, out, err, errlen), err, errlen);
}

ul_status ul_data_read_idx_binary(const char *images, const char *labels, double a, double b,
                                  ul_label_coding coding, size_t limit, ul_dataset *out, char *err,
                                  size_t errlen)
{
    idx_pick k = {true, a, b, coding, limit};
    return ul_io_escaped(read_idx(images, labels, &k, out, err, errlen), err, errlen);
}

ul_status ul_data_read_csv(const char *path, int label_col, int header, ul_dataset *out, char *err,
                           size_t errlen)
{
    return ul_io_escaped(read_csv(path, label_col, header, out, err, errlen), err, errlen);
}

ul_status ul_data_read_population(const char *path, size_t d, ul_dataset *out, char *err,
                                  size_t errlen)
{
    ul_status st = ul_data_read_csv(path, -1, -1, out, err, errlen);
    if (st != UL_OK)
        return st;
    bool labels = out->n > 0;
    for (size_t i = 0; i < out->n; i++)
        labels = labels && (out->y[i] == 1 || out->y[i] == -1);
    if (labels && out->d == d)
        return UL_OK;
    st = ul_fail(err, errlen, UL_EINPUT,
                 "need rows of %zu features, label +1 or -1 last (got %zu features%s)", d, out->d,
                 labels ? "" : ", or a label not +1/-1, or no row");
    ul_dataset_free(out);
    return st;
}

ul_status ul_data_read_libsvm(const char *path, size_t dim, ul_dataset *out, char *err,
                              size_t errlen)
{
    return ul_io_escaped(read_libsvm(path, dim, out, err, errlen), err, errlen);
}

/* ---- synthetic, binary tasks, scaling ------------------------------------ */

ul_status ul_data_synthetic(size_t n, size_t d, double separation, uint32_t seed, ul_dataset *out,
                            char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (n == 0 || d == 0)
        return ul_fail(err, errlen, UL_EINPUT,
                       "synthetic data: n and d must be positive (n=%zu, d=%zu)", n, d);
    if (!cells_ok(n, d))
        return ul_fail(err, errlen, UL_EINPUT,
                       "synthetic data: n·d = %zu·%zu exceeds the limit of %zu values; refused", n,
                       d, UL_DATA_MAX_CELLS);
    if (!isfinite(separation) || separation < 0)
        return ul_fail(err, errlen, UL_EINPUT,
                       "synthetic data: separation must be finite and ≥ 0, got %g", separation);
    ul_status st = data_room(out, n, d, false, "synthetic data", err, errlen);
    if (st != UL_OK)
        return st;
    ul_rng_normals(seed, UL_RNG_RUN_DATA, 0, 0, n * d, out->x);
    double shift = separation / sqrt((double)d);
    for (size_t i = 0; i < n; i++) {
        double c = (double)(i % 2);
        out->y[i] = c;
        for (size_t j = 0; j < d; j++)
            out->x[i * d + j] += (c - 0.5) * shift;
    }
    out->n = n;
    out->d = d;
    return UL_OK;
}

ul_status ul_data_select_binary(const ul_dataset *in, double a, double b, ul_label_coding coding,
                                ul_dataset *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (a == b)
        return ul_fail(err, errlen, UL_EINPUT, "binary task: classes a and b are both %g", a);
    size_t na = 0, nb = 0;
    for (size_t i = 0; i < in->n; i++) {
        na += in->y[i] == a;
        nb += in->y[i] == b;
    }
    if (na == 0 || nb == 0)
        return ul_fail(err, errlen, UL_EINPUT,
                       "binary task: class %g has %zu rows and class %g has %zu; both need some", a,
                       na, b, nb);
    size_t n = na + nb, d = in->d;
    ul_status st = data_room(out, n, d, false, "binary task", err, errlen);
    if (st != UL_OK)
        return st;
    double neg = coding == UL_LABELS_PM1 ? -1.0 : 0.0;
    size_t k = 0;
    for (size_t i = 0; i < in->n; i++) {
        if (in->y[i] != a && in->y[i] != b)
            continue;
        memcpy(out->x + k * d, in->x + i * d, d * sizeof *out->x);
        out->y[k++] = in->y[i] == a ? 1.0 : neg;
    }
    out->n = n;
    out->d = d;
    return UL_OK;
}

size_t ul_data_normalize_rows(ul_dataset *ds)
{
    size_t zero = 0;
    for (size_t i = 0; i < ds->n; i++) {
        double *r = ds->x + i * ds->d, m = 0, s = 0;
        for (size_t j = 0; j < ds->d; j++)
            m = fmax(m, fabs(r[j]));
        if (m == 0) {
            zero++;
            continue;
        }
        for (size_t j = 0; j < ds->d; j++)
            s += (r[j] / m) * (r[j] / m);
        double norm = m * sqrt(s);
        for (size_t j = 0; j < ds->d; j++)
            r[j] /= norm;
    }
    return zero;
}
