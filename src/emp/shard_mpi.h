/* src/emp/shard_mpi.h — an attack's runs split over MPI ranks.
 *
 * In the MPI build (mk/mpi.mk: build/ulaudit-mpi, compiled with
 * -DUL_WITH_MPI by Debian's mpicc) the ranks train in two phases: first
 * slice r/K of the chunks holding fitting runs of the gaussian-lr score
 * (emp/shard.h), whose records every rank then receives (ul_mpi_share), so
 * every rank knows the fit; then slice r/K of the other chunks, whose test
 * runs are scored as they are trained (no models kept).  Every rank sends
 * these records, as the bytes of a shard file, to rank 0, which merges them
 * (ul_attack_merge_stream) and alone writes the result.  The chunk grid, the Philox streams keyed by
 * run number and the fixed fold of the fit make result.json the same bytes
 * for every K.  In the plain build these are stubs: one rank, rank 0.
 */
#ifndef UL_EMP_SHARD_MPI_H
#define UL_EMP_SHARD_MPI_H

#include <stdbool.h>
#include <stddef.h>

#include "emp/attack.h"

/* true in the MPI build. */
bool ul_mpi_built(void);

/* MPI_Init (once); *rank, *size (0 and 1 in the plain build). */
void ul_mpi_start(int *argc, char ***argv, int *rank, int *size);
void ul_mpi_stop(void);

/* Ends every rank now with this exit code (MPI_Abort; exit() otherwise). */
void ul_mpi_abort(int code);

/* Sends this rank's records to rank 0 (the chunks done so far), where they
 * are merged into st; collective. */
ul_status ul_mpi_gather(ul_attack_state *st, int rank, int size, char *err, size_t errlen);

/* Every rank's records of its chunks [st->c0, st->next) to every rank
 * (MPI_Allgatherv), merged into each st: after the fitting phase, every
 * rank holds every fitting chunk and so the fit; collective. */
ul_status ul_mpi_share(ul_attack_state *st, int rank, int size, char *err, size_t errlen);

/* Broadcasts v from rank 0; collective. */
int ul_mpi_bcast_int(int v);

#endif
