"""Issue 15: the incremental state of QuadraticHull (``G alpha``) does not drift in long runs, and the
documented step names are the accepted ones."""

import numpy as np
import pytest

from inferopt.fw import STEP_NAMES, QuadraticHull, frank_wolfe, hull_quadratic


def far_problem(seed):
    """Atoms of very different lengths and a target outside their hull: away and pairwise line-search
    steps with large ``gamma_max = alpha_v / (1 - alpha_v)`` amplify rounding in ``G alpha``."""
    rng = np.random.default_rng(seed)
    V = rng.normal(size=(10, 300)) * np.exp(rng.normal(size=300))
    return V, 3.0 * rng.normal(size=10)


@pytest.mark.parametrize(("variant", "seed"), [("pairwise", 0), ("away", 1)])   # pairwise-0 drifted 1.3e-13
def test_objective_and_state_do_not_drift_over_10000_steps(variant, seed):
    V, b = far_problem(seed)
    problem = QuadraticHull.from_vectors(V, b)
    res = frank_wolfe(problem, variant=variant, step="line_search", max_iter=10_250, tol=None)
    assert res.n_iter == 10_250
    exact_state = V.T @ (V[:, res.atoms] @ res.x)                     # G alpha from the weights
    assert np.abs(problem.g_alpha - exact_state).max() < 1e-13 * problem.diag.max()
    exact_objective = float(np.sum((b - V @ res.dense_weights(V.shape[1])) ** 2))
    assert abs(res.objective[-1] - exact_objective) < 1e-13 * float(b @ b)


@pytest.mark.parametrize("doc", [frank_wolfe.__doc__, hull_quadratic.__doc__])
def test_step_docs_list_every_accepted_step_name(doc):
    text = " ".join(doc.split())
    for name in STEP_NAMES:
        assert f"'{name}'" in text, name


def test_away_step_from_an_atom_whose_weight_rounds_to_one():
    """A FW step of gamma ~ 1e-20 leaves weights [1.0, 1e-20] in floating point; an away step from the heavy atom
    then has gamma_max = alpha_v / (1 - alpha_v) = 1 / 1e-20, not a division by zero (C3's row-count check at the
    paper scale, session 44)."""
    from inferopt.fw.active_set import ActiveSet
    from inferopt.fw.solver import _choose
    active = ActiveSet()
    active.fw_update(0, 1.0)
    active.fw_update(1, 1e-20)
    assert active.weights[0] == 1.0 and len(active) == 2
    # <grad, x> estimated apart from the atoms' values (boosting's grad_iterate): away gap 0.5 > FW gap 0.1
    kind, v, slope, gamma_max = _choose("away", active, np.array([3.0, 0.0]), 2.5, 1, 2.4)
    assert (kind, v, slope) == ("away", 0, -0.5)
    assert gamma_max == pytest.approx(1e20)
    # the usual case is untouched: alpha_v / (1 - alpha_v)
    active = ActiveSet()
    active.fw_update(0, 1.0)
    active.fw_update(1, 0.25)
    kind, v, slope, gamma_max = _choose("away", active, np.array([3.0, 0.0]), 2.25, 1, 2.0)
    assert kind == "away" and v == 0 and gamma_max == 0.75 / 0.25
