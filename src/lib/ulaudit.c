/* src/lib/ulaudit.c — the public API of include/ulaudit.h over the
 * calculator (src/calc: named inputs bound to a quantity's flags, the
 * quantity run into a result object, nothing printed), the audit engine
 * (audit/audit.h, audit/report.h) and the attack statistics (stats/stats.h).
 * Contracts: see include/ulaudit.h. */
#include "ulaudit.h"

#include <json-c/json.h>
#include <math.h>
#include <mpfr.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "cert/cert.h"
#include "audit/report.h"
#include "calc/calc.h"
#include "bounds/gaussian.h"
#include "stats/stats.h"
#include "num/encl.h"
#include "lib/lib.h"

#define MAX_PAIRS 32

UL_API const char *ulaudit_version(void)
{
    return ULAUDIT_VERSION_STRING;
}

UL_API const char *ulaudit_status_name(ulaudit_status st)
{
    static const char *const names[] = {"ok",   "input",  "cap",      "noroot",
                                        "time", "memory", "cancelled"};
    return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "unknown";
}

UL_API void ulaudit_free(void *p)
{
    free(p);
}

UL_API void ulaudit_thread_cleanup(void)
{
    mpfr_free_cache();
}

/* ---- calculator ------------------------------------------------------------ */

UL_API ulaudit_status ulaudit_calc(const char *quantity, const char *const *names,
                                   const char *const *values, size_t n,
                                   const ulaudit_options *opt, char **json, char *err,
                                   size_t errlen)
{
    *json = NULL;
    ul_num_precision want;
    ulaudit_status ust = ul_lib_options(opt, &want, err, errlen);
    if (ust != ULAUDIT_OK)
        return ust;
    if (quantity == NULL || (n > 0 && (names == NULL || values == NULL)))
        return ul_lib_fail(err, errlen, ULAUDIT_EINPUT, "calc: quantity, names and values must be given");
    if (n > MAX_PAIRS)
        return ul_lib_fail(err, errlen, ULAUDIT_EINPUT, "calc %s: at most %d flags (got %zu)", quantity,
                    MAX_PAIRS, n);
    for (size_t i = 0; i < n; i++)
        if (names[i] == NULL || values[i] == NULL || strlen(names[i]) > 64)
            return ul_lib_fail(err, errlen, ULAUDIT_EINPUT, "calc %s: flag %zu: a name of at most 64 "
                        "characters and a value are needed", quantity, i);
    if (ul_lib_cancelled(NULL, "starting", err, errlen)) /* raised before the call */
        return ULAUDIT_ECANCEL;
    char msg[1024];
    const ul_calc_quantity *q = ul_calc_find(quantity);
    if (q == NULL) {
        ul_calc_unknown_message(quantity, msg, sizeof msg);
        return ul_lib_fail(err, errlen, ULAUDIT_EINPUT, "%s", msg);
    }
    /* the precision is the caller's options (digits and max-bits among the
     * names repeat them); no default budget: the caller's limits
     * (ulaudit_limits_set) govern, and a max-seconds given among the names
     * runs only when the caller set no budget (calc/run.c) */
    ul_calc_options o = {want.digits, want.max_bits, false, NULL};
    const char *bound[UL_CALC_MAX_FLAGS];
    if (ul_calc_bind(q, names, values, n, true, bound, &o, msg, sizeof msg) != 0)
        return ul_lib_fail(err, errlen, ULAUDIT_EINPUT, "calc %s: %s", quantity, msg);
    ul_num_init(); /* MPFR's exponent range is per thread */
    ul_calc_result res;
    ul_calc_run(q, bound, &o, &res);
    if (res.json != NULL && (*json = strdup(ul_calc_result_json(&res, false))) == NULL)
        abort();
    ulaudit_status st = ul_lib_status(res.status);
    char what[96];
    snprintf(what, sizeof what, "computing calc %s", q->name);
    if (ul_lib_cancelled(json, what, err, errlen))
        st = ULAUDIT_ECANCEL;
    else if (*json == NULL || res.status != UL_OK) {
        ul_calc_result_message(&res, msg, sizeof msg);
        ul_lib_fail(err, errlen, st, "%s", msg);
    }
    ul_calc_result_clear(&res);
    return st;
}

