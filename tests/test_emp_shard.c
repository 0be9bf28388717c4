/* tests/test_emp_shard.c — per-chunk score records (emp/shard.h): the
 * streamed fit against the two-pass fit of emp/score.c, the scores against
 * scoring the models directly, independence of the order in which chunks
 * arrive, slices that tile the chunks, and a file read back. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emp/experiment.h"
#include "emp/shard.h"
#include "test_emp_files.h"

TestSuite(emp_shard);

/* Models of runs 0 … R − 1 of both worlds: W_in and W_out (p × R), drawn
 * as N(0.2·q, 1 + q) per coordinate q (IN shifted by 0.3): any numbers do
 * for the bookkeeping tested here. */
static void fake_models(size_t p, size_t R, double *W_in, double *W_out)
{
    for (size_t j = 0; j < R; j++)
        for (size_t q = 0; q < p; q++) {
            double u = sin(1.7 * (double)(j * p + q) + 0.3), v = cos(2.3 * (double)(j + 7 * q));
            W_in[j * p + q] = 0.2 * (double)q + 0.3 + (1 + (double)q) * u;
            W_out[j * p + q] = 0.2 * (double)q + (1 + (double)q) * v;
        }
}

/* The loss score needs a model: logistic regression, target x, y. */
static const double X[3] = {0.5, -1.0, 0.25};

/* Adds chunks in the given order; returns the log (caller frees). */
static void build(ul_shard_log *log, size_t p, size_t R, size_t chunk, const size_t *order,
                  const double *W_in, const double *W_out)
{
    char err[256];
    ul_model m = ul_logreg_model(0.1, INFINITY);
    cr_assert_eq(ul_shard_log_init(log, p, R, chunk, UL_SCORE_LOSS | UL_SCORE_LR, false, err,
                                   sizeof err),
                 UL_OK, "%s", err);
    for (size_t i = 0; i < log->nchunks; i++) {
        size_t c = order[i], run0, M, nf;
        ul_shard_chunk(log, c, &run0, &M, &nf);
        cr_assert_eq(ul_shard_add(log, c, W_in + run0 * p, W_out + run0 * p, &m, X, 3, 1.0, err,
                                  sizeof err),
                     UL_OK, "%s", err);
    }
}

Test(emp_shard, scores_match_direct_scoring_and_the_two_pass_fit)
{
    size_t p = 3, R = 45, chunk = 8; /* half = 22: chunk 2 straddles it */
    double *W = malloc(2 * p * R * sizeof *W);
    fake_models(p, R, W, W + p * R);
    size_t order[6] = {0, 1, 2, 3, 4, 5};
    ul_shard_log log;
    build(&log, p, R, chunk, order, W, W + p * R);
    double *loss, *lr;
    char err[256];
    cr_assert_eq(ul_shard_scores(&log, &loss, &lr, err, sizeof err), UL_OK, "%s", err);
    /* loss: −ℓ(w; x, y) = −log(1 + e^{−y wᵀx}), written out here */
    for (size_t j = 0; j < 2 * R; j++) {
        const double *w = W + j * p;
        double m = w[0] * X[0] + w[1] * X[1] + w[2] * X[2];
        cr_assert_float_eq(loss[j], -log1p(exp(-m)), 1e-13, "run %zu", j);
    }
    /* LR: the two-pass fit of emp/score.c on runs 0..21, applied to 22..44 */
    ul_score_lr two;
    size_t half = R / 2;
    cr_assert_eq(ul_score_lr_fit(&two, W, half, W + p * R, half, p, err, sizeof err), UL_OK);
    for (size_t q = 0; q < p; q++) {
        cr_assert_float_eq(log.fit.weight[q], two.weight[q], 1e-12 * fabs(two.weight[q]));
        cr_assert_float_eq(log.fit.mid[q], two.mid[q], 1e-12 * (1 + fabs(two.mid[q])));
    }
    double want[2 * 23];
    ul_score_lr_apply(&two, W + half * p, R - half, want);
    ul_score_lr_apply(&two, W + p * R + half * p, R - half, want + (R - half));
    for (size_t j = 0; j < 2 * (R - half); j++)
        cr_assert_float_eq(lr[j], want[j], 1e-10 * (1 + fabs(want[j])), "LR score %zu", j);
    ul_score_lr_free(&two);
    free(loss), free(lr), free(W);
    ul_shard_log_free(&log);
}

