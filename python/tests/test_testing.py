"""ulaudit.testing against `ulaudit vectors check` (the binary of the build) on the
RESULTS text the harness wrote, for the deliberately wrong implementations of
tests/test_vectors_check.c written again here in Python: the same counts per class
and quantity, the same rows in each class.  Independently of both, every value
called unsafe is checked to lie below its enclosure's lo and every safe-inaccurate
one above hi (exact decimal comparison, dec_cmp), and the defects planted
are seen (a truncated series under-states rho, a loose bisection stopping on the
unsafe side gives eps under the least, ...)."""
import math
import re

import pytest

import ulaudit
from conftest import run_cli
from ulaudit import testing

SQRT2 = math.sqrt(2)


def dec_cmp(a, b):
    """The sign of a - b for decimal texts, exactly, whatever their exponents (the
    enclosures go down to 1e-2171472409516259138255427484, beyond Decimal's range)."""
    def parts(t):
        m = re.fullmatch(r"([+-]?)(\d*)\.?(\d*)(?:[eE]([+-]?\d+))?", t)
        assert m, t
        digits = (m.group(2) + m.group(3)).lstrip("0")
        if not digits:
            return 0, "", 0
        # value = digits * 10^(e - len(frac)); scientific exponent below
        adjusted = len(digits) - 1 + int(m.group(4) or 0) - len(m.group(3))
        return (-1 if m.group(1) == "-" else 1), digits.rstrip("0"), adjusted
    sa, da, ea = parts(a)
    sb, db, eb = parts(b)
    if sa != sb or sa == 0:
        return (sa > sb) - (sa < sb)
    mag = (ea > eb) - (ea < eb) or (da.ljust(len(db), "0") > db.ljust(len(da), "0")) - (
        da.ljust(len(db), "0") < db.ljust(len(da), "0"))
    return sa * mag


