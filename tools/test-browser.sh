#!/bin/sh
# make test-browser: the HTML reports (src/report/html.h) loaded in a real
# browser, Debian's chromium headless, and checked (tests/browser/check_report.py,
# which drives ONE chromium over the DevTools protocol on a pipe,
# tests/browser/cdp.py): the file refers to nothing outside itself, no request
# leaves it, the verdict is in the DOM, every number shown is the --json
# report's, every figure draws (or says why it is missing) and so does the page.
#
#   tools/test-browser.sh BIN OUTDIR [--fixtures-only] [--update-screenshots]
#
# First the checker's own test, on tests/browser/fixtures/, in the same
# browser: the good pages must pass and each negative one (bad-*.html) must
# fail on the check it breaks.  Then the reports BIN writes with --html: one
# audit per method of audits/ (the quickest certificate of each), a refuted
# and a consistent `attack --scores`, and `attack
# examples/attack-{mlp,nonprivate}.json --out` (consistent, refuted); each page
# with the --json output of the same run (SOURCE_DATE_EPOCH=0).  A BIN whose
# audit or attack has no --html fails.  --fixtures-only skips the reports (to
# work on the checker alone).  --update-screenshots writes
# docs/img/report-audit.png and docs/img/report-attack.png (the top 1200x1600
# of two pages) for README.
#
# Chromium missing is a failure, not a skip: `make deps` installs it.
set -eu

CHROMIUM=${CHROMIUM:-chromium}
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
HERE=$(cd "$(dirname "$0")/.." && pwd)
CHECK="$PY $HERE/tests/browser/check_report.py"

# --audit BIN OUTDIR CERT: OUTDIR/audit-NAME.html and, from the same run,
# its --json report OUTDIR/audit-NAME.json.
if [ "${1:-}" = --audit ]; then
    name=audit-$(basename "$4" .json)
    SOURCE_DATE_EPOCH=0 "$2" audit "$4" --max-seconds 3 --html "$3/$name.html" --json \
        >"$3/$name.json" 2>"$3/$name.err" || true
    exit 0
fi

[ $# -ge 2 ] || { echo "usage: tools/test-browser.sh BIN OUTDIR [--fixtures-only] [--update-screenshots]" >&2; exit 2; }
BIN=$1 OUT=$2
shift 2
REPORTS=1 SHOTS=0
for a in "$@"; do
    case $a in
    --fixtures-only) REPORTS=0 ;;
    --update-screenshots) SHOTS=1 ;;
    *) echo "test-browser: unknown option $a" >&2; exit 2 ;;
    esac
done
if ! command -v "$CHROMIUM" >/dev/null 2>&1; then
    echo "test-browser: FAILED: no $CHROMIUM (Debian package chromium): make deps installs it" \
        "(CI's .ci/run calls make deps)" >&2
    exit 1
fi
rm -rf "$OUT"
mkdir -p "$OUT/fixtures" "$OUT/reports"
START=$(date +%s)
FIX=$HERE/tests/browser/fixtures

# NAME JSON HTML OUTPREFIX EXPECT lines of the pages to check (EXPECT: "-"
# must pass, else the check a negative fixture must fail).  audit and attack
# (a figure as cairo draws it) stand for the reports when there are none.
{ [ "$REPORTS" -eq 1 ] || printf '%s\n' "audit audit.json -" "attack attack.json -"
cat <<'FIXTURES'
good-mini mini.json -
good-missing-figure mini.json -
bad-external-img mini.json network
bad-blank-figure mini.json figure-pixels
bad-missing-no-why mini.json figures
bad-number mini.json numbers
bad-verdict mini.json verdict
bad-blank-page mini.json page-pixels
FIXTURES
} | while read -r name json expect; do
    echo "$name $FIX/$json $FIX/$name.html $OUT/fixtures/$name $expect"
done >"$OUT/pages.txt"

# NAME: one report page and its --json, written by the commands before.
report() {
    if [ ! -s "$R/$1.html" ] || [ ! -s "$R/$1.json" ]; then
        echo "test-browser: FAILED: $1: no report written:" >&2
        sed 's/^/    /' "$R/$1.err" >&2
        return 1
    fi
    echo "$1 $R/$1.json $R/$1.html $R/$1 -" >>"$OUT/pages.txt"
}

