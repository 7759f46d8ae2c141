"""The paper-scale runner: its plan, its run record, its own output root, terminal progress."""

import calendar
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import nbformat
import pytest

from inferopt.experiment import repo_root
from inferopt.pipeline.__main__ import main
from inferopt.pipeline import paper
from inferopt.pipeline.paper import DATE_FORMAT, estimate, plan, result_inputs, run_paper, schedule, size_ratio
from inferopt.pipeline.layout import failure_marker

ROOT = repo_root()
# B6 at its notebook's tiny defaults: a real run in seconds, with a progress bar
TINY_B6 = dict(d=6, n_sample=2000, n_points_finite=500, grid_size=1024, n_points_sobolev=200)


def test_size_ratio_takes_the_largest_growth():
    default = {"ks": [1, 5, 10, 20], "n_trials": 3, "seed": 0, "flag": False, "lr": 0.1}
    paper = {"ks": list(range(1, 101)), "n_trials": 20, "flag": True, "lr": 0.05}
    assert size_ratio(default, paper) == (25.0, "ks")
    assert size_ratio(default, {"n_trials": 2}) == (1.0, None)


def test_estimate_is_measured_else_scaled_default_else_unknown(tmp_path):
    for name in ("params.yaml", "params_paper.yaml"):
        shutil.copy2(ROOT / name, tmp_path / name)
    out = tmp_path / "reports" / "paper"
    assert estimate(tmp_path, "A4", out) == (None, "unknown (no paper run, no default-scale run)")
    nb = nbformat.v4.new_notebook(metadata={"papermill": {"duration": 40.0}})
    (tmp_path / "reports" / "notebooks").mkdir(parents=True)
    nbformat.write(nb, tmp_path / "reports" / "notebooks" / "A4.ipynb")
    seconds, how = estimate(tmp_path, "A4", out)  # A4: ks 8 -> 100 sizes is the largest growth
    assert seconds == pytest.approx(40.0 * 100 / 8) and "rough" in how and "ks" in how
    (out / "metrics").mkdir(parents=True)
    (out / "metrics" / "A4.json").write_text(json.dumps({"run": {"wall_seconds": 1234.5, "date": "d", "workers": 2}}))
    assert estimate(tmp_path, "A4", out) == (1234.5, "measured (d, 2 workers)")


