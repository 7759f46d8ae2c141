"""Deciding code of the conjugate-model claims of Zhang et al. (2021), A1-A3: each claim a
function of the tidy trial tables of :func:`~.conjugate_trials.conjugate_trial` (columns
``trial, method, k, forward_kl, reverse_kl, n_iter, seconds``, ...), so that the notebooks'
verdicts and their bootstrap resamples come from the same code and the unit tests can make
each claim hold and fail on constructed tables.

Work is counted in products with ``Φ`` or ``Φᵀ`` (hardware-neutral, beside the seconds):
:data:`PRODUCTS_PER_ITERATION` per IHT iteration (:mod:`inferopt.coresets.iht`: one ``Φᵀr``
and one / two / four products with at most ``3k`` columns, each counted as a whole product),
one ``Φᵀℓ`` per greedy step (GIGA, FW).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._validation import check_callable, check_choices, check_int, check_real, check_table
from ..claims import MIN_SWEEP, Unearned, setting_text
from ..support import bootstrap_support, deterministic
from ..verdict_map import cell, decisive, map_diagnosis

__all__ = [
    "FLOOR",
    "MIN_MAP_TRIALS",
    "PRODUCTS_PER_ITERATION",
    "always_better",
    "beats_at",
    "censored_ratio",
    "conjugate_diagnosis",
    "cell_text",
    "FACTORS",
    "factor_cells",
    "factor_diagnosis",
    "moving_factors",
    "fewer",
    "first_below",
    "first_k_beating",
    "gradient_effect",
    "gradient_effects",
    "HEAVY_TAIL",
    "trials_for_share",
    "interval_verdict",
    "first_near_zero",
    "iht_beats_baselines",
    "kl_and_surface",
    "kl_medians",
    "leading_sizes",
    "linear_rate",
    "paired_outcomes",
    "paired_better",
    "slower_to_level",
    "trace_work_to_level",
    "work_to_level",
    "median_table",
    "median_work",
    "more_accurate_share",
    "objective_drop",
    "objective_drops",
    "stalled_traces",
    "passes_within",
    "median_crossing",
    "reaches_near_zero_first",
    "replicate_outcomes",
    "reverse_kl_misleads",
    "sparsevi_flat_ratio",
    "sparsevi_rank_correlation",
    "contours_match",
    "with_products",
]

#: KLs below this are round-off: compared and reported at this floor
FLOOR = 1e-10
#: products with Φ or Φᵀ per iteration of the IHT family (one full ``Φᵀr``; Φ on few columns)
PRODUCTS_PER_ITERATION = {"iht": 2, "a_iht": 3, "a_iht_ii": 5, "a_iht_batch": 3}
#: the least number of trials a verdict-map cell needs to count as decisive (the rubric's ">= 10")
MIN_MAP_TRIALS = 10


def _trials(table, columns=()) -> pd.DataFrame:
    check_table("table", table, ("method", *columns))
    return table


def median_table(table, value: str = "reverse_kl", *, floor: float | None = FLOOR) -> pd.DataFrame:
    """Median of ``value`` over the trials, by size ``k`` (rows) and method (columns), floored."""
    t = _trials(table, ("k", value))
    m = t.pivot_table(index="k", columns="method", values=value, aggfunc="median")
    return m.clip(lower=floor) if floor is not None else m


def beats_at(median: pd.DataFrame, rows, winners, losers, near_zero: float = 0.0) -> bool:
    """Every winner's median strictly below every loser's at each size of ``rows``; a pair both
    at most ``near_zero`` counts as a tie won (both are at the optimum)."""
    winners = check_choices("winners", winners, set(median.columns))
    losers = check_choices("losers", losers, set(median.columns))
    sub = median.loc[list(rows)]
    return bool(all(((sub[w] < sub[l]) | ((sub[w] <= near_zero) & (sub[l] <= near_zero))).all()
                    for w in winners for l in losers))


def first_k_beating(median: pd.DataFrame, winners, losers, near_zero: float = 0.0):
    """Smallest grid ``k`` from which the winners beat the losers at every larger size (None: never)."""
    for k in median.index:
        if beats_at(median, median.index[median.index >= k], winners, losers, near_zero):
            return int(k)
    return None


def iht_beats_baselines(table, large, iht, baselines, *, near_zero: float, at_zero=()) -> bool:
    """A1.1 / A1.1b: the ``iht`` methods' median reverse KL below the ``baselines``' at every
    size of ``large``, and the ``at_zero`` methods at most ``near_zero`` at the largest size."""
    m = median_table(table)
    kmax = m.index.max()
    return beats_at(m, large, iht, baselines, near_zero) and bool((m.loc[kmax, list(at_zero)] <= near_zero).all())


def sparsevi_flat_ratio(table, start: int, method: str = "sparsevi") -> float:
    """SparseVI's (``method``: the arm, e.g. ``sparsevi_authors``) median reverse KL at the largest size
    over its value at size ``start``."""
    m = median_table(table)
    return float(m.loc[m.index.max(), method] / m.loc[start, method])


def first_near_zero(median: pd.DataFrame, name: str, near_zero: float):
    """Smallest grid size at which ``name``'s median is at most ``near_zero`` (None: none)."""
    hit = median.index[median[name] <= near_zero]
    return int(hit.min()) if hit.size else None


