/* tests/test_lib_cli.c — `ulaudit help COMMAND`, the bash completion
 * (tools/completion/ulaudit.bash) and the manual pages (man/), checked
 * against the binary's own help texts and against groff's warnings. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"

/* Runs a shell command; returns its stdout (malloc'd) and sets *status. */
static char *shell(const char *cmd, int *status)
{
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p, "%s", cmd);
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    for (size_t k; (k = fread(out + n, 1, cap - 1 - n, p)) > 0;)
        n += k;
    out[n] = '\0';
    *status = pclose(p);
    return out;
}

static bool has(const char *program)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", program);
    return system(cmd) == 0;
}

Test(help, help_command_prints_the_commands_help_without_a_terminal)
{
    setenv("ULAUDIT_HELP", "text", 1);
    run_result a = run("help", "calc", NULL), b = run("calc", "--help", NULL);
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert_str_eq(a.out, b.out, "help calc is calc --help");
    run_free(&a);
    run_free(&b);
    run_result c = run("help", "audit", NULL);
    cr_assert(strstr(c.out, "usage: ulaudit audit"), "%s", c.out);
    run_free(&c);
    unsetenv("ULAUDIT_HELP");
    expect_usage_error("unknown command 'nosuch'", run("help", "nosuch", NULL));
}

/* With ULAUDIT_HELP=man, the page of the source tree (man/ beside the
 * build directory) is shown: its NAME line, not the help text. */
Test(help, help_command_opens_the_manual_page)
{
    if (!has("man"))
        cr_skip("no man(1) here");
    setenv("ULAUDIT_HELP", "man", 1);
    setenv("MANPAGER", "cat", 1);
    run_result r = run("help", "calc", NULL);
    unsetenv("ULAUDIT_HELP");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "ulaudit-calc"), "not the page: %.200s", r.out);
    run_free(&r);
}

/* The completion offers exactly the quantities `calc --help` lists that
 * start with the word typed, and the flags of the quantity's help. */
Test(help, bash_completion_completes_quantities_and_flags)
{
    if (!has("bash"))
        cr_skip("no bash here");
    char dir[1024], cmd[4096];
    snprintf(dir, sizeof dir, "%s", ULAUDIT_BIN);
    *strrchr(dir, '/') = '\0';
    snprintf(cmd, sizeof cmd,
             "PATH='%s':$PATH bash -c 'source tools/completion/ulaudit.bash; "
             "COMP_WORDS=(ulaudit calc gauss-s); COMP_CWORD=2; _ulaudit; echo \"${COMPREPLY[*]}\"; "
             "COMP_WORDS=(ulaudit calc theta --); COMP_CWORD=3; _ulaudit; echo \"${COMPREPLY[*]}\"; "
             "COMP_WORDS=(ulaudit vec); COMP_CWORD=1; _ulaudit; echo \"${COMPREPLY[*]}\"'",
             dir);
    int status;
    char *out = shell(cmd, &status);
    cr_assert_eq(status, 0);
    char *l1 = strtok(out, "\n"), *l2 = strtok(NULL, "\n"), *l3 = strtok(NULL, "\n");
    cr_assert_str_eq(l1, "gauss-sigma");
    cr_assert(l2 && strstr(l2, "--eps") && strstr(l2, "--r") && strstr(l2, "--batch") &&
                  strstr(l2, "--digits"),
              "%s", l2);
    cr_assert_str_eq(l3, "vectors");
    free(out);
}

/* Every page renders without a groff warning. */
Test(help, manual_pages_render_cleanly)
{
    if (!has("man") || !has("groff"))
        cr_skip("no man/groff here");
    const char *pages[] = {"man/ulaudit.1",         "man/ulaudit-calc.1",
                           "man/ulaudit-audit.1",   "man/ulaudit-attack.1",
                           "man/ulaudit-vectors.1", "man/ulaudit-certificate.5"};
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "MANWIDTH=80 man --warnings -l %s 2>&1 >/dev/null", pages[i]);
        int status;
        char *out = shell(cmd, &status);
        cr_assert_eq(status, 0, "%s", pages[i]);
        cr_assert_str_empty(out, "%s: %s", pages[i], out);
        free(out);
    }
}
