"""Session 63 removed D4's parameter var_draws from specs/spectral.py (D4.3's variance is exact: nothing is drawn), a
module D1-D5's stages all list. The edit cannot move a result of D1, D2, D3 or D5: every definition of the module is the
old one (its syntax tree) but SPECS, and SPECS differs only in D4's entry (reports/paper/output_preserving.yaml names this
test)."""

from pathlib import Path

from test_boosting_preserving import definitions, git_blob
from test_specs_preserving import _specs_entries

import inferopt.experiment.specs.spectral as specs

BEFORE = "a2ae4bb789fd6466c5733cea0965aa704a38506a"


def test_only_d4s_specs_changed():
    old_src, new_src = git_blob(BEFORE, "specs/spectral.py's blob before session 63"), Path(specs.__file__).read_text()
    old, new = definitions(old_src), definitions(new_src)
    assert set(old) == set(new) and [k for k in old if old[k] != new[k]] == ["SPECS"]
    old_specs, new_specs = _specs_entries(old_src), _specs_entries(new_src)
    assert set(old_specs) == set(new_specs) and {"D1", "D2", "D3", "D5"} <= set(new_specs)
    assert [k for k in old_specs if old_specs[k] != new_specs[k]] == ["D4"]    # the test can fail: D4's entry did change
    assert "var_draws" not in specs.SPECS["D4"]
