/* tests/test_emp_data.c — IDX / CSV / LIBSVM readers (round trips and
 * malformed files), synthetic data, binary tasks, row scaling. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
static const unsigned char idx_img[] = {0, 0, 8, 3, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 2,
                                        0, 255, 51, 102, 1, 2, 3, 4, 255, 255, 0, 0};
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
    unsigned char huge[] = {0, 0, 8, 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                            0,    0,    0,    1,    0};
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
    expect_error(ul_data_read_libsvm(p, 3, &ds, err, sizeof err), err, p, "exceeds the dimension 3");
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
