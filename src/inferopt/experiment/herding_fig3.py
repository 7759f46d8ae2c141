"""B1's other constructions of Fig. 3 (Bach, Lacoste-Julien & Obozinski 2012, Sec. 4-5.1): the authors' own, as their
script runs it, and ours started from the paper's random first point (Sec. 4), each a cell of B1's verdict maps.

**The authors' construction** (:func:`authors_curves`). Their Fig. 3 script survives in an adaptation:
github.com/jgorham/stein_discrepancy, ``src/experiments/pseudosample/pseudosample.m`` ("the original code is due to
Francis Bach et al."; its helpers ``minnormpoint.m``, Wolfe's algorithm, and ``frac_dist.m``). Read line by line, it

* takes ``nsamp = 200`` candidates ``X = (0:nsamp-1)/nsamp`` carrying the density as weights
  (``imp_weights = p(X) / sum p(X)``) and centres the features on their weighted mean: herding, line search and
  min-norm-point fit the weighted grid's mean ``mu_w = sum_j p_j Phi(x_j)`` (:class:`WeightedGridTarget`), while every
  error (``test_values``) is read against the exact mean element ``mu`` (``mutmu``, ``kernel_exp``), Sec. 5.1's
  closed form;
* starts from the candidate nearest 0.5 (``[a,b] = min(abs(X-0.5))``, the first on ties): ``g_0 = Phi(x_start)``. Eq. (4)
  with herding's ``rho = 1/t`` from ``t = 1`` then gives the start the weight 0 at the first step (``rho_1 = 1``): herding's
  first weighted point is the linear minimiser against ``g_0``, and after step ``t`` its ``t`` points carry ``1/t`` each
  beside the start's 0. Line search (Eq. 4 with the exact step, commented out in the adaptation) keeps the start with
  weight ``1 - rho_1``; min-norm-point (``minnormpoint(PHI', T, 1e-16, starting_point)``) starts its corral at it;
* runs ``T = 200`` steps; ``test_values(i)`` holds the ``i`` points listed after step ``i - 1`` (the start first), and the
  figure plots it at the abscissa ``i`` for ``i = 1:2:T+1`` (odd ``i`` only), as ``.5*log10(test_values)``, log10 RMSE,
  against a linear axis on ``[0, T] x [-8, 0]``; min-norm-point's ``i``-th value is its iterate after ``i - 1`` major
  cycles;
* re-weights (``-proj``) herding's and line search's listed points (the start included) onto the fitted ``mu_w``
  (``minnormpoint(PHI(indices,:)')``), the random and Sobol points onto the exact ``mu`` (their ``Q`` uses ``kernel_exp``);
* draws the random points i.i.d. from the density (rejection sampling) and takes Sobol's points through the density's
  inverse CDF by bisection, raw, not moved to any grid. (The adaptation multiplies the Sobol points by 2 before the
  inverse CDF, which puts half of them above 1, where its bisection has no bracket and the script stops with an error:
  that factor cannot be what Fig. 3 ran, and is left out here.)

Its kernel is ``(2s)!`` times Sec. 5.1's (``B_2``, ``-B_4`` without the ``1/(2s)!``) and its errors carry a factor 1/2:
constant factors, which no ratio or slope of B1's claims sees; the kernel here is :class:`~inferopt.herding.SobolevTarget`'s.
Where the script's ``min`` takes the first of exactly tied values, the library's searches (:mod:`inferopt.fw`) take the
lowest index among values tied up to round-off.

**Our construction from a random first point** (:func:`cg_curves_from`): the paper's scheme (Sec. 4, "we finally comment
on the initialization ... the first point is chosen randomly from the extreme points of M -- this is the scheme we used"):
herding, line search and min-norm-point on our candidate grid, fitting the exact ``mu``, started at a candidate drawn at
random (:func:`random_first_points`) instead of ``argmax_j mu(x_j)`` (``g_0 = 0``, Chen et al. 2010).

Both are built from :func:`inferopt.herding.hull_problem`, :class:`~inferopt.herding.KernelTarget` and
:func:`inferopt.fw.frank_wolfe` / :func:`inferopt.fw.min_norm_point` with ``init=``; neither changes
:mod:`inferopt.herding`. :func:`fig3_diagnosis` gives a B1 claim that does not hold its diagnosis from a map holding these
cells (the rubric: ``construction`` where the authors' cell and ours disagree).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._random import as_generator
from .._validation import as_finite_array, check_int, check_int_sequence, check_size
from ..fw import frank_wolfe, min_norm_point
from ..herding.baselines import sobol_points
from ..herding.densities import TrigDensity, check_density
from ..herding.herding import hull_problem, projected_errors
from ..herding.targets import KernelTarget, check_points, mmd2, mmd2_uniform_prefix
from .herding import _rows
from .verdict_map import decisive, map_diagnosis

#: the authors' script's candidates (``nsamp``), number of steps (``T``) and starting location (the candidate nearest it)
AUTHORS_CANDIDATES, AUTHORS_POINTS, AUTHORS_START = 200, 200, 0.5


class WeightedGridTarget(KernelTarget):
    """The mean element of a weighted candidate grid, ``mu_w = sum_j w_j Phi(x_j)``, with ``base``'s kernel: what the
    authors' script fits (its ``PHI`` centred on ``PHI' * imp_weights``)."""

    def __init__(self, base: KernelTarget, grid, weights) -> None:
        if not isinstance(base, KernelTarget):
            raise TypeError(f"base must be a KernelTarget; got {type(base).__name__}")
        self.base, self.grid = base, check_points(base, "grid", grid)
        w = as_finite_array("weights", weights, ndim=1)
        if len(w) != len(self.grid) or (w < 0).any() or abs(w.sum() - 1.0) > 1e-9:
            raise ValueError("weights must be one non-negative weight per grid point, summing to 1")
        self.weights = w
        self.mean_sqnorm = float(w @ base.kernel(self.grid, self.grid) @ w)

    def kernel(self, x, y) -> np.ndarray:
        return self.base.kernel(x, y)

    def kernel_diag(self, x) -> np.ndarray:
        return self.base.kernel_diag(x)

    def mean(self, x) -> np.ndarray:
        return self.base.kernel(x, self.grid) @ self.weights

    def check_points(self, name: str, points) -> np.ndarray:
        return self.base.check_points(name, points)


def authors_grid(density: TrigDensity, n_candidates: int = AUTHORS_CANDIDATES) -> tuple[np.ndarray, np.ndarray]:
    """The script's candidates ``X = (0:n-1)/n`` and their weights ``p(X) / sum p(X)`` (``imp_weights``)."""
    check_density(density)
    n = check_size("n_candidates", n_candidates, low=2, item_bytes=16, item="candidate")
    grid = np.arange(n) / n
    p = density.pdf(grid)
    return grid, p / p.sum()


