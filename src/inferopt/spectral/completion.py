"""Matrix completion by the smoothed nuclear norm (Han et al. 2018, Sec. 5.1).

    min_{θ ∈ [low, high]^{d x r}}  tr((θθᵀ + εI)^{1/2}) + λ Σ_{(i,j) ∈ Ω} (θ_ij - R_ij)²

``θ`` is the completed ``d x r`` rating matrix itself (``d`` items, ``r`` users for MovieLens,
ratings in ``[0, 5]``); ``R`` is known on the observed set ``Ω``. ``tr((θθᵀ+εI)^{1/2})`` is a
smoothed nuclear norm of ``θ``. Quality is the RMSE of ``θ`` on held-out ratings,
``sqrt(mean_{(i,j) ∈ test} (θ_ij - R_ij)²)``.

The spectral term uses ``f = sqrt`` on ``[ε, b]``: ``A = θθᵀ + εI`` has ``λ_min >= ε`` and
``b`` is a Lanczos estimate of ``λ_max`` with a safety margin, capped by the rigorous
``ε + ||θ||_F²`` and rounded up to a geometric grid (ratio ``2^{1/8}``) so that the
Chebyshev series is reused across iterations. Its stochastic gradient is the amortised
adjoint form (:func:`.gradients.grad_lowrank`); the exact one (GD, SVRG snapshots) is
``∇_θ tr f(θθᵀ + εI) = 2 f'(θθᵀ + εI) θ = 2 θ f'(θᵀθ + εI)`` from the eigen-decomposition of the
smaller Gram matrix (``O(d r min(d, r))``, cheaper than an SVD of ``θ``).
"""

from __future__ import annotations

import numpy as np
import scipy.optimize

from .._validation import as_finite_array, check_indices, check_int, check_real, shape_checked
from .bounds import spectral_bounds
from .gradients import grad_lowrank
from .operators import LowRankShiftOperator
from .._random import as_generator


def rmse(theta, rows, cols, values) -> float:
    """Root-mean-square error of ``θ[rows, cols]`` against ``values``."""
    theta = as_finite_array("theta", theta, ndim=2, nonempty=True)
    rows = check_indices("rows", rows, theta.shape[0], distinct=False)
    cols = check_indices("cols", cols, theta.shape[1], distinct=False)
    values = as_finite_array("values", values, ndim=1, nonempty=True)
    if not rows.shape == cols.shape == values.shape:
        raise ValueError(f"rows, cols and values must have the same length; got {rows.size}, {cols.size}, {values.size}")
    return float(np.sqrt(np.mean((theta[rows, cols] - values) ** 2)))


def _round_up_geometric(x: float, ratio: float = 2.0 ** 0.125) -> float:
    return float(ratio ** np.ceil(np.log(x) / np.log(ratio)))


