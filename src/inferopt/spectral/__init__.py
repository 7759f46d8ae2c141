"""Stochastic Chebyshev gradients for spectral sums (Han, Avron, Shin, NeurIPS 2018).

* :mod:`.chebyshev` -- Chebyshev coefficients of ``f`` on ``[a, b]``, Bernstein ``rho``, decay fits;
* :mod:`.degrees`   -- degree distributions of the randomized estimator: optimal (Thm 3), Poisson, negative binomial;
* :mod:`.variance`  -- the Chebyshev-weighted variance of Lemma 2;
* :mod:`.functions` -- the named analytic functions of the experiments (log, sqrt, exp);
* :mod:`.operators` -- symmetric operators given as matrices or block products (``matmat``);
* :mod:`.bounds`    -- eigenvalue bounds by Lanczos with a safety margin, and their check;
* :mod:`.estimators` -- Hutchinson-Chebyshev estimators of ``tr f(A)``: truncated (Eq. 3) and randomised (Eq. 7);
* :mod:`.gradients` -- their gradients: recursion (6) and the amortised form for ``θθᵀ + εI``;
* :mod:`.optim`     -- projected SGD (Alg. 1), SVRG (Alg. 2), GD, SGD-DET, Lanczos-GD;
* :mod:`.lanczos`   -- stochastic Lanczos quadrature and CG log-det gradients (the LANCZOS baseline);
* :mod:`.completion`, :mod:`.gp` -- the applications: matrix completion, GP hyperparameters with SKI.
"""

from .bounds import check_bounds, lanczos_tridiagonal, ritz_values, spectral_bounds
from .chebyshev import bernstein_rho, chebyshev_coefficients, chebyshev_eval, fit_decay
from .completion import MatrixCompletion, rmse
from .degrees import (
    DegreeDistribution,
    NegativeBinomialDegrees,
    OptimalDegrees,
    PoissonDegrees,
    make_degree_distribution,
)
from .estimators import (
    ChebyshevSeries,
    FixedDegree,
    RandomDegree,
    SpectralSumEstimate,
    chebyshev_moments,
    exact_spectral_sum,
    make_degree_rule,
    quadratic_forms,
    rademacher,
    replicated_estimates,
    spectral_sum,
)
from .functions import get_function
from .gp import (
    RegularGrid,
    SKIGaussianProcess,
    interpolation_matrix,
    keys_cubic,
    rbf_toeplitz_column,
    ski_operator,
    toeplitz_matmat,
)
from .gradients import (
    derivative_moments,
    exact_grad_lowrank,
    exact_matrix_gradient,
    grad_lowrank,
    grad_recursion,
    lowrank_derivatives,
    matrix_gradient,
    replicated_grad_estimates,
    spectral_sum_grad,
    spectral_sum_grad_lowrank,
)
from .lanczos import block_cg, cg_logdet_grad, lanczos_logdet_solve, slq_logdet, slq_quadratic_forms
from .operators import CallableOperator, LowRankShiftOperator, ShiftedOperator, check_symmetric
from .optim import (
    SpectralSolveResult,
    box_projection,
    constant_step,
    gd,
    inverse_time_step,
    lanczos_gd,
    lanczos_lbfgs,
    minimize_cg,
    project_box,
    sgd,
    sgd_det,
    svrg,
)
from .variance import chebyshev_weighted_variance

__all__ = [
    # solvers, their result and step sizes
    "SpectralSolveResult",
    "box_projection",
    "constant_step",
    "gd",
    "inverse_time_step",
    "lanczos_gd",
    "lanczos_lbfgs",
    "minimize_cg",
    "project_box",
    "sgd",
    "sgd_det",
    "svrg",
    # the problems (models): matrix completion, GP hyperparameters with SKI
    "MatrixCompletion",
    "RegularGrid",
    "SKIGaussianProcess",
    "interpolation_matrix",
    "keys_cubic",
    "rbf_toeplitz_column",
    "rmse",
    "ski_operator",
    "toeplitz_matmat",
    # operators
    "CallableOperator",
    "LowRankShiftOperator",
    "ShiftedOperator",
    "check_symmetric",
    # estimators of spectral sums and their gradients
    "ChebyshevSeries",
    "FixedDegree",
    "RandomDegree",
    "SpectralSumEstimate",
    "chebyshev_moments",
    "derivative_moments",
    "exact_grad_lowrank",
    "exact_matrix_gradient",
    "exact_spectral_sum",
    "grad_lowrank",
    "grad_recursion",
    "lowrank_derivatives",
    "make_degree_rule",
    "matrix_gradient",
    "quadratic_forms",
    "rademacher",
    "replicated_estimates",
    "replicated_grad_estimates",
    "spectral_sum",
    "spectral_sum_grad",
    "spectral_sum_grad_lowrank",
    # Lanczos and CG (the LANCZOS baseline), eigenvalue bounds
    "block_cg",
    "cg_logdet_grad",
    "lanczos_logdet_solve",
    "check_bounds",
    "lanczos_tridiagonal",
    "ritz_values",
    "slq_logdet",
    "slq_quadratic_forms",
    "spectral_bounds",
    # Chebyshev series, degree distributions (Thm 3) and the variance of Lemma 2
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
