#!/bin/sh
# make test-browser: the HTML reports (src/report/html.h) loaded in a real
# browser, Debian's chromium headless, and checked (tests/browser/check_report.py):
# no request leaves the file, the verdict is in the DOM, every number shown is
# the --json report's, every figure and the page draw pixels.
#
#   tools/test-browser.sh BIN OUTDIR [--fixtures-only] [--update-screenshots]
#
# First the checker's own test, on tests/browser/fixtures/: the good pages
# must pass and each negative one (bad-*.html) must fail on the check it
# breaks.  Then the reports BIN writes with --html: one audit per method of
# audits/ (the quickest certificate of each), a refuted and a consistent
# `attack --scores`, and `attack examples/attack-mlp.json --out`; each with
# its --json output of the same command (SOURCE_DATE_EPOCH=0 for both).
# --fixtures-only skips the reports (to work on the checker alone).
# --update-screenshots writes docs/img/report-audit.png and
# docs/img/report-attack.png (the top 1200x1600 of two pages) for README.
#
# Chromium missing is a failure, not a skip: `make deps` installs it.
set -eu

FLAGS="--headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
--no-default-browser-check --disable-background-networking --disable-component-update
--disable-sync --disable-extensions --disable-default-apps --mute-audio"
CHROMIUM=${CHROMIUM:-chromium}
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
HERE=$(cd "$(dirname "$0")/.." && pwd)
CHECK="$PY $HERE/tests/browser/check_report.py"

# --render PAGE PREFIX WIDTH HEIGHT: PREFIX.png (the window), PREFIX.dom.html
# (the DOM after load), PREFIX.net.json (Chromium's net log), PREFIX.log.
# As root (CI) Chromium's sandbox needs --no-sandbox; a fresh profile each
# time; 60 s at most.
if [ "${1:-}" = --render ]; then
    url=$("$PY" -c 'import pathlib, sys; print(pathlib.Path(sys.argv[1]).resolve().as_uri())' "$2")
    profile=$(mktemp -d "$3.profile.XXXXXX")
    # shellcheck disable=SC2086
    rc=0; timeout 60 "$CHROMIUM" $FLAGS --user-data-dir="$profile" --window-size="$4,$5" \
        --screenshot="$3.png" --log-net-log="$3.net.json" --dump-dom "$url" \
        >"$3.dom.html" 2>"$3.log" || rc=$?
    rm -rf "$profile"
    [ "$rc" -eq 0 ] && [ -s "$3.png" ] && exit 0
    echo "test-browser: FAILED: chromium exit $rc on $2 (log: $3.log)" >&2
    exit 1
fi

# --audit BIN OUTDIR CERT: OUTDIR/audit-NAME.html and .json.
if [ "${1:-}" = --audit ]; then
    name=audit-$(basename "$4" .json)
    SOURCE_DATE_EPOCH=0 "$2" audit "$4" --html "$3/$name.html" >/dev/null 2>"$3/$name.err" || true
    SOURCE_DATE_EPOCH=0 "$2" audit "$4" --json >"$3/$name.json" 2>>"$3/$name.err" || true
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

# NAME JSON CHECK: a fixture page, the --json it stands for, and the check
# it must fail ("-" for a page that must pass; figure-pixels is the figures
# page's check, its page checks must pass).  audit and attack (a figure as
# cairo draws it) stand for the reports when there are none.
{ [ "$REPORTS" -eq 1 ] || printf '%s\n' "audit audit.json -" "attack attack.json -"
cat <<'EOF'
good-mini mini.json -
bad-external-img mini.json network
bad-blank-figure mini.json figure-pixels
bad-number mini.json numbers
bad-verdict mini.json verdict
bad-blank-page mini.json page-pixels
EOF
} >"$OUT/fixtures.txt"

# NAME JSON HTML SET lines of the pages to check (SET: fixtures, reports;
# the outputs of NAME go to OUT/SET/NAME.*).
: >"$OUT/pages.txt"
while read -r name json _; do
    echo "$name $FIX/$json $FIX/$name.html fixtures" >>"$OUT/pages.txt"
done <"$OUT/fixtures.txt"

