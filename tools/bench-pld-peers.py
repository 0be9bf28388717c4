#!/usr/bin/env python3
"""tools/bench-pld-peers.py — issue 29's table ("PLD at the speed of the peers at
every scale"): ulaudit's certified PLD brackets beside dp_accounting's PLD and RDP
accountants on the same cases, and the DP-SGD audits timed.  Run by `make bench`
after build/bench/bench_pld_targets, or by hand:

    python3 tools/bench-pld-peers.py [ROWS.jsonl] [--bin build/ulaudit]

ROWS.jsonl (default build/bench/bench_pld_targets.jsonl) holds the rows that
bench_pld_targets measured (one JSON object per line: the case, its inputs, the
certified bracket, CPU and wall seconds of the call, the issue's goal); they are
read, not rerun.  Then:

  (a) `ulaudit audit` on each audits/dp-sgd-*.json, the child's CPU time
      (resource.getrusage(RUSAGE_CHILDREN), user + system); goal <= 0.5 s CPU each.
  (b) dp_accounting on each row, each case in a child process (a 180 s timeout and
      an 8 GB address-space limit, so a peer that runs away is reported, not
      waited for), its CPU time measured inside the child around the accountant
      calls only (time.process_time, imports excluded):
        PLD  pld_privacy_accountant.PLDAccountant(value_discretization_interval=h),
             composed with SelfComposedDpEvent(PoissonSampledDpEvent(q,
             GaussianDpEvent(sigma)), T) (GaussianDpEvent alone when q = 1), then
             get_delta(eps) or get_epsilon(delta): its own usage.  h (interval()):
             1e-4, its default, on the rows asking a width >= 1e-4 (measured: its
             value then lies within 2e-5 relative of the certified value on the
             DP-SGD and T = 10^6 cases, inside ulaudit's 1e-3 brackets or just
             above them) and on the Gaussian row (a self-composed Gaussian is one
             closed-form Gaussian there: 1e-13 from the exact theta at 1e-4);
             10 x the width asked on the subsampled rows asking less (1e-5 for
             width 1e-6, 1e-6 for 1e-7: its error scales about linearly with h,
             1.6e-5 relative at 1e-4 on the T = 10^4 case, 1.6e-7 at 1e-5; but
             at 1e-6 it measured 4.7e-6 above the certified bracket, farther than
             at 1e-5, in 43 s: no h tried reaches 1e-7 there).  Where its value falls against the certified
             bracket is printed beside it (BELOW = an understatement of the
             privacy loss, the side that hurts users).
        RDP  rdp.rdp_privacy_accountant.RdpAccountant() (its default orders), the
             same event, get_delta / get_epsilon: an upper bound, shown for scale.
      dp_accounting's sources come from $DP_ACCOUNTING_SRC (the directory holding
      the dp_accounting package), else the local git snapshot of
      tools/vectors-check-peers.py ($DP_ACCOUNTING_GIT, default
      /work/.mirror/google+differential-privacy/repo), extracted with `git archive`
      into a temporary directory by that script's helpers: nothing is fetched.
      Without them, or without numpy, scipy and attrs, that part prints one
      SKIPPED line.

The goal column is the issue's; PASS/MISS is informative.  The Gaussian row's goal
(<= dp_accounting's time) is judged here against the time measured here.  Exit 0
always (a benchmark: the table is the result), except 1 when ROWS.jsonl says a call
failed or a bracket failed its check (bench_pld_targets has then failed too).
"""
import glob
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import types

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TIMEOUT = 180         # seconds of wall time per dp_accounting case
MEMORY = 8 << 30      # bytes of address space per dp_accounting case
AUDIT_GOAL = 0.5      # CPU seconds per audit (issue 29)


