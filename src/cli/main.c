/* src/cli/main.c — `ulaudit`: dispatch to commands.
 *
 * `attack` lives in a plugin (ulaudit-attack.so: the empirical stack with
 * OpenBLAS, cairo, zlib and OpenMP) loaded with dlopen only when that
 * command runs, so that `calc`, `audit` and `vectors` start without those
 * libraries (README, start-up).  `help COMMAND` opens the manual page
 * ulaudit-COMMAND(1) when man and the page are installed, else prints the
 * command's help text; `help certificate` opens ulaudit-certificate(5).
 * The top-level flags go through the parser of every command (args.h).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audit/audit.h"
#include "calc/calc.h"
#include "cert/methods.h"
#include "cli/args.h"
#include "cli/audit.h"
#include "cli/calc.h"
#include "cli/import.h"
#include "cli/plugin.h"
#include "cli/exitcodes.h"
#include "cli/vectors.h"
#include "cli/watchdog.h"
#include "io/escape.h"
#include "io/fields.h"
#include "num/encl.h"
#include "ulaudit.h"

#define ULAUDIT_VERSION ULAUDIT_VERSION_STRING

/* The usage's second column: its indent and the width its word lists wrap
 * at (the hand-wrapped prose around them keeps within it too). */
#define USAGE_INDENT 18
#define USAGE_WIDTH 72

/* Prints n words from column col, ", " between them, wrapped at
 * USAGE_WIDTH onto lines indented USAGE_INDENT, then a newline. */
static void usage_words(FILE *out, size_t col, const char *(*word)(size_t), size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *w = word(i);
        size_t len = strlen(w) + (i + 1 < n ? 1 : 0); /* with its comma */
        if (i > 0 && col + 1 + len > USAGE_WIDTH) {
            fprintf(out, "\n%*s", USAGE_INDENT, "");
            col = USAGE_INDENT;
        } else if (i > 0) {
            fputc(' ', out);
            col++;
        }
        fprintf(out, "%s%s", w, i + 1 < n ? "," : "");
        col += len;
    }
    fputc('\n', out);
}

/* The quantities, in the order of the calculator's table (calc/table.c). */
static const char *quantity_name(size_t i)
{
    return ul_calc_at(i)->name;
}

/* The methods of cert/methods.h whose handler calibrates (audit/audit.h:
 * ul_audit_method.calibrate), in that list's order. */
#define CALIBRATE_NAME(name, id) name,
static const char *const METHODS[] = {UL_CERT_METHOD_LIST(CALIBRATE_NAME)};
#undef CALIBRATE_NAME

static bool calibrates(const char *method)
{
    const ul_audit_method *m = ul_audit_find(method);
    return m != NULL && m->calibrate != NULL;
}

/* The i-th method that calibrates, or NULL. */
static const char *calibrating_name(size_t i)
{
    for (size_t k = 0; k < sizeof METHODS / sizeof METHODS[0]; k++)
        if (calibrates(METHODS[k]) && i-- == 0)
            return METHODS[k];
    return NULL;
}

static size_t calibrating_methods(void)
{
    size_t n = 0;
    while (calibrating_name(n) != NULL)
        n++;
    return n;
}

