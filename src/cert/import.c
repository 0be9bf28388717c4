/* src/cert/import.c — `ulaudit import`: the options, the checks every
 * format shares, the claim and the certificate written (cert/import.h).
 * The formats are read by cert/import_opacus.c, import_dpacct.c and
 * import_tfp.c. */
#include "cert/import.h"

#include <gmp.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cert/cert.h"
#include "cert/import_internal.h"
#include "io/escape.h"
#include "num/encl.h"
#include "num/input.h"

const char *const ul_import_formats[] = {"opacus", "dp-accounting", "tf-privacy", NULL};
const char *const ul_import_option_names[] = {"eps", "delta", "adjacency", NULL};
static const char *const ADJACENCIES[] = {"add-remove", "replace", NULL};

/* The audit's limits (audit/audit_dpsgd.c: steps 1..1e9 per phase and in
 * total, claim.eps 0..1000), so that what is imported is what it takes. */
const ul_domain ul_import_domain_steps = {"steps", UL_DOMAIN_INTEGER, "1", false, "1000000000",
                                          false, "", NULL};
const ul_domain ul_import_domain_eps = {"eps", UL_DOMAIN_REAL, "0", false, "1000", false, "",
                                        NULL};

ul_status ul_import_options_set(ul_import_options *opt, const char *name, const char *value,
                                char *err, size_t errlen)
{
    const char **slot = NULL;
    if (name != NULL && strcmp(name, "eps") == 0)
        slot = &opt->eps;
    else if (name != NULL && strcmp(name, "delta") == 0)
        slot = &opt->delta;
    else if (name != NULL && strcmp(name, "adjacency") == 0)
        slot = &opt->adjacency;
    if (slot == NULL) {
        char hint[128], q[96];
        const char *n = name != NULL ? name : "(null)";
        ul_io_did_you_mean(hint, sizeof hint, n, ul_import_option_names,
                           ul_io_list_len(ul_import_option_names), "");
        ul_io_quote(q, sizeof q, n, 60);
        return ul_fail(err, errlen, UL_EINPUT,
                       "unknown option %s%s (options: eps, delta, adjacency)", q, hint);
    }
    if (value == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "option %s: no value", name);
    if (*slot != NULL)
        return ul_fail(err, errlen, UL_EINPUT, "option %s: given more than once", name);
    *slot = value;
    return UL_OK;
}

/* text (a decimal, ul_num_is_decimal) as a JSON number literal: the same
 * digits without a leading '+' and without leading zeros before the
 * point, which decimal text allows and JSON does not (RFC 8259 §6). */
static char *json_number(const char *text)
{
    const char *t = text[0] == '+' ? text + 1 : text;
    bool neg = t[0] == '-';
    const char *d = t + neg;
    while (d[0] == '0' && d[1] >= '0' && d[1] <= '9')
        d++;
    size_t len = strlen(d) + 2;
    char *out = malloc(len);
    if (out == NULL)
        abort(); /* the size of one number: out of memory aborts, as GMP does (num/status.h) */
    snprintf(out, len, "%s%s", neg ? "-" : "", d);
    return out;
}

ul_status ul_import_decimal(const ul_json_value *v, const char *name, const ul_domain *d,
                            const char *doc, const char **text, char *err, size_t errlen)
{
    *text = NULL;
    if (v == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "%s: missing (%s)", name, doc);
    if (v->type != UL_JSON_NUMBER && v->type != UL_JSON_STRING) {
        char got[128];
        ul_io_describe(got, sizeof got, v);
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: must be a number (%s; a JSON number or a string of decimal text), "
                       "got %s",
                       name, doc, got);
    }
    ul_status st = ul_domain_check(d, name, v->text, err, errlen);
    if (st == UL_OK)
        *text = v->text;
    return st;
}

