"""Targets of the time-to-target claims (D3, D5) and runs read at fewer iterations (the verdict maps' budgets).

A target met at the start or at a method's first evaluation times one evaluation interval, not the way to the
target (D5's humidity target 0.1762 against a start of 0.1788 was met at once): progress_target must never be,
and must refuse a pair without progress instead of returning a target.
"""

import numpy as np
import pytest

from inferopt.experiment.claims import DegenerateTest
from inferopt.experiment.parallel import run_calls
from inferopt.experiment.spectral import progress_target, time_to, truncated
from inferopt.spectral import SpectralSolveResult


def trace(metric, objective=None, step=10):
    """A recorded run: metric (and objective) at iterations 0, step, 2 step, ...; one second per interval."""
    metric = np.asarray(metric, dtype=float)
    k = np.arange(metric.size)
    return SpectralSolveResult(x=np.zeros(1), objective=np.asarray(objective if objective is not None else metric, dtype=float),
                               n_iter=int(step * k[-1]), converged=False, message="", times=k.astype(float),
                               iterations=step * k, metric=metric, checksums=np.zeros(metric.size, dtype=np.uint32))


def test_the_target_lies_between_the_best_first_evaluation_and_the_best_final_value():
    fast, slow = trace([1.0, 0.6, 0.5, 0.4]), trace([1.0, 0.8, 0.7, 0.45])
    target = progress_target({"A": fast, "B": slow}, 0.5)
    assert target == pytest.approx(0.6 - 0.5 * (0.6 - 0.4))
    # nobody meets it at the start or at a first evaluation: every time to it is past the first interval
    for r in (fast, slow):
        assert time_to(r, target) > r.times[1]


def test_a_target_the_old_rule_put_at_the_first_evaluation_is_not_met_there():
    """The old rule (share of the way from the start) put the target above a first evaluation that dropped at once."""
    a, b = trace([0.1788, 0.1685, 0.1680, 0.1678]), trace([0.1788, 0.1700, 0.1685, 0.1679])
    old = 0.1788 - 0.9 * (0.1788 - 0.1678)
    assert a.metric[1] <= old                      # the old target: met at the first evaluation
    new = progress_target([a, b], 0.9)
    assert new < min(a.metric[1], b.metric[1])
    assert time_to(a, new) > a.times[1]


@pytest.mark.parametrize("runs, match", [
    ([trace([1.0, 0.5, 0.5, 0.6]), trace([1.0, 0.7, 0.6, 0.55])], "no run improves"),      # best final 0.55 >= best first 0.5
    ([trace([0.2, 0.5, 0.4, 0.3]), trace([0.2, 0.6, 0.5, 0.45])], "met at the start"),      # the start is below the target
    ([trace([1.0, np.inf, 0.5, 0.4]), trace([1.0, np.nan, 0.6, 0.5])], "not finite|is inf|is nan"),  # no finite first evaluation
])
def test_a_pair_without_a_target_to_time_is_degenerate(runs, match):
    with pytest.raises(DegenerateTest, match=match):
        progress_target(runs, 0.9)


def test_progress_target_reads_the_objective_trace_and_checks_its_arguments():
    r = trace([1.0, 1.0, 1.0, 1.0], objective=[10.0, 6.0, 5.0, 4.0])
    assert progress_target([r, r], 0.5, trace="objective") == pytest.approx(5.0)
    with pytest.raises(ValueError, match="share"):
        progress_target([r], 0.0)
    with pytest.raises(ValueError, match="at least one run"):
        progress_target([], 0.5)
    with pytest.raises(ValueError, match="first evaluation"):
        progress_target([trace([1.0, 0.5])], 0.5)


def test_a_run_read_at_fewer_iterations_is_the_run_with_that_budget(completion_calls):
    """truncated(run, k) records what the same seeded call with max_iter = k records (its first iterates do not
    depend on its budget): the verdict maps compare their shorter settings with the main runs read this way."""
    full = run_calls(completion_calls(), n_jobs=1)
    for m in ("GD", "SGD"):
        short_call = completion_calls()[m]
        short = short_call.func(*short_call.args, **(short_call.keywords | {"max_iter": 6}))
        cut = truncated(full[m], 6)
        np.testing.assert_array_equal(cut.iterations, short.iterations)
        np.testing.assert_array_equal(cut.checksums, short.checksums)
        np.testing.assert_array_equal(cut.metric, short.metric)
        if m == "GD":   # issue 27: at θ_6 the longer run reuses the eigenvalues of its gradient there (eigh's, not
            # eigvalsh's, as the shorter run's last evaluation): the same objective up to round-off
            np.testing.assert_array_equal(cut.objective[:-1], short.objective[:-1])
            np.testing.assert_allclose(cut.objective[-1], short.objective[-1], rtol=1e-14)
        else:
            np.testing.assert_array_equal(cut.objective, short.objective)
        assert cut.n_iter == 6 and cut.times.size == cut.iterations.size
    with pytest.raises(ValueError, match="recorded iteration"):
        truncated(full["SGD"], 5)
    with pytest.raises((TypeError, ValueError), match="until"):
        truncated(full["SGD"], "6")
    with pytest.raises(TypeError, match="SpectralSolveResult"):
        truncated(object(), 6)