def nearest_candidate(grid, x0: float = AUTHORS_START) -> int:
    """The index of the candidate nearest ``x0`` (``[a,b] = min(abs(X - x0))``: the first on exact ties)."""
    g = as_finite_array("grid", grid, ndim=1, nonempty=True)
    return int(np.argmin(np.abs(g - float(x0))))


def _errors_of(exact: KernelTarget, grid: np.ndarray, record: list) -> np.ndarray:
    """``||mu - sum_i w_i Phi(x_i)||^2`` against the exact ``mu`` for each recorded ``(ids, weights)``."""
    return np.array([mmd2(exact, grid[ids], w) for ids, w in record])


def authors_cg(exact: KernelTarget, density: TrigDensity, n_candidates: int = AUTHORS_CANDIDATES,
               n_points: int = AUTHORS_POINTS) -> dict:
    """Herding, line search and min-norm-point as the authors' script runs them (module docstring), at the script's
    abscissae ``i = 1 .. n_points + 1``: ``{name: (errors against exact mu, listed candidate indices)}``; the listed
    indices (the start first) are those ``-proj`` re-weights. Min-norm-point's errors end where it terminates (its
    corral's optimum over the grid reached)."""
    n_points = check_size("n_points", n_points, low=2, item_bytes=8 * 4, item="point")
    grid, weights = authors_grid(density, n_candidates)
    fit = WeightedGridTarget(exact, grid, weights)
    problem = hull_problem(fit, grid)
    start = nearest_candidate(grid)
    out = {}
    # herding: rho_1 = 1/1 moves all weight to the linear minimiser against g_0 = Phi(x_start); then rho = 1/t
    first = int(np.argmin(fit.kernel(grid, grid[start:start + 1])[:, 0] - problem.c))
    record = [(np.array([start]), np.ones(1))]
    res = frank_wolfe(problem, step="1/(t+1)", init=first, max_iter=n_points - 1, tol=None,
                      callback=lambda t, a: record.append((a.ids.copy(), a.weights.copy())))
    out["cg-1/(t+1)"] = (_errors_of(exact, grid, record), np.r_[start, first, res.info["atom"]].astype(int))
    # line search from g_0 = Phi(x_start), the start keeping weight 1 - rho_1
    record = []
    res = frank_wolfe(problem, step="line_search", init=start, max_iter=n_points, tol=None,
                      callback=lambda t, a: record.append((a.ids.copy(), a.weights.copy())))
    out["cg-l.search"] = (_errors_of(exact, grid, record), np.r_[start, res.info["atom"]].astype(int))
    # min-norm-point: the corral starts at the start; its i-th value is the iterate after i - 1 major cycles
    record = []
    res = min_norm_point(problem, init=start, max_iter=n_points, tol=0.0,
                         callback=lambda t, a: record.append((a.ids.copy(), a.weights.copy())))
    out["min-norm-point"] = (_errors_of(exact, grid, record), np.r_[start, res.info["atom"]].astype(int))
    return out


def _authors_setting(exact, density, n_rep, rng, n_candidates, n_points, plotted):
    """The authors' script's setting shared by :func:`authors_curves` and :func:`authors_equal_proj`: the checked
    ``n_rep`` and generator, the script's candidate grid and its weighted-grid target ``mu_w``, the ``n_points + 1``
    points listed and the abscissae read (the odd ones the figure plots, or every one)."""
    check_density(density)
    n_rep = check_size("n_rep", n_rep, item_bytes=8 * n_points, item="replication")
    grid, weights = authors_grid(density, n_candidates)
    n_list = n_points + 1
    sizes = np.arange(1, n_list + 1)
    keep = sizes[sizes % 2 == 1] if plotted else sizes
    return n_rep, as_generator(rng), grid, WeightedGridTarget(exact, grid, weights), n_list, keep


def authors_curves(exact: KernelTarget, density: TrigDensity, n_rep: int, rng, *, n_candidates: int = AUTHORS_CANDIDATES,
                   n_points: int = AUTHORS_POINTS, plotted: bool = True) -> pd.DataFrame:
    """Every method of Fig. 3 as the authors' script runs it (module docstring), in
    :func:`~inferopt.experiment.herding.sobolev_curves`' columns ``method, t, error, rep, x``: ``t`` is the script's
    abscissa ``i`` (``i`` points listed: herding's start at weight 0 among them), every ``-proj`` arm at every ``t``
    (as the script computes it), ``random`` over ``n_rep`` draws of ``rng``. ``plotted``: keep only the abscissae the
    script's figure plots, ``t = 1, 3, ..., n_points + 1`` (else every ``t``). ``x``: Sobol's point added at ``t``; NaN
    for herding, whose weighted points at ``t`` are ``t - 1`` (never a uniformly weighted set of ``t`` points)."""
    n_rep, rng, grid, fit, n_list, keep = _authors_setting(exact, density, n_rep, rng, n_candidates, n_points, plotted)
    frames = []
    for name, (err, listed) in authors_cg(exact, density, n_candidates, n_points).items():
        t = np.arange(1, len(err) + 1)
        on = np.isin(t, keep)
        frames.append(_rows(name, err[on], t[on], x=np.nan))
        if name != "min-norm-point":
            frames.append(_rows(name + "-proj", projected_errors(fit, grid[listed], keep, exact), keep, x=np.nan))
    sobol = sobol_points(density, n_list)
    frames += [_rows("sobol", mmd2_uniform_prefix(exact, sobol)[keep - 1], keep, x=sobol[keep - 1]),
               _rows("sobol-proj", projected_errors(exact, sobol, keep), keep, x=np.nan)]
    for rep in range(n_rep):
        pts = density.sample(n_list, rng)
        frames += [_rows("random", mmd2_uniform_prefix(exact, pts)[keep - 1], keep, rep=rep, x=np.nan),
                   _rows("random-proj", projected_errors(exact, pts, keep), keep, rep=rep, x=np.nan)]
    return pd.concat(frames, ignore_index=True)


