/* src/io/fields.h — typed, path-named reading of a JSON object's fields.
 *
 * A caller describes the fields an object may hold in a table of
 * ul_field_spec; ul_io_read_fields checks the object against it and hands
 * back each value as its TEXT (a number never passes through a double: the
 * certified layer reads the decimal exactly, ul_num_set_decimal).  Used for
 * the certificate's "parameters", "claim" and "stated" (cert/cert.h,
 * ul_cert_read_object) and for the attack configuration (emp/attack_config.c).
 *
 * Every decimal read here is held to the limits of exact input (num/input.h),
 * checked before its range; a spec with .exact also to 10^±20000.  Every error
 * is UL_EINPUT with one line in (err, errlen) naming the JSON path and the rule:
 *   "$.parameters.sgima: unknown field (did you mean 'sigma'? known: sigma, eps, delta)"
 *   "$.claim.delta: must be <= 1 (got '1e999999')"
 *
 * Names: the types keep the names they had in cert/cert.h (ul_field_spec,
 * UL_FIELD_*, ul_cert_value, ul_cert_values, ul_cert_values_get), used by
 * every audit handler; the functions of this module are ul_io_* (and the
 * arena ul_field_arena_*).
 */
#ifndef UL_IO_FIELDS_H
#define UL_IO_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "io/json.h"
#include "num/domain.h"
#include "num/status.h"

/* Largest value a UL_FIELD_COUNT accepts whatever its spec says (10^18). */
#define UL_FIELD_COUNT_MAX "1000000000000000000"

typedef enum {
    UL_FIELD_DECIMAL,      /* a finite decimal: JSON number or string of decimal text */
    UL_FIELD_COUNT,        /* a whole number 0 ≤ n ≤ UL_FIELD_COUNT_MAX (decimal text whose
                            * exact value is whole: 1000, "1000", 1e3 and 1000.0 all pass) */
    UL_FIELD_STRING,       /* a JSON string; one of `choices` when choices is not NULL */
    UL_FIELD_DECIMAL_LIST, /* a non-empty JSON array of decimals; lo/hi apply to each */
    UL_FIELD_BOOL,         /* true or false */
    UL_FIELD_OBJECT,       /* an object, read by the caller through ul_cert_value.json */
    UL_FIELD_ANY,          /* any value, checked by the caller (ul_cert_value.json) */
} ul_field_type;

/* One field of an object.  lo / hi are decimal text bounds (NULL = none),
 * compared exactly; strict flags make them < / >.  A field that is a
 * quantity with a shared declaration (num/domain.h: delta, the Rényi
 * order, the dataset size, ...) names it in .domain instead, and its range
 * is read from there (lo / hi are then left unset).  choices is a
 * NULL-terminated list (UL_FIELD_STRING only).  doc is a short description
 * shown when the field is missing. */
typedef struct {
    const char *name;
    ul_field_type type;
    bool required;
    const char *lo;
    bool lo_strict;
    const char *hi;
    bool hi_strict;
    const char *const *choices;
    const ul_domain *domain; /* DECIMAL, COUNT, DECIMAL_LIST: the range, when set */
    const char *doc;
    bool exact; /* DECIMAL, DECIMAL_LIST: read by the handler as an exact rational,
                 * so also within 10^±20000 (num/input.h, ul_num_check_exact) */
    /* An optional field that states a FACT about the mechanism, the data or
     * the training (adjacency, sampling, initialisation, step size, learning
     * time, steps, the branch the claimant's code took): what an omitted
     * value is read as, always the reading least favourable to the claim
     * (ulaudit-certificate(5), "Omitted fields"; the audit report names it).
     * NULL for a field that is not such a fact: a required field, the
     * auditor's own choice (which valid conversion), a number to check. */
    const char *omitted;
    /* With .omitted: no reading of an omitted value can be checked (an
     * unstated initialisation, learning time or step size the theorem's
     * hypotheses constrain), so the theorem's precondition fails and the
     * audit is invalid (audit/audit_omitted.h). */
    bool omitted_fails;
} ul_field_spec;

/* A field as read.  Strings are owned by the certificate (valid until
 * ul_cert_free). */