def _exp(x):
    """e^x as C's exp: +inf on overflow (Python raises)."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _div(a, b):
    """a / b in IEEE 754 (C's): ±inf or NaN at b = 0 (Python raises)."""
    if b == 0:
        return math.nan if a == 0 or math.isnan(a) else math.copysign(math.inf, a)
    return a / b


def _q_diff(eps, r, q):
    """theta = Q(eps/r - r/2) - e^eps Q(eps/r + r/2) (Balle & Wang 2018, Thm 8) with the
    tail function q given; 0 * inf is NaN as in C."""
    a, b = _div(eps, r) - r / 2, _div(eps, r) + r / 2
    return q(a) - _exp(eps) * q(b)


def theta_one_minus_erf(eps, r):
    """Q(x) = (1 - erf(x/sqrt 2))/2: the subtraction loses the tail past x ~ 8."""
    return _q_diff(eps, r, lambda x: 0.5 * (1 - math.erf(x / SQRT2)))


def theta_erfc(eps, r):
    """The Balle-Wang formula in doubles with erfc: no 1 - erf, but the difference
    of the two terms still cancels where theta is far below either."""
    return _q_diff(eps, r, lambda x: 0.5 * math.erfc(x / SQRT2))


def check_against_cli(fn, family, tmp_path, **kw):
    """testing.check, then the command on the CSV it wrote: equal counts, equal
    rows per class; and the direction of every unsafe and safe value, by Decimal."""
    result = testing.check(fn, family, **kw)
    path = tmp_path / "results.csv"
    path.write_text(result.csv)
    cli = run_cli("vectors", "check", "--family", family, str(path), "--json", "--rows",
                  ok=(0, 1, 3))
    assert {q["quantity"]: q["counts"] for q in cli["quantities"]} == result.counts
    assert cli["exit"] == result.exit_code and cli["failed"] == (not result.ok)
    assert cli["rows_classified"] == result.report["rows_classified"]
    for r in result.rows["unsafe"]:
        assert dec_cmp(r.value, r.lo) < 0, r
    for r in result.rows["safe-inaccurate"]:
        assert dec_cmp(r.value, r.hi) > 0, r
    for r in result.rows["exact"]:
        assert r.as_double or dec_cmp(r.lo, r.value) <= 0 <= dec_cmp(r.hi, r.value), r
    return result


def test_one_minus_erf_theta_same_counts_as_the_command(tmp_path):
    r = check_against_cli(theta_one_minus_erf, "theta", tmp_path)
    assert r.mode == "per-row"  # math.erf refuses arrays: the rule falls back
    assert r.counts["theta"]["unsafe"] > 20  # the tail lost to 1 - erf
    assert not r.ok and r.exit_code == 1


def test_float32_theta_same_counts_as_the_command(tmp_path):
    np = pytest.importorskip("numpy")
    f = np.float32

    def theta_float(eps, r):
        """Every step rounded to float32 (erfc's result too): underflow below ~1e-45."""
        with np.errstate(all="ignore"):
            e, rf = f(eps), f(r)
            a, b = e / rf - rf / f(2), e / rf + rf / f(2)
            qa = f(0.5) * f(math.erfc(float(a / f(SQRT2))))
            qb = f(0.5) * f(math.erfc(float(b / f(SQRT2))))
            return float(qa - f(_exp(float(e))) * qb)

    r = check_against_cli(theta_float, "theta", tmp_path)
    assert r.counts["theta"]["unsafe"] > 20
    # a float32 value widened to a double is written exactly: it is that float
    assert all(float(f(float(x.value))) == float(x.value) for x in r.rows["unsafe"]
               if math.isfinite(float(x.value)))


def test_classic_sigma_rule_vectorised_same_counts_as_the_command(tmp_path):
    np = pytest.importorskip("numpy")

    def sigma_classic(eps, delta):
        """Dwork & Roth 2014, Thm A.1: sigma = sqrt(2 ln(1.25/delta))/eps, proved for
        eps < 1 only."""
        with np.errstate(all="ignore"):
            return np.sqrt(2 * np.log(np.float64(1.25) / delta)) / eps

    r = check_against_cli(sigma_classic, "gauss-sigma", tmp_path)
    assert r.mode == "vectorized"
    assert r.counts["sigma"]["unsafe"] > 0  # the rule is unsafe at large eps
    assert all(float(x.inputs["eps"]) >= 1 for x in r.rows["unsafe"]), \
        "Thm A.1 holds for eps < 1: its sigma is enough there"
    # forced per row (numpy scalars): the same values, the same classes
    per_row = testing.check(sigma_classic, "gauss-sigma", vectorized=False)
    assert per_row.mode == "per-row" and per_row.counts == r.counts


def test_loose_bisection_same_counts_as_the_command(tmp_path):
    def eps_loose_bisection(r, delta):
        """The smallest eps with theta <= delta, bisected to 1e-3, returning the lower
        end of the bracket: the side where theta > delta."""
        if theta_erfc(0.0, r) <= delta:
            return 0.0
        lo, hi = 0.0, 1.0
        while theta_erfc(hi, r) > delta and hi < 1e6:
            hi *= 2
        while hi - lo > 1e-3:
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if theta_erfc(mid, r) > delta else (lo, mid)
        return lo

    r = check_against_cli(eps_loose_bisection, "gauss-eps", tmp_path)
    assert r.counts["eps"]["unsafe"] > 10


def test_truncated_rdp_series_same_counts_as_the_command(tmp_path):
    def sgm_rdp_truncated(q, sigma, alpha):
        """The subsampled Gaussian's RDP at integer alpha, the binomial sum
        sum_k C(alpha,k)(1-q)^(alpha-k) q^k e^((k^2-k)/(2 sigma^2)) (Mironov, Talwar
        & Zhang 2019, sec. 3.3) cut after k = 2: every dropped term is positive.
        Fractional orders: not implemented (SKIP)."""
        if alpha != int(alpha):
            return testing.SKIP
        a = int(alpha)
        s = sum(math.comb(a, k) * (1 - q) ** (a - k) * q ** k * _exp((k * k - k) / (2 * sigma ** 2))
                for k in range(min(a, 2) + 1))
        return (math.log(s) if s > 0 else -math.inf) / (a - 1)  # C's log(0) = -inf

    r = check_against_cli(sgm_rdp_truncated, "sgm-rdp", tmp_path)
    n = sum(r.counts["rdp"].values())
    assert 0 < n < len(testing.vectors("sgm-rdp")["rows"])  # the fractional orders left out
    assert r.counts["rdp"]["unsafe"] + r.counts["rdp"]["invalid"] > 20
    # at alpha = 2 the sum has no term past k = 2: nothing dropped, only rounding and
    # log(s) of s = 1 + O(q^2) (no log1p: ~1e-16/q^2 relative at q = 1e-4)
    assert all(x.error < 1e-9 for x in r.rows["unsafe"] if x.inputs["alpha"] == "2")
    assert max(x.error for x in r.rows["unsafe"]) > 1e-3


def test_balle_wang_in_doubles_reported_as_it_is(tmp_path):
    """The 'textbook correct' theta in doubles via erfc: not 1 - erf, but the
    difference of two terms still cancels in the tail and e^eps overflows at
    eps = 1000; the check says so (values under the truth are unsafe, whatever
    their cause).  Counts as the command's; what they are is printed (README)."""
    r = check_against_cli(theta_erfc, "theta", tmp_path)
    print(r.text)
    c = r.counts["theta"]
    assert c["exact"] > 80 and c["unsafe"] > 0 and not r.ok
    # one ulp matters: the correctly rounded double is exact, the double below it not
    first = testing.vectors("theta")["rows"][40]
    d = float(first["theta"]["double"])
    assert first["theta"]["flag"] == "ok"
    row = "eps,r,theta\n%s,%s,%r\n%s,%s,%r\n" % (first["inputs"]["eps"], first["inputs"]["r"], d,
                                                 first["inputs"]["eps"], first["inputs"]["r"],
                                                 math.nextafter(d, 0))
    one = testing.check_csv("theta", row)
    assert [x.line for x in one.rows["exact"]] == [2]
    assert [x.line for x in one.rows["unsafe"]] == [3]


def correctly_rounded(family, quantity):
    """An 'implementation' returning the vectors' correctly rounded double where it is
    a normal double (flag ok), SKIP elsewhere: vectors/README.md says it must pass.
    It takes the inputs' decimal text (inputs="text"): delta = 1e-400 is no double."""
    table = {tuple(r["inputs"].values()): r[quantity] for r in testing.vectors(family)["rows"]}

    def fn(*args):
        v = table[args]
        return float(v["double"]) if v["flag"] == "ok" else testing.SKIP
    return fn


def test_correctly_rounded_doubles_conform():
    r = testing.assert_conforms(correctly_rounded("gauss-eps", "eps"), family="gauss-eps",
                                strict=True, inputs="text")
    assert r.ok and r.counts["eps"]["exact"] == sum(r.counts["eps"].values()) > 0


def test_assert_conforms_lists_the_worst_rows():
    with pytest.raises(AssertionError) as e:
        testing.assert_conforms(theta_one_minus_erf, family="theta", show=3)
    text = str(e.value)
    assert "theta_one_minus_erf does not conform" in text and "unsafe" in text
    assert text.count("\n  line ") == 3


def test_tuple_and_dict_returns_name_the_quantities():
    def both(eps, r):
        t = theta_erfc(eps, r)
        return (t, math.log(t) if t > 0 else -math.inf)

    r = testing.check(both, "theta")
    assert set(r.counts) == {"theta", "log_theta"}
    d = testing.check(lambda eps, r: {"log_theta": both(eps, r)[1]}, "theta")
    assert set(d.counts) == {"log_theta"} and d.counts["log_theta"] == r.counts["log_theta"]
    with pytest.raises(ValueError, match="not a quantity"):
        testing.check(lambda eps, r: {"thetta": 0.1}, "theta")


def test_vectorised_rule():
    np = pytest.importorskip("numpy")
    calls = []

    def counted(eps, r):
        calls.append(type(eps))
        return theta_erfc(eps, r)  # math.erfc: arrays refused

    testing.check(counted, "theta")
    assert calls[0] is np.ndarray and calls[1] is float  # tried once with arrays, then rows
    with pytest.raises(ValueError, match="ambiguous"):  # the array call's own error
        testing.check(counted, "theta", vectorized=True)
    calls.clear()
    testing.check(counted, "theta", vectorized=False)
    assert np.ndarray not in calls


def test_errors():
    with pytest.raises(ulaudit.InputError, match="did you mean 'theta'"):
        testing.vectors("thta")
    with pytest.raises(ValueError, match="tolerance"):
        testing.check(theta_erfc, "theta", tolerance=-1)
    with pytest.raises(ulaudit.InputError, match="line 2, column 'theta'"):
        testing.check_csv("theta", "eps,r,theta\n1,1,0x1p-3\n")
    with pytest.raises(OverflowError):
        testing.check(lambda eps, r: math.exp(eps), "theta", vectorized=False)
    r = testing.check(lambda eps, r: math.exp(eps), "theta", vectorized=False,
                      on_error="invalid")
    assert r.errors and r.counts["theta"]["invalid"] >= len(r.errors)
