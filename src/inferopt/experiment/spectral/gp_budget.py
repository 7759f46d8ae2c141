"""D5's common budget in WORK (Han, Avron & Shin 2018, Sec. 5.2, Fig. 3): every method's runs end at the same number of
matrix-vector products, the authors' LANCZOS's median (Dong et al.'s ``demo_sound.m`` gives it 50 evaluations), never at a
number of CPU seconds, which would make the runs, and so the comparison's reference RMSE and which method "never reaches"
a target, depend on the machine and its load.

A run's work is its ``matvecs`` trace: the products with ``A`` its problem counted in the optimisation (SGD's stochastic
Chebyshev gradient at the calibrated :data:`~inferopt.spectral.gp.SGD_PRODUCTS_PER_DEGREE` per degree and probe, CG and
Lanczos products at one each; the evaluations of the recorded iterates are not counted), the same count for every method.

* :func:`work_budget` -- the budget: the median final work of one method's runs (the authors' LANCZOS);
* :func:`run_to_work` -- one run to a budget: a stepped method with its step cap doubled until its work passes the budget,
  made once (the cap moves within the run: ``cap`` of the optimisers) and ended at the first step past the budget, a line
  search to its own evaluation cap; the run's recorded iterates kept (:class:`IterateLog`);
* :func:`cut_at_work` -- a run cut at the budget: its trace up to the last record within it, its end point that record's
  iterate;
* :func:`paper_cost_run`, :func:`paper_cost_runs`, :func:`paper_cost_cells` (a verdict map's, each cell at its own probes and budget) -- SGD's runs re-priced at the paper's cost of its gradient, recursion (6)
  (:data:`PAPER_PRODUCTS_PER_DEGREE` per degree and probe, not our adjoint shortcut's calibrated 1.2), and cut again at the
  common budget, which the re-priced trace crosses earlier: both arms get equal work at the paper's algorithm's cost;
* :func:`arm_scores` -- an eta0 pilot run scored as each arm judged on it reads it (SGD at the paper's cost: re-priced and
  cut at the budget; SGD at our cost, beside: as run), so each arm's step is tuned for the run it is judged on.

This module is D5's alone (the notebook imports it; :mod:`.gp` and the optimisers are shared with D1-D4's stages and stay
as they are). CPU seconds are kept in every trace as a reported column; no budget reads them.
"""

from __future__ import annotations

import copy
import zlib

import numpy as np

from ..._validation import check_protocol, check_real, check_size

#: the first step cap of a stepped method (SGD, our LANCZOS) in :func:`run_to_work`, in multiples of its step count: the
#: budget ends the run, not the cap (the paper-scale b654e69 run's authors' median work is 1.08x SGD's and 1.18x our LANCZOS's
#: 30 steps' on sound, 1.01x and 1.32x on humidity); a cap the run's work stays within is doubled and the run goes on
WORK_STEPS = 1.5
#: products with ``A`` (or with a derivative ``∂A/∂θ_i``) one probe of the PAPER's stochastic Chebyshev gradient costs per unit of
#: the degree ``n`` drawn: its forward-mode recursion (6) (Han, Avron & Shin 2018, Sec. 3, Eq. 6) makes, per step ``j``, one product
#: ``Ã w_j`` and, for each of the ``d' = 3`` hyperparameters, one product ``Ã ∂w_j/∂θ_i`` and one ``∂A/∂θ_i w_j``: ``(1 + d')n``
#: products with ``A`` and ``d' n`` with the derivatives, of which the noise's ``∂A/∂θ₁ = 2θ₁ I`` is a scaling, not a product,
#: so ``4n + 2n``; Sec. 5.2 takes ``‖∂A/∂θ_i‖_mv = ‖A‖_mv`` for SKI, so each sandwich costs one product. Ours
#: (:mod:`inferopt.spectral._ski_gradient`) replaces the ``3n`` derivative products with ``A`` and the ``2n`` sandwiches by the
#: recursion's adjoint and one cross-correlation, calibrated at ``1.2n`` (:data:`~inferopt.spectral.gp.SGD_PRODUCTS_PER_DEGREE`):
#: our engineering, not the paper's algorithm
PAPER_PRODUCTS_PER_DEGREE = 6.0
#: SGD's two arms: its runs re-priced at the paper's cost (recursion (6), :func:`paper_cost_run`), which decide the speed
#: claims, and its runs as made, at our adjoint gradient's cost, shown beside; each has its own eta0 (:func:`arm_scores`)
PAPER_ARM, OUR_ARM = "SGD", "SGD at our cost (beside)"


