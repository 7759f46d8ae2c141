"""The deciding code of paper B's claims (Bach et al. 2012, B1-B6): each function turns the error
tables of :mod:`inferopt.experiment.herding` into the number or boolean a claim is decided on.

Tables are ``(t x method)`` errors (:func:`~inferopt.experiment.herding.error_table`), every method
read at the same sizes ``t``. Every function refuses a comparison it cannot make (a size without an
error, no size left) with a ValueError, so that a claim is never decided on nothing.

* :func:`dyadic` -- the sizes ``t = 2^k`` among some sizes (herding's and Sobol's evenly spaced sets);
* :func:`rate_near` -- B6.3 (and B1's check of Sobol's rate): a log-log slope fitted on given sizes, within
  ``tol`` of a rate;
* :func:`same_rate` -- B1.5 on one grid: herding's slope against Sobol's and against the optimal rate, undecided where the
  grid keeps Sobol itself from the rate (outside the claim's regime); :func:`tracked_nets` -- the nets up to herding's
  first departure from Sobol on one grid; :func:`departure_recedes` -- across a refinement series, that departure moves
  out as the grid refines (the grid's, not herding's);
* :func:`norm_slopes`, :func:`faster_than_iid`, :func:`at_most_rate` -- B1's recorded check of the introduction's
  O(1/t), in two parts: the rate of ``||mu - mu_hat_t||`` faster than i.i.d. sampling's, and at most ``O(1/t)`` within a
  tolerance;
* :func:`proj_gains`, :func:`gain_share`, :func:`proj_gain_share` -- B1.3: the share of sizes where ``-proj`` divides
  the error by more than a cut, the sizes the claim excuses left out; :func:`lattice_sizes` -- the sizes it excuses
  (herding's points are Sobol's, a lattice: the gain is 1 by construction);
* :func:`share_below` -- the O(1/t) check (beside): the share of sizes where one method's error is below another's;
* B3's statistics (B3.1-B3.5) are in :mod:`~.boundary_claims`, B5's (B5.1, B5.2, B5.5) in :mod:`~.moment_claims`;
* :func:`same_points` -- B6.4, B6.5: two recursions choose the same points and give the same errors;
* :func:`entropy_tradeoff` -- B4.6 and B5.3 (Fig. 6's and Fig. 7's runs): where a method is better at the moments, is it farther from the maximum entropy, with lower entropy?
* :func:`size_outcomes`, :func:`classify`, :func:`never_beaten`, :func:`best_in_panels`, :func:`best_from` -- B1.1: per size
  ``t``, win / tie / loss of a method against the best of the others, and over the panels (a panel tied throughout
  excused) under a reading [tie tolerance, first size]; :func:`line_width_tie` -- a tie at Fig. 3's resolution (one
  line's width) on a fixed y-range (:func:`fixed_ylim`); :func:`worst_losses`, :func:`reading_losses`,
  :func:`dropped_losses` -- its evidence (every loss a reading forgives); :func:`share_holds` -- its share reading of
  "always" (nine sizes in ten, no loss wider than a line forgiven);
* :func:`across_readings` -- a verdict-map cell judged at every reading of its claim's threshold (B1.1 and B1's maps);
* :func:`reading_over_map` -- B1.1: one reading of a threshold judged over every cell of the map;
* :func:`median_gain_above` -- B1.3's per-curve reading: the median gain over the sizes read above a cut;
* :func:`tracks_to_end` -- B1.5 on herding's exact run: it tracks Sobol at every net to the run's end;
* :func:`slightly_worse` -- B1.2: a ratio in ``(1, cut]`` in every panel; :func:`slope_gap`, :func:`worse_at_same_rate`
  -- its rate reading: worse at the same log-log rate;
* :func:`beats_at`, :func:`beats_for_order` -- B1.4: the sizes at which one method's error is below another's; at
  some size of some panel of a Sobolev order (a reading of the paper's lost word);
* :func:`ends_on_mean`, :func:`reaches_first` -- B2.1, B2.2: fitting the empirical mean, and who fits it first;
* :func:`converges`, :func:`stalls` -- B4.1-B4.4, B5.1: the distance to the maximum-entropy distribution goes to 0, or
  does not (B4's other statistics are in :mod:`.maxent_claims`);
* :func:`linear_not_polynomial`, :func:`all_at_most` -- B6.1, B6.3;
* :func:`always_readings` -- B1.3: readings of "always" (a share of the sizes, a first size);
* :func:`map_holds` -- B1, B5: a claim read in every cell of its verdict map (fails where a cell fails; a ``not
  measured`` cell, its premise absent, decides nothing);
* :func:`below_share` -- B4.7, B4.10, B4.11, B5.6: the share of sizes where line search's moment error is below herding's (errors
  below the LMO's resolution read as 0; a tie at 0 is no win);
* :func:`readings_turn` -- B3.2: does a verdict turn within the readings of its cut-off;
* :func:`figure_cell_diagnosis` -- B3.2, B5: the diagnosis of a claim decided at the figure's cell (a map cell that turns
  within its readings rescues nothing: what would decide it is named);
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import as_finite_array, check_int, check_int_sequence, check_real, check_table
from .herding import ROUNDING_LEVEL, at_sizes, slopes_over_sizes
from .verdict_map import map_holds  # noqa: F401 (B1, B5 and the claim modules read it here; defined in verdict_map)


def dyadic(sizes, t_min: int = 8) -> list[int]:
    """The sizes ``t = 2^k >= t_min`` among ``sizes``."""
    sizes = check_int_sequence("sizes", sizes, low=1)
    t_min = check_int("t_min", t_min, low=1)
    return [int(t) for t in sizes if t >= t_min and t & (t - 1) == 0]


def rate_near(table: pd.DataFrame, method: str, sizes, rate: float, tol: float) -> tuple[bool, float]:
    """``(|slope - rate| <= tol, slope)``: the least-squares log-log slope of ``method``'s error fitted on ``sizes``."""
    rate, tol = check_real("rate", rate), check_real("tol", tol, low=0.0)
    slope = slopes_over_sizes(table, [method], sizes)[method]
    return bool(abs(slope - rate) <= tol), float(slope)


