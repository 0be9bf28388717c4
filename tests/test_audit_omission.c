/* tests/test_audit_omission.c — an omitted fact never helps the claimant.
 *
 * The property (docs/design.md, "Least-favourable readings of omitted fields";
 * ulaudit-certificate(5), "Omitted fields"): for every certificate of the
 * audits/ corpus and every optional field of its method's parameter table
 * that states a fact (ul_field_spec.omitted), the verdict with the field
 * removed is never more favourable to the claim than the least favourable
 * verdict with the field stated, over every value the test states:
 *     supported  >  inconclusive  >  unsupported = refuted = invalid.
 * Each field is stated as each of its choices (strings), true and false
 * (booleans), or a spread of decimals and counts from 0 to 10^6 plus the
 * certificate's own value (numbers); a value the method refuses as input
 * (exit 2: out of its range, inconsistent with another field) is not an
 * allowed statement and is skipped.  The oracle is the audit of the stated
 * certificates: a relation between verdicts, no value of the code under
 * test is assumed.  The certificates are rewritten with json-c here, not
 * with the certificate writer under test.
 *
 * Also: where the field matters (two statements give different verdicts),
 * the report of the omitted form names it under "omitted"; and every fact
 * of every method appears in the manual's table of omitted fields. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "num/deadline.h"
#include "num/encl.h"

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(audit_omission, .fini = teardown);

static const ul_num_precision WANT = {17, 0, 0};

/* Each audit's time budget: one that runs out is left out of the
 * comparison (a stated value: the test only gets weaker; the omitted form:
 * the field is skipped and logged), never counted as a verdict. */
#define AUDIT_SECONDS 5.0

/* Favourability to the claim: what the property orders. */
static int favour(ul_verdict v)
{
    return v == UL_VERDICT_SUPPORTED ? 2 : v == UL_VERDICT_INCONCLUSIVE ? 1 : 0;
}

static void repo_path(char *out, size_t n, const char *rel)
{
    const char *self = __FILE__;
    const char *slash = strrchr(self, '/');
    snprintf(out, n, "%.*s../%s", slash ? (int)(slash - self + 1) : 0, self, rel);
}

/* Audits the certificate doc.  False when it is refused as input or its
 * time budget ran out. */
static bool audit_doc(json_object *doc, ul_verdict *v, ul_audit_report *rep)
{
    const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN);
    ul_cert *c = NULL;
    char err[1024];
    if (ul_cert_load_buffer(text, strlen(text), &c, err, sizeof err) != UL_OK)
        return false;
    ul_deadline_set(AUDIT_SECONDS);
    ul_status st = ul_audit(c, &WANT, rep, err, sizeof err);
    bool late = ul_deadline_passed();
    ul_deadline_clear();
    ul_cert_free(c);
    if (st != UL_OK || late)
        return false;
    *v = rep->verdict;
    return true;
}

/* The values stated for a field of type t (NULL-terminated); own is the
 * certificate's own text of it (or NULL). */
static const char *const COUNTS[] = {"0", "1", "2", "10", "1000", "1000000", NULL};
static const char *const DECIMALS[] = {"0", "1e-6", "0.01", "0.5", "1", "10", "1000000", NULL};

static json_object *value_json(const ul_field_spec *s, const char *text)
{
    if (s->type == UL_FIELD_STRING)
        return json_object_new_string(text);
    if (s->type == UL_FIELD_BOOL)
        return json_object_new_boolean(strcmp(text, "true") == 0);
    return json_object_new_string(text); /* decimals may be written as strings */
}

typedef struct {
    int audited, violations, unnamed;
} tally;

/* One field of one certificate: the omitted verdict against each stated
 * one. */
