/* tests/test_vectors.c — the committed reference vectors (vectors/).
 *
 *   1. Reproducibility: the set is regenerated into a temporary directory
 *      and every file, the manifest included, must be byte-identical to the
 *      committed one; the manifest's row counts, sizes and SHA-256 values
 *      must match the committed files (SHA-256 itself checked against the
 *      FIPS 180-4 examples).
 *   2. Independent values: every family is recomputed, by a different
 *      method and without the library's bounds code, and the committed
 *      [lo, hi] must contain the reference:
 *        theta           tests/oracle.c (Taylor series / Laplace continued
 *                        fraction at 1200 bits), every row, both columns;
 *        gauss-sigma/eps θ by the oracle at hi (must be ≤ δ) and at lo
 *                        (must be > δ), every row;
 *        contraction     the recursion in plain MPFR with the oracle's θ;
 *        rdp-to-eps/δ    the closed forms of Mironov and Balle et al. in
 *                        plain MPFR, every row;
 *        sgm-rdp         quadrature of the defining integral
 *                        (tests/renyi_oracle.c) on a sample, and α/(2σ²)
 *                        exactly at q = 1;
 *        pld             θ_{e^ε}(r√T) for q = 1; for q < 1 and T = 1 the
 *                        closed form of the subsampled Gaussian's
 *                        hockey-stick divergence with the oracle's Q;
 *        langevin-sigma  σ*² = min over α of e^{−KR/α}·α·G/(ε − B/(α−1))
 *                        by scan + golden section in MPFR;
 *        langevin-k      ε_DP(K) ≤ ε < ε_DP(K − 1) with ε_DP minimised the
 *                        same way;
 *        noisygd-k/σ     the closed forms of Thm G.7, G.9, G.15.
 *      The double column is checked against the reference rounded to
 *      binary64, and against glibc's strtod of lo and hi.
 * Never a value printed by the code and pasted back.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oracle.h"
#include "renyi_oracle.h"
#include "vectors/vectors.h"

static void setup(void)
{
    ul_num_init();
}

static void teardown(void)
{
    ul_num_shutdown();
}

TestSuite(vectors, .init = setup, .fini = teardown);

#define VEC_DIR "vectors"
#define W ORACLE_BITS

/* ---- files and CSV ------------------------------------------------------------------- */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    cr_assert_not_null(buf);
    for (;;) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        cap *= 2;
        buf = realloc(buf, cap + 1);
        cr_assert_not_null(buf);
    }
    fclose(f);
    buf[n] = '\0';
    if (len != NULL)
        *len = n;
    return buf;
}

typedef struct {
    char *buf;
    char **cell; /* nrows × ncols */
    char **name; /* ncols */
    size_t nrows, ncols;
    const char *file;
} csv;

/* Splits s in place at sep; returns the number of fields written to out. */
static size_t split(char *s, char sep, char **out, size_t max)
{
    size_t n = 0;
    for (;;) {
        cr_assert(n < max, "too many fields");
        out[n++] = s;
        char *p = strchr(s, sep);
        if (p == NULL)
            return n;
        *p = '\0';
        s = p + 1;
    }
}

static void csv_load(csv *c, const char *file)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", VEC_DIR, file);
    memset(c, 0, sizeof *c);
    c->file = file;
    c->buf = slurp(path, NULL);
    cr_assert_not_null(c->buf, "%s: missing (run make vectors)", path);
    size_t nl = 0;
    for (char *p = c->buf; *p; p++)
        nl += *p == '\n';
    cr_assert(nl >= 2, "%s: no rows", path);
    char **lines = malloc((nl + 1) * sizeof *lines);
    size_t n = split(c->buf, '\n', lines, nl + 1);
    cr_assert_eq(*lines[n - 1], '\0', "%s: the last line must end with a newline", path);
    c->name = malloc(64 * sizeof *c->name);
    c->ncols = split(lines[0], ',', c->name, 64);
    c->nrows = n - 2;
    c->cell = malloc(c->nrows * c->ncols * sizeof *c->cell);
    for (size_t i = 0; i < c->nrows; i++) {
        size_t k = split(lines[i + 1], ',', c->cell + i * c->ncols, c->ncols);
        cr_assert_eq(k, c->ncols, "%s row %zu: %zu cells for %zu columns", path, i + 1, k,
                     c->ncols);
    }
    free(lines);
}

static void csv_free(csv *c)
{
    free(c->buf);
    free(c->cell);
    free(c->name);
}

static const char *get(const csv *c, size_t row, const char *col)
{
    for (size_t j = 0; j < c->ncols; j++)
        if (strcmp(c->name[j], col) == 0)
            return c->cell[row * c->ncols + j];
    cr_assert_fail("%s: no column %s", c->file, col);
    return NULL;
}

/* "<name>_<suffix>" of row. */
static const char *getx(const csv *c, size_t row, const char *name, const char *suffix)
{
    char col[96];
    snprintf(col, sizeof col, "%s_%s", name, suffix);
    return get(c, row, col);
}

/* ---- references and comparisons -------------------------------------------------------- */

static void dec(mpfr_ptr x, const char *s, mpfr_rnd_t rnd)
{
    cr_assert_eq(mpfr_set_str(x, s, 10, rnd), 0, "bad decimal '%s'", s);
}

/* log of a positive decimal "m[e±X]" whose exponent may be far beyond
 * MPFR's range (lo and hi of values like 10^(-2·10^24)): log m + X·log 10. */
static void dec_log(mpfr_ptr out, const char *s)
{
    char m[128];
    const char *e = strpbrk(s, "eE");
    size_t n = e ? (size_t)(e - s) : strlen(s);
    cr_assert(n < sizeof m);
    memcpy(m, s, n);
    m[n] = '\0';
    mpfr_t x, y;
    mpfr_inits2(mpfr_get_prec(out) + 64, x, y, (mpfr_ptr)0);
    dec(x, m, MPFR_RNDN);
    cr_assert(mpfr_sgn(x) > 0, "dec_log of a non-positive '%s'", s);
    mpfr_log(x, x, MPFR_RNDN);
    if (e != NULL) {
        dec(y, e + 1, MPFR_RNDN); /* the exponent, exactly */
        mpfr_t l10;
        mpfr_init2(l10, mpfr_get_prec(out) + 64);
        mpfr_set_ui(l10, 10, MPFR_RNDN);
        mpfr_log(l10, l10, MPFR_RNDN);
        mpfr_mul(y, y, l10, MPFR_RNDN);
        mpfr_add(x, x, y, MPFR_RNDN);
        mpfr_clear(l10);
    }
    mpfr_set(out, x, MPFR_RNDN);
    mpfr_clears(x, y, (mpfr_ptr)0);
}

/* The reference as text for a failure message (one static buffer per call
 * site is enough: messages are formatted once). */
static const char *show(mpfr_srcptr x)
{
    static char buf[8][96];
    static int k;
    k = (k + 1) % 8;
    mpfr_snprintf(buf[k], sizeof buf[k], "%.30Rg", x);
    return buf[k];
}

/* The reference's slack: |ref|·2^-900 (the oracles and closed forms carry
 * 1200 bits; the enclosures are about 2^-100 wide, relative). */
static void slack(mpfr_ptr tol, mpfr_srcptr ref)
{
    mpfr_abs(tol, ref, MPFR_RNDU);
    mpfr_mul_2si(tol, tol, -900, MPFR_RNDU);
}

/* An absolute slack of 2^-1100 on a logarithm: the θ oracle's error is
 * relative to θ, i.e. absolute on log θ (it matters where θ is near 1 and
 * log θ near 0). */
static void abs_slack(mpfr_ptr tol)
{
    mpfr_set_ui_2exp(tol, 1, -1100, MPFR_RNDN);
}

/* lo − slack ≤ ref ≤ hi + slack for the decimals lo, hi ("-inf"/"inf" allowed). */
static bool contains(mpfr_srcptr ref, const char *lo_s, const char *hi_s, mpfr_srcptr extra)
{
    mpfr_t lo, hi, tol;
    mpfr_inits2(W + 64, lo, hi, tol, (mpfr_ptr)0);
    dec(lo, lo_s, MPFR_RNDD);
    dec(hi, hi_s, MPFR_RNDU);
    if (mpfr_inf_p(ref))
        return mpfr_equal_p(lo, ref) && mpfr_equal_p(hi, ref);
    slack(tol, ref);
    if (extra != NULL)
        mpfr_add(tol, tol, extra, MPFR_RNDU);
    mpfr_sub(lo, lo, tol, MPFR_RNDD);
    mpfr_add(hi, hi, tol, MPFR_RNDU);
    bool ok = mpfr_lessequal_p(lo, ref) && mpfr_lessequal_p(ref, hi);
    mpfr_clears(lo, hi, tol, (mpfr_ptr)0);
    return ok;
}

