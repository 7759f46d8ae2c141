"""Bad input raises ValueError naming the argument."""

import numpy as np
import pytest

from inferopt.fw import (
    Backtracking,
    FixedStep,
    QuadraticHull,
    frank_wolfe,
    hull_quadratic,
    min_norm_point,
    simplex_reweight,
)

V = np.random.default_rng(0).normal(size=(3, 5))
B = np.ones(3)


@pytest.mark.parametrize("kwargs,match", [
    (dict(V=np.where(np.eye(3, 5) > 0, np.nan, V), b=B), "V must contain only finite"),
    (dict(V=V, b=np.ones(4)), "b must have length"),
    (dict(V=V, b=np.array([1.0, np.inf, 0.0])), "b must contain only finite"),
    (dict(V=V[0], b=B), "V must be 2-dimensional"),
    (dict(V=V, b=B, variant="newton"), "variant must be one of"),
    (dict(V=V, b=B, step="armijo"), "step must be one of"),
    (dict(V=V, b=B, max_iter=0), "max_iter must be >= 1"),
    (dict(V=V, b=B, max_iter=2.5), "max_iter must be an integer"),
    (dict(V=V, b=B, tol=-1.0), "tol must be >= 0"),
    (dict(V=V, b=B, gram=V.T @ V), "either V and b"),
    (dict(V=V), "b is required"),
    (dict(gram=V.T @ V, c=V.T @ B), "all of gram, c and b_sqnorm"),
    (dict(gram=V.T @ V + np.triu(np.ones((5, 5)), 1), c=V.T @ B, b_sqnorm=3.0), "gram must be symmetric"),
    (dict(gram=V @ V.T, c=V.T @ B, b_sqnorm=3.0), "c must have length"),
    (dict(gram=V.T @ V, c=V.T @ B, b_sqnorm=-1.0), "b_sqnorm must be >= 0"),
    (dict(gram=np.ones((5, 4)), c=V.T @ B, b_sqnorm=3.0), "gram must be square"),
])
def test_hull_quadratic_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        hull_quadratic(**kwargs)


@pytest.mark.parametrize("kwargs,match", [
    (dict(tau=1.0), "tau must be > 1"),
    (dict(tau=0.5), "tau must be > 1"),
    (dict(eta=0.0), "eta must be > 0"),
    (dict(eta=1.5), "eta must be <= 1"),
    (dict(C0=0.0), "C0 must be > 0"),
    (dict(slack=-1e-3), "slack must be >= 0"),
    (dict(max_tries=0), "max_tries must be >= 1"),
    (dict(fallback="3/(t+3)"), "fallback must be one of"),
    (dict(fallback="backtracking"), "fallback must be a rule"),
])
def test_backtracking_rejects_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Backtracking(**kwargs)


def test_other_bad_input():
    prob = QuadraticHull.from_vectors(V, B)
    with pytest.raises(ValueError, match="variant must be one of"):
        frank_wolfe(prob, variant="blended")
    with pytest.raises(ValueError, match="rule must be one of"):
        FixedStep("1/t")
    with pytest.raises(ValueError, match="slack\\(t\\) must return"):
        frank_wolfe(prob, step=Backtracking(slack=lambda t: -1.0), max_iter=3)
    with pytest.raises(ValueError, match="problem must be a QuadraticHull"):
        min_norm_point(object())
    with pytest.raises(ValueError, match="init must be <= 4"):
        min_norm_point(prob, init=7)
    with pytest.raises(ValueError, match="diag must have the shape"):
        QuadraticHull.from_columns(lambda ids: V.T @ V[:, ids], V.T @ B, 3.0, np.ones(4))
    with pytest.raises(TypeError, match="columns must be callable"):
        QuadraticHull.from_columns(V.T @ V, V.T @ B, 3.0, np.ones(5))
    with pytest.raises(ValueError, match="gram must contain only finite"):
        simplex_reweight(np.full((2, 2), np.inf), np.ones(2), 1.0)


def test_line_search_needs_a_quadratic_and_backtracking_needs_phi():
    from inferopt.fw import Line
    from inferopt.fw.steps import ExactLineSearch
    with pytest.raises(ValueError, match="needs a problem that is quadratic"):
        ExactLineSearch()(Line(t=1, slope=-1.0, f0=0.0, gamma_max=1.0))
    with pytest.raises(ValueError, match="needs Line.phi"):
        Backtracking()(Line(t=1, slope=-1.0, f0=0.0, gamma_max=1.0))
