/* tests/test_cli_attack.c — `ulaudit attack` end to end: a non-private
 * learner refuted with its files written, Ctrl-C and --resume reproducing an
 * uninterrupted run byte for byte, released models in .npy, and bad input
 * (exit 2, one line naming the flag or field, no output file). */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli_run.h"
#include "emp/modelio.h"
#include "emp/rng.h"

TestSuite(cli_attack, .timeout = 300);

static char *temp_dir(void)
{
    char *d = strdup("/tmp/ul-cli-attack-XXXXXX");
    cr_assert_not_null(mkdtemp(d));
    return d;
}

static char *write_in(const char *dir, const char *name, const char *text)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    snprintf(path, n, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static bool exists(const char *dir, const char *name)
{
    char path[1100];
    snprintf(path, sizeof path, "%.512s/%.512s", dir, name);
    struct stat sb;
    return stat(path, &sb) == 0;
}

static char *slurp(const char *dir, const char *name)
{
    char path[1100];
    snprintf(path, sizeof path, "%.512s/%.512s", dir, name);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s missing", path);
    char *buf = malloc(1 << 20);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void rm_rf(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* No noise and a point start: IN and OUT models are two fixed vectors, so
 * the loss score separates the worlds and any small claim is refuted (the
 * library test checks the ε bound against its closed form). */
static const char *NONPRIVATE =
    "{\"format\": \"ulaudit-attack/1\",\n"
    " \"data\": {\"source\": \"synthetic\", \"n\": 60, \"d\": 5, \"seed\": 2},\n"
    " \"model\": {\"type\": \"logreg\", \"lambda\": \"0.1\", \"clip\": 1},\n"
    " \"learner\": {\"sigma\": 0, \"init_std\": 0, \"train_steps\": 40, \"unlearn_steps\": 2},\n"
    " \"runs\": 64, \"chunk\": 32, \"claim\": {\"eps\": \"0.5\", \"delta\": \"1e-5\"},\n"
    " \"save_models\": true}\n";

Test(cli_attack, nonprivate_learner_refuted_and_files_written)
{
    char *dir = temp_dir();
    char *cfg = write_in(dir, "cfg.json", NONPRIVATE);
    char out[512];
    snprintf(out, sizeof out, "%s/out", dir);
    run_result r = run("attack", cfg, "--out", out, "--json", NULL);
    cr_assert_eq(r.status, 1, "exit %d, stderr %s", r.status, r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_not_null(o, "not JSON: %s", r.out);
    cr_assert_str_eq(field(o, "verdict"), "refuted");
    json_object_put(o);
    run_free(&r);
    cr_assert(exists(out, "result.json") && exists(out, "roc.png") && exists(out, "roc.csv"));
    cr_assert(exists(out, "models_in.npy") && exists(out, "models_out.npy"));
    cr_assert(!exists(out, "checkpoint.bin"), "the spent checkpoint must be removed");

    /* the saved models re-scored as released models give the same verdict
     * (gaussian-lr only: no target record given) */
    char in_npy[1100], out_npy[1100];
    snprintf(in_npy, sizeof in_npy, "%s/models_in.npy", out);
    snprintf(out_npy, sizeof out_npy, "%s/models_out.npy", out);
    r = run("attack", "--in-models", in_npy, "--out-models", out_npy, "--eps", "0.5", "--delta",
            "1e-5", NULL);
    cr_assert_eq(r.status, 1, "exit %d: %s %s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "verdict: refuted"), "%s", r.out);
    run_free(&r);
    rm_rf(dir);
    free(cfg), free(dir);
}

/* A run long enough to interrupt: 24 chunks of 8 runs. */
static const char *LONG =
    "{\"format\": \"ulaudit-attack/1\",\n"
    " \"data\": {\"source\": \"synthetic\", \"n\": 300, \"d\": 40, \"seed\": 5},\n"
    " \"model\": {\"type\": \"logreg\", \"lambda\": \"0.05\", \"clip\": 1},\n"
    " \"learner\": {\"sigma\": \"0.05\", \"train_steps\": 400, \"unlearn_steps\": 10},\n"
    " \"runs\": 192, \"chunk\": 8, \"seed\": 9, \"claim\": {\"eps\": 2, \"delta\": \"1e-5\"}}\n";

static pid_t spawn(const char *cfg, const char *out, bool resume)
{
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        if (resume)
            execl(ULAUDIT_BIN, ULAUDIT_BIN, "attack", cfg, "--out", out, "--resume", (char *)NULL);
        else
            execl(ULAUDIT_BIN, ULAUDIT_BIN, "attack", cfg, "--out", out, (char *)NULL);
        _exit(127);
    }
    return pid;
}

Test(cli_attack, ctrl_c_then_resume_matches_an_uninterrupted_run)
{
    char *dir = temp_dir();
    char *cfg = write_in(dir, "cfg.json", LONG);
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    /* a: uninterrupted */
    int status;
    pid_t pid = spawn(cfg, a, false);
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) <= 1, "status %d", status);
    /* b: interrupted once the first checkpoint exists, then resumed */
    pid = spawn(cfg, b, false);
    struct timespec ms = {0, 2000000};
    for (int i = 0; i < 20000 && !exists(b, "checkpoint.bin"); i++)
        nanosleep(&ms, NULL);
    cr_assert(exists(b, "checkpoint.bin"), "no checkpoint appeared");
    kill(pid, SIGINT);
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 130,
              "interrupted run: status %d (finished too soon?)", status);
    cr_assert(exists(b, "checkpoint.bin") && !exists(b, "result.json"));
    pid = spawn(cfg, b, true);
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) <= 1, "resumed run: status %d", status);
    char *ra = slurp(a, "result.json"), *rb = slurp(b, "result.json");
    cr_assert_str_eq(ra, rb, "resumed result differs");
    free(ra), free(rb);
    ra = slurp(a, "roc.csv"), rb = slurp(b, "roc.csv");
    cr_assert_str_eq(ra, rb);
    free(ra), free(rb);
    rm_rf(dir);
    free(cfg), free(dir);
}

