"""Fixtures shared by the test packages."""

import numpy as np
import pytest


def _spd_matrix(d: int, eigenvalues, rng) -> np.ndarray:
    """``Q diag(λ) Qᵀ`` with ``Q`` the orthogonal factor of a ``d × d`` Gaussian matrix drawn first
    from ``rng`` (a Generator or a seed); ``eigenvalues``: ``d`` values, or a function of ``rng``
    returning them (called after ``Q`` is drawn)."""
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    lam = np.asarray(eigenvalues(rng) if callable(eigenvalues) else eigenvalues, dtype=float)
    if lam.shape != (d,):
        raise ValueError(f"eigenvalues must hold {d} values; got shape {lam.shape}")
    return (Q * lam) @ Q.T


@pytest.fixture
def spd_matrix():
    """The one builder of random symmetric positive-definite matrices with a known spectrum."""
    return _spd_matrix
