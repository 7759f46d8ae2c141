"""Bootstrap support of claims: resampling keeps trials whole, the fraction agrees with the
normal approximation of the bootstrap distribution, and the verdict turns inconclusive below 90 %."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from inferopt.experiment import Experiment
from inferopt.experiment.claims import DIAGNOSES, support_text
from inferopt.experiment.support import (
    MIN_SUPPORT,
    bootstrap_support,
    check_support,
    deterministic,
    resample_units,
    supported_readings,
    supported_verdict,
)


def trials(values, per_trial=3):
    """A tidy table: trial i has `per_trial` rows, all with value values[i]."""
    return pd.DataFrame({"trial": np.repeat(np.arange(len(values)), per_trial),
                         "k": np.tile(np.arange(per_trial), len(values)),
                         "x": np.repeat(values, per_trial)})


def mean_positive(table):
    return bool(table.groupby("trial").x.first().mean() > 0)


def test_resampling_draws_whole_trials_with_replacement():
    table = trials([1.0, 2.0, 3.0, 4.0])
    out = resample_units(table, "trial", np.random.default_rng(0))
    assert len(out) == len(table) and out.trial.nunique() == 4
    for _, group in out.groupby("trial"):
        assert group.x.nunique() == 1 and group.k.tolist() == [0, 1, 2]     # a trial stays whole
    many = pd.concat([resample_units(table, "trial", np.random.default_rng(s)) for s in range(50)])
    assert set(many.x) == {1.0, 2.0, 3.0, 4.0}


@pytest.mark.parametrize("shift", [0.0, 0.25, 0.5])
def test_fraction_matches_the_normal_approximation_of_the_bootstrap(shift):
    """With n = 40 trials the bootstrap mean is close to N(x̄, s²/n): P(mean > 0) = Φ(x̄ √n / s)."""
    x = np.random.default_rng(1).normal(size=40)
    x = x - x.mean() + shift
    support = bootstrap_support(mean_positive, trials(x, 1), by="trial", n_resamples=2000, seed=4)
    expected = norm.cdf(x.mean() / (x.std(ddof=0) / np.sqrt(x.size)))
    assert support["fraction_holding"] == pytest.approx(expected, abs=0.035)
    assert support == bootstrap_support(mean_positive, trials(x, 1), by="trial", n_resamples=2000, seed=4)
    assert support["n_units"] == 40 and support["unit"] == "trial"


@pytest.mark.parametrize(
    ("holds", "fraction", "expected"),
    [(True, 1.0, "holds"), (True, MIN_SUPPORT, "holds"), (True, 0.89, "inconclusive"), (False, 0.05, "fails"),
     (False, 0.1, "fails"), (False, 0.5, "inconclusive"), (True, 0.0, "inconclusive"), (False, 1.0, "inconclusive")],
)
def test_verdict_needs_ninety_percent_agreement(holds, fraction, expected):
    support = {"method": "bootstrap", "fraction_holding": fraction}
    assert supported_verdict(holds, support) == expected
    assert supported_verdict(holds, deterministic()) == ("holds" if holds else "fails")


def test_experiment_claim_from_a_test_carries_support_and_diagnosis(tmp_path):
    exp = Experiment("Z7", title="t", paper="p", figure="f", params={"output_dir": str(tmp_path), "seed": 2})
    clear = trials([1.0, 1.2, 0.9, 1.1, 1.3])
    noisy = trials([1.0, -1.1, 0.2, -0.3, 0.4])
    exp.claim("Z7.1", "mean positive", test=mean_positive, table=clear, measured={"n": 5},
              diagnosis=("paper", "never shown when the claim holds"))
    exp.claim("Z7.2", "mean positive", test=mean_positive, table=noisy, measured={},
              diagnosis=("setting", "five trials cannot decide it"))
    exp.claim("Z7.3", "one computation", holds=False, measured={}, support=deterministic(),
              diagnosis={"kind": "construction", "text": "ours differs"})
    exp.write()
    claims = {c["id"]: c for c in json.loads(exp.metrics_path.read_text())["claims"]}
    assert claims["Z7.1"]["verdict"] == "holds" and "diagnosis" not in claims["Z7.1"]
    assert claims["Z7.1"]["support"]["fraction_holding"] == 1.0
    assert claims["Z7.2"]["verdict"] == "inconclusive" and claims["Z7.2"]["diagnosis"]["kind"] == "setting"
    assert 0.1 < claims["Z7.2"]["support"]["fraction_holding"] < 0.9
    assert claims["Z7.3"]["verdict"] == "fails" and claims["Z7.3"]["support"]["method"] == "deterministic"
    assert "bootstrap resamples of 5 trials" in support_text(claims["Z7.1"]["support"])
    assert "(100 %)" in exp.claims_table().loc["Z7.1", "verdict"]


def test_supported_readings_turn_only_on_decisive_readings(tmp_path):
    """A reading undecided by its own support makes no turn: split trials are inconclusive by support (no
    'reading' diagnosis); readings that hold and fail decisively do turn the verdict."""
    def above(t, v):
        return bool(t.groupby("trial").x.first().median() > v)

    split = trials([1.0, 1.1, 0.9, 1.2, -1.0, -1.1, -0.9, -1.2, 1.05, -1.05])
    r = supported_readings(above, split, [-0.5, 0.5], chosen=0.0, by="trial", seed=2)
    assert [x["value"] for x in r] == [-0.5, 0.0, 0.5] and {x["verdict"] for x in r} == {"inconclusive"}
    clear = trials([1.0, 1.1, 0.9, 1.2, 1.3])
    r2 = supported_readings(above, clear, [0.5, 2.0], chosen=0.8, by="trial")
    assert [x["verdict"] for x in r2] == ["holds", "holds", "fails"] and r2[0]["support"] == 1.0
    # turning_only: only the reading that disagrees with the chosen one is resampled; values may be lists; a reading
    # whose test is not measured (None) says so
    def above_pair(t, v):
        return None if v[1] else bool(t.groupby("trial").x.first().median() > v[0])

    r3 = supported_readings(above_pair, clear, [[0.5, 0], [2.0, 0], [0.5, 1]], chosen=[0.8, 0], by="trial", turning_only=True)
    assert [x["value"] for x in r3] == [[0.5, 0], [0.5, 1], [0.8, 0], [2.0, 0]]
    assert [x["verdict"] for x in r3] == ["holds", "not measured", "holds", "fails"]
    assert "support" not in r3[0] and r3[3]["support"] == 0.0
    # an undecided disagreeing reading is inconclusive: it cannot make the verdict turn
    r4 = supported_readings(above, split, [-0.5, 0.5], chosen=-0.5, by="trial", seed=2, turning_only=True)
    assert r4[0] == {"value": -0.5, "verdict": "holds"} and r4[1]["verdict"] == "inconclusive"
    exp = Experiment("Z7", title="t", paper="p", figure="f", params={"output_dir": str(tmp_path), "seed": 2})
    undecided = exp.claim("Z7.4", "median above 0", test=lambda t: above(t, 0.0), table=split,
                          threshold={"value": 0.0, "source": "ours", "readings": r})
    assert undecided.verdict == "inconclusive" and undecided.diagnosis is None and "resamples" in undecided.reason
    turned = exp.claim("Z7.5", "median above 0.8", test=lambda t: above(t, 0.8), table=clear,
                       threshold={"value": 0.8, "source": "ours", "readings": r2})
    assert turned.verdict == "inconclusive" and turned.diagnosis["kind"] == "reading"


def test_bad_claims_and_supports_are_named():
    exp_table = trials([1.0, 2.0])
    single = bootstrap_support(mean_positive, trials([1.0]), by="trial")
    assert single["method"] == "single unit" and supported_verdict(True, single) == "inconclusive"
    with pytest.raises(ValueError, match="empty"):
        bootstrap_support(mean_positive, trials([]), by="trial")
    with pytest.raises(TypeError, match="test must return a boolean"):
        bootstrap_support(lambda t: 1.0, exp_table, by="trial")
    with pytest.raises(ValueError, match="trial"):
        bootstrap_support(mean_positive, exp_table.drop(columns="trial"), by="trial")
    with pytest.raises(TypeError, match="test"):
        bootstrap_support(None, exp_table, by="trial")
    from inferopt.experiment.claims import check_diagnosis

    with pytest.raises(ValueError, match="diagnosis kind"):
        check_diagnosis(("noise", "x"))
    with pytest.raises(ValueError, match="sentence"):
        check_diagnosis((DIAGNOSES[0], " "))
    with pytest.raises(TypeError, match="diagnosis"):
        check_diagnosis("paper")


def test_a_multiset_drawn_again_is_not_recomputed_and_gives_the_same_fraction():
    table = trials([-1.0, 0.5, 2.0])
    calls = []

    def counted(t):
        calls.append(1)
        return mean_positive(t)

    support = bootstrap_support(counted, table, by="trial", n_resamples=300, seed=3)
    assert len(calls) <= 10                                    # 3 units: 10 multisets of size 3
    # the same draws, every one computed: the fraction is unchanged
    rng = np.random.default_rng(3)
    values = np.array([-1.0, 0.5, 2.0])
    brute = np.mean([values[rng.choice(3, 3, replace=True)].mean() > 0 for _ in range(300)])
    assert support["fraction_holding"] == pytest.approx(brute)


def test_a_stratified_bootstrap_keeps_a_lone_group_and_resamples_the_rest():
    """A group of one unit enters every resample as it is (named in ``fixed``); the other groups are resampled, so the
    support can still fall below 90 %; only when every group is lone is there no support."""
    import pandas as pd

    table = pd.DataFrame({"g": ["a"] + ["b"] * 6, "u": [0, 0, 1, 2, 3, 4, 5], "x": [1.0, -3.0, -2.0, 1.0, 2.0, 3.0, 4.0]})
    def b_above_a(t):
        return bool(t[t.g == "b"].x.mean() > t[t.g == "a"].x.mean() - 1.0)
    s = bootstrap_support(b_above_a, table, by="u", within="g", seed=0)
    assert s["method"] == "bootstrap" and s["fixed"] == ["a"] and "enters every resample" in s["note"]
    assert 0.1 < s["fraction_holding"] < 0.9          # b's spread is resampled: undecided
    clear = table.assign(x=[1.0, 5.0, 6.0, 5.5, 7.0, 6.5, 5.0])
    assert bootstrap_support(b_above_a, clear, by="u", within="g")["fraction_holding"] == 1.0
    all_lone = pd.DataFrame({"g": ["a", "b"], "u": [0, 0], "x": [1.0, 2.0]})
    assert bootstrap_support(b_above_a, all_lone, by="u", within="g")["method"] == "single unit"


def test_a_gated_test_has_a_gated_support_and_an_inconclusive_verdict():
    from inferopt.experiment.support import Gated, support_reason

    gate = Gated("no regime")
    s = bootstrap_support(gate, trials([1.0, 2.0, 3.0]), by="trial")
    assert s == {"method": "gated", "note": "no regime"} and gate(None) is False
    assert supported_verdict(False, s) == "inconclusive" and support_reason(False, s) == "gated out: no regime"
    with pytest.raises(ValueError, match="gated support needs its note"):
        check_support({"method": "gated"})


def _rebuild_by_concat(table, by, drawn):
    """The resample as support.py built it up to session 44 (one frame per drawn unit, concatenated): the reference
    its one positional take must equal exactly (reports/paper/output_preserving.yaml)."""
    groups = dict(tuple(table.groupby(by, sort=False)))
    units = pd.unique(table[by])
    return pd.concat([groups[units[j]].assign(**{by: i}) for i, j in enumerate(drawn)], ignore_index=True)


@pytest.mark.parametrize("seed", range(12))
def test_a_resample_is_exactly_the_concatenated_units(seed):
    """Mixed dtypes (float with NaN, int, bool, str, categorical), units of unequal sizes in shuffled rows, labels of
    any type: the positional take gives the frame the per-unit concatenation gave, value for value and dtype for dtype,
    so every bootstrap support computed before it is unchanged."""
    from inferopt.experiment.support import _rebuild, _unit_groups
    rng = np.random.default_rng(seed)
    n_units = int(rng.integers(1, 9))
    labels = [f"run{k}" for k in range(n_units)] if seed % 3 == 0 else list(rng.permutation(100)[:n_units] * 7)
    unit = np.repeat(labels, rng.integers(1, 6, size=n_units))
    n = len(unit)
    x = rng.normal(size=n)
    x[rng.random(n) < 0.2] = np.nan
    table = pd.DataFrame({"x": x, "trial": unit, "k": rng.integers(0, 5, n), "ok": rng.random(n) < 0.5,
                          "name": rng.choice(["a", "bb", "c"], n),
                          "cat": pd.Categorical(rng.choice(["lo", "hi"], n), categories=["lo", "hi"])}
                         ).sample(frac=1.0, random_state=seed).reset_index(drop=True)
    groups = _unit_groups(table, "trial")
    for _ in range(5):
        drawn = np.sort(rng.choice(n_units, size=n_units, replace=True))
        pd.testing.assert_frame_equal(_rebuild(groups, "trial", drawn), _rebuild_by_concat(table, "trial", drawn),
                                      check_exact=True)


def test_an_undecided_support_never_prints_as_the_line():
    """support_reason's share below the 90 % line: whole percent, unless that rounds to the line (89.5 % read "only
    90 % ... needs 90 %", review C1), then one decimal floored."""
    from inferopt.experiment.support import percent_below, support_reason
    assert percent_below(0.61) == "61" and percent_below(0.105) == "10" and percent_below(0.895) == "89.5"
    assert percent_below(0.8999) == "89.9"
    sup = {"fraction_holding": 0.105, "method": "bootstrap", "unit": "run", "n_units": 100, "n_resamples": 200, "seed": 0}
    assert "only 89.5 % of 200 bootstrap resamples" in support_reason(False, sup)
    assert "only 61 % of" in support_reason(True, sup | {"fraction_holding": 0.61})
    assert support_reason(True, sup | {"fraction_holding": 0.9}) is None