def same_rate(slope: float, reference: float, rate: float, tol: float) -> bool | None:
    """B1.5 in one cell of its map ("regular herding empirically achieves the same rate" as the Sobol sequence, the
    optimal ``t^rate``): herding's log-log ``slope`` and Sobol's, ``reference``, fitted at the same sizes on the same
    grid. ``None`` where ``reference`` is not within ``tol`` of ``rate``: the grid keeps Sobol itself from the rate at
    these sizes (its floor, not herding, sets the slopes), so the cell cannot test the claim: it is outside its regime.
    Otherwise whether ``slope`` is within ``tol`` of ``rate`` and within ``tol`` of ``reference``."""
    slope, reference = check_real("slope", slope), check_real("reference", reference)
    rate, tol = check_real("rate", rate), check_real("tol", tol, low=0.0)
    if abs(reference - rate) > tol:
        return None
    return bool(abs(slope - rate) <= tol and abs(slope - reference) <= tol)


def tracked_nets(table: pd.DataFrame, method: str, reference: str, tol: float, t_min: int = 8) -> list[int]:
    """B1.5 on one grid: the nets ``t = 2^k >= t_min`` of ``table`` up to ``method``'s first departure from
    ``reference``: the leading run of nets, in increasing ``t``, at which ``|error / reference error - 1| <= tol`` (both
    read at the same ``t``). Every net when it never departs; none when it departs at the first."""
    tol = check_real("tol", tol, low=0.0)
    nets = dyadic(table.index, t_min)
    if not nets:
        raise ValueError(f"tracked_nets: the table has no net t = 2^k >= {t_min}")
    rows = at_sizes(table, [method, reference], nets)
    if (rows[reference].to_numpy(dtype=float) <= 0).any():
        raise ValueError(f"tracked_nets: {reference!r} needs a positive error at every net to compare against")
    off = np.abs(rows[method].to_numpy(dtype=float) / rows[reference].to_numpy(dtype=float) - 1) > tol
    return nets[: int(np.argmax(off))] if off.any() else nets


def departure_recedes(last_tracked: dict, last_net: int) -> bool:
    """B1.5 across a refinement series of grids: ``last_tracked`` maps each grid's size to the last net at which herding
    still tracks Sobol on it (:func:`tracked_nets`; 0 where it departs at the first net), ``last_net`` the run's last
    net. Holds where the departure recedes as the grid refines: the last tracked net never falls from a coarser grid to a
    finer one, and the finest grid tracks further than the coarsest or to the run's end. Then the departures are the
    grids' (they move out of the run as the search nears the exact minimisation over [0, 1]), not herding's; a departure
    that stays at one ``t`` whatever the grid is herding's own and fails."""
    last_net = check_int("last_net", last_net, low=1)
    if not isinstance(last_tracked, dict) or len(last_tracked) < 2:
        raise ValueError(f"last_tracked must map at least two grid sizes to their last tracked net; got {last_tracked!r}")
    sizes = sorted(check_int_sequence("grid sizes", list(last_tracked), low=1))
    last = [check_int("last tracked net", last_tracked[n], low=0) for n in sizes]
    if max(last) > last_net:
        raise ValueError(f"a last tracked net ({max(last)}) exceeds the run's last net ({last_net})")
    return bool(all(b >= a for a, b in zip(last, last[1:])) and (last[-1] > last[0] or last[-1] == last_net))


def proj_gains(table: pd.DataFrame, method: str, sizes, excused=()) -> pd.Series:
    """B1.3: the gain ``error / error-proj`` of ``method`` at ``sizes`` (both read at the same ``t``), the sizes in
    ``excused`` left out."""
    excused = set(check_int_sequence("excused", excused, low=1)) if len(excused) else set()
    kept = [t for t in check_int_sequence("sizes", sizes, low=1) if t not in excused]
    if not kept:
        raise ValueError("proj_gains: every size is excused; no size is left to read the gain at")
    rows = at_sizes(table, [method, method + "-proj"], kept)
    return rows[method] / rows[method + "-proj"]


def gain_share(gains, cut: float) -> float:
    """B1.3: the share of the ``gains`` (:func:`proj_gains`) above ``cut``."""
    cut = check_real("cut", cut, low=1.0)
    g = as_finite_array("gains", gains, ndim=1, nonempty=True)
    return float((g > cut).mean())


def proj_gain_share(table: pd.DataFrame, method: str, sizes, cut: float, excused=()) -> float:
    """B1.3: the share of ``sizes`` (those in ``excused`` left out) at which ``error / error-proj > cut``
    (both read at the same ``t``)."""
    cut = check_real("cut", cut, low=1.0)
    return gain_share(proj_gains(table, method, sizes, excused), cut)


def share_below(table: pd.DataFrame, method: str, other: str, sizes) -> float:
    """The share of ``sizes`` at which ``method``'s error is strictly below ``other``'s (read at the same ``t``)."""
    rows = at_sizes(table, [method, other], sizes)
    return float((rows[method] < rows[other]).mean())












