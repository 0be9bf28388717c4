/* tests/test_fuzz_regressions.c — the reproducers of hostile-input bugs
 * (issue 12; fuzz/ harnesses), each a fast regression test.  The inputs are
 * files under tests/data/fuzz/, which tools/fuzz-seeds.sh also feeds to the
 * certificate harness as seeds.
 *
 *   (a) every empty object {} made json.c compute p->stack + base on a NULL
 *       stack (undefined behaviour that clang's UBSan reports and gcc's does
 *       not: these tests catch it under `make test-clang-san`);
 *   (b) a Langevin certificate with a positive L below 10^-20000 and no eta
 *       died of SIGFPE: it must be refused, exit 2, naming $.parameters.L;
 *   (c) δ = 1e-20001 was refused by output-perturbation without a JSON path
 *       and accepted by gaussian-mechanism: both methods must now agree;
 *   (d) found by fuzz_cert: a δ below 10^(-10^100) (101 exponent digits) was
 *       printed cut to 95 characters, another number: every printed end must
 *       be a whole decimal, ordered, and on the right side of 0 < δ;
 *   (e) an adaptive model-clipping claim δ = 1e-400 (below the double range)
 *       made the σ search convert −inf to int (UB under clang's UBSan);
 *   (f) found by fuzz_calibrate: calibrating a model-clipping claim δ = 0e-410
 *       overflowed a long in ul_num_q (signed overflow, UBSan): calibration
 *       must refuse δ = 0 naming $.claim.delta, and the audit must not
 *       support it (δ(ε) = θ-products > 0 for every finite σ);
 *   (g) found by checking every conversion (UL_MUST_CHECK): a dp-sgd-group
 *       rate q = 1e-30000 failed its exact conversion unnoticed, the curve
 *       ran at q = 0 and the audit printed "certified delta in [0, 0]" (the
 *       true δ is > 0): q is read as an exact rational, refused beyond
 *       10^±20000 naming $.parameters.q (src/num/input.h's rule);
 *   (h) found by fuzz_calibrate (a 30 s timeout): calibrating a model-clipping
 *       adaptive claim whose least T is 19718 walked the certified recursion
 *       twice (2.9 s CPU in the normal build, over 30 s under the sanitizers)
 *       without asking the time budget inside it, so `--max-seconds` held only
 *       through the CLI's watchdog: the recursions of bounds/contraction.c ask
 *       it every 64 steps and the σ search before every decision.  Without
 *       timing anything: with a budget already spent, each entry point stops
 *       (UL_ETIME, a message, no number) where it used to finish its walk;
 *   (i) found by fuzz_batch (a slow unit): `calc theta --eps 5 --r 1e-200015`
 *       took 8.5 s of CPU and r = 1e-1000000 never returned.  θ itself was
 *       quick; the printer wrote exp(log θ) with its whole decimal exponent
 *       (log10 θ ≈ −5.4·10^400030, four hundred thousand digits, at a
 *       precision growing with them).  Beyond 10^±(10^1023) the printed end
 *       is now moved outward to a fixed value (num/encl.h).
 *
 * Expected values are independent of the code: Q(x) = ½ erfc(x/√2) from the
 * standard normal table, and the documented mpmath value of the corpus.
 */
#include <criterion/criterion.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "audit/audit.h"
#include "bounds/contraction.h"
#include "cert/cert.h"
#include "io/json.h"
#include "cli_run.h"
#include "num/deadline.h"
#include "num/encl.h"

TestSuite(fuzz_regressions);

#define DATA "tests/data/fuzz/"

static const ul_num_precision WANT = {.digits = 10, .start_bits = 0, .max_bits = 0};

/* Loads a certificate file and audits it: the audit's status, the report
 * and its message. */
static ul_status audit_file(const char *path, ul_audit_report *rep, char *err, size_t errlen)
{
    ul_cert *c = NULL;
    ul_status st = ul_cert_load(path, &c, err, errlen);
    cr_assert_eq(st, UL_OK, "%s must load (the envelope is valid): %s", path, err);
    ul_audit_report_init(rep);
    st = ul_audit(c, &WANT, rep, err, errlen);
    ul_cert_free(c);
    return st;
}

/* audit_file for a certificate the audit must accept. */
static void audit_ok(const char *path, ul_audit_report *rep)
{
    char err[1024] = "";
    ul_status st = audit_file(path, rep, err, sizeof err);
    cr_assert_eq(st, UL_OK, "%s: %s", path, err);
}

/* ---- (a) empty objects ---------------------------------------------------- */

