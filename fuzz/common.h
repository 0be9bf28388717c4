/* fuzz/common.h — what the libFuzzer harnesses of fuzz/ share.
 *
 * The harnesses (one per reader, issue 12 "Fuzzing lives in the repository"):
 *
 *   fuzz_cert           certificate reader + audit of every method (ul_cert_load_buffer,
 *                       ul_audit at a low precision cap, both report renderings)
 *   fuzz_attack_config  the attack configuration reader (ul_attack_config_load)
 *   fuzz_idx            IDX images + labels, plain or gzip (ul_data_read_idx)
 *   fuzz_csv            CSV (ul_data_read_csv)
 *   fuzz_libsvm         LIBSVM (ul_data_read_libsvm)
 *   fuzz_modelio        .npy / raw f64 / raw f32 model files (ul_modelio_read, _append)
 *   fuzz_checkpoint     attack checkpoints (ul_attack_checkpoint_load, then the run resumed)
 *   fuzz_batch          `calc --batch` files, JSON lines or CSV (ul_cli_calc_batch), and
 *                       every calculator quantity behind it
 *
 * Build and run: `make fuzz` (FUZZ_SECONDS per harness, default 60; FUZZ=name
 * runs one), which builds the library with clang -fsanitize=fuzzer-no-link,
 * address,undefined in build-fuzz/, the seed corpora with tools/fuzz-seeds.sh
 * and runs each harness with tools/fuzz-run.sh.  Reproduce a finding with
 * `build-fuzz/fuzz_<name> ARTIFACT`.
 *
 * The file readers take paths, so each harness writes its input to files in
 * a private temporary directory (made once per process, removed at exit).
 * A harness aborts (a libFuzzer "crash") when a reader breaks its contract:
 * a failure with an empty message, or an output that breaks a documented
 * invariant; the sanitizers catch the rest.
 */
#ifndef UL_FUZZ_COMMON_H
#define UL_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The time budget of one input (num/deadline.h), as `--max-seconds` gives
 * the CLI: the certified layers then stop with UL_ETIME (a refusal with a
 * message, or an inconclusive report), so an input still running at
 * tools/fuzz-run.sh's timeout (30 s) has a loop that does not ask the
 * budget: a finding (issue 12, bounded time).  Set by the harnesses that
 * reach certified arithmetic (cert, calibrate, batch) before each input. */
#define FUZZ_BUDGET_SECONDS 5.0

/* The libFuzzer entry points (defined by each harness). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Aborts with a message: a broken contract is a finding. */
#define FUZZ_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz: contract broken (%s:%d): ", __FILE__, __LINE__);                \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* The process's temporary directory (created on first call, removed with
 * its files at exit); aborts when it cannot be made. */
const char *fuzz_tmpdir(void);

/* "<tmpdir>/<name>", malloc'd; callers keep it for the process's life. */
char *fuzz_path(const char *name);

/* Writes data[0..n) to path (truncating); aborts on an I/O error. */
void fuzz_write(const char *path, const void *data, size_t n);

/* Writes data[0..n) to "<tmpdir>/<name>" and returns that path (made once
 * per name, kept for the process's life; at most 8 names). */
const char *fuzz_file(const char *name, const void *data, size_t n);

#endif
