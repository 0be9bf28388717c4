"""Shared helpers of the Python tests: the source tree and its CLI."""
import json
import os
import subprocess

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CLI = os.path.join(ROOT, "build", "ulaudit")


def run_cli(*args, ok=(0,), parse_float=float):
    """`build/ulaudit ARGS`: its stdout parsed as JSON (pytest skips without the CLI)."""
    if not os.path.exists(CLI):
        pytest.skip("build/ulaudit not built (make build/ulaudit)")
    p = subprocess.run([CLI] + list(args), capture_output=True, text=True, timeout=300)
    assert p.returncode in ok, (args, p.returncode, p.stderr)
    return json.loads(p.stdout, parse_float=parse_float)
