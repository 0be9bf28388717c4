/* src/vectors/vectors.c — the family registry, the manifest, and writing the
 * set in two phases.  ul_vec_build computes every file in memory and touches
 * no file of the output directory (the slow phase, where a time budget runs
 * out).  ul_vec_commit then writes each file, the manifest too, beside its
 * place (".<name>.new.<pid>"), keeps each old file under a hard link
 * (".<name>.old.<pid>") and renames the new ones into place, the manifest
 * last.  Any failure, before or during the renames, puts the old files back
 * (the same inodes) and removes every temporary: the directory is the old
 * set or the new one.  Only a process killed during the renames (a few
 * system calls) can leave a mix, and then without a manifest: the old one
 * is removed just before the first rename, so a manifest never vouches for
 * files it does not describe.
 *
 * SHA-256 comes from nettle (a well-kept library, already on every Debian
 * system as a GnuTLS dependency) rather than a hand-written hash: the
 * manifest's checksums are what a consumer verifies with sha256sum.
 */
#include "vectors/vectors.h"

#include <errno.h>
#include <stdarg.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/file.h"
#include "num/progress.h"

const ul_vec_family ul_vec_families[] = {
    {"theta", "theta.csv",
     "theta_{e^eps}(r) and log theta: Gaussian hockey-stick divergence, eps -20 to 1e6, r 0 to 50",
     ul_vec_gen_theta},
    {"gauss-sigma", "gauss_sigma.csv",
     "smallest sigma with theta_{e^eps}(1/sigma) <= delta, delta down to 1e-1000",
     ul_vec_gen_gauss_sigma},
    {"gauss-eps", "gauss_eps.csv", "smallest eps >= 0 with theta_{e^eps}(r) <= delta",
     ul_vec_gen_gauss_eps},
    {"contraction", "contraction.csv",
     "delta after T projection+noise steps: product delta0*theta^T and the adaptive recursion",
     ul_vec_gen_contraction},
    {"rdp-to-eps", "rdp_to_eps.csv",
     "eps from one RDP point (alpha, rho) at delta: Mironov Prop. 3 and Balle et al. Thm 21",
     ul_vec_gen_rdp_to_eps},
    {"rdp-to-delta", "rdp_to_delta.csv",
     "delta from one RDP point (alpha, rho) at eps: Mironov Prop. 3 and Balle et al. Thm 21",
     ul_vec_gen_rdp_to_delta},
    {"sgm-rdp", "sgm_rdp.csv",
     "RDP of the Poisson-subsampled Gaussian (Mironov, Talwar, Zhang 2019), integer and "
     "fractional alpha",
     ul_vec_gen_sgm_rdp},
    {"pld", "pld.csv",
     "delta(eps) of T-fold (subsampled) Gaussian composition: proven PLD brackets (~1e-3 wide)",
     ul_vec_gen_pld},
    {"langevin-sigma", "langevin_sigma.csv",
     "Langevin unlearning (Chien et al.), strongly convex: smallest sigma for K steps, Table 3 "
     "settings",
     ul_vec_gen_langevin_sigma},
    {"langevin-k", "langevin_k.csv",
     "Langevin unlearning (Chien et al.), strongly convex: least K for sigma, Table 3 / Fig 3c "
     "settings",
     ul_vec_gen_langevin_k},
    {"noisygd-k", "noisygd_k.csv",
     "Noisy-GD deletion (Chourasia & Shah Thm G.15): least K_Abar, tight and stated forms",
     ul_vec_gen_noisygd_k},
    {"noisygd-sigma", "noisygd_sigma.csv",
     "Noisy-GD (Chourasia & Shah Thm G.7, G.9, G.15): smallest sigma", ul_vec_gen_noisygd_sigma},
    {NULL, NULL, NULL, NULL},
};

