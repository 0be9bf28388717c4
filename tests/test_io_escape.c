/* tests/test_io_escape.c — terminal controls in command-line values
 * (io/escape.h, cli/args.c, lib/batch.c): a value holding one is refused
 * naming the flag, and every message quotes what the user typed escaped
 * (\xNN, upper-case hex: the escaper's documented form), never the raw byte.
 * The expected texts are written by hand from the byte values: ESC is 0x1B
 * (ECMA-48 §8.3.49), CSI is U+009B, UTF-8 C2 9B (RFC 3629 §3), RLO is
 * U+202E (Unicode UAX #9), UTF-8 E2 80 AE. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "io/escape.h"

#define HAS(lit) ul_io_has_control(lit, sizeof lit - 1)

Test(io_escape, controls_are_told_from_text)
{
    /* printable ASCII, UTF-8 letters, a no-break space U+00A0 (C2 A0): text */
    cr_assert_not(HAS("1e-6,0.5 --x \\"));
    cr_assert_not(HAS("\xc3\xa9\xe2\x89\xa5\xf0\x9d\x9c\x80"));
    cr_assert_not(HAS("\xc2\xa0"));
    /* a Latin-1 file name's e-acute (0xE9) is not UTF-8 but not a control */
    cr_assert_not(HAS("caf\xe9.csv"));
    /* C0, DEL, C1 in UTF-8 (U+0080, U+009B, U+009F) and as lone bytes */
    cr_assert(HAS("a\x1b[31m"));
    cr_assert(HAS("\t"));
    cr_assert(HAS("x\x7f"));
    cr_assert(HAS("\xc2\x80"));
    cr_assert(HAS("\xc2\x9b"
                  "2J"));
    cr_assert(HAS("\xc2\x9f"));
    cr_assert(HAS("\x9b"
                  "2J"));
    cr_assert(HAS("\x80"));
    /* line separator U+2028, RLO U+202E, LRM U+200E, PDI U+2069 */
    cr_assert(HAS("\xe2\x80\xa8"));
    cr_assert(HAS("\xe2\x80\xae"));
    cr_assert(HAS("\xe2\x80\x8e"));
    cr_assert(HAS("\xe2\x81\xa9"));
}

Test(io_escape, escaped_text_holds_no_control)
{
    /* Property: whatever the bytes, their escaped form is text. */
    char in[4], out[64];
    for (unsigned a = 0; a < 256; a++)
        for (unsigned b = 0; b < 256; b += 3) {
            in[0] = (char)a, in[1] = (char)b, in[2] = (char)0x9b, in[3] = (char)0xe2;
            ul_io_escape(in, sizeof in, out, sizeof out);
            cr_assert_not(ul_io_has_control(out, strlen(out)), "%02X %02X: '%s'", a, b, out);
        }
}

/* Exit 2, one stderr line naming `names`, showing `shown`, and nothing but
 * printable ASCII before its newline. */
static void expect_refused(run_result r, const char *names, const char *shown)
{
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_assert_str_empty(r.out, "%s", r.out);
    cr_assert(strstr(r.err, names) != NULL, "'%s' lacks '%s'", r.err, names);
    cr_assert(strstr(r.err, shown) != NULL, "'%s' lacks '%s'", r.err, shown);
    size_t n = strlen(r.err);
    cr_assert(n > 0 && r.err[n - 1] == '\n' && strchr(r.err, '\n') == r.err + n - 1, "%s", r.err);
    for (size_t i = 0; i + 1 < n; i++) /* the messages are ASCII; the escapes too */
        cr_assert((unsigned char)r.err[i] >= 0x20 && (unsigned char)r.err[i] < 0x7f,
                  "raw byte 0x%02X in '%s'", (unsigned char)r.err[i], r.err);
    run_free(&r);
}

Test(io_escape, calc_values_and_arguments_are_quoted_escaped)
{
    /* the brief's case: SGR "red" as --eps */
    expect_refused(run("calc", "theta", "--eps", "\x1b[31m", "--r", "0.5", NULL), "--eps",
                   "'\\x1B[31m'");
    expect_refused(run("calc", "theta", "--eps=1\x1b[2J", "--r", "0.5", NULL), "--eps",
                   "'1\\x1B[2J'");
    expect_refused(run("calc", "gauss-sigma", "--eps", "1", "--delta",
                       "\xc2\x9b"
                       "1m",
                       NULL),
                   "--delta", "'\\xC2\\x9B1m'");
    expect_refused(run("calc", "theta", "--eps", "1", "--r", "0.5", "--digits",
                       "\xe2\x80\xae"
                       "71",
                       NULL),
                   "--digits", "'\\xE2\\x80\\xAE71'");
    /* arguments that are not flags of the quantity: quoted escaped too */
    expect_refused(run("calc", "theta", "--eps", "1", "\x1b]0;title\x07", NULL),
                   "unexpected argument", "'\\x1B]0;title\\x07'");
    expect_refused(run("calc", "theta", "--eps", "1", "--r\x1b[5m=2", NULL), "unknown flag",
                   "--r\\x1B[5m");
    expect_refused(run("calc", "theta", "--eps", "1",
                       "--\x9b"
                       "2J",
                       NULL),
                   "unknown flag", "--\\x9B2J");
}

Test(io_escape, batch_names_are_quoted_escaped)
{
    /* a terminal control in --batch's value is refused by the parser, as
     * in every flag's value (cli/args.h); other bytes that are not UTF-8
     * reach the file's "cannot open", quoted escaped as well */
    expect_refused(run("calc", "theta", "--batch", "/nonexistent/b\x1b[2J.csv", NULL),
                   "--batch: holds a control character", "'/nonexistent/b\\x1B[2J.csv'");
    expect_refused(run("calc", "theta", "--batch", "/nonexistent/b\xff.csv", NULL),
                   "cannot open", "'/nonexistent/b\\xFF.csv'");
    expect_refused(run("calc", "theta", "--batch", "-", "\x1b[1mx", NULL), "unexpected argument",
                   "'\\x1B[1mx'");
}

/* The command names, vectors' early --digits check and the file reader's
 * "cannot open" quote what was typed escaped as well. */
Test(io_escape, commands_and_paths_are_quoted_escaped)
{
    expect_refused(run("\x1b[2J", NULL), "unknown command", "'\\x1B[2J'");
    expect_refused(run("help", "\x1b[2Jx", NULL), "unknown command", "'\\x1B[2Jx'");
    expect_refused(run("calc", "\x1b[31m", NULL), "unknown quantity", "'\\x1B[31m'");
    expect_refused(run("vectors", "--digits", "\x1b[31m", NULL), "--digits", "'\\x1B[31m'");
    expect_refused(run("audit", "/nonexistent/c\x1b[31m.json", NULL), "cannot open",
                   "/nonexistent/c\\x1B[31m.json");
}