class MatrixCompletion:
    """The problem of Sec. 5.1, in the interface of :mod:`.optim`.

    Parameters
    ----------
    rows, cols, values : observed entries ``R_ij`` (``Ω``), integer index arrays and ratings.
    shape : ``(d, r)`` of ``θ``.
    lam : weight ``λ > 0`` of the data term; eps : smoothing ``ε > 0``.
    low, high : the box ``C = [low, high]^{d x r}`` (``[0, 5]`` in the paper).
    test : optional ``(rows, cols, values)`` of held-out ratings for :meth:`metric` (RMSE).
    bound_steps, margin : Lanczos steps and safety margin for the upper spectral bound.
    rng : seed or Generator for the Lanczos start vectors.
    """

    f = "sqrt"
    #: the optimisers hand this problem read-only iterates where work at one is reused (:mod:`.optim`): the Gram
    #: matrix and its eigenvalues of the last frozen iterate an exact gradient was taken at (:meth:`_at_frozen`)
    frozen_iterates = True

    def __init__(self, rows, cols, values, shape, *, lam=1.0, eps=1.0, low=0.0, high=5.0, test=None,
                 bound_steps: int = 10, margin: float = 0.1, rng=None):
        if np.ndim(shape) != 1 or len(shape) != 2:
            raise ValueError(f"shape must be a pair (d, r); got {shape!r}")
        d = check_int("shape[0] (d)", shape[0], low=1)
        r = check_int("shape[1] (r)", shape[1], low=1)
        self.shape = (d, r)
        self.dim = d
        self.rows, self.cols, self.values = self._check_entries("observed", rows, cols, values)
        if len(set(zip(self.rows.tolist(), self.cols.tolist()))) != self.rows.size:
            raise ValueError("observed entries must not repeat an index pair (i, j)")
        #: the observed entries' positions in θ's C-order flattening (``i r + j``): one gather / scatter per step on a flat
        #: view instead of a 2-D fancy index (which recomputes these positions at every call), the same numbers bit for bit
        self._flat = np.ravel_multi_index((self.rows, self.cols), self.shape)
        self.test = None if test is None else self._check_entries("test", *test)
        self.lam = check_real("lam", lam, low=0.0, low_open=True)
        self.eps = check_real("eps", eps, low=0.0, low_open=True)
        self.low = check_real("low", low)
        self.high = check_real("high", high)
        if not self.low < self.high:
            raise ValueError(f"need low < high; got low={low}, high={high}")
        self.bound_steps = check_int("bound_steps", bound_steps, low=1)
        self.margin = check_real("margin", margin, low=0.0)
        self._rng = as_generator(rng)
        self._frozen = None   # (θ, Gram, eigenvalues, small_right) of the last frozen θ of exact_spectral_grad

    def __getstate__(self):   # a pickled problem (sent to a worker) carries no cached iterate
        state = self.__dict__.copy()
        state["_frozen"] = None
        return state

    def _check_entries(self, what, rows, cols, values):
        rows = np.asarray(rows)
        cols = np.asarray(cols)
        values = as_finite_array(f"{what} values", values, ndim=1)
        if not (rows.shape == cols.shape == values.shape):
            raise ValueError(f"{what} rows, cols and values must have the same length")
        if rows.size == 0:
            raise ValueError(f"{what} entries must not be empty")
        if not (np.issubdtype(rows.dtype, np.integer) and np.issubdtype(cols.dtype, np.integer)):
            raise ValueError(f"{what} rows and cols must be integer indices")
        d, r = self.shape
        if rows.min() < 0 or rows.max() >= d:
            raise ValueError(f"{what} rows out of range: must be in [0, {d - 1}] for shape {self.shape}; got {rows.min()}..{rows.max()}")
        if cols.min() < 0 or cols.max() >= r:
            raise ValueError(f"{what} cols out of range: must be in [0, {r - 1}] for shape {self.shape}; got {cols.min()}..{cols.max()}")
        return rows, cols, values

    # --- the optimisation interface ---------------------------------------------------------
    def project(self, theta):
        return np.clip(theta, self.low, self.high)

    def interval(self, theta):
        op = LowRankShiftOperator(theta, self.eps)
        flat = theta.reshape(-1)
        cap = self.eps + float(np.dot(flat, flat))   # ε + ||θ||_F² without a d x r temporary
        if cap <= self.eps * (1 + 1e-12):
            return self.eps, _round_up_geometric(2 * self.eps)
        _, b = spectral_bounds(op, n_steps=self.bound_steps, margin=self.margin, lower=self.eps, cap=cap, rng=self._rng)
        return self.eps, _round_up_geometric(max(b, 1.001 * self.eps))

    def spectral_grad(self, theta, V, weights, a, b):
        """The estimator's gradient (:func:`.gradients.grad_lowrank`). At the frozen iterate of the last exact
        gradient (SVRG's snapshot ``θ̃``, whose ``ψ(θ̃)`` every inner step takes) with ``d <= r``, its products
        ``A w = θ(θᵀw) + εw`` use the kept ``d x d`` Gram matrix ``θθᵀ`` instead: one pass over ``d²`` numbers
        instead of two over ``dr`` (the same estimator, equal up to round-off)."""
        kept = self._at_frozen(theta)
        gram = kept[1] if kept is not None and not kept[3] else None
        return grad_lowrank(theta, self.eps, V, weights, a, b, gram=gram)

    @staticmethod
    def _small_gram(theta):
        """The smaller Gram matrix (``θᵀθ`` if ``r <= d``, else ``θθᵀ``; ``O(d r min(d, r))``) and which one it is."""
        small_right = theta.shape[1] <= theta.shape[0]
        return (theta.T @ theta if small_right else theta @ theta.T), small_right

    @staticmethod
    def _is_frozen(theta) -> bool:
        """A read-only array owning its data: nothing changes it unless its owner sets it writeable again."""
        return isinstance(theta, np.ndarray) and not theta.flags.writeable and theta.flags.owndata

    def _at_frozen(self, theta):
        """``(θ, Gram, eigenvalues, small_right)`` kept by :meth:`exact_spectral_grad` if ``theta`` is that very
        frozen array (still read-only), else ``None``."""
        kept = self._frozen
        return kept if kept is not None and kept[0] is theta and self._is_frozen(theta) else None

    def exact_spectral_grad(self, theta):
        """``∇_θ tr (θθᵀ + εI)^{1/2} = (θθᵀ + εI)^{-1/2} θ = θ (θᵀθ + εI)^{-1/2}`` (push-through identity),
        from the eigen-decomposition of the smaller Gram matrix; ``S = W Wᵀ`` with ``W = U (Λ + ε)^{-1/4}``
        (a symmetric rank-k product: half the work of ``(U (Λ + ε)^{-1/2}) Uᵀ``).

        At a frozen ``θ`` (read-only, owning its data: GD's iterates and SVRG's snapshots, :mod:`.optim`) the Gram
        matrix and its eigenvalues are kept for later calls at the same array: :meth:`spectral_term` (GD's
        evaluation of the objective at ``θ``, deferred past the gradient) and :meth:`spectral_grad` (``ψ(θ̃)``)."""
        return self._exact_grad_and_eigenvalues(theta)[0]

    def _exact_grad_and_eigenvalues(self, theta):
        if not theta.any():     # θ = 0 (every run's start, SVRG's first snapshot): the gradient (εI)^{-1/2} 0 = 0
            self._frozen = None
            return np.zeros_like(theta), np.zeros(min(self.shape))
        gram, small_right = self._small_gram(theta)
        lam, U = np.linalg.eigh(gram)
        lam = np.maximum(lam, 0.0)
        self._frozen = (theta, gram, lam, small_right) if self._is_frozen(theta) else None
        W = U * (lam + self.eps) ** -0.25
        S = W @ W.T
        return (theta @ S if small_right else S @ theta), lam

    def _spectral_term_of(self, lam) -> float:
        return float(np.sum(np.sqrt(lam + self.eps)) + (self.shape[0] - lam.size) * np.sqrt(self.eps))

    def _observed(self, theta):
        """``θ_ij`` on ``Ω``, gathered at :attr:`_flat` (``np.take`` reads ``θ`` in C order whatever its layout)."""
        return np.take(theta, self._flat)

    def g(self, theta) -> float:
        return float(self.lam * np.sum((self._observed(theta) - self.values) ** 2))

    def g_grad(self, theta):
        out = np.zeros(theta.shape, dtype=theta.dtype)   # C order: its flat view is itself
        out.reshape(-1)[self._flat] = 2.0 * self.lam * (self._observed(theta) - self.values)
        return out

    def descent_step(self, theta, eta, direction):
        """``Π_C(θ - η (direction + ∇g(θ)))``, the projected step of :mod:`.optim`, computed in the storage of
        ``direction`` (which the optimiser hands over: it is overwritten and returned).

        ``∇g(θ) = 2λ (θ_ij - R_ij)`` is zero off ``Ω``, so it is added on the observed entries only, and the
        step and the clip to ``[low, high]`` run in place: no ``d x r`` temporaries (each one a fresh 179 MB
        at the paper's 3,706 x 6,040, paged in by the kernel). The same operations in the same order as
        ``project(theta - eta * (direction + g_grad(theta)))``, bit for bit (off ``Ω`` the sum with ``g``'s
        zeros is skipped: it only turns a ``-0.0`` into ``+0.0``).
        """
        direction = np.asarray(direction)
        if (direction.shape != theta.shape or direction.dtype != np.float64 or not direction.flags.writeable
                or not direction.flags.c_contiguous):
            direction = np.array(direction, dtype=float, order="C")   # not ours to overwrite in place (or no flat view of it)
        flat = direction.reshape(-1)   # a view: C-contiguous
        flat[self._flat] += 2.0 * self.lam * (self._observed(theta) - self.values)
        direction *= eta
        np.subtract(theta, direction, out=direction)
        return np.clip(direction, self.low, self.high, out=direction)

    def spectral_term(self, theta) -> float:
        """Exact ``tr((θθᵀ + εI)^{1/2}) = Σ sqrt(σ_i² + ε) + (d - min(d, r)) sqrt(ε)`` (Gram eigenvalues ``σ_i²``)."""
        kept = self._at_frozen(theta)
        if kept is not None:    # the eigenvalues of the exact gradient at this frozen θ (eigh's, not eigvalsh's)
            lam = kept[2]
        elif not theta.any():   # θ = 0 (every run's start): the Gram matrix is 0, its eigenvalues exactly 0
            lam = np.zeros(min(self.shape))
        else:
            lam = np.maximum(np.linalg.eigvalsh(self._small_gram(theta)[0]), 0.0)  # eigenvalues only: no eigenvectors
        return self._spectral_term_of(lam)

    def objective(self, theta) -> float:
        return self.spectral_term(theta) + self.g(theta)

    def value_and_grad(self, theta):
        """``(F(θ), ∇F(θ))`` of the whole objective from ONE eigen-decomposition of the smaller Gram matrix
        (:meth:`exact_spectral_grad`'s; :meth:`objective` alone would take a second one)."""
        grad, lam = self._exact_grad_and_eigenvalues(theta)
        grad += self.g_grad(theta)
        return self._spectral_term_of(lam) + self.g(theta), grad

    def metric(self, theta) -> float:
        """Test RMSE (``nan`` without test entries)."""
        return rmse(theta, *self.test) if self.test is not None else float("nan")


