"""Timing table for inferopt.fw and inferopt.herding (not a test).

    .venv/bin/python benchmarks/fw.py

Prints wall time, iterations, final objective and fitted rates.  BLAS threads contend on a
busy 2-core machine: OPENBLAS_NUM_THREADS=1 speeds up min-norm-point considerably.
"""

from __future__ import annotations

import time

import numpy as np

from inferopt.fw import QuadraticHull, frank_wolfe, hull_quadratic
from inferopt.herding import SobolevTarget, TrigDensity, herd


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
        res = hull_quadratic(V, b, method=method, step=step if step != "-" else "line_search",
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


if __name__ == "__main__":
    main()
