"""Session 61 rewrote completion_degrees.py's module docstring (D4.3 is decided on the runs' gradient variance since then,
not on Lemma 2's Var_C). The edit cannot move a result of D3 or D4: every definition of the module is the old one (its
syntax tree) and nothing else in it changed (reports/paper/output_preserving.yaml names this test)."""

import ast
from pathlib import Path

from test_boosting_preserving import definitions, git_blob

import inferopt.experiment.spectral.completion_degrees as completion_degrees

BEFORE = "d6106b6d5bac12c1beddd6ef11ab54fdd18779fc"


def test_only_the_module_docstring_changed():
    old_src, new_src = git_blob(BEFORE, "completion_degrees.py's blob before session 61"), Path(completion_degrees.__file__).read_text()
    assert definitions(old_src) == definitions(new_src)
    old_tree, new_tree = ast.parse(old_src), ast.parse(new_src)
    assert ast.get_docstring(old_tree) != ast.get_docstring(new_tree)    # the test can fail: the docstring did change
    assert "d43_variance_readings" not in ast.get_docstring(new_tree)
    assert [ast.dump(n) for n in old_tree.body[1:]] == [ast.dump(n) for n in new_tree.body[1:]]


#: session 63: the docstring's D4.3 paragraph names the exact variance (exact_gradient_variances, d43_exact_reading) instead
#: of the removed common_gradient_draws and d43_common_reading
BEFORE_63 = "834aacbbafcfb832be71de9a07033f22c81bc55e"


def test_session_63_changed_only_the_module_docstring():
    old_src, new_src = git_blob(BEFORE_63, "completion_degrees.py's blob before session 63"), Path(completion_degrees.__file__).read_text()
    old_tree, new_tree = ast.parse(old_src), ast.parse(new_src)
    assert ast.get_docstring(old_tree) != ast.get_docstring(new_tree)    # the test can fail: the docstring did change
    assert "common_gradient_draws" not in ast.get_docstring(new_tree) and "exact_gradient_variances" in ast.get_docstring(new_tree)
    assert [ast.dump(n) for n in old_tree.body[1:]] == [ast.dump(n) for n in new_tree.body[1:]]
