#!/usr/bin/env python3
"""tools/vectors-check-peers.py — peers' privacy accountants against ulaudit's
certified reference vectors, through ulaudit.testing.check (the code of
`ulaudit vectors check`), one table row per (peer, family).  Run by `make bench`
(ULAUDIT_LIBRARY and PYTHONPATH=python set there), or by hand:

    ULAUDIT_LIBRARY=build/libulaudit.so.0 PYTHONPATH=python python3 tools/vectors-check-peers.py

The peers' sources are read from local git snapshots, never fetched:
$OPACUS_GIT, $DP_ACCOUNTING_GIT, $TF_PRIVACY_GIT (defaults: the repositories of
/work/.mirror/<owner>+<name>/repo), extracted with `git archive HEAD` into a
temporary directory and imported from there.  A peer whose snapshot or imports are
missing prints SKIPPED with the reason.  What each peer is asked:

  Opacus (opacus/accountants/analysis/rdp.py, numpy + scipy):
    sgm-rdp      _compute_rdp(q, sigma, alpha)
    rdp-to-eps   get_privacy_spent(orders=[alpha], rdp=[rdp], delta=delta)[0], the
                 conversion of Balle et al. 2020, Thm 21 ("bbghs" rows only)
  dp_accounting (python/dp_accounting, numpy + scipy + attrs; absl only for
  logging warnings: a no-op stand-in when absl is absent, said in the output):
    sgm-rdp      rdp_privacy_accountant._compute_rdp_poisson_subsampled_gaussian
    rdp-to-eps   rdp_privacy_accountant.compute_epsilon([alpha], [rdp], delta)[0]
    rdp-to-delta rdp_privacy_accountant.compute_delta([alpha], [rdp], eps)[0]
                 (both "bbghs" rows only: Balle et al. 2020's conversion, to which
                 dp_accounting adds a KL-divergence shortcut, a different valid bound;
                 where it is smaller than bbghs's value the row is counted unsafe
                 against the bbghs enclosure: read those rows before concluding)
    gauss-sigma  gaussian_mechanism.get_sigma_gaussian(eps, delta) (sensitivity 1)
    gauss-eps    gaussian_mechanism.get_epsilon_gaussian(1 / r, delta)
  TF Privacy: its RDP and Gaussian accounting is dp_accounting's (it imports it);
    printed SKIPPED unless the snapshot has an accountant of its own.

An exception raised by a peer counts as invalid (no value) and is counted in the
"raised" column.  Exit 0 always (a benchmark): the table is the result.
"""
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
import types
import warnings

MIRROR = "/work/.mirror"


