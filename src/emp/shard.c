/* src/emp/shard.c — per-chunk score records and their files (emp/shard.h). */
#include "emp/shard.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/file.h"
#include "io/escape.h"

#define SUM SHA256_DIGEST_SIZE
#define REC_HEAD 16 /* u64 chunk number, u64 kind */

/* ---- the log ------------------------------------------------------------------------ */

ul_status ul_shard_log_init(ul_shard_log *log, size_t p, size_t runs, size_t chunk, int scores,
                            bool save_models, char *err, size_t errlen)
{
    memset(log, 0, sizeof *log);
    if (!p || !runs || !chunk)
        return ul_fail(err, errlen, UL_EINPUT, "attack: no parameters, runs or chunk");
    if ((scores & UL_SCORE_LR) && runs < 4)
        return ul_fail(err, errlen, UL_EINPUT,
                       "gaussian-lr score: needs >= 4 models per world (half fit, half test)");
    *log = (ul_shard_log){.p = p,
                          .runs = runs,
                          .chunk = chunk,
                          .nchunks = (runs + chunk - 1) / chunk,
                          .half = runs / 2,
                          .scores = scores,
                          .save_models = save_models};
    log->rec = calloc(log->nchunks, sizeof *log->rec);
    if (!log->rec) /* runs / chunk records: the input's size (policy: num/status.h) */
        return ul_fail(err, errlen, UL_ENOMEM, "attack: out of memory for %zu chunk records",
                       log->nchunks);
    return UL_OK;
}

static void rec_free(ul_shard_rec *r)
{
    free(r->loss), free(r->mom), free(r->test), free(r->models);
    memset(r, 0, sizeof *r);
}

void ul_shard_log_free(ul_shard_log *log)
{
    if (!log)
        return;
    for (size_t c = 0; log->rec && c < log->nchunks; c++)
        rec_free(&log->rec[c]);
    free(log->rec);
    if (log->has_fit)
        ul_score_lr_free(&log->fit);
    memset(log, 0, sizeof *log);
}

void ul_shard_chunk(const ul_shard_log *log, size_t c, size_t *run0, size_t *M, size_t *n_fit)
{
    size_t a = c * log->chunk, b = log->runs - a > log->chunk ? a + log->chunk : log->runs;
    size_t h = log->half;
    *run0 = a, *M = b - a;
    *n_fit = b <= h ? b - a : a >= h ? 0 : h - a;
}

void ul_shard_slice(size_t nchunks, size_t i, size_t k, size_t *c0, size_t *c1)
{
    /* ⌊i·n/k⌋ without overflow for the sizes allowed (n ≤ 10^6, k ≤ n) */
    *c0 = (size_t)((unsigned long long)i * nchunks / k);
    *c1 = (size_t)((unsigned long long)(i + 1) * nchunks / k);
}

/* The sizes (doubles) of chunk c's arrays for a record of this kind. */
typedef struct {
    size_t loss, mom, test, models;
} rec_sizes;

static rec_sizes sizes(const ul_shard_log *log, size_t c, uint64_t kind)
{
    size_t run0, M, nf;
    ul_shard_chunk(log, c, &run0, &M, &nf);
    bool lr = (log->scores & UL_SCORE_LR) != 0;
    size_t nt = M - nf;
    return (rec_sizes){
        .loss = (log->scores & UL_SCORE_LOSS) ? 2 * M : 0,
        .mom = lr && nf ? 4 * log->p : 0,
        .test = lr && nt ? (kind == UL_REC_MODELS ? 2 * log->p * nt : 2 * nt) : 0,
        .models = log->save_models ? 2 * log->p * M : 0,
    };
}

static size_t total(rec_sizes z)
{
    return z.loss + z.mom + z.test + z.models;
}

/* Mean and sum of squared deviations of the n columns of W (p each), run
 * by run: Welford (1962), m_j = m_{j−1} + (w_j − m_{j−1})/j,
 * S_j = S_{j−1} + (w_j − m_{j−1})(w_j − m_j). */
