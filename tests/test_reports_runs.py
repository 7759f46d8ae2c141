"""Runs and reports without traps: parameters checked before the kernel, the claims table and
progress bars readable, thumbnails that are thumbnails, default vs paper from committed files,
STALE paper runs, timing claims marked, and a way back after a failed variant that works on a
fresh clone."""

import json
import os
import re
import shutil
import subprocess
import sys
from io import BytesIO, StringIO
from pathlib import Path

import nbformat
import pandas as pd
import pytest
import yaml

from inferopt.experiment import repo_root
from inferopt.experiment.claims import claims_text
from inferopt.pipeline.__main__ import main
from inferopt.pipeline.claims_diff import claims_diff, file_verdicts
from inferopt._config import experiment_parameters, experiments
from inferopt.pipeline.paper import estimate
from inferopt.pipeline.paper_state import is_current, paper_results, run_note
from inferopt.pipeline.render import prepare_for_reading, top_of_page
from inferopt.pipeline.report import build_index, thumbnail
from inferopt.pipeline.run import ReadableClaims, check_stage_parameters, wrapped_claims
from inferopt.pipeline.timing_claims import ROUNDS, SEEDS, TIMING_CLAIMS, timing_note

ROOT = repo_root()
REGISTRY = experiments()


def _notebook(exp_id: str) -> Path:
    return ROOT / "notebooks" / f"{REGISTRY[exp_id]['notebook']}.ipynb"


# ------------------------------------------------------------------ parameters before the kernel


@pytest.mark.parametrize("scale", ["default", "paper"])
def test_every_stage_passes_the_parameter_check_at_both_scales(scale):
    for exp_id in REGISTRY:
        params = experiment_parameters(exp_id, ROOT, scale=scale)
        check_stage_parameters(exp_id, {**params, "output_dir": "reports"}, _notebook(exp_id))


