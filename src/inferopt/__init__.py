"""inferopt: optimisation for inference, four papers re-implemented.

Sub-packages, one per paper plus what they share:

* :mod:`inferopt.spectral`  -- stochastic Chebyshev gradients for spectral sums (Han et al. 2018)
* :mod:`inferopt.coresets`  -- sparse Bayesian coresets by accelerated IHT (Zhang et al. 2021)
* :mod:`inferopt.herding`   -- herding as conditional gradient (Bach et al. 2012)
* :mod:`inferopt.boosting`  -- boosting VI with locally adaptive step sizes (Dresdner et al. 2021)
* :mod:`inferopt.fw`        -- the shared conditional-gradient (Frank-Wolfe) core
* :mod:`inferopt.models`    -- Bayesian GLMs (logistic, Poisson) and the Laplace approximation
* :mod:`inferopt.datasets`  -- the dataset registry (checksums, mirror, fetch, loaders)
* :mod:`inferopt.experiment` -- the experiment layer: trial runners, tables, plots, method registry, metrics, claims
* :mod:`inferopt.pipeline`  -- the DVC stages and the generator of ``dvc.yaml``'s experiment stages

Every solver returns a :class:`~inferopt._result.SolveResult` (or a subclass); every random
source is an ``rng`` passed through :func:`inferopt._random.as_generator`.
"""

__version__ = "0.1.0"

from ._progress import LongCallWarning  # noqa: E402  (a long call announces itself: filter or catch it by this class)
