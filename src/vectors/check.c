/* src/vectors/check.c — `ulaudit vectors check`: an implementation's
 * outputs (RESULTS.csv) against the family's certified vectors
 * (vectors/check.h).  Reads RESULTS, generates the family in memory at the
 * committed digits (so no vector file is needed), matches every row by the
 * exact text of its inputs, computes the others on the fly where the
 * family allows (check_fly.c), and classifies every value (check_cell.c).
 */
#include "vectors/check.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/fields.h"
#include "io/file.h"
#include "vectors/check_internal.h"

/* Which side of each quantity hurts users.  For every quantity of the
 * current families it is the side below lo:
 *   δ, θ, ε(δ), ρ: a value below the true one under-states the privacy loss
 *     (Dwork & Roth 2014, Def. 2.4: (ε, δ)-DP holds for every larger ε, δ,
 *     not for smaller ones; an RDP bound likewise, Mironov 2017 Def. 3);
 *   the smallest σ that suffices, the least K: a value below adds too little
 *     noise or runs too few steps, so the guarantee fails; above is merely
 *     wasteful (θ decreases in σ: Balle & Wang 2018, Thm 8). */
#define LOSS "below under-states the privacy loss"
#define NOISE "below gives too little noise: guarantee fails"
#define STEPS "below runs too few steps: guarantee fails"
const ul_vchk_direction ul_vchk_directions[] = {
    {"theta", "theta", UL_VCHK_BELOW, UL_VCHK_PROB, LOSS},
    {"theta", "log_theta", UL_VCHK_BELOW, UL_VCHK_LOGPROB, LOSS},
    {"gauss-sigma", "sigma", UL_VCHK_BELOW, UL_VCHK_NONNEG, NOISE},
    {"gauss-eps", "eps", UL_VCHK_BELOW, UL_VCHK_NONNEG, LOSS},
    {"contraction", "delta", UL_VCHK_BELOW, UL_VCHK_PROB, LOSS},
    {"contraction", "log_delta", UL_VCHK_BELOW, UL_VCHK_LOGPROB, LOSS},
    {"rdp-to-eps", "eps", UL_VCHK_BELOW, UL_VCHK_NONNEG, LOSS},
    {"rdp-to-delta", "delta", UL_VCHK_BELOW, UL_VCHK_PROB, LOSS},
    {"rdp-to-delta", "log_delta", UL_VCHK_BELOW, UL_VCHK_LOGPROB, LOSS},
    {"sgm-rdp", "rdp", UL_VCHK_BELOW, UL_VCHK_NONNEG, LOSS},
    {"pld", "delta", UL_VCHK_BELOW, UL_VCHK_PROB, LOSS},
    {"langevin-sigma", "sigma", UL_VCHK_BELOW, UL_VCHK_NONNEG, NOISE},
    {"langevin-k", "K", UL_VCHK_BELOW, UL_VCHK_NONNEG, STEPS},
    {"noisygd-k", "KAbar", UL_VCHK_BELOW, UL_VCHK_NONNEG, STEPS},
    {"noisygd-k", "eps_at_KAbar", UL_VCHK_BELOW, UL_VCHK_NONNEG, LOSS},
    {"noisygd-sigma", "sigma", UL_VCHK_BELOW, UL_VCHK_NONNEG, NOISE},
    {NULL, NULL, UL_VCHK_BELOW, UL_VCHK_PROB, NULL},
};

const char *ul_vchk_range_name(ul_vchk_range r)
{
    return r == UL_VCHK_PROB ? "[0, 1]" : r == UL_VCHK_LOGPROB ? "<= 0" : ">= 0";
}

const char *ul_vchk_class_name(ul_vchk_class c)
{
    static const char *const names[] = {"exact", "safe-inaccurate", "unsafe", "invalid",
                                        "unmatched"};
    return c < UL_VCHK_NCLASS ? names[c] : "?";
}

#define TOLERANCE "tolerance"

struct ul_vchk_store {
    char *results;      /* RESULTS, split in place */
    ul_vec_table vec;   /* the family's rows, split in place */
    ul_vec_table *fly;  /* one table per row computed on the fly */
    size_t nfly;
    const char **cells; /* the vector cells: vrows × vcols, then the fly rows */
    size_t vrows, vcols;
    const char ***vrow; /* per RESULTS row: its vector cells, or NULL */
};

