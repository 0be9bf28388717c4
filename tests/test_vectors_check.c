/* tests/test_vectors_check.c — `ulaudit vectors check` (src/vectors/check.h)
 * against deliberately wrong implementations written here in C doubles.
 *
 * Each implementation is run on the inputs of a committed vector file
 * (vectors/<file>.csv: inputs only are read from it) and its values go to a
 * RESULTS file.  What each value should be called is decided here, without
 * the checker or the vectors' bounds, from the truth:
 *   θ      tests/oracle.c's log θ (series / continued fraction at 1200
 *          bits; no library code), and θ = max(0, 1 − e^ε) exactly at r = 0;
 *          θ > 0 for every r > 0 (two distinct Gaussians), so a 0 there is
 *          under the truth;
 *   σ, ε   the defining condition: σ is enough iff θ_{e^ε}(1/σ) ≤ δ, ε is
 *          enough iff θ_{e^ε}(r) ≤ δ (θ decreases in σ and in ε), by the
 *          oracle; values within 10^-9 of the boundary (in log θ) are not
 *          judged;
 *   ρ      the subsampled Gaussian's RDP at integer α by the full binomial
 *          sum in MPFR with exact binomials (Mironov, Talwar, Zhang 2019,
 *          §3.3).
 * A value is expected UNSAFE when it is below the truth (and is not the
 * correctly rounded normal double of the truth, which vectors/README.md
 * accepts), INVALID when NaN, infinite, negative or above 1 for a
 * probability, and never UNSAFE when it is at or above the truth.
 */
#include <criterion/criterion.h>
#include <float.h>
#include <gmp.h>
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SQRT2 1.41421356237309504880 /* √2 (SQRT2 is not C17) */

#include "cli_run.h"
#include "oracle.h"
#include "vectors/check.h"

static void setup(void)
{
    ul_num_init();
}

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(vectors_check, .init = setup, .fini = teardown);

/* ---- the committed vector files, read for their inputs --------------------------- */

#define MAXROWS 600
#define MAXCOLS 24

typedef struct {
    char *text;
    const char *names[MAXCOLS];
    const char *cells[MAXROWS][MAXCOLS];
    size_t rows, cols;
} vfile;

static size_t split_commas(char *line, const char **out)
{
    size_t n = 0;
    for (char *tok = strtok(line, ","); tok != NULL && n < MAXCOLS; tok = strtok(NULL, ","))
        out[n++] = tok;
    return n;
}

static void vfile_load(vfile *f, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "vectors/%s", name);
    FILE *fp = fopen(path, "rb");
    cr_assert(fp != NULL, "%s", path);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    rewind(fp);
    f->text = malloc((size_t)n + 1);
    cr_assert_eq(fread(f->text, 1, (size_t)n, fp), (size_t)n);
    f->text[n] = '\0';
    fclose(fp);
    char *save = NULL, *line = strtok_r(f->text, "\n", &save);
    f->cols = split_commas(line, f->names);
    f->rows = 0;
    while ((line = strtok_r(NULL, "\n", &save)) != NULL && f->rows < MAXROWS)
        cr_assert_eq(split_commas(line, f->cells[f->rows++]), f->cols);
}

static const char *vget(const vfile *f, size_t row, const char *name)
{
    for (size_t c = 0; c < f->cols; c++)
        if (strcmp(f->names[c], name) == 0)
            return f->cells[row][c];
    cr_assert_fail("no column %s", name);
    return NULL;
}

/* ---- RESULTS files ------------------------------------------------------------------ */

static char tmpdir[64];

static const char *results_path(void)
{
    static char path[128];
    if (tmpdir[0] == '\0') {
        snprintf(tmpdir, sizeof tmpdir, "/tmp/vchk-XXXXXX");
        cr_assert(mkdtemp(tmpdir) != NULL);
    }
    snprintf(path, sizeof path, "%s/results.csv", tmpdir);
    return path;
}

static FILE *results_open(const char *header)
{
    FILE *f = fopen(results_path(), "w");
    cr_assert(f != NULL);
    fprintf(f, "%s\n", header);
    return f;
}

