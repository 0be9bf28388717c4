/* tests/test_domain.c — one declaration of each input (issue 25): for each
 * shared domain (num/domain.h), the calculator's help text states its rule,
 * and the calculator and the certificate reader refuse a value just outside
 * each end with the same words, naming that end.
 *
 * Independent of the code under test: the rule and the messages are
 * composed here from the declared ends (text and openness), and the values
 * outside are computed here, exactly, as decimal neighbours of each end
 * (end ± |end|·10^-20, or ∓10^-30 for an end at 0; an open end itself). */
#include <criterion/criterion.h>
#include <gmp.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "num/domain.h"

/* One domain as two readers meet it: a calc flag (its arguments, "@" where
 * the value goes) and a field of a corpus certificate. */
typedef struct {
    const ul_domain *d;
    const char *meta;      /* the flag's placeholder in the help text */
    const char *calc[24];  /* calc's arguments, NULL-terminated */
    const char *cert;      /* audits/ file */
    const char *object;    /* "parameters" or "claim" */
    const char *key;
} pair;

static const pair PAIRS[] = {
    {&ul_domain_delta, "D",
     {"calc", "gauss-sigma", "--eps", "1", "--delta", "@", NULL},
     "audits/langevin-eta-above-1-over-L.json", "claim", "delta"},
    {&ul_domain_eps, "E",
     {"calc", "gauss-sigma", "--eps", "@", "--delta", "1e-5", NULL},
     "audits/model-clipping-cifar-r2-float32.json", "claim", "eps"},
    {&ul_domain_dataset_size, "N",
     {"calc", "langevin-sigma", "--n", "@", "--m", "0.011982", "--L", "0.261982", "--M", "1",
      "--eps", "0.5", "--delta", "1e-5", "--K", "1", NULL},
     "audits/langevin-eta-above-1-over-L.json", "parameters", "n"},
    {&ul_domain_alpha, "A",
     {"calc", "rdp-to-dp", "--alpha", "@", "--rdp", "0.5", "--delta", "1e-5", NULL},
     "audits/noisy-gd-g15-stated-kabar0-exact-tie.json", "claim", "renyi_order"},
    {&ul_domain_rdp, "V",
     {"calc", "rdp-to-dp", "--alpha", "32", "--rdp", "@", "--delta", "1e-5", NULL},
     "audits/noisy-gd-g15-stated-kabar0-exact-tie.json", "claim", "renyi_value"},
    {&ul_domain_q, "Q",
     {"calc", "sgm-rdp", "--q", "@", "--sigma", "1.1", "--alpha", "8", NULL},
     "audits/dp-sgd-group-cifar-k225.json", "parameters", "q"},
    {&ul_domain_sigma, "S",
     {"calc", "sgm-rdp", "--q", "0.01", "--sigma", "@", "--alpha", "8", NULL},
     "audits/dp-sgd-group-cifar-k225.json", "parameters", "sigma"},
    {&ul_domain_q_pos, "Q",
     {"calc", "pld-compose", "--sigma", "1.1", "--q", "@", "--steps", "10", "--eps", "1", NULL},
     "audits/dp-sgd-abadi-2016-moments-accountant.json", "parameters", "sample_rate"},
    {&ul_domain_nonneg, "L",
     {"calc", "noisygd-k", "--q", "2", "--l", "@", "--lambda", "0.01", "--beta", "1", "--sigma",
      "0.001", "--eta", "0.5", "--n", "60000", "--eps-dd", "0.01", NULL},
     "audits/noisy-gd-g15-stated-kabar0-exact-tie.json", "parameters", "L"},
    {&ul_domain_positive, "LAMBDA",
     {"calc", "noisygd-k", "--q", "2", "--l", "1", "--lambda", "@", "--beta", "1", "--sigma",
      "0.001", "--eta", "0.5", "--n", "60000", "--eps-dd", "0.01", NULL},
     "audits/noisy-gd-g15-stated-kabar0-exact-tie.json", "parameters", "lambda"},
};

/* ---- exact decimals, the test's own reader and writer ------------------- */

/* text (sign, digits, optional point, optional e exponent) into q exactly. */
static void decimal_to_mpq(mpq_t q, const char *text)
{
    mpz_t digits, pow10;
    mpz_inits(digits, pow10, NULL);
    const char *s = text;
    bool neg = *s == '-';
    s += *s == '-' || *s == '+';
    long exp10 = 0;
    for (bool frac = false; *s != '\0' && *s != 'e' && *s != 'E'; s++) {
        if (*s == '.') {
            frac = true;
            continue;
        }
        mpz_mul_ui(digits, digits, 10);
        mpz_add_ui(digits, digits, (unsigned long)(*s - '0'));
        exp10 -= frac;
    }
    if (*s == 'e' || *s == 'E')
        exp10 += strtol(s + 1, NULL, 10);
    mpz_ui_pow_ui(pow10, 10, (unsigned long)labs(exp10));
    mpq_set_z(q, digits);
    if (exp10 >= 0)
        mpz_mul(mpq_numref(q), mpq_numref(q), pow10);
    else
        mpz_mul(mpq_denref(q), mpq_denref(q), pow10);
    mpq_canonicalize(q);
    if (neg)
        mpq_neg(q, q);
    mpz_clears(digits, pow10, NULL);
}

