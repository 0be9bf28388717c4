"""ulaudit: certified privacy accounting and audits of machine-unlearning
certificates, over the C library libulaudit (ctypes; no compiled extension).

Every number is an enclosure: ``theta('1', '0.5')`` returns an
:class:`Enclosure`, a ``(lo, hi)`` tuple of :class:`fractions.Fraction` with
``lo <= true value <= hi`` (lo rounded down, hi rounded up, from the decimal
strings the library prints; ``.lo_str``/``.hi_str`` keep those strings and
``.mpmath()`` gives an ``mpmath.iv`` interval when mpmath is installed).

Inputs are decimal *text*, read exactly: pass ``'0.1'`` (one tenth).  ints,
:class:`decimal.Decimal` and fractions with a finite decimal expansion are
converted exactly; a float is converted through ``repr`` (its shortest
round-trip decimal, e.g. ``0.1`` -> ``'0.1'``), which is what was typed but
not the binary value the float holds.

Errors raise :class:`UlauditError` (``InputError``, ``NoRootError``,
``TimeBudgetError``) carrying the library's message, which names the input
and the rule broken.  A result that reached the precision cap is returned
(still sound, only wider) with a :class:`PrecisionCapWarning`.

The library is found through, in order: ``$ULAUDIT_LIBRARY``; the path
``make install`` recorded; ``lib/libulaudit.so.0`` relative to the package
under the install prefix; ``build/`` of a source tree; the system's linker
path (``ldconfig``).
"""

import ctypes
import ctypes.util
import decimal
import json
import os
import warnings
from fractions import Fraction

__all__ = [
    "Enclosure", "UlauditError", "InputError", "NoRootError", "TimeBudgetError", "OutOfMemoryError",
    "PrecisionCapWarning", "version", "quantities", "calc", "enclosure", "theta",
    "gauss_sigma", "gauss_eps", "rdp_to_dp", "gauss_rdp_eps", "sgm_rdp", "audit",
    "attack_scores", "VERDICTS",
]

_SONAME = "libulaudit.so.0"
_OK, _EINPUT, _ECAP, _ENOROOT, _ETIME, _ENOMEM = range(6)
VERDICTS = ("supported", "unsupported", "refuted", "invalid", "inconclusive")
_ERR_LEN = 4096


class UlauditError(Exception):
    """A library error: ``status`` (the ulaudit_status name) and ``message``."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


class InputError(UlauditError, ValueError):
    """An input outside the quantity's domain, an unknown flag, a bad file."""


class NoRootError(UlauditError):
    """An inverse has no solution in its domain."""


class TimeBudgetError(UlauditError):
    """The time budget ran out; nothing certified was returned."""


class OutOfMemoryError(UlauditError, MemoryError):
    """Memory ran out for an allocation whose size an input chose; the message names it."""


class PrecisionCapWarning(UserWarning):
    """The precision cap was reached: the enclosure is sound but wider than asked."""


def _candidates():
    env = os.environ.get("ULAUDIT_LIBRARY")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        from . import _installed  # written by `make install`
        yield _installed.LIBRARY
    except ImportError:
        pass
    yield os.path.normpath(os.path.join(here, "..", "..", "..", _SONAME))
    yield os.path.normpath(os.path.join(here, "..", "..", "build", _SONAME))
    found = ctypes.util.find_library("ulaudit")
    if found:
        yield found
    yield _SONAME


def _load():
    tried = []
    for path in _candidates():
        if os.path.isabs(path) and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("ulaudit: libulaudit not found (set ULAUDIT_LIBRARY); tried: "
                      + "; ".join(tried))


_lib = _load()
_c_char_pp = ctypes.POINTER(ctypes.c_char_p)


class _Options(ctypes.Structure):
    _fields_ = [("digits", ctypes.c_int), ("max_bits", ctypes.c_long)]


def _proto(name, *args):
    f = getattr(_lib, name)
    f.argtypes = list(args)
    f.restype = ctypes.c_int
    return f


_lib.ulaudit_version.restype = ctypes.c_char_p
_lib.ulaudit_version.argtypes = []
_lib.ulaudit_free.restype = None
_lib.ulaudit_free.argtypes = [ctypes.c_void_p]
_P = ctypes.POINTER(ctypes.c_void_p)
_calc = _proto("ulaudit_calc", ctypes.c_char_p, _c_char_pp, _c_char_pp, ctypes.c_size_t,
               ctypes.POINTER(_Options), _P, ctypes.c_char_p, ctypes.c_size_t)
_theta = _proto("ulaudit_theta", ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(_Options), _P,
                _P, ctypes.c_char_p, ctypes.c_size_t)
_calc_list = _proto("ulaudit_calc_list", _P, ctypes.c_char_p, ctypes.c_size_t)
_audit_file = _proto("ulaudit_audit_file", ctypes.c_char_p, ctypes.POINTER(_Options), _P,
                     ctypes.POINTER(ctypes.c_int), ctypes.c_char_p, ctypes.c_size_t)