/* The same for a positive value given by its log: log lo ≤ log_ref ≤ log hi. */
static bool contains_log(mpfr_srcptr log_ref, const char *lo_s, const char *hi_s)
{
    mpfr_t lo, hi, tol;
    mpfr_inits2(W + 64, lo, hi, tol, (mpfr_ptr)0);
    if (strcmp(lo_s, "0") == 0)
        mpfr_set_inf(lo, -1);
    else
        dec_log(lo, lo_s);
    dec_log(hi, hi_s);
    slack(tol, log_ref);
    mpfr_t a;
    mpfr_init2(a, 64);
    abs_slack(a);
    mpfr_add(tol, tol, a, MPFR_RNDU);
    mpfr_clear(a);
    mpfr_sub(lo, lo, tol, MPFR_RNDD);
    mpfr_add(hi, hi, tol, MPFR_RNDU);
    bool ok = mpfr_lessequal_p(lo, log_ref) && mpfr_lessequal_p(log_ref, hi);
    mpfr_clears(lo, hi, tol, (mpfr_ptr)0);
    return ok;
}

/* x rounded to binary64 (nearest, ties to even, gradual underflow): MPFR at 53
 * bits in the binary64 exponent range with mpfr_subnormalize. */
static double to_double(mpfr_srcptr x)
{
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    double d;
    if (mpfr_inf_p(x) || mpfr_zero_p(x)) {
        d = mpfr_get_d(x, MPFR_RNDN);
    } else if (mpfr_get_exp(x) < -1100) {
        d = mpfr_sgn(x) > 0 ? 0.0 : -0.0;
    } else if (mpfr_get_exp(x) > 1100) {
        d = mpfr_sgn(x) > 0 ? INFINITY : -INFINITY;
    } else {
        mpfr_set_emin(-1073);
        mpfr_set_emax(1024);
        mpfr_t y;
        mpfr_init2(y, 53);
        int t = mpfr_set(y, x, MPFR_RNDN);
        t = mpfr_check_range(y, t, MPFR_RNDN);
        mpfr_subnormalize(y, t, MPFR_RNDN);
        d = mpfr_get_d(y, MPFR_RNDN);
        mpfr_clear(y);
        mpfr_set_emin(emin);
        mpfr_set_emax(emax);
    }
    return d;
}

/* RN(e^l). */
static double exp_to_double(mpfr_srcptr l)
{
    if (mpfr_inf_p(l))
        return mpfr_sgn(l) < 0 ? 0.0 : INFINITY;
    if (mpfr_cmp_si(l, -800) < 0)
        return 0.0;
    if (mpfr_cmp_si(l, 800) > 0)
        return INFINITY;
    mpfr_t x;
    mpfr_init2(x, W);
    mpfr_exp(x, l, MPFR_RNDN);
    double d = to_double(x);
    mpfr_clear(x);
    return d;
}

static const char *expected_flag(double d, bool true_nonzero, bool true_finite)
{
    if (d == 0)
        return true_nonzero ? "zero" : "ok";
    if (isinf(d))
        return true_finite ? "inf" : "ok";
    if (fabs(d) < DBL_MIN)
        return "subnormal";
    return "ok";
}

static bool same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

/* The double and flag cells of output `name` against the reference double
 * d_ref (the true value rounded).  Undetermined cells are not compared (the
 * structural test checks them). */
static void check_double(const csv *c, size_t row, const char *name, double d_ref,
                         bool true_nonzero, bool true_finite, const char *what)
{
    const char *cell = getx(c, row, name, "double");
    const char *flag = getx(c, row, name, "flag");
    if (strcmp(cell, "undetermined") == 0)
        return;
    double d = strtod(cell, NULL);
    cr_assert(same_double(d, d_ref), "%s: %s_double %s, the reference rounds to %.17g", what, name,
              cell, d_ref);
    cr_assert_str_eq(flag, expected_flag(d_ref, true_nonzero, true_finite), "%s: %s_flag", what,
                     name);
}

/* Plain value ref (at W bits) against output `name`: [lo, hi] widened by
 * the reference's slack and `extra` (may be NULL); and the double, when
 * `rounds` (the reference is accurate far beyond a double's rounding). */
static void check_plain_x(const csv *c, size_t row, const char *name, mpfr_srcptr ref,
                          mpfr_srcptr extra, bool rounds, const char *what)
{
    cr_assert(contains(ref, getx(c, row, name, "lo"), getx(c, row, name, "hi"), extra),
              "%s: %s [%s, %s] misses the reference %s", what, name, getx(c, row, name, "lo"),
              getx(c, row, name, "hi"), show(ref));
    if (rounds)
        check_double(c, row, name, to_double(ref), !mpfr_zero_p(ref), !mpfr_inf_p(ref), what);
}

static void check_plain(const csv *c, size_t row, const char *name, mpfr_srcptr ref,
                        mpfr_srcptr extra, const char *what)
{
    check_plain_x(c, row, name, ref, extra, extra == NULL, what);
}

/* Positive value given by its log against output `name`. */
static void check_by_log(const csv *c, size_t row, const char *name, mpfr_srcptr log_ref,
                         const char *what)
{
    cr_assert(contains_log(log_ref, getx(c, row, name, "lo"), getx(c, row, name, "hi")),
              "%s: %s [%s, %s] misses the reference e^%s", what, name, getx(c, row, name, "lo"),
              getx(c, row, name, "hi"), show(log_ref));
    check_double(c, row, name, exp_to_double(log_ref), true, true, what);
}

static void row_what(char *buf, size_t n, const csv *c, size_t row, size_t ninputs)
{
    int k = snprintf(buf, n, "%s row %zu (", c->file, row + 1);
    for (size_t j = 0; j < ninputs && k > 0 && (size_t)k < n; j++)
        k += snprintf(buf + k, n - (size_t)k, "%s%s=%s", j ? " " : "", c->name[j],
                      c->cell[row * c->ncols + j]);
    if (k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, ")");
}

/* ---- 1. reproducibility ------------------------------------------------------------------ */

Test(vectors, sha256_matches_the_fips_180_examples)
{
    /* FIPS 180-4 / NIST CSRC example values (SHA256.pdf, SHA2_Additional). */
    char hex[65];
    ul_vec_sha256_hex("abc", 3, hex);
    cr_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    ul_vec_sha256_hex("", 0, hex);
    cr_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    ul_vec_sha256_hex(two, strlen(two), hex);
    cr_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    char *million = malloc(1000000);
    memset(million, 'a', 1000000);
    ul_vec_sha256_hex(million, 1000000, hex);
    free(million);
    cr_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static json_object *load_manifest(void)
{
    char *text = slurp(VEC_DIR "/" UL_VEC_MANIFEST, NULL);
    cr_assert_not_null(text, "vectors/manifest.json missing (run make vectors)");
    json_object *m = json_tokener_parse(text);
    free(text);
    cr_assert_not_null(m, "manifest.json is not JSON");
    return m;
}

static json_object *member(json_object *o, const char *key)
{
    json_object *v = NULL;
    cr_assert(json_object_object_get_ex(o, key, &v), "manifest: no '%s'", key);
    return v;
}

Test(vectors, manifest_lists_every_file_with_its_rows_size_and_sha256)
{
    json_object *m = load_manifest();
    cr_assert_str_eq(json_object_get_string(member(m, "format")), "ulaudit-vectors");
    cr_assert_eq(json_object_get_int(member(m, "format_version")), UL_VEC_FORMAT_VERSION);
    cr_assert_str_eq(json_object_get_string(member(m, "generator_version")),
                     UL_VEC_GENERATOR_VERSION);
    cr_assert_eq(json_object_get_int(member(m, "digits")), UL_VEC_DEFAULT_DIGITS,
                 "the committed set is at the default digits");
    json_object *files = member(m, "files");
    size_t n = json_object_array_length(files), nfam = 0;
    while (ul_vec_families[nfam].name != NULL)
        nfam++;
    cr_assert_eq(n, nfam, "the manifest lists %zu files for %zu families", n, nfam);
    for (size_t i = 0; i < n; i++) {
        json_object *f = json_object_array_get_idx(files, i);
        const char *file = json_object_get_string(member(f, "file"));
        cr_assert_str_eq(file, ul_vec_families[i].file, "manifest order");
        cr_assert_str_eq(json_object_get_string(member(f, "family")), ul_vec_families[i].name);
        char path[256];
        snprintf(path, sizeof path, "%s/%s", VEC_DIR, file);
        size_t len;
        char *data = slurp(path, &len);
        cr_assert_not_null(data, "%s missing", path);
        size_t lines = 0;
        for (size_t k = 0; k < len; k++)
            lines += data[k] == '\n';
        cr_assert_eq((size_t)json_object_get_int64(member(f, "rows")), lines - 1, "%s rows", file);
        cr_assert_eq((size_t)json_object_get_int64(member(f, "bytes")), len, "%s bytes", file);
        char hex[65];
        ul_vec_sha256_hex(data, len, hex);
        cr_assert_str_eq(json_object_get_string(member(f, "sha256")), hex, "%s sha256", file);
        free(data);
    }
    /* nothing else in vectors/ but the files, the manifest and README.md */
    DIR *d = opendir(VEC_DIR);
    cr_assert_not_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0 ||
            strcmp(e->d_name, UL_VEC_MANIFEST) == 0)
            continue;
        bool listed = false;
        for (size_t i = 0; ul_vec_families[i].name != NULL; i++)
            listed = listed || strcmp(ul_vec_families[i].file, e->d_name) == 0;
        cr_assert(listed, "vectors/%s is not in the manifest", e->d_name);
    }
    closedir(d);
    json_object_put(m);
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        remove(path);
    }
    closedir(d);
    rmdir(dir);
}