def same_points(points_a, points_b, errors_a, errors_b, rtol: float = 1e-8) -> tuple[float, float]:
    """B6.4, B6.5: ``(share of steps with the same point, largest relative error difference)`` of two runs:
    ``points_*`` the chosen points (rows: their features or coordinates), ``errors_*`` the errors after each step."""
    a, b = np.asarray(points_a, dtype=float), np.asarray(points_b, dtype=float)
    ea, eb = as_finite_array("errors_a", errors_a, ndim=1), as_finite_array("errors_b", errors_b, ndim=1)
    if a.shape != b.shape or len(ea) != len(eb) or len(ea) != len(a):
        raise ValueError(f"the two runs must have the same number of steps; got {a.shape}, {b.shape}, {len(ea)}, {len(eb)}")
    rtol = check_real("rtol", rtol, low=0.0)
    same = np.all(np.isclose(a.reshape(len(a), -1), b.reshape(len(b), -1), rtol=0.0, atol=1e-12), axis=1)
    scale = np.maximum(np.abs(ea), np.abs(eb)).max()
    return float(same.mean()), float(np.max(np.abs(ea - eb)) / scale) if scale > 0 else 0.0


def entropy_tradeoff(better: dict, worse: dict, factor: float = 10.0) -> bool | None:
    """B4.6: where the method ``better`` is more efficient at the moments (its final moment error below ``worse``'s by
    more than ``factor``; ``{"mean_error", "dist", "entropy"}`` at the end of a run), is it farther from the
    maximum-entropy distribution, with a lower entropy (the trade-off of Sec. 6)? ``None`` where it is not more
    efficient (the claim's premise does not apply: e.g. herding matches rational means exactly)."""
    factor = check_real("factor", factor, low=1.0)
    for name, d in (("better", better), ("worse", worse)):
        missing = {"mean_error", "dist", "entropy"} - set(d)
        if missing:
            raise ValueError(f"{name} must give mean_error, dist and entropy; missing {sorted(missing)}")
    if not factor * better["mean_error"] < worse["mean_error"]:
        return None
    return bool(better["dist"] > worse["dist"] and better["entropy"] < worse["entropy"])


#: B1.1: two errors within this relative difference (or both at the rounding level) are a tie, counted as a tie
TIE_RTOL = 1e-9


def size_outcomes(table: pd.DataFrame, method: str, others, sizes, tie_rtol: float = TIE_RTOL) -> pd.DataFrame:
    """B1.1: at each of ``sizes``, ``method``'s error against the best (smallest) error of ``others`` measured there
    (an other with no error at a size, a ``-proj`` arm between its sizes, is left out there; every size needs one).
    Errors below ``ROUNDING_LEVEL`` times the table's largest error are read at that level. Columns ``best other, ratio,
    outcome``: ``win`` (ratio below ``1 - tie_rtol``), ``tie`` (within ``tie_rtol`` of 1) or ``loss``; index ``t``."""
    others = list(others)
    tie_rtol = check_real("tie_rtol", tie_rtol, low=0.0)
    check_table("table", table, [method, *others])
    sizes = check_int_sequence("sizes", sizes, low=1)
    rows = at_sizes(table, [method], sizes)
    floor = ROUNDING_LEVEL * float(np.nanmax(table.to_numpy(dtype=float)))
    oth = table.loc[sizes, others]
    empty = oth.index[oth.isna().all(axis=1)].tolist()
    if empty:
        raise ValueError(f"size_outcomes: no other method has an error at sizes {empty[:5]}")
    best = oth.min(axis=1, skipna=True).clip(lower=floor)
    ratio = rows[method].clip(lower=floor) / best
    return pd.DataFrame({"best other": oth.idxmin(axis=1, skipna=True), "ratio": ratio, "outcome": classify(ratio, tie_rtol)},
                        index=rows.index)


def classify(ratio, tie_rtol: float = TIE_RTOL) -> np.ndarray:
    """B1.1: ``win`` / ``tie`` / ``loss`` of each ratio (a method's error over the best other's): a tie within
    ``tie_rtol`` of 1."""
    tie_rtol = check_real("tie_rtol", tie_rtol, low=0.0)
    r = as_finite_array("ratio", ratio, ndim=1)
    return np.where(r < 1 - tie_rtol, "win", np.where(r <= 1 + tie_rtol, "tie", "loss"))


def never_beaten(outcomes) -> bool:
    """B1.1 ("always performs best"): no size is a ``loss`` and at least one is a ``win`` (a method tied everywhere
    is not shown best; ties are counted as ties, not as wins). ``outcomes``: :func:`classify`'s labels."""
    out = np.asarray(outcomes, dtype=object)
    if out.ndim != 1 or not len(out):
        raise ValueError(f"never_beaten needs a non-empty 1-d sequence of outcomes; got shape {out.shape}")
    unknown = set(out) - {"win", "tie", "loss"}
    if unknown:
        raise ValueError(f"outcomes must be 'win', 'tie' or 'loss'; got {sorted(map(str, unknown))}")
    return bool((out != "loss").all() and (out == "win").any())


def best_in_panels(outcomes: dict, holds) -> bool:
    """B1.1 over the panels of Fig. 3 ("always performs best"): ``holds(series)`` (a reading of "always" of one panel's
    win / tie / loss labels, a Series indexed by ``t``) in every panel not tied at every size, and at least one such
    panel. A panel tied throughout (the method lands on the same weighted points as the best other: uniform density,
    herding on the van der Corput points) neither shows the method best nor beats it: it is excused, not failed."""
    if not isinstance(outcomes, dict) or not outcomes:
        raise TypeError("outcomes must be a non-empty mapping panel -> Series of 'win' / 'tie' / 'loss' labels")
    if not callable(holds):
        raise TypeError(f"holds must be a callable reading of one panel's labels; got {type(holds).__name__}")
    read = []
    for name, out in outcomes.items():
        if not isinstance(out, pd.Series) or not len(out):
            raise ValueError(f"outcomes[{name!r}] must be a non-empty Series of outcomes indexed by t")
        never_beaten(out.to_numpy())   # validates the labels
        if not (out == "tie").all():
            read.append(bool(holds(out)))
    return bool(read) and all(read)


