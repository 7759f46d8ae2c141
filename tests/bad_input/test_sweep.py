"""Issue 15: bad input never yields a number. Every public callable of the algorithm packages gets
bad values for each of its parameters (non-finite, complex, bool for an int, empty, wrong shape or
dtype, out of range, unknown choices); each call must raise ``ValueError``/``TypeError`` whose
message names the argument. A result (silent) or any other failure (raw numpy/scipy) fails.
Issue 29: values that mean the same as the valid one (``np.bool_``, ``2.0`` for ``2``, a
reversed index set, a matrix as sparse or ``LinearOperator``) must give the same answer.
The run prints the sweep's size and counts (conftest)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sweep
from cases import EXEMPT, baselines

CASES = sweep.cases()
#: hypothesis examples per parameter: enough to draw each kind's bad values (5-8) and positions
EXAMPLES = 8


def test_every_public_callable_is_in_the_sweep():
    """A new public function must get a baseline in cases.py (or an exemption with a reason)."""
    assert sweep.uncovered() == []


def test_every_exemption_names_a_public_callable():
    """A renamed or removed name must not leave a stale exemption behind."""
    public = {key.rsplit(".", 1)[1] for key in sweep.public_callables()}
    assert set(EXEMPT) - public == set()


def test_the_sweep_is_large_and_reaches_every_covered_callable():
    covered = {c.key.split("#")[0] for c in CASES}
    with_params = {k for k, f in baselines().items() if f is not None}
    assert {k.split("#")[0] for k in with_params} - covered == set()
    assert len(CASES) * 5 >= 300    # every case draws at least 5 distinct bad values


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_value_raises_a_clear_error(case):
    valid = sweep.valid_value(case)
    failures = []

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(bad=st.deferred(lambda: sweep.bad_values(case, valid)))
    def check(bad):
        outcome, detail = sweep.call(case, bad)
        if outcome != sweep.CLEAR:
            failures.append(f"{outcome}: {case.param}={sweep._key(bad)[:80]} -> {detail}")

    check()
    assert not failures, "\n".join(dict.fromkeys(failures))


EQUIVALENT = [(c, label) for c in CASES for label, _ in sweep.equivalents(c, sweep.valid_value(c))]


@pytest.mark.parametrize("case, label", EQUIVALENT, ids=[f"{c.id}:{label}" for c, label in EQUIVALENT])
def test_equivalent_value_gives_the_same_answer(case, label):
    """Issue 29: the same seed gives the same answer whatever the form of an equivalent value
    (flags as ``np.bool_``, integers as integral floats, index sets in another order, matrices
    as sparse or ``LinearOperator``); a refusal fails too (``k=2.0`` refused where ``M=2.0`` passes)."""
    value = dict(sweep.equivalents(case, sweep.valid_value(case)))[label]
    first = sweep.run(case, replace=False)
    if not sweep.same(first, sweep.run(case, replace=False)):
        sweep.EQUIV["not deterministic"] += 1
        pytest.skip("the baseline call is not deterministic: nothing to compare")
    try:
        other = sweep.run(case, value)
    except (ValueError, TypeError) as exc:
        sweep.EQUIV["refused"] += 1
        pytest.fail(f"{case.param}={label} refused: {type(exc).__name__}: {exc}")
    ok = sweep.same(first, other)
    sweep.EQUIV["same" if ok else "different"] += 1
    assert ok, f"{case.param} as {label} changes the answer"


# --- issue 47: sizes, settings an option ignores, scaling -----------------------------------------
SIZES = [(c, n) for c in sweep.size_cases() for n in sweep.HUGE]


@pytest.mark.parametrize("case, size", SIZES, ids=[f"{c.id}:2**{int(n).bit_length() - 1}" for c, n in SIZES])
def test_a_size_no_machine_holds_is_refused_announced_or_finished(case, size):
    """Issue 47: 2**40 reached numpy's allocator and 2**62 made herd run on. A size is refused by
    name before any allocation, or the call announces its length (LongCallWarning) or finishes,
    within a few seconds."""
    outcome, detail = sweep.guarded("size", case, size, returned=sweep.CLEAR)
    assert outcome in (sweep.CLEAR, sweep.ANNOUNCED), f"{outcome}: {case.param}={size} -> {detail}"


SETTINGS = sweep.setting_cases()


@pytest.mark.parametrize("setting", SETTINGS, ids=[s.id for s in SETTINGS])
def test_a_setting_the_option_ignores_is_refused(setting):
    """Issue 47: a setting given where the chosen option does not use it (``boost('predefined', eta=5)``,
    ``greedy_step(t=..., lam=...)``) ran silently. With the bad value of its kind it must be refused
    by name, whether the option checks it or ignores it."""
    outcome, detail = sweep.call_setting(setting)
    assert outcome == sweep.CLEAR, f"{outcome}: {setting.param} -> {detail}"


def test_the_settings_sweep_reaches_options_and_forwarded_keywords():
    ids = {s.id for s in SETTINGS}
    assert "boosting.make_step[step=predefined]:eta" in ids
    assert "boosting.boost[baseline]:eta" in ids and "boosting.greedy_step[start=random]:init_log_scale" in ids
    assert f"boosting.boost[baseline]:{sweep.MADE_UP}" in ids
    assert len(SETTINGS) >= 300


@pytest.mark.parametrize("key, c", sweep.scale_cases(), ids=[f"{k}:{c:g}" for k, c in sweep.scale_cases()])
def test_a_scaled_problem_gives_the_same_answer_or_a_clear_refusal(key, c):
    """Issue 47: the coreset weights of ``(c Phi, c y)`` are those of ``(Phi, y)``; a_iht_ii returned
    w = 0 at c = 1e160 and 1e-310, giga other weights at 1e-200."""
    outcome, detail = sweep.call_scaled(key, c)
    assert outcome == sweep.CLEAR, f"{outcome}: {key} at scale {c:g} -> {detail}"
