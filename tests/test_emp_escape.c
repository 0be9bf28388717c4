/* tests/test_emp_escape.c — untrusted bytes in messages (io/escape.h):
 * the escape against hand-written expectations and against iconv's UTF-8
 * decoder (an independent implementation of RFC 3629), and every data
 * reader's message on a file whose bytes carry terminal control sequences
 * (issue 12: CSV/LIBSVM errors echoed raw ESC sequences). */
#include <criterion/criterion.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emp/attack.h"
#include "emp/data.h"
#include "io/escape.h"
#include "emp/modelio.h"
#include "emp/rng.h"
#include "test_emp_files.h"

static char *dir;

static void setup(void)
{
    dir = emp_test_mkdtemp();
}

static void teardown(void)
{
    emp_test_rm_rf(dir);
    free(dir);
}

TestSuite(emp_escape, .init = setup, .fini = teardown);

static const char *esc(const char *s, size_t n)
{
    static char out[512];
    return ul_io_escape(s, n, out, sizeof out);
}

#define ESC(lit) esc(lit, sizeof lit - 1)

Test(emp_escape, hand_written_cases)
{
    /* printable ASCII, backslash included, is kept */
    cr_assert_str_eq(ESC("a,b 1.5e-3 \\n"), "a,b 1.5e-3 \\n");
    /* C0 controls and DEL: ESC [ 2 J clears a screen (ECMA-48 ED) */
    cr_assert_str_eq(ESC("\x1b[2J\r\n\t\x7f"), "\\x1B[2J\\x0D\\x0A\\x09\\x7F");
    cr_assert_str_eq(esc("a\0b", 3), "a\\x00b");
    /* well-formed UTF-8 is kept: é U+00E9, ≥ U+2265, 𝜀 U+1D700 */
    cr_assert_str_eq(ESC("\xc3\xa9 \xe2\x89\xa5 \xf0\x9d\x9c\x80"),
                     "\xc3\xa9 \xe2\x89\xa5 \xf0\x9d\x9c\x80");
    /* C1 CSI U+009B, RLO U+202E, LSEP U+2028, RLI U+2067: escaped byte by byte */
    cr_assert_str_eq(ESC("\xc2\x9b"
                         "31m"),
                     "\\xC2\\x9B31m");
    cr_assert_str_eq(ESC("\xe2\x80\xae"), "\\xE2\\x80\\xAE");
    cr_assert_str_eq(ESC("\xe2\x80\xa8"), "\\xE2\\x80\\xA8");
    cr_assert_str_eq(ESC("\xe2\x81\xa7"), "\\xE2\\x81\\xA7");
    /* not UTF-8 (RFC 3629 §4): a lone continuation byte, 0xFF, an overlong
     * '/', a surrogate U+D800, U+110000, a sequence cut short */
    cr_assert_str_eq(ESC("\x80"), "\\x80");
    cr_assert_str_eq(ESC("\xff"), "\\xFF");
    cr_assert_str_eq(ESC("\xc0\xaf"), "\\xC0\\xAF");
    cr_assert_str_eq(ESC("\xed\xa0\x80"), "\\xED\\xA0\\x80");
    cr_assert_str_eq(ESC("\xf4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80");
    cr_assert_str_eq(ESC("x\xe2\x89"), "x\\xE2\\x89");
    /* a bad lead byte does not swallow the good byte after it */
    cr_assert_str_eq(ESC("\xe2"
                         "A"),
                     "\\xE2A");
}

Test(emp_escape, cut_between_whole_units)
{
    char out[12];
    /* 11 usable bytes: "ab" + "\x1B" = 6, the next escape does not fit with "..." */
    ul_io_escape("ab\x1b\x1b\x1b", 5, out, sizeof out);
    cr_assert_str_eq(out, "ab\\x1B...");
    ul_io_escape("abcdefghijklmnop", 16, out, sizeof out);
    cr_assert_str_eq(out, "abcdefgh...");
    ul_io_escape("abcdefghij", 10, out, sizeof out); /* fits exactly: no "..." */
    cr_assert_str_eq(out, "abcdefghij");
    char msg[16] = "x\x1b[31my";
    ul_io_escape_message(msg, sizeof msg);
    cr_assert_str_eq(msg, "x\\x1B[31my");
}

/* Decodes s with iconv (glibc's UTF-8 decoder) into code points; false
 * when s is not well-formed UTF-8. */
static bool iconv_decode(const char *s, uint32_t *cps, size_t cap, size_t *n)
{
    iconv_t cd = iconv_open("UTF-32LE", "UTF-8");
    cr_assert_neq(cd, (iconv_t)-1);
    char *in = (char *)s, *out = (char *)cps;
    size_t inleft = strlen(s), outleft = cap * 4;
    size_t r = iconv(cd, &in, &inleft, &out, &outleft);
    iconv_close(cd);
    *n = cap - outleft / 4;
    return r != (size_t)-1 && inleft == 0;
}

Test(emp_escape, random_bytes_come_out_safe_and_stable)
{
    /* Property: for any bytes, the output is well-formed UTF-8 (iconv),
     * holds no C0/DEL/C1 control, line separator or bidi control, and
     * escaping it again changes nothing. */
    double u[64];
    char in[64], out[400], again[400];
    uint32_t cps[400];
    for (uint32_t trial = 0; trial < 3000; trial++) {
        ul_rng_uniforms(77, trial, 0, 0, 64, u);
        size_t n = 1 + (size_t)(u[0] * 63);
        for (size_t i = 0; i < n; i++) /* mostly high bytes and controls, some ASCII */
            in[i] = (char)(u[i] < 0.3 ? (int)(u[i] * 100) : 0x60 + (int)(u[i] * 159));
        ul_io_escape(in, n, out, sizeof out);
        size_t m;
        cr_assert(iconv_decode(out, cps, 400, &m), "not UTF-8 after escaping (trial %u)", trial);
        for (size_t k = 0; k < m; k++) {
            uint32_t c = cps[k];
            cr_assert(c >= 0x20 && c != 0x7f && !(c >= 0x80 && c <= 0x9f) && c != 0x2028 &&
                          c != 0x2029 && !(c >= 0x202a && c <= 0x202e) &&
                          !(c >= 0x2066 && c <= 0x2069) && c != 0x200e && c != 0x200f,
                      "U+%04X left in the output (trial %u)", c, trial);
        }
        ul_io_escape(out, strlen(out), again, sizeof again);
        cr_assert_str_eq(again, out);
    }
}

/* ---- the readers ------------------------------------------------------------------- */

static const char *put(const char *name, const void *bytes, size_t len)
{
    return emp_test_put(dir, name, bytes, len);
}

/* The message names the reason, shows the hostile bytes escaped, and holds
 * no raw control byte. */
static void expect_escaped(ul_status st, const char *err, const char *reason, const char *shown)
{
    cr_assert_eq(st, UL_EINPUT, "accepted");
    cr_assert(strstr(err, reason), "'%s' lacks '%s'", err, reason);
    cr_assert(strstr(err, shown), "'%s' lacks '%s'", err, shown);
    for (const unsigned char *p = (const unsigned char *)err; *p; p++)
        cr_assert(*p >= 0x20 && *p != 0x7f && *p != 0x9b, "raw byte 0x%02X in '%s'", *p, err);
}

#define PUT(name, lit) put(name, lit, sizeof lit - 1)

Test(emp_escape, csv_and_libsvm_cells)
{
    ul_dataset ds = {0};
    char err[512];
    const char *p = PUT("a.csv", "1,2,0\n3,\x1b]0;pwned\x07,1\n");
    expect_escaped(ul_data_read_csv(p, -1, 0, &ds, err, sizeof err), err, "not a number",
                   "\\x1B]0;pwned\\x07");
    p = PUT("b.csv", "1,2,0\n3,\xc2\x9b"
                     "2J,1\n");
    expect_escaped(ul_data_read_csv(p, -1, 0, &ds, err, sizeof err), err, "not a number",
                   "\\xC2\\x9B2J");
    p = PUT("c.svm", "1 1:0.5\n-1 2:\x1b[31mred\n");
    expect_escaped(ul_data_read_libsvm(p, 0, &ds, err, sizeof err), err, "not a number",
                   "\\x1B[31mred");
    p = PUT("d.svm", "\x1b[1m 1:0.5\n");
    expect_escaped(ul_data_read_libsvm(p, 0, &ds, err, sizeof err), err, "label", "\\x1B[1m");
    p = PUT("e.svm", "1 \xff\xfe:1\n");
    expect_escaped(ul_data_read_libsvm(p, 0, &ds, err, sizeof err), err, "index", "\\xFF\\xFE");
}

Test(emp_escape, file_names_idx_npy_raw)
{
    ul_dataset ds = {0};
    ul_model_set ms = {0};
    char err[512], name[200];
    /* a file name is untrusted too when it comes from a configuration */
    snprintf(name, sizeof name, "%s/no\x1b[2Jsuch", dir);
    expect_escaped(ul_data_read_idx(name, name, &ds, err, sizeof err), err, "cannot open",
                   "no\\x1B[2Jsuch");
    expect_escaped(ul_modelio_read(name, UL_MODELIO_F64, 1, &ms, err, sizeof err), err,
                   "cannot open", "no\\x1B[2Jsuch");
    /* an .npy magic and descr carrying ESC */
    const char *p = PUT("m.npy", "\x1b[2J\x1b[H\0\0\0\0");
    expect_escaped(ul_modelio_read(p, UL_MODELIO_NPY, 0, &ms, err, sizeof err), err, "magic",
                   "\\x1B[2J");
    static const char npy[] = "\x93NUMPY\x01\x00\x2c\x00{'descr': '<\x1b[7m', 'fortran_order': "
                              "False, 'shape': (1,), }\n";
    p = put("n.npy", npy, sizeof npy - 1);
    expect_escaped(ul_modelio_read(p, UL_MODELIO_NPY, 0, &ms, err, sizeof err), err, "descr",
                   "<\\x1B[7m");
    ul_model_set set = {0};
    expect_escaped(ul_modelio_append(&set, name, UL_MODELIO_F32, err, sizeof err), err,
                   "cannot open", "no\\x1B[2Jsuch");
}

Test(emp_escape, attack_configuration_values)
{
    ul_attack_config cfg;
    char err[1024];
    PUT("x.csv", "1,2,1\n3,\x1b[5mblink,0\n");
    /* a data path with ESC (JSON \u001b), and a CSV cell with ESC */
    const char *p = PUT("c1.json", "{\"format\": \"ulaudit-attack/1\", \"data\": {\"source\": "
                                   "\"csv\", \"path\": \"y\\u001b[2J.csv\", \"classes\": [1, 0]}, "
                                   "\"model\": {\"type\": \"logreg\"}, \"learner\": {\"sigma\": "
                                   "\"0.1\", \"train_steps\": 4, \"unlearn_steps\": 1}}");
    expect_escaped(ul_attack_config_load(p, &cfg, err, sizeof err), err, "cannot open",
                   "y\\x1B[2J.csv");
    p = PUT("c2.json", "{\"format\": \"ulaudit-attack/1\", \"data\": {\"source\": \"csv\", "
                       "\"path\": \"x.csv\", \"classes\": [1, 0]}, \"model\": {\"type\": "
                       "\"logreg\"}, \"learner\": {\"sigma\": \"0.1\", \"train_steps\": 4, "
                       "\"unlearn_steps\": 1}}");
    expect_escaped(ul_attack_config_load(p, &cfg, err, sizeof err), err, "not a number",
                   "\\x1B[5mblink");
}
