"""Binary graphical model (Sec. 5.2): arcsine-law moments against sampling; herding over a
sample against Welling's recursion written out in explicit feature space."""

import numpy as np
import pytest

from inferopt.herding import (
    FeatureTarget,
    all_states,
    boundary_distance_bound,
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


def _distance_to_boundary(V, mu):
    """The exact distance from an interior mu to the boundary of conv(V) (full-dimensional), from its facets."""
    from scipy.spatial import ConvexHull
    eq = ConvexHull(V).equations                    # rows (n, b): n . x + b <= 0 inside, |n| = 1
    return float(-(eq[:, :-1] @ mu + eq[:, -1]).max())


def test_boundary_distance_bound_against_the_facets():
    V = pairwise_features(all_states(3))           # the marginal polytope of 3 bits: 8 vertices in 6 dimensions
    # at the centre every facet (triangle inequalities, some through the unary features) is 1/sqrt(3) away
    assert boundary_distance_bound(V, V.mean(axis=0), 3) == pytest.approx(1 / np.sqrt(3))
    assert _distance_to_boundary(V, V.mean(axis=0)) == pytest.approx(1 / np.sqrt(3))
    rng = np.random.default_rng(3)
    for _ in range(20):                             # interior means: the bound is never below the exact distance
        mu = rng.dirichlet(np.full(8, 2.0)) @ V
        assert boundary_distance_bound(V, mu, 3) >= _distance_to_boundary(V, mu) - 1e-12
    assert boundary_distance_bound(V, V[0], 3) == 0.0          # a vertex is on the boundary
    # a sample that misses states has a smaller hull: its bound is never larger
    mu = V.mean(axis=0)
    assert boundary_distance_bound(V[:7], mu, 3) <= boundary_distance_bound(V, mu, 3)


def test_boundary_distance_bound_checks_its_input():
    V = pairwise_features(all_states(3))
    with pytest.raises(ValueError, match="candidates must hold pairwise features"):
        boundary_distance_bound(V[:, :5], V.mean(axis=0)[:5], 3)
    with pytest.raises(ValueError, match="mu must have length 6"):
        boundary_distance_bound(V, np.zeros(5), 3)
    with pytest.raises(ValueError, match="span the feature space"):
        boundary_distance_bound(V[:4], V[:4].mean(axis=0), 3)
