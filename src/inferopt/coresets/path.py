"""One entry point over a grid of coreset sizes.

Greedy solvers (Uniform, GIGA, FW, SparseVI) record their weights at every requested
size in one pass; the hard-thresholding solvers (IHT, A-IHT, A-IHT II, batch A-IHT) are
run once per size. Every solver is called as ``solver(Phi, y, k, **options)``.
"""

from __future__ import annotations


import numpy as np

from .._clock import clock
from .._progress import Progress
from .._validation import check_choice, check_flag
from ._common import CoresetResult, check_k_grid, check_problem
from .giga import giga
from .hilbert_fw import hilbert_frank_wolfe
from .iht import a_iht, a_iht_batch, a_iht_ii, iht
from .refit import refit
from .sparsevi import sparsevi
from .uniform import uniform

GREEDY = {"uniform": uniform, "giga": giga, "frank_wolfe": hilbert_frank_wolfe, "sparsevi": sparsevi}
PER_K = {"iht": iht, "a_iht": a_iht, "a_iht_ii": a_iht_ii, "a_iht_batch": a_iht_batch}


SOLVERS = GREEDY | PER_K


def available_solvers() -> list[str]:
    """Names accepted by :func:`coreset_path`."""
    return list(SOLVERS)


def coreset_path(solver: str, Phi, y, ks, *, refit_weights=False, progress=False, **options):
    """Weights of ``solver`` (a name of :data:`SOLVERS`) at every size in ``ks``.

    Returns ``(ks, W, seconds, results)``: sorted unique sizes, weights ``(len(ks), n)``,
    the CPU time (:mod:`inferopt._clock`) to reach each size (cumulative for greedy solvers, per run for
    per-``k`` solvers) and the list of :class:`CoresetResult` (one for greedy solvers).
    ``refit_weights=True`` re-fits every row by NNLS on its support (:mod:`.refit`).
    """
    check_choice("solver", solver, set(SOLVERS))
    Phi, y = check_problem(Phi, y)
    ks = check_k_grid(ks, Phi.shape[1], "ks")
    refit_weights = check_flag("refit_weights", refit_weights)
    check_flag("progress", progress)
    fn = SOLVERS[solver]
    if solver in PER_K:
        W = np.zeros((ks.size, Phi.shape[1]))
        secs = np.zeros(ks.size)
        results = []
        bar = Progress(f"coreset_path({solver!r})", ks.size, progress, unit="size")
        for j, k in enumerate(ks):
            t0 = clock()
            res: CoresetResult = fn(Phi, y, int(k), **options)
            secs[j] = clock() - t0
            W[j] = res.x
            results.append(res)
            bar.update()
        bar.close()
    else:
        res = fn(Phi, y, ks, **options)
        W = res.path_weights
        secs = _time_at_sizes(res)
        results = [res]
    if refit_weights:
        W = refit(Phi, y, W)
    return ks, W, secs, results


def _time_at_sizes(res: CoresetResult) -> np.ndarray:
    """Cumulative time at the iteration that produced each recorded weight vector."""
    n_rec = len(res.times) - 1
    if n_rec <= 0:
        return np.zeros(res.ks.size)
    idx = np.clip(res.info["iter_at_size"], 0, n_rec)
    return res.times[np.asarray(idx, dtype=int)]
