#!/bin/sh
# Runs representative CLI commands (successes and input errors) under
# valgrind's memcheck; fails on any leak or memory error.
set -u
BIN=${1:-build/ulaudit}
if ! command -v valgrind >/dev/null 2>&1; then
    echo "make valgrind: missing Debian package: valgrind; install it with: make deps (needs root or sudo)" >&2
    exit 1
fi
status=0
run() {
    expect=$1
    shift
    valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
        --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 \
        "$BIN" "$@" >/dev/null 2>/tmp/ulaudit-vg.$$
    rc=$?
    if [ "$rc" -ne "$expect" ]; then
        echo "valgrind: '$*' exited $rc, expected $expect" >&2
        cat /tmp/ulaudit-vg.$$ >&2
        status=1
    fi
}
run 0 --help
run 0 calc --help
run 0 calc theta --eps 1 --r 0.5
run 0 calc theta --eps 1e6 --r 1e-4 --json
run 0 calc theta --eps -3 --r 2 --digits 40
run 0 calc theta --eps 0 --r 0
run 0 calc gauss-sigma --eps 1 --delta 1e-5 --sensitivity 2 --json
run 0 calc gauss-eps --r 0.5 --delta 1e-300
run 0 calc contraction --eps 1 --r 2 --steps 10 --delta0 0.1 --mode adaptive
run 0 calc contraction --eps 1 --r 2,2.5,3.9 --steps 3 --json
run 0 calc contraction-steps --eps 1 --r 1.5 --delta 1e-6 --mode adaptive
run 0 calc contraction-sigma --eps 1 --diameter 2 --steps 4 --delta 1e-5
run 0 calc rdp-to-dp --alpha 32 --rdp 0.5 --delta 1e-5
run 0 calc gauss-rdp-eps --r 0.5 --delta 1e-5 --json
run 0 calc sgm-rdp --q 0.01 --sigma 1.1 --alpha 2.5
run 2 calc contraction --eps 1 --r 2,3 --steps 3
run 2 calc rdp-to-dp --alpha 2 --rdp 0.5 --delta 1e-5 --conversion foo
run 0 calc noisygd-k --q 2 --l 1 --lambda 1 --beta 0 --sigma 1 --eta 0.5 --n 1 --eps-dd 0.01 --json
run 0 calc noisygd-sigma --kind g15 --q 2 --l 1 --eta 0.5 --n 100 --lambda 1 --beta 0 --kabar 10 --eps-dd 0.01 --json
run 0 calc model-clipping-t --eps 1 --c2 1 --sigma 1 --delta 1e-5 --mode adaptive --json
run 0 calc model-clipping-sigma --eps 1 --c2 1 --steps 8 --delta 1e-5 --sigma0 20 --c0 5 --json
run 0 calc output-perturbation-sigma --c0 1 --eps 10 --delta 1e-5
run 2 calc noisygd-sigma --kind g7 --q 2 --l 1 --eta 0.5 --n 10 --eps-dp 1
run 2 calc model-clipping-t --eps 1 --c2 0 --sigma 1 --delta 1e-5
run 2 calc output-perturbation-sigma --c0 1 --eps 0 --delta 1e-5
run 0 audit audits/gaussian-rdp-calibrated.json
run 1 audit audits/gaussian-one-minus-erf.json --json
run 1 audit audits/langevin-eta-above-1-over-L.json
run 1 audit audits/noisy-gd-thm51-renyi-read-as-eps.json
run 0 calibrate audits/output-perturbation-classic-eps10.json
run 2 audit tests/data/certs/bad/duplicate_key.json
run 2 audit tests/data/certs/bad/non_utf8.json
run 2 audit /nonexistent.json
VEC_DIR=$(mktemp -d)
run 0 vectors --only rdp-to-eps --out "$VEC_DIR"
run 2 vectors --only nosuch --out "$VEC_DIR"
rm -rf "$VEC_DIR"
run 2 calc theta --eps nan --r 1
run 2 calc theta --eps 1 --r -1
run 2 calc gauss-sigma --eps 1 --delta 2
run 2 calc theta --eps 1 --r 1.5x
run 2 calc nosuch --x 1
run 2 calc theta --eps 1
run 3 calc theta --eps 1 --r 1e-300 --max-bits 64
run 1 attack tests/data/attack-tiny.json --threads 1
run 1 attack tests/data/attack-tiny.json --threads 1 --json
run 2 attack /nonexistent.json
run 2 attack tests/data/attack-tiny.json --frobnicate 1
run 2 attack --in-models /nonexistent.npy --out-models /nonexistent.npy
rm -f /tmp/ulaudit-vg.$$
[ "$status" -eq 0 ] && echo "valgrind: CLI commands clean"
exit "$status"