static void usage(FILE *out)
{
    static const char calc_head[] = "  calc QUANTITY   certified calculator: ";
    fprintf(out, "usage: ulaudit COMMAND [flags]\n\n"
                 "ulaudit checks claims of certified machine unlearning with certified\n"
                 "(interval, arbitrary-precision) arithmetic.\n\n"
                 "Commands:\n%s", calc_head);
    usage_words(out, strlen(calc_head), quantity_name, ul_calc_count());
    fprintf(out,
            "                  example: ulaudit calc theta --eps 1 --r 0.5\n"
            "                  ulaudit calc --help lists every quantity and flag\n"
            "  audit CERT.json recompute the guarantee a certificate cites and give the\n"
            "                  verdict (supported, unsupported, refuted, invalid,\n"
            "                  inconclusive) with its explanation and forensics\n"
            "                  example: ulaudit audit audits/output-perturbation-classic-eps10.json\n"
            "  calibrate CERT.json\n"
            "                  print the certificate completed with the parameter (sigma,\n"
            "                  steps, K, KAbar, noise_multiplier or noise_scale, by method) that\n"
            "                  makes its claim supported; --out FILE writes it atomically;\n"
            "                  methods: ");
    usage_words(out, USAGE_INDENT + strlen("methods: "), calibrating_name, calibrating_methods());
    fprintf(out,
            "  vectors --out DIR [--digits N] [--only FAMILY]\n"
            "                  write the certified reference vectors (CSV + manifest)\n"
            "                  that double-precision accountants can be tested against\n"
            "  import opacus|dp-accounting|tf-privacy FILE|- [--eps E] [--delta D]\n"
            "                  turn an Opacus accountant history, a dp_accounting event or\n"
            "                  TF Privacy's compute_dp_sgd_privacy parameters into a dp-sgd\n"
            "                  certificate for audit\n"
            "  attack CONFIG.json [--out DIR]\n"
            "                  train and unlearn with the real noisy-GD learners many\n"
            "                  times and attack them (membership inference): empirical\n"
            "                  eps lower bound beside the claim; also scores released\n"
            "                  models (--in-models, --out-models)\n"
            "  help [COMMAND]  this text, or the manual page of COMMAND (ulaudit help calc)\n"
            "  help certificate\n"
            "                  the certificate format, ulaudit-certificate(5)\n\n"
            "Flags:\n"
            "  --help          help (also after a command: ulaudit calc theta --help)\n"
            "  --version       the version\n\n"
            "Every command takes --json (one JSON object on stdout).  Exit codes: 0\n"
            "success, 1 claim rejected (audit) or refuted (attack), 2 usage or input error, 3 inconclusive.\n"
            "See man ulaudit, man ulaudit-COMMAND, man 5 ulaudit-certificate.\n");
}

/* calc's hooks into the watchdog (calc.h): the quantities are library
 * code, so the command line installs the backstop for them. */
static void calc_watchdog_start(const char *command, double seconds)
{
    ul_watchdog_start(command, seconds, NULL, "no result");
}

static const ul_cli_calc_backstop CALC_WATCHDOG = {calc_watchdog_start, ul_watchdog_claim,
                                                   ul_watchdog_stop};

typedef int (*command_fn)(int argc, char **argv);
typedef void (*help_fn)(FILE *out);

static int run_attack(int argc, char **argv)
{
    command_fn f = (command_fn)(uintptr_t)ul_cli_plugin_symbol("attack", "ul_cli_attack");
    return f != NULL ? f(argc, argv) : UL_EXIT_USAGE;
}

static void attack_help(FILE *out)
{
    help_fn f = (help_fn)(uintptr_t)ul_cli_plugin_symbol("attack", "ul_cli_attack_help");
    if (f != NULL)
        f(out);
}

static const struct {
    const char *name;
    help_fn help;
} HELPS[] = {
    {"calc", ul_cli_calc_help},       {"audit", ul_cli_audit_help},
    {"calibrate", ul_cli_calibrate_help}, {"attack", attack_help},
    {"vectors", ul_cli_vectors_help}, {"import", ul_cli_import_help},
};

/* Replaces this process with `man [SECTION] PAGE` (or `man -l FILE`) when
 * `man -w` finds the page; returns when it does not. */
static void exec_man_if_found(const char *section, const char *page, const char *file)
{
    char check[PATH_MAX + 64];
    snprintf(check, sizeof check, "man -w %s%s%s >/dev/null 2>&1", file ? "-l " : section,
             file ? "" : " ", file ? file : page);
    int st = system(check);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return;
    fflush(stdout);
    if (file)
        execlp("man", "man", "-l", file, (char *)NULL);
    else
        execlp("man", "man", section, page, (char *)NULL);
}

