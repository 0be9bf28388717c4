"""Every long call is bounded (max_seconds) and interruptible: Ctrl-C in the
calling thread raises the library's cancel flag, waits until the worker has
returned and re-raises KeyboardInterrupt: no call is left running."""
import math
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import ulaudit
from conftest import ROOT

# A pld-compose that runs for tens of seconds (4M-point FFTs; measured with
# `build/ulaudit calc pld-compose ... --max-seconds 20`: the budget ran out).
LONG = dict(sigma="0.8", q="0.01", steps="100000", eps="1", rel_width="1e-6")


def test_max_seconds_stops_a_long_quantity_with_time_budget_error():
    t0 = time.monotonic()
    with pytest.raises(ulaudit.TimeBudgetError) as ei:
        ulaudit.pld_compose(max_seconds=0.5, **LONG)
    assert ei.value.status == "time" and time.monotonic() - t0 < 5


def test_max_seconds_is_checked():
    for bad in (-1, float("nan"), float("-inf")):  # inf: no limit (as None)
        with pytest.raises(ulaudit.InputError) as ei:
            ulaudit.theta("1", "0.5", max_seconds=bad)
        assert ei.value.input == "max_seconds"


def test_audit_on_budget_is_inconclusive():
    # the corpus's slowest kind of audit (a PLD composition) under a budget far below it
    cert = os.path.join(ROOT, "audits", "dp-sgd-opacus-prv-test-vector.json")
    report = ulaudit.audit(cert, max_seconds=1e-6)
    assert report.verdict == "inconclusive"
    assert "time limit" in report["explanation"].lower()


CHILD = textwrap.dedent("""
    import sys, threading, time
    import ulaudit
    print("ready", flush=True)
    t0 = time.monotonic()
    try:
        ulaudit.pld_compose(**%r)
        print("finished", flush=True)
    except KeyboardInterrupt:
        # the call had returned before KeyboardInterrupt reached us: the worker is
        # idle, so the next call starts at once and is not cancelled
        t1 = time.monotonic()
        e = ulaudit.theta("1", "0.5")
        print("interrupted %%.3f threads %%d next %%.3f %%s %%s" %% (t1, threading.active_count(),
              time.monotonic() - t1, e.lo_str, e.hi_str), flush=True)
""")


def test_ctrl_c_interrupts_a_long_call_and_leaves_no_call_running():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.Popen([sys.executable, "-c", CHILD % LONG], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    assert p.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    words = out.split()
    assert words[0] == "interrupted", (out, err)
    latency = float(words[1]) - sent  # CLOCK_MONOTONIC is system-wide
    print("KeyboardInterrupt %.3f s after SIGINT" % latency)
    assert latency < 2.0
    assert int(words[3]) == 2  # the main thread and the idle worker, nothing else
    assert float(words[5]) < 1.0  # the worker was free: no call was left running
    # and not cancelled: theta_e(0.5) = Phi(-1.75) - e Phi(-2.25) (Balle & Wang 2018, Thm 8),
    # here in doubles (error far below 1e-15)
    phi = lambda x: 0.5 * math.erfc(-x / math.sqrt(2))
    closed = phi(-1.75) - math.e * phi(-2.25)
    assert float(words[6]) - 1e-15 <= closed <= float(words[7]) + 1e-15
