"""A notebook-style tour (cells marked `# %%`, runnable as a script, in an
editor with cell support, or pasted into Jupyter): DP-SGD in numpy with the
certified accountant, an audit of its final claim, a calibration, and the
certified eps(delta) curve.

    python3 examples/notebook.py [PLOT.png]       (or $ULAUDIT_PLOT; default: a temp dir)

Needs numpy and matplotlib (Debian: python3-numpy, python3-matplotlib) and
the ulaudit package (`pip install ./python`, `make install`, or
PYTHONPATH=python with build/).  Runs in a few seconds.
"""

# %% Setup: the plot's path, a seeded generator.
import json
import os
import sys
import tempfile

import numpy as np

import ulaudit
from ulaudit.accountants import CertifiedAccountant
from ulaudit.dpsgd import dpsgd_epsilon

PLOT = (sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ULAUDIT_PLOT")
        or os.path.join(tempfile.mkdtemp(prefix="ulaudit-notebook-"), "eps-delta.png"))
DELTA = "1e-5"
rng = np.random.default_rng(2026)
print("ulaudit", ulaudit.version(), "from", os.path.dirname(ulaudit.__file__))

# %% Data: logistic regression on synthetic points (n examples, d features).
n, d = 2000, 10
w_true = rng.normal(size=d)
X = rng.normal(size=(n, d)) / np.sqrt(d)
y = (rng.random(n) < 1 / (1 + np.exp(-4 * X @ w_true))).astype(float)

# %% DP-SGD as Opacus runs it (Abadi et al. 2016): a Poisson sample of rate q,
# per-example gradients clipped to norm C, Gaussian noise of std sigma*C on
# their sum, divided by the expected batch size; the accountant steps once
# per optimiser step (what Opacus's hook does).  Two phases of noise, as a
# schedule would give.
q, C, lr = 64 / n, 1.0, 2.0
schedule = [(1.0, 150), (1.3, 150)]          # (noise multiplier, steps)
accountant = CertifiedAccountant()            # add-remove neighbours, Opacus's convention
w = np.zeros(d)
for sigma, steps in schedule:
    for _ in range(steps):
        batch = rng.random(n) < q             # Poisson sampling
        Xb, yb = X[batch], y[batch]
        grads = (1 / (1 + np.exp(-Xb @ w)) - yb)[:, None] * Xb
        norms = np.maximum(np.linalg.norm(grads, axis=1) / C, 1.0)
        noisy = (grads / norms[:, None]).sum(axis=0) + rng.normal(scale=sigma * C, size=d)
        w -= lr * noisy / (q * n)
        accountant.step(noise_multiplier=sigma, sample_rate=q)
accuracy = np.mean((X @ w > 0) == (y > 0.5))
print("history", accountant.history, "accuracy %.3f" % accuracy)

# %% The certified epsilon at delta 1e-5: a float rounded up from the PLD
# bracket's upper end, and the bracket itself (the exact epsilon is inside).
eps = accountant.get_epsilon(DELTA)
bracket = accountant.get_epsilon(DELTA, bracket=True)
print("certified eps(%s) <= %.6f   bracket [%s, %s]" % (DELTA, eps, bracket.lo_str, bracket.hi_str))

# %% An audit of that claim: the history as a ulaudit-certificate/1 (method
# dp-sgd, man ulaudit-certificate(5)), checked by the library's own audit
# (RDP first, then the PLD bracket).
certificate = accountant.certificate(eps, DELTA, source="examples/notebook.py")
report = ulaudit.audit(certificate)
print("audit:", report["verdict"])
assert report["verdict"] == "supported", json.dumps(report, indent=1)

# %% Calibration: the same schedule's shape with the noise multiplier left
# out, completed by `calibrate` to claim eps = 1 at delta 1e-5 (one phase).
target = {"format": "ulaudit-certificate/1", "method": "dp-sgd",
          "parameters": {"sample_rate": repr(q), "steps": 300, "adjacency": "add-remove"},
          "claim": {"eps": "1", "delta": DELTA}}
calibrate = getattr(ulaudit, "calibrate", None)
if calibrate is None:
    print("calibrate: not in this version of the package (skipped)")
else:
    done = calibrate(target)
    done = json.loads(done) if isinstance(done, str) else done
    sigma = done["parameters"]["noise_multiplier"]
    check = dpsgd_epsilon(sigma, q, 300, DELTA)
    print("calibrated noise multiplier %s: certified eps <= %s" % (sigma, check.hi_str))
    assert check.hi <= 1

# %% The certified eps(delta) curve of the run: lo and hi of the bracket.
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

deltas = ["1e-%d" % k for k in range(2, 10)]
curve = [accountant.get_epsilon(dl, bracket=True) for dl in deltas]
fig, ax = plt.subplots(figsize=(5, 3.5))
xs = [float(dl) for dl in deltas]
ax.plot(xs, [float(c.hi) for c in curve], "o-", label="certified upper (hi)")
ax.plot(xs, [float(c.lo) for c in curve], "x--", label="lower end (lo)")
ax.set_xscale("log")
ax.set_xlabel("delta")
ax.set_ylabel("epsilon")
ax.set_title("DP-SGD, %d steps: certified eps(delta)" % sum(t for _, _, t in accountant.history))
ax.legend()
fig.tight_layout()
fig.savefig(PLOT, dpi=100)
print("plot:", PLOT)
