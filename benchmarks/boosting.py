"""Timing table for inferopt.boosting (not a test): per-iteration cost of the greedy step and of
the step-size selection for each step rule, and the extrapolated paper-scale run time.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/boosting.py [n_iter]

Uses the paper-scale greedy step of params_paper.yaml (1000 Adam steps, 20 draws per step) on
CHEMREACT (the available 2,006-row training split) and the phishing stand-in (9,950 rows), runs
``n_iter`` boosting iterations (default 5) per method and extrapolates to the paper's 50 (CHEMREACT)
and 40 (EICU stand-in) iterations from the mean per-iteration times (the step-size cost grows
with the number of components, so the extrapolation is a lower bound for the methods that
keep every component).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from inferopt.boosting import STEPS, LogisticTarget, boost
from inferopt.datasets.classification import logistic_data

PAPER_GREEDY = {"max_iter": 1000, "n_samples": 20, "lr": 0.05, "average": 0.5}


def main(n_iter: int = 5) -> None:
    print(f"{'data':<14} {'method':<12} {'greedy[s/it]':>12} {'step[s/it]':>11} {'K':>3} {'paper-scale run [s]':>20}")
    for name, test_fraction, paper_iters in (("chemreact100", 0.25, 50), ("phishing68", 0.1, 40)):
        data = logistic_data(name, test_fraction=test_fraction, rng=np.random.default_rng(0))
        target = LogisticTarget(data["Z"], data["y"])
        for method in STEPS:
            t0 = time.perf_counter()
            rec = boost(target, method, rng=np.random.default_rng(0), max_iter=n_iter, greedy=PAPER_GREEDY).record
            wall = time.perf_counter() - t0
            g, s = rec.time_greedy.iloc[1:].mean(), rec.time_step.iloc[1:].mean()
            est = rec.time_greedy.iloc[0] + paper_iters * (g + s)
            print(f"{name:<14} {method:<12} {g:>12.3f} {s:>11.4f} {rec.n_components.iloc[-1]:>3d} {est:>20.1f}"
                  f"   (this run {wall:.1f} s)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
