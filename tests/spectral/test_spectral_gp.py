"""Structured kernel interpolation (Toeplitz K by FFT, sparse cubic W) against dense kernels,
and the GP negative log marginal likelihood gradients against finite differences."""

import numpy as np
import pytest
import scipy.linalg

from inferopt.spectral import (
    ChebyshevSeries,
    RegularGrid,
    SKIGaussianProcess,
    check_symmetric,
    interpolation_matrix,
    keys_cubic,
    make_degree_rule,
    rademacher,
    rbf_toeplitz_column,
    ski_operator,
    toeplitz_matmat,
)
from inferopt.spectral.optim import inverse_time_step, lanczos_gd, sgd


def data(n, seed, noise=0.1):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(0, 10, n))
    return x, np.sin(x) + 0.3 * np.cos(3 * x) + noise * rng.standard_normal(n)


@pytest.mark.parametrize("r", [1, 2, 7, 64])
def test_toeplitz_fft_product(r):
    rng = np.random.default_rng(r)
    col = rng.standard_normal(r)
    X = rng.standard_normal((r, 3))
    np.testing.assert_allclose(toeplitz_matmat(col, X), scipy.linalg.toeplitz(col) @ X, atol=1e-12)
    np.testing.assert_allclose(toeplitz_matmat(col, X[:, 0]), scipy.linalg.toeplitz(col) @ X[:, 0], atol=1e-12)


