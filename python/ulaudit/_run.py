"""Running a long library call in a worker thread, bounded and interruptible.

The worker sets the thread's limits (ulaudit_limits_set: the time budget and
a cancel flag), makes the call, clears them and releases MPFR's per-thread
caches.  The caller's thread waits in short joins, so that Ctrl-C
(KeyboardInterrupt) reaches it at once; it then raises the cancel flag, which
the library's loops check as they check the budget, joins the worker (no
orphan work: nothing is left running) and re-raises KeyboardInterrupt.
"""
import ctypes
import math
import threading
from typing import Callable, Optional, Tuple, TypeVar

from . import _lib
from .errors import OK, InputError

T = TypeVar("T")
_POLL = 0.05  # seconds between the waiting thread's checks for Ctrl-C


def _budget(max_seconds: Optional[float]) -> float:
    if max_seconds is None:
        return 0.0
    if isinstance(max_seconds, bool):
        raise TypeError("max_seconds: a number of seconds is needed, not a bool")
    value = float(max_seconds)
    if not math.isfinite(value) or value < 0:
        raise InputError("input", "max_seconds: must be a finite number >= 0 (0 or None: no "
                         "limit), got %r" % (max_seconds,), "max_seconds")
    return value


def _wait_through_interrupts(done: threading.Event) -> None:
    while True:
        try:
            if done.wait(_POLL):
                return
        except KeyboardInterrupt:
            pass


def run(call: Callable[[], T], max_seconds: Optional[float]) -> T:
    """call() in a worker thread under the limits; its result or its exception."""
    budget = _budget(max_seconds)
    cancel = ctypes.c_int(0)
    box: list = []  # [(ok, value)] once the worker finished
    done = threading.Event()  # set by the worker as its last act

    def work() -> None:
        err = ctypes.create_string_buffer(_lib.ERR_LEN)
        try:
            st = _lib.fn("ulaudit_limits_set")(budget, ctypes.byref(cancel), err, _lib.ERR_LEN)
            if st != OK:
                raise InputError("input", err.value.decode(errors="replace"), "max_seconds")
            try:
                box.append((True, call()))
            finally:
                _lib.fn("ulaudit_limits_clear")()
        except BaseException as e:  # handed to the waiting thread
            box.append((False, e))
        finally:
            _lib.LIB.ulaudit_thread_cleanup()
            done.set()

    worker = threading.Thread(target=work, name="ulaudit-call", daemon=True)
    worker.start()
    try:
        while not done.wait(_POLL):
            pass
    except KeyboardInterrupt:
        cancel.value = 1
        _wait_through_interrupts(done)  # a second Ctrl-C must not orphan the worker either
        raise
    finally:
        # The worker has only its return left.  (Not join() with a timeout while it runs:
        # Python 3.11's join, interrupted by Ctrl-C, can mark a running thread stopped.)
        if done.is_set():
            worker.join()
    ok, value = box[0]
    if ok:
        return value
    raise value


def result_pair() -> Tuple[ctypes.c_void_p, ctypes.Array]:
    """A fresh (output pointer, error buffer) for one library call."""
    return ctypes.c_void_p(), ctypes.create_string_buffer(_lib.ERR_LEN)