/* Copies the string member `key` of a JSON object text into *out. */
static bool json_member(const char *json, const char *key, char **out)
{
    json_object *o = json_tokener_parse(json), *v;
    *out = NULL;
    if (o != NULL && json_object_object_get_ex(o, key, &v) &&
        json_object_is_type(v, json_type_string))
        *out = strdup(json_object_get_string(v));
    json_object_put(o);
    return *out != NULL;
}

UL_API ulaudit_status ulaudit_calc_enclosure(const char *quantity, const char *const *names,
                                             const char *const *values, size_t n,
                                             const ulaudit_options *opt, char **lo, char **hi,
                                             char *err, size_t errlen)
{
    char *json;
    *lo = *hi = NULL;
    ulaudit_status st = ulaudit_calc(quantity, names, values, n, opt, &json, err, errlen);
    if (json == NULL)
        return st;
    if (!json_member(json, "lo", lo) || !json_member(json, "hi", hi)) {
        free(*lo);
        free(*hi);
        *lo = *hi = NULL;
        st = ul_lib_fail(err, errlen, ULAUDIT_EINPUT,
                  "calc %s: the result is not an enclosure (no lo/hi: use ulaudit_calc)", quantity);
    }
    free(json);
    return st;
}

/* theta directly (no JSON, no loose bound): the quantity of calc theta,
 * with its messages ("calc theta: --r: ..."), at a third of the cost. */
UL_API ulaudit_status ulaudit_theta(const char *eps, const char *r, const ulaudit_options *opt,
                                    char **lo, char **hi, char *err, size_t errlen)
{
    *lo = *hi = NULL;
    ul_num_precision want;
    ulaudit_status ust = ul_lib_options(opt, &want, err, errlen);
    if (ust != ULAUDIT_OK)
        return ust;
    if (eps == NULL || r == NULL)
        return ul_lib_fail(err, errlen, ULAUDIT_EINPUT, "calc theta: --%s: missing (required)",
                    eps == NULL ? "eps" : "r");
    ul_num_init();
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_num_report rep;
    char msg[512];
    ul_status st = ul_gauss_theta_certified(eps, r, &want, &v, &rep, msg, sizeof msg);
    if (st == UL_OK || st == UL_ECAP)
        ul_num_value_format(&v, want.digits, lo, hi);
    if (st == UL_ECAP)
        ul_lib_fail(err, errlen, ULAUDIT_ECAP, "calc theta: warning: precision cap reached; the "
             "enclosure is sound but has fewer than %d correct digits", want.digits);
    else if (st != UL_OK)
        ul_lib_fail(err, errlen, ul_lib_status(st), "calc theta: %s%s", st == UL_EINPUT ? "--" : "", msg);
    ul_num_value_clear(&v);
    return ul_lib_status(st);
}

UL_API ulaudit_status ulaudit_gauss_sigma(const char *eps, const char *delta,
                                          const char *sensitivity, const ulaudit_options *opt,
                                          char **lo, char **hi, char *err, size_t errlen)
{
    const char *names[] = {"eps", "delta", "sensitivity"},
               *values[] = {eps, delta, sensitivity};
    return ulaudit_calc_enclosure("gauss-sigma", names, values, sensitivity != NULL ? 3 : 2, opt,
                                  lo, hi, err, errlen);
}

UL_API ulaudit_status ulaudit_gauss_eps(const char *r, const char *delta,
                                        const ulaudit_options *opt, char **lo, char **hi,
                                        char *err, size_t errlen)
{
    const char *names[] = {"r", "delta"}, *values[] = {r, delta};
    return ulaudit_calc_enclosure("gauss-eps", names, values, 2, opt, lo, hi, err, errlen);
}

