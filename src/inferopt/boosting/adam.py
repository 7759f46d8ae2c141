"""Adam (Kingma & Ba, ICLR 2015, Algorithm 1) in numpy, for the stochastic greedy step.

``m ← β₁m + (1−β₁)g``, ``v ← β₂v + (1−β₂)g²``, ``x ← x − lr · m̂ / (√v̂ + ε)`` with the
bias corrections ``m̂ = m/(1−β₁ᵗ)``, ``v̂ = v/(1−β₂ᵗ)``. It *minimises*; to maximise an
objective pass minus its gradient.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._result import SolveResult
from .._validation import as_finite_array, check_callable, check_real, check_returned, check_size


class Adam:
    """Stateful Adam optimiser for one flat parameter vector."""

    def __init__(self, lr: float = 1e-2, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8):
        self.lr = check_real("lr", lr, low=0.0, low_open=True)
        self.beta1 = check_real("beta1", beta1, low=0.0, high=1.0, high_open=True)
        self.beta2 = check_real("beta2", beta2, low=0.0, high=1.0, high_open=True)
        self.eps = check_real("eps", eps, low=0.0, low_open=True)
        self.t = 0
        self.m: np.ndarray | None = None
        self.v: np.ndarray | None = None

    def step(self, x: np.ndarray, grad: np.ndarray) -> np.ndarray:
        """One update of ``x`` given the (stochastic) gradient ``grad`` of the loss; returns the new ``x``."""
        g = as_finite_array("grad", grad)
        if g.shape != np.shape(x):
            raise ValueError(f"grad must have the shape of x {np.shape(x)}; got {g.shape}")
        return self.update(x, g)

    def update(self, x: np.ndarray, g: np.ndarray) -> np.ndarray:
        """:meth:`step` without the checks, for a caller's inner loop: ``g`` a float array of ``x``'s
        shape (a non-finite ``g`` makes every later iterate NaN). The moments are updated in place."""
        if self.m is None:
            self.m = np.zeros_like(g)
            self.v = np.zeros_like(g)
        self.t += 1
        self.m *= self.beta1
        self.m += (1.0 - self.beta1) * g
        self.v *= self.beta2
        self.v += (1.0 - self.beta2) * g**2
        mhat = self.m / (1.0 - self.beta1**self.t)
        vhat = self.v / (1.0 - self.beta2**self.t)
        return x - self.lr * mhat / (np.sqrt(vhat) + self.eps)


def _evaluate(fun_and_grad, x: np.ndarray) -> tuple[float, np.ndarray]:
    """``fun_and_grad(x)`` checked: a pair of a finite number and a finite gradient of ``x``'s shape."""
    out = fun_and_grad(x)
    if not isinstance(out, tuple | list) or len(out) != 2:
        raise ValueError(f"fun_and_grad must return a pair (f, grad); got {type(out).__name__}")
    f = float(check_returned("fun_and_grad (its f)", out[0], shape=()))
    return f, check_returned("fun_and_grad (its grad)", out[1], shape=x.shape)


def adam_minimize(
    fun_and_grad: Callable[[np.ndarray], tuple[float, np.ndarray]],
    x0,
    *,
    max_iter: int = 1000,
    lr: float = 1e-2,
    beta1: float = 0.9,
    beta2: float = 0.999,
    eps: float = 1e-8,
) -> SolveResult:
    """Run ``max_iter`` Adam steps on ``fun_and_grad(x) -> (f, ∇f)`` (possibly stochastic).

    Returns a :class:`~inferopt._result.SolveResult`; ``objective[i]`` is ``f`` at the
    ``i``-th iterate (``objective[0]`` at ``x0``), ``converged`` is ``False`` (fixed budget).
    """
    check_callable("fun_and_grad", fun_and_grad)
    max_iter = check_size("max_iter", max_iter, low=0, item_bytes=8, item="step (its objective trace)")
    x = as_finite_array("x0", x0, ndim=1, nonempty=True).copy()
    opt = Adam(lr, beta1, beta2, eps)
    trace = np.empty(max_iter + 1)
    for i in range(max_iter):
        f, g = _evaluate(fun_and_grad, x)
        trace[i] = f
        x = opt.step(x, g)
    trace[max_iter] = _evaluate(fun_and_grad, x)[0]
    return SolveResult(x=x, objective=trace, n_iter=max_iter, converged=False, message="iteration budget reached")