ul_status ul_import_count(const ul_json_value *v, const char *name, const ul_domain *d,
                          const char *doc, unsigned long *count, char *err, size_t errlen)
{
    const char *text;
    ul_status st = ul_import_decimal(v, name, d, doc, &text, err, errlen);
    if (st != UL_OK)
        return st;
    /* whole and within d (at most 1e15 here): exact, and it fits */
    mpq_t x;
    mpq_init(x);
    ul_num_mpq_valid(x, text);
    *count = mpz_get_ui(mpq_numref(x));
    mpq_clear(x);
    return UL_OK;
}

ul_status ul_import_add_phase(ul_import_run *r, const char *sigma, const char *sigma_name,
                              const char *rate, const char *rate_name, unsigned long steps,
                              const char *where, char *err, size_t errlen)
{
    if (r->n == UL_DPSGD_MAX_PHASES)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: more than %d phases (the most a dp-sgd certificate holds)", where,
                       UL_DPSGD_MAX_PHASES);
    ul_status st = ul_domain_check(&ul_domain_sigma, sigma_name, sigma, err, errlen);
    if (st == UL_OK)
        st = ul_domain_check(&ul_domain_q_pos, rate_name, rate, err, errlen);
    if (st != UL_OK)
        return st;
    r->ph[r->n++] = (ul_import_phase){json_number(sigma), json_number(rate), steps};
    return UL_OK;
}

ul_status ul_import_read_top(ul_import_run *r, const ul_json_value *root, const ul_field_spec *own,
                             size_t n, ul_cert_values *v, char *err, size_t errlen)
{
    ul_field_spec all[8] = {
        {.name = "epsilon", .type = UL_FIELD_DECIMAL, .domain = &ul_import_domain_eps,
         .doc = "the claimed eps"},
        {.name = "delta", .type = UL_FIELD_DECIMAL, .domain = &ul_domain_delta,
         .doc = "the claimed delta"},
    };
    memcpy(all + 2, own, n * sizeof own[0]);
    ul_cert_values got;
    ul_status st = ul_io_read_fields(r->arena, root, "$", all, n + 2, &got, err, errlen);
    if (st != UL_OK)
        return st;
    if (got.v[0].present)
        r->file_eps = got.v[0].text, r->eps_path = got.v[0].path;
    if (got.v[1].present)
        r->file_delta = got.v[1].text, r->delta_path = got.v[1].path;
    *v = (ul_cert_values){n, got.v + 2};
    return UL_OK;
}

ul_status ul_import_refuse(const ul_json_value *v, const char *path, const char *what, char *err,
                           size_t errlen)
{
    char got[128];
    ul_io_describe(got, sizeof got, v);
    return ul_fail(err, errlen, UL_EINPUT, "%s: must be %s, got %s", path, what, got);
}

/* The claim: each of eps and delta from the option, else the file. */
static ul_status resolve_claim(const ul_import_run *r, const ul_import_options *o,
                               const char **eps, const char **delta, char *err, size_t errlen)
{
    const char *pre = o->flag_prefix != NULL ? o->flag_prefix : "";
    char name[64];
    *eps = o->eps != NULL ? o->eps : r->file_eps;
    *delta = o->delta != NULL ? o->delta : r->file_delta;
    if (*eps == NULL || *delta == NULL) {
        const char *what = *eps == NULL ? "eps" : "delta";
        if (pre[0] == '\0') /* the library's options */
            return ul_fail(err, errlen, UL_EINPUT,
                           "%s: missing: the claimed %s is not in the file; give the option %s",
                           what, what, what);
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s%s: missing: the claimed %s is not in the file; give %s%s %s", pre,
                       what, what, pre, what, *eps == NULL ? "E" : "D");
    }
    ul_status st;
    snprintf(name, sizeof name, "%seps", pre);
    st = ul_domain_check(&ul_import_domain_eps, o->eps != NULL ? name : r->eps_path, *eps, err,
                         errlen);
    snprintf(name, sizeof name, "%sdelta", pre);
    if (st == UL_OK)
        st = ul_domain_check(&ul_domain_delta, o->delta != NULL ? name : r->delta_path, *delta,
                             err, errlen);
    return st;
}