@pytest.mark.parametrize(("change", "named"), [
    ({"n_sampels": 5}, "D1.n_sampels is not a parameter of D1"),      # a typo: not in the parameters cell
    ({"N_values": "1e4"}, "D1.N_values"),                             # YAML 1.1 reads 1e4 as a string
    ({"seed": -3}, "D1.seed"),
])
def test_a_bad_parameter_is_one_line_naming_its_key(change, named, capsys, monkeypatch):
    params = {**experiment_parameters("D1", ROOT, scale="default"), **change}
    with pytest.raises(ValueError, match=re.escape(named)) as info:
        check_stage_parameters("D1", params, _notebook("D1"))
    assert "\n" not in str(info.value)
    # through the stage's command line: one line on stderr, exit 2, no kernel started
    import inferopt.pipeline.run as run

    monkeypatch.setattr(run, "experiment_parameters", lambda *a, **k: params)
    monkeypatch.setattr(run, "record_failure", lambda *a, **k: None)
    monkeypatch.setattr(run.papermill, "execute_notebook", lambda *a, **k: pytest.fail("the kernel started"))
    stripped = ROOT / "build" / "stripped" / "D1.ipynb"
    if not stripped.exists():
        main(["strip", "D1"])
    assert main(["run", "D1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: parameter D1.")


# ------------------------------------------------------------------ terminal and report output

CLAIMS = [
    {"id": "Q1.1", "target": "Q1", "text": "A long claim " * 20, "verdict": "holds", "measured": {"ratio": 1.5}},
    {"id": "Q1.2", "target": "Q1", "text": "short", "verdict": "fails", "measured": {"x": [1.0] * 40},
     "diagnosis": {"kind": "setting", "text": "a reason " * 30, "scale": "paper"}},
]


def test_the_printed_claims_table_reaches_the_terminal_wrapped(tmp_path):
    metrics = tmp_path / "Q1.json"
    metrics.write_text(json.dumps({"claims": CLAIMS}))
    rows = [{"id": c["id"], "verdict": c["verdict"], "claim": c["text"], "measured": str(c["measured"])} for c in CLAIMS]
    table = pd.DataFrame(rows).set_index("id").to_string()
    assert max(map(len, table.splitlines())) > 250          # what a notebook prints
    out = StringIO()
    stream = ReadableClaims(out, metrics)
    stream.write("before\n")
    stream.write(table + "\n")
    stream.write("after\n")
    lines = out.getvalue().splitlines()
    assert lines[0] == "before" and lines[-1] == "after"
    assert max(map(len, lines)) <= 110 and not any(line.startswith("id") for line in lines)
    assert " ".join(" ".join(lines).split()) == " ".join(f"before {claims_text(CLAIMS)} after".split())
    assert max(map(len, wrapped_claims(CLAIMS, 60).splitlines())) <= 60


def test_progress_bars_in_a_report_are_plain_output_and_warnings_stay_red():
    nb = nbformat.v4.new_notebook()
    bar = "trials: 100%|██████████| 12/12 [00:03<00:00,  3.90it/s]\n"
    cell = nbformat.v4.new_code_cell("run()")
    cell.outputs = [nbformat.v4.new_output("stream", name="stderr", text=bar + "UserWarning: careful\n" + bar)]
    nb.cells = [cell]
    outputs = prepare_for_reading(nb, root=ROOT).cells[0].outputs
    assert [(o.name, o.text) for o in outputs] == [("stdout", bar), ("stderr", "UserWarning: careful\n"), ("stdout", bar)]
    # a bar with leave=False clears itself (blanks, carriage return): nothing is left, not an empty error box
    cell.outputs = [nbformat.v4.new_output("stream", name="stderr", text=" " * 40 + "\r"),
                    nbformat.v4.new_output("stream", name="stderr", text=" " * 40 + "\r" + bar)]
    assert [(o.name, o.text) for o in prepare_for_reading(nb, root=ROOT).cells[0].outputs] == [("stdout", bar)]


def _claims_of(exp_id: str, nb) -> list[dict]:
    """The claims of the committed paper-scale run of ``exp_id``, plus a bare claim for each row the
    notebook's stored claims table prints that the run does not have (a claim added since that run):
    the test reads the committed notebook whether or not the paper scale has been re-run on it."""
    claims = json.loads((ROOT / "reports/paper/metrics" / f"{exp_id}.json").read_text())["claims"]
    known = {c["id"] for c in claims}
    row = re.compile(rf"^({re.escape(exp_id)}\.\d[\w.-]*)\s", re.M)
    printed = [i for cell in nb.cells for out in cell.get("outputs", []) for i in row.findall(out.get("text", ""))]
    return claims + [{"id": i, "verdict": "not measured", "text": f"claim {i}", "measured": {}}
                     for i in dict.fromkeys(printed) if i not in known]


@pytest.mark.parametrize(("exp_id", "again"), [("A4", "(the claims table above, less A4.3, A4.4, A4.5)\n"), ("D3", None)])
def test_the_report_shows_the_claims_table_once(exp_id, again):
    """A4's notebook prints its claims table (Experiment.finish), then the rows nbval compares, less
    its timing claims: the report shows every claim once, as HTML, and the copy as one line. D3's
    prints only the rows nbval compares: the report shows every claim there, saying which the cell
    leaves out. D3 prints no table: the table at the page's top shows every claim. (The committed
    notebooks, with the committed paper-scale claims of the experiment.)"""
    from inferopt.pipeline.layout import split_claims_table

    nb = nbformat.read(_notebook(exp_id), as_version=4)
    claims = _claims_of(exp_id, nb)
    ids = [c["id"] for c in claims]
    printed = [split[1] for cell in nb.cells for out in cell.get("outputs", [])
               if (split := split_claims_table(out.get("text", ""), ids))]
    outputs = [o for cell in prepare_for_reading(nb, root=ROOT, claims=claims).cells if cell.cell_type == "code"
               for o in cell.outputs]
    html_tables = [o["data"]["text/html"] for o in outputs if "<table class='claims'>" in (o.get("data") or {}).get("text/html", "")]
    if again:
        assert len(html_tables) == 1 and all(f">{i}</td>" in html_tables[0] for i in ids)
    copies = [o["text"] for o in outputs if o.get("name") == "stdout" and o["text"].startswith("(the claims table")]
    if again:
        assert printed == [ids, [i for i in ids if not timing_note(i)]]
        assert copies == [again] and "claims-note" not in html_tables[0]
    else:   # D3 writes its claims without printing the table: the page's top shows it, once
        assert printed == [] and not copies and not html_tables
        top = top_of_page(nbformat.read(_notebook(exp_id), as_version=4), claims)
        assert top.count("<table class='claims'>") == 1 and all(f">{i}</td>" in top for i in ids)


def test_a_claims_table_printed_again_reaches_the_terminal_as_one_line(tmp_path):
    metrics = tmp_path / "Q1.json"
    metrics.write_text(json.dumps({"claims": CLAIMS}))
    rows = [{"id": c["id"], "verdict": c["verdict"], "claim": c["text"], "measured": str(c["measured"])} for c in CLAIMS]
    table = pd.DataFrame(rows).set_index("id")
    out = StringIO()
    stream = ReadableClaims(out, metrics)
    for chunk in (table.to_string() + "\n", "between\n", table.drop(index=["Q1.2"]).to_string() + "\n", "end\n"):
        stream.write(chunk)
    text = out.getvalue()
    assert text.count("Q1.1  [holds]") == 1 and text.endswith("between\n(the claims table above, less Q1.2)\nend\n")
    assert max(map(len, text.splitlines())) <= 110


def test_thumbnails_are_small(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 3, figsize=(19, 13), dpi=100)
    for i, ax in enumerate(axes.flat):
        ax.plot(range(100), [x ** (1 + i / 5) for x in range(100)], label=f"method {i}")
        ax.legend()
    png = tmp_path / "fig.png"
    fig.savefig(png)
    plt.close(fig)
    from PIL import Image

    small = thumbnail(png)
    with Image.open(png) as big, Image.open(BytesIO(small)) as thumb:
        # 1900 px wide, or a little less when an earlier test left the project style's tight bounding box on
        assert big.width > 1800 and thumb.width == 480
        assert abs(thumb.height / thumb.width - big.height / big.width) < 0.01
    assert len(small) < png.stat().st_size / 4 and len(small) < 60_000


# ------------------------------------------------------------------ default vs paper, STALE, timing


def _git(root, *args):
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True,
                          capture_output=True, text=True).stdout


