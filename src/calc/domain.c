/* src/calc/domain.c — the named domains of the calculator's inputs (each
 * range written once here, calc/domain.h) and their rule, check and JSON.
 * The ranges are those of the certified bounds they feed (src/bounds):
 * a privacy parameter eps up to 1e9, delta in (0, 1), r = sensitivity/sigma
 * up to 1e9, Rényi orders up to 1e12 (Mironov 2017, Def. 3: alpha > 1), the
 * subsampled Gaussian's table of Mironov, Talwar & Zhang 2019 (Sec. 3.3:
 * sampling rate in [0, 1], orders up to 10000). */
#include "calc/domain.h"

#include <mpfi.h>
#include <stdio.h>
#include <string.h>

#include "num/input.h"

#define REAL(id, nm, l, lo_x, h, hi_x, u)                                                          \
    const ul_calc_domain ul_calc_domain_##id = {nm, UL_CALC_REAL, l, lo_x, h, hi_x, u, NULL}

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
REAL(sigma, "sigma", "1e-3", false, "1e6", false, "noise std over sensitivity");
REAL(alpha_sgm, "alpha", "1", true, "10000", false, "");

#define ENUM(id, nm, ...)                                                                          \
    static const char *const id##_words[] = {__VA_ARGS__, NULL};                                   \
    const ul_calc_domain ul_calc_domain_##id = {nm,   UL_CALC_ENUM, NULL, false, NULL,             \
                                                false, "",           id##_words}

/* the contraction's accountings (docs/neural-unlearning.md, "Model clipping"),
 * the RDP-to-DP conversions (Mironov 2017, Prop. 3; Balle et al. 2020,
 * Thm 21), the Langevin rate as printed or corrected (docs/langevin.md,
 * "Errata") */
ENUM(mode, "mode", "product", "adaptive");
ENUM(conversion, "conversion", "mironov", "bbghs");
ENUM(rate, "rate", "printed", "corrected");

/* "a", "a or b", "a, b or c" */
static void words(const ul_calc_domain *d, char *out, size_t len)
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

void ul_calc_domain_rule(const ul_calc_domain *d, const char *meta, char *out, size_t len)
{
    if (d->type == UL_CALC_ENUM) {
        words(d, out, len);
        return;
    }
    /* a range symmetric about 0, closed: |M| <= hi */
    if (d->lo != NULL && d->hi != NULL && d->lo[0] == '-' && strcmp(d->lo + 1, d->hi) == 0 &&
        !d->lo_open && !d->hi_open) {
        snprintf(out, len, "|%s| <= %s", meta, d->hi);
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

ul_status ul_calc_domain_check(const ul_calc_domain *d, const char *name, const char *text,
                               char *err, size_t errlen)
{
    if (d->type == UL_CALC_ENUM) {
        for (size_t i = 0; d->choices[i] != NULL; i++)
            if (strcmp(text, d->choices[i]) == 0)
                return UL_OK;
        char rule[256];
        words(d, rule, sizeof rule);
        snprintf(err, errlen, "%s: must be %s (got '%s')", name, rule, text);
        return UL_EINPUT;
    }
    mpfi_t x;
    mpfi_init2(x, 64);
    ul_status st = ul_num_read_checked(x, name, text, d->lo, d->lo_open, d->hi, d->hi_open, err,
                                       errlen);
    mpfi_clear(x);
    return st;
}

json_object *ul_calc_domain_json(const ul_calc_domain *d)
{
    json_object *o = json_object_new_object();
    if (d->type == UL_CALC_ENUM) {
        json_object *list = json_object_new_array();
        for (size_t i = 0; d->choices[i] != NULL; i++)
            json_object_array_add(list, json_object_new_string(d->choices[i]));
        json_object_object_add(o, "type", json_object_new_string("enum"));
        json_object_object_add(o, "choices", list);
        return o;
    }
    json_object_object_add(o, "type", json_object_new_string("real"));
    json_object_object_add(o, "lo", d->lo != NULL ? json_object_new_string(d->lo) : NULL);
    json_object_object_add(o, "lo_open", json_object_new_boolean(d->lo_open));
    json_object_object_add(o, "hi", d->hi != NULL ? json_object_new_string(d->hi) : NULL);
    json_object_object_add(o, "hi_open", json_object_new_boolean(d->hi_open));
    json_object_object_add(o, "units", json_object_new_string(d->units));
    return o;
}
