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


@pytest.mark.parametrize("kind", ["fw", "away", "pairwise"])
def test_fixed_draw_trials_are_unbiased_and_evaluate_log_p_once(kind):
    """``reuse_samples=True`` with the authors' estimates: a trial f(q_t + γ d) on the iterate's draws and the step's
    fixed draws of the two sides of d is unbiased against quadrature over independent seeds (every direction);
    phi(0) is f(q_t) on the same draws; after the sides' 2n rows no trial evaluates log p again."""
    c0, c1, s = (Component("gaussian", [-0.5], [0.1]), Component("gaussian", [1.0], [0.3]),
                 Component("gaussian", [2.2], [-0.2]))
    gamma = {"fw": 0.4, "away": 0.2, "pairwise": 0.2}[kind]    # away / pairwise off comps[1] (weight 0.3)
    q0 = Mixture(c0.family, np.array([[-0.5], [1.0]]), np.array([[0.1], [0.3]]), np.array([0.7, 0.3]))
    w = {"fw": [0.7 * (1 - gamma), 0.3 * (1 - gamma), gamma], "away": [0.7 * (1 + gamma), 0.3 * (1 + gamma) - gamma, 0.0],
         "pairwise": [0.7, 0.3 - gamma, gamma]}[kind]
    exact = kl_quad(TARGET, Mixture(c0.family, np.array([[-0.5], [1.0], [2.2]]), np.array([[0.1], [0.3], [-0.2]]),
                                    np.array(w)))
    trials, n = [], 40
    for seed in range(300):
        counted = CountingTarget(TARGET)
        prob = BoostingProblem(counted, "gaussian", rng=np.random.default_rng(seed), n_samples=n,
                               lmo=sequence_lmo([c0, c1, s]), estimates="authors", reuse_samples=True, ls_draws="fixed")
        active, f_q = _two_component_iterate(prob, [c0, c1])
        sid, _ = prob.lmo(active)
        line = prob.direction(active, kind, sid, 1 if kind != "fw" else None)
        assert line.phi(0.0) == pytest.approx(f_q, abs=1e-12)
        before = list(counted.rows)
        trials.append(line.phi(gamma))
        assert counted.rows[len(before):] == [2 * n]           # the two sides, once
        line.phi(gamma / 2), line.dphi(gamma), line.phi(gamma / 3)
        assert counted.rows[len(before):] == [2 * n]           # no trial, no derivative evaluates log p again
    trials = np.asarray(trials)
    assert abs(trials.mean() - exact) < 4 * trials.std(ddof=1) / np.sqrt(trials.size)


@pytest.mark.parametrize("method", ["adafw", "adaafw", "adapfw"])
def test_fixed_draw_trials_cost_the_gap_and_the_sides_only(method):
    """Per step, an adaptive rule on fixed draws evaluates log p at the gap's draws (n of s, n of q_t), the sides of d
    (2n) and, away and pairwise, n per component (the away vertex): never at a trial's, whatever the number of tries."""
    n = 30
    comps = [Component("gaussian", [m], [0.0]) for m in (-0.5, 2.2, 0.5, 1.5, -1.5, 3.0)]
    counted = CountingTarget(TARGET)
    res = boost(counted, method, rng=np.random.default_rng(1), max_iter=5, family="gaussian", n_samples=n,
                lmo=sequence_lmo(comps), C0=1.0, estimates="authors", reuse_samples=True, ls_draws="fixed")
    fresh = CountingTarget(TARGET)
    ref = boost(fresh, method, rng=np.random.default_rng(1), max_iter=5, family="gaussian", n_samples=n,
                lmo=sequence_lmo(comps), C0=1.0, **AUTHORS)
    steps = res.record.iloc[1:]
    per_step = steps.work_step.to_numpy()
    assert np.all(np.isfinite(res.record.objective)) and res.mixture.weights.sum() == pytest.approx(1.0)
    if method == "adafw":                                     # gap 2n, + sides 2n where it tries, whatever the tries
        assert np.all(per_step == np.where(steps.n_tries.to_numpy() > 0, 4 * n, 2 * n))
    assert np.all(per_step <= (4 + steps.n_components.to_numpy() + 1) * n)
    tried = ref.record.iloc[1:]
    assert tried.work_step.sum() > (tried.n_tries.sum()) * n  # on fresh draws every try costs n rows
    assert steps.n_tries.max() >= 1


