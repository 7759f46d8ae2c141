"""Boosting variational inference with locally adaptive step sizes.

Dresdner, Shekhar, Pedregosa, Locatello, Rätsch (IJCAI 2021), *Boosting Variational
Inference With Locally Adaptive Step-Sizes*. The Frank-Wolfe loop, the active set, the
away/pairwise directions and the step rules (predefined ``2/(t+2)``, stochastic line search,
backtracking with the Monte-Carlo slack of Alg. 2) are those of the shared core
:mod:`inferopt.fw`; this package supplies the problem (:class:`BoostingProblem`).

* :mod:`.families`  -- :class:`Gaussian`, :class:`Laplace` (diagonal scale, reparameterised), :class:`Component`;
* :mod:`.mixture`   -- :class:`Mixture` (simplex weights, sampling, log-sum-exp density, add/move/remove);
* :mod:`.targets`   -- :class:`LogisticTarget` (via :mod:`inferopt.models`), :class:`GaussianMixtureTarget`;
* :mod:`.adam`      -- :class:`Adam`, :func:`adam_minimize`;
* :mod:`.relbo`     -- :func:`greedy_step` (the LMO: RELBO by Adam, Eq. (4)), :func:`relbo_and_grad`,
  :func:`relbo_common` (candidates' RELBO on common draws), :data:`GREEDY_AUTHORS` (the authors' settings);
* :mod:`.distance`  -- :func:`l2_distance` (``∫(s − q)²``, closed form), :func:`l2_distance_authors` (their float32 estimate);
* :mod:`.estimates` -- Monte-Carlo :func:`kl`, :func:`elbo`, :func:`grad_inner`, :func:`directional_derivative`;
* :mod:`.metrics`   -- :func:`auroc`, :func:`train_log_likelihood`, :func:`test_auroc`;
* :mod:`.problem`   -- :class:`BoostingProblem`, boosting VI as an :class:`inferopt.fw.FWProblem` (Monte-Carlo estimates);
* :mod:`.boost`     -- :func:`boost` (one run with a step rule of ``STEPS``, per-iteration record), :func:`make_step`.

The comparisons of Fig. 1 (left) and Tables 2-3 are in :mod:`inferopt.experiment.boosting`;
the data sets in :mod:`inferopt.datasets.classification`.

Whole runs::

    res = boost(target, "adaafw", rng=rng, max_iter=50)   # 'predefined', 'line_search', 'adafw', 'adaafw', 'adapfw'
    res.record[["iteration", "elbo", "gap", "gamma", "C", "step_type", "n_components", "time_greedy", "time_step"]]
    res.mixture                                          # the final Mixture

Example (first component = plain VI, then one RELBO step and the predefined step 2/(t+2))::

    rng = np.random.default_rng(0)
    target = GaussianMixtureTarget([[0, 0], [3, 3]], [[1, 1], [0.5, 0.5]])
    s0 = greedy_step(target, "gaussian", rng=rng).component
    q = Mixture.from_component(s0)
    s1 = greedy_step(target, "gaussian", q, rng=rng).component
    q = q.add(s1, 2 / (1 + 2))
    kl(target, q, rng=rng)
"""

from .adam import Adam, adam_minimize
from .boost import AUTHORS_LINE_SEARCH, AUTHORS_RULES, STEPS, BoostingResult, MonteCarloSlack, boost, make_step, register_step
from .distance import l2_distance, l2_distance_authors, log_l2_distance
from .estimates import directional_derivative, elbo, elbo_gain, grad_inner, grad_inner_components, kl, kl_segment
from .families import FAMILIES, Component, Family, Gaussian, Laplace, get_family
from .metrics import auroc, posterior_mean_logits, test_auroc, train_log_likelihood
from .mixture import Mixture, check_simplex
from .problem import BoostingProblem
from .relbo import GREEDY_AUTHORS, GreedyResult, converged_vi, greedy_step, relbo, relbo_and_grad, relbo_common, relbo_lambda
from .targets import GaussianMixtureTarget, LogisticTarget

__all__ = [
    # solvers and their results
    "AUTHORS_LINE_SEARCH", "AUTHORS_RULES", "STEPS", "BoostingResult", "GreedyResult", "MonteCarloSlack", "adam_minimize", "boost", "converged_vi", "greedy_step",
    "make_step", "register_step", "Adam",
    # the problem, models and targets
    "BoostingProblem", "FAMILIES", "Component", "Family", "Gaussian", "GaussianMixtureTarget", "Laplace",
    "LogisticTarget", "Mixture", "check_simplex", "get_family",
    # estimates and metrics
    "auroc", "directional_derivative", "elbo", "elbo_gain", "l2_distance", "l2_distance_authors", "log_l2_distance", "grad_inner", "grad_inner_components", "kl", "kl_segment",
    "posterior_mean_logits", "relbo", "relbo_and_grad", "relbo_common", "relbo_lambda", "GREEDY_AUTHORS", "test_auroc", "train_log_likelihood",
]
