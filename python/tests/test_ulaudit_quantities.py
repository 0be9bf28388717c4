"""Every calculator quantity as a Python function: generated from the library's
table (and never drifting from it), agreeing with the CLI on each quantity's
example, reading numpy scalars exactly, vectorised over arrays with float64
ends rounded outward, errors naming their input."""
import inspect
import math
import os
import pydoc
import shlex
import subprocess
import sys
from fractions import Fraction

import pytest

import ulaudit
from conftest import ROOT, run_cli

np = pytest.importorskip("numpy")
GENERATED = os.path.join(ROOT, "python", "ulaudit", "_quantities.py")
GENERATOR = os.path.join(ROOT, "python", "tools", "gen_quantities.py")


def example(q):
    words = shlex.split(q["example"])[3:]
    return [(words[i][2:], words[i + 1]) for i in range(0, len(words), 2)]


def keyword(flag):
    name = flag.replace("-", "_")
    return name + "_" if name in ("lambda",) else name


def test_generated_module_is_what_the_library_table_gives():
    out = subprocess.run([sys.executable, GENERATOR], capture_output=True, text=True,
                         timeout=300, check=True).stdout
    with open(GENERATED) as f:
        committed = f.read()
    assert out == committed, ("python/ulaudit/_quantities.py differs from the library's table: "
                              "run python3 python/tools/gen_quantities.py " + GENERATED)


def test_every_quantity_is_a_function_with_every_flag():
    for q in ulaudit.quantities():
        sig = inspect.signature(getattr(ulaudit, q["name"].replace("-", "_")))
        params = [p for p in sig.parameters if p not in ("digits", "max_bits", "max_seconds")]
        assert sorted(params) == sorted(keyword(f["name"]) for f in q["flags"])
        assert sig.parameters["max_seconds"].kind == inspect.Parameter.KEYWORD_ONLY
        assert sig.return_annotation is not inspect.Signature.empty


@pytest.mark.parametrize("q", ulaudit.quantities(), ids=lambda q: q["name"])
def test_cli_and_python_agree_on_the_example(q):
    flags = example(q)
    cli = run_cli("calc", q["name"], *[w for k, v in flags for w in ("--" + k, v)], "--json",
                  "--max-seconds", "0")
    got = getattr(ulaudit, q["name"].replace("-", "_"))(**{keyword(k): v for k, v in flags})
    if "lo" in cli:
        assert isinstance(got, ulaudit.Enclosure)
        assert (got.lo_str, got.hi_str) == (cli["lo"], cli["hi"])
    else:
        assert isinstance(got, int) and got == cli["value"]
        assert isinstance(got, ulaudit.WholeNumber)


def test_help_shows_summary_each_flag_default_and_example():
    table = {q["name"]: q for q in ulaudit.quantities()}
    for name in ("noisygd-k", "pld-compose", "gauss-sigma"):
        text = pydoc.render_doc(getattr(ulaudit, name.replace("-", "_")), renderer=pydoc.plaintext)
        q = table[name]
        assert q["summary"][1:40] in text and q["example"] in text
        for f in q["flags"]:
            assert keyword(f["name"]) + ":" in text
            assert " ".join(f["help"].split()) in " ".join(text.split())
    assert "eps_dd: 'Arg'" in pydoc.render_doc(ulaudit.noisygd_k, renderer=pydoc.plaintext)


def test_existing_helpers_keep_their_positional_signatures():
    assert ulaudit.gauss_sigma("1", "1e-5", "2") == ulaudit.gauss_sigma(eps="1", delta="1e-5",
                                                                        sensitivity="2")
    assert ulaudit.rdp_to_dp("2", "0.5", "1e-5", "mironov").hi_str == ulaudit.calc(
        "rdp-to-dp", alpha="2", rdp="0.5", delta="1e-5", conversion="mironov")["hi"]
    assert ulaudit.sgm_rdp("0.01", "1.1", "8", 30).hi - ulaudit.sgm_rdp("0.01", "1.1", "8",
                                                                         30).lo < Fraction(1, 10**30)


