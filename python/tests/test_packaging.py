"""The in-tree PEP 517 backend (python/_build/backend.py) checked against
the wheel format itself (PEP 427: RECORD's urlsafe-base64 sha256 of each
file recomputed here with hashlib from the zip's bytes) and against
pyproject.toml read with the standard TOML parser (tomllib, Python 3.11).
The full offline `pip install` in a venv is `make test-pip`."""
import base64
import hashlib
import importlib.util
import os
import tarfile
import zipfile

import pytest

PY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
tomllib = pytest.importorskip("tomllib")


def backend():
    spec = importlib.util.spec_from_file_location("ulaudit_backend",
                                                  os.path.join(PY, "_build", "backend.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def project():
    with open(os.path.join(PY, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)


def test_build_needs_nothing_but_the_tree(project):
    bs = project["build-system"]
    assert bs["requires"] == []
    assert bs["backend-path"] == ["_build"] and bs["build-backend"] == "backend"
    b = backend()
    assert b.get_requires_for_build_wheel() == [] and b.get_requires_for_build_sdist() == []


@pytest.mark.parametrize("bundle", [False, True])
def test_wheel_record_hashes_and_metadata(tmp_path, monkeypatch, project, bundle):
    lib = tmp_path / "libulaudit.so.0"
    lib.write_bytes(b"\x7fELF not really a library")
    monkeypatch.setenv("ULAUDIT_BUNDLE_LIBRARY", str(lib) if bundle else str(tmp_path / "none"))
    b = backend()
    monkeypatch.setattr(b, "HERE", PY)
    if not bundle:  # no ../build/ copy either
        monkeypatch.setattr(b, "_bundled_library", lambda: None)
    name = b.build_wheel(str(tmp_path))
    meta = project["project"]
    assert name.startswith("%s-%s-py3-none-" % (meta["name"], meta["version"]))
    assert name.endswith("-any.whl") != bundle
    with zipfile.ZipFile(tmp_path / name) as z:
        names = set(z.namelist())
        info = "%s-%s.dist-info/" % (meta["name"], meta["version"])
        record = z.read(info + "RECORD").decode().splitlines()
        for line in record:
            path, digest, size = line.rsplit(",", 2)
            if path == info + "RECORD":
                assert digest == size == ""
                continue
            data = z.read(path)
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert digest == "sha256=" + want and int(size) == len(data)
        assert {line.rsplit(",", 2)[0] for line in record} == names
        metadata = z.read(info + "METADATA").decode()
        wheel = z.read(info + "WHEEL").decode()
    assert "Name: %s\n" % meta["name"] in metadata and "Version: %s\n" % meta["version"] in metadata
    assert "Root-Is-Purelib: %s" % ("false" if bundle else "true") in wheel
    assert {"ulaudit/__init__.py", "ulaudit/dpsgd.py", "ulaudit/accountants.py",
            "ulaudit/py.typed"} <= names
    assert ("ulaudit/libulaudit.so.0" in names) == bundle
    assert ("ulaudit/_installed.py" in names) == bundle


def test_sdist_holds_the_backend_and_the_package(tmp_path, project):
    b = backend()
    name = b.build_sdist(str(tmp_path))
    base = "%s-%s/" % (project["project"]["name"], project["project"]["version"])
    with tarfile.open(tmp_path / name) as t:
        names = set(t.getnames())
    assert {base + "pyproject.toml", base + "_build/backend.py", base + "PKG-INFO",
            base + "ulaudit/__init__.py", base + "ulaudit/py.typed"} <= names


def test_metadata_directory(tmp_path, project):
    b = backend()
    d = b.prepare_metadata_for_build_wheel(str(tmp_path))
    assert d == "%s-%s.dist-info" % (project["project"]["name"], project["project"]["version"])
    text = (tmp_path / d / "METADATA").read_text()
    assert "Requires-Python: %s" % project["project"]["requires-python"] in text