_audit_string = _proto("ulaudit_audit_string", ctypes.c_char_p, ctypes.c_size_t,
                       ctypes.POINTER(_Options), _P, ctypes.POINTER(ctypes.c_int),
                       ctypes.c_char_p, ctypes.c_size_t)
_attack = _proto("ulaudit_attack_scores", ctypes.POINTER(ctypes.c_double), ctypes.c_size_t,
                 ctypes.POINTER(ctypes.c_double), ctypes.c_size_t, ctypes.c_char_p,
                 ctypes.c_char_p, _P, ctypes.c_char_p, ctypes.c_size_t)


def version():
    """The library's version string."""
    return _lib.ulaudit_version().decode()


def _take(ptr):
    """The library-owned string at ptr, decoded, then freed."""
    if not ptr.value:
        return None
    try:
        return ctypes.string_at(ptr.value).decode()
    finally:
        _lib.ulaudit_free(ptr)


def _check(status, err, result):
    msg = err.value.decode(errors="replace")
    if status == _OK:
        return
    if status == _ECAP and result is not None:
        warnings.warn(msg or "precision cap reached", PrecisionCapWarning, stacklevel=3)
        return
    cls = {_ENOROOT: NoRootError, _ETIME: TimeBudgetError, _ENOMEM: OutOfMemoryError}.get(
        status, InputError)
    name = {_EINPUT: "input", _ECAP: "cap", _ENOROOT: "noroot", _ETIME: "time",
            _ENOMEM: "memory"}.get(status)
    raise cls(name, msg)


def _decimal_text(name, value):
    """A flag value as exact decimal text."""
    if isinstance(value, bool):
        raise TypeError("%s: a number or decimal string is needed, not a bool" % name)
    if isinstance(value, (str, int)):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, Fraction):
        d = value.denominator
        for p in (2, 5):
            while d % p == 0:
                d //= p
        if d != 1:
            raise ValueError("%s: %s has no finite decimal expansion; pass a decimal string"
                             % (name, value))
        with decimal.localcontext() as ctx:
            ctx.prec = 10000
            return str(decimal.Decimal(value.numerator) / decimal.Decimal(value.denominator))
    raise TypeError("%s: a number or decimal string is needed (got %s)"
                    % (name, type(value).__name__))


def _options(digits, max_bits):
    return _Options(digits or 0, max_bits or 0)


def calc(quantity, digits=None, max_bits=None, **flags):
    """Any quantity of ``ulaudit calc`` by name; returns its JSON object as a
    dict (the same as ``ulaudit calc QUANTITY --json``).  Flags are keyword
    arguments; a ``-`` in a flag name is written ``_`` (``eps_dd=...``)."""
    names, values = [], []
    for k, v in flags.items():
        if v is None:
            continue
        names.append(k.replace("_", "-").encode())
        values.append(_decimal_text(k, v).encode())
    n = len(names)
    cn = (ctypes.c_char_p * max(n, 1))(*names)
    cv = (ctypes.c_char_p * max(n, 1))(*values)
    out = ctypes.c_void_p()
    err = ctypes.create_string_buffer(_ERR_LEN)
    opt = _options(digits, max_bits)
    st = _calc(quantity.encode(), cn, cv, n, ctypes.byref(opt), ctypes.byref(out), err, _ERR_LEN)
    text = _take(out)
    _check(st, err, text)
    return json.loads(text)


class Enclosure(tuple):
    """(lo, hi) as Fractions, lo <= true value <= hi."""

    def __new__(cls, lo, hi):
        # through Decimal: Fraction(str) stops at Python's 4300-digit int limit
        self = super().__new__(cls, (Fraction(decimal.Decimal(lo)), Fraction(decimal.Decimal(hi))))
        self.lo_str, self.hi_str = lo, hi
        return self

    lo = property(lambda self: self[0])
    hi = property(lambda self: self[1])

    def contains(self, x):
        """Whether the exact number x (int, Fraction, Decimal or decimal string) is inside."""
        x = Fraction(x) if not isinstance(x, float) else Fraction(repr(x))
        return self[0] <= x <= self[1]

    def mpmath(self):
        """The enclosure as an mpmath interval (needs mpmath)."""
        from mpmath import iv
        return iv.mpf([self.lo_str, self.hi_str])

    def __repr__(self):
        return "Enclosure(lo='%s', hi='%s')" % (self.lo_str, self.hi_str)


def enclosure(quantity, digits=None, max_bits=None, **flags):
    """A real-valued quantity's enclosure as an :class:`Enclosure`."""
    o = calc(quantity, digits=digits, max_bits=max_bits, **flags)
    if "lo" not in o or "hi" not in o:
        raise InputError("input", "%s: the result is not an enclosure (use calc())" % quantity)
    return Enclosure(o["lo"], o["hi"])


