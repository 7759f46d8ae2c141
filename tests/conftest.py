"""Fixtures shared by the test packages."""

import numpy as np
import pytest


def _spd_matrix(d: int, eigenvalues, rng) -> np.ndarray:
    """``Q diag(λ) Qᵀ`` with ``Q`` the orthogonal factor of a ``d × d`` Gaussian matrix drawn first
    from ``rng`` (a Generator or a seed); ``eigenvalues``: ``d`` values, or a function of ``rng``
    returning them (called after ``Q`` is drawn)."""
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    lam = np.asarray(eigenvalues(rng) if callable(eigenvalues) else eigenvalues, dtype=float)
    if lam.shape != (d,):
        raise ValueError(f"eigenvalues must hold {d} values; got shape {lam.shape}")
    return (Q * lam) @ Q.T


@pytest.fixture
def spd_matrix():
    """The one builder of random symmetric positive-definite matrices with a known spectrum."""
    return _spd_matrix


@pytest.fixture(scope="session")
def completion_problem():
    """A small matrix-completion problem (40 x 50, rank 3) for the timing-round tests."""
    from inferopt.datasets.movielens import synthetic_low_rank_ratings
    from inferopt.spectral import MatrixCompletion
    D = synthetic_low_rank_ratings(40, 50, 3, 700, rng=0, test_fraction=0.1, noise=0.5)
    return MatrixCompletion(D["rows"], D["cols"], D["values"], D["shape"], lam=0.05, eps=25 * 40 * 50 / 1e4,
                            test=D["test"], rng=0)


@pytest.fixture(scope="session")
def completion_calls(completion_problem):
    """``calls(seed=0)``: seeded GD (8 iterations), SGD (12) and SVRG (3 x 4) calls on ``completion_problem``."""
    from functools import partial
    from inferopt.spectral import gd, inverse_time_step, sgd, svrg

    def calls(seed=0):
        ss = np.random.SeedSequence([seed]).spawn(2)
        theta0 = np.zeros(completion_problem.shape)
        return {
            "GD": partial(gd, completion_problem, theta0, max_iter=8, step=4.0, eval_every=2),
            "SGD": partial(sgd, completion_problem, theta0, max_iter=12, step=inverse_time_step(4.0, 0.1), M=3, N=5,
                           rng=ss[0], eval_every=2),
            "SVRG": partial(svrg, completion_problem, theta0, n_outer=3, n_inner=4, step=4.0, M=3, N=5, rng=ss[1],
                            eval_every=2),
        }
    return calls
