"""Metrics: AUROC against a brute-force pairwise count (with ties), train log-likelihood
against a direct formula, posterior-mean AUROC."""

import numpy as np
import pytest
from scipy.special import expit

from inferopt.boosting import Mixture, auroc, posterior_mean_logits, test_auroc, train_log_likelihood
from inferopt.models import LogisticRegression


def _brute_force_auc(y, s):
    pos, neg = s[y > 0], s[y <= 0]
    diff = pos[:, None] - neg[None, :]
    return ((diff > 0).sum() + 0.5 * (diff == 0).sum()) / (pos.size * neg.size)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_auroc_matches_brute_force_with_ties(seed):
    rng = np.random.default_rng(seed)
    y = rng.choice([-1.0, 1.0], size=200)
    scores = rng.integers(0, 6, size=200).astype(float) + (y > 0)   # many ties, informative
    assert auroc(y, scores) == pytest.approx(_brute_force_auc(y, scores), abs=1e-12)
    y01 = (y > 0).astype(float)
    assert auroc(y01, scores) == pytest.approx(_brute_force_auc(y01, scores), abs=1e-12)
    cont = rng.normal(size=200)
    assert auroc(y, cont) == pytest.approx(_brute_force_auc(y, cont), abs=1e-12)


def test_auroc_extremes():
    y = np.array([1, 1, -1, -1.0])
    assert auroc(y, [3, 4, 1, 2]) == 1.0
    assert auroc(y, [1, 2, 3, 4]) == 0.0
    assert auroc(y, [1, 1, 1, 1]) == 0.5


def _model(n=300, seed=0):
    rng = np.random.default_rng(seed)
    Z = np.column_stack([rng.normal(size=(n, 2)), np.ones(n)])
    y = np.where(rng.random(n) < expit(Z @ np.array([2.0, -1.0, 0.3])), 1.0, -1.0)
    return LogisticRegression(Z, y), rng


def test_train_log_likelihood_matches_direct_formula():
    m, _ = _model()
    q = Mixture("laplace", [[2.0, -1.0, 0.3], [1.5, -0.5, 0.0]], np.full((2, 3), -1.5), [0.7, 0.3])
    ll = train_log_likelihood(m, q, n_samples=64, rng=np.random.default_rng(3))
    W = q.sample(64, np.random.default_rng(3))           # the same draws
    direct = np.mean(-np.log1p(np.exp(-m.y[None] * (W @ m.Z.T))))
    assert ll == pytest.approx(direct, rel=1e-12)
    worse = Mixture("laplace", [[-2.0, 1.0, 0.0]], np.full((1, 3), -1.5), [1.0])
    assert train_log_likelihood(m, worse, rng=np.random.default_rng(4)) < ll


def test_test_auroc_uses_posterior_mean_logit():
    m, rng = _model(seed=1)
    q = Mixture("gaussian", [[2.0, -1.0, 0.3], [0.0, 0.0, 0.0]], np.zeros((2, 3)), [0.5, 0.5])
    np.testing.assert_allclose(posterior_mean_logits(m.Z, q), m.Z @ np.array([1.0, -0.5, 0.15]))
    a = test_auroc(m.Z, m.y, q)
    assert a == pytest.approx(_brute_force_auc(m.y, m.Z @ np.array([1.0, -0.5, 0.15])), abs=1e-12)
    assert a > 0.8


def test_bad_input_raises():
    with pytest.raises(ValueError, match="binary labels"):
        auroc([0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="both classes"):
        auroc([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="length of y"):
        auroc([1, -1, 1], [0.1, 0.2])
    with pytest.raises(ValueError, match="finite"):
        auroc([1, -1], [np.nan, 0.2])
    m, _ = _model(n=20)
    q2 = Mixture("gaussian", np.zeros((1, 2)), np.zeros((1, 2)), [1.0])
    with pytest.raises(ValueError, match="dimension D = 3"):
        train_log_likelihood(m, q2, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="D = 2 columns"):
        posterior_mean_logits(m.Z, q2)
