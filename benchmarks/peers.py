"""Our GIGA, Frank-Wolfe, A-IHT and A-IHT II against the peers' code, in one interleaved run.

Peers (not dependencies of inferopt; give a checkout of each, nothing is copied from them):

* ``--campbell``: a checkout of ``trevorcampbell/bayesian-coresets`` (the peer coreset
  library; its ``bayesiancoresets.snnls.GIGA`` and ``FrankWolfe``, ``build(k)`` = k steps);
* ``--zhang``: a checkout of ``jackyzyb/bayesian-coresets-optimization`` (the A-IHT authors'
  code; ``IHT_toolbox/accelerated_iht.py``: ``a_iht_i`` and ``a_iht_ii``, numpy versions;
  the module also imports torch for its GPU variant, which is stubbed when torch is absent).

Problem: the large-scale setting of Zhang et al. (2021), Sec. 5.3 / A6: Bayesian logistic
regression on the full phishing data (``phishing_onehot``, ``size="large"``: 11,055 × 68
one-hot features + intercept), Φ from ``S`` (500) draws of the Laplace approximation
(:class:`~inferopt.coresets.GLMCoresetProblem`). Every method is run from scratch at each
``k`` (the IHT family with the papers' stopping rule: 1e-5 relative change, 300 iterations,
and the authors' half step ``step="authors"``, which their code takes).
Time: CPU seconds of this process (``time.process_time``, one BLAS thread), the minimum over
``--repeats`` rounds, ours and the peer's alternating within each round, so that a loaded
machine does not flip the ratios. Agreement: the relative difference of the objectives
``‖y − Φw‖`` (and of the weights for GIGA/FW, which are deterministic and equal in exact
arithmetic).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/peers.py --campbell ../bayesian-coresets \\
        --zhang ../bayesian-coresets-optimization --repeats 3
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import sys
import time
import types
from pathlib import Path

import numpy as np

import inferopt.coresets as cs
from inferopt.datasets.glm_data import load_glm


def load_campbell(root: Path):
    sys.path.insert(0, str(root))
    import bayesiancoresets  # noqa: PLC0415 -- the peer, from the checkout given

    return bayesiancoresets


def load_zhang(root: Path):
    if importlib.util.find_spec("torch") is None:       # only its GPU variant uses torch
        sys.modules.setdefault("torch", types.ModuleType("torch"))
    spec = importlib.util.spec_from_file_location("zhang_accelerated_iht", root / "IHT_toolbox" / "accelerated_iht.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cpu(fn):
    """``(result, CPU seconds)`` of ``fn()``, its printing swallowed."""
    with contextlib.redirect_stdout(io.StringIO()):
        t0 = time.process_time()
        out = fn()
        return out, time.process_time() - t0


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--campbell", type=Path, required=True, help="checkout of trevorcampbell/bayesian-coresets")
    ap.add_argument("--zhang", type=Path, required=True, help="checkout of jackyzyb/bayesian-coresets-optimization")
    ap.add_argument("--dataset", default="phishing_onehot")
    ap.add_argument("--S", type=int, default=500, help="draws of the Laplace approximation (rows of Phi)")
    ap.add_argument("--ks", type=int, nargs="+", default=[50, 200, 500])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    bc, zhang = load_campbell(args.campbell), load_zhang(args.zhang)
    data = load_glm(args.dataset, "large")
    problem = cs.GLMCoresetProblem(data.model(), args.S, np.random.default_rng(args.seed))
    Phi, y = problem.Phi, problem.y
    # each code gets Φ in the layout its own pipeline builds: ours column by column (the
    # problem's), the peers' row-major (numpy's default, as their scripts make it)
    Phi_peer = np.ascontiguousarray(Phi)
    print(f"{args.dataset}: Phi {Phi.shape[0]} x {Phi.shape[1]} (draws x data points)")

    def peer_snnls(cls, k):
        alg = cls(Phi_peer, y)
        alg.build(k)
        return alg.weights()

    pairs = {
        "GIGA": (lambda k: cs.giga(Phi, y, k).x, lambda k: peer_snnls(bc.snnls.GIGA, k), "Campbell & Broderick"),
        "Frank-Wolfe": (lambda k: cs.hilbert_frank_wolfe(Phi, y, k).x, lambda k: peer_snnls(bc.snnls.FrankWolfe, k), "Campbell & Broderick"),
        "A-IHT": (lambda k: cs.a_iht(Phi, y, k, step="authors").x,
                  lambda k: zhang.a_iht_i(y[:, None], Phi_peer, k, verbose=False)[0][:, 0], "Zhang et al."),
        "A-IHT II": (lambda k: cs.a_iht_ii(Phi, y, k, step="authors").x,
                     lambda k: zhang.a_iht_ii(y[:, None], Phi_peer, k, verbose=False)[0][:, 0], "Zhang et al."),
    }
    err = lambda w: float(np.linalg.norm(y - Phi @ w))  # noqa: E731
    print("| method | k | ours [CPU s] | peer [CPU s] | peer / ours | objective rel. diff | weights max rel. diff |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, (ours, peer, who) in pairs.items():
        for k in args.ks:
            t_ours, t_peer = np.inf, np.inf
            for _ in range(args.repeats):
                w_o, t = cpu(lambda: ours(k))
                t_ours = min(t_ours, t)
                w_p, t = cpu(lambda: peer(k))
                t_peer = min(t_peer, t)
            e_o, e_p = err(w_o), err(w_p)
            wdiff = float(np.abs(w_o - w_p).max() / max(np.abs(w_p).max(), 1e-300))
            print(f"| {name} ({who}) | {k} | {t_ours:.3f} | {t_peer:.3f} | {t_peer / t_ours:.2f} | "
                  f"{abs(e_o - e_p) / e_p:.1e} | {wdiff:.1e} |")


if __name__ == "__main__":
    main()
