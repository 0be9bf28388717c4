/* tests/test_lib.c — the public API (include/ulaudit.h): enclosures against
 * independent references (tests/oracle.c's series for theta, closed forms
 * for the inverses and Mironov's conversion), error codes and messages,
 * the audit against the corpus's expected verdicts, attack statistics
 * against their closed form, and calls from several threads at once. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <math.h>
#include <mpfr.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "oracle.h"
#include "ulaudit.h"

/* Asserts lo <= ref <= hi, lo and hi decimal strings. */
static void assert_encloses(const char *lo, const char *hi, mpfr_srcptr ref)
{
    mpfr_t l, h;
    mpfr_inits2(ORACLE_BITS, l, h, (mpfr_ptr)0);
    cr_assert_eq(mpfr_set_str(l, lo, 10, MPFR_RNDD), 0, "lo '%s' is not a number", lo);
    cr_assert_eq(mpfr_set_str(h, hi, 10, MPFR_RNDU), 0, "hi '%s' is not a number", hi);
    cr_assert(mpfr_lessequal_p(l, ref) && mpfr_lessequal_p(ref, h),
              "[%s, %s] misses the reference", lo, hi);
    mpfr_clears(l, h, (mpfr_ptr)0);
}

/* Relative width (hi - lo)/|lo| as a double. */
static double rel_width(const char *lo, const char *hi)
{
    double l = strtod(lo, NULL), h = strtod(hi, NULL);
    return (h - l) / fabs(l);
}

Test(lib, version_macro_and_function_agree)
{
    char v[32];
    snprintf(v, sizeof v, "%d.%d.%d", ULAUDIT_VERSION_MAJOR, ULAUDIT_VERSION_MINOR,
             ULAUDIT_VERSION_PATCH);
    cr_assert_str_eq(ulaudit_version(), v);
    cr_assert_str_eq(ULAUDIT_VERSION_STRING, v);
    cr_assert_eq(ULAUDIT_VERSION_NUMBER,
                 ULAUDIT_VERSION_MAJOR * 10000 + ULAUDIT_VERSION_MINOR * 100 +
                     ULAUDIT_VERSION_PATCH);
}

