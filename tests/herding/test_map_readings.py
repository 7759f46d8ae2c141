"""A map-decided verdict against its claim-level readings and construction cells (:mod:`inferopt.experiment.map_readings`):
it can hold, fail, and turn (reading, construction)."""

import pytest

from inferopt.experiment.map_readings import NOT_RUN, map_reading_verdict


def test_holds_and_fails_where_every_reading_and_the_construction_agree():
    assert map_reading_verdict(True, [True, True], True) == {"verdict": "holds", "kind": None, "turns": []}
    assert map_reading_verdict(False, [False], "fails")["verdict"] == "fails"
    assert map_reading_verdict("holds", [], NOT_RUN)["verdict"] == "holds"          # no construction cell run
    assert map_reading_verdict(False, [False], "not measured") == {"verdict": "fails", "kind": None, "turns": []}


def test_turns_with_a_claim_level_reading():
    """A verdict that turns (or is undecided) at another reading of a cut-off of ours is inconclusive (`reading`)."""
    assert map_reading_verdict(True, [True, False, True], True) == {"verdict": "inconclusive", "kind": "reading", "turns": [1]}
    assert map_reading_verdict(False, [None], False)["kind"] == "reading"
    assert map_reading_verdict(True, ["inconclusive"])["verdict"] == "inconclusive"


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