def reaches_near_zero_first(table, faster: str, slower: str, *, near_zero: float) -> bool:
    """A1.3's size reading: ``faster``'s median reverse KL reaches ``near_zero`` at a smaller
    grid size than ``slower``'s (or ``slower``'s never does)."""
    m = median_table(table)
    kf, ks = first_near_zero(m, faster, near_zero), first_near_zero(m, slower, near_zero)
    return kf is not None and (ks is None or kf < ks)


def with_products(table) -> pd.DataFrame:
    """``table`` with a column ``products``: the products with Φ or Φᵀ of each run, ``n_iter``
    times :data:`PRODUCTS_PER_ITERATION` for the IHT family, one per greedy step otherwise."""
    t = _trials(table, ("n_iter",))
    per = t["method"].map(lambda m: PRODUCTS_PER_ITERATION.get(str(m).removesuffix("_refit"), 1))
    return t.assign(products=t["n_iter"] * per)


def median_work(table, methods, ks, column: str = "n_iter") -> dict:
    """``{method: median of column}`` over the trials and the sizes ``ks`` (``products``: counted
    by :func:`with_products`)."""
    t = with_products(table) if column == "products" else _trials(table, (column,))
    sub = t[t.k.isin(list(ks))]
    return {m: float(sub.loc[sub.method == m, column].median()) for m in methods}


def fewer(table, faster: str, slower: str, ks, *, column: str = "n_iter", ratio: float = 1.0) -> bool:
    """``faster``'s median work (``column``: ``n_iter``, ``products`` or ``seconds``) over the
    trials and sizes ``ks`` is below ``ratio`` times ``slower``'s. ``ratio > 1`` with the roles
    swapped reads "much slower": ``fewer(t, giga, iht, ratio=1/3)``."""
    ratio = check_real("ratio", ratio, low=0.0, low_open=True)
    w = median_work(table, [faster, slower], ks, column)
    return bool(w[faster] < ratio * w[slower])


def more_accurate_share(table, better: str, worse: str, value: str = "reverse_kl") -> float:
    """Share of the grid sizes at which ``better``'s median ``value`` is strictly below ``worse``'s."""
    m = median_table(table, value)
    return float((m[better] < m[worse]).mean())


def leading_sizes(median: pd.DataFrame, leader: str, others) -> list[int]:
    """Grid sizes at which ``leader``'s median is strictly below every one of ``others``'."""
    others = check_choices("others", others, set(median.columns))
    lead = np.all([median[leader].to_numpy() < median[o].to_numpy() for o in others], axis=0)
    return [int(k) for k in median.index[lead]]


def paired_outcomes(table, better: str, worse: str, *, rel_tol: float, value: str = "reverse_kl",
                    floor: float = FLOOR) -> dict:
    """Paired, tie-aware comparison over the ``(trial, k)`` pairs both methods ran: a pair whose values
    (floored at ``floor``) differ by at most ``rel_tol`` times the larger is a tie (within Monte-Carlo /
    optimisation noise); else a win of ``better`` (lower) or a loss. Returns ``{"wins", "ties",
    "losses", "pairs"}``."""
    rel_tol = check_real("rel_tol", rel_tol, low=0.0)
    t = _trials(table, ("trial", "k", value))
    wide = t[t.method.isin([better, worse])].pivot_table(index=["trial", "k"], columns="method", values=value)
    if better not in wide or worse not in wide:
        raise ValueError(f"table has no pairs of {better!r} and {worse!r}")
    wide = wide.dropna().clip(lower=floor)
    a, b = wide[better].to_numpy(), wide[worse].to_numpy()
    tie = np.abs(a - b) <= rel_tol * np.maximum(a, b)
    return {"wins": int(((a < b) & ~tie).sum()), "ties": int(tie.sum()), "losses": int(((a > b) & ~tie).sum()),
            "pairs": int(a.size)}


def paired_better(table, better: str, worse: str, *, rel_tol: float, share: float = 0.5, value: str = "reverse_kl"):
    """A1.4's accuracy part: of the pairs not tied (:func:`paired_outcomes`), ``better`` wins more than
    ``share``; None (not measured) when every pair is a tie."""
    o = paired_outcomes(table, better, worse, rel_tol=rel_tol, value=value)
    decided = o["wins"] + o["losses"]
    return None if decided == 0 else bool(o["wins"] > share * decided)


def work_to_level(table, method: str, level: float, *, value: str = "reverse_kl", column: str = "products") -> pd.Series:
    """Per trial, the least work (``column`` of :func:`with_products`) of a run of ``method`` whose
    ``value`` is at most ``level`` (greedy methods: the work of the one pass up to that size; the IHT
    family: the run at that size). NaN for a trial where no run reaches ``level``."""
    level = check_real("level", level, low=0.0)
    t = with_products(_trials(table, ("trial", "k", value)))
    t = t[t.method == method]
    if t.empty:
        raise ValueError(f"table has no rows of {method!r}")
    reached = t[t[value] <= level].groupby("trial")[column].min()
    return reached.reindex(sorted(t.trial.unique()))


def slower_to_level(table, slow: str, fast: str, level: float, *, much: float = 1.0) -> dict:
    """A1.5 at equal accuracy: per trial the ratio of ``slow``'s work to ``fast``'s to reach ``level``
    (:func:`work_to_level`). A trial where ``fast`` never reaches it is left out; one where ``slow``
    never does is censored (ratio +inf: at least its largest run's work over ``fast``'s). Returns
    ``{"ratios", "censored", "median", "holds"}``; ``holds``: median ratio at least ``much``, None
    when ``fast`` reaches ``level`` in no trial (not measured)."""
    return censored_ratio(work_to_level(table, slow, level), work_to_level(table, fast, level), much)


