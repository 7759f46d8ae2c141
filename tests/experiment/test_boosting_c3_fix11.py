"""Session 58's review of C3: C3.1 gated on Table 3's own axis (axis_table_claim), C3.2 (elbo_curve_claim, the first-step
check in its text; session 60's review C3c: ungated, a decisive construction split inconclusive), C3.5's single-rule
readings of "our approach" beside (span_readings) and (session 60) its cost unit read again (cost_unit_decides). Each
deciding function holds and fails on constructed inputs."""

import pytest

from inferopt.experiment import boosting_claims as bc
from inferopt.experiment import open_experiment
from inferopt.experiment.support import Gated
from test_boosting_claims import RULES, _gate_row, _paper_scale_ratios, make_records

#: Table 3's axis open (line search +0.00705 ± 0.00157 train LL per point), the ELBO beside unseen or opposite
LL_OPEN = {"vi": {"line_search": _gate_row(0.00705, 0.00157)}}
LL_SHUT = {"vi": {"line_search": _gate_row(0.001, 0.00157)}}
ELBO_UNSEEN = {"vi": {"line_search": _gate_row(-21.2, 16.4)}}
ELBO_OPPOSITE = {"vi": {"line_search": _gate_row(-80.0, 16.4)}}
FIRST_STEP = {"authors": {"gain": -0.1415, "se": 0.05, "detectable": 0.142}, "ours": {"gain": -0.432, "se": 0.1, "detectable": 0.284}}


def _exp():
    return open_experiment("C3", {"seed": 0, "output_dir": "build/scratch"}, set())[0]


def test_c31_is_decided_on_table_3s_axis_and_can_hold_and_fail():
    exp = _exp()
    best = make_records(ll={"adaafw": 0.02}, auroc={"adaafw": 0.05}, reps=6)
    worst = make_records(ll={m: 0.02 for m in RULES if m != "adaafw"}, auroc={"adaafw": 0.05}, reps=6)
    c = bc.axis_table_claim(exp, "C3.1", "Best.", bc.adaafw_best, best, regime_ll=LL_OPEN, elbo=ELBO_UNSEEN)
    assert c.verdict == "holds" and "The regime, on Table 3's axis" in c.text and "Gated on Table 3's own axis" in c.text
    assert bc.axis_table_claim(exp, "C3.1", "Best.", bc.adaafw_best, worst, regime_ll=LL_OPEN, elbo=ELBO_UNSEEN).verdict == "fails"
    # shut on the axis, or the ELBO moving opposite: gated, the ranking as measured beside
    for ll, elbo, why in ((LL_SHUT, ELBO_UNSEEN, "nothing to improve"), (LL_OPEN, ELBO_OPPOSITE, "moves opposite")):
        c = bc.axis_table_claim(exp, "C3.1", "Best.", bc.adaafw_best, worst, regime_ll=ll, elbo=elbo)
        assert c.verdict == "inconclusive" and c.support["method"] == "gated" and why in c.reason
        assert "as measured it fails" in c.text and c.measured["the ranking as measured (beside, deciding nothing)"] == "fails"
    with pytest.raises(TypeError, match="gate"):
        bc.axis_table_claim(exp, "C3.1", "Best.", Gated("shut"), best, regime_ll=LL_OPEN, elbo=ELBO_UNSEEN)


def _split_diagnosis(ours, theirs):
    """The construction diagnosis diagnose_step_rules gives C3.2 where the authors' rules (``theirs``) rescue it: their
    cell and the halves of their construction swapped into ``ours`` (halves_diagnosis)."""
    from inferopt.experiment.boosting import authors_cell, halves_diagnosis
    split, halves = halves_diagnosis(bc.elbo_curves_above, ours, theirs, "theirs")
    return {"kind": "construction", "text": f"x. {split}",
            "evidence": {"sweep": [authors_cell("theirs", bc.elbo_curves_above, theirs)], "halves": halves}}


