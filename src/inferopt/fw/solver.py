"""Frank-Wolfe with away and pairwise steps over the convex hull of atoms.

* ``variant='fw'``: classic conditional gradient (Frank & Wolfe 1956; herding is the
  ``1/(t+1)`` rule, Bach et al. 2012, Eqs. 3-4);
* ``variant='away'``: away-step FW (Lacoste-Julien & Jaggi 2015, Alg. 1): if the away
  gap ``<grad, v - x>`` beats the FW gap, step along ``x - v_v`` with
  ``gamma_max = alpha_v / (1 - alpha_v)``;
* ``variant='pairwise'``: pairwise FW (Lacoste-Julien & Jaggi 2015, Alg. 2): step along
  ``v_s - v_v`` with ``gamma_max = alpha_v``.
A step with ``gamma = gamma_max`` is a *drop step*: ``v`` leaves the active set.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._clock import clock
from .._selection import tied_argmax
from .._validation import check_callable, check_choice, check_flag, check_int, check_protocol, check_real
from .active_set import ActiveSet
from .problem import FWProblem
from .result import FWResult
from .steps import Line, StepRule, make_step_rule

VARIANTS = ("fw", "away", "pairwise")


def _choose(variant: str, active: ActiveSet, grad_act: np.ndarray, grad_x: float, s: int, grad_s: float):
    """Direction kind, the away atom, the slope ``<grad, d>`` and ``gamma_max`` of one step."""
    fw_gap = grad_x - grad_s
    if variant == "fw" or len(active) < 2:
        return "fw", None, -fw_gap, 1.0
    j = tied_argmax(grad_act)   # the away vertex; ties up to round-off by position in the active set
    v, alpha_v = int(active.ids[j]), float(active.weights[j])
    if variant == "away":
        away_gap = float(grad_act[j]) - grad_x
        if away_gap > fw_gap:
            # 1 - alpha_v is the other atoms' weight; where alpha_v rounds to 1 beside tiny atoms (a FW step of
            # gamma ~ 1e-20) it reads 0, and is taken from their weights so gamma_max stays finite
            rest = 1.0 - alpha_v
            if rest == 0.0:
                rest = float(np.delete(active.weights, j).sum())
            return "away", v, -away_gap, alpha_v / rest if rest > 0.0 else np.inf
        return "fw", None, -fw_gap, 1.0
    return "pairwise", v, grad_s - float(grad_act[j]), alpha_v


def frank_wolfe(problem: FWProblem, *, variant: str = "fw", step: str | StepRule = "1/(t+1)",
                max_iter: int = 1000, tol: float | None = 1e-12, init: int | None = None,
                callback: Callable[[int, ActiveSet], None] | None = None, final_gap: bool = True) -> FWResult:
    """Minimise ``f`` over the convex hull of the problem's atoms by conditional gradient.

    The run starts at one atom ``x_1`` (``init``, else the LMO at the empty iterate: for
    :class:`~inferopt.fw.QuadraticHull` that is ``rho_0 = 1`` from ``g_0 = 0``, Bach et al.
    2012, Sec. 4) and performs at most ``max_iter`` steps ``t = 1, 2, ...``; it stops early
    when the FW duality gap ``<grad f(x), x - s>`` (an upper bound on ``f(x) - f*`` for
    convex ``f``) is ``<= tol``, or when the step rule aborts (a :class:`~inferopt.fw.steps.StepOutcome` of
    status ``'abort'``: ``message`` says where; ``n_iter`` counts the steps taken). A rule's outcome with
    ``direction='fw'`` turns the step into a Frank-Wolfe step towards ``v_s`` (``gamma_max = 1``).

    Parameters
    ----------
    problem : an object implementing :class:`~inferopt.fw.problem.FWProblem`.
    variant : 'fw', 'away' or 'pairwise'.
    step : a :class:`~inferopt.fw.steps.StepRule` or one of '1/(t+1)', '2/(t+2)',
        'line_search' (exact, quadratic problems), 'backtracking', 'stochastic_line_search'
        (projected gradient descent on ``gamma`` from the problem's ``dphi``).
    max_iter : number of steps (>= 1); at most ``max_iter + 1`` atoms are visited.
    tol : absolute tolerance on the duality gap (>= 0); ``None`` runs all ``max_iter`` steps
        (herding continues even where ``g_t = mu`` exactly).
    init : id of the first atom (optional).
    callback : called as ``callback(t, active)`` at every iterate (``t = 0`` for ``x_1``), e.g. to
        record functionals of the weights; it must not modify ``active``.
    final_gap : call the LMO once more after the last step to report the final gap (default).
        ``False`` saves that call (an expensive greedy step in boosting VI) and reports NaN.

    Besides the per-step arrays listed in :class:`FWResult`, ``info`` holds ``slope``
    (``<grad f(x), d>``), ``n_evals``, ``value``/``bound`` (the last sufficient-decrease test
    of a backtracking rule, NaN otherwise), and the CPU times (:mod:`inferopt._clock`) ``time_lmo`` (the LMO call that
    chose the step's atom) and ``time_step`` (everything else of the step: ``grad_active``,
    ``direction``, the rule and ``move``) and ``time_eval`` (the objective at the new iterate); ``info['time_init']`` is the time of
    placing the first atom.  Callbacks are excluded from these times.
    """
    check_protocol("problem", problem, "start", "lmo", "grad_active", "direction", "move", "objective",
                   what="an FWProblem")
    check_choice("variant", variant, VARIANTS)
    rule = make_step_rule(step)
    max_iter = check_int("max_iter", max_iter, low=1)
    tol = -np.inf if tol is None else check_real("tol", tol, low=0.0)
    if init is not None:
        init = check_int("init", init, low=0, high=getattr(problem, "n_atoms", np.inf) - 1)
    if callback is not None:
        check_callable("callback", callback)
    final_gap = check_flag("final_gap", final_gap)

    t0 = clock()
    problem.start()
    active = ActiveSet()
    s = problem.lmo(active)[0] if init is None else init
    problem.move(active, "fw", s, None, 1.0)
    active.fw_update(s, 1.0)
    objective, times, gaps = [problem.objective(active)], [clock() - t0], []
    time_init = times[0]
    grad_iterate = getattr(problem, "grad_iterate", None)     # optional (FWProblem)
    grad_act = None
    if callback is not None:
        callback(0, active)
    trace = {key: [] for key in ("gamma", "step_type", "drop", "atom", "n_active", "C", "step_status",
                                 "slope", "n_evals", "value", "bound", "time_lmo", "time_step", "time_eval")}
    converged, message = False, f"reached max_iter = {max_iter}"
    t = 0
    while True:
        if t == max_iter and not final_gap:
            gaps.append(np.nan)
            break
        tic = clock()
        s, grad_s = problem.lmo(active)
        toc = clock()
        time_lmo = toc - tic
        # <grad f(x), x> from the problem when it estimates it apart from the atoms' values (then those are
        # needed only to choose an away vertex), else from the active atoms' values
        if grad_iterate is None or (variant != "fw" and len(active) >= 2):
            grad_act = problem.grad_active(active)
        grad_x = float(active.weights @ grad_act) if grad_iterate is None else float(grad_iterate(active))
        gaps.append(grad_x - grad_s)
        if gaps[-1] <= tol:  # (never with tol = None)
            converged, message = True, f"duality gap {gaps[-1]:.3g} <= tol = {tol:g}"
            break
        if t == max_iter:
            break
        t += 1
        kind, v, slope, gamma_max = _choose(variant, active, grad_act, grad_x, s, grad_s)
        d = problem.direction(active, kind, s, v)
        out = rule(Line(t=t, slope=slope, f0=objective[-1], gamma_max=gamma_max,
                        d_sqnorm=d.d_sqnorm, curvature=d.curvature, phi=d.phi, dphi=d.dphi,
                        f_test=d.f_test))
        if out.status == "abort":       # the rule cannot take a step (e.g. a NaN norm): the run ends at x_{t-1}
            t -= 1
            message = f"aborted at step {t + 1}: the step rule returned no step size"
            break
        if out.direction is not None and out.direction != kind:
            if out.direction != "fw":
                raise ValueError(f"a step rule may redirect a step only to 'fw'; got direction {out.direction!r}")
            kind, v, slope, gamma_max = "fw", None, grad_s - grad_x, 1.0
        gamma = min(max(out.gamma, 0.0), gamma_max)
        if gamma >= gamma_max * (1.0 - 1e-12):  # a full step up to rounding: remove the atom exactly
            gamma = gamma_max
        drop = kind != "fw" and gamma == gamma_max
        problem.move(active, kind, s, v, gamma)
        if kind == "fw":
            active.fw_update(s, gamma)
        elif kind == "away":
            active.away_update(v, gamma, drop)
        else:
            active.pairwise_update(s, v, gamma, drop)
        tic_eval = clock()
        objective.append(problem.objective(active))
        times.append(clock() - t0)
        time_eval = times[-1] - (tic_eval - t0)
        time_step = tic_eval - toc
        if callback is not None:
            callback(t, active)
        for key, val in zip(trace, (gamma, kind, drop, s, len(active), out.C, out.status, slope,
                                    out.n_evals, out.value, out.bound, time_lmo, time_step, time_eval)):
            trace[key].append(val)

    return FWResult.from_run(active, objective=objective, gaps=gaps, trace=trace, n_iter=t, converged=converged,
                             message=message, times=times, time_init=time_init)
