"""One call for the most common case: a quadratic over the convex hull of given atoms."""

from __future__ import annotations

from .._validation import check_choice
from .mnp import min_norm_point
from .quadratic import QuadraticHull
from .result import FWResult
from .solver import frank_wolfe
from .steps import StepRule, make_step_rule

HULL_VARIANTS = ("fw", "away", "pairwise", "mnp")


def hull_quadratic(V=None, b=None, *, gram=None, c=None, b_sqnorm=None, variant: str = "fw",
                   step: str | StepRule = "line_search", max_iter: int = 1000, tol: float = 1e-12,
                   init: int | None = None) -> FWResult:
    """Minimise ``||b - sum_i alpha_i v_i||^2`` over ``alpha`` in the simplex.

    Give the atoms either as the columns of ``V`` (m x N) with the target ``b`` (m,), or by
    ``gram = V'V`` (N x N), ``c = V'b`` (N,) and ``b_sqnorm = ||b||^2``.

    variant : 'fw', 'away', 'pairwise' (with ``step``: '1/(t+1)', '2/(t+2)',
        'line_search', 'backtracking', 'stochastic_line_search' or a StepRule) or 'mnp'
        (Wolfe's min-norm-point, exact; ``step`` ignored).
    max_iter : steps after the first atom (at most ``max_iter + 1`` atoms).
    tol : stop when the duality gap (>= objective - optimum) is <= tol.
    init : first atom (default: ``argmax_i c_i``, the FW step from ``alpha = 0``).

    Returns an :class:`FWResult`: ``atoms`` (ids of the active atoms), ``x`` (their weights),
    ``dense_weights(N)``, ``objective`` (per iteration, ``||b - V alpha||^2``),
    ``info['gap']``, ``info['gamma']``, ``info['step_type']``, ``info['atom']`` (LMO choices).
    """
    check_choice("variant", variant, HULL_VARIANTS)
    make_step_rule(step)      # checked for every variant, even 'mnp' which does not use it
    if V is not None:
        if gram is not None or c is not None or b_sqnorm is not None:
            raise ValueError("give either V and b, or gram, c and b_sqnorm; got both")
        if b is None:
            raise ValueError("b is required with V")
        problem = QuadraticHull.from_vectors(V, b)
    else:
        if gram is None or c is None or b_sqnorm is None:
            raise ValueError("give either V and b, or all of gram, c and b_sqnorm")
        if b is not None:
            raise ValueError("b goes with V; with gram give c = V'b and b_sqnorm = ||b||^2")
        problem = QuadraticHull.from_gram(gram, c, b_sqnorm)
    if variant == "mnp":
        return min_norm_point(problem, max_iter=max_iter, tol=tol, init=init)
    return frank_wolfe(problem, variant=variant, step=step, max_iter=max_iter, tol=tol, init=init)
