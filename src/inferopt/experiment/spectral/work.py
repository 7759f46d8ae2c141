"""Hardware-neutral work of a matrix-completion run (D3): exact gradients and Chebyshev matrix-vector products,
counted from what the run drew, beside its CPU seconds.

One exact gradient is an eigen-decomposition of the smaller Gram matrix (GD's step, SVRG's snapshot). One stochastic
gradient with ``M`` probes and degree ``n`` takes ``M n`` products with ``A = θθᵀ + εI`` (the three-term recurrence,
Eq. 12); SVRG's control variate takes as many again at the snapshot (``2 M n``). SGD and SGD-DET record their degrees
(``info["degrees"]``), SVRG its degrees, ``n_inner`` and ``n_full_gradients``; a run with no degrees is GD.
"""

from __future__ import annotations

import numpy as np

from ..._validation import check_int, check_protocol


def cumulative_work(result, M: int) -> tuple[np.ndarray, np.ndarray]:
    """``(exact gradients, mat-vecs)`` done by ``result`` (a :class:`~inferopt.spectral.SpectralSolveResult`) up to
    each of its steps ``0..n_iter`` (index ``t``: after ``t`` steps), with ``M`` probes per stochastic gradient.
    SVRG's snapshot gradient of an epoch is counted at its first step."""
    check_protocol("result", result, "info", "n_iter", what="a SpectralSolveResult")
    M = check_int("M", M, low=1)
    n = check_int("result.n_iter", result.n_iter, low=0)
    info = result.info or {}
    steps = np.arange(n + 1)
    if "degrees" not in info:                                  # GD: one exact gradient per step
        return steps.astype(float), np.zeros(n + 1)
    degrees = np.asarray(info["degrees"], dtype=float)
    if degrees.size != n:
        raise ValueError(f"result.info['degrees'] must hold one degree per step ({n}); got {degrees.size}")
    if "n_inner" in info:                                      # SVRG: ψ(θ) and ψ(θ̃), a snapshot per epoch
        n_inner = check_int("result.info['n_inner']", info["n_inner"], low=1)
        exact = -(-steps // n_inner)
        per_step = 2 * M * degrees
    else:                                                      # SGD, SGD-DET
        exact = np.zeros(n + 1)
        per_step = M * degrees
    return exact.astype(float), np.concatenate([[0.0], np.cumsum(per_step)])


def work_at(result, M: int, iteration: int) -> tuple[float, float]:
    """``(exact gradients, mat-vecs)`` of ``result`` after ``iteration`` steps; ``(inf, inf)`` for ``iteration``
    ``None`` (a target not reached)."""
    if iteration is None:
        return float("inf"), float("inf")
    exact, matvecs = cumulative_work(result, M)
    iteration = check_int("iteration", iteration, low=0, high=exact.size - 1)
    return float(exact[iteration]), float(matvecs[iteration])


def zero_degree_draws(result) -> float:
    """The share of ``result``'s drawn degrees equal to 0 (a zero stochastic gradient); NaN without draws (GD)."""
    from .conditioning import drawn_zero_share

    check_protocol("result", result, "info", what="a SpectralSolveResult")
    degrees = (result.info or {}).get("degrees")
    return float("nan") if degrees is None else drawn_zero_share(np.asarray(degrees, dtype=int))


def stochastic_gradient_flops(d: int, r: int, M: int, n: int) -> float:
    """Multiply-adds of one stochastic gradient of the matrix completion (:func:`~inferopt.spectral.gradients.grad_lowrank`,
    ``θ`` of ``d x r``, ``M`` probes, degree ``n``), counted from the shapes of the products it performs: ``n - 1``
    steps of the recurrence, each ``θᵀw`` and ``θ(θᵀw)`` on ``M`` columns (``2dMr``) and the three-term update
    (``6dM``), one last ``θᵀw`` (``dMr``), the coefficient product ``K P`` (``n x n`` by ``n x Mr``: ``n²Mr``) and
    ``Y Z`` (``d x nM`` by ``nM x r``: ``dnMr``). Degree 0 does nothing. The paper's count is ``O(dM(N² + Nr))``
    (its adjoint sweep); this amortised form's is ``O(M(dnr + n²r))``."""
    d, r, M = (check_int(k, v, low=1) for k, v in (("d", d), ("r", r), ("M", M)))
    n = check_int("n", n, low=0)
    if n == 0:
        return 0.0
    return float((n - 1) * (2 * d * M * r + 6 * d * M) + d * M * r + n * n * M * r + d * n * M * r)
