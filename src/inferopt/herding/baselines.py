"""Baselines of Fig. 3 (Bach et al. 2012): i.i.d. random points and Sobol points.

Both have uniform weights; their ``-proj`` versions re-weight them with
:func:`inferopt.herding.herding.projected_errors`.  Errors for every prefix size come from
:func:`inferopt.herding.targets.mmd2_uniform_prefix`.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.stats import qmc

from .._validation import check_flag, check_size
from .densities import TrigDensity, check_density
from .targets import KernelTarget, mmd2_uniform_prefix
from .._random import as_generator


def sobol_points(density: TrigDensity, n: int, *, scramble: bool = False, rng=None) -> np.ndarray:
    """The first ``n`` points of the 1-d Sobol sequence, pushed through ``density.ppf``
    (unscrambled by default: deterministic; ``scramble=True`` uses ``rng``, a Generator or seed)."""
    n = check_size("n", n, item_bytes=16, item="point")
    scramble = check_flag("scramble", scramble)
    check_density(density)
    rng = as_generator(rng)
    with warnings.catch_warnings():  # "balance properties ... power of 2": prefixes of all sizes are used
        warnings.simplefilter("ignore", UserWarning)
        u = qmc.Sobol(d=1, scramble=scramble, rng=rng if scramble else None).random(n)[:, 0]
    return density.ppf(u)


def random_errors(target: KernelTarget, density: TrigDensity, n: int, n_rep: int, rng) -> np.ndarray:
    """``(n_rep, n)`` errors ``||mu - mu_hat_t||^2`` of i.i.d. samples from ``density`` (one row per
    replication), drawn with ``rng`` (a Generator or a seed)."""
    n = check_size("n", n, item_bytes=16, item="point")
    n_rep = check_size("n_rep", n_rep, item_bytes=8 * n, item="replication (a row of n errors)")
    check_density(density)
    rng = as_generator(rng)
    return np.stack([mmd2_uniform_prefix(target, density.sample(n, rng)) for _ in range(n_rep)])
