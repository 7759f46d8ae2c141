"""The pipeline's command line refuses unreadable metrics in one line naming the file and what is
wrong (exit code 2), never with a traceback."""

from __future__ import annotations

import json

import pytest

from inferopt._paths import repo_root
from inferopt.pipeline.__main__ import main
from inferopt.pipeline.metrics_file import parse_metrics

GOOD = {"experiment": "X1", "title": "t", "paper": "p", "figure": "f", "stand_ins": [],
        "claims": [{"id": "X1.1", "target": "X1", "text": "x", "verdict": "holds", "measured": {}}]}

BAD = {
    "json-list": (lambda d: (d / "X1.json").write_text("[1, 2]"), "is a JSON list"),
    "not-json": (lambda d: (d / "X1.json").write_text("{oops"), "is not JSON"),
    "claim-without-id": (lambda d: (d / "X1.json").write_text(json.dumps({**GOOD, "claims": [{"verdict": "holds"}]})),
                         "claims[0] has no 'id'"),
    "unknown-verdict": (lambda d: (d / "X1.json").write_text(
        json.dumps({**GOOD, "claims": [{"id": "X1.1", "verdict": "bogus"}]})), "verdict 'bogus'"),
    "folder": (lambda d: (d / "X2.json").mkdir(), "is a folder"),
}


@pytest.fixture
def project(tmp_path, monkeypatch):
    for name in ("dvc.yaml", "pyproject.toml"):
        (tmp_path / name).write_text("")
    (tmp_path / "params.yaml").write_text("experiments: {X1: {notebook: X1_ratio}}\n")
    for folder in ("reports/paper/metrics", "reports/scorecard"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "reports/scorecard/X1.json").write_text(json.dumps({"X1.1": 1}))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("INFEROPT_ROOT", str(tmp_path))
    repo_root.cache_clear()
    yield tmp_path
    repo_root.cache_clear()


@pytest.mark.parametrize("kind", list(BAD))
@pytest.mark.parametrize("command", [["review"], ["claims-diff", "paper", "workspace"]], ids=["review", "claims-diff"])
def test_unreadable_metrics_give_one_line(project, capsys, kind, command):
    write, said = BAD[kind]
    metrics = project / "reports/paper/metrics"
    (metrics / "X1.json").write_text(json.dumps(GOOD))
    write(metrics)
    assert main(command) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert said in err and "reports/paper/metrics/X" in err


def test_good_metrics_pass(project, capsys):
    (project / "reports/paper/metrics/X1.json").write_text(json.dumps(GOOD))
    assert main(["review"]) == 0
    assert main(["claims-diff", "paper", "workspace"]) == 0


def test_parse_metrics_names_the_file():
    with pytest.raises(ValueError, match=r"^here\.json: 'claims' must be a list"):
        parse_metrics(json.dumps({"claims": {"a": 1}}), "here.json")
    assert parse_metrics(json.dumps(GOOD), "x")["experiment"] == "X1"
