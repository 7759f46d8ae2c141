"""The logistic and Poisson regression data of the Bayesian-coreset experiments
(Campbell & Broderick 2018/2019, Campbell & Beronov 2019, Zhang et al. 2021 Sec. 5.3 and
App. G), prepared as the authors' loaders (``examples/common/model_lr.py``,
``model_poiss.py``) prepare them:

* the covariates ``X[:, :-1]`` (the last column of every stored file is the intercept)
  are **whitened** with the mean and the Cholesky factor ``L`` of the covariance (plus
  ``1e-12 I``) of the rows used: ``x ↦ L⁻¹(x − m)``;
* the design is ``Z = [x, 1]`` and the labels are ``±1`` (logistic) or counts (Poisson);
  :meth:`GLMData.model` gives the :mod:`inferopt.models` likelihood with prior ``N(0, I)``.

Datasets (``name`` → registry dataset, 500-row file, full file, likelihood):

* ``synth_lr`` -- synthetic logistic, ``x ~ N(0, I₂)``, ``θ = [3, 3, 0]`` (the authors'
  files; the full file has N = 9000 and is the "large synthetic" set of Fig. 4);
* ``phishing`` -- phishing, 10-dim PCA;  ``chemreact`` -- chemical reactivity ds1.10;
* ``synth_poiss`` -- synthetic Poisson, ``x ~ N(0, 1)``, ``θ = [1, 0]``;
* ``biketrips``, ``airportdelays`` -- Poisson counts;
* ``phishing_onehot`` -- the "original phishing" of Fig. 4 (N = 11055, D = 68): the 30
  categorical UCI attributes one-hot encoded (68 columns, scaled by ``1/√30`` as the
  LIBSVM copy), rebuilt from the raw ARFF. Each attribute's indicator columns sum to a
  constant, so the covariance has rank 38: the authors' whitening (jittered Cholesky) maps
  the 30 dependent directions to (numerically) zero columns, which only the prior sees.

``size="small"`` is the stored 500-row uniform subsample the papers use; ``size="large"``
the full training set. ``n``/``rng`` draw a fresh uniform subsample of ``n`` rows (without
replacement) from the chosen file before whitening.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _fixed_order as fixed
from .._random import as_generator
from .._validation import check_choice, check_int
from .loaders import load

__all__ = ["GLM_DATASETS", "GLMData", "load_glm", "phishing_onehot", "whiten"]

#: name -> (registry dataset, 500-row file, full file, likelihood)
GLM_DATASETS = {
    "synth_lr": ("synthetic_coresets", "synth_lr.npz", "synth_lr_large.npz", "logistic"),
    "phishing": ("phishing", "phishing.npz", "phishing_large.npz", "logistic"),
    "chemreact": ("chemreact", "ds1.npz", "ds1_large.npz", "logistic"),
    "synth_poiss": ("synthetic_coresets", "synth_poiss.npz", "synth_poiss_large.npz", "poisson"),
    "biketrips": ("biketrips", "biketrips.npz", "biketrips_large.npz", "poisson"),
    "airportdelays": ("airportdelays", "airportdelays.npz", "airportdelays_large.npz", "poisson"),
    "phishing_onehot": ("phishing", None, "uci_phishing_websites_Training_Dataset.arff", "logistic"),
}
LIKELIHOODS = ("logistic", "poisson")


@dataclass(frozen=True)
class GLMData:
    """Whitened covariates ``X`` (n × d, no intercept), responses ``y`` and the likelihood."""

    name: str
    likelihood: str
    X: np.ndarray
    y: np.ndarray

    @property
    def n(self) -> int:
        return self.X.shape[0]

    @property
    def Z(self) -> np.ndarray:
        """The design ``[x, 1]`` (n × (d + 1))."""
        return np.column_stack([self.X, np.ones(self.n)])

    def model(self, prior_var: float = 1.0):
        """The Bayesian GLM of :mod:`inferopt.models` on ``Z``, prior ``N(0, prior_var·I)``."""
        from ..models import LogisticRegression, PoissonRegression

        cls = LogisticRegression if self.likelihood == "logistic" else PoissonRegression
        return cls(self.Z, self.y, prior_var=prior_var)


def whiten(X, jitter: float = 1e-12) -> np.ndarray:
    """``L⁻¹(x − m)`` for every row, ``m`` the mean and ``LLᵀ = Cov(X) + jitter·I``
    (the coreset authors' standardisation; the result has identity covariance on the
    span of the data). The covariance, ``L`` and the solve compute in fixed order
    (:mod:`inferopt._fixed_order`), not through the BLAS kernel: the design of a coreset
    problem is the same bits on every processor (issue 40)."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] < 2:
        raise ValueError(f"X must be a 2-d array with at least 2 rows; got shape {X.shape}")
    Xc = X - X.mean(axis=0)
    V = fixed.matmul(Xc.T, Xc) / (X.shape[0] - 1) + jitter * np.eye(X.shape[1])   # np.cov's estimate
    return fixed.solve_triangular(fixed.cholesky(V), Xc.T).T


#: Number of nominal attributes of the UCI phishing data (one-hot: 68 columns).
PHISHING_ATTRIBUTES = 30


def phishing_onehot() -> tuple[np.ndarray, np.ndarray]:
    """The full UCI phishing data (registry ``phishing``, the ARFF): its 30 nominal attributes
    one-hot encoded over their observed values (68 columns of 0/1, in attribute order) and the
    labels ``Result`` in {-1, +1}; 11,055 rows. Used by A6 (coresets) and C3 (boosting VI)."""
    table = load("phishing", "uci_phishing_websites_Training_Dataset.arff")
    attrs = [key for key in table if key != "Result"]
    cols = [np.asarray(table[a])[:, None] == np.unique(table[a])[None, :] for a in attrs]
    return np.concatenate(cols, axis=1).astype(float), np.asarray(table["Result"], dtype=float)


def _raw(name: str, size: str) -> tuple[np.ndarray, np.ndarray]:
    """Covariates without the intercept column and the responses, unwhitened."""
    dataset, small, large, _ = GLM_DATASETS[name]
    if name == "phishing_onehot":
        if size != "large":
            raise ValueError("phishing_onehot exists only as the full set: use size='large'")
        X, y = phishing_onehot()
        return X / np.sqrt(PHISHING_ATTRIBUTES), y
    data = load(dataset, small if size == "small" else large)
    return np.asarray(data["X"][:, :-1], dtype=float), np.asarray(data["y"], dtype=float)


def load_glm(name: str, size: str = "small", *, n: int | None = None, rng=None) -> GLMData:
    """Dataset ``name`` (see :data:`GLM_DATASETS`), whitened as the authors' loaders do.

    ``size``: ``"small"`` (the stored N = 500 subsample) or ``"large"`` (the full training
    set). ``n``: draw ``n`` rows uniformly without replacement first (``rng`` a Generator
    or seed), then whiten those rows.
    """
    check_choice("name", name, set(GLM_DATASETS))
    check_choice("size", size, {"small", "large"})
    X, y = _raw(name, size)
    if n is not None:
        n = check_int("n", n, low=2, high=X.shape[0])
        idx = np.sort(as_generator(rng).choice(X.shape[0], size=n, replace=False))
        X, y = X[idx], y[idx]
    return GLMData(name=name, likelihood=GLM_DATASETS[name][3], X=whiten(X), y=y)