/* The commands, for the suggestion of a mistyped one ("help" last: not a
 * page of `ulaudit help`). */
static const char *const COMMANDS[] = {"calc",    "audit",  "calibrate", "attack",
                                       "vectors", "import", "help"};

/* The topics of `ulaudit help`: the commands, then the certificate format. */
static const char *const TOPICS[] = {"calc",    "audit",  "calibrate",   "attack",
                                     "vectors", "import", "certificate", "help"};

/* Whether `ulaudit help` shows a manual page: stdout a terminal, or
 * ULAUDIT_HELP=man (ULAUDIT_HELP=text: never). */
static bool help_wants_man(void)
{
    const char *mode = getenv("ULAUDIT_HELP");
    return mode != NULL ? strcmp(mode, "man") == 0 : isatty(STDOUT_FILENO);
}

/* The file of manual page PAGE.SECTION beside the binary: man/ of the
 * source tree (build/../man) or share/man/manSECTION of an installed tree
 * (bin/../share/man); false when neither is readable. */
static bool man_file_beside(const char *page, const char *section, char *file, size_t len)
{
    char dir[PATH_MAX];
    if (!ul_cli_exe_dir(dir, sizeof dir))
        return false;
    snprintf(file, len, "%s../man/%s.%s", dir, page, section);
    if (access(file, R_OK) == 0)
        return true;
    snprintf(file, len, "%s../share/man/man%s/%s.%s", dir, section, page, section);
    return access(file, R_OK) == 0;
}

/* Opens PAGE(SECTION) with man when wanted and found (installed, else the
 * file beside the binary); returns when it does not. */
static void open_man_page(const char *page, const char *section)
{
    char file[PATH_MAX + 96];
    if (!help_wants_man())
        return;
    exec_man_if_found(section, page, NULL);
    if (man_file_beside(page, section, file, sizeof file))
        exec_man_if_found(section, page, file);
}

/* `ulaudit help certificate`: the page ulaudit-certificate(5), or where
 * it is and what it describes. */
static int help_certificate(void)
{
    open_man_page("ulaudit-certificate", "5");
    char file[PATH_MAX + 96];
    bool beside = man_file_beside("ulaudit-certificate", "5", file, sizeof file);
    printf("ulaudit-certificate(5): the certificate format read by ulaudit audit and\n"
           "ulaudit calibrate (ulaudit-certificate/1).\n\n"
           "The page: man 5 ulaudit-certificate");
    if (beside)
        printf(", or man -l %s", file);
    printf("\n(man/ulaudit-certificate.5 in the source tree).\n\n"
           "A certificate is one JSON object (UTF-8, at most 1 MiB) with the keys format\n"
           "(\"ulaudit-certificate/1\"), method (the theorem or mechanism the claim rests\n"
           "on), source (where the claim comes from), parameters (the method's), claim\n"
           "(eps and delta, or renyi_order and renyi_value), stated (the numbers the\n"
           "source printed, checked against the recomputation) and expected (corpus\n"
           "files only).  The page lists each method's parameters, their domains, the\n"
           "omitted fields and examples; audits/ holds worked certificates.\n");
    return UL_EXIT_OK;
}

/* `ulaudit help TOPIC`: a command's page ulaudit-COMMAND(1) when man has
 * it installed (or, in a source tree, man/ beside the build directory) and
 * stdout is a terminal or ULAUDIT_HELP=man, else the help text; the
 * certificate format's page; "help" itself: the usage. */
