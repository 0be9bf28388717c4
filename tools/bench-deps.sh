#!/bin/sh
# Installs what the benchmarks read: Fashion-MNIST (Debian package
# dataset-fashion-mnist, gzipped IDX files in /usr/share/datasets/fashion-mnist,
# read by tests/bench/bench_learner.c), and the Debian packages dp_accounting's
# PLD accountant imports (python3-scipy, python3-attr; numpy is in make deps),
# against which tests/bench/bench_python.py measures dpsgd_epsilon.
# dp_accounting itself is not in Debian and nothing here downloads it: the
# bench reads its sources from $DP_ACCOUNTING_SRC or a local git snapshot
# (see the header of tests/bench/bench_python.py).  Does nothing when all is
# there.  Exit 0 when everything is present afterwards, 1 when something could
# not be installed (the benchmark concerned then prints SKIPPED and passes).
# Run so by `make deps-bench`; `make bench` runs it with --check, which
# installs nothing.
set -eu

DIR=/usr/share/datasets/fashion-mnist
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
MISSING=""
[ -d "$DIR" ] || MISSING="dataset-fashion-mnist"
"$PY" -c 'import scipy' 2>/dev/null || MISSING="$MISSING python3-scipy"
"$PY" -c 'import attr' 2>/dev/null || MISSING="$MISSING python3-attr"

[ -z "$MISSING" ] && exit 0
[ "${1:-}" = "--check" ] && { echo "bench-deps: missing:$MISSING (make deps-bench)"; exit 1; }

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "bench-deps: need root (or sudo) to run apt-get install$MISSING" >&2
    exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "bench-deps: no apt-get here; install by hand:$MISSING (Fashion-MNIST: its four *-ubyte.gz files into $DIR)" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
if ! $SUDO apt-get install -y -qq --no-install-recommends $MISSING >/dev/null; then
    echo "bench-deps: apt-get install$MISSING failed (are they in this release's archive?)" >&2
    exit 1
fi
if [ ! -d "$DIR" ]; then
    echo "bench-deps: dataset-fashion-mnist is installed but $DIR is missing" >&2
    exit 1
fi
echo "bench-deps: installed$MISSING"