def peers_helpers():
    """tools/vectors-check-peers.py as a module (its extract and absl_stand_in)."""
    sys.dont_write_bytecode = True  # no __pycache__ in tools/ when run by hand
    spec = importlib.util.spec_from_file_location(
        "vectors_check_peers", os.path.join(ROOT, "tools", "vectors-check-peers.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def bench_audits(exe):
    """(a): each DP-SGD audit's CPU and wall time."""
    files = sorted(glob.glob(os.path.join(ROOT, "audits", "dp-sgd-*.json")))
    print("(a) ulaudit audit on audits/dp-sgd-*.json (goal: <= %g s CPU each)" % AUDIT_GOAL)
    print("    %-52s %7s %7s %5s  %s" % ("audit", "CPU s", "wall s", "exit", "goal"))
    met = 0
    for f in files:
        c0, w0 = children_cpu(), time.perf_counter()
        rc = subprocess.run([exe, "audit", f], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL).returncode
        cpu, wall = children_cpu() - c0, time.perf_counter() - w0
        met += cpu <= AUDIT_GOAL
        print("    %-52s %7.2f %7.2f %5d  %s" % (os.path.basename(f), cpu, wall, rc,
                                               "PASS" if cpu <= AUDIT_GOAL else "MISS"))
    print("    %d of %d within the goal\n" % (met, len(files)))


def dp_accounting_src(tmp):
    """The directory holding the dp_accounting package, or (None, why)."""
    env = os.environ.get("DP_ACCOUNTING_SRC")
    if env:
        ok = os.path.isdir(os.path.join(env, "dp_accounting"))
        return (env, "DP_ACCOUNTING_SRC") if ok else (None, "no dp_accounting in " + env)
    root, head = peers_helpers().extract("DP_ACCOUNTING_GIT", "google+differential-privacy",
                                         ["python/dp_accounting/dp_accounting"], tmp)
    if root is None:
        return None, head
    return os.path.join(root, "python", "dp_accounting"), "snapshot " + head


def interval(row):
    """dp_accounting's value_discretization_interval for the row (see above)."""
    if row["rel_width"] >= 1e-4 or row["q"] == "1":
        return 1e-4
    return 10 * row["rel_width"]


def peer_case(src, row):
    """In the child: dp_accounting's RDP then PLD value on the row, one JSON
    line each, flushed (a PLD that times out still leaves the RDP line)."""
    peers_helpers().absl_stand_in()
    stub = types.ModuleType("dp_accounting")  # skip __init__ (dm-tree)
    stub.__path__ = [os.path.join(src, "dp_accounting")]
    sys.modules["dp_accounting"] = stub
    from dp_accounting import dp_event
    from dp_accounting.pld import pld_privacy_accountant
    from dp_accounting.rdp import rdp_privacy_accountant
    event = dp_event.GaussianDpEvent(float(row["sigma"]))
    if float(row["q"]) < 1:
        event = dp_event.PoissonSampledDpEvent(float(row["q"]), event)
    event = dp_event.SelfComposedDpEvent(event, row["steps"])
    at = float(row["at"])
    for name, make in (("rdp", rdp_privacy_accountant.RdpAccountant),
                       ("pld", lambda: pld_privacy_accountant.PLDAccountant(
                           value_discretization_interval=interval(row)))):
        t0 = time.process_time()
        try:
            acc = make()
            acc.compose(event)
            value = acc.get_delta(at) if row["query"] == "delta" else acc.get_epsilon(at)
            out = {"value": float(value)}
        except Exception as e:  # a peer's failure is a result, reported as such
            out = {"error": "%s: %s" % (type(e).__name__, e)}
        out.update(name=name, cpu=time.process_time() - t0)
        print(json.dumps(out), flush=True)


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run_peer(src, row):
    """dp_accounting on the row in a child: {"rdp": {...}, "pld": {...}}."""
    cmd = [sys.executable, os.path.abspath(__file__), "--peer-case", src, json.dumps(row)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT,
                           preexec_fn=limit_memory)
        text, why = p.stdout, "exit %d: %s" % (p.returncode, (p.stderr.strip().splitlines()
                                                              or [""])[-1][:60])
    except subprocess.TimeoutExpired as e:
        text = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        why = "timeout %d s" % TIMEOUT
    out = {}
    for line in text.splitlines():
        try:
            r = json.loads(line)
            out[r["name"]] = r
        except (ValueError, KeyError):
            pass
    for name in ("rdp", "pld"):
        out.setdefault(name, {"error": why})
    return out


def against(value, lo, hi):
    """Where a peer's value falls against the certified bracket [lo, hi]."""
    if lo <= value <= hi:
        return "inside"
    side, edge = ("above", hi) if value > hi else ("BELOW", lo)
    return "%s %.1e rel" % (side, abs(value - edge) / abs(edge)) if edge else side


def fmt_peer(r, lo=None, hi=None):
    if "value" not in r:
        return "%-7s %s" % ("-", r["error"][:44])
    where = "" if lo is None else "  " + against(r["value"], lo, hi)
    return "%7.2f %.10g%s" % (r["cpu"], r["value"], where)


def rel_width(lo, hi):
    """(hi - lo)/hi; inf for [0, inf]."""
    return float("inf") if hi == float("inf") else (hi - lo) / hi if hi > 0 else 0.0


def ours_pass(row, peer_cpu):
    """The row's PASS/MISS; the Gaussian row's goal is dp_accounting's time."""
    if row["id"] != "gauss-T10" or peer_cpu is None:
        return row["pass"]
    lo, hi = float(row["lo"]), float(row["hi"])
    return rel_width(lo, hi) <= row["rel_width"] and row["cpu"] <= peer_cpu


def bench_rows(rows, src, note):
    print("(b) issue 29 rows: ulaudit's certified bracket (bench_pld_targets)%s" % (
        " beside dp_accounting (%s)" % note if src else ""))
    for row in rows:
        lo, hi = float(row["lo"]), float(row["hi"])
        peer = run_peer(src, row) if src else None
        pld_cpu = peer["pld"].get("cpu") if peer and "value" in peer["pld"] else None
        ok = ours_pass(row, pld_cpu)
        goal = row["goal"]
        if row["id"] == "gauss-T10" and pld_cpu is not None:
            goal += "; measured here: %.2f s" % pld_cpu
        print("  %s  [goal: %s]  %s" % (row["label"], goal, "PASS" if ok else "MISS"))
        print("    ulaudit PLD  %7.2f [%s, %s]  rel width %.2e%s" % (
            row["cpu"], row["lo"], row["hi"], rel_width(lo, hi),
            "" if row["status"] == "ok" else "  (%s: %s)" % (row["status"], row["message"])))
        if peer:
            print("    dp_acc PLD   %s  (h = %g)" % (fmt_peer(peer["pld"], lo, hi), interval(row)))
            print("    dp_acc RDP   %s" % fmt_peer(peer["rdp"]))
    print("  (CPU seconds: ulaudit's of the one call, dp_accounting's of compose + query)")


def main(argv):
    if len(argv) > 2 and argv[1] == "--peer-case":
        peer_case(argv[2], json.loads(argv[3]))
        return 0
    exe = os.path.join(ROOT, "build", "ulaudit")
    if "--bin" in argv:
        exe = argv[argv.index("--bin") + 1]
        argv = [a for a in argv if a not in ("--bin", exe)]
    path = argv[1] if len(argv) > 1 else os.path.join(ROOT, "build", "bench",
                                                       "bench_pld_targets.jsonl")
    print("bench-pld-peers: issue 29 (PLD speed), ulaudit beside dp_accounting")
    bench_audits(exe)
    if not os.path.exists(path):
        print("(b) SKIPPED: no %s (run build/bench/bench_pld_targets first)" % path)
        return 0
    with open(path) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    with tempfile.TemporaryDirectory(prefix="ulaudit-pld-peers-") as tmp:
        try:
            import attr  # noqa: F401  (attrs: dp_accounting's dp_event)
            import numpy  # noqa: F401
            import scipy  # noqa: F401
            src, note = dp_accounting_src(tmp)
        except ImportError as e:
            src, note = None, "%s (dp_accounting needs numpy, scipy, attrs)" % e
        if src is None:
            print("    dp_accounting SKIPPED: %s" % note)
        bench_rows(rows, src, note)
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