static void welford(const double *W, size_t p, size_t n, double *mean, double *ssd)
{
    memset(mean, 0, p * sizeof *mean);
    memset(ssd, 0, p * sizeof *ssd);
    for (size_t j = 0; j < n; j++) {
        const double *w = W + j * p;
        for (size_t q = 0; q < p; q++) {
            double dl = w[q] - mean[q];
            mean[q] += dl / (double)(j + 1);
            ssd[q] += dl * (w[q] - mean[q]);
        }
    }
}

/* (n_a, m, S) ← the pair combined with (n_b, mb, Sb): Chan, Golub, LeVeque
 * (1979) eq. 2.1 (header). */
static void chan_fold(size_t na, double *m, double *S, size_t nb, const double *mb,
                      const double *Sb, size_t p)
{
    double n = (double)(na + nb);
    for (size_t q = 0; q < p; q++) {
        double dl = mb[q] - m[q];
        m[q] += dl * (double)nb / n;
        S[q] += Sb[q] + dl * dl * (double)na * (double)nb / n;
    }
}

/* The LR fit, once every chunk with fitting runs is present. */
static ul_status try_fit(ul_shard_log *log, char *err, size_t errlen)
{
    if (log->has_fit || !(log->scores & UL_SCORE_LR))
        return UL_OK;
    size_t p = log->p, cf = (log->half + log->chunk - 1) / log->chunk, n = 0;
    for (size_t c = 0; c < cf; c++)
        if (!log->rec[c].present)
            return UL_OK;
    double *acc = malloc(4 * p * sizeof *acc);
    ul_score_lr *lr = &log->fit;
    lr->p = p;
    lr->weight = malloc(p * sizeof *lr->weight);
    lr->mid = malloc(p * sizeof *lr->mid);
    if (!acc || !lr->weight || !lr->mid) {
        free(acc);
        ul_score_lr_free(lr);
        return ul_fail(err, errlen, UL_ENOMEM,
                       "likelihood-ratio score: out of memory for the fit of %zu parameters", p);
    }
    for (size_t c = 0; c < cf; c++) {
        size_t run0, M, nf;
        ul_shard_chunk(log, c, &run0, &M, &nf);
        const double *mo = log->rec[c].mom;
        if (n == 0)
            memcpy(acc, mo, 4 * p * sizeof *acc);
        else
            for (int w = 0; w < 2; w++)
                chan_fold(n, acc + 2 * w * p, acc + (2 * w + 1) * p, nf, mo + 2 * w * p,
                          mo + (2 * w + 1) * p, p);
        n += nf;
    }
    const double *mi = acc, *si = acc + p, *mo = acc + 2 * p, *so = acc + 3 * p;
    /* as emp/score.c: pooled variance (a zero one floored), weight
     * (μ_in − μ_out)/V, midpoint */
    ul_score_lr_set(lr, mi, si, mo, so, 2 * log->half - 2);
    for (size_t q = 0; q < p; q++)
        /* beyond ±UL_SHARD_MAX_VALUE the variance is rounding noise: the
         * coordinate is skipped as when V = 0 (and no score can overflow) */
        if (!(fabs(lr->weight[q]) <= UL_SHARD_MAX_VALUE))
            lr->weight[q] = 0.0;
    free(acc);
    log->has_fit = true;
    return UL_OK;
}

static double *alloc_n(size_t n, bool *ok)
{
    if (!n)
        return NULL;
    double *p = malloc(n * sizeof *p);
    *ok = *ok && p;
    return p;
}

/* Every number of a record is finite and within ±UL_SHARD_MAX_VALUE (so
 * that the fit and the scores computed from records cannot overflow, even
 * from a crafted file whose digests were recomputed), and the sums of
 * squared deviations are >= 0.  A run that produced anything else (a
 * diverging learner) is refused when it is recorded, so a checkpoint holds
 * only what a reader accepts.  NULL when the values are sound. */
