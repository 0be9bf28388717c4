/* tests/test_digits.c — every printed enclosure is a whole number at the
 * largest --digits (issue 12, item 1: lo/hi were cut at 96 characters,
 * without exponent, lo == hi).
 *
 * Every calc quantity and one certificate of every audit method (audits/)
 * run through the CLI in text and in --json mode.  Every printed lo/hi (and
 * every "[lo, hi]" pair inside the report's sentences) must parse fully with
 * mpfr_strtofr, carry an exponent, and satisfy lo <= hi; calc's lo/hi and
 * the audit's recomputed and other_variant must have exactly the digits
 * asked (would_reach holds some search results labelled with digits of
 * their own); numbers quoted in sentences may have fewer (the explanation
 * then says so).  Where an independent value is cheap, lo <=
 * value <= hi is checked against it, computed here in plain MPFR at 24000
 * bits from a formula other than the library's.
 *
 * --digits is 5000 (the largest allowed, src/cli/args.c) where the quantity
 * is fast; the inverses (a certified bisection: its cost grows about as the
 * cube of the digits; gauss-sigma takes over 10 minutes at 5000) and the
 * slowest audits use a smaller value that is still past the old 96-character
 * fields (see DIGITS_* below); langevin-sigma runs at 40 digits (its
 * certified search takes seconds at 60 under ASan). */
#include <criterion/criterion.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit/audit.h"
#include "cli_run.h"
#include "oracle.h"

#define BITS 24000 /* about 7200 digits: far below 10^-5000 relative */

#define DIGITS_MAX "5000"
#define DIGITS_INVERSE "150"
#define DIGITS_LANGEVIN "40"

/* ---- reading the printed numbers ---------------------------------------------- */

/* Parses a printed bound: the whole text must be a number, with an exponent
 * ("d.ddd…e±X") unless it is "0", "inf" or "-inf"; returns its significant
 * digit count (0 for those three). */
static int parse_bound(mpfr_ptr x, const char *text, const char *what)
{
    cr_assert_not_null(text, "%s: missing", what);
    char *end;
    mpfr_strtofr(x, text, &end, 10, MPFR_RNDN);
    cr_assert(*text != '\0' && *end == '\0', "%s: '%.60s…' is not a whole number", what, text);
    if (strcmp(text, "0") == 0 || strcmp(text, "inf") == 0 || strcmp(text, "-inf") == 0)
        return 0;
    if (strspn(text, "0123456789") == strlen(text))
        return 0; /* a whole number (steps, K, T): exact, no exponent needed */
    const char *e = strchr(text, 'e');
    cr_assert(e != NULL && (e[1] == '+' || e[1] == '-') && e[2] != '\0',
              "%s: '%.60s…' has no exponent", what, text);
    int digits = 0;
    for (const char *p = text; p < e; p++)
        digits += *p >= '0' && *p <= '9';
    return digits;
}

/* lo and hi are whole numbers with lo <= hi; want_digits > 0: each has
 * exactly that many significant digits.  x, when not NULL, receives [lo, hi]. */
static void check_pair(const char *lo, const char *hi, int want_digits, const char *what,
                       mpfr_ptr x_lo, mpfr_ptr x_hi)
{
    mpfr_t a, b;
    mpfr_inits2(BITS, a, b, (mpfr_ptr)0);
    int da = parse_bound(a, lo, what), db = parse_bound(b, hi, what);
    cr_assert(mpfr_lessequal_p(a, b), "%s: lo %.40s… > hi %.40s…", what, lo, hi);
    if (want_digits > 0) {
        cr_assert(da == 0 || da == want_digits, "%s: lo has %d digits, %d asked", what, da,
                  want_digits);
        cr_assert(db == 0 || db == want_digits, "%s: hi has %d digits, %d asked", what, db,
                  want_digits);
    }
    if (x_lo != NULL) {
        mpfr_set(x_lo, a, MPFR_RNDN);
        mpfr_set(x_hi, b, MPFR_RNDN);
    }
    mpfr_clears(a, b, (mpfr_ptr)0);
}

/* Every "[A, B]" after the word "in" in text (the report's sentences:
 * margin, explanation, first wrong stated; the text report may wrap between
 * "in" and "[" and between A and B) is a pair of whole numbers with A <= B.
 * Returns how many. */