# The reports, appended to pages.txt as they are written.  --max-seconds 3:
# the certified privacy curve of a dp-sgd certificate (the PRV accountant
# at each point) takes 25-40 s otherwise; under a budget the curve has fewer
# points (src/audit/curve.h) and the audit itself, well within it, answers
# the same --json report.
make_reports() {
    # The quickest certificate of each method of audits/.
    AUDITS="d2d-m2-every-fact-stated-add-remove dp-sgd-abadi-2016-moments-accountant
        dp-sgd-group-cifar-k225 gaussian-one-minus-erf gradient-clipping-fig2-renyi-supported
        langevin-table3-mnist-eps2 model-clipping-cifar-r3.9-float32
        noisy-gd-thm51-stated-kabar0-exact-tie output-perturbation-classic-eps1
        rdp-curve-tfp-constant-bbghs"
    for c in $AUDITS; do echo "$HERE/audits/$c.json"; done |
        xargs -P 2 -n 1 "$0" --audit "$BIN" "$R"
    for c in $AUDITS; do report "audit-$c" || return 1; done
    [ "$ATTACK_HTML" -eq 1 ] || return 0
    S="--scores $HERE/examples/scores-gaussian-in.txt,$HERE/examples/scores-gaussian-out.txt --delta 1e-5"
    for eps in 2 5; do
        # shellcheck disable=SC2086
        SOURCE_DATE_EPOCH=0 "$BIN" attack $S --claim-eps $eps --html "$R/attack-scores-eps$eps.html" \
            --json >"$R/attack-scores-eps$eps.json" 2>"$R/attack-scores-eps$eps.err" || true
        report "attack-scores-eps$eps" || return 1
    done
    # The configured attacks, one consistent (mlp: a Renyi claim) and one
    # refuted (nonprivate: a noiseless learner); each page's numbers are
    # checked against the same run's result.json.
    for ex in mlp nonprivate; do
        SOURCE_DATE_EPOCH=0 "$BIN" attack "$HERE/examples/attack-$ex.json" --out "$R/attack-$ex" \
            --html "$R/attack-$ex.html" >/dev/null 2>"$R/attack-$ex.err" || true
        cp "$R/attack-$ex/result.json" "$R/attack-$ex.json" 2>/dev/null || true
        report "attack-$ex" || return 1
    done
}

R=$OUT/reports
SHOT_ARGS='' ATTACK_HTML=0 GEN=''
if [ "$REPORTS" -eq 1 ]; then
    if ! "$BIN" audit --help 2>&1 | grep -q -- --html; then
        echo "test-browser: FAILED: $BIN audit has no --html (--fixtures-only tests the checker alone)" >&2
        exit 1
    fi
    SHOT_ARGS="--shot $R/audit-gaussian-one-minus-erf.html=$HERE/docs/img/report-audit.png"
    if ! "$BIN" attack --help 2>&1 | grep -q -- --html; then
        echo "test-browser: FAILED: $BIN attack has no --html (is the plugin beside it?)" >&2
        exit 1
    fi
    ATTACK_HTML=1
    SHOT_ARGS="$SHOT_ARGS --shot $R/attack-nonprivate.html=$HERE/docs/img/report-attack.png"
    # In the background while chromium checks the fixtures; END whatever
    # happens, so that the checker stops waiting.
    { rc=0; make_reports || rc=$?; echo "$rc" >"$OUT/reports.rc"
      echo "test-browser: reports written in $(($(date +%s) - START)) s"; echo END >>"$OUT/pages.txt"; } &
    GEN=$!
else
    echo END >>"$OUT/pages.txt"
fi
[ "$SHOTS" -eq 1 ] && [ "$REPORTS" -eq 1 ] && mkdir -p "$HERE/docs/img" || SHOT_ARGS=

# The checker in the background too, so that an interrupt reaches this
# trap at once: it stops both (the checker kills its chromium on SIGTERM).
# shellcheck disable=SC2086
$CHECK run "$OUT/pages.txt" --chromium "$CHROMIUM" --log "$OUT/chromium.log" $SHOT_ARGS \
    >"$OUT/check.txt" &
CHK=$!
trap 'kill $GEN $CHK 2>/dev/null; exit 130' INT TERM
rc=0
wait "$CHK" || rc=$?
# The reports' writer ends soon after the checker (it writes END before
# the checker can stop waiting): wait for it, then judge both.
[ -z "$GEN" ] || wait "$GEN" || true
[ "$REPORTS" -eq 0 ] || [ "$(cat "$OUT/reports.rc" 2>/dev/null)" = 0 ] || rc=1
n=$(grep -vc '^END$' "$OUT/pages.txt")
if [ "$rc" -ne 0 ]; then
    echo "test-browser: FAILED ($n pages; outputs in $OUT, per page: NAME.check, .png," \
        ".fig-N.png, .dom.html, .requests.json)" >&2
    exit 1
fi
grep '^check_report: wrote' "$OUT/check.txt" || true
echo "test-browser: passed: $n pages and their figures in $(($(date +%s) - START)) s (outputs in $OUT)"
