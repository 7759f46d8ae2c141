"""Finite mixtures of one base family: the iterates ``q_t ∈ conv(Q)`` of boosting VI.

``q(x) = Σ_k α_k s_k(x)`` with ``α`` on the probability simplex (Dresdner et al. 2021,
Sec. 3, the definition of ``conv(Q)``). Mixtures are immutable: the update
``q_{t+1} = q_t + γ(s_t − v_t)`` of Algorithm 1 line 6 is built with :meth:`Mixture.add`
(``v_t = q_t``, Eq. (5)), :meth:`Mixture.with_weights` (away/pairwise moves computed by the
Frank-Wolfe core) and :meth:`Mixture.remove` / :meth:`Mixture.prune` (drop steps).
"""

from __future__ import annotations

import numpy as np

from .._validation import as_finite_array, as_rows, check_choice, check_int, check_real
from .families import Component, Family, by_blocks, check_params, get_family
from .._random import as_generator

#: tolerance on ``|Σ α − 1|`` and on negative weights before renormalising.
SIMPLEX_TOL = 1e-8


def check_simplex(weights, K: int) -> np.ndarray:
    """Weights of length ``K``, non-negative and summing to one (to :data:`SIMPLEX_TOL`);
    returns them clipped at 0 and renormalised exactly."""
    w = as_finite_array("weights", weights, ndim=1)
    if w.shape[0] != K:
        raise ValueError(f"weights must have length K = {K} (one per component); got {w.shape[0]}")
    if np.any(w < -SIMPLEX_TOL) or abs(w.sum() - 1.0) > SIMPLEX_TOL * max(1, K):
        raise ValueError(f"weights must lie on the simplex (non-negative, sum 1); got sum {w.sum():.12g}, min {w.min():.3g}")
    w = np.clip(w, 0.0, None)
    return w / w.sum()


