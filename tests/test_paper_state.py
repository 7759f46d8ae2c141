"""The front page's paper-scale verdicts: read from the committed metrics, marked stale exactly
when the experiment's notebook, library modules or parameter section changed since the run."""

import json
import subprocess
from pathlib import Path

import pytest
import yaml

from inferopt.pipeline.paper_state import paper_results, run_note
from inferopt.pipeline.report import build_index

CODE_CELL = {"cell_type": "code", "source": "x = 2", "metadata": {"tags": ["parameters"]}, "outputs": []}
REGISTRY = {"X1": {"notebook": "X1_demo"}, "X2": {"notebook": "X2_other"}}


def git(root, *args):
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


@pytest.fixture
def project(tmp_path):
    """A git repository with two experiments, a dvc.yaml listing their modules, and X1's committed paper run."""
    root = tmp_path
    (root / "notebooks").mkdir()
    (root / "src/inferopt/pipeline").mkdir(parents=True)
    for name in ("X1_demo", "X2_other"):
        (root / "notebooks" / f"{name}.ipynb").write_text(json.dumps({"cells": [CODE_CELL]}))
    (root / "src/inferopt/algo.py").write_text("A = 1\n")
    (root / "src/inferopt/pipeline/run.py").write_text("R = 1\n")
    (root / "src/inferopt/experiment").mkdir()
    (root / "src/inferopt/experiment/parameters.py").write_text("SPECS = {}\n")
    (root / "src/inferopt/experiment/specs").mkdir()
    (root / "src/inferopt/experiment/specs/x.py").write_text("SPECS = {}\n")
    deps = ["build/stripped/X1.ipynb", "src/inferopt/algo.py", "src/inferopt/pipeline/run.py",
            "src/inferopt/experiment/parameters.py", "src/inferopt/experiment/specs/x.py"]
    (root / "dvc.yaml").write_text(yaml.safe_dump({"stages": {"X1": {"deps": deps}, "X2": {"deps": deps}}}))
    (root / "params.yaml").write_text(yaml.safe_dump({"X1": {"seed": 0, "n": 5, "n_jobs": 2}, "X2": {"n": 1}}))
    (root / "params_paper.yaml").write_text(yaml.safe_dump({"X1": {"n": 50}}))
    git(root, "init", "-q")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "init", "--allow-empty")
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "code")
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()
    metrics = root / "reports/paper/metrics"
    metrics.mkdir(parents=True)
    claim = {"id": "X1.1", "target": "X1", "text": "it holds", "verdict": "fails", "measured": {"gap": 2.0},
             "support": {"method": "bootstrap", "fraction_holding": 0.02, "n_resamples": 200, "n_units": 10, "unit": "trial"},
             "diagnosis": {"kind": "setting", "text": "the step size decides it"}}
    (metrics / "X1.json").write_text(json.dumps({"claims": [claim], "run": {"commit": commit, "date": "2026-11-24T05:00:00Z"}}))
    return root


def edit(path: Path, text: str):
    path.write_text(text)


