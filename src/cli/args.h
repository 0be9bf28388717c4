/* src/cli/args.h — the one command-line parser of every command (calc,
 * audit, calibrate, attack, attack --scores, vectors and the top-level
 * dispatch), driven by the commands' flag rows.
 *
 * The rules, the same for every command (man ulaudit(1), FLAGS;
 * docs/design.md, "Command-line contract"):
 *   - a valued flag is written `--name value` or `--name=value`;
 *   - a switch (--json, --help, --resume, ...) is written bare, or
 *     `--name=true|false|yes|no|1|0`; any other value is refused;
 *   - `-h` is --help;
 *   - a flag given twice is refused ("--name: given more than once");
 *   - a valued flag last on the line, or followed by an argument starting
 *     with "--", has no value ("--name: missing value"); a value that starts
 *     with "--" is written --name=VALUE;
 *   - an unknown flag is refused naming the one meant when one is close
 *     (calc/read.h, ul_calc_flag_unknown: one-letter slips and peers' names);
 *   - an argument not starting with "--" (or "--" itself) is positional;
 *     a command takes at most max_args of them;
 *   - a value holding a terminal control character is refused.
 * Each message is one line without the "ulaudit CMD: " prefix, which the
 * command adds; the exit code is 2.  The messages about a flag (unknown,
 * given twice, missing, holding a control character) and the readers of
 * the number texts are calc/read.h's, which the library's binding of named
 * inputs and --batch share, so that all refuse in the same words.
 */
#ifndef UL_CLI_ARGS_H
#define UL_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "calc/calc.h"

#define UL_CLI_MAX_FLAGS 16

/* name (without dashes), meta (the placeholder in help, e.g. "E"), help
 * (one line), default_value (NULL: required): the row type the calculator's
 * table declares (calc/calc.h), one type for both. */
typedef ul_calc_flag ul_cli_flag;

/* Flags every calculator quantity shares. */
typedef struct {
    bool json;
    bool help;
    int digits;    /* --digits, default 17 */
    long max_bits; /* --max-bits, default 65536 */
} ul_cli_common;

/* The number texts (--digits, --max-bits, --max-seconds, counts) are read
 * by the readers of calc/read.h, the same for every command, the library
 * and --batch. */

/* Parses argv[0..argc) against flags[0..nflags).  values[i] receives the text
 * for flags[i] (or its default).  Returns 0, or 2 with a message in err.
 * A value holding a terminal control character (io/escape.h,
 * ul_io_has_control: C0, DEL, C1, bidirectional controls) is refused, as
 * every later message may quote it; what err quotes of the arguments is
 * escaped (\xNN). */
int ul_cli_parse(int argc, char **argv, const ul_cli_flag *flags, int nflags, const char **values,
                 ul_cli_common *common, char *err, size_t errlen);

/* ---- the parser under every command -------------------------------------- */

#define UL_CLI_MAX_ROWS 32
#define UL_CLI_MAX_SWITCHES 8
#define UL_CLI_MAX_ARGS 2

/* One command's grammar: its valued flags (rows; default_value NULL means
 * required unless --help is on), its switches (names without dashes;
 * "help" also answers to -h) and how many positional arguments it takes,
 * with the remark that follows "unexpected argument 'X'" past them. */
typedef struct {
    const ul_cli_flag *flags;
    int nflags;
    const char *const *switches;
    int nswitches;
    int max_args;
    const char *extra_arg;
} ul_cli_grammar;

/* What the line gave: per row its text (or default) and whether it was
 * given; per switch its state; the positional arguments in order. */
typedef struct {
    const char *values[UL_CLI_MAX_ROWS];
    bool given[UL_CLI_MAX_ROWS];
    bool on[UL_CLI_MAX_SWITCHES];
    bool seen_switch[UL_CLI_MAX_SWITCHES];
    const char *args[UL_CLI_MAX_ARGS];
    int nargs;
} ul_cli_args;

/* Parses argv[0..argc) by the rules above.  Returns 0, or 2 with a
 * message in err (what it quotes of the arguments escaped). */
int ul_cli_parse_grammar(const ul_cli_grammar *g, int argc, char **argv, ul_cli_args *out,
                         char *err, size_t errlen);

/* The state of switch `name` of g after a parse (false if g has none). */
bool ul_cli_switch_on(const ul_cli_grammar *g, const ul_cli_args *a, const char *name);

/* ul_cli_parse with positional arguments: the grammar's rows and max_args
 * (its switches are ignored: the common ones are --json and --help), the
 * common flags --digits and --max-bits added; values[i] for flags[i],
 * args[0..*nargs) the positional arguments. */
int ul_cli_parse_with_args(const ul_cli_grammar *g, int argc, char **argv, const char **values,
                           ul_cli_common *common, const char **args, int *nargs, char *err,
                           size_t errlen);

#endif
