"""Deciding statistics of paper B's Fig. 6 (experiment B4, Bach, Lacoste-Julien & Obozinski 2012, Sec. 5.3) that
read a run as the figure's panels show it, beside :mod:`.herding_claims` (which holds B4's other statistics):

* :func:`capped_dips` -- B4.3, the moment-error panel: every dip of an error record read at most ``depth`` decades
  deep below its local envelope, one rule for an exact return to the means (error 0) and a near-return alike; the
  record then goes to :func:`excess_log_variation`;
* :func:`zero_share`, :func:`many_zeros`, :func:`state_curves_zeros` -- B4.4-zeros ("many states have probability
  zero"): the share of the 2^d states at (near) zero probability along a run;
* :func:`return_decades` -- why B4.3's capped moment panel is no reading: the decades a dip cap gives the exact returns
  by construction;
* :func:`decide_over_axes` -- THE RULE's clause 3 for a claim decided over Fig. 6's open settings (the random means'
  interval, the rationals' denominator);
* :func:`blatant_min_entropy` -- B4.12, Sec. 6's "more efficient ... fail more blatantly" for min-norm-point;
* :func:`tradeoff_panel` -- B4.6, the trade-off on one panel, its premise read as B4.7 reads it; :func:`entropy_below`
  -- its entropy half (B5.3 reads it too, session 43: B4.6's comparative reading of "suggest a minimization of the
  entropy");
* :func:`convergence_outcome`, :func:`never_converges` -- B4.4, "never converges" per run, three-valued.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import as_finite_array, check_int, check_int_sequence, check_real
from .herding_claims import DECREASING_SLOPE, below_share


def capped_dips(errors, depth: float, window: int = 2) -> np.ndarray:
    """B4.3's panel 2 on Fig. 6's log axis: each error read at no less than ``10**-depth`` times its local envelope (the
    largest error within ``window`` iterations either side), so that every dip counts at most ``depth`` decades down
    and back. An exact return (error 0, or at rounding) and a near-return just above the LMO's resolution are scored by
    the same rule; a dip shallower than ``depth`` keeps its depth; a monotone record is unchanged."""
    x = as_finite_array("errors", errors, ndim=1, nonempty=True)
    if (x < 0).any():
        raise ValueError("capped_dips reads errors: they must be non-negative")
    depth, window = check_real("depth", depth, low=0.0), check_int("window", window, low=1)
    padded = np.pad(x, window, mode="edge")
    envelope = np.max(np.lib.stride_tricks.sliding_window_view(padded, 2 * window + 1), axis=1)
    return np.maximum(x, envelope * 10.0 ** -depth)


def zero_share(p, zero: float) -> float:
    """B4.4-zeros ("many states have probability zero"): the share of the states (entries of the distribution ``p``)
    whose probability is at most ``zero``."""
    p = as_finite_array("p", p, ndim=1, nonempty=True)
    if (p < 0).any():
        raise ValueError("zero_share reads a distribution: its probabilities must be non-negative")
    return float((p <= check_real("zero", zero, low=0.0)).mean())


def many_zeros(share: float, cut: float) -> bool:
    """B4.4-zeros: at least a share ``cut`` of the states are at (near) zero probability (:func:`zero_share`)."""
    share = check_real("share", share, low=0.0, high=1.0)
    return bool(share >= check_real("cut", cut, low=0.0, high=1.0, low_open=True))


def state_curves_zeros(features, mu, p_star, n_points: int, step: str, checkpoints, zeros=(1e-12,)) -> pd.DataFrame:
    """B4.4-zeros: :func:`~.herding.state_curves`' table with, per checkpoint, the share of the states at (near) zero
    probability (:func:`zero_share`) at each level of ``zeros``, in columns ``zeros <= level`` (``{level:g}``), and at
    ``p_star``'s smallest probability, in the column ``zeros <= p* min``."""
    from .herding import _state_run
    table, res = _state_run(features, mu, p_star, n_points, step, checkpoints)
    snaps = [p for _, p in sorted(res.snapshots.items())]
    p_min = float(np.min(np.asarray(p_star, dtype=float)))
    for z in zeros:
        table[f"zeros <= {z:g}"] = [zero_share(p, z) for p in snaps]
    table["zeros <= p* min"] = [zero_share(p, p_min) for p in snaps]
    return table


