"""Issue 15: notebook parameters are checked before any computation, naming the bad key."""

import json
import re
from pathlib import Path

import pytest
import yaml

from inferopt.experiment import Experiment
from inferopt.experiment.parameters import ParameterError, check_parameters
from inferopt.experiment.specs import PAPER_MODULES, spec_for

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = yaml.safe_load((ROOT / "params.yaml").read_text())
PAPER = yaml.safe_load((ROOT / "params_paper.yaml").read_text())
IDS = sorted(DEFAULT["experiments"])


def notebook_defaults(eid: str) -> dict:
    """The tiny defaults of the notebook's ``parameters`` cell (executed, as papermill would)."""
    nb = json.loads(next((ROOT / "notebooks").glob(f"{eid}_*.ipynb")).read_text())
    cell = next(c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", []))
    namespace: dict = {}
    exec("".join(cell["source"]), namespace)  # noqa: S102 - the repository's own parameters cell
    return {k: v for k, v in namespace.items() if not k.startswith("_") and k != "output_dir"}


def test_every_experiment_has_a_spec():
    assert all(spec_for(eid) is not None for eid in IDS)


def test_each_stage_depends_on_its_own_papers_specs_only():
    """A new key of one paper's experiment puts only that paper's dvc stages out of step."""
    stages = yaml.safe_load((ROOT / "dvc.yaml").read_text())["stages"]
    for eid in IDS:
        specs = {d for d in stages[eid]["deps"] if d.startswith("src/inferopt/experiment/specs/")}
        own = f"src/inferopt/experiment/specs/{PAPER_MODULES[eid[0]]}.py"
        assert specs == {"src/inferopt/experiment/specs/__init__.py", own}, (eid, specs)


@pytest.mark.parametrize("eid", IDS)
def test_params_yaml_paper_scale_and_notebook_defaults_pass(eid):
    default = DEFAULT.get(eid) or {}
    paper = {**default, **(PAPER.get(eid) or {})}
    tiny = notebook_defaults(eid)
    for params in (default, paper, tiny):
        # the check passes or refuses, never changes a value: why a run's results cannot depend on
        # parameters.py (pipeline.paper_state.CHECKS) and an edit of it does not stale a paper run
        assert check_parameters(eid, params) == params
    assert set(spec_for(eid)) == set(default) | set(tiny), "the spec lists exactly the keys the notebook takes"


def test_d1_negative_n_samples_names_the_key(tmp_path):
    params = {**DEFAULT["D1"], "n_samples": -5, "output_dir": str(tmp_path)}
    with pytest.raises(ParameterError, match=r"parameter n_samples: .*>= 2; got -5 \(allowed: an integer >= 2\)"):
        Experiment("D1", title="t", paper="p", figure="f", params=params)


@pytest.mark.parametrize("eid, key, value, match", [
    ("A1", "step", "half", r"parameter step: .*one of \['exact', 'authors'\]"),
    ("A4", "methods", ["giga", "gigga"], r"parameter methods: methods\[1\] must be one of"),
    ("B1", "panels", [{"s": 5, "density": "random"}], r"parameter panels\[0\]\.s: .*<= 4"),
    ("C2", "greedy", {"max_iter": 10, "n_samples": 0, "lr": 0.1, "average": 0.5}, r"parameter greedy\.n_samples"),
    ("C2", "reuse_samples", "false", r"parameter reuse_samples: .*true or false"),
    ("D1", "negbin_p", 1.0, r"parameter negbin_p: .*< 1"),
    ("D3", "ml_items", 0, r"parameter ml_items: .*or null"),
    ("D5", "theta0", [1.0, 0.5], r"parameter theta0: .*3 entries"),
    ("A1", "k_num", 400, r"parameter k_num: must be <= k_max"),
    ("D2", "interval", [0.9, 0.1], r"parameter interval: needs \[low, high\]"),
    ("D1", "n_sample", 10, r"unknown parameter\(s\) \['n_sample'\] for experiment D1"),
])
def test_bad_values_name_the_key_and_what_is_allowed(eid, key, value, match):
    with pytest.raises(ParameterError, match=match):
        check_parameters(eid, {**DEFAULT[eid], key: value})


def test_messages_say_what_is_allowed():
    with pytest.raises(ParameterError) as info:
        check_parameters("B3", {**DEFAULT["B3"], "d": 40})
    assert re.search(r"parameter d: d must be <= 20; got 40 \(allowed: an integer >= 2 and <= 20\)", str(info.value))