def test_c32_is_decided_ungated_and_a_decisive_construction_split_is_inconclusive():
    """Session 60's review C3c: Fig. 1's ELBO curves are compared rule against rule, not gated on the gain over plain VI
    (as C3.8 is not: the paper's own runs end below it); where our construction fails and the authors' holds, each
    decisively, C3.2 is inconclusive (construction), the half that turns it named (before: gated, the split dropped)."""
    exp = _exp()
    up = make_records(elbo={"adafw": 2, "adaafw": 1, "adapfw": 3, "line_search": 0.5}, reps=6)
    down = make_records(elbo={"adafw": -2, "adaafw": -1, "adapfw": -3, "line_search": 0.5}, reps=6)
    c = bc.elbo_curve_claim(exp, "C3.2", "Higher.", bc.elbo_curves_above, up, first_step=FIRST_STEP)
    assert c.verdict == "holds" and "authors: -0.141 ± 0.05 nats" in c.text and "Not gated by the regime" in c.text
    # every rule below plain VI (t = 0 at -100, every curve lower): decided on the curves all the same
    sunk = make_records(elbo={"predefined": -30, "adafw": -20, "adaafw": -21, "adapfw": -22, "line_search": -40}, reps=6)
    assert bc.elbo_curve_claim(exp, "C3.2", "Higher.", bc.elbo_curves_above, sunk, first_step=FIRST_STEP).verdict == "holds"
    # holds: ours fails decisively, the authors' line search lifts the adaptive rules above it, decisively
    theirs = make_records(elbo={"adafw": -2, "adaafw": -1, "adapfw": -3, "line_search": -5}, reps=6)
    c = bc.elbo_curve_claim(exp, "C3.2", "Higher.", bc.elbo_curves_above, down, first_step=FIRST_STEP,
                            diagnosis=_split_diagnosis(down, theirs))
    assert c.verdict == "inconclusive" and c.diagnosis["kind"] == "construction" and c.support["method"] == "gated"
    assert "turns with the construction" in c.reason and "the authors' line search, our adaptive rules: holds" in c.reason
    assert "The split is in the line search" in c.diagnosis["text"] and "as measured it fails" in c.text
    assert "ours: -0.432 ± 0.1 nats" in c.text
    # fails: the authors' construction fails too (no split), or the split is not decisive on ours (it holds): decided
    sunk_too = make_records(elbo={"adafw": -2, "adaafw": -1, "adapfw": -3, "line_search": 5}, reps=6)
    c = bc.elbo_curve_claim(exp, "C3.2", "Higher.", bc.elbo_curves_above, down, first_step=FIRST_STEP,
                            diagnosis=_split_diagnosis(down, sunk_too))
    assert c.verdict == "fails" and c.support["method"] == "bootstrap" and c.diagnosis["kind"] == "construction"
    assert bc.construction_decides(bc.elbo_curves_above, up, _split_diagnosis(up, theirs))[0] is bc.elbo_curves_above
    assert bc.construction_decides(bc.elbo_curves_above, down, None) == (bc.elbo_curves_above, None)
    with pytest.raises(ValueError, match="elbo_curves_above"):
        bc.elbo_curve_claim(exp, "C3.8", "Steadier.", bc.elbo_curves_steadier, up, first_step=FIRST_STEP)
    with pytest.raises(TypeError, match="first_step"):
        bc.first_step_sentence({"authors": {"gain": 1.0}})


def test_c35_sets_single_rule_readings_beside_and_fails_where_only_adafw_is_in_range():
    chosen, readings, beside = bc.span_readings(bc.TABLE3_TIMES, [2, 5, 7, 39])
    assert bc.APPROACHES[chosen[4]] == "mean" and chosen[:4] == [2.0, 5.0, 6.82, 39.0]
    assert [bc.APPROACHES[r[4]] for r in readings] == ["every", "mean"]
    assert sorted(bc.APPROACHES[r[4]] for r in beside) == ["adafw", "fastest"]
    exp = _exp()
    at_ = lambda r, v: bc.cost_ratios_in_range(r, v[:4], approach=bc.APPROACHES[int(v[4])])   # noqa: E731

    def claim(rec):
        read = bc.replicate_readings(at_, rec, readings, chosen=chosen)
        return exp.claim("C3.5", "Ranges.", test=lambda r: at_(r, chosen), table=rec, by="replicate",
                         threshold={"value": chosen, "source": "ours", "readings": read})
    assert claim(_paper_scale_ratios()).verdict == "fails"              # AdaFW alone 4.23x in range: no longer a turn
    assert claim(_paper_scale_ratios(adafw=3.0, adaafw=4.0, adapfw=4.5)).verdict == "holds"
    with pytest.raises(ValueError, match="single rule"):
        bc.span_readings({"predefined": 1.0, "line_search": 7.0, "adafw": 3.0, "adaafw": 9.0, "adapfw": 9.0})


