# mk/mpi.mk — the MPI build of `ulaudit attack` (issue 16): $(BUILD)/ulaudit-mpi.
#
#   make mpi [BUILD=build]      build/ulaudit-mpi, with Debian's Open MPI
#                               (openmpi-bin, libopenmpi-dev: mpicc, mpirun)
#   mpirun -n K build/ulaudit-mpi attack CONFIG.json --out DIR
#
# One self-contained binary (no plugin): the objects of the -all archive
# (every object of the plain binary and of its plugin but src/cli/main.c:
# the Makefile's LIB_SRC), linked by mpicc with src/emp/shard_mpi.c compiled
# again with -DUL_WITH_MPI (the gathering of records to rank 0) and
# src/cli/mpi_main.c with -DUL_MPI_MAIN (a main that runs `attack` only;
# empty without it).
# When mpicc exists, `make test` builds it too (mpi-if-present below), and
# the CLI tests run it under mpirun (they skip with a message otherwise).

MPICC    ?= mpicc
MPI_BIN   = $(BUILD)/ulaudit-mpi
MPI_SRC   = $(filter-out src/emp/shard_mpi.c,$(LIB_SRC))
MPI_OBJ   = $(call obj,$(MPI_SRC))
MPI_MAIN  = $(BUILD)/obj/mpi/shard_mpi.o $(BUILD)/obj/mpi/mpi_main.o

.PHONY: mpi
mpi: $(MPI_BIN)

$(BUILD)/obj/mpi/shard_mpi.o: src/emp/shard_mpi.c
$(BUILD)/obj/mpi/mpi_main.o: src/cli/mpi_main.c
$(MPI_MAIN): | $(DEPS_OK)
	@mkdir -p $(dir $@)
	@command -v $(MPICC) >/dev/null || { echo "make mpi: no $(MPICC): apt-get install openmpi-bin libopenmpi-dev" >&2; exit 1; }
	$(MPICC) $(CPPFLAGS) $(ALL_CFLAGS) -DUL_WITH_MPI -DUL_MPI_MAIN -c $< -o $@

$(MPI_BIN): $(MPI_MAIN) $(MPI_OBJ)
	$(MPICC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(MPI_MAIN) $(MPI_OBJ) $(LIBS) -o $@

# `make test` (and `make bench`) builds $(MPI_BIN) when mpicc is there once the dependency step
# has run (tools/install-deps.sh installs openmpi-bin and libopenmpi-dev, so a
# fresh CI machine has it; a parse-time probe would miss it there), after the
# plain objects are built (the sub-make then compiles only the MPI main and
# links: no two makes compile one object).  The MPI test skips under the
# sanitizers, which build nothing for it.
.PHONY: mpi-if-present
mpi-if-present: $(LIB) $(PLUGIN) | $(DEPS_OK)
	@if command -v $(MPICC) >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1; then \
	    $(MAKE) --no-print-directory BUILD=$(BUILD) mpi; \
	else echo "make test: no $(MPICC)/mpirun: the MPI test skips (apt-get install openmpi-bin libopenmpi-dev)"; fi
ifneq ($(SAN),1)
test: mpi-if-present
endif
# bench_mpi (and bench_attack's rank line) run the MPI build beside them;
# bench_mpi's shards run the plain binary (and so its plugin).
bench: mpi-if-present
$(BUILD)/bench/bench_mpi: | $(BIN)

-include $(MPI_MAIN:.o=.d)