def _claim(cid, verdict, **extra):
    return {"id": cid, "target": cid.split(".")[0], "text": "t", "verdict": verdict, "measured": {"x": 1.0}, **extra}


@pytest.fixture
def project(tmp_path):
    """A git repository with committed default-scale scorecards and paper-scale metrics of A4."""
    (tmp_path / "reports/scorecard").mkdir(parents=True)
    (tmp_path / "reports/paper/metrics").mkdir(parents=True)
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks/A4_x.ipynb").write_text("{}")
    (tmp_path / "dvc.yaml").write_text(yaml.safe_dump({"stages": {"A4": {"deps": []}}}))
    (tmp_path / "params.yaml").write_text(yaml.safe_dump({"seed": 0, "A4": {"max_iter": 30, "n_jobs": 2}}))
    (tmp_path / "params_paper.yaml").write_text(yaml.safe_dump({"A4": {"max_iter": 300}}))
    (tmp_path / "reports/scorecard/A4.json").write_text(json.dumps({"A4.1": 1, "A4.3": 0, "A4 kl": 0.5}))
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "code")
    commit = _git(tmp_path, "rev-parse", "HEAD").strip()
    metrics = {"experiment": "A4", "params": {"seed": 0, "max_iter": 300, "n_jobs": 1, "progress": True},
               "claims": [_claim("A4.1", "holds"), _claim("A4.3", "holds")],
               "run": {"commit": commit, "dirty": False, "date": "2026-11-24T05:00:00Z", "workers": 1, "wall_seconds": 100.0}}
    (tmp_path / "reports/paper/metrics/A4.json").write_text(json.dumps(metrics))
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "paper run")
    return tmp_path


def test_default_against_paper_works_from_committed_files_and_marks_timing(project):
    report = claims_diff(project, "default", "paper").splitlines()
    assert report[:2] == ["claims-diff default -> paper: 1 of 2 claims changed verdict (1 of them rest on timings)",
                          "  A4.3  fails -> holds   [timing, one run]"]
    assert any("vary between runs of the same code" in line for line in report)
    assert claims_diff(project, "workspace", "paper@HEAD") == claims_diff(project, "workspace", "paper").replace(
        "-> paper:", "-> paper@HEAD:")
    assert "0 of 2" in claims_diff(project, "paper", str(project / "reports/paper/metrics"))


@pytest.mark.parametrize(("content", "message"), [
    ('{"experiment": "A4", "params": {}, "metrics": {}}', "neither a scorecard"),   # no claims
    ('{"A4.1": "maybe"}', "key 'A4.1'"),
    ("not json", "is not JSON"),
    ("[1, 2]", "not a mapping"),
])
def test_claims_diff_refuses_what_it_cannot_read(project, content, message):
    folder = project / "elsewhere"
    folder.mkdir()
    (folder / "A4.json").write_text(content)
    with pytest.raises(ValueError, match=re.escape(message)):
        claims_diff(project, "default", str(folder))


