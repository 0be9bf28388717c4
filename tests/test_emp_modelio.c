/* tests/test_emp_modelio.c — model parameter files: .npy (1.0, 2.0, 3.0) and
 * raw float64/float32 read against hand-written bytes, write → read round
 * trips, appending several files, and malformed files (each error must name
 * the file and say what was wrong). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emp/modelio.h"

static char dir[64];

static void setup(void)
{
    strcpy(dir, "/tmp/ulaudit-modelio-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(emp_modelio, .init = setup, .fini = teardown);

static const char *path_in_dir(const char *name)
{
    static char path[8][160];
    static int k;
    char *p = path[k++ % 8];
    snprintf(p, 160, "%s/%s", dir, name);
    return p;
}

static const char *put(const char *name, const void *bytes, size_t len)
{
    const char *p = path_in_dir(name);
    FILE *f = fopen(p, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(bytes, 1, len, f), len);
    fclose(f);
    return p;
}

/* An error message must name the file and contain `what`. */
static void expect_error(ul_status st, const char *err, const char *path, const char *what)
{
    cr_assert_eq(st, UL_EINPUT, "expected failure (%s) for %s", what, path);
    cr_assert(strstr(err, path) != NULL, "error does not name the file %s: %s", path, err);
    cr_assert(strstr(err, what) != NULL, "error lacks '%s': %s", what, err);
}

/* Little-endian bytes of known values, written out by hand (IEEE-754):
 *   1.5          = 0x3FF8000000000000   f32 0x3FC00000
 *   -2           = 0xC000000000000000   f32 0xC0000000
 *   0.25         = 0x3FD0000000000000   f32 0x3E800000
 *   1 + 2⁻⁵²     = 0x3FF0000000000001   (f32: 1 + 2⁻²³ = 0x3F800001)
 *   -0.0         = 0x8000000000000000   f32 0x80000000
 *   3            = 0x4008000000000000   f32 0x40400000
 * The 1 + 2⁻ᵐ entries have a low byte 01 and a high byte 3F: reading them in
 * the wrong byte order gives a different number. */
#define LE_1_5 0, 0, 0, 0, 0, 0, 0xF8, 0x3F
#define LE_M2 0, 0, 0, 0, 0, 0, 0, 0xC0
#define LE_0_25 0, 0, 0, 0, 0, 0, 0xD0, 0x3F
#define LE_1P 1, 0, 0, 0, 0, 0, 0xF0, 0x3F
#define LE_M0 0, 0, 0, 0, 0, 0, 0, 0x80
#define LE_3 0, 0, 0, 0, 0, 0, 0x08, 0x40
#define LE32_1_5 0, 0, 0xC0, 0x3F
#define LE32_M2 0, 0, 0, 0xC0
#define LE32_0_25 0, 0, 0x80, 0x3E
#define LE32_1P 1, 0, 0x80, 0x3F
#define LE32_M0 0, 0, 0, 0x80
#define LE32_3 0, 0, 0x40, 0x40

static const double six[6] = {1.5, -2.0, 0.25, 1.0 + 0x1p-52, -0.0, 3.0};
static const double six32[6] = {1.5, -2.0, 0.25, 1.0 + 0x1p-23, -0.0, 3.0};
static const unsigned char six_f64[48] = {LE_1_5, LE_M2, LE_0_25, LE_1P, LE_M0, LE_3};
static const unsigned char six_f32[24] = {LE32_1_5, LE32_M2, LE32_0_25, LE32_1P, LE32_M0, LE32_3};

/* Bitwise equality (so −0.0 ≠ +0.0 and a NaN payload would count). */
static void expect_bits(const double *got, const double *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t a, b;
        memcpy(&a, &got[i], 8);
        memcpy(&b, &want[i], 8);
        cr_assert_eq(a, b, "value %zu: got %a (%016llx), want %a (%016llx)", i, got[i],
                     (unsigned long long)a, want[i], (unsigned long long)b);
    }
}

/* An .npy file built from its parts following numpy.lib.format: magic,
 * version (major, 0), header length (u16 LE for major 1, u32 LE otherwise),
 * `dict`, spaces up to a 64-byte boundary, '\n', then `data`.  Independent
 * of the code under test (a second, test-side writer of the format). */
