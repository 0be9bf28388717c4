/* tests/test_cert_json.c — the strict JSON reader: the tree it builds, the
 * exact number text it keeps, every malformed input it must refuse (each
 * with the JSON path, line:column and the rule), and its limits (depth,
 * size), including generated 10 MB and deeply nested files. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/json.h"

TestSuite(cert_json);

static ul_json_doc *parse_ok(const char *text)
{
    char err[512] = "";
    ul_json_doc *doc = NULL;
    ul_status st = ul_json_parse(text, strlen(text), &doc, err, sizeof err);
    cr_assert_eq(st, UL_OK, "'%s' should parse, got: %s", text, err);
    cr_assert_not_null(doc);
    return doc;
}

/* Parses len bytes that must be refused; checks every expected substring is
 * in the message and returns it. */
static void refuse_n(const char *text, size_t len, const char *const *expect, size_t n)
{
    char err[512] = "";
    ul_json_doc *doc = (ul_json_doc *)&err; /* must be reset to NULL */
    ul_status st = ul_json_parse(text, len, &doc, err, sizeof err);
    cr_assert_eq(st, UL_EINPUT, "input %.60s should be refused", text);
    cr_assert_null(doc);
    cr_assert(err[0] == '$', "message must start with the JSON path: %s", err);
    cr_assert(strstr(err, "line ") != NULL && strstr(err, "column ") != NULL,
              "message must give line and column: %s", err);
    for (size_t i = 0; i < n; i++)
        cr_assert(strstr(err, expect[i]) != NULL, "message for %.60s lacks '%s': %s", text,
                  expect[i], err);
}

#define REFUSE(text, ...)                                                                          \
    do {                                                                                           \
        const char *const expect_[] = {__VA_ARGS__};                                               \
        refuse_n(text, strlen(text), expect_, sizeof expect_ / sizeof expect_[0]);                 \
    } while (0)

/* ---- the tree ------------------------------------------------------------- */

Test(cert_json, tree_types_order_and_positions)
{
    const char *text = "{\n  \"b\": [1, -2.5e+3, \"x\"],\n  \"a\": {\"t\": true, \"f\": false, "
                       "\"n\": null},\n  \"e\": {}, \"z\": []\n}";
    ul_json_doc *doc = parse_ok(text);
    const ul_json_value *r = ul_json_root(doc);
    cr_assert_eq(r->type, UL_JSON_OBJECT);
    cr_assert_eq(r->count, 4);
    /* document order is kept */
    cr_assert_str_eq(r->items[0]->key, "b");
    cr_assert_str_eq(r->items[1]->key, "a");
    cr_assert_str_eq(r->items[2]->key, "e");
    cr_assert_str_eq(r->items[3]->key, "z");
    const ul_json_value *b = ul_json_get(r, "b");
    cr_assert_eq(b->type, UL_JSON_ARRAY);
    cr_assert_eq(b->count, 3);
    cr_assert_eq(b->items[0]->type, UL_JSON_NUMBER);
    cr_assert_str_eq(b->items[1]->text, "-2.5e+3");
    cr_assert_null(b->items[1]->key);
    cr_assert_eq(b->items[2]->type, UL_JSON_STRING);
    cr_assert_str_eq(b->items[2]->text, "x");
    /* "b" value '[' is on line 2, column 8 (byte 9) */
    cr_assert_eq(b->line, 2);
    cr_assert_eq(b->column, 8);
    cr_assert_eq(b->offset, 9);
    cr_assert_eq(b->items[1]->line, 2);
    cr_assert_eq(b->items[1]->column, 12);
    const ul_json_value *a = ul_json_get(r, "a");
    cr_assert_eq(a->line, 3);
    cr_assert(ul_json_get(a, "t")->boolean);
    cr_assert_eq(ul_json_get(a, "f")->type, UL_JSON_BOOL);
    cr_assert(!ul_json_get(a, "f")->boolean);
    cr_assert_eq(ul_json_get(a, "n")->type, UL_JSON_NULL);
    cr_assert_eq(ul_json_get(r, "e")->count, 0);
    cr_assert_eq(ul_json_get(r, "z")->type, UL_JSON_ARRAY);
    cr_assert_eq(ul_json_get(r, "z")->count, 0);
    cr_assert_null(ul_json_get(r, "missing"));
    cr_assert_null(ul_json_get(b, "b")); /* not an object */
    cr_assert_null(ul_json_get(NULL, "b"));
    ul_json_free(doc);
}

