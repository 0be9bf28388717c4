/* tests/test_import.c — `ulaudit import` and ulaudit_import (issue 26): each
 * format imported from a fixture of tests/data/import/, the certificate
 * audited through the library, and the verdict compared with a published
 * answer:
 *   - Opacus opacus/tests/accountants_test.py, test_accountant_load_state_dict:
 *     history [[1.5, 0.04, 1249], [1.5, 0.04, 1000]], RDP eps 7.32911117143 at
 *     delta 1e-5, an upper bound on the exact eps (any RDP order gives one):
 *     the claim is true, supported;
 *   - the same file's test_gdp_accountant: the CLT accountant's 6.6 for 2249
 *     steps, below the PRV accountant's 6.7774 - 2 x 0.01 (its proven error
 *     eps_error 0.01, test_prv_accountant): false, refuted;
 *   - TF Privacy compute_dp_sgd_privacy_test.py 'Test0' (n 60000, batch 150,
 *     noise 1.3, 15 epochs): eps 0.7242234026109595 at delta 1e-5 by RDP,
 *     an upper bound: supported;
 *   - TF Privacy's tutorials/README.md: noise 1.12, batch 256, 60 epochs of
 *     60000: eps 2.92 at 1e-5 (RDP, Mironov's conversion): supported.
 * The phases are compared with the fixture's numbers (exact decimal
 * comparison) and with the derived values computed here in integers
 * (q = b/n, steps = ceil(epochs n / b)).  Every refusal: its message. */
#include <criterion/criterion.h>
#include <gmp.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cert/cert.h"
#include "cli_run.h"
#include "num/encl.h"
#include "ulaudit.h"

