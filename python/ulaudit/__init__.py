"""ulaudit: certified privacy accounting and audits of machine-unlearning
certificates, over the C library libulaudit (ctypes; no compiled extension).

Every number is an enclosure: ``theta('1', '0.5')`` returns an
:class:`Enclosure`, a ``(lo, hi)`` tuple of :class:`fractions.Fraction` with
``lo <= true value <= hi``.  Every calculator quantity is a function
(:func:`theta`, :func:`gauss_sigma`, :func:`pld_compose`, ...: generated from
the library's table, ``help()`` shows each flag's rule and an example);
:func:`calc` reaches any by name.  Inputs are read exactly from their decimal
text (str, int, float via repr, Fraction, Decimal, numpy scalars); numpy
arrays vectorise a quantity (an :class:`EnclosureArray` with outward-rounded
float64 ends).  Beside them: :func:`dpsgd_epsilon`/:func:`dpsgd_delta`,
:func:`audit`, :func:`calibrate`, :func:`import_certificate`,
:func:`attack_scores`, the certified accountants (:mod:`ulaudit.accountants`) and
conformance tests of anyone's accountant against the certified reference vectors
(:mod:`ulaudit.testing`: ``check``, ``assert_conforms``; imported on demand).

Every long call takes ``max_seconds`` (None: no limit) and runs in a worker
thread: Ctrl-C raises KeyboardInterrupt after the library's work stopped.
Errors raise :class:`UlauditError` subclasses carrying the library's message,
its ``.status`` and ``.input`` (the flag or JSON path it names).  A result at
the precision cap is returned (sound, only wider) with a
:class:`PrecisionCapWarning`.

The library is found through, in order: ``$ULAUDIT_LIBRARY``; the package's
directory; the path ``make install`` recorded; ``pkg-config --variable=libdir
ulaudit``; ``build/`` of a source tree; the system's linker path.
"""
from ._audit import VERDICTS, AuditReport, audit, calibrate, import_certificate
from ._calc import Enclosure, WholeNumber, calc, enclosure, quantities
from ._lib import version
from ._quantities import *  # noqa: F401,F403 (every quantity; __all__ below)
from ._quantities import __all__ as _QUANTITIES
from ._text import decimal_text as _decimal_text  # noqa: F401 (the reader dpsgd.py shares)
from ._vector import EnclosureArray
from .attack import attack_scores
from .errors import (CancelledError, InputError, InputTypeError, NoRootError, OutOfMemoryError,
                     PrecisionCapWarning, TimeBudgetError, UlauditError)
from .dpsgd import dpsgd_delta, dpsgd_epsilon
from . import accountants

__all__ = [
    "Enclosure", "EnclosureArray", "WholeNumber", "AuditReport", "UlauditError", "InputError", "InputTypeError",
    "NoRootError", "TimeBudgetError", "OutOfMemoryError", "CancelledError",
    "PrecisionCapWarning", "VERDICTS", "version", "quantities", "calc", "enclosure", "audit",
    "calibrate", "import_certificate", "attack_scores", "dpsgd_epsilon", "dpsgd_delta",
    "accountants",
] + list(_QUANTITIES)