/* q (a multiple of 10^-60) as "Ne-60". */
static void mpq_to_decimal(char *out, size_t len, const mpq_t q)
{
    mpq_t scaled;
    mpq_init(scaled);
    mpz_t p;
    mpz_init(p);
    mpz_ui_pow_ui(p, 10, 60);
    mpq_set_z(scaled, p);
    mpq_mul(scaled, scaled, q);
    cr_assert_eq(mpz_cmp_ui(mpq_denref(scaled), 1), 0, "an end with more than 40 decimals");
    char *n = mpz_get_str(NULL, 10, mpq_numref(scaled));
    snprintf(out, len, "%se-60", n);
    free(n);
    mpz_clear(p);
    mpq_clear(scaled);
}

/* The decimal just outside an end: the end itself when open; otherwise
 * end + dir·|end|·10^-20 (dir·10^-30 for an end at 0), dir = +1 above the
 * upper end, -1 below the lower one. */
static void outside(char *out, size_t len, const char *end, bool open, int dir)
{
    if (open) {
        snprintf(out, len, "%s", end);
        return;
    }
    mpq_t e, step;
    mpq_inits(e, step, NULL);
    decimal_to_mpq(e, end);
    if (mpq_sgn(e) == 0)
        decimal_to_mpq(step, "1e-30");
    else {
        mpq_abs(step, e);
        mpq_t tiny;
        mpq_init(tiny);
        decimal_to_mpq(tiny, "1e-20");
        mpq_mul(step, step, tiny);
        mpq_clear(tiny);
    }
    if (dir < 0)
        mpq_neg(step, step);
    mpq_add(e, e, step);
    mpq_to_decimal(out, len, e);
    mpq_clears(e, step, NULL);
}

/* ---- the two readers ----------------------------------------------------- */

static run_result calc_with(const pair *p, const char *value)
{
    const char *a[24];
    for (int i = 0; i < 24; i++)
        a[i] = p->calc[i] != NULL && strcmp(p->calc[i], "@") == 0 ? value : p->calc[i];
    return run(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12],
               a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23],
               NULL);
}

/* The corpus certificate with object.key = value (a string of decimal
 * text), audited. */
static run_result audit_with(const pair *p, const char *value)
{
    json_object *c = json_object_from_file(p->cert);
    cr_assert_not_null(c, "%s unreadable", p->cert);
    json_object *o;
    cr_assert(json_object_object_get_ex(c, p->object, &o));
    json_object_object_add(o, p->key, json_object_new_string(value));
    char path[] = "/tmp/ulaudit-domain-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    const char *text = json_object_to_json_string_ext(c, JSON_C_TO_STRING_PLAIN);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    json_object_put(c);
    run_result r = run("audit", path, NULL);
    unlink(path);
    return r;
}

static const char *flag_of(const pair *p)
{
    for (int i = 0; p->calc[i + 1] != NULL; i++)
        if (strcmp(p->calc[i + 1], "@") == 0)
            return p->calc[i];
    cr_assert_fail("no @ in the calc arguments");
    return NULL;
}

/* The rule as the help text states it, composed from the declared ends. */
static void expected_rule(const ul_domain *d, const char *meta, char *out, size_t len)
{
    if (d->type == UL_DOMAIN_INTEGER)
        snprintf(out, len, "whole number %s..%s", d->lo, d->hi);
    else if (d->lo[0] == '-' && strcmp(d->lo + 1, d->hi) == 0)
        snprintf(out, len, "|%s| <= %s", meta, d->hi);
    else
        snprintf(out, len, "%s %s %s %s %s", d->lo, d->lo_open ? "<" : "<=", meta,
                 d->hi_open ? "<" : "<=", d->hi);
}

Test(domain, calc_help_calc_and_certificate_refuse_alike, .timeout = 300)
{
    for (size_t i = 0; i < sizeof PAIRS / sizeof PAIRS[0]; i++) {
        const pair *p = &PAIRS[i];
        const char *flag = flag_of(p);
        /* the help line of the flag states the rule */
        char rule[128], line_start[64];
        expected_rule(p->d, p->meta, rule, sizeof rule);
        run_result h = run("calc", p->calc[1], "--help", NULL);
        snprintf(line_start, sizeof line_start, "\n      %s ", flag);
        const char *line = strstr(h.out, line_start);
        cr_assert_not_null(line, "%s: no help line for %s", p->calc[1], flag);
        char help[512];
        snprintf(help, sizeof help, "%.*s", (int)strcspn(line + 1, "\n"), line + 1);
        cr_assert_not_null(strstr(help, rule), "%s %s: help '%s' lacks '%s'", p->calc[1], flag,
                           help, rule);
        run_free(&h);
        /* each end: the value just outside, refused by both readers naming that end */
        for (int side = 0; side < 2; side++) {
            const char *end = side == 0 ? p->d->lo : p->d->hi;
            bool open = side == 0 ? p->d->lo_open : p->d->hi_open;
            char out[160], want[400];
            outside(out, sizeof out, end, open, side == 0 ? -1 : 1);
            const char *op = side == 0 ? (open ? ">" : ">=") : (open ? "<" : "<=");
            snprintf(want, sizeof want, "%s: must be %s %s (got '%s')", flag, op, end, out);
            run_result c = calc_with(p, out);
            cr_assert_eq(c.status, 2, "calc %s %s: exit %d, %s", flag, out, c.status, c.err);
            cr_assert_not_null(strstr(c.err, want), "calc: '%s' lacks '%s'", c.err, want);
            run_free(&c);
            snprintf(want, sizeof want, "$.%s.%s: must be %s %s (got '%s')", p->object, p->key,
                     op, end, out);
            run_result a = audit_with(p, out);
            cr_assert_eq(a.status, 2, "audit %s=%s: exit %d, %s", p->key, out, a.status, a.err);
            cr_assert_not_null(strstr(a.err, want), "audit: '%s' lacks '%s'", a.err, want);
            run_free(&a);
        }
    }
}