def more_erratic(spread: float, reference: float, margin: float = 1.0) -> bool:
    """B4.3: ``spread`` (rational means; :func:`excess_log_variation`) is above ``margin`` times ``reference`` (irrational
    means with rational ratios)."""
    spread, reference = check_real("spread", spread, low=0.0), check_real("reference", reference, low=0.0)
    margin = check_real("margin", margin, low=1.0)
    return bool(spread > margin * reference)


def nearer_low_entropy(position: float, cut: float) -> bool:
    """B4.4-entropy ("close to a minimum entropy solution"): line search's entropy lies at ``position = (H - H_low) /
    (H* - H_low) <= cut`` on the scale from a low-entropy distribution with the same moments (0) to the maximum (1)."""
    position, cut = check_real("position", position), check_real("cut", cut)
    return bool(position <= cut)


def within_factor(a: float, b: float, factor: float) -> bool:
    """B4.5: ``a`` is within a factor ``factor`` of ``b``: ``1/factor <= a / b <= factor`` (both positive)."""
    a, b = check_real("a", a, low=0.0), check_real("b", b, low=0.0)
    factor = check_real("factor", factor, low=1.0)
    if a == 0 or b == 0:
        raise ValueError(f"within_factor needs positive a and b; got {a!r} and {b!r}")
    return bool(1 / factor <= a / b <= factor)


def excess_log_variation(errors, floor: float | None = None, drop: bool = False) -> float:
    """B4.3 on the plotted axes: the total variation of ``log10`` of an error record (moment error or distance, in the
    order of the iterations) minus its net change, in decades. A monotone record gives 0; every rise and the fall back
    after it count. ``floor``: errors below it are read at it (an exact return to the means, error 0 or at rounding,
    counts as a dip to the floor, whose depth no longer depends on the rounding); with ``drop``, the errors at or below
    ``floor`` are left out instead (an exact return is no measurement on a log axis: the record is read between the
    returns, and each return's dip, about ``log10(error / floor)`` decades by construction, does not count); ``None``:
    every error must be positive."""
    x = as_finite_array("errors", errors, ndim=1)
    if drop:
        if floor is None:
            raise ValueError("excess_log_variation: drop needs a floor")
        x = x[x > check_real("floor", floor, low=0.0, low_open=True)]
    if len(x) < 2:
        raise ValueError(f"excess_log_variation needs a record of at least 2 iterations; got {len(x)}")
    if floor is not None:
        x = np.maximum(x, check_real("floor", floor, low=0.0, low_open=True))
    if (x <= 0).any():
        raise ValueError("excess_log_variation needs positive errors (a log10 scale), or a floor")
    y = np.log10(x)
    return float(np.abs(np.diff(y)).sum() - abs(y[-1] - y[0]))


def envelope_drop(t, errors, floor: float, first: int = 10) -> float:
    """B4.9 (Fig. 6, bottom: herding's own moment error goes to 0): the largest error over the last decade of the run
    (``t >= max t / 10``: the envelope, so that an exact return to the means at one checkpoint does not decide) over
    the largest at its start (``t <= first``), both read at 0 at or below ``floor`` (the LMO's resolution). 0 where the
    last decade sits at the means throughout; 1 or more where the error has not fallen."""
    t = np.asarray(check_int_sequence("t", t, low=1))
    e = as_finite_array("errors", errors, ndim=1)
    if len(e) != len(t):
        raise ValueError(f"errors must have one value per t; got {len(e)} and {len(t)}")
    if (e < 0).any():
        raise ValueError("envelope_drop reads errors: they must be non-negative")
    floor, first = check_real("floor", floor, low=0.0), check_int("first", first, low=1)
    e = np.where(e <= floor, 0.0, e)
    start, late = e[t <= first], e[t >= t.max() / 10]
    if not len(start) or t.max() / 10 <= first:
        raise ValueError(f"envelope_drop needs sizes t <= {first} and a last decade after them; got t in [{t.min()}, {t.max()}]")
    if start.max() == 0:
        raise ValueError("envelope_drop needs a positive error at the start")
    return float(late.max() / start.max())


