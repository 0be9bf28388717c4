#!/bin/sh
# Installs the Debian packages ulaudit builds and tests with.
# Run by `make deps` (and so by .ci/run) when tools/check-deps.sh --all finds
# a package missing; safe to run by hand at any time.  No other make target
# installs anything: they stop and name `make deps` instead.
# Open MPI (openmpi-bin: mpirun; libopenmpi-dev: mpicc) is for the optional
# MPI build (mk/mpi.mk): with it `make test` builds build/ulaudit-mpi and runs
# the MPI ranks test instead of skipping it.  python3-numpy and
# python3-matplotlib run examples/notebook.py (make test-example, test-pip);
# python3-venv gives `python3 -m venv` its pip (make test-pip: an offline
# `pip install ./python` in a venv).  chromium (headless) renders the HTML
# reports in make test-browser, part of make test.
set -eu

PACKAGES="build-essential pkg-config libgmp-dev libmpfr-dev libmpfi-dev \
libjson-c-dev libcriterion-dev nettle-dev valgrind librandom123-dev libopenblas-dev \
libcairo2-dev zlib1g-dev python3 python3-pytest python3-setuptools python3-wheel \
python3-numpy python3-matplotlib python3-venv openmpi-bin libopenmpi-dev chromium"

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "install-deps: need root (or sudo) to run apt-get install $PACKAGES" >&2
    exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: no apt-get here; install by hand: $PACKAGES" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $PACKAGES >/dev/null
echo "install-deps: installed $PACKAGES"
