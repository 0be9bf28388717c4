"""The drop-in accountants driven the way their peers drive them, with
stand-in objects of the peers' shapes (Opacus and dp_accounting are not
installable here): an Opacus-like loop through get_optimizer_hook_fn, and
dp_accounting-like event classes.  Results are compared with the CLI
(`ulaudit calc pld-compose --json`, another entry point into the library),
with Opacus's test vectors (audits/dp-sgd-opacus-*.json), with the Gaussian
closed form at q = 1, and with the audit of the accountant's own claim."""
import enum
import json
import math
import os
import subprocess
from fractions import Fraction

import pytest

import ulaudit
from ulaudit import accountants
from ulaudit.accountants import CertifiedAccountant, DpEventAccountant, UnsupportedEventError

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BIN = os.environ.get("ULAUDIT_BIN", os.path.join(ROOT, "build", "ulaudit"))


def cli(*args):
    """`ulaudit calc pld-compose ARGS --json`'s (lo, hi) as Fractions."""
    if not os.access(BIN, os.X_OK):
        pytest.skip("no %s (make build/ulaudit)" % BIN)
    out = subprocess.run([BIN, "calc", "pld-compose", *args, "--json"], check=True,
                         capture_output=True, text=True).stdout
    o = json.loads(out)
    return Fraction(o["lo"]), Fraction(o["hi"])


def assert_rounded_up(value, hi):
    """value is the least double >= hi."""
    assert Fraction(value) >= hi
    assert Fraction(math.nextafter(value, -math.inf)) < hi


# --- Opacus's shapes -------------------------------------------------------
class DPOptimizer:
    """What IAccountant's hook reads of Opacus's DPOptimizer."""

    def __init__(self, noise_multiplier):
        self.noise_multiplier = noise_multiplier
        self.accumulated_iterations = 1


def train(accountant, schedule, sample_rate):
    """An Opacus-like loop: PrivacyEngine attaches the accountant's hook to
    the optimiser, which calls it once per optimiser step."""
    optim = DPOptimizer(schedule[0][0])
    hook = accountant.get_optimizer_hook_fn(sample_rate=sample_rate)
    for sigma, steps in schedule:
        optim.noise_multiplier = sigma
        for _ in range(steps):
            hook(optim)


def test_history_merges_equal_steps_as_opacus():
    acc = CertifiedAccountant()
    train(acc, [(1.1, 30), (1.5, 20), (1.1, 5)], 0.01)
    assert acc.history == [(1.1, 0.01, 30), (1.5, 0.01, 20), (1.1, 0.01, 5)]
    assert len(acc) == 3
    assert acc.mechanism() == CertifiedAccountant.mechanism() == "ulaudit-pld"


def test_gradient_accumulation_multiplies_the_sample_rate():
    acc = CertifiedAccountant()
    optim = DPOptimizer(1.0)
    optim.accumulated_iterations = 4
    acc.get_optimizer_hook_fn(sample_rate=0.01)(optim)
    assert acc.history == [(1.0, 0.04, 1)]


def test_epsilon_is_the_cli_bracket_rounded_up():
    acc = CertifiedAccountant()
    train(acc, [(1.1, 30), (1.5, 20)], 0.01)
    lo, hi = cli("--phases", "1.1:0.01:30,1.5:0.01:20", "--delta", "1e-5")
    assert_rounded_up(acc.get_epsilon(1e-5), hi)
    b = acc.get_epsilon(1e-5, bracket=True)
    assert (b.lo, b.hi) == (lo, hi)
    lo, hi = cli("--phases", "1.1:0.01:30,1.5:0.01:20", "--eps", "0.5")
    assert_rounded_up(acc.get_delta(0.5), hi)