/* Released models: IN ~ N(0.3, 1), OUT ~ N(0, 1) in 40 coordinates, 300 of
 * each.  The likelihood-ratio statistic then has mean separation
 * 0.3·√40 ≈ 1.9 standard deviations: far beyond eps = 0.05 (ceiling
 * (e^0.05 − 1)/(e^0.05 + 1) ≈ 0.025). */
static void write_models(const char *path, double shift, uint32_t seed, size_t k, size_t p)
{
    ul_model_set s = {.k = k, .p = p, .w = malloc(k * p * sizeof(double))};
    ul_rng_normals(seed, 0, 0, 0, k * p, s.w);
    for (size_t i = 0; i < k * p; i++)
        s.w[i] += shift;
    char err[256];
    cr_assert_eq(ul_modelio_write_npy(path, &s, err, sizeof err), UL_OK, "%s", err);
    free(s.w);
}

Test(cli_attack, released_models)
{
    char *dir = temp_dir();
    char in[512], same[512], out[512];
    snprintf(in, sizeof in, "%s/in.npy", dir);
    snprintf(same, sizeof same, "%s/same.npy", dir);
    snprintf(out, sizeof out, "%s/out.npy", dir);
    write_models(in, 0.3, 1, 300, 40);
    write_models(same, 0.0, 2, 300, 40);
    write_models(out, 0.0, 3, 300, 40);
    run_result r = run("attack", "--in-models", in, "--out-models", out, "--eps", "0.05", "--delta",
                       "0", "--json", NULL);
    cr_assert_eq(r.status, 1, "%s %s", r.out, r.err);
    json_object *o = json_tokener_parse(r.out);
    cr_assert_str_eq(field(o, "verdict"), "refuted");
    json_object_put(o);
    run_free(&r);
    r = run("attack", "--in-models", same, "--out-models", out, "--eps", "0.05", "--delta", "0",
            NULL);
    cr_assert_eq(r.status, 0, "%s %s", r.out, r.err);
    cr_assert(strstr(r.out, "verdict: consistent"), "%s", r.out);
    run_free(&r);

    /* a target record enables the loss score (40 features + label) */
    char row[2048] = "";
    for (int k = 0; k < 40; k++)
        strcat(row, "0.1,");
    strcat(row, "1\n");
    char *target = write_in(dir, "target.csv", row);
    r = run("attack", "--in-models", in, "--out-models", out, "--target", target, "--json", NULL);
    cr_assert_eq(r.status, 0, "%s %s", r.out, r.err);
    cr_assert(strstr(r.out, "\"loss\"") && strstr(r.out, "\"gaussian-lr\""), "%s", r.out);
    cr_assert(strstr(r.out, "\"no claim\""), "%s", r.out);
    run_free(&r);

    /* bad input about released models */
    expect_usage_error("--out-models", run("attack", "--in-models", in, NULL));
    expect_usage_error("/nonexistent.npy",
                       run("attack", "--in-models", "/nonexistent.npy", "--out-models", out, NULL));
    expect_usage_error("--delta",
                       run("attack", "--in-models", in, "--out-models", out, "--eps", "1", NULL));
    expect_usage_error("--delta", run("attack", "--in-models", in, "--out-models", out, "--eps",
                                      "1", "--delta", "2", NULL));
    expect_usage_error(
        "--format", run("attack", "--in-models", in, "--out-models", out, "--format", "f16", NULL));
    expect_usage_error("--scores", run("attack", "--in-models", in, "--out-models", out, "--scores",
                                       "loss", NULL));
    expect_usage_error("--target", run("attack", "--in-models", in, "--out-models", out, "--target",
                                       "/nonexistent.csv", NULL));
    rm_rf(dir);
    free(target), free(dir);
}

