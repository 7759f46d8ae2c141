"""C1.2-authors at the authors' recorded Fig. 1 command (session 60, reviews C1e/C1f): the ``'kl'`` distance of
:func:`~inferopt.experiment.boosting.random_lmo_step` (``d = KL(s || q_1)``, :func:`~inferopt.experiment.boosting_rules.kl_gaussians`)
checked against a Monte-Carlo estimate and against the unit distance with ``C_{-1} · d``; and the edit of boosting.py and
boosting_rules.py (modules C2-C4 import) adds definitions only, apart from random_lmo_step and _one_random_lmo_run,
which without ``'kl'`` make the rows the old code made. reports/paper/output_preserving.yaml names these tests."""


import numpy as np
import pytest

import inferopt.experiment.boosting as boosting
import inferopt.experiment.boosting_rules as boosting_rules
from inferopt.boosting.families import Component, Gaussian
from inferopt.experiment.boosting_rules import AUTHORS_TOY_COMMAND, authors_rules, kl_gaussians

from test_boosting_preserving import assert_only_changed, git_blob, old_module

#: the modules' blobs before the edit (the ``before`` of their entries in output_preserving.yaml)
BEFORE = {"boosting.py": "a1dc2e1f08e0eebbd3a0aefd8f3a94783d9d5c7b", "boosting_rules.py": "0ca7ab0fc570b5eb47f22475e47923e73280218c"}
#: AUTHORS_TOY_RULES changed later (session 61: 33 tries, C1's alone; tests/experiment/test_c1_authors_check.py)
#: runs_cell changed later (session 63: its ThreeValued branch, C3's alone; tests/experiment/test_boosting_c3_fix63.py)
CHANGED = {"boosting.py": {"random_lmo_step", "_one_random_lmo_run", "runs_cell"}, "boosting_rules.py": {"AUTHORS_TOY_RULES"}}
MODULES = {"boosting.py": boosting, "boosting_rules.py": boosting_rules}


def test_kl_gaussians_is_the_monte_carlo_kl():
    rng = np.random.default_rng(0)
    s = Component(Gaussian(), rng.normal(size=3), 0.3 * rng.normal(size=3))
    q = Component(Gaussian(), rng.normal(size=3), 0.3 * rng.normal(size=3))
    x = s.loc + np.exp(s.log_scale) * rng.normal(size=(400_000, 3))

    def log_density(c):
        z = (x - c.loc) * np.exp(-c.log_scale)
        return np.sum(-0.5 * z**2 - c.log_scale - 0.5 * np.log(2 * np.pi), axis=1)

    diff = log_density(s) - log_density(q)
    assert abs(kl_gaussians(s, q) - diff.mean()) < 4 * diff.std() / np.sqrt(len(diff))
    assert kl_gaussians(s, s) == pytest.approx(0.0, abs=1e-12)
    assert kl_gaussians(s, q) != pytest.approx(kl_gaussians(q, s))   # KL(s || q), not the reverse
    with pytest.raises(TypeError, match="s must be a Gaussian"):
        kl_gaussians(Component("laplace", s.loc, s.log_scale), q)
    with pytest.raises(ValueError, match="one dimension"):
        kl_gaussians(s, Component(Gaussian(), np.zeros(2), np.zeros(2)))


def test_the_kl_distance_is_the_unit_distance_with_c0_times_kl():
    toy = {k: v for k, v in authors_rules("exact", toy=True).items() if k != "distance"}
    kw = dict(dims=[3], n_runs=1, methods=["adafw"], n_samples=50, n_eval=200, exact_step=False,
              **{**toy, **{k: v for k, v in AUTHORS_TOY_COMMAND.items() if k != "C0"}})
    rng = np.random.default_rng(7)   # the run's target and component, drawn as random_lmo_step draws them
    target = boosting.random_two_gaussians(3, rng)
    rand = boosting.random_component(target, rng.normal(size=3), rng.normal(size=3))
    d = kl_gaussians(rand, target.component(0))
    a = boosting.random_lmo_step(rng=np.random.default_rng(7), distance="kl", C0=0.5, **kw)
    b = boosting.random_lmo_step(rng=np.random.default_rng(7), distance="unit", C0=0.5 * d, **kw)
    c = boosting.random_lmo_step(rng=np.random.default_rng(7), distance="unit", C0=0.5, **kw)
    assert a.gamma.iloc[0] == pytest.approx(b.gamma.iloc[0], rel=1e-9) and a.step_type.iloc[0] == b.step_type.iloc[0]
    assert a.gamma.iloc[0] > 0 and a.gamma.iloc[0] != pytest.approx(c.gamma.iloc[0])   # d moves the step here
    with pytest.raises(ValueError, match="needs C0"):
        boosting.random_lmo_step(rng=np.random.default_rng(7), distance="kl", **kw)


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_every_old_definition_is_in_the_new_module_unchanged(name):
    assert_only_changed(git_blob(BEFORE[name], f"{name}'s blob before the recorded command"), MODULES[name], CHANGED[name])


def test_without_the_kl_distance_random_lmo_step_makes_the_old_rows():
    module = old_module(git_blob(BEFORE["boosting.py"], "boosting.py's blob before the recorded command"),
                        "inferopt.experiment._boosting_before_toy_command", "boosting.py@" + BEFORE["boosting.py"][:7])
    toy = {k: v for k, v in authors_rules("exact", toy=True).items() if k != "distance"}
    for distance in ("unit", "exact"):
        kw = dict(dims=[2, 5], n_runs=2, methods=("predefined", "adafw", "line_search"), n_samples=50, n_eval=100,
                  C0=0.001, distance=distance, **toy)
        assert module.random_lmo_step(rng=np.random.default_rng(4), **kw).equals(boosting.random_lmo_step(rng=np.random.default_rng(4), **kw))
