"""The stochastic Chebyshev log-det gradient of an SKI kernel matrix from ONE forward
Chebyshev recursion serving every hyperparameter (Han et al. 2018, Eq. 12).

For ``A(θ) = W K(θ) Wᵀ + θ₁² I`` and ``y = (1/M) Σ_k v_kᵀ p(Ã) v_k``, ``p = Σ_{m=0}^n c_m T_m``,
the adjoint of the recursion (:func:`~inferopt.spectral.gradients.adjoint_factors`) gives
``∇_A y = (1/M) Σ_{j=1}^n σ_j u_j w_{j-1}ᵀ`` with ``w_i = T_i(Ã)v``, ``σ_1 = s``, ``σ_j = 2s``
(``s = 2/(b−a)``) and ``u_j = Σ_{m>=j} c_m U_{m−j}(Ã) v``. Since
``U_{2q} = T_0 + 2Σ_{i=1}^{q} T_{2i}`` and ``U_{2q+1} = 2Σ_{i=0}^{q} T_{2i+1}``, every ``u_j`` is a
combination of the forward vectors: ``σ_j u_j = Σ_i C[j−1, i] w_i``, so the backward pass is not
needed and ``∂y/∂θ = (1/M) Σ_probes Σ_{j,i} C[j,i] w_iᵀ (∂A/∂θ) w_j``:

* ``∂A/∂θ₁ = 2θ₁ I``: ``2θ₁ Σ C ∘ (Gram of the w_i)``;
* ``∂A/∂θ_i = W T_i Wᵀ`` (``i = 2, 3``; ``T_i`` symmetric Toeplitz with first column ``t_i``):
  with ``S_j = F(Wᵀw_j)`` (zero-padded FFT, kept from the products ``A w_j``), the
  cross-correlation ``c = F⁻¹(Σ_probes Σ_{j,i} C[j,i] conj(S_i) S_j)`` gives
  ``Σ_probes Σ_{j,i} C[j,i] (Wᵀw_i)ᵀ T_i (Wᵀw_j) = Σ_τ t_i(|τ|)(c(τ) + c(−τ))`` for both. Only the
  even part ``c(τ) + c(−τ)`` enters, whose transform is the real part of the spectrum,
  ``Σ_{j,i} C_sym[j,i] (Re S_i Re S_j + Im S_i Im S_j)`` with ``C_sym = (C + Cᵀ)/2``: one real
  product with the ``n x n`` matrix per probe block.

Cost: ``n − 1`` products with ``A`` (the forward recursion alone; the forward-mode recursion (6)
needs about ``4n`` plus ``2n`` with the derivative sandwiches) and ``O(n²(d + L))`` work per probe for
the Gram matrix and the correlation spectrum. The work count
(:meth:`~inferopt.spectral.gp.SKIGaussianProcess.spectral_grad`) counts what is done: ``n`` products per
probe, the ``n − 1`` forward products and one for the contraction (measured 0.1n to 0.13n products' time
at d = 35,000); the sandwich products the contraction replaces are not made and not counted.
"""

from __future__ import annotations

import numpy as np

from scipy.fft import next_fast_len

#: probes advanced together (bounds the stored spectra: n x L/2 x PROBES complex numbers)
PROBES = 2


def circulant_spectrum(column) -> tuple[int, np.ndarray]:
    """``(L, rfft of the first column of an L x L circulant embedding the symmetric Toeplitz T)``:
    any ``L >= 2r - 1`` embeds it (``T X = (C [X; 0])[:r]``); a 5-smooth ``L >= 2r`` is fast."""
    r = column.size
    n_fft = next_fast_len(2 * r, real=True)
    return n_fft, np.fft.rfft(np.concatenate([column, np.zeros(n_fft - 2 * r + 1), column[:0:-1]]))


def adjoint_coefficients(weights, s: float) -> np.ndarray:
    """``C`` (``n x n``) with ``σ_j u_j = Σ_i C[j−1, i] T_i(Ã) v`` (see the module docstring)."""
    c = np.asarray(weights, dtype=float)
    n = c.size - 1
    E = np.zeros((n, n))                          # U_q = Σ_i E[q, i] T_i, q = 0..n−1
    for q in range(n):
        E[q, q % 2 :: 2][: q // 2 + 1] = 2.0
        if q % 2 == 0:
            E[q, 0] = 1.0
    C = np.zeros((n, n))
    for j in range(1, n + 1):                     # u_j = Σ_{m=j}^{n} c_m U_{m−j}
        C[j - 1] = (2.0 * s if j > 1 else s) * (c[j:] @ E[: n - j + 1])
    return C


def toeplitz_lag_sums(spectrum, n_fft: int, r: int) -> np.ndarray:
    """``c(τ) + c(−τ)`` (``c(0)`` once), ``τ = 0..r−1``, from the correlation spectrum (or its
    real part): then ``Σ aᵀTb = t · result`` for every symmetric Toeplitz ``T`` with first column ``t``."""
    c = np.fft.irfft(spectrum, n=n_fft)           # c[τ] = c(τ), c[L − τ] = c(−τ)
    out = c[:r].copy()
    out[1:] += c[n_fft - 1 : n_fft - r : -1]
    return out


def ski_estimator_grad(gp, theta, V, weights, a, b) -> np.ndarray:
    """``∇_θ (1/M) Σ_k v_kᵀ p(Ã(θ)) v_k`` (``p = Σ_j weights_j T_j``) for an
    :class:`~inferopt.spectral.gp.SKIGaussianProcess` ``gp``; shape ``(3,)``."""
    V = np.asarray(V, dtype=float)
    n = np.asarray(weights).size - 1
    if n == 0:
        return np.zeros(3)
    s, shift = 2.0 / (b - a), (b + a) / (b - a)
    C = adjoint_coefficients(weights, s)
    col = gp.column(theta)
    r = col.size
    n_fft, khat = circulant_spectrum(col)
    noise2 = theta[0] ** 2
    Csym = 0.5 * (C + C.T)
    gram = 0.0
    spectrum = np.zeros(n_fft // 2 + 1)
    for start in range(0, V.shape[1], PROBES):
        w_prev, w = None, V[:, start : start + PROBES]
        S = np.empty((n, n_fft // 2 + 1, w.shape[1]), dtype=complex)
        Y = np.empty((n,) + w.shape)
        for j in range(n):                        # w_j = T_j(Ã) v and S_j = F(Wᵀ w_j)
            Y[j] = w
            S[j] = np.fft.rfft(gp.WT @ w, n=n_fft, axis=0)
            if j == n - 1:
                break
            Aw = gp.W @ np.fft.irfft(khat[:, None] * S[j], n=n_fft, axis=0)[:r] + noise2 * w
            w_new = s * Aw - shift * w if j == 0 else 2.0 * (s * Aw - shift * w) - w_prev
            w_prev, w = w, w_new
        Yf = Y.reshape(n, -1)
        gram = gram + np.einsum("ji,ji->", C, Yf @ Yf.T)
        Sr = S.view(np.float64).reshape(n, -1)    # real and imaginary parts of every S_j
        spectrum += np.einsum("jc,jc->c", Csym @ Sr, Sr).reshape(spectrum.size, -1).sum(axis=1)
    lags = toeplitz_lag_sums(spectrum, n_fft, r)
    tau2 = (gp.grid.h * np.arange(r)) ** 2
    return np.array([2.0 * theta[0] * gram, (2.0 * col / theta[1]) @ lags, (col * tau2 / theta[2] ** 3) @ lags]) / V.shape[1]
