"""Session 61's review C1g: the authors' toy rule's sufficient-decrease check as their ``fw_step_size.adaptive_fw`` takes
its draws (``random_lmo_step``'s ``check_draws='authors'``), checked against a hand computation of their loop; the
flag defaults' 33 tries (``i > adafw_MAXITER``); and the edit of boosting.py and boosting_rules.py (modules C2-C4 import)
changes random_lmo_step, _one_random_lmo_run and AUTHORS_TOY_RULES alone, which C3 never calls, and with the default
``check_draws='common'`` random_lmo_step makes the rows the old code made. reports/paper/output_preserving.yaml names these tests."""

import numpy as np
import pytest

import inferopt.experiment.boosting as boosting
import inferopt.experiment.boosting_rules as boosting_rules
from inferopt.boosting.estimates import kl
from inferopt.boosting.mixture import Mixture
from inferopt.experiment.boosting_rules import AUTHORS_TOY_COMMAND, AUTHORS_TOY_RULES, kl_gaussians

from test_boosting_preserving import assert_only_changed, definitions, git_blob, old_module

#: the modules' blobs before the edit (the ``before`` of their entries in output_preserving.yaml)
BEFORE = {"boosting.py": "68e514c69a8bbc4ec7de9db2a128ea6781dd1a1a", "boosting_rules.py": "78083dee2f23ce394460b581cf81f953f802dbc9"}
#: runs_cell changed later (session 63: its ThreeValued branch, C3's alone; tests/experiment/test_boosting_c3_fix63.py)
CHANGED = {"boosting.py": {"random_lmo_step", "_one_random_lmo_run", "runs_cell"}, "boosting_rules.py": {"AUTHORS_TOY_RULES", "kl_gaussians"}}
MODULES = {"boosting.py": boosting, "boosting_rules.py": boosting_rules}


def _their_check(target, q1, s, seed, n, *, C0, eta, tau, tries, d):
    """The authors' ``adaptive_fw`` by hand (fw_step_size.py): the gap on n draws of q_t and of s, f_t = KL(q_t) on
    draws of its own, each try's KL(q_t + γ(s − q_t)) on fresh draws, accepted when ``lhs <= f_t − γ g + γ² L d / 2``;
    γ = 0 on a negative gap or after ``tries`` failed tries. Our draws come in the order the run takes them."""
    rng = np.random.default_rng(seed)
    q = Mixture.from_component(q1)
    xq = q.sample(n, rng)
    m_q = np.mean(q.log_density(xq) - target.log_density(xq))
    xs = s.sample(n, rng)
    gap = m_q - np.mean(q.log_density(xs) - target.log_density(xs))
    if gap < 0:
        return 0.0, [], gap
    f_t = kl(target, q, n_samples=n, rng=rng)
    L, sides = eta * C0, []
    for _ in range(tries):
        gamma = min(gap / (L * d), 1.0)
        rhs = f_t - gamma * gap + 0.5 * gamma**2 * L * d
        lhs = kl(target, q.add(s, gamma), n_samples=n, rng=rng)
        sides.append((gamma, lhs, rhs))
        if lhs <= rhs:
            return gamma, sides, gap
        L *= tau
    return 0.0, sides, gap


@pytest.mark.parametrize("D", [1, 2, 20])
def test_the_authors_check_is_their_adaptive_fw_by_hand(D):
    n, runs = 200, 6
    kw = dict(dims=[D], n_runs=runs, methods=["adafw"], n_samples=n, n_eval=100, exact_step=False, ls_draws="authors",
              check_draws="authors", **{**AUTHORS_TOY_RULES, **AUTHORS_TOY_COMMAND})
    rows = boosting.random_lmo_step(rng=np.random.default_rng(3), distance="kl", **kw)
    rng = np.random.default_rng(3)     # the runs' targets, components and seeds, drawn as random_lmo_step draws them
    stepped = 0
    for r in range(runs):
        target = boosting.random_two_gaussians(D, rng)
        s = boosting.random_component(target, rng.normal(size=D), rng.normal(size=D))
        seed = int(rng.integers(2**32))
        q1 = target.component(0)
        gamma, sides, gap = _their_check(target, q1, s, seed, n, C0=AUTHORS_TOY_COMMAND["C0"], eta=AUTHORS_TOY_COMMAND["eta"],
                                         tau=AUTHORS_TOY_COMMAND["tau"], tries=AUTHORS_TOY_COMMAND["imax"], d=kl_gaussians(s, q1))
        row = rows.iloc[r]
        assert row.gamma == pytest.approx(gamma, rel=1e-12, abs=1e-15)
        assert row.step_type == ("fallback" if gap >= 0 and gamma == 0.0 else "fw")
        stepped += gamma > 0
    assert stepped > 0 or D == 20     # the check passes in some low-D runs: both outcomes are compared