static void count_file(const ul_vec_file_report *f, void *ctx)
{
    (void)f;
    (*(int *)ctx)++;
}

Test(vectors, regenerated_set_is_byte_identical_to_the_committed_one, .timeout = 600)
{
    char dir[] = "/tmp/ulaudit-vectors-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    int written = 0;
    char err[1024] = "";
    ul_status st =
        ul_vec_generate(dir, UL_VEC_DEFAULT_DIGITS, NULL, count_file, &written, err, sizeof err);
    cr_assert_eq(st, UL_OK, "generation failed: %s", err);
    int mismatches = 0;
    const char *names[64];
    size_t n = 0;
    for (size_t i = 0; ul_vec_families[i].name != NULL; i++)
        names[n++] = ul_vec_families[i].file;
    names[n++] = UL_VEC_MANIFEST;
    cr_assert_eq((size_t)written + 1, n);
    for (size_t i = 0; i < n; i++) {
        char a[512], b[512];
        snprintf(a, sizeof a, "%s/%s", VEC_DIR, names[i]);
        snprintf(b, sizeof b, "%s/%s", dir, names[i]);
        size_t la, lb;
        char *da = slurp(a, &la), *db = slurp(b, &lb);
        cr_assert_not_null(db, "%s not generated", b);
        if (da == NULL || la != lb || memcmp(da, db, la) != 0) {
            cr_log_error("%s differs from the regenerated %s (run make vectors and review)", a, b);
            mismatches++;
        }
        free(da);
        free(db);
    }
    remove_dir(dir);
    cr_assert_eq(mismatches, 0, "%d committed files differ from a fresh generation", mismatches);
}

Test(vectors, generate_refuses_bad_arguments)
{
    char err[256] = "";
    cr_assert_eq(ul_vec_generate("/tmp", 0, NULL, NULL, NULL, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "digits") != NULL);
    cr_assert_eq(ul_vec_generate("/tmp", 30, "no-such-family", NULL, NULL, err, sizeof err),
                 UL_EINPUT);
    cr_assert(strstr(err, "no-such-family") != NULL);
    cr_assert_eq(ul_vec_generate("/nonexistent-dir/x/y", 30, "theta", NULL, NULL, err, sizeof err),
                 UL_EINPUT);
    cr_assert(strstr(err, "out") != NULL);
}

Test(vectors, only_writes_one_family_and_its_manifest)
{
    char dir[] = "/tmp/ulaudit-vectors-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char err[1024] = "";
    cr_assert_eq(ul_vec_generate(dir, 20, "noisygd-sigma", NULL, NULL, err, sizeof err), UL_OK,
                 "%s", err);
    char path[512];
    snprintf(path, sizeof path, "%s/noisygd_sigma.csv", dir);
    cr_assert_eq(access(path, R_OK), 0);
    snprintf(path, sizeof path, "%s/theta.csv", dir);
    cr_assert_neq(access(path, R_OK), 0, "--only wrote another family");
    snprintf(path, sizeof path, "%s/%s", dir, UL_VEC_MANIFEST);
    char *text = slurp(path, NULL);
    cr_assert_not_null(text);
    cr_assert(strstr(text, "\"digits\": 20") != NULL);
    cr_assert(strstr(text, "noisygd_sigma.csv") != NULL && strstr(text, "theta.csv") == NULL);
    free(text);
    remove_dir(dir);
}

/* Issue 12, then the all-or-nothing commit: a run over an existing set that
 * fails (here: theta.csv cannot be put in place, a directory stands at its
 * name) once removed the old manifest and left the files finished before
 * the failure; now it leaves the old set exactly as it was (the manifest
 * and the file byte for byte) and no temporary file beside them. */
Test(vectors, a_failed_run_leaves_the_old_set_as_it_was)
{
    char dir[] = "/tmp/ulaudit-vectors-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char err[1024] = "", manifest[512], csv_path[512], blocker[512];
    cr_assert_eq(ul_vec_generate(dir, 5, "noisygd-sigma", NULL, NULL, err, sizeof err), UL_OK,
                 "%s", err);
    snprintf(manifest, sizeof manifest, "%s/%s", dir, UL_VEC_MANIFEST);
    snprintf(csv_path, sizeof csv_path, "%s/noisygd_sigma.csv", dir);
    size_t lm, lc;
    char *old_manifest = slurp(manifest, &lm), *old_csv = slurp(csv_path, &lc);
    cr_assert(old_manifest != NULL && old_csv != NULL, "the first run wrote no set");
    snprintf(blocker, sizeof blocker, "%s/theta.csv", dir);
    cr_assert_eq(mkdir(blocker, 0700), 0);
    cr_assert_eq(ul_vec_generate(dir, 5, "theta", NULL, NULL, err, sizeof err), UL_EINPUT);
    cr_assert(strncmp(err, "out:", 4) == 0 && strstr(err, "theta.csv") != NULL, "%s", err);
    size_t lm2, lc2;
    char *new_manifest = slurp(manifest, &lm2), *new_csv = slurp(csv_path, &lc2);
    cr_assert(new_manifest != NULL && lm2 == lm && memcmp(new_manifest, old_manifest, lm) == 0,
              "the old manifest did not survive the failed run as it was");
    cr_assert(new_csv != NULL && lc2 == lc && memcmp(new_csv, old_csv, lc) == 0,
              "the old file did not survive the failed run as it was");
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int entries = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    cr_assert_eq(entries, 3, "manifest, noisygd_sigma.csv and the blocker only: %d entries",
                 entries);
    free(old_manifest);
    free(old_csv);
    free(new_manifest);
    free(new_csv);
    rmdir(blocker);
    remove_dir(dir);
}

/* ---- the double column ------------------------------------------------------------------- */

Test(vectors, decimal_to_double_agrees_with_strtod)
{
    static const char *const S[] = {"0",
                                    "1",
                                    "-1",
                                    "0.1",
                                    "1e-5",
                                    "6.8295949831145753842350128799268727500e-3",
                                    "2.2250738585072014e-308",
                                    "2.2250738585072011e-308",
                                    "1e-310",
                                    "4.9406564584124654e-324",
                                    "2.4703282292062328e-324",
                                    "2.4703282292062327e-324",
                                    "1e-400",
                                    "1.7976931348623157e308",
                                    "1.7976931348623158e308",
                                    "1.7976931348623159e308",
                                    "1e400",
                                    "9.007199254740993e15",
                                    "1.00000000000000011102230246251565404236316680908203125",
                                    "1.00000000000000011102230246251565404236316680908203126",
                                    "-3.14159e-320"};
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++) {
        double a = ul_vec_decimal_to_double(S[i]), b = strtod(S[i], NULL);
        cr_assert(same_double(a, b), "%s: %a vs strtod %a", S[i], a, b);
    }
}

Test(vectors, double_of_bounds_and_flags)
{
    double d;
    ul_vec_flag f;
    cr_assert(ul_vec_double_of("1e-400", "1.1e-400", &d, &f) && d == 0 && f == UL_VEC_FLAG_ZERO);
    cr_assert(ul_vec_double_of("0", "0", &d, &f) && d == 0 && f == UL_VEC_FLAG_OK);
    cr_assert(ul_vec_double_of("1e-310", "1.0000000000000001e-310", &d, &f) &&
              f == UL_VEC_FLAG_SUBNORMAL);
    cr_assert(ul_vec_double_of("1.8e308", "1.9e308", &d, &f) && isinf(d) && f == UL_VEC_FLAG_INF);
    cr_assert(ul_vec_double_of("-inf", "-inf", &d, &f) && isinf(d) && f == UL_VEC_FLAG_OK);
    cr_assert(ul_vec_double_of("1.8e-2171472409516259138255427484",
                               "1.9e-2171472409516259138255427484", &d, &f) &&
              d == 0 && f == UL_VEC_FLAG_ZERO);
    /* 1 + 2^-53 is the tie between 1 and 1 + 2^-52: an enclosure across it
     * leaves the double undetermined */
    cr_assert(!ul_vec_double_of("1.00000000000000011102230246251565404236316680908203124",
                                "1.00000000000000011102230246251565404236316680908203126", &d, &f));
    cr_assert_eq(f, UL_VEC_FLAG_OK);
    /* across the least normal: the class is undetermined too */
    cr_assert(!ul_vec_double_of("2.2250738585072e-308", "2.2250738585073e-308", &d, &f));
    cr_assert_eq(f, UL_VEC_FLAG_UNDETERMINED);
}

/* Every real output of every file: lo ≤ hi; the double cell and the flag as
 * glibc's strtod (an independent correctly rounded reader) gives them. */
