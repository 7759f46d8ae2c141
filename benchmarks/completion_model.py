"""The matrix-completion model of D3/D4 (Han et al. 2018, Sec. 5.1) against an independent solver (issue 26).

    .venv/bin/python benchmarks/completion_model.py [--items 300] [--users 200] [--conds 1e2 1e4 1e6]
        [--lams 0.05 0.5] [--seed 0] [--gd-iters 50] [--iters 200]

For MovieLens 100K (its ``--items`` most-rated items x ``--users`` most-rated users; ``0`` keeps all),
10% of the ratings held out as in D3, and each ``(cond, λ)`` with ``ε = 25 d r / cond``:

* the test RMSE of the global-mean predictor and of ``θ = 0`` (the start of every run);
* the *reference* minimiser of ``tr((θθᵀ + εI)^{1/2}) + λ Σ_Ω (θ_ij − R_ij)²`` over ``[0, 5]^{d x r}``:
  L-BFGS-B (scipy) on the exact objective, its value checked against ``Σ_i sqrt(σ_i² + ε)`` from an SVD
  of ``θ`` (independent of the Gram eigen-decomposition the library uses) and the gradient against
  central differences at a random point of the box; its objective and test RMSE;
* GD, SGD, SVRG and SGD-DET as D3 runs them (``θ⁽⁰⁾ = 0``, step ``η = 0.2/λ`` (D3: 4 at λ = 0.05, so
  ``2λη = 0.4``), SGD step ``η/(1 + 0.1 t)``,
  ``M = 10``, ``N = 15``, SVRG 4 epochs of ``iters/4``): final objective as a relative gap to the
  reference and final test RMSE.

One BLAS thread is advised (``OMP_NUM_THREADS=1``).
"""

from __future__ import annotations

import argparse

import numpy as np
import scipy.optimize as so

from inferopt.datasets.movielens import load_movielens_100k, most_rated_subset
from inferopt.spectral import MatrixCompletion, gd, inverse_time_step, sgd, sgd_det, svrg


def reference(prob, maxiter=3000):
    """L-BFGS-B on the exact objective over the box; returns (θ, objective, message)."""
    d, r = prob.shape

    def fun(x):
        th = x.reshape(d, r)
        return prob.objective(th), (prob.exact_spectral_grad(th) + prob.g_grad(th)).ravel()

    res = so.minimize(fun, np.zeros(d * r), jac=True, method="L-BFGS-B", bounds=[(prob.low, prob.high)] * (d * r),
                      options=dict(maxiter=maxiter, maxfun=2 * maxiter, ftol=1e-14, gtol=1e-9))
    return res.x.reshape(d, r), float(res.fun), str(res.message)


def independent_checks(prob, theta, rng):
    """|objective − SVD objective| / objective at ``theta``, and the worst relative error of the gradient
    against central differences along 3 random directions at a random point of the box."""
    sv = np.linalg.svd(theta, compute_uv=False)
    d = prob.shape[0]
    obj_svd = np.sum(np.sqrt(sv ** 2 + prob.eps)) + (d - sv.size) * np.sqrt(prob.eps) + prob.g(theta)
    point = rng.uniform(prob.low, prob.high, theta.shape)
    g = prob.exact_spectral_grad(point) + prob.g_grad(point)
    worst = 0.0
    for _ in range(3):
        D = rng.standard_normal(theta.shape)
        h = 1e-4
        fd = (prob.objective(point + h * D) - prob.objective(point - h * D)) / (2 * h)
        worst = max(worst, abs(np.sum(g * D) - fd) / abs(fd))
    return abs(prob.objective(theta) - obj_svd) / obj_svd, worst


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--items", type=int, default=300)
    ap.add_argument("--users", type=int, default=200)
    ap.add_argument("--conds", type=float, nargs="+", default=[1e2, 1e4, 1e6])
    ap.add_argument("--lams", type=float, nargs="+", default=[0.05, 0.5])
    ap.add_argument("--gd-iters", type=int, default=50)
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    D = load_movielens_100k(test_fraction=0.1, rng=rng)
    D = most_rated_subset(D, args.items or None, args.users or None)
    d, r = D["shape"]
    te = D["test"][2]
    print(f"MovieLens 100K, {d} items x {r} users, {D['rows'].size} train / {te.size} test ratings")
    print(f"test RMSE of the global mean {np.sqrt(np.mean((te - D['values'].mean()) ** 2)):.4f}, "
          f"of theta = 0 {np.sqrt(np.mean(te ** 2)):.4f}")
    print("| cond | eps | lambda | reference objective | ref. test RMSE | ref. train RMSE | checks (SVD obj., FD grad.) "
          "| GD | SGD | SVRG | SGD-DET |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for cond in args.conds:
        for lam in args.lams:
            eps = 25.0 * d * r / cond
            prob = MatrixCompletion(D["rows"], D["cols"], D["values"], D["shape"], lam=lam, eps=eps, test=D["test"],
                                    rng=args.seed)
            theta, obj, msg = reference(prob)
            c_obj, c_grad = independent_checks(prob, theta, rng)
            train = np.sqrt(np.mean((theta[D["rows"], D["cols"]] - D["values"]) ** 2))
            th0 = np.zeros((d, r))
            seeds = np.random.SeedSequence([args.seed, 0]).spawn(3)
            step = 0.2 / lam
            sched = inverse_time_step(step, 0.1)
            runs = {
                "GD": gd(prob, th0, max_iter=args.gd_iters, step=step, eval_every=args.gd_iters),
                "SGD": sgd(prob, th0, max_iter=args.iters, step=sched, M=10, N=15, rng=seeds[0], eval_every=args.iters),
                "SVRG": svrg(prob, th0, n_outer=4, n_inner=args.iters // 4, step=step, M=10, N=15, rng=seeds[1],
                             eval_every=args.iters),
                "SGD-DET": sgd_det(prob, th0, degree=15, max_iter=args.iters, step=sched, M=10, rng=seeds[2],
                                   eval_every=args.iters),
            }
            cells = [f"gap {(res.objective[-1] - obj) / obj:+.2%}, RMSE {res.metric[-1]:.3f}" for res in runs.values()]
            print(f"| {cond:g} | {eps:.4g} | {lam:g} | {obj:.6g} | {prob.metric(theta):.4f} | {train:.4f} | "
                  f"{c_obj:.1e}, {c_grad:.1e} | " + " | ".join(cells) + " |", flush=True)
            if not msg.startswith("CONVERGENCE"):
                print(f"  (L-BFGS-B: {msg})")


if __name__ == "__main__":
    main()