class IterateLog:
    """A problem that keeps every iterate it evaluates: the optimisers evaluate each recorded iterate's objective once, in
    the order of their records (``_Trace.flush``), so :attr:`iterates` holds the recorded iterates, record by record. Every
    other attribute (the gradients, the box, the ``matvecs`` count) is ``problem``'s: pass it as the problem of a stepped
    method or as the ``evaluator`` of :func:`~inferopt.spectral.optim.lanczos_lbfgs`."""

    def __init__(self, problem):
        check_protocol("problem", problem, "objective", "metric", what="a problem to evaluate the iterates")
        self.problem = problem
        self.iterates = []

    def objective(self, theta):
        self.iterates.append(np.array(theta, dtype=float))
        return self.problem.objective(theta)

    def metric(self, theta):
        return self.problem.metric(theta)

    def __getattr__(self, name):
        if name == "problem":      # not set yet (a copy being built): no recursion
            raise AttributeError(name)
        return getattr(self.problem, name)


def work_budget(results: dict, name: str, method: str) -> float:
    """The work budget every method gets on ``name``: the median final work (``matvecs[-1]``, products) of ``method``'s runs
    there (``results``: ``{(dataset, method, seed): result}``; ``method``: the authors' LANCZOS, whose 50 evaluations are the
    budget of Dong et al.'s ``demo_sound.m``). The budget sets how far every run gets (:func:`cut_at_work`), so the
    comparison's reference (the best final test RMSE) and which method "never reaches" a target; a count of products, it is
    the same on any machine under any load."""
    if not isinstance(results, dict) or not results:
        raise ValueError("results must be a non-empty mapping (dataset, method, seed) -> result")
    runs = [r for k, r in results.items() if isinstance(k, tuple) and len(k) == 3 and k[:2] == (name, method)]
    if not runs:
        raise ValueError(f"results hold no run of method {method!r} on name {name!r}")
    for r in runs:
        check_protocol("results (a value of)", r, "matvecs", what="a SpectralSolveResult")
    work = [float(r.matvecs[-1]) if np.size(r.matvecs) else np.nan for r in runs]
    if not np.all(np.isfinite(work)):
        raise ValueError(f"results' runs of {method!r} on {name!r} must trace a finite matvecs count (a problem that counts them)")
    return check_real("work budget", float(np.median(work)), low=0.0, low_open=True)


