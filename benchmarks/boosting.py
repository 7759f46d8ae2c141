"""Timing table for inferopt.boosting (not a test): per-iteration cost of the greedy step and of
the step-size selection for each step rule, under both estimators of the step rules, at C2's and
C3's paper-scale construction.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/boosting.py [n_iter]
    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/boosting.py --greedy [reps]
    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/boosting.py --kernels [C2 C3]

Settings come from params.yaml under params_paper.yaml (the authors' greedy step: 1000 Adam
steps with one draw each; their step rules and line search), on CHEMREACT (the available 2,006-row
training split) and the phishing stand-in (9,950 rows). Each rule runs ``n_iter`` boosting
iterations (default 10) with ``estimates: stratified`` (100 draws per component) and with
``estimates: authors`` (100 draws of the mixture), the same seed; the table gives the greedy
step's and the step-size selection's CPU seconds per iteration (``time_greedy``, ``time_step``)
and the step time's ratio to predefined's in the same setting (the paper's Table 2 ratios:
adaptive 2-5x, line search 7-39x).

``--greedy``: CPU seconds of one greedy step at the paper's settings (1000 Adam steps, one draw each) on each
data set, first component (no ``q_t``) and against mixtures ``q_t`` of K random components, and of one whole
(replicate, predefined) run of the paper's number of iterations; best of ``reps`` (default 3).

``--kernels``: CPU milliseconds of each kernel an iteration of C2/C3 is made of (least of 3 rounds), against a mixture of
K = 10 and 40 random components: one Adam step of the greedy step (log p, log q_t and their gradients at one draw), log p
at the 100 and 200 draws of an estimate or a line-search derivative call, the components' log densities at 200 draws, the
evaluation (ELBO, train log-likelihood, test AUROC), a trial ``f(q + γd)`` on fresh draws and the authors' distance d
(closed form and their float32 estimate).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import yaml

from inferopt.boosting import STEPS, LogisticTarget, Mixture, greedy_step, l2_distance, l2_distance_authors
from inferopt.boosting.estimates import elbo, kl
from inferopt.boosting.families import get_family
from inferopt.boosting.metrics import test_auroc, train_log_likelihood
from inferopt.boosting.relbo import _relbo_fn
from inferopt.datasets.classification import logistic_data
from inferopt.experiment.boosting import run_replicate

ROOT = Path(__file__).resolve().parents[1]
STEP_KEYS = ("C0", "eta", "tau", "eps0", "imax", "min_gamma", "on_ascent", "fallback_C", "ls_iter", "ls_lr")


def paper_params(exp_id: str) -> dict:
    """params.yaml's section of ``exp_id`` updated by params_paper.yaml's."""
    params = yaml.safe_load((ROOT / "params.yaml").read_text())[exp_id]
    params.update(yaml.safe_load((ROOT / "params_paper.yaml").read_text())[exp_id])
    return params


def paper_settings(exp_id: str) -> tuple[dict, dict]:
    """``(data keywords, run keywords)`` of ``exp_id`` (C2 or C3) at the paper scale: params.yaml's
    section updated by params_paper.yaml's."""
    params = paper_params(exp_id)
    greedy = dict(params["greedy"], lr_decay=tuple(params["greedy"]["lr_decay"]))
    data = dict(name=params["dataset"], test_fraction=params["test_fraction"], intercept=params["intercept"])
    run = dict(family=params["family"], n_samples=params["n_samples"], reuse_samples=params["reuse_samples"],
               ls_draws=params["ls_draws"], estimates=params["estimates"], greedy=greedy,
               **{k: params[k] for k in STEP_KEYS})
    return data, run


def main(n_iter: int = 10) -> None:
    print(f"{'data':<14} {'estimates':<11} {'method':<12} {'greedy[s/it]':>12} {'step[s/it]':>11} {'ratio':>6} {'K':>3}")
    for exp_id in ("C2", "C3"):
        data_kw, run_kw = paper_settings(exp_id)
        data = logistic_data(data_kw.pop("name"), rng=np.random.default_rng(0), **data_kw)
        for estimates in ("stratified", "authors"):
            step = {}
            for method in STEPS[:5]:
                rec = run_replicate(data, method, 0, 7, max_iter=n_iter, n_eval=10, **{**run_kw, "estimates": estimates})
                g, step[method] = rec.time_greedy.iloc[1:].mean(), rec.time_step.iloc[1:].mean()
                print(f"{exp_id:<14} {estimates:<11} {method:<12} {g:>12.3f} {step[method]:>11.4f} "
                      f"{step[method] / step['predefined']:>6.2f} {rec.n_components.iloc[-1]:>3d}", flush=True)