static int check_sentences(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = strchr(text, '['); p != NULL; p = strchr(p + 1, '[')) {
        const char *w = p;
        while (w > text && (w[-1] == ' ' || w[-1] == '\n'))
            w--;
        if (w - text < 3 || strncmp(w - 3, " in", 3) != 0)
            continue;
        const char *a = p + 1, *comma = strchr(a, ',');
        if (comma == NULL)
            break;
        const char *b = comma + 1;
        while (*b == ' ' || *b == '\n')
            b++;
        const char *close = strchr(b, ']');
        if (close == NULL)
            break;
        char *lo = strndup(a, (size_t)(comma - a)), *hi = strndup(b, (size_t)(close - b));
        /* only numeric pairs ("in [1, 2]"), not prose in brackets */
        if ((lo[0] >= '0' && lo[0] <= '9') || lo[0] == '-') {
            check_pair(lo, hi, 0, what, NULL, NULL);
            n++;
        }
        free(lo);
        free(hi);
    }
    return n;
}

/* The value after "  lo      " / "  hi      " in calc's text report. */
static char *text_line(const char *out, const char *name)
{
    char tag[32];
    snprintf(tag, sizeof tag, "\n  %-7s ", name);
    const char *p = strstr(out, tag);
    cr_assert_not_null(p, "text report without a '%s' line:\n%.300s", name, out);
    p += strlen(tag);
    return strndup(p, strcspn(p, "\n"));
}

/* ---- independent values ----------------------------------------------------------- */

/* theta_{e^eps}(r) at eps = 1/2, r = 1 (a = eps/r - r/2 = 0, b = 1):
 * theta = Q(0) - e^(1/2) Q(1) (Balle & Wang 2018, Thm 8) with
 * Phi(x) = 1/2 + phi(x) sum_{n>=0} x^(2n+1)/(2n+1)!! (Abramowitz & Stegun
 * 26.2.11), so theta = (1 - sqrt(e))/2 + S/sqrt(2 pi), S = sum 1/(2n+1)!!. */
