/* src/cli/calc_internal.h — what the files of `ulaudit calc` share: the
 * quantity table row and the reporting helpers that give every quantity the
 * same output shape (DESIGN.md, command-line contract): quantity, inputs as
 * given, lo (rounded down), hi (rounded up), digits, precision_bits,
 * cap_hit, and quantity-specific fields. */
#ifndef UL_CLI_CALC_INTERNAL_H
#define UL_CLI_CALC_INTERNAL_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/args.h"
#include "cli/exitcodes.h"
#include "lib/calc_api.h"
#include "num/adaptive.h"

/* The library's view of the exit codes (lib/calc_api.h) is the command line's. */
_Static_assert(UL_CALC_EXIT_OK == UL_EXIT_OK && UL_CALC_EXIT_USAGE == UL_EXIT_USAGE &&
                   UL_CALC_EXIT_INCONCLUSIVE == UL_EXIT_INCONCLUSIVE,
               "lib/calc_api.h and cli/exitcodes.h disagree");

typedef struct calc_quantity calc_quantity;

/* The default --max-seconds of every quantity on the command line and in
 * --batch (audit's default budget); the library applies none unless asked.
 * Declared with the library's interface, which --batch reads it from. */
#define CALC_DEFAULT_MAX_SECONDS UL_CALC_DEFAULT_MAX_SECONDS

/* One row of the quantity table: flags, summary, example, and the function
 * that computes and reports the quantity (returning the exit code). */
struct calc_quantity {
    const char *name;
    const char *summary;
    const char *example;
    ul_cli_flag flags[UL_CLI_MAX_FLAGS];
    int nflags;
    int (*run)(const calc_quantity *q, const char **values, const ul_cli_common *common);
};

/* A result being assembled; the JSON object holds it in both output modes. */
typedef struct {
    const calc_quantity *q;
    const char **values;
    const ul_cli_common *common;
    json_object *json;
} calc_result;

/* Where the quantities write.  The command writes to stdout and stderr; the
 * library (src/lib) and `calc --batch` install a sink of memory streams, on
 * the calling thread only (thread-local), and read back one JSON object and
 * the error message.  Every quantity writes through calc_out()/calc_err()
 * and prints its JSON with calc_print_json, never to stdout/stderr directly. */
typedef struct {
    FILE *out;        /* the result (JSON on one line) */
    FILE *err;        /* error and warning lines */
    ul_status status; /* the library status behind the last error (UL_OK when none) */
} calc_sink;

/* The calling thread's sink (NULL: stdout and stderr), set for one run. */
void calc_sink_set(calc_sink *s);
FILE *calc_out(void);
FILE *calc_err(void);

/* The command line's backstop of --max-seconds S: starts the watchdog of
 * src/cli/watchdog.h through the hooks main.c installs (calc.h,
 * ul_cli_calc_set_backstop); a no-op under a sink or without hooks, so the
 * library and --batch never arm it.  calc_out and calc_err claim the output
 * from it (a result is never cut); calc_backstop_end stops it. */
void calc_backstop_arm(const char *command, double seconds);
void calc_backstop_end(void);

/* Prints a result object: pretty on stdout, on one line into a sink. */
void calc_print_json(json_object *o);

/* Starts a result with `quantity` and `inputs` (every flag as given or defaulted). */
void calc_result_begin(calc_result *r, const calc_quantity *q, const char **values,
                       const ul_cli_common *common);

/* Adds a string field. */
void calc_add_string(json_object *o, const char *key, const char *value);

/* Adds lo, hi, digits, precision_bits and cap_hit. */
void calc_result_bounds(calc_result *r, const char *lo, const char *hi, const ul_num_report *rep);

/* Prints the result (JSON, or a text report with `meaning` and the optional
 * `note`), frees it and returns the exit code: 3 after UL_ECAP, else 0. */
int calc_result_end(calc_result *r, const char *meaning, const char *note, ul_status st);

/* The same for the PLD bracket, whose width is set by --rel-width. */
int calc_result_end_pld(calc_result *r, const char *meaning, const char *note, ul_status st);

/* Reports a library error on stderr (its message starts with the parameter
 * name, the flag name without dashes) and returns 2 (input) or 3 (cap). */
