"""Log-determinant of an SPD matrix at about 1e-2 relative error: time and error side by side.

    .venv/bin/python benchmarks/logdet.py [--n-dense 4000] [--grid 316] [--M 30] [--degree 60] [--steps 30] [--seed 0]

Matrices (exact log-det known):

* dense ``n_dense x n_dense``: ``A = X Xᵀ / k + I`` (shift 1, so that log-det is a sum of positive logs, not a cancellation) with ``X`` Gaussian ``n x k`` (``k = n/2``);
  exact by Cholesky (``2 Σ log L_ii``, its time is the "exact" row);
* sparse ``n = grid²`` (default 316² = 99,856): the 5-point 2-D Dirichlet Laplacian plus ``0.5 I``,
  whose eigenvalues are known in closed form, ``4 - 2cos(iπ/(m+1)) - 2cos(jπ/(m+1)) + 0.5``;
  exact = the sum of their logs (no factorisation).

Estimators (same probe count ``M``):

* Chebyshev: ``inferopt.spectral.spectral_sum(A, "log", a, b, degree=...)`` (Hutchinson + truncated
  Chebyshev, Eq. 3), ``b`` from ``spectral_bounds`` (Lanczos + margin; its time is included), ``a = 0.98 x shift`` (both matrices are PSD + shift I);
* our SLQ: ``inferopt.spectral.slq_logdet(A, M, n_steps)``;
* imate's SLQ: ``imate.logdet(A, method="slq", lanczos_degree=steps, error_rtol=1e-2, min_num_samples=M,
  max_num_samples=4M)`` (imate stops adaptively once its own error estimate reaches 1e-2).
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


def laplacian_problem(m, shift=0.5):
    T = sp.diags([-np.ones(m - 1), 2.0 * np.ones(m), -np.ones(m - 1)], [-1, 0, 1])
    I = sp.identity(m)
    A = (sp.kron(T, I) + sp.kron(I, T) + shift * sp.identity(m * m)).tocsr()
    t0 = time.perf_counter()
    mu = 2.0 - 2.0 * np.cos(np.arange(1, m + 1) * np.pi / (m + 1))
    exact = float(np.sum(np.log(mu[:, None] + mu[None, :] + shift)))
    return A, exact, time.perf_counter() - t0, "closed-form eigenvalues", shift


def run(name, A, exact, exact_time, exact_label, shift, args, rng):
    rows = [(name, f"exact ({exact_label})", exact, exact_time, 0.0)]

    t0 = time.perf_counter()
    a, b = spectral_bounds(A, n_steps=20, margin=0.05, lower=0.98 * shift, rng=rng)  # A = PSD + shift I
    est = spectral_sum(A, "log", a, b, M=args.M, degree=args.degree, rng=rng, check=False)
    rows.append((name, f"Chebyshev (deg {args.degree}, M {args.M}; [a,b]=[{a:.3g},{b:.3g}])", est.value,
                 time.perf_counter() - t0, None))

    t0 = time.perf_counter()
    value, _ = slq_logdet(A, M=args.M, n_steps=args.steps, rng=rng)
    rows.append((name, f"our SLQ ({args.steps} steps, M {args.M})", value, time.perf_counter() - t0, None))

    try:
        import imate

        t0 = time.perf_counter()
        value, info = imate.logdet(A, method="slq", lanczos_degree=args.steps, error_rtol=1e-2, min_num_samples=args.M,
                                   max_num_samples=4 * args.M, return_info=True, verbose=False)
        used = int(info["convergence"]["num_samples_used"])
        rows.append((name, f"imate SLQ ({args.steps} steps, {used} samples)", float(value), time.perf_counter() - t0, None))
    except ImportError:
        rows.append((name, "imate SLQ (imate not installed)", float("nan"), float("nan"), None))
    return [(n_, m_, v, t, abs(v - exact) / abs(exact) if e is None else e) for n_, m_, v, t, e in rows]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n-dense", type=int, default=4000)
    parser.add_argument("--grid", type=int, default=316, help="sparse matrix is grid^2 x grid^2")
    parser.add_argument("--M", type=int, default=30, help="probes")
    parser.add_argument("--degree", type=int, default=60, help="Chebyshev degree")
    parser.add_argument("--steps", type=int, default=30, help="Lanczos steps (ours and imate's)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    rows = []
    if args.n_dense > 0:
        A, exact, t, label, shift = dense_problem(args.n_dense, rng)
        rows += run(f"dense n={args.n_dense}", A, exact, t, label, shift, args, rng)
    if args.grid > 0:
        A, exact, t, label, shift = laplacian_problem(args.grid)
        rows += run(f"sparse 2-D Laplacian+0.5I n={args.grid ** 2}", A, exact, t, label, shift, args, rng)
    width = max(len(r[1]) for r in rows)
    print(f"{'matrix':<38} {'method':<{width}} {'log det':>16} {'time [s]':>10} {'rel. error':>11}")
    for name, method, value, t, err in rows:
        print(f"{name:<38} {method:<{width}} {value:>16.6g} {t:>10.3f} {err:>11.2e}")


if __name__ == "__main__":
    main()
