"""Quantities over numpy arrays: broadcast the arguments, one certified call per
element (all in one worker thread, under one time budget), and an array-like
result whose float64 ends are rounded outward (sound)."""
import math
from typing import Any, Callable, Dict, FrozenSet, Iterator, Optional, Tuple, Union

from . import _lib, _run
from ._calc import Enclosure, WholeNumber, calc_now, from_json
from ._text import is_array
from .errors import InputError, UlauditError


def _down(x: Any) -> float:
    """The largest double <= x (x exact: a Fraction or a Decimal; comparisons of a
    float with either are exact in Python)."""
    try:
        f = float(x)  # the nearest double, or 0/inf past the range
    except OverflowError:  # a Fraction too large for a double
        f = math.inf if x > 0 else -math.inf
    if f > x:
        f = math.nextafter(f, -math.inf)
    return f


def _up(x: Any) -> float:
    """The smallest double >= x."""
    return -_down(-x)


class EnclosureArray:
    """The enclosures of a vectorised call, with numpy's shape.

    ``lo`` and ``hi`` are float64 arrays rounded outward (lo down, hi up to
    the next double), so ``lo <= true value <= hi`` holds elementwise;
    ``enclosures`` is an object array of the exact :class:`Enclosure`;
    indexing gives an Enclosure (or an EnclosureArray for a slice)."""

    def __init__(self, enclosures: Any) -> None:
        import numpy as np
        self.enclosures = enclosures
        self.lo = np.vectorize(lambda e: _down(e.lo), otypes=[np.float64])(enclosures)
        self.hi = np.vectorize(lambda e: _up(e.hi), otypes=[np.float64])(enclosures)

    @property
    def shape(self) -> Tuple[int, ...]:
        """The broadcast shape of the arguments."""
        return self.enclosures.shape

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d EnclosureArray (index it with [()])")
        return len(self.enclosures)

    def __getitem__(self, index: Any) -> Union[Enclosure, "EnclosureArray"]:
        item = self.enclosures[index]
        return item if isinstance(item, Enclosure) else EnclosureArray(item)

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        return "EnclosureArray(lo=%r, hi=%r)" % (self.lo, self.hi)


def _vector_args(flags: Dict[str, Any], list_flags: FrozenSet[str]) -> Dict[str, Any]:
    """The arguments that vary: numpy arrays, and lists/tuples of a flag that is not itself a list."""
    return {k: v for k, v in flags.items()
            if k not in list_flags and (is_array(v) or isinstance(v, (list, tuple)))}


def over_broadcast(flags: Dict[str, Any], varying: Dict[str, Any],
                   one: Callable[[Dict[str, Any]], Any]) -> Any:
    """one(point) at every point of the broadcast arrays `varying` (flags holding
    the fixed arguments), as a numpy object array; an error names its index."""
    import numpy as np
    arrays = {k: np.asarray(v) for k, v in varying.items()}
    try:
        shape = np.broadcast_shapes(*(a.shape for a in arrays.values()))
    except ValueError:
        raise InputError("input", "%s: shapes %s do not broadcast together" % (", ".join(
            arrays), ", ".join(str(a.shape) for a in arrays.values())), ",".join(arrays)) from None
    full = {k: np.broadcast_to(a, shape) for k, a in arrays.items()}
    answers = np.empty(shape, dtype=object)
    for index in np.ndindex(*shape):
        point = dict(flags, **{k: a[index] for k, a in full.items()})
        try:
            answers[index] = one(point)
        except UlauditError as e:  # which element: the message names the flag, not where
            raise type(e)(e.status, "at index %s: %s" % (index, e.message), e.input) from None
    return answers


def _over_array(name: str, flags: Dict[str, Any], varying: Dict[str, Any],
                opt: _lib.Options) -> Any:
    import numpy as np
    answers = over_broadcast(flags, varying,
                             lambda point: from_json(name, calc_now(name, point, opt)))
    if answers.size and isinstance(answers.flat[0], WholeNumber):
        return np.array(answers.tolist(), dtype=np.int64 if all(
            -2**63 <= int(v) < 2**63 for v in answers.flat) else object).reshape(answers.shape)
    return EnclosureArray(answers)


def quantity(name: str, flags: Dict[str, Any], list_flags: FrozenSet[str],
             digits: Optional[int], max_bits: Optional[int],
             max_seconds: Optional[float]) -> Any:
    """One quantity (flags by the library's names): an Enclosure or WholeNumber, or,
    when an argument is an array, an EnclosureArray or an integer numpy array."""
    opt = _lib.options(digits, max_bits)
    varying = _vector_args(flags, list_flags)
    if varying:
        return _run.run(lambda: _over_array(name, flags, varying, opt), max_seconds)
    return _run.run(lambda: from_json(name, calc_now(name, flags, opt)), max_seconds)
