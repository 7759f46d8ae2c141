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
* :mod:`.relbo`     -- :func:`greedy_step` (the LMO: RELBO by Adam, Eq. (4)), :func:`relbo_and_grad`;
* :mod:`.estimates` -- Monte-Carlo :func:`kl`, :func:`elbo`, :func:`grad_inner`, :func:`directional_derivative`;
* :mod:`.metrics`   -- :func:`auroc`, :func:`train_log_likelihood`, :func:`test_auroc`;
* :mod:`.problem`   -- :class:`BoostingProblem`, boosting VI as an :class:`inferopt.fw.FWProblem` (Monte-Carlo estimates);
* :mod:`.boost`     -- :func:`boost` (one run of a method in ``METHODS``, per-iteration record), :func:`make_method`;
* :mod:`.compare`   -- :func:`random_lmo_step` (Fig. 1 left), :func:`compare_methods`, :func:`summary_table` (Tables 2-3);
* :mod:`.data`      -- :func:`logistic_data`: CHEMREACT (ds1.100, available split) and the phishing stand-in.

Whole runs::

    res = boost(target, "adaafw", rng=rng, n_iter=50)   # 'predefined', 'line_search', 'adafw', 'adaafw', 'adapfw'
    res.record[["iteration", "elbo", "gap", "gamma", "C", "step_type", "n_components", "time_greedy", "time_step"]]
    res.mixture                                          # the final Mixture

Example (first component = plain VI, then one RELBO step and the predefined step 2/(t+2))::

    rng = np.random.default_rng(0)
    target = GaussianMixtureTarget([[0, 0], [3, 3]], [[1, 1], [0.5, 0.5]])
    s0, _ = greedy_step(target, "gaussian", rng=rng)
    q = Mixture.from_component(s0)
    s1, _ = greedy_step(target, "gaussian", q, rng=rng)
    q = q.add(s1, 2 / (1 + 2))
    kl(target, q, rng=rng)
"""

from .adam import Adam, adam_minimize
from .boost import LABELS, METHODS, BoostingResult, MonteCarloSlack, boost, make_method
from .compare import (best_median_iterate, compare_methods, format_table, plot_per_iteration, random_lmo_step,
                      summary_table)
from .data import logistic_data, phishing_onehot
from .estimates import directional_derivative, elbo, grad_inner, grad_inner_components, kl
from .families import FAMILIES, Component, Family, Gaussian, Laplace, get_family
from .metrics import auroc, posterior_mean_logits, test_auroc, train_log_likelihood
from .mixture import Mixture, check_simplex
from .problem import BoostingProblem
from .relbo import greedy_step, relbo, relbo_and_grad, relbo_lambda
from .targets import GaussianMixtureTarget, LogisticTarget

__all__ = [
    "LABELS", "METHODS", "BoostingProblem", "BoostingResult", "MonteCarloSlack", "best_median_iterate", "boost",
    "compare_methods", "format_table", "logistic_data", "plot_per_iteration", "make_method", "phishing_onehot", "random_lmo_step", "summary_table",
    "FAMILIES", "Adam", "Component", "Family", "Gaussian", "GaussianMixtureTarget", "Laplace",
    "LogisticTarget", "Mixture", "adam_minimize", "auroc", "check_simplex", "directional_derivative",
    "elbo", "get_family", "grad_inner", "grad_inner_components", "greedy_step", "kl",
    "posterior_mean_logits", "relbo", "relbo_and_grad", "relbo_lambda", "test_auroc",
    "train_log_likelihood",
]