static void theta_half_one(mpfr_ptr out)
{
    mpfr_t s, term, t;
    mpfr_inits2(BITS + 64, s, term, t, (mpfr_ptr)0);
    mpfr_set_ui(s, 0, MPFR_RNDN);
    mpfr_set_ui(term, 1, MPFR_RNDN);
    for (unsigned long k = 1; mpfr_get_exp(term) > -(mpfr_exp_t)BITS - 64; k += 2) {
        mpfr_div_ui(term, term, k, MPFR_RNDN); /* 1/(2n+1)!! */
        mpfr_add(s, s, term, MPFR_RNDN);
    }
    mpfr_const_pi(t, MPFR_RNDN);
    mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
    mpfr_sqrt(t, t, MPFR_RNDN);
    mpfr_div(s, s, t, MPFR_RNDN);
    mpfr_set_ui(t, 1, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_sqrt(t, t, MPFR_RNDN);
    mpfr_ui_sub(t, 1, t, MPFR_RNDN);
    mpfr_div_2ui(t, t, 1, MPFR_RNDN);
    mpfr_add(out, s, t, MPFR_RNDN);
    mpfr_clears(s, term, t, (mpfr_ptr)0);
}

/* delta_0 * theta^2 for two product steps at eps = 1/2, r = 1, delta_0 = 0.1
 * (docs/neural-unlearning.md, "Model clipping", product form). */
static void contraction_two_steps(mpfr_ptr out)
{
    theta_half_one(out);
    mpfr_sqr(out, out, MPFR_RNDN);
    mpfr_div_ui(out, out, 10, MPFR_RNDN);
}

/* Mironov 2017, Prop. 3: eps = rdp + log(1/delta)/(alpha - 1) at alpha = 32,
 * rdp = 1/2, delta = 1e-5: 1/2 + 5 ln(10)/31. */
static void mironov_point(mpfr_ptr out)
{
    mpfr_set_ui(out, 10, MPFR_RNDN);
    mpfr_log(out, out, MPFR_RNDN);
    mpfr_mul_ui(out, out, 5, MPFR_RNDN);
    mpfr_div_ui(out, out, 31, MPFR_RNDN);
    mpfr_add_d(out, out, 0.5, MPFR_RNDN);
}

/* RDP of the Poisson-subsampled Gaussian at integer alpha (Mironov, Talwar &
 * Zhang 2019, Sec. 3.3): 1/(alpha-1) log sum_k C(alpha,k) (1-q)^(alpha-k)
 * q^k exp((k^2 - k)/(2 sigma^2)), at q = 0.01, sigma = 1.1, alpha = 8. */
static void sgm_rdp_q001_s11_a8(mpfr_ptr out)
{
    mpfr_t q, p, s2, sum, term, t;
    mpfr_inits2(BITS + 64, q, p, s2, sum, term, t, (mpfr_ptr)0);
    mpfr_set_str(q, "0.01", 10, MPFR_RNDN);
    mpfr_ui_sub(p, 1, q, MPFR_RNDN);
    mpfr_set_str(s2, "2.42", 10, MPFR_RNDN); /* 2 sigma^2 */
    mpfr_set_ui(sum, 0, MPFR_RNDN);
    unsigned long binom = 1;
    for (unsigned long k = 0; k <= 8; k++) {
        mpfr_pow_ui(term, p, 8 - k, MPFR_RNDN);
        mpfr_pow_ui(t, q, k, MPFR_RNDN);
        mpfr_mul(term, term, t, MPFR_RNDN);
        mpfr_set_ui(t, k * k - k, MPFR_RNDN);
        mpfr_div(t, t, s2, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_mul(term, term, t, MPFR_RNDN);
        mpfr_mul_ui(term, term, binom, MPFR_RNDN);
        mpfr_add(sum, sum, term, MPFR_RNDN);
        binom = binom * (8 - k) / (k + 1);
    }
    mpfr_log(out, sum, MPFR_RNDN);
    mpfr_div_ui(out, out, 7, MPFR_RNDN);
    mpfr_clears(q, p, s2, sum, term, t, (mpfr_ptr)0);
}

/* ---- calc ------------------------------------------------------------------------- */

typedef struct {
    const char *digits;
    const char *args[24]; /* after "calc", NULL-terminated */
    const char *bounds;   /* JSON object holding lo/hi: "" (top level), a key, or NULL */
    const char *extra;    /* a second {lo, hi} object, or NULL */
    void (*oracle)(mpfr_ptr out);
} calc_case;

static run_result run_calc(const calc_case *c, bool json)
{
    const char *a[32];
    int n = 0;
    a[n++] = "calc";
    for (int i = 0; c->args[i] != NULL; i++)
        a[n++] = c->args[i];
    a[n++] = "--digits";
    a[n++] = c->digits;
    if (json)
        a[n++] = "--json";
    while (n < 32)
        a[n++] = NULL;
    return run(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12],
               a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24],
               a[25], a[26], a[27], a[28], a[29], NULL);
}

static void check_lo_hi_object(json_object *o, int want, const calc_case *c, const char *what,
                               bool oracle)
{
    mpfr_t lo, hi, v;
    mpfr_inits2(BITS, lo, hi, v, (mpfr_ptr)0);
    check_pair(field(o, "lo"), field(o, "hi"), want, what, lo, hi);
    if (oracle && c->oracle != NULL) {
        c->oracle(v);
        cr_assert(mpfr_lessequal_p(lo, v) && mpfr_lessequal_p(v, hi),
                  "%s: the independent value is outside [lo, hi]", what);
    }
    mpfr_clears(lo, hi, v, (mpfr_ptr)0);
}

static void check_calc(const calc_case *c)
{
    int want = atoi(c->digits);
    if (strcmp(c->args[0], "pld-compose") == 0)
        want = 17; /* a bracket set by --rel-width: printed with at most 17 digits */
    run_result r = run_calc(c, true);
    cr_assert(r.status == 0, "calc %s --digits %s: exit %d: %s", c->args[0], c->digits, r.status,
              r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o, "calc %s: not JSON", c->args[0]);
    if (c->bounds != NULL) {
        json_object *b = o;
        if (c->bounds[0] != '\0')
            cr_assert(json_object_object_get_ex(o, c->bounds, &b), "no '%s'", c->bounds);
        check_lo_hi_object(b, want, c, c->args[0], true);
    }
    json_object *x;
    if (c->extra != NULL && json_object_object_get_ex(o, c->extra, &x))
        check_lo_hi_object(x, want, c, c->extra, false);
    json_object_put(o);
    run_free(&r);

    r = run_calc(c, false);
    cr_assert(r.status == 0, "calc %s (text): exit %d: %s", c->args[0], r.status, r.err);
    if (c->bounds != NULL && c->bounds[0] == '\0') {
        char *lo = text_line(r.out, "lo"), *hi = text_line(r.out, "hi");
        mpfr_t a, b, v;
        mpfr_inits2(BITS, a, b, v, (mpfr_ptr)0);
        check_pair(lo, hi, want, c->args[0], a, b);
        if (c->oracle != NULL) {
            c->oracle(v);
            cr_assert(mpfr_lessequal_p(a, v) && mpfr_lessequal_p(v, b),
                      "%s (text): the independent value is outside [lo, hi]", c->args[0]);
        }
        mpfr_clears(a, b, v, (mpfr_ptr)0);
        free(lo);
        free(hi);
    }
    run_free(&r);
}

