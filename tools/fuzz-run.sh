#!/bin/sh
# tools/fuzz-run.sh BUILD SECONDS HARNESS... — runs each libFuzzer harness
# BUILD/fuzz_<HARNESS> for SECONDS (make fuzz; seeds from tools/fuzz-seeds.sh).
#
# Per harness: the growing corpus in BUILD/corpus/<h>/ (kept between runs, so
# later runs start where earlier ones stopped), the seeds in BUILD/seeds/<h>/,
# the dictionary BUILD/dict/<h>.dict when there is one, findings (crash-*,
# leak-*, timeout-*, oom-*) in BUILD/artifacts/<h>/ and the log in
# BUILD/logs/<h>.log.  An input running over FUZZ_TIMEOUT seconds (default
# 30) is a finding too (issue 12: bounded time).  Prints one line per harness
# (executions, coverage: libFuzzer's cov = edges, ft = features, exec/s) and
# exits 1 when any harness found something.
set -u
build=$1 secs=$2
shift 2
timeout=${FUZZ_TIMEOUT:-30}
status=0
printf '%-15s %10s %7s %7s %7s  %s\n' harness executions cov ft exec/s result
for h in "$@"; do
    bin=$build/fuzz_$h
    [ -x "$bin" ] || { echo "fuzz-run: $bin not built (make fuzz-build)" >&2; exit 2; }
    mkdir -p "$build/corpus/$h" "$build/artifacts/$h" "$build/logs"
    log=$build/logs/$h.log
    dict=
    [ -f "$build/dict/$h.dict" ] && dict=-dict=$build/dict/$h.dict
    "$bin" -max_total_time="$secs" -timeout="$timeout" -rss_limit_mb=2560 -max_len=8192 \
        -print_final_stats=1 -artifact_prefix="$build/artifacts/$h/" $dict \
        "$build/corpus/$h" "$build/seeds/$h" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
    cov=$(printf '%s' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    ft=$(printf '%s' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    eps=$(printf '%s' "$last" | sed -n 's/.* exec\/s: \([0-9]*\).*/\1/p')
    result=ok
    if [ "$rc" -ne 0 ]; then
        result="FOUND (exit $rc): $(ls -t "$build/artifacts/$h" | head -1), see $log"
        status=1
    fi
    printf '%-15s %10s %7s %7s %7s  %s\n' "$h" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${eps:-?}" \
        "$result"
done
exit $status
