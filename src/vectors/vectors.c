/* src/vectors/vectors.c — the family registry, the manifest, and writing the
 * set: every file is built in memory, hashed, written to a temporary name
 * and renamed into place, the manifest last.  A manifest already in the
 * directory is removed before the first file is touched, so a run that is
 * interrupted (Ctrl-C, SIGKILL, a full disk) leaves files without a
 * manifest, never a manifest whose checksums no longer match the files.
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

#include "io/file.h"

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

/* Writes data to dir/name atomically (ul_io_write_atomic_bytes): a reader
 * sees the old file or the new one, never a partial one. */
static ul_status write_atomic(const char *dir, const char *name, const char *data, size_t len,
                              char *err, size_t errlen)
{
    char *path = join(dir, name);
    char msg[768];
    ul_status st = ul_io_write_atomic_bytes(path, data, len, msg, sizeof msg);
    if (st != UL_OK)
        ul_fail(err, errlen, st, "out: %s", msg);
    free(path);
    return st;
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

/* Removes dir/manifest.json (absent is fine): from here until the new one
 * is renamed into place, the directory has no manifest to vouch for it. */
static ul_status remove_old_manifest(const char *dir, char *err, size_t errlen)
{
    char *path = join(dir, UL_VEC_MANIFEST);
    ul_status st = UL_OK;
    if (remove(path) != 0 && errno != ENOENT)
        st = ul_fail(err, errlen, UL_EINPUT, "out: cannot remove the old %s: %s", path,
                     strerror(errno));
    free(path);
    return st;
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

ul_status ul_vec_generate(const char *dir, int digits, const char *only, ul_vec_progress progress,
                          void *ctx, char *err, size_t errlen)
{
    ul_num_init();
    if (digits < UL_VEC_MIN_DIGITS || digits > UL_VEC_MAX_DIGITS)
        return ul_fail(err, errlen, UL_EINPUT, "digits: must be from %d to %d (got %d)",
                       UL_VEC_MIN_DIGITS, UL_VEC_MAX_DIGITS, digits);
    if (only != NULL && ul_vec_family_find(only) == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "only: unknown family '%s'", only);
    ul_status st = ensure_dir(dir, err, errlen);
    if (st == UL_OK)
        st = remove_old_manifest(dir, err, errlen);
    if (st != UL_OK)
        return st;

    size_t count = 0;
    while (ul_vec_families[count].name != NULL)
        count++;
    ul_vec_file_report *files = calloc(count, sizeof *files);
    /* one entry per family of the program */
    if (files == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    size_t written = 0;
    for (const ul_vec_family *f = ul_vec_families; f->name != NULL && st == UL_OK; f++) {
        if (only != NULL && strcmp(only, f->name) != 0)
            continue;
        double t0 = now_seconds();
        ul_vec_table t;
        /* the generator sets the header; digits travel in the table */
        memset(&t, 0, sizeof t);
        t.digits = digits;
        char why[512] = "";
        st = f->generate(&t, why, sizeof why);
        if (st != UL_OK) {
            ul_fail(err, errlen, st, "%s: %s", f->file, why);
        } else {
            ul_vec_file_report *r = &files[written++];
            r->family = f;
            r->rows = t.rows;
            r->bytes = t.len;
            ul_vec_sha256_hex(t.buf, t.len, r->sha256);
            st = write_atomic(dir, f->file, t.buf, t.len, err, errlen);
            r->seconds = now_seconds() - t0;
            if (st == UL_OK && progress != NULL)
                progress(r, ctx);
        }
        ul_vec_table_free(&t);
    }
    if (st == UL_OK) {
        strbuf b = {NULL, 0, 0};
        manifest(&b, digits, files, written);
        st = write_atomic(dir, UL_VEC_MANIFEST, b.s, b.len, err, errlen);
        free(b.s);
    }
    free(files);
    return st;
}