Test(vectors, every_double_cell_is_what_lo_and_hi_determine)
{
    for (size_t i = 0; ul_vec_families[i].name != NULL; i++) {
        csv c;
        csv_load(&c, ul_vec_families[i].file);
        for (size_t j = 0; j < c.ncols; j++) {
            const char *col = c.name[j];
            size_t n = strlen(col);
            if (n < 7 || strcmp(col + n - 7, "_double") != 0)
                continue;
            cr_assert(j >= 2 && strcmp(c.name[j + 1] + strlen(c.name[j + 1]) - 5, "_flag") == 0);
            for (size_t r = 0; r < c.nrows; r++) {
                const char *lo = c.cell[r * c.ncols + j - 2], *hi = c.cell[r * c.ncols + j - 1];
                const char *cell = c.cell[r * c.ncols + j], *flag = c.cell[r * c.ncols + j + 1];
                double dl = strtod(lo, NULL), dh = strtod(hi, NULL);
                bool nonzero = (lo[0] != '-' && strcmp(lo, "0") != 0) || hi[0] == '-';
                bool finite = strstr(lo, "inf") == NULL && strstr(hi, "inf") == NULL;
                if (same_double(dl, dh)) {
                    cr_assert_eq(strtod(cell, NULL), dl, "%s row %zu %s", c.file, r + 1, col);
                    cr_assert_str_eq(flag, expected_flag(dl, nonzero, finite), "%s row %zu %s",
                                     c.file, r + 1, col);
                } else {
                    cr_assert_str_eq(cell, "undetermined", "%s row %zu %s", c.file, r + 1, col);
                }
                /* lo ≤ hi */
                if (strstr(lo, "inf") == NULL && lo[0] != '-' && hi[0] != '-' &&
                    strcmp(lo, "0") != 0) {
                    mpfr_t a, b;
                    mpfr_inits2(W, a, b, (mpfr_ptr)0);
                    dec_log(a, lo);
                    dec_log(b, hi);
                    cr_assert(mpfr_lessequal_p(a, b), "%s row %zu %s: lo > hi", c.file, r + 1, col);
                    mpfr_clears(a, b, (mpfr_ptr)0);
                }
            }
        }
        csv_free(&c);
    }
}

Test(vectors, theta_covers_the_regimes_where_doubles_break)
{
    csv c;
    csv_load(&c, "theta.csv");
    int zero = 0, subnormal = 0, negative = 0;
    for (size_t r = 0; r < c.nrows; r++) {
        zero += strcmp(get(&c, r, "theta_flag"), "zero") == 0;
        subnormal += strcmp(get(&c, r, "theta_flag"), "subnormal") == 0;
        negative += get(&c, r, "eps")[0] == '-';
    }
    cr_assert(zero >= 10 && subnormal >= 1 && negative >= 10, "zero %d subnormal %d eps<0 %d", zero,
              subnormal, negative);
    csv_free(&c);
    csv_load(&c, "gauss_sigma.csv");
    int tiny = 0;
    for (size_t r = 0; r < c.nrows; r++)
        tiny += strcmp(get(&c, r, "delta"), "1e-310") == 0 ||
                strcmp(get(&c, r, "delta"), "1e-1000") == 0;
    cr_assert(tiny >= 2);
    csv_free(&c);
}

/* ---- 2. independent values --------------------------------------------------------------- */

Test(vectors, theta_and_log_theta_contain_the_oracle)
{
    csv c;
    csv_load(&c, "theta.csv");
    mpfr_t L, e, tiny;
    mpfr_inits2(W, L, e, tiny, (mpfr_ptr)0);
    abs_slack(tiny);
    for (size_t r = 0; r < c.nrows; r++) {
        char what[160];
        row_what(what, sizeof what, &c, r, 2);
        const char *eps = get(&c, r, "eps"), *rr = get(&c, r, "r");
        if (strcmp(rr, "0") == 0) {
            dec(e, eps, MPFR_RNDN);
            if (mpfr_sgn(e) >= 0) {
                /* θ_γ(0) = 0 for γ ≥ 1 */
                cr_assert_str_eq(get(&c, r, "theta_lo"), "0", "%s", what);
                cr_assert_str_eq(get(&c, r, "theta_hi"), "0", "%s", what);
                cr_assert_str_eq(get(&c, r, "log_theta_lo"), "-inf", "%s", what);
                cr_assert_str_eq(get(&c, r, "log_theta_double"), "-inf", "%s", what);
                continue;
            }
            /* θ_γ(0) = 1 − γ for γ < 1 */
            mpfr_expm1(L, e, MPFR_RNDN);
            mpfr_neg(L, L, MPFR_RNDN);
            mpfr_log(L, L, MPFR_RNDN);
        } else {
            oracle_log_theta_str(L, eps, rr);
        }
        check_by_log(&c, r, "theta", L, what);
        check_plain_x(&c, r, "log_theta", L, tiny, true, what);
    }
    mpfr_clears(L, e, tiny, (mpfr_ptr)0);
    csv_free(&c);
}

/* log θ_{e^eps}(r) by the oracle, eps and r at W bits. */
static void oracle_at(mpfr_ptr out, mpfr_srcptr eps, mpfr_srcptr r)
{
    oracle_log_theta(out, eps, r);
}

Test(vectors, gauss_sigma_hi_is_safe_and_lo_unsafe_by_the_oracle)
{
    csv c;
    csv_load(&c, "gauss_sigma.csv");
    mpfr_t e, ld, s, rr, L;
    mpfr_inits2(W, e, ld, s, rr, L, (mpfr_ptr)0);
    for (size_t r = 0; r < c.nrows; r++) {
        char what[160];
        row_what(what, sizeof what, &c, r, 2);
        dec(e, get(&c, r, "eps"), MPFR_RNDN);
        dec(ld, get(&c, r, "delta"), MPFR_RNDN);
        mpfr_log(ld, ld, MPFR_RNDN);
        /* θ increases in r = 1/σ: at σ_hi θ ≤ δ, at σ_lo θ > δ */
        dec(s, get(&c, r, "sigma_hi"), MPFR_RNDN);
        mpfr_ui_div(rr, 1, s, MPFR_RNDN);
        oracle_at(L, e, rr);
        cr_assert(mpfr_lessequal_p(L, ld), "%s: theta at sigma_hi exceeds delta", what);
        dec(s, get(&c, r, "sigma_lo"), MPFR_RNDN);
        mpfr_ui_div(rr, 1, s, MPFR_RNDN);
        oracle_at(L, e, rr);
        cr_assert(mpfr_greater_p(L, ld), "%s: theta at sigma_lo is already <= delta", what);
    }
    mpfr_clears(e, ld, s, rr, L, (mpfr_ptr)0);
    csv_free(&c);
}

Test(vectors, gauss_eps_hi_is_safe_and_lo_unsafe_by_the_oracle)
{
    csv c;
    csv_load(&c, "gauss_eps.csv");
    mpfr_t e, ld, rr, L;
    mpfr_inits2(W, e, ld, rr, L, (mpfr_ptr)0);
    int zeros = 0;
    for (size_t r = 0; r < c.nrows; r++) {
        char what[160];
        row_what(what, sizeof what, &c, r, 2);
        dec(rr, get(&c, r, "r"), MPFR_RNDN);
        dec(ld, get(&c, r, "delta"), MPFR_RNDN);
        mpfr_log(ld, ld, MPFR_RNDN);
        dec(e, get(&c, r, "eps_hi"), MPFR_RNDN);
        oracle_at(L, e, rr);
        cr_assert(mpfr_lessequal_p(L, ld), "%s: theta at eps_hi exceeds delta", what);
        dec(e, get(&c, r, "eps_lo"), MPFR_RNDN);
        if (mpfr_zero_p(e)) {
            /* ε* = 0 exactly: then hi must be 0 too (θ_1(r) ≤ δ, checked above) */
            cr_assert_str_eq(get(&c, r, "eps_hi"), "0", "%s", what);
            zeros++;
            continue;
        }
        oracle_at(L, e, rr);
        cr_assert(mpfr_greater_p(L, ld), "%s: theta at eps_lo is already <= delta", what);
    }
    cr_assert(zeros > 0 && zeros < (int)c.nrows);
    mpfr_clears(e, ld, rr, L, (mpfr_ptr)0);
    csv_free(&c);
}

/* log δ_T by the recursion of docs/neural-unlearning.md, "Model clipping" in plain MPFR with the
 * oracle's θ (as tests/test_contraction.c). */
