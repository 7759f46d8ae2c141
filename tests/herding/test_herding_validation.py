"""Bad input raises ValueError naming the argument."""

import numpy as np
import pytest

from inferopt.herding import (
    FeatureTarget,
    SobolevTarget,
    TrigDensity,
    herd,
    mmd2,
    random_errors,
    sobol_points,
    sobolev_kernel,
    welling_herding,
)

TGT = SobolevTarget(1, TrigDensity.uniform())
GRID = np.arange(10) / 10


@pytest.mark.parametrize("call,match", [
    (lambda: sobolev_kernel(GRID, GRID, 0), "s must be >= 1"),
    (lambda: sobolev_kernel(GRID, GRID, 5), "s must be <= 4"),
    (lambda: sobolev_kernel(GRID, [np.nan], 1), "y must contain only finite"),
    (lambda: SobolevTarget(2, "uniform"), "density must be a TrigDensity"),
    (lambda: TrigDensity([2.0, 0.1]), "total mass"),
    (lambda: TrigDensity([1.0, np.nan]), "coef must be"),
    (lambda: TrigDensity.random(-1), "rng must be a non-negative seed"),
    (lambda: TrigDensity.random(np.random.default_rng(0), degree=0), "degree must be >= 1"),
    (lambda: TrigDensity.uniform().ppf([0.5, 1.5]), "u must lie in"),
    (lambda: herd(TGT, GRID, 5, step="newton"), "step must be one of"),
    (lambda: herd(TGT, GRID, 1), "n_points must be >= 2"),
    (lambda: welling_herding(TGT, GRID, 0), "n_points must be >= 1"),
    (lambda: mmd2(TGT, GRID, np.ones(3) / 3), "weights must have one entry per point"),
    (lambda: FeatureTarget([0.1, np.inf]), "mu must contain only finite"),
    (lambda: sobol_points(TrigDensity.uniform(), 0), "n must be >= 1"),
    (lambda: random_errors(TGT, TrigDensity.uniform(), 5, 0, np.random.default_rng(0)), "n_rep must be >= 1"),
])
def test_bad_input_raises(call, match):
    with pytest.raises(ValueError, match=match):
        call()
