"""Optimal re-weighting of a fixed set of atoms: the ``-proj`` step of Bach et al. 2012 (Sec. 5.1).

``min_{alpha in simplex} ||b - sum_i alpha_i v_i||^2``, a QP in the Gram matrix, solved
exactly by Wolfe's min-norm-point algorithm restricted to the given atoms.
"""

from __future__ import annotations

from .mnp import min_norm_point
from .quadratic import QuadraticHull
from .result import FWResult


def simplex_reweight(gram, c, b_sqnorm: float, *, tol: float = 1e-14, max_iter: int = 10_000,
                     init=None) -> FWResult:
    """Best weights on the simplex for atoms with Gram matrix ``gram = V'V`` and ``c = V'b``.

    ``result.dense_weights(len(c))`` gives the weight of every atom; ``result.objective[-1]``
    is ``||b - V alpha*||^2`` (``b_sqnorm = ||b||^2`` only shifts the objective).
    ``init``: atom ids to warm-start the corral from (see :func:`min_norm_point`), e.g. the
    support of a previous solution, or ``range(len(c))`` when most atoms keep a weight (one
    Cholesky factorisation instead of one major cycle per atom); default ``argmax c``.
    """
    return min_norm_point(QuadraticHull.from_gram(gram, c, b_sqnorm), tol=tol, max_iter=max_iter, init=init)