typedef struct {
    const char *name; /* the spec's name */
    const char *path; /* "$.parameters.sigma" */
    ul_field_type type;
    bool present;              /* false only for an absent optional field */
    const char *text;          /* DECIMAL, COUNT: the decimal text as written;
                                * STRING: the string; BOOL: "true" / "false" */
    unsigned long long count;  /* COUNT: the value */
    bool boolean;              /* BOOL: the value */
    size_t n_items;            /* DECIMAL_LIST: number of elements (≥ 1) */
    const char *const *items;  /* DECIMAL_LIST: each element's decimal text */
    const ul_json_value *json; /* OBJECT, ANY: the value */
} ul_cert_value;

/* The fields of one object, v[i] for specs[i] (same order).  Owned by the
 * arena (a certificate's own for ul_cert_read_object). */
typedef struct {
    size_t n;
    const ul_cert_value *v;
} ul_cert_values;

/* The values are owned by an arena (valid until ul_field_arena_free). */
typedef struct ul_field_arena ul_field_arena;
ul_field_arena *ul_field_arena_new(void);    /* NULL when out of memory */
void ul_field_arena_free(ul_field_arena *a); /* NULL-safe */

/* Reads obj (NULL reads as an empty object) at JSON path `path` against
 * specs[0..n): every key present must be a spec (unknown field → error
 * listing the known ones), every required spec must be present, each value
 * must have its type, lie in its range (exact decimal comparison,
 * ul_num_read_checked semantics) and, for lists, be non-empty with each
 * element valid.  UL_EINPUT when obj is not an object.  On failure
 * *out = {0, NULL}. */
ul_status ul_io_read_fields(ul_field_arena *arena, const ul_json_value *obj, const char *path,
                            const ul_field_spec *specs, size_t n, ul_cert_values *out, char *err,
                            size_t errlen);

/* The value for `name` in vals (NULL when no spec had that name). */
const ul_cert_value *ul_cert_values_get(const ul_cert_values *vals, const char *name);

/* The whole numbers of a count-or-list field v (UL_FIELD_COUNT, or a
 * UL_FIELD_DECIMAL_LIST): each whole and ≤ hi, at most max of them, into
 * out[]; *n their number.  UL_EINPUT naming v->path and the element
 * otherwise. */
ul_status ul_io_read_counts(const ul_cert_value *v, unsigned long hi, unsigned long *out,
                            size_t max, size_t *n, char *err, size_t errlen);

/* ---- message pieces, for readers with rules of their own (cert/cert.c) -- */

/* "did you mean 'sigma'? " when one of names[0..n) is close to word, then
 * "known: a, b, c". */
void ul_io_suggest(char *out, size_t outlen, const char *word, const char *const *names, size_t n);
/* " (did you mean 'PREFIXname'?)" when one of names[0..n) is close to word
 * (a typo: Damerau distance 1 for names of up to 3 characters, else 2) or
 * is the canonical name of word among the peers' spellings this tool knows
 * (epsilon for eps, noise-multiplier for sigma, ...); else "".  For the
 * messages of unknown flags and commands. */
void ul_io_did_you_mean(char *out, size_t outlen, const char *word, const char *const *names,
                        size_t n, const char *prefix);
/* text as a quoted one-line excerpt, control characters escaped, cut after
 * about max bytes at a UTF-8 character boundary. */
void ul_io_quote(char *out, size_t outlen, const char *text, size_t max);
/* What a value is, for "got …" messages ("the string \"x\"", "null", …). */
void ul_io_describe(char *out, size_t outlen, const ul_json_value *v);
/* Whether s is in the NULL-terminated list; the list's length. */
bool ul_io_in_list(const char *s, const char *const *list);
size_t ul_io_list_len(const char *const *list);
/* The first key of obj not among names[0..n), as the error
 * "<path>.<key>: unknown <what> (did you mean …? known: …)"; UL_OK if none. */
ul_status ul_io_check_keys(const ul_json_value *obj, const char *path, const char *const *names,
                           size_t n, const char *what, char *err, size_t errlen);

#endif