static const char *put_npy(const char *name, int major, const char *dict, const void *data,
                           size_t datalen)
{
    static unsigned char buf[4096];
    size_t lenbytes = major == 1 ? 2 : 4, pre = 8 + lenbytes, n = strlen(dict);
    size_t total = pre + n + 1;
    size_t pad = (64 - total % 64) % 64;
    size_t hlen = n + pad + 1;
    cr_assert(pre + hlen + datalen <= sizeof buf);
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = 0;
    for (size_t i = 0; i < lenbytes; i++)
        buf[8 + i] = (unsigned char)(hlen >> (8 * i));
    memcpy(buf + pre, dict, n);
    memset(buf + pre + n, ' ', pad);
    buf[pre + hlen - 1] = '\n';
    memcpy(buf + pre + hlen, data, datalen);
    return put(name, buf, pre + hlen + datalen);
}

static const char *dict_f8_23 = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }";

/* ---- reading .npy -------------------------------------------------------- */

Test(emp_modelio, npy_v1_f8_literal_bytes)
{
    /* Every byte by hand: version 1.0, header length 0x0033 = 51 =
     * len("{'descr':'<f8','fortran_order':False,'shape':(3,)}\n") (no
     * padding: alignment is not required), then 1.5, −2, 0.25. */
    static const unsigned char file[] = {
        0x93, 'N',  'U', 'M', 'P',  'Y', 1,    0,   51,   0,      '{',   '\'',   'd',
        'e',  's',  'c', 'r', '\'', ':', '\'', '<', 'f',  '8',    '\'',  ',',    '\'',
        'f',  'o',  'r', 't', 'r',  'a', 'n',  '_', 'o',  'r',    'd',   'e',    'r',
        '\'', ':',  'F', 'a', 'l',  's', 'e',  ',', '\'', 's',    'h',   'a',    'p',
        'e',  '\'', ':', '(', '3',  ',', ')',  '}', '\n', LE_1_5, LE_M2, LE_0_25};
    cr_assert_eq(sizeof file, 10 + 51 + 24);
    const char *p = put("lit.npy", file, sizeof file);
    ul_model_set s;
    char err[512] = "";
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_AUTO, 0, &s, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.k, 1);
    cr_assert_eq(s.p, 3);
    expect_bits(s.w, six, 3);
    ul_model_set_free(&s);
    cr_assert_null(s.w);
    cr_assert_eq(s.k, 0);
    /* p given and equal */
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_NPY, 3, &s, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.p, 3);
    ul_model_set_free(&s);
}

Test(emp_modelio, npy_v1_f8_and_f4_two_rows)
{
    ul_model_set s;
    char err[512] = "";
    const char *p = put_npy("a.npy", 1, dict_f8_23, six_f64, sizeof six_f64);
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_AUTO, 0, &s, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.k, 2);
    cr_assert_eq(s.p, 3);
    expect_bits(s.w, six, 6); /* row 1 = values 3..5: w + 1·p */
    ul_model_set_free(&s);

    p = put_npy("b.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", six_f32,
                sizeof six_f32);
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_AUTO, 0, &s, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.k, 2);
    cr_assert_eq(s.p, 3);
    expect_bits(s.w, six32, 6); /* float → double is exact */
    ul_model_set_free(&s);

    /* '<f4' with shape (3,) */
    p = put_npy("c.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", six_f32,
                12);
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_AUTO, 0, &s, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.k, 1);
    cr_assert_eq(s.p, 3);
    expect_bits(s.w, six32, 3);
    ul_model_set_free(&s);
}

