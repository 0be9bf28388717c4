"""Certificates: audit, calibrate, and import from the peers' formats."""
import ctypes
import decimal
import json
import os
import re
from typing import Any, Dict, List, Optional, Tuple, Union

from . import _lib, _run
from ._calc import flag_text
from ._text import decimal_text
from .errors import InputError, check

Source = Union[str, "os.PathLike[str]", Dict[str, Any], List[Any]]
VERDICTS = ("supported", "unsupported", "refuted", "invalid", "inconclusive")


class AuditReport(dict):
    """The report of ``ulaudit audit --json`` as a dict (verdict, exit_code, method,
    claim, recomputed, margin, preconditions, explanation, ...); ``verdict`` is
    also an attribute, and ``text`` the readable report ``ulaudit audit CERT``
    prints (from its second line: the first names the file); ``print(report)``
    shows it."""

    text: str = ""

    @property
    def verdict(self) -> str:
        """One of VERDICTS."""
        return self["verdict"]

    def __str__(self) -> str:
        return self.text


# A JSON number (RFC 8259, section 6).
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\Z")


def _number_json(path: str, value: Any) -> str:
    """A number as a JSON number of its exact decimal text, by the reader of keyword
    arguments (a numpy float32 0.1 is 0.1, a Decimal its digits; json.dumps refused
    both); a text that is no JSON number (nan, inf, 1/3) is InputError naming path."""
    try:
        text = decimal_text(path, value)
    except (TypeError, ValueError) as e:
        raise InputError("input", str(e), path) from None
    if isinstance(value, str) or not _JSON_NUMBER.match(text):
        raise InputError("input", "%s: a finite number is needed (got %s)" % (path, text), path)
    return text


def to_json(value: Any, path: str = "$") -> str:
    """JSON text of a certificate given as Python objects: dicts, lists and tuples,
    str, bool, None, and numbers (int, float, Decimal, Fraction, numpy scalars)
    written as JSON numbers of their exact decimal text."""
    if isinstance(value, dict):
        items = []
        for k, v in value.items():
            if not isinstance(k, str):
                raise InputError("input", "%s: keys must be strings (got %r)" % (path, k), path)
            items.append(json.dumps(k) + ": " + to_json(v, "%s.%s" % (path, k)))
        return "{" + ", ".join(items) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(to_json(v, "%s[%d]" % (path, i))
                               for i, v in enumerate(value)) + "]"
    if value is None or isinstance(value, (str, bool)):
        return json.dumps(value)
    if type(value).__module__ == "numpy" and type(value).__name__ == "bool_":
        return "true" if value else "false"
    return _number_json(path, value)


def certificate_json(text: str) -> Dict[str, Any]:
    """A certificate's JSON with its non-integer numbers as Decimal: exactly the digits the
    library wrote (a calibrated sigma rounded up to 17 digits is not a double, and the
    nearest double may be below it)."""
    return json.loads(text, parse_float=decimal.Decimal)


def _source(value: Source, what: str) -> Tuple[str, str]:
    """('text', JSON text) or ('path', a file's path) of a certificate given as a dict
    or a list (serialised by to_json), JSON text (a str starting with '{' or '[') or a
    path."""
    if isinstance(value, (dict, list, tuple)):
        return "text", to_json(value)
    if isinstance(value, os.PathLike):
        return "path", os.fspath(value)
    if isinstance(value, str):
        return ("text", value) if value.lstrip()[:1] in ("{", "[") else ("path", value)
    raise TypeError("%s: a path, a dict, a list or JSON text is needed (got %s)"
                    % (what, type(value).__name__))


def _read(path: str) -> str:
    """A source file's text; a file that cannot be read is InputError naming the path
    (as the library names it for audit and calibrate)."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise InputError("input", "%s: %s" % (path, getattr(e, "strerror", None) or e),
                         path) from None


def _own_state(fmt: str, text: str) -> str:
    """The JSON text with an Opacus state_dict's "mechanism": "ulaudit-pld" (the
    package's CertifiedAccountant) dropped: the importer knows Opacus's mechanisms
    only, and the mechanism changes nothing it writes (the history, Poisson sampling
    and add/remove neighbours are the same)."""
    if fmt != "opacus" or "ulaudit-pld" not in text:
        return text
    try:
        state = json.loads(text, parse_float=decimal.Decimal)
    except ValueError:
        return text  # the library names what is wrong
    if isinstance(state, dict) and state.get("mechanism") == "ulaudit-pld":
        del state["mechanism"]
        return to_json(state)
    return text


def _audit_now(kind: str, data: str, opt: _lib.Options) -> Tuple[str, str]:
    """The report's JSON and text forms (one audit: ulaudit_audit_*_forms)."""
    out, err = _run.result_pair()
    text_out = ctypes.c_void_p()
    verdict = ctypes.c_int(-1)
    raw = data.encode()
    if kind == "text":
        st = _lib.fn("ulaudit_audit_string_forms")(raw, len(raw), ctypes.byref(opt),
                                                   ctypes.byref(out), ctypes.byref(text_out),
                                                   ctypes.byref(verdict), err, _lib.ERR_LEN)
    else:
        st = _lib.fn("ulaudit_audit_file_forms")(raw, ctypes.byref(opt), ctypes.byref(out),
                                                 ctypes.byref(text_out), ctypes.byref(verdict),
                                                 err, _lib.ERR_LEN)
    json_text, report_text = _lib.take(out), _lib.take(text_out)
    check(st, err.value.decode(errors="replace"), json_text is not None)
    return json_text, report_text


