"""The verdict map's diagnosis: ``setting`` where a decisive cell holds, ``paper`` only when the
map earns it (the rubric's rule 7), else :class:`Unearned` with what is missing."""

import pytest

from inferopt.experiment.claims import Unearned, UnearnedDiagnosis, check_diagnosis
from inferopt.experiment.support import deterministic
from inferopt.experiment.verdict_map import cell, decisive, map_diagnosis

EXACT = deterministic("one closed-form computation: nothing random to resample")


def _boot(fraction, n=10):
    return {"method": "bootstrap", "fraction_holding": fraction, "n_units": n, "n_resamples": 200, "unit": "trial", "seed": 0}


def _failing_map(**authors):
    return [cell({"grid": 1}, False, support=EXACT, **authors), cell({"grid": 2}, False, support=_boot(0.02)),
            cell({"grid": 3}, False, support=EXACT)]


def test_paper_when_every_cell_fails_and_the_authors_construction_is_among_them():
    cells = _failing_map(construction="authors")
    d = map_diagnosis(cells, "It fails.")
    assert d["kind"] == "paper" and check_diagnosis(d)["evidence"]["sweep"] == cells
    assert "grid = 1 (authors' construction)" in d["text"]


def test_paper_without_the_authors_construction_needs_the_reason_there_is_none():
    assert isinstance(map_diagnosis(_failing_map(), "It fails."), Unearned)
    d = map_diagnosis(_failing_map(), "It fails.", no_authors_construction="the authors published no code")
    assert d["kind"] == "paper" and d["evidence"]["no_authors_construction"].startswith("the authors")


def test_a_holding_setting_is_named():
    cells = [cell({"grid": 1}, False, support=EXACT), cell({"grid": 2}, True, support=EXACT), cell({"grid": 3}, None)]
    d = map_diagnosis(cells, "It fails at ours.")
    assert d["kind"] == "setting" and "grid = 2" in d["text"] and "grid = 1" not in d["text"]
    check_diagnosis(d)


@pytest.mark.parametrize("verdicts", [(None, None, None), ("inconclusive",) * 3, (False, False, "inconclusive"),
                                      (False, None, False)])
def test_maps_that_do_not_all_fail_earn_nothing(verdicts):
    cells = []
    for g, v in enumerate(verdicts):
        c = cell({"grid": g}, v if v != "inconclusive" else False, construction="authors" if g == 0 else None,
                 support=_boot(0.5) if v == "inconclusive" else None)
        cells.append(c)
    out = map_diagnosis(cells, "It fails.")
    assert isinstance(out, Unearned) and "do not fail" in out.reason


def test_identical_or_empty_settings_earn_nothing():
    same = [cell({"grid": 1}, False, construction="authors")] * 3
    out = map_diagnosis(same, "It fails.")
    assert isinstance(out, Unearned) and "1 distinct setting" in out.reason
    empty = {"kind": "paper", "text": "x", "evidence": {"no_authors_construction": "none", "sweep": [
        {"setting": {}, "verdict": "fails"}, {"setting": {"a": 1}, "verdict": "fails"}, {"setting": {"a": 2}, "verdict": "fails"}]}}
    with pytest.raises(UnearnedDiagnosis, match="without a setting"):
        check_diagnosis(empty)


def test_a_cell_with_weak_support_is_not_decisive():
    # the cell's verdict reads its own support: 15 % of resamples hold -> 85 % fail, short of 90 %
    weak = cell({"grid": 2}, False, support=_boot(0.15))
    assert weak["verdict"] == "inconclusive" and weak["support"] == 0.15
    firm = cell({"grid": 2}, False, support=_boot(0.05))
    assert firm["verdict"] == "fails"
    out = map_diagnosis([cell({"grid": 1}, False, construction="authors", support=EXACT), weak,
                         cell({"grid": 3}, False, support=EXACT)], "x")
    assert isinstance(out, Unearned)
    # a hand-written cell that says fails but carries weak support is refused too
    hand = {"kind": "paper", "text": "x", "evidence": {"sweep": [
        {"setting": {"a": 1}, "verdict": "fails", "construction": "authors", "deterministic": "one computation"},
        {"setting": {"a": 2}, "verdict": "fails", "deterministic": "one computation"},
        {"setting": {"a": 3}, "verdict": "fails", "support": 0.2}]}}
    with pytest.raises(UnearnedDiagnosis, match="not decisive"):
        check_diagnosis(hand)


