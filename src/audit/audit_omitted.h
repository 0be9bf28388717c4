/* src/audit/audit_omitted.h — omitted facts: what an audit reads an absent
 * optional field as, and how the report says so.
 *
 * A field of a method's table whose spec carries .omitted (io/fields.h) states
 * a fact about the mechanism, the data or the training.  When a certificate
 * leaves it out, the handler takes the reading least favourable to the claim
 * (docs/design.md, "Least-favourable readings of omitted fields";
 * ulaudit-certificate(5), "Omitted fields") and notes it here, so that every
 * report names each omitted fact, the reading taken, and the line that would
 * state it.  Internal to src/audit. */
#ifndef UL_AUDIT_AUDIT_OMITTED_H
#define UL_AUDIT_AUDIT_OMITTED_H

#include <stddef.h>
#include <stdint.h>

#include "audit/audit.h"

/* Notes one omitted fact: the path "$.<object>.<spec->name>", the reading
 * spec->omitted, and a line stating it built from the spec (its choices, or
 * its doc for a number).  Does nothing when spec or spec->omitted is NULL, when the
 * same path is already noted, or when the report holds
 * UL_AUDIT_MAX_OMITTED. */
void ul_audit_note_omitted(ul_audit_report *rep, const char *object, const ul_field_spec *spec);

/* The same with a reading of the handler's own (a reading that depends on
 * other fields) and whether it fails (as ul_field_spec.omitted_fails). */
void ul_audit_note_omitted_as(ul_audit_report *rep, const char *object, const ul_field_spec *spec,
                              const char *reading, bool fails);

/* Called by ul_audit after the handler: for each noted omission that fails,
 * a precondition "<field>_stated" that fails, and the verdict invalid with a
 * sentence saying why. */
void ul_audit_apply_omitted(ul_audit_report *rep);

/* When an omission of rep fails: true, and why[0..n) says which field and
 * how to state it (for calibrate's refusals). */
bool ul_audit_omitted_failure(const ul_audit_report *rep, char *why, size_t n);

/* Notes every fact of specs[0..n) that v (read against the same table) does
 * not hold, except those whose bit i is set in skip (facts the theorem cited
 * does not read). */
void ul_audit_note_omitted_facts(ul_audit_report *rep, const char *object,
                                 const ul_field_spec *specs, size_t n, const ul_cert_values *v,
                                 uint64_t skip);

/* The spec named `name` in specs[0..n), or NULL. */
const ul_field_spec *ul_audit_spec_named(const ul_field_spec *specs, size_t n, const char *name);

/* Whether the report has noted the field `name` of `object` as omitted. */
bool ul_audit_is_omitted(const ul_audit_report *rep, const char *object, const char *name);

#endif
