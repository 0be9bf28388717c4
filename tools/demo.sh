#!/bin/sh
# A short narrated tour of `ulaudit calc`, then `ulaudit audit` on a shipped
# real certificate, run by `make demo`.
#
#   tools/demo.sh [path/to/ulaudit]      (default: build/ulaudit)
#
# Exits 0 when every command behaved as expected (including the one bad
# input at the end, which must be refused with exit code 2), 1 otherwise.
set -u

BIN=${1:-build/ulaudit}
if [ ! -x "$BIN" ]; then
    echo "demo: no executable at '$BIN' (build it with: make)" >&2
    exit 1
fi

status=0

# say TEXT...: one narration paragraph.
say() {
    printf '\n'
    for line in "$@"; do
        printf '# %s\n' "$line"
    done
}

# show EXPECTED_EXIT ARG...: prints "$ ulaudit ARG...", runs it (stderr
# merged into stdout so the two stay in order) and checks the exit code.
show() {
    expect=$1
    shift
    echo "\$ ulaudit $*"
    "$BIN" "$@" 2>&1
    rc=$?
    if [ "$expect" -ne 0 ]; then
        echo "(exit status $rc)"
    fi
    if [ "$rc" -ne "$expect" ]; then
        echo "demo: 'ulaudit $*' exited $rc, expected $expect" >&2
        status=1
    fi
}

say "ulaudit calc: every number is an enclosure [lo, hi] of the true value," \
    "lo rounded down and hi rounded up, correct to the digits asked (default 17)."

say "(a) theta = E_{e^eps}(N(0,1) || N(r,1)), the Gaussian hockey-stick divergence," \
    "at eps = 5, r = 3.  The often-quoted bound 1.25*exp(-eps^2/(2 r^2)) is below" \
    "the true theta here: it is not an upper bound for eps above about 3.787."
show 0 calc theta --eps 5 --r 3

say "(b) delta far below the range of doubles (the smallest double is about 5e-324)." \
    "ulaudit works in log space, so even values beyond MPFR's exponent range print."
show 0 calc theta --eps 50 --r 1
show 0 calc theta --eps 1e6 --r 1e-4

say "(c) The smallest noise sigma (sensitivity 1) for (eps, delta) = (1, 1e-5)." \
    "hi is the certified safe choice: theta at that sigma is <= delta."
show 0 calc gauss-sigma --eps 1 --delta 1e-5

say "(d) The smallest eps reached by r = 0.5 at delta = 1e-10; hi is again safe."
show 0 calc gauss-eps --r 0.5 --delta 1e-10

say "(e) --json: one JSON object on stdout, decimal strings for every bound."
show 0 calc theta --eps 1 --r 0.5 --digits 30 --json

say "(f) Bad input: one line on stderr naming the flag, nothing on stdout, exit 2."
show 2 calc gauss-sigma --eps 1 --delta 1.5

# make demo runs from the repository root; elsewhere, find audits/ next to tools/
AUDITS=audits
[ -d "$AUDITS" ] || AUDITS=$(dirname "$0")/../audits
CERT=$AUDITS/output-perturbation-classic-eps10.json

say "ulaudit audit: a certificate file in, a verdict and its explanation out." \
    "This one is real: Koloskova et al.'s output-perturbation baseline calibrates" \
    "sigma with the classic Gaussian-mechanism rule 2*C0*sqrt(2 ln(1.25/delta))/eps," \
    "here at eps = 10, delta = 1e-5.  The exact privacy profile refutes the claim," \
    "the report says which sigma would reach it, and forensics names the faulty" \
    "recipe (exit status 1: claim rejected)."
show 1 audit "$CERT"

say "The same audit as JSON, at 6 digits (stable field names, documented in README)."
show 1 audit "$CERT" --json --digits 6

say "ulaudit calibrate fills in the smallest sigma (the certified safe end, rounded up)" \
    "for the same claim; the completed certificate audits as supported."
show 0 calibrate "$CERT" --digits 8

say "ulaudit attack runs the learner itself: Langevin unlearning of one record," \
    "512 runs in each world, attacked with the loss and likelihood-ratio scores." \
    "No attack beats the claim (1, 1e-5) (verdict consistent, exit 0); the auto" \
    "certificate is invalid, not supported: the learner trains for a finite T and" \
    "the theorem needs learning run to stationarity (its hypothesis is checked)."
show 0 attack examples/attack-synthetic.json --threads 2

say "A learner without noise claiming the same: the attack refutes it with a certified" \
    "empirical eps lower bound above 1 (exit 1)."
show 1 attack examples/attack-nonprivate.json

echo
if [ "$status" -eq 0 ]; then
    echo "demo: all commands behaved as expected"
else
    echo "demo: some commands did not behave as expected" >&2
fi
# README writes `ulaudit`: the binary just built is here, not on PATH (issue 31).
bindir=$(cd "$(dirname "$BIN")" && pwd)
echo "demo: the binary is $BIN; to type 'ulaudit' as README does: export PATH=$bindir:\$PATH"
echo "      (or install it into your home: README, Quick start; Python from the checkout: PYTHONPATH=python)"
exit "$status"
