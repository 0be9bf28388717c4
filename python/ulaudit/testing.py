"""Conformance tests of anyone's privacy accountant against ulaudit's certified
reference vectors: ``ulaudit vectors check`` from Python, for a project's own CI.

::

    import math
    from ulaudit.testing import assert_conforms

    def theta(eps, r):                       # the Gaussian hockey-stick divergence
        a, b = eps / r - r / 2, eps / r + r / 2
        return 0.5 * math.erfc(a / math.sqrt(2)) - math.exp(eps) * 0.5 * math.erfc(b / math.sqrt(2))

    def test_theta_conforms():
        assert_conforms(theta, family="theta")   # AssertionError listing the worst rows

:func:`check` calls ``fn`` on the inputs of every row of the family's vectors
(generated in memory by the library, the rows of ``vectors/<family>.csv``), writes
the values into a RESULTS table and classifies each by the library's checker
(``ulaudit_vectors_check``, the code of ``ulaudit vectors check``; man
ulaudit-vectors(1)):

  exact            inside the certified enclosure [lo, hi], or the correctly rounded
                   double of the true value (a normal double; vectors/README.md);
  safe-inaccurate  outside, on the side that over-states the privacy loss or the
                   noise needed: safe for users, inaccurate;
  unsafe           outside, on the side that hurts users: below lo for every quantity
                   of the current families (a δ, θ, ε or ρ under the truth under-states
                   the loss; a σ or K under the least sufficient one fails the
                   guarantee);
  invalid          NaN, infinite, negative, above 1 for a probability, or no value;
  unmatched        (not produced here: every row handed to fn is in the vectors).

The rule is strict: a double one ulp under the true value that is not its correctly
rounded double is unsafe (relative error about 1e-16), as it is under-stating the
loss; a stated ``tolerance`` marks such values ``within_tolerance`` in the report
but does not change their class.

Calling convention
------------------
``fn`` receives the family's inputs positionally, in the order of
:func:`input_names` (``theta``: eps, r; ``gauss-sigma``: eps, delta; ``gauss-eps``:
r, delta; ``sgm-rdp``: q, sigma, alpha; ``rdp-to-eps``: conversion, alpha, rdp,
delta; ...).  Each input is a Python float when its decimal text is a number
(``float(text)``: the double nearest the decimal the truth is computed at, "inf"
included), else its text (``conversion`` "mironov"/"bbghs", contraction's ``mode``,
noisygd's ``form`` and ``kind``, Langevin's ``eta`` "1/L", "none").  A decimal
outside the double range reaches ``fn`` as 0.0 or inf (gauss-sigma's and gauss-eps'
delta = 1e-400 is 0.0: a double implementation cannot be asked that row; its value
is still checked against the truth at 1e-400).  ``inputs="text"`` passes every
input as its decimal text instead (str), for implementations reading decimals.

``fn`` returns, per row:

- a number: the family's first quantity (:func:`quantities`: ``theta`` for theta,
  ``sigma``, ``eps``, ``delta``, ``rdp``, ...);
- a tuple or list: the first quantities in that order (``(theta, log_theta)``);
- a dict ``{quantity: value}``: those quantities (any subset);
- None for a value: no value (invalid "empty");
- :data:`SKIP`: the row is left out of RESULTS (not checked; e.g. orders an
  implementation does not support).  Per-row calls only.

Vectorised calls (``vectorized=None``, the default): when numpy is importable and
every input of the family is a number, ``fn`` is first called ONCE with one float64
array per input (all rows); that call is used when it returns, without raising, an
array of one value per row (or a tuple/dict of such arrays).  Otherwise (an
exception, a scalar, a wrong shape) ``fn`` is called once per row with Python
floats, as with ``vectorized=False``.  ``vectorized=True`` requires the array call
(its exception propagates).  :attr:`CheckResult.mode` says which ran.

Values are written with ``repr(float(v))``, the shortest decimal that reads back as
the same double, so the checker sees exactly the double returned (a float32 value
widened exactly).
"""
import ctypes
import functools
import json
import math
import warnings
from typing import Any, Callable, Dict, List, Optional, Sequence

from . import _lib, _run
from .errors import check as _check_status

__all__ = ["CLASSES", "FAMILIES", "SKIP", "CheckResult", "RowResult", "assert_conforms",
           "check", "check_csv", "input_names", "quantities", "vectors"]


class _Skip:
    def __repr__(self) -> str:
        return "ulaudit.testing.SKIP"


#: Returned by fn for a row it does not implement: the row is not checked.
SKIP = _Skip()

