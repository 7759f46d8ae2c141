"""Binary graphical model (Sec. 5.2): arcsine-law moments against sampling; herding over a
sample against Welling's recursion written out in explicit feature space."""

import numpy as np
import pytest

from inferopt.herding import (
    FeatureTarget,
    herd,
    pairwise_features,
    random_correlation,
    sample_sign_gaussian,
    sign_gaussian_moments,
)


def test_pairwise_features():
    x = np.array([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]])
    np.testing.assert_array_equal(pairwise_features(x), [[1, -1, 1, -1, 1, -1], [-1, -1, 1, 1, -1, -1]])


def test_arcsine_moments_match_sampling():
    rng = np.random.default_rng(0)
    sigma = random_correlation(5, rng)
    assert np.allclose(np.diag(sigma), 1.0) and np.linalg.eigvalsh(sigma).min() > 0
    x = sample_sign_gaussian(sigma, 200_000, rng)
    emp = pairwise_features(x).mean(axis=0)
    mu = sign_gaussian_moments(sigma)
    assert np.all(np.abs(emp - mu) < 5 * np.sqrt((1 - mu**2) / 200_000) + 1e-12)
    # a non-unit diagonal uses the correlation Sigma_ij / sqrt(Sigma_ii Sigma_jj)
    D = np.diag([1.0, 4.0, 0.25, 9.0, 1.0])
    np.testing.assert_allclose(sign_gaussian_moments(D @ sigma @ D), mu, atol=1e-14)


def test_herding_over_a_sample_equals_explicit_welling_recursion():
    rng = np.random.default_rng(1)
    sigma = random_correlation(6, rng)
    F = pairwise_features(sample_sign_gaussian(sigma, 3000, rng))
    mu = sign_gaussian_moments(sigma)
    T = 120
    res = herd(FeatureTarget(mu), F, T, "1/(t+1)")
    # Welling (2009), Eq. (1) with explicit w in R^D (w_0 -> 0+ * mu for the first point).
    # Features are +-1, so exact ties between states occur: each FW point must be *an* argmax
    # of <w_t, Phi(x)> (to rounding), and the recursion then follows it.
    w = 1e-9 * mu
    for j in res.order:
        score = F @ w
        assert score[j] >= score.max() - 1e-9 * (1 + np.abs(score).max())
        w = w + mu - F[j]
    np.testing.assert_allclose(res.objective[-1], np.sum((F[res.order].mean(axis=0) - mu) ** 2), rtol=1e-10)


def test_fig5_min_norm_point_is_best():
    rng = np.random.default_rng(2)
    sigma = random_correlation(8, rng)
    F = pairwise_features(sample_sign_gaussian(sigma, 5000, rng))
    target = FeatureTarget(sign_gaussian_moments(sigma))
    errs = {m: herd(target, F, 60, m).objective for m in ("1/(t+1)", "line_search", "mnp")}
    assert errs["mnp"][-1] < min(errs["1/(t+1)"][-1], errs["line_search"][-1])
    assert np.all(np.diff(errs["mnp"]) <= 1e-15) and np.all(np.diff(errs["line_search"]) <= 1e-15)


def test_bad_input():
    with pytest.raises(ValueError, match="sigma must be positive definite"):
        sign_gaussian_moments(np.array([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(ValueError, match="x must be 2-dimensional"):
        pairwise_features(np.ones(3))