/* A double as an implementation would print it (round-trip). */
static void put_double(FILE *f, double v)
{
    if (isnan(v))
        fprintf(f, "nan");
    else if (isinf(v))
        fprintf(f, "%s", v > 0 ? "inf" : "-inf");
    else
        fprintf(f, "%.17g", v);
}

static void results_done(void)
{
    (void)unlink(results_path());
    (void)rmdir(tmpdir);
    tmpdir[0] = '\0';
}

/* ---- what a value should be called ----------------------------------------------------- */

typedef enum { EXPECT_UNSAFE, EXPECT_NOT_UNSAFE, EXPECT_INVALID, EXPECT_UNJUDGED } expect;

/* NaN, infinite, negative, above 1 (probability). */
static bool invalid_value(double v, bool probability)
{
    return isnan(v) || isinf(v) || v < 0 || (probability && v > 1);
}

/* v against the truth whose log is L (1200 bits): below it, and not the
 * correctly rounded normal double of it. */
static expect against_log_truth(double v, mpfr_srcptr L)
{
    if (v == 0)
        return mpfr_inf_p(L) && mpfr_sgn(L) < 0 ? EXPECT_NOT_UNSAFE : EXPECT_UNSAFE;
    mpfr_t lv, t;
    mpfr_inits2(ORACLE_BITS, lv, t, (mpfr_ptr)0);
    mpfr_set_d(lv, v, MPFR_RNDN); /* exact */
    mpfr_log(lv, lv, MPFR_RNDN);
    expect e = mpfr_less_p(lv, L) ? EXPECT_UNSAFE : EXPECT_NOT_UNSAFE;
    if (e == EXPECT_UNSAFE && mpfr_cmp_d(L, log(DBL_MIN)) > 0) {
        mpfr_exp(t, L, MPFR_RNDN);
        if (mpfr_get_d(t, MPFR_RNDN) == v)
            e = EXPECT_NOT_UNSAFE; /* the correctly rounded double: accepted */
    }
    mpfr_clears(lv, t, (mpfr_ptr)0);
    return e;
}

/* θ_{e^ε}(r) at the decimal inputs: log θ into L (−inf for θ = 0). */
static void log_theta_truth(mpfr_ptr L, const char *eps, const char *r)
{
    if (strcmp(r, "0") == 0) { /* θ = max(0, 1 − e^ε) exactly */
        mpfr_t e;
        mpfr_init2(e, ORACLE_BITS);
        mpfr_set_str(e, eps, 10, MPFR_RNDN);
        if (mpfr_sgn(e) >= 0) {
            mpfr_set_inf(L, -1);
        } else {
            mpfr_expm1(e, e, MPFR_RNDN);
            mpfr_neg(e, e, MPFR_RNDN);
            mpfr_log(L, e, MPFR_RNDN);
        }
        mpfr_clear(e);
        return;
    }
    oracle_log_theta_str(L, eps, r);
}

/* An inverse's value v (σ or ε) is enough iff log θ at it ≤ log δ. */
static expect inverse_truth(double v, mpfr_srcptr log_theta_at_v, const char *delta)
{
    if (isnan(v) || isinf(v) || v < 0)
        return EXPECT_INVALID;
    mpfr_t ld, gap;
    mpfr_inits2(ORACLE_BITS, ld, gap, (mpfr_ptr)0);
    mpfr_set_str(ld, delta, 10, MPFR_RNDN);
    mpfr_log(ld, ld, MPFR_RNDN);
    mpfr_sub(gap, log_theta_at_v, ld, MPFR_RNDN);
    double g = mpfr_get_d(gap, MPFR_RNDN), scale = fmax(1, fabs(mpfr_get_d(ld, MPFR_RNDN)));
    mpfr_clears(ld, gap, (mpfr_ptr)0);
    if (fabs(g) < 1e-9 * scale)
        return EXPECT_UNJUDGED; /* at the boundary: the checker's rounding rule decides */
    return g > 0 ? EXPECT_UNSAFE : EXPECT_NOT_UNSAFE;
}

/* Runs the checker on the RESULTS file and asserts every expectation (one
 * per row, of quantity 0); returns the number of UNSAFE and INVALID cells
 * expected, and fills counts with the checker's classes. */
