"""Trials of the conjugate-model coreset experiments (Zhang et al. 2021, Sec. 5.1–5.2,
Figs 1, 2, 5–7): every method over a grid of sizes on one exact problem, each coreset
evaluated with the exact weighted posterior.

Method names are the solvers of :func:`~inferopt.coresets.path.coreset_path`, optionally
suffixed ``_refit``: the solver's weights re-fitted by NNLS on their support
(:mod:`.refit`), as REPRODUCTION.md (A) asks for GIGA, FW and one IHT variant. A solver
shared by a method and its ``_refit`` variant runs once.

A solver added by :func:`~inferopt.experiment.register_method` gets its own generator
(:func:`~inferopt._random.named_stream` of the trial's and its name) if it takes ``rng``: the
draws of the paper's methods are the same with and without it.

Times (``seconds``): greedy methods (Uniform, GIGA, FW, SparseVI) -- cumulative time to
reach ``k`` in one pass; the IHT family -- the run at that ``k``; a re-fit adds its time.
"""

from __future__ import annotations

import inspect
from functools import partial

import numpy as np
import pandas as pd

from ..._clock import clock
from ..._validation import (
    as_finite_array, check_callable, check_choice, check_choices, check_flag, check_int, check_int_sequence, check_protocol,
    check_real, check_size, check_table,
)
from ...coresets.iht import STEP_RULES
from ...coresets._common import DEFAULT_MAX_ITER
from ...coresets.evaluation import coreset_kls
from ...coresets.path import PER_K, SOLVERS, available_solvers, coreset_path, register_solver, registered_solvers
from ...coresets.tangent import exact_problem
from ...coresets.refit import nnls_on_support
from ..._random import as_generator, named_stream
from ..methods import label
from ..parallel import run_tasks

__all__ = ["ROUNDOFF_REPLICATES", "ROUNDOFF_SIZE", "always_wins", "conjugate_trial", "roundoff_replicates",
           "run_conjugate_trials", "run_methods", "split_method", "win_counts"]

REFIT_SUFFIX = "_refit"


def split_method(name: str) -> tuple[str, bool]:
    """``"giga_refit"`` -> ``("giga", True)``; ``"giga"`` -> ``("giga", False)``."""
    refit = isinstance(name, str) and name.endswith(REFIT_SUFFIX)
    solver = name[: -len(REFIT_SUFFIX)] if refit else name
    if not isinstance(name, str):
        raise TypeError(f"name (an entry of methods) must be a method name, a string; got {name!r}")
    check_choice("name (an entry of) methods", solver, set(available_solvers()))
    return solver, refit


def run_methods(Phi, y, ks, methods, *, options=None, progress=False) -> dict:
    """Run every method of ``methods`` on ``(Φ, y)`` over the size grid ``ks``.

    ``options``: solver name -> keyword arguments. Returns ``{method: {"ks", "weights",
    "seconds", "results"}}`` (``results``: the :class:`CoresetResult` list of
    :func:`coreset_path`, without the re-fit).
    """
    options = options or {}
    check_flag("progress", progress)
    plan = {name: split_method(name) for name in methods}
    base = {}
    out = {}
    for name, (solver, refit) in plan.items():
        if solver not in base:
            base[solver] = coreset_path(solver, Phi, y, ks, progress=progress, **options.get(solver, {}))
        ks_run, W, secs, results = base[solver]
        if refit:
            W, secs = W.copy(), secs.copy()
            for j, w in enumerate(W):
                t0 = clock()
                W[j] = nnls_on_support(Phi, y, np.flatnonzero(w))
                secs[j] += clock() - t0
        out[name] = {"ks": ks_run, "weights": W, "seconds": secs, "results": results}
    return out


