"""Herding as conditional gradient (Bach, Lacoste-Julien & Obozinski, ICML 2012).

* :mod:`.targets`   -- mean elements known by kernels: :class:`KernelTarget`, :class:`FeatureTarget`,
  :class:`EmpiricalTarget`; ``||mu - mu_hat||^2`` (:func:`mmd2`, :func:`mmd2_uniform_prefix`);
* :mod:`.sobolev`   -- periodic Sobolev kernels of order 1..4 (Bernoulli and Fourier forms), :class:`SobolevTarget`;
* :mod:`.densities` -- :class:`TrigDensity`: squared random trigonometric polynomials, closed-form Fourier moments;
* :mod:`.herding`   -- :func:`herd` (cg-1/(t+1), cg-l.search, min-norm-point via :mod:`inferopt.fw`),
  :func:`welling_herding` (Eq. 1, both initialisations), :func:`dual_subgradient_ascent` (Sec. 4.1), ``-proj`` re-weighting (:func:`project`, :func:`projected_errors`);
* :mod:`.baselines` -- i.i.d. and Sobol points (:func:`sobol_points`, :func:`random_errors`);
* :mod:`.graphical` -- ``x = sign(z)`` model of Sec. 5.2, arcsine-law moments;
* :mod:`.maxent`    -- maximum entropy on {-1, 1}^d (Sec. 5.3);

The figures' error curves, mean vectors of Fig. 6 and fitted rates are in
:mod:`inferopt.experiment.herding`.

Example (Fig. 3, s = 1, random density)::

    rng = np.random.default_rng(0)
    target = SobolevTarget(1, TrigDensity.random(rng))
    grid = np.arange(10_000) / 10_000          # the LMO is an exhaustive search on this grid
    res = herd(target, grid, 500, step="1/(t+1)")     # or "line_search", "mnp"
    res.objective                                  # ||mu - mu_hat_t||^2, t = 1..500
"""

from .baselines import random_errors, sobol_points
from .densities import TrigDensity
from .graphical import boundary_distance_bound, pairwise_features, random_correlation, sample_sign_gaussian, sign_gaussian_moments
from .herding import (HERDING_STEPS, WELLING_INITS, HerdingResult, dual_subgradient_ascent, herd, hull_problem, project,
                      projected_errors, welling_herding)
from .maxent import all_states, entropy, exponential_family, independent_maxent, low_entropy_distribution, maxent_distribution
from .sobolev import SobolevTarget, bernoulli_polynomial, fourier_weight, sobolev_kernel, sobolev_kernel_fourier
from .targets import EmpiricalTarget, FeatureTarget, KernelTarget, mmd2, mmd2_uniform_prefix

__all__ = [
    "HERDING_STEPS",
    "WELLING_INITS",
    "dual_subgradient_ascent",
    "boundary_distance_bound",
    "EmpiricalTarget",
    "FeatureTarget",
    "HerdingResult",
    "KernelTarget",
    "SobolevTarget",
    "TrigDensity",
    "all_states",
    "bernoulli_polynomial",
    "entropy",
    "exponential_family",
    "fourier_weight",
    "herd",
    "hull_problem",
    "independent_maxent",
    "low_entropy_distribution",
    "maxent_distribution",
    "mmd2",
    "mmd2_uniform_prefix",
    "pairwise_features",
    "project",
    "projected_errors",
    "random_correlation",
    "random_errors",
    "sample_sign_gaussian",
    "sign_gaussian_moments",
    "sobol_points",
    "sobolev_kernel",
    "sobolev_kernel_fourier",
    "welling_herding",
]
