"""inferopt.fw on random polytopes in R^m against independent truth: an SLSQP solution of the
simplex QP, the KKT conditions, and ||b - V alpha||^2 recomputed from explicit vectors."""

import numpy as np
import pytest
from scipy.optimize import minimize

from inferopt.fw import ActiveSet, QuadraticHull, frank_wolfe, hull_quadratic

M_DIM, N_ATOMS = 6, 12


def polytope(seed, interior):
    """Vertices V (m x n) and a target b: inside the hull (a random convex combination) or outside."""
    rng = np.random.default_rng(seed)
    V = rng.normal(size=(M_DIM, N_ATOMS))
    b = V @ rng.dirichlet(np.ones(N_ATOMS)) if interior else 2.0 * rng.normal(size=M_DIM)
    return V, b


def reference_optimum(V, b):
    """f* by SLSQP (scipy), independent of inferopt."""
    n = V.shape[1]
    res = minimize(lambda a: np.sum((V @ a - b) ** 2), np.full(n, 1.0 / n),
                   jac=lambda a: 2.0 * V.T @ (V @ a - b), bounds=[(0.0, 1.0)] * n,
                   constraints=[{"type": "eq", "fun": lambda a: a.sum() - 1.0, "jac": lambda a: np.ones(n)}],
                   method="SLSQP", options={"ftol": 1e-15, "maxiter": 2000})
    assert res.status in (0, 8)  # 8: "positive directional derivative", i.e. at rounding level
    return float(res.fun)


class CheckedHull(QuadraticHull):
    """Records, at every iterate, the weights and ||b - V alpha||^2 computed directly from V."""

    def __init__(self, V, b):
        base = QuadraticHull.from_vectors(V, b)
        super().__init__(base.columns, base.c, base.b_sqnorm, base.diag)
        self.V, self.b, self.seen = V, b, []

    def objective(self, active: ActiveSet) -> float:
        alpha = np.zeros(self.V.shape[1])
        alpha[active.ids] = active.weights
        self.seen.append((alpha, float(np.sum((self.V @ alpha - self.b) ** 2))))
        return super().objective(active)


FIXED = ["1/(t+1)", "2/(t+2)"]
ADAPTIVE = ["line_search", "backtracking"]
CASES = [(v, s) for v in ("fw", "away", "pairwise") for s in FIXED + ADAPTIVE]


@pytest.mark.parametrize("variant,step", CASES)
@pytest.mark.parametrize("interior", [True, False])
def test_converges_to_reference_optimum_with_gap_bound_and_simplex(variant, step, interior):
    V, b = polytope(1, interior)
    f_star = reference_optimum(V, b)
    T = 1500
    prob = CheckedHull(V, b)
    res = frank_wolfe(prob, variant=variant, step=step, max_iter=T, tol=1e-11)
    direct = np.array([f for _, f in prob.seen])
    # the incrementally maintained objective is ||b - V alpha||^2 computed from scratch
    np.testing.assert_allclose(res.objective, direct, rtol=1e-9, atol=1e-12)
    # weights stay on the simplex at every iterate
    for alpha, _ in prob.seen:
        assert alpha.min() >= 0.0 and abs(alpha.sum() - 1.0) < 1e-12
    # the FW duality gap upper-bounds the suboptimality at every iterate
    assert len(res.info["gap"]) == len(res.objective)
    assert np.all(res.info["gap"] >= res.objective - f_star - 1e-9)
    # convergence: Jaggi's 2 C_f / (t + 2) bound (C_f <= L diam^2, L = 2), log factor for 1/(t+1)
    diam2 = max(np.sum((V[:, [i]] - V) ** 2, axis=0).max() for i in range(V.shape[1]))
    t = res.n_iter
    bound = 4.0 * diam2 / (t + 2) * (1.0 + np.log(t + 1.0)) if step == "1/(t+1)" else 4.0 * diam2 / (t + 2)
    assert res.objective[-1] - f_star <= bound
    if step in ADAPTIVE and (variant != "fw" or interior):  # linearly convergent cases
        assert res.converged and res.objective[-1] - f_star < 1e-8


@pytest.mark.parametrize("interior", [True, False])
def test_min_norm_point_terminates_exactly(interior):
    V, b = polytope(2, interior)
    res = hull_quadratic(V, b, variant="mnp", tol=0.0)
    assert res.info["stop"] != "max_iter" and res.n_iter < 40   # tol = 0: a floating-point stop, not converged
    assert res.converged == (res.info["gap"][-1] <= 0.0)
    alpha = res.dense_weights(N_ATOMS)
    grad = 2.0 * V.T @ (V @ alpha - b)
    # KKT of min f over the simplex: equal gradients on the support, larger off it
    on = grad[alpha > 0]
    assert np.ptp(on) < 1e-10 and grad.min() >= on.max() - 1e-10
    assert abs(res.objective[-1] - reference_optimum(V, b)) < 1e-8
    steps = np.diff(res.objective)  # Wolfe's major cycles strictly decrease (the last may stall at rounding)
    assert np.all(steps[:-1] < 0) and steps[-1] <= 1e-15