static const char *rec_values_bad(const ul_shard_rec *rec, const rec_sizes *z, size_t c,
                                  int *part, char *why, size_t whylen)
{
    const double *parts[4] = {rec->loss, rec->mom, rec->test, rec->models};
    size_t lens[4] = {z->loss, z->mom, z->test, z->models}, p = z->mom / 4;
    for (int i = 0; i < 4; i++)
        for (size_t k = 0; k < lens[i]; k++) {
            double v = parts[i][k];
            /* mom = mean IN, S IN, mean OUT, S OUT (p each): S >= 0 */
            bool neg_ssd = i == 1 && (k / p) % 2 == 1 && v < 0;
            if (!(fabs(v) <= UL_SHARD_MAX_VALUE) || neg_ssd) {
                snprintf(why, whylen, "the record of chunk %zu holds %s (value %zu of its %s)", c,
                         neg_ssd ? "a negative sum of squares"
                                 : "a value that is not finite or beyond 1e100 (diverged?)",
                         k,
                         i == 0 ? "loss scores" : i == 1 ? "moments" : i == 2 ? "test part"
                                                                            : "models");
                *part = i;
                return why;
            }
        }
    return NULL;
}

/* Chunk c's new record through rec_values_bad; removed when it fails. */
static ul_status checked(ul_shard_log *log, size_t c, char *err, size_t errlen)
{
    char why[256];
    rec_sizes z = sizes(log, c, log->rec[c].kind);
    int part = -1;
    const char *bad = rec_values_bad(&log->rec[c], &z, c, &part, why, sizeof why);
    if (!bad)
        return UL_OK;
    rec_free(&log->rec[c]);
    /* a new chunk's test part is scored with the fit of the records before
     * it: when those came from a checkpoint, extreme (but admissible) values
     * there, not this chunk, are the likely cause */
    bool from_fit = log->has_fit && part == 2; /* 2: the test part */
    return ul_fail(err, errlen, UL_EINPUT, "attack: %s%s", bad,
                   from_fit ? "; its likelihood-ratio scores use the fit of the earlier chunks' "
                              "records (from a checkpoint: are they sound?)"
                            : "");
}

ul_status ul_shard_add(ul_shard_log *log, size_t c, const double *W_in, const double *W_out,
                       const ul_model *model, const double *x, size_t d, double y, char *err,
                       size_t errlen)
{
    if (c >= log->nchunks || log->rec[c].present)
        return ul_fail(err, errlen, UL_EINPUT, "attack: chunk %zu out of range or done twice", c);
    if ((log->scores & UL_SCORE_LOSS) && !(model && x))
        return ul_fail(err, errlen, UL_EINPUT, "attack: the loss score needs the target record");
    size_t run0, M, nf, p = log->p;
    ul_shard_chunk(log, c, &run0, &M, &nf);
    ul_shard_rec *r = &log->rec[c];
    rec_sizes z = sizes(log, c, UL_REC_LR);
    bool ok = true;
    r->loss = alloc_n(z.loss, &ok), r->mom = alloc_n(z.mom, &ok), r->models = alloc_n(z.models, &ok);
    if (!ok) {
        rec_free(r);
        return ul_fail(err, errlen, UL_ENOMEM,
                       "attack: out of memory for the record of chunk %zu (%zu values)", c,
                       total(z));
    }
    if (r->loss) {
        ul_score_loss(model, x, d, y, W_in, p, M, r->loss);
        ul_score_loss(model, x, d, y, W_out, p, M, r->loss + M);
    }
    if (r->mom) {
        welford(W_in, p, nf, r->mom, r->mom + p);
        welford(W_out, p, nf, r->mom + 2 * p, r->mom + 3 * p);
    }
    if (r->models) {
        memcpy(r->models, W_in, p * M * sizeof *W_in);
        memcpy(r->models + p * M, W_out, p * M * sizeof *W_out);
    }
    r->present = true;
    ul_status st = try_fit(log, err, errlen);
    size_t nt = M - nf;
    if (st != UL_OK || !(log->scores & UL_SCORE_LR) || nt == 0)
        return st == UL_OK ? checked(log, c, err, errlen) : st;
    r->kind = log->has_fit ? UL_REC_LR : UL_REC_MODELS;
    r->test = alloc_n(sizes(log, c, r->kind).test, &ok);
    if (!ok)
        return ul_fail(err, errlen, UL_ENOMEM,
                       "attack: out of memory for the test part of chunk %zu (%zu values)", c,
                       sizes(log, c, r->kind).test);
    if (r->kind == UL_REC_LR) {
        ul_score_lr_apply(&log->fit, W_in + nf * p, nt, r->test);
        ul_score_lr_apply(&log->fit, W_out + nf * p, nt, r->test + nt);
    } else {
        memcpy(r->test, W_in + nf * p, p * nt * sizeof *W_in);
        memcpy(r->test + p * nt, W_out + nf * p, p * nt * sizeof *W_out);
    }
    return checked(log, c, err, errlen);
}

