"""The documentation a reader meets first: the README's first screen, its generated results table,
the in-repository docs (nothing points outside the repository), LICENSE and CITATION.cff; and the
Makefile's targets for one paper, JupyterLab and the plots on a fresh clone."""

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml

from inferopt._config import experiments
from inferopt.experiment import repo_root
from inferopt.pipeline.__main__ import main
from inferopt.pipeline.readme import BEGIN, END, METRICS, PAPERS, headline, results_table, update_readme, with_table

ROOT = repo_root()
REGISTRY = experiments()
#: the README's first screen
SCREEN = 40
#: the characters a code block of GitHub's README view shows without scrolling
CODE_WIDTH = 100


def _tracked(*patterns):
    out = subprocess.run(["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / line for line in out.splitlines() if line and (ROOT / line).is_file()]


# --- the README's results table ---------------------------------------------------------------

def test_readme_results_table_is_in_step_with_the_committed_paper_metrics():
    assert update_readme(ROOT, REGISTRY, check=True), (
        "README.md's results table differs from reports/paper/metrics/: run `make readme-table` and commit README.md")


def _metrics_copy(tmp_path):
    folder = tmp_path / METRICS
    shutil.copytree(ROOT / METRICS, folder)
    return folder


def test_the_table_changes_with_the_metrics(tmp_path):
    """Other metrics give another table: a flipped central verdict, a missing run, other counts."""
    folder = _metrics_copy(tmp_path)
    before = results_table(folder, REGISTRY)
    d3 = json.loads((folder / "D3.json").read_text())
    flipped = "holds" if next(c for c in d3["claims"] if c["id"] == "D3.2")["verdict"] != "holds" else "fails"
    for claim in d3["claims"]:
        if claim["id"] == "D3.2":
            claim["verdict"] = flipped
    (folder / "D3.json").write_text(json.dumps(d3))
    (folder / "B6.json").unlink()
    after = results_table(folder, REGISTRY)
    assert after != before
    assert f"(D3.2): **{flipped}**" in after
    b_row = next(line for line in after.splitlines() if line.startswith("| [B."))
    assert "| 5 of 6 experiments |" in b_row
    b_all = [c for i in range(1, 6) for c in json.loads((folder / f"B{i}.json").read_text())["claims"]]
    b_claims, b_checks = sum(not c.get("check") for c in b_all), sum(bool(c.get("check")) for c in b_all)
    named = f" (and {b_checks} implementation check{'s' if b_checks > 1 else ''})" if b_checks else ""
    assert f"| 5 of 6 experiments | {b_claims}{named} |" in b_row
    (folder / "A4.json").unlink()
    assert "(A4.1)" not in results_table(folder, REGISTRY) and "A4.1: **no paper-scale run**" in results_table(folder, REGISTRY)


def test_the_counts_are_the_verdicts_of_the_runs(tmp_path):
    folder = _metrics_copy(tmp_path)
    table = results_table(folder, REGISTRY)
    for letter in PAPERS:
        claims = [c for f in sorted(folder.glob(f"{letter}*.json")) for c in json.loads(f.read_text())["claims"]
                  if not c.get("check")]   # the implementation checks are named apart, never counted
        counts = [sum(c["verdict"] == v for c in claims) for v in ("holds", "fails", "inconclusive", "not measured")]
        row = next(line for line in table.splitlines() if line.startswith(f"| [{letter}."))
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert [int(cells[2].split(" (")[0]), *map(int, cells[3:7])] == [len(claims), *counts]


def test_an_implementation_check_is_named_apart_and_never_counted(tmp_path):
    """A claim marked ``check`` leaves its paper's count and verdict tally and is named beside the count."""
    folder = _metrics_copy(tmp_path)
    row = lambda: next(line for line in results_table(folder, REGISTRY).splitlines() if line.startswith("| [D."))
    before = [cell.strip() for cell in row().strip("|").split("|")]
    d2 = json.loads((folder / "D2.json").read_text())
    first = next(c for c in d2["claims"] if not c.get("check"))
    first["check"] = True
    (folder / "D2.json").write_text(json.dumps(d2))
    after = [cell.strip() for cell in row().strip("|").split("|")]
    column = 3 + ["holds", "fails", "inconclusive", "not measured"].index(first["verdict"])
    assert int(after[2].split(" (")[0]) == int(before[2].split(" (")[0]) - 1
    assert int(after[column]) == int(before[column]) - 1
    assert "implementation check" in after[2]


def test_a_central_claim_missing_from_its_run_is_refused(tmp_path):
    folder = _metrics_copy(tmp_path)
    b1 = json.loads((folder / "B1.json").read_text())
    b1["claims"] = [c for c in b1["claims"] if c["id"] != "B1.1"]
    (folder / "B1.json").write_text(json.dumps(b1))
    with pytest.raises(ValueError, match="no claim B1.1"):
        results_table(folder, REGISTRY)


def test_readme_table_command_rewrites_between_the_markers_and_check_tells(tmp_path, monkeypatch, capsys):
    for name in ("README.md", "dvc.yaml", "pyproject.toml", "params.yaml", "params_paper.yaml"):   # a root of its own
        shutil.copy2(ROOT / name, tmp_path / name)
    _metrics_copy(tmp_path)
    stale = with_table((tmp_path / "README.md").read_text(), "| an old table |")
    (tmp_path / "README.md").write_text(stale)
    monkeypatch.setenv("INFEROPT_ROOT", str(tmp_path))      # main() leaves the root alone when it is set
    monkeypatch.setattr("inferopt.pipeline.__main__.repo_root", lambda: tmp_path)
    repo_root.cache_clear()   # the cached root is this copy's here and the project's again after (no leak to later tests)
    try:
        code = main(["readme-table", "--check"]); err = capsys.readouterr().err
        assert code == 1 and "out of step" in err, err
        assert (tmp_path / "README.md").read_text() == stale
        assert main(["readme-table"]) == 0
        assert "| an old table |" not in (tmp_path / "README.md").read_text()
        assert main(["readme-table", "--check"]) == 0
    finally:
        monkeypatch.delenv("INFEROPT_ROOT")
        repo_root.cache_clear()


def test_with_table_needs_both_markers_in_order():
    with pytest.raises(ValueError, match="results-table"):
        with_table("no markers here", "x")
    with pytest.raises(ValueError, match="results-table"):
        with_table(f"{END}\n{BEGIN}\n", "x")
    assert with_table(f"a\n{BEGIN}\nold\n{END}\nb", "new") == f"a\n{BEGIN}\nnew\n{END}\nb"


@pytest.mark.parametrize("text, cut", [
    ("SGD beats GD: it reaches the target", "SGD beats GD"),
    ("A comparable AUROC (paper: 0.79): each within 0.01", "A comparable AUROC (paper: 0.79)"),
    ("Min-norm-point always performs best. More", "Min-norm-point always performs best"),
    ("k >= 0.8 k_max holds", "k >= 0.8 k_max holds"),
])
def test_headline_is_the_claim_before_its_reading(text, cut):
    assert headline(text) == cut


# --- the README's first screen ----------------------------------------------------------------

def test_readme_first_screen_holds_the_table_the_two_commands_and_their_times():
    lines = (ROOT / "README.md").read_text().splitlines()
    screen = "\n".join(lines[:SCREEN])
    assert BEGIN in screen and END in screen
    for letter, paper in PAPERS.items():
        assert paper["url"] in screen and f"docs/paper-{letter}.md" in screen
    commands = {line.split("#")[0].strip(): line for line in lines[:SCREEN] if line.startswith("make ")}
    assert {"make repro", "make test"} <= set(commands)
    for command in ("make repro", "make test"):
        assert re.search(r"\d+(–\d+)? min", commands[command]), f"{command} has no measured time"
        # a code block does not wrap: a longer line hides its end (the times) behind a scroll bar on GitHub
        assert len(commands[command]) <= CODE_WIDTH, f"{command}'s line is longer than {CODE_WIDTH} characters"
    assert "2 cores" in screen and "docs/experiments.md" in screen


# --- nothing points outside the repository ----------------------------------------------------

#: a path into the shared folder, except the data mirror's default folder itself (`INFEROPT_DATA_MIRROR`,
#: inferopt.datasets.fetching: code, not documentation); a file in it (its PROVENANCE.md) is documentation
SHARED_PATH = re.compile(r"shared/(?!data(?![\w/]))")


def _stage_inputs():
    """Files a pipeline stage depends on (dvc.lock): editing them re-runs the stage and marks its
    paper-scale verdict stale, so their older mentions of ``REPRODUCTION.md`` (now docs/experiments.md,
    which says so) wait for their next re-run."""
    lock = yaml.safe_load((ROOT / "dvc.lock").read_text())["stages"]
    return {ROOT / dep["path"] for stage in lock.values() for dep in stage.get("deps", [])}


def test_nothing_points_to_the_shared_folder_for_documentation():
    inputs = _stage_inputs()
    offenders = []
    for path in _tracked():
        if path == Path(__file__):                                     # names the patterns it looks for
            continue
        if path.suffix not in (".md", ".py", ".ipynb", ".yaml", ".yml", ".cff", ".toml", ".txt", "") or path.name == "LICENSE":
            continue
        text = path.read_text(errors="replace")
        if SHARED_PATH.search(text):
            offenders.append(f"{path.relative_to(ROOT)}: {SHARED_PATH.search(text).group()}")
        if "REPRODUCTION.md" in text and path not in inputs and path != ROOT / "docs" / "experiments.md":
            offenders.append(f"{path.relative_to(ROOT)}: REPRODUCTION.md (docs/experiments.md)")
    assert not offenders, offenders


def test_docs_links_resolve_inside_the_repository():
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if target.startswith(("http://", "https://")):
                continue
            assert (page.parent / target).exists(), f"{page.relative_to(ROOT)} links {target}, which does not exist"


def test_every_paper_and_experiment_has_its_page_and_catalogue_entry():
    catalogue = (ROOT / "docs" / "experiments.md").read_text()
    for letter, paper in PAPERS.items():
        page = (ROOT / "docs" / f"paper-{letter}.md").read_text()
        assert paper["title"] in page and f'<a id="{letter.lower()}"></a>' in catalogue
    for eid in REGISTRY:
        assert re.search(rf"^\| {eid} \|", catalogue, re.M), f"{eid} has no row in docs/experiments.md"
        assert eid in (ROOT / "docs" / f"paper-{eid[0]}.md").read_text()


# --- LICENSE and CITATION.cff -----------------------------------------------------------------

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_license_is_the_mit_license_pyproject_names():
    text = (ROOT / "LICENSE").read_text()
    assert PROJECT["license"] == "MIT"
    assert text.startswith("MIT License") and "Copyright (c)" in text and "inferopt contributors" in text


def test_citation_cites_the_software_and_the_four_papers():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0" and cff["type"] == "software"
    assert cff["license"] == PROJECT["license"] and cff["version"] == PROJECT["version"]
    references = {ref["title"]: ref for ref in cff["references"]}
    assert set(references) == {paper["title"] for paper in PAPERS.values()}
    for paper in PAPERS.values():
        ref = references[paper["title"]]
        assert str(ref["year"]) in paper["short"] and ref["url"] == paper["url"]
        assert all(author["family-names"] in paper["short"] for author in ref["authors"])


# --- Makefile ---------------------------------------------------------------------------------

def _make_n(*args):
    done = subprocess.run(["make", "-n", *args], cwd=ROOT, capture_output=True, text=True)
    return done.stdout + done.stderr


@pytest.mark.parametrize("letter", list(PAPERS))
def test_repro_paper_reproduces_exactly_that_papers_stages(letter):
    """`make repro-paper P=<letter>` runs `dvc repro --glob '<letter>[0-9]*'`: the glob DVC resolves
    names exactly the paper's experiment stages."""
    from dvc.repo import Repo

    line = next(line for line in _make_n("repro-paper", f"P={letter}").splitlines() if line.startswith("dvc repro --glob"))
    pattern = line.split("'")[1]
    with Repo(str(ROOT)) as repo:
        stages = sorted(stage.addressing for stage in repo.stage.collect(pattern, glob=True))
    assert stages == sorted(eid for eid in REGISTRY if eid.startswith(letter))


def test_make_lab_roots_jupyter_at_the_project_and_opens_notebooks():
    line = next(line for line in _make_n("lab").splitlines() if "jupyter lab" in line)
    assert f"--ServerApp.root_dir={ROOT}" in line and "--LabApp.default_url=/lab/tree/notebooks" in line


def test_make_plots_works_on_a_fresh_clone_before_any_run(tmp_path):
    """On a fresh clone neither the workspace nor HEAD has curves (pipeline outputs, not in git):
    `make plots` still writes its page and exits 0, naming what it could not load."""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    shutil.copy2(ROOT / "Makefile", clone / "Makefile")               # the Makefile under test, committed or not
    venv = clone / ".venv"
    venv.mkdir()
    (venv / "bin").symlink_to(ROOT / ".venv" / "bin")
    (venv / ".installed").write_text(f"{clone}\n")
    for name in ("requirements.lock", "pyproject.toml"):          # the stamp must be newer than these
        (clone / name).touch()
    (venv / ".installed").touch()
    done = subprocess.run(["make", "plots"], cwd=clone, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (clone / "build" / "plots" / "index.html").exists()
    assert "could not load" in done.stdout
    # the page, otherwise blank, says which runs' curves are missing and why
    page = (clone / "build" / "plots" / "index.html").read_text()
    assert "Not drawn: the curves of workspace, HEAD." in page and "make review" in page
