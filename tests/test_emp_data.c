/* tests/test_emp_data.c — IDX / CSV / LIBSVM readers (round trips and
 * malformed files), synthetic data, binary tasks, row scaling. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "emp/data.h"

static char dir[64];

static void setup(void)
{
    strcpy(dir, "/tmp/ulaudit-emp-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(emp_data, .init = setup, .fini = teardown);

static const char *put(const char *name, const void *bytes, size_t len)
{
    static char path[8][128];
    static int k;
    char *p = path[k++ % 8];
    snprintf(p, 128, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(bytes, 1, len, f), len);
    fclose(f);
    return p;
}

static const char *puts_file(const char *name, const char *text)
{
    return put(name, text, strlen(text));
}

/* An error message must name the file and contain `what`. */
static void expect_error(ul_status st, const char *err, const char *path, const char *what)
{
    cr_assert_eq(st, UL_EINPUT, "expected failure (%s)", what);
    cr_assert(strstr(err, path) != NULL, "error does not name the file: %s", err);
    cr_assert(strstr(err, what) != NULL, "error lacks '%s': %s", what, err);
}

/* ---- IDX ------------------------------------------------------------------ */

/* 3 images of 2×2 pixels, labels 7, 1, 7 */
static const unsigned char idx_img[] = {0, 0, 8, 3,   0,  0,   0, 3, 0, 0, 0,   2,   0, 0,
                                        0, 2, 0, 255, 51, 102, 1, 2, 3, 4, 255, 255, 0, 0};
static const unsigned char idx_lab[] = {0, 0, 8, 1, 0, 0, 0, 3, 7, 1, 7};

Test(emp_data, idx_round_trip)
{
    const char *im = put("img", idx_img, sizeof idx_img), *lb = put("lab", idx_lab, sizeof idx_lab);
    ul_dataset ds;
    char err[512] = "";
    cr_assert_eq(ul_data_read_idx(im, lb, &ds, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ds.n, 3);
    cr_assert_eq(ds.d, 4);
    for (size_t k = 0; k < 12; k++)
        cr_assert_eq(ds.x[k], idx_img[16 + k] / 255.0);
    cr_assert_eq(ds.y[0], 7);
    cr_assert_eq(ds.y[1], 1);
    cr_assert_eq(ds.y[2], 7);
    ul_dataset_free(&ds);
    cr_assert_null(ds.x);
}

/* The binary reader with a limit against the two-step path (read all,
 * select the binary task) cut to the same rows, and the pixel bytes. */
Test(emp_data, idx_binary_limit_matches_select_then_cut)
{
    const char *im = put("img", idx_img, sizeof idx_img), *lb = put("lab", idx_lab, sizeof idx_lab);
    ul_dataset all, sel, got;
    char err[512] = "";
    cr_assert_eq(ul_data_read_idx(im, lb, &all, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_data_select_binary(&all, 1, 7, UL_LABELS_01, &sel, err, sizeof err), UL_OK);
    for (size_t limit = 0; limit <= 4; limit++) {
        cr_assert_eq(ul_data_read_idx_binary(im, lb, 1, 7, UL_LABELS_01, limit, &got, err,
                                             sizeof err),
                     UL_OK, "%s", err);
        size_t want = limit == 0 || limit > sel.n ? sel.n : limit;
        cr_assert_eq(got.n, want);
        cr_assert_eq(got.d, 4);
        for (size_t k = 0; k < want * 4; k++)
            cr_assert_eq(got.x[k], sel.x[k]);
        for (size_t i = 0; i < want; i++)
            cr_assert_eq(got.y[i], sel.y[i]);
        ul_dataset_free(&got);
    }
    /* class 1 is row 1 only: label 1 -> 1 under 0/1 coding, pixels 1, 2, 3, 4 */
    cr_assert_eq(ul_data_read_idx_binary(im, lb, 1, 7, UL_LABELS_01, 1, &got, err, sizeof err),
                 UL_OK);
    cr_assert_eq(got.y[0], 0.0); /* row 0 has label 7 = class b */
    cr_assert_eq(got.x[0], 0.0); /* its first pixel byte is 0 */
    ul_dataset_free(&got);
    /* the class checks of select_binary */
    cr_assert_eq(ul_data_read_idx_binary(im, lb, 7, 7, UL_LABELS_PM1, 0, &got, err, sizeof err),
                 UL_EINPUT);
    cr_assert_not_null(strstr(err, "both 7"));
    cr_assert_eq(ul_data_read_idx_binary(im, lb, 7, 3, UL_LABELS_PM1, 0, &got, err, sizeof err),
                 UL_EINPUT);
    cr_assert_not_null(strstr(err, "class 3 has 0"));
    ul_dataset_free(&all);
    ul_dataset_free(&sel);
}

Test(emp_data, idx_malformed)
{
    char err[512];
    ul_dataset ds;
    unsigned char b[sizeof idx_img];
    const char *lb = put("lab", idx_lab, sizeof idx_lab);
    const char *p;

    p = put("trunc", idx_img, sizeof idx_img - 1);
    expect_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p, "truncated IDX data");
    cr_assert(strstr(err, "byte offset 27") != NULL, "%s", err);
    p = put("trunchead", idx_img, 10);
    expect_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p, "truncated IDX header");
    p = put("short", idx_img, 3);
    expect_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p, "truncated");
    memcpy(b, idx_img, sizeof b);
    b[0] = 0x1f;
    p = put("magic", b, sizeof b);
    expect_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p, "bad IDX magic");
    memcpy(b, idx_img, sizeof b);
    b[2] = 0x0d;
    p = put("float", b, sizeof b);
    expect_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p, "type 0x0d");
    p = put("extra", idx_img, sizeof idx_img);
    {
        unsigned char big[sizeof idx_img + 2] = {0};
        memcpy(big, idx_img, sizeof idx_img);
        p = put("extra", big, sizeof big);
    }
    expect_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p, "after the end");
    /* labels disagree with images */
    unsigned char lb2[] = {0, 0, 8, 1, 0, 0, 0, 2, 7, 1};
    const char *im = put("img", idx_img, sizeof idx_img);
    p = put("lab2", lb2, sizeof lb2);
    expect_error(ul_data_read_idx(im, p, &ds, err, sizeof err), err, p, "dims mismatch");
    /* absurd dimensions: refused from the header alone */
    unsigned char huge[] = {0,    0,    8,    3, 0xff, 0xff, 0xff, 0xff, 0xff,
                            0xff, 0xff, 0xff, 0, 0,    0,    1,    0};
    p = put("huge", huge, sizeof huge);
    expect_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p, "refused");
    expect_error(ul_data_read_idx(dir, lb, &ds, err, sizeof err), err, dir, "is a directory");
    p = put("empty", "", 0);
    expect_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p, "empty file");
    char missing[128];
    snprintf(missing, sizeof missing, "%s/nope", dir);
    expect_error(ul_data_read_idx(missing, lb, &ds, err, sizeof err), err, missing, "cannot open");
    cr_assert_null(ds.x);
}