static void oracle_log_delta(mpfr_ptr out, const char *eps, const char *r, unsigned long steps,
                             const char *delta0, bool adaptive)
{
    mpfr_prec_t w = 4 * ORACLE_BITS;
    mpfr_t e, rr, l, et, lt, tmp;
    mpfr_inits2(w, e, rr, l, et, lt, tmp, (mpfr_ptr)0);
    dec(e, eps, MPFR_RNDN);
    dec(rr, r, MPFR_RNDN);
    dec(l, delta0, MPFR_RNDN);
    mpfr_log(l, l, MPFR_RNDN);
    if (!adaptive) {
        oracle_log_theta(lt, e, rr);
        mpfr_mul_ui(lt, lt, steps, MPFR_RNDN);
        mpfr_add(l, l, lt, MPFR_RNDN);
    }
    for (unsigned long t = 0; adaptive && t < steps; t++) {
        /* ε̃ = log(1 + (e^ε − 1)/δ) = softplus(u), u = log(e^ε − 1) − log δ,
         * formed without e^{−log δ}, which leaves the exponent range once δ
         * is below 10^(−10^18) */
        mpfr_expm1(tmp, e, MPFR_RNDN);
        mpfr_log(tmp, tmp, MPFR_RNDN); /* −inf at ε = 0: then ε̃ = 0 */
        mpfr_sub(tmp, tmp, l, MPFR_RNDN);
        if (mpfr_sgn(tmp) > 0) {
            mpfr_neg(et, tmp, MPFR_RNDN);
            mpfr_exp(et, et, MPFR_RNDN);
            mpfr_log1p(et, et, MPFR_RNDN);
            mpfr_add(et, et, tmp, MPFR_RNDN);
        } else {
            mpfr_exp(et, tmp, MPFR_RNDN);
            mpfr_log1p(et, et, MPFR_RNDN);
        }
        oracle_log_theta(lt, et, rr);
        mpfr_add(l, l, lt, MPFR_RNDN);
    }
    mpfr_set(out, l, MPFR_RNDN);
    mpfr_clears(e, rr, l, et, lt, tmp, (mpfr_ptr)0);
}

Test(vectors, contraction_matches_the_plain_recursion_with_the_oracle_theta)
{
    csv c;
    csv_load(&c, "contraction.csv");
    mpfr_t L, tiny;
    mpfr_init2(L, 4 * W);
    mpfr_init2(tiny, 64);
    abs_slack(tiny);
    size_t checked = 0;
    for (size_t r = 0; r < c.nrows; r++) {
        bool adaptive = strcmp(get(&c, r, "mode"), "adaptive") == 0;
        char what[200];
        row_what(what, sizeof what, &c, r, 5);
        oracle_log_delta(L, get(&c, r, "eps"), get(&c, r, "r"),
                         strtoul(get(&c, r, "steps"), NULL, 10), get(&c, r, "delta0"), adaptive);
        check_by_log(&c, r, "delta", L, what);
        check_plain_x(&c, r, "log_delta", L, tiny, true, what);
        checked++;
    }
    cr_assert_eq(checked, c.nrows);
    mpfr_clear(L);
    mpfr_clear(tiny);
    csv_free(&c);
}

/* The conversions' closed forms (renyi.h): mironov ε = ρ + log(1/δ)/(α−1),
 * δ = min(1, e^{(α−1)(ρ−ε)}); bbghs ε = max(0, ρ + log1p(−1/α) − (log δ +
 * log α)/(α−1)), and 0 when δ ≥ √(1 − e^{−ρ}); δ = min(1, √(1 − e^{−ρ}),
 * e^{(α−1)(ρ − ε + log1p(−1/α))}/α). */
static void closed_eps(mpfr_ptr out, bool bbghs, const char *alpha, const char *rho,
                       const char *delta)
{
    mpfr_t a, p, d, t, u;
    mpfr_inits2(W, a, p, d, t, u, (mpfr_ptr)0);
    dec(a, alpha, MPFR_RNDN);
    dec(p, rho, MPFR_RNDN);
    dec(d, delta, MPFR_RNDN);
    mpfr_log(t, d, MPFR_RNDN);
    mpfr_sub_ui(u, a, 1, MPFR_RNDN);
    if (!bbghs) {
        mpfr_div(t, t, u, MPFR_RNDN);
        mpfr_sub(out, p, t, MPFR_RNDN);
    } else {
        mpfr_t v;
        mpfr_init2(v, W);
        mpfr_log(v, a, MPFR_RNDN);
        mpfr_add(t, t, v, MPFR_RNDN);
        mpfr_div(t, t, u, MPFR_RNDN); /* (log δ + log α)/(α−1) */
        mpfr_ui_div(v, 1, a, MPFR_RNDN);
        mpfr_neg(v, v, MPFR_RNDN);
        mpfr_log1p(v, v, MPFR_RNDN);
        mpfr_add(v, v, p, MPFR_RNDN);
        mpfr_sub(out, v, t, MPFR_RNDN);
        if (mpfr_sgn(out) < 0)
            mpfr_set_zero(out, 1);
        /* Bretagnolle–Huber: δ ≥ √(1 − e^{−ρ}) gives ε = 0 */
        mpfr_neg(v, p, MPFR_RNDN);
        mpfr_exp(v, v, MPFR_RNDN);
        mpfr_ui_sub(v, 1, v, MPFR_RNDN);
        mpfr_sqrt(v, v, MPFR_RNDN);
        if (mpfr_greaterequal_p(d, v))
            mpfr_set_zero(out, 1);
        mpfr_clear(v);
    }
    mpfr_clears(a, p, d, t, u, (mpfr_ptr)0);
}

static void closed_log_delta(mpfr_ptr out, bool bbghs, const char *alpha, const char *rho,
                             const char *eps)
{
    mpfr_t a, p, e, t, u;
    mpfr_inits2(W, a, p, e, t, u, (mpfr_ptr)0);
    dec(a, alpha, MPFR_RNDN);
    dec(p, rho, MPFR_RNDN);
    dec(e, eps, MPFR_RNDN);
    mpfr_sub(t, p, e, MPFR_RNDN);
    mpfr_sub_ui(u, a, 1, MPFR_RNDN);
    if (bbghs) {
        mpfr_t v;
        mpfr_init2(v, W);
        mpfr_ui_div(v, 1, a, MPFR_RNDN);
        mpfr_neg(v, v, MPFR_RNDN);
        mpfr_log1p(v, v, MPFR_RNDN);
        mpfr_add(t, t, v, MPFR_RNDN);
        mpfr_mul(t, t, u, MPFR_RNDN);
        mpfr_log(v, a, MPFR_RNDN);
        mpfr_sub(t, t, v, MPFR_RNDN);
        /* min with log √(1 − e^{−ρ}) = ½·log1p(−e^{−ρ}) (−inf at ρ = 0) */
        mpfr_neg(v, p, MPFR_RNDN);
        mpfr_exp(v, v, MPFR_RNDN);
        mpfr_neg(v, v, MPFR_RNDN);
        mpfr_log1p(v, v, MPFR_RNDN);
        mpfr_div_2ui(v, v, 1, MPFR_RNDN);
        mpfr_min(t, t, v, MPFR_RNDN);
        mpfr_clear(v);
    } else {
        mpfr_mul(t, t, u, MPFR_RNDN);
    }
    if (mpfr_sgn(t) > 0)
        mpfr_set_zero(t, 1);
    mpfr_set(out, t, MPFR_RNDN);
    mpfr_clears(a, p, e, t, u, (mpfr_ptr)0);
}

Test(vectors, rdp_to_eps_matches_the_closed_forms)
{
    csv c;
    csv_load(&c, "rdp_to_eps.csv");
    mpfr_t ref;
    mpfr_init2(ref, W);
    for (size_t r = 0; r < c.nrows; r++) {
        char what[200];
        row_what(what, sizeof what, &c, r, 4);
        closed_eps(ref, strcmp(get(&c, r, "conversion"), "bbghs") == 0, get(&c, r, "alpha"),
                   get(&c, r, "rdp"), get(&c, r, "delta"));
        check_plain(&c, r, "eps", ref, NULL, what);
    }
    mpfr_clear(ref);
    csv_free(&c);
}

Test(vectors, rdp_to_delta_matches_the_closed_forms)
{
    csv c;
    csv_load(&c, "rdp_to_delta.csv");
    mpfr_t ref;
    mpfr_init2(ref, W);
    for (size_t r = 0; r < c.nrows; r++) {
        char what[200];
        row_what(what, sizeof what, &c, r, 4);
        closed_log_delta(ref, strcmp(get(&c, r, "conversion"), "bbghs") == 0, get(&c, r, "alpha"),
                         get(&c, r, "rdp"), get(&c, r, "eps"));
        if (mpfr_inf_p(ref)) {
            /* δ = 0 exactly (ρ = 0, bbghs) */
            cr_assert_str_eq(get(&c, r, "delta_lo"), "0", "%s", what);
            cr_assert_str_eq(get(&c, r, "delta_hi"), "0", "%s", what);
            continue;
        }
        check_by_log(&c, r, "delta", ref, what);
        check_plain(&c, r, "log_delta", ref, NULL, what);
    }
    mpfr_clear(ref);
    csv_free(&c);
}

