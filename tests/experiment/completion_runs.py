"""Constructed runs for the tests of D3's experiment layer (test_completion_*.py): test-RMSE curves against time,
one evaluation a second, falling from the training mean's test RMSE toward the model optimum's."""

import numpy as np

from inferopt.spectral import SpectralSolveResult

T = np.arange(0.0, 11.0)      # 0..10 s, one evaluation a second
START, OPT = 1.0, 0.5         # the training mean's test RMSE (the runs' start) and the model optimum's


def result(rmse):
    """A run whose test RMSE is ``rmse`` at the times ``T``, one step a second."""
    rmse = np.asarray(rmse, float)
    return SpectralSolveResult(x=np.zeros(1), objective=np.full(T.size, np.nan), n_iter=T.size - 1, converged=False, message="",
                               times=T, iterations=np.arange(T.size), metric=rmse)


def falling(rate, floor=OPT):
    """A test-RMSE curve falling from ``START`` by ``rate`` a second down to ``floor``."""
    return np.maximum(START - rate * T, floor)
