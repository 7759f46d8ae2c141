"""Gaussian-process hyperparameters by structured kernel interpolation (Han et al. 2018, Sec. 5.2).

Negative log marginal likelihood of centred outputs ``y`` (``n`` training points):

    L(θ) = ½ yᵀ A(θ)⁻¹ y + ½ log det A(θ) + (n/2) log 2π,     A(θ) = W K Wᵀ + θ₁² I,
    K_ij = θ₂² exp(-(u_i - u_j)² / (2 θ₃²))

(KISS-GP, Wilson & Nickisch 2015): ``u`` is a regular 1-D grid of ``r`` inducing points, so
``K`` is symmetric Toeplitz and applied by FFT (circulant embedding, ``O(r log r)``), and ``W``
is the sparse ``n x r`` matrix of local cubic-convolution interpolation weights (Keys 1981,
``a = -1/2``; four non-zeros per row). ``||A||_mv = O(n + r log r)``.

Gradients: ``∂L/∂θ_i = -½ αᵀ (∂A/∂θ_i) α + ½ ∂ log det A / ∂θ_i`` with ``α = A⁻¹ y`` by CG; the
log-det part by the stochastic Chebyshev estimator (12) with ``f = log`` (SGD, Algorithm 1; all three
partial derivatives from one forward recursion, :mod:`._ski_gradient`), or
by CG + Hutchinson (LANCZOS baseline, Dong et al. 2017). ``∂A/∂θ₁ = 2θ₁ I``,
``∂A/∂θ₂ = W (2K/θ₂) Wᵀ``, ``∂A/∂θ₃ = W K' Wᵀ`` with ``K'_ij = K_ij (u_i - u_j)² / θ₃³``.

Prediction at test inputs ``x*``: ``μ* = W* K Wᵀ α`` (the SKI predictive mean).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._validation import as_finite_array, check_int, check_real, check_size, shape_checked
from .bounds import spectral_bounds
from ._ski_gradient import circulant_spectrum, ski_estimator_grad
from .lanczos import block_cg, cg_logdet_grad, lanczos_logdet_solve
from .operators import CallableOperator
from .._random import as_generator


def keys_cubic(s):
    """Keys' cubic convolution kernel (``a = -1/2``), support ``|s| < 2``."""
    s = np.abs(as_finite_array("s", s))
    out = np.zeros_like(s)
    near = s <= 1
    far = (s > 1) & (s < 2)
    out[near] = 1.5 * s[near] ** 3 - 2.5 * s[near] ** 2 + 1.0
    out[far] = -0.5 * s[far] ** 3 + 2.5 * s[far] ** 2 - 4.0 * s[far] + 2.0
    return out


def check_grid(grid):
    if not isinstance(grid, RegularGrid):
        raise TypeError(f"grid must be a RegularGrid; got {type(grid).__name__}")
    return grid


class RegularGrid:
    """``r`` equispaced points ``u_j = start + j h`` covering the data with a 1.5-spacing border each side."""

    def __init__(self, x, r: int):
        x = as_finite_array("x", x, ndim=1, nonempty=True)
        self.r = check_size("r (grid size)", r, low=5, item_bytes=8 * 4, item="grid point")
        lo, hi = float(x.min()), float(x.max())
        if hi == lo:
            hi = lo + 1.0
        self.h = (hi - lo) / (self.r - 4)
        self.start = lo - 1.5 * self.h
        self.lo, self.hi = lo, hi

    @property
    def points(self) -> np.ndarray:
        return self.start + self.h * np.arange(self.r)


def interpolation_matrix(x, grid: RegularGrid) -> sp.csr_matrix:
    """Sparse ``len(x) x r`` cubic-convolution interpolation weights onto ``grid`` (rows sum to 1)."""
    x = as_finite_array("x", x, ndim=1, nonempty=True)
    check_grid(grid)
    s = (x - grid.start) / grid.h
    i = np.floor(s).astype(int)
    if i.min() < 1 or i.max() + 2 > grid.r - 1:
        raise ValueError("x lies outside the interpolation grid (build the grid from all inputs, train and test)")
    offsets = np.arange(-1, 3)
    cols = i[:, None] + offsets[None, :]
    vals = keys_cubic(s[:, None] - cols)
    rows = np.repeat(np.arange(x.size), 4)
    return sp.csr_matrix((vals.ravel(), (rows, cols.ravel())), shape=(x.size, grid.r))


