#!/bin/sh
# make test-pip: `pip install ./python` in a fresh venv with no network (pip's
# default build isolation on: the build backend is in the tree and requires
# nothing), then examples/notebook.py run with the venv's python from outside
# the tree, with no ULAUDIT_LIBRARY and no PYTHONPATH: the installed package
# must find its library by itself (the copy the wheel bundles).
#   tools/test-pip.sh PYTHON ROOT      (PYTHON: Debian's /usr/bin/python3)
set -eu
PY=${1:-/usr/bin/python3}
ROOT=$(cd "${2:-.}" && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ulaudit-pip.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

# --system-site-packages: numpy and matplotlib come from Debian's packages.
if ! "$PY" -m venv --system-site-packages "$TMP/venv" >"$TMP/venv.log" 2>&1; then
    echo "test-pip: SKIPPED: $PY -m venv is unusable (Debian: python3-venv, make deps):"
    sed 's/^/    /' "$TMP/venv.log" | head -3
    exit 0
fi
# No network: no index, a closed local port as proxy, no config, no cache.
export PIP_NO_INDEX=1 PIP_CONFIG_FILE=/dev/null PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
export http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9
export HTTP_PROXY=$http_proxy HTTPS_PROXY=$https_proxy
"$TMP/venv/bin/pip" install --no-index --quiet "$ROOT/python"

cd "$TMP"
env -u ULAUDIT_LIBRARY -u PYTHONPATH "$TMP/venv/bin/python" -c '
import os, sys, ulaudit
here = os.path.dirname(ulaudit.__file__)
assert here.startswith(sys.prefix), "imported from %s, not the venv" % here
assert os.path.isfile(os.path.join(here, "py.typed")), "no py.typed"
lib = ulaudit._lib.LIB._name  # the CDLL the package loaded
assert lib.startswith(here), "library %s loaded, not the copy in %s" % (lib, here)
print("test-pip: ulaudit", ulaudit.version(), "installed in", here)'
env -u ULAUDIT_LIBRARY -u PYTHONPATH "$TMP/venv/bin/python" "$ROOT/examples/notebook.py" "$TMP/eps-delta.png"
test -s "$TMP/eps-delta.png"
echo "test-pip: passed"