def test_the_flag_defaults_take_maxiter_plus_one_tries():
    """Their loop: a failed try does ``i += 1`` and the search stops on ``i > adafw_MAXITER`` (32): 33 tries."""
    assert AUTHORS_TOY_RULES["imax"] == 32 + 1 and AUTHORS_TOY_COMMAND["imax"] == 10 + 1


def test_check_draws_is_checked():
    with pytest.raises(ValueError, match="check_draws"):
        boosting.random_lmo_step([2], 1, rng=np.random.default_rng(0), check_draws="fresh")


def test_every_old_definition_is_in_the_new_module_unchanged():
    for name, blob in BEFORE.items():
        assert_only_changed(git_blob(blob, f"{name} before session 61's check draws"), MODULES[name], CHANGED[name])


@pytest.mark.parametrize("distance", ["unit", "exact", "kl"])
def test_with_common_check_draws_random_lmo_step_makes_the_old_rows(distance):
    """The default check_draws='common' (every old call) against the old module, the toy rule's settings as C1 passes them."""
    old = old_module(git_blob(BEFORE["boosting.py"], "boosting.py before session 61's check draws"),
                     "inferopt.experiment._boosting_before_check_draws", "boosting.py@" + BEFORE["boosting.py"][:7])
    settings = {**boosting_rules.authors_rules("exact", toy=True), "distance": distance, "C0": 0.001}
    rows = [m.random_lmo_step([2, 5], 2, rng=np.random.default_rng(4), methods=("predefined", "adafw", "line_search"),
                              n_samples=50, n_eval=100, **settings) for m in (old, boosting)]
    assert rows[0].equals(rows[1])


def test_the_claims_edit_changes_c1_2_authors_definitions_alone():
    """reports/paper/output_preserving.yaml: session 61's C1.2-authors edit of boosting_claims.py (review C1g) changes
    lower_at, _lower_dims and lower_law_text (a D where the rule never steps is read), removes never_steps, NEVER_STEPS
    and never_step_text and adds forgone_gain, not_stepping_text and unread_text: C1's notebook alone calls any of them
    (C2-C4's notebooks name none), and every other definition is unchanged."""
    from pathlib import Path

    changed = {"lower_at", "_lower_dims", "lower_law_text", "never_steps", "NEVER_STEPS", "never_step_text"}
    # the edit itself, its before and after blobs (reports/paper/output_preserving.yaml; later edits, C3's of session 63,
    # have entries and tests of their own)
    old = definitions(git_blob("fb3fb1fba916fa184f06c96f3d9eddba331a46b5", "boosting_claims.py before session 61's C1g"))
    new = definitions(git_blob("9bc0b15172be11f88aab3b263d3e838b61cecd75", "boosting_claims.py after session 61's C1g"))
    kept = set(old) - changed
    assert kept <= set(new) and [k for k in sorted(kept) if old[k] != new[k]] == [] and changed <= set(old)
    names = changed | {"forgone_gain", "not_stepping_text", "unread_text"}
    notebooks = Path(__file__).resolve().parents[2] / "notebooks"
    for nb in ("C2_chemreact.ipynb", "C3_stand_in_classification.ipynb", *[p.name for p in notebooks.glob("C4*.ipynb")]):
        text = (notebooks / nb).read_text()
        assert not [n for n in names if f"{n}(" in text or f".{n}" in text], nb
