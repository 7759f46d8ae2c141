"""The verdict engine enforces the review rules (``REVIEW-RUBRIC.md``, rule 7) on every claim a
notebook records: constructed claims that the rules forbid are refused or turned
``inconclusive`` with the reason, and every argument is checked before anything runs."""

import json

import numpy as np
import pandas as pd
import pytest

from inferopt.experiment.claims import Claim, check_threshold, readings
from inferopt.experiment.record import Experiment
from inferopt.experiment.support import deterministic
from inferopt.experiment.verdict_map import cell, map_diagnosis


@pytest.fixture
def exp(tmp_path):
    return Experiment("Z1", params={"seed": 0, "output_dir": str(tmp_path)}, title="t", paper="p", figure="f")


def _map(*verdicts, authors=True, data=None):
    return [cell({"eps": e}, v, construction="authors" if authors and i == 0 else None, data=data,
                 support=deterministic("a constructed cell"))
            for i, (e, v) in enumerate(zip((0.1, 1.0, 10.0, 100.0), verdicts))]


def test_an_earned_paper_diagnosis_stands(exp):
    c = exp.claim("Z1.1", "x beats y", False, {"gap": -1.0}, diagnosis=map_diagnosis(_map(False, False, False), "y wins."))
    assert c.verdict == "fails" and c.diagnosis["kind"] == "paper" and c.reason is None
    assert c.diagnosis["scale"] == "notebook"


@pytest.mark.parametrize("cells", [
    _map(None, None, None),                                   # nothing measured
    _map(False, False, False, authors=False),                 # the authors' construction left out
    [cell({"eps": 1}, False, construction="authors")] * 3,    # three identical settings
], ids=["not-measured", "no-authors", "identical"])
def test_an_unearned_map_turns_a_failure_inconclusive_with_the_reason(exp, cells):
    c = exp.claim("Z1.1", "x beats y", False, {"gap": -1.0}, diagnosis=map_diagnosis(cells, "y wins."))
    assert c.verdict == "inconclusive" and c.diagnosis is None
    assert c.reason.startswith("no diagnosis is earned") and len(c.reason) > 40


def test_a_hand_written_paper_diagnosis_is_held_to_the_same_rules(exp):
    bad = {"kind": "paper", "text": "fails everywhere", "evidence": {"sweep": [
        {"setting": {"a": 1}, "verdict": "not measured"}, {"setting": {"a": 2}, "verdict": "fails"},
        {"setting": {"a": 3}, "verdict": "fails"}]}}
    c = exp.claim("Z1.2", "x beats y", False, {}, diagnosis=bad)
    assert c.verdict == "inconclusive" and "refused" in c.reason and "do not fail" in c.reason
    c = exp.claim("Z1.2", "x beats y", False, {}, diagnosis=("paper", "no map at all"))
    assert c.verdict == "inconclusive" and "sweep" in c.reason


def test_a_paper_diagnosis_on_a_stand_in_becomes_stand_in_unless_a_cell_has_the_papers_shape(exp):
    exp.stand_ins.append("phishing for EICU")
    c = exp.claim("Z1.3", "x beats y", False, {}, diagnosis=map_diagnosis(_map(False, False, False), "y wins."))
    assert c.verdict == "fails" and c.diagnosis["kind"] == "stand-in" and "phishing for EICU" in c.diagnosis["text"]
    # a map that earns nothing (the authors' construction left out) on a stand-in blames nothing, the stand-in neither
    c = exp.claim("Z1.3", "x beats y", False, {}, diagnosis=map_diagnosis(_map(False, False, False, authors=False), "y wins."))
    assert c.verdict == "inconclusive" and c.diagnosis is None and "no diagnosis is earned" in c.reason
    cells = _map(False, False, False) + [cell({"eps": 1000.0}, False, data="paper-shape", support=deterministic("x"))]
    c = exp.claim("Z1.3", "x beats y", False, {}, diagnosis=map_diagnosis(cells, "y wins."))
    assert c.diagnosis["kind"] == "paper"


def test_a_computed_construction_diagnosis_survives_disagreeing_readings(exp):
    th = {"value": 2.0, "source": "ours", "readings": readings(lambda v: 2.5 >= v, [2.0, 3.0, 5.0], chosen=2.0)}
    built = {"kind": "construction", "text": "With the authors' Phi the claim fails (0.010 vs 0.92).",
             "evidence": {"authors": 0.010, "ours": 0.92}}
    c = exp.claim("Z1.4", "ratio at least 2", True, {"ratio": 2.5}, threshold=th, diagnosis=built)
    assert c.verdict == "inconclusive" and c.diagnosis["kind"] == "construction"
    assert "0.010 vs 0.92" in c.diagnosis["text"] and "readings of our cut-off" in c.diagnosis["text"]
    assert c.diagnosis["evidence"]["authors"] == 0.01 and len(c.diagnosis["evidence"]["readings"]) == 3
    assert "turns within the readings" in c.reason
    # without a specific diagnosis the readings make the diagnosis
    c = exp.claim("Z1.4", "ratio at least 2", True, {"ratio": 2.5}, threshold=th)
    assert c.diagnosis["kind"] == "reading"