@pytest.mark.parametrize(
    ("change", "stale"),
    [
        (lambda r: None, []),
        (lambda r: edit(r / "notebooks/X1_demo.ipynb", '{"cells": []}'), ["notebooks/X1_demo.ipynb"]),
        (lambda r: edit(r / "notebooks/X2_other.ipynb", '{"cells": []}'), []),                  # another notebook
        (lambda r: edit(r / "notebooks/X1_demo.ipynb", json.dumps({"cells": [CODE_CELL], "metadata": {"k": 1}})), []),
        (lambda r: edit(r / "notebooks/X1_demo.ipynb", json.dumps({"cells": [dict(CODE_CELL, outputs=[{"text": "4"}]),
                                                                              {"cell_type": "markdown", "source": "why"}]})),
         []),                                                                                   # outputs, prose, metadata
        (lambda r: edit(r / "notebooks/X1_demo.ipynb", json.dumps({"cells": [dict(CODE_CELL, source="x = 3")]})),
         ["notebooks/X1_demo.ipynb"]),                                                          # its code
        (lambda r: edit(r / "notebooks/X1_demo.ipynb", json.dumps({"cells": [dict(CODE_CELL, metadata={})]})),
         ["notebooks/X1_demo.ipynb"]),                                                          # which cell takes parameters
        (lambda r: edit(r / "src/inferopt/algo.py", "A = 2\n"), ["src/inferopt/algo.py"]),
        (lambda r: edit(r / "src/inferopt/pipeline/run.py", "R = 2\n"), []),                   # the runner
        (lambda r: edit(r / "src/inferopt/experiment/parameters.py", "SPECS = {'X2': {}}\n"), []),  # the checks
        (lambda r: edit(r / "src/inferopt/experiment/specs/x.py", "SPECS = {'X1': {}}\n"), []),     # a paper's specs
        (lambda r: edit(r / "params.yaml", yaml.safe_dump({"X1": {"seed": 0, "n": 5, "n_jobs": 1}, "X2": {"n": 3}})), []),
        (lambda r: edit(r / "params.yaml", yaml.safe_dump({"X1": {"seed": 1, "n": 5, "n_jobs": 2}, "X2": {"n": 1}})),
         ["params.yaml"]),
        (lambda r: edit(r / "params_paper.yaml", yaml.safe_dump({"X1": {"n": 60}})), ["params_paper.yaml"]),
    ],
)
def test_a_paper_verdict_is_stale_exactly_when_what_it_depends_on_changed(project, change, stale):
    change(project)
    papers = paper_results(project, REGISTRY)
    assert list(papers) == ["X1"]                      # X2 has no paper run
    assert papers["X1"]["changed"] == stale
    assert ("STALE" in run_note(papers["X1"])) == bool(stale)


def test_the_index_shows_both_scales_support_and_diagnosis(project):
    papers = paper_results(project, REGISTRY)
    default = {"experiment": "X1", "title": "demo", "paper": "P", "figure": "F", "figures": [], "stand_ins": [],
               "claims": [{"id": "X1.1", "target": "X1", "text": "it holds", "verdict": "holds", "measured": {"gap": 0.5}}]}
    page = build_index({"X1": default, "X2": None}, project / "reports", papers=papers)
    row = page[page.index("<td class='id'>X1.1"):]
    row = row[:row.index("</tr>")]
    assert row.index(">fails<") < row.index(">holds<")            # paper scale first, then the default scale
    assert "holds in 2 % of 200 bootstrap resamples of 10 trials" in row
    assert "paper scale, " in row and "2026-11-24" in row and "STALE" not in row
    assert "<b>setting</b> <span class='scale'>paper scale</span> the step size decides it" in row
    assert row.index("paper scale</div><div>gap = 2") < row.index("default scale</div><div>gap = 0.5")  # both scales' numbers
    assert "paper scale</b>: 1 claims of 1 experiment(s)" in page and "not run at paper scale: X2" in page
    (project / "src/inferopt/algo.py").write_text("A = 3\n")
    assert "STALE: inferopt/algo.py changed since" in build_index({"X1": default}, project / "reports",
                                                          papers=paper_results(project, REGISTRY))


def _row(page: str, claim_id: str) -> str:
    row = page[page.index(f"<td class='id'>{claim_id}"):]
    return row[:row.index("</tr>")]


