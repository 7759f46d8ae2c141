"""Mixtures: log density against scipy.stats, gradients, sampling, simplex-preserving
updates (add / move / remove / prune) and bad input."""

import numpy as np
import pytest
from scipy import stats

import inferopt.boosting.families as families
from inferopt.boosting import Component, Mixture


def _mix(name="gaussian", K=3, D=2, seed=0):
    rng = np.random.default_rng(seed)
    w = rng.random(K) + 0.1
    return Mixture(name, rng.normal(size=(K, D)) * 2, rng.normal(size=(K, D)) * 0.4, w / w.sum()), rng


@pytest.mark.parametrize("name,dist", [("gaussian", stats.norm), ("laplace", stats.laplace)])
def test_log_density_matches_scipy_reference(name, dist):
    q, rng = _mix(name, K=4, D=3)
    x = rng.normal(size=(50, 3)) * 3
    # loop-free reference: sum_k w_k prod_d pdf(x_d; mu_kd, b_kd)
    dens = dist.pdf(x[:, None, :], loc=q.locs[None], scale=np.exp(q.log_scales)[None]).prod(axis=2) @ q.weights
    np.testing.assert_allclose(q.log_density(x), np.log(dens), rtol=1e-10)
    r = q.responsibilities(x)
    np.testing.assert_allclose(r.sum(axis=1), 1.0)


def test_log_density_is_stable_far_in_the_tails():
    q = Mixture("gaussian", [[0.0], [1.0]], [[0.0], [0.0]], [0.5, 0.5])
    x = np.array([[60.0], [-60.0]])
    ref = np.logaddexp(np.log(0.5) + stats.norm.logpdf(x[:, 0]), np.log(0.5) + stats.norm.logpdf(x[:, 0], loc=1.0))
    np.testing.assert_allclose(q.log_density(x), ref, rtol=1e-12)


@pytest.mark.parametrize("name", ["gaussian", "laplace"])
def test_grad_x_log_density_matches_finite_differences(name):
    q, rng = _mix(name, K=3, D=2, seed=1)
    x = rng.normal(size=(8, 2))
    h = 1e-6
    fd = np.stack([(q.log_density(x + h * e) - q.log_density(x - h * e)) / (2 * h) for e in np.eye(2)], axis=1)
    np.testing.assert_allclose(q.grad_x_log_density(x), fd, rtol=1e-5, atol=1e-6)


def test_sampling_counts_and_moments():
    q = Mixture("laplace", [[-5.0, 0.0], [5.0, 1.0]], np.log([[0.5, 0.5], [1.0, 1.0]]), [0.3, 0.7])
    x, labels = q.sample_with_labels(40000, np.random.default_rng(2))
    assert x.shape == (40000, 2)
    frac = np.mean(labels == 0)
    assert abs(frac - 0.3) < 4 * np.sqrt(0.3 * 0.7 / 40000)
    np.testing.assert_allclose(x[labels == 1].mean(axis=0), [5.0, 1.0], atol=0.04)
    np.testing.assert_allclose(q.mean, [2.0, 0.7])
    np.testing.assert_allclose(x.mean(axis=0), q.mean, atol=0.08)


def _on_simplex(q):
    assert np.all(q.weights >= 0)
    assert abs(q.weights.sum() - 1) < 1e-12