def line_width_tie(line_width: float, axes_height: float, ylim) -> float:
    """B1.1's tie at a figure's resolution: the relative difference ``10^w - 1`` of two values one line's width apart
    on a log axis, ``w = (line_width / 72) / axes_height * log10(ylim[1] / ylim[0])`` decades (the line's width in
    points, the axes' height in inches, its limits): defined by the plot's geometry alone, not by the values plotted
    in it. Two curves closer than this overlap: the figure cannot show which is below."""
    line_width = check_real("line_width", line_width, low=0.0)
    axes_height = check_real("axes_height", axes_height, low=0.0, low_open=True)
    y = as_finite_array("ylim", ylim, ndim=1)
    if len(y) != 2 or not 0 < y[0] < y[1]:
        raise ValueError(f"ylim must be the log axis' limits (low, high) with 0 < low < high; got {ylim!r}")
    return float(10 ** (line_width / 72 / axes_height * np.log10(y[1] / y[0])) - 1)


def _panel_tie(tie_rtol, name) -> float:
    """The tie tolerance of panel ``name``: ``tie_rtol`` itself (one for every panel) or its entry (a mapping panel ->
    tolerance, e.g. one line's width of each panel, :func:`line_width_tie`)."""
    if isinstance(tie_rtol, dict):
        if name not in tie_rtol:
            raise ValueError(f"tie_rtol gives no tolerance for panel {name!r}; it has {sorted(map(str, tie_rtol))}")
        return check_real(f"tie_rtol[{name!r}]", tie_rtol[name], low=0.0)
    return check_real("tie_rtol", tie_rtol, low=0.0)


def best_from(outcomes: dict, tie_rtol, first: int) -> bool:
    """B1.1 under one reading ``[tie_rtol, first]`` of "min-norm-point algorithms always perform best" (Sec. 5.1, Fig. 3):
    in every panel (``outcomes``: panel -> :func:`size_outcomes`' table, index ``t``), at every size ``t >= first`` read,
    the ratio of min-norm-point's error to the best other's is not a loss at the tie tolerance ``tie_rtol``
    (:func:`classify`; a number, or a mapping panel -> its own tolerance, such as one line's width of that panel of
    Fig. 3, :func:`line_width_tie`), and one size is a win; a panel tied at every such size is excused
    (:func:`best_in_panels`)."""
    first = check_int("first", first, low=1)
    if not isinstance(outcomes, dict) or not outcomes:
        raise TypeError("outcomes must be a non-empty mapping panel -> size_outcomes table (a 'ratio' column indexed by t)")
    labels = {}
    for name, o in outcomes.items():
        if not isinstance(o, pd.DataFrame) or "ratio" not in o:
            raise ValueError(f"outcomes[{name!r}] must be a size_outcomes table with a 'ratio' column indexed by t")
        r = o["ratio"][o.index >= first]
        if not len(r):
            raise ValueError(f"outcomes[{name!r}] has no size t >= first = {first}: nothing to read")
        labels[name] = pd.Series(classify(r.to_numpy(), _panel_tie(tie_rtol, name)), index=r.index)
    return best_in_panels(labels, lambda out: never_beaten(out.to_numpy()))


def worst_losses(outcomes: pd.DataFrame, n: int = 5, tie_rtol: float = TIE_RTOL) -> pd.DataFrame:
    """B1.1's evidence: the ``n`` sizes of one panel (:func:`size_outcomes`' table) where the method is beaten by the
    most (ratio above ``1 + tie_rtol``), the largest ratio first; the table's columns, index ``t``."""
    n, tie_rtol = check_int("n", n, low=1), check_real("tie_rtol", tie_rtol, low=0.0)
    if not isinstance(outcomes, pd.DataFrame) or not {"ratio", "best other"} <= set(outcomes):
        raise ValueError("outcomes must be a size_outcomes table (columns 'best other', 'ratio', indexed by t)")
    lost = outcomes[outcomes["ratio"] > 1 + tie_rtol]
    return lost.sort_values("ratio", ascending=False, kind="stable").head(n)


def reading_losses(outcomes: dict, tie_rtol, first: int) -> pd.DataFrame:
    """B1.1's evidence under one reading ``[tie_rtol, first]`` (:func:`best_from`; ``tie_rtol`` a number or a mapping
    panel -> tolerance): per panel (``outcomes``: panel ->
    :func:`size_outcomes`' table, index ``t``) with a loss at some size ``t >= first``, the number of sizes lost, the
    largest ratio, its ``t`` and best other, and its margin above the cut, ``ratio / (1 + tie_rtol) - 1``; columns
    ``lost, ratio, t, best other, above cut``, index the panel (empty: no loss under this reading)."""
    first = check_int("first", first, low=1)
    if not isinstance(outcomes, dict) or not outcomes:
        raise TypeError("outcomes must be a non-empty mapping panel -> size_outcomes table")
    rows = {}
    for name, o in outcomes.items():
        if not isinstance(o, pd.DataFrame) or not {"ratio", "best other"} <= set(o):
            raise ValueError(f"outcomes[{name!r}] must be a size_outcomes table (columns 'best other', 'ratio', indexed by t)")
        tie = _panel_tie(tie_rtol, name)
        lost = worst_losses(o[o.index >= first], n=max(len(o), 1), tie_rtol=tie)
        if len(lost):
            r = float(lost["ratio"].iloc[0])
            rows[name] = {"lost": len(lost), "ratio": r, "t": int(lost.index[0]), "best other": lost["best other"].iloc[0],
                          "above cut": r / (1 + tie) - 1}
    return pd.DataFrame.from_dict(rows, orient="index", columns=["lost", "ratio", "t", "best other", "above cut"])


