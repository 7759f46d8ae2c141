"""Herding (Welling 2009) and its conditional-gradient variants (Bach et al. 2012, Sec. 4).

Problem (Eq. 3, up to the factor 1/2): ``min_{g in M} ||g - mu||^2`` over the marginal
polytope restricted to a finite candidate set ``{Phi(x_j)}`` -- a fine grid on [0, 1]
(Sec. 5.1: "exhaustive search") or a sample of states (Sec. 5.2).  The linear minimisation
``argmin_j <g_t - mu, Phi(x_j)>`` is an exhaustive search over the candidates, done by
:mod:`inferopt.fw` on a :class:`~inferopt.fw.QuadraticHull` built from kernel columns
``k(candidates, x_j)`` (O(N) per iteration, no N x N matrix).

Step rules (``step``): ``'1/(t+1)'`` (herding, uniform weights), ``'line_search'``
(cg-l.search), ``'mnp'`` (min-norm-point), and any other FW step rule name, or one added by
:func:`register_step` (the experiment layer's :func:`inferopt.experiment.register_method`).  The
first point is ``argmax_j mu(x_j)`` (``g_0 = 0``, ``rho_0 = 1``; Chen et al. 2010). Every argmax and argmin
chooses, among candidates tied up to round-off, the lowest index (:mod:`inferopt._selection`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

from .._progress import Progress
from .._selection import tied_argmax
from .._validation import check_choice, check_int, check_int_sequence, check_size
from ..fw import STEP_NAMES, FWResult, QuadraticHull, frank_wolfe, min_norm_point, simplex_reweight
from ..fw.steps import StepRegistry
from .targets import KernelTarget, check_points

#: the step rules of :func:`herd`: the FW rules and ``'mnp'``, then those added by :func:`register_step`
HERDING_STEPS = [*STEP_NAMES, "mnp"]
_REGISTERED = StepRegistry(HERDING_STEPS, "herding step rule")


def register_step(name: str, rule) -> None:
    """Make ``rule`` a step rule of :func:`herd` named ``name`` (appended to :data:`HERDING_STEPS`):
    a :class:`~inferopt.fw.steps.StepRule` or a function ``rule(line) -> StepOutcome or step
    size``. The same rule under its name again does nothing; a taken name is a ``ValueError``."""
    _REGISTERED.add(name, rule)


def check_step(name: str, rule) -> None:
    """What :func:`register_step` requires, without registering."""
    _REGISTERED.check(name, rule)


def hull_problem(target: KernelTarget, candidates) -> QuadraticHull:
    """``||mu - sum_j alpha_j Phi(x_j)||^2`` over the candidates, from kernel columns only."""
    candidates = check_points(target, "candidates", candidates)
    return QuadraticHull.from_columns(
        lambda ids: target.kernel(candidates, candidates[ids]),
        target.mean(candidates), target.mean_sqnorm, target.kernel_diag(candidates))


@dataclass(repr=False)
class HerdingResult(FWResult):
    """The conditional-gradient run's :class:`~inferopt.fw.FWResult` (``x``/``weights`` on the
    distinct candidates ``atoms``; ``objective[t-1] = ||mu - mu_hat_t||^2`` after ``t`` points),
    plus ``order``: the candidate index chosen at each iteration (``order[0]`` the first point;
    repeats possible); ``test_objective``: the same error against ``test_target`` (or ``None``);
    ``snapshots[t]``: the weights of all candidates after ``t`` points, for each requested ``t``
    that was reached."""

    order: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.intp))
    test_objective: np.ndarray | None = None
    snapshots: dict[int, np.ndarray] | None = None


def herd(target: KernelTarget, candidates, n_points: int, step: str = "1/(t+1)",
         test_target: KernelTarget | None = None, snapshots=None, progress=False, track=None) -> HerdingResult:
    """Herding-type point selection over ``candidates`` (``n_points`` iterations, Bach et al. Eq. 4).

    ``step``: a FW step rule ('1/(t+1)' = herding, 'line_search', ...; always ``n_points``
    iterations) or 'mnp' (which may stop early: finite termination, e.g. when ``mu`` is in the
    candidates' hull).
    ``test_target``: a second mean element with the *same kernel* (Fig. 4: fit the empirical
    mean, ``EmpiricalTarget``, test against the exact one); its error is tracked at O(k) per
    iteration, ``||mu' - mu_hat||^2 = ||mu - mu_hat||^2 + 2 w'(mu(x) - mu'(x)) + ||mu'||^2 - ||mu||^2``.
    ``snapshots``: numbers of points ``t`` at which to keep the dense weight vector over the
    candidates (Sec. 5.3: herding's distribution over states along the run; O(N) each).
    ``track``: a function ``track(t, ids, weights)`` called after every point ``t`` with the candidates' indices
    ``ids`` carrying weight and their ``weights`` (O(size of the support) each: a dense record along the run
    without keeping the dense weight vectors).
    ``progress``: a bar over the points; a call projected to run for minutes warns either way
    (:class:`inferopt._progress.LongCallWarning`).
    """
    n_points = check_size("n_points", n_points, low=2, item_bytes=8 * 4, item="point (error, atom, weight, gap)")
    check_choice("step", step, HERDING_STEPS)
    candidates = check_points(target, "candidates", candidates)
    if test_target is not None:
        check_points(test_target, "candidates", candidates, target_name="test_target")
    wanted = set() if snapshots is None else set(check_int_sequence("snapshots", snapshots, low=1, high=n_points))
    if track is not None and not callable(track):
        raise TypeError(f"track must be a function track(t, ids, weights); got {track!r}")
    bar = Progress("herd", n_points, progress, unit="point", size="n_points")
    problem = hull_problem(target, candidates)
    first = tied_argmax(problem.c)
    shift, kept = [], {}
    delta = None if test_target is None else problem.c - test_target.mean(candidates)

    def callback(t, active):  # t = 0 is the first point
        if delta is not None:
            shift.append(2.0 * active.weights @ delta[active.ids])
        if t + 1 in wanted:
            kept[t + 1] = np.zeros(problem.n_atoms)
            kept[t + 1][active.ids] = active.weights
        if track is not None:
            track(t + 1, active.ids, active.weights)
        bar.update()
    if step == "mnp":
        res = min_norm_point(problem, max_iter=n_points - 1, tol=0.0, init=first, callback=callback)
    else:
        res = frank_wolfe(problem, variant="fw", step=_REGISTERED.rules.get(step, step), max_iter=n_points - 1,
                          tol=None, init=first, callback=callback)
    bar.close()
    order = np.concatenate([[first], res.info["atom"]]).astype(np.intp)
    test = None
    if test_target is not None:
        test = res.objective + np.asarray(shift) + test_target.mean_sqnorm - target.mean_sqnorm
    return HerdingResult(**{f.name: getattr(res, f.name) for f in fields(FWResult)}, order=order, test_objective=test,
                         snapshots=kept if snapshots is not None else None)


#: the initialisations of :func:`welling_herding` (Sec. 4, "We finally comment on the initialization")
WELLING_INITS = ("zero", "mean")


def welling_herding(target: KernelTarget, candidates, n_points: int, *, init: str = "zero",
                    first: int | None = None) -> np.ndarray:
    """Welling's recursion, Eq. (1): ``x_{t+1} in argmax_x <w_t, Phi(x)>``, ``w_{t+1} = w_t + mu - Phi(x_{t+1})``.

    ``w_t`` is carried by its values on the candidates, ``<w_t, Phi(x_j)>``, updated by
    ``+ mu(x_j) - k(x_{t+1}, x_j)`` (reproducing property); exhaustive argmax over the
    candidates.  ``init``: ``'zero'`` (``w_0 = 0``, the paper's ``rho_0 = 1``: ``w_t = t (mu - g_t)``;
    the first argmax is degenerate, so the first point is ``first``, a candidate index, or as
    ``w_0 -> 0+ mu`` ``argmax mu(x_j)``) or ``'mean'`` (``w_0 = mu``, Chen et al. 2010's kernel
    herding, ``g_0 = 0``: ``x_{t+1} = argmax (t + 1) mu(x) - sum_{i<=t} k(x_i, x)``; ``first`` must
    then be None).  Returns the candidate index of each point.
    """
    n_points = check_size("n_points", n_points, item_bytes=8, item="point")
    check_choice("init", init, WELLING_INITS)
    candidates = check_points(target, "candidates", candidates)
    if first is not None:
        if init != "zero":
            raise ValueError("first is the first point of the init='zero' recursion; with init='mean' w_0 = mu chooses it")
        first = check_int("first", first, low=0, high=len(candidates) - 1)
    mu = target.mean(candidates)
    score = mu.copy() if init == "mean" else np.zeros(len(candidates))
    order = np.empty(n_points, dtype=np.intp)
    for t in range(n_points):
        if t == 0 and init == "zero":
            order[t] = tied_argmax(mu) if first is None else first
        else:
            order[t] = tied_argmax(score)
        score += mu - target.kernel(candidates, candidates[order[t:t + 1]])[:, 0]
    return order


def dual_subgradient_ascent(target: KernelTarget, candidates, n_points: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sec. 4.1: supergradient ascent on the dual ``D(w) = <w, mu> - max_x <w, Phi(x)> - ||w||^2 / 2``.

    Step ``gamma_t = 1/(t+1)`` along the supergradient ``mu - Phi(x_{t+1}) - w_t`` (``x_{t+1}`` the
    maximiser of ``<w_t, Phi(x)>`` over the candidates; ``w_0 = mu``, ``gamma_0 = 1``), carried in
    kernel terms: the scores ``<w_t, Phi(x_j)>``, ``a_t = <w_t, mu>`` and ``||w_t||^2``.
    Returns ``(order, primal, gap)``: the candidate index of each maximiser, ``||w_t||^2`` (the
    primal error ``||mu - g_t||^2`` of ``g_t = mu - w_t``) and the duality gap
    ``||w_t||^2 / 2 - D(w_t) >= 0`` after each step ``t = 1..n_points``.
    """
    n_points = check_size("n_points", n_points, item_bytes=8 * 3, item="point")
    candidates = check_points(target, "candidates", candidates)
    mu, m2 = target.mean(candidates), target.mean_sqnorm
    diag = target.kernel_diag(candidates)
    score, a, w2 = mu.copy(), m2, m2                        # w_0 = mu
    order, primal, gap = np.empty(n_points, dtype=np.intp), np.empty(n_points), np.empty(n_points)
    for t in range(n_points):
        j = tied_argmax(score)
        g = 1.0 / (t + 1)
        kj = target.kernel(candidates, candidates[j:j + 1])[:, 0]
        # w' = (1 - g) w + g (mu - Phi(x_j)); ||mu - Phi(x_j)||^2 = m2 - 2 mu(x_j) + k(x_j, x_j)
        w2 = (1 - g) ** 2 * w2 + 2 * g * (1 - g) * (a - score[j]) + g ** 2 * (m2 - 2 * mu[j] + diag[j])
        a = (1 - g) * a + g * (m2 - mu[j])
        score = (1 - g) * score + g * (mu - kj)
        order[t], primal[t] = j, max(w2, 0.0)
        gap[t] = w2 - a + score.max()                      # ||w||^2 / 2 - (a - max score - ||w||^2 / 2)
    return order, primal, gap


def project(target: KernelTarget, points) -> tuple[np.ndarray, np.ndarray, float]:
    """The ``-proj`` step: optimal simplex weights on the distinct ``points`` (Sec. 5.1).

    Returns ``(distinct_points, weights, error)`` with ``error = ||mu - sum w_i Phi(x_i)||^2``.
    """
    pts = np.unique(check_points(target, "points", points), axis=0)
    # warm start from every point: one factorisation, then minor cycles drop the inactive ones
    res = simplex_reweight(target.kernel(pts, pts), target.mean(pts), target.mean_sqnorm, init=range(len(pts)))
    return pts, res.dense_weights(len(pts)), float(res.objective[-1])


def projected_errors(target: KernelTarget, points, sizes, error_target: KernelTarget | None = None) -> np.ndarray:
    """``-proj`` error of the first ``t`` points for each ``t`` in ``sizes``: their optimal simplex weights fitted to
    ``target``'s mean (:func:`project`), the error ``||mu' - sum w_i Phi(x_i)||^2`` read against ``error_target``'s
    mean ``mu'`` (default: ``target``'s own, the fitted mean; another target must share ``target``'s kernel, e.g. the
    exact mean where ``target`` is a weighted grid's)."""
    points = check_points(target, "points", points)
    sizes = check_int_sequence("sizes", sizes, low=1, high=len(points))
    if error_target is None:
        return np.array([project(target, points[:t])[2] for t in sizes])
    if not isinstance(error_target, KernelTarget):
        raise TypeError(f"error_target must be a KernelTarget; got {type(error_target).__name__}")
    out = []
    for t in sizes:
        pts, w, _ = project(target, points[:t])
        err = w @ target.kernel(pts, pts) @ w - 2.0 * w @ error_target.mean(pts) + error_target.mean_sqnorm
        out.append(max(float(err), 0.0))
    return np.array(out)