static int help_command(const char *cmd)
{
    if (strcmp(cmd, "certificate") == 0)
        return help_certificate();
    if (strcmp(cmd, "help") == 0) {
        usage(stdout);
        return UL_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof HELPS / sizeof HELPS[0]; i++) {
        if (strcmp(cmd, HELPS[i].name) != 0)
            continue;
        char page[64];
        snprintf(page, sizeof page, "ulaudit-%s", strcmp(cmd, "calibrate") == 0 ? "audit" : cmd);
        open_man_page(page, "1");
        HELPS[i].help(stdout);
        return UL_EXIT_OK;
    }
    char quoted[128], hint[64];
    ul_io_did_you_mean(hint, sizeof hint, cmd, TOPICS, sizeof TOPICS / sizeof TOPICS[0], "");
    fprintf(stderr,
            "ulaudit help: unknown command '%s'%s (topics: calc, audit, calibrate, "
            "attack, vectors, import, certificate)\n",
            ul_io_escape(cmd, strlen(cmd), quoted, sizeof quoted), hint);
    return UL_EXIT_USAGE;
}

/* `ulaudit --help [TOPIC]`, `ulaudit -h`, `ulaudit --version`: the
 * top-level switches, by the parser of every command (args.h), so that
 * --versoin names --version and --help=yes works. */
static int top_flags(int argc, char **argv)
{
    static const char *const switches[] = {"help", "version"};
    const ul_cli_grammar g = {NULL, 0, switches, 2, 1, " (see ulaudit --help)"};
    ul_cli_args a;
    char err[512];
    if (ul_cli_parse_grammar(&g, argc, argv, &a, err, sizeof err) != 0) {
        fprintf(stderr, "ulaudit: %s\n", err);
        return UL_EXIT_USAGE;
    }
    if (a.on[0] && a.nargs > 0)
        return help_command(a.args[0]);
    if (a.on[0]) {
        usage(stdout);
        return UL_EXIT_OK;
    }
    if (a.on[1] && a.nargs == 0) {
        printf("ulaudit %s\n", ULAUDIT_VERSION);
        return UL_EXIT_OK;
    }
    usage(stderr); /* --help=no, or --version with an argument */
    return UL_EXIT_USAGE;
}

/* An unknown command: one line naming the one meant. */
static int unknown_command(const char *cmd)
{
    char quoted[128], hint[64];
    ul_io_did_you_mean(hint, sizeof hint, cmd, COMMANDS, sizeof COMMANDS / sizeof COMMANDS[0], "");
    fprintf(stderr, "ulaudit: unknown command '%s'%s (see ulaudit --help)\n",
            ul_io_escape(cmd, strlen(cmd), quoted, sizeof quoted), hint);
    return UL_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    ul_num_init();
    int rc;
    if (argc < 2) {
        usage(stderr);
        rc = UL_EXIT_USAGE;
    } else if (strcmp(argv[1], "help") == 0 && argc > 2) {
        rc = help_command(argv[2]);
    } else if (strcmp(argv[1], "help") == 0) {
        usage(stdout);
        rc = UL_EXIT_OK;
    } else if (strcmp(argv[1], "-h") == 0 || strncmp(argv[1], "--", 2) == 0) {
        rc = top_flags(argc - 1, argv + 1);
    } else if (strcmp(argv[1], "calc") == 0) {
        ul_cli_calc_set_backstop(&CALC_WATCHDOG);
        rc = ul_cli_calc(argc - 2, argv + 2);
    } else if (strcmp(argv[1], "audit") == 0) {
        rc = ul_cli_audit(argc - 2, argv + 2);
    } else if (strcmp(argv[1], "calibrate") == 0) {
        rc = ul_cli_calibrate(argc - 2, argv + 2);
    } else if (strcmp(argv[1], "attack") == 0) {
        rc = run_attack(argc - 2, argv + 2);
    } else if (strcmp(argv[1], "vectors") == 0) {
        rc = ul_cli_vectors(argc - 2, argv + 2);
    } else if (strcmp(argv[1], "import") == 0) {
        rc = ul_cli_import(argc - 2, argv + 2);
    } else {
        rc = unknown_command(argv[1]);
    }
    ul_num_shutdown();
    return rc;
}
