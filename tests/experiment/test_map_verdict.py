"""A map-decided verdict against its claim-level readings and construction cells (:mod:`inferopt.experiment.verdict_map`):
it can hold, fail, and turn (reading, construction)."""

import pytest

from inferopt.experiment.verdict_map import NOT_RUN, inconclusive_reasons, lost_setting_verdict, map_reading_verdict


def test_holds_and_fails_where_every_reading_and_the_construction_agree():
    assert map_reading_verdict(True, [True, True], True) == {"verdict": "holds", "kind": None, "turns": []}
    assert map_reading_verdict(False, [False], "fails")["verdict"] == "fails"
    assert map_reading_verdict("holds", [], NOT_RUN)["verdict"] == "holds"          # no construction cell run
    assert map_reading_verdict(False, [False], "not measured") == {"verdict": "fails", "kind": None, "turns": []}


def test_turns_with_a_claim_level_reading():
    """A verdict that turns at another reading of a cut-off of ours is inconclusive (`reading`); a reading at which the
    map is undecided decides nothing, so it turns nothing (helper-211: B3.2 was kept inconclusive by one)."""
    assert map_reading_verdict(True, [True, False, True], True) == {"verdict": "inconclusive", "kind": "reading", "turns": [1]}
    assert map_reading_verdict(False, [True, None], False) == {"verdict": "inconclusive", "kind": "reading", "turns": [0]}
    assert map_reading_verdict(False, [None], False) == {"verdict": "fails", "kind": None, "turns": []}
    assert map_reading_verdict(True, ["inconclusive", True]) == {"verdict": "holds", "kind": None, "turns": []}


def test_undecided_construction_cells_leave_it_open():
    """Undecided random-order cells: the chosen construction's cells alone cannot decide (`construction`)."""
    assert map_reading_verdict(True, [True], None) == {"verdict": "inconclusive", "kind": "construction", "turns": []}
    assert map_reading_verdict(False, [], "inconclusive")["kind"] == "construction"
    # the chosen (lowest-index) map holds, the construction fails: a disagreement, inconclusive (`construction`), never fails
    assert map_reading_verdict(True, [True], False) == {"verdict": "inconclusive", "kind": "construction", "turns": []}
    # the chosen map fails, the construction holds: a failure our construction explains (fails, `construction`)
    assert map_reading_verdict(False, [False], True) == {"verdict": "fails", "kind": "construction", "turns": []}


def test_an_undecided_map_stays_undecided_and_bad_input_raises():
    assert map_reading_verdict(None, [True], True) == {"verdict": "inconclusive", "kind": None, "turns": []}
    with pytest.raises(ValueError):
        map_reading_verdict("maybe")


def test_lost_setting_verdict():
    assert lost_setting_verdict({6: True, 8: True, 10: True}) is True
    assert lost_setting_verdict({6: False, 8: False}) is False
    assert lost_setting_verdict({6: False, 8: True}) == "lost setting"
    assert lost_setting_verdict({6: None, 8: None}) is None
    assert lost_setting_verdict({6: True, 8: None}) is None


def test_inconclusive_reasons_lists_every_reason():
    assert inconclusive_reasons(True, None, True, "lost setting") == ["reading", "construction", "lost setting"]
    assert inconclusive_reasons(True, "not run", False, False) == ["reading"]
    assert inconclusive_reasons(False, True, True, "lost setting") == ["lost setting"]
    assert inconclusive_reasons(False, False, True, None) == ["construction"]
    assert inconclusive_reasons(False, True, True, True) == []