def censored_ratio(ws: pd.Series, wf: pd.Series, much: float) -> dict:
    """:func:`slower_to_level`'s ratio from the per-trial works ``ws`` (slow) and ``wf`` (fast), NaN where a
    method never reached the level."""
    much = check_real("much", much, low=0.0, low_open=True)
    keep = wf.dropna().index
    ratios = (ws.reindex(keep) / wf.loc[keep]).fillna(np.inf)
    if ratios.empty:
        return {"ratios": [], "censored": 0, "median": None, "holds": None}
    med = float(np.median(ratios.to_numpy()))
    return {"ratios": [float(r) for r in ratios], "censored": int(np.isinf(ratios).sum()), "median": med,
            "holds": bool(med >= much)}


def trace_work_to_level(traces, level: float, per_iteration: float, *, value: str = "rel_error") -> pd.Series:
    """Per trial, the least work for a per-size run to reach ``level``: over the runs (one per size ``k``),
    the first iteration ``t >= 1`` whose ``value`` is at most ``level``, times ``per_iteration`` products;
    NaN for a trial where no run reaches it (``traces``: columns ``trial, k, iteration`` and ``value``, one
    row per iteration of each run: the work *until* the level, not the run's whole budget)."""
    level = check_real("level", level, low=0.0)
    per_iteration = check_real("per_iteration", per_iteration, low=0.0, low_open=True)
    t = _trials(traces.assign(method="trace"), ("trial", "k", "iteration", value))
    trials = sorted(t.trial.unique())
    hit = t[(t.iteration >= 1) & (t[value] <= level)].groupby("trial").iteration.min()
    return (hit * per_iteration).astype(float).reindex(trials)


# ---- A2: objective traces ------------------------------------------------------------------

def first_below(trace, target: float):
    """First iteration ``t >= 1`` with ``f(w_t) < target`` of an objective trace (None: never)."""
    trace = np.asarray(trace, dtype=float)
    hit = np.flatnonzero(trace[1:] < target)
    return int(hit[0]) + 1 if hit.size else None


def gradient_pairs(table) -> dict:
    """A2.5's paired outcomes: per trial, A-IHT's final objective with the full gradient against the
    restricted one (``table``: columns ``trial, gradient, objective``); a trial whose two runs end at
    the same objective is a tie (identical runs). Returns ``{"full better", "ties", "restricted better",
    "pairs"}``."""
    check_table("table", table, ("trial", "gradient", "objective"))
    wide = table.groupby(["trial", "gradient"]).objective.mean().unstack().dropna()
    if "full" not in wide or "restricted" not in wide:
        raise ValueError("table must hold both a 'full' and a 'restricted' gradient run per trial")
    a, b = wide["full"].to_numpy(), wide["restricted"].to_numpy()
    return {"full better": int((a < b).sum()), "ties": int((a == b).sum()),
            "restricted better": int((a > b).sum()), "pairs": int(a.size)}


#: A2.5's interval: the central fraction of the bootstrap means, and their number
EFFECT_LEVEL = 0.95
EFFECT_RESAMPLES = 2000


def gradient_effect(table, *, level: float = EFFECT_LEVEL, n_resamples: int = EFFECT_RESAMPLES, seed: int = 0) -> dict:
    """A2.5's paired effect size at one cell (``table``: columns ``trial, gradient, objective``, a full- and a
    restricted-gradient run per trial): per trial the log ratio of the final objectives
    ``l = log(f_full / f_restricted)`` (0 for identical runs; below 0: the full gradient ends lower), its mean over
    the trials and the percentile bootstrap interval of that mean over the trials (central ``level`` of
    ``n_resamples`` resamples), each reported as the relative difference of the geometric means, ``exp(.) − 1``.
    The log treats "full lower" and "restricted lower" alike; the plain relative difference
    ``(f_full − f_restricted) / f_restricted`` is bounded below by −1 and not above, so a few trials whose
    restricted run ends near 0 carried its mean. Returns ``{"mean", "low", "high", "median", "trials",
    "identical", "kurtosis"}`` (``median``: of the per-trial ``exp(l) − 1``; ``identical``: every pair ends at the
    same objective; ``kurtosis``: the excess kurtosis of the per-trial ``l``, 0 when they are all equal)."""
    check_table("table", table, ("trial", "gradient", "objective"))
    level = check_real("level", level, low=0.0, high=1.0, low_open=True, high_open=True)
    n_resamples = check_int("n_resamples", n_resamples, low=1)
    wide = table.groupby(["trial", "gradient"]).objective.mean().unstack().dropna()
    if "full" not in wide or "restricted" not in wide or wide.empty:
        raise ValueError("table must hold both a 'full' and a 'restricted' gradient run per trial")
    a, b = wide["full"].to_numpy(dtype=float), wide["restricted"].to_numpy(dtype=float)
    if np.any(((a <= 0.0) | (b <= 0.0)) & (a != b)):
        raise ValueError("a run ends at objective <= 0 and its pair does not: the log ratio is undefined there")
    d = np.zeros_like(a)
    np.log(a / b, out=d, where=a != b)
    means = d[np.random.default_rng(check_int("seed", seed, low=0)).integers(0, d.size, (n_resamples, d.size))].mean(axis=1)
    low, high = np.expm1(np.quantile(means, [(1.0 - level) / 2.0, (1.0 + level) / 2.0]))
    sd = d.std()
    kurtosis = float(np.mean(((d - d.mean()) / sd) ** 4) - 3.0) if sd > 0 else 0.0
    return {"mean": float(np.expm1(d.mean())), "low": float(low), "high": float(high),
            "median": float(np.expm1(np.median(d))), "trials": int(d.size), "identical": bool(np.all(a == b)),
            "kurtosis": kurtosis}