static ul_status all_present(const ul_shard_log *log, char *err, size_t errlen)
{
    for (size_t c = 0; c < log->nchunks; c++)
        if (!log->rec[c].present) {
            size_t run0, M, nf;
            ul_shard_chunk(log, c, &run0, &M, &nf);
            return ul_fail(err, errlen, UL_EINPUT,
                           "runs %zu..%zu (chunk %zu) are missing: no shard holds them", run0,
                           run0 + M - 1, c);
        }
    return UL_OK;
}

/* Chunk c's LR scores of its test runs into in[], out[] (n_test each). */
static void test_scores(const ul_shard_log *log, size_t c, size_t nt, double *in, double *out)
{
    const ul_shard_rec *r = &log->rec[c];
    if (r->kind == UL_REC_LR) {
        memcpy(in, r->test, nt * sizeof *in);
        memcpy(out, r->test + nt, nt * sizeof *out);
    } else {
        ul_score_lr_apply(&log->fit, r->test, nt, in);
        ul_score_lr_apply(&log->fit, r->test + log->p * nt, nt, out);
    }
}

ul_status ul_shard_scores(ul_shard_log *log, double **loss, double **lr, char *err, size_t errlen)
{
    *loss = *lr = NULL;
    ul_status st = all_present(log, err, errlen);
    if (st == UL_OK)
        st = try_fit(log, err, errlen);
    if (st != UL_OK)
        return st;
    size_t runs = log->runs, nt_all = runs - log->half;
    bool ok = true;
    *loss = alloc_n((log->scores & UL_SCORE_LOSS) ? 2 * runs : 0, &ok);
    *lr = alloc_n((log->scores & UL_SCORE_LR) ? 2 * nt_all : 0, &ok);
    if (!ok) {
        free(*loss), free(*lr);
        *loss = *lr = NULL;
        return ul_fail(err, errlen, UL_ENOMEM, "attack: out of memory for the scores of %zu runs",
                       runs);
    }
    for (size_t c = 0; c < log->nchunks; c++) {
        size_t run0, M, nf;
        ul_shard_chunk(log, c, &run0, &M, &nf);
        if (*loss) {
            memcpy(*loss + run0, log->rec[c].loss, M * sizeof **loss);
            memcpy(*loss + runs + run0, log->rec[c].loss + M, M * sizeof **loss);
        }
        size_t off = run0 + nf - log->half;
        if (*lr && M > nf)
            test_scores(log, c, M - nf, *lr + off, *lr + nt_all + off);
    }
    return UL_OK;
}

double *ul_shard_models(const ul_shard_log *log)
{
    size_t p = log->p, runs = log->runs;
    if (!log->save_models || all_present(log, NULL, 0) != UL_OK)
        return NULL;
    double *W = malloc(2 * p * runs * sizeof *W);
    for (size_t c = 0; W && c < log->nchunks; c++) {
        size_t run0, M, nf;
        ul_shard_chunk(log, c, &run0, &M, &nf);
        memcpy(W + run0 * p, log->rec[c].models, p * M * sizeof *W);
        memcpy(W + (runs + run0) * p, log->rec[c].models + p * M, p * M * sizeof *W);
    }
    return W;
}

/* ---- writing ------------------------------------------------------------------------ */

static bool put(FILE *f, struct sha256_ctx *sha, const void *p, size_t n)
{
    if (n && fwrite(p, 1, n, f) != n)
        return false;
    sha256_update(sha, n, p);
    return true;
}

/* The SHA-256 of every byte so far, written (and hashed in turn). */
static bool put_digest(FILE *f, struct sha256_ctx *sha)
{
    struct sha256_ctx c = *sha;
    uint8_t d[SUM];
    sha256_digest(&c, SUM, d);
    return put(f, sha, d, SUM);
}

