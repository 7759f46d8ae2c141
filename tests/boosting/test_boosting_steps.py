"""Step rules of boosting VI on the shared Frank-Wolfe core (Dresdner et al. 2021, Alg. 1-2):
Monte-Carlo line estimates against quadrature, sufficient decrease of every accepted adaptive
step, recovery of a known mixture weight, drop steps, simplex weights, bad input."""

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.stats import norm

from inferopt.boosting import BoostingProblem, Component, GaussianMixtureTarget, Mixture, boost, make_step
from inferopt.boosting.boost import step_settings
from inferopt.fw import ActiveSet


def kl_quad(target: GaussianMixtureTarget, q: Mixture) -> float:
    """KL(q || p) in 1-D by adaptive quadrature (independent of the Monte-Carlo code)."""
    def dens(m, x):
        return float(np.sum(m.weights * norm.pdf(x, m.locs[:, 0], np.exp(m.log_scales[:, 0]))))

    def integrand(x):
        qx = dens(q, x)
        return qx * (np.log(qx) - np.log(dens(target.mixture, x))) if qx > 0 else 0.0
    return quad(integrand, -15, 15, limit=200, points=list(q.locs[:, 0]))[0]


def sequence_lmo(components):
    """An LMO returning fixed components in turn (the last one repeatedly)."""
    return lambda q, t, rng: components[min(t, len(components) - 1)]


def test_phi_and_dphi_match_quadrature():
    target = GaussianMixtureTarget([[-1.0], [2.0]], [[1.0], [0.7]], [0.4, 0.6])
    c0 = Component("gaussian", [-0.5], [0.1])
    s = Component("gaussian", [2.2], [-0.2])
    prob = BoostingProblem(target, "gaussian", rng=np.random.default_rng(0), n_samples=20_000,
                           lmo=sequence_lmo([c0, s]))
    active = ActiveSet()
    first, _ = prob.lmo(active)
    prob.move(active, "fw", first, None, 1.0)
    active.fw_update(first, 1.0)
    f0 = prob.objective(active)
    sid, grad_s = prob.lmo(active)
    d = prob.direction(active, "fw", sid, None)
    assert d.phi(0.0) == pytest.approx(f0, abs=1e-12)           # common random numbers
    q0 = Mixture.from_component(c0)
    assert f0 == pytest.approx(kl_quad(target, q0), abs=0.03)
    for gamma in (0.2, 0.5, 0.9):
        q = q0.add(s, gamma)
        assert d.phi(gamma) == pytest.approx(kl_quad(target, q), abs=0.03)
        h = 1e-4
        fd = (kl_quad(target, q0.add(s, gamma + h)) - kl_quad(target, q0.add(s, gamma - h))) / (2 * h)
        assert d.dphi(gamma) == pytest.approx(fd, abs=0.05 * max(1.0, abs(fd)))
    # slope at 0: <grad f(q), s - q> = E_s[log q/p] - KL(q)
    assert grad_s - f0 == pytest.approx(d.dphi(0.0), abs=0.1)


@pytest.mark.parametrize("method", ["adafw", "adaafw", "adapfw"])
def test_every_accepted_adaptive_step_satisfies_sufficient_decrease(method):
    target = GaussianMixtureTarget([[0.0, 0.0], [3.0, -2.0], [-2.0, 2.5]], [[1.0, 0.6], [0.5, 0.8], [0.7, 0.7]])
    eps0 = 0.05
    res = boost(target, method, rng=np.random.default_rng(1), max_iter=8, family="gaussian", n_samples=200,
                greedy=dict(max_iter=150, n_samples=10, lr=0.1), C0=1.0, eps0=eps0)
    rec = res.record
    accepted = rec[(rec.iteration >= 1) & (rec.step_type != "fallback")]
    assert len(accepted) >= 4
    for _, row in accepted.iterrows():
        t = int(row.iteration)
        if row.slope >= 0:                                     # no descent estimated: no step
            assert row.gamma == 0.0
            continue
        f0 = rec.objective[t - 1]
        bound = f0 + row.gamma * row.slope + 0.5 * row.C * row.gamma**2 + 2 * eps0 / t**2   # Eq. (11)
        assert row.value <= bound + 1e-9
        assert row.bound == pytest.approx(bound, rel=1e-12, abs=1e-12)
        # gamma = min(g_t / C, gamma_max)
        assert row.gamma <= -row.slope / row.C * (1 + 1e-12)