Test(emp_modelio, npy_v2_v3_and_dict_variants)
{
    ul_model_set s;
    char err[512] = "";
    /* version 2.0 and 3.0: u32 header length */
    const char *p = put_npy("v2.npy", 2, dict_f8_23, six_f64, sizeof six_f64);
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_AUTO, 0, &s, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.k, 2);
    expect_bits(s.w, six, 6);
    ul_model_set_free(&s);
    p = put_npy("v3.npy", 3, dict_f8_23, six_f64, sizeof six_f64);
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_AUTO, 0, &s, err, sizeof err), UL_OK, "%s", err);
    expect_bits(s.w, six, 6);
    ul_model_set_free(&s);

    /* fortran_order True is accepted for a 1-D shape (the same bytes) */
    p = put_npy("fo.npy", 1, "{'descr': '<f8', 'fortran_order': True, 'shape': (3,), }", six_f64,
                24);
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_AUTO, 0, &s, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.k, 1);
    cr_assert_eq(s.p, 3);
    expect_bits(s.w, six, 3);
    ul_model_set_free(&s);

    /* keys in another order, double quotes, tabs, no trailing comma, (k, p,) */
    p = put_npy("ord.npy", 1, "{ \"shape\" :\t(2, 3,), 'fortran_order':False,\"descr\": '<f8'}",
                six_f64, sizeof six_f64);
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_AUTO, 0, &s, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.k, 2);
    cr_assert_eq(s.p, 3);
    expect_bits(s.w, six, 6);
    ul_model_set_free(&s);

    /* an .npy under another name: the magic decides for AUTO */
    p = put_npy("models.dat", 1, dict_f8_23, six_f64, sizeof six_f64);
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_AUTO, 0, &s, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.k, 2);
    ul_model_set_free(&s);
    /* upper-case extension */
    p = put_npy("M.NPY", 1, dict_f8_23, six_f64, sizeof six_f64);
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_AUTO, 3, &s, err, sizeof err), UL_OK, "%s", err);
    ul_model_set_free(&s);
}

/* ---- raw ----------------------------------------------------------------- */

Test(emp_modelio, raw_f64_f32)
{
    ul_model_set s;
    char err[512] = "";
    /* p = 0: the whole file is one model */
    const char *p = put("w.f64", six_f64, sizeof six_f64);
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_AUTO, 0, &s, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.k, 1);
    cr_assert_eq(s.p, 6);
    expect_bits(s.w, six, 6);
    ul_model_set_free(&s);
    /* p = 2: three models */
    p = put("w.bin", six_f64, sizeof six_f64);
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_AUTO, 2, &s, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.k, 3);
    cr_assert_eq(s.p, 2);
    expect_bits(s.w, six, 6);
    ul_model_set_free(&s);
    /* float32 */
    p = put("w.f32", six_f32, sizeof six_f32);
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_AUTO, 3, &s, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.k, 2);
    cr_assert_eq(s.p, 3);
    expect_bits(s.w, six32, 6);
    ul_model_set_free(&s);
    /* the format argument overrides the extension: f32 bytes named .f64 */
    p = put("really32.f64", six_f32, sizeof six_f32);
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_F32, 0, &s, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.p, 6);
    expect_bits(s.w, six32, 6);
    ul_model_set_free(&s);
    /* and read as f64 the same 24 bytes are three other doubles:
     * bytes 00 00 C0 3F 00 00 00 C0 = 0xC00000003FC00000 (exactly
     * −(2 + 0x3FC00000·2⁻⁵¹)) — shows the override really switches */
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_AUTO, 0, &s, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.p, 3);
    cr_assert_eq(s.w[0], -(2.0 + 0x3FC00000 * 0x1p-51));
    ul_model_set_free(&s);
}

/* ---- write → read -------------------------------------------------------- */

static size_t entries_in_dir(void)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

