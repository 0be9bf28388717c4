"""Tests of the Python package against independent references: a Taylor
series of erf in decimal arithmetic (theta at eps = 0 is the total variation
erf(r / (2 sqrt 2)), Balle & Wang 2018 eq. (5)), Mironov's closed-form
RDP conversion (Mironov 2017, Prop. 3), and the audit corpus's expected
verdicts (audits/README.md).  Run by `make test` with Debian's python3-pytest."""
import decimal
import json
import os
import subprocess
import sys
import textwrap
import warnings
from decimal import Decimal
from fractions import Fraction

import pytest

import ulaudit

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
# pi to 60 digits (OEIS A000796)
PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494")


def erf_series(x, prec=60):
    """erf(x) = 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1)), for small x."""
    with decimal.localcontext() as ctx:
        ctx.prec = prec + 10
        term, total, n = x, Decimal(0), 0
        while True:
            add = term / (2 * n + 1)
            if abs(add) < Decimal(10) ** -(prec + 5):
                break
            total += add
            n += 1
            term = -term * x * x / n
        return +(2 / PI.sqrt() * total)


def test_theta_at_eps_zero_is_the_erf_series():
    with decimal.localcontext() as ctx:
        ctx.prec = 70
        x = Decimal("0.5") / (2 * Decimal(2).sqrt())
    ref = Fraction(erf_series(x))
    e = ulaudit.theta("0", "0.5", digits=30)
    assert isinstance(e.lo, Fraction) and isinstance(e.hi, Fraction)
    assert e.lo <= ref <= e.hi
    assert (e.hi - e.lo) / e.lo < Fraction(1, 10**28)


def test_enclosure_is_a_pair_with_its_strings():
    e = ulaudit.theta("1", "0.5")
    lo, hi = e
    assert lo <= hi
    assert Fraction(Decimal(e.lo_str)) == lo and Fraction(Decimal(e.hi_str)) == hi
    assert "Enclosure(lo=" in repr(e)


def test_inputs_are_exact_decimal_text():
    assert ulaudit.theta(1, 0.5) == ulaudit.theta("1", "0.5")
    assert ulaudit.theta(Decimal("1"), Fraction(1, 2)) == ulaudit.theta("1", "0.5")
    with pytest.raises(ValueError, match="no finite decimal"):
        ulaudit.theta("1", Fraction(1, 3))
    with pytest.raises(TypeError):
        ulaudit.theta(True, "1")


def test_rdp_to_dp_mironov_closed_form():
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        ref = Fraction(Decimal("0.5") + Decimal(100000).ln() / 1)
    e = ulaudit.rdp_to_dp("2", "0.5", "1e-5", conversion="mironov")
    assert e.lo <= ref <= e.hi


def test_gauss_sigma_at_eps_zero_inverts_the_erf_series():
    with decimal.localcontext() as ctx:
        ctx.prec = 70
        x = 1 / (2 * Decimal(2).sqrt())
    delta = erf_series(x, prec=60)  # theta_1(1/sigma) at sigma = 1
    e = ulaudit.gauss_sigma("0", str(delta), digits=25)
    assert e.contains(1) or abs(e.hi - 1) < Fraction(1, 10**50)
    assert e.lo <= e.hi


def test_bbghs_never_above_mironov():
    a = ulaudit.gauss_rdp_eps("0.5", "1e-5")
    b = ulaudit.gauss_rdp_eps("0.5", "1e-5", conversion="mironov")
    assert a.lo <= b.hi


def test_errors_carry_the_library_message():
    with pytest.raises(ulaudit.InputError) as ei:
        ulaudit.theta("1", "-1")
    assert "--r" in ei.value.message and ei.value.status == "input"
    with pytest.raises(ulaudit.InputError, match="unknown quantity"):
        ulaudit.calc("no-such-quantity", eps="1")
    with pytest.raises(ulaudit.InputError, match="digits"):
        ulaudit.theta("1", "1", digits=100000)


def test_precision_cap_warns_and_returns_a_sound_enclosure():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        e = ulaudit.theta("0", "0.5", digits=5000, max_bits=64)
    assert any(issubclass(x.category, ulaudit.PrecisionCapWarning) for x in w)
    with decimal.localcontext() as ctx:
        ctx.prec = 70
        x = Decimal("0.5") / (2 * Decimal(2).sqrt())
    assert e.lo <= Fraction(erf_series(x)) <= e.hi


