"""Membership-inference statistics on given scores: ``ulaudit attack --scores`` on arrays."""
import ctypes
import json
import math
from typing import Any, Dict, Optional, Sequence, Union

from . import _lib, _run
from ._calc import flag_text
from ._text import Array
from .errors import InputError, InputTypeError, check

Scores = Union[Sequence[float], Array]


def _score(name: str, i: int, x: Any) -> float:
    """One score: a real number (int, float, numpy number), finite; a str, a bool or a
    sequence (a row of a 2-D array) is refused, InputError naming name[i]."""
    kind = type(x).__module__ == "numpy" and type(x).__name__
    where = "%s[%d]" % (name, i)
    if isinstance(x, (bool, str, bytes)) or kind == "bool_" or not (
            isinstance(x, (int, float)) or (kind and hasattr(x, "dtype") and x.dtype.kind in "iuf"
                                            and getattr(x, "ndim", 0) == 0)):
        raise InputTypeError("input", "%s: a real number is needed (got %r; scores are a 1-d "
                             "array or a sequence of numbers)" % (where, x), name)
    value = float(x)
    if not math.isfinite(value):
        raise InputError("input", "%s: every score must be finite (got %r)" % (where, value),
                         name)
    return value


def _doubles(name: str, scores: Any) -> Any:
    if getattr(scores, "ndim", 1) != 1:
        raise InputError("input", "%s: a 1-d array of scores is needed (got shape %s)"
                         % (name, scores.shape), name)
    values = [_score(name, i, x) for i, x in enumerate(scores)]
    if not values:
        raise InputError("input", "%s: at least one score is needed (got none)" % name, name)
    return (ctypes.c_double * max(len(values), 1))(*values), len(values)


def _stats_now(a: Any, b: Any, flags: Dict[str, str]) -> str:
    out, err = _run.result_pair()
    names = [k.encode() for k in flags]
    values = [v.encode() for v in flags.values()]
    st = _lib.fn("ulaudit_attack_stats")(a[0], a[1], b[0], b[1], _lib.strings(names),
                                         _lib.strings(values), len(names), ctypes.byref(out),
                                         err, _lib.ERR_LEN)
    text = _lib.take(out)
    check(st, err.value.decode(errors="replace"), text is not None)
    return text


def attack_scores(in_scores: Scores, out_scores: Scores, delta: Any = None, alpha: Any = None,
                  *, claim_eps: Any = None, method: Optional[str] = None, threshold: Any = None,
                  levels: Any = None, split_frac: Any = None, sides: Any = None, ratio: Any = None,
                  weights: Optional[str] = None, tie_break: Any = None,
                  max_seconds: Optional[float] = None) -> Dict[str, Any]:
    """The statistics of ``ulaudit attack --scores IN,OUT ... --json`` on two arrays
    of scores (higher = more likely IN): the same object, key for key (AUC, TPR at
    FPR 1e-3/1e-2/1e-1, the certified empirical eps lower bound at delta, the GDP
    estimate, the verdict on a claim).  The flags are the command's, ``-`` written
    ``_``; None leaves the command's default:

    delta: the claim's delta (default 0); alpha: 1 - confidence (default 0.05);
    claim_eps: the claimed eps (default: no claim, statistics only);
    method: joint (default), sum, family, all, fixed, split, onerun, onerun-fdp or
    levels; threshold: fixed's threshold; levels: how many values the score can
    take (an integer >= 2, declared before seeing the data; levels only);
    split_frac: split's choosing part (default 0.25); sides: 1 or 2 (default 2);
    ratio: the grid ratio (default 4 for joint, 2 for onerun and onerun-fdp, 1.25
    otherwise); weights: equal (default) or geometric (joint only); tie_break:
    "random" (ties broken by fresh uniform draws; the seed used is in the result's
    tie_break.seed) or that seed to reproduce a result (not fixed, split, levels or
    onerun-fdp; never keep the best of several seeds).

    Scores are float64 (1-d numpy arrays or sequences of real numbers, at least one
    each; a 2-D array, even (n, 1), a str or a bool is refused: InputError naming
    in_scores or out_scores and the index); flags are read from
    their exact decimal text.  max_seconds bounds the call; Ctrl-C interrupts it."""
    given = {"delta": delta, "alpha": alpha, "claim-eps": claim_eps, "method": method,
             "threshold": threshold, "levels": levels, "split-frac": split_frac, "sides": sides,
             "ratio": ratio, "weights": weights, "tie-break": tie_break}
    flags = {k: flag_text(k.replace("-", "_"), v) for k, v in given.items() if v is not None}
    a, b = _doubles("in_scores", in_scores), _doubles("out_scores", out_scores)
    return json.loads(_run.run(lambda: _stats_now(a, b, flags), max_seconds))
