"""C1's random next component (Fig. 1 left): the authors' law and our near law (:func:`random_component`)."""

import numpy as np
import pytest

from inferopt.experiment.boosting import random_component, random_lmo_step, random_two_gaussians


def _kl_diag(m0, s0, m1, s1):
    """KL(N(m0, diag s0^2) || N(m1, diag s1^2)), closed form."""
    return float(np.sum(np.log(s1 / s0) + (s0**2 + (m0 - m1) ** 2) / (2 * s1**2) - 0.5))


def _median_kl_to_second(D, spread, n=400, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        t = random_two_gaussians(D, rng)
        c = random_component(t, rng.normal(size=D), rng.normal(size=D), spread)
        out.append(_kl_diag(t.means[1], t.scales[1], c.loc, c.scale))
    return np.median(out)


def test_the_authors_law_is_drawn_as_the_targets_components():
    t = random_two_gaussians(3, 0)
    u, v = np.array([0.3, -1.0, 2.0]), np.array([1.2, 0.1, -3.0])
    c = random_component(t, u, v)
    assert np.array_equal(c.loc, u) and np.allclose(c.scale, np.logaddexp(0.0, v))


def test_the_near_laws_distance_to_the_second_component_does_not_grow_with_the_dimension():
    # the median KL from the target's second component: of order c^2 whatever D under the near law (each coordinate's
    # offset c / sqrt(D); 3.1 and 4.8 at D = 5 and 80), growing about linearly under the authors' law, whose components
    # are drawn anywhere (28 and 830)
    near = [_median_kl_to_second(D, 1.0) for D in (5, 80)]
    assert 1 <= near[0] < near[1] < 2 * near[0]
    authors = [_median_kl_to_second(D, None, n=100) for D in (5, 80)]
    assert authors[1] > 10 * authors[0]


def test_both_laws_meet_the_same_targets_and_seeds():
    kw = dict(dims=[2, 3], n_runs=3, methods=("predefined",), n_samples=10, n_eval=50, exact_step=False)
    a = random_lmo_step(rng=np.random.default_rng(4), **kw)
    b = random_lmo_step(rng=np.random.default_rng(4), spread=1.0, **kw)
    assert np.array_equal(a.kl_init, b.kl_init)          # the same target, q1 and evaluation draws in every run
    assert not np.array_equal(a.kl, b.kl)                 # another component


def test_bad_component_arguments_are_refused_by_name():
    t = random_two_gaussians(2, 0)
    with pytest.raises(ValueError, match="u must have the target's dimension 2"):
        random_component(t, np.zeros(3), np.zeros(2))
    with pytest.raises(ValueError, match="spread"):
        random_component(t, np.zeros(2), np.zeros(2), spread=0.0)
    with pytest.raises(TypeError, match="target"):
        random_component(object(), np.zeros(2), np.zeros(2))


def test_a_second_draw_stream_changes_only_the_rules_draws():
    """draw_stream > 0: the same targets, components and evaluation draws (q1's KL, the exact step, the predefined step's
    KL, which draws nothing), other draws for the rules that estimate (AdaFW's KL moves); 0 is the default pass."""
    kw = dict(dims=[2, 5], n_runs=4, methods=("predefined", "adafw"), n_samples=10, n_eval=200, C0=0.001)
    a = random_lmo_step(rng=np.random.default_rng(4), **kw)
    b = random_lmo_step(rng=np.random.default_rng(4), draw_stream=1, **kw)
    assert a.equals(random_lmo_step(rng=np.random.default_rng(4), draw_stream=0, **kw))
    assert np.array_equal(a.kl_init, b.kl_init) and np.array_equal(a.kl_best, b.kl_best)
    pre = (a.method == "predefined").to_numpy()
    assert np.array_equal(a.kl[pre], b.kl[pre])
    assert not np.array_equal(a.kl[~pre], b.kl[~pre])
    with pytest.raises(ValueError, match="draw_stream"):
        random_lmo_step(rng=np.random.default_rng(4), draw_stream=-1, **kw)


def test_the_line_search_draws_as_the_authors_graph_takes_them():
    """ls_draws: the line search's derivative on fresh draws at every call (the default, as the authors' toy
    line_search_dkl) or on the step's draws kept for the search: the same targets, components and evaluation draws, other
    steps for line search only (the predefined step and AdaFW with C_-1 given take no derivative)."""
    kw = dict(dims=[2, 5], n_runs=4, methods=("predefined", "line_search", "adafw"), n_samples=10, n_eval=200, C0=0.001,
              ls_iter=10, ls_lr=0.1)
    fresh = random_lmo_step(rng=np.random.default_rng(4), **kw)
    assert fresh.equals(random_lmo_step(rng=np.random.default_rng(4), ls_draws="authors", **kw))
    kept = random_lmo_step(rng=np.random.default_rng(4), ls_draws="iteration", **kw)
    ls = (fresh.method == "line_search").to_numpy()
    assert np.array_equal(fresh.kl_init, kept.kl_init) and np.array_equal(fresh.kl[~ls], kept.kl[~ls])
    assert not np.array_equal(fresh.gamma[ls], kept.gamma[ls])
    with pytest.raises(ValueError, match="ls_draws"):
        random_lmo_step(rng=np.random.default_rng(4), ls_draws="fresh", **kw)


def test_eps0_from_the_measured_monte_carlo_error():
    """eps0_se: each run's ε₀ is that many standard errors of the step rules' KL estimate at the step 2/3 (column eps0,
    positive, proportional to eps0_se, smaller with more draws); the targets, components and the predefined step's KL
    unchanged; a non-positive eps0_se is refused by name."""
    kw = dict(dims=[5], n_runs=4, methods=("predefined", "adafw"), n_eval=200, C0=0.001, exact_step=False)
    plain = random_lmo_step(rng=np.random.default_rng(4), n_samples=10, **kw)
    one = random_lmo_step(rng=np.random.default_rng(4), n_samples=10, eps0_se=1.0, **kw)
    two = random_lmo_step(rng=np.random.default_rng(4), n_samples=10, eps0_se=2.0, **kw)
    many = random_lmo_step(rng=np.random.default_rng(4), n_samples=1000, eps0_se=1.0, **kw)
    assert "eps0" not in plain and (one.eps0 > 0).all()
    assert np.allclose(two.eps0, 2 * one.eps0)
    assert many.eps0.median() < one.eps0.median()
    pre = (one.method == "predefined").to_numpy()
    assert np.array_equal(plain.kl[pre], one.kl[pre]) and np.array_equal(plain.kl_init, one.kl_init)
    with pytest.raises(ValueError, match="eps0_se"):
        random_lmo_step(rng=np.random.default_rng(4), n_samples=10, eps0_se=0.0, **kw)
