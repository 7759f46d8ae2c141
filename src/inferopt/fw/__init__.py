"""The shared conditional-gradient (Frank-Wolfe) core.

The iterate is a convex combination of atoms (an :class:`ActiveSet`: integer atom ids and
weights on the simplex); the problem supplies the linear minimisation oracle (LMO).
Used by herding (Bach et al. 2012), the Frank-Wolfe Hilbert coreset (Campbell &
Broderick 2019) and boosting VI (Dresdner et al. 2021).

Modules
-------
* :mod:`.entry`      -- :func:`hull_quadratic`, the one-call entry point (see below);
* :mod:`.quadratic`  -- :class:`QuadraticHull`, ``||b - V alpha||^2`` from vectors, a Gram matrix or kernel columns;
* :mod:`.solver`     -- :func:`frank_wolfe`: variants 'fw', 'away', 'pairwise' (drop steps) on any :class:`FWProblem`;
* :mod:`.steps`      -- step rules '1/(t+1)', '2/(t+2)', 'line_search', :class:`Backtracking` (slack, max_tries, fallback),
  :class:`StochasticLineSearch` (projected gradient on gamma from ``phi'``);
* :mod:`.mnp`        -- :func:`min_norm_point`, Wolfe's algorithm (fully corrective, finite termination);
* :mod:`.reweight`   -- :func:`simplex_reweight`, the ``-proj`` re-weighting QP of a fixed atom set;
* :mod:`.problem`    -- the :class:`FWProblem` protocol for other objectives (e.g. Monte-Carlo KL in boosting VI);
* :mod:`.active_set`, :mod:`.result` -- :class:`ActiveSet`, :class:`FWResult`.

The common case: ``min_{alpha in simplex} ||b - sum_i alpha_i v_i||^2``
----------------------------------------------------------------------
Atoms as columns of ``V`` (m x N) and a target ``b``, or, without feature vectors, the Gram
matrix ``G = V'V``, ``c = V'b`` and ``||b||^2``::

    import numpy as np
    from inferopt.fw import hull_quadratic

    rng = np.random.default_rng(0)
    V, b = rng.normal(size=(5, 40)), rng.normal(size=5)
    res = hull_quadratic(V, b, variant="fw", step="line_search", max_iter=100)
    res.atoms, res.x              # active atom ids and their simplex weights
    res.dense_weights(40)         # weights of all 40 atoms
    res.objective[-1]             # ||b - V alpha||^2 after the last step
    res.info["gap"]               # FW duality gap per iterate (>= objective - optimum)
    res.info["atom"]              # the atom chosen by the LMO at each step
    res2 = hull_quadratic(gram=V.T @ V, c=V.T @ b, b_sqnorm=b @ b, variant="mnp")

The Frank-Wolfe Hilbert coreset (Campbell & Broderick 2019, Alg. 2) is this problem with
atoms ``v_n = sigma * L_n / sigma_n`` (``sigma_n = ||L_n||``, ``sigma = sum_n sigma_n``) and
``b = L = sum_n L_n``: pass ``gram = sigma**2 * K / outer(sigma_n, sigma_n)`` (``K`` the
Gram matrix of the ``L_n``), ``c = sigma * (K.sum(1)) / sigma_n``, ``b_sqnorm = K.sum()``,
``step='line_search'``, ``max_iter = M - 1`` for at most ``M`` points; the coreset
weights are ``w_n = alpha_n * sigma / sigma_n``.  The first atom is ``argmax_n c_n``.
Iterations count from ``t = 1`` (after the first atom), so ``'1/(t+1)'`` gives uniform
weights (herding) and ``'2/(t+2)'`` the usual open-loop rule.

Other objectives
----------------
Implement :class:`FWProblem` (``start``, ``lmo``, ``grad_active``, ``direction``, ``move``,
``objective``; see :mod:`.problem`) and call :func:`frank_wolfe` (``variant`` 'fw', 'away',
'pairwise'; ``callback(t, active)`` sees every iterate).  For noisy objectives use
``Backtracking(C0, eta=0.9, tau=2.0, slack=lambda t: eps0 / t**2, max_tries=IMAX,
fallback='2/(t+2)')``; ``info['C']`` and ``info['step_status']`` ('accepted'/'fallback')
record each step, ``info['value']``/``info['bound']`` the sufficient-decrease test it made, and
``info['time_lmo']``/``info['time_step']`` the CPU time (:mod:`inferopt._clock`) of the LMO and of the rest of each step
(``final_gap=False`` skips the LMO after the last step).  Boosting VI
(:mod:`inferopt.boosting`) is such a problem, with Monte-Carlo estimates.
"""

from .active_set import ActiveSet
from .entry import HULL_VARIANTS, hull_quadratic
from .mnp import min_norm_point
from .problem import Direction, FWProblem
from .quadratic import QuadraticHull
from .result import FWResult
from .reweight import simplex_reweight
from .solver import VARIANTS, frank_wolfe
from .steps import (STEP_NAMES, Backtracking, ExactLineSearch, FixedStep, Line, StepOutcome, StepRule,
                    StochasticLineSearch, make_step_rule)

__all__ = [
    "HULL_VARIANTS",
    "STEP_NAMES",
    "VARIANTS",
    "ActiveSet",
    "Backtracking",
    "Direction",
    "ExactLineSearch",
    "FWProblem",
    "FWResult",
    "FixedStep",
    "Line",
    "QuadraticHull",
    "StepOutcome",
    "StepRule",
    "StochasticLineSearch",
    "frank_wolfe",
    "hull_quadratic",
    "make_step_rule",
    "min_norm_point",
    "simplex_reweight",
]
