#!/bin/sh
# tools/fuzz-deps.sh — makes sure clang can build libFuzzer harnesses and
# clang-sanitized tests (make fuzz, make test-clang-san): clang, its
# compiler-rt (libFuzzer, ASan, UBSan: Debian's libclang-rt-dev) and its
# OpenMP runtime (libomp-dev).  Does nothing when a test program links with
# -fsanitize=fuzzer,address,undefined -fopenmp; otherwise installs those
# Debian packages with apt-get (root or sudo).  Exit 0 when clang works
# afterwards, 1 when not.  Run so by `make deps-fuzz`; `make fuzz` and
# `make test-clang-san` run it with --check, which installs nothing and names
# the missing packages and `make deps-fuzz` in one line.
set -eu

PACKAGES="clang libclang-rt-dev libomp-dev"

works() {
    dir=$(mktemp -d)
    printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)\n{\n    (void)d, (void)n;\n    return 0;\n}\n' >"$dir/t.c"
    ok=0
    clang -fsanitize=fuzzer,address,undefined -fopenmp "$dir/t.c" -o "$dir/t" >/dev/null 2>&1 || ok=1
    rm -rf "$dir"
    return $ok
}

if command -v clang >/dev/null 2>&1 && works; then
    exit 0
fi
if [ "${1:-}" = "--check" ]; then
    echo "ulaudit: clang cannot build libFuzzer harnesses: missing Debian packages $PACKAGES;" \
        "install them with: make deps-fuzz (needs root or sudo)" >&2
    exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "fuzz-deps: need root (or sudo) to run apt-get install $PACKAGES" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "fuzz-deps: no apt-get here; install clang with its compiler-rt (libFuzzer) and libomp" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
if ! $SUDO apt-get install -y -qq --no-install-recommends $PACKAGES >/dev/null; then
    echo "fuzz-deps: apt-get install $PACKAGES failed" >&2
    exit 1
fi
if ! works; then
    echo "fuzz-deps: $PACKAGES installed but clang still cannot link a libFuzzer harness" >&2
    exit 1
fi
echo "fuzz-deps: installed $PACKAGES"
