"""The calculator: ulaudit_calc by name, its results as Python numbers."""
import ctypes
import decimal
import json
import re
from fractions import Fraction
from typing import Any, Dict, List, Optional, Union

from . import _lib, _run
from ._text import decimal_text
from .errors import InputError, check

# Beyond this decimal exponent an end is not made a Fraction (it would need an
# integer of that many digits: a contraction delta of 1e-293506264962940004869...).
_EXP_LIMIT = 100000
_TINY = Fraction(1, 10**_EXP_LIMIT)
_EXPONENT = re.compile(r"[eE]([+-]?\d+)$")


def _exact(text: str, upper: bool) -> Fraction:
    """The decimal text as a Fraction; an end of magnitude below 1e-100000 is widened
    outward (lo to 0 or -1e-100000, hi to 1e-100000 or 0: still sound)."""
    m = _EXPONENT.search(text)
    if m and int(m.group(1)) < -_EXP_LIMIT:
        negative = text.lstrip().startswith("-")
        if upper:
            return Fraction(0) if negative else _TINY
        return -_TINY if negative else Fraction(0)
    # through Decimal: Fraction(str) stops at Python's 4300-digit int limit
    return Fraction(decimal.Decimal(text))


class Enclosure(tuple):
    """A certified enclosure ``(lo, hi)`` with ``lo <= true value <= hi``.

    ``lo`` and ``hi`` are :class:`fractions.Fraction` read exactly from the
    library's decimal strings (lo rounded down, hi rounded up), kept in
    ``lo_str``/``hi_str`` (exact); an end below 1e-100000 in magnitude (a
    vanishing contraction delta) is widened outward to 0 or 1e-100000.  ``result`` is the library's whole JSON object when the
    enclosure came from a quantity (its ``safe`` value, ``preconditions``,
    ...), else None.

    >>> e = Enclosure('0.25', '0.5')
    >>> e.lo, e.hi, e.contains('0.3')
    (Fraction(1, 4), Fraction(1, 2), True)
    """

    lo_str: str
    hi_str: str
    result: Optional[Dict[str, Any]]

    def __new__(cls, lo: str, hi: str, result: Optional[Dict[str, Any]] = None) -> "Enclosure":
        self = super().__new__(cls, (_exact(lo, False), _exact(hi, True)))
        self.lo_str, self.hi_str, self.result = lo, hi, result
        return self

    @property
    def lo(self) -> Fraction:
        """The lower end (exact)."""
        return self[0]

    @property
    def hi(self) -> Fraction:
        """The upper end (exact); for an inverse (a smallest sigma) the certified safe value."""
        return self[1]

    def contains(self, x: Union[str, int, float, Fraction, decimal.Decimal]) -> bool:
        """Whether the number x, read as arguments are (a float through its repr, a numpy
        scalar through its shortest decimal: np.float32(4.377) is 4.377), lies in [lo, hi]."""
        if not isinstance(x, Fraction):
            x = _exact(decimal_text("x", x), False)
        return self[0] <= x <= self[1]

    def mpmath(self) -> Any:
        """The enclosure as an ``mpmath.iv`` interval (needs mpmath)."""
        from mpmath import iv
        return iv.mpf([self.lo_str, self.hi_str])

    def __repr__(self) -> str:
        return "Enclosure(lo='%s', hi='%s')" % (self.lo_str, self.hi_str)


class WholeNumber(int):
    """A whole-number answer (a least T, a least K: the JSON's ``value``), an int;
    ``result`` holds the library's whole JSON object (``eps_at_k``, ...)."""

    result: Dict[str, Any]

    def __new__(cls, value: int, result: Dict[str, Any]) -> "WholeNumber":
        self = super().__new__(cls, value)
        self.result = result
        return self


