"""Where one paper-scale trial of A4 / A5 spends its time (issue 27): CPU seconds of every
solver over k = 1..100 on one trial's problem, of the Laplace evaluations of 100 coresets, and
the split of SparseVI's Monte-Carlo gradient (one call per weight step) into its parts.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/glm_trial.py --datasets phishing biketrips

Settings of ``params_paper.yaml`` (A4, A5): N = 500 (the stored subsample), Φ from S = 500
draws, 300 IHT iterations, SparseVI with 100 weight steps per selection and 100 Monte-Carlo
samples per step; the trial's seeds as :func:`~inferopt.experiment.coresets.glm_trials.run_glm_trial`
spawns them (trial 0 of seed 0). SparseVI's tangent is timed part by part: the Laplace fit of
``π_w`` (:meth:`~inferopt.coresets.GLMCoresetProblem.weighted_laplace`, warm-started as the
trial does), the draws, the log-likelihoods of all N data, and their centring
(:func:`~inferopt.coresets.tangent.centre_in_place`, as the library's tangent); "rest" is SparseVI's own work.
``--steps 500 --samples 500`` gives the authors' budget (issue 43: 25x the paper's work).
Times are CPU seconds of this process (``time.process_time``, one BLAS thread).

``--levers`` times ``models.laplace_approximation``'s damped Newton mode search (issue 27)
against scipy's ``trust-exact`` at the defaults it had before (``gtol = 1e-8``, absolute) for
one weighted Laplace fit on 5, 50 and 100 points, warm (from near the mode, as SparseVI's
steps) and cold (from the full MAP, as the evaluations), with the largest difference of the
two modes.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from inferopt.coresets.glm_problem import GLMCoresetProblem
from inferopt.coresets.path import coreset_path
from inferopt.coresets.tangent import centre_in_place
from inferopt.datasets.glm_data import load_glm
from inferopt.experiment.coresets.glm_trials import trial_seeds
from inferopt.models import laplace_approximation

PARTS = ("laplace", "sample", "loglik", "centre")


def timed_tangent(problem, n_samples, rng, clock):
    """SparseVI's Monte-Carlo tangent (as ``GLMCoresetProblem.sparsevi_tangent``), adding the CPU
    seconds of each part to ``clock``."""
    state = {"mode": None}

    def tangent(w):
        t0 = time.process_time()
        lap = problem.weighted_laplace(w, x0=state["mode"])
        state["mode"] = lap.mean
        t1 = time.process_time()
        thetas = lap.sample(n_samples, rng)
        t2 = time.process_time()
        L = problem.model.loglik(thetas)
        t3 = time.process_time()
        V = centre_in_place(L)
        t4 = time.process_time()
        for part, dt in zip(PARTS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
            clock[part] += dt
        clock["calls"] += 1
        return V

    return tangent


def profile(dataset, ks, max_iter, steps, samples):
    """Rows ``(part, CPU seconds, calls)`` of one trial on ``dataset``."""
    ss = trial_seeds(0, 1, dataset)[0]
    _, s_proj, s_unif, s_svi, s_batch = (np.random.default_rng(s) for s in ss.spawn(5))
    problem = GLMCoresetProblem(load_glm(dataset, "small").model(), 500, s_proj)
    Phi, y = problem.Phi, problem.y
    clock = dict.fromkeys(PARTS, 0.0) | {"calls": 0}
    runs = {
        "uniform": {"rng": s_unif}, "giga": {}, "frank_wolfe": {}, "a_iht": {"max_iter": max_iter},
        "a_iht_ii": {"max_iter": max_iter},
        "a_iht_batch": {"max_iter": max_iter, "rng": s_batch, "batch_fraction": 0.2},
        "sparsevi": {"tangent": timed_tangent(problem, samples, s_svi, clock), "n_steps": steps},
    }
    rows, weights = [], None
    for name, options in runs.items():
        t0 = time.process_time()
        _, W, _, _ = coreset_path(name, Phi, y, ks, **options)
        rows.append((name, time.process_time() - t0, len(ks)))
        weights = W if name == "a_iht" else weights
    t0 = time.process_time()
    problem.evaluate(weights)
    rows.append(("evaluate (one Laplace fit per k)", time.process_time() - t0, len(ks)))
    total_svi = rows[-2][1]
    for part in PARTS:
        rows.append((f"  sparsevi: {part}", clock[part], clock["calls"]))
    rows.append(("  sparsevi: rest", total_svi - sum(clock[p] for p in PARTS), clock["calls"]))
    return rows


def cpu_us(fn, repeats=200):
    t0 = time.process_time()
    for _ in range(repeats):
        out = fn()
    return (time.process_time() - t0) / repeats * 1e6, out


def levers(dataset):
    """Rows ``(fit, trust-exact µs, Newton µs, max |mode difference|)``."""
    problem = GLMCoresetProblem(load_glm(dataset, "small").model(), 500, np.random.default_rng(0))
    m, rng = problem.model, np.random.default_rng(1)
    rows = []
    for nnz in (5, 50, 100):
        w = np.zeros(m.n)
        supp = np.sort(rng.choice(m.n, nnz, replace=False))
        w[supp] = rng.uniform(1.0, 20.0, nnz)
        sub = type(m)(m.Z[supp], m.y[supp], prior_var=m.prior_var)
        mode = laplace_approximation(sub, w[supp], x0=problem.posterior.mean).mean
        for start, x0 in (("warm", mode + 1e-3 * rng.standard_normal(m.D)), ("cold", problem.posterior.mean)):
            t_old, old = cpu_us(lambda: laplace_approximation(sub, w[supp], x0=x0, method="trust-exact", gtol=1e-8))
            t_new, new = cpu_us(lambda: laplace_approximation(sub, w[supp], x0=x0))
            rows.append((f"Laplace fit, {nnz} points, {start}", t_old, t_new, float(np.abs(old.mean - new.mean).max())))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", nargs="+", default=["phishing"])
    parser.add_argument("--k-max", type=int, default=100)
    parser.add_argument("--max-iter", type=int, default=300)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--levers", action="store_true")
    args = parser.parse_args(argv)
    ks = list(range(1, args.k_max + 1))
    print("| dataset | part | CPU s | calls |\n|---|---|---:|---:|")
    for ds in args.datasets:
        for part, secs, calls in profile(ds, ks, args.max_iter, args.steps, args.samples):
            print(f"| {ds} | {part} | {secs:.2f} | {calls} |", flush=True)
    if args.levers:
        print("\n| dataset | fit | trust-exact [CPU us] | Newton [CPU us] | ratio | max mode difference |\n"
              "|---|---|---:|---:|---:|---:|")
        for ds in args.datasets:
            for lever, old, new, diff in levers(ds):
                print(f"| {ds} | {lever} | {old:.0f} | {new:.0f} | {old / new:.2f} | {diff:.1e} |", flush=True)


if __name__ == "__main__":
    main()
