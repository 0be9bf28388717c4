/* src/num/domain.c — the shared domains of the inputs (each range written
 * once here, num/domain.h) and their rule and check.
 * The ranges are those of the certified bounds they feed (src/bounds):
 * a privacy parameter eps up to 1e9, delta in (0, 1), r = sensitivity/sigma
 * up to 1e9, Rényi orders up to 1e12 (Mironov 2017, Def. 3: alpha > 1), the
 * subsampled Gaussian's table of Mironov, Talwar & Zhang 2019 (Sec. 3.3:
 * sampling rate in [0, 1], orders up to 10000); the dataset size, dimension
 * and smoothness constants of Langevin unlearning (Chien et al. 2024,
 * Sec. 2 and Thms 3.2-3.3, arXiv:2401.10371v4) and of descent-to-delete
 * (Neel et al. 2021, Thms 9 and 28), whose unlearning eps is read up to the
 * Rényi limit 1e12. */
#include "num/domain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num/input.h"

#define RANGE(id, nm, ty, l, lo_x, h, hi_x, u)                                                     \
    const ul_domain ul_domain_##id = {nm, ty, l, lo_x, h, hi_x, u, NULL}
#define REAL(id, nm, l, lo_x, h, hi_x, u) RANGE(id, nm, UL_DOMAIN_REAL, l, lo_x, h, hi_x, u)

REAL(eps_any, "eps", "-1e9", false, "1e9", false, "");
REAL(eps, "eps", "0", false, "1e9", false, "");
REAL(delta, "delta", "0", true, "1", true, "");
REAL(delta0, "delta0", "0", true, "1", false, "");
REAL(r, "r", "0", false, "1e9", false, "sensitivity/sigma");
REAL(r_pos, "r", "0", true, "1e9", false, "sensitivity/sigma");
REAL(sensitivity, "sensitivity", "0", true, "1e100", false, "l2 norm");
REAL(alpha, "alpha", "1", true, "1e12", false, "");
REAL(rdp, "rdp", "0", false, "1e12", false, "nats");
REAL(q, "q", "0", false, "1", false, "");
REAL(q_pos, "q", "0", true, "1", false, "");
REAL(sigma, "sigma", "1e-3", false, "1e6", false, "noise std over sensitivity");
REAL(alpha_sgm, "alpha", "1", true, "10000", false, "");
RANGE(dataset_size, "n", UL_DOMAIN_INTEGER, "1", false, "1e15", false, "records");
RANGE(dimension, "d", UL_DOMAIN_INTEGER, "1", false, "1e15", false, "");
REAL(eps_renyi, "eps", "0", false, "1e12", false, "");
REAL(eps_renyi_pos, "eps", "0", true, "1e12", false, "");
REAL(eps_pld, "eps", "-1000", false, "1000", false, "");
REAL(positive, "positive", "0", true, "1e100", false, "");
REAL(nonneg, "nonneg", "0", false, "1e100", false, "");

#define WORDS(id, nm, ...)                                                                         \
    static const char *const id##_words[] = {__VA_ARGS__, NULL};                                   \
    const ul_domain ul_domain_##id = {nm, UL_DOMAIN_WORDS, NULL, false, NULL, false, "", id##_words}

/* the contraction's accountings (docs/neural-unlearning.md, "Model clipping"),
 * the RDP-to-DP conversions (Mironov 2017, Prop. 3; Balle et al. 2020,
 * Thm 21), the Langevin rate as printed or corrected (docs/langevin.md,
 * "Errata") */
WORDS(mode, "mode", "product", "adaptive");
WORDS(conversion, "conversion", "mironov", "bbghs");
WORDS(rate, "rate", "printed", "corrected");

/* "a", "a or b", "a, b or c" */
static void words(const ul_domain *d, char *out, size_t len)
{
    size_t n = 0, at = 0;
    while (d->choices[n] != NULL)
        n++;
    out[0] = '\0';
    for (size_t i = 0; i < n && at < len; i++) {
        int w = snprintf(out + at, len - at, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
                         d->choices[i]);
        at += w > 0 ? (size_t)w : 0;
    }
}

void ul_domain_rule(const ul_domain *d, const char *meta, char *out, size_t len)
{
    if (d->type == UL_DOMAIN_WORDS) {
        words(d, out, len);
        return;
    }
    /* a range symmetric about 0, closed: |M| <= hi */
    if (d->lo != NULL && d->hi != NULL && d->lo[0] == '-' && strcmp(d->lo + 1, d->hi) == 0 &&
        !d->lo_open && !d->hi_open) {
        snprintf(out, len, "|%s| <= %s", meta, d->hi);
        return;
    }
    /* whole numbers in a closed range: "whole number 1..1e15" */
    if (d->type == UL_DOMAIN_INTEGER && d->lo != NULL && d->hi != NULL && !d->lo_open &&
        !d->hi_open) {
        snprintf(out, len, "whole number %s..%s", d->lo, d->hi);
        return;
    }
    int n = 0;
    if (d->lo != NULL)
        n = snprintf(out, len, "%s %s ", d->lo, d->lo_open ? "<" : "<=");
    if (n < 0 || (size_t)n >= len)
        return;
    n += snprintf(out + n, len - (size_t)n, "%s", meta);
    if (d->hi != NULL && n >= 0 && (size_t)n < len)
        snprintf(out + n, len - (size_t)n, " %s %s", d->hi_open ? "<" : "<=", d->hi);
}

/* Whether text (a decimal already within a bounded range) is whole. */
static bool is_whole(const char *text)
{
    mpq_t q;
    mpq_init(q);
    bool ok = ul_num_decimal_to_mpq(q, text) && mpz_cmp_ui(mpq_denref(q), 1) == 0;
    mpq_clear(q);
    return ok;
}

ul_status ul_num_read_domain(mpfi_ptr x, const ul_domain *d, const char *name, const char *text,
                             char *err, size_t errlen)
{
    if (d->type == UL_DOMAIN_WORDS)
        abort(); /* a list of words read as a number: a fault of this program's tables */
    ul_status st =
        ul_num_read_checked(x, name, text, d->lo, d->lo_open, d->hi, d->hi_open, err, errlen);
    if (st == UL_OK && d->type == UL_DOMAIN_INTEGER && !is_whole(text))
        st = ul_fail(err, errlen, UL_EINPUT, "%s: must be an integer (got '%s')", name, text);
    return st;
}

ul_status ul_domain_check(const ul_domain *d, const char *name, const char *text, char *err,
                          size_t errlen)
{
    if (d->type == UL_DOMAIN_WORDS) {
        for (size_t i = 0; d->choices[i] != NULL; i++)
            if (strcmp(text, d->choices[i]) == 0)
                return UL_OK;
        char rule[256];
        words(d, rule, sizeof rule);
        return ul_fail(err, errlen, UL_EINPUT, "%s: must be %s (got '%s')", name, rule, text);
    }
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = ul_num_read_domain(x, d, name, text, err, errlen);
    mpfi_clear(x);
    return st;
}