def theta(eps, r, digits=None, max_bits=None):
    """theta_{e^eps}(r) = E_{e^eps}(N(0,1) || N(r,1)), the Gaussian hockey-stick divergence
    (the library's direct ulaudit_theta: no JSON in between)."""
    lo, hi = ctypes.c_void_p(), ctypes.c_void_p()
    err = ctypes.create_string_buffer(_ERR_LEN)
    opt = _options(digits, max_bits)
    st = _theta(_decimal_text("eps", eps).encode(), _decimal_text("r", r).encode(),
                ctypes.byref(opt), ctypes.byref(lo), ctypes.byref(hi), err, _ERR_LEN)
    lo_s, hi_s = _take(lo), _take(hi)
    _check(st, err, lo_s)
    return Enclosure(lo_s, hi_s)


def gauss_sigma(eps, delta, sensitivity=None, digits=None, max_bits=None):
    """The smallest sigma with theta_{e^eps}(sensitivity/sigma) <= delta (hi is safe)."""
    return enclosure("gauss-sigma", digits, max_bits, eps=eps, delta=delta,
                     sensitivity=sensitivity)


def gauss_eps(r, delta, digits=None, max_bits=None):
    """The smallest eps >= 0 with theta_{e^eps}(r) <= delta (hi is safe)."""
    return enclosure("gauss-eps", digits, max_bits, r=r, delta=delta)


def rdp_to_dp(alpha, rdp, delta, conversion=None, digits=None, max_bits=None):
    """eps at delta from one RDP point (conversion 'bbghs' by default, or 'mironov')."""
    return enclosure("rdp-to-dp", digits, max_bits, alpha=alpha, rdp=rdp, delta=delta,
                     conversion=conversion)


def gauss_rdp_eps(r, delta, conversion=None, digits=None, max_bits=None):
    """eps of the Gaussian mechanism (r = sensitivity/sigma) through RDP at the best alpha."""
    return enclosure("gauss-rdp-eps", digits, max_bits, r=r, delta=delta, conversion=conversion)


def sgm_rdp(q, sigma, alpha, digits=None, max_bits=None):
    """RDP of the Poisson-subsampled Gaussian (rate q, noise multiplier sigma) at order alpha."""
    return enclosure("sgm-rdp", digits, max_bits, q=q, sigma=sigma, alpha=alpha)


def quantities():
    """Every calculator quantity: [{'name', 'summary', 'flags': [{'name', 'help', 'default'}]}]."""
    out = ctypes.c_void_p()
    err = ctypes.create_string_buffer(_ERR_LEN)
    st = _calc_list(ctypes.byref(out), err, _ERR_LEN)
    text = _take(out)
    _check(st, err, text)
    return json.loads(text)


def audit(certificate, digits=None, max_bits=None):
    """Audits a certificate: a path (str or os.PathLike), a dict, or JSON text.
    Returns the report dict of ``ulaudit audit --json`` (its 'verdict' is one
    of VERDICTS).  A dict is serialised with json.dumps: give numbers as
    strings ("1e-5") to keep their decimal text exact."""
    out = ctypes.c_void_p()
    verdict = ctypes.c_int(-1)
    err = ctypes.create_string_buffer(_ERR_LEN)
    opt = ctypes.byref(_options(digits, max_bits))
    if isinstance(certificate, dict):
        certificate = json.dumps(certificate)
    elif isinstance(certificate, os.PathLike):
        certificate = os.fspath(certificate)
    if isinstance(certificate, str) and certificate.lstrip().startswith("{"):
        data = certificate.encode()
        st = _audit_string(data, len(data), opt, ctypes.byref(out), ctypes.byref(verdict), err,
                           _ERR_LEN)
    elif isinstance(certificate, str):
        st = _audit_file(certificate.encode(), opt, ctypes.byref(out), ctypes.byref(verdict),
                         err, _ERR_LEN)
    else:
        raise TypeError("audit: a path, a dict or JSON text is needed")
    text = _take(out)
    _check(st, err, text)
    return json.loads(text)


def attack_scores(in_scores, out_scores, delta, alpha="0.05"):
    """Membership-inference statistics of given scores (higher = more likely IN):
    AUC, TPR at low FPR and the certified empirical eps lower bound at delta
    (Clopper-Pearson at confidence 1 - alpha, Bonferroni over thresholds)."""
    a = (ctypes.c_double * max(len(in_scores), 1))(*map(float, in_scores))
    b = (ctypes.c_double * max(len(out_scores), 1))(*map(float, out_scores))
    out = ctypes.c_void_p()
    err = ctypes.create_string_buffer(_ERR_LEN)
    st = _attack(a, len(in_scores), b, len(out_scores), _decimal_text("alpha", alpha).encode(),
                 _decimal_text("delta", delta).encode(), ctypes.byref(out), err, _ERR_LEN)
    text = _take(out)
    _check(st, err, text)
    return json.loads(text)
