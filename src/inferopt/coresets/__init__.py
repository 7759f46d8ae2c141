"""Sparse Bayesian coresets as non-convex optimisation (Zhang, Khanna, Kyrillidis, Koyejo,
AISTATS 2021), with the baselines it compares against.

Problem (eq. 3): ``min_w ‖y − Φw‖²`` s.t. ``‖w‖₀ ≤ k``, ``w ≥ 0``; ``Φ`` (S × n) holds the
centred log-likelihood vectors ``ĝ_i`` and ``y = Σ_i ĝ_i``.

* :mod:`.problem`     -- ``Φ, y`` by Monte Carlo or exactly; the objective;
* :mod:`.models`      -- Gaussian mean and (radial-basis) linear regression models: weighted
  posteriors, log-likelihoods, samplers, exact tangent vectors;
* :mod:`.projection`  -- projection onto ``{k-sparse, ≥ 0}`` and the support expansion;
* :mod:`.iht`         -- IHT (Alg. 1), A-IHT (Alg. 2), A-IHT II (Alg. 3), batch A-IHT (app. G);
* :mod:`.giga`        -- GIGA (Campbell & Broderick 2018);
* :mod:`.frank_wolfe` -- Frank-Wolfe Hilbert coreset (Campbell & Broderick 2019) on :mod:`inferopt.fw`;
* :mod:`.sparsevi`    -- SparseVI (Campbell & Beronov 2019);
* :mod:`.uniform`     -- uniform random coreset;
* :mod:`.refit`       -- NNLS re-fit of the weights on a support;
* :mod:`.evaluation`  -- KL divergences (forward, reverse, symmetrised), MAP distance;
* :mod:`.path`        -- every method over a grid of sizes;
* :mod:`.glm`         -- logistic / Poisson regression: Laplace-approximated ``π̂`` → ``Φ``,
  evaluation of coreset posteriors by Laplace (KL, MAP distance), SparseVI's Monte Carlo;
* :mod:`.glm_trials`  -- the trials of Sec. 5.3 / App. G over methods, sizes and datasets;
* :mod:`.trials`      -- trials of the conjugate-model experiments (Sec. 5.1–5.2): methods,
  NNLS re-fits, exact KLs.

Every solver is ``method(Phi, y, k, **options) -> CoresetResult`` (a
:class:`~inferopt._result.SolveResult`): weights ``x``, objective and time per iteration,
stopping information; greedy methods accept a grid ``k`` and record all sizes in one pass.
"""

from ._common import DEFAULT_MAX_ITER, DEFAULT_TOL, CoresetResult, objective
from .evaluation import coreset_kl, coreset_kls, gaussian_kl, map_distance
from .giga import giga
from .glm import GLMCoresetProblem
from .glm_trials import METHODS as GLM_METHODS
from .glm_trials import (
    best_method,
    medians,
    run_glm_trial,
    run_glm_trials,
    time_ratio,
    trial_matrix,
    trial_seeds,
    win_fraction,
)
from .iht import a_iht, a_iht_batch, a_iht_ii, exact_momentum, exact_step, iht
from .models import (
    GaussianMeanModel,
    LinearRegressionModel,
    make_gaussian_mean,
    make_rbf_regression,
    rbf_features,
)
from .path import available_methods, coreset_path
from .problem import (
    exact_problem,
    monte_carlo_tangent,
    problem_from_tangent,
    relative_error,
    tangent_from_loglik,
    weighted_mc_tangent,
)
from .projection import project_sparse_nonneg, support_expansion
from .refit import nnls_on_support, refit, refit_result
from .sparsevi import sparsevi
from .trials import conjugate_trial, run_methods, split_method
from .uniform import uniform

try:  # the FW Hilbert coreset needs the shared conditional-gradient core
    from .frank_wolfe import frank_wolfe
except ImportError:  # pragma: no cover
    frank_wolfe = None

__all__ = [
    "DEFAULT_MAX_ITER",
    "DEFAULT_TOL",
    "CoresetResult",
    "GLMCoresetProblem",
    "GLM_METHODS",
    "GaussianMeanModel",
    "LinearRegressionModel",
    "a_iht",
    "a_iht_batch",
    "a_iht_ii",
    "available_methods",
    "best_method",
    "coreset_kl",
    "coreset_kls",
    "conjugate_trial",
    "coreset_path",
    "exact_momentum",
    "exact_problem",
    "exact_step",
    "frank_wolfe",
    "gaussian_kl",
    "giga",
    "iht",
    "make_gaussian_mean",
    "make_rbf_regression",
    "map_distance",
    "medians",
    "monte_carlo_tangent",
    "nnls_on_support",
    "objective",
    "problem_from_tangent",
    "project_sparse_nonneg",
    "rbf_features",
    "run_methods",
    "run_glm_trial",
    "run_glm_trials",
    "refit",
    "refit_result",
    "relative_error",
    "sparsevi",
    "split_method",
    "support_expansion",
    "time_ratio",
    "tangent_from_loglik",
    "trial_matrix",
    "trial_seeds",
    "uniform",
    "weighted_mc_tangent",
    "win_fraction",
]