/* ---- IDX, gzip-compressed ------------------------------------------------- */

/* Writes bytes to dir/name as a gzip file with zlib's own writer (gzopen
 * "wb"; mode "ab" appends a second gzip member, RFC 1952 §2.2). */
static const char *put_gz(const char *name, const void *bytes, size_t len, const char *mode)
{
    static char path[8][128];
    static int k;
    char *p = path[k++ % 8];
    snprintf(p, 128, "%s/%s", dir, name);
    gzFile gz = gzopen(p, mode);
    cr_assert_not_null(gz);
    cr_assert_eq(gzwrite(gz, bytes, (unsigned)len), (int)len);
    cr_assert_eq(gzclose(gz), Z_OK);
    return p;
}

/* The whole file at path; *len = its size. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    cr_assert_eq(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    cr_assert(size > 0);
    rewind(f);
    unsigned char *b = malloc((size_t)size);
    cr_assert_not_null(b);
    cr_assert_eq(fread(b, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    *len = (size_t)size;
    return b;
}

/* n images of 28×28 pixels, pixel k of the body = (k·131 + k/7) mod 256 (a
 * pattern that deflate cannot shrink to nothing), labels i mod 10.  The body
 * is larger than zlib's buffers, so a read crosses several refills. */
#define BIG_N 300
#define BIG_D 784
static unsigned char big_img[16 + BIG_N * BIG_D], big_lab[8 + BIG_N];

static unsigned char big_pixel(size_t k)
{
    return (unsigned char)((k * 131 + k / 7) % 256);
}