def authors_equal_proj(exact: KernelTarget, density: TrigDensity, n_rep: int, rng, *,
                       n_candidates: int = AUTHORS_CANDIDATES, n_points: int = AUTHORS_POINTS,
                       plotted: bool = True) -> pd.DataFrame:
    """B1.1's equal-inputs variant of the authors' cell: ``sobol-proj`` and ``random-proj`` as :func:`authors_curves`
    builds them (Sobol's raw inverse-CDF points; ``n_rep`` i.i.d. draws of ``rng``, the same draws as
    :func:`authors_curves` makes from a generator seeded alike), but each point snapped to the script's candidate
    nearest it (:func:`~inferopt.experiment.herding.snap_to_grid`, ``j / n_candidates``) and the optimal simplex
    weights fitted to the weighted grid's mean ``mu_w`` (:class:`WeightedGridTarget`), as min-norm-point's and
    herding's are in the script; every error read against the exact ``mu``. Rows in :func:`authors_curves`' columns
    (``x`` NaN), at the same abscissae."""
    from .herding import snap_to_grid
    n_points = check_size("n_points", n_points, low=2, item_bytes=8 * 4, item="point")
    n_rep, rng, grid, fit, n_list, keep = _authors_setting(exact, density, n_rep, rng, n_candidates, n_points, plotted)
    sobol = snap_to_grid(sobol_points(density, n_list), grid)
    frames = [_rows("sobol-proj", projected_errors(fit, sobol, keep, exact), keep, x=np.nan)]
    for rep in range(n_rep):
        pts = snap_to_grid(density.sample(n_list, rng), grid)
        frames.append(_rows("random-proj", projected_errors(fit, pts, keep, exact), keep, rep=rep, x=np.nan))
    return pd.concat(frames, ignore_index=True)


def with_equal_proj(curves: pd.DataFrame, equal: pd.DataFrame) -> pd.DataFrame:
    """The authors' cell's curves (:func:`authors_curves`, possibly with more columns, e.g. ``panel``) with their
    ``sobol-proj`` and ``random-proj`` rows replaced by :func:`authors_equal_proj`'s (``equal``, the same columns)."""
    missing = set(equal.columns) - set(curves.columns)
    if missing:
        raise ValueError(f"equal has columns the curves lack: {sorted(missing)}")
    kept = curves[~curves.method.isin(["sobol-proj", "random-proj"])]
    return pd.concat([kept, equal[list(curves.columns.intersection(equal.columns))]], ignore_index=True)


def every_share_above(gains: dict, cut: float, share: float) -> bool:
    """B1.3 at one reading [cut, share]: for every curve (``gains``: name -> its gains ``error / error-proj`` at the
    sizes read, :func:`~inferopt.experiment.herding_claims.proj_gains`), the share of its sizes with a gain above
    ``cut`` is at least ``share`` (1: "always" as every size; 0.9: every curve at nine sizes in ten)."""
    from .herding_claims import gain_share
    from .._validation import check_real
    share = check_real("share", share, low=0.0, high=1.0)
    if not isinstance(gains, dict) or not gains:
        raise ValueError("gains must be a non-empty mapping curve -> gains")
    return all(gain_share(np.asarray(g, dtype=float), cut) >= share - 1e-12 for g in gains.values())


def axis_verdict(cells, axis: str, text: str):
    """THE RULE's clause 3 (docs/paper-B.md, "Where a claim is decided"): a claim whose open setting ``axis`` the paper
    never gives (B1.4's lost ``s``) is decided over that axis of its verdict map ``cells``
    (:func:`~inferopt.experiment.verdict_map.cell`, ours the first, each cell's ``setting`` naming its ``axis`` value,
    the authors' marked ``construction='authors'``). Returns ``(holds, diagnosis)``:

    * ``(True, None)`` where every cell holds (a cell that turns with its readings, ``not measured``, or whose support
      is below 90 %, ``inconclusive``, is undecided: it holds nothing);
    * ``(False, construction)`` where an authors' cell and our cell at the same ``axis`` value are both decisive and
      disagree (both verdicts reported);
    * ``(False, setting)`` where decisive cells disagree (some hold, some fail): the ``axis`` values that hold named;
    * ``(False, map_diagnosis)`` where every decisive cell fails (``paper`` only where the map earns it, else
      :class:`~inferopt.experiment.claims.Unearned`: the claim is then inconclusive);
    * ``(None, None)`` otherwise (no decisive cell fails and some cell is undecided)."""
    cells = list(cells)
    if not cells or not all(isinstance(c, dict) and axis in c.get("setting", {}) for c in cells):
        raise ValueError(f"cells must be a verdict map whose every cell names its {axis!r}")
    if all(c["verdict"] == "holds" for c in cells):   # a cell undecided (turning with its readings) holds nothing
        return True, None
    at = lambda v: [c for c in cells if c["setting"][axis] == v]
    ours = {v: at(v)[0] for v in dict.fromkeys(c["setting"][axis] for c in cells)}   # ours: the first cell at each value
    ours = {v: c for v, c in ours.items() if c.get("construction") != "authors"}
    differ = [(ours[c["setting"][axis]], c) for c in cells if c.get("construction") == "authors" and c["setting"][axis] in ours
              and decisive(c) and decisive(ours[c["setting"][axis]])
              and {c["verdict"], ours[c["setting"][axis]]["verdict"]} == {"holds", "fails"}]
    if differ:
        return False, {"kind": "construction",
                       "text": f"{text} The authors' construction gives a different verdict from ours: "
                               + "; ".join(f"at {axis} = {o['setting'][axis]} ours {o['verdict']}, the authors' {a['verdict']}"
                                           for o, a in differ) + ".",
                       "evidence": {"sweep": cells}}
    fails = [c for c in cells if c["verdict"] == "fails" and decisive(c)]
    holds = [c for c in cells if c["verdict"] == "holds" and decisive(c)]
    if fails and holds:
        named = sorted({c["setting"][axis] for c in holds})
        return False, map_diagnosis(cells, f"{text} Decided over the map's axis {axis} (a setting the paper never gives): "
                                           f"it holds decisively at {axis} = {', '.join(map(str, named))} and fails "
                                           f"decisively at {axis} = "
                                           f"{', '.join(map(str, sorted({c['setting'][axis] for c in fails})))}.")
    if fails:
        return False, map_diagnosis(cells, text)
    return None, None