static void check_field(const char *name, json_object *doc, const ul_field_spec *s, tally *t)
{
    json_object *params = json_object_object_get(doc, "parameters");
    json_object *own = NULL;
    if (json_object_object_get_ex(params, s->name, &own))
        own = json_object_get(own);
    json_object_object_del(params, s->name);
    ul_audit_report rep;
    ul_verdict omitted;
    bool ok = audit_doc(doc, &omitted, &rep);
    bool named = false;
    char path[300];
    snprintf(path, sizeof path, "$.parameters.%s", s->name);
    for (int i = 0; ok && i < rep.n_omitted; i++)
        named = named || strcmp(rep.omitted[i].field, path) == 0;
    if (ok && favour(omitted) == 0 && named) { /* holds whatever the stated verdicts */
        t->audited++;
        if (own != NULL)
            json_object_object_add(params, s->name, own);
        return;
    }

    const char *bools[] = {"true", "false", NULL};
    const char *const *values = s->type == UL_FIELD_STRING ? s->choices
                                : s->type == UL_FIELD_BOOL ? bools
                                : s->type == UL_FIELD_COUNT ? COUNTS
                                                            : DECIMALS;
    int worst = 3, n_stated = 0;
    bool differ = false;
    ul_verdict first = UL_VERDICT_INCONCLUSIVE;
    char worst_value[64] = "";
    for (size_t i = 0; values != NULL && values[i] != NULL; i++) {
        json_object_object_add(params, s->name, value_json(s, values[i]));
        ul_verdict v;
        if (audit_doc(doc, &v, &rep)) {
            t->audited++;
            differ = differ || (n_stated > 0 && v != first);
            if (n_stated++ == 0)
                first = v;
            if (favour(v) < worst) {
                worst = favour(v);
                snprintf(worst_value, sizeof worst_value, "%s (%s)", values[i],
                         ul_verdict_name(v));
            }
        }
    }
    if (own != NULL) {
        json_object_object_add(params, s->name, own); /* restores the original */
        ul_verdict v;
        if (audit_doc(doc, &v, &rep) && favour(v) < worst) {
            worst = favour(v);
            snprintf(worst_value, sizeof worst_value, "its own value (%s)", ul_verdict_name(v));
        }
    } else {
        json_object_object_del(params, s->name);
    }
    if (!ok || n_stated == 0)
        return;
    t->audited++;
    if (favour(omitted) > worst) {
        cr_log_error("%s: $.parameters.%s omitted gives %s, stated %s", name, s->name,
                     ul_verdict_name(omitted), worst_value);
        t->violations++;
    }
    if (differ && !named) {
        cr_log_error("%s: $.parameters.%s changes the verdict but the report of the omitted "
                     "form does not name it",
                     name, s->name);
        t->unnamed++;
    }
}

static int is_json(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 5 && strcmp(d->d_name + n - 5, ".json") == 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

Test(audit_omission, an_omitted_fact_never_helps_the_claim, .timeout = 900)
{
    char dir[1024];
    repo_path(dir, sizeof dir, "audits");
    struct dirent **names;
    int n = scandir(dir, &names, is_json, by_name);
    cr_assert(n > 0, "no certificates in %s", dir);
    tally t = {0};
    int fields = 0;
    for (int i = 0; i < n; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        json_object *doc = json_object_from_file(path);
        cr_assert(doc != NULL, "%s does not parse", path);
        const ul_audit_method *m =
            ul_audit_find(json_object_get_string(json_object_object_get(doc, "method")));
        cr_assert(m != NULL && m->params != NULL, "%s: no method table", names[i]->d_name);
        for (size_t k = 0; k < m->n_params; k++) {
            if (m->params[k].omitted == NULL)
                continue;
            fields++;
            check_field(names[i]->d_name, doc, &m->params[k], &t);
        }
        json_object_put(doc);
        free(names[i]);
    }
    free(names);
    cr_log_info("%d (certificate, fact) pairs, %d audits", fields, t.audited);
    cr_assert(fields > 0);
    cr_assert_eq(t.violations, 0, "%d omitted facts favour the claim (see the log)",
                 t.violations);
    cr_assert_eq(t.unnamed, 0, "%d omitted facts that matter are not named (see the log)",
                 t.unnamed);
}

/* The manual's table (ulaudit-certificate(5), "Omitted fields") has a row
 * "method <TAB> field" for every fact of every method, so that what the
 * audit does and what a user reads cannot drift apart. */
Test(audit_omission, every_fact_is_in_the_manual_table)
{
    const char *const *METHODS = ul_cert_methods; /* every method (cert/methods.h) */
    char path[1024];
    repo_path(path, sizeof path, "man/ulaudit-certificate.5");
    FILE *f = fopen(path, "r");
    cr_assert(f != NULL, "cannot open %s", path);
    static char man[1 << 20];
    size_t len = fread(man, 1, sizeof man - 1, f);
    fclose(f);
    man[len] = '\0';
    const char *table = strstr(man, ".SH OMITTED FIELDS");
    cr_assert(table != NULL, "the manual has no OMITTED FIELDS section");
    int missing = 0;
    for (size_t i = 0; METHODS[i] != NULL; i++) {
        const ul_audit_method *m = ul_audit_find(METHODS[i]);
        cr_assert(m != NULL);
        for (size_t k = 0; k < m->n_params; k++) {
            if (m->params[k].omitted == NULL)
                continue;
            char row[256];
            snprintf(row, sizeof row, "\n%s\t%s\t", METHODS[i], m->params[k].name);
            if (strstr(table, row) == NULL) {
                cr_log_error("no row '%s<TAB>%s<TAB>' in the manual's table", METHODS[i],
                             m->params[k].name);
                missing++;
            }
        }
    }
    cr_assert_eq(missing, 0);
}