const ul_vec_family *ul_vec_family_find(const char *name)
{
    for (const ul_vec_family *f = ul_vec_families; f->name != NULL; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

void ul_vec_sha256_hex(const void *data, size_t len, char hex[65])
{
    struct sha256_ctx ctx;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, len, data);
    sha256_digest(&ctx, sizeof digest, digest);
    for (size_t i = 0; i < sizeof digest; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

/* ---- files ------------------------------------------------------------------- */

/* dir/name, malloc'd. */
static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    /* a directory and a file name */
    if (p == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static ul_status ensure_dir(const char *dir, char *err, size_t errlen)
{
    struct stat sb;
    if (stat(dir, &sb) == 0) {
        if (S_ISDIR(sb.st_mode))
            return UL_OK;
        return ul_fail(err, errlen, UL_EINPUT, "out: '%s' exists and is not a directory", dir);
    }
    if (mkdir(dir, 0777) != 0)
        return ul_fail(err, errlen, UL_EINPUT, "out: cannot create directory '%s': %s", dir,
                       strerror(errno));
    return UL_OK;
}

/* ---- the manifest ------------------------------------------------------------ */

/* A growing string. */
typedef struct {
    char *s;
    size_t len, cap;
} strbuf;

__attribute__((format(printf, 2, 3))) static void sb_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        abort(); /* not out of memory: a broken invariant of the program (policy: num/status.h) */
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (b->len + (size_t)n + 1 > cap)
            cap *= 2;
        char *s = realloc(b->s, cap);
        /* the manifest of the program's own families */
        if (s == NULL)
            abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* text as a JSON string.  The strings written here are ASCII without quotes
 * or backslashes; they are escaped anyway so the manifest stays valid JSON
 * whatever a summary says. */
static void sb_json_string(strbuf *b, const char *text)
{
    sb_printf(b, "\"");
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
        if (*p == '"' || *p == '\\')
            sb_printf(b, "\\%c", *p);
        else if (*p < 0x20)
            sb_printf(b, "\\u%04x", *p);
        else
            sb_printf(b, "%c", *p);
    }
    sb_printf(b, "\"");
}

/* The manifest, written by hand with a fixed key order and layout (a JSON
 * library's pretty-printer may change its spacing between versions, and the
 * manifest must be byte-identical across builds). */
static void manifest(strbuf *b, int digits, const ul_vec_file_report *files, size_t n)
{
    sb_printf(b, "{\n");
    sb_printf(b, "  \"format\": \"ulaudit-vectors\",\n");
    sb_printf(b, "  \"format_version\": %d,\n", UL_VEC_FORMAT_VERSION);
    sb_printf(b, "  \"generator\": \"ulaudit vectors\",\n");
    sb_printf(b, "  \"generator_version\": \"%s\",\n", UL_VEC_GENERATOR_VERSION);
    sb_printf(b, "  \"digits\": %d,\n", digits);
    sb_printf(b, "  \"pld_digits\": %d,\n",
              digits < UL_VEC_PLD_DIGITS ? digits : UL_VEC_PLD_DIGITS);
    sb_printf(b, "  \"files\": [\n");
    for (size_t i = 0; i < n; i++) {
        const ul_vec_file_report *f = &files[i];
        sb_printf(b, "    {\n      \"family\": ");
        sb_json_string(b, f->family->name);
        sb_printf(b, ",\n      \"file\": ");
        sb_json_string(b, f->family->file);
        sb_printf(b, ",\n      \"summary\": ");
        sb_json_string(b, f->family->summary);
        sb_printf(b, ",\n      \"rows\": %zu,\n      \"bytes\": %zu,\n", f->rows, f->bytes);
        sb_printf(b, "      \"sha256\": \"%s\"\n    }%s\n", f->sha256, i + 1 < n ? "," : "");
    }
    sb_printf(b, "  ]\n}\n");
}

/* ---- the set -------------------------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void ul_vec_set_free(ul_vec_set *set)
{
    for (size_t i = 0; i < set->n; i++)
        ul_vec_table_free(&set->tables[i]);
    free(set->tables);
    free(set->files);
    memset(set, 0, sizeof *set);
}

/* Generates family f into the next slot of set; progress after it. */
static ul_status build_one(const ul_vec_family *f, ul_vec_set *set, ul_vec_progress progress,
                           void *ctx, char *err, size_t errlen)
{
    double t0 = now_seconds();
    ul_vec_table *t = &set->tables[set->n];
    /* the generator sets the header; digits travel in the table */
    memset(t, 0, sizeof *t);
    t->digits = set->digits;
    char why[512] = "";
    ul_status st = f->generate(t, why, sizeof why);
    if (st != UL_OK) {
        ul_vec_table_free(t);
        return ul_fail(err, errlen, st, "%s: %s", f->file, why);
    }
    ul_vec_file_report *r = &set->files[set->n++];
    r->family = f;
    r->rows = t->rows;
    r->bytes = t->len;
    ul_vec_sha256_hex(t->buf, t->len, r->sha256);
    r->seconds = now_seconds() - t0;
    if (progress != NULL)
        progress(r, ctx);
    return UL_OK;
}

ul_status ul_vec_build(const char *dir, int digits, const char *only, ul_vec_progress progress,
                       void *ctx, ul_vec_set *set, char *err, size_t errlen)
{
    ul_num_init();
    memset(set, 0, sizeof *set);
    if (digits < UL_VEC_MIN_DIGITS || digits > UL_VEC_MAX_DIGITS)
        return ul_fail(err, errlen, UL_EINPUT, "digits: must be from %d to %d (got %d)",
                       UL_VEC_MIN_DIGITS, UL_VEC_MAX_DIGITS, digits);
    if (only != NULL && ul_vec_family_find(only) == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "only: unknown family '%s'", only);
    ul_status st = ensure_dir(dir, err, errlen); /* an unusable --out fails before the work */
    if (st != UL_OK)
        return st;
    size_t count = 0;
    while (ul_vec_families[count].name != NULL)
        count++;
    set->digits = digits;
    set->tables = calloc(count, sizeof *set->tables);
    set->files = calloc(count, sizeof *set->files);
    /* one entry per family of the program */
    if (set->tables == NULL || set->files == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    /* families done / total to the thread's progress hook (num/progress.h) */
    int task = ul_progress_begin("vectors", only != NULL ? 1 : (long)count);
    for (const ul_vec_family *f = ul_vec_families; f->name != NULL && st == UL_OK; f++)
        if (only == NULL || strcmp(only, f->name) == 0) {
            ul_progress_step((long)set->n, f->name);
            st = build_one(f, set, progress, ctx, err, errlen);
        }
    if (st == UL_OK)
        ul_progress_step((long)set->n, NULL);
    ul_progress_end(task);
    if (st != UL_OK)
        ul_vec_set_free(set);
    return st;
}

/* ---- committing the set ------------------------------------------------------- */

/* One file of the commit: its place, the new text beside it, the link that
 * keeps the old file, and how far the commit got with it. */
typedef struct {
    char *path, *fresh, *old;
    const char *data;
    size_t len;
    bool staged, had_old, placed;
} commit_file;

/* dir/.<name>.<kind>.<pid>: beside its place, on the same file system
 * (rename and link need it), hidden, and this process's own. */
static char *side_path(const char *dir, const char *name, const char *kind)
{
    char leaf[256];
    snprintf(leaf, sizeof leaf, ".%s.%s.%ld", name, kind, (long)getpid());
    return join(dir, leaf);
}

static bool is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* Writes every new file beside its place, then links every old one (a
 * directory at a file's place fails here, link's EPERM, before any rename). */
static ul_status commit_prepare(commit_file *c, size_t n, char *err, size_t errlen)
{
    ul_status st = UL_OK;
    char msg[768];
    for (size_t i = 0; i < n && st == UL_OK; i++) {
        st = ul_io_write_atomic_bytes(c[i].fresh, c[i].data, c[i].len, msg, sizeof msg);
        c[i].staged = st == UL_OK;
        if (st != UL_OK)
            ul_fail(err, errlen, st, "out: %s", msg);
    }
    for (size_t i = 0; i < n && st == UL_OK; i++) {
        (void)unlink(c[i].old); /* a leftover of a killed run of this pid */
        if (link(c[i].path, c[i].old) == 0)
            c[i].had_old = true;
        else if (errno != ENOENT)
            st = ul_fail(err, errlen, UL_EINPUT, "out: cannot keep the old %s aside: %s",
                         c[i].path, is_dir(c[i].path) ? "it is a directory" : strerror(errno));
    }
    return st;
}

/* Renames the new files into place, the manifest (the last) last. */
static ul_status commit_swap(commit_file *c, size_t n, char *err, size_t errlen)
{
    if (c[n - 1].had_old && unlink(c[n - 1].path) != 0)
        return ul_fail(err, errlen, UL_EINPUT, "out: cannot remove the old %s: %s",
                       c[n - 1].path, strerror(errno));
    for (size_t i = 0; i < n; i++) {
        if (rename(c[i].fresh, c[i].path) != 0)
            return ul_fail(err, errlen, UL_EINPUT, "out: cannot rename %s to %s: %s",
                           c[i].fresh, c[i].path, strerror(errno));
        c[i].staged = false;
        c[i].placed = true;
    }
    return UL_OK;
}

/* After a failure: the old files back in place (or none where there was
 * none), the manifest included; then, either way, no temporary left. */
static void commit_finish(commit_file *c, size_t n, bool failed)
{
    for (size_t i = 0; i < n; i++) {
        if (failed && c[i].had_old)
            (void)rename(c[i].old, c[i].path); /* the old inode, exactly as it was */
        else if (failed && c[i].placed)
            (void)unlink(c[i].path);
        /* rename of two links of one inode does nothing (POSIX): the link
         * may still be there, and goes now */
        if (c[i].had_old)
            (void)unlink(c[i].old);
        if (c[i].staged)
            (void)unlink(c[i].fresh);
        free(c[i].path);
        free(c[i].fresh);
        free(c[i].old);
    }
}

ul_status ul_vec_commit(const char *dir, const ul_vec_set *set, char *err, size_t errlen)
{
    strbuf b = {NULL, 0, 0};
    manifest(&b, set->digits, set->files, set->n);
    size_t n = set->n + 1;
    commit_file *c = calloc(n, sizeof *c);
    /* one entry per family of the program, and the manifest */
    if (c == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    for (size_t i = 0; i < n; i++) {
        const char *name = i < set->n ? set->files[i].family->file : UL_VEC_MANIFEST;
        c[i].path = join(dir, name);
        c[i].fresh = side_path(dir, name, "new");
        c[i].old = side_path(dir, name, "old");
        c[i].data = i < set->n ? set->tables[i].buf : b.s;
        c[i].len = i < set->n ? set->tables[i].len : b.len;
    }
    ul_status st = commit_prepare(c, n, err, errlen);
    if (st == UL_OK)
        st = commit_swap(c, n, err, errlen);
    commit_finish(c, n, st != UL_OK);
    free(c);
    free(b.s);
    return st;
}

ul_status ul_vec_generate(const char *dir, int digits, const char *only, ul_vec_progress progress,
                          void *ctx, char *err, size_t errlen)
{
    ul_vec_set set;
    ul_status st = ul_vec_build(dir, digits, only, progress, ctx, &set, err, errlen);
    if (st == UL_OK)
        st = ul_vec_commit(dir, &set, err, errlen);
    ul_vec_set_free(&set);
    return st;
}
