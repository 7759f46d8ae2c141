"""Issue 47: what a researcher edits besides arguments -- the parameter files, the specs of their
own methods, the names of records -- swept like the arguments (:mod:`files_sweep`): each bad edit
is refused before any kernel starts (or before anything is registered or written) by one line
naming what was wrong."""

from __future__ import annotations
import sys

import pandas as pd
import pytest

import files_sweep as fs
import sweep

MUTATIONS = fs.params_mutations()


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    fs.copy_root(root)
    return root


def test_the_real_parameter_files_pass(project):
    from inferopt.pipeline.params_check import check_params_files

    for scale in ("default", "paper"):
        check_params_files(project, scale=scale)


@pytest.mark.parametrize("mutation", MUTATIONS, ids=[m.label for m in MUTATIONS])
def test_a_bad_parameter_file_is_refused_in_one_line_naming_the_key(mutation, project):
    from inferopt.pipeline.params_check import check_params_files

    mutation.apply(project)
    try:
        check_params_files(project, scale=mutation.scale)
    except (ValueError, TypeError) as exc:
        message = str(exc)
        missing = [n for n in mutation.names if n not in message]
        ok = not missing and "\n" not in message
        sweep.KINDS[("parameter files", sweep.CLEAR if ok else sweep.RAW)] += 1
        assert ok, f"the refusal must be one line naming {missing}: {message}"
    except Exception as exc:  # noqa: BLE001
        sweep.KINDS[("parameter files", sweep.RAW)] += 1
        pytest.fail(f"raw {type(exc).__name__}: {exc}")
    else:
        sweep.KINDS[("parameter files", sweep.SILENT)] += 1
        pytest.fail(f"{mutation.label}: accepted")
    finally:
        fs.copy_root(project)


def test_the_parameter_sweep_is_large():
    assert len(MUTATIONS) >= 400
    assert {m.scale for m in MUTATIONS} == {"default", "paper"}


# --- extra_methods specs ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def spec_modules(tmp_path_factory):
    folder = tmp_path_factory.mktemp("specs")
    good, broken = fs.write_spec_modules(folder, "m47")
    sys.path.insert(0, str(folder))
    yield good, broken
    sys.path.remove(str(folder))


SPECS = [(family, label) for family in fs.FAMILIES for label, _ in fs.spec_spoilers(family, "m", "b")]


@pytest.mark.parametrize("family, label", SPECS, ids=[f"{f}:{lab}" for f, lab in SPECS])
def test_an_extra_method_that_cannot_register_is_named_and_nothing_registers(family, label, spec_modules, registries):
    """Issue 47: a missing module, one failing on import, a relative module ... gave importlib's own
    error, never naming ``extra_methods[i]``; a failed registration left the solver runnable. The
    bad entry is second, after a valid one: neither registers."""
    from inferopt.experiment.extra import load_extra_methods

    good, broken = spec_modules
    entry = dict(fs.spec_spoilers(family, good, broken))[label]
    specs = [f"{good}:{fs.OK_METHOD[family]}", entry]
    try:
        load_extra_methods(specs, family)
    except (ValueError, TypeError) as exc:
        outcome = sweep.CLEAR if "extra_methods[1]" in str(exc) else sweep.RAW
        detail = f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # noqa: BLE001
        outcome, detail = sweep.RAW, f"{type(exc).__name__}: {exc}"
    else:
        outcome, detail = sweep.SILENT, "registered"
    untouched = registries()
    if not untouched:
        outcome = sweep.SILENT if outcome == sweep.CLEAR else outcome
    sweep.KINDS[("registration specs", outcome)] += 1
    assert outcome == sweep.CLEAR and untouched, f"{outcome} ({'nothing' if untouched else 'something'} registered): {detail}"


def test_the_spec_sweep_covers_every_family():
    assert {f for f, _ in SPECS} == set(fs.FAMILIES) and len(SPECS) >= 40


# --- names of records ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", fs.BAD_FILE_NAMES, ids=[repr(n) for n in fs.BAD_FILE_NAMES])
def test_a_record_name_that_leaves_its_folder_is_refused(name, tmp_path):
    """Issue 47: ``save_results("../escape")`` wrote outside ``results/<id>/``: a name is a plain file name."""
    from inferopt.experiment import Experiment

    out = tmp_path / "out"
    exp = Experiment("Z9", title="t", paper="p", figure="f", params={"output_dir": str(out), "seed": 0})
    before = {p for p in tmp_path.rglob("*")}
    try:
        exp.save_results(name, pd.DataFrame({"a": [1]}))
    except (ValueError, TypeError) as exc:
        outcome = sweep.CLEAR if sweep.names_argument(str(exc), "name") else sweep.RAW
    except Exception:  # noqa: BLE001
        outcome = sweep.RAW
    else:
        outcome = sweep.SILENT
    written = {p for p in tmp_path.rglob("*")} - before
    if written and outcome == sweep.CLEAR:
        outcome = sweep.SILENT
    sweep.KINDS[("record names", outcome)] += 1
    assert outcome == sweep.CLEAR and not written, f"{outcome}; written: {sorted(map(str, written))}"