/* Chunks in any order (test-half chunks first keep their models until the
 * fit is known) give the same bits. */
Test(emp_shard, any_order_gives_the_same_bits)
{
    size_t p = 4, R = 45, chunk = 8;
    double *W = malloc(2 * p * R * sizeof *W);
    fake_models(p, R, W, W + p * R);
    size_t fwd[6] = {0, 1, 2, 3, 4, 5}, rev[6] = {5, 4, 3, 2, 1, 0}, mix[6] = {3, 0, 5, 2, 4, 1};
    const size_t *orders[3] = {fwd, rev, mix};
    double *l0 = NULL, *r0 = NULL;
    char err[256];
    for (int k = 0; k < 3; k++) {
        ul_shard_log log;
        build(&log, p, R, chunk, orders[k], W, W + p * R);
        if (k == 1)
            cr_assert_eq(log.rec[5].kind, (uint64_t)UL_REC_MODELS, "before the fit: models");
        double *l, *r;
        cr_assert_eq(ul_shard_scores(&log, &l, &r, err, sizeof err), UL_OK, "%s", err);
        if (k == 0) {
            l0 = l, r0 = r;
        } else {
            cr_assert_eq(memcmp(l, l0, 2 * R * sizeof *l), 0, "order %d: loss", k);
            cr_assert_eq(memcmp(r, r0, 2 * (R - R / 2) * sizeof *r), 0, "order %d: LR", k);
            free(l), free(r);
        }
        ul_shard_log_free(&log);
    }
    free(l0), free(r0), free(W);
}

Test(emp_shard, slices_tile_the_chunks)
{
    for (size_t n = 1; n <= 40; n++)
        for (size_t k = 1; k <= n; k++) {
            size_t next = 0;
            for (size_t i = 0; i < k; i++) {
                size_t c0, c1;
                ul_shard_slice(n, i, k, &c0, &c1);
                cr_assert(c0 == next && c1 > c0, "n %zu k %zu i %zu: [%zu, %zu)", n, k, i, c0, c1);
                next = c1;
            }
            cr_assert_eq(next, n);
        }
}

/* The log of the file tests: p = 3, 45 runs, chunks of 8 (six chunks, the
 * fitting half ending inside chunk 2); every chunk added in order.  The
 * models (W, for the caller to free) are returned. */
static double *six_chunks(ul_shard_log *a)
{
    size_t p = 3, R = 45, chunk = 8, order[6] = {0, 1, 2, 3, 4, 5};
    double *W = malloc(2 * p * R * sizeof *W);
    fake_models(p, R, W, W + p * R);
    build(a, p, R, chunk, order, W, W + p * R);
    return W;
}

/* An empty log of the same shape, to read files into. */
static void empty_log(ul_shard_log *b)
{
    char err[256];
    cr_assert_eq(ul_shard_log_init(b, 3, 45, 8, UL_SCORE_LOSS | UL_SCORE_LR, false, err,
                                   sizeof err),
                 UL_OK, "%s", err);
}

/* A serialised slice read back into a fresh log: the same records. */
Test(emp_shard, a_serialised_slice_reads_back)
{
    ul_shard_log a, b;
    double *W = six_chunks(&a);
    empty_log(&b);
    char err[256];
    ul_shard_id id = {.target = 7, .c0 = 2, .c1 = 5};
    memset(id.cfg_sha256, 'a', 64);
    char *buf;
    size_t len;
    cr_assert_eq(ul_shard_serialize(&a, &id, &buf, &len, err, sizeof err), UL_OK, "%s", err);
    FILE *f = fmemopen(buf, len, "rb");
    ul_shard_read rd;
    ul_shard_id any = id;
    any.c0 = any.c1 = 0;
    cr_assert_eq(ul_shard_file_read(f, "mem", &b, &any, &rd, err, sizeof err), UL_OK, "%s", err);
    fclose(f);
    cr_assert(rd.c0 == 2 && rd.c1 == 5 && rd.got == 3 && rd.cut == 0);
    for (size_t c = 0; c < 6; c++) {
        cr_assert_eq(b.rec[c].present, c >= 2 && c < 5);
        if (b.rec[c].present)
            cr_assert_eq(memcmp(b.rec[c].loss, a.rec[c].loss, 16 * sizeof(double)), 0);
    }
    /* the same bytes again overlap what is there */
    f = fmemopen(buf, len, "rb");
    cr_assert_eq(ul_shard_file_read(f, "mem", &b, &any, &rd, err, sizeof err), UL_EINPUT);
    cr_assert(strstr(err, "overlap"), "%s", err);
    fclose(f);
    free(buf), free(W);
    ul_shard_log_free(&a);
    ul_shard_log_free(&b);
}

