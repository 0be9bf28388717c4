"""DP-SGD privacy in one call: certified brackets of epsilon(delta) and
delta(epsilon) for composed Poisson-subsampled Gaussian steps.

What is certified: the returned :class:`ulaudit.Enclosure` ``(lo, hi)``
encloses the exact privacy profile of the run, so ``hi`` of
:func:`dpsgd_epsilon` is a proven *upper* bound on epsilon at the given delta
(and ``hi`` of :func:`dpsgd_delta` a proven upper bound on delta at the given
epsilon): the claim "(hi, delta)-DP" is true, not estimated.  ``lo`` says how
far from tight it is.

Method: privacy-loss-distribution (PLD) composition by FFT (Koskela,
Jälkö, Honkela 2020, AISTATS, "Computing tight differential privacy
guarantees using FFT"; Gopi, Lee, Wutschitz 2021, NeurIPS, "Numerical
composition of differential privacy"), with every error term
(discretisation, truncated tails, floating-point rounding of the FFT)
bounded and added to the bracket, as
docs/accounting.md, "PLD composition and its bracket" describes.  The computation
is the library's ``pld-compose`` quantity (``ulaudit calc pld-compose``):
these functions are a typed front end to :func:`ulaudit.calc`.

Neighbouring datasets (``adjacency``): ``"add-remove"`` (the default, and
the convention of Opacus and dp_accounting) is the worse of adding and
removing one example; ``"add"``, ``"remove"`` one direction only;
``"replace"`` one example replaced by another (for ``sample_rate`` 1 the
Gaussian of sensitivity 2).
"""

from __future__ import annotations

import decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterable, List, Optional, Sequence, Tuple, Union

try:  # for typing.get_type_hints; the functions import what they call when called
    from . import Enclosure
    from ._vector import EnclosureArray
except ImportError:  # a package __init__ importing this module before defining it
    if TYPE_CHECKING:
        from . import Enclosure
        from ._vector import EnclosureArray

__all__ = ["dpsgd_epsilon", "dpsgd_delta", "ADJACENCIES", "Number", "Phase"]

Number = Union[str, int, float, Fraction, decimal.Decimal, Any]
"""A number read exactly from its decimal text (numpy scalars included)."""
Phase = Tuple[Number, Number, Number]
"""(noise_multiplier, sample_rate, steps): one phase, Opacus's history entry."""

# Our names -> pld-compose's --adjacency (``ulaudit calc --help``).
ADJACENCIES = {"add-remove": "both", "add": "add", "remove": "remove", "replace": "replace"}


def _text(name: str, value: Number) -> str:
    """value as exact decimal text, by the package's own reading of numbers
    (str, int, float via repr, Fraction, Decimal, numpy scalars)."""
    from . import _decimal_text  # the package's reader, shared with calc()
    return _decimal_text(name, value)


def check_adjacency(adjacency: Any) -> None:
    """InputError naming adjacency unless it is one of ADJACENCIES."""
    if not isinstance(adjacency, str) or adjacency not in ADJACENCIES:
        from .errors import InputError
        raise InputError("input", "adjacency: one of %s is needed (got %r)"
                         % (", ".join(ADJACENCIES), adjacency), "adjacency")


def _steps(name: str, value: Number) -> int:
    """A phase's steps: a whole number >= 1, read from its exact decimal as the
    quantities read whole-number flags (1000, "1000", 1000.0 and Decimal("1e3") are
    1000; 1000.7 and True are refused, InputError naming it)."""
    from .errors import InputError
    t = _text(name, value)
    try:
        d = decimal.Decimal(t.strip())
        ok = d.is_finite() and d == d.to_integral_value() and d >= 1
    except decimal.InvalidOperation:
        ok = False
    if not ok:
        raise InputError("input", "%s: a whole number >= 1 is needed (got %s)" % (name, t), name)
    return int(d)


def _phase_list(noise_multiplier: Optional[Number], sample_rate: Optional[Number],
                steps: Optional[Number], phases: Optional[Iterable[Phase]]) -> List[Phase]:
    """The run as phases: either the three numbers or ``phases``, not both."""
    three = (noise_multiplier, sample_rate, steps)
    if phases is not None:
        if any(v is not None for v in three):
            raise ValueError("phases: give either phases or noise_multiplier, sample_rate and "
                             "steps, not both")
        out = [tuple(p) for p in phases]
        if not out:
            raise ValueError("phases: at least one (noise_multiplier, sample_rate, steps) is needed")
        for i, p in enumerate(out):
            if len(p) != 3:
                raise ValueError("phases[%d]: a (noise_multiplier, sample_rate, steps) triple is "
                                 "needed (got %d items)" % (i, len(p)))
        return out
    for name, v in zip(("noise_multiplier", "sample_rate", "steps"), three):
        if v is None:
            raise ValueError("%s: missing (give noise_multiplier, sample_rate and steps, or "
                             "phases)" % name)
    return [three]  # type: ignore[list-item]


