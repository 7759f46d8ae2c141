"""Hardware-neutral counts of the dominant work of each coreset method (REVIEW-RUBRIC.md, 4: a speed
claim compares algorithms on a count of their work beside the seconds).

Counted from each run's own iteration counts (:class:`~inferopt.coresets._common.CoresetResult`),
with the cost per iteration of each solver as implemented (the solvers' module docstrings), for
``Φ`` of shape ``S × n`` and a model of dimension ``D``:

* ``phi_products`` -- products of ``Φ`` or ``Φᵀ`` with a vector, in full-product equivalents
  (a product with ``m`` of the ``n`` columns counts ``m/n``):
  GIGA and FW ``t + 2`` after ``t`` iterations (``Φᵀy`` and the column norms once, one ``Φᵀ``
  product per iteration); A-IHT and batch A-IHT ``T(1 + 3k/n)`` after ``T`` iterations (``Φᵀr``
  on all columns, the line search on ``|S| <= 2k`` and ``Φx`` on ``k``; our batch variant
  forms the full gradient and keeps ``B`` of its entries); A-IHT II ``T(1 + 5k/n)`` (its de-bias
  step adds two products on ``k`` columns); SparseVI ``t`` (the objective it records after each
  selection); a ``_refit`` adds ``k'²/n`` for the NNLS normal equations on its ``k'`` points;
* ``gradient_draws`` -- SparseVI's Monte-Carlo gradients: ``t(T + 1)`` after ``t`` selections
  of ``T`` updates (one draw per update, one per selection), each ``S'`` samples of the weighted
  posterior evaluated on all ``n`` log-likelihoods;
* ``laplace_fits`` -- SparseVI's Laplace approximations of ``π_w`` (one per draw);
* ``work`` -- multiply-adds: ``phi_products·S·n + gradient_draws·S'·n·D`` (the products
  ``Zθ`` of the draws; their exponentials and logarithms and the Laplace fits come on top,
  so SparseVI's count is a lower bound);
* ``work_upper`` -- ``work`` with what it leaves out counted, an upper bound (:func:`upper_work`):
  per iteration of any solver :data:`VECTOR_OPS` operations on each of the ``n`` weights; per SparseVI
  draw, on each of its ``S'·n`` log-likelihoods, ``transcendentals`` exponentials / logarithms at
  :data:`TRANSCENDENTAL_COST` multiply-adds each and :data:`ENTRY_OPS` other operations, the ``S'·D²`` of
  the draws themselves, and its Laplace fit on the support (``<= t`` points at the ``t``-th selection) at
  :data:`LAPLACE_EVALS` evaluations of ``D² + 2D`` multiply-adds and ``3·transcendentals`` transcendentals
  per point, plus a ``D³`` factorisation each.

Uniform sampling does none of this work (zero). Vanilla IHT's count would need its power
iterations for the Lipschitz step, which it does not report: NaN.
"""

from __future__ import annotations

import numpy as np

from ..._clock import clock
from ..._validation import check_int
from .conjugate_trials import split_method

__all__ = ["TRANSCENDENTALS", "WORK_COLUMNS", "product_seconds", "upper_work", "work_counts"]

#: the columns :func:`work_counts` adds to a trial table
WORK_COLUMNS = ("phi_products", "gradient_draws", "laplace_fits", "work", "work_upper")
#: multiply-adds charged per exponential or logarithm in :func:`upper_work`: above what one costs against a
#: multiply-add of a product with ``Φ`` on this machine (numpy, one thread, 250,000 entries against a 500 x 500
#: mat-vec: ``exp`` 17, ``log1p`` 77 multiply-adds), so that the bound stays above the work done
TRANSCENDENTAL_COST = 100
#: exponentials and logarithms per log-likelihood entry of each GLM (:mod:`inferopt.models.glm`): logistic
#: ``min(m, 0) − log1p(e^{−|m|})``; Poisson ``y log λ − λ`` with ``λ = log1p(e^{−|η|}) + max(η, 0)``
TRANSCENDENTALS = {"LogisticRegression": 2, "PoissonRegression": 3}
#: other operations on each log-likelihood entry of a SparseVI draw: the elementwise steps of the log-likelihood
#: (products with ``y``, ``min``, ``abs``, signs, sums: at most 6), its centring and scaling (2) and its share of the
#: gradient ``Φ_wᵀΦ_w(1 − w)`` and the norms ``diag Φ_wᵀΦ_w`` (3 multiply-adds)
ENTRY_OPS = 11
#: evaluations of the log joint with its gradient and Hessian charged per Laplace fit of SparseVI (each warm-started
#: at the previous fit's mode, one weight update away: damped Newton ends in a few steps, with backtracking)
LAPLACE_EVALS = 50
#: operations on each of the ``n`` weights per iteration of any solver, beside its products (steps, momentum,
#: thresholding or selection, projection, norms)
VECTOR_OPS = 20
#: extra products of a few columns per iteration, in units of ``k/n``: A-IHT (and batch), A-IHT II
_PER_ITER_COLS = {"a_iht": 3, "a_iht_batch": 3, "a_iht_batch_long": 3, "a_iht_ii": 5}