def cut_at_work(result, budget: float):
    """``result`` cut at the work ``budget`` (products): its trace up to its last record whose ``matvecs`` is within the
    budget, its end point ``x`` that record's iterate (``result.info["iterates"]``, kept by :func:`run_to_work`), its
    ``n_iter`` that record's iteration and, for SGD, its degrees and intervals those steps' (``nominal_matvecs`` reads them).
    A run whose work stays within the budget is returned as it is. ``budget`` None: no cut."""
    from ...spectral.optim import SpectralSolveResult
    check_protocol("result", result, "matvecs", "iterations", "metric", "times", "info", what="a SpectralSolveResult of run_to_work")
    iterates = (result.info or {}).get("iterates")
    if iterates is None or len(iterates) != np.size(result.matvecs):
        raise ValueError("result must keep one iterate per record (info['iterates']: run it with run_to_work)")
    if budget is None:
        return result
    budget = check_real("budget", budget, low=0.0, low_open=True)
    work = np.asarray(result.matvecs, dtype=float)
    if not np.all(np.isfinite(work)):
        raise ValueError("result must trace a finite matvecs count at every record (a problem that counts them)")
    keep = int(np.searchsorted(work, budget, side="right"))     # the work is cumulative: records 0..keep-1 within the budget
    if keep == work.size:
        return result
    keep = max(keep, 1)                                          # the start (no work) always stands
    x = np.asarray(iterates[keep - 1], dtype=float)
    if zlib.crc32(np.ascontiguousarray(x).data) != int(result.checksums[keep - 1]):
        raise ValueError("result's info['iterates'] must be its recorded iterates, in order (checksums differ)")
    steps = int(result.iterations[keep - 1])
    info = {k: (v[:steps] if k in ("degrees", "intervals") else v) for k, v in result.info.items() if k != "iterates"}
    cut = lambda a: np.asarray(a)[:keep]
    return SpectralSolveResult(x=x, objective=cut(result.objective), n_iter=steps, converged=False,
                               message=f"work budget ({budget:g} products) reached", times=cut(result.times), iterations=cut(result.iterations),
                               metric=cut(result.metric), checksums=cut(result.checksums), matvecs=cut(result.matvecs),
                               info=info | {"iterates": list(iterates[:keep]), "work budget": budget})


def run_to_work(solver, problem, theta0, budget=None, steps=None, **kwargs):
    """One run of ``solver`` on ``problem`` from ``theta0`` to the work ``budget`` (products; None: the run as it ends by its
    own cap), cut there (:func:`cut_at_work`), its recorded iterates kept in ``info["iterates"]`` (:class:`IterateLog`).
    ``solver``: :func:`~inferopt.spectral.optim.lanczos_lbfgs` (the authors' LANCZOS, a line search ending at its own
    evaluation cap; ``steps`` None), or a stepped method, :func:`~inferopt.spectral.optim.sgd` or
    :func:`~inferopt.spectral.optim.lanczos_gd`, on a copy of ``problem`` (its warm starts and counter as at the start) with
    a step cap of ``steps`` doubled, while its work stays within the budget, each time the run reaches it, so the budget, a
    count of products, ends every run whatever the CPU's speed. The run is made once: the cap moves within it (the
    optimisers' ``cap``; nothing a step does reads the cap, so it is the run made afresh with its last cap, as the doubled
    runs were made before, issue 46), and it ends at the first step whose work passes the budget (the records past the
    budget are cut either way), or at a cap whose work is the budget's exactly (the run with that cap is kept whole).
    ``kwargs``: the solver's other arguments (a seeded ``rng``: the same steps at any cap)."""
    from ...spectral.optim import lanczos_gd, lanczos_lbfgs, sgd
    if not any(solver is s_ for s_ in (sgd, lanczos_gd, lanczos_lbfgs)):
        raise ValueError(f"solver must be sgd, lanczos_gd or lanczos_lbfgs (inferopt.spectral); got {solver!r}")
    check_protocol("problem", problem, "objective", "metric", "matvecs", what="a problem that counts its products")
    if budget is not None:
        budget = check_real("budget", budget, low=0.0, low_open=True)
    if solver is lanczos_lbfgs:
        if steps is not None:
            raise ValueError(f"steps must be None for lanczos_lbfgs (its max_evals caps it); got {steps!r}")
        log = IterateLog(problem)
        res = solver(problem, theta0, evaluator=log, **kwargs)
        res.info["iterates"] = log.iterates
        return cut_at_work(res, budget)
    # each step keeps its degree and interval (sgd) and its logged iterate: 6 floats
    steps = check_size("steps", steps, low=1, item_bytes=8 * 6, item="step (its degree, interval and logged iterate)")
    log = IterateLog(copy.deepcopy(problem))
    last = {"cap": steps}

    def cap(done):
        """The cap after ``done`` steps: ``done`` (the end) past the budget or at a cap whose work reaches it, else the
        cap, doubled at a cap whose work is within the budget."""
        work = log.matvecs
        if work > budget or (done == last["cap"] and work >= budget):
            return done
        if done == last["cap"]:
            last["cap"] *= 2
        return last["cap"]

    res = solver(log, theta0, max_iter=steps, cap=None if budget is None else cap, **kwargs)
    res.info["iterates"] = log.iterates
    return cut_at_work(res, budget)


