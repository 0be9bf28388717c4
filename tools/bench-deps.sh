#!/bin/sh
# Installs the data the benchmarks read: Fashion-MNIST (Debian package
# dataset-fashion-mnist, gzipped IDX files in /usr/share/datasets/fashion-mnist,
# read by tests/bench/bench_learner.c).  Does nothing when the directory is
# already there.  Exit 0 when the data is present afterwards, 1 when it could
# not be installed (bench_learner then prints SKIPPED and passes).  Run so by
# `make deps-bench`; `make bench` runs it with --check, which installs nothing.
set -eu

DIR=/usr/share/datasets/fashion-mnist
PACKAGE=dataset-fashion-mnist

if [ -d "$DIR" ]; then
    exit 0
fi
[ "${1:-}" = "--check" ] && exit 1

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "bench-deps: need root (or sudo) to run apt-get install $PACKAGE" >&2
    exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "bench-deps: no apt-get here; get Fashion-MNIST's four *-ubyte.gz files into $DIR by hand" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
if ! $SUDO apt-get install -y -qq --no-install-recommends "$PACKAGE" >/dev/null; then
    echo "bench-deps: apt-get install $PACKAGE failed (is it in this release's archive?)" >&2
    exit 1
fi
if [ ! -d "$DIR" ]; then
    echo "bench-deps: $PACKAGE is installed but $DIR is missing" >&2
    exit 1
fi
echo "bench-deps: installed $PACKAGE ($DIR)"
