"""Bayesian generalised linear models shared by the coreset and boosting-VI papers.

Both models take a design matrix ``Z`` of shape ``(n, D)`` whose rows are the covariates
``z_n = [x_n, 1]`` *with* the intercept column already appended by the caller
(Zhang et al. 2021, Sec. 5.3 and App. G; Dresdner et al. 2021, Sec. 6), and a Gaussian
prior ``θ ~ N(0, σ² I)`` (``prior_var = σ²``, default 1 as in both papers).

* :class:`LogisticRegression` -- ``y_n ∈ {−1, +1}``,
  ``p(y_n | θ) = σ(y_n z_nᵀθ)`` (the Bernoulli model of Zhang et al. 2021, Sec. 5.3;
  Dresdner et al. 2021, Sec. 6), evaluated as ``−logaddexp(0, −y_n η_n)``.
* :class:`PoissonRegression` -- ``y_n ∈ {0, 1, 2, ...}``,
  ``y_n | θ ~ Poisson(λ_n)`` with ``λ_n = log(1 + exp(z_nᵀθ))`` (softplus link).
  The appendix of Zhang et al. (App. G) prints ``log(1 + e^{−z_nᵀθ})``; we use the
  ``+`` sign of the code the experiment comes from (Campbell & Broderick's
  ``bayesian-coresets``, ``examples/common/model_poiss.py``: the synthetic data are drawn
  with rate ``np.log1p(np.exp(X.dot(theta)))`` and the Stan model uses
  ``f = -log_inv_logit(-(x*theta))`` = ``log(1 + e^{xᵀθ})``), which makes the rate
  *increase* with ``z_nᵀθ`` as in ordinary Poisson regression. The two conventions are the
  same model with ``θ ↦ −θ`` (the prior is symmetric), so only the sign of the synthetic
  ``θ = [1, 0]`` depends on it.

Every method is vectorised over a batch of parameters ``θ`` of shape ``(S, D)`` (a 1-d
``θ`` of length ``D`` gives unbatched outputs):

* ``loglik(theta)``         -- ``(S, n)`` per-datum log-likelihoods ``log p(y_n | θ_s)``;
* ``log_prior(theta)``      -- ``(S,)`` ``log N(θ_s; 0, σ²I)``;
* ``log_joint(theta, w)``   -- ``(S,)`` ``Σ_n w_n log p(y_n | θ_s) + log p(θ_s)`` (``w = 1`` default);
* ``grad_log_joint(theta, w)`` -- ``(S, D)`` its gradient in ``θ``;
* ``hess_log_joint(theta, w)`` -- ``(D, D)`` its Hessian at one ``θ``.

Memory: the sums over data in ``log_joint``/``grad_log_joint`` are formed in blocks of
data so that no intermediate exceeds :data:`CHUNK_ELEMENTS` floats (``S × block`` entries,
512 KB: the elementwise passes over a block stay in a core's cache); ``loglik`` returns the full
``(S, n)`` matrix by contract. There is no Python loop over single data points.

Fixed order (issue 40): ``loglik``, ``hess_log_joint`` and the functions of ``neg_log_joint_fns`` (the
Laplace approximation's Newton search) form their products with :mod:`inferopt._fixed_order` (``np.einsum``),
not BLAS, whose kernel -- chosen per processor -- changes their last bits: a coreset problem's ``Φ`` is
built from them (:class:`~inferopt.coresets.glm_problem.GLMCoresetProblem`) and IHT amplifies its last
bits. ``log_joint``, ``grad_log_joint`` and ``log_joint_and_grad`` (boosting's inner loop) use BLAS.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit, gammaln

from .. import _fixed_order as fixed
from .._validation import as_finite_array, as_rows, check_real

#: largest number of float64 entries of an ``S × block`` intermediate (2**16 = 512 KB): small enough for the
#: transcendental passes over a block (``log σ``, its derivative) to run in a core's cache, 1.4-1.8x faster than
#: blocks of 2**22 (32 MB) at 100-200 draws (issue 46; ``benchmarks/README.md``)
CHUNK_ELEMENTS = 2**16
LOG2PI = float(np.log(2.0 * np.pi))


def _softplus(eta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(log(1 + e^η), η < −30)``: the Poisson rate and where it is below 1e-13 (then ``≈ e^η``).
    ``log(1 + e^η) = max(η, 0) + log(1 + e^{−|η|})``, in place: what ``np.logaddexp(0, η)`` computes, in a
    third of its time (SparseVI's gradient draws evaluate it on every datum at every step)."""
    sp = np.abs(eta)
    np.negative(sp, out=sp)
    np.exp(sp, out=sp)
    np.log1p(sp, out=sp)
    sp += np.maximum(eta, 0.0)
    return sp, eta < -30.0


