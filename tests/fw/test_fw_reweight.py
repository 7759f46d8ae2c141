"""The -proj re-weighting QP against SLSQP, and the package docstring's example."""

import numpy as np
import pytest

import inferopt.fw
from inferopt.fw import simplex_reweight

from test_fw_polytope import reference_optimum


@pytest.mark.parametrize("seed", [0, 1])
def test_simplex_reweight_matches_slsqp(seed):
    rng = np.random.default_rng(seed)
    V, b = rng.normal(size=(10, 25)), rng.normal(size=10)
    res = simplex_reweight(V.T @ V, V.T @ b, float(b @ b))
    assert res.converged
    alpha = res.dense_weights(25)
    assert alpha.min() >= 0 and abs(alpha.sum() - 1) < 1e-12
    direct = float(np.sum((V @ alpha - b) ** 2))
    assert direct == pytest.approx(res.objective[-1], rel=1e-10)
    assert abs(direct - reference_optimum(V, b)) < 1e-8


def test_package_docstring_example_runs():
    doc = inferopt.fw.__doc__
    block = doc.split("::\n\n", 1)[1].split("\n\nThe Frank-Wolfe Hilbert coreset", 1)[0]
    code = "\n".join(line[4:] for line in block.splitlines())
    namespace = {}
    exec(code, namespace)  # noqa: S102 - the documented example must run as written
    assert namespace["res2"].converged
    assert namespace["res"].objective[-1] >= namespace["res2"].objective[-1] - 1e-12