if [ "$REPORTS" -eq 1 ]; then
    if ! "$BIN" audit --help 2>&1 | grep -q -- --html; then
        echo "test-browser: FAILED: $BIN audit has no --html (--fixtures-only tests the checker alone)" >&2
        exit 1
    fi
    R=$OUT/reports
    # The quickest certificate of each method of audits/ (dp-sgd: one taking
    # about 1 s, not the 5-30 s PRV ones).
    for c in d2d-m2-every-fact-stated-add-remove dp-sgd-abadi-2016-moments-accountant \
        dp-sgd-group-cifar-k225 gaussian-one-minus-erf gradient-clipping-fig2-renyi-supported \
        langevin-table3-mnist-eps2 model-clipping-cifar-r3.9-float32 \
        noisy-gd-thm51-stated-kabar0-exact-tie output-perturbation-classic-eps1 \
        rdp-curve-tfp-constant-bbghs; do
        echo "$HERE/audits/$c.json"
    done | xargs -P 2 -n 1 "$0" --audit "$BIN" "$R"
    S="--scores $HERE/examples/scores-gaussian-in.txt,$HERE/examples/scores-gaussian-out.txt --delta 1e-5"
    for eps in 2 5; do
        # shellcheck disable=SC2086
        SOURCE_DATE_EPOCH=0 "$BIN" attack $S --claim-eps $eps --html "$R/attack-scores-eps$eps.html" \
            >/dev/null 2>"$R/attack-scores-eps$eps.err" || true
        # shellcheck disable=SC2086
        SOURCE_DATE_EPOCH=0 "$BIN" attack $S --claim-eps $eps --json \
            >"$R/attack-scores-eps$eps.json" 2>>"$R/attack-scores-eps$eps.err" || true
    done
    # The configured attack: its result.json is the same run's --json object.
    SOURCE_DATE_EPOCH=0 "$BIN" attack "$HERE/examples/attack-mlp.json" --out "$R/attack-mlp" \
        --html "$R/attack-mlp.html" >/dev/null 2>"$R/attack-mlp.err" || true
    cp "$R/attack-mlp/result.json" "$R/attack-mlp.json" 2>/dev/null || true
    for h in "$R"/*.html; do
        name=$(basename "$h" .html)
        if [ ! -s "$h" ] || [ ! -s "$R/$name.json" ]; then
            echo "test-browser: FAILED: $name: no report written:" >&2
            sed 's/^/    /' "$R/$name.err" >&2
            exit 1
        fi
        echo "$name $R/$name.json $h reports" >>"$OUT/pages.txt"
    done
    echo "test-browser: reports written in $(($(date +%s) - START)) s"
fi

# Every page in one window size, then every figure of every page in a cell
# of its own on one more page (tests/browser/check_report.py figures-page).
while read -r name _ html set; do
    echo "$html $OUT/$set/$name 1200 3000"
done <"$OUT/pages.txt" >"$OUT/render.txt"
# shellcheck disable=SC2046
size=$($CHECK figures-page "$OUT/figures.html" "$OUT/figures.layout.json" $(awk '{ print $3 }' "$OUT/pages.txt"))
echo "$OUT/figures.html $OUT/figures ${size%,*} ${size#*,}" >>"$OUT/render.txt"
xargs -P 4 -L 1 "$0" --render <"$OUT/render.txt"
echo "test-browser: chromium rendered $(wc -l <"$OUT/render.txt") pages in $(($(date +%s) - START)) s"

FAILED=0
while read -r name json html set; do
    dir=$OUT/$set
    expect=$(awk -v n="$name" '$1 == n { print $3 }' "$OUT/fixtures.txt")
    rc=0
    $CHECK page "$name" --html "$html" --dom "$dir/$name.dom.html" --netlog "$dir/$name.net.json" \
        --png "$dir/$name.png" --json "$json" >"$dir/$name.check" 2>&1 || rc=$?
    if [ -z "$expect" ] || [ "$expect" = - ] || [ "$expect" = figure-pixels ]; then
        [ "$rc" -eq 0 ] || { cat "$dir/$name.check" >&2; FAILED=1; }
    elif [ "$rc" -ne 1 ] || ! grep -q "^check_report: $name: $expect:" "$dir/$name.check"; then
        echo "test-browser: FAILED: negative fixture $name did not fail the $expect check:" >&2
        sed 's/^/    /' "$dir/$name.check" >&2
        FAILED=1
    fi
done <"$OUT/pages.txt"

# The figures: every cell must draw but bad-blank-figure's, which must not.
rc=0
$CHECK figures "$OUT/figures.layout.json" "$OUT/figures.png" >"$OUT/figures.check" 2>&1 || rc=$?
BLANK='^check_report: bad-blank-figure.html fig-1: '
if [ "$rc" -ne 1 ] || grep '^check_report: ' "$OUT/figures.check" | grep -qv "$BLANK" ||
    ! grep -q "${BLANK}figure-pixels: blank" "$OUT/figures.check"; then
    echo "test-browser: FAILED: the figures: each must draw, but bad-blank-figure's (blank):" >&2
    sed 's/^/    /' "$OUT/figures.check" >&2
    FAILED=1
fi

if [ "$SHOTS" -eq 1 ] && [ "$REPORTS" -eq 1 ] && [ "$FAILED" -eq 0 ]; then
    mkdir -p "$HERE/docs/img"
    $CHECK crop "$OUT/reports/audit-gaussian-one-minus-erf.png" "$HERE/docs/img/report-audit.png" 1200 1600
    $CHECK crop "$OUT/reports/attack-mlp.png" "$HERE/docs/img/report-attack.png" 1200 1600
    ls -l "$HERE/docs/img/report-audit.png" "$HERE/docs/img/report-attack.png"
fi

n=$(wc -l <"$OUT/pages.txt")
if [ "$FAILED" -ne 0 ]; then
    echo "test-browser: FAILED ($n pages; outputs in $OUT)" >&2
    exit 1
fi
echo "test-browser: passed: $n pages and their figures in $(($(date +%s) - START)) s (outputs in $OUT)"
