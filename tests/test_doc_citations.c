/* tests/test_doc_citations.c — every citation of a repository docs page
 * resolves (issue 25 item 6: a reader must be able to follow each reference).
 *
 * A citation is "docs/<page>.md", optionally followed by section headings in
 * quotes ("Theorems audited", 'Verdicts'; several separated by ", ") or by
 * erratum ids ("erratum N3", "errata N2, N3").  The oracle is the docs pages
 * themselves, read here as plain text: the page must exist, each heading must
 * be a "## " or "### " line of it, each erratum id an anchor id="n<k>" of it.
 * Scanned: every text file under src, include, tests, audits, man, examples,
 * python, tools, fuzz, and README.md and ARCHITECTURE.md.  C string literals
 * split over lines ("...docs/PAGE.md "\n "'Heading'...") and comment
 * continuations (" * ") are joined first, as the reader of a report sees them.
 */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <ctype.h>
#include <ftw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char root[1024];
static int checked, unresolved;

static void repo_root(void)
{
    const char *self = __FILE__;
    const char *slash = strrchr(self, '/');
    snprintf(root, sizeof root, "%.*s..", slash ? (int)(slash - self + 1) : 0, self);
}

/* The whole file, NUL-terminated, or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf != NULL && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *grown = realloc(buf, cap *= 2);
            if (grown == NULL)
                free(buf);
            buf = grown;
        }
    }
    fclose(f);
    if (buf != NULL)
        buf[n] = '\0';
    return buf;
}

/* Joins "...\"<newline><spaces>\"..." (adjacent C literals) and
 * "<newline><spaces>* " (comment continuations) into one line, in place. */
static void join_lines(char *s)
{
    char *w = s;
    for (const char *r = s; *r != '\0';) {
        const char *p = r;
        if (*p == '"' || *p == '\n') {
            const char *q = (*p == '"') ? p + 1 : p;
            if (*q == '\n') {
                q++;
                while (*q == ' ' || *q == '\t')
                    q++;
                if (*p == '"' && *q == '"') { /* adjacent literals */
                    r = q + 1;
                    continue;
                }
                if (*p == '\n' && *q == '*' && q[1] != '/') { /* comment continuation */
                    *w++ = ' ';
                    r = q + 1 + (q[1] == ' ');
                    continue;
                }
            }
        }
        *w++ = *r++;
    }
    *w = '\0';
}

/* Whether page (its text) has a "## h" or "### h" line. */
static bool has_heading(const char *page, const char *h, size_t hn)
{
    for (const char *l = page; l != NULL && *l != '\0';) {
        const char *t = l;
        while (*t == '#')
            t++;
        if (t - l >= 2 && *t == ' ' && strncmp(t + 1, h, hn) == 0 &&
            (t[1 + hn] == '\n' || t[1 + hn] == '\0'))
            return true;
        l = strchr(l, '\n');
        l = l ? l + 1 : NULL;
    }
    return false;
}

static bool quiet; /* the checker's own test: count, do not log */

static void fail(const char *file, const char *what, const char *page, const char *item, size_t n)
{
    if (!quiet)
        cr_log_error("%s: %s %.*s not found in %s", file, what, (int)n, item, page);
    unresolved++;
}

/* Checks the headings and errata after one "docs/<page>.md" at p. */
static void check_items(const char *file, const char *page_name, const char *page, const char *p)
{
    if (strncmp(p, "` ", 2) == 0 || strncmp(p, ", ", 2) == 0 || *p == ' ')
        p += (*p == ' ') ? 1 : 2;
    while (*p == '"' || *p == '\'') { /* quoted headings */
        const char *end = strchr(p + 1, *p);
        if (end == NULL || memchr(p + 1, '\n', (size_t)(end - p - 1)) != NULL)
            return;
        checked++;
        if (!has_heading(page, p + 1, (size_t)(end - p - 1)))
            fail(file, "heading", page_name, p + 1, (size_t)(end - p - 1));
        p = end + 1;
        if (strncmp(p, ", ", 2) != 0)
            return;
        p += 2;
    }
    if (strncmp(p, "erratum ", 8) == 0 || strncmp(p, "errata ", 7) == 0)
        p = strchr(p, ' ') + 1;
    for (; *p == 'N' && p[1] >= '0' && p[1] <= '9'; p += (strncmp(p, ", ", 2) == 0) ? 2 : 0) {
        char id[32];
        size_t n = 1 + strspn(p + 1, "0123456789");
        snprintf(id, sizeof id, "id=\"n%.*s\"", (int)(n - 1), p + 1);
        checked++;
        if (strstr(page, id) == NULL)
            fail(file, "erratum", page_name, p, n);
        p += n;
        if (strncmp(p, ", ", 2) != 0)
            break;
    }
}

static void check_file(const char *file)
{
    char *s = slurp(file);
    if (s == NULL)
        return;
    join_lines(s);
    for (const char *p = strstr(s, "docs/"); p != NULL; p = strstr(p + 1, "docs/")) {
        size_t n = strspn(p + 5, "abcdefghijklmnopqrstuvwxyz-");
        if (n == 0 || strncmp(p + 5 + n, ".md", 3) != 0)
            continue;
        char path[1200];
        snprintf(path, sizeof path, "%s/%.*s", root, (int)(5 + n + 3), p);
        char *page = slurp(path);
        checked++;
        if (page == NULL) {
            fail(file, "page", "docs/", p + 5, n + 3);
            continue;
        }
        check_items(file, path, page, p + 5 + n + 3);
        free(page);
    }
    free(s);
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type == FTW_F && strstr(path, "/__pycache__/") == NULL)
        check_file(path);
    return 0;
}