def interval_verdict(low: float, high: float, margin: float) -> str:
    """A2.5's verdict at one cell from the interval ``[low, high]`` of the paired relative difference
    (:func:`gradient_effect`) and the equivalence ``margin``: ``holds`` (the full gradient ends lower by more
    than the margin) when ``high < −margin``; ``fails`` when ``low > margin`` (the restricted one ends lower) or
    when the interval lies within ``[−margin, margin]`` (an equivalence: no meaningful difference); else
    ``inconclusive`` (the interval straddles a margin)."""
    low, high = check_real("low", low), check_real("high", high)
    margin = check_real("margin", margin, low=0.0)
    if low > high:
        raise ValueError(f"low must not exceed high; got [{low}, {high}]")
    if high < -margin:
        return "holds"
    if low > margin or (low >= -margin and high <= margin):
        return "fails"
    return "inconclusive"


#: A2.5: an excess kurtosis of the per-trial log ratios above this (a Laplace's) counts as heavy-tailed
HEAVY_TAIL = 3.0


def _effect_text(key: str, e: dict) -> str:
    if e["identical"]:
        return f"{key}: identical runs in {e['trials']} of {e['trials']} trials (d = 0)"
    return (f"{key}: {100 * e['mean']:+.2f} % [{100 * e['low']:+.2f}, {100 * e['high']:+.2f}] over {e['trials']} trials "
            f"(median {100 * e['median']:+.2f} %)")


def _power_text(key: str, e: dict, margin: float) -> str:
    """A cell's power: its interval's half-width h at its n trials (the smallest effect it resolves) and the trials
    that would bring the interval inside the margin m, about n (h / m)^2 (the half-width falls as n^-1/2)."""
    h = (e["high"] - e["low"]) / 2.0
    need = int(np.ceil(e["trials"] * (h / margin) ** 2)) if margin > 0 else None
    tail = (f"; heavy-tailed (excess kurtosis {e['kurtosis']:.0f}): the n^-1/2 rule is rough there"
            if e["kurtosis"] > HEAVY_TAIL else "")
    return (f"{key}: half-width {100 * h:.2f} % at {e['trials']} trials"
            + (f", about {need} trials to bring it inside ±{100 * margin:g} %" if need is not None else "") + tail)


