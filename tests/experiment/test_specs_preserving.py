"""Session 59 added C1's parameter authors_medium_runs to specs/boosting.py, which C2-C4's stages also list. The edit
cannot move a result of C2, C3 or C4: every definition of the module is the old one (its syntax tree), and SPECS differs
only in C1's entry (reports/paper/output_preserving.yaml names this test)."""

import ast
from pathlib import Path

from test_boosting_preserving import definitions, git_blob

import inferopt.experiment.specs.boosting as specs

BEFORE = "bd93c373ccd79a2188abb7c325a20a93d83f33f8"


def _specs_entries(source: str) -> dict:
    """SPECS' entries in a module's source: {experiment id: its rules' syntax tree, dumped}."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "SPECS":
            return {k.value: ast.dump(v) for k, v in zip(node.value.keys, node.value.values)}
    raise AssertionError("no SPECS in the module")


def test_only_c1s_specs_changed():
    old_src, new_src = git_blob(BEFORE, "specs/boosting.py's blob before session 59"), Path(specs.__file__).read_text()
    old, new = definitions(old_src), definitions(new_src)
    assert set(old) == set(new) and [k for k in old if old[k] != new[k]] == ["SPECS"]
    old_specs, new_specs = _specs_entries(old_src), _specs_entries(new_src)
    assert set(old_specs) == set(new_specs) and {"C2", "C3", "C4"} <= set(new_specs)
    assert [k for k in old_specs if old_specs[k] != new_specs[k]] == ["C1"]    # the test can fail: C1's entry did change
    assert "authors_medium_runs" in specs.SPECS["C1"] and "authors_medium_runs" not in specs.SPECS["C3"]