#: The classes of a value, in the report's order.
CLASSES = ("exact", "safe-inaccurate", "unsafe", "invalid", "unmatched")
#: The families of the vectors (``ulaudit vectors --only`` names).
FAMILIES = ("theta", "gauss-sigma", "gauss-eps", "contraction", "rdp-to-eps", "rdp-to-delta",
            "sgm-rdp", "pld", "langevin-sigma", "langevin-k", "noisygd-k", "noisygd-sigma")


def _call(name: str, *args: Any) -> str:
    out, err = _run.result_pair()
    st = _lib.fn(name)(*args, ctypes.byref(out), err, _lib.ERR_LEN)
    text = _lib.take(out)
    _check_status(st, err.value.decode(errors="replace"), text is not None)
    return text


@functools.lru_cache(maxsize=16)
def _vectors_text(family: str, digits: int) -> str:
    return _run.run(lambda: _call("ulaudit_vectors_rows", family.encode(), digits), None)


def vectors(family: str, digits: Optional[int] = None) -> Dict[str, Any]:
    """The family's certified rows (``ulaudit_vectors_rows``): ``{"family", "digits",
    "inputs": [names], "quantities": [{"quantity", "unsafe_side", "range"}], "rows":
    [{"inputs": {name: decimal text}, QUANTITY: {"lo", "hi", "double", "flag"}}]}``,
    lo/hi the enclosure of the true value at ``digits`` significant digits (default
    30, the committed files' and the checker's), "double" its correctly rounded
    double and "flag" (ok, zero, subnormal, inf, undetermined) for real quantities.
    An unknown family raises InputError with a did-you-mean.  Cached per call
    arguments; a fresh copy each call."""
    return json.loads(_vectors_text(family, int(digits or 0)))


def input_names(family: str) -> List[str]:
    """The family's inputs, in the order ``fn`` receives them."""
    return vectors(family)["inputs"]


def quantities(family: str) -> List[str]:
    """The family's quantities (RESULTS columns), the first being what a bare number
    returned by ``fn`` stands for."""
    return [q["quantity"] for q in vectors(family)["quantities"]]


class RowResult:
    """One (row, quantity) of a check: ``line`` (in RESULTS; 1 is the header),
    ``inputs`` (name: decimal text), ``quantity``, ``cls`` (one of CLASSES),
    ``value`` (the text written), ``lo``/``hi`` (the enclosure's text),
    ``error`` (relative, or absolute when the bound is 0; unsafe and
    safe-inaccurate only; ``math.inf`` beyond the double range), ``error_kind``,
    ``within_tolerance``, ``invalid`` (why, for invalid), ``as_double`` (exact as
    the correctly rounded double)."""

    __slots__ = ("line", "inputs", "quantity", "cls", "value", "lo", "hi", "error",
                 "error_kind", "within_tolerance", "invalid", "as_double")

    def __init__(self, line: int, inputs: Dict[str, str], quantity: str,
                 cell: Dict[str, Any]) -> None:
        self.line, self.inputs, self.quantity = line, inputs, quantity
        self.cls = cell["class"]
        self.value, self.lo, self.hi = cell["value"], cell.get("lo"), cell.get("hi")
        error = cell.get("error")
        self.error = math.inf if error == "inf" else error
        self.error_kind = cell.get("error_kind")
        self.within_tolerance = bool(cell.get("within_tolerance", False))
        self.invalid = cell.get("invalid")
        self.as_double = bool(cell.get("as_double", False))

    def __repr__(self) -> str:
        where = " ".join("%s=%s" % kv for kv in self.inputs.items())
        what = "%s: %s %s" % (self.quantity, self.cls, self.value or "''")
        if self.cls == "invalid":
            return "line %d: %s: %s (%s)" % (self.line, where, what, self.invalid)
        if self.lo is None:
            return "line %d: %s: %s" % (self.line, where, what)
        tail = "" if self.error is None else ", %s error %.3g%s" % (
            self.error_kind, self.error, ", within its stated tolerance"
            if self.within_tolerance else "")
        return "line %d: %s: %s vs [%s, %s]%s" % (self.line, where, what, self.lo, self.hi,
                                                   tail)