def gradient_effects(table, margins, *, chosen: float, seed: int = 0,
                     cause: str = "the two gradients coincide in this construction") -> dict:
    """A2.5 decided on its map of cells (one per construction and size ``k``; ``table``: columns ``trial,
    construction, k, gradient, objective``) by the paired effect size of each cell (:func:`gradient_effect`)
    against an equivalence margin (:func:`interval_verdict`), at each margin of ``margins`` (ours; ``chosen``
    among them). A cell whose two runs are identical in every trial is *untestable* (the two arms coincide;
    ``cause`` names why): shown beside, left out of the decision. A testable cell on fewer than
    :data:`MIN_MAP_TRIALS` trials is ``inconclusive``. The claim holds at a margin if every testable cell holds,
    fails if every testable cell fails, is ``not measured`` when no cell is testable, and is inconclusive
    otherwise (an undecided cell, or cells that disagree). Each testable cell's power is stated: its interval's
    half-width at its trials and about ``n (half-width / margin)^2`` trials to bring it inside the margin, with a
    warning when its log ratios are heavy-tailed (excess kurtosis above :data:`HEAVY_TAIL`).

    Returns ``{"verdict", "readings", "cells", "untestable", "effects", "diagnosis", "reason", "text"}``:
    ``verdict`` at ``chosen``; ``readings`` ``[{"value", "verdict"}]`` per margin; ``cells`` the testable
    verdict-map cells at ``chosen`` (each with its ``effect``); ``untestable`` the identical-runs cells (``setting``,
    ``effect``, ``cause``); ``effects`` ``{"<construction>, k = <k>": effect}``; ``diagnosis`` None when it holds or
    is not measured, the map's (:func:`~inferopt.experiment.verdict_map.map_diagnosis` on the testable cells:
    ``paper`` when every one fails and the map earns it) when it fails,
    :class:`~inferopt.experiment.claims.Unearned` naming the undecided or disagreeing cells when inconclusive;
    ``reason`` the sentence behind the verdict; ``text`` every cell's mean difference and interval, the untestable
    cells and the testable cells' power."""
    margins = sorted({check_real("margins", m, low=0.0) for m in margins})
    chosen = check_real("chosen", chosen, low=0.0)
    if chosen not in margins:
        raise ValueError(f"chosen {chosen!r} must be one of margins {margins}")
    if not isinstance(cause, str) or not cause.strip():
        raise ValueError(f"cause must be a non-empty phrase; got {cause!r}")
    check_table("table", table, ("trial", "construction", "k", "gradient", "objective"))
    groups = {(str(w), int(kk)): rows for (w, kk), rows in table.groupby(["construction", "k"], sort=True)}
    if not groups:
        raise ValueError("table has no rows")
    effects = {f"{w}, k = {kk}": gradient_effect(rows, seed=seed) for (w, kk), rows in groups.items()}
    testable = {key: e for key, e in effects.items() if not e["identical"]}

    def cell_verdict(e, margin):
        if e["trials"] < MIN_MAP_TRIALS:
            return "inconclusive"
        return interval_verdict(e["low"], e["high"], margin)

    def whole(margin):
        vs = {cell_verdict(e, margin) for e in testable.values()}
        if not vs:
            return "not measured"
        return vs.pop() if len(vs) == 1 and vs <= {"holds", "fails"} else "inconclusive"

    readings = [{"value": m, "verdict": whole(m)} for m in margins]
    untestable = [{"setting": {"construction": w, "k": kk}, "effect": e, "cause": cause.strip()}
                  for (w, kk), e in zip(groups, effects.values()) if e["identical"]]
    beside = ("" if not untestable else
              f" Untestable, left out of the decision (the two runs identical in every trial: {cause.strip()}): "
              + ", ".join(f"{u['setting']['construction']} k = {u['setting']['k']}" for u in untestable) + ".")
    power = ("" if not testable else
             f" Power at the margin {100 * chosen:g} % (the interval's half-width is the smallest effect a cell resolves): "
             + "; ".join(_power_text(key, e, chosen) for key, e in testable.items()) + ".")
    text = (f"Paired difference of the final objective, full against restricted, as the relative difference of their "
            f"geometric means over trials (exp of the mean log ratio, minus 1) [{100 * EFFECT_LEVEL:.0f} % bootstrap "
            f"interval], by cell: "
            + "; ".join(_effect_text(key, e) for key, e in effects.items()) + "." + beside + power)
    cells = []
    for (w, kk), e in zip(groups, effects.values()):
        if e["identical"]:
            continue
        v = cell_verdict(e, chosen)
        note = (f"{e['trials']} trials, fewer than {MIN_MAP_TRIALS}" if e["trials"] < MIN_MAP_TRIALS
                else f"decided by its {100 * EFFECT_LEVEL:.0f} % bootstrap interval against the margin {chosen:g}")
        c = cell({"construction": w, "k": kk}, v == "holds", support=deterministic(note), construction=w, data="paper")
        cells.append(dict(c, verdict=v, effect=e))
    verdict = whole(chosen)
    name = lambda cs: ", ".join(f"{c['setting']['construction']} k = {c['setting']['k']}" for c in cs)
    diagnosis, reason = None, text
    if verdict == "not measured":
        reason = f"no cell is testable: every cell's two runs are identical in every trial ({cause.strip()}). {text}"
    elif verdict == "fails":
        how = ("by equivalence" if all(c["effect"]["low"] >= -chosen and c["effect"]["high"] <= chosen for c in cells)
               else "by equivalence or reverse")
        diagnosis = map_diagnosis(cells, f"The full gradient does not end lower than the restricted one by more than "
                                         f"{100 * chosen:g} % at any testable cell ({how}). {text}")
        if isinstance(diagnosis, Unearned):
            reason = f"{diagnosis.reason}. {text}"
            diagnosis = Unearned(reason, diagnosis.evidence)
    elif verdict == "inconclusive":
        by = {v: [c for c in cells if c["verdict"] == v] for v in ("holds", "fails", "inconclusive")}
        parts = [f"{v} at {name(cs)}" for v, cs in by.items() if cs]
        reason = (f"at the margin {100 * chosen:g} % the testable cells do not agree ({'; '.join(parts)}): the claim holds "
                  f"only where every testable cell's interval lies below −margin and fails only where every one fails; "
                  f"what would decide the undecided cells is in their power below. {text}")
        diagnosis = Unearned(reason, {"sweep": cells})
    return {"verdict": verdict, "readings": readings, "cells": cells, "untestable": untestable, "effects": effects,
            "diagnosis": diagnosis, "reason": reason, "text": text}


#: A2's construction as two open choices, ours first: the IHT step rule (the paper's exact line search, the
#: authors' code's half step) and the constant row of Φ (ours √(½ tr Ψ²), the authors' 0.25 √(tr Ψ²))
FACTORS = {"step": ("exact", "authors"), "constant": ("exact", "authors")}
#: each factor's name in a sentence
FACTOR_NAMES = {"step": "the IHT step rule (exact line search / the authors' half step)",
                "constant": "the constant row of Φ (ours / the authors')"}


def factor_cells(test, tables: dict, *, ours=("exact", "exact"), seed: int = 0) -> list[dict]:
    """A claim's test on the 2 x 2 map of :data:`FACTORS` (``tables``: ``{(step, constant): table}`` for all four
    combinations, trial tables of one form, e.g. A2's crossings): one verdict-map cell each, ``test(table)`` with
    its bootstrap support over the trials (:func:`~inferopt.experiment.verdict_map.cell`: ``inconclusive`` below
    90 % agreement); the cell ``ours`` (our two choices) is our construction, ``("authors", "authors")`` the
    authors'."""
    combos = [(s, c) for s in FACTORS["step"] for c in FACTORS["constant"]]
    if not isinstance(tables, dict) or sorted(tables) != sorted(combos):
        raise ValueError(f"tables must map each (step, constant) of {combos} to a trial table; got "
                         f"{sorted(tables) if isinstance(tables, dict) else tables!r}")
    ours = tuple(ours) if isinstance(ours, list | tuple) else ours
    if ours not in combos or ours == combos[-1]:
        raise ValueError(f"ours must be one of {combos[:-1]} (the authors' is {combos[-1]}); got {ours!r}")
    who = {ours: "ours", combos[-1]: "authors"}
    return [cell({"step": s, "constant": c}, test(tables[(s, c)]),
                 support=bootstrap_support(test, tables[(s, c)], by="trial", seed=seed),
                 construction=who.get((s, c)), data="paper") for s, c in combos]


