"""Log-determinant of an SPD matrix at about 1e-2 relative error: time and error side by side.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/logdet.py [--n-dense 4000] [--grid 316] [--M 10] [--degree 30]
        [--steps 30] [--repeats 5] [--seed 0]

Matrices (exact log-det known):

* dense ``n_dense x n_dense``: ``A = X Xᵀ / k + I`` (shift 1, so that log-det is a sum of positive logs, not a cancellation) with ``X`` Gaussian ``n x k`` (``k = n/2``);
  exact by Cholesky (``2 Σ log L_ii``, its time is the "exact" row);
* dense RBF ``n_rbf x n_rbf`` (default 3,000): ``K + I`` with ``K_ij = exp(-|x_i - x_j|² / (2·0.1²))`` for
  ``x_i`` uniform in the unit square (a GP's covariance with unit noise); exact by Cholesky;
* sparse ``n = grid²`` (default 316² = 99,856): the 5-point 2-D Dirichlet Laplacian plus ``0.5 I``,
  whose eigenvalues are known in closed form, ``4 - 2cos(iπ/(m+1)) - 2cos(jπ/(m+1)) + 0.5``;
  exact = the sum of their logs (no factorisation).

Estimators (same probe count ``M``):

* Chebyshev: ``inferopt.spectral.spectral_sum(A, "log", a, b, degree=...)`` (Hutchinson + truncated
  Chebyshev, Eq. 3), ``b`` from ``spectral_bounds`` (``--bound-steps`` Lanczos steps + margin; its time is included), ``a = 0.98 x shift``
  (every matrix is PSD + shift I); degree 30 = 15 block products with ``A`` (moment doubling); with
  ``M`` and ``2M`` probes (the error at equal time is the question, not at equal probes);
* our SLQ: ``inferopt.spectral.slq_logdet(A, M, n_steps)``;
* imate's SLQ (the peer): ``imate.logdet(A, method="slq", lanczos_degree=steps, min_num_samples=M,
  max_num_samples=M, num_threads=1)``: the same Lanczos steps and probes, one thread like our BLAS.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import scipy.sparse as sp

from inferopt.spectral import slq_logdet, spectral_bounds, spectral_sum


def dense_problem(n, rng):
    k = max(n // 2, 1)
    X = rng.standard_normal((n, k))
    A = X @ X.T / k + np.eye(n)
    t0 = time.perf_counter()
    L = np.linalg.cholesky(A)
    exact = 2.0 * float(np.sum(np.log(np.diag(L))))
    return A, exact, time.perf_counter() - t0, "Cholesky", 1.0


def rbf_problem(n, rng, dim=2, lengthscale=0.1, noise=1.0):
    X = rng.uniform(size=(n, dim))
    sq = np.sum(X * X, axis=1)
    D2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * X @ X.T, 0.0)
    A = np.exp(-D2 / (2.0 * lengthscale**2)) + noise * np.eye(n)
    A = 0.5 * (A + A.T)
    t0 = time.perf_counter()
    L = np.linalg.cholesky(A)
    exact = 2.0 * float(np.sum(np.log(np.diag(L))))
    return A, exact, time.perf_counter() - t0, "Cholesky", noise


def laplacian_problem(m, shift=0.5):
    T = sp.diags([-np.ones(m - 1), 2.0 * np.ones(m), -np.ones(m - 1)], [-1, 0, 1])
    I = sp.identity(m)
    A = (sp.kron(T, I) + sp.kron(I, T) + shift * sp.identity(m * m)).tocsr()
    t0 = time.perf_counter()
    mu = 2.0 - 2.0 * np.cos(np.arange(1, m + 1) * np.pi / (m + 1))
    exact = float(np.sum(np.log(mu[:, None] + mu[None, :] + shift)))
    return A, exact, time.perf_counter() - t0, "closed-form eigenvalues", shift


def estimators(A, shift, degree, args):
    """name -> callable(rng) returning the estimate (the timed unit)."""
    import imate

    def chebyshev(M):
        def run(rng):
            a, b = spectral_bounds(A, n_steps=args.bound_steps, margin=0.05, lower=0.98 * shift, rng=rng)  # A = PSD + shift I
            return spectral_sum(A, "log", a, b, M=M, degree=degree, rng=rng, check=False).value
        return run

    return {
        f"Chebyshev (deg {degree}, M {args.M})": chebyshev(args.M),
        f"Chebyshev (deg {degree}, M {2 * args.M})": chebyshev(2 * args.M),
        f"our SLQ ({args.steps} steps, M {args.M})": lambda rng: slq_logdet(A, M=args.M, n_steps=args.steps, rng=rng)[0],
        f"imate SLQ ({args.steps} steps, M {args.M}, 1 thread)": lambda rng: float(imate.logdet(
            A, method="slq", lanczos_degree=args.steps, min_num_samples=args.M, max_num_samples=args.M,
            num_threads=1, seed=int(rng.integers(2**31)), verbose=False)),
    }


def run(name, A, exact, exact_time, exact_label, shift, degree, args):
    """Every estimator ``--repeats`` times, interleaved (one round = each estimator once, with a
    fresh seed); time = minimum over rounds of the process's CPU seconds (``time.process_time``:
    immune to time-slicing on a shared machine; every estimator runs on one thread), error = mean
    relative error over rounds."""
    fns = estimators(A, shift, degree, args)
    times = {m: [] for m in fns}
    errors = {m: [] for m in fns}
    for rep in range(args.repeats):
        for method, fn in fns.items():
            rng = np.random.default_rng([args.seed, rep])
            t0 = time.process_time()
            value = fn(rng)
            times[method].append(time.process_time() - t0)
            errors[method].append(abs(value - exact) / abs(exact))
    peer = min(times[next(m for m in fns if m.startswith("imate"))])
    rows = [(name, f"exact ({exact_label})", exact_time, 0.0, float("nan"))]
    rows += [(name, m, min(times[m]), float(np.mean(errors[m])), min(times[m]) / peer) for m in fns]
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n-dense", type=int, default=4000)
    parser.add_argument("--grid", type=int, default=316, help="sparse matrix is grid^2 x grid^2")
    parser.add_argument("--M", type=int, default=10, help="probes")
    parser.add_argument("--n-rbf", type=int, default=3000, help="dense RBF kernel matrix + I (0: skip)")
    parser.add_argument("--degree", type=int, default=30, help="Chebyshev degree (dense and sparse matrices)")
    parser.add_argument("--degree-rbf", type=int, default=80, help="Chebyshev degree for the RBF matrix (b/a ~ 200)")
    parser.add_argument("--bound-steps", type=int, default=10, help="Lanczos steps of spectral_bounds")
    parser.add_argument("--steps", type=int, default=30, help="Lanczos steps (ours and imate's)")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved rounds (time: min; error: mean)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rows = []
    if args.n_dense > 0:
        A, exact, t, label, shift = dense_problem(args.n_dense, np.random.default_rng(args.seed))
        rows += run(f"dense n={args.n_dense}", A, exact, t, label, shift, args.degree, args)
    if args.n_rbf > 0:
        A, exact, t, label, shift = rbf_problem(args.n_rbf, np.random.default_rng(args.seed))
        rows += run(f"dense RBF+I n={args.n_rbf}", A, exact, t, label, shift, args.degree_rbf, args)
    if args.grid > 0:
        A, exact, t, label, shift = laplacian_problem(args.grid)
        rows += run(f"sparse 2-D Laplacian+0.5I n={args.grid ** 2}", A, exact, t, label, shift, args.degree, args)
    width = max(len(r[1]) for r in rows)
    print(f"one interleaved run, {args.repeats} rounds: time = min over rounds of CPU seconds, error = mean |rel. error| over rounds")
    print(f"| matrix | method | CPU time [s] | mean rel. error | time / imate |\n|---|---|---:|---:|---:|")
    for name, method, t, err, ratio in rows:
        print(f"| {name} | {method:<{width}} | {t:.3f} | {err:.2e} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
