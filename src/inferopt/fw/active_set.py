"""The iterate of every conditional-gradient variant: a convex combination of atoms.

Atoms are named by non-negative integer ids chosen by the problem (a column of a
matrix, a grid point, a mixture component the caller stores in a list, ...).
"""

from __future__ import annotations

import numpy as np


class ActiveSet:
    """``x = sum_i weights[i] * atom(ids[i])`` with ``weights`` on the simplex.

    Every update keeps the weights non-negative and summing to one; an atom whose
    weight reaches zero (a *drop step*) is removed.  Cost O(k) per update, k = len(self).
    """

    def __init__(self) -> None:
        self.ids = np.zeros(0, dtype=np.intp)
        self.weights = np.zeros(0)
        self._pos: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, atom) -> bool:
        return int(atom) in self._pos

    def _add_mass(self, atom: int, mass: float) -> None:
        pos = self._pos.get(int(atom))
        if pos is None:
            self._pos[int(atom)] = len(self.ids)
            self.ids = np.append(self.ids, int(atom))
            self.weights = np.append(self.weights, mass)
        else:
            self.weights[pos] += mass

    def _remove(self, atom: int) -> None:
        keep = self.ids != int(atom)
        self.ids, self.weights = self.ids[keep], self.weights[keep]
        self._pos = {int(a): i for i, a in enumerate(self.ids)}

    def fw_update(self, s: int, gamma: float) -> None:
        """Frank-Wolfe step ``x <- (1 - gamma) x + gamma v_s``; ``gamma = 1`` keeps only ``s``,
        ``gamma = 0`` leaves the iterate unchanged (``s`` does not enter the active set)."""
        if gamma <= 0.0 and len(self.ids) > 0:
            return
        if gamma >= 1.0:
            self.ids = np.array([int(s)], dtype=np.intp)
            self.weights = np.ones(1)
            self._pos = {int(s): 0}
            return
        self.weights *= 1.0 - gamma
        self._add_mass(s, gamma)

    def away_update(self, v: int, gamma: float, drop: bool) -> None:
        """Away step ``x <- (1 + gamma) x - gamma v_v``; ``drop`` removes ``v`` (gamma = gamma_max)."""
        self.weights *= 1.0 + gamma
        if drop:
            self._remove(v)
            self.weights /= self.weights.sum()
        else:
            self.weights[self._pos[int(v)]] -= gamma

    def pairwise_update(self, s: int, v: int, gamma: float, drop: bool) -> None:
        """Pairwise step ``x <- x + gamma (v_s - v_v)``; ``drop`` removes ``v`` (gamma = alpha_v);
        ``gamma = 0`` leaves the iterate unchanged."""
        if gamma <= 0.0 and not drop:
            return
        self._add_mass(s, gamma)
        if drop:
            self._remove(v)
        else:
            self.weights[self._pos[int(v)]] -= gamma

    def assign(self, ids, weights) -> None:
        """Replace the iterate (fully corrective methods); zero weights are dropped."""
        ids = np.asarray(ids, dtype=np.intp)
        weights = np.asarray(weights, dtype=float)
        keep = weights > 0
        self.ids, self.weights = ids[keep].copy(), weights[keep] / weights[keep].sum()
        self._pos = {int(a): i for i, a in enumerate(self.ids)}
