"""How well the stochastic Chebyshev gradient can work at a point of the matrix completion (D3, D4): the ratio
``b/a`` of the spectral interval of ``A(θ) = θθᵀ + εI`` and the share of zero-degree draws of the optimal degree
distribution it implies.

For ``f = √·`` (singularity at 0) on ``[a, b]`` the Bernstein parameter is ``ρ = t + √(t² − 1)``,
``t = (b + a)/(b − a)`` (Eq. 2 of Han et al.); as ``b/a`` grows ``ρ → 1`` and the optimal distribution (Theorem 3,
Eq. 11) with mean ``N`` puts ``q_0 = 1 − N(ρ − 1)/ρ`` on degree 0 (when ``K = 0``): a zero gradient draw. At
``b/a ≈ 1e6`` and ``N = 15``, ``q_0 ≈ 0.97``: 49 of 50 of SGD's steps move only by the regulariser.
"""

from __future__ import annotations

import numpy as np

from ..._validation import check_int, check_protocol, check_real


def spectrum_ratio(problem, theta) -> float:
    """``b/a`` of the interval ``problem.interval(theta)`` (the bounds the optimisers use at ``theta``)."""
    check_protocol("problem", problem, "interval", what="a spectral problem with interval(theta)")
    a, b = problem.interval(theta)
    return float(check_real("b", b, low=0.0, low_open=True) / check_real("a", a, low=0.0, low_open=True))


#: the largest mean degree zero_degree_share takes (Chebyshev degrees beyond it are far past any run's)
MAX_MEAN_DEGREE = 10**6


def zero_degree_share(ratio: float, N: int) -> float:
    """``q_0`` of the optimal degree distribution with mean ``N`` for ``√·`` on an interval of ``b/a = ratio``
    (:class:`~inferopt.spectral.degrees.OptimalDegrees` with ``ρ`` of :func:`~inferopt.spectral.chebyshev.bernstein_rho`)."""
    from ...spectral.chebyshev import bernstein_rho
    from ...spectral.degrees import OptimalDegrees

    ratio = check_real("ratio", ratio, low=1.0, low_open=True)
    N = check_int("N", N, low=0, high=MAX_MEAN_DEGREE)
    return float(OptimalDegrees(N, bernstein_rho(1.0, ratio, 0.0)).pmf(0))


def drawn_zero_share(degrees) -> float:
    """The share of ``degrees`` (a run's drawn Chebyshev degrees) equal to 0; NaN for a run that drew none (GD)."""
    degrees = np.asarray(degrees)
    if degrees.ndim != 1 or (degrees.size and degrees.dtype.kind not in "iu"):
        raise ValueError(f"degrees must be a 1-d array of integer degrees; got shape {degrees.shape}, dtype {degrees.dtype}")
    if degrees.size and degrees.min() < 0:
        raise ValueError("degrees must be non-negative Chebyshev degrees")
    return float(np.mean(degrees == 0)) if degrees.size else float("nan")