def test_a_cell_whose_verdict_turns_within_the_readings_is_not_decisive():
    """A cell failing with full support at the chosen cut-off but holding at another reading is inconclusive, so an
    authors' cell that turns cannot carry a `paper` diagnosis (D5.3: the authors' LANCZOS held at 5 of 9 readings);
    readings that agree (or are not measured) leave the cell as its support makes it."""
    turns = [{"value": 0.05, "verdict": "fails"}, {"value": 0.0, "verdict": "holds"}]
    c = cell({"grid": 1}, False, support=_boot(0.0), construction="authors", readings=turns)
    assert c["verdict"] == "inconclusive" and c["readings turn"] == turns
    assert isinstance(map_diagnosis([c, cell({"grid": 2}, False, support=EXACT), cell({"grid": 3}, False, support=EXACT)],
                                    "x"), Unearned)
    agree = cell({"grid": 1}, False, support=_boot(0.0), construction="authors", readings=["fails", "fails", "not measured"])
    assert agree["verdict"] == "fails" and "readings turn" not in agree
    assert map_diagnosis([agree, cell({"grid": 2}, False, support=EXACT), cell({"grid": 3}, False, support=EXACT)],
                         "x")["kind"] == "paper"
    # an undecided reading decides nothing, so it turns nothing (helper-211, helper-219): the cell stays decisive
    undecided = cell({"grid": 1}, False, support=_boot(0.0), construction="authors", readings=["fails", "inconclusive"])
    assert undecided["verdict"] == "fails" and "readings turn" not in undecided
    assert map_diagnosis([undecided, cell({"grid": 2}, False, support=EXACT), cell({"grid": 3}, False, support=EXACT)],
                         "x")["kind"] == "paper"
    held = cell({"grid": 1}, True, support=_boot(1.0), readings=["holds", "fails"])    # nor can it name a setting
    assert held["verdict"] == "inconclusive"
    with pytest.raises(ValueError, match="readings"):
        cell({"grid": 1}, False, readings=["bogus"])
    with pytest.raises(ValueError, match="readings"):
        cell({"grid": 1}, False, readings=[])


def test_cells_without_support_decide_nothing():
    # a cell measured once, with draws behind it and no bootstrap, could turn on another draw: it
    # neither names a setting nor counts towards 'paper'
    bare = [cell({"grid": 1}, False, construction="authors"), cell({"grid": 2}, False), cell({"grid": 3}, False)]
    assert not any(decisive(c) for c in bare)
    out = map_diagnosis(bare, "It fails.")
    assert isinstance(out, Unearned) and "neither a bootstrap support nor a deterministic note" in out.reason
    holds_once = [cell({"grid": 1}, False, support=EXACT, construction="authors"), cell({"grid": 2}, True),
                  cell({"grid": 3}, False, support=EXACT)]
    out = map_diagnosis(holds_once, "It fails.")
    assert isinstance(out, Unearned) and "grid = 2" in out.reason          # not a 'setting' rescue
    hand = {"kind": "setting", "text": "It holds at grid = 2.", "evidence": {"sweep": holds_once}}
    with pytest.raises(UnearnedDiagnosis, match="carry no support .grid = 2"):
        check_diagnosis(hand)
    exact = cell({"grid": 2}, True, support=EXACT)
    assert decisive(exact) and exact["deterministic"].startswith("one closed-form")
    d = map_diagnosis([holds_once[0], exact, holds_once[2]], "It fails.")
    assert d["kind"] == "setting" and "grid = 2" in d["text"]


def test_unknown_verdicts_and_bad_cells_are_refused():
    bogus = [{"setting": {"grid": g}, "verdict": "bogus"} for g in range(3)]
    with pytest.raises(ValueError, match="verdict"):
        map_diagnosis(bogus, "x")
    with pytest.raises(ValueError, match="at least"):
        map_diagnosis([cell({"a": 1}, False)] * 2, "x")
    with pytest.raises(TypeError, match="setting"):
        cell({}, True)
    with pytest.raises(ValueError, match="boolean"):
        cell({"a": 1}, 0.5)
    with pytest.raises(ValueError, match="construction"):
        cell({"a": 1}, False, construction="theirs")
    with pytest.raises(ValueError, match="data"):
        cell({"a": 1}, False, data="real")
    with pytest.raises(ValueError, match="fraction_holding"):
        cell({"a": 1}, False, support=_boot(1.5))
