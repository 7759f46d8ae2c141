"""The claim schema of the verdict review: quotes, thresholds with readings, diagnoses with scale
and evidence, and degenerate statistics as errors."""

import numpy as np
import pytest

from inferopt.experiment.claims import (
    DegenerateTest, check_diagnosis, check_quote, check_statistic, check_threshold, readings,
)
from inferopt.experiment.record import Experiment


def _sweep(verdicts):
    """A verdict map over N whose first cell runs the authors' construction (each cell one deterministic computation)."""
    return [{"setting": {"N": n}, "verdict": v, "deterministic": "one computation",
             **({"construction": "authors"} if n == 10 else {})}
            for n, v in zip((10, 20, 30, 40), verdicts)]


def test_paper_diagnosis_needs_a_sweep_of_three_settings_none_holding():
    with pytest.raises(ValueError, match="sweep"):
        check_diagnosis(("paper", "fails"))
    with pytest.raises(ValueError, match="at least 3 distinct settings"):
        check_diagnosis({"kind": "paper", "text": "x", "evidence": {"sweep": _sweep(["fails", "fails"])}})
    with pytest.raises(ValueError, match="do not fail"):
        check_diagnosis({"kind": "paper", "text": "x", "evidence": {"sweep": _sweep(["fails", "holds", "fails"])}})
    d = check_diagnosis({"kind": "paper", "text": "x", "evidence": {"sweep": _sweep(["fails"] * 3)}}, scale="paper")
    assert d["scale"] == "paper" and len(d["evidence"]["sweep"]) == 3
    with pytest.raises(ValueError, match="scale"):
        check_diagnosis(("setting", "x"), scale="huge")


def test_threshold_of_ours_needs_readings():
    assert check_threshold({"value": 0.79, "source": "paper"})["source"] == "paper"
    with pytest.raises(ValueError, match="readings"):
        check_threshold({"value": 3.0, "source": "ours"})
    with pytest.raises(ValueError, match="source"):
        check_threshold({"value": 3.0, "source": "mine"})
    r = readings(lambda v: 2.5 < v, [2.0, 3.0, 5.0], chosen=3.0)
    assert [x["verdict"] for x in r] == ["fails", "holds", "holds"]


def test_quote_and_statistic():
    with pytest.raises(ValueError, match="where"):
        check_quote({"text": "x"})
    assert check_statistic("ratio", np.float64(2.0)) == 2.0
    for bad in (np.inf, np.nan, "x", None):
        with pytest.raises(DegenerateTest, match="ratio"):
            check_statistic("ratio", bad)


def test_a_verdict_that_turns_within_the_readings_is_inconclusive(tmp_path):
    exp = Experiment("D1", params={"seed": 0, "output_dir": str(tmp_path)}, title="t", paper="p", figure="f")
    ratio = 2.5
    th = {"value": 2.0, "source": "ours", "readings": readings(lambda v: ratio >= v, [2.0, 3.0, 5.0], chosen=2.0)}
    c = exp.claim("D1.1", "ratio at least 2", ratio >= 2.0, {"ratio": ratio}, threshold=th)
    assert c.verdict == "inconclusive" and c.diagnosis["kind"] == "reading" and c.diagnosis["scale"] == "notebook"
    th = {"value": 2.0, "source": "ours", "readings": readings(lambda v: 9.0 >= v, [2.0, 3.0, 5.0], chosen=2.0)}
    assert exp.claim("D1.1", "ratio at least 2", True, {"ratio": 9.0}, threshold=th).verdict == "holds"
    # a `reading` diagnosis the notebook computed (B5.9: both readings with their numbers) keeps its words, readings joined
    th = {"value": 2.0, "source": "ours", "readings": readings(lambda v: ratio >= v, [2.0, 3.0, 5.0], chosen=2.0)}
    own = {"kind": "reading", "text": "ratio 2.5: at least 2 holds, at least 3 fails."}
    c = exp.claim("D1.1", "ratio at least 2", ratio >= 2.0, {"ratio": ratio}, threshold=th, diagnosis=own)
    assert c.verdict == "inconclusive" and c.diagnosis["kind"] == "reading"
    assert c.diagnosis["text"].startswith(own["text"]) and "turns within reasonable readings" in c.diagnosis["text"]
    assert c.diagnosis["evidence"]["readings"] == th["readings"]


def test_a_paper_diagnosis_stays_only_on_a_failing_verdict(tmp_path):
    """'paper' says the paper's claim fails: a verdict short of 'fails' (too little support) cannot carry it."""
    import pandas as pd

    exp = Experiment("D1", params={"seed": 0, "output_dir": str(tmp_path)}, title="t", paper="p", figure="f")
    paper = {"kind": "paper", "text": "fails at every setting", "evidence": {"sweep": _sweep(["fails"] * 3)}}
    below = lambda t: bool(t.x.median() < 0)  # noqa: E731
    firm = pd.DataFrame({"trial": range(10), "x": np.ones(10)})
    c = exp.claim("D1.1", "median below 0", test=below, table=firm, diagnosis=paper)
    assert c.verdict == "fails" and c.diagnosis["kind"] == "paper"
    # 5 of 10 trials below 0: the median (0) is not, but about a third of the resamples hold
    shaky = pd.DataFrame({"trial": range(10), "x": [-1.0] * 5 + [1.0] * 5})
    c = exp.claim("D1.1", "median below 0", test=below, table=shaky, diagnosis=paper)
    assert c.verdict == "inconclusive" and c.diagnosis is None
    c = exp.claim("D1.1", "median below 0", test=below, table=shaky, diagnosis=("setting", "holds with x shifted"))
    assert c.verdict == "inconclusive" and c.diagnosis["kind"] == "setting"
