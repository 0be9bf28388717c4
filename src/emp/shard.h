/* src/emp/shard.h — what an attack keeps of its runs: per-chunk records of
 * scores (not models), and the files that hold them (checkpoints, shards).
 *
 * Chunks.  The runs 0 … runs − 1 of each world are cut into the chunks
 * c = 0 … nchunks − 1 of `chunk` runs (the last one shorter): chunk c is the
 * runs [c·chunk, min((c + 1)·chunk, runs)), trained together by one call of
 * ul_exp_run.  The chunk grid is the same whoever trains a chunk (one
 * process, a shard, an MPI rank), so a run's model has the same bits
 * everywhere (emp/experiment.h: equal chunk width).
 *
 * Scores.  The loss score of a run is a number of that run alone.  The
 * Gaussian likelihood-ratio score (emp/score.h) is fitted on the FITTING
 * half, runs [0, half) with half = ⌊runs/2⌋, and applied to the TEST half
 * [half, runs), in both worlds.  A chunk's record therefore holds:
 *   loss    its 2·M loss scores (IN runs, then OUT runs)       [loss score]
 *   mom     for its runs in the fitting half: per coordinate, the mean and
 *           the sum of squared deviations of IN and of OUT (Welford's
 *           update, run by run: Welford 1962; 4·p numbers)      [LR score]
 *   test    for its runs in the test half: their LR scores, when the fit
 *           was known when the chunk was trained (always for one process,
 *           which trains the chunks in order), else their models (a shard
 *           or a rank that has not seen the fitting half)      [LR score]
 *   models  its 2·p·M parameters, only with save_models.
 * The fit folds the fitting chunks' moments in chunk order with the
 * pairwise formula of Chan, Golub, LeVeque (1979, "Updating formulae and a
 * pairwise algorithm for computing sample variances", eq. 2.1):
 *   n = n_a + n_b,  δ = m_b − m_a,  m = m_a + δ·n_b/n,
 *   S = S_a + S_b + δ²·n_a·n_b/n,
 * a fixed sequence of operations whoever trained the chunks, so every way
 * of running the same configuration gives the same bits.  Then, as in
 * emp/score.h: V = (S_in + S_out)/(2·half − 2) (pooled), weight =
 * (m_in − m_out)/V (0 where V is 0 or the weight is beyond ±1e100), mid =
 * (m_in + m_out)/2.  Every number recorded is finite and within ±1e100 (a
 * run beyond that, a diverging learner, is refused), so nothing computed
 * from records overflows.
 *
 * Files (format version 03; host byte order, like the checkpoints before):
 *   bytes 0–7     "ULCKPT03"
 *   bytes 8–71    the configuration file's SHA-256, 64 lowercase hex digits
 *   bytes 72–103  the SHA-256 of the prepared data set (raw)
 *   bytes 104–167 u64 p, runs, chunk, target, scores, save_models, c0, c1:
 *                 the file holds the chunks c0 … c1 − 1 (a slice)
 *   then 32 bytes a SHA-256 digest
 *   then, per chunk in order c0, c0 + 1, …: u64 chunk number, u64 kind
 *                 (0: test part as LR scores, 1: as models), the arrays
 *                 loss, mom, test, models present for it (doubles), and a
 *                 32-byte SHA-256 digest.
 * Every digest is the SHA-256 (FIPS 180-4, nettle) of ALL the bytes of the
 * file before it, so a record is appended in O(its size) and every byte
 * is covered.  A checkpoint is the file of the slice being trained; a shard
 * file is a complete one (all its chunks).  A reader verifies each digest
 * before it uses the bytes it covers; a last record cut short (the writer
 * killed mid-append) is dropped and reported, anything else that does not
 * verify is refused.  A record only looks cut when the file ends inside
 * it, and a damaged kind field (0 read as 1) makes it look so (the record
 * sized larger than it is): a cut record whose bytes verify as a record of
 * the other kind is refused as damaged, never dropped with what follows.
 */
#ifndef UL_EMP_SHARD_H
#define UL_EMP_SHARD_H

#include <nettle/sha2.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "emp/model.h"
#include "emp/score.h"
#include "num/status.h"

#define UL_SHARD_MAGIC "ULCKPT"
#define UL_SHARD_VERSION "03"
#define UL_SHARD_HEAD 168 /* bytes before the header's digest */

/* Largest magnitude of any number in a record, and of an LR weight
 * (larger weights are set to 0): with p ≤ 2^28 parameters no score
 * computed from records can overflow. */
#define UL_SHARD_MAX_VALUE 1e100

enum { UL_SCORE_LOSS = 1, UL_SCORE_LR = 2 };
enum { UL_REC_LR = 0, UL_REC_MODELS = 1 };