def cell_text(c: dict) -> str:
    """A cell's verdict with its support: ``holds (97 % of resamples hold)``."""
    return c["verdict"] + (f" ({100 * c['support']:.0f} % of resamples hold)" if "support" in c else "")


def moving_factors(cells) -> list[str]:
    """The factors of a :func:`factor_cells` map whose change alone moves the verdict (holds / fails /
    inconclusive) at both values of the other factor."""
    by = {(c["setting"]["step"], c["setting"]["constant"]): c["verdict"] for c in cells}
    (s0, s1), (c0, c1) = FACTORS["step"], FACTORS["constant"]
    out = []
    if all(by[(s0, c)] != by[(s1, c)] for c in (c0, c1)):
        out.append("step")
    if all(by[(s, c0)] != by[(s, c1)] for s in (s0, s1)):
        out.append("constant")
    return out


def factor_diagnosis(cells, text: str, *, to_decide: str = ""):
    """The diagnosis of a claim decided on our construction, from its :func:`factor_cells` map. Our cell and the
    authors' agree: None. Both decided (holds / fails on their own support) and different: the rubric's
    ``construction`` (item 7), naming the factor that moves the verdict (:func:`moving_factors`) with every
    cell's verdict (and its ``numbers``, a phrase, when the cell has one). Otherwise (one of the two undecided):
    :class:`~inferopt.experiment.claims.Unearned`, its reason saying that no construction difference is earned
    (one side is undecided, so the two do not disagree decisively), with the same map and ``to_decide`` (what would
    decide the undecided cell)."""
    cells = list(cells)
    by = {c.get("construction"): c for c in cells if c.get("construction")}
    if len(cells) != 4 or set(by) != {"ours", "authors"}:
        raise ValueError("cells must be the four cells of factor_cells, one of 'ours' and one of 'authors'")
    ours, theirs = by["ours"], by["authors"]
    if ours["verdict"] == theirs["verdict"]:
        return None
    moving = moving_factors(cells)
    factor = (" and ".join(FACTOR_NAMES[f] for f in moving) + " changes the verdict") if moving else \
        "neither factor alone changes the verdict"
    shown = "; ".join(f"step {c['setting']['step']}, constant {c['setting']['constant']}: {cell_text(c)}"
                      + (f", {c['numbers']}" if c.get("numbers") else "") for c in cells)
    both = f"our construction: {cell_text(ours)}; the authors': {cell_text(theirs)}"
    if "inconclusive" not in (ours["verdict"], theirs["verdict"]):
        return {"kind": "construction", "text": f"{text.strip()} The verdict differs with the construction ({both}); of "
                f"its two choices, {factor} (2 x 2 map: {shown}).", "evidence": {"sweep": cells}}
    undecided = "our construction" if ours["verdict"] == "inconclusive" else "the authors' construction"
    return Unearned(f"{text.strip()} {undecided[0].upper() + undecided[1:]} is undecided ({both}), so the two "
                    f"constructions do not disagree decisively and no 'construction' difference is earned; across the "
                    f"2 x 2 map {factor} (map: {shown})." + (f" {to_decide.strip()}" if to_decide.strip() else ""),
                    {"sweep": cells})


#: the one-sided normal quantile of :func:`trials_for_share` (a 90 % lower bound)
SHARE_Z = 1.2815515655446004


def trials_for_share(share: float, *, z: float = SHARE_Z):
    """Roughly how many trials decide a median-type claim whose trials pass with observed ``share`` ``p``: the
    least ``n`` whose binomial share's one-sided bound clears one half, ``|p − ½| > z √(p (1 − p) / n)``, i.e.
    ``n > z² p (1 − p) / (p − ½)²`` (``z``: 1.28, a 90 % bound, the bootstrap's decisive agreement). None when
    ``p = ½`` (no number of trials decides it at that share)."""
    p = check_real("share", share, low=0.0, high=1.0)
    z = check_real("z", z, low=0.0, low_open=True)
    if p == 0.5:
        return None
    return int(np.floor(z * z * p * (1.0 - p) / (p - 0.5) ** 2)) + 1


def median_crossing(crossings, it: str, base: str) -> float:
    """Median over trials of the iteration at which trace ``it`` passes ``base``'s final objective."""
    check_table("crossings", crossings, ("iht", "baseline", "iteration"))
    sel = crossings[(crossings.iht == it) & (crossings.baseline == base)]
    if sel.empty:
        raise ValueError(f"crossings has no rows for trace {it!r} against {base!r}")
    return float(sel.iteration.median())


def passes_within(crossings, pairs, slack: float) -> bool:
    """Every ``(trace, baseline, t)`` of ``pairs``: the median crossing at most ``slack · t``."""
    return all(median_crossing(crossings, it, b) <= slack * bound for it, b, bound in pairs)


