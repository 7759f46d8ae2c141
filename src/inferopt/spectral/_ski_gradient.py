"""The stochastic Chebyshev log-det gradient of an SKI kernel matrix with every
hyperparameter served by one recursion (Han et al. 2018, Eq. 12, in adjoint form).

For ``A(θ) = W K(θ) Wᵀ + θ₁² I`` and the estimator ``y = (1/M) Σ_k v_kᵀ p(Ã) v_k``, the adjoint
of the Chebyshev recursion (:func:`~inferopt.spectral.gradients.adjoint_factors`) gives
``∇_A y = X Yᵀ / M`` from ``2n − 2`` block products with ``A`` (instead of the forward
recursion (6), which advances ``∂w_j`` for every parameter: about ``4n`` block products with
``A`` plus ``2n`` with the derivative sandwiches). Then ``∂y/∂θ_i = tr(∂A_i X Yᵀ)/M``:

* ``∂A/∂θ₁ = 2θ₁ I``: ``2θ₁ Σ X∘Y``;
* ``∂A/∂θ_i = W T_i Wᵀ`` (``i = 2, 3``) with ``T_i`` symmetric Toeplitz of first column ``t_i``:
  with ``a = Wᵀx``, ``b = Wᵀy`` summed over the columns, ``aᵀT_ib = Σ_τ t_i(|τ|) c(τ)`` where
  ``c(τ) = Σ_p a_p b_{p+τ}`` is one cross-correlation (FFT) shared by both parameters.
"""

from __future__ import annotations

import numpy as np
from scipy.fft import next_fast_len

from .gradients import adjoint_factors

#: columns of ``X``, ``Y`` transformed at once (bounds the FFT work arrays)
CHUNK = 32


def toeplitz_correlation(WT, X, Y) -> np.ndarray:
    """``s[τ] = c(τ) + c(−τ)`` (``s[0] = c(0)``), ``τ = 0..r−1``, summed over the columns of
    ``a = WᵀX``, ``b = WᵀY``: then ``Σ_cols aᵀTb = t · s`` for any symmetric Toeplitz ``T``
    with first column ``t``."""
    r = WT.shape[0]
    L = next_fast_len(2 * r - 1, real=True)   # no wrap-around for lags |τ| <= r − 1
    spectrum = np.zeros(L // 2 + 1, dtype=complex)
    for start in range(0, X.shape[1], CHUNK):
        cols = slice(start, start + CHUNK)
        fa = np.fft.rfft(WT @ X[:, cols], n=L, axis=0)
        fb = np.fft.rfft(WT @ Y[:, cols], n=L, axis=0)
        spectrum += np.einsum("ij,ij->i", np.conj(fa), fb)
    c = np.fft.irfft(spectrum, n=L)          # c[τ] = c(τ), c[L − τ] = c(−τ)
    s = c[:r].copy()
    s[1:] += c[L - 1 : L - r : -1]
    return s


def ski_estimator_grad(gp, theta, V, weights, a, b) -> np.ndarray:
    """``∇_θ (1/M) Σ_k v_kᵀ p(Ã(θ)) v_k`` (``p = Σ_j weights_j T_j``) for an
    :class:`~inferopt.spectral.gp.SKIGaussianProcess` ``gp``; shape ``(3,)``."""
    V = np.asarray(V, dtype=float)
    X, Y = adjoint_factors(gp.operator(theta), V, weights, a, b)
    if X.shape[1] == 0:
        return np.zeros(3)
    s = toeplitz_correlation(gp.WT, X, Y)
    col = gp.column(theta)
    tau2 = (gp.grid.h * np.arange(gp.grid.r)) ** 2
    return np.array([
        2.0 * theta[0] * np.einsum("ij,ij->", X, Y),
        (2.0 * col / theta[1]) @ s,
        (col * tau2 / theta[2] ** 3) @ s,
    ]) / V.shape[1]