def axis_claim(cells, axis: str, text: str, readings, supports: dict, undecided: str) -> dict:
    """A claim decided over the verdict map's ``axis`` (THE RULE's clause 3; :func:`axis_verdict`), as
    :meth:`~inferopt.experiment.record.Experiment.claim` takes it: ``{"holds", "support", "diagnosis", "readings"}``.
    ``readings``: the claim's own cut-offs (clause 4; each cell keeps its verdict per reading, keyed by
    :func:`~inferopt.experiment.claims.format_value`), each judged over the whole map by
    :func:`~inferopt.experiment.herding_claims.map_holds`; ``supports``: ``{format_value(cell setting): support}`` of
    the cells (their bootstrap supports), the claim taking that of the first decisive cell with its outcome; where
    :func:`axis_verdict` decides nothing, the claim fails with :class:`~inferopt.experiment.claims.Unearned` (it is
    then inconclusive), naming ``undecided``, what would decide it."""
    from .claims import Unearned, format_value
    from .herding_claims import map_holds
    cells = list(cells)
    holds, diagnosis = axis_verdict(cells, axis, text)
    if holds is None:
        holds, diagnosis = False, Unearned(f"{text} No decisive cell fails and some cell of the map is undecided; what "
                                           f"would decide it: {undecided}", {"sweep": cells})
    deciding = [c for c in cells if c["verdict"] == ("holds" if holds else "fails") and decisive(c)]
    support = next((supports[format_value(c["setting"])] for c in deciding if format_value(c["setting"]) in supports), None)
    said = {True: "holds", False: "fails", None: "inconclusive"}
    at = [{"value": r, "verdict": said[map_holds([c["readings"][format_value(r)] for c in cells])]} for r in readings]
    return {"holds": bool(holds), "support": support, "diagnosis": diagnosis, "readings": at}


#: "Always" in B1.1 (the share of a panel's sizes that must not be lost): 1 every size (the word's own) and 0.9 nine
#: sizes in ten.
ALWAYS = (1.0, 0.9)
#: "Always" in B1.3 (the share of a curve's sizes at which the gain is above the cut): B1.3's "always ... and sometimes"
#: quantifies over the methods and panels, not the sizes, so the per-curve median gain (0.5: at least half the sizes
#: above the cut) is the words' reading, nine sizes in ten (0.9) and every size (1) the strict side (THE RULE's clause 4).
B13_ALWAYS = (0.5, 0.9, 1.0)


def gains_always(gains: dict, cut: float, always: float) -> bool:
    """B1.3 at one reading [cut, always]: for every curve (``gains``: name -> its gains ``error / error-proj`` at the
    sizes read), the gain is above ``cut`` at every size (``always`` 1), at nine sizes in ten (0.9) or at half the sizes
    or more (0.5: the per-curve median gain at or above the cut)."""
    if not isinstance(gains, dict) or not gains:
        raise ValueError("gains must be a non-empty mapping curve -> gains")
    if always not in B13_ALWAYS:
        raise ValueError(f"always must be one of {B13_ALWAYS}; got {always!r}")
    return every_share_above(gains, cut, always)


def best_always(outcomes: dict, tie_rtol, first: int, always: float, cap=None) -> bool:
    """B1.1 at one reading [tie, first size, always]: ``always`` 1 is :func:`~.herding_claims.best_from` (no loss at any
    size t >= first, one a win); 0.9: in every panel, nine sizes t >= first in ten or more are not a loss (the ratio of
    min-norm-point's error to the best other's at most 1 + tie) and no loss is wider than ``cap`` (a number, or a mapping
    panel -> its own, such as one line's width of the panel on Fig. 3, :func:`~.herding_claims.line_width_tie`:
    :func:`~.herding_claims.share_holds`), so that the share forgives only losses the figure cannot show. ``cap`` is
    required where ``always`` < 1."""
    from .herding_claims import _panel_tie, best_from, share_holds
    if always not in ALWAYS:
        raise ValueError(f"always must be one of {ALWAYS}; got {always!r}")
    if always == 1.0:
        return best_from(outcomes, tie_rtol, first)
    if cap is None:
        raise ValueError("cap must be given where always < 1: the widest loss the share may forgive")
    if not isinstance(outcomes, dict) or not outcomes:
        raise TypeError("outcomes must be a non-empty mapping panel -> size_outcomes table")
    ok = []
    for name, o in outcomes.items():
        r = o["ratio"][o.index >= first].to_numpy(dtype=float)
        if not len(r):
            raise ValueError(f"outcomes[{name!r}] has no size t >= first = {first}: nothing to read")
        ok.append(share_holds(r, _panel_tie(tie_rtol, name), always, _panel_tie(cap, name)))
    return all(ok)


