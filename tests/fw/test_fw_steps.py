"""Step rules: backtracking's sufficient decrease on accepted steps, its C schedule, slack and
fallback, and the FWProblem protocol on a non-quadratic objective (the boosting-VI use)."""

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.special import logsumexp, softmax

from inferopt.fw import Backtracking, Direction, ExactLineSearch, FixedStep, Line, frank_wolfe

from test_fw_polytope import CheckedHull, polytope


class RecordingBacktracking(Backtracking):
    def reset(self):
        super().reset()
        self.calls = []

    def __call__(self, line):
        out = super().__call__(line)
        self.calls.append((line, out))
        return out


@pytest.mark.parametrize("variant", ["fw", "away", "pairwise"])
@pytest.mark.parametrize("C0", [1e-3, 1.0, 1e3])
def test_accepted_backtracking_steps_satisfy_sufficient_decrease(variant, C0):
    V, b = polytope(11, interior=False)
    prob = CheckedHull(V, b)
    rule = RecordingBacktracking(C0, eta=0.8, tau=3.0)
    res = frank_wolfe(prob, variant=variant, step=rule, max_iter=150, tol=0.0)
    direct = np.array([f for _, f in prob.seen])         # ||b - V alpha||^2 recomputed from V
    assert len(rule.calls) == res.n_iter
    C_prev = C0
    for t, (line, out) in enumerate(rule.calls):
        assert out.status == "accepted"
        gamma = res.info["gamma"][t]
        model = line.f0 + gamma * line.slope + 0.5 * gamma**2 * out.C * line.d_sqnorm
        assert direct[t + 1] <= model + 1e-12 * max(1.0, abs(model))
        if line.slope >= 0.0:
            # at the optimum to working precision the away vertex can tie with the FW atom (the lowest
            # index wins, inferopt._selection): a direction without descent, no step, C kept
            assert gamma == 0.0 and out.n_evals == 0 and out.C == C_prev
            continue
        # C shrinks by eta at the start of the step and grows by tau per failed try
        np.testing.assert_allclose(out.C, 0.8 * C_prev * 3.0 ** (out.n_evals - 1), rtol=1e-12)
        assert out.C == res.info["C"][t]
        C_prev = out.C
    # with f = ||b - V alpha||^2 the true curvature constant is L = 2: C settles within a factor tau
    assert 2.0 / 3.0 / 0.8 <= np.median(res.info["C"][len(res.info["C"]) // 2:]) <= 2.0 * 3.0


def test_backtracking_falls_back_after_max_tries():
    rule = Backtracking(1.0, eta=1.0, tau=2.0, max_tries=5, fallback="2/(t+2)")
    line = Line(t=3, slope=-1.0, f0=0.0, gamma_max=1.0, d_sqnorm=1.0, phi=lambda g: 1.0)  # never decreases
    out = rule(line)
    assert out.status == "fallback" and out.gamma == pytest.approx(2.0 / 5.0)
    assert out.C == pytest.approx(2.0**5) and out.n_evals == 5
    # the next step starts from the grown constant
    out2 = rule(Line(t=4, slope=-1.0, f0=0.0, gamma_max=1.0, phi=lambda g: -g + 0.5 * g * g))
    assert out2.status == "accepted" and out2.C == pytest.approx(32.0) and out2.gamma == pytest.approx(1 / 32)


def test_backtracking_slack_accepts_noisy_values_within_eps():
    # phi exceeds the exact quadratic (curvature 1) by 0.9 eps_t: accepted at once only with the slack
    eps0 = 1e-2
    phi = lambda g: -g + 0.5 * g * g + 0.9 * eps0 / 4**2  # noqa: E731
    line = Line(t=4, slope=-1.0, f0=0.0, gamma_max=1.0, phi=phi)
    with_slack = Backtracking(1.0, eta=1.0, slack=lambda t: eps0 / t**2)(line)
    without = Backtracking(1.0, eta=1.0)(line)
    assert with_slack.status == "accepted" and with_slack.n_evals == 1 and with_slack.gamma == 1.0
    assert without.n_evals > 1 and without.C > 1.0


def test_fixed_and_exact_rules():
    line = Line(t=3, slope=-2.0, f0=1.0, gamma_max=0.3, curvature=4.0)
    assert FixedStep("1/(t+1)")(line).gamma == pytest.approx(0.25)
    assert FixedStep("2/(t+2)")(line).gamma == pytest.approx(0.3)   # 0.4 clipped to gamma_max
    assert ExactLineSearch()(line).gamma == pytest.approx(0.3)
    assert ExactLineSearch()(Line(t=3, slope=-0.8, f0=1.0, gamma_max=1.0, curvature=4.0)).gamma == pytest.approx(0.2)


class SoftmaxProblem:
    """f(alpha) = logsumexp(A alpha) + 0.5 ||alpha - a0||^2 over the probability simplex (atoms
    e_i), through the FWProblem protocol; ``noise`` adds a bounded perturbation to phi, as a
    Monte-Carlo estimate would."""

    def __init__(self, A, a0, noise=0.0, seed=0):
        self.A, self.a0, self.noise, self.rng = A, a0, noise, np.random.default_rng(seed)

    def f(self, alpha):
        return float(logsumexp(self.A @ alpha) + 0.5 * np.sum((alpha - self.a0) ** 2))

    def grad(self):
        return self.A.T @ softmax(self.A @ self.alpha) + self.alpha - self.a0

    def start(self):
        self.alpha = np.zeros(self.A.shape[1])

    def lmo(self, active):
        g = self.grad()
        return int(np.argmin(g)), float(g.min())

    def grad_active(self, active):
        return self.grad()[active.ids]

    def _d(self, kind, s, v):
        d = -self.alpha.copy() if kind == "fw" else (self.alpha.copy() if kind == "away" else np.zeros_like(self.alpha))
        if s is not None and kind != "away":
            d[s] += 1.0
        if v is not None:
            d[v] -= 1.0
        return d

    def direction(self, active, kind, s, v):
        d = self._d(kind, s, v)
        noisy = lambda g: self.f(self.alpha + g * d) + self.noise * self.rng.uniform(-1, 1)  # noqa: E731
        return Direction(d_sqnorm=float(d @ d), phi=noisy)

    def move(self, active, kind, s, v, gamma):
        self.alpha = self.alpha + gamma * self._d(kind, s, v)

    def objective(self, active):
        return self.f(self.alpha)


@pytest.mark.parametrize("variant", ["fw", "away", "pairwise"])
@pytest.mark.parametrize("noise", [0.0, 1e-6])
def test_generic_problem_with_backtracking_matches_slsqp(variant, noise):
    rng = np.random.default_rng(3)
    n = 8
    A, a0 = rng.normal(size=(5, n)), rng.dirichlet(np.ones(n)) + 0.3 * rng.normal(size=n)
    prob = SoftmaxProblem(A, a0, noise=noise)
    rule = Backtracking(1.0, slack=(lambda t: 2 * noise) if noise else 0.0, max_tries=20)
    res = frank_wolfe(prob, variant=variant, step=rule, max_iter=400, tol=1e-9)
    ref = minimize(prob.f, np.full(n, 1 / n), bounds=[(0, 1)] * n, method="SLSQP",
                   constraints=[{"type": "eq", "fun": lambda a: a.sum() - 1}], options={"ftol": 1e-14})
    np.testing.assert_allclose(res.dense_weights(n), prob.alpha, atol=1e-12)  # active set == problem state
    # noiseless: near-exact; noisy values: down to the noise level (constant slack 2 * noise)
    assert res.objective[-1] - ref.fun < (5 * noise if noise else (1e-6 if variant == "fw" else 1e-8))
    assert np.all(res.info["gap"] >= res.objective - ref.fun - 1e-9)
    assert set(res.info["step_status"]) <= {"accepted", "fallback"}


def test_stochastic_line_search_descends_and_keeps_searching_from_the_boundary():
    from inferopt.fw import StochasticLineSearch
    # phi(g) = (g - 0.3)^2: from 2/(t+2) = 0.5 the projected gradient steps move towards 0.3
    line = Line(t=2, slope=-0.6, f0=0.09, gamma_max=1.0, dphi=lambda g: 2.0 * (g - 0.3))
    out = StochasticLineSearch(max_iter=50, lr=0.4)(line)
    assert out.status == "searched" and abs(out.gamma - 0.3) < 0.02
    # a constant steep derivative: projected to gamma_max, then no change -> stops (|change| < tol)
    steep = Line(t=2, slope=-50.0, f0=0.0, gamma_max=0.7, dphi=lambda g: -50.0)
    out = StochasticLineSearch()(steep)
    assert out.gamma == 0.7 and out.n_evals == 2
    assert StochasticLineSearch()(Line(t=2, slope=5.0, f0=0.0, gamma_max=1.0, dphi=lambda g: 50.0)).gamma == 0.0
    # a derivative whose sign flips at each end (the authors' code keeps searching from the boundary):
    # gamma oscillates between 0 and 1 with the steps lr/(i+1) and ends at one of them
    flip = Line(t=1, slope=-1.0, f0=0.0, gamma_max=1.0, dphi=lambda g: 400.0 if g > 0.5 else -400.0)
    path = []
    rule = StochasticLineSearch(max_iter=10, lr=0.1)
    rule(Line(t=1, slope=-1.0, f0=0.0, gamma_max=1.0, dphi=lambda g: path.append(g) or (400.0 if g > 0.5 else -400.0)))
    assert path[0] == pytest.approx(2 / 3) and set(path[1:]) == {0.0, 1.0} and len(path) == 10
    assert rule(flip).gamma in (0.0, 1.0)
    with pytest.raises(ValueError, match="needs Line.dphi"):
        StochasticLineSearch()(Line(t=1, slope=-1.0, f0=0.0, gamma_max=1.0))
    with pytest.raises(ValueError, match="lr must be > 0"):
        StochasticLineSearch(lr=0.0)


def test_final_gap_false_skips_the_last_lmo_and_times_are_recorded():
    V, b = polytope(5, interior=True)
    calls = []

    class Counting(CheckedHull):
        def lmo(self, active):
            calls.append(1)
            return super().lmo(active)

    res = frank_wolfe(Counting(V, b), variant="pairwise", step="stochastic_line_search", max_iter=7, tol=None,
                      final_gap=False)
    assert len(calls) == 1 + 7 and np.isnan(res.info["gap"][-1]) and len(res.info["gap"]) == len(res.objective)
    assert np.all(np.diff(res.objective) <= 1e-12) or set(res.info["step_status"]) == {"searched"}
    for key in ("time_lmo", "time_step", "slope", "n_evals", "value", "bound"):
        assert len(res.info[key]) == 7
    assert np.all(res.info["time_lmo"] >= 0) and np.all(res.info["time_step"] >= 0)


def test_zero_step_leaves_the_active_set_unchanged():
    from inferopt.fw import ActiveSet
    a = ActiveSet()
    a.fw_update(3, 1.0)
    a.fw_update(5, 0.0)
    a.pairwise_update(7, 3, 0.0, drop=False)
    assert list(a.ids) == [3] and list(a.weights) == [1.0]


def test_backtracking_estimates_the_initial_curvature_by_finite_differences():
    # phi(g) = -g + 2 g^2: phi'' = 4, so the first try is gamma = 1/4, exact minimiser, accepted at once
    line = Line(t=1, slope=-1.0, f0=0.0, gamma_max=1.0, phi=lambda g: -g + 2 * g * g, dphi=lambda g: -1.0 + 4 * g)
    out = Backtracking(None, eta=0.9)(line)
    assert out.status == "accepted" and out.n_evals == 1
    assert out.C == pytest.approx(4.0) and out.gamma == pytest.approx(0.25)
    with pytest.raises(ValueError, match="needs Line.dphi"):
        Backtracking(None)(Line(t=1, slope=-1.0, f0=0.0, gamma_max=1.0, phi=lambda g: 0.0))


def test_backtracking_tests_against_f_test_when_given():
    """A problem's own estimate for the test (``Line.f_test``, the boosting-VI authors' ``f_t``) replaces ``f0`` in
    the sufficient-decrease bound, called once per step; without it the bound rests on ``f0``."""
    calls = []
    f_test = lambda: calls.append(1) or 0.5   # noqa: E731
    line = Line(t=1, slope=-1.0, f0=0.0, gamma_max=1.0, phi=lambda g: -0.2, f_test=f_test)
    out = Backtracking(1.0, eta=1.0, tau=2.0, slack=0.0, max_tries=1)(line)
    assert out.status == "accepted" and out.bound == pytest.approx(0.5 - 1.0 + 0.5) and len(calls) == 1
    out = Backtracking(1.0, eta=1.0, tau=2.0, slack=0.0, max_tries=1)(Line(t=1, slope=-1.0, f0=0.0, gamma_max=1.0,
                                                                           phi=lambda g: -0.2))
    assert out.status == "fallback" and out.bound == pytest.approx(-0.5)
