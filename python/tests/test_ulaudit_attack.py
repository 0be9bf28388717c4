"""attack_scores on arrays gives the object of `ulaudit attack --scores IN,OUT
... --json`, key for key, for several methods on a sample of scores."""
import os

import pytest

import ulaudit
from conftest import run_cli

np = pytest.importorskip("numpy")

CASES = [
    dict(delta="1e-5"),
    dict(delta="1e-5", claim_eps="2", method="sum"),
    dict(delta="1e-5", method="family", alpha="0.1", sides="1"),
    dict(delta="1e-5", method="all"),
    dict(delta="1e-6", method="joint", weights="geometric", ratio="2"),
    dict(delta="1e-5", method="fixed", threshold="1.5"),
    dict(delta="1e-5", method="split", split_frac="0.5"),
    dict(delta="1e-5", method="onerun"),
    dict(delta="1e-5", method="onerun-fdp", claim_eps="1"),
    dict(delta="1e-5", method="sum", tie_break="20261129"),
]


@pytest.fixture(scope="module")
def scores(tmp_path_factory):
    rng = np.random.default_rng(20260526)
    a, b = rng.normal(1.0, 1.0, 600), rng.normal(0.0, 1.0, 600)
    d = tmp_path_factory.mktemp("scores")
    files = []
    for name, x in (("in.csv", a), ("out.csv", b)):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write("".join("%r\n" % float(v) for v in x))  # repr: the same doubles back
        files.append(path)
    return a, b, ",".join(files)


@pytest.mark.parametrize("flags", CASES, ids=lambda f: f.get("method", "joint"))
def test_python_and_cli_agree_key_for_key(scores, flags):
    a, b, files = scores
    args = [w for k, v in flags.items() for w in ("--" + k.replace("_", "-"), v)]
    cli = run_cli("attack", "--scores", files, *args, "--json", ok=(0, 1))
    got = ulaudit.attack_scores(a, b, **flags)
    assert got == cli
    # sequences give the same as arrays
    assert ulaudit.attack_scores(list(a), tuple(b), **flags) == got


def test_attack_errors_name_the_flag(scores):
    a, b, _ = scores
    with pytest.raises(ulaudit.InputError) as ei:
        ulaudit.attack_scores(a, b, delta="1e-5", method="no-such-method")
    assert ei.value.input == "method"


def test_levels_python_and_cli_agree_and_a_false_declaration_is_refused(tmp_path):
    """0/1 scores with two values declared: the same object through both
    front ends; continuous scores declared as two values: InputError on
    levels (the library refuses a bound under a false declaration)."""
    rng = np.random.default_rng(20261129)
    a = (rng.random(400) < 0.8).astype(float)
    b = (rng.random(400) < 0.2).astype(float)
    files = []
    for name, x in (("in.txt", a), ("out.txt", b)):
        path = tmp_path / name
        path.write_text("".join("%r\n" % float(v) for v in x))
        files.append(str(path))
    cli = run_cli("attack", "--scores", ",".join(files), "--method", "levels", "--levels", "2",
                  "--delta", "1e-5", "--json", ok=(0, 1))
    got = ulaudit.attack_scores(a, b, delta="1e-5", method="levels", levels=2)
    assert got == cli and got["levels"] == 2
    with pytest.raises(ulaudit.InputError) as ei:
        ulaudit.attack_scores(rng.normal(size=50), rng.normal(size=50), delta="1e-5",
                              method="levels", levels=2)
    assert ei.value.input == "levels"