def one_at_a_time(chosen, values) -> tuple[list, list]:
    """(readings, beside): the readings of a threshold with several cut-offs, each moved alone from ``chosen`` to every
    other value it takes (``values``: one tuple of values per cut-off), the chosen first; beside, the stacked corners
    (two or more cut-offs moved at once), shown and judged over the map but not read."""
    import itertools
    chosen = list(chosen)
    if len(chosen) != len(values) or any(c not in v for c, v in zip(chosen, values)):
        raise ValueError("chosen must give one value of each cut-off's values")
    read = [chosen] + [chosen[:i] + [v] + chosen[i + 1:] for i, vs in enumerate(values) for v in vs if v != chosen[i]]
    beside = [list(r) for r in itertools.product(*values) if sum(a != b for a, b in zip(r, chosen)) >= 2]
    return read, beside


def lost_setting_claim(cells, axis: str, text: str, readings, supports: dict, undecided: str) -> dict:
    """THE RULE on a setting the paper gave but extraction lost (clause 3's last sentence; B1.4's ``s``, "at least for
    , i.e., with a smaller feature space"): the claim is decided over the verdict map ``cells`` at each plausible value of
    ``axis`` (each value's cells judged as :func:`axis_verdict` judges them: ``True`` / ``False`` / ``None`` undecided),
    and the values are combined by :func:`~inferopt.experiment.verdict_map.lost_setting_verdict`:

    * every value holds: :func:`axis_claim` over every cell (holds);
    * every value fails decisively: :func:`axis_claim` over every cell (its failure diagnosis over the whole map);
    * the values disagree: ``lost setting``, inconclusive (:class:`~inferopt.experiment.claims.Unearned` naming the values
      that hold and fail), never a ``setting`` failure; the support is that of a decisive failing cell;
    * a value undecided: inconclusive, naming it and ``undecided``, what would decide it.

    Each reading of ``readings`` is judged the same way (per value by :func:`~.herding_claims.map_holds` over its cells
    at that reading, then :func:`~inferopt.experiment.verdict_map.lost_setting_verdict`: ``lost setting`` is
    ``inconclusive``). Returns :func:`axis_claim`'s dict plus ``"by value"`` (value -> ``holds`` / ``fails`` /
    ``inconclusive`` at the chosen reading, ``readings[0]``)."""
    from .claims import Unearned, format_value
    from .herding_claims import map_holds
    from .verdict_map import lost_setting_verdict
    cells = list(cells)
    if not cells or not all(isinstance(c, dict) and axis in c.get("setting", {}) for c in cells):
        raise ValueError(f"cells must be a verdict map whose every cell names its {axis!r}")
    values = list(dict.fromkeys(c["setting"][axis] for c in cells))
    at = lambda v: [c for c in cells if c["setting"][axis] == v]
    by_value = {v: axis_verdict(at(v), axis, text)[0] for v in values}
    lost = lost_setting_verdict(by_value)
    said = {True: "holds", False: "fails", None: "inconclusive", "lost setting": "inconclusive"}
    shown = {v: said[h] for v, h in by_value.items()}
    read = [{"value": r, "verdict": said[lost_setting_verdict(
        {v: map_holds([c["readings"][format_value(r)] for c in at(v)]) for v in values})]} for r in readings]
    named = ", ".join(f"{shown[v]} at {axis} = {v}" for v in values)
    if lost in (True, False):
        return axis_claim(cells, axis, text, readings, supports, undecided) | {"readings": read, "by value": shown}
    if lost == "lost setting":
        failing = [c for v in values if by_value[v] is False for c in at(v) if c["verdict"] == "fails" and decisive(c)]
        support = next((supports[format_value(c["setting"])] for c in failing if format_value(c["setting"]) in supports), None)
        diagnosis = Unearned(f"{text} Over the map the claim {named}: the cells disagree over {axis}, a setting the paper "
                             "gave and extraction lost. THE RULE (clause 3's last sentence): inconclusive, decided by a "
                             f"lost setting, not a `setting` failure. What would decide it: the paper's {axis}",
                             {"sweep": cells})
        return {"holds": False, "support": support, "diagnosis": diagnosis, "readings": read, "by value": shown}
    diagnosis = Unearned(f"{text} Over the map the claim {named}: a value of {axis}, a setting the paper gave and "
                         f"extraction lost, is undecided. What would decide it: {undecided}", {"sweep": cells})
    return {"holds": False, "support": None, "diagnosis": diagnosis, "readings": read, "by value": shown}


def random_first_points(n_candidates: int, n_draws: int, rng) -> list[int]:
    """``n_draws`` candidate indices drawn uniformly from ``rng`` (a Generator or seed): the paper's random first point
    (Sec. 4: "the first point is chosen randomly from the extreme points of M")."""
    n = check_int("n_candidates", n_candidates, low=1)
    k = check_int("n_draws", n_draws, low=1)
    return [int(i) for i in as_generator(rng).integers(n, size=k)]


def cg_curves_from(target: KernelTarget, grid, n_points: int, first: int, proj_sizes) -> pd.DataFrame:
    """Our construction's conditional-gradient arms (herding, line search, min-norm-point, and ``-proj`` of the first
    two at ``proj_sizes``) on ``grid`` fitting ``target``'s exact mean, started at the candidate ``first`` (weight 1,
    then Eq. 4's steps): :func:`~inferopt.experiment.herding.sobolev_curves`' rows of those arms, ``x`` herding's points."""
    grid = check_points(target, "grid", grid)
    n_points = check_size("n_points", n_points, low=2, item_bytes=8 * 4, item="point")
    first = check_int("first", first, low=0, high=len(grid) - 1)
    sizes = sorted(set(check_int_sequence("proj_sizes", proj_sizes, low=1, high=n_points)))
    problem = hull_problem(target, grid)
    frames = []
    for name, step in (("cg-1/(t+1)", "1/(t+1)"), ("cg-l.search", "line_search")):
        res = frank_wolfe(problem, step=step, init=first, max_iter=n_points - 1, tol=None)
        order = np.r_[first, res.info["atom"]].astype(int)
        t = np.arange(1, len(res.objective) + 1)
        frames.append(_rows(name, res.objective, t, x=grid[order] if step == "1/(t+1)" else np.nan))
        frames.append(_rows(name + "-proj", projected_errors(target, grid[order], sizes), sizes, x=np.nan))
    res = min_norm_point(problem, init=first, max_iter=n_points - 1, tol=0.0)
    frames.append(_rows("min-norm-point", res.objective, x=np.nan))
    return pd.concat(frames, ignore_index=True)