static void make_big(void)
{
    const unsigned char hi[] = {0, 0, 8, 3,  0, 0, BIG_N >> 8, BIG_N & 0xff,
                                0, 0, 0, 28, 0, 0, 0,          28};
    const unsigned char hl[] = {0, 0, 8, 1, 0, 0, BIG_N >> 8, BIG_N & 0xff};
    memcpy(big_img, hi, sizeof hi);
    memcpy(big_lab, hl, sizeof hl);
    for (size_t k = 0; k < (size_t)BIG_N * BIG_D; k++)
        big_img[16 + k] = big_pixel(k);
    for (size_t i = 0; i < BIG_N; i++)
        big_lab[8 + i] = (unsigned char)(i % 10);
}

static void expect_big(const ul_dataset *ds)
{
    cr_assert_eq(ds->n, BIG_N);
    cr_assert_eq(ds->d, BIG_D);
    for (size_t k = 0; k < (size_t)BIG_N * BIG_D; k++)
        cr_assert_eq(ds->x[k], big_pixel(k) / 255.0, "pixel %zu", k);
    for (size_t i = 0; i < BIG_N; i++)
        cr_assert_eq(ds->y[i], (double)(i % 10));
}

Test(emp_data, idx_gzip_round_trip)
{
    char err[512] = "";
    ul_dataset plain, gz, mixed;
    const char *im = put("img", idx_img, sizeof idx_img), *lb = put("lab", idx_lab, sizeof idx_lab);
    const char *imz = put_gz("img.gz", idx_img, sizeof idx_img, "wb");
    const char *lbz = put_gz("lab.gz", idx_lab, sizeof idx_lab, "wb");
    /* the file really is compressed: it starts with the gzip magic 1f 8b */
    size_t len;
    unsigned char *raw = slurp(imz, &len);
    cr_assert(raw[0] == 0x1f && raw[1] == 0x8b);
    free(raw);
    cr_assert_eq(ul_data_read_idx(im, lb, &plain, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_data_read_idx(imz, lbz, &gz, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_data_read_idx(imz, lb, &mixed, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(gz.n, 3);
    cr_assert_eq(gz.d, 4);
    for (size_t k = 0; k < 12; k++)
        cr_assert_eq(gz.x[k], idx_img[16 + k] / 255.0);
    cr_assert(memcmp(plain.x, gz.x, 12 * sizeof *gz.x) == 0);
    cr_assert(memcmp(plain.y, gz.y, 3 * sizeof *gz.y) == 0);
    cr_assert(memcmp(mixed.x, gz.x, 12 * sizeof *gz.x) == 0);
    cr_assert(memcmp(mixed.y, gz.y, 3 * sizeof *gz.y) == 0);
    ul_dataset_free(&plain);
    ul_dataset_free(&gz);
    ul_dataset_free(&mixed);

    /* 235 KB of pixels, plain and gzip, against the generating formula */
    make_big();
    const char *bi = put("big", big_img, sizeof big_img);
    const char *bl = put("bigl", big_lab, sizeof big_lab);
    const char *biz = put_gz("big.gz", big_img, sizeof big_img, "wb");
    const char *blz = put_gz("bigl.gz", big_lab, sizeof big_lab, "wb");
    cr_assert_eq(ul_data_read_idx(bi, bl, &plain, err, sizeof err), UL_OK, "%s", err);
    expect_big(&plain);
    ul_dataset_free(&plain);
    cr_assert_eq(ul_data_read_idx(biz, blz, &gz, err, sizeof err), UL_OK, "%s", err);
    expect_big(&gz);
    ul_dataset_free(&gz);

    /* two concatenated gzip members (header in one, pixels in the other)
     * decompress to the concatenation (RFC 1952 §2.2), as gunzip does */
    const char *two = put_gz("two.gz", big_img, 16, "wb");
    put_gz("two.gz", big_img + 16, sizeof big_img - 16, "ab");
    cr_assert_eq(ul_data_read_idx(two, blz, &gz, err, sizeof err), UL_OK, "%s", err);
    expect_big(&gz);
    ul_dataset_free(&gz);
}

/* A gzip file's errors name the file, say that offsets are decompressed,
 * and contain `what`. */
static void expect_gz_error(ul_status st, const char *err, const char *path, const char *what)
{
    expect_error(st, err, path, what);
    cr_assert(strstr(err, "gzip") != NULL, "error does not say gzip: %s", err);
}

Test(emp_data, idx_gzip_truncated)
{
    char err[512];
    ul_dataset ds = {0};
    make_big();
    const char *lb = put("bigl", big_lab, sizeof big_lab);
    const char *full = put_gz("full.gz", big_img, sizeof big_img, "wb");
    size_t len;
    unsigned char *z = slurp(full, &len);
    /* cut inside the deflate data: the pixels stop early */
    const char *p = put("half.gz", z, len / 2);
    expect_gz_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p, "truncated gzip stream");
    /* the reported offset is where decompression stopped: past the 16-byte
     * header, before the end of the 235216 IDX bytes */
    const char *at = strstr(err, "byte offset ");
    cr_assert_not_null(at, "%s", err);
    long long off = atoll(at + strlen("byte offset "));
    cr_assert(off > 16 && off < (long long)sizeof big_img, "offset %lld: %s", off, err);
    /* every pixel is there, only the 8-byte trailer (CRC-32, ISIZE; RFC 1952
     * §2.3) is cut: still an error, found when reading on to the end */
    p = put("trailer.gz", z, len - 4);
    expect_gz_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p, "truncated gzip stream");
    cr_assert(strstr(err, "byte offset 235216") != NULL, "%s", err);
    /* only the 10-byte gzip header: no data at all */
    p = put("head.gz", z, 10);
    expect_gz_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p, "truncated gzip stream");
    cr_assert(strstr(err, "byte offset 0") != NULL, "%s", err);
    free(z);
    /* a complete gzip file whose IDX content is short: the IDX message,
     * with the offset in decompressed bytes (27, as for the plain file) */
    p = put_gz("short.gz", idx_img, sizeof idx_img - 1, "wb");
    lb = put("lab", idx_lab, sizeof idx_lab);
    expect_gz_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p, "truncated IDX data");
    cr_assert(strstr(err, "byte offset 27") != NULL, "%s", err);
    cr_assert(strstr(err, "decompressed") != NULL, "%s", err);
    /* a complete gzip file with trailing IDX bytes */
    unsigned char extra[sizeof idx_img + 3] = {0};
    memcpy(extra, idx_img, sizeof idx_img);
    p = put_gz("extra.gz", extra, sizeof extra, "wb");
    expect_gz_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p,
                    "byte offset 28: 3 bytes after the end");
    /* the label file compressed and cut */
    const char *im = put("img", idx_img, sizeof idx_img);
    const char *lz = put_gz("lab.gz", idx_lab, sizeof idx_lab, "wb");
    z = slurp(lz, &len);
    p = put("labcut.gz", z, len - 9);
    expect_gz_error(ul_data_read_idx(im, p, &ds, err, sizeof err), err, p, "gzip stream");
    free(z);
    cr_assert_null(ds.x);
}

