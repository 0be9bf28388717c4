/* tests/bench/bench_attack.c — the attack engine at scale (issue 16): runs
 * per second with 1 and 2 threads (and 1 and 2 MPI ranks when the MPI
 * build is there), and checkpoint bytes per run as the runs grow.
 *
 * The task: synthetic data (n = 1000, d = 50, rows of norm 1), logistic
 * regression, 60 PNGD steps and 10 unlearning steps per run, chunks of 64
 * runs, loss and gaussian-lr scores (emp/attack.h).  Times are
 * CLOCK_MONOTONIC wall time and CPU time (clock(), all threads) of the
 * whole chunk loop, checkpoint appends included.
 *
 * Checkpoint bytes: the file after the last chunk divided by the runs
 * (emp/shard.h: a record per chunk of 16 + 8·(2M + 4p or 2·n_test) + 32
 * bytes), beside what the format before it (version 02: every chunk
 * rewrote all models so far, 136 + 16·p·done + 32 bytes each time) would
 * have written in all: linear against quadratic.
 *
 * OpenMP's wait policy: passive (waiting threads sleep), as the attack
 * command runs, unless OMP_WAIT_POLICY is set or BENCH_SPIN=1 (libgomp's
 * default, spinning: measured 55.8 s CPU for 4096 runs with 2 threads
 * against 8.6 s with 1, under a load average of 11).
 *
 * Exit 0 whatever the times; 1 when a call fails.  The machine's load
 * average is printed: on a shared 2-core machine the thread and rank
 * speed-ups mean little when it is above 2.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "emp/attack.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static const char *CONFIG =
    "{\"format\": \"ulaudit-attack/1\",\n"
    " \"data\": {\"source\": \"synthetic\", \"n\": 1000, \"d\": 50, \"seed\": 5},\n"
    " \"model\": {\"type\": \"logreg\", \"lambda\": \"0.05\", \"clip\": 1},\n"
    " \"learner\": {\"sigma\": \"0.05\", \"train_steps\": 60, \"unlearn_steps\": 10},\n"
    " \"runs\": %zu, \"chunk\": 64, \"seed\": 9, \"claim\": {\"eps\": 2, \"delta\": \"1e-5\"}}\n";

static char *write_config(const char *dir, size_t runs)
{
    char *path = malloc(strlen(dir) + 32);
    sprintf(path, "%s/cfg-%zu.json", dir, runs);
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fprintf(f, CONFIG, runs);
    fclose(f);
    return path;
}

typedef struct {
    double wall, cpu;
    long long bytes;
    size_t p;
} measured;

/* All chunks of the configuration with a checkpoint in dir. */
static int measure(const char *cfg_path, const char *dir, int threads, measured *m)
{
    char err[1024], ck[600];
    ul_attack_config cfg;
    ul_attack_state st;
    omp_set_num_threads(threads);
    if (ul_attack_config_load(cfg_path, &cfg, err, sizeof err) != UL_OK ||
        ul_attack_prepare(&st, &cfg, err, sizeof err) != UL_OK) {
        fprintf(stderr, "bench_attack: %s\n", err);
        return 1;
    }
    snprintf(ck, sizeof ck, "%s/checkpoint.bin", dir);
    ul_status s = ul_attack_checkpoint_start(&st, ck, err, sizeof err);
    double t0 = now();
    clock_t c0 = clock();
    while (s == UL_OK && st.next < st.c1)
        s = ul_attack_step(&st, err, sizeof err);
    m->cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    m->wall = now() - t0;
    struct stat sb;
    m->bytes = stat(ck, &sb) == 0 ? (long long)sb.st_size : -1;
    m->p = st.p;
    if (s != UL_OK)
        fprintf(stderr, "bench_attack: %s\n", err);
    ul_attack_state_free(&st);
    ul_attack_config_free(&cfg);
    unlink(ck);
    return s == UL_OK ? 0 : 1;
}

/* Bytes the version-02 format wrote over a whole run: after every chunk
 * but the last, the header, all models so far and the checksum. */