static const calc_case CALC[] = {
    {DIGITS_MAX, {"theta", "--eps", "0.5", "--r", "1", NULL}, "", "loose_bound", theta_half_one},
    {DIGITS_INVERSE,
     {"gauss-sigma", "--eps", "1", "--delta", "1e-5", "--sensitivity", "2", NULL},
     "",
     NULL,
     NULL},
    {DIGITS_INVERSE, {"gauss-eps", "--r", "0.5", "--delta", "1e-5", NULL}, "", NULL, NULL},
    {DIGITS_MAX,
     {"contraction", "--eps", "0.5", "--r", "1", "--steps", "2", "--delta0", "0.1", NULL},
     "",
     NULL,
     contraction_two_steps},
    {"300",
     {"contraction", "--eps", "1", "--r", "2", "--steps", "10", "--delta0", "0.1", "--mode",
      "adaptive", NULL},
     "",
     NULL,
     NULL},
    {DIGITS_MAX,
     {"contraction-steps", "--eps", "1", "--r", "1.5", "--delta", "1e-6", "--mode", "adaptive",
      NULL},
     NULL,
     NULL,
     NULL},
    {DIGITS_INVERSE,
     {"contraction-sigma", "--eps", "1", "--diameter", "2", "--steps", "8", "--delta", "1e-5",
      NULL},
     "",
     NULL,
     NULL},
    {DIGITS_MAX,
     {"rdp-to-dp", "--alpha", "32", "--rdp", "0.5", "--delta", "1e-5", "--conversion", "mironov",
      NULL},
     "",
     NULL,
     mironov_point},
    {DIGITS_MAX, {"gauss-rdp-eps", "--r", "0.5", "--delta", "1e-5", NULL}, "", NULL, NULL},
    {"2000",
     {"sgm-rdp", "--q", "0.01", "--sigma", "1.1", "--alpha", "8", NULL},
     "",
     NULL,
     sgm_rdp_q001_s11_a8},
    {DIGITS_MAX, {"pld-compose", "--r", "0.5", "--steps", "4", "--eps", "1", NULL}, "", NULL, NULL},
    {DIGITS_MAX,
     {"noisygd-k", "--q", "2", "--l", "1", "--lambda", "0.01", "--beta", "1", "--sigma", "0.001",
      "--eta", "0.5", "--n", "60000", "--eps-dd", "0.01", NULL},
     "eps_at_k",
     NULL,
     NULL},
    {DIGITS_MAX,
     {"noisygd-sigma", "--kind",   "g15",   "--q",      "2",    "--l",    "1", "--eta",
      "0.5",           "--n",      "60000", "--lambda", "0.01", "--beta", "1", "--kabar",
      "100",           "--eps-dd", "0.01",  NULL},
     "",
     NULL,
     NULL},
    {DIGITS_MAX,
     {"model-clipping-t", "--eps", "1", "--c2", "1", "--sigma", "1", "--delta", "1e-5", NULL},
     NULL,
     NULL,
     NULL},
    {DIGITS_INVERSE,
     {"model-clipping-sigma", "--eps", "1", "--c2", "1", "--steps", "8", "--delta", "1e-5", NULL},
     "",
     NULL,
     NULL},
    {DIGITS_INVERSE,
     {"output-perturbation-sigma", "--c0", "1", "--eps", "1", "--delta", "1e-5", NULL},
     "",
     "classic",
     NULL},
    {DIGITS_LANGEVIN,
     {"langevin-sigma", "--n", "11982", "--m", "0.011982", "--L", "0.261982", "--M", "1", "--eps",
      "0.5", "--delta", "8.3458521115005842e-5", "--K", "1", NULL},
     "",
     NULL,
     NULL},
    {DIGITS_MAX,
     {"langevin-k", "--n", "11982", "--m", "0.011982", "--L", "0.261982", "--M", "1", "--eps",
      "0.5", "--delta", "8.3458521115005842e-5", "--sigma", "0.05", NULL},
     "eps_at_k",
     NULL,
     NULL},
};

