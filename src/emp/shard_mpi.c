/* src/emp/shard_mpi.c — MPI gathering of an attack's records (emp/shard_mpi.h);
 * stubs unless compiled with -DUL_WITH_MPI. */
#include "emp/shard_mpi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef UL_WITH_MPI
#include <mpi.h>
#include <time.h>

#define PIECE ((size_t)1 << 30) /* bytes per MPI message (count is an int) */

/* Returns when every rank has called it, testing a non-blocking barrier
 * with sleeps in between (50 us doubling up to 2 ms).  Open MPI's blocking
 * calls poll at full speed: a rank that finished its share first, or that
 * waits while rank 0 certifies and writes the result, burned a core the
 * other ranks needed on the shared 2-core machine (tests/bench/bench_mpi.c:
 * 2 ranks took 1.3 to 1.6 times the CPU of 1 rank before this, under a
 * load average of 7).  Every collective below starts with it, so that the
 * ranks enter the collective together. */
static void quiet_barrier(void)
{
    MPI_Request req;
    int done = 0;
    long ns = 50000;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    while (MPI_Test(&req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done) {
        struct timespec ts = {0, ns};
        nanosleep(&ts, NULL);
        ns = ns < 2000000 ? 2 * ns : ns;
    }
}

bool ul_mpi_built(void)
{
    return true;
}

void ul_mpi_start(int *argc, char ***argv, int *rank, int *size)
{
    int on = 0;
    MPI_Initialized(&on);
    if (!on)
        MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
}

void ul_mpi_stop(void)
{
    int on = 0, off = 0;
    MPI_Initialized(&on);
    MPI_Finalized(&off);
    if (on && !off) {
        quiet_barrier();
        MPI_Finalize();
    }
}

void ul_mpi_abort(int code)
{
    fflush(stdout), fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, code);
    exit(code);
}

int ul_mpi_bcast_int(int v)
{
    quiet_barrier();
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return v;
}

static void send_bytes(const char *buf, uint64_t len)
{
    MPI_Send(&len, 1, MPI_UINT64_T, 0, 1, MPI_COMM_WORLD);
    for (uint64_t at = 0; at < len; at += PIECE) {
        size_t n = len - at < PIECE ? (size_t)(len - at) : PIECE;
        MPI_Send(buf + at, (int)n, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    }
}

/* Rank r's bytes into a fresh buffer (*len 0: it did no chunk). */
static char *recv_bytes(int r, uint64_t *len)
{
    MPI_Recv(len, 1, MPI_UINT64_T, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    char *buf = malloc(*len ? *len : 1);
    for (uint64_t at = 0; at < *len; at += PIECE) {
        size_t n = *len - at < PIECE ? (size_t)(*len - at) : PIECE;
        MPI_Recv(buf ? buf + at : NULL, buf ? (int)n : 0, MPI_BYTE, r, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    }
    return buf;
}

ul_status ul_mpi_share(ul_attack_state *st, int rank, int size, char *err, size_t errlen)
{
    ul_shard_id id = ul_attack_id(st);
    id.c1 = st->next;
    char *buf = NULL, *all = NULL;
    size_t len = 0;
    if (id.c1 > id.c0 && ul_shard_serialize(&st->log, &id, &buf, &len, err, errlen) != UL_OK)
        len = 0;
    long long mine = (long long)len, *lens = malloc((size_t)size * sizeof *lens);
    int *counts = malloc((size_t)size * sizeof *counts), *disp = malloc((size_t)size * sizeof *disp);
    ul_status s = lens && counts && disp ? UL_OK /* fixed by the rank count */
                                         : ul_fail(err, errlen, UL_ENOMEM,
                                                   "MPI: out of memory for %d ranks' lengths", size);
    quiet_barrier();
    if (s == UL_OK)
        MPI_Allgather(&mine, 1, MPI_LONG_LONG, lens, 1, MPI_LONG_LONG, MPI_COMM_WORLD);
    long long sum = 0;
    for (int r = 0; s == UL_OK && r < size; r++) {
        counts[r] = (int)lens[r], disp[r] = (int)sum;
        sum += lens[r];
    }
    if (s == UL_OK && sum > 0x7fffffff)
        s = ul_fail(err, errlen, UL_EINPUT, "MPI: the fitting records (%lld bytes) exceed 2 GiB; "
                    "use a larger chunk", sum);
    if (s == UL_OK && !(all = malloc(sum ? (size_t)sum : 1)))
        s = ul_fail(err, errlen, UL_ENOMEM,
                    "MPI: out of memory for the fitting records (%lld bytes)", sum);
    if (s != UL_OK)
        ul_mpi_abort(2); /* a collective cannot be left half-done */
    MPI_Allgatherv(buf, (int)len, MPI_BYTE, all, counts, disp, MPI_BYTE, MPI_COMM_WORLD);
    for (int r = 0; s == UL_OK && r < size; r++) {
        char name[64];
        snprintf(name, sizeof name, "(fitting records of MPI rank %d)", r);
        FILE *f = r != rank && lens[r] ? fmemopen(all + disp[r], (size_t)lens[r], "rb") : NULL;
        if (f) {
            s = ul_attack_merge_stream(st, f, name, err, errlen);
            fclose(f);
        }
    }
    free(buf), free(all), free(lens), free(counts), free(disp);
    return s;
}

ul_status ul_mpi_gather(ul_attack_state *st, int rank, int size, char *err, size_t errlen)
{
    quiet_barrier();
    if (rank != 0) {
        ul_shard_id id = ul_attack_id(st);
        id.c1 = st->next; /* the chunks done (all of them unless stopped) */
        char *buf = NULL;
        size_t len = 0;
        if (id.c1 > id.c0 && ul_shard_serialize(&st->log, &id, &buf, &len, err, errlen) != UL_OK)
            len = 0; /* sent as nothing done: rank 0 reports the gap */
        send_bytes(buf, len);
        free(buf);
        return UL_OK;
    }
    ul_status s = UL_OK;
    for (int r = 1; r < size; r++) {
        uint64_t len;
        char *buf = recv_bytes(r, &len);
        char name[64];
        snprintf(name, sizeof name, "(records of MPI rank %d)", r);
        if (s == UL_OK && !buf)
            s = ul_fail(err, errlen, UL_ENOMEM, "%s: out of memory for %llu bytes", name,
                        (unsigned long long)len);
        FILE *f = s == UL_OK && len ? fmemopen(buf, len, "rb") : NULL;
        if (f) {
            s = ul_attack_merge_stream(st, f, name, err, errlen);
            fclose(f);
        }
        free(buf);
    }
    return s;
}

#else

bool ul_mpi_built(void)
{
    return false;
}

void ul_mpi_start(int *argc, char ***argv, int *rank, int *size)
{
    (void)argc, (void)argv;
    *rank = 0, *size = 1;
}

void ul_mpi_stop(void) {}

void ul_mpi_abort(int code)
{
    exit(code);
}

int ul_mpi_bcast_int(int v)
{
    return v;
}

ul_status ul_mpi_gather(ul_attack_state *st, int rank, int size, char *err, size_t errlen)
{
    (void)st, (void)rank, (void)size, (void)err, (void)errlen;
    return UL_OK;
}

ul_status ul_mpi_share(ul_attack_state *st, int rank, int size, char *err, size_t errlen)
{
    (void)st, (void)rank, (void)size, (void)err, (void)errlen;
    return UL_OK;
}

#endif
