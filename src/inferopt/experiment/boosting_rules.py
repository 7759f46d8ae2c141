"""The adaptive step rules as the authors' code runs them: the construction ``rules: authors`` of C1-C4 (issue 42).

The authors' ``optim/blr_step_size.py`` (Dresdner et al. 2021) take ``γ = min(g/(L·d), γ_max)`` with
``d = ∫(s − q_t)²``, test sufficient decrease without a Monte-Carlo slack, and on a gap ``≤ 0`` or a failed
search take ``fixed(...)``: a Frank-Wolfe step adding ``s`` with ``2/(t+2)``, for AdaAFW and AdaPFW too
(:data:`~inferopt.boosting.AUTHORS_RULES`). Their ``d`` is a float32 Monte-Carlo estimate that overflows in
100 dimensions (``inf``: every step falls back; ``NaN``: the run stops with an error, and their plotting
script leaves the run out). Two arithmetics of the construction (:data:`DISTANCES`):

* ``'float32'`` -- their arithmetic (:func:`~inferopt.boosting.distance.l2_distance_authors`);
* ``'exact'`` -- ``∫(s − q_t)²`` in closed form, float64 (:func:`~inferopt.boosting.distance.l2_distance`).

:func:`authors_rules` gives the keyword arguments of :func:`~inferopt.experiment.boosting.compare_methods`
for the adaptive rules; :func:`with_rules` puts those runs in place of ours beside the predefined step and
line search of the same replicates; :func:`complete_runs` leaves out the runs that stopped early, as their
plotting script does; :func:`adaptation` says how often each rule adapted and which runs stopped.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import check_choice, check_int, check_real, check_table
from ..boosting.boost import AUTHORS_RULES

#: the rules whose construction differs (the backtracking rules of Alg. 2)
ADAPTIVE = ("adafw", "adaafw", "adapfw")
#: the arithmetic of the authors' distance (module docstring)
DISTANCES = ("exact", "float32")
#: C1's toy script (``toy_random_lmo``'s ``adaptive_fw``): ``γ = 0`` after a failed search or on a negative gap,
#: no ``MIN_GAMMA``, 33 tries (their loop counts a failed try with ``i += 1`` and stops on ``i > adafw_MAXITER``, default
#: 32: MAXITER + 1 tries; 32 here before session 61, one try short), no slack, the distance factor; their ``C_{-1}``, η, τ
#: are C1's own parameters; the draws of their check are :func:`~.boosting.random_lmo_step`'s ``check_draws='authors'``
AUTHORS_TOY_RULES = dict(eps0=0.0, imax=33, min_gamma=0.0, on_ascent="zero", fallback="0", fallback_C="previous")
#: the authors' recorded Fig. 1 (left) command (``mm_run.sh`` at ed9b092 of ratschlab/adaptive-stepsize-boosting-bbvi,
#: commented out): ``--linit_fixed 10 --damping_adafw 0.1 --exp_adafw 2.0 --adafw_MAXITER 10 --distance_metric=kl``;
#: their ``adaptive_fw`` counts a failed try with ``i += 1`` and stops on ``i > MAXITER``: MAXITER + 1 = 11 tries;
#: the distance ``d = KL(s || q_t)`` (:func:`kl_gaussians`, the ``'kl'`` distance of :func:`~.boosting.random_lmo_step`)
AUTHORS_TOY_COMMAND = dict(C0=10.0, eta=0.1, tau=2.0, imax=11)


def kl_gaussians(s, q) -> float:
    """``KL(s || q)`` of two diagonal Gaussian components in closed form: ``Σ_i log(σ_q/σ_s) + (σ_s² + (μ_s − μ_q)²)
    / (2 σ_q²) − 1/2``, what the authors' ``divergence(s_t, q_t, metric='kl')`` of their toy script estimates, where
    ``q_t = q_1`` is one Gaussian. Their TensorFlow ``kl_divergence`` dispatches Edward's random variables to their
    registered ``optim/utils._kl_monte_carlo`` (the pair ``(RandomVariable, RandomVariable)`` lies nearer in both classes'
    method orders than TensorFlow's closed form for two normals): an unbiased 1000-draw estimate of this value; here it
    is exact (a named departure)."""
    for name, c in (("s", s), ("q", q)):
        if getattr(getattr(c, "family", None), "name", None) != "gaussian":
            raise TypeError(f"{name} must be a Gaussian Component, got {type(c).__name__}")
    if s.loc.shape != q.loc.shape:
        raise ValueError(f"s and q must have one dimension, got {s.loc.size} and {q.loc.size}")
    ratio = np.exp(2.0 * (s.log_scale - q.log_scale))
    return float(np.sum(q.log_scale - s.log_scale + 0.5 * (ratio + (s.loc - q.loc) ** 2 * np.exp(-2.0 * q.log_scale)) - 0.5))


def authors_rules(distance: str, *, toy: bool = False) -> dict:
    """Keyword arguments that make the adaptive rules the authors' (their logistic-regression code, or with
    ``toy`` their Fig. 1 (left) script), with their distance in the arithmetic ``distance``."""
    check_choice("distance", distance, DISTANCES)
    return {**(AUTHORS_TOY_RULES if toy else AUTHORS_RULES), "distance": distance}


def with_rules(records: pd.DataFrame, other: pd.DataFrame, rules=ADAPTIVE) -> pd.DataFrame:
    """``records`` with the runs of ``other``'s rules replaced by ``other``'s (another construction of the same
    rules, run on the same replicate seeds); ``rules``, the rules such a construction may hold: the adaptive ones (the
    predefined step and line search do not depend on how the adaptive rules are built, so they are shared), or with
    line search too (common draws within each step change its derivative's draws)."""
    check_table("records", records, ("method", "replicate", "iteration"))
    check_table("other", other, ("method", "replicate", "iteration"))
    extra = sorted(set(other.method) - set(rules))
    if extra:
        raise ValueError(f"other must hold the rules {tuple(rules)} only; got {extra}")
    if set(other.replicate) != set(records.replicate):
        raise ValueError(f"other's replicates {sorted(set(other.replicate))} differ from records' "
                         f"{sorted(set(records.replicate))}: run both on the same seeds")
    kept = records[~records.method.isin(other.method.unique())]
    return pd.concat([kept, other], ignore_index=True)


def complete_runs(records: pd.DataFrame, max_iter: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(kept, dropped)``: the records of the runs that reached ``max_iter``, and one row per run that
    stopped early (``method``, ``replicate``, ``last_iteration``) -- the runs the authors' plotting script
    leaves out without a word."""
    check_table("records", records, ("method", "replicate", "iteration"))
    max_iter = check_int("max_iter", max_iter, low=1)
    last = records.groupby(["method", "replicate"]).iteration.max().rename("last_iteration").reset_index()
    dropped = last[last.last_iteration < max_iter].reset_index(drop=True)
    keys = set(zip(dropped.method, dropped.replicate))
    mask = np.array([(m, r) not in keys for m, r in zip(records.method, records.replicate)], dtype=bool)
    return records[mask].reset_index(drop=True), dropped


def adaptation(records: pd.DataFrame, max_iter: int, *, threshold: float = 1e-6) -> dict:
    """Per adaptive rule in ``records``: how often it adapted. ``steps`` taken; ``adapted`` the share of steps
    whose sufficient-decrease test passed (not ``'fallback'``); ``moved`` the share that passed with a step
    ``γ > threshold`` (a step that changes the mixture); ``fallback`` the share that fell back; ``runs``,
    ``stopped`` (runs that ended before ``max_iter``, as a NaN distance ends the authors') and ``stopped_at``
    (their last iterations, sorted)."""
    check_table("records", records, ("method", "replicate", "iteration", "gamma", "step_type"))
    threshold = check_real("threshold", threshold, low=0.0)
    _, dropped = complete_runs(records, max_iter)
    out = {}
    for method in [m for m in ADAPTIVE if m in set(records.method)]:
        rec = records[(records.method == method) & (records.iteration >= 1)]
        fell = rec.step_type == "fallback"
        stopped = dropped[dropped.method == method]
        out[method] = {"steps": int(len(rec)),
                       "adapted": float((~fell).mean()) if len(rec) else float("nan"),
                       "moved": float((~fell & (rec.gamma > threshold)).mean()) if len(rec) else float("nan"),
                       "fallback": float(fell.mean()) if len(rec) else float("nan"),
                       "runs": int(records[records.method == method].replicate.nunique()),
                       "stopped": int(len(stopped)), "stopped_at": sorted(int(t) for t in stopped.last_iteration)}
    return out