Test(emp_modelio, write_read_round_trip)
{
    double w[2 * 5] = {1.5,
                       -0.0,
                       DBL_MIN / 4,
                       DBL_MAX,
                       -DBL_MAX,
                       1.0 + 0x1p-52,
                       -0x1.921fb54442d18p+1 /* −π */,
                       1e-300,
                       0x1.23456789abcdep+100,
                       0.1};
    ul_model_set s = {.k = 2, .p = 5, .w = w}, r;
    char err[512] = "";
    const char *p = path_in_dir("out.npy");
    cr_assert_eq(ul_modelio_write_npy(p, &s, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_modelio_read(p, UL_MODELIO_AUTO, 0, &r, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(r.k, 2);
    cr_assert_eq(r.p, 5);
    expect_bits(r.w, w, 10);
    ul_model_set_free(&r);
    cr_assert_eq(entries_in_dir(), 1, "a temporary file was left behind");

    /* The bytes NumPy's writer produces for a (2, 3) float64 array, by hand:
     * dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }"
     * (59 bytes); 10 + 59 + '\n' = 70, padded with 58 spaces to 128, so the
     * header length is 128 − 10 = 118 = 0x76 and the data starts at 128. */
    double w6[6];
    memcpy(w6, six, sizeof w6);
    s = (ul_model_set){.k = 2, .p = 3, .w = w6};
    cr_assert_eq(ul_modelio_write_npy(p, &s, err, sizeof err), UL_OK, "%s", err);
    unsigned char got[256];
    FILE *f = fopen(p, "rb");
    cr_assert_not_null(f);
    size_t n = fread(got, 1, sizeof got, f);
    fclose(f);
    cr_assert_eq(n, 128 + 48, "file size %zu (overwritten in place)", n);
    cr_assert_eq(memcmp(got, "\x93NUMPY\x01\x00\x76\x00", 10), 0);
    cr_assert_eq(memcmp(got + 10, dict_f8_23, 59), 0);
    for (size_t i = 69; i < 127; i++)
        cr_assert_eq(got[i], ' ', "byte %zu", i);
    cr_assert_eq(got[127], '\n');
    cr_assert_eq(memcmp(got + 128, six_f64, 48), 0);
    cr_assert_eq(entries_in_dir(), 1);

    /* the mode follows the umask like any new file (not mkstemp's 0600) */
    struct stat sb;
    cr_assert_eq(stat(p, &sb), 0);
    mode_t mask = umask(0);
    umask(mask);
    cr_assert_eq(sb.st_mode & 0777, 0666 & ~mask);
}

Test(emp_modelio, write_refusals)
{
    char err[512] = "";
    double w[3] = {1, NAN, 2};
    ul_model_set s = {.k = 1, .p = 3, .w = w};
    const char *p = path_in_dir("nan.npy");
    expect_error(ul_modelio_write_npy(p, &s, err, sizeof err), err, p, "parameter 1");
    w[1] = -INFINITY;
    expect_error(ul_modelio_write_npy(p, &s, err, sizeof err), err, p, "not finite");
    ul_model_set empty = {0};
    expect_error(ul_modelio_write_npy(p, &empty, err, sizeof err), err, p, "empty");
    cr_assert_eq(entries_in_dir(), 0);
    /* the target is a directory: rename fails, nothing is left behind */
    w[1] = 0;
    expect_error(ul_modelio_write_npy(dir, &s, err, sizeof err), err, dir, "cannot replace");
    cr_assert_eq(entries_in_dir(), 0);
    /* the directory does not exist */
    p = path_in_dir("no/such/dir/x.npy");
    expect_error(ul_modelio_write_npy(p, &s, err, sizeof err), err, p, "temporary file");
}

/* ---- appending ----------------------------------------------------------- */

Test(emp_modelio, append_several_files)
{
    char err[512] = "";
    const char *one =
        put_npy("one.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }",
                six_f64 + 24, 24); /* 1+2⁻⁵², −0, 3 */
    const char *two = put_npy("two.npy", 1, dict_f8_23, six_f64, sizeof six_f64);
    const char *raw = put("three.f32", six_f32, 12); /* 1.5, −2, 0.25 */
    ul_model_set s = {0};
    cr_assert_eq(ul_modelio_append(&s, one, UL_MODELIO_AUTO, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_modelio_append(&s, two, UL_MODELIO_AUTO, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_modelio_append(&s, raw, UL_MODELIO_AUTO, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(s.k, 4);
    cr_assert_eq(s.p, 3);
    const double want[12] = {1.0 + 0x1p-52, -0.0, 3, 1.5, -2, 0.25,
                             1.0 + 0x1p-52, -0.0, 3, 1.5, -2, 0.25};
    expect_bits(s.w, want, 12);
    /* a file with another p is refused and the set is unchanged */
    const char *bad = put("four.f64", six_f64, 16);
    double *before = s.w;
    expect_error(ul_modelio_append(&s, bad, UL_MODELIO_AUTO, err, sizeof err), err, bad,
                 "not a multiple");
    const char *bad2 = put_npy(
        "five.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", six_f64, 16);
    expect_error(ul_modelio_append(&s, bad2, UL_MODELIO_AUTO, err, sizeof err), err, bad2,
                 "2 parameters, 3 expected");
    cr_assert_eq(s.k, 4);
    cr_assert_eq(s.p, 3);
    cr_assert_eq(s.w, before);
    expect_bits(s.w, want, 12);
    ul_model_set_free(&s);

    /* {.p = p} requires p from the first file on */
    ul_model_set q = {.p = 2};
    expect_error(ul_modelio_append(&q, one, UL_MODELIO_AUTO, err, sizeof err), err, one,
                 "3 parameters, 2 expected");
    cr_assert_eq(q.k, 0);
    cr_assert_null(q.w);
    cr_assert_eq(ul_modelio_append(&q, raw, UL_MODELIO_F64, err, sizeof err), UL_EINPUT);
    const char *raw6 = put("six.f64", six_f64, sizeof six_f64);
    cr_assert_eq(ul_modelio_append(&q, raw6, UL_MODELIO_AUTO, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(q.k, 3);
    cr_assert_eq(q.p, 2);
    expect_bits(q.w, six, 6);
    ul_model_set_free(&q);
}

/* ---- formats ------------------------------------------------------------- */

Test(emp_modelio, parse_format)
{
    const char *names[] = {"auto", "npy", "f64", "f32"};
    ul_modelio_format want[] = {UL_MODELIO_AUTO, UL_MODELIO_NPY, UL_MODELIO_F64, UL_MODELIO_F32};
    char err[256] = "";
    for (int i = 0; i < 4; i++) {
        ul_modelio_format f = UL_MODELIO_F32 + 1;
        cr_assert_eq(ul_modelio_parse_format(names[i], &f, err, sizeof err), UL_OK);
        cr_assert_eq(f, want[i]);
        cr_assert_str_eq(ul_modelio_format_name(f), names[i]);
    }
    ul_modelio_format f;
    cr_assert_eq(ul_modelio_parse_format("NPY", &f, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "'NPY'") != NULL, "%s", err);
    cr_assert_eq(ul_modelio_parse_format("f16", &f, err, sizeof err), UL_EINPUT);
    cr_assert_eq(ul_modelio_parse_format(NULL, &f, err, sizeof err), UL_EINPUT);
}

/* ---- malformed ----------------------------------------------------------- */

/* Reading `path` must fail with `what` in the message, leaving *out empty. */
static void expect_read_error(const char *path, ul_modelio_format fmt, size_t p, const char *what)
{
    char err[512] = "";
    ul_model_set s = {.k = 7, .p = 7, .w = NULL};
    expect_error(ul_modelio_read(path, fmt, p, &s, err, sizeof err), err, path, what);
    cr_assert_eq(s.k, 0);
    cr_assert_eq(s.p, 0);
    cr_assert_null(s.w);
}

static void expect_bad_dict(const char *dict, const void *data, size_t len, const char *what)
{
    expect_read_error(put_npy("bad.npy", 1, dict, data, len), UL_MODELIO_AUTO, 0, what);
}

/* The valid (2, 3) file of put_npy: header 10 + 59 + 58 spaces + '\n' =
 * 128 bytes, data 48 bytes, 176 in all. */
static size_t good_file(unsigned char *b, size_t cap)
{
    const char *good = put_npy("good.npy", 1, dict_f8_23, six_f64, sizeof six_f64);
    FILE *f = fopen(good, "rb");
    cr_assert_not_null(f);
    size_t n = fread(b, 1, cap, f);
    fclose(f);
    cr_assert_eq(n, 176);
    return n;
}

Test(emp_modelio, npy_malformed_prefix)
{
    unsigned char b[256], c[256];
    size_t n = good_file(b, sizeof b);
    const char *p;

    memcpy(c, b, n);
    c[1] = 'n';
    expect_read_error(put("magic.npy", c, n), UL_MODELIO_AUTO, 0, "bad .npy magic");
    expect_read_error(put("short.npy", "\x93NU", 3), UL_MODELIO_AUTO, 0, "truncated .npy header");
    expect_read_error(put("nolen.npy", b, 9), UL_MODELIO_AUTO, 0, "truncated .npy header");
    expect_read_error(put("nohdr.npy", b, 8), UL_MODELIO_AUTO, 0, "truncated .npy header");
    /* header length 0xFFFF: the header would end at 10 + 65535 = 65545 */
    memcpy(c, b, n);
    c[8] = 0xff;
    c[9] = 0xff;
    p = put("hlen.npy", c, n);
    expect_read_error(p, UL_MODELIO_AUTO, 0, "header length 65535 runs past the end");
    expect_read_error(p, UL_MODELIO_AUTO, 0, "byte offset 65545, the file ends at byte offset 176");
    /* the header cut short inside the dict */
    expect_read_error(put("cut.npy", b, 40), UL_MODELIO_AUTO, 0, "runs past the end");
    /* versions other than 1.0, 2.0, 3.0 */
    memcpy(c, b, n);
    c[6] = 4;
    expect_read_error(put("v4.npy", c, n), UL_MODELIO_AUTO, 0, "unsupported .npy version 4.0");
    memcpy(c, b, n);
    c[7] = 1;
    expect_read_error(put("v11.npy", c, n), UL_MODELIO_AUTO, 0, "unsupported .npy version 1.1");
    /* data truncated: 8 bytes short, the file ends at 168 */
    p = put("trunc.npy", b, n - 8);
    expect_read_error(p, UL_MODELIO_AUTO, 0, "npy data truncated");
    expect_read_error(p, UL_MODELIO_AUTO, 0, "byte offset 168");
    expect_read_error(p, UL_MODELIO_AUTO, 0, "needs 48 bytes from byte offset 128");
    /* trailing bytes: the data ends at 128 + 48 = 176 */
    memcpy(c, b, n);
    c[n] = c[n + 1] = c[n + 2] = 0;
    p = put("trail.npy", c, n + 3);
    expect_read_error(p, UL_MODELIO_AUTO, 0, "byte offset 176: 3 trailing bytes");
    /* the header must end in '\n' */
    memcpy(c, b, n);
    c[127] = ' ';
    expect_read_error(put("nonl.npy", c, n), UL_MODELIO_AUTO, 0, "does not end in '\\n'");
    memcpy(c, b, n);
    c[100] = '#';
    expect_read_error(put("junk.npy", c, n), UL_MODELIO_AUTO, 0, "byte offset 100");
    /* data with NaN at value 4 = model 1, parameter 1, byte offset 128 + 32 */
    memcpy(c, b, n);
    memcpy(c + 160, (const unsigned char[]){0, 0, 0, 0, 0, 0, 0xF8, 0x7F}, 8);
    p = put("nan.npy", c, n);
    expect_read_error(p, UL_MODELIO_AUTO, 0, "model 1, parameter 1");
    expect_read_error(p, UL_MODELIO_AUTO, 0, "byte offset 160");
    expect_read_error(p, UL_MODELIO_AUTO, 0, "NaN");
    memcpy(c + 160, (const unsigned char[]){0, 0, 0, 0, 0, 0, 0xF0, 0xFF}, 8);
    expect_read_error(put("inf.npy", c, n), UL_MODELIO_AUTO, 0, "-inf");
    /* p mismatch */
    p = put("p.npy", b, n);
    expect_read_error(p, UL_MODELIO_AUTO, 4, "3 parameters, 4 expected");
    /* an .npy read as raw on request: refused by its magic */
    expect_read_error(p, UL_MODELIO_F64, 0, "NumPy magic");
    expect_read_error(p, UL_MODELIO_F32, 0, "NumPy magic");
}

Test(emp_modelio, npy_malformed_dict)
{
    expect_bad_dict("{'descr': '>f8', 'fortran_order': False, 'shape': (2, 3), }", six_f64, 48,
                    "unsupported descr '>f8'");
    expect_bad_dict("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }", six_f64, 24,
                    "unsupported descr '<i4'");
    expect_bad_dict("{'descr': '|f8', 'fortran_order': False, 'shape': (2, 3), }", six_f64, 48,
                    "unsupported descr '|f8'");
    expect_bad_dict("{'descr': '=f8', 'fortran_order': False, 'shape': (2, 3), }", six_f64, 48,
                    "unsupported descr");
    expect_bad_dict("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (2, 3), }", six_f64,
                    48, "'descr' value");
    expect_bad_dict("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }", six_f64, 48,
                    "fortran_order True with the 2-D shape (2, 3)");
    expect_bad_dict("{'descr': '<f8', 'fortran_order': 0, 'shape': (2, 3), }", six_f64, 48,
                    "True or False");
    expect_bad_dict("{'descr': '<f8', 'shape': (2, 3), }", six_f64, 48,
                    "missing key 'fortran_order'");
    expect_bad_dict("{'descr': '<f8', 'fortran_order': False}", six_f64, 48, "missing key 'shape'");
    expect_bad_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), 'foo': 1, }",
                    six_f64, 48, "unexpected key 'foo'");
    expect_bad_dict("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (6,)}",
                    six_f64, 48, "duplicate key 'descr'");
    expect_bad_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 3), }", six_f64, 0,
                    "zero dimension");
    expect_bad_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 0), }", six_f64, 0,
                    "'shape' (3, 0) has a zero dimension");
    expect_bad_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (0,), }", six_f64, 0,
                    "zero dimension");
    expect_bad_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (6), }", six_f64, 48,
                    "not a tuple");
    expect_bad_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", six_f64, 8,
                    "scalar");
    expect_bad_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2, 3), }", six_f64, 48,
                    "3 dimensions");
    expect_bad_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (06,), }", six_f64, 48,
                    "leading zero");
    expect_bad_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (-6,), }", six_f64, 48,
                    "expected a dimension");
    expect_bad_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (2,, 3), }", six_f64, 48,
                    "expected a dimension");
    expect_bad_dict("{'descr': '<f8' 'fortran_order': False, 'shape': (6,), }", six_f64, 48,
                    "expected ',' or '}'");
    expect_bad_dict("{'descr' '<f8', 'fortran_order': False, 'shape': (6,), }", six_f64, 48,
                    "expected ':'");
    expect_bad_dict("{'des\\x63r': '<f8', 'fortran_order': False, 'shape': (6,), }", six_f64, 48,
                    "escape");
    expect_bad_dict("['descr', '<f8']", six_f64, 48, "expected '{'");
    expect_bad_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (6,), } x", six_f64, 48,
                    "only spaces");
    /* absurd sizes are refused from the header, before any allocation */
    expect_bad_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000, 1000000), }",
                    six_f64, 48, "refused");
    expect_bad_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999,)}",
                    six_f64, 48, "exceeds");
    /* the offset of a dict error is the file offset of the offending token:
     * 10 + strlen("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), ") = 10 + 58 */
    expect_bad_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), 'x': 1}", six_f64,
                    48, "byte offset 68: npy header: unexpected key 'x'");
}

