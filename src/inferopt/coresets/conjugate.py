"""Models with closed-form (weighted) posteriors, and their exact tangent vectors.

For weights ``w ∈ R^N_+`` the weighted posterior is ``π_w(θ) ∝ exp(Σ_n w_n L_n(θ)) π₀(θ)``
(Zhang et al. 2021, Sec. 2); ``w = 1`` is the true posterior. Both models here are
conjugate, so ``π_w`` is Gaussian for every ``w`` (Campbell & Beronov 2019, appendix).

* :class:`GaussianMeanModel` -- ``θ ~ N(μ₀, Σ₀)``, ``x_n | θ ~ N(θ, Σ)`` (Sec. 5.1);
* :class:`LinearRegressionModel` -- ``α ~ N(μ₀, Σ₀)``, ``y_n | α ~ N(b_nᵀα, σ²)``, with
  :func:`rbf_features` / :func:`make_rbf_regression` building the radial-basis design of
  Sec. 5.2 and the appendix.

Each model gives ``posterior(w)`` (mean, covariance; ``w`` may be a stack ``(m, N)``),
``loglik(thetas)`` (the ``(S, N)`` matrix ``L_n(θ_s)``), ``sample(w, S, rng)`` and
``tangent(w)``: a finite representation ``Φ_w`` (columns ``v_n``) whose inner products are
exactly ``⟨v_i, v_j⟩ = Cov_{π_w}[L_i(θ), L_j(θ)]`` -- the ``L²(π_w)`` geometry of the
coreset problem without Monte-Carlo error.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import cho_solve, solve_triangular

from .._validation import as_finite_array, as_rows, check_choice, check_int, check_real, check_size, check_spd
from .._random import as_generator


LOG2PI = float(np.log(2 * np.pi))


def _check_weights(w, N: int) -> tuple[np.ndarray, bool]:
    """Weights as a 2-d stack ``(m, N)``; returns (stack, was_1d)."""
    W = as_finite_array("w", w)
    single = W.ndim == 1
    W = np.atleast_2d(W)
    if W.ndim != 2 or W.shape[1] != N:
        raise ValueError(f"w must have shape (N,) or (m, N) with N = {N}; got {np.shape(w)}")
    if np.any(W < 0):
        raise ValueError("w must be non-negative")
    return W, single


class GaussianMeanModel:
    """Gaussian mean inference: ``θ ~ N(μ₀, Σ₀)``, ``x_n | θ ~ N(θ, Σ)`` i.i.d., ``θ ∈ R^D``.

    Weighted posterior (``s = Σ_n w_n``): precision ``Σ₀⁻¹ + sΣ⁻¹``, mean
    ``Σ_w(Σ₀⁻¹μ₀ + Σ⁻¹ Σ_n w_n x_n)``. Computed without explicit inverses: with
    ``Σ₀ = C₀C₀ᵀ``, ``Σ = CCᵀ`` and ``C₀ᵀΣ⁻¹C₀ = U diag(λ) Uᵀ`` (once), every weighted
    posterior is ``Σ_w = B diag(1/(1 + sλ)) Bᵀ`` with ``B = C₀U``: O(D²) per ``w`` for the
    mean and the tangent vectors, vectorised over stacks of weights.
    """

    def __init__(self, x, mu0, Sigma0, Sigma):
        self.x = as_finite_array("x", x, ndim=2, nonempty=True)
        self.N, self.D = self.x.shape
        self.mu0 = as_finite_array("mu0", mu0, ndim=1)
        if self.mu0.shape[0] != self.D:
            raise ValueError(f"mu0 must have length D = {self.D} (columns of x); got {self.mu0.shape[0]}")
        self.Sigma0 = as_finite_array("Sigma0", Sigma0, ndim=2)
        self.Sigma = as_finite_array("Sigma", Sigma, ndim=2)
        for name, M in (("Sigma0", self.Sigma0), ("Sigma", self.Sigma)):
            if M.shape != (self.D, self.D):
                raise ValueError(f"{name} must have shape ({self.D}, {self.D}); got {M.shape}")
        self.C0 = check_spd("Sigma0", self.Sigma0)
        self.C = check_spd("Sigma", self.Sigma)
        K = solve_triangular(self.C, self.C0, lower=True)         # C⁻¹C₀
        lam, U = np.linalg.eigh(K.T @ K)                          # C₀ᵀΣ⁻¹C₀
        self.lam = np.maximum(lam, 0.0)
        self.B = self.C0 @ U                                      # Σ_w = B diag(d) Bᵀ
        self.a0 = U.T @ solve_triangular(self.C0, self.mu0, lower=True)   # Bᵀ Σ₀⁻¹ μ₀
        Cinv_x = solve_triangular(self.C, self.x.T, lower=True)   # C⁻¹ x_n (columns)
        self.xt = (U.T @ (K.T @ Cinv_x)).T                        # Bᵀ Σ⁻¹ x_n (rows)
        self.G = solve_triangular(self.C, self.B, lower=True)     # C⁻¹ B
        self.Hx = Cinv_x.T @ self.G                               # (Gᵀ C⁻¹ x_n) rows
        self.GtG = self.G.T @ self.G
        self.GtG_sq = self.GtG**2                                 # tr Ψ_w² = dᵀ (GᵀG)∘² d
        self.Hx_sq = self.Hx**2
        self.logdet_Sigma = 2.0 * np.log(np.diag(self.C)).sum()
        self.logdet_Sigma0 = 2.0 * np.log(np.diag(self.C0)).sum()
        self._Cinv_x_sq = (Cinv_x**2).sum(axis=0)

    # -- posterior ---------------------------------------------------------------------
    def _eig_coords(self, W):
        s = W.sum(axis=1)
        d = 1.0 / (1.0 + s[:, None] * self.lam[None, :])         # (m, D)
        c = d * (self.a0[None, :] + W @ self.xt)                  # mean = B c
        return d, c

    def posterior(self, w):
        """Mean ``(D,)`` and covariance ``(D, D)`` of ``π_w`` (stacks for ``w`` of shape ``(m, N)``)."""
        W, single = _check_weights(w, self.N)
        d, c = self._eig_coords(W)
        means = c @ self.B.T
        covs = np.einsum("ij,mj,kj->mik", self.B, d, self.B)
        return (means[0], covs[0]) if single else (means, covs)

    def posterior_logdet(self, w):
        """``log det Σ_w`` (stable: ``log det Σ₀ − Σ log(1 + sλ)``)."""
        W, single = _check_weights(w, self.N)
        out = self.logdet_Sigma0 - np.log1p(W.sum(axis=1)[:, None] * self.lam[None, :]).sum(axis=1)
        return out[0] if single else out

    def map(self, w):
        """The posterior mode (= mean) of ``π_w``."""
        return self.posterior(w)[0]

    def kl_to_full(self, w):
        """``(KL(π ‖ π_w), KL(π_w ‖ π))`` with ``π = π_1``, in O(D) per ``w``.

        Every ``Σ_w = B diag(d_w) Bᵀ`` shares ``B`` and ``μ_w = B c_w``, so
        ``KL(N_a ‖ N_b) = ½ Σ_j [d_a/d_b + (c_a − c_b)²/d_b − 1 + log(d_b/d_a)]``.
        Returns floats, or arrays for a stack ``w`` of shape ``(m, N)``.
        """
        W, single = _check_weights(w, self.N)
        d, c = self._eig_coords(W)
        d1, c1 = self._eig_coords(np.ones((1, self.N)))

        def kl(da, ca, db, cb):
            ratio = da / db
            return 0.5 * np.sum(ratio + (ca - cb) ** 2 / db - 1.0 - np.log(ratio), axis=-1)

        fwd, rev = kl(d1, c1, d, c), kl(d, c, d1, c1)
        return (float(fwd[0]), float(rev[0])) if single else (fwd, rev)

    # -- likelihood and sampling -------------------------------------------------------
    def loglik(self, thetas):
        """``L_n(θ_s) = log N(x_n | θ_s, Σ)`` as an ``(S, N)`` matrix."""
        T = as_rows("thetas", thetas, self.D)
        Ct = solve_triangular(self.C, T.T, lower=True)            # C⁻¹θ_s (columns)
        Cx = solve_triangular(self.C, self.x.T, lower=True)
        quad = (Ct**2).sum(axis=0)[:, None] - 2.0 * Ct.T @ Cx + self._Cinv_x_sq[None, :]
        return -0.5 * (self.D * LOG2PI + self.logdet_Sigma + quad)

    def sample_posterior(self, w, size, rng=None):
        """``size`` draws from ``π_w`` (shape ``(size, D)``)."""
        rng = as_generator(rng)
        size = check_int("size", size, low=1)
        W, _ = _check_weights(w, self.N)
        d, c = self._eig_coords(W[:1])
        z = rng.standard_normal((size, self.D))
        return (c[0] + z * np.sqrt(d[0])) @ self.B.T

    # -- exact tangent vectors ---------------------------------------------------------
    def tangent(self, w=None, *, constant="exact"):
        """Exact tangent vectors ``Φ_w`` of shape ``(D + 1, N)`` at ``π_w`` (default ``w = 1``).

        With ``a_n = C⁻¹(x_n − μ_w)``, ``η = C⁻¹(θ − μ_w) ~ N(0, Ψ)``, ``Ψ = C⁻¹Σ_wC⁻ᵀ``:
        ``L_n − E L_n = a_nᵀη − ½(‖η‖² − tr Ψ)``, so
        ``Cov(L_i, L_j) = a_iᵀΨa_j + ¼Var‖η‖² = a_iᵀΨa_j + ½tr(Ψ²)``.
        Hence ``v_n = [Rᵀa_n ; √(½ tr(ΨᵀΨ))]`` with ``Ψ = RRᵀ``.

        ``constant="exact"`` (default) uses that constant row; ``constant="authors"`` uses
        ``0.25·√tr(ΨᵀΨ)`` as in the authors' ``examples/riemann_gaussian/main.py``
        (which under-weights the shared ``‖η‖²`` term by a factor 8 in the covariance).
        """
        check_choice("constant", constant, {"exact", "authors"})
        d, Hmu, tr_psi2 = self._tangent_parts(w)
        top = (np.sqrt(d)[None, :] * (self.Hx - Hmu[None, :])).T      # (D, N): Rᵀ a_n, R = G diag(√d)
        const = np.sqrt(0.5 * tr_psi2) if constant == "exact" else 0.25 * np.sqrt(tr_psi2)
        return np.vstack([top, np.full((1, self.N), const)])

    def _tangent_parts(self, w):
        """``(d, Gᵀ C⁻¹ μ_w, tr Ψ²)`` at ``π_w``: ``Rᵀa_n = √d ∘ (Hx_n − Hμ)``,
        ``Gᵀ C⁻¹ μ_w = GᵀG c`` (``μ_w = Bc``, ``G = C⁻¹B``) and ``Ψ = G diag(d) Gᵀ``, so
        ``tr Ψ² = dᵀ (GᵀG)∘² d``: O(D²) beyond the O(ND) weighted sum."""
        W = np.ones((1, self.N)) if w is None else _check_weights(w, self.N)[0][:1]
        d, c = self._eig_coords(W)
        d, c = d[0], c[0]
        return d, self.GtG @ c, float(d @ self.GtG_sq @ d)

    def residual_covariance(self, w, *, constant="exact"):
        """``(Cov_{π_w}[L_n, Σ_m (1 − w_m) L_m], Var_{π_w}[L_n])`` for all ``n``: what
        SparseVI needs (gradient and selection), without forming the tangent vectors:
        with ``A = Hx − 1Hμᵀ`` and ``v = 1 − w``, ``Σ_m Cov(L_n, L_m)v_m = A_n·(d ∘ Aᵀv) +
        c²Σv`` and ``Var L_n = Σ_j d_j A_nj² + c²`` -- a few O(ND) products. ``c`` is the
        constant row of :meth:`tangent` (``constant="exact"``: ``c² = ½tr(Ψ²)``, the exact
        covariance; ``"authors"``: ``c² = tr(Ψ²)/16``), so that the pair is ``(Φ_wᵀΦ_w(1 − w),
        diag Φ_wᵀΦ_w)`` of ``Φ_w = tangent(w, constant=constant)``."""
        check_choice("constant", constant, {"exact", "authors"})
        w = _check_weights(w, self.N)[0][0]
        d, Hmu, tr_psi2 = self._tangent_parts(w)
        c2 = 0.5 * tr_psi2 if constant == "exact" else tr_psi2 / 16.0
        v = 1.0 - w
        sv = float(v.sum())
        u = d * (v @ self.Hx - Hmu * sv)                                 # d ∘ Aᵀv
        both = self.Hx @ np.column_stack([u, d * Hmu])
        gv = both[:, 0] - float(Hmu @ u) + c2 * sv
        var = self.Hx_sq @ d - 2.0 * both[:, 1] + float(d @ Hmu**2) + c2
        return gv, var


def make_gaussian_mean(D, N, rng=None, *, prior_var=1.0, noise_var=1.0) -> GaussianMeanModel:
    """The synthetic Gaussian problem of Zhang et al. (2021), Sec. 5.1: ``μ₀ = 0``,
    ``Σ₀ = prior_var·I``, ``Σ = noise_var·I`` (the paper: both ``I``), ``θ ~ N(μ₀, Σ₀)`` and
    ``N`` draws ``x_n ~ N(θ, Σ)``."""
    rng = as_generator(rng)
    D = check_size("D", D, item_bytes=8 * 4, item="dimension")
    N = check_size("N", N, item_bytes=8 * (D + 1), item="data point")
    prior_var = check_real("prior_var", prior_var, low=0.0, low_open=True)
    noise_var = check_real("noise_var", noise_var, low=0.0, low_open=True)
    theta = np.sqrt(prior_var) * rng.standard_normal(D)
    x = theta + np.sqrt(noise_var) * rng.standard_normal((N, D))
    return GaussianMeanModel(x, np.zeros(D), prior_var * np.eye(D), noise_var * np.eye(D))


#: quadratic directions the authors keep in the tangent vectors of RBF regression (``n_dim = 20``)
AUTHORS_QUADRATIC_DIRECTIONS = 20


class LinearRegressionModel:
    """Bayesian linear regression ``y_n = b_nᵀα + ε_n``, ``ε_n ~ N(0, σ²)``, ``α ~ N(μ₀, Σ₀)``.

    ``design`` is the ``(N, D)`` matrix of features ``b_n`` (e.g. :func:`rbf_features`).
    Weighted posterior: precision ``Λ_w = Σ₀⁻¹ + σ⁻² Σ_n w_n b_n b_nᵀ``, mean
    ``Λ_w⁻¹(Σ₀⁻¹μ₀ + σ⁻² Σ_n w_n y_n b_n)`` (Cholesky solves; only ``supp(w)`` enters).
    """

    def __init__(self, design, y, mu0, Sigma0, noise_var):
        self.X = as_finite_array("design", design, ndim=2)
        self.N, self.D = self.X.shape
        self.y = as_finite_array("y", y, ndim=1)
        if self.y.shape[0] != self.N:
            raise ValueError(f"y must have length N = {self.N} (rows of design); got {self.y.shape[0]}")
        self.mu0 = as_finite_array("mu0", mu0, ndim=1)
        if self.mu0.shape[0] != self.D:
            raise ValueError(f"mu0 must have length D = {self.D}; got {self.mu0.shape[0]}")
        self.Sigma0 = as_finite_array("Sigma0", Sigma0, ndim=2)
        if self.Sigma0.shape != (self.D, self.D):
            raise ValueError(f"Sigma0 must have shape ({self.D}, {self.D}); got {self.Sigma0.shape}")
        self.C0 = check_spd("Sigma0", self.Sigma0)
        self.noise_var = check_real("noise_var", noise_var, low=0.0, low_open=True)
        self.P0 = cho_solve((self.C0, True), np.eye(self.D))          # Σ₀⁻¹ (prior precision)
        self.P0mu0 = cho_solve((self.C0, True), self.mu0)

    def _one(self, w):
        idx = np.flatnonzero(w)
        Xs = self.X[idx]
        prec = self.P0 + (Xs.T * (w[idx] / self.noise_var)) @ Xs
        L = np.linalg.cholesky(prec)
        rhs = self.P0mu0 + Xs.T @ (w[idx] * self.y[idx]) / self.noise_var
        mean = cho_solve((L, True), rhs)
        return mean, L

    def posterior(self, w):
        """Mean and covariance of ``π_w`` (stacks for ``w`` of shape ``(m, N)``)."""
        W, single = _check_weights(w, self.N)
        means, covs = [], []
        for row in W:  # loop over weight vectors, not data points
            mean, L = self._one(row)
            means.append(mean)
            covs.append(cho_solve((L, True), np.eye(self.D)))
        means, covs = np.array(means), np.array(covs)
        return (means[0], covs[0]) if single else (means, covs)

    def posterior_logdet(self, w):
        W, single = _check_weights(w, self.N)
        out = np.array([-2.0 * np.log(np.diag(self._one(row)[1])).sum() for row in W])
        return out[0] if single else out

    def kl_to_full(self, w):
        """``(KL(π ‖ π_w), KL(π_w ‖ π))`` with ``π = π_1``, from the Cholesky factors of the
        precisions (``Λ = LLᵀ``; no inverse): ``KL(N_a ‖ N_b) = ½[‖L_a⁻¹L_b‖_F² +
        ‖L_bᵀ(μ_a − μ_b)‖² − D + 2Σlog diag L_a − 2Σlog diag L_b]``. Floats, or arrays for a
        stack ``w`` of shape ``(m, N)``."""
        W, single = _check_weights(w, self.N)
        mu1, L1 = self._one(np.ones(self.N))

        def kl(mua, La, mub, Lb):
            M = solve_triangular(La, Lb, lower=True)
            q = Lb.T @ (mua - mub)
            logdet = 2.0 * (np.log(np.diag(La)).sum() - np.log(np.diag(Lb)).sum())
            return 0.5 * (np.sum(M * M) + q @ q - self.D + logdet)

        fwd, rev = np.empty(W.shape[0]), np.empty(W.shape[0])
        for j, row in enumerate(W):  # loop over weight vectors, not data points
            mu, L = self._one(row)
            fwd[j], rev[j] = kl(mu1, L1, mu, L), kl(mu, L, mu1, L1)
        return (float(fwd[0]), float(rev[0])) if single else (fwd, rev)

    def map(self, w):
        return self.posterior(w)[0]

    def loglik(self, thetas):
        """``L_n(α_s) = log N(y_n | b_nᵀα_s, σ²)`` as an ``(S, N)`` matrix."""
        T = as_rows("thetas", thetas, self.D)
        resid = self.y[None, :] - T @ self.X.T
        return -0.5 * (LOG2PI + np.log(self.noise_var) + resid**2 / self.noise_var)

    def sample_posterior(self, w, size, rng=None):
        rng = as_generator(rng)
        size = check_int("size", size, low=1)
        W, _ = _check_weights(w, self.N)
        mean, L = self._one(W[0])
        z = rng.standard_normal((self.D, size))
        return (mean[:, None] + solve_triangular(L.T, z, lower=False)).T   # cov = Λ⁻¹

    def tangent(self, w=None, *, representation="auto", rtol=1e-12, n_quadratic=AUTHORS_QUADRATIC_DIRECTIONS):
        """Exact tangent vectors ``Φ_w`` at ``π_w`` (default ``w = 1``).

        With ``r_n = y_n − b_nᵀμ_w``, ``u_n = Rᵀb_n`` (``Σ_w = RRᵀ``), ``C_ij = u_iᵀu_j``:
        ``L_n − E L_n = σ⁻²r_n b_nᵀη − (2σ²)⁻¹((b_nᵀη)² − C_nn)``, ``η ~ N(0, Σ_w)``, and
        (Isserlis) ``Cov(L_i, L_j) = σ⁻⁴(r_i r_j C_ij + ½C_ij²)``.

        * ``representation="features"``: ``v_n = σ⁻²[r_n u_n ; svec(u_n u_nᵀ)/√2]``, of
          dimension ``D + D(D+1)/2`` (``svec`` scales off-diagonals by √2 so that
          ``⟨svec A, svec B⟩ = tr(AB)``);
        * ``representation="gram"``: ``Φ_w = diag(√λ)Qᵀ`` from the eigen-decomposition of
          the ``N × N`` covariance matrix above (eigenvalues below ``rtol·λ_max`` dropped),
          dimension ``≤ N``;
        * ``"auto"`` picks the smaller. Both are exact.
        * ``representation="authors"``: the authors' construction (``tsf_exact_w`` of
          ``riemann_linear_regression/main.py``): the linear part as above, the quadratic part
          of ``p_n = Vᵀu_n`` only, ``V`` the ``n_quadratic`` (20) leading eigenvectors of
          ``Σ_n u_n u_nᵀ``: ``v_n = σ⁻²[r_n u_n ; svec(p_n p_nᵀ)/√2]``. Not exact: it drops
          the quadratic term's other directions.
        """
        check_choice("representation", representation, {"auto", "features", "gram", "authors"})
        W = np.ones((1, self.N)) if w is None else _check_weights(w, self.N)[0][:1]
        mean, L = self._one(W[0])
        # Σ_w = Λ⁻¹ = L⁻ᵀL⁻¹, so R = L⁻ᵀ and u_n = L⁻¹ b_n
        U = solve_triangular(L, self.X.T, lower=True).T            # (N, D)
        r = self.y - self.X @ mean
        s2 = self.noise_var
        D = self.D
        if representation == "auto":
            representation = "gram" if self.N < D + D * (D + 1) // 2 else "features"
        if representation in ("features", "authors"):
            P = U
            if representation == "authors":
                n_quadratic = check_int("n_quadratic", n_quadratic, low=1)
                _, V = np.linalg.eigh(U.T @ U)
                P = U @ V[:, -min(n_quadratic, D):]
            k = P.shape[1]
            iu = np.triu_indices(k)
            scale = np.where(iu[0] == iu[1], 1.0, np.sqrt(2.0))
            quad = (P[:, iu[0]] * P[:, iu[1]]) * scale[None, :] / np.sqrt(2.0)
            return (np.hstack([r[:, None] * U, quad]) / s2).T
        C = U @ U.T
        G = (np.outer(r, r) * C + 0.5 * C * C) / s2**2
        lam, Q = np.linalg.eigh(G)
        keep = lam > rtol * max(lam[-1], 0.0)
        return (Q[:, keep] * np.sqrt(lam[keep])[None, :]).T


    def residual_covariance(self, w):
        """``(Cov_{π_w}[L_n, Σ_m (1 − w_m) L_m], Var_{π_w}[L_n])`` for all ``n`` without
        forming tangent vectors: with ``v = 1 − w`` and ``M = Σ_j v_j u_j u_jᵀ``,
        ``Σ_j G_ij v_j = σ⁻⁴(r_i u_iᵀ Σ_j v_j r_j u_j + ½ u_iᵀ M u_i)``, ``G_ii = σ⁻⁴(r_i²‖u_i‖²
        + ½‖u_i‖⁴)`` -- O(ND²) per call (SparseVI's exact gradient)."""
        W = _check_weights(w, self.N)[0][:1]
        mean, L = self._one(W[0])
        U = solve_triangular(L, self.X.T, lower=True).T
        r = self.y - self.X @ mean
        v = 1.0 - W[0]
        s4 = self.noise_var**2
        M = (U.T * v) @ U
        Gv = (r * (U @ (U.T @ (r * v))) + 0.5 * np.einsum("ij,ij->i", U @ M, U)) / s4
        cnn = np.einsum("ij,ij->i", U, U)
        return Gv, (r**2 * cnn + 0.5 * cnn**2) / s4


def rbf_features(coords, centres, scales):
    """Radial-basis design ``b_d(x) = exp(−‖x − μ_d‖² / (2σ_d²))``, shape ``(N, D)``."""
    X = as_finite_array("coords", coords, ndim=2, nonempty=True)
    Mu = as_finite_array("centres", centres, ndim=2)
    sc = as_finite_array("scales", scales, ndim=1)
    if Mu.shape[1] != X.shape[1] or sc.shape[0] != Mu.shape[0]:
        raise ValueError(
            f"centres must have shape (D, {X.shape[1]}) and scales length D; got {Mu.shape}, {sc.shape}"
        )
    if np.any(sc <= 0):
        raise ValueError("scales must be > 0")
    sq = (X**2).sum(1)[:, None] - 2.0 * X @ Mu.T + (Mu**2).sum(1)[None, :]
    return np.exp(-np.maximum(sq, 0.0) / (2.0 * sc[None, :] ** 2))


RBF_SCALES = (0.2, 0.4, 0.8, 1.2, 1.6, 2.0)


def make_rbf_regression(
    coords,
    targets,
    *,
    rng=None,
    n_subsample=1000,
    scales=RBF_SCALES,
    n_per_scale=50,
    constant_scale=100.0,
):
    """The radial-basis regression of Zhang et al. (2021), Sec. 5.2 (after Campbell & Beronov 2019).

    Subsamples ``n_subsample`` records uniformly without replacement (all if fewer);
    for each scale in ``scales`` puts ``n_per_scale`` bases on data points drawn uniformly
    (without replacement) from the subsample; adds one near-constant basis of scale
    ``constant_scale`` centred at the mean coordinates (D = 6·50 + 1 = 301 by default);
    noise variance ``σ² = var(y)``; prior ``N(μ₀1, σ₀²I)`` with ``μ₀ = mean(y)`` and
    ``σ₀² = mean(y²)`` (the empirical second moment). Returns
    ``(model, info)`` with ``info`` = dict(indices, centres, scales).
    """
    rng = as_generator(rng)
    Z = as_finite_array("coords", coords, ndim=2)
    t = as_finite_array("targets", targets, ndim=1)
    if t.shape[0] != Z.shape[0]:
        raise ValueError(f"targets must have length {Z.shape[0]} (rows of coords); got {t.shape[0]}")
    n_subsample = check_int("n_subsample", n_subsample, low=1)
    n_per_scale = check_int("n_per_scale", n_per_scale, low=1)
    scales = as_finite_array("scales", scales, ndim=1, nonempty=True)
    constant_scale = check_real("constant_scale", constant_scale, low=0.0, low_open=True)
    m = min(n_subsample, Z.shape[0])
    if n_per_scale > m:
        raise ValueError(f"n_per_scale must be <= the subsample size {m}; got {n_per_scale}")
    idx = rng.choice(Z.shape[0], size=m, replace=False)
    Z, t = Z[idx], t[idx]
    centres = [Z[rng.choice(m, size=n_per_scale, replace=False)] for _ in scales]
    centres.append(Z.mean(axis=0, keepdims=True))
    centres = np.vstack(centres)
    all_scales = np.concatenate([np.repeat(np.asarray(scales, float), n_per_scale), [constant_scale]])
    design = rbf_features(Z, centres, all_scales)
    D = design.shape[1]
    model = LinearRegressionModel(
        design, t, mu0=np.full(D, t.mean()), Sigma0=np.mean(t**2) * np.eye(D), noise_var=t.var()
    )
    return model, {"indices": idx, "centres": centres, "scales": all_scales}