Test(emp_data, idx_gzip_garbage)
{
    char err[512];
    ul_dataset ds = {0};
    const char *lb = put("lab", idx_lab, sizeof idx_lab);
    /* the gzip magic, then bytes that are no gzip header: compression method
     * 0xde instead of 8 (deflate, RFC 1952 §2.3.1) */
    const unsigned char method[] = {0x1f, 0x8b, 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8};
    const char *p = put("method.gz", method, sizeof method);
    expect_gz_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p, "corrupt gzip stream");
    /* a valid 10-byte header (deflate, no flags, OS 3), then 0xff bytes: the
     * first deflate block has BTYPE = 11, reserved (RFC 1951 §3.2.3) */
    unsigned char body[64];
    const unsigned char head[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
    memcpy(body, head, sizeof head);
    memset(body + sizeof head, 0xff, sizeof body - sizeof head);
    p = put("block.gz", body, sizeof body);
    expect_gz_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p, "corrupt gzip stream");
    /* a flipped bit in the CRC-32 of the uncompressed data (the trailer's
     * first 4 bytes): all bytes decompress, the check fails */
    make_big();
    const char *full = put_gz("full.gz", big_img, sizeof big_img, "wb");
    const char *bl = put("bigl", big_lab, sizeof big_lab);
    size_t len;
    unsigned char *z = slurp(full, &len);
    z[len - 8] ^= 0x01;
    p = put("crc.gz", z, len);
    expect_gz_error(ul_data_read_idx(p, bl, &ds, err, sizeof err), err, p, "corrupt gzip stream");
    z[len - 8] ^= 0x01;
    /* ISIZE (the length mod 2^32, last 4 bytes) off by one */
    z[len - 4] ^= 0x01;
    p = put("isize.gz", z, len);
    expect_gz_error(ul_data_read_idx(p, bl, &ds, err, sizeof err), err, p, "corrupt gzip stream");
    z[len - 4] ^= 0x01;
    /* the undamaged bytes still read: the damage above is what failed */
    p = put("ok.gz", z, len);
    cr_assert_eq(ul_data_read_idx(p, bl, &ds, err, sizeof err), UL_OK, "%s", err);
    expect_big(&ds);
    ul_dataset_free(&ds);
    /* garbage in the middle of the deflate data (a byte of the compressed
     * stream overwritten): whatever zlib detects first — a bad code, a
     * distance too far back or the CRC-32 — it is an error, never a
     * silent success */
    for (size_t at = 20; at < len - 8; at += (len - 28) / 7) {
        unsigned char keep = z[at];
        z[at] ^= 0x5a;
        p = put("mid.gz", z, len);
        ul_status st = ul_data_read_idx(p, bl, &ds, err, sizeof err);
        cr_assert_eq(st, UL_EINPUT, "damage at compressed byte %zu read as valid", at);
        cr_assert(strstr(err, p) != NULL && strstr(err, "gzip") != NULL, "%s", err);
        z[at] = keep;
    }
    free(z);
    /* a gzip-compressed file with a bad IDX magic: the IDX message */
    unsigned char b[sizeof idx_img];
    memcpy(b, idx_img, sizeof b);
    b[1] = 0x42;
    p = put_gz("magic.gz", b, sizeof b, "wb");
    expect_gz_error(ul_data_read_idx(p, lb, &ds, err, sizeof err), err, p, "bad IDX magic");
    cr_assert_null(ds.x);
}