Test(vectors, sgm_rdp_matches_quadrature_and_the_gaussian_at_q_1)
{
    csv c;
    csv_load(&c, "sgm_rdp.csv");
    size_t quad = 0, exact = 0;
    for (size_t r = 0; r < c.nrows; r++) {
        char what[200];
        row_what(what, sizeof what, &c, r, 3);
        const char *q = get(&c, r, "q"), *s = get(&c, r, "sigma"), *a = get(&c, r, "alpha");
        if (strcmp(q, "1") == 0) {
            /* the Gaussian: ρ(α) = α/(2σ²) (Mironov 2017, Prop. 7) */
            mpfr_t ref, t;
            mpfr_inits2(W, ref, t, (mpfr_ptr)0);
            dec(ref, a, MPFR_RNDN);
            dec(t, s, MPFR_RNDN);
            mpfr_sqr(t, t, MPFR_RNDN);
            mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
            mpfr_div(ref, ref, t, MPFR_RNDN);
            check_plain(&c, r, "rdp", ref, NULL, what);
            mpfr_clears(ref, t, (mpfr_ptr)0);
            exact++;
            continue;
        }
        /* a sample: one order per (q, sigma) pair, rotating through the 11 orders */
        if (r % 11 != (r / 11) % 11)
            continue;
        mpfr_t ref, qerr, tol;
        mpfr_inits2(RENYI_ORACLE_BITS, ref, qerr, tol, (mpfr_ptr)0);
        renyi_oracle_sgm_rdp(ref, qerr, q, s, a);
        mpfr_abs(tol, ref, MPFR_RNDN);
        mpfr_mul_2si(tol, tol, -200, MPFR_RNDN);
        cr_assert(mpfr_lessequal_p(qerr, tol), "%s: quadrature not converged", what);
        mpfr_mul_2ui(qerr, qerr, 2, MPFR_RNDN);
        mpfr_t refw, errw;
        mpfr_inits2(W, refw, errw, (mpfr_ptr)0);
        mpfr_set(refw, ref, MPFR_RNDN);
        mpfr_set(errw, qerr, MPFR_RNDU);
        check_plain(&c, r, "rdp", refw, errw, what);
        /* the double, when the quadrature is far enough from a rounding boundary */
        mpfr_t up, down;
        mpfr_inits2(W, up, down, (mpfr_ptr)0);
        mpfr_add(up, refw, errw, MPFR_RNDU);
        mpfr_sub(down, refw, errw, MPFR_RNDD);
        if (same_double(to_double(up), to_double(down)))
            check_double(&c, r, "rdp", to_double(refw), true, true, what);
        mpfr_clears(up, down, refw, errw, (mpfr_ptr)0);
        mpfr_clears(ref, qerr, tol, (mpfr_ptr)0);
        quad++;
    }
    cr_assert(quad >= 30 && exact >= 60, "quadrature %zu, exact %zu", quad, exact);
    csv_free(&c);
}

/* One step of the Poisson-subsampled Gaussian (rate q, ratio r), δ(ε) as the
 * larger of the two adjacency directions (pld.h), in closed form.  The loss
 * is monotone in x, so {L > ε} is a half-line:
 *   REMOVE: P = (1−q)N(0,1) + qN(r,1), Q = N(0,1), L = log(1−q+q·e^{rx−r²/2})
 *           increasing; x* = (log((e^ε − 1 + q)/q) + r²/2)/r,
 *           δ = (1−q)Q(x*) + q·Q(x*−r) − e^ε·Q(x*);
 *   ADD:    P = N(0,1), Q = (1−q)N(0,1) + qN(r,1), L = −log(1−q+q·e^{rx−r²/2})
 *           decreasing; when e^{−ε} > 1 − q, x' = (log((e^{−ε} − 1 + q)/q) + r²/2)/r,
 *           δ = Φ(x') − e^ε·((1−q)Φ(x') + q·Φ(x'−r)), else 0;
 * Q from the oracle (Φ(x) = Q(−x)). */
static void q_of(mpfr_ptr out, mpfr_srcptr x)
{
    mpfr_t t;
    mpfr_init2(t, W);
    oracle_log_q(t, x);
    mpfr_exp(out, t, MPFR_RNDN);
    mpfr_clear(t);
}

static void subsampled_one_step(mpfr_ptr out, const char *r_s, const char *q_s, const char *eps_s)
{
    mpfr_t r, q, e, ee, x, t, u, rem, add;
    mpfr_inits2(W, r, q, e, ee, x, t, u, rem, add, (mpfr_ptr)0);
    dec(r, r_s, MPFR_RNDN);
    dec(q, q_s, MPFR_RNDN);
    dec(e, eps_s, MPFR_RNDN);
    mpfr_exp(ee, e, MPFR_RNDN);
    /* REMOVE */
    mpfr_sub_ui(x, ee, 1, MPFR_RNDN);
    mpfr_add(x, x, q, MPFR_RNDN);
    mpfr_div(x, x, q, MPFR_RNDN);
    mpfr_log(x, x, MPFR_RNDN);
    mpfr_sqr(t, r, MPFR_RNDN);
    mpfr_div_2ui(t, t, 1, MPFR_RNDN);
    mpfr_add(x, x, t, MPFR_RNDN);
    mpfr_div(x, x, r, MPFR_RNDN);
    q_of(t, x);
    mpfr_ui_sub(u, 1, q, MPFR_RNDN);
    mpfr_sub(u, u, ee, MPFR_RNDN);
    mpfr_mul(rem, u, t, MPFR_RNDN); /* (1 − q − e^ε)·Q(x*) */
    mpfr_sub(t, x, r, MPFR_RNDN);
    q_of(t, t);
    mpfr_mul(t, t, q, MPFR_RNDN);
    mpfr_add(rem, rem, t, MPFR_RNDN);
    /* ADD */
    mpfr_set_zero(add, 1);
    mpfr_neg(t, e, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN); /* e^{−ε} */
    mpfr_ui_sub(u, 1, q, MPFR_RNDN);
    if (mpfr_greater_p(t, u)) {
        mpfr_sub(x, t, u, MPFR_RNDN);
        mpfr_div(x, x, q, MPFR_RNDN);
        mpfr_log(x, x, MPFR_RNDN);
        mpfr_sqr(t, r, MPFR_RNDN);
        mpfr_div_2ui(t, t, 1, MPFR_RNDN);
        mpfr_add(x, x, t, MPFR_RNDN);
        mpfr_div(x, x, r, MPFR_RNDN);
        mpfr_neg(t, x, MPFR_RNDN);
        q_of(t, t); /* Φ(x') */
        mpfr_ui_sub(u, 1, q, MPFR_RNDN);
        mpfr_mul(u, u, ee, MPFR_RNDN);
        mpfr_ui_sub(u, 1, u, MPFR_RNDN);
        mpfr_mul(add, t, u, MPFR_RNDN); /* (1 − e^ε(1−q))·Φ(x') */
        mpfr_sub(t, r, x, MPFR_RNDN);
        q_of(t, t); /* Φ(x' − r) */
        mpfr_mul(t, t, q, MPFR_RNDN);
        mpfr_mul(t, t, ee, MPFR_RNDN);
        mpfr_sub(add, add, t, MPFR_RNDN);
    }
    mpfr_max(out, rem, add, MPFR_RNDN);
    mpfr_clears(r, q, e, ee, x, t, u, rem, add, (mpfr_ptr)0);
}

Test(vectors, pld_brackets_contain_the_exact_delta)
{
    csv c;
    csv_load(&c, "pld.csv");
    size_t checked = 0;
    mpfr_t ref, rt, e, L;
    mpfr_inits2(W, ref, rt, e, L, (mpfr_ptr)0);
    for (size_t r = 0; r < c.nrows; r++) {
        char what[200];
        row_what(what, sizeof what, &c, r, 5);
        const char *q = get(&c, r, "q");
        unsigned long steps = strtoul(get(&c, r, "steps"), NULL, 10);
        if (strcmp(q, "1") == 0) {
            /* T-fold Gaussian composition is Gaussian: δ = θ_{e^ε}(r√T) */
            dec(rt, get(&c, r, "r"), MPFR_RNDN);
            mpfr_mul_ui(rt, rt, steps, MPFR_RNDN);
            mpfr_mul(rt, rt, rt, MPFR_RNDN);
            mpfr_div_ui(rt, rt, steps, MPFR_RNDN);
            mpfr_sqrt(rt, rt, MPFR_RNDN);
            dec(e, get(&c, r, "eps"), MPFR_RNDN);
            oracle_log_theta(L, e, rt);
            mpfr_exp(ref, L, MPFR_RNDN);
        } else if (steps == 1) {
            subsampled_one_step(ref, get(&c, r, "r"), q, get(&c, r, "eps"));
        } else {
            continue; /* no closed form */
        }
        cr_assert(contains(ref, get(&c, r, "delta_lo"), get(&c, r, "delta_hi"), NULL),
                  "%s: bracket [%s, %s] misses %s", what, get(&c, r, "delta_lo"),
                  get(&c, r, "delta_hi"), show(ref));
        checked++;
    }
    cr_assert(checked >= 4);
    mpfr_clears(ref, rt, e, L, (mpfr_ptr)0);
    csv_free(&c);
}

/* ---- Langevin: min over α by scan and golden section ----------------------------------------- */

#define LB 256

/* The strongly convex ε_DP of docs/langevin.md, "Strongly convex closed form" with η = 1/L, T = ∞:
 *   f(α) = e^{−K·R/α}·α·G/σ² + B/(α−1),  G = 4S²M²/(m n²), R = m/L, B = log(1/δ). */
typedef struct {
    mpfr_t G, R, B;
} lv;