static void head_bytes(unsigned char *h, const ul_shard_log *log, const ul_shard_id *id)
{
    uint64_t v[8] = {log->p,      log->runs,         log->chunk, id->target,
                     log->scores, log->save_models, id->c0,     id->c1};
    memcpy(h, UL_SHARD_MAGIC UL_SHARD_VERSION, 8);
    memcpy(h + 8, id->cfg_sha256, 64);
    memcpy(h + 72, id->data_sha256, 32);
    memcpy(h + 104, v, sizeof v);
}

static bool put_head(FILE *f, struct sha256_ctx *sha, const ul_shard_log *log,
                     const ul_shard_id *id)
{
    unsigned char h[UL_SHARD_HEAD];
    head_bytes(h, log, id);
    return put(f, sha, h, sizeof h) && put_digest(f, sha);
}

static bool put_rec(FILE *f, struct sha256_ctx *sha, const ul_shard_log *log, size_t c)
{
    const ul_shard_rec *r = &log->rec[c];
    rec_sizes z = sizes(log, c, r->kind);
    uint64_t h[2] = {c, r->kind};
    return put(f, sha, h, sizeof h) && put(f, sha, r->loss, z.loss * sizeof(double)) &&
           put(f, sha, r->mom, z.mom * sizeof(double)) &&
           put(f, sha, r->test, z.test * sizeof(double)) &&
           put(f, sha, r->models, z.models * sizeof(double)) && put_digest(f, sha);
}

typedef struct {
    const ul_shard_log *log;
    const ul_shard_id *id;
} head_ctx;

static const char *fill_head(FILE *f, void *ctx)
{
    const head_ctx *h = ctx;
    struct sha256_ctx sha;
    sha256_init(&sha);
    return put_head(f, &sha, h->log, h->id) ? NULL : "write failed";
}

ul_status ul_shard_file_create(ul_shard_file *sf, const char *path, const ul_shard_log *log,
                               const ul_shard_id *id, char *err, size_t errlen)
{
    memset(sf, 0, sizeof *sf);
    head_ctx h = {log, id};
    ul_status st = ul_io_write_atomic(path, fill_head, &h, -1, err, errlen);
    if (st != UL_OK)
        return st;
    sf->f = fopen(path, "r+b");
    if (!sf->f)
        return ul_io_escaped(
            ul_fail(err, errlen, UL_EINPUT, "%s: cannot reopen: %s", path, strerror(errno)), err,
            errlen);
    /* the running digest: the same header bytes hashed again, then its digest */
    unsigned char hb[UL_SHARD_HEAD];
    uint8_t d[SUM];
    head_bytes(hb, log, id);
    sha256_init(&sf->sha);
    sha256_update(&sf->sha, sizeof hb, hb);
    struct sha256_ctx c = sf->sha;
    sha256_digest(&c, SUM, d);
    sha256_update(&sf->sha, SUM, d);
    sf->len = UL_SHARD_HEAD + SUM;
    return UL_OK;
}

ul_status ul_shard_file_append(ul_shard_file *sf, const ul_shard_log *log, size_t c, char *err,
                               size_t errlen)
{
    struct sha256_ctx sha = sf->sha;
    bool ok = fseek(sf->f, (long)sf->len, SEEK_SET) == 0 && put_rec(sf->f, &sha, log, c) &&
              fflush(sf->f) == 0 && fsync(fileno(sf->f)) == 0;
    if (!ok)
        return ul_fail(err, errlen, UL_EINPUT, "checkpoint: appending chunk %zu failed: %s", c,
                       strerror(errno));
    sf->sha = sha;
    sf->len += (long long)(REC_HEAD + SUM + total(sizes(log, c, log->rec[c].kind)) * 8);
    return UL_OK;
}

void ul_shard_file_close(ul_shard_file *sf)
{
    if (sf && sf->f)
        fclose(sf->f);
    if (sf)
        memset(sf, 0, sizeof *sf);
}

