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

/* A serialised slice read back into a fresh log: the same records. */
Test(emp_shard, a_serialised_slice_reads_back)
{
    size_t p = 3, R = 45, chunk = 8;
    double *W = malloc(2 * p * R * sizeof *W);
    fake_models(p, R, W, W + p * R);
    size_t order[6] = {0, 1, 2, 3, 4, 5};
    ul_shard_log a, b;
    build(&a, p, R, chunk, order, W, W + p * R);
    char err[256];
    cr_assert_eq(ul_shard_log_init(&b, p, R, chunk, UL_SCORE_LOSS | UL_SCORE_LR, false, err,
                                   sizeof err),
                 UL_OK);
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
