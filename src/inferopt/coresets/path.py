"""One entry point over a grid of coreset sizes.

Greedy solvers (Uniform, GIGA, FW, SparseVI) record their weights at every requested
size in one pass; the hard-thresholding solvers (IHT, A-IHT, A-IHT II, batch A-IHT) are
run once per size. Every solver is called as ``solver(Phi, y, k, **options)``; a per-size
solver given ``rng`` draws at each size from that size's own stream
(:func:`~inferopt._random.named_stream`), so that its draws at one size do not depend on how
many the run at another size consumed (an iteration count, which can move with round-off).

:func:`register_solver` adds a solver of one's own to :data:`SOLVERS` (the experiment layer's
:func:`inferopt.experiment.register_method` calls it; this package does not know that layer).
"""

from __future__ import annotations


import numpy as np

from .._clock import clock
from .._progress import Progress
from .._random import as_generator, named_stream
from .._validation import check_choice, check_flag
from ._common import CoresetResult, check_k_grid, check_problem
from .giga import giga
from .hilbert_fw import hilbert_frank_wolfe
from .iht import a_iht, a_iht_batch, a_iht_ii, iht
from .refit import refit
from .sparsevi import sparsevi
from .uniform import uniform

#: ``sparsevi_authors`` and ``a_iht_batch_long`` are SparseVI and batch A-IHT under a second name, so that one
#: run can hold the method twice with different options (the authors' SparseVI settings; batch A-IHT with a
#: longer iteration budget, App. G): the caller gives each name its options
GREEDY = {"uniform": uniform, "giga": giga, "frank_wolfe": hilbert_frank_wolfe, "sparsevi": sparsevi,
          "sparsevi_authors": sparsevi}
PER_K = {"iht": iht, "a_iht": a_iht, "a_iht_ii": a_iht_ii, "a_iht_batch": a_iht_batch, "a_iht_batch_long": a_iht_batch}


SOLVERS = GREEDY | PER_K
#: the solvers this package ships (the papers' methods); :func:`register_solver` adds others
BUILTIN = tuple(SOLVERS)


def available_solvers() -> list[str]:
    """Names accepted by :func:`coreset_path`."""
    return list(SOLVERS)


def registered_solvers() -> list[str]:
    """The names added by :func:`register_solver`, in order."""
    return [name for name in SOLVERS if name not in BUILTIN]


def register_solver(name: str, solver, *, per_k: bool = True) -> None:
    """Make ``solver`` available to :func:`coreset_path` as ``name``.

    ``per_k=True``: ``solver(Phi, y, k, **options)`` returns an object with the weights ``.x``
    (length ``n``) and is run once per size, like the IHT family; ``per_k=False``: a path solver
    ``solver(Phi, y, ks, **options)`` returning a :class:`CoresetResult` with ``path_weights``,
    ``times`` and ``info["iter_at_size"]``, like the greedy solvers. Registering the same solver
    under its name again does nothing; a built-in name or another solver under a taken name is a
    ``ValueError``.
    """
    per_k = check_solver(name, solver, per_k=per_k)
    (PER_K if per_k else GREEDY)[name] = solver
    SOLVERS[name] = solver


def check_solver(name: str, solver, *, per_k: bool = True) -> bool:
    """What :func:`register_solver` requires, without registering (returns ``per_k``)."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty string; got {name!r}")
    if not callable(solver):
        raise TypeError(f"solver must be callable; got {type(solver).__name__}")
    per_k = check_flag("per_k", per_k)
    if name in BUILTIN or (name in SOLVERS and SOLVERS[name] is not solver):
        raise ValueError(f"a coreset solver named {name!r} exists already; choose another name")
    return per_k


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
        rng = as_generator(options["rng"]) if "rng" in options else None
        for j, k in enumerate(ks):
            if rng is not None:
                options["rng"] = named_stream(rng, f"size {k}")
            t0 = clock()
            res: CoresetResult = fn(Phi, y, int(k), **options)
            secs[j] = clock() - t0
            W[j] = _weights(solver, res, Phi.shape[1])
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


def _weights(solver: str, res, n: int) -> np.ndarray:
    """The weights ``res.x`` of a per-size run: ``n`` finite non-negative numbers."""
    w = np.asarray(getattr(res, "x", None), dtype=float)
    if w.shape != (n,) or not np.isfinite(w).all() or (w < 0).any():
        raise ValueError(f"solver {solver!r} must return a result whose .x holds {n} finite non-negative weights; "
                         f"got {getattr(res, 'x', None)!r}")
    return w


def _time_at_sizes(res: CoresetResult) -> np.ndarray:
    """Cumulative time at the iteration that produced each recorded weight vector."""
    n_rec = len(res.times) - 1
    if n_rec <= 0:
        return np.zeros(res.ks.size)
    idx = np.clip(res.info["iter_at_size"], 0, n_rec)
    return res.times[np.asarray(idx, dtype=int)]