def evenly_weighted_lattice(points, weights, atol: float = 1e-9) -> bool:
    """Is the weighted point set ``(points, weights)`` in ``[0, 1)`` a lattice ``{(c + j) / n}`` (evenly spaced on the
    circle) carrying uniform weights, once coinciding points (within ``atol``) are merged, their weights summed (a point
    at weight 0 apart from the others is kept: ``-proj`` may give it weight, so the set is then not evenly weighted)? On the uniform density, with a translation-invariant kernel, such a set's Gram matrix is
    circulant and uniform weights are optimal over it: re-weighting it (``-proj``) gains nothing, by construction."""
    x = np.mod(as_finite_array("points", points, ndim=1, nonempty=True), 1.0)
    w = as_finite_array("weights", weights, ndim=1)
    if len(w) != len(x) or (w < 0).any():
        raise ValueError("weights must be one non-negative weight per point")
    order = np.argsort(x, kind="stable")
    x, w = x[order], w[order]
    # merge coinciding points, vectorised: a group starts where the sorted points step by more than atol (each group
    # represented by its first point, its weights summed)
    starts = np.flatnonzero(np.r_[True, np.diff(x) > atol])
    px, pw = x[starts], np.add.reduceat(w, starts)
    if len(px) > 1 and px[0] + 1.0 - px[-1] <= atol:     # 0 and 1 are the same point on the circle
        pw = np.r_[pw[0] + pw[-1], pw[1:-1]]
        px = px[:-1]
    # a point at weight 0 apart from the others stays: -proj may use it
    n = len(px)
    if n < 2:
        return False
    gaps = np.diff(np.r_[px, px[0] + 1.0])
    return bool(np.allclose(gaps, 1.0 / n, rtol=0.0, atol=atol) and np.allclose(pw, pw.sum() / n, rtol=0.0, atol=atol))


def lattice_excuses(sets: dict, uniform_density: bool, atol: float = 1e-9) -> list[int]:
    """B1.3's one excuse rule, in every cell alike (ours, the random first points, the authors' construction; herding,
    Sobol or any arm whose points are known): the sizes ``t`` of ``sets`` (``t -> (points, weights)``: the points the
    arm's ``-proj`` re-weights at ``t`` and the arm's own weights on them) where the gain ``error / error-proj`` is 1 by
    construction: on the uniform density, the set is an evenly weighted lattice (:func:`evenly_weighted_lattice`).
    None on a non-uniform density: there a lattice in ``x`` (or Sobol's quantile nets, evenly spaced in quantile) has no
    circulant Gram matrix, and its gain is read."""
    if not isinstance(sets, dict):
        raise TypeError("sets must be a mapping size t -> (points, weights)")
    if not uniform_density:
        return []
    return sorted(int(t) for t, (p, w) in sets.items() if evenly_weighted_lattice(p, w, atol))


def prefix_sets(points, sizes, start_weight_zero: bool = False) -> dict:
    """``{t: (points[:t], weights)}`` for :func:`lattice_excuses`: uniform weights ``1/t`` (our herding, Sobol), or, with
    ``start_weight_zero``, the authors' herding at their abscissa ``t``: the start listed first at weight 0 beside the
    ``t - 1`` herding points at ``1/(t - 1)`` each (every ``t >= 2``)."""
    x = as_finite_array("points", points, ndim=1, nonempty=True)
    out = {}
    for t in check_int_sequence("sizes", sizes, low=2 if start_weight_zero else 1, high=len(x)):
        w = np.r_[0.0, np.full(t - 1, 1.0 / (t - 1))] if start_weight_zero else np.full(t, 1.0 / t)
        out[int(t)] = (x[:t], w)
    return out


FIRST_POINT = "first point"   #: the setting key of our construction's random-first-point cells (Sec. 4's scheme)


def deciding_cells(cells) -> list:
    """THE RULE's clause 1 for B1.1-B1.4 (docs/paper-B.md, "Where a claim is decided"): the cells of a verdict map that
    decide a claim and its readings. A setting the paper gives is where a claim is decided, and where the paper's text and
    the authors' code disagree the text decides and the code is a construction cell: the deciding cells are our
    construction from the paper's random first point (Sec. 4: "the first point is chosen randomly from the extreme points
    of M -- this is the scheme we used"; a ``"first point"`` in the cell's setting). The authors' cells (raw, and on equal
    inputs), the argmax-mu start (Chen et al.'s ``g_0 = 0``) and its grid, density and averaging variants diagnose only."""
    cells = list(cells)
    if not cells or not all(isinstance(c, dict) and isinstance(c.get("setting"), dict) for c in cells):
        raise ValueError("cells must be a non-empty list of verdict-map cells")
    out = [c for c in cells if FIRST_POINT in c["setting"]]
    if not out:
        raise ValueError("the map holds no random-first-point cell to decide in")
    return out


def first_points_table(cells, reading: str) -> pd.DataFrame:
    """The deciding cells (:func:`deciding_cells`) of a verdict map at ``reading`` as a table of units ``first`` (one per
    random first point drawn) and ``holds`` (that cell's verdict at ``reading``), for :func:`all_first_points`
    bootstrapped over the first points."""
    firsts = deciding_cells(cells)
    missing = [c["setting"] for c in firsts if reading not in c.get("readings", {})]
    if missing:
        raise ValueError(f"reading {reading!r} is not judged in the cells {missing}")
    return pd.DataFrame({"first": range(len(firsts)), "holds": [c["readings"][reading] == "holds" for c in firsts]})