Test(cli_attack, bad_input)
{
    char *dir = temp_dir();
    char *cfg = write_in(dir, "cfg.json", NONPRIVATE);
    char *broken = write_in(dir, "broken.json", "{\"format\": \"ulaudit-attack/1\", \"data\": ");
    char *nan = write_in(dir, "nan.json",
                         "{\"format\": \"ulaudit-attack/1\", \"data\": {\"source\": "
                         "\"synthetic\", \"n\": 60, \"d\": 5}, \"model\": {\"type\": \"logreg\"}, "
                         "\"learner\": {\"sigma\": NaN, \"train_steps\": 4, \"unlearn_steps\": "
                         "1}}");
    char out[512];
    snprintf(out, sizeof out, "%s/never", dir);
    expect_usage_error("CONFIG", run("attack", NULL));
    expect_usage_error("--frobnicate", run("attack", cfg, "--frobnicate", "1", NULL));
    expect_usage_error("--threads", run("attack", cfg, "--threads", "0", NULL));
    expect_usage_error("--resume", run("attack", cfg, "--resume", NULL));
    expect_usage_error("save_models", run("attack", cfg, NULL));
    expect_usage_error("broken.json", run("attack", broken, "--out", out, NULL));
    expect_usage_error("$.learner.sigma", run("attack", nan, "--out", out, NULL));
    expect_usage_error("/nonexistent.json", run("attack", "/nonexistent.json", NULL));
    expect_usage_error("not allowed", run("attack", cfg, "--eps", "1", NULL));
    expect_usage_error("checkpoint", run("attack", cfg, "--out", out, "--resume", NULL));
    cr_assert(!exists(out, "result.json"), "no result file after an error");
    rm_rf(dir);
    free(cfg), free(broken), free(nan), free(dir);
}
