"""The quadratic over the convex hull of atoms: ``f(alpha) = ||b - sum_i alpha_i v_i||^2``.

Expanded with ``G = V'V``, ``c = V'b``: ``f(alpha) = alpha' G alpha - 2 c' alpha + ||b||^2``, so
only kernel values are needed (kernel herding: ``v_i = Phi(x_i)``, ``b = mu``, ``G_ij =
k(x_i, x_j)``, ``c_i = mu(x_i)``; Bach et al. 2012, Eq. 3 up to the factor 1/2).
The vector ``G alpha`` over *all* atoms is kept up to date incrementally (one column of
``G`` per step), so the LMO, the gradient on the active set, the duality gap and the
exact line search cost O(N) per iteration (O(Nm) with explicit vectors in R^m).  Rounding
accumulates in the incremental updates (away steps multiply ``G alpha`` by ``1 + gamma``), so after
``max(REFRESH_EVERY, REFRESH_PER_ATOM * k)`` moves ``G alpha`` is recomputed from the k active columns
(O(Nk): amortised over at least ``REFRESH_PER_ATOM * k`` moves of O(N) each, it adds at most
``1 / REFRESH_PER_ATOM`` to the cost of a run) and replaces the incremental value if the drift moves the objective by more than :data:`REFRESH_RTOL`
``||b||^2`` or any entry by more than :data:`REFRESH_RTOL` ``max_i G_ii``.  A smaller drift is left
alone, so runs whose iterates hinge on exact ties (herding on rational moments, whose drift stays
below a half of that) follow the same path as without the check.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._selection import tied_argmin
from .._validation import as_finite_array, check_callable, check_psd, check_real, check_returned
from .active_set import ActiveSet
from .problem import Direction


#: moves between two recomputations of ``G alpha`` from scratch (bounds the drift of the incremental state)
REFRESH_EVERY = 500
#: with k active atoms, at least ``REFRESH_PER_ATOM * k`` moves pass between two recomputations
REFRESH_PER_ATOM = 8
#: relative drift of ``G alpha`` above which the recomputed value replaces it (see the module docstring)
REFRESH_RTOL = 1e-13


class QuadraticHull:
    """``min ||b - V alpha||^2`` over the simplex, atoms ``v_0 .. v_{N-1}`` (implements ``FWProblem``).

    Build it with :meth:`from_vectors`, :meth:`from_gram` or :meth:`from_columns`.
    ``columns(ids)`` returns the ``(N, len(ids))`` block ``G[:, ids]``.
    """

    def __init__(self, columns: Callable[[np.ndarray], np.ndarray], c, b_sqnorm, diag) -> None:
        self.c = as_finite_array("c", c, ndim=1)
        self.diag = as_finite_array("diag", diag, ndim=1)
        if self.diag.shape != self.c.shape:
            raise ValueError(f"diag must have the shape of c {self.c.shape}; got {self.diag.shape}")
        if np.any(self.diag < 0):
            raise ValueError("diag (the squared norms G_ii of the atoms) must be >= 0")
        self.b_sqnorm = check_real("b_sqnorm", b_sqnorm, low=0.0)
        self.columns = check_callable("columns", columns)
        self.n_atoms = len(self.c)
        self.start()

    @classmethod
    def from_vectors(cls, V, b) -> QuadraticHull:
        """Atoms are the columns of ``V`` (m x N), target ``b`` (m,)."""
        V = as_finite_array("V", V, ndim=2)
        if V.shape[1] == 0:
            raise ValueError(f"V must have at least one column (an atom); got shape {V.shape}")
        b = as_finite_array("b", b, ndim=1)
        if V.shape[0] != b.shape[0]:
            raise ValueError(f"b must have length V.shape[0] = {V.shape[0]}; got {b.shape[0]}")
        big = max(float(np.abs(V).max(initial=0.0)), float(np.abs(b).max(initial=0.0)))
        if big * big * max(V.shape[0], 1) > np.finfo(float).max:     # issue 47: V'V overflowed to inf deep inside
            raise ValueError(f"V and b are too large for this problem's arithmetic: with entries up to {big:.3g}, the "
                             "inner products V'V and V'b overflow float64; divide V and b by one constant (the weights "
                             "do not change, the objective scales by its square)")
        return cls(lambda ids: V.T @ V[:, ids], V.T @ b, float(b @ b), np.einsum("ij,ij->j", V, V))

    @classmethod
    def from_gram(cls, gram, c, b_sqnorm) -> QuadraticHull:
        """Atoms given by their Gram matrix ``G = V'V`` (N x N), ``c = V'b`` and ``||b||^2``."""
        G = check_psd("gram", gram)
        c = as_finite_array("c", c, ndim=1)
        if c.shape[0] != G.shape[0]:
            raise ValueError(f"c must have length gram.shape[0] = {G.shape[0]}; got {c.shape[0]}")
        b_sqnorm = check_real("b_sqnorm", b_sqnorm, low=0.0)
        # gram, c and b_sqnorm are consistent iff [[G, c], [c', ||b||^2]] (the Gram matrix of v_1..v_N, b) is PSD:
        # otherwise ||b - V alpha||^2 would be negative somewhere on the simplex
        check_psd("b_sqnorm", np.block([[G, c[:, None]], [c[None, :], np.array([[b_sqnorm]])]]),
                  requirement="must be consistent with gram and c (>= c' gram^+ c): [[gram, c], [c', b_sqnorm]], "
                  "the Gram matrix of the atoms and b, must be positive semidefinite")
        return cls(lambda ids: G[:, ids], c, b_sqnorm, np.diag(G).copy())

    @classmethod
    def from_columns(cls, columns, c, b_sqnorm, diag) -> QuadraticHull:
        """Atoms given implicitly by a kernel: ``columns(ids) = [k(x_i, x_j)]_{i, j in ids}``."""
        return cls(columns, c, b_sqnorm, diag)

    def column_block(self, ids) -> np.ndarray:
        """``G[:, ids]`` as an ``(N, len(ids))`` array."""
        ids = np.atleast_1d(np.asarray(ids, dtype=np.intp))
        return check_returned("columns", self.columns(ids), shape=(self.n_atoms, len(ids)))

    # --- FWProblem protocol -------------------------------------------------------
    def start(self) -> None:
        """Empty iterate ``x = 0``: ``G alpha = 0`` (so the first atom is ``argmax c``)."""
        self.g_alpha = np.zeros(self.n_atoms)
        self._cols: dict[int, np.ndarray] = {}
        self._moves = 0

    def gradient(self) -> np.ndarray:
        """``grad_i = <grad f(x), v_i> = 2 ((G alpha)_i - c_i)`` for all atoms."""
        return 2.0 * (self.g_alpha - self.c)

    def lmo(self, active: ActiveSet) -> tuple[int, float]:
        """The atom of least ``grad_i``; of atoms tied up to round-off, the lowest id
        (:func:`~inferopt._selection.tied_argmin`, each relative to ``2 (|(G alpha)_i| + |c_i|)``, the
        size of the terms whose difference ``grad_i`` is: its round-off is relative to them)."""
        grad = self.gradient()
        s = tied_argmin(grad, scale=2.0 * (np.abs(self.g_alpha) + np.abs(self.c)))
        return s, float(grad[s])

    def grad_active(self, active: ActiveSet) -> np.ndarray:
        return 2.0 * (self.g_alpha[active.ids] - self.c[active.ids])

    def _column(self, atom: int) -> np.ndarray:
        if atom not in self._cols:
            self._cols[atom] = self.column_block([atom])[:, 0]
        return self._cols[atom]

    def _slope(self, active: ActiveSet, kind: str, s, v) -> float:
        """``<grad f(x), d>`` from ``grad_i = 2 ((G alpha)_i - c_i)`` (O(k))."""
        grad = lambda i: 2.0 * float(self.g_alpha[i] - self.c[i])  # noqa: E731
        grad_x = float(active.weights @ self.grad_active(active))   # <grad f(x), x>
        if kind == "fw":
            return grad(s) - grad_x
        if kind == "away":
            return grad_x - grad(v)
        return grad(s) - grad(v)

    def direction(self, active: ActiveSet, kind: str, s, v) -> Direction:
        self._cols = {}  # columns are kept for the current iteration only (O(N) memory)
        q = float(active.weights @ self.g_alpha[active.ids])  # alpha' G alpha
        if kind == "fw":
            dd = self.diag[s] - 2.0 * self.g_alpha[s] + q
        elif kind == "away":
            dd = q - 2.0 * self.g_alpha[v] + self.diag[v]
        else:
            dd = self.diag[s] - 2.0 * self._column(s)[v] + self.diag[v]
        dd = max(float(dd), 0.0)  # ||V d||^2; f is exactly quadratic along d with curvature 2 dd
        f0 = self._value(active)
        slope = self._slope(active, kind, s, v)
        return Direction(d_sqnorm=dd, curvature=2.0 * dd, phi=lambda gamma: f0 + gamma * slope + gamma**2 * dd,
                         dphi=lambda gamma: slope + 2.0 * gamma * dd)

    def move(self, active: ActiveSet, kind: str, s, v, gamma: float) -> None:
        self._moves += 1
        if kind == "fw":
            self.g_alpha = (1.0 - gamma) * self.g_alpha + gamma * self._column(s)
        elif kind == "away":
            self.g_alpha = (1.0 + gamma) * self.g_alpha - gamma * self._column(v)
        else:
            self.g_alpha = self.g_alpha + gamma * (self._column(s) - self._column(v))

    def objective(self, active: ActiveSet) -> float:
        """``alpha' G alpha - 2 c' alpha + ||b||^2`` from the maintained ``G alpha`` (O(k)); every
        ``max(REFRESH_EVERY, REFRESH_PER_ATOM * k)`` moves ``G alpha`` is first recomputed from the
        active columns."""
        if self._moves >= max(REFRESH_EVERY, REFRESH_PER_ATOM * len(active.ids)):
            self._refresh(active)
        return self._value(active)

    def _refresh(self, active: ActiveSet) -> None:
        """Recompute ``G alpha``; use it if the incremental value drifted by more than :data:`REFRESH_RTOL`."""
        fresh = self.column_block(active.ids) @ active.weights
        self._moves = 0
        drift = fresh - self.g_alpha
        tiny = np.finfo(float).tiny
        if (abs(float(active.weights @ drift[active.ids])) > REFRESH_RTOL * max(self.b_sqnorm, tiny)
                or np.abs(drift).max() > REFRESH_RTOL * max(float(self.diag.max()), tiny)):
            self.g_alpha = fresh

    def _value(self, active: ActiveSet) -> float:
        w, ids = active.weights, active.ids   # a squared norm: clip the rounding below 0
        return max(float(w @ (self.g_alpha[ids] - 2.0 * self.c[ids]) + self.b_sqnorm), 0.0)

    def set_iterate(self, active: ActiveSet, columns: np.ndarray | None = None) -> None:
        """Recompute ``G alpha`` after an arbitrary change of weights (fully corrective
        methods); ``columns`` = ``G[:, active.ids]`` if the caller already holds them."""
        cols = self.column_block(active.ids) if columns is None else columns
        self.g_alpha = cols @ active.weights
        self._cols = {}
        self._moves = 0
