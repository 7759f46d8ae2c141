"""D3's unit of work at the paper scale (issue 46): one exact gradient of the smoothed nuclear norm on the whole
MovieLens 100K (1,682 x 943), the paper run's chosen cell (centred ratings, eps 100, lam 1), in CPU seconds of this
process (``time.process_time``), each the least of ``--reps`` calls.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/d3_exact_unit.py [--steps 20] [--reps 5]

D3 budgets every run in exact gradients (``budget`` units; a stochastic step costs ``r`` units, ``r`` timed in the run:
``gradient_seconds``), so a run's CPU time is its units times one exact gradient's seconds whatever its arm: this unit
sets the stage's wall. Measured at GD's iterate after ``--steps`` steps from 0:

* the pieces of :meth:`~inferopt.spectral.MatrixCompletion.exact_spectral_grad` (Gram ``θᵀθ``, ``eigh``, ``S = W Wᵀ``,
  ``θ S``) with their rates in GFLOP/s (one core's peak is the floor of an exact formula), beside ``eigvalsh`` (the
  tridiagonalisation alone), LAPACK's other drivers (``evr``, ``ev``) and a warm start (the previous iterate's
  eigenvectors ``U``: ``eigh(Uᵀ G U)`` of a nearly diagonal matrix, then ``U Z``);
* how many eigenpairs the exact gradient needs to ``rtol`` 1e-10 (a partial decomposition is exact only if few);
* one stochastic step's pieces (the estimator, its interval, the projected step), hence ``r`` and the step's share
  outside ``r``.

The machine is shared: read the ratios, not the walls.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import scipy.linalg

from inferopt.datasets.movielens import load_movielens_100k, most_rated_subset
from inferopt.experiment.spectral import hold_out, run_stream
from inferopt.experiment.spectral.completion import completion_problem, lipschitz_step
from inferopt.experiment.spectral.completion_map import cell_data
from inferopt.spectral import ChebyshevSeries, gd, make_degree_rule, rademacher


def least(fn, reps):
    best = np.inf
    for _ in range(reps):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def main(steps: int = 20, reps: int = 5, eps: float = 100.0, lam: float = 1.0, M: int = 10, N: int = 15):
    ml = most_rated_subset(load_movielens_100k(test_fraction=0.1, rng=run_stream(0, "MovieLens split")), None, None)
    data = cell_data(hold_out(ml, 0.1, run_stream(0, "validation", "MovieLens 100K")), {"eps": eps, "lam": lam, "ratings": "centred"})
    prob = completion_problem(data, eps, lam, rng=0)
    prev = gd(prob, np.zeros(data["shape"]), max_iter=steps - 1, step=lipschitz_step(lam, eps)).x
    theta = np.array(gd(prob, prev, max_iter=1, step=lipschitz_step(lam, eps)).x)   # writeable: nothing kept
    d, r = theta.shape
    G = theta.T @ theta
    lam_, U = np.linalg.eigh(G)
    _, U_prev = np.linalg.eigh(prev.T @ prev)
    W = U * (np.maximum(lam_, 0.0) + eps) ** -0.25
    S = W @ W.T

    def warm():
        B = U_prev.T @ G @ U_prev
        _, Z = np.linalg.eigh(B)
        return U_prev @ Z

    pieces = {   # name: (call, GFLOP)
        "Gram θᵀθ (syrk)": (lambda: theta.T @ theta, r * r * d / 1e9),
        "eigh (LAPACK syevd)": (lambda: np.linalg.eigh(G), 4.0 * r ** 3 / 1e9),
        "S = W Wᵀ (syrk)": (lambda: W @ W.T, r ** 3 / 1e9),
        "θ S (gemm)": (lambda: theta @ S, 2.0 * d * r * r / 1e9),
        "exact_spectral_grad (all)": (lambda: prob.exact_spectral_grad(theta), None),
        "eigvalsh (tridiagonalisation)": (lambda: np.linalg.eigvalsh(G), 4.0 / 3.0 * r ** 3 / 1e9),
        "eigh, driver evr (MRRR)": (lambda: scipy.linalg.eigh(G, driver="evr", check_finite=False), None),
        "eigh, driver ev (QR)": (lambda: scipy.linalg.eigh(G, driver="ev", check_finite=False), None),
        "warm start: eigh(Uᵀ G U), U Z": (warm, None),
    }
    print(f"MovieLens 100K {d} x {r}, centred, eps {eps:g}, lam {lam:g}; GD iterate after {steps} steps; least of {reps}")
    exact = None
    for name, (call, gflop) in pieces.items():
        t = least(call, reps)
        exact = t if name.startswith("exact_spectral_grad") else exact
        rate = f"{gflop / t:6.1f} GFLOP/s" if gflop else ""
        print(f"  {name:<34} {t:8.4f} s  {rate}")
    factor = (np.maximum(lam_, 0.0) + eps) ** -0.5
    for rtol in (1e-6, 1e-10):
        print(f"  eigenpairs needed to rtol {rtol:g}: {int(np.sum(np.abs(factor - eps ** -0.5) > rtol * eps ** -0.5))} of {r} "
              f"(Gram eigenvalues {lam_.min():.3g} .. {lam_.max():.3g})")
    a, b = prob.interval(theta)
    weights = make_degree_rule(ChebyshevSeries("sqrt", a, b), degree=N).draw(np.random.default_rng(0))
    V = rademacher(np.random.default_rng(1), d, M)
    grad = prob.spectral_grad(theta, V, weights, a, b)
    stoch = {"stochastic gradient (M probes, degree N)": least(lambda: prob.spectral_grad(theta, V, weights, a, b), reps),
             "its interval (Lanczos)": least(lambda: prob.interval(theta), reps),
             "projected step (descent_step)": least(lambda: prob.descent_step(theta, 1e-3, grad.copy()), reps)}
    for name, t in stoch.items():
        print(f"  {name:<42} {t:8.4f} s")
    ratio = stoch["stochastic gradient (M probes, degree N)"] / exact
    outside = (stoch["its interval (Lanczos)"] + stoch["projected step (descent_step)"]) / stoch["stochastic gradient (M probes, degree N)"]
    print(f"  r = stochastic / exact = {ratio:.3f}; a stochastic step's time outside r: {outside:.1%} of the estimator's")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--reps", type=int, default=5)
    main(**vars(ap.parse_args()))
