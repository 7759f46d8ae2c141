"""Stochastic Chebyshev gradients for spectral sums (Han, Avron, Shin, ICML 2018).

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

# --- stochastic Chebyshev library: operators, bounds, estimators, gradients, optimisers, applications ---
from .bounds import check_bounds, lanczos_tridiagonal, ritz_values, spectral_bounds
from .completion import MatrixCompletion, rmse
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
    replicate_weights,
    replicated_estimates,
    spectral_sum,
)
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
    adjoint_factors,
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
from .lanczos import block_cg, cg_logdet_grad, slq_logdet, slq_quadratic_forms
from .operators import (
    CallableOperator,
    LowRankShiftOperator,
    MatrixOperator,
    ShiftedOperator,
    as_operator,
    check_symmetric,
    dense_of,
)
from .optim import (
    SpectralSolveResult,
    box_projection,
    constant_step,
    gd,
    inverse_time_step,
    lanczos_gd,
    make_step,
    project_box,
    sgd,
    sgd_det,
    svrg,
)

__all__ += [
    "CallableOperator",
    "ChebyshevSeries",
    "FixedDegree",
    "LowRankShiftOperator",
    "MatrixCompletion",
    "MatrixOperator",
    "RandomDegree",
    "RegularGrid",
    "SKIGaussianProcess",
    "ShiftedOperator",
    "SpectralSolveResult",
    "SpectralSumEstimate",
    "adjoint_factors",
    "as_operator",
    "block_cg",
    "box_projection",
    "cg_logdet_grad",
    "chebyshev_moments",
    "check_bounds",
    "check_symmetric",
    "constant_step",
    "dense_of",
    "derivative_moments",
    "exact_grad_lowrank",
    "exact_matrix_gradient",
    "exact_spectral_sum",
    "gd",
    "grad_lowrank",
    "lowrank_derivatives",
    "grad_recursion",
    "interpolation_matrix",
    "inverse_time_step",
    "keys_cubic",
    "lanczos_gd",
    "lanczos_tridiagonal",
    "make_degree_rule",
    "make_step",
    "matrix_gradient",
    "project_box",
    "quadratic_forms",
    "rademacher",
    "rbf_toeplitz_column",
    "replicate_weights",
    "replicated_estimates",
    "replicated_grad_estimates",
    "ritz_values",
    "rmse",
    "sgd",
    "sgd_det",
    "ski_operator",
    "slq_logdet",
    "slq_quadratic_forms",
    "spectral_bounds",
    "spectral_sum",
    "spectral_sum_grad",
    "spectral_sum_grad_lowrank",
    "svrg",
    "toeplitz_matmat",
]