/* one test per quantity or method (its name in the report of a failure) */
#define DIGITS_TEST(name, check, table, i)                                                         \
    Test(digits, name)                                                                             \
    {                                                                                              \
        check(&table[i]);                                                                          \
    }
#define CALC_TEST(name, i) DIGITS_TEST(calc_##name, check_calc, CALC, i)

CALC_TEST(theta, 0)
CALC_TEST(gauss_sigma, 1)
CALC_TEST(gauss_eps, 2)
CALC_TEST(contraction_product, 3)
CALC_TEST(contraction_adaptive, 4)
CALC_TEST(contraction_steps, 5)
CALC_TEST(contraction_sigma, 6)
CALC_TEST(rdp_to_dp, 7)
CALC_TEST(gauss_rdp_eps, 8)
CALC_TEST(sgm_rdp, 9)
CALC_TEST(pld_compose, 10)
CALC_TEST(noisygd_k, 11)
CALC_TEST(noisygd_sigma, 12)
CALC_TEST(model_clipping_t, 13)
CALC_TEST(model_clipping_sigma, 14)
CALC_TEST(output_perturbation_sigma, 15)
CALC_TEST(langevin_sigma, 16)
CALC_TEST(langevin_k, 17)

Test(digits, calc_table_covers_every_quantity)
{
    cr_assert_eq(sizeof CALC / sizeof CALC[0], 18); /* the rows of src/cli/calc.c */
}

/* ---- audit -------------------------------------------------------------------------- */

typedef struct {
    const char *file;
    const char *digits;
    void (*oracle)(mpfr_ptr out); /* the recomputed value, or NULL */
} audit_case;

/* audits/gaussian-one-minus-erf.json: delta = theta_{e^eps}(r) at the
 * claimed eps = 14.356835994553729734 with r = sensitivity 2 / sigma 1 = 2,
 * by tests/oracle.h (Taylor series and Laplace's continued fraction, no
 * mpfr_erfc), 1200 bits; docs/accounting.md "Numerical soundness of theta_epsilon"
 * gives 7.6651074e-11 (mpmath). */
static void one_minus_erf_delta(mpfr_ptr out)
{
    mpfr_t l;
    mpfr_init2(l, ORACLE_BITS);
    oracle_log_theta_str(l, "14.356835994553729734", "2");
    mpfr_exp(out, l, MPFR_RNDN);
    mpfr_clear(l);
}

/* A numbered result {key, label, lo, hi}: whole numbers, lo <= hi, and
 * (want > 0) every digit asked (whole numbers such as steps excepted). */
static void check_number_json(json_object *n, int want, const char *what)
{
    if (n == NULL || json_object_get_type(n) != json_type_object)
        return;
    check_pair(field(n, "lo"), field(n, "hi"), want, what, NULL, NULL);
}

