"""Certified drop-in accountants with the interfaces of Opacus and dp_accounting.

:class:`CertifiedAccountant` has the shape of Opacus's ``IAccountant``
(``opacus/accountants/accountant.py``): hand it to a ``PrivacyEngine`` in
place of its RDP or PRV accountant (``engine.accountant =
CertifiedAccountant()``); it records the same history and returns a
*certified upper* epsilon.  For ``PrivacyEngine(accountant="ulaudit-pld")``
and ``make_private_with_epsilon``, which create accountants by mechanism
name, register it first: ``opacus.accountants.register_accountant(
"ulaudit-pld", CertifiedAccountant)`` (Opacus then also calibrates the noise
with it, through its ``get_noise_multiplier``).  :class:`DpEventAccountant` has the shape of
dp_accounting's ``PrivacyAccountant`` and reads its events (Gaussian,
PoissonSampled, SelfComposed, Composed, NoOp, NonPrivate) by class name and
attributes: neither Opacus nor dp_accounting is imported.

Both compute through :func:`ulaudit.dpsgd_epsilon` / ``dpsgd_delta``: the
PLD composition of the library with a proven bracket (Koskela, Jälkö,
Honkela 2020; Gopi, Lee, Wutschitz 2021;
docs/accounting.md, "PLD composition and its bracket").  Opacus's RDP accountant
gives an upper bound that is valid but looser; its PRV accountant and
dp_accounting's PLD accountant give estimates whose floating-point error is
not bounded.  Here the float returned is the bracket's ``hi`` rounded up,
so "(get_epsilon(delta), delta)-DP" holds as stated.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple, Union

from ._text import positive, whole
from .dpsgd import Number, _text, check_adjacency, dpsgd_delta, dpsgd_epsilon

try:  # for typing.get_type_hints; the functions import what they call when called
    from . import Enclosure
except ImportError:  # a package __init__ importing this module before defining it
    if TYPE_CHECKING:
        from . import Enclosure

__all__ = ["CertifiedAccountant", "DpEventAccountant", "UnsupportedEventError", "float_up"]

History = List[Tuple[Any, Any, int]]


def float_up(x: Fraction) -> float:
    """The least double >= x (float() rounds to nearest, which may be below)."""
    f = float(x)
    return f if Fraction(f) >= x else math.nextafter(f, math.inf)


def _bracket_or_float(enc: Enclosure, bracket: bool) -> Union[float, Enclosure]:
    return enc if bracket else float_up(enc.hi)


def _zero() -> Enclosure:
    from . import Enclosure
    return Enclosure("0", "0")


class _Pld:
    """What both accountants share: a list of (sigma, q, steps) phases, an
    adjacency, and a cache of results keyed by (phases, query)."""

    def __init__(self, adjacency: str, max_seconds: Optional[Number],
                 rel_width: Optional[Number]) -> None:
        check_adjacency(adjacency)
        self.adjacency = adjacency
        self.max_seconds = max_seconds
        self.rel_width = rel_width
        self._cache: Dict[Any, Enclosure] = {}

    def _key(self, phases: History, what: str, value: Number) -> Any:
        return (tuple((_text("noise_multiplier", s), _text("sample_rate", q), int(n))
                      for s, q, n in phases), what, _text(what, value), self.adjacency,
                self.rel_width)

    def _compute(self, phases: History, what: str, value: Number) -> Enclosure:
        phases = [p for p in phases if int(p[2]) > 0]
        if not phases:  # no step released anything: the identical pair
            return _zero()
        key = self._key(phases, what, value)
        if key not in self._cache:
            fn = dpsgd_epsilon if what == "delta" else dpsgd_delta
            self._cache[key] = fn(phases=phases, adjacency=self.adjacency,
                                  rel_width=self.rel_width, max_seconds=self.max_seconds,
                                  **{"delta" if what == "delta" else "eps": value})
        return self._cache[key]


# The options Opacus's RDP (alphas) and PRV (eps_error, delta_error)
# accountants take in get_epsilon, which opacus.accountants.utils.
# get_noise_multiplier forwards to whichever accountant it was given.
_PEER_OPTIONS = frozenset({"alphas", "eps_error", "delta_error"})


def _entry(path: str, entry: Any) -> Tuple[Any, Any, int]:
    """A history entry (sigma, q, steps), checked: a silently truncated or dropped
    entry would account for fewer steps than were taken (unsound)."""
    from .errors import InputError
    if not isinstance(entry, (list, tuple)) or len(entry) != 3:
        raise InputError("input", "%s: a (noise_multiplier, sample_rate, steps) triple is "
                         "needed (got %r)" % (path, entry), path)
    s, q, n = entry
    positive(path + "[0] (noise_multiplier)", s)
    positive(path + "[1] (sample_rate)", q, at_most_one=True)
    return s, q, whole(path + "[2] (steps)", n)


class CertifiedAccountant(_Pld):
    """An Opacus-shaped accountant (``IAccountant``) with certified results.

    ``history`` is Opacus's: ``[(noise_multiplier, sample_rate, num_steps)]``,
    consecutive equal steps merged.  ``adjacency`` is ``"add-remove"``
    (Opacus's convention, default), ``"add"``, ``"remove"`` or
    ``"replace"``; ``max_seconds`` bounds each computation; ``rel_width``
    is the bracket's target relative width (default 1e-3).
    """

    def __init__(self, adjacency: str = "add-remove", *, max_seconds: Optional[Number] = None,
                 rel_width: Optional[Number] = None) -> None:
        super().__init__(adjacency, max_seconds, rel_width)
        self.history: History = []

    def step(self, *, noise_multiplier: Number, sample_rate: Number) -> None:
        """Signal one optimisation step (Opacus's ``IAccountant.step``).
        noise_multiplier must be finite and > 0, sample_rate finite, > 0 and <= 1
        (not bools): anything else raises :class:`ulaudit.InputError` naming it,
        before the history changes."""
        positive("noise_multiplier", noise_multiplier)
        positive("sample_rate", sample_rate, at_most_one=True)
        if self.history and self.history[-1][:2] == (noise_multiplier, sample_rate):
            s, q, n = self.history[-1]
            self.history[-1] = (s, q, n + 1)
        else:
            self.history.append((noise_multiplier, sample_rate, 1))

    def get_epsilon(self, delta: Number, *, bracket: bool = False,
                    **peer_options: Any) -> Union[float, Enclosure]:
        """epsilon spent so far at ``delta``: the certified upper bound as a
        float rounded up, or with ``bracket=True`` the :class:`ulaudit.Enclosure`
        ``(lo, hi)`` around the exact value.  0 before any step.

        Opacus's ``get_noise_multiplier`` passes its own accountants' options
        through: ``alphas`` (RDP's orders), ``eps_error`` and ``delta_error``
        (PRV's error budgets) are accepted and have no effect (the bracket
        needs no orders and has no error budget; ``rel_width`` sets its
        width); any other keyword is a TypeError."""
        unknown = set(peer_options) - _PEER_OPTIONS
        if unknown:
            raise TypeError("get_epsilon: unexpected keyword argument(s) %s (accepted from "
                            "Opacus's accountants and unused: %s)"
                            % (", ".join(sorted(unknown)), ", ".join(sorted(_PEER_OPTIONS))))
        return _bracket_or_float(self._compute(self.history, "delta", delta), bracket)

    def get_delta(self, eps: Number, *, bracket: bool = False) -> Union[float, Enclosure]:
        """delta spent so far at ``eps`` (certified upper bound, rounded up)."""
        return _bracket_or_float(self._compute(self.history, "eps", eps), bracket)

    def __len__(self) -> int:
        """The number of history entries (Opacus's convention, not steps)."""
        return len(self.history)

    @classmethod
    def mechanism(cls) -> str:
        return "ulaudit-pld"

    def get_optimizer_hook_fn(self, sample_rate: float) -> Callable[[Any], None]:
        """The callback Opacus's PrivacyEngine attaches to its DPOptimizer: one
        step per optimiser step, at the optimiser's noise multiplier and
        ``sample_rate`` times its accumulated iterations (as IAccountant's)."""

        def hook_fn(optim: Any) -> None:
            self.step(noise_multiplier=optim.noise_multiplier,
                      sample_rate=sample_rate * optim.accumulated_iterations)

        return hook_fn

    def state_dict(self, destination: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """``{"history": [...], "mechanism": "ulaudit-pld"}`` (Opacus's keys)."""
        if destination is None:
            destination = OrderedDict()
        destination["history"] = list(self.history)
        destination["mechanism"] = self.mechanism()
        return destination

    def load_state_dict(self, state_dict: Dict[str, Any]) -> None:
        """Restores a history saved by :meth:`state_dict`; a state of another
        mechanism (rdp, prv, gdp) is refused, as Opacus does.  Every entry is
        checked as :meth:`step` checks its arguments, and its steps must be an
        integer >= 1 (not a float, not a bool; Opacus never records 0 steps, so 0
        is refused too): :class:`ulaudit.InputError` names the entry and the rule
        (``history[0][2] (steps): must be an integer``) and nothing is loaded."""
        if not state_dict:
            raise ValueError("state_dict: None or empty, nothing to load")
        for key in ("history", "mechanism"):
            if key not in state_dict:
                raise ValueError("state_dict: no key %r" % key)
        if state_dict["mechanism"] != self.mechanism():
            raise ValueError("state_dict: mechanism %r cannot be loaded into an accountant of "
                             "mechanism %r" % (state_dict["mechanism"], self.mechanism()))
        self.history = [_entry("history[%d]" % i, p) for i, p in enumerate(state_dict["history"])]

    def certificate(self, eps: Number, delta: Number, source: str = "") -> Dict[str, Any]:
        """The claim "(eps, delta)-DP for this history" as a ulaudit-certificate/1
        dict of method dp-sgd (man ulaudit-certificate(5)) for
        :func:`ulaudit.audit`; numbers as exact decimal strings."""
        if self.adjacency not in ("add-remove", "replace"):
            raise ValueError("adjacency: a certificate states add-remove or replace (got %r)"
                             % self.adjacency)
        if not self.history:
            raise ValueError("history: empty, no step to certify")
        phases = [{"noise_multiplier": _text("noise_multiplier", s),
                   "sample_rate": _text("sample_rate", q), "steps": int(n)}
                  for s, q, n in self.history]
        cert = {"format": "ulaudit-certificate/1", "method": "dp-sgd",
                "parameters": {"phases": phases, "adjacency": self.adjacency},
                "claim": {"eps": _text("eps", eps), "delta": _text("delta", delta)}}
        if source:
            cert["source"] = source
        return cert


class UnsupportedEventError(Exception):
    """An event this accountant cannot account for (dp_accounting's error name)."""


# dp_accounting's NeighboringRelation members -> our adjacency.
_RELATIONS = {"ADD_OR_REMOVE_ONE": "add-remove", "REPLACE_ONE": "replace"}


def _relation(rel: Any) -> str:
    name = getattr(rel, "name", rel)
    name = _RELATIONS.get(name, name)
    if name not in ("add-remove", "replace"):
        raise ValueError("neighboring_relation: add-remove or replace (ADD_OR_REMOVE_ONE, "
                         "REPLACE_ONE) is needed (got %r)" % (rel,))
    return name


class DpEventAccountant(_Pld):
    """A dp_accounting-shaped accountant (``PrivacyAccountant``) with certified
    results.  Events are read by class name and attributes:
    ``GaussianDpEvent(noise_multiplier)``, ``PoissonSampledDpEvent(
    sampling_probability, event)`` of a Gaussian, ``SelfComposedDpEvent(event,
    count)``, ``ComposedDpEvent(events)``, ``NoOpDpEvent``,
    ``NonPrivateDpEvent`` (epsilon infinite).  Any other raises
    :class:`UnsupportedEventError` from :meth:`compose` (:meth:`supports`
    says False)."""

    def __init__(self, neighboring_relation: Any = "add-remove", *,
                 max_seconds: Optional[Number] = None, rel_width: Optional[Number] = None) -> None:
        super().__init__(_relation(neighboring_relation), max_seconds, rel_width)
        self.phases: History = []
        self._non_private = False

    @property
    def neighboring_relation(self) -> str:
        return self.adjacency

    def _walk(self, event: Any, count: int, out: History, path: str = "event") -> Optional[str]:
        """Appends event's phases (composed count times) to out, or returns
        why it is unsupported; a count that is not an integer >= 1, a noise
        multiplier not finite >= 0 or a sampling probability outside (0, 1]
        raises InputError naming its path (``event.events[1].count``).  Composition is commutative (a convolution of
        privacy loss distributions), so a ComposedDpEvent composed count
        times is each of its events composed count times."""
        kind = type(event).__name__
        if kind == "NoOpDpEvent":
            return None
        if kind == "NonPrivateDpEvent":
            out.append(("nonprivate", None, count))
            return None
        if kind == "SelfComposedDpEvent":
            return self._walk(event.event, count * whole(path + ".count", event.count), out,
                              path + ".event")
        if kind == "ComposedDpEvent":
            for i, e in enumerate(event.events):
                why = self._walk(e, count, out, "%s.events[%d]" % (path, i))
                if why:
                    return why
            return None
        if kind == "GaussianDpEvent":
            out.append((positive(path + ".noise_multiplier", event.noise_multiplier, zero=True),
                        1, count))
            return None
        if kind == "PoissonSampledDpEvent" and type(event.event).__name__ == "GaussianDpEvent":
            out.append((positive(path + ".event.noise_multiplier", event.event.noise_multiplier,
                                 zero=True),
                        positive(path + ".sampling_probability", event.sampling_probability,
                                 at_most_one=True), count))
            return None
        return "%s is not supported (Gaussian, Poisson-sampled Gaussian, self-composed, " \
               "composed, no-op and non-private events are)" % kind

    def supports(self, event: Any) -> bool:
        """Whether :meth:`compose` would accept ``event``."""
        from .errors import InputError
        try:
            return self._walk(event, 1, []) is None
        except InputError:
            return False

    def compose(self, event: Any, count: int = 1) -> DpEventAccountant:
        """Accounts for ``event`` applied ``count`` times (an integer >= 0); returns
        self.  A bad count or event parameter raises :class:`ulaudit.InputError`
        (a ValueError) naming it, and nothing is composed."""
        count = whole("count", count, least=0)
        new: History = []
        why = self._walk(event, count, new)
        if why:
            raise UnsupportedEventError("Unsupported event: %r: %s" % (event, why))
        for s, q, n in new:
            if s == "nonprivate":
                self._non_private = self._non_private or n > 0
            elif _text("noise_multiplier", s) in ("0", "0.0"):
                self._non_private = self._non_private or n > 0  # no noise: no privacy
            else:
                self.phases.append((s, q, n))
        return self

    def get_epsilon(self, target_delta: Number, *, bracket: bool = False
                    ) -> Union[float, Enclosure]:
        """The certified upper epsilon at ``target_delta`` (rounded up), or the
        bracket; infinite after a non-private event."""
        if self._non_private:
            return math.inf
        return _bracket_or_float(self._compute(self.phases, "delta", target_delta), bracket)

    def get_delta(self, target_epsilon: Number, *, bracket: bool = False
                  ) -> Union[float, Enclosure]:
        """The certified upper delta at ``target_epsilon`` (rounded up), or the
        bracket; 1 after a non-private event."""
        if self._non_private:
            return 1.0
        return _bracket_or_float(self._compute(self.phases, "eps", target_epsilon), bracket)
