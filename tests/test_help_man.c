/* tests/test_help_man.c — the manual pages against the tables they repeat
 * (issue 25: "generated help and man-page tables where that removes
 * drift"): ulaudit-calc(1)'s QUANTITIES against the calculator's table
 * (calc/table.c: every quantity, flag, placeholder, domain rule and
 * default), ulaudit-certificate(5)'s METHODS and ulaudit-audit(1)'s
 * calibrations against the methods of cert/methods.h and their handlers.
 * The pages are hand-written prose; these tests fail when a table changes
 * and the page does not follow (or the page names what does not exist). */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "calc/calc.h"
#include "calc/domain.h"
#include "cert/methods.h"

#define METHOD_NAME(name, id) name,
static const char *const METHODS[] = {UL_CERT_METHOD_LIST(METHOD_NAME)};
#undef METHOD_NAME
#define N_METHODS (sizeof METHODS / sizeof METHODS[0])

/* The whole page (no NUL byte in it: getdelim reads to the end). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    char *s = NULL;
    size_t cap = 0;
    cr_assert_gt(getdelim(&s, &cap, '\0', f), 0, "%s", path);
    fclose(f);
    return s;
}

/* The escapes the pages use, as the text they stand for. */
static const char *const ESCAPES[][2] = {
    {"\\-", "-"},  {"\\(<=", "<="}, {"\\(>=", ">="}, {"\\(mu", "*"}, {"\\fR", ""},
    {"\\fP", ""},  {"\\fI", ""},    {"\\fB", ""},    {"\\&", ""},    {"\\ ", " "},
    {"\\|", ""},   {"\\e", "\\"},   {"\\(aq", "'"},  {"\\(dq", "\""},
};

/* Appends roff text t[0..n) to out as plain text (escapes replaced). */
static void put_text(char *out, size_t len, const char *t, size_t n)
{
    size_t o = strlen(out);
    for (size_t i = 0; i < n && o + 4 < len;) {
        size_t e = 0;
        for (; e < sizeof ESCAPES / sizeof ESCAPES[0]; e++)
            if (strncmp(t + i, ESCAPES[e][0], strlen(ESCAPES[e][0])) == 0)
                break;
        if (e < sizeof ESCAPES / sizeof ESCAPES[0]) {
            o += (size_t)snprintf(out + o, len - o, "%s", ESCAPES[e][1]);
            i += strlen(ESCAPES[e][0]);
        } else if (t[i] != '"') {
            out[o++] = t[i++];
            out[o] = '\0';
        } else {
            i++; /* a macro argument's quotes */
        }
    }
}

/* One roff line as plain text appended to out: a text line as is, a font
 * macro's arguments (.B/.I: spaced; .BI/.BR/.IR/...: run together, as
 * groff alternates them), other requests as a space. */
static void put_line(char *out, size_t len, const char *line, size_t n)
{
    if (n > 0 && line[0] == '.') {
        size_t m = strcspn(line, " \n");
        bool font = m >= 2 && m <= 3 && strchr("BIRS", line[1]) != NULL && m < n;
        if (font && m == 2) {
            put_text(out, len, line + m + 1, n - m - 1);
        } else if (font) {
            /* alternating macro: arguments joined without spaces */
            const char *a = line + m + 1, *end = line + n;
            while (a < end) {
                while (a < end && *a == ' ')
                    a++;
                const char *b = a;
                if (*a == '"')
                    for (b = a + 1; b < end && *b != '"'; b++)
                        ;
                else
                    b = a + strcspn(a, " ");
                if (b > end)
                    b = end;
                put_text(out, len, a, (size_t)(b - a) + (*b == '"' ? 1 : 0));
                a = b + (*b == '"' ? 1 : 0);
            }
        }
    } else {
        put_text(out, len, line, n);
    }
    size_t o = strlen(out);
    if (o + 1 < len && o > 0 && out[o - 1] != ' ')
        strcpy(out + o, " ");
}

/* The roff src[0..n) as plain text on one line (spaces collapsed). */
static char *plain(const char *src, size_t n)
{
    size_t len = 2 * n + 16;
    char *out = calloc(len, 1);
    for (const char *p = src; p < src + n;) {
        size_t l = strcspn(p, "\n");
        if (p + l > src + n)
            l = (size_t)(src + n - p);
        put_line(out, len, p, l);
        p += l + 1;
    }
    char *w = out;
    for (const char *r = out; *r != '\0'; r++)
        if (!(*r == ' ' && (w == out || w[-1] == ' ')))
            *w++ = *r;
    while (w > out && w[-1] == ' ')
        w--;
    *w = '\0';
    return out;
}

