/* tests/test_audit_corpus.c — audits every certificate in audits/ and checks
 * the verdict it expects.
 * Every method has a handler, so every certificate must be audited. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "num/encl.h"

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(audit_corpus, .fini = teardown);

static void corpus_dir(char *out, size_t n)
{
    const char *self = __FILE__;
    const char *slash = strrchr(self, '/');
    snprintf(out, n, "%.*s../audits", slash ? (int)(slash - self + 1) : 0, self);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_json(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 5 && strcmp(d->d_name + n - 5, ".json") == 0;
}

Test(audit_corpus, every_certificate_gets_its_expected_verdict, .timeout = 600)
{
    char dir[1024];
    corpus_dir(dir, sizeof dir);
    struct dirent **names;
    int n = scandir(dir, &names, is_json, by_name);
    cr_assert(n >= 0, "cannot list %s", dir);
    cr_assert(n > 0, "no certificates in %s", dir);
    int audited = 0, failures = 0;
    const ul_num_precision want = {17, 0, 0};
    for (int i = 0; i < n; i++) {
        char path[2048], err[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        ul_cert *c = NULL;
        if (ul_cert_load(path, &c, err, sizeof err) != UL_OK) {
            cr_log_error("%s: does not load: %s", names[i]->d_name, err);
            failures++;
            free(names[i]);
            continue;
        }
        const char *expected = ul_cert_expected_verdict(c);
        if (expected == NULL || ul_cert_source(c) == NULL ||
            ul_cert_expected_explanation(c) == NULL) {
            cr_log_error("%s: a corpus certificate needs source and expected {verdict, "
                         "explanation}",
                         names[i]->d_name);
            failures++;
        } else {
            ul_audit_report rep;
            ul_status st = ul_audit(c, &want, &rep, err, sizeof err);
            if (st != UL_OK) {
                cr_log_error("%s: audit failed: %s", names[i]->d_name, err);
                failures++;
            } else if (strcmp(ul_verdict_name(rep.verdict), expected) != 0) {
                cr_log_error("%s: verdict %s, expected %s (%s)", names[i]->d_name,
                             ul_verdict_name(rep.verdict), expected, rep.margin);
                failures++;
            } else {
                audited++;
            }
        }
        ul_cert_free(c);
        free(names[i]);
    }
    free(names);
    cr_assert_eq(failures, 0, "%d of %d corpus certificates failed (see the log)", failures, n);
    cr_assert_eq(audited, n);
}

