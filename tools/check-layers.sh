#!/bin/sh
# tools/check-layers.sh [BUILD] — the layer rule of issue 25: the library is
# the core, the command line a client of it.  Checks, over the objects of a
# build (default build/):
#   1. no object outside src/cli references a symbol defined in src/cli
#      (nm: undefined symbols of build/obj/src/<dir>/*.o against the global
#      symbols defined in build/obj/src/cli/*.o);
#   2. no file of src/lib or src/calc includes a header of src/cli;
#   3. every global symbol defined in src/calc and src/lib starts with ul_
#      or ulaudit_.
# Exits 1 naming each offending object, file or symbol; 0 when all hold.
set -eu
BUILD=${1:-build}
OBJ=$BUILD/obj/src
[ -d "$OBJ/cli" ] || { echo "check-layers: no objects in $OBJ/cli (build first)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

nm -g --defined-only "$OBJ"/cli/*.o | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/cli"
for dir in "$OBJ"/*/; do
    layer=$(basename "$dir")
    [ "$layer" = cli ] && continue
    for o in "$dir"*.o; do
        [ -e "$o" ] || continue
        nm -u "$o" | awk '{ print $NF }' | sort -u | comm -12 - "$tmp/cli" >"$tmp/bad"
        while read -r sym; do
            echo "check-layers: $o references $sym, defined in src/cli" >&2
            status=1
        done <"$tmp/bad"
    done
done

for f in $(grep -ln '#include "cli/' src/lib/*.[ch] src/calc/*.[ch] 2>/dev/null || true); do
    echo "check-layers: $f includes a header of src/cli" >&2
    status=1
done

for layer in calc lib; do
    for o in "$OBJ/$layer"/*.o; do
        [ -e "$o" ] || continue
        nm -g --defined-only "$o" | awk 'NF == 3 { print $3 }' |
            grep -Ev '^(ul_|ulaudit_)' |
            grep -Ev '^(__odr_asan|__asan_|__sancov_)' >"$tmp/names" || true # the sanitizers' own
        while read -r sym; do
            echo "check-layers: $o exports $sym (not ul_ or ulaudit_)" >&2
            status=1
        done <"$tmp/names"
    done
done
exit $status