static void check_audit(const audit_case *c)
{
    run_result r = run("audit", c->file, "--digits", c->digits, "--json", NULL);
    cr_assert(r.status == 0 || r.status == 1 || r.status == 3, "audit %s: exit %d: %s", c->file,
              r.status, r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o, "audit %s: not JSON", c->file);
    json_object *x;
    int want = atoi(c->digits);
    json_object_object_get_ex(o, "recomputed", &x);
    check_number_json(x, want, "recomputed");
    if (c->oracle != NULL) {
        mpfr_t lo, hi, v;
        mpfr_inits2(BITS, lo, hi, v, (mpfr_ptr)0);
        check_pair(field(x, "lo"), field(x, "hi"), want, "recomputed", lo, hi);
        c->oracle(v);
        cr_assert(mpfr_lessequal_p(lo, v) && mpfr_lessequal_p(v, hi),
                  "%s: the independent value is outside the recomputed [lo, hi]", c->file);
        mpfr_clears(lo, hi, v, (mpfr_ptr)0);
    }
    json_object_object_get_ex(o, "other_variant", &x);
    check_number_json(x, want, "other_variant");
    cr_assert(json_object_object_get_ex(o, "would_reach", &x), "no would_reach");
    for (size_t i = 0; i < json_object_array_length(x); i++)
        /* some are search results with digits of their own */
        check_number_json(json_object_array_get_idx(x, i), 0, "would_reach");
    static const char *const SENTENCES[] = {"margin", "explanation", "first_wrong_stated",
                                            "forensics"};
    int pairs = 0;
    for (size_t i = 0; i < 4; i++)
        if (json_object_object_get_ex(o, SENTENCES[i], &x) &&
            json_object_get_type(x) == json_type_string)
            pairs += check_sentences(json_object_get_string(x), SENTENCES[i]);
    json_object_put(o);
    run_free(&r);

    r = run("audit", c->file, "--digits", c->digits, NULL);
    cr_assert(r.status == 0 || r.status == 1 || r.status == 3, "audit %s (text): exit %d", c->file,
              r.status);
    /* the same pairs, plus the numbers' own "key in [lo, hi]" lines */
    cr_assert_geq(check_sentences(r.out, c->file), pairs, "%s: text shows fewer enclosures",
                  c->file);
    run_free(&r);
}

/* One certificate per method (ul_audit's registry, src/audit/audit.c), the
 * quickest with numbers to print, plus the issue's reproducer (audits/
 * gaussian-one-minus-erf.json at --digits 100: recomputed.lo/hi were cut).
 * output-perturbation and dp-sgd-group take seconds at 1000 digits. */
static const audit_case AUDITS[] = {
    {"audits/gaussian-float32-zero.json", DIGITS_MAX, NULL},
    {"audits/output-perturbation-classic-eps1.json", DIGITS_INVERSE, NULL},
    {"audits/rdp-curve-sgm-double-rounding.json", DIGITS_MAX, NULL},
    {"audits/langevin-nonconvex-printed-rate-overclaims.json", DIGITS_MAX, NULL},
    {"audits/noisy-gd-thm43-printed-composition-overclaims.json", DIGITS_MAX, NULL},
    {"audits/d2d-table2-cifar10-I1-eps1.json", DIGITS_MAX, NULL},
    {"audits/model-clipping-cifar-r2-float32.json", "1000", NULL},
    {"audits/gradient-clipping-fig2-eps1-label.json", DIGITS_MAX, NULL},
    {"audits/dp-sgd-group-cifar-k225.json", DIGITS_INVERSE, NULL},
    {"audits/gaussian-one-minus-erf.json", "100", one_minus_erf_delta},
};

#define AUDIT_TEST(name, i) DIGITS_TEST(audit_##name, check_audit, AUDITS, i)

AUDIT_TEST(gaussian_mechanism, 0)
AUDIT_TEST(output_perturbation, 1)
AUDIT_TEST(rdp_curve, 2)
AUDIT_TEST(langevin, 3)
AUDIT_TEST(noisy_gd, 4)
AUDIT_TEST(d2d, 5)
AUDIT_TEST(model_clipping, 6)
AUDIT_TEST(gradient_clipping, 7)
AUDIT_TEST(dp_sgd_group, 8)
AUDIT_TEST(issue_12_reproducer, 9)

/* ul_audit_explain appends whole sentences only: once one does not fit, the
 * explanation ends with one note saying so, and nothing follows it.  Checked
 * against the sentences themselves (each must appear whole or not at all). */
