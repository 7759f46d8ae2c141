"""The project's own wiring: pins, pipeline, notebooks and lock kept in step."""

import ast
import hashlib
import json
import re
import tomllib
from pathlib import Path

import nbformat
import pytest
import yaml

from inferopt.experiment import repo_root

ROOT = repo_root()


def _pins():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = project["dependencies"] + project["optional-dependencies"]["dev"]
    pins = {}
    for dep in deps:
        name, version = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([0-9][0-9A-Za-z.\-]*)", dep).groups()
        pins[name.lower().replace("_", "-")] = version
    return pins


def test_every_dependency_is_pinned_and_environment_yml_agrees():
    pins = _pins()
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    listed = {}
    for dep in env["dependencies"]:
        for entry in dep["pip"] if isinstance(dep, dict) else [dep]:
            if entry == "pip" or entry.startswith("-e"):
                continue
            name, version = re.split(r"==?", entry, maxsplit=1)
            listed[name.strip().lower().replace("_", "-")] = version.strip()
    assert listed.pop("python").startswith("3.11")
    assert listed == pins


def _parameter_names(notebook):
    nb = nbformat.read(notebook, as_version=4)
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1, f"{notebook.name} must have exactly one cell tagged 'parameters'"
    tree = ast.parse(cells[0].source)
    return {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets if isinstance(t, ast.Name)}


PARAMS = yaml.safe_load((ROOT / "params.yaml").read_text())
PAPER = yaml.safe_load((ROOT / "params_paper.yaml").read_text()) or {}
DVC = yaml.safe_load((ROOT / "dvc.yaml").read_text())


@pytest.mark.parametrize("exp_id", list(PARAMS["experiments"]))
def test_each_experiment_has_notebook_stage_and_known_parameters(exp_id):
    notebook = ROOT / "notebooks" / f"{PARAMS['experiments'][exp_id]['notebook']}.ipynb"
    assert notebook.exists()
    names = _parameter_names(notebook)
    assert {"output_dir", "seed"} <= names
    for source in (PARAMS.get(exp_id) or {}, PAPER.get(exp_id) or {}):
        unknown = set(source) - names
        assert not unknown, f"params for {exp_id} not in its parameters cell (papermill would ignore them): {unknown}"
    stage = DVC["stages"][exp_id]
    assert f"build/stripped/{exp_id}.ipynb" in stage["deps"]
    assert f"reports/metrics/{exp_id}.json" in stage["outs"]
    assert stage["metrics"] == [{f"reports/scorecard/{exp_id}.json": {"cache": False}}]
    assert exp_id in stage["params"] and f"experiments.{exp_id}" in stage["params"]
    entry = PARAMS["experiments"][exp_id]
    assert all(entry.get(key) for key in ("title", "paper", "figure")), f"{exp_id}: registry entry lacks metadata"


def test_dvc_yaml_experiment_stages_are_generated_from_the_current_code():
    """dvc.yaml's experiment stages are what `python -m inferopt.pipeline.dvcgen` writes: every module
    a notebook imports (transitively) is a dependency of its stage."""
    from inferopt.pipeline.dvcgen import render

    current = (ROOT / "dvc.yaml").read_text()
    assert render(current) == current, "dvc.yaml is out of date: run `python -m inferopt.pipeline.dvcgen`"


def test_dvcgen_notices_a_missing_dependency_and_keeps_the_other_stages():
    from inferopt.pipeline.dvcgen import render

    current = (ROOT / "dvc.yaml").read_text()
    stale = current.replace("    - src/inferopt/spectral/gp.py\n", "", 1)
    assert stale != current and render(stale) == current
    fresh = yaml.safe_load(render(current))
    for name in ("data", "strip", "report"):
        assert fresh["stages"][name] == DVC["stages"][name]
    assert {k: v for k, v in fresh.items() if k != "stages"} == {k: v for k, v in DVC.items() if k != "stages"}


def test_dvcgen_follows_imports_transitively_within_the_package():
    import ast

    from inferopt.pipeline.dvcgen import closure, imported_modules

    direct = imported_modules(ast.parse("from inferopt.spectral import gp\nimport numpy"), None, ROOT)
    assert direct == {"inferopt.spectral", "inferopt.spectral.gp"}
    reached = closure(direct, ROOT)
    # gp imports .operators, which imports the shared seed helper; parents' __init__ come along
    assert {"inferopt", "inferopt.spectral.operators", "inferopt._random", "inferopt._validation"} <= reached
    assert "inferopt.coresets" not in reached