def rbf_toeplitz_column(grid: RegularGrid, signal, lengthscale) -> np.ndarray:
    """First column ``θ₂² exp(-(j h)² / (2 θ₃²))`` of the grid kernel ``K``."""
    check_grid(grid)
    signal = check_real("signal", signal)
    lengthscale = check_real("lengthscale", lengthscale, low=0.0, low_open=True)
    tau = grid.h * np.arange(grid.r)
    return signal**2 * np.exp(-(tau**2) / (2.0 * lengthscale**2))


def toeplitz_matmat(column, X) -> np.ndarray:
    """``T X`` for the symmetric Toeplitz ``T`` with first column ``column``, by FFT circulant embedding."""
    column = as_finite_array("column", column, ndim=1, nonempty=True)
    X = as_finite_array("X", X, nonempty=True)
    if X.ndim not in (1, 2) or X.shape[0] != column.size:
        raise ValueError(f"X must have shape (r,) or (r, m) with r = {column.size} (the length of column); got {X.shape}")
    return _toeplitz_matmat(column, X)


def _toeplitz_matmat(column: np.ndarray, X: np.ndarray) -> np.ndarray:
    """:func:`toeplitz_matmat` without the argument checks (inside operators)."""
    return _circulant_matmat(column.size, *circulant_spectrum(column), X)


def _circulant_matmat(r: int, n_fft: int, spectrum: np.ndarray, X: np.ndarray) -> np.ndarray:
    """``T X`` from the circulant embedding ``(n_fft, spectrum)`` of ``T`` (:func:`._ski_gradient.circulant_spectrum`):
    operators compute the spectrum once, not at every product."""
    squeeze = X.ndim == 1
    if squeeze:
        X = X[:, None]
    Y = np.fft.irfft(spectrum[:, None] * np.fft.rfft(X, n=n_fft, axis=0), n=n_fft, axis=0)[:r]
    return Y[:, 0] if squeeze else Y


def ski_operator(W, column, noise) -> CallableOperator:
    """``A = W K Wᵀ + noise² I`` as a block operator (``K`` Toeplitz with first column ``column``)."""
    if not sp.issparse(W) or W.ndim != 2:
        raise TypeError(f"W must be a scipy.sparse interpolation matrix (see interpolation_matrix); got {type(W).__name__}")
    column = as_finite_array("column", column, ndim=1, nonempty=True)
    if column.size != W.shape[1]:
        raise ValueError(f"column must have length W.shape[1] = {W.shape[1]} (the grid size); got {column.size}")
    noise = check_real("noise (a standard deviation)", noise, low=0.0)
    WT = W.T.tocsr()
    embedding = circulant_spectrum(column)

    def matmat(V):
        return W @ _circulant_matmat(column.size, *embedding, WT @ V) + noise**2 * V

    return CallableOperator(matmat, W.shape[0])


def _sandwich(W, column) -> CallableOperator:
    WT = W.T.tocsr()
    embedding = circulant_spectrum(column)
    return CallableOperator(lambda V: W @ _circulant_matmat(column.size, *embedding, WT @ V), W.shape[0])


#: products with ``A`` that one probe of SGD's stochastic Chebyshev gradient (:meth:`SKIGaussianProcess.spectral_grad`) costs per unit
#: of the degree ``n`` drawn, as measured in CPU time (sound, d = 35,000, r = 2,980, one thread, n = 15 to 60: the whole gradient
#: 1.1n to 1.3n products' time per probe, the forward recursion's n - 1 products, the derivative contraction 0.1n to 0.13n): the
#: middle of that range, so a count in products compares SGD with LANCZOS (which counts every product it makes) at its measured work
SGD_PRODUCTS_PER_DEGREE = 1.2

