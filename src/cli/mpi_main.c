/* src/cli/mpi_main.c — the main of build/ulaudit-mpi (mk/mpi.mk):
 * `ulaudit-mpi attack …` only, the runs split over the MPI ranks
 * (cli/attack.c starts MPI and splits them through emp/shard_mpi.h).
 *
 * Compiled with -DUL_MPI_MAIN by the MPI build alone.  The plain build
 * takes every .c file of src/cli into build/ulaudit (Makefile: CLI_SRC),
 * whose main is in cli/main.c: there this file defines nothing (an empty
 * object). */
#include "cli/attack.h"

#ifdef UL_MPI_MAIN
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    /* OpenMP threads that wait sleep instead of spinning (libgomp reads
     * OMP_WAIT_POLICY once, before main: hence the re-execution).  Spinning
     * threads took 6x the CPU of one thread on the shared 2-core machine
     * (tests/bench/bench_attack.c); an explicit OMP_WAIT_POLICY is kept. */
    if (!getenv("OMP_WAIT_POLICY") && setenv("OMP_WAIT_POLICY", "PASSIVE", 1) == 0)
        execv("/proc/self/exe", argv); /* on failure: go on spinning */
    if (argc >= 2 && strcmp(argv[1], "attack") == 0)
        return ul_cli_attack(argc - 2, argv + 2);
    fprintf(stderr, "usage: mpirun -n K ulaudit-mpi attack CONFIG.json --out DIR [--resume] "
                    "[--threads N] [--max-seconds S] [--json]\n"
                    "(the MPI build runs `attack` only; every other command is in ulaudit)\n");
    return 2;
}
#endif