Test(emp_modelio, raw_and_file_malformed)
{
    unsigned char b[48];
    memcpy(b, six_f64, 48);
    expect_read_error(put("seven.f64", b, 7), UL_MODELIO_AUTO, 0, "not a multiple of 8 bytes");
    expect_read_error(put("seven.f32", b, 7), UL_MODELIO_AUTO, 0, "not a multiple of 4 bytes");
    /* 24 bytes = 3 doubles, p = 4 needs a multiple of 32 */
    expect_read_error(put("three.f64", b, 24), UL_MODELIO_AUTO, 4, "not a multiple of 8·p = 32");
    expect_read_error(put("three.f32", b, 24), UL_MODELIO_AUTO, 4, "not a multiple of 4·p = 16");
    /* NaN as float32 at value 2 (byte offset 8): model 1, parameter 0 for p = 2 */
    memcpy(b, six_f32, 24);
    memcpy(b + 8, (const unsigned char[]){0, 0, 0xC0, 0x7F}, 4);
    const char *p = put("nan.f32", b, 24);
    expect_read_error(p, UL_MODELIO_AUTO, 2, "byte offset 8: model 1, parameter 0");
    expect_read_error(p, UL_MODELIO_AUTO, 0, "model 0, parameter 2");
    /* +inf as float64 at value 5 */
    memcpy(b, six_f64, 48);
    memcpy(b + 40, (const unsigned char[]){0, 0, 0, 0, 0, 0, 0xF0, 0x7F}, 8);
    expect_read_error(put("inf.bin", b, 48), UL_MODELIO_AUTO, 3, "model 1, parameter 2");
    expect_read_error(put("inf.bin", b, 48), UL_MODELIO_AUTO, 3, "+inf");
    /* unknown extension, not an .npy */
    expect_read_error(put("w.dat", six_f64, 48), UL_MODELIO_AUTO, 0,
                      "cannot tell the model format");
    expect_read_error(put("noext", six_f64, 48), UL_MODELIO_AUTO, 0, "cannot tell");
    /* files that are not there or not files */
    expect_read_error(path_in_dir("missing.npy"), UL_MODELIO_AUTO, 0, "cannot open");
    expect_read_error(dir, UL_MODELIO_AUTO, 0, "is a directory");
    expect_read_error(put("empty.f64", "", 0), UL_MODELIO_AUTO, 0, "empty file");
    /* absurd p */
    expect_read_error(put("w.f64", six_f64, 48), UL_MODELIO_AUTO, (size_t)1 << 40, "refused");
    /* a bad format value */
    expect_read_error(put("w.f64", six_f64, 48), (ul_modelio_format)42, 0, "unknown model format");
}