/* ---- CSV ----------------------------------------------------------------------- */

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* Splits line (in place) at commas into at most max cells; the count. */
static size_t split(char *line, const char **cells, size_t max)
{
    size_t n = 0;
    for (char *p = line;; n++) {
        char *comma = strchr(p, ',');
        if (comma != NULL)
            *comma = '\0';
        if (n < max)
            cells[n] = trim(p);
        if (comma == NULL)
            return n + 1;
        p = comma + 1;
    }
}

/* The next nonblank line of *p (split off in place), with its number. */
static char *next_line(char **p, size_t *lineno)
{
    while (*p != NULL && **p != '\0') {
        char *line = *p, *nl = strchr(line, '\n');
        *p = nl != NULL ? nl + 1 : NULL;
        if (nl != NULL)
            *nl = '\0';
        (*lineno)++;
        if (*trim(line) != '\0')
            return line;
    }
    return NULL;
}

static size_t count_cells(const char *line)
{
    size_t n = 1;
    for (; *line != '\0'; line++)
        n += *line == ',';
    return n;
}

static ul_status read_all(const char *path, char **text, char *err, size_t errlen)
{
    FILE *f;
    long long size;
    ul_status st = ul_io_fopen_regular(path, "CSV file", false, &f, &size, err, errlen);
    if (st != UL_OK)
        return st;
    size_t cap = (size_t)size + 1, len = 0;
    char *buf = malloc(cap);
    if (buf == NULL) {
        fclose(f);
        return ul_fail(err, errlen, UL_ENOMEM, "%s: out of memory for %lld bytes", path, size);
    }
    len = fread(buf, 1, cap - 1, f);
    buf[len] = '\0';
    bool bad = ferror(f) != 0 || strlen(buf) != len;
    fclose(f);
    if (bad) {
        free(buf);
        return ul_fail(err, errlen, UL_EINPUT, "%s: unreadable or holds a NUL byte", path);
    }
    *text = buf;
    return UL_OK;
}

/* ---- the family's columns and RESULTS' ------------------------------------------ */

#define MAXC 32

typedef struct {
    const ul_vec_family *fam;
    const char *vnames[MAXC];
    size_t vcols;
    size_t nin, vin[MAXC]; /* the vector columns of the inputs */
    size_t nq;             /* the family's quantities */
    const ul_vchk_direction *dir[MAXC];
    size_t vlo[MAXC], vhi[MAXC];
    long vdbl[MAXC], vflag[MAXC]; /* NAME_double, NAME_flag; -1 for a whole number */
    const char *rnames[MAXC];
    size_t rcols;
    size_t rin[MAXC]; /* the RESULTS column of each input */
    long rq[MAXC];    /* the RESULTS column of each quantity, -1 when absent */
    long rtol;        /* the tolerance column, -1 when absent */
} layout;

static long find_name(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return (long)i;
    return -1;
}

/* Whether vector column name belongs to quantity q (NAME or NAME_suffix). */
static bool of_quantity(const char *name, const char *q)
{
    static const char *const suffixes[] = {"", "_lo", "_hi", "_double", "_flag"};
    size_t n = strlen(q);
    if (strncmp(name, q, n) != 0)
        return false;
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        if (strcmp(name + n, suffixes[i]) == 0)
            return true;
    return false;
}

/* The family's quantities (the direction table) and inputs (the other
 * columns of its header): an exact output NAME is its own lo and hi. */