typedef struct {
    bool present;
    uint64_t kind;  /* UL_REC_LR or UL_REC_MODELS */
    double *loss;   /* 2·M, or NULL */
    double *mom;    /* 4·p: mean IN, S IN, mean OUT, S OUT; or NULL */
    double *test;   /* 2·n_test LR scores, or 2·p·n_test models; or NULL */
    double *models; /* 2·p·M, or NULL */
} ul_shard_rec;

typedef struct {
    size_t p, runs, chunk, nchunks, half;
    int scores; /* UL_SCORE_* bits */
    bool save_models;
    ul_shard_rec *rec; /* nchunks */
    ul_score_lr fit;   /* once every fitting chunk is present */
    bool has_fit;
} ul_shard_log;

/* The identity of a file: it must match the run that reads it. */
typedef struct {
    char cfg_sha256[64];     /* hex */
    uint8_t data_sha256[32]; /* raw */
    uint64_t target, c0, c1;
} ul_shard_id;

ul_status ul_shard_log_init(ul_shard_log *log, size_t p, size_t runs, size_t chunk, int scores,
                            bool save_models, char *err, size_t errlen);
void ul_shard_log_free(ul_shard_log *log);

/* Chunk c's runs: [*run0, *run0 + *M); n_fit of them in the fitting half. */
void ul_shard_chunk(const ul_shard_log *log, size_t c, size_t *run0, size_t *M, size_t *n_fit);

/* Chunks [c0, c1) of slice i of k: ⌊i·n/k⌋ … ⌊(i+1)·n/k⌋. */
void ul_shard_slice(size_t nchunks, size_t i, size_t k, size_t *c0, size_t *c1);

/* Records chunk c from its models (W_in, W_out: p×M, run j in column j);
 * x, d, y: the target record for the loss score. */
ul_status ul_shard_add(ul_shard_log *log, size_t c, const double *W_in, const double *W_out,
                       const ul_model *model, const double *x, size_t d, double y, char *err,
                       size_t errlen);

/* Every chunk present: the score arrays (malloc'd; NULL for a score not
 * computed): loss_in/out of runs values, lr_in/out of runs − half values. */
ul_status ul_shard_scores(ul_shard_log *log, double **loss, double **lr, char *err, size_t errlen);

/* Every chunk present and save_models: all models, p×runs per world
 * (malloc'd, IN then OUT); NULL otherwise, and when the 2·p·runs doubles
 * cannot be allocated. */
double *ul_shard_models(const ul_shard_log *log);

/* ---- files ---- */

typedef struct {
    FILE *f;
    struct sha256_ctx sha; /* of every byte written so far */
    long long len;
} ul_shard_file;

/* Writes a fresh file (header only) at path, atomically, and opens it for
 * appending. */
ul_status ul_shard_file_create(ul_shard_file *sf, const char *path, const ul_shard_log *log,
                               const ul_shard_id *id, char *err, size_t errlen);
/* Appends chunk c's record (present in log). */
ul_status ul_shard_file_append(ul_shard_file *sf, const ul_shard_log *log, size_t c, char *err,
                               size_t errlen);
void ul_shard_file_close(ul_shard_file *sf);

/* Reads a file (or any stream: name is for messages) into log, refusing
 * another identity (id: configuration, data, target; c0, c1 as expected
 * unless id->c1 == 0, which takes the file's slice and returns it in
 * *c0, *c1), a shape that does not match log, a digest that does not
 * verify, a chunk outside [c0, c1), out of order, or already present in
 * log.  *got = chunks read (c0 … c0 + *got − 1); *len = bytes verified
 * (a cut-off last record is dropped and *cut says how many bytes).  The
 * running digest is left in sha (NULL: not wanted), to append after it. */
typedef struct {
    size_t c0, c1, got;
    long long len, cut;
    struct sha256_ctx sha;
} ul_shard_read;

ul_status ul_shard_file_read(FILE *f, const char *name, ul_shard_log *log, const ul_shard_id *id,
                             ul_shard_read *rd, char *err, size_t errlen);

/* Opens path, reads it (ul_shard_file_read) and reopens it for appending
 * after its last complete record (a cut-off record is truncated away). */
ul_status ul_shard_file_resume(ul_shard_file *sf, const char *path, ul_shard_log *log,
                               const ul_shard_id *id, ul_shard_read *rd, char *err, size_t errlen);

/* The whole file of chunks [c0, c1) of log as bytes (for MPI): malloc'd. */
ul_status ul_shard_serialize(const ul_shard_log *log, const ul_shard_id *id, char **buf,
                             size_t *len, char *err, size_t errlen);

#endif
