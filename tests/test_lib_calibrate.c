/* tests/test_lib_calibrate.c — ulaudit_calibrate_file / _string against
 * `ulaudit calibrate FILE` (the binary, run here) over every certificate of
 * audits/: byte-identical output where the command calibrates, the same
 * refusal where it does not; and the property that defines a calibration:
 * the completed certificate's audit says "supported". */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "ulaudit.h"

#define MAX_CERTS 256

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The certificates of audits/ (sorted), paths malloc'd. */
static size_t corpus(char **paths)
{
    DIR *d = opendir("audits");
    cr_assert_not_null(d, "run from the source tree");
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < MAX_CERTS;) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0) {
            paths[n] = malloc(len + 8);
            snprintf(paths[n++], len + 8, "audits/%s", e->d_name);
        }
    }
    closedir(d);
    qsort(paths, n, sizeof *paths, by_name);
    return n;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    char *text = malloc(*len + 1);
    cr_assert_eq(fread(text, 1, *len, f), *len);
    fclose(f);
    return text;
}

/* The library and the command on one certificate; returns whether it
 * calibrates. */
static bool same_as_the_command(const char *path)
{
    run_result r = run("calibrate", path, NULL);
    char *cert = NULL, err[1024] = "";
    ulaudit_status st = ulaudit_calibrate_file(path, NULL, &cert, err, sizeof err);
    bool calibrated = r.status == 0;
    if (calibrated) {
        cr_assert_eq(st, ULAUDIT_OK, "%s: %s", path, err);
        cr_assert_str_eq(cert, r.out, "%s: not the command's output", path);
        char *report;
        ulaudit_verdict v;
        cr_assert_eq(ulaudit_audit_string(cert, strlen(cert), NULL, &report, &v, err, sizeof err),
                     ULAUDIT_OK, "%s: %s", path, err);
        cr_assert_eq(v, ULAUDIT_SUPPORTED, "%s: the calibrated certificate is not supported: %s",
                     path, report);
        ulaudit_free(report);
    } else {
        cr_assert_eq(r.status, 2, "%s: exit %d", path, r.status);
        /* the command's exit 2 is an input error, or no value that works
         * (the library's ENOROOT: an inverse without a solution) */
        cr_assert(st == ULAUDIT_EINPUT || st == ULAUDIT_ENOROOT, "%s: %s", path,
                  ulaudit_status_name(st));
        cr_assert_null(cert);
        cr_assert(strstr(r.err, err) != NULL, "%s: '%s' not in the command's '%s'", path, err,
                  r.err);
    }
    ulaudit_free(cert);
    run_free(&r);
    return calibrated;
}

/* part 0: every certificate but dp-sgd's (fast); parts 1, 2: dp-sgd's
 * (searches of seconds each), split in two for parallel runs. */
static void check_part(int part)
{
    char *paths[MAX_CERTS];
    size_t n = corpus(paths), calibrated = 0, dpsgd = 0;
    for (size_t i = 0; i < n; i++) {
        bool is_dpsgd = strncmp(paths[i], "audits/dp-sgd-", 14) == 0 &&
                        strncmp(paths[i], "audits/dp-sgd-group", 19) != 0;
        int mine = !is_dpsgd ? 0 : 1 + (int)(dpsgd++ % 2);
        if (mine == part && same_as_the_command(paths[i]))
            calibrated++;
        free(paths[i]);
    }
    cr_assert_gt(calibrated, 0, "part %d: no certificate calibrated", part);
    cr_log_info("calibrate part %d: %zu certificates calibrated, as the command", part,
                calibrated);
}

Test(lib_calibrate, corpus_but_dpsgd_is_the_command)
{
    check_part(0);
}

Test(lib_calibrate, corpus_dpsgd_first_half_is_the_command)
{
    check_part(1);
}

Test(lib_calibrate, corpus_dpsgd_second_half_is_the_command)
{
    check_part(2);
}

/* From text: the same bytes as from the file; options as --digits. */
Test(lib_calibrate, string_and_digits_are_the_command)
{
    const char *path = "audits/output-perturbation-classic-eps10.json";
    size_t len;
    char *text = slurp(path, &len), *a, *b, err[1024];
    cr_assert_eq(ulaudit_calibrate_string(text, len, NULL, &a, err, sizeof err), ULAUDIT_OK,
                 "%s", err);
    cr_assert_eq(ulaudit_calibrate_file(path, NULL, &b, err, sizeof err), ULAUDIT_OK);
    cr_assert_str_eq(a, b);
    ulaudit_options opt = {30, 0};
    char *c;
    cr_assert_eq(ulaudit_calibrate_string(text, len, &opt, &c, err, sizeof err), ULAUDIT_OK);
    run_result r = run("calibrate", path, "--digits", "30", NULL);
    cr_assert_eq(r.status, 0);
    cr_assert_str_eq(c, r.out);
    run_free(&r);
    ulaudit_free(a);
    ulaudit_free(b);
    ulaudit_free(c);
    free(text);
}

/* Refusals: no input, a malformed text, a method without calibration (named). */
Test(lib_calibrate, refusals_name_the_input)
{
    char *out = (char *)1, err[1024];
    cr_assert_eq(ulaudit_calibrate_file(NULL, NULL, &out, err, sizeof err), ULAUDIT_EINPUT);
    cr_assert_null(out);
    cr_assert(strstr(err, "calibrate") != NULL, "%s", err);
    cr_assert_eq(ulaudit_calibrate_string("{", 1, NULL, &out, err, sizeof err), ULAUDIT_EINPUT);
    cr_assert_null(out);
    const char *path = "audits/rdp-curve-sgm-double-rounding.json";
    cr_assert_eq(ulaudit_calibrate_file(path, NULL, &out, err, sizeof err), ULAUDIT_EINPUT);
    cr_assert(strstr(err, "rdp-curve") != NULL && strstr(err, "no calibration") != NULL, "%s",
              err);
}
