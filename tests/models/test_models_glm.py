"""Bayesian GLMs: log-likelihoods against scalar formulas, derivatives against finite
differences, weights against replicated data, chunking, stability and bad input."""

import math

import numpy as np
import pytest
from scipy.special import gammaln
from scipy.stats import norm, poisson

import inferopt.models.glm as glm
from inferopt.models import LogisticRegression, PoissonRegression


def _data(kind, n=40, d=3, seed=0):
    rng = np.random.default_rng(seed)
    Z = np.column_stack([rng.normal(size=(n, d - 1)), np.ones(n)])
    if kind == "logistic":
        y = rng.choice([-1.0, 1.0], size=n)
        return LogisticRegression(Z, y, prior_var=2.0), rng
    y = rng.poisson(2.0, size=n).astype(float)
    return PoissonRegression(Z, y, prior_var=2.0), rng


def _central_grad(f, x, h=1e-6):
    g = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = h
        g[i] = (f(x + e) - f(x - e)) / (2 * h)
    return g


def test_logistic_loglik_matches_scalar_formula():
    m, rng = _data("logistic")
    th = rng.normal(size=(4, m.D))
    L = m.loglik(th)
    assert L.shape == (4, m.n)
    ref = np.array([[math.log(1.0 / (1.0 + math.exp(-m.y[i] * float(m.Z[i] @ t)))) for i in range(m.n)] for t in th])
    np.testing.assert_allclose(L, ref, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(m.loglik(th[1]), ref[1], rtol=1e-12)


def test_poisson_loglik_matches_scalar_formula_and_scipy():
    m, rng = _data("poisson")
    th = rng.normal(size=(3, m.D))
    L = m.loglik(th)
    ref = np.array(
        [
            [
                m.y[i] * math.log(math.log1p(math.exp(float(m.Z[i] @ t))))
                - math.log1p(math.exp(float(m.Z[i] @ t)))
                - math.lgamma(m.y[i] + 1)
                for i in range(m.n)
            ]
            for t in th
        ]
    )
    np.testing.assert_allclose(L, ref, rtol=1e-11, atol=1e-11)
    rate = np.log1p(np.exp(th @ m.Z.T))
    np.testing.assert_allclose(L, poisson.logpmf(m.y[None, :], rate), rtol=1e-10)


def test_log_prior_and_log_joint():
    m, rng = _data("logistic")
    th = rng.normal(size=(5, m.D))
    ref_prior = norm.logpdf(th, scale=np.sqrt(2.0)).sum(axis=1)
    np.testing.assert_allclose(m.log_prior(th), ref_prior, rtol=1e-12)
    np.testing.assert_allclose(m.log_joint(th), m.loglik(th).sum(axis=1) + ref_prior, rtol=1e-12)
    w = rng.random(m.n)
    np.testing.assert_allclose(m.log_joint(th, w), m.loglik(th) @ w + ref_prior, rtol=1e-12)


@pytest.mark.parametrize("kind", ["logistic", "poisson"])
def test_gradient_matches_finite_differences(kind):
    m, rng = _data(kind)
    w = rng.random(m.n) * 2
    th = rng.normal(size=(3, m.D)) * 0.7
    G = m.grad_log_joint(th, w)
    assert G.shape == th.shape
    for s in range(3):
        fd = _central_grad(lambda t: m.log_joint(t, w), th[s])
        np.testing.assert_allclose(G[s], fd, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("kind", ["logistic", "poisson"])
def test_hessian_matches_finite_differences_of_gradient(kind):
    m, rng = _data(kind)
    w = rng.random(m.n) * 2
    t = rng.normal(size=m.D) * 0.7
    H = m.hess_log_joint(t, w)
    fd = np.column_stack([_central_grad(lambda u: m.grad_log_joint(u, w)[j], t) for j in range(m.D)])
    np.testing.assert_allclose(H, fd, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(H, H.T)
    assert np.all(np.linalg.eigvalsh(H) < 0)   # both models are log-concave


@pytest.mark.parametrize("kind", ["logistic", "poisson"])
def test_integer_weights_equal_replicated_data(kind):
    m, rng = _data(kind, n=15)
    w = rng.integers(0, 4, size=m.n)
    rep = np.repeat(np.arange(m.n), w)
    cls = type(m)
    m_rep = cls(m.Z[rep], m.y[rep], prior_var=m.prior_var)
    th = rng.normal(size=(4, m.D))
    np.testing.assert_allclose(m.log_joint(th, w), m_rep.log_joint(th), rtol=1e-12)
    np.testing.assert_allclose(m.grad_log_joint(th, w), m_rep.grad_log_joint(th), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(m.hess_log_joint(th[0], w), m_rep.hess_log_joint(th[0]), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kind", ["logistic", "poisson"])
@pytest.mark.parametrize("weighted", [False, True])
def test_distinct_pairs_weighted_by_their_counts_keep_the_log_joint(kind, weighted):
    """``distinct``: each (row, label) pair once, weighted by its count (or its summed weights), is the same log joint
    and gradient (issue 46: the phishing data's one-hot rows repeat); a row repeated with another label stays apart."""
    m, rng = _data(kind, n=12)
    rep = rng.integers(0, m.n, size=60)                        # 60 rows drawn from 12: most repeat
    Z, y = m.Z[rep], m.y[rep].copy()
    y[0] = -y[0] if kind == "logistic" else y[0] + 1.0         # the first row's pair differs from its copies'
    big = type(m)(Z, y, prior_var=m.prior_var)
    w = rng.random(big.n) if weighted else None
    merged, w_merged = big.distinct(w)
    pairs = np.column_stack([Z, y])
    assert merged.n == len(np.unique(pairs, axis=0)) < big.n
    assert len(np.unique(np.column_stack([merged.Z, merged.y]), axis=0)) == merged.n
    assert w_merged.sum() == pytest.approx(big.n if w is None else w.sum(), rel=1e-12)
    th = rng.normal(size=(5, m.D))
    np.testing.assert_allclose(merged.log_joint(th, w_merged), big.log_joint(th, w), rtol=1e-12)
    np.testing.assert_allclose(merged.grad_log_joint(th, w_merged), big.grad_log_joint(th, w), rtol=1e-11, atol=1e-12)
    # the reference written plainly: the sum over every row
    ll = np.array([[float(big.loglik(t)[i]) for i in range(big.n)] for t in th])
    ref = (ll if w is None else ll * w).sum(axis=1) + big.log_prior(th)
    np.testing.assert_allclose(merged.log_joint(th, w_merged), ref, rtol=1e-12)


@pytest.mark.parametrize("kind", ["logistic", "poisson"])
def test_chunking_gives_the_same_sums(kind, monkeypatch):
    m, rng = _data(kind, n=101)
    th = rng.normal(size=(7, m.D))
    w = rng.random(m.n)
    full_lj, full_g = m.log_joint(th, w), m.grad_log_joint(th, w)
    monkeypatch.setattr(glm, "CHUNK_ELEMENTS", 20)   # blocks of 2 data points
    assert len(list(m._blocks(7))) == 51
    np.testing.assert_allclose(m.log_joint(th, w), full_lj, rtol=1e-12)
    np.testing.assert_allclose(m.grad_log_joint(th, w), full_g, rtol=1e-12, atol=1e-12)


def test_numerical_stability_for_extreme_predictors():
    Z = np.array([[1.0], [1.0], [1.0]])
    lr = LogisticRegression(Z, [1.0, -1.0, 1.0])
    th = np.array([[800.0], [-800.0]])
    L = lr.loglik(th)
    np.testing.assert_allclose(L, [[0.0, -800.0, 0.0], [-800.0, 0.0, -800.0]], atol=1e-12)
    assert np.all(np.isfinite(lr.grad_log_joint(th)))
    pr = PoissonRegression(Z, [0.0, 2.0, 5.0])
    P = pr.loglik(th)
    assert np.all(np.isfinite(P))
    # eta = -800: rate ~ e^-800, log rate = -800; y=2: 2*(-800) - 0 - log 2
    np.testing.assert_allclose(P[1], [0.0, -1600.0 - math.log(2.0), -4000.0 - math.lgamma(6.0)], rtol=1e-12)
    # eta = 800: rate = 800
    np.testing.assert_allclose(P[0], poisson.logpmf([0, 2, 5], 800.0), rtol=1e-10)
    g = pr.grad_log_joint(th)
    assert np.all(np.isfinite(g))
    # d/d eta at eta -> -inf: y r - s -> y (r -> 1), times z = 1, plus prior -theta
    np.testing.assert_allclose(g[1, 0], 7.0 + 800.0, rtol=1e-10)
    assert np.all(np.isfinite(pr.hess_log_joint(th[1])))


def test_bad_input_raises():
    Z = np.column_stack([np.arange(4.0), np.ones(4)])
    with pytest.raises(ValueError, match="y must contain only labels"):
        LogisticRegression(Z, [0.0, 1.0, 1.0, -1.0])
    with pytest.raises(ValueError, match="length n = 4"):
        LogisticRegression(Z, [1.0, -1.0])
    with pytest.raises(ValueError, match="non-negative integer"):
        PoissonRegression(Z, [1.0, -1.0, 2.0, 0.0])
    with pytest.raises(ValueError, match="non-negative integer"):
        PoissonRegression(Z, [1.5, 1.0, 2.0, 0.0])
    with pytest.raises(ValueError, match="finite"):
        LogisticRegression(np.where(Z == 2.0, np.nan, Z), [1.0, -1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="prior_var"):
        LogisticRegression(Z, [1.0, -1.0, 1.0, 1.0], prior_var=0.0)
    m = LogisticRegression(Z, [1.0, -1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="theta must have shape"):
        m.loglik(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="finite"):
        m.log_joint([np.nan, 0.0])
    with pytest.raises(ValueError, match="w must be non-negative"):
        m.log_joint(np.zeros(2), w=[1.0, -1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="w must have length"):
        m.grad_log_joint(np.zeros(2), w=[1.0, 1.0])
    with pytest.raises(ValueError, match="1-dimensional"):
        m.hess_log_joint(np.zeros((2, 2)))


@pytest.mark.parametrize("kind", ["logistic", "poisson"])
def test_log_joint_and_grad_in_one_pass_agrees(kind):
    m, rng = _data(kind, n=57)
    th = rng.normal(size=(6, m.D)) * 3
    w = rng.random(m.n)
    for ww in (None, w):
        v, g = m.log_joint_and_grad(th, ww)
        np.testing.assert_allclose(v, m.log_joint(th, ww), rtol=1e-12)
        np.testing.assert_allclose(g, m.grad_log_joint(th, ww), rtol=1e-11, atol=1e-12)
    v1, g1 = m.log_joint_and_grad(th[0])
    assert isinstance(v1, float) and g1.shape == (m.D,)


@pytest.mark.parametrize("kind", ["logistic", "poisson"])
def test_neg_log_joint_fns_agree_with_the_checked_methods(kind):
    """The optimisers' unchecked closures give the public methods' values with the sign flipped."""
    m, rng = _data(kind, n=57)
    w = rng.random(m.n) * np.repeat([0.0, 1.0, 3.0], 19)   # some weights zero
    for ww in (None, w):
        f, g, h = m.neg_log_joint_fns(ww)
        for t in rng.normal(size=(4, m.D)) * 2:
            assert f(t) == pytest.approx(-m.log_joint(t, ww), rel=1e-13)
            np.testing.assert_allclose(g(t), -m.grad_log_joint(t, ww), rtol=1e-12, atol=1e-12)
            np.testing.assert_array_equal(h(t), -m.hess_log_joint(t, ww))


def test_poisson_loglik_equals_the_formula_that_computed_the_rate_twice():
    """Issue 27: ``log(1 + e^η)`` computed once (``_softplus``) gives the values of the earlier formula,
    which computed it a second time inside ``log(log(1 + e^η))``: exactly until issue 43, now to rounding
    (``_softplus`` evaluates ``max(η, 0) + log1p(e^{−|η|})`` in place instead of ``np.logaddexp``)."""

    def twice(eta, y):
        small = eta < -30.0
        sp = np.logaddexp(0.0, np.where(small, 0.0, eta))
        log_softplus = np.where(small, eta, np.log(np.where(small, 1.0, sp)))
        return y * log_softplus - np.logaddexp(0.0, eta) - gammaln(y + 1.0)

    rng = np.random.default_rng(3)
    eta = np.concatenate([rng.normal(0.0, 5.0, 2000), [-800.0, -40.0, -30.0, -29.999, 0.0, 35.0, 800.0]])
    y = rng.poisson(3.0, eta.size).astype(float)
    m = PoissonRegression(np.ones((eta.size, 1)), y)
    np.testing.assert_allclose(m._ll(eta[None, :], y[None, :]), twice(eta[None, :], y[None, :]), rtol=2e-15, atol=0)
    th = rng.normal(size=(5, 1))
    np.testing.assert_allclose(m.loglik(th), twice(th @ m.Z.T, y[None, :]), rtol=2e-15, atol=0)
