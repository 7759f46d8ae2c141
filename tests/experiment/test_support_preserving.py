"""Session 58 edited two modules every experiment imports: support.py (``percent_below``, so that ``support_reason`` never
prints a share under 90 % as "90 %"; ``agreeing_test`` moved in from boundary_claims.py to be shared with D4) and
boundary_claims.py (``agreeing_test`` now imported from support.py). Neither edit can move a finished paper run's result
but C1's (the one committed metrics file with a share in [89.5 %, 90 %), re-run): every other definition is unchanged (its
syntax tree), ``support_reason`` prints what the old one printed wherever the old one printed less than 90, and the moved
test answers as the old one did. reports/paper/output_preserving.yaml names these tests."""

import sys
import types

import numpy as np
import pytest

import inferopt.experiment.boundary_claims as boundary_claims
import inferopt.experiment.support as support
from tests.experiment.test_boosting_preserving import definitions, git_blob

#: the modules' blobs before the edit (the ``before`` of their entries in output_preserving.yaml)
BEFORE = {"support.py": "d9a8d64791d0f314203b2fae995b65a3ed6ddd45",
          "boundary_claims.py": "d8108aa5b7da34a6ff99395216d5a076bc4a7cc6"}
#: the definitions the edit changed or moved out
CHANGED = {"support.py": {"support_reason"}, "boundary_claims.py": {"agreeing_test"}}


def source(name: str) -> str:
    return git_blob(BEFORE[name], f"{name}'s blob before session 58's edit")


def old_module(name: str) -> dict:
    """The module as it was before the edit (its blob run beside the new one), as a namespace."""
    module = types.ModuleType(f"inferopt.experiment._{name[:-3]}_before_s58")
    module.__package__ = "inferopt.experiment"
    sys.modules[module.__name__] = module
    try:
        exec(compile(source(name), name + "@" + BEFORE[name][:7], "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module.__dict__


@pytest.mark.parametrize("name, module", [("support.py", support), ("boundary_claims.py", boundary_claims)])
def test_every_other_old_definition_is_in_the_new_module_unchanged(name, module):
    old, new = definitions(source(name)), definitions(open(module.__file__).read())
    kept = set(old) - CHANGED[name]
    assert CHANGED[name] <= set(old)
    assert [k for k in sorted(kept) if k not in new or old[k] != new[k]] == []


def test_support_reason_prints_the_old_text_wherever_the_old_one_read_below_the_line():
    old = old_module("support.py")["support_reason"]
    seen_change = False
    for agree in np.round(np.arange(0, 1.0005, 0.0005), 4):
        for holds in (True, False):
            sup = {"method": "bootstrap", "fraction_holding": agree if holds else 1 - agree, "n_resamples": 200, "n_units": 5, "unit": "seed"}
            before, after = old(holds, sup), support.support_reason(holds, sup)
            if before is None or f"only {100 * agree:.0f} %" not in before or round(100 * agree) < 90:
                assert after == before, agree
            else:   # 0.895 <= agree < 0.9: the old text said "only 90 %", the new one the share floored to a tenth
                seen_change = True
                assert after != before and "only 89." in after
    assert seen_change


def test_the_moved_agreeing_test_answers_as_the_old_one():
    old = old_module("boundary_claims.py")["agreeing_test"]
    assert boundary_claims.agreeing_test is support.agreeing_test
    for point in (True, False, None):
        for value in (True, False, None):
            assert old(lambda t, v=value: v, point)(None) == support.agreeing_test(lambda t, v=value: v, point)(None)