def conjugate_trial(
    model,
    methods,
    ks,
    rng=None,
    *,
    tangent_options=None,
    max_iter: int = DEFAULT_MAX_ITER,
    step: str = "exact",
    sparsevi_steps: int = 100,
    sparsevi_step_scale: float = 1.0,
    sparsevi_gradient: str = "covariance",
    sparsevi_authors_steps: int = 500,
    progress: bool = False,
):
    """One trial on a conjugate ``model`` (:mod:`.models`): exact ``(Φ, y)`` at the true
    posterior (``model.tangent(**tangent_options)``, e.g. ``constant="authors"`` for the
    Gaussian), every method at every size of ``ks``, each coreset evaluated exactly.

    SparseVI's gradient ``Cov_{π_w}[L_a, (1 − w)ᵀL]`` (Campbell & Beronov 2019, Eq. 7) comes,
    with ``sparsevi_gradient="covariance"`` (default), from the exact covariance of the weighted
    posterior ``π_w`` (``model.residual_covariance``; with a ``constant`` among ``tangent_options``, the
    Gaussian's covariance of those tangent vectors, e.g. the authors' row); with ``"tangent"``, from the tangent
    vectors ``Φ_w = model.tangent(w, **tangent_options)`` at ``π_w``, the same construction as
    the other methods' ``Φ`` (e.g. the authors' projected one). ``sparsevi_steps`` weight
    updates per selection with step ``sparsevi_step_scale / t``; the IHT family ``max_iter`` iterations and the
    ``step`` rule (``"exact"`` or the authors' ``"authors"`` half step); Uniform draws from
    ``rng``. The ``sparsevi_authors`` arm is SparseVI as the authors' Fig. 1(a) script
    (``examples/riemann_gaussian/main.py``) runs it: ``sparsevi_authors_steps`` (their 500) updates
    per selection with their schedule ``1/(1 + i)``, ``i = 0, 1, ...`` (our ``1/t``, ``t = i + 1``),
    the same gradient as ``sparsevi``.

    Returns ``(table, runs)``: a tidy table with columns ``method, k, forward_kl,
    reverse_kl, symmetric_kl, map_distance, objective`` (``‖y − Φw‖²``), ``rel_error``,
    ``support, seconds, n_iter`` (iterations of the run at ``k``; greedy: steps to reach
    ``k``) and the :func:`run_methods` output (weights, results with objective traces),
    plus ``runs["_problem"] = (Φ, y)``.
    """
    check_protocol("model", model, "tangent", "residual_covariance", "posterior", what="a conjugate model")
    max_iter, sparsevi_steps = check_int("max_iter", max_iter, low=1), check_int("sparsevi_steps", sparsevi_steps, low=1)
    sparsevi_authors_steps = check_int("sparsevi_authors_steps", sparsevi_authors_steps, low=1)
    check_choice("step", step, STEP_RULES)
    check_flag("progress", progress)
    check_real("sparsevi_step_scale", sparsevi_step_scale, low=0.0, low_open=True)
    check_choice("sparsevi_gradient", sparsevi_gradient, {"covariance", "tangent"})
    tangent_options = dict(tangent_options or {})
    Phi, y = exact_problem(model, **tangent_options)
    rng = as_generator(rng)
    iht_opts = {"max_iter": max_iter, "step": step}
    covariance = (partial(model.residual_covariance, constant=tangent_options["constant"]) if "constant" in tangent_options
                  else model.residual_covariance)
    gradient = ({"covariance": covariance} if sparsevi_gradient == "covariance"
                else {"tangent": partial(model.tangent, **tangent_options)})
    options = {
        "uniform": {"rng": rng},
        "sparsevi": {"n_steps": sparsevi_steps, "step_scale": sparsevi_step_scale} | gradient,
        "sparsevi_authors": {"n_steps": sparsevi_authors_steps, "step_scale": 1.0} | gradient,
        "iht": {"max_iter": max_iter},
        "a_iht": iht_opts,
        "a_iht_ii": iht_opts,
        "a_iht_batch": dict(iht_opts, rng=rng),
    } | added_options(rng)
    runs = run_methods(Phi, y, ks, methods, options=options, progress=progress)
    ynorm2 = float(y @ y)
    frames = []
    for name, run in runs.items():
        W = run["weights"]
        solver, _ = split_method(name)
        if solver in PER_K:
            n_iter = np.array([getattr(r, "n_iter", np.nan) for r in run["results"]])
        else:
            n_iter = np.asarray(run["results"][0].info.get("iter_at_size", np.zeros(len(run["ks"]))))
        f = np.sum((y[:, None] - Phi @ W.T) ** 2, axis=0)
        frames.append(pd.DataFrame({
            "method": name, "k": run["ks"], **coreset_kls(model, W), "objective": f,
            "rel_error": np.sqrt(f / ynorm2), "support": np.count_nonzero(W, axis=1),
            "seconds": run["seconds"], "n_iter": n_iter,
        }))
    runs["_problem"] = (Phi, y)
    return pd.concat(frames, ignore_index=True), runs