/* ---- lists over the size limit ------------------------------------------ */

/* An .npy header for shape (k, p) of '<f4' followed by k·p items that are
 * all 0 (a sparse file: no disk used) but the first, a NaN: a reader that
 * reads this file's data refuses the NaN, so a refusal that names the
 * counts instead shows that the data was not read. */
static const char *put_big_npy(const char *name, size_t k, size_t p)
{
    char dict[128];
    snprintf(dict, sizeof dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (%zu, %zu), }",
             k, p);
    static const unsigned char nan32[4] = {0, 0, 0xC0, 0x7F}; /* quiet NaN, IEEE-754 */
    const char *path = put_npy(name, 1, dict, nan32, sizeof nan32);
    struct stat sb;
    cr_assert_eq(stat(path, &sb), 0);
    cr_assert_eq(truncate(path, sb.st_size - 4 + (off_t)(k * p * 4)), 0);
    return path;
}

/* 4096 x 65536 = 2^28 values (the limit, UL_MODELIO_MAX_VALUES) in a.npy,
 * one more model in b.npy: the list is refused from the two headers with
 * the counts 4096 + 1, before a byte of data is read (reading a.npy would
 * meet its NaN first). */
Test(emp_modelio, a_list_over_the_limit_is_refused_from_the_headers)
{
    cr_assert_eq((size_t)4096 * 65536, UL_MODELIO_MAX_VALUES);
    const char *a = put_big_npy("a.npy", 4096, 65536), *b = put_big_npy("b.npy", 1, 65536);
    const char *paths[2] = {a, b};
    char err[512] = "";
    ul_model_set s = {.k = 7};
    expect_error(ul_modelio_read_list(paths, 2, UL_MODELIO_AUTO, 0, &s, err, sizeof err), err, b,
                 "4096 + 1 models of 65536 parameters");
    cr_assert(strstr(err, "NaN") == NULL, "the data was read: %s", err);
    cr_assert(s.k == 0 && s.w == NULL, "a refused list left %zu models", s.k);
    /* each file alone is within the limit: the headers are valid */
    const char *one[1] = {b};
    cr_assert_eq(ul_modelio_read_list(one, 1, UL_MODELIO_AUTO, 0, &s, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "NaN"), "b.npy's data is read when it fits: %s", err);
    /* appending b.npy to a set already holding 4096 such models: the same
     * counts, from b.npy's header (the set's values are not touched) */
    double unused = 0;
    ul_model_set full = {.k = 4096, .p = 65536, .w = &unused};
    expect_error(ul_modelio_append(&full, b, UL_MODELIO_AUTO, err, sizeof err), err, b,
                 "4096 + 1 models of 65536 parameters");
    cr_assert(full.k == 4096 && full.w == &unused);
}

/* A list read whole: the files' models in order, as appending them one by
 * one gives. */
Test(emp_modelio, a_list_reads_as_the_files_appended)
{
    const char *one =
        put_npy("one.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }",
                six_f64 + 24, 24); /* 1+2⁻⁵², −0, 3 */
    const char *two = put_npy("two.npy", 1, dict_f8_23, six_f64, sizeof six_f64);
    const char *paths[2] = {one, two};
    char err[512] = "";
    ul_model_set s;
    cr_assert_eq(ul_modelio_read_list(paths, 2, UL_MODELIO_AUTO, 0, &s, err, sizeof err), UL_OK,
                 "%s", err);
    const double want[9] = {1.0 + 0x1p-52, -0.0, 3, 1.5, -2, 0.25, 1.0 + 0x1p-52, -0.0, 3};
    cr_assert(s.k == 3 && s.p == 3);
    expect_bits(s.w, want, 9);
    ul_model_set_free(&s);
    /* p required: the first file already disagrees */
    expect_error(ul_modelio_read_list(paths, 2, UL_MODELIO_AUTO, 2, &s, err, sizeof err), err,
                 one, "3 parameters, 2 expected");
    cr_assert(s.k == 0 && s.w == NULL);
}
