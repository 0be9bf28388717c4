"""audit, calibrate and import_certificate against the CLI's outputs on the corpus."""
import json
from decimal import Decimal
import os

import pytest

import ulaudit
from conftest import ROOT, run_cli

AUDITS = os.path.join(ROOT, "audits")


@pytest.mark.parametrize("name", ["gaussian-one-minus-erf.json", "dp-sgd-opacus-rdp-two-phases.json",
                                  "langevin-eta-above-1-over-L.json"])
def test_audit_report_is_the_cli_json(name, monkeypatch):
    # one time for both (generated_at): the reproducible-builds variable, which
    # the library reads in this process and the CLI inherits
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    path = os.path.join(AUDITS, name)
    cli = run_cli("audit", path, "--json", "--max-seconds", "0", ok=(0, 1, 3))
    report = ulaudit.audit(path)
    assert isinstance(report, dict) and report == cli
    with open(path) as f:
        cert = json.load(f)
    assert report.verdict == cert["expected"]["verdict"]


def test_audit_text_is_the_cli_text(monkeypatch):
    """report.text is what `ulaudit audit CERT` prints after its first line (the file)."""
    import subprocess
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")  # the same "generated at" line
    from conftest import CLI
    path = os.path.join(AUDITS, "dp-sgd-opacus-rdp-two-phases.json")
    run_cli("audit", path, "--json")  # skips without the CLI
    p = subprocess.run([CLI, "audit", path], capture_output=True, text=True, timeout=300)
    first, rest = p.stdout.split("\n", 1)
    assert first.startswith("certificate")
    report = ulaudit.audit(path)
    assert report.text == rest and str(report) == rest
    assert "SUPPORTED" in report.text.splitlines()[0]


def test_calibrate_is_the_cli_certificate(tmp_path):
    path = os.path.join(AUDITS, "gaussian-one-minus-erf.json")
    cli = run_cli("calibrate", path, parse_float=Decimal)
    got = ulaudit.calibrate(path)
    assert got == cli
    # the calibrated sigma is the library's digits, not the nearest double
    assert isinstance(got["parameters"]["sigma"], Decimal)
    with open(path) as f:
        assert ulaudit.calibrate(json.load(f)) == got
    # the completed certificate is supported, by the audit, not by the calibration's word
    assert ulaudit.audit(got).verdict == "supported"


OPACUS = {"history": [[1.1, 0.01, 1000]], "mechanism": "rdp"}


def test_import_certificate_is_the_cli_certificate(tmp_path):
    src = tmp_path / "opacus.json"
    src.write_text(json.dumps(OPACUS))
    cli = run_cli("import", "opacus", str(src), "--eps", "1", "--delta", "1e-5",
                  parse_float=Decimal)
    for source in (str(src), OPACUS, json.dumps(OPACUS)):
        got = ulaudit.import_certificate("opacus", source, eps="1", delta="1e-5")
        # "source" is prose naming what was read: the CLI names its file and --eps, the
        # library (given text and flags) does not; every other key is the same
        assert {k: v for k, v in got.items() if k != "source"} == {
            k: v for k, v in cli.items() if k != "source"}
        assert "opacus" in got["source"]
    assert ulaudit.audit(cli)["method"] == "dp-sgd"


def test_import_errors_carry_the_message():
    with pytest.raises(ulaudit.InputError) as ei:
        ulaudit.import_certificate("no-such-format", "{}")
    assert ei.value.status == "input" and ei.value.message


def _without_source(cert):
    return {k: v for k, v in cert.items() if k != "source"}


def test_import_certificate_takes_a_list_json_list_text_and_its_own_state(tmp_path):
    """README's ``import_certificate('opacus', acc.history, ...)``: a list, the same list
    as JSON text (starts with '['), and CertifiedAccountant().state_dict() (mechanism
    "ulaudit-pld", which the CLI refuses) give the CLI's certificate of the history."""
    from ulaudit.accountants import CertifiedAccountant
    history = [(1.1, 0.01, 1000), (2.0, 0.02, 30)]
    src = tmp_path / "history.json"
    src.write_text(json.dumps(history))
    cli = run_cli("import", "opacus", str(src), "--eps", "2", "--delta", "1e-5",
                  parse_float=Decimal)
    acc = CertifiedAccountant()
    acc.load_state_dict({"history": history, "mechanism": "ulaudit-pld"})
    for source in (history, acc.history, json.dumps(history), "  " + json.dumps(history),
                   acc.state_dict(), json.dumps(acc.state_dict())):
        got = ulaudit.import_certificate("opacus", source, eps="2", delta="1e-5")
        assert _without_source(got) == _without_source(cli)


def test_import_certificate_missing_file_is_input_error(tmp_path):
    path = str(tmp_path / "no-such.json")
    with pytest.raises(ulaudit.InputError) as ei:
        ulaudit.import_certificate("opacus", path, eps="1", delta="1e-5")
    assert ei.value.input == path and "No such file" in ei.value.message


def test_certificate_numbers_of_any_python_kind_are_their_decimal_text():
    """Numbers inside a dict certificate (numpy scalars, Fraction, Decimal) are written as
    the JSON numbers of their exact decimal text: the audit is the file's audit."""
    np = pytest.importorskip("numpy")
    from fractions import Fraction
    path = os.path.join(AUDITS, "gaussian-one-minus-erf.json")
    want = ulaudit.audit(path)
    with open(path) as f:
        cert = json.load(f)
    for sigma, sens, delta in ((np.float32(1), np.int64(2), Decimal("3.7584e-11")),
                               (Fraction(1), Decimal(2), np.float64(3.7584e-11)),
                               (Decimal("1.0"), 2, Fraction(37584, 10**15))):
        cert["parameters"].update(sigma=sigma, sensitivity=sens)
        cert["claim"]["delta"] = delta
        got = ulaudit.audit(cert)
        assert got["verdict"] == want["verdict"] == "refuted"
        assert got["recomputed"] == want["recomputed"]
    # np.float32(0.1) holds 0.100000001490116...; its shortest decimal, 0.1, is written
    cert["claim"]["delta"] = np.float32(0.1)
    assert ulaudit.audit(cert)["claim"].endswith(", 0.1)")
    for bad in (float("nan"), Fraction(1, 3), np.float64("inf")):
        cert["claim"]["delta"] = bad
        with pytest.raises(ulaudit.InputError) as ei:
            ulaudit.audit(cert)
        assert ei.value.input == "$.claim.delta"
