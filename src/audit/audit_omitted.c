/* src/audit/audit_omitted.c — omitted facts in a report (see
 * audit_omitted.h). */
#include "audit/audit_omitted.h"

#include <stdio.h>
#include <string.h>

/* The line that states the field: its choices, or true/false, or the doc
 * of a number in angle brackets. */
static void state_line(char *out, size_t n, const char *object, const ul_field_spec *spec)
{
    int w = snprintf(out, n, "add to \"%s\": \"%s\": ", object, spec->name);
    if (w < 0 || (size_t)w >= n)
        return;
    char *p = out + w;
    size_t left = n - (size_t)w;
    if (spec->type == UL_FIELD_STRING && spec->choices != NULL) {
        for (size_t i = 0; spec->choices[i] != NULL && left > 1; i++) {
            int k = snprintf(p, left, "%s\"%s\"", i == 0 ? "" : " or ", spec->choices[i]);
            if (k < 0 || (size_t)k >= left)
                return;
            p += k;
            left -= (size_t)k;
        }
    } else if (spec->type == UL_FIELD_BOOL) {
        snprintf(p, left, "true or false");
    } else {
        snprintf(p, left, "<%s>", spec->doc != NULL ? spec->doc : "value");
    }
}

const ul_field_spec *ul_audit_spec_named(const ul_field_spec *specs, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(specs[i].name, name) == 0)
            return &specs[i];
    return NULL;
}

bool ul_audit_is_omitted(const ul_audit_report *rep, const char *object, const char *name)
{
    char path[UL_JSON_PATH_MAX];
    snprintf(path, sizeof path, "$.%s.%s", object, name);
    for (int i = 0; i < rep->n_omitted; i++)
        if (strcmp(rep->omitted[i].field, path) == 0)
            return true;
    return false;
}

void ul_audit_note_omitted_as(ul_audit_report *rep, const char *object, const ul_field_spec *spec,
                              const char *reading, bool fails)
{
    if (reading == NULL || rep->n_omitted >= UL_AUDIT_MAX_OMITTED ||
        ul_audit_is_omitted(rep, object, spec->name))
        return;
    ul_audit_omitted *o = &rep->omitted[rep->n_omitted++];
    snprintf(o->field, sizeof o->field, "$.%s.%s", object, spec->name);
    snprintf(o->reading, sizeof o->reading, "%s", reading);
    state_line(o->state_it, sizeof o->state_it, object, spec);
    o->fails = fails;
}

void ul_audit_note_omitted(ul_audit_report *rep, const char *object, const ul_field_spec *spec)
{
    if (spec != NULL)
        ul_audit_note_omitted_as(rep, object, spec, spec->omitted, spec->omitted_fails);
}

void ul_audit_apply_omitted(ul_audit_report *rep)
{
    bool any = false;
    for (int i = 0; i < rep->n_omitted; i++) {
        ul_audit_omitted *o = &rep->omitted[i];
        if (!o->fails)
            continue;
        /* a copy of the path: gcc's -Wrestrict cannot tell the members apart */
        char field[sizeof o->field];
        memcpy(field, o->field, sizeof field);
        const char *dot = strrchr(field, '.');
        snprintf(o->pre_name, sizeof o->pre_name, "%s_stated", dot != NULL ? dot + 1 : field);
        snprintf(o->pre_rule, sizeof o->pre_rule,
                 "%s is stated: the theorem's hypotheses constrain it, and an omitted value "
                 "can be checked against none of them (see omitted)",
                 field);
        if (rep->pre.count < UL_MAX_PRECONDITIONS)
            ul_pre_add(&rep->pre, o->pre_name, o->pre_rule, UL_PRE_FAILS);
        any = true;
    }
    if (!any)
        return;
    rep->verdict = UL_VERDICT_INVALID;
    ul_audit_explain(rep, "Invalid: a fact the theorem's hypotheses need is not stated (see "
                          "omitted); the claimant gets no benefit of the doubt, so the theorem "
                          "supports no claim here until it is stated.");
}

bool ul_audit_omitted_failure(const ul_audit_report *rep, char *why, size_t n)
{
    for (int i = 0; i < rep->n_omitted; i++)
        if (rep->omitted[i].fails) {
            snprintf(why, n, "invalid: %s is not stated; to state it, %s", rep->omitted[i].field,
                     rep->omitted[i].state_it);
            return true;
        }
    return false;
}

void ul_audit_note_omitted_facts(ul_audit_report *rep, const char *object,
                                 const ul_field_spec *specs, size_t n, const ul_cert_values *v,
                                 uint64_t skip)
{
    for (size_t i = 0; i < n; i++) {
        if (specs[i].omitted == NULL || (i < 64 && (skip >> i) & 1u))
            continue;
        const ul_cert_value *x = ul_cert_values_get(v, specs[i].name);
        if (x == NULL || !x->present)
            ul_audit_note_omitted(rep, object, &specs[i]);
    }
}