@pytest.mark.parametrize("kwargs, match", [
    (dict(estimates="mixture"), "estimates"),
])
def test_authors_estimates_need_their_draws(kwargs, match):
    with pytest.raises(ValueError, match=match):
        BoostingProblem(TARGET, "gaussian", rng=np.random.default_rng(0), **kwargs)


def authors_step_work(record, method: str, n: int) -> np.ndarray:
    """Evaluations of log p per step as the authors' ``blr_step_size.py`` makes them (``N = n``, ``K`` components of
    q_t): their gap on N draws of q_t and N of s (the pairwise gap: the away vertex's and s's), ``argmax_grad_dotp``'s
    K·N for the away and pairwise variants (K = 1 too), and where the test is made ``f_t`` (N) and N per trial."""
    steps = record.iloc[1:]
    k = record.n_components.iloc[:-1].to_numpy()
    tries = steps.n_tries.to_numpy()
    tested = np.where(tries > 0, n + n * tries, 0)
    return {"adafw": 2 * n + tested, "adaafw": k * n + 2 * n + tested, "adapfw": k * n + n + tested}[method]


@pytest.mark.parametrize("method", ["adafw", "adaafw", "adapfw"])
def test_adaptive_rules_count_the_work_of_the_authors_code(method):
    """Every step's work_step is the authors' count (:func:`authors_step_work`): their AdaFW and AdaAFW estimate f(q_t)
    once more on draws of their own before testing, their AdaAFW and AdaPFW estimate every component's value at one
    component too, their AdaPFW takes no draw of q_t but its f_t. The counter in the target agrees."""
    n = 30
    comps = [Component("gaussian", [m], [0.0]) for m in (-0.5, 2.2, 0.5, 1.5, -1.5, 3.0, 1.0, -0.2)]
    counted = CountingTarget(TARGET)
    rec = boost(counted, method, rng=np.random.default_rng(3), max_iter=7, family="gaussian", n_samples=n,
                lmo=sequence_lmo(comps), C0=1.0, **AUTHORS).record
    np.testing.assert_array_equal(rec.work_step.iloc[1:].to_numpy(), authors_step_work(rec, method, n))
    assert (rec.n_tries.iloc[1:] > 0).any() and (rec.n_components.iloc[:-1] > 1).any()   # both kinds of step occur
    assert sum(counted.rows) >= rec.work_step.sum()


@pytest.mark.parametrize("variant", ["fw", "away", "pairwise"])
def test_the_test_estimate_is_their_f_t(variant):
    """``Direction.f_test`` is their ``f_t``: for the Frank-Wolfe and away variants f(q_t) on n draws of its own (a
    value apart from the iterate's, n evaluations of log p); for the pairwise variant the iterate's estimate, whose n
    evaluations are charged only then (no new one). Common draws (reuse_samples=True) take none (the test on f0)."""
    n = 40
    comps = [Component("gaussian", [m], [0.0]) for m in (-0.5, 1.0, 2.2)]
    counted = CountingTarget(TARGET)
    prob = BoostingProblem(counted, "gaussian", rng=np.random.default_rng(0), n_samples=n, lmo=sequence_lmo(comps),
                           variant=variant, **AUTHORS)
    active, f = _two_component_iterate(prob, comps)
    sid, _ = prob.lmo(active)
    line = prob.direction(active, "fw", sid, None)
    rows, work = len(counted.rows), prob.n_logp
    value = line.f_test()
    if variant == "pairwise":
        assert value == f and counted.rows[rows:] == [] and prob.n_logp - work == n
        assert line.f_test() == f and prob.n_logp - work == n               # charged once
    else:
        assert value != f and counted.rows[rows:] == [n] and prob.n_logp - work == n
    common = BoostingProblem(TARGET, "gaussian", rng=np.random.default_rng(0), n_samples=n, lmo=sequence_lmo(comps),
                             variant=variant, estimates="authors", reuse_samples=True, ls_draws="fixed")
    active, _ = _two_component_iterate(common, comps)
    assert common.direction(active, "fw", common.lmo(active)[0], None).f_test is None
