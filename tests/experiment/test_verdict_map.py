import pytest

from inferopt.experiment.claims import check_diagnosis
from inferopt.experiment.verdict_map import cell, map_diagnosis


def test_paper_only_when_no_setting_holds():
    cells = [cell({"grid": g}, False) for g in (1, 2, 3)]
    d = map_diagnosis(cells, "It fails.")
    assert d["kind"] == "paper" and check_diagnosis(d)["evidence"]["sweep"] == cells


def test_a_holding_setting_is_named():
    cells = [cell({"grid": 1}, False), cell({"grid": 2}, True), cell({"grid": 3}, None)]
    d = map_diagnosis(cells, "It fails at ours.")
    assert d["kind"] == "setting" and "grid = 2" in d["text"]
    check_diagnosis(d)


def test_bad_input():
    with pytest.raises(ValueError, match="at least"):
        map_diagnosis([cell({"a": 1}, False)] * 2, "x")
    with pytest.raises(TypeError, match="setting"):
        cell({}, True)
    with pytest.raises(ValueError, match="boolean"):
        cell({"a": 1}, 0.5)
