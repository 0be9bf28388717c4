"""tests/bench/bench_python.py — the Python binding's costs, run by `make bench`
with Debian's python3 against build/ (ULAUDIT_LIBRARY, PYTHONPATH=python).

(a) Per-call overhead of the binding: ulaudit.theta(eps, r) from Python,
    called from the main thread (through the worker thread that makes Ctrl-C
    work) and from another thread (called directly), against the C entry it
    calls, ulaudit_calc("theta"), and the direct ulaudit_theta, from C
    through the same shared library (build/bench/bench_binding: a C loop,
    the call and the frees, nothing else), at the same case and 17 digits.
    CPU time of the process, median of batches: the machine's other load
    does not count.
(b) dpsgd_epsilon at a standard DP-SGD case (sigma 1.1, q 0.01, 10000 steps,
    delta 1e-5, add-remove) against dp_accounting's PLD accountant at the
    same case (PLDAccountant, its default discretisation 1e-4), both eps
    values and both times.  dp_accounting is not in Debian; its sources are
    read from $DP_ACCOUNTING_SRC (the directory holding the dp_accounting
    package, i.e. python/dp_accounting of github.com/google/differential-privacy),
    else build/dp_accounting/, which this script fills from a local git
    snapshot of that repository ($DP_ACCOUNTING_GIT, default
    /work/.mirror/google+differential-privacy/repo) with `git archive`:
    nothing is fetched.  Only dp_accounting.pld and dp_event are imported
    (numpy, scipy, attrs: Debian's python3-numpy, python3-scipy,
    python3-attr; make deps-bench), bypassing the package's __init__, which
    would pull absl and dm-tree for its RDP part.  Absent: SKIPPED.

Timings never fail the run; exit 1 only when a computation fails.
"""
import os
import subprocess
import sys
import threading
import time
import types

import ulaudit
from ulaudit.dpsgd import dpsgd_epsilon

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build"))
EPS, R = "1", "0.5"
CASE = dict(noise_multiplier="1.1", sample_rate="0.01", steps=10000, delta="1e-5")