def reference_solution(problem: MatrixCompletion, *, max_iter: int = 3000, gtol: float = 1e-9, theta0=None):
    """The minimiser of the exact objective over the box by L-BFGS-B (scipy), from ``θ = 0`` (or ``theta0``, a
    warm start: the minimiser does not depend on it, only the work to find it): an
    independent solver of the problem the stochastic methods attack (the objective is convex:
    ``tr((θθᵀ+εI)^{1/2})`` is the nuclear norm of ``[θ, √ε I]``), to read how far a run ends from the
    optimum and what test RMSE the model reaches there.

    Returns ``(θ*, info)`` with ``info = {objective, n_iter, converged, message}``.
    """
    if not isinstance(problem, MatrixCompletion):
        raise TypeError(f"problem must be a MatrixCompletion; got {type(problem).__name__}")
    max_iter = check_int("max_iter", max_iter, low=1)
    gtol = check_real("gtol", gtol, low=0.0, low_open=True)
    shape = problem.shape

    def fun(x):
        value, grad = problem.value_and_grad(x.reshape(shape))
        return value, grad.ravel()

    size = shape[0] * shape[1]
    start = np.zeros(size) if theta0 is None else problem.project(as_finite_array("theta0", theta0)).reshape(-1)
    if start.size != size:
        raise ValueError(f"theta0 must have the problem's shape {shape}; got {np.shape(theta0)}")
    res = scipy.optimize.minimize(fun, start, jac=True, method="L-BFGS-B",
                                  bounds=scipy.optimize.Bounds(np.full(size, problem.low), np.full(size, problem.high)),
                                  options={"maxiter": max_iter, "maxfun": 2 * max_iter, "ftol": 1e-14, "gtol": gtol})
    theta = res.x.reshape(shape)
    return theta, {"objective": problem.objective(theta), "n_iter": int(res.nit), "converged": bool(res.success),
                   "message": str(res.message)}


# issue 29: a wrong-shaped θ is refused by name (not an IndexError deep inside)
shape_checked(MatrixCompletion, "project", "interval", "spectral_grad", "exact_spectral_grad", "g", "g_grad",
              "descent_step", "spectral_term", "objective", "value_and_grad", "metric")