def _phases_flag(phases: Sequence[Phase], named: bool = True) -> str:
    """pld-compose's --phases SIGMA:Q:STEPS,...  Equal phases are merged
    (steps added): PLD composition is a convolution, commutative and
    associative, so the order and grouping of steps do not change the
    composed distribution (Koskela, Jälkö, Honkela 2020), and one FFT power
    is cheaper than two."""
    merged: dict = {}
    for i, (sigma, q, steps) in enumerate(phases):
        where = "phases[%d]." % i if named else ""
        key = (_text(where + "noise_multiplier", sigma), _text(where + "sample_rate", q))
        name = "phases[%d].steps" % i if len(phases) > 1 or named else "steps"
        merged[key] = merged.get(key, 0) + _steps(name, steps)
    return ",".join("%s:%s:%d" % (s, q, n) for (s, q), n in merged.items())


def _pld(query: Tuple[str, Number], adjacency: str, phases: Sequence[Phase],
         rel_width: Optional[Number], digits: Optional[int],
         max_seconds: Optional[Number], named: bool = True) -> Enclosure:
    from . import enclosure
    check_adjacency(adjacency)
    flags = {query[0]: query[1], "adjacency": ADJACENCIES[adjacency],
             "phases": _phases_flag(phases, named), "rel_width": rel_width}
    if max_seconds is not None:
        flags["max_seconds"] = max_seconds
    return enclosure("pld-compose", digits=digits, **flags)


def _vectorised(one: Any, args: dict, query: str) -> Any:
    """When noise_multiplier, sample_rate, steps or the query (delta or eps) is an
    array (numpy, or a list/tuple) and no phases are given: one(**point) at every
    point of their broadcast, as an EnclosureArray (each element certified on its
    own, under its own max_seconds); else None."""
    from ._text import is_array
    varying = {k: args[k] for k in ("noise_multiplier", "sample_rate", "steps", query)
               if args[k] is not None and (is_array(args[k]) or isinstance(args[k], (list, tuple)))}
    if not varying or args["phases"] is not None:
        return None
    from ._vector import EnclosureArray, over_broadcast
    fixed = {k: v for k, v in args.items() if k not in varying and k != "phases"}
    return EnclosureArray(over_broadcast(fixed, varying, lambda point: one(**point)))


def dpsgd_epsilon(noise_multiplier: Optional[Number] = None, sample_rate: Optional[Number] = None,
                  steps: Optional[Number] = None, delta: Optional[Number] = None, *,
                  adjacency: str = "add-remove", phases: Optional[Iterable[Phase]] = None,
                  rel_width: Optional[Number] = None, digits: Optional[int] = None,
                  max_seconds: Optional[Number] = None) -> Union[Enclosure, EnclosureArray]:
    """A certified bracket of DP-SGD's epsilon at ``delta``.

    ``steps`` steps of the Gaussian mechanism with noise std
    ``noise_multiplier`` times the clipping norm, each on a Poisson sample of
    rate ``sample_rate`` (Abadi et al. 2016), or ``phases``: a list of
    ``(noise_multiplier, sample_rate, steps)`` (Opacus's accountant history)
    instead of the first three.  Returns an :class:`ulaudit.Enclosure`
    ``(lo, hi)`` with lo <= epsilon(delta) <= hi; ``hi`` is the certified
    upper bound to claim.  ``rel_width`` is the target relative width of the
    bracket (default 1e-3), ``max_seconds`` a time budget (past it
    :class:`ulaudit.TimeBudgetError`).

    Any of the four may be a numpy array (or a list): they broadcast, and the
    answer is an :class:`ulaudit.EnclosureArray` (``.lo``/``.hi`` float64
    arrays rounded outward), each element certified on its own (``max_seconds``
    bounds each).

    >>> dpsgd_epsilon(1.1, 0.01, 1000, 1e-5)
    Enclosure(lo='1.5140956688584634e+0', hi='1.5153730195964968e+0')
    """
    many = _vectorised(dpsgd_epsilon, dict(locals()), "delta")
    if many is not None:
        return many
    if delta is None:
        raise ValueError("delta: missing (the delta at which epsilon is computed)")
    return _pld(("delta", delta), adjacency, _phase_list(noise_multiplier, sample_rate, steps, phases),
                rel_width, digits, max_seconds, phases is not None)


def dpsgd_delta(noise_multiplier: Optional[Number] = None, sample_rate: Optional[Number] = None,
                steps: Optional[Number] = None, eps: Optional[Number] = None, *,
                adjacency: str = "add-remove", phases: Optional[Iterable[Phase]] = None,
                rel_width: Optional[Number] = None, digits: Optional[int] = None,
                max_seconds: Optional[Number] = None) -> Union[Enclosure, EnclosureArray]:
    """A certified bracket of DP-SGD's delta at ``eps`` (the privacy profile,
    the hockey-stick divergence of the composed pair).  The arguments are
    those of :func:`dpsgd_epsilon` with ``eps`` for ``delta``; ``hi`` is a
    proven upper bound on delta(eps); arrays broadcast as there."""
    many = _vectorised(dpsgd_delta, dict(locals()), "eps")
    if many is not None:
        return many
    if eps is None:
        raise ValueError("eps: missing (the epsilon at which delta is computed)")
    return _pld(("eps", eps), adjacency, _phase_list(noise_multiplier, sample_rate, steps, phases),
                rel_width, digits, max_seconds, phases is not None)