Test(lib, theta_encloses_the_series_oracle_at_the_digits_asked)
{
    const char *cases[][2] = {{"1", "0.5"}, {"-3", "2"}, {"0.1", "7"}, {"20", "1.5"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *lo, *hi, err[256];
        ulaudit_options opt = {30, 0};
        cr_assert_eq(ulaudit_theta(cases[i][0], cases[i][1], &opt, &lo, &hi, err, sizeof err),
                     ULAUDIT_OK, "%s", err);
        mpfr_t ref;
        mpfr_init2(ref, ORACLE_BITS);
        oracle_log_theta_str(ref, cases[i][0], cases[i][1]);
        mpfr_exp(ref, ref, MPFR_RNDN);
        assert_encloses(lo, hi, ref);
        cr_assert_leq(rel_width(lo, hi), 1e-15, "not 30 digits: [%s, %s]", lo, hi);
        mpfr_clear(ref);
        ulaudit_free(lo);
        ulaudit_free(hi);
    }
}

/* At eps = 0, theta_1(r) = 2 Phi(r/2) - 1 = erf(r / (2 sqrt 2)) (Balle & Wang
 * 2018, eq. (5) at eps = 0): gauss-sigma at delta = erf(1/(2 sqrt 2)) with
 * sensitivity 1 is sigma = 1. */
Test(lib, gauss_sigma_inverts_the_total_variation_closed_form)
{
    mpfr_t d, one;
    mpfr_inits2(400, d, one, (mpfr_ptr)0);
    mpfr_sqrt_ui(d, 8, MPFR_RNDN);
    mpfr_ui_div(d, 1, d, MPFR_RNDN);
    mpfr_erf(d, d, MPFR_RNDN);
    char delta[128];
    mpfr_snprintf(delta, sizeof delta, "%.60Re", d);
    char *lo, *hi, err[256];
    ulaudit_options opt = {25, 0};
    cr_assert_eq(ulaudit_gauss_sigma("0", delta, NULL, &opt, &lo, &hi, err, sizeof err),
                 ULAUDIT_OK, "%s", err);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    /* delta is cut to 60 digits: sigma is 1 within 1e-55, far inside 25 digits */
    cr_assert_leq(fabs(strtod(lo, NULL) - 1), 1e-15, "lo %s", lo);
    cr_assert_leq(fabs(strtod(hi, NULL) - 1), 1e-15, "hi %s", hi);
    cr_assert_leq(strtod(lo, NULL), strtod(hi, NULL));
    mpfr_clears(d, one, (mpfr_ptr)0);
    ulaudit_free(lo);
    ulaudit_free(hi);
}

/* gauss-eps at delta = theta_{e^1}(1) (the oracle's series) is eps = 1. */
Test(lib, gauss_eps_inverts_the_oracle)
{
    mpfr_t t;
    mpfr_init2(t, ORACLE_BITS);
    oracle_log_theta_str(t, "1", "1");
    mpfr_exp(t, t, MPFR_RNDN);
    char delta[128];
    mpfr_snprintf(delta, sizeof delta, "%.60Re", t);
    char *lo, *hi, err[256];
    cr_assert_eq(ulaudit_gauss_eps("1", delta, NULL, &lo, &hi, err, sizeof err), ULAUDIT_OK,
                 "%s", err);
    cr_assert_leq(strtod(lo, NULL), 1.0 + 1e-15, "lo %s", lo);
    cr_assert_geq(strtod(hi, NULL), 1.0 - 1e-15, "hi %s", hi);
    cr_assert_leq(rel_width(lo, hi), 1e-15);
    mpfr_clear(t);
    ulaudit_free(lo);
    ulaudit_free(hi);
}

/* Mironov 2017, Prop. 3: eps = rdp + log(1/delta)/(alpha - 1). */
Test(lib, rdp_to_dp_mironov_is_the_closed_form)
{
    char *lo, *hi, err[256];
    cr_assert_eq(ulaudit_rdp_to_dp("2", "0.5", "1e-5", "mironov", NULL, &lo, &hi, err, sizeof err),
                 ULAUDIT_OK, "%s", err);
    mpfr_t ref;
    mpfr_init2(ref, ORACLE_BITS);
    mpfr_set_ui(ref, 100000, MPFR_RNDN);
    mpfr_log(ref, ref, MPFR_RNDN);
    mpfr_add_d(ref, ref, 0.5, MPFR_RNDN);
    assert_encloses(lo, hi, ref);
    mpfr_clear(ref);
    ulaudit_free(lo);
    ulaudit_free(hi);
}

/* bbghs (Balle et al. 2020, Thm 21) is never weaker than Mironov's. */
Test(lib, gauss_rdp_eps_bbghs_not_above_mironov)
{
    char *lo1, *hi1, *lo2, *hi2, err[256];
    cr_assert_eq(ulaudit_gauss_rdp_eps("0.5", "1e-5", NULL, NULL, &lo1, &hi1, err, sizeof err),
                 ULAUDIT_OK, "%s", err);
    cr_assert_eq(ulaudit_gauss_rdp_eps("0.5", "1e-5", "mironov", NULL, &lo2, &hi2, err,
                                       sizeof err),
                 ULAUDIT_OK, "%s", err);
    cr_assert_leq(strtod(lo1, NULL), strtod(hi2, NULL));
    ulaudit_free(lo1);
    ulaudit_free(hi1);
    ulaudit_free(lo2);
    ulaudit_free(hi2);
}

Test(lib, generic_calc_returns_the_cli_object)
{
    const char *names[] = {"eps", "r"}, *values[] = {"1", "0.5"};
    char *json, err[256];
    cr_assert_eq(ulaudit_calc("theta", names, values, 2, NULL, &json, err, sizeof err),
                 ULAUDIT_OK, "%s", err);
    json_object *o = json_tokener_parse(json), *v;
    cr_assert_not_null(o, "not JSON: %s", json);
    cr_assert(json_object_object_get_ex(o, "quantity", &v));
    cr_assert_str_eq(json_object_get_string(v), "theta");
    cr_assert(json_object_object_get_ex(o, "digits", &v));
    cr_assert_eq(json_object_get_int(v), 17);
    cr_assert_null(strchr(json, '\n'), "one line");
    json_object_put(o);
    ulaudit_free(json);
}

/* The library hands back the command's object whole: rdp-to-dp's
 * decided_by (ρ = 0: the KL shortcut, δ² ≥ 1 − e^0 = 0) is there, as the
 * same string as on the command line (tests/test_cli.c). */
Test(lib, generic_calc_keeps_rdp_to_dp_decided_by)
{
    const char *names[] = {"alpha", "rdp", "delta"}, *values[] = {"32", "0", "1e-5"};
    char *json, err[256];
    cr_assert_eq(ulaudit_calc("rdp-to-dp", names, values, 3, NULL, &json, err, sizeof err),
                 ULAUDIT_OK, "%s", err);
    json_object *o = json_tokener_parse(json), *v;
    cr_assert_not_null(o, "not JSON: %s", json);
    cr_assert(json_object_object_get_ex(o, "decided_by", &v), "no decided_by: %s", json);
    cr_assert_str_eq(json_object_get_string(v), "kl");
    json_object_put(o);
    ulaudit_free(json);
}

Test(lib, input_errors_name_the_flag_and_return_nothing)
{
    char *lo = (char *)1, *hi = (char *)1, err[256];
    cr_assert_eq(ulaudit_theta("1", "-0.5", NULL, &lo, &hi, err, sizeof err), ULAUDIT_EINPUT);
    cr_assert_null(lo);
    cr_assert_null(hi);
    cr_assert_not_null(strstr(err, "--r"), "message: %s", err);

    char *json;
    const char *names[] = {"eps"}, *values[] = {"1"};
    cr_assert_eq(ulaudit_calc("no-such", names, values, 1, NULL, &json, err, sizeof err),
                 ULAUDIT_EINPUT);
    cr_assert_not_null(strstr(err, "unknown quantity 'no-such'"), "message: %s", err);
    cr_assert_null(json);

    ulaudit_options bad = {9999, 0};
    cr_assert_eq(ulaudit_theta("1", "1", &bad, &lo, &hi, err, sizeof err), ULAUDIT_EINPUT);
    cr_assert_not_null(strstr(err, "digits"), "message: %s", err);
    const char *help[] = {"help"}, *yes[] = {"1"};
    cr_assert_eq(ulaudit_calc("theta", help, yes, 1, NULL, &json, err, sizeof err),
                 ULAUDIT_EINPUT);
    cr_assert_eq(ulaudit_theta("1", "1", NULL, &lo, &hi, NULL, 0), ULAUDIT_OK, "NULL err");
    ulaudit_free(lo);
    ulaudit_free(hi);
}

/* 5000 digits at a 64-bit cap: sound but wide, reported as a cap. */
Test(lib, precision_cap_returns_a_sound_wide_enclosure)
{
    ulaudit_options opt = {5000, 64};
    char *lo, *hi, err[1024];
    cr_assert_eq(ulaudit_theta("1", "0.5", &opt, &lo, &hi, err, sizeof err), ULAUDIT_ECAP);
    cr_assert_not_null(lo);
    mpfr_t ref;
    mpfr_init2(ref, ORACLE_BITS);
    oracle_log_theta_str(ref, "1", "0.5");
    mpfr_exp(ref, ref, MPFR_RNDN);
    assert_encloses(lo, hi, ref);
    cr_assert_not_null(strstr(err, "precision cap"), "message: %s", err);
    mpfr_clear(ref);
    ulaudit_free(lo);
    ulaudit_free(hi);
}

Test(lib, calc_list_names_every_quantity_with_its_flags)
{
    char *json, err[256];
    cr_assert_eq(ulaudit_calc_list(&json, err, sizeof err), ULAUDIT_OK);
    json_object *a = json_tokener_parse(json);
    cr_assert(json_object_is_type(a, json_type_array));
    bool theta = false;
    for (size_t i = 0; i < json_object_array_length(a); i++) {
        json_object *q = json_object_array_get_idx(a, i), *name, *flags;
        json_object_object_get_ex(q, "name", &name);
        json_object_object_get_ex(q, "flags", &flags);
        if (strcmp(json_object_get_string(name), "theta") == 0)
            theta = json_object_array_length(flags) == 2;
    }
    cr_assert(theta, "theta with eps and r: %s", json);
    json_object_put(a);
    ulaudit_free(json);
}

/* ---- audits ------------------------------------------------------------------ */

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    char *buf = malloc(1 << 20);
    *len = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

/* The corpus's "expected" verdicts come from the papers' analysis (audits/README.md). */
Test(lib, audit_string_and_file_give_the_corpus_verdict)
{
    const char *path = "audits/gaussian-one-minus-erf.json";
    size_t len;
    char *text = read_file(path, &len), *report, *report2, err[1024];
    ulaudit_verdict v = ULAUDIT_SUPPORTED, v2 = ULAUDIT_SUPPORTED;
    cr_assert_eq(ulaudit_audit_string(text, len, NULL, &report, &v, err, sizeof err), ULAUDIT_OK,
                 "%s", err);
    cr_assert_eq(v, ULAUDIT_REFUTED);
    json_object *o = json_tokener_parse(report), *f;
    cr_assert(json_object_object_get_ex(o, "verdict", &f));
    cr_assert_str_eq(json_object_get_string(f), "refuted");
    cr_assert_eq(ulaudit_audit_file(path, NULL, &report2, &v2, err, sizeof err), ULAUDIT_OK, "%s",
                 err);
    cr_assert_eq(v2, v);
    json_object_put(o);
    ulaudit_free(report);
    ulaudit_free(report2);
    free(text);
}

/* Both forms of one audit are the command's outputs: the JSON that
 * `ulaudit audit --json` prints, the text it prints from its second line
 * (the first names the file) — over certificates of four methods and
 * every verdict kind. */
Test(lib, audit_forms_are_the_commands_outputs)
{
    const char *paths[] = {"audits/gaussian-one-minus-erf.json",
                           "audits/dp-sgd-opacus-rdp-two-phases.json",
                           "audits/noisy-gd-thm51-logreg-deletion.json",
                           "audits/langevin-table3-mnist-eps2.json"};
    setenv("SOURCE_DATE_EPOCH", "0", 1); /* one generated_at for the three runs */
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        char *json, *text, err[1024];
        ulaudit_verdict v;
        cr_assert_eq(ulaudit_audit_file_forms(paths[i], NULL, &json, &text, &v, err, sizeof err),
                     ULAUDIT_OK, "%s", err);
        run_result t = run("audit", paths[i], NULL), j = run("audit", paths[i], "--json", NULL);
        const char *second = strchr(t.out, '\n');
        cr_assert(second != NULL && strncmp(t.out, "certificate", 11) == 0, "%s", t.out);
        cr_assert_str_eq(text, second + 1, "%s: the text form", paths[i]);
        cr_assert_eq(strlen(j.out), strlen(json) + 1, "%s: the JSON form", paths[i]);
        cr_assert(strncmp(j.out, json, strlen(json)) == 0, "%s: the JSON form", paths[i]);
        cr_assert_eq(t.status, (int)v == 0 ? 0 : (int)v == 4 ? 3 : 1, "%s: the verdict", paths[i]);
        /* a form not asked for is not made */
        char *json_only;
        cr_assert_eq(ulaudit_audit_file_forms(paths[i], NULL, &json_only, NULL, NULL, err,
                                              sizeof err),
                     ULAUDIT_OK, "%s", err);
        cr_assert_str_eq(json_only, json);
        run_free(&t);
        run_free(&j);
        ulaudit_free(json);
        ulaudit_free(text);
        ulaudit_free(json_only);
    }
}

