"""Boosting VI as a problem of the shared Frank-Wolfe core (:class:`inferopt.fw.FWProblem`).

Dresdner et al. (2021), Algorithm 1: minimise ``f(q) = KL(q ‖ p)`` over ``conv(Q)``; the atoms
are base-family components, stored here by integer id, and the linear minimisation oracle
is the greedy step (:func:`~.relbo.greedy_step`, Eq. (4)). The core supplies the active set,
the away/pairwise vertex (Eq. (15)), ``gamma_max`` and the step rules (Alg. 2).

Monte-Carlo estimates (Sec. 4, "Notation"), ``n_samples`` draws *per component*:

* at each iterate ``q = Σ_k α_k s_k`` fresh draws ``X_k ~ s_k`` are taken once; then
  ``m_k = mean_{x ∈ X_k} [log q(x) − log p̃(x)] ≈ ⟨∇f(q), s_k⟩`` (the functional gradient
  ``log q − log p̃``, Eq. (6), (15)), and ``f(q) ≈ Σ_k α_k m_k`` (a stratified estimate);
  ``f(q)`` and ``⟨∇f(q), q⟩`` thus share their samples, as Sec. 4 allows ("the Monte-Carlo
  estimates used to compute Q̂ can be reused");
* the greedy step's component ``s`` gets its own draws, so ``⟨∇f(q), s⟩ = m_s``;
* a trial ``f(q + γ d)`` (Alg. 2 line 5) only changes the mixture weights: with
  ``reuse_samples=True`` it is the same stratified estimate on the iteration's draws (common
  random numbers: ``log p̃`` and every ``log s_j`` at every draw are computed once per
  iteration, a trial costs one log-sum-exp); with ``reuse_samples=False`` every trial draws
  ``n_samples`` fresh points from ``q + γ d`` (as the authors' code does);
* ``dphi(γ) = ⟨∇f(q + γ d), d⟩ = Σ_j d_j m_j(γ)`` on the iteration's draws
  (``ls_draws='iteration'``; a call costs one log-sum-exp); with ``ls_draws='authors'`` it is the
  estimate of the authors' ``line_search_dkl``: ``n_samples`` draws from each side of
  ``d = a − b`` (``s`` and ``q_t`` for a Frank-Wolfe step; ``q_t`` and ``v`` away; ``s`` and ``v``
  pairwise), ``dphi(γ) = mean_a[log q_γ − log p̃] − mean_b[log q_γ − log p̃]``, on *fresh* draws at every
  call, as their TensorFlow graph takes them (``sample_s = s_t.sample([N])`` is a sampling op that runs
  again at every ``.eval()``: a stochastic-approximation search, ``2 · n_samples`` evaluations of
  ``log p̃`` a call; their graph even evaluates ``log q_γ`` and ``log p̃`` at two different draws of a
  side, both unbiased, where we take one); with ``ls_draws='fixed'`` the sides' draws are taken at the
  first call and kept for the step, ``log p̃`` at them evaluated once (common random numbers within the
  step: a sample-average search whose later calls cost no evaluation of ``log p̃``).

The work of the estimates is counted, hardware-neutrally, in evaluations of ``log p̃`` (each a pass of
the log-likelihood over every training row): ``n_logp``; :meth:`move` records its running count
(``work_at_move``), from which :func:`~.boost.boost` gives each step's share.

With ``estimates='authors'`` the estimates at the iterate are the authors' (``blr_step_size.py``):
``f(q_t)`` and ``⟨∇f(q_t), q_t⟩`` (they are the same expectation, Eq. (6)) from ``n_samples`` draws
of the *mixture* ``q_t``, ``⟨∇f(q_t), s⟩`` from ``n_samples`` draws of ``s``, every trial on fresh
draws of ``q_t + γ d`` (``reuse_samples=False``, as their code) and the derivative as ``ls_draws='authors'`` (or ``'fixed'``): the cost of an iteration's
estimates does not grow with the number of components ``K``, where the stratified estimates
above draw ``n_samples`` points per component (``K · n_samples`` evaluations of ``log p̃``). Only
the away and pairwise variants estimate ``⟨∇f(q_t), s_k⟩`` per component (their
``argmax_grad_dotp``, ``n_samples`` draws each), for the away vertex of Eq. (15). With ``reuse_samples=True``
(which needs ``ls_draws='fixed'``) a trial gets the care the line search's derivative gets there, what is fixed within
the step evaluated once: since
``q_t + γ d = q_t + γ (a − b)`` for the two sides of ``d`` (``s`` and ``q_t`` for a Frank-Wolfe step, ``q_t`` and
``v`` away, ``s`` and ``v`` pairwise), ``f(q_t + γ d) = E_{q_t}[h_γ] + γ (E_a[h_γ] − E_b[h_γ])`` with
``h_γ = log(q_t + γ d) − log p̃``, estimated on the draws of ``q_t`` that gave ``f(q_t)`` and the derivative's
fixed draws of ``a`` and ``b``, ``log p̃`` at each evaluated once: a trial costs log-densities of the
components, no evaluation of ``log p̃``, and ``phi(0)`` is ``f(q_t)`` on the same draws (common random numbers
in the sufficient-decrease test).

With ``estimates='authors'`` the run takes, and counts, the estimates the authors' code takes for its rule's
``variant`` (``blr_step_size.py``): the away and pairwise variants (their ``adaptive_afw``, ``adaptive_pfw``) estimate
every component's value at every step, the first (one component) included (``argmax_grad_dotp``); with trials on fresh
draws (``reuse_samples=False``, their construction) the sufficient-decrease test compares with ``f(q_t)`` estimated once more, when
the test is first made (their ``f_t = -elbo(q_t, p, N)``, after the gap's): on ``n_samples`` draws of its own for the
Frank-Wolfe and away variants, whose gap already took ``q_t``'s draws; the pairwise variant's gap takes no draw of
``q_t`` (the away vertex's and ``s``'s), so the iterate's estimate is its ``f_t``, its draws charged to the step only
where the test is made (:meth:`direction`'s ``f_test``). A rule that takes no test (the predefined step, the line
search, a gap ``≤ 0``) takes neither.

``distance`` sets ``‖d‖²`` of the step's :class:`~inferopt.fw.Direction`, the norm in which a backtracking
rule measures its curvature constant: ``'unit'`` (1: ``γ = g/C``, Alg. 2 as printed), ``'exact'`` (``∫(s − q_t)²``
in closed form, :func:`~.distance.l2_distance`) or ``'float32'`` (the authors' Monte-Carlo estimate of it
with float32 densities, :func:`~.distance.l2_distance_authors`: ``inf`` or ``NaN`` where a density overflows).
As in the authors' code the distance is that of ``s − q_t`` for every direction, away and pairwise included.

The objective reported is ``f(q) + log Z`` with the target's ``log_normalizer`` when known
(then it is the KL divergence itself), else ``−ELBO``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.special import logsumexp

from .._clock import clock
from .._selection import TIE_RTOL
from .._validation import check_choice, check_flag, check_size
from ..fw import ActiveSet, Direction
from ..fw.solver import VARIANTS
from .distance import l2_distance, l2_distance_authors
from .estimates import kl
from .families import Component, check_target, get_family
from .mixture import Mixture
from .relbo import greedy_step
from .._random import as_generator

#: where the line search's derivative takes its draws (module docstring)
LS_DRAWS = ("iteration", "authors", "fixed")
#: the estimates at the iterate: ``n_samples`` draws per component, or from the mixture (module docstring)
ESTIMATES = ("stratified", "authors")
#: ``‖d‖²`` of a direction (module docstring)
DISTANCES = ("unit", "exact", "float32")
#: keys of ``greedy`` passed on to :func:`~.relbo.greedy_step`.
GREEDY_KEYS = ("max_iter", "n_samples", "lr", "init_log_scale", "average", "log_scale_bounds", "lr_decay", "start",
               "scale_param", "stored_scale", "anneal")


class BoostingProblem:
    """``min KL(q ‖ p)`` over mixtures of ``family`` components (implements ``FWProblem``).

    Parameters
    ----------
    target : a target of :mod:`.targets` (``dim``, ``log_density``, ``grad_log_density``).
    family : ``'laplace'`` (the paper's choice for logistic regression) or ``'gaussian'``.
    rng : ``numpy.random.Generator`` for every draw.
    n_samples : Monte-Carlo draws per component (the paper: 100).
    reuse_samples : trials ``f(q + γ d)`` on the iteration's draws (True) or fresh draws (False); with
        ``estimates='authors'``, on the iterate's and the step's fixed draws (module docstring).
    ls_draws : the derivative along a Frank-Wolfe direction (the line search's, and an estimated
        ``C_{-1}``'s) on the iteration's draws (``'iteration'``), on fresh draws of the two sides of ``d`` at every
        call as the authors' line search takes them (``'authors'``), or on the sides' draws fixed for the step
        (``'fixed'``; module docstring).
    estimates : ``'stratified'`` (``n_samples`` draws per component, shared by the iteration's
        estimates) or ``'authors'`` (draws from the mixture, as their code with ``reuse_samples=False``; needs
        ``ls_draws='authors'`` or ``'fixed'``, and ``'fixed'`` with ``reuse_samples=True``; module docstring).
    greedy : keyword arguments of :func:`~.relbo.greedy_step` (keys :data:`GREEDY_KEYS`).
    distance : ``'unit'``, ``'exact'`` or ``'float32'`` (module docstring; :data:`DISTANCES`).
    lmo : optional replacement of the greedy step, ``lmo(q, t, rng) -> Component`` (``q`` is
        ``None`` for the first component), e.g. the random components of Fig. 1 (left).
    start : the first component ``q_0`` given (e.g. plain VI run to convergence, :func:`~.relbo.converged_vi`), in
        place of the greedy step's plain VI (the authors' ``--iter0 vi``); ``None``: that greedy step.
    variant : the Frank-Wolfe variant of the run (:func:`~.boost.boost` passes its rule's): with
        ``estimates='authors'`` and ``reuse_samples=False`` the estimates the authors' code takes for it (module docstring).

    ``components`` holds every component proposed so far (the atom with id ``i`` is
    ``components[i]``); a proposal equal to a stored component reuses its id.
    """

    def __init__(self, target, family="laplace", *, rng: np.random.Generator, n_samples: int = 100,
                 reuse_samples: bool = True, ls_draws: str = "iteration", estimates: str = "stratified",
                 greedy: dict | None = None, distance: str = "unit",
                 lmo: Callable[[Mixture | None, int, np.random.Generator], Component] | None = None,
                 start: Component | None = None, variant: str = "fw") -> None:
        self.target = check_target(target)
        self.family = get_family(family)
        if start is not None and (not isinstance(start, Component) or start.dim != self.target.dim
                                  or start.family.name != self.family.name):
            raise TypeError(f"start must be a {self.family.name} Component of dimension {self.target.dim} (the first "
                            f"component) or None; got {start!r}")
        self.first_component = start
        self.rng = as_generator(rng)
        self.n_samples = check_size("n_samples", n_samples, item_bytes=8 * (self.target.dim + 2), item="draw")
        self.reuse_samples = check_flag("reuse_samples", reuse_samples)
        self.ls_draws = check_choice("ls_draws", ls_draws, LS_DRAWS)
        self.estimates = check_choice("estimates", estimates, ESTIMATES)
        self.distance = check_choice("distance", distance, DISTANCES)
        self.variant = check_choice("variant", variant, VARIANTS)
        #: the authors' rules' estimates (module docstring): their construction, trials on fresh draws
        self._authors_test = self.estimates == "authors" and not self.reuse_samples
        if self.estimates == "authors" and self.ls_draws == "iteration":
            raise ValueError("estimates='authors' takes the derivative on the draws of the sides of d, as the authors' code: "
                             f"it needs ls_draws='authors' or 'fixed'; got ls_draws={self.ls_draws!r}")
        if self.estimates == "authors" and self.reuse_samples and self.ls_draws != "fixed":
            raise ValueError("reuse_samples=True with estimates='authors' takes the trials on the step's fixed draws of the "
                             f"sides of d: it needs ls_draws='fixed'; got ls_draws={self.ls_draws!r}")
        greedy = dict(greedy or {})
        unknown = set(greedy) - set(GREEDY_KEYS)
        if unknown:
            raise ValueError(f"greedy has unknown keys {sorted(unknown)}; allowed: {list(GREEDY_KEYS)}")
        self.greedy = greedy
        if lmo is not None and not callable(lmo):
            raise ValueError(f"lmo must be callable (q, t, rng) -> Component; got {type(lmo).__name__}")
        self.custom_lmo = lmo
        self.log_z = float(getattr(target, "log_normalizer", None) or 0.0)
        self.start()

    # -- helpers ----------------------------------------------------------------------
    def mixture(self, active: ActiveSet) -> Mixture:
        """The iterate ``q = Σ α_k s_k`` of the active set."""
        comps = [self.components[i] for i in active.ids]
        return Mixture(self.family, np.array([c.loc for c in comps]), np.array([c.log_scale for c in comps]),
                       active.weights)

    def _store(self, s: Component) -> int:
        if not isinstance(s, Component) or s.family.name != self.family.name or s.dim != self.target.dim:
            raise ValueError(f"the LMO must return a {self.family.name} Component of dimension {self.target.dim}")
        for i, c in enumerate(self.components):
            if np.array_equal(c.loc, s.loc) and np.array_equal(c.log_scale, s.log_scale):
                return i
        self.components.append(s)
        return len(self.components) - 1

    def _ensure(self, ids) -> None:
        """Draw ``n_samples`` points of every component in ``ids`` not sampled at this iterate,
        with ``log p̃`` and every sampled component's log density at every draw."""
        new = [int(i) for i in ids if int(i) not in self._col]
        if not new:
            return
        comps = [self.components[i] for i in new]
        locs = np.array([c.loc for c in comps])
        scales = np.exp(np.array([c.log_scale for c in comps]))
        eps = self.family.standard_sample((len(new), self.n_samples, self.target.dim), self.rng)
        X = (locs[:, None, :] + scales[:, None, :] * eps).reshape(-1, self.target.dim)
        old_ids = list(self._col)
        all_ids = old_ids + new
        all_locs = np.array([self.components[i].loc for i in all_ids])
        all_ls = np.array([self.components[i].log_scale for i in all_ids])
        L_new_rows = self.family.log_density(X, all_locs, all_ls)                      # (n_new, K_all)
        if old_ids:
            L_new_cols = self.family.log_density(self._X, locs, np.log(scales))       # (M_old, n_new comps)
            self._L = np.vstack([np.hstack([self._L, L_new_cols]), L_new_rows])
        else:
            self._L = L_new_rows
        self._X = X if not old_ids else np.vstack([self._X, X])
        self._logp = np.concatenate([self._logp, self._log_p(X)])
        self._owner = np.concatenate([self._owner, np.repeat(np.arange(len(old_ids), len(all_ids)), self.n_samples)])
        for i in new:
            self._col[i] = len(self._col)

    def _log_p(self, X: np.ndarray, charge: bool = True) -> np.ndarray:
        """``log p̃`` at the draws ``X``, counted in :attr:`n_logp` (``charge``; else held in :attr:`_uncharged` for
        :meth:`_test_estimate`)."""
        if charge:
            self.n_logp += len(X)
        else:
            self._uncharged = len(X)
        return self.target.log_density(X)

    def _weights(self, active: ActiveSet) -> np.ndarray:
        """The active weights as a vector over the sampled components (zeros elsewhere)."""
        w = np.zeros(len(self._col))
        w[[self._col[int(i)] for i in active.ids]] = active.weights
        return w

    def _means(self, w: np.ndarray) -> np.ndarray:
        """``m_j = mean_{x ~ s_j} [log q_w(x) − log p̃(x)]`` for every sampled component ``j``."""
        with np.errstate(divide="ignore"):
            log_q = logsumexp(self._L + np.log(np.clip(w, 0.0, None))[None], axis=1)
        return np.bincount(self._owner, log_q - self._logp, minlength=len(w)) / self.n_samples

    # -- FWProblem protocol -----------------------------------------------------------
    def start(self) -> None:
        """Empty iterate: no components, iteration counter 0, no draws."""
        self.components: list[Component] = []
        self.n_lmo = 0
        self.time_greedy: list[float] = []     # CPU seconds of each greedy step (the LMO without its estimate)
        self.n_logp = 0                        # evaluations of log p̃ at a draw (each a pass over the data)
        self.work_at_move: list[int] = []      # n_logp at every move (the end of a step)
        self._f_iterate = float("nan")         # estimates='authors': mean[log q − log p̃] at the last objective's draws
        self._iterate_draws = None             # ... those draws and their log p̃ (reuse_samples=True: the trials')
        self._uncharged = 0                    # evaluations of log p̃ at the iterate not yet charged (module docstring)
        self._reset_draws()

    def _reset_draws(self) -> None:
        D = self.target.dim
        self._col: dict[int, int] = {}
        self._X, self._L = np.zeros((0, D)), np.zeros((0, 0))
        self._logp, self._owner = np.zeros(0), np.zeros(0, dtype=np.intp)

    def lmo(self, active: ActiveSet) -> tuple[int, float]:
        """The greedy step (Alg. 1 line 3) at ``q_t`` and the estimate ``m_s ≈ ⟨∇f(q_t), s⟩``;
        the first call (empty iterate) is plain VI (λ = 1) and returns NaN for the value."""
        q = self.mixture(active) if len(active) else None
        t = self.n_lmo
        self.n_lmo += 1
        tic = clock()
        if q is None and self.first_component is not None:
            s = self.first_component
        elif self.custom_lmo is not None:
            s = self.custom_lmo(q, t, self.rng)
        else:
            anneals = q is not None and self.greedy.get("anneal", "1oversqrt") != "constant"   # λ depends on t
            s = greedy_step(self.target, self.family, q, rng=self.rng, **({"t": max(t, 1)} if anneals else {}),
                            **self.greedy).component
        self.time_greedy.append(clock() - tic)
        sid = self._store(s)
        if q is None:
            return sid, float("nan")
        if self.estimates == "authors":
            return sid, self._residual_mean(q, self.components[sid])
        self._ensure([sid])
        return sid, float(self._means(self._weights(active))[self._col[sid]])

    def _residual_mean(self, q: Mixture, density, keep: bool = False, charge: bool = True) -> float:
        """``mean[log q(x) − log p̃(x)]`` over ``n_samples`` fresh draws ``x`` of ``density`` (``keep``: the draws and
        their ``log p̃`` kept as the iterate's, for the trials of ``reuse_samples=True``; ``charge``: see :meth:`_log_p`)."""
        x = density.sample(self.n_samples, self.rng)
        logp = self._log_p(x, charge)
        if keep:
            self._iterate_draws = (x, logp)
        return float(np.mean(q.log_density(x) - logp))

    def grad_active(self, active: ActiveSet) -> np.ndarray:
        self._ensure(active.ids)
        m = self._means(self._weights(active))
        return m[[self._col[int(i)] for i in active.ids]]

    def grad_iterate(self, active: ActiveSet) -> float:
        """``⟨∇f(q_t), q_t⟩``: the stratified ``Σ_k α_k m_k``, or (``estimates='authors'``) the mean of
        ``log q_t − log p̃`` on the draws of ``q_t`` that gave the last :meth:`objective`."""
        if self.estimates == "authors":
            return self._f_iterate
        return float(active.weights @ self.grad_active(active))

    def _direction_vector(self, active: ActiveSet, kind: str, s, v) -> tuple[np.ndarray, np.ndarray]:
        self._ensure(active.ids if kind == "away" else [*active.ids, s])
        base = self._weights(active)
        d = -base.copy() if kind == "fw" else (base.copy() if kind == "away" else np.zeros_like(base))
        if kind != "away":
            d[self._col[int(s)]] += 1.0
        if kind != "fw":
            d[self._col[int(v)]] -= 1.0
        return base, d

    def _direction_authors(self, active: ActiveSet, kind: str, s, v) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(ids, base, d)`` over the active components and ``s``, without stratified draws."""
        ids = [int(i) for i in active.ids]
        if kind != "away" and int(s) not in ids:
            ids.append(int(s))
        base = np.zeros(len(ids))
        base[:len(active)] = active.weights
        d = -base.copy() if kind == "fw" else (base.copy() if kind == "away" else np.zeros_like(base))
        if kind != "away":
            d[ids.index(int(s))] += 1.0
        if kind != "fw":
            d[ids.index(int(v))] -= 1.0
        return np.array(ids), base, d

    def _test_estimate(self, active: ActiveSet) -> Callable[[], float]:
        """``f_test`` of the authors' rules (module docstring): ``f(q_t) + log Z`` on ``n_samples`` draws of its own
        (Frank-Wolfe and away variants), or the iterate's estimate, its draws charged now (pairwise)."""
        q = self.mixture(active)

        def f_test() -> float:
            if self.variant != "pairwise":
                return self._residual_mean(q, q) + self.log_z
            self.n_logp += self._uncharged
            self._uncharged = 0
            return self._f_iterate + self.log_z

        return f_test

    def direction(self, active: ActiveSet, kind: str, s, v) -> Direction:
        """``phi(γ) ≈ f(q + γ d)`` and ``dphi(γ) ≈ ⟨∇f(q + γ d), d⟩`` (module docstring); with the authors' rules'
        estimates, ``f_test`` and, for the away and pairwise variants at one component, its value (module docstring)."""
        if self.estimates == "authors" and self.variant != "fw" and len(active) == 1:
            self.grad_active(active)    # their argmax_grad_dotp at one component too (the value is the gap's own)
        if self.estimates == "authors":
            ids, base, d = self._direction_authors(active, kind, s, v)
        else:
            base, d = self._direction_vector(active, kind, s, v)
            ids = np.array(sorted(self._col, key=self._col.get))

        def weights(gamma: float) -> np.ndarray:
            # a drop step's vertex reaches 0 in exact arithmetic: a weight within round-off of its terms is 0
            # (a tie with 0, :mod:`inferopt._selection`), not a component kept at 1e-17 whose draws change the estimate
            w = base + gamma * d
            w[w <= TIE_RTOL * (np.abs(base) + gamma * np.abs(d))] = 0.0
            return w / w.sum()

        if self.ls_draws != "iteration":
            sides = self._sides(ids, weights, kind, s, v, fresh=self.ls_draws == "authors")
            dphi = self._authors_dphi(sides, weights)
        else:
            def dphi(gamma: float) -> float:
                return float(d @ self._means(weights(gamma)))

        if self.reuse_samples and self.estimates == "authors":
            phi = self._fixed_phi(ids, weights, sides)
        elif self.reuse_samples:
            def phi(gamma: float) -> float:
                w = weights(gamma)
                return float(w @ self._means(w)) + self.log_z
        else:
            def phi(gamma: float) -> float:
                w = weights(gamma)
                keep = w > 0
                comps = [self.components[i] for i in ids[keep]]
                q = Mixture(self.family, np.array([c.loc for c in comps]), np.array([c.log_scale for c in comps]),
                            w[keep])
                self.n_logp += self.n_samples         # kl's draws of q, each with its log p̃
                return float(kl(self.target, q, n_samples=self.n_samples, rng=self.rng, log_z=self.log_z))

        return Direction(d_sqnorm=self._sqnorm(active, s), phi=phi, dphi=dphi,
                         f_test=self._test_estimate(active) if self._authors_test else None)

    def _sqnorm(self, active: ActiveSet, s) -> float:
        """``‖d‖²`` of :attr:`distance` for the new component ``s`` against the iterate (module docstring)."""
        if self.distance == "unit":
            return 1.0
        comp, q = self.components[int(s)], self.mixture(active)
        if self.distance == "exact":
            return l2_distance(comp, q)
        return l2_distance_authors(comp, q, n_samples=self.n_samples, rng=self.rng, dtype="float32")

    def _sides(self, ids: np.ndarray, weights: Callable[[float], np.ndarray], kind: str, s, v, *,
               fresh: bool) -> Callable[[], dict]:
        """Draws of the two sides of ``d = a − b`` (the authors' ``line_search_dkl``: ``n_samples`` draws from ``b``
        then from ``a``) with the components' log densities and ``log p̃`` at them; the function returns them: new
        draws at every call (``fresh``, as their graph) or those of the first call, kept for the step."""
        cache: dict = {}

        def sides() -> dict:
            if fresh or not cache:
                w0, comps = weights(0.0), [self.components[i] for i in ids]
                keep = w0 > 0
                q = Mixture(self.family, np.array([c.loc for c in comps])[keep],
                            np.array([c.log_scale for c in comps])[keep], w0[keep])
                a = q if kind == "away" else self.components[int(s)]
                b = q if kind == "fw" else self.components[int(v)]
                X = np.vstack([b.sample(self.n_samples, self.rng), a.sample(self.n_samples, self.rng)])
                cache["X"] = X
                cache["L"] = self.family.log_density(X, np.array([c.loc for c in comps]),
                                                     np.array([c.log_scale for c in comps]))
                cache["logp"] = self._log_p(X)
            return cache

        return sides

    def _residuals(self, L: np.ndarray, logp: np.ndarray, w: np.ndarray) -> np.ndarray:
        """``log q_w(x) − log p̃(x)`` at draws whose component log densities are ``L`` (one column per weight)."""
        with np.errstate(divide="ignore"):
            return logsumexp(L + np.log(np.clip(w, 0.0, None))[None], axis=1) - logp

    def _authors_dphi(self, sides: Callable[[], dict], weights: Callable[[float], np.ndarray]) -> Callable[[float], float]:
        """``dphi`` of the authors' ``line_search_dkl`` along ``d = a − b``: ``mean_a[h_γ] − mean_b[h_γ]`` on the
        sides' draws (:meth:`_sides`: fresh at every call, or fixed for the step)."""

        def dphi(gamma: float) -> float:
            cache = sides()
            r = self._residuals(cache["L"], cache["logp"], weights(gamma))
            n = self.n_samples
            return float(r[n:].mean() - r[:n].mean())

        return dphi

    def _fixed_phi(self, ids: np.ndarray, weights: Callable[[float], np.ndarray], sides: Callable[[], dict]
                   ) -> Callable[[float], float]:
        """``phi(γ) = f(q_t + γ d) + log Z`` on fixed draws (``estimates='authors'``, ``reuse_samples=True``; module
        docstring): ``mean_{q_t}[h_γ] + γ (mean_a[h_γ] − mean_b[h_γ])`` on the iterate's draws and the step's sides."""
        if self._iterate_draws is None:
            raise RuntimeError("reuse_samples=True with estimates='authors' needs the iterate's draws: objective() first")
        Xq, logp_q = self._iterate_draws
        comps = [self.components[i] for i in ids]
        Lq: list = []   # the components' log densities at the iterate's draws, at the first trial (a line search never asks)
        n = self.n_samples

        def phi(gamma: float) -> float:
            if not Lq:
                Lq.append(self.family.log_density(Xq, np.array([c.loc for c in comps]), np.array([c.log_scale for c in comps])))
            w = weights(gamma)
            value = self._residuals(Lq[0], logp_q, w).mean()
            if gamma:
                cache = sides()
                r = self._residuals(cache["L"], cache["logp"], w)
                value += gamma * (r[n:].mean() - r[:n].mean())
            return float(value) + self.log_z

        return phi

    def move(self, active: ActiveSet, kind: str, s, v, gamma: float) -> None:
        """The iterate changes: the next estimates use fresh draws; the running work counts are recorded."""
        self.work_at_move.append(self.n_logp)
        self._iterate_draws = None
        self._reset_draws()

    def objective(self, active: ActiveSet) -> float:
        """``f(q) + log Z ≈ Σ_k α_k m_k + log Z`` on fresh draws of every active component, or
        (``estimates='authors'``) ``mean[log q − log p̃] + log Z`` on ``n_samples`` draws of ``q``."""
        if self.estimates == "authors":
            q = self.mixture(active)
            self._uncharged = 0
            self._f_iterate = self._residual_mean(q, q, keep=True,
                                                  charge=not (self._authors_test and self.variant == "pairwise"))
            return self._f_iterate + self.log_z
        self._ensure(active.ids)
        w = self._weights(active)
        return float(w @ self._means(w)) + self.log_z
