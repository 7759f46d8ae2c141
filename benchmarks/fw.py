"""Timing table for inferopt.fw and inferopt.herding (not a test).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/fw.py          # everything
    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/fw.py mnp      # min-norm-point scaling only

Prints wall time, iterations, final objective and fitted rates.  BLAS threads contend on a
busy 2-core machine: OPENBLAS_NUM_THREADS=1 speeds up min-norm-point considerably.

The ``mnp`` table times Wolfe's min-norm-point (herding, Sobolev s = 1, random density, 4096
grid points) and the ``-proj`` re-weighting QP (cold, and warm-started from all points with the
kernel Gram computed outside the timing) at 250 and 500 points, and the 500/250 ratio.  With
O(k^p) work in a step at corral size k, T steps cost ~T^(p+1): a ratio of 16 for an O(k^3)
refactorisation per step, 8 for the O(k^2) factor updates, 4 where the O(Nk) refresh of
``G alpha`` over N >> k candidates dominates.  To compare with another version of the library,
run the same command with ``PYTHONPATH=<other checkout>/src``.
"""

from __future__ import annotations

import inspect
import sys
import time

import numpy as np

from inferopt.fw import QuadraticHull, frank_wolfe, hull_quadratic, simplex_reweight
from inferopt.herding import SobolevTarget, TrigDensity, herd, project


def row(name: str, seconds: float, n_iter: int, final: float, rate: str) -> None:
    print(f"{name:<42} {seconds:>8.3f} {n_iter:>7d} {final:>12.3e}  {rate}")


def log_slope(x, y) -> float:
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def main() -> None:
    print(f"{'case':<42} {'time[s]':>8} {'iters':>7} {'objective':>12}  rate")
    rng = np.random.default_rng(0)
    V = rng.normal(size=(50, 2000))
    b = V @ rng.dirichlet(np.ones(2000))                      # interior optimum, f* = 0
    for method, step in [("fw", "1/(t+1)"), ("fw", "line_search"), ("away", "line_search"),
                         ("pairwise", "line_search"), ("pairwise", "backtracking"), ("mnp", "-")]:
        t0 = time.perf_counter()
        res = hull_quadratic(V, b, variant=method, step=step if step != "-" else "line_search",
                             max_iter=1000, tol=1e-12)
        sub = res.objective
        keep = np.flatnonzero(sub > 1e-13)[len(sub) // 4:]
        rate = (f"log-subopt slope {np.polyfit(keep, np.log(sub[keep]), 1)[0]:.4f}/iter"
                if len(keep) > 10 else "")
        row(f"polytope m=50 N=2000 {method}/{step}", time.perf_counter() - t0, res.n_iter, sub[-1], rate)
    grid = np.arange(10_000) / 10_000
    cases = [(1, TrigDensity.random(np.random.default_rng(1))), (1, TrigDensity.uniform()), (2, TrigDensity.uniform())]
    for s, dens in cases:
        target = SobolevTarget(s, dens)
        for method in ("1/(t+1)", "line_search", "mnp"):
            t0 = time.perf_counter()
            res = herd(target, grid, 500, method)
            t = np.arange(1, len(res.error) + 1)
            ok = (t >= 50) & (res.error > 1e-15)
            row(f"herding s={s} {'uniform' if len(dens.coef) == 1 else 'random'} N=1e4 {method}",
                time.perf_counter() - t0, len(res.error), res.error[-1],
                f"log-log slope {log_slope(t[ok], res.error[ok]):.2f}")
    V = rng.normal(size=(300, 20_000))
    t0 = time.perf_counter()
    res = frank_wolfe(QuadraticHull.from_vectors(V, rng.normal(size=300)), step="line_search", max_iter=300, tol=0.0)
    row("per-iteration cost m=300 N=2e4 fw/line_search", time.perf_counter() - t0, res.n_iter, res.objective[-1],
        f"{1e3 * (time.perf_counter() - t0) / res.n_iter:.2f} ms/iter")


def best_of(fn, repeats: int = 3):
    """Smallest wall time of ``repeats`` runs (the machine is shared) and the last result."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def mnp_scaling() -> None:
    """Min-norm-point and -proj at 250 and 500 points (Sobolev s = 1): cost per step against corral size."""
    target = SobolevTarget(1, TrigDensity.random(np.random.default_rng(0)))
    grid = np.arange(4096) / 4096
    print(f"{'case (Sobolev s=1, N=4096)':<34} {'points':>6} {'time[s]':>8} {'corral':>6} {'minor':>6}  error")
    seconds = {}
    for T in (250, 500):
        sec, res = best_of(lambda: herd(target, grid, T, "mnp"))
        seconds["mnp", T] = sec
        print(f"{'min-norm-point (herd mnp)':<34} {T:>6d} {sec:>8.3f} {len(res.atoms):>6d} "
              f"{int(res.fw.info['n_minor'].sum()):>6d}  {res.error[-1]:.4e}")
        pts = grid[herd(target, grid, T).order]
        sec, (_, w, err) = best_of(lambda: project(target, pts))
        seconds["proj", T] = sec
        print(f"{'-proj of herding (simplex_reweight)':<34} {T:>6d} {sec:>8.3f} {np.count_nonzero(w):>6d} "
              f"{'':>6}  {err:.4e}")
        if "init" not in inspect.signature(simplex_reweight).parameters:
            continue                                  # a library version without warm starts
        pts = np.unique(pts)
        gram, c = target.kernel(pts, pts), target.mean(pts)
        sec, res = best_of(lambda: simplex_reweight(gram, c, target.mean_sqnorm, init=range(len(pts))))
        seconds["warm", T] = sec
        print(f"{'  same, warm start init = all points':<34} {T:>6d} {sec:>8.3f} {len(res.atoms):>6d} "
              f"{res.info['n_minor_start']:>6d}  {res.objective[-1]:.4e}")
    for kind in ("mnp", "proj", "warm")[: len(seconds) // 2]:
        print(f"time(500) / time(250), {kind}: {seconds[kind, 500] / seconds[kind, 250]:.2f}")


if __name__ == "__main__":
    if sys.argv[1:] != ["mnp"]:
        main()
    mnp_scaling()