def objective_drops(traces, method: str, last: int) -> pd.Series:
    """Per trial, ``(f_{T−last} − f_T) / f_{T−last}``: the objective's relative fall over the last
    ``last`` iterations of ``method``'s trace (``traces``: columns ``trial, method, iteration,
    objective``; ``T`` the last iteration), indexed by trial."""
    check_table("traces", traces, ("trial", "method", "iteration", "objective"))
    drops = {}
    for trial, tr in traces[traces.method == method].groupby("trial"):
        f = tr.sort_values("iteration").objective.to_numpy()
        if f.size <= last:
            raise ValueError(f"a trace of {method!r} has {f.size} values: it cannot show the last {last} iterations")
        drops[trial] = (f[-1 - last] - f[-1]) / f[-1 - last]
    if not drops:
        raise ValueError(f"traces has no rows of {method!r}")
    return pd.Series(drops, dtype=float).rename_axis("trial")


def objective_drop(traces, method: str, last: int) -> float:
    """A2.4's statistic: the median over trials of :func:`objective_drops`."""
    return float(objective_drops(traces, method, last).median())


def stalled_traces(traces, method: str, last: int, drop: float) -> int:
    """A2.4's count beside its median: the trials whose trace of ``method`` falls by less than ``drop``
    of its value over its last ``last`` iterations (:func:`objective_drops`): all but stalled there."""
    drop = check_real("drop", drop, low=0.0)
    return int((objective_drops(traces, method, last) < drop).sum())


def linear_rate(traces, method: str, start: int, stop: int) -> float:
    """App. E's linear rate as measured: median over trials of ``exp(b)``, ``b`` the least-squares slope of
    ``log f(w_t)`` against ``t`` over the iterations ``start <= t < stop`` of ``method``'s trace (a factor
    below 1: the objective shrinks by it per iteration; 1: no linear decrease). Traces with a non-positive
    value in the window are left out (the objective reached zero); NaN when none is left."""
    check_table("traces", traces, ("trial", "method", "iteration", "objective"))
    if not 0 <= start < stop - 1:
        raise ValueError(f"start and stop must satisfy 0 <= start < stop - 1; got {start}, {stop}")
    slopes = []
    for _, tr in traces[traces.method == method].groupby("trial"):
        tr = tr[(tr.iteration >= start) & (tr.iteration < stop)]
        f = tr.objective.to_numpy(dtype=float)
        if f.size >= 2 and (f > 0).all():
            slopes.append(np.polyfit(tr.iteration.to_numpy(dtype=float), np.log(f), 1)[0])
    return float(np.exp(np.median(slopes))) if slopes else float("nan")


# ---- A3: KLs, contours --------------------------------------------------------------------

def kl_medians(table) -> dict:
    """``{"forward", "reverse"}`` median KL tables (:func:`median_table`)."""
    return {d: median_table(table, f"{d}_kl") for d in ("forward", "reverse")}


def always_better(table, winners, losers, rows) -> bool:
    """A3.1: the winners strictly below the losers in forward and reverse KL at every size of ``rows``."""
    m = kl_medians(table)
    return all(beats_at(m[d], rows, winners, losers) for d in m)


def sparsevi_rank_correlation(table, rows) -> float:
    """Spearman correlation between ``k`` and SparseVI's median forward KL over the sizes ``rows``."""
    f = median_table(table, "forward_kl")["sparsevi"].loc[list(rows)]
    return float(pd.Series(f.index, dtype=float).corr(pd.Series(f.to_numpy()), method="spearman"))


def contours_match(table, tol: float, *, good: str = "a_iht_ii", bad: str = "sparsevi") -> bool:
    """A3.3: ``good``'s median relative RMS difference from the true surface at most ``tol``,
    ``bad``'s above it (``table``: columns ``method, relative_rms_difference``)."""
    check_table("table", table, ("method", "relative_rms_difference"))
    m = table.groupby("method").relative_rms_difference.median()
    return bool(m[good] <= tol < m[bad])


def kl_and_surface(results, contours, k: int) -> pd.DataFrame:
    """One row per (trial, method) of ``contours`` (columns ``trial, method,
    relative_rms_difference``) with that trial's reverse KL at size ``k`` from ``results``."""
    check_table("contours", contours, ("trial", "method", "relative_rms_difference"))
    kl = _trials(results, ("trial", "k", "reverse_kl"))
    kl = kl[kl.k == k][["trial", "method", "reverse_kl"]]
    out = contours[["trial", "method", "relative_rms_difference"]].merge(kl, on=["trial", "method"], how="inner")
    if out.empty:
        raise ValueError(f"no (trial, method) of contours has a reverse KL at k = {k} in results")
    return out


def reverse_kl_misleads(table, *, low_kl: str = "sparsevi", good_surface: str = "a_iht_ii") -> bool:
    """A3.4 ("the reverse KL alone is not enough"): ``low_kl``'s median reverse KL below
    ``good_surface``'s while its median surface error (relative RMS difference) is above it."""
    check_table("table", table, ("method", "reverse_kl", "relative_rms_difference"))
    m = table.groupby("method")[["reverse_kl", "relative_rms_difference"]].median()
    return bool(m.loc[low_kl, "reverse_kl"] < m.loc[good_surface, "reverse_kl"]
                and m.loc[low_kl, "relative_rms_difference"] > m.loc[good_surface, "relative_rms_difference"])