def audit(certificate: Source, max_seconds: Optional[float] = None,
          digits: Optional[int] = None, max_bits: Optional[int] = None) -> AuditReport:
    """Audits a certificate (ulaudit-certificate(5)): a path (str or os.PathLike), a dict,
    or JSON text.  Returns the report of ``ulaudit audit --json`` as an AuditReport (a
    dict; its 'verdict' is one of VERDICTS).  Past ``max_seconds`` the report is the
    inconclusive one saying the budget ran out (as ``ulaudit audit --max-seconds``);
    Ctrl-C interrupts (KeyboardInterrupt).  A dict's numbers (int, float through repr,
    Decimal, Fraction with a finite decimal, numpy scalars) are written as JSON numbers
    of their exact decimal text (np.float32(0.1) is 0.1), a str as a JSON string.  A certificate that
    does not fit its method's schema raises InputError, its ``.input`` the JSON path.

    >>> audit("audits/gaussian-one-minus-erf.json")["verdict"]  # doctest: +SKIP
    'refuted'
    >>> print(audit("audits/gaussian-one-minus-erf.json").text)  # doctest: +SKIP
    verdict             REFUTED (exit 1)
    ...
    """
    kind, data = _source(certificate, "certificate")
    opt = _lib.options(digits, max_bits)
    json_text, report_text = _run.run(lambda: _audit_now(kind, data, opt), max_seconds)
    report = AuditReport(json.loads(json_text))
    report.text = report_text
    return report


def _calibrate_now(kind: str, data: str, opt: _lib.Options) -> str:
    out, err = _run.result_pair()
    raw = data.encode()
    if kind == "text":
        st = _lib.fn("ulaudit_calibrate_string")(raw, len(raw), ctypes.byref(opt),
                                                 ctypes.byref(out), err, _lib.ERR_LEN)
    else:
        st = _lib.fn("ulaudit_calibrate_file")(raw, ctypes.byref(opt), ctypes.byref(out), err,
                                               _lib.ERR_LEN)
    text = _lib.take(out)
    check(st, err.value.decode(errors="replace"), text is not None)
    return text


def calibrate(certificate: Source, max_seconds: Optional[float] = None,
              digits: Optional[int] = None, max_bits: Optional[int] = None) -> Dict[str, Any]:
    """The certificate completed with the parameter that makes its claim supported
    (``ulaudit calibrate CERT``: the same JSON object, as a dict).  The certificate is
    a path, a dict or JSON text; a method without calibration raises InputError naming
    it; past ``max_seconds`` TimeBudgetError; Ctrl-C interrupts (KeyboardInterrupt).
    Non-integer numbers are :class:`decimal.Decimal`, the library's digits exactly (the
    calibrated value is rounded up; a float could round it down); :func:`audit` takes
    the dict back as it is."""
    kind, data = _source(certificate, "certificate")
    opt = _lib.options(digits, max_bits)
    return certificate_json(_run.run(lambda: _calibrate_now(kind, data, opt), max_seconds))


def _import_now(fmt: str, text: str, flags: Dict[str, str]) -> str:
    out, err = _run.result_pair()
    raw = text.encode()
    names = [k.encode() for k in flags]
    values = [v.encode() for v in flags.values()]
    st = _lib.fn("ulaudit_import")(fmt.encode(), raw, len(raw), _lib.strings(names),
                                   _lib.strings(values), len(names), ctypes.byref(out), err,
                                   _lib.ERR_LEN)
    result = _lib.take(out)
    check(st, err.value.decode(errors="replace"), result is not None)
    return result


def import_certificate(format: str, source: Source, eps: Any = None, delta: Any = None, *,
                       max_seconds: Optional[float] = None, **flags: Any) -> Dict[str, Any]:
    """A ulaudit-certificate/1 (method dp-sgd, adjacency and sampling written out) from a
    peer's record, as ``ulaudit import FORMAT FILE`` makes it.

    format: "opacus" (an Opacus accountant's history, the list itself or its JSON
    export, or its state_dict(); the state_dict of :class:`ulaudit.accountants.
    CertifiedAccountant` too: its mechanism "ulaudit-pld" is dropped, the importer
    knowing Opacus's own only, and the history is read as Opacus's),
    "dp-accounting" (a dp_accounting event's JSON/dict form) or "tf-privacy"
    (compute_dp_sgd_privacy's parameters); source: a path (a file that cannot be
    read is InputError, its ``.input`` the path), a dict or a list, or JSON text (a
    str starting with ``{`` or ``[``); numbers in a dict or list (int, float,
    Decimal, Fraction, numpy scalars) are written as JSON numbers of their exact
    decimal text;
    eps, delta and further keyword flags (``-`` written ``_``): the options of
    ``ulaudit import`` (the claim to certify).  Returns the certificate dict (non-integer
    numbers as :class:`decimal.Decimal`, exactly as written), which :func:`audit` takes."""
    kind, data = _source(source, "source")
    if kind == "path":
        data = _read(data)
    data = _own_state(format, data)
    given = dict(flags, eps=eps, delta=delta)
    lib_flags = {k.rstrip("_").replace("_", "-"): flag_text(k, v)
                 for k, v in given.items() if v is not None}
    return certificate_json(_run.run(lambda: _import_now(format, data, lib_flags), max_seconds))
