"""The result object every solver returns, in the manner of ``scipy.optimize.OptimizeResult``."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class SolveResult:
    """What a solver found and how it got there.

    Attributes
    ----------
    x : the solution (weights, parameters, ...).
    objective : objective value after each iteration (``objective[0]`` is the start).
    n_iter : iterations performed.
    converged : whether the stopping criterion (rather than the budget) ended the run.
    message : why it stopped, in words.
    times : cumulative CPU seconds (:mod:`inferopt._clock`) after each iteration (same length as ``objective``).
    info : solver-specific traces (e.g. duality gaps, step sizes), arrays of per-iteration values.
    """

    x: np.ndarray
    objective: np.ndarray
    n_iter: int
    converged: bool
    message: str
    times: np.ndarray = field(default_factory=lambda: np.zeros(0))
    info: dict = field(default_factory=dict)

    def __repr__(self) -> str:  # short: arrays are summarised
        final = self.objective[-1] if len(self.objective) else float("nan")
        return (
            f"{type(self).__name__}(n_iter={self.n_iter}, converged={self.converged}, "
            f"objective={final:.6g}, message={self.message!r})"
        )
