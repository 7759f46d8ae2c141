"""Where D3's paper-scale stage spends its CPU time (issue 27): the unit costs of the synthetic 3,706 x 6,040
problem (params_paper.yaml's D3 section), in CPU seconds (``time.process_time``) of this process.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/d3_paper_scale.py [--rounds 2]

Measures, on the problem the notebook builds (MovieLens 100K drawn first from the same generator, then
``synthetic_low_rank_ratings`` at the paper's shape, density, rank and noise; ε = 25dr/cond):

* the pieces of one exact gradient (Gram matrix, ``eigh``, ``W Wᵀ``, ``S θ``) and of one evaluation (Gram matrix,
  ``eigvalsh``, test RMSE);
* one timed iteration of GD, SGD, SGD-DET and an SVRG inner step (``SpectralSolveResult.times``, evaluations off),
  from a realistic iterate (θ after one data-term step from 0 and one GD step);
* a GD call of 4 iterations with evaluations every 2 (the notebook's GD eval_every at paper scale): the
  evaluations' share.

Only the library's public interface is used, so an export of an older commit can be timed the same way
(``PYTHONPATH=<export>/src``, ``INFEROPT_ROOT`` at this checkout for the data): the before -> after table of
benchmarks/README.md comes from alternating the two. Each round is one pass over everything; the table keeps
the minimum over rounds. The machine is shared: read the ratios.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from inferopt._random import as_generator
from inferopt.datasets.movielens import load_movielens_100k, most_rated_subset, synthetic_low_rank_ratings
from inferopt.experiment.timing import TimingOnly
from inferopt.spectral import MatrixCompletion, gd, inverse_time_step, sgd, sgd_det, svrg


def cpu(fn, *args, **kwargs):
    t0 = time.process_time()
    out = fn(*args, **kwargs)
    return time.process_time() - t0, out


def build(seed=0, shape=(3706, 6040), density=0.0447, rank=10, noise=0.5, cond=1e4, lam=0.05):
    rng = as_generator(seed)
    most_rated_subset(load_movielens_100k(test_fraction=0.1, rng=rng), None, None)   # the notebook draws it first
    d, r = shape
    D = synthetic_low_rank_ratings(d, r, rank, int(round(density * d * r)), rng=rng, test_fraction=0.1, noise=noise)
    return MatrixCompletion(D["rows"], D["cols"], D["values"], D["shape"], lam=lam, eps=25.0 * d * r / cond,
                            test=D["test"], rng=seed + 1)


def one_round(prob, theta):
    out = {}
    t, gram = cpu(lambda: theta @ theta.T)
    out["Gram matrix θθᵀ (3,706²)"] = t
    t, (lam, U) = cpu(np.linalg.eigh, gram)
    out["eigh of the Gram matrix"] = t
    t, _ = cpu(np.linalg.eigvalsh, gram)
    out["eigvalsh of the Gram matrix"] = t
    W = U * (np.maximum(lam, 0) + prob.eps) ** -0.25
    t, S = cpu(lambda: W @ W.T)
    out["S = W Wᵀ"] = t
    t, _ = cpu(lambda: S @ theta)
    out["S θ"] = t
    del gram, U, W, S
    t, _ = cpu(prob.exact_spectral_grad, np.array(theta))
    out["exact_spectral_grad"] = t
    t, _ = cpu(prob.objective, np.array(theta))
    out["objective (evaluation)"] = t
    t, _ = cpu(prob.metric, theta)
    out["test RMSE (evaluation)"] = t
    t, _ = cpu(prob.interval, theta)
    out["interval (10 Lanczos steps)"] = t
    off = TimingOnly(prob)
    sched = inverse_time_step(4.0, 0.1)
    res = gd(off, theta, max_iter=1, step=4.0, eval_every=1)
    out["GD iteration"] = float(np.diff(res.times).min())
    res = sgd(off, theta, max_iter=4, step=sched, M=10, N=15, rng=0, eval_every=1)
    out["SGD iteration (N = 15, M = 10)"] = float(np.median(np.diff(res.times)))
    res = sgd_det(off, theta, degree=15, max_iter=3, step=sched, M=10, rng=0, eval_every=1)
    out["SGD-DET iteration (degree 15)"] = float(np.median(np.diff(res.times)))
    res = svrg(off, theta, n_outer=1, n_inner=4, step=4.0, M=10, N=15, rng=0, eval_every=1)
    dt = np.diff(res.times)
    out["SVRG epoch start (exact gradient, 2 intervals, first step)"] = float(dt[0])
    out["SVRG inner step"] = float(np.median(dt[1:]))
    t, res = cpu(gd, prob, theta, max_iter=4, step=4.0, eval_every=2)
    out["GD call, 4 iterations, 3 evaluations: evaluations"] = t - float(res.times[-1])
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args(argv)
    prob = build()
    zero = np.zeros(prob.shape)
    theta = prob.project(zero - 4.0 * prob.g_grad(zero))            # one data-term step from θ = 0
    theta = prob.project(theta - 4.0 * (prob.exact_spectral_grad(theta) + prob.g_grad(theta)))  # and one GD step
    best = {}
    for _ in range(args.rounds):
        for k, v in one_round(prob, theta).items():
            best[k] = min(best.get(k, np.inf), v)
    width = max(map(len, best))
    for k, v in best.items():
        print(f"{k:<{width}}  {v:8.3f}")


if __name__ == "__main__":
    main()