def paper_cost_run(result, probes: int, budget=None):
    """SGD's run ``result`` (of :func:`run_to_work`) at the PAPER's cost of its gradient: each record's ``matvecs`` with the
    degrees drawn before it counted at :data:`PAPER_PRODUCTS_PER_DEGREE` per degree and probe (recursion (6)) instead of the
    calibrated :data:`~inferopt.spectral.gp.SGD_PRODUCTS_PER_DEGREE` of our adjoint shortcut (the other products, CG for
    ``α`` and the spectral interval, kept), then cut at the work ``budget`` (:func:`cut_at_work`; None: not cut): the re-priced
    trace crosses the common budget earlier, and both arms get equal work at the paper's cost. The degree-priced part is read
    off the nominal trace (:func:`~.gp.nominal_matvecs`, ``n`` per probe): ``calibrated - nominal = (1.2 - 1) × probes × Σ n``.
    Its CPU seconds are NOT measured at that cost: each record's seconds are ESTIMATED as the measured ones plus its extra
    products at the run's own measured seconds per product (its final seconds over its final products); ``info["cost"]`` says
    so. ``probes``: SGD's probes per step (the run's ``M``)."""
    from ...spectral.gp import SGD_PRODUCTS_PER_DEGREE
    from .gp import nominal_matvecs
    work = np.asarray(result.matvecs, dtype=float)
    degree_part = (work - nominal_matvecs(result, probes)) / (SGD_PRODUCTS_PER_DEGREE - 1.0)   # probes x the degrees drawn
    paper = work + (PAPER_PRODUCTS_PER_DEGREE - SGD_PRODUCTS_PER_DEGREE) * degree_part
    times = np.asarray(result.times, dtype=float)
    if work.size == 0 or not work[-1] > 0 or times.size != work.size:
        raise ValueError("result must trace positive work and one CPU time per record (an SGD run of run_to_work)")
    estimate = times + (paper - work) * times[-1] / work[-1]
    repriced = copy.copy(result)
    repriced.matvecs, repriced.times = paper, estimate
    repriced.info = dict(result.info, cost=f"the paper's recursion (6), {PAPER_PRODUCTS_PER_DEGREE:g}n products per probe; CPU seconds an "
                                           "estimate at the run's measured seconds per product")
    return cut_at_work(repriced, budget)


def paper_cost_runs(runs: dict, probes: int, budgets: dict, method: str = "SGD") -> dict:
    """``runs`` (``{(..., dataset, method, seed): result}``, the dataset and method the key's third and second from last
    entries) with every run of ``method`` (SGD) re-priced at the paper's cost and cut at its dataset's budget
    (:func:`paper_cost_run`, ``budgets`` ``{dataset: products}``); the other methods' runs as they are."""
    if not isinstance(runs, dict) or not isinstance(budgets, dict):
        raise TypeError(f"runs and budgets must be mappings; got {type(runs).__name__} and {type(budgets).__name__}")
    out = {}
    for k, r in runs.items():
        if not isinstance(k, tuple) or len(k) < 3:
            raise ValueError(f"runs' keys must be tuples ending (dataset, method, seed); got {k!r}")
        if k[-2] == method and k[-3] not in budgets:
            raise ValueError(f"budgets must hold a budget for dataset {k[-3]!r}; got {sorted(budgets)}")
        out[k] = paper_cost_run(r, probes, budgets[k[-3]]) if k[-2] == method else r
    return out