static double v02_bytes(size_t runs, size_t chunk, size_t p)
{
    double total = 0;
    for (size_t done = chunk; done < runs; done += chunk)
        total += 136.0 + 16.0 * (double)p * (double)done + 32.0;
    return total;
}

/* mpirun -n K of the MPI build beside this benchmark's build, when both
 * exist: the wall time, or a negative number. */
static double mpi_wall(const char *cfg, const char *dir, int K)
{
    char exe[4096], cmd[9000];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 32);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    strcpy(slash, "/../ulaudit-mpi");
    if (access(exe, X_OK) != 0 || system("command -v mpirun >/dev/null 2>&1") != 0)
        return -1;
    snprintf(cmd, sizeof cmd,
             "OMP_WAIT_POLICY=passive mpirun %s --oversubscribe -n %d '%s' attack '%s' --out "
             "'%s/mpi' --threads 1 >/dev/null 2>&1",
             geteuid() == 0 ? "--allow-run-as-root" : "", K, exe, cfg, dir);
    double t0 = now();
    int st = system(cmd);
    return st == 0 || st == 256 ? now() - t0 : -1; /* exit 0 or 1 (refuted) */
}

int main(int argc, char **argv)
{
    (void)argc;
    /* as ulaudit attack runs (cli/mpi_main.c, cli/main.c): OpenMP threads
     * that wait sleep; libgomp reads the policy before main, hence the
     * re-execution.  BENCH_SPIN=1 measures libgomp's default (spinning). */
    if (!getenv("BENCH_SPIN") && !getenv("OMP_WAIT_POLICY") &&
        setenv("OMP_WAIT_POLICY", "PASSIVE", 1) == 0)
        execv("/proc/self/exe", argv);
    char dir[] = "/tmp/ul-bench-attack-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    double load[3] = {0};
    FILE *la = fopen("/proc/loadavg", "r");
    if (la && fscanf(la, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
        load[0] = -1;
    if (la)
        fclose(la);
    printf("bench_attack: synthetic n = 1000, d = 50, logreg, 60 + 10 steps per run, chunks of "
           "64, loss + gaussian-lr; load average %.2f; OMP_WAIT_POLICY=%s\n",
           load[0], getenv("OMP_WAIT_POLICY") ? getenv("OMP_WAIT_POLICY") : "(unset: spin)");
    printf("%7s %7s %9s %9s %10s %12s %14s\n", "runs", "threads", "wall s", "runs/s", "cpu s",
           "ckpt B/run", "v02 B written");
    int rc = 0;
    size_t sizes[3] = {256, 1024, 4096};
    double rate1 = 0;
    for (int i = 0; i < 3 && rc == 0; i++) {
        char *cfg = write_config(dir, sizes[i]);
        for (int threads = 1; threads <= 2 && rc == 0 && cfg; threads++) {
            if (i < 2 && threads == 2)
                continue; /* the thread comparison at the largest size only */
            measured m;
            rc = measure(cfg, dir, threads, &m);
            double rate = (double)sizes[i] / m.wall;
            printf("%7zu %7d %9.2f %9.1f %10.2f %12.1f %14.3g\n", sizes[i], threads, m.wall,
                   rate, m.cpu, (double)m.bytes / (double)sizes[i], v02_bytes(sizes[i], 64, m.p));
            if (i == 2 && threads == 1)
                rate1 = rate;
            else if (i == 2)
                printf("threads 2 / 1: %.2fx runs/s (cpu %s)\n", rate / rate1,
                       "includes any spin-waiting of idle threads");
        }
        if (i == 2 && cfg) {
            double w1 = mpi_wall(cfg, dir, 1), w2 = w1 > 0 ? mpi_wall(cfg, dir, 2) : -1;
            if (w1 > 0 && w2 > 0)
                printf("MPI ranks (1 thread each): 1 rank %.2f s, 2 ranks %.2f s: %.2fx "
                       "(target 1.8x on an idle machine)\n",
                       w1, w2, w1 / w2);
            else
                printf("MPI ranks: not measured (no build/ulaudit-mpi or mpirun: make mpi)\n");
        }
        if (cfg)
            unlink(cfg);
        free(cfg);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}