def all_first_points(table: pd.DataFrame) -> bool:
    """B1.1-B1.3 decided in the paper's scheme (Sec. 4, a random first point): the claim holds where it holds from
    every first point drawn (``table``: :func:`first_points_table`); bootstrapped over the first points, a failure from
    one of three draws has support ``1 - (2/3)^3 = 0.70``: inconclusive, not a verdict on one draw."""
    if not isinstance(table, pd.DataFrame) or "holds" not in table or table.empty:
        raise ValueError("table must be a non-empty DataFrame with a boolean column 'holds'")
    return bool(table["holds"].astype(bool).all())


def fig3_diagnosis(cells, text: str):
    """The diagnosis of a B1 claim that does not hold, from its verdict map ``cells``
    (:func:`~inferopt.experiment.verdict_map.cell`; ours the first, the authors' marked ``construction='authors'``):

    * ``construction`` where an authors' cell and ours are both decisive and disagree (one holds, the other fails): both
      verdicts are reported in the text and the map is the evidence;
    * else :func:`~inferopt.experiment.verdict_map.map_diagnosis`: ``setting`` (a cell holds decisively), ``paper``
      (every cell, the authors' included, fails decisively) or :class:`~inferopt.experiment.claims.Unearned`."""
    cells = list(cells)
    if not cells or not isinstance(cells[0], dict):
        raise ValueError("cells must be a verdict map, ours first")
    ours, authors = cells[0], [c for c in cells if c.get("construction") == "authors"]
    differ = [c for c in authors if decisive(c) and decisive(ours) and {c["verdict"], ours["verdict"]} == {"holds", "fails"}]
    if differ:
        return {"kind": "construction",
                "text": f"{text} The authors' construction gives a different verdict from ours: ours {ours['verdict']}, "
                        + "; ".join(f"the authors' ({', '.join(f'{k} = {v}' for k, v in c['setting'].items())}) "
                                    f"{c['verdict']}" for c in differ) + ".",
                "evidence": {"sweep": cells}}
    return map_diagnosis(cells, text)


# ---------------------------------------------------------------------------------------------------------------------
# B1.5: herding's linear minimisation exact over [0, 1] (uniform density), in extended precision


def _kernel_coefficients(s: int) -> np.ndarray:
    """The Sobolev kernel of order ``s`` on [0, 1) as a polynomial of ``u = {x - y}``, lowest power first, in extended
    precision: ``k(u) = (-1)^(s-1) / (2s)! B_2s(u)`` (Sec. 5.1; :class:`~inferopt.herding.SobolevTarget`'s kernel)."""
    from math import comb, factorial
    from fractions import Fraction
    s = check_int("s", s, low=1, high=4)
    n = 2 * s
    B = [Fraction(1)]                                     # Bernoulli numbers B_0..B_n (B_1 = -1/2)
    for m in range(1, n + 1):
        B.append(-sum(comb(m + 1, k) * B[k] for k in range(m)) / (m + 1))
    coef = [Fraction(comb(n, k)) * B[k] for k in range(n + 1)]          # B_n(u) = sum_k C(n, k) B_k u^(n - k)
    scale = Fraction((-1) ** (s - 1), factorial(n))
    low_first = [coef[n - p] * scale for p in range(n + 1)]             # the coefficient of u^p
    return np.array([np.longdouble(c.numerator) / np.longdouble(c.denominator) for c in low_first])


def _kernel_ld(a: np.ndarray, u) -> np.ndarray:
    """``k({u})`` in extended precision (Horner on the fractional part)."""
    u = np.mod(np.asarray(u, dtype=np.longdouble), np.longdouble(1))
    out = np.zeros_like(u)
    for c in a[::-1]:
        out = out * u + c
    return out


def uniform_prefix_errors(s: int, points) -> np.ndarray:
    """``||mu - (1/t) sum_{i <= t} Phi(x_i)||^2`` for every prefix ``t`` of ``points`` on the uniform density (``mu = 0``,
    the kernel has no constant mode), in extended precision: ``t^2 E_t = (t-1)^2 E_{t-1} + 2 sum_{i<t} k(x_t - x_i) + k(0)``,
    each sum taken directly (no cancellation between sizes). Returned as float64."""
    a = _kernel_coefficients(s)
    x = np.asarray(as_finite_array("points", points, ndim=1, nonempty=True), dtype=np.longdouble)
    total, out = np.longdouble(0), np.empty(len(x))
    for t in range(1, len(x) + 1):
        total += 2 * _kernel_ld(a, x[t - 1] - x[:t - 1]).sum() + a[0]
        out[t - 1] = float(max(total / np.longdouble(t) ** 2, np.longdouble(0)))
    return out


