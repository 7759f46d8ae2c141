"""D3's claims (Fig. 2(a)-(b), Sec. 5.1 of Han, Avron & Shin 2018) as the notebook records them: each claim's test,
its text with the numbers that explain its verdict, its measured values, threshold readings and diagnosis.

The paper states, of matrix completion on MovieLens 1M and 10M (Sec. 5.1, Fig. 2(a)-(b)):

* D3.1 "SGD-DET performs badly due to its biased gradient estimators" (:func:`d31_claim`);
* D3.2 "SGD converges much faster and outperforms GD" (:func:`d32_claim`);
* D3.3 "SVRG is the fastest one, e.g., compared to GD, about 2 times faster" (:func:`d33_claim`);
* D3.4 "the gap between SVRG and GD is expected to increase for larger datasets" (:func:`d34_claim`).

Every builder takes what the runs measured (:class:`D3Runs`) and returns the keyword arguments of
:meth:`~inferopt.experiment.record.Experiment.claim`: ``exp.claim(**d32_claim(runs, ...))``. The tests themselves are
:mod:`.completion`'s (``d31_test`` ... ``d34_growth``); the verdict map's cells :mod:`.completion_map`'s; a failure
that no decisive cell rescues is blamed on the stand-in (MovieLens 100K for 1M/10M) with the measured difference, the
exact / stochastic gradient cost ratio against the size (:func:`cost_trend`, :func:`stand_in_32`,
:func:`stand_in_33`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pandas as pd

from ..._validation import check_callable, check_choice, check_choices, check_int, check_real, check_table
from ..claims import MIN_SWEEP, Unearned, readings
from .completion import (D32_PAIRS, D33_PAIRS, METHODS, MIN_MAP_SEEDS, ahead, completion_diagnosis, comparison_bases, convergence_gap,
                         d31_reading, d31_test, d32_test, d33_test, d34_growth, d34_test, horizon, late_progress, reach_text, sgd_det_gap,
                         share_key, speedup)
from .completion_map import NO_AUTHORS, claim_tests, supported

#: D3.3's factor: SVRG at least this many times faster than GD where both are read by their times ("about 2 times")
D33_FACTOR = 1.5

#: the earlier paper-scale run on a synthetic matrix of MovieLens 1M's shape, why no such matrix is run now
NO_SYNTH = ("No matrix of the paper's size is run: on the synthetic 3,706 x 6,040 matrix of the earlier paper-scale run no arm moved "
            "within 50 s (GD took 4 exact steps; every arm ended between test RMSE 3.06 and 3.61 from about 3.7), so it decided nothing.")

#: what a time to a target is in D3 (:func:`~.targets.stays_below`)
STAY = "a time to a target is the first time after which the run stays at or below it through the budget"

#: how D3.2 and D3.3 read a pair of methods (:func:`~.completion.pair_basis`)
READING = ("each pair of methods read by its median times to the target where at least one of the two reaches it within the common "
           "budget, else at equal time, by its median test RMSE at the end of the budget (the paper's axis)")

_VERDICT = {True: "holds", False: "fails", None: "not measured"}
_SHARE_UNIT = "share of the way from the training mean's test RMSE to the model optimum's"


def _runs(table, *columns) -> pd.DataFrame:
    return check_table("table", table, ("dataset", "method", "seed", *columns))


def _member(param: str, value, table, column: str) -> str:
    return check_choice(param, value, {str(v) for v in pd.unique(table[column])})


def median_of(table: pd.DataFrame, name: str, method: str, column: str) -> float:
    """The median of ``column`` over the runs of ``method`` on ``name`` in ``table`` (:func:`~.completion.run_table`)."""
    check_table("table", table, ("dataset", "method", column))
    rows = table.loc[(table.dataset == name) & (table.method == method), column]
    if rows.empty:
        raise ValueError(f"table has no run of method {method!r} on name {name!r}")
    return float(rows.median())


def run_summary(table: pd.DataFrame, reading: str) -> pd.DataFrame:
    """The median run of every (dataset, method) of ``table`` (:func:`~.completion.run_table` with work columns): its
    final, mean and objective values, steps, work, time and work to the target ``reading``, zero-degree share."""
    cols = ["final RMSE", "mean RMSE", "final objective", "iterations", "exact gradients", "mat-vecs", f"time to {reading}",
            f"exact gradients to {reading}", f"mat-vecs to {reading}", "zero-degree share"]
    return _runs(table, *cols).groupby(["dataset", "method"])[cols].median()


def ratio_text(table: pd.DataFrame, name: str, budget, reading: str) -> str:
    """The GD / SVRG ratio of the median times to the target ``reading`` on ``name`` (:func:`~.completion.speedup`),
    as a claim prints it: ``">= r"`` a lower bound (GD censored at ``budget``, None: the longest run's time),
    ``"neither reached"`` where neither reaches it."""
    _member("name", name, _runs(table, "total time"), "dataset")
    budget = horizon(table, name) if budget is None else check_real("budget", budget, low=0.0, low_open=True)
    r_, kind = speedup(table, name, reading, budget)
    return f"{'>= ' if kind == 'at least' else ''}{r_:.3g}" if kind != "neither" else "neither reached"


def basis_text(table: pd.DataFrame, name: str, fast: str, slow: str, basis: str, reading: str, budget) -> str:
    """Which reading decided ``fast`` against ``slow`` on ``name`` (``basis``, :func:`~.completion.pair_basis`), with its
    numbers: their median times to the target ``reading``, or their median test RMSE at the end of the common
    ``budget`` (CPU seconds; None: the runs' iteration budgets)."""
    from .completion import BASES

    check_choice("basis", basis, BASES)
    _member("name", name, _runs(table, "final RMSE", f"time to {reading}"), "dataset")
    _member("fast", fast, table, "method")
    _member("slow", slow, table, "method")
    if basis == BASES[0]:
        return (f"{fast} against {slow} by the median times to the target (one of them reaches it): {fast} "
                f"{median_of(table, name, fast, f'time to {reading}'):.3g} s, {slow} {median_of(table, name, slow, f'time to {reading}'):.3g} s "
                "(inf: not reached)")
    within = "within the runs' iteration budgets" if budget is None else \
        f"within the common budget, {check_real('budget', budget, low=0.0, low_open=True):.3g} CPU s"
    return (f"{fast} against {slow} at equal time (neither reaches the target {within}): "
            f"median test RMSE at its end {fast} {median_of(table, name, fast, 'final RMSE'):.4f}, {slow} {median_of(table, name, slow, 'final RMSE'):.4f}")


def decided(test, table: pd.DataFrame, diagnosis=None) -> dict:
    """A claim decided by ``test`` (a function of a table of runs: True, False or None) on ``table`` over its seeds, as
    :meth:`~inferopt.experiment.record.Experiment.claim` takes it: ``test``, ``table``, ``by="seed"`` and ``diagnosis``;
    ``holds=None`` (not measured) and no diagnosis where ``test`` on ``table`` is not measured."""
    check_callable("test", test)
    check_table("table", table, ("seed",))
    if test(table) is None:
        return dict(holds=None)
    return dict(test=lambda t: test(t) is True, table=table, by="seed") | ({} if diagnosis is None else dict(diagnosis=diagnosis))


def made(table: pd.DataFrame, name: str, method: str, optimum: float, trivial: float) -> float:
    """The share of the way from the training mean's test RMSE (``trivial``) to the model optimum's (``optimum``) that
    ``method``'s median run made on ``name`` by the end of the budget (``1 -`` :func:`~.completion.convergence_gap`'s
    share of the lead): 1 at the optimum, 0 no better than the mean."""
    _member("name", name, _runs(table, "final RMSE"), "dataset")
    rows = table[table.dataset == name]
    _member("method", method, rows, "method")
    return 1.0 - float(convergence_gap(rows, optimum, trivial).loc[method, "share of the lead"])


def map_text(kept, worse, budgets: dict, *, n_seeds: int, map_seeds: int) -> str:
    """The verdict map in a sentence: the chosen cell (the main runs, ``n_seeds`` seeds), the ``kept`` cells' labels with
    their pilots and budgets (``budgets``: :func:`~.completion_map.map_budgets`), their ``map_seeds`` seeds, shown
    undecided below what decides (:data:`~.completion.MIN_MAP_SEEDS`, or the main runs' count), and the ``worse`` cells
    dropped (:func:`~.completion_map.split_by_quality`)."""
    if isinstance(kept, str | bytes) or not hasattr(kept, "__iter__"):
        raise TypeError(f"kept must be the map's kept cells (labels); got {kept!r}")
    if not isinstance(budgets, dict) or not {"budget", "iters", "tune"} <= set(budgets):
        raise TypeError(f"budgets must be map_budgets' {{'budget', 'iters', 'tune'}}; got {budgets!r}")
    n_seeds, map_seeds = check_int("n_seeds", n_seeds, low=1), check_int("map_seeds", map_seeds, low=1)
    worse = list(worse)
    for w in worse:
        if not isinstance(w, dict) or not {"eps", "lam"} <= set(w):
            raise ValueError(f"worse must list {{'dataset', 'eps', 'lam'}} settings; got {w!r}")
    dropped = ("" if not worse else " Dropped from the map, both sides: " + "; ".join(f"eps {w['eps']:g}, lam {w['lam']:g}" for w in worse)
               + ", where the model's optimum predicts the validation ratings worse than the training mean.")
    few = map_seeds < min(MIN_MAP_SEEDS, n_seeds)
    tune, budget, iters = budgets["tune"], budgets["budget"], budgets["iters"]
    return (f"The map: the chosen cell is the main runs ({n_seeds} seeds); " + ", ".join(k for k in kept) + " re-tune each arm's step on the "
            "validation split" + ("" if tune is None else f" (pilots of {tune:.3g} CPU s)") + f" and run {map_seeds} seeds at "
            + (f"{budget:.3g} CPU s" if budget is not None else f"{iters} steps")
            + ", GD's time to the target in the main cell (at least map_budget, at most the budget); a cell decides (a rescue, or a cell of a "
            f"sweep) only with at least {MIN_MAP_SEEDS} seeds, or as many as the main runs, and bootstrap support of 90 %"
            + (f": with {map_seeds} seeds these cells are shown undecided, what they measured beside." if few else ".") + dropped)


def pick_text(grid: pd.DataFrame, eps: float, lam: float, rule: str) -> str:
    """Which cell the regime's ``rule`` picked (``eps``, ``lam``) and why, from the regime's ``grid``
    (:func:`~.regime.select_regime`'s table with ``b/a at the optimum`` and ``q0 at N``): under the one-SE rule, the
    best-validation cell beside it (the map's ε below the chosen one reads the claims toward it)."""
    from .regime import RULES

    check_table("grid", grid, ("eps", "lam", "validation RMSE", "validation SE", "b/a at the optimum", "q0 at N"))
    check_choice("rule", rule, RULES)
    eps, lam = check_real("eps", eps, low=0.0, low_open=True), check_real("lam", lam, low=0.0, low_open=True)
    picked = grid[(grid.eps == eps) & (grid.lam == lam)]
    if picked.empty:
        raise ValueError(f"grid has no cell eps = {eps:g}, lam = {lam:g}")
    picked, best = picked.iloc[0], grid.loc[grid["validation RMSE"].idxmin()]
    return (f"The regime: the {rule} rule picked eps = {eps:g}, lam = {lam:g} (validation RMSE {picked['validation RMSE']:.4f}, b/a at "
            f"its optimum {picked['b/a at the optimum']:.3g}, q0 {picked['q0 at N']:.2f})"
            + ("" if rule != "one-se" else f", the largest eps within one standard error of the best cell, eps = {best['eps']:g}, lam = "
               f"{best['lam']:g} ({best['validation RMSE']:.4f} +- {best['validation SE']:.4f}; b/a {best['b/a at the optimum']:.3g}, q0 "
               f"{best['q0 at N']:.2f}): the smoothest model the validation ratings cannot tell from the best, and the better-conditioned one")
            + "; the map's eps below it reads the claims toward the best-validation cell.")


def far_text(table: pd.DataFrame, name: str, optimum: float, trivial: float, methods=METHODS) -> str:
    """How far from the model's optimum each of ``methods`` stops on ``name``: its median final test RMSE and the share
    of the optimum's lead over the training mean (``trivial - optimum``) still to go (:func:`~.completion.convergence_gap`)."""
    _member("name", name, _runs(table, "final RMSE"), "dataset")
    gaps = convergence_gap(table[table.dataset == name], optimum, trivial)
    methods = check_choices("methods", methods, set(gaps.index))
    return (f"How far from the optimum: the model's optimum has test RMSE {optimum:.3f}, the training mean {trivial:.3f}; at the end of the "
            "budget " + ", ".join(f"{m} {gaps.loc[m, 'median final RMSE']:.3f} ({gaps.loc[m, 'share of the lead']:.2f} of the optimum's lead "
                                  "over the mean still to go)" for m in methods) + ".")


def steps_text(factors: dict, edges: dict, *, step_factors, step_ratio: float, step_extend: int, methods=METHODS) -> str:
    """How each arm's step was tuned (:func:`~.completion_steps.tune_steps`: ``c`` in ``step_factors``, the grid extended
    by ``step_ratio`` beyond an edge up to ``step_extend`` times) and what it chose: ``factors[arm]``, with the grid
    edge it sits at (``edges[arm]``, :func:`~.completion.grid_edge`)."""
    if not isinstance(factors, dict) or not isinstance(edges, dict):
        raise TypeError("factors and edges must be mappings arm -> step factor / grid edge")
    methods = check_choices("methods", methods, set(factors) & set(edges))
    if isinstance(step_factors, str | bytes) or not hasattr(step_factors, "__iter__"):
        raise TypeError(f"step_factors must be a list of step factors; got {step_factors!r}")
    for f_ in step_factors:
        check_real("step_factors (an entry of)", f_, low=0.0, low_open=True)
    step_ratio = check_real("step_ratio", step_ratio, low=1.0, low_open=True)
    step_extend = check_int("step_extend", step_extend, low=0)
    return (f"Each arm's initial step c/L tuned on the validation split (c in {list(step_factors)}, the grid extended by {step_ratio:g}x "
            f"beyond an edge the chosen c sits at, up to {step_extend} times; least validation RMSE at the pilot's end): "
            + ", ".join(f"{m} {factors[m]:g}" + (f" (at the grid's {edges[m]} edge)" if edges[m] else "") for m in methods) + ".")


def cost_trend(cost: dict, *, reference: str, synthetic: str, exponent: float, predicted: float, M: int, N: int) -> dict:
    """The stand-in's measured difference from the paper's data: the exact / stochastic gradient CPU cost ratio
    (``cost``: ``{dataset: {"ratio", "shape", ...}}``, :func:`~.work.gradient_seconds`, at every size run and on the
    ``synthetic`` matrix of MovieLens 1M's shape), its power law in d x r through the sizes run (``exponent``, ``predicted``
    at the synthetic shape, :func:`~.work.size_trend`). Decides in words whether the ratio grows with the size.

    Returns ``{"text", "gain", "evidence", "entries", "synthetic", "shape"}``: the sentence; how many times as many
    stochastic steps one exact step buys at 1M's shape as on ``reference`` (``gain``); the evidence a ``stand-in`` diagnosis
    carries; each matrix's entries d x r; the synthetic matrix's name and shape."""
    if not isinstance(cost, dict) or not cost:
        raise TypeError("cost must be a non-empty mapping dataset -> {'ratio', 'shape'} (gradient_seconds)")
    for n, c in cost.items():
        if not isinstance(c, dict) or not {"ratio", "shape"} <= set(c) or len(c["shape"]) != 2:
            raise ValueError(f"cost[{n!r}] must hold the cost 'ratio' and the matrix 'shape' (d, r); got {c!r}")
        check_real(f"cost[{n!r}]['ratio']", c["ratio"], low=0.0, low_open=True)
    check_choice("reference", reference, set(cost))
    check_choice("synthetic", synthetic, set(cost))
    exponent, predicted = check_real("exponent", exponent), check_real("predicted", predicted)
    M, N = check_int("M", M, low=1), check_int("N", N, low=1)
    shape = tuple(cost[synthetic]["shape"])
    listed = "; ".join(f"{n}" + ("" if n == synthetic else f" {cost[n]['shape'][0]} x {cost[n]['shape'][1]}") + f": {cost[n]['ratio']:.2f}"
                       for n in cost)
    gain = cost[synthetic]["ratio"] / cost[reference]["ratio"]
    text = (f"The exact / stochastic gradient cost ratio (CPU seconds of one exact gradient, GD's step and SVRG's snapshot, over one "
            f"stochastic one, M = {M} probes at degree N = {N}) {'grows' if exponent > 0 else 'does not grow'} with the size: {listed}; a power "
            f"law in d x r through the sizes run (exponent {exponent:.2f}) predicts {predicted:.1f} at {shape[0]} x {shape[1]} (MovieLens 1M's "
            f"shape, scaled as the stand-in is), measured there {cost[synthetic]['ratio']:.1f} on synthetic ratings of 1M's density: at the "
            f"paper's size one exact step buys about {gain:.1f}x as many stochastic steps as on {reference}.")
    evidence = {"exact / stochastic gradient CPU seconds": {n: c["ratio"] for n, c in cost.items()},
                "shapes": {n: c["shape"] for n, c in cost.items()}, "cost ratio exponent in d x r (sizes run)": exponent,
                "cost ratio predicted at 1M's shape": predicted}
    return {"text": text, "gain": gain, "evidence": evidence, "entries": {n: c["shape"][0] * c["shape"][1] for n, c in cost.items()},
            "synthetic": synthetic, "shape": shape}


def _trend(trend) -> dict:
    if not isinstance(trend, dict) or not {"text", "gain", "evidence", "entries", "synthetic", "shape"} <= set(trend):
        raise TypeError("trend must be cost_trend's {'text', 'gain', 'evidence', 'entries', 'synthetic', 'shape'}")
    return trend


@dataclass
class D3Runs:
    """What D3's runs measured, the inputs every D3 claim reads.

    ``table``: every run on every size (:func:`~.completion.run_table` with work columns and ``final objective``);
    ``ref`` the whole matrix; ``reading`` the judged target (a share of the way from the training mean's test RMSE to
    the model optimum's, :func:`~.completion.deepest_reached`); ``common`` ``{dataset: common budget (CPU s) or None}``;
    ``trivial`` and ``optimum`` ``{dataset: the training mean's / the model optimum's test RMSE}``; ``targets``
    ``{dataset: {reading: target RMSE}}``; ``sizes`` ``{dataset: share of the matrix}``; ``shapes`` ``{dataset: (d, r)}``;
    ``factors`` and ``edges`` ``{dataset: {arm: step factor / grid edge}}`` (:func:`~.completion_steps.tune_steps`);
    ``n_seeds`` and ``seed`` of the runs; ``mean`` the training mean the ratings are centred on; ``shares`` the target
    shares read; ``target_share`` and ``target_rmse`` the paper's targets; ``budget`` the whole matrix's CPU budget
    (None: iteration budgets)."""

    table: pd.DataFrame
    ref: str
    reading: str
    common: dict
    trivial: dict
    optimum: dict
    targets: dict
    sizes: dict
    shapes: dict
    factors: dict
    edges: dict
    n_seeds: int
    seed: int
    mean: float
    shares: list
    target_share: float
    target_rmse: float
    budget: float | None = None
    _summary: pd.DataFrame | None = field(default=None, init=False, repr=False)

    def __post_init__(self):
        _runs(self.table, "final RMSE", "total time", "iterations", f"time to {self.reading}")
        names = {str(v) for v in pd.unique(self.table.dataset)}
        check_choice("ref", self.ref, names)
        for param in ("common", "trivial", "optimum", "targets", "sizes", "shapes", "factors", "edges"):
            value = getattr(self, param)
            if not isinstance(value, dict):
                raise TypeError(f"{param} must be a mapping dataset -> value; got {type(value).__name__}")
            missing = sorted(names - set(value))
            if missing:
                raise ValueError(f"{param} must hold every dataset of the table; missing {missing}")
        for n in names:
            check_real(f"sizes[{n!r}]", self.sizes[n], low=0.0, low_open=True, high=1.0)
        self.n_seeds = check_int("n_seeds", self.n_seeds, low=1)
        self.seed = check_int("seed", self.seed, low=0)
        self.mean = check_real("mean", self.mean)
        if isinstance(self.shares, str | bytes) or not hasattr(self.shares, "__iter__") or not list(self.shares):
            raise TypeError(f"shares must be a non-empty list of target shares; got {self.shares!r}")
        self.shares = [check_real("shares (an entry of)", s, low=0.0, low_open=True) for s in self.shares]
        self.target_share = check_real("target_share", self.target_share, low=0.0, low_open=True)
        self.target_rmse = check_real("target_rmse", self.target_rmse, low=0.0, low_open=True)
        if self.budget is not None:
            self.budget = check_real("budget", self.budget, low=0.0, low_open=True)

    # ------------------------------------------------------------------ what the claims read, derived from the runs
    @property
    def main(self) -> pd.DataFrame:
        """The runs on the whole matrix."""
        return self.table[self.table.dataset == self.ref]

    @property
    def order(self) -> list:
        """The sizes run, smaller first."""
        return sorted(self.sizes, key=self.sizes.get)

    @property
    def summary(self) -> pd.DataFrame:
        """:func:`run_summary` of the table at the judged target."""
        if self._summary is None:
            self._summary = run_summary(self.table, self.reading)
        return self._summary

    def median(self, name: str, method: str, column: str) -> float:
        return median_of(self.table, name, method, column)

    @property
    def absolute(self) -> str:
        """The absolute target's reading, ``RMSE <target_rmse>``."""
        return f"RMSE {self.target_rmse:g}"

    @property
    def absolute_met(self) -> bool:
        """Centred, the start is the training mean: an absolute target at or above its test RMSE is met at time 0."""
        return self.target_rmse >= self.trivial[self.ref]

    @property
    def reads(self) -> list:
        """The readings beside the judged one: every share, and the absolute target unless met at the start."""
        return [share_key(s) for s in self.shares] + ([] if self.absolute_met else [self.absolute])

    def bases(self) -> dict:
        """D3.2's and D3.3's readings (time to target or equal time) fixed on the whole matrix's runs, as the metrics
        record them: ``{"D3.2", "D3.3 GD", "D3.3 SGD"}``."""
        b32, b33 = comparison_bases(self.main, self.reading, D32_PAIRS), comparison_bases(self.main, self.reading, D33_PAIRS)
        return {"D3.2": b32[self.ref, "SGD", "GD"], "D3.3 GD": b33[self.ref, "SVRG", "GD"], "D3.3 SGD": b33[self.ref, "SVRG", "SGD"]}

    def d31(self) -> dict:
        """D3.1's reading on the whole matrix (:func:`~.completion.d31_reading`)."""
        return d31_reading(self.main, self.ref)

    def late(self) -> dict:
        """Each arm's share of the way made in the budget's second half (:func:`~.completion.late_progress`)."""
        return late_progress(self.main, self.ref, self.trivial[self.ref], self.optimum[self.ref])

    def made(self, name: str, method: str) -> float:
        """:func:`made` on ``name``, against its own training mean and optimum."""
        return made(self.table, name, method, self.optimum[name], self.trivial[name])

    def not_reached(self, name: str) -> str:
        """Where each method on ``name`` stands against the target when the budget ends (:func:`~.completion.reach_text`)."""
        return reach_text(self.table, name, self.reading, self.optimum[name], self.trivial[name], self.common[name])

    # ------------------------------------------------------------------ the sentences and values the claims share
    def centred(self) -> str:
        return (f"The ratings are centred on the training mean {self.mean:.3f} (the box [-mean, 5 - mean]): every run starts at the "
                "training-mean predictor.")

    def seeds(self) -> str:
        return f"Support: bootstrap over {self.n_seeds} seeds of each randomised method (GD is deterministic)."

    def far(self) -> str:
        return far_text(self.table, self.ref, self.optimum[self.ref], self.trivial[self.ref])

    def target(self) -> str:
        """The judged target in words, with the paper's targets it translates."""
        ref, key = self.ref, self.reading
        return (f"target: test RMSE {key} of the way from the start's, the training mean's {self.trivial[ref]:.4f}, to the model optimum's "
                f"{self.optimum[ref]:.4f}: {self.targets[ref][key]:.4f} (the paper's RMSE 1.5 on 1M lies {self.target_share:g} of the way from "
                f"its start to its training mean, its 1.8 on 10M 0.72; centred, the start is the mean: the same shares of the way to the "
                f"optimum; the deepest of the two that some arm reaches within the budget is judged, {self.target_share:g} if none does); {STAY}")

    def rmses(self) -> dict:
        ref = self.ref
        return {f"median final test RMSE {m}": float(self.summary.loc[(ref, m), "final RMSE"]) for m in METHODS} | {
            "training-mean test RMSE": self.trivial[ref], "optimum test RMSE": self.optimum[ref]}

    def step_factors(self) -> dict:
        ref = self.ref
        return {f"step factor {m}": self.factors[ref][m] for m in METHODS} | {
            f"chosen step at grid edge {m}": self.edges[ref][m] or "no" for m in METHODS}

    def times(self) -> dict:
        return {f"median time to {r_} {m} (s)": self.median(self.ref, m, f"time to {r_}") for r_ in self.reads for m in METHODS}

    def work(self) -> dict:
        return {f"median {w} to target {m}": float(self.summary.loc[(self.ref, m), f"{w} to {self.reading}"]) for m in ("GD", "SGD", "SVRG")
                for w in ("exact gradients", "mat-vecs")}


def _runs_of(runs) -> D3Runs:
    if not isinstance(runs, D3Runs):
        raise TypeError(f"runs must be a D3Runs (what D3's runs measured); got {type(runs).__name__}")
    return runs


def _mapped(map_cells, chosen, worse, claim: str) -> tuple:
    """The verdict map's cells of ``claim`` and :func:`~.completion.completion_diagnosis`'s keywords."""
    if not isinstance(map_cells, dict) or claim not in map_cells:
        raise ValueError(f"map_cells must map each claim to its cells (verdict_map); {claim} is missing")
    if not isinstance(chosen, dict) or not chosen:
        raise TypeError(f"chosen must be the chosen setting {{'dataset', 'eps', 'lam'}}; got {chosen!r}")
    return map_cells[claim], dict(no_authors_construction=NO_AUTHORS, chosen=chosen, worse_than_mean=list(worse))


def _sentence(name: str, value) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty sentence; got {value!r}")
    return value


def d31_claim(runs: D3Runs, *, regime: dict, eps: float, lam: float, conditioning: dict, pick: str, steps: str, map_text: str,
              map_cells: dict, chosen: dict, worse) -> dict:
    """D3.1, "SGD-DET performs badly due to its biased gradient estimators", read at equal time (the paper's axis) on the
    whole matrix: SGD-DET's median final test RMSE above SGD's and SVRG's by more than the seeds' spread holds, ahead of
    either by more than that fails, within it undecided (:func:`~.completion.d31_reading`; then inconclusive with its
    second-half progress, :func:`~.completion.late_progress`, beside). Its diagnosis where it fails: the verdict map
    (``map_cells``, ``chosen``, ``worse``). ``regime``, ``eps``, ``lam``, ``conditioning``: the regime's values recorded
    beside; ``pick``, ``steps``, ``map_text``: :func:`pick_text`, :func:`steps_text`, :func:`map_text`.
    Returns :meth:`~inferopt.experiment.record.Experiment.claim`'s keyword arguments."""
    runs = _runs_of(runs)
    if not isinstance(regime, dict) or not isinstance(conditioning, dict):
        raise TypeError("regime and conditioning must be mappings name -> value")
    eps, lam = check_real("eps", eps, low=0.0, low_open=True), check_real("lam", lam, low=0.0, low_open=True)
    pick, steps, map_text = _sentence("pick", pick), _sentence("steps", steps), _sentence("map_text", map_text)
    cells, mapped = _mapped(map_cells, chosen, worse, "D3.1")
    ref, main = runs.ref, runs.main
    r31, late = runs.d31(), runs.late()
    spread = (f"SGD-DET's median final test RMSE minus SGD's {r31['gap SGD']:+.4f} (spread {r31['spread SGD']:.4f}), minus SVRG's "
              f"{r31['gap SVRG']:+.4f} (spread {r31['spread SVRG']:.4f})")
    stall = (f"Where the bias would show: in the budget's second half SGD-DET made {late['SGD-DET']:.3f} of the way from the training mean's "
             f"test RMSE to the optimum's, SGD {late['SGD']:.3f}, SVRG {late['SVRG']:.3f} (near zero: levelled off, as a biased method at its "
             "biased fixed point)")
    why = None if r31["outcome"] is not None else (
        f"the gaps lie within the seed-to-seed spread ({spread}); what would decide it: a budget at which SGD-DET levels off at its biased "
        f"fixed point while SGD still improves (second-half progress: SGD-DET {late['SGD-DET']:.3f}, SGD {late['SGD']:.3f} of the way), "
        "or more seeds")
    regime_ = dict(regime) | {"training-mean test RMSE": runs.trivial[ref], "eps": eps, "lam": lam} | {
        f"median final objective {m}": float(runs.summary.loc[(ref, m), "final objective"]) for m in METHODS}
    gaps = convergence_gap(main, runs.optimum[ref], runs.trivial[ref])
    lead = {f"share of the lead still to go {m}": float(gaps.loc[m, "share of the lead"]) for m in METHODS}
    zero = {"median zero-degree share of SGD's draws": float(runs.summary.loc[(ref, "SGD"), "zero-degree share"])}
    return dict(
        id="D3.1",
        text=(f"SGD-DET performs badly: at the end of the common time budget (equal time, the paper's axis) its median test RMSE on {ref} "
              f"{tuple(runs.shapes[ref])} is above SGD's and SVRG's by more than the seed-to-seed spread (the larger of the two arms' ranges "
              f"of final test RMSE over their seeds); ahead of either by more than that fails; a gap within the spread is undecided. "
              f"{spread}. {stall}. " + ("" if why is None else f"Undecided: {why}. ")
              + f"{pick} {runs.centred()} {steps} {runs.far()} {map_text} {runs.seeds()}"),
        test=lambda t: d31_test(t) is True, table=main, by="seed",
        measured={"SGD-DET minus worse of SGD, SVRG (final test RMSE)": sgd_det_gap(main, ref)}
        | {f"SGD-DET {k} (final test RMSE)": v for k, v in r31.items() if k != "outcome"}
        | {f"second-half share of the way {m}": v for m, v in late.items()} | runs.rmses() | runs.step_factors() | lead | regime_
        | dict(conditioning) | zero,
        diagnosis=Unearned(why, {"reading": r31}) if why else completion_diagnosis(
            cells, "SGD-DET's final test RMSE against SGD's and SVRG's, beyond the seeds' spread, across the map; where b/a is large the "
            "optimal distribution draws degree 0 most of the time (q0) and SGD barely moves.", **mapped))


def stand_in_32(runs: D3Runs, trend: dict) -> dict:
    """D3.2's stand-in evidence (``{"text", "evidence"}``, :func:`~.completion.completion_diagnosis`'s ``stand_in``): the
    cost ratio's trend with the size (``trend``, :func:`cost_trend`), SGD's and GD's share of the way made at every size
    SGD ran, and the power of the test: what it decides (SGD reaching the target before GD; at equal time, differences
    beyond SGD's seed range) and what it cannot (an effect needing more stochastic steps per exact one than the
    stand-in's cost ratio buys)."""
    runs, trend = _runs_of(runs), _trend(trend)
    ref, main, key = runs.ref, runs.main, runs.reading
    sizes = [n for n in runs.order if ((runs.table.dataset == n) & (runs.table.method == "SGD")).any()]
    made_at = "; ".join(f"{n}: SGD {runs.made(n, 'SGD'):.2f}, GD {runs.made(n, 'GD'):.2f}" for n in sizes)
    steps = {m: runs.median(ref, m, "iterations") for m in ("GD", "SGD")}
    sgd_range = float(np.ptp(main.loc[main.method == "SGD", "final RMSE"].to_numpy(float)))
    per_gd = steps["SGD"] / max(steps["GD"], 1.0)
    power = (f"Power: with {runs.n_seeds} seeds the test decides SGD ahead of GD wherever SGD's median run reaches the target before GD's "
             f"{runs.median(ref, 'GD', f'time to {key}'):.3g} s (inf: not reached), and at equal time it resolves final test RMSE differences "
             f"beyond SGD's seed range {sgd_range:.4f} ({sgd_range / (runs.trivial[ref] - runs.optimum[ref]):.2f} of the way); SGD took "
             f"{steps['SGD']:.0f} steps in the budget, {per_gd:.1f} per GD step, and made {runs.made(ref, 'SGD'):.2f} of the way. An effect that "
             f"needs more stochastic steps per exact one than this size's cost ratio gives is out of its reach: at 1M's shape about "
             f"{trend['gain'] * steps['SGD'] / max(steps['GD'], 1.0):.0f} per GD step; whether SGD reaches the target in that many our runs "
             f"cannot say (they stop at {steps['SGD']:.0f}).")
    return {"text": f"{trend['text']} Share of the way made by the end of the budget at every size run: {made_at}. {power}",
            "evidence": trend["evidence"] | {"share of the way made": {n: {m: runs.made(n, m) for m in ("GD", "SGD")} for n in sizes},
                                             "SGD steps per GD step": per_gd}}


def stand_in_33(runs: D3Runs, trend: dict) -> dict:
    """D3.3's stand-in evidence (``{"text", "evidence"}``): the cost ratio's trend (``trend``, :func:`cost_trend`), SVRG's
    exact GD / SVRG time ratio at every size where both reach the target and, through two or more of them, its power law
    in d x r and what it predicts at 1M's shape (an extrapolation, not a measurement), and the power of the test."""
    from .work import size_trend

    runs, trend = _runs_of(runs), _trend(trend)
    ref, key, table = runs.ref, runs.reading, runs.table
    exact = {n: speedup(table, n, key, runs.common[n] or horizon(table, n)) for n in runs.order}
    exact = {n: r_ for n, (r_, kind) in exact.items()
             if kind == "exact" and r_ > 0 and all(np.isfinite(runs.median(n, m, f"time to {key}")) for m in ("GD", "SVRG"))}
    entries, shape = trend["entries"], trend["shape"]
    missing = sorted(set(exact) - set(entries))
    if missing:
        raise ValueError(f"trend's entries must hold every size run; missing {missing}")
    fit = None if len(exact) < 2 else size_trend([entries[n] for n in exact], list(exact.values()), entries[trend["synthetic"]])
    power = (f"Power: with {runs.n_seeds} seeds the test reads the order of SVRG and GD by their median times to the target "
             f"(SVRG {runs.median(ref, 'SVRG', f'time to {key}'):.3g} s, GD {runs.median(ref, 'GD', f'time to {key}'):.3g} s; inf: not reached); "
             "SVRG's inner steps are stochastic gradients and its snapshots exact ones, so the cost ratio moves it against GD as it moves SGD.")
    text = trend["text"] + ("" if fit is None else
                            " SVRG's GD / SVRG time ratio moves with the size: " + ", ".join(f"{n} {r_:.3f}" for n, r_ in exact.items())
                            + f"; a power law through them (exponent {fit[0]:.2f}) predicts {fit[1]:.2f} at {shape[0]} x {shape[1]}, "
                            "against the claim's 1.5 (an extrapolation from the sizes run: a prediction, not a measurement).") + f" {power}"
    return {"text": text, "evidence": trend["evidence"] | {"GD / SVRG time to the target": exact}
            | ({} if fit is None else {"GD / SVRG exponent in d x r": fit[0], "GD / SVRG predicted at 1M's shape": fit[1]})}


def d32_claim(runs: D3Runs, *, trend: dict, steps: str, map_text: str, map_cells: dict, chosen: dict, worse) -> dict:
    """D3.2, "SGD converges much faster and outperforms GD", on the whole matrix: SGD ahead of GD by their median times
    to the judged target where one of them reaches it, else at equal time (:func:`~.completion.d32_test`, the reading
    fixed on the measured runs; GD reaching the target while SGD's median run does not fails it; a tie is not measured).
    Its diagnosis where it fails: the verdict map, else the stand-in (:func:`stand_in_32` of ``trend``). Readings at
    every target share; the absolute RMSE target beside. Returns :meth:`~inferopt.experiment.record.Experiment.claim`'s
    keyword arguments."""
    runs = _runs_of(runs)
    steps, map_text = _sentence("steps", steps), _sentence("map_text", map_text)
    cells, mapped = _mapped(map_cells, chosen, worse, "D3.2")
    ref, main, key = runs.ref, runs.main, runs.reading
    test = claim_tests(main, runs.common, key)["D3.2"]
    basis = comparison_bases(main, key, D32_PAIRS)[ref, "SGD", "GD"]
    why = None if test(main) is not None else "SGD and GD tie on the reading that decides them"
    at_abs = "met at the start: the training mean's RMSE is below it" if runs.absolute_met else _VERDICT[d32_test(main, runs.absolute)]
    return dict(
        id="D3.2",
        text=(f"SGD converges faster than GD on {ref}: {READING}; GD reaching the target while SGD's median run does not fails it; "
              f"{runs.target()}. Decided: {basis_text(runs.table, ref, 'SGD', 'GD', basis, key, runs.common[ref])}. "
              + ("" if why is None else f"Not measured: {why}. ")
              + f"{runs.not_reached(ref)}. {runs.centred()} {steps} {runs.far()} {map_text} {runs.seeds()}"),
        **decided(test, main, completion_diagnosis(cells, "SGD against GD across the map.", **mapped, stand_in=stand_in_32(runs, trend))),
        threshold={"value": float(key), "source": "ours", "unit": _SHARE_UNIT,
                   "readings": readings(lambda s: d32_test(main, share_key(s)), runs.shares, chosen=float(key))},
        measured={"not measured because": why or "", "decided by": basis} | runs.times()
        | {f"verdict at {runs.absolute}": at_abs, "common budget (s)": runs.common[ref]} | runs.rmses() | runs.step_factors() | runs.work())


def d33_claim(runs: D3Runs, *, trend: dict, steps: str, map_text: str, map_cells: dict, chosen: dict, worse,
              factor: float = D33_FACTOR) -> dict:
    """D3.3, "SVRG is the fastest one, e.g., compared to GD, about 2 times faster", on the whole matrix: SVRG ahead of GD
    and of SGD (each pair by its times to the target where one reaches it, else at equal time) and, where SVRG and GD
    are read by their times, at least ``factor`` times faster than GD (:func:`~.completion.d33_test`: a censored lower
    bound below the factor is not measured). Its diagnosis where it fails: the verdict map, else the stand-in
    (:func:`stand_in_33` of ``trend``). Readings at factors 1.25, 1.5 and 2. Returns
    :meth:`~inferopt.experiment.record.Experiment.claim`'s keyword arguments."""
    runs = _runs_of(runs)
    factor = check_real("factor", factor, low=1.0)
    steps, map_text = _sentence("steps", steps), _sentence("map_text", map_text)
    cells, mapped = _mapped(map_cells, chosen, worse, "D3.3")
    ref, main, key, common = runs.ref, runs.main, runs.reading, runs.common
    test = claim_tests(main, common, key, factor)["D3.3"]
    b33 = comparison_bases(main, key, D33_PAIRS)
    why = None if test(main) is not None else (
        f"a comparison is undecided (a tie, or a censored GD / SVRG ratio {ratio_text(main, ref, common[ref], key)} below the factor)")
    decided_by = "; ".join(basis_text(runs.table, ref, "SVRG", m, b33[ref, "SVRG", m], key, common[ref]) for m in ("GD", "SGD"))
    return dict(
        id="D3.3",
        text=(f"SVRG is the fastest on {ref}: ahead of GD and of SGD, {READING}; where SVRG and GD are read by their times, at least "
              f"{factor:g}x faster than GD (\"about 2 times\"; stays-below times; a censored lower bound below the factor is not measured, "
              f"above it decides); at equal time only the order is read; {runs.target()}. Decided: {decided_by}. "
              + ("" if why is None else f"Not measured: {why}. ")
              + f"{runs.not_reached(ref)}. {runs.centred()} {steps} {runs.far()} {map_text} {NO_SYNTH} {runs.seeds()}"),
        **decided(test, main, completion_diagnosis(cells, "SVRG against GD and SGD across the map.", **mapped, stand_in=stand_in_33(runs, trend))),
        threshold={"value": factor, "source": "ours", "unit": "GD / SVRG time to the target",
                   "readings": readings(lambda f: d33_test(main, key, common, f, b33), [1.25, 1.5, 2.0], chosen=factor)},
        measured={"not measured because": why or "", "SVRG against GD decided by": b33[ref, "SVRG", "GD"],
                  "SVRG against SGD decided by": b33[ref, "SVRG", "SGD"]}
        | {f"GD / SVRG time to {r_}": ratio_text(main, ref, common[ref], r_) for r_ in runs.reads} | runs.times() | runs.work() | runs.rmses()
        | runs.step_factors())


def size_cells(table: pd.DataFrame, reading: str, order, seed: int) -> list:
    """D3.4's map: one cell (:func:`~inferopt.experiment.verdict_map.cell`, its bootstrap support over seeds) per pair of
    sizes of ``order`` (smaller first) at both of which GD and SVRG reach the target ``reading`` (exact ratios): does
    the GD / SVRG time ratio grow from the smaller to the larger (:func:`~.completion.d34_test`)? Pairs where a ratio is
    censored are not cells."""
    from ..verdict_map import cell

    _runs(table, "total time")
    if isinstance(order, str | bytes) or not isinstance(order, list | tuple) or len(order) < 2:
        raise ValueError(f"order must list at least two sizes, smaller first; got {order!r}")
    for n in order:
        _member("order", n, table, "dataset")
    seed = check_int("seed", seed, low=0)
    out = []
    for i, small in enumerate(order):
        for large in order[i + 1:]:
            test = partial(lambda t, s_, l_: d34_test(t, reading, small=s_, large=l_), s_=small, l_=large)
            if test(table) is not None:
                out.append(cell({"smaller": small, "larger": large}, test(table), support=supported(table, test, seed),
                                construction="ours", data="stand-in"))
    return out


def d34_diagnosis(cells: list, sizes: dict, trend: dict):
    """D3.4's diagnosis where it does not hold: its map of size pairs (``cells``, :func:`size_cells`;
    :func:`~inferopt.experiment.verdict_map.map_diagnosis`) where it has at least :data:`~inferopt.experiment.claims.MIN_SWEEP`
    pairs; else the stand-in (``stand-in``): measured on so few pairs of MovieLens 100K subsamples (``sizes``: ``{dataset:
    share}``), so close in size and far below the paper's 1M and 10M, with the cost ratio's trend (``trend``,
    :func:`cost_trend`)."""
    from ..verdict_map import map_diagnosis

    if isinstance(cells, str | bytes) or not isinstance(cells, list | tuple):
        raise TypeError(f"cells must be a list of verdict-map cells (size_cells); got {cells!r}")
    if not isinstance(sizes, dict) or not sizes:
        raise TypeError("sizes must be a non-empty mapping dataset -> share of the matrix")
    shares = [check_real(f"sizes[{n!r}]", s, low=0.0, low_open=True, high=1.0) for n, s in sizes.items()]
    trend = _trend(trend)
    if len(cells) >= MIN_SWEEP:
        return map_diagnosis(cells, "SVRG's speed-up over GD between every pair of the sizes at which both reach the target, at the "
                                    "same target share.", no_authors_construction=NO_AUTHORS)
    return {"kind": "stand-in", "text": f"Measured on {len(cells)} pair(s) of MovieLens 100K subsamples only, at most "
            f"{max(shares) / min(shares):g}x apart in size and far below the paper's 1M and 10M. {trend['text']}",
            "evidence": trend["evidence"] | {"pairs": list(cells)}}


def d34_claim(runs: D3Runs, *, trend: dict) -> dict:
    """D3.4, "the gap between SVRG and GD is expected to increase for larger datasets", read as the paper states it: the
    direction of SVRG's speed-up over GD with the size (:func:`~.completion.d34_growth`), the GD / SVRG ratio of the median
    times to the target larger on the larger of every pair of sizes at both of which GD and SVRG reach it (exact ratios);
    not measured where a ratio is censored by a size's budget. Its diagnosis: :func:`d34_diagnosis`. Returns
    :meth:`~inferopt.experiment.record.Experiment.claim`'s keyword arguments."""
    runs = _runs_of(runs)
    trend = _trend(trend)
    table, key, order, budget = runs.table, runs.reading, runs.order, runs.budget
    outcome, why = d34_growth(table, key, order)
    budgets = ("iteration budgets" if budget is None else f"each size's budget the whole matrix's {budget:g} CPU s times its share: "
               + ", ".join(f"{n} {budget * runs.sizes[n]:.3g} s" for n in order))
    why = None if why is None else f"{why}; " + "; ".join(runs.not_reached(n) for n in order)
    ahead_ = {n: ahead(table, n, "SVRG", "GD", key) for n in order}
    gaps = ", ".join(f"{n} {ratio_text(table, n, runs.common[n], key)} (SVRG "
                     f"{'ahead of' if ahead_[n] else 'behind' if ahead_[n] is False else 'level with'} GD)" for n in order)
    shapes = ", ".join(f"{n} {tuple(runs.shapes[n])}" for n in order)
    return dict(
        id="D3.4",
        text=(f"The gap between SVRG and GD grows with the dataset, read as the paper states it (\"the gap between SVRG and GD is "
              f"expected to increase for larger datasets\": the direction of SVRG's speed-up with the size, not SVRG ahead at every size): on "
              f"MovieLens 100K subsamples of the same kind ({shapes}; GD and SVRG on each, each arm's step tuned on it; {budgets}), the GD / "
              f"SVRG ratio of the median times to the target is larger on the larger of every pair of sizes at both of which GD and SVRG both "
              f"reach the target within the size's budget (exact ratios: no budget bounds them); a ratio below 1 that grows is the gap moving "
              f"in SVRG's favour, one that shrinks fails; not measured where a ratio is censored by a size's budget; {runs.target()}. GD / "
              f"SVRG: {gaps}. " + ("" if why is None else f"Not measured: {why}. ")
              + f"All sizes are far below MovieLens 1M and 10M, the paper's two. {runs.centred()} {NO_SYNTH} {runs.seeds()}"),
        **decided(lambda t: d34_growth(t, key, order)[0], table,
                  d34_diagnosis(size_cells(table, key, order, runs.seed), runs.sizes, trend)),
        threshold=None if outcome is None else {
            "value": float(key), "source": "ours", "unit": _SHARE_UNIT,
            "readings": readings(lambda s: d34_growth(table, share_key(s), order)[0], runs.shares, chosen=float(key))},
        measured={"not measured because": why or ""} | {f"{n}: SVRG ahead of GD": str(ahead_[n]) for n in order}
        | {f"{n}: GD / SVRG time to {r_}": ratio_text(table, n, runs.common[n], r_) for n in order for r_ in runs.reads}
        | {f"{n}: budget (s)": budget * runs.sizes[n] for n in order if budget is not None}
        | {f"{n}: step factor {m}": runs.factors[n][m] for n in order for m in runs.factors[n]}
        | {f"{n}: chosen step at grid edge {m}": runs.edges[n][m] or "no" for n in order for m in runs.factors[n]}
        | {f"{n}: median time to target {m} (s)": runs.median(n, m, f"time to {key}") for n in order for m in ("GD", "SVRG")}
        | {f"verdict at {r_}": _VERDICT[d34_growth(table, r_, order)[0]] for r_ in runs.reads})


#: the order of one stochastic gradient's cost, ``O(dM(N² + Nr))``: at most linear in d and M, at most quadratic in N
COST_ORDER = {"d": 1.0, "M": 1.0, "N": 2.0}


def cost_check(seconds_exponents: dict, work_exponents: dict, flops: dict, seconds: dict, *, grid: dict, base: dict,
               cut: float = 0.25) -> dict:
    """The cost of one stochastic gradient (formerly D3.5), a recorded check of our implementation, not a claim: the paper
    (Sec. 5.1) states the cost ``O(dM(N² + Nr))`` and reports no observation of it. Decides whether every CPU-seconds
    growth exponent (``seconds_exponents``, :func:`~.theory.cost_exponent` of ``seconds[k]`` against ``grid[k]``, around
    ``base``) is at most its order (:data:`COST_ORDER`) plus ``cut`` (:func:`~.completion.d35_test`; readings at cuts 0.15,
    0.25, 0.5); the counted work's exponents (``work_exponents`` of ``flops``, a formula of the shapes that cannot fail)
    beside. Returns ``{"what", "holds", "readings", "measured"}``."""
    from .completion import d35_test

    for param, value in (("seconds_exponents", seconds_exponents), ("work_exponents", work_exponents), ("flops", flops),
                         ("seconds", seconds), ("grid", grid), ("base", base)):
        if not isinstance(value, dict):
            raise TypeError(f"{param} must be a mapping; got {type(value).__name__}")
    check_choices("seconds' variables", list(COST_ORDER), set(seconds))
    check_choices("grid's variables", ["d", "M", "N"], set(grid))
    check_choices("base's variables", ["d", "r"], set(base))
    cut = check_real("cut", cut, low=0.0)
    return {"what": f"one stochastic gradient costs O(dM(N^2 + Nr)) (ours: the amortised adjoint form, O(M(dNr + N^2 r))), measured in "
                    f"CPU seconds of one gradient (least of 3), each exponent at most its order plus {cut:g} (an upper bound, as O(.) is): "
                    f"against d = {list(grid['d'])} items, M = {grid['M']}, N = {grid['N']} around d = {base['d']}, r = {base['r']}; "
                    "the counted work's exponents beside (a formula of the shapes: it cannot fail, so it decides nothing)",
            "holds": d35_test(seconds_exponents, COST_ORDER, cut),
            "readings": {f"{c:g}": d35_test(seconds_exponents, COST_ORDER, c) for c in (0.15, 0.25, 0.5)},
            "measured": {f"seconds exponent in {k}": v for k, v in seconds_exponents.items()}
            | {f"work exponent in {k}": v for k, v in work_exponents.items()} | {f"multiply-adds against {k}": v for k, v in flops.items()}
            | {f"seconds against {k}": seconds[k] for k in COST_ORDER}}
