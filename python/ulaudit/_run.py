"""Running a library call bounded (max_seconds) and interruptible (Ctrl-C).

Every call runs under the calling thread's limits (ulaudit_limits_set: a time
budget and a cancel flag the library's loops check as they check the budget).

Ctrl-C reaches Python only in the main thread, and only between bytecodes:
a C call made there would hold it off until the call returns.  So a call
made from the main thread runs in a worker thread while the main thread
waits in short waits, where KeyboardInterrupt does reach it; it then raises
the cancel flag, waits until the worker has returned (no orphan work: the
worker is idle again before KeyboardInterrupt propagates) and re-raises.

The worker is made once and kept (a daemon thread, idle between calls): a
thread per call cost ~0.5 ms of thread start-up and of MPFR's per-thread
caches rebuilt each time, 14x the C call of a θ (tests/bench/bench_python.py).
A call from any other thread, which Ctrl-C cannot interrupt, runs directly.
"""
import _thread
import ctypes
import math
import queue
import threading
from typing import Any, Callable, List, Optional, Tuple, TypeVar

from . import _lib
from .errors import OK, InputError, InputTypeError, collect, warn_cap

T = TypeVar("T")
_POLL = 0.05  # seconds between the waiting thread's checks for Ctrl-C


def _budget(max_seconds: Optional[float]) -> float:
    if max_seconds is None:
        return 0.0
    if isinstance(max_seconds, bool):
        raise InputTypeError("input", "max_seconds: a number of seconds is needed, not a bool",
                             "max_seconds")
    value = float(max_seconds)
    if value == math.inf:  # no limit, as None
        return 0.0
    if not math.isfinite(value) or value < 0:
        raise InputError("input", "max_seconds: must be a number >= 0 (0, inf or None: no "
                         "limit), got %r" % (max_seconds,), "max_seconds")
    return value


def _limited(call: Callable[[], T], budget: float, cancel: ctypes.c_int) -> T:
    """call() under ulaudit_limits_set(budget, &cancel), in the calling thread."""
    err = ctypes.create_string_buffer(_lib.ERR_LEN)
    st = _lib.fn("ulaudit_limits_set")(budget, ctypes.byref(cancel), err, _lib.ERR_LEN)
    if st != OK:
        raise InputError("input", err.value.decode(errors="replace"), "max_seconds")
    try:
        return call()
    finally:
        _lib.fn("ulaudit_limits_clear")()


class _Job:
    """One call handed to the worker: its outcome, and a lock held until it is known
    (a bare lock, not a threading.Event: the handoff is most of a short call's cost)."""

    def __init__(self, call: Callable[[], Any], budget: float) -> None:
        self.call, self.budget = call, budget
        self.cancel = ctypes.c_int(0)
        self.outcome: List[Tuple[bool, Any]] = []
        self.warnings: List[str] = []  # cap warnings, issued by the calling thread
        self.running = _thread.allocate_lock()
        self.running.acquire()

    def run(self) -> None:
        collect(self.warnings)
        try:
            self.outcome.append((True, _limited(self.call, self.budget, self.cancel)))
        except BaseException as e:  # handed to the waiting thread
            self.outcome.append((False, e))
        finally:
            collect(None)
            self.running.release()

    def wait(self) -> bool:
        """True once the call has returned; False after _POLL seconds (a lock's timed
        acquire returns to the interpreter on a signal: Ctrl-C is raised here)."""
        return self.running.acquire(timeout=_POLL)


class _Worker:
    """The main thread's worker: runs one job at a time, forever."""

    def __init__(self) -> None:
        self.jobs: "queue.SimpleQueue[_Job]" = queue.SimpleQueue()
        threading.Thread(target=self._loop, name="ulaudit-worker", daemon=True).start()

    def _loop(self) -> None:
        while True:
            self.jobs.get().run()


_worker: Optional[_Worker] = None
_worker_lock = threading.Lock()


def _the_worker() -> _Worker:
    global _worker
    with _worker_lock:
        if _worker is None:
            _worker = _Worker()
        return _worker


def _wait_through_interrupts(job: _Job) -> None:
    while True:
        try:
            if job.wait():
                return
        except KeyboardInterrupt:
            pass


def run(call: Callable[[], T], max_seconds: Optional[float]) -> T:
    """call() under the limits, interruptible by Ctrl-C; its result or its exception."""
    budget = _budget(max_seconds)
    if threading.current_thread() is not threading.main_thread():
        return _limited(call, budget, ctypes.c_int(0))
    job = _Job(call, budget)
    _the_worker().jobs.put(job)
    try:
        while not job.wait():
            pass
    except KeyboardInterrupt:
        job.cancel.value = 1
        _wait_through_interrupts(job)  # a second Ctrl-C must not orphan the call either
        raise
    ok, value = job.outcome[0]
    for message in job.warnings:
        warn_cap(message)
    if ok:
        return value
    raise value


def result_pair() -> Tuple[ctypes.c_void_p, ctypes.Array]:
    """A fresh (output pointer, error buffer) for one library call."""
    return ctypes.c_void_p(), ctypes.create_string_buffer(_lib.ERR_LEN)
