"""Bad arguments raise InputError naming them (review of issue 26): the rules are the
package's documented ones (include/ulaudit.h's ranges of digits and max_bits), and
each case is checked against an independent fact (Python's own limits, the CLI)."""
import math
import sys
from fractions import Fraction

import pytest

import ulaudit
from conftest import run_cli


def _names(call, name, *args, **kw):
    with pytest.raises(ulaudit.InputError) as ei:
        call(*args, **kw)
    assert isinstance(ei.value, ValueError) and ei.value.input == name, ei.value.message
    return ei.value


def test_bool_is_an_input_type_error_naming_the_argument():
    e = _names(ulaudit.theta, "eps", True, "0.5")
    assert isinstance(e, TypeError)


def test_fraction_without_finite_decimal_names_the_argument():
    _names(ulaudit.theta, "r", "1", Fraction(1, 3))


def test_integers_past_the_str_limit_are_read():
    # Python refuses str(10**5000) ("Exceeds the limit (4300 digits)") by default
    if hasattr(sys, "get_int_max_str_digits"):
        with pytest.raises(ValueError):
            str(10**5000)
    e = _names(ulaudit.theta, "eps", 10**5000, "0.5")  # |E| <= 1e9: the library's rule
    assert "1e9" in e.message or "E" in e.message


@pytest.mark.parametrize("kw, name", [
    (dict(digits=1.5), "digits"), (dict(digits=2**32 + 5), "digits"), (dict(digits=0.0), "digits"),
    (dict(digits=5001), "digits"), (dict(max_bits=63), "max_bits"),
    (dict(max_bits=2**64 + 128), "max_bits"), (dict(digits=True), "digits"),
])
def test_digits_and_max_bits_are_range_checked_before_the_c_struct(kw, name):
    # include/ulaudit.h: digits 1..5000, max_bits 64..4194304; a C int would wrap 2**32+5 to 5
    _names(ulaudit.calc, name, "theta", eps="1", r="0.5", **kw)


def test_adjacency_and_integral_steps():
    _names(ulaudit.dpsgd_epsilon, "adjacency", 1.1, 0.01, 100, 1e-5, adjacency="foo")
    _names(ulaudit.dpsgd_epsilon, "steps", 1.1, 0.01, 100.5, 1e-5)
    # an integral float is a whole number, as the quantities' whole-number flags read it
    # (`ulaudit calc noisygd-k ... --n 1000.0` is accepted)
    assert ulaudit.dpsgd_epsilon(1.1, 0.01, 100.0, 1e-5) == ulaudit.dpsgd_epsilon(
        1.1, 0.01, 100, 1e-5)


def test_attack_scores_refuses_what_is_no_1d_array_of_reals():
    np = pytest.importorskip("numpy")
    good = np.array([0.1, 0.2, 0.3])
    _names(ulaudit.attack_scores, "in_scores", ["1", "x"], good)
    _names(ulaudit.attack_scores, "out_scores", good, [0.1, True])
    _names(ulaudit.attack_scores, "in_scores", np.ones((3, 1)), good)
    _names(ulaudit.attack_scores, "out_scores", good, np.array([]))


def test_vectorised_errors_name_the_index_and_shapes():
    np = pytest.importorskip("numpy")
    e = _names(ulaudit.theta, "eps", np.array([1.0, 2e9]), "0.5")
    assert "(1,)" in e.message
    with pytest.raises(ulaudit.InputError, match="eps, r: shapes"):
        ulaudit.theta(np.ones(2), np.ones(3))


def test_enclosure_contains_numpy_scalars_and_0d_len():
    np = pytest.importorskip("numpy")
    e = ulaudit.Enclosure("4.377", "4.378")
    # np.float32(4.377) holds 4.37699985504150390625 < lo; its shortest decimal is 4.377
    assert Fraction(float(np.float32(4.377))) < Fraction("4.377")
    assert e.contains(np.float32(4.377)) and not e.contains(np.float32(4.3769))
    a = ulaudit.theta(np.array(1.0), "0.5")
    with pytest.raises(TypeError):
        len(a)


def test_infinite_max_seconds_is_no_limit():
    assert ulaudit.theta("1", "0.5", max_seconds=math.inf) == ulaudit.theta("1", "0.5")
    _names(ulaudit.theta, "max_seconds", "1", "0.5", max_seconds=True)
