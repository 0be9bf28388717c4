/* tests/test_help_lists.c — the lists that `ulaudit --help` generates (the
 * quantities of the calculator's table, the methods that calibrate) checked
 * against what other texts of the program say independently: the quantities
 * `calc --help` lists and the methods `calibrate --help` names in its prose
 * (issue 25: generated help where that removes drift). */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cert/methods.h"
#include "cli_run.h"

#define METHOD_NAME(name, id) name,
static const char *const METHODS[] = {UL_CERT_METHOD_LIST(METHOD_NAME)};
#undef METHOD_NAME
#define N_METHODS (sizeof METHODS / sizeof METHODS[0])

/* The comma-separated words of text from just after start up to stop, in
 * buf (joined by single spaces); their count. */
static int words_between(const char *text, const char *start, const char *stop, char *buf,
                         size_t len, char **words, int max)
{
    const char *a = strstr(text, start);
    cr_assert_not_null(a, "no '%s' in:\n%s", start, text);
    a += strlen(start);
    const char *b = strstr(a, stop);
    cr_assert_not_null(b, "no '%s' after '%s'", stop, start);
    cr_assert_lt((size_t)(b - a), len);
    memcpy(buf, a, (size_t)(b - a));
    buf[b - a] = '\0';
    int n = 0;
    for (char *w = strtok(buf, ", \n"); w != NULL && n < max; w = strtok(NULL, ", \n"))
        words[n++] = w;
    return n;
}

/* Whether name occurs in text as a whole word (not inside dp-sgd-group). */
static bool names(const char *text, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = strstr(text, name); p != NULL; p = strstr(p + 1, name)) {
        bool before = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '-');
        bool after = !(isalnum((unsigned char)p[len]) || p[len] == '-' || p[len] == '_');
        if (before && after)
            return true;
    }
    return false;
}

/* The usage's quantities are those `calc --help` describes, in its order. */
Test(help, usage_lists_the_quantities_of_calc_help_in_order)
{
    run_result top = run("--help", NULL), calc = run("calc", "--help", NULL);
    cr_assert_eq(top.status, 0);
    cr_assert_eq(calc.status, 0);
    char buf[4096], *listed[64];
    int n = words_between(top.out, "certified calculator: ", "\n                  example:", buf,
                          sizeof buf, listed, 64);
    int k = 0;
    const char *q = strstr(calc.out, "\nQuantities:\n");
    cr_assert_not_null(q);
    for (const char *line = q + 1; (line = strstr(line, "\n  ")) != NULL; line++) {
        const char *w = line + 3;
        if (!islower((unsigned char)*w))
            continue; /* a flag or example line (deeper indent) */
        size_t len = strcspn(w, " \n");
        cr_assert_lt(k, n, "calc --help lists more quantities than the usage (%.*s)", (int)len, w);
        cr_assert(strlen(listed[k]) == len && strncmp(listed[k], w, len) == 0,
                  "quantity %d: usage '%s', calc --help '%.*s'", k, listed[k], (int)len, w);
        k++;
    }
    cr_assert_eq(k, n, "the usage lists %d quantities, calc --help %d", n, k);
    run_free(&top);
    run_free(&calc);
}

/* The usage's calibrating methods are those calibrate --help's prose gives
 * a calibration for (the paragraph before "The other methods"). */
Test(help, usage_lists_the_methods_calibrate_help_describes)
{
    run_result top = run("--help", NULL), cal = run("calibrate", "--help", NULL);
    cr_assert_eq(top.status, 0);
    cr_assert_eq(cal.status, 0);
    char buf[1024], *listed[N_METHODS + 1];
    int n = words_between(top.out, "methods: ", "\n  vectors", buf, sizeof buf, listed,
                          (int)N_METHODS + 1);
    char *other = strstr(cal.out, "The other methods");
    cr_assert_not_null(other, "%s", cal.out);
    *other = '\0';
    int k = 0;
    for (size_t i = 0; i < N_METHODS; i++) {
        if (!names(cal.out, METHODS[i]))
            continue;
        cr_assert_lt(k, n, "calibrate --help describes %s, the usage does not list it", METHODS[i]);
        cr_assert_str_eq(listed[k], METHODS[i], "calibrating method %d", k);
        k++;
    }
    cr_assert_eq(k, n, "the usage lists %d calibrating methods, calibrate --help %d", n, k);
    run_free(&top);
    run_free(&cal);
}

/* The words of the completion's `compgen -W "..."` that follows marker in
 * the script, one space-separated string in buf. */
static void completion_words(const char *script, const char *marker, char *buf, size_t len)
{
    const char *m = strstr(script, marker);
    cr_assert_not_null(m, "no '%s' in the completion", marker);
    const char *w = strstr(m, "compgen -W \"");
    cr_assert_not_null(w);
    w += strlen("compgen -W \"");
    snprintf(buf, len, " %.*s ", (int)strcspn(w, "\""), w);
}

/* Whether the space-padded list holds word. */
static bool in_list(const char *list, const char *word, size_t n)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %.*s ", (int)n, word);
    return strstr(list, pat) != NULL;
}

/* Every word of a that does not start with '-' is in b. */
static void words_within(const char *a, const char *b, const char *what)
{
    for (const char *w = a; *w != '\0'; w += strspn(w, " ")) {
        size_t n = strcspn(w, " ");
        if (n > 0 && w[0] != '-')
            cr_assert(in_list(b, w, n), "%s: %.*s", what, (int)n, w);
        w += n;
    }
}

/* The bash completion's two static lists (the commands after `ulaudit`, the
 * topics after `ulaudit help`) are the commands the usage describes (and
 * the flags; the certificate topic), no more, no less. */
Test(help, bash_completion_lists_the_commands_of_the_usage)
{
    FILE *f = fopen("tools/completion/ulaudit.bash", "r");
    cr_assert_not_null(f);
    char script[16384];
    script[fread(script, 1, sizeof script - 1, f)] = '\0';
    fclose(f);
    char cmds[256], topics[256], ucmds[256] = " ", utopics[256] = " ";
    completion_words(script, "COMP_CWORD\" -eq 1", cmds, sizeof cmds);
    completion_words(script, "    help)\n", topics, sizeof topics);
    run_result top = run("--help", NULL);
    const char *c = strstr(top.out, "\nCommands:\n"), *end = strstr(top.out, "\n\nFlags:");
    cr_assert(c != NULL && end != NULL);
    for (const char *l = c + 1; (l = strstr(l, "\n  ")) != NULL && l < end; l++) {
        const char *w = l + 3;
        size_t n = strcspn(w, " \n");
        if (!islower((unsigned char)*w))
            continue; /* a continuation line */
        bool help = n == 4 && strncmp(w, "help", 4) == 0;
        snprintf(ucmds + strlen(ucmds), sizeof ucmds - strlen(ucmds), "%.*s ", (int)n, w);
        if (help && w[4] == ' ' && islower((unsigned char)w[5])) /* "help certificate" */
            w += 5, n = strcspn(w, " \n"), help = false;
        if (!help)
            snprintf(utopics + strlen(utopics), sizeof utopics - strlen(utopics), "%.*s ",
                     (int)n, w);
    }
    words_within(cmds, ucmds, "the completion offers a command the usage does not describe");
    words_within(ucmds, cmds, "the completion does not offer the command");
    words_within(topics, utopics, "ulaudit help <TAB> offers a topic the usage does not name");
    words_within(utopics, topics, "ulaudit help <TAB> does not offer");
    run_free(&top);
}