Test(lib, audit_errors_name_the_json_path)
{
    char *report, err[1024];
    const char *bad = "{\"format\": \"ulaudit-certificate/1\", \"method\": 7}";
    cr_assert_eq(ulaudit_audit_string(bad, strlen(bad), NULL, &report, NULL, err, sizeof err),
                 ULAUDIT_EINPUT);
    cr_assert_null(report);
    cr_assert_not_null(strstr(err, "method"), "message: %s", err);
    cr_assert_eq(ulaudit_audit_file("/nonexistent/cert.json", NULL, &report, NULL, err,
                                    sizeof err),
                 ULAUDIT_EINPUT);
    cr_assert_not_null(strstr(err, "/nonexistent/cert.json"), "message: %s", err);
}

/* ---- attack statistics -------------------------------------------------------- */

Test(lib, attack_scores_identical_populations_give_no_evidence)
{
    double in[50], out[50];
    for (int i = 0; i < 50; i++)
        in[i] = out[i] = i;
    char *json, err[256];
    cr_assert_eq(ulaudit_attack_scores(in, 50, out, 50, NULL, "1e-5", &json, err, sizeof err),
                 ULAUDIT_OK, "%s", err);
    json_object *o = json_tokener_parse(json), *f;
    cr_assert(json_object_object_get_ex(o, "eps_lb", &f));
    cr_assert_eq(strtod(json_object_get_string(f), NULL), 0.0, "%s", json);
    cr_assert(json_object_object_get_ex(o, "auc", &f));
    cr_assert_float_eq(json_object_get_double(f), 0.5, 1e-12);
    json_object_put(o);
    ulaudit_free(json);
}

