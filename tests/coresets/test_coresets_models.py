"""Models, exact tangent vectors, weighted posteriors and KL divergences against
independent truth (direct formulas with explicit inverses, Monte Carlo)."""

import numpy as np
import pytest

from inferopt.coresets import (
    GaussianMeanModel,
    coreset_kl,
    coreset_kls,
    exact_problem,
    gaussian_kl,
    make_rbf_regression,
    map_distance,
    monte_carlo_tangent,
    rbf_features,
    tangent_from_loglik,
)


def gaussian_model(seed=7, D=3, N=25):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((D, D))
    B = rng.standard_normal((D, D))
    Sigma0 = A @ A.T + np.eye(D)
    Sigma = B @ B.T + 0.5 * np.eye(D)
    x = rng.standard_normal((N, D)) + 1.0
    return GaussianMeanModel(x, rng.standard_normal(D), Sigma0, Sigma)


def regression_model(seed=3, N=40):
    rng = np.random.default_rng(seed)
    coords = rng.uniform(0, 3, size=(400, 2))
    t = np.sin(coords[:, 0]) + np.cos(coords[:, 1]) + 0.3 * rng.standard_normal(400)
    model, _ = make_rbf_regression(coords, t, rng=seed, n_subsample=N, n_per_scale=2)
    return model


def direct_gaussian_posterior(m, w):
    P = np.linalg.inv(m.Sigma0) + w.sum() * np.linalg.inv(m.Sigma)
    cov = np.linalg.inv(P)
    mean = cov @ (np.linalg.inv(m.Sigma0) @ m.mu0 + np.linalg.inv(m.Sigma) @ (w @ m.x))
    return mean, cov


def direct_regression_posterior(m, w):
    P = np.linalg.inv(m.Sigma0) + m.X.T @ np.diag(w) @ m.X / m.noise_var
    cov = np.linalg.inv(P)
    mean = cov @ (np.linalg.inv(m.Sigma0) @ m.mu0 + m.X.T @ (w * m.y) / m.noise_var)
    return mean, cov


def mc_covariance(model, w, n_samples, seed):
    th = model.sample_posterior(w, n_samples, rng=seed)
    L = model.loglik(th)
    return np.cov(L.T), th


# ---------------------------------------------------------------- weighted posteriors
@pytest.mark.parametrize("kind", ["gaussian", "regression"])
@pytest.mark.parametrize("seed", range(3))
def test_weighted_posterior_matches_direct_formula(kind, seed):
    m = gaussian_model() if kind == "gaussian" else regression_model()
    direct = direct_gaussian_posterior if kind == "gaussian" else direct_regression_posterior
    rng = np.random.default_rng(seed)
    W = rng.random((4, m.N)) * 2 * (rng.random((4, m.N)) < 0.5)
    means, covs = m.posterior(W)
    for j in range(4):
        mean, cov = direct(m, W[j])
        np.testing.assert_allclose(means[j], mean, rtol=1e-8, atol=1e-10)
        np.testing.assert_allclose(covs[j], cov, rtol=1e-8, atol=1e-12)
        assert m.posterior_logdet(W[j]) == pytest.approx(np.linalg.slogdet(cov)[1], rel=1e-8, abs=1e-8)
    mean1, cov1 = m.posterior(W[1])
    np.testing.assert_allclose(mean1, means[1])


def test_gaussian_model_loglik_matches_scipy():
    from scipy.stats import multivariate_normal

    m = gaussian_model()
    th = np.random.default_rng(0).standard_normal((5, 3))
    L = m.loglik(th)
    for s in range(5):
        np.testing.assert_allclose(L[s], multivariate_normal(th[s], m.Sigma).logpdf(m.x), rtol=1e-10)


def test_regression_loglik_and_sampler():
    from scipy.stats import norm

    m = regression_model()
    th = np.random.default_rng(1).standard_normal((4, m.D))
    np.testing.assert_allclose(
        m.loglik(th), norm(th @ m.X.T, np.sqrt(m.noise_var)).logpdf(m.y[None, :]), rtol=1e-10
    )
    w = np.random.default_rng(2).random(m.N)
    mean, cov = m.posterior(w)
    s = m.sample_posterior(w, 100000, rng=4)
    se = np.sqrt(np.diag(cov) / 100000)
    assert np.all(np.abs(s.mean(0) - mean) < 5 * se)


