/* fuzz/fuzz_checkpoint.c — libFuzzer harness: the attack checkpoint reader
 * (ul_attack_checkpoint_load), and the run resumed from what it accepts.
 *
 * Written against the public reader and writer (emp/attack.h, emp/shard.h),
 * so it follows the checkpoint format as it changes.  At start the harness
 * prepares one tiny attack (CONFIG below: synthetic data, 4 runs in chunks of
 * 2, a few training steps); with ULFUZZ_SEED_DIR set it also writes the valid
 * checkpoints of that attack after 0, 1 and 2 chunks there, as seeds
 * (tools/fuzz-seeds.sh), and the fuzzer mutates those.
 *
 * Every digest of a checkpoint is the SHA-256 of all the bytes before it
 * (emp/shard.h), so a mutated file almost always fails at the first digest
 * and the reader's parsing beyond it would never be fuzzed.  Each input is
 * therefore read twice: as it is (the digest checks), and with every digest
 * recomputed over the mutated bytes (fix_digests: the header's, then each
 * record's, walked with the record sizes the reader expects for this run),
 * which reaches the header fields, the record headers and the records.
 *
 * Contract: a refused file has a message and leaves the state as it was (no
 * run done); an accepted one has done <= the runs of the slice, and the
 * attack resumed from it (remaining chunks, then the statistics of
 * ul_attack_finish) runs to the end, or stops with UL_EINPUT and a message:
 * records within the reader's limits (|v| <= 1e100, digests recomputed) can
 * still make the likelihood-ratio fit give non-finite scores to the next
 * chunk, which the record check then refuses (fail closed: no result from
 * it).  Anything else (a crash, a sanitizer report, another status, an
 * empty message) is a finding. */
#include <nettle/sha2.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "emp/attack.h"
#include "emp/shard.h"

static const char CONFIG[] =
    "{\"format\": \"ulaudit-attack/1\",\n"
    " \"data\": {\"source\": \"synthetic\", \"n\": 16, \"d\": 2, \"seed\": 1},\n"
    " \"model\": {\"type\": \"logreg\", \"lambda\": \"0.1\", \"clip\": 1},\n"
    " \"learner\": {\"sigma\": \"0.5\", \"train_steps\": 4, \"unlearn_steps\": 1},\n"
    " \"runs\": 4, \"chunk\": 2,\n"
    " \"claim\": {\"eps\": \"1\", \"delta\": \"1e-5\"}}\n";

static ul_attack_config cfg;
static ul_attack_state st;
static char *ckpt;

static void must(ul_status s, const char *what, const char *err)
{
    FUZZ_CHECK(s == UL_OK, "%s: %s", what, err);
}

/* Back to no chunk done, no file open: the state a fresh run resumes into. */
static void reset(void)
{
    char err[1024] = "";
    ul_shard_file_close(&st.file);
    ul_shard_log_free(&st.log);
    must(ul_shard_log_init(&st.log, st.p, cfg.runs, cfg.chunk, cfg.scores, cfg.save_models, err,
                           sizeof err),
         "log init", err);
    st.next = st.c0;
    st.done = 0;
}

/* The valid checkpoints after 0, 1, …, all chunks, into dir. */
static void write_seeds(const char *dir)
{
    char err[1024] = "", path[4096];
    for (size_t k = 0; k <= st.c1 - st.c0; k++) {
        reset();
        snprintf(path, sizeof path, "%s/checkpoint-%zu.bin", dir, k);
        must(ul_attack_checkpoint_start(&st, path, err, sizeof err), "start a seed", err);
        for (size_t i = 0; i < k; i++)
            must(ul_attack_step(&st, err, sizeof err), "a chunk", err);
    }
    reset();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char err[1024] = "";
    char *path = fuzz_path("attack.json");
    fuzz_write(path, CONFIG, sizeof CONFIG - 1);
    must(ul_attack_config_load(path, &cfg, err, sizeof err), "the harness's configuration", err);
    free(path);
    must(ul_attack_prepare(&st, &cfg, err, sizeof err), "prepare", err);
    ckpt = fuzz_path("checkpoint.bin");
    const char *dir = getenv("ULFUZZ_SEED_DIR");
    if (dir)
        write_seeds(dir);
    return 0;
}

