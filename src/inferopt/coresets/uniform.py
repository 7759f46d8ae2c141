"""Uniform random coreset (the baseline of Campbell & Broderick 2018/2019, Zhang et al. 2021).

Indices are drawn uniformly *with replacement*; the weights are
``N · count_n / total draws`` (an unbiased estimate of the full log-likelihood).
``until="iterations"`` (default): ``k`` draws (at most ``k`` distinct points), as in the
peer library; ``until="support"``: draws until ``k`` distinct points are in the coreset.
A grid of sizes reuses one sequence of draws.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_choice

from ._common import CoresetResult, Trace, check_k_grid, check_problem, scale_free, support_objective
from .._random import as_generator


@scale_free()
def uniform(Phi, y, k, *, rng=None, until="iterations") -> CoresetResult:
    """Uniform coreset(s); ``Phi, y`` give ``n`` and the objective values reported.

    ``objective[j+1]`` is ``f`` at the ``j``-th size of the grid ``ks`` (the "iterations"
    of this method are the grid sizes), ``n_iter`` the number of draws.
    """
    Phi, y = check_problem(Phi, y)
    n = Phi.shape[1]
    ks = check_k_grid(k, n)
    rng = as_generator(rng)
    check_choice("until", until, {"iterations", "support"})
    trace = Trace(float(y @ y))
    kmax = int(ks[-1])
    if until == "iterations":
        draws = rng.integers(0, n, size=kmax)
        W = np.zeros((ks.size, n))
        for j, kk in enumerate(ks):
            W[j] = n * np.bincount(draws[:kk], minlength=n) / kk
            trace.record(support_objective(Phi, y, W[j]))
        obj, times = trace.arrays()
        return CoresetResult(
            x=W[-1].copy(), objective=obj, n_iter=kmax, converged=True, message=f"{kmax} draws",
            times=times, info={"iter_at_size": np.arange(1, ks.size + 1)}, ks=ks, path_weights=W,
        )
    draws = np.zeros(0, dtype=np.intp)
    while True:
        chunk = max(64, 2 * kmax) if kmax < n else max(64, int(2 * n * np.log(n + 1)))
        draws = np.concatenate([draws, rng.integers(0, n, size=chunk)])
        _, first = np.unique(draws, return_index=True)
        if first.size >= kmax:
            break
    first = np.sort(first)                      # positions where the support grows
    W = np.zeros((ks.size, n))
    for j, kk in enumerate(ks):
        total = int(first[kk - 1]) + 1          # draws until the kk-th distinct point
        counts = np.bincount(draws[:total], minlength=n)
        W[j] = n * counts / total
        trace.record(support_objective(Phi, y, W[j]))
    obj, times = trace.arrays()
    return CoresetResult(
        x=W[-1].copy(), objective=obj, n_iter=int(first[kmax - 1]) + 1, converged=True,
        message=f"drew until {kmax} distinct points", times=times,
        info={"iter_at_size": np.arange(1, ks.size + 1)}, ks=ks, path_weights=W,
    )