def fixed_ylim(errors) -> tuple[float, float]:
    """B1.1's y-range of one panel of Fig. 3, fixed by the errors themselves and not by a plotting library's
    autoscale: from the smallest error above the rounding level (``ROUNDING_LEVEL`` times the largest: below it an
    error is round-off, not a measurement) to the largest, ``(low, high)``, the decades the errors span (no margin).
    The paper's axes are not legible in its text; :func:`line_width_tie` reads one line's width on this range."""
    e = as_finite_array("errors", errors, ndim=None, nonempty=True).ravel()
    top = float(e.max())
    if top <= 0:
        raise ValueError("fixed_ylim needs a positive error")
    low = float(e[e > ROUNDING_LEVEL * top].min())
    if low >= top:
        raise ValueError("fixed_ylim needs errors spanning a range (all errors above the rounding level are equal)")
    return low, top


def share_holds(ratios, tie: float, always: float, cap: float) -> bool:
    """B1.1's share reading of "always" in one panel (:func:`~.herding_fig3.best_always`): at least the share ``always``
    of the ``ratios`` read (min-norm-point's error over the best other's, one per size) is not a loss (at most
    ``1 + tie``), and no loss is wider than ``cap`` (every ratio at most ``1 + max(tie, cap)``; ``cap`` one line's width
    of the panel on Fig. 3, :func:`line_width_tie`, read on a y-range fixed by the curves' own errors,
    :func:`fixed_ylim`): the share forgives only losses the figure cannot show, never one it shows."""
    r = as_finite_array("ratios", ratios, ndim=1, nonempty=True)
    tie, cap = check_real("tie", tie, low=0.0), check_real("cap", cap, low=0.0)
    always = check_real("always", always, low=0.0, high=1.0)
    return bool(np.mean(r <= 1 + tie) >= always - 1e-12 and (r <= 1 + max(tie, cap)).all())


def dropped_losses(outcomes: dict, tie_rtol, first: int, strict_tie: float = TIE_RTOL, strict_first: int | None = None,
                   always: float = 1.0, cap=None) -> pd.DataFrame:
    """B1.1's evidence of a reading ``[tie_rtol, first, always]`` (:func:`best_from`, :func:`share_holds`): every loss of
    the literal reading ``[strict_tie, strict_first]`` (default: the first size of each panel's table) that this reading
    forgives, and why: ``first size`` (at ``t < first``), ``tie`` (within the reading's tie), ``both``, or ``share``
    (``always`` < 1: a panel whose share of sizes not lost reaches ``always`` with no loss wider than ``cap``, a number or
    a mapping panel -> its own, forgives its remaining losses). Columns ``panel, t, ratio, best other, dropped by``, one
    row per loss forgiven, in panel and ``t`` order (empty: the reading forgives none). A reading that holds is reported
    with these rows: what it loosens is shown, not hidden."""
    first = check_int("first", first, low=1)
    strict_tie = check_real("strict_tie", strict_tie, low=0.0)
    always = check_real("always", always, low=0.0, high=1.0)
    if always < 1 and cap is None:
        raise ValueError("cap must be given where always < 1: the widest loss the share may forgive")
    if not isinstance(outcomes, dict) or not outcomes:
        raise TypeError("outcomes must be a non-empty mapping panel -> size_outcomes table")
    rows = []
    for name, o in outcomes.items():
        if not isinstance(o, pd.DataFrame) or not {"ratio", "best other"} <= set(o):
            raise ValueError(f"outcomes[{name!r}] must be a size_outcomes table (columns 'best other', 'ratio', indexed by t)")
        lo = int(o.index.min()) if strict_first is None else check_int("strict_first", strict_first, low=1)
        tie = _panel_tie(tie_rtol, name)
        read = o["ratio"][o.index >= first].to_numpy(dtype=float)
        shared = always < 1 and len(read) > 0 and share_holds(read, tie, always, _panel_tie(cap, name))
        lost = o[(o.index >= lo) & (o["ratio"] > 1 + strict_tie)]
        for t, r in lost.sort_index().iterrows():
            early, tied = t < first, r["ratio"] <= 1 + tie
            if early or tied or shared:
                rows.append({"panel": name, "t": int(t), "ratio": float(r["ratio"]), "best other": r["best other"],
                             "dropped by": "both" if early and tied else "first size" if early else "tie" if tied
                             else "share"})
    return pd.DataFrame(rows, columns=["panel", "t", "ratio", "best other", "dropped by"])


def lattice_sizes(points_a, points_b, sizes, atol: float = 1e-12) -> list[int]:
    """B1.3: the ``sizes`` ``t`` at which the first ``t`` of ``points_a`` and of ``points_b`` (in ``[0, 1)``, in the order
    chosen) are the same set, and that set is a lattice ``{(c + j) / t}`` (evenly spaced on the circle). On the uniform
    density with a translation-invariant kernel the Gram matrix of a lattice is circulant, so uniform weights are
    optimal there: the ``-proj`` gain is 1 by construction, for both. Decided on the point sets, not on ``t = 2^k``."""
    a = as_finite_array("points_a", points_a, ndim=1)
    b = as_finite_array("points_b", points_b, ndim=1)
    atol = check_real("atol", atol, low=0.0)
    out = []
    for t in check_int_sequence("sizes", sizes, low=1):
        if t > min(len(a), len(b)):
            raise ValueError(f"size {t} exceeds the points given ({len(a)}, {len(b)})")
        pa, pb = np.sort(a[:t]), np.sort(b[:t])
        gaps = np.diff(np.r_[pa, pa[0] + 1.0])
        if np.allclose(pa, pb, rtol=0.0, atol=atol) and np.allclose(gaps, 1.0 / t, rtol=0.0, atol=atol):
            out.append(int(t))
    return out


