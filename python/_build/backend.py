"""The package's PEP 517 build backend, in the tree and on the standard
library only, so that `pip install ./python` needs nothing from the network
even with pip's build isolation (pyproject.toml: requires = [], this file
through backend-path).

A wheel is a zip of the package files plus NAME-VERSION.dist-info/ with
METADATA (core metadata 2.1), WHEEL (wheel format 1.0) and RECORD (each
file's urlsafe-base64 sha256 and size): PEP 427 and the PyPA "binary
distribution format" specification.  When the source tree has built the
shared library (../build/libulaudit.so.0, or $ULAUDIT_BUNDLE_LIBRARY), the
wheel carries a copy beside __init__.py, plus _installed.py naming it, and
is tagged for this platform (py3-none-linux_x86_64: a plain platform tag,
not manylinux: the copy links against this system's MPFR/MPFI/json-c/
nettle); otherwise it is pure (py3-none-any) and the package finds the
library installed on the system (pkg-config, the linker path).
"""

import base64
import hashlib
import io
import os
import re
import sysconfig
import tarfile
import time
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # python/
PACKAGE = "ulaudit"
SONAME = "libulaudit.so.0"
_FIELDS = ("name", "version", "description", "requires-python")
# Written into the wheel when the library is bundled: the loader's
# "path make install recorded" then names the copy beside it.
_INSTALLED = ('import os\n'
              'LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "%s")\n' % SONAME)


def _project():
    """name, version, description, requires-python of pyproject.toml's
    [project] (simple `key = "value"` lines: tomllib is 3.11+ only)."""
    with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    section = re.search(r"^\[project\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S).group(1)
    out = {}
    for key in _FIELDS:
        m = re.search(r'^%s\s*=\s*"([^"]*)"' % re.escape(key), section, re.M)
        if m:
            out[key] = m.group(1)
    return out


def _bundled_library():
    """The shared library to bundle, or None."""
    path = os.environ.get("ULAUDIT_BUNDLE_LIBRARY") or os.path.join(HERE, "..", "build", SONAME)
    return os.path.realpath(path) if path and os.path.isfile(path) else None


def _tag(bundled):
    if not bundled:
        return "py3-none-any"
    return "py3-none-" + re.sub(r"[-.]", "_", sysconfig.get_platform())


def _metadata():
    p = _project()
    lines = ["Metadata-Version: 2.1", "Name: " + p["name"], "Version: " + p["version"]]
    if "description" in p:
        lines.append("Summary: " + p["description"])
    if "requires-python" in p:
        lines.append("Requires-Python: " + p["requires-python"])
    lines.append("Provides-Extra: mpmath")
    lines.append('Requires-Dist: mpmath; extra == "mpmath"')
    return "\n".join(lines) + "\n"


def _dist_info():
    p = _project()
    return "%s-%s.dist-info" % (p["name"], p["version"])


def _package_files():
    """(archive name, bytes) of the package: its .py files and py.typed."""
    pkg = os.path.join(HERE, PACKAGE)
    for name in sorted(os.listdir(pkg)):
        if (name.endswith(".py") and name != "_installed.py") or name == "py.typed":
            with open(os.path.join(pkg, name), "rb") as f:
                yield "%s/%s" % (PACKAGE, name), f.read()


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def _write_wheel(wheel_directory, files, tag):
    p = _project()
    filename = "%s-%s-%s.whl" % (p["name"], p["version"], tag)
    info = _dist_info()
    files = list(files)
    files.append((info + "/METADATA", _metadata().encode()))
    files.append((info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: ulaudit-backend\n"
                                    "Root-Is-Purelib: %s\nTag: %s\n"
                                    % ("true" if tag.endswith("-any") else "false", tag)).encode()))
    record = [_record_line(n, d) for n, d in files] + [info + "/RECORD,,"]
    files.append((info + "/RECORD", ("\n".join(record) + "\n").encode()))
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            zi = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            zi.external_attr = (0o755 if name.endswith(".so.0") else 0o644) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    return filename


# --- PEP 517 / PEP 660 hooks ----------------------------------------------
def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = os.path.join(metadata_directory, _dist_info())
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata())
    return _dist_info()


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = list(_package_files())
    lib = _bundled_library()
    if lib:
        with open(lib, "rb") as f:
            files.append(("%s/%s" % (PACKAGE, SONAME), f.read()))
        files.append(("%s/_installed.py" % PACKAGE, _INSTALLED.encode()))
    return _write_wheel(wheel_directory, files, _tag(lib))


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """A wheel holding only a .pth naming this directory: the package is
    imported from the tree, which finds build/ itself."""
    return _write_wheel(wheel_directory, [(PACKAGE + ".pth", (HERE + "\n").encode())],
                        "py3-none-any")


def build_sdist(sdist_directory, config_settings=None):
    p = _project()
    base = "%s-%s" % (p["name"], p["version"])
    filename = base + ".tar.gz"
    members = [("pyproject.toml", os.path.join(HERE, "pyproject.toml")),
               ("_build/backend.py", os.path.abspath(__file__))]
    members += [(n, os.path.join(HERE, n)) for n, _ in _package_files()]
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as t:
        for name, path in members:
            t.add(path, arcname="%s/%s" % (base, name))
        data = _metadata().encode()
        ti = tarfile.TarInfo("%s/PKG-INFO" % base)
        ti.size, ti.mtime, ti.mode = len(data), int(time.time()), 0o644
        t.addfile(ti, io.BytesIO(data))
    return filename
