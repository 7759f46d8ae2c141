"""Mean elements ``mu = E_p Phi(x)`` in an RKHS, known through kernel evaluations only.

A :class:`KernelTarget` gives ``k(x, y)``, ``mu(x) = E_{y~p} k(x, y)`` and ``||mu||^2 =
E_{x,y~p} k(x, y)`` (notes on Bach et al. 2012, "Objects"); from these,
``||mu - sum_i w_i Phi(x_i)||^2 = w'Kw - 2 w'mu(x) + ||mu||^2`` (:func:`mmd2`).
Points are arrays whose first axis indexes points (shape ``(n,)`` on [0, 1], ``(n, D)``
for feature vectors).
"""

from __future__ import annotations

import numpy as np

from .._validation import as_finite_array, as_rows
from .._random import as_generator


class KernelTarget:
    """Interface: ``kernel(x, y)`` -> ``(len(x), len(y))``, ``kernel_diag(x)``, ``mean(x)``, ``mean_sqnorm``."""

    mean_sqnorm: float

    def kernel(self, x, y) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def kernel_diag(self, x) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def mean(self, x) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def check_points(self, name: str, points) -> np.ndarray:
        """``points`` as a finite, non-empty array of points this target's kernel accepts."""
        return as_finite_array(name, points, nonempty=True)


def check_points(target, name: str, points, target_name: str = "target") -> np.ndarray:
    """Validate ``target`` (a :class:`KernelTarget`, the argument ``target_name``) and the ``points`` handed to it."""
    if not isinstance(target, KernelTarget):
        raise TypeError(f"{target_name} must be a KernelTarget; got {type(target).__name__}")
    return target.check_points(name, points)


class FeatureTarget(KernelTarget):
    """Finite-dimensional features: points *are* feature vectors ``Phi(x)`` (rows), ``k = <Phi, Phi>``,
    and ``mu`` is a given moment vector (e.g. the exact moments of Sec. 5.2-5.3)."""

    def __init__(self, mu) -> None:
        self.mu = as_finite_array("mu", mu, ndim=1, nonempty=True)
        self.mean_sqnorm = float(self.mu @ self.mu)

    def kernel(self, x, y) -> np.ndarray:
        return np.asarray(x) @ np.asarray(y).T

    def kernel_diag(self, x) -> np.ndarray:
        x = np.asarray(x)
        return np.einsum("ij,ij->i", x, x)

    def mean(self, x) -> np.ndarray:
        return np.asarray(x) @ self.mu

    def check_points(self, name: str, points) -> np.ndarray:
        """Feature vectors as rows, as many columns as ``mu`` has entries."""
        pts = as_rows(name, points, len(self.mu))
        if len(pts) == 0:
            raise ValueError(f"{name} must hold at least one point; got shape {pts.shape}")
        return pts


class EmpiricalTarget(KernelTarget):
    """The empirical mean element of a sample, ``mu_n = (1/n) sum_j Phi(y_j)`` (Fig. 4: herding from
    a finite sample), with the kernel of ``base``."""

    def __init__(self, base: KernelTarget, sample) -> None:
        if not isinstance(base, KernelTarget):
            raise TypeError(f"base must be a KernelTarget; got {type(base).__name__}")
        self.base, self.sample = base, check_points(base, "sample", sample)
        self.mean_sqnorm = float(base.kernel(self.sample, self.sample).mean())

    def kernel(self, x, y) -> np.ndarray:
        return self.base.kernel(x, y)

    def kernel_diag(self, x) -> np.ndarray:
        return self.base.kernel_diag(x)

    def mean(self, x) -> np.ndarray:
        return self.base.kernel(x, self.sample).mean(axis=1)

    def check_points(self, name: str, points) -> np.ndarray:
        return self.base.check_points(name, points)


def _weights(n: int, weights) -> np.ndarray:
    if weights is None:
        return np.full(n, 1.0 / n)
    w = as_finite_array("weights", weights, ndim=1)
    if len(w) != n:
        raise ValueError(f"weights must have one entry per point ({n}); got {len(w)}")
    return w


def mmd2(target: KernelTarget, points, weights=None) -> float:
    """``||mu - sum_i w_i Phi(x_i)||^2`` by kernels only (uniform weights by default)."""
    points = check_points(target, "points", points)
    w = _weights(len(points), weights)
    K = target.kernel(points, points)
    return float(w @ K @ w - 2.0 * w @ target.mean(points) + target.mean_sqnorm)


def mmd2_uniform_prefix(target: KernelTarget, points) -> np.ndarray:
    """``||mu - (1/t) sum_{i<=t} Phi(x_i)||^2`` for every ``t = 1..n`` at once (O(n^2), vectorised)."""
    points = check_points(target, "points", points)
    n = len(points)
    K = target.kernel(points, points)
    # sum_{i,j<=t} K_ij = cumsum_t (K_tt + 2 sum_{i<t} K_it)
    pair = np.cumsum(np.diag(K) + 2.0 * np.tril(K, -1).sum(axis=1))
    t = np.arange(1, n + 1)
    return pair / t**2 - 2.0 * np.cumsum(target.mean(points)) / t + target.mean_sqnorm