/* ---- digests recomputed --------------------------------------------------------------- */

/* Doubles in chunk c's record of this kind, as the reader expects them for
 * this run (emp/shard.h: loss 2·M, moments 4·p for a chunk with fitting
 * runs, the test part 2·n_test scores or 2·p·n_test models, models 2·p·M). */
static size_t record_doubles(size_t c, uint64_t kind)
{
    size_t run0, M, nf;
    ul_shard_chunk(&st.log, c, &run0, &M, &nf);
    bool lr = (st.log.scores & UL_SCORE_LR) != 0;
    size_t nt = M - nf, p = st.log.p;
    return ((st.log.scores & UL_SCORE_LOSS) ? 2 * M : 0) + (lr && nf ? 4 * p : 0) +
           (lr && nt ? (kind == UL_REC_MODELS ? 2 * p * nt : 2 * nt) : 0) +
           (st.log.save_models ? 2 * p * M : 0);
}

/* Writes at d[at..at+32) the SHA-256 of d[0..at), continuing *sha (which
 * has hashed d[0..*hashed)); then hashes the digest too. */
static void put_digest(uint8_t *d, size_t at, struct sha256_ctx *sha, size_t *hashed)
{
    sha256_update(sha, at - *hashed, d + *hashed);
    struct sha256_ctx c = *sha;
    sha256_digest(&c, SHA256_DIGEST_SIZE, d + at);
    sha256_update(sha, SHA256_DIGEST_SIZE, d + at);
    *hashed = at + SHA256_DIGEST_SIZE;
}

/* Every digest of the file d[0..size) recomputed where the reader will look
 * for it; the walk stops where the reader would stop (a record header
 * naming another chunk or kind, a record cut short). */
static void fix_digests(uint8_t *d, size_t size)
{
    struct sha256_ctx sha;
    sha256_init(&sha);
    size_t hashed = 0, pos = UL_SHARD_HEAD;
    if (size < pos + SHA256_DIGEST_SIZE)
        return;
    put_digest(d, pos, &sha, &hashed);
    pos += SHA256_DIGEST_SIZE;
    uint64_t c0;
    memcpy(&c0, d + 104 + 6 * 8, sizeof c0); /* the slice's first chunk */
    for (uint64_t c = c0; c < st.log.nchunks && pos + 16 <= size; c++) {
        uint64_t h[2];
        memcpy(h, d + pos, sizeof h);
        if (h[0] != c || h[1] > UL_REC_MODELS)
            return;
        size_t n = 16 + record_doubles((size_t)c, h[1]) * sizeof(double);
        if (size - pos < n + SHA256_DIGEST_SIZE)
            return;
        put_digest(d, pos + n, &sha, &hashed);
        pos += n + SHA256_DIGEST_SIZE;
    }
}

/* ---- one input -------------------------------------------------------------------------- */

static void try_checkpoint(const uint8_t *data, size_t size)
{
    reset();
    fuzz_write(ckpt, data, size);
    char err[1024] = "";
    ul_status s = ul_attack_checkpoint_load(&st, ckpt, err, sizeof err);
    if (s != UL_OK) {
        FUZZ_CHECK(err[0] && st.done == 0 && st.next == st.c0,
                   "refusal without a message, or the state changed");
        return;
    }
    FUZZ_CHECK(st.done <= st.total, "done %zu of %zu runs", st.done, st.total);
    while (st.next < st.c1) {
        err[0] = '\0';
        s = ul_attack_step(&st, err, sizeof err);
        if (s == UL_EINPUT && err[0])
            return; /* refused during the resume, with its reason */
        must(s, "resuming", err);
    }
    ul_attack_result res;
    err[0] = '\0';
    s = ul_attack_finish(&res, &st, err, sizeof err);
    ul_attack_result_clear(&res);
    if (s == UL_EINPUT && err[0])
        return;
    must(s, "the statistics of a resumed run", err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    try_checkpoint(data, size);
    uint8_t *fixed = malloc(size ? size : 1);
    FUZZ_CHECK(fixed != NULL, "out of memory");
    memcpy(fixed, data, size);
    fix_digests(fixed, size);
    if (size > 0 && memcmp(fixed, data, size) != 0)
        try_checkpoint(fixed, size);
    free(fixed);
    return 0;
}
