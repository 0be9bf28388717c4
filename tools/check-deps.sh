#!/bin/sh
# Exit 0 when every library ulaudit needs is visible to the compiler.
# MPFI ships no pkg-config file on Debian, so its header is probed directly.
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
exit 0
