#!/bin/bash
# tools/output-snapshot.sh BIN OUTDIR [--attack] — every user-visible output of
# one build, for checking that a refactoring changes none (issue 25: "every
# output byte-identical before and after, or each difference explained").
#
# Writes, for each run, NAME.out (stdout), NAME.err (stderr) and NAME.rc (exit
# code) under OUTDIR: the help texts; every calc run of
# tests/data/snapshot/calc.txt, as text and --json; every --batch file of
# tests/data/snapshot/QUANTITY--FILE, as text and --json; every audits/
# certificate, text and --json; the reference vectors (their manifest holds
# each file's SHA-256); attack --scores on the examples; with --attack, also
# every examples/attack-*.json run (result.json, roc.csv; a minute or two).
# Times and the output directory's own path are masked.  Usage:
#
#   git worktree add /tmp/before HEAD~5 && make -C /tmp/before build/ulaudit
#   tools/output-snapshot.sh /tmp/before/build/ulaudit /tmp/snap-before
#   tools/output-snapshot.sh build/ulaudit /tmp/snap-after
#   diff -r /tmp/snap-before /tmp/snap-after
#
# Each build is run from its own checkout (its audits/ and examples/); the
# calc and batch inputs are this checkout's, so both sides run the same ones.
set -u
[ $# -ge 2 ] || { echo "usage: tools/output-snapshot.sh BIN OUTDIR [--attack]" >&2; exit 2; }
DATA=$(cd "$(dirname "$0")/../tests/data/snapshot" && pwd)
BIN=$(readlink -f "$1")
OUT=$(mkdir -p "$2" && cd "$2" && pwd)
ATTACK=${3:-}
cd "$(dirname "$BIN")/.." || exit 2
rm -rf "${OUT:?}"/*
mkdir -p "$OUT"/{help,calc,batch,audit,vectors,attack}
run() { local name=$1; shift; "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"; echo $? >"$OUT/$name.rc"; }
mask() { sed -i -E "s#$OUT#OUT#g; s#\"(seconds|elapsed)\":[0-9.e+-]+#\"\\1\":T#g; s#done \([0-9]+ s\)#done (T s)#" "$@"; }

run help/top "$BIN" --help
for c in calc audit calibrate attack vectors; do run "help/$c" "$BIN" "$c" --help; done
i=0
while IFS= read -r line; do
    i=$((i + 1)); n=$(printf %03d $i)
    # shellcheck disable=SC2086 # a line is a command line: split on spaces
    run "calc/$n" "$BIN" calc $line
    # shellcheck disable=SC2086
    run "calc/$n-json" "$BIN" calc $line --json
done <"$DATA/calc.txt"
for f in "$DATA"/*--*; do
    b=$(basename "$f"); q=${b%%--*}
    run "batch/$b" "$BIN" calc "$q" --batch "$f"
    run "batch/$b-json" "$BIN" calc "$q" --batch "$f" --json
done
for f in audits/*.json; do
    b=$(basename "$f" .json)
    run "audit/$b" "$BIN" audit "$f"
    run "audit/$b-json" "$BIN" audit "$f" --json
done
run vectors/run "$BIN" vectors --out "$OUT/vectors/files" --json
mask "$OUT/vectors/run.out"
S=examples/scores-gaussian-in.txt,examples/scores-gaussian-out.txt
run attack/scores "$BIN" attack --scores "$S" --claim-eps 2 --delta 1e-5
run attack/scores-json "$BIN" attack --scores "$S" --claim-eps 2 --delta 1e-5 --json
run attack/scores-sum "$BIN" attack --scores "$S" --delta 1e-5 --method sum
run attack/scores-bad "$BIN" attack --scores "$S" --claim-eps 2 --delta 1e-5 --method bogus
if [ "$ATTACK" = --attack ]; then
    for f in examples/attack-*.json; do
        b=$(basename "$f" .json)
        run "attack/$b" "$BIN" attack "$f" --out "$OUT/attack/$b" --json
        rm -f "$OUT/attack/$b/roc.png" "$OUT/attack/$b"/*.ckpt
        mask "$OUT/attack/$b.out" "$OUT/attack/$b.err" "$OUT/attack/$b"/*.json 2>/dev/null
    done
fi
exit 0