def vanishes(drop: float, fraction: float) -> bool:
    """B4.9: a moment error goes to 0 on the plotted run: its envelope over the last decade is at most ``fraction`` of
    its start (:func:`envelope_drop`)."""
    drop = check_real("drop", drop, low=0.0)
    fraction = check_real("fraction", fraction, low=0.0, high=1.0, low_open=True, high_open=True)
    return bool(drop <= fraction)


def still_falls(slope: float, cut: float = DECREASING_SLOPE) -> bool:
    """B4.9's slope reading of "goes to 0": the log-log slope of the positive errors over the last decade (between exact
    returns) is below ``cut`` (:data:`DECREASING_SLOPE` unless a reading of it is given); ``nan`` (fewer than two
    positive errors to fit) shows no fall."""
    slope = float(slope)
    cut = check_real("cut", cut, high=0.0, high_open=True)
    return bool(np.isfinite(slope) and slope < cut)


def max_gap(p, q) -> float:
    """The largest absolute difference between two arrays of one shape (B4's check of ``p*`` against the closed form)."""
    a, b = as_finite_array("p", p, ndim=None, nonempty=True), as_finite_array("q", q, ndim=None, nonempty=True)
    if a.shape != b.shape:
        raise ValueError(f"p and q must have one shape; got {a.shape} and {b.shape}")
    return float(np.abs(a - b).max())


def per_coordinate_means(kind: str, d: int, rng, low: int = 11, high: int = 50) -> np.ndarray:
    """B4.3's construction cell: Fig. 6's rational means with a denominator per coordinate, ``k_i / q_i`` with ``q_i``
    uniform on ``{low, .., high}`` and ``k_i`` uniform on ``{-(q_i - 1), .., q_i - 1}`` (``'rational'``), or ``sqrt(2)/2``
    times them (``'rational ratios'``). :func:`~.herding.bit_means` gives every coordinate one denominator ``q``, so
    herding on independent bits returns to rational means with a period at most ``2 q`` (a record that repeats); with
    a denominator per coordinate the period is their least common multiple."""
    if kind not in ("rational", "rational ratios"):
        raise ValueError(f"kind must be 'rational' or 'rational ratios'; got {kind!r}")
    d, low = check_int("d", d, low=1), check_int("low", low, low=2)
    high = check_int("high", high, low=low)
    rng = np.random.default_rng(rng)
    q = rng.integers(low, high + 1, size=d)
    rational = np.array([rng.integers(-(qi - 1), qi) for qi in q]) / q
    return rational if kind == "rational" else np.sqrt(2.0) / 2.0 * rational


def closer_share(dists, reference) -> float:
    """The abstract's and Sec. 6's "herding tends to approach more often the maximum entropy distribution": the share of
    the panels (one final distance to ``p*`` per (draw, kind of means), ``dists`` herding's, ``reference`` line
    search's, in one order) at which ``dists`` is strictly below ``reference`` (a tie is no win)."""
    return below_share(dists, reference, floor=0.0)


def approaches_more_often(share: float, cut: float) -> bool:
    """Herding approaches p* more often than line search: it is the closer at more than half of the panels
    (:func:`closer_share`) and at a share of at least ``cut`` (a reading: 0.5 a bare majority, 1 every panel)."""
    share = check_real("share", share, low=0.0, high=1.0)
    cut = check_real("cut", cut, low=0.5, high=1.0)
    return bool(share > 0.5 and share >= cut)


