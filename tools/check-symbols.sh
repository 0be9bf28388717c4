#!/bin/sh
# tools/check-symbols.sh — the core library exports ul_/ulaudit_ names only
# (issue 25): a program or library linking libulaudit.a gets no name of ours
# that could collide with its own.  Run by `make test`.
#
#   tools/check-symbols.sh ARCHIVE [SHARED_LIBRARY]
#
# ARCHIVE (libulaudit.a, the core objects): every global symbol it defines
# (nm -g --defined-only) must start with ul_ or ulaudit_.  SHARED_LIBRARY
# (libulaudit.so): every dynamic symbol it defines must start with ulaudit_,
# the API of include/ulaudit.h (src/lib/ulaudit.map hides the rest).
# Offenders are listed one a line as "object: symbol"; exit 1 if any.
set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: tools/check-symbols.sh ARCHIVE [SHARED_LIBRARY]" >&2
    exit 2
fi
# Names the compiler or a sanitizer defines itself (ASan's ODR indicators,
# libFuzzer's coverage tables): not ours to name.
TOOLCHAIN='__odr_asan|__asan_|__sancov_|__start___sancov|__stop___sancov'
PREFIXES='ul_|ulaudit_'

status=0
# `nm -A` prints "archive:member:value type name", one line a symbol.
offenders=$(nm -A -g --defined-only "$1" | awk 'NF == 3 { sub(/:[^:]*$/, "", $1); print $1 ": " $3 }' |
    grep -Ev ": ($PREFIXES|$TOOLCHAIN)" || true)
if [ -n "$offenders" ]; then
    echo "check-symbols: $1 exports names without the ul_/ulaudit_ prefix:" >&2
    echo "$offenders" >&2
    status=1
fi
if [ $# -eq 2 ]; then
    offenders=$(nm -D --defined-only "$2" | awk 'NF == 3 { print $3 }' | grep -Ev "^(ulaudit_|$TOOLCHAIN)" || true)
    if [ -n "$offenders" ]; then
        echo "check-symbols: $2 exports names outside the ulaudit_ API (src/lib/ulaudit.map):" >&2
        echo "$offenders" | sed "s|^|$2: |" >&2
        status=1
    fi
fi
[ "$status" -eq 0 ] && echo "check-symbols: $1${2:+ and $2}: ul_/ulaudit_ names only"
exit "$status"