ul_status ul_shard_serialize(const ul_shard_log *log, const ul_shard_id *id, char **buf,
                             size_t *len, char *err, size_t errlen)
{
    *buf = NULL, *len = 0;
    FILE *f = open_memstream(buf, len);
    if (!f) /* fixed size (a stream's head): nothing of the input's to name */
        return ul_fail(err, errlen, UL_ENOMEM, "attack: out of memory");
    struct sha256_ctx sha;
    sha256_init(&sha);
    bool ok = put_head(f, &sha, log, id), missing = false;
    for (size_t c = id->c0; ok && c < id->c1; c++) {
        missing = !log->rec[c].present;
        ok = !missing && put_rec(f, &sha, log, c);
    }
    /* a memory stream fails to write or close only when it cannot grow:
     * the records' size, the input's (policy: num/status.h) */
    if (fclose(f) != 0 || !ok) {
        free(*buf);
        *buf = NULL;
        return missing ? ul_fail(err, errlen, UL_EINPUT,
                                 "attack: cannot serialise the records: a chunk is missing")
                       : ul_fail(err, errlen, UL_ENOMEM,
                                 "attack: out of memory for the records of chunks [%llu, %llu)",
                                 (unsigned long long)id->c0, (unsigned long long)id->c1);
    }
    return UL_OK;
}

/* ---- reading ------------------------------------------------------------------------ */

typedef struct {
    FILE *f;
    struct sha256_ctx sha;
    long long pos;
    bool nomem; /* the refusal was out of memory (UL_ENOMEM), not the file's fault */
} reader;

/* Reads n bytes (hashed); returns how many were read. */
static size_t get(reader *r, void *p, size_t n)
{
    size_t got = n ? fread(p, 1, n, r->f) : 0;
    sha256_update(&r->sha, got, p);
    r->pos += (long long)got;
    return got;
}

/* Reads the stored digest and compares it with the one of the bytes before. */
static const char *check_digest(reader *r, bool *short_read)
{
    uint8_t want[SUM], got[SUM];
    struct sha256_ctx c = r->sha;
    sha256_digest(&c, SUM, want);
    size_t n = get(r, got, SUM);
    *short_read = n < SUM;
    if (*short_read)
        return NULL;
    return memcmp(want, got, SUM) == 0 ? NULL
                                       : "content checksum mismatch: a SHA-256 digest does not "
                                         "verify (corrupted; start afresh without --resume)";
}