def _yaml12(value):
    """dvc.lock is written as YAML 1.2, where ``1e-06`` is a float; PyYAML (YAML 1.1) reads a string."""
    if isinstance(value, dict):
        return {k: _yaml12(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_yaml12(v) for v in value]
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _md5(path):
    return hashlib.md5(path.read_bytes()).hexdigest()


def test_dvc_lock_is_in_step_with_tracked_inputs():
    """Every file dependency under git control and every parameter recorded in dvc.lock
    matches the working tree: `dvc repro` was run and dvc.lock committed after the last change."""
    lock = yaml.safe_load((ROOT / "dvc.lock").read_text())["stages"]
    assert set(lock) >= {"report", *PARAMS["experiments"], *(f"strip@{e}" for e in PARAMS["experiments"])}
    stale = []
    for name, stage in lock.items():
        for dep in stage.get("deps", []):
            path = ROOT / dep["path"]
            if path.is_file() and not dep["path"].startswith(("build/", "reports/", "data/")):
                if _md5(path) != dep["md5"]:
                    stale.append(f"{name}: {dep['path']}")
        for file, values in stage.get("params", {}).items():
            current = yaml.safe_load((ROOT / file).read_text()) or {}
            for key, value in values.items():
                node = current
                for part in key.split("."):
                    node = node.get(part) if isinstance(node, dict) else None
                if _yaml12(node) != _yaml12(value):
                    stale.append(f"{name}: {file}:{key}")
    assert not stale, f"dvc.lock is out of step (run `dvc repro` and commit dvc.lock): {stale}"


@pytest.mark.parametrize("exp_id", list(PARAMS["experiments"]))
def test_papermill_reads_every_parameter_of_the_parameters_cell(exp_id):
    """papermill parses the `parameters` cell line by line; a line it cannot parse (e.g. an
    '=' inside a comment) makes it warn 'Passed unknown parameter' for a valid name."""
    import papermill

    notebook = ROOT / "notebooks" / f"{PARAMS['experiments'][exp_id]['notebook']}.ipynb"
    assert _parameter_names(notebook) <= set(papermill.inspect_notebook(str(notebook)))


@pytest.mark.parametrize("override, line", [("D1.negbin_p=0.3", "negbin_p: 0.3"), ("A1.k_num=12", "k_num: 12")])
def test_dvc_set_param_changes_only_its_own_line(tmp_path, override, line):
    """`dvc exp run -S KEY=VALUE` rewrites params.yaml through ruamel (replacing every list):
    params.yaml is kept in the style that survives it, so a variant is a one-line diff."""
    from dvc.utils.hydra import apply_overrides  # what `dvc exp run -S` calls

    copy = tmp_path / "params.yaml"
    original = (ROOT / "params.yaml").read_text().splitlines()
    copy.write_text("\n".join(original) + "\n")
    apply_overrides(copy, [override])
    changed = copy.read_text().splitlines()
    assert len(changed) == len(original)
    diff = [(a, b) for a, b in zip(original, changed) if a != b]
    assert len(diff) == 1 and diff[0][1].strip().startswith(line), diff


def _lock():
    """``{name: version}`` of requirements.lock, and the names of entries without a hash."""
    text = (ROOT / "requirements.lock").read_text()
    entries = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2])
    pins, unhashed = {}, []
    for entry in entries:
        name, version = re.match(r"([A-Za-z0-9_.\-]+)==([^ ;\\\n]+)", entry).groups()
        pins[name.lower().replace("_", "-").replace(".", "-")] = version
        if "--hash=sha256:" not in entry:
            unhashed.append(name)
    return text, pins, unhashed


def test_lock_pins_the_whole_environment_in_step_with_pyproject():
    """requirements.lock (`make lock`) pins every package with hashes; its direct pins are pyproject's
    (and so environment.yml's, see above). A pin changed without `make lock` fails here."""
    text, locked, unhashed = _lock()
    assert "uv pip compile pyproject.toml --extra dev --generate-hashes --universal --python-version 3.11" in text
    assert "uv pip compile pyproject.toml --extra dev --generate-hashes --universal --python-version 3.11" in (
        ROOT / "Makefile").read_text()
    assert not unhashed
    pins = {k.replace(".", "-"): v for k, v in _pins().items()}
    assert {k: locked.get(k) for k in pins} == pins
    assert len(locked) > 3 * len(pins)  # transitive packages are pinned too


def _make(tmp_path, *args):
    import shutil
    import subprocess

    for name in ("Makefile", "pyproject.toml", "requirements.lock"):
        shutil.copy2(ROOT / name, tmp_path / name)  # keeps their (older) times
    done = subprocess.run(["make", "-n", *args], cwd=tmp_path, capture_output=True, text=True)
    return done.stdout + done.stderr