/* ---- CSV ------------------------------------------------------------------ */

Test(emp_data, csv_round_trip)
{
    char err[512] = "";
    ul_dataset ds;
    const char *p = puts_file("a.csv", "f1,f2,label\n1.5, -2 ,0\r\n\n3e2,4,1\n");
    cr_assert_eq(ul_data_read_csv(p, -1, -1, &ds, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ds.n, 2);
    cr_assert_eq(ds.d, 2);
    double x[] = {1.5, -2, 300, 4};
    for (int k = 0; k < 4; k++)
        cr_assert_eq(ds.x[k], x[k]);
    cr_assert_eq(ds.y[0], 0);
    cr_assert_eq(ds.y[1], 1);
    ul_dataset_free(&ds);
    /* label first, no header (auto-detected as none) */
    p = puts_file("b.csv", "5,0.25,0.5,0.75\n6,1,2,3\n");
    cr_assert_eq(ul_data_read_csv(p, 0, -1, &ds, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ds.n, 2);
    cr_assert_eq(ds.d, 3);
    cr_assert_eq(ds.y[1], 6);
    cr_assert_eq(ds.x[2], 0.75);
    cr_assert_eq(ds.x[3], 1);
    ul_dataset_free(&ds);
    /* header = 1 skips a numeric first line */
    cr_assert_eq(ul_data_read_csv(p, 0, 1, &ds, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ds.n, 1);
    ul_dataset_free(&ds);
}

Test(emp_data, csv_malformed)
{
    char err[512];
    ul_dataset ds;
    const char *p = puts_file("bad.csv", "1,2,0\n3,x4,1\n");
    expect_error(ul_data_read_csv(p, -1, 0, &ds, err, sizeof err), err, p,
                 "line 2, column 2: not a number: 'x4'");
    p = puts_file("hdr.csv", "a,b,c\n1,2,0\n");
    expect_error(ul_data_read_csv(p, -1, 0, &ds, err, sizeof err), err, p, "line 1, column 1");
    p = puts_file("ragged.csv", "1,2,0\n3,4\n");
    expect_error(ul_data_read_csv(p, -1, 0, &ds, err, sizeof err), err, p,
                 "line 2: 2 columns, expected 3");
    p = puts_file("long.csv", "1,2,0\n3,4,5,6\n");
    expect_error(ul_data_read_csv(p, -1, 0, &ds, err, sizeof err), err, p, "line 2: more than 3");
    p = puts_file("nan.csv", "1,nan,0\n");
    expect_error(ul_data_read_csv(p, -1, 0, &ds, err, sizeof err), err, p, "not a number");
    p = puts_file("empcell.csv", "1,,0\n");
    expect_error(ul_data_read_csv(p, -1, 0, &ds, err, sizeof err), err, p, "column 2");
    p = puts_file("lc.csv", "1,2,0\n");
    expect_error(ul_data_read_csv(p, 3, 0, &ds, err, sizeof err), err, p, "label column 3");
    p = puts_file("onlyhdr.csv", "a,b\n\n");
    expect_error(ul_data_read_csv(p, 0, -1, &ds, err, sizeof err), err, p, "no data rows");
    p = put("empty.csv", "", 0);
    expect_error(ul_data_read_csv(p, 0, -1, &ds, err, sizeof err), err, p, "empty file");
    expect_error(ul_data_read_csv(dir, 0, -1, &ds, err, sizeof err), err, dir, "is a directory");
    cr_assert_null(ds.x);
}

/* ---- LIBSVM --------------------------------------------------------------- */

Test(emp_data, libsvm_round_trip)
{
    char err[512] = "";
    ul_dataset ds;
    const char *p = puts_file("a.svm", "+1 1:0.5 3:-2 # comment\n-1\n# only a comment\n-1 2:7\n");
    cr_assert_eq(ul_data_read_libsvm(p, 0, &ds, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ds.n, 3);
    cr_assert_eq(ds.d, 3);
    double x[] = {0.5, 0, -2, 0, 0, 0, 0, 7, 0};
    for (int k = 0; k < 9; k++)
        cr_assert_eq(ds.x[k], x[k], "x[%d]", k);
    cr_assert_eq(ds.y[0], 1);
    cr_assert_eq(ds.y[1], -1);
    ul_dataset_free(&ds);
    cr_assert_eq(ul_data_read_libsvm(p, 5, &ds, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ds.d, 5);
    cr_assert_eq(ds.x[5 + 5 + 1], 7);
    ul_dataset_free(&ds);
}

Test(emp_data, libsvm_malformed)
{
    char err[512];
    ul_dataset ds;
    const char *p = puts_file("order.svm", "1 1:1 2:2\n0 3:1 2:1\n");
    expect_error(ul_data_read_libsvm(p, 0, &ds, err, sizeof err), err, p,
                 "line 2: index 2 after index 3: indices must be strictly increasing");
    p = puts_file("dup.svm", "1 2:1 2:2\n");
    expect_error(ul_data_read_libsvm(p, 0, &ds, err, sizeof err), err, p, "strictly increasing");
    p = puts_file("zero.svm", "1 0:1\n");
    expect_error(ul_data_read_libsvm(p, 0, &ds, err, sizeof err), err, p,
                 "line 1: index 0 in '0:1': indices are 1-based");
    p = puts_file("neg.svm", "1 1:1\n1 -3:1\n");
    expect_error(ul_data_read_libsvm(p, 0, &ds, err, sizeof err), err, p,
                 "line 2: index is not a positive integer");
    p = puts_file("dim.svm", "1 4:1\n");
    expect_error(ul_data_read_libsvm(p, 3, &ds, err, sizeof err), err, p,
                 "exceeds the dimension 3");
    p = puts_file("val.svm", "1 1:abc\n");
    expect_error(ul_data_read_libsvm(p, 0, &ds, err, sizeof err), err, p, "value is not a number");
    p = puts_file("lab.svm", "x 1:1\n");
    expect_error(ul_data_read_libsvm(p, 0, &ds, err, sizeof err), err, p, "label is not a number");
    p = puts_file("tok.svm", "1 1:1 junk\n");
    expect_error(ul_data_read_libsvm(p, 0, &ds, err, sizeof err), err, p, "expected index:value");
    p = puts_file("huge.svm", "1 999999999999:1\n");
    expect_error(ul_data_read_libsvm(p, 0, &ds, err, sizeof err), err, p, "exceeds the dimension");
    p = puts_file("ok.svm", "1 1:1\n");
    expect_error(ul_data_read_libsvm(p, (size_t)1 << 40, &ds, err, sizeof err), err, p, "refused");
    p = puts_file("nofeat.svm", "1\n-1\n");
    expect_error(ul_data_read_libsvm(p, 0, &ds, err, sizeof err), err, p, "no features");
    p = put("empty.svm", "", 0);
    expect_error(ul_data_read_libsvm(p, 0, &ds, err, sizeof err), err, p, "empty file");
    expect_error(ul_data_read_libsvm(dir, 0, &ds, err, sizeof err), err, dir, "is a directory");
    cr_assert_null(ds.x);
}

/* ---- synthetic, binary, normalisation ------------------------------------ */

Test(emp_data, synthetic)
{
    char err[256];
    ul_dataset a, b, c;
    const size_t n = 4000, d = 10;
    cr_assert_eq(ul_data_synthetic(n, d, 4.0, 9, &a, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_data_synthetic(n, d, 4.0, 9, &b, err, sizeof err), UL_OK);
    cr_assert_eq(ul_data_synthetic(n, d, 4.0, 10, &c, err, sizeof err), UL_OK);
    cr_assert(memcmp(a.x, b.x, n * d * sizeof *a.x) == 0, "same seed, different data");
    cr_assert(memcmp(a.y, b.y, n * sizeof *a.y) == 0);
    cr_assert(memcmp(a.x, c.x, n * d * sizeof *a.x) != 0, "seed ignored");
    /* class means (c − ½)·4·u: their distance is 4 (se ≈ √(2d·2/n) ≈ 0.1) */
    double mean[2][10] = {{0}}, cnt[2] = {0};
    for (size_t i = 0; i < n; i++) {
        int k = (int)a.y[i];
        cr_assert(k == 0 || k == 1);
        cnt[k]++;
        for (size_t j = 0; j < d; j++)
            mean[k][j] += a.x[i * d + j];
    }
    cr_assert_eq(cnt[0], n / 2);
    double dist2 = 0;
    for (size_t j = 0; j < d; j++)
        dist2 += pow(mean[1][j] / cnt[1] - mean[0][j] / cnt[0], 2);
    cr_assert(fabs(sqrt(dist2) - 4.0) < 0.3, "separation %g", sqrt(dist2));
    /* a linear rule along u classifies well: error Φ(−2) ≈ 2.3% */
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t j = 0; j < d; j++)
            s += a.x[i * d + j];
        wrong += (s > 0) != (a.y[i] == 1);
    }
    cr_assert(wrong < n / 20, "%zu misclassified", wrong);
    ul_dataset_free(&a);
    ul_dataset_free(&b);
    ul_dataset_free(&c);
    cr_assert_eq(ul_data_synthetic(0, 3, 1, 1, &a, err, sizeof err), UL_EINPUT);
    cr_assert_eq(ul_data_synthetic((size_t)1 << 30, (size_t)1 << 30, 1, 1, &a, err, sizeof err),
                 UL_EINPUT);
    cr_assert(strstr(err, "refused") != NULL, "%s", err);
    cr_assert_eq(ul_data_synthetic(3, 3, NAN, 1, &a, err, sizeof err), UL_EINPUT);
}

Test(emp_data, binary_and_normalize)
{
    double x[] = {3, 4, 0, 0, 1, 1, 1e200, 1e200, -6, 8};
    double y[] = {7, 1, 2, 7, 1};
    ul_dataset in = {5, 2, x, y}, out;
    char err[256];
    cr_assert_eq(ul_data_select_binary(&in, 7, 1, UL_LABELS_PM1, &out, err, sizeof err), UL_OK);
    cr_assert_eq(out.n, 4);
    double ey[] = {1, -1, 1, -1};
    for (int i = 0; i < 4; i++)
        cr_assert_eq(out.y[i], ey[i]);
    cr_assert_eq(out.x[6], -6);
    cr_assert_eq(ul_data_normalize_rows(&out), 1); /* the (0, 0) row */
    for (size_t i = 0; i < out.n; i++) {
        double s = hypot(out.x[2 * i], out.x[2 * i + 1]);
        cr_assert(i == 1 ? s == 0 : fabs(s - 1) < 1e-15, "row %zu norm %g", i, s);
    }
    cr_assert_eq(out.x[0], 0.6);
    cr_assert_eq(out.x[1], 0.8);
    ul_dataset_free(&out);
    cr_assert_eq(ul_data_select_binary(&in, 7, 1, UL_LABELS_01, &out, err, sizeof err), UL_OK);
    cr_assert_eq(out.y[1], 0);
    cr_assert_eq(out.y[2], 1);
    ul_dataset_free(&out);
    cr_assert_eq(ul_data_select_binary(&in, 7, 9, UL_LABELS_01, &out, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "class 9 has 0") != NULL, "%s", err);
    cr_assert_eq(ul_data_select_binary(&in, 7, 7, UL_LABELS_01, &out, err, sizeof err), UL_EINPUT);
}