static void family_layout(layout *L, char *header)
{
    L->vcols = split(header, L->vnames, MAXC);
    L->nq = 0;
    for (const ul_vchk_direction *d = ul_vchk_directions; d->family != NULL; d++) {
        if (strcmp(d->family, L->fam->name) != 0)
            continue;
        long exact = find_name(L->vnames, L->vcols, d->quantity);
        char lo[64], hi[64];
        snprintf(lo, sizeof lo, "%s_lo", d->quantity);
        snprintf(hi, sizeof hi, "%s_hi", d->quantity);
        L->dir[L->nq] = d;
        L->vlo[L->nq] = (size_t)(exact >= 0 ? exact : find_name(L->vnames, L->vcols, lo));
        L->vhi[L->nq] = (size_t)(exact >= 0 ? exact : find_name(L->vnames, L->vcols, hi));
        snprintf(lo, sizeof lo, "%s_double", d->quantity);
        snprintf(hi, sizeof hi, "%s_flag", d->quantity);
        L->vdbl[L->nq] = exact >= 0 ? -1 : find_name(L->vnames, L->vcols, lo);
        L->vflag[L->nq] = exact >= 0 ? -1 : find_name(L->vnames, L->vcols, hi);
        L->nq++;
    }
    L->nin = 0;
    for (size_t c = 0; c < L->vcols; c++) {
        bool output = false;
        for (size_t j = 0; j < L->nq; j++)
            output = output || of_quantity(L->vnames[c], L->dir[j]->quantity);
        if (!output)
            L->vin[L->nin++] = c;
    }
}

/* "a, b, c": the names RESULTS may use, into out. */
static void known_columns(const layout *L, char *out, size_t outlen, const char **names, size_t *n)
{
    *n = 0;
    for (size_t k = 0; k < L->nin; k++)
        names[(*n)++] = L->vnames[L->vin[k]];
    for (size_t j = 0; j < L->nq; j++)
        names[(*n)++] = L->dir[j]->quantity;
    names[(*n)++] = TOLERANCE;
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < *n && len < outlen; i++)
        len += (size_t)snprintf(out + len, outlen - len, "%s%s", i ? ", " : "", names[i]);
}

static ul_status unknown_column(const layout *L, const char *path, const char *name, char *err,
                                size_t errlen)
{
    const char *names[2 * MAXC + 1];
    size_t n;
    char known[1024], dym[256];
    known_columns(L, known, sizeof known, names, &n);
    ul_io_did_you_mean(dym, sizeof dym, name, names, n, "");
    return ul_fail(err, errlen, UL_EINPUT, "%s: line 1: unknown column '%s'%s (%s takes: %s)", path,
                   name, dym, L->fam->name, known);
}

/* Maps RESULTS' header onto the family's columns. */
static ul_status results_layout(layout *L, const char *path, char *header, char *err,
                                size_t errlen)
{
    if (count_cells(header) > MAXC)
        return ul_fail(err, errlen, UL_EINPUT, "%s: line 1: more than %d columns", path, MAXC);
    L->rcols = split(header, L->rnames, MAXC);
    L->rtol = -1;
    long rin[MAXC];
    for (size_t k = 0; k < L->nin; k++)
        rin[k] = -1;
    for (size_t j = 0; j < L->nq; j++)
        L->rq[j] = -1;
    for (size_t c = 0; c < L->rcols; c++) {
        const char *name = L->rnames[c];
        if (find_name(L->rnames, c, name) >= 0)
            return ul_fail(err, errlen, UL_EINPUT, "%s: line 1: column '%s' given twice", path,
                           name);
        long *slot = strcmp(name, TOLERANCE) == 0 ? &L->rtol : NULL;
        for (size_t k = 0; k < L->nin && slot == NULL; k++)
            if (strcmp(name, L->vnames[L->vin[k]]) == 0)
                slot = &rin[k];
        for (size_t j = 0; j < L->nq && slot == NULL; j++)
            if (strcmp(name, L->dir[j]->quantity) == 0)
                slot = &L->rq[j];
        if (slot == NULL)
            return unknown_column(L, path, name, err, errlen);
        *slot = (long)c;
    }
    char list[512] = "";
    size_t len = 0, outputs = 0;
    for (size_t k = 0; k < L->nin; k++) {
        if (rin[k] < 0)
            return ul_fail(err, errlen, UL_EINPUT, "%s: line 1: missing input column '%s'", path,
                           L->vnames[L->vin[k]]);
        L->rin[k] = (size_t)rin[k];
    }
    for (size_t j = 0; j < L->nq; j++) {
        outputs += L->rq[j] >= 0;
        if (len < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", j ? ", " : "",
                                    L->dir[j]->quantity);
    }
    if (outputs == 0)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: line 1: no output column (give one or more of: %s)", path, list);
    return UL_OK;
}

/* ---- rows ------------------------------------------------------------------------ */

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    /* sizes of the file the user gave, bounded by its length */
    if (p == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    return p;
}

