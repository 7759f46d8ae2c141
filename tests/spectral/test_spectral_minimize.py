"""GPML's minimize.m port (:func:`inferopt.spectral.minimize_cg`) against scipy's minimum, and the authors' LANCZOS with it."""

import numpy as np
import pytest
import scipy.optimize

from inferopt.spectral import minimize_cg


def quadratic():
    rng = np.random.default_rng(0)
    Q = rng.normal(size=(6, 6))
    A, b = Q @ Q.T + 0.5 * np.eye(6), rng.normal(size=6)
    return (lambda x: (0.5 * x @ A @ x - b @ x, A @ x - b)), np.linalg.solve(A, b)


def rosenbrock(x):
    return scipy.optimize.rosen(x), scipy.optimize.rosen_der(x)


def test_quadratic_reaches_scipy_minimum():
    f, x_star = quadratic()
    x, fX, n = minimize_cg(f, np.zeros(6), 100)
    ref = scipy.optimize.minimize(f, np.zeros(6), jac=True, method="BFGS").x
    assert np.allclose(x, x_star, atol=1e-6) and np.allclose(x, ref, atol=1e5)
    assert np.all(np.diff(fX) <= 1e-12)          # accepted iterates never go up


def test_rosenbrock_reaches_scipy_minimum_within_evaluations():
    count = {"n": 0}

    def f(x):
        count["n"] += 1
        return rosenbrock(x)

    x, fX, n = minimize_cg(f, np.array([-1.2, 1.0, -0.5, 0.8]), 2000)
    ref = scipy.optimize.minimize(rosenbrock, np.array([-1.2, 1.0, -0.5, 0.8]), jac=True, method="L-BFGS-B").x
    assert np.allclose(x, ref, atol=1e-4) and np.allclose(x, 1.0, atol=1e-4)
    assert count["n"] <= 2000 + 1            # max_evals caps the evaluations (the start's included by minimize.m's count)


def test_evaluation_budget_and_failed_evaluations_bisect():
    count = {"n": 0}

    def f(x):                                 # fails beyond x > 2: the line search bisects back
        count["n"] += 1
        if x[0] > 2:
            return np.inf, np.array([np.nan])
        return (x[0] - 1.9) ** 2, np.array([2 * (x[0] - 1.9)])

    x, _, _ = minimize_cg(f, np.array([-5.0]), 30)
    assert count["n"] <= 31 and abs(x[0] - 1.9) < 1e-3
    few = {"n": 0}
    minimize_cg(lambda x: (few.__setitem__("n", few["n"] + 1), rosenbrock(x))[1], np.array([-1.2, 1.0]), 5)
    assert few["n"] <= 6


def test_bad_input():
    f, _ = quadratic()
    with pytest.raises(ValueError, match="max_evals"):
        minimize_cg(f, np.zeros(6), 0)
    with pytest.raises(TypeError, match="fun"):
        minimize_cg(3, np.zeros(6), 10)


def test_clipped_box_reaches_scipy_bounded_minimum():
    """The case of the authors' LANCZOS on sound: ``minimize`` has no bounds and works on ``x ↦ f(clip x)``, flat across a
    bound (gradient 0 there); its minimum is the box-constrained one, as scipy's L-BFGS-B with bounds finds it."""
    f, x_star = quadratic()
    lo, hi = x_star - 0.5, x_star + 0.5
    lo[0], hi[0] = x_star[0] + 0.3, x_star[0] + 2.0           # the minimum lies outside the box in coordinate 0

    def clipped(x):
        value, grad = f(np.clip(x, lo, hi))
        return value, np.where(np.clip(x, lo, hi) == x, grad, 0.0)

    x, fX, _ = minimize_cg(clipped, np.clip(np.zeros(6), lo, hi), 400)
    ref = scipy.optimize.minimize(f, np.clip(np.zeros(6), lo, hi), jac=True, method="L-BFGS-B", bounds=list(zip(lo, hi)))
    assert np.allclose(np.clip(x, lo, hi), ref.x, atol=1e-5) and abs(fX[-1] - ref.fun) < 1e-8
    assert np.isclose(np.clip(x, lo, hi)[0], lo[0])            # ends on the bound


def test_first_step_and_extrapolation_as_minimize_m():
    """minimize.m's first trial step is ``1 / (1 + |∇f|²)`` along ``-∇f`` (``x3 = red/(1-d0)``), then cubic extrapolation of
    at most EXT = 3 times the step: on a steep linear-then-flat slope (gradient norm 1e4, as the sound likelihood's 2e4)
    the first line search spends its evaluations growing a step factor of 1e-8 by 3 each."""
    xs = []

    def f(x):                                  # slope -1e4 up to x = 1, then a quadratic bowl at 1.5
        xs.append(float(x[0]))
        if x[0] < 1.0:
            return -1e4 * x[0] + 2.5e3, np.array([-1e4])
        return 1e4 * (x[0] - 1.5) ** 2, np.array([2e4 * (x[0] - 1.5)])

    minimize_cg(f, np.array([0.0]), 8)
    assert np.isclose(xs[1], 1e4 / (1 + 1e8))
    steps = np.array(xs[1:6]) / xs[1]
    np.testing.assert_allclose(steps, 3.0 ** np.arange(5))    # a linear slope: every extrapolation is the largest, EXT = 3
