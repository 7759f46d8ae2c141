"""A2.1's baseline checked against the authors' GIGA: the ``GIGA`` class of the bayesian-coresets copy in the paper's
repository (jackyzyb/bayesian-coresets-optimization, ``bayesiancoresets/snnls/giga.py`` with the ``build`` loop of
``snnls.py``), re-implemented below step for step from their code (its own recomputations of ``Φw`` each step, its
un-normalised combination and its weight update), on A2's own problem construction at a small size."""

import numpy as np
import pytest

import inferopt.coresets as cs


def authors_giga(A, b, itrs):
    """The authors' GIGA after ``itrs`` calls of ``_select`` / ``_reweight`` (their ``build(itrs)``), from ``w = 0``.
    Their error-monotonicity revert and retry never trigger on these problems (asserted)."""
    An = A / np.sqrt((A ** 2).sum(axis=0))
    bnorm = np.sqrt((b ** 2).sum())
    bn = b / bnorm
    w = np.zeros(A.shape[1])
    for _ in range(itrs):
        started, prev = bool((w > 0).any()), np.sqrt(((A @ w - b) ** 2).sum())
        # _select: the geodesic direction from the current (unit) approximation, scored against every unit column
        xw = A @ w
        nw = np.sqrt((xw ** 2).sum()) or 1.0
        xw = xw / nw
        cdir = bn - (bn @ xw) * xw
        cdir /= np.sqrt((cdir ** 2).sum())
        num, cos = An.T @ cdir, An.T @ xw
        ok = (cos > -1.0 + 1e-14) & (1.0 - cos ** 2 > 0.0)
        den = np.where(ok, np.sqrt(np.where(ok, 1.0 - cos ** 2, 1.0)), np.inf)
        f = int(np.argmax(num / den))
        # _reweight: the closed-form geodesic step on the un-normalised vectors, then the optimal scale
        xw = A @ w
        nw = np.sqrt((xw ** 2).sum()) or 1.0
        xf = A[:, f]
        nf = np.sqrt((xf ** 2).sum())
        gA = bn @ (xf / nf) - (bn @ (xw / nw)) * ((xw / nw) @ (xf / nf))
        gB = bn @ (xw / nw) - (bn @ (xf / nf)) * ((xw / nw) @ (xf / nf))
        assert gA > 0.0 and gB >= 0.0, "their NumericalPrecisionError: not reached on this problem"
        a, bb = gB / (gA + gB) / nw, gA / (gA + gB) / nf
        x = a * xw + bb * xf
        nx = np.sqrt((x ** 2).sum())
        scale = bnorm / nx * ((x / nx) @ bn)
        w = a * scale * w
        w[f] = max(0.0, w[f] + bb * scale)
        assert not (started and np.sqrt(((A @ w - b) ** 2).sum()) > prev), "their revert-and-retry: not reached here"
    return w


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("constant", ["exact", "authors"])
def test_giga_matches_the_authors_giga_on_a2s_problem(seed, constant):
    """Same Φ (A2's Gaussian-mean problem, D = 20, N = 60, either constant row), same number of iterations: the weights
    and the objective ‖y − Φw‖² of our GIGA equal theirs to round-off after every number of iterations up to 20."""
    model = cs.make_gaussian_mean(20, 60, np.random.default_rng(seed))
    Phi, y = cs.exact_problem(model, constant=constant)
    for k in (1, 2, 5, 10, 20):
        ours = cs.giga(Phi, y, k).x
        theirs = authors_giga(Phi, y, k)
        np.testing.assert_allclose(ours, theirs, rtol=1e-8, atol=1e-10 * np.abs(theirs).max())
        assert cs.objective(Phi, y, ours) == pytest.approx(cs.objective(Phi, y, theirs), rel=1e-8)