/* The value cells may be empty, NaN or infinite (INVALID, not an error). */
static ul_status check_cell_syntax(const char *path, size_t line, const char *col,
                                   const char *s, bool tolerance, char *err, size_t errlen)
{
    if (tolerance) {
        if (*s == '\0' || (ul_vchk_is_decimal(s) && *s != '-'))
            return UL_OK;
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: line %zu, column '%s': must be a number >= 0 (got '%.40s')", path, line,
                       col, s);
    }
    if (*s == '\0' || ul_vchk_is_nan(s) || ul_vchk_inf_sign(s) != 0 || ul_vchk_is_decimal(s))
        return UL_OK;
    return ul_fail(err, errlen, UL_EINPUT, "%s: line %zu, column '%s': not a number (got '%.40s')",
                   path, line, col, s);
}

/* One RESULTS row into the result: its inputs, its value cells, its tolerance. */
static ul_status take_row(const layout *L, ul_vchk_result *r, const char **tol, const char *path,
                          char *line, size_t lineno, char *err, size_t errlen)
{
    const char *cells[MAXC];
    size_t n = split(line, cells, MAXC);
    if (n != L->rcols)
        return ul_fail(err, errlen, UL_EINPUT, "%s: line %zu: %zu cells, the header has %zu", path,
                       lineno, n, L->rcols);
    size_t i = r->nrows;
    for (size_t k = 0; k < L->nin; k++)
        r->inputs[i * L->nin + k] = cells[L->rin[k]];
    size_t q = 0;
    for (size_t j = 0; j < L->nq; j++) {
        if (L->rq[j] < 0)
            continue;
        const char *s = cells[L->rq[j]];
        ul_status st = check_cell_syntax(path, lineno, L->dir[j]->quantity, s, false, err, errlen);
        if (st != UL_OK)
            return st;
        r->cells[i * r->nq + q++].text = s;
    }
    tol[i] = NULL;
    if (L->rtol >= 0) {
        const char *s = cells[L->rtol];
        ul_status st = check_cell_syntax(path, lineno, TOLERANCE, s, true, err, errlen);
        if (st != UL_OK)
            return st;
        tol[i] = *s != '\0' ? s : NULL;
    }
    r->line[i] = lineno;
    r->nrows++;
    return UL_OK;
}

/* The rows after the header (text from line lineno + 1; NULL when none). */
static ul_status take_rows(const layout *L, ul_vchk_result *r, const char ***tol, char *text,
                           size_t lineno, const char *path, char *err, size_t errlen)
{
    size_t cap = 1; /* an upper bound on the rows: the lines */
    for (const char *p = text; p != NULL && *p != '\0'; p++)
        cap += *p == '\n';
    r->nq = 0;
    for (size_t j = 0; j < L->nq; j++)
        r->nq += L->rq[j] >= 0;
    r->inputs = xcalloc(cap * L->nin, sizeof *r->inputs);
    r->line = xcalloc(cap, sizeof *r->line);
    r->cells = xcalloc(cap * r->nq, sizeof *r->cells);
    *tol = xcalloc(cap, sizeof **tol);
    char *p = text;
    ul_status st = UL_OK;
    for (char *line; st == UL_OK && (line = next_line(&p, &lineno)) != NULL;)
        st = take_row(L, r, *tol, path, line, lineno, err, errlen);
    if (st == UL_OK && r->nrows == 0)
        st = ul_fail(err, errlen, UL_EINPUT, "%s: no rows after the header", path);
    return st;
}

/* ---- the vectors ----------------------------------------------------------------- */

/* The family's rows, generated in memory at the committed digits, split
 * into s->cells; the layout from its header. */
static ul_status family_rows(layout *L, ul_vchk_store *s, size_t nrows, int digits, char *err,
                             size_t errlen)
{
    char why[512] = "";
    s->vec.digits = digits;
    ul_status st = L->fam->generate(&s->vec, why, sizeof why);
    if (st != UL_OK)
        return ul_fail(err, errlen, st, "%s: generating the vectors: %s", L->fam->name, why);
    char *p = s->vec.buf;
    size_t lineno = 0;
    family_layout(L, next_line(&p, &lineno));
    s->vrows = s->vec.rows;
    s->vcols = L->vcols;
    /* the vector rows, then room for every RESULTS row computed on the fly */
    s->cells = xcalloc((s->vrows + nrows) * s->vcols, sizeof *s->cells);
    for (size_t v = 0; v < s->vrows; v++)
        split(next_line(&p, &lineno), s->cells + v * s->vcols, s->vcols);
    return UL_OK;
}