def test_adafw_recovers_a_known_mixture_weight():
    weight = 0.3
    target = GaussianMixtureTarget([[-4.0, 0.0], [4.0, 1.0]], [[1.0, 1.0], [0.8, 1.2]], [weight, 1 - weight])
    comps = [target.component(0), target.component(1)]

    def exact_lmo(q, t, rng):
        """The better of the two target components by <grad f(q), s> (many draws)."""
        if q is None:
            return comps[0]
        vals = [np.mean(q.log_density(x) - target.log_density(x)) for x in (c.sample(4000, rng) for c in comps)]
        return comps[int(np.argmin(vals))]

    res = boost(target, "adafw", rng=np.random.default_rng(2), max_iter=40, family="gaussian", n_samples=2000,
                lmo=exact_lmo, C0=1.0)
    q = res.mixture
    w0 = q.weights[np.all(q.locs == comps[0].loc, axis=1)].sum()
    assert w0 == pytest.approx(weight, abs=0.03)
    assert res.record.objective.iloc[-1] < 0.01                 # KL to the exact target


@pytest.mark.parametrize("method", ["adaafw", "adapfw"])
def test_drop_steps_remove_components(method):
    target = GaussianMixtureTarget.single([0.0], [1.0])
    bad, good = Component("gaussian", [4.0], [0.0]), Component("gaussian", [0.0], [0.0])
    res = boost(target, method, rng=np.random.default_rng(3), max_iter=8, family="gaussian", n_samples=500,
                lmo=sequence_lmo([bad, good]), C0=20.0)
    rec = res.record
    assert "drop" in set(rec.step_type)
    t_drop = int(rec.index[rec.step_type == "drop"][0])
    assert rec.n_components[t_drop] == rec.n_components[t_drop - 1] - 1
    assert res.mixture.n_components == 1 and res.mixture.locs[0, 0] == 0.0
    assert rec.objective.iloc[-1] < 1e-9 + 0.01


@pytest.mark.parametrize("method", ["predefined", "line_search", "adafw", "adaafw", "adapfw"])
def test_weights_stay_on_the_simplex(method):
    target = GaussianMixtureTarget([[0.0, 1.0], [2.0, -1.0]], [[1.0, 0.5], [0.6, 0.9]])
    seen = []

    def evaluate(q):
        seen.append(q.weights.copy())
        return {"n": q.n_components}

    res = boost(target, method, rng=np.random.default_rng(4), max_iter=6, family="gaussian", n_samples=100,
                greedy=dict(max_iter=100, n_samples=10, lr=0.1), evaluate=evaluate)
    assert len(seen) == 7
    for w in seen:
        assert np.all(w > 0) and w.sum() == pytest.approx(1.0, abs=1e-12)
    assert list(res.record.n) == list(res.record.n_components)
    assert np.isnan(res.record.gap.iloc[-1]) and np.all(np.isfinite(res.record.gap.iloc[:-1]))
    assert res.problem.n_lmo == 7                                # no greedy step after the last iterate


@pytest.mark.parametrize("kwargs,match", [
    (dict(method="newton"), "step must be one of"),
    (dict(imax=0), "imax must be >= 1"),
    (dict(tau=1.0), "tau must be > 1"),
    (dict(eta=1.5), "eta must be <= 1"),
    (dict(C0=0.0), "C0 must be > 0"),
    (dict(eps0=-1.0), "eps0 must be >= 0"),
    (dict(max_iter=0), "max_iter must be >= 1"),
    (dict(n_samples=0), "n_samples must be >= 1"),
    (dict(greedy=dict(steps=3)), "greedy has unknown keys"),
    (dict(reuse_samples="yes"), "reuse_samples must be True or False"),
    (dict(ls_draws="mine"), "ls_draws must be one of"),
    (dict(lmo=lambda q, t, rng: Component("gaussian", [0.0, 0.0, 0.0], [0.0, 0.0, 0.0])), "dimension 2"),
])
def test_bad_input_raises(kwargs, match):
    target = GaussianMixtureTarget.single([0.0, 0.0], [1.0, 1.0])
    kwargs = {"method": "adafw", **kwargs}
    with pytest.raises((ValueError, TypeError), match=match):     # a flag of the wrong type is a TypeError
        boost(target, kwargs.pop("method"), rng=np.random.default_rng(0), max_iter=kwargs.pop("max_iter", 2),
              family="gaussian", greedy=kwargs.pop("greedy", dict(max_iter=5)), **kwargs)