def test_cubic_interpolation_reproduces_quadratics():
    x, _ = data(50, 0)
    grid = RegularGrid(x, 30)
    W = interpolation_matrix(x, grid)
    assert W.shape == (50, 30) and np.all(np.diff(W.indptr) == 4)
    u = grid.points
    for poly in ([1.0], [0.3, -2.0], [1.0, 0.5, -0.25]):
        np.testing.assert_allclose(W @ np.polyval(poly, u), np.polyval(poly, x), rtol=1e-10, atol=1e-10)
    assert keys_cubic(np.array([0.0, 1.0, 2.0, 2.5])) == pytest.approx([1.0, 0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="outside the interpolation grid"):
        interpolation_matrix(np.array([x.max() + 5.0]), grid)


@pytest.mark.parametrize("r,tol", [(40, 5e-3), (160, 5e-5)])
def test_ski_operator_approximates_the_dense_kernel(r, tol):
    x, _ = data(120, 1)
    noise, signal, ell = 0.2, 1.3, 0.8
    dense = signal**2 * np.exp(-((x[:, None] - x[None, :]) ** 2) / (2 * ell**2)) + noise**2 * np.eye(x.size)
    grid = RegularGrid(x, r)
    op = ski_operator(interpolation_matrix(x, grid), rbf_toeplitz_column(grid, signal, ell), noise)
    approx = op.matmat(np.eye(x.size))
    err = np.max(np.abs(approx - dense)) / signal**2
    assert err < tol
    assert np.max(np.abs(approx - approx.T)) < 1e-12
    check_symmetric(op, rng=0)  # the matrix-free operator passes the randomised symmetry test


def test_gp_gradients_match_finite_differences_and_exact():
    x, y = data(150, 2)
    gp = SKIGaussianProcess(x[::2], y[::2], r=80, x_test=x[1::2], y_test=y[1::2], rng=0)
    theta = np.array([0.3, 1.1, 0.9])
    grad = gp.exact_spectral_grad(theta) + gp.g_grad(theta)
    for i in range(3):
        e = np.eye(3)[i] * 1e-6
        fd = (gp.objective(theta + e) - gp.objective(theta - e)) / 2e-6
        assert grad[i] == pytest.approx(fd, rel=1e-5, abs=1e-6)
    # the spectrum lies in the interval used by the Chebyshev expansion
    a, b = gp.interval(theta)
    lam = np.linalg.eigvalsh(gp.dense(theta))
    assert a <= lam[0] and lam[-1] <= b
    # stochastic log-det gradients: Chebyshev (unbiased) and LANCZOS/CG, in expectation
    rule = make_degree_rule(ChebyshevSeries("log", a, b), N=15)
    rng = np.random.default_rng(3)
    cheb = np.array([gp.spectral_grad(theta, rademacher(rng, gp.dim, 4), rule.draw(rng), a, b) for _ in range(400)])
    se = cheb.std(axis=0, ddof=1) / np.sqrt(cheb.shape[0])
    assert np.all(np.abs(cheb.mean(axis=0) - gp.exact_spectral_grad(theta)) < 4 * se)
    lanc = np.array([gp.lanczos_spectral_grad(theta, rademacher(rng, gp.dim, 4)) for _ in range(200)])
    se = lanc.std(axis=0, ddof=1) / np.sqrt(lanc.shape[0])
    assert np.all(np.abs(lanc.mean(axis=0) - gp.exact_spectral_grad(theta)) < 4 * se)


def test_fixed_lanczos_steps_is_the_k_step_krylov_solve():
    # LANCZOS with k steps: A⁻¹z replaced by the k-step CG/Lanczos iterate ‖z‖ Q_k T_k⁻¹ e_1 (Dong et al. 2017)
    x, y = data(120, 6)
    theta = np.array([0.2, 1.0, 1.5])
    gp = SKIGaussianProcess(x, y, r=60, lanczos_steps=3, rng=0)
    Z = rademacher(np.random.default_rng(1), gp.dim, 2)
    A = gp.dense(theta)
    dA = [D.matmat(np.eye(gp.dim)) for D in gp.derivative_operators(theta)]
    expected = np.zeros(3)
    for z in Z.T:
        Q = np.linalg.qr(np.column_stack([np.linalg.matrix_power(A, j) @ z for j in range(3)]))[0]
        xk = Q @ np.linalg.solve(Q.T @ A @ Q, Q.T @ z)  # Galerkin solution in the 3-dim Krylov space
        expected += 0.5 * np.array([xk @ D @ z for D in dA]) / Z.shape[1]
    np.testing.assert_allclose(gp.lanczos_spectral_grad(theta, Z), expected, rtol=1e-6)
    converged = SKIGaussianProcess(x, y, r=60, rng=0).lanczos_spectral_grad(theta, Z)
    assert not np.allclose(expected, converged, rtol=1e-3)  # 3 steps have not converged: biased


def test_predictive_mean_matches_dense_ski_formula():
    x, y = data(100, 4)
    gp = SKIGaussianProcess(x[::2], y[::2], r=50, x_test=x[1::2], y_test=y[1::2])
    theta = np.array([0.2, 1.0, 1.0])
    K = scipy.linalg.toeplitz(gp.column(theta))
    W, Ws = gp.W.toarray(), gp.W_test.toarray()
    A = W @ K @ W.T + theta[0] ** 2 * np.eye(W.shape[0])
    mean = Ws @ K @ W.T @ np.linalg.solve(A, y[::2] - y[::2].mean()) + y[::2].mean()
    np.testing.assert_allclose(gp.predict(theta), mean, rtol=1e-6, atol=1e-7)
    assert gp.metric(theta) == pytest.approx(np.sqrt(np.mean((mean - y[1::2]) ** 2)), rel=1e-6)


def test_alpha_tol_loosens_the_optimisers_solve_only():
    """alpha_tol (the authors' 1e-2): g_grad's alpha = A^-1 y meets that relative residual, not much tighter, and costs
    fewer products than cg_tol's; the metric's alpha stays at cg_tol (the same test RMSE as a tight GP's)."""
    x, y = data(150, 2)
    theta = np.array([0.3, 1.1, 0.9])
    tight = SKIGaussianProcess(x[::2], y[::2], r=80, x_test=x[1::2], y_test=y[1::2], cg_tol=1e-10, rng=0)
    loose = SKIGaussianProcess(x[::2], y[::2], r=80, x_test=x[1::2], y_test=y[1::2], cg_tol=1e-10, alpha_tol=1e-2, rng=0)
    assert tight.alpha_tol == 1e-10 and loose.alpha_tol == 1e-2
    g_tight, g_loose = tight.g_grad(theta), loose.g_grad(theta)
    A = tight.dense(theta)
    al = loose.alpha(theta, 1e-2)
    residual = np.linalg.norm(A @ al - loose.y) / np.linalg.norm(loose.y)
    assert residual <= 1e-2 and residual > 1e-8                       # solved to the loose tolerance, not beyond
    assert loose.matvecs < tight.matvecs
    assert not np.allclose(g_loose, g_tight, rtol=1e-8)
    np.testing.assert_allclose(g_loose, g_tight, rtol=0.2, atol=1e-3)  # near the tight gradient
    assert loose.metric(theta) == pytest.approx(tight.metric(theta), rel=1e-8)
    tight_again = loose.alpha(theta)                                   # a tighter request is not served the loose cache
    assert np.linalg.norm(A @ tight_again - loose.y) / np.linalg.norm(loose.y) <= 1e-9
    with pytest.raises(ValueError, match="alpha_tol"):
        SKIGaussianProcess(x, y, r=40, alpha_tol=0.0)


@pytest.mark.parametrize("method", ["sgd", "lanczos"])
def test_gp_hyperparameter_learning_improves_the_fit(method):
    x, y = data(300, 5, noise=0.2)
    # the box keeps the noise level θ₁ >= 0.15: for smaller θ₁, A is ill-conditioned, rho -> 1 and the
    # Chebyshev log-det gradient (through f' of a high-degree series) has a very heavy-tailed variance
    gp = SKIGaussianProcess(x[::2], y[::2], r=100, x_test=x[1::2], y_test=y[1::2], low=(0.15, 0.1, 0.1), rng=1)
    theta0 = np.array([0.8, 0.5, 3.0])
    kwargs = dict(max_iter=60, step=inverse_time_step(3e-4, 0.01), M=8, rng=0, eval_every=20)
    res = sgd(gp, theta0, N=30, **kwargs) if method == "sgd" else lanczos_gd(gp, theta0, **kwargs)
    assert res.objective[-1] < 0.6 * res.objective[0]
    assert res.metric[-1] < 0.7 * res.metric[0]
    assert res.times.size == res.objective.size == res.metric.size == 4 and np.all(np.diff(res.times) >= 0)


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: SKIGaussianProcess(np.arange(5.0), np.arange(4.0), r=10), "same length"),
        (lambda: SKIGaussianProcess(np.arange(5.0), np.arange(5.0), r=3), "r"),
        (lambda: SKIGaussianProcess(np.arange(5.0), np.arange(5.0), r=10, low=0.0), "low"),
        (lambda: SKIGaussianProcess(np.arange(5.0), [0, 1, np.nan, 3, 4], r=10), "finite"),
        (lambda: SKIGaussianProcess(np.arange(5.0), np.arange(5.0), r=10, lanczos_steps=0), "lanczos_steps"),
        (lambda: SKIGaussianProcess(np.arange(5.0), np.arange(5.0), r=10, x_test=np.arange(2.0)), "y_test"),
    ],
)
def test_bad_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()