def test_dry_run_prints_the_plan_with_workers_and_runs_nothing(capsys, tmp_path):
    assert main(["paper", "A4", "D1", "--workers", "2", "--dry-run"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("paper scale -> reports/paper/")
    a4, d1 = lines[1].split(), lines[2].split()
    assert a4[0] == "A4" and a4[2:4] == ["workers", "2"]  # A4 has n_jobs: it gets the workers
    assert d1[0] == "D1" and d1[2:4] == ["workers", "1"]  # D1 has none
    assert lines[-1].startswith("  total")
    assert main(["paper", "Z9", "--dry-run"]) == 2
    assert "unknown experiment" in capsys.readouterr().err
    with pytest.raises(ValueError, match="workers"):
        run_paper(["D1"], workers=0, dry_run=True)


def test_the_result_tables_an_experiment_reads_come_from_dvc_yaml():
    """C4 reads C2's tables, A7 and A8 read A4's and A5's: the reports/results/<id> dependencies dvcgen declares."""
    both = {"A4": [Path("results/A4")], "A5": [Path("results/A5")]}
    assert result_inputs(ROOT) == {"A7": both, "A8": both, "C4": {"C2": [Path("results/C2")]}}


#: C2's recorded paper run in the temporary layout: it began at RUN_START
RUN_DATE, RUN_SECONDS = "2026-12-01T05:23:51Z", 100.0
RUN_START = calendar.timegm(time.strptime(RUN_DATE, DATE_FORMAT)) - RUN_SECONDS


def paper_layout(root: Path) -> Path:
    """A project whose C4 reads C2's tables (dvc.yaml), C2 and C4 with a recorded paper run; the paper output root."""
    for name in ("params.yaml", "params_paper.yaml", "pyproject.toml"):
        shutil.copy2(ROOT / name, root / name)
    (root / "dvc.yaml").write_text("stages:\n  C2:\n    deps:\n    - src/inferopt/boosting\n"
                                   "  C4:\n    deps:\n    - build/stripped/C4.ipynb\n    - reports/results/C2\n")
    out = root / "reports" / "paper"
    (out / "metrics").mkdir(parents=True)
    for exp_id, seconds in (("C2", RUN_SECONDS), ("C4", 20.0)):
        (out / "metrics" / f"{exp_id}.json").write_text(json.dumps(
            {"run": {"wall_seconds": seconds, "date": RUN_DATE, "workers": 2}}))
    return out


def table_written(out: Path, name: str, when: float) -> Path:
    path = out / "results" / "C2" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("iteration\n1\n")
    os.utime(path, (when, when))
    return path


def test_c4_alone_runs_c2_first_when_its_tables_are_missing_or_older_than_its_run(tmp_path):
    out = paper_layout(tmp_path)
    missing = [("C2", "needed by C4: reports/paper/results/C2 missing"), ("C4", None)]
    assert schedule(["C4"], tmp_path, out) == missing
    (out / "results" / "C2").mkdir(parents=True)     # the folder a failed run leaves
    assert schedule(["C4"], tmp_path, out)[0] == ("C2", "needed by C4: reports/paper/results/C2 holds no table")
    table_written(out, "records.csv", RUN_START + 30)  # written by the recorded run: C4 reads it
    assert schedule(["C4"], tmp_path, out) == [("C4", None)]
    old = table_written(out, "records_regime.csv", RUN_START - 30)  # an earlier run's, beside it
    assert schedule(["C4"], tmp_path, out) == [
        ("C2", f"needed by C4: reports/paper/results/C2/records_regime.csv is older than C2's paper run of {RUN_DATE}"),
        ("C4", None)]
    old.unlink()
    assert schedule(["C4", "C2"], tmp_path, out) == [("C2", None), ("C4", None)]  # asked for: first, whatever its tables
    assert schedule(["C2"], tmp_path, out) == [("C2", None)]


def test_the_plan_shows_the_added_run_its_reason_and_its_time(tmp_path):
    out = paper_layout(tmp_path)
    c2, c4, total = plan(schedule(["C4"], tmp_path, out), 2, tmp_path, out).splitlines()[1:]
    assert c2.split()[:2] == ["C2", "1m40s"] and c2.endswith("added, needed by C4: reports/paper/results/C2 missing")
    assert c4.split()[:2] == ["C4", "20s"] and c4.endswith("reads C2 (runs above)")
    assert total == "  total 2m00s"
    table_written(out, "records.csv", RUN_START + 30)
    (c4, total) = plan(schedule(["C4"], tmp_path, out), 2, tmp_path, out).splitlines()[1:]
    assert c4.endswith(f"reads C2 (its paper run of {RUN_DATE})") and total == "  total 20s"


def test_paper_c4_runs_c2_then_c4_each_without_an_earlier_runs_tables(tmp_path, monkeypatch):
    """The run itself (the notebooks faked): C2 first, its stale table removed before it runs."""
    from inferopt.pipeline.__main__ import ROOT_ENV

    out = paper_layout(tmp_path)
    stale = table_written(out, "records_old.csv", RUN_START - 30)
    ran = []

    def fake_run(exp_id, *, output_dir, **_):
        ran.append((exp_id, stale.exists()))
        (tmp_path / output_dir / "metrics" / f"{exp_id}.json").write_text(json.dumps({"claims": []}))
        (tmp_path / output_dir / "results" / exp_id).mkdir(parents=True, exist_ok=True)

    for name, fake in (("run_experiment", fake_run), ("check_params_files", lambda *a, **k: None),
                       ("strip_notebook", lambda *a: None), ("keep_small_figures", lambda *a: [])):
        monkeypatch.setattr(paper, name, fake)
    monkeypatch.setenv(ROOT_ENV, str(tmp_path))
    repo_root.cache_clear()
    try:
        records = run_paper(["C4"], workers=1, progress=False)
    finally:
        monkeypatch.delenv(ROOT_ENV)
        repo_root.cache_clear()
    assert ran == [("C2", False), ("C4", False)] and len(records) == 2


def test_failures_of_each_output_root_are_kept_apart(tmp_path):
    default = failure_marker(ROOT, "A3")
    assert default == ROOT / "build" / "failed" / "A3.json"
    assert failure_marker(ROOT, "A3", "reports/paper") == ROOT / "build" / "failed" / "paper" / "A3.json"
    assert failure_marker(ROOT, "A3", tmp_path / "x") != default


def test_a_real_paper_run_records_its_run_and_streams_progress(tmp_path, capfd):
    """(capfd: the kernel is another process, whose start-up warnings reach file descriptor 2, not sys.stderr.)"""
    default_metrics = ROOT / "reports" / "metrics" / "B6.json"
    before = default_metrics.stat().st_mtime if default_metrics.exists() else None
    out = tmp_path / "paper"
    (run,) = run_paper(["B6"], workers=2, output_dir=out, overrides=TINY_B6)
    captured = capfd.readouterr()
    err = captured.err
    assert "\r" in err and "100%|" in err  # the notebook's progress bar reached this terminal, in place
    assert "without encryption" not in err and "make reports" in err  # no kernel start-up warning; what to run next
    claims = captured.out[captured.out.index("B6.1  ["):].splitlines()  # the claims table, printed last
    assert max(map(len, claims)) <= 110 and not any(line.startswith("id") for line in claims)  # wrapped blocks
    metrics = json.loads((out / "metrics" / "B6.json").read_text())
    assert metrics["run"] == run
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    assert run["commit"] == head and isinstance(run["dirty"], bool)
    assert run["workers"] == 1 and run["backend"] == "loky" and run["machine"]["cores"] >= 1
    assert 0 < run["wall_seconds"] < 120
    assert metrics["params"]["d"] == 6 and metrics["params"]["n_sample"] == 2000  # overrides reached the notebook
    assert metrics["params"]["panels"] and metrics["claims"]
    nb = nbformat.read(out / "notebooks" / "B6.ipynb", as_version=4)
    stderr = [o.text for c in nb.cells for o in c.get("outputs", []) if o.get("name") == "stderr"]
    assert any("100%|" in text and "\r" not in text for text in stderr)  # only the bar's final state is kept
    after = default_metrics.stat().st_mtime if default_metrics.exists() else None
    assert after == before  # the default scale's reports are untouched
    assert estimate(ROOT, "B6", out) == (run["wall_seconds"], f"measured ({run['date']}, 1 workers)")  # the next plan
    # a small copy of each figure, to commit beside the metrics
    small = sorted((out / "figures-small" / "B6").glob("*.png"))
    assert [p.stem for p in small] == sorted(Path(f).stem for f in metrics["figures"]) and small
    assert all(p.stat().st_size <= 60_000 for p in small)


def test_a_stage_run_at_a_copys_root_uses_that_copy(tmp_path, monkeypatch):
    """DVC runs queued experiments in a temporary copy: the pipeline must use the copy, not the
    folder the editable install points at."""
    from inferopt.pipeline.__main__ import ROOT_ENV, use_working_copy

    for name in ("dvc.yaml", "pyproject.toml"):
        shutil.copy2(ROOT / name, tmp_path / name)
    monkeypatch.delenv(ROOT_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    try:
        use_working_copy()
        assert repo_root() == tmp_path
    finally:
        monkeypatch.delenv(ROOT_ENV, raising=False)
        repo_root.cache_clear()
    assert repo_root() == ROOT


@pytest.mark.parametrize(("notebook", "declared"), [("C2_chemreact", True), ("A4_logistic_regression", True),
                                                    ("D2_unbiasedness", False)])
def test_progress_follows_the_notebooks_own_parameter(notebook, declared):
    """A notebook with a `progress` parameter gets its bars in the terminal even when params.yaml does not set it."""
    from inferopt.pipeline.run import declares_progress

    assert declares_progress(ROOT / "notebooks" / f"{notebook}.ipynb") is declared


def test_make_paper_rewrites_the_front_page_after_the_runs_and_not_after_a_plan():
    """`make paper` ends with the report stage alone (the front page shows the new paper-scale
    verdicts) when a front page exists, else says what builds it; `PAPER_ARGS=--dry-run` only plans."""
    def recipe(*args):
        return subprocess.run(["make", "-n", "paper", "ID=D1", *args], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout

    run = recipe()
    assert "inferopt.pipeline paper D1" in run
    assert run.index("inferopt.pipeline paper D1") < run.index("dvc repro --single-item report")
    assert "make repro\\` builds the front page" in run
    planned = recipe("PAPER_ARGS=--dry-run")
    assert "--dry-run" in planned and "dvc repro" not in planned