def test_claims_diff_refuses_empty_and_unknown_runs(project):
    (project / "empty").mkdir()
    for name, message in [(str(project / "empty"), "has no scorecards or metrics"), ("nope", "is neither"),
                          ("paper@nope", "not a git revision"), (str(project / "params.yaml"), "is a file")]:
        with pytest.raises(ValueError, match=message):
            claims_diff(project, "default", name)
    assert file_verdicts('{"Q.1": 1, "Q.2": "inconclusive", "Q x": 3.5}', "w") == {"Q.1": "holds", "Q.2": "inconclusive"}


@pytest.mark.parametrize(("change", "reason"), [
    (None, None),
    (lambda m, r: m["run"].update(dirty=True), "run from a modified work tree (dirty)"),
    (lambda m, r: m["params"].update(max_iter=30), "ran with max_iter = 30 (now 300)"),
    (lambda m, r: (r / "params_paper.yaml").write_text(yaml.safe_dump({"A4": {"max_iter": 500}})),
     ["ran with max_iter = 300 (now 500)", "params_paper.yaml changed since"]),
    (lambda m, r: m["params"].update(n_jobs=7, progress=False), None),          # how a run is spread or shown
    (lambda m, r: (r / "params.yaml").write_text(yaml.safe_dump({"seed": 0, "A4": {"max_iter": 30, "n_jobs": 2,
                                                                                   "extra_methods": []}})),
     "params.yaml changed since"),                   # a parameter added later, empty: the run did the same
    (lambda m, r: (r / "params.yaml").write_text(yaml.safe_dump({"seed": 0, "A4": {"max_iter": 30, "n_jobs": 2,
                                                                                   "check": True}})),
     ["ran with check unset (now true)", "params.yaml changed since"]),
    (lambda m, r: (r / "params.yaml").write_text(yaml.safe_dump({"seed": 0, "A4": {"max_iter": 30, "n_jobs": 2,
                                                                                   "cost": None}})),
     "params.yaml changed since"),                   # a parameter added later, null (unset): the run did the same
    (lambda m, r: (m["params"].update(cost=1.5), (r / "params.yaml").write_text(yaml.safe_dump(
        {"seed": 0, "A4": {"max_iter": 30, "n_jobs": 2, "cost": None}}))),
     ["ran with cost = 1.5 (now unset)", "params.yaml changed since"]),   # a null reads "unset", never "None"
    (lambda m, r: (r / "notebooks/A4_x.ipynb").write_text('{"cells": []}'), "A4_x.ipynb changed since"),
])
def test_a_paper_run_is_stale_when_dirty_off_its_parameters_or_its_code_changed(project, change, reason):
    path = project / "reports/paper/metrics/A4.json"
    metrics = json.loads(path.read_text())
    if change:
        change(metrics, project)
    path.write_text(json.dumps(metrics))
    paper = paper_results(project, {"A4": {"notebook": "A4_x"}})["A4"]
    reasons = reason if isinstance(reason, list) else [reason] if reason else []
    assert paper["stale"] == reasons
    note = run_note(paper)
    assert ("STALE" in note) == bool(reason) and all(r in note for r in reasons)
    default = {"experiment": "A4", "title": "t", "paper": "P", "figure": "F", "figures": [], "stand_ins": [],
               "claims": [_claim("A4.1", "holds"), _claim("A4.3", "fails")]}
    page = build_index({"A4": default}, project / "reports", papers={"A4": paper})
    assert ("<span class='verdict stale' title='" in page) == bool(reason)
    if reason:   # each row carries the mark, its reasons on hover; the card says them once
        row = page[page.index("<td class='id'>A4.1"):]
        row = row[:row.index("</tr>")]
        assert f"title='{reasons[0]}" in row.replace("&#x27;", "'") and "STALE:" not in row
        assert "STALE: " + reasons[0] in page.replace("&#x27;", "'")
    assert "stale: A4" in page if reason else "stale:" not in page


