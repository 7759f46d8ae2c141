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
from ..fw import frank_wolfe, min_norm_point, simplex_reweight
from ..herding.baselines import sobol_points
from ..herding.densities import TrigDensity, check_density
from ..herding.herding import hull_problem
from ..herding.targets import KernelTarget, check_points, mmd2, mmd2_uniform_prefix
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


def _proj_errors(fit: KernelTarget, exact: KernelTarget, points: np.ndarray, sizes) -> np.ndarray:
    """``-proj``: the first ``t`` points re-weighted optimally onto ``fit``'s mean (Wolfe's algorithm on their distinct
    points, :func:`inferopt.fw.simplex_reweight`, warm-started from the previous size's support and the new points),
    the error read against ``exact`` (the same kernel)."""
    pts = check_points(fit, "points", points)
    K, c, c_exact = fit.kernel(pts, pts), fit.mean(pts), exact.mean(pts)
    _, first_seen = np.unique(pts, return_index=True)
    first_seen = np.sort(first_seen)                      # each distinct point at its first listing
    out, support, before = [], [], 0
    for t in sorted(check_int_sequence("sizes", sizes, low=1, high=len(pts))):
        ids = first_seen[first_seen < t]
        pos = {int(i): k for k, i in enumerate(ids)}
        init = [pos[i] for i in support] + [pos[int(i)] for i in ids if i >= before]
        res = simplex_reweight(K[np.ix_(ids, ids)], c[ids], fit.mean_sqnorm, init=init)
        w = res.dense_weights(len(ids))
        out.append(max(float(w @ K[np.ix_(ids, ids)] @ w - 2.0 * w @ c_exact[ids] + exact.mean_sqnorm), 0.0))
        support, before = [int(i) for i in ids[w > 0]], t
    return np.array(out)


def _rows(method: str, t, error, x=np.nan, rep: int = 0) -> pd.DataFrame:
    return pd.DataFrame({"method": method, "t": np.asarray(t, dtype=int), "error": np.asarray(error, dtype=float),
                         "rep": rep, "x": x})


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


def authors_curves(exact: KernelTarget, density: TrigDensity, n_rep: int, rng, *, n_candidates: int = AUTHORS_CANDIDATES,
                   n_points: int = AUTHORS_POINTS, plotted: bool = True) -> pd.DataFrame:
    """Every method of Fig. 3 as the authors' script runs it (module docstring), in
    :func:`~inferopt.experiment.herding.sobolev_curves`' columns ``method, t, error, rep, x``: ``t`` is the script's
    abscissa ``i`` (``i`` points listed: herding's start at weight 0 among them), every ``-proj`` arm at every ``t``
    (as the script computes it), ``random`` over ``n_rep`` draws of ``rng``. ``plotted``: keep only the abscissae the
    script's figure plots, ``t = 1, 3, ..., n_points + 1`` (else every ``t``). ``x``: Sobol's point added at ``t``; NaN
    for herding, whose weighted points at ``t`` are ``t - 1`` (never a uniformly weighted set of ``t`` points)."""
    check_density(density)
    n_rep = check_size("n_rep", n_rep, item_bytes=8 * n_points, item="replication")
    rng = as_generator(rng)
    grid, weights = authors_grid(density, n_candidates)
    fit = WeightedGridTarget(exact, grid, weights)
    n_list = n_points + 1
    sizes = np.arange(1, n_list + 1)
    keep = sizes[sizes % 2 == 1] if plotted else sizes
    frames = []
    for name, (err, listed) in authors_cg(exact, density, n_candidates, n_points).items():
        t = np.arange(1, len(err) + 1)
        on = np.isin(t, keep)
        frames.append(_rows(name, t[on], err[on]))
        if name != "min-norm-point":
            frames.append(_rows(name + "-proj", keep, _proj_errors(fit, exact, grid[listed], keep)))
    sobol = sobol_points(density, n_list)
    frames += [_rows("sobol", keep, mmd2_uniform_prefix(exact, sobol)[keep - 1], x=sobol[keep - 1]),
               _rows("sobol-proj", keep, _proj_errors(exact, exact, sobol, keep))]
    for rep in range(n_rep):
        pts = density.sample(n_list, rng)
        frames += [_rows("random", keep, mmd2_uniform_prefix(exact, pts)[keep - 1], rep=rep),
                   _rows("random-proj", keep, _proj_errors(exact, exact, pts, keep), rep=rep)]
    return pd.concat(frames, ignore_index=True)


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
        frames.append(_rows(name, t, res.objective, x=grid[order] if step == "1/(t+1)" else np.nan))
        frames.append(_rows(name + "-proj", sizes, _proj_errors(target, target, grid[order], sizes)))
    res = min_norm_point(problem, init=first, max_iter=n_points - 1, tol=0.0)
    frames.append(_rows("min-norm-point", np.arange(1, len(res.objective) + 1), res.objective))
    return pd.concat(frames, ignore_index=True)


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