def per_call(fn, calls, batches=9):
    """Median CPU seconds per call of fn() over batches of `calls` calls."""
    out = []
    for _ in range(batches):
        t0 = time.process_time()
        for _ in range(calls):
            fn()
        out.append((time.process_time() - t0) / calls)
    return sorted(out)[batches // 2]


def c_per_call():
    """(ulaudit_theta, ulaudit_calc "theta") CPU seconds per call from C."""
    exe = os.path.join(BUILD, "bench", "bench_binding")
    text = subprocess.run([exe, EPS, R, "1000"], check=True, capture_output=True, text=True).stdout
    words = text.split()
    return (float(words[words.index("c_theta_seconds_per_call") + 1]),
            float(words[words.index("c_calc_theta_seconds_per_call") + 1]))


def in_other_thread(fn):
    """fn() run in a fresh thread (where calls run directly: no Ctrl-C to serve)."""
    out = []
    t = threading.Thread(target=lambda: out.append(fn()))
    t.start()
    t.join()
    return out[0]


def bench_overhead(rounds=5):
    """The four measured in turn, `rounds` times; each figure is the median
    of its rounds (the C and Python runs then see the same machine load)."""
    direct, calc, main, other = [], [], [], []
    call = lambda: ulaudit.theta(EPS, R)
    for _ in range(rounds):
        d, c = c_per_call()
        direct.append(d)
        calc.append(c)
        main.append(per_call(call, 1000, 5))
        other.append(in_other_thread(lambda: per_call(call, 1000, 5)))
    d, c, m, o = (sorted(x)[rounds // 2] for x in (direct, calc, main, other))
    print("(a) theta(%s, %s), 17 digits, CPU per call (median of %d rounds):" % (EPS, R, rounds))
    print("    C ulaudit_theta (direct entry)            %9.2f us" % (d * 1e6))
    print("    C ulaudit_calc(\"theta\") (Python's entry) %9.2f us" % (c * 1e6))
    print("    Python ulaudit.theta, main thread         %9.2f us  (x%.2f of its C call; "
          "overhead %.2f us)" % (m * 1e6, m / c, (m - c) * 1e6))
    print("    Python ulaudit.theta, another thread      %9.2f us  (x%.2f of its C call; "
          "overhead %.2f us)" % (o * 1e6, o / c, (o - c) * 1e6))


def dp_accounting_src():
    env = os.environ.get("DP_ACCOUNTING_SRC")
    if env:
        return env if os.path.isdir(os.path.join(env, "dp_accounting")) else None
    dest = os.path.join(BUILD, "dp_accounting")
    pkg = os.path.join(dest, "python", "dp_accounting")
    git = os.environ.get("DP_ACCOUNTING_GIT", "/work/.mirror/google+differential-privacy/repo")
    if not os.path.isdir(os.path.join(pkg, "dp_accounting")) and os.path.isdir(git):
        os.makedirs(dest, exist_ok=True)
        archive = subprocess.run(["git", "--git-dir", git, "archive", "HEAD", "python/dp_accounting"],
                                 capture_output=True)
        if archive.returncode == 0:
            subprocess.run(["tar", "-x", "-C", dest], input=archive.stdout, check=True)
    return pkg if os.path.isdir(os.path.join(pkg, "dp_accounting")) else None


def dp_accounting_eps(src):
    """dp_accounting's PLD epsilon at CASE and its wall time (its own
    usage: a self-composed Poisson-sampled Gaussian event)."""
    stub = types.ModuleType("dp_accounting")  # skip __init__ (absl, dm-tree)
    stub.__path__ = [os.path.join(src, "dp_accounting")]
    sys.modules["dp_accounting"] = stub
    from dp_accounting import dp_event
    from dp_accounting.pld import pld_privacy_accountant
    t0 = time.perf_counter()
    acc = pld_privacy_accountant.PLDAccountant()
    event = dp_event.PoissonSampledDpEvent(float(CASE["sample_rate"]),
                                           dp_event.GaussianDpEvent(float(CASE["noise_multiplier"])))
    acc.compose(dp_event.SelfComposedDpEvent(event, CASE["steps"]))
    eps = acc.get_epsilon(float(CASE["delta"]))
    return eps, time.perf_counter() - t0


def bench_dpsgd():
    t0 = time.perf_counter()
    ours = dpsgd_epsilon(**CASE)
    t_ours = time.perf_counter() - t0
    print("(b) DP-SGD eps, sigma %(noise_multiplier)s, q %(sample_rate)s, %(steps)d steps, "
          "delta %(delta)s, add-remove:" % CASE)
    print("    ulaudit dpsgd_epsilon   [%s, %s]  %.3f s (wall)"
          % (ours.lo_str, ours.hi_str, t_ours))
    src = dp_accounting_src()
    if src is None:
        print("    dp_accounting PLD       SKIPPED (no sources: set DP_ACCOUNTING_SRC, see the "
              "header of tests/bench/bench_python.py)")
        return
    try:
        eps, t_dp = dp_accounting_eps(src)
    except ImportError as e:
        print("    dp_accounting PLD       SKIPPED (%s; make deps-bench)" % e)
        return
    inside = "inside" if ours.contains(repr(eps)) else "OUTSIDE"
    print("    dp_accounting PLD       %.17g  %.3f s (wall)  (%s the certified bracket)"
          % (eps, t_dp, inside))
    print("    time ratio ulaudit / dp_accounting: %.2f" % (t_ours / t_dp))


if __name__ == "__main__":
    print("bench_python: ulaudit %s from %s" % (ulaudit.version(), os.path.dirname(ulaudit.__file__)))
    bench_overhead()
    bench_dpsgd()
