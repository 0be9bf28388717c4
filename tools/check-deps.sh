#!/bin/sh
# Exit 0 when every library ulaudit needs is visible to the compiler.
# MPFI ships no pkg-config file on Debian, so its header is probed directly.
# Open MPI (mpicc, mpirun) is optional: it is for the MPI build (mk/mpi.mk)
# and its test, which are skipped without it.  When it is missing this warns
# and still exits 0; with --all it exits 1 instead, so that a caller can have
# tools/install-deps.sh install it with the rest.
ALL=0
[ "${1:-}" = "--all" ] && ALL=1
pkg-config --exists gmp mpfr json-c criterion nettle openblas cairo zlib 2>/dev/null || exit 1
printf '#include <mpfi.h>\nint main(void){return 0;}\n' |
    ${CC:-cc} -x c - -o /dev/null -lmpfi -lmpfr -lgmp 2>/dev/null || exit 1
# Random123 (Philox, used by src/emp/rng.c) is header-only: probe the header.
printf '#include <Random123/philox.h>\nint main(void){return 0;}\n' |
    ${CC:-cc} -x c - -o /dev/null 2>/dev/null || exit 1
# The Python package's tests (make test) run Debian's python3 with python3-pytest.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
"$PY" -c 'import pytest' 2>/dev/null || exit 1
# Open MPI: mpicc must build an MPI program, and mpirun must be there.
MPICC=${MPICC:-mpicc}
if ! command -v mpirun >/dev/null 2>&1 ||
    ! printf '#include <mpi.h>\nint main(void){MPI_Init(0, 0); return MPI_Finalize();}\n' |
        "$MPICC" -x c - -o /dev/null 2>/dev/null; then
    echo "check-deps: warning: no Open MPI ($MPICC, mpirun): the optional MPI build (make mpi)" \
        "and its test are skipped; tools/install-deps.sh installs openmpi-bin libopenmpi-dev" >&2
    [ "$ALL" -eq 1 ] && exit 1
fi
exit 0
