"""Binary graphical model of Sec. 5.2 (Bach et al. 2012): ``x = sign(z)``, ``z ~ N(0, Sigma)``.

Features ``Phi(x) = (x_i)_i  u  (x_i x_j)_{i<j}``; exact moments by the arcsine law
``E x_i = 0``, ``E x_i x_j = (2/pi) arcsin(Sigma_ij / sqrt(Sigma_ii Sigma_jj))`` (the orthant
mass of a bivariate Gaussian is ``1/4 + arcsin(rho)/(2 pi)``).  Herding uses these exact
moments with the argmin over a finite sample of states (:class:`FeatureTarget` with the
sample's feature vectors as candidates).
"""

from __future__ import annotations

import numpy as np

from .._validation import as_finite_array, check_int, check_size, check_spd
from .._random import as_generator


def pairwise_features(x) -> np.ndarray:
    """``(n, d)`` states -> ``(n, d + d(d-1)/2)`` features ``(x_i, x_i x_j for i < j)``."""
    x = as_finite_array("x", x, ndim=2)
    i, j = np.triu_indices(x.shape[1], k=1)
    return np.hstack([x, x[:, i] * x[:, j]])


def random_correlation(d: int, rng, rank: int | None = None) -> np.ndarray:
    """A random correlation matrix ``D^-1/2 (A A' + I) D^-1/2``, ``A`` a ``d x rank`` Gaussian
    matrix drawn from ``rng`` (a Generator or a seed)."""
    d = check_int("d", d, low=1)
    check_size("d", d, item_bytes=8 * d, item="row of the d x d correlation matrix")
    rank = d if rank is None else check_size("rank", rank, item_bytes=8 * d, item="column of the d x rank factor")
    A = as_generator(rng).normal(size=(d, rank))
    S = A @ A.T + np.eye(d)
    scale = 1.0 / np.sqrt(np.diag(S))
    return S * np.outer(scale, scale)


def sign_gaussian_moments(sigma) -> np.ndarray:
    """Exact ``E Phi(x)`` for ``x = sign(z)``, ``z ~ N(0, sigma)`` (arcsine law)."""
    check_spd("sigma", sigma)
    sigma = np.asarray(sigma, dtype=float)
    scale = 1.0 / np.sqrt(np.diag(sigma))
    rho = np.clip(sigma * np.outer(scale, scale), -1.0, 1.0)
    i, j = np.triu_indices(len(sigma), k=1)
    return np.concatenate([np.zeros(len(sigma)), 2.0 / np.pi * np.arcsin(rho[i, j])])


def sample_sign_gaussian(sigma, n: int, rng) -> np.ndarray:
    """``n`` states ``sign(z)`` in {-1, 1}^d, ``z ~ N(0, sigma)`` drawn with ``rng`` (Generator or seed)."""
    L = check_spd("sigma", sigma)
    z = as_generator(rng).normal(size=(check_size("n", n, item_bytes=8 * len(L), item="draw"), len(L))) @ L.T
    return np.where(z >= 0, 1.0, -1.0)


def boundary_distance_bound(candidates, mu, d: int) -> float:
    """An upper bound on ``r`` of Sec. 4.2: the radius of the largest ball around ``mu`` (within the
    affine hull) inside the polytope ``conv(candidates)`` of the pairwise features of ``d`` binary
    variables, the distance on which line search's linear rate ``exp(-c r^2 t / R^2)`` rests.

    For any direction ``a``, a ball of radius ``r`` around ``mu`` inside the hull needs a candidate
    beyond it: ``r <= (<a, mu> - min_x <a, Phi(x)>) / ||a||``. The directions are the normals of
    the marginal polytope's coordinate facets (``-1 <= Phi_j <= 1``) and triangle facets
    (``y_i y_j + y_j y_k + y_i y_k >= -1`` with ``y = s * x`` for the four sign patterns ``s``
    of each triple), so the bound is near the distance to those facets; the minimum over the
    candidates measures the sampled hull, which is never larger. Valid when the candidates'
    features span their space (a full-dimensional affine hull: checked, ValueError otherwise).
    """
    d = check_int("d", d, low=2)
    F = as_finite_array("candidates", candidates, ndim=2, nonempty=True)
    dim = d + d * (d - 1) // 2
    if F.shape[1] != dim:
        raise ValueError(f"candidates must hold pairwise features of d = {d} variables ({dim} columns); got {F.shape[1]}")
    mu = as_finite_array("mu", mu, ndim=1)
    if mu.shape != (dim,):
        raise ValueError(f"mu must have length {dim}; got {mu.shape[0]}")
    if np.linalg.matrix_rank(F[1:] - F[0]) < dim:
        raise ValueError("candidates must span the feature space (a full-dimensional affine hull) for the bound to hold")
    pair = {(int(i), int(j)): d + n for n, (i, j) in enumerate(zip(*np.triu_indices(d, k=1)))}
    normals = [np.eye(dim), -np.eye(dim)]
    rows = []
    triples = [(i, j, k) for i in range(d) for j in range(i + 1, d) for k in range(j + 1, d)]
    for s in ((1, 1, 1), (1, 1, -1), (1, -1, 1), (-1, 1, 1)):
        a = np.zeros((len(triples), dim))
        for n, (i, j, k) in enumerate(triples):
            a[n, pair[i, j]], a[n, pair[j, k]], a[n, pair[i, k]] = s[0] * s[1], s[1] * s[2], s[0] * s[2]
        rows.append(a)
    A = np.vstack(normals + rows)
    slack = (A @ mu - (F @ A.T).min(axis=0)) / np.linalg.norm(A, axis=1)
    return float(max(slack.min(), 0.0))
