"""Maximum entropy on {-1, 1}^d (Bach et al. 2012, Sec. 5.3), ``d`` small enough to enumerate.

The max-entropy distribution with moments ``E Phi(x) = mu`` is the exponential family
``p_theta(x) ∝ exp(<theta, Phi(x)>)`` whose ``theta`` minimises the (convex) dual
``log Z(theta) - <theta, mu>``; for ``Phi(x) = x`` it is the product of independent bits
``prod_i (1 + mu_i x_i) / 2``.  Herding over all states (``FeatureTarget`` with the
states' features as candidates) yields a distribution over states: its weights.
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy.optimize import linprog, minimize
from scipy.special import logsumexp, softmax

from .._random import as_generator
from .._validation import as_finite_array, check_in_hull, check_int, check_probabilities, check_real, check_size

#: largest |E_p Phi - mu| accepted from the dual solve (relative to max |features|)
MOMENT_ATOL = 1e-6


def all_states(d: int) -> np.ndarray:
    """The ``2^d`` states of {-1, 1}^d as rows (lexicographic, -1 first)."""
    d = check_int("d", d, low=1, high=20)
    return np.array(list(itertools.product([-1.0, 1.0], repeat=d)))


def independent_maxent(states, mean) -> np.ndarray:
    """``p(x) = prod_i (1 + m_i x_i) / 2`` on ``states``: max entropy with ``E x = m`` (|m_i| <= 1)."""
    m = as_finite_array("mean", mean, ndim=1, nonempty=True)
    if np.any(np.abs(m) > 1):
        dist = float(np.linalg.norm(m - np.clip(m, -1.0, 1.0)))
        raise ValueError(f"mean must lie in [-1, 1]^d; it is infeasible, at a distance {dist:.6g} from it")
    S = as_finite_array("states", states, ndim=2, nonempty=True)
    if S.shape[1] != m.shape[0]:
        raise ValueError(f"mean must have one entry per column of states ({S.shape[1]}); got {m.shape[0]}")
    off = S[np.abs(S) != 1.0]
    if off.size:    # issue 47: (1 + m x) / 2 is a probability only for x = +-1
        raise ValueError(f"states must hold -1 and 1 only (binary variables); got {off.size} other entries, "
                         f"e.g. {off[0]:g}")
    return np.prod((1.0 + S * m) / 2.0, axis=1)


def exponential_family(features, theta) -> np.ndarray:
    """``p_theta`` on the states whose feature rows are ``features``."""
    F = as_finite_array("features", features, ndim=2, nonempty=True)
    theta = as_finite_array("theta", theta, ndim=1)
    if theta.shape[0] != F.shape[1]:
        raise ValueError(f"theta must have length features.shape[1] = {F.shape[1]}; got {theta.shape[0]}")
    return softmax(F @ theta)


def maxent_distribution(features, mu, *, tol: float = 1e-12) -> tuple[np.ndarray, np.ndarray]:
    """Max-entropy distribution over the states with ``E Phi = mu``: returns ``(p, theta)``.

    Minimises the dual ``logsumexp(F theta) - <theta, mu>`` (gradient ``E_theta Phi - mu``) by
    L-BFGS-B; ``mu`` must lie in the interior of the marginal polytope.
    """
    F = as_finite_array("features", features, ndim=2, nonempty=True)
    mu = as_finite_array("mu", mu, ndim=1)
    tol = check_real("tol", tol, low=0.0)
    if len(mu) != F.shape[1]:
        raise ValueError(f"mu must have length features.shape[1] = {F.shape[1]}; got {len(mu)}")

    def dual(theta):
        z = F @ theta
        return logsumexp(z) - theta @ mu, F.T @ softmax(z) - mu

    check_in_hull("mu", mu, F, what="the marginal polytope (the convex hull of the rows of features)")
    res = minimize(dual, np.zeros(F.shape[1]), jac=True, method="L-BFGS-B",
                   options={"gtol": tol, "ftol": 1e-15, "maxiter": 10_000})
    p = exponential_family(F, res.x)
    miss = float(np.abs(F.T @ p - mu).max())
    if miss > MOMENT_ATOL * max(1.0, float(np.abs(F).max())):
        # in the polytope but on its boundary: theta diverges and the moments are not reached
        raise ValueError(f"mu must lie in the interior of the marginal polytope; it is on (or within {miss:.3g} of) "
                         f"its boundary: the max-entropy distribution's moments miss mu by {miss:.3g}")
    return p, res.x


def entropy(p) -> float:
    """Shannon entropy ``-sum p log p`` (nats), with ``0 log 0 = 0``; ``p`` a probability vector."""
    p = check_probabilities("p", p)
    nz = p[p > 0]
    return float(-np.sum(nz * np.log(nz)))


def low_entropy_distribution(features, mu, rng, n_vertices: int = 20) -> np.ndarray:
    """A distribution over the states with moments ``E Phi = mu`` and low entropy, the other end of
    Sec. 5.3's scale: the lowest-entropy of ``n_vertices`` vertices of ``{p >= 0, sum p = 1, F'p = mu}``.

    Entropy is concave, so its minimum over that polytope is at a vertex (a basic solution, on at
    most ``dim + 1`` states); each vertex here is the simplex solution (scipy's HiGHS) of the
    linear program with costs drawn uniformly from ``rng``. The result's entropy bounds the minimum
    entropy from above.
    """
    F = as_finite_array("features", features, ndim=2, nonempty=True)
    mu = as_finite_array("mu", mu, ndim=1)
    if len(mu) != F.shape[1]:
        raise ValueError(f"mu must have length features.shape[1] = {F.shape[1]}; got {len(mu)}")
    n_vertices = check_size("n_vertices", n_vertices, item_bytes=8 * len(F), item="vertex (a linear program)")
    check_in_hull("mu", mu, F, what="the marginal polytope (the convex hull of the rows of features)")
    rng = as_generator(rng)
    A = np.vstack([F.T, np.ones(len(F))])
    b = np.append(mu, 1.0)
    best, best_h = None, np.inf
    for _ in range(n_vertices):
        res = linprog(rng.uniform(size=len(F)), A_eq=A, b_eq=b, bounds=(0, None), method="highs-ds")
        if res.status != 0:
            raise ValueError(f"the moment polytope's linear program failed: {res.message}")
        p = np.clip(res.x, 0.0, None)
        p /= p.sum()
        h = entropy(p)
        if h < best_h:
            best, best_h = p, h
    return best