def takes_rng(solver) -> bool:
    """Does ``solver`` take a keyword ``rng`` (by name or through ``**kwargs``)?"""
    params = inspect.signature(solver).parameters.values()
    return any(p.name == "rng" and p.kind != p.POSITIONAL_ONLY or p.kind == p.VAR_KEYWORD for p in params)


def added_options(rng) -> dict:
    """``{name: {"rng": stream}}`` for every registered solver that takes ``rng``: its own
    :func:`~inferopt._random.named_stream` of ``rng`` (the draws of the others do not move)."""
    return {name: {"rng": named_stream(rng, name)} for name in registered_solvers() if takes_rng(SOLVERS[name])}


def added_solvers(methods) -> dict:
    """``{name: (solver, per_k)}`` of the registered solvers among ``methods`` (``_refit``
    variants included), for :func:`register_added` in a worker process."""
    used = {split_method(name)[0] for name in methods}
    return {name: (SOLVERS[name], name in PER_K) for name in registered_solvers() if name in used}


def register_added(added: dict) -> None:
    """Register the solvers of :func:`added_solvers` (a worker process has not seen the registration)."""
    for name, (solver, per_k) in added.items():
        register_solver(name, solver, per_k=per_k)


def _conjugate_task(make_model, methods, ks, seed: np.random.SeedSequence, options: dict, added: dict):
    register_added(added)
    rng = np.random.default_rng(seed)
    made = make_model(rng=rng)
    table, runs = conjugate_trial(made[0] if isinstance(made, tuple) else made, methods, ks, rng, **options)
    return made, table, runs


def run_conjugate_trials(make_model, methods, ks, *, seed: int, n_trials: int, n_jobs: int = 1,
                         progress: bool = False, **options) -> list[tuple]:
    """``n_trials`` independent trials: trial ``i`` draws its problem with
    ``make_model(rng=rng_i)`` (a model, or a tuple whose first item is the model, e.g.
    :func:`~inferopt.coresets.make_rbf_regression`'s ``(model, info)``) and runs
    :func:`conjugate_trial` on it with the same ``rng_i`` and ``options``; ``rng_i`` is
    seeded by the ``i``-th :class:`numpy.random.SeedSequence` spawned from ``seed``.

    The trials are tasks of :func:`~inferopt.experiment.parallel.run_tasks` (``n_jobs`` loky
    workers, or a Dask cluster); every trial's draws come from its own seed, so the results do
    not depend on ``n_jobs`` (the timings aside). Registered solvers among ``methods`` are
    registered in the workers too (they must be picklable: module-level functions). ``make_model`` must be picklable (a
    :func:`functools.partial` of a module-level function). Returns one ``(made, table, runs)``
    per trial, in order: ``make_model``'s output and :func:`conjugate_trial`'s.
    """
    check_callable("make_model", make_model)
    ks = check_int_sequence("ks", ks, low=1)
    n_trials = check_size("n_trials", n_trials, item_bytes=8 * 8, item="trial (its seed sequence)")
    check_flag("progress", progress)
    seeds = np.random.SeedSequence(check_int("seed", seed, low=0)).spawn(n_trials)
    task = partial(_conjugate_task, make_model, list(methods), np.asarray(ks), options=options,
                   added=added_solvers(methods))
    return run_tasks(task, [(ss,) for ss in seeds], n_jobs=n_jobs, progress="trials" if progress else False)


