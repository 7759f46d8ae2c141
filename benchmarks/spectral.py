"""Numbers behind target D2 (Lemma 1) and the cost of the amortised gradient (Sec. 5.1).

    .venv/bin/python benchmarks/spectral.py [--reps 4000] [--seed 0]

Table 1: mean of R independent estimates of tr f(A) and of the directional derivative
<∇_A tr f(A), I> = tr f'(A) (M = 2 probes each) against the exact eigen-decomposition values, in standard
errors, for the randomised (optimal degrees, mean N) and the fixed-degree estimators.
Table 2: wall time of one stochastic gradient for A = θθᵀ + εI: amortised adjoint form against
the general forward recursion (6) (which needs one pass per parameter block).
Table 3 (``--gp-n``, 0 skips it): D5's cost per iteration on the sound data (SKI GP, the notebook's
settings: M = 10 probes, mean Chebyshev degree N = 30, 25 Lanczos/CG steps): SGD against
LANCZOS, the same iterations of each (set-up included), interleaved ``--gp-reps`` times, minimum of the
process's CPU seconds (``time.process_time``, immune to time-slicing on a shared machine), one BLAS thread.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from inferopt.spectral import (
    ChebyshevSeries,
    exact_matrix_gradient,
    exact_spectral_sum,
    grad_lowrank,
    grad_recursion,
    lowrank_derivatives,
    make_degree_rule,
    rademacher,
    replicated_estimates,
    replicated_grad_estimates,
)


def random_spd(d, lo, hi, seed):
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    lam = np.geomspace(lo, hi, d)  # crowded at the singular end, where truncation errs most
    return (Q * lam) @ Q.T


def unbiasedness_table(R, seed):
    a, b, d = 0.05, 0.95, 20
    A = random_spd(d, 0.06, 0.9, seed)
    E = np.eye(d)  # the derivative along I: d/dt tr f(A + tI) = tr f'(A)
    print(f"Table 1 (D2): d={d}, spectrum geometric in [0.06, 0.9], [a, b] = [{a}, {b}], M=2 probes, R={R} replications")
    print(f"{'f':5s} {'quantity':9s} {'estimator':14s} {'mean':>12s} {'exact':>12s} {'SE':>10s} {'|z|':>7s}")
    rng = np.random.default_rng(seed)
    for name in ("log", "sqrt"):
        series = ChebyshevSeries(name, a, b)
        exact_tr = exact_spectral_sum(A, name)
        exact_gr = float(np.sum(E * exact_matrix_gradient(A, name)))
        for label, rule in (("optimal N=5", make_degree_rule(series, N=5)), ("fixed n=2", make_degree_rule(series, degree=2))):
            for qty, est, exact in (
                ("trace", replicated_estimates(A, rule, a, b, R=R, M=2, rng=rng), exact_tr),
                ("gradient", replicated_grad_estimates(A, [E], rule, a, b, R=R, M=2, rng=rng)[:, 0], exact_gr),
            ):
                se = est.std(ddof=1) / np.sqrt(est.size)
                z = abs(est.mean() - exact) / se
                print(f"{name:5s} {qty:9s} {label:14s} {est.mean():12.5f} {exact:12.5f} {se:10.5f} {z:7.2f}")


def timing_table(seed):
    print("\nTable 2: one gradient of tr sqrt(θθᵀ + εI), M=4 probes, degree n (seconds)")
    print(f"{'d':>6s} {'r':>4s} {'n':>4s} {'amortised':>11s} {'recursion (6)':>14s} {'max |diff|':>11s}")
    rng = np.random.default_rng(seed)
    for d, r, n in ((20, 3, 15), (40, 5, 15), (60, 5, 30)):
        theta = rng.uniform(0, 1, (d, r))
        eps = 0.5
        A = theta @ theta.T + eps * np.eye(d)
        a, b = eps, 1.1 * np.linalg.eigvalsh(A)[-1]
        w = ChebyshevSeries("sqrt", a, b).coefficients(n)
        V = rademacher(rng, d, 4)
        t = time.perf_counter()
        g1 = grad_lowrank(theta, eps, V, w, a, b)
        t1 = time.perf_counter() - t
        dA = lowrank_derivatives(theta)
        t = time.perf_counter()
        g2 = grad_recursion(A, dA, V, w, a, b).reshape(theta.shape)
        t2 = time.perf_counter() - t
        print(f"{d:6d} {r:4d} {n:4d} {t1:11.5f} {t2:14.5f} {np.abs(g1 - g2).max():11.2e}")


def gp_iteration_table(n, n_iter, reps, seed):
    from inferopt.datasets.timeseries import load_sound
    from inferopt.spectral import SKIGaussianProcess
    from inferopt.spectral.optim import inverse_time_step, lanczos_gd, sgd

    x, y, xt, yt = load_sound(n_train=n, rng=np.random.default_rng(seed))
    r = int(np.ceil(max(x.max(), xt.max()) - min(x.min(), xt.min())) * 2) + 5  # D5: grid_per_unit = 2
    theta0, step = np.array([1.0, 0.5, 2.0]), inverse_time_step(0.1 / n, 0.02)

    def make():
        return SKIGaussianProcess(x, y / y.std(), r=r, low=[0.1, 0.05, 0.5], high=[5.0, 10.0, 200.0], cg_tol=1e-6,
                                  lanczos_steps=25, dense_limit=0, rng=seed)

    runs = {
        "SGD": lambda: sgd(make(), theta0, max_iter=n_iter, step=step, M=10, N=30, rng=seed + 1, eval_every=n_iter),
        "LANCZOS": lambda: lanczos_gd(make(), theta0, max_iter=n_iter, step=step, M=10, rng=seed + 1, eval_every=n_iter),
    }
    best = {name: np.inf for name in runs}
    for _ in range(reps):  # interleaved repeats, minimum per method
        for name, run in runs.items():
            t0 = time.process_time()
            run()
            best[name] = min(best[name], (time.process_time() - t0) / n_iter)
    print(f"\nTable 3 (D5): CPU seconds per iteration, sound data d={n}, r={r} inducing points, {n_iter} iterations, "
          f"min of {reps} interleaved runs")
    print(f"{'SGD':>10s} {'LANCZOS':>10s} {'SGD/LANCZOS':>12s}")
    print(f"{best['SGD']:10.3f} {best['LANCZOS']:10.3f} {best['SGD'] / best['LANCZOS']:12.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gp-n", type=int, default=35000, help="sound-data size of Table 3 (0: skip)")
    parser.add_argument("--gp-iters", type=int, default=3)
    parser.add_argument("--gp-reps", type=int, default=2)
    parser.add_argument("--skip-tables", action="store_true", help="only Table 3")
    args = parser.parse_args()
    if not args.skip_tables:
        unbiasedness_table(args.reps, args.seed)
        timing_table(args.seed)
    if args.gp_n > 0:
        gp_iteration_table(args.gp_n, args.gp_iters, args.gp_reps, args.seed)


if __name__ == "__main__":
    main()