#define DATA "tests/data/import/"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    static char buf[1 << 16];
    *len = fread(buf, 1, sizeof buf - 1, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

/* The certificate of fixture `file` in `format` with the n option pairs. */
static char *import_file(const char *format, const char *file, const char *const *names,
                         const char *const *values, size_t n)
{
    size_t len;
    const char *text = slurp(file, &len);
    char *cert = NULL, err[1024] = "";
    ulaudit_status st = ulaudit_import(format, text, len, names, values, n, &cert, err, sizeof err);
    cr_assert_eq(st, ULAUDIT_OK, "%s %s: %s", format, file, err);
    /* it reads back as a certificate of method dp-sgd */
    ul_cert *c = NULL;
    cr_assert_eq(ul_cert_load_buffer(cert, strlen(cert), &c, err, sizeof err), UL_OK, "%s", err);
    cr_assert_str_eq(ul_cert_method(c), "dp-sgd");
    cr_assert_not_null(ul_cert_source(c));
    ul_cert_free(c);
    return cert;
}

static ulaudit_verdict audit(const char *cert)
{
    char *report = NULL, err[1024] = "";
    ulaudit_verdict v;
    cr_assert_eq(ulaudit_audit_string(cert, strlen(cert), NULL, &report, &v, err, sizeof err),
                 ULAUDIT_OK, "%s", err);
    ulaudit_free(report);
    return v;
}

/* The certificate's parameters.phases, and a field of its objects. */
static json_object *phases(json_object *cert)
{
    json_object *p, *ph;
    cr_assert(json_object_object_get_ex(cert, "parameters", &p));
    cr_assert(json_object_object_get_ex(p, "phases", &ph));
    return ph;
}

/* The decimal text of a number as the certificate wrote it (json-c keeps
 * the original text of a parsed double). */
static const char *num_text(json_object *o, const char *key)
{
    json_object *v;
    cr_assert(json_object_object_get_ex(o, key, &v), "no %s", key);
    return json_object_get_string(v);
}

static void expect_decimal(const char *got, const char *want, const char *what)
{
    int cmp = 1;
    cr_assert(ul_num_decimal_compare(got, want, &cmp), "%s: %s vs %s", what, got, want);
    cr_assert_eq(cmp, 0, "%s: %s, expected %s", what, got, want);
}

/* The phases of cert equal the (sigma, q, steps) rows of want. */
static void expect_phases(const char *cert, const char *const want[][3], size_t n)
{
    json_object *c = json_tokener_parse(cert), *ph = phases(c);
    cr_assert_eq(json_object_array_length(ph), n);
    for (size_t i = 0; i < n; i++) {
        json_object *p = json_object_array_get_idx(ph, i);
        expect_decimal(num_text(p, "noise_multiplier"), want[i][0], "noise_multiplier");
        expect_decimal(num_text(p, "sample_rate"), want[i][1], "sample_rate");
        expect_decimal(num_text(p, "steps"), want[i][2], "steps");
    }
    json_object_put(c);
}

static const char *adjacency(const char *cert)
{
    static char out[32];
    json_object *c = json_tokener_parse(cert), *p, *a;
    cr_assert(json_object_object_get_ex(c, "parameters", &p));
    cr_assert(json_object_object_get_ex(p, "adjacency", &a));
    snprintf(out, sizeof out, "%s", json_object_get_string(a));
    json_object_put(c);
    return out;
}

static const char *const TWO_PHASES[][3] = {{"1.5", "0.04", "1249"}, {"1.5", "0.04", "1000"}};
static const char *const CLAIM_NAMES[] = {"eps", "delta"};
static const char *const OPACUS_CLAIM[] = {"7.32911117143", "1e-5"};

/* The certificate of text with the claim (eps, delta) given as options. */
static char *import_claim(const char *format, const char *text, const char *eps,
                          const char *delta)
{
    const char *values[] = {eps, delta};
    char *cert = NULL, err[1024] = "";
    cr_assert_eq(ulaudit_import(format, text, strlen(text), CLAIM_NAMES, values, 2, &cert, err,
                                sizeof err),
                 ULAUDIT_OK, "%s", err);
    return cert;
}

Test(import, opacus_history_of_the_load_state_dict_test_is_supported)
{
    char *cert = import_file("opacus", DATA "opacus-two-phases.json", CLAIM_NAMES, OPACUS_CLAIM, 2);
    expect_phases(cert, TWO_PHASES, 2);
    cr_assert_str_eq(adjacency(cert), "add-remove");
    cr_assert(strstr(cert, "\"eps\": 7.32911117143") && strstr(cert, "\"delta\": 1e-5"), "%s", cert);
    cr_assert_eq(audit(cert), ULAUDIT_SUPPORTED);
    ulaudit_free(cert);
}

Test(import, opacus_state_dict_of_the_gdp_test_is_refuted_with_its_own_claim)
{
    char *cert = import_file("opacus", DATA "opacus-state-dict-gdp.json", NULL, NULL, 0);
    static const char *const one[][3] = {{"1.5", "0.04", "2249"}};
    expect_phases(cert, one, 1);
    cr_assert(strstr(cert, "mechanism \\\"gdp\\\""), "the source names the mechanism: %s", cert);
    cr_assert(strstr(cert, "eps from the file's $.epsilon"), "%s", cert);
    cr_assert_eq(audit(cert), ULAUDIT_REFUTED);
    ulaudit_free(cert);
}

/* The dp_accounting tree of the same run: the same phases, the same verdict. */
Test(import, dp_accounting_tree_equals_the_opacus_history)
{
    char *cert = import_file("dp-accounting", DATA "dp-accounting-two-phases.json", NULL, NULL, 0);
    expect_phases(cert, TWO_PHASES, 2);
    cr_assert_str_eq(adjacency(cert), "add-remove");
    cr_assert(strstr(cert, "neighboring_relation ADD_OR_REMOVE_ONE"), "%s", cert);
    cr_assert(strstr(cert, "NoOpDpEvent adds nothing"), "%s", cert);
    char *op = import_file("opacus", DATA "opacus-two-phases.json", CLAIM_NAMES, OPACUS_CLAIM, 2);
    cr_assert_eq(audit(cert), audit(op));
    cr_assert_eq(audit(cert), ULAUDIT_SUPPORTED);
    ulaudit_free(cert);
    ulaudit_free(op);
}

/* TF Privacy's Test0: q = 150/60000 = 1/400 = 0.0025 exactly, steps =
 * ceil(15 * 60000 / 150) = 6000 exactly. */
Test(import, tf_privacy_test0_is_exact_and_supported)
{
    char *cert = import_file("tf-privacy", DATA "tf-privacy-test0.json", NULL, NULL, 0);
    static const char *const one[][3] = {{"1.3", "0.0025", "6000"}};
    expect_phases(cert, one, 1);
    cr_assert_str_eq(adjacency(cert), "add-remove");
    cr_assert(strstr(cert, "0.0025 exactly"), "%s", cert);
    cr_assert_eq(audit(cert), ULAUDIT_SUPPORTED);
    /* the same run as a bare dp_accounting tree ("type" keys) */
    char *tree = import_file("dp-accounting", DATA "dp-accounting-tfp-test0.json", CLAIM_NAMES,
                             (const char *const[]){"0.7242234026109595", "1e-5"}, 2);
    expect_phases(tree, one, 1);
    cr_assert(strstr(tree, "default NeighboringRelation.ADD_OR_REMOVE_ONE"), "%s", tree);
    cr_assert_eq(audit(tree), ULAUDIT_SUPPORTED);
    ulaudit_free(cert);
    ulaudit_free(tree);
}

/* The tutorial: 256/60000 does not terminate; the rate written is the
 * 17-digit rounding UP (>= the exact rate, within 10^-19 of it: 17
 * significant digits of a number in [1e-3, 1e-2)); steps = ceil(3600000 /
 * 256) = 14063 (3600000 = 256 * 14062 + 128). */
Test(import, tf_privacy_tutorial_rounds_the_rate_and_steps_up)
{
    char *cert = import_file("tf-privacy", DATA "tf-privacy-mnist-tutorial.json",
                             (const char *const[]){"eps"}, (const char *const[]){"2.92"}, 1);
    json_object *c = json_tokener_parse(cert), *p = json_object_array_get_idx(phases(c), 0);
    cr_assert_eq(3600000 / 256, 14062);
    expect_decimal(num_text(p, "steps"), "14063", "steps");
    mpq_t q, exact, diff, bound;
    mpq_inits(q, exact, diff, bound, (mpq_ptr)0);
    cr_assert(ul_num_decimal_to_mpq(q, num_text(p, "sample_rate")));
    mpq_set_ui(exact, 256, 60000);
    mpq_canonicalize(exact);
    mpq_sub(diff, q, exact);
    mpq_set_ui(bound, 1, 1);
    mpz_ui_pow_ui(mpq_denref(bound), 10, 19);
    cr_assert_gt(mpq_sgn(diff), 0, "the rate is rounded up");
    cr_assert_lt(mpq_cmp(diff, bound), 0, "at 17 digits");
    mpq_clears(q, exact, diff, bound, (mpq_ptr)0);
    json_object_put(c);
    cr_assert(strstr(cert, "rounded up at 17 significant digits"), "%s", cert);
    cr_assert(strstr(cert, "ceil(28125/2) = 14063"), "%s", cert);
    cr_assert_eq(audit(cert), ULAUDIT_SUPPORTED);
    ulaudit_free(cert);
}

/* REPLACE_ONE in the file, or --adjacency, is written; the flag wins and
 * the source says both. */
Test(import, adjacency_from_the_file_or_the_option)
{
    const char *tree = "{\"event\": {\"class_name\": \"GaussianDpEvent\", \"noise_multiplier\": 2},"
                       " \"neighboring_relation\": \"NeighboringRelation.REPLACE_ONE\"}";
    char *cert = import_claim("dp-accounting", tree, "1", "1e-5"), err[1024];
    static const char *const full[][3] = {{"2", "1", "1"}};
    expect_phases(cert, full, 1);
    cr_assert_str_eq(adjacency(cert), "replace");
    ulaudit_free(cert);
    const char *names[] = {"eps", "delta", "adjacency"}, *values[] = {"1", "1e-5", "add-remove"};
    cr_assert_eq(ulaudit_import("dp-accounting", tree, strlen(tree), names, values, 3, &cert, err,
                                sizeof err),
                 ULAUDIT_OK, "%s", err);
    cr_assert_str_eq(adjacency(cert), "add-remove");
    cr_assert(strstr(cert, "as adjacency says (the tool's reading was replace"), "%s", cert);
    ulaudit_free(cert);
}

/* format, input, option names/values, words the one-line message must hold */
typedef struct {
    const char *format, *text, *names[3], *values[3], *message;
} refusal;

static const refusal REFUSALS[] = {
    {"opacsu", "[]", {NULL}, {NULL}, "unknown format \"opacsu\" (did you mean 'opacus'?"},
    {"opacus", "[[1.5, 0.04, 10],", {"eps", "delta"}, {"1", "1e-5"}, "unexpected end of input"},
    {"opacus", "[[1.5, 0.04, -3]]", {"eps", "delta"}, {"1", "1e-5"},
     "$[0][2] (steps): must be >= 1 (got '-3')"},
    {"opacus", "[[1.5, 0.04, 2.5]]", {"eps", "delta"}, {"1", "1e-5"}, "$[0][2] (steps)"},
    {"opacus", "[[\"x\", 0.04, 3]]", {"eps", "delta"}, {"1", "1e-5"}, "$[0][0] (noise_multiplier)"},
    {"opacus", "[[1.5, 1.5, 3]]", {"eps", "delta"}, {"1", "1e-5"},
     "$[0][1] (sample_rate): must be <= 1"},
    {"opacus", "[[1.5, 0.04]]", {"eps", "delta"}, {"1", "1e-5"},
     "$[0]: must be [noise_multiplier, sample_rate, steps]"},
    {"opacus", "[]", {"eps", "delta"}, {"1", "1e-5"}, "$: must be a non-empty list"},
    /* two names for the class that disagree: refused, never one of them picked */
    {"dp-accounting",
     "{\"class_name\": \"GaussianDpEvent\", \"type\": \"LaplaceDpEvent\", "
     "\"noise_multiplier\": 1}",
     {"eps", "delta"}, {"1", "1e-5"}, "not both"},
    {"opacus", "{\"history\": [[1, 0.1, 1]], \"mechanism\": \"rpd\"}", {"eps", "delta"},
     {"1", "1e-5"}, "$.mechanism: not an allowed value"},
    {"opacus", "[[1.5, 0.04, 3]]", {"delta"}, {"1e-5"}, "eps: missing"},
    {"opacus", "[[1.5, 0.04, 3]]", {"eps"}, {"1"}, "delta: missing"},
    {"opacus", "[[1.5, 0.04, 3]]", {"eps", "delta"}, {"1", "1"}, "delta: must be < 1"},
    {"opacus", "[[1.5, 0.04, 3]]", {"eps", "delta", "adjacency"}, {"1", "1e-5", "both"},
     "adjacency: must be add-remove or replace"},
    {"opacus", "[[1.5, 0.04, 3]]", {"epsilon"}, {"1"}, "unknown option \"epsilon\""},
    {"opacus", "3", {"eps", "delta"}, {"1", "1e-5"}, "$: must be an Opacus export"},
    {"dp-accounting", "{\"class_name\": \"LaplaceDpEvent\", \"noise_multiplier\": 1}",
     {"eps", "delta"}, {"1", "1e-5"}, "$.class_name: \"LaplaceDpEvent\" is not supported"},
    {"dp-accounting", "{\"class_name\": \"GausianDpEvent\", \"noise_multiplier\": 1}",
     {"eps", "delta"}, {"1", "1e-5"}, "unknown DpEvent class \"GausianDpEvent\" (did you mean"},
    {"dp-accounting",
     "{\"class_name\": \"SampledWithoutReplacementDpEvent\", \"source_dataset_size\": 100, "
     "\"sample_size\": 10, \"event\": {\"class_name\": \"GaussianDpEvent\", \"noise_multiplier\": 1}}",
     {"eps", "delta"}, {"1", "1e-5"}, "SampledWithoutReplacementDpEvent\" is not supported"},
    {"dp-accounting",
     "{\"class_name\": \"PoissonSampledDpEvent\", \"sampling_probability\": 0.1, \"event\": "
     "{\"class_name\": \"SelfComposedDpEvent\", \"count\": 2, \"event\": {\"class_name\": "
     "\"GaussianDpEvent\", \"noise_multiplier\": 1}}}",
     {"eps", "delta"}, {"1", "1e-5"}, "$.event: PoissonSampledDpEvent over SelfComposedDpEvent"},
    {"dp-accounting",
     "{\"class_name\": \"SelfComposedDpEvent\", \"count\": -1, \"event\": {\"class_name\": "
     "\"NoOpDpEvent\"}}",
     {"eps", "delta"}, {"1", "1e-5"}, "$.count: must be >= 1"},
    {"dp-accounting", "{\"class_name\": \"GaussianDpEvent\", \"noise_multiplier\": 0}",
     {"eps", "delta"}, {"1", "1e-5"}, "$.noise_multiplier: must be >= 1e-3"},
    {"dp-accounting", "{\"class_name\": \"GaussianDpEvent\", \"sigma\": 1}", {"eps", "delta"},
     {"1", "1e-5"}, "$.sigma: unknown field"},
    {"dp-accounting", "{\"class_name\": \"NoOpDpEvent\"}", {"eps", "delta"}, {"1", "1e-5"},
     "no noisy step"},
    {"dp-accounting", "{\"noise_multiplier\": 1}", {"eps", "delta"}, {"1", "1e-5"},
     "$.noise_multiplier: unknown field"},
    {"dp-accounting",
     "{\"event\": {\"class_name\": \"GaussianDpEvent\", \"noise_multiplier\": 1}, "
     "\"neighboring_relation\": \"REPLACE_SPECIAL\"}",
     {"eps", "delta"}, {"1", "1e-5"}, "$.neighboring_relation: must be ADD_OR_REMOVE_ONE (1) or"},
    {"dp-accounting", "{\"event\": {\"noise_multiplier\": 1}}", {"eps", "delta"}, {"1", "1e-5"},
     "$.event.class_name: missing"},
    {"tf-privacy", "{\"n\": 100, \"batch_size\": 200, \"noise_multiplier\": 1, \"epochs\": 1}",
     {"eps", "delta"}, {"1", "1e-5"}, "$.batch_size: must be <= n"},
    {"tf-privacy", "{\"n\": 100, \"batch_size\": 10, \"noise_multiplier\": 1, \"epochs\": 0}",
     {"eps", "delta"}, {"1", "1e-5"}, "$.epochs: must be > 0"},
    {"tf-privacy", "{\"n\": 10000, \"batch_size\": 1, \"noise_multiplier\": 1, \"epochs\": 1e6}",
     {"eps", "delta"}, {"1", "1e-5"}, "above the limit of 1000000000 steps"},
    {"tf-privacy", "{\"n\": 100, \"batch_size\": 10, \"noise_multiplier\": 1}", {"eps", "delta"},
     {"1", "1e-5"}, "$.epochs: missing"},
    {"tf-privacy", "{\"n\": 100, \"batch_size\": 10, \"noise_multiplier\": 1, \"epochs\": 1}",
     {"eps"}, {"1"}, "delta: missing"},
};

Test(import, every_refusal_names_the_field_and_the_rule)
{
    for (size_t i = 0; i < sizeof REFUSALS / sizeof REFUSALS[0]; i++) {
        const refusal *r = &REFUSALS[i];
        size_t n = 0;
        while (n < 3 && r->names[n] != NULL)
            n++;
        char *cert = (char *)"untouched", err[1024] = "";
        ulaudit_status st = ulaudit_import(r->format, r->text, strlen(r->text), r->names,
                                           r->values, n, &cert, err, sizeof err);
        cr_assert_eq(st, ULAUDIT_EINPUT, "case %zu (%s): accepted", i, r->text);
        cr_assert_null(cert, "case %zu: nothing returned", i);
        cr_assert(strstr(err, r->message) != NULL, "case %zu: '%s' not in '%s'", i, r->message,
                  err);
        cr_assert_null(strchr(err, '\n'), "case %zu: one line", i);
    }
}

/* 65 history entries: one more than a dp-sgd certificate holds. */
Test(import, too_many_phases_are_refused)
{
    char text[65 * 24 + 8] = "[";
    for (int i = 0; i < 65; i++)
        strcat(text, i ? ", [1, 0.1, 1]" : "[1, 0.1, 1]");
    strcat(text, "]");
    char *cert = NULL, err[512];
    cr_assert_eq(ulaudit_import("opacus", text, strlen(text), CLAIM_NAMES,
                                (const char *const[]){"1", "1e-5"}, 2, &cert, err, sizeof err),
                 ULAUDIT_EINPUT);
    cr_assert(strstr(err, "$[64]: more than 64 phases"), "%s", err);
}

/* The command: the certificate on stdout, or in --out; audit takes it. */
Test(import, cli_writes_a_certificate_audit_takes)
{
    char dir[] = "/tmp/ulaudit-import-XXXXXX", out[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/cert.json", dir);
    run_result r = run("import", "opacus", DATA "opacus-two-phases.json", "--eps", "7.32911117143",
                       "--delta", "1e-5", "--out", out, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.out, "");
    run_free(&r);
    r = run("audit", out, NULL);
    cr_assert_eq(r.status, 0, "supported: %s", r.out);
    run_free(&r);
    r = run("import", "tf-privacy", DATA "tf-privacy-test0.json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "\"method\": \"dp-sgd\""), "%s", r.out);
    run_free(&r);
    /* standard input */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s import opacus - --eps 1 --delta 1e-5 < %s > %s", ULAUDIT_BIN,
             DATA "opacus-two-phases.json", out);
    cr_assert_eq(system(cmd), 0);
    size_t len;
    cr_assert(strstr(slurp(out, &len), "Imported by ulaudit import opacus from standard input"));
    remove(out);
    rmdir(dir);
}