#: the relative size of :func:`roundoff_replicates`' perturbation: as much as another BLAS kernel moves an exact ``Φ``.
#: Measured on A3's trials at the paper's size (its ``Φ`` passes through the posterior precision, condition number
#: about 2e7): ``ΦᵀΦ`` differs by 1.5e-11 to 6.6e-11 of ``max |ΦᵀΦ|`` between OpenBLAS's Haswell and SkylakeX kernels,
#: and A-IHT II's coresets at ``k = 300`` on replicates of this size move on the trials where the kernels move them
#: (trial 1: reverse KL 4.3 to 7.8 on four replicates, 4.1 to 7.8 over five kernels) and not on the others
ROUNDOFF_SIZE = 1e-11
#: round-off replicates per trial that A3 reports beside its claims at the largest size
ROUNDOFF_REPLICATES = 3


def roundoff_replicates(Phi, y, method: str, k: int, *, n_replicates: int, rng=None, size: float = ROUNDOFF_SIZE,
                        **options) -> np.ndarray:
    """How much of a coreset is round-off: ``method``'s weights at size ``k`` on ``n_replicates`` copies of the
    problem whose every entry of ``Φ`` and ``y`` is moved by a relative ``size · N(0, 1)`` (drawn from ``rng``): the
    same problem as another BLAS kernel computes it (:data:`ROUNDOFF_SIZE`). A method whose run has converged gives
    the same coreset up to about ``size`` times its conditioning; one whose iterates have not settled (A-IHT II at
    A3's largest sizes after the paper's 300 iterations) may end elsewhere. ``options``: the solver's keyword
    arguments (:func:`~inferopt.coresets.path.coreset_path`, e.g. ``max_iter``, ``step``). Returns the weights,
    shape ``(n_replicates, n)``; the run on the unperturbed problem is the caller's."""
    Phi = as_finite_array("Phi", Phi, ndim=2, nonempty=True)
    y = as_finite_array("y", y, ndim=1)
    if y.shape[0] != Phi.shape[0]:
        raise ValueError(f"y must have length Phi.shape[0] = {Phi.shape[0]}; got {y.shape[0]}")
    solver = check_choice("method (a solver, without re-fit)", method, set(available_solvers()))
    k = check_int("k", k, low=1, high=Phi.shape[1])
    n_replicates = check_size("n_replicates", n_replicates, item_bytes=8 * Phi.shape[1], item="replicate (its weights)")
    size = check_real("size", size, low=0.0, low_open=True, high=1e-6)
    rng = as_generator(rng)
    out = np.empty((n_replicates, Phi.shape[1]))
    for j in range(n_replicates):
        P = np.asfortranarray(Phi * (1.0 + size * rng.standard_normal(Phi.shape)))
        out[j] = coreset_path(solver, P, y * (1.0 + size * rng.standard_normal(y.shape)), [k], **options)[1][0]
    return out


def _check_medians(median, winners, losers) -> tuple[list, list]:
    """A table of medians and two non-empty lists of its columns (methods)."""
    check_table("median", median)
    methods = set(c for c in median.columns if isinstance(c, str))
    return check_choices("winners", winners, methods), check_choices("losers", losers, methods)


def win_counts(median: pd.DataFrame, winners, losers) -> dict:
    """``{"<winner> < <loser>": "<wins>/<rows>"}``: at how many rows (sizes ``k``) of a table of
    medians (one column per method) each winner's value is strictly below each loser's."""
    winners, losers = _check_medians(median, winners, losers)
    return {f"{label(w)} < {label(l)}": f"{int((median[w] < median[l]).sum())}/{len(median)}"
            for w in winners for l in losers}


def always_wins(median: pd.DataFrame, winners, losers) -> bool:
    """Every winner strictly below every loser at every row of a table of medians."""
    winners, losers = _check_medians(median, winners, losers)
    return bool(all((median[w] < median[l]).all() for w in winners for l in losers))