/* The section of page titled name: from its .SH line to the next .SH. */
static const char *section(const char *page, const char *name, size_t *n)
{
    char head[64];
    snprintf(head, sizeof head, "\n.SH %s\n", name);
    const char *s = strstr(page, head);
    cr_assert_not_null(s, "no section %s", name);
    s += strlen(head);
    const char *e = strstr(s, "\n.SH ");
    *n = e != NULL ? (size_t)(e - s) : strlen(s);
    return s;
}

/* The entries of a section: after each ".TP" line, the header (the next
 * line, as plain text) and the body (to the next .TP or the end). */
typedef struct {
    char *head;
    char *text; /* header and body */
} entry;

static int entries(const char *sec, size_t n, entry *out, int max)
{
    int k = 0;
    for (const char *p = sec; (p = strstr(p, ".TP\n")) != NULL && p < sec + n && k < max;) {
        const char *h = p + 4, *hend = strchr(h, '\n');
        const char *next = strstr(hend, "\n.TP\n");
        const char *end = next != NULL && next < sec + n ? next + 1 : sec + n;
        out[k].head = plain(h, (size_t)(hend - h));
        out[k].text = plain(h, (size_t)(end - h));
        k++;
        p = end;
    }
    return k;
}

/* The entries of section name of the page at path; *page to free. */
static int page_entries(const char *path, const char *name, char **page, entry *e, int max)
{
    size_t n;
    *page = slurp(path);
    const char *sec = section(*page, name, &n);
    return entries(sec, n, e, max);
}

static void entries_free(entry *e, int n)
{
    for (int i = 0; i < n; i++) {
        free(e[i].head);
        free(e[i].text);
    }
}

/* The entry whose header starts with word (then a space or the end). */
static const entry *entry_of(const entry *e, int n, const char *word)
{
    size_t len = strlen(word);
    for (int i = 0; i < n; i++)
        if (strncmp(e[i].head, word, len) == 0 && (e[i].head[len] == ' ' || e[i].head[len] == '\0'))
            return &e[i];
    return NULL;
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '-' || c == '_';
}

/* Whether text holds word not inside a longer word. */
static bool has_word(const char *text, const char *word)
{
    size_t len = strlen(word);
    for (const char *p = strstr(text, word); p != NULL; p = strstr(p + 1, word))
        if ((p == text || !word_char(p[-1])) && !word_char(p[len]) &&
            !(p[len] == '.' && isdigit((unsigned char)p[len + 1])))
            return true; /* "1" in "defaults to 1." but not in "1.5" */
    return false;
}

/* The token after "--flag " in head (trailing ] ) , dropped) into tok;
 * false when head has no "--flag" followed by a space. */
static bool token_after(const char *head, const char *flag, char *tok, size_t len)
{
    char pat[80];
    snprintf(pat, sizeof pat, "--%s ", flag);
    for (const char *p = strstr(head, pat); p != NULL; p = strstr(p + 1, pat)) {
        if (p != head && word_char(p[-1]))
            continue;
        const char *t = p + strlen(pat);
        size_t n = strcspn(t, " ])");
        while (n > 0 && t[n - 1] == ',')
            n--;
        snprintf(tok, len, "%.*s", (int)n, t);
        return true;
    }
    return false;
}

/* Whether a header gives flag i of q: "--flag META", or "--flag a|b" with
 * words its help text names (the enumerated values). */
static bool gives_flag(const char *head, const ul_calc_quantity *q, int i)
{
    char tok[128], help[512];
    if (!token_after(head, q->flags[i].name, tok, sizeof tok))
        return false;
    if (strcmp(tok, q->flags[i].meta) == 0)
        return true;
    if (strchr(tok, '|') == NULL)
        return false;
    ul_calc_flag_help(q, i, help, sizeof help);
    for (char *w = strtok(tok, "|"); w != NULL; w = strtok(NULL, "|"))
        if (!has_word(help, w))
            return false;
    return true;
}

