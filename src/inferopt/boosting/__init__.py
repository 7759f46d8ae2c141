"""Boosting variational inference: the pieces that do not depend on the step-size rule.

Dresdner, Shekhar, Pedregosa, Locatello, Rätsch (IJCAI 2021), *Boosting Variational
Inference With Locally Adaptive Step-Sizes*; the step rules (predefined ``2/(t+2)``,
line search, AdaFW/AdaAFW/AdaPFW backtracking, Alg. 2) and the Frank-Wolfe loop live in
:mod:`inferopt.fw`.

* :mod:`.families`  -- :class:`Gaussian`, :class:`Laplace` (diagonal scale, reparameterised), :class:`Component`;
* :mod:`.mixture`   -- :class:`Mixture` (simplex weights, sampling, log-sum-exp density, add/move/remove);
* :mod:`.targets`   -- :class:`LogisticTarget` (via :mod:`inferopt.models`), :class:`GaussianMixtureTarget`;
* :mod:`.adam`      -- :class:`Adam`, :func:`adam_minimize`;
* :mod:`.relbo`     -- :func:`greedy_step` (the LMO: RELBO by Adam, Eq. (4)), :func:`relbo_and_grad`;
* :mod:`.estimates` -- Monte-Carlo :func:`kl`, :func:`elbo`, :func:`grad_inner`, :func:`directional_derivative`;
* :mod:`.metrics`   -- :func:`auroc`, :func:`train_log_likelihood`, :func:`test_auroc`.

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
from .estimates import directional_derivative, elbo, grad_inner, grad_inner_components, kl
from .families import FAMILIES, Component, Family, Gaussian, Laplace, get_family
from .metrics import auroc, posterior_mean_logits, test_auroc, train_log_likelihood
from .mixture import Mixture, check_simplex
from .relbo import greedy_step, relbo, relbo_and_grad, relbo_lambda
from .targets import GaussianMixtureTarget, LogisticTarget

__all__ = [
    "FAMILIES", "Adam", "Component", "Family", "Gaussian", "GaussianMixtureTarget", "Laplace",
    "LogisticTarget", "Mixture", "adam_minimize", "auroc", "check_simplex", "directional_derivative",
    "elbo", "get_family", "grad_inner", "grad_inner_components", "greedy_step", "kl",
    "posterior_mean_logits", "relbo", "relbo_and_grad", "relbo_lambda", "test_auroc",
    "train_log_likelihood",
]