int calc_input_error(const calc_quantity *q, ul_status st, const char *msg);

/* The precision request of the common flags. */
ul_num_precision calc_precision_of(const ul_cli_common *c);

/* An inverse's enclosure [lo, hi] ∋ answer with hi the certified safe value
 * (also reported as `safe`). */
int calc_report_inverse(const calc_quantity *q, const char **v, const ul_cli_common *c,
                        mpfi_srcptr x, const ul_num_report *rep, const char *meaning,
                        const char *safe_note, ul_status st);

/* A certified value with the JSON field json_key (may be NULL) holding the
 * string json_value (NULL: JSON null), and the text note (may be NULL). */
int calc_report_value_note(const calc_quantity *q, const char **v, const ul_cli_common *c,
                           const ul_num_value *value, const ul_num_report *rep,
                           const char *meaning, const char *json_key, const char *json_value,
                           const char *note, ul_status st);

/* A certified value; extra_key/extra_value (may be NULL) add one string field. */
int calc_report_value(const calc_quantity *q, const char **v, const ul_cli_common *c,
                      const ul_num_value *value, const ul_num_report *rep, const char *meaning,
                      const char *extra_key, const char *extra_value, ul_status st);

/* The value of the flag `name` of quantity q (as given, or its default),
 * looked up by name in q's row, never by position.  A name the row does
 * not declare is a fault of this program's tables, never of the input:
 * calc_flag aborts, calc_flag_or returns dflt. */
const char *calc_flag(const calc_quantity *q, const char **v, const char *name);
const char *calc_flag_or(const calc_quantity *q, const char **v, const char *name,
                         const char *dflt);

/* --max-seconds S of calc and vectors: "none" or 0 (no budget), or a
 * plain decimal from 1e-9 (1 ns) to 1e9 seconds (ul_cli_read_seconds's
 * form).  A positive text below 1 ns is refused: strtod took 1e-20000 for
 * 0, which turned a budget into none.  False when the text breaks the rule. */
#define CALC_BUDGET_RULE "0 (none) or a number of seconds from 1e-9 to 1e9"
bool calc_read_budget(const char *text, double *secs);

/* Splits a comma-separated list in place; returns the count (at most max). */
size_t calc_split_list(char *text, const char **items, size_t max);

/* The quantities, one function each (calc_gauss.c, calc_accounting.c,
 * calc_theorems.c). */
int calc_run_theta(const calc_quantity *q, const char **v, const ul_cli_common *c);
int calc_run_gauss_sigma(const calc_quantity *q, const char **v, const ul_cli_common *c);
int calc_run_gauss_eps(const calc_quantity *q, const char **v, const ul_cli_common *c);
int calc_run_contraction(const calc_quantity *q, const char **v, const ul_cli_common *c);
int calc_run_contraction_steps(const calc_quantity *q, const char **v, const ul_cli_common *c);
int calc_run_contraction_sigma(const calc_quantity *q, const char **v, const ul_cli_common *c);
int calc_run_rdp_to_dp(const calc_quantity *q, const char **v, const ul_cli_common *c);
int calc_run_gauss_rdp_eps(const calc_quantity *q, const char **v, const ul_cli_common *c);
int calc_run_sgm_rdp(const calc_quantity *q, const char **v, const ul_cli_common *c);
int calc_run_pld_compose(const calc_quantity *q, const char **v, const ul_cli_common *c);
int calc_run_noisygd_k(const calc_quantity *q, const char **v, const ul_cli_common *c);
int calc_run_noisygd_sigma(const calc_quantity *q, const char **v, const ul_cli_common *c);
int calc_run_model_clipping_t(const calc_quantity *q, const char **v, const ul_cli_common *c);
int calc_run_model_clipping_sigma(const calc_quantity *q, const char **v, const ul_cli_common *c);
int calc_run_output_perturbation_sigma(const calc_quantity *q, const char **v,
                                       const ul_cli_common *c);
int calc_run_langevin_sigma(const calc_quantity *q, const char **v, const ul_cli_common *c);
int calc_run_langevin_k(const calc_quantity *q, const char **v, const ul_cli_common *c);

#endif
