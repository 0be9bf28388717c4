"""Finding and binding libulaudit.so.0 (ctypes; nothing is compiled).

Discovery order (the first that loads wins): ``$ULAUDIT_LIBRARY``; the
package's own directory (the wheel bundles the library beside __init__.py);
the path ``make install`` recorded (``_installed.LIBRARY``); the library
directory of the prefix the package is installed under (PREFIX/lib beside
PREFIX/lib/python3/dist-packages/ulaudit: a DESTDIR-staged or moved
install); pkg-config's libdir of ``ulaudit``; ``build/`` of the source tree
this package sits in; the system linker path.  If none loads, ImportError lists every place tried.
"""
import ctypes
import ctypes.util
import os
import subprocess
from typing import Iterator, List, Optional

SONAME = "libulaudit.so.0"
ERR_LEN = 4096
_HERE = os.path.dirname(os.path.abspath(__file__))


def _pkg_config_libdir() -> Optional[str]:
    """`pkg-config --variable=libdir ulaudit`, or None when pkg-config or the .pc is absent."""
    try:
        out = subprocess.run(["pkg-config", "--variable=libdir", "ulaudit"],
                             capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    libdir = out.stdout.strip()
    return libdir if out.returncode == 0 and libdir else None


def _candidates() -> Iterator[str]:
    env = os.environ.get("ULAUDIT_LIBRARY")
    if env:
        yield env
    yield os.path.join(_HERE, SONAME)
    try:
        from . import _installed  # written by `make install`
        yield _installed.LIBRARY
    except ImportError:
        pass
    yield os.path.normpath(os.path.join(_HERE, "..", "..", "..", SONAME))  # PREFIX/lib
    libdir = _pkg_config_libdir()
    if libdir:
        yield os.path.join(libdir, SONAME)
    yield os.path.normpath(os.path.join(_HERE, "..", "..", "build", SONAME))
    found = ctypes.util.find_library("ulaudit")
    if found:
        yield found
    yield SONAME


def load() -> ctypes.CDLL:
    """The first library of the discovery order that loads."""
    tried: List[str] = []
    for path in _candidates():
        if os.path.isabs(path) and not os.path.exists(path):
            tried.append("%s (absent)" % path)
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("ulaudit: libulaudit.so.0 not found; tried, in order: " + "; ".join(tried)
                      + ". Set ULAUDIT_LIBRARY to its path, or install it (make install).")


LIB = load()
LIB.ulaudit_version.restype = ctypes.c_char_p
LIB.ulaudit_version.argtypes = []
LIB.ulaudit_free.restype = None
LIB.ulaudit_free.argtypes = [ctypes.c_void_p]
LIB.ulaudit_thread_cleanup.restype = None
LIB.ulaudit_thread_cleanup.argtypes = []

P = ctypes.POINTER(ctypes.c_void_p)
STRS = ctypes.POINTER(ctypes.c_char_p)
DBL = ctypes.POINTER(ctypes.c_double)
SIZE = ctypes.c_size_t
CHAR = ctypes.c_char_p


class Options(ctypes.Structure):
    """ulaudit_options: digits (0: 17), max_bits (0: 65536)."""
    _fields_ = [("digits", ctypes.c_int), ("max_bits", ctypes.c_long)]


# Every function returning ulaudit_status, with its argument types (include/ulaudit.h).
_PROTOS = {
    "ulaudit_calc": [CHAR, STRS, STRS, SIZE, ctypes.POINTER(Options), P, CHAR, SIZE],
    "ulaudit_calc_list": [P, CHAR, SIZE],
    "ulaudit_audit_file": [CHAR, ctypes.POINTER(Options), P, ctypes.POINTER(ctypes.c_int), CHAR,
                           SIZE],
    "ulaudit_audit_string": [CHAR, SIZE, ctypes.POINTER(Options), P,
                             ctypes.POINTER(ctypes.c_int), CHAR, SIZE],
    "ulaudit_audit_file_forms": [CHAR, ctypes.POINTER(Options), P, P,
                                 ctypes.POINTER(ctypes.c_int), CHAR, SIZE],
    "ulaudit_audit_string_forms": [CHAR, SIZE, ctypes.POINTER(Options), P, P,
                                   ctypes.POINTER(ctypes.c_int), CHAR, SIZE],
    "ulaudit_calibrate_file": [CHAR, ctypes.POINTER(Options), P, CHAR, SIZE],
    "ulaudit_calibrate_string": [CHAR, SIZE, ctypes.POINTER(Options), P, CHAR, SIZE],
    "ulaudit_attack_stats": [DBL, SIZE, DBL, SIZE, STRS, STRS, SIZE, P, CHAR, SIZE],
    "ulaudit_import": [CHAR, CHAR, SIZE, STRS, STRS, SIZE, P, CHAR, SIZE],
    "ulaudit_limits_set": [ctypes.c_double, ctypes.POINTER(ctypes.c_int), CHAR, SIZE],
    "ulaudit_vectors_rows": [CHAR, ctypes.c_int, P, CHAR, SIZE],
    "ulaudit_vectors_check": [CHAR, CHAR, SIZE, CHAR, ctypes.c_int, P, CHAR, SIZE],
}
_bound = {}


def fn(name: str):
    """The library function `name` with its prototype, bound on first use (a
    library older than 0.2.0 then fails only the calls it lacks, by name)."""
    f = _bound.get(name)
    if f is None:
        try:
            f = getattr(LIB, name)
        except AttributeError:
            raise ImportError("ulaudit: the loaded libulaudit (%s) has no %s: version 0.2.0 or "
                              "later is needed" % (version(), name)) from None
        if name == "ulaudit_limits_clear":
            f.argtypes, f.restype = [], None
        else:
            f.argtypes, f.restype = _PROTOS[name], ctypes.c_int
        _bound[name] = f
    return f


def version() -> str:
    """The loaded library's version, "MAJOR.MINOR.PATCH"."""
    return LIB.ulaudit_version().decode()


def take(ptr: ctypes.c_void_p) -> Optional[str]:
    """The library-owned string at ptr, decoded, then freed."""
    if not ptr.value:
        return None
    try:
        return ctypes.string_at(ptr.value).decode()
    finally:
        LIB.ulaudit_free(ptr)


def options(digits: Optional[int], max_bits: Optional[int]) -> Options:
    """ulaudit_options from the keyword arguments (None: the library's default), range
    checked as include/ulaudit.h states (digits 1..5000, max_bits 64..4194304)."""
    from ._text import option
    return Options(option("digits", digits, 1, 5000), option("max_bits", max_bits, 64, 4194304))


def strings(items: List[bytes]):
    """A C array of n char * (at least one slot: ctypes refuses empty arrays)."""
    return (ctypes.c_char_p * max(len(items), 1))(*items)
