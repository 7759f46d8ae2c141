"""Time every coreset method against the coreset size k (Zhang et al. 2021, Sec. 3.2 and Fig. 4).

The paper's claim: A-IHT's time barely grows with k (O(n log k) per iteration, a fixed
iteration budget) while GIGA's grows linearly (one O(nS) step per point), so that GIGA is
slower beyond k ≈ 200.

Problem: Monte-Carlo coreset vectors (Sec. 2) of Bayesian logistic regression on synthetic
data (D = 10 features + intercept, Laplace approximation as π̂) with ``n`` data points and
``S`` samples (default n = 10,000, S = 500). (A Gaussian-mean model is no benchmark here:
its log-likelihoods span only D + 1 dimensions, so D + 1 points reproduce y exactly.) Greedy methods (Uniform, GIGA, FW, SparseVI) are timed in one
pass over the grid (time to reach each k); the IHT family is run once per k, from scratch,
with the paper's stopping rule (1e-5 relative change or 300 iterations). SparseVI uses the
fixed Φ (the L2 geometry; the KL version needs a tangent space per step) and only the sizes
up to ``--sparsevi-kmax``.

    python benchmarks/coresets.py                       # the default sizes, a few minutes
    python benchmarks/coresets.py --n 2000 --S 100 --ks 10 50 100
    python benchmarks/coresets.py --methods a_iht a_iht_ii --layout C   # row-major Phi: a copy per solve
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import inferopt.coresets as cs


def make_problem(n: int, S: int, D: int, seed: int):
    """Φ, y for Bayesian logistic regression on synthetic data (the paper's large-scale
    setting, Sec. 5.3): z_n = [x_n, 1], x_n ~ N(0, I_D), θ* = (3, 3, 0, …, 0);
    π̂ = the Laplace approximation at the MAP (prior N(0, I)); S samples of π̂."""
    rng = np.random.default_rng(seed)
    Z = np.hstack([rng.standard_normal((n, D)), np.ones((n, 1))])
    theta_true = np.zeros(D + 1)
    theta_true[:2] = 3.0
    lab = np.where(rng.random(n) < 1 / (1 + np.exp(-Z @ theta_true)), 1.0, -1.0)
    theta = np.zeros(D + 1)
    for _ in range(30):  # Newton's method for the MAP
        m = lab * (Z @ theta)
        p = 1 / (1 + np.exp(m))
        grad = Z.T @ (lab * p) - theta
        H = (Z.T * (p * (1 - p))) @ Z + np.eye(D + 1)
        step = np.linalg.solve(H, grad)
        theta += step
        if np.linalg.norm(step) < 1e-10:
            break
    L = np.linalg.cholesky(H)
    thetas = theta + np.linalg.solve(L.T, rng.standard_normal((D + 1, S))).T   # N(θ̂, H⁻¹)
    loglik = -np.logaddexp(0.0, -(thetas @ Z.T) * lab[None, :])             # (S, n)
    return cs.problem_from_tangent(cs.tangent_from_loglik(loglik))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--S", type=int, default=500)
    ap.add_argument("--D", type=int, default=10)
    ap.add_argument("--ks", type=int, nargs="+", default=[10, 50, 100, 200, 300, 400, 500])
    ap.add_argument("--methods", nargs="+", default=None, help=f"default: all of {cs.available_solvers()}")
    ap.add_argument("--sparsevi-kmax", type=int, default=50)
    ap.add_argument("--max-iter", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--layout", choices=["F", "C"], default="F",
                    help="Phi column by column (F: as the problem builders store it) or row-major (C: the "
                         "IHT family then copies its transpose at every solve)")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    Phi, y = make_problem(args.n, args.S, args.D, args.seed)
    Phi = np.asfortranarray(Phi) if args.layout == "F" else np.ascontiguousarray(Phi)
    print(f"problem: n = {args.n}, S = {args.S} (logistic regression, D = {args.D}), Phi in {args.layout} order, "
          f"built in {time.perf_counter() - t0:.1f} s")
    ks = np.array(sorted(set(args.ks)))
    methods = args.methods or cs.available_solvers()
    times, errs = {}, {}
    for m in methods:
        opts = {}
        grid = ks
        if m in ("iht", "a_iht", "a_iht_ii", "a_iht_batch"):
            opts["max_iter"] = args.max_iter
        if m in ("uniform", "a_iht_batch"):
            opts["rng"] = args.seed
        if m == "sparsevi":
            grid = ks[ks <= args.sparsevi_kmax]
            if grid.size == 0:
                continue
        t1 = time.perf_counter()
        gk, W, secs, _ = cs.coreset_path(m, Phi, y, grid, **opts)
        times[m] = dict(zip(gk.tolist(), secs, strict=True))
        errs[m] = {int(k): float(np.linalg.norm(y - Phi @ w) / np.linalg.norm(y)) for k, w in zip(gk, W, strict=True)}
        print(f"  {m:12s} done in {time.perf_counter() - t1:6.1f} s", flush=True)

    def table(title, data, fmt):
        head = f"{'method':12s} " + " ".join(f"{'k=' + str(k):>9s}" for k in ks)
        print(f"\n{title}\n{head}\n{'-' * len(head)}")
        for m, row in data.items():
            print(f"{m:12s} " + " ".join(f"{fmt(row[k]) if k in row else '—':>9s}" for k in ks))

    table("time to build a coreset of size k [s] (greedy: one pass to k; IHT family: one run per k)",
          times, lambda v: f"{v:.3f}")
    table("relative error ||y - Phi w|| / ||y||", errs, lambda v: f"{v:.2e}")
    if "giga" in times:
        lo, hi = int(ks[0]), int(ks[-1])
        print(f"\nthe paper's claim: A-IHT's time barely grows with k, GIGA's linearly; GIGA slower beyond k ~ 200")
        for m in [m for m in ("iht", "a_iht", "a_iht_ii", "a_iht_batch", "giga") if m in times]:
            growth = times[m][hi] / max(times[m][lo], 1e-12)
            line = f"  {m:12s} time(k={hi}) / time(k={lo}) = {growth:6.1f}   (k grew {hi / lo:.0f}x)"
            if m != "giga":
                line += f";  GIGA slower at k in {[int(k) for k in ks if times['giga'][k] > times[m][k]]}"
            print(line)


if __name__ == "__main__":
    main()
