#!/bin/sh
# Exit 0 when every library ulaudit needs is visible to the compiler; else
# print one line naming the missing Debian packages and the command that
# installs them (`make deps`, i.e. tools/install-deps.sh), and exit 1.
# Installs nothing: the build calls it before compiling (Makefile, DEPS_OK).
#
#   tools/check-deps.sh [--all] [--quiet]
#
# Open MPI (mpicc, mpirun) is optional: it is for the MPI build (mk/mpi.mk)
# and its test, which are skipped without it.  When it is missing this warns
# and still exits 0; with --all it counts as missing, so that `make deps`
# installs it with the rest (so does valgrind, for `make valgrind`).  --quiet prints nothing (exit status only).
ALL=0
QUIET=0
for a in "$@"; do
    case $a in
    --all) ALL=1 ;;
    --quiet) QUIET=1 ;;
    *) echo "check-deps: unknown option $a (use --all, --quiet)" >&2; exit 2 ;;
    esac
done

MISSING=""
need() { MISSING="$MISSING $1"; }
builds() { # builds HEADER [LIBS...]: a program including HEADER compiles and links
    h=$1; shift
    printf '#include <%s>\nint main(void){return 0;}\n' "$h" |
        ${CC:-cc} -x c - -o /dev/null "$@" 2>/dev/null
}

command -v "${CC:-cc}" >/dev/null 2>&1 && command -v make >/dev/null 2>&1 || need build-essential
command -v pkg-config >/dev/null 2>&1 || need pkg-config
# pkg-config module, Debian package (one pair a line).
while read -r mod pkg; do
    pkg-config --exists "$mod" 2>/dev/null || need "$pkg"
done <<'EOF'
gmp libgmp-dev
mpfr libmpfr-dev
json-c libjson-c-dev
criterion libcriterion-dev
nettle nettle-dev
openblas libopenblas-dev
cairo libcairo2-dev
zlib zlib1g-dev
EOF
# MPFI ships no pkg-config file on Debian: its header and library are probed.
builds mpfi.h -lmpfi -lmpfr -lgmp || need libmpfi-dev
# Random123 (Philox, used by src/emp/rng.c) is header-only: probe the header.
builds Random123/philox.h || need librandom123-dev
# The Python package's tests (make test) run Debian's python3 with python3-pytest.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
"$PY" -c 'import pytest' 2>/dev/null || need "python3 python3-pytest"
# ... and examples/notebook.py (make test-example) numpy and matplotlib.
"$PY" -c 'import numpy' 2>/dev/null || need python3-numpy
"$PY" -c 'import matplotlib' 2>/dev/null || need python3-matplotlib
# `python3 -m venv` with its pip (ensurepip) is for make test-pip, which says
# SKIPPED without it: with --all, so that make deps installs it.
[ "$ALL" -eq 0 ] || "$PY" -c 'import ensurepip, venv' 2>/dev/null || need python3-venv

# chromium renders the HTML reports in make test-browser (part of make test),
# which fails without it: with --all, so that make deps installs it; the build
# does not need it.
[ "$ALL" -eq 0 ] || command -v chromium >/dev/null 2>&1 || need chromium

# valgrind is for `make valgrind` (CI) only: with --all, so that make deps
# installs it.
[ "$ALL" -eq 0 ] || command -v valgrind >/dev/null 2>&1 || need valgrind

# Open MPI: mpicc must build an MPI program, and mpirun must be there.
MPICC=${MPICC:-mpicc}
if ! command -v mpirun >/dev/null 2>&1 ||
    ! printf '#include <mpi.h>\nint main(void){MPI_Init(0, 0); return MPI_Finalize();}\n' |
        "$MPICC" -x c - -o /dev/null 2>/dev/null; then
    if [ "$ALL" -eq 1 ]; then
        need "openmpi-bin libopenmpi-dev"
    elif [ "$QUIET" -eq 0 ]; then
        echo "check-deps: warning: no Open MPI ($MPICC, mpirun): the optional MPI build (make mpi)" \
            "and its test are skipped; make deps installs openmpi-bin libopenmpi-dev" >&2
    fi
fi

[ -z "$MISSING" ] && exit 0
[ "$QUIET" -eq 1 ] ||
    echo "ulaudit: missing Debian packages:$MISSING; install them with: make deps (needs root or sudo)" >&2
exit 1