def _log_softplus(eta: np.ndarray, sp: np.ndarray, small: np.ndarray) -> np.ndarray:
    """``log(log(1 + e^η))`` without underflow (``sp, small = _softplus(eta)``): ``≈ η`` where ``small``.
    One logarithm over every entry, then ``η`` copied in where ``small`` (rare: ``η < −30``), the numbers of
    ``where(small, η, log(where(small, 1, sp)))`` without its two full-size ``where`` passes (issue 46)."""
    with np.errstate(divide="ignore"):   # log(0) = -inf only where small (e^η underflowed), overwritten below
        out = np.log(sp)
    if small.any():
        np.copyto(out, eta, where=small)
    return out


def _sigmoid_over_softplus(eta: np.ndarray, sp: np.ndarray, small: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``σ(η) / log(1 + e^η)`` (``s = σ(η)``), which tends to 1 as ``η → −∞`` (both ``≈ e^η``)."""
    return np.where(small, 1.0, s / np.where(small, 1.0, sp))


class _GLM:
    """Common machinery: argument checks, batching, chunking and the Gaussian prior.

    Subclasses supply the per-datum terms as functions of the linear predictor
    ``η = Zθ``: ``_ll(eta, y)``, ``_dll(eta, y)`` (first derivative in ``η``) and
    ``_d2ll(eta, y)`` (second derivative), all elementwise.
    """

    def __init__(self, Z, y, prior_var: float = 1.0):
        self.Z = as_finite_array("Z", Z, ndim=2)
        self.n, self.D = self.Z.shape
        if self.n == 0 or self.D == 0:
            raise ValueError(f"Z must have at least one row and one column; got shape {self.Z.shape}")
        y = as_finite_array("y", y, ndim=1)
        if y.shape[0] != self.n:
            raise ValueError(f"y must have length n = {self.n} (rows of Z); got {y.shape[0]}")
        self.y = self._check_labels(y)
        self.prior_var = check_real("prior_var", prior_var, low=0.0, low_open=True)
        self._log_prior_const = 0.5 * self.D * (LOG2PI + np.log(self.prior_var))    # −log N(0; 0, σ²I)

    # -- subclasses -------------------------------------------------------------------
    def _check_labels(self, y: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _ll(self, eta, y):  # pragma: no cover - abstract
        raise NotImplementedError

    def _dll(self, eta, y):  # pragma: no cover - abstract
        raise NotImplementedError

    def _d2ll(self, eta, y):  # pragma: no cover - abstract
        raise NotImplementedError

    # -- argument handling ------------------------------------------------------------
    def _theta(self, theta) -> tuple[np.ndarray, bool]:
        th = as_finite_array("theta", theta)
        if th.ndim not in (1, 2) or th.shape[-1] != self.D:
            raise ValueError(f"theta must have shape (D,) or (S, D) with D = {self.D}; got {th.shape}")
        single = th.ndim == 1
        return np.atleast_2d(th), single

    def _weights(self, w) -> np.ndarray | None:
        if w is None:
            return None
        w = as_finite_array("w", w, ndim=1)
        if w.shape[0] != self.n:
            raise ValueError(f"w must have length n = {self.n}; got {w.shape[0]}")
        if np.any(w < 0):
            raise ValueError("w must be non-negative")
        return w

    def distinct(self, w=None) -> tuple[_GLM, np.ndarray]:
        """The model on its distinct data pairs ``(z_n, y_n)``, each once (in ``np.unique``'s order), and their
        weights ``w'`` (each pair's count, or the sum of its ``w``): ``log_joint(θ, w')`` of that model is
        :meth:`log_joint` ``(θ, w)`` of this one up to the order of the sum over data (rounding), and so is the
        gradient; a pass over data with repeated rows (one-hot features) costs one row per distinct pair."""
        w = self._weights(w)
        pairs, inverse = np.unique(np.column_stack([self.Z, self.y]), axis=0, return_inverse=True)
        merged = type(self)(pairs[:, :-1], pairs[:, -1], prior_var=self.prior_var)
        return merged, np.bincount(inverse.ravel(), weights=w, minlength=len(pairs)).astype(float)

    def _blocks(self, S: int):
        step = max(1, CHUNK_ELEMENTS // max(S, 1))
        for start in range(0, self.n, step):
            yield slice(start, min(start + step, self.n))

    # -- public -----------------------------------------------------------------------
    def loglik(self, theta) -> np.ndarray:
        """Per-datum log-likelihoods ``log p(y_n | θ_s)``: shape ``(S, n)`` (``(n,)`` for 1-d θ)."""
        th, single = self._theta(theta)
        out = self._ll(fixed.matmul(th, self.Z.T), self.y[None, :])   # fixed order: Φ's draws (module docstring)
        return out[0] if single else out

    def log_prior(self, theta) -> np.ndarray:
        """``log N(θ; 0, σ² I)``: shape ``(S,)`` (a float for 1-d θ)."""
        th, single = self._theta(theta)
        out = self._log_prior(th)
        return float(out[0]) if single else out

    def _log_prior(self, th: np.ndarray) -> np.ndarray:
        """:meth:`log_prior` of a checked ``(S, D)`` batch."""
        return -0.5 * (th**2).sum(axis=1) / self.prior_var - self._log_prior_const

    def log_joint(self, theta, w=None) -> np.ndarray:
        """``Σ_n w_n log p(y_n | θ) + log p(θ)`` (the weighted/coreset log posterior up to a
        constant, Zhang et al. 2021 Eq. (1)); ``w = None`` means all ones."""
        th, single = self._theta(theta)
        w = self._weights(w)
        total = np.zeros(th.shape[0])
        for b in self._blocks(th.shape[0]):
            ll = self._ll(th @ self.Z[b].T, self.y[None, b])
            total += ll.sum(axis=1) if w is None else ll @ w[b]
        total += self.log_prior(th)
        return float(total[0]) if single else total

    def grad_log_joint(self, theta, w=None) -> np.ndarray:
        """Gradient of :meth:`log_joint` in ``θ``: ``Σ_n w_n ℓ'(η_n) z_n − θ/σ²``; shape ``(S, D)``."""
        th, single = self._theta(theta)
        w = self._weights(w)
        g = -th / self.prior_var
        for b in self._blocks(th.shape[0]):
            d = self._dll(th @ self.Z[b].T, self.y[None, b])
            if w is not None:
                d = d * w[b]
            g = g + d @ self.Z[b]
        return g[0] if single else g

    def log_joint_and_grad(self, theta, w=None) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`log_joint` and :meth:`grad_log_joint` in one pass over the data (the linear
        predictor and the shared transcendental terms are computed once per block)."""
        th, single = self._theta(theta)
        total, g = self._log_joint_and_grad(th, self._weights(w))
        return (float(total[0]), g[0]) if single else (total, g)

    def log_joint_and_grad_fn(self, w=None):
        """:meth:`log_joint_and_grad` as a function of a 2-d ``θ`` of shape ``(S, D)`` that the caller has
        checked (finite, ``D`` columns), with ``w`` checked here once: the inner loop of boosting's greedy
        step, one call per Adam step (as :meth:`neg_log_joint_fns` for an optimiser)."""
        w = self._weights(w)
        return lambda th: self._log_joint_and_grad(th, w)

    def _log_joint_and_grad(self, th: np.ndarray, w: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """``(Σ_n w_n ℓ(η_n) + log p(θ), Σ_n w_n ℓ'(η_n) z_n − θ/σ²)`` for checked ``θ`` (S, D) and ``w``."""
        total = self._log_prior(th)
        g = -th / self.prior_var
        one = th.shape[0] == 1      # one draw (the authors' greedy step): matrix-vector products, 2-4x faster than (1, D) @ (D, n)
        for b in self._blocks(th.shape[0]):
            eta = (self.Z[b] @ th[0])[None] if one else th @ self.Z[b].T
            ll, d = self._ll_and_dll(eta, self.y[None, b])
            if w is None:
                total = total + ll.sum(axis=1)
            else:
                total = total + ll @ w[b]
                d = d * w[b]
            g = g + ((d[0] @ self.Z[b])[None] if one else d @ self.Z[b])
        return total, g

    def _ll_and_dll(self, eta, y):
        return self._ll(eta, y), self._dll(eta, y)

    def hess_log_joint(self, theta, w=None) -> np.ndarray:
        """Hessian of :meth:`log_joint` at one ``θ`` (1-d, length ``D``):
        ``Zᵀ diag(w ⊙ ℓ''(η)) Z − I/σ²``, shape ``(D, D)``."""
        th, single = self._theta(theta)
        if not single:
            raise ValueError(f"theta must be 1-dimensional (one parameter) for the Hessian; got shape {th.shape}")
        return self._hess(th[0], self._weights(w))

    def _hess(self, theta, w):
        """:meth:`hess_log_joint` at a checked 1-d ``θ`` and checked weights."""
        c = self._d2ll(fixed.matvec(self.Z, theta), self.y)
        if w is not None:
            c = c * w
        H = fixed.matmul((self.Z * c[:, None]).T, self.Z)
        H.flat[:: self.D + 1] -= 1.0 / self.prior_var
        return 0.5 * (H + H.T)

    def neg_log_joint_fns(self, w=None):
        """``(f, grad, hess)`` of ``−log_joint`` at one 1-d ``θ`` of length ``D``, for optimisers
        (:func:`~inferopt.models.laplace_approximation`, ``scipy.optimize.minimize``): the weights
        are checked once here and ``θ`` not at all (a third of a small Laplace fit's time went
        to re-checking them at every call). The values are those of :meth:`log_joint`,
        :meth:`grad_log_joint` and :meth:`hess_log_joint` up to rounding, summed in fixed order
        (module docstring)."""
        w = self._weights(w)
        Z, y, prec = self.Z, self.y, 1.0 / self.prior_var
        const = self._log_prior_const

        def f(theta):
            ll = self._ll(fixed.matvec(Z, theta), y)
            return -(float(ll.sum()) if w is None else fixed.dot(ll, w)) + 0.5 * prec * fixed.dot(theta, theta) + const

        def grad(theta):
            d = self._dll(fixed.matvec(Z, theta), y)
            return prec * theta - fixed.matvec(Z.T, d if w is None else d * w)

        return f, grad, lambda theta: -self._hess(theta, w)


class LogisticRegression(_GLM):
    """Bayesian logistic regression, labels ``±1``: ``log p(y|θ) = −log(1 + e^{−y zᵀθ})``.

    ``ℓ'(η) = y σ(−yη)``, ``ℓ''(η) = −σ(η)σ(−η)`` (log-concave, so the posterior is
    unimodal). Zhang et al. 2021 Sec. 5.3; Dresdner et al. 2021 Sec. 6.
    """

    def _check_labels(self, y):
        if not np.all(np.abs(y) == 1.0):
            bad = np.unique(y[np.abs(y) != 1.0])[:5]
            raise ValueError(f"y must contain only labels -1 and +1; found e.g. {bad.tolist()}")
        return y

    def _ll(self, eta, y):
        # log σ(m) = min(m, 0) − log(1 + e^{−|m|}), m = yη: one exponential and one logarithm, in place
        # (np.logaddexp costs about twice as much; the boosting evaluations' hot path)
        m = np.multiply(y, eta)
        ll = np.minimum(m, 0.0)
        np.abs(m, out=m)
        np.negative(m, out=m)
        np.exp(m, out=m)
        ll -= np.log1p(m, out=m)
        return ll

    def _dll(self, eta, y):
        return y * expit(-y * eta)

    def _d2ll(self, eta, y):
        return -expit(eta) * expit(-eta)

    def _ll_and_dll(self, eta, y):
        # m = yη; log σ(m) = min(m, 0) − log(1 + e^{−|m|}) (absolute error ≤ 2⁻⁵³ per term) and
        # σ(−m) = 1/(1 + e^{m}) (e^{m} = ∞ gives the limit 0): two exponentials, no masks, in
        # place -- the hot path of boosting's greedy step (benchmarks/boosting.py)
        m = np.multiply(y, eta)
        ll = np.minimum(m, 0.0)
        e = np.abs(m)
        np.negative(e, out=e)
        np.exp(e, out=e)
        e += 1.0
        ll -= np.log(e, out=e)
        with np.errstate(over="ignore"):
            s = np.exp(m, out=m)
        s += 1.0
        return ll, np.divide(y, s, out=s)

    def predict_proba(self, theta, Z=None) -> np.ndarray:
        """``P(y = +1 | z, θ) = σ(zᵀθ)`` for the rows of ``Z`` (default the training design)."""
        th, single = self._theta(theta)
        Z = self.Z if Z is None else as_rows("Z", Z, self.D)
        p = expit(th @ Z.T)
        return p[0] if single else p


class PoissonRegression(_GLM):
    """Bayesian Poisson regression with softplus rate ``λ = log(1 + e^{zᵀθ})``:
    ``log p(y|θ) = y log λ − λ − log y!`` (sign convention: see the module docstring).

    With ``s = σ(η)`` (``= dλ/dη``) and ``r = s/λ``: ``ℓ'(η) = y r − s`` and
    ``ℓ''(η) = y r(1 − s) − y r² − s(1 − s)``; ``r`` is evaluated stably for ``η → −∞``.
    Log-concave in ``θ`` (softplus is convex and log-concave and ``y >= 0``).
    """

    def _check_labels(self, y):
        if np.any(y < 0) or not np.all(y == np.round(y)):
            raise ValueError("y must contain non-negative integer counts")
        return y

    def _ll(self, eta, y):
        return self._ll_at(eta, y, *_softplus(eta))

    @staticmethod
    def _ll_at(eta, y, lam, small):
        """``ℓ(η) = y log λ − λ − log y!`` given the rate ``lam = softplus(η)``, computed once per block (1.7x
        faster than twice); in place in the logarithm's array, the operations of ``y * log λ - λ - gammaln(y + 1)``
        in their order (the same bits, no full-size temporaries)."""
        out = _log_softplus(eta, lam, small)
        out *= y
        out -= lam
        out -= gammaln(y + 1.0)
        return out

    def _dll(self, eta, y):
        s = expit(eta)
        return y * _sigmoid_over_softplus(eta, *_softplus(eta), s) - s

    def _ll_and_dll(self, eta, y):
        lam, small = _softplus(eta)
        s = expit(eta)
        return self._ll_at(eta, y, lam, small), y * _sigmoid_over_softplus(eta, lam, small, s) - s

    def _d2ll(self, eta, y):
        s = expit(eta)
        r = _sigmoid_over_softplus(eta, *_softplus(eta), s)
        return y * r * (1.0 - s) - y * r**2 - s * (1.0 - s)
