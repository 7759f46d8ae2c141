"""``estimates='authors'`` (Dresdner et al. 2021, the authors' ``blr_step_size.py``): f(q_t) and the Frank-Wolfe
gap from draws of the *mixture*, every trial on fresh draws. Checked against quadrature (unbiased), and by
counting the rows at which log p is evaluated: the cost of an iteration's estimates does not grow with the number
of components, where the stratified estimates draw ``n_samples`` points per component."""

import numpy as np
import pytest

from inferopt.boosting import BoostingProblem, Component, GaussianMixtureTarget, Mixture, boost
from inferopt.boosting.boost import step_settings
from inferopt.fw import ActiveSet

from test_boosting_steps import kl_quad, sequence_lmo

TARGET = GaussianMixtureTarget([[-1.0], [2.0]], [[1.0], [0.7]], [0.4, 0.6])
AUTHORS = dict(estimates="authors", reuse_samples=False, ls_draws="authors")


class CountingTarget:
    """A target that records how many rows each ``log_density`` call evaluates."""

    def __init__(self, target):
        self.target, self.rows = target, []
        self.dim, self.log_normalizer = target.dim, target.log_normalizer

    def log_density(self, x):
        self.rows.append(len(x))
        return self.target.log_density(x)

    def grad_log_density(self, x):
        return self.target.grad_log_density(x)


def _two_component_iterate(prob, comps):
    active = ActiveSet()
    for gamma in (1.0, 0.3):                                  # q = 0.7 comps[0] + 0.3 comps[1]
        sid, _ = prob.lmo(active)
        prob.move(active, "fw", sid, None, gamma)
        active.fw_update(sid, gamma)
        f = prob.objective(active)
    return active, f


def test_authors_estimates_are_unbiased_against_quadrature():
    """Over independent seeds, the mean of f(q_t), of <grad f(q_t), s> - <grad f(q_t), q_t> (the slope along d = s - q_t)
    and of a trial f(q_t + γ d) matches quadrature within four standard errors."""
    c0, c1, s = (Component("gaussian", [-0.5], [0.1]), Component("gaussian", [1.0], [0.3]),
                 Component("gaussian", [2.2], [-0.2]))
    q0 = Mixture(c0.family, np.array([[-0.5], [1.0]]), np.array([[0.1], [0.3]]), np.array([0.7, 0.3]))
    f_exact = kl_quad(TARGET, q0)
    h = 1e-4
    slope_exact = (4 * kl_quad(TARGET, q0.add(s, h)) - kl_quad(TARGET, q0.add(s, 2 * h)) - 3 * f_exact) / (2 * h)
    trial_exact = kl_quad(TARGET, q0.add(s, 0.4))
    f, slope, trial = [], [], []
    for seed in range(300):
        prob = BoostingProblem(TARGET, "gaussian", rng=np.random.default_rng(seed), n_samples=50,
                               lmo=sequence_lmo([c0, c1, s]), **AUTHORS)
        active, f_q = _two_component_iterate(prob, [c0, c1])
        sid, grad_s = prob.lmo(active)
        f.append(f_q)
        slope.append(grad_s - prob.grad_iterate(active))
        trial.append(prob.direction(active, "fw", sid, None).phi(0.4))
    for values, exact in ((f, f_exact), (slope, slope_exact), (trial, trial_exact)):
        values = np.asarray(values)
        assert abs(values.mean() - exact) < 4 * values.std(ddof=1) / np.sqrt(values.size)
    # <grad f(q_t), q_t> is estimated on the objective's own draws (f(q_t) = E_q[log q - log p], Eq. (6))
    assert prob.grad_iterate(active) == pytest.approx(f[-1])


@pytest.mark.parametrize("method", ["predefined", "line_search", "adafw"])
def test_authors_estimates_cost_does_not_grow_with_the_components(method):
    """Frank-Wolfe rules: per iteration log p is evaluated at n draws of s and n of q_t (and the rule's own trials or
    derivatives, n or 2n rows each) whatever the number of components; the stratified estimates evaluate it at
    n draws per component, a number that grows with the mixture."""
    n, T = 30, 6
    comps = [Component("gaussian", [m], [0.0]) for m in np.linspace(-2.0, 3.0, T + 1)]   # a new component every step
    counted = CountingTarget(TARGET)
    res = boost(counted, method, rng=np.random.default_rng(0), max_iter=T, family="gaussian", n_samples=n,
                lmo=sequence_lmo(comps), **step_settings(method, {"C0": 1.0}, strict=False), **AUTHORS)
    assert set(counted.rows) <= {n, 2 * n}                    # never a per-component batch
    assert res.record.n_components.iloc[-1] > 3
    stratified = CountingTarget(TARGET)
    boost(stratified, method, rng=np.random.default_rng(0), max_iter=T, family="gaussian", n_samples=n,
          lmo=sequence_lmo(comps), **step_settings(method, {"C0": 1.0}, strict=False), reuse_samples=False,
          ls_draws="authors")    # the same trials
    assert max(stratified.rows) >= 3 * n                      # a batch of n draws per component
    assert sum(stratified.rows) > sum(counted.rows) + T * n


@pytest.mark.parametrize("method", ["adaafw", "adapfw"])
def test_authors_away_vertex_uses_per_component_draws(method):
    """Away and pairwise rules need <grad f(q_t), s_k> for every component (the authors' ``argmax_grad_dotp``: n draws
    each, one batch here), besides the mixture draws; the run stays on the simplex."""
    n = 30
    comps = [Component("gaussian", [m], [0.0]) for m in (-0.5, 2.2, 0.5, 1.5, -1.5)]
    counted = CountingTarget(TARGET)
    res = boost(counted, method, rng=np.random.default_rng(2), max_iter=4, family="gaussian", n_samples=n,
                lmo=sequence_lmo(comps), C0=1.0, **AUTHORS)
    assert any(r >= 2 * n and r % n == 0 and r not in (n, 2 * n) for r in counted.rows) or \
        res.record.n_components.max() <= 2
    assert np.isfinite(res.record.objective).all()
    assert res.mixture.weights.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("kwargs, match", [
    (dict(estimates="authors", reuse_samples=True, ls_draws="authors"), "reuse_samples=False"),
    (dict(estimates="authors", reuse_samples=False, ls_draws="iteration"), "ls_draws='authors'"),
    (dict(estimates="mixture"), "estimates"),
])
def test_authors_estimates_need_their_draws(kwargs, match):
    with pytest.raises(ValueError, match=match):
        BoostingProblem(TARGET, "gaussian", rng=np.random.default_rng(0), **kwargs)