def test_every_definition_c2_to_c4_had_is_unchanged():
    """reports/paper/output_preserving.yaml: session 58's C3 edit of boosting_claims.py only adds definitions; every one
    of the module before it (its blob on main) is in the new module with the same syntax tree, so C2's and C4's runs
    (which call none of the new ones) compute what they computed. C1's fix of the same session changed over_map, which
    only C1's notebook calls. Session 60 (review C3c) changed C3's alone: elbo_curve_claim (C3.2 ungated,
    construction_decides), TABLE_NOTE and AXIS_RANKING_NOTE (C3.7's and C3.1's texts say why one is gated and not the
    other) and added C3.5's cost unit (shared_cost, shared_cost_in_range, cost_unit_decides); no definition C1, C2 or
    C4 calls changed."""
    from pathlib import Path
    from test_boosting_preserving import definitions, git_blob
    old = git_blob("fac0b988ecc9e2b8e12af286ff8c2399a7e57a4d", "boosting_claims.py's blob before session 58")
    old, new = definitions(old), definitions(Path(bc.__file__).read_text())
    # over_map, map_readings: C1's alone (its notebook is the only caller), changed by C1's fixes of the same session; C1
    # is re-run. TABLE_NOTE: C3.7's text (table_claim, C3's alone) no longer names C3.2 among the ungated claims
    # session 59: lower_cells (C1's alone) builds its cells with supported_cell, shared with map_readings and
    # distinguish_cells; over_map earns no diagnosis kind where only our cells hold (ours_alone_holds)
    # session 63 (C3's fix): the definitions test_boosting_preserving.C3FIX63 names, each C2 or C4 calls answering as
    # before (test_boosting_c3_fix63.py::test_the_definitions_c2_and_c4_call_answer_as_before)
    from test_boosting_preserving import C3FIX63
    assert set(old) <= set(new) and {k for k in old if old[k] != new[k]} == {
        "over_map", "map_readings", "TABLE_NOTE", "lower_cells"} | C3FIX63["boosting_claims.py"]
    assert {"axis_table_claim", "elbo_curve_claim", "span_readings"} <= set(new) - set(old)


def test_c35s_fitted_shared_cost_is_a_note_fitted_to_line_searchs_ratio():
    """Session 60's review C3c fitted one cost per iteration shared by every rule to line search's Table 3 ratio; session
    61's review C3d: line search's side is then true by construction, so the fit is a note beside C3.5, deciding nothing
    (cost_unit_decides reads the measured cost, test_boosting_c3_fix61)."""
    r = bc.TABLE3_TIMES["line_search"] / bc.TABLE3_TIMES["predefined"]
    rec = _paper_scale_ratios()                                      # AdaFW 4.23x, AdaAFW 12.4x, AdaPFW 11.4x, line search 26x
    shared = bc.shared_cost(rec, r)
    assert shared["per_run"] == pytest.approx(800 * (26 - r) / (r - 1)) and shared["per_iteration"] == shared["per_run"] / 4
    assert shared["ratios"]["line_search"] == pytest.approx(r) and shared["ratios"]["predefined"] == pytest.approx(1.0)
    assert [round(shared["ratios"][m], 2) for m in ("adafw", "adaafw", "adapfw")] == [1.75, 3.66, 3.42]
    assert bc.shared_cost(_paper_scale_ratios(line_search=5.0), r)["per_run"] == 0.0     # no shared cost raises a ratio
    with pytest.raises(ValueError, match="paper_ratio"):
        bc.shared_cost(rec, 1.0)
