"""Trials of the logistic / Poisson regression coreset experiments (Zhang et al. 2021,
Figs 3, 4, 8–11): every method over a grid of sizes, each coreset evaluated by Laplace
approximations (:class:`~inferopt.coresets.glm.GLMCoresetProblem`), trials in parallel.

Methods (:data:`METHODS`; ``*_refit`` = the solver's weights re-fitted by NNLS on their
support, :mod:`.refit`, as REPRODUCTION.md (A) asks): ``uniform``, ``giga``,
``giga_refit``, ``frank_wolfe``, ``frank_wolfe_refit``, ``sparsevi``, ``iht``, ``a_iht``,
``a_iht_ii``, ``a_iht_ii_refit``, ``a_iht_batch`` (B = n/5, App. G).

Times (``seconds``): for greedy methods (Uniform, GIGA, FW, SparseVI) the cumulative time
to reach size ``k`` in one pass, as the papers plot them; for the IHT family the time of
the run at that ``k``; a re-fit adds its own time. Every trial has its own seed, spawned
from the experiment seed (:func:`trial_seeds`), so results do not depend on ``n_jobs``
(up to the BLAS's floating-point summation order).
"""

from __future__ import annotations

import zlib

import numpy as np
import pandas as pd

from ..._validation import check_choice, check_choices, check_flag, check_int, check_size, check_table
from ...datasets.glm_data import load_glm
from ...coresets._common import DEFAULT_MAX_ITER
from ..parallel import run_tasks
from ...coresets.glm_problem import GLMCoresetProblem
from ..._random import named_stream
from .conjugate_trials import added_options, added_solvers, register_added, run_methods, split_method
from .work import glm_prices, product_seconds, work_counts

__all__ = [
    "ARMS",
    "METHODS",
    "best_method",
    "medians",
    "run_glm_phases",
    "run_glm_trial",
    "run_glm_trials",
    "time_ratio",
    "trial_matrix",
    "trial_seeds",
    "win_fraction",
    "wins",
]

#: SparseVI as the authors' code runs it for Sec. 5.3 and App. G (``experiments/examples/riemann_logistic_poisson_regression/
#: main.py`` of jackyzyb/bayesian-coresets-optimization at a1103af: ``opt_itrs = 500`` weight updates per selection,
#: where the paper's Secs. 5.1-5.2 say 100; ``projection_dim = 500`` draws per gradient (the ``BayesianTangentSpaceFactory``
#: of ``tsf_w`` samples ``projection_dim`` parameters per call, from the Laplace fit on the support); learning rate
#: ``0.5 / (1 + itr)``, itr from 0, which is ``0.5 / t`` for t from 1), as :func:`run_glm_trial` keywords of the
#: ``sparsevi_authors`` arm
AUTHORS_SPARSEVI = {"authors_steps": 500, "authors_samples": 500, "authors_step_scale": 0.5}

#: the methods of the figures: solvers of :func:`~inferopt.coresets.path.coreset_path`, a
#: ``_refit`` suffix re-fitting the weights by NNLS on their support (:mod:`.trials`)
METHODS = (
    "uniform", "giga", "giga_refit", "frank_wolfe", "frank_wolfe_refit", "sparsevi",
    "iht", "a_iht", "a_iht_ii", "a_iht_ii_refit", "a_iht_batch",
)
#: second arms of a method with other options (:mod:`inferopt.coresets.path`): SparseVI with the authors' settings
#: (:data:`AUTHORS_SPARSEVI`) and batch A-IHT with ``long_factor`` times the iteration budget (App. G)
ARMS = ("sparsevi_authors", "a_iht_batch_long")


def trial_seeds(seed: int, n_trials: int, dataset: str = "") -> list[np.random.SeedSequence]:
    """One independent :class:`numpy.random.SeedSequence` per trial from the experiment seed
    and the dataset's name (so a dataset's trials do not depend on which others are run)."""
    seed = check_int("seed", seed, low=0)
    n_trials = check_size("n_trials", n_trials, item_bytes=8 * 8, item="trial (its seed sequence)")
    return np.random.SeedSequence([seed, zlib.crc32(dataset.encode())]).spawn(n_trials)


