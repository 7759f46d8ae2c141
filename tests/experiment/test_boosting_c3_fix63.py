"""Session 63's fix of C3 (/work/s63/c3_findings.md: the right parts of branch c3fix62 redone, and the fixes its re-read
asked for). Each deciding function holds and fails on constructed inputs; each refactored definition answers as the
code before it did (the module at the branch's base, from its git blob, run beside the new one)."""

import pytest

from inferopt.experiment import boosting_claims as bc
from inferopt.experiment.support import Gated
from test_boosting_claims import make_records
from test_boosting_preserving import git_blob, old_module

#: boosting_claims.py at this fix's base (git hash-object; the ``before`` of its output-preserving entry)
BEFORE = "9bc0b15172be11f88aab3b263d3e838b61cecd75"


@pytest.fixture(scope="module")
def old():
    return old_module(git_blob(BEFORE, "boosting_claims.py's blob before session 63's C3 fix"),
                      "inferopt.experiment._boosting_claims_before_c3fix63", f"boosting_claims.py@{BEFORE[:7]}")


def _undecided():
    """adaptive_faster fails on the mean by one replicate's outlier alone: the resamples without it hold."""
    rec = make_records(work={"line_search": 1000}, reps=6)
    rec.loc[(rec.method == "adafw") & (rec.replicate == 0) & (rec.iteration > 0), "work_step"] = 10_000
    return rec


def test_decisive_failure_is_the_old_fails_decisively_rule(old):
    """A1: one rule of a decisive failure (decisive_failure), read by fails_decisively and construction_decides; each
    answers as the old code did, on a hold, a decisive failure, an undecided failure and a gate's placeholder."""
    cases = [(bc.adaptive_faster, make_records(work={"line_search": 1000})),                      # holds
             (bc.adaptive_faster, make_records(work={"line_search": 100, "adafw": 500})),          # fails, decisively
             (bc.adaptive_faster, _undecided()),                                                   # fails, undecided
             (Gated("shut"), make_records())]                                                      # a gate: never decisive
    said = [bc.fails_decisively(t, r) for t, r in cases]
    assert said == [old.fails_decisively(t, r) for t, r in cases] == [False, True, False, False]
    support = bc.decisive_failure(*cases[1])
    assert support["method"] == "bootstrap" and support["fraction_holding"] <= 0.1
    assert [bc.decisive_failure(t, r) for t, r in (cases[0], cases[2], cases[3])] == [None, None, None]
    with pytest.raises(TypeError, match="test"):
        bc.decisive_failure("adaptive_faster", cases[0][1])


def test_construction_decides_answers_as_before_through_decisive_failure(old):
    from inferopt.experiment.boosting import authors_cell, halves_diagnosis
    from inferopt.experiment.verdict_map import cell
    up = make_records(elbo={"adafw": 2, "adaafw": 1, "adapfw": 3, "line_search": 0.5}, reps=6)
    down = make_records(elbo={"adafw": -2, "adaafw": -1, "adapfw": -3, "line_search": 0.5}, reps=6)
    theirs = make_records(elbo={"adafw": -2, "adaafw": -1, "adapfw": -3, "line_search": -5}, reps=6)
    split, halves = halves_diagnosis(bc.elbo_curves_above, down, theirs, "theirs")
    sweep = [authors_cell(n, bc.elbo_curves_above, theirs) for n in ("exact", "float32")]
    full = {"kind": "construction", "text": split, "evidence": {"sweep": sweep, "halves": halves}}
    loose = {"kind": "construction", "text": split,
             "evidence": {"sweep": [cell({"rules": "x"}, True, construction="authors")], "halves": halves}}
    for rec, diagnosis in ((down, full), (up, full), (down, loose), (down, None), (down, {"kind": "paper", "text": "x."})):
        new, was = bc.construction_decides(bc.elbo_curves_above, rec, diagnosis), \
            old.construction_decides(bc.elbo_curves_above, rec, diagnosis)
        assert type(new[0]) is type(was[0]) and new[1] == was[1]
        assert new[0].reason == was[0].reason if isinstance(new[0], Gated) else new[0] is was[0] is bc.elbo_curves_above
    assert isinstance(bc.construction_decides(bc.elbo_curves_above, down, full)[0], Gated)      # it turns ...
    assert bc.construction_decides(bc.elbo_curves_above, up, full)[0] is bc.elbo_curves_above   # ... and it does not