def _interval_polynomials(a: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``f(x) = sum_i k({x - p_i})`` on each interval ``(p_j, p_{j+1})`` between the sorted points ``p`` (the last one
    ``(p_{t-1}, p_0 + 1)``) as a polynomial in ``x``, lowest power first: ``(t, 2s + 1)`` extended-precision
    coefficients, from the power sums of the shifts ``c_i`` (``p_i`` left of the interval, ``p_i - 1`` right of it),
    vectorised over the intervals by cumulative sums."""
    from math import comb
    n = len(a) - 1
    q = p - 1
    S = np.empty((len(p), n + 1), dtype=np.longdouble)
    for m in range(n + 1):
        left, right = np.cumsum(p ** m), np.cumsum(q ** m)
        S[:, m] = left + (right[-1] - right)
    F = np.zeros((len(p), n + 1), dtype=np.longdouble)
    for k in range(n + 1):
        for l in range(k + 1):
            F[:, l] += a[k] * comb(k, l) * (-1) ** (k - l) * S[:, k - l]
    return F


def _polyval_rows(F: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Each row's polynomial (lowest power first) at the matching row of ``x`` (extended precision, Horner)."""
    out = np.zeros_like(x)
    for c in F.T[::-1]:
        out = out * x + c[:, None]
    return out


def exact_argmin(s: int, points) -> tuple[float, float]:
    """Herding's linear minimisation exact over [0, 1] on the uniform density (``mu = 0``): ``argmin_x sum_i k({x - p_i})``
    over the points ``p`` so far, and its value. The sum is a polynomial of degree ``2s`` on each interval between
    consecutive points (:func:`_interval_polynomials`); its minima are the real roots of the derivative inside an
    interval (a companion matrix per interval, batched, then two Newton steps in extended precision) or an interval's
    ends; values within a rounding tolerance of the least (``1e3`` extended-precision ulps of ``t k(0)``) are tied, and
    the lowest ``x`` in [0, 1) among them is taken."""
    a = _kernel_coefficients(s)
    p = np.sort(np.mod(np.asarray(as_finite_array("points", points, ndim=1, nonempty=True), dtype=np.longdouble), 1))
    lo, hi = p, np.r_[p[1:], p[:1] + 1]
    F = _interval_polynomials(a, p)
    n = F.shape[1] - 1
    D = F[:, 1:] * np.arange(1, n + 1, dtype=np.longdouble)          # f', degree 2s - 1
    if n - 1 == 1:
        roots = (-D[:, :1] / D[:, 1:2])
    else:
        lead = np.asarray(D[:, -1], dtype=float)
        comp = np.zeros((len(p), n - 1, n - 1))
        comp[:, 1:, :-1] = np.eye(n - 2)
        comp[:, :, -1] = -np.asarray(D[:, :-1], dtype=float) / lead[:, None]
        r = np.linalg.eigvals(comp)
        roots = np.where(np.abs(r.imag) < 1e-7, r.real, np.nan).astype(np.longdouble)
    DD = D[:, 1:] * np.arange(1, n, dtype=np.longdouble)
    for _ in range(2):                                                    # Newton in extended precision
        fp, fpp = _polyval_rows(D, np.nan_to_num(roots)), _polyval_rows(DD, np.nan_to_num(roots))
        roots = roots - np.where(fpp != 0, fp / np.where(fpp != 0, fpp, 1), 0)
    inside = (roots > lo[:, None]) & (roots < hi[:, None])
    cand = np.concatenate([np.where(inside, roots, np.nan), lo[:, None], hi[:, None]], axis=1)
    vals = _polyval_rows(F, np.nan_to_num(cand))
    vals = np.where(np.isnan(cand), np.inf, vals)
    best = vals.min()
    tol = np.longdouble(1e3) * np.finfo(np.longdouble).eps * len(p) * abs(a[0])
    x = np.mod(cand[vals <= best + tol], 1)
    return float(x.min()), float(best)


def exact_herding_uniform(s: int, n_points: int, first: float = 0.0) -> np.ndarray:
    """Herding (uniform weights, ``rho_t = 1/(t+1)``) on the uniform density with its linear minimisation exact over the
    continuous [0, 1] (:func:`exact_argmin`): the first point ``first`` (every ``x`` ties against ``mu = 0``; the
    lowest, 0, as the grids' first candidate), then ``x_{t+1} = argmin_x sum_{i <= t} k(x - x_i)``. The limit of B1.5's
    refinement series of grids, free of any grid and of double-precision rounding of the scores."""
    n_points = check_size("n_points", n_points, low=1, item_bytes=16 * 8, item="point")
    x = [float(first)]
    for _ in range(n_points - 1):
        x.append(exact_argmin(s, x)[0])
    return np.array(x)


class DrawMeans:
    """The random draws of a curves table, precomputed once for a fast bootstrap over the draws: per panel, one
    ``(draw x t)`` matrix of errors per method (``rep`` the draw), so that a resample of the draws (an index array, draws
    drawn again counted again) is averaged with numpy instead of rebuilding and re-grouping the table.

    :meth:`tables` gives what ``error_table`` gives on the table of the drawn draws (per panel, the ``(t x method)`` mean
    over the drawn draws, NaN where a method is not measured); ``average="geometric"``: the mean of the logs of the errors
    (floored at 1e-300), exponentiated. :meth:`units` is the table to hand ``bootstrap_support`` (one row per draw; its
    ``draw`` column keeps the draw's index through the resample's relabelling of ``rep``)."""

    def __init__(self, curves: pd.DataFrame, average: str = "mean", by: str = "rep") -> None:
        if average not in ("mean", "geometric"):
            raise ValueError("average must be 'mean' or 'geometric'")
        if curves.empty:
            raise ValueError("curves must hold at least one draw")
        self.average, self.by = average, by
        self.draws = np.sort(pd.unique(curves[by]))
        err = curves.error.to_numpy(dtype=float)
        err = np.log(np.maximum(err, 1e-300)) if average == "geometric" else err
        c = curves.assign(error=err)
        self.matrices = {}   # panel -> (t index, [method], array (method, draw, t))
        for panel, g in c.groupby("panel", sort=True):
            ts = np.sort(pd.unique(g.t))
            methods = sorted(pd.unique(g.method))
            cube = np.full((len(methods), len(self.draws), len(ts)), np.nan)
            mi = pd.Index(methods).get_indexer(g.method)
            di = np.searchsorted(self.draws, g[by].to_numpy())
            ti = np.searchsorted(ts, g.t.to_numpy())
            if pd.DataFrame({"m": mi, "d": di, "t": ti}).duplicated().any():
                raise ValueError("curves must hold one error per (panel, method, draw, t)")
            cube[mi, di, ti] = g.error.to_numpy(dtype=float)
            self.matrices[panel] = (pd.Index(ts.astype(int), name="t"), methods, cube)

    def units(self) -> pd.DataFrame:
        """One row per draw (``rep``, ``draw``): the table ``bootstrap_support`` resamples."""
        return pd.DataFrame({self.by: self.draws, "draw": np.arange(len(self.draws))})

    def tables(self, drawn) -> dict:
        """{panel: (t x method) mean over the draws ``drawn`` (indices into the draws, repeats counted)}."""
        idx = np.asarray(drawn, dtype=int)
        out = {}
        for panel, (ts, methods, cube) in self.matrices.items():
            sub = cube[:, idx, :]
            n = np.isfinite(sub).sum(axis=1)
            mean = np.where(n > 0, np.nansum(sub, axis=1) / np.maximum(n, 1), np.nan)
            mean = np.exp(mean) if self.average == "geometric" else mean
            out[panel] = pd.DataFrame(mean.T, index=ts, columns=methods)
        return out