/* Perfect separation at m thresholds: the best threshold has fp = fn = 0, so
 * the Clopper-Pearson upper bound of each rate is 1 - (alpha/(2m))^(1/n)
 * (the k = 0 case in closed form) and eps_lb = log((1 - delta - p)/p). */
Test(lib, attack_scores_perfect_separation_matches_the_closed_form)
{
    enum { N = 200 };
    double in[N], out[N];
    for (int i = 0; i < N; i++) {
        in[i] = 1000 + i;
        out[i] = i;
    }
    char *json, err[256];
    cr_assert_eq(ulaudit_attack_scores(in, N, out, N, "0.05", "1e-5", &json, err, sizeof err),
                 ULAUDIT_OK, "%s", err);
    json_object *o = json_tokener_parse(json), *f;
    cr_assert(json_object_object_get_ex(o, "n_thresholds", &f));
    double m = (double)json_object_get_int64(f);
    double p = 1 - pow(0.05 / (2 * m), 1.0 / N);
    double ref = log((1 - 1e-5 - p) / p);
    cr_assert(json_object_object_get_ex(o, "eps_lb", &f));
    double eps = strtod(json_object_get_string(f), NULL);
    cr_assert(eps <= ref + 1e-9 && eps >= ref - 1e-6, "eps_lb %g, closed form %g", eps, ref);
    cr_assert(json_object_object_get_ex(o, "auc", &f));
    cr_assert_float_eq(json_object_get_double(f), 1.0, 1e-12);
    json_object_put(o);
    ulaudit_free(json);
}