def test_opacus_get_noise_multiplier_options_are_accepted_and_others_refused():
    """opacus.accountants.utils.get_noise_multiplier forwards its **kwargs to
    get_epsilon: RDP's alphas and PRV's eps_error/delta_error must not break the
    drop-in, and change nothing; a misspelt keyword is still an error."""
    acc = CertifiedAccountant()
    train(acc, [(1.1, 30)], 0.01)
    plain = acc.get_epsilon(1e-5)
    assert acc.get_epsilon(delta=1e-5, alphas=[2, 4, 8]) == plain
    assert acc.get_epsilon(delta=1e-5, eps_error=0.01, delta_error=1e-9) == plain
    with pytest.raises(TypeError, match="alpha"):
        acc.get_epsilon(delta=1e-5, alpha=[2])


def test_no_step_spends_nothing():
    assert CertifiedAccountant().get_epsilon(1e-5) == 0.0


def test_results_are_cached_per_history_and_delta(monkeypatch):
    calls = []
    real = accountants.dpsgd_epsilon
    monkeypatch.setattr(accountants, "dpsgd_epsilon", lambda **k: calls.append(k) or real(**k))
    acc = CertifiedAccountant()
    train(acc, [(1.0, 10)], 0.1)
    a, b = acc.get_epsilon(1e-5), acc.get_epsilon(1e-5)
    assert a == b and len(calls) == 1
    acc.get_epsilon(1e-6)
    train(acc, [(1.0, 1)], 0.1)
    assert acc.get_epsilon(1e-5) > a and len(calls) == 3


def test_state_dict_round_trip_as_opacus_test():
    # opacus/tests/accountants_test.py, test_accountant_load_state_dict: 1249
    # steps, saved, loaded into a new accountant, 1000 more (sigma 1.5, q 0.04);
    # its RDP accountant asserts 7.32911117143, PRV 6.777395712150674 (eps_error 0.01).
    first = CertifiedAccountant()
    train(first, [(1.5, 1249)], 0.04)
    state = first.state_dict()
    assert set(state) == {"history", "mechanism"} and state["mechanism"] == "ulaudit-pld"
    second = CertifiedAccountant()
    second.load_state_dict(json.loads(json.dumps(state)))  # survives a JSON checkpoint
    train(second, [(1.5, 1000)], 0.04)
    assert second.history == [(1.5, 0.04, 2249)]
    eps = second.get_epsilon(1e-5)
    assert eps <= 7.32911117143
    assert 6.777395712150674 - 0.02 <= eps <= 6.777395712150674


@pytest.mark.parametrize("state, what", [
    ({}, "empty"), ({"history": []}, "mechanism"), ({"mechanism": "ulaudit-pld"}, "history"),
    ({"history": [], "mechanism": "rdp"}, "rdp"),
])
def test_load_state_dict_refuses_other_states(state, what):
    with pytest.raises(ValueError, match=what):
        CertifiedAccountant().load_state_dict(state)


def test_certificate_of_the_epsilon_is_supported_and_of_half_is_not():
    acc = CertifiedAccountant()
    train(acc, [(1.0, 40), (2.0, 40)], 0.05)
    eps = acc.get_epsilon(1e-5)
    report = ulaudit.audit(acc.certificate(eps, "1e-5"))
    assert report["verdict"] == "supported"
    low = acc.get_epsilon(1e-5, bracket=True).lo / 2
    report = ulaudit.audit(acc.certificate("%.6f" % float(low), "1e-5"))
    assert report["verdict"] in ("unsupported", "refuted")


def test_bad_adjacency():
    with pytest.raises(ValueError, match="adjacency"):
        CertifiedAccountant("both")


# --- dp_accounting's shapes ------------------------------------------------
class DpEvent:
    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, self.__dict__)


class GaussianDpEvent(DpEvent):
    def __init__(self, noise_multiplier):
        self.noise_multiplier = noise_multiplier


class PoissonSampledDpEvent(DpEvent):
    def __init__(self, sampling_probability, event):
        self.sampling_probability, self.event = sampling_probability, event