/* The byte offset of chunk c's record head (u64 c, u64 kind 0) in buf:
 * found by its bytes, not by the reader's sizes. */
static size_t head_of(const char *buf, size_t len, uint64_t c)
{
    uint64_t want[2] = {c, UL_REC_LR};
    for (size_t at = UL_SHARD_HEAD + 32; at + sizeof want <= len; at++)
        if (memcmp(buf + at, want, sizeof want) == 0)
            return at;
    cr_assert_fail("no record head of chunk %llu", (unsigned long long)c);
    return 0;
}

/* One bit flipped in a record's kind (0, LR scores, read as 1, models)
 * sizes it larger than it is: near the end of the file it then looks cut
 * off mid-write.  Damage, not a torn tail: refused (naming the file, the
 * record's byte offset and the kind), the file left as it was, never
 * truncated; a truly torn last record is still dropped. */
Test(emp_shard, a_flipped_kind_bit_is_refused_not_taken_for_a_torn_record)
{
    ul_shard_log a, b;
    double *W = six_chunks(&a);
    char err[512];
    ul_shard_id id = {.target = 7, .c0 = 0, .c1 = 6};
    memset(id.cfg_sha256, 'a', 64);
    char *buf;
    size_t len;
    cr_assert_eq(ul_shard_serialize(&a, &id, &buf, &len, err, sizeof err), UL_OK, "%s", err);
    char *dir = emp_test_mkdtemp();
    /* chunk 4: a valid record follows it; chunk 5: the last one.  As kind 1
     * both would run past the end (chunk 4: 2·3·5 + 10 + 16 + … doubles) */
    for (uint64_t c = 4; c <= 5; c++) {
        size_t at = head_of(buf, len, c);
        buf[at + 8] ^= 1;
        const char *path = emp_test_put(dir, "checkpoint.bin", buf, len);
        buf[at + 8] ^= 1;
        empty_log(&b);
        ul_shard_file sf;
        ul_shard_read rd;
        cr_assert_eq(ul_shard_file_resume(&sf, path, &b, &id, &rd, err, sizeof err), UL_EINPUT,
                     "chunk %llu: a damaged kind accepted", (unsigned long long)c);
        char offset[64];
        snprintf(offset, sizeof offset, "byte offset %zu", at);
        cr_assert(strstr(err, "checkpoint.bin") && strstr(err, offset) && strstr(err, "kind"),
                  "%s", err);
        size_t now;
        unsigned char *left = emp_test_read(path, &now);
        cr_assert_eq(now, len, "chunk %llu: the file was cut to %zu of %zu bytes",
                     (unsigned long long)c, now, len);
        free(left);
        for (size_t k = 0; k < 6; k++)
            cr_assert(!b.rec[k].present, "a refused file left chunk %zu in the log", k);
        ul_shard_log_free(&b);
    }
    /* torn: the last record cut in its middle is dropped, the rest kept */
    size_t at5 = head_of(buf, len, 5), keep = at5 + (len - at5) / 2;
    const char *path = emp_test_put(dir, "torn.bin", buf, keep);
    empty_log(&b);
    ul_shard_file sf;
    ul_shard_read rd;
    cr_assert_eq(ul_shard_file_resume(&sf, path, &b, &id, &rd, err, sizeof err), UL_OK, "%s",
                 err);
    cr_assert(rd.got == 5 && rd.cut == (long long)(keep - at5) && rd.len == (long long)at5);
    ul_shard_file_close(&sf);
    size_t now;
    free(emp_test_read(path, &now));
    cr_assert_eq(now, at5, "the torn record was not cut away");
    ul_shard_log_free(&b);
    emp_test_rm_rf(dir);
    free(dir), free(buf), free(W);
    ul_shard_log_free(&a);
}