/* Whether text states value as the default. */
static bool states_default(const char *text, const char *value)
{
    static const char *const forms[] = {"default %s",      "defaults to %s",  "%s (the default",
                                        "%s (default",     "%s, the default", "%s is the default"};
    char pat[128];
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        snprintf(pat, sizeof pat, forms[k], value);
        if (has_word(text, pat))
            return true;
    }
    return false;
}

/* The rule of flag i's domain appears in text (an enumerated domain: or
 * its words as "a|b" after the flag in head). */
static bool states_rule(const char *text, const char *head, const ul_calc_quantity *q, int i)
{
    const ul_calc_domain *d = ul_calc_flag_domain(q, i);
    char rule[256], tok[128], words[256] = "";
    ul_calc_domain_rule(d, q->flags[i].meta, rule, sizeof rule);
    if (strstr(text, rule) != NULL)
        return true;
    if (d->type != UL_CALC_ENUM || !token_after(head, q->flags[i].name, tok, sizeof tok))
        return false;
    for (const char *const *c = d->choices; *c != NULL; c++)
        snprintf(words + strlen(words), sizeof words - strlen(words), "%s%s",
                 c == d->choices ? "" : "|", *c);
    return strcmp(tok, words) == 0;
}

/* Checks flag i of q against its entry e (and ref, the entry whose flags
 * e's header refers to: "flags of X"). */
static void check_flag(const ul_calc_quantity *q, int i, const entry *e, const entry *ref)
{
    const char *name = q->flags[i].name, *def = q->flags[i].default_value;
    bool own = gives_flag(e->head, q, i);
    if (!own && (ref == NULL || !gives_flag(ref->head, q, i))) {
        cr_expect_fail("ulaudit-calc(1), %s: no --%s %s in the header: %s", q->name, name,
                       q->flags[i].meta, e->head);
        return;
    }
    const entry *at = own ? e : ref;
    if (ul_calc_flag_domain(q, i) != NULL)
        cr_expect(states_rule(e->text, at->head, q, i) || states_rule(at->text, at->head, q, i),
                  "ulaudit-calc(1), %s: --%s's rule is not the table's (calc %s --help)", q->name,
                  name, q->name);
    if (def != NULL && strcmp(def, "none") != 0)
        cr_expect(states_default(e->text, def) || states_default(at->text, def),
                  "ulaudit-calc(1), %s: --%s's default %s is not stated", q->name, name, def);
}

/* Every "--word TOKEN" of e's own header is a flag of q or a common one. */
static void check_header_flags(const ul_calc_quantity *q, const entry *e)
{
    static const char *const common[] = {"digits", "max-bits", "max-seconds", "json", "batch"};
    for (const char *p = strstr(e->head, "--"); p != NULL; p = strstr(p + 2, "--")) {
        size_t n = strspn(p + 2, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-");
        if (p[2 + n] != ' ')
            continue; /* "--sigma," in "except --sigma, --max-steps": not a flag given */
        bool known = false;
        for (int i = 0; i < q->nflags && !known; i++)
            known = strlen(q->flags[i].name) == n && strncmp(q->flags[i].name, p + 2, n) == 0;
        for (size_t k = 0; k < sizeof common / sizeof common[0] && !known; k++)
            known = strlen(common[k]) == n && strncmp(common[k], p + 2, n) == 0;
        cr_expect(known, "ulaudit-calc(1), %s: --%.*s is not one of its flags", q->name, (int)n,
                  p + 2);
    }
}

Test(help, calc_manual_page_follows_the_quantity_table)
{
    char *page;
    entry e[64];
    int ne = page_entries("man/ulaudit-calc.1", "QUANTITIES", &page, e, 64);
    for (int k = 0; k < ne; k++) {
        char first[64];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(e[k].head, " "), e[k].head);
        cr_assert_not_null(ul_calc_find(first), "ulaudit-calc(1) describes '%s', not a quantity",
                           first);
    }
    for (size_t i = 0; i < ul_calc_count(); i++) {
        const ul_calc_quantity *q = ul_calc_at(i);
        const entry *own = entry_of(e, ne, q->name), *ref = NULL;
        cr_assert_not_null(own, "ulaudit-calc(1) has no entry for %s", q->name);
        const char *of = strstr(own->head, "flags of ");
        if (of != NULL) {
            char other[64];
            snprintf(other, sizeof other, "%.*s", (int)strcspn(of + 9, " ])"), of + 9);
            ref = entry_of(e, ne, other);
            cr_assert_not_null(ref, "%s refers to the flags of %s, which has no entry", q->name,
                               other);
        }
        for (int f = 0; f < ul_calc_library_nflags(q); f++)
            check_flag(q, f, own, ref);
        check_header_flags(q, own);
    }
    entries_free(e, ne);
    free(page);
}