class SelfComposedDpEvent(DpEvent):
    def __init__(self, event, count):
        self.event, self.count = event, count


class ComposedDpEvent(DpEvent):
    def __init__(self, events):
        self.events = events


class NoOpDpEvent(DpEvent):
    pass


class NonPrivateDpEvent(DpEvent):
    pass


class LaplaceDpEvent(DpEvent):
    def __init__(self, noise_multiplier):
        self.noise_multiplier = noise_multiplier


class NeighboringRelation(enum.Enum):
    ADD_OR_REMOVE_ONE = 1
    REPLACE_ONE = 2
    REPLACE_SPECIAL = 3


def dpsgd_event(sigma, q, steps):
    """How dp_accounting's users write DP-SGD (its dp_event docs)."""
    return SelfComposedDpEvent(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), steps)


def test_events_compose_as_the_cli_phases():
    acc = DpEventAccountant()
    assert acc.neighboring_relation == "add-remove"
    acc.compose(dpsgd_event(1.1, 0.01, 30)).compose(
        ComposedDpEvent([NoOpDpEvent(), PoissonSampledDpEvent(0.01, GaussianDpEvent(1.5))]), 20)
    lo, hi = cli("--phases", "1.1:0.01:30,1.5:0.01:20", "--delta", "1e-5")
    assert_rounded_up(acc.get_epsilon(1e-5), hi)
    lo, hi = cli("--phases", "1.1:0.01:30,1.5:0.01:20", "--eps", "0.5")
    assert_rounded_up(acc.get_delta(0.5), hi)
    # the Opacus-shaped accountant on the same steps agrees
    opacus = CertifiedAccountant()
    train(opacus, [(1.1, 30), (1.5, 20)], 0.01)
    assert opacus.get_epsilon(1e-5) == acc.get_epsilon(1e-5)


def test_replace_one_gaussian_is_the_closed_form():
    # T = 4 Gaussian releases of noise 2 under replace-one: sensitivity 2, r = 2 sqrt(4)/2 = 2
    acc = DpEventAccountant(NeighboringRelation.REPLACE_ONE)
    assert acc.neighboring_relation == "replace"
    acc.compose(SelfComposedDpEvent(GaussianDpEvent(2), 2), count=2)
    b = acc.get_epsilon(1e-5, bracket=True)
    closed = ulaudit.gauss_eps(2, "1e-5")
    assert b.lo <= closed.hi and closed.lo <= b.hi


def test_unsupported_events_are_refused_before_anything_is_composed():
    acc = DpEventAccountant()
    for event in (LaplaceDpEvent(1.0), PoissonSampledDpEvent(0.1, LaplaceDpEvent(1.0)),
                  ComposedDpEvent([GaussianDpEvent(1.0), LaplaceDpEvent(1.0)])):
        assert not acc.supports(event)
        with pytest.raises(UnsupportedEventError, match="LaplaceDpEvent"):
            acc.compose(event)
    assert acc.phases == [] and acc.get_epsilon(1e-5) == 0.0
    assert acc.supports(dpsgd_event(1.0, 0.1, 3))


def test_non_private_events_spend_everything():
    acc = DpEventAccountant().compose(dpsgd_event(1.0, 0.1, 3)).compose(NonPrivateDpEvent())
    assert acc.get_epsilon(1e-5) == math.inf and acc.get_delta(1.0) == 1.0


def test_bad_relation_and_count():
    with pytest.raises(ValueError, match="neighboring_relation"):
        DpEventAccountant(NeighboringRelation.REPLACE_SPECIAL)
    with pytest.raises(ValueError, match="count"):
        DpEventAccountant().compose(GaussianDpEvent(1.0), count=-1)


