"""SparseVI's active-set gradient for the radial-basis regression (``_active_covariance``)
against a straightforward reference: explicit weighted posterior, explicit ``N × N``
covariance of the log-likelihoods (Isserlis), and the plain SparseVI loop on top of it."""

import numpy as np
import pytest

from inferopt.coresets import exact_problem, make_rbf_regression, sparsevi
from inferopt.coresets._active_covariance import active_covariance


def regression_model(seed, N, n_per_scale=3):
    rng = np.random.default_rng(seed)
    coords = rng.uniform(0, 3, size=(400, 2))
    t = np.sin(coords[:, 0]) + np.cos(coords[:, 1]) + 0.3 * rng.standard_normal(400)
    model, _ = make_rbf_regression(coords, t, rng=seed, n_subsample=N, n_per_scale=n_per_scale)
    return model


def reference_covariance(model, w):
    """``Cov_{π_w}[L_i, L_j] = σ⁻⁴(r_i r_j C_ij + ½C_ij²)``, ``C = XΣ_wXᵀ``, with an explicit inverse."""
    s2 = model.noise_var
    prec = np.linalg.inv(model.Sigma0) + model.X.T @ (w[:, None] * model.X) / s2
    cov = np.linalg.inv(prec)
    mean = cov @ (np.linalg.solve(model.Sigma0, model.mu0) + model.X.T @ (w * model.y) / s2)
    r = model.y - model.X @ mean
    C = model.X @ cov @ model.X.T
    return (np.outer(r, r) * C + 0.5 * C * C) / s2**2


def reference_sparsevi(model, k, n_steps):
    """Campbell & Beronov (2019), Alg. 1 with the public code's Adam steps, written plainly."""
    n = model.N
    w = np.zeros(n)
    for _ in range(k):
        G = reference_covariance(model, w)
        corr = G @ (1.0 - w) / np.sqrt(np.diag(G))
        active = np.flatnonzero(w)
        corr[active] = np.abs(corr[active])
        active = np.union1d(active, [int(np.argmax(corr))])
        m1, m2 = np.zeros(active.size), np.zeros(active.size)
        for i in range(1, n_steps + 1):
            g = -(reference_covariance(model, w) @ (1.0 - w))[active]
            m1 = 0.9 * m1 + 0.1 * g
            m2 = 0.99 * m2 + 0.01 * g * g
            upd = (m1 / (1 - 0.9**i)) / (1e-8 + np.sqrt(m2 / (1 - 0.99**i)))
            w[active] = np.maximum(w[active] - upd / i, 0.0)
    return w


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("k", [1, 4, 12, 19])
def test_active_gradient_matches_the_explicit_covariance(seed, k):
    model = regression_model(seed, N=40)                       # D = 19
    rng = np.random.default_rng(seed + 10)
    active = np.sort(rng.choice(model.N, size=k, replace=False))
    w = np.zeros(model.N)
    w[active] = rng.exponential(model.N / k, size=k)
    w[active[0]] = 0.0                                          # active points may sit at zero
    g = active_covariance(model.residual_covariance)(active)(w)
    ref = (reference_covariance(model, w) @ (1.0 - w))[active]
    np.testing.assert_allclose(g, ref, rtol=1e-8, atol=1e-8 * np.abs(ref).max())


def test_active_gradient_is_only_used_for_the_models_own_method():
    model = regression_model(0, N=30)
    assert active_covariance(lambda w: model.residual_covariance(w))(np.arange(3)) is None
    assert active_covariance(model.residual_covariance)(np.arange(model.D + 1)) is None   # k > D: no thin QR


@pytest.mark.parametrize("seed", [0, 2])
def test_sparsevi_weights_match_the_reference_implementation(seed):
    model = regression_model(seed, N=40)
    Phi, y = exact_problem(model)
    res = sparsevi(Phi, y, [3, 8], covariance=model.residual_covariance, n_steps=30)
    for k, w in zip(res.ks, res.path_weights):
        ref = reference_sparsevi(model, int(k), 30)
        np.testing.assert_allclose(w, ref, rtol=1e-8, atol=1e-8 * np.abs(ref).max())
