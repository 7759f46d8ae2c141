"""Evaluation metrics of Dresdner et al. (2021), Tables 2-3: train log-likelihood and test AUROC.

* :func:`auroc` -- area under the ROC curve by the Mann-Whitney rank formula with mid-ranks
  for ties: ``AUC = (R₊ − n₊(n₊+1)/2) / (n₊ n₋)``, ``R₊`` the rank sum of the positives;
  equals ``P(score₊ > score₋) + ½ P(score₊ = score₋)``.
* :func:`train_log_likelihood` -- ``(1/n) Σ_n E_{w~q}[log p(y_n | x_n, w)]`` by Monte Carlo
  over mixture samples (the model's log joint, chunked over data so that ``S × block``
  intermediates stay below :data:`inferopt.models.CHUNK_ELEMENTS`).
* :func:`posterior_mean_logits` / :func:`test_auroc` -- AUROC of the logit ``zᵀ E_q[w]``
  (the posterior-mean logit; ``E_q[w] = Σ_k α_k μ_k`` exactly for symmetric base families).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import rankdata

from .._validation import as_finite_array, as_rows, check_size
from ..models import LogisticRegression

from .mixture import Mixture
from .._random import as_generator


def _binary(y) -> np.ndarray:
    y = as_finite_array("y", y, ndim=1)
    vals = np.unique(y)
    if not (set(vals.tolist()) <= {-1.0, 1.0} or set(vals.tolist()) <= {0.0, 1.0}):
        raise ValueError(f"y must hold binary labels in {{-1, +1}} or {{0, 1}}; found {vals[:5].tolist()}")
    return y > 0


def auroc(y, scores) -> float:
    """AUROC of ``scores`` for labels ``y`` (±1 or 0/1), ties counted one half (Mann-Whitney)."""
    pos = _binary(y)
    scores = as_finite_array("scores", scores, ndim=1)
    if scores.shape != pos.shape:
        raise ValueError(f"scores must have the length of y ({pos.shape[0]}); got {scores.shape[0]}")
    n_pos = int(pos.sum())
    n_neg = pos.size - n_pos
    if n_pos == 0 or n_neg == 0:
        raise ValueError("y must contain both classes to define the AUROC")
    ranks = rankdata(scores)                      # mid-ranks for ties
    return float((ranks[pos].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def _check_model_q(model, q) -> None:
    if not isinstance(model, LogisticRegression):
        raise ValueError(f"model must be an inferopt.models.LogisticRegression; got {type(model).__name__}")
    if not isinstance(q, Mixture):
        raise ValueError(f"q must be a Mixture; got {type(q).__name__}")
    if q.dim != model.D:
        raise ValueError(f"q must have dimension D = {model.D} (columns of Z); got {q.dim}")


def train_log_likelihood(model: LogisticRegression, q: Mixture, *, n_samples: int = 100, rng: np.random.Generator) -> float:
    """``(1/n) Σ_n (1/S) Σ_s log p(y_n | z_n, w_s)``, ``w_s ~ q`` (``S = n_samples``)."""
    _check_model_q(model, q)
    S = check_size("n_samples", n_samples, item_bytes=8 * (model.D + model.n), item="draw")
    W = q.sample(S, as_generator(rng))
    return float(model.log_joint(W).sum() - model.log_prior(W).sum()) / (S * model.n)


def posterior_mean_logits(Z, q: Mixture) -> np.ndarray:
    """``Z E_q[w]`` for a design ``Z`` (with intercept column)."""
    if not isinstance(q, Mixture):
        raise ValueError(f"q must be a Mixture; got {type(q).__name__}")
    Z = as_rows("Z", Z, q.dim, nonempty=True)
    return Z @ q.mean


def test_auroc(Z, y, q: Mixture) -> float:
    """AUROC on ``(Z, y)`` of the posterior-mean logit (Tables 2-3, "Test AUROC")."""
    logits = posterior_mean_logits(Z, q)
    if np.shape(y) != logits.shape:
        raise ValueError(f"y must have one label per row of Z ({logits.shape[0]}); got shape {np.shape(y)}")
    return auroc(y, logits)


test_auroc.__test__ = False  # not a pytest test despite its name