class Mixture:
    """``Σ_k α_k family(loc_k, exp(log_scale_k))``.

    Parameters
    ----------
    family : :class:`~.families.Family` or ``'gaussian'``/``'laplace'``.
    locs, log_scales : arrays ``(K, D)``.
    weights : ``(K,)`` on the simplex.
    """

    def __init__(self, family, locs, log_scales, weights):
        self.family: Family = get_family(family)
        locs, log_scales = check_params(locs, log_scales, ndim=2, names=("locs", "log_scales"))
        self.locs, self.log_scales = locs.copy(), log_scales.copy()   # never freeze the caller's arrays
        if self.locs.shape[0] == 0:
            raise ValueError("locs must hold at least one component (a mixture needs K >= 1); got 0 rows")
        self.weights = check_simplex(weights, self.locs.shape[0]).copy()
        self.locs.setflags(write=False)
        self.log_scales.setflags(write=False)
        self.weights.setflags(write=False)
        # fixed for the mixture's life: 1/b_k and log α_k (−inf for a zero weight), for every density evaluation
        self._inv_scales = np.exp(-self.log_scales)
        with np.errstate(divide="ignore"):
            self._log_weights = np.log(self.weights)

    # -- construction -----------------------------------------------------------------
    @classmethod
    def from_component(cls, s: Component) -> Mixture:
        return cls(s.family, s.loc[None], s.log_scale[None], np.ones(1))

    @property
    def n_components(self) -> int:
        return self.locs.shape[0]

    @property
    def dim(self) -> int:
        return self.locs.shape[1]

    @property
    def mean(self) -> np.ndarray:
        """``Σ_k α_k μ_k`` (both base families are symmetric about their location)."""
        return self.weights @ self.locs

    def component(self, k: int) -> Component:
        k = check_int("k", k, low=0, high=self.n_components - 1)
        return Component(self.family, self.locs[k], self.log_scales[k])

    def _check_component(self, s: Component) -> Component:
        if not isinstance(s, Component):
            raise ValueError(f"s must be a Component; got {type(s).__name__}")
        if s.family.name != self.family.name:
            raise ValueError(f"s must be of the mixture's family {self.family.name!r}; got {s.family.name!r}")
        if s.dim != self.dim:
            raise ValueError(f"s must have dimension D = {self.dim}; got {s.dim}")
        return s

    def add(self, s: Component, gamma: float) -> Mixture:
        """``(1 − γ) q + γ s`` (Algorithm 1 line 6 with ``v_t = q_t``; Eq. (5) for ``γ = 2/(t+2)``).
        ``s`` becomes the last component; ``γ = 1`` keeps only ``s``."""
        s = self._check_component(s)
        gamma = check_real("gamma", gamma, low=0.0, high=1.0)
        return Mixture(
            self.family,
            np.vstack([self.locs, s.loc[None]]),
            np.vstack([self.log_scales, s.log_scale[None]]),
            np.append((1.0 - gamma) * self.weights, gamma),
        )

    def append(self, s: Component) -> Mixture:
        """Add ``s`` with weight 0 (for corrective steps whose weights are set afterwards)."""
        s = self._check_component(s)
        return Mixture(
            self.family,
            np.vstack([self.locs, s.loc[None]]),
            np.vstack([self.log_scales, s.log_scale[None]]),
            np.append(self.weights, 0.0),
        )

    def with_weights(self, weights) -> Mixture:
        """The same components with new simplex weights."""
        return Mixture(self.family, self.locs, self.log_scales, weights)

    def move(self, kind: str, gamma: float, s: Component | None = None, v: int | None = None) -> Mixture:
        """``q + γ d`` for the directions of the Frank-Wolfe variants (Sec. 4.1, App. A):
        ``'fw'`` ``d = s − q`` (= :meth:`add`); ``'away'`` ``d = q − s_v`` (``γ ≤ α_v/(1 − α_v)``);
        ``'pairwise'`` ``d = s − s_v`` (``γ ≤ α_v``). ``s`` is appended as a new component;
        ``v`` is a component index. Components whose weight reaches 0 are kept (see :meth:`prune`)."""
        kind = check_choice("kind", kind, {"fw", "away", "pairwise"})
        gamma = check_real("gamma", gamma, low=0.0)
        if kind == "fw":
            if s is None:
                raise ValueError("kind='fw' needs the new component s")
            return self.add(s, gamma)
        if v is None:
            raise ValueError(f"kind={kind!r} needs the index v of an active component")
        v = check_int("v", v, low=0, high=self.n_components - 1)
        a = self.weights[v]
        if kind == "away":
            gmax = np.inf if a >= 1.0 else a / (1.0 - a)
            if gamma > gmax * (1 + 1e-12):
                raise ValueError(f"gamma must be <= alpha_v/(1 - alpha_v) = {gmax:.6g} for an away step; got {gamma}")
            w = (1.0 + gamma) * self.weights
            w[v] = max(0.0, w[v] - gamma)
            return self.with_weights(w / w.sum())
        if s is None:
            raise ValueError("kind='pairwise' needs the new component s")
        if gamma > a * (1 + 1e-12):
            raise ValueError(f"gamma must be <= alpha_v = {a:.6g} for a pairwise step; got {gamma}")
        q = self.append(s)
        w = q.weights.copy()
        w[v] = max(0.0, w[v] - gamma)
        w[-1] = gamma
        return q.with_weights(w / w.sum())

    def remove(self, k: int) -> Mixture:
        """Drop component ``k`` and renormalise the rest (a drop step); ``k`` must not be the only
        component with positive weight."""
        k = check_int("k", k, low=0, high=self.n_components - 1)
        keep = np.arange(self.n_components) != k
        rest = self.weights[keep]
        if self.n_components == 1 or rest.sum() <= 0:
            raise ValueError("cannot remove the only component carrying weight")
        return Mixture(self.family, self.locs[keep], self.log_scales[keep], rest / rest.sum())

    def prune(self, tol: float = 0.0) -> Mixture:
        """Drop every component with weight ``<= tol`` and renormalise."""
        tol = check_real("tol", tol, low=0.0, high=1.0, high_open=True)
        keep = self.weights > tol
        if not keep.any():
            raise ValueError(f"tol={tol} would remove every component")
        w = self.weights[keep]
        return Mixture(self.family, self.locs[keep], self.log_scales[keep], w / w.sum())

    # -- sampling and densities ---------------------------------------------------------
    def sample_with_labels(self, size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``size`` draws and their component labels: counts ``~ Multinomial(size, α)``, then
        ``x = μ_k + e^{ρ_k} ε`` for each label (one vectorised draw)."""
        size = check_int("size", size, low=0)
        rng = as_generator(rng)
        counts = rng.multinomial(size, self.weights)
        labels = np.repeat(np.arange(self.n_components), counts)
        eps = self.family.standard_sample((size, self.dim), rng)
        return self.locs[labels] + np.exp(self.log_scales[labels]) * eps, labels

    def sample(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` draws, shape ``(size, D)`` (grouped by component; order is irrelevant for MC)."""
        return self.sample_with_labels(size, rng)[0]

    def component_log_density(self, x) -> np.ndarray:
        """``log s_k(x_i)``: shape ``(S, K)``."""
        return self.family.log_density(self._x(x), self.locs, self.log_scales)

    def _standardised(self, x: np.ndarray) -> np.ndarray:
        """``e_ikd = (x_id − μ_kd) / b_kd``: every checked draw under every component, ``(S, K, D)``."""
        return (x[:, None, :] - self.locs[None]) * self._inv_scales[None]

    def _log_terms(self, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``a_ik = log α_k + log s_k(x_i)`` (``(S, K)``) and ``log q(x_i) = logsumexp_k a_ik``
        (``(S, 1)``) from ``e = _standardised(x)``; zero-weight components give ``a = −inf``, which the sum ignores."""
        a = self.family.log_density_standardised(e, self.log_scales[None]) + self._log_weights[None]
        top = a.max(axis=1, keepdims=True)
        top[~np.isfinite(top)] = 0.0
        return a, np.log(np.exp(a - top).sum(axis=1, keepdims=True)) + top

    def log_density(self, x) -> np.ndarray:
        """``log q(x) = logsumexp_k(log α_k + log s_k(x))``: shape ``(S,)`` (blocks of draws: :func:`~.families.by_blocks`)."""
        return by_blocks(lambda xb: self._log_terms(self._standardised(xb))[1][:, 0], self._x(x), self.locs.size)

    def responsibilities(self, x) -> np.ndarray:
        """``α_k s_k(x) / q(x)``: shape ``(S, K)``."""
        def block(xb):
            a, log_q = self._log_terms(self._standardised(xb))
            return np.exp(a - log_q)

        return by_blocks(block, self._x(x), self.locs.size)

    def log_density_and_grad_x(self, x) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`log_density` and :meth:`grad_x_log_density` from one evaluation of the
        components."""
        return self._log_density_and_grad_x(self._x(x))

    def log_density_and_grad_x_fn(self):
        """:meth:`log_density_and_grad_x` without the check of ``x`` (a finite ``(S, D)`` array): the greedy
        step's inner loop, whose draws are finite by construction."""
        return self._log_density_and_grad_x

    def _log_density_and_grad_x(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``log q(x)`` and ``∇_x log q(x) = Σ_k r_k(x) ∇_x log s_k(x)`` on one standardisation of the draws (in
        blocks of draws, :func:`~.families.by_blocks`; one draw, the greedy step's, is one block)."""
        return by_blocks(self._log_density_and_grad_block, x, self.locs.size)

    def _log_density_and_grad_block(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_log_density_and_grad_x` of one block of draws."""
        e = self._standardised(x)
        a, log_q = self._log_terms(e)
        g = self.family.grad_x_log_density_standardised(e, self._inv_scales[None])    # (S, K, D)
        return log_q[:, 0], np.einsum("sk,skd->sd", np.exp(a - log_q), g)

    def grad_x_log_density(self, x) -> np.ndarray:
        """``∇_x log q(x) = Σ_k r_k(x) ∇_x log s_k(x)``: shape ``(S, D)``."""
        return self.log_density_and_grad_x(x)[1]

    def _x(self, x) -> np.ndarray:
        return as_rows("x", x, self.dim)

    def __repr__(self) -> str:
        return f"Mixture({self.family.name}, K={self.n_components}, D={self.dim})"
