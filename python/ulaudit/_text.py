"""Numbers to the exact decimal text the library reads.

A value is read from its decimal text, never from a binary approximation:
str as given, int and Decimal exactly, Fraction when its expansion is
finite, float through repr (its shortest round-trip decimal: 0.1 -> '0.1',
what was typed, not the binary value it holds), numpy integers exactly and
numpy floats through their shortest unique decimal
(numpy.format_float_positional(x, unique=True): np.float32(0.1) -> '0.1').
bool (Python's or numpy's) is refused: it is not a number here.
"""
import decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Sequence, Union

Number = Union[str, int, float, Fraction, decimal.Decimal]


def _numpy_kind(value: Any) -> str:
    """'bool', 'int', 'float' for a numpy scalar, '' otherwise (numpy never imported here)."""
    t = type(value)
    if t.__module__ != "numpy":
        return ""
    import numpy as np
    if isinstance(value, np.bool_):
        return "bool"
    if isinstance(value, np.integer):
        return "int"
    if isinstance(value, np.floating):
        return "float"
    return ""


def _fraction_text(name: str, value: Fraction) -> str:
    d = value.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    if d != 1:
        raise _input_error(name, "has no finite decimal expansion; pass a decimal string",
                           value)
    with decimal.localcontext() as ctx:
        ctx.prec = max(28, len(str(value.numerator)) + len(str(value.denominator)) + 2)
        return str(decimal.Decimal(value.numerator) / decimal.Decimal(value.denominator))


def decimal_text(name: str, value: Any) -> str:
    """The exact decimal text of a flag's value; `name` is the Python argument's name,
    which TypeError and ValueError messages start with."""
    kind = _numpy_kind(value)
    if isinstance(value, bool) or kind == "bool":
        raise _input_error(name, "a number or decimal string is needed, not a bool", value,
                           wrong_type=True)
    if isinstance(value, str):
        return value
    if isinstance(value, int) or kind == "int":
        # through Decimal: str(int) stops at Python's 4300-digit limit (10**5000)
        return str(decimal.Decimal(int(value)))
    if kind == "float":
        import numpy as np
        text = np.format_float_positional(value, unique=True, trim="-")
        # the same shortest digits, in exponent form when positional is long (1e-300)
        return text if len(text) <= 32 else np.format_float_scientific(value, unique=True,
                                                                        trim="-")
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, Fraction):
        return _fraction_text(name, value)
    raise _input_error(name, "a number or decimal string is needed, not a %s"
                       % type(value).__name__, value, wrong_type=True)


def _input_error(name: str, rule: str, value: Any, wrong_type: bool = False) -> Exception:
    """InputError naming the argument (InputTypeError, also a TypeError, for a wrong type)."""
    from .errors import InputError, InputTypeError
    cls = InputTypeError if wrong_type else InputError
    return cls("input", "%s: %s (got %r)" % (name, rule, value), name)


def whole(name: str, value: Any, least: int = 1) -> int:
    """A count (steps, an event's count): an int or a numpy integer >= least, not a
    bool and not a float, even an integral one (1000.7 truncated to 1000 would
    account for fewer steps than were taken); InputError naming `name` otherwise."""
    if isinstance(value, bool) or _numpy_kind(value) == "bool" or not (
            isinstance(value, int) or _numpy_kind(value) == "int"):
        raise _input_error(name, "must be an integer", value)
    if int(value) < least:
        raise _input_error(name, "must be >= %d" % least, value)
    return int(value)


def positive(name: str, value: Any, at_most_one: bool = False, zero: bool = False) -> Any:
    """value itself once its exact decimal is finite and > 0 (>= 0 with zero=True),
    and <= 1 with at_most_one (a sampling rate); InputError naming `name` otherwise."""
    if isinstance(value, bool) or _numpy_kind(value) == "bool":
        raise _input_error(name, "must be a number, not a bool", value)
    try:
        text = decimal_text(name, value)
        x = decimal.Decimal(text.strip())
    except (TypeError, ValueError, decimal.InvalidOperation):
        raise _input_error(name, "must be a number", value) from None
    rule = "must be finite and %s%s" % (">= 0" if zero else "> 0",
                                        " and <= 1" if at_most_one else "")
    if not x.is_finite() or x < 0 or (x == 0 and not zero) or (at_most_one and x > 1):
        raise _input_error(name, rule, value)
    return value


def is_array(value: Any) -> bool:
    """Whether a value is a numpy array (numpy never imported here)."""
    return type(value).__module__ == "numpy" and type(value).__name__ == "ndarray"


# What a quantity's argument may be: a number, or (vectorised) an array or a sequence.
# A type checker sees numpy's types; at run time the package never imports numpy, so
# Array (a numpy.ndarray) and a numpy scalar are typing.Any there, and
# typing.get_type_hints() resolves every annotation without numpy.
if TYPE_CHECKING:
    import numpy
    Array = numpy.ndarray
    Arg = Union[Number, numpy.integer, numpy.floating, numpy.ndarray, Sequence[Any]]
else:
    Array = Any
    Arg = Union[Number, Any, Sequence[Any]]


def option(name: str, value: Any, least: int, most: int) -> int:
    """digits/max_bits: None or 0 (the library's default) or an integer in [least, most],
    checked here (a C int/long would wrap 2**32 + 5 to 5 silently)."""
    if value is None:
        return 0
    n = whole(name, value, least=0)
    if n != 0 and not least <= n <= most:
        raise _input_error(name, "must be %d..%d (or None: the default)" % (least, most), value)
    return n
