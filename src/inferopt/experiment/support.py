"""How much a claim's verdict can be trusted: the bootstrap over its independent units.

A claim computed from trials (coreset trials, boosting replicates, herding repetitions, runs
with their own seeds) is a function ``test(table) -> bool`` of the tidy table of those trials.
:func:`bootstrap_support` resamples the units (``by``: the column naming the trial) with
replacement, ``n_resamples`` times from a fixed seed, recomputes the claim on each resample
and returns the fraction in which it holds. :func:`supported_verdict` then reads the
verdict: ``holds`` / ``fails`` when at least :data:`MIN_SUPPORT` (90 %) of the resamples
agree with the verdict on the measured table, ``inconclusive`` otherwise -- and for a single unit, which
leaves nothing to resample.

A claim of a single deterministic computation has no resamples: its verdict stands and its
support says so (:func:`deterministic`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validation import check_callable, check_int, check_table

#: the least fraction of agreeing resamples for a ``holds`` / ``fails`` verdict
MIN_SUPPORT = 0.9
#: resamples of :func:`bootstrap_support` (its Monte-Carlo error on a fraction near 0.9 is about 2 %)
N_RESAMPLES = 200


def resample_units(table: pd.DataFrame, by: str, rng: np.random.Generator) -> pd.DataFrame:
    """``table`` rebuilt from its units (the distinct values of column ``by``) drawn with
    replacement; a unit drawn twice appears twice, under two new labels ``0 … n−1``."""
    groups = _unit_groups(table, by)
    n = len(groups.sizes)
    return _rebuild(groups, by, np.sort(rng.choice(n, size=n, replace=True)))


@dataclass(frozen=True)
class _Units:
    """A table's rows grouped by unit: ``frame`` holds unit 0's rows, then unit 1's, ... (units in order of first
    appearance, :func:`pandas.unique`'s; rows in table order within a unit), unit ``j``'s at ``starts[j]``, ``sizes[j]``
    of them."""
    frame: pd.DataFrame
    starts: np.ndarray
    sizes: np.ndarray


def _unit_groups(table: pd.DataFrame, by: str) -> _Units:
    codes, _ = pd.factorize(table[by])       # unit j = the j-th value of pd.unique(table[by])
    sizes = np.bincount(codes)
    return _Units(table.iloc[np.argsort(codes, kind="stable")], np.cumsum(sizes) - sizes, sizes)


def _rebuild(groups: _Units, by: str, drawn) -> pd.DataFrame:
    """The table of the units ``drawn`` (indices into ``groups``, in order), relabelled ``0 … n−1``: one positional
    take of their rows (a unit drawn twice appears twice, under two labels), index ``0 … rows−1``."""
    drawn = np.asarray(drawn, dtype=np.intp)
    sizes = groups.sizes[drawn]
    first = np.repeat(groups.starts[drawn] - (np.cumsum(sizes) - sizes), sizes)
    rows = groups.frame.iloc[first + np.arange(sizes.sum())].reset_index(drop=True)
    return rows.assign(**{by: np.repeat(np.arange(len(drawn), dtype=np.int64), sizes)})


def bootstrap_support(test, table: pd.DataFrame, *, by: str, within: str | None = None, n_resamples: int = N_RESAMPLES,
                      seed: int = 0) -> dict:
    """The fraction of bootstrap resamples of ``table``'s units (column ``by``) in which
    ``test`` holds, with how it was obtained::

        {"fraction_holding": 0.97, "method": "bootstrap", "unit": "trial", "n_units": 10,
         "n_resamples": 200, "seed": 0}

    ``test(table) -> bool`` recomputes the claim from a table of the same form. ``within``: a column whose groups are
    resampled apart (the stratified bootstrap: each group's units drawn from its own, its count kept; ``unit`` reads
    ``"<by> within <within>"``, ``n_units`` counts the (group, unit) pairs): for a claim on per-group summaries (a
    rule's mean over its runs) whose groups do not share their units (a run missing from some group), where a
    resample of shared units could leave a group empty. Labels are then no longer paired across groups. A group of
    one unit enters every resample as it is (its spread unmeasured: the support is conditional on it, and ``fixed``
    names such groups); when no group has two units (or, without ``within``, the table holds one unit) nothing is
    resampled: no support (``"single unit"``)."""
    check_callable("test", test)
    check_table("table", table, (by,) if within is None else (by, within))
    if isinstance(test, Gated):
        return {"method": "gated", "note": test.reason}
    n_resamples = check_int("n_resamples", n_resamples, low=1)
    rng = np.random.default_rng(check_int("seed", seed, low=0))
    if table.empty:
        raise ValueError(f"table must hold at least one unit (a value of {by!r}); it is empty")
    strata = [(None, table)] if within is None else list(table.groupby(within, sort=True))
    units = [pd.unique(s[by]) for _, s in strata]
    unit = by if within is None else f"{by} within {within}"
    n_units = sum(len(u) for u in units)
    lone = [str(key) for (key, _), u in zip(strata, units) if len(u) == 1]
    if len(lone) == len(strata):
        where = "" if within is None else f" in every {within}"
        return {"method": "single unit", "unit": unit, "n_units": n_units,
                "note": f"one {by}{where}: nothing to resample, no support"}
    groups = [_unit_groups(s, by) for _, s in strata]
    # a resample is the multiset of units drawn (sorted: the order of units in a table is no part of a claim), so
    # a multiset drawn again gives the outcome it gave: few units have few multisets (3 units: 10)
    outcomes: dict[tuple, bool] = {}
    held = []
    for _ in range(n_resamples):
        drawn = tuple(tuple(np.sort(rng.choice(len(u), size=len(u), replace=True)).tolist()) for u in units)
        if drawn not in outcomes:
            outcomes[drawn] = _outcome(test, pd.concat([_rebuild(g, by, d) for g, d in zip(groups, drawn)],
                                                       ignore_index=True))
        held.append(outcomes[drawn])
    out = {"fraction_holding": float(np.mean(held)), "method": "bootstrap", "unit": unit, "n_units": n_units,
           "n_resamples": n_resamples, "seed": int(seed)}
    if lone:
        out |= {"fixed": lone, "note": f"one {by} in {within} {', '.join(lone)}: it enters every resample as it is (its "
                                       "spread unmeasured)"}
    return out


def supported_readings(test_at, table: pd.DataFrame, values, *, chosen, by: str, seed: int = 0,
                       turning_only: bool = False) -> list[dict]:
    """The readings of a cut-off of ours (``[{"value", "verdict"[, "support"]}]``, the form and order of
    :func:`~.claims.readings`), each verdict standing on its own bootstrap support: ``test_at(table, value)
    -> bool`` (or None: not measured at that value) at every value of ``values`` (``chosen`` added if absent; a value
    may be a list, a cut-off of several parts), read by :func:`supported_verdict` (``inconclusive`` below
    :data:`MIN_SUPPORT`), ``support`` the fraction of resamples holding (a resample where the test is not measured
    does not hold). A reading that is not decisive cannot make the verdict turn (:meth:`~.record.Experiment.claim`).
    ``turning_only``: only the readings whose measured verdict differs from the chosen value's are resampled (only they
    can make the verdict turn, and only when decisive); the others keep their plain verdict, without support."""
    check_callable("test_at", test_at)
    vals = []
    for v in [*values, chosen]:
        if v not in vals:
            vals.append(v)
    plain = {i: test_at(table, v) for i, v in enumerate(vals)}
    at_chosen = plain[vals.index(chosen)]
    out = []
    for i in sorted(range(len(vals)), key=lambda i: vals[i]):
        v, outcome = vals[i], plain[i]
        if outcome is None:
            out.append({"value": v, "verdict": "not measured"})
        elif turning_only and (at_chosen is None or bool(outcome) == bool(at_chosen)):
            out.append({"value": v, "verdict": "holds" if outcome else "fails"})
        else:
            support = bootstrap_support(lambda t, v=v: bool(test_at(t, v)), table, by=by, seed=seed)
            out.append({"value": v, "verdict": supported_verdict(bool(outcome), support),
                        "support": support.get("fraction_holding")})
    return out


def deterministic(reason: str = "computed once from this run's numbers: no trials to resample") -> dict:
    """The support of a claim without resamples: its verdict stands, and says why."""
    if not isinstance(reason, str) or not reason:
        raise TypeError(f"reason must be a non-empty string; got {reason!r}")
    return {"method": "deterministic", "note": reason}


@dataclass(frozen=True)
class Gated:
    """The test of a claim a gate leaves undecided (e.g. a regime where the compared quantity means nothing, with the
    gate's ``reason``): it never holds, and its support (:func:`bootstrap_support`) is ``"gated"``, no resample, so
    the claim is ``inconclusive`` with that reason -- never a bootstrap of a placeholder outcome."""

    reason: str

    def __call__(self, table) -> bool:
        return False


#: the methods a support records: resampled units, one computation, one unit only, a gate's
SUPPORT_METHODS = ("bootstrap", "deterministic", "single unit", "gated")


def check_support(support) -> dict:
    """A claim's support as written by :func:`bootstrap_support` or :func:`deterministic`: a
    mapping whose ``method`` is one of :data:`SUPPORT_METHODS`; a bootstrap's
    ``fraction_holding`` a number in [0, 1] and its ``n_units`` / ``n_resamples`` positive
    integers. Else ``ValueError`` naming the field."""
    if not isinstance(support, dict):
        raise TypeError(f"support must be a mapping (bootstrap_support(...) or deterministic(...)); got {support!r}")
    method = support.get("method")
    if method not in SUPPORT_METHODS:
        raise ValueError(f"support['method'] must be one of {SUPPORT_METHODS}; got {method!r}")
    if method == "bootstrap":
        f = support.get("fraction_holding")
        if isinstance(f, bool) or not isinstance(f, int | float | np.integer | np.floating) or not 0.0 <= float(f) <= 1.0:
            raise ValueError(f"support['fraction_holding'] must be a fraction in [0, 1]; got {f!r}")
        for key in ("n_units", "n_resamples"):
            n = support.get(key)
            if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
                raise ValueError(f"support[{key!r}] must be a positive integer; got {n!r}")
    elif method in ("deterministic", "gated") and (not isinstance(support.get("note"), str) or not support["note"].strip()):
        raise ValueError(f"a {method} support needs its note: why the verdict has no resamples")
    return dict(support)


def agreeing_test(outcome, point: bool | None):
    """A boolean test for :func:`bootstrap_support` from a three-valued ``outcome(table) -> True / False / None``, whose
    share of resamples holding is the support of the verdict ``point`` (the outcome on the measured table; B3.5's, also
    D4's readings): where ``point`` is False, a resample holds unless it fails (an undecided resample does not agree with
    a failure); else it holds only where it holds (an undecided resample does not agree with holding). Either way a
    resample left undecided never counts for the decisive verdict, and never as its opposite either."""
    if not callable(outcome):
        raise TypeError(f"outcome must be callable table -> True / False / None; got {type(outcome).__name__}")
    if point is False:
        return lambda tab: outcome(tab) is not False
    return lambda tab: outcome(tab) is True


def percent_below(agree: float, line: float = MIN_SUPPORT) -> str:
    """A share short of ``line`` as a percentage that never reads as the line itself: whole percent (``61``), unless
    that rounds up to the line or past it (0.895 -> ``90``), then floored to one decimal (``89.5``; review C1: "only
    90 % ... needs 90 %" read as a contradiction). Only :func:`support_reason` prints it, for an undecided support."""
    shown = f"{100 * agree:.0f}"
    return shown if float(shown) < 100 * line else f"{np.floor(1000 * agree) / 10:.1f}"


def support_reason(holds: bool, support: dict | None) -> str | None:
    """Why the support leaves ``holds`` undecided (:func:`supported_verdict` reads
    ``inconclusive``), in one line; None when it decides."""
    if support is not None and support.get("method") == "gated":
        return f"gated out: {support['note']}"
    if support is not None and support.get("method") == "single unit":
        return f"one {support.get('unit', 'unit')} only: nothing to resample, so no support either way"
    if support is None or support.get("method") != "bootstrap":
        return None
    agree = support["fraction_holding"] if holds else 1.0 - support["fraction_holding"]
    if agree >= MIN_SUPPORT:
        return None
    unit = support.get("unit", "unit")
    return (f"it {'holds' if holds else 'fails'} on the measured {unit}s, but only {percent_below(agree)} % of "
            f"{support.get('n_resamples', 'the')} bootstrap resamples of its {support.get('n_units', '')} {unit}s agree "
            f"(a decisive verdict needs {100 * MIN_SUPPORT:.0f} %)").replace("  ", " ")


def supported_verdict(holds: bool, support: dict | None) -> str:
    """``holds`` / ``fails`` from the measured outcome ``holds``; ``inconclusive`` when a
    bootstrap ``support`` has fewer than :data:`MIN_SUPPORT` of its resamples agreeing with it
    (:func:`support_reason` says why), or a single unit."""
    if support_reason(holds, support) is not None:
        return "inconclusive"
    return "holds" if holds else "fails"


def _outcome(test, table) -> bool:
    out = test(table)
    if not isinstance(out, bool | np.bool_):
        raise TypeError(f"test must return a boolean; got {type(out).__name__}")
    return bool(out)
