"""Sparse Bayesian coresets as non-convex optimisation (Zhang, Khanna, Kyrillidis, Koyejo,
AISTATS 2021), with the baselines it compares against.

Problem (eq. 3): ``min_w ‖y − Φw‖²`` s.t. ``‖w‖₀ ≤ k``, ``w ≥ 0``; ``Φ`` (S × n) holds the
centred log-likelihood vectors ``ĝ_i`` and ``y = Σ_i ĝ_i``.

* :mod:`.tangent`     -- the arrays ``Φ, y`` (tangent vectors) by Monte Carlo or exactly; the objective;
* :mod:`.conjugate`   -- conjugate models (Gaussian mean, radial-basis linear regression): weighted
  posteriors, log-likelihoods, samplers, exact tangent vectors;
* :mod:`.glm_problem` -- :class:`GLMCoresetProblem`: logistic / Poisson regression, Laplace-approximated
  ``π̂`` → ``Φ``, coreset posteriors by Laplace (KL, MAP distance), SparseVI's Monte Carlo;
* :mod:`.projection`  -- projection onto ``{k-sparse, ≥ 0}`` and the support expansion;
* :mod:`.iht`         -- IHT (Alg. 1), A-IHT (Alg. 2), A-IHT II (Alg. 3), batch A-IHT (app. G);
* :mod:`.giga`        -- GIGA (Campbell & Broderick 2018);
* :mod:`.hilbert_fw`  -- Frank-Wolfe Hilbert coreset (Campbell & Broderick 2019) on :mod:`inferopt.fw`;
* :mod:`.sparsevi`    -- SparseVI (Campbell & Beronov 2019);
* :mod:`.uniform`     -- uniform random coreset;
* :mod:`.refit`       -- NNLS re-fit of the weights on a support;
* :mod:`.evaluation`  -- KL divergences (forward, reverse, symmetrised), MAP distance;
* :mod:`.path`        -- every solver over a grid of sizes.

The trials, tables and figures of the experiments are in :mod:`inferopt.experiment.coresets`.

Every solver is ``solver(Phi, y, k, **options) -> CoresetResult`` (a
:class:`~inferopt._result.SolveResult`): weights ``x``, objective and time per iteration,
stopping information; greedy solvers accept a grid ``k`` and record all sizes in one pass.
"""

from ._common import DEFAULT_MAX_ITER, DEFAULT_TOL, CoresetResult, objective
from .conjugate import GaussianMeanModel, LinearRegressionModel, make_gaussian_mean, make_rbf_regression, rbf_features
from .evaluation import coreset_kl, coreset_kls, gaussian_kl, map_distance
from .giga import giga
from .glm_problem import GLMCoresetProblem
from .hilbert_fw import hilbert_frank_wolfe
from .iht import a_iht, a_iht_batch, a_iht_ii, iht
from .path import available_solvers, coreset_path, register_solver
from .refit import refit, refit_result
from .sparsevi import sparsevi
from .tangent import exact_problem, monte_carlo_tangent, problem_from_tangent, tangent_from_loglik, weighted_mc_tangent
from .uniform import uniform

__all__ = [
    # solvers and their result
    "CoresetResult",
    "a_iht",
    "a_iht_batch",
    "a_iht_ii",
    "available_solvers",
    "coreset_path",
    "register_solver",
    "giga",
    "hilbert_frank_wolfe",
    "iht",
    "refit",
    "refit_result",
    "sparsevi",
    "uniform",
    "DEFAULT_MAX_ITER",
    "DEFAULT_TOL",
    # models and the problem arrays
    "GLMCoresetProblem",
    "GaussianMeanModel",
    "LinearRegressionModel",
    "exact_problem",
    "make_gaussian_mean",
    "make_rbf_regression",
    "monte_carlo_tangent",
    "objective",
    "problem_from_tangent",
    "rbf_features",
    "tangent_from_loglik",
    "weighted_mc_tangent",
    # posterior comparisons
    "coreset_kl",
    "coreset_kls",
    "gaussian_kl",
    "map_distance",
]