def _cpu_seconds(fn, reps: int) -> float:
    """Least CPU time of ``reps`` calls of ``fn(r)``, ``r = 0, 1, ...``."""
    best = np.inf
    for r in range(reps):
        tic = time.process_time()
        fn(r)
        best = min(best, time.process_time() - tic)
    return best


def greedy_table(reps: int = 3) -> None:
    """CPU seconds of one greedy step (the paper's settings) against ``q_t`` of K components, and of one run."""
    print(f"{'data':<5} {'what':<34} {'CPU s':>7}")
    for exp_id in ("C2", "C3"):
        data_kw, run_kw = paper_settings(exp_id)
        data = logistic_data(data_kw.pop("name"), rng=np.random.default_rng(0), **data_kw)
        target, family = LogisticTarget(data["Z"], data["y"]), run_kw["family"]
        D = target.dim
        for K in (0, 1, 25, 50):
            rng = np.random.default_rng(3)
            q = None if K == 0 else Mixture(family, 0.1 * rng.normal(size=(K, D)), np.log(0.1 + rng.random((K, D))),
                                            rng.dirichlet(np.ones(K)))
            sec = _cpu_seconds(lambda r: greedy_step(target, family, q, rng=np.random.default_rng(r), **run_kw["greedy"]), reps)
            print(f"{exp_id:<5} {f'greedy step, K = {K}':<34} {sec:>7.3f}", flush=True)
        n_iter = paper_params(exp_id)["n_iter"]
        sec = _cpu_seconds(lambda r: run_replicate(data, "predefined", 0, r, max_iter=n_iter, **run_kw), reps)
        print(f"{exp_id:<5} {f'run, predefined, {n_iter} iterations':<34} {sec:>7.3f}", flush=True)


def _cpu_ms(fn, reps: int) -> float:
    """Least CPU milliseconds per call of ``fn()`` over 3 rounds of ``reps`` calls."""
    best = np.inf
    for _ in range(3):
        tic = time.process_time()
        for _ in range(reps):
            fn()
        best = min(best, (time.process_time() - tic) / reps)
    return 1e3 * best


def kernel_table(exp_ids=("C2", "C3")) -> None:
    """CPU ms of each kernel of a C2/C3 iteration (module docstring, ``--kernels``)."""
    for exp_id in exp_ids:
        data_kw, _ = paper_settings(exp_id)
        data = logistic_data(data_kw.pop("name"), rng=np.random.default_rng(0), **data_kw)
        target, family = LogisticTarget(data["Z"], data["y"]), get_family("laplace")
        D, rng = target.dim, np.random.default_rng(3)
        for K in (10, 40):
            q = Mixture(family, 0.1 * rng.normal(size=(K, D)), np.log(0.1 + rng.random((K, D))), rng.dirichlet(np.ones(K)))
            s, step = q.component(0), _relbo_fn(target, family, q, 0.3)
            one, X100, X200 = family.standard_sample((1, D), rng), q.sample(100, rng), q.sample(200, rng)
            rows = {
                "Adam step of the greedy step (one draw)": _cpu_ms(lambda: step(s.loc, s.log_scale, one), 200),
                "log p, 100 draws": _cpu_ms(lambda: target.log_density(X100), 20),
                "log p, 200 draws": _cpu_ms(lambda: target.log_density(X200), 10),
                "components' log densities, 200 draws": _cpu_ms(lambda: family.log_density(X200, q.locs, q.log_scales), 10),
                "evaluation: ELBO, 100 draws": _cpu_ms(lambda: elbo(target, q, n_samples=100, rng=rng, stderr=True), 5),
                "evaluation: train LL, 100 draws": _cpu_ms(lambda: train_log_likelihood(target.model, q, n_samples=100, rng=rng), 5),
                "evaluation: test AUROC": _cpu_ms(lambda: test_auroc(data["Zt"], data["yt"], q), 10),
                "trial f(q + γd), 100 fresh draws": _cpu_ms(lambda: kl(target, q, n_samples=100, rng=rng), 5),
                "distance d, closed form": _cpu_ms(lambda: l2_distance(s, q), 10),
                "distance d, their float32 estimate": _cpu_ms(
                    lambda: l2_distance_authors(s, q, n_samples=100, rng=rng, dtype="float32"), 5),
            }
            for what, ms in rows.items():
                print(f"{exp_id} K={K:<3} {what:<40} {ms:8.3f} ms", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--greedy"]:
        greedy_table(int(sys.argv[2]) if len(sys.argv) > 2 else 3)
    elif sys.argv[1:2] == ["--kernels"]:
        kernel_table(tuple(sys.argv[2:]) or ("C2", "C3"))
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