# ---------------------------------------------------------------- exact tangent vectors
@pytest.mark.parametrize("kind", ["gaussian", "regression-gram", "regression-features"])
def test_exact_tangent_inner_products_match_monte_carlo_covariance(kind):
    if kind == "gaussian":
        m, kw = gaussian_model(N=12), {}
    else:
        m, kw = regression_model(N=15), {"representation": kind.split("-")[1]}
    w = np.random.default_rng(5).random(m.N) * 2
    V = m.tangent(w, **kw)
    exact = V.T @ V
    n_s = 200000
    mc, _ = mc_covariance(m, w, n_s, seed=9)
    # standard error of each sample covariance entry, estimated from the same samples
    th = m.sample_posterior(w, n_s, rng=9)
    L = m.loglik(th)
    Lc = L - L.mean(0)
    se = np.sqrt(np.maximum(((Lc[:, :, None] * Lc[:, None, :]) ** 2).mean(0) - mc**2, 0) / n_s)
    z = np.abs(exact - mc) / np.maximum(se, 1e-300)
    assert np.max(z) < 5.5, np.max(z)


def test_authors_gaussian_constant_differs_from_covariance():
    m = gaussian_model(N=12)
    Ve, Va = m.tangent(), m.tangent(constant="authors")
    np.testing.assert_allclose(Ve[:-1], Va[:-1])
    assert Va[-1, 0] ** 2 == pytest.approx(Ve[-1, 0] ** 2 / 8)  # 1/16 tr vs 1/2 tr
    mc, _ = mc_covariance(m, np.ones(m.N), 200000, seed=2)
    err_exact = np.abs(Ve.T @ Ve - mc).max()
    err_auth = np.abs(Va.T @ Va - mc).max()
    assert err_auth > 10 * err_exact


