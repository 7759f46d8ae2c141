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
  ``eps_t`` and a fallback to a predefined step after ``max_tries`` failures.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

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
    """

    t: int
    slope: float
    f0: float
    gamma_max: float
    d_sqnorm: float = 1.0
    curvature: float | None = None
    phi: Callable[[float], float] | None = None


@dataclass(frozen=True)
class StepOutcome:
    """The step taken and how: ``status`` in {'fixed', 'exact', 'accepted', 'fallback'};
    ``C`` the curvature estimate (NaN for rules without one); ``n_evals`` calls of ``phi``."""

    gamma: float
    status: str
    C: float = math.nan
    n_evals: int = 0


class StepRule:
    """Base class: ``rule(line) -> StepOutcome``; ``reset()`` at the start of a run."""

    def reset(self) -> None:
        """Forget the state of a previous run (stateless rules: nothing to do)."""

    def __call__(self, line: Line) -> StepOutcome:  # pragma: no cover - interface
        raise NotImplementedError


FIXED_RULES = {"1/(t+1)": lambda t: 1.0 / (t + 1), "2/(t+2)": lambda t: 2.0 / (t + 2)}


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

    otherwise ``C <- tau * C`` (``tau > 1``).  After ``max_tries`` failed tries the step
    falls back to the ``fallback`` rule (a predefined step, default ``2/(t+2)``), keeping the
    grown ``C``.  ``slack`` is a constant ``>= 0`` or a callable ``t -> eps_t`` (e.g.
    ``lambda t: 2 * eps0 / t**2`` for Eq. 11 of Dresdner et al. with ``eps_t = eps0/t^2``;
    0 gives the exact condition of Pedregosa et al.).  ``phi`` may return a Monte-Carlo
    estimate.  The outcome records ``C`` and whether the step was 'accepted' or 'fallback'.
    """

    def __init__(self, C0: float = 1.0, *, eta: float = 0.9, tau: float = 2.0,
                 slack: float | Callable[[int], float] = 0.0, max_tries: int = 60,
                 fallback: str | StepRule = "2/(t+2)") -> None:
        self.C0 = check_real("C0", C0, low=0.0, low_open=True)
        self.eta = check_real("eta", eta, low=0.0, high=1.0, low_open=True)
        self.tau = check_real("tau", tau, low=1.0, low_open=True)
        if not callable(slack):
            check_real("slack", slack, low=0.0)
        self.slack = slack
        self.max_tries = check_int("max_tries", max_tries, low=1)
        self.fallback = make_step_rule(fallback)
        if isinstance(self.fallback, Backtracking):
            raise ValueError("fallback must be a rule that needs no backtracking (e.g. '2/(t+2)')")
        self.C = self.C0

    def reset(self) -> None:
        self.C = self.C0
        self.fallback.reset()

    def _slack(self, t: int) -> float:
        if not callable(self.slack):
            return float(self.slack)
        eps = float(self.slack(t))
        if not (math.isfinite(eps) and eps >= 0):
            raise ValueError(f"slack(t) must return a finite value >= 0; got {eps} at t={t}")
        return eps

    def __call__(self, line: Line) -> StepOutcome:
        if line.phi is None:
            raise ValueError("step 'backtracking' needs Line.phi, the objective along d")
        if line.slope >= 0.0:
            return StepOutcome(0.0, "accepted", self.C, 0)
        eps = self._slack(line.t)
        C = self.eta * self.C
        for tries in range(1, self.max_tries + 1):
            gamma = min(-line.slope / (C * line.d_sqnorm), line.gamma_max) if line.d_sqnorm > 0 else line.gamma_max
            bound = line.f0 + gamma * line.slope + 0.5 * gamma**2 * C * line.d_sqnorm + eps
            if line.phi(gamma) <= bound:
                self.C = C
                return StepOutcome(gamma, "accepted", C, tries)
            C *= self.tau
        self.C = C
        return StepOutcome(self.fallback(line).gamma, "fallback", C, self.max_tries)


STEP_NAMES = (*FIXED_RULES, "line_search", "backtracking")


def make_step_rule(step: str | StepRule) -> StepRule:
    """A :class:`StepRule` from a name in ``STEP_NAMES`` (or the rule itself, reset)."""
    if isinstance(step, StepRule):
        step.reset()
        return step
    if not isinstance(step, str):
        raise ValueError(f"step must be a StepRule or one of {sorted(STEP_NAMES)}; got {step!r}")
    check_choice("step", step, STEP_NAMES)
    if step in FIXED_RULES:
        return FixedStep(step)
    return ExactLineSearch() if step == "line_search" else Backtracking()