def test_updates_keep_weights_on_the_simplex():
    q, rng = _mix("gaussian", K=2, D=2)
    s = Component("gaussian", [1.0, 1.0], [0.0, 0.0])
    q1 = q.add(s, 0.25)
    _on_simplex(q1)
    np.testing.assert_allclose(q1.weights, np.append(0.75 * q.weights, 0.25))
    np.testing.assert_allclose(q1.locs[-1], s.loc)
    q2 = q1.move("pairwise", 0.1, s=Component("gaussian", [2.0, 0.0], [0.0, 0.0]), v=0)
    _on_simplex(q2)
    np.testing.assert_allclose(q2.weights, [q1.weights[0] - 0.1, q1.weights[1], 0.25, 0.1])
    a = q2.weights[1]
    q3 = q2.move("away", a / (1 - a), v=1)           # drop step: weight of component 1 -> 0
    _on_simplex(q3)
    assert q3.weights[1] == 0.0
    q4 = q3.prune()
    _on_simplex(q4)
    assert q4.n_components == 3
    q5 = q4.remove(0)
    _on_simplex(q5)
    np.testing.assert_allclose(q5.weights, q4.weights[1:] / q4.weights[1:].sum())
    np.testing.assert_allclose(q1.move("fw", 0.5, s=s).weights, np.append(0.5 * q1.weights, 0.5))
    # q itself is unchanged (immutable updates)
    assert q.n_components == 2
    # moving in x: the mixture density is the convex combination of densities
    x = rng.normal(size=(10, 2))
    np.testing.assert_allclose(np.exp(q1.log_density(x)), 0.75 * np.exp(q.log_density(x)) + 0.25 * np.exp(s.log_density(x)))


def test_caller_arrays_are_not_frozen():
    locs = np.zeros((1, 2))
    Mixture("gaussian", locs, np.zeros((1, 2)), [1.0])
    locs[0, 0] = 1.0   # must not raise


def test_bad_input_raises():
    with pytest.raises(ValueError, match="simplex"):
        Mixture("gaussian", np.zeros((2, 2)), np.zeros((2, 2)), [0.5, 0.6])
    with pytest.raises(ValueError, match="simplex"):
        Mixture("gaussian", np.zeros((2, 2)), np.zeros((2, 2)), [1.5, -0.5])
    with pytest.raises(ValueError, match="length K = 2"):
        Mixture("gaussian", np.zeros((2, 2)), np.zeros((2, 2)), [1.0])
    with pytest.raises(ValueError, match="same shape"):
        Mixture("gaussian", np.zeros((2, 2)), np.zeros((2, 3)), [0.5, 0.5])
    q = Mixture("gaussian", np.zeros((2, 2)), np.zeros((2, 2)), [0.5, 0.5])
    with pytest.raises(ValueError, match="dimension D = 2"):
        q.add(Component("gaussian", [0.0], [0.0]), 0.5)
    with pytest.raises(ValueError, match="family"):
        q.add(Component("laplace", [0.0, 0.0], [0.0, 0.0]), 0.5)
    with pytest.raises(ValueError, match="gamma"):
        q.add(Component("gaussian", [0.0, 0.0], [0.0, 0.0]), 1.5)
    with pytest.raises(ValueError, match="pairwise"):
        q.move("pairwise", 0.7, s=Component("gaussian", [0.0, 0.0], [0.0, 0.0]), v=0)
    with pytest.raises(ValueError, match="D = 2 columns"):
        q.log_density(np.zeros((3, 1)))
    single = Mixture("gaussian", np.zeros((1, 2)), np.zeros((1, 2)), [1.0])
    with pytest.raises(ValueError, match="only component"):
        single.remove(0)


@pytest.mark.parametrize("name", ["gaussian", "laplace"])
@pytest.mark.parametrize("block", [1, 37, 500])
def test_draws_in_blocks_give_the_same_numbers(name, block, monkeypatch):
    """Many draws under many components are evaluated in blocks of draws (issue 46: the ``(S, K, D)`` arrays stay in a
    core's cache); each draw's log density, responsibilities and gradient are the numbers of one whole array, bit for bit,
    whatever the block (1 draw, 37 numbers: one draw a block; 500: 20 draws, the last block short), zero weights included."""
    q, rng = _mix(name, K=5, D=4, seed=3)
    q = q.with_weights([0.0, *q.weights[1:] / q.weights[1:].sum()])
    x = rng.normal(size=(103, 4)) * 2

    def evaluate():
        return [q.log_density(x), q.responsibilities(x), *q.log_density_and_grad_x(x), q.component_log_density(x),
                q.family.grad_x_log_density(x, q.locs, q.log_scales)]

    whole = evaluate()
    monkeypatch.setattr(families, "BLOCK_ELEMENTS", block)
    for a, b in zip(whole, evaluate(), strict=True):
        np.testing.assert_array_equal(a, b)
    assert q.log_density(x[:0]).shape == (0,)