class CheckResult:
    """What :func:`check` found.

    ``report``: the object of ``ulaudit vectors check --json --rows`` (dict);
    ``counts``: ``{quantity: {class: n}}``; ``rows``: ``{class: [RowResult]}`` (every
    quantity, in RESULTS order); ``ok``: no value unsafe or invalid (the command's
    exit 0 or 3); ``exit_code``: the command's (0, 1 or 3); ``csv``: the RESULTS
    text checked; ``mode``: "vectorized", "per-row" or "csv"; ``errors``: the
    rows whose call raised (with ``on_error="invalid"``), as (inputs, repr of the
    exception); ``text``: a readable summary (the command's table and worst rows).
    """

    def __init__(self, report: Dict[str, Any], csv: str, mode: str,
                 errors: Sequence[Any] = ()) -> None:
        self.report, self.csv, self.mode, self.errors = report, csv, mode, list(errors)
        self.family = report["family"]
        self.counts = {q["quantity"]: dict(q["counts"]) for q in report["quantities"]}
        self.exit_code = report["exit"]
        self.ok = not report["failed"]
        self.rows: Dict[str, List[RowResult]] = {c: [] for c in CLASSES}
        for row in report.get("rows_classified", []):
            for quantity, cell in row["values"].items():
                r = RowResult(row["line"], row["inputs"], quantity, cell)
                self.rows[r.cls].append(r)

    def worst(self, n: int = 10) -> List[RowResult]:
        """Up to n values that fail: unsafe by decreasing error, then invalid."""
        return (sorted(self.rows["unsafe"], key=lambda r: -r.error) + self.rows["invalid"])[:n]

    @property
    def text(self) -> str:
        rep = self.report
        lines = ["vectors check: %s: %d rows (%s)%s" % (
            self.family, rep["rows"], self.mode,
            ", stated tolerances read" if rep["tolerance_column"] else "")]
        lines.append("  %-13s %-6s %-7s %7s %15s %7s %7s %9s %10s" % (
            "quantity", "unsafe", "range", "exact", "safe-inaccurate", "unsafe", "invalid",
            "unmatched", "within-tol"))
        for q in rep["quantities"]:
            c = q["counts"]
            lines.append("  %-13s %-6s %-7s %7d %15d %7d %7d %9d %10d" % (
                q["quantity"], q["unsafe_side"], q["range"], c["exact"], c["safe-inaccurate"],
                c["unsafe"], c["invalid"], c["unmatched"], q["within_tolerance"]))
        worst = self.worst(5)
        lines.append("worst rows:" if worst else "no value unsafe or invalid")
        lines.extend("  " + repr(r) for r in worst)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return "<CheckResult %s ok=%s %s>" % (self.family, self.ok, self.counts)

    def __str__(self) -> str:
        return self.text


def check_csv(family: str, results: str, name: Optional[str] = None,
              max_seconds: Optional[float] = None) -> CheckResult:
    """``ulaudit vectors check --family FAMILY --json --rows`` on RESULTS text (the CSV
    of man ulaudit-vectors(1)): name stands for its path in messages (default
    "RESULTS").  Bad RESULTS raises InputError naming the line and column."""
    data = results.encode()
    label = name.encode() if name is not None else None
    text = _run.run(lambda: _call("ulaudit_vectors_check", family.encode(), data, len(data),
                                  label, 1), max_seconds)
    return CheckResult(json.loads(text), results, "csv")


def _input_value(text: str) -> Any:
    try:
        return float(text)
    except ValueError:
        return text


def _per_quantity(out: Any, names: Sequence[str]) -> Dict[str, Any]:
    """fn's return (a number, a tuple/list, a dict) as {quantity: value}."""
    if isinstance(out, dict):
        unknown = [k for k in out if k not in names]
        if unknown:
            raise ValueError("ulaudit.testing: %r: not a quantity of the family (one of: %s)"
                             % (unknown[0], ", ".join(names)))
        return dict(out)
    if isinstance(out, (tuple, list)):
        if len(out) > len(names):
            raise ValueError("ulaudit.testing: %d values returned, the family has %d "
                             "quantities (%s)" % (len(out), len(names), ", ".join(names)))
        return dict(zip(names, out))
    return {names[0]: out}


def _vectorized(fn: Callable, columns: List[List[Any]], n: int,
                names: Sequence[str], required: bool) -> Optional[List[Dict[str, Any]]]:
    """fn on one array per input, as per-row dicts; None when that call does not fit."""
    try:
        import numpy as np
    except ImportError:
        if required:
            raise
        return None
    try:
        with warnings.catch_warnings(record=True) as seen:  # kept only if the call fits
            warnings.simplefilter("always")
            out = _per_quantity(fn(*[np.asarray(c, dtype=np.float64) for c in columns]), names)
        arrays = {k: (None if v is None else np.asarray(v)) for k, v in out.items()}
        if any(a is not None and a.shape != (n,) for a in arrays.values()):
            raise ValueError("ulaudit.testing: the array call returned shapes %s, (%d,) "
                             "needed" % ({k: getattr(a, "shape", None)
                                          for k, a in arrays.items()}, n))
    except Exception:
        if required:
            raise
        return None  # the array call's warnings (a division by 0 before a TypeError) dropped
    for w in seen:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return [{k: (None if a is None else a[i]) for k, a in arrays.items()} for i in range(n)]