# --- inputs that would account for fewer steps than were taken (review of issue 26) ---
@pytest.mark.parametrize("history, where", [
    ([(1.1, 0.01, 1000.7)], r"history\[0\]\[2\] \(steps\): must be an integer"),
    ([(1.1, 0.01, 10), (0.5, 0.5, -10)], r"history\[1\]\[2\] \(steps\): must be >= 1"),
    ([(1.1, 0.01, True)], r"history\[0\]\[2\] \(steps\): must be an integer"),
    ([(1.1, 0.01, 0)], r"history\[0\]\[2\] \(steps\): must be >= 1"),
    ([(float("nan"), 0.01, 5)], r"history\[0\]\[0\] \(noise_multiplier\)"),
    ([(1.1, 1.5, 5)], r"history\[0\]\[1\] \(sample_rate\)"),
    ([(1.1, 0.01)], r"history\[0\]: a \(noise_multiplier"),
])
def test_load_state_dict_refuses_entries_it_would_truncate(history, where):
    acc = CertifiedAccountant()
    with pytest.raises(ulaudit.InputError, match=where) as ei:
        acc.load_state_dict({"history": history, "mechanism": "ulaudit-pld"})
    assert isinstance(ei.value, ValueError) and ei.value.input.startswith("history[")
    assert acc.history == []


def test_load_state_dict_takes_numpy_integer_steps():
    np = pytest.importorskip("numpy")
    acc = CertifiedAccountant()
    acc.load_state_dict({"history": [(1.1, 0.01, np.int64(7))], "mechanism": "ulaudit-pld"})
    assert acc.history == [(1.1, 0.01, 7)] and type(acc.history[0][2]) is int


@pytest.mark.parametrize("kw, name", [
    (dict(noise_multiplier=True, sample_rate=0.01), "noise_multiplier"),
    (dict(noise_multiplier=float("nan"), sample_rate=0.01), "noise_multiplier"),
    (dict(noise_multiplier=-1, sample_rate=0.01), "noise_multiplier"),
    (dict(noise_multiplier=0, sample_rate=0.01), "noise_multiplier"),
    (dict(noise_multiplier=1.0, sample_rate=float("inf")), "sample_rate"),
    (dict(noise_multiplier=1.0, sample_rate=1.01), "sample_rate"),
    (dict(noise_multiplier=1.0, sample_rate=0), "sample_rate"),
    (dict(noise_multiplier=1.0, sample_rate="x"), "sample_rate"),
])
def test_step_checks_its_arguments(kw, name):
    acc = CertifiedAccountant()
    with pytest.raises(ulaudit.InputError, match="^" + name) as ei:
        acc.step(**kw)
    assert ei.value.input == name and acc.history == []


@pytest.mark.parametrize("event, where", [
    (SelfComposedDpEvent(GaussianDpEvent(1.0), 2.5), r"^event\.count: must be an integer"),
    (SelfComposedDpEvent(GaussianDpEvent(1.0), True), r"^event\.count: must be an integer"),
    (ComposedDpEvent([GaussianDpEvent(1.0), SelfComposedDpEvent(GaussianDpEvent(1.0), -3)]),
     r"^event\.events\[1\]\.count: must be >= 1"),
    (GaussianDpEvent(float("nan")), r"^event\.noise_multiplier"),
    (GaussianDpEvent(-1), r"^event\.noise_multiplier"),
    (PoissonSampledDpEvent(1.5, GaussianDpEvent(1.0)), r"^event\.sampling_probability"),
    (PoissonSampledDpEvent(0.1, GaussianDpEvent(True)), r"^event\.event\.noise_multiplier"),
])
def test_compose_refuses_counts_and_parameters_it_would_drop(event, where):
    acc = DpEventAccountant()
    assert not acc.supports(event)
    with pytest.raises(ulaudit.InputError, match=where):
        acc.compose(event)
    assert acc.phases == [] and acc.get_epsilon(1e-5) == 0.0


def test_compose_count_must_be_an_integer():
    for bad in (2.5, True, -1):
        with pytest.raises(ulaudit.InputError, match="^count: must be"):
            DpEventAccountant().compose(GaussianDpEvent(1.0), count=bad)
