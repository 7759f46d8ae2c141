"""Targets ``p`` of boosting VI: an (unnormalised) log density and its gradient, both
vectorised over a batch of samples ``(S, D)``.

* :class:`LogisticTarget` -- the Bayesian logistic-regression posterior of Dresdner et al.
  (2021), Sec. 6 (prior ``N(0, 1)``, Bernoulli likelihood), via
  :class:`inferopt.models.LogisticRegression` (chunked over samples × data);
  ``log_density`` is the log joint, i.e. ``log p(θ | X) + log Z``.
* :class:`GaussianMixtureTarget` -- a normalised mixture of diagonal Gaussians, the target of
  Dresdner et al. (2021) Fig. 1 left (a mixture of two Gaussians), with exact density and gradient.

Protocol: ``dim``, ``log_density(x) -> (S,)``, ``grad_log_density(x) -> (S, D)``,
``log_normalizer`` (``log Z`` if known, else ``None``), and optionally
``log_density_and_grad(x)`` (both at once, faster) and ``log_density_and_grad_fn()`` (that pair as a
function of checked draws, built once per greedy step: its inner loop checks nothing per Adam step).
"""

from __future__ import annotations

import numpy as np

from .._validation import as_finite_array, as_rows
from ..models import LogisticRegression
from .families import Component, Gaussian
from .mixture import Mixture


#: :class:`LogisticTarget` passes over the distinct (row, label) pairs, weighted by their counts, when they are at most
#: this share of the rows (:meth:`inferopt.models.LogisticRegression.distinct`)
MERGE_SHARE = 0.9


def _check_x(x, D: int) -> np.ndarray:
    return as_rows("x", x, D)


class LogisticTarget:
    """Posterior of Bayesian logistic regression (labels ±1, design ``Z`` with intercept column).

    ``log_density(θ) = Σ_n log σ(y_n z_nᵀθ) + log N(θ; 0, σ²I)`` and its gradient, for
    ``θ`` of shape ``(S, D)``; pass an existing :class:`~inferopt.models.LogisticRegression`
    as ``model`` or ``Z``, ``y``, ``prior_var``. Repeated (row, label) pairs are summed once, weighted by their
    count (:data:`MERGE_SHARE`): the same sum in another order.
    """

    log_normalizer = None

    def __init__(self, Z=None, y=None, prior_var: float = 1.0, *, model: LogisticRegression | None = None):
        if model is None:
            if Z is None or y is None:
                raise ValueError("pass either model or both Z and y")
            model = LogisticRegression(Z, y, prior_var=prior_var)
        elif Z is not None or y is not None:
            raise ValueError("pass either model or Z and y, not both (the model already holds its data)")
        elif not isinstance(model, LogisticRegression):
            raise ValueError(f"model must be a LogisticRegression; got {type(model).__name__}")
        self.model = model
        merged, counts = model.distinct()
        # the passes over the data (every estimate's log p̃) on the distinct (row, label) pairs weighted by their
        # counts where that saves a tenth of the rows or more (the phishing data's one-hot rows: 5,505 of 9,949)
        self._pass, self._counts = (merged, counts) if len(counts) <= MERGE_SHARE * model.n else (model, None)

    @property
    def dim(self) -> int:
        return self.model.D

    def log_density(self, x) -> np.ndarray:
        return self._pass.log_joint(_check_x(x, self.dim), self._counts)

    def grad_log_density(self, x) -> np.ndarray:
        return self._pass.grad_log_joint(_check_x(x, self.dim), self._counts)

    def log_density_and_grad(self, x) -> tuple[np.ndarray, np.ndarray]:
        """Both in one pass over the data."""
        return self._pass.log_joint_and_grad(_check_x(x, self.dim), self._counts)

    def log_density_and_grad_fn(self):
        """:meth:`log_density_and_grad` without the check of ``x`` (a finite ``(S, D)`` array)."""
        return self._pass.log_joint_and_grad_fn(self._counts)


class GaussianMixtureTarget:
    """``p(x) = Σ_k π_k N(x; m_k, diag(σ_k²))``, normalised (``log_normalizer = 0``).

    Parameters: ``means`` (K, D), ``scales`` (K, D) standard deviations (> 0), ``weights``
    (K,) on the simplex (default uniform).
    """

    log_normalizer = 0.0

    def __init__(self, means, scales, weights=None):
        means = as_finite_array("means", means, ndim=2, nonempty=True)
        scales = as_finite_array("scales", scales, ndim=2)
        if scales.shape != means.shape:
            raise ValueError(f"scales must have the shape of means {means.shape}; got {scales.shape}")
        if np.any(scales <= 0):
            raise ValueError("scales must be strictly positive")
        K = means.shape[0]
        weights = np.full(K, 1.0 / K) if weights is None else weights
        self.mixture = Mixture(Gaussian(), means, np.log(scales), weights)

    @classmethod
    def single(cls, mean, scale) -> GaussianMixtureTarget:
        """One diagonal Gaussian."""
        return cls(np.atleast_2d(mean), np.atleast_2d(scale))

    @property
    def dim(self) -> int:
        return self.mixture.dim

    @property
    def means(self) -> np.ndarray:
        return self.mixture.locs

    @property
    def scales(self) -> np.ndarray:
        return np.exp(self.mixture.log_scales)

    @property
    def weights(self) -> np.ndarray:
        return self.mixture.weights

    def component(self, k: int) -> Component:
        return self.mixture.component(k)

    def log_density(self, x) -> np.ndarray:
        return self.mixture.log_density(x)

    def grad_log_density(self, x) -> np.ndarray:
        return self.mixture.grad_x_log_density(x)

    def log_density_and_grad_fn(self):
        """``x -> (log p(x), ∇ log p(x))`` without the check of ``x`` (a finite ``(S, D)`` array)."""
        return self.mixture.log_density_and_grad_x_fn()

    def sample(self, size: int, rng: np.random.Generator) -> np.ndarray:
        return self.mixture.sample(size, rng)
