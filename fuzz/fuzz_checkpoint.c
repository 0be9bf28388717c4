/* fuzz/fuzz_checkpoint.c — libFuzzer harness: the attack checkpoint reader
 * (ul_attack_checkpoint_load), and the run resumed from what it accepts.
 *
 * Written against the public reader and writer only (emp/attack.h), so it
 * follows the checkpoint format as it changes.  At start the harness
 * prepares one tiny attack (CONFIG below: synthetic data, 4 runs in chunks of
 * 2, a few training steps); with ULFUZZ_SEED_DIR set it also writes the valid
 * checkpoints of that attack after 0, 2 and 4 runs there, as seeds
 * (tools/fuzz-seeds.sh), and the fuzzer mutates those.
 *
 * Input: the bytes of a checkpoint file.  Contract: a refused file has a
 * message and leaves the state as it was (no run done); an accepted one has
 * done <= runs, and the attack resumed from it (remaining chunks, then the
 * statistics of ul_attack_finish) must run to the end without error. */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "emp/attack.h"

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

/* The valid checkpoints after 0, 2 and 4 runs, into dir. */
static void write_seeds(const char *dir)
{
    char err[1024] = "", path[4096];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/checkpoint-%zu.bin", dir, st.done);
        must(ul_attack_checkpoint_save(&st, path, err, sizeof err), "save a seed", err);
        must(ul_attack_step(&st, err, sizeof err), "a chunk", err);
    }
    st.done = 0;
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_write(ckpt, data, size);
    char err[1024] = "";
    st.done = 0;
    ul_status s = ul_attack_checkpoint_load(&st, ckpt, err, sizeof err);
    if (s != UL_OK) {
        FUZZ_CHECK(err[0] && st.done == 0, "refusal without a message, or done changed");
        return 0;
    }
    FUZZ_CHECK(st.done <= cfg.runs, "done %zu of %zu runs", st.done, cfg.runs);
    while (st.done < cfg.runs)
        must(ul_attack_step(&st, err, sizeof err), "resuming", err);
    ul_attack_result res;
    s = ul_attack_finish(&res, &st, err, sizeof err);
    ul_attack_result_clear(&res);
    must(s, "the statistics of a resumed run", err);
    return 0;
}
