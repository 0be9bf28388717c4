"""The library's discovery order (api of issue 26) and the ImportError that lists
every place tried."""
import os

import pytest

from ulaudit import _lib


def test_discovery_order(monkeypatch):
    monkeypatch.setenv("ULAUDIT_LIBRARY", "/env/libulaudit.so.0")
    monkeypatch.setattr(_lib, "_pkg_config_libdir", lambda: "/pc/lib")
    got = list(_lib._candidates())
    here = os.path.dirname(os.path.abspath(_lib.__file__))
    build = os.path.normpath(os.path.join(here, "..", "..", "build", _lib.SONAME))
    assert got[0] == "/env/libulaudit.so.0"
    assert got[1] == os.path.join(here, _lib.SONAME)  # a wheel's bundled library
    # then (`make install`'s record when present) the prefix's lib/, pkg-config's libdir,
    # build/, the linker
    prefix_lib = os.path.normpath(os.path.join(here, "..", "..", "..", _lib.SONAME))
    assert got.index(prefix_lib) < got.index("/pc/lib/" + _lib.SONAME) < got.index(build)
    assert got.index(build) < len(got) - 1
    assert got[-1] == _lib.SONAME


def test_import_error_lists_every_place_tried(monkeypatch):
    monkeypatch.setattr(_lib, "_candidates", lambda: iter(["/no/a/libulaudit.so.0",
                                                           "/no/b/libulaudit.so.0"]))
    with pytest.raises(ImportError) as ei:
        _lib.load()
    msg = str(ei.value)
    assert "/no/a/libulaudit.so.0 (absent)" in msg and "/no/b/libulaudit.so.0 (absent)" in msg
    assert "ULAUDIT_LIBRARY" in msg


def test_numpy_is_not_imported_until_used():
    import subprocess
    import sys
    code = "import sys, ulaudit; ulaudit.theta('1', 0.5); print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)), timeout=60)
    assert out.stdout.strip() == "False", out.stderr