/* The adjacency written: the option's, else the tool's. */
static ul_status resolve_adjacency(ul_import_run *r, const ul_import_options *o, char *err,
                                   size_t errlen)
{
    const char *pre = o->flag_prefix != NULL ? o->flag_prefix : "";
    if (o->adjacency == NULL) {
        fprintf(r->src, " Adjacency: %s (%s).", r->adjacency, r->adj_reading);
        return UL_OK;
    }
    if (!ul_io_in_list(o->adjacency, ADJACENCIES)) {
        char q[96];
        ul_io_quote(q, sizeof q, o->adjacency, 60);
        return ul_fail(err, errlen, UL_EINPUT, "%sadjacency: must be add-remove or replace (got %s)",
                       pre, q);
    }
    if (strcmp(o->adjacency, r->adjacency) == 0)
        fprintf(r->src, " Adjacency: %s (%s; %sadjacency says the same).", r->adjacency,
                r->adj_reading, pre);
    else
        fprintf(r->src, " Adjacency: %s, as %sadjacency says (the tool's reading was %s: %s).",
                o->adjacency, pre, r->adjacency, r->adj_reading);
    r->adjacency = o->adjacency;
    return UL_OK;
}

/* Where each number of the claim came from, in the source text. */
static void note_claim(const ul_import_run *r, const ul_import_options *o)
{
    const char *pre = o->flag_prefix != NULL ? o->flag_prefix : "";
    const char *names[2] = {"eps", "delta"}, *opts[2] = {o->eps, o->delta};
    const char *files[2] = {r->file_eps, r->file_delta}, *paths[2] = {r->eps_path, r->delta_path};
    fputs(" Claim:", r->src);
    for (int i = 0; i < 2; i++) {
        if (opts[i] != NULL && files[i] != NULL)
            fprintf(r->src, "%s %s from %s%s (the file's %s, %s, not taken)", i ? ";" : "",
                    names[i], pre, names[i], paths[i], files[i]);
        else if (opts[i] != NULL)
            fprintf(r->src, "%s %s from %s%s", i ? ";" : "", names[i], pre, names[i]);
        else
            fprintf(r->src, "%s %s from the file's %s", i ? ";" : "", names[i], paths[i]);
    }
    fputs(".", r->src);
}

/* The total steps within the audit's limit (per phase: checked by the readers). */
static ul_status check_total(const ul_import_run *r, char *err, size_t errlen)
{
    if (r->n == 0)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$: no noisy step in the file (a certificate needs at least one phase)");
    unsigned long long total = 0;
    for (size_t i = 0; i < r->n; i++)
        total += r->ph[i].steps;
    if (total > UL_DPSGD_MAX_STEPS)
        return ul_fail(err, errlen, UL_EINPUT,
                       "$: %llu steps in all, above the limit of %lu (steps in total)", total,
                       (unsigned long)UL_DPSGD_MAX_STEPS);
    return UL_OK;
}

/* The certificate, laid out as the audits/ corpus is: one phase a line. */
static char *write_certificate(const ul_import_run *r, const char *source, const char *eps,
                               const char *delta)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f == NULL)
        abort(); /* a fixed-size stream: out of memory aborts (num/status.h) */
    json_object *s = json_object_new_string(source);
    fprintf(f, "{\n  \"format\": \"%s\",\n  \"method\": \"dp-sgd\",\n  \"source\": %s,\n", UL_CERT_FORMAT,
            json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(s);
    fputs("  \"parameters\": {\n    \"phases\": [\n", f);
    for (size_t i = 0; i < r->n; i++)
        fprintf(f, "      {\"noise_multiplier\": %s, \"sample_rate\": %s, \"steps\": %lu}%s\n",
                r->ph[i].sigma, r->ph[i].rate, r->ph[i].steps, i + 1 < r->n ? "," : "");
    char *e = json_number(eps), *d = json_number(delta);
    fprintf(f, "    ],\n    \"adjacency\": \"%s\"\n  },\n  \"claim\": {\"eps\": %s, \"delta\": %s}\n}\n",
            r->adjacency, e, d);
    free(e);
    free(d);
    if (fclose(f) != 0 || buf == NULL)
        abort();
    return buf;
}