def work_counts(method: str, run: dict, *, S: int, n: int, D: int, draws: int = 0, steps: int = 0,
                transcendentals: int = 2) -> dict:
    """The work of one method's run over its size grid (``run``: an entry of
    :func:`~.conjugate_trials.run_methods`, with ``ks``, ``weights`` and ``results``) on an ``S × n``
    ``Φ`` of a ``D``-dimensional model; ``draws`` / ``steps``: SparseVI's samples per gradient and
    updates per selection; ``transcendentals``: exponentials and logarithms per log-likelihood entry
    (logistic 2, Poisson 3). Returns ``{column: array over run['ks']}`` for :data:`WORK_COLUMNS`."""
    S, n, D = (check_int(name, v, low=1) for name, v in (("S", S), ("n", n), ("D", D)))
    draws, steps = check_int("draws", draws, low=0), check_int("steps", steps, low=0)
    transcendentals = check_int("transcendentals", transcendentals, low=0)
    solver, refit = split_method(method)
    ks = np.asarray(run["ks"], dtype=float)
    results = run["results"]
    zero = np.zeros(ks.size)
    phi, grads, iters = zero.copy(), zero.copy(), zero.copy()
    if solver in _PER_ITER_COLS:
        iters = np.array([r.n_iter for r in results], dtype=float)
        phi = iters * (1.0 + _PER_ITER_COLS[solver] * ks / n)
    elif solver in ("giga", "frank_wolfe", "sparsevi", "sparsevi_authors"):
        iters = np.asarray(results[0].info["iter_at_size"], dtype=float)
        if solver.startswith("sparsevi"):
            if draws < 2 or steps < 1:
                raise ValueError(f"SparseVI's work needs its draws (>= 2) and steps (>= 1); got draws={draws}, steps={steps}")
            phi, grads = iters, iters * (steps + 1)
        else:
            phi = iters + 2.0
    elif solver != "uniform":
        phi = iters = np.full(ks.size, np.nan)
    if refit:
        support = np.count_nonzero(np.asarray(run["weights"]), axis=1)
        phi = phi + support.astype(float) ** 2 / n
    work = phi * S * n + grads * draws * n * D
    upper = work + upper_work(iters, n=n, D=D, draws=draws if grads.any() else 0, steps=steps,
                              transcendentals=transcendentals)
    return {"phi_products": phi, "gradient_draws": grads, "laplace_fits": grads.copy(), "work": work, "work_upper": upper}


def upper_work(iters, *, n: int, D: int, draws: int = 0, steps: int = 0, transcendentals: int = 2) -> np.ndarray:
    """The multiply-adds (or operations, counted as one each) that ``work`` leaves out, bounded from above, after
    ``iters`` iterations (an array; SparseVI's: selections): :data:`VECTOR_OPS` per weight per iteration, and for
    SparseVI (``draws > 0``: ``S'`` samples per gradient, ``steps`` updates per selection, one draw per update and
    one per selection) per draw ``S'·n·(transcendentals·C + ENTRY_OPS) + S'·D²`` plus a Laplace fit on the
    ``<= t`` support points of the ``t``-th selection, ``LAPLACE_EVALS·(t·(D² + 2D + 3·transcendentals·C) + D³)``
    (``C`` = :data:`TRANSCENDENTAL_COST`; Campbell & Beronov 2019, Alg. 1: each update draws from the Laplace fit
    of ``π_w``, Zhang et al. 2021, App. G)."""
    iters = np.asarray(iters, dtype=float)
    per_iter = VECTOR_OPS * n * iters
    if not draws:
        return per_iter
    C = TRANSCENDENTAL_COST
    per_draw = draws * n * (transcendentals * C + ENTRY_OPS) + draws * D * D + LAPLACE_EVALS * D**3
    point_eval = LAPLACE_EVALS * (D * D + 2 * D + 3 * transcendentals * C)
    # the t-th selection's steps + 1 draws fit on <= t points: sum_{t <= T} t = T(T + 1)/2
    return per_iter + (steps + 1) * (iters * per_draw + point_eval * iters * (iters + 1) / 2)


def product_seconds(Phi: np.ndarray, repeats: int = 20) -> float:
    """CPU seconds of one product ``Φᵀr`` (the floor of an iteration of GIGA or IHT): ``repeats`` products
    timed together, divided by ``repeats``. A measurement of this machine, for the equal-care evidence only
    (seconds per product against this floor), never a verdict's input."""
    repeats = check_int("repeats", repeats, low=1)
    r = np.ones(Phi.shape[0])
    t0 = clock()
    for _ in range(repeats):
        Phi.T @ r
    return (clock() - t0) / repeats