static void lv_init(lv *p, const csv *c, size_t row)
{
    mpfr_inits2(LB, p->G, p->R, p->B, (mpfr_ptr)0);
    mpfr_t n, m, L, M, t;
    mpfr_inits2(LB, n, m, L, M, t, (mpfr_ptr)0);
    dec(n, get(c, row, "n"), MPFR_RNDN);
    dec(m, get(c, row, "m"), MPFR_RNDN);
    dec(L, get(c, row, "L"), MPFR_RNDN);
    dec(M, get(c, row, "M"), MPFR_RNDN);
    cr_assert_str_eq(get(c, row, "eta"), "1/L");
    cr_assert_str_eq(get(c, row, "T"), "inf");
    mpfr_set_ui(t, strtoul(get(c, row, "S"), NULL, 10), MPFR_RNDN);
    mpfr_mul(t, t, M, MPFR_RNDN);
    mpfr_div(t, t, n, MPFR_RNDN);
    mpfr_sqr(t, t, MPFR_RNDN);
    mpfr_mul_2ui(t, t, 2, MPFR_RNDN);
    mpfr_div(p->G, t, m, MPFR_RNDN);
    mpfr_div(p->R, m, L, MPFR_RNDN);
    dec(t, get(c, row, "delta"), MPFR_RNDN);
    mpfr_log(t, t, MPFR_RNDN);
    mpfr_neg(p->B, t, MPFR_RNDN);
    mpfr_clears(n, m, L, M, t, (mpfr_ptr)0);
}

static void lv_clear(lv *p)
{
    mpfr_clears(p->G, p->R, p->B, (mpfr_ptr)0);
}

typedef void (*objective_fn)(mpfr_ptr out, mpfr_srcptr alpha, const void *ctx);

/* min over α in (lo_alpha, ∞) of a function that is +∞-like at both ends:
 * a scan of α = lo_alpha + lo_alpha·10^t, t from −12 to 12 by 0.05, then
 * golden section between the scan's neighbours of its least point. */
static void minimise(mpfr_ptr best, objective_fn f, const void *ctx, mpfr_srcptr lo_alpha)
{
    mpfr_t a, fa, x0, x1, x2, x3, f1, f2, gr, t;
    mpfr_inits2(LB, a, fa, x0, x1, x2, x3, f1, f2, gr, t, (mpfr_ptr)0);
    double tbest = 0;
    bool have = false;
    for (int k = -240; k <= 240; k++) {
        mpfr_set_d(t, k * 0.05, MPFR_RNDN);
        mpfr_exp10(t, t, MPFR_RNDN);
        mpfr_mul(t, t, lo_alpha, MPFR_RNDN);
        mpfr_add(a, lo_alpha, t, MPFR_RNDN);
        f(fa, a, ctx);
        if (!have || mpfr_less_p(fa, best)) {
            mpfr_set(best, fa, MPFR_RNDN);
            tbest = k * 0.05;
            have = true;
        }
    }
    /* bracket [t−0.05, t+0.05] in t, golden section in α */
    mpfr_set_d(t, tbest - 0.05, MPFR_RNDN);
    mpfr_exp10(t, t, MPFR_RNDN);
    mpfr_mul(t, t, lo_alpha, MPFR_RNDN);
    mpfr_add(x0, lo_alpha, t, MPFR_RNDN);
    mpfr_set_d(t, tbest + 0.05, MPFR_RNDN);
    mpfr_exp10(t, t, MPFR_RNDN);
    mpfr_mul(t, t, lo_alpha, MPFR_RNDN);
    mpfr_add(x3, lo_alpha, t, MPFR_RNDN);
    mpfr_sqrt_ui(gr, 5, MPFR_RNDN);
    mpfr_sub_ui(gr, gr, 1, MPFR_RNDN);
    mpfr_div_2ui(gr, gr, 1, MPFR_RNDN); /* 0.618… */
    for (int it = 0; it < 400; it++) {
        mpfr_sub(t, x3, x0, MPFR_RNDN);
        mpfr_mul(t, t, gr, MPFR_RNDN);
        mpfr_sub(x1, x3, t, MPFR_RNDN);
        mpfr_add(x2, x0, t, MPFR_RNDN);
        f(f1, x1, ctx);
        f(f2, x2, ctx);
        if (mpfr_less_p(f1, best))
            mpfr_set(best, f1, MPFR_RNDN);
        if (mpfr_less_p(f2, best))
            mpfr_set(best, f2, MPFR_RNDN);
        if (mpfr_less_p(f1, f2))
            mpfr_set(x3, x2, MPFR_RNDN);
        else
            mpfr_set(x0, x1, MPFR_RNDN);
    }
    mpfr_clears(a, fa, x0, x1, x2, x3, f1, f2, gr, t, (mpfr_ptr)0);
}

/* σ*² = min over α > 1 + B/ε of e^{−KR/α}·α·G/(ε − B/(α−1)): the σ at which
 * f(α) = ε, for each α, minimised. */
typedef struct {
    const lv *p;
    unsigned long K;
    mpfr_t eps;
} sig_ctx;

static void sigma2_at(mpfr_ptr out, mpfr_srcptr a, const void *vctx)
{
    const sig_ctx *c = vctx;
    mpfr_t t, u;
    mpfr_inits2(LB, t, u, (mpfr_ptr)0);
    mpfr_sub_ui(t, a, 1, MPFR_RNDN);
    mpfr_div(t, c->p->B, t, MPFR_RNDN);
    mpfr_sub(t, c->eps, t, MPFR_RNDN); /* ε − B/(α−1) > 0 */
    mpfr_mul_ui(u, c->p->R, c->K, MPFR_RNDN);
    mpfr_div(u, u, a, MPFR_RNDN);
    mpfr_neg(u, u, MPFR_RNDN);
    mpfr_exp(u, u, MPFR_RNDN);
    mpfr_mul(u, u, a, MPFR_RNDN);
    mpfr_mul(u, u, c->p->G, MPFR_RNDN);
    mpfr_div(out, u, t, MPFR_RNDN);
    mpfr_clears(t, u, (mpfr_ptr)0);
}

Test(vectors, langevin_sigma_contains_the_minimum_over_alpha)
{
    csv c;
    csv_load(&c, "langevin_sigma.csv");
    for (size_t r = 0; r < c.nrows; r++) {
        char what[300];
        row_what(what, sizeof what, &c, r, 10);
        lv p;
        lv_init(&p, &c, r);
        sig_ctx s;
        s.p = &p;
        s.K = strtoul(get(&c, r, "K"), NULL, 10);
        mpfr_init2(s.eps, LB);
        dec(s.eps, get(&c, r, "eps"), MPFR_RNDN);
        mpfr_t a0, best;
        mpfr_inits2(LB, a0, best, (mpfr_ptr)0);
        mpfr_div(a0, p.B, s.eps, MPFR_RNDN);
        mpfr_add_ui(a0, a0, 1, MPFR_RNDN); /* α must exceed 1 + B/ε */
        minimise(best, sigma2_at, &s, a0);
        mpfr_sqrt(best, best, MPFR_RNDN);
        /* the found σ is ≥ σ* and within the golden section's 2^-200 or so */
        mpfr_t extra, w;
        mpfr_inits2(W, extra, w, (mpfr_ptr)0);
        mpfr_set(w, best, MPFR_RNDN);
        mpfr_mul_2si(extra, w, -160, MPFR_RNDU);
        check_plain(&c, r, "sigma", w, extra, what);
        mpfr_clears(extra, w, a0, best, s.eps, (mpfr_ptr)0);
        lv_clear(&p);
    }
    csv_free(&c);
}

typedef struct {
    const lv *p;
    unsigned long K;
    mpfr_t inv_s2; /* 1/σ² */
} eps_ctx;

static void eps_dp_at(mpfr_ptr out, mpfr_srcptr a, const void *vctx)
{
    const eps_ctx *c = vctx;
    mpfr_t t, u;
    mpfr_inits2(LB, t, u, (mpfr_ptr)0);
    mpfr_mul_ui(u, c->p->R, c->K, MPFR_RNDN);
    mpfr_div(u, u, a, MPFR_RNDN);
    mpfr_neg(u, u, MPFR_RNDN);
    mpfr_exp(u, u, MPFR_RNDN);
    mpfr_mul(u, u, a, MPFR_RNDN);
    mpfr_mul(u, u, c->p->G, MPFR_RNDN);
    mpfr_mul(u, u, c->inv_s2, MPFR_RNDN);
    mpfr_sub_ui(t, a, 1, MPFR_RNDN);
    mpfr_div(t, c->p->B, t, MPFR_RNDN);
    mpfr_add(out, u, t, MPFR_RNDN);
    mpfr_clears(t, u, (mpfr_ptr)0);
}