static size_t check_expectations(const char *family, const expect *want, size_t rows,
                                 size_t counts[UL_VCHK_NCLASS])
{
    ul_vchk_result r;
    char err[1024];
    cr_assert_eq(ul_vchk_run(family, results_path(), &r, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(r.nrows, rows);
    size_t planted = 0;
    for (size_t i = 0; i < rows; i++) {
        ul_vchk_class got = r.cells[i * r.nq].cls;
        const char *what = r.cells[i * r.nq].text;
        switch (want[i]) {
        case EXPECT_UNSAFE:
            planted++;
            cr_assert_eq(got, UL_VCHK_UNSAFE, "line %zu: %s under the truth, called %s",
                         r.line[i], what, ul_vchk_class_name(got));
            break;
        case EXPECT_INVALID:
            planted++;
            cr_assert_eq(got, UL_VCHK_INVALID, "line %zu: %s called %s", r.line[i], what,
                         ul_vchk_class_name(got));
            break;
        case EXPECT_NOT_UNSAFE:
            cr_assert(got == UL_VCHK_EXACT || got == UL_VCHK_SAFE,
                      "line %zu: %s at or above the truth, called %s", r.line[i], what,
                      ul_vchk_class_name(got));
            break;
        case EXPECT_UNJUDGED:
            break;
        }
    }
    for (int c = 0; c < UL_VCHK_NCLASS; c++)
        counts[c] = r.q[0].count[c];
    cr_log_info("%s: exact %zu, safe-inaccurate %zu, unsafe %zu, invalid %zu", family,
                counts[0], counts[1], counts[2], counts[3]);
    ul_vchk_free(&r);
    return planted;
}

/* ---- the wrong implementations ------------------------------------------------------------- */

/* θ = Q(ε/r − r/2) − e^ε·Q(ε/r + r/2) with Q(x) = (1 − erf(x/√2))/2: the
 * subtraction from 1 loses everything past x ≈ 8 (Q = 0) and the
 * difference cancels. */
static double theta_one_minus_erf(double eps, double r)
{
    double a = eps / r - r / 2, b = eps / r + r / 2;
    return 0.5 * (1 - erf(a / SQRT2)) - exp(eps) * 0.5 * (1 - erf(b / SQRT2));
}

/* The same in float with erfc: underflow below 1e-38, 7 digits. */
static double theta_float(double eps, double r)
{
    float e = (float)eps, rf = (float)r;
    float a = e / rf - rf / 2, b = e / rf + rf / 2;
    return (double)(0.5f * erfcf(a / (float)SQRT2) - expf(e) * 0.5f * erfcf(b / (float)SQRT2));
}

/* θ for the bisection below, in double with erfc. */
static double theta_erfc(double eps, double r)
{
    double a = eps / r - r / 2, b = eps / r + r / 2;
    return 0.5 * erfc(a / SQRT2) - exp(eps) * 0.5 * erfc(b / SQRT2);
}

/* The smallest ε with θ ≤ δ by bisection to 10^-3, returning the lower end
 * of the bracket: the side where θ > δ. */
static double eps_loose_bisection(double r, double delta)
{
    if (theta_erfc(0, r) <= delta)
        return 0;
    double lo = 0, hi = 1;
    while (theta_erfc(hi, r) > delta && hi < 1e6)
        hi *= 2;
    while (hi - lo > 1e-3) {
        double mid = (lo + hi) / 2;
        if (theta_erfc(mid, r) > delta)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The subsampled Gaussian's RDP at integer α, the binomial sum
 * Σ_k C(α,k)(1−q)^{α−k} q^k e^{(k²−k)/(2σ²)} (Mironov, Talwar, Zhang 2019,
 * §3.3) truncated after k = 2: every dropped term is positive. */
static double sgm_rdp_truncated(double q, double sigma, unsigned alpha)
{
    double sum = 0, binom = 1;
    for (unsigned k = 0; k <= 2 && k <= alpha; k++) {
        sum += binom * pow(1 - q, alpha - k) * pow(q, k) * exp((k * k - k) / (2 * sigma * sigma));
        binom = binom * (alpha - k) / (k + 1);
    }
    return log(sum) / (alpha - 1);
}

/* The full sum in MPFR, exact binomials: log A_α/(α − 1). */
static void sgm_rdp_truth(mpfr_ptr out, const char *q, const char *sigma, unsigned alpha)
{
    mpfr_t qq, s2, term, sum, x;
    mpz_t b;
    mpfr_inits2(ORACLE_BITS, qq, s2, term, sum, x, (mpfr_ptr)0);
    mpz_init(b);
    mpfr_set_str(qq, q, 10, MPFR_RNDN);
    mpfr_set_str(s2, sigma, 10, MPFR_RNDN);
    mpfr_sqr(s2, s2, MPFR_RNDN);
    mpfr_set_zero(sum, 1);
    for (unsigned k = 0; k <= alpha; k++) {
        mpz_bin_uiui(b, alpha, k);
        mpfr_set_z(term, b, MPFR_RNDN);
        mpfr_ui_sub(x, 1, qq, MPFR_RNDN);
        mpfr_pow_ui(x, x, alpha - k, MPFR_RNDN);
        mpfr_mul(term, term, x, MPFR_RNDN);
        mpfr_pow_ui(x, qq, k, MPFR_RNDN);
        mpfr_mul(term, term, x, MPFR_RNDN);
        mpfr_set_ui(x, (unsigned long)k * k - k, MPFR_RNDN);
        mpfr_div(x, x, s2, MPFR_RNDN);
        mpfr_div_2ui(x, x, 1, MPFR_RNDN);
        mpfr_exp(x, x, MPFR_RNDN);
        mpfr_mul(term, term, x, MPFR_RNDN);
        mpfr_add(sum, sum, term, MPFR_RNDN);
    }
    mpfr_log(out, sum, MPFR_RNDN);
    mpfr_div_ui(out, out, alpha - 1, MPFR_RNDN);
    mpfr_clears(qq, s2, term, sum, x, (mpfr_ptr)0);
    mpz_clear(b);
}

/* ---- θ ------------------------------------------------------------------------------------- */

/* Every θ row through impl; asserts the checker's classes; the counts. */
static size_t theta_run(double (*impl)(double, double), size_t counts[UL_VCHK_NCLASS])
{
    vfile f;
    vfile_load(&f, "theta.csv");
    FILE *out = results_open("eps,r,theta");
    expect *want = calloc(f.rows, sizeof *want);
    mpfr_t L;
    mpfr_init2(L, ORACLE_BITS);
    for (size_t i = 0; i < f.rows; i++) {
        const char *eps = vget(&f, i, "eps"), *r = vget(&f, i, "r");
        double v = impl(strtod(eps, NULL), strtod(r, NULL));
        fprintf(out, "%s,%s,", eps, r);
        put_double(out, v);
        fprintf(out, "\n");
        if (invalid_value(v, true)) {
            want[i] = EXPECT_INVALID;
        } else {
            log_theta_truth(L, eps, r);
            want[i] = against_log_truth(v, L);
        }
    }
    fclose(out);
    mpfr_clear(L);
    size_t planted = check_expectations("theta", want, f.rows, counts);
    free(want);
    free(f.text);
    results_done();
    return planted;
}

Test(vectors_check, theta_one_minus_erf_every_planted_unsafe_row_found)
{
    size_t counts[UL_VCHK_NCLASS];
    size_t planted = theta_run(theta_one_minus_erf, counts);
    cr_assert_gt(counts[UL_VCHK_UNSAFE], 20, "the cancellation must show in the tail");
    cr_assert_eq(counts[UL_VCHK_UNSAFE] + counts[UL_VCHK_INVALID], planted);
}

Test(vectors_check, theta_in_float_every_planted_unsafe_row_found)
{
    size_t counts[UL_VCHK_NCLASS];
    size_t planted = theta_run(theta_float, counts);
    cr_assert_gt(counts[UL_VCHK_UNSAFE], 20);
    cr_assert_eq(counts[UL_VCHK_UNSAFE] + counts[UL_VCHK_INVALID], planted);
}

/* ---- the inverses ------------------------------------------------------------------------------ */

Test(vectors_check, classic_sigma_rule_unsafe_where_theta_exceeds_delta)
{
    vfile f;
    vfile_load(&f, "gauss_sigma.csv");
    FILE *out = results_open("eps,delta,sigma");
    expect want[MAXROWS];
    mpfr_t L, eps, r;
    mpfr_inits2(ORACLE_BITS, L, eps, r, (mpfr_ptr)0);
    for (size_t i = 0; i < f.rows; i++) {
        const char *e = vget(&f, i, "eps"), *d = vget(&f, i, "delta");
        /* Dwork & Roth 2014, Thm A.1: σ = √(2 ln(1.25/δ))/ε, proved for ε < 1 only */
        double v = sqrt(2 * log(1.25 / strtod(d, NULL))) / strtod(e, NULL);
        fprintf(out, "%s,%s,", e, d);
        put_double(out, v);
        fprintf(out, "\n");
        want[i] = EXPECT_INVALID;
        if (!invalid_value(v, false)) {
            mpfr_set_str(eps, e, 10, MPFR_RNDN);
            mpfr_set_d(r, v, MPFR_RNDN);
            mpfr_ui_div(r, 1, r, MPFR_RNDN); /* r = Δ/σ, Δ = 1 */
            oracle_log_theta(L, eps, r);
            want[i] = inverse_truth(v, L, d);
        }
    }
    fclose(out);
    size_t counts[UL_VCHK_NCLASS];
    size_t planted = check_expectations("gauss-sigma", want, f.rows, counts);
    cr_assert_gt(counts[UL_VCHK_UNSAFE], 0, "the rule is unsafe at large eps");
    cr_assert_eq(counts[UL_VCHK_UNSAFE] + counts[UL_VCHK_INVALID], planted);
    mpfr_clears(L, eps, r, (mpfr_ptr)0);
    free(f.text);
    results_done();
}

Test(vectors_check, loose_bisection_stopping_on_the_unsafe_side_is_found)
{
    vfile f;
    vfile_load(&f, "gauss_eps.csv");
    FILE *out = results_open("r,delta,eps");
    expect want[MAXROWS];
    mpfr_t L, eps, r;
    mpfr_inits2(ORACLE_BITS, L, eps, r, (mpfr_ptr)0);
    for (size_t i = 0; i < f.rows; i++) {
        const char *rt = vget(&f, i, "r"), *d = vget(&f, i, "delta");
        double v = eps_loose_bisection(strtod(rt, NULL), strtod(d, NULL));
        fprintf(out, "%s,%s,", rt, d);
        put_double(out, v);
        fprintf(out, "\n");
        mpfr_set_d(eps, v, MPFR_RNDN);
        mpfr_set_str(r, rt, 10, MPFR_RNDN);
        oracle_log_theta(L, eps, r);
        want[i] = inverse_truth(v, L, d);
    }
    fclose(out);
    size_t counts[UL_VCHK_NCLASS];
    size_t planted = check_expectations("gauss-eps", want, f.rows, counts);
    cr_assert_gt(counts[UL_VCHK_UNSAFE], 10);
    cr_assert_eq(counts[UL_VCHK_UNSAFE] + counts[UL_VCHK_INVALID], planted);
    mpfr_clears(L, eps, r, (mpfr_ptr)0);
    free(f.text);
    results_done();
}

/* ---- RDP ----------------------------------------------------------------------------------------- */

Test(vectors_check, truncated_rdp_series_under_states_rho)
{
    vfile f;
    vfile_load(&f, "sgm_rdp.csv");
    FILE *out = results_open("q,sigma,alpha,rdp");
    expect want[MAXROWS];
    size_t rows = 0;
    mpfr_t L, truth;
    mpfr_inits2(ORACLE_BITS, L, truth, (mpfr_ptr)0);
    for (size_t i = 0; i < f.rows; i++) {
        const char *q = vget(&f, i, "q"), *s = vget(&f, i, "sigma"), *a = vget(&f, i, "alpha");
        if (strchr(a, '.') != NULL)
            continue; /* integer orders: the binomial sum */
        unsigned alpha = (unsigned)strtoul(a, NULL, 10);
        double v = sgm_rdp_truncated(strtod(q, NULL), strtod(s, NULL), alpha);
        fprintf(out, "%s,%s,%s,", q, s, a);
        put_double(out, v);
        fprintf(out, "\n");
        if (invalid_value(v, false)) {
            want[rows++] = EXPECT_INVALID;
            continue;
        }
        sgm_rdp_truth(truth, q, s, alpha);
        if (v <= 0 || mpfr_sgn(truth) <= 0) {
            want[rows++] = v < mpfr_get_d(truth, MPFR_RNDD) ? EXPECT_UNSAFE : EXPECT_UNJUDGED;
            continue;
        }
        mpfr_log(L, truth, MPFR_RNDN);
        want[rows++] = against_log_truth(v, L);
    }
    fclose(out);
    size_t counts[UL_VCHK_NCLASS];
    size_t planted = check_expectations("sgm-rdp", want, rows, counts);
    cr_assert_gt(counts[UL_VCHK_UNSAFE] + counts[UL_VCHK_INVALID], 20);
    cr_assert_eq(counts[UL_VCHK_UNSAFE] + counts[UL_VCHK_INVALID], planted);
    mpfr_clears(L, truth, (mpfr_ptr)0);
    free(f.text);
    results_done();
}

/* ---- exact, invalid, on the fly, bad input (through the command) ------------------------------------ */

static json_object *run_json(const char *family, int want_status)
{
    run_result r = run("vectors", "check", "--family", family, results_path(), "--json", NULL);
    cr_assert_eq(r.status, want_status, "exit %d; stderr: %s", r.status, r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert(o != NULL, "%s", r.out);
    run_free(&r);
    return o;
}

static int64_t count_of(json_object *o, size_t q, const char *cls)
{
    json_object *qs, *c, *n;
    cr_assert(json_object_object_get_ex(o, "quantities", &qs));
    cr_assert(json_object_object_get_ex(json_object_array_get_idx(qs, q), "counts", &c));
    cr_assert(json_object_object_get_ex(c, cls, &n), "%s", cls);
    return json_object_get_int64(n);
}

/* The vectors' own correctly rounded doubles, where they are normal (flag
 * ok): a perfect double implementation; exit 0, every value exact. */
Test(vectors_check, correctly_rounded_doubles_are_all_exact)
{
    vfile f;
    vfile_load(&f, "theta.csv");
    FILE *out = results_open("eps,r,theta,log_theta");
    int64_t rows = 0;
    for (size_t i = 0; i < f.rows; i++) {
        if (strcmp(vget(&f, i, "theta_flag"), "ok") != 0 ||
            strcmp(vget(&f, i, "log_theta_flag"), "ok") != 0)
            continue;
        fprintf(out, "%s,%s,%s,%s\n", vget(&f, i, "eps"), vget(&f, i, "r"),
                vget(&f, i, "theta_double"), vget(&f, i, "log_theta_double"));
        rows++;
    }
    fclose(out);
    json_object *o = run_json("theta", 0);
    cr_assert_eq(count_of(o, 0, "exact"), rows);
    cr_assert_eq(count_of(o, 1, "exact"), rows);
    json_object_put(o);
    free(f.text);
    results_done();
}

/* A double that underflowed to 0 (flag zero) is the correctly rounded
 * double, yet under a positive θ: unsafe; a positive double above the
 * tiny θ = 1.8e-2171472409516259138255427484 (beyond any MPFR exponent)
 * is safe; a value just under a normal θ within its stated tolerance is
 * marked so and stays unsafe. */
Test(vectors_check, underflow_is_unsafe_and_tolerance_does_not_excuse)
{
    FILE *out = results_open("eps,r,theta,tolerance");
    fprintf(out, "38.5,1,0,1e-15\n");        /* θ ≈ 1e-323 by the oracle: 0 is under it */
    fprintf(out, "1e6,1e-8,0,1e-15\n");      /* θ > 0 */
    fprintf(out, "1e6,1e-8,5e-324,1e-15\n"); /* above any such θ */
    /* θ_e(1) = 0.126936737506643945800829624757… (the oracle, below): one part in 10^14 under */
    fprintf(out, "1,1,0.12693673750664,1e-12\n");
    fclose(out);
    mpfr_t L;
    mpfr_init2(L, ORACLE_BITS);
    oracle_log_theta_str(L, "1", "1");
    cr_assert(against_log_truth(0.12693673750664, L) == EXPECT_UNSAFE);
    mpfr_clear(L);
    ul_vchk_result r;
    char err[512];
    cr_assert_eq(ul_vchk_run("theta", results_path(), &r, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(r.cells[0].cls, UL_VCHK_UNSAFE);
    cr_assert_eq(r.cells[1].cls, UL_VCHK_UNSAFE);
    cr_assert_eq(r.cells[2].cls, UL_VCHK_SAFE);
    cr_assert_eq(r.cells[3].cls, UL_VCHK_UNSAFE);
    cr_assert(r.cells[3].within_tolerance);
    cr_assert(!r.cells[0].within_tolerance && !r.cells[1].within_tolerance);
    cr_assert(ul_vchk_failed(&r));
    ul_vchk_free(&r);
    results_done();
}

Test(vectors_check, nan_negative_above_one_empty_infinite_are_invalid)
{
    FILE *out = results_open("eps,r,theta");
    fprintf(out, "1,1,nan\n1,0.5,-1e-3\n1,2,1.5\n1,5,\n1,10,inf\n");
    fclose(out);
    json_object *o = run_json("theta", 1);
    cr_assert_eq(count_of(o, 0, "invalid"), 5);
    json_object_put(o);
    results_done();
}

/* Inputs not in the vectors: computed on the fly for theta (the value is
 * the oracle's θ correctly rounded: exact; 1% under it: unsafe), and
 * unmatched for a family of fixed settings (exit 3). */
Test(vectors_check, rows_outside_the_vectors_computed_or_unmatched)
{
    mpfr_t L;
    mpfr_init2(L, ORACLE_BITS);
    oracle_log_theta_str(L, "0.3", "0.7");
    mpfr_exp(L, L, MPFR_RNDN);
    double t = mpfr_get_d(L, MPFR_RNDN);
    mpfr_clear(L);
    FILE *out = results_open("eps,r,theta");
    fprintf(out, "0.3,0.7,%.17g\n0.3,0.75,%.17g\n", t, 0.0);
    fclose(out);
    ul_vchk_result r;
    char err[512];
    cr_assert_eq(ul_vchk_run("theta", results_path(), &r, err, sizeof err), UL_OK, "%s", err);
    cr_assert_eq(r.computed, 2);
    cr_assert_eq(r.cells[0].cls, UL_VCHK_EXACT);
    cr_assert_eq(r.cells[1].cls, UL_VCHK_UNSAFE);
    ul_vchk_free(&r);
    out = results_open("r,q,steps,eps,rel_width,delta");
    fprintf(out, "0.123,1,1,1,1e-3,0.5\n");
    fclose(out);
    json_object *o = run_json("pld", 3);
    cr_assert_eq(count_of(o, 0, "unmatched"), 1);
    json_object_put(o);
    results_done();
}

static void bad(const char *family, const char *text, const char *must_mention)
{
    FILE *out = results_open(text);
    fclose(out);
    expect_usage_error(must_mention,
                       run("vectors", "check", "--family", family, results_path(), NULL));
    results_done();
}

Test(vectors_check, bad_input_exits_2_naming_the_problem)
{
    bad("thta", "eps,r,theta\n1,1,0.1", "did you mean 'theta'");
    bad("theta", "eps,theta\n1,0.1", "missing input column 'r'");
    bad("theta", "eps,r\n1,1", "no output column");
    bad("theta", "eps,r,theta,theta\n1,1,0.1,0.1", "column 'theta' given twice");
    bad("theta", "eps,r,thetta\n1,1,0.1", "did you mean 'theta'");
    bad("theta", "eps,r,theta\n1,1,0x1p-3", "line 2, column 'theta': not a number");
    bad("theta", "eps,r,theta,tolerance\n1,1,0.1,-1", "column 'tolerance'");
    bad("theta", "eps,r,theta\n1,1", "line 2: 2 cells");
    bad("theta", "eps,r,theta\nabc,1,0.1", "line 2");
}