/* ---- threads ------------------------------------------------------------------ */

typedef struct {
    const char *r;
    char *lo, *hi;
    ulaudit_status st;
} job;

static void *worker(void *arg)
{
    job *j = arg;
    for (int k = 0; k < 21; k++) {
        if (k > 0) {
            ulaudit_free(j->lo);
            ulaudit_free(j->hi);
        }
        /* odd rounds through the calc table and its thread-local output sink */
        const char *names[] = {"eps", "r"}, *values[] = {"1e3", j->r};
        j->st = k % 2 ? ulaudit_calc_enclosure("theta", names, values, 2, NULL, &j->lo, &j->hi,
                                               NULL, 0)
                      : ulaudit_theta("1e3", j->r, NULL, &j->lo, &j->hi, NULL, 0);
    }
    ulaudit_thread_cleanup();
    return NULL;
}

/* Four threads at once (different r, so mixed-up outputs would show): each
 * enclosure contains its own oracle value. */
Test(lib, concurrent_calls_agree_with_sequential_ones)
{
    const char *rs[] = {"5", "10", "20", "40"};
    job jobs[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (job){rs[i], NULL, NULL, ULAUDIT_EINPUT};
        cr_assert_eq(pthread_create(&t[i], NULL, worker, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(jobs[i].st, ULAUDIT_OK);
        mpfr_t ref;
        mpfr_init2(ref, ORACLE_BITS);
        oracle_log_theta_str(ref, "1e3", rs[i]);
        mpfr_exp(ref, ref, MPFR_RNDN);
        assert_encloses(jobs[i].lo, jobs[i].hi, ref);
        mpfr_clear(ref);
        ulaudit_free(jobs[i].lo);
        ulaudit_free(jobs[i].hi);
    }
}

/* A whole-number quantity by name (src/calc/contraction.c): in product mode with delta0 = 1 and a constant r, delta_T =
 * theta^T, so the least T with delta_T <= D is ceil(log D / log theta)
 * (Koloskova et al. 2025, Thm 4.2; docs/neural-unlearning.md, "Model clipping"),
 * theta from the series oracle. */
Test(lib, contraction_steps_by_name_is_the_closed_form)
{
    const char *names[] = {"eps", "r", "delta"}, *values[] = {"1", "1.5", "1e-6"};
    char *json, err[256];
    cr_assert_eq(ulaudit_calc("contraction-steps", names, values, 3, NULL, &json, err, sizeof err),
                 ULAUDIT_OK, "%s", err);
    json_object *o = json_tokener_parse(json), *v;
    cr_assert(json_object_object_get_ex(o, "value", &v), "%s", json);
    mpfr_t lt, ld;
    mpfr_inits2(ORACLE_BITS, lt, ld, (mpfr_ptr)0);
    oracle_log_theta_str(lt, "1", "1.5");
    mpfr_set_str(ld, "1e-6", 10, MPFR_RNDN);
    mpfr_log(ld, ld, MPFR_RNDN);
    mpfr_div(ld, ld, lt, MPFR_RNDN);
    mpfr_ceil(ld, ld);
    cr_assert_eq(json_object_get_int64(v), (int64_t)mpfr_get_si(ld, MPFR_RNDN), "%s", json);
    mpfr_clears(lt, ld, (mpfr_ptr)0);
    json_object_put(o);
    ulaudit_free(json);
}