/* The vector row whose inputs are row i's, as text, or NULL. */
static const char **match(const layout *L, const ul_vchk_store *s, const ul_vchk_result *r,
                          size_t i)
{
    for (size_t v = 0; v < s->vrows; v++) {
        const char **row = s->cells + v * s->vcols;
        size_t k = 0;
        while (k < L->nin && strcmp(row[L->vin[k]], r->inputs[i * L->nin + k]) == 0)
            k++;
        if (k == L->nin)
            return row;
    }
    return NULL;
}

/* Row i computed on the fly into s->fly[s->nfly], its cells after the
 * vector rows. */
static ul_status fly(const layout *L, ul_vchk_store *s, const ul_vchk_result *r, size_t i,
                     const char *path, char *err, size_t errlen)
{
    ul_vec_table *t = &s->fly[s->nfly];
    char why[512] = "";
    ul_status st = ul_vchk_fly_row(L->fam->name, r->inputs + i * L->nin, UL_VEC_DEFAULT_DIGITS, t,
                                   why, sizeof why);
    s->nfly++;
    if (st != UL_OK)
        return ul_fail(err, errlen, st, "%s: line %zu: inputs not in the vectors, computed: %s",
                       path, r->line[i], why);
    char *p = t->buf;
    size_t lineno = 0;
    (void)next_line(&p, &lineno); /* the header: the family's, column for column */
    const char **row = s->cells + (s->vrows + i) * s->vcols;
    split(next_line(&p, &lineno), row, s->vcols);
    s->vrow[i] = row;
    return UL_OK;
}

static ul_status match_all(const layout *L, ul_vchk_store *s, ul_vchk_result *r, const char *path,
                           char *err, size_t errlen)
{
    bool can = ul_vchk_on_the_fly(L->fam->name);
    s->vrow = xcalloc(r->nrows, sizeof *s->vrow);
    s->fly = xcalloc(r->nrows, sizeof *s->fly);
    for (size_t i = 0; i < r->nrows; i++) {
        s->vrow[i] = match(L, s, r, i);
        if (s->vrow[i] != NULL) {
            r->matched++;
        } else if (can) {
            ul_status st = fly(L, s, r, i, path, err, errlen);
            if (st != UL_OK)
                return st;
            r->computed++;
        } else {
            r->unmatched++;
        }
    }
    return UL_OK;
}

/* ---- classes ---------------------------------------------------------------------- */

static void tally(ul_vchk_quantity *q, const ul_vchk_result *r, size_t i, size_t j)
{
    const ul_vchk_cell *c = &r->cells[i * r->nq + j];
    q->count[c->cls]++;
    q->within_tolerance += c->within_tolerance;
    long *w = &q->worst[c->cls];
    bool ranked = c->cls == UL_VCHK_SAFE || c->cls == UL_VCHK_UNSAFE;
    if (*w < 0 || (ranked && c->error > r->cells[(size_t)*w * r->nq + j].error))
        *w = (long)i;
}

static void classify_all(const layout *L, const ul_vchk_store *s, ul_vchk_result *r,
                         const char *const *tol)
{
    r->q = xcalloc(r->nq, sizeof *r->q);
    ul_vchk_exp_range saved;
    ul_vchk_range_begin(&saved);
    size_t j = 0;
    for (size_t fq = 0; fq < L->nq; fq++) {
        if (L->rq[fq] < 0)
            continue;
        ul_vchk_quantity *q = &r->q[j];
        q->dir = L->dir[fq];
        for (size_t c = 0; c < UL_VCHK_NCLASS; c++)
            q->worst[c] = -1;
        for (size_t i = 0; i < r->nrows; i++) {
            ul_vchk_cell *cell = &r->cells[i * r->nq + j];
            if (s->vrow[i] == NULL) {
                cell->cls = UL_VCHK_UNMATCHED;
            } else {
                cell->lo = s->vrow[i][L->vlo[fq]];
                cell->hi = s->vrow[i][L->vhi[fq]];
                if (L->vdbl[fq] >= 0) {
                    cell->dbl = s->vrow[i][L->vdbl[fq]];
                    cell->flag = s->vrow[i][L->vflag[fq]];
                }
                ul_vchk_classify(cell, q->dir, tol[i]);
            }
            tally(q, r, i, j);
        }
        j++;
    }
    ul_vchk_range_end(&saved);
}