def run_glm_trial(
    dataset: str,
    methods,
    ks,
    seed,
    *,
    size: str = "small",
    n_subsample: int | None = None,
    n_projections: int = 500,
    max_iter: int = DEFAULT_MAX_ITER,
    sparsevi_steps: int = 100,
    sparsevi_samples: int = 100,
    sparsevi_step_scale: float = 1.0,
    batch_fraction: float = 0.2,
    authors_steps: int = 500,
    authors_samples: int = 500,
    authors_step_scale: float = 0.5,
    long_factor: int = 3,
) -> pd.DataFrame:
    """One trial on ``dataset`` (:func:`~inferopt.datasets.glm.load_glm` name): ``Φ`` from
    ``n_projections`` draws of the full-data Laplace approximation, then every method of
    ``methods`` at every size of ``ks``, each coreset evaluated.

    ``seed``: an int or SeedSequence; it seeds, independently, the subsample (if
    ``n_subsample``), the projection draws, Uniform, SparseVI's Monte Carlo and the batches; a
    solver added by :func:`~inferopt.experiment.register_method` that takes ``rng`` gets its own
    stream (:func:`~inferopt._random.named_stream` of the trial's seed and its name), so the
    other methods' draws are the same with and without it.
    ``max_iter``: iteration budget of the IHT family (300; 500 for the large-scale runs).
    ``sparsevi_steps`` / ``sparsevi_samples`` / ``sparsevi_step_scale``: SparseVI's weight
    updates per selection, Monte-Carlo samples per gradient and step ``scale/t``; ``authors_*`` the same for
    the ``sparsevi_authors`` arm (defaults: :data:`AUTHORS_SPARSEVI`); ``long_factor``: the ``a_iht_batch_long``
    arm's budget is ``long_factor * max_iter``. The arms draw from their own streams
    (:func:`~inferopt._random.named_stream`), so adding them leaves every other method's draws unchanged.

    Returns a tidy table: ``dataset, method, k, forward_kl, reverse_kl, symmetric_kl,
    map_distance, seconds, rel_error`` (``‖y − Φw‖/‖y‖``), ``support`` and the work counts of
    :func:`~.work.work_counts` (``phi_products, gradient_draws, laplace_fits, laplace_evaluations, work, work_upper``; SparseVI's
    Laplace fits counted as they ran), and ``phi_floor_seconds``:
    the CPU seconds of one product ``Φᵀr`` in this trial (:func:`~.work.product_seconds`, equal-care evidence).
    """
    for m in methods:
        split_method(m)
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    s_data, s_proj, s_unif, s_svi, s_batch = (np.random.default_rng(s) for s in ss.spawn(5))
    fits = {"sparsevi": [], "sparsevi_authors": []}   # each SparseVI arm's Laplace fits as they ran (work.laplace_work)
    data = load_glm(dataset, size, n=n_subsample, rng=s_data) if n_subsample else load_glm(dataset, size)
    problem = GLMCoresetProblem(data.model(), n_projections, s_proj)
    Phi, y = problem.Phi, problem.y
    options = {
        "uniform": {"rng": s_unif},
        "sparsevi": {
            "tangent": problem.sparsevi_tangent(sparsevi_samples, s_svi, fits=fits["sparsevi"]),
            "n_steps": sparsevi_steps,
            "step_scale": sparsevi_step_scale,
        },
        "iht": {"max_iter": max_iter},
        "a_iht": {"max_iter": max_iter},
        "a_iht_ii": {"max_iter": max_iter},
        "a_iht_batch": {"max_iter": max_iter, "rng": s_batch, "batch_fraction": batch_fraction},
    } | added_options(np.random.default_rng(ss))
    arm_rng = np.random.default_rng(ss)
    if "sparsevi_authors" in methods:
        options["sparsevi_authors"] = {
            "tangent": problem.sparsevi_tangent(authors_samples, named_stream(arm_rng, "sparsevi_authors"),
                                                fits=fits["sparsevi_authors"]),
            "n_steps": authors_steps, "step_scale": authors_step_scale}
    if "a_iht_batch_long" in methods:
        options["a_iht_batch_long"] = {"max_iter": check_int("long_factor", long_factor, low=1) * max_iter,
                                       "rng": named_stream(arm_rng, "a_iht_batch_long"), "batch_fraction": batch_fraction}
    runs = run_methods(Phi, y, ks, methods, options=options)
    floor = product_seconds(Phi)
    ynorm = float(np.linalg.norm(y))
    frames = []
    for name, run in runs.items():
        W = run["weights"]
        frames.append(
            pd.DataFrame(
                {
                    "dataset": dataset,
                    "method": name,
                    "k": run["ks"],
                    **problem.evaluate(W),
                    "seconds": run["seconds"],
                    "rel_error": np.linalg.norm(y[:, None] - Phi @ W.T, axis=0) / ynorm,
                    "support": np.count_nonzero(W, axis=1),
                    **work_counts(name, run, S=Phi.shape[0], n=problem.n, D=problem.model.D,
                                  prices=glm_prices(type(problem.model).__name__), fits=fits.get(name),
                                  **_sparsevi_work(name, sparsevi_samples, sparsevi_steps, authors_samples, authors_steps)),
                    "phi_floor_seconds": floor,
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def _sparsevi_work(name: str, samples: int, steps: int, authors_samples: int, authors_steps: int) -> dict:
    """The draws and steps of ``name``'s SparseVI arm (nothing for the other methods)."""
    return {"sparsevi": {"draws": samples, "steps": steps},
            "sparsevi_authors": {"draws": authors_samples, "steps": authors_steps}}.get(name, {})


def run_glm_trials(datasets, methods, ks, *, n_trials: int, seed: int, n_jobs: int = 1, progress: bool = False,
                   **options) -> pd.DataFrame:
    """:func:`run_glm_trial` for every dataset of ``datasets`` (a name or a list) and
    ``n_trials`` trials each (seeds from :func:`trial_seeds`), all (dataset, trial) pairs
    spread over ``n_jobs`` workers (:func:`~inferopt.experiment.parallel.run_tasks`: loky,
    or Dask; ``progress``: a bar over the pairs); one stacked table with a ``trial`` column.
    Registered solvers among ``methods`` are registered in the workers too (module-level
    functions, so that they pickle). One phase of :func:`run_glm_phases`."""
    phase = {"datasets": datasets, "methods": methods, "ks": ks, "n_trials": n_trials, "options": options}
    return run_glm_phases([phase], seed=seed, n_jobs=n_jobs, progress=progress)[0]


def run_glm_phases(phases, *, seed: int, n_jobs: int = 1, progress: bool = False) -> list[pd.DataFrame]:
    """Several :func:`run_glm_trials` calls as one parallel phase: ``phases`` a list of dicts with keys
    ``datasets, methods, ks, n_trials`` and ``options`` (the keywords of :func:`run_glm_trial`); returns one table
    per phase, each the table :func:`run_glm_trials` gives for it (every task is seeded by its dataset and trial
    alone, so the numbers do not depend on the other phases, their order or ``n_jobs``).

    The tasks are dispatched in the order of ``phases``: list the phase with the longest tasks first (e.g. the
    authors' SparseVI arm, 50,000 Monte-Carlo steps a task, before the paper's trials), so that the short tasks fill
    the workers while the long ones run -- longest-processing-time-first scheduling (Graham 1969): separate calls
    leave a worker idle at the end of each call (issue 46: A4's and A5's arms on 2 workers)."""
    n_jobs = check_int("n_jobs", n_jobs, low=-1)
    progress = check_flag("progress", progress)
    if not isinstance(phases, list | tuple) or not phases:
        raise ValueError(f"phases must be a non-empty list of dicts; got {phases!r}")
    jobs, tasks = [], []
    for i, phase in enumerate(phases):
        if not isinstance(phase, dict) or set(phase) != {"datasets", "methods", "ks", "n_trials", "options"}:
            raise ValueError(f"phases[{i}] must be a dict with keys datasets, methods, ks, n_trials, options; got {phase!r}")
        datasets = [phase["datasets"]] if isinstance(phase["datasets"], str) else list(phase["datasets"])
        methods, added = phase["methods"], added_solvers(phase["methods"])
        for d in datasets:
            for t, s in enumerate(trial_seeds(seed, phase["n_trials"], d)):
                jobs.append((i, t))
                tasks.append((added, phase["options"], d, methods, phase["ks"], s))
    tables = run_tasks(_glm_task, tasks, n_jobs=n_jobs, progress="trials (dataset x trial)" if progress else False)
    return [pd.concat([tab.assign(trial=t) for (j, t), tab in zip(jobs, tables) if j == i], ignore_index=True)
            for i in range(len(phases))]


def _glm_task(added: dict, options: dict, dataset, methods, ks, seed) -> pd.DataFrame:
    register_added(added)
    return run_glm_trial(dataset, methods, ks, seed, **options)


def trial_matrix(table: pd.DataFrame, dataset: str, method: str, metric: str) -> tuple[np.ndarray, np.ndarray]:
    """``(ks, Y)`` with ``Y[trial, j]`` the ``metric`` of ``method`` at ``ks[j]`` on
    ``dataset`` -- the input of :func:`inferopt.experiment.plot_band`."""
    check_trial_table(table, metric)
    sub = table[(table["dataset"] == dataset) & (table["method"] == method)]
    if sub.empty:
        raise ValueError(f"no rows for dataset {dataset!r} and method {method!r}")
    wide = sub.pivot_table(index="trial", columns="k", values=metric)
    return wide.columns.to_numpy(), wide.to_numpy()


def check_trial_table(table, metric: str, **method_lists) -> None:
    """A trial table (columns ``dataset, method, k, trial`` and ``metric``) and, for each keyword,
    a non-empty list of methods present in it."""
    check_table("table", table, ("dataset", "method", "k", "trial"))
    check_choice("metric", metric, _metric_columns(table))
    for name, methods in method_lists.items():
        check_choices(name, methods, set(table["method"].tolist()))


def _metric_columns(table) -> set:
    return set(c for c in table.columns if isinstance(c, str))


def medians(table: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Median over trials of ``metric``: rows ``(dataset, k)``, one column per method."""
    check_trial_table(table, metric)
    return table.pivot_table(index=["dataset", "k"], columns="method", values=metric, aggfunc="median")


def win_fraction(table: pd.DataFrame, metric: str, ours, theirs, *, k_min: int = 1) -> pd.Series:
    """Per dataset, the fraction of sizes ``k >= k_min`` at which the best of ``ours``
    (lowest median ``metric`` over trials) is strictly below the best of ``theirs``."""
    check_trial_table(table, metric, ours=ours, theirs=theirs)
    k_min = _check_k_min(table, k_min)
    med = medians(table[table["k"] >= k_min], metric)
    win = med[list(ours)].min(axis=1) < med[list(theirs)].min(axis=1)
    return win.groupby(level="dataset").mean()


def _check_k_min(table: pd.DataFrame, k_min) -> int:
    """``k_min`` from 1 to the table's largest size (issue 47: beyond it no size is left to compare)."""
    return check_int("k_min", k_min, low=1, high=int(table["k"].max()))


def time_ratio(table: pd.DataFrame, numerator: str, denominator: str, k: int | None = None) -> pd.Series:
    """Per dataset, median time of ``numerator`` / median time of ``denominator`` at size
    ``k`` (default the largest size in the table)."""
    check_trial_table(table, "seconds", numerator=[numerator], denominator=[denominator])
    k = int(table["k"].max()) if k is None else check_int("k", k, low=1)
    if k not in set(table["k"].tolist()):
        raise ValueError(f"k must be one of the sizes in the table {sorted(set(table['k'].tolist()))}; got {k}")
    med = medians(table[table["k"] == k], "seconds")
    return (med[numerator] / med[denominator]).droplevel("k")


def best_method(table: pd.DataFrame, metric: str, methods, *, k_min: int = 1) -> pd.Series:
    """Per dataset, the method of ``methods`` with the lowest median ``metric`` at the most
    sizes ``k >= k_min`` (ties to the first listed)."""
    check_trial_table(table, metric, methods=methods)
    k_min = _check_k_min(table, k_min)
    med = medians(table[table["k"] >= k_min], metric)[list(methods)]
    winners = med.idxmin(axis=1).groupby(level="dataset")
    return winners.agg(lambda s: max(methods, key=lambda m: (s == m).sum() - 1e-3 * list(methods).index(m)))


def wins(table: pd.DataFrame, ours, theirs, *, k_min: int = 1, metrics=("forward_kl", "reverse_kl")) -> pd.DataFrame:
    """Per dataset (rows) and metric (columns), :func:`win_fraction` of ``ours`` over ``theirs``."""
    check_table("table", table)
    metrics = check_choices("metrics", metrics, _metric_columns(table))
    return pd.DataFrame({m: win_fraction(table, m, ours, theirs, k_min=k_min) for m in metrics})
