/* src/cert/import.h — the peers' accounting inputs turned into a
 * certificate (`ulaudit import`, ulaudit_import): an Opacus accountant's
 * history, a dp_accounting DpEvent tree, TF Privacy's compute_dp_sgd_privacy
 * parameters, each as JSON, become one "ulaudit-certificate/1" of method
 * "dp-sgd" (audit/audit_dpsgd.c, ulaudit-certificate(5)) that `ulaudit
 * audit` takes:
 *   - the phases (noise_multiplier, sample_rate, steps) as the tool composes
 *     them, every number copied as its decimal text (never through a double);
 *     a value the tool derives (TF Privacy's q = batch_size / n, its steps)
 *     computed exactly and, when not a terminating decimal, rounded the way
 *     least favourable to the claim (the rate and the steps UP);
 *   - the adjacency the tool implies (add-remove for all three; a
 *     dp_accounting file may say REPLACE_ONE) written out, and the sampling
 *     (Poisson for all three) said in "source";
 *   - "source": what was imported, from which format, and every reading
 *     taken (each rounding, each default, where the claim came from);
 *   - the claim (eps, delta) from the options, else from the file.
 *
 * Library rules: never prints, never exits.  Every refusal is UL_EINPUT with
 * one line in (err, errlen) naming the field (a JSON path of the input such
 * as "$.history[1][2]", or the option) and the rule; nothing is returned.
 * The formats and their readings: man ulaudit-import(1).
 */
#ifndef UL_CERT_IMPORT_H
#define UL_CERT_IMPORT_H

#include <stddef.h>

#include "num/status.h"

/* The formats, NULL-terminated: "opacus", "dp-accounting", "tf-privacy". */
extern const char *const ul_import_formats[];

/* The options of an import (the flags of `ulaudit import` without dashes). */
typedef struct {
    const char *eps;       /* the claimed eps; NULL: the file's "epsilon" */
    const char *delta;     /* the claimed delta; NULL: the file's "delta" */
    const char *adjacency; /* "add-remove" or "replace"; NULL: the tool's */
    const char *input;     /* what was read, named in "source" (a file name); NULL: not named */
    const char *flag_prefix; /* how messages write an option: "--" (the command line) or "" */
} ul_import_options;

/* The option names ul_import_options_set takes, NULL-terminated:
 * "eps", "delta", "adjacency". */
extern const char *const ul_import_option_names[];

/* Sets the option called name (one of ul_import_option_names) to value.
 * UL_EINPUT naming it when the name is unknown (with "did you mean"), the
 * option was already set, or value is NULL. */
ul_status ul_import_options_set(ul_import_options *opt, const char *name, const char *value,
                                char *err, size_t errlen);

/* UL_OK when format is one of ul_import_formats; else UL_EINPUT naming it,
 * with "did you mean" (for a caller that checks it before reading a file). */
ul_status ul_import_check_format(const char *format, char *err, size_t errlen);

/* Imports text[0..len) (need not be NUL-terminated) of the given format.
 * On success *certificate is the certificate's JSON text (malloc'd,
 * NUL-terminated, ending in a newline; it reads back with
 * ul_cert_load_buffer).  On failure *certificate is NULL. */
ul_status ul_import(const char *format, const char *text, size_t len,
                    const ul_import_options *opt, char **certificate, char *err, size_t errlen);

#endif