def _per_row(fn: Callable, args: List[List[Any]], names: Sequence[str], on_error: str,
             errors: List[Any], inputs: List[Dict[str, str]]) -> List[Optional[Dict[str, Any]]]:
    """fn row by row: {quantity: value}, None for a row left out (SKIP, on_error "skip")."""
    out: List[Optional[Dict[str, Any]]] = []
    for a, shown in zip(args, inputs):
        try:
            value = fn(*a)
            out.append(None if value is SKIP else _per_quantity(value, names))
        except Exception as e:
            if on_error == "raise":
                raise
            errors.append((shown, repr(e)))
            out.append(None if on_error == "skip" else {})
    return out


def _cell(v: Any) -> str:
    """The text of one value: repr of its double (exact round trip), '' for none."""
    if v is None:
        return ""
    return repr(float(v))


def _results_csv(inputs: List[str], cols: List[str], rows: List[Dict[str, str]],
                 values: List[Dict[str, Any]], tolerance: Optional[float]) -> str:
    header = inputs + cols + (["tolerance"] if tolerance is not None else [])
    tol = [] if tolerance is None else [repr(float(tolerance))]
    lines = [",".join(header)]
    for r, v in zip(rows, values):
        if v is None:
            continue  # left out
        lines.append(",".join([r[k] for k in inputs] + [_cell(v.get(q)) for q in cols] + tol))
    return "\n".join(lines) + "\n"


def check(fn: Callable, family: str, *, tolerance: Optional[float] = None,
          vectorized: Optional[bool] = None, on_error: str = "raise", inputs: str = "float",
          max_seconds: Optional[float] = None) -> CheckResult:
    """Runs ``fn`` on every row of the family's vectors and checks its values (the
    module's docstring gives the calling convention, the vectorisation rule and the
    classes).  tolerance: fn's stated relative accuracy (a number >= 0), written in
    RESULTS' tolerance column: it marks values, never excuses them.  on_error:
    "raise" (default) lets an exception of fn propagate; "invalid" records the row
    with no value (invalid "empty"), "skip" leaves it out (as SKIP), both keeping the
    exception in ``.errors``.  inputs: "float" (default: numbers as floats, the
    other inputs as text) or "text" (every input as its decimal text; per-row
    calls only).  max_seconds
    bounds the library's check (not fn).  Returns a :class:`CheckResult`."""
    if inputs not in ("float", "text"):
        raise ValueError("inputs: 'float' or 'text' (got %r)" % (inputs,))
    if on_error not in ("raise", "invalid", "skip"):
        raise ValueError("on_error: 'raise', 'invalid' or 'skip' (got %r)" % (on_error,))
    if tolerance is not None and not (0 <= float(tolerance) < math.inf):
        raise ValueError("tolerance: a finite number >= 0 (got %r)" % (tolerance,))
    v = vectors(family)
    names = [q["quantity"] for q in v["quantities"]]
    rows = [r["inputs"] for r in v["rows"]]
    read = _input_value if inputs == "float" else str
    args = [[read(r[k]) for k in v["inputs"]] for r in rows]
    numeric = all(isinstance(x, float) for a in args for x in a)
    values, errors, mode = None, [], "per-row"
    if vectorized or (vectorized is None and numeric):
        columns = [list(c) for c in zip(*args)]
        values = _vectorized(fn, columns, len(rows), names, bool(vectorized))
        mode = "vectorized" if values is not None else mode
    if values is None:
        values = _per_row(fn, args, names, on_error, errors, rows)
    cols = [q for q in names if any(r is not None and q in r for r in values)]
    if not cols:
        raise ValueError("ulaudit.testing: fn returned no value of %s's quantities (%s)"
                         % (family, ", ".join(names)))
    csv = _results_csv(v["inputs"], cols, rows, values, tolerance)
    result = check_csv(family, csv, max_seconds=max_seconds)
    result.mode, result.errors = mode, errors
    return result


def assert_conforms(fn: Callable, family: str, *, strict: bool = False, show: int = 10,
                    **kwargs: Any) -> CheckResult:
    """:func:`check`, then AssertionError when a value is unsafe or invalid (with
    ``strict=True``: when any value is not exact), its message the counts and up to
    ``show`` worst rows (inputs, value, enclosure, error).  Returns the result when it
    passes.  kwargs: those of :func:`check`."""
    result = check(fn, family, **kwargs)
    inexact = sum(c["safe-inaccurate"] for c in result.counts.values())
    if result.ok and not (strict and inexact):
        return result
    bad = result.worst(show)
    if strict and len(bad) < show:
        bad += sorted(result.rows["safe-inaccurate"], key=lambda r: -r.error)[:show - len(bad)]
    raise AssertionError("%s does not conform to ulaudit's certified %s vectors:\n%s\n%s" % (
        getattr(fn, "__name__", repr(fn)), family, result.text.split("\nworst rows:")[0],
        "\n".join("  " + repr(r) for r in bad)))
