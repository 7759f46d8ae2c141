"""Toy methods of one's own, one per wired family, for the tests of issue 30 (and docs/using.md's
worked example): each is importable as ``toy_methods:<name>`` with ``tests/plugins`` on the path.

* :func:`greedy_topk` -- a coreset: the ``k`` points with the largest ``|Φᵀy|`` (ties broken at
  random), weighted by NNLS on that support;
* :func:`constant_step` -- a boosting step rule: ``γ = min(0.3, γ_max)`` at every step;
* :func:`half_step_sgd` -- a spectral optimiser: :func:`inferopt.spectral.sgd` with half the step;
* :func:`slow_herding_step` -- a herding step rule: ``γ_t = 1/(t+2)``.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from scipy.optimize import nnls

from inferopt.fw.steps import StepOutcome
from inferopt.spectral import sgd
from inferopt.spectral.optim import make_step


def greedy_topk(Phi, y, k, *, rng=None):
    """Top-``k`` points by ``|Φᵀy|`` (a random tie-break from ``rng``), NNLS weights on them."""
    Phi, y = np.asarray(Phi, dtype=float), np.asarray(y, dtype=float)
    rng = np.random.default_rng(rng)
    score = np.abs(Phi.T @ y) * (1.0 + 1e-9 * rng.random(Phi.shape[1]))
    support = np.argsort(-score)[:k]
    w = np.zeros(Phi.shape[1])
    w[support] = nnls(Phi[:, support], y)[0]
    return SimpleNamespace(x=w, n_iter=1)


greedy_topk.label = "Top-k |Φᵀy| (toy)"


def constant_step(line):
    """The step ``min(0.3, γ_max)``, whatever the line."""
    return StepOutcome(min(0.3, line.gamma_max), "fixed")


constant_step.label = "γ = 0.3 (toy)"


def half_step_sgd(problem, theta0, *, max_iter, step, M=10, rng=None, eval_every=1, progress=False, **kwargs):
    """:func:`inferopt.spectral.sgd` with every step size halved."""
    schedule = make_step(step)
    return sgd(problem, theta0, max_iter=max_iter, step=lambda t: 0.5 * schedule(t), M=M, rng=rng,
               eval_every=eval_every, progress=progress, **kwargs)


half_step_sgd.label = "SGD, half step (toy)"


def slow_herding_step(line):
    """A herding step rule: ``γ_t = 1/(t+2)``, slower than herding's ``1/(t+1)``."""
    return StepOutcome(min(1.0 / (line.t + 2), line.gamma_max), "fixed")


slow_herding_step.label = "γ = 1/(t+2) (toy)"