def extract(env, default, paths, into):
    """`git archive HEAD paths` of the snapshot into `into`; its directory or None."""
    git = os.environ.get(env, os.path.join(MIRROR, default, "repo"))
    if not os.path.isdir(git):
        return None, "no snapshot at %s (set %s)" % (git, env)
    a = subprocess.run(["git", "--git-dir", git, "archive", "HEAD"] + paths, capture_output=True)
    if a.returncode != 0:
        return None, "git archive failed: %s" % a.stderr.decode(errors="replace").strip()
    subprocess.run(["tar", "-x", "-C", into], input=a.stdout, check=True)
    head = subprocess.run(["git", "--git-dir", git, "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    return into, head


def load_file(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bbghs_only(f):
    """A conversion function asked on the "bbghs" rows only (the others: SKIP)."""
    from ulaudit.testing import SKIP
    return lambda conversion, alpha, rdp, x: f(alpha, rdp, x) if conversion == "bbghs" else SKIP


def opacus(tmp):
    root, head = extract("OPACUS_GIT", "pytorch+opacus", ["opacus/accountants/analysis/rdp.py"],
                         tmp)
    if root is None:
        return head, {}
    rdp = load_file("opacus_rdp", os.path.join(root, "opacus/accountants/analysis/rdp.py"))
    return "Opacus %s" % head, {
        "sgm-rdp": lambda q, sigma, alpha: rdp._compute_rdp(q, sigma, alpha),
        "rdp-to-eps": bbghs_only(
            lambda a, r, d: rdp.get_privacy_spent(orders=[a], rdp=[r], delta=d)[0]),
    }


def absl_stand_in():
    """absl.logging as a no-op when absl is absent (dp_accounting logs warnings only)."""
    try:
        import absl.logging  # noqa: F401
        return ""
    except ImportError:
        absl = types.ModuleType("absl")
        absl.logging = types.ModuleType("absl.logging")
        for level in ("warning", "info", "debug", "error", "log"):
            setattr(absl.logging, level, lambda *a, **k: None)
        sys.modules["absl"], sys.modules["absl.logging"] = absl, absl.logging
        return ", absl.logging stand-in"


def dp_accounting(tmp):
    root, head = extract("DP_ACCOUNTING_GIT", "google+differential-privacy",
                         ["python/dp_accounting/dp_accounting"], tmp)
    if root is None:
        return head, {}
    note = absl_stand_in()
    stub = types.ModuleType("dp_accounting")  # its __init__ pulls dm-tree and the PLD part
    stub.__path__ = [os.path.join(root, "python/dp_accounting/dp_accounting")]
    sys.modules["dp_accounting"] = stub
    from dp_accounting import gaussian_mechanism as gm
    from dp_accounting.rdp import rdp_privacy_accountant as ra
    return "dp_accounting %s%s" % (head, note), {
        "sgm-rdp": lambda q, s, a: ra._compute_rdp_poisson_subsampled_gaussian(q, s, [a])[0],
        "rdp-to-eps": bbghs_only(lambda a, r, d: ra.compute_epsilon([a], [r], d)[0]),
        "rdp-to-delta": bbghs_only(lambda a, r, e: ra.compute_delta([a], [r], e)[0]),
        "gauss-sigma": lambda eps, delta: gm.get_sigma_gaussian(eps, delta),
        "gauss-eps": lambda r, delta: gm.get_epsilon_gaussian(
            1 / r if r > 0 else float("inf"), delta),
    }


def tf_privacy(tmp):
    root, head = extract("TF_PRIVACY_GIT", "tensorflow+privacy",
                         ["tensorflow_privacy/privacy/analysis"], tmp)
    if root is None:
        return head, {}
    own = os.path.join(root, "tensorflow_privacy/privacy/analysis/rdp_accountant.py")
    if not os.path.exists(own):
        return ("TF Privacy %s: no accountant of its own (privacy/analysis imports "
                "dp_accounting: see its rows)" % head), {}
    return "TF Privacy %s: rdp_accountant.py present, not wired here" % head, {}


# unsafe by more than rounding: a relative error above 1e-9 (a double result one
# ulp under the truth is unsafe too, by 1e-16: the strict rule of the checker)
GROSS = 1e-9
HEADER = "%-14s %-13s %5s %6s %15s %7s %11s %8s %7s %6s" % (
    "peer", "family", "rows", "exact", "safe-inaccurate", "unsafe", "unsafe>1e-9", "invalid",
    "raised", "secs")


def run_peer(make, tmp):
    from ulaudit import testing
    try:
        name, fns = make(tmp)
    except ImportError as e:
        print("%-14s SKIPPED: import failed: %s" % (make.__name__, e))
        return
    if not fns:
        print("%-14s SKIPPED: %s" % (make.__name__, name))
        return
    print("# %s" % name)
    for family, fn in fns.items():
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import numpy as np
            with np.errstate(all="ignore"):
                r = testing.check(fn, family, vectorized=False, on_error="invalid")
        secs = time.perf_counter() - t0
        for q, c in r.counts.items():
            gross = sum(1 for x in r.rows["unsafe"] if x.quantity == q and x.error > GROSS)
            print("%-14s %-13s %5d %6d %15d %7d %11d %8d %7d %6.1f" % (
                make.__name__, "%s/%s" % (family, q) if len(r.counts) > 1 else family,
                sum(c.values()), c["exact"], c["safe-inaccurate"], c["unsafe"], gross,
                c["invalid"], len(r.errors), secs))
        for row in r.worst(1) + r.rows["invalid"][:1]:
            print("    %s: %r" % (row.cls, row))


def main():
    try:
        import numpy  # noqa: F401
        import scipy  # noqa: F401
    except ImportError as e:
        print("vectors-check-peers: SKIPPED: %s (the peers need numpy and scipy)" % e)
        return 0
    print("vectors-check-peers: peers' accountants against the certified vectors "
          "(ulaudit.testing.check; unsafe = below the enclosure, on the side that hurts users)")
    print(HEADER)
    with tempfile.TemporaryDirectory(prefix="ulaudit-peers-") as tmp:
        for make in (opacus, dp_accounting, tf_privacy):
            sub = os.path.join(tmp, make.__name__)
            os.makedirs(sub)
            run_peer(make, sub)
    return 0


if __name__ == "__main__":
    sys.exit(main())