static ul_json_doc *parse(const char *text)
{
    char err[512] = "";
    ul_json_doc *doc = NULL;
    ul_status st = ul_json_parse(text, strlen(text), &doc, err, sizeof err);
    cr_assert_eq(st, UL_OK, "'%s' is valid JSON (RFC 8259), got: %s", text, err);
    return doc;
}

Test(fuzz_regressions, empty_object_at_every_place)
{
    /* the root, a member, an element, nested, after a full object */
    static const char *const texts[] = {"{}",
                                        " { } ",
                                        "{\"a\": {}}",
                                        "[{}, {}]",
                                        "{\"a\": {\"b\": {\"c\": {}}}}",
                                        "{\"x\": {\"k\": 1}, \"y\": {}}"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        ul_json_free(parse(texts[i]));

    ul_json_doc *doc = parse("{\"x\": {\"k\": 1}, \"y\": {}, \"z\": [{}]}");
    const ul_json_value *r = ul_json_root(doc), *y = ul_json_get(r, "y");
    cr_assert_eq(r->count, 3);
    cr_assert(y && y->type == UL_JSON_OBJECT && y->count == 0, "y is an empty object");
    const ul_json_value *z = ul_json_get(r, "z");
    cr_assert(z && z->count == 1 && z->items[0]->type == UL_JSON_OBJECT && z->items[0]->count == 0);
    cr_assert_null(ul_json_get(y, "k"), "an empty object has no members");
    ul_json_free(doc);
}

Test(fuzz_regressions, empty_stated_object_in_a_certificate)
{
    /* θ_e(1) = Q(1/2) − e·Q(3/2) = 0.308538 − 2.718282 × 0.066807 = 0.12694
     * (normal table) ≤ 0.2: the exact profile is within the claim.  The
     * fixture states "compositions": 1 (omitted, an unknown number of
     * releases leaves the claim unsupported; ulaudit-certificate(5)) */
    ul_audit_report rep;
    audit_ok(DATA "empty-objects.json", &rep);
    cr_assert_eq(rep.verdict, UL_VERDICT_SUPPORTED, "%s", rep.explanation);
    cr_assert(strtod(rep.recomputed.lo, NULL) >= 0.1269 &&
                  strtod(rep.recomputed.hi, NULL) <= 0.1270,
              "theta_e(1) in [%s, %s]", rep.recomputed.lo, rep.recomputed.hi);
}

/* ---- (b) Langevin: L below 10^-20000, no eta -------------------------------- */

Test(fuzz_regressions, langevin_tiny_L_without_eta_is_refused)
{
    ul_audit_report rep;
    char err[1024] = "";
    ul_status st = audit_file(DATA "langevin-tiny-L-no-eta.json", &rep, err, sizeof err);
    cr_assert_eq(st, UL_EINPUT, "L = 1e-20001 cannot be read exactly: refused, got %d", (int)st);
    cr_assert(strstr(err, "$.parameters.L") != NULL, "the message names the field: %s", err);
}

Test(fuzz_regressions, langevin_tiny_L_without_eta_exits_2)
{
    expect_usage_error("$.parameters.L", run("audit", DATA "langevin-tiny-L-no-eta.json", NULL));
}

/* ---- (c) δ = 1e-20001: output-perturbation as gaussian-mechanism ------------ */

Test(fuzz_regressions, delta_below_1e_20000_read_alike_by_both_gaussian_methods)
{
    ul_audit_report op, gm;
    char err_op[1024] = "", err_gm[1024] = "";
    ul_status s_op =
        audit_file(DATA "output-perturbation-delta-1e-20001.json", &op, err_op, sizeof err_op);
    ul_status s_gm =
        audit_file(DATA "gaussian-mechanism-delta-1e-20001.json", &gm, err_gm, sizeof err_gm);
    /* δ is within every decimal's limits (num/input.h) and neither method
     * reads it as an exact rational: both audit it */
    cr_assert_eq(s_op, UL_OK, "output-perturbation: %s", err_op);
    cr_assert_eq(s_gm, UL_OK, "gaussian-mechanism: %s", err_gm);
    /* Accepted: both are exact privacy profiles θ_{e^ε}(r) > 0 at r > 0, far
     * above 1e-20001, so both claims are false.  Output perturbation:
     * r = 2·C0/σ = 0.02/0.09689610525, θ_e(r) = 4.1137e-8 (mpmath,
     * audits/output-perturbation-classic-eps1.json); Gaussian: θ_e(1) = 0.12694
     * (normal table, see above). */
    cr_assert_eq(op.verdict, UL_VERDICT_REFUTED, "%s", op.explanation);
    cr_assert_eq(gm.verdict, UL_VERDICT_REFUTED, "%s", gm.explanation);
    cr_assert(strtod(op.recomputed.lo, NULL) >= 4.113e-8 &&
                  strtod(op.recomputed.hi, NULL) <= 4.114e-8,
              "output perturbation delta in [%s, %s]", op.recomputed.lo, op.recomputed.hi);
    cr_assert(strtod(gm.recomputed.lo, NULL) >= 0.1269 && strtod(gm.recomputed.hi, NULL) <= 0.1270,
              "gaussian delta in [%s, %s]", gm.recomputed.lo, gm.recomputed.hi);
}

/* ---- (d) a δ with a 101-digit exponent, printed whole ------------------------- */

/* A printed end: a whole decimal (nothing left unread) that did not fill its
 * buffer (how a cut shows). */
static void read_whole(mpfr_ptr x, const char *text, size_t cap)
{
    char *end = NULL;
    ul_num_init(); /* the exponent range is per thread: widen it in this one */
    mpfr_strtofr(x, text, &end, 10, MPFR_RNDN);
    cr_assert(end != text && *end == '\0', "'%s' is not a whole decimal", text);
    cr_assert_lt(strlen(text), cap - 1, "'%.60s...' fills its buffer (cut?)", text);
}

Test(fuzz_regressions, delta_below_the_floor_printed_whole)
{
    ul_audit_report rep;
    audit_ok(DATA "model-clipping-adaptive-floor-printed-whole.json", &rep);
    const ul_audit_number *n = &rep.recomputed;
    const char *lo = ul_audit_number_lo(n), *hi = ul_audit_number_hi(n);
    mpfr_t a, b;
    mpfr_inits2(64, a, b, (mpfr_ptr)0);
    read_whole(a, lo, lo == n->lo_full ? sizeof n->lo_full : sizeof n->lo);
    read_whole(b, hi, hi == n->hi_full ? sizeof n->hi_full : sizeof n->hi);
    /* δ_T = δ_0 · Π θ_t with every θ_t > 0 (r = D/σ finite): δ_T > 0, so a
     * sound enclosure has lo <= hi and hi > 0 */
    cr_assert(mpfr_lessequal_p(a, b), "lo %s > hi %s", lo, hi);
    /* hi > 0 read on its digits: below 10^(-10^18) MPFR itself reads 0 */
    size_t mant = strcspn(hi, "eE");
    cr_assert(hi[0] != '-' && strspn(hi, "0.") < mant, "hi %s must be above 0 < delta_T", hi);
    mpfr_clears(a, b, (mpfr_ptr)0);
}

/* ---- (e) δ below the double range in the model-clipping σ search ------------ */

Test(fuzz_regressions, model_clipping_delta_below_double_range_is_decided)
{
    /* δ_6 of this recursion (C2 = σ = 0.5, ε = 1) is about 2.65e-8
     * (audits/model-clipping-cifar-r2-product.json), far above 1e-400; the
     * first factor alone is θ_e(2) = Q(−1/2) − e·Q(3/2) = 0.69146 − 0.18160
     * (normal table) */
    ul_audit_report rep;
    audit_ok(DATA "model-clipping-adaptive-delta-1e-400.json", &rep);
    cr_assert_eq(rep.verdict, UL_VERDICT_UNSUPPORTED, "%s", rep.explanation);
}

/* ---- (f) calibrating a claim δ = 0 ------------------------------------------ */

Test(fuzz_regressions, model_clipping_calibrate_delta_zero_is_refused)
{
    const char *path = DATA "model-clipping-calibrate-delta-zero.json";
    ul_cert *c = NULL;
    char err[1024] = "";
    cr_assert_eq(ul_cert_load(path, &c, err, sizeof err), UL_OK, "%s", err);
    char *completed = NULL;
    ul_status st = ul_audit_calibrate(c, &WANT, &completed, err, sizeof err);
    ul_cert_free(c);
    cr_assert_eq(st, UL_EINPUT, "calibrating delta = 0 must be refused, got status %d", (int)st);
    cr_assert_null(completed);
    cr_assert(strstr(err, "$.claim.delta") != NULL, "the message names the field: %s", err);

    /* every Gaussian step has theta(eps, r) > 0, so no sigma gives delta = 0 */
    ul_audit_report rep;
    audit_ok(path, &rep);
    cr_assert_neq(rep.verdict, UL_VERDICT_SUPPORTED, "%s", rep.explanation);
}

/* ---- (g) dp-sgd-group: a rate q below 10^-20000 ------------------------------ */

Test(fuzz_regressions, dp_sgd_group_rate_below_1e_20000_is_refused)
{
    const char *path = DATA "dp-sgd-group-q-1e-30000.json";
    ul_audit_report rep;
    char err[1024] = "";
    ul_status st = audit_file(path, &rep, err, sizeof err);
    cr_assert_eq(st, UL_EINPUT, "q = 1e-30000 cannot be read exactly: refused, got %d", (int)st);
    /* the rule of src/num/input.h for a number read as an exact rational */
    cr_assert(strstr(err, "$.parameters.q") != NULL &&
                  strstr(err, "below the smallest magnitude accepted for a number read as an "
                              "exact rational (1e-20000") != NULL,
              "the message names the field and the rule: %s", err);
    expect_usage_error("$.parameters.q", run("audit", path, NULL));
}

/* ---- (h) a calibration of 19718 adaptive steps stops within its budget -------- */

/* A budget that has run out before the call (1 ns, then a sleep). */
static void spent_budget(void)
{
    ul_deadline_set(1e-9);
    struct timespec ns = {0, 1000000};
    nanosleep(&ns, NULL);
    cr_assert(ul_deadline_passed());
}

Test(fuzz_regressions, model_clipping_calibration_stops_at_its_budget)
{
    const char *path = DATA "model-clipping-calibrate-least-T-19718.json";
    ul_cert *c = NULL;
    char err[1024] = "";
    cr_assert_eq(ul_cert_load(path, &c, err, sizeof err), UL_OK, "%s", err);
    spent_budget();
    char *completed = NULL;
    ul_status st = ul_audit_calibrate(c, &WANT, &completed, err, sizeof err);
    ul_deadline_clear();
    ul_cert_free(c);
    cr_assert_eq(st, UL_ETIME, "a spent budget stops the calibration, got status %d: %s", (int)st,
                 err);
    cr_assert_null(completed);
    cr_assert(err[0] != '\0');
}

Test(fuzz_regressions, contraction_recursions_ask_the_budget_inside)
{
    /* the reproducer's recursion: cc1 diameter 2*C2 = 3.95 over sigma = 0.5,
     * r = 7.9 (docs/neural-unlearning.md, "Model clipping"), eps = 1, adaptive */
    const char *r[1] = {"7.9"};
    ul_contraction_problem pb = {"1", r, 1, 19718, NULL, UL_CONTRACTION_ADAPTIVE};
    char err[512] = "";
    ul_num_report rep;
    unsigned long t = 0;
    spent_budget();
    ul_status st = ul_contraction_least_steps(&pb, "9.1487439e-07", 100000, &t, &rep, err,
                                              sizeof err);
    cr_assert_eq(st, UL_ETIME, "least T: status %d (T = %lu): %s", (int)st, t, err);
    cr_assert(strstr(err, "least T") != NULL, "%s", err);

    ul_num_value d;
    ul_num_value_init(&d, 64);
    bool floor = false;
    st = ul_contraction_delta_certified(&pb, &WANT, &d, &floor, &rep, err, sizeof err);
    ul_num_value_clear(&d);
    cr_assert_eq(st, UL_ETIME, "delta_T: status %d: %s", (int)st, err);
    cr_assert(strstr(err, "19718 steps") != NULL, "%s", err);

    mpfi_t sigma;
    mpfi_init2(sigma, 64);
    st = ul_contraction_sigma_min(&pb, "3.95", "9.1487439e-07", &WANT, sigma, &rep, err,
                                  sizeof err);
    mpfi_clear(sigma);
    ul_deadline_clear();
    cr_assert_eq(st, UL_ETIME, "sigma search: status %d: %s", (int)st, err);
}

/* ---- (i) the printer of astronomically small values ----------------------- */

Test(fuzz_regressions, theta_of_a_hostile_r_prints_a_short_sound_enclosure, .timeout = 60)
{
    /* θ(5, 10^-10^6) <= exp(−(ε/r − r/2)²/2) (the Gaussian tail bound
     * Q(a) <= exp(−a²/2)), with log10 of it about −5.4·10^2000000, far below
     * 10^-(10^1023): so "0" and "1e-1" followed by 1023 zeros enclose it. */
    run_result r = run("calc", "theta", "--eps", "5", "--r", "1e-1000000", "--max-bits", "256",
                       "--json", NULL);
    cr_assert(r.status == 0 || r.status == 3, "exit %d: %s", r.status, r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o, "JSON on stdout: %.200s", r.out);
    cr_assert_str_eq(field(o, "lo"), "0");
    const char *hi = field(o, "hi");
    cr_assert_eq(strlen(hi), 4 + 1023, "hi has %zu characters", strlen(hi));
    cr_assert_eq(strncmp(hi, "1e-1", 4), 0, "%.40s", hi);
    cr_assert_eq(strspn(hi + 4, "0"), 1023u, "%.40s", hi);
    json_object_put(o);
    run_free(&r);
}