/* A refusal: exit 2, one line naming the field, nothing on stdout, no file. */
Test(import, cli_refusals_write_nothing)
{
    char dir[] = "/tmp/ulaudit-import-XXXXXX", out[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/cert.json", dir);
    expect_usage_error("--eps: missing: the claimed eps is not in the file; give --eps E",
                       run("import", "opacus", DATA "opacus-two-phases.json", "--delta", "1e-5",
                           "--out", out, NULL));
    expect_usage_error("--delta: missing",
                       run("import", "opacus", DATA "opacus-two-phases.json", "--eps", "1",
                           "--out", out, NULL));
    expect_usage_error("did you mean 'tf-privacy'?",
                       run("import", "tf-privacy2", DATA "tf-privacy-test0.json", NULL));
    expect_usage_error("--eps: must be <= 1000",
                       run("import", "tf-privacy", DATA "tf-privacy-test0.json", "--eps", "1e4",
                           "--out", out, NULL));
    expect_usage_error("$.history[0][2] (steps): must be >= 1",
                       run("import", "opacus", "tests/data/import/bad-opacus-negative-steps.json",
                           "--out", out, NULL));
    expect_usage_error("missing FILE", run("import", "opacus", NULL));
    expect_usage_error("unexpected argument", run("import", "opacus", "a", "b", NULL));
    struct stat sb;
    cr_assert_neq(stat(out, &sb), 0, "no file written");
    rmdir(dir);
}

/* `help import` is `import --help` (without a terminal), and the manual
 * page names every format and flag the help text gives. */
Test(import, help_and_manual_page_agree)
{
    setenv("ULAUDIT_HELP", "text", 1);
    run_result a = run("help", "import", NULL), b = run("import", "--help", NULL);
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert_str_eq(a.out, b.out);
    size_t len;
    const char *man = slurp("man/ulaudit-import.1", &len);
    static const char *const words[] = {"opacus",   "dp\\-accounting", "tf\\-privacy",
                                        "\\-\\-eps", "\\-\\-delta",     "\\-\\-adjacency",
                                        "\\-\\-out", "\\-\\-json"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        cr_assert(strstr(man, words[i]), "the page lacks %s", words[i]);
    for (const char *f = "--eps\0--delta\0--adjacency\0--out\0--json\0"; *f; f += strlen(f) + 1)
        cr_assert(strstr(b.out, f), "--help lacks %s", f);
    run_free(&a);
    run_free(&b);
    unsetenv("ULAUDIT_HELP");
}

/* A fractional epochs is a Python float: TF Privacy computes
 * ceil((0.07 * 100) / 1) in doubles, 0.07 * 100 = 7.000000000000001 there
 * (IEEE 754 binary64, as C computes it here), so it composes 8 steps where
 * the exact ceil(7) is 7: the larger count is written. */
Test(import, tf_privacy_fractional_epochs_take_the_larger_count)
{
    volatile double e = 0.07, n = 100, b = 1;
    cr_assert_gt(e * n / b, 7.0, "the double product is above 7");
    const char *text = "{\"n\": 100, \"batch_size\": 1, \"noise_multiplier\": 1, \"epochs\": 0.07}";
    char *cert = import_claim("tf-privacy", text, "1", "1e-5");
    static const char *const want[][3] = {{"1", "0.01", "8"}};
    expect_phases(cert, want, 1);
    cr_assert(strstr(cert, "ceil(7) = 7, and 8 as TF Privacy computes it in doubles"), "%s", cert);
    ulaudit_free(cert);
}

/* Decimal text that JSON does not allow ("+1", "01.50", given as strings or
 * flags) is written as the same number in JSON's form; the certificate
 * reads back. */
Test(import, decimal_text_is_written_as_json_numbers)
{
    const char *text = "[[\"01.50\", \"0.04\", \"1e3\"]]";
    char *cert = import_claim("opacus", text, "+7", "00.00001"), err[1024];
    static const char *const want[][3] = {{"1.5", "0.04", "1000"}};
    expect_phases(cert, want, 1);
    cr_assert(strstr(cert, "\"noise_multiplier\": 1.50,"), "%s", cert);
    cr_assert(strstr(cert, "\"claim\": {\"eps\": 7, \"delta\": 0.00001}"), "%s", cert);
    ul_cert *c = NULL;
    cr_assert_eq(ul_cert_load_buffer(cert, strlen(cert), &c, err, sizeof err), UL_OK, "%s", err);
    ul_cert_free(c);
    ulaudit_free(cert);
}