@pytest.mark.parametrize(
    ("paper_verdict", "default_verdict", "default_diagnosis", "stale", "shown"),
    [
        ("holds", "fails", None, False, "<b>setting</b> <span class='scale'>default scale</span> It holds at paper scale (paper scale, "),
        ("holds", "inconclusive", None, False, "<b>setting</b> <span class='scale'>default scale</span> It holds at paper scale"),
        ("holds", "fails", {"kind": "paper", "text": "its own reason"}, False,
         "<b>paper</b> <span class='scale'>default scale</span> its own reason"),
        ("holds", "fails", None, True, None),              # a stale paper run explains nothing
        ("holds", "holds", None, False, None),
        ("fails", "fails", None, False, "<b>setting</b> <span class='scale'>paper scale</span> the step size decides it"),
    ],
)
def test_a_default_failure_that_holds_at_paper_scale_is_diagnosed_as_the_scale(
        project, paper_verdict, default_verdict, default_diagnosis, stale, shown):
    path = project / "reports/paper/metrics/X1.json"
    data = json.loads(path.read_text())
    data["claims"][0]["verdict"] = paper_verdict
    if paper_verdict == "holds":
        del data["claims"][0]["diagnosis"]
    path.write_text(json.dumps(data))
    if stale:
        (project / "src/inferopt/algo.py").write_text("A = 4\n")
    claim = {"id": "X1.1", "target": "X1", "text": "it holds", "verdict": default_verdict, "measured": {"gap": 0.5}}
    if default_diagnosis:
        claim["diagnosis"] = default_diagnosis
    default = {"experiment": "X1", "title": "demo", "paper": "P", "figure": "F", "figures": [], "stand_ins": [], "claims": [claim]}
    row = _row(build_index({"X1": default}, project / "reports", papers=paper_results(project, REGISTRY)), "X1.1")
    if shown is None:
        assert "class='diagnosis'" not in row
    else:
        assert shown in row and row.count("class='diagnosis'") == 1


def test_outside_git_staleness_is_unknown(project):
    subprocess.run(["rm", "-rf", str(project / ".git")], check=True)
    paper = paper_results(project, REGISTRY)["X1"]
    assert paper["changed"] is None and "currency unknown" in run_note(paper)


def test_a_stale_note_shows_a_boolean_parameter_as_the_parameter_files_write_it(tmp_path):
    """A run that predates a boolean parameter (D3's map_centred) is stale with ``map_centred unset (now true)``: the
    YAML spelling, not Python's ``True`` (the review page refuses Python literals)."""
    from inferopt.pipeline.paper_state import parameters_differ
    (tmp_path / "params.yaml").write_text("X1:\n  seed: 0\n  flag: true\n  quiet: false\n")
    notes = parameters_differ(tmp_path, "X1", {"seed": 0})
    assert sorted(notes) == ["flag unset (now true)", "quiet unset (now false)"]
    assert not any("True" in n or "False" in n for n in notes)


def declare(root: Path, path: str, before: str, after: str):
    blob = lambda text: subprocess.run(["git", "hash-object", "--stdin"], cwd=root, input=text, capture_output=True,
                                       text=True).stdout.strip()
    entries = yaml.safe_load((root / "reports/paper/output_preserving.yaml").read_text()) \
        if (root / "reports/paper/output_preserving.yaml").exists() else []
    entries.append({"path": path, "before": blob(before), "after": blob(after), "why": "w", "test": "t"})
    (root / "reports/paper/output_preserving.yaml").write_text(yaml.safe_dump(entries))


@pytest.mark.parametrize(
    ("declared", "now", "stale"),
    [
        ([("A = 1\n", "A = 2\n")], "A = 2\n", []),                                 # the declared edit
        ([("A = 1\n", "A = 2\n"), ("A = 2\n", "A = 3\n")], "A = 3\n", []),        # two in a row
        ([("A = 2\n", "A = 3\n"), ("A = 1\n", "A = 2\n")], "A = 3\n", []),        # declared in any order
        ([("A = 1\n", "A = 2\n")], "A = 3\n", ["src/inferopt/algo.py"]),          # then an undeclared one
        ([("A = 0\n", "A = 2\n")], "A = 2\n", ["src/inferopt/algo.py"]),          # from another version
        ([], "A = 2\n", ["src/inferopt/algo.py"]),
    ],
)
def test_an_edit_declared_output_preserving_leaves_a_run_current(project, declared, now, stale):
    for before, after in declared:
        declare(project, "src/inferopt/algo.py", before, after)
    edit(project / "src/inferopt/algo.py", now)
    assert paper_results(project, REGISTRY)["X1"]["changed"] == stale


def test_a_malformed_preserving_list_is_refused(project):
    (project / "reports/paper/output_preserving.yaml").write_text("path: x\n")
    with pytest.raises(ValueError, match="output_preserving.yaml"):
        paper_results(project, REGISTRY)