/* ---- the check -------------------------------------------------------------------- */

static ul_status unknown_family(const char *family, char *err, size_t errlen)
{
    const char *names[64];
    size_t n = 0;
    char list[512] = "", dym[256];
    size_t len = 0;
    for (const ul_vec_family *f = ul_vec_families; f->name != NULL && n < 64; f++) {
        names[n++] = f->name;
        if (len < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", n > 1 ? ", " : "",
                                    f->name);
    }
    ul_io_did_you_mean(dym, sizeof dym, family, names, n, "");
    return ul_fail(err, errlen, UL_EINPUT, "family: unknown family '%s'%s (one of: %s)", family,
                   dym, list);
}

/* The check of RESULTS' text, in s->results; path names it in messages. */
static ul_status run(layout *L, ul_vchk_result *r, const char *path, char *err, size_t errlen)
{
    ul_vchk_store *s = r->store;
    ul_status st;
    char *p = s->results;
    if (strncmp(p, "\xef\xbb\xbf", 3) == 0)
        p += 3; /* a UTF-8 byte-order mark, as spreadsheets write */
    size_t lineno = 0;
    char *header = next_line(&p, &lineno);
    if (header == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "%s: no header line", path);
    size_t lines = 1;
    for (const char *q = p; q != NULL && *q != '\0'; q++)
        lines += *q == '\n';
    st = family_rows(L, s, lines, UL_VEC_DEFAULT_DIGITS, err, errlen);
    if (st == UL_OK)
        st = results_layout(L, path, header, err, errlen);
    const char **tol = NULL;
    if (st == UL_OK) {
        r->ninputs = L->nin;
        r->input_names = xcalloc(L->nin, sizeof *r->input_names);
        for (size_t k = 0; k < L->nin; k++)
            r->input_names[k] = L->vnames[L->vin[k]];
        r->has_tolerance = L->rtol >= 0;
        st = take_rows(L, r, &tol, p, lineno, path, err, errlen);
    }
    if (st == UL_OK)
        st = match_all(L, s, r, path, err, errlen);
    if (st == UL_OK)
        classify_all(L, s, r, tol);
    free(tol);
    return st;
}

/* The check of the file at path (text NULL) or of text[0..len). */
static ul_status run_from(const char *family, const char *path, const char *text, size_t len,
                          ul_vchk_result *out, char *err, size_t errlen)
{
    ul_num_init();
    memset(out, 0, sizeof *out);
    layout L;
    memset(&L, 0, sizeof L);
    L.fam = ul_vec_family_find(family);
    if (L.fam == NULL)
        return unknown_family(family, err, errlen);
    out->family = L.fam;
    out->store = xcalloc(1, sizeof *out->store);
    ul_status st = UL_OK;
    if (text == NULL) {
        st = read_all(path, &out->store->results, err, errlen);
    } else if (memchr(text, '\0', len) != NULL) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s: holds a NUL byte", path);
    } else {
        out->store->results = xcalloc(len + 1, 1);
        memcpy(out->store->results, text, len);
    }
    if (st == UL_OK)
        st = run(&L, out, path, err, errlen);
    if (st != UL_OK)
        ul_vchk_free(out);
    return st;
}

ul_status ul_vchk_run(const char *family, const char *path, ul_vchk_result *out, char *err,
                      size_t errlen)
{
    return run_from(family, path, NULL, 0, out, err, errlen);
}

ul_status ul_vchk_run_text(const char *family, const char *name, const char *text, size_t len,
                           ul_vchk_result *out, char *err, size_t errlen)
{
    return run_from(family, name, text, len, out, err, errlen);
}