def across_readings(verdicts) -> bool | None:
    """A cell of a verdict map judged at every reading of its claim's threshold (B1.1, and B1's other maps): ``True``
    where the claim holds at every reading, ``False`` where it fails at every one, ``None`` where the verdict turns with
    the reading (the cell decides nothing: it neither rescues the claim nor counts towards a ``paper`` diagnosis).
    ``verdicts``: one boolean per reading, as a sequence or a mapping reading -> verdict."""
    v = list(verdicts.values()) if isinstance(verdicts, dict) else list(verdicts)
    if not v or not all(isinstance(x, bool | np.bool_) for x in v):
        raise ValueError(f"verdicts must be one boolean per reading, at least one; got {verdicts!r}")
    return True if all(v) else False if not any(v) else None


def norm_slopes(table: pd.DataFrame, methods, sizes) -> dict[str, float]:
    """B1's O(1/t) check: the least-squares log-log slopes of the norms ``||mu - mu_hat_t||`` of ``methods`` fitted on ``sizes``:
    half those of the squared errors ``||mu - mu_hat_t||^2`` the table holds (Fig. 3's axis), as
    ``log ||.|| = log ||.||^2 / 2``."""
    return {m: float(v) / 2 for m, v in slopes_over_sizes(table, list(methods), sizes).items()}


def faster_than_iid(slope: float, iid_slope: float) -> bool:
    """B1's O(1/t) check, its first part (Sec. 1: "the moment discrepancy ``||mu - mu_hat||`` decreases as
    O(1/t) for the herding updates -- faster than i.i.d. sampling ..., which would yield the slower rate O(1/sqrt t)"):
    herding's fitted slope of the norm (:func:`norm_slopes`) is below i.i.d. sampling's fitted at the same sizes."""
    slope, iid_slope = check_real("slope", slope), check_real("iid_slope", iid_slope)
    return bool(slope < iid_slope)


def at_most_rate(slope: float, tol: float, rate: float = -1.0) -> bool:
    """B1's O(1/t) check, its second part: a fitted log-log slope of the norm (:func:`norm_slopes`) is at most
    ``rate + tol`` (``rate`` = -1: O(1/t) read as an upper bound, within the tolerance ``tol``)."""
    slope, tol, rate = check_real("slope", slope), check_real("tol", tol, low=0.0), check_real("rate", rate)
    return bool(slope <= rate + tol)


def slightly_worse(ratios, cut: float) -> bool:
    """B1.2: every ratio (line search / herding, one per panel) is in ``(1, cut]``: worse, but not by more than ``cut``."""
    cut = check_real("cut", cut, low=1.0)
    r = as_finite_array("ratios", list(ratios.values()) if isinstance(ratios, dict) else ratios, ndim=1, nonempty=True)
    return bool(((r > 1) & (r <= cut)).all())


def slope_gap(table: pd.DataFrame, a: str, b: str, sizes) -> float:
    """B1.2's rate reading: ``|slope(a) - slope(b)|`` of the least-squares log-log slopes fitted on the same ``sizes``,
    errors below :data:`~inferopt.experiment.herding.ROUNDING_LEVEL` times the table's largest read at that level
    (round-off, not a measurement)."""
    rows = at_sizes(table, [a, b], sizes)
    if len(rows) < 2:
        raise ValueError("slope_gap needs at least two sizes")
    largest = float(np.nanmax(table.to_numpy(dtype=float)))
    if not largest > 0:
        raise ValueError("slope_gap needs a positive error in the table")
    rows = rows.clip(lower=ROUNDING_LEVEL * largest)
    x = np.log(rows.index.to_numpy(dtype=float))
    slope = lambda m: float(np.polyfit(x, np.log(rows[m].to_numpy(dtype=float)), 1)[0])
    return abs(slope(a) - slope(b))


def worse_at_same_rate(ratios, gaps, tol: float) -> bool:
    """B1.2 at its rate reading ("... slightly worse than regular herding. (Note that ... they both have O(1/t) as
    theoretical rate.)"): in every panel line search is worse (its ratio to herding above 1: ``ratios``, one per
    panel) at the same rate (the gap of their log-log slopes, ``gaps``, at most ``tol``)."""
    tol = check_real("tol", tol, low=0.0)
    r = as_finite_array("ratios", list(ratios.values()) if isinstance(ratios, dict) else ratios, ndim=1, nonempty=True)
    g = as_finite_array("gaps", list(gaps.values()) if isinstance(gaps, dict) else gaps, ndim=1, nonempty=True)
    if len(r) != len(g):
        raise ValueError(f"ratios and gaps must hold one value per panel; got {len(r)} and {len(g)}")
    return bool((r > 1).all() and (g <= tol).all())


def beats_at(table: pd.DataFrame, method: str, other: str, sizes) -> list[int]:
    """B1.4: the ``sizes`` at which ``method``'s error is strictly below ``other``'s (both read at the same ``t``)."""
    rows = at_sizes(table, [method, other], sizes)
    return [int(t) for t in rows.index[(rows[method] < rows[other]).to_numpy()]]


