"""Bayesian generalised linear models shared by the coreset (Zhang et al. 2021, Sec. 5.3)
and boosting-VI (Dresdner et al. 2021, Sec. 6) papers, and their Laplace approximation.

* :class:`LogisticRegression` -- labels ±1, prior ``N(0, σ²I)``;
* :class:`PoissonRegression` -- counts, softplus rate ``log(1 + e^{zᵀθ})``;
* :func:`laplace_approximation` -> :class:`LaplaceApprox` (MAP, precision Cholesky, sampler).

The caller appends the intercept column: ``Z = np.column_stack([X, np.ones(n)])``.
"""

from .glm import CHUNK_ELEMENTS, LogisticRegression, PoissonRegression
from .laplace import LaplaceApprox, laplace_approximation

__all__ = ["CHUNK_ELEMENTS", "LaplaceApprox", "LogisticRegression", "PoissonRegression", "laplace_approximation"]