def test_make_rebuilds_a_venv_made_for_another_folder(tmp_path):
    """A copied project folder carries a .venv whose tools and editable `inferopt` point at the
    original folder: make notices (the stamp names the folder) and rebuilds it."""

    (tmp_path / ".venv").mkdir()
    out = _make(tmp_path, "venv")
    assert "venv --clear .venv" in out and "--require-hashes --no-deps -r requirements.lock" in out
    (tmp_path / ".venv" / ".installed").write_text(f"{tmp_path}\n")
    assert "venv --clear" not in _make(tmp_path, "venv")  # made here and newer than the lock: kept
    (tmp_path / ".venv" / ".installed").write_text("/somewhere/else\n")
    out = _make(tmp_path, "venv")
    assert "not " + str(tmp_path) + " (a copied folder?)" in out and "venv --clear .venv" in out


def test_make_lab_runs_as_root_and_passes_lab_args(tmp_path):
    import os

    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / ".installed").write_text(f"{tmp_path}\n")
    out = _make(tmp_path, "lab", "LAB_ARGS=--no-browser --port=8899")
    line = next(line for line in out.splitlines() if "jupyter lab" in line)
    assert line.endswith("--no-browser --port=8899") and ("--allow-root" in line) == (os.geteuid() == 0)


def test_inferopt_is_imported_from_this_folder():
    """Fails in a copied project folder whose .venv still imports the original (run `make`)."""
    import inferopt

    here = Path(__file__).resolve().parents[1]
    assert Path(inferopt.__file__).resolve().is_relative_to(here / "src"), (
        f"inferopt is imported from {Path(inferopt.__file__).parent}, not {here / 'src'}: "
        "this .venv belongs to another folder; `make venv` rebuilds it"
    )


def test_dvc_plots_read_result_tables_and_render_offline():
    """Top-level `plots:` draw result tables the stages write, with templates in .dvc/plots/, and
    the page template (`plots.html_template`) carries vega itself instead of loading it from a CDN."""
    import configparser

    outs = {out for stage in DVC["stages"].values() if "outs" in stage for out in stage["outs"] if isinstance(out, str)}
    for plot in DVC["plots"]:
        (spec,) = plot.values()
        assert (ROOT / ".dvc" / "plots" / f"{spec['template']}.json").exists()
        for table in spec["y"]:
            assert table.rsplit("/", 1)[0] in outs, f"{table} is not written by a stage"
    config = configparser.ConfigParser()
    config.read(ROOT / ".dvc" / "config")
    page = (ROOT / ".dvc" / config["plots"]["html_template"]).read_text()
    assert "{plot_divs}" in page and "vegaEmbed" in page and "<script src" not in page


@pytest.mark.parametrize("template", sorted((ROOT / ".dvc" / "plots").glob("*.json")), ids=lambda p: p.stem)
def test_plot_templates_mark_each_run_with_its_own_point_shape(template):
    """Runs compared by `dvc plots diff` differ in the legend by their point's shape, not only by a
    dash that a legend's point symbol does not show (identical black dots for every run before)."""
    spec = json.loads(template.read_text())
    encodings = [s.get("encoding", {}) for s in (spec, spec.get("spec", {}), *spec.get("layer", []))]
    enc = next(e for e in encodings if "strokeDash" in e)
    assert enc.get("shape", {}).get("field") == enc["strokeDash"]["field"] == "rev"
    # one legend for the run, the shape's: the line's dash and the point's shape sit in two layers of the
    # spec, which vega-lite does not merge (a second "run" legend of identical black dots, seen in a browser)
    assert "legend" in enc["strokeDash"] and enc["strokeDash"]["legend"] is None and enc["shape"].get("legend", {}) is not None


def test_every_output_preserving_edit_names_a_test_that_exists():
    """An edit declared output-preserving (reports/paper/output_preserving.yaml) keeps paper runs current, so it must
    say why and point at the test showing the old and the new code agree wherever the old code finished."""
    path = ROOT / "reports/paper/output_preserving.yaml"
    entries = yaml.safe_load(path.read_text()) or []
    for e in entries:
        assert len(e["before"]) == len(e["after"]) == 40 and e["before"] != e["after"], e["path"]
        assert (ROOT / e["path"]).exists() and len(e["why"].split()) >= 10, e["path"]
        test_file, _, name = e["test"].partition("::")
        assert f"def {name}(" in (ROOT / test_file).read_text(), e["test"]
