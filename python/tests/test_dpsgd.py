"""dpsgd_epsilon / dpsgd_delta against independent values: Opacus's own test
vectors (audits/dp-sgd-opacus-*.json, each with its source), the RDP route
(Mironov, Talwar, Zhang 2019 subsampled-Gaussian RDP, composed by adding
(Mironov 2017, Prop. 1), converted by ulaudit.rdp_to_dp), the closed form
without subsampling (T Gaussian steps of noise sigma are one Gaussian with
r = sqrt(T)/sigma: Dong, Roth, Su 2019, Cor. 3.3), and monotonicity."""
import json
import math
import os
from decimal import Decimal
from fractions import Fraction

import pytest

import ulaudit
from ulaudit.dpsgd import dpsgd_delta, dpsgd_epsilon

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def corpus(name):
    with open(os.path.join(ROOT, "audits", name)) as f:
        return json.load(f)


def overlap(a, b):
    """Two enclosures of the same exact number must intersect."""
    return a.lo <= b.hi and b.lo <= a.hi


def phases_of(cert):
    return [(p["noise_multiplier"], p["sample_rate"], p["steps"]) for p in cert["parameters"]["phases"]]


@pytest.fixture(scope="module")
def opacus_run():
    """eps(1e-5) of Opacus's test run: 2249 steps, sigma 1.5, q 0.04, given as
    the two phases of its load_state_dict test (the same run)."""
    cert = corpus("dp-sgd-opacus-rdp-two-phases.json")
    return dpsgd_epsilon(phases=phases_of(cert), delta=cert["claim"]["delta"])


def test_opacus_rdp_value_is_above_the_certified_epsilon(opacus_run):
    # Opacus's RDP accountant (a valid, looser bound) asserts 7.32911117143.
    rdp = Fraction(str(corpus("dp-sgd-opacus-rdp-two-phases.json")["claim"]["eps"]))
    assert opacus_run.hi <= rdp


def test_opacus_prv_value_within_its_error_bound(opacus_run):
    # PRV's eps_upper is within 2 * eps_error (0.01) above the true epsilon
    # (Gopi, Lee, Wutschitz 2021, Thm 5.5): true eps in [prv - 0.02, prv].
    cert = corpus("dp-sgd-opacus-prv-test-vector.json")
    prv = Fraction(str(cert["claim"]["eps"]))
    assert opacus_run.lo <= prv
    assert opacus_run.hi >= prv - Fraction("0.02")
    # the same run as one phase is the same bracket (phases are merged)
    one = dpsgd_epsilon(phases=phases_of(cert), delta=cert["claim"]["delta"])
    assert overlap(one, opacus_run)


def test_no_subsampling_is_the_gaussian_with_r_sqrt_t_over_sigma():
    # sigma 2, 4 steps, q = 1: r = sqrt(4)/2 = 1 exactly.
    pld = dpsgd_epsilon(2, 1, 4, "1e-5")
    closed = ulaudit.gauss_eps(1, "1e-5")
    assert overlap(pld, closed)
    # replace-one neighbours move the sum by 2 clipping norms: r = 2
    pld = dpsgd_epsilon(2, 1, 4, "1e-5", adjacency="replace")
    assert overlap(pld, ulaudit.gauss_eps(2, "1e-5"))


def test_rdp_route_is_an_upper_bound_above_the_bracket():
    sigma, q, steps, delta = "1.1", "0.01", 1000, "1e-5"
    pld = dpsgd_epsilon(sigma, q, steps, delta)
    best = None
    for alpha in (8, 10, 12, 16, 20, 24, 32):
        rdp = ulaudit.sgm_rdp(q, sigma, alpha).hi * steps
        eps = ulaudit.rdp_to_dp(alpha, "%.17g" % float_up(rdp), delta).hi
        best = eps if best is None else min(best, eps)
    assert pld.lo <= best  # soundness: the true eps is below every valid bound
    assert pld.hi <= best  # and PLD is the tighter accountant at this case


def float_up(x):
    f = float(x)
    return f if Fraction(f) >= x else math.nextafter(f, math.inf)


def test_delta_at_the_epsilon_bracket_brackets_delta():
    # eps.hi >= eps(delta) so delta(eps.hi) <= delta; eps.lo <= eps(delta) so
    # delta(eps.lo) >= delta (the privacy profile is non-increasing).
    delta = Fraction("1e-5")
    eps = dpsgd_epsilon("1.1", "0.01", 500, "1e-5")
    assert dpsgd_delta("1.1", "0.01", 500, eps=eps.hi_str).lo <= delta
    assert dpsgd_delta("1.1", "0.01", 500, eps=eps.lo_str).hi >= delta


