"""The price of an exponential and a logarithm in multiply-add equivalents on this machine (issue 43): the
prices :data:`~inferopt.experiment.coresets.work.PRICES` with which the upper bound of SparseVI's work (``work_upper``)
prices the elementwise functions of the GLMs' log-likelihoods and their derivatives (:mod:`inferopt.models.glm`: numpy's
``exp``, ``log1p``, ``log``; scipy's ``expit`` and ``gammaln``).

    OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=Haswell NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL" \
        .venv/bin/python benchmarks/transcendental_prices.py

in the environment the experiments run in (:func:`inferopt.experiment.blas.neutral_environment`, the variables its
``blas_config`` records: numpy without its AVX-512 loops, which halve to quarter the price of ``exp``, ``log1p`` and
``log``; OpenBLAS's Haswell kernel).

One multiply-add is priced as the product of a 500 x 500 ``Φᵀ`` with a vector (250,000 multiply-adds: the unit of the
``work`` column, a product with ``Φ`` at the paper's S = n = 500); each function runs in place on 250,000 entries in
the range the GLMs feed it (``exp`` of ``−|m|`` in [−10, 0], ``log1p`` of [0, 1], ``log`` of [0.01, 10], ``expit`` of
[−10, 10], ``gammaln`` of counts ``y + 1`` in [1, 30]). CPU seconds of this process (``time.process_time``), the least of ``--rounds`` rounds of ``--repeats``
calls each; the price is the function's seconds per entry over the product's seconds per multiply-add.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.special import expit, gammaln


def least_seconds(fn, repeats: int, rounds: int) -> float:
    """The least, over ``rounds``, CPU seconds of one call of ``fn`` (``repeats`` calls timed together)."""
    best = np.inf
    for _ in range(rounds):
        t0 = time.process_time()
        for _ in range(repeats):
            fn()
        best = min(best, (time.process_time() - t0) / repeats)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    S = n = 500
    Phi = np.asfortranarray(rng.standard_normal((S, n)))
    r = rng.standard_normal(S)
    out = np.empty(S * n)
    inputs = {"exp": (np.exp, -rng.uniform(0, 10, S * n)), "log1p": (np.log1p, rng.uniform(0, 1, S * n)),
              "log": (np.log, rng.uniform(0.01, 10, S * n)), "expit": (expit, rng.uniform(-10, 10, S * n)),
              "gammaln": (gammaln, rng.integers(1, 31, S * n).astype(float))}
    per_madd = least_seconds(lambda: Phi.T @ r, args.repeats, args.rounds) / (S * n)
    print(f"product Phi'r, {S} x {n}: {per_madd * 1e9:.3f} ns per multiply-add")
    for name, (fn, x) in inputs.items():
        per_entry = least_seconds(lambda fn=fn, x=x: fn(x, out=out), args.repeats, args.rounds) / x.size
        print(f"{name:7s}: {per_entry * 1e9:.3f} ns per entry = {per_entry / per_madd:.1f} multiply-adds")


if __name__ == "__main__":
    main()
