"""Step-size rules of conditional-gradient methods.

A rule is called once per iteration with a :class:`Line`, the restriction of the
objective to the segment ``x + gamma d``, ``0 <= gamma <= gamma_max``, and returns a
:class:`StepOutcome`.  Rules:

* :class:`FixedStep` -- the predefined ``1/(t+1)`` (herding, Bach et al. 2012, Eq. 4)
  or ``2/(t+2)`` (Jaggi 2013; Locatello et al. 2018, Eq. 5 of Dresdner et al. 2021);
* :class:`ExactLineSearch` -- exact minimiser for a quadratic objective,
  ``gamma = min(-<grad, d> / (d' H d), gamma_max)`` (Bach et al. 2012, Sec. 4);
* :class:`Backtracking` -- backtracking on the curvature constant ``C`` (Pedregosa,
  Negiar, Askari & Jaggi, AISTATS 2020, Alg. 1-2), in the approximate form of
  Dresdner et al. 2021 (Alg. 2, Eq. 11): Monte-Carlo objectives with a slack
  ``eps_t`` and a fallback to a predefined step after ``max_tries`` failures;
* :class:`StochasticLineSearch` -- projected (stochastic) gradient descent on ``gamma``
  from the derivative ``phi'(gamma)``, the line search of the boosting-VI authors' code
  (Locatello et al. 2018; Dresdner et al. 2021, Sec. 6.1).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from .._validation import check_choice, check_int, check_real


@dataclass(frozen=True)
class Line:
    """The objective along the step direction ``d`` at iteration ``t`` (``t >= 1``).

    slope : ``<grad f(x), d>`` (negative for a descent direction).
    f0 : ``f(x)`` (or its estimate).
    gamma_max : largest feasible step (1 for FW, ``alpha_v/(1-alpha_v)`` away, ``alpha_v`` pairwise).
    d_sqnorm : ``||d||^2`` in the norm of the quadratic model (1.0 if the problem has none).
    curvature : ``d' Hess f d`` when the objective is quadratic along ``d``, else ``None``.
    phi : ``gamma -> f(x + gamma d)`` (exact or a Monte-Carlo estimate), or ``None``.
    dphi : ``gamma -> <grad f(x + gamma d), d>`` (exact or an estimate), or ``None``.
    f_test : ``() -> f(x)``, an estimate the problem takes apart from ``f0`` for a sufficient-decrease test (called
        once, when a backtracking rule first tests; the boosting-VI authors' ``f_t``), or ``None``: the test uses ``f0``.
    """

    t: int
    slope: float
    f0: float
    gamma_max: float
    d_sqnorm: float = 1.0
    curvature: float | None = None
    phi: Callable[[float], float] | None = None
    dphi: Callable[[float], float] | None = None
    f_test: Callable[[], float] | None = None


@dataclass(frozen=True)
class StepOutcome:
    """The step taken and how: ``status`` in {'fixed', 'exact', 'accepted', 'fallback', 'searched', 'abort'};
    ``C`` the curvature estimate (NaN for rules without one); ``n_evals`` calls of ``phi``
    (or ``dphi``).  A backtracking step also returns the test it made last: ``value`` =
    ``phi(gamma)`` and ``bound`` = the right-hand side it was compared with (NaN otherwise).
    ``direction = 'fw'`` takes the step along the Frank-Wolfe direction ``v_s − x`` (``gamma_max = 1``)
    whatever direction the line was (a fallback of the boosting-VI authors' code); ``None``: the line's.
    ``status = 'abort'`` ends the run before the step (a step size that is not a number, as the
    authors' code meets it: their run stops with an error)."""

    gamma: float
    status: str
    C: float = math.nan
    n_evals: int = 0
    value: float = math.nan
    bound: float = math.nan
    direction: str | None = None


class StepRule:
    """Base class: ``rule(line) -> StepOutcome``; ``reset()`` at the start of a run."""

    def reset(self) -> None:
        """Forget the state of a previous run (stateless rules: nothing to do)."""

    def __call__(self, line: Line) -> StepOutcome:  # pragma: no cover - interface
        raise NotImplementedError


FIXED_RULES = {"1/(t+1)": lambda t: 1.0 / (t + 1), "2/(t+2)": lambda t: 2.0 / (t + 2)}
#: where :class:`Backtracking`'s fallback step goes: along the line, or a Frank-Wolfe step
FALLBACK_DIRECTIONS = ("line", "fw")


class FixedStep(StepRule):
    """Predefined step ``gamma_t = 1/(t+1)`` or ``2/(t+2)``, clipped to ``gamma_max``.

    Iterations are counted from ``t = 1`` (the first atom is ``x_1``), so ``1/(t+1)``
    gives every visited point the weight ``1/n`` after ``n`` points: herding.
    """

    def __init__(self, rule: str = "1/(t+1)") -> None:
        check_choice("rule", rule, FIXED_RULES)
        self._gamma = FIXED_RULES[rule]

    def __call__(self, line: Line) -> StepOutcome:
        return StepOutcome(min(self._gamma(line.t), line.gamma_max), "fixed")


class ZeroStep(StepRule):
    """No step (``gamma = 0``): the fallback of the boosting-VI authors' toy script (Fig. 1 left of Dresdner
    et al. 2021; their ``adaptive_fw`` returns ``γ = 0`` when its search fails or the gap is negative)."""

    def __call__(self, line: Line) -> StepOutcome:
        return StepOutcome(0.0, "fixed")


class ExactLineSearch(StepRule):
    """``gamma = clip(-slope / curvature, 0, gamma_max)``: exact for quadratic objectives."""

    def __call__(self, line: Line) -> StepOutcome:
        if line.curvature is None:
            raise ValueError("step 'line_search' needs a problem that is quadratic along d (Line.curvature); "
                             "use Backtracking for other objectives")
        if line.curvature <= 0.0:
            gamma = line.gamma_max if line.slope < 0 else 0.0
        else:
            gamma = min(max(-line.slope / line.curvature, 0.0), line.gamma_max)
        return StepOutcome(gamma, "exact")


class Backtracking(StepRule):
    """Backtracking on the curvature constant ``C`` (Pedregosa et al. 2020; Dresdner et al. 2021, Alg. 2).

    At each step ``C <- eta * C`` (``0 < eta <= 1``), then repeatedly
    ``gamma = min(-slope / (C ||d||^2), gamma_max)`` and accept if the (approximate)
    sufficient-decrease condition holds::

        phi(gamma) <= f0 + gamma * slope + gamma^2 * C * ||d||^2 / 2 + slack_t

    (``f0``: the line's, or ``Line.f_test()`` where the problem estimates it apart for the test)

    otherwise ``C <- tau * C`` (``tau > 1``).  ``C0 = None`` estimates the initial constant at
    the first step by a finite difference of the directional derivative,
    ``C = |phi'(delta) - phi'(0)| / (delta ||d||^2)`` with ``delta = 1e-3`` (the initial
    Lipschitz estimate of Pedregosa et al. 2020, Sec. 4; needs ``Line.dphi``).  After ``max_tries`` failed tries the step
    falls back to the ``fallback`` rule (a predefined step, default ``2/(t+2)``), keeping the
    grown ``C``. Two departures of the boosting-VI authors' code (Dresdner et al. 2021,
    ``blr_step_size.adaptive_fw``) from their Alg. 2 are switches: ``min_gamma`` (their
    ``MIN_GAMMA = 0.01``: a failed try at ``gamma < min_gamma`` ends the search with the
    fallback; 0 never) and ``on_ascent`` (``'zero'``: no step when ``slope >= 0``;
    ``'fallback'``: the fallback step, as their code does when the gap is negative), and
    ``fallback_C`` (``'grown'``: after a fallback the next step starts from the grown ``C``, as
    Alg. 2 line 7 returns it; ``'previous'``: from the ``C`` before this step's backtracking, as
    their code keeps its Lipschitz estimate unless the adaptive step succeeded), and ``fallback_direction``
    (``'line'``: the fallback step moves along the line's direction; ``'fw'``: it is a Frank-Wolfe step
    adding the new atom with the fallback's weight, ``2/(t+2)``, as the authors' ``fixed(...)`` does for
    every variant, away and pairwise included).  ``Line.d_sqnorm`` is the squared norm of ``d`` in which
    ``C`` is measured (the authors' ``d = ∫(s − q)²``, :mod:`inferopt.boosting.distance`); a NaN norm (their
    float32 arithmetic) aborts the run (status ``'abort'``), an infinite one gives ``gamma = 0`` and a
    test that cannot pass (``0 · inf``), hence the fallback.  ``slack`` is a constant ``>= 0`` or a callable ``t -> eps_t`` (e.g.
    ``lambda t: 2 * eps0 / t**2`` for Eq. 11 of Dresdner et al. with ``eps_t = eps0/t^2``;
    0 gives the exact condition of Pedregosa et al.).  ``phi`` may return a Monte-Carlo
    estimate.  The outcome records ``C`` and whether the step was 'accepted' or 'fallback'.
    """

    def __init__(self, C0: float | None = 1.0, *, eta: float = 0.9, tau: float = 2.0,
                 slack: float | Callable[[int], float] = 0.0, max_tries: int = 60,
                 fallback: str | StepRule = "2/(t+2)", min_gamma: float = 0.0, on_ascent: str = "zero",
                 fallback_C: str = "grown", fallback_direction: str = "line") -> None:
        self.C0 = None if C0 is None else check_real("C0", C0, low=0.0, low_open=True)
        self.eta = check_real("eta", eta, low=0.0, high=1.0, low_open=True)
        self.tau = check_real("tau", tau, low=1.0, low_open=True)
        if not callable(slack):
            check_real("slack", slack, low=0.0)
        self.slack = slack
        self.max_tries = check_int("max_tries", max_tries, low=1)
        self.fallback = make_step_rule(fallback, "fallback")
        if isinstance(self.fallback, Backtracking):
            raise ValueError("fallback must be a rule that needs no backtracking (e.g. '2/(t+2)')")
        self.min_gamma = check_real("min_gamma", min_gamma, low=0.0, high=1.0, high_open=True)
        self.on_ascent = check_choice("on_ascent", on_ascent, ("zero", "fallback"))
        self.fallback_C = check_choice("fallback_C", fallback_C, ("grown", "previous"))
        self.fallback_direction = check_choice("fallback_direction", fallback_direction, FALLBACK_DIRECTIONS)
        self.C = self.C0

    def reset(self) -> None:
        self.C = self.C0
        self.fallback.reset()

    def _initial_C(self, line: Line, delta: float = 1e-3) -> float:
        """``|phi'(delta) - phi'(0)| / (delta ||d||^2)``; ``-slope / ||d||^2`` (a first try at
        ``gamma = 1``) if that is not a positive number."""
        if line.dphi is None:
            raise ValueError("Backtracking with C0=None needs Line.dphi to estimate the initial curvature")
        dd = line.d_sqnorm if line.d_sqnorm > 0 else 1.0
        C = abs(float(line.dphi(delta)) - float(line.dphi(0.0))) / (delta * dd)
        return C if math.isfinite(C) and C > 0 else -line.slope / dd

    def _slack(self, t: int) -> float:
        if not callable(self.slack):
            return float(self.slack)
        eps = float(self.slack(t))
        if not (math.isfinite(eps) and eps >= 0):
            raise ValueError(f"slack(t) must return a finite value >= 0; got {eps} at t={t}")
        return eps

    def _fall_back(self, line: Line, C: float, tries: int, value: float = math.nan,
                   bound: float = math.nan) -> StepOutcome:
        """The fallback step: along the line (clipped to its ``gamma_max``), or a Frank-Wolfe step."""
        if self.fallback_direction == "fw":
            return StepOutcome(self.fallback(replace(line, gamma_max=1.0)).gamma, "fallback", C, tries, value, bound,
                               direction="fw")
        return StepOutcome(self.fallback(line).gamma, "fallback", C, tries, value, bound)

    def __call__(self, line: Line) -> StepOutcome:
        if line.phi is None:
            raise ValueError("step 'backtracking' needs Line.phi, the objective along d")
        if line.slope >= 0.0:
            C = math.nan if self.C is None else self.C
            if self.on_ascent == "fallback":
                return self._fall_back(line, C, 0)
            return StepOutcome(0.0, "accepted", C, 0)
        if math.isnan(line.d_sqnorm):
            return StepOutcome(math.nan, "abort", math.nan if self.C is None else self.C, 0)
        eps = self._slack(line.t)
        previous = self.C
        C = self.eta * self.C if self.C is not None else self._initial_C(line)
        f0 = line.f0 if line.f_test is None else float(line.f_test())
        for tries in range(1, self.max_tries + 1):
            gamma = min(-line.slope / (C * line.d_sqnorm), line.gamma_max) if line.d_sqnorm > 0 else line.gamma_max
            bound = f0 + gamma * line.slope + 0.5 * gamma**2 * C * line.d_sqnorm + eps
            value = line.phi(gamma)
            if value <= bound:
                self.C = C
                return StepOutcome(gamma, "accepted", C, tries, value, bound)
            C *= self.tau
            if gamma < self.min_gamma:
                break
        self.C = C if self.fallback_C == "grown" or previous is None else previous
        return self._fall_back(line, C, tries, value, bound)


class StochasticLineSearch(StepRule):
    """Projected gradient descent on ``gamma`` with decreasing steps (the boosting-VI line search).

    From ``gamma_0 = init(t)`` (default the predefined ``2/(t+2)``), ``max_iter`` updates
    ``gamma <- proj_[0, gamma_max](gamma - lr / (i + 1) * phi'(gamma))``, ``i = 0, 1, ...``,
    stopping early when an update changes ``gamma`` by less than ``tol``. This is the rule of
    Locatello et al. (2018a)'s and Dresdner et al. (2021)'s code (``line_search_dkl``:
    ``n_iter = 10``, ``lr = 0.1``, ``tol = 1e-6``), where ``phi'`` is a Monte-Carlo estimate with
    samples fixed during the search. A projected ``gamma`` stays in the search: from 0 or 1
    the next derivative can send it to the other end, so with a large ``|phi'|`` the step
    oscillates between 0 and 1 and ends at either (Dresdner et al., Sec. 6.1).
    """

    def __init__(self, max_iter: int = 10, lr: float = 0.1, init: str | StepRule = "2/(t+2)", tol: float = 1e-6) -> None:
        self.max_iter = check_int("max_iter", max_iter, low=1)
        self.lr = check_real("lr", lr, low=0.0, low_open=True)
        self.init = make_step_rule(init, "init")
        self.tol = check_real("tol", tol, low=0.0)

    def reset(self) -> None:
        self.init.reset()

    def __call__(self, line: Line) -> StepOutcome:
        if line.dphi is None:
            raise ValueError("step 'stochastic_line_search' needs Line.dphi, the derivative of the objective along d")
        gamma = min(max(self.init(line).gamma, 0.0), line.gamma_max)
        for i in range(self.max_iter):
            new = min(max(gamma - self.lr / (i + 1) * float(line.dphi(gamma)), 0.0), line.gamma_max)
            if abs(new - gamma) < self.tol:
                return StepOutcome(new, "searched", n_evals=i + 1)
            gamma = new
        return StepOutcome(gamma, "searched", n_evals=self.max_iter)


class FunctionStep(StepRule):
    """A stateless rule given as a function ``rule(line) -> StepOutcome`` (or a bare step size,
    taken with status ``'fixed'``); the returned step must lie in ``[0, line.gamma_max]``."""

    def __init__(self, rule: Callable[[Line], StepOutcome | float], name: str = "rule") -> None:
        if not callable(rule):
            raise TypeError(f"{name} must be callable as rule(line); got {type(rule).__name__}")
        self.rule, self.name = rule, name

    def __call__(self, line: Line) -> StepOutcome:
        out = self.rule(line)
        if not isinstance(out, StepOutcome):
            out = StepOutcome(check_real(f"the step of {self.name}", out), "fixed")
        if not 0.0 <= out.gamma <= line.gamma_max:
            raise ValueError(f"{self.name} returned the step {out.gamma!r} outside [0, gamma_max = {line.gamma_max}]")
        return out


class StepRegistry:
    """Step rules added by name to a package's list of rule names (``names``, extended in place),
    beside its built-in ones: boosting's :data:`~inferopt.boosting.boost.STEPS`, herding's
    :data:`~inferopt.herding.herding.HERDING_STEPS`. A rule is a :class:`StepRule` or a function
    ``rule(line)`` (:class:`FunctionStep`)."""

    def __init__(self, names: list, what: str) -> None:
        self.names, self.builtin, self.what = names, tuple(names), what
        self.rules: dict[str, StepRule] = {}
        self._given: dict[str, object] = {}

    def check(self, name: str, rule) -> None:
        """What :meth:`add` requires, without adding: a non-empty name, not built in, not taken by
        another rule."""
        if not isinstance(name, str) or not name:
            raise TypeError(f"name must be a non-empty string; got {name!r}")
        if name in self.builtin or (name in self._given and self._given[name] is not rule):
            raise ValueError(f"a {self.what} named {name!r} exists already; choose another name")

    def add(self, name: str, rule) -> None:
        """Add ``rule`` as ``name``; the same rule under its name again does nothing, a taken name
        is a ``ValueError``."""
        self.check(name, rule)
        if name not in self.rules:
            self.rules[name] = rule if isinstance(rule, StepRule) else FunctionStep(rule, name=f"{self.what} {name!r}")
            self._given[name] = rule
            self.names.append(name)


STEP_NAMES = (*FIXED_RULES, "line_search", "backtracking", "stochastic_line_search")


def make_step_rule(step: str | StepRule, name: str = "step") -> StepRule:
    """A :class:`StepRule` from a name in ``STEP_NAMES`` (or the rule itself, reset); the
    named rules use their default settings. ``name``: the argument's name in error messages."""
    if isinstance(step, StepRule):
        step.reset()
        return step
    if not isinstance(step, str):
        raise ValueError(f"{name} must be a StepRule or one of {sorted(STEP_NAMES)}; got {step!r}")
    check_choice(name, step, STEP_NAMES)
    if step in FIXED_RULES:
        return FixedStep(step)
    if step == "line_search":
        return ExactLineSearch()
    return Backtracking() if step == "backtracking" else StochasticLineSearch()