Test(digits, explanation_keeps_whole_sentences_and_says_once_it_was_cut)
{
    static ul_audit_report rep; /* tens of kB: not on the test stack */
    ul_audit_report_init(&rep);
    char sentence[700];
    int added = 0;
    for (int i = 0; i < 200; i++) {
        memset(sentence, 'a' + i % 26, sizeof sentence - 1);
        sentence[sizeof sentence - 1] = '\0';
        char head[32];
        snprintf(head, sizeof head, "S%03d words ", i);
        memcpy(sentence, head, strlen(head));
        ul_audit_explain(&rep, "%s.", sentence);
        head[4] = '\0';
        if (strstr(rep.explanation, head) != NULL)
            added++;
    }
    cr_assert(added > 3 && added < 200, "%d sentences", added);
    size_t len = strlen(rep.explanation);
    cr_assert_lt(len, sizeof rep.explanation);
    const char *note = strstr(rep.explanation, "[The explanation stops here");
    cr_assert_not_null(note, "no note that the explanation was cut");
    cr_assert_null(strstr(note + 1, "[The explanation stops here"), "the note is said twice");
    cr_assert_eq(note[strlen(note) - 1], ']', "something follows the note");
    /* every sentence before the note is whole: 699 characters, its period, a space */
    for (const char *p = rep.explanation; p < note; p += 701)
        cr_assert(p[0] == 'S' && p[699] == '.' && p[700] == ' ', "a sentence was cut at %td",
                  p - rep.explanation);
}

/* ---- sentences that quote a certified [lo, hi] built by a handler ------------------- */

/* The handlers' own sentences (first_wrong_stated, forensics, explanation)
 * quoted these enclosures through 64-byte buffers: past about 55 digits
 * the ends were cut (no exponent).  A certificate whose stated number is
 * wrong, audited at digits past that: every "in [lo, hi]" of the sentences
 * must be a whole pair (check_audit), and first_wrong_stated must hold one. */
static void check_wrong_stated(const char *json, const char *digits, const char *path)
{
    char file[] = "/tmp/ulaudit-digits-XXXXXX";
    int fd = mkstemp(file);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, json, strlen(json)), (ssize_t)strlen(json));
    close(fd);
    audit_case c = {file, digits, NULL};
    check_audit(&c);
    run_result r = run("audit", file, "--digits", digits, "--json", NULL);
    json_object *o = json_tokener_parse(r.out), *x;
    cr_assert_not_null(o, "not JSON: %s", r.err);
    cr_assert(json_object_object_get_ex(o, "first_wrong_stated", &x));
    const char *s = json_object_get_string(x);
    cr_assert(strstr(s, path) != NULL, "first_wrong_stated does not name %s: %s", path, s);
    cr_assert_geq(check_sentences(s, "first_wrong_stated"), 1, "no [lo, hi] in: %.200s", s);
    json_object_put(o);
    run_free(&r);
    unlink(file);
}

/* audits/noisy-gd-thm51-logreg-deletion.json with a stated eta (then a stated
 * sigma) that Thm 5.1 does not prescribe: eta = 1/(2(lambda + beta)) = 1.6,
 * sigma = sqrt(4 q L^2/(lambda eps_dp n^2)) = 0.016 (docs/noisy-gd.md "Theorems audited") */
#define NGD_WRONG(eta, sigma)                                                                      \
    "{\"format\": \"ulaudit-certificate/1\", \"method\": \"noisy-gd\", \"parameters\": "          \
    "{\"theorem\": \"thm51\", \"L\": 1, \"lambda\": \"0.0625\", \"beta\": \"0.25\", \"n\": 1000, " \
    "\"d\": 785, \"eps_dp\": 1, \"eta\": \"1.6\", \"sigma\": \"0.016\", \"KA\": 88, \"KAbar\": "   \
    "47}, \"claim\": {\"renyi_order\": 4, \"renyi_value\": \"0.1\"}, \"stated\": {\"eta\": \""    \
    eta "\", \"sigma\": \"" sigma "\", \"KA\": 88, \"KAbar\": 47}}"

Test(digits, noisy_gd_wrong_stated_eta_quotes_whole_numbers)
{
    check_wrong_stated(NGD_WRONG("1.5", "0.016"), DIGITS_MAX, "$.stated.eta");
}

Test(digits, noisy_gd_wrong_stated_sigma_quotes_whole_numbers)
{
    check_wrong_stated(NGD_WRONG("1.6", "0.001"), DIGITS_MAX, "$.stated.sigma");
}

/* audits/langevin-table3-cifar10-eps0.05.json states sigma = 0.2431, below
 * the smallest sigma (a certified bisection: 100 digits, past the old
 * 64-byte buffers, keeps it to seconds) */
Test(digits, langevin_wrong_stated_sigma_quotes_whole_numbers, .timeout = 300)
{
    FILE *f = fopen("audits/langevin-table3-cifar10-eps0.05.json", "r");
    cr_assert_not_null(f);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    check_wrong_stated(buf, "100", "$.stated.sigma");
}