def test_generic_calc_gives_the_cli_object():
    o = ulaudit.calc("gauss-eps", r="0.5", delta="1e-5")
    # every flag is echoed, defaults included; through the library the time
    # budget is none ("0") unless one is given (the CLI's default is 60 s)
    inputs = {"r": "0.5", "delta": "1e-5", "max-seconds": "0"}
    assert o["quantity"] == "gauss-eps" and o["inputs"] == inputs
    assert Fraction(o["lo"]) <= Fraction(o["hi"]) == Fraction(o["safe"])


def test_quantities_list_every_quantity_with_flags():
    qs = {q["name"]: q for q in ulaudit.quantities()}
    assert [f["name"] for f in qs["theta"]["flags"]] == ["eps", "r"]
    assert "pld-compose" in qs and "langevin-k" in qs


def corpus(name):
    path = os.path.join(ROOT, "audits", name)
    with open(path) as f:
        return path, json.load(f)


def test_audit_path_dict_and_text_give_the_expected_verdict():
    path, cert = corpus("gaussian-one-minus-erf.json")
    expected = cert["expected"]["verdict"]
    assert ulaudit.audit(path)["verdict"] == expected
    assert ulaudit.audit(cert)["verdict"] == expected
    with open(path) as f:
        assert ulaudit.audit(f.read())["verdict"] == expected


def test_audit_errors_name_the_json_path():
    _, cert = corpus("gaussian-one-minus-erf.json")
    cert["parameters"]["sigma"] = "-1"
    with pytest.raises(ulaudit.InputError, match="sigma"):
        ulaudit.audit(cert)
    with pytest.raises(ulaudit.InputError, match="/no/such/file.json"):
        ulaudit.audit("/no/such/file.json")


def test_attack_scores_identical_populations_give_no_evidence():
    # IN and OUT drawn from one law: no rule tells them apart (AUC 1/2 exactly with every
    # score tied to its twin), so no certified eps > 0
    s = list(range(40))
    r = ulaudit.attack_scores(s, s, delta="1e-5")
    assert Fraction(r["eps_lower_bound"]) == 0 and abs(r["auc"] - 0.5) < 1e-12


def test_version_matches_the_header():
    header = open(os.path.join(ROOT, "include", "ulaudit.h")).read()
    assert '#define ULAUDIT_VERSION_STRING "%s"' % ulaudit.version() in header


def test_type_hints_resolve_without_numpy():
    """typing.get_type_hints on every public function and method, in a Python where
    importing numpy fails (sys.modules["numpy"] = None): the annotations name no
    numpy type at run time (review of issue 26: NameError 'numpy' is not defined)."""
    code = textwrap.dedent('''
        import inspect, sys, typing
        sys.modules["numpy"] = None  # import numpy raises ImportError
        import ulaudit
        from ulaudit import accountants
        checked = []
        def hints(f, name):
            typing.get_type_hints(f)
            checked.append(name)
        for name in ulaudit.__all__:
            obj = getattr(ulaudit, name)
            if inspect.isfunction(obj):
                hints(obj, name)
        for cls in (ulaudit.Enclosure, ulaudit.EnclosureArray, ulaudit.AuditReport,
                    accountants.CertifiedAccountant, accountants.DpEventAccountant):
            for name, f in vars(cls).items():
                f = getattr(f, "__func__", f)
                if inspect.isfunction(f):
                    hints(f, cls.__name__ + "." + name)
        hints(accountants.float_up, "float_up")
        r = typing.get_type_hints(ulaudit.theta)["return"]
        assert set(typing.get_args(r)) == {ulaudit.Enclosure, ulaudit.EnclosureArray}, r
        print(len(checked), "gauss_sigma" in checked, "dpsgd_epsilon" in checked,
              "attack_scores" in checked)
    ''')
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    n, *named = p.stdout.split()
    assert int(n) > len(ulaudit._QUANTITIES) and named == ["True"] * 3


def test_precision_cap_warning_points_at_the_callers_line():
    """The warning is issued in the calling thread, attributed to this file: filters by
    module or line (warnings.filterwarnings(module=...)) match user code."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        ulaudit.theta("0", "0.5", digits=5000, max_bits=64)
        ulaudit.calc("theta", eps="0", r="0.5", digits=5000, max_bits=64)
    caps = [x for x in w if issubclass(x.category, ulaudit.PrecisionCapWarning)]
    assert len(caps) == 2 and {x.filename for x in caps} == {os.path.abspath(__file__)}
    with warnings.catch_warnings():
        warnings.filterwarnings("error", category=ulaudit.PrecisionCapWarning,
                                module=__name__)
        with pytest.raises(ulaudit.PrecisionCapWarning):
            ulaudit.theta("0", "0.5", digits=5000, max_bits=64)