class SKIGaussianProcess:
    """GP regression with an SKI RBF kernel on a 1-D regular grid, in the interface of :mod:`.optim`.

    ``θ = (θ₁, θ₂, θ₃)`` = (noise std, signal std, lengthscale), kept in the box ``[low, high]``.

    Parameters
    ----------
    x, y : training inputs and outputs (1-D arrays; ``y`` is centred by its mean internally).
    r : number of grid (inducing) points.
    x_test, y_test : optional held-out points for :meth:`metric` (RMSE of the predictive mean).
    low, high : boxes for θ (3-vectors or scalars), ``low > 0``.
    cg_tol : relative CG tolerance for ``α = A⁻¹ y`` (and for the LANCZOS solves unless ``lanczos_steps``).
    alpha_tol : relative CG tolerance of the optimiser's ``α`` (:meth:`g_grad`; ``None``: ``cg_tol``), e.g. the
        authors' 1e-2 (Dong et al.'s ``demo_sound.m`` solves their ``α`` to it); :meth:`metric`'s ``α`` stays at ``cg_tol``.
    lanczos_steps : if given, the LANCZOS baseline's solves ``A⁻¹ z_k`` stop after this many Lanczos (= CG)
        iterations, as Dong et al. (2017) run a fixed number of Lanczos steps (biased when not converged);
        ``None``: iterate to ``cg_tol``.
    bound_steps, margin : Lanczos steps / safety margin of the upper spectral bound.
    dense_limit : largest ``n`` for which :meth:`objective` is computed exactly (dense Cholesky); ``nan`` above.
    """

    #: the shape of θ (noise std, signal std, lengthscale), checked by the optimisers
    shape = (3,)

    f = "log"

    def __init__(self, x, y, *, r: int, x_test=None, y_test=None, low=(1e-2, 1e-2, 1e-3), high=(10.0, 10.0, 1e3),
                 cg_tol: float = 1e-8, alpha_tol: float | None = None, lanczos_steps: int | None = None, bound_steps: int = 15, margin: float = 0.1, dense_limit: int = 4000, rng=None):
        x = as_finite_array("x", x, ndim=1)
        y = as_finite_array("y", y, ndim=1)
        if x.size != y.size:
            raise ValueError(f"x and y must have the same length; got {x.size} and {y.size}")
        self.x = x
        self.y_mean = float(y.mean())
        self.y = y - self.y_mean
        self.dim = x.size
        all_x = x if x_test is None else np.concatenate([x, as_finite_array("x_test", x_test, ndim=1)])
        self.grid = RegularGrid(all_x, r)
        self.W = interpolation_matrix(x, self.grid)
        self.WT = self.W.T.tocsr()
        if x_test is not None:
            if y_test is None:
                raise ValueError("x_test given without y_test")
            self.x_test = np.asarray(x_test, dtype=float)
            self.y_test = as_finite_array("y_test", y_test, ndim=1)
            self.W_test = interpolation_matrix(self.x_test, self.grid)
        else:
            self.x_test = self.y_test = self.W_test = None
        self.low, self.high = (self._box_side(name, v) for name, v in (("low", low), ("high", high)))
        if np.any(self.low <= 0) or np.any(self.low >= self.high):
            raise ValueError(f"need 0 < low < high for θ; got low={self.low}, high={self.high}")
        self.cg_tol = check_real("cg_tol", cg_tol, low=0.0, low_open=True)
        self.alpha_tol = self.cg_tol if alpha_tol is None else check_real("alpha_tol", alpha_tol, low=0.0, low_open=True)
        self.lanczos_steps = None if lanczos_steps is None else check_int("lanczos_steps", lanczos_steps, low=1)
        self.bound_steps = check_int("bound_steps", bound_steps, low=1)
        self.margin = check_real("margin", margin, low=0.0)
        self.dense_limit = check_int("dense_limit", dense_limit, low=0)
        self._rng = as_generator(rng)
        self._alpha_cache = self._metric_cache = (None, None)
        #: products with ``A`` or a kernel sandwich ``W T Wᵀ`` (one per column) spent by the optimisation so far: the
        #: hardware-neutral count of the dominant work (each costs ``O(n + r log r)``); :meth:`metric` adds none
        self.matvecs = 0

    @staticmethod
    def _box_side(name: str, value) -> np.ndarray:
        """A bound of the box for θ: a number or a 3-vector, finite."""
        v = as_finite_array(name, value)
        if v.shape not in ((), (1,), (3,)):
            raise ValueError(f"{name} must be a number or a 3-vector (noise, signal, lengthscale); got shape {v.shape}")
        return np.broadcast_to(v, (3,)).copy()

    # --- operators -----------------------------------------------------------------------------
    def column(self, theta) -> np.ndarray:
        return rbf_toeplitz_column(self.grid, theta[1], theta[2])

    def operator(self, theta) -> CallableOperator:
        return self._counted(ski_operator(self.W, self.column(theta), theta[0]))

    def _counted(self, op) -> CallableOperator:
        """``op`` whose every product adds its number of columns to :attr:`matvecs`."""
        def matmat(V):
            self.matvecs += 1 if np.ndim(V) == 1 else np.shape(V)[1]
            return op._matmat(V)

        return CallableOperator(matmat, op.shape[0])

    def derivative_operators(self, theta):
        """``[∂A/∂θ₁, ∂A/∂θ₂, ∂A/∂θ₃]`` as operators."""
        col = self.column(theta)
        tau2 = (self.grid.h * np.arange(self.grid.r)) ** 2
        n = self.dim
        return [
            CallableOperator(lambda V: 2.0 * theta[0] * V, n),
            self._counted(_sandwich(self.W, 2.0 * col / theta[1])),
            self._counted(_sandwich(self.W, col * tau2 / theta[2] ** 3)),
        ]

    def dense(self, theta) -> np.ndarray:
        """Dense ``A(θ)`` (small problems and tests)."""
        K = toeplitz_matmat(self.column(theta), np.eye(self.grid.r))
        return (self.W @ (self.W @ K).T).T + theta[0] ** 2 * np.eye(self.dim)

    def alpha(self, theta, tol: float | None = None) -> np.ndarray:
        """``A(θ)⁻¹ y`` by CG to the relative tolerance ``tol`` (``None``: :attr:`cg_tol`), warm-started from the previous
        solve."""
        tol = self.cg_tol if tol is None else tol
        key, prev = self._alpha_cache
        if key is not None and np.array_equal(key[0], theta) and key[1] <= tol:
            return prev
        x0 = prev if prev is not None else None
        sol, _, _ = block_cg(self.operator(theta), self.y, tol=tol, x0=x0)
        self._alpha_cache = ((np.array(theta, copy=True), tol), sol)
        return sol

    # --- the optimisation interface -------------------------------------------------------------
    def project(self, theta):
        return np.clip(theta, self.low, self.high)

    def interval(self, theta):
        col = self.column(theta)
        # rigorous cap: ||W K Wᵀ|| <= ||W||_1 ||W||_inf ||K||_inf (Toeplitz row sums)
        K_inf = col[0] + 2.0 * np.sum(np.abs(col[1:]))
        W_1 = abs(self.W).sum(axis=0).max()
        W_inf = abs(self.W).sum(axis=1).max()
        cap = theta[0] ** 2 + W_1 * W_inf * K_inf
        a = 0.99 * theta[0] ** 2  # W K Wᵀ is PSD; 1% slack for rounding in the FFT
        _, b = spectral_bounds(self.operator(theta), n_steps=self.bound_steps, margin=self.margin, lower=a, cap=cap,
                               rng=self._rng)
        return a, b

    def spectral_grad(self, theta, V, weights, a, b):
        """``½ ∇ log det A`` by the Chebyshev estimator (12) with probes ``V`` and weights: the exact
        gradient of the same polynomial estimator as recursion (6), by its adjoint and one
        cross-correlation for all three hyperparameters (:mod:`._ski_gradient`). Counted in :attr:`matvecs` as the work it
        does, per probe (``n`` the degree drawn): :data:`SGD_PRODUCTS_PER_DEGREE` ``× n`` products as MEASURED in CPU time (not the
        nominal ``n``: the ``n - 1`` products with ``A`` of the forward recursion and one for its derivative work), which applies no derivative operator: the contraction ``Σ C[j,i] w_iᵀ (∂A/∂θ) w_j``
        for ``∂A/∂θ₂``, ``∂A/∂θ₃`` is one cross-correlation in the frequency domain of the transforms ``F(Wᵀw_j)`` the forward
        products keep (the ``n``-th transform is taken for it), beside a Gram matrix of the ``w_j`` for the noise's
        ``∂A/∂θ₁ = 2θ₁ I``. Measured at sound's d = 35,000, r = 2,980, one thread: that contraction costs 0.1n to 0.13n
        products' CPU time per probe (n = 15 to 60), the whole gradient 1.1n to 1.3n; the ``2n`` sandwich products that
        the forward-mode recursion (6) would make are not made and not counted. The LANCZOS estimators count the products
        they make, with ``A`` and with each sandwich (:meth:`lanczos_spectral_grad`)."""
        n = np.asarray(weights).size - 1
        self.matvecs += SGD_PRODUCTS_PER_DEGREE * (n if n > 0 else 0) * np.shape(V)[1]
        return 0.5 * ski_estimator_grad(self, theta, V, weights, a, b)

    def lanczos_spectral_grad(self, theta, Z):
        """``½ ∇ log det A`` by CG + Hutchinson (Dong et al. 2017), probes ``Z``, at most ``lanczos_steps`` iterations.
        Counted in :attr:`matvecs`: the products it makes, the CG products with ``A`` and one product with each kernel sandwich
        ``∂A/∂θ₂``, ``∂A/∂θ₃`` per probe (each applied as a product: ``Wᵀ``, a circulant FFT pair, ``W``; the unit of
        :meth:`spectral_grad`)."""
        return 0.5 * cg_logdet_grad(self.operator(theta), self.derivative_operators(theta), Z=Z, tol=self.cg_tol,
                                    max_iter=self.lanczos_steps)

    def dong_value_and_grad(self, theta, Z, n_steps: int = 25, cg_tol: float = 1e-2):
        """The negative log marginal likelihood and its gradient as Dong et al. (2017) estimate them (their code:
        ``kd383/GPML_SLD``, ``infGrid`` with ``ldB2_method = 'lancz'``): ``α = A⁻¹ y`` by CG to the relative
        tolerance ``cg_tol`` (from zero), ``log det A`` by stochastic Lanczos quadrature and ``tr(A⁻¹ ∂A/∂θ_i)`` by
        Hutchinson with the Lanczos solves of the same ``n_steps``-step runs on the probes ``Z``
        (:func:`.lanczos.lanczos_logdet_solve`). Returns ``(value, gradient in θ)``."""
        op = self.operator(theta)
        cg_tol = check_real("cg_tol", cg_tol, low=0.0, low_open=True)
        al, _, _ = block_cg(op, self.y, tol=cg_tol)
        quad, X = lanczos_logdet_solve(op, Z, n_steps)
        grad = np.array([-0.5 * al @ D.matmat(al[:, None])[:, 0] + 0.5 * np.einsum("ij,ij->", X, D.matmat(Z)) / Z.shape[1]
                         for D in self.derivative_operators(theta)])
        value = 0.5 * float(self.y @ al) + 0.5 * float(np.mean(quad)) + 0.5 * self.dim * np.log(2 * np.pi)
        return value, grad

    def exact_spectral_grad(self, theta):
        """``½ tr(A⁻¹ ∂A/∂θ_i)`` densely (``O(n³)``; small problems only)."""
        A = self.dense(theta)
        Ainv = np.linalg.inv(A)
        eye = np.eye(self.dim)
        return np.array([0.5 * np.sum(Ainv * D.matmat(eye)) for D in self.derivative_operators(theta)])

    def g_grad(self, theta):
        """Gradient of ``½ yᵀ A⁻¹ y``: ``-½ αᵀ ∂A_i α``, ``α`` to :attr:`alpha_tol`."""
        al = self.alpha(theta, self.alpha_tol)
        return np.array([-0.5 * al @ D.matmat(al[:, None])[:, 0] for D in self.derivative_operators(theta)])

    def objective(self, theta) -> float:
        """Exact negative log marginal likelihood (dense Cholesky; small problems only)."""
        if self.dim > self.dense_limit:
            return float("nan")
        L = np.linalg.cholesky(self.dense(theta))
        z = np.linalg.solve(L, self.y)
        return float(0.5 * z @ z + np.sum(np.log(np.diag(L))) + 0.5 * self.dim * np.log(2 * np.pi))

    def predict(self, theta, x_new=None) -> np.ndarray:
        """SKI predictive mean ``W* K Wᵀ α + mean(y)`` at ``x_new`` (default: the test inputs)."""
        W_new = self.W_test if x_new is None else interpolation_matrix(np.asarray(x_new, float), self.grid)
        if W_new is None:
            raise ValueError("no test inputs: pass x_new")
        return W_new @ toeplitz_matmat(self.column(theta), self.WT @ self.alpha(theta)) + self.y_mean

    def metric(self, theta) -> float:
        """Test RMSE of the predictive mean (``nan`` without test data). An evaluation, not the optimiser's work: it
        leaves :attr:`matvecs` and the warm start of :meth:`alpha` as they were (the next gradient solves for itself)."""
        if self.y_test is None:
            return float("nan")
        state = self.matvecs, self._alpha_cache
        self._alpha_cache = self._metric_cache        # the evaluations warm-start from each other, not from the optimiser
        try:
            return float(np.sqrt(np.mean((self.predict(theta) - self.y_test) ** 2)))
        finally:
            self._metric_cache = self._alpha_cache
            self.matvecs, self._alpha_cache = state


