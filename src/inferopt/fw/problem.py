"""What a problem must provide to :func:`inferopt.fw.frank_wolfe`.

The solver owns the iterate (an :class:`~inferopt.fw.active_set.ActiveSet`) and the
step logic; the problem owns everything about the objective ``f`` and the atoms,
including any incremental state (e.g. ``G alpha`` for a quadratic).  Directions are
named by ``kind`` and two atom ids ``s`` (from the LMO) and ``v`` (an active atom):

* ``'fw'``:       ``d = v_s - x``  (``v`` unused);
* ``'away'``:     ``d = x - v_v``  (``s`` unused);
* ``'pairwise'``: ``d = v_s - v_v``.

Call order per iteration: ``lmo``, ``grad_active``, ``direction`` (only if a step is taken),
the step rule (which may call ``phi``), ``move``, ``objective``.  The first atom is placed by
``move(active, 'fw', s, None, 1.0)`` from the empty iterate, without a ``direction`` call.
The backtracking rule compares ``phi(gamma)`` with the last ``objective`` value (or ``Direction.f_test``'s).

Monte-Carlo objectives (boosting VI, :class:`inferopt.boosting.BoostingProblem`) implement the
same protocol with estimates: atoms are mixture components stored by integer id, ``lmo``
returns an estimate of ``<grad f(x), v_s>``, ``objective`` an estimate of ``f(x)``, and
``phi``/``dphi`` estimates along ``d``.  A problem may reuse its samples within an iteration
(common random numbers for ``objective``, ``grad_active``, ``phi`` and ``dphi``), which is
why ``objective`` is always called after ``move`` and before the next ``lmo``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from .active_set import ActiveSet


@dataclass(frozen=True)
class Direction:
    """Problem-side facts about ``d``: ``d_sqnorm = ||d||^2`` (1.0 if no norm), ``curvature =
    d' Hess f d`` (``None`` unless quadratic), ``phi(gamma) = f(x + gamma d)`` and ``dphi(gamma) =
    <grad f(x + gamma d), d>`` (``None`` if unavailable; Monte-Carlo estimates are allowed) and ``f_test() = f(x)``
    for a sufficient-decrease test where the problem estimates it apart from ``objective`` (``None``: the last
    ``objective``; :class:`~inferopt.fw.steps.Line`)."""

    d_sqnorm: float = 1.0
    curvature: float | None = None
    phi: Callable[[float], float] | None = None
    dphi: Callable[[float], float] | None = None
    f_test: Callable[[], float] | None = None


class FWProblem(Protocol):
    """Protocol of a problem ``min f(x)`` over the convex hull of atoms."""

    def start(self) -> None:
        """Reset the incremental state to the empty iterate (before the first atom)."""

    def lmo(self, active: ActiveSet) -> tuple[int, float]:
        """Linear minimisation oracle: ``s in argmin_v <grad f(x), v>`` and that value.
        With an empty active set it chooses the first atom (the quadratic uses ``x = 0``)."""

    def grad_active(self, active: ActiveSet) -> np.ndarray:
        """``<grad f(x), v_i>`` for the active atoms, in the order of ``active.ids``."""

    # Optional: ``grad_iterate(active) -> float``, ``<grad f(x), x>`` when the problem estimates it apart
    # from the atoms' values (boosting with the authors' estimates); the solver then calls ``grad_active``
    # only to choose an away or pairwise vertex.

    def direction(self, active: ActiveSet, kind: str, s: int | None, v: int | None) -> Direction:
        """Facts about the direction ``d`` of ``kind`` at the current iterate."""

    def move(self, active: ActiveSet, kind: str, s: int | None, v: int | None, gamma: float) -> None:
        """Update the incremental state for ``x <- x + gamma d`` (called before ``active`` changes)."""

    def objective(self, active: ActiveSet) -> float:
        """``f(x)`` at the current iterate (after ``active`` was updated)."""