def test_monotone_in_sigma_q_steps_and_delta():
    base = dpsgd_epsilon("1", "0.05", 100, "1e-5")
    assert dpsgd_epsilon("2", "0.05", 100, "1e-5").hi < base.lo       # more noise
    assert dpsgd_epsilon("1", "0.02", 100, "1e-5").hi < base.lo       # rarer sampling
    assert dpsgd_epsilon("1", "0.05", 30, "1e-5").hi < base.lo        # fewer steps
    assert dpsgd_epsilon("1", "0.05", 100, "1e-3").hi < base.lo       # larger delta


def test_phases_of_different_noise_lie_between_the_pure_runs():
    mixed = dpsgd_epsilon(phases=[("1", "0.05", 50), ("2", "0.05", 50)], delta="1e-5")
    assert mixed.lo <= dpsgd_epsilon("1", "0.05", 100, "1e-5").hi
    assert mixed.hi >= dpsgd_epsilon("2", "0.05", 100, "1e-5").lo


def test_add_remove_is_the_worse_of_add_and_remove():
    args = ("1", "0.05", 100, "1e-5")
    both = dpsgd_epsilon(*args)
    add, rem = dpsgd_epsilon(*args, adjacency="add"), dpsgd_epsilon(*args, adjacency="remove")
    assert both.hi >= max(add.lo, rem.lo)
    assert both.lo <= max(add.hi, rem.hi)


def test_numbers_are_read_from_their_decimal_text():
    a = dpsgd_epsilon("1.1", "0.01", 50, "1e-5")
    for args in ((Decimal("1.1"), Fraction(1, 100), 50, Decimal("1e-5")), (1.1, 0.01, 50, 1e-5)):
        b = dpsgd_epsilon(*args)
        assert (a.lo, a.hi) == (b.lo, b.hi)


@pytest.mark.parametrize("kwargs, name", [
    (dict(noise_multiplier=1, sample_rate=0.1, steps=10, phases=[(1, 0.1, 10)], delta=1e-5), "phases"),
    (dict(noise_multiplier=1, sample_rate=0.1, delta=1e-5), "steps"),
    (dict(noise_multiplier=1, sample_rate=0.1, steps=10), "delta"),
    (dict(noise_multiplier=1, sample_rate=0.1, steps=10, delta=1e-5, adjacency="both"), "adjacency"),
    (dict(phases=[(1, 0.1)], delta=1e-5), "phases[0]"),
    (dict(phases=[(1, 0.1, 2.5)], delta=1e-5), "phases[0].steps"),
])
def test_bad_arguments_name_the_argument(kwargs, name):
    with pytest.raises(ValueError) as e:
        dpsgd_epsilon(**kwargs)
    assert str(e.value).startswith(name + ":")


def test_library_errors_name_the_flag():
    with pytest.raises(ulaudit.InputError) as e:
        dpsgd_epsilon("1", "1.5", 10, "1e-5")
    assert "--phases" in str(e.value) and ".q" in str(e.value)


def test_arrays_broadcast_elementwise_with_outward_float_ends():
    """An array argument gives an EnclosureArray whose elements are the scalar
    calls' brackets, and whose float ends enclose them (lo rounded down, hi up);
    with q = 1 each element is the Gaussian mechanism composed T times, theta's
    inverse at r = sqrt(T)/sigma (ulaudit.gauss_eps), an independent route."""
    np = pytest.importorskip("numpy")
    sigmas = np.array([1.0, 2.0, 4.0])
    a = dpsgd_epsilon(noise_multiplier=sigmas, sample_rate=1, steps=4, delta="1e-5")
    assert a.shape == (3,)
    for i, s in enumerate(sigmas):
        one = dpsgd_epsilon(noise_multiplier=s, sample_rate=1, steps=4, delta="1e-5")
        assert (a[i].lo, a[i].hi) == (one.lo, one.hi)
        assert a.lo[i] <= one.lo and one.hi <= a.hi[i]
        g = ulaudit.gauss_eps(r=Fraction(2) / Fraction(repr(float(s))), delta="1e-5")
        assert one.lo <= g.hi and g.lo <= one.hi  # the two brackets of one value meet
    # two arrays broadcast; dpsgd_delta too; a bad element names its index
    d = dpsgd_delta(noise_multiplier=[[1.0], [2.0]], sample_rate=1, steps=[1, 4], eps=1)
    assert d.shape == (2, 2)
    assert float(d[1, 0].hi) < float(d[0, 0].lo)  # more noise, less delta
    with pytest.raises(ulaudit.InputError) as ei:
        dpsgd_epsilon(noise_multiplier=[1.0, -1.0], sample_rate=1, steps=4, delta="1e-5")
    assert "at index (1,)" in str(ei.value)