/* The header against this run (log, id); fills rd->c0, c1. */
static const char *read_head(reader *r, const ul_shard_log *log, const ul_shard_id *id,
                             ul_shard_read *rd, char *why, size_t whylen)
{
    unsigned char h[UL_SHARD_HEAD];
    size_t n = get(r, h, sizeof h);
    if (n >= 6 && memcmp(h, UL_SHARD_MAGIC, 6) != 0)
        return "not a ulaudit checkpoint or shard (no ULCKPT magic)";
    if (n >= 8 && memcmp(h + 6, UL_SHARD_VERSION, 2) != 0) {
        char v[16];
        snprintf(why, whylen,
                 "format version %s; this ulaudit reads version " UL_SHARD_VERSION
                 " only (start afresh without --resume)",
                 ul_io_escape(h + 6, 2, v, sizeof v));
        return why;
    }
    bool cut = n < sizeof h;
    const char *bad = cut ? NULL : check_digest(r, &cut);
    if (cut) {
        snprintf(why, whylen, "truncated: %lld bytes, the header alone has %d", r->pos,
                 UL_SHARD_HEAD + SUM);
        return why;
    }
    if (bad)
        return bad;
    if (memcmp(h + 8, id->cfg_sha256, 64) != 0)
        return "written for another configuration (its SHA-256 differs)";
    if (memcmp(h + 72, id->data_sha256, 32) != 0)
        return "written for other data (the SHA-256 of the prepared data set differs: a data "
               "file changed?)";
    uint64_t v[8];
    memcpy(v, h + 104, sizeof v);
    if (v[0] != log->p || v[1] != log->runs || v[2] != log->chunk || v[3] != id->target ||
        v[4] != (uint64_t)log->scores || v[5] != log->save_models || v[6] >= v[7] ||
        v[7] > log->nchunks || (id->c1 && (v[6] != id->c0 || v[7] != id->c1))) {
        snprintf(why, whylen,
                 "shape, target or slice does not match this run (file: %llu parameters, %llu "
                 "runs, chunk %llu, target %llu, chunks %llu..%llu; this run: %zu, %zu, %zu, "
                 "%llu)",
                 (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[2],
                 (unsigned long long)v[3], (unsigned long long)v[6], (unsigned long long)v[7],
                 log->p, log->runs, log->chunk, (unsigned long long)id->target);
        return why;
    }
    rd->c0 = (size_t)v[6], rd->c1 = (size_t)v[7];
    return NULL;
}

/* The bytes of a record after its 16-byte head, as read: the arrays loss,
 * mom, test, models one after another (len[i] bytes of each, got in all). */
typedef struct {
    const unsigned char *part[4];
    size_t len[4], got;
} rec_bytes;

/* Bytes [from, from + n) of the record's body: hashed into sha, or copied
 * to out. */
static void body_walk(const rec_bytes *b, size_t from, size_t n, struct sha256_ctx *sha,
                      unsigned char *out)
{
    for (int i = 0; i < 4 && n; i++) {
        if (from >= b->len[i]) {
            from -= b->len[i];
            continue;
        }
        size_t k = b->len[i] - from < n ? b->len[i] - from : n;
        if (sha)
            sha256_update(sha, k, b->part[i] + from);
        else
            memcpy(out, b->part[i] + from, k), out += k;
        n -= k, from = 0;
    }
}

/* A record cut short at the end of the file is what a writer killed
 * mid-append leaves, and is dropped.  But a damaged kind field looks the
 * same: kind 1 (models) read where the writer wrote 0 (LR scores) sizes the
 * record larger than it is, so the file seems to end inside it.  The digest
 * decides (emp/shard.h: it covers the head): true when the bytes read
 * verify as a record of the other kind, i.e. the kind is damaged, not the
 * record torn.  before: the running digest before the record's head. */
static bool verifies_as_other_kind(const struct sha256_ctx *before, const uint64_t h[2],
                                   const ul_shard_log *log, const rec_bytes *b)
{
    uint64_t other[2] = {h[0], h[1] == UL_REC_MODELS ? UL_REC_LR : UL_REC_MODELS};
    size_t body = total(sizes(log, (size_t)h[0], other[1])) * sizeof(double);
    if (body + SUM > b->got)
        return false;
    struct sha256_ctx sha = *before;
    uint8_t want[SUM], stored[SUM];
    sha256_update(&sha, sizeof other, (const uint8_t *)other);
    body_walk(b, 0, body, &sha, NULL);
    sha256_digest(&sha, SUM, want);
    body_walk(b, body, SUM, NULL, stored);
    return memcmp(want, stored, SUM) == 0;
}

/* One record into log (chunk c0 + got expected); *done at a clean end or
 * a cut-off record. */
static const char *read_rec(reader *r, ul_shard_log *log, ul_shard_read *rd, bool *done,
                            char *why, size_t whylen)
{
    uint64_t h[2];
    long long start = r->pos;
    struct sha256_ctx before = r->sha;
    size_t n = get(r, h, sizeof h), c = rd->c0 + rd->got;
    if (ferror(r->f))
        return "read error";
    if (n == 0 || (n < sizeof h) || c >= rd->c1) {
        *done = true;
        rd->cut = n && c < rd->c1 ? (long long)n : 0;
        if (n && c >= rd->c1)
            return "bytes after the last chunk of its slice";
        return NULL;
    }
    if (h[0] != c || h[1] > UL_REC_MODELS) {
        snprintf(why, whylen, "byte offset %lld: a record for chunk %llu (kind %llu) where chunk "
                 "%zu was expected", start, (unsigned long long)h[0], (unsigned long long)h[1], c);
        return why;
    }
    if (log->rec[c].present) {
        snprintf(why, whylen, "chunk %zu (runs from %zu) is already held by another file: the "
                 "slices overlap", c, c * log->chunk);
        return why;
    }
    rec_sizes z = sizes(log, c, h[1]);
    ul_shard_rec rec = {.kind = h[1]};
    bool ok = true, cut = false;
    rec.loss = alloc_n(z.loss, &ok), rec.mom = alloc_n(z.mom, &ok);
    rec.test = alloc_n(z.test, &ok), rec.models = alloc_n(z.models, &ok);
    if (!ok) { /* the sizes of the log (--runs, parameters): UL_ENOMEM, num/status.h */
        rec_free(&rec);
        r->nomem = true;
        snprintf(why, whylen, "out of memory for the record of chunk %zu (%zu values)", c,
                 total(z));
        return why;
    }
    double *parts[4] = {rec.loss, rec.mom, rec.test, rec.models};
    size_t lens[4] = {z.loss, z.mom, z.test, z.models};
    rec_bytes body = {.got = 0};
    for (int i = 0; i < 4 && !cut; i++) {
        body.part[i] = (const unsigned char *)parts[i];
        body.len[i] = get(r, parts[i], lens[i] * sizeof(double));
        body.got += body.len[i];
        cut = body.len[i] < lens[i] * sizeof(double);
    }
    const char *bad = cut ? NULL : check_digest(r, &cut);
    int part;
    if (cut && ferror(r->f)) {
        cut = false, bad = "read error";
    } else if (cut && verifies_as_other_kind(&before, h, log, &body)) {
        /* not torn: damaged, and the records after it would be lost */
        snprintf(why, whylen, "byte offset %lld: the record of chunk %zu says kind %llu but its "
                 "SHA-256 digest verifies for kind %d: a damaged kind field (corrupted; start "
                 "afresh without --resume)", start, c, (unsigned long long)h[1],
                 h[1] == UL_REC_MODELS ? UL_REC_LR : UL_REC_MODELS);
        cut = false, bad = why;
    } else if (!cut && !bad) {
        bad = rec_values_bad(&rec, &z, c, &part, why, whylen);
    }
    if (cut || bad) {
        rec_free(&rec);
        *done = cut;
        rd->cut = cut ? r->pos - start : 0;
        return bad;
    }
    rec.present = true;
    log->rec[c] = rec;
    rd->got++;
    return NULL;
}

ul_status ul_shard_file_read(FILE *f, const char *name, ul_shard_log *log, const ul_shard_id *id,
                             ul_shard_read *rd, char *err, size_t errlen)
{
    memset(rd, 0, sizeof *rd);
    reader r = {.f = f};
    sha256_init(&r.sha);
    char why[512];
    const char *bad = read_head(&r, log, id, rd, why, sizeof why);
    bool done = bad != NULL;
    struct sha256_ctx last = r.sha;
    long long len = r.pos;
    while (!done) {
        bad = read_rec(&r, log, rd, &done, why, sizeof why);
        done = done || bad;
        if (!done)
            last = r.sha, len = r.pos;
    }
    if (!bad && fgetc(f) != EOF)
        bad = "bytes after the last chunk of its slice";
    if (bad) {
        for (size_t i = 0; i < rd->got; i++)
            rec_free(&log->rec[rd->c0 + i]);
        rd->got = 0;
        return ul_io_escaped(ul_fail(err, errlen, r.nomem ? UL_ENOMEM : UL_EINPUT, "%s: %s%s",
                                     name, r.nomem ? "" : "refused: ", bad),
                             err, errlen);
    }
    rd->len = len, rd->sha = last;
    return UL_OK;
}

ul_status ul_shard_file_resume(ul_shard_file *sf, const char *path, ul_shard_log *log,
                               const ul_shard_id *id, ul_shard_read *rd, char *err, size_t errlen)
{
    memset(sf, 0, sizeof *sf);
    FILE *f = fopen(path, "r+b");
    if (!f)
        return ul_io_escaped(
            ul_fail(err, errlen, UL_EINPUT, "%s: cannot open: %s", path, strerror(errno)), err,
            errlen);
    ul_status st = ul_shard_file_read(f, path, log, id, rd, err, errlen);
    if (st == UL_OK && rd->cut && (fflush(f) != 0 || ftruncate(fileno(f), (off_t)rd->len) != 0))
        st = ul_fail(err, errlen, UL_EINPUT, "%s: cannot drop the cut-off record: %s", path,
                     strerror(errno));
    if (st != UL_OK) {
        fclose(f);
        return st;
    }
    sf->f = f, sf->sha = rd->sha, sf->len = rd->len;
    return UL_OK;
}