def test_numpy_scalars_are_read_from_their_shortest_decimal():
    # np.float32(0.1) holds 0.100000001490116...; its shortest repr is 0.1
    assert ulaudit.theta(np.float32(1), np.float32(0.1)) == ulaudit.theta("1", "0.1")
    assert ulaudit.theta(np.int64(1), np.float64(0.5)) == ulaudit.theta("1", "0.5")
    assert ulaudit.gauss_eps(np.float16(0.5), np.float64(1e-5)) == ulaudit.gauss_eps("0.5",
                                                                                     "1e-5")
    assert ulaudit.theta(np.float64(1e-300), "0.5") == ulaudit.theta("1e-300", "0.5")
    for bad in (True, np.True_):
        with pytest.raises(TypeError, match="^eps: "):
            ulaudit.theta(bad, "1")


def outward(a):
    """Every float end is a double on the right side of the exact end, and the nearest such."""
    for e, lo, hi in zip(a.enclosures.flat, a.lo.flat, a.hi.flat):
        assert Fraction(lo) <= e.lo and Fraction(math.nextafter(lo, math.inf)) > e.lo
        assert Fraction(hi) >= e.hi and Fraction(math.nextafter(hi, -math.inf)) < e.hi


def test_arrays_broadcast_and_round_outward():
    r = np.array([0.5, 1.0, 2.0], dtype=np.float32)
    a = ulaudit.theta(eps=np.array([[0], [1]]), r=r)
    assert isinstance(a, ulaudit.EnclosureArray) and a.shape == (2, 3)
    assert a.lo.dtype == np.float64 and a.hi.dtype == np.float64
    for i, eps in enumerate(("0", "1")):
        for j, rv in enumerate(("0.5", "1", "2")):
            assert a[i, j] == ulaudit.theta(eps, rv)
    outward(a)
    assert np.all(a.lo <= a.hi)


def test_lists_vectorise_except_a_list_valued_flag():
    steps = ulaudit.contraction_steps(eps=1, r=[1.5, 2], delta="1e-6")
    assert list(steps) == [ulaudit.contraction_steps(eps=1, r=x, delta="1e-6") for x in
                           ("1.5", "2")]
    # contraction's --r is a per-step list: a Python list is that list, not a vector
    assert ulaudit.contraction(eps=1, r=[2, 1, 0.5], steps=3) == ulaudit.enclosure(
        "contraction", eps="1", r="2,1,0.5", steps="3")
    # pld-compose's phases: (sigma, q, steps) tuples
    assert ulaudit.pld_compose(phases=[(1.1, 0.01, 100), (2, 0.01, 100)], eps=1) == \
        ulaudit.enclosure("pld-compose", phases="1.1:0.01:100,2:0.01:100", eps="1")


def test_vanishing_ends_stay_sound():
    # the example's adaptive contraction delta is about 1e-293506264962940004869229507169476305519759758
    e = ulaudit.contraction(eps=1, r=2, steps=10, delta0="0.1", mode="adaptive")
    assert e.lo == 0 < e.hi <= Fraction(1, 10**100000) and "e-2935062649" in e.hi_str


def test_errors_name_their_input():
    with pytest.raises(ulaudit.InputError) as ei:
        ulaudit.noisygd_k(q=2, l=1, lambda_="0.01", beta=1, sigma="0.001", eta="0.5", n=60000,
                          eps_dd=-1)
    assert ei.value.input == "eps-dd" and ei.value.status == "input"
    assert "--eps-dd" in ei.value.message
    with pytest.raises(ulaudit.InputError) as ei:
        ulaudit.theta("1", "-1")
    assert ei.value.input == "r"
    with pytest.raises(ulaudit.InputError) as ei:
        ulaudit.calc("theta", eps="1", r="1", foo="2")
    assert "foo" in ei.value.message