def interval_diagnosis(cells, text: str):
    """THE RULE, clause 3, for a claim decided over an open setting's few cells (B4.1: the random means' interval, two
    cells; too few for :func:`~.verdict_map.map_diagnosis`): ``setting`` naming the cells that hold decisively where the
    decisive cells split; else :class:`~.claims.Unearned` (the claim inconclusive: no map over the other choices earns a
    ``paper`` diagnosis)."""
    from .claims import Unearned, setting_text
    from .verdict_map import decisive
    cells = list(cells)
    if not cells or not all(isinstance(c, dict) and "verdict" in c and isinstance(c.get("setting"), dict) for c in cells):
        raise ValueError(f"cells must be verdict-map cells; got {cells!r}")
    if not isinstance(text, str) or not text.strip():
        raise ValueError("text must be a sentence of evidence")
    holding = [c for c in cells if c["verdict"] == "holds" and decisive(c)]
    failing = [c for c in cells if c["verdict"] == "fails" and decisive(c)]
    if holding and failing:
        return {"kind": "setting", "text": f"{text} It holds at {'; '.join(setting_text(c['setting']) for c in holding)} "
                f"and fails at {'; '.join(setting_text(c['setting']) for c in failing)}.", "evidence": {"sweep": cells}}
    return Unearned(f"{text} The cells of the open setting do not split decisively ("
                    + "; ".join(f"{setting_text(c['setting'])}: {c['verdict']}" for c in cells)
                    + "): no map over the other open choices earns a diagnosis", {"sweep": cells})


def return_decades(depth: float, returns: int) -> float:
    """B4.3's moment panel read with every dip capped at ``depth`` decades (:func:`capped_dips`): the part of its excess
    log10 variation (:func:`excess_log_variation`) that ``returns`` exact returns to the means contribute by
    construction, ``depth`` decades down and ``depth`` back each. For rational means k / q herding returns exactly
    every 2 q iterations at most, so this part is set by the cap and the run's length, not by the run: the score net of
    it is what the record shows between the returns."""
    depth = check_real("depth", depth, low=0.0)
    return 2.0 * depth * check_int("returns", returns, low=0)


def decide_over_axes(cells, text: str, others=(), no_authors_construction: str | None = None):
    """THE RULE, clause 3, for a B4 claim decided over Fig. 6's open settings (``cells``, each a :func:`~.verdict_map.cell`:
    Fig. 6's own draws first, then one cell per other value of each open setting: the random means' interval, the
    rationals' denominator). Returns ``(holds, diagnosis)``: ``(True, None)`` where every measured cell holds
    (:func:`~.herding_claims.map_holds`); ``(False, Unearned)`` naming the undecided cells where none fails but one is
    undecided (the claim inconclusive); where a cell fails, ``setting`` naming the cells that hold decisively, else what
    :func:`~.verdict_map.map_diagnosis` earns over ``cells`` and the diagnosing cells ``others`` (d, a budget: they
    diagnose only), or, with fewer than 3 cells in all, :func:`interval_diagnosis`."""
    from .claims import Unearned, setting_text
    from .herding_claims import map_holds
    from .verdict_map import map_diagnosis
    cells, others = list(cells), list(others)
    if not cells:
        raise ValueError("decide_over_axes needs the cells of the open settings")
    if not isinstance(text, str) or not text.strip():
        raise ValueError("text must be a sentence of evidence")
    v = map_holds(cells)
    if v:
        return True, None
    if v is None:
        return False, Unearned(f"{text} No cell of the open settings fails, but some are undecided ("
                               + "; ".join(f"{setting_text(c['setting'])}: {c['verdict']}" for c in cells
                                           if c["verdict"] not in ("holds", "not measured")) + ")", {"sweep": cells})
    if len(cells) + len(others) < 3:
        return False, interval_diagnosis(cells, text)
    return False, map_diagnosis(cells + others, text, no_authors_construction=no_authors_construction)


def blatant_min_entropy(dist: float, herding_dist: float, position: float, cut: float) -> bool:
    """B4.12 (Sec. 6: "algorithms that are more efficient than herding at approximating the moment vector fail more
    blatantly to approach a maximum entropy distribution and they present characteristics which would rather suggest a
    minimization of the entropy"), for min-norm-point on one (draw, kind of means): its final distance to p* ``dist``
    above herding's ``herding_dist`` (more blatantly), and its entropy at ``position <= cut`` on B4.4-entropy's scale
    (:func:`nearer_low_entropy`: 0 a low-entropy distribution with the same moments, 1 the maximum entropy)."""
    dist, herding_dist = check_real("dist", dist, low=0.0), check_real("herding_dist", herding_dist, low=0.0)
    return bool(dist > herding_dist and nearer_low_entropy(position, cut))


