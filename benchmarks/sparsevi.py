"""SparseVI's cost at A3's paper size: the exact-expectation gradient on the active set
(``coresets._active_covariance``) against the full ``residual_covariance`` (the O(ND²) path).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/sparsevi.py [--sizes 10 50 100 150 200 250 300]
        [--repeats 5] [--trial]

Radial-basis regression of A3 (California housing stand-in, N = 1000 records, D = 301 bases).
For each active-set size k (random support, weights of the scale SparseVI reaches): one weight
step costs one gradient; one selection costs one full ``residual_covariance`` (both paths) plus,
for the fast path, the per-selection set-up (thin QR and ``P = FQ``). Times are the minimum of
``--repeats`` interleaved rounds. The per-trial estimate integrates the per-k costs over the
trial (k = 1..300, 100 steps per selection) by linear interpolation. ``--trial`` also times one
whole SparseVI trial with the fast path (k = 300, 100 steps). Times are CPU seconds of this
process (``time.process_time``, one BLAS thread): on a shared machine, wall time mostly measures
the other users' load.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import inferopt.coresets as cs
from inferopt.coresets._active_covariance import active_covariance
from inferopt.datasets import load


def a3_model(seed):
    housing = load("california_housing")
    coords = housing[["longitude", "latitude"]].to_numpy(float)
    targets = np.log10(housing["median_house_value"].to_numpy(float))
    model, _ = cs.make_rbf_regression(coords, targets, rng=np.random.default_rng(seed), n_subsample=1000, n_per_scale=50)
    return model


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 50, 100, 150, 200, 250, 300])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--steps", type=int, default=100, help="weight steps per selection")
    parser.add_argument("--trial", action="store_true", help="also time one whole fast SparseVI trial")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    model = a3_model(args.seed)
    rng = np.random.default_rng(args.seed + 1)
    fast = active_covariance(model.residual_covariance)
    rows = []
    for k in args.sizes:
        active = np.sort(rng.choice(model.N, size=k, replace=False))
        w = np.zeros(model.N)
        w[active] = rng.exponential(model.N / k, size=k)
        best = {"full": np.inf, "setup": np.inf, "step": np.inf}
        for _ in range(args.repeats):  # interleaved rounds
            t0 = time.process_time()
            g_full = model.residual_covariance(w)[0][active]
            t1 = time.process_time()
            grad = fast(active)
            t2 = time.process_time()
            g_fast = grad(w)
            t3 = time.process_time()
            best = {"full": min(best["full"], t1 - t0), "setup": min(best["setup"], t2 - t1), "step": min(best["step"], t3 - t2)}
        diff = float(np.abs(g_fast - g_full).max() / np.abs(g_full).max())
        rows.append((k, best["full"], best["setup"], best["step"], diff))
    ks = np.arange(1, max(args.sizes) + 1)
    grid = np.array([r[0] for r in rows])

    def per_k(col):
        return np.interp(ks, grid, np.array([r[col] for r in rows]))

    full, setup, step = per_k(1), per_k(2), per_k(3)
    before = float(np.sum(full * (1 + args.steps)))               # selection + steps, all full evaluations
    after = float(np.sum(full + setup + args.steps * step))       # selection full; steps on the active set
    print(f"A3 paper size: N = {model.N}, D = {model.D}; one interleaved run, min of {args.repeats} rounds, one BLAS thread, CPU time")
    print("| k | full residual_covariance [CPU ms] | active-set set-up [CPU ms] | active-set step [CPU ms] | step ratio | max rel. diff |")
    print("|---:|---:|---:|---:|---:|---:|")
    for k, f, s, g, d in rows:
        print(f"| {k} | {1e3 * f:.2f} | {1e3 * s:.2f} | {1e3 * g:.3f} | {f / g:.1f} | {d:.1e} |")
    print(f"\nper-trial estimate (k = 1..{ks[-1]}, {args.steps} steps per selection): "
          f"before {before:.0f} CPU s, after {after:.0f} CPU s, ratio {before / after:.1f}")
    if args.trial:
        Phi, y = cs.exact_problem(model)
        t0 = time.process_time()
        cs.sparsevi(Phi, y, int(ks[-1]), covariance=model.residual_covariance, n_steps=args.steps)
        print(f"one whole SparseVI trial with the active-set gradient: {time.process_time() - t0:.0f} CPU s")


if __name__ == "__main__":
    main()