Test(vectors, langevin_k_reaches_eps_and_k_minus_1_does_not)
{
    csv c;
    csv_load(&c, "langevin_k.csv");
    mpfr_t one, best, target, slack2;
    mpfr_inits2(LB, one, best, target, slack2, (mpfr_ptr)0);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    for (size_t r = 0; r < c.nrows; r++) {
        char what[300];
        row_what(what, sizeof what, &c, r, 10);
        lv p;
        lv_init(&p, &c, r);
        eps_ctx e;
        e.p = &p;
        mpfr_init2(e.inv_s2, LB);
        dec(e.inv_s2, get(&c, r, "sigma"), MPFR_RNDN);
        mpfr_sqr(e.inv_s2, e.inv_s2, MPFR_RNDN);
        mpfr_ui_div(e.inv_s2, 1, e.inv_s2, MPFR_RNDN);
        dec(target, get(&c, r, "eps"), MPFR_RNDN);
        unsigned long K = strtoul(get(&c, r, "K"), NULL, 10);
        e.K = K;
        minimise(best, eps_dp_at, &e, one);
        cr_assert(mpfr_lessequal_p(best, target), "%s: eps_DP(K) > eps", what);
        if (K > 0) {
            e.K = K - 1;
            minimise(best, eps_dp_at, &e, one);
            mpfr_mul_2si(slack2, target, -160, MPFR_RNDN);
            mpfr_sub(best, best, slack2, MPFR_RNDN);
            cr_assert(mpfr_greater_p(best, target), "%s: K - 1 already reaches eps", what);
        }
        mpfr_clear(e.inv_s2);
        lv_clear(&p);
    }
    mpfr_clears(one, best, target, slack2, (mpfr_ptr)0);
    csv_free(&c);
}

/* ---- Noisy-GD: the closed forms ----------------------------------------------------------- */

/* G.15's constant C and rate a: bound(K) = C·e^{−aK}, per form, for sigma. */
static void g15(mpfr_ptr C, mpfr_ptr a, bool tight, const char *q, const char *L,
                const char *lambda, const char *eta, const char *n, mpfr_srcptr sigma2)
{
    mpfr_t tq, tl, tk, te, tn, h;
    mpfr_inits2(W, tq, tl, tk, te, tn, h, (mpfr_ptr)0);
    dec(tq, q, MPFR_RNDN);
    dec(tl, L, MPFR_RNDN);
    dec(tk, lambda, MPFR_RNDN);
    dec(te, eta, MPFR_RNDN);
    dec(tn, n, MPFR_RNDN);
    mpfr_sqr(tl, tl, MPFR_RNDN);
    mpfr_mul(C, tq, tl, MPFR_RNDN); /* qL² */
    mpfr_sqr(tn, tn, MPFR_RNDN);
    mpfr_mul(tn, tn, tk, MPFR_RNDN);
    mpfr_mul(tn, tn, sigma2, MPFR_RNDN); /* λσ²n² */
    mpfr_div(C, C, tn, MPFR_RNDN);
    mpfr_mul(h, te, tk, MPFR_RNDN); /* ηλ */
    if (tight) {
        mpfr_div_2ui(tq, h, 1, MPFR_RNDN);
        mpfr_ui_sub(tq, 1, tq, MPFR_RNDN); /* 1 − ηλ/2 */
        mpfr_mul_2ui(C, C, 1, MPFR_RNDN);
        mpfr_div(C, C, tq, MPFR_RNDN);
        mpfr_mul(a, h, tq, MPFR_RNDN);
    } else {
        mpfr_mul_2ui(C, C, 2, MPFR_RNDN);
        mpfr_div_2ui(a, h, 1, MPFR_RNDN);
    }
    mpfr_clears(tq, tl, tk, te, tn, h, (mpfr_ptr)0);
}

Test(vectors, noisygd_k_is_the_closed_form_threshold)
{
    csv c;
    csv_load(&c, "noisygd_k.csv");
    mpfr_t C, a, s2, e, t;
    mpfr_inits2(W, C, a, s2, e, t, (mpfr_ptr)0);
    for (size_t r = 0; r < c.nrows; r++) {
        char what[300];
        row_what(what, sizeof what, &c, r, 9);
        dec(s2, get(&c, r, "sigma"), MPFR_RNDN);
        mpfr_sqr(s2, s2, MPFR_RNDN);
        g15(C, a, strcmp(get(&c, r, "form"), "tight") == 0, get(&c, r, "q"), get(&c, r, "L"),
            get(&c, r, "lambda"), get(&c, r, "eta"), get(&c, r, "n"), s2);
        dec(e, get(&c, r, "eps_dd"), MPFR_RNDN);
        /* least K with C·e^{−aK} ≤ ε: 0 when C ≤ ε, else ⌈log(C/ε)/a⌉ */
        unsigned long k_ref = 0;
        if (mpfr_greater_p(C, e)) {
            mpfr_div(t, C, e, MPFR_RNDN);
            mpfr_log(t, t, MPFR_RNDN);
            mpfr_div(t, t, a, MPFR_RNDN);
            mpfr_ceil(t, t);
            k_ref = mpfr_get_ui(t, MPFR_RNDN);
        }
        unsigned long k = strtoul(get(&c, r, "KAbar"), NULL, 10);
        cr_assert_eq(k, k_ref, "%s: K_Abar %lu, the closed form gives %lu", what, k, k_ref);
        mpfr_mul_ui(t, a, k, MPFR_RNDN);
        mpfr_neg(t, t, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_mul(t, t, C, MPFR_RNDN);
        check_plain(&c, r, "eps_at_KAbar", t, NULL, what);
    }
    mpfr_clears(C, a, s2, e, t, (mpfr_ptr)0);
    csv_free(&c);
}

Test(vectors, noisygd_sigma_is_the_closed_form)
{
    csv c;
    csv_load(&c, "noisygd_sigma.csv");
    mpfr_t s2, t, u, C, a;
    mpfr_inits2(W, s2, t, u, C, a, (mpfr_ptr)0);
    for (size_t r = 0; r < c.nrows; r++) {
        char what[300];
        row_what(what, sizeof what, &c, r, 10);
        const char *kind = get(&c, r, "kind"), *steps = get(&c, r, "steps");
        dec(u, get(&c, r, "eps"), MPFR_RNDN);
        mpfr_t q, L, n, eta;
        mpfr_inits2(W, q, L, n, eta, (mpfr_ptr)0);
        dec(q, get(&c, r, "q"), MPFR_RNDN);
        dec(L, get(&c, r, "L"), MPFR_RNDN);
        dec(n, get(&c, r, "n"), MPFR_RNDN);
        dec(eta, get(&c, r, "eta"), MPFR_RNDN);
        if (strcmp(kind, "g7") == 0) {
            /* q·L²·η·K/(σ²n²) = ε  ⇒  σ² = qL²ηK/(εn²) */
            mpfr_sqr(t, L, MPFR_RNDN);
            mpfr_mul(t, t, q, MPFR_RNDN);
            mpfr_mul(t, t, eta, MPFR_RNDN);
            mpfr_mul_ui(t, t, strtoul(steps, NULL, 10), MPFR_RNDN);
            mpfr_div(t, t, u, MPFR_RNDN);
            mpfr_div(t, t, n, MPFR_RNDN);
            mpfr_div(s2, t, n, MPFR_RNDN);
        } else if (strcmp(kind, "g9") == 0) {
            /* 4qL²/(λσ²n²)·(1 − e^{−ληK/2}) = ε */
            mpfr_t lam;
            mpfr_init2(lam, W);
            dec(lam, get(&c, r, "lambda"), MPFR_RNDN);
            mpfr_sqr(t, L, MPFR_RNDN);
            mpfr_mul(t, t, q, MPFR_RNDN);
            mpfr_mul_2ui(t, t, 2, MPFR_RNDN);
            mpfr_div(t, t, lam, MPFR_RNDN);
            mpfr_div(t, t, u, MPFR_RNDN);
            mpfr_div(t, t, n, MPFR_RNDN);
            mpfr_div(t, t, n, MPFR_RNDN);
            if (strcmp(steps, "none") != 0) {
                mpfr_mul(a, lam, eta, MPFR_RNDN);
                mpfr_mul_ui(a, a, strtoul(steps, NULL, 10), MPFR_RNDN);
                mpfr_div_2ui(a, a, 1, MPFR_RNDN);
                mpfr_neg(a, a, MPFR_RNDN);
                mpfr_expm1(a, a, MPFR_RNDN);
                mpfr_neg(a, a, MPFR_RNDN);
                mpfr_mul(t, t, a, MPFR_RNDN);
            }
            mpfr_set(s2, t, MPFR_RNDN);
            mpfr_clear(lam);
        } else {
            /* G.15 at σ = 1 gives C(1)·e^{−aK}; the bound scales as 1/σ² */
            mpfr_set_ui(t, 1, MPFR_RNDN);
            g15(C, a, strcmp(get(&c, r, "form"), "tight") == 0, get(&c, r, "q"), get(&c, r, "L"),
                get(&c, r, "lambda"), get(&c, r, "eta"), get(&c, r, "n"), t);
            mpfr_mul_ui(a, a, strtoul(steps, NULL, 10), MPFR_RNDN);
            mpfr_neg(a, a, MPFR_RNDN);
            mpfr_exp(a, a, MPFR_RNDN);
            mpfr_mul(t, C, a, MPFR_RNDN);
            mpfr_div(s2, t, u, MPFR_RNDN);
        }
        mpfr_sqrt(s2, s2, MPFR_RNDN);
        check_plain(&c, r, "sigma", s2, NULL, what);
        mpfr_clears(q, L, n, eta, (mpfr_ptr)0);
    }
    mpfr_clears(s2, t, u, C, a, (mpfr_ptr)0);
    csv_free(&c);
}