typedef ul_status (*import_reader)(const ul_json_value *, ul_import_run *, char *, size_t);

static ul_status find_reader(const char *format, import_reader *reader, char *err, size_t errlen)
{
    static const import_reader READERS[] = {ul_import_opacus, ul_import_dp_accounting,
                                            ul_import_tf_privacy};
    for (size_t i = 0; ul_import_formats[i] != NULL; i++)
        if (format != NULL && strcmp(format, ul_import_formats[i]) == 0) {
            *reader = READERS[i];
            return UL_OK;
        }
    char hint[256], q[96];
    ul_io_suggest(hint, sizeof hint, format != NULL ? format : "",
                  ul_import_formats, ul_io_list_len(ul_import_formats));
    ul_io_quote(q, sizeof q, format != NULL ? format : "", 60);
    return ul_fail(err, errlen, UL_EINPUT, "format: unknown format %s (%s)", q, hint);
}

ul_status ul_import_check_format(const char *format, char *err, size_t errlen)
{
    import_reader reader;
    return find_reader(format, &reader, err, errlen);
}

/* Reads the file, the claim and the adjacency into r; *source the text. */
static ul_status import_into(ul_import_run *r, import_reader reader, const char *format,
                             const ul_json_value *root, const ul_import_options *o,
                             const char **eps, const char **delta, char *err, size_t errlen)
{
    fprintf(r->src, "Imported by ulaudit import %s%s%s.", format,
            o->input != NULL ? " from " : "", o->input != NULL ? o->input : "");
    ul_status st = reader(root, r, err, errlen);
    if (st == UL_OK)
        st = check_total(r, err, errlen);
    if (st == UL_OK)
        st = resolve_claim(r, o, eps, delta, err, errlen);
    if (st == UL_OK)
        st = resolve_adjacency(r, o, err, errlen);
    if (st == UL_OK)
        note_claim(r, o);
    return st;
}

ul_status ul_import(const char *format, const char *text, size_t len,
                    const ul_import_options *opt, char **certificate, char *err, size_t errlen)
{
    *certificate = NULL;
    static const ul_import_options none = {0};
    const ul_import_options *o = opt != NULL ? opt : &none;
    import_reader reader = NULL;
    ul_status st = find_reader(format, &reader, err, errlen);
    ul_json_doc *doc = NULL;
    if (st == UL_OK && text == NULL)
        st = ul_fail(err, errlen, UL_EINPUT, "text: no input text");
    if (st == UL_OK)
        st = ul_json_parse(text, len, &doc, err, errlen);
    if (st != UL_OK)
        return ul_io_escaped(st, err, errlen);
    ul_import_run *r = calloc(1, sizeof *r);
    char *src = NULL;
    size_t srclen = 0;
    if (r == NULL || (r->arena = ul_field_arena_new()) == NULL ||
        (r->src = open_memstream(&src, &srclen)) == NULL)
        abort(); /* fixed sizes: out of memory aborts, as GMP does (num/status.h) */
    r->adjacency = "add-remove";
    const char *eps = NULL, *delta = NULL;
    st = import_into(r, reader, format, ul_json_root(doc), o, &eps, &delta, err, errlen);
    fclose(r->src);
    if (st == UL_OK)
        *certificate = write_certificate(r, src, eps, delta);
    free(src);
    for (size_t i = 0; i < r->n; i++)
        free(r->ph[i].sigma), free(r->ph[i].rate);
    ul_field_arena_free(r->arena);
    free(r);
    ul_json_free(doc);
    return ul_io_escaped(st, err, errlen);
}
