"""Stochastic Chebyshev gradients for spectral sums (Han, Avron, Shin, ICML 2018).

* :mod:`.chebyshev` -- Chebyshev coefficients of ``f`` on ``[a, b]``, Bernstein ``rho``, decay fits;
* :mod:`.degrees`   -- degree distributions of the randomized estimator: optimal (Thm 3), Poisson, negative binomial;
* :mod:`.variance`  -- the Chebyshev-weighted variance of Lemma 2;
* :mod:`.functions` -- the named analytic functions of the experiments (log, sqrt, exp).
"""

from .chebyshev import bernstein_rho, chebyshev_coefficients, chebyshev_eval, fit_decay
from .degrees import (
    DegreeDistribution,
    NegativeBinomialDegrees,
    OptimalDegrees,
    PoissonDegrees,
    make_degree_distribution,
)
from .functions import FUNCTIONS, get_function
from .variance import chebyshev_weighted_variance

__all__ = [
    "FUNCTIONS",
    "DegreeDistribution",
    "NegativeBinomialDegrees",
    "OptimalDegrees",
    "PoissonDegrees",
    "bernstein_rho",
    "chebyshev_coefficients",
    "chebyshev_eval",
    "chebyshev_weighted_variance",
    "fit_decay",
    "get_function",
    "make_degree_distribution",
]

