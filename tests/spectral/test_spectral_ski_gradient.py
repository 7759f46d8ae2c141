"""The SKI log-det gradient in adjoint form (``_ski_gradient``) against the forward recursion (6)
with explicit derivative operators: the same polynomial estimator, so equal to rounding."""

import numpy as np
import pytest
from scipy.linalg import toeplitz

from inferopt.spectral import SKIGaussianProcess, rademacher
from inferopt.spectral._ski_gradient import toeplitz_correlation
from inferopt.spectral.gradients import grad_recursion


def small_gp(seed=0, n=150, r=60):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(0, 30, n))
    return SKIGaussianProcess(x, np.sin(x / 3) + 0.1 * rng.standard_normal(n), r=r, rng=seed)


@pytest.mark.parametrize("theta", [(1.0, 0.5, 2.0), (0.3, 1.5, 7.0), (2.0, 0.1, 0.6)])
@pytest.mark.parametrize("degree", [0, 1, 2, 17])
def test_spectral_grad_equals_the_forward_recursion(theta, degree):
    gp = small_gp()
    theta = np.array(theta)
    rng = np.random.default_rng(degree)
    a, b = gp.interval(theta)
    V = rademacher(rng, gp.dim, 4)
    weights = rng.standard_normal(degree + 1)
    ref = 0.5 * grad_recursion(gp.operator(theta), gp.derivative_operators(theta), V, weights, a, b)
    got = gp.spectral_grad(theta, V, weights, a, b)
    np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12 * max(np.abs(ref).max(), 1.0))


def test_toeplitz_correlation_gives_every_toeplitz_bilinear_form():
    rng = np.random.default_rng(3)
    r, n, m = 40, 70, 37                      # m > CHUNK: several chunks
    WT = rng.standard_normal((r, n))
    X, Y = rng.standard_normal((n, m)), rng.standard_normal((n, m))
    s = toeplitz_correlation(WT, X, Y)
    for _ in range(3):
        t = rng.standard_normal(r)
        assert t @ s == pytest.approx(np.sum((WT @ X) * (toeplitz(t) @ (WT @ Y))), rel=1e-11)
