"""Timing table for inferopt.herding (not a test).

    .venv/bin/python benchmarks/herding.py

* per-iteration cost of herding / line search over a grid of N candidates: one kernel column
  (O(N)) per step, so the time per iteration grows linearly in N and not with t;
* min-norm-point and the -proj re-weighting (inferopt.fw.mnp: the corral's Cholesky factor is
  updated in O(k^2) per atom in or out; -proj warm-starts from all points) -- the cost that dominates B1;
* the graphical model (Sec. 5.2) and maximum-entropy runs (Sec. 5.3) at the paper-scale sizes.
"""

from __future__ import annotations

import time

import numpy as np

from inferopt.herding import (
    FeatureTarget,
    SobolevTarget,
    TrigDensity,
    all_states,
    herd,
    pairwise_features,
    project,
    random_correlation,
    sample_sign_gaussian,
    sign_gaussian_moments,
    welling_herding,
)


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def row(case: str, n: int, t: int, seconds: float, note: str = "") -> None:
    print(f"{case:<34} {n:>7d} {t:>7d} {seconds:>9.3f} {1e6 * seconds / t:>10.1f}  {note}")


def main() -> None:
    print(f"{'case':<34} {'N':>7} {'iters':>7} {'time[s]':>9} {'us/iter':>10}  note")
    target = SobolevTarget(1, TrigDensity.random(np.random.default_rng(0)))
    for N in (1024, 4096, 16384):
        grid = np.arange(N) / N
        for method in ("1/(t+1)", "line_search"):
            sec, res = timed(lambda: herd(target, grid, 1000, method))
            row(f"sobolev s=1 {method}", N, 1000, sec, f"error {res.objective[-1]:.2e}")
        sec, _ = timed(lambda: welling_herding(target, grid, 1000))
        row("sobolev s=1 Welling recursion", N, 1000, sec)
    grid = np.arange(4096) / 4096
    for T in (250, 500):
        sec, res = timed(lambda: herd(target, grid, T, "mnp"))
        row("sobolev s=1 min-norm-point", 4096, T, sec, f"corral {len(res.atoms)}, minor cycles {int(res.info['n_minor'].sum())}")
        pts = grid[herd(target, grid, T).order]
        sec, _ = timed(lambda: project(target, pts))
        row("sobolev s=1 -proj of herding", 4096, T, sec)
    rng = np.random.default_rng(1)
    sigma = random_correlation(10, rng)
    F = pairwise_features(sample_sign_gaussian(sigma, 10_000, rng))
    tgt = FeatureTarget(sign_gaussian_moments(sigma))
    for method in ("1/(t+1)", "line_search", "mnp"):
        sec, res = timed(lambda: herd(tgt, F, 5000, method))
        row(f"graphical d=10 {method}", len(F), len(res.objective), sec, f"error {res.objective[-1]:.2e}")
    S = all_states(10)
    m = np.random.default_rng(2).uniform(-1, 1, 10)
    sec, _ = timed(lambda: herd(FeatureTarget(m), S, 100_000, "1/(t+1)", snapshots=[10**k for k in range(6)]))
    row("maxent d=10 herding", len(S), 100_000, sec)


if __name__ == "__main__":
    main()