def fitted_slope(obj, f_star, lo=1e-13):
    sub = np.asarray(obj) - f_star
    ok = np.flatnonzero(sub > lo)
    t = ok[len(ok) // 4:]
    return np.polyfit(t, np.log(sub[t]), 1)[0]


@pytest.mark.parametrize("variant,step", [("fw", "line_search"), ("away", "line_search"),
                                          ("pairwise", "line_search"), ("away", "backtracking"),
                                          ("pairwise", "backtracking")])
def test_linear_convergence_with_interior_optimum(variant, step):
    V, b = polytope(3, interior=True)           # f* = 0 and b in the interior of the hull
    res = frank_wolfe(QuadraticHull.from_vectors(V, b), variant=variant, step=step, max_iter=3000, tol=0.0)
    sub = res.objective
    t_hit = int(np.argmax(sub < 1e-12 * sub[0]))
    assert sub[t_hit] < 1e-12 * sub[0] and t_hit < 2500  # a 1/t rate would need ~1e12 steps
    assert fitted_slope(sub[: t_hit + 1], 0.0) < -0.005
    # with the same budget, the 1/(t+1) rule stays far from the optimum (sublinear)
    slow = frank_wolfe(QuadraticHull.from_vectors(V, b), step="1/(t+1)", max_iter=t_hit, tol=0.0)
    assert slow.objective[-1] > 1e3 * sub[t_hit]


@pytest.mark.parametrize("variant", ["away", "pairwise"])
def test_away_and_pairwise_linear_on_a_face(variant):
    V, b = polytope(4, interior=False)
    f_star = reference_optimum(V, b)
    res = frank_wolfe(QuadraticHull.from_vectors(V, b), variant=variant, step="line_search",
                      max_iter=3000, tol=1e-13)
    assert res.converged and res.objective[-1] - f_star < 1e-9
    plain = frank_wolfe(QuadraticHull.from_vectors(V, b), variant="fw", step="line_search",
                        max_iter=res.n_iter, tol=0.0)
    assert plain.objective[-1] - f_star > 100 * max(res.objective[-1] - f_star, 1e-12)


@pytest.mark.parametrize("variant", ["away", "pairwise"])
def test_drop_step_removes_the_atom(variant):
    V = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])   # a triangle; the optimum is on the edge v1-v2
    res = frank_wolfe(QuadraticHull.from_vectors(V, np.array([0.6, 0.4])), variant=variant,
                      step="line_search", init=0, max_iter=20, tol=1e-14)
    assert res.converged
    order = np.argsort(res.atoms)
    assert res.atoms[order].tolist() == [1, 2]
    np.testing.assert_allclose(res.x[order], [0.6, 0.4], atol=1e-12)
    first_drop = np.flatnonzero(res.info["drop"])[0]
    assert res.info["step_type"][first_drop] == variant


@pytest.mark.parametrize("variant", ["away", "pairwise"])
def test_drop_steps_on_random_polytope_keep_support_positive(variant):
    V, b = polytope(6, interior=False)
    far = int(np.argmax(np.sum((V - b[:, None]) ** 2, axis=0)))  # start at the worst vertex
    res = frank_wolfe(QuadraticHull.from_vectors(V, b), variant=variant, step="line_search",
                      init=far, max_iter=500, tol=1e-12)
    assert res.info["drop"].sum() >= 1
    assert far not in res.atoms.tolist()
    assert np.all(res.x > 0) and len(res.atoms) == len(set(res.atoms.tolist()))
    # every drop step shrinks the active set unless the LMO atom was new
    n_active = np.concatenate([[1], res.info["n_active"]])
    dropped = np.flatnonzero(res.info["drop"])
    assert np.all(n_active[dropped + 1] <= n_active[dropped])


def test_gram_and_vector_inputs_agree():
    V, b = polytope(6, interior=False)
    # (exact line search makes the away candidates tie exactly, so use a fixed step here)
    a = hull_quadratic(V, b, variant="away", step="2/(t+2)", max_iter=200, tol=0.0)
    g = hull_quadratic(gram=V.T @ V, c=V.T @ b, b_sqnorm=float(b @ b), variant="away", step="2/(t+2)",
                       max_iter=200, tol=0.0)
    np.testing.assert_allclose(a.objective, g.objective, rtol=1e-10, atol=1e-13)
    np.testing.assert_array_equal(a.info["atom"], g.info["atom"])


def test_first_atom_and_uniform_weights_of_herding_rule():
    V, b = polytope(7, interior=True)
    res = hull_quadratic(V, b, variant="fw", step="1/(t+1)", max_iter=30, tol=0.0)
    visited = np.concatenate([[np.argmax(V.T @ b)], res.info["atom"]])  # first atom: argmax <v_i, b>
    counts = np.bincount(visited, minlength=N_ATOMS) / len(visited)
    np.testing.assert_allclose(res.dense_weights(N_ATOMS), counts, atol=1e-14)
