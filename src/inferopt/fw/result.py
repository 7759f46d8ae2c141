"""``FWResult``: a :class:`~inferopt._result.SolveResult` that also names the atoms."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._result import SolveResult


@dataclass(repr=False)
class FWResult(SolveResult):
    """Result of a conditional-gradient run.

    ``x`` are the weights (on the simplex) of the atoms ``atoms`` (integer ids).
    ``info`` holds per-iteration arrays: ``gap`` (FW duality gap at each iterate, same
    length as ``objective``), and for each step ``gamma``, ``step_type`` ('fw', 'away',
    'pairwise' or 'mnp'), ``drop`` (an atom left the active set), ``atom`` (the LMO's atom),
    ``n_active``; with backtracking also ``C`` and ``step_status``; min-norm-point adds
    ``refactor`` (per cycle: why the corral's factor was rebuilt, or empty) and
    ``n_minor_start`` (a number: drops needed to bring a warm start to its affine minimiser).
    """

    atoms: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.intp))

    @classmethod
    def from_run(cls, active, *, objective, gaps, trace: dict, n_iter: int, converged: bool, message: str,
                 times, **info) -> FWResult:
        """The result of a run that ends at ``active`` (an :class:`~inferopt.fw.ActiveSet`): the
        per-step lists of ``trace`` become arrays of ``info``, beside ``gap`` and any extra ``info``."""
        info = {key: np.asarray(val) for key, val in trace.items()} | {"gap": np.asarray(gaps)} | info
        return cls(x=active.weights.copy(), objective=np.asarray(objective), n_iter=n_iter, converged=converged,
                   message=message, times=np.asarray(times), info=info, atoms=active.ids.copy())

    @property
    def weights(self) -> np.ndarray:
        return self.x

    def dense_weights(self, n_atoms: int) -> np.ndarray:
        """The weights as a length-``n_atoms`` vector (zeros off the active set)."""
        out = np.zeros(n_atoms)
        out[self.atoms] = self.x
        return out