Test(doc_citations, every_docs_citation_resolves)
{
    static const char *dirs[] = {"src",      "include", "tests", "audits", "man",
                                 "examples", "python",  "tools", "fuzz"};
    static const char *files[] = {"README.md", "ARCHITECTURE.md"};
    repo_root();
    char path[1200];
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
        nftw(path, visit, 16, FTW_PHYS);
    }
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/%s", root, files[i]);
        check_file(path);
    }
    cr_assert(checked > 50, "only %d citations found: is the scan looking in the right place?",
              checked);
    cr_assert_eq(unresolved, 0, "%d of %d docs citations do not resolve (see the log)",
                 unresolved, checked);
}

/* The checker itself, on citations made up here: a heading that exists, one
 * that does not, an erratum that exists and one that does not. */
Test(doc_citations, checker_tells_resolved_from_unresolved)
{
    repo_root();
    char path[1200];
    snprintf(path, sizeof path, "%s/docs/noisy-gd.md", root);
    char *page = slurp(path);
    cr_assert_not_null(page);
    unresolved = 0;
    quiet = true;
    check_items("t", path, page, " \"Theorems audited\", 'Errata')");
    cr_assert_eq(unresolved, 0);
    check_items("t", path, page, " \"No such heading\")");
    cr_assert_eq(unresolved, 1);
    check_items("t", path, page, " errata N2, N23)");
    cr_assert_eq(unresolved, 1);
    check_items("t", path, page, " erratum N99)");
    cr_assert_eq(unresolved, 2);
    unresolved = 0;
    quiet = false;
    free(page);
}

/* ---- nothing cites a file outside the repository --------------------------
 * The team's private notes (a spec directory of per-paper notes, a design
 * note, numbered paper extracts, a shared directory) are not in the
 * repository: a reader of a report, a man page or the code cannot follow a
 * citation of them.  Searched for: "<spec>/", "<shared>/", "<papers>/0",
 * "<DESIGN>.md" and a bare "<notes>.md" not under docs/.  The needles are
 * assembled at run time so that this file does not match itself. */
static int outside;

static bool bare_note(const char *s, const char *at)
{
    static const char *const notes[] = {"langevin", "forget", "koloskova", "anchors"};
    for (size_t i = 0; i < sizeof notes / sizeof *notes; i++) {
        size_t n = strlen(notes[i]);
        if (at - s < (ptrdiff_t)n || strncmp(at - n, notes[i], n) != 0)
            continue;
        const char *b = at - n; /* the note's name must start a word, not be under docs/ */
        if (b > s && (isalnum((unsigned char)b[-1]) || b[-1] == '-' || b[-1] == '_'))
            continue;
        return !(b - s >= 5 && strncmp(b - 5, "docs/", 5) == 0);
    }
    return false;
}

static void report_outside(const char *file, const char *s, const char *at)
{
    const char *line = at;
    while (line > s && line[-1] != '\n')
        line--;
    int len = (int)strcspn(line, "\n");
    cr_log_error("%s: cites a file outside the repository: %.*s", file, len > 160 ? 160 : len,
                 line);
    outside++;
}

static void scan_outside(const char *file)
{
    char needles[4][16];
    snprintf(needles[0], sizeof needles[0], "%s/", "spec");
    snprintf(needles[1], sizeof needles[1], "%s/", "shared");
    snprintf(needles[2], sizeof needles[2], "%s/0", "papers");
    snprintf(needles[3], sizeof needles[3], "%s.md", "DESIGN");
    char *s = slurp(file);
    if (s == NULL)
        return;
    for (size_t k = 0; k < 4; k++)
        for (const char *p = strstr(s, needles[k]); p != NULL; p = strstr(p + 1, needles[k]))
            report_outside(file, s, p);
    for (const char *p = strstr(s, ".md"); p != NULL; p = strstr(p + 1, ".md"))
        if (bare_note(s, p))
            report_outside(file, s, p);
    free(s);
}

static int visit_outside(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type == FTW_F && strstr(path, "/__pycache__/") == NULL && strstr(path, "/data/") == NULL)
        scan_outside(path);
    return 0;
}

Test(doc_citations, nothing_cites_a_file_outside_the_repository)
{
    static const char *dirs[] = {"src",    "include", "tests", "audits", "man",  "examples",
                                 "python", "tools",   "fuzz",  "docs",   "mk",   "vectors"};
    static const char *files[] = {"README.md", "ARCHITECTURE.md", "Makefile", ".ci/run"};
    repo_root();
    char path[1200];
    outside = 0;
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
        nftw(path, visit_outside, 16, FTW_PHYS);
    }
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/%s", root, files[i]);
        scan_outside(path);
    }
    cr_assert_eq(outside, 0, "%d citations of files outside the repository (see the log)",
                 outside);
}
