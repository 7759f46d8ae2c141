"""Issue 29: A-IHT II's de-bias step (Algorithm 3, lines 8-10) takes the same step rule as its
first step: the exact line search along the de-bias gradient, halved by ``step="authors"``.
Only the first step μ is recorded in ``info``; this test rebuilds one full iteration by brute
force (a scalar line search, no library code) and compares the returned weights."""

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from inferopt.coresets import a_iht_ii


def f_dense(Phi, y, w):
    r = y - Phi @ w
    return float(r @ r)


def one_iteration(Phi, y, k, half, half2=None):
    """w_1 of Algorithm 3 from w = z = 0, every step by an independent scalar line search
    (``half2``: the de-bias step's factor, ``half`` unless given)."""
    n = Phi.shape[1]
    g = -2 * Phi.T @ y
    top = np.argsort(-np.abs(g))[:k]
    d = np.zeros(n)
    d[top] = g[top]
    mu = half * minimize_scalar(lambda m: f_dense(Phi, y, -m * d), tol=1e-14).x
    v = -mu * g                                   # z - mu * grad with z = 0 (full gradient)
    X = np.argsort(-v)[:k]
    X = np.sort(X[v[X] > 0])
    x = np.zeros(n)
    x[X] = v[X]
    g2 = np.zeros(n)
    g2[X] = (-2 * Phi.T @ (y - Phi @ x))[X]       # de-bias gradient on the support
    mu2 = (half if half2 is None else half2) * minimize_scalar(lambda m: f_dense(Phi, y, x - m * g2), tol=1e-14).x
    return np.maximum(x - mu2 * g2, 0.0)


@pytest.mark.parametrize("step, half", [("exact", 1.0), ("authors", 0.5)])
def test_debias_step_follows_the_step_rule(step, half):
    rng = np.random.default_rng(7)
    Phi = rng.standard_normal((12, 30)) + 0.3
    y = Phi @ np.abs(rng.standard_normal(30))
    k = 5
    res = a_iht_ii(Phi, y, k, max_iter=1, step=step)
    want = one_iteration(Phi, y, k, half)
    np.testing.assert_allclose(res.x, want, rtol=1e-6, atol=1e-9)
    # the check can fail: the other rule's de-bias step alone gives visibly different weights
    other = one_iteration(Phi, y, k, half, half2=1.5 - half)
    assert np.linalg.norm(other - want) > 1e-3 * np.linalg.norm(want)