def test_front_page_shows_both_scales_and_filters_on_both(project):
    paper = paper_results(project, {"A4": {"notebook": "A4_x"}})["A4"]
    paper["claims"]["A4.1"]["diagnosis"] = None
    default = {"experiment": "A4", "title": "t", "paper": "P", "figure": "F", "figures": [], "stand_ins": [],
               "claims": [_claim("A4.1", "fails", measured={"gap": 7.0},
                                 diagnosis={"kind": "setting", "text": "too small", "scale": "default"}),
                          _claim("A4.3", "holds")]}
    page = build_index({"A4": default}, project / "reports", papers={"A4": paper}, review=True)
    row = page[page.index("<td class='id'>A4.1"):]
    row = row[:row.index("</tr>")]
    assert "<div class='scale'>paper scale</div><div>x = 1</div><div class='scale'>default scale</div><div>gap = 7</div>" in row
    assert "<b>setting</b> <span class='scale'>default scale</span> too small" in row
    # holds at the paper scale, fails at the default: the filter keeps it
    assert page.count("<tr class='claim holds'>") == 1 and "<tr class='claim fails'><td class='id'>A4.1" in page
    assert "timing, one run" in page[page.index("<td class='id'>A4.3"):][:200]
    assert "claims at paper scale: 2 holds" in page and "claims at default scale: 1 holds, 1 fails" in page
    assert 'href="review.html"' in page
    assert 'href="review.html"' not in build_index({"A4": default}, project / "reports", papers={"A4": paper})


def test_timing_claims_are_those_the_notebooks_name_and_rounds_those_with_round_support():
    named = set()
    for nb in (ROOT / "notebooks").glob("*.ipynb"):
        for m in re.finditer(r"rest on timings \(([^:)]*)", nb.read_text()):
            named |= set(re.findall(r"[A-D]\d\.\d+", m.group(1)))   # "(C2.2, C2.4 and their variants: ..." names C2.2, C2.4
    assert named and named <= TIMING_CLAIMS
    # the support of each timing claim in the committed paper-scale runs that are current (a stale run may
    # predate the claim or its support; tests never wait for the paper scale)
    claims = {i: c for r in paper_results(ROOT, REGISTRY).values() if is_current(r) for i, c in r["claims"].items()}
    run = TIMING_CLAIMS & set(claims)
    assert ROUNDS & run == {i for i in run if (claims[i].get("support") or {}).get("unit") == "round"}
    assert SEEDS >= {i for i in run if (claims[i].get("support") or {}).get("unit") == "seed"}
    assert all((claims[i].get("support") or {}).get("unit", "seed") == "seed" for i in SEEDS & run)
    assert timing_note("A4.3-authors") == "timing, one run" and timing_note("D3.2") == "timing, over seeds"
    assert timing_note("A4.1") == ""


# ------------------------------------------------------------------ make paper's plan


def test_the_plan_scales_a_measured_estimate_to_the_workers(tmp_path):
    for name in ("params.yaml", "params_paper.yaml"):
        shutil.copy2(ROOT / name, tmp_path / name)
    out = tmp_path / "reports" / "paper"
    (out / "metrics").mkdir(parents=True)
    (out / "metrics" / "A4.json").write_text(json.dumps({"run": {"wall_seconds": 1000.0, "date": "d", "workers": 1}}))
    (out / "metrics" / "D1.json").write_text(json.dumps({"run": {"wall_seconds": 50.0, "date": "d", "workers": 1}}))
    cores = os.cpu_count() or 1
    seconds, how = estimate(tmp_path, "A4", out, workers=2)
    assert seconds == pytest.approx(1000.0 / min(2, cores)) and ("x 1/2 workers" in how) == (cores >= 2)
    assert estimate(tmp_path, "A4", out, workers=1) == (1000.0, "measured (d, 1 workers)")
    assert estimate(tmp_path, "D1", out, workers=2)[0] == 50.0             # D1 has no n_jobs: no change
    assert estimate(tmp_path, "A4", out, workers=64)[0] == pytest.approx(1000.0 / cores)   # at most the cores


# ------------------------------------------------------------------ the way back after a failed variant

TOY_STAGE = """import sys, time, yaml
name = sys.argv[1]
n = yaml.safe_load(open("params.yaml"))[name]["n"]
if n < 0:
    sys.exit(f"bad n = {n}")
open(f"out/{name}.txt", "w").write(f"{n} {time.time()}\\n")  # never byte-identical between runs, like a notebook
open(f"card/{name}.json", "w").write(f'{{"{name}.1": {int(n > 2)}}}\\n')  # a git-tracked scorecard (cache: false)
"""


#: the page that documents variants and comparing runs (moved out of the README, issue 45)
USING = ROOT / "docs" / "using.md"


def _documented_recipe(marker: str) -> str:
    """The command of docs/using.md's line tagged ``# <marker>`` in a code block."""
    line = next(line for line in USING.read_text().splitlines() if line.rstrip().endswith(f"# {marker}"))
    return line.rsplit("#", 1)[0].strip()