class LogHyperparameters:
    """The problem of a :class:`SKIGaussianProcess` ``gp`` in ``φ = log θ`` (GPML's parameterisation of positive
    hyperparameters, the one Dong et al.'s optimiser steps in): ``θ = exp φ``, ``∂L/∂φ = θ ∘ ∂L/∂θ``, the box
    ``[log low, log high]`` (the same box as ``gp``'s in ``θ``). A projected step ``φ - η ĝ_φ`` changes every
    hyperparameter by a relative amount, whatever its scale. The interface of :mod:`.optim` (``x`` of a result is
    ``φ``; :meth:`theta` maps back); :attr:`matvecs` is ``gp``'s."""

    shape = (3,)
    f = "log"

    def __init__(self, gp):
        if not isinstance(gp, SKIGaussianProcess):
            raise TypeError(f"gp must be a SKIGaussianProcess; got {type(gp).__name__}")
        self.gp, self.dim = gp, gp.dim
        self.low, self.high = np.log(gp.low), np.log(gp.high)

    @property
    def matvecs(self) -> int:
        return self.gp.matvecs

    @staticmethod
    def theta(phi) -> np.ndarray:
        return np.exp(np.asarray(phi, dtype=float))

    def project(self, phi):
        return np.clip(phi, self.low, self.high)

    def interval(self, phi):
        return self.gp.interval(self.theta(phi))

    def spectral_grad(self, phi, V, weights, a, b):
        th = self.theta(phi)
        return th * self.gp.spectral_grad(th, V, weights, a, b)

    def lanczos_spectral_grad(self, phi, Z):
        th = self.theta(phi)
        return th * self.gp.lanczos_spectral_grad(th, Z)

    def g_grad(self, phi):
        th = self.theta(phi)
        return th * self.gp.g_grad(th)

    def objective(self, phi) -> float:
        return self.gp.objective(self.theta(phi))

    def metric(self, phi) -> float:
        return self.gp.metric(self.theta(phi))


# issue 29: a wrong-shaped θ is refused by name (not an IndexError deep inside)
shape_checked(SKIGaussianProcess, "column", "operator", "derivative_operators", "dense", "alpha", "project",
              "interval", "spectral_grad", "lanczos_spectral_grad", "dong_value_and_grad", "exact_spectral_grad", "g_grad", "objective",
              "predict", "metric")
