"""The review page (``python -m inferopt.pipeline review``): each claim beside the paper's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inferopt._paths import repo_root

from inferopt.experiment.quotes import quote_of
from inferopt.pipeline.review import REVIEW, review_markdown, what_would_change, write_review

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = sorted((ROOT / "reports" / "paper" / "metrics").glob("*.json"))

SWEEP = [{"setting": {"degree": d, "probes": 10}, "verdict": "fails"} for d in (10, 20, 40)]
PAPER_CLAIM = {
    "id": "X1.1", "target": "X1", "text": "Our test: the ratio is at most 3.", "verdict": "fails",
    "measured": {"ratio": 4.5},
    "support": {"fraction_holding": 0.02, "method": "bootstrap", "unit": "trial", "n_units": 10, "n_resamples": 200, "seed": 0},
    "diagnosis": {"kind": "paper", "text": "It fails at every degree.", "scale": "paper", "evidence": {"sweep": SWEEP}},
    "quote": {"text": "The ratio stays small.", "where": "Section 9, Figure 9"},
    "threshold": {"value": 3, "source": "ours", "readings": [{"value": 2, "verdict": "fails"}, {"value": 3, "verdict": "fails"},
                                                              {"value": 5, "verdict": "holds"}]},
}
DEFAULT_CLAIM = {"id": "X1.1", "target": "X1", "text": "Our test: the ratio is at most 3.", "verdict": "holds",
                 "measured": {"ratio": 2.5}, "support": {"method": "deterministic", "note": "one computation"}}


def _project(tmp_path, *, default=True, paper_claim=PAPER_CLAIM):
    meta = {"experiment": "X1", "title": "A ratio", "paper": "Someone et al. (2099)", "figure": "Fig. 9", "stand_ins": []}
    (tmp_path / "reports" / "paper" / "metrics").mkdir(parents=True)
    (tmp_path / "reports" / "paper" / "metrics" / "X1.json").write_text(json.dumps(meta | {"claims": [paper_claim]}))
    if default:
        (tmp_path / "reports" / "metrics").mkdir(parents=True)
        (tmp_path / "reports" / "metrics" / "X1.json").write_text(json.dumps(meta | {"claims": [DEFAULT_CLAIM]}))
    return tmp_path


def test_the_page_sets_each_claim_beside_the_papers_words_at_both_scales(tmp_path):
    page = review_markdown(_project(tmp_path))
    assert "## Someone et al. (2099)" in page and "#### X1.1" in page
    assert "> The ratio stays small." in page and "Section 9, Figure 9" in page
    assert "**Our test.** Our test: the ratio is at most 3." in page
    assert "| paper | **fails** |" in page and "| default | **holds** |" in page
    assert "holds in 2 % of 200 bootstrap resamples of 10 trials" in page
    assert "3 (ours; readings 2: fails, 3: fails, 5: holds)" in page
    assert "**Diagnosis (paper, paper scale).** It fails at every degree." in page
    # the verdict map: one row per setting, one column per open choice
    assert "| degree | probes | verdict |" in page and "| 40 | 10 | fails |" in page
    assert "**What would change the verdict.**" in page and "reading the cut-off as 5 (holds) instead of 3" in page
    # it stands on its own
    assert "issue" not in page.lower() and "session" not in page.lower()


def test_a_missing_scale_is_said_and_the_catalogue_fills_a_missing_quote(tmp_path):
    claim = {k: v for k, v in PAPER_CLAIM.items() if k != "quote"} | {"id": "A1.1"}
    page = review_markdown(_project(tmp_path, default=False, paper_claim=claim))
    assert "| default | not run | | |" in page
    assert "No default-scale verdict is recorded" in page
    assert quote_of("A1.1")["text"] in page


def test_what_would_change_reads_the_sweep_and_the_support():
    flipped = dict(PAPER_CLAIM, diagnosis={"kind": "setting", "text": "It holds at degree 40.",
                                           "evidence": {"sweep": SWEEP[:2] + [{"setting": {"degree": 40}, "verdict": "holds"}]}})
    lines = what_would_change({"paper": flipped, "default": None})
    assert any("the swept settings degree = 40 (holds)" in line for line in lines)
    assert any("98 % of the bootstrap resamples agree" in line for line in lines)
    assert any("the setting named in the diagnosis" in line for line in lines)


def test_write_review_writes_the_page_where_the_front_page_links_it(tmp_path):
    path = write_review(_project(tmp_path))
    assert path == tmp_path / REVIEW and path.read_text().startswith("# Review")


def test_the_cli_has_the_review_subcommand(tmp_path, monkeypatch):
    from inferopt.pipeline.__main__ import main

    _project(tmp_path)
    for name in ("dvc.yaml", "pyproject.toml"):
        (tmp_path / name).write_text("")
    (tmp_path / "params.yaml").write_text("experiments: {X1: {notebook: X1_ratio}}\n")
    monkeypatch.chdir(tmp_path)
    # the root main() would take from the working directory, set through monkeypatch so that it does not outlive the
    # test (main sets it in os.environ itself otherwise, and the cached root would point the next tests at tmp_path)
    monkeypatch.setenv("INFEROPT_ROOT", str(tmp_path))
    repo_root.cache_clear()
    try:
        assert main(["review"]) == 0
    finally:
        repo_root.cache_clear()
    assert "#### X1.1" in (tmp_path / REVIEW).read_text()


@pytest.mark.parametrize("path", COMMITTED, ids=[p.stem for p in COMMITTED])
def test_every_committed_paper_scale_claim_has_the_papers_words(path):
    missing = [c["id"] for c in json.loads(path.read_text())["claims"] if not (c.get("quote") or quote_of(c["id"]))]
    assert not missing, f"{path.name}: claims without a quote (add them to src/inferopt/experiment/quotes.yaml): {missing}"


def _git(root, *args):
    import subprocess

    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True, capture_output=True)


@pytest.mark.parametrize(("change", "reason"), [
    (None, None),
    (lambda run, params: run.update(dirty=True), "run from a modified work tree (dirty)"),
    (lambda run, params: params.update(ratio_max=30), "ran with ratio_max = 30 (now 300)"),
])
def test_a_stale_paper_run_is_marked_stale_on_the_review_page(tmp_path, change, reason):
    """The review page marks a paper-scale verdict STALE exactly as the front page does: a dirty
    run, parameters other than params_paper.yaml over params.yaml, or code changed since its commit."""
    import subprocess

    import yaml

    root = _project(tmp_path)
    (root / "notebooks").mkdir()
    (root / "notebooks" / "X1_ratio.ipynb").write_text("{}")
    (root / "dvc.yaml").write_text(yaml.safe_dump({"stages": {"X1": {"deps": []}}}))
    (root / "params.yaml").write_text(yaml.safe_dump({"seed": 0, "X1": {"ratio_max": 3}}))
    (root / "params_paper.yaml").write_text(yaml.safe_dump({"X1": {"ratio_max": 300}}))
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "code")
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()
    path = root / "reports" / "paper" / "metrics" / "X1.json"
    metrics = json.loads(path.read_text())
    run, params = {"commit": commit, "dirty": False, "date": "2099-01-01T00:00:00Z"}, {"seed": 0, "ratio_max": 300}
    if change:
        change(run, params)
    path.write_text(json.dumps(metrics | {"run": run, "params": params}))
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "paper run")
    page = review_markdown(root, {"X1": {"notebook": "X1_ratio"}})
    row = next(line for line in page.splitlines() if line.startswith("| paper |"))
    assert ("STALE" in row) == bool(reason) and ("STALE" in page) == bool(reason)
    if reason:
        assert row.startswith(f"| paper | **fails** STALE ({reason}) |")
        assert "its run is STALE" in page
    # a code change since the run's commit makes it stale too
    (root / "notebooks" / "X1_ratio.ipynb").write_text('{"cells": []}')
    page = review_markdown(root, {"X1": {"notebook": "X1_ratio"}})
    assert "X1_ratio.ipynb changed since" in next(line for line in page.splitlines() if line.startswith("| paper |"))


def test_a_run_stale_for_many_reasons_lists_them_once(tmp_path, monkeypatch):
    """Each claim's row names the first three reasons and how many more; the whole list stands
    once, under its experiment (a long list in every row made the page unreadable)."""
    from inferopt.pipeline import review

    root = _project(tmp_path)
    reasons = [f"inferopt/m{i}.py changed since" for i in range(7)]
    state = {"X1": {"claims": {}, "run": {"commit": "abc1234", "date": "2099-01-01"}, "changed": reasons,
                    "stale": reasons}}
    monkeypatch.setattr(review, "paper_results", lambda root_, registry: state)
    page = review_markdown(root, {"X1": {"notebook": "X1_ratio"}})
    row = next(line for line in page.splitlines() if line.startswith("| paper |"))
    assert "m0.py changed since; inferopt/m1.py changed since; inferopt/m2.py changed since and 4 more" in row
    assert "m3.py" not in row
    assert page.count("inferopt/m6.py changed since") == 1


def test_an_undecided_claim_says_why_from_its_record_or_its_text():
    """A ``not measured`` claim's reason: recorded, else its ``not measured because``, else its text's
    ``Not measured: ...`` clause; decided claims have none (issue 45: the front page's not-measured cells said nothing)."""
    from inferopt.pipeline.review import why_not_measured, why_undecided
    base = {"id": "X1.1", "verdict": "not measured", "measured": {}}
    text = "Each rule at most 0.01 below line search. Not measured: every rule's selected iterate is plain VI (t = 0). More."
    assert why_not_measured(dict(base, text=text)) == "every rule's selected iterate is plain VI (t = 0)"
    assert why_not_measured(dict(base, text="Not measured: no run reached the target")) == "no run reached the target"
    assert why_not_measured(dict(base, text=text, measured={"not measured because": "GD never ran"})) == "GD never ran"
    assert why_not_measured(dict(base, text=text, reason="recorded {'a': 1}")) == "recorded a 1"
    assert why_not_measured(dict(base, text="No clause here.")) == "no reason recorded"
    assert why_undecided(dict(base, text=text)) == why_not_measured(dict(base, text=text))
    assert why_undecided(dict(base, verdict="holds", text=text)) is None
    assert why_undecided(dict(base, verdict="inconclusive", text=text, reason="split trials")) == "split trials"
    assert what_would_change({"paper": dict(base, text=text)}) == [
        "paper: not measured because every rule's selected iterate is plain VI (t = 0): a run where that no longer holds "
        "(other settings, data or budget) would give it a verdict."]


def test_prose_reads_a_printed_none_as_a_word():
    from inferopt.pipeline.review import prose
    assert prose("A-IHT None, A-IHT II 1000; crossover = None.") == "A-IHT none, A-IHT II 1000; crossover = none."
    assert prose("NoneType and 'None' stay") == "NoneType and 'None' stay"


def test_a_list_valued_cut_off_reads_its_entries_by_name():
    from inferopt.pipeline.review import threshold_text
    t = {"value": [2, 5, 7, 39], "source": "ours", "unit": "[adaptive low, high, line search low, high] x predefined",
         "readings": [{"value": [2, 14.7, 7, 39], "verdict": "holds"}, {"value": [1, 2], "verdict": "fails"}]}
    assert threshold_text(t) == ("adaptive low 2; high 5; line search low 7; high 39 (x predefined) (ours; readings adaptive "
                                 "low 2; high 14.7; line search low 7; high 39: holds | [1, 2]: fails)")
    assert threshold_text({"value": [1, 2], "source": "paper", "unit": "[a, b, c]"}) == "[1, 2] [a, b, c] (paper)"
    assert threshold_text({"value": 3, "source": "paper", "unit": "nats"}) == "3 nats (paper)"