UL_API ulaudit_status ulaudit_rdp_to_dp(const char *alpha, const char *rdp, const char *delta,
                                        const char *conversion, const ulaudit_options *opt,
                                        char **lo, char **hi, char *err, size_t errlen)
{
    const char *names[] = {"alpha", "rdp", "delta", "conversion"},
               *values[] = {alpha, rdp, delta, conversion};
    return ulaudit_calc_enclosure("rdp-to-dp", names, values, conversion != NULL ? 4 : 3, opt,
                                  lo, hi, err, errlen);
}

UL_API ulaudit_status ulaudit_gauss_rdp_eps(const char *r, const char *delta,
                                            const char *conversion, const ulaudit_options *opt,
                                            char **lo, char **hi, char *err, size_t errlen)
{
    const char *names[] = {"r", "delta", "conversion"}, *values[] = {r, delta, conversion};
    return ulaudit_calc_enclosure("gauss-rdp-eps", names, values, conversion != NULL ? 3 : 2,
                                  opt, lo, hi, err, errlen);
}

UL_API ulaudit_status ulaudit_calc_list(char **json, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    json_object *list = json_object_new_array();
    for (size_t i = 0; i < ul_calc_count(); i++) {
        const ul_calc_quantity *cq = ul_calc_at(i);
        const char *name = cq->name, *summary = cq->summary;
        int nflags = ul_calc_library_nflags(cq);
        const ul_calc_flag *flags = cq->flags;
        json_object *q = json_object_new_object(), *fl = json_object_new_array();
        json_object_object_add(q, "name", json_object_new_string(name));
        json_object_object_add(q, "summary", json_object_new_string(summary));
        /* the table's example, for bindings' docs and their tests (python/tools) */
        json_object_object_add(q, "example", json_object_new_string(cq->example));
        for (int k = 0; k < nflags; k++) {
            json_object *f = json_object_new_object();
            json_object_object_add(f, "name", json_object_new_string(flags[k].name));
            char help[512]; /* the domain's rule generated in (calc/domain.h) */
            ul_calc_flag_help(cq, k, help, sizeof help);
            json_object_object_add(f, "help", json_object_new_string(help));
            json_object_object_add(f, "default", flags[k].default_value == NULL ? NULL :
                                   json_object_new_string(flags[k].default_value));
            const ul_calc_domain *d = ul_calc_flag_domain(cq, k);
            if (d != NULL) /* an addition: the flag's domain, typed */
                json_object_object_add(f, "domain", ul_calc_domain_json(d));
            json_object_array_add(fl, f);
        }
        json_object_object_add(q, "flags", fl);
        json_object_array_add(list, q);
    }
    *json = strdup(json_object_to_json_string_ext(list, JSON_C_TO_STRING_PLAIN |
                                                            JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(list);
    return *json != NULL ? ULAUDIT_OK : ULAUDIT_EINPUT;
}

/* ---- audits ------------------------------------------------------------------ */

/* Where an audit's report goes: the JSON form, the text form (either may
 * be NULL: not wanted), the verdict (may be NULL). */
typedef struct {
    char **json, **text;
    ulaudit_verdict *verdict;
    const char *path, *bytes; /* the certificate given, for its SHA-256 */
    size_t len;
} audit_out;

static ulaudit_status audit_loaded(ul_cert *cert, const ul_num_precision *want, void *out,
                                   char *err, size_t errlen)
{
    audit_out *o = out;
    ul_audit_report rep;
    ul_status st = ul_audit(cert, want, &rep, err, errlen);
    if (ul_lib_cancelled(NULL, "auditing the certificate", err, errlen)) {
        ul_cert_free(cert); /* no report: the budget's would be inconclusive */
        return ULAUDIT_ECANCEL;
    }
    if (st == UL_OK) {
        ul_audit_report_hash(&rep, o->path, o->bytes, o->len);
        const char *method = ul_cert_method(cert), *source = ul_cert_source(cert);
        if (o->json != NULL)
            *o->json = ul_audit_report_json(&rep, method, source, want->digits);
        if (o->text != NULL) /* the command's text after its "certificate" line */
            *o->text = ul_audit_report_text(&rep, method, source);
        if (o->verdict != NULL)
            *o->verdict = (ulaudit_verdict)rep.verdict;
    }
    ul_cert_free(cert);
    return ul_lib_status(st);
}

/* `ulaudit calibrate` on a loaded certificate (audit/audit.h,
 * ul_audit_calibrate: the function the command calls, so the text is the
 * command's); out is the char ** of the completed certificate. */
static ulaudit_status calibrate_loaded(ul_cert *cert, const ul_num_precision *want, void *out,
                                       char *err, size_t errlen)
{
    char **certificate = out;
    ul_status st = ul_audit_calibrate(cert, want, certificate, err, errlen);
    ul_cert_free(cert);
    if (ul_lib_cancelled(certificate, "calibrating the certificate", err, errlen))
        return ULAUDIT_ECANCEL;
    return ul_lib_status(st);
}

typedef ulaudit_status (*on_cert)(ul_cert *cert, const ul_num_precision *want, void *out,
                                  char *err, size_t errlen);

/* The common front of the audits and calibrations: options, the input given
 * (text[0..len) when text is not NULL, else the file path), MPFR's exponent
 * range on this thread, the certificate loaded and handed to `then`, which
 * frees it and fills `out` (the caller set its pointers to NULL). */
static ulaudit_status with_cert(const char *cmd, const char *path, const char *text, size_t len,
                                const ulaudit_options *opt, on_cert then, void *out, char *err,
                                size_t errlen)
{
    ul_num_precision want;
    ulaudit_status ust = ul_lib_options(opt, &want, err, errlen);
    if (ust == ULAUDIT_OK && path == NULL && text == NULL)
        ust = ul_lib_fail(err, errlen, ULAUDIT_EINPUT, "%s: no certificate given", cmd);
    if (ust != ULAUDIT_OK)
        return ust;
    if (ul_lib_cancelled(NULL, "starting", err, errlen)) /* raised before the call */
        return ULAUDIT_ECANCEL;
    ul_num_init();
    ul_cert *cert;
    ul_status st = text != NULL ? ul_cert_load_buffer(text, len, &cert, err, errlen)
                                : ul_cert_load(path, &cert, err, errlen);
    return st != UL_OK ? ul_lib_status(st) : then(cert, &want, out, err, errlen);
}

/* The one audit entry: path or text, the forms wanted. */
static ulaudit_status audit_forms(const char *path, const char *text, size_t len,
                                  const ulaudit_options *opt, char **json, char **text_report,
                                  ulaudit_verdict *verdict, char *err, size_t errlen)
{
    if (json != NULL)
        *json = NULL;
    if (text_report != NULL)
        *text_report = NULL;
    audit_out out = {json, text_report, verdict, path, text, len};
    return with_cert("audit", path, text, len, opt, audit_loaded, &out, err, errlen);
}

UL_API ulaudit_status ulaudit_audit_file(const char *path, const ulaudit_options *opt,
                                         char **report, ulaudit_verdict *verdict, char *err,
                                         size_t errlen)
{
    return audit_forms(path, NULL, 0, opt, report, NULL, verdict, err, errlen);
}

UL_API ulaudit_status ulaudit_audit_string(const char *text, size_t len,
                                           const ulaudit_options *opt, char **report,
                                           ulaudit_verdict *verdict, char *err, size_t errlen)
{
    return audit_forms(NULL, text, len, opt, report, NULL, verdict, err, errlen);
}

UL_API ulaudit_status ulaudit_audit_file_forms(const char *path, const ulaudit_options *opt,
                                               char **json, char **text,
                                               ulaudit_verdict *verdict, char *err,
                                               size_t errlen)
{
    return audit_forms(path, NULL, 0, opt, json, text, verdict, err, errlen);
}

UL_API ulaudit_status ulaudit_audit_string_forms(const char *certificate, size_t len,
                                                 const ulaudit_options *opt, char **json,
                                                 char **text, ulaudit_verdict *verdict,
                                                 char *err, size_t errlen)
{
    return audit_forms(NULL, certificate, len, opt, json, text, verdict, err, errlen);
}

/* ---- calibration ------------------------------------------------------------- */

UL_API ulaudit_status ulaudit_calibrate_file(const char *path, const ulaudit_options *opt,
                                             char **certificate, char *err, size_t errlen)
{
    *certificate = NULL;
    return with_cert("calibrate", path, NULL, 0, opt, calibrate_loaded, certificate, err, errlen);
}

UL_API ulaudit_status ulaudit_calibrate_string(const char *text, size_t len,
                                               const ulaudit_options *opt, char **certificate,
                                               char *err, size_t errlen)
{
    *certificate = NULL;
    return with_cert("calibrate", NULL, text, len, opt, calibrate_loaded, certificate, err,
                     errlen);
}

/* ---- attack statistics ----------------------------------------------------------- */

static json_object *roc_json(const ul_emp_roc *roc, size_t n_in, size_t n_out)
{
    json_object *o = json_object_new_object(), *t = json_object_new_object();
    char *eps = ul_num_format(roc->eps_lb, 17, MPFR_RNDD);
    json_object_object_add(o, "eps_lb", json_object_new_string(eps));
    free(eps);
    json_object_object_add(o, "auc", json_object_new_double(roc->auc));
    for (int i = 0; i < UL_EMP_N_FPR_LEVELS; i++) {
        char key[32];
        snprintf(key, sizeof key, "%g", ul_emp_fpr_levels[i]);
        json_object_object_add(t, key, json_object_new_double(roc->tpr_at_fpr[i]));
    }
    json_object_object_add(o, "tpr_at_fpr", t);
    json_object_object_add(o, "threshold", json_object_new_double(roc->threshold));
    json_object_object_add(o, "fp", json_object_new_int64((int64_t)roc->fp));
    json_object_object_add(o, "fn", json_object_new_int64((int64_t)roc->fn));
    json_object_object_add(o, "n_thresholds", json_object_new_int64((int64_t)roc->n_thresholds));
    json_object_object_add(o, "n_in", json_object_new_int64((int64_t)n_in));
    json_object_object_add(o, "n_out", json_object_new_int64((int64_t)n_out));
    return o;
}

UL_API ulaudit_status ulaudit_attack_scores(const double *in_scores, size_t n_in,
                                            const double *out_scores, size_t n_out,
                                            const char *alpha, const char *delta, char **json,
                                            char *err, size_t errlen)
{
    *json = NULL;
    if (in_scores == NULL || out_scores == NULL || delta == NULL)
        return ul_lib_fail(err, errlen, ULAUDIT_EINPUT, "attack: in_scores, out_scores and delta are "
                    "needed");
    ul_num_init();
    mpfi_t a, d;
    mpfi_init2(a, 128);
    mpfi_init2(d, 128);
    ulaudit_status st = ULAUDIT_OK;
    if (ul_num_set_decimal(a, alpha != NULL ? alpha : "0.05") != UL_OK)
        st = ul_lib_fail(err, errlen, ULAUDIT_EINPUT, "alpha: must be a decimal number (got '%s')", alpha);
    else if (ul_num_set_decimal(d, delta) != UL_OK)
        st = ul_lib_fail(err, errlen, ULAUDIT_EINPUT, "delta: must be a decimal number (got '%s')", delta);
    ul_emp_roc roc;
    if (st == ULAUDIT_OK) {
        ul_status s = ul_emp_roc_compute(&roc, in_scores, n_in, out_scores, n_out, a, d, err,
                                         errlen);
        if (s == UL_OK || s == UL_ECAP) {
            json_object *o = roc_json(&roc, n_in, n_out);
            *json = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
            json_object_put(o);
        }
        st = ul_lib_status(s);
        ul_emp_roc_clear(&roc);
    }
    mpfi_clear(a);
    mpfi_clear(d);
    return st;
}
