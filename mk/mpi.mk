# mk/mpi.mk — the MPI build of `ulaudit attack` (issue 16): $(BUILD)/ulaudit-mpi.
#
#   make mpi [BUILD=build]      build/ulaudit-mpi, with Debian's Open MPI
#                               (openmpi-bin, libopenmpi-dev: mpicc, mpirun)
#   mpirun -n K build/ulaudit-mpi attack CONFIG.json --out DIR
#
# One self-contained binary (no plugin): the core and attack objects of the
# plain build, linked by mpicc with src/emp/shard_mpi.c compiled again with
# -DUL_WITH_MPI (the gathering of records to rank 0) and -DUL_MPI_MAIN (a
# main that runs `attack` only).  When mpicc exists, `make test` builds it
# too, and the CLI tests run it under mpirun (they skip with a message
# otherwise).

MPICC    ?= mpicc
MPI_BIN   = $(BUILD)/ulaudit-mpi
MPI_SRC   = $(filter-out src/emp/shard_mpi.c,$(wildcard src/num/*.c src/bounds/*.c src/io/*.c src/cert/*.c src/audit/*.c \
              src/vectors/*.c src/emp/*.c)) src/cli/attack.c \
            $(wildcard src/cli/attack_scores.c src/cli/args.c)
MPI_OBJ   = $(MPI_SRC:%.c=$(BUILD)/obj/%.o)
MPI_MAIN  = $(BUILD)/obj/mpi/shard_mpi_main.o
HAVE_MPICC := $(shell command -v $(MPICC) 2>/dev/null)

.PHONY: mpi
mpi: $(MPI_BIN)

$(MPI_MAIN): src/emp/shard_mpi.c | $(DEPS_OK)
	@mkdir -p $(dir $@)
	@command -v $(MPICC) >/dev/null || { echo "make mpi: no $(MPICC): apt-get install openmpi-bin libopenmpi-dev" >&2; exit 1; }
	$(MPICC) $(CPPFLAGS) $(ALL_CFLAGS) -DUL_WITH_MPI -DUL_MPI_MAIN -c $< -o $@

$(MPI_BIN): $(MPI_MAIN) $(MPI_OBJ)
	$(MPICC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(MPI_MAIN) $(MPI_OBJ) $(LIBS) -o $@

ifneq ($(HAVE_MPICC),)
test: $(MPI_BIN)
endif

-include $(MPI_MAIN:.o=.d)
