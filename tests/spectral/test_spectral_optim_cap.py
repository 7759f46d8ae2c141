"""The optimisers' ``cap`` (issue 46): a step cap that moves within a run (D5's run to a work budget,
:func:`inferopt.experiment.spectral.gp_budget.run_to_work`). A run whose cap moves is the run made afresh with its last cap
as ``max_iter``; without ``cap`` every run is the one the code before the keyword made (the old module, from its git blob,
run beside the new one: reports/paper/output_preserving.yaml)."""

import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import inferopt.spectral.optim as optim
from inferopt.spectral import MatrixCompletion, SKIGaussianProcess, gd, inverse_time_step, lanczos_gd, rademacher, sgd
from inferopt.spectral.gp import LogHyperparameters

ROOT = Path(__file__).resolve().parents[2]
#: optim.py before ``cap`` (git hash-object; the ``before`` of its entry in reports/paper/output_preserving.yaml)
BEFORE = "780eb3570dd5914ff116b5243843e0c66d587929"


def completion(seed=3, d=10, r=6):
    rng = np.random.default_rng(seed)
    L = rng.uniform(0.5, 1.5, (d, 2)) @ rng.uniform(0.5, 1.5, (2, r))
    mask = rng.random((d, r)) < 0.5
    rows, cols = np.nonzero(mask)
    trows, tcols = np.nonzero(~mask)
    prob = MatrixCompletion(rows, cols, L[rows, cols], (d, r), test=(trows, tcols, L[trows, tcols]), rng=seed)
    return prob, rng.uniform(0, 2, (d, r))


def ski():
    rng = np.random.default_rng(0)
    x = np.sort(rng.uniform(0, 30, 80))
    gp = SKIGaussianProcess(x, np.sin(x / 3) + 0.2 * rng.standard_normal(80), r=30, x_test=np.linspace(1, 29, 10),
                            y_test=np.sin(np.linspace(1, 29, 10) / 3), low=[0.01, 0.01, 0.1], high=[10, 10, 100], cg_tol=1e-6, rng=0,
                            dense_limit=0)
    return LogHyperparameters(gp), np.log([1.0, 0.5, 2.0])


def runs():
    """(name, solver, fresh (problem, start), keywords): SGD, SGD-DET, our LANCZOS with fresh and fixed probes, GD."""
    step = inverse_time_step(0.5 / 80, 0.02)
    return [("sgd", sgd, completion, dict(step=0.05, M=3, N=5, rng=0)),
            ("sgd every 3", sgd, completion, dict(step=0.05, M=3, N=5, rng=0, eval_every=3)),
            ("sgd-det", sgd, completion, dict(step=0.05, M=3, degree=4, rng=1)),
            ("sgd on a GP", sgd, ski, dict(step=step, M=2, N=10, rng=np.random.SeedSequence(5))),
            ("lanczos_gd", lanczos_gd, ski, dict(step=step, M=2, rng=np.random.SeedSequence(5))),
            ("lanczos_gd fixed probes", lanczos_gd, ski, dict(step=step, Z=rademacher(np.random.default_rng(2), 80, 3), eval_every=2)),
            ("gd", gd, completion, dict(step=0.05))]


def assert_same_run(a, b):
    """Two results equal in everything but the CPU seconds (measured): iterates, traces, checksums, products, steps,
    message and info, array for array with its dtype and shape."""
    for name in ("x", "objective", "metric", "matvecs", "iterations", "checksums"):
        u, v = getattr(a, name), getattr(b, name)
        assert u.dtype == v.dtype and u.shape == v.shape and np.array_equal(u, v, equal_nan=True), name
    assert (a.n_iter, a.converged, a.message, a.times.shape) == (b.n_iter, b.converged, b.message, b.times.shape)
    assert a.info.keys() == b.info.keys()
    for k in a.info:
        u, v = np.asarray(a.info[k]), np.asarray(b.info[k])
        assert u.dtype == v.dtype and u.shape == v.shape and np.array_equal(u, v), k


def optim_before():
    """The module optim.py was before ``cap`` (its git blob), imported beside the new one; skipped where the checkout
    holds no such object."""
    try:
        source = subprocess.run(["git", "cat-file", "-p", BEFORE], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("optim.py's blob before `cap` is not in this checkout's git objects")
    name = "inferopt.spectral._optim_before_cap"
    module = types.ModuleType(name)
    module.__package__ = "inferopt.spectral"
    sys.modules[name] = module        # a dataclass reads its module
    try:
        exec(compile(source, "optim.py@" + BEFORE[:7], "exec"), module.__dict__)
    finally:
        del sys.modules[name]
    return module


def ticking(tick):
    """A CPU clock ``tick`` seconds a reading, from 0: a time budget ends every run at the same step."""
    now = {"t": 0.0}

    def clock():
        now["t"] += tick
        return now["t"]
    return clock


@pytest.mark.parametrize("case", runs(), ids=lambda c: c[0])
@pytest.mark.parametrize("max_iter", [0, 7])
def test_without_cap_every_run_is_the_one_the_old_code_made(case, max_iter, monkeypatch):
    """The old module and the new, each on a fresh problem: the same run, step for step, with no budget but the cap and
    with a time budget (1.5 fake seconds: 3 of the 7 steps), no step at all (max_iter 0), records every step or every 2 or
    3 (the last step's forced)."""
    _, solver, make, kwargs = case
    old = getattr(optim_before(), solver.__name__)
    assert "cap" not in old.__code__.co_varnames
    for max_time in (None, 1.5):
        made = []
        for fn in (old, solver):
            monkeypatch.setitem(fn.__globals__, "clock", ticking(0.5))     # each step 0.5 fake seconds
            made.append(fn(*make(), max_iter=max_iter, max_time=max_time, **kwargs))
        assert_same_run(*made)
        assert made[1].n_iter == (min(max_iter, 3) if max_time else max_iter)


@pytest.mark.parametrize("case", [c for c in runs() if c[1] is not gd], ids=lambda c: c[0])
def test_a_run_whose_cap_moves_is_the_run_made_with_its_last_cap(case):
    """A cap doubled at 2 and 4 (the run goes on to 8), and a cap of 8 ended after 5 steps: the runs made afresh with
    max_iter 8 and 5, message included (the iteration budget); the cap is asked after every step, with the steps done."""
    _, solver, make, kwargs = case
    asked, last = [], {"cap": 2}

    def doubling(done):
        asked.append(done)
        if done == last["cap"] < 8:
            last["cap"] *= 2
        return last["cap"]

    assert_same_run(solver(*make(), max_iter=2, cap=doubling, **kwargs), solver(*make(), max_iter=8, **kwargs))
    assert asked == list(range(1, 9))
    ended = solver(*make(), max_iter=8, cap=lambda done: done if done == 5 else 8, **kwargs)
    assert_same_run(ended, solver(*make(), max_iter=5, **kwargs))
    assert ended.n_iter == 5 and ended.message == "iteration budget reached"


@pytest.mark.parametrize(("cap", "error"), [("abc", TypeError), (lambda done: 2.5, ValueError), (lambda done: float("nan"), ValueError),
                                            (lambda done: done - 1, ValueError), (lambda done: 2 ** 62, ValueError)])
def test_a_bad_cap_is_refused_by_name(cap, error):
    for solver, make, kwargs in ((sgd, completion, dict(step=0.05, M=2, N=5, rng=0)), (lanczos_gd, ski, dict(step=0.001, M=2, rng=0))):
        with pytest.raises(error, match="cap"):
            solver(*make(), max_iter=3, cap=cap, **kwargs)
