"""The exceptions of ulaudit and the translation of a library status into them."""
import os
import re
import sys
import threading
import warnings
from typing import List, Optional

OK, EINPUT, ECAP, ENOROOT, ETIME, ENOMEM, ECANCEL = range(7)
STATUS_NAMES = {OK: "ok", EINPUT: "input", ECAP: "cap", ENOROOT: "noroot", ETIME: "time",
                ENOMEM: "memory", ECANCEL: "cancelled"}
# A message names its input first: "--r: ...", "$.parameters.sigma: ...", possibly after
# the command's own prefix ("calc pld-compose: --eps: ...").
_INPUT = re.compile(r"^(?:[^:]*: )?(--[A-Za-z0-9][\w-]*|\$[^\s:]*):")


def input_name(message: str) -> Optional[str]:
    """The flag (without dashes) or JSON path a library message starts with, else None."""
    m = _INPUT.match(message)
    if not m:
        return None
    name = m.group(1)
    return name[2:] if name.startswith("--") else name


class UlauditError(Exception):
    """A library error.

    Attributes: ``status`` (the ulaudit_status name: "input", "noroot", "time",
    "memory", "cancelled"), ``message`` (the library's one-line message, which
    names the input and the rule broken) and ``input`` (the flag, without
    dashes, or the certificate's JSON path the message starts with; None when
    it names none)."""

    def __init__(self, status: str, message: str, input: Optional[str] = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.input = input if input is not None else input_name(message)


class InputError(UlauditError, ValueError):
    """An input outside the quantity's domain, an unknown flag, a bad file or certificate.

    Every bad argument raises an InputError whose ``.input`` names it (the Python
    argument, an index of a vectorised call, a JSON path); an argument of a wrong
    Python type (a bool, a list where a number goes) raises :class:`InputTypeError`,
    which is both an InputError and a TypeError."""


class InputTypeError(InputError, TypeError):
    """An argument of a type that is no number here (a bool, an object): an InputError
    naming it, and a TypeError for code catching that."""


class NoRootError(UlauditError):
    """An inverse has no solution in its domain."""


class TimeBudgetError(UlauditError):
    """The time budget (max_seconds) ran out; nothing certified was returned."""


class OutOfMemoryError(UlauditError, MemoryError):
    """Memory ran out for an allocation whose size an input chose; the message names it."""


class CancelledError(UlauditError):
    """The call's cancel flag was raised (by Ctrl-C in the waiting thread); nothing returned."""


class PrecisionCapWarning(UserWarning):
    """The precision cap was reached: the enclosure is sound but wider than asked."""


_CLASSES = {ENOROOT: NoRootError, ETIME: TimeBudgetError, ENOMEM: OutOfMemoryError,
            ECANCEL: CancelledError}


_HERE = os.path.dirname(os.path.abspath(__file__))
# The cap warnings of the call the worker thread runs: issued by the calling thread once
# the call returns (_run.run), so they point at the user's line and match its filters.
_pending = threading.local()


def collect(into: Optional[List[str]]) -> None:
    """Where this thread's cap warnings go until collect(None): the list, not warnings."""
    _pending.messages = into


def warn_cap(message: str) -> None:
    """PrecisionCapWarning attributed to the first caller outside the package."""
    f, level = sys._getframe(0), 1
    while f is not None and os.path.dirname(os.path.abspath(f.f_code.co_filename)) == _HERE:
        f, level = f.f_back, level + 1
    warnings.warn(message, PrecisionCapWarning, stacklevel=level)


def check(status: int, message: str, have_result: bool) -> None:
    """Raises the exception of a status (ECAP with a result: a warning only)."""
    if status == OK:
        return
    if status == ECAP and have_result:
        into = getattr(_pending, "messages", None)
        if into is None:
            warn_cap(message or "precision cap reached")
        else:
            into.append(message or "precision cap reached")
        return
    raise _CLASSES.get(status, InputError)(STATUS_NAMES.get(status, "input"), message)