def test_regression_representations_agree_exactly():
    m = regression_model(N=20)
    w = np.random.default_rng(0).random(m.N)
    Vf = m.tangent(w, representation="features")
    Vg = m.tangent(w, representation="gram")
    assert Vf.shape == (m.D + m.D * (m.D + 1) // 2, m.N) and Vg.shape[0] <= m.N
    np.testing.assert_allclose(Vf.T @ Vf, Vg.T @ Vg, rtol=1e-9, atol=1e-9 * np.abs(Vf.T @ Vf).max())


def test_monte_carlo_tangent_estimates_covariance():
    m = gaussian_model(N=8)
    Phi = monte_carlo_tangent(m.loglik, lambda s, g: m.sample_posterior(np.ones(m.N), s, g), 100000, rng=3)
    V = m.tangent()
    np.testing.assert_allclose(Phi.T @ Phi, V.T @ V, rtol=0.05, atol=0.03 * np.abs(V.T @ V).max())
    L = np.random.default_rng(0).standard_normal((6, 4))
    T = tangent_from_loglik(L)
    np.testing.assert_allclose(T.T @ T, np.cov(L.T, bias=True))
    Phi2, y2 = exact_problem(m)
    np.testing.assert_allclose(y2, Phi2.sum(1))


def test_kl_gradient_identity_behind_sparsevi():
    """∇_w KL(π_w‖π) = −Φ_wᵀΦ_w(1 − w) with exact tangents: finite differences."""
    m = gaussian_model(N=6)
    w = np.random.default_rng(1).random(m.N) * 1.5
    V = m.tangent(w)
    grad = -(V.T @ (V @ (1 - w)))
    h = 1e-6
    fd = np.array([(coreset_kl(m, w + h * e) - coreset_kl(m, w - h * e)) / (2 * h) for e in np.eye(m.N)])
    np.testing.assert_allclose(grad, fd, rtol=1e-5, atol=1e-6 * np.abs(grad).max())


# ---------------------------------------------------------------- RBF features
def test_rbf_features_match_a_direct_loop():
    rng = np.random.default_rng(0)
    X, Mu, sc = rng.random((7, 2)), rng.random((4, 2)), np.array([0.2, 0.5, 1.0, 100.0])
    B = rbf_features(X, Mu, sc)
    for i in range(7):
        for d in range(4):
            assert B[i, d] == pytest.approx(np.exp(-np.sum((X[i] - Mu[d]) ** 2) / (2 * sc[d] ** 2)))


def test_make_rbf_regression_construction():
    rng = np.random.default_rng(0)
    coords = rng.uniform(0, 5, size=(3000, 2))
    t = rng.standard_normal(3000) + 3.0
    m, info = make_rbf_regression(coords, t, rng=1)
    assert m.N == 1000 and m.D == 301
    assert len(set(info["indices"])) == 1000
    np.testing.assert_allclose(info["scales"][:300], np.repeat([0.2, 0.4, 0.8, 1.2, 1.6, 2.0], 50))
    assert info["scales"][-1] == 100.0
    sub = coords[info["indices"]]
    ys = t[info["indices"]]
    np.testing.assert_allclose(info["centres"][-1], sub.mean(0))
    for j in range(6):  # 50 distinct data points per scale
        block = info["centres"][50 * j: 50 * (j + 1)]
        assert len({tuple(r) for r in block}) == 50
        assert all(any(np.all(r == s) for s in sub) for r in block[:5])
    assert m.noise_var == pytest.approx(ys.var())
    np.testing.assert_allclose(m.mu0, ys.mean())
    np.testing.assert_allclose(np.diag(m.Sigma0), np.mean(ys**2))
    assert np.all(m.X[:, -1] > 0.99)  # the near-constant basis


# ---------------------------------------------------------------- KL and MAP
@pytest.mark.parametrize("seed", range(3))
def test_gaussian_kl_against_monte_carlo(seed):
    rng = np.random.default_rng(seed)
    D = 3
    A, B = rng.standard_normal((D, D)), rng.standard_normal((D, D))
    c0, c1 = A @ A.T + np.eye(D), B @ B.T + np.eye(D)
    m0, m1 = rng.standard_normal(D), rng.standard_normal(D)
    from scipy.stats import multivariate_normal as mvn

    x = mvn(m0, c0).rvs(400000, random_state=seed)
    diff = mvn(m0, c0).logpdf(x) - mvn(m1, c1).logpdf(x)
    kl = gaussian_kl(m0, c0, m1, c1)
    assert abs(kl - diff.mean()) < 5 * diff.std() / np.sqrt(x.shape[0])
    assert kl > 0 and gaussian_kl(m0, c0, m0, c0) == pytest.approx(0, abs=1e-12)


def test_coreset_kl_directions_and_map_distance():
    m = gaussian_model()
    W = np.random.default_rng(0).random((3, m.N)) * 2
    fwd = coreset_kl(m, W, "forward")
    rev = coreset_kl(m, W, "reverse")
    sym = coreset_kl(m, W, "symmetric")
    mu, cov = m.posterior(np.ones(m.N))
    for j in range(3):
        muw, covw = m.posterior(W[j])
        assert fwd[j] == pytest.approx(gaussian_kl(mu, cov, muw, covw))
        assert rev[j] == pytest.approx(gaussian_kl(muw, covw, mu, cov))
    np.testing.assert_allclose(sym, fwd + rev)
    assert coreset_kl(m, np.ones(m.N)) == pytest.approx(0, abs=1e-10)
    d = map_distance(m, W)
    np.testing.assert_allclose(d, np.linalg.norm(m.posterior(W)[0] - mu, axis=1))
    assert map_distance(m, np.ones(m.N)) == pytest.approx(0, abs=1e-12)


@pytest.mark.parametrize("kind", ["gaussian", "regression"])
def test_residual_covariance_matches_tangent_vectors(kind):
    m = gaussian_model() if kind == "gaussian" else regression_model(N=25)
    w = np.random.default_rng(3).random(m.N) * (np.random.default_rng(4).random(m.N) < 0.6)
    V = m.tangent(w) if kind == "gaussian" else m.tangent(w, representation="features")
    gv, var = m.residual_covariance(w)
    G = V.T @ V
    np.testing.assert_allclose(gv, G @ (1 - w), rtol=1e-9, atol=1e-9 * np.abs(G).max())
    np.testing.assert_allclose(var, np.diag(G), rtol=1e-9)


@pytest.mark.parametrize("constant", ["exact", "authors"])
def test_gaussian_residual_covariance_of_each_constant_row(constant):
    """The pair is that of the tangent vectors with the same constant row, so SparseVI takes the same steps
    from either; the two constants give different covariances (the authors' under-weights the shared term)."""
    from inferopt.coresets import sparsevi

    m = gaussian_model()
    w = np.random.default_rng(5).random(m.N) * (np.random.default_rng(6).random(m.N) < 0.6)
    G = m.tangent(w, constant=constant).T @ m.tangent(w, constant=constant)
    gv, var = m.residual_covariance(w, constant=constant)
    np.testing.assert_allclose(gv, G @ (1 - w), rtol=1e-9, atol=1e-9 * np.abs(G).max())
    np.testing.assert_allclose(var, np.diag(G), rtol=1e-9)
    other = "authors" if constant == "exact" else "exact"
    assert not np.allclose(var, m.residual_covariance(w, constant=other)[1])
    Phi, y = exact_problem(m, constant=constant)
    a = sparsevi(Phi, y, [2, 4], tangent=lambda v: m.tangent(v, constant=constant), n_steps=15)
    b = sparsevi(Phi, y, [2, 4], covariance=lambda v: m.residual_covariance(v, constant=constant), n_steps=15)
    np.testing.assert_allclose(a.path_weights, b.path_weights, rtol=1e-6, atol=1e-9)
    with pytest.raises(ValueError, match="constant"):
        m.residual_covariance(w, constant="half")


def test_sparsevi_with_covariance_equals_sparsevi_with_tangent():
    from inferopt.coresets import sparsevi

    m = regression_model(N=25)
    Phi, y = exact_problem(m)
    a = sparsevi(Phi, y, [2, 4], tangent=lambda w: m.tangent(w, representation="features"), n_steps=15)
    b = sparsevi(Phi, y, [2, 4], covariance=m.residual_covariance, n_steps=15)
    np.testing.assert_allclose(a.path_weights, b.path_weights, rtol=1e-6, atol=1e-9)
    assert np.count_nonzero(b.x) <= 4


@pytest.mark.parametrize("kind", ["gaussian", "regression"])
def test_closed_form_kls_match_the_cholesky_kl(kind):
    """``kl_to_full`` (eigen-coordinates / precision factors) against :func:`gaussian_kl` on
    explicit covariances, including sparse weights and the full posterior (KL = 0)."""
    m = gaussian_model() if kind == "gaussian" else regression_model(N=20)
    rng = np.random.default_rng(11)
    W = rng.random((4, m.N)) * 3 * (rng.random((4, m.N)) < 0.4)
    W[-1] = 1.0
    mu, cov = m.posterior(np.ones(m.N))
    out = coreset_kls(m, W)
    for j in range(W.shape[0]):
        muw, covw = m.posterior(W[j])
        assert out["forward_kl"][j] == pytest.approx(gaussian_kl(mu, cov, muw, covw), rel=1e-7, abs=1e-9)
        assert out["reverse_kl"][j] == pytest.approx(gaussian_kl(muw, covw, mu, cov), rel=1e-7, abs=1e-9)
    np.testing.assert_allclose(out["symmetric_kl"], out["forward_kl"] + out["reverse_kl"])
    np.testing.assert_allclose(out["map_distance"], map_distance(m, W))
    assert out["reverse_kl"][-1] == pytest.approx(0, abs=1e-9)


def authors_tangent_gram(m, n_dim):
    """The Gram matrix of the authors' ``tsf_exact_w`` (riemann_linear_regression/main.py), transcribed:
    β from the eigen-decomposition of Σ_w, the quadratic term projected onto the n_dim leading
    eigenvectors of βᵀβ, as a full (not symmetric) vec of the outer product."""
    mean, cov = m.posterior(np.ones(m.N))
    lmb, V = np.linalg.eigh(cov)
    beta = m.X @ (V * np.sqrt(np.maximum(lmb, 0.0)))
    nu = m.y - m.X @ mean
    _, V2 = np.linalg.eigh(beta.T @ beta)
    p = beta @ V2[:, -n_dim:]
    feats = np.hstack([nu[:, None] * beta, (p[:, :, None] * p[:, None, :]).reshape(len(nu), -1) / np.sqrt(2.0)])
    feats /= m.noise_var
    return feats @ feats.T


@pytest.mark.parametrize("n_dim", [1, 4, 9])
def test_authors_tangent_matches_their_construction_and_is_exact_with_every_direction(n_dim):
    m = regression_model(seed=5, N=30)
    Phi = m.tangent(representation="authors", n_quadratic=n_dim)
    np.testing.assert_allclose(Phi.T @ Phi, authors_tangent_gram(m, n_dim), rtol=1e-8, atol=1e-10)
    exact = m.tangent(representation="features")
    full = m.tangent(representation="authors", n_quadratic=m.D)
    np.testing.assert_allclose(full.T @ full, exact.T @ exact, rtol=1e-9, atol=1e-10)
    if n_dim < m.D:                       # dropping directions loses part of the quadratic term
        assert np.trace(Phi.T @ Phi) < np.trace(exact.T @ exact) * (1 - 1e-6)


def test_tangent_from_loglik_is_the_centred_scaled_matrix_bit_for_bit():
    """The in-place centring gives exactly ``(L − mean) / √S`` and leaves its input untouched."""
    L = np.random.default_rng(5).standard_normal((7, 5)) * 30.0
    before = L.copy()
    T = tangent_from_loglik(L)
    np.testing.assert_array_equal(T, (before - before.mean(axis=0, keepdims=True)) / np.sqrt(7))
    np.testing.assert_array_equal(L, before)
