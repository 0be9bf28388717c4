/* src/calc/calc.h — the certified calculator as a typed layer: the quantity
 * table, one function per quantity filling a result object (nothing
 * printed), the result as JSON and as text, and the binding of named
 * inputs.  Two thin clients call it: the command line (src/cli/calc.c:
 * argv -> ul_cli_parse -> ul_calc_run -> print) and the library
 * (src/lib/ulaudit.c: names and values -> ul_calc_bind -> ul_calc_run).
 * Every reported value is an enclosure [lo, hi], lo rounded down and hi
 * rounded up (docs/design.md, "Command-line contract").
 *
 * Errors travel in the result: ul_status, the exit code the command line
 * gives (UL_CALC_EXIT_*), and a message naming the flag and the rule. */
#ifndef UL_CALC_CALC_H
#define UL_CALC_CALC_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#include "calc/domain.h"
#include "calc/read.h"
#include "num/status.h"

/* The most flags of one quantity (the command line's parser shares it). */
#define UL_CALC_MAX_FLAGS 16

/* One flag of a quantity's row: the command line's parser reads the same
 * rows (cli/args.h: ul_cli_flag is this type), the library lists them
 * (ulaudit_calc_list) and --batch checks a CSV header against them. */
typedef struct ul_calc_flag {
    const char *name;          /* without dashes */
    const char *meta;          /* placeholder in help, e.g. "E" */
    const char *help;          /* one line */
    const char *default_value; /* NULL: required */
} ul_calc_flag;

/* The exit codes of the command line (cli/exitcodes.h, which cli/calc.c
 * checks they equal). */
#define UL_CALC_EXIT_OK 0           /* a result */
#define UL_CALC_EXIT_USAGE 2        /* an input error: no result */
#define UL_CALC_EXIT_INCONCLUSIVE 3 /* the precision cap or the time budget */

/* The --max-seconds of every quantity on the command line and of every
 * --batch record that does not set it (audit's default budget); the library
 * (ulaudit.h) applies none unless asked. */
#define UL_CALC_DEFAULT_MAX_SECONDS "60"

/* The command line's backstop of a budget (src/cli/watchdog.h), reached
 * through hooks: this layer never starts a thread or a signal handler.
 * start(command, seconds) once the budget is set, stop() once the quantity
 * has returned (before anything is printed: a result is never cut). */
typedef struct {
    void (*start)(const char *command, double seconds);
    void (*stop)(void);
} ul_calc_watch;

/* How a quantity runs. */
typedef struct {
    int digits;                 /* correct significant digits asked, 1..5000 */
    long max_bits;              /* working-precision cap, 64..4194304 */
    bool default_budget;        /* apply the row's default --max-seconds (command line only:
                                   the library imposes no budget its caller did not ask for) */
    const ul_calc_watch *watch; /* NULL: no backstop */
} ul_calc_options;

/* The text report's layout. */
typedef enum {
    UL_CALC_TEXT_BOUNDS,  /* inputs, lo, hi, the digits line, note */
    UL_CALC_TEXT_BRACKET, /* inputs, lo, hi, note (the PLD bracket: no digits line) */
    UL_CALC_TEXT_VALUE,   /* inputs, a whole-number value, note */
    UL_CALC_TEXT_PLAIN,   /* note only */
} ul_calc_text_form;

typedef struct ul_calc_quantity ul_calc_quantity;

/* The domain of one flag of a quantity, by the flag's name: the flag's help
 * text is its row's help (the prose), ", ", the domain's rule, then tail
 * (e.g. " (default 1)"); the library lists it; a quantity that calls
 * ul_calc_check_domains (calc/internal.h) checks the value against it, in
 * the order of the row's inputs, before its bound (the others leave the
 * check to the bound, whose words are the same or a precondition's). */
typedef struct {
    const char *flag;
    const ul_calc_domain *domain;
    const char *tail;
} ul_calc_input;

#define UL_CALC_MAX_INPUTS 8

/* A quantity's answer.  json is the object of `ulaudit calc Q --json`
 * (quantity, inputs as given, lo, hi, digits, precision_bits, cap_hit and
 * quantity-specific fields), NULL when there is none.  message holds the
 * error or the warning lines ("calc Q: ...", one per line), "" when none. */
typedef struct {
    const ul_calc_quantity *q;
    json_object *json;
    ul_calc_text_form form;
    char *meaning;       /* the text report's first line, after the name */
    char *note;          /* the text report's last lines (may be NULL) */
    unsigned long value; /* UL_CALC_TEXT_VALUE */
    int digits;
    ul_status status;    /* UL_OK, UL_ECAP (a sound, wide result), or the error's */
    int exit_code;       /* UL_CALC_EXIT_* */
    char message[1024];
} ul_calc_result;

/* One row of the quantity table (calc/table.c): flags, summary, example,
 * and the function that computes the quantity into res and returns the
 * exit code. */
struct ul_calc_quantity {
    const char *name;
    const char *summary;
    const char *example;
    ul_calc_flag flags[UL_CALC_MAX_FLAGS];
    int nflags;
    ul_calc_input inputs[UL_CALC_MAX_INPUTS]; /* the flags with a domain (calc/domain.h) */
    int (*run)(const ul_calc_quantity *q, const char **values, const ul_calc_options *opt,
               ul_calc_result *res);
};

/* The table. */
size_t ul_calc_count(void);
const ul_calc_quantity *ul_calc_at(size_t i);
const ul_calc_quantity *ul_calc_find(const char *name);

/* The flags the library lists: the row without the trailing budget, which
 * the library applies only when it is passed. */
int ul_calc_library_nflags(const ul_calc_quantity *q);

/* Flag i's help text (the domain's rule generated in, see ul_calc_input). */
void ul_calc_flag_help(const ul_calc_quantity *q, int i, char *out, size_t len);

/* Flag i's domain, NULL when it has none. */
const ul_calc_domain *ul_calc_flag_domain(const ul_calc_quantity *q, int i);

/* "calc: unknown quantity 'X' (known: ...; see ulaudit calc --help)". */
void ul_calc_unknown_message(const char *name, char *msg, size_t len);

/* Binds n named inputs (names without dashes) to q's flags: values[i]
 * receives flags[i]'s text or its default; "digits" and "max-bits" set
 * opt (unless common_given: the caller set them, and a name repeats them).
 * 0, or UL_CALC_EXIT_USAGE with the message ("--eps: ...", as the command
 * line's parser words it) in err. */
int ul_calc_bind(const ul_calc_quantity *q, const char *const *names, const char *const *vals,
                 size_t n, bool common_given, const char **values, ul_calc_options *opt,
                 char *err, size_t errlen);

/* Runs q on values (one per flag) under its --max-seconds: fills res (the
 * caller clears it with ul_calc_result_clear) and returns res->exit_code. */
int ul_calc_run(const ul_calc_quantity *q, const char **values, const ul_calc_options *opt,
                ul_calc_result *res);

void ul_calc_result_init(ul_calc_result *res);
void ul_calc_result_clear(ul_calc_result *res);

/* The result object as JSON text (owned by res->json), pretty or one line. */
const char *ul_calc_result_json(const ul_calc_result *res, bool pretty);

/* The message on one line (its lines joined with "; ") into out. */
void ul_calc_result_message(const ul_calc_result *res, char *out, size_t len);

/* The text report (malloc'd; the caller frees it). */
char *ul_calc_result_text(const ul_calc_result *res);

#endif
