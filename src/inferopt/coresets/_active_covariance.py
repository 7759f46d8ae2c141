"""SparseVI's exact gradient on the active set only, for the radial-basis (linear) regression.

Between two selections SparseVI takes ``T`` gradient steps on the ``k`` active weights and
needs only ``g_a = Cov_{π_w}[L_a, (1 − w)ᵀL]`` (Campbell & Beronov 2019, Eq. 7), not the
``N`` values :meth:`LinearRegressionModel.residual_covariance` returns (``O(ND²)`` per call).
With ``F = XC₀`` (``Σ₀ = C₀C₀ᵀ``), ``B = F_a`` and the thin QR ``Bᵀ = QR`` (once per
selection), every weighted posterior with support in ``a`` is

    ``Λ_w⁻¹ = C₀[I − QQᵀ + QH⁻¹Qᵀ]C₀ᵀ``,  ``H = I_k + σ⁻²R diag(w_a) Rᵀ``  (Woodbury),

and since ``f_i = QRe_i`` for ``i ∈ a`` the predictive covariances from an active point are
``C_{a,:} = RᵀH⁻¹Pᵀ`` with ``P = FQ`` (no subtraction). With ``r = y − Xμ_w``, ``v = 1 − w``
and the identity of ``residual_covariance``
``g_i = σ⁻⁴(r_i Σ_j C_ij v_j r_j + ½ Σ_j v_j C_ij²)``, ``i ∈ a``:

* ``Σ_j C_ij v_j r_j = [AᵀPᵀ(v∘r)]_i`` with ``A = H⁻¹R``;
* ``Σ_j v_j C_ij² = [Aᵀ(PᵀP)A]_ii − Σ_{j∈a} w_j C_ij²``, ``C_aa = RᵀA = YᵀY`` with
  ``Y = L⁻¹R``, ``H = LLᵀ``, and ``PᵀP = ZᵀZ`` from the triangular factor of ``P``;
* ``Xμ_w = Xμ₀ − Pq₀ + PH⁻¹(q₀ + σ⁻²R(w∘y)_a)``, ``q₀ = QᵀC₀⁻¹μ₀``.

Cost per step about ``5k³ + 4Nk`` flops (one Cholesky factorisation, two triangular solves,
two symmetric/triangular products) instead of ``O(ND²)``; per selection ``O(NDk)`` for ``P``.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import qr, solve_triangular
from scipy.linalg.blas import dsyrk as syrk, dtrmm as trmm
from scipy.linalg.lapack import dpotrf as potrf, dpotrs as potrs, dtrtrs as trtrs

from .conjugate import LinearRegressionModel


class _RegressionActiveGradient:
    """Factory of active-set evaluators ``w -> g_a`` for one :class:`LinearRegressionModel`
    (``F = XC₀`` is formed once)."""

    def __init__(self, model: LinearRegressionModel):
        self.model = model
        self.F = model.X @ model.C0                                         # rows f_n = C₀ᵀ b_n
        self.m0 = solve_triangular(model.C0, model.mu0, lower=True)         # C₀⁻¹μ₀
        self.base = model.y - model.X @ model.mu0                           # y − Xμ₀

    def on(self, active: np.ndarray):
        """The evaluator for the active set ``active`` (``k <= D``), or ``None`` if ``k > D``."""
        m = self.model
        if active.size > m.D:
            return None
        Q, R = qr(self.F[active].T, mode="economic")                       # Bᵀ = QR
        P = self.F @ Q
        Z = qr(P, mode="r")[0][: active.size]                               # PᵀP = ZᵀZ, Z upper
        q0 = Q.T @ self.m0
        ya = m.y[active]
        s2 = m.noise_var
        eye = np.eye(active.size)

        def gradient(w: np.ndarray) -> np.ndarray:
            wa = w[active]
            G = R * np.sqrt(wa / s2)
            L, info = potrf(syrk(1.0, G, beta=1.0, c=eye, lower=1), lower=1)   # H = I + GGᵀ = LLᵀ
            if info != 0:
                raise np.linalg.LinAlgError("weighted posterior is not positive definite")
            Y = trtrs(L, R, lower=1)[0]                                       # L⁻¹R
            A = trtrs(L, Y, lower=1, trans=1)[0]                              # H⁻¹R
            h = potrs(L, q0 + R @ (wa * ya) / s2, lower=1)[0]
            r = self.base + P @ (q0 - h)                                      # y − Xμ_w
            U = syrk(1.0, Y, trans=1) ** 2                                    # upper triangle of C_aa∘C_aa
            ZA = trmm(1.0, Z, A)                                              # ‖ZA e_i‖² = [AᵀPᵀPA]_ii
            term1 = r[active] * (A.T @ (P.T @ ((1.0 - w) * r)))
            term2 = np.einsum("ij,ij->j", ZA, ZA) - (U @ wa + wa @ U - np.diag(U) * wa)
            out = (term1 + 0.5 * term2) / s2**2
            if not np.all(np.isfinite(out)):
                raise np.linalg.LinAlgError("non-finite weighted posterior")
            return out

        return gradient


def active_covariance(covariance):
    """``active -> (w -> Cov_{π_w}[L_a, (1 − w)ᵀL])`` for SparseVI's weight steps when
    ``covariance`` is the bound ``residual_covariance`` of a :class:`LinearRegressionModel`
    (``None`` for any other ``covariance``, or for an active set larger than ``D``)."""
    owner = getattr(covariance, "__self__", None)
    if not (isinstance(owner, LinearRegressionModel)
            and getattr(covariance, "__func__", None) is LinearRegressionModel.residual_covariance):
        return lambda active: None
    return _RegressionActiveGradient(owner).on