def test_the_documented_way_back_after_a_failed_variant_works_on_a_fresh_clone(tmp_path):
    """On a clone, `dvc repro` makes outputs whose hashes differ from the committed dvc.lock's; a variant
    fails; docs/using.md's way back must restore every output (the old `git checkout params.yaml dvc.lock
    && dvc checkout` deleted them: the clone's cache never had the committed hashes)."""
    dvc = Path(sys.executable).parent / "dvc"
    env = {**os.environ, "PATH": f"{dvc.parent}{os.pathsep}{os.environ['PATH']}", "DVC_NO_ANALYTICS": "1"}

    def sh(cwd, command, check=True):
        return subprocess.run(command, shell=True, cwd=cwd, env=env, capture_output=True, text=True, check=check)

    origin = tmp_path / "origin"
    origin.mkdir()
    (origin / "stage.py").write_text(TOY_STAGE)
    (origin / "params.yaml").write_text("S1:\n  n: 2\nS2:\n  n: 3\n")
    stages = {f"S{i}": {"cmd": f"mkdir -p out card && python stage.py S{i}", "deps": ["stage.py"], "params": [f"S{i}.n"],
                        "outs": [f"out/S{i}.txt"], "metrics": [{f"card/S{i}.json": {"cache": False}}]} for i in (1, 2)}
    stages["report"] = {"cmd": "cat out/S1.txt out/S2.txt > index.txt", "deps": ["out/S1.txt", "out/S2.txt"], "outs": ["index.txt"]}
    (origin / "dvc.yaml").write_text(yaml.safe_dump({"stages": stages}))
    sh(origin, "git init -q && dvc init -q && dvc config core.analytics false && dvc repro -q && git add -A && "
               "git -c user.name=t -c user.email=t@t commit -qm one")
    for name, recipe in [("old", "git checkout params.yaml dvc.lock && dvc checkout"), ("documented", _documented_recipe("way back"))]:
        clone = tmp_path / name
        sh(tmp_path, f"git clone -q {origin} {clone}")
        sh(clone, "dvc repro -q")
        before = (clone / "index.txt").read_text()
        assert sh(clone, "dvc exp run -S S2.n=-1", check=False).returncode != 0      # the variant fails
        assert not (clone / "out/S2.txt").exists()
        sh(clone, recipe, check=False)
        restored = all((clone / p).exists() for p in ("out/S1.txt", "out/S2.txt", "index.txt", "card/S2.json"))
        if name == "old":
            assert not restored                        # the trap the docs no longer set
        else:
            assert restored and (clone / "index.txt").read_text() == before
            assert sh(clone, "git status --porcelain params.yaml card").stdout == ""


def test_the_documented_keep_filter_shows_a_parameter_that_params_paper_also_sets(tmp_path):
    """DVC names a parameter that two params files hold with its file (`params.yaml:D1.N_values`):
    docs/using.md's `dvc exp show --keep` recipe must still show it (`--keep '^D1'` hid it)."""
    line = next(line for line in USING.read_text().splitlines() if line.startswith("dvc exp show --drop '.*' --keep"))
    recipe = line.split("  #", 1)[0].strip() + " --no-pager"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "DVC_NO_ANALYTICS": "1",
           "COLUMNS": "200"}

    def sh(command):
        return subprocess.run(command, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, check=True).stdout

    (tmp_path / "params.yaml").write_text("D1:\n  N_values:\n  - 1\n  - 2\n  negbin_p: 0.5\nD2:\n  d: 3\n")
    (tmp_path / "params_paper.yaml").write_text("D1:\n  N_values:\n  - 5\n")
    (tmp_path / "w.py").write_text('import json\njson.dump({"D1.1": 1}, open("m.json", "w"))\n')
    stage = {"cmd": "python w.py", "params": ["D1.N_values", "D1.negbin_p", "D2.d", {"params_paper.yaml": ["D1.N_values"]}],
             "metrics": [{"m.json": {"cache": False}}]}
    (tmp_path / "dvc.yaml").write_text(yaml.safe_dump({"stages": {"D1": stage}}))
    sh("git init -q && dvc init -q && dvc repro -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm one")
    sh("dvc exp run -q -S D1.negbin_p=0.3")
    shown = sh(recipe)
    assert "params.yaml:D1.N_values" in shown and "D1.negbin_p" in shown and "D1.1" in shown
    assert "D2.d" not in shown and "params_paper.yaml" not in shown
    assert "params.yaml:D1.N_values" not in sh("dvc exp show --drop '.*' --keep 'Experiment|^D1' --no-pager")