def replicate_outcomes(test, table, replicates) -> list[bool]:
    """A claim's test on round-off replicates (:func:`~.conjugate_trials.roundoff_replicates`): for each value of
    ``replicates``' column ``replicate``, ``test`` on ``table`` with the rows of that replicate's ``(trial, method)``
    pairs put in place of the measured ones (the other methods' rows kept). ``table``: the claim's tidy table (columns
    ``trial, method`` and what ``test`` reads); ``replicates``: rows of the same form plus ``replicate``. Returns the
    outcomes in replicate order: a verdict that changes among them turns on round-off."""
    check_callable("test", test)
    check_table("table", table, ("trial", "method"))
    check_table("replicates", replicates, ("replicate", "trial", "method"))
    if replicates.empty:
        raise ValueError("replicates must hold at least one row")
    measured = pd.MultiIndex.from_frame(table[["trial", "method"]])
    out = []
    for _, rep in replicates.groupby("replicate", sort=True):
        swapped = pd.MultiIndex.from_frame(rep[["trial", "method"]])
        if not swapped.isin(measured).all():
            raise ValueError("every (trial, method) of replicates must be one of table's")
        kept = table[~measured.isin(swapped)]
        out.append(bool(test(pd.concat([kept, rep.drop(columns="replicate")], ignore_index=True))))
    return out


def conjugate_diagnosis(cells, chosen: dict, text: str, *, n_trials: dict | None = None):
    """The diagnosis of an A3 claim from its verdict map ``cells``
    (:func:`~inferopt.experiment.verdict_map.cell`, each with ``construction`` and ``data``, and optionally
    ``numbers``: a phrase with the cell's statistic, shown in the reason).

    ``chosen``: the setting of the measured cell. None when that cell holds. Otherwise, of the
    cells that hold decisively (:func:`~inferopt.experiment.verdict_map.decisive`): one of the authors' construction -> ``construction``; one on data of the
    paper's shape -> ``stand-in``; any other -> ``setting``; none -> the engine's
    :func:`~inferopt.experiment.verdict_map.map_diagnosis` (``paper`` when earned, else
    :class:`~inferopt.experiment.claims.Unearned`). ``n_trials``: index of a cell -> its number of
    trials; a cell on fewer than :data:`MIN_MAP_TRIALS` is not decisive (``inconclusive``) either way, so
    that no ``paper`` diagnosis rests on it and no ``construction`` / ``stand-in`` / ``setting`` rescue either (the
    measured cell's own verdict is the claim's: a small chosen cell that holds needs no diagnosis). When such small
    cells leave the map undecided, the :class:`~inferopt.experiment.claims.Unearned` reason names them first, with
    their verdict on their own trials and what the map would earn were they decisive (the same map with their
    verdicts kept): what would decide the claim."""
    cells = [dict(c) for c in cells]
    if len(cells) < MIN_SWEEP:
        raise ValueError(f"a verdict map needs at least {MIN_SWEEP} cells; got {len(cells)}")
    at = [c for c in cells if c["setting"] == chosen]
    if not at:
        raise ValueError(f"chosen {chosen!r} is not the setting of any cell")
    if at[0]["verdict"] == "holds":
        return None
    small = {}
    for i, n in (n_trials or {}).items():
        if n < MIN_MAP_TRIALS and cells[i]["verdict"] in ("holds", "fails"):
            small[i] = (cells[i]["verdict"], n)
            cells[i] = dict(cells[i], verdict="inconclusive", note=f"{n} trials, fewer than {MIN_MAP_TRIALS}")
    out = _map_kind(cells, text)
    if not isinstance(out, Unearned) or not small:
        return out
    whole = _map_kind([dict(c, verdict=small[i][0]) if i in small else c for i, c in enumerate(cells)], text)
    shown = "; ".join(f"the cell{_whose(cells[i])} ({setting_text(cells[i]['setting'])}) {v} on its {n} trials"
                      + (f" ({cells[i]['numbers']})" if cells[i].get("numbers") else "")
                      for i, (v, n) in small.items())
    it, them = ("they", "them") if len(small) > 1 else ("it", "it")
    if isinstance(whole, Unearned):
        return Unearned(f"{shown}, on fewer than {MIN_MAP_TRIALS} trials: not decisive; were {it} decisive, the map would "
                        f"still earn nothing. {out.reason}", out.evidence)
    return Unearned(f"{shown}, but fewer than {MIN_MAP_TRIALS} trials are not decisive: that is what leaves the verdict map "
                    f"undecided (were {it} decisive, it would earn a '{whole['kind']}' diagnosis; {MIN_MAP_TRIALS} trials of "
                    f"{them} would decide it). {out.reason}", out.evidence)


def _whose(c: dict) -> str:
    """``" of the authors' construction"`` / ``" of our construction"`` for a verdict-map cell; ``""`` without one."""
    return {"authors": " of the authors' construction", "ours": " of our construction"}.get(c.get("construction"), "")


def _map_kind(cells, text: str):
    """:func:`conjugate_diagnosis`' rule on cells whose trial counts are already applied."""
    evidence = {"sweep": cells}
    holding = [c for c in cells if c["verdict"] == "holds" and decisive(c)]
    for kind, pick, lead in [
        ("construction", lambda c: c.get("construction") == "authors", "It holds on the authors' construction"),
        ("stand-in", lambda c: c.get("data") == "paper-shape", "It holds on data of the paper's shape"),
        ("setting", lambda c: True, "It holds at another setting"),
    ]:
        rescue = [c for c in holding if pick(c)]
        if rescue:
            shown = "; ".join(", ".join(f"{k} = {v}" for k, v in c["setting"].items()) for c in rescue)
            return {"kind": kind, "text": f"{text.strip()} {lead} ({shown}) and not at the chosen one.".strip(),
                    "evidence": evidence}
    return map_diagnosis(cells, text.strip())