def beats_for_order(beats: dict, orders: dict, order: int) -> bool:
    """B1.4 at one reading of the Sobolev order ``order`` the paper's sentence names ("at least for s = ..."; the
    value is a word lost in the extracted text): some panel of that order (``orders``: panel -> its ``s``) has a size
    at which one method beats the other (``beats``: panel -> :func:`beats_at`'s sizes)."""
    order = check_int("order", order, low=1)
    if not isinstance(beats, dict) or not isinstance(orders, dict) or set(beats) - set(orders):
        raise ValueError("beats and orders must be mappings panel -> sizes and panel -> Sobolev order, one order per panel")
    read = [name for name in beats if orders[name] == order]
    if not read:
        raise ValueError(f"no panel of order {order} (orders: {sorted(set(orders.values()))}): nothing to read")
    return any(len(beats[name]) > 0 for name in read)


def ends_on_mean(train_over_floor, test_over_floor, tol: float, fit: float = 0.1) -> bool:
    """B2.1: every run ends with its training error at most ``fit`` times the sample's floor ``||mu - mu_n||^2`` and its
    test error within ``tol`` of the floor (relative)."""
    tol, fit = check_real("tol", tol, low=0.0), check_real("fit", fit, low=0.0)
    tr = as_finite_array("train_over_floor", train_over_floor, ndim=1, nonempty=True)
    te = as_finite_array("test_over_floor", test_over_floor, ndim=1)
    if len(te) != len(tr):
        raise ValueError(f"train_over_floor and test_over_floor must have one entry per run; got {len(tr)} and {len(te)}")
    return bool(((tr <= fit) & (np.abs(te - 1) <= tol)).all())


def reaches_first(first: dict, method: str) -> bool:
    """B2.2: ``method`` reaches the target (``first``: method -> its first ``t`` there, None if never) and strictly
    before every other method that does."""
    if not isinstance(first, dict) or method not in first:
        raise ValueError(f"first must map method names (with {method!r}) to their first t or None; got {first!r}")
    own = first[method]
    if own is None:
        return False
    return all(v is None or v > own for m, v in first.items() if m != method)


#: B4.1-B4.3, B5.1: a distance "still decreasing" has a log-log slope over the last decade below this
DECREASING_SLOPE = -0.2


def converges(final_dist: float, slope: float, tol: float, slope_cut: float = DECREASING_SLOPE) -> bool:
    """B4.1: the distance to the maximum-entropy distribution goes to 0: it ends below ``tol`` and still decreases
    (log-log slope over the last decade below ``slope_cut``, :data:`DECREASING_SLOPE` unless a reading of it is given).
    B5.1 and B5.2 fail in a cell where it holds (:func:`~.moment_claims.not_maxent_cell`)."""
    final_dist, slope, tol = check_real("final_dist", final_dist, low=0.0), check_real("slope", slope), check_real("tol", tol, low=0.0)
    slope_cut = check_real("slope_cut", slope_cut, high=0.0, high_open=True)
    return bool(final_dist < tol and slope < slope_cut)


def stalls(final_dist: float, slope: float, tol: float, slope_cut: float = DECREASING_SLOPE) -> bool:
    """B4.2-B4.4: no convergence: the distance ends above ``tol`` and no longer decreases (slope over the last decade
    above ``slope_cut``, :data:`DECREASING_SLOPE` unless a reading of it is given)."""
    final_dist, slope, tol = check_real("final_dist", final_dist, low=0.0), check_real("slope", slope), check_real("tol", tol, low=0.0)
    slope_cut = check_real("slope_cut", slope_cut, high=0.0, high_open=True)
    return bool(final_dist > tol and slope > slope_cut)




def linear_not_polynomial(line_search: dict, herding: dict, r2: float) -> bool:
    """B6.1 on one draw's fits over the last decade (``{"R2 exp", "R2 power", "exp rate c"}``): line search converges
    linearly (exponential fit with ``R^2 >= r2``, beating the power fit, a positive rate) while herding stays
    polynomial (its power fit beats its exponential fit)."""
    r2 = check_real("r2", r2, low=0.0, high=1.0)
    for name, f in (("line_search", line_search), ("herding", herding)):
        missing = {"R2 exp", "R2 power", "exp rate c"} - set(f)
        if missing:
            raise ValueError(f"{name} must give 'R2 exp', 'R2 power' and 'exp rate c'; missing {sorted(missing)}")
    return bool(line_search["R2 exp"] >= r2 and line_search["R2 exp"] > line_search["R2 power"]
                and line_search["exp rate c"] > 0 and herding["R2 power"] > herding["R2 exp"])


def all_at_most(values, cut: float) -> bool:
    """B6.3: every value (herding's log-log slope, one per panel) is at most ``cut``."""
    cut = check_real("cut", cut)
    v = as_finite_array("values", list(values.values()) if isinstance(values, dict) else values, ndim=1, nonempty=True)
    return bool((v <= cut).all())




def always_readings(outcomes: pd.Series | pd.DataFrame, shares=(0.95, 0.99, 1.0), firsts=(8, 16)) -> dict[str, bool]:
    """B1.3 ("always"): readings of "always" over ``size_outcomes``'s table (or its ``outcome`` column, index
    ``t``): ``share>=s`` -- at least a share ``s`` of the sizes are not a ``loss``; ``t>=f`` -- no ``loss`` from size
    ``f`` on. Every reading also needs one ``win``."""
    out = outcomes["outcome"] if isinstance(outcomes, pd.DataFrame) else outcomes
    if not isinstance(out, pd.Series) or not len(out):
        raise ValueError("always_readings needs a non-empty Series of outcomes indexed by t")
    never_beaten(out.to_numpy())  # validates the labels
    ok = (out != "loss").to_numpy()
    won = bool((out == "win").any())
    res = {f"share>={s:g}": bool(won and ok.mean() >= check_real("share", s, low=0.0, high=1.0)) for s in shares}
    for f in firsts:
        sel = out.index.to_numpy() >= check_int("first", f, low=1)
        res[f"t>={f}"] = bool(won and sel.any() and ok[sel].all())
    return res








