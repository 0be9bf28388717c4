/* src/cert/import_internal.h — what the format readers of cert/import_*.c
 * share with the certificate writer of cert/import.c.  A reader checks the
 * peer's JSON, appends the phases it composes (ul_import_add_phase), notes the
 * claim the file carries and its adjacency, and tells what it read and how
 * in the source text (r->src, a memory stream). */
#ifndef UL_CERT_IMPORT_INTERNAL_H
#define UL_CERT_IMPORT_INTERNAL_H

#include <stdio.h>

#include "bounds/dpsgd.h"
#include "io/fields.h"
#include "io/json.h"
#include "num/domain.h"
#include "num/status.h"

typedef struct {
    char *sigma, *rate; /* decimal text, JSON number form (malloc'd) */
    unsigned long steps;
} ul_import_phase;

typedef struct {
    ul_import_phase ph[UL_DPSGD_MAX_PHASES];
    size_t n;
    const char *adjacency;   /* the tool's: "add-remove" (default) or "replace" */
    const char *adj_reading; /* why, for the source text */
    const char *file_eps, *file_delta; /* the claim the file carries (NULL: none) */
    const char *eps_path, *delta_path; /* where in the file */
    FILE *src;                         /* the source text so far */
    ul_field_arena *arena;             /* the fields read (ul_io_read_fields) */
} ul_import_run;

/* The steps of one phase: a whole number 1 .. UL_DPSGD_MAX_STEPS (the
 * audit's limit, per phase and in total: bounds/dpsgd.h). */
extern const ul_domain ul_import_domain_steps;
/* The claimed eps: 0 <= eps <= 1000 (the audit's claim.eps, the PLD's limit). */
extern const ul_domain ul_import_domain_eps;

/* Appends a phase (sigma, rate: decimal text, checked here against the
 * audit's domains under the names sigma_name, rate_name; steps checked by
 * the caller).  UL_EINPUT past UL_DPSGD_MAX_PHASES phases, naming where. */
ul_status ul_import_add_phase(ul_import_run *r, const char *sigma, const char *sigma_name,
                           const char *rate, const char *rate_name, unsigned long steps,
                           const char *where, char *err, size_t errlen);

/* The decimal text of v (a JSON number, or a string of decimal text) in
 * the domain d, named `name` in the refusal; a missing v is refused as
 * "NAME: missing (doc)". */
ul_status ul_import_decimal(const ul_json_value *v, const char *name, const ul_domain *d,
                         const char *doc, const char **text, char *err, size_t errlen);

/* The same for a whole number of the domain d, into *count. */
ul_status ul_import_count(const ul_json_value *v, const char *name, const ul_domain *d,
                       const char *doc, unsigned long *count, char *err, size_t errlen);

/* Reads the top-level object root against own[0..n) (n <= 6) and the
 * claim it may carry, "epsilon" and "delta" (noted in r); v->v[i] for
 * own[i]. */
ul_status ul_import_read_top(ul_import_run *r, const ul_json_value *root, const ul_field_spec *own,
                             size_t n, ul_cert_values *v, char *err, size_t errlen);

/* UL_EINPUT "PATH: must be WHAT, got <v described>". */
ul_status ul_import_refuse(const ul_json_value *v, const char *path, const char *what, char *err,
                           size_t errlen);

/* The format readers (cert/import_opacus.c, import_dpacct.c, import_tfp.c):
 * root is the parsed file. */
ul_status ul_import_opacus(const ul_json_value *root, ul_import_run *r, char *err, size_t errlen);
ul_status ul_import_dp_accounting(const ul_json_value *root, ul_import_run *r, char *err,
                               size_t errlen);
ul_status ul_import_tf_privacy(const ul_json_value *root, ul_import_run *r, char *err, size_t errlen);

#endif