def paper_cost_cells(runs: dict, settings: dict, probes: int, budgets: dict, method: str = "SGD") -> dict:
    """A verdict map's ``runs`` (``{(label, dataset, method, seed): result}``) with each cell's ``method`` (SGD) runs at the
    paper's cost (:func:`paper_cost_runs`) at THAT cell's probes and work budget: ``settings`` ``{label: the cell's keywords}``
    (as the notebook's ``method_calls`` takes them), its ``"probes"`` (default ``probes``) the run's ``M`` and its ``"budget"``
    (default 1) the factor its runs' budget is ``budgets`` ``{dataset: products}`` times; a label not in ``settings`` runs at
    the defaults (the main cell's)."""
    if not isinstance(runs, dict) or not all(isinstance(k, tuple) and len(k) == 4 for k in runs):
        raise ValueError(f"runs must map (label, dataset, method, seed) to results; got keys {list(runs)[:3]!r}")
    if not isinstance(settings, dict) or not all(isinstance(v, dict) for v in settings.values()):
        raise TypeError(f"settings must map cell labels to their keywords; got {settings!r}")
    if not isinstance(budgets, dict):
        raise TypeError(f"budgets must be a mapping dataset -> products; got {type(budgets).__name__}")
    out = {}
    for label in dict.fromkeys(k[0] for k in runs):
        kw = settings.get(label, {})
        factor = check_real(f"settings[{label!r}]['budget']", kw.get("budget", 1), low=0.0, low_open=True)
        out |= paper_cost_runs({k: r for k, r in runs.items() if k[0] == label}, kw.get("probes", probes),
                               {n: factor * b for n, b in budgets.items()}, method)
    return out


def arms(method: str) -> tuple:
    """The arms judged on ``method``'s runs: SGD's :data:`PAPER_ARM` and :data:`OUR_ARM`; any other method is its own arm."""
    if not isinstance(method, str) or not method:
        raise TypeError(f"method must be a method's name (a non-empty string); got {method!r}")
    return (PAPER_ARM, OUR_ARM) if method == PAPER_ARM else (method,)


def arm_scores(method: str, result, score, probes: int, budget=None, wanted=None) -> dict:
    """``{arm: score}`` of one eta0 pilot run ``result`` of ``method`` (of :func:`run_to_work`, to the runs' work ``budget``)
    as each arm judged on it reads it (:func:`arms`): SGD at the paper's cost (:data:`PAPER_ARM`) on the run re-priced at
    recursion (6) and cut at ``budget`` (:func:`paper_cost_run`, ``probes`` its ``M``): the paper's gradient costs about 5x
    ours a probe, so within the same budget it makes fewer steps and the step that is best there may differ; SGD at our
    cost (:data:`OUR_ARM`) and any other method on the run as made. ``score``: the run's end point's objective (the pilot's
    accurate likelihood at ``result.x``; smaller is better, :func:`~.gp.choose_eta0`), called once per distinct end point;
    ``wanted``: the arms to score (default all of ``method``'s)."""
    if not callable(score):
        raise TypeError(f"score must be a callable result -> its end point's likelihood; got {score!r}")
    wanted = arms(method) if wanted is None else tuple(wanted)
    bad = [a for a in wanted if a not in arms(method)]
    if bad:
        raise ValueError(f"wanted must be arms of {method!r} ({list(arms(method))}); got {bad}")
    ends = {a: paper_cost_run(result, probes, budget) if a == PAPER_ARM else result for a in wanted}
    out, seen = {}, []
    for a, r in ends.items():
        same = next((v for x, v in seen if np.array_equal(x, r.x)), None)
        out[a] = float(score(r)) if same is None else same
        if same is None:
            seen.append((np.asarray(r.x), out[a]))
    return out