def below_share(errors, reference, floor: float) -> float:
    """B4.7, B4.10, B4.11 and B5.6 (Figs. 6-7: is one method more efficient than another at the moment vector, or
    nearer p*?): the
    share of the sizes (``errors`` and ``reference`` read at the same sizes, in one order) at which ``errors`` is
    strictly below ``reference``, both read at 0 below ``floor`` (the LMO's resolution,
    :func:`~.herding.moment_error_floor`: below it a moment error is no measurement, and an exact return to the
    means, 0 up to rounding, is 0). A tie at 0 is no win for either side."""
    a = as_finite_array("errors", errors, ndim=1, nonempty=True)
    b = as_finite_array("reference", reference, ndim=1)
    if len(a) != len(b):
        raise ValueError(f"errors and reference must be read at the same sizes; got {len(a)} and {len(b)} values")
    if (a < 0).any() or (b < 0).any():
        raise ValueError("below_share compares errors: they must be non-negative")
    floor = check_real("floor", floor, low=0.0)
    a, b = np.where(a <= floor, 0.0, a), np.where(b <= floor, 0.0, b)
    return float((a < b).mean())


def readings_turn(verdicts) -> bool:
    """Does a claim's verdict turn within the readings of its cut-off: ``verdicts`` (:func:`~.claims.readings`' list,
    or its verdicts) hold one ``holds`` and one ``fails`` (an ``inconclusive`` or ``not measured`` reading decides
    nothing). Where it turns, the claim is ``inconclusive`` with a ``reading`` diagnosis, and a verdict map's
    ``setting`` diagnosis would be out of place (B3.2)."""
    said = [v["verdict"] if isinstance(v, dict) else v for v in verdicts]
    if not said:
        raise ValueError("verdicts must hold one verdict per reading; got none")
    return {"holds", "fails"} <= set(said)


def figure_cell_diagnosis(found, text: str, undecided: str):
    """The diagnosis of a claim decided at the paper's figure's cell that does not hold there (B3.2, B5): ``found`` is
    what :func:`~.verdict_map.map_diagnosis` gives for the map's cells (:func:`~.verdict_map.cell`, each with the
    claim's verdicts at its readings), ``text`` its sentence of evidence. A ``setting`` rescue (a cell holding decisively:
    a cell that turns within its readings is ``inconclusive``, never decisive) or an earned ``paper`` is kept; where
    neither is earned but some cell turns within its readings, :class:`~.claims.Unearned` naming the turning cells and
    ``undecided``, what would decide it (the claim is then ``inconclusive``); else ``found`` as it is."""
    from .claims import Unearned
    if not isinstance(undecided, str) or not undecided.strip():
        raise ValueError("undecided must say what would decide the claim")
    if isinstance(found, dict):
        return found
    if not isinstance(found, Unearned):
        raise TypeError(f"found must be what map_diagnosis returns (a diagnosis or Unearned); got {found!r}")
    cells = list((found.evidence or {}).get("sweep", ()))
    turning = [c for c in cells if c.get("readings turn")]
    if not turning:
        return found
    named = "; ".join(", ".join(f"{k} {v}" for k, v in c["setting"].items()) for c in turning)
    return Unearned(f"{text} No cell of the map rescues it decisively: it turns within the readings at {named}. "
                    f"What would decide it: {undecided}", found.evidence)






def reading_over_map(cells, reading: str) -> bool | None:
    """B1.1 (and any B1 map judged per reading): one reading of a claim's threshold judged over every cell of its
    verdict map (the cells of :func:`~.verdict_map.cell` carrying ``readings``: reading -> ``"holds"`` / ``"fails"``),
    by :func:`map_holds`: ``False`` where the claim fails at that reading in some cell (the authors' construction and
    every open choice alike), ``True`` where it holds in every cell, ``None`` otherwise. A reading that holds only in
    the default cell does not hold."""
    cells = list(cells)
    if not cells or not all(isinstance(c, dict) and isinstance(c.get("readings"), dict) for c in cells):
        raise ValueError("cells must be a non-empty list of verdict-map cells carrying their verdict at each reading")
    missing = [c["setting"] for c in cells if reading not in c["readings"]]
    if missing:
        raise ValueError(f"reading {reading!r} is not judged in the cells {missing}")
    return map_holds([c["readings"][reading] for c in cells])


def median_gain_above(gains, cut: float) -> bool:
    """B1.3's per-curve reading: the median over the sizes read of one arm's gain ``error / error-proj``
    (:func:`proj_gains`) is above ``cut`` (beside the per-size share, :func:`gain_share`: a curve re-weighted
    "significantly" better as a whole, where a few structural sizes, lattices or Sobol's nets, gain little)."""
    cut = check_real("cut", cut, low=1.0)
    g = as_finite_array("gains", gains, ndim=1, nonempty=True)
    return bool(np.median(g) > cut)


def tracks_to_end(table: pd.DataFrame, method: str, reference: str, tol: float, t_min: int = 8) -> bool:
    """B1.5 on herding's exact run (its linear minimisation exact over [0, 1], the limit of the refinement series of
    grids): ``method`` tracks ``reference`` at every net ``t = 2^k >= t_min`` of ``table`` to the run's last net
    (:func:`tracked_nets` returns them all), not only up to some net: a departure anywhere, at the last nets included,
    fails."""
    nets = tracked_nets(table, method, reference, tol, t_min)
    return bool(nets == dyadic(table.index, t_min))