def flag_text(name: str, value: Any) -> str:
    """A flag's text: a number's exact decimal, or a list (numpy 1-d array) as the
    library's comma list, a tuple inside it as a colon group (pld-compose's phases)."""
    if isinstance(value, (list, tuple)) or type(value).__name__ == "ndarray":
        return ",".join(":".join(decimal_text(name, x) for x in item)
                        if isinstance(item, (list, tuple)) else decimal_text(name, item)
                        for item in value)
    return decimal_text(name, value)


def calc_now(quantity: str, flags: Dict[str, Any], opt: _lib.Options) -> Dict[str, Any]:
    """ulaudit_calc in the calling thread (the flags' names as the library's)."""
    given = [(k, v) for k, v in flags.items() if v is not None]
    names = [k.encode() for k, _ in given]
    values = [flag_text(k, v).encode() for k, v in given]
    out, err = _run.result_pair()
    st = _lib.fn("ulaudit_calc")(quantity.encode(), _lib.strings(names), _lib.strings(values),
                                 len(names), ctypes.byref(opt), ctypes.byref(out), err,
                                 _lib.ERR_LEN)
    text = _lib.take(out)
    check(st, err.value.decode(errors="replace"), text is not None)
    return json.loads(text)


def library_flags(flags: Dict[str, Any]) -> Dict[str, Any]:
    """Python keywords to the library's flag names: eps_dd -> eps-dd, lambda_ -> lambda."""
    return {k.rstrip("_").replace("_", "-"): v for k, v in flags.items()}


def calc(quantity: str, *, digits: Optional[int] = None, max_bits: Optional[int] = None,
         max_seconds: Optional[float] = None, **flags: Any) -> Dict[str, Any]:
    """Any quantity of ``ulaudit calc`` by name; returns its JSON object as a dict
    (the object of ``ulaudit calc QUANTITY --json``: quantity, inputs, lo, hi, ...).

    Flags are keyword arguments: a ``-`` in a flag's name is written ``_``
    (``eps_dd=...``), a Python keyword takes a trailing ``_`` (``lambda_=``).
    ``max_seconds`` bounds the call (None: no limit; past it TimeBudgetError);
    Ctrl-C interrupts it (KeyboardInterrupt, the work stopped).

    >>> calc("gauss-eps", r="0.5", delta="1e-5")["hi"]
    '1.9930914044151197e+0'
    """
    opt = _lib.options(digits, max_bits)
    lib_flags = library_flags(flags)
    return _run.run(lambda: calc_now(quantity, lib_flags, opt), max_seconds)


def from_json(quantity: str, o: Dict[str, Any]) -> Union[Enclosure, WholeNumber]:
    """A quantity's answer: an Enclosure (lo/hi) or a WholeNumber (value)."""
    if "lo" in o and "hi" in o:
        return Enclosure(o["lo"], o["hi"], o)
    if isinstance(o.get("value"), int):
        return WholeNumber(o["value"], o)
    raise InputError("input", "%s: the result is neither an enclosure nor a whole number (use "
                     "calc())" % quantity)


def enclosure(quantity: str, digits: Optional[int] = None, max_bits: Optional[int] = None,
              *, max_seconds: Optional[float] = None, **flags: Any) -> Enclosure:
    """A real-valued quantity's answer as an :class:`Enclosure` (InputError when the
    quantity's answer is not an enclosure)."""
    o = calc(quantity, digits=digits, max_bits=max_bits, max_seconds=max_seconds, **flags)
    if "lo" not in o or "hi" not in o:
        raise InputError("input", "%s: the result is not an enclosure (use calc())" % quantity)
    return Enclosure(o["lo"], o["hi"], o)


def quantities() -> List[Dict[str, Any]]:
    """Every calculator quantity, the library's table (ulaudit_calc_list): a list of
    {'name', 'summary', 'example', 'flags': [{'name', 'help', 'default', 'domain'}]}."""
    out, err = _run.result_pair()
    st = _lib.fn("ulaudit_calc_list")(ctypes.byref(out), err, _lib.ERR_LEN)
    text = _lib.take(out)
    check(st, err.value.decode(errors="replace"), text is not None)
    return json.loads(text)
