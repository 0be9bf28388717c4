/* tests/test_docs_citations.c — every citation of docs/langevin.md and
 * docs/neural-unlearning.md in the sources, certificates, README and man
 * pages names a section heading or an erratum id that the page has (issue
 * 25: a reader must be able to follow each reference).  That nothing cites
 * the notes kept outside the repository is test_doc_citations.c's.
 *
 * The oracle is the text of the docs pages themselves: their "## " and
 * "### " headings and their "- **L<n>." / "- **K<n>." errata items.  A
 * citation has the form
 *     docs/PAGE.md, "Heading"[, "Heading" | and "Heading"][, Errata X1[-X3][, X4]]
 * possibly split over C string literals or comment lines; both are joined
 * before parsing.  Run from the repository root, as the other tests are. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAMES 128

typedef struct {
    const char *path; /* "docs/langevin.md" */
    char letter;      /* errata prefix: 'L' or 'K' */
    char *heads[MAX_NAMES];
    int nheads;
    bool errata[MAX_NAMES]; /* errata[i]: the page lists <letter><i> */
} page;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    cr_assert_not_null(s);
    cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

/* Headings ("## X", "### X") and errata items ("- **L12.") of one page. */
static void page_load(page *p)
{
    char *s = slurp(p->path);
    for (char *line = strtok(s, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        if (strncmp(line, "## ", 3) == 0 || strncmp(line, "### ", 4) == 0) {
            cr_assert_lt(p->nheads, MAX_NAMES);
            p->heads[p->nheads++] = strdup(line + (line[2] == ' ' ? 3 : 4));
        } else if (strncmp(line, "- **", 4) == 0 && line[4] == p->letter &&
                   isdigit((unsigned char)line[5])) {
            int id = atoi(line + 5);
            cr_assert(id > 0 && id < MAX_NAMES);
            p->errata[id] = true;
        }
    }
    free(s);
}

static void page_free(page *p)
{
    for (int i = 0; i < p->nheads; i++)
        free(p->heads[i]);
}

static bool page_has_heading(const page *p, const char *h, size_t n)
{
    for (int i = 0; i < p->nheads; i++)
        if (strlen(p->heads[i]) == n && strncmp(p->heads[i], h, n) == 0)
            return true;
    return false;
}

/* Joins what the sources split: the escaped quotes of C and JSON strings,
 * adjacent C string literals ("…" newline "…") and comment continuation
 * lines (newline, blanks, '*'); every other newline becomes a blank. */
static void normalise(char *s)
{
    char *w = s;
    for (const char *r = s; *r != '\0';) {
        if (r[0] == '\\' && r[1] == '"') {
            *w++ = '"', r += 2;
        } else if (r[0] == '"' && r[1] == '\n') {
            const char *q = r + 1;
            while (isspace((unsigned char)*q))
                q++;
            if (*q == '"')
                r = q + 1; /* "abc "\n   "def" → abc def */
            else
                *w++ = *r++;
        } else if (r[0] == '\n') {
            const char *q = r + 1;
            while (*q == ' ' || *q == '\t')
                q++;
            if (*q == '*' && q[1] != '/')
                q++;
            *w++ = ' ';
            r = q;
            while (*r == ' ')
                r++;
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
}

/* Parses the errata list after "Errata " at *pr: ids like L3, L1-L3, L2–L3,
 * "K1, K2"; checks each against the page.  Returns how many it checked. */
static int check_errata(const page *p, const char **pr, const char *file)
{
    const char *r = *pr;
    int count = 0;
    while (*r == p->letter && isdigit((unsigned char)r[1])) {
        char *end;
        long lo = strtol(r + 1, &end, 10), hi = lo;
        r = end;
        if (r[0] == '-' && r[1] == p->letter) {
            hi = strtol(r + 2, &end, 10), r = end;
        } else if (strncmp(r, "\xe2\x80\x93", 3) == 0 && r[3] == p->letter) { /* en dash */
            hi = strtol(r + 4, &end, 10), r = end;
        }
        for (long i = lo; i <= hi; i++) {
            cr_expect(i > 0 && i < MAX_NAMES && p->errata[i],
                      "%s cites %s, Errata %c%ld: no such item", file, p->path, p->letter, i);
            count++;
        }
        if (r[0] == ',' && r[1] == ' ' && r[2] == p->letter && isdigit((unsigned char)r[3]))
            r += 2;
    }
    *pr = r;
    return count;
}

/* Checks every citation of page p in text s (normalised); returns the count. */
static int check_text(const page *p, const char *s, const char *file)
{
    int count = 0;
    size_t plen = strlen(p->path);
    for (const char *r = strstr(s, p->path); r != NULL; r = strstr(r, p->path)) {
        r += plen;
        while (strncmp(r, ", ", 2) == 0 || strncmp(r, " and ", 5) == 0) {
            const char *q = r + (r[0] == ',' ? 2 : 5);
            if (q[0] == '"') {
                const char *e = strchr(q + 1, '"');
                cr_assert_not_null(e);
                cr_expect(page_has_heading(p, q + 1, (size_t)(e - q - 1)),
                          "%s cites %s, \"%.*s\": no such heading", file, p->path, (int)(e - q - 1),
                          q + 1);
                count++;
                r = e + 1;
            } else if (strncmp(q, "Errata ", 7) == 0) {
                q += 7;
                count += check_errata(p, &q, file);
                r = q;
            } else {
                break;
            }
        }
    }
    return count;
}

static const char *const scanned[] = {
    "src/*/*.c",         "src/*/*.h",     "include/*.h",      "tests/*.c",
    "tests/*.h",         "audits/*.json", "audits/README.md", "README.md",
    "vectors/README.md", "man/*.[15]",    "docs/*.md",
};

Test(docs_citations, every_cited_heading_and_erratum_exists)
{
    page pages[2] = {{.path = "docs/langevin.md", .letter = 'L'},
                     {.path = "docs/neural-unlearning.md", .letter = 'K'}};
    for (int k = 0; k < 2; k++) {
        page_load(&pages[k]);
        cr_assert_gt(pages[k].nheads, 5, "%s: headings not found", pages[k].path);
        cr_assert(pages[k].errata[1], "%s: Errata not found", pages[k].path);
    }
    int cited[2] = {0, 0};
    for (size_t g = 0; g < sizeof scanned / sizeof *scanned; g++) {
        glob_t gl;
        if (glob(scanned[g], 0, NULL, &gl) != 0)
            continue;
        for (size_t i = 0; i < gl.gl_pathc; i++) {
            char *s = slurp(gl.gl_pathv[i]);
            normalise(s);
            for (int k = 0; k < 2; k++)
                cited[k] += check_text(&pages[k], s, gl.gl_pathv[i]);
            free(s);
        }
        globfree(&gl);
    }
    /* the scanner found the citations this change wrote (well over 50 each) */
    cr_expect_gt(cited[0], 50, "docs/langevin.md: %d citations checked", cited[0]);
    cr_expect_gt(cited[1], 50, "docs/neural-unlearning.md: %d citations checked", cited[1]);
    for (int k = 0; k < 2; k++)
        page_free(&pages[k]);
}