def tradeoff_panel(share: float, better: dict, worse: dict, share_cut: float = 0.5, entropy_margin: float = 0.0) -> bool | None:
    """B4.6 (Sec. 6's trade-off) on one (draw, kind of means) panel. The premise, "``better`` is more efficient than
    ``worse`` at the moments", is read as B4.7 reads it: ``share`` (:func:`~.herding_claims.below_share` over the last
    decade's checkpoints, exact returns to the means read as ties) above ``share_cut``; ``None`` where it does not hold
    (the panel is counted, not tested). Where it holds: is ``better`` farther from the maximum-entropy distribution
    (``dist`` above ``worse``'s) with a lower entropy, below ``worse``'s less ``entropy_margin`` (nats; a negative
    margin counts an entropy within it above ``worse``'s as a tie, for the claim; a positive one asks for a clear gap)?
    ``better`` and ``worse``: ``{"dist", "entropy"}`` at the end of a run."""
    share = check_real("share", share, low=0.0, high=1.0)
    share_cut = check_real("share_cut", share_cut, low=0.0, high=1.0, high_open=True)
    entropy_margin = check_real("entropy_margin", entropy_margin)
    for name, d in (("better", better), ("worse", worse)):
        missing = {"dist", "entropy"} - set(d)
        if missing:
            raise ValueError(f"{name} must give dist and entropy; missing {sorted(missing)}")
    if not share > share_cut:
        return None
    return bool(float(better["dist"]) > float(worse["dist"]) and entropy_below(better["entropy"], worse["entropy"], entropy_margin))


def entropy_below(entropy: float, reference: float, margin: float = 0.0) -> bool:
    """Sec. 6's "characteristics which would rather suggest a minimization of the entropy", read comparatively (B4.6's
    entropy half, :func:`tradeoff_panel`; B5.3's comparative reading, session 43): the more efficient method's final
    ``entropy`` strictly below the ``reference`` method's (herding's) less ``margin`` nats (a negative margin counts an
    entropy within it above the reference's as below; a positive one asks for a clear gap)."""
    entropy, reference = check_real("entropy", entropy, low=0.0), check_real("reference", reference, low=0.0)
    margin = check_real("margin", margin)
    return bool(entropy < reference - margin)


def convergence_outcome(final_dist: float, slope: float, tol: float, slope_cut: float = DECREASING_SLOPE) -> bool | None:
    """B4.4 ("line search never converges") on one run: ``True`` where it converges (its distance to p* ends below
    ``tol`` and still falls: log-log slope over the last decade below ``slope_cut``,
    :func:`~.herding_claims.converges`), ``False`` where it does not (it ends above ``tol`` and no longer falls), ``None``
    where the run leaves it undecided (above ``tol`` but still falling, or below ``tol`` but flat)."""
    from .herding_claims import converges
    final_dist, slope, tol = check_real("final_dist", final_dist, low=0.0), check_real("slope", slope), check_real("tol", tol, low=0.0)
    slope_cut = check_real("slope_cut", slope_cut, high=0.0, high_open=True)
    if converges(final_dist, slope, tol, slope_cut):
        return True
    if final_dist > tol and slope > slope_cut:
        return False
    return None


def never_converges(outcomes) -> bool | None:
    """B4.4 over a cell's runs (:func:`convergence_outcome` of each): ``False`` where some run converges (only a run that
    converges counts against "never converges"), ``True`` where none does and some run does not, ``None`` where every
    run is undecided."""
    outcomes = list(outcomes)
    if not outcomes or any(o not in (True, False, None) for o in outcomes):
        raise ValueError(f"outcomes must be a non-empty list of True / False / None; got {outcomes!r}")
    if any(o is True for o in outcomes):
        return False
    return True if any(o is False for o in outcomes) else None