def test_non_positive_scales_and_mismatched_dimensions_raise():
    with pytest.raises(ValueError, match="scale must be strictly positive"):
        Component.from_scale("laplace", [0.0, 0.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="must have the same shape"):
        Component("laplace", [0.0, 0.0], [0.0])
    with pytest.raises(ValueError, match="imax must be"):
        make_step("adapfw", imax=2.5)


@pytest.mark.parametrize("ls_draws", ["authors", "fixed"])
def test_authors_line_search_derivative_is_their_estimator_on_the_sides_draws(ls_draws):
    """dphi(γ) = mean_s[log q_γ − log p] − mean_q[log q_γ − log p] on n draws from q_t and n from s, close to the
    quadrature derivative: ``'authors'`` on fresh draws at every call (their graph's sampling ops run again at every
    ``.eval()``: the estimate changes, 2n evaluations of log p a call), ``'fixed'`` on the first call's draws (the same
    estimate at every call, log p once)."""
    target = GaussianMixtureTarget([[-1.0], [2.0]], [[1.0], [0.7]], [0.4, 0.6])
    c0, c1, s = (Component("gaussian", [-0.5], [0.1]), Component("gaussian", [1.0], [0.3]),
                 Component("gaussian", [2.2], [-0.2]))
    prob = BoostingProblem(target, "gaussian", rng=np.random.default_rng(0), n_samples=40_000, ls_draws=ls_draws,
                           lmo=sequence_lmo([c0, c1, s]))
    active = ActiveSet()
    for gamma in (1.0, 0.3):                                   # q = 0.7 c0 + 0.3 c1
        sid, _ = prob.lmo(active)
        prob.move(active, "fw", sid, None, gamma)
        active.fw_update(sid, gamma)
        prob.objective(active)
    sid, _ = prob.lmo(active)
    d = prob.direction(active, "fw", sid, None)
    q0 = Mixture(c0.family, np.array([[-0.5], [1.0]]), np.array([[0.1], [0.3]]), np.array([0.7, 0.3]))
    for gamma in (0.1, 0.5):
        h = 1e-4
        fd = (kl_quad(target, q0.add(s, gamma + h)) - kl_quad(target, q0.add(s, gamma - h))) / (2 * h)
        first, again = d.dphi(gamma), d.dphi(gamma)
        assert (again == first) == (ls_draws == "fixed")      # fresh draws: another estimate at every call
        for value in (first, again):
            assert value == pytest.approx(fd, abs=0.05 * max(1.0, abs(fd)))
    before = prob.n_logp
    d2 = prob.direction(active, "fw", sid, None)
    calls = 3
    for _ in range(calls):
        d2.dphi(0.2)
    assert prob.n_logp - before == 2 * 40_000 * (calls if ls_draws == "authors" else 1)
    iteration = BoostingProblem(target, "gaussian", rng=np.random.default_rng(0), n_samples=100,
                                lmo=sequence_lmo([c0, s]))
    assert iteration.ls_draws == "iteration"


def test_authors_estimates_need_the_sides_draws_and_common_trials_need_them_fixed():
    """estimates='authors' takes the derivative on the sides' draws (not the iteration's); its trials on common draws
    (reuse_samples=True) are the step's fixed draws: each refusal names the argument."""
    target = GaussianMixtureTarget([[-1.0], [2.0]], [[1.0], [0.7]], [0.4, 0.6])
    with pytest.raises(ValueError, match="ls_draws='authors' or 'fixed'; got ls_draws='iteration'"):
        BoostingProblem(target, "gaussian", rng=np.random.default_rng(0), estimates="authors", reuse_samples=False)
    with pytest.raises(ValueError, match="reuse_samples=True with estimates='authors'.*ls_draws='fixed'"):
        BoostingProblem(target, "gaussian", rng=np.random.default_rng(0), estimates="authors", ls_draws="authors",
                        reuse_samples=True)


class SlowTarget:
    """A target whose log density burns ``burn`` CPU seconds per call (to see where a rule's estimates are timed)."""

    def __init__(self, target, burn):
        self.target, self.burn = target, burn
        self.dim, self.log_normalizer = target.dim, target.log_normalizer

    def log_density(self, x):
        import time
        t = time.process_time()
        while time.process_time() - t < self.burn:
            pass
        return self.target.log_density(x)

    def grad_log_density(self, x):
        return self.target.grad_log_density(x)


@pytest.mark.parametrize("method", ["predefined", "line_search", "adafw"])
def test_every_rule_is_charged_the_gap_estimates_and_the_greedy_step_is_timed_apart(method):
    """Each of the authors' rules estimates the Frank-Wolfe gap inside its timed call: every rule's ``time_step`` holds
    the estimates at s and at q_t (two log-density calls here), the greedy step's time none of them."""
    burn = 0.02
    target = SlowTarget(GaussianMixtureTarget([[-1.0], [2.0]], [[1.0], [0.7]], [0.4, 0.6]), burn)
    comps = [Component("gaussian", [m], [0.0]) for m in (-0.5, 2.2, 0.5, 1.5)]     # a new component at every step
    res = boost(target, method, rng=np.random.default_rng(0), max_iter=3, family="gaussian", n_samples=50,
                lmo=sequence_lmo(comps), **step_settings(method, {"C0": 1.0}, strict=False))
    rec = res.record
    assert (rec.time_step.iloc[1:] >= 2 * burn * 0.9).all()
    assert (rec.time_greedy < burn * 0.5).all()
    assert (rec.work_step.iloc[1:] >= 2 * 50).all() and rec.work_step.iloc[0] == 0


@pytest.mark.parametrize("method", ["line_search", "adafw", "adaafw"])
def test_fresh_line_search_draws_cost_log_p_at_every_call_and_are_timed(method):
    """ls_draws='authors' (fresh draws at every derivative call, as the authors' graph) against 'fixed' (the step's
    draws once): the line search's work is 2 x 50 evaluations of log p per call against 2 x 50 per step, over the gap's
    estimates (2 x 50) both ways, and the time shows it; the adaptive rules (C_-1 given: no derivative) take the same
    draws, iterates and work either way."""
    burn = 0.01
    target = SlowTarget(GaussianMixtureTarget([[-1.0], [2.0]], [[1.0], [0.7]], [0.4, 0.6]), burn)
    comps = [Component("gaussian", [m], [0.0]) for m in (-0.5, 2.2, 0.5, 1.5)]
    kw = dict(rng=None, max_iter=3, family="gaussian", n_samples=50, lmo=sequence_lmo(comps), estimates="authors",
              reuse_samples=False, **step_settings(method, {"C0": 1.0, "ls_iter": 3, "ls_lr": 1e-3}, strict=False))
    runs = {d: boost(target, method, **{**kw, "rng": np.random.default_rng(0)}, ls_draws=d).record for d in ("authors", "fixed")}
    fresh, fixed = runs["authors"], runs["fixed"]
    if method == "line_search":
        assert (fresh.n_tries.iloc[1:] >= 2).all()
        np.testing.assert_array_equal(fresh.work_step.iloc[1:], 100 + 100 * fresh.n_tries.iloc[1:])
        np.testing.assert_array_equal(fixed.work_step.iloc[1:], 100 + 100)
        extra = fresh.time_step.iloc[1:].to_numpy() - fixed.time_step.iloc[1:].to_numpy()
        assert (extra >= (fresh.n_tries.iloc[1:].to_numpy() - 1) * burn * 0.8).all()
    else:
        for col in ("objective", "gamma", "C", "n_components", "work_step"):
            np.testing.assert_array_equal(fresh[col].to_numpy(), fixed[col].to_numpy())


def test_work_count_is_the_draws_of_every_estimate():
    """work_step counts log p evaluations: the predefined step with the authors' estimates makes two (at s and at
    q_t, n_samples each), a backtracking rule n_samples more per trial on fresh draws of q + γ d."""
    target = GaussianMixtureTarget([[-1.0], [2.0]], [[1.0], [0.7]], [0.4, 0.6])
    comps = [Component("gaussian", [m], [0.0]) for m in (-0.5, 2.2, 0.5, 1.5)]
    kw = dict(max_iter=3, family="gaussian", n_samples=30, lmo=sequence_lmo(comps), ls_draws="authors",
              estimates="authors", reuse_samples=False)
    pre = boost(target, "predefined", rng=np.random.default_rng(0), **kw).record
    np.testing.assert_array_equal(pre.work_step.iloc[1:], 2 * 30)
    ada = boost(target, "adafw", rng=np.random.default_rng(0), C0=1.0, **kw).record
    trials = ada.work_step.iloc[1:] - 2 * 30                   # a gap <= 0 takes the fixed step with no trial
    assert (trials % 30 == 0).all() and (trials >= 0).all() and trials.max() >= 30


def test_authors_line_search_applies_the_step_of_its_last_derivative_call():
    """Their line_search_dkl (blr_step_size.py, f600232..7768b4f) builds the weights it returns at the top of each pass,
    before the pass's update: the step applied is the γ of the last derivative call. By hand, t = 1 (γ0 = 2/3), lr = 1:
    φ' = +3 above 1/2, −3 below: 2/3 − 3 → 0; 0 + 3/2 → 1; 1 − 3/3 → 0. Ours applies 0 (three updates), theirs the γ of
    the third call, 1; the work is the same three calls. At the tolerance stop they agree within tol."""
    from inferopt.boosting.boost import AuthorsLineSearch, make_step
    from inferopt.fw.steps import Line, StochasticLineSearch
    swing = Line(t=1, slope=-1.0, f0=0.0, gamma_max=1.0, dphi=lambda g: 3.0 if g > 0.5 else -3.0)
    ours, theirs = StochasticLineSearch(max_iter=3, lr=1.0), AuthorsLineSearch(max_iter=3, lr=1.0)
    assert (ours(swing).gamma, ours(swing).n_evals) == (0.0, 3)
    assert (theirs(swing).gamma, theirs(swing).n_evals) == (1.0, 3)
    assert AuthorsLineSearch(max_iter=2, lr=1.0)(swing).gamma == 0.0          # two passes: the γ of the second call
    # φ'(γ) = 4 (γ − 1/4), lr = 1/4: the first update lands on 1/4, the second moves it by 0 < tol: both stop there
    quad = Line(t=1, slope=-1.0, f0=0.0, gamma_max=1.0, dphi=lambda g: 4.0 * (g - 0.25))
    a, b = StochasticLineSearch(max_iter=25, lr=0.25)(quad), AuthorsLineSearch(max_iter=25, lr=0.25)(quad)
    assert a.n_evals == b.n_evals == 2 and a.gamma == pytest.approx(0.25) and b.gamma == pytest.approx(0.25)
    assert isinstance(make_step("line_search", ls_returns="last_call")[1], AuthorsLineSearch)
    assert type(make_step("line_search")[1]) is StochasticLineSearch
    with pytest.raises(ValueError, match="ls_returns"):
        make_step("line_search", ls_returns="first_clip")
    with pytest.raises(ValueError, match="ls_returns"):
        make_step("adafw", ls_returns="last_call")                             # a setting adafw does not use


def _authors_adaptive_fw(gap, l_prev, d, f_t, phi, *, eta, tau, maxiter, k, min_gamma=0.01):
    """The authors' adaptive_fw loop (ratschlab/adaptive-stepsize-boosting-bbvi 7768b4f, optim/blr_step_size.py lines
    139-205), transcribed: the fixed step 2/(k+2) on a negative gap; L_t = tau^i * eta * L_prev, gamma = min(gap / (L_t d),
    1), accepted where f(gamma) <= f_t - gamma gap + gamma^2 L_t d / 2; on failure tau^i grows, the loop running while the
    gamma just tried is at least MIN_GAMMA and i < adafw_MAXITER; else the fixed step, L_prev kept (their script keeps
    the estimate only after an 'adaptive' step). Returns (step type, gamma, next L, trials, the gammas tried)."""
    if gap < 0:
        return "fixed", 2.0 / (k + 2.0), l_prev, 0, []
    gamma, pow_tau, i, tried = 2.0 / (k + 2.0), 1.0, 0, []
    while gamma >= min_gamma and i < maxiter:
        l_t = pow_tau * eta * l_prev
        gamma = min(gap / (l_t * d), 1.0)
        tried.append(gamma)
        if phi(gamma) <= f_t - gamma * gap + gamma * gamma * l_t * d / 2.0:
            return "adaptive", gamma, l_t, i + 1, tried
        pow_tau *= tau
        i += 1
    return "fixed", 2.0 / (k + 2.0), l_prev, i, tried


@pytest.mark.parametrize("gap, l_prev, d, curvature, eta, tau", [
    (570.0, 1.0, 1.0, None, 0.01, 2.0),          # our AdaFW on phishing: gaps of hundreds of nats, every trial gamma = 1
    (1.0, 1.0, 1.0, 2.0, 0.01, 2.0),             # a gap and curvature it can reach: accepted at the ninth trial
    (3.0, 1.0, 50.0, 0.2, 0.1, 5.0),             # AdaAFW's settings, a distance factor: accepted at the second trial
    (3.0, 0.01, 5e4, 1e3, 0.99, 1.01),           # AdaPFW's settings: gamma below MIN_GAMMA, the search ends after one
    (-1.0, 1.0, 1.0, 1.0, 0.01, 2.0),            # a negative gap: the fixed step, no trial
])
def test_backtracking_is_the_authors_adaptive_fw_loop(gap, l_prev, d, curvature, eta, tau):
    """Session 40's review asked whether our AdaFW's fallback at every step of the main rows (400 of 400 at the paper scale)
    is a bug: our Backtracking with the authors' switches (no slack, IMAX 10, MIN_GAMMA 0.01, the fixed step on a negative
    gap, the estimate kept after a fallback) takes their loop's trials, step and next estimate on the same line (an
    independent transcription of their code): the fallback is their algorithm at their settings, whose L our rule
    uses without their distance factor d."""
    from inferopt.fw.steps import Backtracking, Line
    k, f_t = 3, 10.0
    phi = (lambda g: np.inf) if curvature is None else (lambda g: f_t - g * gap + 0.5 * g * g * curvature * d)
    seen = []
    line = Line(t=k, slope=-gap, f0=f_t, gamma_max=1.0, d_sqnorm=d, phi=lambda g: seen.append(g) or phi(g))
    rule = Backtracking(l_prev, eta=eta, tau=tau, slack=0.0, max_tries=10, min_gamma=0.01, on_ascent="fallback",
                        fallback_C="previous")
    out = rule(line)
    kind, gamma, l_next, trials, tried = _authors_adaptive_fw(gap, l_prev, d, f_t, phi, eta=eta, tau=tau, maxiter=10, k=k)
    assert {"adaptive": "accepted", "fixed": "fallback"}[kind] == out.status
    assert out.gamma == pytest.approx(gamma) and out.n_evals == trials and seen == pytest.approx(tried)
    assert rule.C == pytest.approx(l_next)                                   # the estimate the next step starts from
    if curvature is None:
        assert tried == [1.0] * 10 and l_prev * eta * tau**9 == pytest.approx(5.12)   # 5.12 < 570: gamma = 1 throughout
    assert trials == {None: 10, 2.0: 9, 0.2: 2, 1e3: 1, 1.0: 0}[curvature]        # each branch of their loop is met