void ul_vchk_free(ul_vchk_result *r)
{
    ul_vchk_store *s = r->store;
    if (s != NULL) {
        free(s->results);
        ul_vec_table_free(&s->vec);
        for (size_t i = 0; i < s->nfly; i++)
            ul_vec_table_free(&s->fly[i]);
        free(s->fly);
        free(s->cells);
        free(s->vrow);
        free(s);
    }
    free(r->input_names);
    free(r->inputs);
    free(r->line);
    free(r->q);
    free(r->cells);
    memset(r, 0, sizeof *r);
}

bool ul_vchk_failed(const ul_vchk_result *r)
{
    for (size_t j = 0; j < r->nq; j++)
        if (r->q[j].count[UL_VCHK_UNSAFE] > 0 || r->q[j].count[UL_VCHK_INVALID] > 0)
            return true;
    return false;
}

int ul_vchk_exit_code(const ul_vchk_result *r)
{
    /* the command line's codes (docs/design.md, "Exit codes"): rejected,
     * inconclusive, ok */
    return ul_vchk_failed(r) ? 1 : r->unmatched > 0 ? 3 : 0;
}

/* ---- the family's rows, for a harness (ulaudit_vectors_rows) ---------------------- */

/* {"lo", "hi"[, "double", "flag"]} of quantity j in vector row `row`. */
static json_object *value_json(const layout *L, const char *const *row, size_t j)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "lo", json_object_new_string(row[L->vlo[j]]));
    json_object_object_add(o, "hi", json_object_new_string(row[L->vhi[j]]));
    if (L->vdbl[j] >= 0) { /* a real output: its correctly rounded double and flag */
        json_object_object_add(o, "double", json_object_new_string(row[L->vdbl[j]]));
        json_object_object_add(o, "flag", json_object_new_string(row[L->vflag[j]]));
    }
    return o;
}

static char *rows_json(const layout *L, const ul_vchk_store *s, int digits)
{
    json_object *o = json_object_new_object(), *in = json_object_new_array();
    json_object *qs = json_object_new_array(), *rows = json_object_new_array();
    json_object_object_add(o, "family", json_object_new_string(L->fam->name));
    json_object_object_add(o, "digits", json_object_new_int(digits));
    for (size_t k = 0; k < L->nin; k++)
        json_object_array_add(in, json_object_new_string(L->vnames[L->vin[k]]));
    json_object_object_add(o, "inputs", in);
    for (size_t j = 0; j < L->nq; j++)
        json_object_array_add(qs, ul_vchk_direction_json(L->dir[j]));
    json_object_object_add(o, "quantities", qs);
    for (size_t v = 0; v < s->vrows; v++) {
        const char *const *row = s->cells + v * s->vcols;
        json_object *r = json_object_new_object(), *ri = json_object_new_object();
        for (size_t k = 0; k < L->nin; k++)
            json_object_object_add(ri, L->vnames[L->vin[k]], json_object_new_string(row[L->vin[k]]));
        json_object_object_add(r, "inputs", ri);
        for (size_t j = 0; j < L->nq; j++)
            json_object_object_add(r, L->dir[j]->quantity, value_json(L, row, j));
        json_object_array_add(rows, r);
    }
    json_object_object_add(o, "rows", rows);
    char *text = ul_vchk_json_text(o);
    json_object_put(o);
    return text;
}

ul_status ul_vchk_rows_json(const char *family, int digits, char **json, char *err,
                            size_t errlen)
{
    *json = NULL;
    ul_num_init();
    layout L;
    memset(&L, 0, sizeof L);
    L.fam = ul_vec_family_find(family);
    if (L.fam == NULL)
        return unknown_family(family, err, errlen);
    if (digits < UL_VEC_MIN_DIGITS || digits > UL_VEC_MAX_DIGITS)
        return ul_fail(err, errlen, UL_EINPUT, "digits: must be from %d to %d (got %d)",
                       UL_VEC_MIN_DIGITS, UL_VEC_MAX_DIGITS, digits);
    ul_vchk_store s;
    memset(&s, 0, sizeof s);
    ul_status st = family_rows(&L, &s, 0, digits, err, errlen);
    if (st == UL_OK)
        *json = rows_json(&L, &s, digits);
    ul_vec_table_free(&s.vec);
    free(s.cells);
    return st;
}