/* The budget every quantity takes (the table's last flag) is described
 * once, under OPTIONS, with its placeholder and default. */
Test(help, calc_manual_page_gives_the_budget_of_the_table)
{
    const ul_calc_quantity *q = ul_calc_at(0);
    const ul_calc_flag *b = &q->flags[q->nflags - 1];
    cr_assert_eq(ul_calc_library_nflags(q), q->nflags - 1, "the last flag is the budget");
    char *page;
    entry e[32];
    int ne = page_entries("man/ulaudit-calc.1", "OPTIONS", &page, e, 32);
    char head[64];
    snprintf(head, sizeof head, "--%s %s", b->name, b->meta);
    bool found = false;
    for (int k = 0; k < ne; k++)
        if (strcmp(e[k].head, head) == 0 || strncmp(e[k].head, head, strlen(head)) == 0) {
            found = true;
            cr_assert(states_default(e[k].text, b->default_value), "%s", e[k].text);
        }
    cr_assert(found, "OPTIONS has no entry '%s'", head);
    entries_free(e, ne);
    free(page);
}

static bool calibrates(const char *method)
{
    const ul_audit_method *m = ul_audit_find(method);
    cr_assert_not_null(m, "%s has no handler", method);
    return m->calibrate != NULL;
}

static size_t method_index(const char *name)
{
    for (size_t i = 0; i < N_METHODS; i++)
        if (strcmp(METHODS[i], name) == 0)
            return i;
    cr_assert_fail("'%s' is not a method of cert/methods.h", name);
    return N_METHODS;
}

/* ulaudit-certificate(5)'s METHODS: one entry per method, none other. */
Test(help, certificate_manual_page_describes_every_method)
{
    char *page;
    entry e[32];
    int ne = page_entries("man/ulaudit-certificate.5", "METHODS", &page, e, 32);
    int seen[N_METHODS] = {0};
    for (int k = 0; k < ne; k++)
        seen[method_index(e[k].head)]++;
    for (size_t i = 0; i < N_METHODS; i++)
        cr_assert_eq(seen[i], 1, "ulaudit-certificate(5) has %d entries for %s", seen[i],
                     METHODS[i]);
    entries_free(e, ne);
    free(page);
}

/* ulaudit-audit(1)'s calibrate: an entry for each method with a
 * calibration, and "The other methods (...)" naming exactly the rest. */
Test(help, audit_manual_page_lists_the_calibrations_of_the_registry)
{
    char *page = slurp("man/ulaudit-audit.1");
    const char *from = strstr(page, "What it fills in, per method:\n");
    cr_assert_not_null(from);
    const char *other = strstr(from, "\n.PP\nThe other methods\n");
    cr_assert_not_null(other);
    entry e[16];
    int ne = entries(from, (size_t)(other - from), e, 16);
    int seen[N_METHODS] = {0};
    for (int k = 0; k < ne; k++)
        for (char *w = strtok(e[k].head, ", "); w != NULL; w = strtok(NULL, ", "))
            if (w[0] != '(')
                seen[method_index(w)]++;
            else
                break; /* a remark: "(strongly convex case, ...)" */
    const char *end = strstr(other, "have no calibration");
    cr_assert_not_null(end);
    char *rest = plain(other, (size_t)(end - other));
    for (size_t i = 0; i < N_METHODS; i++) {
        bool listed = has_word(rest, METHODS[i]);
        cr_assert_eq(seen[i] + listed, 1, "ulaudit-audit(1): %s %s, %s", METHODS[i],
                     seen[i] ? "has a calibration entry" : "has no entry",
                     listed ? "and is among the other methods" : "nor is among the others");
        cr_assert_eq(seen[i] == 1, calibrates(METHODS[i]),
                     "ulaudit-audit(1): %s's calibration entry disagrees with its handler",
                     METHODS[i]);
    }
    free(rest);
    entries_free(e, ne);
    free(page);
}