Test(cert_json, scalars_at_top_level)
{
    const char *ok[] = {"0", "-0", "\"s\"", "true", "null", " \r\n\t[ ] \n", "1e-400"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        ul_json_free(parse_ok(ok[i]));
}

Test(cert_json, numbers_keep_their_exact_text)
{
    const char *nums[] = {"0.1000000000000000000001",       "0.1",  "-0",      "1E+400",  "1e-400",
                          "123456789012345678901234567890", "0.10", "-0.0e-0", "1e999999"};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "{\"x\": [%s]}", nums[i]);
        ul_json_doc *doc = parse_ok(text);
        const ul_json_value *x = ul_json_get(ul_json_root(doc), "x")->items[0];
        cr_assert_eq(x->type, UL_JSON_NUMBER);
        cr_assert_str_eq(x->text, nums[i], "number text must be kept as written");
        cr_assert_eq(x->text_len, strlen(nums[i]));
        ul_json_free(doc);
    }
}

Test(cert_json, string_escapes_and_utf8)
{
    ul_json_doc *doc =
        parse_ok("[\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\", \"\\u00e9\\u20ac\", "
                 "\"\\ud83d\\ude00\", \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"]");
    const ul_json_value *r = ul_json_root(doc);
    cr_assert_str_eq(r->items[0]->text, "a\"b\\c/d\b\f\n\r\t");
    cr_assert_str_eq(r->items[1]->text, "\xc3\xa9\xe2\x82\xac");
    cr_assert_str_eq(r->items[2]->text, "\xf0\x9f\x98\x80");
    cr_assert_eq(r->items[2]->text_len, 4);
    cr_assert_str_eq(r->items[3]->text, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    ul_json_free(doc);
}

/* ---- refusals ------------------------------------------------------------ */

Test(cert_json, refuses_empty_and_whitespace)
{
    REFUSE("", "empty input");
    REFUSE("  \n\t ", "only whitespace", "line 2");
}

Test(cert_json, refuses_truncated_input)
{
    REFUSE("{", "end of input", "truncated");
    REFUSE("{\"a\"", "end of input", "':'");
    REFUSE("{\"a\":", "$.a:", "end of input", "a value was expected");
    REFUSE("{\"parameters\": {\"sigma\": 1.5", "$.parameters.sigma:", "end of input", "truncated");
    REFUSE("[1, 2", "$[1]:", "end of input");
    REFUSE("{\"a\": \"abc", "$.a:", "unterminated string", "column 7");
    REFUSE("{\"a\": tru", "$.a:", "unexpected word 'tru'");
    REFUSE("{\"a\": -", "$.a:", "'-' must be followed by digits");
    REFUSE("{\"a\": 1e", "$.a:", "exponent");
    REFUSE("[\"\\u12", "$[0]:", "four hex digits");
    REFUSE("[\"\\", "$[0]:", "unterminated string");
}

Test(cert_json, refuses_nan_and_infinity)
{
    REFUSE("{\"claim\": {\"eps\": NaN}}", "$.claim.eps:", "NaN and Infinity are not JSON");
    REFUSE("{\"x\": Infinity}", "$.x:", "NaN and Infinity");
    REFUSE("{\"x\": -Infinity}", "$.x:", "NaN and Infinity");
    REFUSE("[nan]", "$[0]:", "NaN and Infinity");
    REFUSE("[1, -inf]", "$[1]:", "NaN and Infinity");
    REFUSE("[INF]", "NaN and Infinity");
}

Test(cert_json, refuses_non_json_numbers)
{
    REFUSE("[+1]", "may not start with '+'");
    REFUSE("[01]", "leading zeros");
    REFUSE("[-012]", "leading zeros");
    REFUSE("[.5]", "digit before the decimal point");
    REFUSE("[1.]", "digit must follow the decimal point");
    REFUSE("[1.e5]", "digit must follow the decimal point");
    REFUSE("[1e+]", "exponent");
    REFUSE("[0x10]", "malformed number");
    REFUSE("[1.2.3]", "malformed number");
    REFUSE("[12abc]", "malformed number");
}

Test(cert_json, refuses_overlong_number_literal)
{
    size_t n = UL_JSON_MAX_NUMBER_CHARS + 1;
    char *text = malloc(n + 3);
    text[0] = '[';
    text[1] = '1';
    memset(text + 2, '0', n - 1);
    text[n + 1] = ']';
    text[n + 2] = '\0';
    REFUSE(text, "$[0]:", "number literal of 1001 characters; the limit is 1000");
    text[n] = ']'; /* exactly at the limit: accepted */
    text[n + 1] = '\0';
    ul_json_free(parse_ok(text));
    free(text);
}

Test(cert_json, refuses_trailing_content_comments_and_commas)
{
    REFUSE("{} x", "after the end of the JSON document");
    REFUSE("{}}", "after the end");
    REFUSE("[1] [2]", "after the end");
    REFUSE("{} // note", "comments are not allowed");
    REFUSE("{\"a\": 1 /* note */}", "$.a:", "comments are not allowed");
    REFUSE("[1, // x\n 2]", "comments are not allowed");
    REFUSE("[1, 2,]", "$[2]:", "trailing comma");
    REFUSE("{\"a\": 1,}", "trailing comma");
    REFUSE("[1 2]", "',' or ']' was expected");
    REFUSE("{\"a\" 1}", "':' was expected");
    REFUSE("{\"a\": 1 \"b\": 2}", "',' or '}' was expected");
    REFUSE("[,1]", "a value was expected");
}

Test(cert_json, refuses_non_json_strings_and_keys)
{
    REFUSE("{'a': 1}", "double quotes");
    REFUSE("['a']", "double quotes");
    REFUSE("{a: 1}", "keys must be strings in double quotes");
    REFUSE("[\"a\tb\"]", "$[0]:", "raw control character 0x09");
    REFUSE("{\"s\": \"line\nbreak\"}", "$.s:", "raw control character 0x0A");
    REFUSE("[\"\\x41\"]", "invalid escape '\\x'");
    REFUSE("[\"\\u0000\"]", "\\u0000");
    REFUSE("[\"\\ud800\"]", "unpaired surrogate \\uD800");
    REFUSE("[\"\\ud800\\u0041\"]", "unpaired surrogate");
    REFUSE("[\"\\udc00\"]", "unpaired surrogate \\uDC00");
    REFUSE("[True]", "unexpected word 'True'");
    REFUSE("[undefined]", "unexpected word 'undefined'");
}

Test(cert_json, refuses_invalid_utf8)
{
    struct {
        const char *text;
        size_t len;
    } cases[] = {
        {"[\"caf\xe9\"]", 7},          /* Latin-1 é */
        {"[\"\xff\"]", 4},             /* never valid */
        {"[\"\xc0\x80\"]", 5},         /* overlong NUL */
        {"[\"\xe0\x80\xaf\"]", 6},     /* overlong '/' */
        {"[\"\xed\xa0\x80\"]", 6},     /* encoded surrogate */
        {"[\"\xf4\x90\x80\x80\"]", 7}, /* above U+10FFFF */
        {"[\"\x80\"]", 4},             /* stray continuation byte */
        {"[\"\xe2\x82\"]", 6},         /* sequence cut by the quote */
        {"[\"\xe2\x82", 4},            /* sequence cut by the end of input */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *const expect[] = {"$[0]:", "invalid UTF-8"};
        refuse_n(cases[i].text, cases[i].len, expect, 2);
    }
    const char *const outside[] = {"unexpected byte 0xFF outside a string"};
    refuse_n("[1, \xff]", 6, outside, 1);
    const char *const nul[] = {"$[1]:", "control character 0x00"};
    refuse_n("[1,\0]", 5, nul, 2);
    const char *const bom[] = {"byte-order mark"};
    refuse_n("\xef\xbb\xbf{}", 5, bom, 1);
}

Test(cert_json, refuses_duplicate_keys_naming_both)
{
    REFUSE("{\"parameters\": {\"sigma\": 1,\n \"eps\": 2,\n \"sigma\": 3}}",
           "$.parameters.sigma:", "duplicate key", "line 3, column 2",
           "first given at line 1, column 17");
    REFUSE("{\"a\": 1, \"a\": 1}", "$.a:", "duplicate key");
    /* the earliest repeat is named when several keys repeat */
    REFUSE("{\"x\": 1, \"y\": 2, \"y\": 3, \"x\": 4}", "$.y:", "duplicate key");
    /* keys equal after unescaping are the same key */
    REFUSE("{\"ab\": 1, \"a\\u0062\": 2}", "$.ab:", "duplicate key");
    REFUSE("[{}, {\"k\": [{\"d\": 1, \"d\": 2}]}]", "$[1].k[0].d:", "duplicate key");
    /* same key in different objects is fine */
    ul_json_free(parse_ok("{\"a\": {\"k\": 1}, \"b\": {\"k\": 1}}"));
}

Test(cert_json, paths_name_odd_keys)
{
    REFUSE("{\"a b\": NaN}", "$[\"a b\"]:");
    REFUSE("{\"q\\\"\": NaN}", "$[\"q\\\"\"]:");
    REFUSE("{\"per-step\": {\"x_1\": NaN}}", "$.per-step.x_1:");
    REFUSE("{\"1x\": NaN}", "$[\"1x\"]:");
}

Test(cert_json, path_helpers)
{
    char out[UL_JSON_PATH_MAX];
    ul_json_path_key(out, sizeof out, "$", "parameters");
    cr_assert_str_eq(out, "$.parameters");
    ul_json_path_index(out, sizeof out, "$.stated.deltas", 3);
    cr_assert_str_eq(out, "$.stated.deltas[3]");
    ul_json_path_key(out, sizeof out, "$", "a\"b\\c\n");
    cr_assert_str_eq(out, "$[\"a\\\"b\\\\c\\u000a\"]");
    char longkey[300];
    memset(longkey, 'k', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = '\0';
    ul_json_path_key(out, sizeof out, "$", longkey);
    cr_assert(strlen(out) < 80 && strstr(out, "...") != NULL, "long key cut: %s", out);
    char small[12];
    ul_json_path_key(small, sizeof small, "$.parameters", "sigma");
    cr_assert_eq(strlen(small), sizeof small - 1);
    cr_assert(strstr(small, "...") != NULL, "cut path ends in '...': %s", small);
}

/* ---- limits --------------------------------------------------------------- */

static char *nested(size_t depth)
{
    char *s = malloc(2 * depth + 2);
    for (size_t i = 0; i < depth; i++) {
        s[i] = '[';
        s[depth + 1 + i] = ']';
    }
    s[depth] = '1';
    s[2 * depth + 1] = '\0';
    return s;
}

Test(cert_json, nesting_limit)
{
    char *ok = nested(UL_JSON_MAX_DEPTH);
    ul_json_free(parse_ok(ok));
    free(ok);
    char *deep = nested(UL_JSON_MAX_DEPTH + 1);
    REFUSE(deep, "nesting deeper than 64 levels", "column 65");
    free(deep);
    /* objects count too, and the path names where it happened */
    char obj[64 * 6 + 64];
    size_t n = 0;
    for (int i = 0; i < UL_JSON_MAX_DEPTH; i++)
        n += (size_t)snprintf(obj + n, sizeof obj - n, "{\"a\":");
    snprintf(obj + n, sizeof obj - n, "[]");
    REFUSE(obj, "$.a.a.a", "nesting deeper than 64");
}

Test(cert_json, size_limit_in_memory)
{
    /* exactly the limit: a valid document */
    size_t n = UL_JSON_MAX_BYTES;
    char *s = malloc(n + 1);
    memset(s, ' ', n);
    s[0] = '[';
    s[n - 1] = ']';
    char err[512];
    ul_json_doc *doc;
    cr_assert_eq(ul_json_parse(s, n, &doc, err, sizeof err), UL_OK, "%s", err);
    ul_json_free(doc);
    /* one byte more: refused before reading */
    s = realloc(s, n + 2);
    s[n] = ' ';
    const char *const expect[] = {"1048577 bytes", "limit is 1048576 bytes"};
    refuse_n(s, n + 1, expect, 2);
    free(s);
}

Test(cert_json, many_keys_parse_quickly_and_duplicates_are_found)
{
    /* ~60 000 distinct keys (under 1 MiB): a quadratic duplicate scan would
     * take minutes; the sort takes milliseconds. */
    size_t keys = 60000, cap = keys * 16 + 64, n = 0;
    char *s = malloc(cap);
    s[n++] = '{';
    for (size_t i = 0; i < keys; i++)
        n += (size_t)snprintf(s + n, cap - n, "%s\"k%zu\":%zu", i ? "," : "", i, i);
    n += (size_t)snprintf(s + n, cap - n, "}");
    char err[512];
    ul_json_doc *doc;
    cr_assert_eq(ul_json_parse(s, n, &doc, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(ul_json_root(doc)->count, keys);
    cr_assert_str_eq(ul_json_get(ul_json_root(doc), "k59999")->text, "59999");
    ul_json_free(doc);
    /* the last key repeats the first */
    n--;
    n += (size_t)snprintf(s + n, cap - n, ",\"k0\":1}");
    const char *const expect[] = {"$.k0:", "duplicate key", "first given at line 1, column 2"};
    refuse_n(s, n, expect, 3);
    free(s);
}

/* ---- files -------------------------------------------------------------- */

static char tmpdir[64];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ul-json-test-XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
}

static void remove_tmpdir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    cr_assert_eq(system(cmd), 0);
}

static void refuse_file(const char *path, const char *expect)
{
    char err[768] = "";
    ul_json_doc *doc = (ul_json_doc *)&err;
    cr_assert_eq(ul_json_parse_file(path, &doc, err, sizeof err), UL_EINPUT, "%s refused", path);
    cr_assert_null(doc);
    cr_assert(strncmp(err, path, strlen(path)) == 0, "message names the file: %s", err);
    cr_assert(strstr(err, expect) != NULL, "message for %s lacks '%s': %s", path, expect, err);
}

Test(cert_json, file_errors, .init = make_tmpdir, .fini = remove_tmpdir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/missing.json", tmpdir);
    refuse_file(path, "cannot open: No such file or directory");
    refuse_file(tmpdir, "is a directory");
    snprintf(path, sizeof path, "%s/empty.json", tmpdir);
    FILE *f = fopen(path, "w");
    fclose(f);
    refuse_file(path, "empty file");
    snprintf(path, sizeof path, "%s/fifo", tmpdir);
    cr_assert_eq(mkfifo(path, 0600), 0);
    refuse_file(path, "not a regular file");
    snprintf(path, sizeof path, "%s/empty.json/x.json", tmpdir);
    refuse_file(path, "cannot open: Not a directory");
    /* a parse error in a file: file name, then path and position */
    snprintf(path, sizeof path, "%s/bad.json", tmpdir);
    f = fopen(path, "w");
    fputs("{\n  \"a\": NaN\n}\n", f);
    fclose(f);
    refuse_file(path, ": $.a: line 2, column 8 (byte 9): NaN");
}

/* In a child process, as the user nobody when running as root (permissions
 * do not stop root): the file must be refused as unreadable. */
static int read_unreadable(const char *path)
{
    char err[768] = "";
    ul_json_doc *doc;
    if (ul_json_parse_file(path, &doc, err, sizeof err) != UL_EINPUT || doc != NULL)
        return 1;
    return strstr(err, "cannot open: Permission denied") != NULL ? 0 : 2;
}

Test(cert_json, unreadable_file, .init = make_tmpdir, .fini = remove_tmpdir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/secret.json", tmpdir);
    FILE *f = fopen(path, "w");
    fputs("{}", f);
    fclose(f);
    cr_assert_eq(chmod(path, 0), 0);
    cr_assert_eq(chmod(tmpdir, 0755), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(90);
        _exit(read_unreadable(path));
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status), "child crashed");
    cr_assert_eq(WEXITSTATUS(status), 0, "child result %d (1: not refused, 2: wrong message)",
                 WEXITSTATUS(status));
}

Test(cert_json, ten_megabyte_file_is_refused, .init = make_tmpdir, .fini = remove_tmpdir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/big.json", tmpdir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    /* a valid 10 MB JSON array: only its size is wrong */
    fputc('[', f);
    for (int i = 0; i < 10 * 1000 * 1000 / 10; i++)
        fputs(i ? ",123456789" : "123456789", f);
    fputs("]\n", f);
    cr_assert_eq(fclose(f), 0);
    refuse_file(path, "the limit is 1048576 bytes (1 MiB)");
}

Test(cert_json, deeply_nested_file_is_refused, .init = make_tmpdir, .fini = remove_tmpdir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/deep.json", tmpdir);
    /* 500 000 levels: a reader without a depth limit would overflow the stack */
    char *s = nested(500000);
    FILE *f = fopen(path, "w");
    fputs(s, f);
    cr_assert_eq(fclose(f), 0);
    free(s);
    refuse_file(path, "nesting deeper than 64 levels");
}