def test_a_setting_diagnosis_joins_disagreeing_readings_only_where_it_rescues_something(exp):
    cells = _map(True, False, False)
    # the claim holds at the chosen reading and the map has settings where it fails: the chosen setting rescues it
    th = {"value": 2.0, "source": "ours", "readings": readings(lambda v: 2.5 >= v, [1.5, 2.0, 3.0], chosen=2.0)}
    c = exp.claim("Z1.4", "ratio at least 2", True, {"ratio": 2.5}, threshold=th, diagnosis=map_diagnosis(cells, "x."))
    assert c.verdict == "inconclusive" and c.diagnosis["kind"] == "setting" and "readings of our cut-off" in c.diagnosis["text"]
    # ... but where it holds at every cell of the map, the map's "it holds at ..." explains nothing: the readings do
    c = exp.claim("Z1.4", "ratio at least 2", True, {"ratio": 2.5}, threshold=th, diagnosis=map_diagnosis(_map(True, True, True), "x."))
    assert c.verdict == "inconclusive" and c.diagnosis["kind"] == "reading" and "holds at" not in c.diagnosis["text"]
    # it fails at the chosen reading: the setting where it holds is the diagnosis, with the readings beside it
    th = {"value": 3.0, "source": "ours", "readings": readings(lambda v: 2.5 >= v, [2.0, 3.0, 4.0], chosen=3.0)}
    c = exp.claim("Z1.4", "ratio at least 3", False, {"ratio": 2.5}, threshold=th, diagnosis=map_diagnosis(cells, "x."))
    assert c.verdict == "inconclusive" and c.diagnosis["kind"] == "setting"
    assert "holds at 1 of 3" in c.diagnosis["text"] and "readings of our cut-off" in c.diagnosis["text"]


def test_an_inconclusive_by_support_says_so_not_the_readings(exp):
    shaky = pd.DataFrame({"trial": range(10), "x": [-1.0] * 5 + [1.0] * 5})
    c = exp.claim("Z1.5", "median below 0", test=lambda t: bool(t.x.median() < 0), table=shaky)
    assert c.verdict == "inconclusive" and "bootstrap resamples" in c.reason and "readings" not in c.reason


@pytest.mark.parametrize("kwargs, match", [
    (dict(id="", text="x", holds=True), "claim id"),
    (dict(id="Z 1", text="x", holds=True), "claim id"),
    (dict(id="Z1.6", text=" ", holds=True), "text"),
    (dict(id="Z1.6", text="x", holds=True, measured=[1, 2]), "measured must be a mapping"),
    (dict(id="Z1.6", text="x", holds=True, measured={"s": {1, 2}}), r"measured\['s'\] is a set"),
    (dict(id="Z1.6", text="x", holds=True, measured={"o": object()}), r"measured\['o'\] is a object"),
    (dict(id="Z1.6", text="x", holds=True, support={"method": "bootstrap", "fraction_holding": 1.5,
                                                     "n_units": 3, "n_resamples": 10}), "fraction_holding"),
    (dict(id="Z1.6", text="x", holds=True, support={"method": "vibes"}), "method"),
    (dict(id="Z1.6", text="x", holds=None, diagnosis=("paper", "fails")), "not measured"),
    (dict(id="Z1.6", text="x", holds=1), "boolean"),
])
def test_claim_arguments_are_checked_up_front(exp, kwargs, match):
    with pytest.raises((TypeError, ValueError), match=match):
        exp.claim(**kwargs)
    assert exp.claims == []


def test_numpy_and_pandas_values_are_serialised(exp):
    s = pd.Series([1.5, 2.5], index=["a", "b"])
    df = pd.DataFrame({"k": [1, 2], "v": [0.1, 0.2]})
    c = exp.claim("Z1.7", "x", True, {"s": s, "df": df, "arr": np.arange(3), "f": np.float32(0.5), "t": pd.Timestamp(0)})
    assert c.measured == {"s": {"a": 1.5, "b": 2.5}, "df": [{"k": 1, "v": 0.1}, {"k": 2, "v": 0.2}], "arr": [0, 1, 2],
                          "f": 0.5, "t": "1970-01-01T00:00:00"}
    exp.write()
    assert json.loads(exp.metrics_path.read_text())["claims"][0]["measured"]["s"] == {"a": 1.5, "b": 2.5}


@pytest.mark.parametrize("threshold, match", [
    ({"value": float("nan"), "source": "paper"}, "finite"),
    ({"value": "abc", "source": "paper"}, "finite"),
    ({"value": None, "source": "paper"}, "finite"),
    ({"value": True, "source": "paper"}, "finite"),
    ({"value": 3.0, "source": "ours", "readings": [{"value": v, "verdict": "holds"} for v in (1.0, 2.0, 4.0)]},
     "must be one of its readings"),
    ({"value": 2.0, "source": "ours", "readings": [{"value": v, "verdict": "holds"} for v in (1.0, 2.0, float("nan"))]},
     r"readings\[2\]"),
    ({"value": 2.0, "source": "ours", "readings": [{"value": 2.0, "verdict": "holds"}] * 3}, "distinct"),
])
def test_thresholds_and_readings_are_finite_numbers(threshold, match):
    with pytest.raises(ValueError, match=match):
        check_threshold(threshold)


def test_a_cut_off_of_several_parts():
    th = check_threshold({"value": [0.9, 1.5], "source": "ours", "readings": [
        {"value": [0.9, 1.5], "verdict": "holds"}, {"value": [0.75, 1.5], "verdict": "holds"},
        {"value": [0.9, 2.0], "verdict": "fails"}]})
    assert th["value"] == [0.9, 1.5]


def test_a_claim_record_keeps_its_rules():
    with pytest.raises(ValueError, match="reason"):
        Claim(id="Z1.8", target="Z1", text="x", verdict="inconclusive")
    with pytest.raises(ValueError, match="only an inconclusive"):
        Claim(id="Z1.8", target="Z1", text="x", verdict="holds", reason="because")
    with pytest.raises(ValueError, match="verdict"):
        Claim(id="Z1.8", target="Z1", text="x", verdict="bogus")
